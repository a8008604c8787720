/*
 * vfetch — the conversion plan IR.
 *
 * A plan says, for one vertex format, where every source component lives and how it turns into
 * 32-bit output slots. Front-ends (r300.h, later gx.h) fill a vfetch_plan_desc from register
 * words; a user may also fill one by hand. vfetch_plan_compile() validates the description,
 * chooses the kernels once, and returns an immutable plan.
 *
 * The model:
 *
 *   streams  — each a sequence of fixed-size records (one per vertex) in one caller buffer.
 *   ops      — each fetch op reads up to four components of one element, converts them to
 *              float, fills the missing ones with (0, 0, 0, 1), swizzles (with constant 0/1)
 *              and stores the components its write mask enables into consecutive 32-bit slots
 *              of the output record.
 *   output   — one record of out_stride bytes per vertex, holding out_slots 32-bit slots.
 *
 * Every source component is located by (stream, logical byte offset within the record).
 * "Logical" means: as the bytes read after the stream's byte swap (see vfetch_byte_order). This
 * keeps the IR explicit enough to be lowered to byte-gather tables (the record program): each
 * component is a container of 1, 2 or 4 bytes whose physical byte offsets the plan knows.
 */
#ifndef VFETCH_PLAN_H
#define VFETCH_PLAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most streams one plan reads (R300 has at most 16 vertex arrays). */
#define VFETCH_MAX_STREAMS 32
/** Most fetch ops in one plan (R300: 16 elements, FLOAT_8 counts as two ops). */
#define VFETCH_MAX_OPS 128
/** Most 32-bit slots in one output record (R300's full input memory: 32 vec4 = 128 slots). */
#define VFETCH_MAX_SLOTS 256
/** Most front-end "locations" a plan can report (R300: the 32 DST_VEC_LOC vectors). */
#define VFETCH_MAX_LOCATIONS 32

/**
 * How the bytes of a stream are ordered in memory.
 *
 * The dword swap modes are R300's VAP_CNTL_STATUS.VC_SWAP: they apply to every dword of a record
 * (dword k = record bytes 4k..4k+3), and require a stride that is a multiple of 4. Component
 * offsets in ops are logical: logical byte b of a dword is physical byte b ^ 1 (SWAP_16),
 * b ^ 3 (SWAP_32) or b ^ 2 (SWAP_HALF). Containers are then read little-endian.
 *
 * VFETCH_ORDER_BIG_ENDIAN reads each component's container (1, 2 or 4 bytes) big-endian, at any
 * alignment (GameCube/Wii data).
 */
enum vfetch_byte_order {
    VFETCH_ORDER_LITTLE = 0,     /**< as in memory, containers little-endian (VC_SWAP 0) */
    VFETCH_ORDER_SWAP_16 = 1,    /**< AABBCCDD -> BBAADDCC within each dword (VC_SWAP 1) */
    VFETCH_ORDER_SWAP_32 = 2,    /**< AABBCCDD -> DDCCBBAA within each dword (VC_SWAP 2) */
    VFETCH_ORDER_SWAP_HALF = 3,  /**< AABBCCDD -> CCDDAABB within each dword (VC_SWAP 3) */
    VFETCH_ORDER_BIG_ENDIAN = 4, /**< each container big-endian, any alignment */
};

/**
 * Which record of a stream a vertex reads.
 *
 * A run has draw positions p = first .. first + count - 1. An indexed stream reads record
 * index[p] (after index offset and clamp) when the run has an index buffer, else record p.
 * A sequential stream always reads record p (e.g. R300 immediate-mode data, which is already
 * in draw order). A constant stream always reads record 0 (stride ignored). An instanced stream
 * reads one record for the whole run: base_instance + instance / divisor (vfetch_run_params),
 * or base_instance when its divisor is 0 (Maxwell's instanced vertex streams).
 */
enum vfetch_step {
    VFETCH_STEP_INDEXED = 0,
    VFETCH_STEP_SEQUENTIAL = 1,
    VFETCH_STEP_CONSTANT = 2,
    VFETCH_STEP_INSTANCE = 3,
};

/** One source stream: the layout of its records. Its memory is bound at run time. */
struct vfetch_stream {
    /** Bytes from one record to the next. A multiple of 4 for the dword swap modes. */
    uint32_t stride;
    /** Byte order of the data, see vfetch_byte_order. */
    enum vfetch_byte_order order;
    /** How the record number is chosen, see vfetch_step. */
    enum vfetch_step step;
    /** VFETCH_STEP_INSTANCE only: instances per record (0: every instance reads the base
        instance's record). Ignored (normalised to 0) for the other steps. */
    uint32_t divisor;
};

/**
 * How one component's bits are stored. Each format fixes the container size and the bit field
 * of each component inside it (component 0 = least significant field).
 */
