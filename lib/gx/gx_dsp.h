/*
 * GX's kernel table (the wing's own, like texel's): the index columns of row staging, and the
 * gathered form of the converter's record program with its executors. Filled by climbing the
 * ISA ladder (lib/ladder.h) over the reference forms. Not installed.
 */
#ifndef VFETCH_GX_GX_DSP_H
#define VFETCH_GX_GX_DSP_H

#include "ladder.h"
#include "record.h"

/** Vertices of a GX staging block (lib/gx/run_indexed.c). */
#define VFETCH_GX_BLOCK 128

/**
 * The indices of a column of n <= VFETCH_GX_BLOCK vertices: idx[v] = the isize-byte (1 or 2)
 * big-endian index at at + v * vsize. `readable` bytes from at may be read (at least the
 * last index's end); a kernel may read up to 4 bytes at each index.
 */
#define VFETCH_GX_INDICES_FN(name)                                                          \
    void name(const uint8_t *at, size_t vsize, uint32_t n, unsigned isize, size_t readable, \
              uint32_t *idx)
typedef VFETCH_GX_INDICES_FN(vfetch_gx_indices_fn);

/**
 * Source addresses from n indices: off = min(idx[v], clamp) * stride, addr[v] = base + off
 * where off < safe_end, else tail_addr + off (the copy of the buffer's last bytes). Returns the
 * highest index before the clamp. Offsets and safe_end are below 2^63.
 */
#define VFETCH_GX_ADDRS_FN(name)                                                            \
    uint32_t name(const uint32_t *idx, uint32_t n, uint32_t clamp, uint32_t stride,         \
                  uintptr_t base, uintptr_t tail_addr, uint64_t safe_end, uintptr_t *addr)
typedef VFETCH_GX_ADDRS_FN(vfetch_gx_addrs_fn);

/**
 * Both in one pass, where no vertex of the column is skipped: the addresses of n <= VFETCH_GX_BLOCK
 * vertices' indices read from their bytes (at, vsize, isize, readable as for the indices), as
 * VFETCH_GX_ADDRS_FN gives them; returns the highest index before the clamp.
 */
#define VFETCH_GX_INDEX_ADDRS_FN(name)                                                      \
    uint32_t name(const uint8_t *at, size_t vsize, uint32_t n, unsigned isize,              \
                  size_t readable, uint32_t clamp, uint32_t stride, uintptr_t base,         \
                  uintptr_t tail_addr, uint64_t safe_end, uintptr_t *addr)
typedef VFETCH_GX_INDEX_ADDRS_FN(vfetch_gx_index_addrs_fn);

/** The reference forms (index_ref.c); the SIMD levels run their tails with them. */
VFETCH_GX_INDICES_FN(vfetch_gx_read_indices_c);
VFETCH_GX_ADDRS_FN(vfetch_gx_index_addrs_c);
VFETCH_GX_INDEX_ADDRS_FN(vfetch_gx_read_index_addrs_c);

/*
 * Gathered sources (GX draws with indexed attributes, run.c): a program lowered against
 * the staged vertex (every attribute direct, one stream) runs without the stage. Staging copies
 * each vertex's parts with "moves" of 16 bytes from per-vertex addresses (a column of addresses
 * per move: the array element an index selects, or the vertex's own bytes); here each vector
 * loads those 16-byte pieces itself and one byte shuffle (the same for every group) puts their
 * bytes where the program's window and ctrl would have: the conversion passes that follow are
 * the program's own. A piece is (move, vertex of the group): its address is
 * col[move * col_stride + group * G + vertex].
 *
 * Wide (AVX-512 VBMI): up to 8 pieces in two registers of four 128-bit lanes, shuffled by one
 * vpermt2b (ctrl[0]: byte 16 * piece + offset, zmask: bytes taken). Lane-local (128/256 bits):
 * register j holds piece j of each 128-bit lane (up to 4 per lane); ctrl[j] shuffles register
 * j within lanes (0x80: nothing from it) and the shuffles are ORed.
 */
