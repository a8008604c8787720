/*
 * checkasm: the JIT tier's generated code (--kernel jit).
 * Random GX formats (VCD and VAT words, array strides, every layout and color output; a quarter
 * float-only, so that word copies are drawn) compiled with the JIT at every level that has it,
 * under VFETCH_JIT_COMPARE (the generated code runs every draw, whatever its crossover, beside
 * the level's portable tier, any difference aborting), and again at the reference level "c"
 * without it. The same draws run through both: vertices, arrays and output each ending at a
 * guard page (the output exactly as long as the records written), position indices at the skip
 * value, indices past their arrays, unbound arrays, outputs too short, both index policies,
 * every other format with FTZ and DAZ set. Return code, result and every output byte (the
 * output filled with the same random bytes first, so that a slot a plan keeps must be kept)
 * must agree. Also asserts that the random formats do get generated code (the coverage is
 * printed with the reasons of the rest), and that no mapping of the process is ever writable
 * and executable.
 */
#define _POSIX_C_SOURCE 200112L /* setenv: VFETCH_JIT_MEASURE for one compile */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "cpu.h"
#include "gx/gx_internal.h"
#include "jit/jit.h"
#include "vfetch/gx.h"
#include "vfetch/r300.h"

/* The levels with generated code: the SSE4.1 variant, and the AVX2 one (also at avx512). */
#define JIT_LEVELS (VFETCH_CPU_SSE41 | VFETCH_CPU_AVX2 | VFETCH_CPU_AVX512)

/* The mappings of this process that are writable and executable at once (from /proc). */
static unsigned wx_mappings(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return 0;
    char line[512];
    unsigned n = 0;
    while (fgets(line, sizeof line, f)) {
        char perms[8] = { 0 };
        if (sscanf(line, "%*s %7s", perms) == 1 && perms[1] == 'w' && perms[2] == 'x')
            n++;
    }
    fclose(f);
    return n;
}

/* A random format: each attribute present with some chance, random VAT words. */
static void random_gx_desc(struct vfetch_gx_desc *d)
{
    vfetch_gx_desc_init(d);
    uint32_t lo = 0, hi = 0;
    for (unsigned b = 0; b < 9; b++)
        lo |= (rnd_below(4) == 0) << b;
    for (unsigned a = 0; a < 4; a++)
        lo |= rnd_below(a == 0 ? 4 : 5) % 4 << (9 + 2 * a);
    for (unsigned t = 0; t < 8; t++)
        hi |= (rnd_below(3) == 0 ? rnd_below(4) : 0) << (2 * t);
    d->regs.vcd_lo = lo;
    d->regs.vcd_hi = hi;
    d->regs.vat_a = (uint32_t)rnd();
    d->regs.vat_b = (uint32_t)rnd();
    d->regs.vat_c = (uint32_t)rnd();
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
        d->array_stride[a] = (uint8_t)(rnd_below(4) == 0 ? rnd_below(256) : 4 * rnd_below(12));
    d->layout = (enum vfetch_gx_layout)rnd_below(5);
    d->color_output = (enum vfetch_gx_color_output)rnd_below(2);
    if (rnd_below(4) == 0) { /* a float format the captures have: a word copy where direct */
        d->regs.vcd_lo &= rnd_below(2) ? 0x1e00u : 0x0600u; /* position, and a normal */
        d->regs.vcd_lo |= 1u << 9;
        d->regs.vat_a = (d->regs.vat_a & ~(7u << 1 | 7u << 10 | 7u << 22)) | 4u << 1 | 4u << 10 |
                        4u << 22;
        d->regs.vat_b = (d->regs.vat_b & ~(7u << 1 | 7u << 10 | 7u << 19 | 7u << 28)) |
                        4u << 1 | 4u << 10 | 4u << 19 | 4u << 28;
        d->regs.vat_c = (d->regs.vat_c & ~(7u << 6 | 7u << 15 | 7u << 24)) | 4u << 6 | 4u << 15 |
                        4u << 24;
        d->layout = rnd_below(2) ? VFETCH_GX_LAYOUT_PACKED : VFETCH_GX_LAYOUT_DOLPHIN;
    }
}

struct gx_draw {
    uint8_t *vertices;
    size_t vertices_size;
    uint8_t *arrays[VFETCH_GX_NUM_ATTRS];
    size_t array_size[VFETCH_GX_NUM_ATTRS];
    uint32_t count;
    int policy;
};

/* A format's description from its register words and array strides, in `layout`. */
static void gx_desc_of(struct vfetch_gx_desc *d, const struct vfetch_gx_regs *regs,
                       const uint8_t stride[VFETCH_GX_NUM_ATTRS], enum vfetch_gx_layout layout)
{
    vfetch_gx_desc_init(d);
    d->regs = *regs;
    memcpy(d->array_stride, stride, sizeof d->array_stride);
    d->layout = layout;
}

/* The plan of d at the level in force, or NULL with one failed check counted. */
static vfetch_gx_plan *gx_compile_checked(const struct vfetch_gx_desc *d)
{
    vfetch_gx_plan *plan = NULL;
    if (vfetch_gx_compile(d, &plan)) {
        test_checks++;
        test_failures++;
        return NULL;
    }
    return plan;
}

/* A random draw of a format: vertex bytes with indices mostly inside arrays of random sizes. */
static void random_draw(const struct vfetch_gx_format *f, const struct vfetch_gx_desc *d,
                        struct gx_draw *w)
{
    memset(w, 0, sizeof *w);
    const unsigned r = rnd_below(10);
    w->count = r < 6 ? 1 + rnd_below(20) : r < 9 ? 1 + rnd_below(300) : 1 + rnd_below(3000);
    w->policy = (int)rnd_below(2);
    w->vertices_size = (size_t)w->count * f->vertex_size;
    w->vertices = guard_alloc_tail(w->vertices_size ? w->vertices_size : 1);
    rnd_fill(w->vertices, w->vertices_size);
    uint32_t elems[VFETCH_GX_NUM_ATTRS] = { 0 };
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
        if (f->attr[a].mode < VFETCH_GX_INDEX8)
            continue;
        if (rnd_below(200) == 0)
            continue; /* unbound */
        elems[a] = 1 + rnd_below(f->attr[a].mode == VFETCH_GX_INDEX8 ? 300 : 2000);
        const size_t stride = d->array_stride[a];
        size_t size = (elems[a] - 1) * stride + f->attr[a].element_size;
        if (rnd_below(4) == 0) /* slack past the last element */
            size += rnd_below(stride + 1);
        if (rnd_below(100) == 0 && size) /* short by a byte */
            size--;
        w->array_size[a] = size;
        w->arrays[a] = guard_alloc_tail(size ? size : 1);
        rnd_fill(w->arrays[a], size);
    }
    /* the indices in the vertices: the byte offsets of each attribute's index fields */
    uint32_t at = 0;
    for (unsigned b = 0; b < 9; b++)
        at += b == 0 ? f->pos_matrix_index : f->tex_matrix_index[b - 1];
    const unsigned out_of_range = rnd_below(20) == 0;
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
        const struct vfetch_gx_attr *at_ = &f->attr[a];
        if (at_->mode >= VFETCH_GX_INDEX8) {
            const unsigned size = at_->mode == VFETCH_GX_INDEX8 ? 1 : 2;
            for (uint32_t v = 0; v < w->count; v++)
                for (unsigned j = 0; j < at_->stream_size / size; j++) {
                    uint32_t idx = elems[a] ? rnd_below(elems[a]) : rnd_below(4);
                    if (out_of_range && rnd_below(8) == 0)
                        idx = elems[a] + rnd_below(4);
                    if (a == VFETCH_GX_POSITION && rnd_below(6) == 0)
                        idx = 0xffff; /* the skip value */
                    uint8_t *p = w->vertices + (size_t)v * f->vertex_size + at + j * size;
                    if (size == 1)
                        p[0] = (uint8_t)(idx > 0xff ? 0xff : idx);
                    else {
                        p[0] = (uint8_t)(idx >> 8);
                        p[1] = (uint8_t)idx;
                    }
                }
        }
        at += at_->stream_size;
    }
}

static void draw_free(struct gx_draw *w)
{
    guard_free(w->vertices);
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
        guard_free(w->arrays[a]);
}

/* A draw's parameters, into `out` of out_size bytes. */
static void draw_params(const struct gx_draw *w, uint8_t *out, size_t out_size,
                        struct vfetch_gx_run_params *p)
{
    vfetch_gx_run_params_init(p);
    p->vertices = w->vertices;
    p->vertices_size = w->vertices_size;
    p->count = w->count;
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
        p->arrays[a] = (struct vfetch_binding){ w->arrays[a], w->array_size[a] };
    p->index_policy = (enum vfetch_gx_index_policy)w->policy;
    p->out = out;
    p->out_size = out_size;
}

/* One draw through a plan into an output of `records` records ending at a guard page. */
static int run_draw(const vfetch_gx_plan *plan, const struct gx_draw *w, uint8_t *out,
                    size_t out_size, struct vfetch_gx_result *r)
{
    struct vfetch_gx_run_params p;
    draw_params(w, out, out_size, &p);
    return vfetch_gx_run(plan, &p, r);
}

static void check_jit_gx(void)
{
    rng_seed_for("jit-gx");
    const unsigned formats = opt_quick ? 300 : 1500;
    const unsigned before = test_failures, wx_before = wx_mappings();
    unsigned compiled = 0, generated = 0, draws = 0;
    const char *reasons[8] = { 0 };
    unsigned reason_count[8] = { 0 };
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    const unsigned mask = vfetch_get_cpu_mask();
    for (unsigned i = 0; i < formats; i++) {
        struct vfetch_gx_desc d;
        random_gx_desc(&d);
        vfetch_set_cpu_mask(0);
        vfetch_set_jit_mode(VFETCH_JIT_OFF);
        vfetch_gx_plan *ref;
        if (vfetch_gx_compile(&d, &ref))
            continue; /* a reserved color format */
        compiled++;
        const struct vfetch_gx_format *f = vfetch_gx_plan_format(ref);
        struct gx_draw w;
        random_draw(f, &d, &w);
        const uint32_t stride = vfetch_gx_plan_out_stride(ref);
        const size_t full = (size_t)w.count * stride;
        const size_t out_size = full && rnd_below(30) == 0 ? full - 1 - rnd_below(stride) : full;
        uint8_t *fill = malloc(out_size ? out_size : 1);
        uint8_t *want = guard_alloc_tail(out_size ? out_size : 1);
        uint8_t *got = guard_alloc_tail(out_size ? out_size : 1);
        rnd_fill(fill, out_size);
        memcpy(want, fill, out_size);
        struct vfetch_gx_result want_r = { 7, 7, 7 };
        const int want_err = run_draw(ref, &w, want, out_size, &want_r);
        for (unsigned l = 0; l < num_levels; l++) {
            if (!(levels[l].bit & JIT_LEVELS))
                continue;
            vfetch_set_cpu_mask(level_mask(l));
            /* compare: the generated code runs every draw, whatever the plan's crossover, beside
               the level's portable tier (a difference aborts); then against the reference */
            vfetch_set_jit_mode(VFETCH_JIT_COMPARE);
            vfetch_gx_plan *plan;
            if (vfetch_gx_compile(&d, &plan)) {
                test_failures++;
                continue;
            }
            struct vfetch_plan_info info;
            vfetch_gx_plan_info(plan, &info);
            if (info.jit)
                generated++;
            else {
                unsigned k = 0;
                while (k < 7 && reasons[k] && strcmp(reasons[k], info.jit_reason))
                    k++;
                reasons[k] = info.jit_reason;
                reason_count[k]++;
            }
            memcpy(got, fill, out_size);
            struct vfetch_gx_result got_r = { 7, 7, 7 };
            /* every other format with FTZ and DAZ set: the results must not move */
            const bool flush = i % 2;
            fp_flush_begin(flush, levels[l].bit);
            const int got_err = run_draw(plan, &w, got, out_size, &got_r);
            fp_flush_end(flush);
            draws++;
            test_checks++;
            if (got_err != want_err ||
                (!got_err && (got_r.written != want_r.written || got_r.skipped != want_r.skipped ||
                              got_r.clamped != want_r.clamped)) ||
                memcmp(got, want, out_size)) {
                test_failures++;
                if (mismatch_reports++ < 10) {
                    size_t at = 0;
                    while (at < out_size && got[at] == want[at])
                        at++;
                    fprintf(stderr,
                            "jit-gx %s: VCD %08x/%08x VAT %08x/%08x/%08x layout %d color %d, "
                            "%u vertices, policy %d: return %d (reference %d), written %u (%u), "
                            "skipped %u (%u), clamped %u (%u), first differing byte %zu of %zu "
                            "(record %zu, byte %zu)\n",
                            levels[l].name, d.regs.vcd_lo, d.regs.vcd_hi, d.regs.vat_a,
                            d.regs.vat_b, d.regs.vat_c, d.layout, d.color_output, w.count,
                            w.policy, got_err, want_err, got_r.written, want_r.written,
                            got_r.skipped, want_r.skipped, got_r.clamped, want_r.clamped, at,
                            out_size, stride ? at / stride : 0, stride ? at % stride : 0);
                }
            }
            vfetch_gx_plan_free(plan);
        }
        free(fill);
        guard_free(want);
        guard_free(got);
        draw_free(&w);
        vfetch_gx_plan_free(ref);
    }
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    const unsigned wx = wx_mappings();
    test_checks++;
    if (wx > wx_before) {
        test_failures++;
        fprintf(stderr, "jit-gx: %u mappings writable and executable at once\n", wx - wx_before);
    }
    unsigned jit_levels = 0;
    for (unsigned l = 0; l < num_levels; l++)
        jit_levels += !!(levels[l].bit & JIT_LEVELS);
    if (jit_levels && vfetch_jit_available()) {
        /* Nearly every random format gets code (what may not is listed below). */
        test_checks++;
        if (generated * 10 < compiled * jit_levels * 9)
            test_failures++;
    }
#if VFETCH_HAVE_JIT
    const char *memory = vfetch_jit_memory_method();
    const char *forced = getenv("VFETCH_JIT_MEMORY");
    if (forced && !strcmp(forced, "mprotect")) { /* the second way was asked for */
        test_checks++;
        if (strcmp(memory, "mprotect"))
            test_failures++;
    }
#else
    const char *memory = "none (built without the JIT)";
#endif
    printf("  jit-gx: %u formats (%u compiled) x %u levels with the JIT, %u draws; generated code "
           "for %u of %u plans; code memory: %s%s\n",
           formats, compiled, jit_levels, draws, generated, compiled * jit_levels, memory,
           test_failures == before ? "" : "  FAILED");
    for (unsigned k = 0; k < 8 && reasons[k]; k++)
        printf("    none for %u: %s\n", reason_count[k], reasons[k]);
}

/*
 * A random plan spread over many streams (5 to 32): its streams repeated k times (each copy
 * with the same stride, step and byte order), each op moved to one of the copies of the
 * streams it reads, and ops repeated into new slots (up to 16), each from a random copy; so
 * that the generated code's streams past its ten base registers (kept in its frame) are read.
 */
static void spread_streams(struct vfetch_plan_desc *d)
{
    const unsigned n0 = d->num_streams, k = 2 + rnd_below(VFETCH_MAX_STREAMS / n0 - 1);
    for (unsigned s = n0; s < n0 * k; s++)
        d->streams[s] = d->streams[s % n0];
    d->num_streams = n0 * k;
    const unsigned ops0 = d->num_ops, ops = ops0 + rnd_below(17 - ops0);
    for (unsigned i = 0; i < ops; i++) {
        struct vfetch_op *op = &d->ops[i];
        if (i >= ops0) {
            *op = d->ops[i % ops0];
            op->dst_slot = (uint16_t)d->out_slots;
            d->out_slots += 4;
        }
        const unsigned copy = rnd_below(k);
        for (unsigned c = 0; c < 4; c++)
            op->src[c].stream = (uint8_t)(op->src[c].stream % n0 + n0 * copy);
    }
    d->num_ops = ops;
    d->out_stride = 0;
}

/*
 * A word copy: one stream of 1 to 16 float words (either byte order, sequential or indexed),
 * ops of 1 to 4 of them in order filling the record, which is the output stride.
 */
static void word_copy_desc(struct vfetch_plan_desc *d)
{
    vfetch_plan_desc_init(d);
    const unsigned words = 1 + rnd_below(16);
    d->num_streams = 1;
    d->streams[0].stride = 4 * words;
    d->streams[0].order = rnd_below(2) ? VFETCH_ORDER_LITTLE : VFETCH_ORDER_BIG_ENDIAN;
    d->streams[0].step = rnd_below(2) ? VFETCH_STEP_INDEXED : VFETCH_STEP_SEQUENTIAL;
    for (unsigned w = 0; w < words;) {
        struct vfetch_op *op = &d->ops[d->num_ops++];
        op->format = VFETCH_FORMAT_FLOAT32;
        op->conversion = VFETCH_CONV_FLOAT;
        op->count = (uint8_t)(1 + rnd_below(words - w < 4 ? words - w : 4));
        for (unsigned c = 0; c < 4; c++) {
            op->src[c].offset = 4 * (w + (c < op->count ? c : 0));
            op->swizzle[c] = (uint8_t)c;
        }
        op->write_mask = (uint8_t)((1u << op->count) - 1);
        op->dst_slot = (uint16_t)w;
        w += op->count;
    }
    d->out_slots = words;
}

/* One stream of `words` float words in the byte order `order` asks (1: big-endian), one op a
   word, the words the record in order: the plan a word copy is made of. */
static void float_words_desc(struct vfetch_plan_desc *d, unsigned words, int order)
{
    vfetch_plan_desc_init(d);
    d->num_streams = 1;
    d->streams[0].stride = 4 * words;
    d->streams[0].order = order ? VFETCH_ORDER_BIG_ENDIAN : VFETCH_ORDER_LITTLE;
    for (unsigned w = 0; w < words; w++) {
        struct vfetch_op *op = &d->ops[d->num_ops++];
        op->format = VFETCH_FORMAT_FLOAT32;
        op->conversion = VFETCH_CONV_FLOAT;
        op->count = 1;
        for (unsigned c = 0; c < 4; c++)
            op->src[c].offset = 4 * w;
        op->write_mask = 1;
        op->dst_slot = (uint16_t)w;
    }
    d->out_slots = words;
}

/* The next count of `words`-word records the word copy sizes check draws, 0 past the last:
   every count up to 800 bytes, then the four about the avx512 level's longest copy by 64 bytes
   a step (longer ones step by 32). */
static uint32_t next_copy_count(uint32_t count, unsigned words)
{
    const uint32_t zmm_most = VFETCH_JIT_WORD_COPY_ZMM_MOST / (4 * words);
    if ((count + 1) * 4 * words <= 800)
        return count + 1;
    if (count < zmm_most - 1)
        return zmm_most - 1;
    return count < zmm_most + 2 ? count + 1 : 0;
}

/*
 * The generated word copy at every size it branches on: records of 1 to 16 words in either byte
 * order, direct draws of every count whose bytes reach past 3 * 256 + 32 (the first and last
 * steps alone up to 128 bytes, the loop of 128 above, the AVX2 variant's loop of 256 past 256
 * bytes once, twice and three times, 16 and 16 below 32, words below 16) and of the four counts about VFETCH_JIT_WORD_COPY_ZMM_MOST bytes
 * (the avx512 level's 64-byte steps up to there, 32-byte ones past it), under compare and as an
 * emulator runs them, on buffers at guard pages against the reference's output, the output also
 * 1, 2 and 3 bytes past a word.
 */
