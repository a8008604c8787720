/*
 * GX front-end, part 3: the CP register state (vfetch_gx_state). Which registers it holds and
 * which it refuses, what each write recompiles (nothing for a value already held, a matrix
 * index or an array base; its own format for a VAT word; every format for the VCD and the
 * strides), every state error, its cache of compiled formats, and its draw call (arrays resolved
 * from ARRAY_BASE through mapped guest memory, against vfetch_gx_run). Register values from
 * ../shared/spec/gx-cp-vat.txt. Run at every ISA level (meson re-runs it under VFETCH_CPU_MASK).
 */
#include "gx_testutil.h"
#include "testutil.h"
#include "vfetch/gx.h"

static void test_state(void)
{
    vfetch_gx_state *st = NULL;
    const struct vfetch_gx_state_params bad = { (enum vfetch_gx_layout)5, 0, 0 };
    CHECK_EQ(vfetch_gx_state_create(&bad, &st), VFETCH_EINVAL);
    const struct vfetch_gx_state_params bad_color = { 0, (enum vfetch_gx_color_output)2, 0 };
    const struct vfetch_gx_state_params bad_path = { 0, 0, (enum vfetch_path)2 };
    CHECK_EQ(vfetch_gx_state_create(&bad_color, &st), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_state_create(&bad_path, &st), VFETCH_EINVAL);
    CHECK(st == NULL);
    CHECK_EQ(vfetch_gx_state_create(NULL, NULL), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_state_create(NULL, &st), 0);
    if (!st)
        return;
    /* registers the state holds, and some it does not */
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0x50, vcd(0, VFETCH_GX_DIRECT)), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0x70, 1 | 3u << 1 | 8u << 4), 0); /* VAT0 s16 XYZ >> 8 */
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0x71, 1 | 4u << 1), 0);          /* VAT1 f32 XYZ */
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0x30, 0x12345), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0xaf, 0x80001000u), 0);
    CHECK_EQ(vfetch_gx_state_reg(st, 0x30), 0x12345);
    CHECK_EQ(vfetch_gx_state_reg(st, 0xaf), 0x80001000u);
    static const uint8_t unknown[] = { 0x00, 0x20, 0x31, 0x51, 0x61, 0x78, 0x98, 0x9f, 0xc0, 0xff };
    for (unsigned i = 0; i < sizeof unknown; i++)
        CHECK_EQ(vfetch_gx_load_cp_reg(st, unknown[i], 1), VFETCH_EREGISTER);
    CHECK_EQ(vfetch_gx_state_reg(st, 0x98), 0);

    const vfetch_gx_plan *p0 = NULL, *p1 = NULL, *again = NULL;
    CHECK_EQ(vfetch_gx_state_plan(st, 0, &p0), 0);
    CHECK_EQ(vfetch_gx_state_plan(st, 1, &p1), 0);
    CHECK_EQ(vfetch_gx_state_compiles(st), 2);
    CHECK_EQ(vfetch_gx_state_plan(st, 0, &again), 0);
    CHECK(again == p0); /* cached */
    CHECK_EQ(vfetch_gx_state_compiles(st), 2);
    if (p0 && p1) {
        CHECK_EQ(vfetch_gx_plan_format(p0)->vertex_size, 6);
        CHECK_EQ(vfetch_gx_plan_format(p1)->vertex_size, 12);
    }
    /* rewriting the same value, a matrix index or an array base recompiles nothing */
    vfetch_gx_load_cp_reg(st, 0x70, 1 | 3u << 1 | 8u << 4);
    vfetch_gx_load_cp_reg(st, 0x40, 7);
    vfetch_gx_load_cp_reg(st, 0xa0, 0x1000);
    CHECK_EQ(vfetch_gx_state_plan(st, 0, &again), 0);
    CHECK_EQ(vfetch_gx_state_plan(st, 1, &again), 0);
    CHECK_EQ(vfetch_gx_state_compiles(st), 2);
    /* a VAT word recompiles its own format only */
    vfetch_gx_load_cp_reg(st, 0x70, 1 | 3u << 1 | 9u << 4);
    CHECK_EQ(vfetch_gx_state_plan(st, 1, &again), 0);
    CHECK_EQ(vfetch_gx_state_compiles(st), 2);
    CHECK_EQ(vfetch_gx_state_plan(st, 0, &p0), 0);
    CHECK_EQ(vfetch_gx_state_compiles(st), 3);
    if (p0)
        CHECK_EQ(vfetch_gx_plan_format(p0)->attr[VFETCH_GX_POSITION].shift, 9);
    /* VCD and strides recompile every format */
    vfetch_gx_load_cp_reg(st, 0x60, VFETCH_GX_DIRECT);
    CHECK_EQ(vfetch_gx_state_plan(st, 0, &p0), 0);
    CHECK_EQ(vfetch_gx_state_plan(st, 1, &p1), 0);
    CHECK_EQ(vfetch_gx_state_compiles(st), 5);
    vfetch_gx_load_cp_reg(st, 0xb0, 12);
    CHECK_EQ(vfetch_gx_state_plan(st, 1, &p1), 0);
    CHECK_EQ(vfetch_gx_state_compiles(st), 6);
    /* strides of arrays 12..15 (XF indexed loads) and stride bits above 7 are held but no
       format reads them: nothing recompiles */
    for (uint8_t a = 0xbc; a <= 0xbf; a++) {
        CHECK_EQ(vfetch_gx_load_cp_reg(st, a, 0x40), 0);
        CHECK_EQ(vfetch_gx_state_reg(st, a), 0x40);
    }
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0xb0, 0x100 | 12), 0);
    CHECK_EQ(vfetch_gx_state_reg(st, 0xb0), 0x100 | 12);
    CHECK_EQ(vfetch_gx_state_plan(st, 1, &p1), 0);
    CHECK_EQ(vfetch_gx_state_plan(st, 0, &p0), 0);
    CHECK_EQ(vfetch_gx_state_compiles(st), 7); /* format 0 was still dirty from 0xb0 = 12 */
    CHECK_EQ(vfetch_gx_state_plan(st, 1, &p1), 0);
    CHECK_EQ(vfetch_gx_state_compiles(st), 7);
    /* a reserved color makes the plan call fail, and a later fix recovers */
    vfetch_gx_load_cp_reg(st, 0x50, vcd(0, VFETCH_GX_DIRECT) | vcd(2, VFETCH_GX_DIRECT));
    vfetch_gx_load_cp_reg(st, 0x72, 1 | 6u << 14);
    const vfetch_gx_plan *p2 = NULL;
    CHECK_EQ(vfetch_gx_state_plan(st, 2, &p2), VFETCH_EGX_RESERVED_COLOR);
    CHECK(p2 == NULL);
    vfetch_gx_load_cp_reg(st, 0x72, 1 | 5u << 14);
    CHECK_EQ(vfetch_gx_state_plan(st, 2, &p2), 0);
    CHECK(p2 != NULL);
    CHECK_EQ(vfetch_gx_state_plan(st, 8, &p2), VFETCH_EINVAL);
    vfetch_gx_state_free(st);
}

