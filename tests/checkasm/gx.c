/*
 * checkasm: GX's kernels.
 * Gathered programs (GX indexed draws): each level's executor from random 16-byte pieces against
 *   the reference over the assembled records, pieces and outputs against guard pages
 *   (--kernel record).
 * GX index columns (lib/gx/run_indexed.c's row staging): the index reads and the address computation
 *   of every level against the reference, on exact guarded vertex bytes and columns
 *   (--kernel gx-index).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"

/*
 * Gathered programs (lib/record.h; GX draws with indexed attributes run them from the rows'
 * address columns): random one-stream formats, their record split into random moves of 1..16
 * bytes, each move of each vertex a 16-byte piece at its own place in a pool whose last piece
 * ends at a guard page (a piece is read as exactly 16 bytes; the bytes past the move's are
 * random). Every level's gathered executor, with every program variant that has one, must write
 * what the reference writes over the assembled records (whole groups), and nothing else of an
 * output against a guard page. Also asserts that both gather forms meet several registers.
 */
static void check_record_gather(void)
{
    if (!checkasm_wants("record"))
        return;
    rng_seed_for("record-gather");
    const unsigned plans = opt_quick ? 250 : 1000;
    unsigned lowered[5] = { 0 }, most_regs[5] = { 0 }, most_wide[5] = { 0 };
    const unsigned before = test_failures;
    for (unsigned i = 0; i < plans; i++) {
        struct vfetch_plan_desc d;
        random_plan_desc(&d);
        instanced_as_constant(&d);
        d.streams[0].step = VFETCH_STEP_SEQUENTIAL; /* staged records are read in order */
        const uint32_t stride = d.streams[0].stride;
        if (d.num_streams != 1 || !stride || stride > 255)
            continue;
        /* the moves: [0, stride) in pieces of 1..16 bytes */
        uint16_t dst[256], size[256];
        unsigned moves = 0;
        for (uint32_t at = 0; at < stride; moves++) {
            const uint32_t left = stride - at, n = 1 + rnd_below(left < 16 ? left : 16);
            dst[moves] = (uint16_t)at;
            size[moves] = (uint16_t)n;
            at += n;
        }
        /* records, and each move of each vertex at a random place of the pool */
        const uint32_t n = 16 * (1 + rnd_below(6)); /* whole groups of every program */
        uint8_t *records = malloc((size_t)n * stride);
        rnd_fill(records, (size_t)n * stride);
        const size_t pieces = (size_t)n * moves;
        uint8_t *pool = guard_alloc_tail(pieces * 16);
        rnd_fill(pool, pieces * 16);
        size_t *slot = malloc(pieces * sizeof *slot);
        for (size_t j = 0; j < pieces; j++)
            slot[j] = j;
        for (size_t j = pieces - 1; j > 0; j--) {
            const size_t k = rnd_below((uint32_t)j + 1), t = slot[j];
            slot[j] = slot[k];
            slot[k] = t;
        }
        uintptr_t *cols = malloc(pieces * sizeof *cols);
        for (unsigned m = 0; m < moves; m++)
            for (uint32_t v = 0; v < n; v++) {
                uint8_t *at = pool + 16 * slot[(size_t)m * n + v];
                memcpy(at, records + (size_t)v * stride + dst[m], size[m]);
                cols[(size_t)m * n + v] = (uintptr_t)at;
            }
        /* the reference over the records (a format whose record reads past its stride has
           no such records: not a staged layout) */
        vfetch_set_cpu_mask(0);
        vfetch_plan *ref = NULL;
        CHECK_EQ(vfetch_plan_compile(&d, &ref), 0);
        if (!ref || vfetch_plan_stream_extent(ref, 0) > stride) {
            vfetch_plan_free(ref);
            free(cols);
            free(slot);
            guard_free(pool);
            free(records);
            continue;
        }
        const size_t out_stride = vfetch_plan_out_stride(ref);
        const size_t out_size = (size_t)(n - 1) * out_stride + vfetch_plan_record_size(ref);
        uint8_t *pattern = malloc(out_size), *want = malloc(out_size);
        rnd_fill(pattern, out_size);
        memcpy(want, pattern, out_size);
        struct vfetch_run_params p;
        vfetch_run_params_init(&p);
        const struct vfetch_binding bind = { records, (size_t)n * stride };
        p.streams = &bind;
        p.num_streams = 1;
        p.count = n;
        p.out = want;
        p.out_size = out_size;
        CHECK_EQ(vfetch_run(ref, &p), 0);

        for (unsigned l = 0; l < num_levels; l++) {
            if (!levels[l].gx.gather)
                continue;
            vfetch_plan *plan = plan_at_level(&d, l);
            struct variant var[4];
            const unsigned nv = level_variants(&levels[l], var);
            for (unsigned j = 0; plan && j < nv; j++) {
                const struct vfetch_record_prog *prog = plan_use_variant(plan, &var[j]);
                if (!prog)
                    continue;
                vfetch_record_gather_fn *run = vfetch_gx_gather_for(&levels[l].gx, prog->lanes);
                struct vfetch_rp_gather *gp =
                    run ? vfetch_record_gather_lower(prog, stride, moves, dst, size,
                                                     prog->lanes == 16)
                        : NULL;
                if (!gp)
                    continue;
                lowered[l]++;
                unsigned *most = gp->wide ? &most_wide[l] : &most_regs[l];
                for (unsigned k = 0; k < prog->num_vectors; k++)
                    *most = gp->vec[k].regs > *most ? gp->vec[k].regs : *most;
                uint8_t *out = guard_alloc_tail(out_size);
                memcpy(out, pattern, out_size);
                run(gp, cols, n, n / prog->group, out);
                char detail[96];
                snprintf(detail, sizeof detail, "random plan %u, %s program, %u moves, %u vertices",
                         i, var[j].name, moves, n);
                compare_outputs("record-gather", levels[l].name, detail, want, out, out_size,
                                out_stride, NULL, 0, 0);
                guard_free(out);
                free(gp);
            }
            vfetch_plan_free(plan);
        }
        vfetch_plan_free(ref);
        free(pattern);
        free(want);
        free(cols);
        free(slot);
        guard_free(pool);
        free(records);
    }
    vfetch_set_cpu_mask(~0u);
    for (unsigned l = 0; l < num_levels; l++) {
        if (!levels[l].gx.gather)
            continue;
        printf("  gathered programs at %-7s %u lowered, up to %u registers a vector (lane-local), "
               "%u (wide) %s\n", levels[l].name, lowered[l], most_regs[l], most_wide[l],
               test_failures == before ? "ok" : "FAILED");
        CHECK(lowered[l] >= plans / 10);
        CHECK(most_regs[l] >= 2);
        if (levels[l].dsp.record_wide_windows)
            CHECK_EQ(most_wide[l], 2u);
    }
}

