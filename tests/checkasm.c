/*
 * checkasm: every per-op SIMD kernel and every record-program executor, at every ISA level this
 * CPU has (each forced through the kernel table of that level), against the scalar reference,
 * bit for bit. dav1d's checkasm is the model.
 *
 * Per-op kernels (one per format x conversion):
 *   - exhaustive: every value of every fixed-point field (8, 10, 11, 16 bits) under every
 *     conversion and every dequantisation shift, all 65,536 binary16 values, 65,536 random float32
 *     bit patterns plus the special values; in every byte order;
 *   - random cases: vertex counts 0..67 and a few large ones, component counts, offsets,
 *     strides (odd ones where the byte order allows), swizzles, write masks, destination slots
 *     and strides; every source and destination alignment 0..15;
 *   - buffers are exact and placed against PROT_NONE pages at their tail, or at their head:
 *     any byte read or written outside them crashes the test;
 *   - all of it again with FTZ/DAZ (x86 MXCSR) or FZ (aarch64 FPCR) set while the kernel runs.
 * Record programs: random valid vertex formats (several streams, byte orders, ops, masks,
 *   overlapping writes, padded output strides), run through vfetch_run on exact guarded buffers,
 *   directly and through index buffers, with every program variant a level can choose (AVX-512:
 *   32/64/128-byte windows, 16-byte windows, and the 256-bit program), against the reference-only
 *   plan. The share of formats that get a record program is asserted, and that every
 *   whole-vector window is the smallest that holds its bytes.
 * Gathered programs (GX indexed draws): each level's executor from random 16-byte pieces against
 *   the reference over the assembled records, pieces and outputs against guard pages.
 * GX index columns (lib/gx/run.c's row staging): the index reads and the address computation
 *   of every level against the reference, on exact guarded vertex bytes and columns.
 *
 * A mismatch prints the kernel, the level, the seed, the input bytes, both outputs and the
 * first differing byte; `test_checkasm --seed N --kernel NAME --isa LEVEL` replays it.
 *
 * Usage: test_checkasm [--seed N] [--kernel NAME|record|gx-index|texel] [--isa LEVEL] [--quick] [--list]
 */
#define _DEFAULT_SOURCE
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsp.h"
#include "gx/gx_dsp.h"
#include "guard.h"
#include "testutil.h"
#include "texel/checkasm_texel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
/* The i686 baseline has no SSE: MXCSR access is compiled with it (it runs only at SIMD levels). */
#if defined(__i386__) && !defined(__SSE__)
#define FP_FLUSH_TARGET __attribute__((target("sse")))
#else
#define FP_FLUSH_TARGET
#endif

/* ---- options, random numbers ------------------------------------------------------------ */

static uint64_t opt_seed = 0x5eed;
static const char *opt_kernel;
static const char *opt_isa;
static bool opt_quick;
static unsigned mismatch_reports;

static uint64_t rng;

static uint64_t rnd(void)
{
    /* xorshift64*: fast, and good enough to pick test cases */
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1Dull;
}

static uint32_t rnd_below(uint32_t n)
{
    return n ? (uint32_t)((rnd() >> 32) % n) : 0;
}

static void rnd_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(rnd() >> 56);
}

/* Seed for one named test, so that --kernel replays the same cases as a full run. */
static void rng_seed_for(const char *name)
{
    uint64_t h = opt_seed ^ 0xcbf29ce484222325ull;
    for (const char *c = name; *c; c++)
        h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
    rng = h ? h : 1;
}

/* ---- ISA levels ---------------------------------------------------------------------------- */

struct level {
    const char *name;
    unsigned bit;
    struct vfetch_dsp dsp;
    struct vfetch_gx_dsp gx; /* GX's table (lib/gx/gx_dsp.h) at the same level */
};

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

static struct level levels[5];
static unsigned num_levels;
static struct vfetch_dsp ref_dsp;
static struct vfetch_gx_dsp ref_gx;

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

/* Flush-to-zero / denormals-are-zero while a kernel runs (the reference always runs without). */
static unsigned fp_saved;

