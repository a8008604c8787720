/*
 * Width-generic vector helpers for the SIMD templates, written with SIMDe. Each ISA level
 * compiles the templates at its natural width:
 *
 *   sse2, sse41, neon   128-bit  VEC_LANES 4
 *   avx2                256-bit  VEC_LANES 8
 *   avx512              512-bit  VEC_LANES 16
 *
 * Only what the kernels need is here. Where SIMDe 0.7.4 lacks a 512-bit function (cvtepi32_ps,
 * cvtph_ps) the helper uses the native intrinsic when SIMDe maps natively, else two 256-bit
 * halves, so that SIMDE_NO_NATIVE builds still work.
 */
#ifndef VFETCH_SIMD_VEC_H
#define VFETCH_SIMD_VEC_H

#include <stdint.h>

#if defined(VFETCH_ISA_AVX512)
#include <simde/x86/avx512.h>
#include <simde/x86/f16c.h>
#define VEC_BITS 512
#elif defined(VFETCH_ISA_AVX2)
#include <simde/x86/avx2.h>
#include <simde/x86/f16c.h>
#define VEC_BITS 256
#elif defined(VFETCH_ISA_SSE41)
#include <simde/x86/sse4.1.h>
#define VEC_BITS 128
#else /* sse2, neon */
#include <simde/x86/sse2.h>
#define VEC_BITS 128
#endif

#define VEC_LANES (VEC_BITS / 32)

/* F16C only where it is the real instruction: SIMDe's emulation keeps signalling-NaN bits
   (hardware quiets them) and is a slow scalar loop; the integer path is exact everywhere. */
#if VEC_BITS >= 256 && defined(SIMDE_X86_F16C_NATIVE)
#define VEC_HAVE_F16C 1
#else
#define VEC_HAVE_F16C 0
#endif

/* Entry points get the level's suffix: NAME(convert) -> convert_avx2 ... */
#define VEC_CAT2(a, b) a##_##b
#define VEC_CAT(a, b) VEC_CAT2(a, b)
#define NAME(x) VEC_CAT(x, VFETCH_ISA)

#define VEC_INLINE static inline __attribute__((always_inline))

#if VEC_BITS == 512
typedef simde__m512i vi;
typedef simde__m512 vf;
#define vi_loadu(p) simde_mm512_loadu_si512((const void *)(p))
#define vi_set1(x) simde_mm512_set1_epi32((int32_t)(x))
#define vi_and simde_mm512_and_si512
#define vi_or simde_mm512_or_si512
#define vi_xor simde_mm512_xor_si512
#define vi_add simde_mm512_add_epi32
#define vi_sub simde_mm512_sub_epi32
#define vi_sll(x, n) simde_mm512_sll_epi32((x), simde_mm_cvtsi32_si128((int)(n)))
#define vi_srl(x, n) simde_mm512_srl_epi32((x), simde_mm_cvtsi32_si128((int)(n)))
#define vi_slli(x, n) simde_mm512_slli_epi32((x), (n))
#define vi_srli(x, n) simde_mm512_srli_epi32((x), (n))
#define vi_andnot simde_mm512_andnot_si512
#define vf_set1(x) simde_mm512_set1_ps(x)
#define vf_mul simde_mm512_mul_ps
#define vf_add simde_mm512_add_ps
#define vf_div simde_mm512_div_ps
#define vf_max simde_mm512_max_ps
#define vf_as_vi simde_mm512_castps_si512
#define vi_as_vf simde_mm512_castsi512_ps
#define vf_store(p, x) simde_mm512_storeu_ps((p), (x))
/* Per lane: x < y (signed) ? t : f. */
VEC_INLINE vi vi_select_lt(vi x, vi y, vi f, vi t)
{
    return simde_mm512_mask_blend_epi32(simde_mm512_cmpgt_epi32_mask(y, x), f, t);
}
VEC_INLINE vf vf_cvt(vi x)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
    return _mm512_cvtepi32_ps(x);
#else
    const simde__m256 lo = simde_mm256_cvtepi32_ps(simde_mm512_castsi512_si256(x));
    const simde__m256 hi = simde_mm256_cvtepi32_ps(simde_mm512_extracti64x4_epi64(x, 1));
    return simde_mm512_insertf32x8(simde_mm512_castps256_ps512(lo), hi, 1);
