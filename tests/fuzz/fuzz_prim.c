/*
 * Fuzz target: primitive plans and draws (include/vfetch/prim.h). The input gives the ISA
 * level, the front-end (GX, R300 or Maxwell, with the provoking vertex in and out of the last
 * two), the primitive word
 * (mostly one of the front-end's values), restart, line/point expansion,
 * the index width (now and then out of range), the vertex count (mostly small, sometimes up to
 * 2^20), the base index (0, small, or near the width's limit), the output's room (exact, one
 * short, with slack, none) and its address (at a guard page, misaligned, NULL), and the options
 * (the narrowest width, host fans, GX's incomplete primitives dropped, yuzu's orders). Checked:
 *
 *   - compile succeeds exactly for the front-end's primitives (GX's eight, R300's ten, Maxwell's
 *     0..0xD but a triangle strip with adjacency between differing provoking conventions) and a
 *     valid width, else
 *     VFETCH_EPRIM_TYPE / VFETCH_EINVAL, leaving *out untouched;
 *   - vfetch_prim_index_count is the model's count (docs/prim.md's formulas);
 *   - run returns what the model of the header's checks says (EINVAL, EPRIM_INDEX_RANGE with the
 *     model's highest index, ESHORT_OUTPUT, else OK), writes exactly the model's count, and
 *     nothing on error (canary); the output ends at a guard page;
 *   - the level under test and the reference plan (vfetch_set_cpu_mask(0)) agree on the result
 *     and on every index.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "vfetch/prim.h"
#include "vfetch/vfetch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint32_t gx_primitives[8] = { 0x80, 0x88, 0x90, 0x98, 0xA0, 0xA8, 0xB0, 0xB8 };
static const uint32_t r300_primitives[10] = { 1, 2, 3, 4, 5, 6, 12, 13, 14, 15 };
/* Maxwell's 0..9 (points, lines, line loop, line strip, triangles, strip, fan, quads, quad
   strip, polygon) as the R300 primitive of the same shape */
static const uint32_t maxwell_as_r300[10] = { 1, 2, 12, 3, 4, 6, 5, 13, 14, 15 };

/* R300 (docs/prim.md): indices of a draw after Mesa's trimming, and its last vertex. */
static uint64_t model_count_r300(uint32_t prim, uint64_t n, int64_t *last)
{
    uint64_t t;
    switch (prim) {
    case 2: t = n - n % 2; break;
    case 3:
    case 12: t = n < 2 ? 0 : n; break;
    case 4: t = n - n % 3; break;
    case 5:
    case 6:
    case 15: t = n < 3 ? 0 : n; break;
    case 13: t = n - n % 4; break;
    case 14: t = n < 4 ? 0 : n - n % 2; break;
    default: t = n; break;
    }
    *last = (int64_t)t - 1;
    switch (prim) {
    case 3: return t ? 2 * (t - 1) : 0;
    case 12: return 2 * t;
    case 5:
    case 6:
    case 14:
    case 15: return t ? 3 * (t - 2) : 0;
    case 13: return 6 * (t / 4);
    default: return t; /* points, lines, triangles */
    }
}

/* Maxwell's adjacency primitives (0xA..0xD, docs/prim.md): passed through after Mesa's
   trimming, a line strip between differing provoking conventions as a list of its lines. */
static uint64_t model_count_adjacency(uint32_t prim, int same, uint64_t n, int64_t *last)
{
    const uint64_t t = prim == 0xA   ? n - n % 4
                       : prim == 0xB ? (n < 4 ? 0 : n)
                       : prim == 0xC ? n - n % 6
                                     : (n < 6 ? 0 : n - n % 2);
    *last = (int64_t)t - 1;
    return prim == 0xB && !same ? (t ? 4 * (t - 3) : 0) : t;
}

/* The model: indices of a draw (docs/prim.md), and the highest vertex its indices name (-1:
   none). */