FP_FLUSH_TARGET static void fp_flush_begin(bool on, unsigned level_bit)
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

FP_FLUSH_TARGET static void fp_flush_end(bool on)
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

/*
 * Compare two output buffers of records `stride` bytes apart. On a difference: one report with
 * the vertex's input bytes (src/src_len of that vertex), both records and the first differing
 * byte. Returns true when equal.
 */
static bool compare_outputs(const char *what, const char *isa, const char *detail,
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
            what, isa, detail, opt_seed, vertex, b - rec, want[b], got[b], opt_seed, what, isa);
    if (src)
        dump_bytes("input", src + vertex * src_stride, src_len);
    dump_bytes("want", want + rec, rec_len);
    dump_bytes("got", got + rec, rec_len);
    return false;
}

/* ---- per-op kernels -------------------------------------------------------------------- */

struct kernel {
    char name[40];
    enum vfetch_format format;
    enum vfetch_conversion conversion;
};

static struct kernel kernels[VFETCH_FORMAT_COUNT * VFETCH_CONV_COUNT];
static unsigned num_kernels;

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

/* One per-op kernel test case: an op over one stream, and where its buffers sit. */
struct op_case {
    struct vfetch_op op;
    struct vfetch_stream stream;
    size_t n;               /* vertices */
    size_t dst_stride;
    unsigned src_align;     /* head placement: base address mod 16 */
    unsigned dst_align;
    bool src_at_head, dst_at_head;
    bool flush;             /* FTZ/DAZ while the kernel runs */
    const uint8_t *data;    /* source bytes to use (NULL: random) */
    size_t data_size;
};

static const char *order_names[] = { "little", "swap16", "swap32", "swaphalf", "big-endian" };

/* Highest output byte (exclusive) one record of the op touches. */
static size_t op_record_extent(const struct vfetch_op *op)
{
    unsigned hi = 0;
    for (unsigned c = 0; c < 4; c++)
        if (op->write_mask >> c & 1)
            hi = c + 1;
    return hi ? 4 * ((size_t)op->dst_slot + hi) : 0;
}

static uint8_t *place(size_t size, bool at_head, unsigned align, uint8_t **alloc)
{
    *alloc = at_head ? guard_alloc_head(size + align) : guard_alloc_tail(size);
    if (!*alloc) {
        fprintf(stderr, "guard allocation of %zu bytes failed\n", size);
        exit(2);
    }
    return at_head ? *alloc + align : *alloc;
}

/* Run one case through the reference and through kernel k of every level. */
static void run_op_case(const struct kernel *k, const struct op_case *oc)
{
    struct vfetch_plan_desc d;
    vfetch_plan_desc_init(&d);
    d.num_streams = 1;
    d.streams[0] = oc->stream;
    d.num_ops = 1;
    d.ops[0] = oc->op;
    d.out_slots = oc->op.dst_slot + 4u;
    d.path = VFETCH_PATH_PER_OP;
    vfetch_plan *plan;
    int err = vfetch_plan_create(&d, &plan);
    CHECK_EQ(err, 0);
    if (err)
        return;
    struct vfetch_op_exec x = plan->ops[0];
    const size_t extent = vfetch_plan_stream_extent(plan, 0);
    const size_t stride = oc->stream.stride;
    const size_t n = oc->n;
    const size_t src_size = n ? (n - 1) * stride + extent : 0;
    const size_t rec_extent = op_record_extent(&oc->op);
    const size_t dst_size = n && rec_extent ? (n - 1) * oc->dst_stride + rec_extent : 0;

    uint8_t *src_alloc, *dst_alloc;
    uint8_t *src = place(src_size, oc->src_at_head, oc->src_align, &src_alloc);
    uint8_t *dst = place(dst_size, oc->dst_at_head, oc->dst_align, &dst_alloc);
    if (oc->data) {
        if (oc->data_size < src_size) {
            fprintf(stderr, "internal: case data too short\n");
            exit(2);
        }
        memcpy(src, oc->data, src_size);
    } else {
        rnd_fill(src, src_size);
    }
    uint8_t *pattern = malloc(dst_size + 1), *want = malloc(dst_size + 1);
    rnd_fill(pattern, dst_size);
    memcpy(want, pattern, dst_size);

    const uint8_t *base[VFETCH_MAX_STREAMS] = { src };
    const size_t strides[VFETCH_MAX_STREAMS] = { stride };
    ref_dsp.convert[k->format][k->conversion](&x, base, strides, n, want, oc->dst_stride);

    char detail[160];
    snprintf(detail, sizeof detail, "%s, n %zu, count %u, shift %u, stride %zu, swizzle %u%u%u%u"
             " mask %x slot %u, dst stride %zu%s",
             order_names[oc->stream.order], n, oc->op.count, oc->op.shift, stride,
             oc->op.swizzle[0], oc->op.swizzle[1], oc->op.swizzle[2], oc->op.swizzle[3],
             oc->op.write_mask, oc->op.dst_slot, oc->dst_stride, oc->flush ? ", FTZ/DAZ" : "");
    for (unsigned l = 0; l < num_levels; l++) {
        vfetch_convert_fn *fn = levels[l].dsp.convert[k->format][k->conversion];
        memcpy(dst, pattern, dst_size);
        fp_flush_begin(oc->flush, levels[l].bit);
        fn(&x, base, strides, n, dst, oc->dst_stride);
        fp_flush_end(oc->flush);
        compare_outputs(k->name, levels[l].name, detail, want, dst, dst_size, oc->dst_stride,
                        src, stride, extent);
    }
    free(pattern);
    free(want);
    guard_free(src_alloc);
    guard_free(dst_alloc);
    vfetch_plan_free(plan);
}

