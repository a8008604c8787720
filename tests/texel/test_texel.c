/*
 * Texel decode against the register document, with oracles independent of the library:
 *
 *   - hand vectors for every format (values worked out from the field layouts by hand);
 *   - every 8- and 16-bit texel value of every packed format (and 65,536 random values of the
 *     32- and 64-bit ones) against a field table transcribed separately here and the exact
 *     quotient computed in double (a division rounded to double then to float is the correctly
 *     rounded float quotient: 53 >= 2 * 24 + 2), under unsigned, the three signed methods and
 *     POW2FIX2FLT, for both outputs (RGBA8 = round(255 x));
 *   - every binary16 value against libfp16 (signalling NaNs quieted as F16C does);
 *   - every BC4 endpoint pair x index, unsigned and signed, truncating and D3D10 float;
 *   - gamma (sRGB, 2.2) and BT.601 YUV against double-precision formulas;
 *   - every compile and decode error, with nothing written;
 *   - the surface walker: regions, pitches in bytes and blocks, slices and faces, and regions
 *     at the far edge of surfaces 2^32 - 1 texels wide or tall.
 *
 * The decoder runs at the best level here; meson runs this test again at each lower level
 * (VFETCH_CPU_MASK), and checkasm compares every level with the reference directly.
 */
#include <fp16.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "testutil.h"
#include "vfetch/texel.h"

#define SEL(r, g, b, a) ((uint32_t)(a) << 9 | (uint32_t)(r) << 12 | (uint32_t)(g) << 15 | (uint32_t)(b) << 18)
#define SEL_RGBA SEL(0, 1, 2, 3)
#define MSB VFETCH_TX_FORMAT2_TXFORMAT_MSB
#define POW2 VFETCH_TX_FORMAT2_POW2FIX2FLT

/* Under an emulator (tools/test-all.sh sets VFETCH_TEST_QUICK for the qemu builds, as it sets
   checkasm's quick mode there) the largest sweeps take samples: the packed formats' every value
   under 4 of the 10 selection x sign settings (variants 0, 4, 8, 9: every selection, every sign
   pattern, every signed method, POW2FIX), BC4 each mode on a quarter of the second endpoints
   (the four modes together cover all 256), YUV every 25th Y instead of every 5th. The native
   builds run them whole. */
static int quick;

/* The defaults' options (vfetch_texel_desc_init), to change one of them. */
static void options_default(struct vfetch_texel_options *o)
{
    struct vfetch_texel_desc d;
    vfetch_texel_desc_init(&d);
    *o = d.options;
}

/* A description of the two words and options (NULL: the defaults). */
static struct vfetch_texel_desc desc_of(uint32_t f1, uint32_t f2, const struct vfetch_texel_options *o)
{
    struct vfetch_texel_desc d;
    vfetch_texel_desc_init(&d);
    d.tx_format1 = f1;
    d.tx_format2 = f2;
    if (o)
        d.options = *o;
    return d;
}

static vfetch_texel_plan *plan_of(uint32_t f1, uint32_t f2, const struct vfetch_texel_options *o)
{
    vfetch_texel_plan *p = NULL;
    const struct vfetch_texel_desc d = desc_of(f1, f2, o);
    int err = vfetch_texel_compile(&d, &p);
    if (err != VFETCH_OK) {
        fprintf(stderr, "compile 0x%08x 0x%08x: %s\n", (unsigned)f1, (unsigned)f2,
                vfetch_strerror(err));
        test_failures++;
    }
    return p;
}

/* Decode a whole w x h x 1 surface of tightly packed blocks into out (RGBA32F or RGBA8). */
static int decode_all(const vfetch_texel_plan *p, const void *data, size_t size, uint32_t w,
                      uint32_t h, enum vfetch_texel_output fmt, void *out)
{
    struct vfetch_texel_surface s = { data, size, w, h, 1, 0, VFETCH_TEXEL_PITCH_BYTES, 0 };
    struct vfetch_texel_target t = { out, (size_t)w * h * (fmt == VFETCH_TEXEL_RGBA8 ? 4 : 16),
                                     fmt, 0, 0 };
    return vfetch_texel_decode(p, &s, NULL, &t);
}

/* One texel's RGBA32F decode (a 1 x 1 surface of one block, or texel i of a block row). */
static void texels_of(uint32_t f1, uint32_t f2, const struct vfetch_texel_options *o,
                      const uint8_t *data, size_t size, uint32_t w, uint32_t h, float (*out)[4])
{
    vfetch_texel_plan *p = plan_of(f1, f2, o);
    if (!p)
        return;
    CHECK_EQ(decode_all(p, data, size, w, h, VFETCH_TEXEL_RGBA32F, out), VFETCH_OK);
    vfetch_texel_plan_free(p);
}

#define CHECK_RGBA(t, r, g, b, a)                                                           \
    do {                                                                                    \
        CHECK_FLOAT((t)[0], (r));                                                           \
        CHECK_FLOAT((t)[1], (g));                                                           \
        CHECK_FLOAT((t)[2], (b));                                                           \
        CHECK_FLOAT((t)[3], (a));                                                           \
    } while (0)

/* ---- hand vectors ---- */

