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

/*
 * The staging copies resolved for one run, so that the per-vertex loops read no plan or
 * params indirection: direct spans (vertex bytes to staged bytes) and indexed elements (an
 * index in the vertex selects an element at base + index * stride; stride 0 reads element 0).
 */
struct gx_direct {
    uint16_t src, dst, size;
};

struct gx_indexed {
    const uint8_t *base; /* the array's data + the element offset (NBT index3 parts) */
    size_t stride;
    int64_t last;        /* highest index whose bytes lie in the array; -1: not even 0 */
    uint16_t src, dst, size;
    uint8_t index_size;  /* 1 or 2, big-endian */
};

struct gx_copies {
    unsigned num_direct, num_indexed;
    struct gx_direct direct[VFETCH_GX_MAX_COPIES];
    struct gx_indexed indexed[VFETCH_GX_MAX_COPIES];
    int position;        /* indexed[] entry of the position (its skip value), or -1 */
};

static inline uint32_t gx_read_index(const uint8_t *at, unsigned size)
{
    return size == 1 ? at[0] : (uint32_t)at[0] << 8 | at[1];
}

static int gx_resolve(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                      struct gx_copies *rc)
{
    rc->num_direct = rc->num_indexed = 0;
    rc->position = -1;
    for (unsigned k = 0; k < plan->num_copies; k++) {
        const struct vfetch_gx_copy *c = &plan->copies[k];
        if (c->array == VFETCH_GX_FROM_VERTEX) {
            rc->direct[rc->num_direct++] = (struct gx_direct){ c->src, c->dst, c->size };
            continue;
        }
        const struct vfetch_binding *arr = &p->arrays[c->array];
        if (!arr->data)
            return VFETCH_EMISSING_STREAM;
        const size_t need = (size_t)c->elem_off + c->size;
        const size_t stride = plan->params.array_stride[c->array];
        if ((int)k == plan->position_copy)
            rc->position = (int)rc->num_indexed;
        struct gx_indexed *x = &rc->indexed[rc->num_indexed++];
        x->base = arr->size < need ? arr->data : (const uint8_t *)arr->data + c->elem_off;
        x->stride = stride;
        x->last = arr->size < need ? -1
                  : stride == 0   ? INT64_MAX /* every index reads element 0 */
                                  : (int64_t)((arr->size - need) / stride);
        x->src = c->src;
        x->dst = c->dst;
        x->size = c->size;
        x->index_size = c->index_size;
    }
    return VFETCH_OK;
}

/* Whether a vertex is skipped: its position index is all ones (0xFF / 0xFFFF). */
static inline int gx_skipped(const struct gx_copies *rc, const uint8_t *vx)
{
    if (rc->position < 0)
        return 0;
    const struct gx_indexed *x = &rc->indexed[rc->position];
    return gx_read_index(vx + x->src, x->index_size) == (x->index_size == 1 ? 0xffu : 0xffffu);
}

/* An index past its array's last element: refused (VFETCH_GX_INDEX_ERROR, or an array too
   small for element 0), else counted as clamped. */
static inline int gx_index_past_end(const struct gx_indexed *x,
                                    const struct vfetch_gx_run_params *p, uint32_t *clamped)
{
    if (p->index_policy == VFETCH_GX_INDEX_ERROR || x->last < 0)
        return VFETCH_EARRAY_INDEX;
    ++*clamped;
    return VFETCH_OK;
}

