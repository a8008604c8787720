/*
 * Texel kernels for the classes with 1x1 blocks, one compilation per ISA level (see vec.h):
 * PACKED fixed-point fields to RGBA32F and (rgba8_exact plans) RGBA8, FLOAT16 and FLOAT32 to
 * RGBA32F. The reference is lib/texel/ref.c; every kernel here gives its bytes exactly, and
 * tests/texel/checkasm_texel.c checks every level against it.
 *
 * compile.c calls packed_prepare once per plan: every per-plan constant (shift counts,
 * divisors, shuffle controls, table choices) is kept in plan->packed_data, so that a kernel
 * call (one row of a surface) only loads them. Data another level prepared is recomputed on
 * the stack (the level's tag is checked).
 *
 * Every kernel decodes groups of G texels with loads and stores of exactly G texels' bytes;
 * the last partial group goes through a zeroed stack copy of its source and a stack output
 * that is copied out, so no byte outside the caller's buffers is read or written.
 *
 *   PACKED -> RGBA32F  components as vectors (lanes = texels): each field shifted out of its
 *                      32-bit word and converted as the reference does (exact int -> float,
 *                      one IEEE division), then transposed into texels, the SEL choices made
 *                      by the transposing permutes (avx512) or a lane shuffle (others).
 *                      Unsigned fields of up to 5 (avx512) or 4 (avx2) bits are a lookup in
 *                      a table of the reference's quotients (vpermi2ps / vpermps); with
 *                      native AVX-512 the division is fma(x, c1, x c2), checked exhaustively
 *                      to equal it for every numerator and divisor the fields can produce
 *                      (see pf32_comp).
 *   PACKED -> RGBA8    round(255 v / (2^n - 1)) (not v's bits repeated for n = 3, 5, 6, 7):
 *                      avx512: vpermb puts each texel's container in its 32-bit lane,
 *                      vpmultishiftqb brings every channel's field to the bottom of its byte,
 *                      a vpternlogd masks it (or forces a constant's index) and vpermi2b
 *                      looks the byte up in two 64-entry tables;
 *                      sse41/avx2: per channel in 16-bit lanes, the field isolated at bit m
 *                      and pmulhrsw by K (widen16); sse2: (v M + A) >> S;
 *                      byte-aligned 8-bit fields are a byte shuffle; 8_8_8_8 as R, G, B, A is
 *                      a copy, constant channels only a fill.
 *   FLOAT16/32         texels as they are stored: halves converted in order (F16C where it
 *                      is native, else the exact integer path of vec.h, which quiets
 *                      signalling NaNs as F16C does), then each output vector is a lane
 *                      permutation of them with the SEL constants blended in.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "texel/texel_internal.h"
#include "simd/vec.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the SIMD kernels assume a little-endian host"
#endif

#if defined(VFETCH_ISA_SSE2) || defined(VFETCH_ISA_SSE41) || defined(VFETCH_ISA_AVX2) ||   \
    defined(VFETCH_ISA_AVX512)
#define TEX_X86 1
#else
#define TEX_X86 0 /* neon: the entries stay NULL, the reference runs */
#endif

#if TEX_X86

#if defined(VFETCH_ISA_SSE41)
#include <simde/x86/sse4.1.h>
#endif

/* ---- small helpers ---- */

VEC_INLINE vi vi_zero(void)
{
#if VEC_BITS == 512
    return simde_mm512_setzero_si512();
#elif VEC_BITS == 256
    return simde_mm256_setzero_si256();
#else
    return simde_mm_setzero_si128();
#endif
}

VEC_INLINE void vi_storeu(void *p, vi x)
{
#if VEC_BITS == 512
    simde_mm512_storeu_si512(p, x);
#elif VEC_BITS == 256
    simde_mm256_storeu_si256(p, x);
#else
    simde_mm_storeu_si128(p, x);
#endif
}

/* Loops over short bodies run U bodies an iteration: a loop of a few instructions that
   straddles a 64-byte code window runs at one iteration per window per cycle on Zen 4 (the
   8_8 byte shuffle: 1.3x slower than the same loop aligned); unrolled, the stores bound it
   wherever it lands. */
#define UNROLL_RUN(G, U, body)                                                               \
    do {                                                                                     \
        for (; i + (U) * (G) <= n; i += (U) * (G))                                           \
            for (unsigned u_ = 0; u_ < (U); u_++) {                                          \
                const size_t j = i + u_ * (G);                                               \
                body;                                                                        \
            }                                                                                \
        for (; i + (G) <= n; i += (G)) {                                                     \
            const size_t j = i;                                                              \
            body;                                                                            \
        }                                                                                    \
    } while (0)

VEC_INLINE simde__m128i count_of(int n)
{
    return simde_mm_cvtsi32_si128(n);
}

/* The float constant of a SEL_ZERO / SEL_ONE channel, and the value of a component the
   format lacks (compile.c: 0 for components 0..2, 1 for 3). */
static float sel_const(unsigned sel)
{
    return sel == VFETCH_TEXEL_SEL_ONE ? 1.0f : 0.0f;
}

static float natural_const(unsigned k)
{
    return k == 3 ? 1.0f : 0.0f;
}

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

enum {
    U8_REF = 0, /* a layout none of the paths below takes: the reference */
    U8_FILL,    /* every channel a constant */
    U8_COPY,    /* 8_8_8_8 as R, G, B, A: the bytes themselves */
    U8_BYTES,   /* every field 8 bits on a byte boundary: a byte shuffle */
    U8_WIDEN,   /* fields of 1..8 bits (avx512: 1..6, or 8 alone) */
};

