/*
 * Texel kernels (block formats), one compilation per ISA level; the reference is
 * lib/ref/texel_ref.c (dxt_colour, alpha_palette_int, bc4_block, dxt_block), which every level
 * matches byte for byte.
 *
 * DXT1/3/5 and ATI1N/ATI2N (BC4/BC5), unsigned components, to RGBA8 or RGBA32F. Levels with a
 * byte shuffle only (sse41, avx2, avx512, neon; sse2 keeps the reference): one 4x4 block per
 * 128-bit lane, so that a vector decodes 1, 2 or 4 blocks at once and an output row of those
 * blocks is one contiguous store.
 *
 * Per block, in 16-bit lanes:
 *   - colour endpoints: each word picks a 565 field (by byte shuffle and mask) and widens it
 *     by one multiply-high (r << 11 times 264 = r * 33 >> 2 = r << 3 | r >> 2, etc.); the
 *     words are already in output channel order (SEL applied to the palette, SEL_ZERO 0,
 *     SEL_ONE and DXT1's alpha 255), so rows need no channel selection;
 *   - P2, P3 = (2 e0 + e1 [+ 1]) / 3 ... as multiply-high by 21846 (exact for numerators up
 *     to 766); three-colour mode P2 = (e0 + e1 [+ 1]) >> 1, P3 = 0 (SEL_ONE kept); the mode
 *     from c1 - c0 (pmaddwd on the sign-flipped endpoints), for DXT3/5 too unless
 *     VFETCH_TEXEL_DXT35_FOUR_COLOUR;
 *   - alpha / BC4 palettes: a0 > a1 picks the pmaddubsw weights ((7 - i) a0 + i a1 or the
 *     5-value set), the constant (+ 3 / + 2 when rounding; 1275 for entry 7 = 255) and the
 *     divisor, multiply-high by 9363 (/ 7, exact up to 1788) or 13108 (/ 5, exact up to 1277);
 *   - indices: avx512 vpmultishiftqb; below, byte shuffles and multiply-high per 16-bit word;
 *   - rows: avx2/avx512 an in-lane dword permute (vpermilps) of the colour palettes by the
 *     2-bit indices, DXT3/5's per-texel alpha shuffled into the alpha channels; sse41/neon a
 *     byte shuffle of the palette by 4 index + channel; BC: a byte shuffle of the per-texel
 *     values (SEL_ZERO a control byte with bit 7 set, SEL_ONE ORed or merged as 0xff).
 * The multipliers are exact over their whole domains (checked exhaustively: x 21846 >> 16 =
 * x / 3 for x <= 766, x 9363 >> 16 = x / 7 for x <= 1788, x 13108 >> 16 = x / 5 for
 * x <= 1277; and every level against the reference on all 65536 alpha endpoint pairs and all
 * 65536 c0 with equal, permuted and random c1, every index, every SEL, every option).
 *
 * RGBA32F: each 8-bit value v becomes exactly (float)v / 255.0f without a division: with
 * a = (float)(v * 0x10101) * 2^-24 (exact), v / 255 = a (1 + 2^-24 + 2^-48 ...), and the
 * rounded a + a * 2^-24 is the rounded quotient for every v (a * 2^-24 lies strictly between
 * half an ulp of a and one ulp, as a is never a power of two for v > 0); checked for all 256.
 *
 * Reads: exactly nblocks * block_bytes (the last partial vector of blocks goes through a
 * stack copy); writes: exactly the 4 rows of 4 * nblocks texels.
 */
#include <string.h>

#include "texel/texel_internal.h"
#include "simd/vec.h"

#if defined(VFETCH_ISA_SSE41) || defined(VFETCH_ISA_AVX2) || defined(VFETCH_ISA_AVX512) || \
    defined(VFETCH_ISA_NEON)
#define TB_ENABLED 1
#else
#define TB_ENABLED 0 /* sse2: no byte shuffle, the reference runs */
#endif

#if TB_ENABLED

#if VEC_BITS == 128
#include <simde/x86/sse4.1.h>
#endif

/* Blocks per vector: one per 128-bit lane. */
#define TB_G (VEC_BITS / 128)

/* ---- width-generic operations (16-byte patterns repeat in every 128-bit lane) ---- */

#if VEC_BITS == 512
VEC_INLINE vi tb_bcast16(const void *p)
{
    return simde_mm512_broadcast_i32x4(simde_mm_loadu_si128(p));
}
#define tb_pshufb simde_mm512_shuffle_epi8
#define tb_add8 simde_mm512_add_epi8
#define tb_add16 simde_mm512_add_epi16
#define tb_srli16(x, n) simde_mm512_srli_epi16((x), (n))
#define tb_slli16(x, n) simde_mm512_slli_epi16((x), (n))
#define tb_srlv32 simde_mm512_srlv_epi32
#define tb_packus16 simde_mm512_packus_epi16
#define tb_maddubs simde_mm512_maddubs_epi16
#define tb_madd16 simde_mm512_madd_epi16
#define tb_set1_64(x) simde_mm512_set1_epi64((int64_t)(x))
#define tb_storeu(p, x) simde_mm512_storeu_si512((void *)(p), (x))
/* pshufd (SIMDe 0.7.4 has no 512-bit shuffle_epi32): vshufps of x with itself */
#define tb_pshufd(x, imm)                                                                   \
    simde_mm512_castps_si512(simde_mm512_shuffle_ps(simde_mm512_castsi512_ps(x),              \
                                                    simde_mm512_castsi512_ps(x), (imm)))
#define tb_mulhi_u16 vi_mulhi_u16 /* vec.h */
/* in-lane dword permute: dword i of t's 128-bit lane by bits 0..1 of ctrl's dword i */
VEC_INLINE vi tb_permilps(vi t, vi ctrl)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
    return _mm512_castps_si512(_mm512_permutevar_ps(_mm512_castsi512_ps(t), ctrl));
