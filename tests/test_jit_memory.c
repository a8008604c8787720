/*
 * The generated code's memory over an emulator's hours (lib/jit/exec_memory.c, docs/jit.md,
 * "Memory"): 20,000 plans compiled and freed (or the count given as the argument), a mix like
 * the benchmark's (GX formats direct and indexed in every layout and colour output, random ones
 * too; the benchmark's R300 and Maxwell register words; the sse41 and avx2 code), the live set
 * growing to a tenth of that (2,000 plans), shrinking to half of it and growing again, with
 * random frees all along (fixed seed). Every 500 operations /proc/self/maps must show no
 * mapping writable and executable; the arena's executable memory within 1.5x the live plans'
 * code plus a chunk while the live code is within a fifth of its peak so far, and within 1.5x
 * that peak plus a chunk always (code cannot move: after random frees the plans left are spread
 * over the chunks the peak filled, and a chunk goes back once its last plan is freed); and the
 * process's mappings bounded. The usage query must agree with the maps and with the plans' own
 * figures. With every plan freed the arena keeps at most its spare chunk, and compile/free
 * cycles then map nothing. The arena's blocks are also driven directly (alignment, runs across
 * bitmap words, trimming at seal, a plan larger than a chunk). Under VFETCH_JIT_MEMORY=mprotect
 * the query must count each plan's own pages. Builds without the JIT check the query's answer
 * there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jit/jit.h"
#include "testutil.h"
#include "vfetch/gx.h"
#include "vfetch/maxwell.h"
#include "vfetch/r300.h"
#include "vfetch/vfetch.h"

#if VFETCH_HAVE_JIT
/* the arena's shared chunk (lib/jit/exec_memory.c) */
#define CHUNK_BYTES (256u << 10)

#define CHECK_EVERY 500

static unsigned compiles_wanted = 20000, peak_plans = 2000;

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint32_t rnd(void)
{
    return test_random(&rng_state);
}

static uint32_t rnd_below(uint32_t n)
{
    return rnd() % n;
}

/* ---- /proc/self/maps ---- */

struct maps {
    unsigned mappings;      /* every line */
    unsigned wx;            /* writable and executable at once */
    unsigned arena_rx;      /* the arena's execute views */
    unsigned arena_rw;      /* and its write views */
    uint64_t arena_rx_bytes;
    uint64_t arena_rx_first, arena_rx_end; /* the last execute view's addresses */
    uint64_t anon_rx_bytes; /* executable and nameless: pages sealed by mprotect */
    unsigned anon_rx;       /* and how many such mappings */
};

static struct maps read_maps(void)
{
    struct maps m = { 0 };
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f != NULL);
    if (!f)
        return m;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[8] = { 0 };
        int name_at = 0;
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &lo, &hi, perms, &name_at) < 3)
            continue;
        const char *name = line + name_at;
        m.mappings++;
        m.wx += perms[1] == 'w' && perms[2] == 'x';
        const int arena = strstr(name, "/memfd:vfetch-jit") != NULL;
        if (arena && !strncmp(perms, "r-x", 3)) {
            m.arena_rx++;
            m.arena_rx_bytes += hi - lo;
            m.arena_rx_first = lo;
            m.arena_rx_end = hi;
        }
        m.arena_rw += arena && !strncmp(perms, "rw-", 3);
        if (!strncmp(perms, "r-xp", 4) && (name[0] == '\n' || name[0] == 0)) {
            m.anon_rx_bytes += hi - lo;
            m.anon_rx++;
        }
    }
    fclose(f);
    return m;
}

/* ---- the plans ---- */

enum kind { KIND_GX, KIND_R300, KIND_MAXWELL };

struct format {
    enum kind kind;
    unsigned cpu_mask;
    struct vfetch_gx_desc gx;
    struct vfetch_r300_desc r300;
    struct vfetch_maxwell_desc maxwell;
};

struct live_plan {
    enum kind kind;
    void *plan;
    uint32_t code_bytes; /* 0: no generated code */
    uint64_t address;    /* where the code runs */
};

/* The benchmark's GX configs (bench/vfetch_bench.c gx_configs): VCD_LO/HI, VAT A/B/C, and the
   strides of its indexed arrays. */
