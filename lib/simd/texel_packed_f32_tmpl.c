/*
 * Texel kernels: PACKED fixed-point fields to RGBA32F, one compilation per ISA level. What the
 * three families of the 1x1 classes share (the per-plan data, the groups and their stack
 * copies, the reference, the checks) is in texel_vec.h.
 *
 * Components as vectors (lanes = texels): each field shifted out of its 32-bit word and
 * converted as the reference does (exact int -> float, one IEEE division), then transposed
 * into texels, the SEL choices made by the transposing permutes (avx512) or a lane shuffle
 * (others). Unsigned fields of up to 5 (avx512) or 4 (avx2) bits are a lookup in a table of
 * the reference's quotients (vpermi2ps / vpermps); with native AVX-512 the division is
 * fma(x, c1, x c2), checked exhaustively to equal it for every numerator and divisor the
 * fields can produce (see pf32_comp).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ref/texel_ref.h"
#include "simd/texel_vec.h"

#if TEX_X86

/* ======================================================================================== */
/* Per-plan data                                                                              */
/* ======================================================================================== */

/* One component's conversion to float, by kind:
     PF_LUT      unsigned n <= 5 (avx512) or <= 4 (avx2) bits: unorm_tab[n][field], the
                 field shifted down (the tables repeat with period 2^n, so the bits above it
                 do not matter);
     PF_UNSIGNED the field (avx512: masked in place, converted unsigned, c1 and c2 scaled by
                 2^-shift: the same quotient exactly) divided by d;
     PF_GENERAL  x = the field, sign-extended under h ((u ^ h) - h), 2x + 1 under NO_ZERO
                 (nz), x / d, then max(q, lo).
   The division: vf_div, or with native AVX-512 fma(x, c1, x c2) where c1 = RN(1 / d) and
   c2 = RN(1 / d - c1), equal to x / d for every numerator the fields produce (checked
   exhaustively: n = 1..24 unsigned, signed over 2^(n-1) - 1 and NO_ZERO; POW2FIX2FLT and
   n = 1 signed divide by powers of two, where c2 = 0). */
enum { PF_LUT = 0, PF_UNSIGNED, PF_GENERAL };

/* The mixes of looked-up and computed components with a loop of their own: (components,
   container bytes, mask of PF_LUT components): 5_6_5 and 6_5_5 at avx512 (the 6-bit one
   computed), 1_5_5_5 at avx2 (alpha looked up), 2_10_10_10 (alpha). */
#define PF32_MIXED(X) X(3, 2, 0x5) X(3, 2, 0x3) X(4, 2, 0x8) X(4, 4, 0x8)

#if VEC_BITS == 512
#define PF_LUT_BITS 5
#elif VEC_BITS == 256
#define PF_LUT_BITS 4
#else
#define PF_LUT_BITS 0
#endif

