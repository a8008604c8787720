/*
 * The byte-reversing word copy of word-copy plans (lib/word_copy.c) per ISA level: a byte
 * shuffle per vector, four vectors a step, the last vectors overlapping; copies shorter than a
 * vector in 16-byte steps, shorter than 16 bytes a word at a time. Four vectors a step halve
 * the loop's instructions a byte: a loop of one vector a step ran 1.5-1.7x slower (Zen 3,
 * docs/decisions.md, "Measured choices"). Levels without a byte shuffle
 * (sse2) leave the reference's loop in the table. The copy as stored is libc's memcpy at every
 * level: vector loops of our own were slower than it, unrolled or with aligned stores alike,
 * though an instruction count sees its rep movsb as a byte an instruction (docs/decisions.md,
 * "Measured choices").
 */
#include <string.h>

#include "dsp.h"
#include "simd/vec.h"

#if defined(VFETCH_ISA_SSE41) || defined(VFETCH_ISA_NEON) || defined(VFETCH_ISA_AVX2) ||  \
    defined(VFETCH_ISA_AVX512)

#if VEC_BITS == 128
#include <simde/x86/ssse3.h>
#endif

/* Each 32-bit word's bytes reversed, within each 128-bit lane. */
static const _Alignas(64) uint8_t copy_bswap32_ctrl[64] = {
#define COPY_LANE 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
    COPY_LANE, COPY_LANE, COPY_LANE, COPY_LANE
#undef COPY_LANE
};

/* `bytes` (a multiple of 4) from src to dst, each 32-bit word's bytes reversed: whole vectors,
   the last one overlapping the one before (word-aligned, and src and dst do not overlap, so
   it stores the same bytes again), so that a short draw (four 16-byte vertices) is a few
   vector steps and no word loop. */
#if VEC_BITS == 256
#define COPY_BSWAP32_VEC(at)                                                                \
    simde_mm256_storeu_si256((void *)(dst + (at)),                                          \
        simde_mm256_shuffle_epi8(simde_mm256_loadu_si256((const void *)(src + (at))), ctrl))
#elif VEC_BITS == 512
#define COPY_BSWAP32_VEC(at)                                                                \
    simde_mm512_storeu_si512((void *)(dst + (at)),                                          \
        simde_mm512_shuffle_epi8(simde_mm512_loadu_si512((const void *)(src + (at))), ctrl))
#endif
#define COPY_BSWAP32_16(at)                                                                 \
    simde_mm_storeu_si128((void *)(dst + (at)),                                             \
        simde_mm_shuffle_epi8(simde_mm_loadu_si128((const void *)(src + (at))), ctrl128))

static void NAME(copy_bswap32)(const uint8_t *src, uint8_t *dst, size_t bytes)
{
#if VEC_BITS > 128
    enum { V = VEC_BITS / 8 };
    if (bytes >= V) {
        const vi ctrl = vi_loadu(copy_bswap32_ctrl);
        size_t i = 0;
        for (; i + 4 * V < bytes; i += 4 * V) {
            COPY_BSWAP32_VEC(i);
            COPY_BSWAP32_VEC(i + V);
            COPY_BSWAP32_VEC(i + 2 * V);
            COPY_BSWAP32_VEC(i + 3 * V);
        }
        for (; i + V < bytes; i += V)
            COPY_BSWAP32_VEC(i);
        COPY_BSWAP32_VEC(bytes - V);
        return;
    }
#endif
    if (bytes >= 16) {
        const simde__m128i ctrl128 = simde_mm_loadu_si128((const void *)copy_bswap32_ctrl);
        size_t i = 0;
        for (; i + 64 < bytes; i += 64) {
            COPY_BSWAP32_16(i);
            COPY_BSWAP32_16(i + 16);
            COPY_BSWAP32_16(i + 32);
            COPY_BSWAP32_16(i + 48);
        }
        for (; i + 16 < bytes; i += 16)
            COPY_BSWAP32_16(i);
        COPY_BSWAP32_16(bytes - 16);
        return;
    }
    for (size_t i = 0; i < bytes; i += 4) {
        uint32_t w;
        memcpy(&w, src + i, 4);
        w = w >> 24 | (w >> 8 & 0xff00) | (w << 8 & 0xff0000) | w << 24;
        memcpy(dst + i, &w, 4);
    }
}

void NAME(vfetch_copy_init)(struct vfetch_dsp *dsp)
{
    dsp->bswap32_copy = NAME(copy_bswap32);
}

#else

void NAME(vfetch_copy_init)(struct vfetch_dsp *dsp)
{
    (void)dsp; /* no byte shuffle at this level: the reference's loop */
}

#endif
