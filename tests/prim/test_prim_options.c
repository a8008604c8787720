/*
 * vfetch/prim.h's options an emulator sets once, through the public API: GX's incomplete
 * primitives dropped, fans the host draws, yuzu's Maxwell orders and the narrowest index width
 * (docs/prim.md "Options"): hand-worked orders, topologies, the widths chosen at the edges, and
 * what each option leaves alone. (checkasm --kernel prim and prim-index run every option at
 * every level against the reference; fuzz_prim and fuzz_prim_indexed against models.)
 */
#include <stdint.h>
#include <string.h>

#include "prim_draw.h"
#include "testutil.h"
#include "vfetch/prim.h"

static struct vfetch_prim_desc desc_of(enum vfetch_prim_frontend frontend, uint32_t primitive)
{
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    d.frontend = frontend;
    d.primitive = primitive;
    return d;
}

static enum vfetch_prim_topology topology_of(struct vfetch_prim_desc d)
{
    vfetch_prim_plan *plan = NULL;
    struct vfetch_prim_plan_info info = { 0 };
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    CHECK_EQ(vfetch_prim_plan_info(plan, &info), VFETCH_OK);
    vfetch_prim_plan_free(plan);
    return info.topology;
}

/* Dolphin draws the triangle of QUADS' three last vertices and a restart strip of fewer than
   three vertices; drop_incomplete leaves them out, and nothing else changes. */
static void test_drop_incomplete(void)
{
    struct vfetch_prim_desc d = desc_of(VFETCH_PRIM_GX, VFETCH_GX_QUADS);
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 7, 0, NULL), "0 1 2 0 2 3 4 5 6");
    d.drop_incomplete = 1;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 7, 0, NULL), "0 1 2 0 2 3");
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 3, 5, NULL), "");
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 8, 0, NULL), "0 1 2 0 2 3 4 5 6 4 6 7");
    d.restart = 1;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 7, 0, NULL), "1 2 0 3 R");
    d.primitive = VFETCH_GX_QUADS_2;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 7, 0, NULL), "1 2 0 3 R");
    d.primitive = VFETCH_GX_TRIANGLE_STRIP;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 0, 0, NULL), "");
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 2, 4, NULL), "");
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 3, 4, NULL), "4 5 6 R");
    d.drop_incomplete = 0; /* Dolphin's */
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 0, 0, NULL), "R");
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 2, 4, NULL), "4 5 R");
    /* the vertex count alone, for the capacity */
    d.drop_incomplete = 1;
    vfetch_prim_plan *plan;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    CHECK_EQ(vfetch_prim_index_count(plan, 2), 0);
    CHECK_EQ(vfetch_prim_index_count(plan, 5), 6);
    vfetch_prim_plan_free(plan);
    /* the rest of GX and R300 ignore it */
    d = desc_of(VFETCH_PRIM_GX, VFETCH_GX_TRIANGLE_FAN);
    d.restart = 1;
    d.drop_incomplete = 1;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 4, 0, NULL), "1 2 0 3 R");
    d = desc_of(VFETCH_PRIM_R300, VFETCH_R300_QUADS);
    d.drop_incomplete = 1;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 7, 0, NULL), "0 1 2 0 2 3");
}

/* A fan passes through where the host has fans and the provoking conventions agree. */
static void test_host_fans(void)
{
    struct vfetch_prim_desc d = desc_of(VFETCH_PRIM_R300, VFETCH_R300_TRIANGLE_FAN);
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 5, 10, NULL), "11 12 10 12 13 10 13 14 10");
    CHECK_EQ(topology_of(d), VFETCH_TOPOLOGY_TRIANGLE_LIST);
    d.host_fans = 1;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 5, 10, NULL), "10 11 12 13 14");
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 2, 10, NULL), ""); /* trimmed as Mesa trims */
    CHECK_EQ(topology_of(d), VFETCH_TOPOLOGY_TRIANGLE_FAN);
    d.guest_provoking = d.host_provoking = VFETCH_PROVOKING_LAST;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 4, 0, NULL), "0 1 2 3");
    /* conventions that differ: the list, as without */
    d.host_provoking = VFETCH_PROVOKING_FIRST;
    CHECK_EQ(topology_of(d), VFETCH_TOPOLOGY_TRIANGLE_LIST);
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 4, 0, NULL), "2 0 1 3 0 2");
    /* a polygon's first vertex provokes: no host fan does, the list stays */
    d = desc_of(VFETCH_PRIM_MAXWELL, VFETCH_MAXWELL_POLYGON);
    d.host_fans = 1;
    CHECK_EQ(topology_of(d), VFETCH_TOPOLOGY_TRIANGLE_LIST);
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 4, 0, NULL), "0 1 2 0 2 3");
    /* GX ignores it (Dolphin's list) */
    d = desc_of(VFETCH_PRIM_GX, VFETCH_GX_TRIANGLE_FAN);
    d.host_fans = 1;
    CHECK_EQ(topology_of(d), VFETCH_TOPOLOGY_TRIANGLE_LIST);
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 4, 0, NULL), "0 1 2 0 2 3");
    /* through an index buffer: the entries as they are, restart entries as the host's */
    d = desc_of(VFETCH_PRIM_MAXWELL, VFETCH_MAXWELL_TRIANGLE_FAN);
    d.host_fans = 1;
    d.guest_index_bytes = 2;
    d.guest_restart = 1;
    d.guest_restart_index = 0xFFFF;
    static const uint32_t fans[8] = { 5, 7, 9, 0xFFFF, 1, 2, 3, 4 };
    CHECK_PRIM_TEXT(prim_draw(d, fans, 8, 100, NULL), "105 107 109 R 101 102 103 104");
    d.guest_restart = 0;
    CHECK_PRIM_TEXT(prim_draw(d, fans, 3, 0, NULL), "5 7 9");
    CHECK_PRIM_TEXT(prim_draw(d, fans, 2, 0, NULL), "");
}

