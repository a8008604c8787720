/*
 * Plan creation from hand-built descriptions: every rejection, the derived sizes, describe,
 * hash and equality, and the error texts.
 */
#include <stdlib.h>

#include "testutil.h"
#include "vfetch/vfetch.h"

/* A valid base description: one stream of 16-byte records, one FLOAT32 x3 op -> slots 0..3. */
static void base_desc(struct vfetch_plan_desc *d)
{
    vfetch_plan_desc_init(d);
    d->num_streams = 1;
    d->streams[0].stride = 16;
    d->num_ops = 1;
    d->out_slots = 4;
    struct vfetch_op *op = &d->ops[0];
    op->format = VFETCH_FORMAT_FLOAT32;
    op->conversion = VFETCH_CONV_FLOAT;
    op->count = 3;
    for (unsigned c = 0; c < 4; c++) {
        op->src[c].offset = 4 * c;
        op->swizzle[c] = (uint8_t)c;
    }
    op->write_mask = 0xf;
}

#define SENTINEL ((vfetch_plan *)(uintptr_t)0x1234)

/* Create must fail with `want` and leave the out pointer alone. */
static void expect_reject(const struct vfetch_plan_desc *d, int want, int line)
{
    vfetch_plan *plan = SENTINEL;
    const int got = vfetch_plan_compile(d, &plan);
    test_checks += 2;
    if (got != want) {
        test_failures++;
        fprintf(stderr, "test_plan.c:%d: vfetch_plan_compile = %d, want %d\n", line, got, want);
    }
    if (plan != SENTINEL) {
        test_failures++;
        fprintf(stderr, "test_plan.c:%d: out pointer written on error\n", line);
    }
    if (got == 0)
        vfetch_plan_free(plan);
}

#define REJECT(mutation, code)                                                             \
    do {                                                                                    \
        struct vfetch_plan_desc d;                                                          \
        base_desc(&d);                                                                      \
        mutation;                                                                           \
        expect_reject(&d, code, __LINE__);                                                  \
    } while (0)

