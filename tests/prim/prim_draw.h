/*
 * The primitive tests' one helper: a draw through a description, printed "0 1 2 R ..." (R where
 * an index is the restart index of the width it was written at).
 */
#ifndef VFETCH_TESTS_PRIM_DRAW_H
#define VFETCH_TESTS_PRIM_DRAW_H

#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "testutil.h"
#include "vfetch/prim.h"

/* A draw of `n` vertices at `base`; with `entries` (for a description with guest_index_bytes),
   through the index buffer of those values stored as the description's entries. The result
   into *r_out where given. */
static const char *prim_draw(struct vfetch_prim_desc d, const uint32_t *entries, uint32_t n,
                             uint32_t base, struct vfetch_prim_result *r_out)
{
    static char text[1024];
    uint8_t in[256];
    for (uint32_t i = 0; entries && i < n; i++)
        for (uint32_t b = 0; b < d.guest_index_bytes; b++)
            in[i * d.guest_index_bytes + b] = (uint8_t)(entries[i] >> (d.guest_big_endian
                                                                          ? 8 * (d.guest_index_bytes - 1 - b)
                                                                          : 8 * b));
    vfetch_prim_plan *plan = NULL;
    CHECK_EQ(vfetch_prim_compile(&d, &plan), VFETCH_OK);
    uint32_t out[96];
    struct vfetch_prim_run_params p;
    vfetch_prim_run_params_init(&p);
    p.count = n;
    p.base_index = base;
    p.out = out;
    p.out_capacity = 96;
    p.indices = entries ? in : NULL;
    p.indices_size = entries ? (size_t)n * d.guest_index_bytes : 0;
    struct vfetch_prim_result r = { 0 };
    text[0] = '\0';
    CHECK_EQ(vfetch_prim_run(plan, &p, &r), VFETCH_OK);
    CHECK(r.written <= vfetch_prim_index_count(plan, n));
    const int wide = r.index_bytes == 4;
    const uint32_t restart = wide ? 0xffffffffu : 0xffffu;
    struct vfetch_prim_plan_info info;
    vfetch_prim_plan_info(plan, &info);
    size_t at = 0;
    for (size_t i = 0; i < r.written && at < sizeof text - 12; i++) {
        const uint32_t v = wide ? out[i] : ((uint16_t *)out)[i];
        const int is_restart = info.restart_index && v == restart;
        at += (size_t)snprintf(text + at, sizeof text - at, is_restart ? "%sR" : "%s%u", i ? " " : "", v);
    }
    if (r_out)
        *r_out = r;
    vfetch_prim_plan_free(plan);
    return text;
}

#define CHECK_PRIM_TEXT(got, want)                                                               \
    do {                                                                                    \
        const char *got_ = (got);                                                           \
        test_checks++;                                                                      \
        if (strcmp(got_, want)) {                                                           \
            test_failures++;                                                                \
            fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", __FILE__, __LINE__, got_, want); \
        }                                                                                   \
    } while (0)

#endif
