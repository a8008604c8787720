/*
 * The ISA ladder every kernel table climbs (lib/dsp.c, lib/gx/dsp.c, lib/texel/dsp.c): the
 * levels of this architecture from the lowest, each filled over the one below while the CPU
 * (and VFETCH_CPU_MASK) allows it. A level this build did not compile is skipped; the climb
 * stops at the first level the CPU lacks.
 */
#ifndef VFETCH_LADDER_H
#define VFETCH_LADDER_H

#include <stddef.h>

#include "vfetch/vfetch.h"

/** Declare a table's per-level initialisers fn_sse2 .. fn_neon, each `void (table_type *)`:
    one compilation of a template per level defines each (lib/simd, lib/gx). */
#define VFETCH_LADDER_DECLARE(fn, table_type)                                               \
    void fn##_sse2(table_type *dsp);                                                        \
    void fn##_sse41(table_type *dsp);                                                       \
    void fn##_avx2(table_type *dsp);                                                        \
    void fn##_avx512(table_type *dsp);                                                      \
    void fn##_neon(table_type *dsp)

/* The rest is for the library's baseline sources, to which meson passes VFETCH_BUILT_* (0 or
   1); the per-level templates and the tests need only the declarations above. */
#ifdef VFETCH_BUILT_SSE2

/* One per level: the level's function, or NULL where the build did not compile the level. */
#if VFETCH_BUILT_SSE2
#define VFETCH_LADDER_SSE2(fn) fn##_sse2
#else
#define VFETCH_LADDER_SSE2(fn) NULL
#endif
#if VFETCH_BUILT_SSE41
#define VFETCH_LADDER_SSE41(fn) fn##_sse41
#else
#define VFETCH_LADDER_SSE41(fn) NULL
#endif
#if VFETCH_BUILT_AVX2
#define VFETCH_LADDER_AVX2(fn) fn##_avx2
#else
#define VFETCH_LADDER_AVX2(fn) NULL
#endif
#if VFETCH_BUILT_AVX512
#define VFETCH_LADDER_AVX512(fn) fn##_avx512
#else
#define VFETCH_LADDER_AVX512(fn) NULL
#endif
#if VFETCH_BUILT_NEON
#define VFETCH_LADDER_NEON(fn) fn##_neon
#else
#define VFETCH_LADDER_NEON(fn) NULL
#endif

#if defined(__x86_64__) || defined(__i386__)
#define VFETCH_LADDER_LEVELS 4
/** The ladder of per-level functions named fn_sse2 .. fn_avx512, as an array initialiser. */
#define VFETCH_LADDER(fn)                                                                   \
    { VFETCH_LADDER_SSE2(fn), VFETCH_LADDER_SSE41(fn), VFETCH_LADDER_AVX2(fn),              \
      VFETCH_LADDER_AVX512(fn) }
#elif defined(__aarch64__)
#define VFETCH_LADDER_LEVELS 1
#define VFETCH_LADDER(fn) { VFETCH_LADDER_NEON(fn) }
#else
#define VFETCH_LADDER_LEVELS 0
#define VFETCH_LADDER(fn) { NULL } /* the reference only */
#endif

/** The ladder's levels: their vfetch_cpu_flag bits and names. */
extern const unsigned vfetch_ladder_flag[];
extern const char *const vfetch_ladder_name[];

/**
 * How many levels of the ladder a table climbs for the levels in `allowed` (vfetch_cpu_flag
 * bits): up to the first level not allowed. A table fills level i (0 = the lowest) for every i
 * below this whose function was built.
 */
unsigned vfetch_ladder_height(unsigned allowed);

/** The highest of the first `height` levels this build compiled, as an index + 1 (0: none,
    the reference only): the level a table filled that way reports. */
unsigned vfetch_ladder_top(unsigned height);

/** Climb a table: fns[i](table) for each built level below vfetch_ladder_height(allowed). */
#define VFETCH_LADDER_CLIMB(fns, table, allowed)                                            \
    do {                                                                                    \
        const unsigned vfetch_ladder_h_ = vfetch_ladder_height(allowed);                    \
        for (unsigned vfetch_ladder_i_ = 0; vfetch_ladder_i_ < vfetch_ladder_h_;             \
             vfetch_ladder_i_++)                                                            \
            if ((fns)[vfetch_ladder_i_])                                                    \
                (fns)[vfetch_ladder_i_](table);                                             \
    } while (0)

#endif /* VFETCH_BUILT_SSE2 */

#endif
