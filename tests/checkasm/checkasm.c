/*
 * checkasm: every per-op SIMD kernel and every record-program executor, at every ISA level this
 * CPU has (each forced through the kernel table of that level), against the scalar reference,
 * bit for bit. dav1d's checkasm is the model: this file is the framework (options, random
 * numbers seeded per family, the level table, guarded buffers, reference runs, output
 * comparison, FTZ/DAZ), and each family of checks has a file that says what it checks:
 *   convert.c    the per-op conversion kernels, exhaustively and on random cases (each kernel
 *                by its name: --list);
 *   record.c     record programs through vfetch_run: random formats, every program variant,
 *                tails, the in-place path, every specialised loop (--kernel record);
 *   word_copy.c  plans that only move 32-bit words, and the byte-reversing copy (record);
 *   gx.c         GX: gathered programs (record) and the index-column kernels (gx-index);
 *   texel.c      the texel decoders (texel);
 *   gx_texture.c the GX texture kernels (gx-texture).
 *
 * A mismatch prints the kernel, the level, the seed, the input bytes, both outputs and the
 * first differing byte; `test_checkasm --seed N --kernel NAME --isa LEVEL` replays it. A NAME
 * that is no kernel or family is an error (exit status 2).
 *
 * Usage: test_checkasm [--seed N] [--kernel NAME|record|gx-index|texel|gx-texture] [--isa LEVEL]
 *                     [--part I/N] [--quick] [--list]
 * --part I/N runs the I-th of N shares (every N-th kernel, the families dealt out), so that
 * meson runs it as N tests on N cores; the shares together are the whole run, same seeds.
 */
#define _DEFAULT_SOURCE
#include <inttypes.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
/* The i686 baseline has no SSE: MXCSR access is compiled with it (it runs only at SIMD levels). */
#if defined(__i386__) && !defined(__SSE__)
#define FP_FLUSH_TARGET __attribute__((target("sse")))
#else
#define FP_FLUSH_TARGET
#endif

/* This file's tallies are the ones test_summary prints (checkasm.h). */
#undef test_checks
#undef test_failures
unsigned *const checkasm_checks = &test_checks, *const checkasm_failures = &test_failures;

/* ---- options, random numbers ------------------------------------------------------------ */

uint64_t opt_seed = 0x5eed;
static const char *opt_kernel; /* NULL: every kernel and family */
static const char *opt_isa;    /* NULL: every level */
static unsigned opt_part, opt_parts = 1; /* --part I/N: the (I-1)th of N shares, 0-based */
bool opt_quick;
unsigned mismatch_reports;

/* What --kernel takes besides the kernels' names (kernels[]); --list prints both. */
static const char *const family_names[] = { "record", "gx-index", "texel", "gx-texture", "jit",
                                             "prim", "prim-index" };

/* Which share of --part a kernel or family falls in: kernels alternate by their place in
   kernels[]; the families go where they even the two halves out (record, about 3 s here, to
   the second; gx-index and texel, about 4 s together, to the first), mod N. prim, the
   longest, is dealt out piece by piece (checkasm_wants_piece). */
static unsigned share_of(const char *name)
{
    static const unsigned family_share[] = { 1, 0, 0, 1, 0, 1, 0 }; /* by family_names[] */
    for (unsigned i = 0; i < num_kernels; i++)
        if (!strcmp(name, kernels[i].name))
            return i % opt_parts;
    for (unsigned i = 0; i < sizeof family_names / sizeof family_names[0]; i++)
        if (!strcmp(name, family_names[i]))
            return family_share[i] % opt_parts;
    return 0;
}

bool checkasm_wants(const char *name)
{
    if (opt_kernel)
        return !strcmp(opt_kernel, name);
    return share_of(name) == opt_part;
}

bool checkasm_family_runs(const char *name)
{
    return !opt_kernel || !strcmp(opt_kernel, name);
}

bool checkasm_wants_piece(const char *name, unsigned piece)
{
    return opt_kernel ? !strcmp(opt_kernel, name) : piece % opt_parts == opt_part;
}

