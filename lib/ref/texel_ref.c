/*
 * The texel reference decoder: the oracle every SIMD kernel is checked against. Written
 * straight from the register document and docs/texel.md, one block at a time, no tricks.
 *
 * A block decodes in three steps: its texels' components (a small unsigned code where the
 * component has one, and the float the component filter makes of it), then YUV math, then
 * the channel selection and gamma.
 */
#include <math.h>
#include <string.h>

#include "ref/ref.h"
#include "ref/texel_ref.h"
#include "texel/texel_internal.h"

/* The most texels one block holds (4x4). */
#define BLOCK_TEXELS 16

/* One texel's components: the float value, and where it is a small unsigned code (fixed
   point of 8 bits or fewer, a DXT/BC 8-bit palette value) the code and its width. */
struct components {
    float f[4];
    uint32_t code[4];
    uint8_t code_bits[4];
};

static uint64_t load_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* Float components travel as bits: on 32-bit x86 the reference keeps the i686 baseline (x87),
   where loading a signalling NaN into a register would quiet it. */
static void set_bits(float *f, uint32_t bits)
{
    memcpy(f, &bits, 4);
}

/* An unsigned n-bit code as the component filter reads it. */
static float unsigned_value(const struct vfetch_texel_plan *p, uint32_t v, unsigned n)
{
    if (p->pow2)
        return (float)v / 256.0f;
    return (float)v / (float)((1u << n) - 1);
}

/* A signed n-bit two's-complement value v (already sign-extended). */
static float signed_value(const struct vfetch_texel_plan *p, int32_t v, unsigned n)
{
    if (p->pow2)
        return (float)v / 128.0f;
    const enum vfetch_texel_signed method = p->options.signed_method;
    if (method == VFETCH_TEXEL_SIGNED_NO_ZERO)
        return (float)(2 * v + 1) / (float)((1u << n) - 1);
    if (n == 1) /* 2^(n-1) - 1 = 0: the value itself, 0 or -1 */
        return (float)v;
    const float q = (float)v / (float)((1u << (n - 1)) - 1);
    if (method == VFETCH_TEXEL_SIGNED_CLAMP && q < -1.0f)
        return -1.0f;
    return q;
}

static int32_t sign_extend(uint32_t v, unsigned n)
{
    return (int32_t)(v << (32 - n)) >> (32 - n);
}

/* Component c of a fixed-point code v of n bits. */
static void set_fixed(const struct vfetch_texel_plan *p, struct components *t, unsigned c,
                      uint32_t v, unsigned n)
{
    if (p->is_signed[c]) {
        t->f[c] = signed_value(p, sign_extend(v, n), n);
    } else {
        t->f[c] = unsigned_value(p, v, n);
        if (n <= 8)
            t->code[c] = v, t->code_bits[c] = (uint8_t)n;
    }
}

/* ---- DXT1/3/5 ---- */

static void dxt_endpoint(uint16_t c, unsigned rgb[3])
{
    const unsigned r = c >> 11 & 31, g = c >> 5 & 63, b = c & 31;
    rgb[0] = r << 3 | r >> 2;
    rgb[1] = g << 2 | g >> 4;
    rgb[2] = b << 3 | b >> 2;
}

/* The colour block at b (8 bytes) -> 16 texels of R, G, B, A codes. */
static void dxt_colour(const struct vfetch_texel_plan *p, const uint8_t *b, int three_colour_ok,
                       uint8_t out[BLOCK_TEXELS][4])
{
    const uint16_t c0 = (uint16_t)load_le(b, 2), c1 = (uint16_t)load_le(b + 2, 2);
    const uint32_t idx = (uint32_t)load_le(b + 4, 4);
    const unsigned r = p->options.dxt_interp == VFETCH_TEXEL_DXT_ROUND;
    unsigned pal[4][4];
    dxt_endpoint(c0, pal[0]);
    dxt_endpoint(c1, pal[1]);
    pal[0][3] = pal[1][3] = pal[2][3] = pal[3][3] = 255;
    if (c0 > c1 || !three_colour_ok) {
        for (unsigned k = 0; k < 3; k++) {
            pal[2][k] = (2 * pal[0][k] + pal[1][k] + r) / 3;
            pal[3][k] = (pal[0][k] + 2 * pal[1][k] + r) / 3;
        }
    } else {
        for (unsigned k = 0; k < 3; k++) {
            pal[2][k] = (pal[0][k] + pal[1][k] + r) / 2;
            pal[3][k] = 0;
        }
        pal[3][3] = 0; /* transparent black (DXT3/5 replace the alpha) */
    }
    for (unsigned i = 0; i < BLOCK_TEXELS; i++)
        for (unsigned k = 0; k < 4; k++)
            out[i][k] = (uint8_t)pal[idx >> (2 * i) & 3][k];
}

