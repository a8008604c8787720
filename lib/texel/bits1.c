/*
 * TX_FMT_1 and TX_FMT_1_REVERSE: a byte holds 8 one-bit texels, so a byte's 8 texels are a
 * function of the byte alone. compile.c builds the tables from the reference decoder itself
 * (every byte value through vfetch_texel_ref_block_u8; the two texel values through
 * vfetch_texel_ref_block), so these kernels are exact by construction, whatever the
 * selection, sign or gamma; a byte then costs one 32-byte copy (RGBA8) or eight 16-byte ones.
 */
#include <string.h>

#include "ref/texel_ref.h"
#include "texel/texel_internal.h"

void vfetch_texel_bits1_prepare(struct vfetch_texel_plan *plan)
{
    for (unsigned b = 0; b < 256; b++) {
        const uint8_t byte = (uint8_t)b;
        if (plan->rgba8_exact)
            vfetch_texel_ref_block_u8(plan, &byte, plan->bits1_u8[b]);
    }
    float texels[16][4];
    const uint8_t zeros = 0x00, ones = 0xFF;
    vfetch_texel_ref_block(plan, &zeros, texels);
    memcpy(plan->bits1_f32[0], texels[0], 16);
    vfetch_texel_ref_block(plan, &ones, texels);
    memcpy(plan->bits1_f32[1], texels[0], 16);
}

VFETCH_TEXEL_FN(vfetch_texel_bits1_u8)
{
    (void)dst_pitch; /* one row */
    for (size_t k = 0; k < nblocks; k++)
        memcpy(dst + 32 * k, plan->bits1_u8[src[k]], 32);
}

VFETCH_TEXEL_FN(vfetch_texel_bits1_f32)
{
    (void)dst_pitch;
    const int msb_first = (plan->format1 & 0x1f) != VFETCH_TX_FMT_8;
    for (size_t k = 0; k < nblocks; k++)
        for (unsigned i = 0; i < 8; i++) {
            const unsigned bit = src[k] >> (msb_first ? 7 - i : i) & 1;
            memcpy(dst + 128 * k + 16 * i, plan->bits1_f32[bit], 16);
        }
}
