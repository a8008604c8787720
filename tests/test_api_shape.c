/*
 * One contract per family (docs/api.md): for R300, GX, Maxwell, texel and GX texture, the same steps in
 * the same order: desc_init, compile, the plan queries, run (decode), free. Each family's
 * queries must agree with the core plan they convert with, a refused description must leave
 * *out_plan as it was, and each layout enum numbers compact before full (0 is the default).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vfetch/gx.h"
#include "vfetch/gx_texture.h"
#include "vfetch/maxwell.h"
#include "vfetch/r300.h"
#include "vfetch/texel.h"
#include "vfetch/vfetch.h"

#define UNTOUCHED ((void *)(uintptr_t)1)

/* The family's info and declaration equal the core plan's. */
static void check_same_as_core(const vfetch_plan *core, const struct vfetch_plan_info *info,
                               const struct vfetch_vertex_decl *decl)
{
    struct vfetch_plan_info ci;
    struct vfetch_vertex_decl cd;
    CHECK_EQ(vfetch_plan_info(core, &ci), VFETCH_OK);
    CHECK(strcmp(ci.level, info->level) == 0);
    CHECK_EQ(ci.executor, info->executor);
    CHECK_EQ(ci.record_lanes, info->record_lanes);
    CHECK_EQ(ci.fallback, info->fallback);
    CHECK_EQ(vfetch_plan_declaration(core, &cd), VFETCH_OK);
    CHECK_EQ(cd.stride, decl->stride);
    CHECK_EQ(cd.num_attrs, decl->num_attrs);
    CHECK(memcmp(cd.attrs, decl->attrs, cd.num_attrs * sizeof cd.attrs[0]) == 0);
}

static void test_r300(void)
{
    struct vfetch_r300_desc desc;
    vfetch_r300_desc_init(&desc);
    CHECK_EQ(desc.layout, VFETCH_R300_LAYOUT_COMPACT);
    CHECK_EQ(VFETCH_R300_LAYOUT_COMPACT, 0);
    CHECK_EQ(VFETCH_R300_LAYOUT_FULL, 1);
    /* element 0: FLOAT_3 (type 2) at DST_VEC_LOC 1 (bits 12:8), LAST_VEC (bit 13), 3 dwords */
    desc.prog_stream_cntl[0] = 2u | 1u << 8 | 1u << 13;
    desc.vtx_size_dwords = 3;

    vfetch_r300_plan *plan = UNTOUCHED;
    desc.prog_stream_cntl[0] = 13u | 1u << 13; /* reserved DATA_TYPE 13 */
    CHECK_EQ(vfetch_r300_compile(&desc, &plan), VFETCH_ER300_RESERVED_TYPE);
    CHECK(plan == UNTOUCHED);
    desc.prog_stream_cntl[0] = 2u | 1u << 8 | 1u << 13;
    CHECK_EQ(vfetch_r300_compile(&desc, &plan), VFETCH_OK);

    struct vfetch_plan_info info;
    struct vfetch_vertex_decl decl;
    CHECK_EQ(vfetch_r300_plan_info(plan, &info), VFETCH_OK);
    CHECK_EQ(vfetch_r300_plan_declaration(plan, &decl), VFETCH_OK);
    CHECK(vfetch_r300_plan_converter(plan) == plan);
    check_same_as_core(vfetch_r300_plan_converter(plan), &info, &decl);
    CHECK_EQ(vfetch_r300_plan_out_stride(plan), 16);
    CHECK_EQ(vfetch_r300_plan_location(plan, 1), 0);
    CHECK_EQ(vfetch_r300_plan_location(plan, 0), -1);
    CHECK_EQ(decl.num_attrs, 1);
    CHECK_EQ(decl.attrs[0].location, 1);

    const float in[3] = { 1.0f, 2.0f, 3.0f };
    float out[4] = { 0, 0, 0, 0 };
    struct vfetch_binding b = { in, sizeof in };
    struct vfetch_run_params p;
    vfetch_r300_run_params_init(&p);
    CHECK_EQ(p.max_index, UINT32_MAX);
    p.streams = &b;
    p.num_streams = 1;
    p.count = 1;
    p.out = out;
    p.out_size = sizeof out;
    CHECK_EQ(vfetch_r300_run(plan, &p), VFETCH_OK);
    CHECK_FLOAT(out[0], 1.0f);
    CHECK_FLOAT(out[2], 3.0f);
    CHECK_FLOAT(out[3], 1.0f); /* FLOAT_3's missing w */
    p.out_size = 8;
    CHECK_EQ(vfetch_r300_run(plan, &p), VFETCH_ESHORT_OUTPUT);
    vfetch_r300_plan_free(plan);
    vfetch_r300_plan_free(NULL);
}

