/*
 * `vfetch explain gx`: GameCube/Wii VCD/VAT words -> the vertex format they describe (each
 * attribute, the vertex size), the output declaration, the plan and its generated code
 * (include/vfetch/gx.h, docs/gx.md).
 */
#include <stdint.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "vfetch/gx.h"

/* The register words' ids in struct vfetch_gx_regs's order, so that id - GX_VCD_LO is the
   word's index. */
enum {
    GX_VCD_LO = FIRST_OPTION_ID,
    GX_VCD_HI,
    GX_VAT_A,
    GX_VAT_B,
    GX_VAT_C,
    GX_ARRAY_STRIDE,
    GX_LAYOUT,
    GX_COLOR,
    GX_PER_OP,
    GX_ASM,
};

static const struct option gx_explain_options[] = {
    { "vcd-lo", required_argument, NULL, GX_VCD_LO },
    { "vcd-hi", required_argument, NULL, GX_VCD_HI },
    { "vat-a", required_argument, NULL, GX_VAT_A },
    { "vat-b", required_argument, NULL, GX_VAT_B },
    { "vat-c", required_argument, NULL, GX_VAT_C },
    { "array-stride", required_argument, NULL, GX_ARRAY_STRIDE },
    { "layout", required_argument, NULL, GX_LAYOUT },
    { "color", required_argument, NULL, GX_COLOR },
    { "per-op", no_argument, NULL, GX_PER_OP },
    { "asm", no_argument, NULL, GX_ASM },
    OPTIONS_END
};

static const char *const decl_type_names[4] = { "float32", "uint32", "unorm8x4", "sint32" };

/* --array-stride ATTR=N[,ATTR=N..]: CP ARRAY_STRIDE of indexed attributes' arrays (ATTR by
   name or number 0..11, N 0..255 as the register's 8 bits), one or a comma-separated list, as
   the other lists are. 0, or 1 after a usage error (naming the item at fault). */
static int gx_array_stride(const struct args *a, uint8_t *strides)
{
    for (const char *val = a->val;;) {
        const char *at = val; /* the item as given, for the messages */
        const int len = (int)strcspn(at, ","), shown = len < 40 ? len : 40;
        char item[32];
        const int last = list_item(&val, ',', item, sizeof item);
        char *eq = last < 0 ? NULL : strchr(item, '=');
        unsigned long long n, stride;
        int id = -1;
        if (eq) {
            *eq = '\0';
            id = parse_number(item, VFETCH_GX_NUM_ATTRS - 1, &n)
                     ? (int)n
                     : name_index(gx_attr_names, VFETCH_GX_NUM_ATTRS, item);
        }
        if (id < 0)
            return usage_error(a->errs, a->cmd, "--array-stride %.*s: not ATTR=N (ATTR: position, "
                               "normal, color0, color1, tex0..tex7 or 0..11)", shown, at);
        if (!parse_number(eq + 1, 255, &stride))
            return usage_error(a->errs, a->cmd, "--array-stride %.*s: the stride is 0..255 bytes "
                               "(decimal or 0x hex)", shown, at);
        strides[id] = (uint8_t)stride;
        if (last)
            return 0;
    }
}

/* The plan's tier: its generated code (and, with --asm, that code), or why it has none. */
static void print_gx_jit(FILE *out, const vfetch_gx_plan *plan, int with_asm)
{
    struct vfetch_plan_info info;
    vfetch_gx_plan_info(plan, &info);
    if (!info.jit) {
        fprintf(out, "jit: none (%s)\n", info.jit_reason);
        return;
    }
    if (info.jit_crossover == 0)
        fprintf(out, "jit: %u bytes of generated code (with constants); every draw runs the portable "
                "tier, measured faster (VFETCH_JIT=compare runs both)\n", info.jit_code_bytes);
    else if (info.jit_crossover == UINT32_MAX)
        fprintf(out, "jit: %u bytes of generated code (with constants), every draw\n",
                info.jit_code_bytes);
    else
        fprintf(out, "jit: %u bytes of generated code (with constants), draws below %u vertices\n",
                info.jit_code_bytes, info.jit_crossover);
    struct vfetch_jit_code_view view;
    if (with_asm && !vfetch_gx_plan_jit_code(plan, &view))
        print_jit_code(out, &view);
}