/* Whether --kernel names a kernel or a family. */
static bool kernel_known(const char *name)
{
    for (unsigned i = 0; i < num_kernels; i++)
        if (!strcmp(name, kernels[i].name))
            return true;
    for (unsigned i = 0; i < sizeof family_names / sizeof family_names[0]; i++)
        if (!strcmp(name, family_names[i]))
            return true;
    return false;
}

static uint64_t rng;

uint64_t rnd(void)
{
    /* xorshift64*: fast, and good enough to pick test cases */
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1Dull;
}

uint32_t rnd_below(uint32_t n)
{
    return n ? (uint32_t)((rnd() >> 32) % n) : 0;
}

void rnd_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(rnd() >> 56);
}

void rng_seed_for(const char *name)
{
    uint64_t h = opt_seed ^ 0xcbf29ce484222325ull;
    for (const char *c = name; *c; c++)
        h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
    rng = h ? h : 1;
}

/* ---- ISA levels ---------------------------------------------------------------------------- */

/* Set when vcvtph2ps flushes subnormal halves under DAZ. Hardware does not (DAZ is for single
   and double inputs); qemu 7.2's TCG does, so there the F16C levels get FTZ without DAZ. */
#if defined(__x86_64__) || defined(__i386__)
static bool f16c_daz_flushes;

__attribute__((target("sse2,f16c"))) static bool f16c_flushes_under_daz(void)
{
    volatile int half = 1; /* the smallest subnormal half; volatile: read after the DAZ switch */
    const unsigned saved = _mm_getcsr();
    _mm_setcsr(saved | 0x0040);
    volatile int bits = _mm_cvtsi128_si32(_mm_castps_si128(_mm_cvtph_ps(_mm_cvtsi32_si128(half))));
    _mm_setcsr(saved);
    return bits == 0;
}
#endif

struct level levels[5];
unsigned num_levels;
struct vfetch_dsp ref_dsp;
struct vfetch_gx_dsp ref_gx;

static void levels_init(void)
{
    static const struct { const char *name; unsigned bit, upto; } ladder[] = {
        { "sse2", VFETCH_CPU_SSE2, VFETCH_CPU_SSE2 },
        { "sse41", VFETCH_CPU_SSE41, VFETCH_CPU_SSE2 | VFETCH_CPU_SSE41 },
        { "avx2", VFETCH_CPU_AVX2, VFETCH_CPU_SSE2 | VFETCH_CPU_SSE41 | VFETCH_CPU_AVX2 },
        { "avx512", VFETCH_CPU_AVX512,
          VFETCH_CPU_SSE2 | VFETCH_CPU_SSE41 | VFETCH_CPU_AVX2 | VFETCH_CPU_AVX512 },
        { "neon", VFETCH_CPU_NEON, VFETCH_CPU_NEON },
    };
    /* vfetch_cpu_flags(): detected, built, and within VFETCH_CPU_MASK. */
    const unsigned have = vfetch_cpu_flags();
#if defined(__x86_64__) || defined(__i386__)
    if (have & VFETCH_CPU_AVX2) { /* the avx2 level requires F16C */
        f16c_daz_flushes = f16c_flushes_under_daz();
        if (f16c_daz_flushes)
            printf("checkasm: this CPU's vcvtph2ps flushes subnormal halves under DAZ (an emulator:"
                   " hardware does not); FTZ/DAZ cases at avx2/avx512 run with FTZ only\n");
    }
#endif
    vfetch_dsp_init(&ref_dsp, 0);
    vfetch_gx_dsp_init(&ref_gx, 0);
    for (unsigned i = 0; i < sizeof ladder / sizeof ladder[0]; i++) {
        if (!(have & ladder[i].bit) || (opt_isa && strcmp(opt_isa, ladder[i].name) != 0))
            continue;
        struct level *l = &levels[num_levels];
        l->name = ladder[i].name;
        l->bit = ladder[i].bit;
        vfetch_dsp_init(&l->dsp, ladder[i].upto);
        vfetch_gx_dsp_init(&l->gx, ladder[i].upto);
        CHECK(strcmp(l->dsp.name, l->name) == 0); /* the table really is that level's */
        num_levels++;
    }
}

static unsigned fp_saved; /* the control register before fp_flush_begin */