static void test_gx(void)
{
    struct vfetch_gx_desc desc, zero;
    memset(&desc, 0xA5, sizeof desc);
    vfetch_gx_desc_init(&desc);
    memset(&zero, 0, sizeof zero);
    CHECK(memcmp(&desc, &zero, sizeof desc) == 0); /* the defaults are all zero (gx.h) */
    CHECK_EQ(VFETCH_GX_LAYOUT_ISBE_COMPACT + 1, VFETCH_GX_LAYOUT_ISBE_FULL);

    /* a format of no attribute: nothing to convert, still a plan */
    vfetch_gx_plan *plan = UNTOUCHED;
    struct vfetch_plan_info info;
    struct vfetch_vertex_decl decl;
    CHECK_EQ(vfetch_gx_compile(&desc, &plan), VFETCH_OK);
    CHECK(vfetch_gx_plan_converter(plan) == NULL);
    CHECK_EQ(vfetch_gx_plan_info(plan, &info), VFETCH_OK);
    CHECK(strcmp(info.level, "c") == 0);
    CHECK_EQ(info.executor, VFETCH_EXECUTOR_PER_OP);
    CHECK_EQ(info.fallback, VFETCH_FALLBACK_FORMAT);
    CHECK(info.fallback_reason[0] != '\0');
    CHECK_EQ(vfetch_gx_plan_declaration(plan, &decl), VFETCH_OK);
    CHECK_EQ(decl.num_attrs, 0);
    vfetch_gx_plan_free(plan);

    /* position direct, f32 x3 (VCD_LO bits 10:9 = 1; VAT A: POSCNT 1, POSFMT 4) */
    desc.regs.vcd_lo = 1u << 9;
    desc.regs.vat_a = 1u | 4u << 1;
    desc.layout = VFETCH_GX_LAYOUT_PACKED;
    struct vfetch_gx_format format;
    CHECK_EQ(vfetch_gx_parse(&desc.regs, &format), VFETCH_OK);
    CHECK_EQ(format.vertex_size, 12);
    uint32_t size = 0;
    CHECK_EQ(vfetch_gx_vertex_size(&desc.regs, &size), VFETCH_OK);
    CHECK_EQ(size, 12);

    desc.regs.vcd_lo |= 1u << 13; /* color0 direct, ... */
    desc.regs.vat_a |= 6u << 14;  /* ... in the reserved format 6 */
    plan = UNTOUCHED;
    CHECK_EQ(vfetch_gx_compile(&desc, &plan), VFETCH_EGX_RESERVED_COLOR);
    CHECK(plan == UNTOUCHED);
    desc.regs.vcd_lo &= ~(3u << 13);
    CHECK_EQ(vfetch_gx_compile(&desc, &plan), VFETCH_OK);
    CHECK_EQ(vfetch_gx_plan_info(plan, &info), VFETCH_OK);
    CHECK_EQ(vfetch_gx_plan_declaration(plan, &decl), VFETCH_OK);
    check_same_as_core(vfetch_gx_plan_converter(plan), &info, &decl);
    CHECK_EQ(vfetch_gx_plan_out_stride(plan), 12);

    const uint8_t vertex[12] = { 0x3F, 0x80, 0, 0, 0x40, 0, 0, 0, 0x40, 0x40, 0, 0 }; /* 1 2 3 */
    float out[3];
    struct vfetch_gx_run_params p;
    vfetch_gx_run_params_init(&p);
    p.vertices = vertex;
    p.vertices_size = sizeof vertex;
    p.count = 1;
    p.out = out;
    p.out_size = sizeof out;
    struct vfetch_gx_result result;
    CHECK_EQ(vfetch_gx_run(plan, &p, &result), VFETCH_OK);
    CHECK_EQ(result.written, 1);
    CHECK_FLOAT(out[0], 1.0f);
    CHECK_FLOAT(out[1], 2.0f);
    CHECK_FLOAT(out[2], 3.0f);
    vfetch_gx_plan_free(plan);
    vfetch_gx_plan_free(NULL);
}

