/*
 * Internal plan representation shared by plan.c, run.c and the kernels. Not installed.
 */
#ifndef VFETCH_INTERNAL_H
#define VFETCH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vfetch/vfetch.h"

/** One source component, compiled: where its container's bytes are and which field to take. */
struct vfetch_lane {
    uint8_t stream;      /**< stream index */
    uint8_t nbytes;      /**< container size: 1, 2 or 4 */
    uint8_t field_shift; /**< lowest bit of the field in the assembled container */
    uint8_t field_bits;  /**< width of the field */
    /** How byte_off is laid out, so that kernels can load the container in one go:
        VFETCH_LANE_LE (byte_off[k] = byte_off[0] + k), VFETCH_LANE_BE (byte_off[k] =
        byte_off[0] - k), or VFETCH_LANE_SCATTERED (anything else: assemble byte by byte). */
    uint8_t layout;
    /** Physical byte offsets within the record of the container's bytes, least significant
        first (the stream's byte order already applied). */
    uint32_t byte_off[4];
};

enum { VFETCH_LANE_LE = 0, VFETCH_LANE_BE = 1, VFETCH_LANE_SCATTERED = 2 };

struct vfetch_op_exec;

/** Text built into a caller's buffer the way snprintf does: len counts what the whole text
    needs, the buffer holds what fits (vfetch_plan_describe, vfetch_texel_describe). */
