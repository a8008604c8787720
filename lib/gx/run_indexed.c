/*
 * A GX draw with indexed attributes: its copies resolved, then converted from gathered columns
 * (lib/gx/run_gathered.c) or staged: blocks of vertices copied into the all-direct layout
 * (direct bytes and indexed elements, skipped vertices left out; by rows of 16-byte moves
 * where the format allows, else copy by copy) and converted with the converter plan. A draw
 * that fits the stage is checked while it is staged; a longer one is checked whole first.
 */
#include <string.h>

#include "draw.h"
#include "stage.h"

/* The largest stage allocated to hold a whole draw, so that it is checked while it is staged
   (one pass over its indices, not a checking pass first): 4 MiB holds 16,380 vertices of the
   largest staged vertex with every attribute (docs/decisions.md, "Measured choices"). */
#define GX_HEAP_STAGE_BYTES (1u << 22)

/* A move reading `avail` bytes from base: its safe end and its tail. The tail holds the 16
   bytes before the end (fewer, after zeros, when avail < 16) then zeros, so that the copy of
   the byte at the safe end (avail - 15) is tail + 1 and 16 bytes may be read from any tail
   offset below 32. */
static void gx_move_bounds(struct gx_move *mv, const uint8_t *base, size_t avail)
{
    mv->base = (uintptr_t)base;
    memset(mv->tail + 16, 0, sizeof mv->tail - 16);
    if (avail >= 16) {
        mv->safe_end = avail - 15;
        memcpy(mv->tail, base + avail - 16, 16);
    } else {
        mv->safe_end = 0;
        memset(mv->tail, 0, 16);
        for (size_t i = 0; i < avail; i++) /* the bytes at tail + 1 .. */
            mv->tail[1 + i] = base[i];
    }
    mv->tail_addr = (uintptr_t)(mv->tail + 1) - (uintptr_t)mv->safe_end;
}

/* The copies as moves, when the format is eligible for row staging (rc->num_moves stays 0
   otherwise). */
static void gx_resolve_moves(const struct vfetch_gx_plan *plan,
                             const struct vfetch_gx_run_params *p, struct gx_copies *rc)
{
    rc->read_indices = plan->read_indices;
    rc->index_addrs = plan->index_addrs;
    rc->read_index_addrs = plan->read_index_addrs;
    if (plan->num_copies > GX_ROW_MOVES)
        return;
    for (unsigned k = 0; k < plan->num_copies; k++)
        if (plan->copies[k].size > 16)
            return;
    unsigned nx = 0;
    for (unsigned k = 0; k < plan->num_copies; k++) {
        const struct vfetch_gx_copy *c = &plan->copies[k];
        struct gx_move *mv = &rc->moves[k];
        mv->src = c->src;
        mv->dst = c->dst;
        if (c->array == VFETCH_GX_FROM_VERTEX) {
            mv->index_size = 0;
            mv->indexed = -1;
            mv->stride = plan->format.vertex_size;
            mv->clamp = 0;
            gx_move_bounds(mv, (const uint8_t *)p->vertices + c->src, p->vertices_size - c->src);
            continue;
        }
        const struct gx_indexed *x = &rc->indexed[nx];
        const struct vfetch_binding *arr = &p->arrays[c->array];
        if ((int)nx == rc->position)
            rc->position_move = (int)k;
        mv->index_size = c->index_size;
        mv->indexed = (int8_t)nx++;
        mv->stride = (uint32_t)x->stride;
        mv->clamp = x->last < 0 ? 0 : x->last > 0xffff ? 0xffff : (uint32_t)x->last;
        const size_t avail = x->base == arr->data ? arr->size : arr->size - c->elem_off;
        gx_move_bounds(mv, x->base, avail);
    }
    rc->num_moves = plan->num_copies;
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
        const size_t stride = plan->desc.array_stride[c->array];
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
    rc->num_moves = 0;
    rc->position_move = -1;
    if (p->count >= (plan->gather ? GX_GATHER_MIN : GX_ROWS_MIN)) /* rows or gathered */
        gx_resolve_moves(plan, p, rc);
    return VFETCH_OK;
}

/* memcpy of a constant size (plain moves, not a libc call). */
#define GX_COPY_ALWAYS_INLINE static inline __attribute__((always_inline))

