/*
 * CPU feature detection and the user/environment mask. Compiled with baseline flags only:
 * nothing here may execute an instruction the CPU might lack.
 */
#include <ctype.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "vfetch/vfetch.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static uint64_t cpu_xgetbv(void)
{
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t)edx << 32) | eax;
}

static unsigned cpu_detect(void)
{
    unsigned a, b, c, d, flags = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    const unsigned sse2 = d >> 26 & 1, ssse3 = c >> 9 & 1, sse41 = c >> 19 & 1;
    const unsigned osxsave = c >> 27 & 1, avx = c >> 28 & 1, f16c = c >> 29 & 1;
    const unsigned movbe = c >> 22 & 1, fma = c >> 12 & 1;
    if (!sse2)
        return 0;
    flags |= VFETCH_CPU_SSE2;
    if (!(ssse3 && sse41))
        return flags;
    flags |= VFETCH_CPU_SSE41;
    if (!(osxsave && avx && f16c))
        return flags;
    /* The OS must save ymm (XCR0 bits 1, 2) before AVX may be used; zmm needs bits 5..7. */
    const uint64_t xcr0 = cpu_xgetbv();
    if ((xcr0 & 0x6) != 0x6)
        return flags;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return flags;
    /* AVX2, and BMI1, MOVBE and FMA (every AVX2 CPU has them: bextr, the generated code's
       big-endian index loads and its division's FMA form) */
    if (!(b >> 5 & 1 && b >> 3 & 1 && movbe && fma))
        return flags;
    flags |= VFETCH_CPU_AVX2;
    const unsigned f = b >> 16 & 1, dq = b >> 17 & 1, bw = b >> 30 & 1, vl = b >> 31 & 1;
    const unsigned vbmi = c >> 1 & 1;
    if (f && dq && bw && vl && vbmi && (xcr0 & 0xe0) == 0xe0)
        flags |= VFETCH_CPU_AVX512;
    return flags;
}

static int cpu_detect_amd(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return 0;
    return b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u; /* AuthenticAMD */
}

static int cpu_detect_splits_512(void)
{
    unsigned a, b, c, d;
    const int amd = cpu_detect_amd();
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    const unsigned base = a >> 8 & 0xf, family = base == 0xf ? base + (a >> 20 & 0xff) : base;
    return vfetch_cpu_family_splits_512(amd, family);
}
#elif defined(__aarch64__)
static int cpu_detect_amd(void)
{
    return 0;
}

static int cpu_detect_splits_512(void)
{
    return 0;
}

static unsigned cpu_detect(void)
{
    return VFETCH_CPU_NEON; /* Advanced SIMD is mandatory on aarch64 */
}
#else
static int cpu_detect_amd(void)
{
    return 0;
}

static int cpu_detect_splits_512(void)
{
    return 0;
}

static unsigned cpu_detect(void)
{
    return 0;
}
#endif

int vfetch_cpu_family_splits_512(int amd, unsigned family)
{
    /* Zen 4 executes each 512-bit operation as two 256-bit halves; Zen 5 has 512-bit data
       paths (measured: docs/simd.md). Intel's AVX-512 cores have 512-bit units (not measured
       here). Zen 5's mobile parts are said to split them too; family alone cannot tell. */
    return amd && family == 0x19;
}

/* A fact of the CPU detected once (-1 in *slot until then; detecting twice is harmless). */
static int cpu_fact(atomic_int *slot, int (*detect)(void))
{
    int v = atomic_load(slot);
    if (v < 0) {
        v = detect();
        atomic_store(slot, v);
    }
    return v;
}

static atomic_int cpu_splits_512 = -1, cpu_amd = -1;

int vfetch_cpu_splits_512(void)
{
    /* VFETCH_CPU_SPLITS_512=0 or 1, read on every call (compiles ask it, draws never): each
       choice made by it measured, and its other form tested, on any CPU */
    const char *env = getenv("VFETCH_CPU_SPLITS_512");
    if (env && (!strcmp(env, "0") || !strcmp(env, "1")))
        return env[0] == '1';
    return cpu_fact(&cpu_splits_512, cpu_detect_splits_512);
}

int vfetch_cpu_amd(void)
{
    return cpu_fact(&cpu_amd, cpu_detect_amd);
}

/* Level names, best first, with the flag bits "this level and those below it". */
static const struct {
    const char *name;
    unsigned flag, and_below;
} cpu_levels[] = {
    { "avx512", VFETCH_CPU_AVX512, 0xf },
    { "avx2", VFETCH_CPU_AVX2, 0x7 },
    { "sse41", VFETCH_CPU_SSE41, 0x3 },
    { "sse2", VFETCH_CPU_SSE2, 0x1 },
    { "neon", VFETCH_CPU_NEON, VFETCH_CPU_NEON },
    { "c", 0, 0 },
};

