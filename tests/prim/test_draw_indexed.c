/*
 * R300 and Maxwell indexed draws in one call (vfetch_r300_draw_indexed,
 * vfetch_maxwell_draw_indexed; docs/prim.md, "Indexed draws in one call"), at every level this
 * machine has (meson also runs it with VFETCH_JIT=0 and =compare):
 *
 *  - sequences of random draws (random R300 and Maxwell formats, every primitive of each
 *    family with random provoking vertices, host fans and yuzu's orders; u8/u16/u32 entries in
 *    either byte order, with and without restart, entries far from 0 with an index offset
 *    bringing them back, R300's max_index clamping some) appended to batches whose buffers end
 *    at guard pages, each draw byte for byte against its composition: vfetch_prim_run in range
 *    mode based at the batch's vertex count, then the vertex run of the records min .. max
 *    without an index buffer into the same place (VFETCH_EBATCH_FULL with nothing changed
 *    where they do not fit, then a flush);
 *  - each draw against the per-entry run (vfetch_r300_run / vfetch_maxwell_run through the
 *    entries as an index buffer): every entry's host index names the record that run writes
 *    for it;
 *  - each draw again into a batch exactly its size at guard pages (and one byte, one index
 *    short: VFETCH_EBATCH_FULL);
 *  - the 16-bit range's end, a narrowest plan, draws of only restart entries, and every error
 *    in its documented order, each leaving the buffers, the batch and the result untouched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "batch_snapshot.h"
#include "testutil.h"
#include "vfetch/maxwell.h"
#include "vfetch/prim.h"
#include "vfetch/r300.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint32_t rnd(void)
{
    return test_random(&rng_state);
}

static uint32_t rnd_below(uint32_t n)
{
    return n ? rnd() % n : 0;
}

/* Records each stream holds: the entries plus the index offset stay below it. */
#define RECORDS 1100u

enum family { R300, MAXWELL };

/* A vertex format and its streams (each ending at a guard page). */
struct format {
    enum family family;
    vfetch_r300_plan *r300;
    vfetch_maxwell_plan *maxwell;
    uint32_t stride, record_size;
    unsigned num_streams;
    uint8_t *data[3];
    struct vfetch_binding bind[3];                                /* R300: array i */
    struct vfetch_maxwell_binding mb[VFETCH_MAXWELL_STREAMS];    /* Maxwell: stream j */
};

/* Dwords each R300 DATA_TYPE takes. */
static const uint8_t r300_type_dwords[13] = { 1, 2, 3, 4, 1, 1, 1, 2, 1, 1, 8, 1, 2 };

/* A random R300 array format: 1-4 elements of any type, sign and normalization bits, some
   EXT swizzles and masks, one to three arrays (stride 0 now and then), a dword swap, both
   layouts, a padded stride. */
static void random_r300_desc(struct vfetch_r300_desc *d)
{
    vfetch_r300_desc_init(d);
    const unsigned elements = 1 + rnd_below(4);
    unsigned dwords = 0;
    for (unsigned e = 0; e < elements; e++) {
        const unsigned type = rnd_below(13), skip = rnd_below(5) == 0;
        const unsigned loc = 2 * e + rnd_below(2);
        const uint32_t half = type | skip << 4 | loc << 8 | (e == elements - 1) << 13 |
                              rnd_below(2) << 14 | rnd_below(2) << 15;
        d->prog_stream_cntl[e / 2] |= half << 16 * (e & 1);
        if (rnd_below(4) == 0) { /* a random swizzle (X..W, 0, 1) and a nonzero mask */
            const uint32_t ext = rnd_below(6) | rnd_below(6) << 3 | rnd_below(6) << 6 |
                                 rnd_below(6) << 9 | (1 + rnd_below(15)) << 12;
            d->prog_stream_cntl_ext[e / 2] &= ~(0xffffu << 16 * (e & 1));
            d->prog_stream_cntl_ext[e / 2] |= ext << 16 * (e & 1);
        }
        dwords += r300_type_dwords[type] + skip;
    }
    unsigned arrays = 1 + rnd_below(3);
    if (arrays > dwords)
        arrays = dwords;
    d->num_arrays = arrays;
    unsigned left = dwords;
    for (unsigned a = 0; a < arrays; a++) {
        const unsigned count = a == arrays - 1 ? left : 1 + rnd_below(left - (arrays - 1 - a));
        left -= count;
        d->arrays[a].count_dwords = count;
        d->arrays[a].stride_dwords = rnd_below(10) == 0 ? 0 : count + rnd_below(3);
    }
    d->cntl_status = rnd_below(4);
    d->layout = rnd_below(8) == 0 ? VFETCH_R300_LAYOUT_FULL : VFETCH_R300_LAYOUT_COMPACT;
}

static uint32_t attr_word(unsigned stream, unsigned offset, unsigned size, unsigned type,
                          unsigned swap)
{
    return stream | offset << 7 | size << 21 | type << 27 | (uint32_t)swap << 31;
}

/* A random Maxwell format: 1-6 attributes of every size and type the hardware takes on three
   streams (an instanced one now and then), both layouts, a Bmap with VERTEX_ID and
   INSTANCE_ID now and then. */
static void random_maxwell_desc(struct vfetch_maxwell_desc *d)
{
    static const unsigned sizes[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x0a, 0x0f, 0x12, 0x13,
                                      0x18, 0x1b, 0x1d, 0x2f, 0x30, 0x31, 0x32, 0x33, 0x34 };
    vfetch_maxwell_desc_init(d);
    d->layout = rnd_below(4) == 0 ? VFETCH_MAXWELL_LAYOUT_FULL : VFETCH_MAXWELL_LAYOUT_COMPACT;
    const unsigned nattr = 1 + rnd_below(6);
    int bmap = rnd_below(2);
    for (unsigned k = 0; k < nattr; k++) {
        const unsigned i = rnd_below(16), size = sizes[rnd_below(18)];
        unsigned type = 1 + rnd_below(7);
        struct vfetch_maxwell_attribute a;
        if (vfetch_maxwell_attribute_parse(attr_word(0, 0, size, type, 0), &a))
            type = size == 0x31 ? 7 : 2;
        d->attribute[i] = attr_word(rnd_below(3), rnd_below(24), size, type, rnd_below(2));
        for (unsigned c = 0; bmap && c < 4; c++)
            if (rnd_below(4))
                vfetch_aam_map_add(&d->input_bmap, 32 + 4 * i + c);
    }
    if (bmap) {
        if (rnd_below(2))
            vfetch_aam_map_add(&d->input_bmap, VFETCH_AAM_VERTEX_ID);
        if (rnd_below(2))
            vfetch_aam_map_add(&d->input_bmap, VFETCH_AAM_INSTANCE_ID);
    }
    for (unsigned j = 0; j < 3; j++) {
        d->stream_format[j] = (24 + rnd_below(16)) | 1u << 12;
        d->stream_instance[j] = rnd_below(6) == 0;
        d->stream_frequency[j] = rnd_below(3);
    }
}