static const struct {
    struct vfetch_gx_regs regs;
    uint8_t pos_stride, color0_stride, all_indexed;
} gx_configs[] = {
    { { 1u << 9 | 1u << 11 | 1u << 13, 1,
        1 | 3u << 1 | 8u << 4 | 1u << 10 | 1u << 13 | 5u << 14 | 1u << 21 | 3u << 22 | 10u << 25 |
            1u << 30,
        1u << 31, 0 }, 0, 0, 0 },
    { { 1u << 9 | 1u << 11, 1, 1 | 4u << 1 | 4u << 10 | 1u << 21 | 4u << 22 | 1u << 30, 1u << 31,
        0 }, 0, 0, 0 },
    { { 3u << 9 | 2u << 13, 0, 1 | 4u << 1 | 0u << 14 | 1u << 30, 1u << 31, 0 }, 12, 2, 0 },
    { { 1u << 9 | 1u << 13, 0, 1 | 4u << 1 | 0u << 14 | 1u << 30, 1u << 31, 0 }, 0, 0, 0 },
    { { 1u << 9, 1, 1 | 0u << 1 | 2u << 4 | 1u << 21 | 0u << 22 | 7u << 25 | 1u << 30, 1u << 31,
        0 }, 0, 0, 0 },
    { { 0x1ffu | 3u << 9 | 3u << 11 | 3u << 13 | 3u << 15, 0xffff,
        1 | 4u << 1 | 1u << 9 | 4u << 10 | 1u << 13 | 5u << 14 | 1u << 17 | 5u << 18 | 1u << 21 |
            4u << 22 | 1u << 30,
        1 | 4u << 1 | 1u << 9 | 4u << 10 | 1u << 18 | 4u << 19 | 1u << 27 | 4u << 28 | 1u << 31,
        1u << 5 | 4u << 6 | 1u << 14 | 4u << 15 | 1u << 23 | 4u << 24 }, 0, 0, 1 },
};
static const uint8_t gx_all_stride[VFETCH_GX_NUM_ATTRS] = { 12, 36, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8 };

/* A random GX format (as checkasm's): each attribute present with some chance, direct or
   indexed, random VAT words and strides, any layout and colour output. */
static void random_gx_desc(struct vfetch_gx_desc *d)
{
    vfetch_gx_desc_init(d);
    uint32_t lo = 0, hi = 0;
    for (unsigned b = 0; b < 9; b++)
        lo |= (uint32_t)(rnd_below(4) == 0) << b;
    for (unsigned a = 0; a < 4; a++)
        lo |= rnd_below(a == 0 ? 4 : 5) % 4 << (9 + 2 * a);
    for (unsigned t = 0; t < 8; t++)
        hi |= (rnd_below(3) == 0 ? rnd_below(4) : 0) << (2 * t);
    d->regs.vcd_lo = lo;
    d->regs.vcd_hi = hi;
    d->regs.vat_a = rnd() ^ rnd() << 16;
    d->regs.vat_b = rnd() ^ rnd() << 16;
    d->regs.vat_c = rnd() ^ rnd() << 16;
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
        d->array_stride[a] = (uint8_t)(4 * rnd_below(12));
    d->layout = (enum vfetch_gx_layout)rnd_below(5);
    d->color_output = (enum vfetch_gx_color_output)rnd_below(2);
}

/* The benchmark's R300 configs (bench/vfetch_bench.c r300_configs): PROG_STREAM_CNTL elements
   (type, DST_VEC_LOC, LAST_VEC, signed, normalized, skip) and the vertex's dwords. */
#define EL(type, loc, last, sgn, norm, skip)                                                \
    ((uint32_t)(type) | (uint32_t)(skip) << 4 | (uint32_t)(loc) << 8 |                      \
     (uint32_t)(last) << 13 | (uint32_t)(sgn) << 14 | (uint32_t)(norm) << 15)