/* Whether the state holds CP address a (the list of vfetch_gx_load_cp_reg's contract). */
static int cp_held(unsigned a)
{
    return a == 0x30 || a == 0x40 || a == 0x50 || a == 0x60 ||
           (a >= 0x70 && a <= 0x97 && (a & 0xf) < 8) || (a >= 0xa0 && a <= 0xbf);
}

/*
 * Every CP address: the 60 the state holds each keep their own value (written all, then read
 * back: two addresses sharing a register would show), the other 196 are refused and read 0;
 * each VAT word marks exactly its own format for a new lookup (its A, B or C word of format f,
 * and no other format).
 */
static void test_state_addresses(void)
{
    vfetch_gx_state *st = NULL;
    CHECK_EQ(vfetch_gx_state_create(NULL, &st), 0);
    if (!st)
        return;
    unsigned held = 0;
    for (unsigned a = 0; a < 256; a++) {
        const int err = vfetch_gx_load_cp_reg(st, (uint8_t)a, 0x1000u + a);
        CHECK_EQ(err, cp_held(a) ? 0 : VFETCH_EREGISTER);
        held += cp_held(a);
    }
    CHECK_EQ(held, 60);
    for (unsigned a = 0; a < 256; a++)
        CHECK_EQ(vfetch_gx_state_reg(st, (uint8_t)a), cp_held(a) ? 0x1000u + a : 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(NULL, 0x50, 0), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_state_reg(NULL, 0x50), 0);

    /* every format f32 XYZ positions, direct: the eight share one plan */
    vfetch_gx_load_cp_reg(st, 0x50, vcd(0, VFETCH_GX_DIRECT));
    vfetch_gx_load_cp_reg(st, 0x60, 0);
    for (unsigned f = 0; f < 8; f++) {
        vfetch_gx_load_cp_reg(st, (uint8_t)(0x70 + f), 1 | 4u << 1);
        vfetch_gx_load_cp_reg(st, (uint8_t)(0x80 + f), 0);
        vfetch_gx_load_cp_reg(st, (uint8_t)(0x90 + f), 0);
    }
    const vfetch_gx_plan *plan[8] = { 0 }, *now = NULL;
    for (unsigned f = 0; f < 8; f++)
        CHECK_EQ(vfetch_gx_state_plan(st, f, &plan[f]), 0);
    for (unsigned g = 0; g < 3; g++)
        for (unsigned f = 0; f < 8; f++) {
            /* a position shift for the A word; B and C bits no attribute of this format reads
               still make a new format (the registers are its key) */
            const uint8_t a = (uint8_t)(0x70 + 0x10 * g + f);
            const uint32_t old = vfetch_gx_state_reg(st, a);
            const uint64_t before = vfetch_gx_state_compiles(st);
            vfetch_gx_load_cp_reg(st, a, g ? old ^ 1u << 3 : old ^ 1u << 4);
            for (unsigned o = 0; o < 8; o++) {
                CHECK_EQ(vfetch_gx_state_plan(st, o, &now), 0);
                CHECK((now != plan[o]) == (o == f));
            }
            /* compiled for format 0; the others' new registers are format 0's (cached) */
            CHECK_EQ(vfetch_gx_state_compiles(st), before + (f == 0));
            vfetch_gx_load_cp_reg(st, a, old); /* back: the first plan again, from the cache */
            CHECK_EQ(vfetch_gx_state_plan(st, f, &now), 0);
            CHECK(now == plan[f]);
            CHECK_EQ(vfetch_gx_state_compiles(st), before + (f == 0));
        }
    vfetch_gx_state_free(st);
}

