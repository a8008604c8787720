/*
 * GX front-end, part 2: compiled formats and draws. Expected values are worked out by hand
 * from ../shared/spec/gx-cp-vat.txt and the GX rules of ../shared/spec/DECISIONS.md (the
 * arithmetic is in the comments); every error of vfetch_gx_compile/run (the CP state:
 * test_gx_state.c).
 * Run at every ISA level (meson re-runs it under VFETCH_CPU_MASK).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "guard.h"
#include "gx_testutil.h"
#include "testutil.h"
#include "vfetch/gx.h"

/* Compile or fail the test (returns NULL). */
static vfetch_gx_plan *compile(const struct vfetch_gx_desc *cp)
{
    vfetch_gx_plan *plan = NULL;
    const int err = vfetch_gx_compile(cp, &plan);
    CHECK_EQ(err, 0);
    return err ? NULL : plan;
}

/* Output buffer of `records` records against a guard page, prefilled with 0xEE. */
struct out_buf {
    uint8_t *p;
    size_t size;
};

static struct out_buf out_make(const vfetch_gx_plan *plan, uint32_t records)
{
    struct out_buf o;
    o.size = (size_t)vfetch_gx_plan_out_stride(plan) * records;
    o.p = guard_alloc_tail(o.size);
    memset(o.p, 0xee, o.size);
    return o;
}

static float out_f(const struct out_buf *o, const vfetch_gx_plan *plan, uint32_t vertex, unsigned slot)
{
    float f;
    memcpy(&f, o->p + (size_t)vertex * vfetch_gx_plan_out_stride(plan) + 4 * slot, 4);
    return f;
}

static uint32_t out_u(const struct out_buf *o, const vfetch_gx_plan *plan, uint32_t vertex, unsigned slot)
{
    uint32_t u;
    memcpy(&u, o->p + (size_t)vertex * vfetch_gx_plan_out_stride(plan) + 4 * slot, 4);
    return u;
}

/* Run a direct draw whose vertices sit at the end of a guarded buffer. */
static int run_direct(const vfetch_gx_plan *plan, const uint8_t *bytes, uint32_t count,
                      struct out_buf *o, struct vfetch_gx_result *r)
{
    const size_t size = (size_t)count * vfetch_gx_plan_format(plan)->vertex_size;
    uint8_t *v = guard_alloc_tail(size);
    memcpy(v, bytes, size);
    struct vfetch_gx_run_params p;
    vfetch_gx_run_params_init(&p);
    p.vertices = v;
    p.vertices_size = size;
    p.count = count;
    p.out = o->p;
    p.out_size = o->size;
    const int err = vfetch_gx_run(plan, &p, r);
    guard_free(v);
    return err;
}

static void test_positions(void)
{
    /* s16 XYZ: big-endian 0x8000 = -32768, 0x0001 = 1, 0x7FFF = 32767; each * 2^-shift */
    static const uint8_t v[6] = { 0x80, 0x00, 0x00, 0x01, 0x7f, 0xff };
    static const unsigned shifts[3] = { 0, 1, 31 };
    for (unsigned i = 0; i < 6; i++) { /* BYTEDEQUANT off, then on: s16 shifts either way */
        struct vfetch_gx_desc cp = {
            .regs = { .vcd_lo = vcd(0, VFETCH_GX_DIRECT),
                      .vat_a = 1 | 3u << 1 | shifts[i % 3] << 4 | (i / 3u) << 30 } };
        vfetch_gx_plan *plan = compile(&cp);
        if (!plan)
            continue;
        struct out_buf o = out_make(plan, 1);
        struct vfetch_gx_result r;
        CHECK_EQ(run_direct(plan, v, 1, &o, &r), 0);
        CHECK_EQ(r.written, 1);
        const float s = ldexpf(1.0f, -(int)shifts[i % 3]);
        CHECK_FLOAT(out_f(&o, plan, 0, 0), -32768.0f * s); /* shift 1: -16384, 31: -2^-16 */
        CHECK_FLOAT(out_f(&o, plan, 0, 1), 1.0f * s);      /* shift 31: 2^-31 */
        CHECK_FLOAT(out_f(&o, plan, 0, 2), 32767.0f * s);  /* shift 1: 16383.5 */
        CHECK_FLOAT(out_f(&o, plan, 0, 3), 1.0f);          /* w = 1 */
        guard_free(o.p);
        vfetch_gx_plan_free(plan);
    }

    /* u8 XY shift 1: 0xFF = 255 -> 127.5 with BYTEDEQUANT, 255.0 without (the seed's rule);
       z = 0, w = 1. s8 XY: 0x80 = -128 -> -64 / -128. */
    static const uint8_t b[2] = { 0xff, 0x80 };
    for (unsigned dq = 0; dq < 2; dq++)
        for (unsigned sgn = 0; sgn < 2; sgn++) {
            struct vfetch_gx_desc cp = {
                .regs = { .vcd_lo = vcd(0, VFETCH_GX_DIRECT), .vat_a = sgn << 1 | 1u << 4 | dq << 30 } };
            vfetch_gx_plan *plan = compile(&cp);
            if (!plan)
                continue;
            struct out_buf o = out_make(plan, 1);
            CHECK_EQ(run_direct(plan, b, 1, &o, NULL), 0);
            const float s = dq ? 0.5f : 1.0f;
            CHECK_FLOAT(out_f(&o, plan, 0, 0), (sgn ? -1.0f : 255.0f) * s);
            CHECK_FLOAT(out_f(&o, plan, 0, 1), (sgn ? -128.0f : 128.0f) * s);
            CHECK_FLOAT(out_f(&o, plan, 0, 2), 0.0f);
            CHECK_FLOAT(out_f(&o, plan, 0, 3), 1.0f);
            guard_free(o.p);
            vfetch_gx_plan_free(plan);
        }

    /* f32 XYZ copied bit for bit: -0.0, a signalling NaN with payload, the smallest denormal;
       format 5 (unused) reads the same, flagged. */
    static const uint8_t f[12] = { 0x80, 0, 0, 0, 0x7f, 0xa0, 0x00, 0x01, 0, 0, 0, 1 };
    for (unsigned fmt = 4; fmt <= 5; fmt++) {
        struct vfetch_gx_desc cp = { .regs = { .vcd_lo = vcd(0, VFETCH_GX_DIRECT),
                                                         .vat_a = 1 | fmt << 1 } };
        vfetch_gx_plan *plan = compile(&cp);
        if (!plan)
            continue;
        CHECK_EQ(vfetch_gx_plan_format(plan)->diagnostics, fmt == 5 ? VFETCH_GX_DIAG_UNUSED_FORMAT : 0);
        struct out_buf o = out_make(plan, 1);
        CHECK_EQ(run_direct(plan, f, 1, &o, NULL), 0);
        CHECK_EQ(out_u(&o, plan, 0, 0), 0x80000000u);
        CHECK_EQ(out_u(&o, plan, 0, 1), 0x7fa00001u);
        CHECK_EQ(out_u(&o, plan, 0, 2), 0x00000001u);
        guard_free(o.p);
        vfetch_gx_plan_free(plan);
    }
}