static uint64_t model_count(uint32_t prim, int restart, int expand, int drop, uint64_t n,
                            int64_t *last)
{
    const uint64_t t = n >= 3 ? n - 2 : 0;
    expand = expand && prim >= 0xA8;
    switch (prim) {
    case 0x80:
    case 0x88: { /* three vertices left: a triangle, unless dropped */
        const int left = n % 4 == 3 && !drop;
        *last = left ? (int64_t)n - 1 : (int64_t)(4 * (n / 4)) - 1;
        return (restart ? 5 : 6) * (n / 4) + (left ? (restart ? 4 : 3) : 0);
    }
    case 0x90:
        *last = (int64_t)(3 * (n / 3)) - 1;
        return (restart ? 4 : 3) * (n / 3);
    case 0x98: /* (with restart, Dolphin writes a strip below three vertices unless dropped) */
        if (drop && n < 3)
            restart = 0;
        *last = restart || n >= 3 ? (int64_t)n - 1 : -1;
        return restart ? n + 1 : 3 * t;
    case 0xA0: {
        static const uint64_t left[3] = { 0, 4, 5 };
        *last = n >= 3 ? (int64_t)n - 1 : -1;
        return restart ? 6 * (t / 3) + left[t % 3] : 3 * t;
    }
    case 0xA8:
        *last = (int64_t)(2 * (n / 2)) - 1;
        return (expand ? (restart ? 5 : 6) : 2) * (n / 2);
    case 0xB0:
        *last = n >= 2 ? (int64_t)n - 1 : -1;
        return n >= 2 ? (expand ? (restart ? 5 : 6) : 2) * (n - 1) : 0;
    default:
        *last = (int64_t)n - 1;
        return (expand ? (restart ? 5 : 6) : 1) * n;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = fuzz_input_make(data, size);
    const unsigned mask = fuzz_level_mask(fuzz_u8(&in));
    const uint8_t pick = fuzz_u8(&in), flags = fuzz_u8(&in);
    const int r300 = flags >> 5 & 1; /* Mesa's orders: R300, or Maxwell */
    const int maxwell = r300 && (pick / 10) % 2;
    const uint32_t prim = pick >= 240 ? fuzz_u32(&in)
                          : maxwell  ? pick % 14
                          : r300     ? r300_primitives[pick % 10]
                                     : gx_primitives[pick % 8];
    /* (the model reads a Maxwell primitive as its R300 twin, 0: none; its adjacency ones apart) */
    const uint32_t model_prim = !maxwell ? prim : prim < 10 ? maxwell_as_r300[prim] : 0;
    const int adjacency = maxwell && prim >= 0xA && prim <= 0xD;
    const int same_pv = (flags >> 6 & 1) == (flags >> 7 & 1);
    /* (R300: lists, its provoking vertices from bits 6 and 7; restart and expansion ignored) */
    const int restart = (flags & 1) && !r300, expand = flags >> 1 & 1;
    const unsigned width_pick = flags >> 2 & 7;
    const enum vfetch_index_type type = width_pick < 3 ? VFETCH_INDEX_U16
                                        : width_pick < 6 ? VFETCH_INDEX_U32
                                                         : (enum vfetch_index_type)(width_pick == 6 ? 0 : 9);
    const uint8_t count_pick = fuzz_u8(&in);
    const uint32_t count = count_pick < 200 ? count_pick
                           : count_pick < 250 ? fuzz_u16(&in)
                                              : fuzz_u32(&in) & ((1u << 20) - 1);
    const uint8_t base_pick = fuzz_u8(&in);
    const uint32_t raw_base = fuzz_u32(&in);
    const uint32_t limit = type == VFETCH_INDEX_U32 ? 0xffffffffu : 0xffffu;
    const uint32_t base = base_pick < 128 ? raw_base % 1000
                          : base_pick < 192 ? limit - raw_base % 70000u /* near the limit */
                                            : raw_base;
    const uint8_t room = fuzz_u8(&in), where = fuzz_u8(&in), more = fuzz_u8(&in);
    const int narrowest = more & 1, host_fans = more >> 1 & 1, drop = more >> 2 & 1,
              yuzu = more >> 3 & 1;

    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    d.primitive = prim;
    d.restart = (uint8_t)restart;
    d.expand_lines_points = (uint8_t)expand;
    d.index_type = type;
    d.narrowest = (uint8_t)narrowest;
    d.host_fans = (uint8_t)host_fans;
    d.drop_incomplete = (uint8_t)drop;
    d.yuzu_orders = (uint8_t)yuzu;
    if (r300) {
        d.frontend = maxwell ? VFETCH_PRIM_MAXWELL : VFETCH_PRIM_R300;
        d.restart = (uint8_t)(flags & 1); /* ignored */
        d.guest_provoking = (enum vfetch_prim_provoking)(flags >> 6 & 1);
        d.host_provoking = (enum vfetch_prim_provoking)(flags >> 7 & 1);
    }
    int valid = 0;
    for (unsigned i = 0; i < 8 && !r300; i++)
        valid |= prim == gx_primitives[i];
    for (unsigned i = 0; i < 10 && r300; i++)
        valid |= model_prim == r300_primitives[i];
    valid |= adjacency && (prim != 0xD || same_pv); /* a strip with adjacency: only as it is */
    const int type_ok = type == VFETCH_INDEX_U16 || type == VFETCH_INDEX_U32;
    vfetch_prim_plan *plan = (vfetch_prim_plan *)(uintptr_t)1, *ref = NULL;
    fuzz_use_levels(mask);
    int err = vfetch_prim_compile(&d, &plan);
    FUZZ_REQUIRE(err == (!type_ok ? VFETCH_EINVAL : !valid ? VFETCH_EPRIM_TYPE : VFETCH_OK),
                 "compile of 0x%x, type %d: %d", prim, (int)type, err);
    if (err) {
        FUZZ_REQUIRE(plan == (vfetch_prim_plan *)(uintptr_t)1, "a failed compile wrote *out");
        fuzz_use_best_levels();
        return 0;
    }
    fuzz_use_levels(0);
    FUZZ_REQUIRE(vfetch_prim_compile(&d, &ref) == VFETCH_OK, "the reference plan");
    fuzz_use_best_levels();

    int64_t last;
    /* a fan the host draws passes through (where it provokes as the guest's, or in yuzu's
       orders, which also draw a Maxwell polygon so) */
    const int fan_as_is = r300 && host_fans &&
                          ((model_prim == 5 && (same_pv || (maxwell && yuzu))) ||
                           (maxwell && yuzu && prim == 9));
    const uint64_t total = adjacency   ? model_count_adjacency(prim, same_pv, count, &last)
                           : fan_as_is ? (last = count < 3 ? -1 : (int64_t)count - 1, (uint64_t)last + 1)
                           : r300      ? model_count_r300(model_prim, count, &last)
                                       : model_count(prim, restart, expand, drop, count, &last);
    FUZZ_REQUIRE(vfetch_prim_index_count(plan, count) == total, "index count of %u: %zu, model %llu",
                 count, vfetch_prim_index_count(plan, count), (unsigned long long)total);
    const size_t w = type == VFETCH_INDEX_U32 ? 4 : 2;
    /* the room: exact, one short, slack, none */
    const size_t capacity = room < 128 ? (size_t)total
                            : room < 192 ? (total ? (size_t)total - 1 : 0)
                            : room < 240 ? (size_t)total + room % 7
                                         : 0;
    const size_t bytes = capacity * w + 4;
    uint8_t *buf = fuzz_buf_alloc(bytes); /* ends at a guard page */
    uint8_t *got = fuzz_buf_alloc(bytes);
    fuzz_canary_fill(buf, bytes);
    fuzz_canary_fill(got, bytes);
    /* where: at the guard page (the usual), misaligned, NULL */
    const int misaligned = where >= 240 && where < 250, null_out = where >= 250;
    uint8_t *out = null_out ? NULL : buf + (bytes - capacity * w) - (misaligned ? 1 : 0);
    uint8_t *out_ref = null_out ? NULL : got + (bytes - capacity * w) - (misaligned ? 1 : 0);

    const int expanded = expand && prim >= 0xA8 && !r300;
    const uint64_t highest = last < 0 ? 0 : (expanded ? 4 * ((uint64_t)base + (uint64_t)last) + 3
                                                      : (uint64_t)base + (uint64_t)last);
    int want = VFETCH_OK;
    if (total && (null_out || misaligned))
        want = VFETCH_EINVAL;
    else if (last >= 0 && (highest > limit || (restart && highest == limit)))
        want = VFETCH_EPRIM_INDEX_RANGE;
    else if (total > capacity)
        want = VFETCH_ESHORT_OUTPUT;
    /* the width written: 16 bits where a narrowest draw fits them */
    const size_t w_out = narrowest && w == 4 && !misaligned &&
                                 (last < 0 || highest < 0xffffu + (restart ? 0u : 1u))
                             ? 2 : w;

    struct vfetch_prim_run_params p = { .count = count, .base_index = base, .out = out, .out_capacity = capacity };
    struct vfetch_prim_result r = { .written = 12345 }, rr = { .written = 12345 };
    err = vfetch_prim_run(plan, &p, &r);
    FUZZ_REQUIRE(err == want, "0x%x restart %d expand %d %zu-bit: %u vertices at base %u, room %zu: %d, model %d",
                 prim, restart, expand, 8 * w, count, base, capacity, err, want);
    p.out = out_ref;
    const int err_ref = vfetch_prim_run(ref, &p, &rr);
    FUZZ_REQUIRE(err_ref == err, "the reference: %d, the level: %d", err_ref, err);
    if (err) {
        FUZZ_REQUIRE(r.written == 12345, "a refused run wrote the result");
        fuzz_require_canary(buf, 0, bytes, "a refused run's output");
    } else {
        FUZZ_REQUIRE(r.written == total && rr.written == total, "written %zu, model %llu",
                     r.written, (unsigned long long)total);
        FUZZ_REQUIRE(r.index_bytes == w_out && rr.index_bytes == w_out,
                     "%u-byte indices, the reference %u, model %zu", r.index_bytes,
                     rr.index_bytes, w_out);
        FUZZ_REQUIRE(r.min_index == 0 && r.max_index == 0, "a range without an index buffer");
        fuzz_require_same(buf, got, bytes, "the level", "the reference");
        fuzz_require_canary(buf, 0, bytes - capacity * w, "before the output");
        fuzz_require_canary(buf, bytes - capacity * w + total * w_out, bytes, "after the indices");
    }
    vfetch_prim_plan_free(plan);
    vfetch_prim_plan_free(ref);
    fuzz_buf_free(buf);
    fuzz_buf_free(got);
    return 0;
}
