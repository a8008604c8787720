/*
 * The Maxwell vertex front-end (vfetch/maxwell.h): attribute words as NVK writes them, every
 * size x type against hand-computed outputs, every error, the two layouts, defaults under
 * SET_ATTRIBUTE_DEFAULT, VERTEX_ID / INSTANCE_ID with bases, indices and divisors, and random
 * formats at every level against the reference (c) level with buffers at guard pages.
 */
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "testutil.h"
#include "vfetch/maxwell.h"

/* A SET_VERTEX_ATTRIBUTE_A word. */
static uint32_t attr_word(unsigned stream, unsigned offset, unsigned size, unsigned type, unsigned swap)
{
    return stream | offset << 7 | size << 21 | type << 27 | (uint32_t)swap << 31;
}

#define ONE 0x3f800000u

static void test_parse(void)
{
    struct vfetch_maxwell_attribute a;
    /* NVK's words: R32G32B32A32_FLOAT, B10G11R11_UFLOAT, A2B10G10R10_UNORM, R8G8B8_UNORM,
       R16G16B16_SNORM at stream 0, offset 0 */
    CHECK_EQ(attr_word(0, 0, VFETCH_MAXWELL_SIZE_R32_G32_B32_A32, VFETCH_MAXWELL_TYPE_FLOAT, 0), 0x38200000u);
    CHECK_EQ(vfetch_maxwell_attribute_parse(0x38200000u, &a), VFETCH_OK);
    CHECK_EQ(a.components, 4u);
    CHECK_EQ(a.bytes, 16u);
    CHECK_EQ(a.type, (unsigned)VFETCH_MAXWELL_TYPE_FLOAT);
    CHECK_EQ(vfetch_maxwell_attribute_parse(0x3e200000u, &a), VFETCH_OK);
    CHECK_EQ(a.size, (unsigned)VFETCH_MAXWELL_SIZE_B10G11R11);
    CHECK_EQ(a.components, 3u);
    CHECK_EQ(vfetch_maxwell_attribute_parse(0x16000000u, &a), VFETCH_OK);
    CHECK_EQ(a.size, (unsigned)VFETCH_MAXWELL_SIZE_A2B10G10R10);
    CHECK_EQ(a.type, (unsigned)VFETCH_MAXWELL_TYPE_UNORM);
    CHECK_EQ(vfetch_maxwell_attribute_parse(0x12600000u, &a), VFETCH_OK);
    CHECK_EQ(a.components, 3u);
    CHECK_EQ(a.bytes, 3u);
    CHECK_EQ(vfetch_maxwell_attribute_parse(0x08a00000u, &a), VFETCH_OK);
    CHECK_EQ(a.components, 3u);
    CHECK_EQ(a.bytes, 6u);
    CHECK_EQ(a.type, (unsigned)VFETCH_MAXWELL_TYPE_SNORM);
    /* every field */
    CHECK_EQ(vfetch_maxwell_attribute_parse(attr_word(29, 0x2345, 0x1b, 6, 1), &a), VFETCH_OK);
    CHECK_EQ(a.stream, 29u);
    CHECK_EQ(a.offset, 0x2345u);
    CHECK_EQ(a.size, 0x1bu);
    CHECK_EQ(a.type, 6u);
    CHECK_EQ(a.swap_r_and_b, 1u);
    CHECK_EQ(a.inactive, 0u);
    CHECK_EQ(a.integer, 0u);

    /* The accepted combinations, and every other one refused. */
    static const unsigned sizes[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x0a, 0x0f, 0x12, 0x13,
                                      0x18, 0x1b, 0x1d, 0x2f, 0x30, 0x31, 0x32, 0x33, 0x34 };
    for (unsigned size = 0; size < 64; size++) {
        int known = 0;
        for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
            known |= sizes[k] == size;
        const int eight_or_1010102 = size == 0x0a || size == 0x13 || size == 0x18 || size == 0x1d ||
                                     size == 0x2f || size == 0x32 || size == 0x33 || size == 0x34 ||
                                     size == 0x30;
        for (unsigned type = 0; type < 8; type++) {
            int ok = known && type != 0;
            if (size == 0x31)
                ok = type == VFETCH_MAXWELL_TYPE_FLOAT;
            else if (type == VFETCH_MAXWELL_TYPE_FLOAT && eight_or_1010102)
                ok = 0;
            struct vfetch_maxwell_attribute before;
            memset(&before, 0xa5, sizeof before);
            a = before;
            const int rc = vfetch_maxwell_attribute_parse(attr_word(3, 8, size, type, 0), &a);
            CHECK_EQ(rc, ok ? VFETCH_OK : VFETCH_EMAXWELL_ATTRIBUTE_FORMAT);
            if (rc)
                CHECK(memcmp(&a, &before, sizeof a) == 0); /* untouched on error */
            /* inactive: never an error */
            CHECK_EQ(vfetch_maxwell_attribute_parse(attr_word(3, 8, size, type, 0) | 0x40, &a), VFETCH_OK);
        }
    }
    CHECK_EQ(vfetch_maxwell_attribute_parse(0, NULL), VFETCH_EINVAL);
}

