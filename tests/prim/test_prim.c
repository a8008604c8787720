/*
 * vfetch/prim.h through its public API: the defaults, the plan info, the orders of a 7-vertex
 * draw in Dolphin's four modes (docs/prim.md's table), QUADS_2 as QUADS, R300's and Maxwell's
 * Mesa orders, 32-bit output, the base index, and every error: its code, in its order, with nothing written. (checkasm --kernel
 * prim checks every level against the reference; the peer kit against Dolphin.)
 */
#include <stdint.h>
#include <string.h>

#include "prim_draw.h"
#include "testutil.h"
#include "vfetch/prim.h"

static vfetch_prim_plan *plan_of(uint32_t primitive, int restart, int expand, int wide)
{
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    d.primitive = primitive;
    d.restart = (uint8_t)restart;
    d.expand_lines_points = (uint8_t)expand;
    d.index_type = wide ? VFETCH_INDEX_U32 : VFETCH_INDEX_U16;
    vfetch_prim_plan *plan = NULL;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    return plan;
}

/* A plan's draw of 16-bit indices as a string: "0 1 2 R ..." (the plan freed) */
static const char *draw_of(vfetch_prim_plan *plan, uint32_t count, uint32_t base)
{
    static char text[512];
    uint16_t out[64];
    struct vfetch_prim_run_params p;
    vfetch_prim_run_params_init(&p);
    p.count = count;
    p.base_index = base;
    p.out = out;
    p.out_capacity = 64;
    struct vfetch_prim_result r = { 0 };
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_OK);
    CHECK_EQ(r.written, vfetch_prim_index_count(plan, count));
    size_t at = 0;
    text[0] = '\0';
    for (size_t i = 0; i < r.written && at < sizeof text - 8; i++)
        at += (size_t)snprintf(text + at, sizeof text - at, i ? (out[i] == 0xffff ? " R" : " %u")
                                                              : (out[i] == 0xffff ? "R" : "%u"),
                               out[i]);
    vfetch_prim_plan_free(plan);
    return text;
}

static const char *draw16(uint32_t primitive, int restart, int expand, uint32_t count,
                          uint32_t base)
{
    return draw_of(plan_of(primitive, restart, expand, 0), count, base);
}

/* An R300 or Maxwell draw: the guest's and the host's provoking vertex (0 first, 1 last) */
static const char *draw_mesa(enum vfetch_prim_frontend frontend, uint32_t primitive, int pv_in,
                             int pv_out, uint32_t count, uint32_t base)
{
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    d.frontend = frontend;
    d.primitive = primitive;
    d.guest_provoking = (enum vfetch_prim_provoking)pv_in;
    d.host_provoking = (enum vfetch_prim_provoking)pv_out;
    vfetch_prim_plan *plan = NULL;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    return draw_of(plan, count, base);
}

