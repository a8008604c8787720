/*
 * Texel kernels: FLOAT16 and FLOAT32 components to RGBA32F, one compilation per ISA level.
 * What the three families of the 1x1 classes share (the per-plan data, the groups and their
 * stack copies, the reference, the checks) is in texel_vec.h.
 *
 * Texels as they are stored: halves converted in order (F16C where it is native, else the
 * exact integer path of vec.h, which quiets signalling NaNs as F16C does), then each output
 * vector is a lane permutation of them with the SEL constants blended in.
 */
#include <stdint.h>
#include <string.h>

#include "simd/texel_vec.h"

#if TEX_X86

/* ======================================================================================== */
/* Per-plan data                                                                              */
/* ======================================================================================== */

struct fl_data {
    uint8_t count, half, copy;
    int32_t idx[4][VEC_LANES]; /* output vector j's lanes: the converted lane each takes */
#if VEC_BITS == 128
    uint8_t bidx[4][16];       /* the same as a pshufb control (0x80 in constant lanes) */
    int32_t m[4][4][4];        /* sse2: output vector j, component k: lanes taking it */
#endif
    int32_t keep[VEC_LANES];
    float cstv[VEC_LANES];
#if VEC_BITS == 512
    uint16_t kconst;
#endif
};
TEXEL_SLOT_FITS(struct fl_data, floats);

static void fl_prepare(const struct vfetch_texel_plan *p, struct fl_data *L)
{
    memset(L, 0, sizeof *L);
    const unsigned cnt = p->format->count;
    L->count = (uint8_t)cnt;
    L->half = p->format->cls == VFETCH_TEXEL_CLASS_FLOAT16;
    L->copy = !L->half && cnt == 4 && p->sel[0] == 0 && p->sel[1] == 1 && p->sel[2] == 2 &&
              p->sel[3] == 3;
    for (unsigned j = 0; j < 4; j++)
        for (unsigned l = 0; l < VEC_LANES; l++) {
            const unsigned s = p->sel[l % 4];
            const unsigned t = j * (VEC_LANES / 4) + l / 4; /* texel within the iteration */
            const unsigned lane = s < 4 ? (t * cnt + s) % VEC_LANES : 0;
            L->idx[j][l] = (int32_t)lane;
#if VEC_BITS == 128
            for (unsigned b = 0; b < 4; b++)
                L->bidx[j][4 * l + b] = s < 4 ? (uint8_t)(4 * lane + b) : 0x80;
            for (unsigned k = 0; k < 4; k++)
                L->m[j][k][l] = s < 4 && lane == k ? -1 : 0;
#endif
        }
    for (unsigned l = 0; l < VEC_LANES; l++) {
        const unsigned s = p->sel[l % 4];
        L->keep[l] = s < 4 ? -1 : 0;
        L->cstv[l] = s < 4 ? 0.0f : sel_const(s);
#if VEC_BITS == 512
        if (s >= 4)
            L->kconst |= (uint16_t)(1u << l);
#endif
    }
}

static void NAME(float_prepare)(struct vfetch_texel_plan *plan)
{
    const unsigned cls = plan->format->cls;
    if (cls == VFETCH_TEXEL_CLASS_FLOAT16 || cls == VFETCH_TEXEL_CLASS_FLOAT32)
        fl_prepare(plan, texel_slot_fill(plan->kernel_data.floats, NAME(float_prepare)));
}

/* ======================================================================================== */
/* The kernels                                                                                */
/* ======================================================================================== */

/* One iteration converts VEC_LANES components stored in order and writes VEC_LANES / count
   texels, as 4 / count output vectors of VEC_LANES / 4 texels. */
struct fl_regs {
    vi idx[4], keep, cst;
#if VEC_BITS == 512
    vi place;
    simde__mmask16 kconst;
#endif
#if VEC_BITS == 128 && !VEC_HAVE_SHUFFLE
    vi m[4][4];
#endif
};

/* VEC_LANES components at s as float bits, in order. */
VEC_INLINE vi fl_convert(const struct fl_regs *R, const uint8_t *s, int half)
{
    (void)R;
    if (!half)
        return vi_loadu(s);
#if VEC_BITS == 512
#if VEC_HAVE_F16C
    return vf_as_vi(vf_from_packed_halves(simde_mm256_loadu_si256((const void *)s)));
#else
    return vi_half_to_float_bits(vi_and(place_containers(R->place, s, 2), vi_set1(0xffff)));
#endif
#elif VEC_BITS == 256
#if VEC_HAVE_F16C
    return vf_as_vi(simde_mm256_cvtph_ps(simde_mm_loadu_si128((const void *)s)));
#else
    return vi_half_to_float_bits(simde_mm256_cvtepu16_epi32(simde_mm_loadu_si128((const void *)s)));
#endif
#else
    return vi_half_to_float_bits(
        simde_mm_unpacklo_epi16(simde_mm_loadl_epi64((const void *)s), simde_mm_setzero_si128()));
#endif
}

