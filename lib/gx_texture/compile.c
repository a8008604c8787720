/*
 * TX_SETIMAGE0 + TX_SETTLUT -> GX texture plan: the words validated once, the kernel chosen
 * here; info and describe read the plan back.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "gx_texture/gx_texture_internal.h"
#include "text.h"

void vfetch_gx_texture_desc_init(struct vfetch_gx_texture_desc *desc)
{
    if (desc)
        memset(desc, 0, sizeof *desc);
}

/* A word's value, or -1 when its bits 31:24 name another register than the two given (the
   register of texture maps 0..3 at base, 4..7 at base + 0x20). */
static int64_t register_value(uint32_t word, unsigned base)
{
    const unsigned address = word >> 24;
    if (address && !(address >= base && address < base + 4) &&
        !(address >= base + 0x20 && address < base + 0x24))
        return -1;
    return word & 0xffffff;
}

int vfetch_gx_texture_compile(const struct vfetch_gx_texture_desc *desc,
                              vfetch_gx_texture_plan **out)
{
    if (!desc || !out)
        return VFETCH_EINVAL;
    const int64_t image = register_value(desc->setimage0, 0x88);
    const int64_t tlut_word = register_value(desc->settlut, 0x98);
    if (image < 0 || tlut_word < 0)
        return VFETCH_EREGISTER;
    const unsigned code = (unsigned)(image >> 20) & 0xf;
    const struct vfetch_gx_texture_format_info *f = vfetch_gx_texture_format_of(code);
    if (!f->name)
        return VFETCH_EGX_TEXTURE_FORMAT;
    const unsigned tlut = (unsigned)(tlut_word >> 10) & 3;
    if (f->palette_entries && tlut >= VFETCH_GX_TLUT_FORMATS)
        return VFETCH_EGX_TLUT_FORMAT;

    struct vfetch_gx_texture_plan *p = calloc(1, sizeof *p);
    if (!p)
        return VFETCH_ENOMEM;
    p->setimage0 = (uint32_t)image;
    p->settlut = (uint32_t)tlut_word;
    p->format = f;
    p->format_code = (uint8_t)code;
    p->tlut = f->palette_entries ? (int8_t)tlut : -1;
    p->width = (uint32_t)(image & 0x3ff) + 1;
    p->height = (uint32_t)((image >> 10) & 0x3ff) + 1;
    p->blocks_x = (p->width + f->block_w - 1) / f->block_w;
    p->blocks_y = (p->height + f->block_h - 1) / f->block_h;
    p->shift_w = (uint8_t)__builtin_ctz(f->block_w);
    p->shift_h = (uint8_t)__builtin_ctz(f->block_h);
    p->whole_blocks = !(p->width % f->block_w) && !(p->height % f->block_h);

    /* A texture narrower than a level's vector (16 texels at avx512, 8 at avx2) would run
       that level's kernels only through their partial-group path: the level below does it in
       whole vectors, faster for an 8x8 texture. A C8 texture of fewer than 4 blocks converts
       each texel's entry (no table): fastest at sse41 (docs/decisions.md, "Measured choices"). */
    unsigned allowed = vfetch_cpu_allowed();
    const uint32_t padded_width = p->blocks_x * f->block_w;
    if (padded_width < 16)
        allowed &= ~(unsigned)VFETCH_CPU_AVX512;
    if (padded_width < 8 || (code == VFETCH_GX_TF_C8 && p->blocks_x * p->blocks_y < 4))
        allowed &= ~(unsigned)(VFETCH_CPU_AVX2 | VFETCH_CPU_AVX512);
    struct vfetch_gx_texture_dsp dsp;
    vfetch_gx_texture_dsp_init(&dsp, allowed);
    const unsigned column = p->tlut < 0 ? 0 : (unsigned)p->tlut;
    p->decode = dsp.decode[code][column];
    p->level = dsp.level[code][column];
    p->to_f32 = dsp.to_f32;
    if (code == VFETCH_GX_TF_C14X2) {
        p->entries = dsp.entries;
        p->c14x2_table = dsp.c14x2_table;
        /* an IA8 palette needs no conversion: its kernel reads the entries as they are */
        p->use_c14x2_table = p->c14x2_table && tlut != VFETCH_GX_TLUT_IA8 &&
                             (size_t)p->width * p->height >= VFETCH_GX_TEXTURE_C14X2_TABLE_MIN_TEXELS;
    }
    p->source_bytes = (size_t)p->blocks_x * p->blocks_y * f->block_bytes;
    p->palette_bytes = (size_t)f->palette_entries * 2;
    *out = p;
    return VFETCH_OK;
}