static void test_normals(void)
{
    /* s8 N: 0x7F = 127 / 2^6 = 1.984375 (no clamp), 0x80 = -2.0, 0x40 = 1.0 */
    static const uint8_t s8[3] = { 0x7f, 0x80, 0x40 };
    struct vfetch_gx_desc cp = { .regs = { .vcd_lo = vcd(1, VFETCH_GX_DIRECT),
                                                     .vat_a = 1u << 10 } };
    vfetch_gx_plan *plan = compile(&cp);
    if (plan) {
        struct out_buf o = out_make(plan, 1);
        CHECK_EQ(run_direct(plan, s8, 1, &o, NULL), 0);
        CHECK_EQ(vfetch_gx_plan_location(plan, VFETCH_GX_LOC_NORMAL), 0);
        CHECK_FLOAT(out_f(&o, plan, 0, 0), 1.984375f);
        CHECK_FLOAT(out_f(&o, plan, 0, 1), -2.0f);
        CHECK_FLOAT(out_f(&o, plan, 0, 2), 1.0f);
        CHECK_FLOAT(out_f(&o, plan, 0, 3), 1.0f);
        guard_free(o.p);
        vfetch_gx_plan_free(plan);
    }
    /* u8 N (n/a in the seed, accepted like Dolphin): 0xFF / 2^7 = 1.9921875, flagged;
       s16 NBT: 0x4000 / 2^14 = 1.0, 0xC000 = -1.0, three vec3 at locations 1, 2, 3 */
    cp.regs.vat_a = 0;
    plan = compile(&cp);
    if (plan) {
        CHECK_EQ(vfetch_gx_plan_format(plan)->diagnostics, VFETCH_GX_DIAG_UNSIGNED_NORMAL);
        struct out_buf o = out_make(plan, 1);
        static const uint8_t u8[3] = { 0xff, 0, 1 };
        CHECK_EQ(run_direct(plan, u8, 1, &o, NULL), 0);
        CHECK_FLOAT(out_f(&o, plan, 0, 0), 1.9921875f);
        CHECK_FLOAT(out_f(&o, plan, 0, 2), 0.0078125f); /* 1 / 128 */
        guard_free(o.p);
        vfetch_gx_plan_free(plan);
    }
    cp.regs.vat_a = 1u << 9 | 3u << 10;
    plan = compile(&cp);
    if (plan) {
        uint8_t v[18];
        for (unsigned c = 0; c < 9; c++) {
            v[2 * c] = c % 2 ? 0xc0 : 0x40;
            v[2 * c + 1] = 0;
        }
        struct out_buf o = out_make(plan, 1);
        CHECK_EQ(run_direct(plan, v, 1, &o, NULL), 0);
        for (unsigned j = 0; j < 3; j++) {
            const int slot = vfetch_gx_plan_location(plan, VFETCH_GX_LOC_NORMAL + j);
            CHECK_EQ(slot, 4 * (int)j);
            for (unsigned c = 0; c < 3; c++)
                CHECK_FLOAT(out_f(&o, plan, 0, (unsigned)slot + c), (3 * j + c) % 2 ? -1.0f : 1.0f);
        }
        guard_free(o.p);
        vfetch_gx_plan_free(plan);
    }
}

/* One color of format fmt from bytes; want RGBA as 8-bit channels. */
static void check_color(unsigned fmt, unsigned color, const uint8_t *bytes, const uint8_t want[4])
{
    for (unsigned out = 0; out < 2; out++) {
        struct vfetch_gx_desc cp = {
            .regs = { .vcd_lo = vcd(2 + color, VFETCH_GX_DIRECT),
                      .vat_a = fmt << (color ? 18 : 14) }, /* COLxCNT 0 (RGB): alpha still read */
            .color_output = out ? VFETCH_GX_COLOR_RGBA8 : VFETCH_GX_COLOR_FLOAT };
        vfetch_gx_plan *plan = compile(&cp);
        if (!plan)
            return;
        struct out_buf o = out_make(plan, 1);
        CHECK_EQ(run_direct(plan, bytes, 1, &o, NULL), 0);
        const int slot = vfetch_gx_plan_location(plan, VFETCH_GX_LOC_COLOR0 + color);
        CHECK_EQ(slot, 0);
        if (out) {
            CHECK_EQ(memcmp(o.p, want, 4), 0);
            CHECK_EQ(out_u(&o, plan, 0, 1), 0); /* the vec4 layout zero-fills y, z, w */
            CHECK_EQ(out_u(&o, plan, 0, 3), 0);
        } else {
            for (unsigned c = 0; c < 4; c++)
                CHECK_FLOAT(out_f(&o, plan, 0, c), (float)want[c] / 255.0f);
        }
        guard_free(o.p);
        vfetch_gx_plan_free(plan);
    }
}

static void test_colors(void)
{
    /* rgb565 0xF81F: R 11111 -> 255, G 000000 -> 0, B 11111 -> 255, A 255 */
    check_color(VFETCH_GX_RGB565, 0, (const uint8_t[]){ 0xf8, 0x1f }, (const uint8_t[]){ 255, 0, 255, 255 });
    /* rgb565 0x8410: R 10000 -> 10000100 = 132 (132/255 != 16/31), G 100000 -> 10000010 =
       130, B 10000 -> 132 */
    check_color(VFETCH_GX_RGB565, 1, (const uint8_t[]){ 0x84, 0x10 }, (const uint8_t[]){ 132, 130, 132, 255 });
    /* rgb888 and rgb888x (fourth byte ignored): A = 255 */
    check_color(VFETCH_GX_RGB888, 0, (const uint8_t[]){ 0x10, 0x20, 0x30 }, (const uint8_t[]){ 16, 32, 48, 255 });
    check_color(VFETCH_GX_RGB888X, 1, (const uint8_t[]){ 1, 2, 3, 0x77 }, (const uint8_t[]){ 1, 2, 3, 255 });
    /* rgba4444 0x1234: R 1 -> 0x11, G 2 -> 0x22, B 3 -> 0x33, A 4 -> 0x44 */
    check_color(VFETCH_GX_RGBA4444, 0, (const uint8_t[]){ 0x12, 0x34 }, (const uint8_t[]){ 0x11, 0x22, 0x33, 0x44 });
    /* rgba6666 0x041041 = 000001 000001 000001 000001: each 1 -> 000001 00 | 0000 = 4 */
    check_color(VFETCH_GX_RGBA6666, 1, (const uint8_t[]){ 0x04, 0x10, 0x41 }, (const uint8_t[]){ 4, 4, 4, 4 });
    /* rgba6666 0xFC0FC0 = 111111 000000 111111 000000 -> 255, 0, 255, 0 */
    check_color(VFETCH_GX_RGBA6666, 0, (const uint8_t[]){ 0xfc, 0x0f, 0xc0 }, (const uint8_t[]){ 255, 0, 255, 0 });
    /* rgba8888 as is */
    check_color(VFETCH_GX_RGBA8888, 0, (const uint8_t[]){ 9, 8, 7, 6 }, (const uint8_t[]){ 9, 8, 7, 6 });

    /* reserved color formats 6 and 7 on an enabled color; ignored on an absent one */
    for (unsigned fmt = 6; fmt < 8; fmt++) {
        vfetch_gx_plan *plan = NULL;
        struct vfetch_gx_desc cp = { .regs = { .vcd_lo = vcd(2, VFETCH_GX_DIRECT),
                                                         .vat_a = fmt << 14 } };
        CHECK_EQ(vfetch_gx_compile(&cp, &plan), VFETCH_EGX_RESERVED_COLOR);
        CHECK(plan == NULL);
        cp.regs.vcd_lo = vcd(0, VFETCH_GX_DIRECT);
        CHECK_EQ(vfetch_gx_compile(&cp, &plan), 0);
        vfetch_gx_plan_free(plan);
    }
}