static void fill_random(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

/* A random format of the family compiled at the level in force, its streams filled. */
static int make_format(struct format *f, enum family family)
{
    memset(f, 0, sizeof *f);
    f->family = family;
    if (family == R300) {
        struct vfetch_r300_desc d;
        do
            random_r300_desc(&d);
        while (vfetch_r300_compile(&d, &f->r300) != VFETCH_OK);
        if (rnd_below(4) == 0) { /* records padded: bytes past them left as they were */
            d.out_stride = vfetch_r300_plan_out_stride(f->r300) + 4 * (1 + rnd_below(4));
            vfetch_r300_plan_free(f->r300);
            CHECK_EQ(vfetch_r300_compile(&d, &f->r300), VFETCH_OK);
        }
        f->stride = vfetch_r300_plan_out_stride(f->r300);
        f->record_size = vfetch_plan_record_size(f->r300);
        f->num_streams = d.num_arrays;
        for (unsigned a = 0; a < d.num_arrays; a++) {
            const size_t stride = 4 * (size_t)d.arrays[a].stride_dwords;
            const size_t bytes = stride ? RECORDS * stride : 4 * (size_t)d.arrays[a].count_dwords;
            f->data[a] = guard_alloc_tail(bytes);
            if (!f->data[a])
                return 0;
            fill_random(f->data[a], bytes);
            f->bind[a] = (struct vfetch_binding){ f->data[a], bytes };
        }
        return f->r300 != NULL;
    }
    struct vfetch_maxwell_desc d;
    do
        random_maxwell_desc(&d);
    while (vfetch_maxwell_compile(&d, &f->maxwell) != VFETCH_OK);
    f->stride = vfetch_maxwell_plan_out_stride(f->maxwell);
    f->record_size = vfetch_plan_record_size(vfetch_maxwell_plan_converter(f->maxwell));
    f->num_streams = 3;
    for (unsigned j = 0; j < 3; j++) {
        const size_t bytes = RECORDS * (size_t)(d.stream_format[j] & 0xfff) + 64;
        f->data[j] = guard_alloc_tail(bytes);
        if (!f->data[j])
            return 0;
        fill_random(f->data[j], bytes);
        f->mb[j] = (struct vfetch_maxwell_binding){ f->data[j], 0x10000, 0x10000 + bytes - 1 };
    }
    return 1;
}

static void free_format(struct format *f)
{
    vfetch_r300_plan_free(f->r300);
    vfetch_maxwell_plan_free(f->maxwell);
    for (unsigned s = 0; s < 3; s++)
        guard_free(f->data[s]);
}

/* What stays across a draw's entries: bindings, index offset, clamp, instance. */
struct draw_params {
    int64_t offset;
    uint32_t max_index, instance, vertex_id_base;
};

/* The family's draw in one call. */
static int draw_indexed(const struct format *f, const vfetch_prim_plan *prim,
                        const struct draw_params *dp, const void *in, size_t in_size,
                        uint32_t count, struct vfetch_batch *b, struct vfetch_draw_result *r)
{
    if (f->family == R300) {
        struct vfetch_run_params p;
        vfetch_r300_run_params_init(&p);
        p.streams = f->bind;
        p.num_streams = f->num_streams;
        p.index_offset = dp->offset;
        p.max_index = dp->max_index;
        p.instance = dp->instance;
        return vfetch_r300_draw_indexed(f->r300, prim, &p, in, in_size, count, b, r);
    }
    struct vfetch_maxwell_run_params p;
    vfetch_maxwell_run_params_init(&p);
    p.streams = f->mb;
    p.index_offset = dp->offset;
    p.instance = dp->instance;
    p.base_instance = 1;
    p.vertex_id_base = dp->vertex_id_base;
    return vfetch_maxwell_draw_indexed(f->maxwell, prim, &p, in, in_size, count, b, r);
}

/* The vertex half of the composition: the family's run of `n` records from `first`, no
   index buffer (Maxwell: VERTEX_ID moved back by the offset, so that it is entry + base). With
   `entries` (native u32), the per-entry run through them instead. */
static int vertex_run(const struct format *f, const struct draw_params *dp, uint32_t first,
                      uint32_t n, const uint32_t *entries, void *out, size_t out_size)
{
    if (f->family == R300) {
        struct vfetch_run_params p;
        vfetch_r300_run_params_init(&p);
        p.streams = f->bind;
        p.num_streams = f->num_streams;
        p.first = entries ? 0 : first;
        p.count = n;
        p.indices = entries;
        p.index_type = entries ? VFETCH_INDEX_U32 : VFETCH_INDEX_NONE;
        p.indices_size = entries ? 4 * (size_t)n : 0;
        p.index_offset = dp->offset;
        p.max_index = dp->max_index;
        p.instance = dp->instance;
        p.out = out;
        p.out_size = out_size;
        return vfetch_r300_run(f->r300, &p);
    }
    struct vfetch_maxwell_run_params p;
    vfetch_maxwell_run_params_init(&p);
    p.streams = f->mb;
    p.first = entries ? 0 : first;
    p.count = n;
    p.indices = entries;
    p.index_type = entries ? VFETCH_INDEX_U32 : VFETCH_INDEX_NONE;
    p.indices_size = entries ? 4 * (size_t)n : 0;
    p.index_offset = dp->offset;
    p.instance = dp->instance;
    p.base_instance = 1;
    p.vertex_id_base = entries ? dp->vertex_id_base
                               : dp->vertex_id_base - (uint32_t)(uint64_t)dp->offset;
    p.out = out;
    p.out_size = out_size;
    return vfetch_maxwell_run(f->maxwell, &p);
}

/* The guest record of an entry, as a run through an index buffer reads it. */
static uint32_t record_of(const struct draw_params *dp, uint32_t e)
{
    const int64_t sum = (int64_t)e + dp->offset;
    return sum > (int64_t)dp->max_index ? dp->max_index : (uint32_t)sum;
}

/* A random draw's entries: `count` values base .. base + span - 1 of `bytes` in the byte order
   asked, one in eight the restart index where restart is on and the width holds it (one it
   does not hold, 0x10000 in u8 or u16 entries, matches no entry). */
struct entries {
    uint8_t bytes, big, restart;
    uint32_t restart_index;
    uint32_t count;
    uint32_t value[1024]; /* as the guest's, before restart */
};

static void random_entries(struct entries *e, uint32_t count, uint32_t span)
{
    e->bytes = (uint8_t[]){ 1, 2, 4 }[rnd_below(3)];
    e->big = e->bytes > 1 && rnd_below(2);
    e->restart = rnd_below(2);
    const uint32_t type_max = e->bytes == 4 ? 0xffffffffu : (1u << (8 * e->bytes)) - 1;
    e->restart_index = rnd_below(3) ? type_max : rnd_below(4) == 0 ? 0x10000u : rnd_below(40);
    if (span > type_max)
        span = type_max;
    const uint32_t base = rnd_below(3) == 0 ? 0 : rnd_below(type_max - span + 1);
    e->count = count;
    for (uint32_t i = 0; i < count; i++)
        e->value[i] = e->restart && e->restart_index <= type_max && rnd_below(8) == 0
                          ? e->restart_index
                          : base + rnd_below(span);
}

static void store_entries(const struct entries *e, uint8_t *p)
{
    for (uint32_t i = 0; i < e->count; i++)
        for (uint32_t b = 0; b < e->bytes; b++)
            p[i * e->bytes + b] =
                (uint8_t)(e->value[i] >> (e->big ? 8 * (e->bytes - 1 - b) : 8 * b));
}

static int is_restart(const struct entries *e, uint32_t v)
{
    return e->restart && v == e->restart_index;
}

static const uint32_t r300_primitives[] = { 1, 2, 3, 4, 5, 6, 12, 13, 14, 15 };

/* A range-mode primitive plan of the family for these entries, a random primitive and options. */
static vfetch_prim_plan *random_prim(enum family family, const struct entries *e, int wide)
{
    for (;;) {
        struct vfetch_prim_desc d;
        vfetch_prim_desc_init(&d);
        d.frontend = family == R300 ? VFETCH_PRIM_R300 : VFETCH_PRIM_MAXWELL;
        d.primitive = family == R300 ? r300_primitives[rnd_below(10)] : rnd_below(14);
        d.index_type = wide ? VFETCH_INDEX_U32 : VFETCH_INDEX_U16;
        d.guest_provoking = (enum vfetch_prim_provoking)rnd_below(2);
        d.host_provoking = (enum vfetch_prim_provoking)rnd_below(2);
        d.host_fans = rnd_below(3) == 0;
        d.yuzu_orders = family == MAXWELL && rnd_below(4) == 0;
        d.guest_index_bytes = e->bytes;
        d.guest_big_endian = e->big;
        d.guest_restart = e->restart;
        d.guest_restart_index = e->restart_index;
        d.range = 1;
        vfetch_prim_plan *plan;
        if (vfetch_prim_compile(&d, &plan) == VFETCH_OK)
            return plan;
    }
}

/* A batch through the call, and the composition's copy of it. */
struct pair {
    struct vfetch_batch one;
    uint8_t *want_vertices, *want_indices;
    size_t want_vertices_used, want_indices_used;
    uint32_t want_count, want_stride;
    size_t width;
};

static int same_batch(const struct pair *b)
{
    return b->one.vertices_used == b->want_vertices_used &&
           b->one.indices_used == b->want_indices_used && b->one.vertex_count == b->want_count &&
           b->one.record_stride == b->want_stride &&
           !memcmp(b->one.vertices, b->want_vertices, b->one.vertices_capacity) &&
           !memcmp(b->one.indices, b->want_indices, b->one.indices_capacity * b->width);
}

static uint32_t index_at(const uint8_t *p, size_t width, size_t i)
{
    if (width == 4) {
        uint32_t v;
        memcpy(&v, p + 4 * i, 4);
        return v;
    }
    uint16_t v;
    memcpy(&v, p + 2 * i, 2);
    return v;
}

static void set_index(uint8_t *p, size_t width, size_t i, uint32_t v)
{
    if (width == 4)
        memcpy(p + 4 * i, &v, 4);
    else {
        const uint16_t h = (uint16_t)v;
        memcpy(p + 2 * i, &h, 2);
    }
}

static unsigned draws_checked, entries_checked, exact_checked, fulls;

/* Every entry's host index names the record the per-entry run writes for it: the records of
   the composition's vertex run (first .. first + n - 1) and the per-entry run, each into
   zeroed memory, compared record by record. */
static void check_per_entry(const struct format *f, const struct draw_params *dp,
                            const struct entries *e, uint32_t first, uint32_t n)
{
    uint32_t *list = malloc(4 * (size_t)e->count + 4);
    uint32_t listed = 0;
    for (uint32_t i = 0; i < e->count; i++)
        if (!is_restart(e, e->value[i]))
            list[listed++] = e->value[i];
    const size_t range_bytes = (size_t)n * f->stride, entry_bytes = (size_t)listed * f->stride;
    uint8_t *range = calloc(1, range_bytes + 1), *each = calloc(1, entry_bytes + 1);
    CHECK_EQ(vertex_run(f, dp, first, n, NULL, range, range_bytes), VFETCH_OK);
    CHECK_EQ(vertex_run(f, dp, 0, listed, list, each, entry_bytes), VFETCH_OK);
    for (uint32_t i = 0; i < listed; i++) {
        const uint32_t k = record_of(dp, list[i]) - first;
        test_checks++;
        if (k >= n || memcmp(range + (size_t)k * f->stride, each + (size_t)i * f->stride,
                             f->record_size)) {
            test_failures++;
            fprintf(stderr, "draw-indexed: entry %u (%u) is not record %u of the range\n", i,
                    list[i], k);
            break;
        }
    }
    entries_checked += listed;
    free(list);
    free(range);
    free(each);
}

/* The draw again into a batch exactly its size, both buffers ending at guard pages and holding
   what the composition's batch held where the records go (`before`): the same records, and
   the same indices based at 0; one byte or one index short, VFETCH_EBATCH_FULL. */
static void check_exact(const struct format *f, const vfetch_prim_plan *prim,
                        const struct draw_params *dp, const uint8_t *in, size_t in_size,
                        uint32_t count, const uint8_t *before, const struct pair *b,
                        size_t at_vertex, size_t at_index, uint32_t base,
                        const struct vfetch_draw_result *want)
{
    const size_t vbytes = (size_t)want->vertices * f->stride;
    const size_t most = vfetch_prim_index_count(prim, count);
    uint8_t *v = guard_alloc_tail(vbytes), *ix = guard_alloc_tail(most * b->width);
    if ((vbytes && !v) || (most && !ix)) {
        CHECK(0);
        return;
    }
    memcpy(v, before, vbytes);
    struct vfetch_draw_result r;
    /* one byte, then one index short: full, nothing written */
    if (vbytes) {
        struct vfetch_batch short_v = { v + 1, vbytes - 1, 0, 0, 0, ix, most, 0 };
        CHECK_EQ(draw_indexed(f, prim, dp, in, in_size, count, &short_v, &r), VFETCH_EBATCH_FULL);
    }
    if (most) {
        struct vfetch_batch short_i = { v, vbytes, 0, 0, 0, ix + b->width, most - 1, 0 };
        CHECK_EQ(draw_indexed(f, prim, dp, in, in_size, count, &short_i, &r), VFETCH_EBATCH_FULL);
    }
    CHECK(!memcmp(v, before, vbytes));
    struct vfetch_batch exact = { v, vbytes, 0, 0, 0, ix, most, 0 };
    CHECK_EQ(draw_indexed(f, prim, dp, in, in_size, count, &exact, &r), VFETCH_OK);
    CHECK_EQ(exact.vertices_used, vbytes);
    CHECK_EQ(exact.vertex_count, want->vertices);
    CHECK_EQ(exact.indices_used, want->indices);
    CHECK(!memcmp(v, b->want_vertices + at_vertex, vbytes));
    const uint32_t all_ones = b->width == 4 ? 0xffffffffu : 0xffffu;
    int same = 1;
    for (size_t i = 0; i < most; i++) {
        const uint32_t w = i < want->indices ? index_at(b->want_indices + at_index * b->width, b->width, i) : 0;
        const uint32_t rebased = i < want->indices && w != all_ones ? w - base : w;
        same &= index_at(ix, b->width, i) == rebased;
    }
    CHECK(same);
    exact_checked++;
    guard_free(v);
    guard_free(ix);
}

/* The scratch buffers of a sequence. */
struct scratch {
    uint8_t *indices; /* the composition's indices: 8,192 of 4 bytes */
    uint8_t *before;  /* what the batch held where a draw's records go */
};

/* One draw against its composition, into the batch as it is: 1 if it was appended, 0 if it
   was VFETCH_EBATCH_FULL (checked: nothing changed). */
static int one_draw(const struct format *f, const vfetch_prim_plan *prim,
                    const struct draw_params *dp, const struct entries *e, const uint8_t *in,
                    struct pair *b, struct scratch *sc, unsigned d)
{
    const uint32_t count = e->count;
    const size_t in_size = (size_t)count * e->bytes;
    const uint32_t all_ones = b->width == 4 ? 0xffffffffu : 0xffffu;
    const size_t vbytes = b->one.vertices_capacity, icap = b->one.indices_capacity;
    /* the primitive's indices at the batch's vertex count, into scratch */
    struct vfetch_prim_run_params pp;
    vfetch_prim_run_params_init(&pp);
    pp.count = count;
    pp.base_index = b->want_count;
    pp.out = sc->indices;
    pp.out_capacity = 8 * 1024;
    pp.indices = in;
    pp.indices_size = in_size;
    struct vfetch_prim_result pr = { 0, 0, 0, 0 };
    const int prim_err = vfetch_prim_run(prim, &pp, &pr);
    const size_t most = vfetch_prim_index_count(prim, count);
    struct vfetch_draw_result got = { 7, 7, 7, 7 };
    if (prim_err == VFETCH_OK && pr.min_index > pr.max_index) {
        /* no entry but restart entries: nothing appended */
        CHECK_EQ(draw_indexed(f, prim, dp, in, in_size, count, &b->one, &got), VFETCH_OK);
        CHECK(same_batch(b));
        CHECK(got.vertices == 0 && got.indices == 0 && got.min_index == 1 && got.max_index == 0);
        return 1;
    }
    CHECK(prim_err == VFETCH_OK || prim_err == VFETCH_EPRIM_INDEX_RANGE);
    uint32_t lo = UINT32_MAX, hi = 0; /* the test's own scan */
    for (uint32_t i = 0; i < count; i++)
        if (!is_restart(e, e->value[i])) {
            lo = e->value[i] < lo ? e->value[i] : lo;
            hi = e->value[i] > hi ? e->value[i] : hi;
        }
    if (prim_err == VFETCH_OK) {
        CHECK_EQ(pr.min_index, lo);
        CHECK_EQ(pr.max_index, hi);
    }
    const uint32_t first = record_of(dp, lo);
    const uint32_t records = record_of(dp, hi) - first + 1;
    const int fits = prim_err == VFETCH_OK && (!b->want_count || b->want_stride == f->stride) &&
                     (uint64_t)records * f->stride <= vbytes - b->want_vertices_used &&
                     most <= icap - b->want_indices_used &&
                     (uint64_t)b->want_count + (hi - lo) < all_ones;
    if (!fits) {
        CHECK_EQ(draw_indexed(f, prim, dp, in, in_size, count, &b->one, &got),
                 VFETCH_EBATCH_FULL);
        CHECK(same_batch(b));
        CHECK(got.vertices == 7 && got.indices == 7);
        return 0;
    }
    /* the vertex half into the composition's batch, the indices after it (clamped where
       max_index merged entries) */
    const size_t at_vertex = b->want_vertices_used, at_index = b->want_indices_used;
    memcpy(sc->before, b->want_vertices + at_vertex, (size_t)records * f->stride);
    CHECK_EQ(vertex_run(f, dp, first, records, NULL, b->want_vertices + at_vertex,
                        vbytes - at_vertex),
             VFETCH_OK);
    const uint32_t top = b->want_count + records - 1;
    for (size_t i = 0; i < pr.written; i++) {
        uint32_t v = index_at(sc->indices, b->width, i);
        if (v != all_ones && v > top)
            v = top;
        set_index(b->want_indices + at_index * b->width, b->width, i, v);
    }
    const uint32_t base = b->want_count;
    b->want_vertices_used += (size_t)records * f->stride;
    b->want_indices_used += pr.written;
    b->want_count += records;
    b->want_stride = f->stride;
    CHECK_EQ(draw_indexed(f, prim, dp, in, in_size, count, &b->one, &got), VFETCH_OK);
    CHECK_EQ(got.vertices, records);
    CHECK_EQ(got.indices, pr.written);
    CHECK_EQ(got.min_index, lo);
    CHECK_EQ(got.max_index, hi);
    draws_checked++;
    if (!same_batch(b)) {
        fprintf(stderr, "draw-indexed: %s format, %u-bit, draw %u (%u entries of %u bytes, "
                        "restart %u) differs from its composition\n",
                f->family == R300 ? "R300" : "Maxwell", b->width == 4 ? 32 : 16, d, count,
                e->bytes, e->restart);
        CHECK(0);
        return 1;
    }
    check_per_entry(f, dp, e, first, records);
    if (d % 3 == 0)
        check_exact(f, prim, dp, in, in_size, count, sc->before, b, at_vertex, at_index, base,
                    &got);
    return 1;
}

/* One format, one index width: `draws` random draws appended to a batch whose buffers end at
   guard pages, each against its composition; a draw that does not fit is VFETCH_EBATCH_FULL
   with nothing changed, then the batch is flushed and the draw made again. */
static void run_sequence(struct format *f, int wide, unsigned draws)
{
    struct pair b;
    memset(&b, 0, sizeof b);
    b.width = wide ? 4 : 2;
    const size_t vbytes = (size_t)f->stride * (300 + rnd_below(1200));
    const size_t icap = 200 + rnd_below(2000);
    b.one.vertices = guard_alloc_tail(vbytes);
    b.one.vertices_capacity = vbytes;
    b.one.indices = guard_alloc_tail(icap * b.width);
    b.one.indices_capacity = icap;
    b.want_vertices = calloc(1, vbytes);
    b.want_indices = calloc(1, icap * b.width);
    struct scratch sc = { malloc(8 * 1024 * 4), malloc((size_t)f->stride * 1024 + 1) };
    struct entries *e = malloc(sizeof *e);
    if (!b.one.vertices || !b.one.indices || !b.want_vertices || !b.want_indices ||
        !sc.indices || !sc.before || !e) {
        CHECK(0);
        goto out;
    }
    for (unsigned d = 0; d < draws; d++) {
        const uint32_t count = rnd_below(5) == 0   ? rnd_below(6)
                               : rnd_below(8) == 0 ? rnd_below(1024)
                                                   : rnd_below(90);
        const uint32_t span = 1 + (rnd_below(4) == 0 ? rnd_below(RECORDS - 100) : rnd_below(120));
        random_entries(e, count, span);
        vfetch_prim_plan *prim = random_prim(f->family, e, wide);
        uint8_t *in = guard_alloc_tail((size_t)count * e->bytes);
        store_entries(e, in);
        /* an index offset that brings the smallest entry's record into the streams; R300's
           VAP_VF_MAX_VTX_INDX clamping some now and then */
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t i = 0; i < count; i++)
            if (!is_restart(e, e->value[i])) {
                lo = e->value[i] < lo ? e->value[i] : lo;
                hi = e->value[i] > hi ? e->value[i] : hi;
            }
        struct draw_params dp = { 0, UINT32_MAX, rnd_below(4), rnd() };
        if (lo <= hi) {
            dp.offset = -(int64_t)lo + rnd_below(RECORDS - (hi - lo));
            if (f->family == R300 && rnd_below(5) == 0)
                dp.max_index = (uint32_t)(lo + dp.offset) + rnd_below(hi - lo + 1);
        }
        if (!one_draw(f, prim, &dp, e, in, &b, &sc, d)) {
            /* flush: both batches empty (their bytes stay), the draw again, which must fit
               an empty batch unless it is larger than the batch */
            b.one.vertices_used = b.one.indices_used = b.want_vertices_used = b.want_indices_used = 0;
            b.one.vertex_count = b.want_count = 0;
            b.one.record_stride = b.want_stride = 0;
            fulls++;
            const uint64_t records = record_of(&dp, hi) - record_of(&dp, lo) + 1;
            const int larger = records * f->stride > vbytes ||
                               vfetch_prim_index_count(prim, count) > icap;
            CHECK_EQ(one_draw(f, prim, &dp, e, in, &b, &sc, d), !larger);
        }
        vfetch_prim_plan_free(prim);
        guard_free(in);
    }
out:
    guard_free(b.one.vertices);
    guard_free(b.one.indices);
    free(b.want_vertices);
    free(b.want_indices);
    free(sc.indices);
    free(sc.before);
    free(e);
}