#else
    const simde__m256 lo = simde_mm256_permutevar_ps(
        simde_mm256_castsi256_ps(simde_mm512_castsi512_si256(t)), simde_mm512_castsi512_si256(ctrl));
    const simde__m256 hi = simde_mm256_permutevar_ps(
        simde_mm256_castsi256_ps(simde_mm512_extracti64x4_epi64(t, 1)),
        simde_mm512_extracti64x4_epi64(ctrl, 1));
    return simde_mm512_inserti64x4(simde_mm512_castsi256_si512(simde_mm256_castps_si256(lo)),
                                   simde_mm256_castps_si256(hi), 1);
#endif
}
/* x > y (signed 32-bit lanes) ? b : a */
VEC_INLINE vi tb_sel_gt32(vi a, vi b, vi x, vi y)
{
    return simde_mm512_mask_blend_epi32(simde_mm512_cmpgt_epi32_mask(x, y), a, b);
}
/* x > y (signed 64-bit lanes) ? b : a */
VEC_INLINE vi tb_sel_gt64(vi a, vi b, vi x, vi y)
{
    return simde_mm512_mask_blend_epi64(simde_mm512_cmpgt_epi64_mask(x, y), a, b);
}
#elif VEC_BITS == 256
VEC_INLINE vi tb_bcast16(const void *p)
{
    return simde_mm256_broadcastsi128_si256(simde_mm_loadu_si128(p));
}
#define tb_pshufb simde_mm256_shuffle_epi8
#define tb_add8 simde_mm256_add_epi8
#define tb_add16 simde_mm256_add_epi16
#define tb_srli16(x, n) simde_mm256_srli_epi16((x), (n))
#define tb_srlv32 simde_mm256_srlv_epi32
#define tb_packus16 simde_mm256_packus_epi16
#define tb_unpacklo8 simde_mm256_unpacklo_epi8
#define tb_maddubs simde_mm256_maddubs_epi16
#define tb_madd16 simde_mm256_madd_epi16
#define tb_mulhi_u16 simde_mm256_mulhi_epu16
#define tb_cmpeq8 simde_mm256_cmpeq_epi8
#define tb_set1_64(x) simde_mm256_set1_epi64x((int64_t)(x))
#define tb_storeu(p, x) simde_mm256_storeu_si256((void *)(p), (x))
#define tb_pshufd(x, imm) simde_mm256_shuffle_epi32((x), (imm))
VEC_INLINE vi tb_permilps(vi t, vi ctrl)
{
    return simde_mm256_castps_si256(simde_mm256_permutevar_ps(simde_mm256_castsi256_ps(t), ctrl));
}
VEC_INLINE vi tb_sel_gt32(vi a, vi b, vi x, vi y)
{
    return simde_mm256_blendv_epi8(a, b, simde_mm256_cmpgt_epi32(x, y));
}
VEC_INLINE vi tb_sel_gt64(vi a, vi b, vi x, vi y)
{
    return simde_mm256_blendv_epi8(a, b, simde_mm256_cmpgt_epi64(x, y));
}
#else
VEC_INLINE vi tb_bcast16(const void *p)
{
    return simde_mm_loadu_si128(p);
}
#define tb_pshufb simde_mm_shuffle_epi8
#define tb_add8 simde_mm_add_epi8
#define tb_add16 simde_mm_add_epi16
#define tb_srli16(x, n) simde_mm_srli_epi16((x), (n))
#define tb_packus16 simde_mm_packus_epi16
#define tb_unpacklo8 simde_mm_unpacklo_epi8
#define tb_maddubs simde_mm_maddubs_epi16
#define tb_madd16 simde_mm_madd_epi16
#define tb_mulhi_u16 simde_mm_mulhi_epu16
#define tb_cmpeq8 simde_mm_cmpeq_epi8
#define tb_set1_64(x) simde_mm_set1_epi64x((int64_t)(x))
#define tb_storeu(p, x) simde_mm_storeu_si128((void *)(p), (x))
#define tb_pshufd(x, imm) simde_mm_shuffle_epi32((x), (imm))
VEC_INLINE vi tb_sel_gt32(vi a, vi b, vi x, vi y)
{
    return simde_mm_blendv_epi8(a, b, simde_mm_cmpgt_epi32(x, y));
}
#endif

/* ---- constant tables (16 bytes: one 128-bit lane, broadcast to every lane) ---- */
/* (SIMDe's set_epi32/64 build vectors lane by lane: constants come from tables.) */

#define TB_A16 __attribute__((aligned(16)))
#define TB_A64 __attribute__((aligned(64)))
#define TB_R4(a, b, c, d) a, a, a, a, b, b, b, b, c, c, c, c, d, d, d, d

/* Byte 4x + c of output row r (texel (r, x), channel c) reads byte 4r + x: texel order (BC4
   values, DXT3/5 alpha below 512 bits) */
static const uint8_t tb_tex_row[4][16] TB_A16 = {
    { TB_R4(0, 1, 2, 3) }, { TB_R4(4, 5, 6, 7) }, { TB_R4(8, 9, 10, 11) }, { TB_R4(12, 13, 14, 15) },
};
/* ... byte 4 (r & 1) + x (+ 8 for component 1): BC5's values, 8 texels a vector */
static const uint8_t tb_bc5_row[2][16] TB_A16 = {
    { TB_R4(0, 1, 2, 3) }, { TB_R4(4, 5, 6, 7) },
};

/* Colour endpoints: 16-bit words [e0 ch0, ch1, ch2, ch3, e1 ch0, ch1, ch2, ch3], word c holding
   what output channel c shows: R and G read c0 (bytes o, o+1) or c1 (o+2, o+3), B their low
   byte moved up 8 bits; masked to the field and multiplied high: r << 11 -> r * 33 >> 2
   (x 264), g << 5 -> g * 65 >> 4 (x 8320), b << 8 -> b * 33 >> 2 (x 2112); DXT1's alpha and
   SEL_ONE add 255, SEL_ZERO (and DXT3/5's alpha, merged later) is 0. Per channel a code k
   (TB_K_*), and per table a 16-byte lookup of the word's low byte (entries 0..7) and high byte
   (8..15) by k: */
