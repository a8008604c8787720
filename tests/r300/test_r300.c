/*
 * The R300/R500 front-end end to end (registers -> plan -> vfetch_run), with expected values
 * worked out by hand from ../shared/spec/r300-vap-prog-stream-cntl.txt and DECISIONS.md.
 * Where an expected value is a quotient, it is written as the one float division the spec
 * prescribes ("(float)num / (float)den"), with its decimal value in the comment.
 */
#include <stdlib.h>

#include "guard.h"
#include "testutil.h"
#include "vfetch/r300.h"

/* One 16-bit element: DATA_TYPE 3:0, SKIP 7:4, DST_VEC_LOC 12:8, LAST 13, SIGNED 14, NORM 15. */
static uint32_t el(unsigned type, unsigned loc, int last, int sgn, int norm, unsigned skip)
{
    return type | skip << 4 | loc << 8 | (unsigned)last << 13 | (unsigned)sgn << 14 |
           (unsigned)norm << 15;
}

static void set_elements(struct vfetch_r300_desc *d, const uint32_t *els, unsigned n)
{
    memset(d->prog_stream_cntl, 0, sizeof d->prog_stream_cntl);
    for (unsigned e = 0; e < n; e++)
        d->prog_stream_cntl[e / 2] |= els[e] << (16 * (e & 1));
}

/* Float bits helpers for the expected tables. */
static float q(float num, float den)
{
    return num / den; /* the single IEEE division the spec names */
}

/* Convert one immediate-mode vertex; out receives `vectors` vec4 (prefilled with a sentinel). */
static int run_imm(struct vfetch_r300_desc *d, const uint32_t *dwords, unsigned ndw, float *out,
                   unsigned vectors)
{
    d->num_arrays = 0;
    d->vtx_size_dwords = ndw;
    vfetch_plan *plan;
    int err = vfetch_r300_compile(d, &plan);
    if (err)
        return err;
    uint32_t *src = guard_alloc_tail(ndw * 4);
    memcpy(src, dwords, ndw * 4);
    float *o = guard_alloc_tail(vectors * 16);
    for (unsigned i = 0; i < vectors * 4; i++)
        o[i] = test_bits_float(0xDEADBEEFu);
    struct vfetch_binding b = { src, ndw * 4 };
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = &b;
    p.num_streams = 1;
    p.count = 1;
    p.out = o;
    p.out_size = vectors * 16;
    if (vfetch_plan_record_size(plan) != vectors * 16) {
        err = -1000; /* test bug or layout bug */
    } else {
        err = vfetch_run(plan, &p);
        memcpy(out, o, vectors * 16);
    }
    guard_free(src);
    guard_free(o);
    vfetch_plan_free(plan);
    return err;
}

static void expect_vec(const float *got, float x, float y, float z, float w, int line)
{
    const float want[4] = { x, y, z, w };
    for (unsigned c = 0; c < 4; c++) {
        test_checks++;
        if (test_float_bits(got[c]) != test_float_bits(want[c])) {
            test_failures++;
            fprintf(stderr, "test_r300.c:%d: component %u = %.9g (0x%08x), want %.9g (0x%08x)\n",
                    line, c, (double)got[c], test_float_bits(got[c]), (double)want[c],
                    test_float_bits(want[c]));
        }
    }
}
#define EXPECT_VEC(got, x, y, z, w) expect_vec(got, x, y, z, w, __LINE__)

/* One element at location 0 of one vertex. */
static void one(uint32_t element, uint32_t sgn_norm, const uint32_t *dw, unsigned ndw, float out[4])
{
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    set_elements(&d, &element, 1);
    d.sgn_norm_cntl = sgn_norm;
    CHECK_EQ(run_imm(&d, dw, ndw, out, 1), 0);
}

static void test_float_types(void)
{
    float o[8];
    const uint32_t f[8] = { 0x3f800000, 0x40000000, 0xc0400000, 0x40800000,
                            0x7fc00001, 0x00000001, 0x80000000, 0x7f800000 };
    one(el(VFETCH_R300_FLOAT_1, 0, 1, 0, 0, 0), 0, f, 1, o);
    EXPECT_VEC(o, 1.0f, 0.0f, 0.0f, 1.0f); /* missing y, z = 0, w = 1 */
    one(el(VFETCH_R300_FLOAT_2, 0, 1, 1, 1, 0), 0, f, 2, o); /* SIGNED/NORMALIZE ignored */
    EXPECT_VEC(o, 1.0f, 2.0f, 0.0f, 1.0f);
    one(el(VFETCH_R300_FLOAT_3, 0, 1, 0, 0, 0), 0, f, 3, o);
    EXPECT_VEC(o, 1.0f, 2.0f, -3.0f, 1.0f);
    one(el(VFETCH_R300_FLOAT_4, 0, 1, 0, 0, 0), 0, f + 4, 4, o);
    /* bits copied exactly: a NaN payload, a denormal, -0, +inf */
    CHECK_EQ(test_float_bits(o[0]), 0x7fc00001u);
    CHECK_EQ(test_float_bits(o[1]), 0x00000001u);
    CHECK_EQ(test_float_bits(o[2]), 0x80000000u);
    CHECK_EQ(test_float_bits(o[3]), 0x7f800000u);

    /* FLOAT_8 at location 3 writes vectors 3 and 4 */
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    uint32_t e = el(VFETCH_R300_FLOAT_8, 3, 1, 0, 0, 0);
    set_elements(&d, &e, 1);
    float o8[8];
    CHECK_EQ(run_imm(&d, f, 8, o8, 2), 0);
    EXPECT_VEC(o8, 1.0f, 2.0f, -3.0f, 4.0f);
    CHECK_EQ(test_float_bits(o8[4]), 0x7fc00001u);
    CHECK_EQ(test_float_bits(o8[7]), 0x7f800000u);
    vfetch_plan *plan;
    CHECK_EQ(vfetch_r300_compile(&d, &plan), 0);
    CHECK_EQ(vfetch_plan_location(plan, 3), 0);
    CHECK_EQ(vfetch_plan_location(plan, 4), 4);
    CHECK_EQ(vfetch_plan_location(plan, 5), -1);
    vfetch_plan_free(plan);
}

