/*
 * vfetch benchmarks, in C over benchmark-c. Names are family/what/isa/count:
 *
 *   kernel/<format>_<conversion>/<isa>/<vertices>  one per-op kernel, called directly
 *   baseline/memcpy/-/<bytes>                      memcpy of the same output bytes
 *   plan/r300-<config>/<isa>/<vertices>            a whole R300 plan through vfetch_run (record
 *   plan/r300-<config>/<isa>-perop/<vertices>      program where it applies / forced per-op)
 *   plan/r300-<config>-indexed/<isa>/<vertices>    the same through a 16-bit index buffer
 *                                                  (each record used about three times), at
 *                                                  the levels with the JIT
 *   plan/r300-<config>-arrays[-indexed]/...        the same records as one array an element,
 *                                                  as Mesa's r300 driver binds an interleaved
 *                                                  buffer (configs of several elements)
 *   plan/gx-<config>/<isa>/<vertices>              a GX draw through vfetch_gx_run, configs a-d
 *                                                  (the peer kit's) and allindexed (every
 *                                                  attribute index16): vec4 layout, float colors
 *   plan/gx-<config>-packed/<isa>/<vertices>       the same draw, packed layout, RGBA8 colors
 *   plan/maxwell-<config>/<isa>/<vertices>         a Maxwell draw through vfetch_maxwell_run,
 *                                                  compact records (the vertex-input Bmap)
 *   plan/maxwell-<config>-full/<isa>/<vertices>    the same draw, full 1 KiB ISBE images
 *   replay/gx-captures/<isa>/-                     every draw of the real Wii captures
 *   replay/gx-captures-batch/<isa>/-               the same into a batch with host indices
 *   replay/gx-captures-runs/<isa>/-                the frames' bytes in runs of commands
 *   replay/gx-captures-bytes/<isa>/-               the frames' bytes draw by draw: an
 *                                                  emulator's own decoder, one batched draw
 *                                                  a draw command (the runs' baseline)
 *   compile/r300-state/-/-                         two R300 register sets alternating through
 *                                                  a vfetch_r300_state (the cache's answer)
 *                                                  (../shared/testdata/gx) through one
 *                                                  vfetch_gx_state, vec4 layout
 *   texel/<format>-<out>/<isa>/<texels>            vfetch_texel_decode of a square surface
 *                                                  (64x64, 256x256) of random texels or blocks,
 *                                                  out rgba8 (where exact) or f32; memcpy
 *                                                  baselines of the output and of its RGBA8 size;
 *                                                  isa "plain": a plain block-at-a-time BC1/BC4
 *                                                  decoder (the single-header shape), a yardstick
 *   prim/gx-<primitive>[-restart]/<isa>/<n>        one GX draw's 16-bit host indices
 *                                                  (vfetch_prim_run; lines and points expanded)
 *   prim/index-u<in>-u<out>[-restart]/<isa>/<n>    a triangle list through a guest index
 *                                                  buffer of n entries to host indices
 *   range/r300-<config>-<mode>/<isa>/<entries>     an indexed R300 draw of a grid mesh: one
 *                                                  record per entry (per-entry) or range mode
 *                                                  (range: scan, rebased indices, the records
 *                                                  smallest .. largest once)
 *   texture/gx-<format>/<isa>/<w>x<h>              vfetch_gx_texture_decode of a whole GX
 *                                                  texture (8x8, 256x256, 1024x1024) of random
 *                                                  bytes to RGBA8, rows packed; formats as the
 *                                                  peer kit's (c4-ia8: C4 with an IA8 palette;
 *                                                  rgb5a3-opaque: every texel's bit 15 set);
 *                                                  memcpy baseline of the RGBA8 output
 *   compile/r300/-/-                               R300 registers -> plan
 *   compile/gx/-/-                                 GX VCD/VAT -> compiled format
 *
 * Every plan runs at 4, 16, 64, 256, 4096, 16380 and 65536 vertices, each with the memcpy
 * baseline of its output bytes (with --callcost[=REGEX]: at 1, 16 and 4096, instructions per
 * call counted instead of time, tools/callcost.sh). Bytes processed = output bytes, items =
 * vertices. Inputs are random with a fixed seed. The replay reads the captures from --gx-captures=DIR (a flag of this program,
 * taken out before Google Benchmark sees the rest), else $VFETCH_GX_CAPTURES, else the
 * directory beside the source tree; without captures it is not registered.
 * bench/summary.py runs this and prints the ratio tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmark-c/benchmark_c.h"
#include "cpu.h"
#include "dsp.h"
#include "internal.h"
#include "texel/texel_internal.h"
#include "gx_fifo_parse.h"
#include "vfetch/gx.h"
#include "vfetch/gx_texture.h"
#include "vfetch/maxwell.h"
#include "vfetch/prim.h"
#include "vfetch/r300.h"
#include "vfetch/texel.h"

#define MAX_VERTICES 65536
#define SRC_BYTES (MAX_VERTICES * 128)
/* 16380 full Maxwell records (1 KiB) fit; a plan's 65536-record rows where their output does
   (plan_count_fits). The buffers as they were before the 65536 rows: their placement moves
   short draws' times by up to 15 % (gx-d-packed, gx-b-packed at 16-256 records). */
#define OUT_BYTES (MAX_VERTICES * 256)

static uint8_t *bench_src;
static uint8_t *bench_out;
static uint8_t *bench_copy;

static const unsigned kernel_counts[] = { 16, 256, 4096, 65536 };
/* 4, 16, 64 and 256: the short draws emulated games mostly send, where per-call cost shows (4
   a quad, the captures' most common draw; 64 the measured crossovers' short draw); 4096 and
   16380 (a whole number of triangles and of quads) for throughput; 65536, a 16-bit index
   buffer's reach, past the L2: the regret rows cover the counts an emulator's draws take. */
static const unsigned timed_counts[] = { 4, 16, 64, 256, 4096, 16380, 65536, 0 };

/* Whether a draw of n records of out_stride bytes fits the output buffer (records of more
   than 256 bytes, the full ISBE images, stop at 16380). */
static int plan_count_fits(size_t n, size_t out_stride)
{
    return n * out_stride <= OUT_BYTES;
}
/* --callcost: fixed cost (1 vertex), a short draw (16) and the per-vertex cost (4096) */
static const unsigned callcost_counts[] = { 1, 16, 4096, 0 };
static const unsigned *plan_counts = timed_counts; /* 0-terminated */

/* ISA levels, flag bits and names, best last. */
static const struct {
    const char *name;
    unsigned flags;
} levels[] = {
    { "ref", 0 },
    { "sse2", VFETCH_CPU_SSE2 },
    { "sse41", VFETCH_CPU_SSE2 | VFETCH_CPU_SSE41 },
    { "avx2", VFETCH_CPU_SSE2 | VFETCH_CPU_SSE41 | VFETCH_CPU_AVX2 },
    { "avx512", VFETCH_CPU_SSE2 | VFETCH_CPU_SSE41 | VFETCH_CPU_AVX2 | VFETCH_CPU_AVX512 },
    { "neon", VFETCH_CPU_NEON },
};

static int level_available(unsigned flags)
{
    vfetch_set_cpu_mask(~0u);
    return (vfetch_cpu_flags() & flags) == flags;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)rng_state;
}

/* ---- memcpy baseline ---- */

struct copy_job {
    size_t bytes;
};

static void bench_memcpy(bmc_state *st, void *user)
{
    const struct copy_job *job = user;
    while (bmc_keep_running(st)) {
        memcpy(bench_copy, bench_out, job->bytes);
        __asm__ volatile("" : : "r"(bench_copy) : "memory");
    }
    bmc_set_bytes_processed(st, bmc_iterations(st) * (int64_t)job->bytes);
    bmc_set_counter(st, "out_bytes", (double)job->bytes, BMC_COUNTER_DEFAULT);
}

#define MAX_COPY_JOBS 128
static struct copy_job copy_jobs[MAX_COPY_JOBS];
static unsigned num_copy_jobs;

static void register_memcpy(size_t bytes)
{
    for (unsigned i = 0; i < num_copy_jobs; i++)
        if (copy_jobs[i].bytes == bytes)
            return;
    if (num_copy_jobs == MAX_COPY_JOBS) {
        /* a benchmark without its baseline would lose its memcpy ratio unnoticed */
        fprintf(stderr, "vfetch_bench: more than %d memcpy baselines\n", MAX_COPY_JOBS);
        abort();
    }
    struct copy_job *job = &copy_jobs[num_copy_jobs++];
    job->bytes = bytes;
    char name[128];
    snprintf(name, sizeof name, "baseline/memcpy/-/%zu", bytes);
    bmc_register(name, bench_memcpy, job);
}

/* A benchmark's items (records, texels) and output bytes a call, as Google Benchmark's rates
   and the out_bytes counter summary.py divides memcpy's time by. */
static void set_output_counters(bmc_state *st, int64_t items, size_t out_bytes)
{
    bmc_set_items_processed(st, bmc_iterations(st) * items);
    bmc_set_bytes_processed(st, bmc_iterations(st) * (int64_t)out_bytes);
    bmc_set_counter(st, "out_bytes", (double)out_bytes, BMC_COUNTER_DEFAULT);
}

/* ---- per-op kernels ---- */

struct kernel_job {
    vfetch_convert_fn *fn;
    vfetch_plan *plan; /* owns the compiled op */
    size_t stride, n;
};

static void bench_kernel(bmc_state *st, void *user)
{
    const struct kernel_job *job = user;
    const struct vfetch_op_exec *op = &job->plan->ops[0];
    const uint8_t *base[VFETCH_MAX_STREAMS] = { bench_src };
    size_t stride[VFETCH_MAX_STREAMS] = { job->stride };
    while (bmc_keep_running(st))
        job->fn(op, base, stride, job->n, bench_out, 16);
    set_output_counters(st, job->n, job->n * 16);
}

static void register_kernels(void)
{
    for (unsigned f = 0; f < VFETCH_FORMAT_COUNT; f++) {
        for (unsigned c = 0; c < VFETCH_CONV_COUNT; c++) {
            const struct vfetch_format_info *fi = &vfetch_format_info[f];
            if (!vfetch_pair_valid((enum vfetch_format)f, (enum vfetch_conversion)c))
                continue;
            /* The GX conversions on the formats GX uses them with (fixed8 colors, the color
               formats, matrix-index bytes); the R300 ones on the R300 formats. */
            const int gx_format = f >= VFETCH_FORMAT_RGB565;
            const int gx_conv = c >= VFETCH_CONV_UNORM8;
            if (gx_format != gx_conv && !(f == VFETCH_FORMAT_FIXED8 && gx_conv))
                continue;
            if (f == VFETCH_FORMAT_UINT6 && c != VFETCH_CONV_INTEGER)
                continue;
            if (c == VFETCH_CONV_INTEGER && f != VFETCH_FORMAT_UINT6 && f != VFETCH_FORMAT_FIXED8)
                continue;
            /* The element as a vertex buffer would hold it: components packed, little-endian. */
            struct vfetch_plan_desc d;
            vfetch_plan_desc_init(&d);
            d.num_streams = 1;
            d.num_ops = 1;
            d.out_slots = 4;
            struct vfetch_op *op = &d.ops[0];
            op->format = (enum vfetch_format)f;
            op->conversion = (enum vfetch_conversion)c;
            op->count = fi->max_count;
            for (unsigned k = 0; k < op->count; k++)
                op->src[k].offset = fi->packed ? 0 : k * fi->container;
            for (unsigned k = 0; k < 4; k++)
                op->swizzle[k] = (uint8_t)k;
            op->write_mask = c == VFETCH_CONV_PACK_UNORM8 ? 1 : 0xf;
            d.streams[0].stride = fi->packed ? 4 : op->count * fi->container;
            if (d.streams[0].stride % 4)
                d.streams[0].stride += 4 - d.streams[0].stride % 4;
            for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
                if (!level_available(levels[l].flags))
                    continue;
                struct vfetch_dsp dsp;
                vfetch_dsp_init(&dsp, levels[l].flags);
                if (l > 0 && strcmp(dsp.name, levels[l].name) != 0)
                    continue; /* level not built */
                for (size_t i = 0; i < sizeof kernel_counts / sizeof kernel_counts[0]; i++) {
                    struct kernel_job *job = calloc(1, sizeof *job);
                    vfetch_set_cpu_mask(0);
                    if (!job || vfetch_plan_compile(&d, &job->plan))
                        abort();
                    job->fn = dsp.convert[f][c];
                    job->stride = d.streams[0].stride;
                    job->n = kernel_counts[i];
                    char name[160];
                    snprintf(name, sizeof name, "kernel/%s_%s/%s/%u", fi->name,
                             vfetch_conversion_name[c], levels[l].name, kernel_counts[i]);
                    bmc_register(name, bench_kernel, job);
                    register_memcpy(job->n * 16);
                }
            }
        }
    }
}

/* The level a plan's kernels were chosen for (vfetch_plan_info). */
static const char *plan_level(const vfetch_plan *plan)
{
    struct vfetch_plan_info info;
    return vfetch_plan_info(plan, &info) == 0 ? info.level : "?";
}

/* ---- whole R300 plans ---- */

/* One R300 PROG_STREAM_CNTL element (a constant expression, for the table below). */
#define el(type, loc, last, sgn, norm, skip)                                               \
    ((uint32_t)(type) | (uint32_t)(skip) << 4 | (uint32_t)(loc) << 8 |                      \
     (uint32_t)(last) << 13 | (uint32_t)(sgn) << 14 | (uint32_t)(norm) << 15)

struct r300_config {
    const char *name;
    uint32_t elements[16];
    unsigned num_elements;
    unsigned vtx_dwords; /* one array of this stride, or immediate when immediate != 0 */
    int immediate;
    int exact_rows; /* indexed rows with an exact binding too (register_plan_rows) */
};

