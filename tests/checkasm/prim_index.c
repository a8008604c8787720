/*
 * checkasm's guest index buffer part (--kernel prim-index): draws through an index buffer
 * (vfetch/prim.h's guest_* fields) at every level against the reference (lib/prim/ref.c's
 * vfetch_prim_ref_indexed and vfetch_prim_scan_ref), index for index, and the level's scan and
 * convert kernels and the restart search called directly against the same loops. Every R300 primitive and Maxwell
 * adjacency primitive x u8/u16/u32 entries x byte order x guest restart x range mode x 16/32-bit
 * output, a random provoking pair; counts 0-48 and three larger ones; entries random below a
 * random bound, restart entries sprinkled; base 0 or random. The entries end at a PROT_NONE page,
 * the output too (exactly vfetch_prim_index_count long); what a draw does not write must keep its
 * canary, and an error write nothing. Then the options: every plan again with host fans, yuzu's
 * orders (Maxwell's quads, quad strips, fans and polygons join) and the narrowest width (32-bit
 * plans: each draw at the width it should take). The kernels: every count 0-80 and every entry format,
 * output width and restart, entries and output each against a guard page.
 * Replay: test_checkasm --kernel prim-index --seed N [--isa LEVEL].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "prim/prim_internal.h"
#include "vfetch/prim.h"

static const uint32_t r300_primitives[] = { 1, 2, 3, 4, 5, 6, 12, 13, 14, 15 };
static const uint32_t maxwell_own[] = { 0xA, 0xB, 0xC, 0xD, 6, 7, 8, 9 }; /* (6-9: yuzu's) */

static unsigned reports;

/* Random entries of `bytes` in the byte order asked: values below `bound`, one in eight the
   restart index where restart is on. */
static void fill_entries(uint8_t *p, uint32_t count, const struct prim_guest *g, uint32_t bound)
{
    for (uint32_t i = 0; i < count; i++) {
        uint32_t e = g->restart && rnd_below(8) == 0 ? g->restart_index : rnd_below(bound);
        if (g->bytes < 4)
            e &= (1u << (8 * g->bytes)) - 1;
        for (uint32_t b = 0; b < g->bytes; b++) {
            const uint32_t shift = g->big ? 8 * (g->bytes - 1 - b) : 8 * b;
            p[i * g->bytes + b] = (uint8_t)(e >> shift);
        }
    }
}

/* One draw against the reference: its result (code, count, indices, range) and the canary. */
static void run_indexed_case(const vfetch_prim_plan *plan, const char *level, uint32_t prim,
                             uint32_t count, uint32_t base, uint32_t bound, void *want)
{
    const struct prim_guest *g = &plan->guest;
    uint8_t *in_alloc, *out_alloc;
    uint8_t *in = place((size_t)count * g->bytes, count % 2, 0, &in_alloc);
    fill_entries(in, count, g, bound);
    const size_t cap = vfetch_prim_index_count(plan, count);
    const size_t room = cap * (plan->mode.wide ? 4 : 2);
    uint8_t *out = place(room, count % 3 == 0, 0, &out_alloc);
    memset(out, 0x5a, room);

    /* the expected result: a narrowest plan's draws at 16 bits where they fit them */
    uint32_t lo, hi;
    vfetch_prim_scan_ref(in, count, g, &lo, &hi);
    const int any = lo <= hi;
    const uint32_t sub = plan->range && any ? lo : 0;
    if (plan->narrow && (!any || (uint64_t)base + (hi - sub) <= 0xffffu - (plan->pass_restart ? 1u : 0u)))
        plan = plan->narrow;
    const struct prim_mode *m = &plan->mode;
    const size_t width = m->wide ? 4 : 2;
    const uint64_t limit = (m->wide ? 0xffffffffu : 0xffffu) - (plan->pass_restart ? 1u : 0u);
    int want_err = any && (uint64_t)base + (hi - sub) > limit ? VFETCH_EPRIM_INDEX_RANGE : 0;
    size_t n = 0;
    if (!want_err)
        n = vfetch_prim_ref_indexed(m, g, plan->pass_restart, in, count, base - sub,
                                    plan->restart_index, want);

    struct vfetch_prim_run_params p;
    vfetch_prim_run_params_init(&p);
    p.count = count;
    p.base_index = base;
    p.out = out;
    p.out_capacity = cap;
    p.indices = in;
    p.indices_size = (size_t)count * g->bytes;
    struct vfetch_prim_result r = { .written = 12345 };
    test_checks++;
    const int err = vfetch_prim_run(plan, &p, &r);
    size_t kept = err ? 0 : n * width;
    while (kept < room && out[kept] == 0x5a)
        kept++;
    const int ok = err == want_err &&
                   (err ? kept == room && r.written == 12345
                        : r.written == n && !memcmp(out, want, n * width) && kept == room &&
                              r.index_bytes == width && r.min_index == (any ? lo : 1) &&
                              r.max_index == (any ? hi : 0));
    if (!ok) {
        if (reports++ < 10)
            printf("  prim-index %s 0x%02x u%u%s restart %d range %d pv %d->%d %u-bit: %u entries "
                   "at base %u: %s (want %s), %zu written of %zu, min/max %u/%u (want %u/%u)\n",
                   level, prim, 8 * g->bytes, g->big ? " big" : "", g->restart, plan->range,
                   m->pv_in_last, m->pv_out_last, m->wide ? 32 : 16, count, base,
                   vfetch_strerror(err), vfetch_strerror(want_err), r.written, n, r.min_index,
                   r.max_index, lo, hi);
        test_failures++;
    }
    guard_free(out_alloc);
    guard_free(in_alloc);
}