static const struct {
    uint32_t elements[4];
    unsigned num_elements, vtx_dwords;
    int immediate;
} r300_configs[] = {
    { { EL(2, 0, 0, 0, 0, 0), EL(7, 1, 0, 1, 1, 0), EL(5, 2, 0, 0, 1, 0), EL(11, 3, 1, 0, 0, 0) }, 4, 7, 0 },
    { { EL(2, 0, 0, 0, 0, 0), EL(1, 1, 1, 0, 0, 0) }, 2, 5, 0 },
    { { EL(4, 0, 1, 0, 1, 0) }, 1, 1, 0 },
    { { EL(6, 0, 0, 1, 0, 0), EL(4, 1, 1, 1, 1, 0) }, 2, 2, 0 },
    { { EL(2, 0, 0, 0, 0, 0), EL(4, 1, 0, 0, 0, 0), EL(4, 2, 0, 0, 1, 0), EL(8, 3, 1, 1, 1, 0) }, 4, 6, 0 },
    { { EL(10, 0, 1, 0, 0, 0) }, 1, 8, 0 },
    { { EL(2, 0, 0, 0, 0, 1), EL(5, 1, 1, 0, 1, 0) }, 2, 5, 1 },
};

/* The benchmark's Maxwell configs (bench/vfetch_bench.c maxwell_configs): SET_VERTEX_ATTRIBUTE
   words (stream, offset, size, type), the stream's stride, system values, padding. */
#define MW(stream, offset, size, type) ((stream) | (offset) << 7 | (size) << 21 | (type) << 27)
static const struct {
    uint32_t attribute[4], stride;
    int system_values;
    uint32_t out_stride;
} maxwell_configs[] = {
    { { MW(0, 0, 0x02, 7), MW(0, 12, 0x30, 1), MW(0, 16, 0x0f, 7), MW(0, 20, 0x0a, 2) }, 24, 0, 0 },
    { { MW(0, 0, 0x02, 7), MW(0, 12, 0x0a, 4), MW(0, 16, 0x0a, 2), MW(0, 20, 0x0f, 2) }, 24, 0, 0 },
    { { MW(0, 0, 0x02, 7), MW(0, 12, 0x0a, 2), 0x40, MW(1, 0, 0x01, 7) }, 16, 1, 64 },
};

#define MAX_FORMATS 256
static struct format formats[MAX_FORMATS];
static unsigned num_formats;

static int compile(const struct format *f, struct live_plan *p)
{
    vfetch_set_cpu_mask(f->cpu_mask);
    struct vfetch_plan_info info;
    int rc;
    p->kind = f->kind;
    p->plan = NULL;
    if (f->kind == KIND_GX) {
        vfetch_gx_plan *plan;
        rc = vfetch_gx_compile(&f->gx, &plan);
        if (!rc) {
            p->plan = plan;
            rc = vfetch_gx_plan_info(plan, &info);
        }
    } else if (f->kind == KIND_R300) {
        vfetch_plan *plan;
        rc = vfetch_r300_compile(&f->r300, &plan);
        if (!rc) {
            p->plan = plan;
            rc = vfetch_plan_info(plan, &info);
        }
    } else {
        vfetch_maxwell_plan *plan;
        rc = vfetch_maxwell_compile(&f->maxwell, &plan);
        if (!rc) {
            p->plan = plan;
            rc = vfetch_plan_info(vfetch_maxwell_plan_converter(plan), &info);
        }
    }
    p->code_bytes = rc == 0 && info.jit ? info.jit_code_bytes : 0;
    struct vfetch_jit_code_view view = { 0 };
    if (!rc && f->kind == KIND_GX)
        rc = vfetch_gx_plan_jit_code(p->plan, &view);
    else if (!rc)
        rc = vfetch_plan_jit_code(f->kind == KIND_R300 ? p->plan
                                                       : vfetch_maxwell_plan_converter(p->plan),
                                  &view);
    p->address = view.address;
    return rc;
}

static void release(struct live_plan *p)
{
    if (p->kind == KIND_GX)
        vfetch_gx_plan_free(p->plan);
    else if (p->kind == KIND_R300)
        vfetch_plan_free(p->plan);
    else
        vfetch_maxwell_plan_free(p->plan);
    p->plan = NULL;
}