static const unsigned levels[] = { 0, VFETCH_CPU_SSE2, VFETCH_CPU_SSE41, VFETCH_CPU_AVX2,
                                   VFETCH_CPU_AVX512, VFETCH_CPU_NEON };

static void test_sequences(void)
{
    const unsigned saved = vfetch_get_cpu_mask();
    const unsigned available = vfetch_cpu_flags();
    unsigned ran = 0;
    for (unsigned l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        if (l && !(available & levels[l]))
            continue;
        vfetch_set_cpu_mask(levels[l]);
        for (unsigned k = 0; k < 12; k++) {
            struct format f;
            if (make_format(&f, k % 2 ? MAXWELL : R300))
                run_sequence(&f, k / 2 % 2, 80);
            else
                CHECK(0);
            free_format(&f);
        }
        ran++;
    }
    vfetch_set_cpu_mask(saved);
    printf("draw-indexed: %u levels, %u draws against their composition, %u entries against "
           "the per-entry run, %u exact batches, %u full batches\n",
           ran, draws_checked, entries_checked, exact_checked, fulls);
    CHECK(fulls > 0);
    CHECK(exact_checked > 0);
}

/* ---- fixed cases --------------------------------------------------------------------------- */

/* R300: FLOAT_3 position then D3DCOLOR, one array of 4 dwords; 32-byte records. */
static vfetch_r300_plan *simple_r300(void)
{
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    const uint32_t el0 = 2u | 0u << 8, el1 = 5u | 1u << 8 | 1u << 13 | 1u << 15;
    d.prog_stream_cntl[0] = el0 | el1 << 16;
    d.num_arrays = 1;
    d.arrays[0].stride_dwords = 4;
    d.arrays[0].count_dwords = 4;
    vfetch_r300_plan *plan = NULL;
    CHECK_EQ(vfetch_r300_compile(&d, &plan), VFETCH_OK);
    return plan;
}