#define CHECK_R300(prim, pv_in, pv_out, count, base, want)                                  \
    do {                                                                                    \
        const char *got_ = draw_r300(prim, pv_in, pv_out, count, base);                     \
        test_checks++;                                                                      \
        if (strcmp(got_, want)) {                                                           \
            test_failures++;                                                                \
            fprintf(stderr, "%s:%d: R300 %s pv %d->%d count %u base %u: got \"%s\", want \"%s\"\n", \
                    __FILE__, __LINE__, #prim, pv_in, pv_out, count, base, got_, want);     \
        }                                                                                   \
    } while (0)

/* Mesa's u_indices orders (its generate tables), worked by hand from u_indices_gen.py: a
   triangle rotated (v1,v2,v0) from first to last provoking vertex, (v2,v0,v1) from last to
   first; a line reversed; quads split by the guest's convention. */
#define draw_r300(...) draw_mesa(VFETCH_PRIM_R300, __VA_ARGS__)

static void test_r300_orders(void)
{
    CHECK_R300(VFETCH_R300_QUADS, 0, 0, 4, 0, "0 1 2 0 2 3");
    CHECK_R300(VFETCH_R300_QUADS, 0, 1, 4, 0, "1 2 0 2 3 0");
    CHECK_R300(VFETCH_R300_QUADS, 1, 1, 4, 0, "0 1 3 1 2 3");
    CHECK_R300(VFETCH_R300_QUADS, 1, 0, 4, 0, "3 0 1 3 1 2");
    CHECK_R300(VFETCH_R300_QUADS, 0, 0, 7, 10, "10 11 12 10 12 13"); /* trimmed to 4 */
    CHECK_R300(VFETCH_R300_QUAD_STRIP, 0, 0, 6, 0, "0 1 3 0 3 2 2 3 5 2 5 4");
    CHECK_R300(VFETCH_R300_QUAD_STRIP, 1, 1, 5, 0, "2 0 3 0 1 3"); /* trimmed to 4 */
    CHECK_R300(VFETCH_R300_QUAD_STRIP, 0, 0, 3, 0, "");
    CHECK_R300(VFETCH_R300_LINE_LOOP, 0, 0, 3, 0, "0 1 1 2 2 0");
    CHECK_R300(VFETCH_R300_LINE_LOOP, 0, 1, 3, 0, "1 0 2 1 0 2");
    CHECK_R300(VFETCH_R300_LINE_LOOP, 0, 0, 1, 0, "");
    CHECK_R300(VFETCH_R300_LINES, 1, 0, 5, 0, "1 0 3 2");
    CHECK_R300(VFETCH_R300_LINE_STRIP, 0, 0, 3, 4, "4 5 5 6");
    CHECK_R300(VFETCH_R300_POINTS, 1, 0, 3, 2, "2 3 4");
    CHECK_R300(VFETCH_R300_TRIANGLES, 0, 1, 7, 0, "1 2 0 4 5 3");
    /* a strip's parity is the absolute vertex number's (Mesa's generate runs from `start`) */
    CHECK_R300(VFETCH_R300_TRIANGLE_STRIP, 0, 0, 5, 0, "0 1 2 1 3 2 2 3 4");
    CHECK_R300(VFETCH_R300_TRIANGLE_STRIP, 0, 0, 4, 1, "1 3 2 2 3 4");
    CHECK_R300(VFETCH_R300_TRIANGLE_STRIP, 1, 1, 4, 0, "0 1 2 2 1 3");
    CHECK_R300(VFETCH_R300_TRIANGLE_FAN, 0, 0, 5, 0, "1 2 0 2 3 0 3 4 0");
    CHECK_R300(VFETCH_R300_TRIANGLE_FAN, 1, 1, 5, 0, "0 1 2 0 2 3 0 3 4");
    CHECK_R300(VFETCH_R300_POLYGON, 0, 0, 5, 0, "0 1 2 0 2 3 0 3 4");
    CHECK_R300(VFETCH_R300_POLYGON, 1, 1, 5, 0, "1 2 0 2 3 0 3 4 0");
    CHECK_R300(VFETCH_R300_POLYGON, 0, 1, 4, 0, "1 2 0 2 3 0");
    /* the reserved and undrawn types */
    static const uint32_t refused[] = { 0, 7, 8, 9, 10, 11, 16, 0x80 };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        struct vfetch_prim_desc d;
        vfetch_prim_desc_init(&d);
        d.frontend = VFETCH_PRIM_R300;
        d.primitive = refused[i];
        vfetch_prim_plan *plan = NULL;
        CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_EPRIM_TYPE);
    }
    /* provoking options out of range */
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    d.frontend = VFETCH_PRIM_R300;
    d.primitive = VFETCH_R300_QUADS;
    d.host_provoking = (enum vfetch_prim_provoking)2;
    vfetch_prim_plan *plan = NULL;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_EINVAL);
    /* R300 plans are lists: restart and expansion do not apply */
    d.host_provoking = VFETCH_PROVOKING_FIRST;
    d.restart = 1;
    d.expand_lines_points = 1;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    struct vfetch_prim_plan_info info;
    CHECK_EQ(vfetch_prim_plan_info(plan, &info), VFETCH_OK);
    CHECK_EQ(info.topology, VFETCH_TOPOLOGY_TRIANGLE_LIST);
    CHECK_EQ(info.restart_index, 0);
    CHECK_EQ(info.expanded, 0);
    vfetch_prim_plan_free(plan);
}