enum vfetch_format {
    VFETCH_FORMAT_FLOAT32 = 0,    /**< 4-byte container, IEEE binary32 */
    VFETCH_FORMAT_FLOAT16 = 1,    /**< 2-byte container, IEEE binary16 (denormals, inf, NaN) */
    VFETCH_FORMAT_FIXED8 = 2,     /**< 1-byte container, 8-bit fixed point */
    VFETCH_FORMAT_FIXED16 = 3,    /**< 2-byte container, 16-bit fixed point */
    VFETCH_FORMAT_FIXED_10_10_10 = 4, /**< 4-byte container shared by 3 components:
                                           bits 9:0, 19:10, 29:20 (R300 VECTOR_3_TTT) */
    VFETCH_FORMAT_FIXED_11_11_10 = 5, /**< 4-byte container shared by 3 components:
                                           bits 10:0, 21:11, 31:22 (R300 VECTOR_3_EET) */
    VFETCH_FORMAT_RGB565 = 6,   /**< 2-byte container shared by 3 components: R 15:11, G 10:5,
                                     B 4:0 (GX rgb565) */
    VFETCH_FORMAT_RGBA4444 = 7, /**< 2-byte container shared by 4 components: R 15:12, G 11:8,
                                     B 7:4, A 3:0 (GX rgba4444) */
    VFETCH_FORMAT_RGBA6666 = 8, /**< 3-byte container shared by 4 components: R 23:18,
                                     G 17:12, B 11:6, A 5:0 (GX rgba6666) */
    VFETCH_FORMAT_UINT6 = 9,    /**< 1-byte container, bits 5:0 (GX matrix index byte) */
    /** 4-byte container, a 32-bit field. Conversions: UINT, SINT, UNORM, SNORM_ZERO_CLAMP,
        INTEGER, SINTEGER (Maxwell's 32-bit UNORM/SNORM/USCALED/SSCALED/UINT/SINT). */
    VFETCH_FORMAT_FIXED32 = 10,
    /** 4-byte container shared by 4 components: bits 9:0, 19:10, 29:20, 31:30 (Maxwell
        A2B10G10R10: R, G, B, then the 2-bit A) */
    VFETCH_FORMAT_FIXED_10_10_10_2 = 11,
    /** 4-byte container shared by 3 unsigned small floats: bits 10:0 and 21:11 (5-bit
        exponent, 6-bit mantissa), 31:22 (5-bit exponent, 5-bit mantissa); Maxwell B10G11R11.
        Conversion FLOAT: each value is exactly the binary16 with the same exponent and
        mantissa bits (denormals, inf and NaN as FLOAT16 widens them). */
    VFETCH_FORMAT_UFLOAT_11_11_10 = 12,
    /** No source: the op stores vfetch_op.constant (slot defaults, an integer attribute's
        missing components). Conversion FLOAT, count 0; the swizzle is not used. */
    VFETCH_FORMAT_CONSTANT = 13,
    VFETCH_FORMAT_COUNT
};

/**
 * How a component's field (n bits, value v) becomes a float. Every result is one exact rational
 * value rounded once to binary32, round-to-nearest-even.
 */
enum vfetch_conversion {
    VFETCH_CONV_FLOAT = 0,      /**< float formats only: binary32 bits copied, binary16 widened
                                     exactly (signalling NaN quieted, like F16C) */
    VFETCH_CONV_UINT = 1,       /**< unsigned v * 2^-shift */
    VFETCH_CONV_SINT = 2,       /**< two's-complement v * 2^-shift */
    VFETCH_CONV_UNORM = 3,      /**< v / (2^n - 1) */
    VFETCH_CONV_SNORM_ZERO = 4, /**< signed v / (2^(n-1) - 1); -2^(n-1) gives slightly below -1 */
    VFETCH_CONV_SNORM_ZERO_CLAMP = 5, /**< max(signed v / (2^(n-1) - 1), -1) */
    VFETCH_CONV_SNORM_NO_ZERO = 6,    /**< (2v + 1) / (2^n - 1): symmetric, 0 is not exact */
    /** Fields of 4..8 bits: widened to 8 bits by bit replication (v << (8-n) | v >> (2n-8)),
        then / 255 (GX colors). Equals UNORM for 4 and 8 bits, not for 5 and 6. */
    VFETCH_CONV_UNORM8 = 7,
    /** The field's unsigned value stored as a 32-bit integer, not a float (GX matrix indices).
        Missing components and the constant selectors still store float 0.0 / 1.0 bits. */
    VFETCH_CONV_INTEGER = 8,
    /** Fields of 4..8 bits, RGBA8 output: each component widened to 8 bits as UNORM8 does
        (missing ones: 0, 0, 0, 255), packed into the one slot dst_slot as bytes R, G, B, A in
        memory order. Needs the identity swizzle and write_mask 1. */
    VFETCH_CONV_PACK_UNORM8 = 9,
    /** The field's two's-complement value sign-extended to a 32-bit integer, not a float
        (Maxwell SINT attributes). Missing components and constants as for INTEGER. */
    VFETCH_CONV_SINTEGER = 10,
    VFETCH_CONV_COUNT
};

