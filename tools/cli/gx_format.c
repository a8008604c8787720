/*
 * What `vfetch explain gx` and `vfetch gx` share about GameCube/Wii CP vertex formats
 * (include/vfetch/gx.h, docs/gx.md): the names of attributes, locations, layouts and color
 * outputs, a format as text (attribute by attribute, or on one line), their --layout and
 * --color options, and a refusal of VCD/VAT words that names the field it is about.
 */
#include <string.h>

#include "commands.h"
#include "options.h"
#include "vfetch/gx.h"

const char *const gx_attr_names[VFETCH_GX_NUM_ATTRS] = {
    "position", "normal", "color0", "color1", "tex0", "tex1",
    "tex2",     "tex3",   "tex4",   "tex5",   "tex6", "tex7",
};
const char *const gx_location_names[VFETCH_GX_NUM_LOCATIONS] = {
    "position",    "normal",      "nbt1",        "nbt2",        "color0",      "color1",
    "tex0",        "tex1",        "tex2",        "tex3",        "tex4",        "tex5",
    "tex6",        "tex7",        "pos_matrix",  "tex0_matrix", "tex1_matrix", "tex2_matrix",
    "tex3_matrix", "tex4_matrix", "tex5_matrix", "tex6_matrix", "tex7_matrix",
};
const char *const gx_layout_names[5] = { "vec4", "packed", "dolphin", "isbe-compact",
                                         "isbe-full" };
const char *const gx_color_names[2] = { "float", "rgba8" };
#define GX_LAYOUTS (sizeof gx_layout_names / sizeof gx_layout_names[0])
#define GX_COLORS (sizeof gx_color_names / sizeof gx_color_names[0])

static const char *const gx_mode_names[4] = { "none", "direct", "index8", "index16" };

/* What one element of attribute id holds, e.g. "f32 x3 (XYZ)", "s16 x2 (ST), shift 8",
   "rgba8888 (RGBA)". */
static void gx_element_text(char *text, size_t size, unsigned id, const struct vfetch_gx_attr *at)
{
    static const char *const components[5] = { "u8", "s8", "u16", "s16", "f32" };
    static const char *const colors[6] = { "rgb565",   "rgb888",   "rgb888x",
                                           "rgba4444", "rgba6666", "rgba8888" };
    /* per kind (position, normal, color, texcoord): the smaller count's name, the larger's */
    static const char *const counts[4][2] = { { "XY", "XYZ" }, { "N", "NBT" }, { "RGB", "RGBA" },
                                              { "S", "ST" } };
    static const uint8_t smaller[4] = { 2, 3, 3, 1 };
    const unsigned kind = id == VFETCH_GX_POSITION ? 0
                          : id == VFETCH_GX_NORMAL ? 1
                          : id <= VFETCH_GX_COLOR1 ? 2
                                                   : 3;
    const char *count = counts[kind][at->count != smaller[kind]];
    if (kind == 2)
        snprintf(text, size, "%s (%s)", at->format < 6 ? colors[at->format] : "?", count);
    else if (at->format != VFETCH_GX_F32 && at->shift)
        snprintf(text, size, "%s x%u (%s), shift %u", at->format < 5 ? components[at->format] : "?",
                 at->count, count, at->shift);
    else
        snprintf(text, size, "%s x%u (%s)", at->format < 5 ? components[at->format] : "?",
                 at->count, count);
}

