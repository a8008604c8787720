/*
 * The checks and the conversion every way of running a GX draw with indexed attributes shares
 * (lib/gx/draw.h): indices past their array's end refused or counted, every index of a draw
 * checked, and the converter plan run over records (the GX draw's one call into
 * lib/execute.h).
 */
#include <string.h>

#include "draw.h"
#include "execute.h"

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
int vfetch_gx_block_past_end(const struct gx_indexed *x, const struct vfetch_gx_run_params *p,
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
            vfetch_gx_block_past_end(x, p, vx, vsize, keep, m, clamped))
            return VFETCH_EGX_ARRAY_INDEX;
    }
    return VFETCH_OK;
}

/* The kept list of a block without skipped vertices. */
const uint8_t vfetch_gx_every[GX_BLOCK] = {
#define GX_E8(b) b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7
#define GX_E32(b) GX_E8(b), GX_E8(b + 8), GX_E8(b + 16), GX_E8(b + 24)
    GX_E32(0), GX_E32(32), GX_E32(64), GX_E32(96)
#undef GX_E32
#undef GX_E8
};

/* Every index of the draw, a block at a time: skipped vertices counted, out-of-range ones
   refused or counted. */
int vfetch_gx_check_indices(const struct gx_copies *rc, const struct vfetch_gx_run_params *p,
                            size_t vsize, struct vfetch_gx_result *r)
{
    uint8_t keep[GX_BLOCK];
    for (uint32_t v0 = 0; v0 < p->count; v0 += GX_BLOCK) {
        const uint32_t n = p->count - v0 < GX_BLOCK ? p->count - v0 : GX_BLOCK;
        if (rc->num_moves && n >= GX_ROWS_MIN) { /* the rows' columns, without the rows */
            uintptr_t addr[GX_ROW_MOVES][GX_BLOCK];
            uint32_t kept;
            if (vfetch_gx_rows_columns(rc, p, vsize, v0, n, &addr[0][0], GX_BLOCK, 1, r, &kept))
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

/* Convert n >= 1 records of the converter's input at src into out. vfetch_gx_run's checks
   already hold what vfetch_run would check: src holds n records of the staged (or vertex)
   size, which bounds every byte the converter reads, and out holds n output records. A stage
   is passed whole (src_size its size, past its n records): the record program then runs
   every whole group in place, its windows reading stage bytes that no lane uses, instead of
   copying the last groups first. Out of line (an exported function is, without link-time
   optimisation; the attribute keeps it so with it): inlined into vfetch_gx_run, which changes
   only its callers' stack depth, the same code ran much slower on some draws: stack slots of
   the hot loop aliased the output's addresses modulo 4 KiB (docs/decisions.md, "Tried and not
   kept"). */
__attribute__((noinline)) int vfetch_gx_convert(const struct vfetch_gx_plan *plan, const void *src,
                                                size_t src_size, uint32_t n, uint8_t *out)
{
    const struct vfetch_binding bind = { src, src_size };
    const struct vfetch_draw draw = { .streams = &bind, .count = n, .out = out };
    return vfetch_execute(plan->converter, &draw);
}

/* A draw too long to be checked while it is staged (or gathered): every index checked first
   (skipped vertices counted, out-of-range ones refused or counted), then the output's size for
   the vertices written. */
int vfetch_gx_check_whole(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                          const struct gx_copies *rc, struct vfetch_gx_result *r)
{
    const int err = vfetch_gx_check_indices(rc, p, plan->format.vertex_size, r);
    r->written = p->count - r->skipped;
    return err ? err : vfetch_gx_check_output(plan, p, r->written);
}