enum { TB_K_R, TB_K_G, TB_K_B, TB_K_A, TB_K_ZERO, TB_K_ONE };
#define TB_LUT(l0, l1, l2, l3, l4, l5, h0, h1, h2, h3, h4, h5)                               \
    { l0, l1, l2, l3, l4, l5, 0, 0, h0, h1, h2, h3, h4, h5, 0, 0 }
static const uint8_t tb_lut_ctrl[16] TB_A16 =
    TB_LUT(0, 0, 0x80, 0x80, 0x80, 0x80, 1, 1, 0, 0x80, 0x80, 0x80);
static const uint8_t tb_lut_mask[16] TB_A16 =
    TB_LUT(0x00, 0xe0, 0x00, 0, 0, 0, 0xf8, 0x07, 0x1f, 0, 0, 0);
static const uint8_t tb_lut_mul[16] TB_A16 =
    TB_LUT(0x08, 0x80, 0x40, 0, 0, 0, 0x01, 0x20, 0x08, 0, 0, 0);
static const uint8_t tb_lut_add[16] TB_A16 = TB_LUT(0, 0, 0, 0xff, 0, 0xff, 0, 0, 0, 0, 0, 0);
/* P3's words kept in three-colour mode: SEL_ONE's (P2's all, tb_low_half) */
static const uint8_t tb_lut_keep[16] TB_A16 = TB_LUT(0, 0, 0, 0, 0, 0xff, 0, 0, 0, 0, 0, 0xff);
static const uint16_t tb_low_half[8] TB_A16 = { 0xffff, 0xffff, 0xffff, 0xffff, 0, 0, 0, 0 };
/* byte 2w + h of the tables reads channel (w & 3)'s code, + 8 for the high byte */
static const uint8_t tb_code_pos[16] TB_A16 = { 0, 0, 1, 1, 2, 2, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3 };
static const uint8_t tb_code_hi[16] TB_A16 = { 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8 };
/* c0 at byte o, c1 at o + 2 (o: the colour block's offset in the lane) */
static const uint8_t tb_ctrl_off[2][16] TB_A16 = {
    { 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2 },
    { 8, 8, 8, 8, 8, 8, 8, 8, 10, 10, 10, 10, 10, 10, 10, 10 },
};

/* Alpha / BC4 palette: words [a0 | a1 << 8] from bytes o, o+1, the pmaddubsw weights, and the
   constants added before / 5: entry 7 is 1275 / 5 = 255 (entry 6: 0 / 5 = 0); rounding + 2 */
static const uint8_t tb_ctrl_ab[2][16] TB_A16 = {
    { 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1 },
    { 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9 },
};
static const int8_t tb_w7[16] TB_A16 = { 7, 0, 0, 7, 6, 1, 5, 2, 4, 3, 3, 4, 2, 5, 1, 6 };
static const int8_t tb_w5[16] TB_A16 = { 5, 0, 0, 5, 4, 1, 3, 2, 2, 3, 1, 4, 0, 0, 0, 0 };
static const int8_t tb_wdiff[16] TB_A16 = { 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1 };
static const uint16_t tb_c5[2][8] TB_A16 = { { 0, 0, 0, 0, 0, 0, 0, 1275 },
                                             { 2, 2, 2, 2, 2, 2, 2, 1277 } };
/* BC5: component 1's indices read the second half of the palette table */
static const uint8_t tb_hi8[16] TB_A16 = { 0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8 };

/* 3-bit indices of a BC4/alpha block: texel t's bits 16 + 3t .. 18 + 3t of the 8 bytes */
#define TB_B(t) (16 + 3 * (t))
#if VEC_BITS == 512
/* vpmultishiftqb: the bit offset of each texel's field in the qword, texels 0..15 (the block in
   both qwords); BC5: texels 0..7 / 8..15 of both halves */
#define TB_B8(t) TB_B(t), TB_B(t + 1), TB_B(t + 2), TB_B(t + 3), TB_B(t + 4), TB_B(t + 5),    \
                 TB_B(t + 6), TB_B(t + 7)
static const uint8_t tb_ms3[16] TB_A16 = { TB_B8(0), TB_B8(8) };
static const uint8_t tb_ms3_bc5[2][16] TB_A16 = { { TB_B8(0), TB_B8(0) }, { TB_B8(8), TB_B8(8) } };
/* DXT3: texel t's nibble at bits 4t of the alpha qword */
static const uint8_t tb_ms4[16] TB_A16 = { 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60 };
/* 8-byte blocks: qword j of the load to both qwords of lane j */
static const uint64_t tb_spread8[8] TB_A64 = { 0, 0, 1, 1, 2, 2, 3, 3 };
#else
/* Without a per-byte bit extract, each texel gets the 16-bit word from byte k = (16 + 3t) / 8
   (the one before when the field starts a byte, so that the shift is 1..8), and a
   multiply-high by 2^(16 - shift) moves the field down. */
#define TB_K(t) ((TB_B(t) & 7) ? TB_B(t) >> 3 : (TB_B(t) >> 3) - 1)
#define TB_S(t) ((TB_B(t) & 7) ? (TB_B(t) & 7) : 8)
#define TB_WB(o, t) (o) + TB_K(t), (TB_K(t) + 1 <= 7 ? (o) + TB_K(t) + 1 : 0x80)
#define TB_W8(o, t) TB_WB(o, t), TB_WB(o, t + 1), TB_WB(o, t + 2), TB_WB(o, t + 3),           \
                    TB_WB(o, t + 4), TB_WB(o, t + 5), TB_WB(o, t + 6), TB_WB(o, t + 7)