void gx_print_format(FILE *out, const struct vfetch_gx_format *f, const uint8_t *strides)
{
    unsigned at = 0;
    for (unsigned m = 0; m < 9; m++) { /* the position's, then texcoord 0..7's */
        if (m ? f->tex_matrix_index[m - 1] : f->pos_matrix_index) {
            fprintf(out, "  bytes %3u..%-3u %-12s direct   a matrix index (its low 6 bits)\n",
                    at, at, gx_location_names[VFETCH_GX_LOC_POS_MATRIX + m]);
            at++;
        }
    }
    for (unsigned id = 0; id < VFETCH_GX_NUM_ATTRS; id++) {
        const struct vfetch_gx_attr *a = &f->attr[id];
        char element[64];
        if (a->mode == VFETCH_GX_NONE)
            continue;
        gx_element_text(element, sizeof element, id, a);
        fprintf(out, "  bytes %3u..%-3u %-12s %-8s ", at, at + a->stream_size - 1,
                gx_attr_names[id], gx_mode_names[a->mode & 3]);
        if (a->mode == VFETCH_GX_DIRECT)
            fprintf(out, "%s\n", element);
        else
            fprintf(out, "%sinto array %u (stride %u bytes%s): %s, %u-byte elements\n",
                    /* NBT with NORMALINDEX3: an index of 1 or 2 bytes per vector */
                    a->stream_size == 3 * (a->mode - 1u) ? "3 indices " : "", id, strides[id],
                    strides[id] ? "" : ": every index reads element 0", element,
                    a->element_size);
        at += a->stream_size;
    }
    if (f->byte_dequant)
        fputs("  BYTEDEQUANT (VAT A bit 30): the shifts apply to u8/s8 too\n", out);
    if (f->diagnostics & VFETCH_GX_DIAG_UNUSED_FORMAT)
        fputs("  note: a component format 5..7 (unused in the documents) is read as f32\n", out);
    if (f->diagnostics & VFETCH_GX_DIAG_UNSIGNED_NORMAL)
        fputs("  note: an unsigned normal (n/a in the documents) is read as u8/2^7 or u16/2^15\n",
              out);
    fprintf(out, "vertex: %u bytes in the command stream\n", f->vertex_size);
}

void gx_format_summary(char *text, size_t size, const struct vfetch_gx_format *f)
{
    size_t len = 0;
    text[0] = '\0';
    for (unsigned m = 0; m < 9 && len < size; m++) /* the position's, then texcoord 0..7's */
        if (m ? f->tex_matrix_index[m - 1] : f->pos_matrix_index)
            len += (size_t)snprintf(text + len, size - len, "%s%s", len ? ", " : "",
                                    gx_location_names[VFETCH_GX_LOC_POS_MATRIX + m]);
    for (unsigned id = 0; id < VFETCH_GX_NUM_ATTRS && len < size; id++) {
        const struct vfetch_gx_attr *a = &f->attr[id];
        char element[64];
        if (a->mode == VFETCH_GX_NONE)
            continue;
        gx_element_text(element, sizeof element, id, a);
        const int direct = a->mode == VFETCH_GX_DIRECT;
        len += (size_t)snprintf(text + len, size - len, "%s%s %s%s%s", len ? ", " : "",
                                gx_attr_names[id], direct ? "" : gx_mode_names[a->mode & 3],
                                direct ? "" : " ", element);
    }
    if (!text[0])
        snprintf(text, size, "no attribute");
}

int gx_output_option(const struct args *a, enum vfetch_gx_layout *layout,
                     enum vfetch_gx_color_output *color)
{
    if (!strcmp(a->arg, "--layout")) {
        const int n = name_index(gx_layout_names, GX_LAYOUTS, a->val);
        if (n < 0)
            return usage_error(a->errs, a->cmd, "--layout %.40s: the layouts are vec4, packed, "
                               "dolphin, isbe-compact and isbe-full", a->val);
        *layout = (enum vfetch_gx_layout)n;
    } else {
        const int n = name_index(gx_color_names, GX_COLORS, a->val);
        if (n < 0)
            return usage_error(a->errs, a->cmd, "--color %.40s: the color outputs are float and "
                               "rgba8", a->val);
        *color = (enum vfetch_gx_color_output)n;
    }
    return 0;
}

int gx_refusal(FILE *errs, int err, const struct vfetch_gx_regs *r, const char *where)
{
    for (unsigned c = 0; c < 2 && err == VFETCH_EGX_RESERVED_COLOR; c++) {
        const unsigned mode = (r->vcd_lo >> (13 + 2 * c)) & 3;
        const unsigned format = (r->vat_a >> (14 + 4 * c)) & 7;
        if (mode != VFETCH_GX_NONE && format >= 6)
            return refusal(errs, err, "%s--vat-a 0x%08x (COL%uFMT %u, bits %u:%u, on color%u, "
                           "which --vcd-lo 0x%08x enables)", where, r->vat_a, c, format,
                           16 + 4 * c, 14 + 4 * c, c, r->vcd_lo);
    }
    return refusal(errs, err, "%s--vcd-lo 0x%08x --vcd-hi 0x%08x --vat-a 0x%08x --vat-b 0x%08x "
                   "--vat-c 0x%08x", where, r->vcd_lo, r->vcd_hi, r->vat_a, r->vat_b, r->vat_c);
}