static void add_format(const struct format *f)
{
    if (num_formats == MAX_FORMATS)
        return;
    struct live_plan p;
    if (compile(f, &p))
        return; /* a random GX format the parser refuses */
    const int has_code = p.code_bytes != 0;
    release(&p);
    if (has_code)
        formats[num_formats++] = *f;
}

/* Every benchmark config in every layout and colour output, random GX formats, at the best
   level and at sse41 (whose code is longer) where the CPU has both. */
static void build_formats(void)
{
    unsigned masks[2] = { ~0u, VFETCH_CPU_SSE41 };
    const unsigned num_masks = (vfetch_cpu_flags() & VFETCH_CPU_AVX2) ? 2 : 1;
    for (unsigned m = 0; m < num_masks; m++) {
        struct format f;
        memset(&f, 0, sizeof f);
        f.cpu_mask = masks[m];
        f.kind = KIND_GX;
        for (size_t c = 0; c < sizeof gx_configs / sizeof gx_configs[0]; c++)
            for (unsigned layout = 0; layout < 5; layout++)
                for (unsigned color = 0; color < 2; color++) {
                    vfetch_gx_desc_init(&f.gx);
                    f.gx.regs = gx_configs[c].regs;
                    f.gx.array_stride[VFETCH_GX_POSITION] = gx_configs[c].pos_stride;
                    f.gx.array_stride[VFETCH_GX_COLOR0] = gx_configs[c].color0_stride;
                    if (gx_configs[c].all_indexed)
                        memcpy(f.gx.array_stride, gx_all_stride, sizeof gx_all_stride);
                    f.gx.layout = (enum vfetch_gx_layout)layout;
                    f.gx.color_output = (enum vfetch_gx_color_output)color;
                    add_format(&f);
                }
        for (unsigned r = 0; r < 40; r++) {
            random_gx_desc(&f.gx);
            add_format(&f);
        }
        f.kind = KIND_R300;
        for (size_t c = 0; c < sizeof r300_configs / sizeof r300_configs[0]; c++) {
            vfetch_r300_desc_init(&f.r300);
            for (unsigned e = 0; e < r300_configs[c].num_elements; e++)
                f.r300.prog_stream_cntl[e / 2] |= r300_configs[c].elements[e] << (16 * (e & 1));
            if (r300_configs[c].immediate) {
                f.r300.vtx_size_dwords = r300_configs[c].vtx_dwords;
            } else {
                f.r300.num_arrays = 1;
                f.r300.arrays[0].stride_dwords = r300_configs[c].vtx_dwords;
                f.r300.arrays[0].count_dwords = r300_configs[c].vtx_dwords;
            }
            add_format(&f);
        }
        f.kind = KIND_MAXWELL;
        for (size_t c = 0; c < sizeof maxwell_configs / sizeof maxwell_configs[0]; c++)
            for (int full = 0; full < 2; full++) {
                struct vfetch_maxwell_desc *d = &f.maxwell;
                vfetch_maxwell_desc_init(d);
                for (unsigned i = 0; i < 4; i++)
                    d->attribute[i] = maxwell_configs[c].attribute[i];
                d->stream_format[0] = maxwell_configs[c].stride | 1u << 12;
                d->stream_format[1] = 16 | 1u << 12;
                d->stream_instance[1] = 1;
                d->stream_frequency[1] = 1;
                if (maxwell_configs[c].system_values) {
                    for (unsigned i = 0; i < 4; i++)
                        if (!(maxwell_configs[c].attribute[i] & 0x40))
                            for (unsigned k = 0; k < 4; k++)
                                vfetch_aam_map_add(&d->input_bmap,
                                                   VFETCH_AAM_GENERIC_0 + 4 * i + k);
                    vfetch_aam_map_add(&d->input_bmap, VFETCH_AAM_VERTEX_ID);
                    vfetch_aam_map_add(&d->input_bmap, VFETCH_AAM_INSTANCE_ID);
                }
                d->layout = full ? VFETCH_MAXWELL_LAYOUT_FULL : VFETCH_MAXWELL_LAYOUT_COMPACT;
                d->out_stride = full ? 0 : maxwell_configs[c].out_stride;
                add_format(&f);
            }
    }
    vfetch_set_cpu_mask(~0u);
}

/* ---- the checkpoints ---- */

