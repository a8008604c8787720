/*
 * The scalar reference: every source format x conversion as a per-op kernel, and the scalar
 * conversions they are built from. Written straight from the conversion rules (docs/r300.md,
 * docs/decisions.md); this is the oracle the SIMD kernels are compared with, so clarity wins over speed everywhere.
 */
#include <math.h>
#include <string.h>

#include "dsp.h"
#include "plan_internal.h"
#include "ref/ref.h"
#include "vertex_format.h"

const struct vfetch_format_info vfetch_format_info[VFETCH_FORMAT_COUNT] = {
    [VFETCH_FORMAT_FLOAT32] = { "float32", 4, 0, 4, 1, { 0, 0, 0, 0 }, { 32, 32, 32, 32 } },
    [VFETCH_FORMAT_FLOAT16] = { "float16", 2, 0, 4, 1, { 0, 0, 0, 0 }, { 16, 16, 16, 16 } },
    [VFETCH_FORMAT_FIXED8] = { "fixed8", 1, 0, 4, 0, { 0, 0, 0, 0 }, { 8, 8, 8, 8 } },
    [VFETCH_FORMAT_FIXED16] = { "fixed16", 2, 0, 4, 0, { 0, 0, 0, 0 }, { 16, 16, 16, 16 } },
    [VFETCH_FORMAT_FIXED_10_10_10] = { "fixed_10_10_10", 4, 1, 3, 0, { 0, 10, 20, 0 },
                                       { 10, 10, 10, 0 } },
    [VFETCH_FORMAT_FIXED_11_11_10] = { "fixed_11_11_10", 4, 1, 3, 0, { 0, 11, 22, 0 },
                                       { 11, 11, 10, 0 } },
    [VFETCH_FORMAT_RGB565] = { "rgb565", 2, 1, 3, 0, { 11, 5, 0, 0 }, { 5, 6, 5, 0 } },
    [VFETCH_FORMAT_RGBA4444] = { "rgba4444", 2, 1, 4, 0, { 12, 8, 4, 0 }, { 4, 4, 4, 4 } },
    [VFETCH_FORMAT_RGBA6666] = { "rgba6666", 3, 1, 4, 0, { 18, 12, 6, 0 }, { 6, 6, 6, 6 } },
    [VFETCH_FORMAT_UINT6] = { "uint6", 1, 0, 4, 0, { 0, 0, 0, 0 }, { 6, 6, 6, 6 } },
    [VFETCH_FORMAT_FIXED32] = { "fixed32", 4, 0, 4, 0, { 0, 0, 0, 0 }, { 32, 32, 32, 32 } },
    [VFETCH_FORMAT_FIXED_10_10_10_2] = { "fixed_10_10_10_2", 4, 1, 4, 0, { 0, 10, 20, 30 },
                                         { 10, 10, 10, 2 } },
    [VFETCH_FORMAT_UFLOAT_11_11_10] = { "ufloat_11_11_10", 4, 1, 3, 1, { 0, 11, 22, 0 },
                                        { 11, 11, 10, 0 } },
    [VFETCH_FORMAT_CONSTANT] = { "constant", 0, 0, 0, 1, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } },
};

const char *const vfetch_conversion_name[VFETCH_CONV_COUNT] = {
    [VFETCH_CONV_FLOAT] = "float",
    [VFETCH_CONV_UINT] = "uint",
    [VFETCH_CONV_SINT] = "sint",
    [VFETCH_CONV_UNORM] = "unorm",
    [VFETCH_CONV_SNORM_ZERO] = "snorm_zero",
    [VFETCH_CONV_SNORM_ZERO_CLAMP] = "snorm_zero_clamp",
    [VFETCH_CONV_SNORM_NO_ZERO] = "snorm_no_zero",
    [VFETCH_CONV_UNORM8] = "unorm8",
    [VFETCH_CONV_INTEGER] = "integer",
    [VFETCH_CONV_PACK_UNORM8] = "pack_unorm8",
    [VFETCH_CONV_SINTEGER] = "sinteger",
};