static const struct r300_config r300_configs[] = {
    /* position FLOAT_3 + normal SHORT_4 signed normalized + color D3DCOLOR normalized +
       texcoord FLT16_2: 28 bytes */
    { "r300-r1", { el(2, 0, 0, 0, 0, 0), el(7, 1, 0, 1, 1, 0), el(5, 2, 0, 0, 1, 0), el(11, 3, 1, 0, 0, 0) }, 4, 7, 0, 1 },
    /* position FLOAT_3 + texcoord FLOAT_2: 20 bytes */
    { "r300-r2", { el(2, 0, 0, 0, 0, 0), el(1, 1, 1, 0, 0, 0) }, 2, 5, 0, 0 },
    /* one BYTE unsigned normalized: 4 bytes */
    { "r300-r3", { el(4, 0, 1, 0, 1, 0) }, 1, 1, 0, 1 },
    /* SHORT_2 signed not normalized + BYTE signed normalized: 8 bytes */
    { "r300-r4", { el(6, 0, 0, 1, 0, 0), el(4, 1, 1, 1, 1, 0) }, 2, 2, 0, 0 },
    /* skinned: position FLOAT_3, BYTE indices (unsigned, not normalized), BYTE weights
       (unsigned normalized), VECTOR_3_TTT normal (signed normalized): 24 bytes */
    { "r300-skin", { el(2, 0, 0, 0, 0, 0), el(4, 1, 0, 0, 0, 0), el(4, 2, 0, 0, 1, 0), el(8, 3, 1, 1, 1, 0) }, 4, 6, 0, 0 },
    /* FLOAT_8: 32 bytes into two vectors */
    { "r300-float8", { el(10, 0, 1, 0, 0, 0) }, 1, 8, 0, 0 },
    /* immediate stream: FLOAT_3 then skip one dword, D3DCOLOR: 20 bytes */
    { "r300-immediate", { el(2, 0, 0, 0, 0, 1), el(5, 1, 1, 0, 1, 0) }, 2, 5, 1, 0 },
};

/* The registers of a config: its records in one array, or (arrays) one array an element, each
   of the records' stride and the element's dwords (its skipped ones too), as Mesa's r300
   driver binds an interleaved buffer; the bytes from the records' start to each array's first
   in offsets[] (the arrays' count returned, 0 for one array). */
static unsigned r300_config_desc(const struct r300_config *cfg, struct vfetch_r300_desc *d,
                                 int arrays, size_t offsets[VFETCH_MAX_STREAMS])
{
    /* dwords of each DATA_TYPE (docs/r300.md): FLOAT_1..4, BYTE, D3DCOLOR, SHORT_2, SHORT_4,
       VECTOR_3_TTT, VECTOR_3_EET, FLOAT_8, FLT16_2, FLT16_4 */
    static const uint8_t type_dwords[13] = { 1, 2, 3, 4, 1, 1, 1, 2, 1, 1, 8, 1, 2 };
    vfetch_r300_desc_init(d);
    for (unsigned e = 0; e < cfg->num_elements; e++)
        d->prog_stream_cntl[e / 2] |= cfg->elements[e] << (16 * (e & 1));
    if (cfg->immediate) {
        d->vtx_size_dwords = cfg->vtx_dwords;
        return 0;
    }
    d->num_arrays = arrays ? cfg->num_elements : 1;
    size_t at = 0;
    for (unsigned k = 0; k < d->num_arrays; k++) {
        const uint32_t el = cfg->elements[k];
        d->arrays[k].stride_dwords = cfg->vtx_dwords;
        d->arrays[k].count_dwords = arrays ? type_dwords[el & 15] + (el >> 4 & 15) : cfg->vtx_dwords;
        if (offsets)
            offsets[k] = at;
        at += 4 * d->arrays[k].count_dwords;
    }
    return arrays ? d->num_arrays : 0;
}

/* A plan's draw of n records (an R300 or hand-built vfetch_plan, or a Maxwell plan), through
   bench_indices (16-bit) or not. */
struct plan_job {
    const void *plan;
    size_t n;
    int indexed;
    size_t src_bytes; /* the stream binding's size: SRC_BYTES, or the exact records' (0) */
    /* a plan of several streams (R300's arrays): their number and each one's first byte in
       bench_src (0: one stream at its start) */
    unsigned num_streams;
    size_t offsets[VFETCH_MAX_STREAMS];
};

/* An indexed draw's 16-bit index buffer: a mesh's reuse, each record referenced about three
   times, in an order that wanders (records of the draw's first third, pseudo-random). */
static uint16_t bench_indices[MAX_VERTICES];

static void make_bench_indices(void)
{
    uint32_t x = 12345;
    for (size_t i = 0; i < MAX_VERTICES; i++) {
        x = x * 1103515245u + 12345u;
        const size_t records = i / 3 + 1;
        bench_indices[i] = (uint16_t)((x >> 8) % records);
    }
}

/* Whether the draw ran the plan's generated code (1) or its portable tier (0), so that
   summary.py's regret rows do not compare a plan as created with its own portable tier where
   the two are the same code (docs/benchmarks.md, "Regret rows"). */
static void set_generated_counter(bmc_state *st, const struct vfetch_plan_info *info, size_t n)
{
    const int generated = info->jit && n < info->jit_crossover;
    bmc_set_counter(st, "generated", generated, BMC_COUNTER_DEFAULT);
}

static void bench_plan(bmc_state *st, void *user)
{
    const struct plan_job *job = user;
    struct vfetch_binding bindings[VFETCH_MAX_STREAMS] = { { bench_src, job->src_bytes } };
    for (unsigned k = 0; k < job->num_streams; k++)
        bindings[k] = (struct vfetch_binding){ bench_src + job->offsets[k],
                                               job->src_bytes - job->offsets[k] };
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = bindings;
    p.num_streams = job->num_streams ? job->num_streams : 1;
    p.count = (uint32_t)job->n;
    p.out = bench_out;
    p.out_size = OUT_BYTES;
    if (job->indexed) {
        p.index_type = VFETCH_INDEX_U16;
        p.indices = bench_indices;
        p.indices_size = sizeof bench_indices;
    }
    const size_t out_bytes = job->n * vfetch_plan_out_stride(job->plan);
    while (bmc_keep_running(st)) {
        if (vfetch_run(job->plan, &p) != 0) {
            bmc_skip_with_error(st, "vfetch_run failed");
            break;
        }
    }
    set_output_counters(st, job->n, out_bytes);
    struct vfetch_plan_info info;
    vfetch_plan_info(job->plan, &info);
    set_generated_counter(st, &info, job->n);
}

/* The bytes of `stride`-byte records up to the highest entry of bench_indices' first n. */
static size_t exact_records_bytes(size_t n, size_t stride)
{
    uint16_t top = 0;
    for (size_t i = 0; i < n; i++)
        top = bench_indices[i] > top ? bench_indices[i] : top;
    return ((size_t)top + 1) * stride;
}

/* A plan's rows "plan/<name>[-indexed]/<level><variant>/<count>", one per count of plan_counts
   (and as many through bench_indices where with_indices), each with its memcpy baseline; where
   exact_stride (the stream's stride) is not 0, "plan/<name>-indexed-exact/..." too: the same
   indexed draws with a binding of just the records their entries name, which vfetch_run must
   scan the entries for (the other rows' 8 MiB binding holds every record a 16-bit entry can
   name: no scan, docs/jit.md). A plan of several streams (num_streams > 0) binds stream k at
   offsets[k] of the records. */
static void register_plan_rows(const char *name, const char *level, const char *variant,
                               bmc_fn fn, const void *plan, int with_indices, size_t out_stride,
                               size_t exact_stride, unsigned num_streams, const size_t *offsets)
{
    const int kinds = with_indices ? (exact_stride ? 3 : 2) : 1;
    for (int indexed = 0; indexed < kinds; indexed++)
        for (size_t i = 0; plan_counts[i]; i++) {
            if (!plan_count_fits(plan_counts[i], out_stride))
                continue;
            struct plan_job *job = calloc(1, sizeof *job);
            if (!job)
                abort();
            job->plan = plan; /* shared by the counts, freed at exit */
            job->n = plan_counts[i];
            job->indexed = indexed != 0;
            job->src_bytes =
                indexed == 2 ? exact_records_bytes(job->n, exact_stride) : SRC_BYTES;
            job->num_streams = num_streams;
            for (unsigned k = 0; k < num_streams; k++)
                job->offsets[k] = offsets[k];
            char row[160];
            snprintf(row, sizeof row, "plan/%s%s/%s%s/%u", name,
                     indexed == 2 ? "-indexed-exact" : indexed ? "-indexed" : "", level, variant,
                     plan_counts[i]);
            bmc_register(row, fn, job);
            register_memcpy(job->n * out_stride);
        }
}

static void register_plans(void)
{
    /* each config in one array, then those of several elements as one array an element */
    const size_t num_configs = sizeof r300_configs / sizeof r300_configs[0];
    for (size_t c = 0; c < 2 * num_configs; c++) {
        const struct r300_config *cfg = &r300_configs[c % num_configs];
        const int arrays = c >= num_configs;
        if (arrays && (cfg->immediate || cfg->num_elements < 2))
            continue;
        struct vfetch_r300_desc rd;
        size_t offsets[VFETCH_MAX_STREAMS];
        const unsigned num_streams = r300_config_desc(cfg, &rd, arrays, offsets);
        char name[64];
        snprintf(name, sizeof name, "%s%s", cfg->name, arrays ? "-arrays" : "");
        struct vfetch_plan_desc pd;
        if (vfetch_r300_translate(&rd, &pd))
            abort();
        for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
            if (!level_available(levels[l].flags))
                continue;
            /* as created (with generated code where it has some), per op, and at the levels
               with the JIT the portable tier alone ("-portable") */
            for (int variant = 0; variant < 3; variant++) {
                const int perop = variant == 1, portable = variant == 2;
                if (perop && l == 0)
                    continue; /* the reference is per-op already */
                if (portable && (!vfetch_jit_available() || !(levels[l].flags & VFETCH_CPU_SSE41)))
                    continue;
                pd.path = perop ? VFETCH_PATH_PER_OP : VFETCH_PATH_AUTO;
                vfetch_set_cpu_mask(levels[l].flags);
                const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
                if (portable)
                    vfetch_set_jit_mode(VFETCH_JIT_OFF);
                vfetch_plan *plan;
                if (vfetch_plan_compile(&pd, &plan))
                    abort();
                vfetch_set_jit_mode(mode);
                if (l > 0 && strcmp(plan_level(plan), levels[l].name) != 0) {
                    vfetch_plan_free(plan); /* level not built */
                    continue;
                }
                /* and through an index buffer (array streams only), where the JIT is */
                const int with_indices = !cfg->immediate && !perop &&
                                         (levels[l].flags & VFETCH_CPU_SSE41);
                register_plan_rows(name, levels[l].name,
                                   perop ? "-perop" : portable ? "-portable" : "", bench_plan, plan,
                                   with_indices, vfetch_plan_out_stride(plan),
                                   cfg->exact_rows && !portable && !arrays ? 4u * cfg->vtx_dwords
                                                                           : 0,
                                   num_streams, offsets);
            }
        }
    }
    vfetch_set_cpu_mask(~0u);
}

/* ---- whole GX draws ---- */

struct gx_config {
    const char *name; /* the vec4 variant's; the packed one adds "-packed" */
    struct vfetch_gx_regs regs;
    uint8_t pos_stride, color0_stride; /* indexed arrays (config c) */
    uint8_t all_indexed;               /* every attribute index16 into its own array */
};

static const struct gx_config gx_configs[] = {
    /* (a) position s16 XYZ >> 8, normal s8 N, color0 rgba8888, texcoord0 s16 ST >> 10 */
    { "gx-a", { 1u << 9 | 1u << 11 | 1u << 13, 1,
                1 | 3u << 1 | 8u << 4 | 1u << 10 | 1u << 13 | 5u << 14 | 1u << 21 | 3u << 22 | 10u << 25 | 1u << 30,
                1u << 31, 0 }, 0, 0, 0 },
    /* (b) position, normal, texcoord0 f32 */
    { "gx-b", { 1u << 9 | 1u << 11, 1, 1 | 4u << 1 | 4u << 10 | 1u << 21 | 4u << 22 | 1u << 30, 1u << 31, 0 }, 0, 0, 0 },
    /* (c) position index16 into f32 XYZ (65,535 entries), color0 index8 into rgb565 */
    { "gx-c", { 3u << 9 | 2u << 13, 0, 1 | 4u << 1 | 0u << 14 | 1u << 30, 1u << 31, 0 }, 12, 2, 0 },
    /* (e) config c's attributes direct: position f32 XYZ, color0 rgb565 */
    { "gx-e", { 1u << 9 | 1u << 13, 0, 1 | 4u << 1 | 0u << 14 | 1u << 30, 1u << 31, 0 }, 0, 0, 0 },
    /* (d) position u8 XYZ, texcoord0 u8 ST (BYTEDEQUANT, shifts 2 and 7) */
    { "gx-d", { 1u << 9, 1, 1 | 0u << 1 | 2u << 4 | 1u << 21 | 0u << 22 | 7u << 25 | 1u << 30, 1u << 31, 0 }, 0, 0, 0 },
    /* (all-indexed) Dolphin's LargeFloatVertexSpeed format: the nine matrix indices direct;
       position f32 XYZ, NBT f32, both colors rgba8888 and all eight texcoords f32 ST, each
       index16 into its own array */
    { "gx-allindexed",
      { 0x1ffu | 3u << 9 | 3u << 11 | 3u << 13 | 3u << 15, 0xffff,
        1 | 4u << 1 | 1u << 9 | 4u << 10 | 1u << 13 | 5u << 14 | 1u << 17 | 5u << 18 | 1u << 21 |
            4u << 22 | 1u << 30,
        1 | 4u << 1 | 1u << 9 | 4u << 10 | 1u << 18 | 4u << 19 | 1u << 27 | 4u << 28 | 1u << 31,
        1u << 5 | 4u << 6 | 1u << 14 | 4u << 15 | 1u << 23 | 4u << 24 }, 0, 0, 1 },
};

/* The all-indexed config's arrays: GX_ALL_ENTRIES rows each, at the strides below. */
#define GX_ALL_ENTRIES 4096
#define GX_ALL_VERTEX 33 /* 9 matrix bytes + 12 index16 */
static const uint8_t gx_all_stride[VFETCH_GX_NUM_ATTRS] = { 12, 36, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8 };
static uint8_t *gx_all_src, *gx_all_arrays[VFETCH_GX_NUM_ATTRS];

#define GX_POS_ENTRIES 65535
static uint8_t *gx_indexed_src; /* config c's vertices: BE u16 position index, u8 color index */
static uint8_t *gx_pos_array, *gx_color_array;

