/*
 * TX_FORMAT1 + TX_FORMAT2 -> texel plan: every field validated once, every per-texel decision
 * (component selection, signedness, gamma tables, kernels) made here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "ref/texel_ref.h"
#include "texel/texel_internal.h"
#include "text.h"

void vfetch_texel_desc_init(struct vfetch_texel_desc *desc)
{
    if (!desc)
        return;
    memset(desc, 0, sizeof(*desc));
    struct vfetch_texel_options *options = &desc->options;
    options->signed_method = VFETCH_TEXEL_SIGNED_CLAMP;
    options->gamma = VFETCH_TEXEL_GAMMA_SRGB;
    options->bc_interp = VFETCH_TEXEL_BC_TRUNCATE;
    options->dxt_interp = VFETCH_TEXEL_DXT_TRUNCATE;
    options->dxt_order = VFETCH_TEXEL_DXT_BGRA;
    options->dxt35_colour = VFETCH_TEXEL_DXT35_AS_DXT1;
    options->code18 = VFETCH_TEXEL_CODE18_CXV8U8;
    options->align10 = VFETCH_TEXEL_ALIGN10_LOW;
}

static int options_valid(const struct vfetch_texel_options *o)
{
    return (unsigned)o->signed_method <= VFETCH_TEXEL_SIGNED_NO_ZERO &&
           (unsigned)o->gamma <= VFETCH_TEXEL_GAMMA_POW22 &&
           (unsigned)o->bc_interp <= VFETCH_TEXEL_BC_FLOAT &&
           (unsigned)o->dxt_interp <= VFETCH_TEXEL_DXT_ROUND &&
           (unsigned)o->dxt_order <= VFETCH_TEXEL_DXT_RGBA &&
           (unsigned)o->dxt35_colour <= VFETCH_TEXEL_DXT35_FOUR_COLOUR &&
           (unsigned)o->code18 <= VFETCH_TEXEL_CODE18_Y8 &&
           (unsigned)o->align10 <= VFETCH_TEXEL_ALIGN10_HIGH;
}

/* Bits of component c's value as the component filter sees it: the field's width for fixed
   point, 8 for the DXT/BC palettes (BC: truncating mode only), 0 where the value is not a
   small unsigned code (floats, YUV math, CxV8U8's root). */
static unsigned small_code_bits(const struct vfetch_texel_plan *p, unsigned c)
{
    switch (p->format->cls) {
    case VFETCH_TEXEL_CLASS_PACKED: return p->field[c].bits;
    case VFETCH_TEXEL_CLASS_BITS1: return 1;
    case VFETCH_TEXEL_CLASS_DXT1:
    case VFETCH_TEXEL_CLASS_DXT3:
    case VFETCH_TEXEL_CLASS_DXT5: return 8;
    case VFETCH_TEXEL_CLASS_BC4:
    case VFETCH_TEXEL_CLASS_BC5: return p->options.bc_interp == VFETCH_TEXEL_BC_TRUNCATE ? 8 : 0;
    default: return 0;
    }
}

/* The linear value of x in [0, 1], correctly rounded to binary32 (computed in long double). */
static float gamma_curve(long double x, enum vfetch_texel_gamma curve)
{
    long double y;
    if (curve == VFETCH_TEXEL_GAMMA_POW22)
        y = powl(x, 2.2L);
    else if (x <= 0.04045L)
        y = x / 12.92L;
    else
        y = powl((x + 0.055L) / 1.055L, 2.4L);
    return (float)y;
}

static int is_yuv(unsigned cls)
{
    return cls == VFETCH_TEXEL_CLASS_YUV444 || cls == VFETCH_TEXEL_CLASS_YUV422 ||
           cls == VFETCH_TEXEL_CLASS_Y8;
}

/* Whether every component is 8-bit fixed point (POW2FIX2FLT's domain). */
static int all_fixed8(const struct vfetch_texel_plan *p)
{
    if (p->format->cls == VFETCH_TEXEL_CLASS_CXV8U8)
        return 1;
    if (p->format->cls != VFETCH_TEXEL_CLASS_PACKED)
        return 0;
    for (unsigned c = 0; c < p->count; c++)
        if (p->field[c].bits != 8)
            return 0;
    return 1;
}

