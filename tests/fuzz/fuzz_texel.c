/*
 * Fuzz target: texel plans and decodes. The input gives TX_FORMAT1/2, the options, a surface
 * (size, depth, pitch and its unit, slice pitch, buffer size that may be short), a region that
 * may stick out, and a target (format, pitches, size that may be short). Checked:
 *
 *   - compile and decode return VFETCH_OK or a code of the enum, and a failed compile leaves
 *     *out untouched;
 *   - a failed decode writes nothing (the target is a canary against a guard page), and the
 *     surface buffer ends at a guard page, so any over-read crashes;
 *   - the plan at the best level and the reference plan (VFETCH_CPU mask 0) agree on the
 *     result code and on every byte written;
 *   - a successful decode writes exactly the region's texels and no pitch padding;
 *   - with bit 6 of the options byte, the surface is 2^32 - 1 - w texels wide (bit 5: tall)
 *     and the region's x (y) counts back from that edge: sizes near 2^32, the surface in a
 *     sparse mapping of which only the blocks the region reads are filled.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "guard.h"
#include "vfetch/texel.h"
#include "vfetch/vfetch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int decode_with(vfetch_texel_plan *plan, const struct vfetch_texel_surface *s,
                       const struct vfetch_texel_region *r, const struct vfetch_texel_target *t,
                       uint8_t *buf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = fuzz_canary(i);
    struct vfetch_texel_target tt = *t;
    tt.data = buf;
    return vfetch_texel_decode(plan, s, r, &tt);
}

/* A region of a huge surface decodes like its blocks copied out into a small surface (so that
   a walk that skipped or misplaced edge blocks at 2^32 fails here, not only one that differs
   between levels). */
