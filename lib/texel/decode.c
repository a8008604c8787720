/*
 * vfetch_texel_decode: check every size once, then walk the region block row by block row.
 * Whole blocks go to the plan's kernel in one run per block row, straight into the caller's
 * buffer; blocks the region cuts (its edges) decode into a stack block and are copied from
 * there, so that no kernel ever reads or writes past what the region covers.
 */
#include <string.h>

#include "texel/texel_internal.h"

/* a * b + c, or 0 with *overflow set. */
static size_t mul_add(size_t a, size_t b, size_t c, int *overflow)
{
    if (b && a > (SIZE_MAX - c) / b) {
        *overflow = 1;
        return 0;
    }
    return a * b + c;
}

struct walk {
    const struct vfetch_texel_plan *plan;
    vfetch_texel_fn *kernel;
    size_t texel_bytes; /* output */
    const uint8_t *src;
    size_t src_pitch, src_slice;
    uint8_t *dst;
    size_t dst_pitch, dst_slice;
    struct vfetch_texel_region r;
};

/* Texel coordinates and block numbers are 64-bit in the walk: a region's far edge may lie at
   2^32 - 1, and one block further (x0 + block_w, x1 + bw - 1) does not fit 32 bits. Every byte
   offset formed from them was bounded in size_t by vfetch_texel_decode's checks. */

/* Block (bx, by) of slice z into the stack, then its texels inside the region out. */
static void edge_block(const struct walk *w, const uint8_t *src_row, uint8_t *dst_slice,
                       uint64_t bx, uint64_t by)
{
    const struct vfetch_texel_format *f = w->plan->format;
    uint8_t block[16 * 16];
    const size_t block_pitch = (size_t)f->block_w * w->texel_bytes;
    w->kernel(w->plan, src_row + (size_t)bx * f->block_bytes, 1, block, block_pitch);
    const uint64_t x0 = bx * f->block_w, y0 = by * f->block_h;
    const uint64_t rx1 = (uint64_t)w->r.x + w->r.width, ry1 = (uint64_t)w->r.y + w->r.height;
    const uint64_t tx0 = x0 > w->r.x ? x0 : w->r.x;
    const uint64_t tx1 = x0 + f->block_w < rx1 ? x0 + f->block_w : rx1;
    const uint64_t ty0 = y0 > w->r.y ? y0 : w->r.y;
    const uint64_t ty1 = y0 + f->block_h < ry1 ? y0 + f->block_h : ry1;
    for (uint64_t y = ty0; y < ty1; y++)
        memcpy(dst_slice + (size_t)(y - w->r.y) * w->dst_pitch +
                   (size_t)(tx0 - w->r.x) * w->texel_bytes,
               block + (size_t)(y - y0) * block_pitch + (size_t)(tx0 - x0) * w->texel_bytes,
               (size_t)(tx1 - tx0) * w->texel_bytes);
}

static void walk_slice(const struct walk *w, const uint8_t *src, uint8_t *dst)
{
    const struct vfetch_texel_format *f = w->plan->format;
    const uint64_t bw = f->block_w, bh = f->block_h;
    const uint64_t x1 = (uint64_t)w->r.x + w->r.width, y1 = (uint64_t)w->r.y + w->r.height;
    const uint64_t bx0 = w->r.x / bw, bx1 = (x1 + bw - 1) / bw;
    const uint64_t full0 = (w->r.x + bw - 1) / bw, full1 = x1 / bw; /* whole columns */
    /* One-row blocks, whole rows that follow each other without gaps in both buffers: the
       region is one run (a call per row costs a few ns, a 256-texel row about a hundred). */
    if (bh == 1 && w->r.x == 0 && w->r.width % bw == 0 &&
        w->src_pitch == (size_t)(w->r.width / bw) * f->block_bytes &&
        w->dst_pitch == (size_t)w->r.width * w->texel_bytes) {
        w->kernel(w->plan, src + (size_t)w->r.y * w->src_pitch,
                  (size_t)(w->r.width / bw) * w->r.height, dst, w->dst_pitch);
        return;
    }
    for (uint64_t by = w->r.y / bh; by < (y1 + bh - 1) / bh; by++) {
        const uint8_t *src_row = src + (size_t)by * w->src_pitch;
        const int rows_whole = by * bh >= w->r.y && by * bh + bh <= y1;
        if (!rows_whole || full0 >= full1) {
            for (uint64_t bx = bx0; bx < bx1; bx++)
                edge_block(w, src_row, dst, bx, by);
            continue;
        }
        w->kernel(w->plan, src_row + (size_t)full0 * f->block_bytes, (size_t)(full1 - full0),
                  dst + (size_t)(by * bh - w->r.y) * w->dst_pitch +
                      (size_t)(full0 * bw - w->r.x) * w->texel_bytes,
                  w->dst_pitch);
        for (uint64_t bx = bx0; bx < full0; bx++)
            edge_block(w, src_row, dst, bx, by);
        for (uint64_t bx = full1; bx < bx1; bx++)
            edge_block(w, src_row, dst, bx, by);
    }
}