/* An 8-bit interpolated alpha/BC4 palette (unsigned, or signed two's complement), integer
   rule: truncated (C division) or rounded to nearest. */
static void alpha_palette_int(int a0, int a1, int is_signed, int round, int pal[8])
{
    pal[0] = a0;
    pal[1] = a1;
    if (a0 > a1) {
        for (int i = 1; i < 7; i++) {
            const int num = (7 - i) * a0 + i * a1;
            pal[i + 1] = round ? (num >= 0 ? (num + 3) / 7 : -((-num + 3) / 7)) : num / 7;
        }
    } else {
        for (int i = 1; i < 5; i++) {
            const int num = (5 - i) * a0 + i * a1;
            pal[i + 1] = round ? (num >= 0 ? (num + 2) / 5 : -((-num + 2) / 5)) : num / 5;
        }
        pal[6] = is_signed ? -127 : 0;
        pal[7] = is_signed ? 127 : 255;
    }
}

/* One 8-byte BC4 block into component c of 16 texels. */
static void bc4_block(const struct vfetch_texel_plan *p, const uint8_t *b, unsigned c,
                      struct components t[BLOCK_TEXELS])
{
    const uint64_t idx = load_le(b + 2, 6);
    const int is_signed = p->is_signed[c];
    int a0 = is_signed ? (int8_t)b[0] : b[0], a1 = is_signed ? (int8_t)b[1] : b[1];
    if (p->options.bc_interp == VFETCH_TEXEL_BC_FLOAT) {
        /* D3D10: the exact rational rounded once; signed endpoints -128 read as -127. */
        if (is_signed) {
            a0 = a0 < -127 ? -127 : a0;
            a1 = a1 < -127 ? -127 : a1;
        }
        const float one = is_signed ? 127.0f : 255.0f;
        for (unsigned i = 0; i < BLOCK_TEXELS; i++) {
            const unsigned k = (unsigned)(idx >> (3 * i) & 7);
            float v;
            if (k < 2)
                v = (float)(k ? a1 : a0) / one;
            else if (a0 > a1)
                v = (float)((int)(8 - k) * a0 + (int)(k - 1) * a1) / (7.0f * one);
            else if (k < 6)
                v = (float)((int)(6 - k) * a0 + (int)(k - 1) * a1) / (5.0f * one);
            else
                v = k == 7 ? 1.0f : is_signed ? -1.0f : 0.0f;
            t[i].f[c] = v;
        }
        return;
    }
    int pal[8];
    alpha_palette_int(a0, a1, is_signed, 0, pal);
    for (unsigned i = 0; i < BLOCK_TEXELS; i++) {
        const int v = pal[idx >> (3 * i) & 7];
        set_fixed(p, &t[i], c, (uint32_t)v & 0xff, 8);
    }
}

static void dxt_block(const struct vfetch_texel_plan *p, const uint8_t *b,
                      struct components t[BLOCK_TEXELS])
{
    const unsigned cls = p->format->cls;
    uint8_t rgba[BLOCK_TEXELS][4];
    const int three_colour_ok = cls == VFETCH_TEXEL_CLASS_DXT1 ||
                                p->options.dxt35_colour == VFETCH_TEXEL_DXT35_AS_DXT1;
    dxt_colour(p, cls == VFETCH_TEXEL_CLASS_DXT1 ? b : b + 8, three_colour_ok, rgba);
    if (cls == VFETCH_TEXEL_CLASS_DXT3) {
        const uint64_t a = load_le(b, 8);
        for (unsigned i = 0; i < BLOCK_TEXELS; i++)
            rgba[i][3] = (uint8_t)((a >> (4 * i) & 15) * 17);
    } else if (cls == VFETCH_TEXEL_CLASS_DXT5) {
        int pal[8];
        alpha_palette_int(b[0], b[1], 0, p->options.dxt_interp == VFETCH_TEXEL_DXT_ROUND, pal);
        const uint64_t idx = load_le(b + 2, 6);
        for (unsigned i = 0; i < BLOCK_TEXELS; i++)
            rgba[i][3] = (uint8_t)pal[idx >> (3 * i) & 7];
    }
    for (unsigned i = 0; i < BLOCK_TEXELS; i++) {
        for (unsigned k = 0; k < 3; k++)
            set_fixed(p, &t[i], p->dxt_comp[k], rgba[i][k], 8);
        set_fixed(p, &t[i], 3, rgba[i][3], 8);
    }
}