struct vfetch_text {
    char *buf;
    size_t size;
    size_t len;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void vfetch_text_printf(struct vfetch_text *t, const char *fmt, ...);

/**
 * A per-op kernel: convert n vertices of one op and store them. Stream s's records start at
 * base[s] and are stride[s] bytes apart (only the streams the op reads are set). Vertex i's
 * output record starts at dst + i * dst_stride; the kernel stores the components the write
 * mask enables, swizzled, at slots dst_slot + c, and touches no other byte. One signature for
 * the reference and every SIMD variant.
 */
#define VFETCH_CONVERT_FN(name)                                                             \
    void name(const struct vfetch_op_exec *op, const uint8_t *const *base,                  \
              const size_t *stride, size_t n, uint8_t *dst, size_t dst_stride)
typedef VFETCH_CONVERT_FN(vfetch_convert_fn);

struct vfetch_record_prog;

/**
 * A record-program executor (lib/record.h): run `groups` groups. Group g reads stream s at
 * base[s] + g * prog->group_step[s] and writes dst + g * prog->dst_step (the steps of the
 * plan the program was lowered for).
 */
#define VFETCH_RECORD_FN(name)                                                              \
    void name(const struct vfetch_record_prog *prog, const uint8_t *const *base, size_t groups, \
              uint8_t *dst)
typedef VFETCH_RECORD_FN(vfetch_record_fn);

/** A word copy (lib/word_copy.c): `bytes`, a multiple of 4, from src to dst, as stored or
    each 32-bit word's bytes reversed. The buffers do not overlap. */
typedef void vfetch_word_copy_fn(const uint8_t *src, uint8_t *dst, size_t bytes);

/** One op, compiled. */
struct vfetch_op_exec {
    vfetch_convert_fn *convert;
    enum vfetch_format format;
    enum vfetch_conversion conversion;
    uint8_t shift;
    uint8_t count;
    uint8_t swizzle[4];
    uint8_t write_mask;
    uint16_t dst_slot;
    uint32_t constant[4]; /**< VFETCH_FORMAT_CONSTANT: the words stored */
    struct vfetch_lane lane[4];
    /** Window fetch, for levels with a byte shuffle: when every component lies in one stream
        within 16 bytes (win_ok), one 16-byte load at record + win_lo and one shuffle by
        win_ctrl put container c, little-endian and zero-extended, into 32-bit lane c (lanes
        past count zero). win_span = highest byte - win_lo + 1 bounds what a load may read. */
    uint8_t win_ok;
    uint8_t win_stream;
    uint8_t win_span;
    uint32_t win_lo;
    uint8_t win_ctrl[16];
};

struct vfetch_record_prog;

struct vfetch_plan {
    struct vfetch_plan_desc desc;         /**< normalised copy */
    struct vfetch_op_exec ops[VFETCH_MAX_OPS];
    uint32_t stream_extent[VFETCH_MAX_STREAMS]; /**< bytes one vertex reads per stream */
    uint32_t stream_lo[VFETCH_MAX_STREAMS];     /**< lowest byte it reads (0 if none) */
    /** Bytes from one vertex's record to the next's: the stride, or 0 for the streams that
        read one record for the whole run (constant, instanced). */
    uint32_t vertex_stride[VFETCH_MAX_STREAMS];
    /** 1 if some stream is instanced (VFETCH_STEP_INSTANCE): runs move its binding first. */
    uint8_t has_instanced;
    uint32_t record_size;                 /**< out_slots * 4 */
    uint32_t out_stride;
    uint64_t hash;
    const char *isa;                      /**< level the kernels were chosen for */
    struct vfetch_record_prog *record;    /**< the record program, or NULL: per-op path */
    vfetch_record_fn *record_run;         /**< its executor */
    /** A program with smaller groups for draws of fewer than two of record's groups, or NULL
        (AVX-512 plans that keep the 512-bit program keep the 256-bit one here), and its
        executor. */
    struct vfetch_record_prog *record_small;
    vfetch_record_fn *record_small_run;
    /** Why record is NULL (enum vfetch_fallback), set at creation. */
    uint8_t fallback;
    /** VFETCH_WORD_COPY_* (vfetch_plan_word_copy): above the reference level, a draw without
        an index buffer is one copy of its records (the level's byte-reversing copy for
        BSWAP32), whatever else the plan holds. */
    uint8_t word_copy;
    vfetch_word_copy_fn *copy; /**< the level's copy for that kind */
};

enum {
    VFETCH_WORD_COPY_NONE = 0,
    VFETCH_WORD_COPY = 1,         /**< slot k = the record's word k as it is */
    VFETCH_WORD_COPY_BSWAP32 = 2, /**< slot k = the record's word k, bytes reversed */
};

/** Whether a created plan (ops compiled, sizes set) is a word copy: one sequential stream of
    stride S = out_stride = record size, slot k the raw 32 bits of the word at byte 4k (a
    float, or a 32-bit integer kept whole), all in memory order or all byte-reversed. */
int vfetch_plan_word_copy(const struct vfetch_plan *plan);

/** 1 if a stream reads one record for the whole run (constant and instanced streams). */
static inline int vfetch_step_fixed(enum vfetch_step step)
{
    return step == VFETCH_STEP_CONSTANT || step == VFETCH_STEP_INSTANCE;
}

/** Whether an output stride suits records of `slots` 32-bit slots: 0 (the record size), or a
    multiple of 4 at least the record. One rule for vfetch_plan_create and the R300 front-end,
    which checks it itself so that translate and compile agree. */
static inline int vfetch_out_stride_valid(uint32_t stride, uint32_t slots)
{
    return stride == 0 || (stride % 4 == 0 && stride >= 4 * slots);
}

/** Bytes of the in-place path's stack copy (run_past_end, run_short_tail in lib/run.c), and
    of the span per stream up to which the staged path stages a short draw whole. */
#define VFETCH_RUN_SMALL_SPAN 1024
/** Bytes of output records the in-place path's tail (and the staged path's) runs a group into. */
#define VFETCH_RUN_TAIL_OUT_BYTES 4096

/**
 * A validated draw as the one execute call (vfetch_execute) takes it from every
 * front-end: vfetch_run (R300, Maxwell, hand-built plans), GX's direct draws (the vertices
 * themselves) and GX's staged vertices. Whoever builds it has checked everything vfetch_run's
 * validation checks: bindings, index entries, every byte the draw reads, the output's size.
 */
struct vfetch_draw {
    /** The plan's streams, bound as it reads them: an instanced stream already moved to the
        one record it reads (it then runs as a constant stream). */
    const struct vfetch_binding *streams;
    /** Draw positions [first, first + count), count >= 1. */
    uint32_t first, count;
    /** The run whose index buffer gathers the plan's indexed streams (its index type, entries,
        offset and maximum), or NULL: every stream read in draw order. */
    const struct vfetch_run_params *indexed;
    /** count output records of the plan's stride. */
    void *out;
    /** 1: only the paths without a stage run; vfetch_execute returns VFETCH_EXECUTE_DECLINED
        where a stage would be needed, having written nothing or only records the staged path
        writes again with the same bytes (checkasm checks the in-place path this way). */
    uint8_t in_place_only;
};

/** vfetch_execute: the draw needs a stage and said in_place_only. */
#define VFETCH_EXECUTE_DECLINED 1

/** vfetch_execute's part for plans that are not a word copy (lib/run.c). */
int vfetch_execute_program(const struct vfetch_plan *plan, const struct vfetch_draw *draw);

/** Whether vfetch_execute runs a draw of this plan in draw order as one copy of its records. */
static inline int vfetch_execute_copies(const struct vfetch_plan *plan)
{
    return plan->word_copy;
}

/** That copy: count records of the plan's stride from data + first * stride to out. */
static inline void vfetch_execute_copy(const struct vfetch_plan *plan, const void *data,
                                       uint32_t first, uint32_t count, void *out)
{
    const size_t stride = plan->out_stride;
    plan->copy((const uint8_t *)data + (size_t)first * stride, (uint8_t *)out,
               (size_t)count * stride);
}

/**
 * Execute a validated draw: the one call every front-end makes. A word-copy plan's draw in
 * draw order is one copy of its records (lib/word_copy.c: validation put them inside the
 * binding, and the output holds count records of the stride, the record size); else the
 * plan's record program in place where every window lies inside its binding (short draws and
 * tails from stack copies), else through the stage, else per op. Returns 0, VFETCH_ENOMEM
 * (a stage, before any write), or VFETCH_EXECUTE_DECLINED (in_place_only). The copy is inline:
 * for GX's real draws (four vertices) it costs less than a call frame.
 */
static inline int vfetch_execute(const struct vfetch_plan *plan, const struct vfetch_draw *draw)
{
    if (vfetch_execute_copies(plan) && !draw->indexed) {
        vfetch_execute_copy(plan, draw->streams[0].data, draw->first, draw->count, draw->out);
        return 0;
    }
    return vfetch_execute_program(plan, draw);
}

/** Container size and field layout of each format. */
struct vfetch_format_info {
    const char *name;
    uint8_t container;     /**< bytes */
    uint8_t packed;        /**< 1: all components share one container */
    uint8_t max_count;     /**< components the format can supply */
    uint8_t is_float;
    uint8_t field_shift[4];
    uint8_t field_bits[4];
};
extern const struct vfetch_format_info vfetch_format_info[VFETCH_FORMAT_COUNT];

extern const char *const vfetch_conversion_name[VFETCH_CONV_COUNT];

/** 1 if every field of a format has 4..8 bits (what UNORM8 and PACK_UNORM8 widen). */
static inline int vfetch_format_fields_widen8(enum vfetch_format format)
{
    const struct vfetch_format_info *fi = &vfetch_format_info[format];
    if (fi->is_float || fi->max_count == 0)
        return 0;
    for (unsigned c = 0; c < fi->max_count; c++)
        if (fi->field_bits[c] < 4 || fi->field_bits[c] > 8)
            return 0;
    return 1;
}

/** 1 if a plan may pair this format with this conversion (both already in range). The
    constant "format" reads nothing and is no pair (plan_check_op takes it apart). */
static inline int vfetch_pair_valid(enum vfetch_format format, enum vfetch_conversion conv)
{
    if (format == VFETCH_FORMAT_CONSTANT)
        return 0;
    if (vfetch_format_info[format].is_float != (conv == VFETCH_CONV_FLOAT))
        return 0;
    /* 32-bit fields: the conversions Maxwell has (no 32-bit SNORM without the clamp, and
       nothing that widens or packs bytes). */
    if (format == VFETCH_FORMAT_FIXED32)
        return conv == VFETCH_CONV_UINT || conv == VFETCH_CONV_SINT || conv == VFETCH_CONV_UNORM ||
               conv == VFETCH_CONV_SNORM_ZERO_CLAMP || conv == VFETCH_CONV_INTEGER ||
               conv == VFETCH_CONV_SINTEGER;
    if (conv == VFETCH_CONV_UNORM8 || conv == VFETCH_CONV_PACK_UNORM8)
        return vfetch_format_fields_widen8(format);
    return 1;
}

/** An n-bit value (n = 4..8) widened to 8 bits by repeating its bits (UNORM8). */
static inline uint32_t vfetch_widen8(uint32_t v, unsigned n)
{
    return (v << (8 - n) | v >> (2 * n - 8)) & 0xff;
}

/** Float32 bits of 1.0, the default w. */
#define VFETCH_ONE_BITS 0x3f800000u

/**
 * Store one converted vec4 (float32 bits, missing components already defaulted) into an
 * output record: swizzle, then only the components the write mask enables. Shared by the
 * reference and the SIMD kernels' scalar paths.
 */
static inline void vfetch_store_vec4(const struct vfetch_op_exec *op, const uint32_t v[4],
                                     uint8_t *record)
{
    for (unsigned c = 0; c < 4; c++) {
        if (!(op->write_mask >> c & 1))
            continue;
        const uint8_t sel = op->swizzle[c];
        const uint32_t bits = sel < 4 ? v[sel] : sel == VFETCH_SWIZZLE_0 ? 0 : VFETCH_ONE_BITS;
        memcpy(record + 4 * ((size_t)op->dst_slot + c), &bits, 4);
    }
}

#endif