#if PF_LUT_BITS
/* unorm_tab[n - 1][i] = (float)(i mod 2^n) / (float)(2^n - 1), correctly rounded. */
static const float unorm_tab[5][32] = {
    { /* 1 */
      0.0f, 1.0f, 0.0f, 1.0f,
      0.0f, 1.0f, 0.0f, 1.0f,
      0.0f, 1.0f, 0.0f, 1.0f,
      0.0f, 1.0f, 0.0f, 1.0f,
      0.0f, 1.0f, 0.0f, 1.0f,
      0.0f, 1.0f, 0.0f, 1.0f,
      0.0f, 1.0f, 0.0f, 1.0f,
      0.0f, 1.0f, 0.0f, 1.0f },
    { /* 2 */
      0.0f, 0x1.555556p-2f, 0x1.555556p-1f, 1.0f,
      0.0f, 0x1.555556p-2f, 0x1.555556p-1f, 1.0f,
      0.0f, 0x1.555556p-2f, 0x1.555556p-1f, 1.0f,
      0.0f, 0x1.555556p-2f, 0x1.555556p-1f, 1.0f,
      0.0f, 0x1.555556p-2f, 0x1.555556p-1f, 1.0f,
      0.0f, 0x1.555556p-2f, 0x1.555556p-1f, 1.0f,
      0.0f, 0x1.555556p-2f, 0x1.555556p-1f, 1.0f,
      0.0f, 0x1.555556p-2f, 0x1.555556p-1f, 1.0f },
    { /* 3 */
      0.0f, 0x1.24924ap-3f, 0x1.24924ap-2f, 0x1.b6db6ep-2f,
      0x1.24924ap-1f, 0x1.6db6dcp-1f, 0x1.b6db6ep-1f, 1.0f,
      0.0f, 0x1.24924ap-3f, 0x1.24924ap-2f, 0x1.b6db6ep-2f,
      0x1.24924ap-1f, 0x1.6db6dcp-1f, 0x1.b6db6ep-1f, 1.0f,
      0.0f, 0x1.24924ap-3f, 0x1.24924ap-2f, 0x1.b6db6ep-2f,
      0x1.24924ap-1f, 0x1.6db6dcp-1f, 0x1.b6db6ep-1f, 1.0f,
      0.0f, 0x1.24924ap-3f, 0x1.24924ap-2f, 0x1.b6db6ep-2f,
      0x1.24924ap-1f, 0x1.6db6dcp-1f, 0x1.b6db6ep-1f, 1.0f },
    { /* 4 */
      0.0f, 0x1.111112p-4f, 0x1.111112p-3f, 0x1.99999ap-3f,
      0x1.111112p-2f, 0x1.555556p-2f, 0x1.99999ap-2f, 0x1.dddddep-2f,
      0x1.111112p-1f, 0x1.333334p-1f, 0x1.555556p-1f, 0x1.777778p-1f,
      0x1.99999ap-1f, 0x1.bbbbbcp-1f, 0x1.dddddep-1f, 1.0f,
      0.0f, 0x1.111112p-4f, 0x1.111112p-3f, 0x1.99999ap-3f,
      0x1.111112p-2f, 0x1.555556p-2f, 0x1.99999ap-2f, 0x1.dddddep-2f,
      0x1.111112p-1f, 0x1.333334p-1f, 0x1.555556p-1f, 0x1.777778p-1f,
      0x1.99999ap-1f, 0x1.bbbbbcp-1f, 0x1.dddddep-1f, 1.0f },
    { /* 5 */
      0.0f, 0x1.08421p-5f, 0x1.08421p-4f, 0x1.8c6318p-4f,
      0x1.08421p-3f, 0x1.4a5294p-3f, 0x1.8c6318p-3f, 0x1.ce739cp-3f,
      0x1.08421p-2f, 0x1.294a52p-2f, 0x1.4a5294p-2f, 0x1.6b5ad6p-2f,
      0x1.8c6318p-2f, 0x1.ad6b5ap-2f, 0x1.ce739cp-2f, 0x1.ef7bdep-2f,
      0x1.08421p-1f, 0x1.18c632p-1f, 0x1.294a52p-1f, 0x1.39ce74p-1f,
      0x1.4a5294p-1f, 0x1.5ad6b6p-1f, 0x1.6b5ad6p-1f, 0x1.7bdef8p-1f,
      0x1.8c6318p-1f, 0x1.9ce73ap-1f, 0x1.ad6b5ap-1f, 0x1.bdef7cp-1f,
      0x1.ce739cp-1f, 0x1.def7bep-1f, 0x1.ef7bdep-1f, 1.0f },
};
#endif

struct pf32_comp {
    int32_t word, kind, n, shift, lsh, rsh, h, nz;
    uint32_t mask;
    float d, c1, c2, lo;
};