static void test_fixed_types(void)
{
    float o[4];
    const uint32_t bytes = 0x04030201u; /* X = 1, Y = 2, Z = 3, W = 4 */
    one(el(VFETCH_R300_BYTE, 0, 1, 0, 0, 0), 0, &bytes, 1, o);
    EXPECT_VEC(o, 1.0f, 2.0f, 3.0f, 4.0f);
    /* D3DCOLOR: Z = [7:0] = 1, Y = [15:8] = 2, X = [23:16] = 3, W = [31:24] = 4 */
    one(el(VFETCH_R300_D3DCOLOR, 0, 1, 0, 0, 0), 0, &bytes, 1, o);
    EXPECT_VEC(o, 3.0f, 2.0f, 1.0f, 4.0f);
    /* D3DCOLOR normalized: 0x80FF4000 -> X = 0xFF, Y = 0x40, Z = 0x00, W = 0x80 */
    const uint32_t color = 0x80FF4000u;
    one(el(VFETCH_R300_D3DCOLOR, 0, 1, 0, 1, 0), 0, &color, 1, o);
    EXPECT_VEC(o, 1.0f, q(64, 255), 0.0f, q(128, 255)); /* 0.2509804, 0.5019608 */

    const uint32_t shorts = 0xFFFE0005u; /* X = 5, Y = 0xFFFE */
    one(el(VFETCH_R300_SHORT_2, 0, 1, 0, 0, 0), 0, &shorts, 1, o);
    EXPECT_VEC(o, 5.0f, 65534.0f, 0.0f, 1.0f);
    one(el(VFETCH_R300_SHORT_2, 0, 1, 1, 0, 0), 0, &shorts, 1, o);
    EXPECT_VEC(o, 5.0f, -2.0f, 0.0f, 1.0f);
    const uint32_t shorts4[2] = { 0x00020001u, 0x80007FFFu };
    one(el(VFETCH_R300_SHORT_4, 0, 1, 1, 0, 0), 0, shorts4, 2, o);
    EXPECT_VEC(o, 1.0f, 2.0f, 32767.0f, -32768.0f);

    /* VECTOR_3_TTT: X = [9:0] = 1, Y = [19:10] = 2, Z = [29:20] = 1023; W = 1 */
    const uint32_t ttt = 1u | 2u << 10 | 1023u << 20 | 3u << 30;
    one(el(VFETCH_R300_VECTOR_3_TTT, 0, 1, 0, 0, 0), 0, &ttt, 1, o);
    EXPECT_VEC(o, 1.0f, 2.0f, 1023.0f, 1.0f);
    one(el(VFETCH_R300_VECTOR_3_TTT, 0, 1, 1, 0, 0), 0, &ttt, 1, o);
    EXPECT_VEC(o, 1.0f, 2.0f, -1.0f, 1.0f); /* 1023 as 10-bit two's complement */
    /* VECTOR_3_EET: X = [10:0] = 2047, Y = [21:11] = 1024, Z = [31:22] = 512 */
    const uint32_t eet = 2047u | 1024u << 11 | 512u << 22;
    one(el(VFETCH_R300_VECTOR_3_EET, 0, 1, 0, 0, 0), 0, &eet, 1, o);
    EXPECT_VEC(o, 2047.0f, 1024.0f, 512.0f, 1.0f);
    one(el(VFETCH_R300_VECTOR_3_EET, 0, 1, 1, 0, 0), 0, &eet, 1, o);
    EXPECT_VEC(o, -1.0f, -1024.0f, -512.0f, 1.0f);
    one(el(VFETCH_R300_VECTOR_3_EET, 0, 1, 0, 1, 0), 0, &eet, 1, o);
    EXPECT_VEC(o, 1.0f, q(1024, 2047), q(512, 1023), 1.0f); /* 0.50024426, 0.50048876 */
}

static void test_half_types(void)
{
    float o[4];
    /* X = 0x3C00 = 1.0, Y = 0x0001 = 2^-24 (smallest denormal) */
    const uint32_t h2 = 0x00013C00u;
    one(el(VFETCH_R300_FLT16_2, 0, 1, 0, 0, 0), 0, &h2, 1, o);
    EXPECT_VEC(o, 1.0f, 0x1p-24f, 0.0f, 1.0f);
    /* X = 0xFC00 = -inf, Y = 0x7E01 quiet NaN payload 0x201, Z = 0x7C01 signalling NaN
       (quieted: 0x7FC00000 | 1 << 13), W = 0x83FF = -(1023 * 2^-24) */
    const uint32_t h4[2] = { 0x7E01FC00u, 0x83FF7C01u };
    one(el(VFETCH_R300_FLT16_4, 0, 1, 0, 0, 0), 0, h4, 2, o);
    CHECK_EQ(test_float_bits(o[0]), 0xff800000u);
    CHECK_EQ(test_float_bits(o[1]), 0x7fc00000u | 0x201u << 13);
    CHECK_EQ(test_float_bits(o[2]), 0x7fc02000u);
    CHECK_FLOAT(o[3], -1023.0f * 0x1p-24f);
}