#define CHECK_DRAW(prim, restart, expand, count, base, want)                                \
    do {                                                                                    \
        const char *got_ = draw16(prim, restart, expand, count, base);                      \
        test_checks++;                                                                      \
        if (strcmp(got_, want)) {                                                           \
            test_failures++;                                                                \
            fprintf(stderr, "%s:%d: %s restart %d expand %d count %u: got \"%s\", want \"%s\"\n", \
                    __FILE__, __LINE__, #prim, restart, expand, count, got_, want);         \
        }                                                                                   \
    } while (0)

static void test_orders(void)
{
    /* restart off, no expansion */
    CHECK_DRAW(VFETCH_GX_QUADS, 0, 0, 7, 0, "0 1 2 0 2 3 4 5 6");
    CHECK_DRAW(VFETCH_GX_QUADS_2, 0, 0, 7, 0, "0 1 2 0 2 3 4 5 6");
    CHECK_DRAW(VFETCH_GX_TRIANGLES, 0, 0, 7, 0, "0 1 2 3 4 5");
    CHECK_DRAW(VFETCH_GX_TRIANGLE_STRIP, 0, 0, 7, 0, "0 1 2 1 3 2 2 3 4 3 5 4 4 5 6");
    CHECK_DRAW(VFETCH_GX_TRIANGLE_FAN, 0, 0, 7, 0, "0 1 2 0 2 3 0 3 4 0 4 5 0 5 6");
    CHECK_DRAW(VFETCH_GX_LINES, 0, 0, 7, 0, "0 1 2 3 4 5");
    CHECK_DRAW(VFETCH_GX_LINE_STRIP, 0, 0, 7, 0, "0 1 1 2 2 3 3 4 4 5 5 6");
    CHECK_DRAW(VFETCH_GX_POINTS, 0, 0, 7, 0, "0 1 2 3 4 5 6");
    /* restart on */
    CHECK_DRAW(VFETCH_GX_QUADS, 1, 0, 7, 0, "1 2 0 3 R 4 5 6 R");
    CHECK_DRAW(VFETCH_GX_TRIANGLES, 1, 0, 7, 0, "0 1 2 R 3 4 5 R");
    CHECK_DRAW(VFETCH_GX_TRIANGLE_STRIP, 1, 0, 7, 0, "0 1 2 3 4 5 6 R");
    CHECK_DRAW(VFETCH_GX_TRIANGLE_FAN, 1, 0, 7, 0, "1 2 0 3 4 R 4 5 0 6 R");
    CHECK_DRAW(VFETCH_GX_LINES, 1, 0, 7, 0, "0 1 2 3 4 5");
    /* expansion, restart off and on */
    CHECK_DRAW(VFETCH_GX_LINES, 0, 1, 7, 0,
               "0 1 6 1 6 7 8 9 14 9 14 15 16 17 22 17 22 23");
    CHECK_DRAW(VFETCH_GX_LINES, 1, 1, 7, 0, "0 1 6 7 R 8 9 14 15 R 16 17 22 23 R");
    CHECK_DRAW(VFETCH_GX_LINE_STRIP, 1, 1, 3, 0, "0 1 6 7 R 4 5 10 11 R");
    CHECK_DRAW(VFETCH_GX_POINTS, 0, 1, 2, 0, "0 1 2 1 2 3 4 5 6 5 6 7");
    CHECK_DRAW(VFETCH_GX_POINTS, 1, 1, 2, 0, "0 1 2 3 R 4 5 6 7 R");
    CHECK_DRAW(VFETCH_GX_TRIANGLES, 0, 1, 3, 0, "0 1 2"); /* triangles ignore expansion */
    /* Dolphin's odd cases: a strip with restart writes its vertices and R whatever the count */
    CHECK_DRAW(VFETCH_GX_TRIANGLE_STRIP, 1, 0, 0, 0, "R");
    CHECK_DRAW(VFETCH_GX_TRIANGLE_STRIP, 1, 0, 2, 5, "5 6 R");
    CHECK_DRAW(VFETCH_GX_TRIANGLE_STRIP, 0, 0, 2, 5, "");
    CHECK_DRAW(VFETCH_GX_QUADS, 0, 0, 3, 0, "0 1 2"); /* three vertices: one triangle */
    CHECK_DRAW(VFETCH_GX_QUADS, 1, 0, 6, 0, "1 2 0 3 R");
    /* fan with restart, two and one triangles past the strips of three */
    CHECK_DRAW(VFETCH_GX_TRIANGLE_FAN, 1, 0, 4, 0, "1 2 0 3 R");
    CHECK_DRAW(VFETCH_GX_TRIANGLE_FAN, 1, 0, 3, 0, "0 1 2 R");
    /* the base index */
    CHECK_DRAW(VFETCH_GX_TRIANGLE_FAN, 0, 0, 4, 100, "100 101 102 100 102 103");
    CHECK_DRAW(VFETCH_GX_POINTS, 1, 1, 1, 10, "40 41 42 43 R");
}

static void test_defaults_info_wide(void)
{
    struct vfetch_prim_desc d;
    memset(&d, 0x5a, sizeof d);
    vfetch_prim_desc_init(&d);
    CHECK_EQ(d.frontend, VFETCH_PRIM_GX);
    CHECK_EQ(d.primitive, 0);
    CHECK_EQ(d.restart, 0);
    CHECK_EQ(d.expand_lines_points, 0);
    CHECK_EQ(d.index_type, VFETCH_INDEX_U16);
    vfetch_prim_desc_init(NULL); /* allowed */
    struct vfetch_prim_plan_info info;
    vfetch_prim_plan *plan = plan_of(VFETCH_GX_QUADS, 1, 0, 1);
    CHECK_EQ(vfetch_prim_plan_info(plan, &info), VFETCH_OK);
    CHECK_EQ(info.topology, VFETCH_TOPOLOGY_TRIANGLE_STRIP);
    CHECK_EQ(info.index_bytes, 4);
    CHECK_EQ(info.restart_index, 0xffffffffu);
    CHECK(info.level != NULL);
    CHECK_EQ(vfetch_prim_plan_info(NULL, &info), VFETCH_EINVAL);
    CHECK_EQ(vfetch_prim_plan_info(plan, NULL), VFETCH_EINVAL);
    /* 32-bit indices past 65535 */
    uint32_t out[12];
    struct vfetch_prim_run_params p;
    vfetch_prim_run_params_init(&p);
    p.count = 4;
    p.base_index = 70000;
    p.out = out;
    p.out_capacity = 12;
    struct vfetch_prim_result r;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_OK);
    CHECK_EQ(r.written, 5);
    CHECK_EQ(out[0], 70001);
    CHECK_EQ(out[2], 70000);
    CHECK_EQ(out[4], 0xffffffffu);
    vfetch_prim_plan_free(plan);
    plan = plan_of(VFETCH_GX_LINES, 0, 1, 0);
    CHECK_EQ(vfetch_prim_plan_info(plan, &info), VFETCH_OK);
    CHECK_EQ(info.topology, VFETCH_TOPOLOGY_TRIANGLE_LIST);
    CHECK_EQ(info.expanded, 1);
    CHECK_EQ(info.restart_index, 0);
    vfetch_prim_plan_free(plan);
    plan = plan_of(VFETCH_GX_POINTS, 1, 0, 0);
    CHECK_EQ(vfetch_prim_plan_info(plan, &info), VFETCH_OK);
    CHECK_EQ(info.topology, VFETCH_TOPOLOGY_POINT_LIST);
    vfetch_prim_plan_free(plan);
    vfetch_prim_plan_free(NULL); /* allowed */
}