struct pf32_data {
    uint8_t count, bb, general, ident;
    uint8_t lut; /* bit k: component k is PF_LUT (a mask the loops are compiled for) */
    struct pf32_comp k[4];
    uint8_t sel[4];
    float chc[4]; /* channel constants (SEL_ZERO / SEL_ONE) */
#if VEC_BITS == 512
    int32_t idx2[2][16]; /* the second transposing permute, with the selection */
    uint16_t kconst;     /* constant lanes of an output vector */
#elif VEC_BITS == 256
    int32_t perm[8]; /* vpermilps within each texel */
#elif VEC_HAVE_SHUFFLE
    uint8_t perm[16]; /* pshufb within the texel (0x80: a constant's lane) */
#endif
    int32_t keep[VEC_LANES]; /* all ones in the lanes of field channels */
    float cstv[VEC_LANES];   /* the constants' bits, 0 in field lanes */
};
TEXEL_SLOT_FITS(struct pf32_data, packed.f32);

/* The value of a component the format lacks (compile.c: 0 for components 0..2, 1 for 3). */
static float natural_const(unsigned k)
{
    return k == 3 ? 1.0f : 0.0f;
}

static void pf32_prepare(const struct vfetch_texel_plan *p, struct pf32_data *F)
{
    memset(F, 0, sizeof *F);
    F->count = p->count;
    F->bb = p->format->block_bytes;
    for (unsigned k = 0; k < 4; k++) {
        struct pf32_comp *q = &F->k[k];
        q->d = q->c1 = 1.0f;
        q->lo = -INFINITY;
        if (k >= p->count)
            continue;
        const unsigned shift = p->field[k].shift, n = p->field[k].bits;
        q->word = shift >= 32;
        q->n = (int32_t)n;
        q->shift = (int32_t)(shift & 31);
        q->mask = (uint32_t)(((1ull << n) - 1) << (shift & 31));
        q->lsh = (int32_t)(32 - (shift & 31) - n);
        q->rsh = (int32_t)(32 - n);
        q->kind = PF_UNSIGNED;
        if (!p->is_signed[k]) {
            q->d = p->pow2 ? 256.0f : (float)((1u << n) - 1);
            if (!p->pow2 && n <= PF_LUT_BITS)
                q->kind = PF_LUT;
        } else {
            q->kind = PF_GENERAL;
            F->general = 1;
            q->h = (int32_t)(1u << (n - 1));
            if (p->pow2) {
                q->d = 128.0f;
            } else if (p->options.signed_method == VFETCH_TEXEL_SIGNED_NO_ZERO) {
                q->nz = 1;
                q->d = (float)((1u << n) - 1);
            } else if (n == 1) {
                q->d = 1.0f;
            } else {
                q->d = (float)((1u << (n - 1)) - 1);
                if (p->options.signed_method == VFETCH_TEXEL_SIGNED_CLAMP)
                    q->lo = -1.0f;
            }
        }
        q->c1 = 1.0f / q->d;
        q->c2 = (float)(1.0L / (long double)q->d - (long double)q->c1);
#if VEC_BITS == 512
        if (q->kind == PF_UNSIGNED) { /* the field in place: x 2^shift, so divide by d 2^shift */
            q->c1 = ldexpf(q->c1, -q->shift);
            q->c2 = ldexpf(q->c2, -q->shift);
            q->d = ldexpf(q->d, q->shift);
        }
#endif
        if (q->word != (F->bb == 8 && k >= 2))
            F->bb = 0; /* no format has such a layout: the reference */
    }
    /* table lookups where a loop is compiled for that mix: all components, or one of the
       PF32_MIXED masks; else none */
    unsigned lut = 0;
    for (unsigned k = 0; k < p->count; k++)
        if (F->k[k].kind == PF_LUT)
            lut |= 1u << k;
    F->lut = (uint8_t)lut;
    if (F->general) {
        F->lut = 0; /* the general loop computes every component */
    } else if (lut != (1u << p->count) - 1) {
        F->lut = 0;
#define PF32_MIX_OK(c, b, m)                                                                 \
    if (p->count == (c) && F->bb == (b) && lut == (m))                                       \
        F->lut = (uint8_t)lut;
        PF32_MIXED(PF32_MIX_OK)
#undef PF32_MIX_OK
    }
    for (unsigned k = 0; k < p->count; k++)
        if (F->k[k].kind == PF_LUT && !(F->lut >> k & 1)) {
            struct pf32_comp *q = &F->k[k];
            q->kind = PF_UNSIGNED;
#if VEC_BITS == 512
            q->c1 = ldexpf(q->c1, -q->shift);
            q->c2 = ldexpf(q->c2, -q->shift);
            q->d = ldexpf(q->d, q->shift);
#endif
        }
    /* identity: every channel c is component c, or the constant a missing component c is */
    F->ident = 1;
    for (unsigned c = 0; c < 4; c++) {
        const unsigned s = p->sel[c];
        F->sel[c] = (uint8_t)s;
        F->chc[c] = sel_const(s);
        if (s != c && !(s >= 4 && c >= p->count && sel_const(s) == natural_const(c)))
            F->ident = 0;
    }
    for (unsigned l = 0; l < VEC_LANES; l++) {
        const unsigned s = p->sel[l % 4];
        F->keep[l] = s < 4 ? -1 : 0;
        F->cstv[l] = s < 4 ? 0.0f : sel_const(s);
    }
#if VEC_BITS == 512
    for (unsigned h = 0; h < 2; h++)
        for (unsigned l = 0; l < 16; l++) {
            const unsigned s = p->sel[l % 4], tt = 4 * h + l / 4;
            F->idx2[h][l] = s < 2 ? (int32_t)(2 * tt + s) : s < 4 ? (int32_t)(16 + 2 * tt + s - 2) : 0;
            if (s >= 4)
                F->kconst |= (uint16_t)(1u << l);
        }
#elif VEC_BITS == 256
    for (unsigned l = 0; l < 8; l++)
        F->perm[l] = p->sel[l % 4] < 4 ? p->sel[l % 4] : 0;
#elif VEC_HAVE_SHUFFLE
    for (unsigned l = 0; l < 16; l++)
        F->perm[l] = p->sel[l / 4] < 4 ? (uint8_t)(4 * p->sel[l / 4] + l % 4) : 0x80;
#endif
}

