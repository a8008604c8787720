/* The ISA ladder's levels (ladder.h). */
#include "ladder.h"

#if defined(__x86_64__) || defined(__i386__)
const unsigned vfetch_ladder_flag[] = { VFETCH_CPU_SSE2, VFETCH_CPU_SSE41, VFETCH_CPU_AVX2,
                                        VFETCH_CPU_AVX512 };
const char *const vfetch_ladder_name[] = { "sse2", "sse41", "avx2", "avx512" };
static const int ladder_built[] = { VFETCH_BUILT_SSE2, VFETCH_BUILT_SSE41, VFETCH_BUILT_AVX2,
                                    VFETCH_BUILT_AVX512 };
#elif defined(__aarch64__)
const unsigned vfetch_ladder_flag[] = { VFETCH_CPU_NEON };
const char *const vfetch_ladder_name[] = { "neon" };
static const int ladder_built[] = { VFETCH_BUILT_NEON };
#else
const unsigned vfetch_ladder_flag[] = { 0 };
const char *const vfetch_ladder_name[] = { "c" };
static const int ladder_built[] = { 0 };
#endif

unsigned vfetch_ladder_height(unsigned allowed)
{
    unsigned h = 0;
    while (h < VFETCH_LADDER_LEVELS && (allowed & vfetch_ladder_flag[h]))
        h++;
    return h;
}

unsigned vfetch_ladder_top(unsigned height)
{
    while (height && !ladder_built[height - 1])
        height--;
    return height;
}
