/*
 * The executor: validate a run completely, then convert batch by batch with the kernels the
 * plan chose. Nothing is written before every check has passed.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void vfetch_run_params_init(struct vfetch_run_params *params)
{
    if (!params)
        return;
    memset(params, 0, sizeof *params);
    params->index_type = VFETCH_INDEX_NONE;
    params->max_index = UINT32_MAX;
}

static inline uint32_t run_index_entry(const struct vfetch_run_params *p, uint32_t position)
{
    if (p->index_type == VFETCH_INDEX_U16) {
        uint16_t v;
        memcpy(&v, (const uint8_t *)p->indices + (size_t)position * 2, 2);
        return v;
    }
    uint32_t v;
    memcpy(&v, (const uint8_t *)p->indices + (size_t)position * 4, 4);
    return v;
}

/* Index entry + offset, clamped; -1 if the sum is negative. */
static inline int64_t run_vertex_index(const struct vfetch_run_params *p, uint32_t position)
{
    const int64_t sum = (int64_t)run_index_entry(p, position) + p->index_offset;
    if (sum < 0)
        return -1;
    return sum > (int64_t)p->max_index ? (int64_t)p->max_index : sum;
}

/* Highest record each step kind reads over the whole run. */
static int run_max_records(const struct vfetch_run_params *p, uint64_t *max_indexed,
                           uint64_t *max_sequential)
{
    const uint64_t last = (uint64_t)p->first + p->count - 1;
    *max_sequential = last;
    if (p->index_type == VFETCH_INDEX_NONE) {
        *max_indexed = last;
        return VFETCH_OK;
    }
    uint64_t max = 0;
    for (uint64_t pos = p->first; pos <= last; pos++) {
        const int64_t idx = run_vertex_index(p, (uint32_t)pos);
        if (idx < 0)
            return VFETCH_EINDEX_RANGE;
        if ((uint64_t)idx > max)
            max = (uint64_t)idx;
    }
    *max_indexed = max;
    return VFETCH_OK;
}

static int run_validate(const vfetch_plan *plan, const struct vfetch_run_params *p)
{
    const struct vfetch_plan_desc *d = &plan->desc;
    if ((unsigned)p->index_type > VFETCH_INDEX_U32)
        return VFETCH_EINVAL;
    if (p->num_streams < d->num_streams || (d->num_streams && !p->streams))
        return VFETCH_EINVAL;
    if (p->count == 0)
        return VFETCH_OK;
    if (!p->out || (p->index_type != VFETCH_INDEX_NONE && !p->indices))
        return VFETCH_EINVAL;

    const uint64_t end = (uint64_t)p->first + p->count; /* one past the last draw position */
    if (end - 1 > UINT32_MAX)
        return VFETCH_EOVERFLOW;
    if (p->index_type != VFETCH_INDEX_NONE) {
        const uint64_t need = end * (p->index_type == VFETCH_INDEX_U16 ? 2 : 4);
        if (need > p->indices_size)
            return VFETCH_ESHORT_INDICES;
    }

    const uint64_t out_need = (uint64_t)(p->count - 1) * plan->out_stride + plan->record_size;
    if (out_need > SIZE_MAX)
        return VFETCH_EOVERFLOW;
    if (out_need > p->out_size)
        return VFETCH_ESHORT_OUTPUT;

    uint64_t max_indexed, max_sequential;
    int err = run_max_records(p, &max_indexed, &max_sequential);
    if (err)
        return err;

    for (unsigned s = 0; s < d->num_streams; s++) {
        if (plan->stream_extent[s] == 0)
            continue; /* the plan never reads it: no binding needed */
        if (!p->streams[s].data)
            return VFETCH_EMISSING_STREAM;
        const struct vfetch_stream *st = &d->streams[s];
        const uint64_t rec = st->step == VFETCH_STEP_INDEXED      ? max_indexed
                             : st->step == VFETCH_STEP_SEQUENTIAL ? max_sequential
                                                                  : 0;
        /* rec < 2^32 and stride < 2^32: the product and the sum fit 64 bits. */
        const uint64_t need = rec * st->stride + plan->stream_extent[s];
        if (need > SIZE_MAX)
            return VFETCH_EOVERFLOW;
        if (need > p->streams[s].size)
            return VFETCH_ESHORT_STREAM;
    }
    return VFETCH_OK;
}

