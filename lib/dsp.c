/* Filling the kernel table: reference first, then climb the ladder while the CPU allows. */
#include <string.h>

#include "cpu.h"
#include "dsp.h"
#include "ladder.h"

typedef void dsp_init_fn(struct vfetch_dsp *dsp);

static dsp_init_fn *const convert_ladder[] = VFETCH_LADDER(vfetch_dsp_init);
static dsp_init_fn *const record_ladder[] = VFETCH_LADDER(vfetch_record_init);
static dsp_init_fn *const copy_ladder[] = VFETCH_LADDER(vfetch_copy_init);

void vfetch_dsp_init(struct vfetch_dsp *dsp, unsigned allowed)
{
    memset(dsp, 0, sizeof *dsp);
    vfetch_dsp_init_c(dsp);
    dsp->bswap32_copy = vfetch_word_copy_bswap32_c;
    VFETCH_LADDER_CLIMB(convert_ladder, dsp, allowed);
    VFETCH_LADDER_CLIMB(record_ladder, dsp, allowed);
    VFETCH_LADDER_CLIMB(copy_ladder, dsp, allowed);
    const unsigned top = vfetch_ladder_top(vfetch_ladder_height(allowed));
    dsp->name = top ? vfetch_ladder_name[top - 1] : "c";
    dsp->level = top ? vfetch_ladder_flag[top - 1] : 0;
}

void vfetch_dsp_current(struct vfetch_dsp *dsp)
{
    vfetch_dsp_init(dsp, vfetch_cpu_allowed());
}

const char *vfetch_cpu_name(void)
{
    struct vfetch_dsp dsp;
    vfetch_dsp_current(&dsp);
    return dsp.name;
}