/** Swizzle selectors for vfetch_op.swizzle. */
enum vfetch_swizzle {
    VFETCH_SWIZZLE_X = 0,
    VFETCH_SWIZZLE_Y = 1,
    VFETCH_SWIZZLE_Z = 2,
    VFETCH_SWIZZLE_W = 3,
    VFETCH_SWIZZLE_0 = 4, /**< constant 0.0 */
    VFETCH_SWIZZLE_1 = 5, /**< constant 1.0 */
};

/** Where one source component lives. */
struct vfetch_source {
    /** Index into vfetch_plan_desc.streams. */
    uint8_t stream;
    /** Logical byte offset of the component's container within the stream's record. */
    uint32_t offset;
};

/** One fetch op: one element, up to four components, into up to four output slots. */
struct vfetch_op {
    /** Storage format of every component of this element. */
    enum vfetch_format format;
    /** Numeric conversion: FLOAT for float formats, any other for fixed formats (UNORM8 and
        PACK_UNORM8 only where every field has 4..8 bits). */
    enum vfetch_conversion conversion;
    /** For UINT/SINT: the result is v * 2^-shift (0..31). Must be 0 otherwise. */
    uint8_t shift;
    /** Components the element supplies, 1..4 (a packed format supplies all of its fields: 3 or 4). Missing
        components read as x = y = z = 0, w = 1. */
    uint8_t count;
    /** Location of each supplied component (entries past count are ignored). For the packed
        formats all three components name the same container. */
    struct vfetch_source src[4];
    /** Output component c takes converted component swizzle[c] (or a constant). */
    uint8_t swizzle[4];
    /** Bit c set: output component c is stored at slot dst_slot + c. A cleared bit leaves that
        slot as it was (the caller's buffer content, or an earlier op of the same vertex). At
        least one bit: an op that stores nothing is VFETCH_EPLAN. */
    uint8_t write_mask;
    /** First 32-bit output slot of this op. */
    uint16_t dst_slot;
    /** VFETCH_FORMAT_CONSTANT only: the 32 bits stored into slot dst_slot + c (under the
        write mask). Ignored (normalised to 0) for every other format. */
    uint32_t constant[4];
};

/** Which executor a plan uses. */
enum vfetch_path {
    /** The record program where the plan and the CPU allow it, else per-op kernels. */
    VFETCH_PATH_AUTO = 0,
    /** Always the per-op kernels (for comparisons and benchmarks). */
    VFETCH_PATH_PER_OP = 1,
};

/** A whole plan description. Start from vfetch_plan_desc_init() (not a zeroed struct: a zero
    swizzle reads x four times, a zero mask stores nothing), then fill. */
struct vfetch_plan_desc {
    /** Number of streams used, 1..VFETCH_MAX_STREAMS. */
    uint32_t num_streams;
    struct vfetch_stream streams[VFETCH_MAX_STREAMS];
    /** Number of ops, 1..VFETCH_MAX_OPS. Ops run in order: a later op overwrites the slots an
        earlier one wrote. */
    uint32_t num_ops;
    struct vfetch_op ops[VFETCH_MAX_OPS];
    /** 32-bit slots per output record, 1..VFETCH_MAX_SLOTS; every op's stored slots must lie
        below it. */
    uint32_t out_slots;
    /** Bytes from one output record to the next; 0 means out_slots * 4. A multiple of 4 and at
        least out_slots * 4. */
    uint32_t out_stride;
    /** Front-end locations (R300: DST_VEC_LOC 0..31): the first output slot of each, or -1 if
        the plan does not write it. Informational; vfetch_plan_location() reads it. Set every
        unused entry to -1 (vfetch_plan_desc_init() does). */
    int16_t location_slot[VFETCH_MAX_LOCATIONS];
    /** Executor choice, see vfetch_path. Default VFETCH_PATH_AUTO. Results are bit-identical
        either way; only speed differs. */
    enum vfetch_path path;
};

/**
 * Fill an op with the defaults a hand-built op needs: identity swizzle (x, y, z, w) and every
 * component stored (write_mask 0xf); everything else zero (format, conversion, shift, count,
 * sources, dst_slot: set them). A zeroed op is not usable: its swizzle reads x four times and
 * its mask stores nothing (vfetch_plan_compile() refuses an op whose write_mask is 0).
 */
void vfetch_op_init(struct vfetch_op *op);

/** Fill a description with no streams, no ops (each entry of ops[] vfetch_op_init()ed, so that
    a filled op keeps the identity swizzle and full mask unless set), and every location
    unused. */
void vfetch_plan_desc_init(struct vfetch_plan_desc *desc);

#ifdef __cplusplus
}
#endif

#endif /* VFETCH_PLAN_H */
