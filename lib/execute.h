/*
 * The one execute call every front-end makes, and the validated draw it takes: inline where the
 * draw is one copy of its records, else lib/run.c's record-program and per-op paths. Not
 * installed.
 */
#ifndef VFETCH_EXECUTE_H
#define VFETCH_EXECUTE_H

#include <stddef.h>
#include <stdint.h>

#include "plan_internal.h"
#include "vfetch/vfetch.h"

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
    /** The run whose index buffer selects the records of the plan's indexed streams (its index type, entries,
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

#endif
