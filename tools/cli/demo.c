/*
 * `vfetch demo`: a textured, lit quad as an R300 driver would submit it (two vertex arrays
 * described by VAP_PROG_STREAM_CNTL words), compiled and converted direct and through an index
 * buffer, the vertices printed with their bits.
 */
#include <stdint.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "vfetch/r300.h"

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
    struct vfetch_binding b[2] = { { demo_array0, sizeof demo_array0 },
                                   { demo_array1, sizeof demo_array1 } };
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
        return refusal(errs, err, "demo: the sample's draw");
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

int cmd_demo(FILE *out, FILE *errs)
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
    fprintf(out, "arrays: 0 stride 5 count 5 (position FLOAT_3, normal SHORT_4), "
                 "1 stride 2 count 2 (color D3DCOLOR, texcoord FLT16_2)\n\n");
    vfetch_plan *plan;
    const int err = vfetch_r300_compile(&d, &plan);
    if (err)
        return refusal(errs, err, "demo: the sample's words");
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