/* Texcoords, matrix indices and both layouts in one vertex. */
static void test_layouts(void)
{
    /* pos-matrix byte, tex1-matrix byte; position s16 XY shift 8; color0 rgb565; texcoord0
       s16 ST shift 10; texcoord1 u8 S shift 3 (u8: only with BYTEDEQUANT, set) */
    struct vfetch_gx_desc cp = {
        .regs = { .vcd_lo = 1 | 1u << 2 | vcd(0, VFETCH_GX_DIRECT) | vcd(2, VFETCH_GX_DIRECT),
                  .vcd_hi = VFETCH_GX_DIRECT | VFETCH_GX_DIRECT << 2,
                  .vat_a = 3u << 1 | 8u << 4 | 1u << 21 | 3u << 22 | 10u << 25 | 1u << 30,
                  .vat_b = 0u << 0 | 0u << 1 | 3u << 4 } };
    /* bytes: 0xC5 (pos matrix: low 6 bits = 5), 0x3F (tex1 matrix 63), pos 0x0180 0xFF00,
       color 0xF800, tex0 0x0400 0xFC00, tex1 0x09 */
    static const uint8_t v[14] = { 0xc5, 0x3f, 0x01, 0x80, 0xff, 0x00, 0xf8, 0x00,
                                   0x04, 0x00, 0xfc, 0x00, 0x09 };
    uint32_t size = 0;
    CHECK_EQ(vfetch_gx_vertex_size(&cp.regs, &size), 0);
    CHECK_EQ(size, 13);
    for (unsigned layout = 0; layout < 2; layout++) {
        cp.layout = (enum vfetch_gx_layout)layout;
        vfetch_gx_plan *plan = compile(&cp);
        if (!plan)
            continue;
        /* vec4: pos 0, color0 4, tex0 8, tex1 12, matrices 16 (pos) and 17 (tex1), padded
           to 20 slots = 80 bytes. packed: pos 0-1, color 2-5, tex0 6-7, tex1 8, matrices 9,
           10 = 11 slots = 44 bytes. */
        const int vec4 = layout == VFETCH_GX_LAYOUT_VEC4;
        CHECK_EQ(vfetch_gx_plan_out_stride(plan), vec4 ? 80 : 44);
        const int pos = vfetch_gx_plan_location(plan, VFETCH_GX_LOC_POSITION);
        const int col = vfetch_gx_plan_location(plan, VFETCH_GX_LOC_COLOR0);
        const int t0 = vfetch_gx_plan_location(plan, VFETCH_GX_LOC_TEXCOORD0);
        const int t1 = vfetch_gx_plan_location(plan, VFETCH_GX_LOC_TEXCOORD0 + 1);
        const int pm = vfetch_gx_plan_location(plan, VFETCH_GX_LOC_POS_MATRIX);
        const int tm1 = vfetch_gx_plan_location(plan, VFETCH_GX_LOC_TEX_MATRIX0 + 1);
        CHECK_EQ(pos, 0);
        CHECK_EQ(col, vec4 ? 4 : 2);
        CHECK_EQ(t0, vec4 ? 8 : 6);
        CHECK_EQ(t1, vec4 ? 12 : 8);
        CHECK_EQ(pm, vec4 ? 16 : 9);
        CHECK_EQ(tm1, vec4 ? 17 : 10);
        CHECK_EQ(vfetch_gx_plan_location(plan, VFETCH_GX_LOC_NORMAL), -1);
        CHECK_EQ(vfetch_gx_plan_location(plan, VFETCH_GX_LOC_TEX_MATRIX0), -1);
        struct out_buf o = out_make(plan, 2);
        uint8_t two[26];
        memcpy(two, v, 13);
        memcpy(two + 13, v, 13);
        two[13] = 0x01; /* second vertex: pos matrix 1 */
        CHECK_EQ(run_direct(plan, two, 2, &o, NULL), 0);
        for (uint32_t i = 0; i < 2; i++) {
            CHECK_FLOAT(out_f(&o, plan, i, (unsigned)pos), 1.5f);      /* 0x0180 = 384 / 256 */
            CHECK_FLOAT(out_f(&o, plan, i, (unsigned)pos + 1), -1.0f); /* 0xFF00 = -256 / 256 */
            CHECK_FLOAT(out_f(&o, plan, i, (unsigned)col), 1.0f);      /* R 31 -> 255 */
            CHECK_FLOAT(out_f(&o, plan, i, (unsigned)col + 1), 0.0f);
            CHECK_FLOAT(out_f(&o, plan, i, (unsigned)col + 3), 1.0f);  /* rgb: A = 1 */
            CHECK_FLOAT(out_f(&o, plan, i, (unsigned)t0), 1.0f);       /* 1024 / 1024 */
            CHECK_FLOAT(out_f(&o, plan, i, (unsigned)t0 + 1), -1.0f);
            CHECK_FLOAT(out_f(&o, plan, i, (unsigned)t1), 1.125f);     /* 9 / 8 */
            CHECK_EQ(out_u(&o, plan, i, (unsigned)pm), i ? 1 : 5);
            CHECK_EQ(out_u(&o, plan, i, (unsigned)tm1), 63);
            if (vec4) {
                CHECK_FLOAT(out_f(&o, plan, i, 2), 0.0f); /* XY: z = 0, w = 1 */
                CHECK_FLOAT(out_f(&o, plan, i, 3), 1.0f);
                CHECK_FLOAT(out_f(&o, plan, i, 13), 0.0f); /* S: t = 0 */
                CHECK_EQ(out_u(&o, plan, i, 18), 0);       /* matrix vec4 padding */
                CHECK_EQ(out_u(&o, plan, i, 19), 0);
            }
        }
        guard_free(o.p);
        vfetch_gx_plan_free(plan);
    }
}

/* Indexed attributes: arrays, NORMALINDEX3, the skip value, bounds. */
struct indexed_setup {
    vfetch_gx_plan *plan;
    uint8_t pos[4 * 12];   /* 4 f32 XYZ entries, stride 12 */
    uint8_t col[3 * 2];    /* 3 rgb565 entries, stride 2 */
    uint8_t nrm[8 * 6];    /* s16 normals array, stride 6, read as NBT with 3 indices */
};

static void put_be32f(uint8_t *p, float f)
{
    const uint32_t u = test_float_bits(f);
    p[0] = (uint8_t)(u >> 24), p[1] = (uint8_t)(u >> 16), p[2] = (uint8_t)(u >> 8), p[3] = (uint8_t)u;
}

/* run_indexed places the arrays at the start of guarded buffers instead (a read before them
   faults) while this is set. */
static bool arrays_at_head;

static int run_indexed(struct indexed_setup *s, const uint8_t *verts, uint32_t count,
                       size_t pos_size, enum vfetch_gx_index_policy policy, struct out_buf *o,
                       struct vfetch_gx_result *r)
{
    struct vfetch_gx_run_params p;
    vfetch_gx_run_params_init(&p);
    p.vertices = verts;
    p.vertices_size = (size_t)count * vfetch_gx_plan_format(s->plan)->vertex_size;
    p.count = count;
    /* arrays at the end of guarded buffers: a read past them faults */
    void *(*alloc)(size_t) = arrays_at_head ? guard_alloc_head : guard_alloc_tail;
    uint8_t *pos = alloc(pos_size), *col = alloc(sizeof s->col), *nrm = alloc(sizeof s->nrm);
    memcpy(pos, s->pos, pos_size);
    memcpy(col, s->col, sizeof s->col);
    memcpy(nrm, s->nrm, sizeof s->nrm);
    p.arrays[VFETCH_GX_POSITION] = (struct vfetch_binding){ pos, pos_size };
    p.arrays[VFETCH_GX_COLOR0] = (struct vfetch_binding){ col, sizeof s->col };
    p.arrays[VFETCH_GX_NORMAL] = (struct vfetch_binding){ nrm, sizeof s->nrm };
    p.index_policy = policy;
    p.out = o->p;
    p.out_size = o->size;
    const int err = vfetch_gx_run(s->plan, &p, r);
    guard_free(pos);
    guard_free(col);
    guard_free(nrm);
    return err;
}

