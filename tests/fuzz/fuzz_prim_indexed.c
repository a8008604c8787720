/*
 * Fuzz target: primitive draws through a guest index buffer (vfetch/prim.h's guest_* fields).
 * The input gives the ISA level, the front-end (R300 or Maxwell) and primitive, the provoking
 * vertices, the entries' size (1, 2, 4, or 3 or 8: refused) and byte order, guest restart and
 * its index (the type's all ones, 0, 1 or any), range mode, the output width, the entry count
 * (mostly small, up to 2^16), the entries (the input's bytes, then a generator: values under a
 * bound the input picks, restart entries where the input puts them), the indices' size (exact,
 * a byte short, none and NULL), the base index (0, small, near the limit, any) and the output's
 * room (vfetch_prim_index_count, one short, slack) and address (at a guard page, misaligned,
 * NULL), and the options (the narrowest width, host fans, yuzu's orders). Checked:
 *
 *   - compile succeeds exactly for the front-end's primitives and 1, 2 or 4-byte entries;
 *   - run returns what a model of the header's checks says, in its order (EINVAL,
 *     ESHORT_INDICES, ESHORT_OUTPUT, EPRIM_INDEX_RANGE from the model's smallest and largest
 *     entry), writes nothing on error (canary) and never more than vfetch_prim_index_count;
 *   - the result's range is the model's; the level under test and the reference plan
 *     (vfetch_set_cpu_mask(0)) agree on the result and on every index; the entries and the
 *     output end at guard pages.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "vfetch/prim.h"
#include "vfetch/vfetch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint32_t r300_primitives[10] = { 1, 2, 3, 4, 5, 6, 12, 13, 14, 15 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = fuzz_input_make(data, size);
    const unsigned mask = fuzz_level_mask(fuzz_u8(&in));
    const uint8_t pick = fuzz_u8(&in), flags = fuzz_u8(&in), format = fuzz_u8(&in);
    const int maxwell = flags & 1;
    const uint32_t prim = pick >= 250 ? fuzz_u32(&in) : maxwell ? pick % 15 : r300_primitives[pick % 10];
    static const uint8_t sizes[8] = { 1, 2, 4, 1, 2, 4, 3, 8 };
    const uint8_t bytes = sizes[format & 7];
    const int big = format >> 3 & 1, restart = format >> 4 & 1, range = format >> 5 & 1;
    const enum vfetch_index_type type = flags & 2 ? VFETCH_INDEX_U32 : VFETCH_INDEX_U16;
    const uint32_t type_max = bytes >= 4 ? 0xffffffffu : (1u << (8 * bytes)) - 1;
    const unsigned restart_pick = format >> 6;
    const uint32_t restart_index = restart_pick == 0 ? type_max : restart_pick == 1 ? 0
                                   : restart_pick == 2 ? 1 : fuzz_u32(&in);

    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    d.frontend = maxwell ? VFETCH_PRIM_MAXWELL : VFETCH_PRIM_R300;
    d.primitive = prim;
    d.guest_provoking = (enum vfetch_prim_provoking)(flags >> 2 & 1);
    d.host_provoking = (enum vfetch_prim_provoking)(flags >> 3 & 1);
    d.guest_index_bytes = bytes;
    d.guest_big_endian = (uint8_t)big;
    d.guest_restart = (uint8_t)restart;
    d.guest_restart_index = restart_index;
    d.range = (uint8_t)range;
    d.index_type = type;
    const int narrowest = flags >> 4 & 1, host_fans = flags >> 5 & 1, yuzu = flags >> 6 & 1;
    d.narrowest = (uint8_t)narrowest;
    d.host_fans = (uint8_t)host_fans;
    d.yuzu_orders = (uint8_t)yuzu;
    const int same_pv = d.guest_provoking == d.host_provoking;
    int valid = maxwell ? prim <= 0xD && (prim != 0xD || same_pv) : 0;
    for (unsigned i = 0; i < 10 && !maxwell; i++)
        valid |= prim == r300_primitives[i];
    const int bytes_ok = bytes == 1 || bytes == 2 || bytes == 4;
    vfetch_prim_plan *plan = (vfetch_prim_plan *)(uintptr_t)1, *ref = NULL;
    fuzz_use_levels(mask);
    int err = vfetch_prim_compile(&d, &plan);
    FUZZ_REQUIRE(err == (!bytes_ok ? VFETCH_EINVAL : !valid ? VFETCH_EPRIM_TYPE : VFETCH_OK),
                 "compile of 0x%x with %u-byte entries: %d", prim, bytes, err);
    if (err) {
        FUZZ_REQUIRE(plan == (vfetch_prim_plan *)(uintptr_t)1, "a failed compile wrote *out");
        fuzz_use_best_levels();
        return 0;
    }
    fuzz_use_levels(0);
    FUZZ_REQUIRE(vfetch_prim_compile(&d, &ref) == VFETCH_OK, "the reference plan");
    fuzz_use_best_levels();
    /* a strip with adjacency drawn as it is keeps its restart entries as the host's */
    const int fan = maxwell ? prim == 6 : prim == 5;
    const int fan_as_is = host_fans && ((fan && (same_pv || (maxwell && yuzu))) ||
                                        (maxwell && yuzu && prim == 9));
    const int pass_restart = restart && ((maxwell && ((prim == 0xB && same_pv) || prim == 0xD)) ||
                                         fan_as_is);

    /* the entries */
    const uint8_t count_pick = fuzz_u8(&in);
    const uint32_t count = count_pick < 220 ? count_pick : fuzz_u16(&in);
    const uint8_t bound_pick = fuzz_u8(&in), restart_rate = fuzz_u8(&in);
    const uint32_t bound = bound_pick < 128 ? 1u + bound_pick * 3u : bound_pick < 192 ? 65536 : 0;
    const uint8_t size_pick = fuzz_u8(&in), base_pick = fuzz_u8(&in);
    const uint32_t raw_base = fuzz_u32(&in);
    const uint8_t room = fuzz_u8(&in), where = fuzz_u8(&in);
    const uint32_t limit = type == VFETCH_INDEX_U32 ? 0xffffffffu : 0xffffu;
    const uint32_t base = base_pick < 96 ? 0 : base_pick < 160 ? raw_base % 1000
                          : base_pick < 208 ? limit - raw_base % 70000u : raw_base;
    struct fuzz_rng rng = fuzz_rng_make(fuzz_u64(&in));
    const size_t in_bytes = (size_t)count * bytes;
    uint8_t *entries = fuzz_buf_alloc(in_bytes + 1);
    uint8_t *e = entries + 1; /* ends at the guard page */
    fuzz_fill(&in, &rng, e, in_bytes);
    /* entries under the bound (0: as they came), restart ones where the rate says */
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t v = 0;
        for (unsigned b = 0; b < bytes; b++)
            v |= (uint32_t)e[i * bytes + b] << (big ? 8 * (bytes - 1 - b) : 8 * b);
        if (bound)
            v %= bound;
        if (restart_rate && fuzz_rng_next(&rng) % 256 < restart_rate / 4)
            v = restart_index & type_max;
        for (unsigned b = 0; b < bytes; b++)
            e[i * bytes + b] = (uint8_t)(v >> (big ? 8 * (bytes - 1 - b) : 8 * b));
        if (restart && v == restart_index)
            continue;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    const int null_in = size_pick >= 240;
    const size_t in_size = null_in ? 0 : size_pick < 200 ? in_bytes : (in_bytes ? in_bytes - 1 : 0);

    /* the output */
    const size_t bound_count = vfetch_prim_index_count(plan, count);
    FUZZ_REQUIRE(pass_restart ? bound_count == count : bound_count <= 6 * (size_t)count,
                 "index count of %u entries: %zu", count, bound_count);
    const size_t w = type == VFETCH_INDEX_U32 ? 4 : 2;
    const size_t capacity = room < 160 ? bound_count
                            : room < 208 ? (bound_count ? bound_count - 1 : 0)
                                         : bound_count + room % 7;
    const size_t out_bytes = capacity * w + 4;
    uint8_t *buf = fuzz_buf_alloc(out_bytes), *got = fuzz_buf_alloc(out_bytes);
    fuzz_canary_fill(buf, out_bytes);
    fuzz_canary_fill(got, out_bytes);
    const int misaligned = where >= 240 && where < 250, null_out = where >= 250;
    uint8_t *out = null_out ? NULL : buf + (out_bytes - capacity * w) - (misaligned ? 1 : 0);
    uint8_t *out_ref = null_out ? NULL : got + (out_bytes - capacity * w) - (misaligned ? 1 : 0);

    /* the model of the checks */
    const int any = lo <= hi;
    const uint32_t sub = range && any ? lo : 0;
    const uint64_t top = (uint64_t)base + (hi - sub);
    int want = VFETCH_OK;
    if ((bound_count && (null_out || misaligned)) || (count && null_in))
        want = VFETCH_EINVAL;
    else if (in_size < in_bytes)
        want = VFETCH_ESHORT_INDICES;
    else if (bound_count > capacity)
        want = VFETCH_ESHORT_OUTPUT;
    else if (any && top > limit - (pass_restart ? 1u : 0u))
        want = VFETCH_EPRIM_INDEX_RANGE;
    /* the width written: 16 bits where a narrowest draw fits them */
    const size_t w_out = narrowest && w == 4 && !misaligned &&
                                 (!any || top <= 0xffffu - (pass_restart ? 1u : 0u))
                             ? 2 : w;

    struct vfetch_prim_run_params p = { .count = count, .base_index = base, .out = out,
                                        .out_capacity = capacity,
                                        .indices = null_in ? NULL : e, .indices_size = in_size };
    struct vfetch_prim_result r = { .written = 12345 }, rr = { .written = 12345 };
    err = vfetch_prim_run(plan, &p, &r);
    FUZZ_REQUIRE(err == want, "0x%x u%u%s restart %d range %d %zu-bit: %u entries at base %u, "
                 "room %zu: %d, model %d", prim, 8 * bytes, big ? " big" : "", restart, range,
                 8 * w, count, base, capacity, err, want);
    p.out = out_ref;
    const int err_ref = vfetch_prim_run(ref, &p, &rr);
    FUZZ_REQUIRE(err_ref == err, "the reference: %d, the level: %d", err_ref, err);
    if (err) {
        FUZZ_REQUIRE(r.written == 12345, "a refused run wrote the result");
        fuzz_require_canary(buf, 0, out_bytes, "a refused run's output");
    } else {
        FUZZ_REQUIRE(r.written <= bound_count && r.written == rr.written,
                     "written %zu, the reference %zu, at most %zu", r.written, rr.written,
                     bound_count);
        FUZZ_REQUIRE(r.min_index == (any ? lo : 1) && r.max_index == (any ? hi : 0) &&
                         rr.min_index == r.min_index && rr.max_index == r.max_index,
                     "range %u..%u, model %u..%u", r.min_index, r.max_index, lo, hi);
        FUZZ_REQUIRE(r.index_bytes == w_out && rr.index_bytes == w_out,
                     "%u-byte indices, the reference %u, model %zu", r.index_bytes,
                     rr.index_bytes, w_out);
        if (fan_as_is && !pass_restart)
            FUZZ_REQUIRE(r.written == (count < 3 ? 0 : count), "a fan passed through: %zu of %u",
                         r.written, count);
        fuzz_require_same(buf, got, out_bytes, "the level", "the reference");
        fuzz_require_canary(buf, 0, out_bytes - capacity * w, "before the output");
        fuzz_require_canary(buf, out_bytes - capacity * w + r.written * w_out, out_bytes,
                            "after the indices");
    }
    vfetch_prim_plan_free(plan);
    vfetch_prim_plan_free(ref);
    fuzz_buf_free(entries);
    fuzz_buf_free(buf);
    fuzz_buf_free(got);
    return 0;
}
