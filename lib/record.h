/*
 * The record program (docs/simd.md): a whole vertex format lowered to tables that
 * one generic SIMD loop executes, a vector of output at a time.
 *
 * The output records of G consecutive vertices (a group) are one flat run of 32-bit slots, of
 * any record stride (vec4 and packed layouts alike); G is the fewest vertices whose slots fill
 * whole vectors of the level (4, 8 or 16 lanes), so a 128-bit lane may hold the last slots of
 * one vertex and the first of the next. For each vector of the group the program holds:
 *   - where its source bytes come from: one window per 128-bit lane (16 bytes, shuffled with
 *     pshufb/vpshufb), or on AVX-512 VBMI one 32-, 64- or 128-byte window for the whole vector
 *     (vpermb / vpermt2b), at a byte offset from the group's first record in one stream;
 *   - the byte-shuffle control: which window byte lands in each output byte, or zero: this one
 *     permute does the byte swap, the placement and the zero fill of every attribute;
 *   - per-lane arithmetic: the shuffle puts a fixed-point container in the lane's top bytes;
 *     packed fields are shifted left so that the field's top bit is bit 31 and masked (shl,
 *     fmask); an unsigned field's top bit is flipped (xmask), so that one signed int -> float
 *     conversion gives (v - bias) * 2^(32-n) exactly; then (f * mul + add) / div and
 *     max(., lo), every step exact but the one division the reference also does;
 *   - UNORM8 lanes widen a 5..7-bit field to 8 bits by repeating its bits (x | x >> n) before
 *     the conversion; 4- and 8-bit fields need no widening (v * 17 / 255 = v / 15);
 *   - RGBA8 lanes: 8-bit fields moved byte by byte (raw), or the 4..8-bit fields of one
 *     packed container (RGB565, RGBA4444, RGBA6666), a 16-bit slice of it in each half of
 *     the lane, two channels per half moved to the top of the half by 16-bit multiplies,
 *     widened and put in their bytes (pack8), or on AVX-512 VBMI moved to their bytes and
 *     widened by a table (pack8 by table: VFETCH_RP_PACK8_LUT);
 *   - lanes that are raw float32 bits, integer fields (masked) or constants (raw), binary16
 *     (half: a second pass), or left alone (keep: a masked store).
 */
#ifndef VFETCH_RECORD_H
#define VFETCH_RECORD_H

#include "kernel.h"
#include "plan_internal.h"

/** Most lanes in a vector (AVX-512: 16). */
#define VFETCH_RP_LANES 16

/** How a vector's source bytes are fetched. */
enum vfetch_rp_window {
    VFETCH_RP_WINDOW_16 = 0,  /**< one 16-byte window per 128-bit lane (pshufb per lane) */
    VFETCH_RP_WINDOW_64 = 1,  /**< one 64-byte window for the vector (vpermb) */
    VFETCH_RP_WINDOW_128 = 2, /**< one 128-byte window for the vector (vpermt2b) */
    /** one 32-byte window for the vector (vpermb): where the vector's bytes span 32 or
        fewer, so that a group of 32 to 63 bytes still ends its window inside the group and
        runs in place (a draw of four 16-byte vertices, two per group) */
    VFETCH_RP_WINDOW_32 = 3,
};

/** Bytes of one window of a kind (per 128-bit lane for VFETCH_RP_WINDOW_16). */
static inline unsigned vfetch_rp_window_bytes(enum vfetch_rp_window window)
{
    static const unsigned bytes[] = { 16, 64, 128, 32 };
    return bytes[window];
}