static struct live_plan *live;
static unsigned num_live;
static uint64_t live_code;      /* the live plans' code bytes */
static uint64_t peak_live_code; /* their most so far */

struct figures {
    unsigned peak_plans;
    uint64_t peak_mapped_bytes, peak_chunks;
    double worst_near_peak; /* mapped / live where the live code is within a fifth of its peak */
    double worst;           /* and anywhere with a chunk of code or more */
    unsigned start_mappings, most_mappings;
};

static const char *method;
static int arena;

static void checkpoint(struct figures *fig, unsigned op)
{
    struct vfetch_jit_memory_usage u;
    CHECK_EQ(vfetch_jit_memory_usage(&u), VFETCH_OK);
    const struct maps m = read_maps();
    const uint64_t code = live_code;
    unsigned with_code = 0;
    for (unsigned i = 0; i < num_live; i++)
        with_code += live[i].code_bytes != 0;
    /* (a) never writable and executable at once */
    CHECK_EQ(m.wx, 0);
    /* the query against the plans' own figures and against the maps */
    CHECK(strcmp(u.method, method) == 0);
    CHECK_EQ(u.live_plans, with_code);
    CHECK_EQ(u.live_bytes, code);
    if (arena) {
        CHECK_EQ(u.own_mappings, 0);
        CHECK_EQ(u.mapped_bytes, m.arena_rx_bytes);
        CHECK_EQ(u.chunks, m.arena_rx);
        CHECK_EQ(u.chunks, m.arena_rw);
        CHECK(u.spare_chunks <= 1);
        CHECK((uint64_t)u.live_blocks * 64 >= u.live_bytes);
        /* (b) the arena's executable memory follows the live code near its peak, and never
           exceeds what the peak needed (freed blocks are taken before a chunk is mapped) */
        const int near_peak = code * 5 >= peak_live_code * 4;
        if (near_peak)
            CHECK(m.arena_rx_bytes * 2 <= code * 3 + 2 * (uint64_t)CHUNK_BYTES);
        CHECK(m.arena_rx_bytes * 2 <= peak_live_code * 3 + 2 * (uint64_t)CHUNK_BYTES);
        /* (c) the generated code's mappings stay bounded: two views a chunk, and chunks no
           more than the bytes mapped need (the process's other mappings, a sanitizer's heap
           among them, are not the arena's to bound) */
        CHECK_EQ(m.arena_rx, m.arena_rw);
        CHECK(m.arena_rx <= m.arena_rx_bytes / CHUNK_BYTES + 2);
    } else {
        CHECK_EQ(u.chunks, 0);
        CHECK_EQ(u.own_mappings, with_code);
        CHECK_EQ(u.mapped_bytes, m.anon_rx_bytes);
        CHECK(m.anon_rx <= u.own_mappings); /* (adjacent sealed pages may share a mapping) */
    }
    const double ratio = code ? (double)u.mapped_bytes / (double)code : 0;
    if (code * 5 >= peak_live_code * 4 && code >= CHUNK_BYTES && ratio > fig->worst_near_peak)
        fig->worst_near_peak = ratio;
    if (code >= CHUNK_BYTES && ratio > fig->worst)
        fig->worst = ratio;
    if (num_live > fig->peak_plans)
        fig->peak_plans = num_live;
    if (u.mapped_bytes > fig->peak_mapped_bytes)
        fig->peak_mapped_bytes = u.mapped_bytes;
    if (u.chunks > fig->peak_chunks)
        fig->peak_chunks = u.chunks;
    if (m.mappings > fig->most_mappings)
        fig->most_mappings = m.mappings;
    if (getenv("VFETCH_TEST_VERBOSE"))
        printf("op %6u: %4u plans, %8llu code bytes, %8llu mapped (%.2fx), %u chunks, %u maps\n",
               op, num_live, (unsigned long long)code, (unsigned long long)u.mapped_bytes,
               code ? (double)u.mapped_bytes / (double)code : 0.0, u.chunks, m.mappings);
}

/* The live set the run aims at after `compiles` compiles: up to the peak, down to half of it,
   up again, then churning at the peak. */
