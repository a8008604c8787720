/*
 * The executor: validate a run completely, then convert batch by batch with the kernels the
 * plan chose. Nothing is written before every check has passed.
 */
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

/* Swizzle one converted vec4 into the output record, storing only enabled components. */
static inline void run_store(const struct vfetch_op_exec *op, const uint32_t v[4], uint8_t *record)
{
    for (unsigned c = 0; c < 4; c++) {
        if (!(op->write_mask >> c & 1))
            continue;
        const uint8_t sel = op->swizzle[c];
        const uint32_t bits = sel < 4 ? v[sel] : sel == VFETCH_SWIZZLE_0 ? 0 : 0x3f800000u;
        memcpy(record + 4 * ((size_t)op->dst_slot + c), &bits, 4);
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

    const struct vfetch_plan_desc *d = &plan->desc;
    vfetch_batch_records rec;
    uint32_t converted[VFETCH_BATCH][4];
    uint8_t *out = p->out;

    for (uint32_t done = 0; done < p->count; done += VFETCH_BATCH) {
        const size_t n = p->count - done < VFETCH_BATCH ? p->count - done : VFETCH_BATCH;
        for (size_t i = 0; i < n; i++) {
            const uint32_t pos = p->first + done + (uint32_t)i;
            const uint64_t idx =
                p->index_type == VFETCH_INDEX_NONE ? pos : (uint64_t)run_vertex_index(p, pos);
            for (unsigned s = 0; s < d->num_streams; s++) {
                if (plan->stream_extent[s] == 0)
                    continue;
                const struct vfetch_stream *st = &d->streams[s];
                const uint64_t r = st->step == VFETCH_STEP_INDEXED      ? idx
                                   : st->step == VFETCH_STEP_SEQUENTIAL ? pos
                                                                        : 0;
                rec[s][i] = (const uint8_t *)p->streams[s].data + (size_t)(r * st->stride);
            }
        }
        for (unsigned o = 0; o < d->num_ops; o++) {
            const struct vfetch_op_exec *op = &plan->ops[o];
            if (!op->write_mask)
                continue;
            op->convert(op, (const vfetch_batch_records *)&rec, n, converted);
            for (size_t i = 0; i < n; i++)
                run_store(op, converted[i], out + (size_t)(done + i) * plan->out_stride);
        }
    }
    return VFETCH_OK;
}