/* ---- YUV ---- */

/* BT.601 limited range (Y 16..235, C 16..240) -> R, G, B, each exact value rounded once. */
static void yuv_to_rgb(const struct vfetch_texel_plan *p, unsigned y, unsigned u, unsigned v,
                       float rgb[3])
{
    const long double kr = 0.299L, kb = 0.114L, kg = 1.0L - kr - kb;
    const long double yy = ((long double)y - 16) / 219, pb = ((long double)u - 128) / 224,
                      pr = ((long double)v - 128) / 224;
    long double out[3];
    out[0] = yy + 2 * (1 - kr) * pr;
    out[1] = yy - 2 * kb * (1 - kb) / kg * pb - 2 * kr * (1 - kr) / kg * pr;
    out[2] = yy + 2 * (1 - kb) * pb;
    for (unsigned c = 0; c < 3; c++) {
        float f = (float)out[c];
        if (p->yuv_mode == 1)
            f = f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
        rgb[c] = f;
    }
}

/* Y, U, V, A codes (A 255 where the format has none) -> components. */
static void yuv_texel(const struct vfetch_texel_plan *p, unsigned y, unsigned u, unsigned v,
                      unsigned a, struct components *t)
{
    if (p->swap_yuv)
        u ^= 0x80, v ^= 0x80;
    if (p->yuv_mode) {
        yuv_to_rgb(p, y, u, v, t->f);
        t->f[3] = (float)a / 255.0f;
        return;
    }
    const unsigned code[4] = { u, y, v, a };
    for (unsigned c = 0; c < 4; c++) {
        t->f[c] = (float)code[c] / 255.0f;
        t->code[c] = code[c];
        t->code_bits[c] = 8;
    }
}

/* ---- one block ---- */

static void block_components(const struct vfetch_texel_plan *p, const uint8_t *b,
                             struct components t[BLOCK_TEXELS])
{
    const struct vfetch_texel_format *f = p->format;
    memset(t, 0, sizeof(struct components) * f->block_w * f->block_h);
    switch (f->cls) {
    case VFETCH_TEXEL_CLASS_PACKED: {
        const uint64_t v = load_le(b, f->block_bytes);
        for (unsigned c = 0; c < p->count; c++) {
            const unsigned n = p->field[c].bits;
            set_fixed(p, &t[0], c, (uint32_t)(v >> p->field[c].shift) & ((1u << n) - 1), n);
        }
        break;
    }
    case VFETCH_TEXEL_CLASS_BITS1:
        for (unsigned i = 0; i < 8; i++) {
            const unsigned bit = (p->format1 & 0x1f) == VFETCH_TX_FMT_8 ? i : 7 - i;
            set_fixed(p, &t[i], 0, b[0] >> bit & 1, 1);
        }
        break;
    case VFETCH_TEXEL_CLASS_FLOAT16:
        for (unsigned c = 0; c < f->count; c++)
            set_bits(&t[0].f[c], vfetch_ref_half_to_float_bits((uint16_t)load_le(b + 2 * c, 2)));
        break;
    case VFETCH_TEXEL_CLASS_FLOAT32:
        for (unsigned c = 0; c < f->count; c++)
            set_bits(&t[0].f[c], (uint32_t)load_le(b + 4 * c, 4));
        break;
    case VFETCH_TEXEL_CLASS_DXT1:
    case VFETCH_TEXEL_CLASS_DXT3:
    case VFETCH_TEXEL_CLASS_DXT5:
        dxt_block(p, b, t);
        break;
    case VFETCH_TEXEL_CLASS_BC4:
        bc4_block(p, b, 0, t);
        break;
    case VFETCH_TEXEL_CLASS_BC5:
        bc4_block(p, b, 0, t);
        bc4_block(p, b + 8, 1, t);
        break;
    case VFETCH_TEXEL_CLASS_CXV8U8: {
        set_fixed(p, &t[0], 0, b[0], 8);
        set_fixed(p, &t[0], 1, b[1], 8);
        const float x = t[0].f[0], y = t[0].f[1];
        const float r = (1.0f - x * x) - y * y;
        t[0].f[2] = r > 0.0f ? sqrtf(r) : 0.0f;
        break;
    }
    case VFETCH_TEXEL_CLASS_Y8:
        yuv_texel(p, b[0], 128, 128, 255, &t[0]);
        if (!p->yuv_mode) /* luma alone: component 0 (the select repeats it) */
            t[0].f[0] = (float)b[0] / 255.0f, t[0].code[0] = b[0];
        break;
    case VFETCH_TEXEL_CLASS_YUV444:
        yuv_texel(p, b[1], b[0], b[2], b[3], &t[0]);
        break;
    case VFETCH_TEXEL_CLASS_YUV422: {
        /* field[] holds the byte index of Y0, U, Y1, V */
        const unsigned y0 = b[f->field[0].shift / 8], u = b[f->field[1].shift / 8],
                       y1 = b[f->field[2].shift / 8], v = b[f->field[3].shift / 8];
        yuv_texel(p, y0, u, v, 255, &t[0]);
        yuv_texel(p, y1, u, v, 255, &t[1]);
        break;
    }
    default: break;
    }
}