struct gx_job {
    vfetch_gx_plan *plan;
    size_t n;
    int indexed; /* 1: config c's arrays, 2: the all-indexed config's */
};

static void bench_gx(bmc_state *st, void *user)
{
    const struct gx_job *job = user;
    struct vfetch_gx_run_params p;
    vfetch_gx_run_params_init(&p);
    p.vertices = job->indexed ? gx_indexed_src : bench_src;
    p.vertices_size = job->indexed ? (size_t)MAX_VERTICES * 3 : SRC_BYTES;
    p.count = (uint32_t)job->n;
    p.arrays[VFETCH_GX_POSITION] = (struct vfetch_binding){ gx_pos_array, (size_t)GX_POS_ENTRIES * 12 };
    p.arrays[VFETCH_GX_COLOR0] = (struct vfetch_binding){ gx_color_array, 512 };
    if (job->indexed == 2) {
        p.vertices = gx_all_src;
        p.vertices_size = (size_t)MAX_VERTICES * GX_ALL_VERTEX;
        for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
            p.arrays[a] = (struct vfetch_binding){ gx_all_arrays[a],
                                                   (size_t)GX_ALL_ENTRIES * gx_all_stride[a] };
    }
    p.out = bench_out;
    p.out_size = OUT_BYTES;
    const size_t out_bytes = job->n * vfetch_gx_plan_out_stride(job->plan);
    while (bmc_keep_running(st)) {
        if (vfetch_gx_run(job->plan, &p, NULL) != 0) {
            bmc_skip_with_error(st, "vfetch_gx_run failed");
            break;
        }
    }
    set_output_counters(st, job->n, out_bytes);
    struct vfetch_plan_info info;
    vfetch_gx_plan_info(job->plan, &info);
    set_generated_counter(st, &info, job->n);
}

/* The two outputs of every GX config: the layout a shader reads directly (vec4, float colors)
   and the compact one an emulator's vertex buffer holds (packed, one RGBA8 word per color). */
struct gx_output {
    const char *suffix; /* appended to the config's name */
    enum vfetch_gx_layout layout;
    enum vfetch_gx_color_output color_output;
};

static const struct gx_output gx_outputs[] = {
    { "", VFETCH_GX_LAYOUT_VEC4, VFETCH_GX_COLOR_FLOAT },
    { "-packed", VFETCH_GX_LAYOUT_PACKED, VFETCH_GX_COLOR_RGBA8 },
};

/* And the full ISBE image (1 KiB a vertex, the attributes at their Maxwell addresses) of a
   direct and an indexed config (a, c): records of more than 256 bytes take a tier of their
   own (lib/gx/compile.c). */
static const struct gx_output gx_isbe_output = { "-isbe", VFETCH_GX_LAYOUT_ISBE_FULL,
                                                 VFETCH_GX_COLOR_RGBA8 };

/* plan/<config><suffix>/<isa>/<count> for every built level and every count. */
static void register_gx_config(const struct gx_config *cfg, const struct gx_output *output)
{
    struct vfetch_gx_desc cp;
    memset(&cp, 0, sizeof cp);
    cp.regs = cfg->regs;
    cp.array_stride[VFETCH_GX_POSITION] = cfg->pos_stride;
    cp.array_stride[VFETCH_GX_COLOR0] = cfg->color0_stride;
    if (cfg->all_indexed)
        for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
            cp.array_stride[a] = gx_all_stride[a];
    cp.layout = output->layout;
    cp.color_output = output->color_output;
    /* Each level's plan as created (the generated code where it has some, up to its
       crossover), and at the levels with the JIT the portable tier alone ("-portable"). */
    for (size_t v = 0; v < 2 * sizeof levels / sizeof levels[0]; v++) {
        const size_t l = v / 2;
        const int portable = v % 2;
        if (!level_available(levels[l].flags))
            continue;
        vfetch_set_cpu_mask(levels[l].flags);
        const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
        if (portable)
            vfetch_set_jit_mode(VFETCH_JIT_OFF);
        vfetch_gx_plan *plan;
        if (vfetch_gx_compile(&cp, &plan))
            abort();
        vfetch_set_jit_mode(mode);
        const vfetch_plan *conv = vfetch_gx_plan_converter(plan);
        struct vfetch_plan_info info;
        vfetch_gx_plan_info(plan, &info);
        if ((l > 0 && strcmp(plan_level(conv), levels[l].name) != 0) || /* level not built */
            (portable && !vfetch_jit_available()) ||
            (portable && !(levels[l].flags & VFETCH_CPU_SSE41))) { /* no JIT: the same plan */
            vfetch_gx_plan_free(plan);
            continue;
        }
        for (size_t i = 0; plan_counts[i]; i++) {
            if (!plan_count_fits(plan_counts[i], vfetch_gx_plan_out_stride(plan)))
                continue;
            struct gx_job *job = calloc(1, sizeof *job);
            if (!job)
                abort();
            job->plan = plan; /* shared by the counts, freed at exit */
            job->n = plan_counts[i];
            job->indexed = cfg->all_indexed ? 2 : cfg->pos_stride != 0;
            char name[160];
            snprintf(name, sizeof name, "plan/%s%s/%s%s/%u", cfg->name, output->suffix,
                     levels[l].name, portable ? "-portable" : "", plan_counts[i]);
            bmc_register(name, bench_gx, job);
            register_memcpy(job->n * vfetch_gx_plan_out_stride(plan));
        }
    }
    vfetch_set_cpu_mask(~0u);
}

static void register_gx(void)
{
    gx_indexed_src = malloc((size_t)MAX_VERTICES * 3);
    gx_pos_array = malloc((size_t)GX_POS_ENTRIES * 12);
    gx_color_array = malloc(512);
    if (!gx_indexed_src || !gx_pos_array || !gx_color_array)
        abort();
    for (size_t i = 0; i < (size_t)MAX_VERTICES; i++) {
        const uint32_t pos = rng() % GX_POS_ENTRIES; /* never 0xFFFF, the skip value */
        gx_indexed_src[3 * i] = (uint8_t)(pos >> 8);
        gx_indexed_src[3 * i + 1] = (uint8_t)pos;
        gx_indexed_src[3 * i + 2] = (uint8_t)rng();
    }
    for (size_t i = 0; i < (size_t)GX_POS_ENTRIES * 12; i++)
        gx_pos_array[i] = (uint8_t)rng();
    for (size_t i = 0; i < 512; i++)
        gx_color_array[i] = (uint8_t)rng();
    gx_all_src = malloc((size_t)MAX_VERTICES * GX_ALL_VERTEX);
    if (!gx_all_src)
        abort();
    for (size_t i = 0; i < (size_t)MAX_VERTICES; i++) {
        uint8_t *v = gx_all_src + i * GX_ALL_VERTEX;
        for (unsigned m = 0; m < 9; m++)
            v[m] = (uint8_t)(rng() % 64);
        for (unsigned k = 0; k < 12; k++) { /* big-endian rows below GX_ALL_ENTRIES */
            const uint32_t row = rng() % GX_ALL_ENTRIES;
            v[9 + 2 * k] = (uint8_t)(row >> 8);
            v[10 + 2 * k] = (uint8_t)row;
        }
    }
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
        const size_t bytes = (size_t)GX_ALL_ENTRIES * gx_all_stride[a];
        gx_all_arrays[a] = malloc(bytes);
        if (!gx_all_arrays[a])
            abort();
        for (size_t i = 0; i < bytes; i++) /* floats of moderate exponents, colors any */
            gx_all_arrays[a][i] = (uint8_t)(a == VFETCH_GX_COLOR0 || a == VFETCH_GX_COLOR1 || i % 4
                                                ? rng() : 0x40 + rng() % 8);
    }

    for (size_t c = 0; c < sizeof gx_configs / sizeof gx_configs[0]; c++)
        for (size_t o = 0; o < sizeof gx_outputs / sizeof gx_outputs[0]; o++)
            register_gx_config(&gx_configs[c], &gx_outputs[o]);
    for (size_t c = 0; c < sizeof gx_configs / sizeof gx_configs[0]; c++)
        if (!strcmp(gx_configs[c].name, "gx-a") || !strcmp(gx_configs[c].name, "gx-c"))
            register_gx_config(&gx_configs[c], &gx_isbe_output);
}

/* ---- whole Maxwell draws ---- */

#define MW(stream, offset, size, type) ((stream) | (offset) << 7 | (size) << 21 | (type) << 27)

struct maxwell_config {
    const char *name;
    uint32_t attribute[4];
    uint32_t stride;
    int system_values; /* Bmap adds VERTEX_ID and INSTANCE_ID; attribute 3 is instanced */
    uint32_t out_stride; /* compact records padded to it (0: tight) */
    uint32_t stride1;    /* stream 1 read a vertex with this stride (else a 16-byte instanced
                            stream); the compact draws also through bench_indices */
};

static const struct maxwell_config maxwell_configs[] = {
    /* (a) position R32G32B32 float, normal A2B10G10R10 snorm, texcoord R16G16 float, color
       R8G8B8A8 unorm: 24-byte vertices */
    { "maxwell-a", { MW(0, 0, 0x02, 7), MW(0, 12, 0x30, 1), MW(0, 16, 0x0f, 7), MW(0, 20, 0x0a, 2) }, 24, 0, 0, 0 },
    /* (b) skinning: position R32G32B32 float, bone indices R8G8B8A8 uint, weights R8G8B8A8
       unorm, texcoord R16G16 unorm */
    { "maxwell-b", { MW(0, 0, 0x02, 7), MW(0, 12, 0x0a, 4), MW(0, 16, 0x0a, 2), MW(0, 20, 0x0f, 2) }, 24, 0, 0, 0 },
    /* (c) position R32G32B32 float, color R8G8B8A8 unorm, an instanced R32G32B32A32 float
       offset (stream 1), VERTEX_ID and INSTANCE_ID: 14 slots, padded to 64 bytes (tight, its
       128-bit lanes would mix the two streams: per-op, docs/maxwell.md) */
    { "maxwell-c", { MW(0, 0, 0x02, 7), MW(0, 12, 0x0a, 2), 0x40, MW(1, 0, 0x01, 7) }, 16, 1, 64, 0 },
    /* (d) two streams a vertex, as games bind them: position R32G32B32 float in stream 0;
       normal A2B10G10R10 snorm, texcoord R16G16 float and color R8G8B8A8 unorm in stream 1 */
    { "maxwell-d", { MW(0, 0, 0x02, 7), MW(1, 0, 0x30, 1), MW(1, 4, 0x0f, 7), MW(1, 8, 0x0a, 2) }, 12, 0, 0, 12 },
};

static void bench_maxwell(bmc_state *st, void *user)
{
    const struct plan_job *job = user;
    struct vfetch_maxwell_binding b[VFETCH_MAXWELL_STREAMS];
    memset(b, 0, sizeof b);
    b[0] = b[1] = (struct vfetch_maxwell_binding){ bench_src, 0x100000, 0x100000 + SRC_BYTES - 1 };
    struct vfetch_maxwell_run_params p;
    vfetch_maxwell_run_params_init(&p);
    p.streams = b;
    p.count = (uint32_t)job->n;
    p.instance = 3;
    p.out = bench_out;
    p.out_size = OUT_BYTES;
    if (job->indexed) {
        p.index_type = VFETCH_INDEX_U16;
        p.indices = bench_indices;
        p.indices_size = sizeof bench_indices;
    }
    const size_t out_bytes = job->n * vfetch_maxwell_plan_out_stride(job->plan);
    while (bmc_keep_running(st)) {
        if (vfetch_maxwell_run(job->plan, &p) != 0) {
            bmc_skip_with_error(st, "vfetch_maxwell_run failed");
            break;
        }
    }
    set_output_counters(st, job->n, out_bytes);
}

/* A Maxwell config's description, in the compact layout or the full ISBE image. */
static void maxwell_config_desc(const struct maxwell_config *cfg, int full,
                                struct vfetch_maxwell_desc *d)
{
    vfetch_maxwell_desc_init(d);
    for (unsigned i = 0; i < 4; i++)
        d->attribute[i] = cfg->attribute[i];
    d->stream_format[0] = cfg->stride | 1u << 12;
    d->stream_format[1] = (cfg->stride1 ? cfg->stride1 : 16) | 1u << 12;
    d->stream_instance[1] = !cfg->stride1;
    d->stream_frequency[1] = 1;
    if (cfg->system_values) {
        for (unsigned i = 0; i < 4; i++)
            if (!(cfg->attribute[i] & 0x40))
                for (unsigned k = 0; k < 4; k++)
                    vfetch_aam_map_add(&d->input_bmap, VFETCH_AAM_GENERIC_0 + 4 * i + k);
        vfetch_aam_map_add(&d->input_bmap, VFETCH_AAM_VERTEX_ID);
        vfetch_aam_map_add(&d->input_bmap, VFETCH_AAM_INSTANCE_ID);
    }
    d->layout = full ? VFETCH_MAXWELL_LAYOUT_FULL : VFETCH_MAXWELL_LAYOUT_COMPACT;
    d->out_stride = full ? 0 : cfg->out_stride;
}

static void register_maxwell(void)
{
    for (size_t c = 0; c < sizeof maxwell_configs / sizeof maxwell_configs[0]; c++) {
        const struct maxwell_config *cfg = &maxwell_configs[c];
        for (int full = 0; full < 2; full++) {
            struct vfetch_maxwell_desc d;
            maxwell_config_desc(cfg, full, &d);
            for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
                if (!level_available(levels[l].flags))
                    continue;
                vfetch_set_cpu_mask(levels[l].flags);
                vfetch_maxwell_plan *plan;
                if (vfetch_maxwell_compile(&d, &plan))
                    abort();
                if (l > 0 && strcmp(plan_level(vfetch_maxwell_plan_converter(plan)), levels[l].name) != 0) {
                    vfetch_maxwell_plan_free(plan); /* level not built */
                    continue;
                }
                /* compact records of configs without an instanced stream also through an
                   index buffer, where the JIT is */
                const int with_indices = !full && !cfg->system_values &&
                                         (levels[l].flags & VFETCH_CPU_SSE41);
                char name[64];
                snprintf(name, sizeof name, "%s%s", cfg->name, full ? "-full" : "");
                register_plan_rows(name, levels[l].name, "", bench_maxwell, plan, with_indices,
                                   vfetch_maxwell_plan_out_stride(plan), 0, 0, NULL);
            }
        }
    }
    vfetch_set_cpu_mask(~0u);
}

