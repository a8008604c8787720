/*
 * GX texture kernels, one compilation per ISA level; the reference is
 * lib/ref/gx_texture_ref.c, which every level matches byte for byte (tests/checkasm/gx_texture.c
 * checks every kernel at every level on guard pages; tests/gx_texture checks them against
 * Dolphin's output).
 *
 * Levels with a byte shuffle (sse41, avx2, avx512; sse2 and neon keep the reference). Output
 * vectors hold 4 texels per 128-bit lane (RGBA8, 16 bytes), so a vector is 4, 8 or 16 texels
 * of one output row: a part of one block's row (8-wide blocks at 128 bits), one block row
 * (8-wide at 256, 4-wide at 128), or the rows of several blocks side by side. A kernel runs
 * groups of G blocks, each group a fixed program of loads, shuffles and stores: every source
 * byte and every output texel is placed by a shuffle control (pshufb within 128-bit lanes;
 * avx512 vpermb / vpermt2b across the vector, so that 2 or 4 blocks load as one or two
 * 64-byte vectors):
 *
 *   I8, IA8, RGBA8   the shuffle alone gives the output bytes (I8: the byte 4 times; IA8:
 *                    (I, I, I, A) of the (A, I) pair; RGBA8: R, G, B, A from the two planes);
 *   I4, IA4          nibbles widen in bytes (n << 4 | n) before or after the shuffle;
 *   RGB565, RGB5A3   two rows of 16-bit values a vector, each channel widened by one 16-bit
 *                    multiply of its field in place, interleaved into RGBA8 by two unpacks;
 *                    RGB5A3 computes both modes and selects per texel by bit 15 (no branch,
 *                    so mixed alpha costs what uniform does);
 *   C4               the 16 palette entries converted once per call into RGBA8 (the
 *                    RGB565 / RGB5A3 / IA8 lane code), then looked up per texel: avx512
 *                    vpermd; below, a pshufb per channel plane;
 *   C8               the 256 entries converted once per call: avx512 looks them up as byte
 *                    planes by vpermt2b; below, loads inserted into a vector;
 *   C14X2            IA8 palettes: each entry loaded raw, inserted into a vector and spread
 *                    by a pshufb; RGB565 / RGB5A3: the index into each lane, the entry
 *                    gathered (avx2/avx512 vpgatherdd of the aligned 32-bit pair holding it,
 *                    so no byte past the palette is read; sse41 four loads) and converted
 *                    like a texel, or for a large texture loaded from a converted table;
 *   CMPR             a 128-bit lane is one 4x4 sub-block: its four colours are built in the
 *                    lane's four dwords (a group's endpoints widened at once by the RGB565
 *                    lane code, the two blends as 16-bit multiplies by per-dword weights,
 *                    chosen per lane by c0 > c1), every index of the sub-block extracted at
 *                    once, and each row is a pshufb of the colours by its indices.
 *
 * A last group of fewer than G blocks goes through a zeroed stack copy of its blocks and a
 * stack output copied out row by row, so no byte outside the caller's buffers is read or
 * written; those partial groups run after all the whole ones.
 */
#include <string.h>
#if defined(__BMI__) && defined(__x86_64__)
#include <immintrin.h> /* _bextr_u64 */
#endif

#include "gx_texture/gx_texture_internal.h"
#include "simd/vec.h"

#if defined(VFETCH_ISA_SSE41) || defined(VFETCH_ISA_AVX2) || defined(VFETCH_ISA_AVX512)
#define GT_ENABLED 1
#else
#define GT_ENABLED 0 /* sse2 (no pshufb), neon: the reference runs */
#endif

#if GT_ENABLED

#if VEC_BITS == 128
#include <simde/x86/sse4.1.h>
#endif

/* 128-bit lanes of a vector, and texels of a vector. */
#define NL (VEC_BITS / 128)
#define VT (NL * 4)

/* ---- width-generic byte operations ---- */

#if VEC_BITS == 512
#define v_shuffle8 simde_mm512_shuffle_epi8
#define v_srli16(x, n) simde_mm512_srli_epi16((x), (n))
#define v_slli16(x, n) simde_mm512_slli_epi16((x), (n))
#define v_mullo16 simde_mm512_mullo_epi16
#define v_add16 simde_mm512_add_epi16
#define v_add8 simde_mm512_add_epi8
#define v_mulhi16 vi_mulhi_u16 /* vec.h */
#define v_unpacklo16 simde_mm512_unpacklo_epi16
#define v_unpackhi16 simde_mm512_unpackhi_epi16
#define vi_srlv simde_mm512_srlv_epi32
#define v_storeu(p, x) simde_mm512_storeu_si512((void *)(p), (x))
/* A 16-byte pattern in every 128-bit lane. */
VEC_INLINE vi v_bcast16(const uint8_t *p)
{
    return simde_mm512_broadcast_i32x4(simde_mm_loadu_si128((const void *)p));
}
/* 128-bit lane j <- the 16 bytes at p + j * stride. */
VEC_INLINE vi v_lanes(const uint8_t *p, size_t stride)
{
    vi x = simde_mm512_castsi128_si512(simde_mm_loadu_si128((const void *)p));
    x = simde_mm512_inserti32x4(x, simde_mm_loadu_si128((const void *)(p + stride)), 1);
    x = simde_mm512_inserti32x4(x, simde_mm_loadu_si128((const void *)(p + 2 * stride)), 2);
    return simde_mm512_inserti32x4(x, simde_mm_loadu_si128((const void *)(p + 3 * stride)), 3);
}
/* Per 32-bit lane: a > b (unsigned values below 2^31) ? t : f. */
VEC_INLINE vi v_select_gt(vi a, vi b, vi f, vi t)
{
    return simde_mm512_mask_blend_epi32(simde_mm512_cmpgt_epi32_mask(a, b), f, t);
}
#elif VEC_BITS == 256
#define v_shuffle8 simde_mm256_shuffle_epi8
#define v_srli16(x, n) simde_mm256_srli_epi16((x), (n))
#define v_slli16(x, n) simde_mm256_slli_epi16((x), (n))
#define v_mullo16 simde_mm256_mullo_epi16
#define v_add16 simde_mm256_add_epi16
#define v_add8 simde_mm256_add_epi8
#define v_mulhi16 simde_mm256_mulhi_epu16
#define v_unpacklo16 simde_mm256_unpacklo_epi16
#define v_unpackhi16 simde_mm256_unpackhi_epi16
#define vi_srlv simde_mm256_srlv_epi32
#define v_storeu(p, x) simde_mm256_storeu_si256((void *)(p), (x))
VEC_INLINE vi v_bcast16(const uint8_t *p)
{
    return simde_mm256_broadcastsi128_si256(simde_mm_loadu_si128((const void *)p));
}
VEC_INLINE vi v_lanes(const uint8_t *p, size_t stride)
{
    return simde_mm256_loadu2_m128i((const void *)(p + stride), (const void *)p);
}
VEC_INLINE vi v_select_gt(vi a, vi b, vi f, vi t)
{
    return simde_mm256_blendv_epi8(f, t, simde_mm256_cmpgt_epi32(a, b));
}
#else
#define v_shuffle8 simde_mm_shuffle_epi8
#define v_srli16(x, n) simde_mm_srli_epi16((x), (n))
#define v_slli16(x, n) simde_mm_slli_epi16((x), (n))
#define v_mullo16 simde_mm_mullo_epi16
#define v_add16 simde_mm_add_epi16
#define v_add8 simde_mm_add_epi8
#define v_mulhi16 simde_mm_mulhi_epu16
#define v_unpacklo16 simde_mm_unpacklo_epi16
#define v_unpackhi16 simde_mm_unpackhi_epi16
#define v_storeu(p, x) simde_mm_storeu_si128((void *)(p), (x))
VEC_INLINE vi v_bcast16(const uint8_t *p)
{
    return simde_mm_loadu_si128((const void *)p);
}
VEC_INLINE vi v_lanes(const uint8_t *p, size_t stride)
{
    (void)stride;
    return simde_mm_loadu_si128((const void *)p);
}
VEC_INLINE vi v_select_gt(vi a, vi b, vi f, vi t)
{
    return simde_mm_blendv_epi8(f, t, simde_mm_cmpgt_epi32(a, b));
}
#endif

/* Loops over rows run unrolled, so that a row's shuffle controls and source vectors are
   constants and registers, not stack slots indexed at run time. */
#define GT_UNROLL _Pragma("GCC unroll 8")

/* A full-width constant from a table of VEC_BITS / 8 bytes. */
#define v_const(table) vi_loadu(table)

/* A shuffle control byte that gives 0. */
#define Z 0x80

/* ---- 16-bit values to RGBA8, in 16-bit lanes (the direct RGB565 and RGB5A3 textures) ----

   A channel widens by one 16-bit multiply of its field in place: the widening replicates the
   top bits into the low ones, which for a field c of n bits is c * (2^n + 1) >> (2n - 8)
   exactly (the two copies do not overlap), and mulhi(c << k, m) = c * m >> (16 - k):
     5 bits: (c << 3 | c >> 2) = c * 33 >> 2     6 bits: (c << 2 | c >> 4) = c * 65 >> 4
     4 bits: c * 17                              3 bits: (c << 5 | c << 2 | c >> 1) = c * 73 >> 1
   The channels pair as (R | G << 8) and (B | A << 8), and two unpacks interleave them into
   RGBA8: a vector of 16-bit values is two rows, each 128-bit lane rows 2k, 2k + 1 of a block,
   the low unpack row 2k of every lane's block and the high one row 2k + 1. */
struct rg_ba {
    vi rg, ba;
};
#define H16(x) vi_set1((uint32_t)(x) * 0x10001u) /* x in every 16-bit lane */

/* Opaque RGB of a 5-bit blue in bits 4:0 and red and green fields by mask, each with its
   multiplier (the field's widening, above); A 255. */
VEC_INLINE struct rg_ba pairs_opaque(vi v, uint32_t r_mask, uint32_t r_mul, uint32_t g_mask,
                                     uint32_t g_mul)
{
    const vi r = v_mulhi16(vi_and(v, H16(r_mask)), H16(r_mul));
    const vi g = v_mulhi16(vi_and(v, H16(g_mask)), H16(g_mul));
    const vi b = v_mulhi16(v_slli16(v, 11), H16(264)); /* 33 << 3: c << 11 */
    const struct rg_ba p = { vi_or(r, v_slli16(g, 8)), vi_or(b, H16(0xff00)) };
    return p;
}
/* RGB565: red 5 bits at 15:11 (33 << 3), green 6 bits at 10:5 (65 << 7). */
VEC_INLINE struct rg_ba pairs_rgb565(vi v)
{
    return pairs_opaque(v, 0xf800, 264, 0x07e0, 8320);
}
/* RGB5A3 with bit 15 set: RGB555, red at 14:10 (33 << 4), green at 9:5 (33 << 9). */
VEC_INLINE struct rg_ba pairs_rgb555(vi v)
{
    return pairs_opaque(v, 0x7c00, 528, 0x03e0, 16896);
}

