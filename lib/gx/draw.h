/*
 * The parts of running a GX draw that its ways share (lib/gx/run.c's direct draws,
 * lib/gx/run_indexed.c's staged ones, lib/gx/run_gathered.c's gathered ones): the run's copies
 * as resolved against its arrays (lib/gx/run_indexed.c resolves them), a block's indices read
 * into address columns and checked (inline: each caller's `check` is a constant), every index
 * of a draw checked, the output's size, records converted by the converter plan
 * (lib/gx/draw.c). Not installed.
 */
#ifndef VFETCH_GX_DRAW_H
#define VFETCH_GX_DRAW_H

#include <stddef.h>
#include <stdint.h>

#include "gx_internal.h"

/* Vertices checked and staged a column at a time (their kept list is a uint8_t each). */
#define GX_BLOCK VFETCH_GX_BLOCK
/* The stage: 128 of the largest staged vertex (129 bytes), more of smaller ones, and the row
   staging's slack; a draw that fits it is checked while it is staged, and converted at once. */
#define GX_STAGE_BYTES (GX_BLOCK * 129 + GX_ROW_SLACK)

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
   set-up but no stage (the break-even: docs/decisions.md, "Measured choices"). */
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

/*
 * Staging and checking run a block of at most GX_BLOCK vertices copy by copy (a column at a
 * time), not vertex by vertex: each loop then has one source, one size and one index width,
 * all constants, and compiles to a few loads and stores per vertex (vertex by vertex, the
 * per-copy dispatch would cost more than the copies).
 */
/* The block's kept vertices (not skipped: a position index of all ones, 0xFF / 0xFFFF), as
   offsets from its first vertex; their count. */
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

/* The kept vertices' indices of one copy past its array's end: refused or counted. */
int vfetch_gx_block_past_end(const struct gx_indexed *x, const struct vfetch_gx_run_params *p,
                             const uint8_t *vx, size_t vsize, const uint8_t *keep, uint32_t m,
                             uint32_t *clamped);
/* The kept list of a block without skipped vertices: 0, 1, ..., GX_BLOCK - 1. */
extern const uint8_t vfetch_gx_every[GX_BLOCK];

/* The output must hold `written` records (checked once the skipped vertices are known). */
static inline int vfetch_gx_check_output(const struct vfetch_gx_plan *plan,
                                         const struct vfetch_gx_run_params *p, uint32_t written)
{
    if (!written)
        return VFETCH_OK;
    const uint64_t need = (uint64_t)(written - 1) * plan->out_stride + plan->record_size;
    if (!p->out)
        return VFETCH_EINVAL;
    return need > p->out_size ? VFETCH_ESHORT_OUTPUT : VFETCH_OK;
}

/*
 * The address columns of a block: vertices [v0, v0 + n) (n <= GX_BLOCK), move k's source
 * address of the block's i-th kept vertex at addr[k * addr_stride + i]; *kept says how many.
 * With `check`, the same checks as gx_stage's, in the same order per copy.
 */
static inline int vfetch_gx_rows_columns(const struct gx_copies *rc,
                                         const struct vfetch_gx_run_params *p, size_t vsize,
                                         uint32_t v0, uint32_t n, uintptr_t *addr_cols,
                                         size_t addr_stride, const int check,
                                         struct vfetch_gx_result *r, uint32_t *kept)
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
            vfetch_gx_block_past_end(x, p, vx, vsize, m < n ? keep : vfetch_gx_every, m,
                                     &r->clamped))
            return VFETCH_EGX_ARRAY_INDEX;
    }
    return VFETCH_OK;
}

/* Every index of the draw checked (skipped vertices counted, out-of-range ones refused or
   counted). */
int vfetch_gx_check_indices(const struct gx_copies *rc, const struct vfetch_gx_run_params *p,
                            size_t vsize, struct vfetch_gx_result *r);
/* vfetch_gx_check_indices, then the output for the vertices written. */
int vfetch_gx_check_whole(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                          const struct gx_copies *rc, struct vfetch_gx_result *r);
/* n >= 1 records of the converter's input at src converted into out (vfetch_execute). */
int vfetch_gx_convert(const struct vfetch_gx_plan *plan, const void *src, size_t src_size,
                      uint32_t n, uint8_t *out);

/* A draw with indexed attributes, its vertex bytes checked: run (gathered or staged), its
   result stored when it succeeds (lib/gx/run_indexed.c). */
int vfetch_gx_run_indexed(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                          struct vfetch_gx_result *result);
/* A resolved draw with moves through the gathered program (lib/gx/run_gathered.c). */
int vfetch_gx_run_gathered(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                           const struct gx_copies *rc, struct vfetch_gx_result *r);

#endif
