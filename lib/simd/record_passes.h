/*
 * The record program's passes (lib/record.h), compiled per ISA level: what one vector does
 * after its source bytes are loaded (permute, shift, convert, scale, blend, store), and the
 * dispatch that compiles a loop per combination of the common passes. Included by the level's
 * executors: lib/simd/record_tmpl.c (windows in the vertex records) and lib/gx/gather_tmpl.c
 * (16-byte pieces from per-vertex addresses). Needs simd/vec.h and a level with a byte
 * shuffle.
 */
#ifndef VFETCH_SIMD_RECORD_PASSES_H
#define VFETCH_SIMD_RECORD_PASSES_H

#if VEC_BITS == 128
#include <simde/x86/sse4.1.h>
#endif

/* f * mul + add. On AVX-512 one vfmadd (AVX512F): exactly what a multiply then an add give
   here, since mul is a power of two (record.c) and f * mul neither overflows nor leaves the
   normal range, so the product is exact and only the sum rounds, either way. Other levels
   keep the two: AVX2 would need FMA at run time as well, and it was slower there, faster at
   512 bits (docs/decisions.md, "Measured choices"). */
VEC_INLINE vf rp_mul_add(vf f, vf mul, vf add)
{
#if VEC_BITS == 512
    return simde_mm512_fmadd_ps(f, mul, add);
#else
    return vf_add(vf_mul(f, mul), add);
#endif
}

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

/* Per lane: sel all ones ? b : a (sel is all ones or zero per lane). One blend instruction
   (vpblendvb, or vpblendmd by a mask register, which the loops hoist), not and/andnot/or:
   two operations less on every blended vector. */
VEC_INLINE vi rp_blend(vi a, vi b, vi sel)
{
#if VEC_BITS == 512
    return simde_mm512_mask_blend_epi32(simde_mm512_movepi32_mask(sel), a, b);
#elif VEC_BITS == 256
    return simde_mm256_blendv_epi8(a, b, sel);
#else
    return simde_mm_blendv_epi8(a, b, sel);
#endif
}

/* A vector's tables, loaded into registers once per block of groups (through uint8_t
   pointers the compiler could not keep them there itself: every store may alias them). */
struct rp_regs {
    vi ctrl, hctrl, raw_or, shl, fmask, xmask, fixed_sel, half_sel, store_sel;
    vf mul, add, div;
};

VEC_INLINE struct rp_regs rp_regs_load(const struct vfetch_rp_vector *v)
{
    struct rp_regs r;
    r.ctrl = vi_loadu(v->ctrl);
    r.hctrl = vi_loadu(v->hctrl);
    r.raw_or = rp_load(v->raw_or);
#if VEC_BITS == 128
    r.shl = rp_load(v->shl_mul);
#else
    r.shl = rp_load(v->shl);
#endif
    r.fmask = rp_load(v->fmask);
    r.xmask = rp_load(v->xmask);
    r.fixed_sel = rp_load(v->fixed_sel);
    r.half_sel = rp_load(v->half_sel);
    r.store_sel = rp_load(v->store_sel);
    r.mul = rp_loadf(v->mul);
    r.add = rp_loadf(v->add);
    r.div = rp_loadf(v->div);
    return r;
}

/* The vector's source window(s): one register per 128-bit lane's window assembled, or the
   32/64/128 bytes of a wide window (b is the second half of a 128-byte window). p[q] is lane q's
   window start for the current group. */
struct rp_window {
    vi a, b;
};