static void check_jit_word_copy_sizes(void)
{
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    const unsigned mask = vfetch_get_cpu_mask();
    const unsigned before = test_failures;
    unsigned runs = 0, copies = 0, crossovers = 0;
    for (unsigned words = 1; words <= 16; words++)
        for (int order = 0; order < 2; order++)
            for (uint32_t count = 1; count; count = next_copy_count(count, words)) {
                struct vfetch_plan_desc d;
                float_words_desc(&d, words, order);
                struct reference_run rr;
                if (!reference_run_make_at(&d, &rr, count | RUN_DIRECT, -1))
                    continue;
                for (unsigned l = 0; l < num_levels; l++) {
                    if (!(levels[l].bit & JIT_LEVELS))
                        continue;
                    vfetch_set_cpu_mask(level_mask(l));
                    for (unsigned m = 0; m < 2; m++) {
                        vfetch_set_jit_mode(m ? VFETCH_JIT_ON : VFETCH_JIT_COMPARE);
                        vfetch_plan *plan = NULL;
                        if (vfetch_plan_compile(&d, &plan)) {
                            test_failures++;
                            continue;
                        }
                        struct vfetch_plan_info info;
                        vfetch_plan_info(plan, &info);
                        copies += !m && info.word_copy && info.jit;
                        /* the generated copy's reach (lib/word_copy.c): every count at avx2
                           and avx512 and for reversed words at sse41, 32 records for plain
                           words at sse41 */
                        if (m && info.word_copy && info.jit && !getenv("VFETCH_JIT_CROSSOVER")) {
                            const int sse41 = !strcmp(levels[l].name, "sse41");
                            const uint32_t want = sse41 && !order ? 32 : UINT32_MAX;
                            crossovers++;
                            CHECK_EQ(info.jit_crossover, want);
                        }
                        char detail[80];
                        snprintf(detail, sizeof detail, "word copy of %u words, %s, %u records, %s",
                                 words, order ? "big-endian" : "little-endian", count,
                                 m ? "jit on" : "compare");
                        reference_run_compare(plan, &rr, "jit-word-copy", levels[l].name, detail);
                        /* and with the output 1-3 bytes past a word (an emulator's buffer can
                           lie anywhere): the byte-reversing copy must keep its words whole
                           where it moves its stores to a 32-byte boundary */
                        for (unsigned shift = 1; shift < 4; shift++) {
                            uint8_t *alloc, *out = place(rr.b.out_size, true, shift, &alloc);
                            memcpy(out, rr.pattern, rr.b.out_size);
                            CHECK_EQ(run_with(plan, &rr.b, out), 0);
                            compare_outputs("jit-word-copy", levels[l].name, detail, rr.want, out,
                                            rr.b.out_size, vfetch_plan_out_stride(plan), NULL, 0,
                                            0);
                            guard_free(alloc);
                        }
                        runs++;
                        vfetch_plan_free(plan);
                    }
                }
                reference_run_free(&rr);
            }
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    if (vfetch_jit_available() && runs) { /* the copies got generated code */
        test_checks++;
        if (!copies)
            test_failures++;
    }
    if (vfetch_jit_available() && runs && !getenv("VFETCH_JIT_CROSSOVER")) {
        test_checks++;
        if (!crossovers) /* the crossovers were checked */
            test_failures++;
    }
    printf("  jit-word-copy: %u draws, %u of them word copies with generated code, %u "
           "crossovers checked%s\n",
           runs, copies, crossovers, test_failures == before ? "" : "  FAILED");
}

/*
 * Plans run through vfetch_run (what R300 and Maxwell formats and hand-built plans lower to):
 * random formats of any streams (sequential, indexed, constant, instanced) compiled with the
 * JIT at every level that has it, under compare (the generated code runs every direct draw
 * beside the portable tier), their direct draws of random counts (1 to 64, past the crossover
 * now and then) on buffers against guard pages against the reference's output.
 */
static void check_jit_plans(void)
{
    rng_seed_for("jit-plans");
    const unsigned formats = opt_quick ? 200 : 800;
    const unsigned before = test_failures;
    unsigned tried = 0, generated = 0, runs = 0, spread = 0, spread_generated = 0, copies = 0;
    const char *reasons[8] = { 0 };
    unsigned reason_count[8] = { 0 };
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    const unsigned mask = vfetch_get_cpu_mask();
    for (unsigned i = 0; tried < formats && i < 50 * formats; i++) {
        struct vfetch_plan_desc d;
        random_plan_desc(&d);
        if (i % 4 == 3)
            spread_streams(&d);
        if (i % 8 == 5)
            word_copy_desc(&d);
        tried++;
        const uint32_t count = 1 + (rnd_below(8) ? rnd_below(64) : rnd_below(300));
        struct reference_run rr;
        /* every other format's draw through an index buffer as often as not (random width,
           offset and highest index) */
        if (!reference_run_make_at(&d, &rr, count | (i & 1 ? 0 : RUN_DIRECT), -1))
            continue;
        for (unsigned l = 0; l < num_levels; l++) {
            if (!(levels[l].bit & JIT_LEVELS))
                continue;
            vfetch_set_cpu_mask(level_mask(l));
            /* under compare (every direct draw through both tiers), then as an emulator runs
               it (vfetch_run's own path for such draws, and the crossover) */
            for (unsigned m = 0; m < 2; m++) {
                vfetch_set_jit_mode(m ? VFETCH_JIT_ON : VFETCH_JIT_COMPARE);
                vfetch_plan *plan = NULL;
                if (vfetch_plan_compile(&d, &plan)) {
                    test_failures++;
                    continue;
                }
                struct vfetch_plan_info info;
                vfetch_plan_info(plan, &info);
                copies += !m && info.word_copy;
                if (!m && info.jit) {
                    generated++;
                    spread_generated += d.num_streams > 10;
                } else if (!m) {
                    unsigned k = 0;
                    while (k < 7 && reasons[k] && strcmp(reasons[k], info.jit_reason))
                        k++;
                    reasons[k] = info.jit_reason;
                    reason_count[k]++;
                }
                spread += !m && d.num_streams > 10;
                char detail[80];
                snprintf(detail, sizeof detail, "random plan %u, %u records, %s", i, count,
                         m ? "jit on" : "compare");
                reference_run_compare(plan, &rr, "jit-plans", levels[l].name, detail);
                runs += !m;
                vfetch_plan_free(plan);
            }
        }
        reference_run_free(&rr);
    }
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    unsigned jit_levels = 0;
    for (unsigned l = 0; l < num_levels; l++)
        jit_levels += !!(levels[l].bit & JIT_LEVELS);
    if (jit_levels && vfetch_jit_available()) { /* most get code (word copies do not), plans
                                                    of more than ten streams among them */
        test_checks += 2;
        if (generated * 4 < runs * 3)
            test_failures++;
        if (spread_generated * 2 < spread)
            test_failures++;
    }
    printf("  jit-plans: %u formats x %u levels with the JIT, %u runs; generated code for %u "
           "(of %u with more than ten streams: %u; word copies: %u)%s\n",
           tried, jit_levels, runs, generated, spread, spread_generated, copies,
           test_failures == before ? "" : "  FAILED");
    for (unsigned k = 0; k < 8 && reasons[k]; k++)
        printf("    none for %u: %s\n", reason_count[k], reasons[k]);
}

/* A GX format compiled with VFETCH_JIT_MEASURE set to `answer` (the measurement's answer,
   no timing). */
static vfetch_gx_plan *gx_plan_measured(const struct vfetch_gx_desc *d, const char *answer)
{
    setenv("VFETCH_JIT_MEASURE", answer, 1);
    vfetch_gx_plan *plan = NULL;
    if (vfetch_gx_compile(d, &plan))
        plan = NULL;
    unsetenv("VFETCH_JIT_MEASURE");
    return plan;
}

/* A plan compiled with VFETCH_JIT_MEASURE set to `answer`. */
static vfetch_plan *plan_measured(const struct vfetch_plan_desc *d, const char *answer)
{
    setenv("VFETCH_JIT_MEASURE", answer, 1);
    vfetch_plan *plan = NULL;
    if (vfetch_plan_compile(d, &plan))
        plan = NULL;
    unsetenv("VFETCH_JIT_MEASURE");
    return plan;
}

/* A measured format's crossovers as compiled with the "generated" and the "portable" answer
   (info[0], info[1]): equal, or every count against 64. Whether the answer moved it. */
static int measured_crossovers(const struct vfetch_plan_info info[2], const char *level,
                               const char *what)
{
    const uint32_t generated = info[0].jit_crossover, portable = info[1].jit_crossover;
    test_checks++;
    if (portable != generated && (generated != UINT32_MAX || portable != 64)) {
        test_failures++;
        fprintf(stderr, "jit-measured-tier %s: %s: crossover %u generated, %u portable\n", level,
                what, generated, portable);
    }
    return portable != generated;
}

/*
 * Where a measured class's portable tier takes over (vfetch_jit_crossover_fit): the crossing
 * of two straight lines given by their times at the short (64) and the long (1,024) draw, kept
 * within 64..1,024. Each case's times and the crossover it must give.
 */
static void check_jit_crossover_fit(void)
{
#if VFETCH_HAVE_JIT /* lib/jit/measure.c is built with the JIT */
    _Static_assert(VFETCH_JIT_MEASURE_SHORT == 64 && VFETCH_JIT_MEASURE_RECORDS == 1024 &&
                       VFETCH_JIT_MEASURE_LEAST == 64,
                   "the cases' times are the lines' at 64 and 1,024 records");
    static const struct {
        uint64_t at_short[2], at_long[2]; /* generated, portable */
        uint32_t want;
        const char *what;
    } cases[] = {
        /* generated 1000 + 20n ns, portable 3000 + 10n: equal at 200 */
        { { 2280, 3640 }, { 21480, 13240 }, 200, "lines crossing between the draws" },
        /* generated 20 + 0.5n, portable 40 + 0.25n: equal at 80 */
        { { 52, 56 }, { 532, 296 }, 80, "crossing just past the short draw" },
        /* generated 100 + 15.6n, portable 467 + 8.3n: equal at 50, below the short draw,
           where nothing was measured: the short draw's 64 */
        { { 1098, 998 }, { 16074, 8966 }, 64, "crossing below the short draw" },
        /* portable 500 + 10n against 1000 + 20n: ahead at both, its lead growing */
        { { 2280, 1140 }, { 21480, 10740 }, 64, "portable ahead at both, its lead growing" },
        /* portable 100 + 1.5n against 1000 + n: ahead at both, its lead shrinking */
        { { 1064, 196 }, { 2024, 1636 }, 64, "portable ahead at both, its lead shrinking" },
        /* the long draw no faster through the portable tier (a class's default kept it) */
        { { 100, 300 }, { 1000, 1000 }, 1024, "equal at the long draw" },
        { { 100, 300 }, { 1000, 1050 }, 1024, "generated ahead by less than the default's 10 %" },
    };
    const unsigned before = test_failures;
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const uint32_t got = vfetch_jit_crossover_fit(cases[k].at_short, cases[k].at_long);
        test_checks++;
        if (got != cases[k].want) {
            test_failures++;
            fprintf(stderr, "jit-crossover-fit: %s: %u, want %u\n", cases[k].what, got,
                    cases[k].want);
        }
    }
    printf("  jit-crossover-fit: %u cases of measured times%s\n",
           (unsigned)(sizeof cases / sizeof cases[0]), test_failures == before ? "" : "  FAILED");
#endif
}

/*
 * Where the 16-lane program is a class's default, the draw past the L1 cache
 * (vfetch_jit_past_l1_crossover): the first measurement's crossover, the times of the second
 * draw, and the crossover they must give.
 */
static void check_jit_past_l1(void)
{
#if VFETCH_HAVE_JIT
    _Static_assert(VFETCH_JIT_MEASURE_PAST_L1_LEAD == 20 && VFETCH_JIT_MEASURE_RECORDS == 1024,
                   "the cases' leads are against 20 % and their answer 1,024");
    static const struct {
        uint32_t crossover;
        uint64_t past_l1[2]; /* generated, portable */
        uint32_t want;
        const char *what;
    } cases[] = {
        { 1024, { 2600, 3700 }, UINT32_MAX, "program kept, the generated code 30 % ahead" },
        { 200, { 2600, 3700 }, UINT32_MAX, "program from 200, the generated code 30 % ahead" },
        { 1024, { 3000, 3700 }, 1024, "program kept, the generated code 19 % ahead" },
        { 300, { 3000, 3700 }, 300, "program from 300, the generated code 19 % ahead" },
        { 1024, { 2950, 3700 }, UINT32_MAX, "program kept, the generated code 20.3 % ahead" },
        { 1024, { 3700, 2600 }, 1024, "program kept and ahead" },
        { UINT32_MAX, { 2376, 2240 }, 1024, "generated code taken, the program 6 % ahead" },
        { UINT32_MAX, { 2240, 2376 }, UINT32_MAX, "generated code taken and ahead" },
        { UINT32_MAX, { 2240, 2240 }, UINT32_MAX, "generated code taken, the two equal" },
    };
    const unsigned before = test_failures;
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const uint32_t got = vfetch_jit_past_l1_crossover(cases[k].past_l1, cases[k].crossover);
        test_checks++;
        if (got != cases[k].want) {
            test_failures++;
            fprintf(stderr, "jit-past-l1: %s: %u, want %u\n", cases[k].what, got, cases[k].want);
        }
    }
    /* whether the draw is timed at all: not where the generated code led by 20 % at 1,024 */
    static const struct {
        uint32_t crossover;
        uint64_t at_long[2];
        int want;
    } wanted[] = {
        { 1024, { 100, 300 }, 1 },       { 200, { 300, 100 }, 1 },
        { UINT32_MAX, { 100, 120 }, 1 }, { UINT32_MAX, { 100, 125 }, 1 },
        { UINT32_MAX, { 100, 126 }, 0 }, { UINT32_MAX, { 100, 200 }, 0 },
    };
    for (unsigned k = 0; k < sizeof wanted / sizeof wanted[0]; k++) {
        const int got = vfetch_jit_past_l1_wanted(wanted[k].crossover, wanted[k].at_long);
        test_checks++;
        if (got != wanted[k].want) {
            test_failures++;
            fprintf(stderr, "jit-past-l1: crossover %u, times %u and %u at 1,024: %s, want %s\n",
                    wanted[k].crossover, (unsigned)wanted[k].at_long[0],
                    (unsigned)wanted[k].at_long[1], got ? "timed" : "not timed",
                    wanted[k].want ? "timed" : "not timed");
        }
    }
    /* whether it is timed once more, in a buffer of its own: only where the program, kept at
       1,024, keeps the long draws past the L1 too */
    static const struct {
        uint32_t kept, answer;
        int want;
    } again[] = {
        { 1024, 1024, 1 },       { 200, 200, 1 },      { 1024, UINT32_MAX, 0 },
        { UINT32_MAX, 1024, 0 }, { UINT32_MAX, UINT32_MAX, 0 },
    };
    for (unsigned k = 0; k < sizeof again / sizeof again[0]; k++) {
        const int got = vfetch_jit_past_l1_again(again[k].kept, again[k].answer);
        test_checks++;
        if (got != again[k].want) {
            test_failures++;
            fprintf(stderr, "jit-past-l1: kept %u at 1,024, %u past the L1: %s, want %s\n",
                    again[k].kept, again[k].answer, got ? "again" : "not again",
                    again[k].want ? "again" : "not again");
        }
    }
    printf("  jit-past-l1: %u cases of measured times, %u of whether to time, %u of whether to "
           "time again%s\n",
           (unsigned)(sizeof cases / sizeof cases[0]), (unsigned)(sizeof wanted / sizeof wanted[0]),
           (unsigned)(sizeof again / sizeof again[0]), test_failures == before ? "" : "  FAILED");
#endif
}

/*
 * The measured tier of long draws (lib/jit/measure.c): formats of the classes a compile
 * measures, with the measurement's answer forced. "generated" keeps the class's crossover,
 * "portable" gives the record program's (64) where the class measures and changes nothing
 * elsewhere; the three plans (and the portable tier alone) write the same bytes for draws of
 * 16 to 300 vertices. Some GX format and some plan must move (the measurement is wired in).
 */
static void check_jit_measured_tier(void)
{
    static const struct vfetch_gx_regs kit[] = {
        { 0x00002a00, 0x00000001, 0x54e16487, 0x80000000, 0 },
        { 0x00000a00, 0x00000001, 0x41201009, 0x80000000, 0 },
        { 0x00000200, 0x00000001, 0x40200001, 0x80000000, 0 },
        { 0x00002200, 0, 0x40000009, 0x80000000, 0 },
        { 0x00004600, 0, 0x40000009, 0x80000000, 0 }, /* c: two indexed copies (AVX-512) */
    };
    /* c's arrays: every index16 position row, every index8 colour row */
    enum { POS_ROWS = 65536, POS_STRIDE = 12, COLOR_STRIDE = 2 };
    static const enum vfetch_gx_layout layouts[] = { VFETCH_GX_LAYOUT_VEC4,
                                                     VFETCH_GX_LAYOUT_PACKED };
    static const uint32_t counts[] = { 16, 63, 64, 65, 256, 300 };
    if (!vfetch_jit_available())
        return;
    rng_seed_for("jit-measured-tier");
    const unsigned mask = vfetch_get_cpu_mask();
    const unsigned before = test_failures;
    unsigned gx_moved = 0, plans_moved = 0, gx_plans = 0, plans = 0;
    uint8_t *src = malloc((size_t)300 * 256);
    uint8_t *want = malloc((size_t)300 * 1024), *got = malloc((size_t)300 * 1024);
    uint8_t *positions = malloc((size_t)POS_ROWS * POS_STRIDE), *colors = malloc(256 * 2);
    rnd_fill(src, (size_t)300 * 256);
    rnd_fill(positions, (size_t)POS_ROWS * POS_STRIDE);
    rnd_fill(colors, 256 * COLOR_STRIDE);
    for (unsigned l = 0; l < num_levels; l++) {
        if (!(levels[l].bit & JIT_LEVELS))
            continue;
        vfetch_set_cpu_mask(level_mask(l));
        for (unsigned k = 0; k < sizeof kit / sizeof kit[0]; k++)
            for (unsigned o = 0; o < 2; o++) {
                struct vfetch_gx_desc d;
                vfetch_gx_desc_init(&d);
                d.regs = kit[k];
                d.layout = layouts[o];
                d.array_stride[VFETCH_GX_POSITION] = POS_STRIDE;
                d.array_stride[VFETCH_GX_COLOR0] = COLOR_STRIDE;
                vfetch_gx_plan *plan[2] = { gx_plan_measured(&d, "generated"),
                                            gx_plan_measured(&d, "portable") };
                vfetch_gx_plan *alone = NULL; /* the portable tier alone */
                vfetch_set_jit_mode(VFETCH_JIT_OFF);
                vfetch_gx_compile(&d, &alone);
                vfetch_set_jit_mode(VFETCH_JIT_ON);
                test_checks++;
                if (!plan[0] || !plan[1] || !alone) {
                    test_failures++;
                    goto next_gx;
                }
                struct vfetch_plan_info info[2];
                vfetch_gx_plan_info(plan[0], &info[0]);
                vfetch_gx_plan_info(plan[1], &info[1]);
                gx_plans++;
                char what[48];
                snprintf(what, sizeof what, "gx kit %u layout %d", k, (int)d.layout);
                gx_moved += measured_crossovers(info, levels[l].name, what);
                const size_t vsize = vfetch_gx_plan_format(alone)->vertex_size;
                const size_t stride = vfetch_gx_plan_out_stride(alone);
                for (unsigned c = 0; c < sizeof counts / sizeof counts[0]; c++) {
                    struct vfetch_gx_run_params p;
                    vfetch_gx_run_params_init(&p);
                    p.vertices = src;
                    p.vertices_size = counts[c] * vsize;
                    p.count = counts[c];
                    p.arrays[VFETCH_GX_POSITION] =
                        (struct vfetch_binding){ positions, (size_t)POS_ROWS * POS_STRIDE };
                    p.arrays[VFETCH_GX_COLOR0] =
                        (struct vfetch_binding){ colors, 256 * COLOR_STRIDE };
                    p.out = want;
                    p.out_size = counts[c] * stride;
                    memset(want, 0xa5, p.out_size);
                    const int want_err = vfetch_gx_run(alone, &p, NULL);
                    for (unsigned m = 0; m < 2; m++) {
                        p.out = got;
                        memset(got, 0x5a, p.out_size);
                        test_checks++;
                        if (vfetch_gx_run(plan[m], &p, NULL) != want_err ||
                            memcmp(got, want, p.out_size)) {
                            test_failures++;
                            fprintf(stderr, "jit-measured-tier %s: gx kit %u layout %d, %u "
                                    "vertices, %s: differs from the portable tier\n",
                                    levels[l].name, k, d.layout, counts[c],
                                    m ? "portable" : "generated");
                        }
                    }
                }
            next_gx:
                vfetch_gx_plan_free(plan[0]);
                vfetch_gx_plan_free(plan[1]);
                vfetch_gx_plan_free(alone);
            }
        /* plans: random one-stream sequential formats */
        for (unsigned i = 0; i < 40; i++) {
            struct vfetch_plan_desc d;
            if (!random_plan_desc(&d) || d.num_streams != 1)
                continue;
            d.streams[0].step = i & 1 ? VFETCH_STEP_SEQUENTIAL : VFETCH_STEP_INDEXED;
            vfetch_plan *plan[2] = { plan_measured(&d, "generated"),
                                     plan_measured(&d, "portable") };
            if (!plan[0] || !plan[1]) {
                vfetch_plan_free(plan[0]);
                vfetch_plan_free(plan[1]);
                continue;
            }
            struct vfetch_plan_info info[2];
            vfetch_plan_info(plan[0], &info[0]);
            vfetch_plan_info(plan[1], &info[1]);
            plans++;
            char what[32];
            snprintf(what, sizeof what, "plan %u", i);
            plans_moved += measured_crossovers(info, levels[l].name, what);
            for (unsigned c = 0; c < sizeof counts / sizeof counts[0]; c++) {
                struct reference_run rr;
                if (!reference_run_make_at(&d, &rr, counts[c] | RUN_DIRECT, -1))
                    continue;
                for (unsigned m = 0; m < 2; m++)
                    reference_run_compare(plan[m], &rr, "jit-measured-tier", levels[l].name,
                                          m ? "portable answer" : "generated answer");
                reference_run_free(&rr);
            }
            vfetch_plan_free(plan[0]);
            vfetch_plan_free(plan[1]);
        }
    }
    vfetch_set_cpu_mask(mask);
    free(src);
    free(want);
    free(got);
    free(positions);
    free(colors);
    test_checks++;
    if (!gx_moved || !plans_moved)
        test_failures++;
    printf("  jit-measured-tier: %u GX plans (%u moved to the record program from 64 vertices "
           "by the portable answer), %u plans (%u moved)%s\n", gx_plans, gx_moved, plans,
           plans_moved, test_failures == before ? "" : "  FAILED");
}