struct pu8_data {
    uint8_t mode, bb, fields;
    uint32_t cst;   /* 0xff in the bytes of SEL_ONE channels */
    uint8_t byte[4]; /* U8_BYTES: the container byte of each field channel */
#if VEC_BITS == 512
    /* vpmultishiftqb control for a 64-bit lane (two texels), index mask and bits of each
       channel byte, the two tables (widen_tab rows; b = a when one width) */
    uint64_t ms;
    uint32_t imask, ibits;
    uint8_t na, nb;
#else
    /* U8_WIDEN: the 16-bit window of the containers (bb 4: its first bit); per channel the
       shifts that take the field to the top of the lane then down to bit m, the mask of its
       bits there and widen16's constants */
    int32_t win;
    int32_t lsh[4], rsh[4], shr[4];
    uint16_t mask[4], k[4], add[4];
    /* U8_BYTES: pshufb control; U8_WIDEN: the selection as a pshufb of the natural bytes */
    uint8_t ctrl[32], selc[32];
    /* U8_WIDEN of a format with a recipe (RC_*): its code, and whether the selection is
       the natural order (channel c = component c, constants where components are missing) */
    uint8_t recipe, ident;
#endif
};

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

struct tex_data {
    uintptr_t tag; /* the preparing level's packed_prepare */
    union {
        struct {
            struct pf32_data f;
            struct pu8_data u;
        } p;
        struct fl_data fl;
    } u;
};

typedef char tex_data_fits[sizeof(struct tex_data) <=
                                   sizeof(((struct vfetch_texel_plan *)0)->packed_data)
                               ? 1
                               : -1];

/* round(255 v / (2^n - 1)) for an n-bit v, in 16-bit lanes (exhaustive search; the tests
   check every v): pmulhrsw (sse41, avx2) with v at bit m: (v 2^m K + 2^14) >> 15;
   sse2: (v M + A) >> S with v at bit 0. */
#if VEC_BITS < 512
static const struct {
    uint8_t m;
    uint16_t k, mul, add;
    uint8_t shr;
} widen16[9] = {
    { 0, 0, 0, 0, 0 },         { 14, 0x1fd, 255, 0, 0 }, { 13, 0x154, 85, 0, 0 },
    { 11, 0x247, 73, 0, 1 },   { 11, 0x110, 17, 0, 0 },  { 8, 0x41d, 527, 23, 6 },
    { 5, 0x1031, 259, 33, 6 }, { 8, 0x101, 129, 0, 6 },  { 7, 0x100, 1, 0, 0 },
};
#endif

#if VEC_BITS < 512
/* Formats whose RGBA8 widening has its own code (compile-time fields). */
enum { RC_NONE = 0, RC_565, RC_655, RC_1555, RC_332, RC_4444, RC_44 };

static uint8_t recipe_of(const struct vfetch_texel_format *f)
{
    if (f == vfetch_texel_format_of(VFETCH_TX_FMT_5_6_5, 0))
        return RC_565;
    if (f == vfetch_texel_format_of(VFETCH_TX_FMT_6_5_5, 0))
        return RC_655;
    if (f == vfetch_texel_format_of(VFETCH_TX_FMT_1_5_5_5, 0))
        return RC_1555;
    if (f == vfetch_texel_format_of(VFETCH_TX_FMT_3_3_2, 0))
        return RC_332;
    if (f == vfetch_texel_format_of(VFETCH_TX_FMT_4_4_4_4, 0))
        return RC_4444;
    if (f == vfetch_texel_format_of(VFETCH_TX_FMT_4_4, 0))
        return RC_44;
    return RC_NONE;
}
#endif

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

static void pu8_prepare(const struct vfetch_texel_plan *p, struct pu8_data *U)
{
    memset(U, 0, sizeof *U);
    U->bb = p->format->block_bytes;
    if (p->format->cls != VFETCH_TEXEL_CLASS_PACKED || !p->rgba8_exact)
        return;
    unsigned all8 = 1, lo = 32, hi = 0, na = 0, nb = 0;
    for (unsigned c = 0; c < 4; c++) {
        const unsigned s = p->sel[c];
        if (s >= 4) {
            if (s == VFETCH_TEXEL_SEL_ONE)
                U->cst |= 0xffu << (8 * c);
            continue;
        }
        U->fields |= (uint8_t)(1u << c);
        const unsigned shift = p->field[s].shift, n = p->field[s].bits;
        if (n > 8 || U->bb > 4)
            return;
        if (n != 8 || shift % 8)
            all8 = 0;
        U->byte[c] = (uint8_t)(shift / 8);
        lo = shift < lo ? shift : lo;
        hi = shift + n > hi ? shift + n : hi;
        if (!na || na == n)
            na = n;
        else if (!nb || nb == n)
            nb = n;
        else
            return; /* three widths: no format has them */
    }
    if (!U->fields) {
        U->mode = U8_FILL;
        return;
    }
    if (all8) {
        U->mode = U->bb == 4 && U->fields == 0xf && U->byte[0] == 0 && U->byte[1] == 1 &&
                          U->byte[2] == 2 && U->byte[3] == 3
                      ? U8_COPY
                      : U8_BYTES;
#if VEC_BITS == 512
        for (unsigned c = 0; c < 4; c++) {
            if (!(U->fields >> c & 1)) {
                U->ibits |= U->cst & 0xffu << (8 * c);
                continue;
            }
            U->imask |= 0xffu << (8 * c);
            for (unsigned t = 0; t < 2; t++)
                U->ms |= (uint64_t)(32 * t + 8u * U->byte[c]) << (8 * (4 * t + c));
        }
#else
        /* output byte 4t + c of each 128-bit lane <- container byte of texel t */
        for (unsigned t = 0; t < VEC_BITS / 32; t++)
            for (unsigned c = 0; c < 4; c++)
                U->ctrl[4 * t + c] = U->fields >> c & 1
                                         ? (uint8_t)((t % 4) * U->bb + U->byte[c] +
                                                     (U->bb == 4 ? 0 : (t / 4) * 4 * U->bb))
                                         : 0x80;
#endif
        return;
    }
#if VEC_BITS == 512
    (void)lo, (void)hi;
    if (na > 6 || nb > 6)
        return;
    U->na = (uint8_t)na;
    U->nb = (uint8_t)(nb ? nb : na);
    U->mode = U8_WIDEN;
    for (unsigned c = 0; c < 4; c++) {
        const unsigned s = p->sel[c];
        if (!(U->fields >> c & 1)) {
            /* a constant: the index of 0 or 255 in table a */
            if (s == VFETCH_TEXEL_SEL_ONE)
                U->ibits |= ((1u << na) - 1) << (8 * c);
            continue;
        }
        U->imask |= 0x3fu << (8 * c);
        if (p->field[s].bits != na)
            U->ibits |= 0x40u << (8 * c);
        for (unsigned t = 0; t < 2; t++)
            U->ms |= (uint64_t)(32 * t + p->field[s].shift) << (8 * (4 * t + c));
    }
#else
    /* the 16-bit window holding every field */
    if (U->bb == 4) {
        U->win = lo >= 16 ? 16 : lo >= 8 ? 8 : 0;
        if (hi > (unsigned)U->win + 16)
            return;
    }
    U->mode = U8_WIDEN;
    U->recipe = recipe_of(p->format);
    U->ident = 1;
    for (unsigned c = 0; c < 4; c++)
        if (p->sel[c] < 4 ? p->sel[c] != c : c < p->count)
            U->ident = 0;
    for (unsigned t = 0; t < VEC_BITS / 32; t++)
        for (unsigned c = 0; c < 4; c++)
            U->selc[4 * t + c] = p->sel[c] < 4 ? (uint8_t)(4 * (t % 4) + p->sel[c]) : 0x80;
    for (unsigned c = 0; c < 4; c++) {
        if (!(U->fields >> c & 1))
            continue;
        const unsigned s = p->sel[c], shift = p->field[s].shift - (unsigned)U->win,
                       n = p->field[s].bits;
#if VEC_HAVE_SHUFFLE
        const unsigned m = widen16[n].m;
        U->k[c] = widen16[n].k;
#else
        const unsigned m = 0;
        U->k[c] = widen16[n].mul;
        U->add[c] = widen16[n].add;
        U->shr[c] = widen16[n].shr;
#endif
        U->lsh[c] = (int32_t)(16 - shift - n);
        U->rsh[c] = (int32_t)(16 - n - m);
        U->mask[c] = (uint16_t)(((1u << n) - 1) << m);
    }
#endif
}

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