VEC_INLINE struct rp_window rp_load_window(unsigned window, const uint8_t *const p[4])
{
    struct rp_window w;
    (void)window;
#if VEC_BITS == 128
    w.a = simde_mm_loadu_si128((const void *)p[0]);
    w.b = w.a;
#elif VEC_BITS == 256
    w.a = simde_mm256_loadu2_m128i((const simde__m128i *)(const void *)p[1],
                                   (const simde__m128i *)(const void *)p[0]);
    w.b = w.a;
#else
    if (window == VFETCH_RP_WINDOW_32) {
        /* vpermb reads only bytes 0..31 of it (the ctrl of every other byte is masked) */
        w.a = simde_mm512_castsi256_si512(simde_mm256_loadu_si256((const void *)p[0]));
        w.b = w.a;
        return w;
    }
    if (window != VFETCH_RP_WINDOW_16) {
        w.a = simde_mm512_loadu_si512((const void *)p[0]);
        w.b = window == VFETCH_RP_WINDOW_128 ? simde_mm512_loadu_si512((const void *)(p[0] + 64)) : w.a;
        return w;
    }
    w.a = simde_mm512_castsi128_si512(simde_mm_loadu_si128((const void *)p[0]));
    w.a = simde_mm512_inserti32x4(w.a, simde_mm_loadu_si128((const void *)p[1]), 1);
    w.a = simde_mm512_inserti32x4(w.a, simde_mm_loadu_si128((const void *)p[2]), 2);
    w.a = simde_mm512_inserti32x4(w.a, simde_mm_loadu_si128((const void *)p[3]), 3);
    w.b = w.a;
#endif
    return w;
}

/* Bytes of x within each 128-bit lane as ctrl says (0x80: zero). */
VEC_INLINE vi rp_shuffle(vi x, vi ctrl)
{
#if VEC_BITS == 128
    return simde_mm_shuffle_epi8(x, ctrl);
#elif VEC_BITS == 256
    return simde_mm256_shuffle_epi8(x, ctrl);
#else
    return simde_mm512_shuffle_epi8(x, ctrl);
#endif
}

/* The byte shuffle: window bytes into lanes as ctrl says (zero where nothing is read). */
VEC_INLINE vi rp_permute(unsigned window, struct rp_window w, vi ctrl, uint64_t zmask)
{
    (void)window;
    (void)zmask;
#if VEC_BITS == 512
    if (window == VFETCH_RP_WINDOW_64 || window == VFETCH_RP_WINDOW_32)
        return simde_mm512_maskz_permutexvar_epi8(zmask, ctrl, w.a);
    if (window == VFETCH_RP_WINDOW_128)
        return simde_mm512_maskz_permutex2var_epi8(zmask, w.a, ctrl, w.b);
#endif
    return rp_shuffle(w.a, ctrl);
}

#if VEC_HAVE_F16C
/* The binary16 lanes through the level's F16C conversion (hctrl packs them first). */
VEC_INLINE vi rp_halves(unsigned window, struct rp_window w, vi hctrl, uint64_t hzmask)
{
    const vi packed = rp_permute(window, w, hctrl, hzmask);
#if VEC_BITS == 256
    /* halves sit in the low 8 bytes of each 128-bit lane: bring them together */
    const simde__m128i h = simde_mm256_castsi256_si128(simde_mm256_permute4x64_epi64(packed, 0x08));
    return simde_mm256_castps_si256(simde_mm256_cvtph_ps(h));
#else
    simde__m512i h = packed;
    if (window == VFETCH_RP_WINDOW_16)
        h = simde_mm512_permutexvar_epi64(simde_mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0), packed);
    return vf_as_vi(vf_from_packed_halves(simde_mm512_castsi512_si256(h)));
#endif
}
#endif

/* container << shl, per lane. */
VEC_INLINE vi rp_shift_left(vi x, vi shl)
{
#if VEC_BITS == 512
    return simde_mm512_sllv_epi32(x, shl);
#elif VEC_BITS == 256
    return simde_mm256_sllv_epi32(x, shl);
#else
    return simde_mm_mullo_epi32(x, shl); /* x * 2^shl = x << shl, mod 2^32 */
#endif
}

/* x >> n for a field of n = 4..8 bits at the top of each lane, nothing below it: a variable
   shift where the level has one, else (x >> 8) * 2^(8-n) (mul = 2^(8-n)). */
VEC_INLINE vi rp_field_shift_right(vi x, const int32_t *n, const int32_t *mul)
{
    (void)n;
    (void)mul;
#if VEC_BITS == 512
    return simde_mm512_srlv_epi32(x, rp_load(n));
#elif VEC_BITS == 256
    return simde_mm256_srlv_epi32(x, rp_load(n));
#else
    return simde_mm_mullo_epi32(vi_srli(x, 8), rp_load(mul));
#endif
}

/* UNORM8: an n-bit field at the top of each lane widened to 8 bits (x | x >> n, top byte). */
VEC_INLINE vi rp_widen(vi x, const struct vfetch_rp_vector *v)
{
    return vi_and(vi_or(x, rp_field_shift_right(x, v->widen_shr, v->widen_mul)),
                  rp_load(v->widen_mask));
}

