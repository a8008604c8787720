/*
 * Regression tests for the run's internal bounds, at every ISA level this machine has:
 *
 *  - the record program's stage: formats whose streams hold bytes the program never loads
 *    (a component whose slots a later element overwrites, an element with write mask 0),
 *    drawn with counts that fill the stage to its last byte, indexed (every group staged) and
 *    direct from a stride-0 array smaller than a window. Before the fix the last record copied
 *    into the stage ran up to 8 bytes past it; with -Dguard_stages=true (the test builds) or
 *    AddressSanitizer that is a crash;
 *  - sizes that wrap a 32-bit size_t: 2^20 + 1 indices into a stream of stride 4096;
 *  - the index sum near INT64_MAX and INT64_MIN (saturates, never overflows);
 *  - staging of records whose components sit far into the record (only the bytes read are
 *    copied, addressed from below the stage).
 *
 * Every output equals the scalar reference byte for byte and, where the values are simple,
 * the hand-computed floats. Output buffers end at guard pages.
 */
#include <stdlib.h>

#include "guard.h"
#include "testutil.h"
#include "vfetch/r300.h"

#define CANARY 0x5A

/* The levels to run: the reference first, then every distinct level the CPU allows. */
static const unsigned level_masks[] = { 0, VFETCH_CPU_SSE2, 0x3, 0x7, 0xf, VFETCH_CPU_NEON };
#define NUM_LEVELS (sizeof level_masks / sizeof level_masks[0])

/* Whether mask m selects a level no earlier mask selected (so each level runs once). */
static int level_is_new(unsigned m)
{
    vfetch_set_cpu_mask(level_masks[m]);
    const char *name = vfetch_cpu_name();
    for (unsigned k = 0; k < m; k++) {
        vfetch_set_cpu_mask(level_masks[k]);
        const int same = strcmp(vfetch_cpu_name(), name) == 0;
        vfetch_set_cpu_mask(level_masks[m]);
        if (same)
            return 0;
    }
    return 1;
}

/* Run, and compare with the reference's output of the same params; returns the output. */
static void run_vs_reference(const vfetch_plan *plan, const vfetch_plan *ref,
                             struct vfetch_run_params *p, const char *what, unsigned count)
{
    uint8_t *want = malloc(p->out_size ? p->out_size : 1);
    memset(p->out, CANARY, p->out_size);
    memset(want, CANARY, p->out_size);
    void *out = p->out;
    p->out = want;
    const int ref_err = vfetch_run(ref, p);
    p->out = out;
    const int err = vfetch_run(plan, p);
    CHECK_EQ(ref_err, VFETCH_OK);
    CHECK_EQ(err, VFETCH_OK);
    test_checks++;
    if (memcmp(p->out, want, p->out_size) != 0) {
        test_failures++;
        fprintf(stderr, "%s, %u vertices at %s: output differs from the reference\n", what, count,
                vfetch_cpu_name());
    }
    free(want);
}

/*
 * Element 0 FLOAT_1 -> DST_VEC_LOC 0 with SKIP_DWORDS 4, element 1 FLOAT_1 at dword 5 -> loc 1
 * with an EXT write enable of 0 (LAST_VEC): the array's records are 24 bytes, of which the
 * record program loads bytes 0..3 only.
 */
static struct vfetch_r300_desc stage_format(unsigned stride_dwords, unsigned count_dwords,
                                            enum vfetch_r300_layout layout)
{
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    const uint32_t el0 = 0x0040;                   /* FLOAT_1, SKIP_DWORDS 4, loc 0 */
    const uint32_t el1 = 0x2000 | 1u << 8;         /* FLOAT_1, loc 1, LAST_VEC */
    d.prog_stream_cntl[0] = el0 | el1 << 16;
    const uint32_t xyzw = 0 | 1u << 3 | 2u << 6 | 3u << 9;
    d.prog_stream_cntl_ext[0] = (xyzw | 0xfu << 12) | (xyzw << 16); /* element 1: enable 0 */
    d.num_arrays = 1;
    d.arrays[0].stride_dwords = stride_dwords;
    d.arrays[0].count_dwords = count_dwords;
    d.layout = layout;
    return d;
}

