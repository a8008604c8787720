/*
 * R300 and Maxwell draws through a guest index buffer in one call (vfetch_r300_draw_indexed,
 * vfetch_maxwell_draw_indexed; docs/prim.md, "Indexed draws in one call"): the batch's and the
 * entries' checks, one scan of the entries by the primitive plan's kernel (their smallest and
 * largest, whether a restart entry is there), the vertex run's checks for the guest records
 * between the two, the batch's room; then the records converted once, in order, to the batch's
 * next records, and the primitive's indices written from the scan's smallest (range mode)
 * without a second scan. Nothing is written before every check has passed: the records come
 * first because only the vertex run can still fail (VFETCH_ENOMEM, before it writes); the
 * indices cannot.
 */
#include "maxwell/maxwell_internal.h"
#include "plan_internal.h"
#include "prim/prim_internal.h"
#include "run.h"
#include "vfetch/maxwell.h"
#include "vfetch/r300.h"

/* A draw between its checks and its writes: the entries' range and the records it converts. */
struct indexed_draw {
    const vfetch_prim_plan *prim;
    const void *indices;
    uint32_t count;
    struct vfetch_batch *batch;
    uint64_t most;     /* the most indices it writes: vfetch_prim_index_count */
    uint32_t lo, hi;   /* the smallest and largest entry, restart entries aside */
    int restarted;     /* the scan saw a restart entry */
    uint32_t first;    /* the guest record of entry lo (index offset added, clamped) */
    uint32_t records;  /* records from it, converted once each */
};

/* VFETCH_EINVAL for the batch and the primitive plan, then the entries' own errors, then the
   scan. 1 (not an error): no entry but restart entries, nothing to append. */
static int draw_begin(struct indexed_draw *d, const vfetch_prim_plan *prim, const void *indices,
                      size_t indices_size, uint32_t count, struct vfetch_batch *batch)
{
    if (!prim || !batch || !prim->guest.bytes || !prim->range ||
        batch->vertices_used > batch->vertices_capacity ||
        batch->indices_used > batch->indices_capacity)
        return VFETCH_EINVAL;
    const uint64_t most = vfetch_prim_plan_count(prim, count);
    /* the buffers where room may be asked of them (no offset is taken from a NULL one) */
    if ((count && !batch->vertices) ||
        (most && (!batch->indices || ((uintptr_t)batch->indices & (prim->index_bytes - 1)))))
        return VFETCH_EINVAL;
    const int err = vfetch_prim_check_entries(prim, indices, indices_size, count, most);
    if (err)
        return err;
    d->prim = prim;
    d->indices = indices;
    d->count = count;
    d->batch = batch;
    d->most = most;
    d->lo = UINT32_MAX;
    d->hi = 0;
    d->restarted = count ? prim->scan(indices, count, &prim->guest, &d->lo, &d->hi) : 0;
    return d->lo <= d->hi ? VFETCH_OK : 1;
}

/* The guest records of entries lo .. hi as a run through the index buffer reads them: entry +
   offset, clamped to max_index, compared first so that no sum overflows (as the core's
   vfetch_run_vertex_index); a negative sum is the run's VFETCH_EINDEX_RANGE. */
static int draw_records(struct indexed_draw *d, int64_t offset, uint32_t max_index)
{
    const int64_t max = max_index;
    int64_t first, last;
    if (offset > max - (int64_t)d->lo)
        first = max;
    else if ((first = (int64_t)d->lo + offset) < 0)
        return VFETCH_EINDEX_RANGE;
    last = offset > max - (int64_t)d->hi ? max : (int64_t)d->hi + offset;
    d->first = (uint32_t)first;
    d->records = (uint32_t)(last - first) + 1; /* at most hi - lo + 1: no wrap */
    return VFETCH_OK;
}

/* VFETCH_EBATCH_FULL: records of another stride in the batch, no room for the records or the
   most indices, or the highest host index (before a clamp merges entries) reaching the width's
   all-ones value (the restart index, or past the width). */
static int draw_room(const struct indexed_draw *d, uint32_t stride)
{
    const struct vfetch_batch *b = d->batch;
    const uint64_t all_ones = d->prim->index_bytes == 4 ? 0xffffffffu : 0xffffu;
    if ((b->vertex_count && b->record_stride != stride) ||
        (uint64_t)d->records * stride > b->vertices_capacity - b->vertices_used ||
        d->most > b->indices_capacity - b->indices_used ||
        (uint64_t)b->vertex_count + (d->hi - d->lo) >= all_ones)
        return VFETCH_EBATCH_FULL;
    return VFETCH_OK;
}

/* After the records: the indices, rebased at the batch's vertex_count; where max_index clamped
   entries together, each index past the last record names it (the host restart index, all
   ones, is above every index and stays). Then the batch's figures and the result. */
static void draw_end(const struct indexed_draw *d, uint32_t stride,
                     struct vfetch_draw_result *result)
{
    struct vfetch_batch *b = d->batch;
    const vfetch_prim_plan *prim = d->prim;
    const size_t width = prim->index_bytes;
    void *out = d->most ? (uint8_t *)b->indices + b->indices_used * width : NULL;
    const size_t written = vfetch_prim_write_entries(prim, d->indices, d->count, d->most,
                                                     b->vertex_count - d->lo, d->restarted, out);
    if (d->records != d->hi - d->lo + 1u) {
        const uint32_t top = b->vertex_count + d->records - 1;
        for (size_t i = 0; i < written; i++) {
            if (width == 4) {
                uint32_t *v = (uint32_t *)out + i;
                *v = *v > top && *v != 0xffffffffu ? top : *v;
            } else {
                uint16_t *v = (uint16_t *)out + i;
                *v = *v > top && *v != 0xffffu ? (uint16_t)top : *v;
            }
        }
    }
    b->vertices_used += (size_t)d->records * stride;
    b->vertex_count += d->records;
    b->record_stride = stride;
    b->indices_used += written;
    if (result) {
        result->vertices = d->records;
        result->indices = written;
        result->min_index = d->lo;
        result->max_index = d->hi;
    }
}

