/*
 * Every front-end into one host layout (vfetch_maxwell_isbe_desc, VFETCH_GX_LAYOUT_ISBE_*):
 * a plan's locations as generic attributes of vertex-input ISBE records. Each case runs the
 * front-end's own layout and the ISBE one over the same vertices and requires every location's
 * components to come out equal at generic attribute's slots, and every other slot the record
 * holds to be its AAM default.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vfetch/gx.h"
#include "vfetch/maxwell.h"
#include "vfetch/r300.h"

#define N 37 /* vertices per run: not a whole number of record-program groups */

static uint8_t src[4096];

static int run_plan(const vfetch_plan *plan, uint32_t *out, size_t out_size)
{
    struct vfetch_binding b[VFETCH_MAX_STREAMS];
    for (unsigned s = 0; s < VFETCH_MAX_STREAMS; s++)
        b[s] = (struct vfetch_binding){ src, sizeof src };
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = b;
    p.num_streams = VFETCH_MAX_STREAMS;
    p.count = N;
    p.out = out;
    p.out_size = out_size;
    return vfetch_run(plan, &p);
}

/*
 * Compare records: location l of `plain` (slots from its first to the next location's, at most
 * 4) against generic generic_of[l]'s components in `isbe`. full: slot n is attribute n; compact:
 * the held attributes in address order. Every slot of an ISBE record no location fills holds
 * the default (SET_ATTRIBUTE_DEFAULT 0x0E).
 */
static void compare(const struct vfetch_plan_desc *plain_desc, const uint32_t *plain,
                    uint32_t plain_stride, const uint32_t *isbe, uint32_t isbe_stride, int full,
                    const int8_t *generic_of, unsigned locations, unsigned one_slot_from)
{
    int held[256] = { 0 }, source[256];
    memset(source, -1, sizeof source);
    for (unsigned l = 0; l < locations; l++) {
        const int first = plain_desc->location_slot[l];
        const int g = generic_of ? generic_of[l] : (int)l;
        if (first < 0 || g < 0)
            continue;
        unsigned end = plain_desc->out_slots;
        for (unsigned k = 0; k < VFETCH_MAX_LOCATIONS; k++)
            if (plain_desc->location_slot[k] > first && (unsigned)plain_desc->location_slot[k] < end)
                end = (unsigned)plain_desc->location_slot[k];
        const unsigned width = l >= one_slot_from ? 1 : 4; /* (GX matrix indices: x only) */
        for (unsigned c = 0; c < width && (unsigned)first + c < end; c++) {
            held[32 + 4 * g + c] = 1;
            source[32 + 4 * g + c] = first + (int)c;
        }
    }
    unsigned slot = 0;
    for (unsigned n = 0; n < 256; n++) {
        if (!full && !held[n])
            continue;
        for (unsigned v = 0; v < N; v++) {
            const uint32_t got = isbe[v * (isbe_stride / 4) + slot];
            const uint32_t want = source[n] >= 0 ? plain[v * (plain_stride / 4) + (unsigned)source[n]]
                                                 : vfetch_aam_default_bits(n, 0x0e);
            if (got != want) {
                test_failures++;
                if (test_failures < 10)
                    fprintf(stderr, "isbe: attribute %u vertex %u: got %08x, want %08x\n", n, v, got, want);
            }
            test_checks++;
        }
        slot++;
    }
    CHECK_EQ(slot * 4, isbe_stride);
}

static uint32_t plain_out[N * 256], isbe_out[N * 256];

/* A plan description through both paths. */
static void check_desc(const struct vfetch_plan_desc *d, const int8_t *generic_of)
{
    vfetch_plan *plain;
    CHECK_EQ(vfetch_plan_compile(d, &plain), VFETCH_OK);
    CHECK_EQ(run_plan(plain, plain_out, sizeof plain_out), VFETCH_OK);
    for (int full = 0; full < 2; full++) {
        struct vfetch_plan_desc id;
        CHECK_EQ(vfetch_maxwell_isbe_desc(d, generic_of, full ? VFETCH_MAXWELL_LAYOUT_FULL
                                                            : VFETCH_MAXWELL_LAYOUT_COMPACT,
                                          0x0e, &id), VFETCH_OK);
        vfetch_plan *isbe;
        CHECK_EQ(vfetch_plan_compile(&id, &isbe), VFETCH_OK);
        CHECK_EQ(run_plan(isbe, isbe_out, sizeof isbe_out), VFETCH_OK);
        compare(d, plain_out, vfetch_plan_out_stride(plain), isbe_out, vfetch_plan_out_stride(isbe),
                full, generic_of, VFETCH_MAX_LOCATIONS, VFETCH_MAX_LOCATIONS);
        vfetch_plan_free(isbe);
    }
    vfetch_plan_free(plain);
}