/* The level's scan, search and convert kernels against the reference's loops. */
static void check_kernels_at(const struct vfetch_prim_dsp *dsp, const char *level)
{
    static const uint32_t sizes[3] = { 1, 2, 4 };
    for (unsigned f = 0; f < 3 * 2 * 2 * 2; f++) {
        struct prim_guest g = { sizes[f % 3], sizes[f % 3] > 1 && (f / 3) % 2, (f / 6) % 2, 0 };
        const int wide = (f / 12) % 2;
        /* the restart index: the type's all ones, or a small value that entries hit */
        g.restart_index = rnd_below(2) ? (g.bytes == 4 ? 0xffffffffu : (1u << (8 * g.bytes)) - 1)
                                       : rnd_below(4);
        for (uint32_t count = 0; count <= 80; count++) {
            uint8_t *in_alloc, *out_alloc, *ref_alloc;
            uint8_t *in = place((size_t)count * g.bytes, count % 2, 0, &in_alloc);
            fill_entries(in, count, &g, count % 5 == 0 ? 4 : 0xffffffffu);
            uint32_t lo, hi, want_lo, want_hi;
            test_checks++;
            const int seen = dsp->scan(in, count, &g, &lo, &hi);
            const int want_seen = vfetch_prim_scan_ref(in, count, &g, &want_lo, &want_hi);
            if (seen != want_seen || lo != want_lo || hi != want_hi) {
                if (reports++ < 10)
                    printf("  prim-index %s scan u%u%s restart %d (0x%x): %u entries: %d %u..%u, "
                           "want %d %u..%u\n", level, 8 * g.bytes, g.big ? " big" : "", g.restart,
                           g.restart_index, count, seen, lo, hi, want_seen, want_lo, want_hi);
                test_failures++;
            }
            /* the search for the next restart entry, from every start */
            for (uint32_t from = 0; from <= count; from++) {
                test_checks++;
                const uint32_t got = dsp->find(in, &g, from, count);
                const uint32_t want_at = vfetch_prim_find_ref(in, &g, from, count);
                if (got != want_at) {
                    if (reports++ < 10)
                        printf("  prim-index %s find u%u%s (0x%x): %u entries from %u: %u, want "
                               "%u\n", level, 8 * g.bytes, g.big ? " big" : "", g.restart_index,
                               count, from, got, want_at);
                    test_failures++;
                }
            }
            const size_t w = wide ? 4 : 2;
            uint8_t *out = place(count * w, count % 3 == 0, 0, &out_alloc);
            uint8_t *want = place((count + 1) * w, 0, 0, &ref_alloc);
            /* delta: any value (a 16-bit output keeps the low bits: the ranges are checked
               before the kernel runs, so entries narrowed from 32 bits stay below 2^16 there) */
            const uint32_t delta = rnd_below(3) ? rnd_below(1000) : (uint32_t)rnd();
            const uint32_t host_restart = wide ? 0xffffffffu : 0xffffu;
            uint8_t *src = in;
            uint8_t *narrowed = NULL, *narrow_alloc = NULL;
            if (!wide && g.bytes == 4) { /* entries plus delta below 2^16: as checked */
                narrowed = place((size_t)count * 4, 0, 0, &narrow_alloc);
                fill_entries(narrowed, count, &g, 1000);
                src = narrowed;
            }
            const uint32_t d = !wide && g.bytes == 4 ? rnd_below(60000) : delta;
            struct prim_mode mode = { .kind = PRIM_M_POINTS, .wide = wide };
            vfetch_prim_ref_indexed(&mode, &g, 1, src, count, d, host_restart, want);
            test_checks++;
            if (count)
                dsp->convert(src, count, &g, d, host_restart, wide, out, NULL);
            if (memcmp(out, want, count * w)) {
                if (reports++ < 10)
                    printf("  prim-index %s convert u%u%s restart %d to %u bits: %u entries, "
                           "delta %u: differs\n", level, 8 * g.bytes, g.big ? " big" : "",
                           g.restart, wide ? 32 : 16, count, d);
                test_failures++;
            }
            /* again with the range: the same indices, and the entries' range as the scan's */
            uint32_t want_range[2], range[2] = { 7, 7 };
            vfetch_prim_scan_ref(src, count, &g, &want_range[0], &want_range[1]);
            test_checks++;
            memset(out, 0x5a, count * w);
            if (count)
                dsp->convert(src, count, &g, d, host_restart, wide, out, range);
            else
                range[0] = want_range[0], range[1] = want_range[1];
            if (memcmp(out, want, count * w) || range[0] != want_range[0] || range[1] != want_range[1]) {
                if (reports++ < 10)
                    printf("  prim-index %s convert with range u%u%s restart %d to %u bits: %u "
                           "entries, delta %u: range %u..%u, want %u..%u\n", level, 8 * g.bytes,
                           g.big ? " big" : "", g.restart, wide ? 32 : 16, count, d, range[0],
                           range[1], want_range[0], want_range[1]);
                test_failures++;
            }
            if (narrow_alloc)
                guard_free(narrow_alloc);
            guard_free(ref_alloc);
            guard_free(out_alloc);
            guard_free(in_alloc);
        }
    }
}