static void choose_kernels(struct vfetch_texel_plan *p)
{
    struct vfetch_texel_dsp dsp;
    vfetch_texel_dsp_init(&dsp, vfetch_cpu_allowed());
    /* The kernels' per-plan data (a family's prepare leaves other classes alone). */
    vfetch_texel_prepare_fn *const prepare[] = { dsp.packed_f32_prepare, dsp.packed_u8_prepare,
                                                 dsp.float_prepare };
    for (size_t i = 0; i < sizeof prepare / sizeof prepare[0]; i++)
        if (prepare[i])
            prepare[i](p);
    vfetch_texel_fn *f32 = NULL, *u8 = NULL;
    int any_gamma = p->gamma[0] | p->gamma[1] | p->gamma[2];
    switch (p->format->cls) {
    case VFETCH_TEXEL_CLASS_PACKED:
        f32 = dsp.packed_f32;
        u8 = dsp.packed_u8;
        break;
    case VFETCH_TEXEL_CLASS_FLOAT16: f32 = dsp.float16_f32; break;
    case VFETCH_TEXEL_CLASS_FLOAT32: f32 = dsp.float32_f32; break;
    case VFETCH_TEXEL_CLASS_DXT1:
    case VFETCH_TEXEL_CLASS_DXT3:
    case VFETCH_TEXEL_CLASS_DXT5:
        if (!(p->is_signed[0] | p->is_signed[1] | p->is_signed[2] | p->is_signed[3])) {
            f32 = dsp.dxt_f32;
            u8 = dsp.dxt_u8;
        }
        break;
    case VFETCH_TEXEL_CLASS_BC4:
    case VFETCH_TEXEL_CLASS_BC5:
        if (p->options.bc_interp == VFETCH_TEXEL_BC_TRUNCATE && !p->is_signed[0] &&
            !p->is_signed[1]) {
            f32 = dsp.bc_f32;
            u8 = dsp.bc_u8;
        }
        break;
    default: break;
    }
    /* The SIMD kernels do not apply gamma tables (a table lookup per texel): the reference does. */
    if (any_gamma)
        f32 = u8 = NULL;
    /* TX_FMT_1: tables built from the reference (any plan, gamma too) above level c, which
       stays the reference alone, so that checkasm compares the tables with it. */
    if (p->format->cls == VFETCH_TEXEL_CLASS_BITS1 && strcmp(dsp.name, "c") != 0) {
        vfetch_texel_bits1_prepare(p);
        p->to_f32 = vfetch_texel_bits1_f32;
        p->to_u8 = p->rgba8_exact ? vfetch_texel_bits1_u8 : NULL;
        p->level_f32 = "table";
        p->level_u8 = p->rgba8_exact ? "table" : "none";
        return;
    }
    p->to_f32 = f32 ? f32 : vfetch_texel_ref_f32;
    p->level_f32 = f32 ? dsp.name : "c";
    p->to_u8 = !p->rgba8_exact ? NULL : u8 ? u8 : vfetch_texel_ref_u8;
    p->level_u8 = !p->rgba8_exact ? "none" : u8 ? dsp.name : "c";
}