/* Every refusal: its code, and nothing written. */
static void test_errors(void)
{
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    vfetch_prim_plan *plan = NULL;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_EPRIM_TYPE); /* no primitive */
    CHECK(plan == NULL);
    static const uint32_t reserved[] = { 0x00, 0x78, 0x81, 0xC0, 0xFF, 0x100 };
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++) {
        d.primitive = reserved[i];
        CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_EPRIM_TYPE);
    }
    d.primitive = VFETCH_GX_QUADS;
    CHECK_EQ(vfetch_prim_compile(NULL, &plan), VFETCH_EINVAL);
    CHECK_EQ(vfetch_prim_compile(&d, NULL), VFETCH_EINVAL);
    d.index_type = VFETCH_INDEX_NONE;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_EINVAL);
    d.index_type = (enum vfetch_index_type)7;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_EINVAL);
    d.index_type = VFETCH_INDEX_U16;
    d.frontend = (enum vfetch_prim_frontend)3;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_EINVAL);

    plan = plan_of(VFETCH_GX_QUADS, 1, 0, 0);
    uint16_t out[16];
    struct vfetch_prim_run_params p;
    vfetch_prim_run_params_init(&p);
    p.count = 8;
    p.out = out;
    p.out_capacity = 16;
    struct vfetch_prim_result r = { .written = 777 };
    CHECK_EQ(vfetch_prim_run(NULL, &p, &r), VFETCH_EINVAL);
    CHECK_EQ(vfetch_prim_run(plan, NULL, &r), VFETCH_EINVAL);
    memset(out, 0x5a, sizeof out);
    p.out = NULL;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_EINVAL);
    p.out = (uint8_t *)out + 1; /* misaligned */
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_EINVAL);
    p.out = out;
    p.out_capacity = 9; /* 10 needed */
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_ESHORT_OUTPUT);
    p.out_capacity = 16;
    p.base_index = 0xffff - 7; /* the last vertex would be 0xffff: the restart index */
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_EPRIM_INDEX_RANGE);
    /* the range check comes before the room check */
    p.out_capacity = 1;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_EPRIM_INDEX_RANGE);
    int untouched = 1;
    for (size_t i = 0; i < 16; i++)
        untouched &= out[i] == 0x5a5a;
    CHECK(untouched);
    CHECK_EQ(r.written, 777); /* result untouched on error */
    /* one vertex lower fits, and a draw of nothing needs no output */
    p.base_index = 0xffff - 8;
    p.out_capacity = 16;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_OK);
    CHECK_EQ(out[8], 0xffff - 1);
    p.count = 0;
    p.out = NULL;
    p.out_capacity = 0;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_OK);
    CHECK_EQ(r.written, 0);
    CHECK_EQ(vfetch_prim_run(plan, &p, NULL), VFETCH_OK); /* result may be NULL */
    vfetch_prim_plan_free(plan);
    /* without restart, 0xffff is an index; expanded lines reach it at vertex 16383 */
    plan = plan_of(VFETCH_GX_LINES, 0, 1, 0);
    p.count = 2;
    p.base_index = 16382;
    p.out = out;
    p.out_capacity = 16;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_OK);
    CHECK_EQ(out[5], 0xffff);
    p.base_index = 16383;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_EPRIM_INDEX_RANGE);
    vfetch_prim_plan_free(plan);
    CHECK(strcmp(vfetch_strerror(VFETCH_EPRIM_TYPE), vfetch_strerror(VFETCH_EPRIM_INDEX_RANGE)));
    /* the index count: 6 per quad, and SIZE_MAX never for 32-bit counts on 64-bit hosts */
    plan = plan_of(VFETCH_GX_LINE_STRIP, 0, 1, 1);
    CHECK_EQ(vfetch_prim_index_count(plan, 0), 0);
    CHECK_EQ(vfetch_prim_index_count(plan, 1), 0);
    CHECK_EQ(vfetch_prim_index_count(plan, 3), 12);
    if (sizeof(size_t) > 4)
        CHECK_EQ(vfetch_prim_index_count(plan, UINT32_MAX), 6 * (size_t)(UINT32_MAX - 1));
    CHECK_EQ(vfetch_prim_index_count(NULL, 3), 0);
    vfetch_prim_plan_free(plan);
}