/* One vertex of one attribute (or a few), compiled and run: the 4 output slots of generic 0. */
struct one_vertex {
    uint32_t words[4];
    int rc;
};

static struct one_vertex run_attribute(uint32_t word, const void *record, unsigned bytes)
{
    struct one_vertex r = { { 0 }, 0 };
    struct vfetch_maxwell_desc d;
    vfetch_maxwell_desc_init(&d);
    d.attribute[0] = word;
    d.stream_format[0] = 64 | 1u << 12;
    vfetch_maxwell_plan *mp = NULL;
    r.rc = vfetch_maxwell_compile(&d, &mp);
    if (r.rc)
        return r;
    uint8_t *src = guard_alloc_tail(bytes); /* the element ends at a guard page */
    memcpy(src, record, bytes);
    struct vfetch_maxwell_binding b[VFETCH_MAXWELL_STREAMS];
    memset(b, 0, sizeof b);
    b[0] = (struct vfetch_maxwell_binding){ src, 0x10000, 0x10000 + bytes - 1 };
    struct vfetch_maxwell_run_params p;
    vfetch_maxwell_run_params_init(&p);
    p.streams = b;
    p.count = 1;
    p.out = r.words;
    p.out_size = sizeof r.words;
    r.rc = vfetch_maxwell_run(mp, &p);
    guard_free(src);
    vfetch_maxwell_plan_free(mp);
    return r;
}

#define EXPECT4(word, rec, a, b, c, d_)                                                     \
    do {                                                                                    \
        const struct one_vertex ov_ = run_attribute(word, rec, sizeof rec);                 \
        CHECK_EQ(ov_.rc, VFETCH_OK);                                                        \
        CHECK_EQ(ov_.words[0], (uint32_t)(a));                                              \
        CHECK_EQ(ov_.words[1], (uint32_t)(b));                                              \
        CHECK_EQ(ov_.words[2], (uint32_t)(c));                                              \
        CHECK_EQ(ov_.words[3], (uint32_t)(d_));                                             \
    } while (0)