/* The four SIGNED/NORMALIZE modes at 0, max and min of each width, SGN_NORM method 2. */
static void test_modes(void)
{
    float o[4];
    /* 8 bits: BYTE with X = 0x00, Y = 0x7F, Z = 0x80, W = 0xFF */
    const uint32_t b = 0xFF807F00u;
    one(el(VFETCH_R300_BYTE, 0, 1, 0, 0, 0), 0xAAAAAAAA, &b, 1, o);
    EXPECT_VEC(o, 0.0f, 127.0f, 128.0f, 255.0f);
    one(el(VFETCH_R300_BYTE, 0, 1, 0, 1, 0), 0xAAAAAAAA, &b, 1, o);
    EXPECT_VEC(o, 0.0f, q(127, 255), q(128, 255), 1.0f); /* 0.49803922, 0.50196081 */
    one(el(VFETCH_R300_BYTE, 0, 1, 1, 0, 0), 0xAAAAAAAA, &b, 1, o);
    EXPECT_VEC(o, 0.0f, 127.0f, -128.0f, -1.0f);
    one(el(VFETCH_R300_BYTE, 0, 1, 1, 1, 0), 0xAAAAAAAA, &b, 1, o);
    /* NO_ZERO: (2v + 1) / 255: 1/255, 255/255, -255/255, -1/255 */
    EXPECT_VEC(o, q(1, 255), 1.0f, -1.0f, q(-1, 255));

    /* 16 bits: SHORT_4 with 0, 0x7FFF, 0x8000, 0xFFFF */
    const uint32_t s[2] = { 0x7FFF0000u, 0xFFFF8000u };
    one(el(VFETCH_R300_SHORT_4, 0, 1, 0, 0, 0), 0xAAAAAAAA, s, 2, o);
    EXPECT_VEC(o, 0.0f, 32767.0f, 32768.0f, 65535.0f);
    one(el(VFETCH_R300_SHORT_4, 0, 1, 0, 1, 0), 0xAAAAAAAA, s, 2, o);
    EXPECT_VEC(o, 0.0f, q(32767, 65535), q(32768, 65535), 1.0f);
    one(el(VFETCH_R300_SHORT_4, 0, 1, 1, 0, 0), 0xAAAAAAAA, s, 2, o);
    EXPECT_VEC(o, 0.0f, 32767.0f, -32768.0f, -1.0f);
    one(el(VFETCH_R300_SHORT_4, 0, 1, 1, 1, 0), 0xAAAAAAAA, s, 2, o);
    EXPECT_VEC(o, q(1, 65535), 1.0f, -1.0f, q(-1, 65535));

    /* 10 bits: TTT with X = 0, Y = 511, Z = 512 */
    const uint32_t t = 0u | 511u << 10 | 512u << 20;
    one(el(VFETCH_R300_VECTOR_3_TTT, 0, 1, 0, 1, 0), 0xAAAAAAAA, &t, 1, o);
    EXPECT_VEC(o, 0.0f, q(511, 1023), q(512, 1023), 1.0f);
    one(el(VFETCH_R300_VECTOR_3_TTT, 0, 1, 1, 1, 0), 0xAAAAAAAA, &t, 1, o);
    EXPECT_VEC(o, q(1, 1023), 1.0f, -1.0f, 1.0f);
    /* 11 bits: EET X = 1023 (max), Y = 1024 (min), Z (10 bits) = 511 */
    const uint32_t e = 1023u | 1024u << 11 | 511u << 22;
    one(el(VFETCH_R300_VECTOR_3_EET, 0, 1, 1, 1, 0), 0xAAAAAAAA, &e, 1, o);
    EXPECT_VEC(o, 1.0f, -1.0f, 1.0f, 1.0f); /* 2047/2047, -2047/2047, 1023/1023 */
    one(el(VFETCH_R300_VECTOR_3_EET, 0, 1, 1, 0, 0), 0xAAAAAAAA, &e, 1, o);
    EXPECT_VEC(o, 1023.0f, -1024.0f, 511.0f, 1.0f);
}

