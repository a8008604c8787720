/* The model of vfetch_run() (see fuzz_run_model.h), from the header's contracts only. */
#include "fuzz_run_model.h"

#include <string.h>

#include "fuzz_check.h"

/* Container bytes of each format (plan.h: "1-byte container", "2-byte container", ...). */
static unsigned model_container(enum vfetch_format f)
{
    static const uint8_t bytes[VFETCH_FORMAT_COUNT] = {
        [VFETCH_FORMAT_FLOAT32] = 4, [VFETCH_FORMAT_FLOAT16] = 2, [VFETCH_FORMAT_FIXED8] = 1,
        [VFETCH_FORMAT_FIXED16] = 2, [VFETCH_FORMAT_FIXED_10_10_10] = 4,
        [VFETCH_FORMAT_FIXED_11_11_10] = 4, [VFETCH_FORMAT_RGB565] = 2,
        [VFETCH_FORMAT_RGBA4444] = 2, [VFETCH_FORMAT_RGBA6666] = 3, [VFETCH_FORMAT_UINT6] = 1,
        [VFETCH_FORMAT_FIXED32] = 4, [VFETCH_FORMAT_FIXED_10_10_10_2] = 4,
        [VFETCH_FORMAT_UFLOAT_11_11_10] = 4, [VFETCH_FORMAT_CONSTANT] = 0,
    };
    return bytes[f];
}

/* Physical byte of logical byte b (plan.h: b ^ 1, b ^ 3, b ^ 2 for the dword swaps). */
static uint64_t model_physical(enum vfetch_byte_order order, uint64_t b)
{
    switch (order) {
    case VFETCH_ORDER_SWAP_16: return b ^ 1;
    case VFETCH_ORDER_SWAP_32: return b ^ 3;
    case VFETCH_ORDER_SWAP_HALF: return b ^ 2;
    default: return b;
    }
}

uint32_t fuzz_model_extent(const struct vfetch_plan_desc *d, unsigned s)
{
    uint64_t end = 0;
    for (unsigned i = 0; i < d->num_ops; i++) {
        const struct vfetch_op *op = &d->ops[i];
        for (unsigned c = 0; c < op->count; c++) {
            if (op->src[c].stream != s)
                continue;
            for (unsigned k = 0; k < model_container(op->format); k++) {
                const uint64_t phys = model_physical(d->streams[s].order, (uint64_t)op->src[c].offset + k);
                if (phys + 1 > end)
                    end = phys + 1;
            }
        }
    }
    return (uint32_t)end;
}

uint32_t fuzz_model_out_stride(const struct vfetch_plan_desc *d)
{
    return d->out_stride ? d->out_stride : d->out_slots * 4;
}

int64_t fuzz_model_vertex_index(uint32_t entry, int64_t offset, uint32_t max_index)
{
    int64_t sum;
    if (offset > INT64_MAX - (int64_t)entry)
        sum = INT64_MAX; /* saturate: the header promises a clamp, never a wrap */
    else
        sum = (int64_t)entry + offset;
    if (sum < 0)
        return -1;
    return sum > (int64_t)max_index ? (int64_t)max_index : sum;
}

uint32_t fuzz_model_index_entry(const void *indices, enum vfetch_index_type type, uint64_t position)
{
    const uint8_t *at = (const uint8_t *)indices;
    if (type == VFETCH_INDEX_U16) {
        uint16_t v;
        memcpy(&v, at + (size_t)position * 2, 2);
        return v;
    }
    uint32_t v;
    memcpy(&v, at + (size_t)position * 4, 4);
    return v;
}

struct fuzz_run_records fuzz_model_records(const struct vfetch_run_params *p)
{
    struct fuzz_run_records r = { VFETCH_OK, 0, 0, p->instance, p->base_instance };
    const uint64_t last = (uint64_t)p->first + p->count - 1;
    r.max_sequential = last;
    if (p->index_type == VFETCH_INDEX_NONE) {
        r.max_indexed = last; /* indexed streams read record p without an index buffer */
        return r;
    }
    for (uint64_t pos = p->first; pos <= last; pos++) {
        const uint32_t entry = fuzz_model_index_entry(p->indices, p->index_type, pos);
        const int64_t idx = fuzz_model_vertex_index(entry, p->index_offset, p->max_index);
        if (idx < 0) {
            r.err = VFETCH_EINDEX_RANGE;
            return r;
        }
        if ((uint64_t)idx > r.max_indexed)
            r.max_indexed = (uint64_t)idx;
    }
    return r;
}

