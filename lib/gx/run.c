/*
 * Running a compiled GX format over one draw. Every check runs over the whole draw before the
 * first byte is written: the vertex bytes, then every array index (skip value, bounds). Then
 * formats without indexed attributes convert the vertices in place; the others stage blocks of
 * vertices (direct bytes and indexed elements copied into the all-direct layout, skipped
 * vertices left out) and convert each block with the same converter plan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "execute.h"
#include "gx_internal.h"
#include "stage.h"

/* Vertices checked and staged a column at a time (their kept list is a uint8_t each). */
#define GX_BLOCK VFETCH_GX_BLOCK
/* The stage: 128 of the largest staged vertex (129 bytes), more of smaller ones, and the row
   staging's slack; a draw that fits it is checked while it is staged, and converted at once. */
#define GX_STAGE_BYTES (GX_BLOCK * 129 + GX_ROW_SLACK)
/* The largest stage allocated to hold a whole draw, so that it is checked while it is staged
   (one pass over its indices, not a checking pass first): 4 MiB holds 16,380 vertices of the
   largest staged vertex with every attribute (docs/benchmarks.md). */
#define GX_HEAP_STAGE_BYTES (1u << 22)

void vfetch_gx_run_params_init(struct vfetch_gx_run_params *params)
{
    if (!params)
        return;
    /* Field by field, 8 bytes a store: emulators call this for every draw. GCC compiles a
       memset of this size (240 bytes) to `rep stos`, whose start-up is slow; 16-byte stores
       were slower still, since the draw then loads 4- and 8-byte fields that wider stores
       wrote (docs/benchmarks.md). */
    params->vertices = NULL;
    params->vertices_size = 0;
    params->count = 0;
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
        params->arrays[a] = (struct vfetch_binding){ NULL, 0 };
    params->index_policy = VFETCH_GX_INDEX_ERROR;
    params->out = NULL;
    params->out_size = 0;
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

/*
 * Row staging: the fast form of gx_stage for formats whose copies are each at most 16 bytes
 * and at most GX_ROW_MOVES. Each copy is a move of 16 bytes from a per-vertex source address
 * to the staged vertex, vertex by vertex in ascending staged offset (a move's extra bytes land
 * on bytes the next move, or the next vertex, writes after it; the stage has 16 bytes of slack
 * after its last vertex). The addresses of a block are computed first, column by column, from
 * the indices read as a column: loops without dependences that the level's kernels vectorise.
 * A source whose 16 bytes would pass its buffer's end is read from a copy of the buffer's last
 * bytes (the move's tail) instead, so no byte outside the caller's buffers is read.
 */
#define GX_ROW_MOVES VFETCH_GX_ROW_MOVES
/* Blocks of fewer vertices are staged by columns: the rows' set-up (columns of indices and
   addresses through memory) costs more than it saves below about 24 vertices
   (docs/decisions.md, "Measured choices"). */
#define GX_ROWS_MIN 24
/* Draws converted from gathered columns (gx_run_gathered) start lower: they pay the columns'
   set-up but no stage (the break-even: docs/benchmarks.md). */
#define GX_GATHER_MIN 16
#define GX_ROW_SLACK 16

struct gx_move {
    uintptr_t base;      /* element 0 (direct: the draw's first vertex's bytes at src) */
    uintptr_t tail_addr; /* tail - safe_end: tail_addr + off addresses the tail's copy */
    uint64_t safe_end;   /* offsets below this read 16 bytes inside the buffer */
    uint32_t stride;     /* bytes per index (direct: the vertex size) */
    uint32_t clamp;      /* highest index read (last, at most 0xffff) */
    uint16_t src, dst;
    uint8_t index_size;  /* 1 or 2; 0: direct */
    int8_t indexed;      /* rc->indexed[] entry (its last, for checks), or -1 */
    _Alignas(16) uint8_t tail[48];
};

struct gx_copies {
    unsigned num_direct, num_indexed;
    struct gx_direct direct[VFETCH_GX_MAX_COPIES];
    struct gx_indexed indexed[VFETCH_GX_MAX_COPIES];
    int position;        /* indexed[] entry of the position (its skip value), or -1 */
    /* Row staging: every copy as a move, in staged order; 0 when the format is not eligible
       (a copy over 16 bytes, or more than GX_ROW_MOVES copies). */
    unsigned num_moves;
    int position_move;   /* moves[] entry of the position, or -1 */
    vfetch_gx_indices_fn *read_indices;
    vfetch_gx_addrs_fn *index_addrs;
    vfetch_gx_index_addrs_fn *read_index_addrs;
    struct gx_move moves[GX_ROW_MOVES];
};

static inline uint32_t gx_read_index(const uint8_t *at, unsigned size)
{
    return size == 1 ? at[0] : (uint32_t)at[0] << 8 | at[1];
}

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

/*
 * Staging and checking run a block of at most GX_BLOCK vertices copy by copy (a column at a
 * time), not vertex by vertex: each loop then has one source, one size and one index width,
 * all constants, and compiles to a few loads and stores per vertex (vertex by vertex, the
 * per-copy dispatch would cost more than the copies).
 *
 * The block's kept vertices (not skipped: a position index of all ones, 0xFF / 0xFFFF), as
 * offsets from its first vertex; their count.
 */
static inline uint32_t gx_block_keep(const struct gx_copies *rc, const uint8_t *vx, size_t vsize,
                                     uint32_t n, uint8_t keep[GX_BLOCK])
{
    uint32_t m = 0;
    if (rc->position < 0) {
        for (uint32_t v = 0; v < n; v++)
            keep[v] = (uint8_t)v;
        return n;
    }
    const struct gx_indexed *x = &rc->indexed[rc->position];
    const uint32_t skip = x->index_size == 1 ? 0xffu : 0xffffu;
    for (uint32_t v = 0; v < n; v++) {
        keep[m] = (uint8_t)v; /* kept only when m advances */
        m += gx_read_index(vx + (size_t)v * vsize + x->src, x->index_size) != skip;
    }
    return m;
}

/* An index past its array's last element: refused (VFETCH_GX_INDEX_ERROR, or an array too
   small for element 0), else counted as clamped. */
static inline int gx_index_past_end(const struct gx_indexed *x,
                                    const struct vfetch_gx_run_params *p, uint32_t *clamped)
{
    if (p->index_policy == VFETCH_GX_INDEX_ERROR || x->last < 0)
        return VFETCH_EGX_ARRAY_INDEX;
    ++*clamped;
    return VFETCH_OK;
}

/* The kept vertices' indices of one copy past its array's end, the block's highest index
   being past it: refused or counted. */
static int gx_block_past_end(const struct gx_indexed *x, const struct vfetch_gx_run_params *p,
                             const uint8_t *vx, size_t vsize, const uint8_t *keep, uint32_t m,
                             uint32_t *clamped)
{
    const uint8_t *at = vx + x->src;
    for (uint32_t i = 0; i < m; i++)
        if ((int64_t)gx_read_index(at + (size_t)keep[i] * vsize, x->index_size) > x->last &&
            gx_index_past_end(x, p, clamped))
            return VFETCH_EGX_ARRAY_INDEX;
    return VFETCH_OK;
}

/* The kept vertices' indices of every indexed copy: out-of-range ones refused or counted. The
   common case (no index past the end) costs one maximum per copy. */
static int gx_block_check(const struct gx_copies *rc, const struct vfetch_gx_run_params *p,
                          const uint8_t *vx, size_t vsize, const uint8_t *keep, uint32_t m,
                          uint32_t *clamped)
{
    for (unsigned k = 0; k < rc->num_indexed; k++) {
        const struct gx_indexed *x = &rc->indexed[k];
        const uint8_t *at = vx + x->src;
        uint32_t highest = 0;
        if (x->index_size == 1)
            for (uint32_t i = 0; i < m; i++) {
                const uint32_t idx = at[(size_t)keep[i] * vsize];
                highest = idx > highest ? idx : highest;
            }
        else
            for (uint32_t i = 0; i < m; i++) {
                const uint32_t idx = gx_read_index(at + (size_t)keep[i] * vsize, 2);
                highest = idx > highest ? idx : highest;
            }
        if (m && (int64_t)highest > x->last &&
            gx_block_past_end(x, p, vx, vsize, keep, m, clamped))
            return VFETCH_EGX_ARRAY_INDEX;
    }
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

/* The kept list of a block without skipped vertices. */
static const uint8_t gx_every[GX_BLOCK] = {
#define GX_E8(b) b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7
#define GX_E32(b) GX_E8(b), GX_E8(b + 8), GX_E8(b + 16), GX_E8(b + 24)
    GX_E32(0), GX_E32(32), GX_E32(64), GX_E32(96)
#undef GX_E32
#undef GX_E8
};

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
 * The address columns of a block: vertices [v0, v0 + n) (n <= GX_BLOCK), move k's source
 * address of the block's i-th kept vertex at addr[k * addr_stride + i]; *kept says how many.
 * With `check`, the same checks as gx_stage's, in the same order per copy.
 */
static int gx_rows_columns(const struct gx_copies *rc, const struct vfetch_gx_run_params *p,
                           size_t vsize, uint32_t v0, uint32_t n, uintptr_t *addr_cols,
                           size_t addr_stride, const int check, struct vfetch_gx_result *r,
                           uint32_t *kept)
{
    uint32_t idx[GX_BLOCK], pos_highest = 0;
    uint8_t keep[GX_BLOCK];
    const uint8_t *vx = (const uint8_t *)p->vertices + (size_t)v0 * vsize;
    const size_t readable = p->vertices_size - (size_t)v0 * vsize; /* from vx */
    uint32_t m = n;
    if (rc->position_move >= 0) {
        /* The skip value is the highest index of its width: the block skips vertices only
           when the position column's maximum is it (then its kept vertices are listed, and
           every column is narrowed to them before its addresses are computed). */
        const struct gx_move *mv = &rc->moves[rc->position_move];
        uintptr_t *pos_addr = addr_cols + rc->position_move * addr_stride;
        const uint32_t skip = mv->index_size == 1 ? 0xffu : 0xffffu;
        pos_highest = rc->read_index_addrs(vx + mv->src, vsize, n, mv->index_size,
                                           readable - mv->src, mv->clamp, mv->stride, mv->base,
                                           mv->tail_addr, mv->safe_end, pos_addr);
        if (pos_highest == skip) {
            rc->read_indices(vx + mv->src, vsize, n, mv->index_size, readable - mv->src, idx);
            m = 0;
            for (uint32_t v = 0; v < n; v++) {
                keep[m] = (uint8_t)v;
                m += idx[v] != skip;
            }
            for (uint32_t i = 0; i < m; i++)
                idx[i] = idx[keep[i]];
            pos_highest = rc->index_addrs(idx, m, mv->clamp, mv->stride, mv->base,
                                          mv->tail_addr, mv->safe_end, pos_addr);
        }
    }
    if (check)
        r->skipped += n - m;
    *kept = m;
    if (!m)
        return VFETCH_OK;
    for (unsigned k = 0; k < rc->num_moves; k++) {
        const struct gx_move *mv = &rc->moves[k];
        if (!mv->index_size) { /* direct: the vertex numbers are the indices */
            for (uint32_t i = 0; i < m; i++)
                idx[i] = v0 + (m < n ? keep[i] : i);
            rc->index_addrs(idx, m, UINT32_MAX, mv->stride, mv->base, mv->tail_addr,
                            mv->safe_end, addr_cols + k * addr_stride);
            continue;
        }
        const struct gx_indexed *x = &rc->indexed[mv->indexed];
        if (check && x->last < 0)
            return VFETCH_EGX_ARRAY_INDEX;
        uint32_t highest = pos_highest;
        if ((int)k != rc->position_move && m == n) {
            highest = rc->read_index_addrs(vx + mv->src, vsize, n, mv->index_size,
                                           readable - mv->src, mv->clamp, mv->stride, mv->base,
                                           mv->tail_addr, mv->safe_end,
                                           addr_cols + k * addr_stride);
        } else if ((int)k != rc->position_move) { /* the kept vertices' indices */
            rc->read_indices(vx + mv->src, vsize, n, mv->index_size, readable - mv->src, idx);
            for (uint32_t i = 0; i < m; i++)
                idx[i] = idx[keep[i]];
            highest = rc->index_addrs(idx, m, mv->clamp, mv->stride, mv->base, mv->tail_addr,
                                      mv->safe_end, addr_cols + k * addr_stride);
        }
        if (check && (int64_t)highest > x->last &&
            gx_block_past_end(x, p, vx, vsize, m < n ? keep : gx_every, m, &r->clamped))
            return VFETCH_EGX_ARRAY_INDEX;
    }
    return VFETCH_OK;
}

/*
 * gx_stage's block by rows: vertices [v0, v0 + n) (n <= GX_BLOCK), the kept ones staged at st
 * (NULL: checked only, gx_check_indices); *kept says how many. The same checks as gx_stage's,
 * in the same order per copy.
 */
static int gx_stage_rows_block(const struct gx_copies *rc, const struct vfetch_gx_run_params *p,
                               size_t vsize, size_t ss, uint32_t v0, uint32_t n, uint8_t *st,
                               const int check, struct vfetch_gx_result *r, uint32_t *kept)
{
    uintptr_t addr[GX_ROW_MOVES][GX_BLOCK];
    const int err = gx_rows_columns(rc, p, vsize, v0, n, &addr[0][0], GX_BLOCK, check, r, kept);
    if (!err && st && *kept)
        gx_rows(st, ss, rc, addr, *kept);
    return err;
}

/* Every index of the draw, a block at a time: skipped vertices counted, out-of-range ones
   refused or counted. */
static int gx_check_indices(const struct gx_copies *rc, const struct vfetch_gx_run_params *p,
                            size_t vsize, struct vfetch_gx_result *r)
{
    uint8_t keep[GX_BLOCK];
    for (uint32_t v0 = 0; v0 < p->count; v0 += GX_BLOCK) {
        const uint32_t n = p->count - v0 < GX_BLOCK ? p->count - v0 : GX_BLOCK;
        if (rc->num_moves && n >= GX_ROWS_MIN) { /* the rows' columns, without the rows */
            uint32_t kept;
            if (gx_stage_rows_block(rc, p, vsize, 0, v0, n, NULL, 1, r, &kept))
                return VFETCH_EGX_ARRAY_INDEX;
            continue;
        }
        const uint8_t *vx = (const uint8_t *)p->vertices + (size_t)v0 * vsize;
        const uint32_t m = gx_block_keep(rc, vx, vsize, n, keep);
        r->skipped += n - m;
        if (gx_block_check(rc, p, vx, vsize, keep, m, &r->clamped))
            return VFETCH_EGX_ARRAY_INDEX;
    }
    return VFETCH_OK;
}

/*
 * Stage vertices [v0, v0 + n) that are not skipped into the stage (which holds n staged
 * vertices), GX_BLOCK at a time; *staged says how many. With `check` (a draw that fits the
 * stage: one pass instead of two) it counts each block's skipped and clamped vertices and
 * refuses an index out of range as gx_check_indices does, each copy's indices checked by the
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
                gx_block_past_end(x, p, vx, vsize, keep, m, &r->clamped))
                return VFETCH_EGX_ARRAY_INDEX;
        }
        st += (size_t)m * staged_size;
        *staged += m;
    }
    return VFETCH_OK;
}

/* Convert n >= 1 records of the converter's input at src into out. vfetch_gx_run's checks
   already hold what vfetch_run would check: src holds n records of the staged (or vertex)
   size, which bounds every byte the converter reads, and out holds n output records. A stage
   is passed whole (src_size its size, past its n records): the record program then runs
   every whole group in place, its windows reading stage bytes that no lane uses, instead of
   copying the last groups first. Out of line: inlined into vfetch_gx_run, which changes only
   its callers' stack depth, the same code ran much slower on some draws: stack slots of the
   hot loop aliased the output's addresses modulo 4 KiB (docs/benchmarks.md). */
static __attribute__((noinline)) int gx_convert(const struct vfetch_gx_plan *plan,
                                                const void *src, size_t src_size, uint32_t n,
                                                uint8_t *out)
{
    const struct vfetch_binding bind = { src, src_size };
    const struct vfetch_draw draw = { .streams = &bind, .count = n, .out = out };
    return vfetch_execute(plan->converter, &draw);
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

/* A draw too long to be checked while it is staged (or gathered): every index checked first
   (skipped vertices counted, out-of-range ones refused or counted), then the output's size for
   the vertices written. */
static int gx_check_whole(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                          const struct gx_copies *rc, struct vfetch_gx_result *r)
{
    const int err = gx_check_indices(rc, p, plan->format.vertex_size, r);
    r->written = p->count - r->skipped;
    return err ? err : gx_check_output(plan, p, r->written);
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
            err = gx_check_output(plan, p, r->written);
        if (!err && staged)
            err = gx_convert(plan, stage->data, stage->size, staged, p->out);
        return err;
    }
    err = gx_check_whole(plan, p, rc, r);
    uint8_t *out = p->out;
    size_t room = p->out_size;
    for (uint32_t v0 = 0; v0 < p->count && !err; v0 += block) {
        const uint32_t n = p->count - v0 < block ? p->count - v0 : block;
        gx_stage(rc, p, vsize, plan->staged_size, v0, n, stage->data, 0, r, &staged);
        if (!staged)
            continue;
        err = gx_convert(plan, stage->data, stage->size, staged, out);
        const size_t advance = (size_t)staged * plan->out_stride;
        out += advance < room ? advance : room;
        room -= advance < room ? advance : room;
    }
    return err;
}

/* The largest address columns allocated for a draw (16,380 vertices of eight moves). */
#define GX_HEAP_COLUMN_BYTES (1u << 20)

/* Convert `kept` vertices whose move addresses are in the columns (col_stride entries apart,
   room for a group's padding past the kept ones): the whole groups at once, the last partial
   group through a stack copy of its output records (filled from the caller's first when the
   program keeps some slot). */
static inline __attribute__((always_inline)) void
gx_gather_columns(const struct vfetch_gx_plan *plan, uintptr_t *cols, size_t col_stride,
                  size_t moves, size_t kept, uint8_t *out)
{
    const struct vfetch_record_prog *prog = plan->gather->prog;
    const size_t group = prog->group;
    const size_t whole = kept / group, rest = kept - whole * group;
    plan->gather_run(plan->gather, cols, col_stride, whole, out);
    if (!rest)
        return;
    _Alignas(64) uint8_t tail[VFETCH_GX_TAIL_OUT_BYTES];
    for (size_t k = 0; k < moves; k++) /* the group's missing vertices: any address */
        for (size_t i = kept; i < (whole + 1) * group; i++)
            cols[k * col_stride + i] = cols[k * col_stride];
    uint8_t *to = out + whole * prog->dst_step;
    const size_t tail_bytes = (rest - 1) * plan->out_stride + plan->record_size;
    if (!prog->writes_all)
        memcpy(tail, to, tail_bytes);
    plan->gather_run(plan->gather, cols + whole * group, col_stride, 1, tail);
    memcpy(to, tail, tail_bytes);
}

/*
 * A draw whose columns would pass GX_HEAP_COLUMN_BYTES: checked whole first (gx_check_indices,
 * the same checks in the same order), then converted a chunk at a time from columns on the
 * stack, computed without checks (out-of-range indices clamped, skipped vertices left out).
 */
static __attribute__((noinline)) int gx_run_gathered_chunks(const struct vfetch_gx_plan *plan,
                                                            const struct vfetch_gx_run_params *p,
                                                            const struct gx_copies *rc,
                                                            struct vfetch_gx_result *r)
{
    const size_t group = plan->gather->prog->group, moves = rc->num_moves;
    const size_t vsize = plan->format.vertex_size;
    const int err = gx_check_whole(plan, p, rc, r);
    if (err)
        return err;
    _Alignas(64) uintptr_t cols[GX_STAGE_BYTES / sizeof(uintptr_t)];
    /* columns of `chunk` vertices (whole blocks) and a group's padding, in 64-byte lines */
    const size_t per_move = sizeof cols / sizeof cols[0] / moves;
    const size_t chunk = (per_move - group - 8) / GX_BLOCK * GX_BLOCK;
    const size_t col_stride = (chunk + group + 7) & ~(size_t)7;
    uint8_t *out = p->out;
    for (uint32_t c0 = 0; c0 < p->count; c0 += (uint32_t)chunk) {
        const uint32_t n = p->count - c0 < chunk ? p->count - c0 : (uint32_t)chunk;
        size_t kept = 0;
        for (uint32_t v0 = c0; v0 < c0 + n; v0 += GX_BLOCK) {
            const uint32_t nb = c0 + n - v0 < GX_BLOCK ? c0 + n - v0 : GX_BLOCK;
            uint32_t m;
            gx_rows_columns(rc, p, vsize, v0, nb, cols + kept, col_stride, 0, r, &m);
            kept += m;
        }
        if (kept)
            gx_gather_columns(plan, cols, col_stride, moves, kept, out);
        out += kept * plan->out_stride;
    }
    return VFETCH_OK;
}

/*
 * A draw with indexed attributes through the gathered program (gx/gx_dsp.h), without a stage:
 * every kept vertex's move addresses computed into columns for the whole draw, a block at a
 * time, and checked as they are (one pass over the indices); then, every check passed, the
 * program converts them (gx_gather_columns). Returns 1 having done nothing when the columns
 * would not fit GX_HEAP_COLUMN_BYTES or could not be allocated: the draw then runs in chunks
 * (gx_run_gathered_chunks, out of line: its columns are not set up for the common draw).
 */
static int gx_run_gathered(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                           const struct gx_copies *rc, struct vfetch_gx_result *r)
{
    const struct vfetch_record_prog *prog = plan->gather->prog;
    const size_t group = prog->group, moves = rc->num_moves;
    /* room for the last group's padding past the kept vertices, in whole 64-byte lines */
    const size_t col_stride = ((size_t)p->count + group + 7) & ~(size_t)7;
    const uint64_t bytes = (uint64_t)moves * col_stride * sizeof(uintptr_t);
    if (bytes > GX_HEAP_COLUMN_BYTES)
        return 1;
    _Alignas(64) uint8_t stack[GX_STAGE_BYTES];
    struct vfetch_stage cols_stage;
    if (vfetch_stage_open(&cols_stage, stack, sizeof stack, (size_t)bytes))
        return 1;
    int err = VFETCH_OK;
    uintptr_t *cols = (uintptr_t *)(void *)cols_stage.data;
    const size_t vsize = plan->format.vertex_size;
    size_t kept = 0;
    for (uint32_t v0 = 0; v0 < p->count && !err; v0 += GX_BLOCK) {
        const uint32_t n = p->count - v0 < GX_BLOCK ? p->count - v0 : GX_BLOCK;
        uint32_t m;
        err = gx_rows_columns(rc, p, vsize, v0, n, cols + kept, col_stride, 1, r, &m);
        kept += m;
    }
    r->written = p->count - r->skipped;
    if (!err)
        err = gx_check_output(plan, p, r->written);
    if (!err && kept)
        gx_gather_columns(plan, cols, col_stride, moves, kept, p->out);
    vfetch_stage_close(&cols_stage);
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
        err = gx_check_indices(&rc, p, vsize, r);
        r->written = p->count - r->skipped;
        return err;
    }
    if (plan->gather && rc.num_moves)
        return (err = gx_run_gathered(plan, p, &rc, r)) != 1 ? err
                                                              : gx_run_gathered_chunks(plan, p, &rc, r);
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
static __attribute__((noinline)) int gx_run_indexed_result(const struct vfetch_gx_plan *plan,
                                                           const struct vfetch_gx_run_params *p,
                                                           struct vfetch_gx_result *result)
{
    struct vfetch_gx_result r = { 0, 0, 0 };
    const int err = gx_run_indexed(plan, p, &r);
    if (!err && result)
        *result = r;
    return err;
}

/* The portable tier's draw (the record program or the per-op kernels), its vertex bytes
   checked. */
static int gx_run_portable(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                           struct vfetch_gx_result *result)
{
    const uint32_t count = p->count;
    if (plan->any_indexed)
        return gx_run_indexed_result(plan, p, result);
    if (plan->converter) { /* converted in place, if there is anything to convert */
        int err = gx_check_output(plan, p, count);
        if (err)
            return err;
        /* A word copy (the real captures' formats) is vfetch_execute's first branch, taken
           here before the draw's description is built: its stores cost more than the copy
           of a four-vertex draw (docs/simd.md). */
        if (vfetch_execute_copies(plan->converter))
            vfetch_execute_copy(plan->converter, p->vertices, 0, count, p->out);
        else if ((err = gx_convert(plan, p->vertices, p->vertices_size, count, p->out)))
            return err;
    }
    if (result)
        *result = (struct vfetch_gx_result){ count, 0, 0 };
    return VFETCH_OK;
}

/* VFETCH_JIT_COMPARE: the portable tier into a copy of the output, the generated code (which
   may hand the draw to the portable tier itself) into the output; any difference in the return
   code, the result or an output byte aborts the process. */
static __attribute__((noinline)) int gx_run_compare(const struct vfetch_gx_plan *plan,
                                                    const struct vfetch_gx_run_params *p,
                                                    struct vfetch_gx_result *result)
{
    const uint64_t need = p->count ? (uint64_t)(p->count - 1) * plan->out_stride + plan->record_size
                                   : 0;
    const size_t bytes = !p->out ? 0 : need < p->out_size ? (size_t)need : p->out_size;
    uint8_t *copy = malloc(bytes ? bytes : 1);
    if (!copy)
        return VFETCH_ENOMEM;
    if (bytes)
        memcpy(copy, p->out, bytes);
    struct vfetch_gx_run_params q = *p;
    q.out = p->out ? copy : NULL;
    struct vfetch_gx_result want = { 0, 0, 0 }, got = { 0, 0, 0 };
    const int want_err = vfetch_gx_run_portable(plan, &q, &want);
    const int err = plan->jit_entry(plan, p, &got);
    size_t at = 0;
    while (at < bytes && copy[at] == ((const uint8_t *)p->out)[at])
        at++;
    if (err != want_err || (!err && (got.written != want.written || got.skipped != want.skipped ||
                                     got.clamped != want.clamped)) ||
        at < bytes) {
        fprintf(stderr,
                "vfetch: VFETCH_JIT=compare: GX format VCD %08x/%08x VAT %08x/%08x/%08x, %u "
                "vertices: generated code: return %d (portable tier %d), written %u (%u), "
                "skipped %u (%u), clamped %u (%u)",
                plan->desc.regs.vcd_lo, plan->desc.regs.vcd_hi, plan->desc.regs.vat_a,
                plan->desc.regs.vat_b, plan->desc.regs.vat_c, p->count, err, want_err,
                got.written, want.written, got.skipped, want.skipped, got.clamped, want.clamped);
        if (at < bytes)
            fprintf(stderr, ", output byte %zu: %02x (portable tier %02x)", at,
                    ((const uint8_t *)p->out)[at], copy[at]);
        fprintf(stderr, "\n");
        abort();
    }
    free(copy);
    if (!err && result)
        *result = got;
    return err;
}

int vfetch_gx_run_portable(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                           struct vfetch_gx_result *result)
{
    if (!plan || !p || (unsigned)p->index_policy > VFETCH_GX_INDEX_CLAMP)
        return VFETCH_EINVAL;
    const uint32_t count = p->count;
    if (count == 0) {
        if (result)
            *result = (struct vfetch_gx_result){ 0, 0, 0 };
        return VFETCH_OK;
    }
    const uint64_t bytes = (uint64_t)count * plan->format.vertex_size;
    if (bytes > SIZE_MAX)
        return VFETCH_EOVERFLOW;
    if (bytes && !p->vertices)
        return VFETCH_EMISSING_STREAM;
    if (bytes > p->vertices_size)
        return VFETCH_ESHORT_STREAM;
    return gx_run_portable(plan, p, result);
}

/* The generated code, where the plan has it, runs the draw: it checks, converts, or hands the
   draw to vfetch_gx_run_portable (a tail call here: no frame of this function's). */
int vfetch_gx_run(const vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                  struct vfetch_gx_result *result)
{
    if (plan && p && plan->jit_run)
        return plan->jit_run(plan, p, result);
    if (plan && p && plan->jit_compare && plan->jit_entry)
        return gx_run_compare(plan, p, result);
    return vfetch_gx_run_portable(plan, p, result);
}
