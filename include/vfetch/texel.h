/*
 * vfetch — R300/R500 texel decode: TX_FORMAT1 (+ TX_FORMAT2) words compiled into a texel plan,
 * which decodes a surface, or a region of it, into RGBA32F or (where exact) RGBA8.
 *
 * Same conventions as the vertex plans: vfetch_texel_compile() validates the words once and
 * returns an immutable plan (or a distinct negative error, writing nothing); a plan may be used
 * from many threads at once; vfetch_texel_decode() checks every size before it writes a byte and
 * never reads or writes outside the buffers it is given.
 *
 * The model, per texel:
 *
 *   1. the texel's components are read from its storage format (TXFORMAT, with TXFORMAT_MSB
 *      selecting the alternates); component 0 is the least significant field ("numbered right
 *      to left"); DXT1/3/5 and ATI1N/ATI2N are decoded from their 4x4 blocks;
 *   2. each component becomes a float: fixed-point fields unorm v / (2^n - 1) or, under
 *      SIGNED_COMPn, signed (vfetch_texel_signed; default max(v / (2^(n-1) - 1), -1)); 16f/32f
 *      as IEEE floats; POW2FIX2FLT divides 8-bit fields by 256 (signed: 128) instead;
 *   3. the YUV formats deliver (U, Y, V, A) as components 0..3 (A = 1 for the 422 formats,
 *      U and V with their top bit inverted under SWAP_YUV), or RGB under YUV_TO_RGB (BT.601
 *      limited range); they ignore SIGNED_COMPn and SEL_* (the document says so);
 *   4. SEL_RED/GREEN/BLUE/ALPHA pick a component or the constant 0 or 1 for each channel;
 *      a component the format lacks reads 0 (components 0..2) or 1 (component 3);
 *   5. GAMMA linearises R, G and B (never A) where their component has 8 bits or fewer and is
 *      unsigned (vfetch_texel_gamma; default the exact sRGB curve).
 *
 * Every choice the register documents leave open, every field value and every error are in
 * docs/texel.md.
 */
#ifndef VFETCH_TEXEL_H
#define VFETCH_TEXEL_H

#include <stddef.h>
#include <stdint.h>

#include "vfetch/vfetch.h"