void vfetch_gx_texture_plan_free(vfetch_gx_texture_plan *plan)
{
    free(plan);
}

int vfetch_gx_texture_plan_info(const vfetch_gx_texture_plan *p,
                                struct vfetch_gx_texture_info *info)
{
    if (!p || !info)
        return VFETCH_EINVAL;
    const struct vfetch_gx_texture_format_info *f = p->format;
    memset(info, 0, sizeof *info);
    info->name = f->name;
    info->format = (enum vfetch_gx_texture_format)p->format_code;
    info->width = p->width;
    info->height = p->height;
    info->block_width = f->block_w;
    info->block_height = f->block_h;
    info->block_bytes = f->block_bytes;
    info->padded_width = p->blocks_x * f->block_w;
    info->padded_height = p->blocks_y * f->block_h;
    info->source_bytes = p->source_bytes;
    info->palette_format = p->tlut;
    info->palette_name = p->tlut < 0 ? NULL : vfetch_gx_tlut_name((unsigned)p->tlut);
    info->palette_entries = f->palette_entries;
    info->palette_tmem_address = (p->settlut & 0x3ff) << 9;
    info->level = p->level;
    return VFETCH_OK;
}

size_t vfetch_gx_texture_plan_describe(const vfetch_gx_texture_plan *p, char *buf, size_t size)
{
    struct vfetch_text t = { buf, buf ? size : 0, 0 };
    if (buf && size)
        buf[0] = 0;
    if (!p)
        return 0;
    static const char *const layout[VFETCH_GX_TEXTURE_FORMATS] = {
        [VFETCH_GX_TF_I4] = "4-bit intensity, high nibble first -> (I, I, I, I)",
        [VFETCH_GX_TF_I8] = "8-bit intensity -> (I, I, I, I)",
        [VFETCH_GX_TF_IA4] = "alpha bits 7:4, intensity 3:0 -> (I, I, I, A)",
        [VFETCH_GX_TF_IA8] = "alpha byte, intensity byte -> (I, I, I, A)",
        [VFETCH_GX_TF_RGB565] = "big-endian R 15:11, G 10:5, B 4:0, A 255",
        [VFETCH_GX_TF_RGB5A3] = "big-endian; bit 15 set: RGB555, A 255; clear: A3 RGB444",
        [VFETCH_GX_TF_RGBA8] = "16 AR byte pairs, then 16 GB byte pairs",
        [VFETCH_GX_TF_C4] = "4-bit palette index, high nibble first",
        [VFETCH_GX_TF_C8] = "8-bit palette index",
        [VFETCH_GX_TF_C14X2] = "big-endian 16 bits, palette index bits 13:0",
        [VFETCH_GX_TF_CMPR] = "2x2 DXT1-like sub-blocks: c0, c1 big-endian RGB565, 2-bit "
                              "indices MSB first; c0 > c1: (3 c1 + 5 c0) >> 3 and "
                              "(3 c0 + 5 c1) >> 3, else (c0 + c1) / 2 twice, the second with "
                              "A 0",
    };
    const struct vfetch_gx_texture_format_info *f = p->format;
    vfetch_text_printf(&t, "TX_SETIMAGE0 0x%06x  TX_SETTLUT 0x%06x\n", (unsigned)p->setimage0,
                       (unsigned)p->settlut);
    vfetch_text_printf(&t, "  size            %ux%u texels (width - 1 = %u, height - 1 = %u)\n",
                       (unsigned)p->width, (unsigned)p->height, (unsigned)p->width - 1,
                       (unsigned)p->height - 1);
    vfetch_text_printf(&t, "  format          0x%x %s: %s\n", (unsigned)p->format_code, f->name,
                       layout[p->format_code]);
    vfetch_text_printf(&t, "  blocks          %ux%u texels, %u bytes; %ux%u blocks (padded %ux%u), "
                       "%zu bytes in memory\n", f->block_w, f->block_h, f->block_bytes,
                       (unsigned)p->blocks_x, (unsigned)p->blocks_y,
                       (unsigned)(p->blocks_x * f->block_w), (unsigned)(p->blocks_y * f->block_h),
                       (size_t)p->blocks_x * p->blocks_y * f->block_bytes);
    if (p->tlut >= 0)
        vfetch_text_printf(&t, "  palette         %s, %u entries of 16 bits at TMEM 0x%05x\n",
                           vfetch_gx_tlut_name((unsigned)p->tlut), f->palette_entries,
                           (unsigned)((p->settlut & 0x3ff) << 9));
    else
        vfetch_text_printf(&t, "  palette         none (TX_SETTLUT not read)\n");
    vfetch_text_printf(&t, "  kernel          %s\n", p->level);
    return t.len;
}
