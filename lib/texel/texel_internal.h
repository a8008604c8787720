/*
 * The texel plan and kernel table, shared by the compiler (compile.c), the format table
 * (format.c), the surface walker (decode.c), the reference decoder (lib/ref/texel_ref.c) and
 * the SIMD kernels (lib/simd/texel_*_tmpl.c). Not installed.
 */
#ifndef VFETCH_TEXEL_INTERNAL_H
#define VFETCH_TEXEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ladder.h"
#include "vfetch/texel.h"

/** How a format's blocks are stored, which decides the decoder. */
enum vfetch_texel_class {
    VFETCH_TEXEL_CLASS_PACKED = 0,  /**< up to four fixed-point fields in a 1..8-byte container */
    VFETCH_TEXEL_CLASS_BITS1,       /**< TX_FMT_1 / 1_REVERSE: a byte holds 8 one-bit texels */
    VFETCH_TEXEL_CLASS_FLOAT16,     /**< 1, 2 or 4 binary16 components */
    VFETCH_TEXEL_CLASS_FLOAT32,     /**< 1, 2 or 4 binary32 components */
    VFETCH_TEXEL_CLASS_DXT1,
    VFETCH_TEXEL_CLASS_DXT3,
    VFETCH_TEXEL_CLASS_DXT5,
    VFETCH_TEXEL_CLASS_BC4,         /**< ATI1N: one 8-byte BC4 block */
    VFETCH_TEXEL_CLASS_BC5,         /**< ATI2N: two of them */
    VFETCH_TEXEL_CLASS_CXV8U8,      /**< two signed bytes and a computed third */
    VFETCH_TEXEL_CLASS_Y8,          /**< code 18 under VFETCH_TEXEL_CODE18_Y8 */
    VFETCH_TEXEL_CLASS_YUV444,      /**< AVYU444 */
    VFETCH_TEXEL_CLASS_YUV422,      /**< VYUY422 / YVYU422: two texels in 4 bytes */
    VFETCH_TEXEL_CLASS_UNSUPPORTED, /**< W24_FP, 16_MPEG, 16_16_MPEG */
};

/** One fixed-point field of a little-endian container: bits shift .. shift + bits - 1. */
struct vfetch_texel_field {
    uint8_t shift;
    uint8_t bits;
};

/** One row of the format table (format.c): TXFORMAT code x TXFORMAT_MSB. */
struct vfetch_texel_format {
    const char *name;
    uint8_t cls;          /**< enum vfetch_texel_class */
    uint8_t block_w, block_h;
    uint8_t block_bytes;
    uint8_t count;        /**< components stored (PACKED, FLOAT16/32; 4 for the rest) */
    /** PACKED: the fields of components 0..count-1 (10-bit formats: the ALIGN10_LOW layout);
        YUV422: byte index of Y0, U, Y1, V; YUV444: byte index of U, Y, V, A. */
    struct vfetch_texel_field field[4];
    uint8_t ten_bit;      /**< 1 for TX_FMT_10, 10_10, 10_10_10_10 (vfetch_texel_align10) */
};

/** The table row of a TXFORMAT code (0..31) and TXFORMAT_MSB (0/1). */
const struct vfetch_texel_format *vfetch_texel_format_of(unsigned code, int msb);
/** Code 18 read as the document's TX_FMT_Y8 (VFETCH_TEXEL_CODE18_Y8). */
const struct vfetch_texel_format *vfetch_texel_format_y8(void);

/** What an output channel (R, G, B, A) holds, compiled. */
enum {
    VFETCH_TEXEL_SEL_ZERO = 4,
    VFETCH_TEXEL_SEL_ONE = 5,
};

/**
 * A kernel: decode nblocks consecutive blocks of one block row, starting at src (which holds
 * exactly nblocks * block_bytes readable bytes), into block_h output rows of nblocks * block_w
 * texels: row r at dst + r * dst_pitch, texels RGBA32F (16 bytes) or RGBA8 (4 bytes) as the
 * table entry says. Touches no other byte. One signature for the reference and every level.
 */
#define VFETCH_TEXEL_FN(name)                                                                \
    void name(const struct vfetch_texel_plan *plan, const uint8_t *src, size_t nblocks,      \
              uint8_t *dst, size_t dst_pitch)
typedef VFETCH_TEXEL_FN(vfetch_texel_fn);

/** A kernel family's prepare: fill the family's slot of plan->kernel_data (vfetch_texel_dsp). */
typedef void vfetch_texel_prepare_fn(struct vfetch_texel_plan *plan);