static unsigned target_plans(unsigned compiles)
{
    if (compiles < compiles_wanted / 4 || compiles >= compiles_wanted * 9 / 20)
        return peak_plans;
    return peak_plans / 2;
}

static void free_live(unsigned i)
{
    live_code -= live[i].code_bytes;
    release(&live[i]);
    live[i] = live[--num_live];
}

static void run_plans(void)
{
    struct figures fig = { 0 };
    fig.start_mappings = read_maps().mappings;
    unsigned compiles = 0, op = 0;
    while (compiles < compiles_wanted) {
        /* towards the target, with random frees (and compiles past it) all along */
        const unsigned target = target_plans(compiles);
        const unsigned compile_chance = num_live < target ? 3 : 1; /* in 4 */
        if (num_live == 0 || (num_live < 2 * peak_plans && rnd_below(4) < compile_chance)) {
            if (compile(&formats[rnd_below(num_formats)], &live[num_live]) == 0) {
                CHECK(live[num_live].code_bytes != 0); /* every format kept has code */
                live_code += live[num_live].code_bytes;
                if (live_code > peak_live_code)
                    peak_live_code = live_code;
                num_live++;
            }
            compiles++;
        } else {
            free_live(rnd_below(num_live));
        }
        if (++op % CHECK_EVERY == 0)
            checkpoint(&fig, op);
    }
    checkpoint(&fig, op);
    while (num_live)
        free_live(rnd_below(num_live));
    vfetch_set_cpu_mask(~0u);
    checkpoint(&fig, op);

    /* every plan freed: at most the spare chunk is left, and compile/free cycles reuse it */
    struct vfetch_jit_memory_usage u;
    CHECK_EQ(vfetch_jit_memory_usage(&u), VFETCH_OK);
    CHECK_EQ(u.live_bytes, 0);
    CHECK_EQ(u.live_plans, 0);
    CHECK_EQ(u.live_blocks, 0);
    CHECK_EQ(u.own_mappings, 0);
    if (arena) {
        CHECK(u.chunks <= 1);
        CHECK_EQ(u.spare_chunks, u.chunks);
        CHECK(u.mapped_bytes <= CHUNK_BYTES);
    } else {
        CHECK_EQ(u.mapped_bytes, 0);
    }
    const struct maps before = read_maps();
    for (unsigned i = 0; i < 100; i++) {
        struct live_plan p;
        CHECK_EQ(compile(&formats[i % num_formats], &p), VFETCH_OK);
        if (arena && before.arena_rx) /* in the spare, not a chunk mapped for it */
            CHECK(p.address >= before.arena_rx_first && p.address < before.arena_rx_end);
        release(&p);
    }
    vfetch_set_cpu_mask(~0u);
    const struct maps after = read_maps();
    if (arena) {
        CHECK_EQ(before.arena_rx, 1);
        CHECK_EQ(after.arena_rx, 1);
        CHECK_EQ(after.arena_rx_first, before.arena_rx_first);
    }
    CHECK_EQ(after.wx, 0);

    printf("jit-memory (%s): %u formats, %u compiles; peak %u live plans, %llu bytes of code; "
           "at most %llu bytes mapped (%llu chunks); mapped/live at worst %.2fx near the peak, "
           "%.2fx anywhere (with a chunk of code or more); mappings %u at start, %u at most; at "
           "the end %u chunk(s), %llu bytes mapped\n",
           method, num_formats, compiles, fig.peak_plans, (unsigned long long)peak_live_code,
           (unsigned long long)fig.peak_mapped_bytes, (unsigned long long)fig.peak_chunks,
           fig.worst_near_peak, fig.worst, fig.start_mappings, fig.most_mappings, u.chunks,
           (unsigned long long)u.mapped_bytes);
}

/* The arena's blocks driven directly: 64-byte alignment, runs that cross the bitmap's words,
   blocks past what seal kept given back, a code larger than a chunk in a chunk of its own. */