FP_FLUSH_TARGET void fp_flush_begin(bool on, unsigned level_bit)
{
    if (!on)
        return;
#if defined(__x86_64__) || defined(__i386__)
    const bool f16c = level_bit & (VFETCH_CPU_AVX2 | VFETCH_CPU_AVX512);
    fp_saved = _mm_getcsr();
    /* FTZ (bit 15) | DAZ (bit 6) */
    _mm_setcsr(fp_saved | (f16c && f16c_daz_flushes ? 0x8000 : 0x8040));
#elif defined(__aarch64__)
    (void)level_bit;
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    fp_saved = (unsigned)fpcr;
    fpcr |= 1u << 24; /* FZ */
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
#endif
}

FP_FLUSH_TARGET void fp_flush_end(bool on)
{
    if (!on)
        return;
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(fp_saved);
#elif defined(__aarch64__)
    uint64_t fpcr = fp_saved;
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
#endif
}

/* ---- reporting ----------------------------------------------------------------------------- */

static void dump_bytes(const char *label, const uint8_t *p, size_t n)
{
    fprintf(stderr, "    %-8s", label);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%s%02x", i && i % 4 == 0 ? " " : "", p[i]);
    fprintf(stderr, "\n");
}

/* The --kernel name that replays a mismatch of `what`: a kernel's own name, else its
   family's (the GX index kernels: gx-index; the other programs and copies: record). */
static const char *replay_name(const char *what)
{
    for (unsigned i = 0; i < num_kernels; i++)
        if (!strcmp(what, kernels[i].name))
            return what;
    return strncmp(what, "gx-", 3) ? "record" : "gx-index";
}

bool compare_outputs(const char *what, const char *isa, const char *detail,
                     const uint8_t *want, const uint8_t *got, size_t size, size_t stride,
                     const uint8_t *src, size_t src_stride, size_t src_len)
{
    test_checks++;
    if (memcmp(want, got, size) == 0)
        return true;
    test_failures++;
    if (mismatch_reports++ >= 10)
        return false;
    size_t b = 0;
    while (want[b] == got[b])
        b++;
    const size_t vertex = stride ? b / stride : 0;
    const size_t rec = stride ? vertex * stride : 0;
    const size_t rec_len = (size - rec < stride || !stride) ? size - rec : stride;
    fprintf(stderr, "MISMATCH %s at %s (%s), seed %" PRIu64 ": vertex %zu, byte %zu of its record"
                    " (want %02x, got %02x)\n    replay: test_checkasm --seed %" PRIu64
                    " --kernel %s --isa %s\n",
            what, isa, detail, opt_seed, vertex, b - rec, want[b], got[b], opt_seed,
            replay_name(what), isa);
    if (src)
        dump_bytes("input", src + vertex * src_stride, src_len);
    dump_bytes("want", want + rec, rec_len);
    dump_bytes("got", got + rec, rec_len);
    return false;
}

/* ---- kernels, random formats ------------------------------------------------------------ */

struct kernel kernels[VFETCH_FORMAT_COUNT * VFETCH_CONV_COUNT];
unsigned num_kernels;

static void kernels_init(void)
{
    for (unsigned f = 0; f < VFETCH_FORMAT_COUNT; f++)
        for (unsigned c = 0; c < VFETCH_CONV_COUNT; c++) {
            if (!vfetch_pair_valid((enum vfetch_format)f, (enum vfetch_conversion)c))
                continue;
            struct kernel *k = &kernels[num_kernels++];
            k->format = (enum vfetch_format)f;
            k->conversion = (enum vfetch_conversion)c;
            snprintf(k->name, sizeof k->name, "%s_%s", vfetch_format_info[f].name,
                     vfetch_conversion_name[c]);
        }
}

/* Whether the record program expresses a kernel's ops wherever they lie (docs/simd.md): not
   RGBA8 packing (only of some layouts), integer fields above bit 0, the unsigned small
   floats, or the float conversions of 32-bit fields. */
static bool kernel_in_record(const struct kernel *k)
{
    const struct vfetch_format_info *fi = &vfetch_format_info[k->format];
    if (k->conversion == VFETCH_CONV_PACK_UNORM8 || k->format == VFETCH_FORMAT_UFLOAT_11_11_10)
        return false;
    if ((k->conversion == VFETCH_CONV_INTEGER || k->conversion == VFETCH_CONV_SINTEGER) && fi->packed)
        return false;
    if (k->format == VFETCH_FORMAT_FIXED32)
        return k->conversion == VFETCH_CONV_INTEGER;
    return true;
}

