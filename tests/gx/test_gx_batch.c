/*
 * One call per guest draw (vfetch_gx_state_draw_batch, docs/gx.md, "Batches"): sequences of
 * random draw commands (every primitive, random counts, skipped vertices in the indexed
 * format) appended to batches whose buffers end at guard pages, byte for byte against the two
 * calls it stands for (vfetch_gx_state_draw, then vfetch_prim_run of the primitive with the
 * state's index options, based at the records already in the batch), under every combination
 * of index width, primitive restart, line/point expansion and dropped incomplete primitives;
 * batches filled to their last byte until the draw that does not fit (VFETCH_EBATCH_FULL),
 * then flushed; and every error of the call in its documented order, each leaving the buffers,
 * the batch's figures and the result untouched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "gx_testutil.h"
#include "batch_snapshot.h"
#include "testutil.h"
#include "vfetch/gx.h"
#include "vfetch/prim.h"

static uint64_t rng_state = 0x243f6a8885a308d3u;

static uint32_t rnd(void)
{
    return test_random(&rng_state);
}

/* Guest memory: the indexed format's arrays (positions f32x3 at 0x100, colours RGB565 at
   0x8000). The state maps its first `mapped` bytes: 64 KiB, where the positions' array holds
   2,600 rows (each draw's indices are checked before it converts), or all of it, where every
   index16 names a row inside it (none is). */
static uint8_t mem1[1 << 20];
static size_t mapped = 64 << 10;

/* The formats: a direct one (the peer kit's config a: pos s16x3, nrm s8x3, col0 RGBA8888,
   tex0 s16x2; 17 bytes) in VAT 0, and an indexed one (config c: pos index16 -> f32x3, col0
   index8 -> RGB565; 3 bytes) in VAT 1. The VCD is the state's, shared by every VAT: one format
   at a time. */
struct format {
    const char *name;
    uint32_t vcd_lo, vcd_hi, vat_a;
    unsigned vat, vertex_size;
    int indexed;
};

static const struct format formats[] = {
    { "direct", 0x2a00, 1, 0x54e16487u, 0, 17, 0 },
    { "indexed", 0x4600, 0, 0x40000009u, 1, 3, 1 },
};

static void load_format(vfetch_gx_state *st, const struct format *f)
{
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0x50, f->vcd_lo), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0x60, f->vcd_hi), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, (uint8_t)(0x70 + f->vat), f->vat_a), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, (uint8_t)(0x80 + f->vat), 0x80000000u), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, (uint8_t)(0x90 + f->vat), 0), 0);
}

static vfetch_gx_state *make_state(void)
{
    vfetch_gx_state *st = gx_packed_state();
    CHECK(st != NULL);
    if (!st)
        return NULL;
    CHECK_EQ(vfetch_gx_state_map_memory(st, 0, 0, mem1, mapped), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0xa0, 0x100), 0);  /* positions: 2,600 rows */
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0xb0, 12), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0xa2, 0x8000), 0); /* colours: 256 rows */
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0xb2, 2), 0);
    return st;
}

/* count random vertices of format f; in the indexed one every eighth position index is the
   skip value, the others inside their arrays. */
static void random_vertices(const struct format *f, uint8_t *v, uint32_t count)
{
    for (uint32_t i = 0; i < count * f->vertex_size; i++)
        v[i] = (uint8_t)rnd();
    if (!f->indexed)
        return;
    for (uint32_t i = 0; i < count; i++) {
        const uint32_t rows = mapped > (64 << 10) ? 0xffff : 2600;
        const uint32_t pos = rnd() % 8 == 0 ? 0xffff : rnd() % rows;
        v[3 * i] = (uint8_t)(pos >> 8);
        v[3 * i + 1] = (uint8_t)pos;
        v[3 * i + 2] = (uint8_t)rnd();
    }
}

static const uint8_t primitives[] = { 0x80, 0x88, 0x90, 0x98, 0xa0, 0xa8, 0xb0, 0xb8 };

/* A batch's buffers and their copies for the two-call composition. */
struct batch_pair {
    struct vfetch_batch one;  /* through vfetch_gx_state_draw_batch (guard pages) */
    uint8_t *want_vertices, *want_indices;
    size_t want_vertices_used, want_indices_used;
    uint32_t want_count;
};

