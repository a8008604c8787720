/*
 * Vertex declarations (vfetch_plan_declaration, vfetch_gx_plan_declaration): every attribute is
 * rebuilt from its declaration alone (offset, count, type, stride) and compared with the same
 * location's values read the documented way from another plan of the same format: GX packed
 * and vec4 layouts, RGBA8 and float colors, against the vec4 layout with float colors; R300
 * compact layout and other output strides against the full 32-vector layout.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vfetch/gx.h"
#include "vfetch/r300.h"

static uint64_t rng_state = 0x5eed0decl;

static uint32_t rnd_below(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng_state >> 33) % n);
}

static void rnd_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd_below(256);
}

static uint32_t load32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* The declaration's own consistency: stride, location order, attributes inside the record
   and apart from each other. */
static void check_shape(const struct vfetch_vertex_decl *d, uint32_t stride, uint32_t record)
{
    CHECK_EQ(d->stride, stride);
    for (unsigned i = 0; i < d->num_attrs; i++) {
        const struct vfetch_attr_decl *a = &d->attrs[i];
        const uint32_t bytes = a->type == VFETCH_ATTR_UNORM8X4 ? 4 : 4 * a->count;
        CHECK(a->count >= 1 && a->count <= 4);
        CHECK(a->offset % 4 == 0 && a->offset + bytes <= record);
        CHECK_EQ(a->normalized, a->type == VFETCH_ATTR_UNORM8X4);
        if (i)
            CHECK(a->location > d->attrs[i - 1].location);
        for (unsigned j = 0; j < i; j++) {
            const struct vfetch_attr_decl *b = &d->attrs[j];
            const uint32_t bbytes = b->type == VFETCH_ATTR_UNORM8X4 ? 4 : 4 * b->count;
            CHECK(a->offset >= b->offset + bbytes || b->offset >= a->offset + bytes);
        }
    }
}

static vfetch_gx_plan *gx_plan(const struct vfetch_gx_desc *cp)
{
    vfetch_gx_plan *plan = NULL;
    CHECK_EQ(vfetch_gx_compile(cp, &plan), 0);
    return plan;
}

static uint8_t *gx_convert(const vfetch_gx_plan *plan, const uint8_t *v, uint32_t n)
{
    const size_t size = (size_t)n * vfetch_gx_plan_out_stride(plan);
    uint8_t *out = calloc(1, size + 4);
    struct vfetch_gx_run_params p;
    vfetch_gx_run_params_init(&p);
    p.vertices = v;
    p.vertices_size = (size_t)n * vfetch_gx_plan_format(plan)->vertex_size;
    p.count = n;
    p.out = out;
    p.out_size = size;
    CHECK_EQ(vfetch_gx_run(plan, &p, NULL), 0);
    return out;
}

