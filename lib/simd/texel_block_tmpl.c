/*
 * Texel kernels (block formats), one compilation per ISA level; the reference is
 * lib/texel/ref.c, and tests/texel/test_texel_levels.c checks every level against it.
 */
#include "texel/texel_internal.h"
#include "simd/vec.h"

void NAME(vfetch_texel_block_init)(struct vfetch_texel_dsp *dsp)
{
    (void)dsp;
}
