/*
 * GX front-end, part 1: VCD/VAT parsing and vertex sizes, with expected values worked out by
 * hand from ../shared/spec/gx-cp-vat.txt (arithmetic in the comments), and every error.
 */
#include "testutil.h"
#include "vfetch/gx.h"

/* VCD_LO field of attribute a (position 0, normal 1, color0 2, color1 3). */
static uint32_t vcd_lo(unsigned a, unsigned mode)
{
    return mode << (9 + 2 * a);
}

static uint32_t size_of(const struct vfetch_gx_regs *d)
{
    uint32_t size = 0xdeadbeef;
    CHECK_EQ(vfetch_gx_vertex_size(d, &size), 0);
    return size;
}

static void test_positions(void)
{
    /* POSCNT bit 0, POSFMT bits 3:1, POSSHFT bits 8:4 */
    static const unsigned comp[5] = { 1, 1, 2, 2, 4 };
    for (unsigned fmt = 0; fmt < 8; fmt++)
        for (unsigned cnt = 0; cnt < 2; cnt++) {
            struct vfetch_gx_regs d = { .vcd_lo = vcd_lo(0, VFETCH_GX_DIRECT),
                                        .vat_a = cnt | fmt << 1 | 31u << 4 };
            struct vfetch_gx_format f;
            CHECK_EQ(vfetch_gx_parse(&d, &f), 0);
            const unsigned eff = fmt > 4 ? 4 : fmt;
            /* e.g. s16 XYZ: 3 * 2 = 6 bytes; formats 5..7 read as f32 (XYZ 12 bytes) */
            CHECK_EQ(f.attr[VFETCH_GX_POSITION].count, cnt ? 3 : 2);
            CHECK_EQ(f.attr[VFETCH_GX_POSITION].format, eff);
            CHECK_EQ(f.vertex_size, (cnt ? 3 : 2) * comp[eff]);
            CHECK_EQ(f.diagnostics, fmt > 4 ? VFETCH_GX_DIAG_UNUSED_FORMAT : 0);
            /* the shift (31) applies to u16/s16 always, to u8/s8 only with BYTEDEQUANT (off
               here), never to f32 */
            CHECK_EQ(f.attr[VFETCH_GX_POSITION].shift, eff == 2 || eff == 3 ? 31 : 0);
            d.vat_a |= 1u << 30;
            CHECK_EQ(vfetch_gx_parse(&d, &f), 0);
            CHECK_EQ(f.attr[VFETCH_GX_POSITION].shift, eff < 4 ? 31 : 0);
        }
}

static void test_normals(void)
{
    /* NRMCNT bit 9, NRMFMT bits 12:10; s8 shift 6, s16 14; u8/u16 accepted with 7/15 */
    static const unsigned shift[5] = { 7, 6, 15, 14, 0 }, comp[5] = { 1, 1, 2, 2, 4 };
    for (unsigned fmt = 0; fmt < 5; fmt++) {
        struct vfetch_gx_regs d = { .vcd_lo = vcd_lo(1, VFETCH_GX_DIRECT), .vat_a = fmt << 10 };
        struct vfetch_gx_format f;
        CHECK_EQ(vfetch_gx_parse(&d, &f), 0);
        CHECK_EQ(f.attr[VFETCH_GX_NORMAL].shift, shift[fmt]);
        CHECK_EQ(f.vertex_size, 3 * comp[fmt]);
        CHECK_EQ(f.diagnostics, fmt == 0 || fmt == 2 ? VFETCH_GX_DIAG_UNSIGNED_NORMAL : 0);
        d.vat_a |= 1u << 9; /* NBT: nine components */
        CHECK_EQ(size_of(&d), 9 * comp[fmt]);
    }
    /* Indexed NBT: one index, or three with NORMALINDEX3 (VAT A bit 31) */
    struct vfetch_gx_regs d = { .vcd_lo = vcd_lo(1, VFETCH_GX_INDEX16), .vat_a = 1u << 9 | 3u << 10 };
    CHECK_EQ(size_of(&d), 2);
    d.vat_a |= 1u << 31;
    CHECK_EQ(size_of(&d), 6);
    d.vcd_lo = vcd_lo(1, VFETCH_GX_INDEX8);
    CHECK_EQ(size_of(&d), 3);
    d.vat_a &= ~(1u << 9); /* N only: NORMALINDEX3 does not matter */
    CHECK_EQ(size_of(&d), 1);
}

static void test_colors(void)
{
    /* COL0FMT bits 16:14, COL1FMT bits 20:18; sizes 2, 3, 4, 2, 3, 4 whatever the count */
    static const unsigned size[6] = { 2, 3, 4, 2, 3, 4 };
    for (unsigned c = 0; c < 2; c++)
        for (unsigned fmt = 0; fmt < 8; fmt++)
            for (unsigned cnt = 0; cnt < 2; cnt++) {
                struct vfetch_gx_regs d = { .vcd_lo = vcd_lo(2 + c, VFETCH_GX_DIRECT),
                                            .vat_a = cnt << (13 + 4 * c) | fmt << (14 + 4 * c) };
                uint32_t s = 0;
                if (fmt > 5) {
                    CHECK_EQ(vfetch_gx_vertex_size(&d, &s), VFETCH_EGX_RESERVED_COLOR);
                    CHECK_EQ(s, 0); /* nothing written */
                    d.vcd_lo = 0;   /* absent: the reserved format is ignored */
                    CHECK_EQ(size_of(&d), 0);
                } else {
                    CHECK_EQ(size_of(&d), size[fmt]);
                    d.vcd_lo = vcd_lo(2 + c, VFETCH_GX_INDEX16);
                    CHECK_EQ(size_of(&d), 2);
                }
            }
}

