/*
 * checkasm's primitive part (--kernel prim): vfetch_prim_run at every level against the
 * reference (lib/prim/ref.c), index for index. Every GX primitive x restart x line/point
 * expansion x 16/32-bit indices, every count from 0 to 1,024 (quick: 300) and a few larger
 * ones, at base index 0, a random one and the highest the width allows for the draw; the
 * output exactly as long as the draw's indices and ending at a PROT_NONE page (and, every
 * other count, starting right after one), so that a kernel writing one index too many crashes.
 * Every other draw again with room to spare: the same indices, nothing written past them.
 * The same draws with one index less of room must be VFETCH_ESHORT_OUTPUT with nothing written,
 * and with the base one higher than the width allows VFETCH_EPRIM_INDEX_RANGE. The options
 * too: GX's incomplete primitives dropped, R300's fans passed to the host, Maxwell's quads,
 * quad strips, fans and polygons in yuzu's orders with host fans; and each 32-bit plan made the
 * narrowest, drawn at base 0, the highest base its 16 bits hold and the next (16 bits, 16, 32).
 * Replay: test_checkasm --kernel prim --seed N [--isa LEVEL].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "prim/prim_internal.h"
#include "vfetch/prim.h"

static const uint32_t r300_primitives[] = {
    VFETCH_R300_POINTS,     VFETCH_R300_LINES,          VFETCH_R300_LINE_STRIP,
    VFETCH_R300_TRIANGLES,  VFETCH_R300_TRIANGLE_FAN,   VFETCH_R300_TRIANGLE_STRIP,
    VFETCH_R300_LINE_LOOP,  VFETCH_R300_QUADS,          VFETCH_R300_QUAD_STRIP,
    VFETCH_R300_POLYGON,
};

/* Maxwell's own: the adjacency primitives (its other ten are R300's, tests/prim), and the four
   yuzu's orders change (run with them only) */
static const uint32_t maxwell_primitives[] = {
    VFETCH_MAXWELL_LINES_ADJACENCY, VFETCH_MAXWELL_LINE_STRIP_ADJACENCY,
    VFETCH_MAXWELL_TRIANGLES_ADJACENCY, VFETCH_MAXWELL_TRIANGLE_STRIP_ADJACENCY,
    VFETCH_MAXWELL_QUADS, VFETCH_MAXWELL_QUAD_STRIP, VFETCH_MAXWELL_TRIANGLE_FAN,
    VFETCH_MAXWELL_POLYGON,
};

/* Whether opts bit 3 (the front-end's extra option) changes the primitive, and whether the
   primitive runs without it. */
static bool extra_option_applies(uint32_t frontend, uint32_t prim)
{
    if (frontend == VFETCH_PRIM_GX) /* drop_incomplete */
        return prim == VFETCH_GX_QUADS || prim == VFETCH_GX_QUADS_2 || prim == VFETCH_GX_TRIANGLE_STRIP;
    if (frontend == VFETCH_PRIM_R300) /* host_fans */
        return prim == VFETCH_R300_TRIANGLE_FAN;
    return prim < VFETCH_MAXWELL_LINES_ADJACENCY; /* yuzu_orders and host_fans */
}

static const uint32_t gx_primitives[] = {
    VFETCH_GX_QUADS,     VFETCH_GX_QUADS_2, VFETCH_GX_TRIANGLES,  VFETCH_GX_TRIANGLE_STRIP,
    VFETCH_GX_TRIANGLE_FAN, VFETCH_GX_LINES, VFETCH_GX_LINE_STRIP, VFETCH_GX_POINTS,
};

/* The highest index a draw at base 0 writes besides restarts (from the reference, into
   `scratch`), or -1 where it writes none. */
static int64_t highest_index(const struct prim_mode *m, uint32_t count, void *scratch)
{
    struct prim_mode wide = *m; /* 32 bits: no index of a 16-bit draw wraps */
    wide.wide = 1;
    const size_t n = vfetch_prim_ref(&wide, count, 0, scratch);
    int64_t top = -1;
    for (size_t i = 0; i < n; i++) {
        const uint32_t v = ((uint32_t *)scratch)[i];
        if ((!m->restart || v != 0xffffffffu) && (int64_t)v > top)
            top = v;
    }
    return top;
}