uint32_t vfetch_ref_half_to_float_bits(uint16_t half)
{
    const uint32_t sign = (uint32_t)(half >> 15) << 31;
    const uint32_t exponent = (half >> 10) & 0x1f;
    uint32_t mantissa = half & 0x3ff;

    if (exponent == 0x1f) {
        if (mantissa == 0)
            return sign | 0x7f800000u; /* +-inf */
        return sign | 0x7fc00000u | (mantissa << 13); /* NaN: payload kept, quiet bit set */
    }
    if (exponent == 0) {
        if (mantissa == 0)
            return sign; /* +-0 */
        /* Denormal m * 2^-24: normalise so that bit 10 is the implicit one. */
        uint32_t shifts = 0;
        while (!(mantissa & 0x400)) {
            mantissa <<= 1;
            shifts++;
        }
        return sign | ((113 - shifts) << 23) | ((mantissa & 0x3ff) << 13);
    }
    return sign | ((exponent + 112) << 23) | (mantissa << 13); /* rebias 15 -> 127 */
}

uint32_t vfetch_ref_ufloat_to_float_bits(uint32_t field, unsigned bits)
{
    /* Exponent to bits 14:10, mantissa to the top of bits 9:0: the same value as a half. */
    return vfetch_ref_half_to_float_bits((uint16_t)(field << (15 - bits)));
}

float vfetch_ref_div_all_ones(uint32_t m, unsigned k)
{
    const uint64_t all = ((uint64_t)1 << k) - 1;
    if (m == 0)
        return 0.0f;
    if (m == all)
        return 1.0f;
    /* In binary, m / (2^k - 1) = m 2^-k + m 2^-2k + ...: m's k bits repeated forever. The
       first 2k of them (w, read as w 2^-2k) hold the 24 bits kept and the rounding bit below
       them (k >= 24, and w's top bit is at k or above); the bits after those are never all
       zero (m != 0), so there is no tie: round up exactly when the rounding bit is 1. */
    const uint64_t w = (uint64_t)m << k | m;
    unsigned top = 63;
    while (!(w >> top & 1))
        top--;
    const uint64_t kept = (w >> (top - 23)) + (w >> (top - 24) & 1); /* <= 2^24: exact */
    return ldexpf((float)kept, (int)top - 23 - 2 * (int)k);
}