static void test_formats(void)
{
    /* R32G32B32A32_FLOAT: bits copied */
    const uint32_t f4[4] = { 0x3f800000u, 0xc0000000u, 0x7fc00001u, 0x00000001u };
    EXPECT4(0x38200000u, f4, f4[0], f4[1], f4[2], f4[3]);
    /* R32G32B32_FLOAT: w = 1.0 */
    EXPECT4(attr_word(0, 0, 0x02, 7, 0), f4, f4[0], f4[1], f4[2], ONE);
    /* R32_UINT / R32_SINT: integers, missing (0, 0, 1) as integers */
    const uint32_t big[1] = { 0xfffffffeu };
    EXPECT4(attr_word(0, 0, 0x12, VFETCH_MAXWELL_TYPE_UINT, 0), big, 0xfffffffeu, 0, 0, 1);
    EXPECT4(attr_word(0, 0, 0x12, VFETCH_MAXWELL_TYPE_SINT, 0), big, 0xfffffffeu, 0, 0, 1);
    /* R32 UNORM: 2^32 - 2 over 2^32 - 1 rounds to 1.0; USCALED to 2^32; SSCALED -2; SNORM
       -2 / (2^31 - 1) = -2^-30 (1 + 2^-31 + ...) rounds to -2^-30 */
    EXPECT4(attr_word(0, 0, 0x12, VFETCH_MAXWELL_TYPE_UNORM, 0), big, ONE, 0, 0, ONE);
    EXPECT4(attr_word(0, 0, 0x12, VFETCH_MAXWELL_TYPE_USCALED, 0), big, 0x4f800000u, 0, 0, ONE);
    EXPECT4(attr_word(0, 0, 0x12, VFETCH_MAXWELL_TYPE_SSCALED, 0), big, 0xc0000000u, 0, 0, ONE);
    EXPECT4(attr_word(0, 0, 0x12, VFETCH_MAXWELL_TYPE_SNORM, 0), big, 0xb0800000u, 0, 0, ONE);
    /* R16G16B16 SNORM: 0x7fff = 1, 0x8000 clamps to -1, 0xc000 = -16384/32767 */
    const uint16_t s3[3] = { 0x7fff, 0x8000, 0xc000 };
    EXPECT4(0x08a00000u, s3, ONE, 0xbf800000u, test_float_bits(-16384.0f / 32767.0f), ONE);
    /* R16G16 FLOAT: halves widened, SSCALED, SINT (sign-extended, missing 0, 1) */
    const uint16_t h2[2] = { 0x3c00, 0x8001 };
    EXPECT4(attr_word(0, 0, 0x0f, 7, 0), h2, ONE, 0xb3800000u, 0, ONE);
    EXPECT4(attr_word(0, 0, 0x0f, VFETCH_MAXWELL_TYPE_SINT, 0), h2, 0x3c00u, 0xffff8001u, 0, 1);
    EXPECT4(attr_word(0, 0, 0x0f, VFETCH_MAXWELL_TYPE_SSCALED, 0), h2, test_float_bits(15360.0f),
            test_float_bits(-32767.0f), 0, ONE);
    /* R8G8B8 UNORM (3 bytes at a guard page: nothing past them is read) */
    const uint8_t c3[3] = { 255, 0, 51 };
    EXPECT4(0x12600000u, c3, ONE, 0, test_float_bits(0.2f), ONE);
    /* R8G8B8A8 UINT, and with SWAP_R_AND_B */
    const uint8_t c4[4] = { 1, 2, 250, 4 };
    EXPECT4(attr_word(0, 0, 0x0a, VFETCH_MAXWELL_TYPE_UINT, 0), c4, 1, 2, 250, 4);
    EXPECT4(attr_word(0, 0, 0x0a, VFETCH_MAXWELL_TYPE_UINT, 1), c4, 250, 2, 1, 4);
    EXPECT4(attr_word(0, 0, 0x0a, VFETCH_MAXWELL_TYPE_SINT, 0), c4, 1, 2, 0xfffffffau, 4);
    /* A8B8G8R8 = the bytes of R8G8B8A8; G8R8 = R8G8; X8B8G8R8: three, w = 1 */
    EXPECT4(attr_word(0, 0, 0x2f, VFETCH_MAXWELL_TYPE_USCALED, 0), c4, ONE, 0x40000000u,
            test_float_bits(250.0f), test_float_bits(4.0f));
    EXPECT4(attr_word(0, 0, 0x32, VFETCH_MAXWELL_TYPE_USCALED, 0), c4, ONE, 0x40000000u, 0, ONE);
    EXPECT4(attr_word(0, 0, 0x33, VFETCH_MAXWELL_TYPE_USCALED, 0), c4, ONE, 0x40000000u,
            test_float_bits(250.0f), ONE);
    /* A8: (0, 0, 0, A); as an integer the zeros are integers too */
    const uint8_t a1[1] = { 255 };
    EXPECT4(attr_word(0, 0, 0x34, VFETCH_MAXWELL_TYPE_UNORM, 0), a1, 0, 0, 0, ONE);
    EXPECT4(attr_word(0, 0, 0x34, VFETCH_MAXWELL_TYPE_UINT, 0), a1, 0, 0, 0, 255);
    /* SWAP_R_AND_B with two components: x takes the missing z (0), z takes R */
    EXPECT4(attr_word(0, 0, 0x18, VFETCH_MAXWELL_TYPE_USCALED, 1), c4, 0, 0x40000000u, ONE, ONE);
    /* A2B10G10R10: R = 1023, G = 512, B = 0, A = 2 */
    const uint32_t p1[1] = { 1023u | 512u << 10 | 0u << 20 | 2u << 30 };
    EXPECT4(0x16000000u, p1, ONE, test_float_bits(512.0f / 1023.0f), 0, test_float_bits(2.0f / 3.0f));
    /* SNORM: 512 = -512 -> clamps to -1 (-512/511 < -1), alpha 2 = -2 -> -1 */
    EXPECT4(attr_word(0, 0, 0x30, VFETCH_MAXWELL_TYPE_SNORM, 0), p1, test_float_bits(-1.0f / 511.0f),
            0xbf800000u, 0, 0xbf800000u);
    EXPECT4(attr_word(0, 0, 0x30, VFETCH_MAXWELL_TYPE_UINT, 0), p1, 1023, 512, 0, 2);
    EXPECT4(attr_word(0, 0, 0x30, VFETCH_MAXWELL_TYPE_SINT, 0), p1, 0xffffffffu, 0xfffffe00u, 0,
            0xfffffffeu);
    EXPECT4(attr_word(0, 0, 0x30, VFETCH_MAXWELL_TYPE_SSCALED, 0), p1, 0xbf800000u,
            test_float_bits(-512.0f), 0, test_float_bits(-2.0f));
    /* B10G11R11: R = 1.0 (e 15, m 0), G = 0.5 + 1/128 (e 14, m 1 of 6 bits), B = inf */
    const uint32_t uf[1] = { (15u << 6) | ((14u << 6) | 1u) << 11 | (31u << 5) << 22 };
    EXPECT4(0x3e200000u, uf, ONE, test_float_bits(0.5f + 1.0f / 128.0f), 0x7f800000u, ONE);
}

/* A small format for the layout, default and system-value tests: generic 0 = R32G32 float at
   stream 0, generic 2 = R8G8B8A8 unorm at stream 1 offset 4 (instanced). */
static void small_desc(struct vfetch_maxwell_desc *d)
{
    vfetch_maxwell_desc_init(d);
    d->attribute[0] = attr_word(0, 0, 0x04, 7, 0);
    d->attribute[2] = attr_word(1, 4, 0x0a, VFETCH_MAXWELL_TYPE_UNORM, 0);
    d->stream_format[0] = 8 | 1u << 12;
    d->stream_format[1] = 8 | 1u << 12;
}