static void check_hand_packed(void)
{
    float t[16][4];
    /* TX_FMT_8: one component; G, B read 0 and A reads 1 (components it lacks). */
    const uint8_t b8[1] = { 0x80 };
    texels_of(0 | SEL_RGBA, 0, NULL, b8, 1, 1, 1, t);
    CHECK_RGBA(t[0], 128.0f / 255.0f, 0.0f, 0.0f, 1.0f);
    /* TX_FMT_4_4: 0x3C -> c0 = 12/15, c1 = 3/15 */
    const uint8_t b44[1] = { 0x3C };
    texels_of(2 | SEL(1, 0, 4, 5), 0, NULL, b44, 1, 1, 1, t);
    CHECK_RGBA(t[0], 3.0f / 15.0f, 12.0f / 15.0f, 0.0f, 1.0f);
    /* TX_FMT_3_3_2: 0b101_010_11 -> c0 = 3/3, c1 = 2/7, c2 = 5/7 */
    const uint8_t b332[1] = { 0xAB };
    texels_of(5 | SEL_RGBA, 0, NULL, b332, 1, 1, 1, t);
    CHECK_RGBA(t[0], 1.0f, 2.0f / 7.0f, 5.0f / 7.0f, 1.0f);
    /* TX_FMT_5_6_5: 0xF800 is c2 = 1 (bits 15:11); 0x07E0 c1 = 1; 0x0001 c0 = 1/31 */
    const uint8_t b565[6] = { 0x00, 0xF8, 0xE0, 0x07, 0x01, 0x00 };
    texels_of(6 | SEL(2, 1, 0, 5), 0, NULL, b565, 6, 3, 1, t);
    CHECK_RGBA(t[0], 1.0f, 0.0f, 0.0f, 1.0f);
    CHECK_RGBA(t[1], 0.0f, 1.0f, 0.0f, 1.0f);
    CHECK_RGBA(t[2], 0.0f, 0.0f, 1.0f / 31.0f, 1.0f);
    /* TX_FMT_6_5_5: c2 = bits 15:10 (6 bits) */
    const uint8_t b655[2] = { 0x00, 0x04 }; /* 0x0400: c2 = 1/63 */
    texels_of(7 | SEL_RGBA, 0, NULL, b655, 2, 1, 1, t);
    CHECK_RGBA(t[0], 0.0f, 0.0f, 1.0f / 63.0f, 1.0f);
    /* TX_FMT_11_11_10: c0 10 bits, c1 bits 20:10, c2 31:21 */
    const uint32_t w111110 = 1u | 2u << 10 | 3u << 21;
    texels_of(8 | SEL_RGBA, 0, NULL, (const uint8_t *)&w111110, 4, 1, 1, t);
    CHECK_RGBA(t[0], 1.0f / 1023.0f, 2.0f / 2047.0f, 3.0f / 2047.0f, 1.0f);
    /* TX_FMT_10_11_11: c0 11 bits, c1 21:11, c2 31:22 (10 bits) */
    const uint32_t w101111 = 1u | 2u << 11 | 1023u << 22;
    texels_of(9 | SEL_RGBA, 0, NULL, (const uint8_t *)&w101111, 4, 1, 1, t);
    CHECK_RGBA(t[0], 1.0f / 2047.0f, 2.0f / 2047.0f, 1.0f, 1.0f);
    /* TX_FMT_4_4_4_4 0x1234: c0 = 4, c1 = 3, c2 = 2, c3 = 1 (/15) */
    const uint8_t b4444[2] = { 0x34, 0x12 };
    texels_of(10 | SEL_RGBA, 0, NULL, b4444, 2, 1, 1, t);
    CHECK_RGBA(t[0], 4.0f / 15, 3.0f / 15, 2.0f / 15, 1.0f / 15);
    /* TX_FMT_1_5_5_5 0x8000: c3 = 1 (bit 15), others 0 */
    const uint8_t b1555[2] = { 0x00, 0x80 };
    texels_of(11 | SEL_RGBA, 0, NULL, b1555, 2, 1, 1, t);
    CHECK_RGBA(t[0], 0.0f, 0.0f, 0.0f, 1.0f);
    /* TX_FMT_8_8_8_8: bytes are c0..c3; with SIGNED_COMP1 0x80 -> -1 (clamped) */
    const uint8_t b8888[4] = { 0xFF, 0x80, 0x00, 0x33 };
    texels_of(12 | SEL_RGBA | 1u << 6, 0, NULL, b8888, 4, 1, 1, t);
    CHECK_RGBA(t[0], 1.0f, -1.0f, 0.0f, 0x33 / 255.0f);
    /* TX_FMT_2_10_10_10: c3 = bits 31:30 */
    const uint32_t w2101010 = 1023u | 0u << 10 | 512u << 20 | 2u << 30;
    texels_of(13 | SEL_RGBA, 0, NULL, (const uint8_t *)&w2101010, 4, 1, 1, t);
    CHECK_RGBA(t[0], 1.0f, 0.0f, 512.0f / 1023.0f, 2.0f / 3.0f);
    /* TX_FMT_16_16 and 16_16_16_16 */
    const uint16_t h4[4] = { 0xFFFF, 0x8000, 1, 0 };
    texels_of(4 | SEL_RGBA, 0, NULL, (const uint8_t *)h4, 4, 1, 1, t);
    CHECK_RGBA(t[0], 1.0f, 32768.0f / 65535.0f, 0.0f, 1.0f);
    texels_of(14 | SEL_RGBA, 0, NULL, (const uint8_t *)h4, 8, 1, 1, t);
    CHECK_RGBA(t[0], 1.0f, 32768.0f / 65535.0f, 1.0f / 65535.0f, 0.0f);
    texels_of(1 | SEL(0, 0, 0, 5), 0, NULL, (const uint8_t *)h4, 2, 1, 1, t);
    CHECK_RGBA(t[0], 1.0f, 1.0f, 1.0f, 1.0f);
    /* TX_FMT_24_8: c0 = bits 23:0, c1 = 31:24 */
    const uint32_t w248 = 0xFF000001u;
    texels_of(6 | SEL(0, 1, 4, 5), MSB, NULL, (const uint8_t *)&w248, 4, 1, 1, t);
    CHECK_RGBA(t[0], 1.0f / 16777215.0f, 1.0f, 0.0f, 1.0f);
    /* TX_FMT_10 / 10_10 / 10_10_10_10: 16-bit containers, bits 9:0 or (option) 15:6 */
    const uint16_t ten[4] = { 0x03FF, 0xFFC0, 0x0001, 0x0040 };
    texels_of(2 | SEL_RGBA, MSB, NULL, (const uint8_t *)ten, 2, 1, 1, t);
    CHECK_RGBA(t[0], 1.0f, 0.0f, 0.0f, 1.0f);
    texels_of(4 | SEL_RGBA, MSB, NULL, (const uint8_t *)ten, 8, 1, 1, t);
    CHECK_RGBA(t[0], 1.0f, 0x3C0 / 1023.0f, 1.0f / 1023.0f, 0x40 / 1023.0f);
    struct vfetch_texel_options high;
    options_default(&high);
    high.align10 = VFETCH_TEXEL_ALIGN10_HIGH;
    texels_of(4 | SEL_RGBA, MSB, &high, (const uint8_t *)ten, 8, 1, 1, t);
    CHECK_RGBA(t[0], 15.0f / 1023.0f, 1.0f, 0.0f, 1.0f / 1023.0f);
    texels_of(3 | SEL(1, 0, 4, 5), MSB, &high, (const uint8_t *)ten, 4, 1, 1, t);
    CHECK_RGBA(t[0], 1.0f, 15.0f / 1023.0f, 0.0f, 1.0f);
    /* TX_FMT_1 (LSB first) and 1_REVERSE (MSB first): 8 texels a byte */
    const uint8_t bits[1] = { 0x01 };
    texels_of(0 | SEL(0, 0, 0, 5), MSB, NULL, bits, 1, 8, 1, t);
    CHECK_FLOAT(t[0][0], 1.0f);
    CHECK_FLOAT(t[7][0], 0.0f);
    texels_of(1 | SEL(0, 0, 0, 5), MSB, NULL, bits, 1, 8, 1, t);
    CHECK_FLOAT(t[0][0], 0.0f);
    CHECK_FLOAT(t[7][0], 1.0f);
    /* POW2FIX2FLT: 8-bit / 256, signed / 128 */
    const uint8_t b88[2] = { 0x80, 0x80 };
    texels_of(3 | SEL(0, 1, 4, 5) | 1u << 6, POW2, NULL, b88, 2, 1, 1, t);
    CHECK_RGBA(t[0], 0.5f, -1.0f, 0.0f, 1.0f);
}

static void check_hand_signed_methods(void)
{
    float t[16][4];
    const uint8_t b[3] = { 0x80, 0x81, 0x00 }; /* -128, -127, 0 */
    struct vfetch_texel_options o;
    options_default(&o);
    static const float want[3][3] = {
        { -1.0f, -1.0f, 0.0f },                                /* clamp */
        { -128.0f / 127.0f, -1.0f, 0.0f },                     /* zero */
        { -255.0f / 255.0f, -253.0f / 255.0f, 1.0f / 255.0f }, /* no zero */
    };
    for (unsigned m = 0; m < 3; m++) {
        o.signed_method = (enum vfetch_texel_signed)m;
        texels_of(0 | SEL(0, 4, 4, 5) | 1u << 5, 0, &o, b, 3, 3, 1, t);
        for (unsigned i = 0; i < 3; i++)
            CHECK_FLOAT(t[i][0], want[m][i]);
    }
    /* one-bit signed fields (1_5_5_5's c3): 0 and -1, or +-1 without zero */
    const uint8_t one[2] = { 0x00, 0x80 };
    texels_of(11 | SEL(4, 4, 4, 3) | 1u << 8, 0, NULL, one, 2, 1, 1, t);
    CHECK_FLOAT(t[0][3], -1.0f);
    o.signed_method = VFETCH_TEXEL_SIGNED_NO_ZERO;
    const uint8_t zero[2] = { 0x00, 0x00 };
    texels_of(11 | SEL(4, 4, 4, 3) | 1u << 8, 0, &o, zero, 2, 1, 1, t);
    CHECK_FLOAT(t[0][3], 1.0f);
}

static void check_hand_floats(void)
{
    float t[16][4];
    const uint16_t h[4] = { 0x3C00, 0xC000, 0x0001, 0x7E00 };
    texels_of(26 | SEL_RGBA, 0, NULL, (const uint8_t *)h, 8, 1, 1, t);
    CHECK_RGBA(t[0], 1.0f, -2.0f, 0x1p-24f, test_bits_float(0x7FC00000u));
    texels_of(25 | SEL(1, 0, 4, 3), 0, NULL, (const uint8_t *)h, 4, 1, 1, t);
    CHECK_RGBA(t[0], -2.0f, 1.0f, 0.0f, 1.0f);
    const uint32_t f[4] = { 0x3F800000u, 0x80000000u, 0x7F800001u, 0x00000001u };
    texels_of(29 | SEL(3, 2, 1, 0), 0, NULL, (const uint8_t *)f, 16, 1, 1, t);
    /* compared as stored bytes: a float load (x87 on i386) would quiet the signalling NaN */
    uint32_t bits[4];
    memcpy(bits, t[0], 16);
    CHECK_EQ(bits[0], 0x00000001u);
    CHECK_EQ(bits[1], 0x7F800001u); /* signalling NaN kept as stored */
    CHECK_EQ(bits[2], 0x80000000u);
    CHECK_EQ(bits[3], 0x3F800000u);
    texels_of(27 | SEL_RGBA | 0xF << 5, 0, NULL, (const uint8_t *)f, 4, 1, 1, t); /* SIGNED ignored */
    CHECK_RGBA(t[0], 1.0f, 0.0f, 0.0f, 1.0f);
}