/* -128, -32768, -512, -1024 under each SGN_NORM method (element 0's field = bits 1:0). */
static void test_sgn_norm_methods(void)
{
    float o[4];
    const uint32_t b = 0x00000080u;        /* X = -128 */
    const uint32_t s = 0x00008000u;        /* X = -32768 */
    const uint32_t t = 512u;               /* X = -512 (10 bits) */
    const uint32_t e = 1024u;              /* X = -1024 (11 bits) */
    const uint32_t zero = 0;
    /* method 0: v / (2^(n-1) - 1), below -1 */
    one(el(VFETCH_R300_BYTE, 0, 1, 1, 1, 0), 0, &b, 1, o);
    CHECK_FLOAT(o[0], q(-128, 127)); /* -1.0078740 */
    CHECK(o[0] < -1.0f);
    one(el(VFETCH_R300_SHORT_2, 0, 1, 1, 1, 0), 0, &s, 1, o);
    CHECK_FLOAT(o[0], q(-32768, 32767)); /* -1.0000305 */
    one(el(VFETCH_R300_VECTOR_3_TTT, 0, 1, 1, 1, 0), 0, &t, 1, o);
    CHECK_FLOAT(o[0], q(-512, 511)); /* -1.0019569 */
    one(el(VFETCH_R300_VECTOR_3_EET, 0, 1, 1, 1, 0), 0, &e, 1, o);
    CHECK_FLOAT(o[0], q(-1024, 1023)); /* -1.0009775 */
    one(el(VFETCH_R300_BYTE, 0, 1, 1, 1, 0), 0, &zero, 1, o);
    CHECK_FLOAT(o[0], 0.0f);
    /* method 1: clamped to -1 */
    one(el(VFETCH_R300_BYTE, 0, 1, 1, 1, 0), 1, &b, 1, o);
    CHECK_FLOAT(o[0], -1.0f);
    one(el(VFETCH_R300_SHORT_2, 0, 1, 1, 1, 0), 1, &s, 1, o);
    CHECK_FLOAT(o[0], -1.0f);
    one(el(VFETCH_R300_VECTOR_3_TTT, 0, 1, 1, 1, 0), 1, &t, 1, o);
    CHECK_FLOAT(o[0], -1.0f);
    one(el(VFETCH_R300_VECTOR_3_EET, 0, 1, 1, 1, 0), 1, &e, 1, o);
    CHECK_FLOAT(o[0], -1.0f);
    const uint32_t b7f = 0x7Fu;
    one(el(VFETCH_R300_BYTE, 0, 1, 1, 1, 0), 1, &b7f, 1, o);
    CHECK_FLOAT(o[0], 1.0f); /* 127 / 127 */
    /* method 2: (2v + 1) / (2^n - 1): the minimum is exactly -1, 0 is not 0 */
    one(el(VFETCH_R300_BYTE, 0, 1, 1, 1, 0), 2, &b, 1, o);
    CHECK_FLOAT(o[0], -1.0f);
    one(el(VFETCH_R300_SHORT_2, 0, 1, 1, 1, 0), 2, &s, 1, o);
    CHECK_FLOAT(o[0], -1.0f);
    one(el(VFETCH_R300_VECTOR_3_TTT, 0, 1, 1, 1, 0), 2, &t, 1, o);
    CHECK_FLOAT(o[0], -1.0f);
    one(el(VFETCH_R300_VECTOR_3_EET, 0, 1, 1, 1, 0), 2, &e, 1, o);
    CHECK_FLOAT(o[0], -1.0f);
    one(el(VFETCH_R300_BYTE, 0, 1, 1, 1, 0), 2, &zero, 1, o);
    CHECK_FLOAT(o[0], q(1, 255)); /* 0.0039215689 */
    one(el(VFETCH_R300_SHORT_2, 0, 1, 1, 1, 0), 2, &zero, 1, o);
    CHECK_FLOAT(o[0], q(1, 65535));
    one(el(VFETCH_R300_VECTOR_3_TTT, 0, 1, 1, 1, 0), 2, &zero, 1, o);
    CHECK_FLOAT(o[0], q(1, 1023));
    one(el(VFETCH_R300_VECTOR_3_EET, 0, 1, 1, 1, 0), 2, &zero, 1, o);
    CHECK_FLOAT(o[0], q(1, 2047));

    /* field i belongs to element i: element 1 uses bits 3:2 */
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    const uint32_t els[2] = { el(VFETCH_R300_BYTE, 0, 0, 1, 1, 0), el(VFETCH_R300_BYTE, 1, 1, 1, 1, 0) };
    set_elements(&d, els, 2);
    d.sgn_norm_cntl = 0x4; /* element 0 method 0, element 1 method 1 */
    const uint32_t two[2] = { 0x80, 0x80 };
    float o2[8];
    CHECK_EQ(run_imm(&d, two, 2, o2, 2), 0);
    CHECK_FLOAT(o2[0], q(-128, 127));
    CHECK_FLOAT(o2[4], -1.0f);
}

static void test_swap_modes(void)
{
    /* memory bytes 3F 80 00 00 = little-endian dword 0x0000803F */
    const uint32_t dw = 0x0000803Fu;
    const uint32_t want_float[4] = {
        0x0000803Fu, /* 0: none */
        0x00003F80u, /* 1: AABBCCDD -> BBAADDCC */
        0x3F800000u, /* 2: -> DDCCBBAA = 1.0f */
        0x803F0000u, /* 3: -> CCDDAABB */
    };
    for (unsigned swap = 0; swap < 4; swap++) {
        struct vfetch_r300_desc d;
        vfetch_r300_desc_init(&d);
        const uint32_t els[2] = { el(VFETCH_R300_FLOAT_1, 0, 0, 0, 0, 0), el(VFETCH_R300_SHORT_2, 1, 0, 0, 0, 0) };
        uint32_t all[3] = { els[0], els[1], el(VFETCH_R300_BYTE, 2, 1, 0, 0, 0) };
        set_elements(&d, all, 3);
        d.cntl_status = swap | 0x100; /* other bits ignored */
        float o[12];
        const uint32_t src[3] = { dw, dw, dw };
        CHECK_EQ(run_imm(&d, src, 3, o, 3), 0);
        CHECK_EQ(test_float_bits(o[0]), want_float[swap]);
        /* SHORT_2 sees the swapped dword: X = low half, Y = high half */
        CHECK_FLOAT(o[4], (float)(want_float[swap] & 0xffff));
        CHECK_FLOAT(o[5], (float)(want_float[swap] >> 16));
        /* BYTE: X = [7:0] ... W = [31:24] of the swapped dword */
        for (unsigned c = 0; c < 4; c++)
            CHECK_FLOAT(o[8 + c], (float)((want_float[swap] >> (8 * c)) & 0xff));
    }
}