static void test_texcoords(void)
{
    /* Texcoord n: VCD_HI bits 2n+1:2n. CNT/FMT/SHFT: tex0 A 21/22/25, tex1 B 0/1/4, tex2 B
       9/10/13, tex3 B 18/19/22, tex4 B 27/28 + C 0, tex5 C 5/6/9, tex6 C 14/15/18,
       tex7 C 23/24/27. Each: s16 ST with shift n + 3 -> 4 bytes. */
    static const unsigned word[8] = { 0, 1, 1, 1, 1, 2, 2, 2 }, cnt_bit[8] = { 21, 0, 9, 18, 27, 5, 14, 23 };
    static const unsigned shift_word[8] = { 0, 1, 1, 1, 2, 2, 2, 2 }, shift_bit[8] = { 25, 4, 13, 22, 0, 9, 18, 27 };
    for (unsigned n = 0; n < 8; n++) {
        uint32_t vat[3] = { 0, 0, 0 };
        vat[word[n]] |= 1u << cnt_bit[n] | (uint32_t)VFETCH_GX_S16 << (cnt_bit[n] + 1);
        vat[shift_word[n]] |= (n + 3) << shift_bit[n];
        struct vfetch_gx_regs d = { .vcd_hi = (uint32_t)VFETCH_GX_DIRECT << (2 * n),
                                    .vat_a = vat[0], .vat_b = vat[1], .vat_c = vat[2] };
        struct vfetch_gx_format f;
        CHECK_EQ(vfetch_gx_parse(&d, &f), 0);
        const struct vfetch_gx_attr *t = &f.attr[VFETCH_GX_TEXCOORD0 + n];
        CHECK_EQ(t->count, 2);
        CHECK_EQ(t->format, VFETCH_GX_S16);
        CHECK_EQ(t->shift, n + 3);
        CHECK_EQ(f.vertex_size, 4);
        for (unsigned m = 0; m < 8; m++)
            if (m != n)
                CHECK_EQ(f.attr[VFETCH_GX_TEXCOORD0 + m].mode, VFETCH_GX_NONE);
    }
}

static void test_whole_vertex(void)
{
    /* Position-matrix index + tex0/tex3 matrix indices (3 bytes), position index16 (2),
       normal direct s8 N (3), color0 direct rgba6666 (3), color1 index8 (1), texcoord0
       direct f32 ST (8), texcoord7 index16 (2): 3 + 2 + 3 + 3 + 1 + 8 + 2 = 22 bytes. */
    struct vfetch_gx_regs d = {
        .vcd_lo = 1u | 1u << 1 | 1u << 4 | vcd_lo(0, VFETCH_GX_INDEX16) |
                  vcd_lo(1, VFETCH_GX_DIRECT) | vcd_lo(2, VFETCH_GX_DIRECT) | vcd_lo(3, VFETCH_GX_INDEX8),
        .vcd_hi = VFETCH_GX_DIRECT | (uint32_t)VFETCH_GX_INDEX16 << 14,
        .vat_a = 1u | 4u << 1 | 1u << 10 | 1u << 13 | 4u << 14 | 1u << 21 | 4u << 22,
    };
    struct vfetch_gx_format f;
    CHECK_EQ(vfetch_gx_parse(&d, &f), 0);
    CHECK_EQ(f.vertex_size, 22);
    CHECK_EQ(f.pos_matrix_index, 1);
    CHECK_EQ(f.tex_matrix_index[0] + f.tex_matrix_index[3], 2);
    CHECK_EQ(f.attr[VFETCH_GX_COLOR0].format, VFETCH_GX_RGBA6666);
    CHECK_EQ(f.attr[VFETCH_GX_COLOR0].count, 4);
    CHECK_EQ(f.attr[VFETCH_GX_POSITION].element_size, 12); /* f32 XYZ array entry */
    CHECK_EQ(f.attr[VFETCH_GX_POSITION].stream_size, 2);
    /* Every field set: the largest vertex. 9 matrix bytes, position f32 XYZ 12, NBT f32 36,
       two rgba8888 8, eight f32 ST 64: 129 bytes. */
    struct vfetch_gx_regs big = { .vcd_lo = 0x1ffu | 0x5555u << 9, .vcd_hi = 0x5555,
                                  .vat_a = 1u | 4u << 1 | 1u << 9 | 4u << 10 | 1u << 13 | 5u << 14 |
                                           1u << 17 | 5u << 18 | 1u << 21 | 4u << 22,
                                  .vat_b = 1u | 4u << 1 | 1u << 9 | 4u << 10 | 1u << 18 | 4u << 19 |
                                           1u << 27 | 4u << 28,
                                  .vat_c = 1u << 5 | 4u << 6 | 1u << 14 | 4u << 15 | 1u << 23 | 4u << 24 };
    CHECK_EQ(size_of(&big), 129);
}

static void test_errors(void)
{
    struct vfetch_gx_regs d = { 0 };
    struct vfetch_gx_format f;
    uint32_t s;
    CHECK_EQ(vfetch_gx_parse(NULL, &f), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_parse(&d, NULL), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_vertex_size(&d, NULL), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_vertex_size(NULL, &s), VFETCH_EINVAL);
    CHECK_EQ(size_of(&d), 0); /* nothing enabled: an empty vertex */
}

int main(void)
{
    test_positions();
    test_normals();
    test_colors();
    test_texcoords();
    test_whole_vertex();
    test_errors();
    return test_summary("gx");
}