static void put_block_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void check_hand_blocks(void)
{
    float t[16][4];
    /* DXT1, four colours: c0 red 0xF800 > c1 blue 0x001F; indices 0, 1, 2, 3 in texels 0..3.
       Default order: component 0 = blue, so SEL R = 2, G = 1, B = 0 gives RGB. */
    uint8_t dxt1[8] = { 0x00, 0xF8, 0x1F, 0x00 };
    put_block_u32(dxt1 + 4, 0xE4);
    texels_of(15 | SEL(2, 1, 0, 3), 0, NULL, dxt1, 8, 4, 4, t);
    CHECK_RGBA(t[0], 1.0f, 0.0f, 0.0f, 1.0f);
    CHECK_RGBA(t[1], 0.0f, 0.0f, 1.0f, 1.0f);
    CHECK_RGBA(t[2], 170.0f / 255, 0.0f, 85.0f / 255, 1.0f);
    CHECK_RGBA(t[3], 85.0f / 255, 0.0f, 170.0f / 255, 1.0f);
    CHECK_RGBA(t[15], 1.0f, 0.0f, 0.0f, 1.0f);
    /* the RGBA order option: component 0 = red */
    struct vfetch_texel_options o;
    options_default(&o);
    o.dxt_order = VFETCH_TEXEL_DXT_RGBA;
    texels_of(15 | SEL_RGBA, 0, &o, dxt1, 8, 4, 4, t);
    CHECK_RGBA(t[2], 170.0f / 255, 0.0f, 85.0f / 255, 1.0f);
    /* rounding option: (2 * 255 + 0 + 1) / 3 = 170, (255 + 1) / 3 = 85: same here; green
       endpoints 0x07E0 and 0 (both 5-bit fields 0): (2 * 255 + 1) / 3 = 170 vs 170 */
    o.dxt_order = VFETCH_TEXEL_DXT_BGRA;
    o.dxt_interp = VFETCH_TEXEL_DXT_ROUND;
    uint8_t dxt1b[8] = { 0x01, 0x00, 0x00, 0x00 }; /* c0 blue 1 -> 8, c1 0: p2 = 16/3 */
    put_block_u32(dxt1b + 4, 0xE4);
    texels_of(15 | SEL(2, 1, 0, 3), 0, &o, dxt1b, 8, 4, 4, t);
    CHECK_FLOAT(t[2][2], 5.0f / 255); /* round(16 / 3) */
    CHECK_FLOAT(t[3][2], 3.0f / 255); /* round(8 / 3) */
    texels_of(15 | SEL(2, 1, 0, 3), 0, NULL, dxt1b, 8, 4, 4, t);
    CHECK_FLOAT(t[2][2], 5.0f / 255); /* 16 / 3 truncated */
    CHECK_FLOAT(t[3][2], 2.0f / 255); /* 8 / 3 truncated */
    /* DXT1, three colours (c0 <= c1): midpoint and transparent black */
    uint8_t dxt1c[8] = { 0x1F, 0x00, 0x00, 0xF8 };
    put_block_u32(dxt1c + 4, 0xE4);
    texels_of(15 | SEL(2, 1, 0, 3), 0, NULL, dxt1c, 8, 4, 4, t);
    CHECK_RGBA(t[2], 127.0f / 255, 0.0f, 127.0f / 255, 1.0f);
    CHECK_RGBA(t[3], 0.0f, 0.0f, 0.0f, 0.0f);
    /* DXT3: explicit 4-bit alpha x 17; colour block c0 <= c1 (three colours by default,
       always four under DXT35_FOUR_COLOUR) */
    uint8_t dxt3[16] = { 0x21, 0x00, 0, 0, 0, 0, 0, 0xF0 };
    memcpy(dxt3 + 8, dxt1c, 8);
    texels_of(16 | SEL(2, 1, 0, 3), 0, NULL, dxt3, 16, 4, 4, t);
    CHECK_RGBA(t[0], 0.0f, 0.0f, 1.0f, 17.0f / 255);
    CHECK_RGBA(t[1], 1.0f, 0.0f, 0.0f, 34.0f / 255);
    CHECK_RGBA(t[3], 0.0f, 0.0f, 0.0f, 0.0f);
    CHECK_FLOAT(t[15][3], 1.0f);
    o = (struct vfetch_texel_options){ 0 };
    options_default(&o);
    o.dxt35_colour = VFETCH_TEXEL_DXT35_FOUR_COLOUR;
    texels_of(16 | SEL(2, 1, 0, 3), 0, &o, dxt3, 16, 4, 4, t);
    CHECK_RGBA(t[3], 170.0f / 255, 0.0f, 85.0f / 255, 0.0f);
    /* DXT5 alpha: 8 values (255, 0): index 2 = 6 * 255 / 7 = 218; 6 values (0, 255):
       index 2 = 255 / 5 = 51, 6 -> 0, 7 -> 255 */
    uint8_t dxt5[16] = { 255, 0, 2 | 7 << 3, 0, 0, 0, 0, 0 };
    memcpy(dxt5 + 8, dxt1, 8);
    texels_of(17 | SEL(2, 1, 0, 3), 0, NULL, dxt5, 16, 4, 4, t);
    CHECK_FLOAT(t[0][3], 218.0f / 255);
    CHECK_FLOAT(t[1][3], 36.0f / 255); /* index 7: (0 * 255 + 6 * 0)... (1 * 255) / 7 */
    dxt5[0] = 0, dxt5[1] = 255, dxt5[2] = (2 | 6 << 3 | 7 << 6) & 255, dxt5[3] = 1;
    texels_of(17 | SEL(2, 1, 0, 3), 0, NULL, dxt5, 16, 4, 4, t);
    CHECK_FLOAT(t[0][3], 51.0f / 255);
    CHECK_FLOAT(t[1][3], 0.0f);
    CHECK_FLOAT(t[2][3], 1.0f);
    /* ATI1N: component 0; ATI2N: first half component 0, second half component 1 */
    const uint8_t bc4[8] = { 255, 0, 2, 0, 0, 0, 0, 0 };
    texels_of(5 | SEL(0, 0, 0, 5), MSB, NULL, bc4, 8, 4, 4, t);
    CHECK_RGBA(t[0], 218.0f / 255, 218.0f / 255, 218.0f / 255, 1.0f);
    CHECK_FLOAT(t[1][0], 1.0f);
    uint8_t bc5[16] = { 255, 0, 2, 0, 0, 0, 0, 0, 10, 20, 1, 0, 0, 0, 0, 0 };
    texels_of(31 | SEL(0, 1, 4, 5), 0, NULL, bc5, 16, 4, 4, t);
    CHECK_RGBA(t[0], 218.0f / 255, 20.0f / 255, 0.0f, 1.0f);
    CHECK_RGBA(t[1], 1.0f, 10.0f / 255, 0.0f, 1.0f);
    /* signed ATI1N: endpoints 127, -127; index 2 = (6 * 127 - 127) / 7 = 90 (toward zero) */
    const uint8_t bc4s[8] = { 127, 0x81, 2 | 1 << 3, 0, 0, 0, 0, 0 };
    texels_of(5 | SEL(0, 4, 4, 5) | 1u << 5, MSB, NULL, bc4s, 8, 4, 4, t);
    CHECK_FLOAT(t[0][0], 90.0f / 127);
    CHECK_FLOAT(t[1][0], -1.0f);
    /* D3D10 float interpolation: (6 * 255) / (7 * 255) = 6/7 */
    o = (struct vfetch_texel_options){ 0 };
    options_default(&o);
    o.bc_interp = VFETCH_TEXEL_BC_FLOAT;
    texels_of(5 | SEL(0, 4, 4, 5), MSB, &o, bc4, 8, 4, 4, t);
    CHECK_FLOAT(t[0][0], 1530.0f / 1785.0f);
}