static void test_ext_swizzle_mask(void)
{
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    const uint32_t els[2] = { el(VFETCH_R300_FLOAT_2, 0, 0, 0, 0, 0), el(VFETCH_R300_FLOAT_1, 1, 1, 0, 0, 0) };
    set_elements(&d, els, 2);
    /* element 0: X <- Y, Y <- 1.0, Z <- 0.0, W <- X; write X, Y, W (not Z) */
    const uint32_t ext0 = 1u | 5u << 3 | 4u << 6 | 0u << 9 | 0xBu << 12;
    /* element 1: identity, write nothing but W: W = missing 1.0 */
    const uint32_t ext1 = 0u | 1u << 3 | 2u << 6 | 3u << 9 | 0x8u << 12;
    d.prog_stream_cntl_ext[0] = ext0 | ext1 << 16;
    const uint32_t src[3] = { 0x40000000u /* 2 */, 0x40400000u /* 3 */, 0x40800000u /* 4 */ };
    float o[8];
    CHECK_EQ(run_imm(&d, src, 3, o, 2), 0);
    CHECK_FLOAT(o[0], 3.0f);
    CHECK_FLOAT(o[1], 1.0f);
    CHECK_EQ(test_float_bits(o[2]), 0xDEADBEEFu); /* kept */
    CHECK_FLOAT(o[3], 2.0f);
    CHECK_EQ(test_float_bits(o[4]), 0xDEADBEEFu);
    CHECK_EQ(test_float_bits(o[5]), 0xDEADBEEFu);
    CHECK_EQ(test_float_bits(o[6]), 0xDEADBEEFu);
    CHECK_FLOAT(o[7], 1.0f);

    /* an element whose write mask is 0 stores nothing and has no op; the others convert
       (element 0 here); a state whose every element stores nothing converts nothing: EPLAN */
    d.prog_stream_cntl_ext[0] = ext0 | (ext1 & 0xfffu) << 16;
    for (unsigned i = 0; i < 8; i++)
        o[i] = test_bits_float(0xDEADBEEFu);
    CHECK_EQ(run_imm(&d, src, 3, o, 2), 0);
    CHECK_FLOAT(o[0], 3.0f);
    CHECK_FLOAT(o[3], 2.0f);
    for (unsigned i = 4; i < 8; i++)
        CHECK_EQ(test_float_bits(o[i]), 0xDEADBEEFu);
    struct vfetch_plan_desc pd;
    CHECK_EQ(vfetch_r300_translate(&d, &pd), 0);
    CHECK_EQ(pd.num_ops, 1);
    d.prog_stream_cntl_ext[0] = (ext0 & 0xfffu) | (ext1 & 0xfffu) << 16;
    vfetch_plan *none = (vfetch_plan *)&d;
    CHECK_EQ(vfetch_r300_compile(&d, &none), VFETCH_EPLAN);
    CHECK(none == (vfetch_plan *)&d);

    /* reserved selectors 6 and 7 */
    for (unsigned sel = 6; sel <= 7; sel++) {
        d.prog_stream_cntl_ext[0] = ext0 | (sel << 6 | 0xFu << 12) << 16;
        vfetch_plan *plan = (vfetch_plan *)&d;
        CHECK_EQ(vfetch_r300_compile(&d, &plan), VFETCH_ERESERVED_SWIZZLE);
        CHECK(plan == (vfetch_plan *)&d);
    }
}

/* EXT words need no flag (issue 12): vfetch_r300_desc_init leaves every element at the
   identity, and words a caller programs are honoured as they are (Mesa's BGRA color: BYTE
   with a Z, Y, X, W swizzle swaps red and blue). */
static void test_ext_always(void)
{
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    for (unsigned i = 0; i < 8; i++)
        CHECK_EQ(d.prog_stream_cntl_ext[i], 0xF688F688u);
    CHECK_EQ(VFETCH_R300_EXT_IDENTITY, 0 | 1u << 3 | 2u << 6 | 3u << 9 | 0xfu << 12);
    const uint32_t els[1] = { el(VFETCH_R300_BYTE, 0, 1, 0, 1, 0) }; /* unsigned normalized */
    set_elements(&d, els, 1);
    const uint32_t src[1] = { 0x40302010u }; /* bytes 0x10 (B), 0x20 (G), 0x30 (R), 0x40 */
    float o[4];
    CHECK_EQ(run_imm(&d, src, 1, o, 1), 0);
    CHECK_FLOAT(o[0], q(0x10, 255));
    CHECK_FLOAT(o[2], q(0x30, 255));
    const uint32_t zyxw = 2u | 1u << 3 | 0u << 6 | 3u << 9 | 0xfu << 12;
    d.prog_stream_cntl_ext[0] = zyxw | VFETCH_R300_EXT_IDENTITY << 16;
    CHECK_EQ(run_imm(&d, src, 1, o, 1), 0);
    CHECK_FLOAT(o[0], q(0x30, 255));
    CHECK_FLOAT(o[1], q(0x20, 255));
    CHECK_FLOAT(o[2], q(0x10, 255));
    CHECK_FLOAT(o[3], q(0x40, 255));
    /* a zeroed EXT word (a caller who memset the description): nothing stored, refused */
    d.prog_stream_cntl_ext[0] = 0;
    vfetch_plan *plan = NULL;
    CHECK_EQ(vfetch_r300_compile(&d, &plan), VFETCH_EPLAN);
    CHECK(plan == NULL);
}

/* out_stride: records further apart than their size, the bytes between them left alone; a
   stride that cannot hold the record is refused by translate and compile alike. */