/* Hand-made: an op that straddles two locations, a 2-slot location, a custom mapping. */
static void test_desc(void)
{
    struct vfetch_plan_desc d;
    vfetch_plan_desc_init(&d);
    d.num_streams = 1;
    d.streams[0].stride = 24;
    d.num_ops = 3;
    /* slots 0..3: float32 x3 (location 0) */
    d.ops[0].format = VFETCH_FORMAT_FLOAT32;
    d.ops[0].conversion = VFETCH_CONV_FLOAT;
    d.ops[0].count = 3;
    for (unsigned c = 0; c < 3; c++)
        d.ops[0].src[c].offset = 4 * c;
    d.ops[0].dst_slot = 0;
    /* slots 4..7: unorm16 x4 swizzled wzyx: slots 4, 5 location 3; 6, 7 location 5 */
    d.ops[1].format = VFETCH_FORMAT_FIXED16;
    d.ops[1].conversion = VFETCH_CONV_UNORM;
    d.ops[1].count = 4;
    for (unsigned c = 0; c < 4; c++) {
        d.ops[1].src[c].offset = 12 + 2 * c;
        d.ops[1].swizzle[c] = (uint8_t)(3 - c);
    }
    d.ops[1].dst_slot = 4;
    /* slot 8: integer (location 9), slot 9 written by nobody (location 9's second) */
    d.ops[2].format = VFETCH_FORMAT_FIXED8;
    d.ops[2].conversion = VFETCH_CONV_INTEGER;
    d.ops[2].count = 1;
    d.ops[2].src[0].offset = 20;
    d.ops[2].dst_slot = 8;
    d.ops[2].write_mask = 1;
    d.out_slots = 10;
    d.location_slot[0] = 0;
    d.location_slot[3] = 4;
    d.location_slot[5] = 6;
    d.location_slot[9] = 8;
    for (unsigned i = 0; i < sizeof src; i++)
        src[i] = (uint8_t)(i * 29 + 3);
    /* identity, then generics 7, 0, 31 and location 9 dropped */
    int8_t map[VFETCH_MAX_LOCATIONS];
    memset(map, -1, sizeof map);
    map[0] = 7;
    map[3] = 0;
    map[5] = 31;
    /* location 9's slot 9 is written by no op: in the ISBE record it is the default; in the
       plain one it is whatever the buffer held, so it is not compared (map drops 9) */
    check_desc(&d, map);
    d.location_slot[9] = -1; /* slot 8 then belongs to location 5's span? no: 5 spans 6..7 */
    d.out_slots = 8;
    d.num_ops = 2;
    check_desc(&d, NULL);

    /* errors: nothing written */
    struct vfetch_plan_desc out;
    memset(&out, 0x5a, sizeof out);
    const struct vfetch_plan_desc before = out;
    map[3] = 32;
    CHECK_EQ(vfetch_maxwell_isbe_desc(&d, map, VFETCH_MAXWELL_LAYOUT_FULL, 0x0e, &out), VFETCH_EINVAL);
    map[3] = 7; /* 7 twice */
    CHECK_EQ(vfetch_maxwell_isbe_desc(&d, map, VFETCH_MAXWELL_LAYOUT_FULL, 0x0e, &out), VFETCH_EINVAL);
    CHECK_EQ(vfetch_maxwell_isbe_desc(&d, NULL, (enum vfetch_maxwell_layout)2, 0x0e, &out), VFETCH_EINVAL);
    CHECK_EQ(vfetch_maxwell_isbe_desc(NULL, NULL, VFETCH_MAXWELL_LAYOUT_FULL, 0x0e, &out), VFETCH_EINVAL);
    CHECK_EQ(vfetch_maxwell_isbe_desc(&d, NULL, VFETCH_MAXWELL_LAYOUT_FULL, 0x0e, NULL), VFETCH_EINVAL);
    memset(map, -1, sizeof map); /* no location: a compact record of nothing */
    CHECK_EQ(vfetch_maxwell_isbe_desc(&d, map, VFETCH_MAXWELL_LAYOUT_COMPACT, 0x0e, &out), VFETCH_EINVAL);
    d.out_slots = 0;
    CHECK_EQ(vfetch_maxwell_isbe_desc(&d, NULL, VFETCH_MAXWELL_LAYOUT_FULL, 0x0e, &out), VFETCH_EPLAN);
    CHECK(memcmp(&out, &before, sizeof out) == 0);
}