static int same_batch(const struct batch_pair *b, size_t width)
{
    return b->one.vertices_used == b->want_vertices_used &&
           b->one.indices_used == b->want_indices_used && b->one.vertex_count == b->want_count &&
           !memcmp(b->one.vertices, b->want_vertices, b->one.vertices_capacity) &&
           !memcmp(b->one.indices, b->want_indices, b->one.indices_capacity * width);
}

/* The most vertices a draw of the sequences takes. */
#define MAX_DRAW 320

/* One format under one set of index options: `draws` random draws appended to a batch, each
   against the two calls; a draw that does not fit is VFETCH_EBATCH_FULL with nothing changed,
   then the batch is flushed (its figures zeroed) and the draw made again. */
static void run_sequence(const struct format *f, const struct vfetch_gx_index_options *o,
                         unsigned draws, size_t vertex_bytes, size_t index_capacity)
{
    vfetch_gx_state *st = make_state();
    if (!st)
        return;
    load_format(st, f);
    CHECK_EQ(vfetch_gx_state_set_index_options(st, o), 0);
    const vfetch_gx_plan *plan;
    CHECK_EQ(vfetch_gx_state_plan(st, f->vat, &plan), 0);
    const size_t stride = vfetch_gx_plan_out_stride(plan);
    vfetch_prim_plan *prims[8];
    size_t width = 2;
    for (unsigned k = 0; k < 8; k++) {
        struct vfetch_prim_desc d;
        vfetch_prim_desc_init(&d);
        d.primitive = primitives[k];
        d.index_type = o->index_type == VFETCH_INDEX_U32 ? VFETCH_INDEX_U32 : VFETCH_INDEX_U16;
        d.restart = o->restart;
        d.expand_lines_points = o->expand_lines_points;
        d.drop_incomplete = o->drop_incomplete;
        CHECK_EQ(vfetch_prim_compile(&d, &prims[k]), 0);
        struct vfetch_prim_plan_info info;
        vfetch_prim_plan_info(prims[k], &info);
        width = info.index_bytes;
    }
    struct batch_pair b = { 0 };
    b.one.vertices = guard_alloc_tail(vertex_bytes);
    b.one.vertices_capacity = vertex_bytes;
    b.one.indices = guard_alloc_tail(index_capacity * width);
    b.one.indices_capacity = index_capacity;
    b.want_vertices = calloc(1, vertex_bytes);
    b.want_indices = calloc(1, index_capacity * width);
    uint8_t *src = malloc(MAX_DRAW * f->vertex_size);
    uint8_t *records = malloc(MAX_DRAW * stride);
    if (!b.one.vertices || !b.one.indices || !b.want_vertices || !b.want_indices || !src ||
        !records) {
        CHECK(0);
        goto out;
    }
    unsigned full = 0;
    for (unsigned d = 0; d < draws; d++) {
        const unsigned k = rnd() % 8;
        const uint8_t command = (uint8_t)(primitives[k] | f->vat);
        /* short draws (the tiny entries), up to 63 (the slot's table of most indices), and
           long ones (the generated long way, lib/jit/x86_batch.c) */
        const uint32_t count = rnd() % 5 == 0   ? rnd() % 5
                               : rnd() % 6 == 0 ? 64 + rnd() % (MAX_DRAW - 63)
                                                : rnd() % 64;
        random_vertices(f, src, count);
        /* the two calls, into scratch, then appended to the expected batch where they fit */
        struct vfetch_gx_result drawn = { 0, 0, 0 };
        CHECK_EQ(vfetch_gx_state_draw(st, f->vat, src, count * f->vertex_size, count, records,
                                      MAX_DRAW * stride, &drawn),
                 0);
        const size_t most = vfetch_prim_index_count(prims[k], count);
        /* what vfetch_gx_batch_long_indices assumes of its counts (32 and more) */
        CHECK(count < 32 || most <= 6 * (size_t)count);
        const uint64_t last = (uint64_t)b.want_count + count - 1;
        struct vfetch_prim_plan_info info;
        vfetch_prim_plan_info(prims[k], &info);
        const uint64_t highest = info.expanded ? 4 * last + 3 : last;
        const int fits = count * stride <= vertex_bytes - b.want_vertices_used &&
                         most <= index_capacity - b.want_indices_used &&
                         (!count || highest < (width == 4 ? 0xffffffffu : 0xffffu));
        struct vfetch_gx_batch_result got = { 7, 7, 7, 7 };
        const int err = vfetch_gx_state_draw_batch(st, command, src, count * f->vertex_size,
                                                   count, &b.one, &got);
        if (!fits) {
            CHECK_EQ(err, VFETCH_EBATCH_FULL);
            CHECK(same_batch(&b, width));
            CHECK(got.vertices == 7 && got.indices == 7);
            /* flush: both batches empty again (the bytes stay), the draw again */
            b.one.vertices_used = b.one.indices_used = b.want_vertices_used = b.want_indices_used = 0;
            b.one.vertex_count = b.want_count = 0;
            full++;
            d--;
            continue;
        }
        CHECK_EQ(err, 0);
        memcpy(b.want_vertices + b.want_vertices_used, records, (size_t)drawn.written * stride);
        struct vfetch_prim_run_params p;
        vfetch_prim_run_params_init(&p);
        p.count = drawn.written;
        p.base_index = b.want_count;
        p.out = b.want_indices + b.want_indices_used * width;
        p.out_capacity = index_capacity - b.want_indices_used;
        struct vfetch_prim_result pr = { 0 };
        CHECK_EQ(vfetch_prim_run(prims[k], &p, &pr), 0);
        CHECK_EQ(got.vertices, drawn.written);
        CHECK_EQ(got.skipped, drawn.skipped);
        CHECK_EQ(got.clamped, drawn.clamped);
        CHECK_EQ(got.indices, pr.written);
        b.want_vertices_used += (size_t)drawn.written * stride;
        b.want_indices_used += pr.written;
        b.want_count += drawn.written;
        if (!same_batch(&b, width)) {
            fprintf(stderr, "gx-batch: %s, options %u/%u/%u/%u: draw %u (command 0x%02x, %u "
                            "vertices) differs from the two calls\n",
                    f->name, (unsigned)o->index_type, o->restart, o->expand_lines_points,
                    o->drop_incomplete, d, command, count);
            CHECK(0);
            break;
        }
    }
    CHECK(full > 0); /* the batches were filled (and flushed) along the way */
out:
    for (unsigned k = 0; k < 8; k++)
        vfetch_prim_plan_free(prims[k]);
    guard_free(b.one.vertices);
    guard_free(b.one.indices);
    free(b.want_vertices);
    free(b.want_indices);
    free(src);
    free(records);
    vfetch_gx_state_free(st);
}