static void test_indexed(void)
{
    struct indexed_setup s;
    memset(&s, 0, sizeof s);
    /* position index16 f32 XYZ (stride 12), NBT s16 index8 with NORMALINDEX3 (stride 6),
       color0 index8 rgb565 (stride 2) */
    struct vfetch_gx_desc cp = {
        .regs = { .vcd_lo = vcd(0, VFETCH_GX_INDEX16) | vcd(1, VFETCH_GX_INDEX8) | vcd(2, VFETCH_GX_INDEX8),
                  .vat_a = 1 | 4u << 1 | 1u << 9 | 3u << 10 | 0u << 14 | 1u << 31 } };
    cp.array_stride[VFETCH_GX_POSITION] = 12;
    cp.array_stride[VFETCH_GX_NORMAL] = 6;
    cp.array_stride[VFETCH_GX_COLOR0] = 2;
    s.plan = compile(&cp);
    if (!s.plan)
        return;
    /* vertex: u16 pos index, three u8 normal indices, u8 color index = 6 bytes */
    CHECK_EQ(vfetch_gx_plan_format(s.plan)->vertex_size, 6);
    for (unsigned e = 0; e < 4; e++)
        for (unsigned c = 0; c < 3; c++)
            put_be32f(s.pos + 12 * e + 4 * c, (float)(10 * e + c)); /* entry e = (10e, 10e+1, 10e+2) */
    /* normals array: s16 value of byte pair k = k * 64 (k * 2^-8 after the shift of 14):
       element j of index i is at i*6 + 3*j*2, so component c reads pair 3*i + 3*j + c */
    for (unsigned k = 0; k < 24; k++) {
        s.nrm[2 * k] = (uint8_t)((k * 64) >> 8);
        s.nrm[2 * k + 1] = (uint8_t)(k * 64);
    }
    s.col[0] = 0xf8, s.col[1] = 0x00; /* red */
    s.col[2] = 0x07, s.col[3] = 0xe0; /* green */
    s.col[4] = 0x00, s.col[5] = 0x1f; /* blue */

    /* three vertices: (pos 3, normals 0/2/5, color 2), (pos 0xFFFF: skipped), (pos 1,
       normals 1/1/1, color 0) */
    static const uint8_t verts[18] = { 0, 3, 0, 2, 5, 2, 0xff, 0xff, 9, 9, 9, 9, 0, 1, 1, 1, 1, 0 };
    struct out_buf o = out_make(s.plan, 3);
    struct vfetch_gx_result r = { 99, 99, 99 };
    CHECK_EQ(run_indexed(&s, verts, 3, sizeof s.pos, VFETCH_GX_INDEX_ERROR, &o, &r), 0);
    CHECK_EQ(r.written, 2);
    CHECK_EQ(r.skipped, 1);
    CHECK_EQ(r.clamped, 0);
    const unsigned want_idx[2][3] = { { 0, 2, 5 }, { 1, 1, 1 } };
    const unsigned want_pos[2] = { 3, 1 };
    for (uint32_t i = 0; i < 2; i++) {
        for (unsigned c = 0; c < 3; c++)
            CHECK_FLOAT(out_f(&o, s.plan, i, c), (float)(10 * want_pos[i] + c));
        for (unsigned j = 0; j < 3; j++)
            for (unsigned c = 0; c < 3; c++) {
                const unsigned k = 3 * want_idx[i][j] + 3 * j + c;
                CHECK_FLOAT(out_f(&o, s.plan, i, 4 + 4 * j + c), ldexpf((float)k, -8));
            }
        const int col = vfetch_gx_plan_location(s.plan, VFETCH_GX_LOC_COLOR0);
        CHECK_FLOAT(out_f(&o, s.plan, i, (unsigned)col), i ? 1.0f : 0.0f);
        CHECK_FLOAT(out_f(&o, s.plan, i, (unsigned)col + 2), i ? 0.0f : 1.0f); /* blue 0x001F */
    }
    /* the third record was not written: a skipped vertex takes no record */
    CHECK_EQ(o.p[2 * vfetch_gx_plan_out_stride(s.plan)], 0xee);

    /* an index one past the end: position 4 of a 4-entry array */
    static const uint8_t bad[6] = { 0, 4, 0, 0, 0, 0 };
    memset(o.p, 0xee, o.size);
    r = (struct vfetch_gx_result){ 99, 99, 99 };
    CHECK_EQ(run_indexed(&s, bad, 1, sizeof s.pos, VFETCH_GX_INDEX_ERROR, &o, &r), VFETCH_EGX_ARRAY_INDEX);
    CHECK_EQ(r.written, 99); /* untouched */
    CHECK_EQ(o.p[0], 0xee);
    /* ... the same with a short array: the last entry is cut (size 47): entry 3 is out too */
    static const uint8_t last[6] = { 0, 3, 0, 0, 0, 0 };
    CHECK_EQ(run_indexed(&s, last, 1, sizeof s.pos - 1, VFETCH_GX_INDEX_ERROR, &o, &r), VFETCH_EGX_ARRAY_INDEX);
    CHECK_EQ(run_indexed(&s, last, 1, sizeof s.pos, VFETCH_GX_INDEX_ERROR, &o, &r), 0);
    /* clamped: index 4 reads entry 3 */
    CHECK_EQ(run_indexed(&s, bad, 1, sizeof s.pos, VFETCH_GX_INDEX_CLAMP, &o, &r), 0);
    CHECK_EQ(r.clamped, 1);
    CHECK_FLOAT(out_f(&o, s.plan, 0, 0), 30.0f);
    /* an array too small for one element: an error even when clamping, and never read (at
       the start of a guarded buffer: a clamp to "element -1" would fault) */
    CHECK_EQ(run_indexed(&s, last, 1, 11, VFETCH_GX_INDEX_CLAMP, &o, &r), VFETCH_EGX_ARRAY_INDEX);
    arrays_at_head = true;
    CHECK_EQ(run_indexed(&s, last, 1, 11, VFETCH_GX_INDEX_CLAMP, &o, &r), VFETCH_EGX_ARRAY_INDEX);
    CHECK_EQ(run_indexed(&s, last, 1, 11, VFETCH_GX_INDEX_ERROR, &o, &r), VFETCH_EGX_ARRAY_INDEX);
    arrays_at_head = false;
    /* NBT third element at index 7: 7*6 + 3*2*2 = 54, + 6 bytes = 60 > 48 */
    static const uint8_t bad_nbt[6] = { 0, 0, 0, 0, 7, 0 };
    CHECK_EQ(run_indexed(&s, bad_nbt, 1, sizeof s.pos, VFETCH_GX_INDEX_ERROR, &o, &r), VFETCH_EGX_ARRAY_INDEX);
    /* index 5 for the third element: 5*6 + 12 + 6 = 48 bytes: fits exactly */
    static const uint8_t edge_nbt[6] = { 0, 0, 0, 0, 5, 0 };
    CHECK_EQ(run_indexed(&s, edge_nbt, 1, sizeof s.pos, VFETCH_GX_INDEX_ERROR, &o, &r), 0);
    /* Clamping with three indices: each index against its own element's last whole row (the
       48-byte array holds element 0 up to row 7, element 1 up to 6, element 2 up to 5), each
       replaced index counted once. Index 7 everywhere: element 0 reads row 7, element 1 row
       6, element 2 row 5; clamped 2. */
    static const uint8_t all7_nbt[6] = { 0, 0, 7, 7, 7, 0 };
    CHECK_EQ(run_indexed(&s, all7_nbt, 1, sizeof s.pos, VFETCH_GX_INDEX_ERROR, &o, &r), VFETCH_EGX_ARRAY_INDEX);
    r = (struct vfetch_gx_result){ 99, 99, 99 };
    CHECK_EQ(run_indexed(&s, all7_nbt, 1, sizeof s.pos, VFETCH_GX_INDEX_CLAMP, &o, &r), 0);
    CHECK_EQ(r.clamped, 2);
    static const unsigned clamped_row[3] = { 7, 6, 5 };
    for (unsigned j = 0; j < 3; j++)
        for (unsigned c = 0; c < 3; c++)
            CHECK_FLOAT(out_f(&o, s.plan, 0, 4 + 4 * j + c),
                        ldexpf((float)(3 * clamped_row[j] + 3 * j + c), -8));

    /* a skipped vertex's other indices are never checked (never read) */
    static const uint8_t skip_bad[6] = { 0xff, 0xff, 200, 200, 200, 200 };
    CHECK_EQ(run_indexed(&s, skip_bad, 1, sizeof s.pos, VFETCH_GX_INDEX_ERROR, &o, &r), 0);
    CHECK_EQ(r.written, 0);
    CHECK_EQ(r.skipped, 1);
    /* ... nor is an array no kept vertex reads: a position array of 0 bytes is accepted when
       every vertex is skipped (docs/gx.md, "What a draw reads") */
    CHECK_EQ(run_indexed(&s, skip_bad, 1, 0, VFETCH_GX_INDEX_ERROR, &o, &r), 0);
    CHECK_EQ(r.skipped, 1);
    /* count 0 succeeds before any buffer is looked at */
    {
        struct vfetch_gx_run_params none;
        vfetch_gx_run_params_init(&none);
        r = (struct vfetch_gx_result){ 99, 99, 99 };
        CHECK_EQ(vfetch_gx_run(s.plan, &none, &r), VFETCH_OK);
        CHECK(r.written == 0 && r.skipped == 0 && r.clamped == 0);
    }

    /* many vertices: more than one staging block, every 7th skipped */
    enum { N = 1000 };
    uint8_t *many = malloc(6 * N);
    for (unsigned i = 0; i < N; i++) {
        const unsigned idx = i % 7 == 3 ? 0xffff : i % 4;
        const uint8_t v[6] = { (uint8_t)(idx >> 8), (uint8_t)idx, (uint8_t)(i % 3), (uint8_t)(i % 5),
                               (uint8_t)(i % 6), (uint8_t)(i % 3) };
        memcpy(many + 6 * i, v, 6);
    }
    struct out_buf big = out_make(s.plan, N);
    CHECK_EQ(run_indexed(&s, many, N, sizeof s.pos, VFETCH_GX_INDEX_ERROR, &big, &r), 0);
    CHECK_EQ(r.skipped, 143); /* i % 7 == 3 for i < 1000: 3, 10, ..., 997 */
    CHECK_EQ(r.written, N - 143);
    uint32_t rec = 0, bad_records = 0;
    for (unsigned i = 0; i < N; i++) {
        if (i % 7 == 3)
            continue;
        bad_records += out_f(&big, s.plan, rec, 1) != (float)(10 * (i % 4) + 1);
        bad_records += out_f(&big, s.plan, rec, 4 + 8) != ldexpf((float)(3 * (i % 6) + 6 + 0), -8);
        rec++;
    }
    CHECK_EQ(bad_records, 0);
    /* output room for the written records only is enough; one byte less is not */
    struct out_buf tight = { big.p + 143 * (size_t)vfetch_gx_plan_out_stride(s.plan), big.size - 143 * (size_t)vfetch_gx_plan_out_stride(s.plan) };
    CHECK_EQ(run_indexed(&s, many, N, sizeof s.pos, VFETCH_GX_INDEX_ERROR, &tight, &r), 0);
    tight.p++, tight.size--;
    CHECK_EQ(run_indexed(&s, many, N, sizeof s.pos, VFETCH_GX_INDEX_ERROR, &tight, &r), VFETCH_ESHORT_OUTPUT);
    guard_free(big.p);
    free(many);
    guard_free(o.p);
    vfetch_gx_plan_free(s.plan);
}