/* One direct copy for the kept vertices: `size` bytes at vertex offset src to staged dst. */
GX_COPY_ALWAYS_INLINE void gx_stage_direct_sized(uint8_t *st, size_t staged_size,
                                                 const struct gx_direct *c, const uint8_t *vx,
                                                 size_t vsize, const uint8_t *keep, uint32_t m,
                                                 const unsigned size)
{
    const uint8_t *from = vx + c->src;
    uint8_t *to = st + c->dst; /* fields read once: the stores could alias them */
    for (uint32_t i = 0; i < m; i++, to += staged_size)
        memcpy(to, from + (size_t)keep[i] * vsize, size);
}

/* One indexed copy for the kept vertices: the element the vertex's index selects (clamped to
   the last, which is at least 0), `size` bytes, index `isize` bytes big-endian. Returns the
   highest index before clamping, so that a draw checked while staged needs no second pass
   over its indices. */
GX_COPY_ALWAYS_INLINE uint32_t gx_stage_indexed_sized(uint8_t *st, size_t staged_size,
                                                  const struct gx_indexed *x, const uint8_t *vx,
                                                  size_t vsize, const uint8_t *keep, uint32_t m,
                                                  const unsigned size, const unsigned isize)
{
    const uint8_t *at = vx + x->src, *base = x->base;
    uint8_t *to = st + x->dst; /* fields read once: the stores could alias them */
    const size_t stride = x->stride;
    const int64_t last = x->last;
    uint32_t highest = 0;
    for (uint32_t i = 0; i < m; i++, to += staged_size) {
        const uint32_t idx = gx_read_index(at + (size_t)keep[i] * vsize, isize);
        highest = idx > highest ? idx : highest;
        memcpy(to, base + (size_t)(idx > last ? last : idx) * stride, size);
    }
    return highest;
}

/* The sizes GX attributes have (component bytes x 1..4, colors 2..4; NBT 9, 18 and 36; up
   to 9 matrix-index bytes), each a constant. */
#define GX_SIZES(X) X(1) X(2) X(3) X(4) X(6) X(8) X(9) X(12) X(18) X(36)

static void gx_stage_direct(uint8_t *st, size_t staged_size, const struct gx_direct *c,
                            const uint8_t *vx, size_t vsize, const uint8_t *keep, uint32_t m)
{
    switch (c->size) {
#define GX_DIRECT_CASE(n)                                                                   \
    case n: gx_stage_direct_sized(st, staged_size, c, vx, vsize, keep, m, n); return;
        GX_SIZES(GX_DIRECT_CASE)
#undef GX_DIRECT_CASE
    default: gx_stage_direct_sized(st, staged_size, c, vx, vsize, keep, m, c->size); return;
    }
}

static uint32_t gx_stage_indexed(uint8_t *st, size_t staged_size, const struct gx_indexed *x,
                                 const uint8_t *vx, size_t vsize, const uint8_t *keep, uint32_t m)
{
    switch (x->size * 2 + x->index_size - 1) {
#define GX_INDEXED_CASE(n)                                                                  \
    case n * 2: return gx_stage_indexed_sized(st, staged_size, x, vx, vsize, keep, m, n, 1);  \
    case n * 2 + 1: return gx_stage_indexed_sized(st, staged_size, x, vx, vsize, keep, m, n, 2);
        GX_SIZES(GX_INDEXED_CASE)
#undef GX_INDEXED_CASE
    default:
        return gx_stage_indexed_sized(st, staged_size, x, vx, vsize, keep, m, x->size,
                                      x->index_size);
    }
}

static inline void gx_move16(uint8_t *to, uintptr_t from)
{
    uint8_t b[16];
    memcpy(b, (const void *)from, 16);
    memcpy(to, b, 16);
}

/* The moves of m vertices, vertex by vertex (addr[k][i]: move k of staged vertex i); K moves
   (a constant where inlined). */
GX_COPY_ALWAYS_INLINE void gx_rows_sized(uint8_t *st, size_t ss, const struct gx_copies *rc,
                                         uintptr_t addr[][GX_BLOCK], uint32_t m, const unsigned K)
{
    uint16_t dst[GX_ROW_MOVES];
    for (unsigned k = 0; k < K; k++)
        dst[k] = rc->moves[k].dst;
    for (uint32_t i = 0; i < m; i++, st += ss)
        for (unsigned k = 0; k < K; k++)
            gx_move16(st + dst[k], addr[k][i]);
}

