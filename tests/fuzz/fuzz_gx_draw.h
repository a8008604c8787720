/*
 * One GX draw built from fuzz input and run through a compiled format, with every contract of
 * vfetch_gx_run() checked: the result code against a model of the documented checks (vertex
 * bytes, bound arrays, the skip value, every index against its array), untouched output and
 * result after an error, the counts in the result, and identical output from the scalar
 * reference and the per-op path. Shared by fuzz_gx and fuzz_gx_state.
 */
#ifndef VFETCH_FUZZ_GX_DRAW_H
#define VFETCH_FUZZ_GX_DRAW_H

#include "fuzz_input.h"
#include "vfetch/gx.h"

/** Run one draw with plan, which was compiled from cp at level_mask. */
void fuzz_gx_draw(struct fuzz_input *in, const vfetch_gx_plan *plan,
                  const struct vfetch_gx_desc *cp, unsigned level_mask);

#endif