const char *const order_names[5] = { "little", "swap16", "swap32", "swaphalf", "big-endian" };

struct vfetch_op full_op(const struct kernel *k)
{
    const struct vfetch_format_info *fi = &vfetch_format_info[k->format];
    struct vfetch_op op = { .format = k->format, .conversion = k->conversion,
                            .count = fi->max_count,
                            .write_mask = k->conversion == VFETCH_CONV_PACK_UNORM8 ? 1 : 0xf };
    for (unsigned c = 0; c < 4; c++) {
        op.swizzle[c] = (uint8_t)c;
        if (c < op.count)
            op.src[c].offset = fi->packed ? 0 : c * fi->container;
    }
    return op;
}

bool random_plan_desc(struct vfetch_plan_desc *d)
{
    bool regular = true;
    vfetch_plan_desc_init(d);
    d->num_streams = 1 + rnd_below(3);
    for (unsigned s = 0; s < d->num_streams; s++) {
        struct vfetch_stream *st = &d->streams[s];
        st->order = (enum vfetch_byte_order)(rnd_below(3) ? VFETCH_ORDER_LITTLE : rnd_below(5));
        st->step = (enum vfetch_step)(rnd_below(6) ? VFETCH_STEP_INDEXED : rnd_below(4));
        st->divisor = rnd_below(3) ? rnd_below(4) : 0; /* instanced streams: 0..3 */
        st->stride = 4 * (1 + rnd_below(16));
        if (rnd_below(5) == 0 && (st->order == VFETCH_ORDER_LITTLE || st->order == VFETCH_ORDER_BIG_ENDIAN))
            st->stride += 1 + rnd_below(3); /* odd strides */
    }
    d->num_ops = 1 + rnd_below(8);
    unsigned slots = 0;
    for (unsigned i = 0; i < d->num_ops; i++) {
        const struct kernel *k = &kernels[rnd_below(num_kernels)];
        if (!kernel_in_record(k) && rnd_below(4)) /* keep most plans on the record program */
            k = &kernels[rnd_below(num_kernels)];
        const struct vfetch_format_info *fi = &vfetch_format_info[k->format];
        struct vfetch_op *op = &d->ops[i];
        *op = full_op(k);
        const unsigned s = rnd_below(d->num_streams);
        const uint32_t stride = d->streams[s].stride;
        op->count = fi->packed ? fi->max_count : (uint8_t)(1 + rnd_below(fi->max_count));
        /* Mostly aligned, contiguous components inside the record, like real formats. */
        uint32_t at = stride > fi->container * op->count
                          ? rnd_below(stride - fi->container * op->count + 1) : 0;
        if (rnd_below(4))
            at -= at % fi->container;
        for (unsigned c = 0; c < op->count; c++) {
            op->src[c].stream = (uint8_t)(rnd_below(8) ? s : rnd_below(d->num_streams));
            op->src[c].offset = fi->packed ? at : at + c * fi->container;
        }
        /* Dword-swapped streams move bytes within aligned dwords: an unaligned element's
           bytes may spread over more than 16 (R300 elements are dword-aligned). */
        const enum vfetch_byte_order order = d->streams[op->src[0].stream].order;
        regular &= (order == VFETCH_ORDER_LITTLE || order == VFETCH_ORDER_BIG_ENDIAN || at % 4 == 0);
        if (fi->packed)
            for (unsigned c = 1; c < fi->max_count; c++)
                op->src[c].stream = op->src[0].stream;
        for (unsigned c = 1; c < op->count; c++)
            regular &= op->src[c].stream == op->src[0].stream;
        if (rnd_below(3) == 0)
            for (unsigned c = 0; c < 4; c++)
                op->swizzle[c] = (uint8_t)rnd_below(6);
        op->write_mask = (uint8_t)(rnd_below(4) ? 0xf : 1 + rnd_below(15)); /* never 0: EPLAN */
        if (k->conversion == VFETCH_CONV_PACK_UNORM8) {
            for (unsigned c = 0; c < 4; c++)
                op->swizzle[c] = (uint8_t)c;
            op->write_mask = 1;
        }
        /* What the record program leaves to the per-op path: RGBA8 packing, integer fields
           above bit 0. */
        regular &= kernel_in_record(k);
        if (k->conversion == VFETCH_CONV_UINT || k->conversion == VFETCH_CONV_SINT)
            op->shift = (uint8_t)(rnd_below(3) ? 0 : rnd_below(32));
        /* Usually the next free vec4; sometimes an overlap with an earlier op. */
        op->dst_slot = (uint16_t)(rnd_below(6) || !slots ? slots : rnd_below(slots));
        regular &= op->dst_slot == slots; /* overlaps may mix streams in one vector */
        if (rnd_below(10) == 0) { /* a constant op (slot defaults): words, no source */
            op->format = VFETCH_FORMAT_CONSTANT;
            op->conversion = VFETCH_CONV_FLOAT;
            op->count = 0;
            op->shift = 0;
            op->write_mask = (uint8_t)(1 + rnd_below(15));
            for (unsigned c = 0; c < 4; c++)
                op->constant[c] = rnd_below(3) ? (uint32_t)(rnd() >> 32) : rnd_below(2);
        }
        if (op->dst_slot == slots)
            slots += 4;
    }
    d->out_slots = slots ? slots : 4;
    for (unsigned i = 0; i < d->num_ops; i++)
        if (d->ops[i].dst_slot + 4u > d->out_slots)
            d->out_slots = d->ops[i].dst_slot + 4u;
    if (rnd_below(4) == 0)
        d->out_stride = 4 * (d->out_slots + rnd_below(4));
    regular &= d->out_slots % 4 == 0 && d->out_stride % 16 == 0;
    return regular;
}

