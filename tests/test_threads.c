/*
 * One plan run from several threads at once gives the output of a single-threaded run, direct
 * and indexed, and plans created concurrently in those threads are equal to it and give the
 * same output. And a vfetch_set_cpu_mask() racing the first CPU detection (which reads
 * VFETCH_CPU_MASK) on another thread is never overwritten by the environment. One texel plan
 * (DXT5) decodes the same surface from several threads, each region into its own target, and
 * gives the single-threaded bytes. A GX format with generated code (the JIT tier, where built):
 * one plan run from several threads, while each thread also compiles, runs and frees plans of
 * its own (their code's memory taken and given back concurrently), every output the
 * single-threaded one. Built under ThreadSanitizer in CI.
 */
#define _DEFAULT_SOURCE /* setenv */
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "vfetch/gx.h"
#include "vfetch/r300.h"
#include "vfetch/texel.h"
#include "vfetch/vfetch.h"

#define THREADS 4
#define VERTICES 5000
#define ROUNDS 8

/* Element layout: FLOAT_3 position, D3DCOLOR, SHORT_2 normalised, FLT16_4: 3+1+1+2 dwords. */
#define DWORDS 7

static vfetch_plan *shared_plan;
static uint8_t *vertex_data;
static uint32_t *indices;
static uint8_t *expected;
static size_t out_size;

static int run_once(const vfetch_plan *plan, uint8_t *out, int indexed)
{
    struct vfetch_binding b = { vertex_data, (size_t)VERTICES * DWORDS * 4 };
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = &b;
    p.num_streams = 1;
    p.count = VERTICES;
    if (indexed) {
        p.indices = indices;
        p.index_type = VFETCH_INDEX_U32;
        p.indices_size = VERTICES * 4;
    }
    p.out = out;
    p.out_size = out_size;
    return vfetch_run(plan, &p);
}

static vfetch_plan *compile(void)
{
    struct vfetch_r300_desc r;
    vfetch_r300_desc_init(&r);
    /* element 0: FLOAT_3 -> loc 0; 1: D3DCOLOR unorm -> loc 1; 2: SHORT_2 signed normalised
       -> loc 2; 3: FLT16_4 -> loc 3, LAST_VEC */
    const uint32_t e0 = 2 | 0 << 8, e1 = 5 | 1 << 8 | 1u << 15;
    const uint32_t e2 = 6 | 2 << 8 | 1u << 14 | 1u << 15, e3 = 12 | 3 << 8 | 1u << 13;
    r.prog_stream_cntl[0] = e0 | e1 << 16;
    r.prog_stream_cntl[1] = e2 | e3 << 16;
    r.num_arrays = 1;
    r.arrays[0].stride_dwords = DWORDS;
    r.arrays[0].count_dwords = DWORDS;
    vfetch_plan *plan = NULL;
    if (vfetch_r300_compile(&r, &plan))
        return NULL;
    return plan;
}

struct worker {
    pthread_t thread;
    unsigned id;
    unsigned failures;
};

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    uint8_t *out = malloc(out_size);
    for (unsigned round = 0; round < ROUNDS; round++) {
        const int indexed = (int)((round + w->id) & 1);
        /* Half the rounds use a plan this thread compiles itself, concurrently with others. */
        vfetch_plan *own = (round & 2) ? compile() : NULL;
        const vfetch_plan *plan = own ? own : shared_plan;
        memset(out, 0, out_size);
        if (run_once(plan, out, indexed) != 0 ||
            memcmp(out, expected + (indexed ? out_size : 0), out_size) != 0)
            w->failures++;
        if (own && !vfetch_plan_equal(own, shared_plan))
            w->failures++;
        vfetch_plan_free(own);
    }
    free(out);
    return NULL;
}

static pthread_barrier_t mask_barrier;

static void *first_use_main(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&mask_barrier);
    return (void *)(uintptr_t)vfetch_cpu_flags();
}

/* In a fresh process (a child, before any other vfetch call): VFETCH_CPU_MASK=c, one thread's
   first vfetch_cpu_flags() against this thread's vfetch_set_cpu_mask(~0u). The set must win
   whatever the order. Exit status: the flags in force afterwards. */
static int mask_race_child(void)
{
    setenv("VFETCH_CPU_MASK", "c", 1);
    pthread_barrier_init(&mask_barrier, NULL, 2);
    pthread_t t;
    if (pthread_create(&t, NULL, first_use_main, NULL))
        return 255;
    pthread_barrier_wait(&mask_barrier);
    vfetch_set_cpu_mask(~0u);
    pthread_join(t, NULL);
    return (int)vfetch_cpu_flags();
}

#define MASK_RACES 40

