/*
 * Exhaustive checks of the scalar reference, and of whole plans at the best level this CPU
 * has, against formulas written independently here:
 *  - every value of every fixed-point width (8, 10, 11, 16 bits) under every conversion:
 *    the exact rational computed in double and rounded once to float (53 > 2*24+2 bits, so
 *    this rounds exactly like one IEEE float division);
 *  - all 65,536 binary16 values against libfp16's fp16_ieee_to_fp32_value, with signalling
 *    NaNs quieted as x86 F16C does (libfp16 keeps the payload as is).
 */
#include <fp16.h>
#include <math.h>
#include <stdlib.h>

#include "ref/ref.h"
#include "testutil.h"
#include "vfetch/vfetch.h"

static unsigned mismatches_printed;

/* The oracle of this test: double arithmetic, rounded once. */
static float expected_fixed(uint32_t field, unsigned bits, enum vfetch_conversion conv, unsigned shift)
{
    const int64_t u = field;
    const int64_t s = u >= (1ll << (bits - 1)) ? u - (1ll << bits) : u;
    const double unorm_den = (double)((1ll << bits) - 1);
    const double snorm_den = (double)((1ll << (bits - 1)) - 1);
    switch (conv) {
    case VFETCH_CONV_UINT: return (float)ldexp((double)u, -(int)shift);
    case VFETCH_CONV_SINT: return (float)ldexp((double)s, -(int)shift);
    case VFETCH_CONV_UNORM: return (float)((double)u / unorm_den);
    case VFETCH_CONV_SNORM_ZERO: return (float)((double)s / snorm_den);
    case VFETCH_CONV_SNORM_ZERO_CLAMP: {
        const double r = (double)s / snorm_den;
        return (float)(r < -1.0 ? -1.0 : r);
    }
    case VFETCH_CONV_SNORM_NO_ZERO: return (float)((double)(2 * s + 1) / unorm_den);
    default: abort();
    }
}

static void report(const char *what, uint32_t input, uint32_t got, uint32_t want)
{
    test_failures++;
    if (mismatches_printed++ < 10)
        fprintf(stderr, "%s: input 0x%x: got 0x%08x, want 0x%08x\n", what, input, got, want);
}

static const enum vfetch_conversion fixed_convs[] = {
    VFETCH_CONV_UINT, VFETCH_CONV_SINT, VFETCH_CONV_UNORM, VFETCH_CONV_SNORM_ZERO,
    VFETCH_CONV_SNORM_ZERO_CLAMP, VFETCH_CONV_SNORM_NO_ZERO,
};

/* The scalar reference function, value by value. */
static void check_reference_fixed(void)
{
    static const unsigned widths[] = { 8, 10, 11, 16 };
    static const unsigned shifts[] = { 0, 1, 7, 31 };
    for (size_t w = 0; w < 4; w++) {
        for (size_t c = 0; c < 6; c++) {
            for (size_t sh = 0; sh < 4; sh++) {
                const enum vfetch_conversion conv = fixed_convs[c];
                const unsigned shift = conv == VFETCH_CONV_UINT || conv == VFETCH_CONV_SINT ? shifts[sh] : 0;
                if (sh && !shift)
                    continue;
                for (uint32_t v = 0; v < (1u << widths[w]); v++) {
                    test_checks++;
                    const float got = vfetch_ref_fixed_to_float(v, widths[w], conv, shift);
                    const float want = expected_fixed(v, widths[w], conv, shift);
                    if (test_float_bits(got) != test_float_bits(want))
                        report("vfetch_ref_fixed_to_float", v, test_float_bits(got), test_float_bits(want));
                }
            }
        }
    }
}

/* libfp16 plus the quiet bit F16C sets on NaNs. (fp16_ieee_to_fp32_value, not _bits: the
   latter calls clz(0) for zero inputs, which UBSan rightly rejects.) */
static uint32_t expected_half(uint16_t h)
{
    uint32_t bits = test_float_bits(fp16_ieee_to_fp32_value(h));
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
        bits |= 0x00400000u;
    return bits;
}

static void check_reference_half(void)
{
    for (uint32_t h = 0; h < 65536; h++) {
        test_checks++;
        const uint32_t got = vfetch_ref_half_to_float_bits((uint16_t)h);
        if (got != expected_half((uint16_t)h))
            report("vfetch_ref_half_to_float_bits", h, got, expected_half((uint16_t)h));
    }
}

/* Run a one-op plan over n vertices of `stride` bytes and return the output (4 floats each). */
static uint32_t *run_one_op(const struct vfetch_op *op, const void *src, uint32_t stride, uint32_t n)
{
    struct vfetch_plan_desc d;
    vfetch_plan_desc_init(&d);
    d.num_streams = 1;
    d.streams[0].stride = stride;
    d.num_ops = 1;
    d.ops[0] = *op;
    d.out_slots = 4;
    vfetch_plan *plan;
    if (vfetch_plan_create(&d, &plan) != 0)
        return NULL;
    uint32_t *out = malloc((size_t)n * 16);
    struct vfetch_binding b = { src, (size_t)stride * n };
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = &b;
    p.num_streams = 1;
    p.count = n;
    p.out = out;
    p.out_size = (size_t)n * 16;
    if (vfetch_run(plan, &p) != 0) {
        free(out);
        out = NULL;
    }
    vfetch_plan_free(plan);
    return out;
}

static struct vfetch_op identity_op(enum vfetch_format format, enum vfetch_conversion conv,
                                    unsigned count, unsigned shift)
{
    struct vfetch_op op;
    memset(&op, 0, sizeof op);
    op.format = format;
    op.conversion = conv;
    op.count = (uint8_t)count;
    op.shift = (uint8_t)shift;
    for (unsigned c = 0; c < 4; c++)
        op.swizzle[c] = (uint8_t)c;
    op.write_mask = 0xf;
    return op;
}

