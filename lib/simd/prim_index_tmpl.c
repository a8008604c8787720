/*
 * The guest index buffer kernels (vfetch/prim.h's guest_* fields, lib/prim/indexed.c) per ISA
 * level: the scan (smallest and largest entry, restart entries aside, and whether one was
 * there) and the conversion of entries to host indices (byte swap, widening or narrowing, the
 * delta added, restart entries as the host's restart index). 32 bytes of entries a step where
 * the level has 256-bit vectors (avx2, avx512: the entries widen lane-correctly there), then 16,
 * the last entries one at a time. Checked against lib/prim/ref.c's loops at every level
 * (checkasm --kernel prim-index).
 */
#include <string.h>

#include "prim/prim_internal.h"
#include "simd/vec.h"
#include <simde/x86/sse4.1.h> /* min/max of unsigned 16- and 32-bit lanes (emulated at sse2) */
#if VEC_BITS >= 256
#include <simde/x86/avx2.h>
#endif

typedef simde__m128i v128;
#if VEC_BITS >= 256
typedef simde__m256i v256;

static inline v256 load256(const uint8_t *p)
{
    return simde_mm256_loadu_si256((const void *)p);
}

static inline void store256(uint8_t *p, v256 x)
{
    simde_mm256_storeu_si256((void *)p, x);
}

static inline v256 swap16_256(v256 v)
{
    return simde_mm256_or_si256(simde_mm256_slli_epi16(v, 8), simde_mm256_srli_epi16(v, 8));
}

static inline v256 swap32_256(v256 v)
{
    v = swap16_256(v);
    return simde_mm256_or_si256(simde_mm256_slli_epi32(v, 16), simde_mm256_srli_epi32(v, 16));
}
#endif

static inline v128 load(const uint8_t *p)
{
    return simde_mm_loadu_si128((const void *)p);
}

static inline void store(uint8_t *p, v128 x)
{
    simde_mm_storeu_si128((void *)p, x);
}

/* Each 16-bit lane's bytes swapped; each 32-bit lane's. */
static inline v128 swap16(v128 v)
{
    return simde_mm_or_si128(simde_mm_slli_epi16(v, 8), simde_mm_srli_epi16(v, 8));
}

static inline v128 swap32(v128 v)
{
    v = swap16(v);
    return simde_mm_or_si128(simde_mm_slli_epi32(v, 16), simde_mm_srli_epi32(v, 16));
}

/* The lanes of a 128-bit min and max folded to one value each (B-bit lanes). */
#define FOLD(B, lo, hi)                                                                     \
    for (int shift = 8; shift >= B / 8; shift /= 2) {                                       \
        lo = simde_mm_min_epu##B(lo, shift == 8 ? simde_mm_srli_si128(lo, 8)                 \
                                     : shift == 4 ? simde_mm_srli_si128(lo, 4)              \
                                     : shift == 2 ? simde_mm_srli_si128(lo, 2)              \
                                                  : simde_mm_srli_si128(lo, 1));            \
        hi = simde_mm_max_epu##B(hi, shift == 8 ? simde_mm_srli_si128(hi, 8)                 \
                                     : shift == 4 ? simde_mm_srli_si128(hi, 4)              \
                                     : shift == 2 ? simde_mm_srli_si128(hi, 2)              \
                                                  : simde_mm_srli_si128(hi, 1));            \
    }

#if VEC_BITS >= 256
/* 32 bytes of entries a step, folded into the 16-byte registers lo, hi and seen; from 64
   bytes of them (a 32-byte draw's entries, 16 of 16 bits, took 32 instructions more than the
   16-byte steps: r300-r3-indexed-exact at 16 records 0.95x its sse41 plan, Intel Xeon) */
