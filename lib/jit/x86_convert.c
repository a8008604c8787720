/*
 * Conversions (lib/jit/x86_gen.h): an op's containers, at the tops of xmm0's lanes, to its
 * fields (two shifts of each lane by its own count), then to what the op stores, one emitter
 * per conversion, chosen by table (gen_converter). Each gives the reference's values exactly:
 * 2^-shift products and the reference's one division are exact or rounded once as it rounds.
 */
#include "jit/x86_gen.h"
#include "vertex_format.h"

/* Shifts of xmm0's lanes, each by its own count (gen_shift_lanes). */
enum shift_kind { SHIFT_LEFT, SHIFT_LEFT_TO_X1, SHIFT_RIGHT_ARITH, SHIFT_RIGHT_LOGICAL };

static const struct {
    enum x86_shape imm, var, copy; /* copy: X86_NUM_SHAPES where the result is xmm0 */
} shift_forms[] = {
    [SHIFT_LEFT] = { X86_VPSLLD_X0_X0_I, X86_VPSLLVD_X0_X0_P, X86_NUM_SHAPES },
    [SHIFT_LEFT_TO_X1] = { X86_VPSLLD_X1_X0_I, X86_VPSLLVD_X1_X0_P, X86_VMOVDQA_X1_X0 },
    [SHIFT_RIGHT_ARITH] = { X86_VPSRAD_X0_X0_I, X86_VPSRAVD_X0_X0_P, X86_NUM_SHAPES },
    [SHIFT_RIGHT_LOGICAL] = { X86_VPSRLD_X0_X0_I, X86_VPSRLVD_X0_X0_P, X86_NUM_SHAPES },
};

/* The immediate form where the used lanes agree, else the variable form with the counts from
   the pool; nothing (or the copy into xmm1) where no lane shifts. SSE4.1 has no shift of each
   lane by its own count: left shifts multiply by the powers of two (the low 32 bits of the
   product are the shifted lane), right shifts are made once per count from a copy of the lanes
   (xmm2) and blended in (through xmm3). */
static void shift_lanes(struct gen *g, enum shift_kind kind, const uint32_t count[4],
                        unsigned used)
{
    int uniform = 1, any = 0;
    for (unsigned c = 0; c < used; c++) {
        uniform &= count[c] == count[0];
        any |= count[c] != 0;
    }
    if (!any) {
        if (shift_forms[kind].copy != X86_NUM_SHAPES)
            x86_op(&g->a, shift_forms[kind].copy, 0, 0);
        return;
    }
    if (uniform) {
        x86_op(&g->a, shift_forms[kind].imm, 0, count[0]);
        return;
    }
    if (!g->a.sse) {
        uint32_t v[4] = { 0, 0, 0, 0 };
        for (unsigned c = 0; c < used; c++)
            v[c] = count[c];
        x86_op(&g->a, shift_forms[kind].var, (int64_t)POOL(v), 0);
        return;
    }
    if (kind == SHIFT_LEFT || kind == SHIFT_LEFT_TO_X1) {
        uint32_t power[4] = { 1, 1, 1, 1 };
        for (unsigned c = 0; c < used; c++)
            power[c] = 1u << count[c];
        x86_op(&g->a, kind == SHIFT_LEFT ? X86_VPMULLD_X0_X0_P : X86_VPMULLD_X1_X0_P,
               (int64_t)POOL(power), 0);
        return;
    }
    const int arith = kind == SHIFT_RIGHT_ARITH;
    E(VMOVDQA_X2_X0, 0, 0);
    unsigned done = 0;
    for (unsigned c = 0; c < used; c++) {
        if (done >> c & 1)
            continue;
        unsigned lanes = 0;
        for (unsigned k = c; k < used; k++)
            if (count[k] == count[c])
                lanes |= 1u << k;
        if (!done) { /* every lane at the first count, the others blended over it */
            x86_op(&g->a, arith ? X86_VPSRAD_X0_X0_I : X86_VPSRLD_X0_X0_I, 0, count[c]);
        } else {
            x86_op(&g->a, arith ? X86_VPSRAD_X3_X2_I : X86_VPSRLD_X3_X2_I, 0, count[c]);
            E(VBLENDPS_X0_X0_X3_I, 0, lanes);
        }
        done |= lanes;
    }
}