int vfetch_texel_decode(const vfetch_texel_plan *plan, const struct vfetch_texel_surface *s,
                        const struct vfetch_texel_region *region,
                        const struct vfetch_texel_target *t)
{
    if (!plan || !s || !t || !s->data || !t->data)
        return VFETCH_EINVAL;
    if ((unsigned)t->format > VFETCH_TEXEL_RGBA8 ||
        (unsigned)s->pitch_unit > VFETCH_TEXEL_PITCH_BLOCKS)
        return VFETCH_EINVAL;
    const struct vfetch_texel_format *f = plan->format;

    /* The surface's layout. */
    if (!s->width || !s->height || !s->depth)
        return VFETCH_ETEXEL_SURFACE_LAYOUT;
    if ((plan->coord_type == VFETCH_TEXEL_2D && s->depth != 1) ||
        (plan->coord_type == VFETCH_TEXEL_CUBE && s->depth != 6))
        return VFETCH_ETEXEL_SURFACE_LAYOUT;
    int overflow = 0;
    /* (in 64 bits: width + block_w - 1 may not fit 32; the quotient does) */
    const size_t blocks_x = (size_t)(((uint64_t)s->width + f->block_w - 1) / f->block_w);
    const size_t blocks_y = (size_t)(((uint64_t)s->height + f->block_h - 1) / f->block_h);
    const size_t row_bytes = mul_add(blocks_x, f->block_bytes, 0, &overflow);
    size_t pitch = row_bytes;
    if (s->pitch)
        pitch = s->pitch_unit == VFETCH_TEXEL_PITCH_BLOCKS
                    ? mul_add(s->pitch, f->block_bytes, 0, &overflow)
                    : s->pitch;
    if (overflow)
        return VFETCH_EOVERFLOW;
    if (pitch < row_bytes)
        return VFETCH_ETEXEL_SURFACE_LAYOUT;
    const size_t slice_min = mul_add(pitch, blocks_y - 1, row_bytes, &overflow);
    const size_t slice = s->slice_pitch ? s->slice_pitch : mul_add(pitch, blocks_y, 0, &overflow);
    if (overflow)
        return VFETCH_EOVERFLOW;
    if (slice < slice_min)
        return VFETCH_ETEXEL_SURFACE_LAYOUT;

    /* The region. */
    struct vfetch_texel_region r = { 0, 0, 0, s->width, s->height, s->depth };
    if (region)
        r = *region;
    if (r.x > s->width || r.width > s->width - r.x || r.y > s->height ||
        r.height > s->height - r.y || r.z > s->depth || r.depth > s->depth - r.z)
        return VFETCH_ETEXEL_REGION;
    /* An empty region reads no block and writes no texel, but is checked like any other for
       what does not depend on a texel existing: the output format and the target's row. */
    const int empty = !r.width || !r.height || !r.depth;

    /* The last byte the region reads. */
    if (!empty) {
        const size_t last_bx = (r.x + (size_t)r.width - 1) / f->block_w;
        const size_t last_by = (r.y + (size_t)r.height - 1) / f->block_h;
        size_t end = mul_add(last_bx + 1, f->block_bytes, 0, &overflow);
        end = mul_add(last_by, pitch, end, &overflow);
        end = mul_add(r.z + (size_t)r.depth - 1, slice, end, &overflow);
        if (overflow)
            return VFETCH_EOVERFLOW;
        if (end > s->size)
            return VFETCH_ETEXEL_SHORT_SURFACE;
    }

    /* The target. */
    if (t->format == VFETCH_TEXEL_RGBA8 && !plan->rgba8_exact)
        return VFETCH_ETEXEL_RGBA8_INEXACT;
    const size_t texel_bytes = t->format == VFETCH_TEXEL_RGBA8 ? 4 : 16;
    const size_t out_row = mul_add(r.width, texel_bytes, 0, &overflow);
    const size_t out_pitch = t->pitch ? t->pitch : out_row;
    if (empty)
        return overflow ? VFETCH_EOVERFLOW : out_pitch < out_row ? VFETCH_ESHORT_OUTPUT : VFETCH_OK;
    const size_t out_slice_min = mul_add(out_pitch, r.height - 1, out_row, &overflow);
    const size_t out_slice = t->slice_pitch ? t->slice_pitch
                                            : mul_add(out_pitch, r.height, 0, &overflow);
    const size_t out_end = mul_add(out_slice, r.depth - 1, out_slice_min, &overflow);
    if (overflow)
        return VFETCH_EOVERFLOW;
    if (out_pitch < out_row || out_slice < out_slice_min || out_end > t->size)
        return VFETCH_ESHORT_OUTPUT;

    struct walk w = {
        plan, t->format == VFETCH_TEXEL_RGBA8 ? plan->to_u8 : plan->to_f32, texel_bytes,
        s->data, pitch, slice, t->data, out_pitch, out_slice, r,
    };
    for (uint32_t z = 0; z < r.depth; z++)
        walk_slice(&w, w.src + (size_t)(r.z + z) * slice, w.dst + (size_t)z * out_slice);
    return VFETCH_OK;
}