static const uint8_t tb_ctrl_w[2][2][16] TB_A16 = {
    { { TB_W8(0, 0) }, { TB_W8(0, 8) } },
    { { TB_W8(8, 0) }, { TB_W8(8, 8) } },
};
#define TB_M(t) (uint16_t)(1u << (16 - TB_S(t)))
#define TB_M8(t) TB_M(t), TB_M(t + 1), TB_M(t + 2), TB_M(t + 3), TB_M(t + 4), TB_M(t + 5),    \
                 TB_M(t + 6), TB_M(t + 7)
static const uint16_t tb_mul_w[2][8] TB_A16 = { { TB_M8(0) }, { TB_M8(8) } };
/* DXT3: 4-bit alpha x 17 */
static const uint8_t tb_lut17[16] TB_A16 = { 0, 17, 34, 51, 68, 85, 102, 119,
                                             136, 153, 170, 187, 204, 221, 238, 255 };
#endif

#if VEC_BITS >= 256
/* Row r's right shifts of the index dword: 8r + 2x in dword x (texel (r, x)'s 2-bit index to
   bits 0..1, where vpermilps reads it) */
static const uint32_t tb_shr_row[4][4] TB_A16 = {
    { 0, 2, 4, 6 }, { 8, 10, 12, 14 }, { 16, 18, 20, 22 }, { 24, 26, 28, 30 },
};
/* pmaddwd weights: c1 - c0 in the low dword of each qword, 0 in the high one */
static const int16_t tb_wmode[8] TB_A16 = { -1, 1, 0, 0, -1, 1, 0, 0 };
#else
/* Byte 4x + c of output row r reads byte 4x + r: the colour indices' column-major order */
static const uint8_t tb_col_row[4][16] TB_A16 = {
    { TB_R4(0, 4, 8, 12) }, { TB_R4(1, 5, 9, 13) }, { TB_R4(2, 6, 10, 14) }, { TB_R4(3, 7, 11, 15) },
};
static const uint32_t tb_mul2[4] TB_A16 = { 64, 16, 4, 1 };
#endif

/* ---- indices ---- */

#if VEC_BITS == 128
/* The 2-bit colour indices of a DXT colour block, times 4: byte 4x + r = idx(r, x) << 2, from
   d = the block's index dword in every dword of the lane (byte r = row r, 2 bits a column):
   dword x times 2^(6 - 2x) puts column x's bits at 6..7 of every byte, then down to 2..3. */
VEC_INLINE vi tb_colour_idx(vi d)
{
    const vi m = simde_mm_mullo_epi32(d, tb_bcast16(tb_mul2));
    return vi_and(tb_srli16(m, 4), vi_set1(0x0c0c0c0c));
}
#endif

/* The 16 3-bit indices of the BC4/alpha block at lane offset o (0 or 8), texel t in byte t.
   dup: the block is in both qwords of the lane already. */
VEC_INLINE vi tb_alpha_idx(vi blk, int o, int dup)
{
#if VEC_BITS == 512
    const vi q = dup ? blk : o ? tb_pshufd(blk, 0xee) : tb_pshufd(blk, 0x44);
    return vi_and(simde_mm512_multishift_epi64_epi8(tb_bcast16(tb_ms3), q), vi_set1(0x07070707));
#else
    (void)dup;
    const vi seven = vi_set1(0x00070007);
    const int h = o ? 1 : 0;
    const vi lo = tb_mulhi_u16(tb_pshufb(blk, tb_bcast16(tb_ctrl_w[h][0])), tb_bcast16(tb_mul_w[0]));
    const vi hi = tb_mulhi_u16(tb_pshufb(blk, tb_bcast16(tb_ctrl_w[h][1])), tb_bcast16(tb_mul_w[1]));
    return tb_packus16(vi_and(lo, seven), vi_and(hi, seven));
#endif
}

/* BC5's indices: half h (texels 8h .. 8h + 7) of component 0 in bytes 0..7, of component 1
   (+ 8, its palette's offset in the table) in bytes 8..15. */
VEC_INLINE void tb_bc5_idx(vi blk, vi idx[2])
{
#if VEC_BITS == 512
    for (unsigned h = 0; h < 2; h++)
        idx[h] = simde_mm512_ternarylogic_epi32(
            simde_mm512_multishift_epi64_epi8(tb_bcast16(tb_ms3_bc5[h]), blk),
            vi_set1(0x07070707), tb_bcast16(tb_hi8), 0xea); /* (x & 7) | 8 */
#else
    const vi seven = vi_set1(0x00070007);
    vi w[2][2];
    for (unsigned c = 0; c < 2; c++)
        for (unsigned h = 0; h < 2; h++)
            w[c][h] = vi_and(tb_mulhi_u16(tb_pshufb(blk, tb_bcast16(tb_ctrl_w[c][h])),
                                          tb_bcast16(tb_mul_w[h])),
                             seven);
    for (unsigned h = 0; h < 2; h++)
        idx[h] = vi_or(tb_packus16(w[0][h], w[1][h]), tb_bcast16(tb_hi8));
#endif
}

/* ---- alpha / BC4 palettes ---- */

/* The 8 16-bit palette words of the alpha / BC4 block at lane offset o (0 or 8). The mode
   (a0 > a1) picks weights, constant and divisor first, so that one pmaddubsw and one
   multiply-high make the entries. round: + 3 before / 7, + 2 before / 5 (DXT5 under
   VFETCH_TEXEL_DXT_ROUND). */