static void test_out_stride(void)
{
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    const uint32_t els[2] = { el(VFETCH_R300_FLOAT_1, 0, 0, 0, 0, 0), el(VFETCH_R300_FLOAT_1, 3, 1, 0, 0, 0) };
    set_elements(&d, els, 2);
    d.num_arrays = 1;
    d.arrays[0] = (struct vfetch_r300_array){ 2, 2 };
    d.out_stride = 40; /* two vectors: 32 bytes, 8 more between records */
    vfetch_plan *plan;
    CHECK_EQ(vfetch_r300_compile(&d, &plan), 0);
    if (!plan)
        return;
    CHECK_EQ(vfetch_plan_out_stride(plan), 40);
    CHECK_EQ(vfetch_plan_record_size(plan), 32);
    const float src[6] = { 1, 2, 3, 4, 5, 6 };
    uint32_t out[30];
    for (unsigned i = 0; i < 30; i++)
        out[i] = 0xDEADBEEFu;
    struct vfetch_binding b = { src, sizeof src };
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = &b;
    p.num_streams = 1;
    p.count = 3;
    p.out = out;
    p.out_size = 2 * 40 + 32;
    CHECK_EQ(vfetch_run(plan, &p), 0);
    for (unsigned v = 0; v < 3; v++) {
        CHECK_FLOAT(test_bits_float(out[10 * v]), (float)(2 * v + 1));
        CHECK_FLOAT(test_bits_float(out[10 * v + 4]), (float)(2 * v + 2));
        if (v < 2) { /* the 8 bytes between records */
            CHECK_EQ(out[10 * v + 8], 0xDEADBEEFu);
            CHECK_EQ(out[10 * v + 9], 0xDEADBEEFu);
        }
    }
    CHECK_EQ(out[28], 0xDEADBEEFu); /* past the last record */
    vfetch_plan_free(plan);
    static const uint32_t bad[] = { 30, 16, 28, 2 };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        d.out_stride = bad[i];
        struct vfetch_plan_desc pd;
        memset(&pd, 0x5a, sizeof pd);
        CHECK_EQ(vfetch_r300_translate(&d, &pd), VFETCH_EPLAN);
        CHECK_EQ(((const uint8_t *)&pd)[0], 0x5a);
        vfetch_plan *none = NULL;
        CHECK_EQ(vfetch_r300_compile(&d, &none), VFETCH_EPLAN);
        CHECK(none == NULL);
    }
}

static void test_skip_order_last(void)
{
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    /* element 0: FLOAT_1 at location 7, skip 2 dwords; element 1: FLOAT_1 at location 2;
       element 2 (LAST): FLOAT_1 at 5; element 3 after LAST is never parsed (type 15!) */
    const uint32_t els[4] = { el(VFETCH_R300_FLOAT_1, 7, 0, 0, 0, 2), el(VFETCH_R300_FLOAT_1, 2, 0, 0, 0, 0),
                              el(VFETCH_R300_FLOAT_1, 5, 1, 0, 0, 0), 15 };
    set_elements(&d, els, 4);
    const uint32_t src[6] = { 0x3f800000u, 0x40000000u, 0x40400000u, 0x40800000u, 0x40a00000u, 0 };
    float o[12];
    CHECK_EQ(run_imm(&d, src, 6, o, 3), 0); /* one unused trailing dword */
    /* compact layout in DST_VEC_LOC order: 2, 5, 7 */
    EXPECT_VEC(o + 0, 4.0f, 0.0f, 0.0f, 1.0f); /* loc 2: dword 3 (after 1 + 2 skipped) */
    EXPECT_VEC(o + 4, 5.0f, 0.0f, 0.0f, 1.0f); /* loc 5: dword 4 */
    EXPECT_VEC(o + 8, 1.0f, 0.0f, 0.0f, 1.0f); /* loc 7: dword 0 */
    vfetch_plan *plan;
    CHECK_EQ(vfetch_r300_compile(&d, &plan), 0);
    CHECK_EQ(vfetch_plan_location(plan, 2), 0);
    CHECK_EQ(vfetch_plan_location(plan, 5), 4);
    CHECK_EQ(vfetch_plan_location(plan, 7), 8);
    CHECK_EQ(vfetch_plan_location(plan, 0), -1);
    vfetch_plan_free(plan);

    /* full layout: 32 vectors, vector v at slot 4v */
    d.layout = VFETCH_R300_LAYOUT_FULL;
    float *full = malloc(512);
    CHECK_EQ(run_imm(&d, src, 6, full, 32), 0);
    EXPECT_VEC(full + 4 * 2, 4.0f, 0.0f, 0.0f, 1.0f);
    EXPECT_VEC(full + 4 * 5, 5.0f, 0.0f, 0.0f, 1.0f);
    EXPECT_VEC(full + 4 * 7, 1.0f, 0.0f, 0.0f, 1.0f);
    CHECK_EQ(test_float_bits(full[0]), 0xDEADBEEFu); /* vector 0 not written */
    CHECK_EQ(test_float_bits(full[127]), 0xDEADBEEFu);
    CHECK_EQ(vfetch_r300_compile(&d, &plan), 0);
    CHECK_EQ(vfetch_plan_location(plan, 7), 28);
    CHECK_EQ(vfetch_plan_location(plan, 8), -1);
    vfetch_plan_free(plan);
    free(full);

    /* two elements at one location: the later one wins */
    vfetch_r300_desc_init(&d);
    const uint32_t same[2] = { el(VFETCH_R300_FLOAT_2, 1, 0, 0, 0, 0), el(VFETCH_R300_FLOAT_1, 1, 1, 0, 0, 0) };
    set_elements(&d, same, 2);
    float o2[4];
    CHECK_EQ(run_imm(&d, src, 3, o2, 1), 0);
    EXPECT_VEC(o2, 3.0f, 0.0f, 0.0f, 1.0f);
}