#define VFETCH_RP_GATHER_REGS 4

struct vfetch_rp_gather_vector {
    uint8_t regs;                 /**< registers assembled (0: the vector reads no source) */
    /** Per register and 128-bit lane: the piece's move and vertex (unused slots repeat a
        used piece, so that every load is of an address the columns hold). */
    uint8_t move[VFETCH_RP_GATHER_REGS][4], vertex[VFETCH_RP_GATHER_REGS][4];
    _Alignas(64) uint8_t ctrl[VFETCH_RP_GATHER_REGS][64];
    uint64_t zmask;               /**< wide: output bytes shuffled in (else zero) */
};

struct vfetch_rp_gather {
    const struct vfetch_record_prog *prog; /**< the program whose passes run (not owned) */
    uint32_t wide;                         /**< 1: the AVX-512 form */
    struct vfetch_rp_gather_vector vec[];  /**< one per program vector */
};

/**
 * Lower the gathered form of `prog` (lowered against one stream of `stride` bytes per vertex)
 * for moves that each copy staged bytes [dst[m], dst[m] + size[m]) (size at most 16, in
 * ascending dst, covering every staged byte a lane reads). Returns NULL where some vector
 * cannot be expressed (too many pieces, a binary16 pass) or on allocation failure.
 */
struct vfetch_rp_gather *vfetch_record_gather_lower(const struct vfetch_record_prog *prog,
                                                    uint32_t stride, unsigned num_moves,
                                                    const uint16_t *dst, const uint16_t *size,
                                                    int wide);

/**
 * A gathered-program executor: `groups` groups whose pieces' addresses are in the columns
 * (move m's addresses at col + m * col_stride, group g's vertex v at entry g * G + v), group g
 * written at dst + g * prog->dst_step (the output stride of the plan the program was lowered
 * for).
 */
#define VFETCH_RECORD_GATHER_FN(name)                                                       \
    void name(const struct vfetch_rp_gather *gp, const uintptr_t *col, size_t col_stride,   \
              size_t groups, uint8_t *dst)
typedef VFETCH_RECORD_GATHER_FN(vfetch_record_gather_fn);

struct vfetch_gx_dsp {
    /** Index columns and source addresses (lib/gx/run_indexed.c's row staging). */
    vfetch_gx_indices_fn *read_indices;
    vfetch_gx_addrs_fn *index_addrs;
    vfetch_gx_index_addrs_fn *read_index_addrs;
    /** The gathered-program executor for programs of gather_lanes lanes (the best level's
        record executor, lib/dsp.h), and the next-narrower level's (avx2 under avx512, for a
        plan that chose its 256-bit program), or NULL. */
    vfetch_record_gather_fn *gather;
    unsigned gather_lanes;
    vfetch_record_gather_fn *gather_narrow;
    unsigned gather_narrow_lanes;
};

/** Fill the table for the levels in allowed (vfetch_cpu_flag bits). */
void vfetch_gx_dsp_init(struct vfetch_gx_dsp *dsp, unsigned allowed);

/** The gathered executor for a program of `lanes` lanes, or NULL. */
static inline vfetch_record_gather_fn *vfetch_gx_gather_for(const struct vfetch_gx_dsp *dsp,
                                                           unsigned lanes)
{
    return dsp->gather && lanes == dsp->gather_lanes                 ? dsp->gather
           : dsp->gather_narrow && lanes == dsp->gather_narrow_lanes ? dsp->gather_narrow
                                                                     : NULL;
}

/* Per-level initialisers: lib/gx/index_tmpl.c and lib/gx/gather_tmpl.c, one compilation per
   level; each sets the entries its level implements. */
VFETCH_LADDER_DECLARE(vfetch_gx_index_init, struct vfetch_gx_dsp);
VFETCH_LADDER_DECLARE(vfetch_gx_gather_init, struct vfetch_gx_dsp);

#endif