static void NAME(packed_f32_prepare)(struct vfetch_texel_plan *plan)
{
    if (plan->format->cls == VFETCH_TEXEL_CLASS_PACKED)
        pf32_prepare(plan, texel_slot_fill(plan->kernel_data.packed.f32,
                                           NAME(packed_f32_prepare)));
}

/* ======================================================================================== */
/* The kernel                                                                                 */
/* ======================================================================================== */

#if VEC_BITS == 512
#define vi_sllc(x, c) simde_mm512_sll_epi32((x), (c))
#define vi_srlc(x, c) simde_mm512_srl_epi32((x), (c))
#elif VEC_BITS == 256
#define vi_sllc(x, c) simde_mm256_sll_epi32((x), (c))
#define vi_srlc(x, c) simde_mm256_srl_epi32((x), (c))
#else
#define vi_sllc(x, c) simde_mm_sll_epi32((x), (c))
#define vi_srlc(x, c) simde_mm_srl_epi32((x), (c))
#endif

#if VEC_BITS == 512
/* the low and high words of 8-byte containers: the even and odd dwords of two vectors */
static const int32_t even32[16] = { 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 };
static const int32_t odd32[16] = { 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31 };
/* the first transposing permute: R0 G0 R1 G1 .. R7 G7, and texels 8..15 */
static const int32_t zip_lo[16] = { 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23 };
static const int32_t zip_hi[16] = { 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31 };
#endif

struct pf32_regs {
    simde__m128i lsh[4], rsh[4], nzc[4], shc[4];
    vi h[4], nz[4], mask[4];
    vf d[4], c1[4], c2[4], lo[4], nat[4], tab0[4], tab1[4];
    int kind[4];
    unsigned count;
    int ident;
#if VEC_BITS == 512
    vi place, even, odd, zlo, zhi, idx2[2];
    vf cstv;
    simde__mmask16 kconst;
#elif VEC_BITS == 256
    vi perm;
    vf cmask, cstv;
#elif VEC_HAVE_SHUFFLE
    vi perm, cstv;
#else
    vf chc[4];
    uint8_t sel[4];
#endif
};