/* Every index of the draw: skipped vertices counted, out-of-range ones refused or counted. */
static int gx_check_indices(const struct gx_copies *rc, const struct vfetch_gx_run_params *p,
                            size_t vsize, uint32_t *skipped, uint32_t *clamped)
{
    const uint8_t *vx = p->vertices;
    for (uint32_t v = 0; v < p->count; v++, vx += vsize) {
        if (gx_skipped(rc, vx)) {
            ++*skipped;
            continue;
        }
        for (unsigned k = 0; k < rc->num_indexed; k++) {
            const struct gx_indexed *x = &rc->indexed[k];
            if ((int64_t)gx_read_index(vx + x->src, x->index_size) > x->last &&
                gx_index_past_end(x, p, clamped))
                return VFETCH_EARRAY_INDEX;
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

/*
 * Stage vertices [v0, v0 + n) that are not skipped into the stage; *staged says how many.
 * With `check` (a draw that fits one block: one pass instead of two) it also counts skipped
 * and clamped vertices and refuses an index out of range, as gx_check_indices does; the stage
 * is internal, so nothing the caller sees is written before the checks end. Without it the
 * draw was checked before, and out-of-range indices are clamped.
 */
static inline int gx_stage(const struct gx_copies *rc, const struct vfetch_gx_run_params *p,
                           size_t vsize, size_t staged_size, uint32_t v0, uint32_t n,
                           uint8_t *stage, const int check, struct vfetch_gx_result *r,
                           uint32_t *staged)
{
    const uint8_t *vx = (const uint8_t *)p->vertices + (size_t)v0 * vsize;
    uint8_t *st = stage;
    for (uint32_t v = 0; v < n; v++, vx += vsize) {
        if (gx_skipped(rc, vx)) {
            if (check)
                r->skipped++;
            continue;
        }
        for (unsigned k = 0; k < rc->num_direct; k++) {
            const struct gx_direct *c = &rc->direct[k];
            gx_copy_bytes(st + c->dst, vx + c->src, c->size);
        }
        for (unsigned k = 0; k < rc->num_indexed; k++) {
            const struct gx_indexed *x = &rc->indexed[k];
            int64_t idx = gx_read_index(vx + x->src, x->index_size);
            if (idx > x->last) {
                if (check && gx_index_past_end(x, p, &r->clamped))
                    return VFETCH_EARRAY_INDEX;
                idx = x->last; /* VFETCH_GX_INDEX_CLAMP */
            }
            gx_copy_bytes(st + x->dst, x->base + (size_t)idx * x->stride, x->size);
        }
        st += staged_size;
    }
    *staged = (uint32_t)((size_t)(st - stage) / staged_size);
    return VFETCH_OK;
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

/* The output must hold `written` records (checked once the skipped vertices are known). */
static int gx_check_output(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                           uint32_t written)
{
    if (!written)
        return VFETCH_OK;
    const uint64_t need = (uint64_t)(written - 1) * plan->out_stride + plan->record_size;
    if (!p->out)
        return VFETCH_EINVAL;
    return need > p->out_size ? VFETCH_ESHORT_OUTPUT : VFETCH_OK;
}

/*
 * A draw with indexed attributes: staged a block at a time, each block converted. A draw that
 * fits one block is checked while it is staged (one pass over the indices); a longer one is
 * checked whole first, since its first block is converted before its last is read.
 */
static int gx_run_staged(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                         const struct gx_copies *rc, const struct vfetch_stage *stage,
                         struct vfetch_gx_result *r)
{
    /* A block is as many staged vertices as the stage holds, so that the two agree whatever
       the format's staged size. */
    const size_t vsize = plan->format.vertex_size, fit = stage->size / plan->staged_size;
    const uint32_t block = fit < GX_BLOCK ? (uint32_t)fit : GX_BLOCK;
    uint32_t staged = 0;
    int err;
    if (p->count <= block) {
        err = gx_stage(rc, p, vsize, plan->staged_size, 0, p->count, stage->data, 1, r, &staged);
        r->written = p->count - r->skipped;
        if (!err)
            err = gx_check_output(plan, p, r->written);
        if (!err && staged)
            err = gx_convert(plan, stage->data, (size_t)staged * plan->staged_size, staged,
                             p->out, p->out_size);
        return err;
    }
    err = gx_check_indices(rc, p, vsize, &r->skipped, &r->clamped);
    r->written = p->count - r->skipped;
    if (!err)
        err = gx_check_output(plan, p, r->written);
    uint8_t *out = p->out;
    size_t room = p->out_size;
    for (uint32_t v0 = 0; v0 < p->count && !err; v0 += block) {
        const uint32_t n = p->count - v0 < block ? p->count - v0 : block;
        gx_stage(rc, p, vsize, plan->staged_size, v0, n, stage->data, 0, r, &staged);
        if (!staged)
            continue;
        err = gx_convert(plan, stage->data, (size_t)staged * plan->staged_size, staged, out,
                         room);
        const size_t advance = (size_t)staged * plan->out_stride;
        out += advance < room ? advance : room;
        room -= advance < room ? advance : room;
    }
    return err;
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

    struct gx_copies rc;
    const size_t vsize = plan->format.vertex_size;
    int err = plan->any_indexed ? gx_resolve(plan, p, &rc) : VFETCH_OK;
    if (err)
        return err;
    if (!plan->any_indexed || !plan->converter) {
        if (plan->any_indexed)
            err = gx_check_indices(&rc, p, vsize, &r.skipped, &r.clamped);
        if (err)
            return err;
        r.written = p->count - r.skipped;
        if (plan->converter) { /* nothing indexed: converted in place */
            err = gx_check_output(plan, p, r.written);
            if (!err)
                err = gx_convert(plan, p->vertices, p->vertices_size, p->count, p->out,
                                 p->out_size);
            if (err)
                return err;
        }
    } else {
        uint8_t stage_stack[GX_STAGE_BYTES];
        struct vfetch_stage stage;
        err = vfetch_stage_open(&stage, stage_stack, sizeof stage_stack, plan->staged_size);
        if (err)
            return err;
        err = gx_run_staged(plan, p, &rc, &stage, &r);
        vfetch_stage_close(&stage);
        if (err)
            return err;
    }
    if (result)
        *result = r;
    return VFETCH_OK;
}