/* Maxwell: R32G32B32_FLOAT from stream 0 (stride 12) as generic 0, VERTEX_ID in the Bmap. */
static vfetch_maxwell_plan *simple_maxwell(void)
{
    struct vfetch_maxwell_desc d;
    vfetch_maxwell_desc_init(&d);
    d.attribute[0] = attr_word(0, 0, 0x02, 7, 0); /* R32_G32_B32, FLOAT */
    d.stream_format[0] = 12 | 1u << 12;
    for (unsigned c = 0; c < 3; c++)
        vfetch_aam_map_add(&d.input_bmap, 32 + c);
    vfetch_aam_map_add(&d.input_bmap, VFETCH_AAM_VERTEX_ID);
    vfetch_maxwell_plan *plan = NULL;
    CHECK_EQ(vfetch_maxwell_compile(&d, &plan), VFETCH_OK);
    return plan;
}

static vfetch_prim_plan *prim_of(enum vfetch_prim_frontend fe, uint32_t primitive, int bytes,
                                 int restart, int range, int wide, int narrowest)
{
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    d.frontend = fe;
    d.primitive = primitive;
    d.index_type = wide ? VFETCH_INDEX_U32 : VFETCH_INDEX_U16;
    d.narrowest = (uint8_t)narrowest;
    d.guest_index_bytes = (uint8_t)bytes;
    d.guest_restart = (uint8_t)restart;
    d.guest_restart_index = 0xffff;
    d.range = (uint8_t)range;
    vfetch_prim_plan *plan = NULL;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    return plan;
}

