/* Filling the primitive kernel table: none at the reference (the reference runs the draws),
   then climb the ISA ladder: the generators' kernels, then the index buffer's. */
#include <string.h>

#include "prim/prim_internal.h"

typedef void prim_init_fn(struct vfetch_prim_dsp *dsp);

static prim_init_fn *const ladder[] = VFETCH_LADDER(vfetch_prim_init);
static prim_init_fn *const index_ladder[] = VFETCH_LADDER(vfetch_prim_index_init);

void vfetch_prim_dsp_init(struct vfetch_prim_dsp *dsp, unsigned allowed)
{
    memset(dsp, 0, sizeof *dsp);
    dsp->level = "c";
    VFETCH_LADDER_CLIMB(ladder, dsp, allowed);
    VFETCH_LADDER_CLIMB(index_ladder, dsp, allowed);
}