#define draw_maxwell(...) draw_mesa(VFETCH_PRIM_MAXWELL, __VA_ARGS__)

/* Maxwell's ten OpenGL primitives are R300's in Mesa's orders: a few spelled out, then every
   one against its R300 twin at every small count, base parity and provoking pair. */
static void test_maxwell(void)
{
    CHECK(strcmp(draw_maxwell(VFETCH_MAXWELL_QUADS, 0, 1, 4, 0), "1 2 0 2 3 0") == 0);
    CHECK(strcmp(draw_maxwell(VFETCH_MAXWELL_LINE_LOOP, 0, 0, 3, 0), "0 1 1 2 2 0") == 0);
    CHECK(strcmp(draw_maxwell(VFETCH_MAXWELL_TRIANGLE_FAN, 1, 1, 5, 0), "0 1 2 0 2 3 0 3 4") == 0);
    CHECK(strcmp(draw_maxwell(VFETCH_MAXWELL_POINTS, 0, 0, 2, 9), "9 10") == 0);
    static const uint32_t twins[10][2] = {
        { VFETCH_MAXWELL_POINTS, VFETCH_R300_POINTS },
        { VFETCH_MAXWELL_LINES, VFETCH_R300_LINES },
        { VFETCH_MAXWELL_LINE_LOOP, VFETCH_R300_LINE_LOOP },
        { VFETCH_MAXWELL_LINE_STRIP, VFETCH_R300_LINE_STRIP },
        { VFETCH_MAXWELL_TRIANGLES, VFETCH_R300_TRIANGLES },
        { VFETCH_MAXWELL_TRIANGLE_STRIP, VFETCH_R300_TRIANGLE_STRIP },
        { VFETCH_MAXWELL_TRIANGLE_FAN, VFETCH_R300_TRIANGLE_FAN },
        { VFETCH_MAXWELL_QUADS, VFETCH_R300_QUADS },
        { VFETCH_MAXWELL_QUAD_STRIP, VFETCH_R300_QUAD_STRIP },
        { VFETCH_MAXWELL_POLYGON, VFETCH_R300_POLYGON },
    };
    static char got[512];
    for (unsigned t = 0; t < 10; t++)
        for (unsigned pv = 0; pv < 4; pv++)
            for (uint32_t count = 0; count <= 20; count++)
                for (uint32_t base = 0; base < 3; base++) {
                    strcpy(got, draw_maxwell(twins[t][0], pv & 1, pv >> 1, count, base * 5));
                    const char *want = draw_r300(twins[t][1], pv & 1, pv >> 1, count, base * 5);
                    test_checks++;
                    if (strcmp(got, want) != 0) {
                        fprintf(stderr, "Maxwell %u pv %u count %u base %u: got \"%s\", want \"%s\"\n",
                                twins[t][0], pv, count, base * 5, got, want);
                        test_failures++;
                    }
                }
    /* patches (0xE) and past them: refused */
    for (uint32_t prim = 0xE; prim <= 0x10; prim++) {
        struct vfetch_prim_desc d;
        vfetch_prim_desc_init(&d);
        d.frontend = VFETCH_PRIM_MAXWELL;
        d.primitive = prim;
        vfetch_prim_plan *plan = NULL;
        CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_EPRIM_TYPE);
        CHECK(plan == NULL);
    }
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    d.frontend = (enum vfetch_prim_frontend)3;
    d.primitive = 0;
    vfetch_prim_plan *plan = NULL;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_EINVAL);
}