int vfetch_texel_compile(const struct vfetch_texel_desc *desc, vfetch_texel_plan **out)
{
    if (!desc || !out || !options_valid(&desc->options))
        return VFETCH_EINVAL;
    const uint32_t tx_format1 = desc->tx_format1, tx_format2 = desc->tx_format2;
    const struct vfetch_texel_options opt = desc->options;

    const unsigned code = tx_format1 & 0x1f;
    const int msb = (tx_format2 & VFETCH_TX_FORMAT2_TXFORMAT_MSB) != 0;
    const struct vfetch_texel_format *fmt = vfetch_texel_format_of(code, msb);
    if (code == VFETCH_TX_FMT_CXV8U8 && opt.code18 == VFETCH_TEXEL_CODE18_Y8)
        fmt = vfetch_texel_format_y8();
    if (fmt->cls == VFETCH_TEXEL_CLASS_UNSUPPORTED)
        return VFETCH_ETEXEL_UNSUPPORTED;

    unsigned sel_field[4]; /* R, G, B, A as the word orders them: 14:12, 17:15, 20:18, 11:9 */
    sel_field[0] = tx_format1 >> 12 & 7;
    sel_field[1] = tx_format1 >> 15 & 7;
    sel_field[2] = tx_format1 >> 18 & 7;
    sel_field[3] = tx_format1 >> 9 & 7;
    for (unsigned c = 0; c < 4; c++)
        if (sel_field[c] > VFETCH_TEXEL_SEL_ONE)
            return VFETCH_ERESERVED_SWIZZLE;
    if ((tx_format1 >> 25 & 3) == 3)
        return VFETCH_ETEXEL_RESERVED_COORD_TYPE;
    const unsigned yuv_mode = tx_format1 >> 22 & 3;
    if (yuv_mode == 3)
        return VFETCH_ETEXEL_RESERVED_YUV_MODE;
    const unsigned swap_yuv = tx_format1 >> 24 & 1;
    if ((yuv_mode || swap_yuv) && !is_yuv(fmt->cls))
        return VFETCH_ETEXEL_YUV_FORMAT;

    struct vfetch_texel_plan *p = calloc(1, sizeof(*p));
    if (!p)
        return VFETCH_ENOMEM;
    p->format1 = tx_format1;
    p->format2 = tx_format2;
    p->options = opt;
    p->format = fmt;
    p->count = fmt->count;
    memcpy(p->field, fmt->field, sizeof(p->field));
    if (fmt->ten_bit && opt.align10 == VFETCH_TEXEL_ALIGN10_HIGH)
        for (unsigned c = 0; c < p->count; c++)
            p->field[c].shift += 6;
    p->yuv_mode = (uint8_t)yuv_mode;
    p->swap_yuv = (uint8_t)swap_yuv;
    p->coord_type = (uint8_t)(tx_format1 >> 25 & 3);
    p->pow2 = (tx_format2 & VFETCH_TX_FORMAT2_POW2FIX2FLT) != 0;
    if (p->pow2 && !all_fixed8(p)) {
        free(p);
        return VFETCH_ETEXEL_POW2FIX_FORMAT;
    }

    /* DXT colours: which component red, green and blue become. */
    if (opt.dxt_order == VFETCH_TEXEL_DXT_BGRA) {
        p->dxt_comp[0] = 2, p->dxt_comp[1] = 1, p->dxt_comp[2] = 0;
    } else {
        p->dxt_comp[0] = 0, p->dxt_comp[1] = 1, p->dxt_comp[2] = 2;
    }

    const unsigned cls = fmt->cls;
    if (is_yuv(cls)) {
        /* SEL_* and SIGNED_COMPn are ignored (the document): components as they come. */
        if (cls == VFETCH_TEXEL_CLASS_Y8 && !yuv_mode) {
            p->sel[0] = p->sel[1] = p->sel[2] = 0;
            p->sel[3] = VFETCH_TEXEL_SEL_ONE;
        } else {
            for (unsigned c = 0; c < 4; c++)
                p->sel[c] = (uint8_t)c;
        }
    } else {
        for (unsigned c = 0; c < 4; c++) {
            unsigned s = sel_field[c];
            if (s < 4 && s >= p->count) /* a component the format lacks */
                s = s == 3 ? VFETCH_TEXEL_SEL_ONE : VFETCH_TEXEL_SEL_ZERO;
            p->sel[c] = (uint8_t)s;
        }
        if (cls != VFETCH_TEXEL_CLASS_FLOAT16 && cls != VFETCH_TEXEL_CLASS_FLOAT32)
            for (unsigned c = 0; c < 4 && c < p->count; c++)
                p->is_signed[c] = tx_format1 >> (5 + c) & 1;
        if (cls == VFETCH_TEXEL_CLASS_CXV8U8)
            p->is_signed[0] = p->is_signed[1] = 1, p->is_signed[2] = 0;
    }

    /* GAMMA: R, G, B channels whose component is an unsigned code of 8 bits or fewer. */
    if (tx_format1 >> 21 & 1) {
        for (unsigned c = 0; c < 3; c++) {
            const unsigned s = p->sel[c];
            if (s >= 4 || p->is_signed[s] || p->pow2)
                continue;
            const unsigned n = small_code_bits(p, s);
            if (n == 0 || n > 8)
                continue;
            p->gamma[c] = 1;
            const unsigned top = (1u << n) - 1;
            for (unsigned v = 0; v <= top; v++)
                p->gamma_lut[c][v] = gamma_curve((long double)v / top, opt.gamma);
        }
    }

    /* RGBA8 holds the results exactly where every channel is a constant or an unsigned code
       of at most 8 bits that no curve, divide-by-256 or YUV math changes. */
    int exact = !p->pow2 && !yuv_mode && cls != VFETCH_TEXEL_CLASS_CXV8U8;
    for (unsigned c = 0; c < 4 && exact; c++) {
        const unsigned s = p->sel[c];
        if (s >= 4)
            continue;
        if (p->gamma[c] || p->is_signed[s])
            exact = 0;
        else if (is_yuv(cls))
            exact = 1;
        else {
            const unsigned n = small_code_bits(p, s);
            exact = n > 0 && n <= 8;
        }
    }
    p->rgba8_exact = (uint8_t)exact;
    choose_kernels(p);
    *out = p;
    return VFETCH_OK;
}