static void test_errors(void)
{
    struct vfetch_maxwell_desc d;
    vfetch_maxwell_plan *mp = (vfetch_maxwell_plan *)&d; /* must stay untouched */
    small_desc(&d);
    CHECK_EQ(vfetch_maxwell_compile(NULL, &mp), VFETCH_EINVAL);
    CHECK_EQ(vfetch_maxwell_compile(&d, NULL), VFETCH_EINVAL);
    d.layout = (enum vfetch_maxwell_layout)2;
    CHECK_EQ(vfetch_maxwell_compile(&d, &mp), VFETCH_EINVAL);
    small_desc(&d);
    d.path = (enum vfetch_path)2;
    CHECK_EQ(vfetch_maxwell_compile(&d, &mp), VFETCH_EINVAL);
    small_desc(&d);
    d.stream_format[1] = 8; /* stream 1 disabled, attribute 2 reads it */
    CHECK_EQ(vfetch_maxwell_compile(&d, &mp), VFETCH_EMAXWELL_STREAM_DISABLED);
    small_desc(&d);
    d.attribute[2] = attr_word(1, 4, 0x0a, VFETCH_MAXWELL_TYPE_FLOAT, 0); /* 8-bit float */
    CHECK_EQ(vfetch_maxwell_compile(&d, &mp), VFETCH_EMAXWELL_ATTRIBUTE_FORMAT);
    small_desc(&d);
    d.attribute[2] = attr_word(1, 4, 0x07, VFETCH_MAXWELL_TYPE_UNORM, 0); /* no size 7 */
    CHECK_EQ(vfetch_maxwell_compile(&d, &mp), VFETCH_EMAXWELL_ATTRIBUTE_FORMAT);
    CHECK(mp == (vfetch_maxwell_plan *)&d);
    /* A bad attribute outside the Bmap fetches nothing: no error. */
    vfetch_aam_map_add(&d.input_bmap, VFETCH_AAM_GENERIC_0);
    CHECK_EQ(vfetch_maxwell_compile(&d, &mp), VFETCH_OK);
    vfetch_maxwell_plan_free(mp);
    /* A compact record of nothing. */
    vfetch_maxwell_desc_init(&d);
    mp = (vfetch_maxwell_plan *)&d;
    CHECK_EQ(vfetch_maxwell_compile(&d, &mp), VFETCH_EINVAL);
    CHECK(mp == (vfetch_maxwell_plan *)&d);
    vfetch_maxwell_plan_free(NULL);

    /* Run errors: nothing written. */
    small_desc(&d);
    CHECK_EQ(vfetch_maxwell_compile(&d, &mp), VFETCH_OK);
    uint8_t data[64] = { 0 };
    struct vfetch_maxwell_binding b[VFETCH_MAXWELL_STREAMS];
    memset(b, 0, sizeof b);
    b[0] = (struct vfetch_maxwell_binding){ data, 0x1000, 0x1000 + 15 }; /* 2 records */
    b[1] = (struct vfetch_maxwell_binding){ data, 0x2000, 0x2000 + 7 };
    uint32_t out[64];
    memset(out, 0x77, sizeof out);
    struct vfetch_maxwell_run_params p;
    vfetch_maxwell_run_params_init(&p);
    p.streams = b;
    p.count = 3; /* stream 0 holds two records */
    p.out = out;
    p.out_size = sizeof out;
    CHECK_EQ(vfetch_maxwell_run(mp, &p), VFETCH_ESHORT_STREAM);
    p.count = 2;
    b[0].limit = 0x0fff; /* limit below location: no bytes */
    CHECK_EQ(vfetch_maxwell_run(mp, &p), VFETCH_ESHORT_STREAM);
    b[0].limit = 0x1000 + 15;
    p.instance = 1; /* stream 1 is per vertex here: fine */
    p.out_size = 4;
    CHECK_EQ(vfetch_maxwell_run(mp, &p), VFETCH_ESHORT_OUTPUT);
    p.out_size = sizeof out;
    p.streams = NULL;
    CHECK_EQ(vfetch_maxwell_run(mp, &p), VFETCH_EINVAL);
    CHECK_EQ(vfetch_maxwell_run(NULL, &p), VFETCH_EINVAL);
    CHECK_EQ(vfetch_maxwell_run(mp, NULL), VFETCH_EINVAL);
    for (unsigned i = 0; i < 64; i++)
        CHECK_EQ(out[i], 0x77777777u);
    vfetch_maxwell_plan_free(mp);
}

/* Run the small format over n vertices; out gets n records. */
static int run_small(const struct vfetch_maxwell_desc *d, uint32_t n, struct vfetch_maxwell_run_params *p,
                     uint32_t *out, size_t out_size, vfetch_maxwell_plan **keep)
{
    static uint8_t s0[8 * 64], s1[8 * 64];
    for (unsigned i = 0; i < sizeof s0; i++) {
        s0[i] = (uint8_t)(i * 7 + 1);
        s1[i] = (uint8_t)(i * 13 + 5);
    }
    vfetch_maxwell_plan *mp;
    int rc = vfetch_maxwell_compile(d, &mp);
    if (rc)
        return rc;
    static struct vfetch_maxwell_binding b[VFETCH_MAXWELL_STREAMS];
    b[0] = (struct vfetch_maxwell_binding){ s0, 0, sizeof s0 - 1 };
    b[1] = (struct vfetch_maxwell_binding){ s1, 0, sizeof s1 - 1 };
    p->streams = b;
    p->count = n;
    p->out = out;
    p->out_size = out_size;
    rc = vfetch_maxwell_run(mp, p);
    *keep = mp;
    return rc;
}

