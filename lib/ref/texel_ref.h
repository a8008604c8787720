/*
 * The texel reference decoder (texel_ref.c): the oracle every texel kernel is checked against,
 * and the kernels of any plan no level has a kernel for. Not installed.
 */
#ifndef VFETCH_REF_TEXEL_REF_H
#define VFETCH_REF_TEXEL_REF_H

#include <stdint.h>

#include "texel/texel_internal.h"

/** The reference kernels: any plan, one block at a time. */
VFETCH_TEXEL_FN(vfetch_texel_ref_f32);
VFETCH_TEXEL_FN(vfetch_texel_ref_u8);

/** One block, as the reference decodes it: block_w x block_h texels, row-major. */
void vfetch_texel_ref_block(const struct vfetch_texel_plan *plan, const uint8_t *block,
                            float (*out)[4]);
void vfetch_texel_ref_block_u8(const struct vfetch_texel_plan *plan, const uint8_t *block,
                               uint8_t (*out)[4]);

#endif
