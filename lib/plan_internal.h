/*
 * The compiled vertex plan: plan.c builds it from a description, run.c and the kernels read
 * it. Each op's source components as byte maps, the kernels and record programs chosen for
 * the CPU, the streams' extents, and whether a draw is one copy of its records. Not installed.
 */
#ifndef VFETCH_PLAN_INTERNAL_H
#define VFETCH_PLAN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "jit/jit.h"
#include "kernel.h"
#include "prim/prim_internal.h"
#include "vertex_format.h"
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
    /** That level's scan of an index buffer for its lowest and highest entries (the guest
        index kernels of lib/prim), with which a run through one is validated. */
    vfetch_prim_scan_fn *index_scan;
    struct vfetch_record_prog *record;    /**< the record program, or NULL: per-op path */
    vfetch_record_fn *record_run;         /**< its executor */
    /** A program with smaller groups for draws of fewer than two of record's groups, or NULL
        (AVX-512 plans that keep the 512-bit program keep the 256-bit one here), and its
        executor. */
    struct vfetch_record_prog *record_small;
    vfetch_record_fn *record_small_run;
    /** A program lowered and not kept (the 256-bit one an AVX-512 plan dropped), held for
        the JIT to copy instead of lowering it again; freed once the plan's code is built. */
    struct vfetch_record_prog *record_spare;
    /** Why record is NULL (enum vfetch_fallback), set at creation. */
    uint8_t fallback;
    /** VFETCH_WORD_COPY_* (vfetch_plan_word_copy): above the reference level, a draw without
        an index buffer is one copy of its records (the level's byte-reversing copy for
        BSWAP32), whatever else the plan holds. */
    uint8_t word_copy;
    vfetch_word_copy_fn *copy; /**< the level's copy for that kind */
    /** The generated conversion (lib/jit/, docs/jit.md) of draws below jit_crossover
        records, or NULL: jit without an index buffer, jit_indexed through one (NULL where no
        stream is indexed); its code, and why there is none ("" with code). jit_compare:
        compiled under VFETCH_JIT_COMPARE (every such draw runs both tiers). */
    vfetch_jit_plan_fn *jit;
    vfetch_jit_plan_indexed_fn *jit_indexed;
    /** jit's entry past the load of a one-stream plan's record (NULL: several streams), and
        the most records a draw without an index buffer vfetch_run hands the generated code
        at once: jit_crossover - 1, 0 where it hands it none (no jit, the compare mode, an
        instanced stream), one compare for all of them. */
    vfetch_jit_plan_one_fn *jit_one;
    uint32_t jit_direct_most;
    /** jit_indexed where vfetch_run hands it draws through an index buffer at once (NULL in
        the compare mode and for instanced streams), and whether the plan's one stream is read
        through the indices (an R300 draw's array: its checks take no table of records). */
    vfetch_jit_plan_indexed_fn *jit_indexed_direct;
    uint8_t one_indexed_stream;
    struct vfetch_jit_code jit_code;
    const char *jit_reason;
    uint32_t jit_crossover;
    uint8_t jit_compare;
    /** The entries of the code (VFETCH_JIT_HELD_DIRECT: draws without an index buffer,
        _INDEXED: through one) written without the record programs' whole groups (gathered,
        through one): a plan of several streams whose groups did not lead the per-vertex pass
        where timed (plan.c, plan_choose_groups). */
    uint8_t jit_no_groups;
};

/** vfetch_plan_compile without generated code: the portable tier alone (a GX format's
    converter, whose draws GX's own generated code runs). */
int vfetch_plan_compile_portable(const struct vfetch_plan_desc *desc, vfetch_plan **out_plan);

enum {
    VFETCH_WORD_COPY_NONE = 0,
    VFETCH_WORD_COPY = 1,         /**< slot k = the record's word k as it is */
    VFETCH_WORD_COPY_BSWAP32 = 2, /**< slot k = the record's word k, bytes reversed */
};

/** Whether a created plan (ops compiled, sizes set) is a word copy: one sequential stream of
    stride S = out_stride = record size, slot k the raw 32 bits of the word at byte 4k (a
    float, or a 32-bit integer kept whole), all in memory order or all byte-reversed. */
int vfetch_plan_word_copy(const struct vfetch_plan *plan);
/* From how many records a word copy's direct draws leave the generated copy for the portable
   one (lib/word_copy.c; the plan's level and kind decide). */
uint32_t vfetch_word_copy_crossover(const struct vfetch_plan *plan);

/** 1 if a stream reads one record for the whole run (constant and instanced streams). */
/* Drop the program held for the JIT to copy (once the plan's code is built, or not). */
void vfetch_plan_drop_spare(struct vfetch_plan *plan);

static inline int vfetch_step_fixed(enum vfetch_step step)
{
    return step == VFETCH_STEP_CONSTANT || step == VFETCH_STEP_INSTANCE;
}

/** Whether an output stride suits records of `slots` 32-bit slots: 0 (the record size), or a
    multiple of 4 at least the record. One rule for vfetch_plan_compile and the R300 front-end,
    which checks it itself so that translate and compile agree. */
static inline int vfetch_out_stride_valid(uint32_t stride, uint32_t slots)
{
    return stride == 0 || (stride % 4 == 0 && stride >= 4 * slots);
}

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
