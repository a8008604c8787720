/*
 * The `vfetch` command's argument handling and commands, as a function that writes to the
 * streams it is given (tools/vfetch.c's main() passes stdout and stderr; the fuzz target
 * tests/fuzz/fuzz_cli.c passes memory streams):
 *
 *   vfetch explain r300 [--psc W,..] [--ext W,..] [--sgn-norm W] [--swap N]
 *                       [--arrays S:C,..] [--vtx-size N] [--full] [--per-op]
 *   vfetch demo
 *   vfetch cpu
 *   vfetch --version | help
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vfetch/r300.h"

/* The usage text on `to`; exit code 1 when it answers a mistake (is_error), else 0. */
static int usage(FILE *to, int is_error)
{
    fputs("usage:\n"
          "  vfetch explain r300 [--psc W0,W1,..] [--ext W0,..] [--sgn-norm W] [--swap N]\n"
          "                      [--arrays STRIDE:COUNT,..] [--vtx-size N] [--full] [--per-op]\n"
          "      print the plan R300 VAP_PROG_STREAM_CNTL register words compile to\n"
          "  vfetch demo      convert a bundled R300 sample and print the vertices\n"
          "  vfetch cpu       the ISA level the kernels run at (VFETCH_CPU_MASK limits it)\n"
          "  vfetch --version\n",
          to);
    return is_error ? 1 : 0;
}

/* Parse a comma-separated list of numbers (hex or decimal); returns the count or -1. */
static int parse_list(const char *text, uint32_t *out, int max)
{
    int n = 0;
    while (*text) {
        char *end;
        const unsigned long v = strtoul(text, &end, 0);
        if (end == text || n == max || v > 0xffffffffu)
            return -1;
        out[n++] = (uint32_t)v;
        if (*end == ',')
            end++;
        else if (*end)
            return -1;
        text = end;
    }
    return n;
}

static int fail(FILE *errs, int code)
{
    fprintf(errs, "vfetch: %s (code %d)\n", vfetch_strerror(code), code);
    return 2;
}

static void print_plan(FILE *out, const vfetch_plan *plan)
{
    const size_t need = vfetch_plan_describe(plan, NULL, 0);
    char *text = malloc(need + 1);
    if (!text)
        return;
    vfetch_plan_describe(plan, text, need + 1);
    fputs(text, out);
    free(text);
}

static int cmd_explain(int argc, char **argv, FILE *out, FILE *errs)
{
    if (argc < 1 || strcmp(argv[0], "r300") != 0)
        return usage(errs, 1);
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    int per_op = 0;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        uint32_t words[16];
        int n;
        if (!strcmp(opt, "--full")) {
            d.layout = VFETCH_R300_LAYOUT_FULL;
            continue;
        }
        if (!strcmp(opt, "--per-op")) {
            per_op = 1;
            continue;
        }
        if (!val)
            return usage(errs, 1);
        i++;
        if (!strcmp(opt, "--psc") && (n = parse_list(val, words, 8)) > 0) {
            memcpy(d.prog_stream_cntl, words, n * sizeof words[0]);
        } else if (!strcmp(opt, "--ext") && (n = parse_list(val, words, 8)) > 0) {
            memcpy(d.prog_stream_cntl_ext, words, n * sizeof words[0]); /* the rest: identity */
        } else if (!strcmp(opt, "--sgn-norm") && parse_list(val, words, 1) == 1) {
            d.sgn_norm_cntl = words[0];
        } else if (!strcmp(opt, "--swap") && parse_list(val, words, 1) == 1 && words[0] < 4) {
            d.cntl_status = words[0];
        } else if (!strcmp(opt, "--vtx-size") && parse_list(val, words, 1) == 1) {
            d.vtx_size_dwords = words[0];
        } else if (!strcmp(opt, "--arrays")) {
            const char *p = val;
            d.num_arrays = 0;
            while (*p) {
                char *end;
                const unsigned long stride = strtoul(p, &end, 0);
                if (*end != ':' || d.num_arrays == VFETCH_R300_MAX_ARRAYS + 1)
                    return usage(errs, 1);
                const unsigned long count = strtoul(end + 1, &end, 0);
                if (d.num_arrays < VFETCH_R300_MAX_ARRAYS)
                    d.arrays[d.num_arrays] = (struct vfetch_r300_array){ (uint32_t)stride, (uint32_t)count };
                d.num_arrays++;
                if (*end == ',')
                    end++;
                else if (*end)
                    return usage(errs, 1);
                p = end;
            }
        } else {
            return usage(errs, 1);
        }
    }
    struct vfetch_plan_desc pd;
    int err = vfetch_r300_translate(&d, &pd);
    if (err)
        return fail(errs, err);
    pd.path = per_op ? VFETCH_PATH_PER_OP : VFETCH_PATH_AUTO;
    vfetch_plan *plan;
    err = vfetch_plan_create(&pd, &plan);
    if (err)
        return fail(errs, err);
    print_plan(out, plan);
    fprintf(out, "output: %u bytes per vertex\n", vfetch_plan_record_size(plan));
    for (unsigned loc = 0; loc < 32; loc++)
        if (vfetch_plan_location(plan, loc) >= 0)
            fprintf(out, "  DST_VEC_LOC %2u -> bytes %u..%u\n", loc, 4 * vfetch_plan_location(plan, loc),
                   4 * vfetch_plan_location(plan, loc) + 15);
    fprintf(out, "hash %016llx\n", (unsigned long long)vfetch_plan_hash(plan));
    vfetch_plan_free(plan);
    return 0;
}

/* ---- demo: a textured, lit quad as an R300 driver would submit it ---- */