static void NAME(packed_prepare)(struct vfetch_texel_plan *plan);

/* The plan's data if this level prepared it, else the same computed into *tmp. */
static const struct tex_data *tex_data_of(const struct vfetch_texel_plan *plan,
                                          struct tex_data *tmp)
{
    const struct tex_data *D = (const struct tex_data *)(const void *)plan->packed_data;
    if (D->tag == (uintptr_t)NAME(packed_prepare))
        return D;
    memset(tmp, 0, sizeof *tmp);
    if (plan->format->cls == VFETCH_TEXEL_CLASS_PACKED) {
        pf32_prepare(plan, &tmp->u.p.f);
        pu8_prepare(plan, &tmp->u.p.u);
    } else {
        fl_prepare(plan, &tmp->u.fl);
    }
    return tmp;
}

static void NAME(packed_prepare)(struct vfetch_texel_plan *plan)
{
    struct tex_data *D = (struct tex_data *)(void *)plan->packed_data;
    memset(D, 0, sizeof *D);
    switch (plan->format->cls) {
    case VFETCH_TEXEL_CLASS_PACKED:
        pf32_prepare(plan, &D->u.p.f);
        pu8_prepare(plan, &D->u.p.u);
        break;
    case VFETCH_TEXEL_CLASS_FLOAT16:
    case VFETCH_TEXEL_CLASS_FLOAT32:
        fl_prepare(plan, &D->u.fl);
        break;
    default:
        return;
    }
    D->tag = (uintptr_t)NAME(packed_prepare);
}

/* ======================================================================================== */
/* PACKED -> RGBA32F                                                                          */
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
/* vpermb controls putting texel l's container (1 or 2 bytes) at the bottom of lane l */
static const uint8_t place1[64] = {
    0,  0,  0,  0,  1,  1,  1,  1,  2,  2,  2,  2,  3,  3,  3,  3,  4,  4,  4,  4,  5,  5,
    5,  5,  6,  6,  6,  6,  7,  7,  7,  7,  8,  8,  8,  8,  9,  9,  9,  9,  10, 10, 10, 10,
    11, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 13, 14, 14, 14, 14, 15, 15, 15, 15,
};
static const uint8_t place2[64] = {
    0,  1,  0,  1,  2,  3,  2,  3,  4,  5,  4,  5,  6,  7,  6,  7,  8,  9,  8,  9,  10, 11,
    10, 11, 12, 13, 12, 13, 14, 15, 14, 15, 16, 17, 16, 17, 18, 19, 18, 19, 20, 21, 20, 21,
    22, 23, 22, 23, 24, 25, 24, 25, 26, 27, 26, 27, 28, 29, 28, 29, 30, 31, 30, 31,
};
static const int32_t even32[16] = { 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 };
static const int32_t odd32[16] = { 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31 };
/* the first transposing permute: R0 G0 R1 G1 .. R7 G7, and texels 8..15 */
static const int32_t zip_lo[16] = { 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23 };
static const int32_t zip_hi[16] = { 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31 };

/* 16 containers of 1 or 2 bytes into the bottom of their 32-bit lanes (the bits above are
   other bytes of the source: every use shifts or masks them away). */
