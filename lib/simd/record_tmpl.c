/*
 * The record-program executor (see lib/record.h), one generic loop for every vertex format,
 * compiled per ISA level: load window, permute, shift, convert, scale, blend, store. Levels
 * without a byte shuffle (sse2) have none; the per-op kernels run their plans.
 */
#include "record.h"
#include "dsp.h"
#include "simd/vec.h"

#if defined(VFETCH_ISA_SSE41) || defined(VFETCH_ISA_NEON) || defined(VFETCH_ISA_AVX2) ||  \
    defined(VFETCH_ISA_AVX512)

#if VEC_BITS == 128
#include <simde/x86/sse4.1.h>
#endif

VEC_INLINE vi rp_load(const int32_t *p)
{
    return vi_loadu(p);
}

VEC_INLINE vf rp_loadf(const float *p)
{
#if VEC_BITS == 512
    return simde_mm512_loadu_ps(p);
#elif VEC_BITS == 256
    return simde_mm256_loadu_ps(p);
#else
    return simde_mm_loadu_ps(p);
#endif
}

/* Per lane: sel all ones ? b : a. */
VEC_INLINE vi rp_blend(vi a, vi b, vi sel)
{
    return vi_or(vi_and(sel, b), vi_andnot(sel, a));
}

/* The vector's source bytes, permuted into lanes (zero where nothing is read). */
VEC_INLINE vi rp_gather(const struct vfetch_rp_vector *v, const uint8_t *const *gbase)
{
#if VEC_BITS == 128
    const vi win = simde_mm_loadu_si128((const void *)(gbase[v->stream[0]] + v->src_off[0]));
    return simde_mm_shuffle_epi8(win, simde_mm_loadu_si128((const void *)v->ctrl));
#elif VEC_BITS == 256
    const vi win = simde_mm256_loadu2_m128i(
        (const simde__m128i *)(const void *)(gbase[v->stream[1]] + v->src_off[1]),
        (const simde__m128i *)(const void *)(gbase[v->stream[0]] + v->src_off[0]));
    return simde_mm256_shuffle_epi8(win, simde_mm256_loadu_si256((const void *)v->ctrl));
#else
    const vi ctrl = simde_mm512_loadu_si512((const void *)v->ctrl);
    if (v->window == VFETCH_RP_WINDOW_64) {
        const vi win = simde_mm512_loadu_si512((const void *)(gbase[v->stream[0]] + v->src_off[0]));
        return simde_mm512_maskz_permutexvar_epi8(v->zmask, ctrl, win);
    }
    if (v->window == VFETCH_RP_WINDOW_128) {
        const uint8_t *p = gbase[v->stream[0]] + v->src_off[0];
        const vi a = simde_mm512_loadu_si512((const void *)p);
        const vi b = simde_mm512_loadu_si512((const void *)(p + 64));
        return simde_mm512_maskz_permutex2var_epi8(v->zmask, a, ctrl, b);
    }
    vi win = simde_mm512_castsi128_si512(
        simde_mm_loadu_si128((const void *)(gbase[v->stream[0]] + v->src_off[0])));
    win = simde_mm512_inserti32x4(
        win, simde_mm_loadu_si128((const void *)(gbase[v->stream[1]] + v->src_off[1])), 1);
    win = simde_mm512_inserti32x4(
        win, simde_mm_loadu_si128((const void *)(gbase[v->stream[2]] + v->src_off[2])), 2);
    win = simde_mm512_inserti32x4(
        win, simde_mm_loadu_si128((const void *)(gbase[v->stream[3]] + v->src_off[3])), 3);
    return simde_mm512_shuffle_epi8(win, ctrl);
#endif
}

