/*
 * checkasm: record programs, through vfetch_run. Random valid vertex formats (several streams,
 * byte orders, ops, masks, overlapping writes, padded output strides), run on exact guarded
 * buffers, directly and through index buffers, with every program variant a level can choose
 * (AVX-512: 32/64/128-byte windows, 16-byte windows, and the 256-bit program), against the
 * reference-only plan. The share of formats that get a record program is asserted, and that
 * every whole-vector window is the smallest that holds its bytes. Then the tails after whole
 * groups, the in-place path at a binding's end, every specialised loop from a format built for
 * it (RGBA8 packing too), and which width an AVX-512 plan runs. --kernel record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"

/* The reference run of a format, its buffers at either end of their guard pages. */
static bool reference_run_make(const struct vfetch_plan_desc *d, struct reference_run *rr,
                               uint32_t count)
{
    return reference_run_make_at(d, rr, count, -1);
}

/* The specialised-loop key of a vector's passes (record_tmpl.c's RP_VARIANTS128): its common
   passes as 8 bits. Vectors with a rare pass run the generic loop and count as that key too. */
static unsigned record_variant_index(unsigned passes)
{
    static const unsigned common[8] = { VFETCH_RP_LOAD, VFETCH_RP_FIXED, VFETCH_RP_SHIFT,
                                        VFETCH_RP_DIV,  VFETCH_RP_HALF,  VFETCH_RP_KEEP,
                                        VFETCH_RP_WIDEN, VFETCH_RP_BLEND };
    unsigned key = 0;
    for (unsigned b = 0; b < 8; b++)
        key |= (passes & common[b]) ? 1u << b : 0;
    return key;
}

/*
 * A format built for one record loop, at every level whose record program has more than
 * min_lanes lanes: every vector must lower to the loop (key_of(passes) == key), and the run
 * must equal the reference. Returns the levels run.
 */
static unsigned run_loop_variant(const struct vfetch_plan_desc *d, const struct reference_run *rr,
                                 unsigned min_lanes, unsigned (*key_of)(unsigned passes),
                                 unsigned key, const char *what)
{
    unsigned levels_run = 0;
    for (unsigned l = 0; l < num_levels; l++) {
        if (!levels[l].dsp.record || levels[l].dsp.record_lanes <= min_lanes)
            continue;
        vfetch_plan *plan = plan_at_level(d, l);
        if (!plan)
            continue;
        CHECK(plan->record != NULL);
        for (unsigned k = 0; plan->record && k < plan->record->num_vectors; k++)
            CHECK_EQ(key_of(plan->record->vec[k].passes), key);
        char detail[96];
        snprintf(detail, sizeof detail, "loop variant %#x, %u vertices%s", key, rr->b.count,
                 rr->b.idx ? ", indexed" : "");
        reference_run_compare(plan, rr, what, levels[l].name, detail);
        vfetch_plan_free(plan);
        levels_run++;
    }
    return levels_run;
}

/* A vector's passes but raw lanes (which every loop handles), PACK8 by table counted as
   PACK8: the PACK8 loops' key. */
static unsigned passes_but_raw(unsigned passes)
{
    if (passes & VFETCH_RP_PACK8_LUT)
        passes = (passes & ~(unsigned)VFETCH_RP_PACK8_LUT) | VFETCH_RP_PACK8;
    return passes & ~(unsigned)VFETCH_RP_RAW;
}

/* Whether a level's program packs RGBA8 by table (PACK8_LUT: AVX-512 VBMI, every field of 4..6
   bits) rather than by shifts: checked on every vector with PACK8 lanes. */
static void check_pack8_by_table(const struct vfetch_plan_desc *d, unsigned l)
{
    vfetch_plan *plan = plan_at_level(d, l);
    if (!plan)
        return;
    const struct vfetch_record_prog *prog = plan->record;
    for (unsigned k = 0; prog && k < prog->num_vectors; k++) {
        const unsigned passes = prog->vec[k].passes;
        if (!(passes & (VFETCH_RP_PACK8 | VFETCH_RP_PACK8_LUT)))
            continue;
        const bool table = prog->lanes == 16 && levels[l].dsp.record_wide_windows;
        CHECK_EQ(!!(passes & VFETCH_RP_PACK8_LUT), table);
        CHECK_EQ(!!(passes & VFETCH_RP_PACK8), !table);
    }
    vfetch_plan_free(plan);
}

/*
 * Every specialised record loop (record_tmpl.c), each from a format built for it: one vec4
 * whose lanes are a fixed-point lane of the key's shift/divide/widening kind, a binary16
 * lane, a kept lane, as the key asks, else float32 bits or a constant (a blended key) or more
 * of the fixed-point lane (one without a blend). Every reachable key of the 256 (36: shift
 * and divide come with fixed-point lanes, which like binary16 need loads; widening a 5-bit
 * field comes with shift and divide; a blend comes with fixed-point lanes, always beside
 * binary16 ones), checked to lower to exactly that key at every level with a record executor,
 * and run against the reference.
 */
