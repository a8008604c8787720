/* Version string and error texts. */
#include "vfetch/vfetch.h"

#define VFETCH_STR2(x) #x
#define VFETCH_STR(x) VFETCH_STR2(x)

const char *vfetch_version(void)
{
    return VFETCH_STR(VFETCH_VERSION_MAJOR) "." VFETCH_STR(VFETCH_VERSION_MINOR) "." VFETCH_STR(
        VFETCH_VERSION_PATCH);
}

const char *vfetch_strerror(int code)
{
    switch (code) {
    case VFETCH_OK: return "success";
    case VFETCH_EINVAL: return "invalid argument (NULL pointer or value out of range)";
    case VFETCH_ENOMEM: return "out of memory";
    case VFETCH_EPLAN: return "inconsistent plan description";
    case VFETCH_ER300_RESERVED_TYPE: return "reserved R300 DATA_TYPE (13..15)";
    case VFETCH_ER300_RESERVED_SGN_NORM:
        return "reserved R300 signed-normalize method 3 on a signed normalized element";
    case VFETCH_ERESERVED_SWIZZLE: return "reserved swizzle selector (6 or 7)";
    case VFETCH_ER300_FLOAT8_LOC31: return "R300 FLOAT_8 at DST_VEC_LOC 31 would write vector 32";
    case VFETCH_ER300_NO_LAST_VEC: return "R300 stream has 16 elements and none has LAST_VEC";
    case VFETCH_ER300_STREAM_UNDERRUN:
        return "elements need more dwords than the vertex arrays or VTX_SIZE supply";
    case VFETCH_ER300_TOO_MANY_ARRAYS: return "more vertex arrays than the hardware has";
    case VFETCH_ER300_ARRAY_LAYOUT:
        return "unusable vertex array layout (count 0, or count larger than stride)";
    case VFETCH_ESHORT_STREAM: return "a stream buffer is smaller than the vertex range reads";
    case VFETCH_ESHORT_OUTPUT: return "the output buffer is smaller than the records written";
    case VFETCH_ESHORT_INDICES: return "the index buffer is smaller than the draw range reads";
    case VFETCH_EOVERFLOW: return "a byte size computed from the range overflows";
    case VFETCH_EINDEX_RANGE: return "an index plus the index offset is out of range";
    case VFETCH_EMISSING_STREAM: return "a stream the plan reads has no buffer bound";
    case VFETCH_EGX_RESERVED_COLOR: return "reserved GX color format (6 or 7) on an enabled color";
    case VFETCH_EGX_ARRAY_INDEX: return "a GX array index reads past the end of the bound array";
    case VFETCH_EGX_TEXTURE_FORMAT:
        return "reserved GX texture format (TX_SETIMAGE0 format 7, 0xB, 0xC, 0xD or 0xF)";
    case VFETCH_EGX_TLUT_FORMAT: return "reserved GX palette format (TX_SETTLUT format 3)";
    case VFETCH_EGX_SHORT_PALETTE:
        return "the GX palette buffer holds fewer entries than the texture format indexes";
    case VFETCH_EREGISTER:
        return "not a register this GX state or word holds (CP vertex: 0x30, 0x40, 0x50, 0x60, "
               "0x70-0x97, 0xA0-0xBF; BP TX_SETIMAGE0: 0x88-0x8B, 0xA8-0xAB; TX_SETTLUT: "
               "0x98-0x9B, 0xB8-0xBB)";
    case VFETCH_EAAM_IMAP_DEFAULT:
        return "Maxwell Imap bit set on an attribute whose Idmap is default for the stage";
    case VFETCH_EAAM_OMAP_DISCARD:
        return "Maxwell Omap bit set on an attribute whose Odmap is discard for the stage";
    case VFETCH_EAAM_PS_POSITION_W: return "Maxwell pixel shader Imap without POSITION_W";
    case VFETCH_EAAM_CBF_ODMAP:
        return "Maxwell CULL_BEFORE_FETCH Odmap entry other than ST_REQ or discard";
    case VFETCH_EAAM_CBF_IDMAP:
        return "Maxwell CULL_BEFORE_FETCH Idmap entry differs from the VERTEX Idmap";
    case VFETCH_EMAXWELL_ATTRIBUTE_FORMAT:
        return "Maxwell vertex attribute size and numerical type the hardware does not accept";
    case VFETCH_EMAXWELL_STREAM_DISABLED: return "an active Maxwell vertex attribute reads a disabled stream";
    case VFETCH_ETEXEL_UNSUPPORTED:
        return "texel format W24_FP, 16_MPEG or 16_16_MPEG: no public bit layout, unsupported";
    case VFETCH_ETEXEL_RESERVED_COORD_TYPE: return "reserved TEX_COORD_TYPE 3";
    case VFETCH_ETEXEL_RESERVED_YUV_MODE: return "reserved YUV_TO_RGB mode 3";
    case VFETCH_ETEXEL_YUV_FORMAT:
        return "YUV_TO_RGB or SWAP_YUV set on a texel format that is not Y/YUV";
    case VFETCH_ETEXEL_POW2FIX_FORMAT:
        return "POW2FIX2FLT set on a texel format whose components are not all 8-bit fixed point";
    case VFETCH_ETEXEL_RGBA8_INEXACT:
        return "RGBA8 output requested for a texel plan whose results RGBA8 cannot hold exactly";
    case VFETCH_ETEXEL_SURFACE_LAYOUT:
        return "unusable texel surface layout (size or depth 0, wrong depth, pitch too short)";
    case VFETCH_ETEXEL_REGION: return "the texel region is not inside the surface";
    case VFETCH_ETEXEL_SHORT_SURFACE: return "the texel surface buffer ends before the texels read";
    case VFETCH_EPRIM_TYPE: return "a primitive word the front-end does not define, or cannot convert between the provoking vertices asked";
    case VFETCH_EPRIM_INDEX_RANGE:
        return "an index of the draw would not fit the output width, or would be the restart index";
    case VFETCH_EBATCH_FULL:
        return "the batch has no room for the draw's records or indices, or its indices would pass the index width: flush it and draw again";
    default: return "unknown error";
    }
}