/* Random all-direct GX formats in every layout and color output. */
static void test_gx(void)
{
    unsigned formats = 0, attrs = 0, kinds[3] = { 0 };
    for (unsigned iter = 0; iter < 300; iter++) {
        struct vfetch_gx_desc cp = { 0 };
        cp.regs.vat_a = rnd_below(UINT32_MAX) | rnd_below(2) << 31;
        cp.regs.vat_b = rnd_below(UINT32_MAX) | 1u << 31;
        cp.regs.vat_c = rnd_below(UINT32_MAX);
        cp.regs.vcd_lo = rnd_below(3) == 0 ? rnd_below(0x200) : 0; /* matrix index bytes */
        const unsigned present = 1 + rnd_below(6);
        for (unsigned k = 0; k < present; k++) {
            const unsigned a = k == 0 ? VFETCH_GX_POSITION : rnd_below(VFETCH_GX_NUM_ATTRS);
            const unsigned shift = a < 4 ? 9 + 2 * a : 2 * (a - 4);
            *(a < 4 ? &cp.regs.vcd_lo : &cp.regs.vcd_hi) |= (uint32_t)VFETCH_GX_DIRECT << shift;
        }
        struct vfetch_gx_format f;
        if (vfetch_gx_parse(&cp.regs, &f) != 0)
            continue; /* a reserved color format */
        vfetch_gx_plan *ref = gx_plan(&cp); /* vec4, float colors */
        if (!ref)
            continue;
        const uint32_t n = 1 + rnd_below(40);
        uint8_t *v = malloc((size_t)n * f.vertex_size + 1);
        rnd_fill(v, (size_t)n * f.vertex_size);
        uint8_t *want = gx_convert(ref, v, n);
        const uint32_t ref_stride = vfetch_gx_plan_out_stride(ref);
        for (unsigned layout = 0; layout < 2; layout++) {
            for (unsigned color = 0; color < 2; color++) {
                struct vfetch_gx_desc pp = cp;
                pp.layout = (enum vfetch_gx_layout)layout;
                pp.color_output = (enum vfetch_gx_color_output)color;
                vfetch_gx_plan *plan = gx_plan(&pp);
                if (!plan)
                    continue;
                struct vfetch_vertex_decl d;
                memset(&d, 0x5a, sizeof d);
                CHECK_EQ(vfetch_gx_plan_declaration(plan, &d), 0);
                const uint32_t stride = vfetch_gx_plan_out_stride(plan);
                check_shape(&d, stride, stride);
                uint8_t *got = gx_convert(plan, v, n);
                unsigned seen = 0;
                for (unsigned i = 0; i < d.num_attrs; i++) {
                    const struct vfetch_attr_decl *a = &d.attrs[i];
                    const int slot = vfetch_gx_plan_location(ref, (unsigned)a->location);
                    CHECK(slot >= 0);
                    CHECK_EQ(4 * vfetch_gx_plan_location(plan, a->location), a->offset);
                    if (slot < 0)
                        continue;
                    seen++;
                    attrs++;
                    kinds[a->type]++;
                    const int matrix = a->location >= VFETCH_GX_LOC_POS_MATRIX;
                    CHECK_EQ(a->type, matrix ? VFETCH_ATTR_UINT32
                                      : color && (a->location == VFETCH_GX_LOC_COLOR0 ||
                                                  a->location == VFETCH_GX_LOC_COLOR1)
                                          ? VFETCH_ATTR_UNORM8X4
                                          : VFETCH_ATTR_FLOAT32);
                    if (layout == VFETCH_GX_LAYOUT_VEC4)
                        CHECK_EQ(a->count, matrix ? 1 : 4);
                    for (uint32_t k = 0; k < n; k++) {
                        const uint8_t *rec = got + (size_t)k * d.stride + a->offset;
                        const uint8_t *ref_rec = want + (size_t)k * ref_stride + 4u * (unsigned)slot;
                        for (unsigned c = 0; c < a->count; c++) {
                            const uint32_t ref_bits = load32(ref_rec + 4 * c);
                            if (a->type == VFETCH_ATTR_UNORM8X4)
                                CHECK_FLOAT((float)rec[c] / 255.0f, test_bits_float(ref_bits));
                            else
                                CHECK_EQ(load32(rec + 4 * c), ref_bits);
                        }
                    }
                }
                /* every location the format has is declared */
                unsigned present_locations = 0;
                for (unsigned l = 0; l < VFETCH_GX_NUM_LOCATIONS; l++)
                    present_locations += vfetch_gx_plan_location(ref, l) >= 0;
                CHECK_EQ(seen, present_locations);
                free(got);
                vfetch_gx_plan_free(plan);
                formats++;
            }
        }
        free(want);
        free(v);
        vfetch_gx_plan_free(ref);
    }
    printf("declaration: %u GX plans, %u attributes (float %u, uint %u, unorm8x4 %u)\n",
           formats, attrs, kinds[0], kinds[1], kinds[2]);
    CHECK(formats > 500 && kinds[0] && kinds[1] && kinds[2]);
    struct vfetch_vertex_decl d;
    CHECK_EQ(vfetch_gx_plan_declaration(NULL, &d), VFETCH_EINVAL);
    CHECK_EQ(vfetch_plan_declaration(NULL, &d), VFETCH_EINVAL);
}

/* R300: random element lists, compact layout with a random wider stride, against the full
   layout (vector v at byte 16 v). */