/* ---- replay of real GX captures ---- */

/* One step of the replay: a CP register write the state holds, or a draw. */
struct replay_event {
    const uint8_t *vertices; /* a draw's vertex data (inside the loaded capture); NULL: a write */
    uint32_t value;          /* the write's value, or the draw's vertex count */
    uint8_t addr;            /* the write's register, or the draw's VAT format */
    uint8_t command;         /* a draw's command byte (primitive and VAT) */
};

/* The same captures as FIFO bytes for runs of commands: each capture's initial CP writes, then
   each frame's bytes (walked by vfetch_gx_state_run_commands, the commands it does not own
   stepped over as an emulator would execute them). */
struct replay_segment {
    const uint8_t *data; /* a frame's bytes; NULL: an initial CP write */
    size_t size;         /* the frame's bytes, or the write's value */
    uint8_t addr;
};

/* Every capture's events in stream order, each capture starting with its initial cpMem words
   (so that a capture replays from its own state whatever ran before it). Shared by the jobs. */
struct replay_capture_set {
    struct replay_event *events;
    size_t num_events, cap_events;
    uint64_t draws, vertices;
    /* The vec4 output of all draws: each iteration fills it from the start, as an emulator
       fills its streaming vertex buffer over a frame (one slot per draw would stay in L1). */
    uint8_t *out;
    size_t out_size;
    vfetch_gx_state *check_state; /* collection only: filters writes, sizes and checks draws */
    struct replay_segment *segments;
    size_t num_segments, cap_segments;
};

static struct replay_capture_set replay_set;

static void replay_append(struct replay_capture_set *set, struct replay_event ev)
{
    if (set->num_events == set->cap_events) {
        set->cap_events = set->cap_events ? 2 * set->cap_events : 4096;
        set->events = realloc(set->events, set->cap_events * sizeof *set->events);
        if (!set->events)
            abort();
    }
    set->events[set->num_events++] = ev;
}

static void replay_segment(struct replay_capture_set *set, struct replay_segment seg)
{
    if (set->num_segments == set->cap_segments) {
        set->cap_segments = set->cap_segments ? 2 * set->cap_segments : 256;
        set->segments = realloc(set->segments, set->cap_segments * sizeof *set->segments);
        if (!set->segments)
            abort();
    }
    set->segments[set->num_segments++] = seg;
}

static int collect_frame(void *user, unsigned frame, const uint8_t *data, size_t size)
{
    (void)frame;
    replay_segment(user, (struct replay_segment){ data, size, 0 });
    return 0;
}

static void collect_cp_write(void *user, uint8_t addr, uint32_t value, int initial)
{
    struct replay_capture_set *set = user;
    /* cpMem holds 256 words, most of them registers a vertex state does not keep: an emulator
       would not forward those, so the replay does not either. */
    if (vfetch_gx_load_cp_reg(set->check_state, addr, value) == VFETCH_EREGISTER)
        return;
    replay_append(set, (struct replay_event){ NULL, value, addr, 0 });
    if (initial) /* the frames' own writes are in their bytes */
        replay_segment(set, (struct replay_segment){ NULL, value, addr });
}

/* Convert a draw once through the collection state: a draw the library refuses is found here,
   not in the timed loop. Returns 0 or a VFETCH_E* code; *out_bytes is the draw's output size. */
static int check_draw(vfetch_gx_state *state, const struct gx_fifo_draw *d, size_t *out_bytes)
{
    const vfetch_gx_plan *plan = NULL;
    int err = vfetch_gx_state_plan(state, d->vat, &plan);
    if (err)
        return err;
    *out_bytes = (size_t)d->count * vfetch_gx_plan_out_stride(plan);
    uint8_t *out = malloc(*out_bytes ? *out_bytes : 1);
    if (!out)
        abort();
    struct vfetch_gx_run_params p;
    vfetch_gx_run_params_init(&p);
    p.vertices = d->vertices;
    p.vertices_size = (size_t)d->count * d->vertex_size;
    p.count = d->count;
    p.out = out;
    p.out_size = *out_bytes;
    err = vfetch_gx_run(plan, &p, NULL);
    free(out);
    return err;
}

static int collect_draw(void *user, const struct gx_fifo_draw *d)
{
    struct replay_capture_set *set = user;
    size_t out_bytes = 0;
    const int err = check_draw(set->check_state, d, &out_bytes);
    if (err) {
        fprintf(stderr, "vfetch_bench: frame %u, draw at %zu: %s\n", d->frame, d->offset,
                vfetch_strerror(err));
        return err;
    }
    replay_append(set, (struct replay_event){ d->vertices, d->count, (uint8_t)d->vat,
                                              (uint8_t)(0x80 | d->primitive << 3 | d->vat) });
    set->draws++;
    set->vertices += d->count;
    set->out_size += out_bytes;
    return 0;
}

/* Load and walk every capture in dir into replay_set; 0, or -1 with a note on stderr. */
static int collect_captures(const char *dir)
{
    char **names;
    const int files = gx_fifo_list(dir, &names);
    if (files <= 0) {
        fprintf(stderr, "vfetch_bench: no .dff capture in %s: replay/gx-captures not registered "
                "(--gx-captures=DIR or VFETCH_GX_CAPTURES)\n", dir);
        gx_fifo_free_names(names, files < 0 ? 0 : files);
        return -1;
    }
    struct replay_capture_set *set = &replay_set;
    if (vfetch_gx_state_create(NULL, &set->check_state))
        abort();
    const struct gx_fifo_callbacks callbacks = { collect_cp_write, collect_draw, set, collect_frame };
    int walked = 1;
    for (int i = 0; i < files && walked; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t size = 0;
        const uint8_t *data = gx_fifo_load(path, &size); /* kept: the events point into it */
        if (!data || gx_fifo_walk(data, size, names[i], &callbacks, NULL) != 0)
            walked = 0;
    }
    gx_fifo_free_names(names, files);
    vfetch_gx_state_free(set->check_state);
    set->check_state = NULL;
    if (!walked || set->draws == 0) {
        fprintf(stderr, "vfetch_bench: the captures in %s do not replay: replay/gx-captures not "
                "registered\n", dir);
        return -1;
    }
    set->out = malloc(set->out_size ? set->out_size : 1);
    if (!set->out)
        abort();
    return 0;
}

/* replay/gx-captures: each draw converted (vfetch_gx_state_plan, vfetch_gx_run);
   replay/gx-captures-batch: each draw into a batch with its indices (vfetch_gx_state_draw_batch);
   replay/gx-captures-runs: the frames' bytes through vfetch_gx_state_run_commands;
   replay/gx-captures-bytes: the same bytes decoded here, draw by draw (what the runs replace). */
enum replay_form { REPLAY_CONVERT, REPLAY_BATCH, REPLAY_RUNS, REPLAY_BYTES };

struct replay_job {
    const struct replay_capture_set *set;
    unsigned cpu_flags;
    enum replay_form form;
};

/* The batch of the batched replays: flushed (its figures zeroed) where a draw does not fit. */
#define REPLAY_BATCH_BYTES ((size_t)1 << 20)
#define REPLAY_BATCH_INDICES ((size_t)1 << 16)

/* The batched draw of one draw command, the batch flushed (its figures zeroed) where it is full. */
static int batch_draw_or_flush(vfetch_gx_state *state, uint8_t command, const uint8_t *vertices,
                               size_t bytes, uint32_t count, struct vfetch_batch *b)
{
    int err = vfetch_gx_state_draw_batch(state, command, vertices, bytes, count, b, NULL);
    if (err == VFETCH_EBATCH_FULL) {
        b->vertices_used = b->indices_used = b->vertex_count = b->record_stride = 0;
        err = vfetch_gx_state_draw_batch(state, command, vertices, bytes, count, b, NULL);
    }
    return err;
}

/* One pass, draw by draw into the batch. */
static int replay_batch(vfetch_gx_state *state, const struct replay_capture_set *set,
                        struct vfetch_batch *b)
{
    for (size_t e = 0; e < set->num_events; e++) {
        const struct replay_event *ev = &set->events[e];
        if (!ev->vertices) {
            vfetch_gx_load_cp_reg(state, ev->addr, ev->value);
            continue;
        }
        const vfetch_gx_plan *plan;
        int err = vfetch_gx_state_plan(state, ev->addr, &plan);
        if (err)
            return err;
        const size_t bytes = (size_t)ev->value * vfetch_gx_plan_format(plan)->vertex_size;
        err = batch_draw_or_flush(state, ev->command, ev->vertices, bytes, ev->value, b);
        if (err)
            return err;
    }
    return 0;
}

/* One pass, frame by frame in runs of commands. */
static int replay_runs(vfetch_gx_state *state, const struct replay_capture_set *set,
                       struct vfetch_batch *b)
{
    for (size_t k = 0; k < set->num_segments; k++) {
        const struct replay_segment *seg = &set->segments[k];
        if (!seg->data) {
            vfetch_gx_load_cp_reg(state, seg->addr, (uint32_t)seg->size);
            continue;
        }
        size_t at = 0;
        while (at < seg->size) {
            struct vfetch_gx_commands_result r;
            const int err = vfetch_gx_state_run_commands(state, seg->data + at, seg->size - at, b, &r);
            if (err)
                return err;
            at += r.consumed;
            if (r.stop == VFETCH_GX_STOP_BATCH_FULL)
                b->vertices_used = b->indices_used = b->vertex_count = b->record_stride = 0;
            else if (r.stop == VFETCH_GX_STOP_FOREIGN) {
                const size_t len = gx_fifo_command_length(seg->data + at, seg->size - at);
                if (!len)
                    return -1;
                at += len;
            } else if (r.stop != VFETCH_GX_STOP_END)
                return -1;
        }
    }
    return 0;
}

/* One pass, frame by frame, each command decoded here as an emulator's command processor
   decodes it: NOPs stepped over, CP writes into the state, each draw's length from its format's
   vertex size (vfetch_gx_state_plan) and the draw batched, the rest stepped over. */
static int replay_bytes(vfetch_gx_state *state, const struct replay_capture_set *set,
                        struct vfetch_batch *b)
{
    for (size_t k = 0; k < set->num_segments; k++) {
        const struct replay_segment *seg = &set->segments[k];
        if (!seg->data) {
            vfetch_gx_load_cp_reg(state, seg->addr, (uint32_t)seg->size);
            continue;
        }
        const uint8_t *p = seg->data;
        for (size_t at = 0; at < seg->size;) {
            const uint8_t op = p[at];
            if (op >= 0x80 && op <= 0xbf) {
                const vfetch_gx_plan *plan;
                int err = vfetch_gx_state_plan(state, op & 7u, &plan);
                if (err)
                    return err;
                const uint32_t count = (uint32_t)p[at + 1] << 8 | p[at + 2];
                const size_t bytes = (size_t)count * vfetch_gx_plan_format(plan)->vertex_size;
                if ((err = batch_draw_or_flush(state, op, p + at + 3, bytes, count, b)) != 0)
                    return err;
                at += 3 + bytes;
                continue;
            }
            if (op == 0x08)
                vfetch_gx_load_cp_reg(state, p[at + 1],
                                      (uint32_t)p[at + 2] << 24 | (uint32_t)p[at + 3] << 16 |
                                          (uint32_t)p[at + 4] << 8 | p[at + 5]);
            const size_t len = gx_fifo_command_length(p + at, seg->size - at);
            if (!len)
                return -1;
            at += len;
        }
    }
    return 0;
}

/* One pass over every capture: the writes into the state, each draw through the plan the state
   hands out for its VAT, appended to the shared output. */
static int replay_all(vfetch_gx_state *state, const struct replay_capture_set *set)
{
    size_t used = 0;
    for (size_t e = 0; e < set->num_events; e++) {
        const struct replay_event *ev = &set->events[e];
        if (!ev->vertices) {
            vfetch_gx_load_cp_reg(state, ev->addr, ev->value);
            continue;
        }
        const vfetch_gx_plan *plan;
        int err = vfetch_gx_state_plan(state, ev->addr, &plan);
        if (err)
            return err;
        struct vfetch_gx_run_params p;
        vfetch_gx_run_params_init(&p);
        p.vertices = ev->vertices;
        p.vertices_size = (size_t)ev->value * vfetch_gx_plan_format(plan)->vertex_size;
        p.count = ev->value;
        p.out = set->out + used;
        p.out_size = set->out_size - used;
        err = vfetch_gx_run(plan, &p, NULL);
        if (err)
            return err;
        used += (size_t)ev->value * vfetch_gx_plan_out_stride(plan);
    }
    return 0;
}

static void bench_replay(bmc_state *st, void *user)
{
    const struct replay_job *job = user;
    const struct replay_capture_set *set = job->set;
    /* Plans are compiled inside the loop (a capture's writes change the format), at the
       level the mask selects. */
    vfetch_set_cpu_mask(job->cpu_flags);
    vfetch_gx_state *state;
    if (vfetch_gx_state_create(NULL, &state)) {
        bmc_skip_with_error(st, "vfetch_gx_state_create failed");
        vfetch_set_cpu_mask(~0u);
        return;
    }
    const uint64_t compiles_before = vfetch_gx_state_compiles(state);
    struct vfetch_batch b = { NULL, REPLAY_BATCH_BYTES, 0, 0, 0, NULL, REPLAY_BATCH_INDICES, 0 };
    if (job->form != REPLAY_CONVERT) {
        b.vertices = malloc(REPLAY_BATCH_BYTES);
        b.indices = malloc(REPLAY_BATCH_INDICES * 2);
        if (!b.vertices || !b.indices)
            abort();
    }
    while (bmc_keep_running(st)) {
        const int err = job->form == REPLAY_BYTES   ? replay_bytes(state, set, &b)
                        : job->form == REPLAY_RUNS  ? replay_runs(state, set, &b)
                        : job->form == REPLAY_BATCH ? replay_batch(state, set, &b)
                                                    : replay_all(state, set);
        if (err != 0) {
            bmc_skip_with_error(st, "a capture draw failed to convert");
            break;
        }
    }
    free(b.vertices);
    free(b.indices);
    const double iterations = (double)bmc_iterations(st);
    bmc_set_items_processed(st, bmc_iterations(st) * (int64_t)set->vertices);
    bmc_set_bytes_processed(st, bmc_iterations(st) * (int64_t)set->out_size);
    bmc_set_counter(st, "draws", (double)set->draws, BMC_COUNTER_DEFAULT);
    bmc_set_counter(st, "vertices", (double)set->vertices, BMC_COUNTER_DEFAULT);
    /* rate of (draws / 1e9) inverted: nanoseconds per draw */
    bmc_set_counter(st, "ns_per_draw", iterations * (double)set->draws / 1e9,
                    BMC_COUNTER_RATE | BMC_COUNTER_INVERT);
    bmc_set_counter(st, "Mverts_per_s", iterations * (double)set->vertices / 1e6, BMC_COUNTER_RATE);
    bmc_set_counter(st, "compiles", (double)(vfetch_gx_state_compiles(state) - compiles_before),
                    BMC_COUNTER_ITERATION_AVG);
    vfetch_gx_state_free(state);
    vfetch_set_cpu_mask(~0u);
}

