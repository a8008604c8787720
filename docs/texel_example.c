/* README's texel example: one DXT1 block (red and blue endpoints) decoded to RGBA8. Built and
   run as the test `texel-example`. */
#include <stdio.h>
#include <vfetch/texel.h>

int main(void)
{
    /* TX_FORMAT1: TXFORMAT 15 (DXT1); component 0 is blue on R400/R500, so SEL_RED = 2,
       SEL_GREEN = 1, SEL_BLUE = 0, SEL_ALPHA = 3 give R, G, B, A. */
    struct vfetch_texel_desc desc;
    vfetch_texel_desc_init(&desc);
    desc.tx_format1 = 15 | 2u << 12 | 1u << 15 | 0u << 18 | 3u << 9;
    const uint8_t block[8] = { 0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4 };
    vfetch_texel_plan *plan;
    int err = vfetch_texel_compile(&desc, &plan);
    if (err) {
        fprintf(stderr, "%s\n", vfetch_strerror(err));
        return 1;
    }
    uint8_t rgba[4 * 4][4];
    const struct vfetch_texel_surface s = { block, sizeof block, 4, 4, 1, 0,
                                            VFETCH_TEXEL_PITCH_BYTES, 0 };
    const struct vfetch_texel_target t = { rgba, sizeof rgba, VFETCH_TEXEL_RGBA8, 0, 0 };
    err = vfetch_texel_decode(plan, &s, NULL, &t);
    vfetch_texel_plan_free(plan);
    if (err) {
        fprintf(stderr, "%s\n", vfetch_strerror(err));
        return 1;
    }
    for (int i = 0; i < 4; i++)
        printf("texel %d: %3u %3u %3u %3u\n", i, rgba[i][0], rgba[i][1], rgba[i][2], rgba[i][3]);
    /* indices 0, 1, 2, 3: red, blue, 2/3 red + 1/3 blue, 1/3 red + 2/3 blue */
    return rgba[2][0] == 170 && rgba[2][2] == 85 && rgba[3][0] == 85 ? 0 : 1;
}