/* The error test's buffers and a snapshot of what a failing call must leave as it was. */
static uint8_t err_vertices[1024];
static uint16_t err_indices[64 + 1];

/* what a failing call must leave as it was (tests/batch_snapshot.h) */
#define snap(s, b)                                                                          \
    batch_snap(s, b, err_vertices, sizeof err_vertices, err_indices, sizeof err_indices)
#define unchanged batch_unchanged

/* Every error of vfetch_r300_draw_indexed in the documented order, each with the later
   checks' faults present too where they can be, so that the order is what decides. */
static void test_errors_r300(void)
{
    vfetch_r300_plan *plan = simple_r300();
    vfetch_prim_plan *tri = prim_of(VFETCH_PRIM_R300, VFETCH_R300_TRIANGLES, 2, 1, 1, 0, 0);
    vfetch_prim_plan *no_range = prim_of(VFETCH_PRIM_R300, VFETCH_R300_TRIANGLES, 2, 1, 0, 0, 0);
    vfetch_prim_plan *no_buffer = prim_of(VFETCH_PRIM_R300, VFETCH_R300_TRIANGLES, 0, 0, 0, 0, 0);
    static float verts[40][4];
    for (unsigned i = 0; i < 40; i++)
        for (unsigned c = 0; c < 4; c++)
            verts[i][c] = (float)(i * 4 + c);
    struct vfetch_binding bind = { verts, sizeof verts };
    /* six entries 10..15 (restart 0xFFFF between): records 10 .. 15 with offset 0 */
    const uint16_t in[7] = { 10, 11, 12, 0xffff, 13, 14, 15 };
    struct vfetch_run_params p;
    vfetch_r300_run_params_init(&p);
    p.streams = &bind;
    p.num_streams = 1;
    struct vfetch_batch b = { err_vertices, sizeof err_vertices, 64, 2, 32, err_indices, 64, 3 };
    memset(err_vertices, 0x5a, sizeof err_vertices);
    memset(err_indices, 0xa5, sizeof err_indices);
    struct batch_snapshot before;
    snap(&before, &b);
    struct vfetch_draw_result r = { 9, 9, 9, 9 };
#define REFUSED(call, code)                                                                 \
    do {                                                                                    \
        CHECK_EQ(call, code);                                                               \
        CHECK(unchanged(&before, &b));                                                      \
        CHECK(r.vertices == 9 && r.indices == 9 && r.min_index == 9 && r.max_index == 9);   \
    } while (0)
#define DRAW(prim, params, ptr, size, n) vfetch_r300_draw_indexed(plan, prim, params, ptr, size, n, &b, &r)
    /* EINVAL: NULL arguments (the indices short as well: EINVAL comes first) */
    REFUSED(vfetch_r300_draw_indexed(NULL, tri, &p, in, 2, 7, &b, &r), VFETCH_EINVAL);
    REFUSED(DRAW(NULL, &p, in, 2, 7), VFETCH_EINVAL);
    REFUSED(DRAW(tri, NULL, in, 2, 7), VFETCH_EINVAL);
    REFUSED(vfetch_r300_draw_indexed(plan, tri, &p, in, 2, 7, NULL, &r), VFETCH_EINVAL);
    /* a primitive plan not in range mode, or without an index buffer */
    REFUSED(DRAW(no_range, &p, in, sizeof in, 7), VFETCH_EINVAL);
    REFUSED(DRAW(no_buffer, &p, in, sizeof in, 7), VFETCH_EINVAL);
    /* the fields a draw supplies itself set, one at a time */
    for (unsigned k = 0; k < 7; k++) {
        struct vfetch_run_params q = p;
        switch (k) {
        case 0: q.first = 1; break;
        case 1: q.count = 1; break;
        case 2: q.indices = in; break;
        case 3: q.index_type = VFETCH_INDEX_U16; break;
        case 4: q.indices_size = 2; break;
        case 5: q.out = err_vertices; break;
        default: q.out_size = 16; break;
        }
        REFUSED(DRAW(tri, &q, in, sizeof in, 7), VFETCH_EINVAL);
    }
    /* the bindings: fewer than the plan's streams, a NULL array */
    p.num_streams = 0;
    REFUSED(DRAW(tri, &p, in, sizeof in, 7), VFETCH_EINVAL);
    p.num_streams = 1;
    p.streams = NULL;
    REFUSED(DRAW(tri, &p, in, sizeof in, 7), VFETCH_EINVAL);
    p.streams = &bind;
    /* the batch's figures past its capacities */
    b.vertices_used = sizeof err_vertices + 1;
    snap(&before, &b);
    REFUSED(DRAW(tri, &p, in, sizeof in, 7), VFETCH_EINVAL);
    b.vertices_used = 64;
    b.indices_used = 65;
    snap(&before, &b);
    REFUSED(DRAW(tri, &p, in, sizeof in, 7), VFETCH_EINVAL);
    b.indices_used = 3;
    /* a NULL vertex buffer, a NULL or misaligned index buffer */
    b.vertices = NULL;
    snap(&before, &b);
    REFUSED(DRAW(tri, &p, in, sizeof in, 7), VFETCH_EINVAL);
    b.vertices = err_vertices;
    b.indices = NULL;
    snap(&before, &b);
    REFUSED(DRAW(tri, &p, in, sizeof in, 7), VFETCH_EINVAL);
    b.indices = (uint8_t *)err_indices + 1;
    snap(&before, &b);
    REFUSED(DRAW(tri, &p, in, sizeof in, 7), VFETCH_EINVAL);
    b.indices = err_indices;
    snap(&before, &b);
    /* NULL entries with entries to read */
    REFUSED(DRAW(tri, &p, NULL, sizeof in, 7), VFETCH_EINVAL);
    /* the entries' own: short (the streams short and the batch full as well) */
    bind.size = 15 * 16;
    b.vertices_capacity = 64 + 5 * 32;
    snap(&before, &b);
    REFUSED(DRAW(tri, &p, in, sizeof in - 1, 7), VFETCH_ESHORT_INDICES);
    /* the vertex run's: the index offset below the smallest entry, an unbound stream, a short
       one (the batch full as well) */
    p.index_offset = -11;
    REFUSED(DRAW(tri, &p, in, sizeof in, 7), VFETCH_EINDEX_RANGE);
    p.index_offset = -10; /* records 0 .. 5: fits the short stream */
    const uint8_t *data = bind.data;
    bind.data = NULL;
    REFUSED(DRAW(tri, &p, in, sizeof in, 7), VFETCH_EMISSING_STREAM);
    bind.data = data;
    p.index_offset = 0;
    REFUSED(DRAW(tri, &p, in, sizeof in, 7), VFETCH_ESHORT_STREAM);
    /* the batch: no room for six records (one byte short) */
    bind.size = sizeof verts;
    REFUSED(DRAW(tri, &p, in, sizeof in, 7), VFETCH_EBATCH_FULL);
    b.vertices_capacity = 64 + 6 * 32;
    snap(&before, &b);
    /* no room for the indices: 7 entries as TRIANGLES are at most 6 */
    b.indices_capacity = 3 + 5;
    snap(&before, &b);
    REFUSED(DRAW(tri, &p, in, sizeof in, 7), VFETCH_EBATCH_FULL);
    b.indices_capacity = 64;
    /* records of another stride */
    b.record_stride = 48;
    snap(&before, &b);
    REFUSED(DRAW(tri, &p, in, sizeof in, 7), VFETCH_EBATCH_FULL);
    b.record_stride = 32;
    /* the highest host index, vertex_count + max - min, at 0xFFFF */
    b.vertex_count = 0xffff - 5;
    snap(&before, &b);
    REFUSED(DRAW(tri, &p, in, sizeof in, 7), VFETCH_EBATCH_FULL);
    b.vertex_count = 2;
    snap(&before, &b);
    /* and it goes through: six records 10..15, two triangles' indices (10 11 12, 13 14 15) */
    CHECK_EQ(DRAW(tri, &p, in, sizeof in, 7), VFETCH_OK);
    CHECK(r.vertices == 6 && r.indices == 6 && r.min_index == 10 && r.max_index == 15);
    CHECK(b.vertices_used == 64 + 6 * 32 && b.vertex_count == 8 && b.indices_used == 9 &&
          b.record_stride == 32);
    for (unsigned i = 0; i < 6; i++)
        CHECK_EQ(err_indices[3 + i], 2 + i);
    float x;
    memcpy(&x, err_vertices + 64 + 5 * 32, 4);
    CHECK_FLOAT(x, 60.0f); /* record 15's first float */
    CHECK(!memcmp(err_vertices + 64 + 6 * 32, before.vertices + 64 + 6 * 32,
                  sizeof err_vertices - 64 - 6 * 32));
    /* no entries, or only restart entries: nothing appended */
    snap(&before, &b);
    r = (struct vfetch_draw_result){ 9, 9, 9, 9 };
    CHECK_EQ(DRAW(tri, &p, NULL, 0, 0), VFETCH_OK);
    CHECK(unchanged(&before, &b));
    CHECK(r.vertices == 0 && r.indices == 0 && r.min_index == 1 && r.max_index == 0);
    const uint16_t restarts[3] = { 0xffff, 0xffff, 0xffff };
    r = (struct vfetch_draw_result){ 9, 9, 9, 9 };
    CHECK_EQ(DRAW(tri, &p, restarts, sizeof restarts, 3), VFETCH_OK);
    CHECK(unchanged(&before, &b));
    CHECK(r.vertices == 0 && r.indices == 0 && r.min_index == 1 && r.max_index == 0);
#undef DRAW
    vfetch_prim_plan_free(tri);
    vfetch_prim_plan_free(no_range);
    vfetch_prim_plan_free(no_buffer);
    vfetch_r300_plan_free(plan);
}

