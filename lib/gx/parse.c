/*
 * The GameCube/Wii front-end, part 1: VCD/VAT parsing and the vertex size. The bit layout and
 * the rules are docs/gx.md's behaviour table (a field spans up to the next listed bit).
 */
#include <string.h>

#include "vfetch/gx.h"

static unsigned gx_bits(uint32_t word, unsigned lo, unsigned width)
{
    return (word >> lo) & ((1u << width) - 1);
}

/* VAT layout of one attribute's CNT, FMT and SHFT fields: word (0 A, 1 B, 2 C) and lowest
   bit of each; shift_word 3 = no shift field. TEX4 keeps its shift in VAT C. */
struct gx_vat_field {
    uint8_t cnt_word, cnt_bit, fmt_bit, shift_word, shift_bit;
};

static const struct gx_vat_field gx_vat_fields[VFETCH_GX_NUM_ATTRS] = {
    [VFETCH_GX_POSITION] = { 0, 0, 1, 0, 4 },
    [VFETCH_GX_NORMAL] = { 0, 9, 10, 3, 0 },
    [VFETCH_GX_COLOR0] = { 0, 13, 14, 3, 0 },
    [VFETCH_GX_COLOR1] = { 0, 17, 18, 3, 0 },
    [VFETCH_GX_TEXCOORD0 + 0] = { 0, 21, 22, 0, 25 },
    [VFETCH_GX_TEXCOORD0 + 1] = { 1, 0, 1, 1, 4 },
    [VFETCH_GX_TEXCOORD0 + 2] = { 1, 9, 10, 1, 13 },
    [VFETCH_GX_TEXCOORD0 + 3] = { 1, 18, 19, 1, 22 },
    [VFETCH_GX_TEXCOORD0 + 4] = { 1, 27, 28, 2, 0 },
    [VFETCH_GX_TEXCOORD0 + 5] = { 2, 5, 6, 2, 9 },
    [VFETCH_GX_TEXCOORD0 + 6] = { 2, 14, 15, 2, 18 },
    [VFETCH_GX_TEXCOORD0 + 7] = { 2, 23, 24, 2, 27 },
};

static const uint8_t gx_component_size[5] = { 1, 1, 2, 2, 4 };
static const uint8_t gx_color_size[6] = { 2, 3, 4, 2, 3, 4 };

/* VCD mode of attribute a: position bits 9-10, normal 11-12, colors 13-16, texcoords in HI. */
static unsigned gx_mode(const struct vfetch_gx_regs *d, unsigned a)
{
    if (a < VFETCH_GX_TEXCOORD0)
        return gx_bits(d->vcd_lo, 9 + 2 * a, 2);
    return gx_bits(d->vcd_hi, 2 * (a - VFETCH_GX_TEXCOORD0), 2);
}

static int gx_parse_attr(const struct vfetch_gx_regs *d, unsigned a, struct vfetch_gx_format *f)
{
    const uint32_t vat[3] = { d->vat_a, d->vat_b, d->vat_c };
    const struct gx_vat_field *field = &gx_vat_fields[a];
    struct vfetch_gx_attr *at = &f->attr[a];
    at->mode = (uint8_t)gx_mode(d, a);
    if (at->mode == VFETCH_GX_NONE)
        return VFETCH_OK;
    const unsigned cnt = gx_bits(vat[field->cnt_word], field->cnt_bit, 1);
    unsigned fmt = gx_bits(vat[field->cnt_word], field->fmt_bit, 3);

    if (a == VFETCH_GX_COLOR0 || a == VFETCH_GX_COLOR1) {
        if (fmt > VFETCH_GX_RGBA8888)
            return VFETCH_EGX_RESERVED_COLOR;
        at->count = cnt ? 4 : 3; /* the count does not change the size: the format does */
        at->format = (uint8_t)fmt;
        at->element_size = gx_color_size[fmt];
    } else {
        if (fmt > VFETCH_GX_F32) {
            fmt = VFETCH_GX_F32;
            f->diagnostics |= VFETCH_GX_DIAG_UNUSED_FORMAT;
        }
        at->format = (uint8_t)fmt;
        if (a == VFETCH_GX_POSITION)
            at->count = cnt ? 3 : 2;
        else if (a == VFETCH_GX_NORMAL)
            at->count = cnt ? 9 : 3;
        else
            at->count = cnt ? 2 : 1;
        at->element_size = (uint8_t)(at->count * gx_component_size[fmt]);
        if (a == VFETCH_GX_NORMAL) {
            static const uint8_t normal_shift[5] = { 7, 6, 15, 14, 0 };
            at->shift = normal_shift[fmt];
            if (fmt == VFETCH_GX_U8 || fmt == VFETCH_GX_U16)
                f->diagnostics |= VFETCH_GX_DIAG_UNSIGNED_NORMAL;
        } else if (fmt != VFETCH_GX_F32 && (fmt >= VFETCH_GX_U16 || f->byte_dequant)) {
            at->shift = (uint8_t)gx_bits(vat[field->shift_word], field->shift_bit, 5);
        }
    }

    if (at->mode == VFETCH_GX_DIRECT) {
        at->stream_size = at->element_size;
    } else {
        const unsigned index_size = at->mode == VFETCH_GX_INDEX8 ? 1 : 2;
        const unsigned indices = a == VFETCH_GX_NORMAL && at->count == 9 && f->normal_index3 ? 3 : 1;
        at->stream_size = (uint8_t)(index_size * indices);
    }
    return VFETCH_OK;
}

int vfetch_gx_parse(const struct vfetch_gx_regs *desc, struct vfetch_gx_format *out)
{
    if (!desc || !out)
        return VFETCH_EINVAL;
    struct vfetch_gx_format f;
    memset(&f, 0, sizeof f);
    f.byte_dequant = (uint8_t)gx_bits(desc->vat_a, 30, 1);
    f.normal_index3 = (uint8_t)gx_bits(desc->vat_a, 31, 1);
    f.pos_matrix_index = (uint8_t)gx_bits(desc->vcd_lo, 0, 1);
    f.vertex_size = f.pos_matrix_index;
    for (unsigned n = 0; n < 8; n++) {
        f.tex_matrix_index[n] = (uint8_t)gx_bits(desc->vcd_lo, 1 + n, 1);
        f.vertex_size += f.tex_matrix_index[n];
    }
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
        const int err = gx_parse_attr(desc, a, &f);
        if (err)
            return err;
        f.vertex_size += f.attr[a].stream_size;
    }
    *out = f;
    return VFETCH_OK;
}

int vfetch_gx_vertex_size(const struct vfetch_gx_regs *desc, uint32_t *size)
{
    if (!size)
        return VFETCH_EINVAL;
    struct vfetch_gx_format f;
    const int err = vfetch_gx_parse(desc, &f);
    if (err)
        return err;
    *size = f.vertex_size;
    return VFETCH_OK;
}