static void test_errors(void)
{
    struct vfetch_gx_desc cp = { .regs = { .vcd_lo = vcd(0, VFETCH_GX_INDEX8) | vcd(2, VFETCH_GX_DIRECT),
                                                     .vat_a = 4u << 1 | 5u << 14 } };
    cp.array_stride[VFETCH_GX_POSITION] = 8;
    vfetch_gx_plan *plan = NULL;
    CHECK_EQ(vfetch_gx_compile(NULL, &plan), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_compile(&cp, NULL), VFETCH_EINVAL);
    cp.layout = (enum vfetch_gx_layout)5;
    CHECK_EQ(vfetch_gx_compile(&cp, &plan), VFETCH_EINVAL);
    cp.layout = VFETCH_GX_LAYOUT_VEC4;
    cp.color_output = (enum vfetch_gx_color_output)2;
    CHECK_EQ(vfetch_gx_compile(&cp, &plan), VFETCH_EINVAL);
    cp.color_output = VFETCH_GX_COLOR_FLOAT;
    cp.path = (enum vfetch_path)7;
    CHECK_EQ(vfetch_gx_compile(&cp, &plan), VFETCH_EINVAL);
    cp.path = VFETCH_PATH_AUTO;
    CHECK(plan == NULL);
    plan = compile(&cp);
    if (!plan)
        return;
    /* vertex: index8 + rgba8888 = 5 bytes */
    uint8_t verts[10] = { 0, 1, 2, 3, 4, 1, 5, 6, 7, 8 };
    uint8_t arr[16] = { 0 };
    uint8_t out[64];
    struct vfetch_gx_run_params p;
    vfetch_gx_run_params_init(&p);
    p.vertices = verts;
    p.vertices_size = sizeof verts;
    p.count = 2;
    p.arrays[VFETCH_GX_POSITION] = (struct vfetch_binding){ arr, sizeof arr };
    p.out = out;
    p.out_size = sizeof out;
    memset(out, 0xee, sizeof out);
    struct vfetch_gx_result r;
    CHECK_EQ(vfetch_gx_run(NULL, &p, &r), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_run(plan, NULL, &r), VFETCH_EINVAL);
    p.index_policy = (enum vfetch_gx_index_policy)2;
    CHECK_EQ(vfetch_gx_run(plan, &p, &r), VFETCH_EINVAL);
    p.index_policy = VFETCH_GX_INDEX_ERROR;
    p.vertices_size = 9;
    CHECK_EQ(vfetch_gx_run(plan, &p, &r), VFETCH_ESHORT_STREAM);
    p.vertices_size = sizeof verts;
    p.vertices = NULL;
    CHECK_EQ(vfetch_gx_run(plan, &p, &r), VFETCH_EMISSING_STREAM);
    p.vertices = verts;
    p.arrays[VFETCH_GX_POSITION].data = NULL;
    CHECK_EQ(vfetch_gx_run(plan, &p, &r), VFETCH_EMISSING_STREAM);
    /* unbound, with a size that holds every row an index8 names: the generated code, which
       reads an array's size alone, never sees it (vfetch_gx_run checks that it is bound) */
    p.arrays[VFETCH_GX_POSITION].size = (size_t)1 << 20;
    CHECK_EQ(vfetch_gx_run(plan, &p, &r), VFETCH_EMISSING_STREAM);
    p.arrays[VFETCH_GX_POSITION] = (struct vfetch_binding){ arr, sizeof arr };
    p.out_size = 63; /* two vec4 records need 64 */
    CHECK_EQ(vfetch_gx_run(plan, &p, &r), VFETCH_ESHORT_OUTPUT);
    p.out_size = sizeof out;
    p.out = NULL;
    CHECK_EQ(vfetch_gx_run(plan, &p, &r), VFETCH_EINVAL);
    p.out = out;
    for (unsigned i = 0; i < sizeof out; i++)
        CHECK_EQ(out[i], 0xee); /* nothing written by any failed run */
    /* index 1: 8 + 8 = 16 bytes fit exactly; index 2 would not */
    CHECK_EQ(vfetch_gx_run(plan, &p, &r), 0);
    CHECK_EQ(r.written, 2);
    verts[5] = 2;
    CHECK_EQ(vfetch_gx_run(plan, &p, &r), VFETCH_EGX_ARRAY_INDEX);
    /* count 0: nothing to check, nothing written */
    p.count = 0;
    p.vertices = NULL;
    CHECK_EQ(vfetch_gx_run(plan, &p, &r), 0);
    CHECK_EQ(r.written, 0);
    vfetch_gx_plan_free(plan);

    /* a VCD with nothing: 0-byte vertices, nothing to write */
    struct vfetch_gx_desc empty = { .regs = { 0 } };
    plan = compile(&empty);
    if (plan) {
        CHECK(vfetch_gx_plan_converter(plan) == NULL);
        CHECK_EQ(vfetch_gx_plan_out_stride(plan), 0);
        vfetch_gx_run_params_init(&p);
        p.count = 5;
        CHECK_EQ(vfetch_gx_run(plan, &p, &r), 0);
        CHECK_EQ(r.written, 5);
        vfetch_gx_plan_free(plan);
    }
    CHECK(strcmp(vfetch_strerror(VFETCH_EGX_ARRAY_INDEX), "unknown error") != 0);
    CHECK(strcmp(vfetch_strerror(VFETCH_EREGISTER), "unknown error") != 0);
}

/*
 * Draws that fit the stage are checked while they are staged, longer ones in a pass of their
 * own; staging runs in blocks of 128: counts on both sides of each boundary, with the one bad
 * index in the last vertex (an error with nothing written; clamped and counted), with a
 * skipped vertex, and with every index good (the same output).
 */