/* Per 16-bit lane: bit 15 set ? t : f; and whether it is set in every lane. */
#if VEC_BITS == 512
#define v_select_bit15_16(v, f, t)                                                            \
    simde_mm512_mask_blend_epi16(simde_mm512_movepi16_mask(v), (f), (t))
VEC_INLINE int v_all_bit15_16(vi v)
{
    return simde_mm512_movepi16_mask(v) == 0xffffffffu;
}
#elif VEC_BITS == 256
#define v_select_bit15_16(v, f, t) simde_mm256_blendv_epi8((f), (t), simde_mm256_srai_epi16((v), 15))
VEC_INLINE int v_all_bit15_16(vi v)
{
    return ((uint32_t)simde_mm256_movemask_epi8(v) & 0xaaaaaaaau) == 0xaaaaaaaau;
}
#else
#define v_select_bit15_16(v, f, t) simde_mm_blendv_epi8((f), (t), simde_mm_srai_epi16((v), 15))
VEC_INLINE int v_all_bit15_16(vi v)
{
    return ((unsigned)simde_mm_movemask_epi8(v) & 0xaaaau) == 0xaaaau;
}
#endif

/* RGB5A3 of either mode, per lane by bit 15, given its opaque conversion. */
VEC_INLINE struct rg_ba pairs_rgb5a3_mixed(vi v, struct rg_ba opaque)
{
    /* bit 15 clear: A3 RGB444 */
    const vi r = v_mulhi16(vi_and(v, H16(0x0f00)), H16(4352)); /* 17 << 8: c << 8 */
    const vi g = v_mulhi16(vi_and(v_slli16(v, 8), H16(0xf000)), H16(272)); /* 17 << 4: c << 12 */
    const vi b = v_mulhi16(v_slli16(v, 12), H16(272));
    const vi a = v_mulhi16(vi_and(v, H16(0x7000)), H16(584));  /* 73 << 3: c << 12 */
    const struct rg_ba p = {
        v_select_bit15_16(v, vi_or(r, v_slli16(g, 8)), opaque.rg),
        v_select_bit15_16(v, vi_or(b, v_slli16(a, 8)), opaque.ba),
    };
    return p;
}
VEC_INLINE struct rg_ba pairs_rgb5a3(vi v)
{
    /* Textures are mostly of one mode: a vector of opaque texels skips the other (for mixed
       data the test is always false, so predicted as well) */
    const struct rg_ba opaque = pairs_rgb555(v);
    return v_all_bit15_16(v) ? opaque : pairs_rgb5a3_mixed(v, opaque);
}

/* ---- 16-bit values to RGBA8 in 32-bit lanes (value in bits 15:0, zero above): palette
   entries, CMPR endpoints. The same conversions, each lane's low half converted and its two
   results (R | G << 8, B | A << 8) put together. ---- */

VEC_INLINE vi lanes_of_pairs(struct rg_ba p)
{
    return vi_or(vi_and(p.rg, vi_set1(0xffff)), vi_slli(p.ba, 16));
}

VEC_INLINE vi lanes_rgb565(vi v)
{
    return lanes_of_pairs(pairs_rgb565(v));
}

/* Whether bit 15 is set in every lane. */
VEC_INLINE int v_all_bit15(vi v)
{
#if VEC_BITS == 512
    const vi b = vi_set1(0x8000);
    return simde_mm512_cmpeq_epi32_mask(vi_and(v, b), b) == 0xffff;
#elif VEC_BITS == 256
    return simde_mm256_movemask_ps(simde_mm256_castsi256_ps(vi_slli(v, 16))) == 0xff;
#else
    return simde_mm_movemask_ps(simde_mm_castsi128_ps(vi_slli(v, 16))) == 0xf;
#endif
}

VEC_INLINE vi lanes_rgb5a3(vi v)
{
    /* as pairs_rgb5a3, tested on the 32-bit lanes (their zero high halves never have bit 15) */
    const struct rg_ba opaque = pairs_rgb555(v);
    return lanes_of_pairs(v_all_bit15(v) ? opaque : pairs_rgb5a3_mixed(v, opaque));
}

/* IA8 value A << 8 | I -> (I, I, I, A). */
VEC_INLINE vi lanes_ia8(vi v)
{
    const vi i = vi_and(v, vi_set1(0xff));
    const vi ii = vi_or(i, vi_slli(i, 8));
    return vi_or(vi_and(vi_or(ii, vi_slli(ii, 16)), vi_set1(0x00ffffff)),
                 vi_and(vi_slli(v, 16), vi_set1((int32_t)0xff000000u)));
}

/* VEC_LANES big-endian 16-bit values at p (2 VEC_LANES bytes), one a 32-bit lane. */
static const uint8_t be16_swap[16] = { 1, 0, Z, Z, 5, 4, Z, Z, 9, 8, Z, Z, 13, 12, Z, Z };
VEC_INLINE vi be16_lanes(const uint8_t *p)
{
#if VEC_BITS == 512 && defined(SIMDE_X86_AVX512F_NATIVE)
    const vi x = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const void *)p));
#elif VEC_BITS == 512
    const vi x = simde_mm512_inserti64x4(
        simde_mm512_castsi256_si512(simde_mm256_cvtepu16_epi32(simde_mm_loadu_si128((const void *)p))),
        simde_mm256_cvtepu16_epi32(simde_mm_loadu_si128((const void *)(p + 16))), 1);
#elif VEC_BITS == 256
    const vi x = simde_mm256_cvtepu16_epi32(simde_mm_loadu_si128((const void *)p));
#else
    const vi x = simde_mm_cvtepu16_epi32(simde_mm_loadl_epi64((const void *)p));
#endif
    return v_shuffle8(x, v_bcast16(be16_swap));
}

/* A palette entry (or 16-bit texel) of format `tlut` to RGBA8. */
VEC_INLINE vi lanes_entry(vi v, unsigned tlut)
{
    return tlut == VFETCH_GX_TLUT_IA8      ? lanes_ia8(v)
           : tlut == VFETCH_GX_TLUT_RGB565 ? lanes_rgb565(v)
                                           : lanes_rgb5a3(v);
}

/* ---- the group driver ---- */

/* A texture exactly one group wide (8x8 at most levels): a block row is one group, so no
   inner loop and no tail. Out of line, so that the kernel tail-calls it before its own frame
   is set up: for a small texture the loops' setup costs as much as the conversion. */
#define ONE_GROUP(name, G, BH, BB, ctx_t, prepare, body)                                     \
    static __attribute__((noinline)) void name##_one(const uint8_t *src, size_t nrows,       \
                                                     const uint8_t *palette, uint8_t *dst,   \
                                                     size_t dst_pitch)                       \
    {                                                                                        \
        ctx_t ctx;                                                                           \
        prepare(&ctx, palette);                                                              \
        for (size_t row_ = 0; row_ < nrows;                                                  \
             row_++, src += (G) * (BB), dst += (BH) * dst_pitch) {                           \
            body;                                                                            \
        }                                                                                    \
    }

/* The kernel: a compare and a jump to one of the two (neither's frame is set up for the
   other's case). */
#define ONE_OR_MANY(name, G)                                                                 \
    static VFETCH_GX_TEXTURE_FN(name)                                                        \
    {                                                                                        \
        if (nblocks == (G))                                                                  \
            name##_one(src, nrows, palette, dst, dst_pitch);                                 \
        else                                                                                 \
            name##_many(src, nblocks, nrows, palette, dst, dst_pitch);                       \
    }

/* The partial groups at the right edge, after every whole group: a call inside the loop
   over the whole groups, even one never taken, slows that loop (docs/decisions.md, "Measured
   choices"). */
#define TAILS(name, BW, BH, BB)                                                              \
    if (whole < nblocks)                                                                     \
        for (size_t row_ = 0; row_ < nrows; row_++)                                          \
            name##_tail(&ctx, src + row_ * nblocks * (BB) + whole * (BB), nblocks - whole,   \
                        dst + row_ * (BH) * dst_pitch + whole * (BW) * 4, dst_pitch);

/* A kernel from a group function: whole groups of G blocks in place, the rest through the
   stack. ctx_t/prepare: what a group needs from the palette, made once per call. */