VEC_INLINE vi place_containers(vi ctrl, const uint8_t *s, unsigned bb)
{
    const vi x = bb == 1 ? simde_mm512_castsi128_si512(simde_mm_loadu_si128((const void *)s))
                         : simde_mm512_castsi256_si512(simde_mm256_loadu_si256((const void *)s));
    return simde_mm512_permutexvar_epi8(ctrl, x);
}
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
#if VEC_BITS == 256
    const vf t0 = simde_mm256_unpacklo_ps(ch[0], ch[1]), t1 = simde_mm256_unpackhi_ps(ch[0], ch[1]);
    const vf t2 = simde_mm256_unpacklo_ps(ch[2], ch[3]), t3 = simde_mm256_unpackhi_ps(ch[2], ch[3]);
    o[0] = simde_mm256_shuffle_ps(t0, t2, 0x44);
    o[1] = simde_mm256_shuffle_ps(t0, t2, 0xee);
    o[2] = simde_mm256_shuffle_ps(t1, t3, 0x44);
    o[3] = simde_mm256_shuffle_ps(t1, t3, 0xee);
#else
    const vf t0 = simde_mm_unpacklo_ps(ch[0], ch[1]), t1 = simde_mm_unpackhi_ps(ch[0], ch[1]);
    const vf t2 = simde_mm_unpacklo_ps(ch[2], ch[3]), t3 = simde_mm_unpackhi_ps(ch[2], ch[3]);
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
    struct tex_data tmp;
    const struct pf32_data *F = &tex_data_of(plan, &tmp)->u.p.f;
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

/* ======================================================================================== */
/* PACKED -> RGBA8                                                                            */
/* ======================================================================================== */

/* Constants only: the pattern stored. */
static void pu8_fill(uint32_t cst, size_t n, uint8_t *dst)
{
    const vi v = vi_set1(cst);
    size_t i = 0;
    UNROLL_RUN(VEC_LANES, 4, vi_storeu(dst + j * 4, v));
    for (; i < n; i++)
        memcpy(dst + i * 4, &cst, 4);
}

#if VEC_BITS == 512

/* Table n (1..6): entry i = round(255 (i mod 2^n) / (2^n - 1)). */
static const uint8_t widen_tab[7][64] = {
    { /* 0 */
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 },
    { /* 1 */
      0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff,
      0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff,
      0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff,
      0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff },
    { /* 2 */
      0x00, 0x55, 0xaa, 0xff, 0x00, 0x55, 0xaa, 0xff, 0x00, 0x55, 0xaa, 0xff, 0x00, 0x55, 0xaa, 0xff,
      0x00, 0x55, 0xaa, 0xff, 0x00, 0x55, 0xaa, 0xff, 0x00, 0x55, 0xaa, 0xff, 0x00, 0x55, 0xaa, 0xff,
      0x00, 0x55, 0xaa, 0xff, 0x00, 0x55, 0xaa, 0xff, 0x00, 0x55, 0xaa, 0xff, 0x00, 0x55, 0xaa, 0xff,
      0x00, 0x55, 0xaa, 0xff, 0x00, 0x55, 0xaa, 0xff, 0x00, 0x55, 0xaa, 0xff, 0x00, 0x55, 0xaa, 0xff },
    { /* 3 */
      0x00, 0x24, 0x49, 0x6d, 0x92, 0xb6, 0xdb, 0xff, 0x00, 0x24, 0x49, 0x6d, 0x92, 0xb6, 0xdb, 0xff,
      0x00, 0x24, 0x49, 0x6d, 0x92, 0xb6, 0xdb, 0xff, 0x00, 0x24, 0x49, 0x6d, 0x92, 0xb6, 0xdb, 0xff,
      0x00, 0x24, 0x49, 0x6d, 0x92, 0xb6, 0xdb, 0xff, 0x00, 0x24, 0x49, 0x6d, 0x92, 0xb6, 0xdb, 0xff,
      0x00, 0x24, 0x49, 0x6d, 0x92, 0xb6, 0xdb, 0xff, 0x00, 0x24, 0x49, 0x6d, 0x92, 0xb6, 0xdb, 0xff },
    { /* 4 */
      0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
      0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
      0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
      0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff },
    { /* 5 */
      0x00, 0x08, 0x10, 0x19, 0x21, 0x29, 0x31, 0x3a, 0x42, 0x4a, 0x52, 0x5a, 0x63, 0x6b, 0x73, 0x7b,
      0x84, 0x8c, 0x94, 0x9c, 0xa5, 0xad, 0xb5, 0xbd, 0xc5, 0xce, 0xd6, 0xde, 0xe6, 0xef, 0xf7, 0xff,
      0x00, 0x08, 0x10, 0x19, 0x21, 0x29, 0x31, 0x3a, 0x42, 0x4a, 0x52, 0x5a, 0x63, 0x6b, 0x73, 0x7b,
      0x84, 0x8c, 0x94, 0x9c, 0xa5, 0xad, 0xb5, 0xbd, 0xc5, 0xce, 0xd6, 0xde, 0xe6, 0xef, 0xf7, 0xff },
    { /* 6 */
      0x00, 0x04, 0x08, 0x0c, 0x10, 0x14, 0x18, 0x1c, 0x20, 0x24, 0x28, 0x2d, 0x31, 0x35, 0x39, 0x3d,
      0x41, 0x45, 0x49, 0x4d, 0x51, 0x55, 0x59, 0x5d, 0x61, 0x65, 0x69, 0x6d, 0x71, 0x75, 0x79, 0x7d,
      0x82, 0x86, 0x8a, 0x8e, 0x92, 0x96, 0x9a, 0x9e, 0xa2, 0xa6, 0xaa, 0xae, 0xb2, 0xb6, 0xba, 0xbe,
      0xc2, 0xc6, 0xca, 0xce, 0xd2, 0xd7, 0xdb, 0xdf, 0xe3, 0xe7, 0xeb, 0xef, 0xf3, 0xf7, 0xfb, 0xff },
};

struct pu8_regs {
    vi place, ms, imask, ibits, tab_a, tab_b;
};