static void pf32_regs_load(const struct pf32_data *F, struct pf32_regs *R)
{
    R->count = F->count;
    R->ident = F->ident;
    for (unsigned k = 0; k < 4; k++) {
        const struct pf32_comp *q = &F->k[k];
        R->kind[k] = q->kind;
        if (k >= F->count) {
            R->nat[k] = vf_set1(natural_const(k));
            continue;
        }
        if (q->kind == PF_LUT) {
            R->shc[k] = count_of(q->shift);
#if VEC_BITS == 512
            R->tab0[k] = simde_mm512_loadu_ps(unorm_tab[q->n - 1]);
            R->tab1[k] = simde_mm512_loadu_ps(unorm_tab[q->n - 1] + 16);
#elif VEC_BITS == 256
            R->tab0[k] = simde_mm256_loadu_ps(unorm_tab[q->n - 1]);
            R->tab1[k] = simde_mm256_loadu_ps(unorm_tab[q->n - 1] + 8);
#endif
            continue;
        }
        R->d[k] = vf_set1(q->d);
        R->c1[k] = vf_set1(q->c1);
        R->c2[k] = vf_set1(q->c2);
        R->lsh[k] = count_of(q->lsh);
        R->rsh[k] = count_of(q->rsh);
        if (q->kind == PF_UNSIGNED) {
            R->mask[k] = vi_set1(q->mask);
            continue;
        }
        R->nzc[k] = count_of(q->nz);
        R->h[k] = vi_set1(q->h);
        R->nz[k] = vi_set1(q->nz);
        R->lo[k] = vf_set1(q->lo);
    }
#if VEC_BITS == 512
    R->place = vi_loadu(F->bb == 1 ? place1 : place2);
    R->even = vi_loadu(even32);
    R->odd = vi_loadu(odd32);
    R->zlo = vi_loadu(zip_lo);
    R->zhi = vi_loadu(zip_hi);
    R->idx2[0] = vi_loadu(F->idx2[0]);
    R->idx2[1] = vi_loadu(F->idx2[1]);
    R->cstv = simde_mm512_loadu_ps(F->cstv);
    R->kconst = (simde__mmask16)F->kconst;
#elif VEC_BITS == 256
    R->perm = vi_loadu(F->perm);
    R->cmask = vi_as_vf(vi_xor(vi_loadu(F->keep), vi_set1(-1)));
    R->cstv = simde_mm256_loadu_ps(F->cstv);
#elif VEC_HAVE_SHUFFLE
    R->perm = vi_loadu(F->perm);
    R->cstv = vi_loadu(F->cstv);
#else
    for (unsigned c = 0; c < 4; c++) {
        R->chc[c] = vf_set1(F->chc[c]);
        R->sel[c] = F->sel[c];
    }
#endif
}

/* The 32-bit words of VEC_LANES containers of bb bytes: w[0] bits 0..31, w[1] bits 32..63
   (bb 8). Reads exactly VEC_LANES * bb bytes. */
