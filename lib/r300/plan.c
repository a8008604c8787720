/*
 * The R300 family's contract over the core plan (include/vfetch/r300.h): an R300 plan is a
 * core plan, so each call is the core's. They exist so that every family reads the same.
 */
#include "vfetch/r300.h"

void vfetch_r300_plan_free(vfetch_r300_plan *plan)
{
    vfetch_plan_free(plan);
}

void vfetch_r300_run_params_init(struct vfetch_run_params *params)
{
    vfetch_run_params_init(params);
}

int vfetch_r300_run(const vfetch_r300_plan *plan, const struct vfetch_run_params *params)
{
    return vfetch_run(plan, params);
}

int vfetch_r300_plan_info(const vfetch_r300_plan *plan, struct vfetch_plan_info *info)
{
    return vfetch_plan_info(plan, info);
}

int vfetch_r300_plan_declaration(const vfetch_r300_plan *plan, struct vfetch_vertex_decl *decl)
{
    return vfetch_plan_declaration(plan, decl);
}

uint32_t vfetch_r300_plan_out_stride(const vfetch_r300_plan *plan)
{
    return vfetch_plan_out_stride(plan);
}

int vfetch_r300_plan_location(const vfetch_r300_plan *plan, unsigned location)
{
    return vfetch_plan_location(plan, location);
}

const vfetch_plan *vfetch_r300_plan_converter(const vfetch_r300_plan *plan)
{
    return plan;
}