static void test_block_boundary(void)
{
    struct vfetch_gx_desc cp = {
        .regs = { .vcd_lo = vcd(0, VFETCH_GX_INDEX8), .vat_a = 1 | 4u << 1 } }; /* f32 XYZ */
    cp.array_stride[VFETCH_GX_POSITION] = 12;
    vfetch_gx_plan *plan = compile(&cp);
    if (!plan)
        return;
    /* Around 128 (the block checked and staged a column at a time), 1376 (the draws the
       16,512-byte stack stage holds of this 12-byte staged vertex) and 21,845 (those a
       256 KiB heap stage holds): up to there checked while staged, in one pass; beyond,
       checked first and staged through the stack stage in blocks. Where the gathered program
       runs (lib/gx/run.c), around 131,056 (the draws whose address columns of this one move
       fit 1 MiB): beyond, checked first and converted in chunks from columns on the stack. */
    static const uint32_t counts[] = { 1,     2,     127,   128,   129,    255,    256,
                                       257,   1375,  1376,  1377,  3000,   21845,  21846,
                                       30000, 131056, 131057, 131080, 140000 };
    enum { ROWS = 4, MAX = 140000 };
    uint8_t *arr = guard_alloc_tail(ROWS * 12); /* big-endian floats 0, 1, 2, ... */
    for (unsigned i = 0; i < ROWS * 3; i++) {
        const uint32_t bits = test_float_bits((float)i);
        for (unsigned k = 0; k < 4; k++)
            arr[4 * i + k] = (uint8_t)(bits >> (24 - 8 * k));
    }
    uint8_t *verts = guard_alloc_tail(MAX);
    const uint32_t stride = vfetch_gx_plan_out_stride(plan);
    uint8_t *out = guard_alloc_tail((size_t)MAX * stride);
    for (unsigned c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        const uint32_t count = counts[c];
        for (unsigned policy = 0; policy < 2; policy++) {
            for (unsigned v = 0; v < count; v++)
                verts[v] = (uint8_t)(v % ROWS);
            if (count > 3)
                verts[3] = 0xff; /* skipped */
            verts[count - 1] = ROWS; /* one past the array */
            struct vfetch_gx_run_params p;
            vfetch_gx_run_params_init(&p);
            p.vertices = verts;
            p.vertices_size = count;
            p.count = count;
            p.arrays[VFETCH_GX_POSITION] = (struct vfetch_binding){ arr, ROWS * 12 };
            p.index_policy = (enum vfetch_gx_index_policy)policy;
            p.out = out;
            p.out_size = (size_t)MAX * stride;
            memset(out, 0xee, p.out_size);
            struct vfetch_gx_result r = { 7, 7, 7 };
            const int err = vfetch_gx_run(plan, &p, &r);
            if (policy == VFETCH_GX_INDEX_ERROR) {
                CHECK_EQ(err, VFETCH_EGX_ARRAY_INDEX);
                CHECK_EQ(r.written, 7); /* untouched */
                unsigned touched = 0;
                for (size_t i = 0; i < p.out_size; i++)
                    touched += out[i] != 0xee;
                CHECK_EQ(touched, 0);
                continue;
            }
            CHECK_EQ(err, 0);
            const uint32_t skipped = count > 3;
            CHECK_EQ(r.skipped, skipped);
            CHECK_EQ(r.clamped, 1);
            CHECK_EQ(r.written, count - skipped);
            /* written vertex w is draw vertex w (w < 3) or w + 1; the last one clamped to row 3 */
            for (uint32_t w = 0; w < count - skipped; w++) {
                const uint32_t v = w < 3 || !skipped ? w : w + 1;
                const unsigned row = v == count - 1 ? ROWS - 1 : v % ROWS;
                float x;
                memcpy(&x, out + (size_t)w * stride, 4);
                CHECK_FLOAT(x, (float)(row * 3));
            }
        }
    }
    guard_free(out);
    guard_free(verts);
    guard_free(arr);
    vfetch_gx_plan_free(plan);
}

/*
 * Indexed draws against their direct twins: random formats with some attributes indexed, run
 * through vfetch_gx_run, must give the output of the same format with those attributes direct
 * and each vertex carrying the array elements its indices select (clamped as documented), made
 * here element by element. Covers both staging forms of lib/gx/run.c (blocks of fewer than 24
 * vertices by columns, longer ones by rows: 16-byte moves with the arrays' and the vertices'
 * last bytes read from tail copies), skipped vertices, clamped and refused indices, strides
 * 0 and below the element size, and arrays ending mid-element against guard pages at their
 * end or their start.
 */
static uint64_t twin_rng = 0x7a1c0ffee;

static uint32_t twin_below(uint32_t n)
{
    twin_rng ^= twin_rng >> 12;
    twin_rng ^= twin_rng << 25;
    twin_rng ^= twin_rng >> 27;
    return n ? (uint32_t)(((twin_rng * 0x2545F4914F6CDD1Dull) >> 32) % n) : 0;
}

static void test_indexed_twins(void)
{
    static const uint32_t counts[] = { 1, 2, 5, 23, 24, 25, 31, 64, 127, 128, 129, 200, 401 };
    unsigned draws = 0, rows_draws = 0;
    for (unsigned iter = 0; iter < 400; iter++) {
        struct vfetch_gx_desc cp = { 0 };
        cp.regs.vat_a = (uint32_t)twin_below(UINT32_MAX) | twin_below(2) << 31;
        cp.regs.vat_b = (uint32_t)twin_below(UINT32_MAX) | 1u << 31;
        cp.regs.vat_c = (uint32_t)twin_below(UINT32_MAX);
        cp.regs.vcd_lo = twin_below(4) == 0 ? twin_below(0x200) : 0;
        unsigned modes[VFETCH_GX_NUM_ATTRS] = { 0 }, present = 1 + twin_below(4);
        for (unsigned k = 0; k < present; k++) {
            const unsigned a = k == 0 ? VFETCH_GX_POSITION : twin_below(VFETCH_GX_NUM_ATTRS);
            modes[a] = 1 + twin_below(3);
        }
        if (modes[VFETCH_GX_POSITION] == VFETCH_GX_DIRECT && twin_below(2))
            modes[VFETCH_GX_POSITION] = VFETCH_GX_INDEX16;
        struct vfetch_gx_desc dp;
        uint32_t vcd_lo = cp.regs.vcd_lo, vcd_hi = 0, dvcd_lo = vcd_lo, dvcd_hi = 0;
        for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
            const unsigned shift = a < 4 ? 9 + 2 * a : 2 * (a - 4);
            const unsigned direct = modes[a] ? VFETCH_GX_DIRECT : 0;
            *(a < 4 ? &vcd_lo : &vcd_hi) |= modes[a] << shift;
            *(a < 4 ? &dvcd_lo : &dvcd_hi) |= direct << shift;
        }
        cp.regs.vcd_lo = vcd_lo, cp.regs.vcd_hi = vcd_hi;
        cp.layout = (enum vfetch_gx_layout)twin_below(2);
        cp.color_output = (enum vfetch_gx_color_output)twin_below(2);
        struct vfetch_gx_format f;
        if (vfetch_gx_parse(&cp.regs, &f) != 0)
            continue; /* a reserved color format */
        for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
            cp.array_stride[a] = twin_below(8) == 0 ? 0 : (uint8_t)(f.attr[a].element_size + twin_below(5) - (twin_below(4) == 0));
        dp = cp;
        dp.regs.vcd_lo = dvcd_lo, dp.regs.vcd_hi = dvcd_hi;
        vfetch_gx_plan *plan = compile(&cp), *twin = compile(&dp);
        if (!plan || !twin) {
            vfetch_gx_plan_free(plan);
            vfetch_gx_plan_free(twin);
            continue;
        }
        const struct vfetch_gx_format *df = vfetch_gx_plan_format(twin);
        const uint32_t count = counts[twin_below(sizeof counts / sizeof counts[0])];
        const size_t vsize = f.vertex_size, dsize = df->vertex_size;
        const uint32_t stride = vfetch_gx_plan_out_stride(plan);
        CHECK_EQ(stride, vfetch_gx_plan_out_stride(twin));

        /* arrays: rows elements, the last one possibly cut short of the stride */
        uint8_t *arr[VFETCH_GX_NUM_ATTRS] = { 0 };
        size_t arr_size[VFETCH_GX_NUM_ATTRS] = { 0 };
        uint32_t rows[VFETCH_GX_NUM_ATTRS] = { 0 };
        const bool head = twin_below(3) == 0;
        for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
            if (modes[a] < VFETCH_GX_INDEX8)
                continue;
            rows[a] = 1 + twin_below(modes[a] == VFETCH_GX_INDEX8 ? 255 : 700);
            arr_size[a] = (size_t)(rows[a] - 1) * cp.array_stride[a] + f.attr[a].element_size +
                          twin_below(cp.array_stride[a] + 1);
            arr[a] = head ? guard_alloc_head(arr_size[a]) : guard_alloc_tail(arr_size[a]);
            for (size_t i = 0; i < arr_size[a]; i++)
                arr[a][i] = (uint8_t)twin_below(256);
        }
        /* vertices, and their direct twins (kept vertices only); the clamps expected */
        uint8_t *verts = guard_alloc_tail(count * vsize), *dverts = malloc(count * dsize + 1);
        uint32_t kept = 0, clamped = 0;
        for (uint32_t v = 0; v < count; v++) {
            uint8_t *vx = verts + v * vsize, *dx = dverts + kept * dsize;
            for (size_t i = 0; i < vsize; i++)
                vx[i] = (uint8_t)twin_below(256);
            size_t at = 0, dat = 0;
            while (at < vsize - 0 && at < (size_t)(f.pos_matrix_index + 0) + 0) /* matrix bytes */
                at++;
            unsigned matrix = f.pos_matrix_index;
            for (unsigned t = 0; t < 8; t++)
                matrix += f.tex_matrix_index[t];
            memcpy(dx, vx, matrix);
            at = dat = matrix;
            bool skip = false;
            uint32_t vclamped = 0;
            for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
                const struct vfetch_gx_attr *ta = &f.attr[a];
                if (!modes[a])
                    continue;
                if (modes[a] == VFETCH_GX_DIRECT) {
                    memcpy(dx + dat, vx + at, ta->element_size);
                } else {
                    const unsigned isize = modes[a] == VFETCH_GX_INDEX8 ? 1 : 2;
                    const unsigned pieces = ta->stream_size / isize, piece = ta->element_size / pieces;
                    for (unsigned j = 0; j < pieces; j++) {
                        uint32_t idx = twin_below(16) == 0 ? twin_below(isize == 1 ? 256 : 65536)
                                                           : twin_below(rows[a] + 2);
                        if (a == VFETCH_GX_POSITION && twin_below(10) == 0)
                            idx = isize == 1 ? 0xff : 0xffff;
                        if (isize == 1)
                            vx[at + j] = (uint8_t)idx;
                        else
                            vx[at + 2 * j] = (uint8_t)(idx >> 8), vx[at + 2 * j + 1] = (uint8_t)idx;
                        if (a == VFETCH_GX_POSITION && idx == (isize == 1 ? 0xffu : 0xffffu))
                            skip = true;
                        const size_t s = cp.array_stride[a], first = (size_t)j * piece;
                        const uint32_t last = s ? (uint32_t)((arr_size[a] - first - piece) / s) : UINT32_MAX;
                        vclamped += idx > last;
                        const uint32_t use = idx > last ? last : idx;
                        memcpy(dx + dat + first, arr[a] + (size_t)use * s + first, piece);
                    }
                }
                at += ta->stream_size;
                dat += ta->element_size;
            }
            if (!skip) {
                kept++;
                clamped += vclamped;
            }
        }
        const enum vfetch_gx_index_policy policy =
            twin_below(4) == 0 ? VFETCH_GX_INDEX_ERROR : VFETCH_GX_INDEX_CLAMP;
        struct vfetch_gx_run_params p;
        vfetch_gx_run_params_init(&p);
        p.vertices = verts;
        p.vertices_size = count * vsize;
        p.count = count;
        p.index_policy = policy;
        for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
            p.arrays[a] = (struct vfetch_binding){ arr[a], arr_size[a] };
        const size_t out_size = kept ? (size_t)kept * stride : 1;
        p.out = guard_alloc_tail(out_size);
        p.out_size = out_size;
        memset(p.out, 0xee, out_size);
        struct vfetch_gx_result r = { 7, 7, 7 };
        const int err = vfetch_gx_run(plan, &p, &r);
        if (policy == VFETCH_GX_INDEX_ERROR && clamped) {
            CHECK_EQ(err, VFETCH_EGX_ARRAY_INDEX);
            CHECK_EQ(r.written, 7);
            size_t touched = 0;
            for (size_t i = 0; i < out_size; i++)
                touched += ((uint8_t *)p.out)[i] != 0xee;
            CHECK_EQ(touched, 0);
        } else {
            CHECK_EQ(err, 0);
            CHECK_EQ(r.written, kept);
            CHECK_EQ(r.skipped, count - kept);
            CHECK_EQ(r.clamped, clamped);
            if (kept) {
                uint8_t *want = malloc(out_size);
                memset(want, 0xee, out_size);
                struct vfetch_gx_run_params dpar;
                vfetch_gx_run_params_init(&dpar);
                dpar.vertices = dverts;
                dpar.vertices_size = kept * dsize;
                dpar.count = kept;
                dpar.out = want;
                dpar.out_size = out_size;
                CHECK_EQ(vfetch_gx_run(twin, &dpar, NULL), 0);
                const bool same = memcmp(want, p.out, out_size) == 0;
                CHECK(same);
                if (!same)
                    fprintf(stderr, "  indexed twin %u: vcd %08x/%08x vat %08x %08x %08x, %u vertices\n",
                            iter, cp.regs.vcd_lo, cp.regs.vcd_hi, cp.regs.vat_a, cp.regs.vat_b,
                            cp.regs.vat_c, count);
                free(want);
            }
        }
        draws++;
        rows_draws += count >= 24;
        guard_free(p.out);
        guard_free(verts);
        free(dverts);
        for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
            guard_free(arr[a]);
        vfetch_gx_plan_free(plan);
        vfetch_gx_plan_free(twin);
    }
    CHECK(draws >= 300); /* few formats were reserved */
    CHECK(rows_draws >= 150);
}