static void register_replay(const char *captures_dir)
{
    if (collect_captures(captures_dir) != 0)
        return;
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        if (!level_available(levels[l].flags))
            continue;
        /* Is the level built? Ask a compiled format which kernels it got. */
        struct vfetch_gx_desc cp;
        memset(&cp, 0, sizeof cp);
        cp.regs = gx_configs[0].regs;
        vfetch_set_cpu_mask(levels[l].flags);
        vfetch_gx_plan *probe;
        if (vfetch_gx_compile(&cp, &probe))
            abort();
        const int built = l == 0 || strcmp(plan_level(vfetch_gx_plan_converter(probe)), levels[l].name) == 0;
        vfetch_gx_plan_free(probe);
        if (!built)
            continue;
        static const char *const form_names[] = { "", "-batch", "-runs", "-bytes" };
        for (int form = REPLAY_CONVERT; form <= REPLAY_BYTES; form++) {
            struct replay_job *job = calloc(1, sizeof *job);
            if (!job)
                abort();
            job->set = &replay_set;
            job->cpu_flags = levels[l].flags;
            job->form = (enum replay_form)form;
            char name[160];
            snprintf(name, sizeof name, "replay/gx-captures%s/%s/-", form_names[form],
                     levels[l].name);
            bmc_register(name, bench_replay, job);
        }
    }
    vfetch_set_cpu_mask(~0u);
}

/* Compiling a GX format, plan and code: compile/gx (config a, vec4, float colours),
   compile/gx-portable (the same without generated code), compile/gx-allindexed (the
   all-indexed format, Dolphin's LargeFloatVertexSpeed, in Dolphin's layout). */
enum { COMPILE_GX, COMPILE_GX_PORTABLE, COMPILE_GX_ALLINDEXED };

static void bench_compile_gx(bmc_state *st, void *user)
{
    const int which = (int)(intptr_t)user;
    struct vfetch_gx_desc cp;
    memset(&cp, 0, sizeof cp);
    cp.regs = gx_configs[which == COMPILE_GX_ALLINDEXED ? 5 : 0].regs;
    if (which == COMPILE_GX_ALLINDEXED) {
        cp.layout = VFETCH_GX_LAYOUT_DOLPHIN;
        cp.color_output = VFETCH_GX_COLOR_RGBA8;
        memcpy(cp.array_stride, gx_all_stride, sizeof cp.array_stride);
    }
    const enum vfetch_jit_mode mode = vfetch_get_jit_mode();
    if (which == COMPILE_GX_PORTABLE)
        vfetch_set_jit_mode(VFETCH_JIT_OFF);
    while (bmc_keep_running(st)) {
        vfetch_gx_plan *plan;
        if (vfetch_gx_compile(&cp, &plan)) {
            bmc_skip_with_error(st, "compile failed");
            break;
        }
        vfetch_gx_plan_free(plan);
    }
    vfetch_set_jit_mode(mode);
    bmc_set_items_processed(st, bmc_iterations(st));
}

/* --jit-coverage: how many of the benchmark's GX plans (every config, every output layout,
   Dolphin's included, at every level with the JIT) have generated code, and why the others
   have none. */
/* A plan with code whose draws run the portable tier from some count: from how many records
   (the plans that run the generated code at every count are only counted, *every). */
static void print_crossover(const char *prefix, const char *name, const char *suffix,
                            const char *level, const struct vfetch_plan_info *info,
                            unsigned *every)
{
    char program[64] = "per op";
    if (info->record_lanes)
        snprintf(program, sizeof program, "record program %u lanes, %u records a group",
                 info->record_lanes, info->record_group);
    if (info->jit_crossover == UINT32_MAX)
        ++*every;
    else
        printf("jit: %s%s%s at %s: generated code below %u records, %u bytes (portable: %s)\n",
               prefix, name, suffix, level, info->jit_crossover, info->jit_code_bytes, program);
}

/* --jit-tiers: besides the coverage, one line per plan and level: the count from which its
   draws run the portable tier ("every": the generated code at every count) and its code's
   size, which tell the choices a compile measures (the tier, a direct format's groups or
   per-vertex pass, the held division factors). summary.py compiles them in several processes
   and lists the plans whose choices differ between them. */
static int print_tiers;

static void print_tier(const char *name, const char *suffix, const char *level,
                       const struct vfetch_plan_info *info)
{
    if (!print_tiers)
        return;
    if (!info->jit)
        printf("tier: %s%s %s none\n", name, suffix, level);
    else if (info->jit_crossover == UINT32_MAX)
        printf("tier: %s%s %s every %u\n", name, suffix, level, info->jit_code_bytes);
    else
        printf("tier: %s%s %s below-%u %u\n", name, suffix, level, info->jit_crossover,
               info->jit_code_bytes);
}

/* The generated code's memory (vfetch_jit_memory_usage), `when` saying at which moment. */
static void print_jit_memory(const char *when)
{
    struct vfetch_jit_memory_usage u;
    if (vfetch_jit_memory_usage(&u))
        abort();
    printf("jit memory %s: %s, %llu bytes mapped (chunks: %u, spare: %u), code %llu bytes in "
           "%u plans (blocks of 64 bytes: %u), plans in pages of their own: %u\n",
           when, u.method, (unsigned long long)u.mapped_bytes, u.chunks, u.spare_chunks,
           (unsigned long long)u.live_bytes, u.live_plans, u.live_blocks, u.own_mappings);
}

static int print_jit_coverage(void)
{
    static const enum vfetch_gx_layout layouts[] = { VFETCH_GX_LAYOUT_VEC4, VFETCH_GX_LAYOUT_PACKED,
                                                     VFETCH_GX_LAYOUT_DOLPHIN };
    enum { GX_LEVEL_PLANS = sizeof gx_configs / sizeof gx_configs[0] * 3 * 2 };
    unsigned plans = 0, with_code = 0, most_bytes = 0;
    int memory_printed = 0;
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        if (!(levels[l].flags & VFETCH_CPU_SSE41) || !level_available(levels[l].flags))
            continue;
        vfetch_set_cpu_mask(levels[l].flags);
        /* the level's plans stay alive until all are compiled, for the memory they hold */
        vfetch_gx_plan *alive[GX_LEVEL_PLANS];
        unsigned num_alive = 0;
        for (size_t c = 0; c < sizeof gx_configs / sizeof gx_configs[0]; c++)
            for (size_t o = 0; o < 3; o++)
                for (int color = 0; color < 2; color++) {
                    struct vfetch_gx_desc cp;
                    memset(&cp, 0, sizeof cp);
                    cp.regs = gx_configs[c].regs;
                    cp.array_stride[VFETCH_GX_POSITION] = gx_configs[c].pos_stride;
                    cp.array_stride[VFETCH_GX_COLOR0] = gx_configs[c].color0_stride;
                    if (gx_configs[c].all_indexed)
                        memcpy(cp.array_stride, gx_all_stride, sizeof cp.array_stride);
                    cp.layout = layouts[o];
                    cp.color_output = color ? VFETCH_GX_COLOR_RGBA8 : VFETCH_GX_COLOR_FLOAT;
                    vfetch_gx_plan *plan;
                    if (vfetch_gx_compile(&cp, &plan))
                        abort();
                    struct vfetch_plan_info info;
                    vfetch_gx_plan_info(plan, &info);
                    static const char *const layout_names[] = { "/vec4", "/packed", "/dolphin" };
                    char suffix[32];
                    snprintf(suffix, sizeof suffix, "%s/%s", layout_names[o],
                             color ? "rgba8" : "float");
                    print_tier(gx_configs[c].name, suffix, levels[l].name, &info);
                    plans++;
                    if (info.jit) {
                        with_code++;
                        most_bytes = info.jit_code_bytes > most_bytes ? info.jit_code_bytes
                                                                      : most_bytes;
                    } else
                        printf("jit: no code for %s layout %d color %d at %s: %s\n",
                               gx_configs[c].name, (int)layouts[o], color, levels[l].name,
                               info.jit_reason);
                    alive[num_alive++] = plan;
                }
        if (!memory_printed) {
            char when[96];
            snprintf(when, sizeof when, "with the %u GX plans of %s alive", num_alive,
                     levels[l].name);
            print_jit_memory(when);
            memory_printed = 1;
        }
        for (unsigned i = 0; i < num_alive; i++)
            vfetch_gx_plan_free(alive[i]);
    }
    vfetch_set_cpu_mask(~0u);
    printf("jit coverage: %u of %u GX plans have generated code (the peer kit's configs a-f in "
           "the vec4, packed and Dolphin layouts, float and RGBA8 colors, at every level with "
           "the JIT); largest %u bytes%s\n",
           with_code, plans, most_bytes, vfetch_jit_available() ? "" : " (no JIT in this build)");
    /* the benchmark's R300 and Maxwell plans */
    unsigned others = 0, others_code = 0, others_every = 0;
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        if (!(levels[l].flags & VFETCH_CPU_SSE41) || !level_available(levels[l].flags))
            continue;
        vfetch_set_cpu_mask(levels[l].flags);
        for (size_t c = 0; c < sizeof r300_configs / sizeof r300_configs[0]; c++) {
            struct vfetch_r300_desc rd;
            r300_config_desc(&r300_configs[c], &rd, 0, NULL);
            vfetch_plan *plan;
            if (vfetch_r300_compile(&rd, &plan))
                abort();
            struct vfetch_plan_info info;
            vfetch_plan_info(plan, &info);
            print_tier(r300_configs[c].name, "", levels[l].name, &info);
            others++;
            others_code += info.jit != 0;
            if (!info.jit)
                printf("jit: no code for plan/%s at %s: %s\n", r300_configs[c].name,
                       levels[l].name, info.jit_reason);
            else
                print_crossover("plan/", r300_configs[c].name, "", levels[l].name, &info,
                                &others_every);
            vfetch_plan_free(plan);
        }
    }
    vfetch_set_cpu_mask(~0u);
    printf("jit coverage: %u of %u R300 plans have generated code (the benchmark's configs at "
           "every level with the JIT), %u of them at every count\n", others_code, others,
           others_every);
    unsigned mw = 0, mw_code = 0, mw_every = 0;
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        if (!(levels[l].flags & VFETCH_CPU_SSE41) || !level_available(levels[l].flags))
            continue;
        vfetch_set_cpu_mask(levels[l].flags);
        for (size_t c = 0; c < sizeof maxwell_configs / sizeof maxwell_configs[0]; c++)
            for (int full = 0; full < 2; full++) {
                struct vfetch_maxwell_desc d;
                maxwell_config_desc(&maxwell_configs[c], full, &d);
                vfetch_maxwell_plan *plan;
                if (vfetch_maxwell_compile(&d, &plan))
                    abort();
                struct vfetch_plan_info info;
                vfetch_plan_info(vfetch_maxwell_plan_converter(plan), &info);
                print_tier(maxwell_configs[c].name, full ? "-full" : "", levels[l].name, &info);
                mw++;
                mw_code += info.jit != 0;
                if (!info.jit)
                    printf("jit: no code for plan/%s%s at %s: %s\n", maxwell_configs[c].name,
                           full ? "-full" : "", levels[l].name, info.jit_reason);
                else
                    print_crossover("plan/", maxwell_configs[c].name, full ? "-full" : "",
                                    levels[l].name, &info, &mw_every);
                vfetch_maxwell_plan_free(plan);
            }
    }
    vfetch_set_cpu_mask(~0u);
    printf("jit coverage: %u of %u Maxwell plans have generated code (compact and full layouts), "
           "%u of them at every count\n", mw_code, mw, mw_every);
    print_jit_memory("with every plan freed");
    return 0;
}

/* ---- whole draws: vertices and indices ---- */

/* draw/<format>/<form>/<vertices>: one guest draw command into a batch, the records and the
   host indices of its primitive, at the best level allowed (VFETCH_CPU_MASK picks another):
   one-call is vfetch_gx_state_draw_batch, two-calls vfetch_gx_state_draw then vfetch_prim_run
   with the same batch bookkeeping (the batch flushed, its figures zeroed, when the next draw
   would not fit). Formats: the real captures' (position f32 XY, texcoord0 f32 ST, QUADS), the
   peer kit's config a (TRIANGLE_STRIP) and config c (indexed, TRIANGLES). */
struct draw_job {
    vfetch_gx_state *state;
    vfetch_prim_plan *prim; /* two-calls: the primitive's plan (16-bit lists) */
    uint8_t command;
    int two_calls;
    uint32_t n;
    const uint8_t *src;
    size_t src_bytes;
};

#define DRAW_VERTEX_BYTES ((size_t)4 << 20)
#define DRAW_INDICES ((size_t)1 << 20)
static uint8_t *draw_vertices;
static uint16_t *draw_indices;