static void check_hand_yuv(void)
{
    float t[16][4];
    struct vfetch_texel_options o;
    options_default(&o);
    /* CxV8U8: U, V signed; C = sqrt(1 - U^2 - V^2); SEL applies, component 3 reads 1 */
    const uint8_t cx[6] = { 0, 0, 127, 0, 0x81, 0x81 };
    texels_of(18 | SEL_RGBA, 0, NULL, cx, 6, 3, 1, t);
    CHECK_RGBA(t[0], 0.0f, 0.0f, 1.0f, 1.0f);
    CHECK_RGBA(t[1], 1.0f, 0.0f, 0.0f, 1.0f);
    CHECK_RGBA(t[2], -1.0f, -1.0f, 0.0f, 1.0f);
    /* code 18 as Y8 (option): (Y, Y, Y, 1), SEL ignored */
    o.code18 = VFETCH_TEXEL_CODE18_Y8;
    texels_of(18 | SEL(4, 4, 4, 4), 0, &o, cx + 2, 1, 1, 1, t);
    CHECK_RGBA(t[0], 127.0f / 255, 127.0f / 255, 127.0f / 255, 1.0f);
    /* AVYU444 bytes U, Y, V, A -> (U, Y, V, A); SEL ignored */
    const uint8_t avyu[4] = { 0x10, 0x20, 0x30, 0x40 };
    texels_of(19 | SEL(5, 5, 5, 5), 0, NULL, avyu, 4, 1, 1, t);
    CHECK_RGBA(t[0], 16.0f / 255, 32.0f / 255, 48.0f / 255, 64.0f / 255);
    /* VYUY422: memory Y0 U Y1 V; YVYU422: U Y0 V Y1 */
    const uint8_t yuyv[4] = { 1, 2, 3, 4 };
    texels_of(20, 0, NULL, yuyv, 4, 2, 1, t);
    CHECK_RGBA(t[0], 2.0f / 255, 1.0f / 255, 4.0f / 255, 1.0f);
    CHECK_RGBA(t[1], 2.0f / 255, 3.0f / 255, 4.0f / 255, 1.0f);
    texels_of(21, 0, NULL, yuyv, 4, 2, 1, t);
    CHECK_RGBA(t[0], 1.0f / 255, 2.0f / 255, 3.0f / 255, 1.0f);
    CHECK_RGBA(t[1], 1.0f / 255, 4.0f / 255, 3.0f / 255, 1.0f);
    /* SWAP_YUV inverts the top bit of U and V */
    texels_of(21 | 1u << 24, 0, NULL, yuyv, 4, 2, 1, t);
    CHECK_RGBA(t[0], 129.0f / 255, 2.0f / 255, 131.0f / 255, 1.0f);
    /* YUV_TO_RGB: BT.601 limited: (235, 128, 128) white, (16, 128, 128) black; Y 0 below */
    const uint8_t uyvy[4] = { 128, 235, 128, 16 };
    texels_of(21 | 1u << 22, 0, NULL, uyvy, 4, 2, 1, t);
    CHECK_RGBA(t[0], 1.0f, 1.0f, 1.0f, 1.0f);
    CHECK_RGBA(t[1], 0.0f, 0.0f, 0.0f, 1.0f);
    const uint8_t dark[4] = { 128, 0, 128, 0 };
    texels_of(21 | 1u << 22, 0, NULL, dark, 4, 2, 1, t);
    CHECK_RGBA(t[0], 0.0f, 0.0f, 0.0f, 1.0f);
    texels_of(21 | 2u << 22, 0, NULL, dark, 4, 2, 1, t);
    CHECK_FLOAT(t[0][0], (float)(-16.0 / 219.0));
    /* every Y, U, V against the double-precision formula (mode 2, no clamp) */
    uint8_t *all = malloc(256 * 256 * 4);
    float(*out)[4] = malloc(sizeof(float[4]) * 256 * 256);
    for (unsigned y = 0; y < 256; y += quick ? 25 : 5) {
        for (unsigned i = 0; i < 65536; i++) {
            all[4 * i] = (uint8_t)(i & 255), all[4 * i + 1] = (uint8_t)y;
            all[4 * i + 2] = (uint8_t)(i >> 8), all[4 * i + 3] = 255;
        }
        texels_of(19 | 2u << 22, 0, NULL, all, 256 * 256 * 4, 256, 256, out);
        unsigned bad = 0;
        for (unsigned i = 0; i < 65536; i++) {
            const double yy = ((double)y - 16) / 219, pb = ((double)(i & 255) - 128) / 224,
                         pr = ((double)(i >> 8) - 128) / 224;
            const double r = yy + 1.402 * pr, b = yy + 1.772 * pb,
                         g = yy - (2 * 0.114 * 0.886 / 0.587) * pb - (2 * 0.299 * 0.701 / 0.587) * pr;
            /* the library rounds a long double result once; double agrees to 1e-15 */
            if (fabs(out[i][0] - r) > 1e-6 || fabs(out[i][1] - g) > 1e-6 ||
                fabs(out[i][2] - b) > 1e-6 || out[i][3] != 1.0f)
                bad++;
        }
        CHECK_EQ(bad, 0);
    }
    free(all);
    free(out);
}

/* ---- exhaustive packed formats against an independent field table ---- */

struct field {
    unsigned shift, bits;
};
struct packed_format {
    unsigned code, msb, bytes, count;
    struct field f[4];
};
/* Transcribed from ../shared/spec/r500-tx-format1.txt (components right to left) and the
   decisions (10-bit formats in 16-bit containers, bits 9:0). */
static const struct packed_format packed[] = {
    { 0, 0, 1, 1, { { 0, 8 } } },
    { 1, 0, 2, 1, { { 0, 16 } } },
    { 2, 0, 1, 2, { { 0, 4 }, { 4, 4 } } },
    { 3, 0, 2, 2, { { 0, 8 }, { 8, 8 } } },
    { 4, 0, 4, 2, { { 0, 16 }, { 16, 16 } } },
    { 5, 0, 1, 3, { { 0, 2 }, { 2, 3 }, { 5, 3 } } },
    { 6, 0, 2, 3, { { 0, 5 }, { 5, 6 }, { 11, 5 } } },
    { 7, 0, 2, 3, { { 0, 5 }, { 5, 5 }, { 10, 6 } } },
    { 8, 0, 4, 3, { { 0, 10 }, { 10, 11 }, { 21, 11 } } },
    { 9, 0, 4, 3, { { 0, 11 }, { 11, 11 }, { 22, 10 } } },
    { 10, 0, 2, 4, { { 0, 4 }, { 4, 4 }, { 8, 4 }, { 12, 4 } } },
    { 11, 0, 2, 4, { { 0, 5 }, { 5, 5 }, { 10, 5 }, { 15, 1 } } },
    { 12, 0, 4, 4, { { 0, 8 }, { 8, 8 }, { 16, 8 }, { 24, 8 } } },
    { 13, 0, 4, 4, { { 0, 10 }, { 10, 10 }, { 20, 10 }, { 30, 2 } } },
    { 14, 0, 8, 4, { { 0, 16 }, { 16, 16 }, { 32, 16 }, { 48, 16 } } },
    { 2, 1, 2, 1, { { 0, 10 } } },
    { 3, 1, 4, 2, { { 0, 10 }, { 16, 10 } } },
    { 4, 1, 8, 4, { { 0, 10 }, { 16, 10 }, { 32, 10 }, { 48, 10 } } },
    { 6, 1, 4, 2, { { 0, 24 }, { 24, 8 } } },
};

static float expect_fixed(uint32_t v, unsigned n, int is_signed, unsigned method, int pow2)
{
    const double top = (double)((1ull << n) - 1);
    if (!is_signed)
        return pow2 ? (float)(v / 256.0) : (float)(v / top);
    const double s = v >= 1u << (n - 1) ? (double)v - (double)(1ull << n) : (double)v;
    if (pow2)
        return (float)(s / 128.0);
    if (method == VFETCH_TEXEL_SIGNED_NO_ZERO)
        return (float)((2 * s + 1) / top);
    if (n == 1)
        return (float)s;
    float q = (float)(s / (double)((1u << (n - 1)) - 1));
    if (method == VFETCH_TEXEL_SIGNED_CLAMP && q < -1.0f)
        q = -1.0f;
    return q;
}