/*
 * The state's cache of compiled formats: registers compiled before give the plan compiled then
 * (the same pointer, no compilation), as long as it is among the last 32 compiled; a format a
 * VAT no longer uses stays valid for the others that do; the 33rd new format evicts the first.
 */
static void test_state_cache(void)
{
    vfetch_gx_state *st = NULL;
    CHECK_EQ(vfetch_gx_state_create(NULL, &st), 0);
    if (!st)
        return;
    const uint32_t vcd_a = vcd(0, VFETCH_GX_DIRECT), vcd_b = vcd(0, VFETCH_GX_INDEX16);
    vfetch_gx_load_cp_reg(st, 0x70, 1 | 4u << 1); /* f32 XYZ */
    vfetch_gx_load_cp_reg(st, 0x71, 1 | 4u << 1);
    const vfetch_gx_plan *a = NULL, *b = NULL, *again = NULL, *other = NULL;
    vfetch_gx_load_cp_reg(st, 0x50, vcd_a);
    CHECK_EQ(vfetch_gx_state_plan(st, 0, &a), 0);
    vfetch_gx_load_cp_reg(st, 0x50, vcd_b);
    CHECK_EQ(vfetch_gx_state_plan(st, 0, &b), 0);
    CHECK_EQ(vfetch_gx_state_compiles(st), 2);
    CHECK(a != b);
    vfetch_gx_load_cp_reg(st, 0x50, vcd_a); /* back to the first descriptor: cached */
    CHECK_EQ(vfetch_gx_state_plan(st, 0, &again), 0);
    CHECK(again == a);
    CHECK_EQ(vfetch_gx_state_compiles(st), 2);
    /* format 1 with the same registers as format 0 shares its plan */
    CHECK_EQ(vfetch_gx_state_plan(st, 1, &other), 0);
    CHECK(other == a);
    CHECK_EQ(vfetch_gx_state_compiles(st), 2);
    if (a)
        CHECK_EQ(vfetch_gx_plan_format(a)->vertex_size, 12);
    /* 32 more formats (position shifts 0..31 of s16 XYZ in format 0) evict the first two */
    for (uint32_t shift = 0; shift < 32; shift++) {
        vfetch_gx_load_cp_reg(st, 0x70, 1 | 3u << 1 | shift << 4);
        CHECK_EQ(vfetch_gx_state_plan(st, 0, &again), 0);
    }
    CHECK_EQ(vfetch_gx_state_compiles(st), 34);
    /* format 1 still holds the first plan, usable though the cache dropped it */
    CHECK_EQ(vfetch_gx_state_plan(st, 1, &again), 0);
    CHECK(again == a);
    if (again)
        CHECK_EQ(vfetch_gx_plan_format(again)->vertex_size, 12);
    CHECK_EQ(vfetch_gx_state_compiles(st), 34);
    vfetch_gx_load_cp_reg(st, 0x70, 1 | 4u << 1); /* the first registers again: compiled anew */
    CHECK_EQ(vfetch_gx_state_plan(st, 0, &again), 0);
    CHECK_EQ(vfetch_gx_state_compiles(st), 35);
    vfetch_gx_load_cp_reg(st, 0x70, 1 | 3u << 1 | 31u << 4); /* the newest: still cached */
    CHECK_EQ(vfetch_gx_state_plan(st, 0, &again), 0);
    CHECK_EQ(vfetch_gx_state_compiles(st), 35);
    vfetch_gx_state_free(st);
}