VEC_INLINE void load_words(const struct pf32_regs *R, const uint8_t *s, unsigned bb, vi w[2])
{
    (void)R;
#if VEC_BITS == 512
    if (bb <= 2) {
        w[0] = place_containers(R->place, s, bb);
    } else if (bb == 4) {
        w[0] = vi_loadu(s);
    } else {
        const vi a = vi_loadu(s), b = vi_loadu(s + 64);
        w[0] = simde_mm512_permutex2var_epi32(a, R->even, b);
        w[1] = simde_mm512_permutex2var_epi32(a, R->odd, b);
    }
#elif VEC_BITS == 256
    if (bb == 1) {
        w[0] = simde_mm256_cvtepu8_epi32(simde_mm_loadl_epi64((const void *)s));
    } else if (bb == 2) {
        w[0] = simde_mm256_cvtepu16_epi32(simde_mm_loadu_si128((const void *)s));
    } else if (bb == 4) {
        w[0] = vi_loadu(s);
    } else {
        const simde__m256 a = simde_mm256_castsi256_ps(vi_loadu(s));
        const simde__m256 b = simde_mm256_castsi256_ps(vi_loadu(s + 32));
        /* in-lane even / odd dwords, then the 64-bit quarters back in order */
        w[0] = simde_mm256_permute4x64_epi64(simde_mm256_castps_si256(simde_mm256_shuffle_ps(a, b, 0x88)), 0xd8);
        w[1] = simde_mm256_permute4x64_epi64(simde_mm256_castps_si256(simde_mm256_shuffle_ps(a, b, 0xdd)), 0xd8);
    }
#else
    if (bb == 1) {
        int32_t v;
        memcpy(&v, s, 4);
        const simde__m128i x = simde_mm_cvtsi32_si128(v);
        w[0] = simde_mm_unpacklo_epi16(simde_mm_unpacklo_epi8(x, x), x); /* byte t at lane t */
    } else if (bb == 2) {
        const simde__m128i x = simde_mm_loadl_epi64((const void *)s);
        w[0] = simde_mm_unpacklo_epi16(x, x);
    } else if (bb == 4) {
        w[0] = vi_loadu(s);
    } else {
        const simde__m128 a = simde_mm_castsi128_ps(vi_loadu(s));
        const simde__m128 b = simde_mm_castsi128_ps(vi_loadu(s + 16));
        w[0] = simde_mm_castps_si128(simde_mm_shuffle_ps(a, b, 0x88));
        w[1] = simde_mm_castps_si128(simde_mm_shuffle_ps(a, b, 0xdd));
    }
#endif
}

/* a / d, correctly rounded (see pf32_comp). */
VEC_INLINE vf exact_div(vf a, vf d, vf c1, vf c2)
{
#if VEC_BITS == 512 && defined(SIMDE_X86_AVX512F_NATIVE)
    (void)d;
    return _mm512_fmadd_ps(a, c1, vf_mul(a, c2));
#else
    (void)c1, (void)c2;
    return vf_div(a, d);
#endif
}

#if VEC_BITS < 512
/* Four channel vectors (lanes = texels) as VEC_LANES texels of R, G, B, A: o[k] holds, in
   128-bit lane j, texel 4j + k. */
VEC_INLINE void transpose4(const vf ch[4], vf o[4])
{
    const vf t0 = VEC_UNPACKLO_PS(ch[0], ch[1]), t1 = VEC_UNPACKHI_PS(ch[0], ch[1]);
    const vf t2 = VEC_UNPACKLO_PS(ch[2], ch[3]), t3 = VEC_UNPACKHI_PS(ch[2], ch[3]);
#if VEC_BITS == 256
    o[0] = simde_mm256_shuffle_ps(t0, t2, 0x44);
    o[1] = simde_mm256_shuffle_ps(t0, t2, 0xee);
    o[2] = simde_mm256_shuffle_ps(t1, t3, 0x44);
    o[3] = simde_mm256_shuffle_ps(t1, t3, 0xee);
#else
    o[0] = simde_mm_movelh_ps(t0, t2);
    o[1] = simde_mm_movehl_ps(t2, t0);
    o[2] = simde_mm_movelh_ps(t1, t3);
    o[3] = simde_mm_movehl_ps(t3, t1);
#endif
}
#endif