/* A draw with no entry but restart entries (or none): nothing appended. */
static int draw_nothing(struct vfetch_draw_result *result)
{
    if (result)
        *result = (struct vfetch_draw_result){ 0, 0, 1, 0 };
    return VFETCH_OK;
}

/* The fields of a run's parameters that an indexed draw supplies itself are left unset. */
static int per_draw_unset(uint32_t first, uint32_t count, const void *indices,
                          enum vfetch_index_type type, size_t indices_size, const void *out,
                          size_t out_size)
{
    return !first && !count && !indices && type == VFETCH_INDEX_NONE && !indices_size && !out &&
           !out_size;
}

/* A one-stream plan's short range straight to its generated code where every check the run
   and the batch make passes (vfetch_run_one_stream, the batch's room first: it changes
   nothing), then the indices: 0. 1 where not, nothing done: the caller's checks in their order
   (draw_run) report the first that fails. */
static inline int draw_one_stream(const struct indexed_draw *d, const vfetch_plan *plan,
                                  const struct vfetch_binding *binding,
                                  struct vfetch_draw_result *result)
{
    const struct vfetch_batch *b = d->batch;
    const uint32_t stride = plan->out_stride;
    if (!plan->jit_one || draw_room(d, stride) ||
        vfetch_run_one_stream(plan, d->first, d->records,
                              (uint8_t *)b->vertices + b->vertices_used,
                              b->vertices_capacity - b->vertices_used, binding))
        return 1;
    draw_end(d, stride, result);
    return 0;
}

/* The records of any plan through run's checks in vfetch_run's order, then the batch's room,
   then the run into the batch (run's first and count set; its out set here). */
static int draw_run(const struct indexed_draw *d, const vfetch_plan *plan,
                    struct vfetch_run_params *run)
{
    int err = vfetch_run_check_reads(plan, run);
    if (err)
        return err;
    err = draw_room(d, plan->out_stride);
    if (err)
        return err;
    const struct vfetch_batch *b = d->batch;
    run->out = (uint8_t *)b->vertices + b->vertices_used;
    run->out_size = b->vertices_capacity - b->vertices_used;
    return vfetch_run_checked(plan, run);
}

int vfetch_r300_draw_indexed(const vfetch_r300_plan *plan, const vfetch_prim_plan *prim,
                             const struct vfetch_run_params *params, const void *indices,
                             size_t indices_size, uint32_t count, struct vfetch_batch *batch,
                             struct vfetch_draw_result *result)
{
    if (!plan || !params ||
        !per_draw_unset(params->first, params->count, params->indices, params->index_type,
                        params->indices_size, params->out, params->out_size) ||
        params->num_streams < plan->desc.num_streams || (plan->desc.num_streams && !params->streams))
        return VFETCH_EINVAL;
    struct indexed_draw d;
    int err = draw_begin(&d, prim, indices, indices_size, count, batch);
    if (err)
        return err > 0 ? draw_nothing(result) : err;
    err = draw_records(&d, params->index_offset, params->max_index);
    if (err)
        return err;
    if (!draw_one_stream(&d, plan, params->streams, result))
        return VFETCH_OK;
    struct vfetch_run_params run = *params;
    run.first = d.first;
    run.count = d.records;
    err = draw_run(&d, plan, &run);
    if (err)
        return err;
    draw_end(&d, plan->out_stride, result);
    return VFETCH_OK;
}

int vfetch_maxwell_draw_indexed(const vfetch_maxwell_plan *plan, const vfetch_prim_plan *prim,
                                const struct vfetch_maxwell_run_params *params,
                                const void *indices, size_t indices_size, uint32_t count,
                                struct vfetch_batch *batch, struct vfetch_draw_result *result)
{
    if (!plan || !params ||
        !per_draw_unset(params->first, params->count, params->indices, params->index_type,
                        params->indices_size, params->out, params->out_size))
        return VFETCH_EINVAL;
    struct vfetch_binding bind[VFETCH_MAX_STREAMS];
    struct vfetch_run_params run;
    int err = vfetch_maxwell_core_params(plan, params, bind, &run);
    if (err)
        return err;
    struct indexed_draw d;
    err = draw_begin(&d, prim, indices, indices_size, count, batch);
    if (err)
        return err > 0 ? draw_nothing(result) : err;
    err = draw_records(&d, params->index_offset, run.max_index);
    if (err)
        return err;
    /* as R300's, a one-stream plan without system values */
    if (plan->vertex_id_slot < 0 && plan->instance_id_slot < 0 &&
        !draw_one_stream(&d, plan->plan, bind, result))
        return VFETCH_OK;
    run.first = d.first;
    run.count = d.records;
    err = draw_run(&d, plan->plan, &run);
    if (err)
        return err;
    /* VERTEX_ID of record first + k is entry lo + k plus the base, as through the index
       buffer: the base less the offset the records were moved by (mod 2^32) */
    struct vfetch_maxwell_run_params system = *params;
    system.first = d.first;
    system.count = d.records;
    system.vertex_id_base = params->vertex_id_base - (uint32_t)(uint64_t)params->index_offset;
    system.out = run.out;
    system.out_size = run.out_size;
    vfetch_maxwell_system_values(plan, &system);
    draw_end(&d, plan->plan->out_stride, result);
    return VFETCH_OK;
}