static void test_rejections(void)
{
    struct vfetch_plan_desc ok;
    base_desc(&ok);
    vfetch_plan *plan = NULL;
    CHECK_EQ(vfetch_plan_compile(&ok, &plan), VFETCH_OK);
    vfetch_plan_free(plan);

    CHECK_EQ(vfetch_plan_compile(NULL, &plan), VFETCH_EINVAL);
    CHECK_EQ(vfetch_plan_compile(&ok, NULL), VFETCH_EINVAL);

    REJECT(d.ops[0].format = VFETCH_FORMAT_COUNT, VFETCH_EPLAN);
    REJECT(d.ops[0].conversion = VFETCH_CONV_COUNT, VFETCH_EPLAN);
    REJECT(d.ops[0].conversion = VFETCH_CONV_UNORM, VFETCH_EPLAN); /* fixed conv on a float */
    REJECT((d.ops[0].format = VFETCH_FORMAT_FIXED8, d.ops[0].conversion = VFETCH_CONV_FLOAT), VFETCH_EPLAN);
    REJECT(d.ops[0].count = 0, VFETCH_EPLAN);
    REJECT(d.ops[0].count = 5, VFETCH_EPLAN);
    REJECT((d.ops[0].format = VFETCH_FORMAT_FIXED_10_10_10, d.ops[0].conversion = VFETCH_CONV_UINT,
            d.ops[0].count = 2), VFETCH_EPLAN); /* packed: exactly 3 */
    REJECT((d.ops[0].format = VFETCH_FORMAT_FIXED_10_10_10, d.ops[0].conversion = VFETCH_CONV_UINT,
            d.ops[0].count = 3), VFETCH_EPLAN); /* packed: the three sources must agree */
    REJECT(d.ops[0].shift = 1, VFETCH_EPLAN); /* shift on a float */
    REJECT((d.ops[0].format = VFETCH_FORMAT_FIXED8, d.ops[0].conversion = VFETCH_CONV_UNORM,
            d.ops[0].shift = 1), VFETCH_EPLAN);
    REJECT((d.ops[0].format = VFETCH_FORMAT_FIXED8, d.ops[0].conversion = VFETCH_CONV_UINT,
            d.ops[0].shift = 32), VFETCH_EPLAN);
    REJECT(d.ops[0].src[1].stream = 1, VFETCH_EPLAN);
    REJECT(d.num_streams = 0, VFETCH_EPLAN);
    REJECT(d.num_streams = VFETCH_MAX_STREAMS + 1, VFETCH_EPLAN);
    REJECT(d.num_ops = 0, VFETCH_EPLAN);
    REJECT(d.num_ops = VFETCH_MAX_OPS + 1, VFETCH_EPLAN);
    REJECT(d.out_slots = 0, VFETCH_EPLAN);
    REJECT(d.out_slots = VFETCH_MAX_SLOTS + 1, VFETCH_EPLAN);
    REJECT(d.ops[0].dst_slot = 1, VFETCH_EPLAN); /* slot 4 past out_slots */
    REJECT(d.out_stride = 18, VFETCH_EPLAN);
    REJECT(d.out_stride = 12, VFETCH_EPLAN);
    REJECT((d.streams[0].order = VFETCH_ORDER_SWAP_32, d.streams[0].stride = 18), VFETCH_EPLAN);
    REJECT((d.streams[0].order = VFETCH_ORDER_SWAP_16, d.streams[0].stride = 17), VFETCH_EPLAN);
    REJECT(d.streams[0].order = (enum vfetch_byte_order)5, VFETCH_EPLAN);
    REJECT(d.streams[0].step = (enum vfetch_step)4, VFETCH_EPLAN);
    /* constant ops: conversion FLOAT, no components */
    REJECT((d.ops[0].format = VFETCH_FORMAT_CONSTANT, d.ops[0].conversion = VFETCH_CONV_FLOAT,
            d.ops[0].count = 1), VFETCH_EPLAN);
    REJECT((d.ops[0].format = VFETCH_FORMAT_CONSTANT, d.ops[0].conversion = VFETCH_CONV_INTEGER,
            d.ops[0].count = 0), VFETCH_EPLAN);
    /* 32-bit fields: only the conversions Maxwell has */
    REJECT((d.ops[0].format = VFETCH_FORMAT_FIXED32, d.ops[0].conversion = VFETCH_CONV_SNORM_ZERO),
           VFETCH_EPLAN);
    REJECT((d.ops[0].format = VFETCH_FORMAT_FIXED32, d.ops[0].conversion = VFETCH_CONV_UNORM8),
           VFETCH_EPLAN);
    REJECT((d.ops[0].format = VFETCH_FORMAT_UFLOAT_11_11_10, d.ops[0].conversion = VFETCH_CONV_UNORM),
           VFETCH_EPLAN);
    REJECT((d.ops[0].format = VFETCH_FORMAT_FIXED_10_10_10_2, d.ops[0].conversion = VFETCH_CONV_UNORM,
            d.ops[0].count = 3), VFETCH_EPLAN); /* packed: all four fields */
    REJECT(d.path = (enum vfetch_path)2, VFETCH_EPLAN);
    REJECT(d.ops[0].write_mask = 0x10, VFETCH_EPLAN);
    REJECT(d.ops[0].swizzle[2] = 6, VFETCH_ERESERVED_SWIZZLE);
    REJECT(d.ops[0].swizzle[0] = 7, VFETCH_ERESERVED_SWIZZLE);
    REJECT(d.ops[0].swizzle[0] = 8, VFETCH_EPLAN);
    /* a masked-off component may point past out_slots: it is never stored */
    {
        struct vfetch_plan_desc d;
        base_desc(&d);
        d.ops[0].dst_slot = 2;
        d.ops[0].write_mask = 0x3;
        CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
        vfetch_plan_free(plan);
    }
    /* big-endian and little orders take any stride */
    {
        struct vfetch_plan_desc d;
        base_desc(&d);
        d.streams[0].order = VFETCH_ORDER_BIG_ENDIAN;
        d.streams[0].stride = 13;
        CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
        vfetch_plan_free(plan);
    }
}

