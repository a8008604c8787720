/*
 * The primitive kernels (vfetch/prim.h) per ISA level: a draw's groups of indices, each group
 * the same pattern moved by a step per lane (lib/prim/program.c), written a block of vectors at
 * a time: one block is `lanes` groups, per_group vectors; each vector is its block-0 value plus
 * the base, then steps by one add per block: one store and one add a vector. The last part of a
 * block goes through a copy on the stack, so that nothing past the draw's indices is written.
 * 16- and 32-bit indices; a kernel per pattern size, so that the vectors stay in registers.
 */
#include <string.h>

#include "prim/prim_internal.h"
#include "simd/vec.h"

#define VEC_BYTES (VEC_BITS / 8)

#if VEC_BITS == 512
#define vi_add16 simde_mm512_add_epi16
#define vi_set16(x) simde_mm512_set1_epi16((int16_t)(x))
#define vi_storeu(p, x) simde_mm512_storeu_si512((void *)(p), (x))
#elif VEC_BITS == 256
#define vi_add16 simde_mm256_add_epi16
#define vi_set16(x) simde_mm256_set1_epi16((int16_t)(x))
#define vi_storeu(p, x) simde_mm256_storeu_si256((void *)(p), (x))
#else
#define vi_add16 simde_mm_add_epi16
#define vi_set16(x) simde_mm_set1_epi16((int16_t)(x))
#define vi_storeu(p, x) simde_mm_storeu_si128((void *)(p), (x))
#endif
#define vi_add32 vi_add
#define vi_set32 vi_set1

/* Vector k of a pattern of P (registers a<k>, s<k>: its value and its step a block; where k
   is past P they are never used and the compiler drops them). */
#define PRIM_INIT(W, P, k)                                                                  \
    const vi a##k##_0 = (P) > (k) ? vi_add##W(vi_loadu(v->first + (k) * VEC_BYTES),        \
                                              vi_and(b, vi_loadu(v->takes_base + (k) * VEC_BYTES))) \
                                  : b;                                                      \
    const vi s##k = (P) > (k) ? vi_loadu(v->step + (k) * VEC_BYTES) : b;                   \
    vi a##k = a##k##_0;