/* The highest base index at which the draw still fits the width (its highest index below the
   restart index, or at most all ones), given its highest index at base 0; -1 if at none. */
static int64_t highest_base(const struct prim_mode *m, int64_t highest)
{
    const int64_t limit = m->wide ? 0xffffffffll : 0xffffll, top = m->restart ? limit - 1 : limit;
    if (highest < 0)
        return UINT32_MAX; /* no vertex index: any base */
    return highest > top ? -1 : (top - highest) / (m->expand ? 4 : 1);
}

static unsigned mismatches;

/* A 32-bit plan made the narrowest: at base 0, at the highest base whose indices 16 bits hold
   and at the next, each draw at the width it should take, against the reference at that width. */
static void check_narrowest(struct vfetch_prim_desc d, const struct prim_mode *m, const char *level,
                            uint32_t count, void *want)
{
    d.narrowest = 1;
    vfetch_prim_plan *plan;
    if (vfetch_prim_compile(&d, &plan) != VFETCH_OK) {
        test_failures++;
        return;
    }
    struct prim_mode narrow = *m;
    narrow.wide = 0;
    const int64_t highest = highest_index(m, count, want);
    const int64_t h16 = highest_base(&narrow, highest), h32 = highest_base(m, highest);
    const int64_t bases[3] = { 0, h16, h16 + 1 };
    for (unsigned b = 0; b < 3; b++) {
        if (bases[b] < 0 || bases[b] > h32 || (b && h16 >= UINT32_MAX))
            continue;
        const uint32_t base = (uint32_t)bases[b];
        struct prim_mode at = *m;
        at.wide = bases[b] > h16;
        const size_t width = at.wide ? 4 : 2, n = vfetch_prim_ref(&at, count, base, want);
        uint8_t *alloc;
        uint8_t *out = place(n * 4 + 4, 0, 0, &alloc); /* room for the widest */
        memset(out, 0x5a, n * 4 + 4);
        struct vfetch_prim_run_params p = { .count = count, .base_index = base, .out = out, .out_capacity = n };
        struct vfetch_prim_result r = { .written = 12345 };
        test_checks++;
        const int err = vfetch_prim_run(plan, &p, &r);
        if (err || r.written != n || r.index_bytes != width || memcmp(out, want, n * width) ||
            out[n * width] != 0x5a) {
            if (mismatches++ < 10)
                printf("  prim %s 0x%02x narrowest: %u vertices at base %u: %s, %zu written of "
                       "%zu, %u-byte indices of %zu\n", level, d.primitive, count, base,
                       vfetch_strerror(err), r.written, n, r.index_bytes, width);
            test_failures++;
        }
        guard_free(alloc);
    }
    vfetch_prim_plan_free(plan);
}

/* One draw through the plan, against the reference, on a guarded output of exactly its
   indices. */