#define EL(type, loc, last, sgn, norm)                                                     \
    ((uint32_t)(type) | (uint32_t)(loc) << 8 | (uint32_t)(last) << 13 |                     \
     (uint32_t)(sgn) << 14 | (uint32_t)(norm) << 15)

/* Array 0: position FLOAT_3 and normal SHORT_4 (signed normalized), 5 dwords per vertex.
   Array 1: color D3DCOLOR (normalized) and texcoord FLT16_2, 2 dwords per vertex. */
static const uint32_t demo_psc[2] = {
    EL(VFETCH_R300_FLOAT_3, 0, 0, 0, 0) | EL(VFETCH_R300_SHORT_4, 1, 0, 1, 1) << 16,
    EL(VFETCH_R300_D3DCOLOR, 2, 0, 0, 1) | EL(VFETCH_R300_FLT16_2, 3, 1, 0, 0) << 16,
};

struct demo_pos_normal {
    float x, y, z;
    int16_t nx, ny, nz, nw;
};

static const struct demo_pos_normal demo_array0[4] = {
    { -1.0f, -1.0f, 0.0f, 0, 0, 32767, 0 },
    { 1.0f, -1.0f, 0.0f, 0, 0, 32767, 0 },
    { 1.0f, 1.0f, 0.0f, 0, 23170, 23170, 0 },
    { -1.0f, 1.0f, 0.5f, -32768, 0, 0, 0 },
};

/* color as D3DCOLOR ARGB (B in bits 7:0), texcoords as binary16 */
static const uint32_t demo_array1[8] = {
    0xFFFF0000u, 0x00000000u, /* red, (0, 0) */
    0xFF00FF00u, 0x00003C00u, /* green, (1, 0) */
    0x800000FFu, 0x3C003C00u, /* blue, half alpha, (1, 1) */
    0xFFFFFFFFu, 0x3C000000u, /* white, (0, 1) */
};

static int demo_run(const vfetch_plan *plan, const uint16_t *indices, unsigned count, FILE *out,
                    FILE *errs)
{
    struct vfetch_binding b[2] = { { demo_array0, sizeof demo_array0 }, { demo_array1, sizeof demo_array1 } };
    float vertices[6][16];
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = b;
    p.num_streams = 2;
    p.count = count;
    p.out = vertices;
    p.out_size = sizeof vertices;
    if (indices) {
        p.indices = indices;
        p.index_type = VFETCH_INDEX_U16;
        p.indices_size = count * sizeof *indices;
    }
    const int err = vfetch_run(plan, &p);
    if (err)
        return fail(errs, err);
    static const char *const names[4] = { "position", "normal", "color", "texcoord" };
    for (unsigned v = 0; v < count; v++) {
        fprintf(out, "vertex %u\n", v);
        for (unsigned a = 0; a < 4; a++) {
            const float *f = &vertices[v][4 * a];
            uint32_t bits[4];
            memcpy(bits, f, sizeof bits);
            fprintf(out, "  %-8s (%10.6g %10.6g %10.6g %10.6g)  [%08x %08x %08x %08x]\n", names[a],
                   (double)f[0], (double)f[1], (double)f[2], (double)f[3], bits[0], bits[1],
                   bits[2], bits[3]);
        }
    }
    return 0;
}

static int cmd_demo(FILE *out, FILE *errs)
{
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    memcpy(d.prog_stream_cntl, demo_psc, sizeof demo_psc);
    d.num_arrays = 2;
    d.arrays[0] = (struct vfetch_r300_array){ 5, 5 };
    d.arrays[1] = (struct vfetch_r300_array){ 2, 2 };
    fprintf(out, "vfetch %s demo at level %s\n", vfetch_version(), vfetch_cpu_name());
    fprintf(out, "VAP_PROG_STREAM_CNTL_0 = 0x%08x, _1 = 0x%08x, VAP_PSC_SGN_NORM_CNTL = 0x%08x\n",
           demo_psc[0], demo_psc[1], d.sgn_norm_cntl);
    fprintf(out, "arrays: 0 stride 5 count 5 (position FLOAT_3, normal SHORT_4), 1 stride 2 count 2 "
           "(color D3DCOLOR, texcoord FLT16_2)\n\n");
    vfetch_plan *plan;
    const int err = vfetch_r300_compile(&d, &plan);
    if (err)
        return fail(errs, err);
    print_plan(out, plan);
    fprintf(out, "\nquad, vertices 0..3:\n");
    int rc = demo_run(plan, NULL, 4, out, errs);
    static const uint16_t triangles[6] = { 0, 1, 2, 0, 2, 3 };
    fprintf(out, "\nindexed (u16 indices 0 1 2 0 2 3):\n");
    if (!rc)
        rc = demo_run(plan, triangles, 6, out, errs);
    vfetch_plan_free(plan);
    return rc;
}

static int cmd_cpu(FILE *out)
{
    fprintf(out, "level %s (flags 0x%x)\n", vfetch_cpu_name(), vfetch_cpu_flags());
    return 0;
}

int vfetch_cli_main(int argc, char **argv, FILE *out, FILE *errs)
{
    if (argc < 2)
        return usage(errs, 1);
    const char *cmd = argv[1];
    if (!strcmp(cmd, "explain"))
        return cmd_explain(argc - 2, argv + 2, out, errs);
    if (!strcmp(cmd, "demo"))
        return cmd_demo(out, errs);
    if (!strcmp(cmd, "cpu"))
        return cmd_cpu(out);
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        fprintf(out, "vfetch %s\n", vfetch_version());
        return 0;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help"))
        return usage(out, 0);
    return usage(errs, 1);
}