static int conv_signed(enum vfetch_conversion conv)
{
    return conv == VFETCH_CONV_SINT || conv == VFETCH_CONV_SNORM_ZERO ||
           conv == VFETCH_CONV_SNORM_ZERO_CLAMP || conv == VFETCH_CONV_SNORM_NO_ZERO ||
           conv == VFETCH_CONV_SINTEGER;
}

/* Whether an op's containers are loaded to the bottoms of their lanes, zero-extended: unsigned
   fields that fill their containers (bytes, shorts as they are), which are then their fields
   without a shift. The others go to the lanes' tops (x86_load.c, shuffle_control). */
int gen_fields_at_bottom(const struct vfetch_op_exec *x)
{
    if (vfetch_format_info[x->format].is_float || conv_signed(x->conversion))
        return 0;
    for (unsigned c = 0; c < x->count; c++)
        if (x->lane[c].field_shift || x->lane[c].field_bits != 8 * x->lane[0].nbytes)
            return 0;
    return 1;
}

/* The fields of fixed-point containers (and B10G11R11's): each shifted to its lane's top, then
   down to its bottom, sign-extended for signed conversions; nothing where they are there. */
void gen_fields(struct gen *g, const struct vfetch_op_exec *x)
{
    if ((vfetch_format_info[x->format].is_float && x->format != VFETCH_FORMAT_UFLOAT_11_11_10) ||
        gen_fields_at_bottom(x))
        return;
    const unsigned used = x->count, nb = x->lane[0].nbytes;
    uint32_t left[4] = { 0 }, right[4] = { 0 };
    for (unsigned c = 0; c < used; c++) {
        left[c] = 8 * nb - x->lane[c].field_shift - x->lane[c].field_bits;
        right[c] = 32 - x->lane[c].field_bits;
    }
    shift_lanes(g, SHIFT_LEFT, left, used);
    shift_lanes(g, conv_signed(x->conversion) ? SHIFT_RIGHT_ARITH : SHIFT_RIGHT_LOGICAL, right,
                used);
}

/* xmm0 *= 2^-shift (exact), where shift is not 0: the factor splatted in the pool, as `entries`
   16-byte entries, by shape `mul`. */
void gen_scale(struct gen *g, enum x86_shape mul, unsigned shift, unsigned entries)
{
    if (!shift)
        return;
    const uint32_t b = (127u - shift) << 23;
    const uint32_t scale[8] = { b, b, b, b, b, b, b, b };
    x86_op(&g->a, mul, (int64_t)x86_const_wide(&g->a, scale, entries), 0);
}

/* Four binary16 values (xmm0's low 64 bits) to float, exactly: F16C, or at SSE4.1 by integers
   as the reference does (lib/ref/convert_ref.c): the magnitude rebiased (normal numbers; inf
   and NaN to exponent 255, a NaN quieted), denormals as m 2^-24 (one exact conversion and
   product, normal results: unmoved by FTZ and DAZ), the sign put back. */