void instanced_as_constant(struct vfetch_plan_desc *d)
{
    for (unsigned s = 0; s < d->num_streams; s++)
        if (d->streams[s].step == VFETCH_STEP_INSTANCE)
            d->streams[s].step = VFETCH_STEP_CONSTANT;
}

/* ---- buffers, reference runs, plans at a level ------------------------------------------ */

uint8_t *place(size_t size, bool at_head, unsigned align, uint8_t **alloc)
{
    *alloc = at_head ? guard_alloc_head(size + align) : guard_alloc_tail(size);
    if (!*alloc) {
        fprintf(stderr, "guard allocation of %zu bytes failed\n", size);
        exit(2);
    }
    return at_head ? *alloc + align : *alloc;
}

static void run_buffers_make(const vfetch_plan *plan, struct run_buffers *b, bool head,
                             uint32_t count)
{
    const struct vfetch_plan_desc *d = vfetch_plan_get_desc(plan);
    const bool direct = count != RUN_RANDOM_COUNT && (count & RUN_DIRECT);
    if (count != RUN_RANDOM_COUNT)
        count &= ~RUN_DIRECT;
    b->idx_type = direct ? VFETCH_INDEX_NONE : (enum vfetch_index_type)rnd_below(3);
    b->count = count != RUN_RANDOM_COUNT ? count
               : rnd_below(5)            ? rnd_below(70)
                                         : 200 + rnd_below(900);
    b->first = rnd_below(5);
    b->index_offset = 0;
    b->max_index = UINT32_MAX;
    uint32_t max_record = b->first + (b->count ? b->count - 1 : 0);
    if (b->idx_type != VFETCH_INDEX_NONE) {
        const size_t w = b->idx_type == VFETCH_INDEX_U16 ? 2 : 4;
        const uint32_t range = 1 + rnd_below(300);
        b->idx_size = w * ((size_t)b->first + b->count);
        b->alloc[VFETCH_MAX_STREAMS] = b->idx = place(b->idx_size, head, 0, &b->alloc[VFETCH_MAX_STREAMS]);
        b->index_offset = rnd_below(3) ? 0 : rnd_below(10);
        if (rnd_below(3) == 0)
            b->max_index = rnd_below(range + 10);
        uint32_t hi = 0;
        for (size_t i = 0; i < b->first + (size_t)b->count; i++) {
            const uint32_t v = rnd_below(range);
            if (w == 2) {
                const uint16_t h = (uint16_t)v;
                memcpy(b->idx + 2 * i, &h, 2);
            } else {
                memcpy(b->idx + 4 * i, &v, 4);
            }
            if (i >= b->first) {
                uint64_t e = (uint64_t)v + (uint64_t)b->index_offset;
                if (e > b->max_index)
                    e = b->max_index;
                if (e > hi)
                    hi = (uint32_t)e;
            }
        }
        max_record = hi > max_record ? hi : max_record;
    }
    b->instance = rnd_below(2) ? 0 : rnd_below(20);
    b->base_instance = rnd_below(2) ? 0 : rnd_below(5);
    for (unsigned s = 0; s < d->num_streams; s++) {
        const size_t extent = vfetch_plan_stream_extent(plan, s);
        size_t size = 0;
        if (b->count && extent) {
            const struct vfetch_stream *st = &d->streams[s];
            /* an instanced stream's buffer ends at its one record (a guard page after it) */
            const size_t records = st->step == VFETCH_STEP_CONSTANT ? 1
                                   : st->step == VFETCH_STEP_INSTANCE
                                       ? (size_t)b->base_instance +
                                             (st->divisor ? b->instance / st->divisor : 0) + 1
                                       : (size_t)max_record + 1;
            size = (records - 1) * d->streams[s].stride + extent;
        }
        uint8_t *p = place(size, head, 0, &b->alloc[s]);
        rnd_fill(p, size);
        b->bind[s] = (struct vfetch_binding){ p, size };
    }
    b->out_size = b->count ? (size_t)(b->count - 1) * vfetch_plan_out_stride(plan) +
                             vfetch_plan_record_size(plan) : 0;
}