#define SCAN_WIDE(B, SWAP)                                                                  \
    if (count >= 4 * lanes) {                                                               \
        const v256 r2 = simde_mm256_set1_epi##B((int##B##_t)g->restart_index);              \
        v256 lo2 = simde_mm256_set1_epi##B(-1), hi2 = simde_mm256_setzero_si256(),          \
             seen2 = simde_mm256_setzero_si256();                                           \
        v256 lo3 = lo2, hi3 = hi2; /* a second chain: min and max wait one cycle each */    \
        if (check)                                                                          \
            for (; i + 2 * lanes <= count; i += 2 * lanes) {                                \
                v256 v = load256(p + i * (B / 8));                                          \
                if (g->big)                                                                 \
                    v = SWAP##_256(v);                                                      \
                const v256 eq = simde_mm256_cmpeq_epi##B(v, r2);                            \
                seen2 = simde_mm256_or_si256(seen2, eq);                                    \
                lo2 = simde_mm256_min_epu##B(lo2, simde_mm256_or_si256(v, eq));             \
                hi2 = simde_mm256_max_epu##B(hi2, simde_mm256_andnot_si256(eq, v));         \
            }                                                                               \
        else if (!g->big)                                                                   \
            for (; i + 4 * lanes <= count; i += 4 * lanes) {                                \
                const v256 v = load256(p + i * (B / 8)), w = load256(p + i * (B / 8) + 32); \
                lo2 = simde_mm256_min_epu##B(lo2, v);                                       \
                hi2 = simde_mm256_max_epu##B(hi2, v);                                       \
                lo3 = simde_mm256_min_epu##B(lo3, w);                                       \
                hi3 = simde_mm256_max_epu##B(hi3, w);                                       \
            }                                                                               \
        for (; i + 2 * lanes <= count; i += 2 * lanes) {                                    \
            v256 v = load256(p + i * (B / 8));                                              \
            if (g->big)                                                                     \
                v = SWAP##_256(v);                                                          \
            if (check) {                                                                    \
                const v256 eq = simde_mm256_cmpeq_epi##B(v, r2);                            \
                seen2 = simde_mm256_or_si256(seen2, eq);                                    \
                lo2 = simde_mm256_min_epu##B(lo2, simde_mm256_or_si256(v, eq));             \
                hi2 = simde_mm256_max_epu##B(hi2, simde_mm256_andnot_si256(eq, v));         \
            } else {                                                                        \
                lo2 = simde_mm256_min_epu##B(lo2, v);                                       \
                hi2 = simde_mm256_max_epu##B(hi2, v);                                       \
            }                                                                               \
        }                                                                                   \
        lo2 = simde_mm256_min_epu##B(lo2, lo3);                                             \
        hi2 = simde_mm256_max_epu##B(hi2, hi3);                                             \
        lo = simde_mm_min_epu##B(simde_mm256_castsi256_si128(lo2),                          \
                                 simde_mm256_extracti128_si256(lo2, 1));                    \
        hi = simde_mm_max_epu##B(simde_mm256_castsi256_si128(hi2),                          \
                                 simde_mm256_extracti128_si256(hi2, 1));                    \
        seen = simde_mm_or_si128(simde_mm256_castsi256_si128(seen2),                        \
                                 simde_mm256_extracti128_si256(seen2, 1));                  \
    }
#else
#define SCAN_WIDE(B, SWAP)
#endif