/* Vertex v of the output: loc 0 = (value, 0, 0, 1); loc 1 (element 1, masked) untouched. */
static void check_stage_values(const uint8_t *out, unsigned count, uint32_t stride, float value,
                               const char *what)
{
    for (unsigned v = 0; v < count; v++) {
        float got[4];
        memcpy(got, out + (size_t)v * stride, sizeof got);
        const float want[4] = { value, 0.0f, 0.0f, 1.0f };
        test_checks++;
        if (memcmp(got, want, sizeof got) != 0) {
            test_failures++;
            fprintf(stderr, "%s: vertex %u of %u = (%g %g %g %g) at %s\n", what, v, count,
                    (double)got[0], (double)got[1], (double)got[2], (double)got[3],
                    vfetch_cpu_name());
            return;
        }
    }
}

/*
 * One stage case: R300 words, the draw of `count` vertices (setup binds its streams and index
 * buffer), and what its output must hold (check). stage_sweep runs it at every level for the
 * counts 1, 1 + step, ... below 500, then every count up to max_count (where the staged span
 * ends near the stage's end at every group size), each output ending at a guard page and
 * compared with the reference.
 */
struct stage_case {
    const char *what;
    struct vfetch_r300_desc desc;
    unsigned max_count, step;
    void (*setup)(struct vfetch_run_params *p, unsigned count, void *ctx);
    void (*check)(const uint8_t *out, unsigned count, uint32_t stride, void *ctx);
    void *ctx;
};

static void stage_sweep(const struct stage_case *c)
{
    vfetch_plan *ref = NULL;
    vfetch_set_cpu_mask(0);
    CHECK_EQ(vfetch_r300_compile(&c->desc, &ref), VFETCH_OK);
    if (!ref)
        return;
    const uint32_t stride = vfetch_plan_out_stride(ref);
    uint8_t *out = guard_alloc_tail((size_t)c->max_count * stride);
    for (unsigned m = 0; m < NUM_LEVELS; m++) {
        if (!level_is_new(m))
            continue;
        vfetch_plan *plan = NULL;
        CHECK_EQ(vfetch_r300_compile(&c->desc, &plan), VFETCH_OK);
        for (unsigned count = 1; plan && count <= c->max_count; count += count < 500 ? c->step : 1) {
            struct vfetch_run_params p;
            vfetch_run_params_init(&p);
            c->setup(&p, count, c->ctx);
            p.count = count;
            p.out = out + (size_t)(c->max_count - count) * stride; /* ends at the guard page */
            p.out_size = (size_t)count * stride;
            run_vs_reference(plan, ref, &p, c->what, count);
            c->check(p.out, count, stride, c->ctx);
        }
        vfetch_plan_free(plan);
    }
    guard_free(out);
    vfetch_plan_free(ref);
    vfetch_set_cpu_mask(~0u);
}

/* The stage filled to its end by indexed draws (every group staged through it): every index
   0, one 24-byte record. */
struct indexed_ctx {
    struct vfetch_binding bind;
    const uint16_t *idx;
    size_t idx_size;
    float value;
};

static void indexed_setup(struct vfetch_run_params *p, unsigned count, void *ctx)
{
    const struct indexed_ctx *x = ctx;
    (void)count;
    p->streams = &x->bind;
    p->num_streams = 1;
    p->indices = x->idx;
    p->index_type = VFETCH_INDEX_U16;
    p->indices_size = x->idx_size;
}

static void indexed_check(const uint8_t *out, unsigned count, uint32_t stride, void *ctx)
{
    check_stage_values(out, count, stride, ((const struct indexed_ctx *)ctx)->value,
                       "indexed stage");
}

static void test_stage_indexed(void)
{
    enum { MAX_COUNT = 1400 };
    struct indexed_ctx x = { .value = 2.5f, .idx_size = MAX_COUNT * sizeof(uint16_t) };
    uint8_t *array = guard_alloc_tail(24);
    memset(array, 0x77, 24);
    memcpy(array, &x.value, 4);
    uint16_t *idx = guard_alloc_tail(x.idx_size);
    memset(idx, 0, x.idx_size);
    x.bind = (struct vfetch_binding){ array, 24 };
    x.idx = idx;
    for (unsigned layout = 0; layout < 2; layout++) {
        const struct stage_case c = {
            layout ? "indexed, full" : "indexed, compact",
            stage_format(6, 6, (enum vfetch_r300_layout)layout), MAX_COUNT, 37,
            indexed_setup, indexed_check, &x };
        stage_sweep(&c);
    }
    guard_free(idx);
    guard_free(array);
}