/* vfetch_gx_state_draw: the state's mapped arrays and policy, against vfetch_gx_run with the
   same parameters written out; ARRAY_BASE outside every region, region errors, bad VAT. */
static void test_state_draw(void)
{
    vfetch_gx_state *st = NULL;
    const struct vfetch_gx_state_params packed = { VFETCH_GX_LAYOUT_PACKED, VFETCH_GX_COLOR_RGBA8,
                                                   VFETCH_PATH_AUTO };
    CHECK_EQ(vfetch_gx_state_create(&packed, &st), 0);
    if (!st)
        return;
    /* position index16 into f32 XYZ (stride 12), color0 index8 into RGB565 (stride 2) */
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0x50, 3u << 9 | 2u << 13), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0x70, 1 | 4u << 1 | 1u << 30), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0xb0, 12), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0xb2, 2), 0);
    static uint8_t mem1[4096], mem2[1024];
    for (unsigned i = 0; i < sizeof mem1; i++)
        mem1[i] = (uint8_t)(i % 61 + 0x3c);
    for (unsigned i = 0; i < sizeof mem2; i++)
        mem2[i] = (uint8_t)(i * 37);
    /* MEM1 at 0, MEM2 at 0x10000000: position array in MEM1 at 0x100, colors in MEM2 */
    CHECK_EQ(vfetch_gx_state_map_memory(st, 0, 0, mem1, sizeof mem1), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0xa0, 0x100), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0xa2, 0x10000040), 0);
    CHECK_EQ(vfetch_gx_state_map_memory(st, 1, 0x10000000, mem2, sizeof mem2), 0);
    enum { N = 40 };
    uint8_t verts[N * 3];
    for (unsigned v = 0; v < N; v++) {
        verts[3 * v] = 0;
        verts[3 * v + 1] = (uint8_t)(v * 7 % 100);
        verts[3 * v + 2] = (uint8_t)(v * 13 % 200);
    }
    uint8_t got[N * 16], want[N * 16];
    memset(got, 0xaa, sizeof got);
    memset(want, 0xaa, sizeof want);
    struct vfetch_gx_result r1 = { 9, 9, 9 }, r2 = { 9, 9, 9 };
    CHECK_EQ(vfetch_gx_state_draw(st, 0, verts, sizeof verts, N, got, sizeof got, &r1), 0);
    const vfetch_gx_plan *plan;
    CHECK_EQ(vfetch_gx_state_plan(st, 0, &plan), 0);
    struct vfetch_gx_run_params p;
    vfetch_gx_run_params_init(&p);
    p.vertices = verts;
    p.vertices_size = sizeof verts;
    p.count = N;
    p.arrays[VFETCH_GX_POSITION] = (struct vfetch_binding){ mem1 + 0x100, sizeof mem1 - 0x100 };
    p.arrays[VFETCH_GX_COLOR0] = (struct vfetch_binding){ mem2 + 0x40, sizeof mem2 - 0x40 };
    p.out = want;
    p.out_size = sizeof want;
    CHECK_EQ(vfetch_gx_run(plan, &p, &r2), 0);
    CHECK(memcmp(got, want, sizeof got) == 0);
    CHECK_EQ(r1.written, (uint32_t)N);
    CHECK_EQ(r1.written, r2.written);
    /* an index past the array's region: refused by default, clamped under the clamp policy */
    verts[0] = 0x02; /* position index 512 + ...: 512 * 12 bytes past 0x100, past 4096 */
    CHECK_EQ(vfetch_gx_state_draw(st, 0, verts, sizeof verts, N, got, sizeof got, &r1),
             VFETCH_EGX_ARRAY_INDEX);
    CHECK_EQ(vfetch_gx_state_set_index_policy(st, VFETCH_GX_INDEX_CLAMP), 0);
    CHECK_EQ(vfetch_gx_state_draw(st, 0, verts, sizeof verts, N, got, sizeof got, &r1), 0);
    CHECK_EQ(r1.clamped, 1u);
    CHECK_EQ(vfetch_gx_state_set_index_policy(st, (enum vfetch_gx_index_policy)2), VFETCH_EINVAL);
    /* a base outside every region binds nothing; unmapping the region unbinds */
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0xa2, 0x20000000), 0);
    CHECK_EQ(vfetch_gx_state_draw(st, 0, verts, sizeof verts, N, got, sizeof got, &r1),
             VFETCH_EMISSING_STREAM);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0xa2, 0x10000040), 0);
    CHECK_EQ(vfetch_gx_state_map_memory(st, 1, 0, NULL, 0), 0);
    CHECK_EQ(vfetch_gx_state_draw(st, 0, verts, sizeof verts, N, got, sizeof got, &r1),
             VFETCH_EMISSING_STREAM);
    /* errors of its own */
    CHECK_EQ(vfetch_gx_state_map_memory(NULL, 0, 0, mem1, 1), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_state_map_memory(st, VFETCH_GX_MAX_REGIONS, 0, mem1, 1), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_state_map_memory(st, 0, 0, NULL, 16), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_state_map_memory(st, 0, 0xfffffff0u, mem1, 32), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_state_draw(st, 8, verts, sizeof verts, N, got, sizeof got, &r1),
             VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_state_draw(NULL, 0, verts, sizeof verts, N, got, sizeof got, &r1),
             VFETCH_EINVAL);
    vfetch_gx_state_free(st);
}

int main(void)
{
    test_state();
    test_state_addresses();
    test_state_cache();
    test_state_draw();
    return test_summary("gx-state");
}
