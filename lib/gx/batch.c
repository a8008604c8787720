/*
 * One guest draw command into an emulator's batch (vfetch_gx_state_draw_batch, docs/gx.md,
 * "Batches"): the vertices converted as vfetch_gx_state_draw converts them, then the host
 * indices of the command's primitive over the records written, as vfetch_prim_run writes them.
 * Every check of both halves comes before the first byte: the room in the batch for all of the
 * draw's vertices and the most indices they can take, and the host indices' range, then the
 * vertex draw's own checks, which it makes before it writes; the indices of the records it
 * wrote (fewer where vertices are skipped) then fit by construction.
 */
#include "gx_internal.h"

int vfetch_gx_state_draw_batch(vfetch_gx_state *state, uint8_t command, const void *vertices,
                               size_t vertices_size, uint32_t count, struct vfetch_gx_batch *batch,
                               struct vfetch_gx_batch_result *result)
{
    if (!state || !batch || command < 0x80 || command > 0xbf ||
        batch->vertices_used > batch->vertices_capacity ||
        batch->indices_used > batch->indices_capacity)
        return VFETCH_EINVAL;
    const unsigned vat = command & 7u;
    const vfetch_gx_plan *plan;
    const vfetch_prim_plan *prim;
    int err = vfetch_gx_state_plan(state, vat, &plan);
    if (!err)
        err = vfetch_gx_state_prim(state, command, &prim);
    if (err)
        return err;
    struct vfetch_prim_plan_info info;
    vfetch_prim_plan_info(prim, &info);
    const size_t width = info.index_bytes;
    const size_t most = vfetch_prim_index_count(prim, count);
    uint8_t *const records = (uint8_t *)batch->vertices + batch->vertices_used;
    uint8_t *const indices = (uint8_t *)batch->indices + batch->indices_used * width;
    if ((count && !batch->vertices) ||
        (most && (!batch->indices || (uintptr_t)indices % width)))
        return VFETCH_EINVAL;
    /* room for every vertex's record and the most indices, and host indices within the width:
       the draw's last vertex (times 4 plus 3 where expanded) below the width's all-ones value */
    const uint64_t bytes = (uint64_t)count * plan->out_stride;
    const uint64_t last = count ? (uint64_t)batch->vertex_count + count - 1 : 0;
    const uint64_t highest = info.expanded ? 4 * last + 3 : last;
    const uint64_t limit = width == 4 ? 0xffffffffu : 0xffffu;
    if (bytes > batch->vertices_capacity - batch->vertices_used ||
        most > batch->indices_capacity - batch->indices_used || (count && highest >= limit))
        return VFETCH_EBATCH_FULL;
    struct vfetch_gx_result drawn = { 0, 0, 0 };
    err = vfetch_gx_state_draw(state, vat, vertices, vertices_size, count, records,
                               batch->vertices_capacity - batch->vertices_used, &drawn);
    if (err)
        return err;
    struct vfetch_prim_run_params p = { 0 };
    p.count = drawn.written;
    p.base_index = batch->vertex_count;
    p.out = indices;
    p.out_capacity = batch->indices_capacity - batch->indices_used;
    struct vfetch_prim_result written = { 0 };
    err = vfetch_prim_run(prim, &p, &written);
    if (err) /* not reached: the checks above cover every vertex the draw may write */
        return err;
    batch->vertices_used += (size_t)drawn.written * plan->out_stride;
    batch->vertex_count += drawn.written;
    batch->indices_used += written.written;
    if (result)
        *result = (struct vfetch_gx_batch_result){ drawn.written, drawn.skipped, drawn.clamped,
                                                   written.written };
    return VFETCH_OK;
}
