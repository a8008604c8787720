/*
 * Running a compiled GX format over one draw. Every check runs over the whole draw before the
 * first byte is written: the vertex bytes, then every array index (skip value, bounds). Then
 * formats without indexed attributes convert the vertices in place; the others stage blocks of
 * vertices (direct bytes and indexed elements copied into the all-direct layout, skipped
 * vertices left out) and convert each block with the same converter plan.
 */
#include <string.h>

#include "internal.h"
#include "gx_internal.h"
#include "stage.h"

/* Vertices staged per block: 128 x at most 129 bytes (the largest staged vertex) stays in L1
   with its output. */
#define GX_BLOCK 128
#define GX_STAGE_BYTES (GX_BLOCK * 129)

void vfetch_gx_run_params_init(struct vfetch_gx_run_params *params)
{
    if (params)
        memset(params, 0, sizeof *params);
}

static inline uint32_t gx_read_index(const uint8_t *at, unsigned size)
{
    return size == 1 ? at[0] : (uint32_t)at[0] << 8 | at[1];
}

/* Whether a vertex is skipped: its position index is all ones (0xFF / 0xFFFF). */
static inline int gx_skipped(const struct vfetch_gx_plan *plan, const uint8_t *vx)
{
    if (plan->position_copy < 0)
        return 0;
    const struct vfetch_gx_copy *c = &plan->copies[plan->position_copy];
    return gx_read_index(vx + c->src, c->index_size) == (c->index_size == 1 ? 0xffu : 0xffffu);
}

/* The last index of each indexed copy whose element bytes lie in the bound array, or -1 if
   not even element 0 does. */
static int gx_last_indices(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                           int64_t last[VFETCH_GX_MAX_COPIES])
{
    for (unsigned k = 0; k < plan->num_copies; k++) {
        const struct vfetch_gx_copy *c = &plan->copies[k];
        if (c->array == VFETCH_GX_FROM_VERTEX)
            continue;
        const struct vfetch_binding *arr = &p->arrays[c->array];
        if (!arr->data)
            return VFETCH_EMISSING_STREAM;
        const size_t need = (size_t)c->elem_off + c->size;
        const size_t stride = plan->params.array_stride[c->array];
        if (arr->size < need)
            last[k] = -1;
        else if (stride == 0)
            last[k] = INT64_MAX; /* every index reads element 0 */
        else
            last[k] = (int64_t)((arr->size - need) / stride);
    }
    return VFETCH_OK;
}

/* Every index of the draw: skipped vertices counted, out-of-range ones refused or counted. */
static int gx_check_indices(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                            const int64_t *last, uint32_t *skipped, uint32_t *clamped)
{
    const uint8_t *vx = p->vertices;
    const size_t vsize = plan->format.vertex_size;
    for (uint32_t v = 0; v < p->count; v++, vx += vsize) {
        if (gx_skipped(plan, vx)) {
            ++*skipped;
            continue;
        }
        for (unsigned k = 0; k < plan->num_copies; k++) {
            const struct vfetch_gx_copy *c = &plan->copies[k];
            if (c->array == VFETCH_GX_FROM_VERTEX)
                continue;
            if ((int64_t)gx_read_index(vx + c->src, c->index_size) <= last[k])
                continue;
            if (p->index_policy == VFETCH_GX_INDEX_ERROR || last[k] < 0)
                return VFETCH_EARRAY_INDEX;
            ++*clamped;
        }
    }
    return VFETCH_OK;
}

/* memcpy of the sizes staging meets, each a constant so that the compiler emits plain moves
   (a libc call per attribute per vertex cost more than the conversion). */
static inline void gx_copy_bytes(uint8_t *to, const uint8_t *from, unsigned size)
{
    switch (size) {
    case 1: *to = *from; break;
    case 2: memcpy(to, from, 2); break;
    case 3: memcpy(to, from, 3); break;
    case 4: memcpy(to, from, 4); break;
    case 6: memcpy(to, from, 6); break;
    case 8: memcpy(to, from, 8); break;
    case 12: memcpy(to, from, 12); break;
    default: memcpy(to, from, size); break;
    }
}