void check_prim_index(void)
{
    if (!checkasm_wants("prim-index"))
        return;
    rng_seed_for("prim-index");
    const unsigned before = test_failures;
    void *want = malloc(6 * (size_t)8192 * 4);
    if (!want)
        exit(2);
    const unsigned mask = vfetch_get_cpu_mask();
    unsigned draws = 0;
    for (unsigned l = 0; l <= num_levels; l++) { /* the reference level "c" first */
        vfetch_set_cpu_mask(l ? level_mask(l - 1) : 0);
        const char *level = l ? levels[l - 1].name : "c";
        if (l) {
            struct vfetch_prim_dsp dsp;
            vfetch_prim_dsp_init(&dsp, level_mask(l - 1));
            check_kernels_at(&dsp, level);
        }
        for (unsigned pi = 0; pi < 18; pi++)
            for (unsigned f = 0; f < 3 * 2 * 2 * 2 * 2 * 2; f++) {
                const int options = f / 48; /* host fans, yuzu's orders, the narrowest */
                if (pi >= 14 && !options)
                    continue; /* (R300's twins) */
                static const uint8_t sizes[3] = { 1, 2, 4 };
                struct vfetch_prim_desc d;
                vfetch_prim_desc_init(&d);
                d.frontend = pi < 10 ? VFETCH_PRIM_R300 : VFETCH_PRIM_MAXWELL;
                d.primitive = pi < 10 ? r300_primitives[pi] : maxwell_own[pi - 10];
                d.host_fans = d.yuzu_orders = d.narrowest = (uint8_t)options;
                d.guest_index_bytes = sizes[f % 3];
                d.guest_big_endian = (uint8_t)((f / 3) % 2);
                d.guest_restart = (uint8_t)((f / 6) % 2);
                d.range = (uint8_t)((f / 12) % 2);
                d.index_type = (f / 24) % 2 ? VFETCH_INDEX_U32 : VFETCH_INDEX_U16;
                d.guest_restart_index = rnd_below(4) ? 0xffffffffu >> (32 - 8 * d.guest_index_bytes)
                                                     : rnd_below(3);
                d.guest_provoking = (enum vfetch_prim_provoking)rnd_below(2);
                d.host_provoking = d.primitive == 0xD && d.frontend == VFETCH_PRIM_MAXWELL
                                       ? d.guest_provoking
                                       : (enum vfetch_prim_provoking)rnd_below(2);
                vfetch_prim_plan *plan;
                if (vfetch_prim_compile(&d, &plan)) {
                    test_failures++;
                    continue;
                }
                /* quick mode: one larger count, not three (they were most of its time) */
                for (uint32_t c = 0; c <= 48 + (opt_quick ? 1 : 3); c++) {
                    const uint32_t count = c <= 48 ? c : 100 + rnd_below(8000);
                    /* entries below a bound: small (a 16-bit output holds them) or the type's */
                    const uint32_t bound = rnd_below(4) ? 1 + rnd_below(300) : 0xffffffffu;
                    const uint32_t base = rnd_below(2) ? 0 : rnd_below(70000);
                    run_indexed_case(plan, level, d.primitive, count, base, bound, want);
                    draws++;
                }
                vfetch_prim_plan_free(plan);
            }
    }
    vfetch_set_cpu_mask(mask);
    free(want);
    printf("  prim-index: %u draws (10 R300 and 4 Maxwell adjacency primitives x u8/u16/u32 x byte "
           "order x restart x range x 16/32 bits x the options, 4 more of Maxwell's in yuzu's "
           "orders, counts 0-48 and %s to 8,100, at %u levels and "
           "the reference) and the scan and convert kernels against the reference%s\n", draws,
           opt_quick ? "one" : "three", num_levels, test_failures == before ? "" : "  FAILED");
}