/* yuzu's quads and quad strips whatever the provoking vertex; polygons as fans with host fans. */
static void test_yuzu_orders(void)
{
    struct vfetch_prim_desc d = desc_of(VFETCH_PRIM_MAXWELL, VFETCH_MAXWELL_QUADS);
    d.guest_provoking = d.host_provoking = VFETCH_PROVOKING_LAST;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 8, 0, NULL), "0 1 3 1 2 3 4 5 7 5 6 7"); /* Mesa's */
    d.yuzu_orders = 1;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 8, 0, NULL), "0 1 2 0 2 3 4 5 6 4 6 7");
    d.primitive = VFETCH_MAXWELL_QUAD_STRIP;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 7, 10, NULL), "10 13 11 10 12 13 12 15 13 12 14 15");
    d.guest_provoking = VFETCH_PROVOKING_FIRST;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 4, 0, NULL), "0 3 1 0 2 3");
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 3, 0, NULL), "");
    d.yuzu_orders = 0; /* Mesa's: (c0 c1 c3 c2) as QUADS' first */
    d.host_provoking = VFETCH_PROVOKING_FIRST;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 4, 0, NULL), "0 1 3 0 3 2");
    /* polygons and fans drawn as fans, the provoking vertices as yuzu leaves them */
    d = desc_of(VFETCH_PRIM_MAXWELL, VFETCH_MAXWELL_POLYGON);
    d.yuzu_orders = d.host_fans = 1;
    d.host_provoking = VFETCH_PROVOKING_LAST;
    CHECK_EQ(topology_of(d), VFETCH_TOPOLOGY_TRIANGLE_FAN);
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 5, 3, NULL), "3 4 5 6 7");
    d.primitive = VFETCH_MAXWELL_TRIANGLE_FAN;
    CHECK_EQ(topology_of(d), VFETCH_TOPOLOGY_TRIANGLE_FAN);
    d.host_fans = 0; /* without host fans: Mesa's list for the polygon */
    d.primitive = VFETCH_MAXWELL_POLYGON;
    CHECK_EQ(topology_of(d), VFETCH_TOPOLOGY_TRIANGLE_LIST);
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 4, 0, NULL), "0 1 2 0 2 3");
    /* the rest of Maxwell, and R300, as Mesa's */
    d = desc_of(VFETCH_PRIM_MAXWELL, VFETCH_MAXWELL_TRIANGLES);
    d.yuzu_orders = 1;
    d.host_provoking = VFETCH_PROVOKING_LAST;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 3, 0, NULL), "1 2 0");
    d = desc_of(VFETCH_PRIM_R300, VFETCH_R300_QUAD_STRIP);
    d.yuzu_orders = 1;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 4, 0, NULL), "0 1 3 0 3 2");
    /* through an index buffer */
    d = desc_of(VFETCH_PRIM_MAXWELL, VFETCH_MAXWELL_QUAD_STRIP);
    d.yuzu_orders = 1;
    d.guest_index_bytes = 1;
    static const uint32_t strip[4] = { 10, 11, 12, 13 };
    CHECK_PRIM_TEXT(prim_draw(d, strip, 4, 0, NULL), "10 13 11 10 12 13");
}