/* Bytes of record staging on the stack: indexed streams are gathered into contiguous records
   here so that every kernel sees strided sources. */
#define RUN_STAGE_BYTES 16384
#define RUN_MAX_BATCH 256

/*
 * Convert draw positions [first, first + n) with the per-op kernels. Streams that are strided
 * for this range (sequential, constant, or indexed without an index buffer) are read in place;
 * indexed streams of an indexed run are staged first.
 */
static void run_per_op(const vfetch_plan *plan, const struct vfetch_run_params *p, uint32_t first,
                       size_t n, uint8_t *out, uint8_t *stage)
{
    const struct vfetch_plan_desc *d = &plan->desc;
    const uint8_t *base[VFETCH_MAX_STREAMS];
    size_t stride[VFETCH_MAX_STREAMS];
    size_t stage_used = 0;

    for (unsigned s = 0; s < d->num_streams; s++) {
        const uint32_t extent = plan->stream_extent[s];
        if (extent == 0)
            continue;
        const struct vfetch_stream *st = &d->streams[s];
        const uint8_t *data = p->streams[s].data;
        if (st->step == VFETCH_STEP_CONSTANT) {
            base[s] = data;
            stride[s] = 0;
        } else if (st->step == VFETCH_STEP_SEQUENTIAL || p->index_type == VFETCH_INDEX_NONE) {
            base[s] = data + (size_t)first * st->stride;
            stride[s] = st->stride;
        } else {
            uint8_t *to = stage + stage_used;
            for (size_t i = 0; i < n; i++) {
                const uint64_t idx = (uint64_t)run_vertex_index(p, first + (uint32_t)i);
                memcpy(to + i * extent, data + (size_t)(idx * st->stride), extent);
            }
            base[s] = to;
            stride[s] = extent;
            stage_used += n * extent;
        }
    }
    for (unsigned o = 0; o < d->num_ops; o++) {
        const struct vfetch_op_exec *op = &plan->ops[o];
        if (op->write_mask)
            op->convert(op, base, stride, n, out, plan->out_stride);
    }
}

int vfetch_run(const vfetch_plan *plan, const struct vfetch_run_params *params)
{
    if (!plan || !params)
        return VFETCH_EINVAL;
    const struct vfetch_run_params *p = params;
    int err = run_validate(plan, p);
    if (err || p->count == 0)
        return err;

    /* Batch size: as many vertices as the staging area holds (at least one: every extent is
       at most 16 streams x a few KiB, checked below). Without staging, one batch. */
    size_t staged_bytes = 0;
    if (p->index_type != VFETCH_INDEX_NONE)
        for (unsigned s = 0; s < plan->desc.num_streams; s++)
            if (plan->desc.streams[s].step == VFETCH_STEP_INDEXED)
                staged_bytes += plan->stream_extent[s];
    size_t batch = staged_bytes ? RUN_STAGE_BYTES / staged_bytes : p->count;
    if (staged_bytes && batch > RUN_MAX_BATCH)
        batch = RUN_MAX_BATCH;

    _Alignas(64) uint8_t stage_small[RUN_STAGE_BYTES];
    uint8_t *stage = stage_small;
    uint8_t *stage_heap = NULL;
    if (staged_bytes && batch == 0) {
        /* One vertex's records exceed the stack area: stage on the heap, one at a time. */
        stage = stage_heap = malloc(staged_bytes);
        if (!stage_heap)
            return VFETCH_ENOMEM;
        batch = 1;
    }

    uint8_t *out = p->out;
    for (uint32_t done = 0; done < p->count;) {
        const size_t n = p->count - done < batch ? p->count - done : batch;
        run_per_op(plan, p, p->first + done, n, out + (size_t)done * plan->out_stride, stage);
        done += (uint32_t)n;
    }
    free(stage_heap);
    return VFETCH_OK;
}