static void bench_draw(bmc_state *st, void *user)
{
    const struct draw_job *job = user;
    struct vfetch_batch b = { draw_vertices, DRAW_VERTEX_BYTES, 0, 0, 0, draw_indices, DRAW_INDICES, 0 };
    const vfetch_gx_plan *plan;
    if (vfetch_gx_state_plan(job->state, job->command & 7, &plan)) {
        bmc_skip_with_error(st, "state plan failed");
        return;
    }
    const size_t stride = vfetch_gx_plan_out_stride(plan);
    const size_t most = vfetch_prim_index_count(job->prim, job->n);
    while (bmc_keep_running(st)) {
        if (b.vertices_used + job->n * stride > DRAW_VERTEX_BYTES ||
            b.indices_used + most > DRAW_INDICES || b.vertex_count + job->n >= 0xffff)
            b.vertices_used = b.indices_used = b.vertex_count = 0; /* flush */
        if (!job->two_calls) {
            if (vfetch_gx_state_draw_batch(job->state, job->command, job->src, job->src_bytes,
                                           job->n, &b, NULL)) {
                bmc_skip_with_error(st, "vfetch_gx_state_draw_batch failed");
                break;
            }
            continue;
        }
        struct vfetch_gx_result r;
        if (vfetch_gx_state_draw(job->state, job->command & 7, job->src, job->src_bytes, job->n,
                                 (uint8_t *)b.vertices + b.vertices_used,
                                 b.vertices_capacity - b.vertices_used, &r)) {
            bmc_skip_with_error(st, "vfetch_gx_state_draw failed");
            break;
        }
        struct vfetch_prim_run_params p;
        p.count = r.written;
        p.base_index = b.vertex_count;
        p.out = (uint16_t *)b.indices + b.indices_used;
        p.out_capacity = b.indices_capacity - b.indices_used;
        p.indices = NULL;
        p.indices_size = 0;
        struct vfetch_prim_result pr;
        if (vfetch_prim_run(job->prim, &p, &pr)) {
            bmc_skip_with_error(st, "vfetch_prim_run failed");
            break;
        }
        b.vertices_used += (size_t)r.written * stride;
        b.vertex_count += r.written;
        b.indices_used += pr.written;
    }
    bmc_set_items_processed(st, bmc_iterations(st) * (int64_t)job->n);
}

static void register_draw(void)
{
    static const struct {
        const char *name;
        uint32_t vcd_lo, vcd_hi, vat_a;
        uint8_t primitive;
        int indexed;
        size_t vertex_size;
    } formats[] = {
        { "gx-captures", 1u << 9, 1, 4u << 1 | 1u << 21 | 4u << 22 | 1u << 30, VFETCH_GX_QUADS, 0, 16 },
        { "gx-a", 1u << 9 | 1u << 11 | 1u << 13, 1,
          1 | 3u << 1 | 8u << 4 | 1u << 10 | 1u << 13 | 5u << 14 | 1u << 21 | 3u << 22 | 10u << 25 | 1u << 30,
          VFETCH_GX_TRIANGLE_STRIP, 0, 17 },
        { "gx-c", 3u << 9 | 2u << 13, 0, 1 | 4u << 1 | 0u << 14 | 1u << 30, VFETCH_GX_TRIANGLES, 1, 3 },
    };
    static const uint32_t counts[] = { 4, 16, 256 };
    draw_vertices = malloc(DRAW_VERTEX_BYTES);
    draw_indices = malloc(DRAW_INDICES * sizeof *draw_indices);
    if (!draw_vertices || !draw_indices)
        abort();
    const struct vfetch_gx_state_params packed = { VFETCH_GX_LAYOUT_PACKED, VFETCH_GX_COLOR_RGBA8,
                                                   VFETCH_PATH_AUTO };
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++)
        for (int two = 0; two < 2; two++)
            for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
                struct draw_job *job = calloc(1, sizeof *job);
                if (!job || vfetch_gx_state_create(&packed, &job->state))
                    abort();
                vfetch_gx_state *state = job->state;
                vfetch_gx_load_cp_reg(state, 0x50, formats[f].vcd_lo);
                vfetch_gx_load_cp_reg(state, 0x60, formats[f].vcd_hi);
                vfetch_gx_load_cp_reg(state, 0x70, formats[f].vat_a);
                vfetch_gx_load_cp_reg(state, 0x80, 1u << 31);
                if (formats[f].indexed) { /* config c's arrays, as plan/gx-c reads them */
                    vfetch_gx_state_map_memory(state, 0, 0, gx_pos_array, (size_t)GX_POS_ENTRIES * 12);
                    vfetch_gx_state_map_memory(state, 1, 0x10000000, gx_color_array, 512);
                    vfetch_gx_load_cp_reg(state, 0xa0, 0);
                    vfetch_gx_load_cp_reg(state, 0xb0, 12);
                    vfetch_gx_load_cp_reg(state, 0xa2, 0x10000000);
                    vfetch_gx_load_cp_reg(state, 0xb2, 2);
                }
                struct vfetch_prim_desc d;
                vfetch_prim_desc_init(&d);
                d.primitive = formats[f].primitive;
                if (vfetch_prim_compile(&d, &job->prim))
                    abort();
                job->command = formats[f].primitive; /* VAT 0 */
                job->two_calls = two;
                job->n = counts[c];
                job->src = formats[f].indexed ? gx_indexed_src : bench_src;
                job->src_bytes = (size_t)counts[c] * formats[f].vertex_size;
                char name[96];
                snprintf(name, sizeof name, "draw/%s/%s/%u", formats[f].name,
                         two ? "two-calls" : "one-call", counts[c]);
                bmc_register(name, bench_draw, job);
            }
}

/* ---- compile ---- */

static void bench_compile(bmc_state *st, void *user)
{
    (void)user;
    struct vfetch_r300_desc rd;
    r300_config_desc(&r300_configs[0], &rd, 0, NULL);
    while (bmc_keep_running(st)) {
        vfetch_plan *plan;
        if (vfetch_r300_compile(&rd, &plan)) {
            bmc_skip_with_error(st, "compile failed");
            break;
        }
        vfetch_plan_free(plan);
    }
    bmc_set_items_processed(st, bmc_iterations(st));
}

/* An R300 state switching between two register sets (configs r300-r1 and r300-r2) draw after
   draw, as a driver does: per iteration, the PROG_STREAM_CNTL and VBPNTR writes of one set and
   the plan lookup, which the state's cache answers (no compile after the first two). */
static void bench_r300_state(bmc_state *st, void *user)
{
    (void)user;
    vfetch_r300_state *state;
    if (vfetch_r300_state_create(NULL, &state)) {
        bmc_skip_with_error(st, "state create failed");
        return;
    }
    struct vfetch_r300_desc rd[2];
    uint32_t vbpntr[2][3];
    for (unsigned k = 0; k < 2; k++) {
        r300_config_desc(&r300_configs[k], &rd[k], 0, NULL);
        vbpntr[k][0] = 1;
        vbpntr[k][1] = rd[k].arrays[0].count_dwords | rd[k].arrays[0].stride_dwords << 8;
        vbpntr[k][2] = 0;
    }
    unsigned k = 0;
    while (bmc_keep_running(st)) {
        for (unsigned w = 0; w < 2; w++) /* both configs fit two words */
            vfetch_r300_load_reg(state, VFETCH_R300_VAP_PROG_STREAM_CNTL_0 + 4 * w,
                                 rd[k].prog_stream_cntl[w]);
        vfetch_r300_load_vbpntr(state, vbpntr[k], 3);
        const vfetch_plan *plan;
        if (vfetch_r300_state_plan(state, 0, &plan)) {
            bmc_skip_with_error(st, "state plan failed");
            break;
        }
        k ^= 1;
    }
    bmc_set_items_processed(st, bmc_iterations(st));
    bmc_set_counter(st, "compiles", (double)vfetch_r300_state_compiles(state), BMC_COUNTER_DEFAULT);
    vfetch_r300_state_free(state);
}

/* The capture directory: --gx-captures=DIR (removed from argv, Google Benchmark rejects flags
   it does not know), else $VFETCH_GX_CAPTURES, else the build's default beside the source tree. */
static const char *take_captures_dir(int *argc, char **argv)
{
    static const char flag[] = "--gx-captures=";
    const char *dir = getenv("VFETCH_GX_CAPTURES");
    if (!dir || !*dir)
        dir = VFETCH_BENCH_GX_CAPTURES;
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        if (strncmp(argv[i], flag, sizeof flag - 1) == 0)
            dir = argv[i] + sizeof flag - 1;
        else
            argv[kept++] = argv[i];
    }
    argv[kept] = NULL;
    *argc = kept;
    return dir;
}

/* ---- texel decode ---- */

struct texel_config {
    const char *name;
    uint32_t format1, format2;
};

#define TX_SEL_RGBA (3u << 9 | 0u << 12 | 1u << 15 | 2u << 18)
#define TX_SEL_BGRA (3u << 9 | 2u << 12 | 1u << 15 | 0u << 18)
#define TX_MSB VFETCH_TX_FORMAT2_TXFORMAT_MSB

/* Every format of issue 14 that decodes, with the selection a driver would program. */
static const struct texel_config texel_configs[] = {
    { "8", 0 | TX_SEL_RGBA, 0 },
    { "16", 1 | TX_SEL_RGBA, 0 },
    { "4_4", 2 | TX_SEL_RGBA, 0 },
    { "8_8", 3 | TX_SEL_RGBA, 0 },
    { "16_16", 4 | TX_SEL_RGBA, 0 },
    { "3_3_2", 5 | TX_SEL_BGRA, 0 },
    { "5_6_5", 6 | TX_SEL_BGRA, 0 },
    { "6_5_5", 7 | TX_SEL_BGRA, 0 },
    { "11_11_10", 8 | TX_SEL_RGBA, 0 },
    { "10_11_11", 9 | TX_SEL_RGBA, 0 },
    { "4_4_4_4", 10 | TX_SEL_BGRA, 0 },
    { "1_5_5_5", 11 | TX_SEL_BGRA, 0 },
    { "8_8_8_8", 12 | TX_SEL_BGRA, 0 },
    { "2_10_10_10", 13 | TX_SEL_RGBA, 0 },
    { "16_16_16_16", 14 | TX_SEL_RGBA, 0 },
    { "1", 0 | TX_SEL_RGBA, TX_MSB },
    { "10_10_10_10", 4 | TX_SEL_RGBA, TX_MSB },
    { "24_8", 6 | TX_SEL_RGBA, TX_MSB },
    { "dxt1", 15 | TX_SEL_BGRA, 0 },
    { "dxt3", 16 | TX_SEL_BGRA, 0 },
    { "dxt5", 17 | TX_SEL_BGRA, 0 },
    { "ati1n", 5 | (5u << 9 | 0u << 12 | 0u << 15 | 0u << 18), TX_MSB },
    { "ati2n", 31 | (5u << 9 | 0u << 12 | 1u << 15 | 4u << 18), 0 },
    { "cxv8u8", 18 | TX_SEL_RGBA, 0 },
    { "vyuy422-rgb", 20 | 1u << 22, 0 },
    { "16f", 24 | TX_SEL_RGBA, 0 },
    { "16f_16f_16f_16f", 26 | TX_SEL_RGBA, 0 },
    { "32f", 27 | TX_SEL_RGBA, 0 },
    { "32f_32f_32f_32f", 29 | TX_SEL_RGBA, 0 },
};

static const uint32_t texel_sides[] = { 64, 256 };

struct texel_job {
    vfetch_texel_plan *plan;
    uint32_t side;
    enum vfetch_texel_output output;
    size_t in_bytes, out_bytes;
};

static void bench_texel(bmc_state *st, void *user)
{
    const struct texel_job *job = user;
    const struct vfetch_texel_surface s = { bench_src, job->in_bytes, job->side, job->side, 1, 0,
                                            VFETCH_TEXEL_PITCH_BYTES, 0 };
    const struct vfetch_texel_target t = { bench_out, OUT_BYTES, job->output, 0, 0 };
    while (bmc_keep_running(st)) {
        if (vfetch_texel_decode(job->plan, &s, NULL, &t) != 0) {
            bmc_skip_with_error(st, "vfetch_texel_decode failed");
            break;
        }
    }
    const int64_t texels = (int64_t)job->side * job->side;
    set_output_counters(st, texels, job->out_bytes);
    bmc_set_counter(st, "texels", (double)texels, BMC_COUNTER_DEFAULT);
}

/* The level a texel plan's kernels come from, as the benchmark levels name it. */
static const char *texel_level(const vfetch_texel_plan *plan, enum vfetch_texel_output out)
{
    const char *level = out == VFETCH_TEXEL_RGBA8 ? plan->level_u8 : plan->level_f32;
    return !strcmp(level, "c") ? "ref" : level;
}

/* A plain block-at-a-time BC1 and BC4 decoder to RGBA8, the shape of the popular single-header
   decoders (palette per block, then 16 lookups), as a yardstick beside the library's own
   reference: texel/<dxt1|ati1n>-rgba8/plain/<texels>. Same rules as the default plan. */
static void plain_bc1_block(const uint8_t *b, uint8_t *dst, size_t pitch)
{
    const unsigned c0 = b[0] | b[1] << 8, c1 = b[2] | b[3] << 8;
    uint8_t pal[4][4];
    const unsigned e[2] = { c0, c1 };
    for (int k = 0; k < 2; k++) {
        const unsigned r = e[k] >> 11 & 31, g = e[k] >> 5 & 63, bl = e[k] & 31;
        pal[k][0] = (uint8_t)(r << 3 | r >> 2);
        pal[k][1] = (uint8_t)(g << 2 | g >> 4);
        pal[k][2] = (uint8_t)(bl << 3 | bl >> 2);
        pal[k][3] = 255;
    }
    for (int ch = 0; ch < 3; ch++) {
        if (c0 > c1) {
            pal[2][ch] = (uint8_t)((2 * pal[0][ch] + pal[1][ch]) / 3);
            pal[3][ch] = (uint8_t)((pal[0][ch] + 2 * pal[1][ch]) / 3);
        } else {
            pal[2][ch] = (uint8_t)((pal[0][ch] + pal[1][ch]) / 2);
            pal[3][ch] = 0;
        }
    }
    pal[2][3] = 255;
    pal[3][3] = c0 > c1 ? 255 : 0;
    const uint32_t idx = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
    for (int i = 0; i < 16; i++)
        memcpy(dst + (i / 4) * pitch + (i % 4) * 4, pal[idx >> (2 * i) & 3], 4);
}