/* Vertex arrays: the dword stream spans arrays, an element straddles two, padding strides. */
static void test_arrays(void)
{
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    /* FLOAT_4 straddles array 0 (2 dwords) and array 1 (2 dwords); then BYTE from array 2 */
    const uint32_t els[2] = { el(VFETCH_R300_FLOAT_4, 0, 0, 0, 0, 0), el(VFETCH_R300_BYTE, 1, 1, 0, 0, 0) };
    set_elements(&d, els, 2);
    d.num_arrays = 3;
    d.arrays[0] = (struct vfetch_r300_array){ 3, 2 }; /* stride 3 dwords, 2 used */
    d.arrays[1] = (struct vfetch_r300_array){ 2, 2 };
    d.arrays[2] = (struct vfetch_r300_array){ 0, 1 }; /* stride 0: one record for all */
    vfetch_plan *plan;
    CHECK_EQ(vfetch_r300_compile(&d, &plan), 0);
    const unsigned n = 5;
    float *a0 = guard_alloc_tail((3 * (n - 1) + 2) * 4);
    float *a1 = guard_alloc_tail(2 * n * 4);
    uint32_t *a2 = guard_alloc_tail(4);
    for (unsigned v = 0; v < n; v++) {
        a0[3 * v] = (float)v;
        a0[3 * v + 1] = 10.0f + v;
        if (v < n - 1)
            a0[3 * v + 2] = -99.0f; /* padding dword */
        a1[2 * v] = 20.0f + v;
        a1[2 * v + 1] = 30.0f + v;
    }
    *a2 = 0x08070605u;
    struct vfetch_binding b[3] = { { a0, (3 * (n - 1) + 2) * 4 }, { a1, 2 * n * 4 }, { a2, 4 } };
    float *out = guard_alloc_tail(n * 32);
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = b;
    p.num_streams = 3;
    p.count = n;
    p.out = out;
    p.out_size = n * 32;
    CHECK_EQ(vfetch_run(plan, &p), 0);
    for (unsigned v = 0; v < n; v++) {
        EXPECT_VEC(out + 8 * v, (float)v, 10.0f + v, 20.0f + v, 30.0f + v);
        EXPECT_VEC(out + 8 * v + 4, 5.0f, 6.0f, 7.0f, 8.0f);
    }
    /* indexed: u16 indices 4, 0, 2, offset +1, clamp 3: records 3, 1, 3; offset -1 makes
       index 0 negative: an error */
    uint16_t idx[3] = { 4, 0, 2 };
    p.indices = idx;
    p.index_type = VFETCH_INDEX_U16;
    p.indices_size = sizeof idx;
    p.count = 3;
    p.index_offset = 1;
    p.max_index = 3;
    CHECK_EQ(vfetch_run(plan, &p), 0);
    EXPECT_VEC(out + 0, 3.0f, 13.0f, 23.0f, 33.0f);
    EXPECT_VEC(out + 8, 1.0f, 11.0f, 21.0f, 31.0f);
    EXPECT_VEC(out + 16, 3.0f, 13.0f, 23.0f, 33.0f);
    p.index_offset = -1;
    CHECK_EQ(vfetch_run(plan, &p), VFETCH_EINDEX_RANGE);
    uint32_t idx32[2] = { 1, 4 };
    p.indices = idx32;
    p.index_type = VFETCH_INDEX_U32;
    p.indices_size = sizeof idx32;
    p.count = 2;
    p.index_offset = 0;
    p.max_index = UINT32_MAX;
    CHECK_EQ(vfetch_run(plan, &p), 0);
    EXPECT_VEC(out + 0, 1.0f, 11.0f, 21.0f, 31.0f);
    EXPECT_VEC(out + 8, 4.0f, 14.0f, 24.0f, 34.0f);
    guard_free(a0);
    guard_free(a1);
    guard_free(a2);
    guard_free(out);
    vfetch_plan_free(plan);

    /* the immediate stream is sequential: index buffers do not apply to it */
    vfetch_r300_desc_init(&d);
    uint32_t e1 = el(VFETCH_R300_FLOAT_1, 0, 1, 0, 0, 0);
    set_elements(&d, &e1, 1);
    d.vtx_size_dwords = 1;
    CHECK_EQ(vfetch_r300_compile(&d, &plan), 0);
    const float imm[3] = { 1.0f, 2.0f, 3.0f };
    float o3[12];
    struct vfetch_binding bi = { imm, sizeof imm };
    vfetch_run_params_init(&p);
    p.streams = &bi;
    p.num_streams = 1;
    p.count = 3;
    p.indices = idx;
    p.index_type = VFETCH_INDEX_U16;
    p.indices_size = sizeof idx;
    p.out = o3;
    p.out_size = sizeof o3;
    CHECK_EQ(vfetch_run(plan, &p), 0);
    CHECK_FLOAT(o3[0], 1.0f);
    CHECK_FLOAT(o3[4], 2.0f);
    CHECK_FLOAT(o3[8], 3.0f);
    vfetch_plan_free(plan);
}

#define SENTINEL ((vfetch_plan *)(uintptr_t)0x5678)

static void expect_compile_error(const struct vfetch_r300_desc *d, int want, int line)
{
    vfetch_plan *plan = SENTINEL;
    const int got = vfetch_r300_compile(d, &plan);
    test_checks += 2;
    if (got != want) {
        test_failures++;
        fprintf(stderr, "test_r300.c:%d: vfetch_r300_compile = %d (%s), want %d\n", line, got,
                vfetch_strerror(got), want);
    }
    if (want != 0 && plan != SENTINEL) {
        test_failures++;
        fprintf(stderr, "test_r300.c:%d: out pointer written on error\n", line);
    }
    if (got == 0)
        vfetch_plan_free(plan);
}
#define EXPECT_ERROR(d, code) expect_compile_error(d, code, __LINE__)