/* The identity op of kernel k reading contiguous components from offset 0. */
static struct vfetch_op full_op(const struct kernel *k)
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

/*
 * Exhaustive domain: vertex i holds value i (mod the field's range) in its first field and a
 * bijection of i in the others, so every field sees every value. Returns the vertex count.
 */
static size_t exhaustive_data(const struct kernel *k, uint8_t **out, size_t *stride)
{
    const struct vfetch_format_info *fi = &vfetch_format_info[k->format];
    size_t n;
    if (fi->packed && fi->container <= 2)
        n = (size_t)1 << (8 * fi->container); /* every container value */
    else if (fi->packed)
        n = (size_t)1 << fi->field_bits[0];
    else if (k->format == VFETCH_FORMAT_FLOAT32 || k->format == VFETCH_FORMAT_FIXED32)
        n = 65536; /* specials, then random words */
    else
        n = (size_t)1 << (8 * fi->container);
    *stride = fi->packed ? 4 : (size_t)fi->container * fi->max_count; /* dword swaps: x4 */
    uint8_t *p = malloc(n * *stride);
    for (size_t i = 0; i < n; i++) {
        uint8_t *v = p + i * *stride;
        if (fi->packed && fi->container <= 2) {
            memcpy(v, &i, fi->container); /* little-endian host */
        } else if (fi->packed) {
            uint32_t word = 0;
            for (unsigned c = 0; c < fi->max_count; c++) {
                const uint32_t m = (1u << fi->field_bits[c]) - 1;
                const uint32_t val = (uint32_t)(c == 0 ? i : c == 1 ? ~i : c == 2 ? i * 5 + 3 : i ^ 0x55) & m;
                word |= val << fi->field_shift[c];
            }
            memcpy(v, &word, fi->container);
        } else if (k->format == VFETCH_FORMAT_FLOAT32 || k->format == VFETCH_FORMAT_FIXED32) {
            static const uint32_t special[] = {
                0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001,
                0xffbfffff, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0x3f800000,
            };
            static const uint32_t special_int[] = {
                0x00000000, 0x00000001, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff,
                0xfffffffe, 0x00ffffff, 0x01000001, 0x7fffff80, 0x7fffffc0, 0xffffff7f,
            };
            const uint32_t *sp = k->format == VFETCH_FORMAT_FIXED32 ? special_int : special;
            for (unsigned c = 0; c < 4; c++) {
                const uint32_t bits = i < 12 ? sp[(i + c) % 12] : (uint32_t)(rnd() >> 32);
                memcpy(v + 4 * c, &bits, 4);
            }
        } else {
            for (unsigned c = 0; c < fi->max_count; c++) {
                const uint32_t val = (uint32_t)(c == 0 ? i : c == 1 ? ~i : c == 2 ? i * 5 + 3 : i ^ 0x5555);
                memcpy(v + c * fi->container, &val, fi->container); /* little-endian host */
            }
        }
    }
    *out = p;
    return n;
}