/* The topology a Maxwell plan draws */
static int maxwell_topology(uint32_t primitive, int pv_in, int pv_out)
{
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    d.frontend = VFETCH_PRIM_MAXWELL;
    d.primitive = primitive;
    d.guest_provoking = (enum vfetch_prim_provoking)pv_in;
    d.host_provoking = (enum vfetch_prim_provoking)pv_out;
    vfetch_prim_plan *plan = NULL;
    struct vfetch_prim_plan_info info = { 0 };
    if (vfetch_prim_compile(&d, &plan) != VFETCH_OK)
        return -1;
    vfetch_prim_plan_info(plan, &info);
    vfetch_prim_plan_free(plan);
    return (int)info.topology;
}

/* Maxwell's adjacency primitives pass through, trimmed as Mesa trims them: lists with the
   provoking vertex converted as Mesa converts them (a line reversed, a triangle's six
   vertices rotated by four), a line strip as it is or as a list of its lines, a triangle
   strip only as it is. */
static void test_maxwell_adjacency(void)
{
    const uint32_t lines = VFETCH_MAXWELL_LINES_ADJACENCY,
                   line_strip = VFETCH_MAXWELL_LINE_STRIP_ADJACENCY,
                   tris = VFETCH_MAXWELL_TRIANGLES_ADJACENCY,
                   tri_strip = VFETCH_MAXWELL_TRIANGLE_STRIP_ADJACENCY;
    CHECK(strcmp(draw_maxwell(lines, 0, 0, 9, 0), "0 1 2 3 4 5 6 7") == 0);
    CHECK(strcmp(draw_maxwell(lines, 1, 0, 9, 0), "3 2 1 0 7 6 5 4") == 0);
    CHECK(strcmp(draw_maxwell(lines, 0, 0, 3, 0), "") == 0);
    CHECK_EQ(maxwell_topology(lines, 1, 0), VFETCH_TOPOLOGY_LINE_LIST_ADJACENCY);
    CHECK(strcmp(draw_maxwell(line_strip, 1, 1, 5, 0), "0 1 2 3 4") == 0);
    CHECK(strcmp(draw_maxwell(line_strip, 0, 0, 3, 0), "") == 0);
    CHECK_EQ(maxwell_topology(line_strip, 0, 0), VFETCH_TOPOLOGY_LINE_STRIP_ADJACENCY);
    CHECK(strcmp(draw_maxwell(line_strip, 0, 1, 5, 10), "13 12 11 10 14 13 12 11") == 0);
    CHECK_EQ(maxwell_topology(line_strip, 0, 1), VFETCH_TOPOLOGY_LINE_LIST_ADJACENCY);
    CHECK(strcmp(draw_maxwell(tris, 0, 0, 7, 2), "2 3 4 5 6 7") == 0);
    CHECK(strcmp(draw_maxwell(tris, 1, 0, 13, 2), "6 7 2 3 4 5 12 13 8 9 10 11") == 0);
    CHECK(strcmp(draw_maxwell(tris, 0, 1, 5, 0), "") == 0);
    CHECK_EQ(maxwell_topology(tris, 0, 0), VFETCH_TOPOLOGY_TRIANGLE_LIST_ADJACENCY);
    CHECK(strcmp(draw_maxwell(tri_strip, 0, 0, 7, 0), "0 1 2 3 4 5") == 0);
    CHECK(strcmp(draw_maxwell(tri_strip, 1, 1, 8, 1), "1 2 3 4 5 6 7 8") == 0);
    CHECK(strcmp(draw_maxwell(tri_strip, 0, 0, 5, 0), "") == 0);
    CHECK_EQ(maxwell_topology(tri_strip, 0, 0), VFETCH_TOPOLOGY_TRIANGLE_STRIP_ADJACENCY);
    /* a triangle strip with adjacency between conventions: refused */
    CHECK_EQ(maxwell_topology(tri_strip, 0, 1), -1);
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    d.frontend = VFETCH_PRIM_MAXWELL;
    d.primitive = tri_strip;
    d.guest_provoking = VFETCH_PROVOKING_LAST;
    vfetch_prim_plan *plan = NULL;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_EPRIM_TYPE);
    CHECK(plan == NULL);
    /* the index count and range: the trimmed strip's last vertex */
    d.guest_provoking = VFETCH_PROVOKING_FIRST;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    CHECK_EQ(vfetch_prim_index_count(plan, 9), 8);
    uint16_t out[8];
    struct vfetch_prim_run_params p = { .count = 9, .base_index = 65535 - 7, .out = out, .out_capacity = 8 };
    struct vfetch_prim_result r = { 0 };
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_OK);
    CHECK_EQ(r.written, 8);
    CHECK_EQ(out[7], 65535);
    p.base_index++;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_EPRIM_INDEX_RANGE);
    vfetch_prim_plan_free(plan);
}