void vfetch_texel_plan_free(vfetch_texel_plan *plan)
{
    free(plan);
}

int vfetch_texel_plan_info(const vfetch_texel_plan *plan, struct vfetch_texel_info *info)
{
    if (!plan || !info)
        return VFETCH_EINVAL;
    memset(info, 0, sizeof(*info));
    info->name = plan->format->name;
    info->block_width = plan->format->block_w;
    info->block_height = plan->format->block_h;
    info->block_bytes = plan->format->block_bytes;
    info->coord_type = (enum vfetch_texel_coord_type)plan->coord_type;
    info->rgba8_exact = plan->rgba8_exact;
    return VFETCH_OK;
}

/* ---- describe ---- */

static const char *const sel_names[6] = { "component 0", "component 1", "component 2",
                                          "component 3", "0", "1" };

static const char *class_text(unsigned cls)
{
    switch (cls) {
    case VFETCH_TEXEL_CLASS_PACKED: return "fixed-point fields";
    case VFETCH_TEXEL_CLASS_BITS1: return "one bit per texel, 8 texels a byte";
    case VFETCH_TEXEL_CLASS_FLOAT16: return "IEEE binary16 components";
    case VFETCH_TEXEL_CLASS_FLOAT32: return "IEEE binary32 components";
    case VFETCH_TEXEL_CLASS_DXT1: return "DXT1 (BC1) 4x4 blocks of 8 bytes";
    case VFETCH_TEXEL_CLASS_DXT3: return "DXT3 (BC2) 4x4 blocks of 16 bytes";
    case VFETCH_TEXEL_CLASS_DXT5: return "DXT5 (BC3) 4x4 blocks of 16 bytes";
    case VFETCH_TEXEL_CLASS_BC4: return "ATI1N (BC4) 4x4 blocks of 8 bytes";
    case VFETCH_TEXEL_CLASS_BC5: return "ATI2N (BC5) 4x4 blocks of 16 bytes";
    case VFETCH_TEXEL_CLASS_CXV8U8: return "signed bytes U, V and C = sqrt(1 - U^2 - V^2)";
    case VFETCH_TEXEL_CLASS_Y8: return "one byte of luma";
    case VFETCH_TEXEL_CLASS_YUV444: return "bytes U, Y, V, A";
    case VFETCH_TEXEL_CLASS_YUV422: return "two texels in 4 bytes sharing U and V";
    default: return "unsupported";
    }
}