static void test_layouts_and_defaults(void)
{
    static uint32_t full[4 * 256], compact[4 * 256];
    for (unsigned def = 0; def < 16; def++) {
        struct vfetch_maxwell_desc d;
        small_desc(&d);
        d.attribute_default = def;
        /* Bmap: generic 0 xyzw, generic 1 xy (no attribute: defaults), generic 2 xz (R, B),
           position w, front diffuse rgba, VERTEX_ID, INSTANCE_ID */
        const unsigned held[] = { 32, 33, 34, 35, 36, 37, 40, 42, 31, 160, 161, 162, 163, 190, 191 };
        for (unsigned k = 0; k < sizeof held / sizeof held[0]; k++)
            vfetch_aam_map_add(&d.input_bmap, held[k]);
        struct vfetch_maxwell_run_params p;
        vfetch_maxwell_run_params_init(&p);
        p.first = 1;
        p.instance = 5;
        p.vertex_id_base = 100;
        vfetch_maxwell_plan *mf = NULL, *mc = NULL;
        d.layout = VFETCH_MAXWELL_LAYOUT_FULL;
        CHECK_EQ(run_small(&d, 4, &p, full, sizeof full, &mf), VFETCH_OK);
        d.layout = VFETCH_MAXWELL_LAYOUT_COMPACT;
        vfetch_maxwell_run_params_init(&p);
        p.first = 1;
        p.instance = 5;
        p.vertex_id_base = 100;
        CHECK_EQ(run_small(&d, 4, &p, compact, sizeof compact, &mc), VFETCH_OK);
        CHECK_EQ(vfetch_maxwell_plan_out_stride(mf), 1024u);
        CHECK_EQ(vfetch_maxwell_plan_out_stride(mc), 4u * 15);
        for (unsigned n = 0; n < 256; n++) {
            const int slot = vfetch_maxwell_plan_slot(mc, n);
            int in_bmap = 0;
            for (unsigned k = 0; k < sizeof held / sizeof held[0]; k++)
                in_bmap |= held[k] == n;
            CHECK_EQ(slot >= 0, in_bmap);
            CHECK_EQ(vfetch_maxwell_plan_slot(mf, n), (int)n);
            for (unsigned v = 0; v < 4; v++) {
                const uint32_t fv = full[v * 256 + n];
                if (slot >= 0)
                    CHECK_EQ(compact[v * 15 + (unsigned)slot], fv); /* same words, packed */
                if (n == 190)
                    CHECK_EQ(fv, 5u); /* INSTANCE_ID: the instance, integer */
                else if (n == 191)
                    CHECK_EQ(fv, 1 + v + 100u); /* VERTEX_ID: draw position + base */
                else if (n == 32 || n == 33) { /* R32G32 float of record 1 + v */
                    uint32_t want;
                    const unsigned at = 8 * (1 + v) + 4 * (n - 32);
                    want = (uint32_t)(uint8_t)(at * 7 + 1) | (uint32_t)(uint8_t)((at + 1) * 7 + 1) << 8 |
                           (uint32_t)(uint8_t)((at + 2) * 7 + 1) << 16 | (uint32_t)(uint8_t)((at + 3) * 7 + 1) << 24;
                    CHECK_EQ(fv, want);
                } else if (n == 34)
                    CHECK_EQ(fv, 0u); /* missing z */
                else if (n == 35)
                    CHECK_EQ(fv, ONE); /* missing w: the format's 1.0, not the default */
                else if (n == 40 || n == 42) { /* R, B of record 1 + v at offset 4, unorm */
                    const unsigned at = 8 * (1 + v) + 4 + (n - 40);
                    CHECK_EQ(fv, test_float_bits((float)(uint8_t)(at * 13 + 5) / 255.0f));
                } else if (n == 39 || n == 43 || n == 47 || n == 41 || n == 38 || n == 36 || n == 37 ||
                           (n >= 44 && n < 160))
                    /* generic defaults (held or not): 0, w by GENERIC_VECTOR (bit 2) */
                    CHECK_EQ(fv, n % 4 == 3 && (def & 4) ? ONE : 0u);
                else if (n >= 160 && n < 163)
                    CHECK_EQ(fv, def & 1 ? ONE : 0u); /* front diffuse rgb: bit 0 */
                else if (n == 163 || n == 31)
                    CHECK_EQ(fv, ONE); /* diffuse alpha and position w: 1.0 */
                else
                    CHECK_EQ(fv, vfetch_aam_default_bits(n, def));
            }
        }
        /* the declaration of the converter: generic 0 at slot 0, generic 2 at its slot */
        CHECK_EQ(vfetch_plan_location(vfetch_maxwell_plan_converter(mc), 0), vfetch_maxwell_plan_slot(mc, 32));
        CHECK_EQ(vfetch_plan_location(vfetch_maxwell_plan_converter(mc), 2), vfetch_maxwell_plan_slot(mc, 40));
        CHECK_EQ(vfetch_plan_location(vfetch_maxwell_plan_converter(mc), 1), -1);
        vfetch_maxwell_plan_free(mf);
        vfetch_maxwell_plan_free(mc);
    }
}