static void run_case(const vfetch_prim_plan *plan, const struct prim_mode *m, const char *level,
                     uint32_t prim, uint32_t count, uint32_t base, bool at_head, void *want)
{
    const size_t width = m->wide ? 4 : 2;
    const size_t n = vfetch_prim_ref(m, count, base, want);
    test_checks++;
    if (vfetch_prim_index_count(plan, count) != n) {
        if (mismatches++ < 10)
            printf("  prim %s 0x%02x restart %d expand %d %u-bit: %u vertices: index count %zu, "
                   "reference %zu\n", level, prim, m->restart, m->expand, m->wide ? 32 : 16,
                   count, vfetch_prim_index_count(plan, count), n);
        test_failures++;
        return;
    }
    uint8_t *alloc;
    uint8_t *out = place(n * width, at_head, 0, &alloc);
    struct vfetch_prim_run_params p;
    vfetch_prim_run_params_init(&p);
    p.count = count;
    p.base_index = base;
    p.out = out;
    p.out_capacity = n;
    struct vfetch_prim_result r = { .written = 12345 };
    const int err = vfetch_prim_run(plan, &p, &r);
    if (err || r.written != n || memcmp(out, want, n * width)) {
        if (mismatches++ < 10) {
            size_t at = 0;
            while (!err && at < n && !memcmp(out + at * width, (uint8_t *)want + at * width, width))
                at++;
            printf("  prim %s 0x%02x restart %d expand %d %u-bit: %u vertices at base %u: %s, "
                   "%zu written of %zu, first difference at index %zu\n",
                   level, prim, m->restart, m->expand, m->wide ? 32 : 16, count, base,
                   vfetch_strerror(err), r.written, n, at);
        }
        test_failures++;
    }
    /* (every other draw) room to spare: the same indices, nothing past them written, so that a
       way that takes a draw for longer than it is shows */
    if (!at_head) {
        const size_t spare = 8;
        uint8_t *alloc2;
        uint8_t *roomy = place((n + spare) * width, 0, 0, &alloc2);
        memset(roomy, 0x5a, (n + spare) * width);
        p.out = roomy;
        p.out_capacity = n + spare;
        test_checks++;
        const int roomy_err = vfetch_prim_run(plan, &p, &r);
        size_t kept = n * width;
        while (kept < (n + spare) * width && roomy[kept] == 0x5a)
            kept++;
        if (roomy_err || r.written != n || memcmp(roomy, want, n * width) ||
            kept != (n + spare) * width) {
            if (mismatches++ < 10)
                printf("  prim %s 0x%02x: %u vertices at base %u with room for %zu more: %s, "
                       "%zu written of %zu\n", level, prim, count, base, spare,
                       vfetch_strerror(roomy_err), r.written, n);
            test_failures++;
        }
        guard_free(alloc2);
        p.out = out;
    }
    /* one index less of room: refused, nothing written */
    if (n) {
        memset(out, 0x5a, n * width);
        p.out_capacity = n - 1;
        test_checks++;
        const int short_err = vfetch_prim_run(plan, &p, &r);
        size_t kept = 0;
        while (kept < n * width && out[kept] == 0x5a)
            kept++;
        if (short_err != VFETCH_ESHORT_OUTPUT || kept != n * width) {
            if (mismatches++ < 10)
                printf("  prim %s 0x%02x: %u vertices, room for %zu of %zu: %s, %zu bytes kept\n",
                       level, prim, count, n - 1, n, vfetch_strerror(short_err), kept);
            test_failures++;
        }
    }
    guard_free(alloc);
}

/* The draw at the first base past the highest: refused before anything is written. */
static void check_range(const vfetch_prim_plan *plan, const struct prim_mode *m, uint32_t prim,
                        uint32_t count, int64_t base)
{
    uint32_t out[16];
    memset(out, 0x5a, sizeof out);
    struct vfetch_prim_run_params p;
    vfetch_prim_run_params_init(&p);
    p.count = count;
    p.base_index = (uint32_t)base;
    p.out = out;
    p.out_capacity = sizeof out / (m->wide ? 4 : 2);
    test_checks++;
    const int err = vfetch_prim_run(plan, &p, NULL);
    int untouched = 1;
    for (size_t i = 0; i < sizeof out / 4; i++)
        untouched &= out[i] == 0x5a5a5a5au;
    if (err != VFETCH_EPRIM_INDEX_RANGE || !untouched) {
        if (mismatches++ < 10)
            printf("  prim 0x%02x restart %d expand %d: %u vertices at base %u: %s\n", prim,
                   m->restart, m->expand, count, p.base_index, vfetch_strerror(err));
        test_failures++;
    }
}