static void plain_bc4_block(const uint8_t *b, uint8_t *dst, size_t pitch)
{
    const unsigned a0 = b[0], a1 = b[1];
    unsigned pal[8] = { a0, a1 };
    if (a0 > a1)
        for (unsigned k = 2; k < 8; k++)
            pal[k] = ((8 - k) * a0 + (k - 1) * a1) / 7;
    else {
        for (unsigned k = 2; k < 6; k++)
            pal[k] = ((6 - k) * a0 + (k - 1) * a1) / 5;
        pal[6] = 0, pal[7] = 255;
    }
    uint64_t idx = 0;
    for (int k = 0; k < 6; k++)
        idx |= (uint64_t)b[2 + k] << (8 * k);
    for (int i = 0; i < 16; i++) {
        const uint8_t v = (uint8_t)pal[idx >> (3 * i) & 7];
        uint8_t *t = dst + (i / 4) * pitch + (i % 4) * 4;
        t[0] = t[1] = t[2] = v, t[3] = 255;
    }
}

struct plain_job {
    int bc4;
    uint32_t side;
};

static void bench_plain(bmc_state *st, void *user)
{
    const struct plain_job *job = user;
    const uint32_t blocks = job->side / 4;
    const size_t pitch = (size_t)job->side * 4, bytes = 8; /* BC1 and BC4 blocks */
    while (bmc_keep_running(st)) {
        for (uint32_t by = 0; by < blocks; by++)
            for (uint32_t bx = 0; bx < blocks; bx++) {
                const uint8_t *b = bench_src + ((size_t)by * blocks + bx) * bytes;
                uint8_t *d = bench_out + (size_t)by * 4 * pitch + (size_t)bx * 16;
                if (job->bc4)
                    plain_bc4_block(b, d, pitch);
                else
                    plain_bc1_block(b, d, pitch);
            }
        __asm__ volatile("" : : "r"(bench_out) : "memory");
    }
    const int64_t texels = (int64_t)job->side * job->side;
    set_output_counters(st, texels, texels * 4);
    bmc_set_counter(st, "texels", (double)texels, BMC_COUNTER_DEFAULT);
}

static void register_texel(void)
{
    for (int bc4 = 0; bc4 < 2; bc4++)
        for (size_t i = 0; i < sizeof texel_sides / sizeof texel_sides[0]; i++) {
            struct plain_job *job = calloc(1, sizeof *job);
            if (!job)
                abort();
            job->bc4 = bc4;
            job->side = texel_sides[i];
            char name[96];
            snprintf(name, sizeof name, "texel/%s-rgba8/plain/%u", bc4 ? "ati1n" : "dxt1",
                     job->side * job->side);
            bmc_register(name, bench_plain, job);
        }
    /* The yardstick decodes what the library decodes: 64x64 of each, compared. */
    for (int bc4 = 0; bc4 < 2; bc4++) {
        const struct texel_config *cfg = NULL;
        for (size_t c = 0; c < sizeof texel_configs / sizeof texel_configs[0]; c++)
            if (!strcmp(texel_configs[c].name, bc4 ? "ati1n" : "dxt1"))
                cfg = &texel_configs[c];
        vfetch_texel_plan *plan;
        struct vfetch_texel_desc desc;
        vfetch_texel_desc_init(&desc);
        desc.tx_format1 = cfg ? cfg->format1 : 0;
        desc.tx_format2 = cfg ? cfg->format2 : 0;
        if (!cfg || vfetch_texel_compile(&desc, &plan))
            abort();
        const struct vfetch_texel_surface s = { bench_src, 16 * 16 * 8, 64, 64, 1, 0,
                                                VFETCH_TEXEL_PITCH_BYTES, 0 };
        const struct vfetch_texel_target t = { bench_copy, 64 * 64 * 4, VFETCH_TEXEL_RGBA8, 0, 0 };
        for (uint32_t by = 0; by < 16; by++)
            for (uint32_t bx = 0; bx < 16; bx++)
                (bc4 ? plain_bc4_block : plain_bc1_block)(bench_src + (by * 16 + bx) * 8,
                                                          bench_out + by * 4 * 256 + bx * 16, 256);
        if (vfetch_texel_decode(plan, &s, NULL, &t) || memcmp(bench_copy, bench_out, 64 * 64 * 4)) {
            fprintf(stderr, "vfetch_bench: the plain %s decoder differs from the library\n",
                    bc4 ? "BC4" : "BC1");
            abort();
        }
        vfetch_texel_plan_free(plan);
    }
    for (size_t c = 0; c < sizeof texel_configs / sizeof texel_configs[0]; c++) {
        const struct texel_config *cfg = &texel_configs[c];
        for (int out = 0; out < 2; out++) {
            const enum vfetch_texel_output output = out ? VFETCH_TEXEL_RGBA8 : VFETCH_TEXEL_RGBA32F;
            for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
                if (!level_available(levels[l].flags))
                    continue;
                vfetch_set_cpu_mask(levels[l].flags);
                vfetch_texel_plan *plan;
                struct vfetch_texel_desc desc;
                vfetch_texel_desc_init(&desc);
                desc.tx_format1 = cfg->format1;
                desc.tx_format2 = cfg->format2;
                if (vfetch_texel_compile(&desc, &plan))
                    abort();
                struct vfetch_texel_info info;
                vfetch_texel_plan_info(plan, &info);
                /* RGBA8 only where exact; a level only where it has its own kernel (the
                   level-independent table kernels of TX_FMT_1 once, as isa "table") */
                const char *isa = texel_level(plan, output);
                int best = 1;
                for (size_t m = l + 1; m < sizeof levels / sizeof levels[0]; m++)
                    best &= !level_available(levels[m].flags);
                vfetch_set_cpu_mask(levels[l].flags);
                if ((out && !info.rgba8_exact) ||
                    (strcmp(isa, levels[l].name) && !(best && !strcmp(isa, "table")))) {
                    vfetch_texel_plan_free(plan);
                    continue;
                }
                for (size_t i = 0; i < sizeof texel_sides / sizeof texel_sides[0]; i++) {
                    struct texel_job *job = calloc(1, sizeof *job);
                    if (!job)
                        abort();
                    const uint32_t side = texel_sides[i];
                    job->plan = plan; /* shared by the sizes, freed at exit */
                    job->side = side;
                    job->output = output;
                    job->in_bytes = (size_t)(side / info.block_width) * (side / info.block_height) *
                                    info.block_bytes;
                    job->out_bytes = (size_t)side * side * (out ? 4 : 16);
                    char name[160];
                    snprintf(name, sizeof name, "texel/%s-%s/%s/%u", cfg->name, out ? "rgba8" : "f32",
                             isa, side * side);
                    bmc_register(name, bench_texel, job);
                    register_memcpy(job->out_bytes);
                    register_memcpy((size_t)side * side * 4); /* the RGBA8 size of the texels */
                }
            }
        }
    }
}

/* ---- GX texture decode ---- */

struct gx_texture_config {
    const char *name;
    enum vfetch_gx_texture_format format;
    int tlut;   /* palette format, -1 for a format without one */
    int opaque; /* RGB5A3 with bit 15 set in every texel: the one-mode case Dolphin vectorises */
};

/* Every format and palette format the peer kit times, with its names lower-cased. */
static const struct gx_texture_config gx_texture_configs[] = {
    { "i4", VFETCH_GX_TF_I4, -1, 0 },
    { "i8", VFETCH_GX_TF_I8, -1, 0 },
    { "ia4", VFETCH_GX_TF_IA4, -1, 0 },
    { "ia8", VFETCH_GX_TF_IA8, -1, 0 },
    { "rgb565", VFETCH_GX_TF_RGB565, -1, 0 },
    { "rgb5a3", VFETCH_GX_TF_RGB5A3, -1, 0 },
    { "rgb5a3-opaque", VFETCH_GX_TF_RGB5A3, -1, 1 },
    { "rgba8", VFETCH_GX_TF_RGBA8, -1, 0 },
    { "c4-ia8", VFETCH_GX_TF_C4, VFETCH_GX_TLUT_IA8, 0 },
    { "c4-rgb565", VFETCH_GX_TF_C4, VFETCH_GX_TLUT_RGB565, 0 },
    { "c4-rgb5a3", VFETCH_GX_TF_C4, VFETCH_GX_TLUT_RGB5A3, 0 },
    { "c8-ia8", VFETCH_GX_TF_C8, VFETCH_GX_TLUT_IA8, 0 },
    { "c8-rgb565", VFETCH_GX_TF_C8, VFETCH_GX_TLUT_RGB565, 0 },
    { "c8-rgb5a3", VFETCH_GX_TF_C8, VFETCH_GX_TLUT_RGB5A3, 0 },
    { "c14x2-ia8", VFETCH_GX_TF_C14X2, VFETCH_GX_TLUT_IA8, 0 },
    { "c14x2-rgb565", VFETCH_GX_TF_C14X2, VFETCH_GX_TLUT_RGB565, 0 },
    { "c14x2-rgb5a3", VFETCH_GX_TF_C14X2, VFETCH_GX_TLUT_RGB5A3, 0 },
    { "cmpr", VFETCH_GX_TF_CMPR, -1, 0 },
};

/* Square textures: 8x8 for the per-call cost, 256x256 in cache, 1024x1024 (the largest GX
   texture, 4 MiB of RGBA8) past it. */
static const uint32_t gx_texture_sides[] = { 8, 256, 1024 };
#define GX_TEXTURE_MAX_SIDE 1024
#define GX_TEXTURE_PALETTE_BYTES (16384 * 2) /* C14X2's: the largest */

/* bench_src with bit 15 of every big-endian 16-bit value set (rgb5a3-opaque), and a random
   palette of big-endian entries (C4 reads its first 16, C8 256, C14X2 all 16384). */
static uint8_t *gx_texture_opaque_src;
static uint8_t *gx_texture_palette;

struct gx_texture_job {
    vfetch_gx_texture_plan *plan;
    struct vfetch_gx_texture_source source;
    uint32_t width, height;
};

static void bench_gx_texture(bmc_state *st, void *user)
{
    const struct gx_texture_job *job = user;
    const int64_t texels = (int64_t)job->width * job->height;
    const size_t out_bytes = (size_t)texels * 4;
    /* the whole texture, RGBA8, rows packed (pitch 0: width x 4 bytes) */
    const struct vfetch_texel_target t = { bench_out, out_bytes, VFETCH_TEXEL_RGBA8, 0, 0 };
    while (bmc_keep_running(st)) {
        if (vfetch_gx_texture_decode(job->plan, &job->source, NULL, &t) != 0) {
            bmc_skip_with_error(st, "vfetch_gx_texture_decode failed");
            break;
        }
    }
    set_output_counters(st, texels, out_bytes);
    bmc_set_counter(st, "texels", (double)texels, BMC_COUNTER_DEFAULT);
}

/* ---- primitives to index buffers ---- */

struct prim_job {
    vfetch_prim_plan *plan;
    uint32_t n;
    size_t indices, bytes;
    const uint8_t *entries; /* a guest index buffer's n entries of entry_bytes, or NULL */
    uint32_t entry_bytes;
};

static void bench_prim(bmc_state *st, void *user)
{
    const struct prim_job *job = user;
    struct vfetch_prim_run_params p = { .count = job->n, .out = bench_out,
                                        .out_capacity = OUT_BYTES / 4, .indices = job->entries,
                                        .indices_size = (size_t)job->n * job->entry_bytes };
    struct vfetch_prim_result r;
    while (bmc_keep_running(st)) {
        if (vfetch_prim_run(job->plan, &p, &r) != 0) {
            bmc_skip_with_error(st, "vfetch_prim_run failed");
            break;
        }
    }
    set_output_counters(st, job->n, job->bytes);
}

/* The primitive plan of d at level l (the CPU mask set to it), or NULL where that level is not
   built. */
static vfetch_prim_plan *prim_plan_at(const struct vfetch_prim_desc *d, size_t l)
{
    vfetch_set_cpu_mask(levels[l].flags);
    vfetch_prim_plan *plan;
    if (vfetch_prim_compile(d, &plan))
        abort();
    struct vfetch_prim_plan_info info;
    vfetch_prim_plan_info(plan, &info);
    if (strcmp(info.level, l ? levels[l].name : "c") != 0) {
        vfetch_prim_plan_free(plan);
        return NULL;
    }
    return plan;
}

/* prim/<what>/<isa>/<n> for each count: jobs sharing the plan (freed at exit), each with its
   memcpy baseline of the output bytes; entries: a guest index buffer (or NULL). */
static void add_prim_rows(vfetch_prim_plan *plan, const char *what, size_t l,
                          const uint32_t *counts, size_t num_counts, const uint8_t *entries,
                          uint32_t entry_bytes, uint32_t out_bytes)
{
    for (size_t i = 0; i < num_counts; i++) {
        struct prim_job *job = calloc(1, sizeof *job);
        if (!job)
            abort();
        job->plan = plan;
        job->n = counts[i];
        job->indices = vfetch_prim_index_count(plan, counts[i]);
        job->bytes = job->indices * out_bytes;
        job->entries = entries;
        job->entry_bytes = entry_bytes;
        char name[160];
        snprintf(name, sizeof name, "prim/%s/%s/%u", what, levels[l].name, counts[i]);
        bmc_register(name, bench_prim, job);
        register_memcpy(job->bytes);
    }
}

/* prim/gx-<primitive>[-restart]/<isa>/<vertices>: one GX draw's 16-bit indices at base 0, each
   primitive without and with restart (lines and points expanded in the vertex shader, as
   Dolphin's Metal and VS-expanding backends draw them), against memcpy of the same bytes and the
   reference ("ref"). */
static void register_prim(void)
{
    static const struct { const char *name; uint32_t primitive; } prims[] = {
        { "quads", VFETCH_GX_QUADS }, { "triangles", VFETCH_GX_TRIANGLES },
        { "strip", VFETCH_GX_TRIANGLE_STRIP }, { "fan", VFETCH_GX_TRIANGLE_FAN },
        { "lines", VFETCH_GX_LINES }, { "line-strip", VFETCH_GX_LINE_STRIP },
        { "points", VFETCH_GX_POINTS },
    };
    static const uint32_t counts[] = { 16, 256, 4096, 16380 };
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        if (!level_available(levels[l].flags))
            continue;
        for (size_t k = 0; k < sizeof prims / sizeof prims[0]; k++)
            for (int restart = 0; restart < 2; restart++) {
                struct vfetch_prim_desc d;
                vfetch_prim_desc_init(&d);
                d.primitive = prims[k].primitive;
                d.restart = (uint8_t)restart;
                d.expand_lines_points = prims[k].primitive >= VFETCH_GX_LINES;
                vfetch_prim_plan *plan = prim_plan_at(&d, l);
                if (!plan)
                    continue;
                char what[64];
                snprintf(what, sizeof what, "gx-%s%s", prims[k].name, restart ? "-restart" : "");
                add_prim_rows(plan, what, l, counts, 4, NULL, 0, 2);
            }
    }
    vfetch_set_cpu_mask(~0u);
}

