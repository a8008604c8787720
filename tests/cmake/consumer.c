/* A CMake consumer of the installed vfetch (tests/cmake): a GX draw through a CP state and a
   GX texture decode, each checked, so that the test fails if either does. */
#include <stdint.h>
#include <stdio.h>

#include <vfetch/gx.h>
#include <vfetch/gx_texture.h>

int main(void)
{
    /* a GX draw: position XYZ f32 and color0 RGBA8888, direct, one vertex */
    vfetch_gx_state *state;
    if (vfetch_gx_state_create(NULL, &state))
        return 1;
    vfetch_gx_load_cp_reg(state, 0x50, 0x2200);
    vfetch_gx_load_cp_reg(state, 0x70, 0x16009);
    static const unsigned char vertex[16] = { 0x3F, 0x80, 0, 0, 0x40, 0, 0, 0, 0xC0, 0x40, 0, 0,
                                              0xFF, 0x00, 0x00, 0xFF };
    float out[8];
    struct vfetch_gx_result drawn;
    int err = vfetch_gx_state_draw(state, 0, vertex, sizeof vertex, 1, out, sizeof out, &drawn);
    vfetch_gx_state_free(state);
    if (err || drawn.written != 1 || out[0] != 1.0f || out[1] != 2.0f || out[2] != -3.0f ||
        out[4] != 1.0f || out[5] != 0.0f) {
        fprintf(stderr, "gx draw: %s\n", vfetch_strerror(err));
        return 1;
    }

    /* a GX texture: one 8x4 I8 block (the texel values 0..31), decoded to RGBA8 */
    unsigned char texels[32], rgba[8 * 4 * 4];
    for (int i = 0; i < 32; i++)
        texels[i] = (unsigned char)(i * 8);
    struct vfetch_gx_texture_desc desc;
    vfetch_gx_texture_desc_init(&desc);
    desc.setimage0 = (8 - 1) | (4 - 1) << 10 | (uint32_t)VFETCH_GX_TF_I8 << 20;
    vfetch_gx_texture_plan *plan;
    if ((err = vfetch_gx_texture_compile(&desc, &plan))) {
        fprintf(stderr, "texture compile: %s\n", vfetch_strerror(err));
        return 1;
    }
    const struct vfetch_gx_texture_source src = { texels, sizeof texels, NULL, 0 };
    const struct vfetch_texel_target t = { rgba, sizeof rgba, VFETCH_TEXEL_RGBA8, 0, 0 };
    err = vfetch_gx_texture_decode(plan, &src, NULL, &t);
    vfetch_gx_texture_plan_free(plan);
    /* I8: each texel's intensity into R, G, B and A; texel (x, y) of the block is byte 8y + x */
    if (err || rgba[4 * 9] != 9 * 8 || rgba[4 * 9 + 3] != 9 * 8 || rgba[4 * 31 + 1] != 31 * 8) {
        fprintf(stderr, "texture decode: %s\n", vfetch_strerror(err));
        return 1;
    }
    printf("cmake consumer: a GX vertex (1, 2, -3) and an 8x4 I8 texture decoded\n");
    return 0;
}