static uint64_t rng_state = 0x1234567;
static uint64_t rnd64(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void check_packed_exhaustive(void)
{
    const size_t n = 65536;
    uint8_t *data = malloc(n * 8);
    float(*out)[4] = malloc(sizeof(float[4]) * n);
    uint8_t(*out8)[4] = malloc(4 * n);
    unsigned formats_checked = 0;
    for (unsigned i = 0; i < sizeof packed / sizeof packed[0]; i++) {
        const struct packed_format *pf = &packed[i];
        const size_t count = pf->bytes == 1 ? 256 : n;
        for (size_t t = 0; t < count; t++) {
            uint64_t v = pf->bytes <= 2 ? t : rnd64();
            for (unsigned b = 0; b < pf->bytes; b++)
                data[t * pf->bytes + b] = (uint8_t)(v >> (8 * b));
        }
        int all8 = 1;
        for (unsigned c = 0; c < pf->count; c++)
            all8 &= pf->f[c].bits == 8;
        for (unsigned variant = 0; variant < 10; variant++) {
            /* selections: identity, reversed, with constants; signs: none, all, alternate */
            static const unsigned sels[3][4] = { { 0, 1, 2, 3 }, { 3, 2, 1, 0 }, { 1, 5, 0, 4 } };
            const unsigned *sel = sels[variant % 3];
            const unsigned signs = variant < 3 ? 0 : variant < 6 ? 0xF : variant < 9 ? 0x5 : 0;
            const unsigned method = variant % 3;
            const int pow2 = variant == 9 && all8;
            if ((variant == 9 && !all8) || (quick && variant % 4 != 0 && variant != 9))
                continue;
            struct vfetch_texel_options o;
            options_default(&o);
            o.signed_method = (enum vfetch_texel_signed)method;
            const uint32_t f1 = pf->code | SEL(sel[0], sel[1], sel[2], sel[3]) | signs << 5;
            const uint32_t f2 = (pf->msb ? MSB : 0) | (pow2 ? POW2 : 0);
            vfetch_texel_plan *p = plan_of(f1, f2, &o);
            if (!p)
                continue;
            struct vfetch_texel_info info;
            vfetch_texel_plan_info(p, &info);
            CHECK_EQ(decode_all(p, data, count * pf->bytes, (uint32_t)count, 1,
                                VFETCH_TEXEL_RGBA32F, out), VFETCH_OK);
            int exact = !signs && !pow2;
            for (unsigned c = 0; c < 4; c++)
                if (sel[c] < pf->count && (pf->f[sel[c]].bits > 8 || (signs >> sel[c] & 1)))
                    exact = 0;
            CHECK_EQ(info.rgba8_exact, exact);
            if (exact)
                CHECK_EQ(decode_all(p, data, count * pf->bytes, (uint32_t)count, 1,
                                    VFETCH_TEXEL_RGBA8, out8), VFETCH_OK);
            unsigned bad = 0, bad8 = 0;
            for (size_t t = 0; t < count; t++) {
                uint64_t v = 0;
                for (unsigned b = 0; b < pf->bytes; b++)
                    v |= (uint64_t)data[t * pf->bytes + b] << (8 * b);
                for (unsigned c = 0; c < 4; c++) {
                    float want;
                    uint8_t want8;
                    const unsigned s = sel[c];
                    if (s == 4 || (s < 4 && s >= pf->count && s != 3))
                        want = 0.0f, want8 = 0;
                    else if (s == 5 || s >= pf->count)
                        want = 1.0f, want8 = 255;
                    else {
                        const unsigned nb = pf->f[s].bits;
                        const uint32_t field = (uint32_t)(v >> pf->f[s].shift) & (uint32_t)((1ull << nb) - 1);
                        want = expect_fixed(field, nb, signs >> s & 1, method, pow2);
                        want8 = (uint8_t)lround(255.0 * field / (double)((1ull << nb) - 1));
                    }
                    if (test_float_bits(out[t][c]) != test_float_bits(want)) {
                        if (bad++ < 3)
                            fprintf(stderr, "format %u msb %u variant %u value 0x%llx channel %u:"
                                    " %.9g want %.9g\n", pf->code, pf->msb, variant,
                                    (unsigned long long)v, c, (double)out[t][c], (double)want);
                    }
                    if (exact && (out8[t][c] != want8 ||
                                  out8[t][c] != (uint8_t)lround(255.0 * out[t][c])))
                        bad8++;
                }
            }
            CHECK_EQ(bad, 0);
            CHECK_EQ(bad8, 0);
            formats_checked++;
            vfetch_texel_plan_free(p);
        }
    }
    printf("  packed formats: %u format x selection x sign settings, every 8/16-bit value%s\n",
           formats_checked, quick ? " (quick: 4 of the 10 settings)" : "");
    free(data);
    free(out);
    free(out8);
}

/* Every binary16 value, 16f formats, against libfp16 (+ the quiet bit F16C sets). */
static void check_half_exhaustive(void)
{
    uint16_t *h = malloc(65536 * 2);
    float(*out)[4] = malloc(sizeof(float[4]) * 65536);
    for (uint32_t i = 0; i < 65536; i++)
        h[i] = (uint16_t)i;
    texels_of(24 | SEL(0, 4, 5, 0), 0, NULL, (const uint8_t *)h, 65536 * 2, 256, 256, out);
    unsigned bad = 0;
    for (uint32_t i = 0; i < 65536; i++) {
        uint32_t want = test_float_bits(fp16_ieee_to_fp32_value((uint16_t)i));
        if ((i & 0x7c00) == 0x7c00 && (i & 0x3ff))
            want |= 0x00400000u;
        if (test_float_bits(out[i][0]) != want || test_float_bits(out[i][3]) != want ||
            out[i][1] != 0.0f || out[i][2] != 1.0f)
            bad++;
    }
    CHECK_EQ(bad, 0);
    /* 16f_16f_16f_16f: the four halves of each texel in order */
    texels_of(26 | SEL(3, 2, 1, 0), 0, NULL, (const uint8_t *)h, 65536 * 2, 128, 128, out);
    bad = 0;
    for (uint32_t t = 0; t < 16384; t++)
        for (unsigned c = 0; c < 4; c++) {
            const uint32_t v = 4 * t + 3 - c;
            uint32_t want = test_float_bits(fp16_ieee_to_fp32_value((uint16_t)v));
            if ((v & 0x7c00) == 0x7c00 && (v & 0x3ff))
                want |= 0x00400000u;
            bad += test_float_bits(out[t][c]) != want;
        }
    CHECK_EQ(bad, 0);
    free(h);
    free(out);
}

/* The second endpoint of block row `row` in BC4 mode `mode`: the row itself, or under quick
   mode one of the 64 values of the mode's quarter. */
static int bc4_a1(size_t row, unsigned mode)
{
    return quick ? (int)((row * 4 + mode) & 255) : (int)row;
}

/* Every BC4 endpoint pair x index, in both rules, unsigned and signed. */
static void check_bc4_exhaustive(void)
{
    const size_t blocks = quick ? 16384 : 65536, rows = blocks / 256;
    uint8_t *data = malloc(blocks * 8);
    /* 256 x rows blocks = 1024 x 4 rows texels; block (bx, by) holds endpoints bx and
       bc4_a1(by, mode) */
    float(*out)[4] = malloc(sizeof(float[4]) * 1024 * 4 * rows);
    for (unsigned mode = 0; mode < 4; mode++) {
        for (size_t b = 0; b < blocks; b++) {
            data[8 * b] = (uint8_t)(b & 255), data[8 * b + 1] = (uint8_t)bc4_a1(b >> 8, mode);
            /* texels 0..7 take indices 0..7, texels 8..15 again 0..7 */
            uint64_t idx = 0;
            for (unsigned i = 0; i < 16; i++)
                idx |= (uint64_t)(i & 7) << (3 * i);
            for (unsigned k = 0; k < 6; k++)
                data[8 * b + 2 + k] = (uint8_t)(idx >> (8 * k));
        }
        const int is_signed = mode & 1, fl = mode >> 1;
        struct vfetch_texel_options o;
        options_default(&o);
        o.bc_interp = fl ? VFETCH_TEXEL_BC_FLOAT : VFETCH_TEXEL_BC_TRUNCATE;
        texels_of(5 | SEL(0, 4, 4, 5) | (uint32_t)is_signed << 5, MSB, &o, data, blocks * 8,
                  1024, (uint32_t)(4 * rows), out);
        unsigned bad = 0;
        for (size_t b = 0; b < blocks; b++) {
            int a0 = (int)(b & 255), a1 = bc4_a1(b >> 8, mode);
            if (is_signed)
                a0 = (int8_t)a0, a1 = (int8_t)a1;
            const size_t bx = b % 256, by = b / 256;
            for (unsigned i = 0; i < 8; i++) {
                float want;
                if (!fl) {
                    int v;
                    if (i < 2)
                        v = i ? a1 : a0;
                    else if (a0 > a1)
                        v = ((8 - (int)i) * a0 + ((int)i - 1) * a1) / 7;
                    else if (i < 6)
                        v = ((6 - (int)i) * a0 + ((int)i - 1) * a1) / 5;
                    else
                        v = i == 6 ? (is_signed ? -127 : 0) : (is_signed ? 127 : 255);
                    want = is_signed ? (v == -128 ? -1.0f : (float)(v / 127.0)) : (float)(v / 255.0);
                } else {
                    const double one = is_signed ? 127.0 : 255.0;
                    const int e0 = a0 < -127 ? -127 : a0, e1 = a1 < -127 ? -127 : a1;
                    if (i < 2)
                        want = (float)((i ? e1 : e0) / one);
                    else if (e0 > e1)
                        want = (float)(((8 - (int)i) * e0 + ((int)i - 1) * e1) / (7 * one));
                    else if (i < 6)
                        want = (float)(((6 - (int)i) * e0 + ((int)i - 1) * e1) / (5 * one));
                    else
                        want = i == 7 ? 1.0f : is_signed ? -1.0f : 0.0f;
                }
                const float *t = out[(by * 4 + i / 4) * 1024 + bx * 4 + i % 4];
                const float *t2 = out[(by * 4 + 2 + i / 4) * 1024 + bx * 4 + i % 4];
                if (test_float_bits(t[0]) != test_float_bits(want) ||
                    test_float_bits(t2[0]) != test_float_bits(want)) {
                    if (bad++ < 3)
                        fprintf(stderr, "bc4 mode %u a0 %d a1 %d index %u: %.9g want %.9g\n",
                                mode, a0, a1, i, (double)t[0], (double)want);
                }
            }
        }
        CHECK_EQ(bad, 0);
    }
    free(data);
    free(out);
}

/* GAMMA: sRGB / 2.2 per 8-bit-or-less code on R, G, B, never A; skipped for wider fields. */
static void check_gamma(void)
{
    uint8_t data[256 * 4];
    for (unsigned i = 0; i < 256; i++)
        data[4 * i] = data[4 * i + 1] = data[4 * i + 2] = data[4 * i + 3] = (uint8_t)i;
    float(*out)[4] = malloc(sizeof(float[4]) * 256);
    for (unsigned curve = 0; curve < 2; curve++) {
        struct vfetch_texel_options o;
        options_default(&o);
        o.gamma = (enum vfetch_texel_gamma)curve;
        texels_of(12 | SEL_RGBA | 1u << 21, 0, &o, data, sizeof data, 256, 1, out);
        unsigned bad = 0;
        for (unsigned i = 0; i < 256; i++) {
            const double x = i / 255.0;
            const double lin = curve ? pow(x, 2.2)
                               : x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4);
            for (unsigned c = 0; c < 3; c++)
                bad += fabs(out[i][c] - lin) > 1e-7 * (lin + 1e-30) + 1e-12;
            bad += test_float_bits(out[i][3]) != test_float_bits((float)(i / 255.0));
        }
        CHECK_EQ(bad, 0);
        CHECK_FLOAT(out[0][0], 0.0f);
        CHECK_FLOAT(out[255][0], 1.0f);
    }
    /* 5-bit fields: the curve of v / 31 */
    const uint8_t b565[2] = { 0x10, 0x00 }; /* c0 = 16 */
    float t[1][4];
    texels_of(6 | SEL(0, 1, 2, 5) | 1u << 21, 0, NULL, b565, 2, 1, 1, t);
    CHECK(fabs(t[0][0] - pow((16 / 31.0 + 0.055) / 1.055, 2.4)) < 1e-7);
    /* 16-bit fields, and signed ones, are left alone; RGBA8 output is refused */
    const uint16_t h = 0x8000;
    texels_of(1 | SEL(0, 0, 0, 5) | 1u << 21, 0, NULL, (const uint8_t *)&h, 2, 1, 1, t);
    CHECK_FLOAT(t[0][0], 32768.0f / 65535.0f);
    vfetch_texel_plan *p = plan_of(12 | SEL_RGBA | 1u << 21, 0, NULL);
    struct vfetch_texel_info info;
    vfetch_texel_plan_info(p, &info);
    CHECK_EQ(info.rgba8_exact, 0);
    vfetch_texel_plan_free(p);
    p = plan_of(12 | SEL(4, 4, 4, 3) | 1u << 21, 0, NULL); /* only alpha: nothing to linearise */
    vfetch_texel_plan_info(p, &info);
    CHECK_EQ(info.rgba8_exact, 1);
    vfetch_texel_plan_free(p);
    free(out);
}