/* vfetch_gx_run_params_init sets every field to zero (written field by field, not by memset). */
static void test_params_init(void)
{
    struct vfetch_gx_run_params p;
    memset(&p, 0xaa, sizeof p);
    vfetch_gx_run_params_init(&p);
    CHECK(p.vertices == NULL);
    CHECK_EQ(p.vertices_size, 0);
    CHECK_EQ(p.count, 0);
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
        CHECK(p.arrays[a].data == NULL);
        CHECK_EQ(p.arrays[a].size, 0);
    }
    CHECK_EQ(p.index_policy, VFETCH_GX_INDEX_ERROR);
    CHECK(p.out == NULL);
    CHECK_EQ(p.out_size, 0);
    vfetch_gx_run_params_init(NULL); /* harmless */
}

/*
 * VFETCH_GX_LAYOUT_DOLPHIN against the packed layout's rules (include/vfetch/gx.h): each
 * Dolphin record rebuilt from the packed record of the same vertex: the position-matrix index
 * first, then position, normals and colors as packed, then per texcoord its packed floats, or
 * with a matrix index (s, t or 0, the index as a float), or (0, 0, index) without its
 * texcoord. Random all-direct formats with matrix indices, both color outputs, at every level
 * the test runs at; and a hand vector.
 */
static void test_dolphin_layout(void)
{
    unsigned formats = 0, with_tex_matrix = 0;
    uint64_t seed = 0xd01f1u;
    for (unsigned iter = 0; iter < 300; iter++) {
        struct vfetch_gx_desc cp = { 0 };
        uint32_t r[5];
        for (unsigned k = 0; k < 5; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            r[k] = (uint32_t)(seed >> 32);
        }
        cp.regs.vat_a = r[0];
        cp.regs.vat_b = r[1] | 1u << 31;
        cp.regs.vat_c = r[2];
        cp.regs.vcd_lo = (r[3] & 0x1ff) | vcd(0, VFETCH_GX_DIRECT);
        for (unsigned a = 1; a < VFETCH_GX_NUM_ATTRS; a++)
            if (r[4] >> a & 1) {
                const unsigned shift = a < 4 ? 9 + 2 * a : 2 * (a - 4);
                *(a < 4 ? &cp.regs.vcd_lo : &cp.regs.vcd_hi) |= (uint32_t)VFETCH_GX_DIRECT << shift;
            }
        cp.color_output = (enum vfetch_gx_color_output)(iter & 1);
        struct vfetch_gx_format f;
        if (vfetch_gx_parse(&cp.regs, &f) != 0)
            continue;
        cp.layout = VFETCH_GX_LAYOUT_PACKED;
        vfetch_gx_plan *packed = compile(&cp);
        cp.layout = VFETCH_GX_LAYOUT_DOLPHIN;
        vfetch_gx_plan *dolphin = compile(&cp);
        if (!packed || !dolphin) {
            vfetch_gx_plan_free(packed);
            vfetch_gx_plan_free(dolphin);
            continue;
        }
        const uint32_t n = 1 + (r[3] >> 9) % 37, vsize = f.vertex_size;
        uint8_t *bytes = malloc((size_t)n * vsize + 1);
        for (size_t i = 0; i < (size_t)n * vsize; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            bytes[i] = (uint8_t)(seed >> 40);
        }
        struct out_buf po = out_make(packed, n), dout = out_make(dolphin, n);
        struct vfetch_gx_result res;
        CHECK_EQ(run_direct(packed, bytes, n, &po, &res), 0);
        CHECK_EQ(run_direct(dolphin, bytes, n, &dout, &res), 0);
        struct vfetch_vertex_decl pd;
        CHECK_EQ(vfetch_gx_plan_declaration(packed, &pd), 0);
        const uint32_t ps = vfetch_gx_plan_out_stride(packed), ds = vfetch_gx_plan_out_stride(dolphin);
        uint32_t want[64];
        for (uint32_t v = 0; v < n; v++) {
            const uint8_t *rec = po.p + (size_t)v * ps;
            unsigned w = 0;
            /* a location's packed slots (declared count; one for RGBA8) */
#define PUT_LOCATION(loc)                                                                   \
    for (unsigned i_ = 0; i_ < pd.num_attrs; i_++)                                          \
        if (pd.attrs[i_].location == (loc)) {                                               \
            const unsigned slots_ = pd.attrs[i_].type == VFETCH_ATTR_UNORM8X4 ? 1 : pd.attrs[i_].count; \
            memcpy(want + w, rec + pd.attrs[i_].offset, 4 * slots_);                       \
            w += slots_;                                                                    \
        }
            PUT_LOCATION(VFETCH_GX_LOC_POS_MATRIX);
            for (unsigned loc = VFETCH_GX_LOC_POSITION; loc <= VFETCH_GX_LOC_COLOR1; loc++)
                PUT_LOCATION(loc);
            for (unsigned t = 0; t < 8; t++) {
                const int tex = vfetch_gx_plan_location(packed, VFETCH_GX_LOC_TEXCOORD0 + t);
                const int mtx = vfetch_gx_plan_location(packed, VFETCH_GX_LOC_TEX_MATRIX0 + t);
                if (mtx < 0) {
                    PUT_LOCATION(VFETCH_GX_LOC_TEXCOORD0 + t);
                    continue;
                }
                const float zero = 0.0f;
                memcpy(want + w, tex >= 0 ? rec + 4 * tex : (const uint8_t *)&zero, 4);
                const int st = tex >= 0 && f.attr[VFETCH_GX_TEXCOORD0 + t].count == 2;
                memcpy(want + w + 1, st ? rec + 4 * tex + 4 : (const uint8_t *)&zero, 4);
                uint32_t index;
                memcpy(&index, rec + 4 * mtx, 4);
                const float z = (float)index;
                memcpy(want + w + 2, &z, 4);
                w += 3;
                with_tex_matrix++;
                CHECK_EQ(vfetch_gx_plan_location(dolphin, VFETCH_GX_LOC_TEX_MATRIX0 + t), -1);
            }
#undef PUT_LOCATION
            CHECK_EQ(4 * w, ds);
            CHECK(memcmp(dout.p + (size_t)v * ds, want, 4 * w) == 0);
        }
        guard_free(po.p);
        guard_free(dout.p);
        free(bytes);
        vfetch_gx_plan_free(packed);
        vfetch_gx_plan_free(dolphin);
        formats++;
    }
    printf("gx-convert: Dolphin layout against the packed rules: %u formats, %u texcoords with "
           "matrix indices\n", formats, with_tex_matrix);
    CHECK(formats > 200 && with_tex_matrix > 1000);

    /* hand vector: position-matrix byte 0xC5 (index 5), texcoord-1 matrix 0x3F (63) without
       texcoord 1; position s16 XY >> 8; texcoord0 s16 S >> 10, no matrix */
    struct vfetch_gx_desc cp = {
        .regs = { .vcd_lo = 1 | 1u << 2 | vcd(0, VFETCH_GX_DIRECT), .vcd_hi = VFETCH_GX_DIRECT,
                  .vat_a = 3u << 1 | 8u << 4 | 3u << 22 | 10u << 25 | 1u << 30 },
        .layout = VFETCH_GX_LAYOUT_DOLPHIN };
    static const uint8_t v[8] = { 0xc5, 0x3f, 0x01, 0x80, 0xff, 0x00, 0x04, 0x00 };
    vfetch_gx_plan *plan = compile(&cp);
    if (!plan)
        return;
    CHECK_EQ(vfetch_gx_plan_format(plan)->vertex_size, 8);
    CHECK_EQ(vfetch_gx_plan_out_stride(plan), 4 * (1 + 2 + 1 + 3));
    struct out_buf o = out_make(plan, 1);
    struct vfetch_gx_result res;
    CHECK_EQ(run_direct(plan, v, 1, &o, &res), 0);
    CHECK_EQ(out_u(&o, plan, 0, 0), 5);               /* position-matrix index, an integer */
    CHECK_FLOAT(out_f(&o, plan, 0, 1), 1.5f);         /* 0x0180 >> 8 */
    CHECK_FLOAT(out_f(&o, plan, 0, 2), -1.0f);        /* 0xFF00 >> 8 */
    CHECK_FLOAT(out_f(&o, plan, 0, 3), 1.0f);         /* texcoord 0: 0x0400 >> 10, alone */
    CHECK_FLOAT(out_f(&o, plan, 0, 4), 0.0f);         /* texcoord 1: (0, 0, 63) */
    CHECK_FLOAT(out_f(&o, plan, 0, 5), 0.0f);
    CHECK_FLOAT(out_f(&o, plan, 0, 6), 63.0f);
    CHECK_EQ(vfetch_gx_plan_location(plan, VFETCH_GX_LOC_POS_MATRIX), 0);
    CHECK_EQ(vfetch_gx_plan_location(plan, VFETCH_GX_LOC_TEXCOORD0 + 1), 4);
    guard_free(o.p);
    vfetch_gx_plan_free(plan);
}