static void run_blocks(void)
{
    struct vfetch_jit_memory_usage before, u;
    CHECK_EQ(vfetch_jit_memory_usage(&before), VFETCH_OK);
    static const size_t sizes[] = { 1, 63, 64, 65, 700, 64 * 64 - 1, 64 * 64, 64 * 64 + 1,
                                    3 * 64 * 64 + 5, 40000, 100000, 0 };
    enum { N = sizeof sizes / sizeof sizes[0] };
    struct vfetch_jit_code codes[N];
    for (unsigned i = 0; i < N; i++) {
        uint8_t *rw, *rx;
        CHECK_EQ(vfetch_jit_memory_open(sizes[i], &rw, &rx, &codes[i]), VFETCH_OK);
        CHECK_EQ((uintptr_t)rx % 64, 0);
        CHECK(codes[i].mapping_bytes >= sizes[i]);
        CHECK(codes[i].mapping_bytes < sizes[i] + 64 || sizes[i] == 0);
        memset(rw, 0xc3, sizes[i]); /* ret */
        CHECK_EQ(vfetch_jit_memory_seal(&codes[i], sizes[i]), VFETCH_OK);
        /* no two codes share a block */
        for (unsigned j = 0; j < i; j++) {
            const uint8_t *a = codes[i].mapping, *b = codes[j].mapping;
            CHECK(a + codes[i].mapping_bytes <= b || b + codes[j].mapping_bytes <= a);
        }
    }
    /* the bytes written are there in the execute view */
    for (unsigned i = 0; i < N; i++)
        if (sizes[i])
            CHECK_EQ(((const uint8_t *)codes[i].mapping)[sizes[i] - 1], 0xc3);
    CHECK_EQ(vfetch_jit_memory_usage(&u), VFETCH_OK);
    uint64_t sum = 0;
    for (unsigned i = 0; i < N; i++)
        sum += sizes[i];
    CHECK_EQ(u.live_bytes - before.live_bytes, sum);
    CHECK_EQ(u.live_plans - before.live_plans, N);

    /* a freed run is found again, first fit: the same address */
    uint8_t *rw, *rx;
    void *was = codes[8].mapping;
    vfetch_jit_memory_free(&codes[8]);
    CHECK_EQ(vfetch_jit_memory_open(sizes[8], &rw, &rx, &codes[8]), VFETCH_OK);
    CHECK(codes[8].mapping == was);
    CHECK_EQ(vfetch_jit_memory_seal(&codes[8], sizes[8]), VFETCH_OK);

    /* seal keeps the blocks written and gives back the rest */
    struct vfetch_jit_code wide;
    CHECK_EQ(vfetch_jit_memory_open(20000, &rw, &rx, &wide), VFETCH_OK);
    CHECK_EQ(wide.mapping_bytes, 20032);
    CHECK_EQ(vfetch_jit_memory_usage(&u), VFETCH_OK);
    const uint32_t blocks_open = u.live_blocks;
    memset(rw, 0xc3, 1000);
    CHECK_EQ(vfetch_jit_memory_seal(&wide, 1000), VFETCH_OK);
    CHECK_EQ(wide.mapping_bytes, 1024);
    CHECK_EQ(vfetch_jit_memory_usage(&u), VFETCH_OK);
    CHECK_EQ(blocks_open - u.live_blocks, (20032 - 1024) / 64);

    /* larger than a chunk: a chunk of its own, two views, gone when freed */
    struct vfetch_jit_code big;
    const struct maps maps_before = read_maps();
    CHECK_EQ(vfetch_jit_memory_open(CHUNK_BYTES + 100, &rw, &rx, &big), VFETCH_OK);
    CHECK(big.writable != NULL);
    CHECK_EQ((uintptr_t)rx % 64, 0);
    memset(rw, 0xc3, CHUNK_BYTES + 100);
    CHECK_EQ(vfetch_jit_memory_seal(&big, CHUNK_BYTES + 100), VFETCH_OK);
    const struct maps maps_big = read_maps();
    CHECK_EQ(maps_big.arena_rx, maps_before.arena_rx + 1);
    CHECK_EQ(maps_big.arena_rw, maps_before.arena_rw + 1);
    CHECK_EQ(maps_big.arena_rx_bytes - maps_before.arena_rx_bytes, big.mapping_bytes);
    CHECK(big.mapping_bytes >= CHUNK_BYTES + 100);
    CHECK(big.mapping_bytes < CHUNK_BYTES + 100 + 4096 * 16); /* pages of any size to 64 KiB */
    CHECK_EQ(vfetch_jit_memory_usage(&u), VFETCH_OK);
    CHECK_EQ(u.own_mappings, 0);
    vfetch_jit_memory_free(&big);
    /* and sealed shorter than it asked for, its pages past the bytes kept go back */
    CHECK_EQ(vfetch_jit_memory_open(2 * CHUNK_BYTES, &rw, &rx, &big), VFETCH_OK);
    memset(rw, 0xc3, CHUNK_BYTES + 100);
    CHECK_EQ(vfetch_jit_memory_seal(&big, CHUNK_BYTES + 100), VFETCH_OK);
    CHECK_EQ(read_maps().arena_rx_bytes - maps_before.arena_rx_bytes, big.mapping_bytes);
    CHECK(big.mapping_bytes < CHUNK_BYTES + 100 + 4096 * 16);
    CHECK_EQ(((const uint8_t *)big.mapping)[CHUNK_BYTES + 99], 0xc3);
    vfetch_jit_memory_free(&big);
    const struct maps maps_after = read_maps();
    CHECK_EQ(maps_after.arena_rx, maps_before.arena_rx);
    CHECK_EQ(maps_after.arena_rx_bytes, maps_before.arena_rx_bytes);

    vfetch_jit_memory_free(&wide);
    for (unsigned i = 0; i < N; i++)
        vfetch_jit_memory_free(&codes[i]);
    CHECK_EQ(vfetch_jit_memory_usage(&u), VFETCH_OK);
    CHECK_EQ(u.live_bytes, before.live_bytes);
    CHECK_EQ(u.live_plans, before.live_plans);
    CHECK_EQ(u.live_blocks, before.live_blocks);
    CHECK_EQ(u.chunks, before.chunks);
}
#endif

