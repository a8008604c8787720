/*
 * What the texel kernels of the 1x1 classes share, one compilation per ISA level (see vec.h):
 * PACKED -> RGBA32F (texel_packed_f32_tmpl.c), PACKED -> RGBA8 (texel_packed_u8_tmpl.c) and
 * FLOAT16/32 -> RGBA32F (texel_float_tmpl.c). The reference is lib/ref/texel_ref.c; every
 * kernel gives its bytes exactly, and tests/checkasm/texel.c checks every level against
 * it.
 *
 * Each family's prepare runs once per plan (compile.c): every per-plan constant (shift counts,
 * divisors, shuffle controls, table choices) is kept in the family's slot of
 * plan->kernel_data, so that a kernel call (one row of a surface) only loads them. A slot
 * starts with a tag, the prepare that filled it: data another level prepared is recomputed on
 * the stack.
 *
 * Every kernel decodes groups of G texels with loads and stores of exactly G texels' bytes;
 * the last partial group goes through a zeroed stack copy of its source and a stack output
 * that is copied out, so no byte outside the caller's buffers is read or written.
 */
#ifndef VFETCH_SIMD_TEXEL_VEC_H
#define VFETCH_SIMD_TEXEL_VEC_H

#include <stdint.h>

#include "simd/vec.h"
#include "texel/texel_internal.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the SIMD kernels assume a little-endian host"
#endif

#if defined(VFETCH_ISA_SSE2) || defined(VFETCH_ISA_SSE41) || defined(VFETCH_ISA_AVX2) ||   \
    defined(VFETCH_ISA_AVX512)
#define TEX_X86 1
#else
#define TEX_X86 0 /* neon: the entries stay NULL, the reference runs */
#endif

/* ---- the per-plan data ---- */

/* Fill a family's slot for `prepare` (the family's prepare at this level): returns where its
   data goes. */
static inline void *texel_slot_fill(uint64_t *slot, vfetch_texel_prepare_fn *prepare)
{
    slot[0] = (uint64_t)(uintptr_t)prepare;
    return slot + 1;
}

/* The data in a family's slot if `prepare` filled it, else NULL (another level's prepare did:
   the caller computes the data on the stack). */
static inline const void *texel_slot_data(const uint64_t *slot, vfetch_texel_prepare_fn *prepare)
{
    return slot[0] == (uint64_t)(uintptr_t)prepare ? slot + 1 : NULL;
}

/* A family's data fits its slot of plan->kernel_data (a member name) after the tag. */
#define TEXEL_SLOT_FITS(type, member)                                                        \
    _Static_assert(sizeof(type) + sizeof(uint64_t) <=                                        \
                       sizeof(((struct vfetch_texel_plan *)0)->kernel_data.member),          \
                   #type " fits kernel_data." #member)

/* The float constant of a SEL_ZERO / SEL_ONE channel. */
static inline float sel_const(unsigned sel)
{
    return sel == VFETCH_TEXEL_SEL_ONE ? 1.0f : 0.0f;
}

/* ---- vectors ---- */

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

/* A shift count for the shifts that take one in a register (sll, srl). */
VEC_INLINE simde__m128i count_of(int n)
{
    return simde_mm_cvtsi32_si128(n);
}

/* Loops over short bodies run U bodies an iteration: a loop of a few instructions that
   straddles a 64-byte code window can run at one iteration per window per cycle, so its speed
   would depend on where it lands; unrolled, the stores bound it wherever it lands. */
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

/* 16 containers of 1 or 2 bytes into the bottom of their 32-bit lanes (the bits above are
   other bytes of the source: every use shifts or masks them away). */
VEC_INLINE vi place_containers(vi ctrl, const uint8_t *s, unsigned bb)
{
    const vi x = bb == 1 ? simde_mm512_castsi128_si512(simde_mm_loadu_si128((const void *)s))
                         : simde_mm512_castsi256_si512(simde_mm256_loadu_si256((const void *)s));
    return simde_mm512_permutexvar_epi8(ctrl, x);
}
#endif

#endif