static void gx_rows(uint8_t *st, size_t ss, const struct gx_copies *rc,
                    uintptr_t addr[][GX_BLOCK], uint32_t m)
{
    switch (rc->num_moves) {
    case 1: gx_rows_sized(st, ss, rc, addr, m, 1); return;
    case 2: gx_rows_sized(st, ss, rc, addr, m, 2); return;
    case 3: gx_rows_sized(st, ss, rc, addr, m, 3); return;
    case 4: gx_rows_sized(st, ss, rc, addr, m, 4); return;
    default: gx_rows_sized(st, ss, rc, addr, m, rc->num_moves); return;
    }
}

/*
 * gx_stage's block by rows: vertices [v0, v0 + n) (n <= GX_BLOCK), the kept ones staged at st
 * (NULL: checked only, vfetch_gx_check_indices); *kept says how many. The same checks as
 * gx_stage's, in the same order per copy.
 */
static int gx_stage_rows_block(const struct gx_copies *rc, const struct vfetch_gx_run_params *p,
                               size_t vsize, size_t ss, uint32_t v0, uint32_t n, uint8_t *st,
                               const int check, struct vfetch_gx_result *r, uint32_t *kept)
{
    uintptr_t addr[GX_ROW_MOVES][GX_BLOCK];
    const int err =
        vfetch_gx_rows_columns(rc, p, vsize, v0, n, &addr[0][0], GX_BLOCK, check, r, kept);
    if (!err && st && *kept)
        gx_rows(st, ss, rc, addr, *kept);
    return err;
}

/*
 * Stage vertices [v0, v0 + n) that are not skipped into the stage (which holds n staged
 * vertices), GX_BLOCK at a time; *staged says how many. With `check` (a draw that fits the
 * stage: one pass instead of two) it counts each block's skipped and clamped vertices and
 * refuses an index out of range as vfetch_gx_check_indices does, each copy's indices checked by the
 * maximum its staging loop returns; the stage is internal, so nothing the caller sees is
 * written before the checks end. Without it the draw was checked before, and out-of-range
 * indices are clamped.
 */
static inline int gx_stage(const struct gx_copies *rc, const struct vfetch_gx_run_params *p,
                           size_t vsize, size_t staged_size, uint32_t v0, uint32_t n,
                           uint8_t *stage, const int check, struct vfetch_gx_result *r,
                           uint32_t *staged)
{
    uint8_t keep[GX_BLOCK];
    uint8_t *st = stage;
    *staged = 0;
    for (uint32_t b0 = 0; b0 < n; b0 += GX_BLOCK) {
        const uint32_t nb = n - b0 < GX_BLOCK ? n - b0 : GX_BLOCK;
        if (rc->num_moves && nb >= GX_ROWS_MIN) {
            uint32_t m;
            const int err = gx_stage_rows_block(rc, p, vsize, staged_size, v0 + b0, nb, st,
                                                check, r, &m);
            if (err)
                return err;
            st += (size_t)m * staged_size;
            *staged += m;
            continue;
        }
        const uint8_t *vx = (const uint8_t *)p->vertices + ((size_t)v0 + b0) * vsize;
        const uint32_t m = gx_block_keep(rc, vx, vsize, nb, keep);
        if (check)
            r->skipped += nb - m;
        for (unsigned k = 0; k < rc->num_direct; k++)
            gx_stage_direct(st, staged_size, &rc->direct[k], vx, vsize, keep, m);
        for (unsigned k = 0; k < rc->num_indexed; k++) {
            /* Checked as it is staged (gx_block_check's rules): an array too small for
               element 0 is refused before it is read; the copy clamps, so an index past the
               end is refused or counted after it. */
            const struct gx_indexed *x = &rc->indexed[k];
            if (check && m && x->last < 0)
                return VFETCH_EGX_ARRAY_INDEX;
            const uint32_t highest = gx_stage_indexed(st, staged_size, x, vx, vsize, keep, m);
            if (check && m && (int64_t)highest > x->last &&
                vfetch_gx_block_past_end(x, p, vx, vsize, keep, m, &r->clamped))
                return VFETCH_EGX_ARRAY_INDEX;
        }
        st += (size_t)m * staged_size;
        *staged += m;
    }
    return VFETCH_OK;
}

