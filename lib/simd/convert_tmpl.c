/*
 * Per-op kernels, one per format x conversion, compiled once per ISA level (see vec.h).
 *
 * The general path: any op of any plan runs here when the record program cannot. Each
 * iteration converts VEC_LANES vertices, component by component (lanes = vertices, so every
 * parameter is uniform across the vector): load the component's containers, extract the
 * field, convert, then transpose the four components into vec4 records and store. Tails run
 * through the same code with fewer lanes loaded and stored: no byte outside the caller's
 * buffers is touched. The arithmetic mirrors lib/ref/ operation for operation (exact int ->
 * float, exact power-of-two scales, one IEEE division), so results are bit-identical.
 */
#include "dsp.h"
#include "plan_internal.h"
#include "simd/vec.h"
#include "vertex_format.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the SIMD kernels assume a little-endian host"
#endif

/* Load one container (1, 2 or 4 bytes) of a vertex record. */
VEC_INLINE uint32_t load_container(const uint8_t *record, const struct vfetch_lane *lane,
                                   unsigned nbytes)
{
    if (nbytes == 1)
        return record[lane->byte_off[0]];
    if (nbytes == 3) { /* rgba6666: a 4-byte load could pass the end of the buffer */
        return (uint32_t)record[lane->byte_off[0]] | (uint32_t)record[lane->byte_off[1]] << 8 |
               (uint32_t)record[lane->byte_off[2]] << 16;
    }
    if (lane->layout == VFETCH_LANE_LE) {
        if (nbytes == 2) {
            uint16_t v;
            memcpy(&v, record + lane->byte_off[0], 2);
            return v;
        }
        uint32_t v;
        memcpy(&v, record + lane->byte_off[0], 4);
        return v;
    }
    if (lane->layout == VFETCH_LANE_BE) {
        if (nbytes == 2) {
            uint16_t v;
            memcpy(&v, record + lane->byte_off[0] - 1, 2);
            return __builtin_bswap16(v);
        }
        uint32_t v;
        memcpy(&v, record + lane->byte_off[0] - 3, 4);
        return __builtin_bswap32(v);
    }
    uint32_t v = 0;
    for (unsigned k = 0; k < nbytes; k++)
        v |= (uint32_t)record[lane->byte_off[k]] << (8 * k);
    return v;
}

/* Containers of m (<= VEC_LANES) vertices into a vector; lanes past m are zero. */
VEC_INLINE vi load_lanes(const uint8_t *base, size_t stride, const struct vfetch_lane *lane, size_t m,
                     unsigned nbytes)
{
    uint32_t lanes[VEC_LANES] = { 0 };
    for (size_t i = 0; i < m; i++)
        lanes[i] = load_container(base + i * stride, lane, nbytes);
    return vi_loadu(lanes);
}

