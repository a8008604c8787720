/*
 * GX index columns, vectorised (lib/gx/run_indexed.c's row staging; the scalar forms, which are the
 * reference, are in index_ref.c): the indices of a block of vertices, read with one
 * byte permute per vector where vertices are short, and the source addresses of a move
 * computed from them in 64-bit lanes.
 * Only the AVX2 and AVX-512 levels have them; the others keep the reference.
 */
#include <string.h>

#include "gx/gx_dsp.h"
#include "simd/vec.h"

#if VEC_BITS >= 256 && UINTPTR_MAX == UINT64_MAX

/* n bytes, n <= 128, with fixed-size moves that overlap (a call to memcpy, or the byte loop
   a variable size compiles to, costs more than the columns' tails it serves). */
VEC_INLINE void gx_copy_small(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *p = src;
    if (n >= 16) {
        for (size_t i = 0; i + 16 < n; i += 16)
            memcpy(d + i, p + i, 16);
        memcpy(d + n - 16, p + n - 16, 16);
    } else if (n >= 8) {
        memcpy(d, p, 8);
        memcpy(d + n - 8, p + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, p, 4);
        memcpy(d + n - 4, p + n - 4, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            d[i] = p[i];
    }
}

#if VEC_BITS == 512
/* SIMDe 0.7.4 has no 512-bit u32 -> u64 widening: the native intrinsic where SIMDe maps
   natively, else two 256-bit halves (SIMDE_NO_NATIVE builds). */
VEC_INLINE vi gx_widen64(simde__m256i x)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
    return _mm512_cvtepu32_epi64(x);
#else
    const simde__m256i lo = simde_mm256_cvtepu32_epi64(simde_mm256_castsi256_si128(x));
    const simde__m256i hi = simde_mm256_cvtepu32_epi64(simde_mm256_extracti128_si256(x, 1));
    return simde_mm512_inserti64x4(simde_mm512_castsi256_si512(lo), hi, 1);
#endif
}
/* Masked byte load (masked bytes not read) and dword store: SIMDe 0.7.4 has neither. */
VEC_INLINE vi gx_load_bytes(const uint8_t *p, simde__mmask64 bytes)
{
#if defined(SIMDE_X86_AVX512BW_NATIVE)
    return _mm512_maskz_loadu_epi8(bytes, p);
#else
    uint8_t b[64] = { 0 };
    for (unsigned i = 0; i < 64; i++)
        b[i] = bytes >> i & 1 ? p[i] : 0;
    return simde_mm512_loadu_si512((const void *)b);
#endif
}
VEC_INLINE void gx_store_lanes(uint32_t *p, simde__mmask16 lanes, vi x)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
    _mm512_mask_storeu_epi32(p, lanes, x);
#else
    uint32_t b[16];
    simde_mm512_storeu_si512((void *)b, x);
    for (unsigned i = 0; i < 16; i++)
        if (lanes >> i & 1)
            p[i] = b[i];
#endif
}
#define VI_MAX_U32 simde_mm512_max_epu32
#define VI_MIN_U32 simde_mm512_min_epu32
#define VI_IOTA simde_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define vi_mullo simde_mm512_mullo_epi32
#define VI_STORE(p, x) simde_mm512_storeu_si512((void *)(p), (x))
#define VH_CVT64 gx_widen64
#define VI_HALF(x, h)                                                                       \
    ((h) ? simde_mm512_extracti64x4_epi64((x), 1) : simde_mm512_castsi512_si256(x))
#define VQ_SET1 simde_mm512_set1_epi64
#define VQ_MUL simde_mm512_mul_epu32
#define VQ_ADD simde_mm512_add_epi64
/* x < y ? a : b per 64-bit lane (offsets and safe ends are below 2^63: signed compare). */
#define VQ_SELECT_LT(x, y, a, b)                                                            \
    simde_mm512_mask_blend_epi64(simde_mm512_cmpgt_epi64_mask((y), (x)), (b), (a))
#else
#define VI_MAX_U32 simde_mm256_max_epu32
#define VI_MIN_U32 simde_mm256_min_epu32
#define VI_IOTA simde_mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0)
#define vi_mullo simde_mm256_mullo_epi32
#define VI_STORE(p, x) simde_mm256_storeu_si256((void *)(p), (x))
#define VH_CVT64 simde_mm256_cvtepu32_epi64
#define VI_HALF(x, h)                                                                       \
    ((h) ? simde_mm256_extracti128_si256((x), 1) : simde_mm256_castsi256_si128(x))
#define VQ_SET1 simde_mm256_set1_epi64x
#define VQ_MUL simde_mm256_mul_epu32
#define VQ_ADD simde_mm256_add_epi64
/* Offsets and safe ends are below 2^63: the signed compare is the unsigned one. */
#define VQ_SELECT_LT(x, y, a, b)                                                            \
    simde_mm256_blendv_epi8((b), (a), simde_mm256_cmpgt_epi64((y), (x)))
#endif