static void test_sizes(void)
{
    struct vfetch_plan_desc d;
    base_desc(&d);
    d.ops[0].src[0].offset = 4; /* x at 4, y at 4, z at 8 */
    d.ops[0].src[1].offset = 4;
    vfetch_plan *plan;
    CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
    CHECK_EQ(vfetch_plan_stream_extent(plan, 0), 12);      /* z: bytes 8..11 */
    CHECK_EQ(vfetch_plan_stream_extent(plan, 1), 0);
    CHECK_EQ(vfetch_plan_record_size(plan), 16);
    CHECK_EQ(vfetch_plan_out_stride(plan), 16);            /* 0 means out_slots * 4 */
    CHECK_EQ(vfetch_plan_location(plan, 0), -1);
    CHECK_EQ(vfetch_plan_location(plan, 99), -1);
    vfetch_plan_free(plan);

    /* SWAP_32: logical byte 0 is physical byte 3 */
    base_desc(&d);
    d.streams[0].order = VFETCH_ORDER_SWAP_32;
    d.ops[0].format = VFETCH_FORMAT_FIXED8;
    d.ops[0].conversion = VFETCH_CONV_UINT;
    d.ops[0].count = 1;
    d.ops[0].src[0].offset = 0;
    d.out_stride = 32;
    d.location_slot[5] = 0;
    d.location_slot[6] = 4; /* past out_slots: normalised to -1 */
    CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
    CHECK_EQ(vfetch_plan_stream_extent(plan, 0), 4);
    CHECK_EQ(vfetch_plan_out_stride(plan), 32);
    CHECK_EQ(vfetch_plan_location(plan, 5), 0);
    CHECK_EQ(vfetch_plan_location(plan, 6), -1);
    CHECK(vfetch_plan_get_desc(plan) != NULL);
    CHECK_EQ(vfetch_plan_get_desc(plan)->out_stride, 32);
    vfetch_plan_free(plan);

    /* BIG_ENDIAN FIXED16 at offset 5: bytes 5 and 6 */
    base_desc(&d);
    d.streams[0].order = VFETCH_ORDER_BIG_ENDIAN;
    d.ops[0].format = VFETCH_FORMAT_FIXED16;
    d.ops[0].conversion = VFETCH_CONV_SINT;
    d.ops[0].count = 1;
    d.ops[0].src[0].offset = 5;
    CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
    CHECK_EQ(vfetch_plan_stream_extent(plan, 0), 7);
    vfetch_plan_free(plan);
}

static void test_describe(void)
{
    struct vfetch_plan_desc d;
    base_desc(&d);
    vfetch_plan *plan;
    CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
    const size_t need = vfetch_plan_describe(plan, NULL, 0);
    CHECK(need > 0);
    char *text = malloc(need + 1);
    CHECK_EQ(vfetch_plan_describe(plan, text, need + 1), need);
    CHECK_EQ(strlen(text), need);
    CHECK(strstr(text, "float32") != NULL);
    CHECK(strstr(text, "op 0") != NULL);
    CHECK(strstr(text, "stream 0") != NULL);
    printf("%s", text);
    /* truncation: always NUL-terminated, still returns the full length */
    char small[10];
    memset(small, 'x', sizeof small);
    CHECK_EQ(vfetch_plan_describe(plan, small, sizeof small), need);
    CHECK_EQ(small[9], '\0');
    CHECK_EQ(strncmp(small, text, 9), 0);
    free(text);
    vfetch_plan_free(plan);

    /* Only the enabled slots are named: op 1 writes y alone, slot 5 of 6 (4..7 would name
       slots past the record). */
    d.out_slots = 6;
    d.num_ops = 2;
    d.ops[1] = d.ops[0];
    d.ops[1].write_mask = 0x2;
    d.ops[1].dst_slot = 4;
    d.ops[0].write_mask = 0x6; /* y, z: slots 1..2 */
    CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
    char masked[1024];
    vfetch_plan_describe(plan, masked, sizeof masked);
    CHECK(strstr(masked, "mask -yz- -> slots 1..2\n") != NULL);
    CHECK(strstr(masked, "mask -y-- -> slot 5\n") != NULL);
    CHECK(strstr(masked, "..7") == NULL);
    vfetch_plan_free(plan);

    /* Exactly the slots stored, gaps included (x-zw at 8: 8 and 10..11, never 9) */
    d.out_slots = 12;
    d.ops[1].write_mask = 0xd;
    d.ops[1].dst_slot = 8;
    d.ops[0].write_mask = 0x5;
    CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
    vfetch_plan_describe(plan, masked, sizeof masked);
    CHECK(strstr(masked, "mask x-zw -> slots 8, 10..11\n") != NULL);
    CHECK(strstr(masked, "mask x-z- -> slots 0, 2\n") != NULL);
    vfetch_plan_free(plan);
}

/* vfetch_op_init and vfetch_plan_desc_init give a usable op: a hand-built op that sets only its
   format, conversion, count, sources and slot stores its components in order; a zeroed mask
   is refused (issue 12: a zeroed op turned (1, 2, 3) into (1, 1, 1), or stored nothing). */