#define GROUP_KERNEL(name, G, BW, BH, BB, ctx_t, prepare, group)                            \
    /* the partial group out of line: its stack buffers stay out of the kernel's frame */   \
    static __attribute__((noinline)) void name##_tail(const ctx_t *ctx, const uint8_t *src,  \
                                                      size_t n, uint8_t *dst,                 \
                                                      size_t dst_pitch)                       \
    {                                                                                        \
        uint8_t s_[(G) * (BB)];                                                              \
        uint8_t d_[(BH) * (G) * (BW) * 4];                                                   \
        copy_in(s_, sizeof s_, src, n * (BB));                                               \
        group(ctx, s_, d_, (G) * (BW) * 4);                                                  \
        GT_UNROLL                                                                            \
        for (unsigned r_ = 0; r_ < (BH); r_++)                                               \
            copy_out(dst + r_ * dst_pitch, d_ + r_ * (G) * (BW) * 4, n * (BW) * 4);          \
    }                                                                                        \
    ONE_GROUP(name, G, BH, BB, ctx_t, prepare, group(&ctx, src, dst, dst_pitch))            \
    static __attribute__((noinline)) VFETCH_GX_TEXTURE_FN(name##_many)                       \
    {                                                                                        \
        ctx_t ctx;                                                                           \
        prepare(&ctx, palette);                                                              \
        const size_t whole = nblocks - nblocks % (G);                                        \
        for (size_t row_ = 0; row_ < nrows; row_++) {                                        \
            const uint8_t *s_ = src + row_ * nblocks * (BB);                                 \
            uint8_t *d_ = dst + row_ * (BH) * dst_pitch;                                     \
            for (size_t b = 0; b < whole; b += (G))                                          \
                group(&ctx, s_ + b * (BB), d_ + b * (BW) * 4, dst_pitch);                    \
        }                                                                                    \
        TAILS(name, BW, BH, BB)                                                              \
    }                                                                                        \
    ONE_OR_MANY(name, G)

/* The same, output row by output row: each row of a block row is written from left to right
   before the next (the source of a block row, a few KiB, stays in L1 while its rows are
   read again), so that the stores go to memory in order. row(ctx, s, r, d): row r of the group
   at s, to d. */
#define ROWS_KERNEL(name, G, BW, BH, BB, ctx_t, prepare, row)                                \
    static __attribute__((noinline)) void name##_tail(const ctx_t *ctx, const uint8_t *src,  \
                                                      size_t n, uint8_t *dst,                 \
                                                      size_t dst_pitch)                       \
    {                                                                                        \
        uint8_t s_[(G) * (BB)];                                                              \
        uint8_t d_[(G) * (BW) * 4];                                                          \
        copy_in(s_, sizeof s_, src, n * (BB));                                               \
        GT_UNROLL                                                                            \
        for (unsigned r = 0; r < (BH); r++) {                                                \
            row(ctx, s_, r, d_);                                                             \
            copy_out(dst + r * dst_pitch, d_, n * (BW) * 4);                                 \
        }                                                                                    \
    }                                                                                        \
    ONE_GROUP(name, G, BH, BB, ctx_t, prepare,                                               \
              GT_UNROLL for (unsigned r = 0; r < (BH); r++)                                  \
                  row(&ctx, src, r, dst + r * dst_pitch))                                    \
    static __attribute__((noinline)) VFETCH_GX_TEXTURE_FN(name##_many)                       \
    {                                                                                        \
        ctx_t ctx;                                                                           \
        prepare(&ctx, palette);                                                              \
        const size_t whole = nblocks - nblocks % (G);                                        \
        for (size_t row_ = 0; row_ < nrows; row_++) {                                        \
            const uint8_t *s_ = src + row_ * nblocks * (BB);                                 \
            uint8_t *d_ = dst + row_ * (BH) * dst_pitch;                                     \
            GT_UNROLL                                                                        \
            for (unsigned r = 0; r < (BH); r++)                                              \
                for (size_t b = 0; b < whole; b += (G))                                      \
                    row(&ctx, s_ + b * (BB), r, d_ + r * dst_pitch + b * (BW) * 4);          \
        }                                                                                    \
        TAILS(name, BW, BH, BB)                                                              \
    }                                                                                        \
    ONE_OR_MANY(name, G)

/* GROUP_KERNEL from ROWS_KERNEL's row function: block by block, a group's BH rows at a
   time. */
#define BLOCKS_KERNEL(name, G, BW, BH, BB, ctx_t, prepare, row)                              \
    VEC_INLINE void name##_block(const ctx_t *ctx, const uint8_t *s, uint8_t *d,             \
                                 size_t pitch)                                               \
    {                                                                                        \
        GT_UNROLL                                                                            \
        for (unsigned r = 0; r < (BH); r++)                                                  \
            row(ctx, s, r, d + r * pitch);                                                   \
    }                                                                                        \
    GROUP_KERNEL(name, G, BW, BH, BB, ctx_t, prepare, name##_block)

/* The tails' copies: a partial group's blocks into the zeroed stack, its rows out. avx512 with
   the real instructions: masked loads and stores, 64 bytes at a time (a call to memset and
   memcpy costs more than a small texture's whole row); elsewhere memcpy. */
VEC_INLINE void copy_in(uint8_t *stack, size_t stack_size, const uint8_t *src, size_t n)
{
#if VEC_BITS == 512 && defined(SIMDE_X86_AVX512BW_NATIVE)
    for (size_t i = 0; i < stack_size; i += 64) {
        const size_t left = n > i ? n - i : 0, room = stack_size - i;
        const __mmask64 k = left >= 64 ? ~0ull : (1ull << left) - 1;
        const __mmask64 kw = room >= 64 ? ~0ull : (1ull << room) - 1;
        _mm512_mask_storeu_epi8(stack + i, kw, _mm512_maskz_loadu_epi8(k, src + i));
    }
#else
    memset(stack, 0, stack_size);
    memcpy(stack, src, n);
#endif
}
VEC_INLINE void copy_out(uint8_t *dst, const uint8_t *stack, size_t n)
{
#if VEC_BITS == 512 && defined(SIMDE_X86_AVX512BW_NATIVE)
    for (size_t i = 0; i < n; i += 64) {
        const size_t left = n - i;
        const __mmask64 k = left >= 64 ? ~0ull : (1ull << left) - 1;
        _mm512_mask_storeu_epi8(dst + i, k, _mm512_maskz_loadu_epi8(k, stack + i));
    }
#else
    memcpy(dst, stack, n);
#endif
}

/* Four RGBA8 entries of a converted table, by their indices, as one vector (C8 below avx512
   and the large-C14X2 table kernel: loads inserted into a vector, one 16-byte store). */
VEC_INLINE simde__m128i table_four(const uint32_t *table, size_t a, size_t b, size_t c, size_t d)
{
    simde__m128i v = simde_mm_cvtsi32_si128((int32_t)table[a]);
    v = simde_mm_insert_epi32(v, (int32_t)table[b], 1);
    v = simde_mm_insert_epi32(v, (int32_t)table[c], 2);
    return simde_mm_insert_epi32(v, (int32_t)table[d], 3);
}

struct no_ctx {
    int unused;
};
VEC_INLINE void no_prepare(struct no_ctx *c, const uint8_t *palette)
{
    (void)palette;
    c->unused = 0;
}

struct palette_ctx {
    const uint8_t *palette;
};
VEC_INLINE void palette_prepare(struct palette_ctx *c, const uint8_t *palette)
{
    c->palette = palette;
}

/* The largest output (bytes) that avx512's I8, IA8 and RGBA8 write row by row; above it the
   decode is bound by the memory's bandwidth and another order is faster (each says which). */
#define GT_ROWS_MAX_BYTES (512 * 1024)
/* name: small() while the output (block_out bytes a block) fits GT_ROWS_MAX_BYTES and a row
   has at least min_blocks blocks, else large() */
#define BY_OUTPUT_SIZE(name, block_out, min_blocks, small, large)                            \
    static VFETCH_GX_TEXTURE_FN(name)                                                        \
    {                                                                                        \
        if (((min_blocks) <= 1 || nblocks >= (min_blocks)) &&                                \
            nblocks * nrows * (block_out) <= GT_ROWS_MAX_BYTES)                              \
            small(src, nblocks, nrows, palette, dst, dst_pitch);                             \
        else                                                                                 \
            large(src, nblocks, nrows, palette, dst, dst_pitch);                             \
    }

/* ==== 4x4 blocks of 16-bit big-endian texels: IA8, RGB565, RGB5A3, C14X2 ==== */

/* C14X2 gathers its entries (below, and the reason it does not on 32-bit x86). */
#if VEC_BITS >= 256 && !defined(__i386__)
#define GT_GATHER 1
#else
#define GT_GATHER 0
#endif

/* G16 blocks a group: one per 128-bit lane. Row r of the group: the texels' values in 32-bit
   lanes (big-endian bytes swapped into bits 15:0), or, with a caller's control, any bytes of
   them. */
#define G16 NL

#if VEC_BITS == 512
/* vpermt2b over the group's 128 bytes: lane l is block l / 4, texel l % 4 */
#define C16(j, x, a, b, c, d) (j) * 32 + (x) * 2 + (a), (j) * 32 + (x) * 2 + (b), \
                              (j) * 32 + (x) * 2 + (c), (j) * 32 + (x) * 2 + (d)
#define C16_BLOCK(j, a, b, c, d) C16(j, 0, a, b, c, d), C16(j, 1, a, b, c, d), \
                                 C16(j, 2, a, b, c, d), C16(j, 3, a, b, c, d)
#define C16_ALL(a, b, c, d) { C16_BLOCK(0, a, b, c, d), C16_BLOCK(1, a, b, c, d), \
                              C16_BLOCK(2, a, b, c, d), C16_BLOCK(3, a, b, c, d) }
#if GT_GATHER
static const uint8_t c16_value[64] = C16_ALL(1, 0, 0, 0);  /* bytes 2, 3 masked to 0 */
#endif
static const uint8_t c16_ia8[64] = C16_ALL(1, 1, 1, 0);    /* (I, I, I, A) */

struct rows16 {
    vi lo, hi;
};
VEC_INLINE struct rows16 load16(const uint8_t *s)
{
    struct rows16 x = { vi_loadu(s), vi_loadu(s + 64) };
    return x;
}
/* Row r's bytes by control ctrl (relative to row 0); mask: the bytes kept. */
VEC_INLINE vi row16(struct rows16 x, unsigned r, const uint8_t *ctrl, uint64_t mask)
{
    const vi c = simde_mm512_add_epi8(vi_loadu(ctrl), simde_mm512_set1_epi8((int8_t)(r * 8)));
    return simde_mm512_maskz_permutex2var_epi8(mask, x.lo, c, x.hi);
}
#define ROW16_VALUE(x, r) row16((x), (r), c16_value, 0x3333333333333333ull)
#define ROW16_IA8(x, r) row16((x), (r), c16_ia8, ~0ull)
#else
/* pshufb within lanes: lane j holds rows 2k, 2k + 1 of block j */
#if GT_GATHER
static const uint8_t c16_value[2][16] = {
    { 1, 0, Z, Z, 3, 2, Z, Z, 5, 4, Z, Z, 7, 6, Z, Z },
    { 9, 8, Z, Z, 11, 10, Z, Z, 13, 12, Z, Z, 15, 14, Z, Z },
};
#endif
static const uint8_t c16_ia8[2][16] = {
    { 1, 1, 1, 0, 3, 3, 3, 2, 5, 5, 5, 4, 7, 7, 7, 6 },
    { 9, 9, 9, 8, 11, 11, 11, 10, 13, 13, 13, 12, 15, 15, 15, 14 },
};
struct rows16 {
    vi pair[2]; /* rows 0, 1 and rows 2, 3 of each lane's block */
};
VEC_INLINE struct rows16 load16(const uint8_t *s)
{
    struct rows16 x = { { v_lanes(s, 32), v_lanes(s + 16, 32) } };
    return x;
}
#define ROW16_VALUE(x, r) v_shuffle8((x).pair[(r) >> 1], v_bcast16(c16_value[(r) & 1]))
#define ROW16_IA8(x, r) v_shuffle8((x).pair[(r) >> 1], v_bcast16(c16_ia8[(r) & 1]))
#endif

#define GROUP16(fn, ctx_t, body)                                                             \
    VEC_INLINE void fn(const ctx_t *ctx, const uint8_t *s, unsigned r, uint8_t *d)           \
    {                                                                                        \
        (void)ctx;                                                                           \
        const struct rows16 x = load16(s);                                                   \
        v_storeu(d, body);                                                                   \
    }

GROUP16(group_ia8, struct no_ctx, ROW16_IA8(x, r))
/* Block by block, all four rows of a group at a time: below avx512 always (faster than row by
   row there), at avx512 for outputs above GT_ROWS_MAX_BYTES (docs/decisions.md, "Measured
   choices"). */
#if VEC_BITS == 512
ROWS_KERNEL(ia8_rows, G16, 4, 4, 32, struct no_ctx, no_prepare, group_ia8)
BLOCKS_KERNEL(ia8_blocks, G16, 4, 4, 32, struct no_ctx, no_prepare, group_ia8)
/* avx512 row by row while the output fits the caches; above, bound by the memory's bandwidth,
   block by block (docs/decisions.md, "Measured choices"). */
BY_OUTPUT_SIZE(ia8, 4 * 4 * 4, 1, ia8_rows, ia8_blocks)
#else
BLOCKS_KERNEL(ia8, G16, 4, 4, 32, struct no_ctx, no_prepare, group_ia8)
#endif

/* RGB565, RGB5A3: rows 2k, 2k + 1 of the group's blocks as 16-bit values (lane j block j's), to
   RGBA8 in 16-bit lanes, then the two rows by the unpacks. */