static void check_record_variants(void)
{
    rng_seed_for("record-variants");
    unsigned keys_checked = 0;
    for (unsigned key = 0; key < 256; key++) {
        const bool load = key & 1, fixed = key >> 1 & 1, shift = key >> 2 & 1, div = key >> 3 & 1;
        const bool half = key >> 4 & 1, keep = key >> 5 & 1, widen = key >> 6 & 1;
        const bool blend = key >> 7 & 1;
        const unsigned passes = (load ? VFETCH_RP_LOAD : 0) | (fixed ? VFETCH_RP_FIXED : 0) |
                                (shift ? VFETCH_RP_SHIFT : 0) | (div ? VFETCH_RP_DIV : 0) |
                                (half ? VFETCH_RP_HALF : 0) | (keep ? VFETCH_RP_KEEP : 0) |
                                (widen ? VFETCH_RP_WIDEN : 0) | (blend ? VFETCH_RP_BLEND : 0);
        if (!VFETCH_RP_REACHABLE(passes))
            continue; /* not reachable: no loop compiled (record.h) */
        struct vfetch_plan_desc d;
        vfetch_plan_desc_init(&d);
        d.num_streams = 1;
        d.streams[0].stride = 16;
        d.streams[0].order = (enum vfetch_byte_order)rnd_below(5);
        d.out_slots = 4;
        unsigned lane = 0;
        /* one op per lane, writing that lane only */
#define ADD_LANE(fmt, conv, off)                                                            \
        do {                                                                                \
            struct vfetch_op *op_ = &d.ops[d.num_ops++];                                    \
            op_->format = (fmt);                                                            \
            op_->conversion = (conv);                                                       \
            op_->count = vfetch_format_info[fmt].packed ? vfetch_format_info[fmt].max_count : 1; \
            for (unsigned c_ = 0; c_ < 4; c_++) {                                           \
                op_->src[c_].offset = (off);                                                \
                op_->swizzle[c_] = 0;                                                       \
            }                                                                               \
            op_->write_mask = (uint8_t)(1u << lane);                                        \
            lane++;                                                                         \
        } while (0)
        /* the fixed-point lane: once, or in every written lane when nothing is blended */
        for (unsigned f = 0; fixed && f < (blend ? 1u : 4u - keep); f++) {
            if (widen) /* red of rgb565: 5 bits widened to 8 */
                ADD_LANE(VFETCH_FORMAT_RGB565, VFETCH_CONV_UNORM8, 0);
            else
                ADD_LANE(shift ? VFETCH_FORMAT_FIXED_10_10_10 : VFETCH_FORMAT_FIXED16,
                         div ? VFETCH_CONV_UNORM : VFETCH_CONV_UINT, 0);
        }
        if (half)
            ADD_LANE(VFETCH_FORMAT_FLOAT16, VFETCH_CONV_FLOAT, 4);
        if (load && !fixed && !half)
            ADD_LANE(VFETCH_FORMAT_FLOAT32, VFETCH_CONV_FLOAT, 8);
        if (keep)
            lane++; /* not written */
        while (lane < 4) { /* constant 1.0 */
            struct vfetch_op *op = &d.ops[d.num_ops++];
            op->format = VFETCH_FORMAT_FLOAT32;
            op->conversion = VFETCH_CONV_FLOAT;
            op->count = 1;
            op->src[0].offset = 12;
            memset(op->swizzle, VFETCH_SWIZZLE_1, 4);
            op->write_mask = (uint8_t)(1u << lane++);
        }
#undef ADD_LANE
        struct reference_run rr;
        if (!reference_run_make(&d, &rr, RUN_RANDOM_COUNT))
            continue;
        run_loop_variant(&d, &rr, 0, record_variant_index, key, "record-variant");
        keys_checked++;
        reference_run_free(&rr);
    }
    vfetch_set_cpu_mask(~0u);
    CHECK_EQ(keys_checked, 36);
    printf("  record loop variants: %u keys lowered to exactly their loop and run at every "
           "level\n", keys_checked);
}

/*
 * RGBA8 from the 4..8-bit fields of one packed container (PACK8 lanes: RGB565, RGBA4444,
 * RGBA6666): every 16-bit container value, and for 24-bit containers every combination of
 * the first two 6-bit fields with scrambled values in the other two (each lane converts its
 * fields independently; every value of every field occurs), in both byte orders, packed
 * tight (one slot per vertex) and after a float32 position (a GX packed vertex, the color in
 * slot 3 of 4); each must lower to a record program at every
 * level with one, and every program variant must equal the reference, against guard pages.
 */