static void half_to_float(struct gen *g)
{
    if (!g->a.sse) {
        E(VCVTPH2PS_X0_X0, 0, 0);
        return;
    }
    static const uint32_t magnitude[4] = { 0x7fff, 0x7fff, 0x7fff, 0x7fff },
                          rebias[4] = { 0x38000000, 0x38000000, 0x38000000, 0x38000000 },
                          finite_top[4] = { 0x7bff, 0x7bff, 0x7bff, 0x7bff },
                          inf[4] = { 0x7c00, 0x7c00, 0x7c00, 0x7c00 },
                          quiet[4] = { 0x400000, 0x400000, 0x400000, 0x400000 },
                          normal_low[4] = { 0x400, 0x400, 0x400, 0x400 };
    static const float denormal_unit[4] = { 0x1p-24f, 0x1p-24f, 0x1p-24f, 0x1p-24f };
    E(VPMOVZXWD_X0_X0, 0, 0);
    E(VPAND_X1_X0_P, POOL(magnitude), 0);
    E(VPXOR_X0_X0_X1, 0, 0);
    E(VPSLLD_X0_X0_I, 0, 16); /* the sign */
    E(VPSLLD_X3_X1_I, 0, 13);
    E(VPADDD_X3_X3_P, POOL(rebias), 0);
    E(VPCMPGTD_X4_X1_P, POOL(finite_top), 0); /* inf, NaN: rebiased once more, to 255 */
    E(VPAND_X4_X4_P, POOL(rebias), 0);
    E(VPADDD_X3_X3_X4, 0, 0);
    E(VPCMPGTD_X4_X1_P, POOL(inf), 0);
    E(VPAND_X4_X4_P, POOL(quiet), 0);
    E(VPOR_X3_X3_X4, 0, 0);
    E(VCVTDQ2PS_X2_X1, 0, 0); /* zero and denormals */
    E(VMULPS_X2_X2_P, POOL(denormal_unit), 0);
    E(VMOVDQU_X4_P, POOL(normal_low), 0);
    E(VPCMPGTD_X4_X4_X1, 0, 0);
    E(VPAND_X2_X2_X4, 0, 0);
    E(VPANDN_X4_X4_X3, 0, 0);
    E(VPOR_X2_X2_X4, 0, 0);
    E(VPOR_X0_X0_X2, 0, 0);
}

/* FLOAT: binary32 as it is; binary16 widened; B10G11R11's fields moved into binary16 first. */
static int convert_float(struct gen *g, const struct vfetch_op_exec *x)
{
    if (x->format == VFETCH_FORMAT_UFLOAT_11_11_10) {
        uint32_t up[4] = { 0 };
        for (unsigned c = 0; c < x->count; c++)
            up[c] = 15 - x->lane[c].field_bits;
        shift_lanes(g, SHIFT_LEFT, up, x->count);
        E(VPACKUSDW_X0_X0_X0, 0, 0);
    }
    if (x->format != VFETCH_FORMAT_FLOAT32)
        half_to_float(g);
    return 1;
}

/* UINT, SINT: converted (exact below 2^24, else rounded once) and scaled by 2^-shift. */
static int convert_int(struct gen *g, const struct vfetch_op_exec *x)
{
    E(VCVTDQ2PS_X0_X0, 0, 0);
    gen_scale(g, X86_VMULPS_X0_X0_P, x->shift, 1);
    return 1;
}

/* xmm0 divided by den, lane by lane, correctly rounded: one vdivps, or in the FMA form
   xmm0 * hi + xmm0 * lo, the product into xmm1 (vfetch_jit_reciprocal): where the per-vertex
   pass holds hi and lo in registers (g->fma_held: by default, and where asked for everywhere),
   two register operations instead of the divider and no load; else from the pool where asked
   for everywhere (g->fma_division: two loads, which the per-vertex ops felt), else vdivps. */
static void divide(struct gen *g, const float den[4])
{
    g->divides = 1;
    float hi[4], lo[4];
    for (unsigned c = 0; c < 4; c++)
        vfetch_jit_reciprocal(den[c], &hi[c], &lo[c]);
    enum x86_shape mul, fma;
    if (g->fma_held && gen_held_fma_divide(g, hi, lo, &mul, &fma)) {
        x86_op(&g->a, mul, 0, 0);
        x86_op(&g->a, fma, 0, 0);
        g->fma_held_divides = 1;
    } else if (g->fma_division) {
        E(VMULPS_X1_X0_P, POOL(lo), 0);
        E(VFMADD132PS_X0_X1_P, POOL(hi), 0);
    } else
        E(VDIVPS_X0_X0_P, POOL(den), 0);
}