#if VEC_BITS == 512
#define P16(j, i) (j) * 32 + ((i) ^ 1) /* byte i of lane j: block j, bytes swapped */
#define P16_LANE(j) P16(j, 0), P16(j, 1), P16(j, 2), P16(j, 3), P16(j, 4), P16(j, 5), P16(j, 6), \
                    P16(j, 7), P16(j, 8), P16(j, 9), P16(j, 10), P16(j, 11), P16(j, 12),         \
                    P16(j, 13), P16(j, 14), P16(j, 15)
static const uint8_t c16_pairs[64] = { P16_LANE(0), P16_LANE(1), P16_LANE(2), P16_LANE(3) };
VEC_INLINE vi pair16(struct rows16 x, unsigned k)
{
    const vi c = simde_mm512_add_epi8(vi_loadu(c16_pairs), simde_mm512_set1_epi8((int8_t)(k * 16)));
    return simde_mm512_permutex2var_epi8(x.lo, c, x.hi);
}
#else
static const uint8_t c16_swap[16] = { 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14 };
VEC_INLINE vi pair16(struct rows16 x, unsigned k)
{
    return v_shuffle8(x.pair[k], v_bcast16(c16_swap));
}
#endif
#define GROUP16_PAIRS(fn, convert)                                                           \
    VEC_INLINE void fn(const struct no_ctx *ctx, const uint8_t *s, uint8_t *d, size_t pitch) \
    {                                                                                        \
        (void)ctx;                                                                           \
        const struct rows16 x = load16(s);                                                   \
        GT_UNROLL                                                                            \
        for (unsigned k = 0; k < 2; k++) {                                                   \
            const struct rg_ba p = convert(pair16(x, k));                                    \
            v_storeu(d + 2 * k * pitch, v_unpacklo16(p.rg, p.ba));                           \
            v_storeu(d + (2 * k + 1) * pitch, v_unpackhi16(p.rg, p.ba));                     \
        }                                                                                    \
    }
GROUP16_PAIRS(group_rgb565, pairs_rgb565)
GROUP16_PAIRS(group_rgb5a3, pairs_rgb5a3)
GROUP_KERNEL(rgb565, G16, 4, 4, 32, struct no_ctx, no_prepare, group_rgb565)
GROUP_KERNEL(rgb5a3, G16, 4, 4, 32, struct no_ctx, no_prepare, group_rgb5a3)

/* C14X2: each texel's entry fetched by its index (< 2^14). avx2/avx512: a hardware gather of
   the aligned 32-bit pair holding it (so no byte past the palette is read), the entry's half
   shifted down and its bytes swapped; sse41 (and 32-bit x86): scalar loads straight from the
   big-endian indices.
   VT entries at a time converted in the lanes. Row r of G16 blocks (VT texels). */
/* Not on 32-bit x86: the tests of that build run under qemu, whose TCG (7.2) computes
   vpgatherdd wrong (an x86-64 build fails checkasm at avx2 under qemu-x86_64 -cpu max and
   passes on the hardware), so that build takes the scalar loads. */