static void test_maxwell(void)
{
    struct vfetch_maxwell_desc desc;
    vfetch_maxwell_desc_init(&desc);
    CHECK_EQ(desc.layout, VFETCH_MAXWELL_LAYOUT_COMPACT);
    CHECK_EQ(VFETCH_MAXWELL_LAYOUT_COMPACT, VFETCH_R300_LAYOUT_COMPACT);
    CHECK_EQ(VFETCH_MAXWELL_LAYOUT_FULL, VFETCH_R300_LAYOUT_FULL);
    /* attribute 0: stream 0, offset 0, R32_G32_B32 FLOAT; stream 0 enabled, stride 12 */
    desc.attribute[0] = 0u | 0u << 7 | (uint32_t)VFETCH_MAXWELL_SIZE_R32_G32_B32 << 21 |
                        (uint32_t)VFETCH_MAXWELL_TYPE_FLOAT << 27;
    vfetch_maxwell_plan *plan = UNTOUCHED;
    CHECK_EQ(vfetch_maxwell_compile(&desc, &plan), VFETCH_EMAXWELL_STREAM_DISABLED);
    CHECK(plan == UNTOUCHED);
    desc.stream_format[0] = 12u | 1u << 12;
    CHECK_EQ(vfetch_maxwell_compile(&desc, &plan), VFETCH_OK);

    struct vfetch_maxwell_attribute a;
    CHECK_EQ(vfetch_maxwell_attribute_parse(desc.attribute[0], &a), VFETCH_OK);
    CHECK_EQ(a.components, 3);

    struct vfetch_plan_info info;
    struct vfetch_vertex_decl decl;
    CHECK_EQ(vfetch_maxwell_plan_info(plan, &info), VFETCH_OK);
    CHECK_EQ(vfetch_maxwell_plan_declaration(plan, &decl), VFETCH_OK);
    check_same_as_core(vfetch_maxwell_plan_converter(plan), &info, &decl);
    /* generic attribute 0 is location 0: four floats from its x slot */
    CHECK_EQ(decl.stride, vfetch_maxwell_plan_out_stride(plan));
    CHECK(decl.num_attrs >= 1);
    CHECK_EQ(decl.attrs[0].location, 0);
    CHECK_EQ(decl.attrs[0].offset, 4 * (uint32_t)vfetch_maxwell_plan_slot(plan, VFETCH_AAM_GENERIC_0));
    CHECK_EQ(decl.attrs[0].type, VFETCH_ATTR_FLOAT32);
    CHECK_EQ(vfetch_maxwell_plan_info(NULL, &info), VFETCH_EINVAL);
    CHECK_EQ(vfetch_maxwell_plan_declaration(NULL, &decl), VFETCH_EINVAL);

    const float in[3] = { 1.0f, 2.0f, 3.0f };
    float *out = calloc(1, vfetch_maxwell_plan_out_stride(plan));
    struct vfetch_maxwell_binding b = { in, 0x1000, 0x1000 + sizeof in - 1 };
    struct vfetch_maxwell_binding streams[VFETCH_MAXWELL_STREAMS];
    memset(streams, 0, sizeof streams);
    streams[0] = b;
    struct vfetch_maxwell_run_params p;
    vfetch_maxwell_run_params_init(&p);
    p.streams = streams;
    p.count = 1;
    p.out = out;
    p.out_size = vfetch_maxwell_plan_out_stride(plan);
    CHECK_EQ(vfetch_maxwell_run(plan, &p), VFETCH_OK);
    const unsigned x = decl.attrs[0].offset / 4;
    CHECK_FLOAT(out[x], 1.0f);
    CHECK_FLOAT(out[x + 2], 3.0f);
    free(out);
    vfetch_maxwell_plan_free(plan);
    vfetch_maxwell_plan_free(NULL);
}