/* UNORM (and SNORM_NO_ZERO, 2v + 1 first, the missing lanes kept 0): the reference's one
   division by 2^n - 1. */
static int convert_unorm(struct gen *g, const struct vfetch_op_exec *x)
{
    if (x->conversion == VFETCH_CONV_SNORM_NO_ZERO) {
        uint32_t one[4] = { 0 };
        for (unsigned c = 0; c < x->count; c++)
            one[c] = 1;
        E(VPADDD_X0_X0_X0, 0, 0);
        E(VPADDD_X0_X0_P, POOL(one), 0);
    }
    float den[4] = { 1, 1, 1, 1 };
    for (unsigned c = 0; c < x->count; c++)
        den[c] = (float)((1u << x->lane[c].field_bits) - 1);
    E(VCVTDQ2PS_X0_X0, 0, 0);
    divide(g, den);
    return 1;
}

/* SNORM_ZERO(_CLAMP): the division by 2^(n-1) - 1, the clamp at -1. */
static int convert_snorm(struct gen *g, const struct vfetch_op_exec *x)
{
    float den[4] = { 1, 1, 1, 1 };
    for (unsigned c = 0; c < x->count; c++)
        den[c] = (float)((1u << (x->lane[c].field_bits - 1)) - 1);
    E(VCVTDQ2PS_X0_X0, 0, 0);
    divide(g, den);
    if (x->conversion == VFETCH_CONV_SNORM_ZERO_CLAMP) {
        const float minus_one[4] = { -1, -1, -1, -1 };
        E(VMAXPS_X0_X0_P, POOL(minus_one), 0);
    }
    return 1;
}

/* UNORM8 and PACK_UNORM8: fields widened to 8 bits by repeating their bits, v << (8 - n) |
   v >> (2n - 8); then / 255, or packed to bytes by two saturating packs (a missing alpha
   255) and stored as the op's one slot. */
static int convert_unorm8(struct gen *g, const struct vfetch_op_exec *x)
{
    uint32_t widen_l[4] = { 0 }, widen_r[4] = { 0 };
    int any = 0;
    for (unsigned c = 0; c < x->count; c++) {
        widen_l[c] = 8 - x->lane[c].field_bits;
        widen_r[c] = 2 * x->lane[c].field_bits - 8;
        any |= widen_l[c] != 0;
    }
    if (any) {
        shift_lanes(g, SHIFT_LEFT_TO_X1, widen_l, x->count);
        shift_lanes(g, SHIFT_RIGHT_LOGICAL, widen_r, x->count);
        E(VPOR_X0_X0_X1, 0, 0);
    }
    if (x->conversion == VFETCH_CONV_PACK_UNORM8) {
        E(VPACKUSDW_X0_X0_X0, 0, 0);
        E(VPACKUSWB_X0_X0_X0, 0, 0);
        if (x->count < 4) {
            const uint32_t alpha[4] = { 0xff000000u, 0, 0, 0 };
            E(VPOR_X0_X0_P, POOL(alpha), 0);
        }
        E(VMOVD_MRDX_X0, 4 * x->dst_slot, 0);
        return 0;
    }
    float den[4] = { 1, 1, 1, 1 };
    for (unsigned c = 0; c < x->count; c++)
        den[c] = 255.0f;
    E(VCVTDQ2PS_X0_X0, 0, 0);
    divide(g, den);
    return 1;
}

/* INTEGER, SINTEGER: the fields as they are. */
static int convert_none(struct gen *g, const struct vfetch_op_exec *x)
{
    (void)g;
    (void)x;
    return 1;
}