VEC_INLINE vi tb_alpha_words(vi blk, int o, int round)
{
    const vi ab = tb_pshufb(blk, tb_bcast16(tb_ctrl_ab[o ? 1 : 0]));
    const vi d = tb_maddubs(ab, tb_bcast16(tb_wdiff)); /* a0 - a1 in every word */
    const vi zero = vi_set1(0);
    /* (d's dword is d << 16 | (d & 0xffff): > 0 exactly where d > 0) */
    const vi w = tb_sel_gt32(tb_bcast16(tb_w5), tb_bcast16(tb_w7), d, zero);
    const vi m = tb_sel_gt32(vi_set1(0x33343334), vi_set1(0x24932493), d, zero); /* 13108, 9363 */
    const vi c = tb_sel_gt32(tb_bcast16(tb_c5[round ? 1 : 0]), vi_set1(round ? 0x00030003 : 0),
                             d, zero);
    return tb_mulhi_u16(tb_add16(tb_maddubs(ab, w), c), m);
}

/* The palette as bytes 0..7, and again 8..15 (an index's bit 3 is then ignored). */
VEC_INLINE vi tb_alpha_palette(vi blk, int o, int round)
{
    const vi p = tb_alpha_words(blk, o, round);
    return tb_packus16(p, p);
}

/* ---- per-call constants from the plan ---- */

/* SEL of output channel c in byte c of every dword. */
VEC_INLINE vi tb_sel_bytes(const struct vfetch_texel_plan *p)
{
    uint32_t sel;
    memcpy(&sel, p->sel, 4);
    return vi_set1((int32_t)sel);
}

struct tb_dxt_k {
    vi ctrl_e, mask_e, mul_e, add_e, keep3; /* the colour endpoint tables (above) */
    vi force4; /* DXT3/5 under VFETCH_TEXEL_DXT35_FOUR_COLOUR: the sign of c1 - c0 forced */
#if VEC_BITS == 512
    simde__mmask64 alpha_bytes; /* DXT3/5: the bytes of alpha channels */
#else
    vi asel[4]; /* DXT3/5: per row, the alpha texel byte (0x80 outside alpha channels) */
#endif
};

VEC_INLINE void tb_dxt_setup(const struct vfetch_texel_plan *p, int dxt1, struct tb_dxt_k *k)
{
    /* byte s of tab: the code of what SEL value s shows (components 0..2: the colour whose
       component it is; 3: DXT1's alpha, else merged later; 4: 0; 5: 1) */
    uint64_t tab = (uint64_t)(dxt1 ? TB_K_A : TB_K_ZERO) << 24 | (uint64_t)TB_K_ZERO << 32 |
                   (uint64_t)TB_K_ONE << 40;
    for (unsigned q = 0; q < 3; q++)
        tab |= (uint64_t)q << (8 * (p->dxt_comp[q] & 3));
    const vi sel = tb_sel_bytes(p);
    const vi pos = vi_or(tb_pshufb(tb_set1_64(tab), tb_pshufb(sel, tb_bcast16(tb_code_pos))),
                         tb_bcast16(tb_code_hi));
    k->ctrl_e = tb_add8(tb_pshufb(tb_bcast16(tb_lut_ctrl), pos), tb_bcast16(tb_ctrl_off[!dxt1]));
    k->mask_e = tb_pshufb(tb_bcast16(tb_lut_mask), pos);
    k->mul_e = tb_pshufb(tb_bcast16(tb_lut_mul), pos);
    k->add_e = tb_pshufb(tb_bcast16(tb_lut_add), pos);
    k->keep3 = vi_or(tb_pshufb(tb_bcast16(tb_lut_keep), pos), tb_bcast16(tb_low_half));
    const int force4 = !dxt1 && p->options.dxt35_colour == VFETCH_TEXEL_DXT35_FOUR_COLOUR;
#if VEC_BITS >= 256
    k->force4 = tb_set1_64(force4 ? 0x80000000u : 0); /* the low dword of each qword */
#else
    k->force4 = vi_set1(force4 ? (int32_t)0x80000000u : 0);
#endif
    if (dxt1)
        return;
#if VEC_BITS == 512
    k->alpha_bytes = simde_mm512_cmpeq_epi8_mask(sel, vi_set1(0x03030303));
#else
    /* 0x80 in the bytes of channels that are not alpha */
    const vi anot = vi_andnot(tb_cmpeq8(sel, vi_set1(0x03030303)), vi_set1((int32_t)0x80808080u));
    for (unsigned r = 0; r < 4; r++)
        k->asel[r] = vi_or(tb_bcast16(tb_tex_row[r]), anot);
#endif
}

struct tb_bc_k {
    vi ones;      /* 0xff in SEL_ONE channels */
    vi rowsel[4]; /* BC4: rows 0..3; BC5: rows 0/2 and 1/3 */
#if VEC_BITS == 512
    simde__mmask64 not_one; /* the bytes of channels other than SEL_ONE */
#endif
};

VEC_INLINE void tb_bc_setup(const struct vfetch_texel_plan *p, int bc5, struct tb_bc_k *k)
{
    /* byte s of tab: the table byte SEL value s reads (+ the texel's), 0x80 for none */
    const uint64_t tab = bc5 ? 0x8080808080800800ull : 0x8080808080808000ull;
    const vi sel = tb_sel_bytes(p);
    const vi b = tb_pshufb(tb_set1_64(tab), sel);
    const vi five = vi_set1(0x05050505);
#if VEC_BITS == 512
    const simde__mmask64 one = simde_mm512_cmpeq_epi8_mask(sel, five);
    k->ones = simde_mm512_maskz_mov_epi8(one, vi_set1(-1));
    k->not_one = ~one;
#else
    k->ones = tb_cmpeq8(sel, five);
#endif
    if (bc5) {
        k->rowsel[0] = k->rowsel[2] = vi_or(tb_bcast16(tb_bc5_row[0]), b);
        k->rowsel[1] = k->rowsel[3] = vi_or(tb_bcast16(tb_bc5_row[1]), b);
    } else {
        for (unsigned r = 0; r < 4; r++)
            k->rowsel[r] = vi_or(tb_bcast16(tb_tex_row[r]), b);
    }
}