static void test_op_defaults(void)
{
    struct vfetch_op op;
    memset(&op, 0x5a, sizeof op);
    vfetch_op_init(&op);
    for (unsigned c = 0; c < 4; c++)
        CHECK_EQ(op.swizzle[c], c);
    CHECK_EQ(op.write_mask, 0xf);
    CHECK_EQ(op.count, 0);
    CHECK_EQ(op.dst_slot, 0);
    CHECK_EQ(op.shift, 0);
    vfetch_op_init(NULL); /* no crash */

    struct vfetch_plan_desc d;
    vfetch_plan_desc_init(&d);
    for (unsigned i = 0; i < VFETCH_MAX_OPS; i++) {
        CHECK_EQ(d.ops[i].write_mask, 0xf);
        CHECK_EQ(d.ops[i].swizzle[3], 3);
    }
    d.num_streams = 1;
    d.streams[0].stride = 12;
    d.num_ops = 1;
    d.out_slots = 4;
    d.ops[0].format = VFETCH_FORMAT_FLOAT32;
    d.ops[0].conversion = VFETCH_CONV_FLOAT;
    d.ops[0].count = 3;
    for (unsigned c = 0; c < 3; c++)
        d.ops[0].src[c].offset = 4 * c;
    vfetch_plan *plan;
    CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
    const float in[3] = { 1.0f, 2.0f, 3.0f };
    float out[4] = { 0, 0, 0, 0 };
    struct vfetch_binding b = { in, sizeof in };
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = &b;
    p.num_streams = 1;
    p.count = 1;
    p.out = out;
    p.out_size = sizeof out;
    CHECK_EQ(vfetch_run(plan, &p), VFETCH_OK);
    CHECK_FLOAT(out[0], 1.0f);
    CHECK_FLOAT(out[1], 2.0f);
    CHECK_FLOAT(out[2], 3.0f);
    CHECK_FLOAT(out[3], 1.0f);
    vfetch_plan_free(plan);

    /* an op that stores nothing: refused, out-pointer untouched */
    d.ops[0].write_mask = 0;
    plan = (vfetch_plan *)&d;
    CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_EPLAN);
    CHECK(plan == (vfetch_plan *)&d);
}

/* vfetch_plan_info: the level and executor a plan runs, and why it runs per op. */
static void test_info(void)
{
    const unsigned saved = vfetch_get_cpu_mask();
    struct vfetch_plan_desc d;
    base_desc(&d);
    vfetch_plan *plan;
    struct vfetch_plan_info info;
    memset(&info, 0x5a, sizeof info);
    CHECK_EQ(vfetch_plan_info(NULL, &info), VFETCH_EINVAL);
    CHECK_EQ(info.record_lanes, 0x5a5a5a5au); /* untouched */

    /* the best level: the record program wherever the CPU has a byte shuffle */
    vfetch_set_cpu_mask(~0u);
    CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
    CHECK_EQ(vfetch_plan_info(plan, NULL), VFETCH_EINVAL);
    CHECK_EQ(vfetch_plan_info(plan, &info), VFETCH_OK);
    CHECK(strcmp(info.level, vfetch_cpu_name()) == 0);
    const unsigned shuffle = VFETCH_CPU_SSE41 | VFETCH_CPU_AVX2 | VFETCH_CPU_AVX512 | VFETCH_CPU_NEON;
    const int has_record = (vfetch_cpu_flags() & shuffle) != 0;
    CHECK_EQ(info.executor, has_record ? VFETCH_EXECUTOR_RECORD : VFETCH_EXECUTOR_PER_OP);
    CHECK_EQ(info.fallback, has_record ? VFETCH_FALLBACK_NONE : VFETCH_FALLBACK_LEVEL);
    if (has_record) {
        CHECK(info.record_lanes == 4 || info.record_lanes == 8 || info.record_lanes == 16);
        /* 4 slots a vertex: a group fills whole vectors */
        CHECK_EQ(info.record_group * 4, info.record_lanes * info.record_vectors);
        CHECK_EQ(info.fallback_reason[0], '\0');
        CHECK(info.small_draw_lanes == 0 || info.small_draw_lanes < info.record_lanes);
    }
    vfetch_plan_free(plan);

    /* asked for */
    d.path = VFETCH_PATH_PER_OP;
    CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
    CHECK_EQ(vfetch_plan_info(plan, &info), VFETCH_OK);
    CHECK_EQ(info.executor, VFETCH_EXECUTOR_PER_OP);
    CHECK_EQ(info.fallback, VFETCH_FALLBACK_REQUESTED);
    CHECK_EQ(info.record_lanes, 0);
    CHECK(strstr(info.fallback_reason, "per-op") != NULL);
    vfetch_plan_free(plan);
    d.path = VFETCH_PATH_AUTO;

    /* the reference level */
    vfetch_set_cpu_mask(0);
    CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
    CHECK_EQ(vfetch_plan_info(plan, &info), VFETCH_OK);
    CHECK(strcmp(info.level, "c") == 0);
    CHECK_EQ(info.fallback, VFETCH_FALLBACK_LEVEL);
    CHECK(info.fallback_reason[0] != '\0');
    vfetch_plan_free(plan);
    vfetch_set_cpu_mask(~0u);

    /* a format the lowering refuses: RGBA8 packed from bytes of two streams */
    if (has_record) {
        vfetch_plan_desc_init(&d);
        d.num_streams = 2;
        d.streams[0].stride = d.streams[1].stride = 4;
        d.num_ops = 1;
        d.out_slots = 1;
        d.ops[0].format = VFETCH_FORMAT_FIXED8;
        d.ops[0].conversion = VFETCH_CONV_PACK_UNORM8;
        d.ops[0].count = 4;
        d.ops[0].write_mask = 1;
        for (unsigned c = 0; c < 4; c++)
            d.ops[0].src[c] = (struct vfetch_source){ c / 2, c };
        CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
        CHECK_EQ(vfetch_plan_info(plan, &info), VFETCH_OK);
        CHECK_EQ(info.executor, VFETCH_EXECUTOR_PER_OP);
        CHECK_EQ(info.fallback, VFETCH_FALLBACK_FORMAT);
        CHECK(strstr(info.fallback_reason, "format") != NULL);
        vfetch_plan_free(plan);
    }
    vfetch_set_cpu_mask(saved);
}