/* Indexed formats of the index checks' tests: the kit's c (position index16, colour index8),
   index8 position with two index16 attributes, index16 position and texcoord, and the kit's f
   (matrix bytes, then 14 indices in twelve arrays: pass 1's indices in two windows), each
   drawn with up to max_count vertices. */
struct index_format {
    struct vfetch_gx_regs regs;
    uint8_t stride[VFETCH_GX_NUM_ATTRS];
    uint32_t max_count;
};
static const struct index_format index_formats[] = {
    { { 0x00004600, 0, 0x40000009, 0x80000000, 0 }, { 12, 0, 2 }, 40 },
    { { 0x00007c00, 0, 0x40000009, 0x80000000, 0 }, { 12, 12, 4 }, 40 },
    { { 0x00000600, 0x00000002, 0x40000009, 0x80000000, 0 }, { 12, 0, 0, 0, 8 }, 40 },
    { { 0x0001ffff, 0x0000ffff, 0x41377209, 0xc8241209, 0x04824120 },
      { 12, 36, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8 }, 10 },
};

/* One draw through the reference plan and the generated one, each into an output of its own
   ending at a guard page, filled alike: whether return code, result and bytes agree (ret[] and
   r[]: the reference's, then the generated code's). */
static int same_as_reference(const vfetch_gx_plan *ref, const vfetch_gx_plan *jit,
                             const struct gx_draw *w, uint32_t stride, int ret[2],
                             struct vfetch_gx_result r[2])
{
    const size_t out_size = (size_t)w->count * stride;
    uint8_t *want = guard_alloc_tail(out_size), *got = guard_alloc_tail(out_size);
    memset(want, 0x5a, out_size);
    memset(got, 0x5a, out_size);
    r[0] = r[1] = (struct vfetch_gx_result){ 7, 7, 7 };
    ret[0] = run_draw(ref, w, want, out_size, &r[0]);
    ret[1] = run_draw(jit, w, got, out_size, &r[1]);
    const int same = ret[0] == ret[1] && !memcmp(&r[0], &r[1], sizeof r[0]) &&
                     !memcmp(want, got, out_size);
    guard_free(want);
    guard_free(got);
    return same;
}

/* Where attribute a's index fields start in a vertex of format f. */
static uint32_t index_field(const struct vfetch_gx_format *f, unsigned a)
{
    uint32_t at = f->pos_matrix_index;
    for (unsigned t = 0; t < 8; t++)
        at += f->tex_matrix_index[t];
    for (unsigned b = 0; b < a; b++)
        at += f->attr[b].stream_size;
    return at;
}

static void put_index(uint8_t *p, unsigned size, uint32_t idx)
{
    if (size == 1)
        p[0] = (uint8_t)idx;
    else {
        p[0] = (uint8_t)(idx >> 8);
        p[1] = (uint8_t)idx;
    }
}

/*
 * Pass 1 at every position of small draws, where it takes several vertices a register and the
 * last ones from the draw's end: in draws of 1 to 40 vertices, vertex k alone holds an index one
 * past its array's end (each indexed attribute in turn), or the position's skip value; return
 * code, result and output against the reference level (a maximum or a skip count read from the
 * wrong bytes changes one of them; a wrong maximum lets the generated code read past an array
 * ending at a guard page).
 */
static void check_jit_pass1(void)
{
    static const struct index_format *const formats = index_formats;
    enum { num_formats = sizeof index_formats / sizeof index_formats[0] };
    if (!vfetch_jit_available())
        return;
    const unsigned before = test_failures, mask = vfetch_get_cpu_mask();
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    const uint32_t rows = 50;
    unsigned draws = 0;
    rng_seed_for("jit-pass1");
    for (unsigned l = 0; l < num_levels; l++) {
        if (!(levels[l].bit & JIT_LEVELS))
            continue;
        for (unsigned fi = 0; fi < num_formats; fi++) {
            struct vfetch_gx_desc d;
            gx_desc_of(&d, &formats[fi].regs, formats[fi].stride, VFETCH_GX_LAYOUT_PACKED);
            vfetch_gx_plan *ref = NULL, *jit = NULL;
            vfetch_set_cpu_mask(0);
            vfetch_set_jit_mode(VFETCH_JIT_OFF);
            int err = vfetch_gx_compile(&d, &ref);
            vfetch_set_cpu_mask(level_mask(l));
            vfetch_set_jit_mode(VFETCH_JIT_ON);
            err |= vfetch_gx_compile(&d, &jit);
            test_checks++;
            if (err) {
                test_failures++;
                vfetch_gx_plan_free(ref);
                vfetch_gx_plan_free(jit);
                continue;
            }
            const struct vfetch_gx_format *f = vfetch_gx_plan_format(ref);
            const uint32_t stride = vfetch_gx_plan_out_stride(ref);
            unsigned indexed[VFETCH_GX_NUM_ATTRS], n_indexed = 0;
            for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
                if (f->attr[a].mode >= VFETCH_GX_INDEX8)
                    indexed[n_indexed++] = a;
            for (uint32_t count = 1; count <= formats[fi].max_count; count++)
                for (uint32_t k = 0; k < count; k++)
                    for (unsigned c = 0; c <= n_indexed; c++) {
                        struct gx_draw w;
                        memset(&w, 0, sizeof w);
                        w.count = count;
                        w.vertices_size = (size_t)count * f->vertex_size;
                        w.vertices = guard_alloc_tail(w.vertices_size);
                        rnd_fill(w.vertices, w.vertices_size);
                        for (unsigned i = 0; i < n_indexed; i++) {
                            const unsigned a = indexed[i];
                            const unsigned size = f->attr[a].mode == VFETCH_GX_INDEX8 ? 1 : 2;
                            w.array_size[a] = (rows - 1) * d.array_stride[a] +
                                              f->attr[a].element_size;
                            w.arrays[a] = guard_alloc_tail(w.array_size[a]);
                            rnd_fill(w.arrays[a], w.array_size[a]);
                            for (uint32_t v = 0; v < count; v++) {
                                /* small indices: bytes read from the wrong place look small
                                   too, and a zero index lane beside a skip value's */
                                uint32_t idx = rnd_below(4);
                                if (v == k && c == i)
                                    idx = rows; /* one past the end */
                                if (v == k && c == n_indexed && a == VFETCH_GX_POSITION)
                                    idx = size == 1 ? 0xff : 0xffff; /* the skip value */
                                put_index(w.vertices + (size_t)v * f->vertex_size +
                                              index_field(f, a),
                                          size, idx);
                            }
                        }
                        int ret[2];
                        struct vfetch_gx_result r[2];
                        draws++;
                        test_checks++;
                        if (!same_as_reference(ref, jit, &w, stride, ret, r)) {
                            test_failures++;
                            fprintf(stderr,
                                    "jit-pass1 %s: format %u, %u vertices, vertex %u, case %u: "
                                    "return %d (reference %d), written %u (%u), skipped %u (%u)\n",
                                    levels[l].name, fi, count, k, c, ret[1], ret[0], r[1].written,
                                    r[0].written, r[1].skipped, r[0].skipped);
                        }
                        draw_free(&w);
                    }
            vfetch_gx_plan_free(ref);
            vfetch_gx_plan_free(jit);
        }
    }
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    printf("  jit-pass1: %u draws with one index past its array or one skip value at every "
           "vertex%s\n", draws, test_failures == before ? "" : "  FAILED");
}

/* The peer kit's formats (../shared/peers/dolphin: configs a-f, Dolphin's own speed format
   last) get generated code at every level that has the JIT, in every layout the kit times: a
   plan silently left to the portable tier (a pool or buffer bound too small) fails here. */
/* That a kit format's code has (`want`) or lacks a kind of instruction group, by its count. */
static void kit_emitted(unsigned count, int want, const char *level, unsigned k, int layout,
                        const char *what)
{
    test_checks++;
    if ((count > 0) != want) {
        test_failures++;
        fprintf(stderr, "jit-kit %s: config %c, layout %d: %u %s\n", level, 'a' + k, layout,
                count, what);
    }
}

/* How often the byte sequence `seq` occurs in a plan's generated code. */
static unsigned code_count(const vfetch_gx_plan *plan, const uint8_t *seq, size_t n)
{
    struct vfetch_jit_code_view view;
    vfetch_gx_plan_jit_code(plan, &view);
    unsigned found = 0;
    for (size_t i = 0; i + n <= view.size; i++)
        found += !memcmp(view.bytes + i, seq, n);
    return found;
}

/* The layouts a kit format is compiled in: the two an emulator's vertex buffer holds (RGBA8
   colours) and the one a shader reads directly (float colours). */
static const struct {
    enum vfetch_gx_layout layout;
    enum vfetch_gx_color_output color;
} outputs[] = { { VFETCH_GX_LAYOUT_PACKED, VFETCH_GX_COLOR_RGBA8 },
                { VFETCH_GX_LAYOUT_DOLPHIN, VFETCH_GX_COLOR_RGBA8 },
                { VFETCH_GX_LAYOUT_VEC4, VFETCH_GX_COLOR_FLOAT } };

/* An environment variable's value kept while a check sets it, and put back after. */
struct saved_env {
    const char *name;
    int set;
    char value[32];
};

static struct saved_env env_save(const char *name)
{
    struct saved_env e = { name, 0, "" };
    const char *v = getenv(name);
    if (v) {
        e.set = 1;
        snprintf(e.value, sizeof e.value, "%s", v);
    }
    return e;
}

static void env_restore(const struct saved_env *e)
{
    if (e->set)
        setenv(e->name, e->value, 1);
    else
        unsetenv(e->name);
}

/*
 * Which tier runs the long draws of records of more than 256 bytes (lib/gx/compile.c,
 * gx_jit_crossover): the generated code at every count, for a direct format's full ISBE image
 * (whose program's wide stores cross lines where the output is off one) and an indexed
 * format's records (the full and compact images, vec4 of many attributes), which the program
 * stages (1.2-11x faster on an Intel Xeon). The peer kit's
 * a (direct), c (two indexed copies: measured at avx512, the measurement's answer forced to
 * "generated") and f (twelve) in the vec4 and ISBE layouts, at every level with the JIT. The
 * full image's code stores its default slots from values made once a run of them
 * (x86_store.c, gen_constant_run: 16 or more constant ops stored without a load of their
 * own); the JIT family's draws check those bytes against the reference.
 */
static void check_jit_big_records(void)
{
    static const struct {
        struct vfetch_gx_regs regs;
        uint8_t stride[VFETCH_GX_NUM_ATTRS];
        int indexed;
    } configs[] = {
        { { 0x00002a00, 0x00000001, 0x54e16487, 0x80000000, 0 }, { 0 }, 0 },
        { { 0x00004600, 0, 0x40000009, 0x80000000, 0 }, { 12, 0, 2 }, 1 },
        { { 0x0001ffff, 0x0000ffff, 0x41377209, 0xc8241209, 0x04824120 },
          { 12, 36, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8 }, 1 },
    };
    static const enum vfetch_gx_layout layouts[] = { VFETCH_GX_LAYOUT_VEC4,
                                                     VFETCH_GX_LAYOUT_ISBE_COMPACT,
                                                     VFETCH_GX_LAYOUT_ISBE_FULL };
    if (!vfetch_jit_available() || vfetch_get_jit_mode() != VFETCH_JIT_ON ||
        getenv("VFETCH_JIT_CROSSOVER"))
        return;
    const unsigned mask = vfetch_get_cpu_mask(), before = test_failures;
    unsigned big = 0, held = 0;
    for (unsigned l = 0; l < num_levels; l++) {
        if (!(levels[l].bit & JIT_LEVELS))
            continue;
        vfetch_set_cpu_mask(level_mask(l));
        for (unsigned k = 0; k < sizeof configs / sizeof configs[0]; k++)
            for (unsigned o = 0; o < sizeof layouts / sizeof layouts[0]; o++) {
                struct vfetch_gx_desc d;
                gx_desc_of(&d, &configs[k].regs, configs[k].stride, layouts[o]);
                d.color_output = VFETCH_GX_COLOR_FLOAT;
                vfetch_gx_plan *plan = gx_plan_measured(&d, "generated");
                struct vfetch_plan_info info = { 0 };
                if (plan)
                    vfetch_gx_plan_info(plan, &info);
                if (plan && info.jit && vfetch_gx_plan_out_stride(plan) > 256) {
                    const uint32_t want = UINT32_MAX;
                    big++;
                    test_checks++;
                    if (info.jit_crossover != want) {
                        test_failures++;
                        fprintf(stderr, "jit-big-records %s: config %u, layout %d: crossover "
                                "%u, want %u\n", levels[l].name, k, d.layout,
                                info.jit_crossover, want);
                    }
                    /* the full image's defaults: runs of four-slot constants, each value
                       loaded once a run (gen_constant_run) */
                    test_checks++;
                    if (d.layout == VFETCH_GX_LAYOUT_ISBE_FULL && plan->jit_code.constants_held <
                                                                      16) {
                        test_failures++;
                        fprintf(stderr, "jit-big-records %s: config %u, full image: %u "
                                "constants stored without a load, want 16 or more\n",
                                levels[l].name, k, plan->jit_code.constants_held);
                    }
                    held += plan->jit_code.constants_held;
                }
                vfetch_gx_plan_free(plan);
            }
    }
    vfetch_set_cpu_mask(mask);
    test_checks++;
    if (!big) { /* the full images at least */
        test_failures++;
        fprintf(stderr, "jit-big-records: no plan of records of more than 256 bytes\n");
    }
    printf("  jit-big-records: %u plans of records of more than 256 bytes, %u constant ops "
           "stored without a load%s\n", big, held, test_failures == before ? "" : "  FAILED");
}

static void check_jit_kit_formats(void)
{
    static const struct {
        struct vfetch_gx_regs regs;
        uint8_t stride[VFETCH_GX_NUM_ATTRS];
    } kit[] = {
        { { 0x00002a00, 0x00000001, 0x54e16487, 0x80000000, 0 }, { 0 } },
        { { 0x00000a00, 0x00000001, 0x41201009, 0x80000000, 0 }, { 0 } },
        { { 0x00004600, 0, 0x40000009, 0x80000000, 0 }, { 12, 0, 2 } },
        { { 0x00000200, 0x00000001, 0x40200001, 0x80000000, 0 }, { 0 } },
        { { 0x00002200, 0, 0x40000009, 0x80000000, 0 }, { 0 } },
        { { 0x0001ffff, 0x0000ffff, 0x41377209, 0xc8241209, 0x04824120 },
          { 12, 36, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8 } },
    };
    if (!vfetch_jit_available())
        return;
    const unsigned mask = vfetch_get_cpu_mask();
    const unsigned before = test_failures;
    unsigned plans = 0, broadcasts = 0, word_copies = 0;
    for (unsigned l = 0; l < num_levels; l++) {
        if (!(levels[l].bit & JIT_LEVELS))
            continue;
        vfetch_set_cpu_mask(level_mask(l));
        for (unsigned k = 0; k < sizeof kit / sizeof kit[0]; k++)
            for (unsigned o = 0; o < sizeof outputs / sizeof outputs[0]; o++) {
                struct vfetch_gx_desc d;
                gx_desc_of(&d, &kit[k].regs, kit[k].stride, outputs[o].layout);
                d.color_output = outputs[o].color;
                vfetch_gx_plan *plan = NULL;
                struct vfetch_plan_info info = { 0 };
                test_checks++;
                if (!vfetch_gx_compile(&d, &plan))
                    vfetch_gx_plan_info(plan, &info);
                if (!plan || !info.jit) {
                    test_failures++;
                    fprintf(stderr, "jit-kit %s: config %c, layout %d: no code (%s)\n",
                            levels[l].name, 'a' + k, d.layout, info.jit_reason);
                }
                /* the SSE4.1 variant's entry clears the upper halves where the CPU has AVX
                   (vzeroupper, c5 f8 77: lib/jit/x86_draw.c), and only there */
                if (plan && info.jit && levels[l].bit == VFETCH_CPU_SSE41) {
                    struct vfetch_jit_code_view view;
                    vfetch_gx_plan_jit_code(plan, &view);
                    static const uint8_t vzeroupper[3] = { 0xc5, 0xf8, 0x77 };
                    const int cleared = view.size >= view.entry + 3 &&
                                        !memcmp(view.bytes + view.entry, vzeroupper, 3);
                    const int avx = (vfetch_cpu_detected() & VFETCH_CPU_AVX2) != 0;
                    test_checks++;
                    if (cleared != avx) {
                        test_failures++;
                        fprintf(stderr, "jit-kit sse41: config %c: entry %s vzeroupper\n",
                                'a' + k, cleared ? "with" : "without");
                    }
                }
                /* at every level, f's matrix indices converted together (the packed layout's
                   as integers, Dolphin's texture matrices' as floats; the SSE4.1 variant in two
                   4-lane halves); where the AVX2 variant runs, a's and d's packed records'
                   8-lane vectors loading the one 16-byte window both halves read once
                   (lib/jit/x86_record.c; the SSE4.1 variant has no 8-lane vectors) */
                const int avx = (levels[l].bit & (VFETCH_CPU_AVX2 | VFETCH_CPU_AVX512)) != 0;
                if (plan && info.jit && k == 5 && d.layout != VFETCH_GX_LAYOUT_VEC4) {
                    kit_emitted(plan->jit_code.byte_batches, 1, levels[l].name, k, d.layout,
                                "index batches");
                    /* f's packed texture coordinates two by two (lib/jit/x86_vertex.c), at
                       every level; Dolphin's layout puts a matrix slot between them, and
                       there each coordinate takes its matrix's float beside it */
                    kit_emitted(plan->jit_code.float_pairs,
                                d.layout == VFETCH_GX_LAYOUT_PACKED, levels[l].name, k,
                                d.layout, "texture coordinate pairs");
                    kit_emitted(plan->jit_code.matrices_beside,
                                d.layout == VFETCH_GX_LAYOUT_DOLPHIN, levels[l].name, k,
                                d.layout, "coordinates with their matrix beside");
                }
                /* c's and f's 16-bit indices: where the AVX2 variant runs and the form is
                   movbe's (vfetch_jit_movbe_indices: AMD, or VFETCH_JIT_MOVBE=1), one
                   `movbe r8w` each where r8's upper bits are zero (66 44 0f 38 f0:
                   lib/jit/x86_load.c), so in c (a position index16, a colour index8) never
                   `movzx` and `rol r8w, 8` (66 41 c1 c0 08); the SSE4.1 variant has no movbe
                   (an SSE4.1 CPU may lack it) */
                if (plan && info.jit && (k == 2 || k == 5)) {
                    static const uint8_t movbe_r8w[5] = { 0x66, 0x44, 0x0f, 0x38, 0xf0 },
                                         rol_r8w[5] = { 0x66, 0x41, 0xc1, 0xc0, 0x08 };
                    const int movbe = avx && vfetch_jit_movbe_indices();
                    kit_emitted(code_count(plan, movbe_r8w, 5), movbe, levels[l].name, k,
                                d.layout, "movbe index loads");
                    if (k == 2)
                        kit_emitted(code_count(plan, rol_r8w, 5), !movbe, levels[l].name, k,
                                    d.layout, "rol index swaps");
                }
                /* c's 12-byte position, where its row may be the array's last, by one masked
                   load (vpmaskmovd xmm0, xmm14, [rbx + r8 * 4 + d8]: c4 a2 09 8c 44 83) where
                   the AVX2 variant runs, never at SSE4.1; in the packed layout its RGBA8 colour
                   from the word table into the position's fourth lane before the one store
                   (vpinsrd xmm0, xmm0, [r11 + rax * 4 + d8], 3: c4 c3 79 22 44 83, at SSE4.1
                   66 41 0f 3a 22 44 83; lib/jit/x86_vertex.c) */
                if (plan && info.jit && k == 2) {
                    static const uint8_t masked[6] = { 0xc4, 0xa2, 0x09, 0x8c, 0x44, 0x83 },
                                         joined_vex[6] = { 0xc4, 0xc3, 0x79, 0x22, 0x44, 0x83 },
                                         joined_sse[7] = { 0x66, 0x41, 0x0f, 0x3a,
                                                           0x22, 0x44, 0x83 };
                    kit_emitted(code_count(plan, masked, 6), avx, levels[l].name, k, d.layout,
                                "masked position loads");
                    if (d.layout == VFETCH_GX_LAYOUT_PACKED)
                        kit_emitted(avx ? code_count(plan, joined_vex, 6)
                                        : code_count(plan, joined_sse, 7),
                                    1, levels[l].name, k, d.layout, "colours joined to the store");
                }
                /* c's and e's per-vertex passes hold vertices in groups at every level (a
                   vertex's ops are few: lib/jit/x86_vertex.c), f's a vertex at a time (its
                   ops are many) */
                if (plan && info.jit && (k == 2 || k == 4 || k == 5))
                    kit_emitted(plan->jit_code.unrolled_passes, k != 5, levels[l].name, k,
                                d.layout, "per-vertex passes in groups");
                /* b's packed records are its words byte-reversed: the generated copy at
                   every count, as a plan's (lib/word_copy.c), not the record program's
                   crossover (its long draws ran the portable copy, 1.2-1.8x slower on an
                   Intel Xeon with the output 16 bytes past a line) */
                if (plan && info.jit && info.word_copy && !getenv("VFETCH_JIT_CROSSOVER")) {
                    word_copies++;
                    test_checks++;
                    if (info.jit_crossover != UINT32_MAX) {
                        test_failures++;
                        fprintf(stderr, "jit-kit %s: config %c, layout %d: a word copy's "
                                "crossover %u, not every count\n", levels[l].name, 'a' + k,
                                d.layout, info.jit_crossover);
                    }
                }
                if (plan && info.jit && (k == 0 || k == 3) &&
                    d.layout == VFETCH_GX_LAYOUT_PACKED) {
                    kit_emitted(plan->jit_code.broadcasts, avx, levels[l].name, k, d.layout,
                                "broadcast windows");
                    broadcasts += plan->jit_code.broadcasts;
                }
                plans++;
                vfetch_gx_plan_free(plan);
            }
    }
    vfetch_set_cpu_mask(mask);
    test_checks++;
    if (!word_copies && !getenv("VFETCH_JIT_CROSSOVER")) { /* b's packed layout is one */
        test_failures++;
        fprintf(stderr, "jit-kit: no word copy among the kit's plans\n");
    }
    printf("  jit-kit: the peer kit's %u formats x %u outputs: %u plans%s (a, d packed: %u "
           "broadcast windows; %u word copies, generated at every count)\n",
           (unsigned)(sizeof kit / sizeof kit[0]), (unsigned)(sizeof outputs / sizeof outputs[0]),
           plans, test_failures == before ? ", every one with generated code" : "  FAILED",
           broadcasts, word_copies);
}