size_t vfetch_texel_plan_describe(const vfetch_texel_plan *p, char *buf, size_t size)
{
    struct vfetch_text t = { buf, buf ? size : 0, 0 };
    if (buf && size)
        buf[0] = 0;
    if (!p)
        return 0;
    static const char *const coord[3] = { "2D", "3D", "cube" };
    static const char *const yuv[3] = { "off", "on, clamped to [0, 1]", "on, not clamped" };
    static const char *const signed_text[3] = { "max(v / (2^(n-1) - 1), -1)",
                                                "v / (2^(n-1) - 1)", "(2v + 1) / (2^n - 1)" };
    const struct vfetch_texel_format *f = p->format;
    vfetch_text_printf(&t, "TX_FORMAT1 0x%08x  TX_FORMAT2 0x%08x\n", (unsigned)p->format1, (unsigned)p->format2);
    vfetch_text_printf(&t, "  TXFORMAT        %u%s: %s, %s\n", (unsigned)(p->format1 & 0x1f),
        (p->format2 & VFETCH_TX_FORMAT2_TXFORMAT_MSB) ? " (TXFORMAT_MSB)" : "", f->name,
        class_text(f->cls));
    vfetch_text_printf(&t, "  block           %ux%u texels, %u bytes\n", f->block_w, f->block_h,
        f->block_bytes);
    if (f->cls == VFETCH_TEXEL_CLASS_PACKED)
        for (unsigned c = 0; c < p->count; c++)
            vfetch_text_printf(&t, "  component %u     bits %u:%u, %s\n", c, p->field[c].shift + p->field[c].bits - 1,
                p->field[c].shift,
                p->pow2 ? (p->is_signed[c] ? "signed v / 128" : "v / 256")
                        : p->is_signed[c] ? signed_text[p->options.signed_method]
                                          : "unsigned v / (2^n - 1)");
    else
        for (unsigned c = 0; c < 4; c++)
            if (p->is_signed[c])
                vfetch_text_printf(&t, "  component %u     signed, %s\n", c,
                    p->pow2 ? "v / 128" : signed_text[p->options.signed_method]);
    const unsigned cls = f->cls;
    if (cls == VFETCH_TEXEL_CLASS_DXT1 || cls == VFETCH_TEXEL_CLASS_DXT3 ||
        cls == VFETCH_TEXEL_CLASS_DXT5) {
        vfetch_text_printf(&t, "  components      0 %s, 1 green, 2 %s, 3 alpha\n",
            p->dxt_comp[2] == 0 ? "blue" : "red", p->dxt_comp[2] == 0 ? "red" : "blue");
        vfetch_text_printf(&t, "  interpolation   %s\n", p->options.dxt_interp == VFETCH_TEXEL_DXT_ROUND
                                               ? "8-bit, rounded to nearest"
                                               : "8-bit, truncated (nvdecompress)");
        if (cls != VFETCH_TEXEL_CLASS_DXT1)
            vfetch_text_printf(&t, "  c0 <= c1        %s\n",
                p->options.dxt35_colour == VFETCH_TEXEL_DXT35_AS_DXT1
                    ? "three colours and black, as DXT1 (nvdecompress)"
                    : "four colours (S3TC/D3D10)");
    } else if (cls == VFETCH_TEXEL_CLASS_BC4 || cls == VFETCH_TEXEL_CLASS_BC5) {
        vfetch_text_printf(&t, "  interpolation   %s\n", p->options.bc_interp == VFETCH_TEXEL_BC_FLOAT
                                               ? "D3D10 float: the exact rational, rounded once"
                                               : "8-bit, truncated (Mesa, bcdec, nvtt)");
    } else if (cls == VFETCH_TEXEL_CLASS_YUV444 || cls == VFETCH_TEXEL_CLASS_YUV422) {
        vfetch_text_printf(&t, "  components      0 U, 1 Y, 2 V, 3 %s (SEL_* and SIGNED_COMPn ignored)\n",
            cls == VFETCH_TEXEL_CLASS_YUV444 ? "A" : "1");
    }
    for (unsigned c = 0; c < 4; c++)
        vfetch_text_printf(&t, "  SEL_%s%*s%s%s\n", c == 0 ? "RED" : c == 1 ? "GREEN" : c == 2 ? "BLUE" : "ALPHA",
            (int)(12 - (c == 0 ? 3 : c == 1 ? 5 : c == 2 ? 4 : 5)), "", sel_names[p->sel[c]],
            p->gamma[c] ? (p->options.gamma == VFETCH_TEXEL_GAMMA_SRGB ? ", sRGB -> linear"
                                                                        : ", ^2.2")
                        : "");
    vfetch_text_printf(&t, "  YUV_TO_RGB      %s%s\n", yuv[p->yuv_mode], p->swap_yuv ? ", SWAP_YUV (U, V ^ 0x80)" : "");
    vfetch_text_printf(&t, "  POW2FIX2FLT     %s\n", p->pow2 ? "on" : "off");
    vfetch_text_printf(&t, "  TEX_COORD_TYPE  %s\n", coord[p->coord_type]);
    vfetch_text_printf(&t, "  CACHE           %u (ignored)\n", (unsigned)(p->format1 >> 27));
    vfetch_text_printf(&t, "  RGBA8 output    %s\n", p->rgba8_exact ? "exact" : "not exact (RGBA32F only)");
    vfetch_text_printf(&t, "  kernels         RGBA32F %s, RGBA8 %s\n", p->level_f32, p->level_u8);
    return t.len;
}
