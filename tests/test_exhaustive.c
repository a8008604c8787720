/*
 * Exhaustive checks of the scalar reference, and of whole plans at the best level this CPU
 * has, against formulas written independently here:
 *  - every value of every fixed-point width (8, 10, 11, 16 bits) under every conversion:
 *    the exact rational computed in double and rounded once to float (53 > 2*24+2 bits, so
 *    this rounds exactly like one IEEE float division);
 *  - all 65,536 binary16 values against libfp16's fp16_ieee_to_fp32_value, with signalling
 *    NaNs quieted as x86 F16C does (libfp16 keeps the payload as is);
 *  - every 11- and 10-bit unsigned small float (Maxwell B10G11R11) against its definition
 *    (2^(e-15) (1 + m/2^n), denormals 2^-14 m/2^n, exponent 31 inf/NaN) in double;
 *  - 32-bit fields (edge values and 2^20 random ones): UINT/SINT through double (exact for
 *    32-bit integers), UNORM/SNORM against an exact integer test of "nearest float" (128-bit
 *    arithmetic, where the compiler has it);
 *  - every A2B10G10R10 word's four fields through plans (10-bit fields, the 2-bit alpha).
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
    static const unsigned widths[] = { 2, 8, 10, 11, 16 };
    static const unsigned shifts[] = { 0, 1, 7, 31 };
    for (size_t w = 0; w < 5; w++) {
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

/* An unsigned small float by its definition. */
static uint32_t expected_ufloat(uint32_t v, unsigned bits)
{
    const unsigned mbits = bits - 5, e = v >> mbits, m = v & ((1u << mbits) - 1);
    if (e == 31)
        return m ? 0x7fc00000u | m << (23 - mbits) : 0x7f800000u; /* quiet NaN, payload kept */
    const double value = e ? ldexp(1.0 + ldexp(m, -(int)mbits), (int)e - 15)
                           : ldexp(m, -14 - (int)mbits);
    return test_float_bits((float)value); /* exact: at most 7 significant bits */
}

static void check_reference_ufloat(void)
{
    for (unsigned bits = 10; bits <= 11; bits++)
        for (uint32_t v = 0; v < (1u << bits); v++) {
            test_checks++;
            const uint32_t got = vfetch_ref_ufloat_to_float_bits(v, bits);
            if (got != expected_ufloat(v, bits))
                report(bits == 11 ? "ufloat11" : "ufloat10", v, got, expected_ufloat(v, bits));
        }
}

#ifdef __SIZEOF_INT128__
/* Whether r is m / (2^k - 1) rounded to nearest: with r = M 2^E (M < 2^24 an integer),
   |m 2^-E - M D| < D/2 (no ties: see vfetch_ref_div_all_ones), the lower neighbour's spacing
   halved when M is a power of two and the quotient lies below r. */
static int is_nearest(float r, uint32_t m, unsigned k)
{
    const __int128 D = ((__int128)1 << k) - 1;
    int e;
    const float frac = frexpf(r, &e); /* r = frac 2^e, frac in [0.5, 1) */
    const int E = e - 24;
    const __int128 M = (__int128)ldexpf(frac, 24);
    if (-E > 90 || E > 0)
        return 0;
    const __int128 x = (__int128)m << -E; /* the quotient times D 2^-E */
    const __int128 diff = x - M * D;
    const __int128 half_spacing = (M == ((__int128)1 << 23) && diff < 0) ? D / 4 : D / 2;
    const __int128 adiff = diff < 0 ? -diff : diff;
    return adiff < half_spacing || (adiff == half_spacing && (D & 1) == 0);
}
#endif