/* 16 texels: each channel's field to the bottom of its byte, masked into an index (or the
   byte itself), looked up. */
VEC_INLINE void pu8_group(const struct pu8_regs *R, const uint8_t *s, uint8_t *d, unsigned bb,
                          int table)
{
    const vi x = bb == 4 ? vi_loadu(s) : place_containers(R->place, s, bb);
    const vi z = simde_mm512_multishift_epi64_epi8(R->ms, x);
    const vi idx = simde_mm512_ternarylogic_epi32(z, R->imask, R->ibits, 0xea); /* z & m | b */
    vi_storeu(d, table ? simde_mm512_permutex2var_epi8(R->tab_a, idx, R->tab_b) : idx);
}

VEC_INLINE void pu8_run(const struct pu8_regs *R, const uint8_t *src, size_t n, uint8_t *dst,
                        unsigned bb, int table)
{
    size_t i = 0;
    UNROLL_RUN(16, 4, pu8_group(R, src + j * bb, dst + j * 4, bb, table));
    if (i < n) {
        uint8_t s[16 * 4], d[16 * 4];
        memset(s, 0, sizeof s);
        memcpy(s, src + i * bb, (n - i) * bb);
        pu8_group(R, s, d, bb, table);
        memcpy(dst + i * 4, d, (n - i) * 4);
    }
}

static int pu8_vector(const struct pu8_data *U, const uint8_t *src, size_t n, uint8_t *dst)
{
    if (U->mode != U8_BYTES && U->mode != U8_WIDEN)
        return 0;
    struct pu8_regs R;
    R.place = vi_loadu(U->bb == 1 ? place1 : place2);
    R.ms = simde_mm512_set1_epi64((int64_t)U->ms);
    R.imask = vi_set1(U->imask);
    R.ibits = vi_set1(U->ibits);
    R.tab_a = vi_loadu(widen_tab[U->na]);
    R.tab_b = vi_loadu(widen_tab[U->nb]);
    const int table = U->mode == U8_WIDEN;
    switch (U->bb * 2 + (unsigned)table) {
    case 2: pu8_run(&R, src, n, dst, 1, 0); return 1;
    case 3: pu8_run(&R, src, n, dst, 1, 1); return 1;
    case 4: pu8_run(&R, src, n, dst, 2, 0); return 1;
    case 5: pu8_run(&R, src, n, dst, 2, 1); return 1;
    case 8: pu8_run(&R, src, n, dst, 4, 0); return 1;
    case 9: pu8_run(&R, src, n, dst, 4, 1); return 1;
    default: return 0;
    }
}

#else /* 128 / 256 */

#if VEC_BITS == 256
#define v16_sll(x, n) simde_mm256_sll_epi16((x), (n))
#define v16_srl(x, n) simde_mm256_srl_epi16((x), (n))
#define v16_slli(x, n) simde_mm256_slli_epi16((x), (n))
#define v16_set1(x) simde_mm256_set1_epi16((int16_t)(x))
#define v16_unpacklo simde_mm256_unpacklo_epi16
#define v16_unpackhi simde_mm256_unpackhi_epi16
#define v16_mulhrs simde_mm256_mulhrs_epi16
#define v8_shuffle simde_mm256_shuffle_epi8
#else
#define v16_sll(x, n) simde_mm_sll_epi16((x), (n))
#define v16_srl(x, n) simde_mm_srl_epi16((x), (n))
#define v16_slli(x, n) simde_mm_slli_epi16((x), (n))
#define v16_set1(x) simde_mm_set1_epi16((int16_t)(x))
#define v16_unpacklo simde_mm_unpacklo_epi16
#define v16_unpackhi simde_mm_unpackhi_epi16
#if VEC_HAVE_SHUFFLE
#define v16_mulhrs simde_mm_mulhrs_epi16
#define v8_shuffle simde_mm_shuffle_epi8
#endif
#endif

struct pu8_regs {
    simde__m128i lsh[4], rsh[4], shr[4], win;
    vi mask[4], k[4], add[4], cst, cst_rg, cst_ba;
#if VEC_BITS == 256
    vi zx8;
#endif
#if VEC_HAVE_SHUFFLE
    vi selc;
#endif
};

/* Texels per widening group: one vector of 16-bit containers. */
#define U8W_G (VEC_BITS / 16)

/* U8W_G containers as 16-bit lanes, in the order the unpacks of pu8w_group put back into
   texel order (avx2: texels 0..3, 8..11 | 4..7, 12..15), from in-lane shuffles of 128-bit
   broadcast loads (a lane-crossing vpermq costs 7% more on Zen 4). Reads U8W_G * bb bytes. */
#if VEC_BITS == 256
static const uint8_t zx8_ctrl[32] = {
    0, 0x80, 1, 0x80, 2, 0x80, 3,  0x80, 8,  0x80, 9,  0x80, 10, 0x80, 11, 0x80,
    4, 0x80, 5, 0x80, 6, 0x80, 7,  0x80, 12, 0x80, 13, 0x80, 14, 0x80, 15, 0x80,
};
#endif