/* 16-bit lanes: x * m (low 16 bits), x * m >> 16 (unsigned), x << 8. */
#if VEC_BITS == 512
#define rp_mulhi16 vi_mulhi_u16 /* vec.h */
#define rp_mullo16 simde_mm512_mullo_epi16
#define rp_slli16(x) simde_mm512_slli_epi16((x), 8)
#elif VEC_BITS == 256
#define rp_mullo16 simde_mm256_mullo_epi16
#define rp_mulhi16 simde_mm256_mulhi_epu16
#define rp_slli16(x) simde_mm256_slli_epi16((x), 8)
#else
#define rp_mullo16 simde_mm_mullo_epi16
#define rp_mulhi16 simde_mm_mulhi_epu16
#define rp_slli16(x) simde_mm_slli_epi16((x), 8)
#endif

/* One byte of each half: its channel moved to the top of the half and masked, then widened
   into the half's low byte by one high multiply (record.h). */
VEC_INLINE vi rp_pack8_channel(vi x, const struct vfetch_rp_vector *v, unsigned b)
{
    const vi f = vi_and(rp_mullo16(x, vi_loadu(v->pack_mul[b])), vi_loadu(v->pack_mask[b]));
    return rp_mulhi16(f, vi_loadu(v->pack_shr[b]));
}

/* PACK8: RGBA8 from a 16-bit slice of the container in each half of each lane (record.h):
   two channels at a time, the high bytes' shifted up: eight operations for all four. */
VEC_INLINE vi rp_pack8(vi x, const struct vfetch_rp_vector *v)
{
    return vi_or(rp_pack8_channel(x, v, 0), rp_slli16(rp_pack8_channel(x, v, 1)));
}

#if VEC_BITS == 512
/* The PACK8_LUT widening table (record.h): an n-bit field f widened to 8 bits repeats its bits,
   f << (8 - n) | f >> (2n - 8), as rp_pack8 computes it. */
#define RP_W6(f) (uint8_t)((f) << 2 | (f) >> 4)
#define RP_W5(f) (uint8_t)((f) << 3 | (f) >> 2)
#define RP_W4(f) (uint8_t)((f) << 4 | (f))
#define RP_W8(w, b) w(b), w(b + 1), w(b + 2), w(b + 3), w(b + 4), w(b + 5), w(b + 6), w(b + 7)
static const _Alignas(64) uint8_t rp_pack8_table[128] = {
    RP_W8(RP_W6, 0),  RP_W8(RP_W6, 8),  RP_W8(RP_W6, 16), RP_W8(RP_W6, 24),
    RP_W8(RP_W6, 32), RP_W8(RP_W6, 40), RP_W8(RP_W6, 48), RP_W8(RP_W6, 56),
    RP_W8(RP_W5, 0),  RP_W8(RP_W5, 8),  RP_W8(RP_W5, 16), RP_W8(RP_W5, 24),
    RP_W8(RP_W4, 0),  RP_W8(RP_W4, 8),  /* 112..127: zeros (a missing channel) */
};
#undef RP_W8
#undef RP_W4
#undef RP_W5
#undef RP_W6

/* PACK8_LUT: every channel's field moved to its byte (vpmultishiftqb), masked and offset to
   its width's part of the table ((x & mask) | base: one vpternlogd), widened by the table
   (vpermt2b). */
VEC_INLINE vi rp_pack8_lut(vi x, const struct vfetch_rp_vector *v)
{
    const vi fields = simde_mm512_multishift_epi64_epi8(vi_loadu(v->pack_bit), x);
    const vi idx = simde_mm512_ternarylogic_epi32(fields, vi_loadu(v->pack_bmask),
                                                  vi_loadu(v->pack_base), 0xea);
    return simde_mm512_permutex2var_epi8(vi_loadu(rp_pack8_table), idx,
                                         vi_loadu(rp_pack8_table + 64));
}
#endif