/* Maxwell's own: its streams array, its limit, its base vertex, VERTEX_ID; the shared checks
   once each. */
static void test_errors_maxwell(void)
{
    vfetch_maxwell_plan *plan = simple_maxwell();
    vfetch_prim_plan *lines = prim_of(VFETCH_PRIM_MAXWELL, VFETCH_MAXWELL_LINES, 4, 1, 1, 0, 0);
    static float pos[30][3];
    for (unsigned i = 0; i < 30; i++)
        for (unsigned c = 0; c < 3; c++)
            pos[i][c] = (float)(i * 3 + c);
    struct vfetch_maxwell_binding mb[VFETCH_MAXWELL_STREAMS];
    memset(mb, 0, sizeof mb);
    mb[0] = (struct vfetch_maxwell_binding){ pos, 0x1000, 0x1000 + sizeof pos - 1 };
    const uint32_t in[4] = { 25, 27, 26, 28 }; /* with base vertex -20: records 5 .. 8 */
    struct vfetch_maxwell_run_params p;
    vfetch_maxwell_run_params_init(&p);
    p.streams = mb;
    p.index_offset = -20;
    p.vertex_id_base = 1000;
    const uint32_t stride = vfetch_maxwell_plan_out_stride(plan);
    CHECK_EQ(stride, 16u);
    struct vfetch_batch b = { err_vertices, sizeof err_vertices, 0, 0, 0, err_indices, 64, 0 };
    memset(err_vertices, 0x5a, sizeof err_vertices);
    memset(err_indices, 0xa5, sizeof err_indices);
    struct batch_snapshot before;
    snap(&before, &b);
    struct vfetch_draw_result r = { 9, 9, 9, 9 };
#define DRAW(params, n) vfetch_maxwell_draw_indexed(plan, lines, params, in, sizeof in, n, &b, &r)
    REFUSED(vfetch_maxwell_draw_indexed(NULL, lines, &p, in, sizeof in, 4, &b, &r), VFETCH_EINVAL);
    REFUSED(DRAW(NULL, 4), VFETCH_EINVAL);
    struct vfetch_maxwell_run_params q = p;
    q.count = 4;
    REFUSED(DRAW(&q, 4), VFETCH_EINVAL);
    q = p;
    q.streams = NULL;
    REFUSED(DRAW(&q, 4), VFETCH_EINVAL);
    REFUSED(vfetch_maxwell_draw_indexed(plan, lines, &p, in, sizeof in - 1, 4, &b, &r),
            VFETCH_ESHORT_INDICES);
    q = p;
    q.index_offset = -26;
    REFUSED(DRAW(&q, 4), VFETCH_EINDEX_RANGE);
    mb[0].data = NULL;
    REFUSED(DRAW(&p, 4), VFETCH_EMISSING_STREAM);
    mb[0].data = pos;
    mb[0].limit = 0x1000 + 9 * 12 - 2; /* record 8 one byte short (and the batch too small) */
    b.vertices_capacity = 3 * 16;
    snap(&before, &b);
    REFUSED(DRAW(&p, 4), VFETCH_ESHORT_STREAM);
    mb[0].limit = 0x1000 + 9 * 12 - 1;
    REFUSED(DRAW(&p, 4), VFETCH_EBATCH_FULL);
    b.vertices_capacity = 4 * 16;
    snap(&before, &b);
    CHECK_EQ(DRAW(&p, 4), VFETCH_OK);
    CHECK(r.vertices == 4 && r.indices == 4 && r.min_index == 25 && r.max_index == 28);
    /* records 5..8 in order; the lines 25-27, 26-28 as host 0-2, 1-3; VERTEX_ID entry + 1000 */
    const int vid = vfetch_maxwell_plan_slot(plan, VFETCH_AAM_VERTEX_ID);
    CHECK(vid >= 0);
    for (unsigned k = 0; k < 4; k++) {
        float x;
        uint32_t id;
        memcpy(&x, err_vertices + 16 * k, 4);
        memcpy(&id, err_vertices + 16 * k + 4 * (size_t)vid, 4);
        CHECK_FLOAT(x, (float)((5 + k) * 3));
        CHECK_EQ(id, 1025 + k);
    }
    CHECK(err_indices[0] == 0 && err_indices[1] == 2 && err_indices[2] == 1 && err_indices[3] == 3);
#undef DRAW
#undef REFUSED
    vfetch_prim_plan_free(lines);
    vfetch_maxwell_plan_free(plan);
}

