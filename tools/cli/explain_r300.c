/*
 * `vfetch explain r300`: R300/R500 VAP_PROG_STREAM_CNTL and the words beside it -> the plan
 * they compile to, where each DST_VEC_LOC lands in the output record, and its generated code.
 */
#include <string.h>

#include "commands.h"
#include "options.h"
#include "vfetch/r300.h"

enum {
    R300_PSC = FIRST_OPTION_ID,
    R300_EXT,
    R300_SGN_NORM,
    R300_SWAP,
    R300_ARRAYS,
    R300_VTX_SIZE,
    R300_FULL,
    R300_PER_OP,
    R300_ASM,
};

static const struct option r300_options[] = {
    { "psc", required_argument, NULL, R300_PSC },
    { "ext", required_argument, NULL, R300_EXT },
    { "sgn-norm", required_argument, NULL, R300_SGN_NORM },
    { "swap", required_argument, NULL, R300_SWAP },
    { "arrays", required_argument, NULL, R300_ARRAYS },
    { "vtx-size", required_argument, NULL, R300_VTX_SIZE },
    { "full", no_argument, NULL, R300_FULL },
    { "per-op", no_argument, NULL, R300_PER_OP },
    { "asm", no_argument, NULL, R300_ASM },
    OPTIONS_END
};

/* The options as given (NULL: not given), for naming the one a refusal is about. */
struct r300_given {
    const char *psc, *ext, *sgn_norm, *arrays, *vtx_size;
};

#define R300_GIVEN(text) ((text) ? (text) : "(not given: 0)")

/* A refusal of vfetch_r300_translate(), naming the option whose value it is about (r300.h
   lists which check each code answers). */
static int r300_refusal(FILE *errs, int err, const struct r300_given *g)
{
    switch (err) {
    case VFETCH_EINVAL: /* the only argument the tool can get wrong: VAP_VTX_SIZE */
        if (!g->vtx_size)
            return refusal(errs, err, "neither --vtx-size nor --arrays given (immediate mode "
                           "takes --vtx-size 1..128 dwords per vertex)");
        return refusal(errs, err, "--vtx-size %.40s (immediate mode, without --arrays, takes "
                       "1..128 dwords per vertex)", g->vtx_size);
    case VFETCH_ER300_TOO_MANY_ARRAYS:
    case VFETCH_ER300_ARRAY_LAYOUT:
        return refusal(errs, err, "--arrays %.90s (at most 16 arrays, each COUNT 1..255 and "
                       "STRIDE 0..255, COUNT at most STRIDE unless STRIDE is 0)", g->arrays);
    case VFETCH_ER300_RESERVED_SGN_NORM:
        return refusal(errs, err, "--sgn-norm %.40s on --psc %.90s", R300_GIVEN(g->sgn_norm),
                       R300_GIVEN(g->psc));
    case VFETCH_ERESERVED_SWIZZLE:
        return refusal(errs, err, "--ext %.90s", R300_GIVEN(g->ext));
    case VFETCH_EPLAN:
        return refusal(errs, err, "--ext %.90s (every element's write mask is 0: nothing to "
                       "convert)", R300_GIVEN(g->ext));
    case VFETCH_ER300_STREAM_UNDERRUN:
        return refusal(errs, err, "--psc %.90s with %s %.90s", R300_GIVEN(g->psc),
                       g->arrays ? "--arrays" : "--vtx-size",
                       g->arrays ? g->arrays : R300_GIVEN(g->vtx_size));
    default: /* the element words themselves: reserved type, FLOAT_8 at 31, no LAST_VEC */
        return refusal(errs, err, "--psc %.90s", R300_GIVEN(g->psc));
    }
}

/* --arrays STRIDE:COUNT,..: every pair counted, the first 16 kept (more are the library's to
   refuse, as the hardware's limit). 0, or 1 after a usage error. */
static int r300_arrays(const struct args *a, struct vfetch_r300_desc *d)
{
    d->num_arrays = 0;
    for (const char *p = a->val;; d->num_arrays++) {
        char item[48];
        uint32_t pair[2];
        const int last = list_item(&p, ',', item, sizeof item);
        if (last < 0 || parse_numbers(item, ':', 0xffffffffu, pair, 2) != 2)
            return usage_error(a->errs, a->cmd, "--arrays %.60s: not STRIDE:COUNT,.. (dwords, "
                               "decimal or 0x hex)", a->val);
        if (d->num_arrays < VFETCH_R300_MAX_ARRAYS)
            d->arrays[d->num_arrays] = (struct vfetch_r300_array){ pair[0], pair[1] };
        if (last) {
            d->num_arrays++;
            return 0;
        }
    }
}

int cmd_explain_r300(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a;
    args_begin(&a, "explain r300", r300_options, argc, argv, out, errs);
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    struct r300_given g = { NULL, NULL, NULL, NULL, NULL };
    int per_op = 0, with_asm = 0, got, n;
    uint32_t words[8];
    while ((got = next_option(&a)) >= FIRST_OPTION_ID) {
        switch (got) {
        case R300_FULL:
            d.layout = VFETCH_R300_LAYOUT_FULL;
            break;
        case R300_PER_OP:
            per_op = 1;
            break;
        case R300_ASM:
            with_asm = 1;
            break;
        case R300_PSC:
            if (list_option(&a, words, 8, &n))
                return 1;
            memcpy(d.prog_stream_cntl, words, (size_t)n * sizeof words[0]);
            g.psc = a.val;
            break;
        case R300_EXT: /* the words not given stay the identity */
            if (list_option(&a, words, 8, &n))
                return 1;
            memcpy(d.prog_stream_cntl_ext, words, (size_t)n * sizeof words[0]);
            g.ext = a.val;
            break;
        case R300_SGN_NORM:
            if (word_option(&a, &d.sgn_norm_cntl))
                return 1;
            g.sgn_norm = a.val;
            break;
        case R300_SWAP:
            if (word_option(&a, &d.cntl_status))
                return 1;
            if (d.cntl_status > 3)
                return usage_error(errs, a.cmd, "--swap %.40s: VC_SWAP is 0..3", a.val);
            break;
        case R300_VTX_SIZE:
            if (word_option(&a, &d.vtx_size_dwords))
                return 1;
            g.vtx_size = a.val;
            break;
        default: /* R300_ARRAYS */
            if (r300_arrays(&a, &d))
                return 1;
            g.arrays = a.val;
            break;
        }
    }
    if (got != ARG_END)
        return args_exit(&a, got);
    struct vfetch_plan_desc pd;
    int err = vfetch_r300_translate(&d, &pd);
    if (err)
        return r300_refusal(errs, err, &g);
    pd.path = per_op ? VFETCH_PATH_PER_OP : VFETCH_PATH_AUTO;
    vfetch_plan *plan;
    err = vfetch_plan_compile(&pd, &plan);
    if (err)
        return refusal(errs, err, "explain r300: the plan of the translated words");
    print_plan(out, plan);
    fprintf(out, "output: %u bytes per vertex\n", vfetch_plan_record_size(plan));
    for (unsigned loc = 0; loc < 32; loc++)
        if (vfetch_plan_location(plan, loc) >= 0)
            fprintf(out, "  DST_VEC_LOC %2u -> bytes %u..%u\n", loc,
                    4 * vfetch_plan_location(plan, loc), 4 * vfetch_plan_location(plan, loc) + 15);
    fprintf(out, "hash %016llx\n", (unsigned long long)vfetch_plan_hash(plan));
    print_plan_jit(out, plan, with_asm);
    vfetch_plan_free(plan);
    return 0;
}