/*
 * A draw with indexed attributes: staged a block at a time, each block converted. A draw that
 * fits the stage is checked while it is staged (one pass over the indices); a longer one is
 * checked whole first, since its first block is converted before its last is read.
 */
static int gx_run_staged(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                         const struct gx_copies *rc, const struct vfetch_stage *stage,
                         struct vfetch_gx_result *r)
{
    /* A draw the stage holds is staged whole (the stage holds at least GX_BLOCK of the largest
       staged vertex); a longer one GX_BLOCK vertices at a time, which stay in L1 with their
       output (larger blocks measured slower). */
    const size_t vsize = plan->format.vertex_size;
    const size_t fit = (stage->size - GX_ROW_SLACK) / plan->staged_size;
    const uint32_t block = fit < GX_BLOCK ? (uint32_t)fit : GX_BLOCK;
    uint32_t staged = 0;
    int err;
    if (p->count <= fit) {
        err = gx_stage(rc, p, vsize, plan->staged_size, 0, p->count, stage->data, 1, r, &staged);
        r->written = p->count - r->skipped;
        if (!err)
            err = vfetch_gx_check_output(plan, p, r->written);
        if (!err && staged)
            err = vfetch_gx_convert(plan, stage->data, stage->size, staged, p->out);
        return err;
    }
    err = vfetch_gx_check_whole(plan, p, rc, r);
    uint8_t *out = p->out;
    size_t room = p->out_size;
    for (uint32_t v0 = 0; v0 < p->count && !err; v0 += block) {
        const uint32_t n = p->count - v0 < block ? p->count - v0 : block;
        gx_stage(rc, p, vsize, plan->staged_size, v0, n, stage->data, 0, r, &staged);
        if (!staged)
            continue;
        err = vfetch_gx_convert(plan, stage->data, stage->size, staged, out);
        const size_t advance = (size_t)staged * plan->out_stride;
        out += advance < room ? advance : room;
        room -= advance < room ? advance : room;
    }
    return err;
}

/*
 * A draw with indexed attributes, its vertex bytes checked: resolved, checked, converted
 * (gathered, or staged). Out of line, so that a direct draw sets up none of its stack (the
 * stages and the columns' stack copy).
 */
static __attribute__((noinline)) int gx_run_indexed(const struct vfetch_gx_plan *plan,
                                                    const struct vfetch_gx_run_params *p,
                                                    struct vfetch_gx_result *r)
{
    struct gx_copies rc;
    const size_t vsize = plan->format.vertex_size;
    int err = gx_resolve(plan, p, &rc);
    if (err)
        return err;
    if (!plan->converter) { /* nothing to convert: the indices checked only */
        err = vfetch_gx_check_indices(&rc, p, vsize, r);
        r->written = p->count - r->skipped;
        return err;
    }
    if (plan->gather && rc.num_moves)
        return vfetch_gx_run_gathered(plan, p, &rc, r);
    uint8_t stage_stack[GX_STAGE_BYTES];
    struct vfetch_stage stage;
    /* A draw of up to GX_HEAP_STAGE_BYTES staged gets a stage that holds it whole, so that it
       is checked while staged (one pass over its indices instead of two); a longer one, or one
       whose stage cannot be allocated, is checked first and staged a block at a time through
       the stack stage. */
    const uint64_t whole = (uint64_t)p->count * plan->staged_size + GX_ROW_SLACK;
    err = whole <= GX_HEAP_STAGE_BYTES
              ? vfetch_stage_open(&stage, stage_stack, sizeof stage_stack, (size_t)whole)
              : VFETCH_ENOMEM;
    if (err)
        err = vfetch_stage_open(&stage, stage_stack, sizeof stage_stack,
                               plan->staged_size + GX_ROW_SLACK);
    if (err)
        return err;
    err = gx_run_staged(plan, p, &rc, &stage, r);
    vfetch_stage_close(&stage);
    return err;
}

/* A draw with indexed attributes, its vertex bytes checked: run, and its result stored when
   it succeeds. */
int vfetch_gx_run_indexed(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                          struct vfetch_gx_result *result)
{
    struct vfetch_gx_result r = { 0, 0, 0 };
    const int err = gx_run_indexed(plan, p, &r);
    if (!err && result)
        *result = r;
    return err;
}