static void test_sequences(void)
{
    for (unsigned i = 0; i < sizeof mem1; i++)
        mem1[i] = (uint8_t)rnd();
    for (unsigned f = 0; f < sizeof formats / sizeof formats[0]; f++)
        for (unsigned m = 0; m < 32; m++) {
            mapped = m & 16 ? sizeof mem1 : 64 << 10;
            const struct vfetch_gx_index_options o = {
                m & 1 ? VFETCH_INDEX_U32 : VFETCH_INDEX_U16, (uint8_t)(m >> 1 & 1),
                (uint8_t)(m >> 2 & 1), (uint8_t)(m >> 3 & 1)
            };
            /* room for about ten draws: every sequence fills its batch several times */
            run_sequence(&formats[f], &o, 300, 640 * 36 + 12, 900);
        }
    mapped = 64 << 10; /* the other tests' indices past the positions' end */
}

/* The host indices' range: a batch whose records reach the 16-bit width takes no more (its
   next draw is VFETCH_EBATCH_FULL), whatever room its buffers have. */
static void test_index_range(void)
{
    vfetch_gx_state *st = make_state();
    if (!st)
        return;
    load_format(st, &formats[0]);
    uint8_t src[4 * 17];
    random_vertices(&formats[0], src, 4);
    static uint8_t vbuf[1024];
    static uint16_t ibuf[64];
    struct vfetch_batch b = { vbuf, sizeof vbuf, 0, 0xfffb, 36, ibuf, 64, 0 };
    struct vfetch_gx_batch_result r;
    /* four vertices at 0xfffb..0xfffe: the last below 0xffff */
    CHECK_EQ(vfetch_gx_state_draw_batch(st, 0x90, src, sizeof src, 3, &b, &r), 0);
    CHECK_EQ(b.vertex_count, 0xfffeu);
    CHECK_EQ(((uint16_t *)ibuf)[2], 0xfffd);
    CHECK_EQ(vfetch_gx_state_draw_batch(st, 0x90, src, sizeof src, 3, &b, &r),
             VFETCH_EBATCH_FULL);
    CHECK_EQ(vfetch_gx_state_draw_batch(st, 0xb8, src, sizeof src, 1, &b, &r), 0); /* 0xfffe */
    CHECK_EQ(vfetch_gx_state_draw_batch(st, 0xb8, src, sizeof src, 1, &b, &r),
             VFETCH_EBATCH_FULL);
    /* 32-bit indices go on */
    const struct vfetch_gx_index_options wide = { VFETCH_INDEX_U32, 0, 0, 0 };
    CHECK_EQ(vfetch_gx_state_set_index_options(st, &wide), 0);
    static uint32_t ibuf32[64];
    b.indices = ibuf32;
    b.indices_used = 0;
    CHECK_EQ(vfetch_gx_state_draw_batch(st, 0xb8, src, sizeof src, 2, &b, &r), 0);
    CHECK_EQ(ibuf32[1], 0x10000u);
    vfetch_gx_state_free(st);
}