static void check_record_pack8(void)
{
    unsigned formats = 0;
    for (unsigned f = 0; f < VFETCH_FORMAT_COUNT; f++) {
        const struct vfetch_format_info *fi = &vfetch_format_info[f];
        if (!fi->packed || !vfetch_format_fields_widen8((enum vfetch_format)f))
            continue;
        formats++;
        const uint32_t count = fi->container == 2 ? 1u << 16 : 1u << 12;
        for (unsigned layout = 0; layout < 4; layout++) {
            const bool big = layout & 1, offset = layout & 2;
            struct vfetch_plan_desc d;
            vfetch_plan_desc_init(&d);
            d.num_streams = 1;
            d.streams[0].stride = offset ? 12u + fi->container : fi->container;
            d.streams[0].order = big ? VFETCH_ORDER_BIG_ENDIAN : VFETCH_ORDER_LITTLE;
            d.num_ops = 1;
            d.out_slots = 1;
            d.ops[0] = (struct vfetch_op){ .format = (enum vfetch_format)f,
                                           .conversion = VFETCH_CONV_PACK_UNORM8,
                                           .count = fi->max_count, .swizzle = { 0, 1, 2, 3 },
                                           .write_mask = 1 };
            for (unsigned c = 0; c < 4; c++)
                d.ops[0].src[c].offset = offset ? 12 : 0;
            if (offset) { /* a GX packed vertex: float32 position, then the color in slot 3 */
                d.ops[1] = (struct vfetch_op){ .format = VFETCH_FORMAT_FLOAT32,
                                               .conversion = VFETCH_CONV_FLOAT, .count = 3,
                                               .swizzle = { 0, 1, 2, 3 }, .write_mask = 7 };
                for (unsigned c = 0; c < 3; c++)
                    d.ops[1].src[c].offset = 4 * c;
                d.ops[0].dst_slot = 3;
                d.num_ops = 2;
                d.out_slots = 4;
            }
            const size_t in_size = (size_t)count * d.streams[0].stride,
                         out_size = (size_t)count * 4 * d.out_slots;
            uint8_t *in_alloc, *in = place(in_size, layout & 1, 0, &in_alloc);
            rnd_fill(in, in_size);
            for (uint32_t i = 0; i < count; i++) {
                const uint32_t v = fi->container == 2 ? i : i | ((i * 2654435761u) & 0xfff000);
                uint8_t *at = in + (size_t)i * d.streams[0].stride + (offset ? 12 : 0);
                for (unsigned b = 0; b < fi->container; b++)
                    at[big ? fi->container - 1 - b : b] = (uint8_t)(v >> 8 * b);
            }
            const struct vfetch_binding bind = { in, in_size };
            struct vfetch_run_params p;
            vfetch_run_params_init(&p);
            p.streams = &bind;
            p.num_streams = 1;
            p.count = count;
            p.out_size = out_size;
            uint8_t *want = malloc(out_size);
            vfetch_set_cpu_mask(0);
            vfetch_plan *ref = NULL;
            CHECK_EQ(vfetch_plan_compile(&d, &ref), 0);
            p.out = want;
            CHECK_EQ(vfetch_run(ref, &p), 0);
            vfetch_plan_free(ref);
            for (unsigned l = 0; l < num_levels; l++) {
                if (!levels[l].dsp.record)
                    continue;
                vfetch_plan *plan = plan_at_level(&d, l);
                if (!plan)
                    continue;
                /* every level with a record program takes them (record.c) */
                CHECK(plan->record != NULL);
                struct variant v[4];
                const unsigned nv = level_variants(&levels[l], v);
                for (unsigned j = 0; j < nv; j++) {
                    if (v[j].fn) { /* the chosen one runs either way */
                        const bool lowered = plan_use_variant(plan, &v[j]) != NULL;
                        CHECK(lowered);
                        if (!lowered)
                            continue;
                    }
                    uint8_t *out_alloc, *out = place(out_size, j & 1, 0, &out_alloc);
                    p.out = out;
                    CHECK_EQ(vfetch_run(plan, &p), 0);
                    char detail[96];
                    snprintf(detail, sizeof detail, "%s pack_unorm8, %s, stride %u, %s program",
                             fi->name, big ? "big-endian" : "little", d.streams[0].stride, v[j].name);
                    compare_outputs("record-pack8", levels[l].name, detail, want, out, out_size,
                                    4 * d.out_slots, NULL, 0, 0);
                    guard_free(out_alloc);
                }
                vfetch_plan_free(plan);
            }
            free(want);
            guard_free(in_alloc);
        }
    }
    vfetch_set_cpu_mask(~0u);
    CHECK(formats >= 3);
    printf("  record programs packing RGBA8 from packed fields: %u formats, every field value, "
           "every level\n", formats);
}

/*
 * The loop variants of vectors with PACK8 lanes (RGBA8 from a packed container, GX's packed
 * layout): a PACK8 lane with fixed-point lanes (plain or packed fields, which shift) or none,
 * and a kept lane or none; each lowers to exactly that pass set at every level with a record
 * program, and runs against the reference.
 */