/* The scan of one width: B the entry's bits, the vector part then the last entries. */
#define SCAN_BODY(B, SWAP)                                                                  \
    {                                                                                       \
        const v128 r = simde_mm_set1_epi##B((int##B##_t)g->restart_index);                  \
        v128 lo = simde_mm_set1_epi##B(-1), hi = simde_mm_setzero_si128(),                  \
             seen = simde_mm_setzero_si128();                                               \
        const size_t lanes = 16 / (B / 8);                                                  \
        SCAN_WIDE(B, SWAP)                                                                  \
        /* (the last part as one more vector ending at count: min and max take an entry     \
           twice alike) */                                                                  \
        for (;; i += lanes) {                                                               \
            if (i + lanes > count) {                                                        \
                if (i == count || count < lanes)                                            \
                    break;                                                                  \
                i = count - lanes;                                                          \
            }                                                                               \
            v128 v = load(p + i * (B / 8));                                                 \
            if (g->big)                                                                     \
                v = SWAP(v);                                                                \
            if (check) {                                                                    \
                const v128 eq = simde_mm_cmpeq_epi##B(v, r);                                \
                seen = simde_mm_or_si128(seen, eq);                                         \
                lo = simde_mm_min_epu##B(lo, simde_mm_or_si128(v, eq));                     \
                hi = simde_mm_max_epu##B(hi, simde_mm_andnot_si128(eq, v));                 \
            } else {                                                                        \
                lo = simde_mm_min_epu##B(lo, v);                                            \
                hi = simde_mm_max_epu##B(hi, v);                                            \
            }                                                                               \
        }                                                                                   \
        /* across the lanes: a lane that saw only restart entries holds all ones and 0, which \
           neither min nor max takes; none at all leaves min above max */                    \
        FOLD(B, lo, hi)                                                                     \
        const uint32_t l0 = (uint32_t)simde_mm_cvtsi128_si32(lo) & type_max,                 \
                       h0 = (uint32_t)simde_mm_cvtsi128_si32(hi) & type_max;                 \
        restarted = simde_mm_movemask_epi8(seen) != 0;                                      \
        if (l0 <= h0) {                                                                     \
            min = l0;                                                                       \
            max = h0;                                                                       \
        }                                                                                   \
    }

/* Entry i of p in each width and byte order (vfetch_prim_entry with its format known). */
static inline uint32_t entry_le16(const uint8_t *p, size_t i)
{
    uint16_t v;
    memcpy(&v, p + 2 * i, 2);
    return v;
}

static inline uint32_t entry_be16(const uint8_t *p, size_t i)
{
    return __builtin_bswap16((uint16_t)entry_le16(p, i));
}

static inline uint32_t entry_le32(const uint8_t *p, size_t i)
{
    uint32_t v;
    memcpy(&v, p + 4 * i, 4);
    return v;
}

static inline uint32_t entry_be32(const uint8_t *p, size_t i)
{
    return __builtin_bswap32(entry_le32(p, i));
}

/* A loop over entries i .. count - 1 with BODY(e) for each, the entry's format chosen once,
   not an entry at a time. */
#define FOR_ENTRIES(BODY)                                                                   \
    switch (g->bytes * 2 + (g->big != 0)) {                                                 \
    case 2:                                                                                 \
    case 3:                                                                                 \
        for (; i < count; i++) {                                                            \
            const uint32_t e = p[i];                                                        \
            BODY                                                                            \
        }                                                                                   \
        break;                                                                              \
    case 4:                                                                                 \
        for (; i < count; i++) {                                                            \
            const uint32_t e = entry_le16(p, i);                                            \
            BODY                                                                            \
        }                                                                                   \
        break;                                                                              \
    case 5:                                                                                 \
        for (; i < count; i++) {                                                            \
            const uint32_t e = entry_be16(p, i);                                            \
            BODY                                                                            \
        }                                                                                   \
        break;                                                                              \
    case 8:                                                                                 \
        for (; i < count; i++) {                                                            \
            const uint32_t e = entry_le32(p, i);                                            \
            BODY                                                                            \
        }                                                                                   \
        break;                                                                              \
    default:                                                                                \
        for (; i < count; i++) {                                                            \
            const uint32_t e = entry_be32(p, i);                                            \
            BODY                                                                            \
        }                                                                                   \
        break;                                                                              \
    }