/* 2^-shift, exact (shift 0..31 keeps it a normal float). */
static inline float ref_scale(unsigned shift)
{
    uint32_t bits = (127u - shift) << 23;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline int32_t ref_sign_extend(uint32_t field, unsigned bits)
{
    const uint32_t sign = 1u << (bits - 1);
    return (int32_t)((field ^ sign) - sign);
}

float vfetch_ref_fixed_to_float(uint32_t field, unsigned bits, enum vfetch_conversion conv,
                                unsigned shift)
{
    const uint32_t u = bits >= 32 ? field : field & ((1u << bits) - 1);
    const int32_t s = ref_sign_extend(u, bits);
    if (bits == 32) {
        /* (float) of a 32-bit integer is one correctly rounded conversion; the divisions by
           2^32 - 1 and 2^31 - 1 are not float divisions (see vfetch_ref_div_all_ones). */
        switch (conv) {
        case VFETCH_CONV_UINT: return (float)u * ref_scale(shift);
        case VFETCH_CONV_SINT: return (float)s * ref_scale(shift);
        case VFETCH_CONV_UNORM: return vfetch_ref_div_all_ones(u, 32);
        case VFETCH_CONV_SNORM_ZERO_CLAMP:
            if (s == INT32_MIN)
                return -1.0f;
            return s < 0 ? -vfetch_ref_div_all_ones((uint32_t)-s, 31)
                         : vfetch_ref_div_all_ones((uint32_t)s, 31);
        default: return 0.0f;
        }
    }
    /* Numerators and denominators are below 2^17, so each (float) is exact and the division
       is the one correctly rounded IEEE operation the spec asks for. */
    const float unorm_den = (float)((1u << bits) - 1);
    const float snorm_den = (float)((1u << (bits - 1)) - 1);

    switch (conv) {
    case VFETCH_CONV_UINT: return (float)u * ref_scale(shift);
    case VFETCH_CONV_SINT: return (float)s * ref_scale(shift);
    case VFETCH_CONV_UNORM: return (float)u / unorm_den;
    case VFETCH_CONV_SNORM_ZERO: return (float)s / snorm_den;
    case VFETCH_CONV_SNORM_ZERO_CLAMP: {
        const float r = (float)s / snorm_den;
        return r < -1.0f ? -1.0f : r;
    }
    case VFETCH_CONV_SNORM_NO_ZERO: return (float)(2 * s + 1) / unorm_den;
    case VFETCH_CONV_UNORM8: return (float)vfetch_widen8(u, bits) / 255.0f;
    default: return 0.0f;
    }
}

/* The container's bytes, least significant first, as the lane's byte map says. */
static inline uint32_t ref_read_container(const uint8_t *record, const struct vfetch_lane *lane,
                                          unsigned nbytes)
{
    uint32_t value = 0;
    for (unsigned k = 0; k < nbytes; k++)
        value |= (uint32_t)record[lane->byte_off[k]] << (8 * k);
    return value;
}

static inline uint32_t ref_field(uint32_t container, const struct vfetch_lane *lane)
{
    const uint32_t mask = lane->field_bits >= 32 ? 0xffffffffu : (1u << lane->field_bits) - 1;
    return (container >> lane->field_shift) & mask;
}

static inline uint32_t ref_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* One kernel per format x conversion. CONVERT (using field, lane, op) yields float32 bits. */
#define REF_KERNEL(name, NBYTES, CONVERT)                                                   \
    static VFETCH_CONVERT_FN(name)                                                          \
    {                                                                                       \
        for (size_t i = 0; i < n; i++) {                                                    \
            uint32_t v[4] = { 0, 0, 0, VFETCH_ONE_BITS }; /* missing: (0, 0, 0, 1) */      \
            for (unsigned c = 0; c < op->count; c++) {                                      \
                const struct vfetch_lane *lane = &op->lane[c];                              \
                const uint8_t *record = base[lane->stream] + i * stride[lane->stream];      \
                const uint32_t field = ref_field(ref_read_container(record, lane, NBYTES), lane); \
                v[c] = CONVERT;                                                             \
            }                                                                               \
            vfetch_store_vec4(op, v, dst + i * dst_stride);                                 \
        }                                                                                   \
    }

#define REF_FIXED(conv) ref_float_bits(vfetch_ref_fixed_to_float(field, lane->field_bits, conv, op->shift))

/* RGBA8: bytes R, G, B, A (missing 0, 0, 0, 255) into the op's one slot. */
#define REF_PACK_KERNEL(name, NBYTES)                                                       \
    static VFETCH_CONVERT_FN(name)                                                          \
    {                                                                                       \
        for (size_t i = 0; i < n; i++) {                                                    \
            uint8_t rgba[4] = { 0, 0, 0, 255 };                                             \
            for (unsigned c = 0; c < op->count; c++) {                                      \
                const struct vfetch_lane *lane = &op->lane[c];                              \
                const uint8_t *record = base[lane->stream] + i * stride[lane->stream];      \
                const uint32_t field = ref_field(ref_read_container(record, lane, NBYTES), lane); \
                rgba[c] = (uint8_t)vfetch_widen8(field, lane->field_bits);                  \
            }                                                                               \
            memcpy(dst + i * dst_stride + 4 * (size_t)op->dst_slot, rgba, 4);               \
        }                                                                                   \
    }

REF_KERNEL(convert_float32_c, 4, field)
REF_KERNEL(convert_float16_c, 2, vfetch_ref_half_to_float_bits((uint16_t)field))
REF_KERNEL(convert_ufloat_11_11_10_c, 4, vfetch_ref_ufloat_to_float_bits(field, lane->field_bits))

/* A constant op: its four words under the write mask, nothing read. */
static VFETCH_CONVERT_FN(convert_constant_c)
{
    (void)base;
    (void)stride;
    for (size_t i = 0; i < n; i++)
        for (unsigned c = 0; c < 4; c++)
            if (op->write_mask >> c & 1)
                memcpy(dst + i * dst_stride + 4 * ((size_t)op->dst_slot + c), &op->constant[c], 4);
}

#define REF_FIXED_KERNELS(fmt, NBYTES)                                                      \
    REF_KERNEL(convert_##fmt##_uint_c, NBYTES, REF_FIXED(VFETCH_CONV_UINT))                 \
    REF_KERNEL(convert_##fmt##_sint_c, NBYTES, REF_FIXED(VFETCH_CONV_SINT))                 \
    REF_KERNEL(convert_##fmt##_unorm_c, NBYTES, REF_FIXED(VFETCH_CONV_UNORM))               \
    REF_KERNEL(convert_##fmt##_snorm_zero_c, NBYTES, REF_FIXED(VFETCH_CONV_SNORM_ZERO))     \
    REF_KERNEL(convert_##fmt##_snorm_zero_clamp_c, NBYTES,                                  \
               REF_FIXED(VFETCH_CONV_SNORM_ZERO_CLAMP))                                     \
    REF_KERNEL(convert_##fmt##_snorm_no_zero_c, NBYTES, REF_FIXED(VFETCH_CONV_SNORM_NO_ZERO)) \
    REF_KERNEL(convert_##fmt##_unorm8_c, NBYTES, REF_FIXED(VFETCH_CONV_UNORM8))             \
    REF_KERNEL(convert_##fmt##_integer_c, NBYTES, field)                                    \
    REF_PACK_KERNEL(convert_##fmt##_pack_unorm8_c, NBYTES)                                  \
    REF_KERNEL(convert_##fmt##_sinteger_c, NBYTES,                                          \
               (uint32_t)ref_sign_extend(field, lane->field_bits))

REF_FIXED_KERNELS(fixed8, 1)
REF_FIXED_KERNELS(fixed16, 2)
REF_FIXED_KERNELS(fixed_10_10_10, 4)
REF_FIXED_KERNELS(fixed_11_11_10, 4)
REF_FIXED_KERNELS(rgb565, 2)
REF_FIXED_KERNELS(rgba4444, 2)
REF_FIXED_KERNELS(rgba6666, 3)
REF_FIXED_KERNELS(uint6, 1)
REF_FIXED_KERNELS(fixed32, 4)
REF_FIXED_KERNELS(fixed_10_10_10_2, 4)

#define REF_FIXED_ROW(fmt)                                                                  \
    {                                                                                       \
        NULL, convert_##fmt##_uint_c, convert_##fmt##_sint_c, convert_##fmt##_unorm_c,      \
            convert_##fmt##_snorm_zero_c, convert_##fmt##_snorm_zero_clamp_c,               \
            convert_##fmt##_snorm_no_zero_c, convert_##fmt##_unorm8_c,                      \
            convert_##fmt##_integer_c, convert_##fmt##_pack_unorm8_c,                       \
            convert_##fmt##_sinteger_c                                                      \
    }

static vfetch_convert_fn *const ref_kernels[VFETCH_FORMAT_COUNT][VFETCH_CONV_COUNT] = {
    [VFETCH_FORMAT_FLOAT32] = { convert_float32_c },
    [VFETCH_FORMAT_FLOAT16] = { convert_float16_c },
    [VFETCH_FORMAT_FIXED8] = REF_FIXED_ROW(fixed8),
    [VFETCH_FORMAT_FIXED16] = REF_FIXED_ROW(fixed16),
    [VFETCH_FORMAT_FIXED_10_10_10] = REF_FIXED_ROW(fixed_10_10_10),
    [VFETCH_FORMAT_FIXED_11_11_10] = REF_FIXED_ROW(fixed_11_11_10),
    [VFETCH_FORMAT_RGB565] = REF_FIXED_ROW(rgb565),
    [VFETCH_FORMAT_RGBA4444] = REF_FIXED_ROW(rgba4444),
    [VFETCH_FORMAT_RGBA6666] = REF_FIXED_ROW(rgba6666),
    [VFETCH_FORMAT_UINT6] = REF_FIXED_ROW(uint6),
    [VFETCH_FORMAT_FIXED32] = REF_FIXED_ROW(fixed32),
    [VFETCH_FORMAT_FIXED_10_10_10_2] = REF_FIXED_ROW(fixed_10_10_10_2),
    [VFETCH_FORMAT_UFLOAT_11_11_10] = { convert_ufloat_11_11_10_c },
    [VFETCH_FORMAT_CONSTANT] = { convert_constant_c },
};

void vfetch_dsp_init_c(struct vfetch_dsp *dsp)
{
    memcpy(dsp->convert, ref_kernels, sizeof ref_kernels);
}