/* The real Wii captures' three formats (pos f32 XYZ; pos f32 XY + texcoord 0 f32 ST; pos f32
   XY), packed: word-copy plans above the reference level (docs/simd.md), whose draws of 1..40
   vertices (buffers ending at guard pages) give the big-endian floats, every NaN payload and
   signalling bit kept; in the vec4 layout (w = 1 added) they are not copies. */
static void test_word_copy(void)
{
    static const struct vfetch_gx_regs formats[3] = {
        { 1u << 9, 0, 1 | 4u << 1 | 1u << 30, 1u << 31, 0 },
        { 1u << 9, 1, 0 | 4u << 1 | 1u << 21 | 4u << 22 | 1u << 30, 1u << 31, 0 },
        { 1u << 9, 0, 0 | 4u << 1 | 1u << 30, 1u << 31, 0 },
    };
    static const unsigned words[3] = { 3, 4, 2 };
    for (unsigned fi = 0; fi < 3; fi++) {
        struct vfetch_gx_desc cp;
        memset(&cp, 0, sizeof cp);
        cp.regs = formats[fi];
        cp.layout = VFETCH_GX_LAYOUT_PACKED;
        cp.color_output = VFETCH_GX_COLOR_RGBA8;
        vfetch_gx_plan *plan = compile(&cp);
        cp.layout = VFETCH_GX_LAYOUT_VEC4;
        vfetch_gx_plan *vec4 = compile(&cp);
        if (!plan || !vec4)
            return;
        struct vfetch_plan_info info, info4;
        CHECK_EQ(vfetch_plan_info(vfetch_gx_plan_converter(plan), &info), 0);
        CHECK_EQ(vfetch_plan_info(vfetch_gx_plan_converter(vec4), &info4), 0);
        CHECK_EQ(info.word_copy, strcmp(info.level, "c") != 0);
        CHECK_EQ(info4.word_copy, 0);
        CHECK_EQ(vfetch_gx_plan_out_stride(plan), 4 * words[fi]);
        for (uint32_t count = 1; count <= 40; count += count < 9 ? 1 : 7) {
            uint8_t bytes[40 * 16];
            uint32_t want[40 * 4];
            for (unsigned i = 0; i < count * words[fi]; i++) {
                /* a word pattern with NaNs (signalling and quiet) and denormals among them */
                const uint32_t w = i % 5 == 0 ? 0x7f800001u + i : i % 5 == 1 ? 0x00000003u * i
                                   : 0x3f800000u + i * 0x10001u;
                want[i] = w;
                bytes[4 * i] = (uint8_t)(w >> 24), bytes[4 * i + 1] = (uint8_t)(w >> 16);
                bytes[4 * i + 2] = (uint8_t)(w >> 8), bytes[4 * i + 3] = (uint8_t)w;
            }
            struct out_buf o = out_make(plan, count);
            struct vfetch_gx_result r;
            CHECK_EQ(run_direct(plan, bytes, count, &o, &r), 0);
            CHECK_EQ(r.written, count);
            CHECK(memcmp(o.p, want, (size_t)count * words[fi] * 4) == 0);
            guard_free(o.p);
        }
        vfetch_gx_plan_free(plan);
        vfetch_gx_plan_free(vec4);
    }
}

int main(void)
{
    test_positions();
    test_normals();
    test_colors();
    test_layouts();
    test_indexed();
    test_errors();
    test_block_boundary();
    test_indexed_twins();
    test_params_init();
    test_dolphin_layout();
    test_word_copy();
    return test_summary("gx-convert");
}