/* ---- loading TB_G blocks: block j in 128-bit lane j ---- */

/* 8-byte blocks: exactly TB_G * 8 bytes read; block j in both qwords of lane j (sse41: in
   the low one). */
VEC_INLINE vi tb_load8(const uint8_t *p)
{
#if VEC_BITS == 512
    const vi x = simde_mm512_castsi256_si512(simde_mm256_loadu_si256((const void *)p));
    return simde_mm512_permutexvar_epi64(simde_mm512_loadu_si512(tb_spread8), x);
#elif VEC_BITS == 256
    return simde_mm256_permute4x64_epi64(
        simde_mm256_castsi128_si256(simde_mm_loadu_si128((const void *)p)), 0x50);
#else
    return simde_mm_loadl_epi64((const void *)p);
#endif
}

/* ---- a vector of blocks -> 4 output rows of RGBA8 ---- */

VEC_INLINE void tb_dxt_rows(vi blk, const struct tb_dxt_k *k, int cls, int round, vi rows[4])
{
    const int dxt1 = cls == VFETCH_TEXEL_CLASS_DXT1;
#if VEC_BITS >= 256
    /* the colour block in both qwords of the lane (tb_load8 duplicates DXT1's) */
    const vi col = dxt1 ? blk : tb_pshufd(blk, 0xee);
#else
    const vi col = blk; /* the colour block at lane offset 0 (DXT1) or 8 */
#endif

    /* colour palette, channels as the output wants them */
    const vi pw = tb_pshufb(col, k->ctrl_e);
    const vi e = vi_or(tb_mulhi_u16(vi_and(pw, k->mask_e), k->mul_e), k->add_e);
    const vi s = tb_pshufd(e, 0x4e); /* [e1, e0] */
    vi sum = tb_add16(e, s);
    if (round)
        sum = tb_add16(sum, vi_set1(0x00010001));
    /* (2 e0 + e1 [+ 1]) / 3 and (e0 + 2 e1 [+ 1]) / 3: x 21846 >> 16 */
    const vi t4 = tb_mulhi_u16(tb_add16(sum, e), vi_set1(0x55565556));
    /* c0 <= c1: P2 = (e0 + e1 [+ 1]) / 2, P3 = 0 (alpha too; SEL_ONE stays) */
    const vi t3 = vi_and(tb_srli16(sum, 1), k->keep3);
#if VEC_BITS >= 256
    /* c1 - c0 in the low dword of each qword, zero-extended: four colours where >= 2^31 */
    vi q = tb_madd16(vi_xor(col, vi_set1((int32_t)0x80008000u)), tb_bcast16(tb_wmode));
    if (!dxt1)
        q = vi_or(q, k->force4);
    const vi t = tb_sel_gt64(t3, t4, q, tb_set1_64(0x7fffffffu));
#else
    const vi c = (dxt1 ? tb_pshufd(col, 0x00) : tb_pshufd(col, 0xaa)); /* c0 | c1 << 16 */
    vi diff = tb_madd16(vi_xor(c, vi_set1((int32_t)0x80008000u)),
                        vi_set1((int32_t)0x0001ffffu)); /* c1 - c0 */
    if (!dxt1)
        diff = vi_or(diff, k->force4);
    const vi t = tb_sel_gt32(t3, t4, vi_set1(0), diff);
#endif
    const vi pal = tb_packus16(e, t); /* dwords [e0, e1, P2, P3], channels in output order */

    /* alpha per texel (DXT3/5): texel t's in byte t */
    vi alpha = vi_set1(0);
    if (cls == VFETCH_TEXEL_CLASS_DXT3) {
#if VEC_BITS == 512
        /* nibble t at the bottom of byte t, then n * 17 = n | n << 4 */
        const vi a = simde_mm512_multishift_epi64_epi8(tb_bcast16(tb_ms4), tb_pshufd(blk, 0x44));
        alpha = simde_mm512_ternarylogic_epi32(a, tb_slli16(a, 4), vi_set1(0x0f0f0f0f), 0xe4);
#else
        const vi nib = vi_set1(0x0f0f0f0f);
        const vi lo = vi_and(blk, nib), hi = vi_and(tb_srli16(blk, 4), nib);
        alpha = tb_pshufb(tb_bcast16(tb_lut17), tb_unpacklo8(lo, hi));
#endif
    } else if (cls == VFETCH_TEXEL_CLASS_DXT5) {
        alpha = tb_pshufb(tb_alpha_palette(blk, 0, round), tb_alpha_idx(blk, 0, 0));
    }

#if VEC_BITS >= 256
    /* a row: each texel's dword picked from its block's palette by an in-lane vpermilps whose
       control is the 2-bit index in bits 0..1 of each dword */
    const vi idx = tb_pshufd(col, 0x55);
    for (unsigned r = 0; r < 4; r++) {
        const vi v = tb_permilps(pal, tb_srlv32(idx, tb_bcast16(tb_shr_row[r])));
#if VEC_BITS == 512
        /* (alpha's bytes into the alpha channels: the colour palettes have 0 there) */
        rows[r] = dxt1 ? v
                       : simde_mm512_mask_shuffle_epi8(v, k->alpha_bytes, alpha,
                                                       tb_bcast16(tb_tex_row[r]));
#else
        rows[r] = dxt1 ? v : vi_or(v, tb_pshufb(alpha, k->asel[r]));
#endif
    }
#else
    /* colour indices x 4, column-major; a row: byte 4x + c reads palette byte 4 idx + c */
    const vi idx = tb_colour_idx((dxt1 ? tb_pshufd(col, 0x55) : tb_pshufd(col, 0xff)));
    const vi chan = vi_set1(0x03020100);
    for (unsigned r = 0; r < 4; r++) {
        const vi v = tb_pshufb(pal, vi_or(tb_pshufb(idx, tb_bcast16(tb_col_row[r])), chan));
        rows[r] = dxt1 ? v : vi_or(v, tb_pshufb(alpha, k->asel[r]));
    }
#endif
}

