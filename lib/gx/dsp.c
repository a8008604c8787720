/* Filling GX's kernel table: the reference forms, then climb the ISA ladder. */
#include <string.h>

#include "gx/gx_dsp.h"
#include "ladder.h"

typedef void gx_init_fn(struct vfetch_gx_dsp *dsp);

static gx_init_fn *const index_ladder[] = VFETCH_LADDER(vfetch_gx_index_init);
static gx_init_fn *const gather_ladder[] = VFETCH_LADDER(vfetch_gx_gather_init);

void vfetch_gx_dsp_init(struct vfetch_gx_dsp *dsp, unsigned allowed)
{
    memset(dsp, 0, sizeof *dsp);
    dsp->read_indices = vfetch_gx_read_indices_c;
    dsp->index_addrs = vfetch_gx_index_addrs_c;
    dsp->read_index_addrs = vfetch_gx_read_index_addrs_c;
    VFETCH_LADDER_CLIMB(index_ladder, dsp, allowed);
    VFETCH_LADDER_CLIMB(gather_ladder, dsp, allowed);
}