static void check_record_pack8_variants(void)
{
    rng_seed_for("record-pack8-variants");
    unsigned keys_checked = 0;
    for (unsigned key = 0; key < 6; key++) {
        const unsigned fixed = key % 3; /* 0 none, 1 fixed16, 2 fixed_10_10_10 (shifts) */
        const bool keep = key / 3;
        const unsigned want = VFETCH_RP_LOAD | VFETCH_RP_PACK8 |
                              (fixed ? VFETCH_RP_FIXED | VFETCH_RP_BLEND : 0) |
                              (fixed == 2 ? VFETCH_RP_SHIFT : 0) |
                              (keep ? VFETCH_RP_KEEP : 0);
        struct vfetch_plan_desc d;
        vfetch_plan_desc_init(&d);
        d.num_streams = 1;
        d.streams[0].stride = 8;
        d.streams[0].order = rnd_below(2) ? VFETCH_ORDER_BIG_ENDIAN : VFETCH_ORDER_LITTLE;
        d.out_slots = 4;
        struct vfetch_op *op = &d.ops[d.num_ops++];
        *op = (struct vfetch_op){ .format = VFETCH_FORMAT_RGB565,
                                  .conversion = VFETCH_CONV_PACK_UNORM8, .count = 3,
                                  .swizzle = { 0, 1, 2, 3 }, .write_mask = 1 };
        if (fixed) {
            op = &d.ops[d.num_ops++];
            *op = (struct vfetch_op){ .format = fixed == 2 ? VFETCH_FORMAT_FIXED_10_10_10
                                                           : VFETCH_FORMAT_FIXED16,
                                      .conversion = VFETCH_CONV_UINT,
                                      .count = fixed == 2 ? 3 : 1, .dst_slot = 1,
                                      .swizzle = { 0, 1, 2, 3 }, .write_mask = 1 };
            for (unsigned c = 0; c < 4; c++)
                op->src[c].offset = 4;
        }
        for (unsigned slot = 1 + (fixed != 0) + keep; slot < 4; slot++) { /* constant 1.0 */
            op = &d.ops[d.num_ops++];
            *op = (struct vfetch_op){ .format = VFETCH_FORMAT_FLOAT32,
                                      .conversion = VFETCH_CONV_FLOAT, .count = 1,
                                      .dst_slot = (uint16_t)slot, .write_mask = 1 };
            memset(op->swizzle, VFETCH_SWIZZLE_1, 4);
        }
        struct reference_run rr;
        if (!reference_run_make(&d, &rr, RUN_RANDOM_COUNT)) {
            CHECK(!"reference run");
            continue;
        }
        keys_checked +=
            run_loop_variant(&d, &rr, 0, passes_but_raw, want, "record-pack8-variant") > 0;
        for (unsigned l = 0; l < num_levels; l++)
            if (levels[l].dsp.record)
                check_pack8_by_table(&d, l);
        reference_run_free(&rr);
    }
    vfetch_set_cpu_mask(~0u);
    bool any = false;
    for (unsigned l = 0; l < num_levels; l++)
        any |= levels[l].dsp.record != NULL;
    CHECK_EQ(keys_checked, any ? 6u : 0u);
    printf("  record loop variants with RGBA8 packing: %u of 6 pass sets lowered and run\n",
           keys_checked);
}

/* Whole-vector windows (AVX-512 VBMI) are the smallest of 32, 64 and 128 bytes that hold the
   vector's bytes (record.c), so that they end inside the shortest groups: a window of 64 must
   span more than 32 bytes, one of 128 more than 64. Counts the vectors of each kind. */
static void check_window_sizes(const struct vfetch_record_prog *prog, unsigned counts[4])
{
    for (unsigned k = 0; k < prog->num_vectors; k++) {
        const struct vfetch_rp_vector *v = &prog->vec[k];
        if (!(v->passes & VFETCH_RP_LOAD))
            continue;
        counts[v->window]++;
        if (v->window == VFETCH_RP_WINDOW_16)
            continue;
        unsigned lo = 255, hi = 0;
        for (unsigned b = 0; b < 64; b++)
            if (v->zmask >> b & 1) {
                lo = v->ctrl[b] < lo ? v->ctrl[b] : lo;
                hi = v->ctrl[b] > hi ? v->ctrl[b] : hi;
            }
        const unsigned span = hi >= lo ? hi - lo + 1 : 0;
        const unsigned size = vfetch_rp_window_bytes(v->window);
        CHECK(span <= size);
        CHECK(v->window == VFETCH_RP_WINDOW_32 || 2 * span > size);
    }
}

