/*
 * One guest draw command into an emulator's batch (vfetch_gx_state_draw_batch, docs/gx.md,
 * "One call per guest draw"): the vertices converted as vfetch_gx_state_draw converts them,
 * then the host indices of the command's primitive over the records written, as
 * vfetch_prim_run writes them. Every check of both halves comes before the first byte: the
 * room in the batch for all of the draw's vertices and the most indices they can take, and the
 * host indices' range, then the vertex draw's own checks, which it makes before it writes; the
 * indices of the records it wrote (fewer where vertices are skipped) then fit by construction.
 * The state's format plan, primitive plan (with its width and index counts) and draw
 * parameters are read in place (lib/gx/state.h): a draw makes two calls, the vertices' and
 * the indices'.
 */
#include "gx/state.h"

/* A draw whose format must be looked up again, or whose primitive has no plan yet: out of line,
   so that the common draw has no frame for it. */
static __attribute__((noinline)) int prepare(vfetch_gx_state *state, uint8_t command)
{
    const vfetch_gx_plan *plan;
    const int err = vfetch_gx_state_plan(state, command & 7u, &plan);
    return err ? err : vfetch_gx_state_prim_slot(state, command);
}

int vfetch_gx_state_draw_batch(vfetch_gx_state *state, uint8_t command, const void *vertices,
                               size_t vertices_size, uint32_t count, struct vfetch_batch *batch,
                               struct vfetch_gx_batch_result *result)
{
    if (!state || !batch || (unsigned)(command - 0x80) > 0x3f ||
        batch->vertices_used > batch->vertices_capacity ||
        batch->indices_used > batch->indices_capacity)
        return VFETCH_EINVAL;
    const unsigned vat = command & 7u;
    const struct gx_prim_slot *slot = &state->prim[command >> 3 & 7];
    const vfetch_gx_plan *plan = gx_state_current(state, vat);
    if (!plan || !slot->plan) {
        const int err = prepare(state, command);
        if (err)
            return err;
        plan = gx_state_current(state, vat);
    }
    const size_t width = slot->width;
    const size_t most =
        count < GX_PRIM_COUNTS ? slot->most[count] : vfetch_prim_index_count(slot->plan, count);
    /* the buffers where room is asked of them (no offset is taken from a NULL one) */
    if ((count && !batch->vertices) || (most && !batch->indices))
        return VFETCH_EINVAL;
    uint8_t *const records = count ? (uint8_t *)batch->vertices + batch->vertices_used : NULL;
    uint8_t *const indices = most ? (uint8_t *)batch->indices + batch->indices_used * width : NULL;
    if ((uintptr_t)indices & (width - 1))
        return VFETCH_EINVAL;
    /* room for every vertex's record and the most indices, and host indices within the width:
       the draw's last vertex (times 4 plus 3 where expanded) below the width's all-ones value */
    const size_t room = batch->vertices_capacity - batch->vertices_used;
    const uint64_t last = (uint64_t)batch->vertex_count + count - 1;
    const uint64_t highest = slot->expanded ? 4 * last + 3 : last;
    if ((batch->vertex_count && batch->record_stride != plan->out_stride) ||
        (uint64_t)count * plan->out_stride > room ||
        most > batch->indices_capacity - batch->indices_used ||
        (count && highest >= (width == 4 ? 0xffffffffu : 0xffffu)))
        return VFETCH_EBATCH_FULL;
    struct vfetch_gx_result drawn;
    int err = gx_state_draw_with(state, plan, vertices, vertices_size, count, records, room, &drawn);
    if (err)
        return err;
    struct vfetch_prim_run_params q;
    q.count = drawn.written;
    q.base_index = batch->vertex_count;
    q.out = indices;
    q.out_capacity = batch->indices_capacity - batch->indices_used;
    q.indices = NULL;
    q.indices_size = 0;
    struct vfetch_prim_result written;
    err = vfetch_prim_run(slot->plan, &q, &written);
    if (err) /* not reached: the checks above cover every vertex the draw may write */
        return err;
    batch->vertices_used += (size_t)drawn.written * plan->out_stride;
    batch->vertex_count += drawn.written;
    if (drawn.written)
        batch->record_stride = plan->out_stride;
    batch->indices_used += written.written;
    if (result) {
        result->vertices = drawn.written;
        result->skipped = drawn.skipped;
        result->clamped = drawn.clamped;
        result->indices = written.written;
    }
    return VFETCH_OK;
}