/* A draw through a guest index buffer of `n` entries given as 32-bit values, stored as
   `bytes`-byte entries in the order asked; 16- or 32-bit output printed as draw_of does. */
static const char *draw_indexed(struct vfetch_prim_desc d, const uint32_t *entries, uint32_t n,
                                uint32_t base, struct vfetch_prim_result *r_out)
{
    static const uint32_t none[1] = { 0 };
    return prim_draw(d, n ? entries : none, n, base, r_out);
}

static struct vfetch_prim_desc indexed_desc(enum vfetch_prim_frontend frontend, uint32_t primitive,
                                            uint8_t bytes)
{
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    d.frontend = frontend;
    d.primitive = primitive;
    d.guest_index_bytes = bytes;
    return d;
}

/* Draws through guest index buffers: entries as the primitive's vertices (Mesa's translate
   orders), widening and narrowing, big-endian entries, restart as OpenGL's, range mode, a
   strip with adjacency passing restart to the host, and every error in its order. */
static void test_indexed(void)
{
    struct vfetch_prim_result r;
    /* u8 triangles, the last incomplete one dropped, base added */
    struct vfetch_prim_desc d = indexed_desc(VFETCH_PRIM_R300, VFETCH_R300_TRIANGLES, 1);
    const uint32_t tri[] = { 5, 6, 7, 8, 9, 10, 11 };
    CHECK(strcmp(draw_indexed(d, tri, 7, 100, &r), "105 106 107 108 109 110") == 0);
    CHECK_EQ(r.min_index, 5);
    CHECK_EQ(r.max_index, 11); /* every entry, the dropped one's too */
    /* to a last-vertex host: Mesa's rotation of the entries */
    d.host_provoking = VFETCH_PROVOKING_LAST;
    CHECK(strcmp(draw_indexed(d, tri, 6, 0, NULL), "6 7 5 9 10 8") == 0);
    /* big-endian u16 quads cut by restart: each run its own quads */
    d = indexed_desc(VFETCH_PRIM_R300, VFETCH_R300_QUADS, 2);
    d.guest_big_endian = 1;
    d.guest_restart = 1;
    d.guest_restart_index = 0xFFFF;
    const uint32_t quads[] = { 0, 1, 2, 3, 0xFFFF, 4, 5, 6, 0xFFFF, 7, 8, 0x109, 0x10A };
    CHECK(strcmp(draw_indexed(d, quads, 13, 0, &r), "0 1 2 0 2 3 7 8 265 7 265 266") == 0);
    CHECK_EQ(r.min_index, 0);
    CHECK_EQ(r.max_index, 0x10A);
    /* without restart the same entries are one draw: 0xFFFF is a vertex */
    d.guest_restart = 0;
    d.index_type = VFETCH_INDEX_U32;
    CHECK(strcmp(draw_indexed(d, quads, 8, 0, NULL), "0 1 2 0 2 3 65535 4 5 65535 5 6") == 0);
    /* a fan cut by restart starts again at the next entry */
    d = indexed_desc(VFETCH_PRIM_MAXWELL, VFETCH_MAXWELL_TRIANGLE_FAN, 2);
    d.guest_restart = 1;
    d.guest_restart_index = 9;
    d.guest_provoking = d.host_provoking = VFETCH_PROVOKING_LAST;
    const uint32_t fan[] = { 20, 21, 22, 23, 9, 30, 31, 32 };
    CHECK(strcmp(draw_indexed(d, fan, 8, 0, NULL), "20 21 22 20 22 23 30 31 32") == 0);
    /* u8 widened to u32, a strip cut by the u8 restart index; Mesa's strip parity from the
       run's first entry */
    d = indexed_desc(VFETCH_PRIM_R300, VFETCH_R300_TRIANGLE_STRIP, 1);
    d.index_type = VFETCH_INDEX_U32;
    d.guest_restart = 1;
    d.guest_restart_index = 0xFF;
    const uint32_t strip[] = { 0, 1, 2, 3, 0xFF, 4, 5, 6, 7 };
    CHECK(strcmp(draw_indexed(d, strip, 9, 0, NULL), "0 1 2 1 3 2 4 5 6 5 7 6") == 0);
    /* a restart index no u8 entry can hold: nothing restarts */
    d.guest_restart_index = 0x1FF;
    CHECK(strcmp(draw_indexed(d, strip, 5, 0, NULL), "0 1 2 1 3 2 2 3 255") == 0);
    /* range mode: entries rebased to the base, the range returned */
    d = indexed_desc(VFETCH_PRIM_R300, VFETCH_R300_TRIANGLES, 4);
    d.range = 1;
    const uint32_t far[] = { 1000000, 1000002, 1000001 };
    CHECK(strcmp(draw_indexed(d, far, 3, 5, &r), "5 7 6") == 0);
    CHECK_EQ(r.min_index, 1000000);
    CHECK_EQ(r.max_index, 1000002);
    /* a line strip with adjacency drawn as it is: restart passed to the host's */
    d = indexed_desc(VFETCH_PRIM_MAXWELL, VFETCH_MAXWELL_LINE_STRIP_ADJACENCY, 2);
    d.guest_restart = 1;
    d.guest_restart_index = 0xFFFF;
    const uint32_t adj[] = { 0, 1, 2, 3, 0xFFFF, 4, 5, 6, 7 };
    CHECK(strcmp(draw_indexed(d, adj, 9, 0, NULL), "0 1 2 3 R 4 5 6 7") == 0);
    /* every entry a restart: nothing, an empty range */
    const uint32_t none[] = { 0xFFFF, 0xFFFF };
    CHECK(strcmp(draw_indexed(d, none, 2, 0, &r), "R R") == 0);
    CHECK_EQ(r.min_index, 1);
    CHECK_EQ(r.max_index, 0);

    /* errors, in order, nothing written */
    d = indexed_desc(VFETCH_PRIM_GX, VFETCH_GX_TRIANGLES, 2);
    vfetch_prim_plan *plan = NULL;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_EINVAL); /* GX has no index buffer */
    d = indexed_desc(VFETCH_PRIM_R300, VFETCH_R300_TRIANGLES, 3);
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_EINVAL); /* 3-byte entries */
    CHECK(plan == NULL);
    d = indexed_desc(VFETCH_PRIM_R300, VFETCH_R300_TRIANGLES, 4);
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    const uint32_t entries[6] = { 1, 2, 3, 70000, 70001, 70002 };
    uint16_t out[8];
    memset(out, 0x5a, sizeof out);
    struct vfetch_prim_run_params p;
    vfetch_prim_run_params_init(&p);
    p.count = 3;
    p.out = out;
    p.out_capacity = 8;
    r.written = 777;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_EINVAL); /* no indices */
    p.indices = entries;
    p.indices_size = 11;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_ESHORT_INDICES);
    p.indices_size = 12;
    p.out_capacity = 2;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_ESHORT_OUTPUT);
    p.out_capacity = 8;
    p.indices = entries + 3; /* 70000.. does not fit 16 bits */
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_EPRIM_INDEX_RANGE);
    p.base_index = 65535 - 3; /* 1..3 at that base: the highest 65535 fits, one more not */
    p.indices = entries;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_OK);
    CHECK_EQ(out[2], 65535);
    p.base_index++;
    memset(out, 0x5a, sizeof out);
    r.written = 777;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_EPRIM_INDEX_RANGE);
    CHECK_EQ(r.written, 777);
    int untouched = 1;
    for (size_t i = 0; i < 8; i++)
        untouched &= out[i] == 0x5a5a;
    CHECK(untouched);
    vfetch_prim_plan_free(plan);
    /* range mode makes 70000.. fit */
    d.range = 1;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    p.base_index = 0;
    p.indices = entries + 3;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_OK);
    CHECK(out[0] == 0 && out[1] == 1 && out[2] == 2);
    vfetch_prim_plan_free(plan);
    /* indices given to a plan of consecutive vertices */
    d = indexed_desc(VFETCH_PRIM_R300, VFETCH_R300_TRIANGLES, 0);
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_EINVAL);
    vfetch_prim_plan_free(plan);
    /* the pass-through strip's restart index is the host's: an entry reaching it is refused */
    d = indexed_desc(VFETCH_PRIM_MAXWELL, VFETCH_MAXWELL_TRIANGLE_STRIP_ADJACENCY, 4);
    d.guest_restart = 1;
    d.guest_restart_index = 0;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    struct vfetch_prim_plan_info info;
    vfetch_prim_plan_info(plan, &info);
    CHECK_EQ(info.restart_index, 0xFFFF);
    CHECK_EQ(info.topology, VFETCH_TOPOLOGY_TRIANGLE_STRIP_ADJACENCY);
    const uint32_t top[3] = { 65534, 0, 65535 };
    p.indices = top;
    p.indices_size = 12;
    p.count = 2;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_OK);
    CHECK(out[0] == 65534 && out[1] == 65535); /* the restart entry as the host's */
    p.indices = top + 1;
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_EPRIM_INDEX_RANGE);
    vfetch_prim_plan_free(plan);
}

int main(void)
{
    test_orders();
    test_r300_orders();
    test_maxwell();
    test_maxwell_adjacency();
    test_indexed();
    test_defaults_info_wide();
    test_errors();
    return test_summary("prim");
}