static void check_record_programs(void)
{
    rng_seed_for("record");
    const unsigned plans = opt_quick ? 300 : 1500;
    unsigned with_record[5] = { 0 }, regular_with_record[5] = { 0 }, regular_plans = 0;
    unsigned before = test_failures;
    /* Which specialised loops ran (record_tmpl.c: one per set of common passes), per level. */
    uint64_t variants_run[5][4] = { { 0 } };
    unsigned window_kinds[5][4] = { { 0 } }; /* vectors per enum vfetch_rp_window */
    for (unsigned i = 0; i < plans; i++) {
        struct vfetch_plan_desc d;
        const bool regular = random_plan_desc(&d);
        regular_plans += regular;
        struct reference_run rr;
        if (!reference_run_make(&d, &rr, RUN_RANDOM_COUNT))
            continue;
        const struct run_buffers b = rr.b;
        const bool head = rr.head;
        const uint8_t *want = rr.want, *pattern = rr.pattern;

        for (unsigned l = 0; l < num_levels; l++) {
            vfetch_plan *plan = plan_at_level(&d, l);
            if (!plan)
                continue;
            with_record[l] += plan->record != NULL;
            regular_with_record[l] += regular && plan->record != NULL;
            if (getenv("CHECKASM_SHOW_IRREGULAR") && regular && !plan->record && levels[l].dsp.record) {
                char text[4096];
                vfetch_plan_describe(plan, text, sizeof text);
                fprintf(stderr, "%s", text);
            }
            struct variant v[4];
            const unsigned nv = level_variants(&levels[l], v);
            for (unsigned j = 0; j < nv; j++) {
                if (v[j].fn && !plan_use_variant(plan, &v[j]))
                    continue;
                for (unsigned k = 0; plan->record && k < plan->record->num_vectors; k++) {
                    const unsigned key = record_variant_index(plan->record->vec[k].passes);
                    variants_run[l][key / 64] |= 1ull << key % 64;
                }
                if (plan->record)
                    check_window_sizes(plan->record, window_kinds[l]);
                uint8_t *out_alloc;
                uint8_t *out = place(b.out_size, head, 0, &out_alloc);
                memcpy(out, pattern, b.out_size);
                const bool flush = rnd_below(2);
                fp_flush_begin(flush, levels[l].bit);
                const int rc = run_with(plan, &b, out);
                fp_flush_end(flush);
                CHECK_EQ(rc, 0);
                char detail[96];
                snprintf(detail, sizeof detail, "random plan %u, %s program, %u vertices%s%s", i,
                         v[j].name, b.count, b.idx ? ", indexed" : "", flush ? ", FTZ/DAZ" : "");
                if (!compare_outputs("record", levels[l].name, detail, want, out, b.out_size,
                                     vfetch_plan_out_stride(plan), NULL, 0, 0) &&
                    mismatch_reports <= 10) {
                    char text[4096];
                    vfetch_plan_describe(plan, text, sizeof text);
                    fprintf(stderr, "%s", text);
                }
                guard_free(out_alloc);
            }
            vfetch_plan_free(plan);
        }
        reference_run_free(&rr);
    }
    vfetch_set_cpu_mask(~0u);
    for (unsigned l = 0; l < num_levels; l++) {
        printf("  record programs at %-7s %u of %u random formats, %u of %u regular ones %s\n",
               levels[l].name, with_record[l], plans, regular_with_record[l], regular_plans,
               test_failures == before ? "ok" : "FAILED");
        /* A level with a record executor must take the fast path for every regular format. */
        if (levels[l].dsp.record)
            CHECK_EQ(regular_with_record[l], regular_plans);
        else
            CHECK_EQ(with_record[l], 0);
        if (levels[l].dsp.record) {
            unsigned n = 0;
            for (unsigned w = 0; w < 4; w++)
                for (uint64_t m = variants_run[l][w]; m; m &= m - 1)
                    n++;
            printf("  record loop variants at %-7s %u of 36 met by random formats (all 36: "
                   "check_record_variants)\n", levels[l].name, n);
            const unsigned *w = window_kinds[l];
            printf("  record windows at %-7s 16-byte per lane %u, whole vector 32/64/128 bytes "
                   "%u/%u/%u vectors\n", levels[l].name, w[VFETCH_RP_WINDOW_16],
                   w[VFETCH_RP_WINDOW_32], w[VFETCH_RP_WINDOW_64], w[VFETCH_RP_WINDOW_128]);
            /* VBMI levels meet every whole-vector window among the random formats */
            if (levels[l].dsp.record_wide_windows) {
                CHECK(w[VFETCH_RP_WINDOW_32] > 0);
                CHECK(w[VFETCH_RP_WINDOW_64] > 0);
                CHECK(w[VFETCH_RP_WINDOW_128] > 0);
            }
        }
    }
}

/* A plan's per-op kernels, each wrapped by per_op_counted, which counts its calls and runs
   it: a run that should convert every vertex with its record program must make none. */
static unsigned per_op_calls;
static const struct vfetch_op_exec *counted_ops;
static vfetch_convert_fn *counted_kernel[VFETCH_MAX_OPS];

static VFETCH_CONVERT_FN(per_op_counted)
{
    per_op_calls++;
    counted_kernel[op - counted_ops](op, base, stride, n, dst, dst_stride);
}

/*
 * The last vertices after the whole groups of a record program (lib/portable.c's tail) run as one more
 * group through the program, not through the per-op kernels: draws of r, G + r and 3G + r
 * vertices (1 <= r < G) of random formats, sequential and indexed, sources and output against
 * guard pages, output pre-filled (kept slots must stay), at every level and program variant.
 */