#define PRIM_STEP(W, P, k)                                                                  \
    if ((P) > (k)) {                                                                        \
        vi_storeu(o + (k) * VEC_BYTES, a##k);                                               \
        a##k = vi_add##W(a##k, s##k);                                                       \
    }
#define PRIM_SPILL(P, k)                                                                    \
    if ((P) > (k))                                                                          \
        vi_storeu(tail + (k) * VEC_BYTES, a##k);

/* groups 0 .. groups - 1 of a pattern of P indices of W bits, the vectors in registers */
#define PRIM_KERNEL(W, P)                                                                   \
    static int NAME(prim_blocks##W##_##P)(const struct prim_vectors *v, uint32_t base,      \
                                          size_t groups, void *out)                         \
    {                                                                                       \
        const size_t lanes = VEC_BYTES / (W / 8);                                           \
        const vi b = vi_set##W(base);                                                       \
        PRIM_INIT(W, P, 0)                                                                  \
        PRIM_INIT(W, P, 1)                                                                  \
        PRIM_INIT(W, P, 2)                                                                  \
        PRIM_INIT(W, P, 3)                                                                  \
        PRIM_INIT(W, P, 4)                                                                  \
        PRIM_INIT(W, P, 5)                                                                  \
        uint8_t *o = out;                                                                   \
        for (size_t blocks = groups / lanes; blocks; blocks--) {                            \
            PRIM_STEP(W, P, 0)                                                              \
            PRIM_STEP(W, P, 1)                                                              \
            PRIM_STEP(W, P, 2)                                                              \
            PRIM_STEP(W, P, 3)                                                              \
            PRIM_STEP(W, P, 4)                                                              \
            PRIM_STEP(W, P, 5)                                                              \
            o += (P) * VEC_BYTES;                                                           \
        }                                                                                   \
        const size_t rest = groups % lanes;                                                 \
        if (rest) {                                                                         \
            _Alignas(64) uint8_t tail[(P) * VEC_BYTES];                                     \
            PRIM_SPILL(P, 0)                                                                \
            PRIM_SPILL(P, 1)                                                                \
            PRIM_SPILL(P, 2)                                                                \
            PRIM_SPILL(P, 3)                                                                \
            PRIM_SPILL(P, 4)                                                                \
            PRIM_SPILL(P, 5)                                                                \
            memcpy(o, tail, rest * (P) * (W / 8));                                          \
        }                                                                                   \
        return 0;                                                                           \
    }

/* A pattern of one index a group (points, strips drawn as they are): one vector a block, so
   two chains, stepping two blocks each, that the adds' latency does not bound the stores. */
#define PRIM_KERNEL_1(W)                                                                    \
    static int NAME(prim_blocks##W##_1)(const struct prim_vectors *v, uint32_t base,        \
                                        size_t groups, void *out)                           \
    {                                                                                       \
        const size_t lanes = VEC_BYTES / (W / 8);                                           \
        const vi s = vi_loadu(v->step);                                                     \
        const vi s2 = vi_add##W(s, s);                                                      \
        vi a = vi_add##W(vi_loadu(v->first), vi_and(vi_set##W(base), vi_loadu(v->takes_base))); \
        vi c = vi_add##W(a, s);                                                             \
        uint8_t *o = out;                                                                   \
        size_t blocks = groups / lanes;                                                     \
        for (; blocks >= 2; blocks -= 2) {                                                  \
            vi_storeu(o, a);                                                                \
            vi_storeu(o + VEC_BYTES, c);                                                    \
            a = vi_add##W(a, s2);                                                           \
            c = vi_add##W(c, s2);                                                           \
            o += 2 * VEC_BYTES;                                                             \
        }                                                                                   \
        if (blocks) {                                                                       \
            vi_storeu(o, a);                                                                \
            a = c;                                                                          \
            o += VEC_BYTES;                                                                 \
        }                                                                                   \
        const size_t rest = groups % lanes;                                                 \
        if (rest) {                                                                         \
            _Alignas(64) uint8_t tail[VEC_BYTES];                                           \
            vi_storeu(tail, a);                                                             \
            memcpy(o, tail, rest * (W / 8));                                                \
        }                                                                                   \
        return 0;                                                                           \
    }

#define PRIM_KERNELS(W)                                                                     \
    PRIM_KERNEL_1(W)                                                                        \
    PRIM_KERNEL(W, 2)                                                                       \
    PRIM_KERNEL(W, 3)                                                                       \
    PRIM_KERNEL(W, 4)                                                                       \
    PRIM_KERNEL(W, 5)                                                                       \
    PRIM_KERNEL(W, 6)                                                                       \
    static int NAME(prim_blocks##W)(const struct prim_vectors *v, uint32_t base,            \
                                    size_t groups, void *out)                               \
    {                                                                                       \
        switch (v->per_group) {                                                             \
        case 1: return NAME(prim_blocks##W##_1)(v, base, groups, out);                      \
        case 2: return NAME(prim_blocks##W##_2)(v, base, groups, out);                      \
        case 3: return NAME(prim_blocks##W##_3)(v, base, groups, out);                      \
        case 4: return NAME(prim_blocks##W##_4)(v, base, groups, out);                      \
        case 5: return NAME(prim_blocks##W##_5)(v, base, groups, out);                      \
        default: return NAME(prim_blocks##W##_6)(v, base, groups, out);                     \
        }                                                                                   \
    }

PRIM_KERNELS(16)
PRIM_KERNELS(32)

/* The n (at most one block) first indices of a draw: the block's first values plus the base
   where they take it, a whole vector at a time, then 16 bytes, the last 2 to 14 bytes stored as
   8, 4 and 2 (nothing past them). A short draw is a few instructions, not a block. */
static int NAME(prim_small)(const struct prim_vectors *v, uint32_t base, size_t n, int wide,
                            void *out)
{
    const size_t bytes = n * (wide ? 4 : 2);
    uint8_t *o = out;
    size_t at = 0;
#if VEC_BITS > 128
    if (bytes >= VEC_BYTES) {
        const vi bv = wide ? vi_set32(base) : vi_set16(base);
        for (; bytes - at >= VEC_BYTES; at += VEC_BYTES) {
            const vi t = vi_and(bv, vi_loadu(v->takes_base + at));
            const vi f = vi_loadu(v->first + at);
            vi_storeu(o + at, wide ? vi_add32(f, t) : vi_add16(f, t));
        }
        if (at == bytes)
            return 0;
    }
#endif
    const simde__m128i b = wide ? simde_mm_set1_epi32((int32_t)base)
                                : simde_mm_set1_epi16((int16_t)base);
    for (;; at += 16) {
        const simde__m128i f = simde_mm_loadu_si128((const void *)(v->first + at));
        const simde__m128i t = simde_mm_and_si128(b, simde_mm_loadu_si128((const void *)(v->takes_base + at)));
        const simde__m128i x = wide ? simde_mm_add_epi32(f, t) : simde_mm_add_epi16(f, t);
        const size_t left = bytes - at;
        if (left >= 16) {
            simde_mm_storeu_si128((void *)(o + at), x);
            if (left == 16)
                return 0;
            continue;
        }
        uint8_t lane[16];
        simde_mm_storeu_si128((void *)lane, x);
        size_t k = 0;
        if (left & 8) {
            memcpy(o + at, lane, 8);
            k = 8;
        }
        if (left & 4) {
            memcpy(o + at + k, lane + k, 4);
            k += 4;
        }
        if (left & 2)
            memcpy(o + at + k, lane + k, 2);
        return 0;
    }
}

#define PRIM_STR2(x) #x
#define PRIM_STR(x) PRIM_STR2(x)

void NAME(vfetch_prim_init)(struct vfetch_prim_dsp *dsp)
{
    dsp->blocks16 = NAME(prim_blocks16);
    dsp->small = NAME(prim_small);
    dsp->blocks32 = NAME(prim_blocks32);
    dsp->vec_bytes = VEC_BYTES;
    dsp->level = PRIM_STR(VFETCH_ISA);
}
