/* The GX texture formats as data: tiling and palette size per TX_SETIMAGE0.FORMAT code. */
#include <stddef.h>

#include "gx_texture/gx_texture_internal.h"

static const struct vfetch_gx_texture_format_info formats[VFETCH_GX_TEXTURE_FORMATS] = {
    [VFETCH_GX_TF_I4] = { "I4", 8, 8, 32, 0 },
    [VFETCH_GX_TF_I8] = { "I8", 8, 4, 32, 0 },
    [VFETCH_GX_TF_IA4] = { "IA4", 8, 4, 32, 0 },
    [VFETCH_GX_TF_IA8] = { "IA8", 4, 4, 32, 0 },
    [VFETCH_GX_TF_RGB565] = { "RGB565", 4, 4, 32, 0 },
    [VFETCH_GX_TF_RGB5A3] = { "RGB5A3", 4, 4, 32, 0 },
    /* two 32-byte planes: A and R of the 16 texels, then G and B */
    [VFETCH_GX_TF_RGBA8] = { "RGBA8", 4, 4, 64, 0 },
    [VFETCH_GX_TF_C4] = { "C4", 8, 8, 32, 16 },
    [VFETCH_GX_TF_C8] = { "C8", 8, 4, 32, 256 },
    [VFETCH_GX_TF_C14X2] = { "C14X2", 4, 4, 32, 16384 },
    /* four 8-byte 4x4 sub-blocks: top left, top right, bottom left, bottom right */
    [VFETCH_GX_TF_CMPR] = { "CMPR", 8, 8, 32, 0 },
    /* 7, 0xB, 0xC, 0xD, 0xF: reserved (name NULL) */
};

const struct vfetch_gx_texture_format_info *vfetch_gx_texture_format_of(unsigned code)
{
    return code < VFETCH_GX_TEXTURE_FORMATS ? &formats[code] : NULL;
}

const char *vfetch_gx_tlut_name(unsigned tlut)
{
    static const char *const names[VFETCH_GX_TLUT_FORMATS] = { "IA8", "RGB565", "RGB5A3" };
    return tlut < VFETCH_GX_TLUT_FORMATS ? names[tlut] : NULL;
}