static void test_errors(void)
{
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    d.vtx_size_dwords = 8;
    for (unsigned type = 13; type <= 15; type++) {
        uint32_t e = el(type, 0, 1, 0, 0, 0);
        set_elements(&d, &e, 1);
        EXPECT_ERROR(&d, VFETCH_ER300_RESERVED_TYPE);
    }
    /* method 3 on a signed normalized fixed element; harmless elsewhere */
    uint32_t e = el(VFETCH_R300_BYTE, 0, 1, 1, 1, 0);
    set_elements(&d, &e, 1);
    d.sgn_norm_cntl = 3;
    EXPECT_ERROR(&d, VFETCH_ER300_RESERVED_SGN_NORM);
    e = el(VFETCH_R300_BYTE, 0, 1, 1, 0, 0);
    set_elements(&d, &e, 1);
    EXPECT_ERROR(&d, 0);
    e = el(VFETCH_R300_FLOAT_2, 0, 1, 1, 1, 0);
    set_elements(&d, &e, 1);
    EXPECT_ERROR(&d, 0);
    d.sgn_norm_cntl = 0xAAAAAAAA;

    e = el(VFETCH_R300_FLOAT_8, 31, 1, 0, 0, 0);
    set_elements(&d, &e, 1);
    EXPECT_ERROR(&d, VFETCH_ER300_FLOAT8_LOC31);
    e = el(VFETCH_R300_FLOAT_8, 30, 1, 0, 0, 0);
    set_elements(&d, &e, 1);
    EXPECT_ERROR(&d, 0);

    uint32_t sixteen[16];
    for (unsigned i = 0; i < 16; i++)
        sixteen[i] = el(VFETCH_R300_BYTE, i, 0, 0, 0, 0);
    set_elements(&d, sixteen, 16);
    d.vtx_size_dwords = 16;
    EXPECT_ERROR(&d, VFETCH_ER300_NO_LAST_VEC);
    sixteen[15] |= 1u << 13;
    set_elements(&d, sixteen, 16);
    EXPECT_ERROR(&d, 0);

    /* dwords: FLOAT_4 + skip 1 needs 5 */
    e = el(VFETCH_R300_FLOAT_4, 0, 1, 0, 0, 1);
    set_elements(&d, &e, 1);
    d.vtx_size_dwords = 4;
    EXPECT_ERROR(&d, VFETCH_ER300_STREAM_UNDERRUN);
    d.vtx_size_dwords = 5;
    EXPECT_ERROR(&d, 0);
    d.num_arrays = 2;
    d.arrays[0] = (struct vfetch_r300_array){ 4, 2 };
    d.arrays[1] = (struct vfetch_r300_array){ 4, 2 };
    EXPECT_ERROR(&d, VFETCH_ER300_STREAM_UNDERRUN);
    d.arrays[1] = (struct vfetch_r300_array){ 4, 3 };
    EXPECT_ERROR(&d, 0);
    d.arrays[1] = (struct vfetch_r300_array){ 2, 3 }; /* count above stride */
    EXPECT_ERROR(&d, VFETCH_ER300_ARRAY_LAYOUT);
    d.arrays[1] = (struct vfetch_r300_array){ 4, 0 };
    EXPECT_ERROR(&d, VFETCH_ER300_ARRAY_LAYOUT);
    d.arrays[1] = (struct vfetch_r300_array){ 0, 3 }; /* stride 0 is allowed */
    EXPECT_ERROR(&d, 0);
    d.num_arrays = 17;
    EXPECT_ERROR(&d, VFETCH_ER300_TOO_MANY_ARRAYS);

    d.num_arrays = 0;
    d.vtx_size_dwords = 0;
    EXPECT_ERROR(&d, VFETCH_EINVAL);
    d.vtx_size_dwords = 129;
    EXPECT_ERROR(&d, VFETCH_EINVAL);
    d.vtx_size_dwords = 8;
    d.layout = (enum vfetch_r300_layout)2;
    EXPECT_ERROR(&d, VFETCH_EINVAL);
    d.layout = VFETCH_R300_LAYOUT_COMPACT;
    EXPECT_ERROR(NULL, VFETCH_EINVAL);
    CHECK_EQ(vfetch_r300_compile(&d, NULL), VFETCH_EINVAL);
    struct vfetch_plan_desc pd;
    CHECK_EQ(vfetch_r300_translate(&d, NULL), VFETCH_EINVAL);
    CHECK_EQ(vfetch_r300_translate(&d, &pd), 0);
}

/* Compiling the same registers twice gives equal plans with equal hashes (cache keys). */
static void test_cache_keys(void)
{
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    const uint32_t els[2] = { el(VFETCH_R300_FLOAT_3, 0, 0, 0, 0, 0), el(VFETCH_R300_D3DCOLOR, 1, 1, 0, 1, 0) };
    set_elements(&d, els, 2);
    d.vtx_size_dwords = 4;
    vfetch_plan *a, *b;
    CHECK_EQ(vfetch_r300_compile(&d, &a), 0);
    CHECK_EQ(vfetch_r300_compile(&d, &b), 0);
    CHECK(vfetch_plan_hash(a) == vfetch_plan_hash(b));
    CHECK_EQ(vfetch_plan_equal(a, b), 1);
    vfetch_plan_free(b);
    d.cntl_status = 2;
    CHECK_EQ(vfetch_r300_compile(&d, &b), 0);
    CHECK(vfetch_plan_hash(a) != vfetch_plan_hash(b));
    vfetch_plan_free(a);
    vfetch_plan_free(b);
}

int main(void)
{
    test_float_types();
    test_fixed_types();
    test_half_types();
    test_modes();
    test_sgn_norm_methods();
    test_swap_modes();
    test_ext_swizzle_mask();
    test_ext_always();
    test_out_stride();
    test_skip_order_last();
    test_arrays();
    test_errors();
    test_cache_keys();
    return test_summary("r300");
}
