/*
 * GX texture reference: every texel decoded on its own from the layout in
 * include/vfetch/gx_texture.h and docs/gx_texture.md, written to be read, not to be fast. It
 * is the oracle: tests/gx_texture checks it against Dolphin's output (the fixtures of
 * ../shared/peers/dolphin-texture) and tests/checkasm/gx_texture.c checks every SIMD level
 * against it.
 */
#include <stdint.h>
#include <string.h>

#include "gx_texture/gx_texture_internal.h"

/* Widening by repeating the top bits: what the GX does to narrow fields. */
static inline unsigned widen3(unsigned v) { return v << 5 | v << 2 | v >> 1; }
static inline unsigned widen4(unsigned v) { return v << 4 | v; }
static inline unsigned widen5(unsigned v) { return v << 3 | v >> 2; }
static inline unsigned widen6(unsigned v) { return v << 2 | v >> 4; }

struct rgba {
    unsigned r, g, b, a;
};

static inline unsigned be16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }

/* A 16-bit IA8 / RGB565 / RGB5A3 value (texel or palette entry), as its bytes read big-endian.
   IA8: the first byte is alpha, the second intensity. */
static struct rgba from16(unsigned kind, unsigned v)
{
    struct rgba c;
    switch (kind) {
    case VFETCH_GX_TLUT_IA8:
        c.r = c.g = c.b = v & 0xff;
        c.a = v >> 8;
        break;
    case VFETCH_GX_TLUT_RGB565:
        c.r = widen5(v >> 11 & 31);
        c.g = widen6(v >> 5 & 63);
        c.b = widen5(v & 31);
        c.a = 255;
        break;
    default: /* RGB5A3 */
        if (v & 0x8000) {
            c.r = widen5(v >> 10 & 31);
            c.g = widen5(v >> 5 & 31);
            c.b = widen5(v & 31);
            c.a = 255;
        } else {
            c.a = widen3(v >> 12 & 7);
            c.r = widen4(v >> 8 & 15);
            c.g = widen4(v >> 4 & 15);
            c.b = widen4(v & 15);
        }
        break;
    }
    return c;
}

/* Dolphin's CMPR interpolation: 3/8 of one endpoint and 5/8 of the other, truncated. */
static inline unsigned blend(unsigned a, unsigned b) { return (a * 3 + b * 5) >> 3; }

/* Texel (x, y) of a CMPR 4x4 sub-block. */
static struct rgba cmpr_texel(const uint8_t *s, unsigned x, unsigned y)
{
    const unsigned c0 = be16(s), c1 = be16(s + 2);
    const struct rgba e0 = from16(VFETCH_GX_TLUT_RGB565, c0);
    const struct rgba e1 = from16(VFETCH_GX_TLUT_RGB565, c1);
    const unsigned index = s[4 + y] >> (6 - 2 * x) & 3;
    struct rgba c = e0;
    if (index == 1)
        c = e1;
    else if (index >= 2 && c0 > c1) {
        /* index 2 leans toward c0, index 3 toward c1 */
        const struct rgba n = index == 2 ? e1 : e0, f = index == 2 ? e0 : e1;
        c.r = blend(n.r, f.r);
        c.g = blend(n.g, f.g);
        c.b = blend(n.b, f.b);
        c.a = 255;
    } else if (index >= 2) {
        c.r = (e0.r + e1.r) / 2;
        c.g = (e0.g + e1.g) / 2;
        c.b = (e0.b + e1.b) / 2;
        c.a = index == 2 ? 255 : 0;
    }
    return c;
}