static void check_record_tail(void)
{
    rng_seed_for("record-tail");
    /* Random formats until every level with a record executor has run this many tails (many
       formats have no program or groups of one vertex at some level), at most 20 times as
       many formats. */
    const unsigned target = opt_quick ? 12 : 100;
    unsigned runs = 0, level_runs[5] = { 0 }, before = test_failures, i;
    for (i = 0; i < 20 * target; i++) {
        unsigned fewest = UINT32_MAX;
        for (unsigned l = 0; l < num_levels; l++)
            if (levels[l].dsp.record && level_runs[l] < fewest)
                fewest = level_runs[l];
        if (fewest >= target)
            break;
        struct vfetch_plan_desc d;
        random_plan_desc(&d);
        instanced_as_constant(&d);
        /* Records of a whole number of vectors have groups of one vertex on 4-lane levels
           (no tail): most plans get a stride of 1-3 slots more. */
        if (rnd_below(4))
            d.out_stride = 4 * (d.out_slots + 1 + rnd_below(3));
        for (unsigned l = 0; l < num_levels; l++) {
            if (!levels[l].dsp.record)
                continue;
            struct variant v[4];
            const unsigned nv = level_variants(&levels[l], v);
            /* each program alone, then the level's choice (which may keep a smaller program
               for short draws and the vertices after the last whole group: run.c) */
            for (unsigned j = 1; j <= nv; j++) {
                const unsigned vj = j < nv ? j : 0;
                vfetch_plan *plan = plan_at_level(&d, l);
                const struct vfetch_record_prog *prog = plan ? plan_use_variant(plan, &v[vj]) : NULL;
                if (!prog || prog->group == 1) {
                    vfetch_plan_free(plan);
                    continue;
                }
                /* Vectors of one pass set form one run (one dispatch each, record.c). */
                unsigned covered = 0, runs_seen = 0;
                uint16_t run_passes[64];
                for (unsigned k = 0; k < prog->num_vectors && prog->vec[k].run; k += prog->vec[k].run) {
                    for (unsigned m = 0; m < prog->vec[k].run && k + m < prog->num_vectors; m++)
                        CHECK_EQ(prog->vec[k + m].passes, prog->vec[k].passes);
                    for (unsigned m = 0; m < runs_seen && m < 64; m++)
                        CHECK(run_passes[m] != prog->vec[k].passes);
                    if (runs_seen < 64)
                        run_passes[runs_seen] = prog->vec[k].passes;
                    runs_seen++;
                    covered += prog->vec[k].run;
                }
                CHECK_EQ(covered, prog->num_vectors);
                /* Windows end at the group's last used byte where the group is at least a
                   window long (record.c): full groups then run in place, never staged. */
                for (unsigned s = 0; s < d.num_streams; s++) {
                    unsigned window = 0;
                    for (unsigned k = 0; k < prog->num_vectors; k++) {
                        const struct vfetch_rp_vector *vec = &prog->vec[k];
                        const unsigned size = vfetch_rp_window_bytes(vec->window);
                        const unsigned windows = vec->window ? 1 : prog->lanes / 4;
                        for (unsigned q = 0; q < windows; q++)
                            if ((vec->passes & VFETCH_RP_LOAD) && vec->stream[q] == s)
                                window = size > window ? size : window;
                    }
                    const uint64_t limit = (uint64_t)(prog->group - 1) * plan->desc.streams[s].stride +
                                           prog->record_hi[s]; /* constant streams: stride 0 */
                    if (window && limit >= window)
                        CHECK_EQ(prog->window_end[s], limit);
                }
                const uint32_t group = prog->group;
                uint32_t r = 1 + rnd_below(group - 1);
                const struct vfetch_record_prog *small = vj == 0 ? plan->record_small : NULL;
                if (small && group / small->group >= 2 && rnd_below(2)) /* whole small groups */
                    r = small->group * (1 + rnd_below(group / small->group - 1));
                const uint32_t count = (uint32_t[]){ r, group + r, 3 * group + r }[rnd_below(3)];
                struct reference_run rr;
                if (!reference_run_make(&d, &rr, count)) {
                    vfetch_plan_free(plan);
                    continue;
                }
                counted_ops = plan->ops;
                for (unsigned o = 0; o < plan->desc.num_ops; o++) {
                    counted_kernel[o] = plan->ops[o].convert;
                    plan->ops[o].convert = per_op_counted;
                }
                uint8_t *out_alloc;
                uint8_t *out = place(rr.b.out_size, rr.head, 0, &out_alloc);
                memcpy(out, rr.pattern, rr.b.out_size);
                per_op_calls = 0;
                CHECK_EQ(run_with(plan, &rr.b, out), 0);
                /* Per op only where run.c must: a group whose windows exceed the 16 KiB stage
                   or whose output exceeds the tail's 4 KiB stack copy, or gathered records
                   longer than their stride. */
                uint64_t windows = 0;
                bool fits = (uint64_t)group * vfetch_plan_out_stride(plan) <= 4096;
                for (unsigned s = 0; s < d.num_streams; s++) {
                    windows += prog->window_end[s];
                    fits &= !(rr.b.idx && d.streams[s].step == VFETCH_STEP_INDEXED &&
                              prog->record_hi[s] - prog->record_lo[s] > d.streams[s].stride);
                }
                if (fits && windows <= 16384)
                    CHECK_EQ(per_op_calls, 0);
                char detail[96];
                snprintf(detail, sizeof detail, "random plan %u, %s program, group %u, %u vertices%s",
                         i, v[vj].name, group, count, rr.b.idx ? ", indexed" : "");
                compare_outputs("record", levels[l].name, detail, rr.want, out, rr.b.out_size,
                                vfetch_plan_out_stride(plan), NULL, 0, 0);
                runs++;
                level_runs[l]++;
                guard_free(out_alloc);
                reference_run_free(&rr);
                vfetch_plan_free(plan);
            }
        }
    }
    vfetch_set_cpu_mask(~0u);
    printf("  record-program tails: %u runs of r, G + r, 3G + r vertices (%u random formats) %s\n",
           runs, i, test_failures == before ? "ok" : "FAILED");
    for (unsigned l = 0; l < num_levels; l++)
        if (levels[l].dsp.record)
            CHECK(level_runs[l] >= target);
}

/* Whether program prog runs `count` vertices from draw position `first` in place: whole groups,
   every window inside its binding (run.c's in-place path). */
static bool program_fits(const vfetch_plan *plan, const struct vfetch_record_prog *prog,
                         const struct vfetch_binding *bind, uint32_t first, uint32_t count)
{
    if (count % prog->group)
        return false;
    for (unsigned i = 0; i < prog->num_streams_read; i++) {
        const unsigned s = prog->streams_read[i];
        const uint64_t stride = vfetch_plan_get_desc(plan)->streams[s].stride;
        const uint64_t last = ((uint64_t)first + count - prog->group) * stride;
        if (last + prog->window_end[s] > bind[s].size)
            return false;
    }
    return true;
}

/* Whether the bytes the windows of a draw of whole groups read, from its first record on,
   total at most the in-place path's stack copy (lib/execute.h). */