/* VERTEX_ID with indices and bases; INSTANCE_ID; instanced streams with divisors 0, 1, 3. */
static void test_system_values_and_instancing(void)
{
    for (unsigned divisor = 0; divisor < 4; divisor++) {
        if (divisor == 2)
            continue;
        struct vfetch_maxwell_desc d;
        small_desc(&d);
        d.stream_instance[1] = 1;
        d.stream_frequency[1] = divisor;
        vfetch_aam_map_add(&d.input_bmap, 40); /* generic 2 R (instanced stream) */
        vfetch_aam_map_add(&d.input_bmap, VFETCH_AAM_VERTEX_ID);
        vfetch_aam_map_add(&d.input_bmap, VFETCH_AAM_INSTANCE_ID);
        for (unsigned itype = 0; itype < 3; itype++) {
            for (uint32_t instance = 0; instance < 7; instance++) {
                const uint32_t base_instance = instance % 3 == 0 ? 0 : 2;
                uint16_t idx16[8] = { 9, 3, 0, 7, 60, 2, 5, 1 };
                uint32_t idx32[8] = { 9, 3, 0, 7, 60, 2, 5, 1 };
                struct vfetch_maxwell_run_params p;
                vfetch_maxwell_run_params_init(&p);
                p.first = 2;
                p.instance = instance;
                p.base_instance = base_instance;
                p.vertex_id_base = 0xfffffffeu; /* wraps mod 2^32 */
                p.index_type = (enum vfetch_index_type)itype;
                p.indices = itype == 1 ? (const void *)idx16 : itype == 2 ? (const void *)idx32 : NULL;
                p.indices_size = itype == 1 ? sizeof idx16 : itype == 2 ? sizeof idx32 : 0;
                uint32_t out[6 * 3];
                vfetch_maxwell_plan *mp = NULL;
                CHECK_EQ(run_small(&d, 6, &p, out, sizeof out, &mp), VFETCH_OK);
                const int s_r = vfetch_maxwell_plan_slot(mp, 40);
                const int s_i = vfetch_maxwell_plan_slot(mp, VFETCH_AAM_INSTANCE_ID);
                const int s_v = vfetch_maxwell_plan_slot(mp, VFETCH_AAM_VERTEX_ID);
                CHECK(s_r == 0 && s_i == 1 && s_v == 2); /* address order */
                const uint32_t record = base_instance + (divisor ? instance / divisor : 0);
                const unsigned at = 8 * record + 4; /* R byte of the instanced record */
                for (unsigned v = 0; v < 6; v++) {
                    const uint32_t index = itype ? idx32[2 + v] : 2 + v;
                    CHECK_EQ(out[3 * v + 0], test_float_bits((float)(uint8_t)(at * 13 + 5) / 255.0f));
                    CHECK_EQ(out[3 * v + 1], instance);
                    CHECK_EQ(out[3 * v + 2], index + 0xfffffffeu);
                }
                vfetch_maxwell_plan_free(mp);
            }
        }
        /* An instanced record past the limit: an error, nothing written. */
        struct vfetch_maxwell_run_params p;
        vfetch_maxwell_run_params_init(&p);
        p.base_instance = 64; /* stream 1 holds 64 records of 8 bytes */
        uint32_t out[3] = { 7, 7, 7 };
        vfetch_maxwell_plan *mp = NULL;
        CHECK_EQ(run_small(&d, 1, &p, out, sizeof out, &mp), VFETCH_ESHORT_STREAM);
        CHECK(out[0] == 7 && out[1] == 7 && out[2] == 7);
        vfetch_maxwell_plan_free(mp);
    }
}

/* Random formats, both layouts and random Bmaps, at every level against level c; source and
   output buffers end at guard pages. */
static uint64_t rng = 0x243f6a8885a308d3ull;
static uint32_t rnd(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33);
}