/* Which way a direct R300 format's generated code converts whole groups, where both ways were
   timed (docs/decisions.md): a record of FLOAT_3, a skipped dword and a D3DCOLOR (the
   benchmark's r300-immediate) by the per-vertex pass, whose loop steps once every four
   vertices, at both levels (its 8-lane groups took 9.6 instructions a vertex against the
   pass's 9.0, and ran 6-12 % slower); one normalised BYTE a record (r300-r3) by the 8-lane
   groups where the AVX2 variant runs. */
static void check_jit_group_choice(void)
{
#define EL(type, loc, last, sgn, norm, skip)                                                  \
    ((uint32_t)(type) | (uint32_t)(skip) << 4 | (uint32_t)(loc) << 8 | (uint32_t)(last) << 13 | \
     (uint32_t)(sgn) << 14 | (uint32_t)(norm) << 15)
    static const struct {
        const char *name;
        uint32_t psc0, dwords;
        int immediate, groups_at_avx2;
    } formats[] = {
        { "FLOAT_3, skip, D3DCOLOR", EL(2, 0, 0, 0, 0, 1) | EL(5, 1, 1, 0, 1, 0) << 16, 5, 1, 0 },
        { "BYTE normalised", EL(4, 0, 1, 0, 1, 0), 1, 0, 1 },
    };
#undef EL
    if (!vfetch_jit_available())
        return;
    const unsigned mask = vfetch_get_cpu_mask();
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    const unsigned before = test_failures;
    unsigned plans = 0;
    vfetch_set_jit_mode(VFETCH_JIT_ON);
    /* the count as plans are compiled by default (VFETCH_JIT_DIVISION=fma, which the suite
       runs too, counts the pass's divisions two instructions each) */
    const struct saved_env division = env_save("VFETCH_JIT_DIVISION");
    unsetenv("VFETCH_JIT_DIVISION");
    for (unsigned l = 0; l < num_levels; l++) {
        if (!(levels[l].bit & (VFETCH_CPU_AVX2 | VFETCH_CPU_SSE41)))
            continue;
        vfetch_set_cpu_mask(level_mask(l));
        for (unsigned f = 0; f < sizeof formats / sizeof formats[0]; f++) {
            struct vfetch_r300_desc d;
            vfetch_r300_desc_init(&d);
            d.prog_stream_cntl[0] = formats[f].psc0;
            if (formats[f].immediate)
                d.vtx_size_dwords = formats[f].dwords;
            else {
                d.num_arrays = 1;
                d.arrays[0].stride_dwords = d.arrays[0].count_dwords = formats[f].dwords;
            }
            vfetch_r300_plan *plan = NULL;
            test_checks++;
            if (vfetch_r300_compile(&d, &plan) || !plan->jit_code.entry) {
                test_failures++;
                fprintf(stderr, "jit-group-choice %s: %s: no generated code\n", levels[l].name,
                        formats[f].name);
            } else {
                const int want =
                    formats[f].groups_at_avx2 && levels[l].bit == VFETCH_CPU_AVX2;
                if (plan->jit_code.groups != want) {
                    test_failures++;
                    fprintf(stderr, "jit-group-choice %s: %s: %s, not %s\n", levels[l].name,
                            formats[f].name, plan->jit_code.groups ? "8-lane groups" : "the pass",
                            want ? "8-lane groups" : "the pass");
                }
                plans++;
            }
            vfetch_r300_plan_free(plan);
        }
    }
    env_restore(&division);
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    printf("  jit-group-choice: %u R300 plans, whole groups by the faster of the two ways%s\n",
           plans, test_failures == before ? "" : "  FAILED");
}

/*
 * One plan of one sequential stream over `records` records of `in`, compiled with the JIT and
 * without at every level with the JIT, run in draws of 48 records (below every crossover), the
 * second time with FTZ and DAZ set: every output byte equal. Returns the levels run.
 */
static unsigned compare_tiers(const char *name, const struct vfetch_plan_desc *d,
                              const uint8_t *in, uint32_t records)
{
    enum { DRAW = 48 };
    const size_t stride = d->streams[0].stride, out_stride = 4 * (size_t)d->out_slots;
    uint8_t *want = malloc(records * out_stride), *got = malloc(records * out_stride);
    if (!want || !got)
        exit(2);
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    const unsigned mask = vfetch_get_cpu_mask();
    unsigned levels_run = 0;
    for (unsigned l = 0; l < num_levels; l++) {
        if (!(levels[l].bit & JIT_LEVELS))
            continue;
        vfetch_set_cpu_mask(level_mask(l));
        vfetch_plan *plans[2] = { NULL, NULL };
        for (unsigned m = 0; m < 2; m++) {
            vfetch_set_jit_mode(m ? VFETCH_JIT_ON : VFETCH_JIT_OFF);
            if (vfetch_plan_compile(d, &plans[m]))
                test_failures++;
        }
        struct vfetch_plan_info info = { 0 };
        if (plans[1])
            vfetch_plan_info(plans[1], &info);
        test_checks++;
        if (!info.jit) {
            test_failures++;
            printf("  %s %s: no generated code: %s\n", name, levels[l].name,
                   info.jit_reason ? info.jit_reason : "(no plan)");
        }
        for (int flush = 0; flush < 2 && plans[0] && plans[1]; flush++) {
            fp_flush_begin(flush, levels[l].bit);
            for (unsigned m = 0; m < 2; m++)
                for (uint32_t first = 0; first < records; first += DRAW) {
                    struct vfetch_binding b = { in, records * stride };
                    struct vfetch_run_params p;
                    vfetch_run_params_init(&p);
                    p.streams = &b;
                    p.num_streams = 1;
                    p.first = first;
                    p.count = records - first < DRAW ? records - first : DRAW;
                    p.out = (m ? got : want) + first * out_stride;
                    p.out_size = p.count * out_stride;
                    if (vfetch_run(plans[m], &p))
                        test_failures++;
                }
            fp_flush_end(flush);
            test_checks++;
            for (size_t r = 0; r < records; r++)
                if (memcmp(want + out_stride * r, got + out_stride * r, out_stride)) {
                    size_t at = 0;
                    while (want[out_stride * r + at] == got[out_stride * r + at])
                        at++;
                    printf("  %s %s%s: record %zu (in", name, levels[l].name,
                           flush ? " FTZ+DAZ" : "", r);
                    for (size_t k = 0; k < stride; k++)
                        printf(" %02x", in[stride * r + k]);
                    uint32_t w, g;
                    memcpy(&w, want + out_stride * r + at / 4 * 4, 4);
                    memcpy(&g, got + out_stride * r + at / 4 * 4, 4);
                    printf("): slot %zu %08x, portable tier %08x\n", at / 4, g, w);
                    test_failures++;
                    break;
                }
        }
        levels_run++;
        vfetch_plan_free(plans[0]);
        vfetch_plan_free(plans[1]);
    }
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    free(want);
    free(got);
    return levels_run;
}

static void one_stream_desc(struct vfetch_plan_desc *d, uint32_t stride)
{
    vfetch_plan_desc_init(d);
    d->num_streams = 1;
    d->streams[0].stride = stride;
    d->streams[0].step = VFETCH_STEP_SEQUENTIAL;
}

/* One op of a record layout: `count` components of `format` at byte `offset`, converted. */
struct layout_op {
    uint8_t format, conversion, count, offset;
};

/* vfetch_bench's R300 configs as layout ops (struct layout_op[4] initialisers), for the
   tables of the checks below. */
#define LAYOUT_R300_R1                                                                    \
    { { VFETCH_FORMAT_FLOAT32, VFETCH_CONV_FLOAT, 3, 0 },                                 \
      { VFETCH_FORMAT_FIXED16, VFETCH_CONV_SNORM_NO_ZERO, 4, 12 },                        \
      { VFETCH_FORMAT_FIXED8, VFETCH_CONV_UNORM, 4, 20 },                                 \
      { VFETCH_FORMAT_FLOAT16, VFETCH_CONV_FLOAT, 2, 24 } }
#define LAYOUT_R300_R2                                                                    \
    { { VFETCH_FORMAT_FLOAT32, VFETCH_CONV_FLOAT, 3, 0 },                                 \
      { VFETCH_FORMAT_FLOAT32, VFETCH_CONV_FLOAT, 2, 12 } }
#define LAYOUT_R300_R4                                                                    \
    { { VFETCH_FORMAT_FIXED16, VFETCH_CONV_SINT, 2, 0 },                                  \
      { VFETCH_FORMAT_FIXED8, VFETCH_CONV_SNORM_NO_ZERO, 4, 4 } }
#define LAYOUT_R300_SKIN                                                                  \
    { { VFETCH_FORMAT_FLOAT32, VFETCH_CONV_FLOAT, 3, 0 },                                 \
      { VFETCH_FORMAT_FIXED8, VFETCH_CONV_UINT, 4, 12 },                                  \
      { VFETCH_FORMAT_FIXED8, VFETCH_CONV_UNORM, 4, 16 },                                 \
      { VFETCH_FORMAT_FIXED_10_10_10, VFETCH_CONV_SNORM_NO_ZERO, 3, 20 } }

/* A one-stream plan of a layout's ops (up to four, a count of 0 ending them early), op o into
   slots 4o..4o+3; or (arrays) one array an op as Mesa's R300 driver binds an interleaved
   buffer: op o from stream o, at its offset in the record, every stream of the layout's
   stride, so that each stream's binding starts at its op's bytes and ends with them. */
static void layout_desc(struct vfetch_plan_desc *d, uint32_t stride, const struct layout_op *ops,
                        int arrays)
{
    one_stream_desc(d, stride);
    for (unsigned o = 0; o < 4 && ops[o].count; o++) {
        struct vfetch_op *op = &d->ops[d->num_ops++];
        op->format = (enum vfetch_format)ops[o].format;
        op->conversion = (enum vfetch_conversion)ops[o].conversion;
        op->count = ops[o].count;
        if (arrays) {
            d->streams[o] = d->streams[0];
            d->num_streams = o + 1;
        }
        for (unsigned c = 0; c < 4; c++) {
            op->src[c].offset = arrays ? 0 : ops[o].offset;
            op->src[c].stream = arrays ? (uint8_t)o : 0;
            op->swizzle[c] = (uint8_t)c;
        }
        op->write_mask = 0xf;
        op->dst_slot = (uint16_t)(4 * o);
    }
    d->out_slots = (uint16_t)(4 * d->num_ops);
}

/*
 * Fields the generated code converts its own way, against the portable tier:
 * - 32-bit fields to float (unsigned by halves; the divisions by 2^32 - 1 and 2^31 - 1 through
 *   64-bit conversions a lane at a time): values where the rounding is decided (0, 1, all
 *   ones, INT32_MIN and INT32_MAX, powers of two and their neighbours, differences of two
 *   powers, repeated bytes) and random ones, through UNORM, SNORM, unsigned and scaled
 *   unsigned ops;
 * - binary16 (by integers in the SSE4.1 code): every one of the 65,536 values;
 * - Maxwell's B10G11R11 small floats: every value of each field.
 */
static void check_jit_exact_fields(void)
{
    if (!vfetch_jit_available())
        return;
    rng_seed_for("jit-fixed32");
    const unsigned before = test_failures;
    enum { RECORDS = 1 << 15 };
    uint32_t *in = malloc((size_t)RECORDS * 16);
    if (!in)
        exit(2);
    size_t n = 0;
    in[n++] = 0;
    in[n++] = 0xffffffffu;
    in[n++] = 0x7fffffffu;
    in[n++] = 0x80000000u;
    for (unsigned j = 0; j < 32; j++)
        for (int d = -3; d <= 3; d++) {
            in[n++] = (1u << j) + (uint32_t)d;
            in[n++] = ~((1u << j) + (uint32_t)d);
        }
    for (unsigned j = 1; j < 32; j++)
        for (unsigned i = 0; i < j; i++) {
            in[n++] = (1u << j) - (1u << i);
            in[n++] = ~((1u << j) - (1u << i));
        }
    for (unsigned b = 0; b < 256; b++)
        in[n++] = b * 0x01010101u;
    while (n < (size_t)RECORDS * 4)
        in[n++] = (uint32_t)(rnd() >> 32);
    struct vfetch_plan_desc d;
    one_stream_desc(&d, 16);
    static const enum vfetch_conversion conv[4] = { VFETCH_CONV_UNORM, VFETCH_CONV_SNORM_ZERO_CLAMP,
                                                   VFETCH_CONV_UINT, VFETCH_CONV_UINT };
    d.num_ops = 4;
    for (unsigned o = 0; o < 4; o++) {
        struct vfetch_op *op = &d.ops[o];
        op->format = VFETCH_FORMAT_FIXED32;
        op->conversion = conv[o];
        op->count = 4;
        op->shift = (uint8_t)(o == 3 ? 1 + rnd_below(31) : 0);
        for (unsigned c = 0; c < 4; c++) {
            op->src[c].offset = 4 * ((c + o) % 4); /* each op its own lane order */
            op->swizzle[c] = (uint8_t)c;
        }
        op->write_mask = 0xf;
        op->dst_slot = (uint16_t)(4 * o);
    }
    d.out_slots = 16;
    const unsigned levels_run = compare_tiers("jit-fixed32", &d, (const uint8_t *)in, RECORDS);

    /* every binary16 value, four a record, each op reading them in its own order */
    one_stream_desc(&d, 8);
    uint16_t *halves = (uint16_t *)in;
    for (uint32_t h = 0; h < 65536; h++)
        halves[h] = (uint16_t)h;
    d.num_ops = 2;
    for (unsigned o = 0; o < 2; o++) {
        struct vfetch_op *op = &d.ops[o];
        op->format = VFETCH_FORMAT_FLOAT16;
        op->conversion = VFETCH_CONV_FLOAT;
        op->count = (uint8_t)(o ? 3 : 4);
        for (unsigned c = 0; c < 4; c++) {
            op->src[c].offset = 2 * ((c + 3 * o) % 4);
            op->swizzle[c] = (uint8_t)c;
        }
        op->write_mask = 0xf;
        op->dst_slot = (uint16_t)(4 * o);
    }
    d.out_slots = 8;
    compare_tiers("jit-half", &d, (const uint8_t *)in, 16384);

    /* every 11-bit and 10-bit small float: field values i, i + 1024, i / 2 in record i */
    one_stream_desc(&d, 4);
    for (uint32_t i = 0; i < 2048; i++)
        in[i] = (i & 0x7ff) | ((i + 1024) & 0x7ff) << 11 | (i >> 1) << 22;
    d.num_ops = 1;
    d.ops[0] = (struct vfetch_op){ .format = VFETCH_FORMAT_UFLOAT_11_11_10,
                                   .conversion = VFETCH_CONV_FLOAT,
                                   .count = 3,
                                   .swizzle = { 0, 1, 2, 3 },
                                   .write_mask = 0xf };
    d.out_slots = 4;
    compare_tiers("jit-ufloat", &d, (const uint8_t *)in, 2048);
    printf("  jit-fixed32, jit-half, jit-ufloat: 131072 32-bit values x 4 conversions, 65536 "
           "binary16, 2048 small floats, at %u levels, with and without FTZ+DAZ%s\n",
           levels_run, test_failures == before ? "" : "  FAILED");
    free(in);
}

/*
 * Draws whose arrays hold every index their format can name (the generated code then reads no
 * index before converting, lib/jit/x86_index_pass.c): each array exactly that long, ending at a
 * guard page, or one array one byte shorter (then every index is checked first); indices over
 * their whole range, the highest that reads and the skip value mixed in. Return code, result and
 * output against the reference level (a cover judged one byte too generously reads past the
 * guard page's edge; a skip counted wrongly changes the result).
 */