static void test_texel(void)
{
    struct vfetch_texel_desc desc;
    vfetch_texel_desc_init(&desc);
    CHECK_EQ(desc.options.gamma, VFETCH_TEXEL_GAMMA_SRGB);
    CHECK_EQ(desc.options.code18, VFETCH_TEXEL_CODE18_CXV8U8);
    vfetch_texel_plan *plan = UNTOUCHED;
    desc.tx_format1 = 3u << 25; /* TEX_COORD_TYPE 3 */
    CHECK_EQ(vfetch_texel_compile(&desc, &plan), VFETCH_ETEXEL_RESERVED_COORD_TYPE);
    CHECK(plan == UNTOUCHED);
    desc.tx_format1 = VFETCH_TX_FMT_8_8_8_8 | 0u << 12 | 1u << 15 | 2u << 18 | 3u << 9;
    CHECK_EQ(vfetch_texel_compile(&desc, &plan), VFETCH_OK);

    struct vfetch_texel_info info;
    CHECK_EQ(vfetch_texel_plan_info(plan, &info), VFETCH_OK);
    CHECK_EQ(info.block_width, 1);
    CHECK(vfetch_texel_plan_describe(plan, NULL, 0) > 0);

    const uint8_t texel[4] = { 10, 20, 30, 40 };
    uint8_t out[4];
    const struct vfetch_texel_surface s = { texel, sizeof texel, 1, 1, 1, 0,
                                            VFETCH_TEXEL_PITCH_BYTES, 0 };
    const struct vfetch_texel_target t = { out, sizeof out, VFETCH_TEXEL_RGBA8, 0, 0 };
    CHECK_EQ(info.rgba8_exact, 1);
    CHECK_EQ(vfetch_texel_decode(plan, &s, NULL, &t), VFETCH_OK);
    /* the bytes are round(255 x) of the float decode (texel.h: rgba8_exact) */
    float f[4];
    const struct vfetch_texel_target tf = { f, sizeof f, VFETCH_TEXEL_RGBA32F, 0, 0 };
    CHECK_EQ(vfetch_texel_decode(plan, &s, NULL, &tf), VFETCH_OK);
    for (unsigned c = 0; c < 4; c++) {
        CHECK_EQ(out[c], (unsigned)(f[c] * 255.0f + 0.5f));
        CHECK(out[c] == 10 || out[c] == 20 || out[c] == 30 || out[c] == 40);
    }
    vfetch_texel_plan_free(plan);
    vfetch_texel_plan_free(NULL);
}

static void test_gx_texture(void)
{
    struct vfetch_gx_texture_desc desc;
    memset(&desc, 0x5a, sizeof desc);
    vfetch_gx_texture_desc_init(&desc);
    CHECK_EQ(desc.setimage0, 0);
    CHECK_EQ(desc.settlut, 0);
    vfetch_gx_texture_plan *plan = UNTOUCHED;
    desc.setimage0 = 7u << 20; /* a reserved format */
    CHECK_EQ(vfetch_gx_texture_compile(&desc, &plan), VFETCH_EGX_TEXTURE_FORMAT);
    CHECK(plan == UNTOUCHED);
    desc.setimage0 = 3 | 3u << 10 | (uint32_t)VFETCH_GX_TF_IA8 << 20; /* 4x4 IA8 */
    CHECK_EQ(vfetch_gx_texture_compile(&desc, &plan), VFETCH_OK);

    struct vfetch_gx_texture_info info;
    CHECK_EQ(vfetch_gx_texture_plan_info(plan, &info), VFETCH_OK);
    CHECK_EQ(info.source_bytes, 32);
    CHECK_EQ(info.palette_entries, 0);
    CHECK(vfetch_gx_texture_plan_describe(plan, NULL, 0) > 0);

    uint8_t block[32];
    for (unsigned i = 0; i < 32; i++)
        block[i] = (uint8_t)(i * 9);
    uint8_t out[16 * 4];
    const struct vfetch_gx_texture_source s = { block, sizeof block, NULL, 0 };
    const struct vfetch_texel_target t = { out, sizeof out, VFETCH_TEXEL_RGBA8, 0, 0 };
    CHECK_EQ(vfetch_gx_texture_decode(plan, &s, NULL, &t), VFETCH_OK);
    /* texel 5: alpha byte 10 x 9, intensity byte 11 x 9 -> (I, I, I, A) */
    CHECK_EQ(out[20], 99);
    CHECK_EQ(out[21], 99);
    CHECK_EQ(out[22], 99);
    CHECK_EQ(out[23], 90);
    /* RGBA32F: each byte / 255 */
    float f[16 * 4];
    const struct vfetch_texel_target tf = { f, sizeof f, VFETCH_TEXEL_RGBA32F, 0, 0 };
    CHECK_EQ(vfetch_gx_texture_decode(plan, &s, NULL, &tf), VFETCH_OK);
    for (unsigned c = 0; c < 64; c++)
        CHECK_FLOAT(f[c], (float)out[c] / 255.0f);
    vfetch_gx_texture_plan_free(plan);
    vfetch_gx_texture_plan_free(NULL);
}

int main(void)
{
    test_r300();
    test_gx();
    test_maxwell();
    test_texel();
    test_gx_texture();
    return test_summary("api-shape");
}
