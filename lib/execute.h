/*
 * The validated draw and the one call that executes it: the header of lib/execute.c, which
 * runs a draw on one of its plan's tiers (the generated code, lib/jit/, or the portable tier),
 * and of lib/portable.c, the portable tier (the record program, in place or through a stage,
 * or the per-op kernels). Every front-end validates a draw once, describes it as a struct
 * vfetch_draw and calls vfetch_execute: vfetch_run (lib/run.c: R300, Maxwell, hand-built
 * plans) and GX's draws (lib/gx/run.c's direct draws, and lib/gx/draw.c's conversion of staged
 * vertices). Nothing below validates again. Not installed.
 */
#ifndef VFETCH_EXECUTE_H
#define VFETCH_EXECUTE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "plan_internal.h"
#include "vfetch/vfetch.h"

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
    /** The run whose index buffer selects the records of the plan's indexed streams (its
        index type, entries, offset and maximum), or NULL: every stream read in draw order. */
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

/* The index buffer of a run, read as validation (lib/run.c) and the portable tier's staging
   read it: the entry at a draw position, and the record it selects. */
static inline uint32_t vfetch_run_index_entry(const struct vfetch_run_params *p, uint32_t position)
{
    if (p->index_type == VFETCH_INDEX_U16) {
        uint16_t v;
        memcpy(&v, (const uint8_t *)p->indices + (size_t)position * 2, 2);
        return v;
    }
    uint32_t v;
    memcpy(&v, (const uint8_t *)p->indices + (size_t)position * 4, 4);
    return v;
}

/* Index entry + offset, clamped to max_index; -1 if the sum is negative. The comparison with
   max_index comes first, in terms that cannot overflow (max - entry lies in [-2^32, 2^32]), so
   an offset near INT64_MAX saturates at max_index instead of overflowing. Nondecreasing in the
   entry: the highest entry gives the highest record, the lowest the lowest (run validation
   scans the buffer for those two only). */
static inline int64_t vfetch_run_entry_record(const struct vfetch_run_params *p, uint32_t entry)
{
    const int64_t max = p->max_index;
    if (p->index_offset > max - (int64_t)entry)
        return max;
    const int64_t sum = (int64_t)entry + p->index_offset; /* in [INT64_MIN + 0, max]: no overflow */
    return sum < 0 ? -1 : sum;
}

/* The record of a draw position (vfetch_run_entry_record of its entry). */
static inline int64_t vfetch_run_vertex_index(const struct vfetch_run_params *p, uint32_t position)
{
    return vfetch_run_entry_record(p, vfetch_run_index_entry(p, position));
}

/* Whether a stream's records are fetched through the run's index buffer (not read in draw
   order): indexed streams of an indexed run. */
static inline int vfetch_run_through_indices(const struct vfetch_stream *st,
                                             const struct vfetch_run_params *p)
{
    return st->step == VFETCH_STEP_INDEXED && p->index_type != VFETCH_INDEX_NONE;
}


/** The portable tier's stack copies (lib/portable.c): bytes of the in-place path's copy of a
    short draw's windows, and of the span per stream up to which a short draw is staged whole;
    bytes of output records the tail group runs into. checkasm's in-place draws stay inside
    them. */
#define VFETCH_RUN_SMALL_SPAN 1024
#define VFETCH_RUN_TAIL_OUT_BYTES 4096

/** The portable tier (lib/portable.c): the record program in place where every window lies
    inside its binding (short draws and tails from stack copies), else through a stage, else
    per op. Returns 0, VFETCH_ENOMEM (a stage, before any write), or VFETCH_EXECUTE_DECLINED
    (in_place_only). */
int vfetch_execute_portable(const struct vfetch_plan *plan, const struct vfetch_draw *draw);

/** vfetch_execute's part for plans that are not a word copy (lib/execute.c): the generated
    code where the plan has it and the draw is its (any draw through an index buffer, else
    below the plan's crossover), else the portable tier. */
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
 * binding, and the output holds count records of the stride, the record size); else
 * vfetch_execute_program picks the tier. Returns 0, VFETCH_ENOMEM (a stage, before any write),
 * or VFETCH_EXECUTE_DECLINED (in_place_only). The copy is inline: for GX's real draws (four
 * vertices) it costs less than a call frame.
 */
static inline int vfetch_execute(const struct vfetch_plan *plan, const struct vfetch_draw *draw)
{
    if (vfetch_execute_copies(plan) && !draw->indexed) {
        vfetch_execute_copy(plan, draw->streams[0].data, draw->first, draw->count, draw->out);
        return 0;
    }
    return vfetch_execute_program(plan, draw);
}

#endif
