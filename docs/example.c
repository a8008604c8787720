/* The README's examples: compile R300 registers into a plan, convert three vertices, print;
   then a whole GameCube/Wii draw: CP state -> format -> vertices, and its primitive -> host
   indices; then the same draw as the command processor's bytes, in one call into a batch. */
#include <stdio.h>
#include <vfetch/gx.h>
#include <vfetch/prim.h>
#include <vfetch/r300.h>

static int gx_draw(void);
static int gx_commands(void);

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
    if (out[2][6] != 1.0f || out[2][7] != alpha)
        return 1;
    return gx_draw() || gx_commands();
}

/* A GX draw as an emulator's command processor meets it: LOAD_CP_REG writes, then a QUADS
   command (0x80 | VAT 0) of 5 vertices: one quad and one vertex no primitive uses. */
static int gx_draw(void)
{
    vfetch_gx_state *state;
    if (vfetch_gx_state_create(NULL, &state)) /* vec4 layout, float colors */
        return 1;
    vfetch_gx_load_cp_reg(state, 0x50, 0x2200);  /* VCD_LO: position and color0 direct */
    vfetch_gx_load_cp_reg(state, 0x70, 0x16009); /* VAT0 A: position XYZ f32, color0 RGBA8888 */
    /* the command's vertices as they lie in the FIFO: big-endian floats, then R G B A */
    static const unsigned char fifo[5][16] = {
        { 0xBF, 0x80, 0, 0, 0xBF, 0x80, 0, 0, 0, 0, 0, 0, 0xFF, 0x00, 0x00, 0xFF },
        { 0x3F, 0x80, 0, 0, 0xBF, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0xFF, 0x00, 0xFF },
        { 0x3F, 0x80, 0, 0, 0x3F, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0xFF, 0xFF },
        { 0xBF, 0x80, 0, 0, 0x3F, 0x80, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    };
    float vertices[5][8]; /* the host vertex buffer: position vec4, color vec4 */
    struct vfetch_gx_result drawn;
    int err = vfetch_gx_state_draw(state, 0, fifo, sizeof fifo, 5, vertices, sizeof vertices, &drawn);
    vfetch_gx_state_free(state);
    if (err) {
        fprintf(stderr, "gx draw: %s\n", vfetch_strerror(err));
        return 1;
    }

    /* the primitive: QUADS to a triangle list, as Dolphin's IndexGenerator writes it */
    struct vfetch_prim_desc prim;
    vfetch_prim_desc_init(&prim);
    prim.primitive = VFETCH_GX_QUADS; /* the command byte & 0xF8 */
    vfetch_prim_plan *quads;
    if (vfetch_prim_compile(&prim, &quads))
        return 1;
    uint16_t indices[8];
    struct vfetch_prim_run_params p;
    vfetch_prim_run_params_init(&p);
    p.count = drawn.written; /* the records the draw wrote (skipped vertices take none) */
    p.base_index = 0;        /* where they start in the host vertex buffer */
    p.out = indices;
    p.out_capacity = 8;
    struct vfetch_prim_result r;
    err = vfetch_prim_run(quads, &p, &r);
    vfetch_prim_plan_free(quads);
    if (err) {
        fprintf(stderr, "prim: %s\n", vfetch_strerror(err));
        return 1;
    }
    printf("gx: %u vertices, %zu indices:", drawn.written, r.written);
    for (size_t i = 0; i < r.written; i++)
        printf(" %u", indices[i]);
    printf("\nvertex 2: pos (%g, %g, %g, %g)  color (%g, %g, %g, %g)\n", vertices[2][0],
           vertices[2][1], vertices[2][2], vertices[2][3], vertices[2][4], vertices[2][5],
           vertices[2][6], vertices[2][7]);
    /* the self-check: two triangles of the quad, the fifth vertex in none */
    static const uint16_t want[6] = { 0, 1, 2, 0, 2, 3 };
    int ok = drawn.written == 5 && r.written == 6 && vertices[2][0] == 1.0f && vertices[2][6] == 1.0f;
    for (int i = 0; i < 6; i++)
        ok &= indices[i] == want[i];
    return ok ? 0 : 1;
}

/* The same draw as the FIFO brings it (the two LOAD_CP_REG commands, then the draw command with
   its big-endian count and vertices), consumed in one call into a batch: the host vertex buffer
   and the host index buffer an emulator flushes when it wants. */
static int gx_commands(void)
{
    vfetch_gx_state *state;
    if (vfetch_gx_state_create(NULL, &state))
        return 1;
    static const unsigned char fifo[] = {
        0x08, 0x50, 0x00, 0x00, 0x22, 0x00, /* LOAD_CP_REG VCD_LO */
        0x08, 0x70, 0x00, 0x01, 0x60, 0x09, /* LOAD_CP_REG VAT0 A */
        0x80, 0x00, 0x05,                   /* QUADS, VAT 0, 5 vertices */
        0xBF, 0x80, 0, 0, 0xBF, 0x80, 0, 0, 0, 0, 0, 0, 0xFF, 0x00, 0x00, 0xFF,
        0x3F, 0x80, 0, 0, 0xBF, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0xFF, 0x00, 0xFF,
        0x3F, 0x80, 0, 0, 0x3F, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0xFF, 0xFF,
        0xBF, 0x80, 0, 0, 0x3F, 0x80, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0x61, 0x00, 0x00, 0x00, 0x00,       /* a BP write: not vfetch's, the run stops there */
    };
    float vertices[8][8];
    uint16_t indices[16];
    struct vfetch_batch batch = { vertices, sizeof vertices, 0, 0, 0, indices, 16, 0 };
    struct vfetch_gx_commands_result r; /* 16-bit lists: the state's default index options */
    int err = vfetch_gx_state_run_commands(state, fifo, sizeof fifo, &batch, &r);
    vfetch_gx_state_free(state);
    if (err) {
        fprintf(stderr, "gx commands: %s\n", vfetch_strerror(err));
        return 1;
    }
    printf("gx commands: %zu of %zu bytes, %u CP writes, %u draw: %u records, %zu indices\n",
           r.consumed, sizeof fifo, r.cp_writes, r.draws, batch.vertex_count, batch.indices_used);
    /* the self-check: stopped at the BP write, the quad's six indices, the same records */
    return !(r.stop == VFETCH_GX_STOP_FOREIGN && r.consumed == sizeof fifo - 5 &&
             batch.vertex_count == 5 && batch.indices_used == 6 && indices[5] == 3 &&
             vertices[2][0] == 1.0f && vertices[2][6] == 1.0f);
}
