/*
 * A GX draw with indexed attributes through the gathered program (gx/gx_dsp.h), without a
 * stage: every kept vertex's move addresses computed into columns, checked as they are, then
 * converted by the program; a draw whose columns would be too large is checked whole first and
 * converted a chunk at a time from columns on the stack.
 */
#include <string.h>

#include "draw.h"
#include "stage.h"

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
 * A draw whose columns would pass GX_HEAP_COLUMN_BYTES: checked whole first
 * (vfetch_gx_check_indices, the same checks in the same order), then converted a chunk at a
 * time from columns on the stack, computed without checks (out-of-range indices clamped, skipped
 * vertices left out).
 */
static __attribute__((noinline)) int gx_run_gathered_chunks(const struct vfetch_gx_plan *plan,
                                                            const struct vfetch_gx_run_params *p,
                                                            const struct gx_copies *rc,
                                                            struct vfetch_gx_result *r)
{
    const size_t group = plan->gather->prog->group, moves = rc->num_moves;
    const size_t vsize = plan->format.vertex_size;
    const int err = vfetch_gx_check_whole(plan, p, rc, r);
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
            vfetch_gx_rows_columns(rc, p, vsize, v0, nb, cols + kept, col_stride, 0, r, &m);
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
static int gx_run_gathered_whole(const struct vfetch_gx_plan *plan,
                                 const struct vfetch_gx_run_params *p, const struct gx_copies *rc,
                                 struct vfetch_gx_result *r)
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
        err = vfetch_gx_rows_columns(rc, p, vsize, v0, n, cols + kept, col_stride, 1, r, &m);
        kept += m;
    }
    r->written = p->count - r->skipped;
    if (!err)
        err = vfetch_gx_check_output(plan, p, r->written);
    if (!err && kept)
        gx_gather_columns(plan, cols, col_stride, moves, kept, p->out);
    vfetch_stage_close(&cols_stage);
    return err;
}

int vfetch_gx_run_gathered(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                           const struct gx_copies *rc, struct vfetch_gx_result *r)
{
    const int err = gx_run_gathered_whole(plan, p, rc, r);
    return err != 1 ? err : gx_run_gathered_chunks(plan, p, rc, r);
}