struct vfetch_texel_plan {
    uint32_t format1, format2;
    struct vfetch_texel_options options;
    const struct vfetch_texel_format *format;
    /** The fields after TX_FMT_10's alignment (PACKED only). */
    struct vfetch_texel_field field[4];
    uint8_t count;
    /** Output channel c (R, G, B, A) takes component sel[c] (0..3) or a constant
        (VFETCH_TEXEL_SEL_ZERO/ONE). Components the format lacks are already constants here. */
    uint8_t sel[4];
    /** SIGNED_COMPn, per component (cleared where the format ignores it). */
    uint8_t is_signed[4];
    /** 1 where GAMMA linearises output channel c (R, G, B only). */
    uint8_t gamma[4];
    uint8_t yuv_mode;  /**< YUV_TO_RGB: 0 off, 1 with clamp, 2 without */
    uint8_t swap_yuv;  /**< SWAP_YUV */
    uint8_t pow2;      /**< POW2FIX2FLT */
    uint8_t coord_type;
    uint8_t rgba8_exact;
    /** Component index per DXT colour: dxt_comp[0] is the component red goes to, etc. */
    uint8_t dxt_comp[3];
    /** GAMMA: the linear value of every 8-bit-or-less code, per output channel (indexed by the
        field's value; DXT/BC: by the 8-bit value). */
    float gamma_lut[3][256];
    /** The chosen kernels: to RGBA32F, and to RGBA8 (NULL unless rgba8_exact), with the name
        of the level each comes from. */
    vfetch_texel_fn *to_f32;
    vfetch_texel_fn *to_u8;
    const char *level_f32;
    const char *level_u8;
    /** What the chosen level's PACKED / FLOAT16 / FLOAT32 kernels precompute for this plan:
        a slot per kernel family, filled by the family's prepare (vfetch_texel_dsp) and opaque
        outside its lib/simd/texel_*_tmpl.c, whose kernels recompute the data when another
        level filled it (lib/simd/texel_vec.h). A plan is PACKED or FLOAT16/32, never both:
        the float slot shares the packed slots' bytes. */
    union {
        struct {
            uint64_t f32[64]; /**< texel_packed_f32_tmpl.c */
            uint64_t u8[32];  /**< texel_packed_u8_tmpl.c */
        } packed;
        uint64_t floats[64]; /**< texel_float_tmpl.c */
    } kernel_data;
    /** TX_FMT_1 / 1_REVERSE (bits1.c): the RGBA8 texels of every byte value (rgba8_exact
        plans), and the RGBA32F texel of a 0 bit and of a 1 bit. */
    uint8_t bits1_u8[256][8][4];
    float bits1_f32[2][4];
};

/** TX_FMT_1 / 1_REVERSE (bits1.c): tables from the reference, then table kernels. */
void vfetch_texel_bits1_prepare(struct vfetch_texel_plan *plan);
VFETCH_TEXEL_FN(vfetch_texel_bits1_u8);
VFETCH_TEXEL_FN(vfetch_texel_bits1_f32);

/**
 * The kernel table: per class, a kernel per output, or NULL where the level has none (the
 * reference runs then). Filled by climbing the ISA ladder like the vertex table (lib/dsp.c).
 * What a kernel must accept: every plan of its class that compile.c hands it, i.e. without
 * GAMMA (the reference applies the tables), and for the DXT/BC entries only unsigned
 * components (BC: truncating interpolation). The RGBA8 entries only see rgba8_exact plans.
 * A family with per-plan data has a prepare, set with its kernels: compile.c calls it for
 * every plan before the kernels run, and it leaves plans of other classes alone.
 */
struct vfetch_texel_dsp {
    /* lib/simd/texel_packed_f32_tmpl.c */
    vfetch_texel_fn *packed_f32;  /**< CLASS_PACKED: any fields, signed, POW2FIX2FLT */
    vfetch_texel_prepare_fn *packed_f32_prepare;
    /* lib/simd/texel_packed_u8_tmpl.c */
    vfetch_texel_fn *packed_u8;   /**< CLASS_PACKED, rgba8_exact */
    vfetch_texel_prepare_fn *packed_u8_prepare;
    /* lib/simd/texel_float_tmpl.c */
    vfetch_texel_fn *float16_f32; /**< CLASS_FLOAT16 */
    vfetch_texel_fn *float32_f32; /**< CLASS_FLOAT32 */
    vfetch_texel_prepare_fn *float_prepare;
    /* lib/simd/texel_block_tmpl.c */
    vfetch_texel_fn *dxt_u8;      /**< DXT1/3/5 */
    vfetch_texel_fn *dxt_f32;
    vfetch_texel_fn *bc_u8;       /**< ATI1N/ATI2N, truncating */
    vfetch_texel_fn *bc_f32;
    /** The level's name ("c" for the reference alone). */
    const char *name;
};

void vfetch_texel_dsp_init(struct vfetch_texel_dsp *dsp, unsigned allowed);

/* Per-level initialisers, one compilation of each template per level: each sets the entries
   its level implements. */
VFETCH_LADDER_DECLARE(vfetch_texel_packed_f32_init, struct vfetch_texel_dsp);
VFETCH_LADDER_DECLARE(vfetch_texel_packed_u8_init, struct vfetch_texel_dsp);
VFETCH_LADDER_DECLARE(vfetch_texel_float_init, struct vfetch_texel_dsp);
VFETCH_LADDER_DECLARE(vfetch_texel_block_init, struct vfetch_texel_dsp);

#endif /* VFETCH_TEXEL_INTERNAL_H */
