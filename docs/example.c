/* The README's example: compile R300 registers into a plan, convert three vertices, print. */
#include <stdio.h>
#include <vfetch/r300.h>

int main(void)
{
    /* Element 0: FLOAT_3 position to DST_VEC_LOC 0. Element 1: D3DCOLOR, normalized, to
       DST_VEC_LOC 1, LAST_VEC. Word n holds element 2n in bits 15:0, 2n+1 in 31:16. */
    const uint32_t el0 = 2u | 0u << 8;
    const uint32_t el1 = 5u | 1u << 8 | 1u << 13 | 1u << 15;

    struct vfetch_r300_desc regs;
    vfetch_r300_desc_init(&regs);
    regs.prog_stream_cntl[0] = el0 | el1 << 16;
    regs.num_arrays = 1; /* one vertex array of 4 dwords per vertex */
    regs.arrays[0].stride_dwords = 4;
    regs.arrays[0].count_dwords = 4;

    vfetch_r300_plan *plan;
    int err = vfetch_r300_compile(&regs, &plan);
    if (err) {
        fprintf(stderr, "compile: %s\n", vfetch_strerror(err));
        return 1;
    }

    struct { float x, y, z; uint32_t argb; } vertices[3] = {
        { 0.0f, 1.0f, 0.0f, 0xFFFF0000u },
        { -1.0f, -1.0f, 0.0f, 0xFF00FF00u },
        { 1.0f, -1.0f, 0.0f, 0x800000FFu },
    };
    float out[3][8]; /* compact layout: position vec4, then color vec4 */

    struct vfetch_binding array0 = { vertices, sizeof vertices };
    struct vfetch_run_params run;
    vfetch_r300_run_params_init(&run);
    run.streams = &array0;
    run.num_streams = 1;
    run.count = 3;
    run.out = out;
    run.out_size = sizeof out;
    err = vfetch_r300_run(plan, &run);
    if (err) {
        fprintf(stderr, "run: %s\n", vfetch_strerror(err));
        return 1;
    }
    for (int v = 0; v < 3; v++)
        printf("pos (%g, %g, %g, %g)  color (%g, %g, %g, %g)\n", out[v][0], out[v][1],
               out[v][2], out[v][3], out[v][4], out[v][5], out[v][6], out[v][7]);
    vfetch_r300_plan_free(plan);
    /* A self-check, so that the build's test of this example can fail. The quotient goes
       through a float first: on i386 (x87) a float expression is evaluated in long double. */
    const float alpha = 128.0f / 255.0f;
    return out[2][6] == 1.0f && out[2][7] == alpha ? 0 : 1;
}
