/* The GX format model (see fuzz_gx_model.h), from the CP register documentation. */
#include "fuzz_gx_model.h"

#include <string.h>

#include "fuzz_check.h"

/* Where each attribute's CNT bit and 3-bit FMT field live: VAT word (0 A, 1 B, 2 C) and bit
   numbers, copied from the register tables of gx-cp-vat.txt. */
static const struct {
    uint8_t word, cnt_bit, fmt_bit;
} model_vat[VFETCH_GX_NUM_ATTRS] = {
    { 0, 0, 1 },   /* POSCNT, POSFMT */
    { 0, 9, 10 },  /* NRMCNT, NRMFMT */
    { 0, 13, 14 }, /* COL0CNT, COL0FMT */
    { 0, 17, 18 }, /* COL1CNT, COL1FMT */
    { 0, 21, 22 }, /* TEX0 */
    { 1, 0, 1 },   /* TEX1 */
    { 1, 9, 10 },  /* TEX2 */
    { 1, 18, 19 }, /* TEX3 */
    { 1, 27, 28 }, /* TEX4 */
    { 2, 5, 6 },   /* TEX5 */
    { 2, 14, 15 }, /* TEX6 */
    { 2, 23, 24 }, /* TEX7 */
};

void fuzz_gx_model_parse(const struct vfetch_gx_regs *regs, struct fuzz_gx_model *m)
{
    memset(m, 0, sizeof *m);
    const uint32_t vat[3] = { regs->vat_a, regs->vat_b, regs->vat_c };
    const unsigned normal_index3 = regs->vat_a >> 31 & 1;
    /* VCD_LO bits 0..8: the position-matrix index and the eight texcoord-matrix indices. */
    for (unsigned b = 0; b < 9; b++)
        m->matrix_indices += regs->vcd_lo >> b & 1;
    m->matrix_bits = regs->vcd_lo & 0x1ff;
    uint32_t offset = m->matrix_indices;
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
        struct fuzz_gx_attr_model *at = &m->attr[a];
        at->mode = a < 4 ? regs->vcd_lo >> (9 + 2 * a) & 3 : regs->vcd_hi >> (2 * (a - 4)) & 3;
        if (!at->mode)
            continue;
        const unsigned cnt = vat[model_vat[a].word] >> model_vat[a].cnt_bit & 1;
        const unsigned fmt = vat[model_vat[a].word] >> model_vat[a].fmt_bit & 7;
        if (a == VFETCH_GX_COLOR0 || a == VFETCH_GX_COLOR1) {
            static const uint8_t color_bytes[6] = { 2, 3, 4, 2, 3, 4 };
            if (fmt > 5) {
                m->err = VFETCH_EGX_RESERVED_COLOR;
                return;
            }
            at->components = cnt ? 4 : 3;
            at->element_size = color_bytes[fmt];
        } else {
            static const uint8_t component_bytes[8] = { 1, 1, 2, 2, 4, 4, 4, 4 }; /* 5..7: f32 */
            at->components = a == VFETCH_GX_POSITION ? 2 + cnt
                             : a == VFETCH_GX_NORMAL ? (cnt ? 9 : 3)
                                                     : 1 + cnt;
            at->element_size = at->components * component_bytes[fmt];
        }
        at->offset = offset;
        if (at->mode == VFETCH_GX_DIRECT) {
            offset += at->element_size;
        } else {
            at->index_size = at->mode == VFETCH_GX_INDEX8 ? 1 : 2;
            at->pieces = a == VFETCH_GX_NORMAL && at->components == 9 && normal_index3 ? 3 : 1;
            offset += at->index_size * at->pieces;
        }
    }
    m->vertex_size = offset;
}

uint32_t fuzz_gx_model_record_size(const struct fuzz_gx_model *m, enum vfetch_gx_layout layout,
                                   enum vfetch_gx_color_output colors)
{
    /* gx.h: the ISBE layouts are the vec4 layout's locations as generic attributes: the full
       1 KiB image, or each location's slots (a vec4's four; the matrix indices one each, the
       last one too: docs/maxwell.md, no padding carried over) */
    if (layout == VFETCH_GX_LAYOUT_ISBE_FULL) /* (a format of no attribute has no output) */
        return fuzz_gx_model_record_size(m, VFETCH_GX_LAYOUT_VEC4, colors) ? 1024 : 0;
    const int compact = layout == VFETCH_GX_LAYOUT_ISBE_COMPACT;
    if (compact)
        layout = VFETCH_GX_LAYOUT_VEC4;
    uint32_t slots = 0;
    if (layout == VFETCH_GX_LAYOUT_DOLPHIN) {
        /* Dolphin: the position-matrix index one slot; each texcoord with a matrix index three
           floats, with or without its texcoord */
        slots += m->matrix_bits & 1;
        for (unsigned n = 0; n < 8; n++)
            if (m->matrix_bits >> (1 + n) & 1)
                slots += 3;
    }
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
        const struct fuzz_gx_attr_model *at = &m->attr[a];
        if (!at->mode)
            continue;
        if (layout == VFETCH_GX_LAYOUT_DOLPHIN && a >= VFETCH_GX_TEXCOORD0 &&
            (m->matrix_bits >> (1 + a - VFETCH_GX_TEXCOORD0) & 1))
            continue; /* counted above */
        const int color = a == VFETCH_GX_COLOR0 || a == VFETCH_GX_COLOR1;
        if (layout == VFETCH_GX_LAYOUT_VEC4)
            slots += a == VFETCH_GX_NORMAL ? 4 * (at->components / 3) : 4; /* NBT: 3 vec4 */
        else
            slots += color ? (colors == VFETCH_GX_COLOR_RGBA8 ? 1 : 4) : at->components;
    }
    /* One integer slot per matrix index; the vec4 layout pads the last vec4 (not the compact
       ISBE record). */
    if (layout != VFETCH_GX_LAYOUT_DOLPHIN)
        slots += layout == VFETCH_GX_LAYOUT_VEC4 && !compact ? (m->matrix_indices + 3) / 4 * 4
                                                              : m->matrix_indices;
    return slots * 4;
}

void fuzz_gx_require_format(const struct fuzz_gx_model *m, const struct vfetch_gx_format *f)
{
    FUZZ_REQUIRE(f->vertex_size == m->vertex_size, "vertex size %u, model %u", f->vertex_size,
                 m->vertex_size);
    unsigned matrix = f->pos_matrix_index;
    for (unsigned n = 0; n < 8; n++)
        matrix += f->tex_matrix_index[n];
    FUZZ_REQUIRE(matrix == m->matrix_indices, "matrix indices %u, model %u", matrix,
                 m->matrix_indices);
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
        const struct fuzz_gx_attr_model *at = &m->attr[a];
        FUZZ_REQUIRE(f->attr[a].mode == at->mode, "attribute %u mode", a);
        if (!at->mode)
            continue;
        FUZZ_REQUIRE(f->attr[a].count == at->components && f->attr[a].element_size == at->element_size,
                     "attribute %u: %u components of %u bytes, model %u of %u", a,
                     f->attr[a].count, f->attr[a].element_size, at->components, at->element_size);
        const unsigned stream = at->mode == VFETCH_GX_DIRECT ? at->element_size : at->index_size * at->pieces;
        FUZZ_REQUIRE(f->attr[a].stream_size == stream, "attribute %u stream size %u, model %u", a,
                     f->attr[a].stream_size, stream);
    }
}