/*
 * gx_read_indices, gx_index_addrs and gx_read_index_addrs (the two in one pass) of every level
 * against the reference. Index columns:
 * vertex sizes 1..12 (every one that takes the byte-permute path) and some longer, both index
 * widths, every column length 1..VFETCH_GX_BLOCK in the full run, the index at every offset of
 * the vertex; the vertex bytes exact and against a guard page at their end (readable is the
 * exact byte count after the index: a window read past it faults) or at their start, and the
 * column exact against a guard page (a store past its n entries faults). Addresses: random
 * indices with some past the clamp, strides 0..300, safe ends around the offsets (the
 * addresses are only compared, never dereferenced).
 */
static void check_gx_index(void)
{
    if (!checkasm_wants("gx-index"))
        return;
    rng_seed_for("gx-index");
    static const unsigned vsizes[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 17, 36, 129 };
    const unsigned cases = opt_quick ? 300 : 3000;
    for (unsigned c = 0; c < cases; c++) {
        const unsigned vsize = vsizes[rnd_below(sizeof vsizes / sizeof vsizes[0])];
        const unsigned isize = vsize == 1 ? 1 : 1 + rnd_below(2);
        const unsigned src = rnd_below(vsize - isize + 1);
        const uint32_t n = c < VFETCH_GX_BLOCK ? c + 1 : 1 + rnd_below(VFETCH_GX_BLOCK);
        const bool head = rnd_below(4) == 0;
        const size_t bytes = (size_t)n * vsize;
        uint8_t *valloc, *vx = place(bytes, head, 0, &valloc);
        rnd_fill(vx, bytes);
        uint32_t want[VFETCH_GX_BLOCK];
        ref_gx.read_indices(vx + src, vsize, n, isize, bytes - src, want);
        for (uint32_t v = 0; v < n; v++) /* the reference is the plain big-endian read */
            CHECK_EQ(want[v], isize == 1 ? vx[v * vsize + src]
                                         : (uint32_t)vx[v * vsize + src] << 8 | vx[v * vsize + src + 1]);
        for (unsigned l = 0; l < num_levels; l++) {
            uint32_t *got = guard_alloc_tail(n * sizeof *got);
            levels[l].gx.read_indices(vx + src, vsize, n, isize, bytes - src, got);
            char detail[80];
            snprintf(detail, sizeof detail, "vsize %u, index %u bytes at %u, %u vertices", vsize,
                     isize, src, n);
            compare_outputs("gx-index", levels[l].name, detail, (const uint8_t *)want,
                            (const uint8_t *)got, n * sizeof *got, 4, NULL, 0, 0);
            guard_free(got);
        }

        /* addresses from a column with some indices past the clamp */
        uint32_t idx[VFETCH_GX_BLOCK];
        const uint32_t clamp = rnd_below(4) == 0 ? UINT32_MAX : rnd_below(0x10000);
        for (uint32_t v = 0; v < n; v++)
            idx[v] = rnd_below(8) == 0 ? rnd_below(0x10000) : rnd_below(clamp < 0x10000 ? clamp + 2 : 0x10000);
        const uint32_t stride = rnd_below(4) == 0 ? 0 : rnd_below(301);
        const uint64_t top = (uint64_t)(clamp < 0x10000 ? clamp : 0x10000) * stride;
        const uint64_t safe_end = rnd_below(3) == 0 ? 0 : rnd() % (top + 2);
        const uintptr_t base = (uintptr_t)rnd(), tail_addr = (uintptr_t)rnd();
        uintptr_t want_addr[VFETCH_GX_BLOCK];
        const uint32_t want_top =
            ref_gx.index_addrs(idx, n, clamp, stride, base, tail_addr, safe_end, want_addr);
        for (unsigned l = 0; l < num_levels; l++) {
            uintptr_t *got = guard_alloc_tail(n * sizeof *got);
            const uint32_t got_top = levels[l].gx.index_addrs(idx, n, clamp, stride, base,
                                                                  tail_addr, safe_end, got);
            char detail[80];
            snprintf(detail, sizeof detail, "clamp %u, stride %u, safe end %llu, %u indices", clamp,
                     stride, (unsigned long long)safe_end, n);
            CHECK_EQ(got_top, want_top);
            compare_outputs("gx-addrs", levels[l].name, detail, (const uint8_t *)want_addr,
                            (const uint8_t *)got, n * sizeof *got, sizeof *got, NULL, 0, 0);
            guard_free(got);
        }

        /* both in one pass, from the vertex bytes: what the two give */
        const uint32_t want_top2 = ref_gx.index_addrs(want, n, clamp, stride, base, tail_addr,
                                                      safe_end, want_addr);
        for (unsigned l = 0; l < num_levels; l++) {
            uintptr_t *got = guard_alloc_tail(n * sizeof *got);
            const uint32_t got_top = levels[l].gx.read_index_addrs(
                vx + src, vsize, n, isize, bytes - src, clamp, stride, base, tail_addr, safe_end,
                got);
            char detail[96];
            snprintf(detail, sizeof detail, "vsize %u, index %u bytes at %u, clamp %u, stride %u, %u vertices",
                     vsize, isize, src, clamp, stride, n);
            CHECK_EQ(got_top, want_top2);
            compare_outputs("gx-index-addrs", levels[l].name, detail, (const uint8_t *)want_addr,
                            (const uint8_t *)got, n * sizeof *got, sizeof *got, NULL, 0, 0);
            guard_free(got);
        }
        guard_free(valloc);
    }
}

void check_gx(void)
{
    check_record_gather();
    check_gx_index();
}