/* A row of BC values: the table's bytes as sel says, 0xff in SEL_ONE channels. */
VEC_INLINE vi tb_bc_row(vi v, vi sel, const struct tb_bc_k *k)
{
#if VEC_BITS == 512
    return simde_mm512_mask_shuffle_epi8(k->ones, k->not_one, v, sel);
#else
    return vi_or(tb_pshufb(v, sel), k->ones);
#endif
}

VEC_INLINE void tb_bc_rows(vi blk, const struct tb_bc_k *k, int bc5, vi rows[4])
{
    if (!bc5) {
        const vi v = tb_pshufb(tb_alpha_palette(blk, 0, 0), tb_alpha_idx(blk, 0, 1));
        for (unsigned r = 0; r < 4; r++)
            rows[r] = tb_bc_row(v, k->rowsel[r], k);
        return;
    }
    /* both palettes in one table: component 0's at bytes 0..7, 1's at 8..15 */
    const vi pal = tb_packus16(tb_alpha_words(blk, 0, 0), tb_alpha_words(blk, 8, 0));
    vi idx[2];
    tb_bc5_idx(blk, idx);
    const vi lo = tb_pshufb(pal, idx[0]), hi = tb_pshufb(pal, idx[1]); /* texels 0..7, 8..15 */
    rows[0] = tb_bc_row(lo, k->rowsel[0], k);
    rows[1] = tb_bc_row(lo, k->rowsel[1], k);
    rows[2] = tb_bc_row(hi, k->rowsel[2], k);
    rows[3] = tb_bc_row(hi, k->rowsel[3], k);
}

/* ---- output ---- */

/* RGBA32F: v -> (float)v / 255 exactly (see the top); w holds v * 0x10101 per 32-bit lane. */
VEC_INLINE void tb_store_f32(uint8_t *p, vi w)
{
    const vf a = vf_mul(vf_cvt(w), vf_set1(0x1p-24f));
#if VEC_BITS == 512
    vf_store((float *)(void *)p, simde_mm512_fmadd_ps(a, vf_set1(0x1p-24f), a)); /* a * 2^-24 exact */
#else
    vf_store((float *)(void *)p, vf_add(a, vf_mul(a, vf_set1(0x1p-24f))));
#endif
}

#if VEC_BITS == 512
/* dword i of chunk q: byte 16q + i three times (the fourth masked to 0) */
#define TB_F4(b) (b), (b), (b), 0
#define TB_F16(b) TB_F4(b), TB_F4((b) + 1), TB_F4((b) + 2), TB_F4((b) + 3)
static const uint8_t tb_f32_ctrl[4][64] TB_A64 = {
    { TB_F16(0), TB_F16(4), TB_F16(8), TB_F16(12) },
    { TB_F16(16), TB_F16(20), TB_F16(24), TB_F16(28) },
    { TB_F16(32), TB_F16(36), TB_F16(40), TB_F16(44) },
    { TB_F16(48), TB_F16(52), TB_F16(56), TB_F16(60) },
};
#elif VEC_BITS == 256
#define TB_F4(b) (b), (b), (b), 0x80
static const uint8_t tb_f32_ctrl[2][32] TB_A16 = {
    { TB_F4(0), TB_F4(1), TB_F4(2), TB_F4(3), TB_F4(4), TB_F4(5), TB_F4(6), TB_F4(7) },
    { TB_F4(8), TB_F4(9), TB_F4(10), TB_F4(11), TB_F4(12), TB_F4(13), TB_F4(14), TB_F4(15) },
};
#else
#define TB_F4(b) (b), (b), (b), 0x80
static const uint8_t tb_f32_ctrl[4][16] TB_A16 = {
    { TB_F4(0), TB_F4(1), TB_F4(2), TB_F4(3) },
    { TB_F4(4), TB_F4(5), TB_F4(6), TB_F4(7) },
    { TB_F4(8), TB_F4(9), TB_F4(10), TB_F4(11) },
    { TB_F4(12), TB_F4(13), TB_F4(14), TB_F4(15) },
};
#endif

/* One output row of TB_G blocks (16 RGBA8 bytes each) as RGBA32F: TB_G * 64 bytes at p. */
VEC_INLINE void tb_row_f32(uint8_t *p, vi row)
{
#if VEC_BITS == 512
    for (unsigned q = 0; q < 4; q++)
        tb_store_f32(p + 64 * q,
                     simde_mm512_maskz_permutexvar_epi8(0x7777777777777777ull,
                                                        simde_mm512_loadu_si512(tb_f32_ctrl[q]),
                                                        row));
#elif VEC_BITS == 256
    const vi c0 = simde_mm256_loadu_si256((const void *)tb_f32_ctrl[0]);
    const vi c1 = simde_mm256_loadu_si256((const void *)tb_f32_ctrl[1]);
    /* each block's 16 bytes in both lanes: lane 0 reads texel 0 (2), lane 1 texel 1 (3) */
    const vi lo = simde_mm256_permute4x64_epi64(row, 0x44);
    const vi hi = simde_mm256_permute4x64_epi64(row, 0xee);
    tb_store_f32(p, tb_pshufb(lo, c0));
    tb_store_f32(p + 32, tb_pshufb(lo, c1));
    tb_store_f32(p + 64, tb_pshufb(hi, c0));
    tb_store_f32(p + 96, tb_pshufb(hi, c1));
#else
    for (unsigned q = 0; q < 4; q++)
        tb_store_f32(p + 16 * q, tb_pshufb(row, tb_bcast16(tb_f32_ctrl[q])));
#endif
}

