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

/* The vector's source window(s): one register per 128-bit lane's window assembled, or the
   64/128 bytes of a wide window (b is the second half of a 128-byte window). */
struct rp_window {
    vi a, b;
};

VEC_INLINE struct rp_window rp_load_window(const struct vfetch_rp_vector *v, const uint8_t *const *gbase)
{
    struct rp_window w;
#if VEC_BITS == 128
    w.a = simde_mm_loadu_si128((const void *)(gbase[v->stream[0]] + v->src_off[0]));
#elif VEC_BITS == 256
    w.a = simde_mm256_loadu2_m128i(
        (const simde__m128i *)(const void *)(gbase[v->stream[1]] + v->src_off[1]),
        (const simde__m128i *)(const void *)(gbase[v->stream[0]] + v->src_off[0]));
#else
    const uint8_t *p = gbase[v->stream[0]] + v->src_off[0];
    if (v->window != VFETCH_RP_WINDOW_16) {
        w.a = simde_mm512_loadu_si512((const void *)p);
        if (v->window == VFETCH_RP_WINDOW_128)
            w.b = simde_mm512_loadu_si512((const void *)(p + 64));
        return w;
    }
    w.a = simde_mm512_castsi128_si512(simde_mm_loadu_si128((const void *)p));
    w.a = simde_mm512_inserti32x4(
        w.a, simde_mm_loadu_si128((const void *)(gbase[v->stream[1]] + v->src_off[1])), 1);
    w.a = simde_mm512_inserti32x4(
        w.a, simde_mm_loadu_si128((const void *)(gbase[v->stream[2]] + v->src_off[2])), 2);
    w.a = simde_mm512_inserti32x4(
        w.a, simde_mm_loadu_si128((const void *)(gbase[v->stream[3]] + v->src_off[3])), 3);
#endif
    return w;
}

/* The byte gather: window bytes into lanes as ctrl says (zero where nothing is read). */
VEC_INLINE vi rp_permute(const struct vfetch_rp_vector *v, struct rp_window w, const uint8_t *ctrl,
                         uint64_t zmask)
{
    (void)v;
    (void)zmask;
#if VEC_BITS == 128
    return simde_mm_shuffle_epi8(w.a, simde_mm_loadu_si128((const void *)ctrl));
#elif VEC_BITS == 256
    return simde_mm256_shuffle_epi8(w.a, simde_mm256_loadu_si256((const void *)ctrl));
#else
    const vi c = simde_mm512_loadu_si512((const void *)ctrl);
    if (v->window == VFETCH_RP_WINDOW_64)
        return simde_mm512_maskz_permutexvar_epi8(zmask, c, w.a);
    if (v->window == VFETCH_RP_WINDOW_128)
        return simde_mm512_maskz_permutex2var_epi8(zmask, w.a, c, w.b);
    return simde_mm512_shuffle_epi8(w.a, c);
#endif
}

#if VEC_HAVE_F16C
/* The binary16 lanes through the level's F16C conversion (hctrl packs them first). */
VEC_INLINE vi rp_halves(const struct vfetch_rp_vector *v, struct rp_window w)
{
    const vi packed = rp_permute(v, w, v->hctrl, v->hzmask);
#if VEC_BITS == 256
    /* halves sit in the low 8 bytes of each 128-bit lane: bring them together */
    const simde__m128i h = simde_mm256_castsi256_si128(simde_mm256_permute4x64_epi64(packed, 0x08));
    return simde_mm256_castps_si256(simde_mm256_cvtph_ps(h));
#else
    simde__m512i h = packed;
    if (v->window == VFETCH_RP_WINDOW_16)
        h = simde_mm512_permutexvar_epi64(simde_mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0), packed);
#if defined(SIMDE_X86_AVX512F_NATIVE)
    return _mm512_castps_si512(_mm512_cvtph_ps(_mm512_castsi512_si256(h)));
#else
    uint16_t halves[16];
    simde_mm256_storeu_si256((void *)halves, simde_mm512_castsi512_si256(h));
    return simde_mm512_castps_si512(vf_from_halves(halves));
#endif
#endif
}
#endif

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
    struct rp_window w = { vi_set1(0), vi_set1(0) };
    vi perm = vi_set1(0);
    if (v->passes & VFETCH_RP_LOAD) {
        w = rp_load_window(v, gbase);
        perm = rp_permute(v, w, v->ctrl, v->zmask);
    }
    vi res = vi_or(perm, rp_load(v->raw_or));
    if (v->passes & VFETCH_RP_FIXED) {
        vi x = perm;
        if (v->passes & VFETCH_RP_SHIFT)
            x = vi_and(rp_shift_left(perm, v), rp_load(v->fmask));
        const vi t = vi_xor(x, rp_load(v->xmask));
        vf f = vf_add(vf_mul(vf_cvt(t), rp_loadf(v->mul)), rp_loadf(v->add));
        if (v->passes & VFETCH_RP_DIV)
            f = vf_div(f, rp_loadf(v->div));
        if (v->passes & VFETCH_RP_CLAMP)
            f = vf_max(f, rp_loadf(v->lo));
        res = rp_blend(res, vf_as_vi(f), rp_load(v->fixed_sel));
    }
    if (v->passes & VFETCH_RP_HALF) {
#if VEC_HAVE_F16C
        res = rp_blend(res, rp_halves(v, w), rp_load(v->half_sel));
#else
        res = rp_blend(res, vi_half_to_float_bits(perm), rp_load(v->half_sel));
#endif
    }
    rp_store(gdst + v->dst_off, res, v);
}

static VFETCH_RECORD_FN(NAME(record_run))
{
    const size_t group = prog->group;
    const uint8_t *gbase[VFETCH_MAX_STREAMS];
    size_t gstep[VFETCH_MAX_STREAMS];
    for (unsigned i = 0; i < prog->num_streams_read; i++) {
        const unsigned s = prog->streams_read[i];
        gbase[s] = base[s];
        gstep[s] = group * stride[s];
    }
    uint8_t *gdst = dst;
    const size_t dst_step = group * dst_stride;
    for (size_t g = 0; g < groups; g++) {
        for (unsigned k = 0; k < prog->num_vectors; k++)
            rp_vector(&prog->vec[k], gbase, gdst);
        for (unsigned i = 0; i < prog->num_streams_read; i++) {
            const unsigned s = prog->streams_read[i];
            gbase[s] += gstep[s];
        }
        gdst += dst_step;
    }
}

void NAME(vfetch_record_init)(struct vfetch_dsp *dsp)
{
#if VEC_BITS == 512
    /* Zen 4 splits 512-bit ops: keep the 256-bit executor as the alternative. */
    dsp->record_narrow = dsp->record;
    dsp->record_narrow_lanes = dsp->record_lanes;
#else
    dsp->record_narrow = NULL;
#endif
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