/* The output declaration: each location's offset and type. */
static void gx_print_declaration(FILE *out, const struct vfetch_vertex_decl *decl)
{
    for (uint32_t i = 0; i < decl->num_attrs; i++) {
        const struct vfetch_attr_decl *d = &decl->attrs[i];
        fprintf(out, "  location %2u %-12s offset %4u  ", d->location,
                d->location < VFETCH_GX_NUM_LOCATIONS ? gx_location_names[d->location] : "?",
                d->offset);
        if (d->type == VFETCH_ATTR_UNORM8X4) /* one slot of four bytes */
            fprintf(out, "unorm8x4%s\n", d->normalized ? " (normalized)" : "");
        else
            fprintf(out, "%s x%u\n", (unsigned)d->type < 4 ? decl_type_names[d->type] : "?",
                    d->count);
    }
}

int cmd_explain_gx(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a;
    args_begin(&a, "explain gx", gx_explain_options, argc, argv, out, errs);
    struct vfetch_gx_desc p;
    memset(&p, 0, sizeof p);
    uint32_t *const words[5] = { &p.regs.vcd_lo, &p.regs.vcd_hi, &p.regs.vat_a, &p.regs.vat_b,
                                 &p.regs.vat_c };
    int got, with_asm = 0;
    while ((got = next_option(&a)) >= FIRST_OPTION_ID) {
        switch (got) {
        case GX_VCD_LO:
        case GX_VCD_HI:
        case GX_VAT_A:
        case GX_VAT_B:
        case GX_VAT_C:
            if (word_option(&a, words[got - GX_VCD_LO]))
                return 1;
            break;
        case GX_PER_OP:
            p.path = VFETCH_PATH_PER_OP;
            break;
        case GX_ASM:
            with_asm = 1;
            break;
        case GX_ARRAY_STRIDE:
            if (gx_array_stride(&a, p.array_stride))
                return 1;
            break;
        default: /* GX_LAYOUT, GX_COLOR */
            if (gx_output_option(&a, &p.layout, &p.color_output))
                return 1;
            break;
        }
    }
    if (got != ARG_END)
        return args_exit(&a, got);
    vfetch_gx_plan *plan;
    int err = vfetch_gx_compile(&p, &plan);
    if (err)
        return gx_refusal(errs, err, &p.regs, "");
    struct vfetch_vertex_decl decl;
    err = vfetch_gx_plan_declaration(plan, &decl);
    if (err) {
        vfetch_gx_plan_free(plan);
        return refusal(errs, err, "explain gx: the declaration of the compiled format");
    }
    fprintf(out, "format: VCD_LO 0x%08x VCD_HI 0x%08x VAT A 0x%08x VAT B 0x%08x VAT C 0x%08x\n",
            p.regs.vcd_lo, p.regs.vcd_hi, p.regs.vat_a, p.regs.vat_b, p.regs.vat_c);
    gx_print_format(out, vfetch_gx_plan_format(plan), p.array_stride);
    fprintf(out, "output: %s layout, %s colors, %u bytes per vertex\n", gx_layout_names[p.layout],
            gx_color_names[p.color_output], vfetch_gx_plan_out_stride(plan));
    gx_print_declaration(out, &decl);
    const vfetch_plan *conv = vfetch_gx_plan_converter(plan);
    int indexed = 0;
    for (unsigned id = 0; id < VFETCH_GX_NUM_ATTRS; id++)
        indexed |= vfetch_gx_plan_format(plan)->attr[id].mode >= VFETCH_GX_INDEX8;
    if (conv) {
        if (indexed)
            fputs("staged: each indexed attribute's element is fetched into the vertex, as if "
                  "direct, and the plan converts that (docs/gx.md)\n", out);
        print_plan(out, conv);
        fprintf(out, "hash %016llx\n", (unsigned long long)vfetch_plan_hash(conv));
        print_gx_jit(out, plan, with_asm);
    } else {
        fputs("plan: none (no attribute: 0-byte vertices, nothing to convert)\nhash none\n", out);
    }
    vfetch_gx_plan_free(plan);
    return 0;
}
