/*
 * Texel kernels: PACKED fixed-point fields to RGBA8 (rgba8_exact plans), one compilation per
 * ISA level. What the three families of the 1x1 classes share (the per-plan data, the groups
 * and their stack copies, the reference, the checks) is in texel_vec.h.
 *
 * Each channel is round(255 v / (2^n - 1)) (not v's bits repeated for n = 3, 5, 6, 7):
 *   avx512      vpermb puts each texel's container in its 32-bit lane, vpmultishiftqb brings
 *               every channel's field to the bottom of its byte, a vpternlogd masks it (or
 *               forces a constant's index) and vpermi2b looks the byte up in two 64-entry
 *               tables;
 *   sse41/avx2  per channel in 16-bit lanes, the field isolated at bit m and pmulhrsw by K
 *               (widen16); sse2: (v M + A) >> S;
 * byte-aligned 8-bit fields are a byte shuffle; 8_8_8_8 as R, G, B, A is a copy, constant
 * channels only a fill.
 */
#include <stdint.h>
#include <string.h>

#include "ref/texel_ref.h"
#include "simd/texel_vec.h"

#if TEX_X86

/* ======================================================================================== */
/* Per-plan data                                                                              */
/* ======================================================================================== */

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
TEXEL_SLOT_FITS(struct pu8_data, packed.u8);

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

static void NAME(packed_u8_prepare)(struct vfetch_texel_plan *plan)
{
    if (plan->format->cls == VFETCH_TEXEL_CLASS_PACKED)
        pu8_prepare(plan, texel_slot_fill(plan->kernel_data.packed.u8,
                                          NAME(packed_u8_prepare)));
}

/* ======================================================================================== */
/* The kernel                                                                                 */
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
   broadcast loads (a lane-crossing vpermq costs more on CPUs that split 512-bit ops).
   Reads U8W_G * bb bytes. */
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
#define v8_unpacklo simde_mm256_unpacklo_epi8
#define v8_unpackhi simde_mm256_unpackhi_epi8
#else
#define v16_srli(x, n) simde_mm_srli_epi16((x), (n))
#define v16_srai(x, n) simde_mm_srai_epi16((x), (n))
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
    return v16_mulhrs(vi_and(t, v16_set1(((1u << n) - 1) << m)), v16_set1(widen16[n].k));
#else
    vi v = shift ? v16_srli(x, shift) : x;
    if (shift + n != 16)
        v = vi_and(v, v16_set1((1u << n) - 1));
    if (widen16[n].mul != 1)
        v = simde_mm_mullo_epi16(v, v16_set1(widen16[n].mul));
    if (widen16[n].add)
        v = simde_mm_add_epi16(v, v16_set1(widen16[n].add));
    return widen16[n].shr ? v16_srli(v, widen16[n].shr) : v;
#endif
}

/* Nibbles (4_4_4_4; 4_4 in zero-extended lanes) as bytes c0 c1 c2 c3 of 2 x U8W_G / 2
   texels: v * 17 is exact for 4 bits. */
VEC_INLINE void nibbles(vi x, vi *lo, vi *hi)
{
    const vi m = v16_set1(0x0f0f);
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
            ba = vi_or(widen_field16(x, 10, 5), vi_and(v16_srai(x, 15), v16_set1(0xff00)));
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
#define RC(rc, b)                                                                               \
    case rc:                                                                                    \
        if (U->ident)                                                                           \
            pu8r_run(R, src, n, dst, b, rc, 1);                                                 \
        else                                                                                    \
            pu8r_run(R, src, n, dst, b, rc, 0);                                                 \
        return 1;
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
    struct pu8_data tmp;
    const struct pu8_data *U = texel_slot_data(plan->kernel_data.packed.u8,
                                               NAME(packed_u8_prepare));
    if (!U) {
        pu8_prepare(plan, &tmp);
        U = &tmp;
    }
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

#endif /* TEX_X86 */

void NAME(vfetch_texel_packed_u8_init)(struct vfetch_texel_dsp *dsp)
{
#if TEX_X86
    dsp->packed_u8 = NAME(packed_u8);
    dsp->packed_u8_prepare = NAME(packed_u8_prepare);
#else
    (void)dsp;
#endif
}