/*
 * A stride-0 array (legal on R300) of 3 dwords, smaller than a window, so that every group of
 * a direct draw runs through the stage, followed there by a second array of stride 7 dwords
 * whose last element is masked off: 585 vertices fill the stage to its last byte.
 *   array 0 (stride 0, 3 dwords): element 0 FLOAT_1 -> loc 0, SKIP_DWORDS 2
 *   array 1 (stride 7, 6 dwords): element 1 FLOAT_1 -> loc 1, SKIP_DWORDS 4;
 *                                 element 2 FLOAT_1 at its dword 5 -> loc 2, write enable 0
 * Loc 1 (slot 4) of vertex v holds value1 + v.
 */
struct stride0_ctx {
    struct vfetch_binding bind[2];
    float value0, value1;
};

static void stride0_setup(struct vfetch_run_params *p, unsigned count, void *ctx)
{
    struct stride0_ctx *x = ctx;
    x->bind[1].size = (size_t)(count - 1) * 28 + 24; /* exactly what the draw reads */
    p->streams = x->bind;
    p->num_streams = 2;
}

static void stride0_check(const uint8_t *out, unsigned count, uint32_t stride, void *ctx)
{
    const struct stride0_ctx *x = ctx;
    check_stage_values(out, count, stride, x->value0, "stride-0 stage");
    for (unsigned v = 0; v < count; v++)
        CHECK_FLOAT(*(const float *)(const void *)(out + (size_t)v * stride + 16),
                    x->value1 + (float)v);
}

static void test_stage_stride0(void)
{
    enum { MAX_COUNT = 1100 };
    struct stride0_ctx x = { .value0 = -0.75f, .value1 = 3.0f };
    uint8_t *array0 = guard_alloc_tail(12);
    memset(array0, 0x33, 12);
    memcpy(array0, &x.value0, 4);
    const size_t size1 = (size_t)(MAX_COUNT - 1) * 28 + 24;
    uint8_t *array1 = guard_alloc_tail(size1);
    memset(array1, 0x44, size1);
    for (unsigned v = 0; v < MAX_COUNT; v++) {
        const float f = x.value1 + (float)v;
        memcpy(array1 + (size_t)v * 28, &f, 4);
    }
    x.bind[0] = (struct vfetch_binding){ array0, 12 };
    x.bind[1].data = array1;
    struct stage_case c = { .what = "stride 0, direct", .max_count = MAX_COUNT, .step = 23,
                            .setup = stride0_setup, .check = stride0_check, .ctx = &x };
    struct vfetch_r300_desc *d = &c.desc;
    vfetch_r300_desc_init(d);
    const uint32_t el0 = 0x0020, el1 = 0x0040 | 1u << 8, el2 = 0x2000 | 2u << 8;
    d->prog_stream_cntl[0] = el0 | el1 << 16;
    d->prog_stream_cntl[1] = el2;
    const uint32_t xyzw = 0 | 1u << 3 | 2u << 6 | 3u << 9;
    d->prog_stream_cntl_ext[0] = (xyzw | 0xfu << 12) | (xyzw | 0xfu << 12) << 16;
    d->prog_stream_cntl_ext[1] = xyzw; /* element 2: write enable 0 */
    d->num_arrays = 2;
    d->arrays[0] = (struct vfetch_r300_array){ 0, 3 };
    d->arrays[1] = (struct vfetch_r300_array){ 7, 6 };
    stage_sweep(&c);
    guard_free(array1);
    guard_free(array0);
}