/* ---- errors ---- */

static int compile_err(uint32_t f1, uint32_t f2, const struct vfetch_texel_options *o)
{
    vfetch_texel_plan *p = (vfetch_texel_plan *)(uintptr_t)1;
    const struct vfetch_texel_desc d = desc_of(f1, f2, o);
    int err = vfetch_texel_compile(&d, &p);
    if (err != VFETCH_OK)
        CHECK(p == (vfetch_texel_plan *)(uintptr_t)1); /* untouched */
    else
        vfetch_texel_plan_free(p);
    return err;
}

static void check_compile_errors(void)
{
    CHECK_EQ(compile_err(30, 0, NULL), VFETCH_ETEXEL_UNSUPPORTED);
    CHECK_EQ(compile_err(22, 0, NULL), VFETCH_ETEXEL_UNSUPPORTED);
    CHECK_EQ(compile_err(23, 0, NULL), VFETCH_ETEXEL_UNSUPPORTED);
    for (unsigned field = 0; field < 4; field++)
        for (unsigned v = 6; v < 8; v++)
            CHECK_EQ(compile_err(12 | v << (9 + 3 * field), 0, NULL), VFETCH_ERESERVED_SWIZZLE);
    CHECK_EQ(compile_err(12 | 3u << 25, 0, NULL), VFETCH_ETEXEL_RESERVED_COORD_TYPE);
    CHECK_EQ(compile_err(19 | 3u << 22, 0, NULL), VFETCH_ETEXEL_RESERVED_YUV_MODE);
    CHECK_EQ(compile_err(12 | 1u << 22, 0, NULL), VFETCH_ETEXEL_YUV_FORMAT);
    CHECK_EQ(compile_err(6 | 1u << 24, 0, NULL), VFETCH_ETEXEL_YUV_FORMAT);
    CHECK_EQ(compile_err(6, POW2, NULL), VFETCH_ETEXEL_POW2FIX_FORMAT);
    CHECK_EQ(compile_err(1, POW2, NULL), VFETCH_ETEXEL_POW2FIX_FORMAT);
    CHECK_EQ(compile_err(15, POW2, NULL), VFETCH_ETEXEL_POW2FIX_FORMAT);
    CHECK_EQ(compile_err(24, POW2, NULL), VFETCH_ETEXEL_POW2FIX_FORMAT);
    CHECK_EQ(compile_err(12, POW2, NULL), VFETCH_OK);
    CHECK_EQ(compile_err(18, POW2, NULL), VFETCH_OK);
    CHECK_EQ(compile_err(12 | 0x1Fu << 27, 0, NULL), VFETCH_OK); /* CACHE ignored */
    CHECK_EQ(compile_err(20 | 2u << 22 | 1u << 24, 0, NULL), VFETCH_OK);
    struct vfetch_texel_options o;
    options_default(&o);
    o.gamma = (enum vfetch_texel_gamma)2;
    CHECK_EQ(compile_err(12, 0, &o), VFETCH_EINVAL);
    options_default(&o);
    o.dxt35_colour = (enum vfetch_texel_dxt35_colour)7;
    CHECK_EQ(compile_err(12, 0, &o), VFETCH_EINVAL);
    const struct vfetch_texel_desc d12 = desc_of(12, 0, NULL);
    CHECK_EQ(vfetch_texel_compile(&d12, NULL), VFETCH_EINVAL);
    vfetch_texel_plan *untouched = (vfetch_texel_plan *)(uintptr_t)1;
    CHECK_EQ(vfetch_texel_compile(NULL, &untouched), VFETCH_EINVAL);
    CHECK(untouched == (vfetch_texel_plan *)(uintptr_t)1);
    for (int code = VFETCH_ETEXEL_UNSUPPORTED; code > VFETCH_ECOUNT; code--)
        CHECK(strcmp(vfetch_strerror(code), "unknown error") != 0);
}

static void check_decode_errors(void)
{
    vfetch_texel_plan *p = plan_of(15 | SEL(2, 1, 0, 3), 0, NULL); /* DXT1: 4x4 blocks, 8 B */
    vfetch_texel_plan *cube = plan_of(12 | SEL_RGBA | 2u << 25, 0, NULL);
    vfetch_texel_plan *half = plan_of(24, 0, NULL);
    uint8_t src[8 * 4 * 2] = { 0 }; /* 16 x 8 texels: 4 x 2 blocks */
    uint8_t out[16 * 8 * 16];
    memset(out, 0x5A, sizeof out);
    const struct vfetch_texel_surface good = { src, sizeof src, 16, 8, 1, 0,
                                               VFETCH_TEXEL_PITCH_BYTES, 0 };
    const struct vfetch_texel_target tgood = { out, sizeof out, VFETCH_TEXEL_RGBA32F, 0, 0 };
    struct vfetch_texel_surface s;
    struct vfetch_texel_target t;
#define TRY(plan, region, want)                                                             \
    CHECK_EQ(vfetch_texel_decode((plan), &s, (region), &t), (want))
    s = good, t = tgood;
    CHECK_EQ(vfetch_texel_decode(NULL, &s, NULL, &t), VFETCH_EINVAL);
    CHECK_EQ(vfetch_texel_decode(p, NULL, NULL, &t), VFETCH_EINVAL);
    CHECK_EQ(vfetch_texel_decode(p, &s, NULL, NULL), VFETCH_EINVAL);
    s.data = NULL;
    TRY(p, NULL, VFETCH_EINVAL);
    s = good, t.format = (enum vfetch_texel_output)2;
    TRY(p, NULL, VFETCH_EINVAL);
    t = tgood, s.pitch_unit = (enum vfetch_texel_pitch_unit)2;
    TRY(p, NULL, VFETCH_EINVAL);
    s = good, s.width = 0;
    TRY(p, NULL, VFETCH_ETEXEL_SURFACE_LAYOUT);
    s = good, s.depth = 2; /* 2D */
    TRY(p, NULL, VFETCH_ETEXEL_SURFACE_LAYOUT);
    s = good, s.width = 2, s.height = 2, s.size = 64, s.depth = 5;
    TRY(cube, NULL, VFETCH_ETEXEL_SURFACE_LAYOUT);
    s = good, s.pitch = 31; /* a row of 4 blocks is 32 bytes */
    TRY(p, NULL, VFETCH_ETEXEL_SURFACE_LAYOUT);
    s = good, s.pitch = 3, s.pitch_unit = VFETCH_TEXEL_PITCH_BLOCKS;
    TRY(p, NULL, VFETCH_ETEXEL_SURFACE_LAYOUT);
    s = good, s.width = 2, s.height = 2, s.size = 64 * 6, s.depth = 6, s.slice_pitch = 15;
    TRY(cube, NULL, VFETCH_ETEXEL_SURFACE_LAYOUT);
    s = good;
    struct vfetch_texel_region r = { 1, 1, 0, 16, 1, 1 };
    TRY(p, &r, VFETCH_ETEXEL_REGION);
    r = (struct vfetch_texel_region){ 0, 8, 0, 1, 1, 1 };
    TRY(p, &r, VFETCH_ETEXEL_REGION);
    r = (struct vfetch_texel_region){ 0, 0, 1, 1, 1, 1 };
    TRY(p, &r, VFETCH_ETEXEL_REGION);
    r = (struct vfetch_texel_region){ 0xFFFFFFFFu, 0, 0, 2, 1, 1 };
    TRY(p, &r, VFETCH_ETEXEL_REGION);
    s.size = sizeof src - 1;
    TRY(p, NULL, VFETCH_ETEXEL_SHORT_SURFACE);
    r = (struct vfetch_texel_region){ 0, 0, 0, 12, 8, 1 }; /* does not read the last block */
    t.size = 12 * 8 * 16;
    TRY(p, &r, VFETCH_OK);
    s = good, t = tgood;
    t.format = VFETCH_TEXEL_RGBA8;
    s.width = 4; /* 4 x 8 halves: the 64 bytes */
    TRY(half, NULL, VFETCH_ETEXEL_RGBA8_INEXACT);
    s = good, t = tgood, t.size = sizeof out - 1;
    TRY(p, NULL, VFETCH_ESHORT_OUTPUT);
    t = tgood, t.pitch = 16 * 16 - 4;
    TRY(p, NULL, VFETCH_ESHORT_OUTPUT);
    s = good, s.pitch = SIZE_MAX / 2 + 1;
    t = tgood;
    TRY(p, NULL, VFETCH_EOVERFLOW);
    /* nothing written by any of the failures above (only the two OK decodes wrote, and they
       wrote zeros: an all-zero DXT1 block is black, alpha 1); an empty region is fine */
    memset(out, 0x5A, sizeof out);
    s = good, t = tgood;
    s.size = 0;
    TRY(p, NULL, VFETCH_ETEXEL_SHORT_SURFACE);
    r = (struct vfetch_texel_region){ 3, 3, 0, 0, 5, 1 };
    TRY(p, &r, VFETCH_OK);
    /* an empty region is checked like any other for what needs no texel */
    t.size = 0;
    TRY(p, &r, VFETCH_OK);
    r = (struct vfetch_texel_region){ 3, 3, 0, 2, 0, 1 };
    t.pitch = 2 * 16 - 1;
    TRY(p, &r, VFETCH_ESHORT_OUTPUT);
    t = tgood, t.format = VFETCH_TEXEL_RGBA8, t.size = 0;
    s.width = 4, s.size = 64;
    r = (struct vfetch_texel_region){ 0, 0, 0, 0, 0, 1 };
    TRY(half, &r, VFETCH_ETEXEL_RGBA8_INEXACT);
    r = (struct vfetch_texel_region){ 0, 0, 0, 1, 1, 1 };
    TRY(half, &r, VFETCH_ETEXEL_RGBA8_INEXACT);
    int untouched = 1;
    for (size_t i = 0; i < sizeof out; i++)
        untouched &= out[i] == 0x5A;
    CHECK(untouched);
#undef TRY
    vfetch_texel_plan_free(p);
    vfetch_texel_plan_free(cube);
    vfetch_texel_plan_free(half);
}