uint64_t fuzz_model_stream_need(const struct vfetch_plan_desc *d, unsigned s,
                                const struct fuzz_run_records *r)
{
    const uint32_t extent = fuzz_model_extent(d, s);
    if (!extent)
        return 0;
    const struct vfetch_stream *st = &d->streams[s];
    const uint64_t rec = st->step == VFETCH_STEP_INDEXED      ? r->max_indexed
                         : st->step == VFETCH_STEP_SEQUENTIAL ? r->max_sequential
                         : st->step == VFETCH_STEP_INSTANCE
                             ? (uint64_t)r->base_instance + (st->divisor ? r->instance / st->divisor : 0)
                             : 0;
    /* rec < 2^33 and stride < 2^32: the product needs 65 bits, so it saturates */
    if (st->stride && rec > (UINT64_MAX - extent) / st->stride)
        return UINT64_MAX;
    return rec * st->stride + extent;
}

uint64_t fuzz_model_out_need(const struct vfetch_plan_desc *d, uint32_t count)
{
    return (uint64_t)(count - 1) * fuzz_model_out_stride(d) + (uint64_t)d->out_slots * 4;
}

int fuzz_model_run(const struct vfetch_plan_desc *d, const struct vfetch_run_params *p)
{
    /* Argument checks come first: they do not depend on the range. */
    if ((unsigned)p->index_type > VFETCH_INDEX_U32)
        return VFETCH_EINVAL;
    if (p->num_streams < d->num_streams || !p->streams)
        return VFETCH_EINVAL;
    if (p->count == 0)
        return VFETCH_OK; /* "0 is valid and writes nothing" */
    if (!p->out || (p->index_type != VFETCH_INDEX_NONE && !p->indices))
        return VFETCH_EINVAL;

    /* Then the sizes the range implies, then the indices, then every stream. */
    const uint64_t end = (uint64_t)p->first + p->count;
    if (end - 1 > UINT32_MAX)
        return VFETCH_EOVERFLOW;
    if (p->index_type != VFETCH_INDEX_NONE &&
        end * (p->index_type == VFETCH_INDEX_U16 ? 2 : 4) > p->indices_size)
        return VFETCH_ESHORT_INDICES;
    const uint64_t out_need = fuzz_model_out_need(d, p->count);
    if (out_need > SIZE_MAX)
        return VFETCH_EOVERFLOW;
    if (out_need > p->out_size)
        return VFETCH_ESHORT_OUTPUT;
    const struct fuzz_run_records r = fuzz_model_records(p);
    if (r.err)
        return r.err;
    for (unsigned s = 0; s < d->num_streams; s++) {
        if (!fuzz_model_extent(d, s))
            continue; /* a stream the plan never reads needs no binding */
        if (!p->streams[s].data)
            return VFETCH_EMISSING_STREAM;
        const uint64_t need = fuzz_model_stream_need(d, s, &r);
        if (need > SIZE_MAX || need == UINT64_MAX) /* (UINT64_MAX: saturated, past 2^64) */
            return VFETCH_EOVERFLOW;
        if (need > p->streams[s].size)
            return VFETCH_ESHORT_STREAM;
    }
    return VFETCH_OK;
}

void fuzz_require_unwritten_intact(const struct vfetch_plan_desc *d, uint32_t count,
                                   const uint8_t *out, size_t out_size)
{
    uint8_t written[VFETCH_MAX_SLOTS] = { 0 };
    for (unsigned i = 0; i < d->num_ops; i++)
        for (unsigned c = 0; c < 4; c++)
            if (d->ops[i].write_mask >> c & 1)
                written[d->ops[i].dst_slot + c] = 1;
    const size_t stride = fuzz_model_out_stride(d);
    const size_t record = (size_t)d->out_slots * 4;
    /* Walk record by record; count * stride fits size_t because the run's output did. */
    for (uint32_t r = 0; r < count; r++) {
        const uint8_t *rec = out + (size_t)r * stride;
        for (size_t b = 0; b < stride && (size_t)r * stride + b < out_size; b++) {
            if (b < record && written[b / 4])
                continue;
            const size_t at = (size_t)r * stride + b;
            FUZZ_REQUIRE(rec[b] == fuzz_canary(at),
                         "record %u byte %zu (slot %zu) is written but no op writes it", r, b,
                         b / 4);
        }
    }
    const uint64_t end = count ? fuzz_model_out_need(d, count) : 0;
    fuzz_require_canary(out, (size_t)end, out_size, "output past the last record");
}
