/*
 * vfetch GameCube/Wii front-end: the command processor's vertex descriptor (VCD_LO/VCD_HI) and
 * one vertex attribute table entry (VAT A/B/C of the format a draw selects), decoded.
 *
 * This first part decodes the registers and sizes one vertex in the command stream, which an
 * emulator needs to walk a display list or FIFO; plan compilation builds on the same decoding.
 * Behaviour table: docs/gx.md.
 */
#ifndef VFETCH_GX_H
#define VFETCH_GX_H

#include <stdint.h>

#include "vfetch/vfetch.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Attributes in stream order after the matrix-index bytes; also the CP array numbers. */
enum vfetch_gx_attr_id {
    VFETCH_GX_POSITION = 0,
    VFETCH_GX_NORMAL = 1,
    VFETCH_GX_COLOR0 = 2,
    VFETCH_GX_COLOR1 = 3,
    VFETCH_GX_TEXCOORD0 = 4, /**< texcoord n is VFETCH_GX_TEXCOORD0 + n, n = 0..7 */
    VFETCH_GX_NUM_ATTRS = 12,
};

/** How an attribute arrives (VCD two-bit fields). */
enum vfetch_gx_mode {
    VFETCH_GX_NONE = 0,    /**< not present */
    VFETCH_GX_DIRECT = 1,  /**< its data is in the vertex */
    VFETCH_GX_INDEX8 = 2,  /**< an 8-bit index into its array is in the vertex */
    VFETCH_GX_INDEX16 = 3, /**< a big-endian 16-bit index into its array is in the vertex */
};

/** Component formats of positions, normals and texcoords (VAT *FMT for non-colors). */
enum vfetch_gx_component {
    VFETCH_GX_U8 = 0,
    VFETCH_GX_S8 = 1,
    VFETCH_GX_U16 = 2,
    VFETCH_GX_S16 = 3,
    VFETCH_GX_F32 = 4,
    /* 5..7 are "unused" in the documents; decoded as F32 (as Dolphin does: shipped games send
       5), with VFETCH_GX_DIAG_UNUSED_FORMAT. */
};

/** Color formats (VAT COL*FMT). 6 and 7 are reserved: VFETCH_ERESERVED_COLOR. */
enum vfetch_gx_color {
    VFETCH_GX_RGB565 = 0,   /**< 2 bytes */
    VFETCH_GX_RGB888 = 1,   /**< 3 bytes */
    VFETCH_GX_RGB888X = 2,  /**< 4 bytes, the fourth ignored */
    VFETCH_GX_RGBA4444 = 3, /**< 2 bytes */
    VFETCH_GX_RGBA6666 = 4, /**< 3 bytes */
    VFETCH_GX_RGBA8888 = 5, /**< 4 bytes */
};

/** Diagnostics: accepted inputs the documents call unused or n/a (bits of `diagnostics`). */
enum vfetch_gx_diagnostic {
    VFETCH_GX_DIAG_UNUSED_FORMAT = 1 << 0,   /**< a component format 5..7, read as f32 */
    VFETCH_GX_DIAG_UNSIGNED_NORMAL = 1 << 1, /**< a u8/u16 normal, read as u8/2^7, u16/2^15 */
};

/** The register words that describe one vertex format. */
struct vfetch_gx_desc {
    /** CP 0x50 VCD_LO: matrix-index presence (bits 0..8), position, normal, colors. */
    uint32_t vcd_lo;
    /** CP 0x60 VCD_HI: texcoords 0..7, two bits each. */
    uint32_t vcd_hi;
    /** CP 0x70+f, 0x80+f, 0x90+f: VAT A, B, C of the draw's format f. */
    uint32_t vat_a, vat_b, vat_c;
};

/** One attribute, decoded. */
struct vfetch_gx_attr {
    /** enum vfetch_gx_mode. */
    uint8_t mode;
    /** Components in the element: position 2/3, normal 3/9, color 3/4, texcoord 1/2. */
    uint8_t count;
    /** enum vfetch_gx_component (5..7 already mapped to F32), or enum vfetch_gx_color. */
    uint8_t format;
    /** Position/texcoord: dequantisation shift 0..31 in effect (0 for u8/s8 without
        BYTEDEQUANT). Normal: the fixed shift (6 for 8-bit, 14 for s16, 7/15 for u8/u16). */
    uint8_t shift;
    /** Bytes of one element (direct data, or one array entry when indexed). */
    uint8_t element_size;
    /** Bytes this attribute occupies in the vertex (element_size, or 1/2 per index; indexed
        NBT with NORMALINDEX3 carries three indices). */
    uint8_t stream_size;
};

/** A whole vertex format, decoded. */
struct vfetch_gx_format {
    /** Position-matrix index byte present (VCD_LO bit 0). */
    uint8_t pos_matrix_index;
    /** Texcoord-matrix index byte n present (VCD_LO bit 1 + n). */
    uint8_t tex_matrix_index[8];
    struct vfetch_gx_attr attr[VFETCH_GX_NUM_ATTRS];
    /** VAT A bit 30: shifts apply to u8/s8 too. */
    uint8_t byte_dequant;
    /** VAT A bit 31: indexed NBT normals carry three indices. */
    uint8_t normal_index3;
    /** VFETCH_GX_DIAG_* bits. */
    uint32_t diagnostics;
    /** Bytes of one vertex in the command stream. */
    uint32_t vertex_size;
};

/**
 * Decode VCD and VAT words. Fields of attributes the VCD does not enable are ignored (so a
 * reserved color format on an absent color is no error). Returns VFETCH_EINVAL for NULL
 * pointers, VFETCH_ERESERVED_COLOR for color format 6/7 on an enabled color.
 */
int vfetch_gx_decode(const struct vfetch_gx_desc *desc, struct vfetch_gx_format *out);

/** Bytes of one vertex in the command stream (what a FIFO or display-list walker needs).
    Same errors as vfetch_gx_decode. */
int vfetch_gx_vertex_size(const struct vfetch_gx_desc *desc, uint32_t *size);

#ifdef __cplusplus
}
#endif

#endif /* VFETCH_GX_H */