/* Each draw at 16 bits where its indices fit them, else 32. */
static void test_narrowest(void)
{
    struct vfetch_prim_result r;
    struct vfetch_prim_desc d = desc_of(VFETCH_PRIM_GX, VFETCH_GX_QUADS);
    d.index_type = VFETCH_INDEX_U32;
    d.narrowest = 1;
    vfetch_prim_plan *plan;
    struct vfetch_prim_plan_info info;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    CHECK_EQ(vfetch_prim_plan_info(plan, &info), VFETCH_OK);
    CHECK_EQ(info.index_bytes, 4);
    vfetch_prim_plan_free(plan);
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 4, 0, &r), "0 1 2 0 2 3");
    CHECK_EQ(r.index_bytes, 2);
    CHECK(r.min_index == 0 && r.max_index == 0);
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 4, 65532, &r), "65532 65533 65534 65532 65534 65535");
    CHECK_EQ(r.index_bytes, 2);
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 4, 65533, &r), "65533 65534 65535 65533 65535 65536");
    CHECK_EQ(r.index_bytes, 4);
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 0, 65533, &r), ""); /* no index: 16 bits */
    CHECK_EQ(r.index_bytes, 2);
    /* with restart, 0xFFFF is the restart index: one vertex less fits */
    d.restart = 1;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 4, 65531, &r), "65532 65533 65531 65534 R");
    CHECK_EQ(r.index_bytes, 2);
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 4, 65532, &r), "65533 65534 65532 65535 R");
    CHECK_EQ(r.index_bytes, 4);
    /* expanded points: vertex * 4 + corner */
    d = desc_of(VFETCH_PRIM_GX, VFETCH_GX_POINTS);
    d.index_type = VFETCH_INDEX_U32;
    d.narrowest = d.expand_lines_points = 1;
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 1, 16383, &r), "65532 65533 65534 65533 65534 65535");
    CHECK_EQ(r.index_bytes, 2);
    CHECK_PRIM_TEXT(prim_draw(d, NULL, 1, 16384, &r), "65536 65537 65538 65537 65538 65539");
    CHECK_EQ(r.index_bytes, 4);
    /* index_type U16 is the widest: narrowest changes nothing */
    d = desc_of(VFETCH_PRIM_GX, VFETCH_GX_TRIANGLES);
    d.narrowest = 1;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    uint32_t out[8];
    memset(out, 0x5a, sizeof out);
    struct vfetch_prim_run_params p = { .count = 3, .base_index = 65534, .out = out, .out_capacity = 8 };
    r.written = 777;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_EPRIM_INDEX_RANGE);
    CHECK_EQ(r.written, 777);
    vfetch_prim_plan_free(plan);
    /* through an index buffer: the entries (less the smallest in range mode) decide */
    d = desc_of(VFETCH_PRIM_R300, VFETCH_R300_TRIANGLES);
    d.index_type = VFETCH_INDEX_U32;
    d.narrowest = 1;
    d.guest_index_bytes = 4;
    static const uint32_t far[3] = { 70000, 70001, 70002 };
    CHECK_PRIM_TEXT(prim_draw(d, far, 3, 0, &r), "70000 70001 70002");
    CHECK_EQ(r.index_bytes, 4);
    CHECK(r.min_index == 70000 && r.max_index == 70002);
    d.range = 1;
    CHECK_PRIM_TEXT(prim_draw(d, far, 3, 0, &r), "0 1 2");
    CHECK_EQ(r.index_bytes, 2);
    CHECK(r.min_index == 70000 && r.max_index == 70002);
    /* the output aligned for the widest; a short one refused whichever width; nothing written */
    d = desc_of(VFETCH_PRIM_GX, VFETCH_GX_TRIANGLES);
    d.index_type = VFETCH_INDEX_U32;
    d.narrowest = 1;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    memset(out, 0x5a, sizeof out);
    p = (struct vfetch_prim_run_params){ .count = 3, .out = (uint16_t *)out + 1, .out_capacity = 4 };
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_EINVAL);
    p.out = out;
    p.out_capacity = 2;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_ESHORT_OUTPUT);
    p.base_index = 70000;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_ESHORT_OUTPUT);
    int untouched = 1;
    for (size_t i = 0; i < 8; i++)
        untouched &= out[i] == 0x5a5a5a5au;
    CHECK(untouched);
    p.base_index = 0xFFFFFFFEu; /* past the widest */
    p.out_capacity = 8;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_EPRIM_INDEX_RANGE);
    vfetch_prim_plan_free(plan);
}

int main(void)
{
    test_drop_incomplete();
    test_host_fans();
    test_yuzu_orders();
    test_narrowest();
    return test_summary("prim-options");
}