/* Texel (x, y) of a block of format `format` (palette format tlut). */
static struct rgba block_texel(unsigned format, unsigned tlut, const uint8_t *b, unsigned x,
                               unsigned y, const uint8_t *palette)
{
    struct rgba c;
    unsigned v;
    switch (format) {
    case VFETCH_GX_TF_I4:
        v = widen4(b[y * 4 + x / 2] >> (x & 1 ? 0 : 4) & 15);
        c.r = c.g = c.b = c.a = v;
        return c;
    case VFETCH_GX_TF_I8:
        c.r = c.g = c.b = c.a = b[y * 8 + x];
        return c;
    case VFETCH_GX_TF_IA4:
        v = b[y * 8 + x];
        c.r = c.g = c.b = widen4(v & 15);
        c.a = widen4(v >> 4);
        return c;
    case VFETCH_GX_TF_IA8:
        return from16(VFETCH_GX_TLUT_IA8, be16(b + (y * 4 + x) * 2));
    case VFETCH_GX_TF_RGB565:
        return from16(VFETCH_GX_TLUT_RGB565, be16(b + (y * 4 + x) * 2));
    case VFETCH_GX_TF_RGB5A3:
        return from16(VFETCH_GX_TLUT_RGB5A3, be16(b + (y * 4 + x) * 2));
    case VFETCH_GX_TF_RGBA8: {
        const unsigned i = (y * 4 + x) * 2;
        c.a = b[i];
        c.r = b[i + 1];
        c.g = b[32 + i];
        c.b = b[32 + i + 1];
        return c;
    }
    case VFETCH_GX_TF_C4:
        v = b[y * 4 + x / 2] >> (x & 1 ? 0 : 4) & 15;
        return from16(tlut, be16(palette + 2 * v));
    case VFETCH_GX_TF_C8:
        return from16(tlut, be16(palette + 2 * b[y * 8 + x]));
    case VFETCH_GX_TF_C14X2:
        v = be16(b + (y * 4 + x) * 2) & 0x3fff;
        return from16(tlut, be16(palette + 2 * v));
    default: /* CMPR: sub-blocks top left, top right, bottom left, bottom right */
        return cmpr_texel(b + 8 * ((y / 4) * 2 + x / 4), x % 4, y % 4);
    }
}

static inline void ref_decode(unsigned format, unsigned tlut, const uint8_t *src, size_t nblocks,
                              const uint8_t *palette, uint8_t *dst, size_t dst_pitch)
{
    const struct vfetch_gx_texture_format_info *f = vfetch_gx_texture_format_of(format);
    for (size_t n = 0; n < nblocks; n++)
        for (unsigned y = 0; y < f->block_h; y++)
            for (unsigned x = 0; x < f->block_w; x++) {
                const struct rgba c =
                    block_texel(format, tlut, src + n * f->block_bytes, x, y, palette);
                uint8_t *d = dst + y * dst_pitch + (n * f->block_w + x) * 4;
                d[0] = (uint8_t)c.r;
                d[1] = (uint8_t)c.g;
                d[2] = (uint8_t)c.b;
                d[3] = (uint8_t)c.a;
            }
}

#define REF_KERNEL(name, format, tlut)                                                       \
    static VFETCH_GX_TEXTURE_FN(name)                                                        \
    {                                                                                        \
        const struct vfetch_gx_texture_format_info *f_ = vfetch_gx_texture_format_of(format); \
        for (size_t row_ = 0; row_ < nrows; row_++)                                          \
            ref_decode(format, tlut, src + row_ * nblocks * f_->block_bytes, nblocks, palette, \
                       dst + row_ * f_->block_h * dst_pitch, dst_pitch);                      \
    }

REF_KERNEL(ref_i4, VFETCH_GX_TF_I4, 0)
REF_KERNEL(ref_i8, VFETCH_GX_TF_I8, 0)
REF_KERNEL(ref_ia4, VFETCH_GX_TF_IA4, 0)
REF_KERNEL(ref_ia8, VFETCH_GX_TF_IA8, 0)
REF_KERNEL(ref_rgb565, VFETCH_GX_TF_RGB565, 0)
REF_KERNEL(ref_rgb5a3, VFETCH_GX_TF_RGB5A3, 0)
REF_KERNEL(ref_rgba8, VFETCH_GX_TF_RGBA8, 0)
REF_KERNEL(ref_cmpr, VFETCH_GX_TF_CMPR, 0)
REF_KERNEL(ref_c4_ia8, VFETCH_GX_TF_C4, VFETCH_GX_TLUT_IA8)
REF_KERNEL(ref_c4_rgb565, VFETCH_GX_TF_C4, VFETCH_GX_TLUT_RGB565)
REF_KERNEL(ref_c4_rgb5a3, VFETCH_GX_TF_C4, VFETCH_GX_TLUT_RGB5A3)
REF_KERNEL(ref_c8_ia8, VFETCH_GX_TF_C8, VFETCH_GX_TLUT_IA8)
REF_KERNEL(ref_c8_rgb565, VFETCH_GX_TF_C8, VFETCH_GX_TLUT_RGB565)
REF_KERNEL(ref_c8_rgb5a3, VFETCH_GX_TF_C8, VFETCH_GX_TLUT_RGB5A3)
REF_KERNEL(ref_c14x2_ia8, VFETCH_GX_TF_C14X2, VFETCH_GX_TLUT_IA8)
REF_KERNEL(ref_c14x2_rgb565, VFETCH_GX_TF_C14X2, VFETCH_GX_TLUT_RGB565)
REF_KERNEL(ref_c14x2_rgb5a3, VFETCH_GX_TF_C14X2, VFETCH_GX_TLUT_RGB5A3)