static int NAME(prim_scan)(const void *in, size_t count, const struct prim_guest *g,
                           uint32_t *out_min, uint32_t *out_max)
{
    const uint8_t *p = in;
    const int check = vfetch_prim_restart_fits(g);
    uint32_t min = UINT32_MAX, max = 0;
    const uint32_t type_max = g->bytes == 4 ? 0xffffffffu : (1u << (8 * g->bytes)) - 1;
    int restarted = 0;
    size_t i = 0;
    /* fewer entries than a 16-byte step: one at a time below, without the vectors' set-up and
       folds (a short draw's scan: 3 16-bit entries 164 -> 88 instructions at avx2) */
    if (count < 16u >> (g->bytes >> 1)) /* 16 / bytes */
        ;
    else if (g->bytes == 1)
        SCAN_BODY(8, swap16)
    else if (g->bytes == 2)
        SCAN_BODY(16, swap16)
    else
        SCAN_BODY(32, swap32)
/* one entry of the scan: a restart entry noted, any other taken into min and max */
#define SCAN_ENTRY                                                                              if (check && e == g->restart_index) {                                                           restarted = 1;                                                                              continue;                                                                               }                                                                                           min = e < min ? e : min;                                                                    max = e > max ? e : max;
    FOR_ENTRIES(SCAN_ENTRY)
#undef SCAN_ENTRY
    *out_min = min;
    *out_max = max;
    return restarted;
}

/* The smallest and largest entry a step converted, restart entries aside (eq: their lanes,
   made all ones for min, which takes them only where nothing else is, and 0 for max): as the
   scan, on the entries as they came (before widening: the fewest vectors), in lo128, hi128. */
#define TRACK128(B, x, eq)                                                                  \
    if (track) {                                                                            \
        lo128 = simde_mm_min_epu##B(lo128, simde_mm_or_si128((x), (eq)));                   \
        hi128 = simde_mm_max_epu##B(hi128, simde_mm_andnot_si128((eq), (x)));               \
    }