/* container << shl, per lane. */
VEC_INLINE vi rp_shift_left(vi x, const struct vfetch_rp_vector *v)
{
#if VEC_BITS == 512
    return simde_mm512_sllv_epi32(x, rp_load(v->shl));
#elif VEC_BITS == 256
    return simde_mm256_sllv_epi32(x, rp_load(v->shl));
#else
    return simde_mm_mullo_epi32(x, rp_load(v->shl_mul)); /* x * 2^shl = x << shl, mod 2^32 */
#endif
}

/* Store the lanes store_sel enables; every other byte stays untouched. */
VEC_INLINE void rp_store(uint8_t *at, vi res, const struct vfetch_rp_vector *v)
{
    if (!(v->passes & VFETCH_RP_KEEP)) {
#if VEC_BITS == 512
        simde_mm512_storeu_si512((void *)at, res);
#elif VEC_BITS == 256
        simde_mm256_storeu_si256((void *)at, res);
#else
        simde_mm_storeu_si128((void *)at, res);
#endif
        return;
    }
#if VEC_BITS == 512 && defined(SIMDE_X86_AVX512F_NATIVE)
    _mm512_mask_storeu_epi32(at, _mm512_movepi32_mask(rp_load(v->store_sel)), res);
#elif VEC_BITS == 256
    simde_mm256_maskstore_epi32((int32_t *)(void *)at, rp_load(v->store_sel), res);
#else
    int32_t lanes[VEC_LANES];
    memcpy(lanes, &res, sizeof lanes);
    for (unsigned i = 0; i < VEC_LANES; i++)
        if (v->store_sel[i])
            memcpy(at + 4 * i, &lanes[i], 4);
#endif
}

VEC_INLINE void rp_vector(const struct vfetch_rp_vector *v, const uint8_t *const *gbase, uint8_t *gdst)
{
    const vi perm = (v->passes & VFETCH_RP_LOAD) ? rp_gather(v, gbase) : vi_set1(0);
    vi res = vi_or(perm, rp_load(v->raw_or));
    if (v->passes & VFETCH_RP_FIXED) {
        const vi x = rp_shift_left(perm, v);
        /* arithmetic shift right by one (field now v * 2^(31-n)), then keep only the field */
        const vi t = vi_and(vi_or(vi_srli(x, 1), vi_and(x, vi_set1(0x80000000u))), rp_load(v->fmask));
        vf f = vf_add(vf_mul(vf_cvt(t), rp_loadf(v->mul)), rp_loadf(v->add));
        if (v->passes & VFETCH_RP_DIV)
            f = vf_div(f, rp_loadf(v->div));
        if (v->passes & VFETCH_RP_CLAMP)
            f = vf_max(f, rp_loadf(v->lo));
        res = rp_blend(res, vf_as_vi(f), rp_load(v->fixed_sel));
    }
    if (v->passes & VFETCH_RP_HALF)
        res = rp_blend(res, vi_half_to_float_bits(perm), rp_load(v->half_sel));
    rp_store(gdst + v->dst_off, res, v);
}

static VFETCH_RECORD_FN(NAME(record_run))
{
    const size_t group = prog->group;
    const uint8_t *gbase[VFETCH_MAX_STREAMS];
    for (size_t g = 0; g < groups; g++) {
        for (unsigned s = 0; s < VFETCH_MAX_STREAMS; s++)
            gbase[s] = prog->window_end[s] ? base[s] + g * group * stride[s] : NULL;
        uint8_t *gdst = dst + g * group * dst_stride;
        for (unsigned k = 0; k < prog->num_vectors; k++)
            rp_vector(&prog->vec[k], gbase, gdst);
    }
}

void NAME(vfetch_record_init)(struct vfetch_dsp *dsp)
{
    dsp->record = NAME(record_run);
    dsp->record_lanes = VEC_LANES;
    dsp->record_wide_windows = VEC_BITS == 512;
}

#else

void NAME(vfetch_record_init)(struct vfetch_dsp *dsp)
{
    (void)dsp; /* no byte shuffle at this level: plans use the per-op kernels */
}

#endif