/* One indexed stream, FLOAT32 x count at `offset`, identity swizzle, one vec4 out. */
static vfetch_plan *float_plan(uint32_t stride, uint32_t offset, unsigned count, enum vfetch_path path)
{
    struct vfetch_plan_desc d;
    vfetch_plan_desc_init(&d);
    d.num_streams = 1;
    d.streams[0].stride = stride;
    d.num_ops = 1;
    d.out_slots = 4;
    d.path = path;
    struct vfetch_op *op = &d.ops[0];
    op->format = VFETCH_FORMAT_FLOAT32;
    op->conversion = VFETCH_CONV_FLOAT;
    op->count = (uint8_t)count;
    for (unsigned c = 0; c < 4; c++) {
        op->src[c].offset = offset + 4 * c;
        op->swizzle[c] = (uint8_t)c;
    }
    op->write_mask = 0xf;
    vfetch_plan *plan = NULL;
    CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
    return plan;
}

/* 2^20 + 1 indices into a stream of stride 4096: (count - 1) * stride = 2^32 wraps a 32-bit
   size_t (it segfaulted at sse41 and avx2 on i386). Indices 0 and 1 alternate. */
static void test_wide_staged_span(void)
{
    const uint32_t count = (1u << 20) + 1, stride = 4096;
    uint8_t *array = guard_alloc_tail(2 * stride);
    memset(array, 0, 2 * stride);
    const float rec0 = 1.0f, rec1 = -2.0f;
    memcpy(array, &rec0, 4);
    memcpy(array + stride, &rec1, 4);
    uint32_t *idx = malloc((size_t)count * 4);
    float *out = malloc((size_t)count * 16);
    CHECK(idx && out);
    if (!idx || !out)
        return;
    for (uint32_t i = 0; i < count; i++)
        idx[i] = i & 1;
    const struct vfetch_binding bind = { array, 2 * stride };
    for (unsigned m = 0; m < NUM_LEVELS; m++) {
        if (!level_is_new(m))
            continue;
        for (unsigned path = 0; path < 2; path++) {
            vfetch_plan *plan = float_plan(stride, 0, 1, (enum vfetch_path)path);
            struct vfetch_run_params p;
            vfetch_run_params_init(&p);
            p.streams = &bind;
            p.num_streams = 1;
            p.count = count;
            p.indices = idx;
            p.index_type = VFETCH_INDEX_U32;
            p.indices_size = (size_t)count * 4;
            p.out = out;
            p.out_size = (size_t)count * 16;
            memset(out, CANARY, p.out_size);
            CHECK_EQ(vfetch_run(plan, &p), VFETCH_OK);
            unsigned bad = 0;
            for (uint32_t v = 0; v < count; v++) {
                const float want[4] = { v & 1 ? rec1 : rec0, 0.0f, 0.0f, 1.0f };
                bad += memcmp(out + 4 * (size_t)v, want, 16) != 0;
            }
            test_checks++;
            if (bad) {
                test_failures++;
                fprintf(stderr, "wide staged span at %s, path %u: %u of %u vertices wrong\n",
                        vfetch_cpu_name(), path, bad, count);
            }
            vfetch_plan_free(plan);
        }
    }
    free(out);
    free(idx);
    guard_free(array);
    vfetch_set_cpu_mask(~0u);
}