/* R300: DST_VEC_LOC n as generic n. */
static void test_r300(void)
{
    /* two elements: FLOAT_3 at DST_VEC_LOC 0, then BYTE (x4) unsigned normalized at 5 with
       LAST_VEC (halves: DATA_TYPE 3:0, DST_VEC_LOC 12:8, LAST_VEC 13, NORMALIZE 15) */
    struct vfetch_r300_desc rd;
    vfetch_r300_desc_init(&rd);
    rd.prog_stream_cntl[0] = VFETCH_R300_FLOAT_3 | (VFETCH_R300_BYTE | 5u << 8 | 1u << 13 | 1u << 15) << 16;
    rd.num_arrays = 2;
    rd.arrays[0].stride_dwords = 3;
    rd.arrays[0].count_dwords = 3;
    rd.arrays[1].stride_dwords = 1;
    rd.arrays[1].count_dwords = 1;
    struct vfetch_plan_desc pd;
    const int rc = vfetch_r300_translate(&rd, &pd);
    CHECK_EQ(rc, VFETCH_OK);
    if (rc == VFETCH_OK)
        check_desc(&pd, NULL);
}

/* GX: the vec4 layout against ISBE_FULL and ISBE_COMPACT. */
static void test_gx(void)
{
    /* position + matrix index + color0 direct + texcoord 0 and 1 (format a of the benchmarks,
       with matrix indices) */
    struct vfetch_gx_desc cp;
    memset(&cp, 0, sizeof cp);
    cp.regs.vcd_lo = 1u | 1u << 9 | 1u << 11 | 1u << 13; /* PNMTXIDX, POS, NRM, COL0 direct */
    cp.regs.vcd_hi = 1 | 1u << 2;                        /* TEX0, TEX1 direct */
    cp.regs.vat_a = 1 | 3u << 1 | 8u << 4 | 1u << 10 | 1u << 13 | 5u << 14 | 1u << 21 | 3u << 22 |
                    10u << 25 | 1u << 30;
    cp.regs.vat_b = 1u << 31 | 1u | 4u << 1;
    for (unsigned i = 0; i < sizeof src; i++)
        src[i] = (uint8_t)(i * 77 + 9);
    vfetch_gx_plan *plain, *isbe[2];
    cp.layout = VFETCH_GX_LAYOUT_VEC4;
    CHECK_EQ(vfetch_gx_compile(&cp, &plain), VFETCH_OK);
    uint32_t size = 0;
    CHECK_EQ(vfetch_gx_vertex_size(&cp.regs, &size), VFETCH_OK);
    struct vfetch_gx_run_params rp;
    vfetch_gx_run_params_init(&rp);
    rp.vertices = src;
    rp.vertices_size = sizeof src;
    rp.count = size && size * N <= sizeof src ? N : 0;
    CHECK(rp.count == N);
    rp.out = plain_out;
    rp.out_size = sizeof plain_out;
    struct vfetch_gx_result res;
    CHECK_EQ(vfetch_gx_run(plain, &rp, &res), VFETCH_OK);
    struct vfetch_plan_desc pd = *vfetch_plan_get_desc(vfetch_gx_plan_converter(plain));
    for (int full = 0; full < 2; full++) {
        cp.layout = full ? VFETCH_GX_LAYOUT_ISBE_FULL : VFETCH_GX_LAYOUT_ISBE_COMPACT;
        CHECK_EQ(vfetch_gx_compile(&cp, &isbe[full]), VFETCH_OK);
        rp.out = isbe_out;
        CHECK_EQ(vfetch_gx_run(isbe[full], &rp, &res), VFETCH_OK);
        compare(&pd, plain_out, vfetch_gx_plan_out_stride(plain), isbe_out,
                vfetch_gx_plan_out_stride(isbe[full]), full, NULL, VFETCH_GX_NUM_LOCATIONS,
                VFETCH_GX_LOC_POS_MATRIX);
        /* the position at generic 0, the matrix index at generic 14 */
        CHECK_EQ(vfetch_gx_plan_location(isbe[full], VFETCH_GX_LOC_POSITION), full ? 32 : 0);
        if (full)
            CHECK_EQ(vfetch_gx_plan_location(isbe[full], VFETCH_GX_LOC_POS_MATRIX), 32 + 4 * 14);
        vfetch_gx_plan_free(isbe[full]);
    }
    vfetch_gx_plan_free(plain);
}