static void test_levels(void)
{
    static const unsigned sizes[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x0a, 0x0f, 0x12, 0x13,
                                      0x18, 0x1b, 0x1d, 0x2f, 0x30, 0x31, 0x32, 0x33, 0x34 };
    static const unsigned levels[] = { 0, VFETCH_CPU_SSE2, VFETCH_CPU_SSE41, VFETCH_CPU_AVX2,
                                       VFETCH_CPU_AVX512, VFETCH_CPU_NEON };
    const unsigned saved = vfetch_get_cpu_mask();
    const unsigned available = vfetch_cpu_flags();
    unsigned formats = 0, runs = 0;
    for (unsigned iter = 0; iter < 300; iter++) {
        struct vfetch_maxwell_desc d;
        vfetch_maxwell_desc_init(&d);
        d.layout = (enum vfetch_maxwell_layout)(rnd() % 2);
        if (d.layout == VFETCH_MAXWELL_LAYOUT_COMPACT && rnd() % 3 == 0)
            d.out_stride = 1024; /* padded with zeros: the record program's whole stores */
        d.attribute_default = rnd() % 16;
        const unsigned nattr = 1 + rnd() % 8;
        for (unsigned k = 0; k < nattr; k++) {
            const unsigned i = rnd() % 32, size = sizes[rnd() % 18];
            unsigned type = 1 + rnd() % 7;
            struct vfetch_maxwell_attribute a;
            if (vfetch_maxwell_attribute_parse(attr_word(0, 0, size, type, 0), &a))
                type = size == 0x31 ? 7 : 2;
            d.attribute[i] = attr_word(rnd() % 3, rnd() % 24, size, type, rnd() % 2);
        }
        for (unsigned j = 0; j < 3; j++) {
            d.stream_format[j] = (24 + rnd() % 16) | 1u << 12;
            d.stream_instance[j] = rnd() % 4 == 0;
            d.stream_frequency[j] = rnd() % 3;
        }
        if (rnd() % 2) /* a random Bmap, system values included */
            for (unsigned k = 0; k < 40; k++)
                vfetch_aam_map_add(&d.input_bmap, rnd() % 2 ? 32 + rnd() % 128 : rnd() % 256);
        const uint32_t n = 1 + rnd() % 70;
        uint32_t idx[80];
        for (unsigned k = 0; k < 80; k++)
            idx[k] = rnd() % 90;
        const int indexed = rnd() % 2;
        const uint32_t instance = rnd() % 5;
        struct vfetch_maxwell_binding b[VFETCH_MAXWELL_STREAMS];
        memset(b, 0, sizeof b);
        uint8_t *src[3];
        for (unsigned j = 0; j < 3; j++) {
            const size_t bytes = 100 * 40 + 64;
            src[j] = guard_alloc_tail(bytes);
            for (size_t k = 0; k < bytes; k++)
                src[j][k] = (uint8_t)rnd();
            b[j] = (struct vfetch_maxwell_binding){ src[j], 0x4000, 0x4000 + bytes - 1 };
        }
        uint8_t *want = NULL;
        size_t out_size = 0;
        for (unsigned l = 0; l < sizeof levels / sizeof levels[0]; l++) {
            if (l && !(available & levels[l]))
                continue;
            vfetch_set_cpu_mask(levels[l]);
            vfetch_maxwell_plan *mp;
            const int rc = vfetch_maxwell_compile(&d, &mp);
            if (rc) {
                CHECK_EQ(rc, VFETCH_EINVAL); /* only an empty compact Bmap */
                break;
            }
            out_size = (size_t)(n - 1) * vfetch_maxwell_plan_out_stride(mp) +
                       vfetch_plan_record_size(vfetch_maxwell_plan_converter(mp));
            uint8_t *out = guard_alloc_tail(out_size);
            memset(out, 0xcd, out_size);
            struct vfetch_maxwell_run_params p;
            vfetch_maxwell_run_params_init(&p);
            p.streams = b;
            p.first = 3;
            p.count = n;
            p.index_type = indexed ? VFETCH_INDEX_U32 : VFETCH_INDEX_NONE;
            p.indices = indexed ? idx : NULL;
            p.indices_size = indexed ? sizeof idx : 0;
            p.instance = instance;
            p.base_instance = 1;
            p.vertex_id_base = 7;
            p.out = out;
            p.out_size = out_size;
            const int run_rc = vfetch_maxwell_run(mp, &p);
            CHECK_EQ(run_rc, VFETCH_OK);
            runs++;
            if (!want) {
                want = malloc(out_size);
                memcpy(want, out, out_size);
                formats++;
            } else if (memcmp(want, out, out_size) != 0) {
                test_failures++;
                fprintf(stderr, "maxwell: format %u differs at level %u\n", iter, levels[l]);
            }
            test_checks++;
            guard_free(out);
            vfetch_maxwell_plan_free(mp);
        }
        free(want);
        for (unsigned j = 0; j < 3; j++)
            guard_free(src[j]);
        vfetch_set_cpu_mask(saved);
    }
    printf("maxwell: %u random formats, %u runs over the levels, every level equal to the "
           "reference\n", formats, runs);
    unsigned levels_here = 1; /* the reference, and the SIMD levels the mask allows */
    for (unsigned l = 1; l < sizeof levels / sizeof levels[0]; l++)
        levels_here += (available & levels[l]) != 0;
    CHECK_EQ(runs, levels_here * formats);
}

/* out_stride: the record padded with zero words; errors for a stride not a multiple of 4,
   below the record or above 1024 bytes. */