/** Which passes a vector needs (bits), so that the loop skips what a vector does not use. */
enum {
    VFETCH_RP_FIXED = 1 << 0, /**< some lanes are fixed-point conversions */
    VFETCH_RP_DIV = 1 << 1,   /**< some fixed lane divides (normalised) or clamps at -1 */
    /** some fixed lane clamps at -1 (SNORM): always with DIV, a key of the compiled loops
        (so that SNORM vectors run one and the others test nothing per group), its table
        (lo, -inf in lanes that do not clamp) loaded from memory: kept in a register it would
        push out the common ones */
    VFETCH_RP_CLAMP = 1 << 2,
    VFETCH_RP_HALF = 1 << 3,  /**< some lanes are binary16 */
    VFETCH_RP_KEEP = 1 << 4,  /**< some lanes are not written */
    VFETCH_RP_RAW = 1 << 5,   /**< some lanes are raw bits or constants */
    VFETCH_RP_LOAD = 1 << 6,  /**< the vector reads source bytes (else all lanes constant/kept) */
    VFETCH_RP_SHIFT = 1 << 7, /**< some fixed lane is a packed field: shift and mask */
    VFETCH_RP_WIDEN = 1 << 8, /**< some fixed lane widens a 5..7-bit field to 8 bits (UNORM8) */
    VFETCH_RP_MASK = 1 << 9,  /**< some raw lane keeps only a field's bits (INTEGER), and
                                   sign-extends it (SINTEGER) */
    VFETCH_RP_PACK8 = 1 << 10, /**< some lane packs RGBA8 from fields of one container */
    /** PACK8 by table (AVX-512 VBMI, fields of 4..6 bits): each channel's field moved to its
        byte by one vpmultishiftqb, masked, and widened through a 112-entry table by one
        vpermt2b, instead of four shift-mask-widen sequences. Set instead of PACK8. */
    VFETCH_RP_PACK8_LUT = 1 << 11,
    /** Some fixed-point lane shares the vector with written lanes of another kind (raw,
        binary16, RGBA8): the fixed-point result is blended in. Without it every written lane
        is fixed-point and the result is stored as it is (no OR, no blend). */
    VFETCH_RP_BLEND = 1 << 12,
};

/**
 * Whether lowering can give a vector this set of the common passes (record_tmpl.c compiles a
 * loop only for such keys, checkasm builds a format for each): shift and divide come with
 * fixed-point lanes, which like binary16 lanes need loads; widening comes with shift and
 * divide; a clamp with a divide; a blend with fixed-point lanes, which beside binary16 ones
 * always blend.
 */
#define VFETCH_RP_REACHABLE(P)                                                              \
    (!(!((P) & VFETCH_RP_FIXED) && ((P) & (VFETCH_RP_SHIFT | VFETCH_RP_DIV))) &&            \
     !(!((P) & VFETCH_RP_LOAD) && ((P) & (VFETCH_RP_FIXED | VFETCH_RP_HALF))) &&            \
     !(((P) & VFETCH_RP_WIDEN) && ((P) & (VFETCH_RP_SHIFT | VFETCH_RP_DIV)) !=              \
                                      (VFETCH_RP_SHIFT | VFETCH_RP_DIV)) &&                 \
     !(((P) & VFETCH_RP_BLEND) && !((P) & VFETCH_RP_FIXED)) &&                              \
     !(((P) & VFETCH_RP_CLAMP) && !((P) & VFETCH_RP_DIV)) &&                                \
     !(((P) & VFETCH_RP_HALF) && ((P) & VFETCH_RP_FIXED) && !((P) & VFETCH_RP_BLEND)))

/* One vector of the program. Its tables are 64-byte aligned (the program is allocated so):
   a load that splits cache lines costs, and the rare passes load theirs per group. */