#endif
}
#if VEC_HAVE_F16C
/* 16 halves packed in 256 bits to floats. */
VEC_INLINE vf vf_from_packed_halves(simde__m256i h)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
    return _mm512_cvtph_ps(h);
#else
    const simde__m256 lo = simde_mm256_cvtph_ps(simde_mm256_castsi256_si128(h));
    const simde__m256 hi = simde_mm256_cvtph_ps(simde_mm256_extracti128_si256(h, 1));
    return simde_mm512_insertf32x8(simde_mm512_castps256_ps512(lo), hi, 1);
#endif
}
/* Halves in the low 16 bits of each lane to floats. */
VEC_INLINE vf vf_from_half_lanes(vi x)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
    return vf_from_packed_halves(_mm512_cvtepi32_epi16(x));
#else
    /* values < 2^16, so the unsigned saturating pack is exact */
    const simde__m256i lo = simde_mm512_castsi512_si256(x), hi = simde_mm512_extracti64x4_epi64(x, 1);
    return vf_from_packed_halves(simde_mm256_permute4x64_epi64(simde_mm256_packus_epi32(lo, hi), 0xd8));
#endif
}
#endif
/* Unsigned 16-bit multiply-high (SIMDe 0.7.4 has no 512-bit vpmulhuw): the native intrinsic
   where SIMDe maps natively, else two 256-bit halves (SIMDE_NO_NATIVE builds). */
VEC_INLINE vi vi_mulhi_u16(vi a, vi b)
{
#if defined(SIMDE_X86_AVX512BW_NATIVE)
    return _mm512_mulhi_epu16(a, b);
#else
    const simde__m256i lo = simde_mm256_mulhi_epu16(simde_mm512_castsi512_si256(a),
                                                     simde_mm512_castsi512_si256(b));
    const simde__m256i hi = simde_mm256_mulhi_epu16(simde_mm512_extracti64x4_epi64(a, 1),
                                                     simde_mm512_extracti64x4_epi64(b, 1));
    return simde_mm512_inserti64x4(simde_mm512_castsi256_si512(lo), hi, 1);
#endif
}
#define VEC_UNPACKLO_PS simde_mm512_unpacklo_ps
#define VEC_UNPACKHI_PS simde_mm512_unpackhi_ps
#define VEC_UNPACKLO_PD simde_mm512_unpacklo_pd
#define VEC_UNPACKHI_PD simde_mm512_unpackhi_pd
#define VEC_PS_AS_PD simde_mm512_castps_pd
#define VEC_PD_AS_PS simde_mm512_castpd_ps
/* 128-bit lane j of x. */
#define vf_lane128(x, j)                                                                    \
    ((j) == 0 ? simde_mm512_extractf32x4_ps((x), 0)                                         \
     : (j) == 1 ? simde_mm512_extractf32x4_ps((x), 1)                                       \
     : (j) == 2 ? simde_mm512_extractf32x4_ps((x), 2)                                       \
                : simde_mm512_extractf32x4_ps((x), 3))