/*
 * Indices of vertices up to 4 bytes long (GX draws whose attributes are all indexed, e.g. a
 * 16-bit position index and an 8-bit color index: 3 bytes): a vector's indices lie in one
 * window of VEC_LANES * 4 bytes and one byte permute picks them, swapped to little-endian,
 * with zeros above. Longer vertices are read one by one: gather instructions were slower than
 * scalar loads (docs/decisions.md, "Measured choices").
 */
/* The byte permute that takes a vector's indices from its vertex bytes: dword lane l gets the
   window's bytes l * vsize (+ 1 first when two bytes), swapped to little-endian, zeros above. */
struct gx_index_perm {
    vi ctrl;
#if VEC_BITS == 512
    simde__mmask64 keep;
#endif
};

VEC_INLINE struct gx_index_perm gx_index_perm_set(size_t vsize, unsigned isize)
{
    struct gx_index_perm p;
#if VEC_BITS == 512
    const vi c = vi_mullo(VI_IOTA, vi_set1(vsize));
    p.ctrl = isize == 2 ? vi_or(vi_add(c, vi_set1(1)), vi_slli(c, 8)) : c;
    p.keep = isize == 2 ? 0x3333333333333333ull : 0x1111111111111111ull;
#else
    /* two 16-byte windows, one per 128-bit lane (vertices v.. and v + 4..) */
    const vi c = vi_mullo(simde_mm256_set_epi32(3, 2, 1, 0, 3, 2, 1, 0), vi_set1(vsize));
    p.ctrl = isize == 2 ? vi_or(vi_or(vi_add(c, vi_set1(1)), vi_slli(c, 8)),
                                vi_set1((int32_t)0x80800000u))
                        : vi_or(c, vi_set1((int32_t)0x80808000u));
#endif
    return p;
}

/* The indices of vertices v .. v + VEC_LANES - 1. AVX-512: a masked load that stops at the
   readable bytes' end (masked bytes are not read). AVX2: two 16-byte loads, which need
   (v + 4) * vsize + 16 <= readable (GX_INDEX_WINDOW_FITS). */
VEC_INLINE vi gx_index_vec(const uint8_t *at, uint32_t v, size_t vsize, size_t readable,
                           const struct gx_index_perm *p)
{
#if VEC_BITS == 512
    const size_t left = readable - (size_t)v * vsize;
    const simde__mmask64 bytes = left >= 64 ? ~0ull : (1ull << left) - 1;
    return simde_mm512_maskz_permutexvar_epi8(p->keep, p->ctrl,
                                              gx_load_bytes(at + (size_t)v * vsize, bytes));
#else
    (void)readable;
    const simde__m128i lo = simde_mm_loadu_si128((const void *)(at + (size_t)v * vsize));
    const simde__m128i hi = simde_mm_loadu_si128((const void *)(at + (size_t)(v + 4) * vsize));
    return simde_mm256_shuffle_epi8(
        simde_mm256_inserti128_si256(simde_mm256_castsi128_si256(lo), hi, 1), p->ctrl);
#endif
}

#if VEC_BITS == 512
#define GX_INDEX_WINDOW_FITS(v, vsize, readable) 1
#else
#define GX_INDEX_WINDOW_FITS(v, vsize, readable) ((size_t)((v) + 4) * (vsize) + 16 <= (readable))
#endif

static VFETCH_GX_INDICES_FN(NAME(gx_read_indices))
{
    uint32_t v = 0;
    if (vsize <= 4) {
        const struct gx_index_perm perm = gx_index_perm_set(vsize, isize);
#if VEC_BITS == 512
        /* only the column's lanes are stored */
        for (; v < n; v += VEC_LANES) {
            const simde__mmask16 lanes =
                n - v >= VEC_LANES ? 0xffff : (simde__mmask16)((1u << (n - v)) - 1);
            gx_store_lanes(idx + v, lanes, gx_index_vec(at, v, vsize, readable, &perm));
        }
#else
        for (; v + VEC_LANES <= n && GX_INDEX_WINDOW_FITS(v, vsize, readable); v += VEC_LANES)
            VI_STORE(idx + v, gx_index_vec(at, v, vsize, readable, &perm));
        /* The last vertices (fewer than a vector, or whose windows pass the readable end: a
           short draw's all): the same permute over a zero-padded stack copy of the bytes
           left, as far as the buffer goes (32 bytes hold 8 vertices of up to 4 bytes). */
        while (v < n) {
            _Alignas(32) uint8_t copy[32] = { 0 };
            const size_t left = readable - (size_t)v * vsize;
            gx_copy_small(copy, at + (size_t)v * vsize, left < sizeof copy ? left : sizeof copy);
            uint32_t lanes[VEC_LANES];
            VI_STORE(lanes, gx_index_vec(copy, 0, vsize, sizeof copy, &perm));
            const uint32_t m = n - v < VEC_LANES ? n - v : VEC_LANES;
            gx_copy_small(idx + v, lanes, (size_t)m * 4);
            v += m;
        }
#endif
    }
    if (v < n) /* the rest (and longer vertices) one by one */
        vfetch_gx_read_indices_c(at + (size_t)v * vsize, vsize, n - v, isize,
                                 readable - (size_t)v * vsize, idx + v);
}

