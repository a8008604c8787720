/*
 * VFETCH_ENOMEM: every allocation of every entry point made to fail in turn (the test is
 * linked with --wrap=malloc,calloc,aligned_alloc, so the library's calls come here). Each failing call must
 * return VFETCH_ENOMEM, leave its out-pointer and the output untouched, and leak nothing (the
 * ASan build checks leaks); once no allocation fails, the call succeeds.
 */
#include <stdlib.h>

#include "testutil.h"
#include "vfetch/gx.h"
#include "vfetch/r300.h"
#include "vfetch/texel.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_aligned_alloc(size_t alignment, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_aligned_alloc(size_t alignment, size_t size);

/* -1: never fail; k >= 0: the allocation after k more succeed fails (and only that one). */
static long fail_countdown = -1;
static unsigned allocations_failed;

static int should_fail(void)
{
    if (fail_countdown < 0)
        return 0;
    if (fail_countdown-- == 0) {
        allocations_failed++;
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t size)
{
    return should_fail() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return should_fail() ? NULL : __real_calloc(n, size);
}

void *__wrap_aligned_alloc(size_t alignment, size_t size)
{
    return should_fail() ? NULL : __real_aligned_alloc(alignment, size);
}

#define SENTINEL ((void *)(uintptr_t)0x5e5e)

/* Sweep: call `call` with the k-th allocation failing, k = 0, 1, ... until it succeeds. Each
   failure must be VFETCH_ENOMEM. Returns how many calls failed that way. */
#define SWEEP(result, call, on_fail, on_success)                                            \
    do {                                                                                    \
        unsigned enomem_ = 0;                                                               \
        for (long k_ = 0; k_ < 64; k_++) {                                                  \
            fail_countdown = k_;                                                            \
            const unsigned before_ = allocations_failed;                                    \
            result = (call);                                                                \
            const int failed_ = allocations_failed != before_;                              \
            fail_countdown = -1;                                                            \
            if (!failed_) {                                                                 \
                CHECK_EQ(result, VFETCH_OK);                                                \
                on_success;                                                                 \
                break;                                                                      \
            }                                                                               \
            if (result == VFETCH_ENOMEM) {                                                  \
                enomem_++;                                                                  \
                on_fail;                                                                    \
            } else {                                                                        \
                /* an allocation whose failure has a fallback (e.g. the record program) */ \
                CHECK_EQ(result, VFETCH_OK);                                                \
                on_success;                                                                 \
            }                                                                               \
        }                                                                                   \
        CHECK(enomem_ > 0);                                                                 \
    } while (0)

static void test_plan_compile(void)
{
    struct vfetch_plan_desc d;
    vfetch_plan_desc_init(&d);
    d.num_streams = 1;
    d.streams[0].stride = 16;
    d.num_ops = 1;
    d.out_slots = 4;
    d.ops[0] = (struct vfetch_op){ .format = VFETCH_FORMAT_FLOAT32, .conversion = VFETCH_CONV_FLOAT,
                                   .count = 4, .swizzle = { 0, 1, 2, 3 }, .write_mask = 0xf };
    for (unsigned c = 0; c < 4; c++)
        d.ops[0].src[c].offset = 4 * c;
    vfetch_plan *plan = SENTINEL;
    int err;
    SWEEP(err, vfetch_plan_compile(&d, &plan), CHECK(plan == SENTINEL),
          (vfetch_plan_free(plan), plan = SENTINEL));

    struct vfetch_r300_desc r;
    vfetch_r300_desc_init(&r);
    r.prog_stream_cntl[0] = 0x2000 | 2; /* FLOAT_3 -> loc 0, LAST_VEC */
    r.num_arrays = 1;
    r.arrays[0] = (struct vfetch_r300_array){ 3, 3 };
    SWEEP(err, vfetch_r300_compile(&r, &plan), CHECK(plan == SENTINEL),
          (vfetch_plan_free(plan), plan = SENTINEL));

    vfetch_texel_plan *texel = SENTINEL;
    struct vfetch_texel_desc td;
    vfetch_texel_desc_init(&td);
    td.tx_format1 = 15;
    SWEEP(err, vfetch_texel_compile(&td, &texel), CHECK(texel == SENTINEL),
          (vfetch_texel_plan_free(texel), texel = SENTINEL));
}

static void test_gx(void)
{
    struct vfetch_gx_desc cp;
    memset(&cp, 0, sizeof cp);
    cp.regs.vcd_lo = (uint32_t)VFETCH_GX_INDEX16 << 9; /* position index16 */
    cp.regs.vat_a = 1 | 4u << 1;                       /* f32 XYZ */
    cp.array_stride[VFETCH_GX_POSITION] = 12;
    vfetch_gx_plan *plan = SENTINEL;
    int err;
    SWEEP(err, vfetch_gx_compile(&cp, &plan), CHECK(plan == (vfetch_gx_plan *)SENTINEL),
          (vfetch_gx_plan_free(plan), plan = SENTINEL));

    vfetch_gx_state *state = SENTINEL;
    SWEEP(err, vfetch_gx_state_create(NULL, &state), CHECK(state == (vfetch_gx_state *)SENTINEL),
          (void)0);
    if (state == SENTINEL)
        return;
    vfetch_gx_load_cp_reg(state, 0x50, cp.regs.vcd_lo);
    vfetch_gx_load_cp_reg(state, 0x70, cp.regs.vat_a);
    vfetch_gx_load_cp_reg(state, 0xb0, 12);
    const vfetch_gx_plan *cached = SENTINEL;
    /* a failed compile keeps the format dirty: the next call compiles again */
    SWEEP(err, vfetch_gx_state_plan(state, 0, &cached),
          CHECK(cached == (const vfetch_gx_plan *)SENTINEL), CHECK(cached != NULL));
    vfetch_gx_state_free(state);
}

/* A GX indexed draw larger than the stack stage asks for a heap stage that holds it whole;
   without one it is checked first and staged in blocks: the same result, no error. */
static void test_gx_run_stage(void)
{
    struct vfetch_gx_desc cp;
    memset(&cp, 0, sizeof cp);
    cp.regs.vcd_lo = (uint32_t)VFETCH_GX_INDEX8 << 9; /* position index8 */
    cp.regs.vat_a = 1 | 4u << 1;                      /* f32 XYZ */
    cp.array_stride[VFETCH_GX_POSITION] = 12;
    vfetch_gx_plan *plan = NULL;
    CHECK_EQ(vfetch_gx_compile(&cp, &plan), 0);
    if (!plan)
        return;
    enum { N = 4096, ROWS = 200 };
    const uint32_t stride = vfetch_gx_plan_out_stride(plan);
    uint8_t *verts = malloc(N), *arr = malloc(ROWS * 12), *want = malloc((size_t)N * stride),
            *got = malloc((size_t)N * stride);
    if (!verts || !arr || !want || !got)
        return;
    for (unsigned i = 0; i < N; i++)
        verts[i] = (uint8_t)(i * 7 % ROWS);
    for (unsigned i = 0; i < ROWS * 12; i++)
        arr[i] = (uint8_t)(i * 13);
    struct vfetch_gx_run_params p;
    vfetch_gx_run_params_init(&p);
    p.vertices = verts;
    p.vertices_size = N;
    p.count = N;
    p.arrays[VFETCH_GX_POSITION] = (struct vfetch_binding){ arr, ROWS * 12 };
    p.out = want;
    p.out_size = (size_t)N * stride;
    CHECK_EQ(vfetch_gx_run(plan, &p, NULL), 0);
    const unsigned before = allocations_failed;
    fail_countdown = 0; /* the first allocation fails */
    p.out = got;
    CHECK_EQ(vfetch_gx_run(plan, &p, NULL), 0);
    fail_countdown = -1;
    CHECK_EQ(allocations_failed - before, VFETCH_GUARD_STAGES ? 0u : 1u);
    CHECK(memcmp(want, got, (size_t)N * stride) == 0);
    free(verts);
    free(arr);
    free(want);
    free(got);
    vfetch_gx_plan_free(plan);
}

/* A run whose staged records exceed the stack stage needs a heap stage, allocated before any
   write (guard-stage builds map their stages instead and never call malloc). */
static void test_run_stage(void)
{
    struct vfetch_plan_desc d;
    vfetch_plan_desc_init(&d);
    d.num_streams = 1;
    d.streams[0].stride = 20004;
    d.num_ops = 2;
    d.out_slots = 8;
    d.path = VFETCH_PATH_PER_OP;
    for (unsigned o = 0; o < 2; o++) {
        d.ops[o] = (struct vfetch_op){ .format = VFETCH_FORMAT_FLOAT32,
                                       .conversion = VFETCH_CONV_FLOAT, .count = 1,
                                       .swizzle = { 0, 4, 4, 5 }, .write_mask = 0xf,
                                       .dst_slot = (uint16_t)(4 * o) };
        d.ops[o].src[0].offset = o ? 20000 : 0; /* staged bytes 0..20003 of each record */
    }
    vfetch_plan *plan = NULL;
    CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
    uint8_t *src = calloc(2, 20004);
    const float a = 1.5f, b = -3.0f;
    memcpy(src + 20004, &a, 4);
    memcpy(src + 20004 + 20000, &b, 4);
    const uint16_t idx[3] = { 1, 0, 1 };
    float out[24];
    const struct vfetch_binding bind = { src, 2 * 20004 };
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = &bind;
    p.num_streams = 1;
    p.count = 3;
    p.indices = idx;
    p.index_type = VFETCH_INDEX_U16;
    p.indices_size = sizeof idx;
    p.out = out;
    p.out_size = sizeof out;
    memset(out, 0x5a, sizeof out);
    uint8_t canary[sizeof out];
    memset(canary, 0x5a, sizeof canary);
    int err;
#if VFETCH_GUARD_STAGES
    fail_countdown = 0;
    err = vfetch_run(plan, &p);
    fail_countdown = -1;
    CHECK_EQ(err, VFETCH_OK);
#else
    SWEEP(err, vfetch_run(plan, &p), CHECK(memcmp(out, canary, sizeof out) == 0), (void)0);
#endif
    CHECK_FLOAT(out[0], a);
    CHECK_FLOAT(out[4], b);
    CHECK_FLOAT(out[8], 0.0f);
    CHECK_FLOAT(out[16], a);
    CHECK_FLOAT(out[23], 1.0f);
    vfetch_plan_free(plan);
    free(src);
}

int main(void)
{
    test_plan_compile();
    test_gx(); /* with the JIT where built: its compile's allocations fail in turn too */
    /* The portable tier's heap stage: a draw the generated code would run without one. */
    vfetch_set_jit_mode(VFETCH_JIT_OFF);
    test_gx_run_stage();
    test_run_stage();
    return test_summary("nomem");
}
