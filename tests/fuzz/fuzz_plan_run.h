/*
 * One plan description, three ways (at the level under test, at the scalar reference, and on
 * the per-op path), and one run of it built from fuzz input, with every contract of
 * vfetch_plan_compile() and vfetch_run() checked. Shared by fuzz_plan and fuzz_r300.
 */
#ifndef VFETCH_FUZZ_PLAN_RUN_H
#define VFETCH_FUZZ_PLAN_RUN_H

#include "fuzz_input.h"
#include "vfetch/vfetch.h"

struct fuzz_plan_set {
    const struct vfetch_plan_desc *desc; /**< as given to vfetch_plan_compile */
    vfetch_plan *test;   /**< created at the level under test */
    vfetch_plan *ref;    /**< created with the CPU mask 0: the scalar reference */
    vfetch_plan *per_op; /**< path VFETCH_PATH_PER_OP at the level under test */
};

/**
 * Create the three plans. Returns vfetch_plan_compile's result, after checking that all three
 * agree, that a failed call left the out-pointer alone, and that a created plan reports what
 * its description implies (extents, record size, stride, locations, describe, hash/equal).
 */
int fuzz_plan_set_create(struct fuzz_plan_set *set, const struct vfetch_plan_desc *desc,
                         unsigned level_mask);

void fuzz_plan_set_free(struct fuzz_plan_set *set);

/** Read run parameters and buffers from the input, run the three plans and check the result
    code against the model, the canary after errors and in bytes no op writes, and that the
    three outputs are identical. */
void fuzz_plan_run(struct fuzz_input *in, const struct fuzz_plan_set *set);

#endif