/* The 16-bit range at its end, a narrowest plan (the batch's width is its widest), restart
   entries passed through (a fan the host draws) and a draw of only those. */
static void test_widths(void)
{
    vfetch_r300_plan *plan = simple_r300();
    static float verts[8][4];
    struct vfetch_binding bind = { verts, sizeof verts };
    struct vfetch_run_params p;
    vfetch_r300_run_params_init(&p);
    p.streams = &bind;
    p.num_streams = 1;
    static uint8_t vbuf[32 * 32];
    static uint16_t ibuf[64];
    struct vfetch_draw_result r;
    vfetch_prim_plan *points = prim_of(VFETCH_PRIM_R300, VFETCH_R300_POINTS, 1, 0, 1, 0, 0);
    const uint8_t in[5] = { 7, 3, 4, 5, 6 }; /* records 3..7, max - min = 4 */
    struct vfetch_batch b = { vbuf, sizeof vbuf, 0, 0xfffa, 32, ibuf, 64, 0 };
    /* at 0xfffa the highest index is 0xfffe: fits; at 0xfffb it would be 0xffff */
    CHECK_EQ(vfetch_r300_draw_indexed(plan, points, &p, in, 5, 5, &b, &r), VFETCH_OK);
    CHECK(ibuf[0] == 0xfffe && ibuf[1] == 0xfffa);
    b.vertex_count = 0xfffb;
    b.indices_used = 0;
    CHECK_EQ(vfetch_r300_draw_indexed(plan, points, &p, in, 5, 5, &b, &r), VFETCH_EBATCH_FULL);
    vfetch_prim_plan_free(points);
    /* a narrowest 32-bit plan writes 32-bit indices: the batch holds one width */
    static uint32_t ibuf32[64];
    vfetch_prim_plan *narrow = prim_of(VFETCH_PRIM_R300, VFETCH_R300_POINTS, 1, 0, 1, 1, 1);
    struct vfetch_batch w = { vbuf, sizeof vbuf, 0, 0x1fffe, 32, ibuf32, 64, 0 };
    CHECK_EQ(vfetch_r300_draw_indexed(plan, narrow, &p, in, 5, 5, &w, &r), VFETCH_OK);
    CHECK(ibuf32[0] == 0x1fffe + 4 && ibuf32[1] == 0x1fffe && w.indices_used == 5);
    w = (struct vfetch_batch){ vbuf, sizeof vbuf, 0, 0, 0, ibuf32, 64, 0 };
    CHECK_EQ(vfetch_r300_draw_indexed(plan, narrow, &p, in, 5, 5, &w, &r), VFETCH_OK);
    CHECK(ibuf32[0] == 4 && ibuf32[4] == 3);
    vfetch_prim_plan_free(narrow);
    /* a fan the host draws keeps its restart entries as the host's restart index */
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    d.frontend = VFETCH_PRIM_R300;
    d.primitive = VFETCH_R300_TRIANGLE_FAN;
    d.host_fans = 1;
    d.guest_index_bytes = 2;
    d.guest_restart = 1;
    d.guest_restart_index = 0xffff;
    d.range = 1;
    vfetch_prim_plan *fan;
    CHECK_EQ(vfetch_prim_compile(&d, &fan), VFETCH_OK);
    const uint16_t fin[5] = { 6, 4, 5, 0xffff, 7 };
    b = (struct vfetch_batch){ vbuf, sizeof vbuf, 0, 10, 32, ibuf, 64, 0 };
    CHECK_EQ(vfetch_r300_draw_indexed(plan, fan, &p, fin, sizeof fin, 5, &b, &r), VFETCH_OK);
    CHECK(r.vertices == 4 && r.indices == 5);
    CHECK(ibuf[0] == 12 && ibuf[1] == 10 && ibuf[2] == 11 && ibuf[3] == 0xffff && ibuf[4] == 13);
    /* only restart entries: nothing, though the fan would pass them through */
    const struct vfetch_batch kept = b;
    const uint16_t rin[2] = { 0xffff, 0xffff };
    CHECK_EQ(vfetch_r300_draw_indexed(plan, fan, &p, rin, sizeof rin, 2, &b, &r), VFETCH_OK);
    CHECK(!memcmp(&kept, &b, sizeof b) && r.vertices == 0 && r.indices == 0);
    vfetch_prim_plan_free(fan);
    vfetch_r300_plan_free(plan);
}