static void check_huge_region(vfetch_texel_plan *plan, const struct vfetch_texel_info *info,
                              const struct vfetch_texel_surface *s,
                              const struct vfetch_texel_region *r,
                              const struct vfetch_texel_target *t, const uint8_t *got,
                              uint64_t pitch, uint64_t slice)
{
    if (!r->width || !r->height || !r->depth)
        return;
    const uint32_t bw = info->block_width, bh = info->block_height, bb = info->block_bytes;
    const uint64_t bx0 = r->x / bw, bx1 = ((uint64_t)r->x + r->width + bw - 1) / bw;
    const uint64_t by0 = r->y / bh, by1 = ((uint64_t)r->y + r->height + bh - 1) / bh;
    const size_t small_pitch = (size_t)(bx1 - bx0) * bb, rows = (size_t)(by1 - by0);
    uint8_t *small = fuzz_buf_alloc(small_pitch * rows * r->depth);
    for (uint32_t z = 0; z < r->depth; z++)
        for (size_t y = 0; y < rows; y++)
            memcpy(small + (z * rows + y) * small_pitch,
                   s->data + (r->z + z) * slice + (by0 + y) * pitch + bx0 * bb, small_pitch);
    const uint32_t sx0 = (uint32_t)(bx0 * bw), sy0 = (uint32_t)(by0 * bh);
    const struct vfetch_texel_surface ss = {
        small, small_pitch * rows * r->depth, r->x + r->width - sx0, r->y + r->height - sy0,
        s->depth == 6 ? 6 : r->depth, 0, VFETCH_TEXEL_PITCH_BYTES, 0
    };
    const struct vfetch_texel_region sr = { r->x - sx0, r->y - sy0, 0, r->width, r->height,
                                            r->depth };
    uint8_t *again = fuzz_buf_alloc(t->size);
    struct vfetch_texel_target st = *t;
    st.data = again;
    fuzz_canary_fill(again, t->size);
    if (ss.depth == r->depth) { /* (a cube's faces cannot be cut out: 2D and 3D plans only) */
        const int e = vfetch_texel_decode(plan, &ss, &sr, &st);
        FUZZ_REQUIRE(e == VFETCH_OK, "the region's blocks as a small surface: %d", e);
        FUZZ_REQUIRE(memcmp(got, again, t->size) == 0,
                     "a region at 2^32 differs from its blocks decoded as a small surface");
    }
    fuzz_buf_free(again);
    fuzz_buf_free(small);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = fuzz_input_make(data, size);
    const uint32_t f1 = fuzz_u32(&in), f2 = fuzz_u32(&in);
    struct vfetch_texel_desc desc;
    vfetch_texel_desc_init(&desc);
    desc.tx_format1 = f1;
    desc.tx_format2 = f2;
    struct vfetch_texel_options o = desc.options;
    const uint8_t ob = fuzz_u8(&in);
    if (ob & 0x80) { /* option values, sometimes out of range */
        o.signed_method = (enum vfetch_texel_signed)fuzz_below(&in, 4);
        o.gamma = (enum vfetch_texel_gamma)fuzz_below(&in, 3);
        o.bc_interp = (enum vfetch_texel_bc_interp)fuzz_below(&in, 3);
        o.dxt_interp = (enum vfetch_texel_dxt_interp)fuzz_below(&in, 3);
        o.dxt_order = (enum vfetch_texel_dxt_order)fuzz_below(&in, 3);
        o.dxt35_colour = (enum vfetch_texel_dxt35_colour)fuzz_below(&in, 3);
        o.code18 = (enum vfetch_texel_code18)fuzz_below(&in, 3);
        o.align10 = (enum vfetch_texel_align10)fuzz_below(&in, 3);
    }
    vfetch_texel_plan *plan = (vfetch_texel_plan *)(uintptr_t)1;
    if (!(ob & 1)) /* else the defaults */
        desc.options = o;
    const int err = vfetch_texel_compile(&desc, &plan);
    FUZZ_REQUIRE(err <= 0 && err > VFETCH_ECOUNT, "vfetch_texel_compile returned %d", err);
    if (err != VFETCH_OK) {
        FUZZ_REQUIRE(plan == (vfetch_texel_plan *)(uintptr_t)1, "failed compile wrote *out");
        return 0;
    }
    vfetch_set_cpu_mask(0);
    vfetch_texel_plan *ref = NULL;
    FUZZ_REQUIRE(vfetch_texel_compile(&desc, &ref) == VFETCH_OK,
                 "the reference compile differs");
    vfetch_set_cpu_mask(~0u);
    struct vfetch_texel_info info;
    vfetch_texel_plan_info(plan, &info);

    /* The surface: small sizes, layouts from the input, the buffer maybe short. */
    struct vfetch_texel_surface s;
    memset(&s, 0, sizeof s);
    s.width = fuzz_below(&in, 70);
    s.height = fuzz_below(&in, 20);
    s.depth = fuzz_below(&in, 8);
    s.pitch_unit = (enum vfetch_texel_pitch_unit)fuzz_below(&in, 3);
    s.pitch = fuzz_u8(&in) & 0x80 ? (size_t)fuzz_u16(&in) : 0;
    s.slice_pitch = fuzz_u8(&in) & 0x80 ? (size_t)fuzz_u16(&in) * 4 : 0;
    const int huge = ob & 0x40, tall = ob & 0x20;
    if (huge && tall)
        s.height = UINT32_MAX - s.height;
    else if (huge)
        s.width = UINT32_MAX - s.width;
    const uint64_t bx = ((uint64_t)s.width + info.block_width - 1) / info.block_width;
    const uint64_t by = ((uint64_t)s.height + info.block_height - 1) / info.block_height;
    const uint64_t pitch = s.pitch ? (s.pitch_unit == VFETCH_TEXEL_PITCH_BLOCKS
                                          ? (uint64_t)s.pitch * info.block_bytes
                                          : s.pitch)
                                   : bx * info.block_bytes;
    const uint64_t slice = s.slice_pitch ? s.slice_pitch : pitch * by;
    uint64_t need = s.depth ? (s.depth - 1) * slice + pitch * by : 0;
    /* (huge surfaces: a sparse mapping of up to 256 GiB, larger ones get that and fail) */
    uint64_t cap = huge && sizeof(size_t) == 8 ? (uint64_t)1 << 38 : 1u << 20;
    if (cap > guard_sparse_limit()) /* under an emulator */
        cap = guard_sparse_limit();
    if (need > cap)
        need = cap;
    const int8_t short_by = (int8_t)fuzz_u8(&in);
    s.size = short_by < 0 && (uint64_t)-short_by <= need ? (size_t)need + (size_t)short_by
                                                          : (size_t)need;
    uint8_t *src = huge ? guard_alloc_tail(s.size) : fuzz_buf_alloc(s.size); /* (may fail) */
    if (!src) {
        vfetch_texel_plan_free(plan);
        vfetch_texel_plan_free(ref);
        return 0; /* no address space for it */
    }
    struct fuzz_rng rng = fuzz_rng_make(fuzz_u64(&in));
    s.data = src;

    struct vfetch_texel_region r;
    r.x = fuzz_below(&in, 72), r.y = fuzz_below(&in, 22), r.z = fuzz_below(&in, 9);
    r.width = fuzz_below(&in, 72), r.height = fuzz_below(&in, 22), r.depth = fuzz_below(&in, 9);
    if (huge && tall)
        r.y = s.height - r.y;
    else if (huge)
        r.x = s.width - r.x;
    const uint8_t whole_bits = fuzz_u8(&in);
    const int whole = !huge && (whole_bits & 1); /* (a whole huge surface: no target for it) */

    struct vfetch_texel_target t;
    memset(&t, 0, sizeof t);
    t.format = (enum vfetch_texel_output)fuzz_below(&in, 3);
    const size_t tb = t.format == VFETCH_TEXEL_RGBA8 ? 4 : 16;
    const uint32_t rw = whole ? s.width : r.width, rh = whole ? s.height : r.height;
    const uint32_t rd = whole ? s.depth : r.depth;
    t.pitch = fuzz_u8(&in) & 0x80 ? (size_t)rw * tb + fuzz_below(&in, 4) * 4 : 0;
    t.slice_pitch = fuzz_u8(&in) & 0x80 ? (size_t)fuzz_u16(&in) * 4 : 0;
    const size_t opitch = t.pitch ? t.pitch : (size_t)rw * tb;
    const size_t oslice = t.slice_pitch ? t.slice_pitch : opitch * rh;
    size_t oneed = rd && rh ? (rd - 1) * oslice + (rh - 1) * opitch + (size_t)rw * tb : 0;
    if (oneed > (4u << 20))
        oneed = 4u << 20;
    const int8_t oshort = (int8_t)fuzz_u8(&in);
    t.size = oshort < 0 && (size_t)-oshort <= oneed ? oneed + (size_t)oshort : oneed;
    if (!huge) {
        fuzz_fill(&in, &rng, src, s.size);
    } else { /* only the blocks the region reads (the rest of the mapping stays untouched) */
        const uint64_t bx0 = r.x / info.block_width;
        const uint64_t bx1 = ((uint64_t)r.x + r.width + info.block_width - 1) / info.block_width;
        const uint64_t by0 = r.y / info.block_height;
        const uint64_t by1 = ((uint64_t)r.y + r.height + info.block_height - 1) / info.block_height;
        for (uint64_t z = r.z; z < (uint64_t)r.z + r.depth; z++)
            for (uint64_t y = by0; y < by1; y++) {
                const uint64_t from = z * slice + y * pitch + bx0 * info.block_bytes;
                const uint64_t to = z * slice + y * pitch + bx1 * info.block_bytes;
                for (uint64_t at = from; at < to && at < s.size; at++)
                    src[at] = (uint8_t)fuzz_rng_next(&rng);
            }
    }

    uint8_t *got = fuzz_buf_alloc(t.size), *want = fuzz_buf_alloc(t.size);
    const int e1 = decode_with(plan, &s, whole ? NULL : &r, &t, got, t.size);
    const int e0 = decode_with(ref, &s, whole ? NULL : &r, &t, want, t.size);
    FUZZ_REQUIRE(e1 <= 0 && e1 > VFETCH_ECOUNT, "vfetch_texel_decode returned %d", e1);
    FUZZ_REQUIRE(e1 == e0, "best level %d, reference %d", e1, e0);
    if (e1 != VFETCH_OK) {
        for (size_t i = 0; i < t.size; i++)
            FUZZ_REQUIRE(got[i] == fuzz_canary(i), "failed decode (%d) wrote byte %zu", e1, i);
    } else {
        FUZZ_REQUIRE(memcmp(got, want, t.size) == 0, "best level and reference differ");
        if (huge)
            check_huge_region(plan, &info, &s, &r, &t, got, pitch, slice);
        /* padding between rows untouched (after a slice's last row, only up to the next
           slice, which a slice pitch of exactly the slice's bytes starts right there) */
        for (uint32_t z = 0; z < rd; z++)
            for (uint32_t y = 0; y < rh; y++)
                for (size_t b = (size_t)rw * tb; b < opitch; b++) {
                    const size_t at = z * oslice + y * opitch + b;
                    if (at < t.size && (y + 1 < rh || (z + 1 < rd && at < (z + 1) * oslice)))
                        FUZZ_REQUIRE(got[at] == fuzz_canary(at), "pitch padding written at %zu", at);
                }
    }
    fuzz_trace("texel 0x%08x 0x%08x %ux%ux%u -> %d\n", (unsigned)f1, (unsigned)f2, s.width,
               s.height, s.depth, e1);
    fuzz_buf_free(src);
    fuzz_buf_free(got);
    fuzz_buf_free(want);
    vfetch_texel_plan_free(plan);
    vfetch_texel_plan_free(ref);
    return 0;
}