static void check_jit_index_cover(void)
{
    static const uint32_t counts[] = { 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 300 };
    if (!vfetch_jit_available())
        return;
    const unsigned before = test_failures, mask = vfetch_get_cpu_mask();
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    unsigned draws = 0;
    rng_seed_for("jit-index-cover");
    /* bytes past the highest row's element: none, then one short of and exactly what the
       per-vertex pass's widened loads of 12-byte position and normal fields read (16 bytes
       from the field; lib/jit/x86_draw.c), which it then does up to the guard page */
    static const uint32_t slacks[] = { 0, 3, 4 };
    for (unsigned fs = 0; fs < 3 * sizeof index_formats / sizeof index_formats[0]; fs++) {
        const unsigned fi = fs / 3, slack = slacks[fs % 3];
        struct vfetch_gx_desc d;
        /* Dolphin's layout with the wide pass's exact slack (f: its texture coordinates with
           their matrices beside them, up to the output's guard page), else packed */
        gx_desc_of(&d, &index_formats[fi].regs, index_formats[fi].stride,
                   slack == 4 ? VFETCH_GX_LAYOUT_DOLPHIN : VFETCH_GX_LAYOUT_PACKED);
        vfetch_gx_plan *ref = NULL;
        vfetch_set_cpu_mask(0);
        vfetch_set_jit_mode(VFETCH_JIT_OFF);
        test_checks++;
        if (vfetch_gx_compile(&d, &ref)) {
            test_failures++;
            continue;
        }
        const struct vfetch_gx_format *f = vfetch_gx_plan_format(ref);
        const uint32_t stride = vfetch_gx_plan_out_stride(ref);
        /* each indexed array as long as its highest readable row's element */
        struct gx_draw w;
        memset(&w, 0, sizeof w);
        unsigned indexed[VFETCH_GX_NUM_ATTRS], n_indexed = 0;
        uint32_t highest[VFETCH_GX_NUM_ATTRS] = { 0 };
        for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
            if (f->attr[a].mode < VFETCH_GX_INDEX8)
                continue;
            indexed[n_indexed++] = a;
            highest[a] = f->attr[a].mode == VFETCH_GX_INDEX8 ? 0xff : 0xffff;
            if (a == VFETCH_GX_POSITION)
                highest[a]--; /* the skip value reads nothing */
            w.array_size[a] =
                (size_t)highest[a] * d.array_stride[a] + f->attr[a].element_size + slack;
            w.arrays[a] = guard_alloc_tail(w.array_size[a]);
            rnd_fill(w.arrays[a], w.array_size[a]);
        }
        for (unsigned l = 0; l < num_levels; l++) {
            if (!(levels[l].bit & JIT_LEVELS))
                continue;
            vfetch_gx_plan *jit = NULL;
            vfetch_set_cpu_mask(level_mask(l));
            vfetch_set_jit_mode(VFETCH_JIT_ON);
            test_checks++;
            if (vfetch_gx_compile(&d, &jit)) {
                test_failures++;
                continue;
            }
            for (unsigned c = 0; c < sizeof counts / sizeof counts[0]; c++)
                for (unsigned shortened = 0; shortened <= n_indexed; shortened++) {
                    const uint32_t count = counts[c];
                    struct gx_draw v = w;
                    v.count = count;
                    v.vertices_size = (size_t)count * f->vertex_size;
                    v.vertices = guard_alloc_tail(v.vertices_size);
                    rnd_fill(v.vertices, v.vertices_size);
                    if (shortened < n_indexed) { /* the array's first byte off its binding */
                        const unsigned a = indexed[shortened];
                        v.arrays[a]++;
                        v.array_size[a]--;
                    }
                    for (uint32_t i = 0; i < count; i++)
                        for (unsigned j = 0; j < n_indexed; j++) {
                            const unsigned a = indexed[j];
                            const unsigned size = f->attr[a].mode == VFETCH_GX_INDEX8 ? 1 : 2;
                            const uint32_t r = rnd_below(8);
                            const uint32_t idx = r == 0   ? highest[a]
                                                 : r == 1 ? (size == 1 ? 0xff : 0xffff)
                                                          : rnd_below(highest[a] + 1);
                            put_index(v.vertices + (size_t)i * f->vertex_size + index_field(f, a),
                                      size, idx);
                        }
                    int ret[2];
                    struct vfetch_gx_result r[2];
                    draws++;
                    test_checks++;
                    if (!same_as_reference(ref, jit, &v, stride, ret, r)) {
                        test_failures++;
                        fprintf(stderr,
                                "jit-index-cover %s: format %u, slack %u, %u vertices, array %u "
                                "shortened: return %d (reference %d), written %u (%u), skipped "
                                "%u (%u)\n",
                                levels[l].name, fi, slack, count, shortened, ret[1], ret[0],
                                r[1].written, r[0].written, r[1].skipped, r[0].skipped);
                    }
                    guard_free(v.vertices);
                }
            vfetch_gx_plan_free(jit);
        }
        w.vertices = NULL;
        draw_free(&w);
        vfetch_gx_plan_free(ref);
    }
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    printf("  jit-index-cover: %u draws, arrays holding every index (0, 3, 4 bytes past the "
           "highest element) or one byte short%s\n", draws,
           test_failures == before ? "" : "  FAILED");
}

/*
 * The generated groups' window loads at the end of a stream: records whose 8-lane vectors read
 * one 16-byte window for both halves (a broadcast, the unrolled loop's last group reaching back
 * into the groups before it) or two windows, R300's layouts (28, 20 and 24 bytes: positions,
 * normals, colours, binary16 texture coordinates), in one stream and as one array an element
 * (Mesa's binding: each vector's halves from two streams, each stream's window loads from its
 * own register, each binding ending at its own guard page), draws of 1 to 40 records, at every
 * level with the JIT, against the reference (a window one byte past the last record's end
 * segfaults; a lane read from the wrong bytes differs). Under VFETCH_JIT_GROUPS=1 (the count
 * decides, untimed) the arrays of the 20- and 24-byte layouts take whole groups at avx2 and the
 * 28-byte one the pass: checked where the division is the default's.
 */
static void check_jit_windows(void)
{
    if (!vfetch_jit_available())
        return;
    rng_seed_for("jit-windows");
    static const struct {
        uint8_t stride, groups_as_arrays; /* whole groups at avx2 as arrays (the count's) */
        struct layout_op op[4];
    } layouts[] = {
        { 28, 0, LAYOUT_R300_R1 },
        { 20, 1, LAYOUT_R300_R2 },
        { 24, 1, LAYOUT_R300_SKIN },
    };
    const unsigned num_layouts = sizeof layouts / sizeof layouts[0];
    const unsigned before = test_failures, mask = vfetch_get_cpu_mask();
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    const struct saved_env saved = env_save("VFETCH_JIT_GROUPS");
    setenv("VFETCH_JIT_GROUPS", "1", 1);
    /* which take groups is the default division's count (VFETCH_JIT_DIVISION=fma counts the
       pass's divisions two instructions each): checked only under it */
    const char *division = getenv("VFETCH_JIT_DIVISION");
    unsigned runs = 0, grouped = 0;
    for (unsigned f = 0; f < 2 * num_layouts; f++) {
        const unsigned k = f % num_layouts, arrays = f >= num_layouts;
        struct vfetch_plan_desc d;
        layout_desc(&d, layouts[k].stride, layouts[k].op, (int)arrays);
        for (uint32_t count = 1; count <= 40; count++) {
            struct reference_run rr;
            if (!reference_run_make_at(&d, &rr, count | RUN_DIRECT, 0))
                continue;
            for (unsigned l = 0; l < num_levels; l++) {
                if (!(levels[l].bit & JIT_LEVELS))
                    continue;
                vfetch_set_cpu_mask(level_mask(l));
                vfetch_set_jit_mode(VFETCH_JIT_ON);
                vfetch_plan *plan = NULL;
                if (vfetch_plan_compile(&d, &plan)) {
                    test_failures++;
                    continue;
                }
                char detail[64];
                snprintf(detail, sizeof detail, "layout of %u bytes%s, %u records",
                         layouts[k].stride, arrays ? " as arrays" : "", count);
                reference_run_compare(plan, &rr, "jit-windows", levels[l].name, detail);
                runs++;
                if (arrays && count == 1 && levels[l].bit == VFETCH_CPU_AVX2 && !division) {
                    test_checks++;
                    grouped += plan->jit_code.groups;
                    if (plan->jit_code.groups != layouts[k].groups_as_arrays) {
                        test_failures++;
                        fprintf(stderr, "jit-windows avx2: layout of %u bytes as arrays: "
                                "groups %d, expected %d\n", layouts[k].stride,
                                plan->jit_code.groups, layouts[k].groups_as_arrays);
                    }
                }
                vfetch_plan_free(plan);
            }
            reference_run_free(&rr);
        }
    }
    env_restore(&saved);
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    printf("  jit-windows: R300's record layouts in one stream and as arrays (%u in whole groups "
           "at avx2), draws of 1-40 records ending at guard pages: %u runs%s\n",
           grouped, runs, test_failures == before ? "" : "  FAILED");
}

/*
 * jit-reach: plain draws through an index buffer whose bindings hold the reach of wider loads
 * (lib/jit/x86_draw.c, plan_reach: a 12-byte position by one 16-byte load, a 6-byte field by
 * one 8-byte load, where the stream's extent ends the record's bytes), R300 layouts as arrays
 * and in one stream, 16- and 32-bit entries naming the last record, draws of 1 to 40 and 100
 * to 300 records: each binding ending at a guard page with exactly its reach past the highest
 * record (the wide passes, `plain` 2), or one byte less (the exact ones), every byte as the
 * reference's. The AVX2 and SSE4.1 variants have the passes where a stream's loads narrow.
 */
static void check_jit_reach(void)
{
    if (!vfetch_jit_available())
        return;
    rng_seed_for("jit-reach");
    static const struct {
        const char *name;
        uint8_t stride, arrays, reach;
        struct layout_op op[4];
    } layouts[] = {
        { "r1 arrays", 28, 1, 1, LAYOUT_R300_R1 },
        { "skin arrays", 24, 1, 1, LAYOUT_R300_SKIN },
        { "12-byte position", 12, 0, 1, { { VFETCH_FORMAT_FLOAT32, VFETCH_CONV_FLOAT, 3, 0 } } },
        { "6-byte", 6, 0, 1, { { VFETCH_FORMAT_FIXED16, VFETCH_CONV_SNORM_NO_ZERO, 3, 0 } } },
        /* r1 in one array: the position's 16 bytes inside the record's 28 */
        { "r1", 28, 0, 0, LAYOUT_R300_R1 },
    };
    const unsigned before = test_failures, mask = vfetch_get_cpu_mask();
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    unsigned runs = 0, wide = 0;
    for (unsigned f = 0; f < sizeof layouts / sizeof layouts[0]; f++) {
        struct vfetch_plan_desc d;
        layout_desc(&d, layouts[f].stride, layouts[f].op, layouts[f].arrays);
        for (unsigned k = 0; k < d.num_streams; k++)
            d.streams[k].step = VFETCH_STEP_INDEXED;
        /* each component at its own bytes, one after the other (a packed container shared) */
        for (unsigned o = 0; o < d.num_ops; o++) {
            const struct vfetch_format_info *fi = &vfetch_format_info[d.ops[o].format];
            for (unsigned c = 0; c < 4; c++)
                d.ops[o].src[c].offset += fi->packed ? 0 : c * fi->container;
        }
        vfetch_set_cpu_mask(0);
        vfetch_plan *ref = NULL;
        CHECK_EQ(vfetch_plan_compile(&d, &ref), 0);
        vfetch_plan *plans[8] = { NULL };
        for (unsigned l = 0; l < num_levels && l < 8; l++) {
            if (!(levels[l].bit & JIT_LEVELS))
                continue;
            vfetch_set_cpu_mask(level_mask(l));
            vfetch_set_jit_mode(VFETCH_JIT_ON);
            if (vfetch_plan_compile(&d, &plans[l])) {
                test_failures++;
                continue;
            }
            const struct vfetch_jit_code *c = &plans[l]->jit_code;
            test_checks++;
            if (c->entry_indexed && c->indexed_reach != layouts[f].reach) {
                test_failures++;
                printf("  jit-reach %s %s: indexed_reach %d\n", layouts[f].name, levels[l].name,
                       c->indexed_reach);
            }
        }
        for (unsigned r = 0; r < 48 && ref; r++) {
            const uint32_t count = r < 40 ? r + 1 : 100 + rnd_below(201);
            const uint32_t records = 1 + rnd_below(count + 8);
            const int wide_entries = rnd_below(2);
            const unsigned entry = wide_entries ? 4 : 2;
            uint8_t *idx = guard_alloc_tail((size_t)count * entry);
            for (uint32_t i = 0; i < count; i++) {
                /* the last record named at least once */
                const uint32_t rec = i == count / 2 ? records - 1 : rnd_below(records);
                if (wide_entries)
                    memcpy(idx + 4 * i, &rec, 4);
                else {
                    const uint16_t h = (uint16_t)rec;
                    memcpy(idx + 2 * i, &h, 2);
                }
            }
            uint8_t *records_bytes = malloc((size_t)records * layouts[f].stride + 16);
            if (!records_bytes)
                exit(2);
            rnd_fill(records_bytes, (size_t)records * layouts[f].stride + 16);
            for (unsigned less = 0; less < 2; less++) {
                struct run_buffers b;
                memset(&b, 0, sizeof b);
                uint8_t *alloc[VFETCH_MAX_STREAMS] = { NULL };
                for (unsigned k = 0; k < d.num_streams; k++) {
                    /* the stream's bytes from its element's first; its reach past the last
                       record (the extent where it has none), less one byte where asked */
                    const size_t at = layouts[f].arrays ? layouts[f].op[k].offset : 0;
                    uint32_t reach = ref->stream_extent[k];
                    for (unsigned l = 0; l < 8; l++)
                        if (plans[l] && plans[l]->jit_code.indexed_reach &&
                            k < VFETCH_JIT_REACH_STREAMS &&
                            plans[l]->jit_code.stream_reach[k] > reach)
                            reach = plans[l]->jit_code.stream_reach[k];
                    size_t size = (size_t)(records - 1) * layouts[f].stride + reach;
                    if (reach > ref->stream_extent[k])
                        size -= less;
                    alloc[k] = guard_alloc_tail(size);
                    memcpy(alloc[k], records_bytes + at, size);
                    b.bind[k] = (struct vfetch_binding){ alloc[k], size };
                }
                b.idx = idx;
                b.idx_size = (size_t)count * entry;
                b.idx_type = wide_entries ? VFETCH_INDEX_U32 : VFETCH_INDEX_U16;
                b.count = count;
                b.max_index = UINT32_MAX;
                b.out_size = (size_t)count * vfetch_plan_out_stride(ref);
                uint8_t *want = guard_alloc_tail(b.out_size), *got = guard_alloc_tail(b.out_size);
                memset(want, 0x5a, b.out_size);
                CHECK_EQ(run_with(ref, &b, want), 0);
                for (unsigned l = 0; l < 8; l++) {
                    if (!plans[l])
                        continue;
                    memset(got, 0x5a, b.out_size);
                    CHECK_EQ(run_with(plans[l], &b, got), 0);
                    char detail[96];
                    snprintf(detail, sizeof detail, "%s, %u records, %u-bit entries, reach%s",
                             layouts[f].name, count, 8 * entry, less ? " less one byte" : "");
                    compare_outputs("jit-reach", levels[l].name, detail, want, got, b.out_size,
                                    vfetch_plan_out_stride(ref), NULL, 0, 0);
                    runs++;
                    wide += !less && plans[l]->jit_code.indexed_reach;
                }
                guard_free(want);
                guard_free(got);
                for (unsigned k = 0; k < d.num_streams; k++)
                    guard_free(alloc[k]);
            }
            free(records_bytes);
            guard_free(idx);
        }
        for (unsigned l = 0; l < 8; l++)
            vfetch_plan_free(plans[l]);
        vfetch_plan_free(ref);
    }
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    printf("  jit-reach: %u draws through an index buffer at bindings ending at their reach or "
           "a byte short (%u the wide passes'), %u failures\n",
           runs, wide, test_failures - before);
}

/* A plan of d at level l with the JIT on, the gathered groups weighed (ask 0) or asked wherever
   they fit (1: VFETCH_JIT_GATHER=1); NULL, counted as a failure, where it does not compile. */
static vfetch_plan *gathered_compile(const struct vfetch_plan_desc *d, unsigned l, unsigned ask)
{
    if (ask)
        setenv("VFETCH_JIT_GATHER", "1", 1);
    else
        unsetenv("VFETCH_JIT_GATHER");
    vfetch_set_cpu_mask(level_mask(l));
    vfetch_set_jit_mode(VFETCH_JIT_ON);
    vfetch_plan *plan = NULL;
    if (vfetch_plan_compile(d, &plan)) {
        test_failures++;
        return NULL;
    }
    return plan;
}

/* Draws of d's plans (plans[level][ask]) through 16- and 32-bit entries of 1 to 40 and 100 to
   300 records at guard pages, every byte as the reference's, also with the output 16 bytes off
   a 32-byte boundary; then the plans freed. The draws made. */
static unsigned gathered_draws(const struct vfetch_plan_desc *d, vfetch_plan *plans[8][2],
                               const char *test, const char *name)
{
    unsigned runs = 0;
    for (unsigned r = 0; r < 64; r++) {
        const uint32_t count = r < 40 ? r + 1 : 100 + rnd_below(201);
        struct reference_run rr;
        if (!reference_run_make_at(d, &rr, count, -1))
            continue;
        uint8_t *off = malloc(rr.b.out_size + 16);
        if (!off)
            exit(2);
        for (unsigned l = 0; l < num_levels && l < 8; l++)
            for (unsigned ask = 0; ask < 2 && plans[l][ask]; ask++) {
                char detail[80];
                snprintf(detail, sizeof detail, "%s, %u records, %s", name, count,
                         ask ? "asked" : "weighed");
                reference_run_compare(plans[l][ask], &rr, test, levels[l].name, detail);
                memcpy(off + 16, rr.pattern, rr.b.out_size);
                test_checks++;
                if (run_with(plans[l][ask], &rr.b, off + 16) ||
                    memcmp(off + 16, rr.want, rr.b.out_size)) {
                    test_failures++;
                    printf("  %s %s %s: output 16 bytes off, differs\n", test, levels[l].name,
                           detail);
                }
                runs++;
            }
        free(off);
        reference_run_free(&rr);
    }
    for (unsigned l = 0; l < 8; l++)
        for (unsigned ask = 0; ask < 2; ask++)
            vfetch_plan_free(plans[l][ask]);
    return runs;
}

/*
 * Gathered groups (lib/jit/x86_record.c): a plan's draws through an index buffer run whole
 * 8-lane groups of its record program, each record loaded from its entry's place, only bytes of
 * the record its extent covers (4, 8 or 16 at once where they fit, else the bytes themselves).
 * R300's layouts and records whose windows do not fit 16 bytes (12, 6 and 40 bytes long), in
 * one stream and as one array an element (Mesa's binding: each record from [its stream's
 * record 0 + offset]), through 16- and 32-bit entries (random offsets and clamps: plain draws
 * and others) of 1 to 40 and 100 to 300 records, each buffer at a guard page (the highest
 * record its binding's last), with the weighing as it is and with the groups asked wherever
 * they fit (VFETCH_JIT_GATHER=1), the output also 16 bytes off a 32-byte boundary (the halved
 * stores): every byte as the reference's. The AVX2 variant gathers in both entry widths, plain
 * draws and clamped ones, wherever asked, and by default where the bench measured it faster
 * (r300-r3, r300-r4, r300-skin; arrays where the compile times them faster, either way here);
 * never a word copy, nor arrays of two strides.
 */
static void check_jit_gathered(void)
{
    if (!vfetch_jit_available())
        return;
    rng_seed_for("jit-gathered");
    /* by_default: 1 gathered by default, 0 not, 2 never (a word copy, or arrays of two
       strides), 3 either (arrays: the compile's timing decides); arrays: 1 one array an op,
       2 so with the second array's stride 4 bytes longer */
    static const struct {
        const char *name;
        uint8_t stride, by_default, arrays;
        struct layout_op op[4];
    } layouts[] = {
        { "r3", 4, 1, 0, { { VFETCH_FORMAT_FIXED8, VFETCH_CONV_UNORM, 4, 0 } } },
        { "r4", 8, 1, 0, LAYOUT_R300_R4 },
        { "skin", 24, 1, 0, LAYOUT_R300_SKIN },
        { "r2", 20, 0, 0, LAYOUT_R300_R2 },
        { "12-byte", 12, 0, 0, { { VFETCH_FORMAT_FIXED8, VFETCH_CONV_UNORM, 4, 0 },
                                 { VFETCH_FORMAT_FIXED16, VFETCH_CONV_SNORM_NO_ZERO, 4, 4 } } },
        { "6-byte", 6, 0, 0, { { VFETCH_FORMAT_FIXED16, VFETCH_CONV_SNORM_NO_ZERO, 3, 0 } } },
        { "40-byte", 40, 0, 0, { { VFETCH_FORMAT_FLOAT32, VFETCH_CONV_FLOAT, 4, 20 },
                                 { VFETCH_FORMAT_FIXED8, VFETCH_CONV_UNORM, 4, 36 } } },
        /* a word copy (r300-float8): never gathered, asked or not */
        { "float8", 32, 2, 0, { { VFETCH_FORMAT_FLOAT32, VFETCH_CONV_FLOAT, 4, 0 },
                                { VFETCH_FORMAT_FLOAT32, VFETCH_CONV_FLOAT, 4, 16 } } },
        /* as arrays: 4- and 8-byte elements, a 12-byte position (its bytes by a load and an
           insert), binary16 */
        { "r4 arrays", 8, 3, 1, LAYOUT_R300_R4 },
        { "skin arrays", 24, 3, 1, LAYOUT_R300_SKIN },
        { "r1 arrays", 28, 3, 1, LAYOUT_R300_R1 },
        { "r2 arrays", 20, 3, 1, LAYOUT_R300_R2 },
        { "r2 arrays of two strides", 20, 2, 2, LAYOUT_R300_R2 },
    };
    const unsigned before = test_failures, mask = vfetch_get_cpu_mask();
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    const struct saved_env asked = env_save("VFETCH_JIT_GATHER");
    unsigned runs = 0, gathered = 0;
    for (unsigned f = 0; f < sizeof layouts / sizeof layouts[0]; f++) {
        struct vfetch_plan_desc d;
        layout_desc(&d, layouts[f].stride, layouts[f].op, layouts[f].arrays != 0);
        for (unsigned k = 0; k < d.num_streams; k++)
            d.streams[k].step = VFETCH_STEP_INDEXED;
        if (layouts[f].arrays == 2)
            d.streams[1].stride += 4;
        const int copy = layouts[f].by_default == 2 && !layouts[f].arrays;
        const int never = layouts[f].by_default == 2;
        if (copy) /* each word at its own place: a word copy */
            for (unsigned o = 0; o < d.num_ops; o++)
                for (unsigned c = 0; c < 4; c++)
                    d.ops[o].src[c].offset = layouts[f].op[o].offset + 4u * c;
        /* the code: each level, weighed and asked */
        vfetch_plan *plans[8][2] = { { NULL } };
        for (unsigned l = 0; l < num_levels; l++)
            for (unsigned ask = 0; ask < 2 && (levels[l].bit & JIT_LEVELS); ask++) {
                if (l >= 8 || !(plans[l][ask] = gathered_compile(&d, l, ask)))
                    continue;
                const unsigned loops = plans[l][ask]->jit_code.gathered_loops;
                struct vfetch_plan_info info;
                vfetch_plan_info(plans[l][ask], &info);
                test_checks++;
                if (info.word_copy != copy) {
                    test_failures++;
                    printf("  jit-gathered %s: word copy %d\n", layouts[f].name, info.word_copy);
                }
                const int want = levels[l].bit != VFETCH_CPU_SSE41 && !never &&
                                 (ask || layouts[f].by_default == 1);
                const int either = !ask && layouts[f].by_default == 3;
                test_checks++;
                /* four passes gathered (16- and 32-bit entries, plain or clamped), six where
                   plain draws also load as far as the streams' reach (indexed_reach) */
                const unsigned all = plans[l][ask]->jit_code.indexed_reach ? 6 : 4;
                if (either ? loops != 0 && loops != all
                           : want ? loops != all : ((ask || never) && loops)) {
                    test_failures++;
                    printf("  jit-gathered %s %s%s: %u gathered loops\n", layouts[f].name,
                           levels[l].name, ask ? " (asked)" : "", loops);
                }
                gathered += loops != 0;
            }
        runs += gathered_draws(&d, plans, "jit-gathered", layouts[f].name);
    }
    env_restore(&asked);
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    printf("  jit-gathered: %zu layouts, %u plans with gathered groups, %u runs%s\n",
           sizeof layouts / sizeof layouts[0], gathered, runs,
           test_failures == before ? "" : "  FAILED");
}