/* VAP_VF_MAX_VTX_INDX clamping: entries whose records pass it share the clamped record, and
   the offset saturates at it rather than overflowing. */
static void test_clamp(void)
{
    vfetch_r300_plan *plan = simple_r300();
    static float verts[16][4];
    for (unsigned i = 0; i < 16; i++)
        verts[i][0] = (float)i;
    struct vfetch_binding bind = { verts, sizeof verts };
    struct vfetch_run_params p;
    vfetch_r300_run_params_init(&p);
    p.streams = &bind;
    p.num_streams = 1;
    p.index_offset = 2;
    p.max_index = 9;
    static uint8_t vbuf[16 * 32];
    static uint16_t ibuf[16];
    vfetch_prim_plan *points = prim_of(VFETCH_PRIM_R300, VFETCH_R300_POINTS, 1, 0, 1, 0, 0);
    const uint8_t in[6] = { 9, 5, 7, 12, 6, 8 }; /* records 11 7 9 14 8 10 -> 9 7 9 9 8 9 */
    struct vfetch_batch b = { vbuf, sizeof vbuf, 0, 100, 32, ibuf, 16, 0 };
    struct vfetch_draw_result r;
    CHECK_EQ(vfetch_r300_draw_indexed(plan, points, &p, in, 6, 6, &b, &r), VFETCH_OK);
    CHECK(r.vertices == 3 && r.indices == 6 && r.min_index == 5 && r.max_index == 12);
    const uint16_t want[6] = { 102, 100, 102, 102, 101, 102 };
    CHECK(!memcmp(ibuf, want, sizeof want));
    for (unsigned k = 0; k < 3; k++) {
        float x;
        memcpy(&x, vbuf + 32 * k, 4);
        CHECK_FLOAT(x, (float)(7 + k));
    }
    /* every record past the clamp: one record, every index the base */
    p.index_offset = INT64_MAX;
    b = (struct vfetch_batch){ vbuf, sizeof vbuf, 0, 0, 0, ibuf, 16, 0 };
    CHECK_EQ(vfetch_r300_draw_indexed(plan, points, &p, in, 6, 6, &b, &r), VFETCH_OK);
    CHECK(r.vertices == 1 && ibuf[0] == 0 && ibuf[3] == 0 && ibuf[5] == 0);
    float x;
    memcpy(&x, vbuf, 4);
    CHECK_FLOAT(x, 9.0f);
    vfetch_prim_plan_free(points);
    vfetch_r300_plan_free(plan);
}

int main(void)
{
    test_sequences();
    test_errors_r300();
    test_errors_maxwell();
    test_widths();
    test_clamp();
    return test_summary("draw-indexed");
}