/* ---- the surface walker ---- */

/* Regions, byte and block pitches, slices: every texel of a region decode equals the same
   texel of the whole-surface decode, on surfaces placed against guard pages. */
static void check_regions(void)
{
    static const struct { uint32_t f1, f2; } words[] = {
        { 15 | SEL(2, 1, 0, 3) | 1u << 25, 0 }, { 17 | SEL(2, 1, 0, 3) | 1u << 25, 0 },
        { 5 | SEL(0, 0, 0, 5) | 1u << 25, MSB }, { 31 | SEL(0, 1, 4, 5) | 1u << 25, 0 },
        { 6 | SEL(2, 1, 0, 5) | 1u << 25, 0 },  { 12 | SEL(2, 1, 0, 3) | 1u << 25, 0 },
        { 0 | SEL(0, 0, 0, 5) | 1u << 25, MSB }, { 20 | 1u << 25, 0 },
        { 26 | SEL_RGBA | 1u << 25, 0 },       { 29 | SEL_RGBA | 1u << 25, 0 },
    };
    unsigned compared = 0;
    for (unsigned wi = 0; wi < sizeof words / sizeof words[0]; wi++) {
        vfetch_texel_plan *p = plan_of(words[wi].f1, words[wi].f2, NULL);
        struct vfetch_texel_info info;
        vfetch_texel_plan_info(p, &info);
        for (unsigned trial = 0; trial < 40; trial++) {
            const uint32_t w = 1 + (uint32_t)(rnd64() % 37), h = 1 + (uint32_t)(rnd64() % 13),
                           d = 1 + (uint32_t)(rnd64() % 3);
            const size_t bx = (w + info.block_width - 1) / info.block_width;
            const size_t by = (h + info.block_height - 1) / info.block_height;
            const size_t pad = rnd64() % 3;
            const size_t pitch = (bx + pad) * info.block_bytes;
            const size_t slice = pitch * by + (rnd64() % 2) * 8;
            const size_t size = (d - 1) * slice + (by - 1) * pitch + bx * info.block_bytes;
            uint8_t *src = (trial & 1) ? guard_alloc_head(size) : guard_alloc_tail(size);
            for (size_t i = 0; i < size; i++)
                src[i] = (uint8_t)rnd64();
            struct vfetch_texel_surface s = { src, size, w, h, d, pitch, VFETCH_TEXEL_PITCH_BYTES,
                                              slice };
            if (trial & 2) /* the same pitch counted in blocks */
                s.pitch = bx + pad, s.pitch_unit = VFETCH_TEXEL_PITCH_BLOCKS;
            const size_t all_size = (size_t)w * h * d * 16;
            float *all = malloc(all_size);
            struct vfetch_texel_target ta = { all, all_size, VFETCH_TEXEL_RGBA32F, 0, 0 };
            CHECK_EQ(vfetch_texel_decode(p, &s, NULL, &ta), VFETCH_OK);
            struct vfetch_texel_region r;
            r.x = (uint32_t)(rnd64() % w), r.y = (uint32_t)(rnd64() % h), r.z = (uint32_t)(rnd64() % d);
            r.width = 1 + (uint32_t)(rnd64() % (w - r.x));
            r.height = 1 + (uint32_t)(rnd64() % (h - r.y));
            r.depth = 1 + (uint32_t)(rnd64() % (d - r.z));
            const int u8 = info.rgba8_exact && (trial & 4);
            const size_t tb = u8 ? 4 : 16;
            const size_t opitch = r.width * tb + (trial & 8 ? 8 : 0);
            const size_t oslice = opitch * r.height;
            const size_t osize = (r.depth - 1) * oslice + (r.height - 1) * opitch + r.width * tb;
            uint8_t *o = guard_alloc_tail(osize);
            memset(o, 0xEE, osize);
            struct vfetch_texel_target tr = { o, osize, u8 ? VFETCH_TEXEL_RGBA8 : VFETCH_TEXEL_RGBA32F,
                                              opitch, 0 };
            CHECK_EQ(vfetch_texel_decode(p, &s, &r, &tr), VFETCH_OK);
            unsigned bad = 0;
            for (uint32_t z = 0; z < r.depth; z++)
                for (uint32_t y = 0; y < r.height; y++) {
                    for (uint32_t x = 0; x < r.width; x++) {
                        const float *want = all + 4 * (((size_t)(r.z + z) * h + r.y + y) * w + r.x + x);
                        const uint8_t *got = o + z * oslice + y * opitch + x * tb;
                        for (unsigned c = 0; c < 4; c++) {
                            if (u8)
                                bad += got[c] != (uint8_t)lround(want[c] * 255.0);
                            else
                                bad += memcmp(got + 4 * c, &want[c], 4) != 0;
                        }
                    }
                    if (trial & 8) /* the pitch padding stays */
                        for (size_t k = r.width * tb; k < opitch && (y + 1 < r.height || z + 1 < r.depth); k++)
                            bad += o[z * oslice + y * opitch + k] != 0xEE;
                }
            CHECK_EQ(bad, 0);
            compared++;
            guard_free(o);
            guard_free(src);
            free(all);
        }
        vfetch_texel_plan_free(p);
    }
    printf("  regions: %u region decodes equal their whole-surface texels\n", compared);
}

/* ---- sizes near 2^32 ---- */

/* Regions at the far edge of surfaces 0xFFFFFFFF texels wide or tall (sparse mappings: only
   the blocks a region reads are touched) decode like the same blocks cut out as a small
   surface, and write only the region's texels (the target ends at a guard page). The walk once
   computed x + width + block_w - 1 in 32 bits here and wrote gigabytes past the target. Where
   the surface's bytes do not fit size_t (32-bit processes), the decode is VFETCH_EOVERFLOW. */
