/*
 * vfetch — GameCube/Wii (GX) texture decode: the BP texture registers TX_SETIMAGE0 (size and
 * format) and TX_SETTLUT (palette format) compiled into a texture plan, which decodes a texture
 * as it lies in GX memory, or a region of it, into RGBA8 or RGBA32F.
 *
 * The same shape as every vfetch family (docs/api.md): vfetch_gx_texture_desc_init() fills a
 * description, vfetch_gx_texture_compile() validates it once into an immutable plan (or returns
 * a distinct negative error, writing nothing), vfetch_gx_texture_plan_info() tells the sizes a
 * caller needs, vfetch_gx_texture_decode() checks every size before it writes a byte and never
 * reads or writes outside the buffers it is given. A plan may be used from many threads at once.
 *
 * The model, per texel (docs/gx_texture.md has every format's layout and every choice):
 *
 *   1. the texture is tiled: blocks of 8x8 (I4, C4, CMPR), 8x4 (I8, IA4, C8) or 4x4 texels
 *      (IA8, RGB565, RGB5A3, RGBA8, C14X2) of 32 bytes (RGBA8: 64), block rows left to right,
 *      top to bottom, width and height rounded up to whole blocks (the texture cache decodes
 *      that padded image and keeps its top-left width x height, as vfetch does);
 *   2. values are big-endian; narrow fields widen to 8 bits by repeating their bits
 *      (5 -> 8: v << 3 | v >> 2, ...);
 *   3. I: (I, I, I, I); IA: (I, I, I, A); RGB5A3: RGB555 with A = 255 when bit 15 is set, else
 *      A3 RGB444; C4/C8/C14X2: an index into the palette, whose 16-bit entries are IA8, RGB565
 *      or RGB5A3; CMPR: 2x2 sub-blocks of DXT1-like 4x4 blocks, with Dolphin's interpolation.
 *
 * The output is Dolphin's (TextureDecoder_Generic.cpp, == its x64 decoder), byte for byte:
 * tests/gx_texture checks it against Dolphin's own output (../shared/peers/dolphin-texture).
 * RGBA32F is each byte v as v / 255.0f, correctly rounded.
 */
#ifndef VFETCH_GX_TEXTURE_H
#define VFETCH_GX_TEXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "vfetch/texel.h"
#include "vfetch/vfetch.h"