/* The error test's buffers, and a snapshot of what a failing call must leave as it was. */
static uint8_t err_vertices[512];
static uint16_t err_indices[64 + 1];

/* what a failing call must leave as it was (tests/batch_snapshot.h) */
#define snap(s, b)                                                                          \
    batch_snap(s, b, err_vertices, sizeof err_vertices, err_indices, sizeof err_indices)
#define unchanged batch_unchanged

/* Every error, in the documented order, each leaving the buffers, the figures and the result
   as they were. */
static void test_errors(void)
{
    vfetch_gx_state *st = make_state();
    if (!st)
        return;
    load_format(st, &formats[1]); /* indexed, VAT 1 */
    uint8_t *const vbuf = err_vertices;
    uint16_t *const ibuf = err_indices;
    uint8_t src[8 * 3];
    random_vertices(&formats[1], src, 8);
    struct vfetch_batch b = { vbuf, sizeof err_vertices, 32, 2, 16, ibuf, 64, 3 };
    memset(vbuf, 0x5a, sizeof err_vertices);
    memset(ibuf, 0xa5, sizeof err_indices);
    struct batch_snapshot before;
    snap(&before, &b);
    struct vfetch_gx_batch_result r = { 9, 9, 9, 9 };
#define REFUSED(call, code)                                                                 \
    do {                                                                                    \
        CHECK_EQ(call, code);                                                               \
        CHECK(unchanged(&before, &b));                                                      \
        CHECK(r.vertices == 9 && r.skipped == 9 && r.clamped == 9 && r.indices == 9);       \
    } while (0)
    /* EINVAL: the arguments, the command, the figures, the buffers */
    REFUSED(vfetch_gx_state_draw_batch(NULL, 0x91, src, sizeof src, 8, &b, &r), VFETCH_EINVAL);
    REFUSED(vfetch_gx_state_draw_batch(st, 0x91, src, sizeof src, 8, NULL, &r), VFETCH_EINVAL);
    REFUSED(vfetch_gx_state_draw_batch(st, 0x79, src, sizeof src, 8, &b, &r), VFETCH_EINVAL);
    REFUSED(vfetch_gx_state_draw_batch(st, 0xc1, src, sizeof src, 8, &b, &r), VFETCH_EINVAL);
    b.vertices_used = sizeof err_vertices + 1;
    snap(&before, &b);
    REFUSED(vfetch_gx_state_draw_batch(st, 0x91, src, sizeof src, 8, &b, &r), VFETCH_EINVAL);
    b.vertices_used = 32;
    b.indices_used = 65;
    snap(&before, &b);
    REFUSED(vfetch_gx_state_draw_batch(st, 0x91, src, sizeof src, 8, &b, &r), VFETCH_EINVAL);
    b.indices_used = 3;
    b.indices = (uint8_t *)ibuf + 1; /* not aligned to the width */
    snap(&before, &b);
    REFUSED(vfetch_gx_state_draw_batch(st, 0x91, src, sizeof src, 8, &b, &r), VFETCH_EINVAL);
    b.indices = NULL;
    snap(&before, &b);
    REFUSED(vfetch_gx_state_draw_batch(st, 0x91, src, sizeof src, 8, &b, &r), VFETCH_EINVAL);
    b.indices = ibuf;
    b.vertices = NULL;
    snap(&before, &b);
    REFUSED(vfetch_gx_state_draw_batch(st, 0x91, src, sizeof src, 8, &b, &r), VFETCH_EINVAL);
    b.vertices = vbuf;
    snap(&before, &b);
    /* the format's error: a reserved colour format in VAT 2 (col0 direct, format 7) */
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0x72, 7u << 14), 0);
    REFUSED(vfetch_gx_state_draw_batch(st, 0x92, src, sizeof src, 8, &b, &r),
            VFETCH_EGX_RESERVED_COLOR);
    /* EBATCH_FULL before the draw's own errors (the vertex bytes are short here too) */
    b.vertices_capacity = 32 + 7 * 16;
    snap(&before, &b);
    REFUSED(vfetch_gx_state_draw_batch(st, 0x91, src, 5, 8, &b, &r), VFETCH_EBATCH_FULL);
    b.vertices_capacity = sizeof err_vertices;
    b.indices_capacity = 3 + 11; /* 8 vertices as TRIANGLES: 6 indices; as QUADS: 12 */
    snap(&before, &b);
    REFUSED(vfetch_gx_state_draw_batch(st, 0x81, src, sizeof src, 8, &b, &r), VFETCH_EBATCH_FULL);
    b.indices_capacity = 64;
    snap(&before, &b);
    /* the draw's own: short vertex bytes, an unbound array, an index past its array */
    REFUSED(vfetch_gx_state_draw_batch(st, 0x91, src, sizeof src - 1, 8, &b, &r),
            VFETCH_ESHORT_STREAM);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0xa2, 0x40000000), 0); /* colours outside every region */
    REFUSED(vfetch_gx_state_draw_batch(st, 0x91, src, sizeof src, 8, &b, &r),
            VFETCH_EMISSING_STREAM);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0xa2, 0x8000), 0);
    src[3] = 0x30; /* position index 0x30xx: past the 64 KiB region */
    REFUSED(vfetch_gx_state_draw_batch(st, 0x91, src, sizeof src, 8, &b, &r),
            VFETCH_EGX_ARRAY_INDEX);
    /* the index options' own */
    const struct vfetch_gx_index_options bad = { (enum vfetch_index_type)3, 0, 0, 0 };
    CHECK_EQ(vfetch_gx_state_set_index_options(st, &bad), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_state_set_index_options(NULL, &bad), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_state_set_index_options(st, NULL), VFETCH_EINVAL);
    /* and the draw goes through once the index is back in its array; a draw of no vertices
       appends nothing */
    src[3] = 0x01;
    CHECK_EQ(vfetch_gx_state_draw_batch(st, 0x91, src, sizeof src, 8, &b, &r), 0);
    CHECK_EQ(b.vertex_count, 2 + r.vertices);
    CHECK_EQ(b.indices_used, 3 + r.indices);
    CHECK_EQ(b.record_stride, 16u);
    /* records of another stride (VAT 3: positions XY, 12-byte records) find the batch full */
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0x73, 4u << 1 | 1u << 30), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0x83, 1u << 31), 0);
    snap(&before, &b);
    r = (struct vfetch_gx_batch_result){ 9, 9, 9, 9 };
    REFUSED(vfetch_gx_state_draw_batch(st, 0x93, src, sizeof src, 8, &b, &r), VFETCH_EBATCH_FULL);
    snap(&before, &b);
    r = (struct vfetch_gx_batch_result){ 9, 9, 9, 9 };
    CHECK_EQ(vfetch_gx_state_draw_batch(st, 0x91, NULL, 0, 0, &b, &r), 0);
    CHECK(unchanged(&before, &b));
    CHECK(r.vertices == 0 && r.indices == 0);
#undef REFUSED
    vfetch_gx_state_free(st);
}

int main(void)
{
    test_sequences();
    test_index_range();
    test_errors();
    return test_summary("gx-batch");
}