void vfetch_texel_ref_block(const struct vfetch_texel_plan *p, const uint8_t *block,
                            float (*out)[4])
{
    static const float zero = 0.0f, one = 1.0f;
    struct components t[BLOCK_TEXELS];
    block_components(p, block, t);
    const unsigned n = (unsigned)p->format->block_w * p->format->block_h;
    for (unsigned i = 0; i < n; i++) {
        for (unsigned c = 0; c < 4; c++) {
            const unsigned s = p->sel[c];
            const float *v = s == VFETCH_TEXEL_SEL_ZERO  ? &zero
                             : s == VFETCH_TEXEL_SEL_ONE ? &one
                             : c < 3 && p->gamma[c]      ? &p->gamma_lut[c][t[i].code[s]]
                                                         : &t[i].f[s];
            memcpy(&out[i][c], v, 4); /* bits, not a float load (see set_bits) */
        }
    }
}

/* round(255 v / (2^n - 1)): never a tie, since 2^n - 1 is odd. */
static uint8_t widen_to_8(uint32_t v, unsigned n)
{
    const uint32_t top = (1u << n) - 1;
    return (uint8_t)((2 * 255 * v + top) / (2 * top));
}

void vfetch_texel_ref_block_u8(const struct vfetch_texel_plan *p, const uint8_t *block,
                               uint8_t (*out)[4])
{
    struct components t[BLOCK_TEXELS];
    block_components(p, block, t);
    const unsigned n = (unsigned)p->format->block_w * p->format->block_h;
    for (unsigned i = 0; i < n; i++) {
        for (unsigned c = 0; c < 4; c++) {
            const unsigned s = p->sel[c];
            out[i][c] = s == VFETCH_TEXEL_SEL_ZERO  ? 0
                        : s == VFETCH_TEXEL_SEL_ONE ? 255
                                                    : widen_to_8(t[i].code[s], t[i].code_bits[s]);
        }
    }
}

VFETCH_TEXEL_FN(vfetch_texel_ref_f32)
{
    const struct vfetch_texel_format *f = plan->format;
    float texels[BLOCK_TEXELS][4];
    for (size_t k = 0; k < nblocks; k++) {
        vfetch_texel_ref_block(plan, src + k * f->block_bytes, texels);
        for (unsigned y = 0; y < f->block_h; y++)
            memcpy(dst + y * dst_pitch + k * f->block_w * 16, texels[y * f->block_w],
                   (size_t)f->block_w * 16);
    }
}

VFETCH_TEXEL_FN(vfetch_texel_ref_u8)
{
    const struct vfetch_texel_format *f = plan->format;
    uint8_t texels[BLOCK_TEXELS][4];
    for (size_t k = 0; k < nblocks; k++) {
        vfetch_texel_ref_block_u8(plan, src + k * f->block_bytes, texels);
        for (unsigned y = 0; y < f->block_h; y++)
            memcpy(dst + y * dst_pitch + k * f->block_w * 4, texels[y * f->block_w],
                   (size_t)f->block_w * 4);
    }
}