/* Store the lanes store_sel enables; every other byte stays untouched. */
VEC_INLINE void rp_store(uint8_t *at, vi res, unsigned passes, vi store_sel,
                         const struct vfetch_rp_vector *v)
{
    (void)v;
    (void)store_sel;
    if (!(passes & VFETCH_RP_KEEP)) {
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
    _mm512_mask_storeu_epi32(at, _mm512_movepi32_mask(store_sel), res);
#elif VEC_BITS == 256
    simde_mm256_maskstore_epi32((int32_t *)(void *)at, store_sel, res);
#else
    int32_t lanes[VEC_LANES];
    memcpy(lanes, &res, sizeof lanes);
    for (unsigned i = 0; i < VEC_LANES; i++)
        if (v->store_sel[i])
            memcpy(at + 4 * i, &lanes[i], 4);
#endif
}

/*
 * The passes after the byte shuffle (perm; binary16 lanes shuffle again from the window w): the
 * vector's result, of which rp_store writes the lanes it writes.
 */
VEC_INLINE vi rp_convert(const struct vfetch_rp_vector *v, const struct rp_regs *r, vi perm,
                         struct rp_window w, unsigned window, uint64_t hzmask,
                         const unsigned passes)
{
    (void)w;
    (void)window;
    (void)hzmask;
    /* The rare passes (integer masks, UNORM8 widening) read their tables from memory: kept in
       registers they would push the common ones out. */
    vi res = perm;
    if (passes & VFETCH_RP_MASK) {
        const vi sign = rp_load(v->raw_sign);
        res = vi_sub(vi_xor(vi_and(perm, rp_load(v->raw_and)), sign), sign);
    }
    res = vi_or(res, r->raw_or);
    if (passes & VFETCH_RP_FIXED) {
        vi x = perm;
        if (passes & VFETCH_RP_SHIFT)
            x = vi_and(rp_shift_left(perm, r->shl), r->fmask);
        if (passes & VFETCH_RP_WIDEN)
            x = rp_widen(x, v);
        const vi t = vi_xor(x, r->xmask);
        vf f = rp_mul_add(vf_cvt(t), r->mul, r->add);
        if (passes & VFETCH_RP_DIV) {
            f = vf_div(f, r->div);
            if (passes & VFETCH_RP_CLAMP) /* SNORM: its table from memory (record.h) */
                f = vf_max(f, rp_loadf(v->lo));
        }
        /* every written lane fixed-point: nothing to blend (nor the OR above, dead) */
        res = passes & VFETCH_RP_BLEND ? rp_blend(res, vf_as_vi(f), r->fixed_sel) : vf_as_vi(f);
    }
    if (passes & VFETCH_RP_PACK8)
        res = rp_blend(res, vi_or(rp_pack8(perm, v), r->raw_or), rp_load(v->pack_sel));
#if VEC_BITS == 512
    if (passes & VFETCH_RP_PACK8_LUT)
        res = rp_blend(res, vi_or(rp_pack8_lut(perm, v), r->raw_or), rp_load(v->pack_sel));
#endif
    if (passes & VFETCH_RP_HALF) {
#if VEC_HAVE_F16C
        res = rp_blend(res, rp_halves(window, w, r->hctrl, hzmask), r->half_sel);
#else
        res = rp_blend(res, vi_half_to_float_bits(perm), r->half_sel);
#endif
    }
    return res;
}

/*
 * The loop compiled once per combination of the common passes (load, fixed-point with or
 * without a blend, shift, divide, binary16, kept lanes, UNORM8 widening: 192 keys, the 36 of
 * them lowering can give compiled), each with its pass set a constant, so that a vector runs only the passes it
 * needs and tests none of them per group. Vectors with a rare pass (clamp, integer mask, RGBA8 from packed fields) run
 * the generic loop, which tests its passes at run time.
 */
#define RP_COMMON (VFETCH_RP_LOAD | VFETCH_RP_FIXED | VFETCH_RP_SHIFT | VFETCH_RP_DIV |         \
                   VFETCH_RP_HALF | VFETCH_RP_KEEP | VFETCH_RP_BLEND)
/* RP_LOOP(k, passes) runs vector k of the run, RP_NEXT goes on to the next run: defined by
   each dispatcher below. */
/* A key lowering cannot give (VFETCH_RP_REACHABLE) compiles to nothing (a constant-false
   test): 42 of the 192 keys and of the gathered form's 64 are compiled, so the file builds
   about three times faster at every level. */
