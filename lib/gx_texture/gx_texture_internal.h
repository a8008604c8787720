/*
 * The GX texture plan and kernel table, shared by the compiler (compile.c), the format table
 * (format.c), the decode walk (decode.c), the reference kernels (lib/ref/gx_texture_ref.c) and
 * the SIMD kernels (lib/simd/gx_texture_tmpl.c). Not installed.
 */
#ifndef VFETCH_GX_TEXTURE_INTERNAL_H
#define VFETCH_GX_TEXTURE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ladder.h"
#include "vfetch/gx_texture.h"

/** Formats are 4 bits, palette formats 2 (3 reserved): the kernel table's dimensions. */
#define VFETCH_GX_TEXTURE_FORMATS 16
#define VFETCH_GX_TLUT_FORMATS 3

/** One row of the format table (format.c), indexed by TX_SETIMAGE0.FORMAT. */
struct vfetch_gx_texture_format_info {
    const char *name;      /**< NULL for a reserved code */
    uint8_t block_w, block_h;
    uint8_t block_bytes;
    uint16_t palette_entries; /**< 0 for a format without a palette; else 16, 256 or 16384 */
};

/** The row of a format code (0..15); its name is NULL for a reserved one. */
const struct vfetch_gx_texture_format_info *vfetch_gx_texture_format_of(unsigned code);
/** The name of a palette format (0..2), else NULL. */
const char *vfetch_gx_tlut_name(unsigned tlut);

/**
 * A kernel: decode nrows block rows of nblocks blocks each, one after another from src (which
 * holds exactly nrows * nblocks * block_bytes readable bytes), into nrows * block_h output
 * rows of nblocks * block_w RGBA8 texels: row r at dst + r * dst_pitch. palette: the palette
 * as in TMEM (big-endian entries, as many as the format indexes), or NULL for a format without
 * one. Touches no other byte. One signature for the reference and every level. (Several block
 * rows a call: a whole small texture is one call, and a palette table is made once.)
 */
#define VFETCH_GX_TEXTURE_FN(name)                                                           \
    void name(const uint8_t *src, size_t nblocks, size_t nrows, const uint8_t *palette,      \
              uint8_t *dst, size_t dst_pitch)
typedef VFETCH_GX_TEXTURE_FN(vfetch_gx_texture_fn);

/** RGBA8 bytes to RGBA32F: float i at dst + 4 i = src[i] / 255.0f for i < n (dst: 4 n bytes,
    any alignment: a target's pitch need not be a multiple of 4). */
#define VFETCH_GX_TEXTURE_F32_FN(name) void name(const uint8_t *src, size_t n, uint8_t *dst)
typedef VFETCH_GX_TEXTURE_F32_FN(vfetch_gx_texture_f32_fn);

/** Palette entries to RGBA8: table[i] = entry i of format tlut (IA8, RGB565, RGB5A3), read
    big-endian from palette, for i < n (a multiple of 16). */
#define VFETCH_GX_TEXTURE_ENTRIES_FN(name)                                                   \
    void name(unsigned tlut, const uint8_t *palette, size_t n, uint32_t *table)
typedef VFETCH_GX_TEXTURE_ENTRIES_FN(vfetch_gx_texture_entries_fn);

/** C14X2 entries already converted: a RGBA8 table of all 16384 in place of the palette (a
    kernel with the signature above, `palette` the table's bytes). What a large C14X2 texture
    decodes with: converting 16384 entries once costs less than converting every texel's
    (lib/gx_texture/decode.c). */
#define VFETCH_GX_TEXTURE_C14X2_TABLE_MIN_TEXELS 65536

/**
 * The kernel table: per format and palette format (formats without a palette use column 0),
 * a kernel, or NULL where the level has none (the entry below it stays). Filled by climbing
 * the ISA ladder from the reference (lib/dsp.c's scheme).
 */
struct vfetch_gx_texture_dsp {
    vfetch_gx_texture_fn *decode[VFETCH_GX_TEXTURE_FORMATS][VFETCH_GX_TLUT_FORMATS];
    const char *level[VFETCH_GX_TEXTURE_FORMATS][VFETCH_GX_TLUT_FORMATS];
    vfetch_gx_texture_f32_fn *to_f32;
    vfetch_gx_texture_entries_fn *entries;
    vfetch_gx_texture_fn *c14x2_table;
};

/** The reference everywhere, then every level `allowed` (vfetch_cpu_flag bits) permits. */
void vfetch_gx_texture_dsp_init(struct vfetch_gx_texture_dsp *dsp, unsigned allowed);

/* The reference kernels (lib/ref/gx_texture_ref.c): the oracle every level is checked
   against; the table starts from them. */
void vfetch_gx_texture_ref_init(struct vfetch_gx_texture_dsp *dsp);

/* Per-level initialisers (lib/simd/gx_texture_tmpl.c, one compilation per level): each sets
   the entries its level implements, with its name. */
VFETCH_LADDER_DECLARE(vfetch_gx_texture_init, struct vfetch_gx_texture_dsp);

struct vfetch_gx_texture_plan {
    uint32_t setimage0, settlut;  /**< the values (bits 23:0) */
    const struct vfetch_gx_texture_format_info *format;
    uint8_t format_code;
    int8_t tlut;                  /**< palette format, -1 without a palette */
    uint32_t width, height;
    uint32_t blocks_x, blocks_y;  /**< padded size in blocks */
    uint8_t shift_w, shift_h;     /**< log2 of the block's width and height */
    uint8_t whole_blocks;         /**< width and height are multiples of the block's */
    uint8_t use_c14x2_table;      /**< a C14X2 texture of at least the table's texels */
    size_t source_bytes;          /**< the padded texture's bytes */
    size_t palette_bytes;         /**< the palette's bytes (2 an entry), 0 without one */
    vfetch_gx_texture_fn *decode;
    vfetch_gx_texture_f32_fn *to_f32;
    /** C14X2: the entry conversion and the table kernel (VFETCH_GX_TEXTURE_C14X2_TABLE_MIN_TEXELS),
        else NULL. */
    vfetch_gx_texture_entries_fn *entries;
    vfetch_gx_texture_fn *c14x2_table;
    const char *level;
};

#endif /* VFETCH_GX_TEXTURE_INTERNAL_H */
