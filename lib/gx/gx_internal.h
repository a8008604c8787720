/*
 * The compiled GX vertex format, shared by compile.c (which builds it), run.c (which runs
 * it) and state.c (which caches it), in lib/gx/. Not installed.
 */
#ifndef VFETCH_GX_INTERNAL_H
#define VFETCH_GX_INTERNAL_H

#include "vfetch/gx.h"
#include "gx/gx_dsp.h"
#include "jit/jit.h"

/** Source of a staging copy that is the vertex itself (not an array). */
#define VFETCH_GX_FROM_VERTEX 0xff

/** Most staging copies: direct spans coalesce, so at most one per attribute plus the
    three NBT elements and the matrix-index run. */
#define VFETCH_GX_MAX_COPIES 32

/** Row staging (lib/gx/run_indexed.c): formats of at most this many copies, each at most 16 bytes,
    copy each vertex by 16-byte moves from per-vertex addresses. */
#define VFETCH_GX_ROW_MOVES 8

/** Output bytes of the stack copy through which the gathered program runs a draw's last
    partial group (lib/gx/run_gathered.c). */
#define VFETCH_GX_TAIL_OUT_BYTES 4096

/**
 * One step of staging: bytes copied into the staged vertex, the vertex with every attribute
 * direct (the layout the converter plan reads). From the vertex itself, or from an array
 * element whose index the vertex carries.
 */
struct vfetch_gx_copy {
    uint8_t array;      /**< attribute id whose array is read, or VFETCH_GX_FROM_VERTEX */
    uint8_t index_size; /**< indexed: 1 or 2 bytes, big-endian */
    uint16_t src;       /**< vertex byte offset of the data (direct) or of the index */
    uint16_t dst;       /**< staged byte offset */
    uint16_t size;      /**< bytes copied */
    uint16_t elem_off;  /**< indexed: offset within the element (NBT index3: 3 * j * size) */
};

struct vfetch_gx_plan {
    struct vfetch_gx_format format;
    struct vfetch_gx_desc desc;
    /** Converts staged vertices (or the vertices themselves when nothing is indexed); NULL
        when the format has nothing to convert. */
    vfetch_plan *converter;
    uint32_t staged_size;
    /** Staged offset of the matrix-index bytes: 0 (where the vertex has them) for formats
        converted in place, after every attribute for formats with indexed attributes, so
        that the attributes' bytes lie together and a record program's lanes reach them
        (matrix bytes first put 120 bytes between a packed record's last texcoord and its
        first matrix index, more than a lane's 16-byte window). */
    uint32_t matrix_staged;
    uint32_t out_stride;
    uint32_t record_size;
    int16_t location_slot[VFETCH_GX_NUM_LOCATIONS];
    /** Some attribute is indexed: vertices go through staging. */
    uint8_t any_indexed;
    /** Index of the position's copy when the position is indexed (its skip value is
        checked), else -1. */
    int8_t position_copy;
    uint8_t num_copies;
    struct vfetch_gx_copy copies[VFETCH_GX_MAX_COPIES];
    /** The converter's record program in its gathered form (gx/gx_dsp.h), which converts
        draws with indexed attributes from their rows' address columns without a stage, or
        NULL (no record program, a format not staged by rows, too many pieces), and its
        executor. */
    struct vfetch_rp_gather *gather;
    vfetch_record_gather_fn *gather_run;
    /** Staging kernels of the level the plan was compiled at (gx/gx_dsp.h). */
    vfetch_gx_indices_fn *read_indices;
    vfetch_gx_addrs_fn *index_addrs;
    vfetch_gx_index_addrs_fn *read_index_addrs;
    /** The generated draw (lib/jit/, docs/jit.md), or NULL: the portable tier runs every draw;
        its code, and why there is none (a static sentence, "" with code). */
    vfetch_jit_gx_fn *jit_entry;
    /** jit_entry where draws run it directly (NULL under VFETCH_JIT_COMPARE, whose draws run
        both tiers through lib/gx/run.c) */
    vfetch_jit_gx_fn *jit_run;
    /** What a state's draw calls (lib/gx/state.h): where jit_run is set the same code past
        its test of the indexed arrays' data (vfetch_jit_code's entry_bound: a state's arrays
        are NULL only where their size is 0), else vfetch_gx_run; never NULL once compiled, so
        that the draw does not test for the generated code. */
    vfetch_jit_gx_fn *draw;
    /** The generated batched draw of a direct format (lib/jit/x86_batch.c), or NULL; and the
        same where batched draws run it directly (NULL under VFETCH_JIT_COMPARE, whose draws
        run it beside lib/gx/batch.c's C way). */
    vfetch_jit_gx_batch_fn *jit_batch_entry;
    vfetch_jit_gx_batch_fn *jit_batch;
    struct vfetch_jit_code jit_code;
    const char *jit_reason;
    /** Draws of at least this many vertices run the portable tier (docs/jit.md). */
    uint32_t jit_crossover;
    /** The plan was compiled under VFETCH_JIT_COMPARE: every draw runs both tiers. */
    uint8_t jit_compare;
    /** Its code converts vertex by vertex where the generator would have emitted whole groups:
        the per-vertex pass was measured faster on this machine (lib/gx/compile.c). */
    uint8_t jit_no_groups;
};

/** vfetch_gx_run without the generated code: every check, then the portable tier (the record
    program or the per-op kernels). The generated code hands a draw it does not run to it. */
int vfetch_gx_run_portable(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                           struct vfetch_gx_result *result);

/** 1 if the output options of a compiled format (or of a state's formats) are in range. */
static inline int vfetch_gx_options_valid(enum vfetch_gx_layout layout,
                                          enum vfetch_gx_color_output color_output,
                                          enum vfetch_path path)
{
    return (unsigned)layout <= VFETCH_GX_LAYOUT_ISBE_FULL &&
           (unsigned)color_output <= VFETCH_GX_COLOR_RGBA8 && (unsigned)path <= VFETCH_PATH_PER_OP;
}

#endif