int main(int argc, char **argv)
{
    struct vfetch_jit_memory_usage u;
    memset(&u, 0xa5, sizeof u);
    CHECK_EQ(vfetch_jit_memory_usage(NULL), VFETCH_EINVAL);
#if !VFETCH_HAVE_JIT
    /* no JIT in this build: the query answers all the same */
    (void)argc;
    (void)argv;
    CHECK_EQ(vfetch_jit_memory_usage(&u), VFETCH_OK);
    CHECK(strcmp(u.method, "none") == 0);
    CHECK_EQ(u.mapped_bytes, 0);
    CHECK_EQ(u.live_bytes, 0);
    CHECK_EQ(u.live_plans + u.chunks + u.spare_chunks + u.live_blocks + u.own_mappings, 0);
    CHECK_EQ(vfetch_jit_available(), 0);
    return test_summary("jit-memory");
#else
    if (!vfetch_jit_available()) {
        CHECK_EQ(vfetch_jit_memory_usage(&u), VFETCH_OK);
        CHECK(strcmp(u.method, "none") == 0);
        printf("jit-memory: this process gets no executable memory: skipped\n");
        return test_failures ? 1 : 77;
    }
    if (argc > 1) {
        char *end;
        const unsigned long n = strtoul(argv[1], &end, 10);
        if (*end || n < 1000 || n > 1000000) {
            fprintf(stderr, "usage: %s [compiles, 1000 to 1000000]\n", argv[0]);
            return 2;
        }
        compiles_wanted = (unsigned)n;
        peak_plans = compiles_wanted / 10;
    }
    live = calloc(2 * (size_t)peak_plans, sizeof *live);
    CHECK(live != NULL);
    if (!live)
        return test_summary("jit-memory");
    vfetch_set_jit_mode(VFETCH_JIT_ON);
    build_formats();
    if (num_formats == 0) {
        printf("jit-memory: no plan gets generated code on this CPU (sse41 needed): skipped\n");
        return test_failures ? 1 : 77;
    }
    method = vfetch_jit_memory_method();
    arena = !strcmp(method, "arena");
    CHECK_EQ(vfetch_jit_memory_usage(&u), VFETCH_OK);
    CHECK(strcmp(u.method, method) == 0);
    if (arena)
        run_blocks();
    run_plans();
    free(live);
    return test_summary("jit-memory");
#endif
}