static VFETCH_GX_TEXTURE_F32_FN(ref_to_f32)
{
    for (size_t i = 0; i < n; i++) {
        const float f = (float)src[i] / 255.0f;
        memcpy(dst + 4 * i, &f, 4);
    }
}

static VFETCH_GX_TEXTURE_ENTRIES_FN(ref_entries)
{
    for (size_t i = 0; i < n; i++) {
        const struct rgba c = from16(tlut, be16(palette + 2 * i));
        table[i] = c.r | c.g << 8 | c.b << 16 | (uint32_t)c.a << 24;
    }
}

/* C14X2 from a converted table: the texel's index, then its entry. */
static VFETCH_GX_TEXTURE_FN(ref_c14x2_table)
{
    for (size_t row = 0; row < nrows; row++)
        for (size_t n = 0; n < nblocks; n++)
            for (unsigned y = 0; y < 4; y++)
                for (unsigned x = 0; x < 4; x++) {
                    const uint8_t *t = src + (row * nblocks + n) * 32 + (y * 4 + x) * 2;
                    const unsigned index = be16(t) & 0x3fff;
                    uint8_t *d = dst + (row * 4 + y) * dst_pitch + (n * 4 + x) * 4;
                    memcpy(d, palette + 4 * (size_t)index, 4);
                }
}

void vfetch_gx_texture_ref_init(struct vfetch_gx_texture_dsp *dsp)
{
    vfetch_gx_texture_fn *const plain[VFETCH_GX_TEXTURE_FORMATS] = {
        [VFETCH_GX_TF_I4] = ref_i4,         [VFETCH_GX_TF_I8] = ref_i8,
        [VFETCH_GX_TF_IA4] = ref_ia4,       [VFETCH_GX_TF_IA8] = ref_ia8,
        [VFETCH_GX_TF_RGB565] = ref_rgb565, [VFETCH_GX_TF_RGB5A3] = ref_rgb5a3,
        [VFETCH_GX_TF_RGBA8] = ref_rgba8,   [VFETCH_GX_TF_CMPR] = ref_cmpr,
    };
    for (unsigned f = 0; f < VFETCH_GX_TEXTURE_FORMATS; f++)
        dsp->decode[f][0] = plain[f];
    static vfetch_gx_texture_fn *const paletted[3][VFETCH_GX_TLUT_FORMATS] = {
        { ref_c4_ia8, ref_c4_rgb565, ref_c4_rgb5a3 },
        { ref_c8_ia8, ref_c8_rgb565, ref_c8_rgb5a3 },
        { ref_c14x2_ia8, ref_c14x2_rgb565, ref_c14x2_rgb5a3 },
    };
    for (unsigned t = 0; t < VFETCH_GX_TLUT_FORMATS; t++) {
        dsp->decode[VFETCH_GX_TF_C4][t] = paletted[0][t];
        dsp->decode[VFETCH_GX_TF_C8][t] = paletted[1][t];
        dsp->decode[VFETCH_GX_TF_C14X2][t] = paletted[2][t];
    }
    for (unsigned f = 0; f < VFETCH_GX_TEXTURE_FORMATS; f++)
        for (unsigned t = 0; t < VFETCH_GX_TLUT_FORMATS; t++)
            dsp->level[f][t] = "c";
    dsp->to_f32 = ref_to_f32;
    dsp->entries = ref_entries;
    dsp->c14x2_table = ref_c14x2_table;
}