/* 2^-shift (0..31), exact. */
VEC_INLINE float pow2_neg(unsigned shift)
{
    const uint32_t bits = (127u - shift) << 23;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* The unsigned field of every lane. */
VEC_INLINE vi field_of(vi container, const struct vfetch_lane *lane)
{
    const unsigned bits = lane->field_bits;
    return vi_srl(vi_sll(container, 32 - lane->field_shift - bits), 32 - bits);
}

/* n-bit fields (4..8) widened to 8 bits by repeating their bits, as vfetch_widen8 does. */
VEC_INLINE vi widen8(vi u, unsigned bits)
{
    return vi_and(vi_or(vi_sll(u, 8 - bits), vi_srl(u, 2 * bits - 8)), vi_set1(0xff));
}

/* A fixed-point field of every lane to float, as the reference does it. */
VEC_INLINE vf convert_fixed(vi container, const struct vfetch_lane *lane, unsigned shift,
                            enum vfetch_conversion conv)
{
    const unsigned bits = lane->field_bits;
    const vi u = field_of(container, lane);
    const vi sign = vi_set1(1u << (bits - 1));
    const vi s = vi_sub(vi_xor(u, sign), sign);
    /* (fields of 32 bits only come here as INTEGER or SINTEGER: the table leaves their float
       conversions to the reference) */
#define UNORM_DEN vf_set1((float)((1u << bits) - 1))
#define SNORM_DEN vf_set1((float)((1u << (bits - 1)) - 1))

    switch (conv) {
    case VFETCH_CONV_UINT: return vf_mul(vf_cvt(u), vf_set1(pow2_neg(shift)));
    case VFETCH_CONV_SINT: return vf_mul(vf_cvt(s), vf_set1(pow2_neg(shift)));
    case VFETCH_CONV_UNORM: return vf_div(vf_cvt(u), UNORM_DEN);
    case VFETCH_CONV_SNORM_ZERO: return vf_div(vf_cvt(s), SNORM_DEN);
    case VFETCH_CONV_SNORM_ZERO_CLAMP:
        return vf_max(vf_div(vf_cvt(s), SNORM_DEN), vf_set1(-1.0f));
    case VFETCH_CONV_SNORM_NO_ZERO: /* (2s + 1) / (2^n - 1) */
        return vf_div(vf_cvt(vi_add(vi_add(s, s), vi_set1(1))), UNORM_DEN);
    case VFETCH_CONV_UNORM8: return vf_div(vf_cvt(widen8(u, bits)), vf_set1(255.0f));
    case VFETCH_CONV_SINTEGER: return vi_as_vf(s);
    default: /* VFETCH_CONV_INTEGER (PACK_UNORM8 never gets here) */
        return vi_as_vf(u);
    }
#undef UNORM_DEN
#undef SNORM_DEN
}

/* Store m vertices' swizzled components; full 4-component writes go through a transpose. */
VEC_INLINE void store_records(const struct vfetch_op_exec *op, const vf comp[4], size_t m,
                              uint8_t *dst, size_t dst_stride)
{
    vf o[4];
    for (unsigned k = 0; k < 4; k++) {
        const uint8_t sel = op->swizzle[k];
        o[k] = sel < 4 ? comp[sel] : vf_set1(sel == VFETCH_SWIZZLE_0 ? 0.0f : 1.0f);
    }
    uint8_t *at = dst + 4 * (size_t)op->dst_slot;
    if (op->write_mask == 0xf && m == VEC_LANES) {
        const vf t0 = VEC_UNPACKLO_PS(o[0], o[1]), t1 = VEC_UNPACKHI_PS(o[0], o[1]);
        const vf t2 = VEC_UNPACKLO_PS(o[2], o[3]), t3 = VEC_UNPACKHI_PS(o[2], o[3]);
        const vf r0 = VEC_PD_AS_PS(VEC_UNPACKLO_PD(VEC_PS_AS_PD(t0), VEC_PS_AS_PD(t2)));
        const vf r1 = VEC_PD_AS_PS(VEC_UNPACKHI_PD(VEC_PS_AS_PD(t0), VEC_PS_AS_PD(t2)));
        const vf r2 = VEC_PD_AS_PS(VEC_UNPACKLO_PD(VEC_PS_AS_PD(t1), VEC_PS_AS_PD(t3)));
        const vf r3 = VEC_PD_AS_PS(VEC_UNPACKHI_PD(VEC_PS_AS_PD(t1), VEC_PS_AS_PD(t3)));
        /* 128-bit lane j of r_k holds vertex 4j + k. */
        for (unsigned j = 0; j < VEC_LANES / 4; j++) {
            simde_mm_storeu_ps((float *)(void *)(at + (4 * j + 0) * dst_stride), vf_lane128(r0, j));
            simde_mm_storeu_ps((float *)(void *)(at + (4 * j + 1) * dst_stride), vf_lane128(r1, j));
            simde_mm_storeu_ps((float *)(void *)(at + (4 * j + 2) * dst_stride), vf_lane128(r2, j));
            simde_mm_storeu_ps((float *)(void *)(at + (4 * j + 3) * dst_stride), vf_lane128(r3, j));
        }
        return;
    }
    float t[4][VEC_LANES];
    for (unsigned k = 0; k < 4; k++)
        vf_store(t[k], o[k]);
    for (size_t i = 0; i < m; i++)
        for (unsigned k = 0; k < 4; k++)
            if (op->write_mask >> k & 1)
                memcpy(at + i * dst_stride + 4 * k, &t[k][i], 4);
}

/* Containers (low bits of each lane) of one component to floats. */
VEC_INLINE vf convert_component(vi container, const struct vfetch_lane *lane, unsigned shift,
                                enum vfetch_format format, enum vfetch_conversion conv)
{
    if (format == VFETCH_FORMAT_FLOAT32)
        return vi_as_vf(container);
    if (format == VFETCH_FORMAT_UFLOAT_11_11_10) /* the same value as a half: see plan.h */
        container = vi_sll(field_of(container, lane), 15 - lane->field_bits);
    if (format == VFETCH_FORMAT_FLOAT16 || format == VFETCH_FORMAT_UFLOAT_11_11_10) {
#if VEC_HAVE_F16C
        return vf_from_half_lanes(container);
#else
        return vi_as_vf(vi_half_to_float_bits(container));
#endif
    }
    return convert_fixed(container, lane, shift, conv);
}

/* RGBA8: m vertices' components widened to bytes and packed into the op's one slot. */
VEC_INLINE void pack_unorm8_store(const struct vfetch_op_exec *op, const vi containers[4],
                                  size_t m, uint8_t *dst, size_t dst_stride)
{
    vi rgba = vi_set1(0xff000000u); /* missing components: 0, 0, 0, 255 */
    for (unsigned c = 0; c < op->count; c++) {
        const vi byte = widen8(field_of(containers[c], &op->lane[c]), op->lane[c].field_bits);
        rgba = c == 3 ? vi_or(vi_and(rgba, vi_set1(0x00ffffff)), vi_sll(byte, 24))
                      : vi_or(rgba, vi_sll(byte, 8 * c));
    }
    uint32_t t[VEC_LANES];
    memcpy(t, &rgba, sizeof t);
    uint8_t *at = dst + 4 * (size_t)op->dst_slot;
    for (size_t i = 0; i < m; i++)
        memcpy(at + i * dst_stride, &t[i], 4);
}

/* Convert the containers of m vertices (lanes) and store their records. */
VEC_INLINE void convert_and_store(const struct vfetch_op_exec *op, const vi containers[4],
                                  size_t m, uint8_t *dst, size_t dst_stride,
                                  enum vfetch_format format, enum vfetch_conversion conv)
{
    if (conv == VFETCH_CONV_PACK_UNORM8) {
        pack_unorm8_store(op, containers, m, dst, dst_stride);
        return;
    }
    vf comp[4] = { vf_set1(0.0f), vf_set1(0.0f), vf_set1(0.0f), vf_set1(1.0f) };
    for (unsigned c = 0; c < op->count; c++)
        comp[c] = convert_component(containers[c], &op->lane[c], op->shift, format, conv);
    store_records(op, comp, m, dst, dst_stride);
}

/* Bytes of a format's container (a constant in each kernel). */
VEC_INLINE unsigned container_size(enum vfetch_format format)
{
    switch (format) {
    case VFETCH_FORMAT_FIXED8:
    case VFETCH_FORMAT_UINT6: return 1;
    case VFETCH_FORMAT_FIXED16:
    case VFETCH_FORMAT_FLOAT16:
    case VFETCH_FORMAT_RGB565:
    case VFETCH_FORMAT_RGBA4444: return 2;
    case VFETCH_FORMAT_RGBA6666: return 3;
    default: return 4;
    }
}

#if VEC_HAVE_SHUFFLE
/* One vertex's window: 16 bytes from its first byte, shuffled so that lane c is container c.
   A window that would pass the bytes the call may read is copied to the stack first. */
VEC_INLINE simde__m128i window_at(const uint8_t *at, int safe, unsigned span, simde__m128i ctrl)
{
    if (safe)
        return simde_mm_shuffle_epi8(simde_mm_loadu_si128((const void *)at), ctrl);
    uint8_t tmp[16] = { 0 };
    memcpy(tmp, at, span);
    return simde_mm_shuffle_epi8(simde_mm_loadu_si128((const void *)tmp), ctrl);
}

/*
 * The window path: one load and one shuffle per vertex fetch all of its components, a
 * transpose makes them per-component vectors. Vertex i's window [i*stride, i*stride + 16)
 * (from win_lo) is read in place when it ends within the bytes the call may touch, i.e.
 * before (n-1)*stride + win_span; the last few vertices go through a stack copy.
 */
VEC_INLINE void convert_op_window(const struct vfetch_op_exec *op, const uint8_t *const *base,
                                  const size_t *stride, size_t n, uint8_t *dst, size_t dst_stride,
                                  enum vfetch_format format, enum vfetch_conversion conv)
{
    if (n == 0)
        return;
    const size_t sstride = stride[op->win_stream];
    const uint8_t *src = base[op->win_stream] + op->win_lo;
    const unsigned span = op->win_span;
    const simde__m128i ctrl = simde_mm_loadu_si128((const void *)op->win_ctrl);
    const size_t end = (n - 1) * sstride + span;
    size_t n_safe = 0;
    if (end >= 16)
        n_safe = sstride ? (end - 16) / sstride + 1 : n;
    if (n_safe > n)
        n_safe = n;

    for (size_t i0 = 0; i0 < n; i0 += VEC_LANES) {
        const size_t m = n - i0 < VEC_LANES ? n - i0 : VEC_LANES;
        const uint8_t *at = src + i0 * sstride;
        simde__m128i w[VEC_LANES];
        if (i0 + VEC_LANES <= n_safe) {
            for (unsigned i = 0; i < VEC_LANES; i++)
                w[i] = simde_mm_shuffle_epi8(simde_mm_loadu_si128((const void *)(at + i * sstride)), ctrl);
        } else {
            for (unsigned i = 0; i < VEC_LANES; i++)
                w[i] = i < m ? window_at(at + i * sstride, i0 + i < n_safe, span, ctrl)
                             : simde_mm_setzero_si128();
        }
        vi containers[4];
        vec_window_comps(w, containers);
        convert_and_store(op, containers, m, dst + i0 * dst_stride, dst_stride, format, conv);
    }
}
#endif

VEC_INLINE void convert_op(const struct vfetch_op_exec *op, const uint8_t *const *base,
                           const size_t *stride, size_t n, uint8_t *dst, size_t dst_stride,
                           enum vfetch_format format, enum vfetch_conversion conv)
{
#if VEC_HAVE_SHUFFLE
    if (op->win_ok) {
        convert_op_window(op, base, stride, n, dst, dst_stride, format, conv);
        return;
    }
#endif
    const unsigned nbytes = container_size(format);
    for (size_t i0 = 0; i0 < n; i0 += VEC_LANES) {
        const size_t m = n - i0 < VEC_LANES ? n - i0 : VEC_LANES;
        vi containers[4];
        for (unsigned c = 0; c < op->count; c++) {
            const struct vfetch_lane *lane = &op->lane[c];
            const size_t sstride = stride[lane->stream];
            containers[c] = load_lanes(base[lane->stream] + i0 * sstride, sstride, lane, m, nbytes);
        }
        convert_and_store(op, containers, m, dst + i0 * dst_stride, dst_stride, format, conv);
    }
}

#define KERNEL(fmt, FORMAT, conv, CONV)                                                     \
    static VFETCH_CONVERT_FN(NAME(convert_##fmt##_##conv))                                  \
    {                                                                                       \
        convert_op(op, base, stride, n, dst, dst_stride, FORMAT, CONV);                     \
    }

KERNEL(float32, VFETCH_FORMAT_FLOAT32, float, VFETCH_CONV_FLOAT)
KERNEL(float16, VFETCH_FORMAT_FLOAT16, float, VFETCH_CONV_FLOAT)
KERNEL(ufloat_11_11_10, VFETCH_FORMAT_UFLOAT_11_11_10, float, VFETCH_CONV_FLOAT)
KERNEL(fixed32, VFETCH_FORMAT_FIXED32, integer, VFETCH_CONV_INTEGER)
KERNEL(fixed32, VFETCH_FORMAT_FIXED32, sinteger, VFETCH_CONV_SINTEGER)

#define FIXED_KERNELS(fmt, FORMAT)                                                          \
    KERNEL(fmt, FORMAT, uint, VFETCH_CONV_UINT)                                             \
    KERNEL(fmt, FORMAT, sint, VFETCH_CONV_SINT)                                             \
    KERNEL(fmt, FORMAT, unorm, VFETCH_CONV_UNORM)                                           \
    KERNEL(fmt, FORMAT, snorm_zero, VFETCH_CONV_SNORM_ZERO)                                 \
    KERNEL(fmt, FORMAT, snorm_zero_clamp, VFETCH_CONV_SNORM_ZERO_CLAMP)                     \
    KERNEL(fmt, FORMAT, snorm_no_zero, VFETCH_CONV_SNORM_NO_ZERO)                           \
    KERNEL(fmt, FORMAT, unorm8, VFETCH_CONV_UNORM8)                                         \
    KERNEL(fmt, FORMAT, integer, VFETCH_CONV_INTEGER)                                       \
    KERNEL(fmt, FORMAT, pack_unorm8, VFETCH_CONV_PACK_UNORM8)                               \
    KERNEL(fmt, FORMAT, sinteger, VFETCH_CONV_SINTEGER)

FIXED_KERNELS(fixed8, VFETCH_FORMAT_FIXED8)
FIXED_KERNELS(fixed16, VFETCH_FORMAT_FIXED16)
FIXED_KERNELS(fixed_10_10_10, VFETCH_FORMAT_FIXED_10_10_10)
FIXED_KERNELS(fixed_11_11_10, VFETCH_FORMAT_FIXED_11_11_10)
FIXED_KERNELS(rgb565, VFETCH_FORMAT_RGB565)
FIXED_KERNELS(rgba4444, VFETCH_FORMAT_RGBA4444)
FIXED_KERNELS(rgba6666, VFETCH_FORMAT_RGBA6666)
FIXED_KERNELS(uint6, VFETCH_FORMAT_UINT6)
FIXED_KERNELS(fixed_10_10_10_2, VFETCH_FORMAT_FIXED_10_10_10_2)

#define FIXED_ROW(fmt)                                                                      \
    {                                                                                       \
        NULL, NAME(convert_##fmt##_uint), NAME(convert_##fmt##_sint),                       \
            NAME(convert_##fmt##_unorm), NAME(convert_##fmt##_snorm_zero),                  \
            NAME(convert_##fmt##_snorm_zero_clamp), NAME(convert_##fmt##_snorm_no_zero),    \
            NAME(convert_##fmt##_unorm8), NAME(convert_##fmt##_integer),                    \
            NAME(convert_##fmt##_pack_unorm8), NAME(convert_##fmt##_sinteger)               \
    }

void NAME(vfetch_dsp_init)(struct vfetch_dsp *dsp)
{
    static vfetch_convert_fn *const kernels[VFETCH_FORMAT_COUNT][VFETCH_CONV_COUNT] = {
        [VFETCH_FORMAT_FLOAT32] = { NAME(convert_float32_float) },
        [VFETCH_FORMAT_FLOAT16] = { NAME(convert_float16_float) },
        [VFETCH_FORMAT_FIXED8] = FIXED_ROW(fixed8),
        [VFETCH_FORMAT_FIXED16] = FIXED_ROW(fixed16),
        [VFETCH_FORMAT_FIXED_10_10_10] = FIXED_ROW(fixed_10_10_10),
        [VFETCH_FORMAT_FIXED_11_11_10] = FIXED_ROW(fixed_11_11_10),
        [VFETCH_FORMAT_RGB565] = FIXED_ROW(rgb565),
        [VFETCH_FORMAT_RGBA4444] = FIXED_ROW(rgba4444),
        [VFETCH_FORMAT_RGBA6666] = FIXED_ROW(rgba6666),
        [VFETCH_FORMAT_UINT6] = FIXED_ROW(uint6),
        [VFETCH_FORMAT_FIXED_10_10_10_2] = FIXED_ROW(fixed_10_10_10_2),
        [VFETCH_FORMAT_UFLOAT_11_11_10] = { NAME(convert_ufloat_11_11_10_float) },
        /* 32-bit fields: the integers here; their float conversions (a 32-bit unsigned to
           float, the exact divisions by 2^32 - 1 and 2^31 - 1: rare vertex formats) stay the
           reference's. Constant ops too: stores only. */
        [VFETCH_FORMAT_FIXED32] = { [VFETCH_CONV_INTEGER] = NAME(convert_fixed32_integer),
                                    [VFETCH_CONV_SINTEGER] = NAME(convert_fixed32_sinteger) },
    };
    /* A level replaces the kernels it has; the others stay those of the level below. */
    for (unsigned f = 0; f < VFETCH_FORMAT_COUNT; f++)
        for (unsigned c = 0; c < VFETCH_CONV_COUNT; c++)
            if (kernels[f][c])
                dsp->convert[f][c] = kernels[f][c];
}