static void check_kernel_exhaustive(const struct kernel *k)
{
    uint8_t *data;
    size_t stride;
    const size_t n = exhaustive_data(k, &data, &stride);
    const bool shifted = k->conversion == VFETCH_CONV_UINT || k->conversion == VFETCH_CONV_SINT;
    const unsigned shifts = shifted ? 32 : 1;
    for (unsigned order = 0; order <= VFETCH_ORDER_BIG_ENDIAN; order++) {
        if (opt_quick && order != VFETCH_ORDER_LITTLE && order != VFETCH_ORDER_SWAP_32)
            continue;
        for (unsigned shift = 0; shift < shifts; shift++) {
            if (opt_quick && shift % 8 != 0 && shift != 31)
                continue;
            struct op_case oc = {
                .op = full_op(k),
                .stream = { (uint32_t)stride, (enum vfetch_byte_order)order, VFETCH_STEP_INDEXED },
                .n = n, .dst_stride = 16, .data = data, .data_size = n * stride,
                .flush = shift == 1, /* one pass of every domain with FTZ/DAZ on */
            };
            oc.op.shift = (uint8_t)shift;
            run_op_case(k, &oc);
            if (!shifted && order == VFETCH_ORDER_LITTLE) {
                oc.flush = true;
                run_op_case(k, &oc);
            }
        }
    }
    free(data);
}

/* A random case of kernel k with n vertices. */
static struct op_case random_op_case(const struct kernel *k, size_t n, unsigned align)
{
    const struct vfetch_format_info *fi = &vfetch_format_info[k->format];
    struct op_case oc = { .n = n, .src_align = align, .dst_align = (align * 7 + 3) % 16 };
    oc.stream.order = (enum vfetch_byte_order)rnd_below(5);
    oc.stream.step = VFETCH_STEP_INDEXED;
    const bool dword_swap = oc.stream.order >= VFETCH_ORDER_SWAP_16 &&
                            oc.stream.order <= VFETCH_ORDER_SWAP_HALF;
    /* Strides 0..71, odd ones where the byte order allows. */
    uint32_t stride = rnd_below(72);
    if (dword_swap)
        stride &= ~3u;
    oc.stream.stride = stride;
    oc.op = full_op(k);
    oc.op.count = fi->packed ? fi->max_count : (uint8_t)(1 + rnd_below(fi->max_count));
    const unsigned room = 24;
    for (unsigned c = 0; c < oc.op.count; c++) {
        /* Unaligned offsets, overlapping components; packed formats share one container. */
        oc.op.src[c].offset = fi->packed && c ? oc.op.src[0].offset : rnd_below(room);
    }
    for (unsigned c = 0; c < 4; c++)
        oc.op.swizzle[c] = (uint8_t)rnd_below(6);
    oc.op.write_mask = (uint8_t)(rnd_below(4) ? 1 + rnd_below(15) : 0xf); /* never 0: EPLAN */
    if (k->conversion == VFETCH_CONV_PACK_UNORM8) { /* identity swizzle, one slot */
        for (unsigned c = 0; c < 4; c++)
            oc.op.swizzle[c] = (uint8_t)c;
        oc.op.write_mask = 1;
    }
    if (k->conversion == VFETCH_CONV_UINT || k->conversion == VFETCH_CONV_SINT)
        oc.op.shift = (uint8_t)rnd_below(32);
    oc.op.dst_slot = (uint16_t)rnd_below(6);
    const size_t rec = 4 * ((size_t)oc.op.dst_slot + 4);
    oc.dst_stride = rec + 4 * rnd_below(4);
    oc.src_at_head = rnd_below(2);
    oc.dst_at_head = rnd_below(2);
    oc.flush = rnd_below(2);
    return oc;
}