/* Stage vertices [v0, v0 + n) that are not skipped; returns how many were staged. */
static uint32_t gx_stage(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                         const int64_t *last, uint32_t v0, uint32_t n, uint8_t *stage)
{
    const size_t vsize = plan->format.vertex_size;
    const uint8_t *vx = (const uint8_t *)p->vertices + (size_t)v0 * vsize;
    uint32_t staged = 0;
    for (uint32_t v = 0; v < n; v++, vx += vsize) {
        if (gx_skipped(plan, vx))
            continue;
        uint8_t *st = stage + (size_t)staged++ * plan->staged_size;
        for (unsigned k = 0; k < plan->num_copies; k++) {
            const struct vfetch_gx_copy *c = &plan->copies[k];
            if (c->array == VFETCH_GX_FROM_VERTEX) {
                gx_copy_bytes(st + c->dst, vx + c->src, c->size);
                continue;
            }
            int64_t idx = gx_read_index(vx + c->src, c->index_size);
            if (idx > last[k])
                idx = last[k]; /* VFETCH_GX_INDEX_CLAMP; checked before */
            const size_t stride = plan->params.array_stride[c->array];
            const uint8_t *elem = (const uint8_t *)p->arrays[c->array].data +
                                  (stride ? (size_t)idx * stride : 0) + c->elem_off;
            gx_copy_bytes(st + c->dst, elem, c->size);
        }
    }
    return staged;
}

/* Convert n >= 1 records of the converter's input at src into out. vfetch_gx_run's checks
   already hold what vfetch_run would check: src holds n records of the staged (or vertex)
   size, which bounds every byte the converter reads, and out holds n output records. */
static int gx_convert(const struct vfetch_gx_plan *plan, const void *src, size_t src_size,
                      uint32_t n, uint8_t *out, size_t out_size)
{
    const struct vfetch_binding bind = { src, src_size };
    const struct vfetch_run_params rp = {
        .streams = &bind, .num_streams = 1, .count = n, .index_type = VFETCH_INDEX_NONE,
        .max_index = UINT32_MAX, .out = out, .out_size = out_size,
    };
    return vfetch_run_validated(plan->converter, &rp);
}

int vfetch_gx_run(const vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                  struct vfetch_gx_result *result)
{
    if (!plan || !p || (unsigned)p->index_policy > VFETCH_GX_INDEX_CLAMP)
        return VFETCH_EINVAL;
    struct vfetch_gx_result r = { 0, 0, 0 };
    if (p->count == 0) {
        if (result)
            *result = r;
        return VFETCH_OK;
    }
    const uint64_t bytes = (uint64_t)p->count * plan->format.vertex_size;
    if (bytes > SIZE_MAX)
        return VFETCH_EOVERFLOW;
    if (bytes && !p->vertices)
        return VFETCH_EMISSING_STREAM;
    if (bytes > p->vertices_size)
        return VFETCH_ESHORT_STREAM;

    int64_t last[VFETCH_GX_MAX_COPIES];
    int err = gx_last_indices(plan, p, last);
    if (!err && plan->any_indexed)
        err = gx_check_indices(plan, p, last, &r.skipped, &r.clamped);
    if (err)
        return err;
    r.written = p->count - r.skipped;

    if (plan->converter && r.written) {
        const uint64_t need = (uint64_t)(r.written - 1) * plan->out_stride + plan->record_size;
        if (!p->out)
            return VFETCH_EINVAL;
        if (need > p->out_size)
            return VFETCH_ESHORT_OUTPUT;
        if (!plan->any_indexed) {
            err = gx_convert(plan, p->vertices, p->vertices_size, p->count, p->out, p->out_size);
        } else {
            /* A block is as many staged vertices as the stage holds, so that the two agree
               whatever the format's staged size. */
            uint8_t stage_stack[GX_STAGE_BYTES];
            struct vfetch_stage stage;
            err = vfetch_stage_open(&stage, stage_stack, sizeof stage_stack, plan->staged_size);
            if (err)
                return err;
            const size_t fit = stage.size / plan->staged_size;
            const uint32_t block = fit < GX_BLOCK ? (uint32_t)fit : GX_BLOCK;
            uint8_t *out = p->out;
            size_t room = p->out_size;
            for (uint32_t v0 = 0; v0 < p->count && !err; v0 += block) {
                const uint32_t n = p->count - v0 < block ? p->count - v0 : block;
                const uint32_t staged = gx_stage(plan, p, last, v0, n, stage.data);
                if (!staged)
                    continue;
                err = gx_convert(plan, stage.data, (size_t)staged * plan->staged_size, staged,
                                 out, room);
                const size_t advance = (size_t)staged * plan->out_stride;
                out += advance < room ? advance : room;
                room -= advance < room ? advance : room;
            }
            vfetch_stage_close(&stage);
        }
        if (err) /* cannot happen after the checks above; never report success for it */
            return err;
    }
    if (result)
        *result = r;
    return VFETCH_OK;
}