static void run_buffers_free(struct run_buffers *b)
{
    for (unsigned i = 0; i < VFETCH_MAX_STREAMS + 2; i++)
        guard_free(b->alloc[i]);
    memset(b, 0, sizeof *b);
}

int run_with(const vfetch_plan *plan, const struct run_buffers *b, uint8_t *out)
{
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = b->bind;
    p.num_streams = vfetch_plan_get_desc(plan)->num_streams;
    p.first = b->first;
    p.count = b->count;
    p.indices = b->idx;
    p.index_type = b->idx_type;
    p.indices_size = b->idx_size;
    p.index_offset = b->index_offset;
    p.max_index = b->max_index;
    p.instance = b->instance;
    p.base_instance = b->base_instance;
    p.out = out;
    p.out_size = b->out_size;
    return vfetch_run(plan, &p);
}

unsigned level_variants(const struct level *l, struct variant v[4])
{
    unsigned n = 0;
    v[n++] = (struct variant){ "chosen", 0, 0, NULL };
    if (l->dsp.record) {
        v[n++] = (struct variant){ "native", l->dsp.record_lanes, l->dsp.record_wide_windows, l->dsp.record };
        if (l->dsp.record_wide_windows)
            v[n++] = (struct variant){ "16-byte windows", l->dsp.record_lanes, 0, l->dsp.record };
    }
    if (l->dsp.record_narrow)
        v[n++] = (struct variant){ "narrow", l->dsp.record_narrow_lanes, 0, l->dsp.record_narrow };
    return n;
}

const struct vfetch_record_prog *plan_use_variant(vfetch_plan *plan, const struct variant *v)
{
    if (!v->fn)
        return plan->record;
    struct vfetch_record_prog *prog = vfetch_record_lower(plan, v->lanes, v->wide);
    if (!prog)
        return NULL;
    free(plan->record);
    plan->record = prog;
    plan->record_run = v->fn;
    free(plan->record_small);
    plan->record_small = NULL;
    return prog;
}

bool reference_run_make_at(const struct vfetch_plan_desc *d, struct reference_run *rr,
                           uint32_t count, int head)
{
    memset(rr, 0, sizeof *rr);
    vfetch_set_cpu_mask(0);
    const int err = vfetch_plan_compile(d, &rr->ref);
    CHECK_EQ(err, 0);
    if (err)
        return false;
    rr->head = head < 0 ? rnd_below(2) : (bool)head;
    run_buffers_make(rr->ref, &rr->b, rr->head, count);
    rr->want = malloc(rr->b.out_size + 1);
    rr->pattern = malloc(rr->b.out_size + 1);
    rnd_fill(rr->pattern, rr->b.out_size);
    memcpy(rr->want, rr->pattern, rr->b.out_size);
    CHECK_EQ(run_with(rr->ref, &rr->b, rr->want), 0);
    return true;
}