static bool program_span_fits(const vfetch_plan *plan, const struct vfetch_record_prog *prog,
                              uint32_t count)
{
    uint64_t total = 0;
    for (unsigned i = 0; i < prog->num_streams_read; i++) {
        const unsigned s = prog->streams_read[i];
        total += (uint64_t)(count - prog->group) * vfetch_plan_get_desc(plan)->streams[s].stride +
                 prog->window_end[s];
    }
    return count % prog->group == 0 && total <= VFETCH_RUN_SMALL_SPAN;
}

/* Whether the vertices after a draw's whole groups run as one group from the in-place path's
   stack copies (run.c, run_short_tail): the windows of one group, and its output records. */
static bool program_tail_fits(const vfetch_plan *plan, const struct vfetch_record_prog *prog)
{
    uint64_t total = 0;
    for (unsigned i = 0; i < prog->num_streams_read; i++)
        total += prog->window_end[prog->streams_read[i]];
    return total <= VFETCH_RUN_SMALL_SPAN &&
           (uint64_t)prog->group * vfetch_plan_out_stride(plan) <= VFETCH_RUN_TAIL_OUT_BYTES;
}

/*
 * The in-place path (vfetch_execute with in_place_only) on draws whose buffers end at their last used
 * byte, against a guard page: it runs exactly when the draw's whole groups fit, or when their
 * program's windows pass the end and read at most the in-place path's stack copy in all (then by
 * the plan's program for small draws if it fits, record_small: an AVX-512 plan's 256-bit
 * program, else from that copy), and the vertices after them (a tail, or a draw shorter than
 * a group) fit one group's stack copies; and then equals the reference, at every level and
 * program variant. Counts of 1..4 of the small program's groups, or of the draw's, plus a
 * tail in a third of the draws.
 */
static void check_record_in_place(void)
{
    rng_seed_for("record-in-place");
    const unsigned target = opt_quick ? 12 : 60;
    unsigned level_runs[5] = { 0 }, level_small[5] = { 0 }, level_copied[5] = { 0 };
    unsigned level_long[5] = { 0 }, level_tail[5] = { 0 };
    unsigned before = test_failures, i;
    bool any_small = false;
    /* Until every count reaches its target: long draws that the in-place path declines are the
       rarest (on a Zen 4, whose AVX-512 plans run other programs and so draw the random numbers
       differently, 720 formats gave avx2 two), so the bound leaves room for them. */
    for (i = 0; i < 400 * target; i++) {
        bool done = true; /* enough draws at every level, and by the small program */
        for (unsigned l = 0; l < num_levels; l++)
            if (levels[l].dsp.record)
                done &= level_runs[l] >= target && level_copied[l] >= target / 4 &&
                        level_long[l] >= target / 4 && level_tail[l] >= target / 4 &&
                        (!levels[l].dsp.record_narrow || level_small[l] >= target / 4);
        if (done)
            break;
        struct vfetch_plan_desc d;
        random_plan_desc(&d);
        instanced_as_constant(&d);
        if (rnd_below(4))
            d.out_stride = 4 * (d.out_slots + 1 + rnd_below(3));
        for (unsigned l = 0; l < num_levels; l++) {
            if (!levels[l].dsp.record)
                continue;
            struct variant v[4];
            const unsigned nv = level_variants(&levels[l], v);
            /* each variant, then (AVX-512) the native program with the narrow one for small
               draws, whatever this CPU's choice (plan.c) */
            const unsigned both = levels[l].dsp.record_narrow ? 1 : 0;
            for (unsigned j = 0; j < nv + both; j++) {
                vfetch_plan *plan = plan_at_level(&d, l);
                const struct vfetch_record_prog *prog =
                    plan ? plan_use_variant(plan, &v[j < nv ? j : 1]) : NULL;
                if (prog && j == nv) {
                    plan->record_small =
                        vfetch_record_lower(plan, levels[l].dsp.record_narrow_lanes, 0);
                    plan->record_small_run = levels[l].dsp.record_narrow;
                    if (plan->record_small && plan->record_small->group >= prog->group)
                        prog = NULL; /* plan.c keeps a small program only with smaller groups */
                }
                if (!prog) {
                    vfetch_plan_free(plan);
                    continue;
                }
                const struct vfetch_record_prog *small = plan->record_small;
                const uint32_t unit = small && rnd_below(2) ? small->group : prog->group;
                /* short draws, and some long ones (past the stack copy: the general path) */
                const uint32_t tail = rnd_below(3) ? 0 : rnd_below(prog->group);
                const uint32_t count =
                    unit * (rnd_below(5) ? rnd_below(5) : 40 + rnd_below(30)) + tail;
                if (!count) {
                    vfetch_plan_free(plan);
                    continue;
                }
                struct reference_run rr;
                /* direct, every buffer ending at a guard page */
                if (!reference_run_make_at(&d, &rr, count | RUN_DIRECT, 0)) {
                    vfetch_plan_free(plan);
                    continue;
                }
                /* the program run_program picks for this count (run.c) */
                const struct vfetch_record_prog *chosen =
                    small && count < 2u * prog->group ? small : prog;
                const uint32_t whole = count & ~(chosen->group - 1), rest = count - whole;
                const bool tail_ok = !rest || program_tail_fits(plan, chosen);
                const bool fits =
                    !whole || program_fits(plan, chosen, rr.b.bind, rr.b.first, whole);
                const bool short_draw = whole && program_span_fits(plan, chosen, whole);
                const bool by_small = !fits && short_draw && chosen != small && small &&
                                      program_fits(plan, small, rr.b.bind, rr.b.first, whole);
                const bool copied = !fits && short_draw && !by_small;
                uint8_t *out_alloc, *out = place(rr.b.out_size, 0, 0, &out_alloc);
                memcpy(out, rr.pattern, rr.b.out_size);
                const struct vfetch_draw src = { .streams = rr.b.bind, .first = rr.b.first,
                                                   .count = count, .out = out,
                                                   .in_place_only = 1 };
                const int ran = vfetch_execute(plan, &src) == 0;
                CHECK_EQ(ran, plan->word_copy || (tail_ok && (fits || by_small || copied)));
                if (ran) {
                    char detail[112];
                    snprintf(detail, sizeof detail, "random plan %u, %s program, %u vertices%s%s",
                             i, j < nv ? v[j].name : "native and narrow", count,
                             by_small ? ", small program" : copied ? ", stack copy" : "",
                             rest ? ", tail" : "");
                    compare_outputs("record", levels[l].name, detail, rr.want, out,
                                    rr.b.out_size, vfetch_plan_out_stride(plan), NULL, 0, 0);
                    level_runs[l]++;
                    level_small[l] += by_small;
                    level_copied[l] += copied;
                    level_tail[l] += rest != 0;
                }
                level_long[l] += whole && !fits && !short_draw; /* left to the general path */
                any_small |= small != NULL;
                guard_free(out_alloc);
                reference_run_free(&rr);
                vfetch_plan_free(plan);
            }
        }
    }
    vfetch_set_cpu_mask(~0u);
    printf("  record programs by the in-place path at a binding's end: (%u random formats) %s\n", i,
           test_failures == before ? "ok" : "FAILED");
    for (unsigned l = 0; l < num_levels; l++)
        if (levels[l].dsp.record) {
            printf("    %-7s %u draws at once: %u by the program for small draws, %u from the "
                   "stack copy, %u with a tail; %u long ones declined\n", levels[l].name,
                   level_runs[l], level_small[l], level_copied[l], level_tail[l], level_long[l]);
            CHECK(level_runs[l] >= target);
            CHECK(level_copied[l] >= target / 4);
            CHECK(level_tail[l] >= target / 4);
            CHECK(level_long[l] >= target / 4);
            if (levels[l].dsp.record_narrow && any_small)
                CHECK(level_small[l] >= target / 4);
        }
}