/*
 * Records whose fields reach past their stride (lib/jit/x86_record.c, gather_streams): a
 * 16-byte record read as 18 bytes (a position, and a 16-bit triple whose last component lies
 * past the stride), 36 bytes of output a record, so that an 8-lane vector's low half begins
 * with that component. In order, those two bytes are the next record's first; through an index
 * buffer, the record's own. Found by the maxwell fuzzer: the gathered groups named a lane's
 * record by its first byte's offset over the stride and loaded the next record's bytes. At every
 * level with the JIT, with the weighing and with the groups asked (VFETCH_JIT_GATHER=1): no
 * gathered loop, and draws of 1 to 40 and 100 to 300 records through 16- and 32-bit entries at
 * guard pages, every byte as the reference's.
 */
static void check_jit_gathered_past_stride(void)
{
    if (!vfetch_jit_available())
        return;
    rng_seed_for("jit-gathered-past-stride");
    struct vfetch_plan_desc d;
    one_stream_desc(&d, 16);
    d.streams[0].step = VFETCH_STEP_INDEXED;
    static const struct {
        uint8_t format, conversion, count, offset, step, mask, slot;
        uint32_t w;
    } ops[] = {
        { VFETCH_FORMAT_FLOAT32, VFETCH_CONV_FLOAT, 3, 0, 4, 7, 0, 0 },
        { VFETCH_FORMAT_FIXED16, VFETCH_CONV_UNORM, 3, 12, 2, 7, 4, 0 },
        { VFETCH_FORMAT_CONSTANT, VFETCH_CONV_FLOAT, 0, 0, 0, 8, 0, 0x3f800000 },
        { VFETCH_FORMAT_CONSTANT, VFETCH_CONV_FLOAT, 0, 0, 0, 8, 4, 0x3f800000 },
        { VFETCH_FORMAT_CONSTANT, VFETCH_CONV_FLOAT, 0, 0, 0, 1, 8, 0 },
    };
    for (unsigned o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        struct vfetch_op *op = &d.ops[d.num_ops++];
        op->format = (enum vfetch_format)ops[o].format;
        op->conversion = (enum vfetch_conversion)ops[o].conversion;
        op->count = ops[o].count;
        for (unsigned c = 0; c < 4; c++) {
            op->src[c].offset = ops[o].offset + ops[o].step * (c < 3 ? c : 0);
            op->swizzle[c] = (uint8_t)c;
        }
        op->write_mask = ops[o].mask;
        op->dst_slot = ops[o].slot;
        op->constant[3] = ops[o].w;
    }
    d.out_slots = 9;
    const unsigned before = test_failures, mask = vfetch_get_cpu_mask();
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    const struct saved_env asked = env_save("VFETCH_JIT_GATHER");
    vfetch_plan *plans[8][2] = { { NULL } };
    for (unsigned l = 0; l < num_levels && l < 8; l++)
        for (unsigned ask = 0; ask < 2 && (levels[l].bit & JIT_LEVELS); ask++) {
            plans[l][ask] = gathered_compile(&d, l, ask);
            test_checks++;
            if (plans[l][ask] && plans[l][ask]->jit_code.gathered_loops) {
                test_failures++;
                printf("  jit-gathered-past-stride %s%s: %u gathered loops\n", levels[l].name,
                       ask ? " (asked)" : "", plans[l][ask]->jit_code.gathered_loops);
            }
        }
    const unsigned runs = gathered_draws(&d, plans, "jit-gathered-past-stride", "18-byte records");
    env_restore(&asked);
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    printf("  jit-gathered-past-stride: %u runs%s\n", runs,
           test_failures == before ? "" : "  FAILED");
}

/*
 * The generated functions keep the registers the caller's code keeps (the x86-64 System V
 * ABI's rbx, rbp, r12-r15 and rsp): a call through a trampoline that sets each to a pattern
 * and, after the call, ORs in how each differs from it (checkasm_clobbered), rsp compared with
 * its value before the call. A GX draw's per-vertex pass holds array bases in those registers
 * and a plan's conversion its streams (lib/jit/x86_held.c, x86_draw.c).
 */
#if defined(__x86_64__) && defined(__GNUC__) /* the JIT's only target */
int checkasm_checked_call(const void *fn, const void *a, const void *b, const void *c,
                          const void *d);
uint64_t checkasm_clobbered, checkasm_saved_rsp;
__asm__(".text\n"
        ".globl checkasm_checked_call\n"
        ".type checkasm_checked_call, @function\n"
        "checkasm_checked_call:\n"
        "  push %rbx\n  push %rbp\n  push %r12\n  push %r13\n  push %r14\n  push %r15\n"
        "  sub $8, %rsp\n"
        "  mov %rdi, %rax\n  mov %rsi, %rdi\n  mov %rdx, %rsi\n  mov %rcx, %rdx\n  mov %r8, %rcx\n"
        "  movabs $0x5a17c0de0000b0b1, %rbx\n  movabs $0x5a17c0de0000b0b2, %rbp\n"
        "  movabs $0x5a17c0de0000b0b3, %r12\n  movabs $0x5a17c0de0000b0b4, %r13\n"
        "  movabs $0x5a17c0de0000b0b5, %r14\n  movabs $0x5a17c0de0000b0b6, %r15\n"
        "  mov %rsp, checkasm_saved_rsp(%rip)\n"
        "  call *%rax\n"
        "  movabs $0x5a17c0de0000b0b1, %rdx\n  xor %rdx, %rbx\n"
        "  movabs $0x5a17c0de0000b0b2, %rdx\n  xor %rdx, %rbp\n  or %rbp, %rbx\n"
        "  movabs $0x5a17c0de0000b0b3, %rdx\n  xor %rdx, %r12\n  or %r12, %rbx\n"
        "  movabs $0x5a17c0de0000b0b4, %rdx\n  xor %rdx, %r13\n  or %r13, %rbx\n"
        "  movabs $0x5a17c0de0000b0b5, %rdx\n  xor %rdx, %r14\n  or %r14, %rbx\n"
        "  movabs $0x5a17c0de0000b0b6, %rdx\n  xor %rdx, %r15\n  or %r15, %rbx\n"
        "  mov checkasm_saved_rsp(%rip), %rdx\n  xor %rsp, %rdx\n  or %rdx, %rbx\n"
        "  or %rbx, checkasm_clobbered(%rip)\n"
        "  add $8, %rsp\n"
        "  pop %r15\n  pop %r14\n  pop %r13\n  pop %r12\n  pop %rbp\n  pop %rbx\n"
        "  ret\n"
        ".size checkasm_checked_call, .-checkasm_checked_call\n");
#endif

/* The peer kit's indexed formats (c: two arrays; f: twelve, more than the registers hold) and
   random ones, at every JIT level, each draw's generated function called through the
   trampoline: the registers kept, and the same return code as a call through vfetch_gx_run.
   Plans of up to 16 streams (which keep their records in rbx.. and the frame) likewise, and
   through an index buffer (whose state in r8, r9 and rsi moves the streams to rbx..). */
static void check_jit_saved_registers(void)
{
#if !defined(__x86_64__) || !defined(__GNUC__)
    return;
#else
    if (!vfetch_jit_available())
        return;
    rng_seed_for("jit-saved-registers");
    static const struct {
        struct vfetch_gx_regs regs;
        uint8_t stride[VFETCH_GX_NUM_ATTRS];
    } kit[] = {
        { { 0x00004600, 0, 0x40000009, 0x80000000, 0 }, { 12, 0, 2 } },
        { { 0x0001ffff, 0x0000ffff, 0x41377209, 0xc8241209, 0x04824120 },
          { 12, 36, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8 } },
    };
    const unsigned mask = vfetch_get_cpu_mask();
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    const unsigned before = test_failures, formats = opt_quick ? 60 : 200;
    unsigned calls = 0, plan_calls = 0, indexed_calls = 0;
    checkasm_clobbered = 0;
    for (unsigned l = 0; l < num_levels; l++) {
        if (!(levels[l].bit & JIT_LEVELS))
            continue;
        vfetch_set_cpu_mask(level_mask(l));
        vfetch_set_jit_mode(VFETCH_JIT_ON);
        for (unsigned i = 0; i < formats; i++) {
            struct vfetch_gx_desc d;
            if (i < 2 * 3) {
                gx_desc_of(&d, &kit[i % 2].regs, kit[i % 2].stride, (enum vfetch_gx_layout)(i / 2));
            } else
                random_gx_desc(&d);
            vfetch_gx_plan *plan;
            if (vfetch_gx_compile(&d, &plan))
                continue;
            if (plan->jit_code.entry) {
                struct gx_draw w;
                random_draw(vfetch_gx_plan_format(plan), &d, &w);
                const size_t out_size = (size_t)w.count * vfetch_gx_plan_out_stride(plan);
                uint8_t *out = guard_alloc_tail(out_size ? out_size : 1);
                struct vfetch_gx_run_params p;
                draw_params(&w, out, out_size, &p);
                struct vfetch_gx_result r;
                const int got = checkasm_checked_call(plan->jit_code.entry, plan, &p, &r, NULL);
                const int want = run_draw(plan, &w, out, out_size, &r);
                test_checks++;
                if (got != want) {
                    test_failures++;
                    fprintf(stderr, "jit-saved-registers %s: format %u returned %d, not %d\n",
                            levels[l].name, i, got, want);
                }
                calls++;
                guard_free(out);
                draw_free(&w);
            }
            vfetch_gx_plan_free(plan);
        }
        for (unsigned i = 0; i < formats / 4; i++) {
            struct vfetch_plan_desc d;
            if (!random_plan_desc(&d))
                continue;
            if (i % 2)
                spread_streams(&d);
            vfetch_plan *plan;
            if (vfetch_plan_compile(&d, &plan))
                continue;
            if (plan->jit_code.entry) {
                /* each stream's first record: a buffer as long as the stream's extent */
                const uint8_t *records[VFETCH_MAX_STREAMS];
                uint8_t *bufs[VFETCH_MAX_STREAMS] = { 0 };
                const uint32_t count = 1 + rnd_below(40);
                for (unsigned k = 0; k < d.num_streams; k++) {
                    const size_t size = (size_t)plan->stream_extent[k] +
                                        (size_t)plan->vertex_stride[k] * (count - 1);
                    bufs[k] = guard_alloc_tail(size ? size : 1);
                    rnd_fill(bufs[k], size);
                    records[k] = bufs[k];
                }
                const size_t out_size = (size_t)count * vfetch_plan_out_stride(plan);
                uint8_t *out = guard_alloc_tail(out_size ? out_size : 1);
                (void)checkasm_checked_call(plan->jit_code.entry, records,
                                            (const void *)(uintptr_t)count, out, NULL);
                plan_calls++;
                if (plan->jit_code.entry_indexed) {
                    /* through an index buffer of random width naming records below count:
                       an indexed stream's record 0 is its buffer's start, as the others' first */
                    uint32_t entries[40];
                    for (uint32_t k = 0; k < count; k++)
                        entries[k] = rnd_below(count);
                    uint16_t narrow[40];
                    for (uint32_t k = 0; k < count; k++)
                        narrow[k] = (uint16_t)entries[k];
                    const int wide = (int)rnd_below(2);
                    const struct vfetch_jit_index index = {
                        wide ? (const void *)entries : (const void *)narrow, 0, count - 1,
                        (uint64_t)wide, rnd_below(2) /* no offset, no clamp: plain either way */
                    };
                    (void)checkasm_checked_call(plan->jit_code.entry_indexed, records,
                                                (const void *)(uintptr_t)count, out, &index);
                    indexed_calls++;
                }
                guard_free(out);
                for (unsigned k = 0; k < d.num_streams; k++)
                    guard_free(bufs[k]);
            }
            vfetch_plan_free(plan);
        }
    }
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    test_checks += 2;
    if (checkasm_clobbered) {
        test_failures++;
        fprintf(stderr, "jit-saved-registers: a generated function changed a kept register "
                        "(differences ORed: %016llx)\n", (unsigned long long)checkasm_clobbered);
    }
    if (!calls || !plan_calls || !indexed_calls)
        test_failures++;
    printf("  jit-saved-registers: %u GX draws and %u plan conversions (%u of them again through "
           "an index buffer) through the generated code, rbx, rbp, r12-r15 and rsp kept%s\n",
           calls, plan_calls, indexed_calls, test_failures == before ? "" : "  FAILED");
#endif
}

/*
 * The per-vertex pass's groups (lib/jit/x86_vertex.c; config c's ops are few: eight vertices a
 * group): config c (position index16, colour index8) in each layout at every level with the JIT,
 * under VFETCH_JIT_COMPARE, draws of 1 to 21 vertices (two groups and the most a tail holds) with no skip value, one at each position, two in a row at each position, and every
 * vertex skipped; vertices and output at guard pages. Return code, result and every output byte
 * against the reference level: a skipped vertex in a group's k-th place leaves the k before it
 * converted and the groups going on from the next.
 */
static void check_jit_groups(void)
{
    if (!vfetch_jit_available())
        return;
    rng_seed_for("jit-groups");
    const unsigned mask = vfetch_get_cpu_mask();
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    const unsigned before = test_failures;
    unsigned draws = 0;
    enum { ROWS = 40 };
    struct gx_draw w;
    memset(&w, 0, sizeof w);
    w.array_size[VFETCH_GX_POSITION] = ROWS * 12;
    w.array_size[VFETCH_GX_COLOR0] = ROWS * 2;
    w.arrays[VFETCH_GX_POSITION] = guard_alloc_tail(ROWS * 12);
    w.arrays[VFETCH_GX_COLOR0] = guard_alloc_tail(ROWS * 2);
    rnd_fill(w.arrays[VFETCH_GX_POSITION], ROWS * 12);
    rnd_fill(w.arrays[VFETCH_GX_COLOR0], ROWS * 2);
    for (unsigned layout = 0; layout < 3; layout++) {
        struct vfetch_gx_desc d;
        vfetch_gx_desc_init(&d);
        d.regs = (struct vfetch_gx_regs){ 0x00004600, 0, 0x40000009, 0x80000000, 0 };
        d.array_stride[VFETCH_GX_POSITION] = 12;
        d.array_stride[VFETCH_GX_COLOR0] = 2;
        d.layout = layout == 0   ? VFETCH_GX_LAYOUT_PACKED
                   : layout == 1 ? VFETCH_GX_LAYOUT_DOLPHIN
                                 : VFETCH_GX_LAYOUT_VEC4;
        d.color_output = layout == 2 ? VFETCH_GX_COLOR_FLOAT : VFETCH_GX_COLOR_RGBA8;
        vfetch_set_cpu_mask(0);
        vfetch_set_jit_mode(VFETCH_JIT_OFF);
        vfetch_gx_plan *ref = NULL;
        if (vfetch_gx_compile(&d, &ref)) {
            test_failures++;
            continue;
        }
        const uint32_t stride = vfetch_gx_plan_out_stride(ref);
        for (unsigned l = 0; l < num_levels; l++) {
            if (!(levels[l].bit & JIT_LEVELS))
                continue;
            vfetch_set_cpu_mask(level_mask(l));
            vfetch_set_jit_mode(VFETCH_JIT_COMPARE);
            vfetch_gx_plan *plan = NULL;
            test_checks++;
            if (vfetch_gx_compile(&d, &plan)) {
                test_failures++;
                continue;
            }
            for (uint32_t n = 1; n <= 21; n++)
                for (unsigned pattern = 0; pattern < 2 * n + 2; pattern++) {
                    /* 0: none; 1..n: one at pattern - 1; then two from pattern - n - 1; last:
                       every vertex */
                    w.count = n;
                    w.vertices_size = 3 * (size_t)n;
                    w.vertices = guard_alloc_tail(w.vertices_size);
                    for (uint32_t v = 0; v < n; v++) {
                        const int skipped =
                            pattern == 2 * n + 1 || (pattern >= 1 && pattern <= n && v == pattern - 1) ||
                            (pattern > n && pattern <= 2 * n && (v == pattern - n - 1 || v == pattern - n));
                        const uint32_t row = skipped ? 0xffff : rnd_below(ROWS);
                        w.vertices[3 * v] = (uint8_t)(row >> 8);
                        w.vertices[3 * v + 1] = (uint8_t)row;
                        w.vertices[3 * v + 2] = (uint8_t)rnd_below(ROWS);
                    }
                    const size_t out_size = (size_t)n * stride;
                    uint8_t *want = guard_alloc_tail(out_size), *got = guard_alloc_tail(out_size);
                    rnd_fill(want, out_size);
                    memcpy(got, want, out_size);
                    struct vfetch_gx_result want_r = { 7, 7, 7 }, got_r = { 9, 9, 9 };
                    const int want_err = run_draw(ref, &w, want, out_size, &want_r);
                    const int got_err = run_draw(plan, &w, got, out_size, &got_r);
                    draws++;
                    test_checks++;
                    if (got_err != want_err || got_r.written != want_r.written ||
                        got_r.skipped != want_r.skipped || memcmp(got, want, out_size)) {
                        test_failures++;
                        fprintf(stderr,
                                "jit-groups %s: layout %d, %u vertices, pattern %u: return %d "
                                "(%d), written %u (%u), skipped %u (%u)\n",
                                levels[l].name, d.layout, n, pattern, got_err, want_err,
                                got_r.written, want_r.written, got_r.skipped, want_r.skipped);
                    }
                    guard_free(want);
                    guard_free(got);
                    guard_free(w.vertices);
                    w.vertices = NULL;
                }
            vfetch_gx_plan_free(plan);
        }
        vfetch_gx_plan_free(ref);
    }
    draw_free(&w);
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    printf("  jit-groups: config c, 3 layouts: %u draws of 1-21 vertices with skip values at "
           "every place of a group%s\n",
           draws, test_failures == before ? ", every one as the reference" : "  FAILED");
}

#if defined(__x86_64__)
#include <immintrin.h>

/* Integers x in [-bound, bound] (bound <= 2^24: each exact as a float) for which the FMA form,
   fma(x, hi, x * lo) with vfetch_jit_reciprocal's pair of d, is not the quotient x / d
   correctly rounded; eight at a time, both computed by the CPU as the generated code does. */