/* A mask with every level a set flag bit implies (the levels below it on its architecture);
   bits that name no level are kept, and mean nothing. */
static unsigned cpu_mask_closed(unsigned mask)
{
    for (size_t i = 0; i < sizeof cpu_levels / sizeof cpu_levels[0]; i++)
        if (mask & cpu_levels[i].flag)
            mask |= cpu_levels[i].and_below;
    return mask;
}

static int cpu_name_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

/* VFETCH_CPU_MASK: a level name in any case (that level and those below it) or a number of
   flag bits (0x.. or decimal). 0 with *ok = 0 for anything else. */
static unsigned cpu_parse_mask(const char *text, int *ok)
{
    *ok = 1;
    for (size_t i = 0; i < sizeof cpu_levels / sizeof cpu_levels[0]; i++)
        if (cpu_name_equal(text, cpu_levels[i].name))
            return cpu_levels[i].and_below;
    char *end;
    errno = 0;
    const unsigned long v = strtoul(text, &end, 0);
    if (*text && *text != '-' && !*end && !errno && v <= 0xffffffffu)
        return (unsigned)v;
    *ok = 0;
    return 0;
}

/* -1 until first use; detection runs once. Benign if two threads race: both compute the same
   value. */
static atomic_int cpu_detected = -1;

/* The mask, with CPU_MASK_SET once it holds a value: 0 until the first use reads the
   environment or vfetch_set_cpu_mask() sets it. One word, so that a vfetch_set_cpu_mask() on
   one thread and the first read of the environment on another cannot interleave: the
   environment is only ever stored into a word that is still 0. */
#define CPU_MASK_SET 0x80000000u
static atomic_uint cpu_mask_word;

static unsigned cpu_detected_flags(void)
{
    int f = atomic_load(&cpu_detected);
    if (f < 0) {
        f = (int)cpu_detect();
        atomic_store(&cpu_detected, f);
    }
    return (unsigned)f;
}

static unsigned cpu_mask(void)
{
    unsigned word = atomic_load(&cpu_mask_word);
    if (!(word & CPU_MASK_SET)) {
        const char *env = getenv("VFETCH_CPU_MASK");
        int ok = 1;
        unsigned want = env ? cpu_parse_mask(env, &ok) : ~0u;
        if (!ok) {
            /* Visible, and no restriction: a typo must not silently change the level. */
            fprintf(stderr,
                    "vfetch: VFETCH_CPU_MASK=\"%s\" is neither a level (c, sse2, sse41, avx2, "
                    "avx512, neon; any case) nor a number of flag bits: ignored, every level "
                    "allowed\n",
                    env);
            want = ~0u;
        }
        want = cpu_mask_closed(want) | CPU_MASK_SET;
        unsigned expected = 0;
        /* If another thread set the word first, its value stands. */
        word = atomic_compare_exchange_strong(&cpu_mask_word, &expected, want) ? want : expected;
    }
    return word & ~CPU_MASK_SET;
}

/* The levels this library was built with (meson passes VFETCH_BUILT_* as 0 or 1). */
static const unsigned cpu_built = (VFETCH_BUILT_SSE2 ? VFETCH_CPU_SSE2 : 0) |
                                  (VFETCH_BUILT_SSE41 ? VFETCH_CPU_SSE41 : 0) |
                                  (VFETCH_BUILT_AVX2 ? VFETCH_CPU_AVX2 : 0) |
                                  (VFETCH_BUILT_AVX512 ? VFETCH_CPU_AVX512 : 0) |
                                  (VFETCH_BUILT_NEON ? VFETCH_CPU_NEON : 0);

unsigned vfetch_cpu_detected(void)
{
    return cpu_detected_flags();
}

unsigned vfetch_cpu_allowed(void)
{
    return cpu_detected_flags() & cpu_mask();
}

unsigned vfetch_cpu_flags(void)
{
    return vfetch_cpu_allowed() & cpu_built;
}

void vfetch_set_cpu_mask(unsigned mask)
{
    /* bit 31 names no level */
    atomic_store(&cpu_mask_word, cpu_mask_closed(mask) | CPU_MASK_SET);
}

unsigned vfetch_get_cpu_mask(void)
{
    const unsigned mask = cpu_mask();
    return mask == (~0u & ~CPU_MASK_SET) ? ~0u : mask;
}