#elif VEC_BITS == 256
typedef simde__m256i vi;
typedef simde__m256 vf;
#define vi_loadu(p) simde_mm256_loadu_si256((const void *)(p))
#define vi_set1(x) simde_mm256_set1_epi32((int32_t)(x))
#define vi_and simde_mm256_and_si256
#define vi_or simde_mm256_or_si256
#define vi_xor simde_mm256_xor_si256
#define vi_add simde_mm256_add_epi32
#define vi_sub simde_mm256_sub_epi32
#define vi_sll(x, n) simde_mm256_sll_epi32((x), simde_mm_cvtsi32_si128((int)(n)))
#define vi_srl(x, n) simde_mm256_srl_epi32((x), simde_mm_cvtsi32_si128((int)(n)))
#define vi_slli(x, n) simde_mm256_slli_epi32((x), (n))
#define vi_srli(x, n) simde_mm256_srli_epi32((x), (n))
#define vi_andnot simde_mm256_andnot_si256
#define vf_set1(x) simde_mm256_set1_ps(x)
#define vf_mul simde_mm256_mul_ps
#define vf_add simde_mm256_add_ps
#define vf_div simde_mm256_div_ps
#define vf_max simde_mm256_max_ps
#define vf_as_vi simde_mm256_castps_si256
#define vi_as_vf simde_mm256_castsi256_ps
#define vf_store(p, x) simde_mm256_storeu_ps((p), (x))
#define vf_cvt simde_mm256_cvtepi32_ps
VEC_INLINE vi vi_select_lt(vi x, vi y, vi f, vi t)
{
    const vi lt = simde_mm256_cmpgt_epi32(y, x);
    return simde_mm256_or_si256(simde_mm256_and_si256(lt, t), simde_mm256_andnot_si256(lt, f));
}
#if VEC_HAVE_F16C
/* Halves in the low 16 bits of each lane to floats (values < 2^16, so packus is exact). */
VEC_INLINE vf vf_from_half_lanes(vi x)
{
    const vi packed = simde_mm256_permute4x64_epi64(simde_mm256_packus_epi32(x, x), 0x08);
    return simde_mm256_cvtph_ps(simde_mm256_castsi256_si128(packed));
}
#endif
#define VEC_UNPACKLO_PS simde_mm256_unpacklo_ps
#define VEC_UNPACKHI_PS simde_mm256_unpackhi_ps
#define VEC_UNPACKLO_PD simde_mm256_unpacklo_pd
#define VEC_UNPACKHI_PD simde_mm256_unpackhi_pd
#define VEC_PS_AS_PD simde_mm256_castps_pd
#define VEC_PD_AS_PS simde_mm256_castpd_ps
#define vf_lane128(x, j)                                                                    \
    ((j) == 0 ? simde_mm256_castps256_ps128(x) : simde_mm256_extractf128_ps((x), 1))

#else /* 128 */
typedef simde__m128i vi;
typedef simde__m128 vf;
#define vi_loadu(p) simde_mm_loadu_si128((const void *)(p))
#define vi_set1(x) simde_mm_set1_epi32((int32_t)(x))
#define vi_and simde_mm_and_si128
#define vi_or simde_mm_or_si128
#define vi_xor simde_mm_xor_si128
#define vi_add simde_mm_add_epi32
#define vi_sub simde_mm_sub_epi32
#define vi_sll(x, n) simde_mm_sll_epi32((x), simde_mm_cvtsi32_si128((int)(n)))
#define vi_srl(x, n) simde_mm_srl_epi32((x), simde_mm_cvtsi32_si128((int)(n)))
#define vi_slli(x, n) simde_mm_slli_epi32((x), (n))
#define vi_srli(x, n) simde_mm_srli_epi32((x), (n))
#define vi_andnot simde_mm_andnot_si128
#define vf_set1(x) simde_mm_set1_ps(x)
#define vf_mul simde_mm_mul_ps
#define vf_add simde_mm_add_ps
#define vf_div simde_mm_div_ps
#define vf_max simde_mm_max_ps
#define vf_as_vi simde_mm_castps_si128
#define vi_as_vf simde_mm_castsi128_ps
#define vf_store(p, x) simde_mm_storeu_ps((p), (x))
#define vf_cvt simde_mm_cvtepi32_ps
VEC_INLINE vi vi_select_lt(vi x, vi y, vi f, vi t)
{
    const vi lt = simde_mm_cmplt_epi32(x, y);
    return simde_mm_or_si128(simde_mm_and_si128(lt, t), simde_mm_andnot_si128(lt, f));
}
#define VEC_UNPACKLO_PS simde_mm_unpacklo_ps
#define VEC_UNPACKHI_PS simde_mm_unpackhi_ps
#define VEC_UNPACKLO_PD simde_mm_unpacklo_pd
#define VEC_UNPACKHI_PD simde_mm_unpackhi_pd
#define VEC_PS_AS_PD simde_mm_castps_pd
#define VEC_PD_AS_PS simde_mm_castpd_ps
#define vf_lane128(x, j) (x)
#endif

/*
 * Window fetch (levels with a byte shuffle: pshufb, or tbl on NEON): w[i] holds vertex i's
 * containers in 32-bit lanes 0..3; vec_window_comps transposes VEC_LANES of them so that
 * comp[c] lane i is container c of vertex i, the layout the per-op kernels convert.
 */
#if defined(VFETCH_ISA_SSE41) || defined(VFETCH_ISA_NEON) || defined(VFETCH_ISA_AVX2) ||  \
    defined(VFETCH_ISA_AVX512)