static void test_out_stride(void)
{
    struct vfetch_maxwell_desc d;
    small_desc(&d);
    vfetch_aam_map_add(&d.input_bmap, 32);
    vfetch_aam_map_add(&d.input_bmap, 33);
    vfetch_aam_map_add(&d.input_bmap, 42);
    vfetch_aam_map_add(&d.input_bmap, VFETCH_AAM_VERTEX_ID); /* 4 slots: 16 bytes */
    static uint32_t tight[8 * 4], padded[8 * 12];
    memset(padded, 0x77, sizeof padded);
    struct vfetch_maxwell_run_params p;
    vfetch_maxwell_run_params_init(&p);
    vfetch_maxwell_plan *mt = NULL, *mp = NULL;
    CHECK_EQ(run_small(&d, 8, &p, tight, sizeof tight, &mt), VFETCH_OK);
    d.out_stride = 48;
    vfetch_maxwell_run_params_init(&p);
    CHECK_EQ(run_small(&d, 8, &p, padded, sizeof padded, &mp), VFETCH_OK);
    CHECK_EQ(vfetch_maxwell_plan_out_stride(mp), 48u);
    for (unsigned v = 0; v < 8; v++)
        for (unsigned k = 0; k < 12; k++)
            CHECK_EQ(padded[12 * v + k], k < 4 ? tight[4 * v + k] : 0u);
    vfetch_maxwell_plan_free(mt);
    vfetch_maxwell_plan_free(mp);
    const uint32_t bad[] = { 18, 12, 1028 };
    for (unsigned k = 0; k < 3; k++) {
        d.out_stride = bad[k];
        mp = (vfetch_maxwell_plan *)&d;
        CHECK_EQ(vfetch_maxwell_compile(&d, &mp), VFETCH_EINVAL);
        CHECK(mp == (vfetch_maxwell_plan *)&d);
    }
}

/*
 * A one-stream plan's short draws (vfetch_maxwell_run's way straight to the generated code):
 * R8G8B8A8 UNORM records ending at a guard page, every count 1..40 from the first record and
 * the last count from the second, each value x / 255; the stream's limit a byte short, below its
 * location, a draw one record past it and an output a byte short refused, nothing written.
 */
static void test_one_stream_draws(void)
{
    enum { N = 40 };
    struct vfetch_maxwell_desc d;
    vfetch_maxwell_desc_init(&d);
    d.attribute[0] = attr_word(0, 0, 0x0a, VFETCH_MAXWELL_TYPE_UNORM, 0);
    d.stream_format[0] = 4 | 1u << 12;
    vfetch_maxwell_plan *mp;
    CHECK_EQ(vfetch_maxwell_compile(&d, &mp), VFETCH_OK);
    const size_t stride = vfetch_maxwell_plan_out_stride(mp);
    uint8_t *src = guard_alloc_tail(4 * N);
    for (unsigned i = 0; i < 4 * N; i++)
        src[i] = (uint8_t)(i * 37 + 11);
    uint8_t *out = guard_alloc_tail(stride * N);
    struct vfetch_maxwell_binding b[VFETCH_MAXWELL_STREAMS];
    memset(b, 0, sizeof b);
    b[0] = (struct vfetch_maxwell_binding){ src, 0x10000, 0x10000 + 4 * N - 1 };
    struct vfetch_maxwell_run_params p;
    vfetch_maxwell_run_params_init(&p);
    p.streams = b;
    p.out = out;
    p.out_size = stride * N;
    for (unsigned k = 0; k <= N; k++) { /* counts 1..N from record 0, then N - 1 from 1 */
        const unsigned first = k == N, count = first ? N - 1 : k + 1;
        p.first = first;
        p.count = count;
        memset(out, 0x77, stride * N);
        CHECK_EQ(vfetch_maxwell_run(mp, &p), VFETCH_OK);
        for (unsigned v = 0; v < count; v++)
            for (unsigned c = 0; c < 4; c++) {
                float got;
                memcpy(&got, out + v * stride + 4 * c, 4);
                const float want = (float)src[4 * (first + v) + c] / 255.0f;
                CHECK_EQ(test_float_bits(got), test_float_bits(want));
            }
    }
    memset(out, 0x77, stride * N);
    p.first = 0;
    p.count = N;
    b[0].limit--;
    CHECK_EQ(vfetch_maxwell_run(mp, &p), VFETCH_ESHORT_STREAM);
    b[0].limit = b[0].location - 1;
    CHECK_EQ(vfetch_maxwell_run(mp, &p), VFETCH_ESHORT_STREAM);
    b[0].limit = 0x10000 + 4 * N - 1;
    p.first = 1;
    CHECK_EQ(vfetch_maxwell_run(mp, &p), VFETCH_ESHORT_STREAM);
    p.first = 0;
    p.out_size = stride * N - 1;
    CHECK_EQ(vfetch_maxwell_run(mp, &p), VFETCH_ESHORT_OUTPUT);
    for (size_t i = 0; i < stride * N; i++)
        if (out[i] != 0x77) {
            CHECK(!"output written on error");
            break;
        }
    guard_free(out);
    guard_free(src);
    vfetch_maxwell_plan_free(mp);
}

int main(void)
{
    test_parse();
    test_formats();
    test_errors();
    test_layouts_and_defaults();
    test_system_values_and_instancing();
    test_out_stride();
    test_one_stream_draws();
    test_levels();
    return test_summary("maxwell");
}
