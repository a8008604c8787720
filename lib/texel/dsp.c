/* Filling the texel kernel table: the reference everywhere, then climb the ISA ladder. */
#include <string.h>

#include "ladder.h"
#include "texel/texel_internal.h"

typedef void texel_init_fn(struct vfetch_texel_dsp *dsp);

static texel_init_fn *const packed_f32_ladder[] = VFETCH_LADDER(vfetch_texel_packed_f32_init);
static texel_init_fn *const packed_u8_ladder[] = VFETCH_LADDER(vfetch_texel_packed_u8_init);
static texel_init_fn *const float_ladder[] = VFETCH_LADDER(vfetch_texel_float_init);
static texel_init_fn *const block_ladder[] = VFETCH_LADDER(vfetch_texel_block_init);

void vfetch_texel_dsp_init(struct vfetch_texel_dsp *dsp, unsigned allowed)
{
    memset(dsp, 0, sizeof *dsp);
    VFETCH_LADDER_CLIMB(packed_f32_ladder, dsp, allowed);
    VFETCH_LADDER_CLIMB(packed_u8_ladder, dsp, allowed);
    VFETCH_LADDER_CLIMB(float_ladder, dsp, allowed);
    VFETCH_LADDER_CLIMB(block_ladder, dsp, allowed);
    const unsigned top = vfetch_ladder_top(vfetch_ladder_height(allowed));
    dsp->name = top ? vfetch_ladder_name[top - 1] : "c";
}
