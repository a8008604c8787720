/*
 * The TX_FORMAT1.TXFORMAT table as data (pixman-style): for each code, and for codes 0..6 the
 * TXFORMAT_MSB alternate, the storage layout. Components are numbered right to left: component
 * 0 is the least significant field of the little-endian container.
 */
#include "texel/texel_internal.h"

#define F(s, b) { (s), (b) }
#define NOF { 0, 0 }

/* name, class, block w x h, bytes, components, fields */
#define PACKED(name, bytes, n, f0, f1, f2, f3) \
    { name, VFETCH_TEXEL_CLASS_PACKED, 1, 1, bytes, n, { f0, f1, f2, f3 }, 0 }
#define TEN(name, bytes, n, f0, f1, f2, f3) \
    { name, VFETCH_TEXEL_CLASS_PACKED, 1, 1, bytes, n, { f0, f1, f2, f3 }, 1 }
#define OTHER(name, cls, w, h, bytes, n) \
    { name, cls, w, h, bytes, n, { NOF, NOF, NOF, NOF }, 0 }

static const struct vfetch_texel_format formats[32] = {
    PACKED("TX_FMT_8", 1, 1, F(0, 8), NOF, NOF, NOF),
    PACKED("TX_FMT_16", 2, 1, F(0, 16), NOF, NOF, NOF),
    PACKED("TX_FMT_4_4", 1, 2, F(0, 4), F(4, 4), NOF, NOF),
    PACKED("TX_FMT_8_8", 2, 2, F(0, 8), F(8, 8), NOF, NOF),
    PACKED("TX_FMT_16_16", 4, 2, F(0, 16), F(16, 16), NOF, NOF),
    PACKED("TX_FMT_3_3_2", 1, 3, F(0, 2), F(2, 3), F(5, 3), NOF),
    PACKED("TX_FMT_5_6_5", 2, 3, F(0, 5), F(5, 6), F(11, 5), NOF),
    PACKED("TX_FMT_6_5_5", 2, 3, F(0, 5), F(5, 5), F(10, 6), NOF),
    PACKED("TX_FMT_11_11_10", 4, 3, F(0, 10), F(10, 11), F(21, 11), NOF),
    PACKED("TX_FMT_10_11_11", 4, 3, F(0, 11), F(11, 11), F(22, 10), NOF),
    PACKED("TX_FMT_4_4_4_4", 2, 4, F(0, 4), F(4, 4), F(8, 4), F(12, 4)),
    PACKED("TX_FMT_1_5_5_5", 2, 4, F(0, 5), F(5, 5), F(10, 5), F(15, 1)),
    PACKED("TX_FMT_8_8_8_8", 4, 4, F(0, 8), F(8, 8), F(16, 8), F(24, 8)),
    PACKED("TX_FMT_2_10_10_10", 4, 4, F(0, 10), F(10, 10), F(20, 10), F(30, 2)),
    PACKED("TX_FMT_16_16_16_16", 8, 4, F(0, 16), F(16, 16), F(32, 16), F(48, 16)),
    OTHER("TX_FMT_DXT1", VFETCH_TEXEL_CLASS_DXT1, 4, 4, 8, 4),
    OTHER("TX_FMT_DXT3", VFETCH_TEXEL_CLASS_DXT3, 4, 4, 16, 4),
    OTHER("TX_FMT_DXT5", VFETCH_TEXEL_CLASS_DXT5, 4, 4, 16, 4),
    OTHER("TX_FMT_CxV8U8", VFETCH_TEXEL_CLASS_CXV8U8, 1, 1, 2, 3),
    /* U, Y, V, A bytes */
    { "TX_FMT_AVYU444", VFETCH_TEXEL_CLASS_YUV444, 1, 1, 4, 4,
      { F(0, 8), F(8, 8), F(16, 8), F(24, 8) }, 0 },
    /* Y0, U, Y1, V bytes (memory order Y0 U Y1 V: YUYV) */
    { "TX_FMT_VYUY422", VFETCH_TEXEL_CLASS_YUV422, 2, 1, 4, 4,
      { F(0, 8), F(8, 8), F(16, 8), F(24, 8) }, 0 },
    /* memory order U Y0 V Y1 (UYVY) */
    { "TX_FMT_YVYU422", VFETCH_TEXEL_CLASS_YUV422, 2, 1, 4, 4,
      { F(8, 8), F(0, 8), F(24, 8), F(16, 8) }, 0 },
    OTHER("TX_FMT_16_MPEG", VFETCH_TEXEL_CLASS_UNSUPPORTED, 1, 1, 2, 1),
    OTHER("TX_FMT_16_16_MPEG", VFETCH_TEXEL_CLASS_UNSUPPORTED, 1, 1, 4, 2),
    OTHER("TX_FMT_16f", VFETCH_TEXEL_CLASS_FLOAT16, 1, 1, 2, 1),
    OTHER("TX_FMT_16f_16f", VFETCH_TEXEL_CLASS_FLOAT16, 1, 1, 4, 2),
    OTHER("TX_FMT_16f_16f_16f_16f", VFETCH_TEXEL_CLASS_FLOAT16, 1, 1, 8, 4),
    OTHER("TX_FMT_32f", VFETCH_TEXEL_CLASS_FLOAT32, 1, 1, 4, 1),
    OTHER("TX_FMT_32f_32f", VFETCH_TEXEL_CLASS_FLOAT32, 1, 1, 8, 2),
    OTHER("TX_FMT_32f_32f_32f_32f", VFETCH_TEXEL_CLASS_FLOAT32, 1, 1, 16, 4),
    OTHER("TX_FMT_W24_FP", VFETCH_TEXEL_CLASS_UNSUPPORTED, 1, 1, 4, 1),
    OTHER("TX_FMT_ATI2N", VFETCH_TEXEL_CLASS_BC5, 4, 4, 16, 2),
};

/* TXFORMAT_MSB alternates of codes 0..6. The 10-bit formats keep each component in a 16-bit
   container (bits 9:0 here; vfetch_texel_align10 may move them to 15:6). */
static const struct vfetch_texel_format msb_formats[7] = {
    OTHER("TX_FMT_1", VFETCH_TEXEL_CLASS_BITS1, 8, 1, 1, 1),
    OTHER("TX_FMT_1_REVERSE", VFETCH_TEXEL_CLASS_BITS1, 8, 1, 1, 1),
    TEN("TX_FMT_10", 2, 1, F(0, 10), NOF, NOF, NOF),
    TEN("TX_FMT_10_10", 4, 2, F(0, 10), F(16, 10), NOF, NOF),
    TEN("TX_FMT_10_10_10_10", 8, 4, F(0, 10), F(16, 10), F(32, 10), F(48, 10)),
    OTHER("TX_FMT_ATI1N", VFETCH_TEXEL_CLASS_BC4, 4, 4, 8, 1),
    PACKED("TX_FMT_24_8", 4, 2, F(0, 24), F(24, 8), NOF, NOF),
};

/* Code 18 as the document names it (vfetch_texel_code18). */
static const struct vfetch_texel_format y8_format =
    { "TX_FMT_Y8", VFETCH_TEXEL_CLASS_Y8, 1, 1, 1, 1, { F(0, 8), NOF, NOF, NOF }, 0 };

const struct vfetch_texel_format *vfetch_texel_format_of(unsigned code, int msb)
{
    if (code >= 32)
        return NULL;
    if (msb && code < 7)
        return &msb_formats[code];
    return &formats[code];
}

const struct vfetch_texel_format *vfetch_texel_format_y8(void)
{
    return &y8_format;
}