static void check_kernel_random(const struct kernel *k)
{
    static const size_t large[] = { 255, 1000, 4099 };
    const unsigned repeats = opt_quick ? 1 : 3;
    for (unsigned r = 0; r < repeats; r++) {
        for (size_t n = 0; n <= 67; n++) {
            struct op_case oc = random_op_case(k, n, (unsigned)(n + r) % 16);
            run_op_case(k, &oc);
        }
        for (unsigned i = 0; i < sizeof large / sizeof large[0]; i++) {
            struct op_case oc = random_op_case(k, large[i], rnd_below(16));
            run_op_case(k, &oc);
        }
    }
    /* Every alignment of source and destination, head-placed, with a fixed layout. */
    for (unsigned a = 0; a < 16; a++) {
        struct op_case oc = random_op_case(k, 37, a);
        oc.src_at_head = oc.dst_at_head = true;
        oc.dst_align = a;
        run_op_case(k, &oc);
    }
}

static void check_kernels(void)
{
    for (unsigned i = 0; i < num_kernels; i++) {
        const struct kernel *k = &kernels[i];
        if (opt_kernel && strcmp(opt_kernel, k->name) != 0)
            continue;
        const unsigned before = test_failures, checks = test_checks;
        rng_seed_for(k->name);
        check_kernel_exhaustive(k);
        check_kernel_random(k);
        printf("  %-22s %6u cases x %u levels %s\n", k->name,
               num_levels ? (test_checks - checks) / num_levels : 0, num_levels,
               test_failures == before ? "ok" : "FAILED");
    }
}

/* ---- record programs through vfetch_run ------------------------------------------------- */

/*
 * A random valid vertex format. Returns true when it is regular: each op writes its own vec4,
 * reads one stream, and the output stride is whole vec4s -- what every R300 format without
 * straddling or repeated DST_VEC_LOC is, and what a record program must always express.
 */
static bool random_plan_desc(struct vfetch_plan_desc *d)
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

/* The tests that call the run's internal entry point (vfetch_execute, which takes instanced
   streams already moved to their record: vfetch_run does that) read
   instanced streams as constant ones. */
static void instanced_as_constant(struct vfetch_plan_desc *d)
{
    for (unsigned s = 0; s < d->num_streams; s++)
        if (d->streams[s].step == VFETCH_STEP_INSTANCE)
            d->streams[s].step = VFETCH_STEP_CONSTANT;
}

/* Buffers of one run, each exactly as large as the run needs, against guard pages. */
struct run_buffers {
    uint8_t *alloc[VFETCH_MAX_STREAMS + 2];
    struct vfetch_binding bind[VFETCH_MAX_STREAMS];
    uint8_t *idx;
    size_t idx_size;
    enum vfetch_index_type idx_type;
    uint32_t first, count;
    int64_t index_offset;
    uint32_t max_index;
    uint32_t instance, base_instance; /* instanced streams read record base + instance / divisor */
    size_t out_size;
};

/* Buffers for a run of `count` vertices, or of a random count for RUN_RANDOM_COUNT. */
#define RUN_RANDOM_COUNT UINT32_MAX

/* Direct draws only (no index buffer), for RUN_DIRECT in count. */
#define RUN_DIRECT 0x80000000u

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

static int run_with(const vfetch_plan *plan, const struct run_buffers *b, uint8_t *out)
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

/* A plan variant: the level's plan with a given record program swapped in. */
struct variant {
    const char *name;
    unsigned lanes;
    int wide;
    vfetch_record_fn *fn;
};

static unsigned level_variants(const struct level *l, struct variant v[4])
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

/* Make a plan run variant v alone (its program for every count); "chosen" changes nothing
   (and returns the plan's program, NULL on the per-op path). Returns the variant's program,
   or NULL when the plan cannot be lowered to it. */
static const struct vfetch_record_prog *plan_use_variant(vfetch_plan *plan, const struct variant *v)
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