/* The components (lanes = texels) stored as texels, with the plan's selection. */
VEC_INLINE void pf32_store(const struct pf32_regs *R, const vf comp[4], uint8_t *d)
{
#if VEC_BITS == 512
    const vf x0 = simde_mm512_permutex2var_ps(comp[0], R->zlo, comp[1]);
    const vf x1 = simde_mm512_permutex2var_ps(comp[0], R->zhi, comp[1]);
    const vf y0 = simde_mm512_permutex2var_ps(comp[2], R->zlo, comp[3]);
    const vf y1 = simde_mm512_permutex2var_ps(comp[2], R->zhi, comp[3]);
    vf o[4];
    o[0] = simde_mm512_permutex2var_ps(x0, R->idx2[0], y0);
    o[1] = simde_mm512_permutex2var_ps(x0, R->idx2[1], y0);
    o[2] = simde_mm512_permutex2var_ps(x1, R->idx2[0], y1);
    o[3] = simde_mm512_permutex2var_ps(x1, R->idx2[1], y1);
    if (R->kconst)
        for (unsigned k = 0; k < 4; k++)
            o[k] = simde_mm512_mask_blend_ps(R->kconst, o[k], R->cstv);
    for (unsigned k = 0; k < 4; k++)
        simde_mm512_storeu_ps(d + 64 * k, o[k]);
#else
    vf o[4];
#if VEC_HAVE_SHUFFLE
    transpose4(comp, o);
    if (!R->ident) {
        for (unsigned k = 0; k < 4; k++)
#if VEC_BITS == 256
            o[k] = simde_mm256_blendv_ps(simde_mm256_permutevar_ps(o[k], R->perm), R->cstv, R->cmask);
#else
            o[k] = vi_as_vf(vi_or(simde_mm_shuffle_epi8(vf_as_vi(o[k]), R->perm), R->cstv));
#endif
    }
#else
    if (R->ident) {
        transpose4(comp, o);
    } else {
        vf ch[4];
        for (unsigned c = 0; c < 4; c++)
            ch[c] = R->sel[c] < 4 ? comp[R->sel[c]] : R->chc[c];
        transpose4(ch, o);
    }
#endif
#if VEC_BITS == 256
    simde_mm256_storeu_ps((float *)(void *)(d + 0), simde_mm256_permute2f128_ps(o[0], o[1], 0x20));
    simde_mm256_storeu_ps((float *)(void *)(d + 32), simde_mm256_permute2f128_ps(o[2], o[3], 0x20));
    simde_mm256_storeu_ps((float *)(void *)(d + 64), simde_mm256_permute2f128_ps(o[0], o[1], 0x31));
    simde_mm256_storeu_ps((float *)(void *)(d + 96), simde_mm256_permute2f128_ps(o[2], o[3], 0x31));
#else
    for (unsigned k = 0; k < 4; k++)
        simde_mm_storeu_ps((float *)(void *)(d + 16 * k), o[k]);
#endif
#endif
}

/* VEC_LANES texels: containers of bb bytes at s -> RGBA32F texels at d. count (1..4, or 0:
   R->count) and lut (a mask of PF_LUT components) are constants in each instantiation. */
VEC_INLINE void pf32_group(const struct pf32_regs *R, const uint8_t *s, uint8_t *d, unsigned bb,
                           unsigned count, unsigned lut, int general)
{
    vi w[2];
    w[1] = w[0] = vi_zero();
    load_words(R, s, bb, w);
    const unsigned cnt = count ? count : R->count;
    (void)lut;
    vf comp[4];
    for (unsigned k = 0; k < 4; k++) {
        if (k >= cnt) {
            comp[k] = R->nat[k];
            continue;
        }
        const vi wk = bb == 8 && k >= 2 ? w[1] : w[0];
#if PF_LUT_BITS
        if (lut >> k & 1) {
            const vi x = vi_srlc(wk, R->shc[k]);
#if VEC_BITS == 512
            comp[k] = simde_mm512_permutex2var_ps(R->tab0[k], x, R->tab1[k]);
#else
            const vf lo = simde_mm256_permutevar8x32_ps(R->tab0[k], x);
            comp[k] = simde_mm256_blendv_ps(lo, simde_mm256_permutevar8x32_ps(R->tab1[k], x),
                                            vi_as_vf(vi_slli(x, 28)));
#endif
            continue;
        }
#endif
        if (!general || R->kind[k] == PF_UNSIGNED) {
#if VEC_BITS == 512
            comp[k] = exact_div(simde_mm512_cvtepu32_ps(vi_and(wk, R->mask[k])), R->d[k], R->c1[k], R->c2[k]);
#else
            const vi x = vi_srlc(vi_sllc(wk, R->lsh[k]), R->rsh[k]);
            comp[k] = exact_div(vf_cvt(x), R->d[k], R->c1[k], R->c2[k]);
#endif
            continue;
        }
        vi x = vi_srlc(vi_sllc(wk, R->lsh[k]), R->rsh[k]);
        x = vi_sub(vi_xor(x, R->h[k]), R->h[k]);
        x = vi_add(vi_sllc(x, R->nzc[k]), R->nz[k]);
        comp[k] = vf_max(exact_div(vf_cvt(x), R->d[k], R->c1[k], R->c2[k]), R->lo[k]);
    }
    pf32_store(R, comp, d);
}