static void test_mask_race(void)
{
    int status[MASK_RACES];
    unsigned children = 0, wrong = 0;
    for (unsigned i = 0; i < MASK_RACES; i++) {
        const pid_t pid = fork();
        if (pid == 0)
            _exit(mask_race_child());
        if (pid > 0 && waitpid(pid, &status[children], 0) == pid)
            children++;
    }
    /* Only now may this process use vfetch: its children had to start untouched. The flags
       the set mask allows, as this process computes them: */
    vfetch_set_cpu_mask(~0u);
    for (unsigned i = 0; i < children; i++)
        if (!WIFEXITED(status[i]) || (unsigned)WEXITSTATUS(status[i]) != vfetch_cpu_flags())
            wrong++;
    CHECK_EQ(children, MASK_RACES);
    CHECK_EQ(wrong, 0);
}

/* ---- texel: one plan, many decoding threads ---- */

#define TEXEL_SIDE 128
static vfetch_texel_plan *texel_plan;
static uint8_t *texel_src;
static uint8_t *texel_expected;

static int texel_decode(uint8_t *out)
{
    const struct vfetch_texel_surface s = { texel_src, (TEXEL_SIDE / 4) * (TEXEL_SIDE / 4) * 16,
                                            TEXEL_SIDE, TEXEL_SIDE, 1, 0,
                                            VFETCH_TEXEL_PITCH_BYTES, 0 };
    const struct vfetch_texel_target t = { out, TEXEL_SIDE * TEXEL_SIDE * 4, VFETCH_TEXEL_RGBA8,
                                           0, 0 };
    return vfetch_texel_decode(texel_plan, &s, NULL, &t);
}

static void *texel_worker(void *arg)
{
    unsigned *failures = arg;
    uint8_t *out = malloc(TEXEL_SIDE * TEXEL_SIDE * 4);
    for (unsigned r = 0; r < ROUNDS; r++) {
        memset(out, 0, TEXEL_SIDE * TEXEL_SIDE * 4);
        if (texel_decode(out) != VFETCH_OK ||
            memcmp(out, texel_expected, TEXEL_SIDE * TEXEL_SIDE * 4) != 0)
            (*failures)++;
    }
    free(out);
    return NULL;
}

static void test_texel_threads(void)
{
    struct vfetch_texel_desc desc;
    vfetch_texel_desc_init(&desc);
    desc.tx_format1 = 17 | 2u << 12 | 1u << 15 | 3u << 9;
    CHECK_EQ(vfetch_texel_compile(&desc, &texel_plan), 0);
    const size_t bytes = (TEXEL_SIDE / 4) * (TEXEL_SIDE / 4) * 16;
    texel_src = malloc(bytes);
    texel_expected = malloc(TEXEL_SIDE * TEXEL_SIDE * 4);
    uint32_t x = 777;
    for (size_t i = 0; i < bytes; i++) {
        x = x * 1664525u + 1013904223u;
        texel_src[i] = (uint8_t)(x >> 24);
    }
    CHECK_EQ(texel_decode(texel_expected), 0);
    pthread_t threads[THREADS];
    unsigned failures[THREADS] = { 0 };
    for (unsigned t = 0; t < THREADS; t++)
        CHECK_EQ(pthread_create(&threads[t], NULL, texel_worker, &failures[t]), 0);
    for (unsigned t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        CHECK_EQ(failures[t], 0);
    }
    free(texel_src);
    free(texel_expected);
    vfetch_texel_plan_free(texel_plan);
}

/* GX: position index16 into f32 XYZ, color0 index8 into RGB565 (the peer kit's config c). */
#define GX_VERTICES 300
static const vfetch_gx_plan *gx_shared;
static uint8_t gx_vertices[GX_VERTICES * 3], gx_positions[64 * 12], gx_colors[64 * 2];
static uint8_t *gx_expected;

static struct vfetch_gx_desc gx_desc(void)
{
    struct vfetch_gx_desc d;
    vfetch_gx_desc_init(&d);
    d.regs.vcd_lo = 3u << 9 | 2u << 13;
    d.regs.vat_a = 1 | 4u << 1 | 1u << 30;
    d.array_stride[VFETCH_GX_POSITION] = 12;
    d.array_stride[VFETCH_GX_COLOR0] = 2;
    d.layout = VFETCH_GX_LAYOUT_PACKED;
    d.color_output = VFETCH_GX_COLOR_RGBA8;
    return d;
}

static int gx_draw(const vfetch_gx_plan *plan, uint32_t count, uint8_t *out)
{
    struct vfetch_gx_run_params p;
    vfetch_gx_run_params_init(&p);
    p.vertices = gx_vertices;
    p.vertices_size = sizeof gx_vertices;
    p.count = count;
    p.arrays[VFETCH_GX_POSITION] = (struct vfetch_binding){ gx_positions, sizeof gx_positions };
    p.arrays[VFETCH_GX_COLOR0] = (struct vfetch_binding){ gx_colors, sizeof gx_colors };
    p.out = out;
    p.out_size = (size_t)count * 16;
    return vfetch_gx_run(plan, &p, NULL);
}

