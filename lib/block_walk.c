/* vfetch_block_walk: see block_walk.h. */
#include <string.h>

#include "block_walk.h"

/* Block (bx, by) into the stack, then its texels inside the region out. */
static void edge_block(const struct vfetch_block_walk *w, const uint8_t *src_row, uint64_t bx,
                       uint64_t by)
{
    uint8_t block[VFETCH_BLOCK_WALK_MAX_BYTES];
    const size_t block_pitch = (size_t)w->block_w * w->texel_bytes;
    w->row(w->ctx, src_row + (size_t)bx * w->block_bytes, 1, block, block_pitch);
    const uint64_t x0 = bx * w->block_w, y0 = by * w->block_h;
    const uint64_t rx1 = w->x + w->width, ry1 = w->y + w->height;
    const uint64_t tx0 = x0 > w->x ? x0 : w->x;
    const uint64_t tx1 = x0 + w->block_w < rx1 ? x0 + w->block_w : rx1;
    const uint64_t ty0 = y0 > w->y ? y0 : w->y;
    const uint64_t ty1 = y0 + w->block_h < ry1 ? y0 + w->block_h : ry1;
    for (uint64_t y = ty0; y < ty1; y++)
        memcpy(w->dst + (size_t)(y - w->y) * w->dst_pitch + (size_t)(tx0 - w->x) * w->texel_bytes,
               block + (size_t)(y - y0) * block_pitch + (size_t)(tx0 - x0) * w->texel_bytes,
               (size_t)(tx1 - tx0) * w->texel_bytes);
}

void vfetch_block_walk(const struct vfetch_block_walk *w)
{
    /* block sizes are powers of two: shifts, not 64-bit divisions (tens of cycles each, a
       good part of a small texture's decode) */
    const uint64_t bw = w->block_w, bh = w->block_h;
    const unsigned sw = (unsigned)__builtin_ctz(w->block_w), sh = (unsigned)__builtin_ctz(w->block_h);
    const uint64_t x1 = w->x + w->width, y1 = w->y + w->height;
    const uint64_t bx0 = w->x >> sw, bx1 = (x1 + bw - 1) >> sw;
    const uint64_t full0 = (w->x + bw - 1) >> sw, full1 = x1 >> sw; /* whole columns */
    /* One-row blocks, whole rows that follow each other without gaps in both buffers: the
       region is one run (a call per row costs a few ns, a 256-texel row about a hundred). */
    if (bh == 1 && w->x == 0 && !(w->width & (bw - 1)) &&
        w->src_pitch == (size_t)(w->width >> sw) * w->block_bytes &&
        w->dst_pitch == (size_t)w->width * w->texel_bytes) {
        w->row(w->ctx, w->src + (size_t)w->y * w->src_pitch, (size_t)(w->width >> sw) * w->height,
               w->dst, w->dst_pitch);
        return;
    }
    for (uint64_t by = w->y >> sh; by < (y1 + bh - 1) >> sh; by++) {
        const uint8_t *src_row = w->src + (size_t)by * w->src_pitch;
        const int rows_whole = by * bh >= w->y && by * bh + bh <= y1;
        if (!rows_whole || full0 >= full1) {
            for (uint64_t bx = bx0; bx < bx1; bx++)
                edge_block(w, src_row, bx, by);
            continue;
        }
        w->row(w->ctx, src_row + (size_t)full0 * w->block_bytes, (size_t)(full1 - full0),
               w->dst + (size_t)(by * bh - w->y) * w->dst_pitch +
                   (size_t)(full0 * bw - w->x) * w->texel_bytes,
               w->dst_pitch);
        for (uint64_t bx = bx0; bx < full0; bx++)
            edge_block(w, src_row, bx, by);
        for (uint64_t bx = full1; bx < bx1; bx++)
            edge_block(w, src_row, bx, by);
    }
}