#ifdef __cplusplus
extern "C" {
#endif

/** TX_SETIMAGE0.FORMAT (bits 23:20). 7, 0xB, 0xC, 0xD and 0xF are reserved. */
enum vfetch_gx_texture_format {
    VFETCH_GX_TF_I4 = 0x0,     /**< 4-bit intensity, 8x8 blocks */
    VFETCH_GX_TF_I8 = 0x1,     /**< 8-bit intensity, 8x4 */
    VFETCH_GX_TF_IA4 = 0x2,    /**< alpha in bits 7:4, intensity in 3:0, 8x4 */
    VFETCH_GX_TF_IA8 = 0x3,    /**< alpha byte then intensity byte, 4x4 */
    VFETCH_GX_TF_RGB565 = 0x4, /**< 4x4 */
    VFETCH_GX_TF_RGB5A3 = 0x5, /**< RGB555 (bit 15 set) or A3 RGB444, per texel, 4x4 */
    VFETCH_GX_TF_RGBA8 = 0x6,  /**< 4x4 blocks of 64 bytes: 16 AR pairs, then 16 GB pairs */
    VFETCH_GX_TF_C4 = 0x8,     /**< 4-bit palette index, 8x8 */
    VFETCH_GX_TF_C8 = 0x9,     /**< 8-bit palette index, 8x4 */
    VFETCH_GX_TF_C14X2 = 0xA,  /**< 14-bit palette index in 16 bits (the top 2 ignored), 4x4 */
    VFETCH_GX_TF_CMPR = 0xE,   /**< 8x8 blocks of four DXT1-like 4x4 sub-blocks */
};

/** TX_SETTLUT.TLUT_FORMAT (bits 11:10): what a palette entry holds. 3 is reserved. */
enum vfetch_gx_tlut_format {
    VFETCH_GX_TLUT_IA8 = 0,
    VFETCH_GX_TLUT_RGB565 = 1,
    VFETCH_GX_TLUT_RGB5A3 = 2,
};

/** Everything a texture plan is compiled from. Start from vfetch_gx_texture_desc_init().

    Each word is either the value the register holds (24 bits, bits 31:24 zero) or the whole
    32-bit BP write as the FIFO carries it, register address in bits 31:24: TX_SETIMAGE0 is
    0x88..0x8B (texture maps 0..3) or 0xA8..0xAB (4..7), TX_SETTLUT 0x98..0x9B or 0xB8..0xBB.
    Another address is refused (VFETCH_EREGISTER). */
struct vfetch_gx_texture_desc {
    /** TX_SETIMAGE0: width - 1 (bits 9:0), height - 1 (19:10), format (23:20). Default 0: an
        1x1 I4 texture. */
    uint32_t setimage0;
    /** TX_SETTLUT: TMEM offset of the palette in 512-byte units (bits 9:0), palette format
        (11:10). Read only for C4, C8 and C14X2. Default 0. */
    uint32_t settlut;
};

/** Fill a description with the defaults above. */
void vfetch_gx_texture_desc_init(struct vfetch_gx_texture_desc *desc);

/** An immutable compiled texture plan. */
typedef struct vfetch_gx_texture_plan vfetch_gx_texture_plan;

/**
 * Compile a description into a plan. On success *out holds a plan to free with
 * vfetch_gx_texture_plan_free(); on failure *out is left as it was and the result is one of:
 *
 *   VFETCH_EINVAL                desc or out NULL
 *   VFETCH_EREGISTER             a word's bits 31:24 are neither 0 nor its register's address
 *   VFETCH_EGX_TEXTURE_FORMAT    a reserved texture format (7, 0xB, 0xC, 0xD, 0xF)
 *   VFETCH_EGX_TLUT_FORMAT       palette format 3 on C4, C8 or C14X2
 *   VFETCH_ENOMEM                allocation failed
 */
int vfetch_gx_texture_compile(const struct vfetch_gx_texture_desc *desc,
                              vfetch_gx_texture_plan **out);

/** Free a plan (NULL is a no-op). */
void vfetch_gx_texture_plan_free(vfetch_gx_texture_plan *plan);

/** What a plan decodes, for callers that size buffers (vfetch_gx_texture_plan_info). */
struct vfetch_gx_texture_info {
    /** The format's name: "I4", "I8", "IA4", "IA8", "RGB565", "RGB5A3", "RGBA8", "C4", "C8",
        "C14X2" or "CMPR". */
    const char *name;
    enum vfetch_gx_texture_format format;
    /** The texture's size in texels (the register's fields + 1: 1..1024). */
    uint32_t width, height;
    /** A block, the unit the texture is tiled in, and its bytes. */
    uint32_t block_width, block_height, block_bytes;
    /** width and height rounded up to whole blocks: the image as it lies in memory. */
    uint32_t padded_width, padded_height;
    /** Bytes the texture occupies in GX memory (padded width x height in blocks x
        block_bytes): what vfetch_gx_texture_decode() may read of the whole texture. */
    size_t source_bytes;
    /** The palette's format, or -1 for a format without one. */
    int palette_format;
    /** The palette's name ("IA8", "RGB565", "RGB5A3"), or NULL without one. */
    const char *palette_name;
    /** Entries the palette must hold (16 for C4, 256 for C8, 16384 for C14X2; 0 without one):
        the source's palette_size is at least twice this. */
    uint32_t palette_entries;
    /** Where TX_SETTLUT puts the palette in TMEM, in bytes (its offset field x 512). */
    uint32_t palette_tmem_address;
    /** The ISA level of the kernel the plan chose ("avx512", ..., "c" for the reference). */
    const char *level;
};

/** Fill *info. VFETCH_EINVAL for NULL arguments. */
int vfetch_gx_texture_plan_info(const vfetch_gx_texture_plan *plan,
                                struct vfetch_gx_texture_info *info);

/**
 * Write a readable description of the plan (the two words' fields, the layout in memory, the
 * palette, the chosen level) into buf (always NUL-terminated when size > 0). Returns the length
 * the full text needs, excluding the NUL, as snprintf does.
 */
size_t vfetch_gx_texture_plan_describe(const vfetch_gx_texture_plan *plan, char *buf,
                                       size_t size);

/** The texture as the guest holds it. */
struct vfetch_gx_texture_source {
    /** The texture as in GX memory (tiled, big-endian), and how many bytes may be read from
        there: at least up to the end of the last block the region reads (the whole texture:
        info.source_bytes). */
    const void *data;
    size_t size;
    /** C4, C8, C14X2: the palette as in TMEM (16-bit big-endian entries from its first), and
        its bytes: at least 2 x info.palette_entries. Ignored for other formats. */
    const void *palette;
    size_t palette_size;
};

/**
 * Decode a region of the texture (region NULL: all of it, width x height) into target, region
 * texel (x, y) at target->data + (y - region.y) * pitch + (x - region.x) * (4 or 16). The
 * region is 2D: z must be 0 and depth 1 (depth 0, like width or height 0, is an empty region);
 * target->slice_pitch is not read; the target and its pitch may have any alignment. Errors,
 * checked before anything is written:
 *
 *   VFETCH_EINVAL                a NULL pointer (the palette's when the format has one), an
 *                                unknown output format
 *   VFETCH_ETEXEL_REGION         the region is not inside the texture, or z is not 0
 *   VFETCH_ETEXEL_SHORT_SURFACE  source->size ends before the last block the region reads
 *   VFETCH_EGX_SHORT_PALETTE     source->palette_size is below 2 x info.palette_entries
 *   VFETCH_ESHORT_OUTPUT         target->size ends before the last texel written, or its pitch
 *                                is shorter than a row
 *   VFETCH_EOVERFLOW             a byte size computed from the target overflows size_t
 *
 * An empty region reads nothing and writes nothing, and is still refused for a target pitch
 * shorter than its row.
 */
int vfetch_gx_texture_decode(const vfetch_gx_texture_plan *plan,
                             const struct vfetch_gx_texture_source *source,
                             const struct vfetch_texel_region *region,
                             const struct vfetch_texel_target *target);

#ifdef __cplusplus
}
#endif

#endif /* VFETCH_GX_TEXTURE_H */