VEC_INLINE vi u8_containers16(const struct pu8_regs *R, const uint8_t *s, unsigned bb)
{
#if VEC_BITS == 256
    if (bb == 1)
        return simde_mm256_shuffle_epi8(simde_mm256_broadcastsi128_si256(simde_mm_loadu_si128((const void *)s)), R->zx8);
    if (bb == 2) /* 64-bit quarters 0, 2 | 1, 3 */
        return simde_mm256_castpd_si256(simde_mm256_shuffle_pd(
            simde_mm256_castsi256_pd(simde_mm256_broadcastsi128_si256(simde_mm_loadu_si128((const void *)s))),
            simde_mm256_castsi256_pd(simde_mm256_broadcastsi128_si256(simde_mm_loadu_si128((const void *)(s + 16)))),
            0xc));
    /* bb 4: the 16-bit window of each container (packus's in-lane order is the one
       wanted) */
    const vi m = simde_mm256_set1_epi32(0xffff);
    const vi a = vi_and(simde_mm256_srl_epi32(vi_loadu(s), R->win), m);
    const vi b = vi_and(simde_mm256_srl_epi32(vi_loadu(s + 32), R->win), m);
    return simde_mm256_packus_epi32(a, b);
#else
    if (bb == 1)
        return simde_mm_unpacklo_epi8(simde_mm_loadl_epi64((const void *)s), simde_mm_setzero_si128());
    if (bb == 2)
        return vi_loadu(s);
    /* bb 4: the window sign-extended, so that the signed pack keeps it */
    const vi a = simde_mm_srai_epi32(simde_mm_slli_epi32(simde_mm_srl_epi32(vi_loadu(s), R->win), 16), 16);
    const vi b = simde_mm_srai_epi32(simde_mm_slli_epi32(simde_mm_srl_epi32(vi_loadu(s + 16), R->win), 16), 16);
    return simde_mm_packs_epi32(a, b);
#endif
}

/* One widening group: U8W_G texels. fields (a constant in each instantiation) says which
   channels are fields; 0 means all four, computed whatever they are (a constant channel has
   mask 0, so it adds nothing to cst). */
VEC_INLINE void pu8w_group(const struct pu8_regs *R, const uint8_t *s, uint8_t *d, unsigned bb,
                           unsigned fields)
{
    const vi x = u8_containers16(R, s, bb);
    const unsigned f = fields ? fields : 0xf;
    vi r[4];
    for (unsigned c = 0; c < 4; c++) {
        if (!(f >> c & 1)) {
            r[c] = vi_zero();
            continue;
        }
        const vi t = vi_and(v16_srl(v16_sll(x, R->lsh[c]), R->rsh[c]), R->mask[c]);
#if VEC_HAVE_SHUFFLE
        r[c] = v16_mulhrs(t, R->k[c]);
#else
        r[c] = v16_srl(simde_mm_add_epi16(simde_mm_mullo_epi16(t, R->k[c]), R->add[c]), R->shr[c]);
#endif
    }
    const vi rg = (f & 2) ? vi_or(r[0], v16_slli(r[1], 8)) : r[0];
    const vi ba = (f & 8) ? vi_or(r[2], v16_slli(r[3], 8)) : r[2];
    vi_storeu(d, vi_or(v16_unpacklo(rg, ba), R->cst));
    vi_storeu(d + VEC_BITS / 8, vi_or(v16_unpackhi(rg, ba), R->cst));
}

VEC_INLINE void pu8w_run(const struct pu8_regs *R, const uint8_t *src, size_t n, uint8_t *dst,
                         unsigned bb, unsigned fields)
{
    size_t i = 0;
    UNROLL_RUN(U8W_G, 2, pu8w_group(R, src + j * bb, dst + j * 4, bb, fields));
    if (i < n) {
        uint8_t s[U8W_G * 4], d[U8W_G * 4];
        memset(s, 0, sizeof s);
        memcpy(s, src + i * bb, (n - i) * bb);
        pu8w_group(R, s, d, bb, fields);
        memcpy(dst + i * 4, d, (n - i) * 4);
    }
}

VEC_INLINE void pu8w_fields(const struct pu8_regs *R, const uint8_t *src, size_t n, uint8_t *dst,
                            unsigned bb, unsigned fields)
{
    switch (fields) {
    case 0xf: pu8w_run(R, src, n, dst, bb, 0xf); return;
    case 0x7: pu8w_run(R, src, n, dst, bb, 0x7); return;
    default: pu8w_run(R, src, n, dst, bb, 0); return;
    }
}

#if VEC_BITS == 256
#define v16_srli(x, n) simde_mm256_srli_epi16((x), (n))
#define v16_srai(x, n) simde_mm256_srai_epi16((x), (n))
#define v16_set1c(x) simde_mm256_set1_epi16((int16_t)(x))
#define v8_unpacklo simde_mm256_unpacklo_epi8
#define v8_unpackhi simde_mm256_unpackhi_epi8
#else
#define v16_srli(x, n) simde_mm_srli_epi16((x), (n))
#define v16_srai(x, n) simde_mm_srai_epi16((x), (n))
#define v16_set1c(x) simde_mm_set1_epi16((int16_t)(x))
#define v8_unpacklo simde_mm_unpacklo_epi8
#define v8_unpackhi simde_mm_unpackhi_epi8
#endif

/* The n-bit field at bit shift of every 16-bit lane (shift, n: constants) widened to
   round(255 v / (2^n - 1)) in the lane's low byte. */
VEC_INLINE vi widen_field16(vi x, unsigned shift, unsigned n)
{
#if VEC_HAVE_SHUFFLE
    const unsigned m = widen16[n].m;
    const vi t = shift > m ? v16_srli(x, shift - m) : shift < m ? v16_slli(x, m - shift) : x;
    return v16_mulhrs(vi_and(t, v16_set1c(((1u << n) - 1) << m)), v16_set1c(widen16[n].k));
#else
    vi v = shift ? v16_srli(x, shift) : x;
    if (shift + n != 16)
        v = vi_and(v, v16_set1c((1u << n) - 1));
    if (widen16[n].mul != 1)
        v = simde_mm_mullo_epi16(v, v16_set1c(widen16[n].mul));
    if (widen16[n].add)
        v = simde_mm_add_epi16(v, v16_set1c(widen16[n].add));
    return widen16[n].shr ? v16_srli(v, widen16[n].shr) : v;
#endif
}

/* Nibbles (4_4_4_4; 4_4 in zero-extended lanes) as bytes c0 c1 c2 c3 of 2 x U8W_G / 2
   texels: v * 17 is exact for 4 bits. */