/* prim/index-u<in>-u<out>[-restart]/<isa>/<entries>: an R300 triangle list through a guest
   index buffer of u8, u16 or u32 entries to 16- or 32-bit host indices (the scan and the
   convert kernel: widening, narrowing), against memcpy of the output bytes. Entries below 250;
   with "-restart" the value 7 is the restart index (about one entry in 250): lists cut by
   restart, converted a run at a time. */
static uint8_t *bench_entries[5]; /* by entry size: 65,536 entries of the same values */

static void register_prim_index(void)
{
    static const struct { uint8_t in, out; } forms[] = { { 1, 2 }, { 2, 2 }, { 2, 4 }, { 4, 2 }, { 4, 4 } };
    static const uint32_t counts[] = { 16, 4095, 65535 };
    for (unsigned b = 1; b <= 4; b *= 2)
        if (!(bench_entries[b] = calloc(65536, b)))
            abort();
    for (size_t i = 0; i < 65536; i++) {
        const uint32_t v = (uint32_t)(rng() % 250);
        bench_entries[1][i] = (uint8_t)v;
        memcpy(bench_entries[2] + 2 * i, &(uint16_t){ (uint16_t)v }, 2);
        memcpy(bench_entries[4] + 4 * i, &v, 4);
    }
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        if (!level_available(levels[l].flags))
            continue;
        for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++)
            for (int restart = 0; restart < 2; restart++) {
                struct vfetch_prim_desc d;
                vfetch_prim_desc_init(&d);
                d.frontend = VFETCH_PRIM_R300;
                d.primitive = VFETCH_R300_TRIANGLES;
                d.guest_index_bytes = forms[f].in;
                d.index_type = forms[f].out == 4 ? VFETCH_INDEX_U32 : VFETCH_INDEX_U16;
                d.guest_restart = (uint8_t)restart;
                d.guest_restart_index = 7;
                vfetch_prim_plan *plan = prim_plan_at(&d, l);
                if (!plan)
                    continue;
                char what[64];
                snprintf(what, sizeof what, "index-u%u-u%u%s", 8u * forms[f].in,
                         8u * forms[f].out, restart ? "-restart" : "");
                add_prim_rows(plan, what, l, counts, 3, bench_entries[forms[f].in], forms[f].in,
                              forms[f].out);
            }
    }
    vfetch_set_cpu_mask(~0u);
}

/* range/r300-<config>-{per-entry,range}/<isa>/<entries>: an indexed R300 draw of a grid mesh
   (triangles of a side x side grid of records: each inner record in six triangles), converted
   one output record per entry (vfetch_run through the index buffer: de-indexing) or in range
   mode (vfetch_prim_run's scan and rebased host indices, then vfetch_run of the records
   smallest .. largest once). */
struct range_job {
    vfetch_plan *plan;
    vfetch_prim_plan *prim; /* NULL: per entry */
    const uint16_t *mesh;
    uint32_t entries;
};

/* The triangles of a side x side grid of records from record 1000 on (records of a larger
   buffer, as an emulator's draw names them), row by row: 6 (side - 1)^2 entries. */
static uint16_t *grid_mesh(uint32_t side)
{
    uint16_t *mesh = malloc((size_t)6 * (side - 1) * (side - 1) * 2);
    if (!mesh)
        abort();
    size_t k = 0;
    for (uint32_t y = 0; y + 1 < side; y++)
        for (uint32_t x = 0; x + 1 < side; x++) {
            const uint16_t a = (uint16_t)(1000 + y * side + x), b = (uint16_t)(a + 1),
                           c = (uint16_t)(a + side), e = (uint16_t)(c + 1);
            mesh[k++] = a;
            mesh[k++] = c;
            mesh[k++] = b;
            mesh[k++] = b;
            mesh[k++] = c;
            mesh[k++] = e;
        }
    return mesh;
}

static void bench_range(bmc_state *st, void *user)
{
    const struct range_job *job = user;
    struct vfetch_binding binding = { bench_src, SRC_BYTES };
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = &binding;
    p.num_streams = 1;
    p.out = bench_out;
    p.out_size = OUT_BYTES / 2;
    uint16_t *host_indices = (uint16_t *)(bench_out + OUT_BYTES / 2);
    const struct vfetch_prim_run_params ip = {
        .count = job->entries, .out = host_indices, .out_capacity = OUT_BYTES / 4,
        .indices = job->mesh, .indices_size = (size_t)job->entries * 2
    };
    if (!job->prim) {
        p.index_type = VFETCH_INDEX_U16;
        p.indices = job->mesh;
        p.indices_size = (size_t)job->entries * 2;
        p.count = job->entries;
    }
    while (bmc_keep_running(st)) {
        if (job->prim) {
            struct vfetch_prim_result r;
            if (vfetch_prim_run(job->prim, &ip, &r) != 0) {
                bmc_skip_with_error(st, "vfetch_prim_run failed");
                break;
            }
            p.first = r.min_index;
            p.count = r.max_index - r.min_index + 1;
        }
        if (vfetch_run(job->plan, &p) != 0) {
            bmc_skip_with_error(st, "vfetch_run failed");
            break;
        }
    }
    bmc_set_items_processed(st, bmc_iterations(st) * (int64_t)job->entries);
}

static void register_range(void)
{
    static const uint32_t sides[] = { 4, 27, 53 }; /* 54, 4,056 and 16,224 entries */
    const uint16_t *meshes[3];
    for (size_t s = 0; s < 3; s++)
        meshes[s] = grid_mesh(sides[s]);
    for (size_t c = 0; c < sizeof r300_configs / sizeof r300_configs[0]; c++) {
        const struct r300_config *cfg = &r300_configs[c];
        if (cfg->immediate)
            continue;
        struct vfetch_r300_desc rd;
        r300_config_desc(cfg, &rd, 0, NULL);
        struct vfetch_plan_desc pd;
        if (vfetch_r300_translate(&rd, &pd))
            abort();
        for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
            if (!level_available(levels[l].flags))
                continue;
            vfetch_set_cpu_mask(levels[l].flags);
            vfetch_plan *plan;
            vfetch_prim_plan *prim;
            struct vfetch_prim_desc d;
            vfetch_prim_desc_init(&d);
            d.frontend = VFETCH_PRIM_R300;
            d.primitive = VFETCH_R300_TRIANGLES;
            d.guest_index_bytes = 2;
            d.range = 1;
            if (vfetch_plan_compile(&pd, &plan) || vfetch_prim_compile(&d, &prim))
                abort();
            if (l > 0 && strcmp(plan_level(plan), levels[l].name) != 0) {
                vfetch_plan_free(plan);
                vfetch_prim_plan_free(prim);
                continue;
            }
            for (size_t s = 0; s < 3; s++)
                for (int range = 0; range < 2; range++) {
                    struct range_job *job = calloc(1, sizeof *job);
                    if (!job)
                        abort();
                    job->plan = plan;
                    job->prim = range ? prim : NULL;
                    job->mesh = meshes[s];
                    job->entries = 6 * (sides[s] - 1) * (sides[s] - 1);
                    char name[160];
                    snprintf(name, sizeof name, "range/%s-%s/%s/%u", cfg->name,
                             range ? "range" : "per-entry", levels[l].name, job->entries);
                    bmc_register(name, bench_range, job);
                }
        }
    }
    vfetch_set_cpu_mask(~0u);
}

static void register_gx_texture(void)
{
    const size_t max_source = (size_t)GX_TEXTURE_MAX_SIDE * GX_TEXTURE_MAX_SIDE * 4; /* RGBA8 */
    gx_texture_opaque_src = malloc(max_source);
    gx_texture_palette = malloc(GX_TEXTURE_PALETTE_BYTES);
    if (!gx_texture_opaque_src || !gx_texture_palette || max_source > SRC_BYTES)
        abort();
    for (size_t i = 0; i < max_source; i++)
        gx_texture_opaque_src[i] = (uint8_t)(bench_src[i] | (i % 2 == 0 ? 0x80 : 0));
    for (size_t i = 0; i < GX_TEXTURE_PALETTE_BYTES; i++)
        gx_texture_palette[i] = (uint8_t)rng();

    for (size_t c = 0; c < sizeof gx_texture_configs / sizeof gx_texture_configs[0]; c++) {
        const struct gx_texture_config *cfg = &gx_texture_configs[c];
        for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
            if (!level_available(levels[l].flags))
                continue;
            for (size_t i = 0; i < sizeof gx_texture_sides / sizeof gx_texture_sides[0]; i++) {
                const uint32_t side = gx_texture_sides[i];
                struct vfetch_gx_texture_desc desc;
                vfetch_gx_texture_desc_init(&desc);
                desc.setimage0 = (side - 1) | (side - 1) << 10 | (uint32_t)cfg->format << 20;
                desc.settlut = cfg->tlut < 0 ? 0 : (uint32_t)cfg->tlut << 10;
                vfetch_set_cpu_mask(levels[l].flags);
                vfetch_gx_texture_plan *plan;
                struct vfetch_gx_texture_info info;
                if (vfetch_gx_texture_compile(&desc, &plan) ||
                    vfetch_gx_texture_plan_info(plan, &info))
                    abort();
                /* a level only where the format has its own kernel there, as texel/ rows */
                const char *isa = strcmp(info.level, "c") ? info.level : "ref";
                if (strcmp(isa, levels[l].name)) {
                    vfetch_gx_texture_plan_free(plan);
                    continue;
                }
                struct gx_texture_job *job = calloc(1, sizeof *job);
                if (!job)
                    abort();
                job->plan = plan; /* freed at exit */
                job->width = job->height = side;
                job->source.data = cfg->opaque ? gx_texture_opaque_src : bench_src;
                job->source.size = info.source_bytes;
                job->source.palette = info.palette_entries ? gx_texture_palette : NULL;
                job->source.palette_size = (size_t)info.palette_entries * 2;
                char name[96];
                snprintf(name, sizeof name, "texture/gx-%s/%s/%ux%u", cfg->name, isa, side, side);
                bmc_register(name, bench_gx_texture, job);
                register_memcpy((size_t)side * side * 4);
            }
        }
    }
    vfetch_set_cpu_mask(~0u);
}

/* --callcost[=REGEX] (removed from argv): count instructions per call instead of timing
   (bmc_callcost; tools/callcost.sh). Returns the filter, or NULL when not asked. */
static const char *take_callcost(int *argc, char **argv)
{
    const char *filter = NULL;
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--callcost") == 0)
            filter = "^plan/";
        else if (strncmp(argv[i], "--callcost=", 11) == 0)
            filter = argv[i] + 11;
        else
            argv[kept++] = argv[i];
    }
    argv[kept] = NULL;
    *argc = kept;
    return filter;
}

/* Counted calls per benchmark: enough that the fixed cost of a short draw is exact to an
   instruction, few enough for callgrind (a benchmark name ends in its count). */
static int64_t callcost_calls(const char *name)
{
    const char *last = strrchr(name, '/');
    const long n = last ? strtol(last + 1, NULL, 10) : 0;
    return n <= 1 ? 1000 : n <= 16 ? 200 : n <= 256 ? 40 : 5;
}

/* The plans' source and output buffers start `offset` bytes past a 4 KiB boundary: 16 (where
   glibc's malloc puts a block this large, and 16 past a 64-byte line: half the 32-byte
   stores of a record cross a line, all the 64-byte ones), or what the environment variable
   `name` asks (0-4095), to measure how a path's speed moves with the placement
   (docs/benchmarks.md, "Regret rows"). NULL where out of memory; a bad value exits. */
static uint8_t *place_buffer(size_t bytes, const char *name)
{
    const char *env = getenv(name);
    char *end = NULL;
    const unsigned long offset = env && *env ? strtoul(env, &end, 0) : 16;
    if (env && *env && (*end || offset > 4095)) {
        fprintf(stderr, "vfetch_bench: %s=%s: bytes past a 4 KiB boundary, 0-4095\n", name, env);
        exit(2);
    }
    uint8_t *block = aligned_alloc(4096, bytes + 4096);
    return block ? block + offset : NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--jit-coverage") || !strcmp(argv[1], "--jit-tiers"))) {
        print_tiers = !strcmp(argv[1], "--jit-tiers");
        return print_jit_coverage();
    }
    const char *captures_dir = take_captures_dir(&argc, argv);
    const char *callcost = take_callcost(&argc, argv);
    if (callcost)
        plan_counts = callcost_counts;
    bench_src = place_buffer(SRC_BYTES, "VFETCH_BENCH_SRC_OFFSET");
    bench_out = place_buffer(OUT_BYTES, "VFETCH_BENCH_OUT_OFFSET");
    bench_copy = malloc(OUT_BYTES);
    if (!bench_src || !bench_out || !bench_copy)
        return 1;
    for (size_t i = 0; i < SRC_BYTES; i++)
        bench_src[i] = (uint8_t)rng();
    memset(bench_out, 0, OUT_BYTES);
    memset(bench_copy, 0, OUT_BYTES);
    make_bench_indices();

    register_kernels();
    register_plans();
    register_gx();
    register_maxwell();
    register_replay(captures_dir);
    register_texel();
    register_gx_texture();
    register_prim();
    register_prim_index();
    register_range();
    register_draw();
    bmc_register("compile/r300/-/-", bench_compile, NULL);
    bmc_register("compile/gx/-/-", bench_compile_gx, (void *)(intptr_t)COMPILE_GX);
    bmc_register("compile/gx-portable/-/-", bench_compile_gx, (void *)(intptr_t)COMPILE_GX_PORTABLE);
    bmc_register("compile/gx-allindexed/-/-", bench_compile_gx,
                 (void *)(intptr_t)COMPILE_GX_ALLINDEXED);
    bmc_register("compile/r300-state/-/-", bench_r300_state, NULL);
    vfetch_set_cpu_mask(~0u);
    /* on stderr: stdout is Google Benchmark's, e.g. --benchmark_format=json */
    fprintf(stderr, "vfetch %s, best level %s\n", vfetch_version(), vfetch_cpu_name());
    if (callcost)
        return bmc_callcost(callcost, callcost_calls);
    return bmc_main(argc, argv);
}
