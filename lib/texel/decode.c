/*
 * vfetch_texel_decode: check every size once, then walk the region block row by block row
 * (lib/block_walk.c), slice by slice.
 */
#include <string.h>

#include "block_walk.h"
#include "texel/texel_internal.h"

/* The texel kernel of a walk and its plan: the block walk's row function. */
struct texel_row {
    const struct vfetch_texel_plan *plan;
    vfetch_texel_fn *kernel;
};

static void texel_row(const void *ctx, const uint8_t *src, size_t nblocks, uint8_t *dst,
                      size_t dst_pitch)
{
    const struct texel_row *t = ctx;
    t->kernel(t->plan, src, nblocks, dst, dst_pitch);
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
    const size_t row_bytes = vfetch_mul_add(blocks_x, f->block_bytes, 0, &overflow);
    size_t pitch = row_bytes;
    if (s->pitch)
        pitch = s->pitch_unit == VFETCH_TEXEL_PITCH_BLOCKS
                    ? vfetch_mul_add(s->pitch, f->block_bytes, 0, &overflow)
                    : s->pitch;
    if (overflow)
        return VFETCH_EOVERFLOW;
    if (pitch < row_bytes)
        return VFETCH_ETEXEL_SURFACE_LAYOUT;
    const size_t slice_min = vfetch_mul_add(pitch, blocks_y - 1, row_bytes, &overflow);
    const size_t slice = s->slice_pitch ? s->slice_pitch : vfetch_mul_add(pitch, blocks_y, 0, &overflow);
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
        size_t end = vfetch_mul_add(last_bx + 1, f->block_bytes, 0, &overflow);
        end = vfetch_mul_add(last_by, pitch, end, &overflow);
        end = vfetch_mul_add(r.z + (size_t)r.depth - 1, slice, end, &overflow);
        if (overflow)
            return VFETCH_EOVERFLOW;
        if (end > s->size)
            return VFETCH_ETEXEL_SHORT_SURFACE;
    }

    /* The target. */
    if (t->format == VFETCH_TEXEL_RGBA8 && !plan->rgba8_exact)
        return VFETCH_ETEXEL_RGBA8_INEXACT;
    const size_t texel_bytes = t->format == VFETCH_TEXEL_RGBA8 ? 4 : 16;
    const size_t out_row = vfetch_mul_add(r.width, texel_bytes, 0, &overflow);
    const size_t out_pitch = t->pitch ? t->pitch : out_row;
    if (empty)
        return overflow ? VFETCH_EOVERFLOW : out_pitch < out_row ? VFETCH_ESHORT_OUTPUT : VFETCH_OK;
    const size_t out_slice_min = vfetch_mul_add(out_pitch, r.height - 1, out_row, &overflow);
    const size_t out_slice = t->slice_pitch ? t->slice_pitch
                                            : vfetch_mul_add(out_pitch, r.height, 0, &overflow);
    const size_t out_end = vfetch_mul_add(out_slice, r.depth - 1, out_slice_min, &overflow);
    if (overflow)
        return VFETCH_EOVERFLOW;
    if (out_pitch < out_row || out_slice < out_slice_min || out_end > t->size)
        return VFETCH_ESHORT_OUTPUT;

    const struct texel_row row = { plan, t->format == VFETCH_TEXEL_RGBA8 ? plan->to_u8 : plan->to_f32 };
    struct vfetch_block_walk w = {
        texel_row, &row, f->block_w, f->block_h, f->block_bytes, texel_bytes, NULL, pitch,
        NULL, out_pitch, r.x, r.y, r.width, r.height,
    };
    for (uint32_t z = 0; z < r.depth; z++) {
        w.src = (const uint8_t *)s->data + (size_t)(r.z + z) * slice;
        w.dst = (uint8_t *)t->data + (size_t)z * out_slice;
        vfetch_block_walk(&w);
    }
    return VFETCH_OK;
}