VEC_INLINE void pf32_run(const struct pf32_regs *R, const uint8_t *src, size_t n, uint8_t *dst,
                         unsigned bb, unsigned count, unsigned lut, int general)
{
    size_t i = 0;
    for (; i + VEC_LANES <= n; i += VEC_LANES)
        pf32_group(R, src + i * bb, dst + i * 16, bb, count, lut, general);
    if (i < n) {
        uint8_t s[VEC_LANES * 8], d[VEC_LANES * 16];
        memset(s, 0, sizeof s);
        memcpy(s, src + i * bb, (n - i) * bb);
        pf32_group(R, s, d, bb, count, lut, general);
        memcpy(dst + i * 16, d, (n - i) * 16);
    }
}

static VFETCH_TEXEL_FN(NAME(packed_f32))
{
    struct pf32_data tmp;
    const struct pf32_data *F = texel_slot_data(plan->kernel_data.packed.f32,
                                                NAME(packed_f32_prepare));
    if (!F) {
        pf32_prepare(plan, &tmp);
        F = &tmp;
    }
    struct pf32_regs R;
    pf32_regs_load(F, &R);
    if (F->general) {
        switch (F->bb) {
        case 1: pf32_run(&R, src, nblocks, dst, 1, 0, 0, 1); return;
        case 2: pf32_run(&R, src, nblocks, dst, 2, 0, 0, 1); return;
        case 4: pf32_run(&R, src, nblocks, dst, 4, 0, 0, 1); return;
        case 8: pf32_run(&R, src, nblocks, dst, 8, 0, 0, 1); return;
        default: break;
        }
    } else {
        /* the (components, container) shapes of the format table, without table lookups,
           with them for every component, or the PF32_MIXED masks */
#define PF32_KEY(c, b, m) ((m) * 256u + (c) * 16u + (b))
#define PF32_RUN(c, b, m)                                                                    \
    case PF32_KEY(c, b, m): pf32_run(&R, src, nblocks, dst, b, c, m, 0); return;
#if PF_LUT_BITS
#define PF32_SHAPE(c, b) PF32_RUN(c, b, 0) PF32_RUN(c, b, (1u << (c)) - 1)
#else
#define PF32_SHAPE(c, b) PF32_RUN(c, b, 0)
#endif
        switch (PF32_KEY(F->count, F->bb, F->lut)) {
            PF32_SHAPE(1, 1) PF32_SHAPE(1, 2) PF32_SHAPE(2, 1) PF32_SHAPE(2, 2)
            PF32_SHAPE(2, 4) PF32_SHAPE(3, 1) PF32_SHAPE(3, 2) PF32_SHAPE(3, 4)
            PF32_SHAPE(4, 2) PF32_SHAPE(4, 4) PF32_SHAPE(4, 8)
#if PF_LUT_BITS
            PF32_MIXED(PF32_RUN)
#endif
        default: break;
        }
#undef PF32_SHAPE
#undef PF32_RUN
#undef PF32_KEY
    }
    vfetch_texel_ref_f32(plan, src, nblocks, dst, dst_pitch);
}

#endif /* TEX_X86 */

void NAME(vfetch_texel_packed_f32_init)(struct vfetch_texel_dsp *dsp)
{
#if TEX_X86
    dsp->packed_f32 = NAME(packed_f32);
    dsp->packed_f32_prepare = NAME(packed_f32_prepare);
#else
    (void)dsp;
#endif
}