#define VEC_HAVE_SHUFFLE 1
#if VEC_BITS == 128
#include <simde/x86/ssse3.h>
#endif
#if VEC_BITS == 512
#define VEC_UNPACKLO_EPI32 simde_mm512_unpacklo_epi32
#define VEC_UNPACKHI_EPI32 simde_mm512_unpackhi_epi32
#define VEC_UNPACKLO_EPI64 simde_mm512_unpacklo_epi64
#define VEC_UNPACKHI_EPI64 simde_mm512_unpackhi_epi64
VEC_INLINE vi vec_join128(const simde__m128i *w, unsigned j)
{
    vi x = simde_mm512_castsi128_si512(w[j]);
    x = simde_mm512_inserti32x4(x, w[j + 4], 1);
    x = simde_mm512_inserti32x4(x, w[j + 8], 2);
    return simde_mm512_inserti32x4(x, w[j + 12], 3);
}
#elif VEC_BITS == 256
#define VEC_UNPACKLO_EPI32 simde_mm256_unpacklo_epi32
#define VEC_UNPACKHI_EPI32 simde_mm256_unpackhi_epi32
#define VEC_UNPACKLO_EPI64 simde_mm256_unpacklo_epi64
#define VEC_UNPACKHI_EPI64 simde_mm256_unpackhi_epi64
VEC_INLINE vi vec_join128(const simde__m128i *w, unsigned j)
{
    return simde_mm256_set_m128i(w[j + 4], w[j]);
}
#else
#define VEC_UNPACKLO_EPI32 simde_mm_unpacklo_epi32
#define VEC_UNPACKHI_EPI32 simde_mm_unpackhi_epi32
#define VEC_UNPACKLO_EPI64 simde_mm_unpacklo_epi64
#define VEC_UNPACKHI_EPI64 simde_mm_unpackhi_epi64
VEC_INLINE vi vec_join128(const simde__m128i *w, unsigned j)
{
    return w[j];
}
#endif
VEC_INLINE void vec_window_comps(const simde__m128i w[VEC_LANES], vi comp[4])
{
    /* 128-bit lane q of x_j holds vertex 4q + j; a 4x4 transpose within each 128-bit lane
       then gives lane 4q + j of comp[c] = container c of vertex 4q + j. */
    const vi x0 = vec_join128(w, 0), x1 = vec_join128(w, 1);
    const vi x2 = vec_join128(w, 2), x3 = vec_join128(w, 3);
    const vi t0 = VEC_UNPACKLO_EPI32(x0, x1), t1 = VEC_UNPACKHI_EPI32(x0, x1);
    const vi t2 = VEC_UNPACKLO_EPI32(x2, x3), t3 = VEC_UNPACKHI_EPI32(x2, x3);
    comp[0] = VEC_UNPACKLO_EPI64(t0, t2);
    comp[1] = VEC_UNPACKHI_EPI64(t0, t2);
    comp[2] = VEC_UNPACKLO_EPI64(t1, t3);
    comp[3] = VEC_UNPACKHI_EPI64(t1, t3);
}
#else
#define VEC_HAVE_SHUFFLE 0
#endif

/*
 * binary16 -> binary32 bits without F16C, integer operations only (so FTZ/DAZ cannot touch
 * it): normals rebias, denormals go through an exact int->float conversion and an exact
 * multiply by 2^-24 (the results are normal floats), inf keeps its sign, NaNs keep their
 * payload and get the quiet bit, as vcvtph2ps does. Input: halves in the low 16 bits.
 */
VEC_INLINE vi vi_half_to_float_bits(vi h)
{
    const vi sign = vi_slli(vi_and(h, vi_set1(0x8000)), 16);
    const vi em = vi_and(h, vi_set1(0x7fff));
    const vi normal = vi_add(vi_slli(em, 13), vi_set1(112 << 23)); /* rebias 15 -> 127 */
    const vi denormal = vf_as_vi(vf_mul(vf_cvt(em), vf_set1(0x1p-24f)));
    const vi special = vi_or(vi_or(vi_slli(em, 13), vi_set1(0x7f800000)),
                             vi_select_lt(vi_set1(0x7c00), em, vi_set1(0), vi_set1(0x00400000)));
    vi r = vi_select_lt(em, vi_set1(0x0400), normal, denormal);
    r = vi_select_lt(vi_set1(0x7bff), em, r, special);
    return vi_or(r, sign);
}

#endif
