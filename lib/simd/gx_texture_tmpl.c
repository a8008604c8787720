/*
 * GX texture kernels, one compilation per ISA level (placeholder: the reference runs).
 */
#include "gx_texture/gx_texture_internal.h"
#include "simd/vec.h"

void NAME(vfetch_gx_texture_init)(struct vfetch_gx_texture_dsp *dsp)
{
    (void)dsp;
}