/* Every 8- and 16-bit value through FIXED8 / FIXED16 plans, in every component position. */
static void check_plans_fixed_8_16(void)
{
    for (unsigned wide = 0; wide < 2; wide++) {
        const unsigned bits = wide ? 16 : 8, size = wide ? 2 : 1;
        const uint32_t n = 1u << bits;
        /* vertex v holds v in component 0, v+1 in 1, ... (wrapping), 4 components */
        uint8_t *src = malloc((size_t)n * 4 * size);
        for (uint32_t v = 0; v < n; v++)
            for (unsigned c = 0; c < 4; c++) {
                const uint32_t value = (v + c) & (n - 1);
                memcpy(src + (size_t)v * 4 * size + c * size, &value, size); /* little-endian host */
            }
        for (size_t ci = 0; ci < 6; ci++) {
            const enum vfetch_conversion conv = fixed_convs[ci];
            const unsigned shift = conv == VFETCH_CONV_UINT || conv == VFETCH_CONV_SINT ? 3 : 0;
            struct vfetch_op op = identity_op(wide ? VFETCH_FORMAT_FIXED16 : VFETCH_FORMAT_FIXED8, conv, 4, shift);
            for (unsigned c = 0; c < 4; c++)
                op.src[c].offset = c * size;
            uint32_t *out = run_one_op(&op, src, 4 * size, n);
            CHECK(out != NULL);
            if (!out)
                continue;
            for (uint32_t v = 0; v < n; v++)
                for (unsigned c = 0; c < 4; c++) {
                    const uint32_t value = (v + c) & (n - 1);
                    const uint32_t want = test_float_bits(expected_fixed(value, bits, conv, shift));
                    test_checks++;
                    if (out[v * 4 + c] != want)
                        report(wide ? "plan fixed16" : "plan fixed8", value, out[v * 4 + c], want);
                }
            free(out);
        }
        free(src);
    }
}

/* Every 10- and 11-bit value through the packed formats (x, y, z fields of one dword). */
static void check_plans_packed(void)
{
    for (unsigned eet = 0; eet < 2; eet++) {
        const unsigned shift_of[3] = { 0, eet ? 11 : 10, eet ? 22 : 20 };
        const unsigned bits_of[3] = { eet ? 11 : 10, eet ? 11 : 10, 10 };
        const uint32_t n = 2048;
        uint32_t *src = malloc(n * 4);
        for (uint32_t v = 0; v < n; v++) {
            uint32_t word = 0;
            for (unsigned c = 0; c < 3; c++)
                word |= ((v * (2 * c + 1) + c) & ((1u << bits_of[c]) - 1)) << shift_of[c];
            src[v] = word;
        }
        for (size_t ci = 0; ci < 6; ci++) {
            const enum vfetch_conversion conv = fixed_convs[ci];
            const unsigned shift = conv == VFETCH_CONV_SINT ? 31 : 0;
            struct vfetch_op op = identity_op(eet ? VFETCH_FORMAT_FIXED_11_11_10 : VFETCH_FORMAT_FIXED_10_10_10,
                                              conv, 3, shift);
            uint32_t *out = run_one_op(&op, src, 4, n);
            CHECK(out != NULL);
            if (!out)
                continue;
            for (uint32_t v = 0; v < n; v++) {
                for (unsigned c = 0; c < 3; c++) {
                    const uint32_t value = (v * (2 * c + 1) + c) & ((1u << bits_of[c]) - 1);
                    const uint32_t want = test_float_bits(expected_fixed(value, bits_of[c], conv, shift));
                    test_checks++;
                    if (out[v * 4 + c] != want)
                        report(eet ? "plan 11_11_10" : "plan 10_10_10", value, out[v * 4 + c], want);
                }
                test_checks++;
                if (out[v * 4 + 3] != 0x3f800000u)
                    report("plan packed w", v, out[v * 4 + 3], 0x3f800000u);
            }
            free(out);
        }
        free(src);
    }
}

/* All halves through FLOAT16 plans, two components per vertex. */
static void check_plans_half(void)
{
    const uint32_t n = 65536;
    uint16_t *src = malloc(n * 4);
    for (uint32_t v = 0; v < n; v++) {
        src[2 * v] = (uint16_t)v;
        src[2 * v + 1] = (uint16_t)(v ^ 0x8000);
    }
    struct vfetch_op op = identity_op(VFETCH_FORMAT_FLOAT16, VFETCH_CONV_FLOAT, 2, 0);
    op.src[1].offset = 2;
    uint32_t *out = run_one_op(&op, src, 4, n);
    CHECK(out != NULL);
    if (out) {
        for (uint32_t v = 0; v < n; v++) {
            test_checks += 2;
            if (out[4 * v] != expected_half((uint16_t)v))
                report("plan float16 x", v, out[4 * v], expected_half((uint16_t)v));
            if (out[4 * v + 1] != expected_half((uint16_t)(v ^ 0x8000)))
                report("plan float16 y", v ^ 0x8000, out[4 * v + 1], expected_half((uint16_t)(v ^ 0x8000)));
        }
    }
    free(out);
    free(src);
}

int main(void)
{
    printf("exhaustive: plans run at level %s\n", vfetch_cpu_name());
    check_reference_fixed();
    check_reference_half();
    check_plans_fixed_8_16();
    check_plans_packed();
    check_plans_half();
    return test_summary("exhaustive");
}
