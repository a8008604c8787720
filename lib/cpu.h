/*
 * What the library asks of the CPU beyond the public vfetch_cpu_flags() (lib/cpu.c): the levels
 * it may use, and whether it splits 512-bit operations. Not installed.
 */
#ifndef VFETCH_CPU_H
#define VFETCH_CPU_H

/** Detected levels ANDed with the mask (built or not). */
unsigned vfetch_cpu_allowed(void);

/** The levels the CPU and OS support, whatever the mask. */
unsigned vfetch_cpu_detected(void);

/** 1 if the CPU runs 512-bit operations as two 256-bit halves, so that a 512-bit record
    program gains little over a 256-bit one (lib/plan.c chooses by this; docs/simd.md) and the
    generated word copy keeps 32-byte steps at avx512 (lib/jit/x86_copy.c).
    VFETCH_CPU_SPLITS_512=0 or 1 in the environment answers instead (for tests, and to measure
    both forms on a CPU). */
int vfetch_cpu_splits_512(void);

/** The rule behind it, by vendor and family (cpuid leaf 1, base + extended): AMD family 19h
    (Zen 4) splits; AMD family 1Ah (Zen 5) and Intel's AVX-512 cores do not. */
int vfetch_cpu_family_splits_512(int amd, unsigned family);

/** 1 on an AMD CPU (cpuid's vendor string AuthenticAMD), for choices measured to go one way on
    AMD's cores and the other on Intel's (lib/jit/mode.c, vfetch_jit_movbe_indices). */
int vfetch_cpu_amd(void);

#endif