VEC_INLINE void nibbles(vi x, vi *lo, vi *hi)
{
    const vi m = v16_set1c(0x0f0f);
    vi a = vi_and(x, m), b = vi_and(v16_srli(x, 4), m);
    a = vi_or(a, v16_slli(a, 4));
    b = vi_or(b, v16_slli(b, 4));
    *lo = v8_unpacklo(a, b);
    *hi = v8_unpackhi(a, b);
}

/* One recipe group: U8W_G texels of a format with a recipe, natural order then (unless
   ident) the selection as a byte shuffle, constants ORed. */
VEC_INLINE void pu8r_group(const struct pu8_regs *R, const uint8_t *s, uint8_t *d, unsigned bb,
                           unsigned recipe, int ident)
{
    const vi x = u8_containers16(R, s, bb);
    vi lo, hi;
    if (recipe == RC_4444 || recipe == RC_44) {
        nibbles(x, &lo, &hi);
    } else {
        vi rg, ba;
        if (recipe == RC_565) {
            rg = vi_or(widen_field16(x, 0, 5), v16_slli(widen_field16(x, 5, 6), 8));
            ba = widen_field16(x, 11, 5);
        } else if (recipe == RC_655) {
            rg = vi_or(widen_field16(x, 0, 5), v16_slli(widen_field16(x, 5, 5), 8));
            ba = widen_field16(x, 10, 6);
        } else if (recipe == RC_1555) {
            rg = vi_or(widen_field16(x, 0, 5), v16_slli(widen_field16(x, 5, 5), 8));
            /* the 1-bit alpha: 0 or 0xff00 by the sign */
            ba = vi_or(widen_field16(x, 10, 5), vi_and(v16_srai(x, 15), v16_set1c(0xff00)));
        } else { /* RC_332 */
            rg = vi_or(widen_field16(x, 0, 2), v16_slli(widen_field16(x, 2, 3), 8));
            ba = widen_field16(x, 5, 3);
        }
        if (ident) { /* the constants into the halves before they are interleaved */
            rg = vi_or(rg, R->cst_rg);
            ba = vi_or(ba, R->cst_ba);
            vi_storeu(d, v16_unpacklo(rg, ba));
            vi_storeu(d + VEC_BITS / 8, v16_unpackhi(rg, ba));
            return;
        }
        lo = v16_unpacklo(rg, ba);
        hi = v16_unpackhi(rg, ba);
    }
#if VEC_HAVE_SHUFFLE
    if (!ident) {
        lo = v8_shuffle(lo, R->selc);
        hi = v8_shuffle(hi, R->selc);
    }
#else
    (void)ident;
#endif
    vi_storeu(d, vi_or(lo, R->cst));
    vi_storeu(d + VEC_BITS / 8, vi_or(hi, R->cst));
}

VEC_INLINE void pu8r_run(const struct pu8_regs *R, const uint8_t *src, size_t n, uint8_t *dst,
                         unsigned bb, unsigned recipe, int ident)
{
    size_t i = 0;
    UNROLL_RUN(U8W_G, 2, pu8r_group(R, src + j * bb, dst + j * 4, bb, recipe, ident));
    if (i < n) {
        uint8_t s[U8W_G * 4], d[U8W_G * 4];
        memset(s, 0, sizeof s);
        memcpy(s, src + i * bb, (n - i) * bb);
        pu8r_group(R, s, d, bb, recipe, ident);
        memcpy(dst + i * 4, d, (n - i) * 4);
    }
}

static int pu8_recipe(const struct pu8_data *U, const struct pu8_regs *R, const uint8_t *src,
                      size_t n, uint8_t *dst)
{
#if !VEC_HAVE_SHUFFLE
    if (!U->ident)
        return 0; /* sse2: the per-channel path selects */
#endif
#define RC(rc, b)                                                                                case rc:                                                                                         if (U->ident)                                                                                    pu8r_run(R, src, n, dst, b, rc, 1);                                                      else                                                                                             pu8r_run(R, src, n, dst, b, rc, 0);                                                      return 1;
    switch (U->recipe) {
        RC(RC_565, 2)
        RC(RC_655, 2)
        RC(RC_1555, 2)
        RC(RC_4444, 2)
        RC(RC_332, 1)
        RC(RC_44, 1)
    default: return 0;
    }
#undef RC
}

#if VEC_HAVE_SHUFFLE
/* U8_BYTES: each output vector a pshufb of a source window (per 128-bit lane: 4 texels
   from 4 bb bytes). Reads VEC_BITS / 32 * bb bytes. */
VEC_INLINE vi pu8s_src(const uint8_t *s, unsigned bb)
{
#if VEC_BITS == 256
    if (bb == 4)
        return vi_loadu(s);
    if (bb == 2)
        return simde_mm256_broadcastsi128_si256(simde_mm_loadu_si128((const void *)s));
    return simde_mm256_broadcastsi128_si256(simde_mm_loadl_epi64((const void *)s));
#else
    if (bb == 4)
        return vi_loadu(s);
    if (bb == 2)
        return simde_mm_loadl_epi64((const void *)s);
    int32_t v;
    memcpy(&v, s, 4);
    return simde_mm_cvtsi32_si128(v);
#endif
}

VEC_INLINE void pu8s_group(vi ctrl, vi cst, const uint8_t *s, uint8_t *d, unsigned bb)
{
    vi_storeu(d, vi_or(v8_shuffle(pu8s_src(s, bb), ctrl), cst));
}

VEC_INLINE void pu8s_run(vi ctrl, vi cst, const uint8_t *src, size_t n, uint8_t *dst,
                         unsigned bb)
{
    const size_t G = VEC_BITS / 32;
    size_t i = 0;
    UNROLL_RUN(G, 4, pu8s_group(ctrl, cst, src + j * bb, dst + j * 4, bb));
    if (i < n) {
        uint8_t s[VEC_BITS / 8], d[VEC_BITS / 8];
        memset(s, 0, sizeof s);
        memcpy(s, src + i * bb, (n - i) * bb);
        pu8s_group(ctrl, cst, s, d, bb);
        memcpy(dst + i * 4, d, (n - i) * 4);
    }
}
#else
/* U8_BYTES of 4-byte containers without pshufb: per channel, the byte moved to the top of
   the lane, down to the bottom, up to the channel's byte (a constant channel: all three
   shifts by 32, which give 0). */
