/*
 * vfetch_run in two halves (lib/run.c), for a caller that must know a run's errors before it
 * knows where its records go: an indexed draw into a batch (lib/draw_indexed.c) checks the
 * run, then the batch's room, then runs it. Not installed.
 */
#ifndef VFETCH_RUN_H
#define VFETCH_RUN_H

#include "vfetch/vfetch.h"

/** vfetch_run_params_init's parameters as a value (no index buffer, max_index UINT32_MAX, the
    rest 0), for a front-end that fills a run's in one go (lib/maxwell/run.c). */
static inline struct vfetch_run_params vfetch_run_params_default(void)
{
    return (struct vfetch_run_params){ .index_type = VFETCH_INDEX_NONE, .max_index = UINT32_MAX };
}

/** Every check vfetch_run makes, in its order, but the output's (a NULL out, out_size): the
    bindings, the index buffer, the index range, every byte the run reads. 0 or the code
    vfetch_run would return for the same run with room enough. */
int vfetch_run_check_reads(const vfetch_plan *plan, const struct vfetch_run_params *params);

/** Run a draw that passed vfetch_run_check_reads, its output (out, out_size) checked by the
    caller: the generated code or the portable tier as vfetch_run chooses. 0, or
    VFETCH_ENOMEM (a stage or the compare mode's copy, before anything is written). */
int vfetch_run_checked(const vfetch_plan *plan, const struct vfetch_run_params *params);

/** A draw without an index buffer of a plan of one stream (its generated code's one-stream
    entry) whose stream is `binding`, run at once where vfetch_run would run it so (no instanced
    stream, below the crossover, every check passed in the terms such a draw leaves): 0 (run),
    or 1 where it is not such a draw or a check failed, nothing done: the caller's general path
    checks and reports (lib/maxwell/run.c and lib/draw_indexed.c, without building a
    vfetch_run_params). */
int vfetch_run_one_stream(const vfetch_plan *plan, uint32_t first, uint32_t count, void *out,
                          size_t out_size, const struct vfetch_binding *binding);

#endif
