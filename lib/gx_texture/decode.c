/*
 * vfetch_gx_texture_decode: check every size once, then walk the region block row by block row
 * (lib/block_walk.c). RGBA8 goes straight from the plan's kernel into the caller's buffer;
 * RGBA32F decodes a run of blocks to RGBA8 on the stack and widens it from there.
 */
#include <stdlib.h>
#include <string.h>

#include "block_walk.h"
#include "gx_texture/gx_texture_internal.h"

struct gx_row {
    const struct vfetch_gx_texture_plan *plan;
    const uint8_t *palette;
};

static void row_rgba8(const void *ctx, const uint8_t *src, size_t nblocks, uint8_t *dst,
                      size_t dst_pitch)
{
    const struct gx_row *g = ctx;
    g->plan->decode(src, nblocks, 1, g->palette, dst, dst_pitch);
}

/* Texels of RGBA8 staged at a time for RGBA32F: 8 KiB of stack. */
#define STAGE_TEXELS 2048

static void row_rgba32f(const void *ctx, const uint8_t *src, size_t nblocks, uint8_t *dst,
                        size_t dst_pitch)
{
    const struct gx_row *g = ctx;
    const struct vfetch_gx_texture_format_info *f = g->plan->format;
    const size_t run = STAGE_TEXELS / ((size_t)f->block_w * f->block_h);
    uint8_t stage[STAGE_TEXELS * 4];
    for (size_t done = 0; done < nblocks; done += run) {
        const size_t n = nblocks - done < run ? nblocks - done : run;
        const size_t stage_pitch = n * f->block_w * 4;
        g->plan->decode(src + done * f->block_bytes, n, 1, g->palette, stage, stage_pitch);
        for (unsigned r = 0; r < f->block_h; r++)
            g->plan->to_f32(stage + r * stage_pitch, stage_pitch,
                            dst + r * dst_pitch + done * f->block_w * 16);
    }
}

/* Any region, either output: the region's checks, then the walk. */
static __attribute__((noinline)) int decode_region(const vfetch_gx_texture_plan *plan,
                                                   const struct vfetch_gx_texture_source *source,
                                                   const uint8_t *palette,
                                                   const struct vfetch_texel_region *region,
                                                   const struct vfetch_texel_target *t)
{
    const struct vfetch_gx_texture_format_info *f = plan->format;
    const size_t src_row = (size_t)plan->blocks_x * f->block_bytes;
    struct vfetch_texel_region r = { 0, 0, 0, plan->width, plan->height, 1 };
    if (region)
        r = *region;
    if (r.x > plan->width || r.width > plan->width - r.x || r.y > plan->height ||
        r.height > plan->height - r.y || r.z != 0 || r.depth > 1)
        return VFETCH_ETEXEL_REGION;
    const int empty = !r.width || !r.height || !r.depth;

    /* The last byte the region reads (at most 128 x 256 blocks of 64 bytes: no overflow). */
    if (!empty) {
        const size_t last_bx = (r.x + (size_t)r.width - 1) >> plan->shift_w;
        const size_t last_by = (r.y + (size_t)r.height - 1) >> plan->shift_h;
        const size_t end = (last_by * plan->blocks_x + last_bx + 1) * f->block_bytes;
        if (end > source->size)
            return VFETCH_ETEXEL_SHORT_SURFACE;
        if (source->palette_size < plan->palette_bytes)
            return VFETCH_EGX_SHORT_PALETTE;
    }

    int overflow = 0;
    const size_t texel_bytes = t->format == VFETCH_TEXEL_RGBA8 ? 4 : 16;
    const size_t out_row = (size_t)r.width * texel_bytes;
    const size_t out_pitch = t->pitch ? t->pitch : out_row;
    if (empty)
        return out_pitch < out_row ? VFETCH_ESHORT_OUTPUT : VFETCH_OK;
    const size_t out_end = vfetch_mul_add(out_pitch, r.height - 1, out_row, &overflow);
    if (overflow)
        return VFETCH_EOVERFLOW;
    if (out_pitch < out_row || out_end > t->size)
        return VFETCH_ESHORT_OUTPUT;

    const struct gx_row row = { plan, palette };
    const struct vfetch_block_walk w = {
        t->format == VFETCH_TEXEL_RGBA8 ? row_rgba8 : row_rgba32f, &row, f->block_w, f->block_h,
        f->block_bytes, texel_bytes, source->data, src_row,
        t->data, out_pitch, r.x, r.y, r.width, r.height,
    };
    vfetch_block_walk(&w);
    return VFETCH_OK;
}

/* A large C14X2 texture: its 16384 entries converted once (heap scratch; without it, the
   per-texel kernel). Out of line: the common path keeps no frame for it. */
static __attribute__((noinline)) void decode_c14x2_table(const vfetch_gx_texture_plan *plan,
                                                         const uint8_t *src,
                                                         const uint8_t *palette, uint8_t *dst,
                                                         size_t pitch)
{
    uint32_t *table = malloc(16384 * sizeof *table);
    if (!table) {
        plan->decode(src, plan->blocks_x, plan->blocks_y, palette, dst, pitch);
        return;
    }
    plan->entries((unsigned)plan->tlut, palette, 16384, table);
    plan->c14x2_table(src, plan->blocks_x, plan->blocks_y, (const uint8_t *)table, dst, pitch);
    free(table);
}

int vfetch_gx_texture_decode(const vfetch_gx_texture_plan *plan,
                             const struct vfetch_gx_texture_source *source,
                             const struct vfetch_texel_region *region,
                             const struct vfetch_texel_target *t)
{
    if (!plan || !source || !t || !source->data || !t->data)
        return VFETCH_EINVAL;
    if ((unsigned)t->format > VFETCH_TEXEL_RGBA8)
        return VFETCH_EINVAL;
    if (plan->palette_bytes && !source->palette)
        return VFETCH_EINVAL;
    const uint8_t *palette = plan->palette_bytes ? source->palette : NULL;
    if (region || !plan->whole_blocks || t->format != VFETCH_TEXEL_RGBA8)
        return decode_region(plan, source, palette, region, t);

    /* The whole texture, in whole blocks, to RGBA8: what an emulator's texture cache asks for
       most. The same checks in the same order as decode_region's, from sizes the plan holds,
       then one kernel call for all of it, without the region arithmetic or the walk (a small
       texture's decode is mostly these). */
    if (source->size < plan->source_bytes)
        return VFETCH_ETEXEL_SHORT_SURFACE;
    if (source->palette_size < plan->palette_bytes)
        return VFETCH_EGX_SHORT_PALETTE;
    const size_t row = (size_t)plan->width * 4, pitch = t->pitch ? t->pitch : row;
    int overflow = 0;
    const size_t end = vfetch_mul_add(pitch, (size_t)plan->height - 1, row, &overflow);
    if (overflow)
        return VFETCH_EOVERFLOW;
    if (pitch < row || end > t->size)
        return VFETCH_ESHORT_OUTPUT;
    if (plan->use_c14x2_table)
        decode_c14x2_table(plan, source->data, palette, t->data, pitch);
    else
        plan->decode(source->data, plan->blocks_x, plan->blocks_y, palette, t->data, pitch);
    return VFETCH_OK;
}