void check_prim(void)
{
    if (!checkasm_family_runs("prim"))
        return;
    const unsigned before = test_failures;
    const uint32_t top_count = opt_quick ? 300 : 1024;
    /* quick mode: the two ends of the large counts (they were most of its time) */
    static const uint32_t large[] = { 4096, 65534, 4095, 16380, 16383 };
    const uint32_t num_large = opt_quick ? 2 : 5;
    void *want = malloc((6 * (size_t)65535 + 1) * 4);
    if (!want)
        exit(2);
    const unsigned mask = vfetch_get_cpu_mask();
    unsigned draws = 0;
    for (unsigned l = 0; l <= num_levels; l++) { /* the reference level "c" first */
        vfetch_set_cpu_mask(l ? level_mask(l - 1) : 0);
        const char *level = l ? levels[l - 1].name : "c";
        const size_t num_gx = sizeof gx_primitives / sizeof gx_primitives[0];
        const size_t num_r300 = sizeof r300_primitives / sizeof r300_primitives[0];
        const size_t num_maxwell = sizeof maxwell_primitives / sizeof maxwell_primitives[0];
        for (size_t pi = 0; pi < num_gx + num_r300 + num_maxwell; pi++) {
            if (!checkasm_wants_piece("prim", (unsigned)pi))
                continue; /* another --part's */
            char piece[32];
            snprintf(piece, sizeof piece, "prim %zu %s", pi, level);
            rng_seed_for(piece);
            for (unsigned opts = 0; opts < 16; opts++) {
                /* GX: restart, expansion, width, drop_incomplete; R300, Maxwell: the guest's
                   and the host's provoking vertex, width, host_fans (Maxwell: and yuzu's
                   orders) */
                const int r300 = pi >= num_gx, maxwell = pi >= num_gx + num_r300;
                struct vfetch_prim_desc d;
                vfetch_prim_desc_init(&d);
                d.frontend = maxwell ? VFETCH_PRIM_MAXWELL : r300 ? VFETCH_PRIM_R300 : VFETCH_PRIM_GX;
                d.primitive = maxwell ? maxwell_primitives[pi - num_gx - num_r300]
                              : r300  ? r300_primitives[pi - num_gx]
                                      : gx_primitives[pi];
                if (r300) {
                    d.guest_provoking = (enum vfetch_prim_provoking)(opts & 1);
                    d.host_provoking = (enum vfetch_prim_provoking)(opts >> 1 & 1);
                } else {
                    d.restart = (uint8_t)(opts & 1);
                    d.expand_lines_points = (uint8_t)(opts >> 1 & 1);
                }
                d.index_type = opts & 4 ? VFETCH_INDEX_U32 : VFETCH_INDEX_U16;
                const bool applies = extra_option_applies(d.frontend, d.primitive);
                if ((opts & 8) && !applies)
                    continue;
                if (maxwell && applies && !(opts & 8))
                    continue; /* (R300's twins) */
                d.drop_incomplete = d.host_fans = d.yuzu_orders = (uint8_t)(opts >> 3 & 1);
                vfetch_prim_plan *plan;
                const int refused = d.primitive == VFETCH_MAXWELL_TRIANGLE_STRIP_ADJACENCY && maxwell &&
                                    d.guest_provoking != d.host_provoking;
                if (vfetch_prim_compile(&d, &plan) != (refused ? VFETCH_EPRIM_TYPE : VFETCH_OK)) {
                    test_failures++;
                    continue;
                }
                if (refused)
                    continue;
                const struct prim_mode *m = &plan->mode;
                for (uint32_t count = 0; count <= top_count + num_large; count++) {
                    const uint32_t n = count <= top_count ? count : large[count - top_count - 1];
                    const int64_t hi = highest_base(m, highest_index(m, n, want));
                    if (hi < 0)
                        continue; /* does not fit the width at any base */
                    const uint32_t high = hi > UINT32_MAX ? UINT32_MAX : (uint32_t)hi;
                    /* (R300's strips: an odd base takes the other parity) */
                    const uint32_t bases[3] = { 0, rnd_below(high < 1000 ? high + 1 : 1000) | (count & 1),
                                                high };
                    for (unsigned b = 0; b < 3; b++) {
                        if (n > 4096 && b == 1)
                            continue;
                        run_case(plan, m, level, d.primitive, n, bases[b], (n + b) % 2, want);
                        draws++;
                    }
                    if (n <= 64 && hi < UINT32_MAX)
                        check_range(plan, m, d.primitive, n, hi + 1);
                    if (m->wide && (n <= 64 || count > top_count))
                        check_narrowest(d, m, level, n, want);
                }
                vfetch_prim_plan_free(plan);
            }
        }
    }
    vfetch_set_cpu_mask(mask);
    free(want);
    printf("  prim: %u draws (8 GX primitives x restart x expansion x dropping, 10 R300 "
           "primitives x host fans and 4 Maxwell adjacency primitives and 4 in yuzu's orders x "
           "provoking vertex in x out, 16/32 bits and the narrowest, counts 0-%u and %u up to "
           "65,534, three bases, at %u levels and the reference) against the reference%s\n",
           draws, top_count, num_large, num_levels,
           test_failures == before ? "" : "  FAILED");
}