/* 32-bit fields as the reference converts them, xmm0 holding the fields: unsigned (the high
   and low halves converted exactly, added with one rounding), and the divisions by 2^32 - 1
   (UNORM) and 2^31 - 1 (SNORM, of the magnitude, the sign put back) a lane at a time: m / (2^k
   - 1) is m 2^-k + m 2^-2k + ..., never a tie (lib/ref/convert_ref.c), so its nearest float is
   that of w = m 2^k + m scaled by 2^-2k; w is converted from 64 bits, for k = 32 halved first
   (it may reach 2^64). Neither w nor w / 2 is a tie where the rounding bit is 1: below that
   bit lie m's bits from 24 up, not all zero (m's top bit then is 24 or above), so their nearest
   floats are the reference's. */
static int convert_fixed32(struct gen *g, const struct vfetch_op_exec *x)
{
    if (x->conversion == VFETCH_CONV_UINT) {
        static const uint32_t low[4] = { 0xffff, 0xffff, 0xffff, 0xffff };
        static const float high[4] = { 65536.0f, 65536.0f, 65536.0f, 65536.0f };
        E(VPSRLD_X1_X0_I, 0, 16);
        E(VPAND_X0_X0_P, POOL(low), 0);
        E(VCVTDQ2PS_X1_X1, 0, 0);
        E(VCVTDQ2PS_X0_X0, 0, 0);
        E(VMULPS_X1_X1_P, POOL(high), 0);
        E(VADDPS_X0_X0_X1, 0, 0);
        gen_scale(g, X86_VMULPS_X0_X0_P, x->shift, 1);
        return 1;
    }
    const int snorm = x->conversion == VFETCH_CONV_SNORM_ZERO_CLAMP;
    const unsigned k = snorm ? 31 : 32;
    if (snorm) {
        static const uint32_t sign[4] = { 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u };
        E(VPAND_X4_X0_P, POOL(sign), 0);
        E(VPABSD_X0_X0, 0, 0);
    }
    E(VPXOR_X3_X3_X3, 0, 0);
    for (unsigned c = 0; c < x->count; c++) {
        E(VPEXTRD_EAX_X0_I, 0, c);
        E(MOV_R10_RAX, 0, 0);
        E(SHL_R10_I, 0, k);
        E(OR_R10_RAX, 0, 0);
        E(MOV_RAX_R10, 0, 0);
        if (k == 32)
            E(SHR_RAX_I, 0, 1);
        E(VCVTSI2SS_X1_X15_RAX, 0, 0);
        E(VINSERTPS_X3_X3_X1_I, 0, c << 4);
    }
    const uint32_t bits = (127u - (k == 32 ? 63 : 62)) << 23;
    const uint32_t scale[4] = { bits, bits, bits, bits };
    E(VMULPS_X0_X3_P, POOL(scale), 0);
    if (snorm)
        E(VPOR_X0_X0_X4, 0, 0);
    return 1;
}

static gen_convert_fn *const converters[VFETCH_CONV_COUNT] = {
    [VFETCH_CONV_FLOAT] = convert_float,
    [VFETCH_CONV_UINT] = convert_int,
    [VFETCH_CONV_SINT] = convert_int,
    [VFETCH_CONV_UNORM] = convert_unorm,
    [VFETCH_CONV_SNORM_NO_ZERO] = convert_unorm,
    [VFETCH_CONV_SNORM_ZERO] = convert_snorm,
    [VFETCH_CONV_SNORM_ZERO_CLAMP] = convert_snorm,
    [VFETCH_CONV_UNORM8] = convert_unorm8,
    [VFETCH_CONV_PACK_UNORM8] = convert_unorm8,
    [VFETCH_CONV_INTEGER] = convert_none,
    [VFETCH_CONV_SINTEGER] = convert_none,
};

gen_convert_fn *gen_converter(const struct vfetch_op_exec *x)
{
    if (x->format == VFETCH_FORMAT_FIXED32 &&
        (x->conversion == VFETCH_CONV_UINT || x->conversion == VFETCH_CONV_UNORM ||
         x->conversion == VFETCH_CONV_SNORM_ZERO_CLAMP))
        return convert_fixed32;
    return (unsigned)x->conversion < VFETCH_CONV_COUNT ? converters[x->conversion] : NULL;
}