struct vfetch_rp_vector {
    uint8_t window;       /**< enum vfetch_rp_window */
    uint16_t passes;      /**< VFETCH_RP_* bits */
    /** On the first vector of a run of consecutive vectors with the same passes (lowering
        puts them together): how many; the executor dispatches once per run. */
    uint16_t run;
    uint8_t stream[4];    /**< source stream per 128-bit lane (all equal: whole-vector window) */
    uint32_t src_off[4];  /**< window start per 128-bit lane (or [0] for the whole vector),
                               bytes from the group's first record */
    uint32_t dst_off;     /**< output byte offset from the group's first output record */
    /** byte-shuffle control (0x80 = zero; for whole-vector windows see zmask) */
    _Alignas(64) uint8_t ctrl[64];
    uint64_t zmask;       /**< whole-vector windows: bit b set = output byte b is from it */
    /** F16C levels: a second shuffle that packs the vector's binary16 lanes as 16-bit values
        in lane order (per 128-bit lane in the low 8 bytes for 16-byte windows, in the low 32
        bytes for whole-vector windows), for one vcvtph2ps. */
    _Alignas(64) uint8_t hctrl[64];
    uint64_t hzmask;
    _Alignas(64) int32_t shl[VFETCH_RP_LANES]; /**< left shift (avx2/avx512) ... */
    int32_t shl_mul[VFETCH_RP_LANES]; /**< ... or the same as a multiplier 2^shl (sse41/neon) */
    int32_t fmask[VFETCH_RP_LANES];   /**< keeps the field's n top bits after the shift */
    int32_t xmask[VFETCH_RP_LANES];   /**< 0x80000000 for unsigned fields (see record.c) */
    /** UNORM8 widening of an n-bit field at the top of the lane: x | x >> n, keeping the top
        8 bits (widen_shr = n, widen_mask = 0xff000000; 0 and all ones elsewhere). Below
        AVX2 (no variable right shift) x >> n is formed as (x >> 8) * 2^(8-n), exact since
        the bits below the field are clear: widen_mul = 2^(8-n), 0 elsewhere. */
    int32_t widen_shr[VFETCH_RP_LANES], widen_mul[VFETCH_RP_LANES], widen_mask[VFETCH_RP_LANES];
    /** PACK8 lanes (RGBA8 from the 4..8-bit fields of one container): the shuffle puts a
        16-bit slice of the container in each half of the lane, the one that holds the
        half's two channels (R, G in the low half, B, A in the high one). Per 16-bit half j
        (2 * lane + half) and per byte b of it (its channel 2 * half + b): pack_mul = 2^(16 -
        p - n) moves the field (n bits at bit p of the slice) to the top of the half, pack_mask
        keeps its n bits (0: no such channel), pack_shr = 2^8 + 2^(8 - n): the high multiply
        of f = c << (16 - n) by it is c (2^(8 - n) + 2^(8 - 2n)), whose floor is the widened
        c << (8 - n) | c >> (2n - 8), in the half's low byte; the high byte's then shifted up
        by 8. */
    _Alignas(64) uint16_t pack_mul[2][2 * VFETCH_RP_LANES];
    uint16_t pack_mask[2][2 * VFETCH_RP_LANES], pack_shr[2][2 * VFETCH_RP_LANES];
    int32_t pack_sel[VFETCH_RP_LANES]; /**< all ones: lane takes the packed RGBA8 result */
    /** PACK8_LUT, per output byte (channel c of lane i): the bit offset of its field in the
        lane's qword (32 * (i % 2) + the field's lowest bit), the field's mask (0: no such
        channel) and its width's first entry in the widening table (record.h,
        VFETCH_RP_PACK8_TABLE). */
    _Alignas(64) uint8_t pack_bit[64];
    uint8_t pack_bmask[64], pack_base[64];
    float mul[VFETCH_RP_LANES], add[VFETCH_RP_LANES], div[VFETCH_RP_LANES], lo[VFETCH_RP_LANES];
    int32_t fixed_sel[VFETCH_RP_LANES]; /**< all ones: lane takes the fixed-point result */
    int32_t half_sel[VFETCH_RP_LANES];  /**< all ones: lane takes the binary16 result */
    int32_t raw_or[VFETCH_RP_LANES];    /**< OR-ed into raw lanes (1.0 constants) */
    int32_t raw_and[VFETCH_RP_LANES];   /**< ANDed into raw lanes first (integer fields) */
    /** Sign-extended integer fields (SINTEGER): after the AND, x = (x ^ s) - s with s the
        field's top bit (0 elsewhere: no change). Part of the MASK pass. */
    int32_t raw_sign[VFETCH_RP_LANES];
    int32_t store_sel[VFETCH_RP_LANES]; /**< all ones: lane is written (not kept) */
};