#ifdef __cplusplus
extern "C" {
#endif

/** TX_FORMAT1.TXFORMAT (bits 4:0). The alternates under TX_FORMAT2.TXFORMAT_MSB are noted. */
enum vfetch_tx_format {
    VFETCH_TX_FMT_8 = 0,            /**< MSB: TX_FMT_1 (one bit per texel, LSB first) */
    VFETCH_TX_FMT_16 = 1,           /**< MSB: TX_FMT_1_REVERSE (one bit per texel, MSB first) */
    VFETCH_TX_FMT_4_4 = 2,          /**< MSB: TX_FMT_10 */
    VFETCH_TX_FMT_8_8 = 3,          /**< MSB: TX_FMT_10_10 */
    VFETCH_TX_FMT_16_16 = 4,        /**< MSB: TX_FMT_10_10_10_10 */
    VFETCH_TX_FMT_3_3_2 = 5,        /**< MSB: TX_FMT_ATI1N (BC4) */
    VFETCH_TX_FMT_5_6_5 = 6,        /**< MSB: TX_FMT_24_8 */
    VFETCH_TX_FMT_6_5_5 = 7,
    VFETCH_TX_FMT_11_11_10 = 8,
    VFETCH_TX_FMT_10_11_11 = 9,
    VFETCH_TX_FMT_4_4_4_4 = 10,
    VFETCH_TX_FMT_1_5_5_5 = 11,
    VFETCH_TX_FMT_8_8_8_8 = 12,
    VFETCH_TX_FMT_2_10_10_10 = 13,
    VFETCH_TX_FMT_16_16_16_16 = 14,
    VFETCH_TX_FMT_DXT1 = 15,        /**< "Reserved" in the document; DXT1 on the chips */
    VFETCH_TX_FMT_DXT3 = 16,        /**< "Reserved"; DXT3 */
    VFETCH_TX_FMT_DXT5 = 17,        /**< "Reserved"; DXT5 */
    VFETCH_TX_FMT_CXV8U8 = 18,      /**< "TX_FMT_Y8" in the document; CxV8U8 in every driver */
    VFETCH_TX_FMT_AVYU444 = 19,
    VFETCH_TX_FMT_VYUY422 = 20,
    VFETCH_TX_FMT_YVYU422 = 21,
    VFETCH_TX_FMT_16_MPEG = 22,     /**< no public layout: VFETCH_ETEXEL_UNSUPPORTED */
    VFETCH_TX_FMT_16_16_MPEG = 23,  /**< no public layout: VFETCH_ETEXEL_UNSUPPORTED */
    VFETCH_TX_FMT_16F = 24,
    VFETCH_TX_FMT_16F_16F = 25,
    VFETCH_TX_FMT_16F_16F_16F_16F = 26,
    VFETCH_TX_FMT_32F = 27,
    VFETCH_TX_FMT_32F_32F = 28,
    VFETCH_TX_FMT_32F_32F_32F_32F = 29,
    VFETCH_TX_FMT_W24_FP = 30,      /**< no public layout: VFETCH_ETEXEL_UNSUPPORTED */
    VFETCH_TX_FMT_ATI2N = 31,       /**< BC5: component 0 from the first 8 bytes, 1 from the
                                         second (Mesa maps RGTC2 to it with R = component 0) */
};

/** TX_FORMAT2.TXFORMAT_MSB: selects the alternate format of codes 0..6. */
#define VFETCH_TX_FORMAT2_TXFORMAT_MSB (1u << 14)
/** TX_FORMAT2.POW2FIX2FLT: 8-bit fixed point -> float divides by 256 (signed: 128). */
#define VFETCH_TX_FORMAT2_POW2FIX2FLT (1u << 17)

/** How a signed (SIGNED_COMPn) fixed-point component of n bits, value v, becomes a float:
    the three R300 vertex methods (../shared/spec/DECISIONS.md). */
enum vfetch_texel_signed {
    VFETCH_TEXEL_SIGNED_CLAMP = 0,   /**< max(v / (2^(n-1) - 1), -1) (default) */
    VFETCH_TEXEL_SIGNED_ZERO = 1,    /**< v / (2^(n-1) - 1): -2^(n-1) is slightly below -1 */
    VFETCH_TEXEL_SIGNED_NO_ZERO = 2, /**< (2v + 1) / (2^n - 1) */
};

/** The curve GAMMA removes. */
enum vfetch_texel_gamma {
    VFETCH_TEXEL_GAMMA_SRGB = 0,     /**< the sRGB EOTF, correctly rounded (default) */
    VFETCH_TEXEL_GAMMA_POW22 = 1,    /**< c^2.2, correctly rounded */
};

/** How ATI1N/ATI2N (BC4/BC5) interpolate between their two endpoints. */
enum vfetch_texel_bc_interp {
    /** 8-bit integer interpolation, truncated: (6 a0 + a1) / 7 etc. in integers, as Mesa,
        bcdec's default mode and NVIDIA Texture Tools compute it (default). Signed: the same on
        the two's-complement values, C division (toward zero). */
    VFETCH_TEXEL_BC_TRUNCATE = 0,
    /** D3D10: the exact rational ((7 - i) a0 + i a1) / (7 * 255) rounded once to float
        (signed: / (7 * 127), endpoints -128 read as -127). Float output only. */
    VFETCH_TEXEL_BC_FLOAT = 1,
};

/** How DXT1/3/5 colour blocks interpolate their two 565 endpoints (widened to 8 bits by bit
    replication first). */
enum vfetch_texel_dxt_interp {
    /** (2 c0 + c1) / 3 and (c0 + c1) / 2 truncated in 8-bit integers, as NVIDIA Texture Tools'
        nvdecompress (default: bit-identical to it, tests/texel). */
    VFETCH_TEXEL_DXT_TRUNCATE = 0,
    /** (2 c0 + c1 + 1) / 3 and (c0 + c1 + 1) / 2: the nearest 8-bit value (D3D's reference
        rasteriser's rounding). */
    VFETCH_TEXEL_DXT_ROUND = 1,
};

/** What the colour block of DXT3/DXT5 does when its endpoints have c0 <= c1. */
enum vfetch_texel_dxt35_colour {
    /** As in DXT1: three colours, index 3 black (RGB 0; alpha still from the alpha block), as
        NVIDIA Texture Tools' nvdecompress and GPUs of the DXT-era decode it (default:
        bit-identical to nvdecompress, tests/texel). */
    VFETCH_TEXEL_DXT35_AS_DXT1 = 0,
    /** Always four colours (the S3TC/D3D10 BC2/BC3 definition). */
    VFETCH_TEXEL_DXT35_FOUR_COLOUR = 1,
};

/** Which colour DXT1/3/5 deliver as component 0. */
enum vfetch_texel_dxt_order {
    /** Blue: the endpoints' bits 4:0, "numbered right to left" like TX_FMT_5_6_5 (R400/R500:
        Mesa's r300 driver swizzles DXT with X = blue there; default). */
    VFETCH_TEXEL_DXT_BGRA = 0,
    /** Red (R300/R350, where Mesa uses the plain X = red swizzle). */
    VFETCH_TEXEL_DXT_RGBA = 1,
};

/** What TXFORMAT 18 holds. */
enum vfetch_texel_code18 {
    VFETCH_TEXEL_CODE18_CXV8U8 = 0,  /**< two signed bytes U (component 0), V (1) and
                                          C = sqrt(1 - U^2 - V^2) (2), as every driver (default) */
    VFETCH_TEXEL_CODE18_Y8 = 1,      /**< the document's TX_FMT_Y8: one byte of luma */
};

/** Where the R500 10-bit formats (TX_FMT_10, 10_10, 10_10_10_10) keep their 10 bits in each
    16-bit container. */
enum vfetch_texel_align10 {
    VFETCH_TEXEL_ALIGN10_LOW = 0,    /**< bits 9:0 (default) */
    VFETCH_TEXEL_ALIGN10_HIGH = 1,   /**< bits 15:6 */
};

/** Settings for what the documents leave open (the defaults are vfetch_texel_desc_init's). */
struct vfetch_texel_options {
    enum vfetch_texel_signed signed_method;
    enum vfetch_texel_gamma gamma;
    enum vfetch_texel_bc_interp bc_interp;
    enum vfetch_texel_dxt_interp dxt_interp;
    enum vfetch_texel_dxt_order dxt_order;
    enum vfetch_texel_dxt35_colour dxt35_colour;
    enum vfetch_texel_code18 code18;
    enum vfetch_texel_align10 align10;
};

/** Everything a texel plan is compiled from. Start from vfetch_texel_desc_init(). */
struct vfetch_texel_desc {
    /** TX_FORMAT1: format, swizzles, signedness, gamma, TEX_COORD_TYPE, YUV. Default 0. */
    uint32_t tx_format1;
    /** TX_FORMAT2: only TXFORMAT_MSB and POW2FIX2FLT are read. Default 0. */
    uint32_t tx_format2;
    /** What the documents leave open. Defaults: SIGNED_CLAMP, GAMMA_SRGB, BC_TRUNCATE,
        DXT_TRUNCATE, DXT_BGRA, DXT35_AS_DXT1, CODE18_CXV8U8, ALIGN10_LOW. */
    struct vfetch_texel_options options;
};

/** Fill a description with the defaults above. */
void vfetch_texel_desc_init(struct vfetch_texel_desc *desc);

/** An immutable compiled texel plan. */
typedef struct vfetch_texel_plan vfetch_texel_plan;

/**
 * Compile a description into a plan. On success *out holds a plan to free with
 * vfetch_texel_plan_free(); on failure *out is left as it was and the result is one of:
 *
 *   VFETCH_EINVAL                      desc or out NULL, or an option outside its enum
 *   VFETCH_ETEXEL_UNSUPPORTED          W24_FP, 16_MPEG or 16_16_MPEG (no public bit layout)
 *   VFETCH_ERESERVED_SWIZZLE           a SEL_* field 6 or 7
 *   VFETCH_ETEXEL_RESERVED_COORD_TYPE  TEX_COORD_TYPE 3
 *   VFETCH_ETEXEL_RESERVED_YUV_MODE    YUV_TO_RGB 3
 *   VFETCH_ETEXEL_YUV_FORMAT           YUV_TO_RGB or SWAP_YUV on a format that is not Y/YUV
 *   VFETCH_ETEXEL_POW2FIX_FORMAT       POW2FIX2FLT on a format whose components are not all
 *                                      8-bit fixed point
 *   VFETCH_ENOMEM                      allocation failed
 */
int vfetch_texel_compile(const struct vfetch_texel_desc *desc, vfetch_texel_plan **out);

/** Free a plan (NULL is a no-op). */
void vfetch_texel_plan_free(vfetch_texel_plan *plan);

/** TEX_COORD_TYPE: what the surface's depth means. */
enum vfetch_texel_coord_type {
    VFETCH_TEXEL_2D = 0,   /**< depth 1 */
    VFETCH_TEXEL_3D = 1,   /**< depth = slices */
    VFETCH_TEXEL_CUBE = 2, /**< depth 6: the faces +X, -X, +Y, -Y, +Z, -Z */
};

/** What a plan decodes, for callers that size buffers (vfetch_texel_plan_info). */
struct vfetch_texel_info {
    /** The format's name as the document spells it ("TX_FMT_5_6_5", "TX_FMT_DXT1", ...). */
    const char *name;
    /** A block: the unit the storage is laid out in. 4x4 for DXT1/3/5 and ATI1N/2N, 8x1 for
        TX_FMT_1 and 1_REVERSE (a byte of 8 texels), 2x1 for the 422 formats, else 1x1. */
    uint32_t block_width, block_height;
    /** Bytes of one block. */
    uint32_t block_bytes;
    /** TEX_COORD_TYPE. */
    enum vfetch_texel_coord_type coord_type;
    /** 1 if vfetch_texel_decode() can write VFETCH_TEXEL_RGBA8: every channel is a constant or
        an unsigned fixed-point component of 8 bits or fewer (or a DXT / truncating BC4/BC5
        8-bit value), without POW2FIX2FLT, GAMMA, YUV_TO_RGB or CxV8U8. Its bytes are then
        round(255 x) of the RGBA32F results x, exactly. */
    int rgba8_exact;
};

/** Fill *info. VFETCH_EINVAL for NULL arguments. */
int vfetch_texel_plan_info(const vfetch_texel_plan *plan, struct vfetch_texel_info *info);

/**
 * Write a readable description of the plan (every field of both words, what it does for this
 * format) into buf (always NUL-terminated when size > 0). Returns the length the full text
 * needs, excluding the NUL, as snprintf does.
 */
size_t vfetch_texel_plan_describe(const vfetch_texel_plan *plan, char *buf, size_t size);

/** How vfetch_texel_surface.pitch counts. */
enum vfetch_texel_pitch_unit {
    VFETCH_TEXEL_PITCH_BYTES = 0,  /**< bytes from one row of blocks to the next */
    VFETCH_TEXEL_PITCH_BLOCKS = 1, /**< blocks (texels for the 1x1 formats, as the hardware's
                                        TX_PITCH counts) */
};

/** The source: one mip level of a texture. */
struct vfetch_texel_surface {
    /** The texels, and how many bytes may be read from there. */
    const void *data;
    size_t size;
    /** Texels of one slice (face), at least 1 each. Partial blocks at the right and bottom
        edges are stored whole. */
    uint32_t width, height;
    /** Slices: 1 for 2D, the slice count for 3D, 6 for cube maps (each face a slice). */
    uint32_t depth;
    /** From one row of blocks to the next, in pitch_unit; 0 means the rows are packed (width
        rounded up to blocks). At least one row's bytes. */
    size_t pitch;
    enum vfetch_texel_pitch_unit pitch_unit;
    /** Bytes from one slice (face) to the next; 0 means pitch x rows of blocks. */
    size_t slice_pitch;
};

/** The texels to decode: x .. x + width - 1, etc. All inside the surface. */
struct vfetch_texel_region {
    uint32_t x, y, z;
    uint32_t width, height, depth;
};

/** Output texel formats. */
enum vfetch_texel_output {
    VFETCH_TEXEL_RGBA32F = 0, /**< four floats R, G, B, A: 16 bytes a texel */
    VFETCH_TEXEL_RGBA8 = 1,   /**< four bytes R, G, B, A: only where vfetch_texel_info.rgba8_exact */
};

/** Where decoded texels go: region texel (x, y, z) at data + (z - region.z) * slice_pitch +
    (y - region.y) * pitch + (x - region.x) * (16 or 4). */
struct vfetch_texel_target {
    void *data;
    size_t size;
    enum vfetch_texel_output format;
    /** Bytes between output rows; 0 means region.width texels. */
    size_t pitch;
    /** Bytes between output slices; 0 means pitch x region.height. */
    size_t slice_pitch;
};

/**
 * Decode a region of a surface (region NULL: all of it). Errors, checked before anything is
 * written:
 *
 *   VFETCH_EINVAL            a NULL pointer, an unknown output format or pitch unit
 *   VFETCH_ETEXEL_SURFACE_LAYOUT   width, height or depth 0; depth not 1 for 2D or not 6 for cube; a
 *                            pitch shorter than a row, or a slice pitch shorter than a slice
 *   VFETCH_ETEXEL_REGION           the region is not inside the surface (an empty region is OK)
 *   VFETCH_ETEXEL_SHORT_SURFACE    the surface's bytes end before the last block the region reads
 *   VFETCH_ETEXEL_RGBA8_INEXACT    RGBA8 output for a plan whose info.rgba8_exact is 0
 *   VFETCH_ESHORT_OUTPUT     the target's bytes end before the last texel written, or its
 *                            pitches are shorter than a row or a slice
 *   VFETCH_EOVERFLOW         a byte size computed from the layout overflows size_t
 *
 * Any size up to 2^32 - 1 texels a side is accepted and decoded (64-bit coordinates inside).
 * An empty region (a width, height or depth of 0) reads nothing and writes nothing, and is
 * still refused for an inexact RGBA8 target or a target pitch shorter than its row.
 */
int vfetch_texel_decode(const vfetch_texel_plan *plan, const struct vfetch_texel_surface *surface,
                        const struct vfetch_texel_region *region,
                        const struct vfetch_texel_target *target);

/* ---- names before 0.2 (vfetch.h: kept until 1.0; docs/api.md) ------------------------------ */
#ifndef VFETCH_NO_DEPRECATED
#define vfetch_texel_describe vfetch_texel_plan_describe
/* The options' defaults, as vfetch_texel_desc_init() sets them. (0.1's vfetch_texel_compile
   took the words and options as arguments; it takes a struct vfetch_texel_desc now.) */
static inline void vfetch_texel_options_default(struct vfetch_texel_options *options)
{
    struct vfetch_texel_desc desc;
    vfetch_texel_desc_init(&desc);
    if (options)
        *options = desc.options;
}
#endif

#ifdef __cplusplus
}
#endif

#endif /* VFETCH_TEXEL_H */
