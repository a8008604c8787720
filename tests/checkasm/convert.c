/*
 * checkasm: the per-op conversion kernels (one per format x conversion, named like
 * fixed16_snorm_no_zero; --list names them), each level's against the reference:
 *   - exhaustive: every value of every fixed-point field (8, 10, 11, 16 bits) under every
 *     conversion and every dequantisation shift, all 65,536 binary16 values, 65,536 random float32
 *     bit patterns plus the special values; in every byte order;
 *   - random cases: vertex counts 0..67 and a few large ones, component counts, offsets,
 *     strides (odd ones where the byte order allows), swizzles, write masks, destination slots
 *     and strides; every source and destination alignment 0..15;
 *   - buffers are exact and placed against PROT_NONE pages at their tail, or at their head:
 *     any byte read or written outside them crashes the test;
 *   - all of it again with FTZ/DAZ (x86 MXCSR) or FZ (aarch64 FPCR) set while the kernel runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"

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

/* Highest output byte (exclusive) one record of the op touches. */
static size_t op_record_extent(const struct vfetch_op *op)
{
    unsigned hi = 0;
    for (unsigned c = 0; c < 4; c++)
        if (op->write_mask >> c & 1)
            hi = c + 1;
    return hi ? 4 * ((size_t)op->dst_slot + hi) : 0;
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
    int err = vfetch_plan_compile(&d, &plan);
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

void check_kernels(void)
{
    for (unsigned i = 0; i < num_kernels; i++) {
        const struct kernel *k = &kernels[i];
        if (!checkasm_wants(k->name))
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