/** The PACK8_LUT widening table's layout: 6-bit fields at 0..63, 5-bit at 64..95, 4-bit at
    96..111, then zeros (a missing channel: mask 0 at base 112). */
enum {
    VFETCH_RP_PACK8_BASE6 = 0,
    VFETCH_RP_PACK8_BASE5 = 64,
    VFETCH_RP_PACK8_BASE4 = 96,
    VFETCH_RP_PACK8_ZERO = 112,
};

struct vfetch_record_prog {
    uint32_t lanes;          /**< lanes per vector: 4, 8 or 16 */
    uint32_t group;          /**< vertices per group (G): 1, 2, 4, 8 or 16 */
    uint32_t group_shift;    /**< log2(group) */
    uint32_t num_vectors;    /**< vectors per group (K) */
    /** Groups per block: the vectors run one after another over a block of groups, whose
        source and output stay in L1 meanwhile: at most 64 groups and at most 16 KiB of output
        (records of 1 KiB, the full Maxwell ISBE image, would otherwise write 64 KiB a block,
        more than L1: each of the record's vector passes evicted the lines the next one
        writes). A program of one vector has nothing to share a block with: its block is
        UINT32_MAX, the whole draw. Computed at lowering, not with a division per draw. */
    uint32_t block;
    /** Per stream: bytes past a group's first record that the group's windows may read
        (so a group is safe to run in place when base + this <= end of buffer). */
    uint32_t window_end[VFETCH_MAX_STREAMS];
    /** Per stream: the bytes [record_lo, record_hi) of a record that some lane uses, the only
        bytes staging copies (0, 0 for a stream no window reads). Lowering guarantees
        (group - 1) * stride + record_hi <= window_end: a stage that holds the windows of its
        groups holds every record copied into it. */
    uint32_t record_lo[VFETCH_MAX_STREAMS], record_hi[VFETCH_MAX_STREAMS];
    /** Per stream: bytes from one group's first record to the next group's (group times the
        plan's vertex stride: 0 for streams that read one record for the run), and of the
        output (group times the output stride): set at lowering, so that a draw forms none. */
    size_t group_step[VFETCH_MAX_STREAMS];
    size_t dst_step;
    /** 1 if every byte of a group's output records (group x the output stride) is written
        (no vector keeps a lane): a group run through a stack copy of its output need not
        fill the copy from the caller's records first. */
    uint32_t writes_all;
    /** The streams any window reads, so that the loop advances only those. */
    uint32_t num_streams_read;
    uint8_t streams_read[VFETCH_MAX_STREAMS];
    /** 1 if lowered with the wide windows allowed (a lowering without them may differ). */
    uint32_t wide_windows;
    struct vfetch_rp_vector vec[];
};

/* The executor's signature, VFETCH_RECORD_FN, is in kernel.h (the plan holds executors). */

/**
 * Lower a plan to a record program for vectors of `lanes` lanes; `wide_windows` allows the
 * 32/64/128-byte windows (AVX-512 VBMI). Returns NULL where the plan cannot be expressed (the
 * per-op path then runs it) or on allocation failure.
 */
struct vfetch_record_prog *vfetch_record_lower(const struct vfetch_plan *plan, unsigned lanes,
                                               int wide_windows);

/**
 * Estimated cost per vertex of running a program (arbitrary units): the passes each vector
 * needs, weighted by vector width (a 512-bit op counted as two 256-bit ones, as on CPUs that
 * split them), divided by the vertices per group. Used to choose between widths.
 */
unsigned vfetch_record_cost(const struct vfetch_record_prog *prog);

#endif