/*
 * Which width an AVX-512 plan runs (lib/plan.c, docs/simd.md): the CPU rule by vendor and
 * family, and that plans follow it: on a CPU with full-width 512-bit units the 512-bit
 * program unless the 256-bit one is estimated cheaper even at half the 512-bit cost.
 */
static void check_wide_program_choice(void)
{
    CHECK_EQ(vfetch_cpu_family_splits_512(1, 0x19), 1); /* AMD Zen 4 */
    CHECK_EQ(vfetch_cpu_family_splits_512(1, 0x1a), 0); /* AMD Zen 5 */
    CHECK_EQ(vfetch_cpu_family_splits_512(1, 0x17), 0); /* Zen 2: no AVX-512 at all */
    CHECK_EQ(vfetch_cpu_family_splits_512(0, 0x6), 0);  /* Intel */
    unsigned l = 0;
    while (l < num_levels && levels[l].bit != VFETCH_CPU_AVX512)
        l++;
    if (l == num_levels || !levels[l].dsp.record_narrow)
        return;
    rng_seed_for("wide-choice");
    vfetch_set_cpu_mask(level_mask(l));
    unsigned wide = 0, plans = 0;
    for (unsigned i = 0; i < 200; i++) {
        struct vfetch_plan_desc d;
        random_plan_desc(&d);
        instanced_as_constant(&d);
        vfetch_plan *plan = NULL;
        CHECK_EQ(vfetch_plan_compile(&d, &plan), 0);
        if (!plan)
            continue;
        struct vfetch_record_prog *w = vfetch_record_lower(plan, 16, 1), *n = vfetch_record_lower(plan, 8, 0);
        if (w && n) {
            const uint64_t wc = vfetch_record_cost(w), nc = vfetch_record_cost(n);
            const bool want_narrow = vfetch_cpu_splits_512() ? 4 * nc <= 5 * wc : 2 * nc < wc;
            CHECK(plan->record != NULL);
            if (plan->record)
                CHECK_EQ(plan->record->lanes, want_narrow ? 8u : 16u);
            wide += plan->record && plan->record->lanes == 16;
            plans++;
        }
        free(w);
        free(n);
        vfetch_plan_free(plan);
    }
    vfetch_set_cpu_mask(~0u);
    printf("  avx512 plans: %u of %u with both widths run the 512-bit program (this CPU %s "
           "512-bit operations)\n", wide, plans, vfetch_cpu_splits_512() ? "splits" : "does not split");
}

void check_record(void)
{
    if (!checkasm_wants("record"))
        return;
    check_record_programs();
    check_record_tail();
    check_record_in_place();
    check_record_variants();
    /* check_record_pack8 draws its random bytes where check_record_variants leaves the
       generator (it seeds none of its own): run it right after, or a seed replays others. */
    check_record_pack8();
    check_record_pack8_variants();
    check_wide_program_choice();
}