VEC_INLINE void tb_emit(uint8_t *dst, size_t pitch, const vi rows[4], int f32)
{
    for (unsigned r = 0; r < 4; r++) {
        if (f32)
            tb_row_f32(dst + r * pitch, rows[r]);
        else
            tb_storeu(dst + r * pitch, rows[r]);
    }
}

/* ---- the kernels ---- */

/* cls: DXT1/3/5 or BC4/5; f32: RGBA32F output; round: VFETCH_TEXEL_DXT_ROUND (DXT only). */
VEC_INLINE void tb_run(const struct vfetch_texel_plan *plan, const uint8_t *src, size_t n,
                       uint8_t *dst, size_t pitch, int cls, int f32, int round)
{
    const int dxt = cls == VFETCH_TEXEL_CLASS_DXT1 || cls == VFETCH_TEXEL_CLASS_DXT3 ||
                    cls == VFETCH_TEXEL_CLASS_DXT5;
    const int bytes8 = cls == VFETCH_TEXEL_CLASS_DXT1 || cls == VFETCH_TEXEL_CLASS_BC4;
    const size_t bb = bytes8 ? 8 : 16;
    const size_t ob = f32 ? 64 : 16; /* output bytes of a block's row */
    struct tb_dxt_k dk;
    struct tb_bc_k bk;
    if (dxt)
        tb_dxt_setup(plan, cls == VFETCH_TEXEL_CLASS_DXT1, &dk);
    else
        tb_bc_setup(plan, cls == VFETCH_TEXEL_CLASS_BC5, &bk);

    size_t i = 0;
    vi rows[4];
    for (; i + TB_G <= n; i += TB_G) {
        const uint8_t *p = src + i * bb;
        const vi blk = bytes8 ? tb_load8(p) : vi_loadu(p);
        if (dxt)
            tb_dxt_rows(blk, &dk, cls, round, rows);
        else
            tb_bc_rows(blk, &bk, cls == VFETCH_TEXEL_CLASS_BC5, rows);
        tb_emit(dst + i * ob, pitch, rows, f32);
    }
    if (__builtin_expect(i < n, 0)) {
        /* the last n - i < TB_G blocks: through the stack, so that nothing past src's
           n * bb bytes is read nor past the rows' ends written */
        uint8_t in[TB_G * 16];
        uint8_t out[4][TB_G * 64];
        memset(in, 0, sizeof in);
        memcpy(in, src + i * bb, (n - i) * bb);
        const vi blk = bytes8 ? tb_load8(in) : vi_loadu(in);
        if (dxt)
            tb_dxt_rows(blk, &dk, cls, round, rows);
        else
            tb_bc_rows(blk, &bk, cls == VFETCH_TEXEL_CLASS_BC5, rows);
        tb_emit(out[0], sizeof out[0], rows, f32);
        for (unsigned r = 0; r < 4; r++)
            memcpy(dst + r * pitch + i * ob, out[r], (n - i) * ob);
    }
}

#define TB_DXT(f32)                                                                         \
    do {                                                                                    \
        const int round = plan->options.dxt_interp == VFETCH_TEXEL_DXT_ROUND;               \
        switch (plan->format->cls) {                                                        \
        case VFETCH_TEXEL_CLASS_DXT1:                                                       \
            if (round)                                                                      \
                tb_run(plan, src, nblocks, dst, dst_pitch, VFETCH_TEXEL_CLASS_DXT1, f32, 1); \
            else                                                                            \
                tb_run(plan, src, nblocks, dst, dst_pitch, VFETCH_TEXEL_CLASS_DXT1, f32, 0); \
            break;                                                                          \
        case VFETCH_TEXEL_CLASS_DXT3:                                                       \
            if (round)                                                                      \
                tb_run(plan, src, nblocks, dst, dst_pitch, VFETCH_TEXEL_CLASS_DXT3, f32, 1); \
            else                                                                            \
                tb_run(plan, src, nblocks, dst, dst_pitch, VFETCH_TEXEL_CLASS_DXT3, f32, 0); \
            break;                                                                          \
        default:                                                                            \
            if (round)                                                                      \
                tb_run(plan, src, nblocks, dst, dst_pitch, VFETCH_TEXEL_CLASS_DXT5, f32, 1); \
            else                                                                            \
                tb_run(plan, src, nblocks, dst, dst_pitch, VFETCH_TEXEL_CLASS_DXT5, f32, 0); \
            break;                                                                          \
        }                                                                                   \
    } while (0)

static VFETCH_TEXEL_FN(tb_dxt_u8)
{
    TB_DXT(0);
}

static VFETCH_TEXEL_FN(tb_dxt_f32)
{
    TB_DXT(1);
}

static VFETCH_TEXEL_FN(tb_bc_u8)
{
    if (plan->format->cls == VFETCH_TEXEL_CLASS_BC5)
        tb_run(plan, src, nblocks, dst, dst_pitch, VFETCH_TEXEL_CLASS_BC5, 0, 0);
    else
        tb_run(plan, src, nblocks, dst, dst_pitch, VFETCH_TEXEL_CLASS_BC4, 0, 0);
}

static VFETCH_TEXEL_FN(tb_bc_f32)
{
    if (plan->format->cls == VFETCH_TEXEL_CLASS_BC5)
        tb_run(plan, src, nblocks, dst, dst_pitch, VFETCH_TEXEL_CLASS_BC5, 1, 0);
    else
        tb_run(plan, src, nblocks, dst, dst_pitch, VFETCH_TEXEL_CLASS_BC4, 1, 0);
}

#endif /* TB_ENABLED */

void NAME(vfetch_texel_block_init)(struct vfetch_texel_dsp *dsp)
{
#if TB_ENABLED
    dsp->dxt_u8 = tb_dxt_u8;
    dsp->dxt_f32 = tb_dxt_f32;
    dsp->bc_u8 = tb_bc_u8;
    dsp->bc_f32 = tb_bc_f32;
#else
    (void)dsp;
#endif
}