/* A move's address constants in registers (the clamp, and per 64-bit lane the stride, the
   safe end, the base and the tail's address). */
struct gx_addr_regs {
    vi clamp, stride, safe, base, tail;
};

VEC_INLINE struct gx_addr_regs gx_addr_regs_set(uint32_t clamp, uint32_t stride, uintptr_t base,
                                                uintptr_t tail_addr, uint64_t safe_end)
{
    return (struct gx_addr_regs){ vi_set1(clamp), VQ_SET1((int64_t)stride),
                                  VQ_SET1((int64_t)safe_end), VQ_SET1((int64_t)base),
                                  VQ_SET1((int64_t)tail_addr) };
}

/* The addresses of a vector of indices (VEC_LANES of them at addr); top keeps the highest. */
VEC_INLINE void gx_addrs_vec(vi i, const struct gx_addr_regs *r, vi *top, uintptr_t *addr)
{
    enum { Q = VEC_LANES / 2 }; /* 64-bit lanes */
    const vi c = VI_MIN_U32(i, r->clamp);
    *top = VI_MAX_U32(*top, i);
    const vi off0 = VQ_MUL(VH_CVT64(VI_HALF(c, 0)), r->stride);
    const vi off1 = VQ_MUL(VH_CVT64(VI_HALF(c, 1)), r->stride);
    VI_STORE(addr, VQ_ADD(VQ_SELECT_LT(off0, r->safe, r->base, r->tail), off0));
    VI_STORE(addr + Q, VQ_ADD(VQ_SELECT_LT(off1, r->safe, r->base, r->tail), off1));
}

VEC_INLINE uint32_t gx_top_u32(vi top)
{
    uint32_t lanes[VEC_LANES], highest = 0;
    VI_STORE(lanes, top);
    for (unsigned l = 0; l < VEC_LANES; l++)
        highest = lanes[l] > highest ? lanes[l] : highest;
    return highest;
}

static VFETCH_GX_ADDRS_FN(NAME(gx_index_addrs))
{
    vi top = vi_set1(0);
    const struct gx_addr_regs r = gx_addr_regs_set(clamp, stride, base, tail_addr, safe_end);
    uint32_t v = 0;
    for (; v + VEC_LANES <= n; v += VEC_LANES)
        gx_addrs_vec(vi_loadu(idx + v), &r, &top, addr + v);
    if (v < n) {
        /* The last indices (fewer than a vector): the same over a zero-padded copy (index 0
           adds nothing to the maximum), the addresses of the ones that exist kept. */
        uint32_t rest[VEC_LANES] = { 0 };
        uintptr_t qaddr[VEC_LANES];
        gx_copy_small(rest, idx + v, (size_t)(n - v) * 4);
        gx_addrs_vec(vi_loadu(rest), &r, &top, qaddr);
        gx_copy_small(addr + v, qaddr, (size_t)(n - v) * sizeof *addr);
    }
    return gx_top_u32(top);
}

/*
 * The indices read and their addresses computed in one pass, for vertices of up to 4 bytes
 * (the indices' byte permute of gx_read_indices, the address math of gx_index_addrs, no
 * column of indices between them); the vertices past the whole vectors, and longer vertices,
 * through the two kernels.
 */
static VFETCH_GX_INDEX_ADDRS_FN(NAME(gx_read_index_addrs))
{
    uint32_t v = 0, highest = 0;
    if (vsize <= 4) {
        vi top = vi_set1(0);
        const struct gx_addr_regs r = gx_addr_regs_set(clamp, stride, base, tail_addr, safe_end);
        const struct gx_index_perm perm = gx_index_perm_set(vsize, isize);
        for (; v + VEC_LANES <= n && GX_INDEX_WINDOW_FITS(v, vsize, readable); v += VEC_LANES)
            gx_addrs_vec(gx_index_vec(at, v, vsize, readable, &perm), &r, &top, addr + v);
        highest = gx_top_u32(top);
    }
    if (v < n) {
        uint32_t idx[VFETCH_GX_BLOCK];
        NAME(gx_read_indices)(at + (size_t)v * vsize, vsize, n - v, isize,
                              readable - (size_t)v * vsize, idx);
        const uint32_t rest = NAME(gx_index_addrs)(idx, n - v, clamp, stride, base, tail_addr,
                                                   safe_end, addr + v);
        highest = rest > highest ? rest : highest;
    }
    return highest;
}

void NAME(vfetch_gx_index_init)(struct vfetch_gx_dsp *dsp)
{
    dsp->read_indices = NAME(gx_read_indices);
    dsp->index_addrs = NAME(gx_index_addrs);
    dsp->read_index_addrs = NAME(gx_read_index_addrs);
}

#else

void NAME(vfetch_gx_index_init)(struct vfetch_gx_dsp *dsp)
{
    (void)dsp; /* 128-bit levels: the reference forms stay */
}

#endif