static void test_hash(void)
{
    struct vfetch_plan_desc a, b;
    base_desc(&a);
    base_desc(&b);
    /* fields the plan ignores: sources past count, dst_slot of a fully masked op */
    b.ops[0].src[3].offset = 1234;
    b.ops[0].src[3].stream = 9;
    vfetch_plan *pa, *pb, *pc;
    CHECK_EQ(vfetch_plan_compile(&a, &pa), VFETCH_OK);
    CHECK_EQ(vfetch_plan_compile(&b, &pb), VFETCH_OK);
    CHECK(vfetch_plan_hash(pa) == vfetch_plan_hash(pb));
    CHECK_EQ(vfetch_plan_equal(pa, pb), 1);
    vfetch_plan_free(pb);
    CHECK_EQ(vfetch_plan_compile(&a, &pb), VFETCH_OK); /* stable across creations */
    CHECK(vfetch_plan_hash(pa) == vfetch_plan_hash(pb));

    static const int changes = 6;
    for (int i = 0; i < changes; i++) {
        base_desc(&b);
        switch (i) {
        case 0: b.streams[0].stride = 20; break;
        case 1: b.ops[0].src[2].offset = 12; break;
        case 2: b.ops[0].swizzle[3] = VFETCH_SWIZZLE_0; break;
        case 3: b.ops[0].write_mask = 0x7; break;
        case 4: b.out_stride = 32; break;
        default: b.streams[0].order = VFETCH_ORDER_SWAP_32; break;
        }
        CHECK_EQ(vfetch_plan_compile(&b, &pc), VFETCH_OK);
        CHECK(vfetch_plan_hash(pa) != vfetch_plan_hash(pc));
        CHECK_EQ(vfetch_plan_equal(pa, pc), 0);
        vfetch_plan_free(pc);
    }
    CHECK_EQ(vfetch_plan_equal(pa, NULL), 0);
    CHECK_EQ(vfetch_plan_hash(NULL), 0);
    vfetch_plan_free(pa);
    vfetch_plan_free(pb);
    vfetch_plan_free(NULL);
}

static void test_strerror(void)
{
    CHECK(strcmp(vfetch_strerror(VFETCH_OK), "success") == 0);
    for (int code = VFETCH_EINVAL; code > VFETCH_ECOUNT; code--) {
        const char *text = vfetch_strerror(code);
        CHECK(text && *text && strcmp(text, "unknown error") != 0);
        for (int other = VFETCH_EINVAL; other > code; other--)
            CHECK(strcmp(text, vfetch_strerror(other)) != 0);
    }
    CHECK(strcmp(vfetch_strerror(VFETCH_ECOUNT), "unknown error") == 0);
    CHECK(strcmp(vfetch_strerror(1), "unknown error") == 0);
    CHECK(strcmp(vfetch_version(), "0.2.0") == 0);
}

int main(void)
{
    test_rejections();
    test_sizes();
    test_describe();
    test_op_defaults();
    test_info();
    test_hash();
    test_strerror();
    return test_summary("plan");
}