/* entry + index_offset saturates at max_index, never overflows; negative sums are errors. */
static void test_index_sum(void)
{
    enum { RECORDS = 4 };
    uint8_t *array = guard_alloc_tail(RECORDS * 4);
    for (unsigned r = 0; r < RECORDS; r++) {
        const float f = (float)(r * 10);
        memcpy(array + 4 * r, &f, 4);
    }
    const struct vfetch_binding bind = { array, RECORDS * 4 };
    uint16_t *idx = guard_alloc_tail(3 * sizeof(uint16_t));
    idx[0] = 0;
    idx[1] = 5;
    idx[2] = 65535;
    float *out = guard_alloc_tail(3 * 16);
    static const struct {
        int64_t offset;
        uint32_t max_index;
        int err;
        unsigned rec[3];
    } cases[] = {
        { INT64_MAX, 3, VFETCH_OK, { 3, 3, 3 } },
        { INT64_MAX - 5, 3, VFETCH_OK, { 3, 3, 3 } },
        { INT64_MAX - 65535, 2, VFETCH_OK, { 2, 2, 2 } },
        { (int64_t)UINT32_MAX + 1, 1, VFETCH_OK, { 1, 1, 1 } },
        { -5, 3, VFETCH_EINDEX_RANGE, { 0, 0, 0 } },     /* 0 - 5 < 0 */
        { INT64_MIN, 3, VFETCH_EINDEX_RANGE, { 0, 0, 0 } },
        { INT64_MIN + 65535, 3, VFETCH_EINDEX_RANGE, { 0, 0, 0 } },
        { 0, 1, VFETCH_OK, { 0, 1, 1 } },
        { -3, 3, VFETCH_EINDEX_RANGE, { 0, 0, 0 } },
    };
    for (unsigned m = 0; m < NUM_LEVELS; m++) {
        if (!level_is_new(m))
            continue;
        vfetch_plan *plan = float_plan(4, 0, 1, VFETCH_PATH_AUTO);
        for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            struct vfetch_run_params p;
            vfetch_run_params_init(&p);
            p.streams = &bind;
            p.num_streams = 1;
            p.count = 3;
            p.indices = idx;
            p.index_type = VFETCH_INDEX_U16;
            p.indices_size = 3 * sizeof(uint16_t);
            p.index_offset = cases[k].offset;
            p.max_index = cases[k].max_index;
            p.out = out;
            p.out_size = 3 * 16;
            memset(out, CANARY, 3 * 16);
            CHECK_EQ(vfetch_run(plan, &p), cases[k].err);
            for (unsigned v = 0; v < 3; v++) {
                if (cases[k].err) {
                    uint8_t canary[16];
                    memset(canary, CANARY, 16);
                    CHECK(memcmp(out + 4 * v, canary, 16) == 0);
                } else {
                    CHECK_FLOAT(out[4 * v], (float)(cases[k].rec[v] * 10));
                }
            }
        }
        vfetch_plan_free(plan);
    }
    guard_free(out);
    guard_free(idx);
    guard_free(array);
    vfetch_set_cpu_mask(~0u);
}

/* Components at byte 65536 of 65552-byte records, indexed: staging copies only bytes
   65536..65551 of each record, on both paths. */
static void test_far_components(void)
{
    const uint32_t offset = 65536, stride = offset + 16;
    enum { RECORDS = 3, COUNT = 300 };
    uint8_t *array = guard_alloc_tail((size_t)RECORDS * stride);
    memset(array, 0xEE, (size_t)RECORDS * stride);
    for (unsigned r = 0; r < RECORDS; r++)
        for (unsigned c = 0; c < 4; c++) {
            const float f = (float)(r * 4 + c) + 0.5f;
            memcpy(array + (size_t)r * stride + offset + 4 * c, &f, 4);
        }
    const struct vfetch_binding bind = { array, (size_t)RECORDS * stride };
    uint32_t *idx = guard_alloc_tail(COUNT * 4);
    for (unsigned i = 0; i < COUNT; i++)
        idx[i] = (i * 7 + 1) % RECORDS;
    float *out = guard_alloc_tail(COUNT * 16);
    for (unsigned m = 0; m < NUM_LEVELS; m++) {
        if (!level_is_new(m))
            continue;
        for (unsigned path = 0; path < 2; path++) {
            vfetch_plan *plan = float_plan(stride, offset, 4, (enum vfetch_path)path);
            CHECK_EQ(vfetch_plan_stream_extent(plan, 0), stride);
            struct vfetch_run_params p;
            vfetch_run_params_init(&p);
            p.streams = &bind;
            p.num_streams = 1;
            p.count = COUNT;
            p.indices = idx;
            p.index_type = VFETCH_INDEX_U32;
            p.indices_size = COUNT * 4;
            p.out = out;
            p.out_size = COUNT * 16;
            memset(out, CANARY, COUNT * 16);
            CHECK_EQ(vfetch_run(plan, &p), VFETCH_OK);
            for (unsigned v = 0; v < COUNT; v++)
                for (unsigned c = 0; c < 4; c++)
                    CHECK_FLOAT(out[4 * v + c], (float)(idx[v] * 4 + c) + 0.5f);
            vfetch_plan_free(plan);
        }
    }
    guard_free(out);
    guard_free(idx);
    guard_free(array);
    vfetch_set_cpu_mask(~0u);
}

int main(void)
{
    test_stage_indexed();
    test_stage_stride0();
    test_wide_staged_span();
    test_index_sum();
    test_far_components();
    return test_summary("bounds");
}