#define RP_VARIANT(P)                                                                       \
    case (P):                                                                               \
        if (VFETCH_RP_REACHABLE(P)) {                                                       \
            for (unsigned k = 0; k < n; k++)                                                \
                RP_LOOP(k, (P));                                                            \
            RP_NEXT;                                                                        \
        }                                                                                   \
        break;
#define RP_VARIANTS2(P) RP_VARIANT(P) RP_VARIANT((P) | VFETCH_RP_KEEP)
#define RP_VARIANTS4(P) RP_VARIANTS2(P) RP_VARIANTS2((P) | VFETCH_RP_HALF)
#define RP_VARIANTS8(P)                                                                     \
    RP_VARIANTS4(P) RP_VARIANTS4((P) | VFETCH_RP_DIV) RP_VARIANTS4((P) | VFETCH_RP_DIV | VFETCH_RP_CLAMP)
#define RP_VARIANTS16(P) RP_VARIANTS8(P) RP_VARIANTS8((P) | VFETCH_RP_SHIFT)
#define RP_VARIANTS32(P)                                                                    \
    RP_VARIANTS16(P) RP_VARIANTS16((P) | VFETCH_RP_FIXED)                                   \
    RP_VARIANTS16((P) | VFETCH_RP_FIXED | VFETCH_RP_BLEND)
#define RP_VARIANTS64(P) RP_VARIANTS32(P) RP_VARIANTS32((P) | VFETCH_RP_LOAD)
#define RP_VARIANTS128(P) RP_VARIANTS64(P) RP_VARIANTS64((P) | VFETCH_RP_WIDEN)
#define RP_PACK8_VARIANTS(P) RP_VARIANT(P) RP_VARIANT((P) | VFETCH_RP_KEEP)
#if VEC_BITS == 512
#define RP_PACK8_LUT_CASES                                                                  \
    RP_PACK8_VARIANTS(VFETCH_RP_LOAD | VFETCH_RP_PACK8_LUT)                                 \
    RP_PACK8_VARIANTS(VFETCH_RP_LOAD | VFETCH_RP_PACK8_LUT | VFETCH_RP_FIXED | VFETCH_RP_BLEND) \
    RP_PACK8_VARIANTS(VFETCH_RP_LOAD | VFETCH_RP_PACK8_LUT | VFETCH_RP_FIXED |              \
                      VFETCH_RP_BLEND | VFETCH_RP_SHIFT)
#else
#define RP_PACK8_LUT_CASES
#endif
/* RGBA8 colors from RGB565/RGBA4444/RGBA6666 (the packed GX layout) with the position and
   texcoord lanes they share vectors with */
#define RP_PACK8_CASES                                                                      \
    RP_PACK8_VARIANTS(VFETCH_RP_LOAD | VFETCH_RP_PACK8)                                     \
    RP_PACK8_VARIANTS(VFETCH_RP_LOAD | VFETCH_RP_PACK8 | VFETCH_RP_FIXED | VFETCH_RP_BLEND) \
    RP_PACK8_VARIANTS(VFETCH_RP_LOAD | VFETCH_RP_PACK8 | VFETCH_RP_FIXED | VFETCH_RP_BLEND |  \
                      VFETCH_RP_SHIFT)                                                      \
    RP_PACK8_LUT_CASES
/* The dispatch of a run of n vectors with the same passes (raw lanes cost one OR, done in
   every variant): the compiled variants, else the generic loop, which tests its passes at run
   time. Widening is compiled in only where used: its tables would crowd the common ones'
   registers (every vector of the run has the same passes). */
#define RP_DISPATCH(CASES)                                                                  \
    switch (v->passes & ~VFETCH_RP_RAW) {                                                   \
        CASES                                                                               \
        RP_PACK8_CASES                                                                      \
    default:                                                                                \
        break;                                                                              \
    }                                                                                       \
    if (v->passes & VFETCH_RP_WIDEN)                                                        \
        for (unsigned k = 0; k < n; k++)                                                    \
            RP_LOOP(k, v->passes | VFETCH_RP_WIDEN);                                        \
    else                                                                                    \
        for (unsigned k = 0; k < n; k++)                                                    \
            RP_LOOP(k, v->passes & ~VFETCH_RP_WIDEN);

#endif