__attribute__((target("avx2,fma"))) static uint64_t fma_division_misses(float d, int32_t bound)
{
    float hi, lo;
    vfetch_jit_reciprocal(d, &hi, &lo);
    const __m256 vh = _mm256_set1_ps(hi), vl = _mm256_set1_ps(lo), vd = _mm256_set1_ps(d);
    __m256i x = _mm256_add_epi32(_mm256_set1_epi32(-bound), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i eight = _mm256_set1_epi32(8);
    uint64_t misses = 0;
    for (int64_t v = -bound; v <= bound; v += 8) {
        const __m256 f = _mm256_cvtepi32_ps(x);
        const __m256 q = _mm256_div_ps(f, vd);
        const __m256 r = _mm256_fmadd_ps(f, vh, _mm256_mul_ps(f, vl));
        const __m256i same = _mm256_cmpeq_epi32(_mm256_castps_si256(q), _mm256_castps_si256(r));
        misses += (uint64_t)__builtin_popcount(~(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(same)) & 0xffu);
        x = _mm256_add_epi32(x, eight);
    }
    return misses;
}
#endif

/* A plan of one sequential stream: `ops` ops of `format` x `count` from offset 0 of each record,
   one conversion each, their slots one after the other. */
/* The plan's odd ops from a second stream like its first (a plan of two streams runs no whole
   groups: every record through the per-vertex ops). */
static void split_streams(struct vfetch_plan_desc *d)
{
    d->num_streams = 2;
    d->streams[1] = d->streams[0];
    for (unsigned o = 1; o < d->num_ops; o += 2)
        for (unsigned c = 0; c < 4; c++)
            d->ops[o].src[c].stream = 1;
}

static void division_desc(struct vfetch_plan_desc *d, uint32_t stride, enum vfetch_format format,
                          unsigned count, unsigned size, const enum vfetch_conversion *conv,
                          unsigned ops)
{
    one_stream_desc(d, stride);
    d->num_ops = ops;
    for (unsigned o = 0; o < ops; o++) {
        struct vfetch_op *op = &d->ops[o];
        op->format = format;
        op->conversion = conv[o];
        op->count = (uint8_t)count;
        for (unsigned c = 0; c < count; c++) {
            op->src[c].offset = format == VFETCH_FORMAT_FIXED_10_10_10 ? 0 : size * c;
            op->swizzle[c] = (uint8_t)c;
        }
        for (unsigned c = count; c < 4; c++)
            op->swizzle[c] = (uint8_t)c;
        op->write_mask = 0xf;
        op->dst_slot = (uint16_t)(4 * o);
    }
    d->out_slots = (uint16_t)(4 * ops);
}

/*
 * The normalised conversions' division in its FMA form (lib/jit/jit.h, enum
 * vfetch_jit_division), which a plan's compile takes where VFETCH_JIT_DIVISION=fma asks:
 * - the form's quotient is the division's for every dividend the conversions make: every
 *   integer of magnitude up to 2^n over 2^n - 1 and 2^(n-1) - 1, n = 1..24 (UNORM, UNORM8 after
 *   its widening, SNORM's three kinds; fields wider than 24 bits take the 32-bit path), by
 *   the CPU, as the code computes it (quick mode: n up to 16);
 * - with VFETCH_JIT_DIVISION=fma, plans of every 8- and 16-bit value and every 10-bit field
 *   through each normalised conversion, generated against the portable tier at every level
 *   with the JIT (compare_tiers: its AVX2 variant in the FMA form, which plan info reports,
 *   its SSE4.1 one by vdivps), and =divide reported as such.
 */
static void check_jit_division(void)
{
    if (!vfetch_jit_available())
        return;
    const unsigned before = test_failures;
    uint64_t dividends = 0;
#if defined(__x86_64__)
    if (vfetch_cpu_detected() & VFETCH_CPU_AVX2) {
        const unsigned most = opt_quick ? 16 : 24;
        for (unsigned n = 1; n <= most; n++)
            for (unsigned k = 0; k < 2; k++) {
                const uint32_t d = (1u << (n - k)) - 1;
                if (!d)
                    continue;
                const uint64_t misses = fma_division_misses((float)d, (int32_t)(1u << n));
                dividends += 2 * ((uint64_t)1 << n) + 1;
                test_checks++;
                if (misses) {
                    test_failures++;
                    fprintf(stderr, "jit-fma-division: %" PRIu64 " dividends over %u not the quotient\n",
                            misses, d);
                }
            }
    }
#endif
    const struct saved_env saved = env_save("VFETCH_JIT_DIVISION");
    setenv("VFETCH_JIT_DIVISION", "fma", 1);
    enum { VALUES = 65536 };
    uint16_t *in = malloc(VALUES * 2);
    if (!in)
        exit(2);
    for (uint32_t v = 0; v < VALUES; v++)
        in[v] = (uint16_t)(v * 40503u); /* every 16-bit value, in an order that wanders */
    static const enum vfetch_conversion conv[4] = { VFETCH_CONV_UNORM, VFETCH_CONV_SNORM_ZERO,
                                                   VFETCH_CONV_SNORM_ZERO_CLAMP,
                                                   VFETCH_CONV_SNORM_NO_ZERO },
                                        conv8[4] = { VFETCH_CONV_UNORM, VFETCH_CONV_UNORM8,
                                                     VFETCH_CONV_SNORM_ZERO_CLAMP,
                                                     VFETCH_CONV_SNORM_NO_ZERO };
    struct vfetch_plan_desc d;
    division_desc(&d, 8, VFETCH_FORMAT_FIXED16, 4, 2, conv, 4);
    const unsigned levels_run = compare_tiers("jit-fma-division 16-bit", &d, (const uint8_t *)in, VALUES / 4);
    division_desc(&d, 4, VFETCH_FORMAT_FIXED8, 4, 1, conv8, 4);
    compare_tiers("jit-fma-division 8-bit", &d, (const uint8_t *)in, VALUES / 2);
    uint32_t *packed = (uint32_t *)in; /* each 10-bit field through all 1,024 values */
    for (uint32_t i = 0; i < VALUES / 2; i++)
        packed[i] = (i & 0x3ff) | ((i * 7 + 3) & 0x3ff) << 10 | ((i >> 5) & 0x3ff) << 20 | i << 30;
    division_desc(&d, 4, VFETCH_FORMAT_FIXED_10_10_10, 3, 4, conv, 4);
    compare_tiers("jit-fma-division 10-bit", &d, (const uint8_t *)in, VALUES / 2);
    /* the default form: the groups by FMA, the per-vertex ops by the held factors (kept
       without timing) */
    const struct saved_env saved_held = env_save("VFETCH_JIT_HELD");
    setenv("VFETCH_JIT_HELD", "1", 1);
    unsetenv("VFETCH_JIT_DIVISION");
    division_desc(&d, 8, VFETCH_FORMAT_FIXED16, 4, 2, conv, 4);
    compare_tiers("jit-fma-division 16-bit (default)", &d, (const uint8_t *)in, VALUES / 4);
    division_desc(&d, 4, VFETCH_FORMAT_FIXED8, 4, 1, conv8, 4);
    compare_tiers("jit-fma-division 8-bit (default)", &d, (const uint8_t *)in, VALUES / 2);
    division_desc(&d, 4, VFETCH_FORMAT_FIXED_10_10_10, 3, 4, conv, 4);
    compare_tiers("jit-fma-division 10-bit (default)", &d, (const uint8_t *)in, VALUES / 2);
    /* the form the plan reports: FMA at avx2 where asked for, vdivps at sse41 and where not;
       its ops over two streams (the gathered groups read one) and VFETCH_JIT_GROUPS=0, so
       that no whole groups take the draws (whose last records the per-vertex ops divide
       without held factors) */
    split_streams(&d);
    const struct saved_env saved_groups = env_save("VFETCH_JIT_GROUPS");
    setenv("VFETCH_JIT_GROUPS", "0", 1);
    const unsigned mask = vfetch_get_cpu_mask();
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    vfetch_set_jit_mode(VFETCH_JIT_ON);
    for (unsigned l = 0; l < num_levels; l++) {
        if (!(levels[l].bit & (VFETCH_CPU_AVX2 | VFETCH_CPU_SSE41)))
            continue;
        vfetch_set_cpu_mask(level_mask(l));
        /* asked for divide, fma, nothing (the 8-lane groups by FMA: these records of 12 bytes
           take them at avx2) */
        static const char *const asks[3] = { "divide", "fma", NULL };
        for (unsigned asked = 0; asked < 3; asked++) {
            if (asks[asked])
                setenv("VFETCH_JIT_DIVISION", asks[asked], 1);
            else
                unsetenv("VFETCH_JIT_DIVISION");
            vfetch_plan *plan = NULL;
            struct vfetch_plan_info info = { 0 };
            if (!vfetch_plan_compile(&d, &plan))
                vfetch_plan_info(plan, &info);
            const int want = asked && levels[l].bit == VFETCH_CPU_AVX2;
            test_checks++;
            if (!info.jit || info.jit_fma_division != want) {
                test_failures++;
                fprintf(stderr, "jit-fma-division %s: asked for %s, the code %s\n", levels[l].name,
                        asks[asked] ? asks[asked] : "the default",
                        !info.jit ? "missing" : info.jit_fma_division ? "by FMA" : "by vdivps");
            }
            /* and its per-vertex ops by the factors held in registers (VFETCH_JIT_HELD=1:
               kept without timing), but where asked to divide (and at sse41) */
            test_checks++;
            if (plan && plan->jit_code.entry && (plan->jit_code.fma_held != 0) != want) {
                test_failures++;
                fprintf(stderr, "jit-fma-division %s: asked for %s, the per-vertex ops %s\n",
                        levels[l].name, asks[asked] ? asks[asked] : "the default",
                        plan->jit_code.fma_held ? "by held factors" : "not by held factors");
            }
            vfetch_plan_free(plan);
        }
    }
    /* each entry's held factors as VFETCH_JIT_HELD keeps them (the code compiled again where
       one entry keeps them and the other does not), exact with and without an index buffer */
    unsetenv("VFETCH_JIT_DIVISION");
    division_desc(&d, 8, VFETCH_FORMAT_FIXED16, 4, 2, conv, 4);
    d.streams[0].step = VFETCH_STEP_INDEXED;
    split_streams(&d);
    rng_seed_for("jit-fma-division held");
    for (unsigned l = 0; l < num_levels; l++) {
        if (!(levels[l].bit & (VFETCH_CPU_AVX2 | VFETCH_CPU_SSE41)))
            continue;
        for (unsigned keep = 0; keep < 4; keep++) {
            const char value[2] = { (char)('0' + keep), 0 };
            setenv("VFETCH_JIT_HELD", value, 1);
            vfetch_set_cpu_mask(level_mask(l)); /* a reference run sets its own */
            vfetch_plan *plan = NULL;
            test_checks++;
            const int err = vfetch_plan_compile(&d, &plan);
            if (err || !plan->jit_code.entry ||
                plan->jit_code.fma_held != (levels[l].bit == VFETCH_CPU_AVX2 ? keep : 0)) {
                test_failures++;
                fprintf(stderr, "jit-fma-division %s: VFETCH_JIT_HELD=%u, held in entries %u\n",
                        levels[l].name, keep, plan ? plan->jit_code.fma_held : 99);
            }
            for (unsigned r = 0; plan && r < 8; r++) { /* through an index buffer or not */
                struct reference_run rr;
                if (!reference_run_make_at(&d, &rr, RUN_RANDOM_COUNT, -1))
                    continue;
                char detail[64];
                snprintf(detail, sizeof detail, "VFETCH_JIT_HELD=%u, run %u", keep, r);
                reference_run_compare(plan, &rr, "jit-fma-division", levels[l].name, detail);
                reference_run_free(&rr);
            }
            vfetch_plan_free(plan);
        }
    }
    /* one stream: whole groups take its direct draws at avx2, whose last records the
       per-vertex ops divide without held factors, however VFETCH_JIT_HELD asks */
    env_restore(&saved_groups);
    d.num_streams = 1;
    for (unsigned o = 0; o < d.num_ops; o++)
        for (unsigned c = 0; c < 4; c++)
            d.ops[o].src[c].stream = 0;
    setenv("VFETCH_JIT_HELD", "3", 1);
    for (unsigned l = 0; l < num_levels; l++) {
        if (levels[l].bit != VFETCH_CPU_AVX2)
            continue;
        vfetch_set_cpu_mask(level_mask(l));
        vfetch_plan *plan = NULL;
        test_checks++;
        if (vfetch_plan_compile(&d, &plan) || !plan->jit_code.groups ||
            plan->jit_code.fma_held != VFETCH_JIT_HELD_INDEXED) {
            test_failures++;
            fprintf(stderr, "jit-fma-division %s: one stream, groups %d, held in entries %u\n",
                    levels[l].name, plan ? plan->jit_code.groups : -1,
                    plan ? plan->jit_code.fma_held : 99);
        }
        vfetch_plan_free(plan);
    }
    env_restore(&saved_held);
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    env_restore(&saved);
    free(in);
    printf("  jit-fma-division: %" PRIu64 " dividends by FMA as divided; every 8-, 16- and "
           "10-bit value through UNORM, UNORM8 and SNORM at %u levels%s\n",
           dividends, levels_run, test_failures == before ? "" : "  FAILED");
}

/* A draw of a GX format through `plan` and through the reference plan `ref`, into outputs
   filled alike: return code, result and every byte equal (reported under `name`). */
static void gx_draw_agrees(const char *name, const vfetch_gx_plan *ref, const vfetch_gx_plan *plan,
                           const struct vfetch_gx_desc *d)
{
    struct gx_draw w;
    random_draw(vfetch_gx_plan_format(ref), d, &w);
    const size_t out_size = (size_t)w.count * vfetch_gx_plan_out_stride(ref);
    uint8_t *want = guard_alloc_tail(out_size ? out_size : 1);
    uint8_t *got = guard_alloc_tail(out_size ? out_size : 1);
    rnd_fill(want, out_size);
    memcpy(got, want, out_size);
    struct vfetch_gx_result want_r = { 7, 7, 7 }, got_r = { 7, 7, 7 };
    const int want_err = run_draw(ref, &w, want, out_size, &want_r);
    const int got_err = run_draw(plan, &w, got, out_size, &got_r);
    test_checks++;
    if (got_err != want_err || memcmp(&got_r, &want_r, sizeof got_r) ||
        memcmp(got, want, out_size)) {
        test_failures++;
        fprintf(stderr, "%s: %u vertices: return %d (reference %d) or its bytes differ\n", name,
                w.count, got_err, want_err);
    }
    guard_free(want);
    guard_free(got);
    draw_free(&w);
}

/*
 * The per-vertex pass's RGB565 and RGBA4444 colours (lib/jit/x86_vertex.c): a GX array row's
 * by one load from the shared word table of its container (lib/jit/colour_words.c); by two
 * byte tables where VFETCH_JIT_COLOUR_WORDS=0 asks, where a format's colours would need two
 * word tables or one of them is direct, and every colour of a plan's streams:
 * - GX formats (big-endian containers; the kit's c and e, RGBA4444 direct and index16, two
 *   indexed colours alike and two not, a direct one and an indexed one) in the packed and
 *   Dolphin layouts with RGBA8 colours and the vec4 one with float colours, at every level
 *   with the JIT, each way: the form the code reports, the same choice of whole groups both
 *   ways, and random draws (jit-gx's: skipped and out-of-range indices, short arrays) equal to
 *   the reference's;
 * - plans of little- and big-endian RGB565 and RGBA4444 words, by the byte tables under the
 *   default, against the portable tier (compare_tiers: draws of 48 records and a tail of 7);
 * - the tables themselves: every word of random byte-table pairs, each orientation, the OR of
 *   its two bytes' entries; a pair asked again the same table; once every slot holds one, a
 *   new pair none and a held pair still its own. Run last: it fills the process's slots.
 */
static void check_jit_colour_words(void)
{
    if (!vfetch_jit_available())
        return;
    rng_seed_for("jit-colour-words");
    const unsigned before = test_failures;
    static const struct {
        struct vfetch_gx_regs regs;
        uint8_t stride[VFETCH_GX_NUM_ATTRS];
        int words; /* its RGBA8 colours by one word table */
    } formats[] = {
        { { 0x00004600, 0, 0x40000009, 0x80000000, 0 }, { 12, 0, 2 }, 1 },    /* kit c */
        { { 0x00002200, 0, 0x40000009, 0x80000000, 0 }, { 0 }, 0 },           /* kit e */
        { { 0x00002200, 0, 0x4000e009, 0x80000000, 0 }, { 0 }, 0 },           /* 4444 direct */
        { { 0x00006200, 0, 0x4000e009, 0x80000000, 0 }, { 0, 0, 2 }, 1 },     /* 4444 index16 */
        { { 0x0001c200, 0, 0x400e0009, 0x80000000, 0 }, { 0, 0, 2, 2 }, 0 },  /* 565, 4444 */
        { { 0x0001c200, 0, 0x40000009, 0x80000000, 0 }, { 0, 0, 2, 2 }, 1 },  /* 565, 565 */
        { { 0x00012200, 0, 0x40000009, 0x80000000, 0 }, { 0, 0, 0, 2 }, 0 },  /* direct, 565 */
    };
    const struct saved_env saved = env_save("VFETCH_JIT_COLOUR_WORDS");
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    const unsigned mask = vfetch_get_cpu_mask();
    unsigned plans = 0;
    int groups[sizeof formats / sizeof formats[0]][sizeof outputs / sizeof outputs[0]][16] = {
        { { 0 } }
    };
    for (unsigned way = 0; way < 2; way++) {
        if (way)
            setenv("VFETCH_JIT_COLOUR_WORDS", "0", 1);
        else
            unsetenv("VFETCH_JIT_COLOUR_WORDS");
        for (unsigned k = 0; k < sizeof formats / sizeof formats[0]; k++)
            for (unsigned o = 0; o < sizeof outputs / sizeof outputs[0]; o++) {
                struct vfetch_gx_desc d;
                gx_desc_of(&d, &formats[k].regs, formats[k].stride, outputs[o].layout);
                d.color_output = outputs[o].color;
                vfetch_set_cpu_mask(0);
                vfetch_set_jit_mode(VFETCH_JIT_OFF);
                vfetch_gx_plan *ref = gx_compile_checked(&d);
                if (!ref)
                    continue;
                for (unsigned l = 0; l < num_levels; l++) {
                    if (!(levels[l].bit & JIT_LEVELS))
                        continue;
                    vfetch_set_cpu_mask(level_mask(l));
                    /* compare: the code runs every draw beside the portable tier */
                    vfetch_set_jit_mode(VFETCH_JIT_COMPARE);
                    vfetch_gx_plan *plan = NULL;
                    test_checks++;
                    if (vfetch_gx_compile(&d, &plan) || !plan->jit_code.entry) {
                        test_failures++;
                        fprintf(stderr, "jit-colour-words %s: format %u: no code\n",
                                levels[l].name, k);
                        vfetch_gx_plan_free(plan);
                        continue;
                    }
                    const int want = !way && formats[k].words &&
                                     outputs[o].color == VFETCH_GX_COLOR_RGBA8;
                    test_checks++;
                    if (plan->jit_code.colour_words != want) {
                        test_failures++;
                        fprintf(stderr, "jit-colour-words %s: format %u, layout %d%s: colours "
                                "by %s\n", levels[l].name, k, d.layout,
                                way ? " (byte tables asked)" : "",
                                plan->jit_code.colour_words ? "the word table" : "byte tables");
                    }
                    /* the groups' choice the same either way (a direct format's groups are
                       chosen by instruction counts, and e's 8-lane ones win at avx2) */
                    test_checks++;
                    if (way && l < 16 && plan->jit_code.groups != groups[k][o][l]) {
                        test_failures++;
                        fprintf(stderr, "jit-colour-words %s: format %u, layout %d: whole "
                                "groups %d with the word table, %d with byte tables\n",
                                levels[l].name, k, d.layout, groups[k][o][l],
                                plan->jit_code.groups);
                    }
                    if (!way && l < 16)
                        groups[k][o][l] = plan->jit_code.groups;
                    for (unsigned n = 0; n < 4; n++)
                        gx_draw_agrees("jit-colour-words gx", ref, plan, &d);
                    plans++;
                    vfetch_gx_plan_free(plan);
                }
                vfetch_gx_plan_free(ref);
            }
    }
    env_restore(&saved);
    /* plans' streams, little- and big-endian: RGB565, RGBA4444 (the second of the
       record's two), by the byte tables (the default asks for the word table) */
    enum { RECORDS = 3 * 48 + 7 };
    uint8_t *in = malloc(RECORDS * 4);
    if (!in)
        exit(2);
    rnd_fill(in, RECORDS * 4);
    for (unsigned f = 0; f < 4; f++) {
        struct vfetch_plan_desc pd;
        vfetch_plan_desc_init(&pd);
        pd.num_streams = 1;
        pd.streams[0].stride = 4;
        pd.streams[0].order = f & 1 ? VFETCH_ORDER_BIG_ENDIAN : VFETCH_ORDER_LITTLE;
        pd.out_slots = 1;
        pd.num_ops = 1;
        pd.ops[0] = (struct vfetch_op){ .format = f & 2 ? VFETCH_FORMAT_RGBA4444
                                                        : VFETCH_FORMAT_RGB565,
                                        .conversion = VFETCH_CONV_PACK_UNORM8,
                                        .count = f & 2 ? 4 : 3,
                                        .swizzle = { 0, 1, 2, 3 }, .write_mask = 1 };
        for (unsigned c = 0; c < 4; c++)
            pd.ops[0].src[c].offset = 2 * (f >> 1 & 1);
        char name[64];
        snprintf(name, sizeof name, "jit-colour-words %s %s", f & 2 ? "rgba4444" : "rgb565",
                 f & 1 ? "big-endian" : "little-endian");
        compare_tiers(name, &pd, in, RECORDS);
        vfetch_set_cpu_mask(mask);
        vfetch_set_jit_mode(VFETCH_JIT_ON);
        vfetch_plan *plan = NULL;
        test_checks++;
        if (vfetch_plan_compile(&pd, &plan) || !plan->jit_code.entry ||
            plan->jit_code.colour_words) {
            test_failures++;
            fprintf(stderr, "%s: no code, or its direct colours by the word table\n", name);
        }
        vfetch_plan_free(plan);
    }
    free(in);
    vfetch_set_cpu_mask(mask);
    vfetch_set_jit_mode(mode);
    unsigned made = 0;
#if VFETCH_HAVE_JIT
    /* the tables: random pairs until every slot is taken */
    uint32_t bytes[512], first[512] = { 0 };
    const uint32_t *first_table = NULL;
    for (unsigned t = 0; t < 64; t++) {
        for (unsigned i = 0; i < 512; i++)
            bytes[i] = (uint32_t)rnd();
        const int first_high = (int)(t & 1);
        const uint32_t *words = vfetch_jit_colour_words(bytes, first_high);
        if (!words)
            break;
        made++;
        if (!first_table) {
            first_table = words;
            memcpy(first, bytes, sizeof first);
        }
        test_checks++;
        for (uint32_t w = 0; w < 65536; w++) {
            const uint32_t lo = w & 0xff, hi = w >> 8;
            const uint32_t want = first_high ? bytes[lo] | bytes[256 + hi]
                                             : bytes[hi] | bytes[256 + lo];
            if (words[w] != want) {
                test_failures++;
                fprintf(stderr, "jit-colour-words: word %04x %08x, want %08x\n", w, words[w],
                        want);
                break;
            }
        }
        test_checks++;
        if (vfetch_jit_colour_words(bytes, first_high) != words) {
            test_failures++;
            fprintf(stderr, "jit-colour-words: a pair asked again made a second table\n");
        }
    }
    test_checks++;
    if (!made || made == 64 || vfetch_jit_colour_words(first, 0) != first_table) {
        test_failures++;
        fprintf(stderr, "jit-colour-words: %u tables made (the slots: 8, the plans' own at most "
                "4); a held pair not found once every slot is taken\n", made);
    }
#endif
    printf("  jit-colour-words: %u GX plans each way (default, byte tables asked), 4 plans; "
           "%u random shared tables until every slot was taken%s\n", plans, made,
           test_failures == before ? "" : "  FAILED");
}

/* A direct draw of `count` random vertices through ref and plan, the output `offset` bytes past
   a 32-byte boundary (its buffer at a guard page): 1 where both succeed with the same result
   and bytes. *err_got / *err_want: their returns. */
static int direct_draw_matches(const vfetch_gx_plan *ref, const vfetch_gx_plan *plan,
                               uint32_t count, unsigned offset, int *err_got, int *err_want)
{
    const size_t vsize = vfetch_gx_plan_format(ref)->vertex_size;
    const uint32_t stride = vfetch_gx_plan_out_stride(ref);
    struct gx_draw w;
    memset(&w, 0, sizeof w);
    w.count = count;
    w.vertices_size = vsize * count;
    w.vertices = guard_alloc_tail(w.vertices_size);
    rnd_fill(w.vertices, w.vertices_size);
    const size_t out_size = (size_t)stride * count, room = out_size + 64;
    /* the output starts `offset` past a boundary and ends within the block's tail */
    uint8_t *block_want = guard_alloc_tail(room), *block_got = guard_alloc_tail(room);
    uint8_t *got = block_got + 32 - ((uintptr_t)(block_got + 32) & 31) + offset;
    uint8_t *want = block_want + (got - block_got);
    rnd_fill(want, out_size);
    memcpy(got, want, out_size);
    struct vfetch_gx_result want_r, got_r;
    *err_want = run_draw(ref, &w, want, out_size, &want_r);
    *err_got = run_draw(plan, &w, got, out_size, &got_r);
    const int same = !*err_want && !*err_got && got_r.written == want_r.written &&
                     !memcmp(got, want, out_size);
    guard_free(w.vertices);
    guard_free(block_want);
    guard_free(block_got);
    return same;
}

/*
 * The 8-lane groups' stores (lib/jit/x86_record.c, gen_groups): where a draw of at least
 * GEN_HALVES_LEAST records has its output off 32 bytes, the loop written a second time stores
 * each vector as two 16-byte halves (lib/jit/mode.c, vfetch_jit_store_halves: by default on
 * every CPU but AMD's). The kit's a, b, d and e (direct, 8-lane groups in the packed and vec4
 * layouts) at every level with the JIT, compiled with VFETCH_JIT_HALVES=1, =0 and unset: asked
 * on, the code holds the second loop where the AVX2 variant runs (and not at sse41); asked off,
 * nowhere; unset, where the vendor's default has it. Both forms draw 1 to 300 vertices (both
 * sides of the threshold, with tails) with the output 0, 1, 4, 8, 13, 16 and 24 bytes past a
 * 32-byte boundary (the buffer at a guard page), every byte equal to the reference's.
 */
static void check_jit_group_stores(void)
{
    static const struct vfetch_gx_regs kit[] = {
        { 0x00002a00, 0x00000001, 0x54e16487, 0x80000000, 0 },
        { 0x00000a00, 0x00000001, 0x41201009, 0x80000000, 0 },
        { 0x00000200, 0x00000001, 0x40200001, 0x80000000, 0 },
        { 0x00002200, 0, 0x40000009, 0x80000000, 0 },
    };
    static const enum vfetch_gx_layout layouts[] = { VFETCH_GX_LAYOUT_PACKED,
                                                     VFETCH_GX_LAYOUT_VEC4 };
    static const uint32_t counts[] = { 1, 9, 127, 128, 135, 300 };
    static const unsigned offsets[] = { 0, 1, 4, 8, 13, 16, 24 };
    if (!vfetch_jit_available())
        return;
    rng_seed_for("jit-group-stores");
    const struct saved_env saved = env_save("VFETCH_JIT_HALVES");
    const unsigned mask = vfetch_get_cpu_mask();
    const unsigned before = test_failures;
    unsigned draws = 0, with_halves = 0, avx_levels = 0;
    const unsigned num_kit = sizeof kit / sizeof kit[0], num_layouts = sizeof layouts /
                                                                       sizeof layouts[0];
    /* way 0: halves asked on, 1: off, 2: the vendor's default */
    for (unsigned i = 0; i < 3 * num_kit * num_layouts; i++) {
        const unsigned way = i / (num_kit * num_layouts), k = i / num_layouts % num_kit,
                       o = i % num_layouts;
        if (way < 2)
            setenv("VFETCH_JIT_HALVES", way ? "0" : "1", 1);
        else
            unsetenv("VFETCH_JIT_HALVES");
        const int halves = way == 0 || (way == 2 && !vfetch_cpu_amd());
        struct vfetch_gx_desc d;
        static const uint8_t none[VFETCH_GX_NUM_ATTRS] = { 0 };
        gx_desc_of(&d, &kit[k], none, layouts[o]);
        vfetch_set_cpu_mask(0);
        vfetch_gx_plan *ref = gx_compile_checked(&d);
        if (!ref)
            continue;
        for (unsigned l = 0; l < num_levels; l++) {
            if (!(levels[l].bit & JIT_LEVELS))
                continue;
            vfetch_set_cpu_mask(level_mask(l));
            vfetch_gx_plan *plan = gx_compile_checked(&d);
            if (!plan)
                continue;
            const int avx = (levels[l].bit & (VFETCH_CPU_AVX2 | VFETCH_CPU_AVX512)) != 0;
            avx_levels += avx && way == 0;
            with_halves += plan->jit_code.halves_loops != 0 && way == 0;
            test_checks++;
            if (plan->jit_code.groups &&
                (plan->jit_code.halves_loops != 0) != (avx && halves)) {
                test_failures++;
                fprintf(stderr, "jit-group-stores %s: config %c, layout %d, halves %s: %u "
                        "loops of halved stores\n", levels[l].name, "abde"[k], d.layout,
                        way == 0 ? "asked" : way == 1 ? "off" : "by default",
                        plan->jit_code.halves_loops);
            }
            for (unsigned c = 0; way < 2 && c < sizeof counts / sizeof counts[0]; c++)
                for (unsigned f = 0; f < sizeof offsets / sizeof offsets[0]; f++) {
                    int got_err, want_err;
                    draws++;
                    test_checks++;
                    if (!direct_draw_matches(ref, plan, counts[c], offsets[f], &got_err,
                                             &want_err)) {
                        test_failures++;
                        fprintf(stderr, "jit-group-stores %s: config %c, layout %d, %u "
                                "vertices, output %u past 32: return %d (%d), bytes differ\n",
                                levels[l].name, "abde"[k], d.layout, counts[c], offsets[f],
                                got_err, want_err);
                    }
                }
            vfetch_gx_plan_free(plan);
        }
        vfetch_gx_plan_free(ref);
    }
    env_restore(&saved);
    vfetch_set_cpu_mask(mask);
    test_checks++;
    if (avx_levels && !with_halves)
        test_failures++; /* the second loop was written somewhere */
    printf("  jit-group-stores: %u draws, %u plans with halved stores%s\n", draws, with_halves,
           test_failures == before ? "" : "  FAILED");
}

/*
 * 16-bit big-endian indices by one `movbe r8w` in the AVX2 variant (lib/jit/mode.c,
 * vfetch_jit_movbe_indices): the kit's c and f (index16 copies) in the packed and Dolphin
 * layouts compiled with VFETCH_JIT_MOVBE=1 and =0 at every level with the JIT: at the AVX2
 * levels the movbe form's code is the shorter (one 7-byte instruction where two took 10), at
 * sse41 both are the same code; unset, the form is the vendor's (movbe on AMD only). Each
 * form's draws are checked against the reference by the JIT family run under both values
 * (tests/meson.build).
 */
static void check_jit_movbe_indices(void)
{
    static const struct {
        struct vfetch_gx_regs regs;
        uint8_t stride[VFETCH_GX_NUM_ATTRS];
    } formats[] = {
        { { 0x00004600, 0, 0x40000009, 0x80000000, 0 }, { 12, 0, 2 } }, /* kit c */
        { { 0x0001ffff, 0x0000ffff, 0x41377209, 0xc8241209, 0x04824120 },
          { 12, 36, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8 } }, /* kit f */
    };
    static const enum vfetch_gx_layout layouts[] = { VFETCH_GX_LAYOUT_PACKED,
                                                     VFETCH_GX_LAYOUT_DOLPHIN };
    if (!vfetch_jit_available())
        return;
    const struct saved_env saved = env_save("VFETCH_JIT_MOVBE");
    const unsigned mask = vfetch_get_cpu_mask();
    const unsigned before = test_failures;
    unsigned plans = 0;
    for (unsigned l = 0; l < num_levels; l++) {
        if (!(levels[l].bit & JIT_LEVELS))
            continue;
        vfetch_set_cpu_mask(level_mask(l));
        const int avx2 = (levels[l].bit & (VFETCH_CPU_AVX2 | VFETCH_CPU_AVX512)) != 0;
        for (unsigned k = 0; k < sizeof formats / sizeof formats[0]; k++)
            for (unsigned o = 0; o < sizeof layouts / sizeof layouts[0]; o++) {
                struct vfetch_gx_desc d;
                gx_desc_of(&d, &formats[k].regs, formats[k].stride, layouts[o]);
                d.color_output = VFETCH_GX_COLOR_RGBA8;
                size_t size[3] = { 0, 0, 0 }; /* movbe asked off, on, unset */
                for (unsigned way = 0; way < 3; way++) {
                    if (way < 2)
                        setenv("VFETCH_JIT_MOVBE", way ? "1" : "0", 1);
                    else
                        unsetenv("VFETCH_JIT_MOVBE");
                    vfetch_gx_plan *plan = NULL;
                    struct vfetch_jit_code_view view = { 0 };
                    if (!vfetch_gx_compile(&d, &plan))
                        vfetch_gx_plan_jit_code(plan, &view);
                    size[way] = view.size;
                    vfetch_gx_plan_free(plan);
                    plans++;
                }
                const size_t want_default = vfetch_cpu_amd() ? size[1] : size[0];
                test_checks += 2;
                if (!size[0] || (avx2 ? size[1] >= size[0] : size[1] != size[0]) ||
                    size[2] != want_default) {
                    test_failures++;
                    fprintf(stderr,
                            "jit-movbe-indices %s: config %c, layout %d: code of %zu bytes "
                            "with movbe, %zu without, %zu by default\n",
                            levels[l].name, "cf"[k], layouts[o], size[1], size[0], size[2]);
                }
            }
    }
    vfetch_set_cpu_mask(mask);
    env_restore(&saved);
    printf("  jit-movbe-indices: %u plans, the default %s%s\n", plans,
           vfetch_cpu_amd() ? "movbe (AMD)" : "movzx and rol",
           test_failures == before ? "" : "  FAILED");
}

/*
 * The avx512 level's word copy by 64-byte steps only where the CPU runs 512-bit operations
 * whole (lib/jit/x86_copy.c, vfetch_cpu_splits_512): an 8-word copy in either byte order
 * compiled with VFETCH_CPU_SPLITS_512=0, =1 and as the process has it: the 64-byte loop makes
 * the code of =0 the longer; as the process has it, the form is vfetch_cpu_splits_512's. Each form's draws are checked against the reference
 * by the JIT family run under both values (tests/meson.build).
 */
static void check_jit_word_copy_steps(void)
{
    unsigned l = 0;
    while (l < num_levels && levels[l].bit != VFETCH_CPU_AVX512)
        l++;
    if (!vfetch_jit_available() || l == num_levels)
        return; /* no avx512 level here */
    const struct saved_env saved = env_save("VFETCH_CPU_SPLITS_512");
    const unsigned mask = vfetch_get_cpu_mask(), before = test_failures;
    vfetch_set_cpu_mask(level_mask(l));
    for (int order = 0; order < 2; order++) {
        struct vfetch_plan_desc d;
        float_words_desc(&d, 8, order);
        size_t size[3] = { 0, 0, 0 }; /* splits answered 0, 1, unset */
        for (unsigned way = 0; way < 3; way++) {
            if (way < 2)
                setenv("VFETCH_CPU_SPLITS_512", way ? "1" : "0", 1);
            else
                env_restore(&saved); /* as the process has it: unset, the CPU's answer */
            vfetch_plan *plan = NULL;
            struct vfetch_jit_code_view view = { 0 };
            if (!vfetch_plan_compile(&d, &plan))
                vfetch_plan_jit_code(plan, &view);
            size[way] = view.size;
            vfetch_plan_free(plan);
        }
        const size_t want_default = vfetch_cpu_splits_512() ? size[1] : size[0];
        test_checks += 2;
        if (!size[1] || size[0] <= size[1] || size[2] != want_default) {
            test_failures++;
            fprintf(stderr, "jit-word-copy-steps: %s words: code of %zu bytes with 64-byte "
                    "steps, %zu without, %zu by default\n", order ? "reversed" : "plain",
                    size[0], size[1], size[2]);
        }
    }
    vfetch_set_cpu_mask(mask);
    printf("  jit-word-copy-steps: the default %s%s\n",
           vfetch_cpu_splits_512() ? "32-byte steps (512-bit operations split)" : "64-byte steps",
           test_failures == before ? "" : "  FAILED");
}

/*
 * Whole groups or the per-vertex pass for a direct format (lib/gx/compile.c): the kit's a, d and
 * e packed and e in vec4 at every level with the JIT, as measured (VFETCH_JIT_GROUPS unset) and
 * with the pass asked (=0): asked, no level's code holds groups and the plan says so; where
 * the count kept groups (=1), the measured plan holds either; draws of 1 to 300 vertices under
 * each, every byte equal to the reference's. (The rest of the family asks for the groups, whose
 * code it checks: check_jit.)
 */
static void check_jit_groups_or_pass(void)
{
    static const struct vfetch_gx_regs kit[] = {
        { 0x00002a00, 0x00000001, 0x54e16487, 0x80000000, 0 },
        { 0x00000200, 0x00000001, 0x40200001, 0x80000000, 0 },
        { 0x00002200, 0, 0x40000009, 0x80000000, 0 },
    };
    static const struct {
        enum vfetch_gx_layout layout;
        enum vfetch_gx_color_output color;
    } outs[] = { { VFETCH_GX_LAYOUT_PACKED, VFETCH_GX_COLOR_FLOAT },
                 { VFETCH_GX_LAYOUT_VEC4, VFETCH_GX_COLOR_FLOAT } };
    static const uint32_t counts[] = { 1, 7, 8, 64, 300 };
    if (!vfetch_jit_available())
        return;
    rng_seed_for("jit-groups-or-pass");
    const struct saved_env saved = env_save("VFETCH_JIT_GROUPS");
    const unsigned mask = vfetch_get_cpu_mask();
    const unsigned before = test_failures;
    unsigned plans = 0, kept = 0, passes = 0, avx_levels = 0;
    for (unsigned k = 0; k < sizeof kit / sizeof kit[0]; k++)
        for (unsigned o = 0; o < sizeof outs / sizeof outs[0]; o++) {
            struct vfetch_gx_desc d;
            static const uint8_t none[VFETCH_GX_NUM_ATTRS] = { 0 };
            gx_desc_of(&d, &kit[k], none, outs[o].layout);
            d.color_output = outs[o].color;
            vfetch_set_cpu_mask(0);
            vfetch_gx_plan *ref = gx_compile_checked(&d);
            if (!ref)
                continue;
            for (unsigned l = 0; l < num_levels; l++) {
                if (!(levels[l].bit & JIT_LEVELS))
                    continue;
                vfetch_set_cpu_mask(level_mask(l));
                avx_levels += (levels[l].bit & (VFETCH_CPU_AVX2 | VFETCH_CPU_AVX512)) != 0;
                for (unsigned way = 0; way < 3; way++) { /* asked groups, measured, asked pass */
                    if (way == 1)
                        unsetenv("VFETCH_JIT_GROUPS");
                    else
                        setenv("VFETCH_JIT_GROUPS", way ? "0" : "1", 1);
                    vfetch_gx_plan *plan = gx_compile_checked(&d);
                    if (!plan)
                        continue;
                    plans++;
                    kept += way == 0 && plan->jit_code.groups;
                    passes += way == 2 && plan->jit_no_groups;
                    test_checks++;
                    if (way == 2 && (plan->jit_code.groups || (plan->jit_no_groups && !plan->jit_entry))) {
                        test_failures++;
                        fprintf(stderr, "jit-groups-or-pass %s: format %u, layout %d: groups "
                                "where the pass was asked\n", levels[l].name, k, d.layout);
                    }
                    for (unsigned c = 0; c < sizeof counts / sizeof counts[0]; c++) {
                        int got_err, want_err;
                        test_checks++;
                        if (!direct_draw_matches(ref, plan, counts[c], 16 * (c & 1), &got_err,
                                                 &want_err)) {
                            test_failures++;
                            fprintf(stderr, "jit-groups-or-pass %s: format %u, layout %d, way %u, "
                                    "%u vertices: return %d (%d), bytes differ\n", levels[l].name,
                                    k, d.layout, way, counts[c], got_err, want_err);
                        }
                    }
                    vfetch_gx_plan_free(plan);
                }
            }
            vfetch_gx_plan_free(ref);
        }
    vfetch_set_cpu_mask(mask);
    env_restore(&saved);
    /* where the AVX2 variant runs, some format kept its groups when asked and ran the pass when
       the pass was asked (the variable is wired) */
    test_checks++;
    if (avx_levels && (!kept || !passes))
        test_failures++;
    printf("  jit-groups-or-pass: %u plans (groups asked: %u with groups; the pass asked: %u "
           "without)%s\n", plans, kept, passes, test_failures == before ? "" : "  FAILED");
}

void check_jit(void)
{
    if (!checkasm_wants("jit"))
        return;
    /* the family checks the groups' code where the generator emits it: the measured choice of
       the per-vertex pass instead, which may go either way on a CPU, only where it is asked
       (check_jit_groups_or_pass) */
    const struct saved_env groups = env_save("VFETCH_JIT_GROUPS");
    if (!groups.set)
        setenv("VFETCH_JIT_GROUPS", "1", 1);
    check_jit_groups_or_pass();
    check_jit_gx();
    check_jit_plans();
    check_jit_word_copy_sizes();
    check_jit_measured_tier();
    check_jit_crossover_fit();
    check_jit_past_l1();
    check_jit_pass1();
    check_jit_index_cover();
    check_jit_windows();
    check_jit_gathered();
    check_jit_gathered_past_stride();
    check_jit_reach();
    check_jit_kit_formats();
    check_jit_big_records();
    check_jit_group_choice();
    check_jit_groups();
    check_jit_group_stores();
    check_jit_saved_registers();
    check_jit_exact_fields();
    check_jit_division();
    check_jit_movbe_indices();
    check_jit_word_copy_steps();
    check_jit_colour_words(); /* last: it fills the process's word-table slots */
    env_restore(&groups);
}