void reference_run_free(struct reference_run *rr)
{
    free(rr->want);
    free(rr->pattern);
    run_buffers_free(&rr->b);
    vfetch_plan_free(rr->ref);
}

void reference_run_compare(const vfetch_plan *plan, const struct reference_run *rr,
                           const char *what, const char *isa, const char *detail)
{
    const struct run_buffers *b = &rr->b;
    uint8_t *out_alloc, *out = place(b->out_size, rr->head, 0, &out_alloc);
    memcpy(out, rr->pattern, b->out_size);
    CHECK_EQ(run_with(plan, b, out), 0);
    compare_outputs(what, isa, detail, rr->want, out, b->out_size, vfetch_plan_out_stride(plan),
                    NULL, 0, 0);
    guard_free(out_alloc);
}

unsigned level_mask(unsigned l)
{
    return levels[l].bit == VFETCH_CPU_NEON ? VFETCH_CPU_NEON : (levels[l].bit << 1) - 1;
}

vfetch_plan *plan_at_level(const struct vfetch_plan_desc *d, unsigned l)
{
    vfetch_set_cpu_mask(level_mask(l));
    vfetch_plan *plan = NULL;
    CHECK_EQ(vfetch_plan_compile(d, &plan), 0);
    return plan;
}

static void usage(void)
{
    printf("usage: test_checkasm [--seed N] [--kernel NAME|record|gx-index|texel|gx-texture] [--isa LEVEL] [--part I/N] [--quick] [--list]\n");
}

int main(int argc, char **argv)
{
    bool list = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            opt_seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--kernel") && i + 1 < argc)
            opt_kernel = argv[++i];
        else if (!strcmp(argv[i], "--isa") && i + 1 < argc)
            opt_isa = argv[++i];
        else if (!strcmp(argv[i], "--part") && i + 1 < argc) {
            unsigned part = 0, parts = 0;
            char end;
            if (sscanf(argv[++i], "%u/%u%c", &part, &parts, &end) != 2 || part < 1 || part > parts) {
                usage();
                return 2;
            }
            opt_part = part - 1;
            opt_parts = parts;
        } else if (!strcmp(argv[i], "--quick"))
            opt_quick = true;
        else if (!strcmp(argv[i], "--list"))
            list = true;
        else {
            usage();
            return 2;
        }
    }
    if (getenv("VFETCH_CHECKASM_QUICK"))
        opt_quick = true;
#if defined(__GLIBC__)
    /* Keep freed memory: the reference buffers (up to a few MiB a case) were otherwise given
       back to the system and faulted in again, case after case. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
    kernels_init();
    if (opt_kernel && !kernel_known(opt_kernel)) {
        fprintf(stderr, "checkasm: unknown kernel '%s' (test_checkasm --list names them all)\n",
                opt_kernel);
        return 2;
    }
    if (list) {
        for (unsigned i = 0; i < num_kernels; i++)
            printf("%s\n", kernels[i].name);
        for (unsigned i = 0; i < sizeof family_names / sizeof family_names[0]; i++)
            printf("%s\n", family_names[i]);
        return 0;
    }
    levels_init();
    printf("checkasm: seed %" PRIu64 ", levels:", opt_seed);
    for (unsigned l = 0; l < num_levels; l++)
        printf(" %s", levels[l].name);
    printf("%s", opt_quick ? " (quick)" : "");
    if (opt_parts > 1)
        printf(" (part %u/%u)", opt_part + 1, opt_parts);
    printf("\n");
    if (opt_isa && num_levels == 0) {
        fprintf(stderr, "level %s is not available here\n", opt_isa);
        return 77; /* meson: skipped */
    }
    check_kernels();
    check_record();
    check_word_copy();
    check_gx();
    check_texel();
    check_gx_texture();
    check_jit();
    check_prim();
    check_prim_index();
    return test_summary("checkasm");
}
