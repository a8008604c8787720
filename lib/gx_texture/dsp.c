/* Filling the GX texture kernel table: the reference everywhere, then climb the ISA ladder. */
#include <string.h>

#include "gx_texture/gx_texture_internal.h"
#include "ladder.h"

typedef void gx_texture_init_fn(struct vfetch_gx_texture_dsp *dsp);

static gx_texture_init_fn *const ladder[] = VFETCH_LADDER(vfetch_gx_texture_init);

void vfetch_gx_texture_dsp_init(struct vfetch_gx_texture_dsp *dsp, unsigned allowed)
{
    memset(dsp, 0, sizeof *dsp);
    vfetch_gx_texture_ref_init(dsp);
    VFETCH_LADDER_CLIMB(ladder, dsp, allowed);
}