struct pu8b32_regs {
    simde__m128i up[4], up2[4];
    vi cst;
};

VEC_INLINE void pu8b32_group(const struct pu8b32_regs *B, const uint8_t *s, uint8_t *d)
{
    const vi x = vi_loadu(s);
    vi o = B->cst;
    for (unsigned c = 0; c < 4; c++)
        o = vi_or(o, simde_mm_sll_epi32(simde_mm_srli_epi32(simde_mm_sll_epi32(x, B->up[c]), 24), B->up2[c]));
    vi_storeu(d, o);
}
#endif

static int pu8_vector(const struct pu8_data *U0, const uint8_t *src, size_t n, uint8_t *dst)
{
    const struct pu8_data *U = U0;
    const unsigned bb = U->bb;
    if (bb != 1 && bb != 2 && bb != 4)
        return 0;
#if VEC_HAVE_SHUFFLE
    if (U->mode == U8_BYTES) {
        const vi ctrl = vi_loadu(U->ctrl), cst = vi_set1(U->cst);
        switch (bb) {
        case 1: pu8s_run(ctrl, cst, src, n, dst, 1); return 1;
        case 2: pu8s_run(ctrl, cst, src, n, dst, 2); return 1;
        default: pu8s_run(ctrl, cst, src, n, dst, 4); return 1;
        }
    }
#else
    struct pu8_data W;
    if (U->mode == U8_BYTES) {
        if (bb == 4) {
            struct pu8b32_regs B;
            for (unsigned c = 0; c < 4; c++) {
                const int f = U->fields >> c & 1;
                B.up[c] = count_of(f ? 24 - 8 * U->byte[c] : 32);
                B.up2[c] = count_of(f ? (int)(8 * c) : 32);
            }
            B.cst = vi_set1(U->cst);
            size_t i = 0;
            UNROLL_RUN(VEC_LANES, 2, pu8b32_group(&B, src + j * 4, dst + j * 4));
            if (i < n) {
                uint8_t s[VEC_LANES * 4], d[VEC_LANES * 4];
                memset(s, 0, sizeof s);
                memcpy(s, src + i * 4, (n - i) * 4);
                pu8b32_group(&B, s, d);
                memcpy(dst + i * 4, d, (n - i) * 4);
            }
            return 1;
        }
        /* 1- and 2-byte containers: widening with n = 8 */
        W = *U;
        for (unsigned c = 0; c < 4; c++) {
            if (!(W.fields >> c & 1))
                continue;
            W.lsh[c] = 16 - 8 * W.byte[c] - 8;
            W.rsh[c] = 8;
            W.mask[c] = 0xff;
            W.k[c] = 1;
            W.add[c] = 0;
            W.shr[c] = 0;
        }
        W.mode = U8_WIDEN;
        U = &W;
    }
#endif
    if (U->mode != U8_WIDEN)
        return 0;
    struct pu8_regs R;
    R.cst = vi_set1(U->cst);
    R.cst_rg = v16_set1(U->cst & 0xffff);
    R.cst_ba = v16_set1(U->cst >> 16);
#if VEC_BITS == 256
    R.zx8 = vi_loadu(zx8_ctrl);
#endif
    if (U->recipe) {
#if VEC_HAVE_SHUFFLE
        R.selc = vi_loadu(U->selc);
#endif
        if (pu8_recipe(U, &R, src, n, dst))
            return 1;
    }
    for (unsigned c = 0; c < 4; c++) {
        R.lsh[c] = count_of(U->lsh[c]);
        R.rsh[c] = count_of(U->rsh[c]);
        R.shr[c] = count_of(U->shr[c]);
        R.mask[c] = v16_set1(U->mask[c]);
        R.k[c] = v16_set1(U->k[c]);
        R.add[c] = v16_set1(U->add[c]);
    }
    R.win = count_of(U->win);
    switch (bb) {
    case 1: pu8w_fields(&R, src, n, dst, 1, U->fields); return 1;
    case 2: pu8w_fields(&R, src, n, dst, 2, U->fields); return 1;
    default: pu8w_fields(&R, src, n, dst, 4, U->fields); return 1;
    }
}

#endif /* VEC_BITS */

static VFETCH_TEXEL_FN(NAME(packed_u8))
{
    struct tex_data tmp;
    const struct pu8_data *U = &tex_data_of(plan, &tmp)->u.p.u;
    if (U->mode == U8_FILL) {
        pu8_fill(U->cst, nblocks, dst);
        return;
    }
    if (U->mode == U8_COPY) {
        memcpy(dst, src, nblocks * 4);
        return;
    }
    if (!pu8_vector(U, src, nblocks, dst))
        vfetch_texel_ref_u8(plan, src, nblocks, dst, dst_pitch);
}

/* ======================================================================================== */
/* FLOAT16 / FLOAT32 -> RGBA32F                                                               */
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
    struct tex_data tmp;
    const struct fl_data *L = &tex_data_of(plan, &tmp)->u.fl;
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

void NAME(vfetch_texel_packed_init)(struct vfetch_texel_dsp *dsp)
{
#if TEX_X86
    dsp->packed_f32 = NAME(packed_f32);
    dsp->packed_u8 = NAME(packed_u8);
    dsp->float16_f32 = NAME(float16_f32);
    dsp->float32_f32 = NAME(float32_f32);
    dsp->packed_prepare = NAME(packed_prepare);
#else
    (void)dsp;
#endif
}