/* 32-bit fields, through the reference: edge values and random ones. */
static void check_reference_fixed32(void)
{
    uint64_t state = 0x9e3779b97f4a7c15ull;
    for (uint32_t i = 0; i < (1u << 20) + 64; i++) {
        uint32_t v;
        if (i < 64) { /* around 0, 2^31 and 2^32 */
            static const uint32_t centre[] = { 0, 0x80000000u, 0xffffffe0u, 0x7fffffe0u };
            v = centre[i / 16] + (i % 16);
        } else {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            v = (uint32_t)(state >> 32);
        }
        const int32_t s = (int32_t)v;
        test_checks += 4;
        uint32_t got = test_float_bits(vfetch_ref_fixed_to_float(v, 32, VFETCH_CONV_UINT, 3));
        uint32_t want = test_float_bits((float)ldexp((double)v, -3));
        if (got != want)
            report("uint32", v, got, want);
        got = test_float_bits(vfetch_ref_fixed_to_float(v, 32, VFETCH_CONV_SINT, 0));
        want = test_float_bits((float)(double)s);
        if (got != want)
            report("sint32", v, got, want);
#ifdef __SIZEOF_INT128__
        const float un = vfetch_ref_fixed_to_float(v, 32, VFETCH_CONV_UNORM, 0);
        const int un_ok = v == 0 ? test_float_bits(un) == 0
                                 : v == 0xffffffffu ? un == 1.0f : is_nearest(un, v, 32);
        if (!un_ok)
            report("unorm32", v, test_float_bits(un), 0);
        const float sn = vfetch_ref_fixed_to_float(v, 32, VFETCH_CONV_SNORM_ZERO_CLAMP, 0);
        const uint32_t mag = s < 0 ? (uint32_t)0 - v : v;
        int sn_ok;
        if (s == INT32_MIN || s == -INT32_MAX)
            sn_ok = sn == -1.0f;
        else if (s == 0)
            sn_ok = test_float_bits(sn) == 0;
        else if (s == INT32_MAX)
            sn_ok = sn == 1.0f;
        else
            sn_ok = (sn < 0) == (s < 0) && is_nearest(fabsf(sn), mag, 31);
        if (!sn_ok)
            report("snorm32", v, test_float_bits(sn), 0);
#endif
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
    if (vfetch_plan_compile(&d, &plan) != 0)
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

/* Every field value of the Maxwell packed formats through plans: A2B10G10R10 (all 4 alpha
   values with every 10-bit one) under every conversion, and B10G11R11's small floats. */
static void check_plans_maxwell_packed(void)
{
    const uint32_t n = 4096;
    uint32_t *src = malloc(n * 4);
    for (uint32_t v = 0; v < n; v++) /* R = v, G = ~v, B = 5v + 3 (bijections mod 1024), A = v >> 10 */
        src[v] = (v & 0x3ff) | (~v & 0x3ff) << 10 | ((5 * v + 3) & 0x3ff) << 20 | (v >> 10) << 30;
    for (size_t ci = 0; ci < 6; ci++) {
        const enum vfetch_conversion conv = fixed_convs[ci];
        struct vfetch_op op = identity_op(VFETCH_FORMAT_FIXED_10_10_10_2, conv, 4, 0);
        uint32_t *out = run_one_op(&op, src, 4, n);
        CHECK(out != NULL);
        for (uint32_t v = 0; out && v < n; v++) {
            static const unsigned shift_of[4] = { 0, 10, 20, 30 }, bits_of[4] = { 10, 10, 10, 2 };
            for (unsigned c = 0; c < 4; c++) {
                const uint32_t value = src[v] >> shift_of[c] & ((1u << bits_of[c]) - 1);
                const uint32_t want = test_float_bits(expected_fixed(value, bits_of[c], conv, 0));
                test_checks++;
                if (out[v * 4 + c] != want)
                    report("plan 10_10_10_2", value, out[v * 4 + c], want);
            }
        }
        free(out);
    }
    for (uint32_t v = 0; v < 2048; v++) /* R = v, G = ~v, B = 3v + 1 (every 10-bit value) */
        src[v] = v | (~v & 0x7ff) << 11 | ((3 * v + 1) & 0x3ff) << 22;
    struct vfetch_op op = identity_op(VFETCH_FORMAT_UFLOAT_11_11_10, VFETCH_CONV_FLOAT, 3, 0);
    uint32_t *out = run_one_op(&op, src, 4, 2048);
    CHECK(out != NULL);
    for (uint32_t v = 0; out && v < 2048; v++) {
        const uint32_t field[3] = { v, ~v & 0x7ff, (3 * v + 1) & 0x3ff };
        for (unsigned c = 0; c < 3; c++) {
            const uint32_t want = expected_ufloat(field[c], c == 2 ? 10 : 11);
            test_checks++;
            if (out[v * 4 + c] != want)
                report("plan ufloat_11_11_10", field[c], out[v * 4 + c], want);
        }
        test_checks++;
        if (out[v * 4 + 3] != 0x3f800000u)
            report("plan ufloat w", v, out[v * 4 + 3], 0x3f800000u);
    }
    free(out);
    free(src);
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
    check_reference_ufloat();
    check_reference_fixed32();
    check_plans_fixed_8_16();
    check_plans_packed();
    check_plans_half();
    check_plans_maxwell_packed();
    return test_summary("exhaustive");
}
