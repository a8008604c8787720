/* checkasm's texel part (checkasm_texel.c). */
#ifndef VFETCH_CHECKASM_TEXEL_H
#define VFETCH_CHECKASM_TEXEL_H

#include <stdint.h>

/** Check every level's texel kernels against the reference; returns the mismatching cases.
    isa NULL: every level the CPU has. quick: fewer random cases (under qemu). */
unsigned checkasm_texel(uint64_t seed, const char *isa, int quick);

#endif
