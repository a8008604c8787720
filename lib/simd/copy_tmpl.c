/*
 * The byte-reversing word copy of word-copy plans (lib/word_copy.c) per ISA level: a byte
 * shuffle per vector, then 16-byte steps, then single words. Levels without a byte shuffle
 * (sse2) leave the reference's loop in the table. The copy as stored is libc's memcpy at every
 * level: vector loops measured 1.3-2x slower than it (r300-float8, 4,096 vertices, Zen 5:
 * 1.2 us memcpy, 1.7 us 256/512-bit loops, unrolled or with aligned stores alike), though
 * callgrind counts its rep movsb a byte an instruction (docs/benchmarks.md).
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

static void NAME(copy_bswap32)(const uint8_t *src, uint8_t *dst, size_t bytes)
{
    size_t i = 0;
#if VEC_BITS > 128
    const vi ctrl = vi_loadu(copy_bswap32_ctrl);
    for (; i + VEC_BITS / 8 <= bytes; i += VEC_BITS / 8) {
#if VEC_BITS == 256
        simde_mm256_storeu_si256((void *)(dst + i),
            simde_mm256_shuffle_epi8(simde_mm256_loadu_si256((const void *)(src + i)), ctrl));
#else
        simde_mm512_storeu_si512((void *)(dst + i),
            simde_mm512_shuffle_epi8(simde_mm512_loadu_si512((const void *)(src + i)), ctrl));
#endif
    }
#endif
    const simde__m128i ctrl128 = simde_mm_loadu_si128((const void *)copy_bswap32_ctrl);
    for (; i + 16 <= bytes; i += 16)
        simde_mm_storeu_si128((void *)(dst + i),
            simde_mm_shuffle_epi8(simde_mm_loadu_si128((const void *)(src + i)), ctrl128));
    for (; i < bytes; i += 4) {
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