/* x + delta, and host_restart where mask is set */
#define PLUS(W, x, mask)                                                                    \
    simde_mm_or_si128(simde_mm_andnot_si128((mask), simde_mm_add_epi##W((x), d##W)),         \
                      simde_mm_and_si128((mask), hr##W))

/* Before a step of L entries at i: past the last whole step, one more step ending at count
   (its first entries converted again, to the same values) where count holds one; true: done
   (the entries left, fewer than L, go one at a time). */
#define LAST_STEP(L) (i + (L) > count && (i == count || count < (L) || ((i = count - (L)), 0)))

/* Four 32-bit lanes (values below 2^16) narrowed to 16 bits, twice, packed into one vector. */
static inline v128 narrow(v128 a, v128 b)
{
    a = simde_mm_srai_epi32(simde_mm_slli_epi32(a, 16), 16);
    b = simde_mm_srai_epi32(simde_mm_slli_epi32(b, 16), 16);
    return simde_mm_packs_epi32(a, b);
}

#if VEC_BITS >= 256
/* x + delta, and host_restart where mask is set (256 bits) */
#define PLUS256(W, x, mask)                                                                 \
    (check ? simde_mm256_or_si256(simde_mm256_andnot_si256((mask), simde_mm256_add_epi##W((x), e##W)), \
                                  simde_mm256_and_si256((mask), h##W))                      \
           : simde_mm256_add_epi##W((x), e##W))

/* TRACK128 for 256-bit steps of 16- and 32-bit entries, in t */
#define TRACK256(B, x, eq)                                                                  \
    if (track) {                                                                            \
        t->lo = simde_mm256_min_epu##B(t->lo, simde_mm256_or_si256((x), (eq)));             \
        t->hi = simde_mm256_max_epu##B(t->hi, simde_mm256_andnot_si256((eq), (x)));         \
    }
struct track256 {
    v256 lo, hi;
};

/* The 256-bit steps of prim_convert: entries widened with the lane-correct cvtepu forms,
   narrowed with a pack and a qword permute. Returns the entries done. Inlined with check and
   track constant, so that a buffer without restart pays no blend, a draw that needs no range
   no min and max. */
VEC_INLINE size_t convert_wide(const uint8_t *p, size_t count, const struct prim_guest *g, int check,
                           uint32_t delta, uint32_t host_restart, int wide, uint8_t *o, int track,
                           struct track256 *t, v128 *lo_out, v128 *hi_out)
{
    v128 lo128 = *lo_out, hi128 = *hi_out;
    /* an 8-entry load's upper half: tracked as restart lanes, which neither min nor max takes */
    const v128 upper = simde_mm_set_epi64x(-1, 0);
    const v256 e16 = simde_mm256_set1_epi16((int16_t)delta), e32 = simde_mm256_set1_epi32((int32_t)delta),
               h16 = simde_mm256_set1_epi16((int16_t)host_restart),
               h32 = simde_mm256_set1_epi32((int32_t)host_restart), zero = simde_mm256_setzero_si256();
    size_t i = 0;
    if (g->bytes == 1 && !wide) { /* 16 entries a step */
        const v128 r = simde_mm_set1_epi8((int8_t)g->restart_index);
        for (; i + 16 <= count; i += 16) {
            const v128 v = load(p + i);
            const v128 eq = check ? simde_mm_cmpeq_epi8(v, r) : simde_mm_setzero_si128();
            const v256 m = check ? simde_mm256_cvtepi8_epi16(eq) : zero;
            store256(o + 2 * i, PLUS256(16, simde_mm256_cvtepu8_epi16(v), m));
            TRACK128(8, v, eq)
        }
    } else if (g->bytes == 1) { /* 8 entries a step */
        const v128 r = simde_mm_set1_epi8((int8_t)g->restart_index);
        for (; i + 8 <= count; i += 8) {
            const v128 v = simde_mm_loadl_epi64((const void *)(p + i));
            const v128 eq = check ? simde_mm_cmpeq_epi8(v, r) : simde_mm_setzero_si128();
            const v256 m = check ? simde_mm256_cvtepi8_epi32(eq) : zero;
            store256(o + 4 * i, PLUS256(32, simde_mm256_cvtepu8_epi32(v), m));
            TRACK128(8, v, simde_mm_or_si128(eq, upper))
        }
    } else if (g->bytes == 2 && !wide) { /* 16 entries a step */
        const v256 r = simde_mm256_set1_epi16((int16_t)g->restart_index);
        for (; i + 16 <= count; i += 16) {
            v256 v = load256(p + 2 * i);
            if (g->big)
                v = swap16_256(v);
            const v256 m = check ? simde_mm256_cmpeq_epi16(v, r) : zero;
            store256(o + 2 * i, PLUS256(16, v, m));
            TRACK256(16, v, m)
        }
    } else if (g->bytes == 2) { /* 8 entries a step */
        const v128 r = simde_mm_set1_epi16((int16_t)g->restart_index);
        for (; i + 8 <= count; i += 8) {
            v128 v = load(p + 2 * i);
            if (g->big)
                v = swap16(v);
            const v128 eq = check ? simde_mm_cmpeq_epi16(v, r) : simde_mm_setzero_si128();
            const v256 m = check ? simde_mm256_cvtepi16_epi32(eq) : zero;
            store256(o + 4 * i, PLUS256(32, simde_mm256_cvtepu16_epi32(v), m));
            TRACK128(16, v, eq)
        }
    } else { /* 16 entries a step */
        const v256 r = simde_mm256_set1_epi32((int32_t)g->restart_index);
        for (; i + 16 <= count; i += 16) {
            v256 v0 = load256(p + 4 * i), v1 = load256(p + 4 * i + 32);
            if (g->big) {
                v0 = swap32_256(v0);
                v1 = swap32_256(v1);
            }
            const v256 m0 = check ? simde_mm256_cmpeq_epi32(v0, r) : zero;
            const v256 m1 = check ? simde_mm256_cmpeq_epi32(v1, r) : zero;
            const v256 x0 = PLUS256(32, v0, m0), x1 = PLUS256(32, v1, m1);
            if (wide) {
                store256(o + 4 * i, x0);
                store256(o + 4 * i + 32, x1);
            } else { /* below 2^16 (checked): sign-extended halves packed, qwords reordered */
                const v256 a = simde_mm256_srai_epi32(simde_mm256_slli_epi32(x0, 16), 16);
                const v256 b = simde_mm256_srai_epi32(simde_mm256_slli_epi32(x1, 16), 16);
                store256(o + 2 * i, simde_mm256_permute4x64_epi64(simde_mm256_packs_epi32(a, b), 0xD8));
            }
            TRACK256(32, v0, m0)
            TRACK256(32, v1, m1)
        }
    }
    *lo_out = lo128;
    *hi_out = hi128;
    return i;
}
#endif


/* prim_convert's entries i .. count - 1 one at a time, lo and hi tracked as the vectors'. */
VEC_INLINE void convert_few(const uint8_t *p, size_t i, size_t count, const struct prim_guest *g,
                            int check, uint32_t delta, uint32_t host_restart, int wide,
                            uint8_t *o, int track, uint32_t *range, uint32_t lo, uint32_t hi)
{
/* one entry converted: the restart index or e + delta, at the host's width; tracked */
#define CONVERT_ENTRY                                                                           const int is_restart = check && e == g->restart_index;                                      const uint32_t x = is_restart ? host_restart : e + delta;                                   if (wide) {                                                                                     memcpy(o + 4 * i, &x, 4);                                                               } else {                                                                                        const uint16_t h = (uint16_t)x;                                                             memcpy(o + 2 * i, &h, 2);                                                               }                                                                                           if (track && !is_restart) {                                                                     lo = e < lo ? e : lo;                                                                       hi = e > hi ? e : hi;                                                                   }
    FOR_ENTRIES(CONVERT_ENTRY)
#undef CONVERT_ENTRY
    if (track) {
        range[0] = lo;
        range[1] = hi;
    }
}

/* prim_convert with `track` constant: with it, range[0] and range[1] get the smallest and
   largest entry converted (restart entries aside where restart is checked), as the scan's.
   Fewer entries than a step (8) go one at a time from the start, without the vectors' set-up
   and folds. */
VEC_INLINE void convert_body(const uint8_t *p, size_t count, const struct prim_guest *g,
                             uint32_t delta, uint32_t host_restart, int wide, uint8_t *o,
                             int track, uint32_t *range)
{
    const int check = vfetch_prim_restart_fits(g);
    if (count < 8) {
        convert_few(p, 0, count, g, check, delta, host_restart, wide, o, track, range,
                    UINT32_MAX, 0);
        return;
    }
    const v128 zero = simde_mm_setzero_si128(), d16 = simde_mm_set1_epi16((int16_t)delta),
               d32 = simde_mm_set1_epi32((int32_t)delta),
               hr16 = simde_mm_set1_epi16((int16_t)host_restart),
               hr32 = simde_mm_set1_epi32((int32_t)host_restart), ones = simde_mm_set1_epi32(-1);
    v128 lo128 = ones, hi128 = zero; /* in the entries' width */
    size_t i = 0;
#if VEC_BITS >= 256
    struct track256 t = { simde_mm256_set1_epi32(-1), simde_mm256_setzero_si256() };
    i = check ? convert_wide(p, count, g, 1, delta, host_restart, wide, o, track, &t, &lo128, &hi128)
              : convert_wide(p, count, g, 0, delta, host_restart, wide, o, track, &t, &lo128, &hi128);
    if (track && g->bytes > 1) { /* (the 256-bit trackers: 16- and 32-bit entries) */
        const v128 tl = simde_mm256_castsi256_si128(t.lo), th = simde_mm256_castsi256_si128(t.hi);
        const v128 ul = simde_mm256_extracti128_si256(t.lo, 1), uh = simde_mm256_extracti128_si256(t.hi, 1);
        if (g->bytes == 2) {
            lo128 = simde_mm_min_epu16(lo128, simde_mm_min_epu16(tl, ul));
            hi128 = simde_mm_max_epu16(hi128, simde_mm_max_epu16(th, uh));
        } else {
            lo128 = simde_mm_min_epu32(lo128, simde_mm_min_epu32(tl, ul));
            hi128 = simde_mm_max_epu32(hi128, simde_mm_max_epu32(th, uh));
        }
    }
#endif
    if (g->bytes == 1) { /* 16 entries a step */
        const v128 r = simde_mm_set1_epi8((int8_t)g->restart_index);
        for (;; i += 16) {
            if (LAST_STEP(16))
                break;
            const v128 v = load(p + i);
            const v128 eq = check ? simde_mm_cmpeq_epi8(v, r) : zero;
            const v128 w0 = simde_mm_unpacklo_epi8(v, zero), w1 = simde_mm_unpackhi_epi8(v, zero);
            const v128 m0 = simde_mm_unpacklo_epi8(eq, eq), m1 = simde_mm_unpackhi_epi8(eq, eq);
            if (!wide) {
                store(o + 2 * i, PLUS(16, w0, m0));
                store(o + 2 * i + 16, PLUS(16, w1, m1));
            } else {
                store(o + 4 * i, PLUS(32, simde_mm_unpacklo_epi16(w0, zero), simde_mm_unpacklo_epi16(m0, m0)));
                store(o + 4 * i + 16, PLUS(32, simde_mm_unpackhi_epi16(w0, zero), simde_mm_unpackhi_epi16(m0, m0)));
                store(o + 4 * i + 32, PLUS(32, simde_mm_unpacklo_epi16(w1, zero), simde_mm_unpacklo_epi16(m1, m1)));
                store(o + 4 * i + 48, PLUS(32, simde_mm_unpackhi_epi16(w1, zero), simde_mm_unpackhi_epi16(m1, m1)));
            }
            TRACK128(8, v, eq)
        }
        for (;; i += 8) { /* 8 to 15 entries: 8 a step, the last ending at count */
            if (LAST_STEP(8))
                break;
            const v128 v = simde_mm_loadl_epi64((const void *)(p + i));
            const v128 eq = check ? simde_mm_cmpeq_epi8(v, r) : zero;
            const v128 w0 = simde_mm_unpacklo_epi8(v, zero), m0 = simde_mm_unpacklo_epi8(eq, eq);
            if (!wide) {
                store(o + 2 * i, PLUS(16, w0, m0));
            } else {
                store(o + 4 * i, PLUS(32, simde_mm_unpacklo_epi16(w0, zero), simde_mm_unpacklo_epi16(m0, m0)));
                store(o + 4 * i + 16, PLUS(32, simde_mm_unpackhi_epi16(w0, zero), simde_mm_unpackhi_epi16(m0, m0)));
            }
            TRACK128(8, v, simde_mm_or_si128(eq, simde_mm_set_epi64x(-1, 0))) /* (8 entries) */
        }
    } else if (g->bytes == 2) { /* 8 entries a step */
        const v128 r = simde_mm_set1_epi16((int16_t)g->restart_index);
        for (;; i += 8) {
            if (LAST_STEP(8))
                break;
            v128 v = load(p + 2 * i);
            if (g->big)
                v = swap16(v);
            const v128 eq = check ? simde_mm_cmpeq_epi16(v, r) : zero;
            if (!wide) {
                store(o + 2 * i, PLUS(16, v, eq));
            } else {
                store(o + 4 * i, PLUS(32, simde_mm_unpacklo_epi16(v, zero), simde_mm_unpacklo_epi16(eq, eq)));
                store(o + 4 * i + 16, PLUS(32, simde_mm_unpackhi_epi16(v, zero), simde_mm_unpackhi_epi16(eq, eq)));
            }
            TRACK128(16, v, eq)
        }
    } else { /* 8 entries a step */
        const v128 r = simde_mm_set1_epi32((int32_t)g->restart_index);
        for (;; i += 8) {
            if (LAST_STEP(8))
                break;
            v128 v0 = load(p + 4 * i), v1 = load(p + 4 * i + 16);
            if (g->big) {
                v0 = swap32(v0);
                v1 = swap32(v1);
            }
            const v128 e0 = check ? simde_mm_cmpeq_epi32(v0, r) : zero;
            const v128 e1 = check ? simde_mm_cmpeq_epi32(v1, r) : zero;
            const v128 x0 = PLUS(32, v0, e0), x1 = PLUS(32, v1, e1);
            if (!wide) { /* every value below 2^16: the range was checked */
                store(o + 2 * i, narrow(x0, x1));
            } else {
                store(o + 4 * i, x0);
                store(o + 4 * i + 16, x1);
            }
            TRACK128(32, v0, e0)
            TRACK128(32, v1, e1)
        }
    }
    /* the lanes folded; an entry type's all ones from lanes that saw none is above max */
    uint32_t lo = UINT32_MAX, hi = 0;
    if (track) {
        const uint32_t type_max = g->bytes == 4 ? 0xffffffffu : (1u << (8 * g->bytes)) - 1;
        if (g->bytes == 1)
            FOLD(8, lo128, hi128)
        else if (g->bytes == 2)
            FOLD(16, lo128, hi128)
        else
            FOLD(32, lo128, hi128)
        const uint32_t l0 = (uint32_t)simde_mm_cvtsi128_si32(lo128) & type_max,
                       h0 = (uint32_t)simde_mm_cvtsi128_si32(hi128) & type_max;
        if (l0 <= h0)
            lo = l0, hi = h0;
    }
    convert_few(p, i, count, g, check, delta, host_restart, wide, o, track, range, lo, hi);
}

static void NAME(prim_convert)(const void *in, size_t count, const struct prim_guest *g,
                               uint32_t delta, uint32_t host_restart, int wide, void *out,
                               uint32_t *range)
{
    if (range)
        convert_body(in, count, g, delta, host_restart, wide, out, 1, range);
    else
        convert_body(in, count, g, delta, host_restart, wide, out, 0, NULL);
}

/* The search for the next restart entry: 16 bytes of entries compared a step (the restart
   index in the entries' byte order), the first match's lane from the compare's byte mask. */
static uint32_t NAME(prim_find)(const void *in, const struct prim_guest *g, uint32_t i,
                                uint32_t count)
{
    const uint8_t *p = in;
    const uint32_t r = g->restart_index, b = g->bytes;
    if (!vfetch_prim_index_fits(g))
        return count; /* no entry can hold it */
    const uint32_t lanes = 16 / b;
    v128 want, eq;
    if (b == 1)
        want = simde_mm_set1_epi8((int8_t)r);
    else if (b == 2)
        want = simde_mm_set1_epi16((int16_t)(g->big ? (r >> 8 | r << 8) & 0xffff : r));
    else
        want = simde_mm_set1_epi32((int32_t)(g->big ? __builtin_bswap32(r) : r));
    for (; i + lanes <= count; i += lanes) {
        const v128 v = load(p + (size_t)i * b);
        eq = b == 1 ? simde_mm_cmpeq_epi8(v, want)
             : b == 2 ? simde_mm_cmpeq_epi16(v, want)
                      : simde_mm_cmpeq_epi32(v, want);
        const int mask = simde_mm_movemask_epi8(eq);
        if (mask)
            return i + (uint32_t)__builtin_ctz((unsigned)mask) / b;
    }
    while (i < count && vfetch_prim_entry(in, g, i) != r)
        i++;
    return i;
}

void NAME(vfetch_prim_index_init)(struct vfetch_prim_dsp *dsp)
{
    dsp->scan = NAME(prim_scan);
    dsp->convert = NAME(prim_convert);
    dsp->find = NAME(prim_find);
}