/* Output vector j of an iteration from the converted components x. */
VEC_INLINE vi fl_out(const struct fl_regs *R, vi x, unsigned j)
{
#if VEC_BITS == 512
    return simde_mm512_mask_blend_epi32(R->kconst, simde_mm512_permutexvar_epi32(R->idx[j], x), R->cst);
#elif VEC_BITS == 256
    return vi_or(vi_and(simde_mm256_permutevar8x32_epi32(x, R->idx[j]), R->keep), R->cst);
#elif VEC_HAVE_SHUFFLE
    return vi_or(simde_mm_shuffle_epi8(x, R->idx[j]), R->cst);
#else
    vi o = R->cst;
    o = vi_or(o, vi_and(simde_mm_shuffle_epi32(x, 0x00), R->m[j][0]));
    o = vi_or(o, vi_and(simde_mm_shuffle_epi32(x, 0x55), R->m[j][1]));
    o = vi_or(o, vi_and(simde_mm_shuffle_epi32(x, 0xaa), R->m[j][2]));
    o = vi_or(o, vi_and(simde_mm_shuffle_epi32(x, 0xff), R->m[j][3]));
    return o;
#endif
}

VEC_INLINE void fl_group(const struct fl_regs *R, const uint8_t *s, uint8_t *d, unsigned cnt,
                         int half)
{
    const vi x = fl_convert(R, s, half);
    for (unsigned j = 0; j < 4 / cnt; j++)
        vi_storeu(d + j * VEC_BITS / 8, fl_out(R, x, j));
}

VEC_INLINE void fl_run(const struct fl_regs *R, const uint8_t *src, size_t n, uint8_t *dst,
                       unsigned cnt, int half)
{
    const size_t G = VEC_LANES / cnt, bb = (half ? 2u : 4u) * cnt;
    size_t i = 0;
    UNROLL_RUN(G, cnt == 4 ? 4 : 2, fl_group(R, src + j * bb, dst + j * 16, cnt, half));
    if (i < n) {
        uint8_t s[VEC_LANES * 4], d[VEC_LANES * 16];
        memset(s, 0, sizeof s);
        memcpy(s, src + i * bb, (n - i) * bb);
        fl_group(R, s, d, cnt, half);
        memcpy(dst + i * 16, d, (n - i) * 16);
    }
}

VEC_INLINE void fl_kernel(const struct vfetch_texel_plan *plan, const uint8_t *src, size_t n,
                          uint8_t *dst, int half)
{
    struct fl_data tmp;
    const struct fl_data *L = texel_slot_data(plan->kernel_data.floats, NAME(float_prepare));
    if (!L) {
        fl_prepare(plan, &tmp);
        L = &tmp;
    }
    if (L->copy) {
        memcpy(dst, src, n * 16);
        return;
    }
    struct fl_regs R;
    for (unsigned j = 0; j < 4; j++) {
#if VEC_BITS == 128 && VEC_HAVE_SHUFFLE
        R.idx[j] = vi_loadu(L->bidx[j]);
#else
        R.idx[j] = vi_loadu(L->idx[j]);
#endif
#if VEC_BITS == 128 && !VEC_HAVE_SHUFFLE
        for (unsigned k = 0; k < 4; k++)
            R.m[j][k] = vi_loadu(L->m[j][k]);
#endif
    }
    R.keep = vi_loadu(L->keep);
    R.cst = vi_loadu(L->cstv);
#if VEC_BITS == 512
    R.place = vi_loadu(place2);
    R.kconst = (simde__mmask16)L->kconst;
#endif
    switch (L->count) {
    case 1: fl_run(&R, src, n, dst, 1, half); return;
    case 2: fl_run(&R, src, n, dst, 2, half); return;
    default: fl_run(&R, src, n, dst, 4, half); return;
    }
}

static VFETCH_TEXEL_FN(NAME(float16_f32))
{
    (void)dst_pitch;
    fl_kernel(plan, src, nblocks, dst, 1);
}

static VFETCH_TEXEL_FN(NAME(float32_f32))
{
    (void)dst_pitch;
    fl_kernel(plan, src, nblocks, dst, 0);
}

#endif /* TEX_X86 */

void NAME(vfetch_texel_float_init)(struct vfetch_texel_dsp *dsp)
{
#if TEX_X86
    dsp->float16_f32 = NAME(float16_f32);
    dsp->float32_f32 = NAME(float32_f32);
    dsp->float_prepare = NAME(float_prepare);
#else
    (void)dsp;
#endif
}