#if GT_GATHER
VEC_INLINE vi gather_entries(const uint8_t *palette, vi index)
{
#if VEC_BITS == 512 && defined(SIMDE_X86_AVX512F_NATIVE)
    const vi pair = _mm512_i32gather_epi32(vi_srli(index, 1), (const void *)palette, 4);
#elif VEC_BITS == 512
    const simde__m256i lo = simde_mm256_i32gather_epi32((const int32_t *)(const void *)palette,
                                                        simde_mm512_castsi512_si256(vi_srli(index, 1)), 4);
    const simde__m256i hi = simde_mm256_i32gather_epi32(
        (const int32_t *)(const void *)palette, simde_mm512_extracti64x4_epi64(vi_srli(index, 1), 1), 4);
    const vi pair = simde_mm512_inserti64x4(simde_mm512_castsi256_si512(lo), hi, 1);
#else
    const vi pair = simde_mm256_i32gather_epi32((const int32_t *)(const void *)palette,
                                                vi_srli(index, 1), 4);
#endif
    const vi e = vi_srlv(pair, vi_slli(vi_and(index, vi_set1(1)), 4));
    return vi_or(vi_and(vi_srli(e, 8), vi_set1(0xff)), vi_and(vi_slli(e, 8), vi_set1(0xff00)));
}
#define C14X2_GROUP(tlut)                                                                    \
    GROUP16(group_c14x2_##tlut, struct palette_ctx,                                          \
            lanes_entry(gather_entries(ctx->palette,                                         \
                                       vi_and(ROW16_VALUE(x, r), vi_set1(0x3fff))),           \
                        tlut))                                                               \
    ROWS_KERNEL(c14x2_##tlut, G16, 4, 4, 32, struct palette_ctx, palette_prepare,            \
                group_c14x2_##tlut)
#else
#define C14X2_GROUP(tlut)                                                                    \
    VEC_INLINE void group_c14x2_##tlut(const struct palette_ctx *ctx, const uint8_t *s,      \
                                       unsigned r, uint8_t *d)                               \
    {                                                                                        \
        uint32_t v[VT];                                                                      \
        for (unsigned k = 0; k < VT; k++) {                                                  \
            uint16_t index, entry;                                                           \
            memcpy(&index, s + (k / 4) * 32 + r * 8 + (k % 4) * 2, 2);                      \
            memcpy(&entry, ctx->palette + 2 * (__builtin_bswap16(index) & 0x3fff), 2);       \
            v[k] = __builtin_bswap16(entry);                                                 \
        }                                                                                    \
        v_storeu(d, lanes_entry(vi_loadu(v), tlut));                                         \
    }                                                                                        \
    ROWS_KERNEL(c14x2_##tlut, G16, 4, 4, 32, struct palette_ctx, palette_prepare,            \
                group_c14x2_##tlut)
#endif
/* With an IA8 palette no entry needs converting: each block row's four entries are loaded
   raw (the 32 KiB palette stays in L1), inserted into a vector and spread to (I, I, I, A) by
   one pshufb, at every level (no gather, and no converted table for large textures). */
static const uint8_t c14x2_ia8_spread[16] = { 1, 1, 1, 0, 3, 3, 3, 2, 5, 5, 5, 4, 7, 7, 7, 6 };
/* Bits [start, start + 14) of w, a C14X2 index from a block row's byte-swapped 64-bit word:
   one bextr where the level has BMI1 (avx2 and avx512; cpu.c requires it), faster than a
   shift and a mask (docs/decisions.md, "Measured choices"). size_t, so that 2 x index folds
   into the load's address. */
VEC_INLINE size_t index14(uint64_t w, unsigned start)
{
#if defined(__BMI__) && defined(__x86_64__)
    if (start != 0) /* at 0 the mask alone */
        return (size_t)_bextr_u64(w, start, 14);
#endif
    return (size_t)(w >> start & 0x3fff);
}
VEC_INLINE simde__m128i c14x2_ia8_four(const uint8_t *palette, const uint8_t *s)
{
    uint64_t w; /* four big-endian indices, texel 3's in the low bits */
    memcpy(&w, s, 8);
    w = __builtin_bswap64(w);
    uint16_t e[4];
    memcpy(&e[0], palette + 2 * index14(w, 48), 2);
    memcpy(&e[1], palette + 2 * index14(w, 32), 2);
    memcpy(&e[2], palette + 2 * index14(w, 16), 2);
    memcpy(&e[3], palette + 2 * index14(w, 0), 2);
    simde__m128i v = simde_mm_cvtsi32_si128(e[0]);
    v = simde_mm_insert_epi16(v, e[1], 1);
    v = simde_mm_insert_epi16(v, e[2], 2);
    v = simde_mm_insert_epi16(v, e[3], 3);
    return simde_mm_shuffle_epi8(v, simde_mm_loadu_si128((const void *)c14x2_ia8_spread));
}
VEC_INLINE void group_c14x2_0(const struct palette_ctx *ctx, const uint8_t *s, unsigned r, uint8_t *d)
{
    GT_UNROLL
    for (unsigned j = 0; j < G16; j++)
        simde_mm_storeu_si128((void *)(d + 16 * j), c14x2_ia8_four(ctx->palette, s + 32 * j + 8 * r));
}
/* Block by block, all four rows of a block at a time: faster than row by row at both sizes
   (docs/decisions.md, "Measured choices"). */
BLOCKS_KERNEL(c14x2_0, G16, 4, 4, 32, struct palette_ctx, palette_prepare, group_c14x2_0)
C14X2_GROUP(1)
C14X2_GROUP(2)

/* ==== RGBA8: 4x4 blocks of 64 bytes, AR pairs then GB pairs ==== */

#if VEC_BITS == 512
/* avx512: two blocks a group, two rows a vpermt2b (lanes 0-7 row r, 8-15 row r + 1; each
   half a 256-bit store): half the permutes of a vector holding one row of four blocks */
#define CR2(row, j, x) (j) * 64 + (row) * 8 + (x) * 2 + 1, (j) * 64 + 32 + (row) * 8 + (x) * 2, \
                       (j) * 64 + 33 + (row) * 8 + (x) * 2, (j) * 64 + (row) * 8 + (x) * 2
#define CR2_BLOCK(row, j) CR2(row, j, 0), CR2(row, j, 1), CR2(row, j, 2), CR2(row, j, 3)
static const uint8_t c_rgba8_pair[64] = { CR2_BLOCK(0, 0), CR2_BLOCK(0, 1), CR2_BLOCK(1, 0),
                                          CR2_BLOCK(1, 1) };
VEC_INLINE void group_rgba8_pair(const struct no_ctx *ctx, const uint8_t *s, uint8_t *d,
                                 size_t pitch)
{
    (void)ctx;
    const vi b0 = vi_loadu(s), b1 = vi_loadu(s + 64);
    GT_UNROLL
    for (unsigned r = 0; r < 4; r += 2) {
        const vi c = simde_mm512_add_epi8(vi_loadu(c_rgba8_pair),
                                          simde_mm512_set1_epi8((int8_t)(r * 8)));
        const vi rows = simde_mm512_permutex2var_epi8(b0, c, b1);
        simde_mm256_storeu_si256((void *)(d + r * pitch), simde_mm512_castsi512_si256(rows));
        simde_mm256_storeu_si256((void *)(d + (r + 1) * pitch),
                                 simde_mm512_extracti64x4_epi64(rows, 1));
    }
}
GROUP_KERNEL(rgba8_pairs, 2, 4, 4, 64, struct no_ctx, no_prepare, group_rgba8_pair)
/* Row r of four blocks, one 64-byte store: blocks 0, 1 and 2, 3 each a vpermt2b by the pair
   control's row 0 half (both halves: the two blocks' row r), then blended. */
VEC_INLINE void row_rgba8_quad(const struct no_ctx *ctx, const uint8_t *s, unsigned r, uint8_t *d)
{
    (void)ctx;
    const vi c = simde_mm512_add_epi8(
        simde_mm512_broadcast_i64x4(simde_mm256_loadu_si256((const void *)c_rgba8_pair)),
        simde_mm512_set1_epi8((int8_t)(r * 8)));
    const vi lo = simde_mm512_permutex2var_epi8(vi_loadu(s), c, vi_loadu(s + 64));
    const vi hi = simde_mm512_permutex2var_epi8(vi_loadu(s + 128), c, vi_loadu(s + 192));
    v_storeu(d, simde_mm512_mask_blend_epi64(0xf0, lo, hi));
}
/* Its own loop rather than ROWS_KERNEL's: the four rows not unrolled, which ran faster
   (docs/decisions.md, "Measured choices"). */
static __attribute__((noinline)) void rgba8_rows_tail(const struct no_ctx *ctx, const uint8_t *src,
                                                      size_t n, uint8_t *dst, size_t dst_pitch)
{
    uint8_t s_[4 * 64];
    uint8_t d_[4 * 16];
    copy_in(s_, sizeof s_, src, n * 64);
    for (unsigned r = 0; r < 4; r++) {
        row_rgba8_quad(ctx, s_, r, d_);
        copy_out(dst + r * dst_pitch, d_, n * 16);
    }
}
static __attribute__((noinline)) VFETCH_GX_TEXTURE_FN(rgba8_rows)
{
    (void)palette;
    const struct no_ctx ctx = { 0 };
    const size_t whole = nblocks & ~(size_t)3;
    for (size_t row_ = 0; row_ < nrows; row_++) {
        const uint8_t *s = src + row_ * nblocks * 64;
        uint8_t *d = dst + row_ * 4 * dst_pitch;
        for (unsigned r = 0; r < 4; r++)
            for (size_t b = 0; b < whole; b += 4)
                row_rgba8_quad(&ctx, s + b * 64, r, d + r * dst_pitch + b * 16);
    }
    TAILS(rgba8_rows, 4, 4, 64)
}
/* A texture whose output fits the caches goes row by row: each output row written in order
   in whole 64-byte stores, faster than pairs of rows (docs/decisions.md, "Measured choices").
   Larger ones are bound by the memory's bandwidth in either order, and there pairs of rows
   measured a little faster; so are rows of fewer than four blocks (narrow regions), which
   pairs decode in place. */
BY_OUTPUT_SIZE(rgba8, 4 * 4 * 4, 4, rgba8_rows, rgba8_pairs)
#else
/* below: pshufb controls taking row 2k or 2k + 1's R, A (from the AR rows) and G, B */
static const uint8_t c_ar[2][16] = {
    { 1, Z, Z, 0, 3, Z, Z, 2, 5, Z, Z, 4, 7, Z, Z, 6 },
    { 9, Z, Z, 8, 11, Z, Z, 10, 13, Z, Z, 12, 15, Z, Z, 14 },
};
static const uint8_t c_gb[2][16] = {
    { Z, 0, 1, Z, Z, 2, 3, Z, Z, 4, 5, Z, Z, 6, 7, Z },
    { Z, 8, 9, Z, Z, 10, 11, Z, Z, 12, 13, Z, Z, 14, 15, Z },
};
#if VEC_BITS == 256
/* avx2: two blocks a group, each plane's rows 0, 1 and 2, 3 of both blocks put side by side
   once (vperm2i128), then a row two pshufb */
VEC_INLINE void group_rgba8_pair256(const struct no_ctx *ctx, const uint8_t *s, uint8_t *d,
                                    size_t pitch)
{
    (void)ctx;
    const vi ar0 = vi_loadu(s), gb0 = vi_loadu(s + 32), ar1 = vi_loadu(s + 64), gb1 = vi_loadu(s + 96);
    const vi ar[2] = { simde_mm256_permute2x128_si256(ar0, ar1, 0x20),
                       simde_mm256_permute2x128_si256(ar0, ar1, 0x31) };
    const vi gb[2] = { simde_mm256_permute2x128_si256(gb0, gb1, 0x20),
                       simde_mm256_permute2x128_si256(gb0, gb1, 0x31) };
    GT_UNROLL
    for (unsigned r = 0; r < 4; r++)
        v_storeu(d + r * pitch, vi_or(v_shuffle8(ar[r >> 1], v_bcast16(c_ar[r & 1])),
                                      v_shuffle8(gb[r >> 1], v_bcast16(c_gb[r & 1]))));
}
GROUP_KERNEL(rgba8, 2, 4, 4, 64, struct no_ctx, no_prepare, group_rgba8_pair256)
#else
/* sse41: a block a vector, a row from its AR and GB row pairs */
VEC_INLINE void group_rgba8(const struct no_ctx *ctx, const uint8_t *s, unsigned r, uint8_t *d)
{
    (void)ctx;
    const vi ar = v_lanes(s + 16 * (r >> 1), 64), gb = v_lanes(s + 32 + 16 * (r >> 1), 64);
    v_storeu(d, vi_or(v_shuffle8(ar, v_bcast16(c_ar[r & 1])), v_shuffle8(gb, v_bcast16(c_gb[r & 1]))));
}
ROWS_KERNEL(rgba8, NL, 4, 4, 64, struct no_ctx, no_prepare, group_rgba8)
#endif
#endif

/* ==== 8x4 blocks of bytes (I8, IA4, C8) and 8x8 blocks of nibbles (I4, C4) ==== */

/* Each texel's byte into all four bytes of its lane, row r of the group. avx512: a group is
   two blocks (one 64-byte vector, vpermb), a vector one row of both; below, a group is one
   block and a row VT / 8 ... 8 / VT vectors (k-th of the row pair / quad), from a 16-byte
   piece broadcast to every lane. */
#define SP(i) (i), (i), (i), (i)
#define SP4(i) SP(i), SP((i) + 1), SP((i) + 2), SP((i) + 3)
#define SP2(i) SP(i), SP(i), SP((i) + 1), SP((i) + 1)

#if VEC_BITS == 512
#define G8 2
/* vpermb controls: lane l is block l / 8, texel l % 8 of row 0 */
#define B8(l) SP(((l) / 8) * 32 + (l) % 8)
#define B4(l) SP(((l) / 8) * 32 + ((l) % 8) / 2)
static const uint8_t c_row8[64] = { B8(0), B8(1), B8(2), B8(3), B8(4), B8(5), B8(6), B8(7),
                                    B8(8), B8(9), B8(10), B8(11), B8(12), B8(13), B8(14), B8(15) };
static const uint8_t c_row4[64] = { B4(0), B4(1), B4(2), B4(3), B4(4), B4(5), B4(6), B4(7),
                                    B4(8), B4(9), B4(10), B4(11), B4(12), B4(13), B4(14), B4(15) };
/* vectors a row; rows a group */
#define BYTE_VECTORS 1
VEC_INLINE vi bytes_row(const uint8_t *s, vi block, unsigned r, unsigned k)
{
    (void)s;
    (void)k;
    const vi c = simde_mm512_add_epi8(vi_loadu(c_row8), simde_mm512_set1_epi8((int8_t)(r * 8)));
    return simde_mm512_permutexvar_epi8(c, block);
}
VEC_INLINE vi nibbles_row(const uint8_t *s, vi block, unsigned r, unsigned k)
{
    (void)s;
    (void)k;
    const vi c = simde_mm512_add_epi8(vi_loadu(c_row4), simde_mm512_set1_epi8((int8_t)(r * 4)));
    return simde_mm512_permutexvar_epi8(c, block);
}
VEC_INLINE vi load_group8(const uint8_t *s)
{
    return vi_loadu(s);
}
#else
#define G8 1
#define BYTE_VECTORS (8 / VT)
/* bytes: texel k of the 16-byte piece; nibbles: texel k's byte (k / 2) */
static const uint8_t spread_bytes[64] = { SP4(0), SP4(4), SP4(8), SP4(12) };
static const uint8_t spread_nibbles[128] = { SP2(0), SP2(2), SP2(4), SP2(6),
                                             SP2(8), SP2(10), SP2(12), SP2(14) };

/* row r's k-th vector: the piece holding rows 2 (r / 2) .. + 1 (bytes: 8 a row), or
   4 (r / 4) .. + 3 (nibbles: 4 bytes a row) */
VEC_INLINE vi bytes_row(const uint8_t *s, vi block, unsigned r, unsigned k)
{
    (void)block;
    const unsigned v = (r & 1) * BYTE_VECTORS + k; /* vector of the piece */
    return v_shuffle8(v_bcast16(s + (r >> 1) * 16), vi_loadu(spread_bytes + v * (VEC_BITS / 8)));
}
VEC_INLINE vi nibbles_row(const uint8_t *s, vi block, unsigned r, unsigned k)
{
    (void)block;
    const unsigned v = (r & 3) * BYTE_VECTORS + k;
    return v_shuffle8(v_bcast16(s + (r >> 2) * 16), vi_loadu(spread_nibbles + v * (VEC_BITS / 8)));
}
VEC_INLINE vi load_group8(const uint8_t *s)
{
    (void)s;
    return vi_set1(0);
}
#endif

/* Row r of a group: its BYTE_VECTORS vectors. */
#define GROUP8(fn, ctx_t, rows, row_fn, body)                                                \
    VEC_INLINE void fn(const ctx_t *ctx, const uint8_t *s, unsigned r, uint8_t *d)           \
    {                                                                                        \
        (void)ctx;                                                                           \
        const vi block = load_group8(s);                                                     \
        GT_UNROLL                                                                            \
        for (unsigned k = 0; k < BYTE_VECTORS; k++) {                                        \
            const vi x = row_fn(s, block, r, k);                                             \
            v_storeu(d + k * VT * 4, body);                                                  \
        }                                                                                    \
    }

/* IA4: bytes A << 4 | I -> the bytes I * 17 and A * 17 */
struct ia4_bytes {
    vi i, a;
};
VEC_INLINE struct ia4_bytes widen_ia4(vi x)
{
    const vi lo = vi_and(x, vi_set1(0x0f0f0f0f)), hi = vi_and(x, vi_set1((int32_t)0xf0f0f0f0u));
    const struct ia4_bytes w = { vi_or(lo, v_slli16(lo, 4)), vi_or(hi, v_srli16(hi, 4)) };
    return w;
}

/* I4, C4: the texel's nibble (even texels the high one) in every byte of its lane; lanes
   alternate even and odd texels. */
static const uint32_t odd_lanes[16] = { 0, ~0u, 0, ~0u, 0, ~0u, 0, ~0u,
                                        0, ~0u, 0, ~0u, 0, ~0u, 0, ~0u };
VEC_INLINE vi pick_nibble(vi x)
{
    const vi odd = vi_loadu(odd_lanes);
    const vi hi = vi_and(v_srli16(x, 4), vi_set1(0x0f0f0f0f)), lo = vi_and(x, vi_set1(0x0f0f0f0f));
    return vi_or(vi_andnot(odd, hi), vi_and(odd, lo));
}

VEC_INLINE vi widen_nibbles(vi n)
{
    return vi_or(n, v_slli16(n, 4));
}

GROUP8(group_i8, struct no_ctx, 4, bytes_row, x)
#if VEC_BITS == 512
/* avx512: row by row while the output fits GT_ROWS_MAX_BYTES, block by block above (bound by
   the memory's bandwidth there) (docs/decisions.md, "Measured choices") */
ROWS_KERNEL(i8_rows, G8, 8, 4, 32, struct no_ctx, no_prepare, group_i8)
BLOCKS_KERNEL(i8_blocks, G8, 8, 4, 32, struct no_ctx, no_prepare, group_i8)
BY_OUTPUT_SIZE(i8, 8 * 4 * 4, 1, i8_rows, i8_blocks)
#else
ROWS_KERNEL(i8, G8, 8, 4, 32, struct no_ctx, no_prepare, group_i8)
#endif
#if VEC_BITS == 512
/* avx512: the group's 64 bytes widened once into an intensity vector (I x 17) and an alpha
   vector (A x 17), then each row one vpermt2b taking I for bytes 0-2 of a texel and A for
   byte 3 (the control of I8's rows with bit 6 set on the alpha bytes) */
VEC_INLINE void group_ia4_block(const struct no_ctx *ctx, const uint8_t *s, uint8_t *d,
                                size_t pitch)
{
    (void)ctx;
    const struct ia4_bytes w = widen_ia4(vi_loadu(s));
    const vi alpha_bytes = vi_set1((int32_t)0x40000000u); /* bit 6 of byte 3: from a */
    GT_UNROLL
    for (unsigned r = 0; r < 4; r++) {
        const vi c = vi_or(simde_mm512_add_epi8(vi_loadu(c_row8), simde_mm512_set1_epi8((int8_t)(r * 8))),
                           alpha_bytes);
        v_storeu(d + r * pitch, simde_mm512_permutex2var_epi8(w.i, c, w.a));
    }
}
GROUP_KERNEL(ia4, G8, 8, 4, 32, struct no_ctx, no_prepare, group_ia4_block)
#else
/* Below avx512, a block a group: each 16-byte piece (2 rows) widened once into I x 17 and
   A x 17 bytes, interleaved into (I, A) pairs by the byte unpacks (the low one row 2q, the
   high one row 2q + 1: the piece is in every lane), then each row a pshufb of its pairs. */
#define SPA(t) 2 * (t), 2 * (t), 2 * (t), 2 * (t) + 1
static const uint8_t spread_pairs[32] = { SPA(0), SPA(1), SPA(2), SPA(3),
                                          SPA(4), SPA(5), SPA(6), SPA(7) };
VEC_INLINE void group_ia4_pairs(const struct no_ctx *ctx, const uint8_t *s, uint8_t *d,
                                size_t pitch)
{
    (void)ctx;
    GT_UNROLL
    for (unsigned q = 0; q < 2; q++) {
        const struct ia4_bytes w = widen_ia4(v_bcast16(s + 16 * q));
#if VEC_BITS == 256
        const vi pairs[2] = { simde_mm256_unpacklo_epi8(w.i, w.a), simde_mm256_unpackhi_epi8(w.i, w.a) };
#else
        const vi pairs[2] = { simde_mm_unpacklo_epi8(w.i, w.a), simde_mm_unpackhi_epi8(w.i, w.a) };
#endif
        GT_UNROLL
        for (unsigned rr = 0; rr < 2; rr++)
            GT_UNROLL
            for (unsigned v = 0; v < BYTE_VECTORS; v++)
                v_storeu(d + (2 * q + rr) * pitch + v * VT * 4,
                         v_shuffle8(pairs[rr], vi_loadu(spread_pairs + v * (VEC_BITS / 8))));
    }
}
GROUP_KERNEL(ia4, 1, 8, 4, 32, struct no_ctx, no_prepare, group_ia4_pairs)
#endif
#if VEC_BITS == 512
GROUP8(group_i4, struct no_ctx, 8, nibbles_row, widen_nibbles(pick_nibble(x)))
ROWS_KERNEL(i4, G8, 8, 8, 32, struct no_ctx, no_prepare, group_i4)
#else
/* Below avx512, a block a group: each 16-byte piece (4 rows) widened once into its 32
   intensity bytes (high nibble first: unpack of the high and low nibbles), then each row's
   bytes spread four times like I8's. */
VEC_INLINE void group_i4_block(const struct no_ctx *ctx, const uint8_t *s, uint8_t *d,
                               size_t pitch)
{
    (void)ctx;
    GT_UNROLL
    for (unsigned q = 0; q < 2; q++) {
        const simde__m128i x = simde_mm_loadu_si128((const void *)(s + 16 * q));
        const simde__m128i m = simde_mm_set1_epi8(0x0f);
        const simde__m128i hi = simde_mm_and_si128(simde_mm_srli_epi16(x, 4), m);
        const simde__m128i lo = simde_mm_and_si128(x, m);
        simde__m128i piece[2] = { simde_mm_unpacklo_epi8(hi, lo), simde_mm_unpackhi_epi8(hi, lo) };
        GT_UNROLL
        for (unsigned k = 0; k < 2; k++) {
            const simde__m128i e = simde_mm_or_si128(piece[k], simde_mm_slli_epi16(piece[k], 4));
#if VEC_BITS == 256
            const vi b = simde_mm256_broadcastsi128_si256(e);
#else
            const vi b = e;
#endif
            GT_UNROLL
            for (unsigned rr = 0; rr < 2; rr++)
                GT_UNROLL
                for (unsigned v = 0; v < BYTE_VECTORS; v++)
                    v_storeu(d + (4 * q + 2 * k + rr) * pitch + v * VT * 4,
                             v_shuffle8(b, vi_loadu(spread_bytes +
                                                    (rr * BYTE_VECTORS + v) * (VEC_BITS / 8))));
        }
    }
}
GROUP_KERNEL(i4, 1, 8, 8, 32, struct no_ctx, no_prepare, group_i4_block)
#endif

/* C8: the 256 entries converted once a call into a table, then a load from it a texel. */
struct c8_ctx {
    uint32_t table[256];
};
VEC_INLINE void c8_prepare(struct c8_ctx *c, const uint8_t *palette, unsigned tlut)
{
    for (unsigned i = 0; i < 256; i += VEC_LANES)
        v_storeu(c->table + i, lanes_entry(be16_lanes(palette + 2 * i), tlut));
}
/* A small texture (fewer than C8_SHORT blocks a call, e.g. 8x8) converts each texel's entry
   on its own: the table costs 256 conversions a call. */
#define C8_SHORT 4
VEC_INLINE void c8_direct(const uint8_t *src, size_t nblocks, const uint8_t *palette,
                          uint8_t *dst, size_t dst_pitch, unsigned tlut, size_t per_row)
{
    /* block n is block n % per_row of block row n / per_row; a block's 32 indices are its
       rows one after another: vector i holds indices i * VEC_LANES .. + VEC_LANES - 1, i.e.
       rows 2i and 2i + 1 (16 lanes), row i (8) or half of row i / 2 (4) */
    for (size_t n = 0; n < nblocks; n++) {
        uint8_t *d = dst + (n / per_row) * 4 * dst_pitch + (n % per_row) * 32;
        GT_UNROLL
        for (unsigned i = 0; i < 32 / VEC_LANES; i++) {
            uint32_t v[VEC_LANES];
            for (unsigned k = 0; k < VEC_LANES; k++) {
                const unsigned index = src[n * 32 + i * VEC_LANES + k];
                v[k] = (uint32_t)palette[2 * index] << 8 | palette[2 * index + 1];
            }
            const vi rgba = lanes_entry(vi_loadu(v), tlut);
#if VEC_LANES == 16
            simde_mm256_storeu_si256((void *)(d + 2 * i * dst_pitch),
                                     simde_mm512_castsi512_si256(rgba));
            simde_mm256_storeu_si256((void *)(d + (2 * i + 1) * dst_pitch),
                                     simde_mm512_extracti64x4_epi64(rgba, 1));
#else
            v_storeu(d + (i * VEC_LANES / 8) * dst_pitch + (i * VEC_LANES % 8) * 4, rgba);
#endif
        }
    }
}

#if VEC_BITS == 512
/* avx512 (VBMI): the table as four byte planes (R, G, B, A of the 256 entries, four vectors
   each), looked up 64 texels at a time by vpermt2b on each half of a plane, the halves chosen
   by bit 7 of the index; the four planes interleave into RGBA with in-lane unpacks, the indices
   permuted beforehand so that unpacked vector q is row q of the two blocks. */
struct c8_planes {
    vi plane[4][4];
};
VEC_INLINE void c8_planes_prepare(struct c8_planes *c, const uint8_t *palette, unsigned tlut)
{
    struct c8_ctx t;
    c8_prepare(&t, palette, tlut);
    static const uint8_t deinterleave[64] = {
        0, 4, 8,  12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60,
        1, 5, 9,  13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57, 61,
        2, 6, 10, 14, 18, 22, 26, 30, 34, 38, 42, 46, 50, 54, 58, 62,
        3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 55, 59, 63,
    };
    const vi d = vi_loadu(deinterleave);
    for (unsigned m = 0; m < 4; m++) {
        /* entries 64 m .. 64 m + 63: each vector's lanes R, G, B, A of its 16 entries, then
           a 4x4 transpose of 128-bit lanes */
        const vi a = simde_mm512_permutexvar_epi8(d, vi_loadu(t.table + 64 * m));
        const vi b = simde_mm512_permutexvar_epi8(d, vi_loadu(t.table + 64 * m + 16));
        const vi e = simde_mm512_permutexvar_epi8(d, vi_loadu(t.table + 64 * m + 32));
        const vi f = simde_mm512_permutexvar_epi8(d, vi_loadu(t.table + 64 * m + 48));
        const vi u0 = simde_mm512_shuffle_i32x4(a, b, 0x44), u1 = simde_mm512_shuffle_i32x4(a, b, 0xee);
        const vi u2 = simde_mm512_shuffle_i32x4(e, f, 0x44), u3 = simde_mm512_shuffle_i32x4(e, f, 0xee);
        c->plane[0][m] = simde_mm512_shuffle_i32x4(u0, u2, 0x88);
        c->plane[1][m] = simde_mm512_shuffle_i32x4(u0, u2, 0xdd);
        c->plane[2][m] = simde_mm512_shuffle_i32x4(u1, u3, 0x88);
        c->plane[3][m] = simde_mm512_shuffle_i32x4(u1, u3, 0xdd);
    }
}
/* position 16 j + 4 q + i (lane j, unpacked vector q, texel i) <- texel 4 j + i of row q */
#define C8P(j, q, i) ((4 * (j) + (i)) / 8 * 32 + (q) * 8 + (4 * (j) + (i)) % 8)
#define C8Q(j, q) C8P(j, q, 0), C8P(j, q, 1), C8P(j, q, 2), C8P(j, q, 3)
#define C8J(j) C8Q(j, 0), C8Q(j, 1), C8Q(j, 2), C8Q(j, 3)
static const uint8_t c8_order[64] = { C8J(0), C8J(1), C8J(2), C8J(3) };
VEC_INLINE vi c8_plane_lookup(const vi *plane, vi x, simde__mmask64 high)
{
    const vi lo = simde_mm512_permutex2var_epi8(plane[0], x, plane[1]);
    const vi hi = simde_mm512_permutex2var_epi8(plane[2], x, plane[3]);
    return simde_mm512_mask_blend_epi8(high, lo, hi);
}
VEC_INLINE void group_c8(const struct c8_planes *c, const uint8_t *s, uint8_t *d, size_t pitch)
{
    const vi x = simde_mm512_permutexvar_epi8(vi_loadu(c8_order), vi_loadu(s));
    const simde__mmask64 high = simde_mm512_movepi8_mask(x);
    const vi r = c8_plane_lookup(c->plane[0], x, high), g = c8_plane_lookup(c->plane[1], x, high);
    const vi b = c8_plane_lookup(c->plane[2], x, high), a = c8_plane_lookup(c->plane[3], x, high);
    const vi rg_lo = simde_mm512_unpacklo_epi8(r, g), rg_hi = simde_mm512_unpackhi_epi8(r, g);
    const vi ba_lo = simde_mm512_unpacklo_epi8(b, a), ba_hi = simde_mm512_unpackhi_epi8(b, a);
    v_storeu(d, simde_mm512_unpacklo_epi16(rg_lo, ba_lo));
    v_storeu(d + pitch, simde_mm512_unpackhi_epi16(rg_lo, ba_lo));
    v_storeu(d + 2 * pitch, simde_mm512_unpacklo_epi16(rg_hi, ba_hi));
    v_storeu(d + 3 * pitch, simde_mm512_unpackhi_epi16(rg_hi, ba_hi));
}
#define C8_KERNEL(tlut)                                                                      \
    VEC_INLINE void c8_prepare_##tlut(struct c8_planes *c, const uint8_t *palette)           \
    {                                                                                        \
        c8_planes_prepare(c, palette, tlut);                                                 \
    }                                                                                        \
    GROUP_KERNEL(c8_planes_##tlut, 2, 8, 4, 32, struct c8_planes, c8_prepare_##tlut, group_c8) \
    static VFETCH_GX_TEXTURE_FN(c8_##tlut)                                                   \
    {                                                                                        \
        if (nblocks * nrows < C8_SHORT)                                                      \
            c8_direct(src, nblocks * nrows, palette, dst, dst_pitch, tlut, nblocks);         \
        else                                                                                 \
            c8_planes_##tlut(src, nblocks, nrows, palette, dst, dst_pitch);                  \
    }
#else
/* A block row's 8 texels: the indices as two words, each entry a load by a byte of them
   inserted into a vector, four texels a 16-byte store: faster than a load and a 4-byte store
   a texel, and than one 32-byte vector (docs/decisions.md, "Measured choices"). */
VEC_INLINE simde__m128i c8_four(const uint32_t *table, uint32_t w)
{
    return table_four(table, w & 0xff, w >> 8 & 0xff, w >> 16 & 0xff, w >> 24);
}
VEC_INLINE void c8_row(const uint32_t *table, const uint8_t *s, uint8_t *d)
{
    uint32_t w0, w1;
    memcpy(&w0, s, 4);
    memcpy(&w1, s + 4, 4);
    simde_mm_storeu_si128((void *)d, c8_four(table, w0));
    simde_mm_storeu_si128((void *)(d + 16), c8_four(table, w1));
}
#define C8_KERNEL(tlut)                                                                      \
    static VFETCH_GX_TEXTURE_FN(c8_##tlut)                                                   \
    {                                                                                        \
        if (nblocks * nrows < C8_SHORT) {                                                    \
            c8_direct(src, nblocks * nrows, palette, dst, dst_pitch, tlut, nblocks);         \
            return;                                                                          \
        }                                                                                    \
        struct c8_ctx ctx;                                                                   \
        c8_prepare(&ctx, palette, tlut);                                                     \
        for (size_t row_ = 0; row_ < nrows; row_++)                                          \
            for (unsigned r = 0; r < 4; r++) {                                               \
                uint8_t *d = dst + (row_ * 4 + r) * dst_pitch; /* any alignment */           \
                const uint8_t *s = src + row_ * nblocks * 32 + r * 8;                        \
                for (size_t b = 0; b < nblocks; b++, s += 32, d += 32)                       \
                    c8_row(ctx.table, s, d);                                                 \
            }                                                                                \
    }
#endif
C8_KERNEL(0)
C8_KERNEL(1)
C8_KERNEL(2)

/* C4: the 16 entries converted once a call. avx512: one vector of them, looked up by vpermd;
   avx2: two, by vpermd and a blend; sse41: four planes of 16 bytes (R, G, B, A of every
   entry), each looked up by pshufb. */
struct c4_ctx {
#if VEC_BITS == 512
    vi table;
#elif VEC_BITS == 256
    vi half[2]; /* entries 0-7, 8-15 */
#else
    vi plane[4];
#endif
};
VEC_INLINE void c4_prepare(struct c4_ctx *c, const uint8_t *palette, unsigned tlut)
{
    uint32_t rgba[16];
    for (unsigned i = 0; i < 16; i += VT)
        v_storeu(rgba + i, lanes_entry(be16_lanes(palette + 2 * i), tlut));
#if VEC_BITS == 512
    c->table = vi_loadu(rgba);
#elif VEC_BITS == 256
    c->half[0] = vi_loadu(rgba);
    c->half[1] = vi_loadu(rgba + 8);
#else
    uint8_t plane[4][16];
    for (unsigned i = 0; i < 16; i++)
        for (unsigned ch = 0; ch < 4; ch++)
            plane[ch][i] = (uint8_t)(rgba[i] >> (8 * ch));
    for (unsigned ch = 0; ch < 4; ch++)
        c->plane[ch] = v_bcast16(plane[ch]);
#endif
}
/* n: the index in every byte of the lane */
VEC_INLINE vi c4_lookup(const struct c4_ctx *c, vi n)
{
#if VEC_BITS == 512
    return simde_mm512_permutexvar_epi32(n, c->table);
#elif VEC_BITS == 256
    /* vpermd of each half by the index's bits 2:0, chosen by bit 3 (moved to the sign) */
    const vi lo = simde_mm256_permutevar8x32_epi32(c->half[0], n);
    const vi hi = simde_mm256_permutevar8x32_epi32(c->half[1], n);
    return simde_mm256_castps_si256(simde_mm256_blendv_ps(
        simde_mm256_castsi256_ps(lo), simde_mm256_castsi256_ps(hi),
        simde_mm256_castsi256_ps(vi_slli(n, 28))));
#else
    const vi r = vi_and(v_shuffle8(c->plane[0], n), vi_set1(0x000000ff));
    const vi g = vi_and(v_shuffle8(c->plane[1], n), vi_set1(0x0000ff00));
    const vi b = vi_and(v_shuffle8(c->plane[2], n), vi_set1(0x00ff0000));
    const vi a = vi_and(v_shuffle8(c->plane[3], n), vi_set1((int32_t)0xff000000u));
    return vi_or(vi_or(r, g), vi_or(b, a));
#endif
}
#define C4_GROUP(tlut)                                                                       \
    VEC_INLINE void c4_prepare_##tlut(struct c4_ctx *c, const uint8_t *palette)              \
    {                                                                                        \
        c4_prepare(c, palette, tlut);                                                        \
    }                                                                                        \
    GROUP8(group_c4_##tlut, struct c4_ctx, 8, nibbles_row, c4_lookup(ctx, pick_nibble(x)))   \
    ROWS_KERNEL(c4_##tlut, G8, 8, 8, 32, struct c4_ctx, c4_prepare_##tlut, group_c4_##tlut)
C4_GROUP(0)
C4_GROUP(1)
C4_GROUP(2)

/* ==== CMPR: 8x8 blocks of four 4x4 sub-blocks ==== */

/* A lane's sub-block (its 8 bytes at the lane's bytes 0..7) to its four colours, dword i
   colour i: c0, c1, then c0 > c1 ? (5 c0 + 3 c1) >> 3, (3 c0 + 5 c1) >> 3
   : (c0 + c1) / 2 twice, the second with A 0 (4 c0 + 4 c1 >> 3 is that average). */
static const uint8_t c_c0[16] = { 1, 0, Z, Z, 1, 0, Z, Z, 1, 0, Z, Z, 1, 0, Z, Z };
static const uint8_t c_c1[16] = { 3, 2, Z, Z, 3, 2, Z, Z, 3, 2, Z, Z, 3, 2, Z, Z };
static const uint32_t alpha_le[4] = { ~0u, ~0u, ~0u, 0x00ffffffu };

/* The endpoints' channels interleaved, E0.R, E1.R, E0.G, E1.G, ... (dword 0 of the widened
   vector is E0, dword 1 E1), twice; and the byte weights of E0 and E1 per colour for
   pmaddubsw: colours 0 and 1 (8, 0) and (0, 8); colours 2 and 3 (5, 3) and (3, 5) when
   c0 > c1, else (4, 4) twice. */
static const uint8_t c_interleave[16] = { 0, 4, 1, 5, 2, 6, 3, 7, 0, 4, 1, 5, 2, 6, 3, 7 };
static const uint8_t w_01[16] = { 8, 0, 8, 0, 8, 0, 8, 0, 0, 8, 0, 8, 0, 8, 0, 8 };
static const uint8_t w_23_gt[16] = { 5, 3, 5, 3, 5, 3, 5, 3, 3, 5, 3, 5, 3, 5, 3, 5 };
static const uint8_t w_23_le[16] = { 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4 };

#if VEC_BITS == 512
#define v_maddubs simde_mm512_maddubs_epi16
#define v_packus16 simde_mm512_packus_epi16
#elif VEC_BITS == 256
#define v_maddubs simde_mm256_maddubs_epi16
#define v_packus16 simde_mm256_packus_epi16
#else
#define v_maddubs simde_mm_maddubs_epi16
#define v_packus16 simde_mm_packus_epi16
#endif

/* The endpoints of both sub-blocks of each lane (bytes 0-7 and 8-15 of the raw blocks) widened
   at once, dwords c0, c1, c0', c1': converted once a group, then moved like the sub-blocks */
static const uint8_t c_endpoints[16] = { 1, 0, Z, Z, 3, 2, Z, Z, 9, 8, Z, Z, 11, 10, Z, Z };
VEC_INLINE vi cmpr_endpoints(vi raw)
{
    return lanes_rgb565(v_shuffle8(raw, v_bcast16(c_endpoints)));
}

/* x: a sub-block a lane; e: its widened endpoints in the lane's dwords 0 and 1 */
VEC_INLINE vi cmpr_colours(vi x, vi e)
{
    const vi c0 = v_shuffle8(x, v_bcast16(c_c0)), c1 = v_shuffle8(x, v_bcast16(c_c1));
    /* each colour's channels as w0 E0 + w1 E1 in 16 bits (at most 8 x 255), >> 3, packed */
    const vi pairs = v_shuffle8(e, v_bcast16(c_interleave));
    const vi w23 = v_select_gt(c0, c1, v_bcast16(w_23_le), v_bcast16(w_23_gt));
    const vi colours = v_packus16(v_srli16(v_maddubs(pairs, v_bcast16(w_01)), 3),
                                  v_srli16(v_maddubs(pairs, w23), 3));
    return v_select_gt(c0, c1, vi_and(colours, v_bcast16((const uint8_t *)alpha_le)), colours);
}

/* Row y (0..3) of each lane's sub-block: texel t takes colour (byte 4 + y >> 6 - 2 t) & 3,
   i.e. a pshufb of the colours by that index x 4 + channel. cmpr_indices gives every texel's
   index x 4 of a lane's sub-block at once, byte 4 y + t; cmpr_row spreads a row's to its
   texels' four bytes. */
static const uint8_t channel[16] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3 };
static const uint8_t spread_row[4][16] = {
    { 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3 },
    { 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7 },
    { 8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 10, 11, 11, 11, 11 },
    { 12, 12, 12, 12, 13, 13, 13, 13, 14, 14, 14, 14, 15, 15, 15, 15 },
};
VEC_INLINE vi cmpr_row(vi indices, vi colours, unsigned y)
{
    return v_shuffle8(colours, v_add8(v_shuffle8(indices, v_bcast16(spread_row[y])), v_bcast16(channel)));
}

#if VEC_BITS == 512
/* avx512 (VBMI): every texel's index x 4 of a lane's sub-block at once, byte 4 y + t, by
   vpmultishiftqb: the byte at bit 36 + 8 y - 2 t of the lane's qword (both qwords hold the
   sub-block) has the index in its bits 3:2. */
#define MS(y) 36 + 8 * (y), 34 + 8 * (y), 32 + 8 * (y), 30 + 8 * (y)
static const uint8_t c_multishift[16] = { MS(0), MS(1), MS(2), MS(3) };
VEC_INLINE vi cmpr_indices(vi x)
{
    return vi_and(simde_mm512_multishift_epi64_epi8(v_bcast16(c_multishift), x), vi_set1(0x0c0c0c0c));
}
#else
/* below: each 16-bit lane a texel's row byte (rows 0, 1, then 2, 3), multiplied by 4^t to
   bring its index to bits 7:6, shifted to 3:2 and masked; the two vectors packed to bytes */
static const uint8_t c_row_bytes[2][16] = {
    { 4, Z, 4, Z, 4, Z, 4, Z, 5, Z, 5, Z, 5, Z, 5, Z },
    { 6, Z, 6, Z, 6, Z, 6, Z, 7, Z, 7, Z, 7, Z, 7, Z },
};
static const uint16_t texel_shift[8] = { 1, 4, 16, 64, 1, 4, 16, 64 };
VEC_INLINE vi cmpr_indices(vi x)
{
    const vi m = v_bcast16((const uint8_t *)texel_shift);
    const vi rows01 = vi_and(v_srli16(v_mullo16(v_shuffle8(x, v_bcast16(c_row_bytes[0])), m), 4),
                             vi_set1(0x000c000c));
    const vi rows23 = vi_and(v_srli16(v_mullo16(v_shuffle8(x, v_bcast16(c_row_bytes[1])), m), 4),
                             vi_set1(0x000c000c));
    return v_packus16(rows01, rows23);
}
#endif

VEC_INLINE void group_cmpr(const struct no_ctx *ctx, const uint8_t *s, uint8_t *d, size_t pitch)
{
    (void)ctx;
#if VEC_BITS == 512
    /* two blocks: lanes = sub-blocks 0, 1 of each (rows 0-3), then 2, 3 (rows 4-7) */
    const vi z = vi_loadu(s), e = cmpr_endpoints(z);
    const vi order[2] = { simde_mm512_set_epi64(5, 5, 4, 4, 1, 1, 0, 0),
                          simde_mm512_set_epi64(7, 7, 6, 6, 3, 3, 2, 2) };
    GT_UNROLL
    for (unsigned h = 0; h < 2; h++) {
        const vi half = simde_mm512_permutexvar_epi64(order[h], z);
        const vi colours = cmpr_colours(half, simde_mm512_permutexvar_epi64(order[h], e));
        const vi indices = cmpr_indices(half);
        GT_UNROLL
        for (unsigned y = 0; y < 4; y++)
            v_storeu(d + (4 * h + y) * pitch, cmpr_row(indices, colours, y));
    }
#elif VEC_BITS == 256
    const vi b = vi_loadu(s), e = cmpr_endpoints(b);
    const vi half[2] = { simde_mm256_permute4x64_epi64(b, 0x50),
                         simde_mm256_permute4x64_epi64(b, 0xfa) };
    const vi e_half[2] = { simde_mm256_permute4x64_epi64(e, 0x50),
                           simde_mm256_permute4x64_epi64(e, 0xfa) };
    GT_UNROLL
    for (unsigned h = 0; h < 2; h++) {
        const vi colours = cmpr_colours(half[h], e_half[h]), indices = cmpr_indices(half[h]);
        GT_UNROLL
        for (unsigned y = 0; y < 4; y++)
            v_storeu(d + (4 * h + y) * pitch, cmpr_row(indices, colours, y));
    }
#else
    const vi lo = vi_loadu(s), hi = vi_loadu(s + 16);
    const vi e_lo = cmpr_endpoints(lo), e_hi = cmpr_endpoints(hi);
    const vi sub[4] = { lo, simde_mm_srli_si128(lo, 8), hi, simde_mm_srli_si128(hi, 8) };
    const vi e_sub[4] = { e_lo, simde_mm_srli_si128(e_lo, 8), e_hi, simde_mm_srli_si128(e_hi, 8) };
    GT_UNROLL
    for (unsigned q = 0; q < 4; q++) {
        const vi colours = cmpr_colours(sub[q], e_sub[q]), indices = cmpr_indices(sub[q]);
        GT_UNROLL
        for (unsigned y = 0; y < 4; y++)
            v_storeu(d + ((q >> 1) * 4 + y) * pitch + (q & 1) * 16, cmpr_row(indices, colours, y));
    }
#endif
}
GROUP_KERNEL(cmpr, G8, 8, 8, 32, struct no_ctx, no_prepare, group_cmpr)

/* ==== palette entries to RGBA8, and C14X2 from that table ==== */

static VFETCH_GX_TEXTURE_ENTRIES_FN(entries)
{
    for (size_t i = 0; i < n; i += VEC_LANES)
        v_storeu(table + i, lanes_entry(be16_lanes(palette + 2 * i), tlut));
}

/* A texel a load from the table (L2-resident, 64 KiB): no conversion, no gather; a block
   row's four entries inserted into a vector, one 16-byte store. */
static VFETCH_GX_TEXTURE_FN(c14x2_table)
{
    const uint32_t *table = (const uint32_t *)(const void *)palette;
    for (size_t row = 0; row < nrows; row++)
        for (unsigned y = 0; y < 4; y++) {
            uint8_t *d = dst + (row * 4 + y) * dst_pitch; /* any alignment */
            const uint8_t *s = src + row * nblocks * 32 + y * 8;
            for (size_t n = 0; n < nblocks; n++, s += 32, d += 16) {
                /* the block row's four big-endian indices, texel 3's in the low bits */
                uint64_t w;
                memcpy(&w, s, 8);
                w = __builtin_bswap64(w);
                simde_mm_storeu_si128((void *)d, table_four(table, index14(w, 48), index14(w, 32),
                                                             index14(w, 16), index14(w, 0)));
            }
        }
}

/* ==== RGBA8 -> RGBA32F ==== */

/* v / 255 exactly without a division (texel_block_tmpl.c has the proof): with
   a = (float)(v * 0x10101) * 2^-24, the rounded a + a * 2^-24. */
VEC_INLINE vf unorm8(vi v)
{
    const vf a = vf_mul(vf_cvt(vi_add(vi_add(v, vi_slli(v, 8)), vi_slli(v, 16))),
                        vf_set1(0x1p-24f));
    return vf_add(a, vf_mul(a, vf_set1(0x1p-24f)));
}

VEC_INLINE vi bytes_to_lanes(const uint8_t *p)
{
#if VEC_BITS == 512
#if defined(SIMDE_X86_AVX512F_NATIVE)
    return _mm512_cvtepu8_epi32(_mm_loadu_si128((const void *)p));
#else
    const simde__m128i x = simde_mm_loadu_si128((const void *)p);
    return simde_mm512_inserti64x4(simde_mm512_castsi256_si512(simde_mm256_cvtepu8_epi32(x)),
                                   simde_mm256_cvtepu8_epi32(simde_mm_srli_si128(x, 8)), 1);
#endif
#elif VEC_BITS == 256
    return simde_mm256_cvtepu8_epi32(simde_mm_loadl_epi64((const void *)p));
#else
    int32_t w;
    memcpy(&w, p, 4);
    return simde_mm_cvtepu8_epi32(simde_mm_cvtsi32_si128(w));
#endif
}

static VFETCH_GX_TEXTURE_F32_FN(to_f32)
{
    size_t i = 0;
    for (; i + VEC_LANES <= n; i += VEC_LANES)
        v_storeu(dst + 4 * i, vf_as_vi(unorm8(bytes_to_lanes(src + i))));
    for (; i < n; i++) {
        const float f = (float)src[i] / 255.0f;
        memcpy(dst + 4 * i, &f, 4);
    }
}

#endif /* GT_ENABLED */

#define GT_STR2(x) #x
#define GT_STR(x) GT_STR2(x)

void NAME(vfetch_gx_texture_init)(struct vfetch_gx_texture_dsp *dsp)
{
#if GT_ENABLED
    static const struct {
        unsigned format, tlut;
        vfetch_gx_texture_fn *fn;
    } kernels[] = {
        { VFETCH_GX_TF_I4, 0, i4 },           { VFETCH_GX_TF_I8, 0, i8 },
        { VFETCH_GX_TF_IA4, 0, ia4 },         { VFETCH_GX_TF_IA8, 0, ia8 },
        { VFETCH_GX_TF_RGB565, 0, rgb565 },   { VFETCH_GX_TF_RGB5A3, 0, rgb5a3 },
        { VFETCH_GX_TF_RGBA8, 0, rgba8 },     { VFETCH_GX_TF_CMPR, 0, cmpr },
        { VFETCH_GX_TF_C4, 0, c4_0 },         { VFETCH_GX_TF_C4, 1, c4_1 },
        { VFETCH_GX_TF_C4, 2, c4_2 },         { VFETCH_GX_TF_C8, 0, c8_0 },
        { VFETCH_GX_TF_C8, 1, c8_1 },         { VFETCH_GX_TF_C8, 2, c8_2 },
        { VFETCH_GX_TF_C14X2, 0, c14x2_0 },   { VFETCH_GX_TF_C14X2, 1, c14x2_1 },
        { VFETCH_GX_TF_C14X2, 2, c14x2_2 },
    };
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        dsp->decode[kernels[i].format][kernels[i].tlut] = kernels[i].fn;
        dsp->level[kernels[i].format][kernels[i].tlut] = GT_STR(VFETCH_ISA);
    }
    dsp->to_f32 = to_f32;
    dsp->entries = entries;
    dsp->c14x2_table = c14x2_table;
#else
    (void)dsp;
#endif
}