/* A format's reference output: its plan at level c, buffers for a run of it, the output
   buffer's initial pattern and the reference's result over it. */
struct reference_run {
    vfetch_plan *ref;
    struct run_buffers b;
    bool head;
    uint8_t *want, *pattern;
};

/* count as run_buffers_make's; head: the buffers start after a guard page (1), end before
   one (0), or either (-1). */
static bool reference_run_make_at(const struct vfetch_plan_desc *d, struct reference_run *rr,
                                  uint32_t count, int head)
{
    memset(rr, 0, sizeof *rr);
    vfetch_set_cpu_mask(0);
    const int err = vfetch_plan_create(d, &rr->ref);
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

static bool reference_run_make(const struct vfetch_plan_desc *d, struct reference_run *rr,
                               uint32_t count)
{
    return reference_run_make_at(d, rr, count, -1);
}

static void reference_run_free(struct reference_run *rr)
{
    free(rr->want);
    free(rr->pattern);
    run_buffers_free(&rr->b);
    vfetch_plan_free(rr->ref);
}

/* Run plan over rr's buffers (its output placed and pre-filled as rr's was) and compare with
   rr's reference output. */
static void reference_run_compare(const vfetch_plan *plan, const struct reference_run *rr,
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

/* The CPU mask that selects level l and those below it. */
static unsigned level_mask(unsigned l)
{
    return levels[l].bit == VFETCH_CPU_NEON ? VFETCH_CPU_NEON : (levels[l].bit << 1) - 1;
}

/* A format's plan at level l (the CPU mask set to it), checked to be created. */
static vfetch_plan *plan_at_level(const struct vfetch_plan_desc *d, unsigned l)
{
    vfetch_set_cpu_mask(level_mask(l));
    vfetch_plan *plan = NULL;
    CHECK_EQ(vfetch_plan_create(d, &plan), 0);
    return plan;
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
    if (opt_kernel && strcmp(opt_kernel, "record") != 0)
        return;
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
    if (opt_kernel && strcmp(opt_kernel, "record") != 0)
        return;
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
            CHECK_EQ(vfetch_plan_create(&d, &ref), 0);
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
    if (opt_kernel && strcmp(opt_kernel, "record") != 0)
        return;
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
    if (opt_kernel && strcmp(opt_kernel, "record") != 0)
        return;
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
 * The last vertices after the whole groups of a record program (run.c's tail) run as one more
 * group through the program, not through the per-op kernels: draws of r, G + r and 3G + r
 * vertices (1 <= r < G) of random formats, sequential and indexed, sources and output against
 * guard pages, output pre-filled (kept slots must stay), at every level and program variant.
 */
static void check_record_tail(void)
{
    if (opt_kernel && strcmp(opt_kernel, "record") != 0)
        return;
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
   total at most the in-place path's stack copy (internal.h). */
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
    if (opt_kernel && strcmp(opt_kernel, "record") != 0)
        return;
    rng_seed_for("record-in-place");
    const unsigned target = opt_quick ? 12 : 60;
    unsigned level_runs[5] = { 0 }, level_small[5] = { 0 }, level_copied[5] = { 0 };
    unsigned level_long[5] = { 0 }, level_tail[5] = { 0 };
    unsigned before = test_failures, i;
    bool any_small = false;
    for (i = 0; i < 60 * target; i++) {
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
    if (opt_kernel && strcmp(opt_kernel, "record") != 0)
        return;
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
        CHECK_EQ(vfetch_plan_create(&d, &plan), 0);
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

/* ---- GX index columns ---------------------------------------------------------------------- */

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
    if (opt_kernel && strcmp(opt_kernel, "gx-index") != 0)
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

/* ---- main ---------------------------------------------------------------------------------- */

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
    if (opt_kernel && strcmp(opt_kernel, "record") != 0)
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
        CHECK_EQ(vfetch_plan_create(&d, &ref), 0);
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
 * Word copies (lib/word_copy.c). The byte-reversing copy of every level against the reference
 * loop (the copy as stored is memcpy at every level), every size up to 512 bytes, source and destination against guard pages. Then plans:
 * random formats that only move 32-bit words (floats, 32-bit integers kept whole; little-endian,
 * big-endian or SWAP_32; the words split into ops of 1..4 components) must be recognised at
 * every level above the reference and equal it on random draws; the same formats changed in
 * one way (a component out of order, a gap in the record or the output, a constant, a 16-bit
 * half, a 16-bit swap) must not be, and equal it too.
 */
static void check_word_copy(void)
{
    if (opt_kernel && strcmp(opt_kernel, "record") != 0)
        return;
    rng_seed_for("word-copy");
    const size_t max_bytes = opt_quick ? 128 : 512;
    for (unsigned l = 0; l < num_levels; l++) {
        vfetch_word_copy_fn *copy = levels[l].dsp.bswap32_copy;
        CHECK(copy != NULL);
        if (!copy)
            continue;
        unsigned bad = 0;
        for (size_t bytes = 0; bytes <= max_bytes; bytes += 4) {
            for (int head = 0; head < 2; head++) {
                uint8_t *src_alloc, *dst_alloc, *src = place(bytes, head, 0, &src_alloc);
                uint8_t *dst = place(bytes, !head, 0, &dst_alloc);
                uint8_t *want = malloc(bytes + 1);
                rnd_fill(src, bytes);
                vfetch_word_copy_bswap32_c(src, want, bytes);
                copy(src, dst, bytes);
                bad += memcmp(dst, want, bytes) != 0;
                test_checks++;
                free(want);
                guard_free(src_alloc);
                guard_free(dst_alloc);
            }
        }
        if (bad) {
            fprintf(stderr, "byte-reversing word copy at %s: %u sizes differ from the reference\n",
                    levels[l].name, bad);
            test_failures++;
        }
    }

    unsigned copies = 0, near_misses = 0;
    const unsigned formats = opt_quick ? 40 : 200;
    for (unsigned i = 0; i < formats; i++) {
        const unsigned words = 1 + rnd_below(24);
        static const enum vfetch_byte_order orders[3] = { VFETCH_ORDER_LITTLE,
                                                          VFETCH_ORDER_BIG_ENDIAN,
                                                          VFETCH_ORDER_SWAP_32 };
        struct vfetch_plan_desc d;
        vfetch_plan_desc_init(&d);
        d.num_streams = 1;
        d.streams[0].stride = 4 * words;
        d.streams[0].order = orders[rnd_below(3)];
        d.streams[0].step = rnd_below(2) ? VFETCH_STEP_SEQUENTIAL : VFETCH_STEP_INDEXED;
        d.out_slots = words;
        d.out_stride = rnd_below(2) ? 0 : 4 * words;
        for (unsigned w = 0; w < words;) {
            struct vfetch_op *op = &d.ops[d.num_ops++];
            const unsigned n = 1 + rnd_below(words - w < 4 ? words - w : 4);
            const unsigned kind = rnd_below(3);
            op->format = kind ? VFETCH_FORMAT_FLOAT32 : VFETCH_FORMAT_FIXED32;
            op->conversion = kind ? VFETCH_CONV_FLOAT
                                  : rnd_below(2) ? VFETCH_CONV_INTEGER : VFETCH_CONV_SINTEGER;
            op->count = (uint8_t)n;
            for (unsigned c = 0; c < n; c++) {
                op->src[c].offset = 4 * (w + c);
                op->swizzle[c] = (uint8_t)c;
            }
            op->write_mask = (uint8_t)((1u << n) - 1);
            op->dst_slot = (uint16_t)w;
            w += n;
        }
        /* one change that makes it no copy, in half of the formats */
        const unsigned miss = rnd_below(2) ? 0 : 1 + rnd_below(6);
        struct vfetch_op *op = &d.ops[rnd_below(d.num_ops)];
        switch (miss) {
        case 1: /* two components swapped (or a component read twice) */
            op->swizzle[0] = (uint8_t)(op->count > 1 ? 1 : 0);
            if (op->count > 1)
                op->swizzle[1] = 0;
            else
                op->src[0].offset += 4 * (words > 1);
            if (words == 1)
                op->swizzle[0] = VFETCH_SWIZZLE_1;
            break;
        case 2: d.streams[0].stride += 4; break; /* a gap between records */
        case 3: d.out_stride = 4 * words + 4; break; /* a gap between output records */
        case 4: op->swizzle[0] = VFETCH_SWIZZLE_0; break;
        case 5: /* a 16-bit half where a word was */
            op->format = VFETCH_FORMAT_FLOAT16;
            op->conversion = VFETCH_CONV_FLOAT;
            break;
        case 6: d.streams[0].order = VFETCH_ORDER_SWAP_16; break;
        default: break;
        }
        for (unsigned l = 0; l < num_levels; l++) {
            vfetch_plan *plan = plan_at_level(&d, l);
            if (!plan)
                continue;
            struct vfetch_plan_info info;
            vfetch_plan_info(plan, &info);
            CHECK_EQ(info.word_copy, !miss);
            for (unsigned r = 0; r < 3; r++) {
                struct reference_run rr;
                const uint32_t count = rnd_below(4) ? 1 + rnd_below(40) : 100 + rnd_below(300);
                if (!reference_run_make_at(&d, &rr, count | RUN_DIRECT, -1))
                    continue;
                char detail[96];
                snprintf(detail, sizeof detail, "%u words, %s, %u vertices%s", words,
                         order_names[d.streams[0].order], count, miss ? " (no copy)" : "");
                reference_run_compare(plan, &rr, "word-copy", levels[l].name, detail);
                reference_run_free(&rr);
            }
            copies += !miss;
            near_misses += miss != 0;
            vfetch_plan_free(plan);
        }
    }
    /* the reference level itself never copies: it is the oracle */
    {
        struct vfetch_plan_desc d;
        vfetch_plan_desc_init(&d);
        d.num_streams = 1;
        d.streams[0].stride = 4;
        d.out_slots = 1;
        d.ops[0].format = VFETCH_FORMAT_FLOAT32;
        d.ops[0].conversion = VFETCH_CONV_FLOAT;
        d.ops[0].count = 1;
        d.ops[0].write_mask = 1;
        d.num_ops = 1;
        vfetch_set_cpu_mask(0);
        vfetch_plan *ref = NULL;
        CHECK_EQ(vfetch_plan_create(&d, &ref), 0);
        struct vfetch_plan_info info;
        if (ref && vfetch_plan_info(ref, &info) == 0)
            CHECK_EQ(info.word_copy, 0);
        vfetch_plan_free(ref);
    }
    vfetch_set_cpu_mask(~0u);
    printf("  word copies: the byte-reversing copy at every level up to %zu bytes; %u copy plans "
           "and %u near misses equal the reference\n", max_bytes, copies, near_misses);
}

static void usage(void)
{
    printf("usage: test_checkasm [--seed N] [--kernel NAME|record|gx-index|texel] [--isa LEVEL] [--quick] [--list]\n");
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
        else if (!strcmp(argv[i], "--quick"))
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
    kernels_init();
    if (list) {
        for (unsigned i = 0; i < num_kernels; i++)
            printf("%s\n", kernels[i].name);
        printf("record\n");
        return 0;
    }
    levels_init();
    printf("checkasm: seed %" PRIu64 ", levels:", opt_seed);
    for (unsigned l = 0; l < num_levels; l++)
        printf(" %s", levels[l].name);
    printf("%s\n", opt_quick ? " (quick)" : "");
    if (opt_isa && num_levels == 0) {
        fprintf(stderr, "level %s is not available here\n", opt_isa);
        return 77; /* meson: skipped */
    }
    check_kernels();
    check_record_programs();
    check_record_tail();
    check_record_in_place();
    check_word_copy();
    check_record_variants();
    check_record_pack8();
    check_record_pack8_variants();
    check_wide_program_choice();
    check_record_gather();
    check_gx_index();
    if (!opt_kernel || !strcmp(opt_kernel, "texel"))
        CHECK_EQ(checkasm_texel(opt_seed, opt_isa, opt_quick), 0u);
    return test_summary("checkasm");
}