static void test_r300(void)
{
    unsigned plans = 0;
    for (unsigned iter = 0; iter < 300; iter++) {
        struct vfetch_r300_desc rd;
        vfetch_r300_desc_init(&rd);
        const unsigned elements = 1 + rnd_below(6);
        unsigned dwords = 0;
        for (unsigned e = 0; e < elements; e++) {
            unsigned type = rnd_below(13);
            if (type == VFETCH_R300_FLOAT_8 && e == 0)
                type = VFETCH_R300_FLOAT_4;
            const unsigned loc = rnd_below(31);
            const uint32_t half = type | loc << 8 | (e == elements - 1) << 13 |
                                  rnd_below(2) << 14 | rnd_below(2) << 15;
            rd.prog_stream_cntl[e / 2] |= half << (16 * (e & 1));
            if (rnd_below(3) == 0) /* a programmed EXT swizzle and mask */
                rd.prog_stream_cntl_ext[e / 2] =
                    (rd.prog_stream_cntl_ext[e / 2] & ~(0xffffu << (16 * (e & 1)))) |
                    (rnd_below(6) | rnd_below(6) << 3 | rnd_below(6) << 6 | rnd_below(6) << 9 |
                     (1 + rnd_below(15)) << 12) << (16 * (e & 1));
            dwords += 8;
        }
        rd.num_arrays = 1;
        rd.arrays[0] = (struct vfetch_r300_array){ dwords, dwords };
        vfetch_plan *full, *compact;
        rd.layout = VFETCH_R300_LAYOUT_FULL;
        if (vfetch_r300_compile(&rd, &full) != 0)
            continue; /* e.g. a reserved normalize method */
        rd.layout = VFETCH_R300_LAYOUT_COMPACT;
        rd.out_stride = rnd_below(2) ? 0 : 4 * rnd_below(8); /* 0.. 28 bytes more, or exact */
        const int err = vfetch_r300_compile(&rd, &compact);
        if (err) { /* a stride below the record */
            CHECK_EQ(err, VFETCH_EPLAN);
            vfetch_plan_free(full);
            continue;
        }
        const uint32_t n = 1 + rnd_below(9);
        uint8_t *v = malloc((size_t)n * dwords * 4);
        rnd_fill(v, (size_t)n * dwords * 4);
        uint8_t *outs[2];
        const vfetch_plan *plans2[2] = { full, compact };
        for (unsigned k = 0; k < 2; k++) {
            const size_t size = (size_t)n * vfetch_plan_out_stride(plans2[k]);
            outs[k] = calloc(1, size);
            struct vfetch_binding b = { v, (size_t)n * dwords * 4 };
            struct vfetch_run_params p;
            vfetch_run_params_init(&p);
            p.streams = &b;
            p.num_streams = 1;
            p.count = n;
            p.out = outs[k];
            p.out_size = size;
            CHECK_EQ(vfetch_run(plans2[k], &p), 0);
        }
        struct vfetch_vertex_decl d;
        CHECK_EQ(vfetch_plan_declaration(compact, &d), 0);
        check_shape(&d, vfetch_plan_out_stride(compact), vfetch_plan_record_size(compact));
        unsigned locations = 0;
        for (unsigned l = 0; l < 32; l++)
            locations += vfetch_plan_location(full, l) >= 0;
        CHECK_EQ(d.num_attrs, locations);
        for (unsigned i = 0; i < d.num_attrs; i++) {
            const struct vfetch_attr_decl *a = &d.attrs[i];
            CHECK_EQ(a->type, VFETCH_ATTR_FLOAT32);
            CHECK_EQ(a->count, 4);
            CHECK_EQ(vfetch_plan_location(full, a->location), (int)(4 * a->location));
            for (uint32_t k = 0; k < n; k++)
                for (unsigned c = 0; c < 4; c++)
                    CHECK_EQ(load32(outs[1] + (size_t)k * d.stride + a->offset + 4 * c),
                             load32(outs[0] + (size_t)k * 512 + 16 * a->location + 4 * c));
        }
        free(outs[0]);
        free(outs[1]);
        free(v);
        vfetch_plan_free(full);
        vfetch_plan_free(compact);
        plans++;
    }
    printf("declaration: %u R300 plans\n", plans);
    CHECK(plans > 100);
}

/* A hand-built plan: the last op over a location's first slot names its type (ops run in
   order, a later one overwrites); a location runs to the next one's first slot. */
static void test_hand_built(void)
{
    struct vfetch_plan_desc d;
    vfetch_plan_desc_init(&d);
    d.num_streams = 1;
    d.streams[0].stride = 16;
    d.num_ops = 3;
    d.out_slots = 7;
    /* op 0: RGBA8 at slot 0, then op 1 (float x) over it: slot 0 holds a float */
    d.ops[0].format = VFETCH_FORMAT_FIXED8;
    d.ops[0].conversion = VFETCH_CONV_PACK_UNORM8;
    d.ops[0].count = 4;
    d.ops[0].write_mask = 1;
    for (unsigned c = 0; c < 4; c++)
        d.ops[0].src[c].offset = c;
    d.ops[1].format = VFETCH_FORMAT_FLOAT32;
    d.ops[1].conversion = VFETCH_CONV_FLOAT;
    d.ops[1].count = 2;
    d.ops[1].src[1].offset = 4;
    d.ops[1].write_mask = 3;
    /* op 2: an integer x at slot 4, location 3 from slot 4 to the record's end (3 slots) */
    d.ops[2].format = VFETCH_FORMAT_FIXED8;
    d.ops[2].conversion = VFETCH_CONV_INTEGER;
    d.ops[2].count = 1;
    d.ops[2].src[0].offset = 12;
    d.ops[2].dst_slot = 4;
    d.ops[2].write_mask = 1;
    d.location_slot[0] = 0;
    d.location_slot[5] = 2; /* slots 2..3: written by nobody (left as they were): float */
    d.location_slot[3] = 4;
    vfetch_plan *plan;
    CHECK_EQ(vfetch_plan_compile(&d, &plan), 0);
    struct vfetch_vertex_decl decl;
    CHECK_EQ(vfetch_plan_declaration(plan, &decl), 0);
    CHECK_EQ(decl.stride, 28);
    CHECK_EQ(decl.num_attrs, 3);
    CHECK_EQ(decl.attrs[0].location, 0);
    CHECK_EQ(decl.attrs[0].type, VFETCH_ATTR_FLOAT32);
    CHECK_EQ(decl.attrs[0].count, 2);
    CHECK_EQ(decl.attrs[1].location, 3);
    CHECK_EQ(decl.attrs[1].offset, 16);
    CHECK_EQ(decl.attrs[1].type, VFETCH_ATTR_UINT32);
    CHECK_EQ(decl.attrs[1].count, 1);
    CHECK_EQ(decl.attrs[2].location, 5);
    CHECK_EQ(decl.attrs[2].offset, 8);
    CHECK_EQ(decl.attrs[2].count, 2);
    vfetch_plan_free(plan);
}

int main(void)
{
    test_hand_built();
    test_gx();
    test_r300();
    return test_summary("declaration");
}