static void check_huge_surfaces(void)
{
    static const struct { uint32_t f1, f2; } words[] = {
        { 0 | SEL(0, 0, 0, 5), MSB },   /* TX_FMT_1: 8 x 1 blocks of 1 byte */
        { 15 | SEL(2, 1, 0, 3), 0 },    /* DXT1: 4 x 4, 8 bytes */
        { 31 | SEL(0, 1, 4, 5), 0 },    /* ATI2N: 4 x 4, 16 bytes */
        { 20, 0 },                      /* a 422 format: 2 x 1, 4 bytes */
        { 6 | SEL(2, 1, 0, 5), 0 },     /* one texel a block, 4 bytes */
    };
    unsigned decoded = 0, overflowed = 0, unmappable = 0;
    for (unsigned wi = 0; wi < sizeof words / sizeof words[0]; wi++) {
        vfetch_texel_plan *p = plan_of(words[wi].f1, words[wi].f2, NULL);
        struct vfetch_texel_info info;
        vfetch_texel_plan_info(p, &info);
        const uint32_t bw = info.block_width, bh = info.block_height, bb = info.block_bytes;
        for (unsigned trial = 0; trial < 24; trial++) {
            const int tall = trial & 1;
            const uint32_t W = tall ? 1 + (uint32_t)(rnd64() % 9) : 0xFFFFFFFFu - (uint32_t)(rnd64() % 3);
            const uint32_t H = tall ? 0xFFFFFFFFu - (uint32_t)(rnd64() % 3) : 1 + (uint32_t)(rnd64() % 6);
            /* the region's far edge at the surface's, or a few texels short of it */
            const uint32_t along = tall ? H : W, across = tall ? W : H;
            const uint32_t end = along - (uint32_t)(rnd64() % 3 == 0 ? rnd64() % 5 : 0);
            const uint32_t len = 1 + (uint32_t)(rnd64() % 13);
            const uint32_t c0 = (uint32_t)(rnd64() % across);
            const uint32_t clen = 1 + (uint32_t)(rnd64() % (across - c0));
            struct vfetch_texel_region r = { 0, 0, 0, 0, 0, 1 };
            if (tall)
                r.y = end - len, r.height = len, r.x = c0, r.width = clen;
            else
                r.x = end - len, r.width = len, r.y = c0, r.height = clen;
            const uint64_t bx = ((uint64_t)W + bw - 1) / bw, by = ((uint64_t)H + bh - 1) / bh;
            const uint64_t size64 = bx * bb * by;
            const size_t tb = info.rgba8_exact && (trial & 2) ? 4 : 16;
            const size_t osize = (size_t)r.width * r.height * tb;
            uint8_t *o = guard_alloc_tail(osize), *o_small = malloc(osize);
            memset(o, 0xEE, osize);
            struct vfetch_texel_target t = { o, osize, tb == 4 ? VFETCH_TEXEL_RGBA8 : VFETCH_TEXEL_RGBA32F,
                                             0, 0 };
            if (size64 <= SIZE_MAX && size64 > guard_sparse_limit()) {
                unmappable++; /* under an emulator: only the smaller surfaces */
                guard_free(o);
                free(o_small);
                continue;
            }
            uint8_t *src = size64 <= SIZE_MAX ? guard_alloc_tail((size_t)size64) : NULL;
            if (!src) {
                /* no address space for it: a size that does not fit size_t is an overflow */
                static uint8_t dummy[16];
                const struct vfetch_texel_surface s = { dummy, SIZE_MAX, W, H, 1, 0,
                                                        VFETCH_TEXEL_PITCH_BYTES, 0 };
                if (size64 > SIZE_MAX) {
                    CHECK_EQ(vfetch_texel_decode(p, &s, &r, &t), VFETCH_EOVERFLOW);
                    overflowed++;
                } else if (sizeof(size_t) < 8) {
                    unmappable++; /* a 32-bit address space: fits size_t, not the process */
                } else {
                    fprintf(stderr, "texel: cannot map %llu bytes for a %ux%u surface\n",
                            (unsigned long long)size64, W, H);
                    test_failures++;
                }
                guard_free(o);
                free(o_small);
                continue;
            }
            const size_t pitch = (size_t)(bx * bb);
            /* the blocks the region reads, random; copied into a small surface of just them */
            const uint64_t bx0 = r.x / bw, bx1 = ((uint64_t)r.x + r.width + bw - 1) / bw;
            const uint64_t by0 = r.y / bh, by1 = ((uint64_t)r.y + r.height + bh - 1) / bh;
            const size_t small_pitch = (size_t)(bx1 - bx0) * bb;
            uint8_t *small = malloc(small_pitch * (size_t)(by1 - by0));
            for (uint64_t y = by0; y < by1; y++)
                for (size_t k = 0; k < small_pitch; k++) {
                    const uint8_t v = (uint8_t)rnd64();
                    src[(size_t)y * pitch + (size_t)bx0 * bb + k] = v;
                    small[(size_t)(y - by0) * small_pitch + k] = v;
                }
            const struct vfetch_texel_surface s = { src, (size_t)size64, W, H, 1, 0,
                                                    VFETCH_TEXEL_PITCH_BYTES, 0 };
            CHECK_EQ(vfetch_texel_decode(p, &s, &r, &t), VFETCH_OK);
            const uint32_t sx0 = (uint32_t)(bx0 * bw), sy0 = (uint32_t)(by0 * bh);
            const struct vfetch_texel_surface ss = {
                small, small_pitch * (size_t)(by1 - by0), r.x + r.width - sx0, r.y + r.height - sy0,
                1, 0, VFETCH_TEXEL_PITCH_BYTES, 0
            };
            const struct vfetch_texel_region sr = { r.x - sx0, r.y - sy0, 0, r.width, r.height, 1 };
            struct vfetch_texel_target st = t;
            st.data = o_small;
            memset(o_small, 0xEE, osize);
            CHECK_EQ(vfetch_texel_decode(p, &ss, &sr, &st), VFETCH_OK);
            if (memcmp(o, o_small, osize) != 0) {
                fprintf(stderr, "texel: %s %ux%u region (%u,%u) %ux%u differs from its blocks\n",
                        info.name, W, H, r.x, r.y, r.width, r.height);
                test_failures++;
            }
            test_checks++;
            decoded++;
            free(small);
            guard_free(src);
            guard_free(o);
            free(o_small);
        }
        vfetch_texel_plan_free(p);
    }
    printf("  huge surfaces: %u far-edge regions decoded like their blocks, %u sizes past size_t "
           "refused, %u too large for this address space or emulator\n", decoded, overflowed, unmappable);
}

static void check_info_and_describe(void)
{
    static const struct { uint32_t f1, f2, bw, bh, bb; int exact; } rows[] = {
        { 15, 0, 4, 4, 8, 1 },  { 16, 0, 4, 4, 16, 1 }, { 5, MSB, 4, 4, 8, 1 },
        { 31, 0, 4, 4, 16, 1 }, { 0, MSB, 8, 1, 1, 1 }, { 20, 0, 2, 1, 4, 1 },
        { 14, 0, 1, 1, 8, 0 },  { 29, 0, 1, 1, 16, 0 }, { 18, 0, 1, 1, 2, 0 },
        { 6, MSB, 1, 1, 4, 0 },
    };
    for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        vfetch_texel_plan *p = plan_of(rows[i].f1 | SEL_RGBA, rows[i].f2, NULL);
        struct vfetch_texel_info info;
        CHECK_EQ(vfetch_texel_plan_info(p, &info), VFETCH_OK);
        CHECK_EQ(info.block_width, rows[i].bw);
        CHECK_EQ(info.block_height, rows[i].bh);
        CHECK_EQ(info.block_bytes, rows[i].bb);
        CHECK_EQ(info.rgba8_exact, rows[i].exact);
        char text[2048];
        const size_t n = vfetch_texel_plan_describe(p, text, sizeof text);
        CHECK(n > 0 && n < sizeof text && strstr(text, info.name) != NULL);
        char small[8];
        CHECK_EQ(vfetch_texel_plan_describe(p, small, sizeof small), n);
        CHECK_EQ(strlen(small), sizeof small - 1);
        vfetch_texel_plan_free(p);
    }
    CHECK_EQ(vfetch_texel_plan_info(NULL, NULL), VFETCH_EINVAL);
    vfetch_texel_plan *p = plan_of(12 | 1u << 25, 0, NULL);
    struct vfetch_texel_info info;
    vfetch_texel_plan_info(p, &info);
    CHECK_EQ(info.coord_type, VFETCH_TEXEL_3D);
    vfetch_texel_plan_free(p);
}

int main(void)
{
    quick = getenv("VFETCH_TEST_QUICK") != NULL;
    check_hand_packed();
    check_hand_signed_methods();
    check_hand_floats();
    check_hand_blocks();
    check_hand_yuv();
    check_packed_exhaustive();
    check_half_exhaustive();
    check_bc4_exhaustive();
    check_gamma();
    check_compile_errors();
    check_decode_errors();
    check_regions();
    check_huge_surfaces();
    check_info_and_describe();
    return test_summary("texel");
}