/*
 * GX matrix indices in the ISBE layouts, against the documented defaults (docs/maxwell.md):
 * generic 14 + m holds (index, 0, 0, 1.0) for every index present, however many there are
 * (the vec4 layout pads the last one's vec4 with zeros, which once became its y, z and w: w
 * was 0.0 whenever the count was 1 mod 4), and the compact record holds only the x of each.
 */
static void test_gx_matrix_defaults(void)
{
    static const unsigned counts[] = { 1, 2, 3, 4, 5, 8, 9 };
    for (unsigned ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        const unsigned n = counts[ci];
        struct vfetch_gx_desc cp;
        memset(&cp, 0, sizeof cp);
        cp.regs.vcd_lo = ((1u << n) - 1) | 1u << 9; /* n matrix indices from PNMTXIDX, POS direct */
        cp.regs.vat_a = 1 | 4u << 1;               /* xyz float */
        const unsigned vsize = n + 12;
        for (unsigned i = 0; i < sizeof src; i++)
            src[i] = (uint8_t)(i * 29 + 3);
        for (unsigned v = 0; v < N; v++)
            for (unsigned m = 0; m < n; m++)
                src[v * vsize + m] = (uint8_t)((v * 7 + m * 5) % 64);
        for (int full = 0; full < 2; full++) {
            cp.layout = full ? VFETCH_GX_LAYOUT_ISBE_FULL : VFETCH_GX_LAYOUT_ISBE_COMPACT;
            vfetch_gx_plan *plan;
            CHECK_EQ(vfetch_gx_compile(&cp, &plan), VFETCH_OK);
            /* compact: the position's vec4 and one slot per index */
            const uint32_t stride = vfetch_gx_plan_out_stride(plan);
            CHECK_EQ(stride, full ? 4u * 256 : 4u * (4 + n));
            struct vfetch_gx_run_params rp;
            vfetch_gx_run_params_init(&rp);
            rp.vertices = src;
            rp.vertices_size = vsize * N;
            rp.count = N;
            rp.out = isbe_out;
            rp.out_size = sizeof isbe_out;
            struct vfetch_gx_result res;
            CHECK_EQ(vfetch_gx_run(plan, &rp, &res), VFETCH_OK);
            for (unsigned m = 0; m < n; m++) {
                const int at = vfetch_gx_plan_location(plan, VFETCH_GX_LOC_POS_MATRIX + m);
                CHECK_EQ(at, full ? (int)(32 + 4 * (14 + m)) : (int)(4 + m));
                for (unsigned v = 0; v < N && at >= 0; v++) {
                    const uint32_t *rec = isbe_out + v * (stride / 4) + at;
                    CHECK_EQ(rec[0], (v * 7 + m * 5) % 64);
                    if (full) { /* y, z, w: the generic default (0, 0, 1.0) */
                        CHECK_EQ(rec[1], 0);
                        CHECK_EQ(rec[2], 0);
                        CHECK_EQ(rec[3], 0x3f800000u);
                    }
                }
            }
            vfetch_gx_plan_free(plan);
        }
    }
}

int main(void)
{
    test_desc();
    test_r300();
    test_gx();
    test_gx_matrix_defaults();
    return test_summary("isbe");
}