static void *gx_worker(void *arg)
{
    unsigned *failures = arg;
    uint8_t *out = malloc(GX_VERTICES * 16);
    const struct vfetch_gx_desc d = gx_desc();
    for (unsigned r = 0; r < 4 * ROUNDS; r++) {
        vfetch_gx_plan *own = NULL;
        if (vfetch_gx_compile(&d, &own)) {
            (*failures)++;
            break;
        }
        const uint32_t count = 1 + (r * 37) % GX_VERTICES;
        for (unsigned k = 0; k < 2; k++) {
            memset(out, 0, GX_VERTICES * 16);
            if (gx_draw(k ? own : gx_shared, count, out) ||
                memcmp(out, gx_expected, (size_t)count * 16))
                (*failures)++;
        }
        vfetch_gx_plan_free(own);
    }
    free(out);
    return NULL;
}

static void test_gx_threads(void)
{
    uint32_t x = 4242;
    for (unsigned v = 0; v < GX_VERTICES; v++) {
        x = x * 1664525u + 1013904223u;
        gx_vertices[3 * v] = 0;
        gx_vertices[3 * v + 1] = (uint8_t)(x >> 26);     /* index 0..63 */
        gx_vertices[3 * v + 2] = (uint8_t)(x >> 10 & 63);
    }
    for (size_t i = 0; i < sizeof gx_positions; i++)
        gx_positions[i] = (uint8_t)(i * 13 % 64 + 0x3c); /* floats of moderate size */
    for (size_t i = 0; i < sizeof gx_colors; i++)
        gx_colors[i] = (uint8_t)(i * 29);
    const struct vfetch_gx_desc d = gx_desc();
    vfetch_gx_plan *plan = NULL;
    CHECK_EQ(vfetch_gx_compile(&d, &plan), 0);
    if (!plan)
        return;
    struct vfetch_plan_info info;
    vfetch_gx_plan_info(plan, &info);
    if (vfetch_jit_available() && (vfetch_cpu_flags() & VFETCH_CPU_AVX2))
        CHECK_EQ(info.jit, 1); /* the threads run generated code */
    gx_shared = plan;
    gx_expected = malloc(GX_VERTICES * 16);
    memset(gx_expected, 0, GX_VERTICES * 16);
    CHECK_EQ(gx_draw(plan, GX_VERTICES, gx_expected), 0);
    pthread_t threads[THREADS];
    unsigned failures[THREADS] = { 0 };
    for (unsigned t = 0; t < THREADS; t++)
        CHECK_EQ(pthread_create(&threads[t], NULL, gx_worker, &failures[t]), 0);
    for (unsigned t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        CHECK_EQ(failures[t], 0);
    }
    free(gx_expected);
    vfetch_gx_plan_free(plan);
}

int main(void)
{
    struct worker workers[THREADS];

    test_mask_race(); /* first: its children must start with no vfetch call made */

    shared_plan = compile();
    CHECK(shared_plan != NULL);
    if (!shared_plan)
        return test_summary("threads");
    out_size = (size_t)VERTICES * vfetch_plan_out_stride(shared_plan);
    vertex_data = malloc((size_t)VERTICES * DWORDS * 4);
    indices = malloc(VERTICES * 4);
    expected = malloc(2 * out_size);
    uint32_t x = 12345;
    for (size_t i = 0; i < (size_t)VERTICES * DWORDS * 4; i++) {
        x = x * 1664525u + 1013904223u;
        vertex_data[i] = (uint8_t)(x >> 24);
    }
    for (unsigned i = 0; i < VERTICES; i++)
        indices[i] = (i * 7919u) % VERTICES;
    memset(expected, 0, 2 * out_size);
    CHECK_EQ(run_once(shared_plan, expected, 0), 0);
    CHECK_EQ(run_once(shared_plan, expected + out_size, 1), 0);
    /* The indexed run is a permutation of the direct one: a cheap check that both are sane. */
    const size_t rec = vfetch_plan_out_stride(shared_plan);
    for (unsigned i = 0; i < VERTICES; i += 97)
        CHECK(memcmp(expected + out_size + i * rec, expected + (size_t)indices[i] * rec, rec) == 0);

    for (unsigned t = 0; t < THREADS; t++) {
        workers[t] = (struct worker){ .id = t };
        CHECK_EQ(pthread_create(&workers[t].thread, NULL, worker_main, &workers[t]), 0);
    }
    for (unsigned t = 0; t < THREADS; t++) {
        pthread_join(workers[t].thread, NULL);
        CHECK_EQ(workers[t].failures, 0);
    }
    free(vertex_data);
    free(indices);
    free(expected);
    vfetch_plan_free(shared_plan);
    test_texel_threads();
    test_gx_threads();
    return test_summary("threads");
}
