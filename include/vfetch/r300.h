/*
 * vfetch — ATI R300/R500 vertex front-end.
 *
 * Compiles the VAP vertex-stream register words into a plan. See
 * ../shared/spec/r300-vap-prog-stream-cntl.txt and docs/r300.md for every field and decision.
 *
 * The hardware model: per vertex, the vertex fetcher builds one stream of dwords, and the
 * elements (PROG_STREAM_CNTL 0..15, until LAST_VEC) consume it in order, each taking the dwords
 * of its data type and then SKIP_DWORDS more. With vertex arrays (3D_LOAD_VBPNTR) the stream
 * is array 0's count dwords of record `index`, then array 1's, ... (an element may straddle two
 * arrays); in immediate mode it is one record of vtx_size dwords per vertex.
 *
 * The plan's streams are the arrays in order (stream i = array i, bound at run time with the
 * array's memory starting at its record 0), or the single immediate stream (sequential: draw
 * position p reads record p, whatever index buffer the run has).
 *
 * Output: one vec4 of float32 per DST_VEC_LOC written. By default a compact record holding only
 * the vectors the elements write, in DST_VEC_LOC order; vfetch_plan_location(plan, loc) gives
 * the first slot of each (slot = 4 bytes, a vector = 4 slots). With VFETCH_R300_LAYOUT_FULL the
 * record is the whole 32-vector input memory (128 slots, vector v at slot 4v).
 */
#ifndef VFETCH_R300_H
#define VFETCH_R300_H

#include <stdbool.h>
#include <stdint.h>

#include "vfetch/prim.h"
#include "vfetch/vfetch.h"

#ifdef __cplusplus
extern "C" {
#endif

/** R300 DATA_TYPE codes (VAP_PROG_STREAM_CNTL bits 3:0 / 19:16). */
enum vfetch_r300_data_type {
    VFETCH_R300_FLOAT_1 = 0,
    VFETCH_R300_FLOAT_2 = 1,
    VFETCH_R300_FLOAT_3 = 2,
    VFETCH_R300_FLOAT_4 = 3,
    VFETCH_R300_BYTE = 4,
    VFETCH_R300_D3DCOLOR = 5,
    VFETCH_R300_SHORT_2 = 6,
    VFETCH_R300_SHORT_4 = 7,
    VFETCH_R300_VECTOR_3_TTT = 8,
    VFETCH_R300_VECTOR_3_EET = 9,
    VFETCH_R300_FLOAT_8 = 10,
    VFETCH_R300_FLT16_2 = 11,
    VFETCH_R300_FLT16_4 = 12,
};

/** Most vertex arrays (3D_LOAD_VBPNTR). */
#define VFETCH_R300_MAX_ARRAYS 16

/** One vertex array of 3D_LOAD_VBPNTR. Its address is bound at run time. */
struct vfetch_r300_array {
    /** Dwords from one vertex's record to the next (VBPNTR STRIDE). 0 is allowed: every vertex
        reads the same record. */
    uint32_t stride_dwords;
    /** Dwords this array contributes to each vertex's dword stream (VBPNTR SIZE/COUNT), >= 1,
        and at most stride_dwords unless stride_dwords is 0. */
    uint32_t count_dwords;
};

/** Output record layouts. */
enum vfetch_r300_layout {
    /** Only the vectors the elements write, in DST_VEC_LOC order, 16 bytes each (default). */
    VFETCH_R300_LAYOUT_COMPACT = 0,
    /** The full 32-vector input memory: 512 bytes, vector v at byte 16v. */
    VFETCH_R300_LAYOUT_FULL = 1,
};

/** The register words and options of one R300 vertex format. Start with vfetch_r300_desc_init. */
struct vfetch_r300_desc {
    /** VAP_PROG_STREAM_CNTL_0..7 (0x2150..): element 2n in bits 15:0, 2n+1 in bits 31:16. */
    uint32_t prog_stream_cntl[8];
    /** VAP_PROG_STREAM_CNTL_EXT_0..7 (0x21E0..): swizzles (bits 2:0, 5:3, 8:6, 11:9) and
        write enables (15:12) for element 2n (low half) and 2n+1 (high half). Always honoured;
        vfetch_r300_desc_init() sets every half to the identity, VFETCH_R300_EXT_IDENTITY (X, Y,
        Z, W, all four written), so that a caller who does not program them gets every component in order,
        and one who programs them gets them (Mesa sends BGRA
        colors as BYTE with a Z, Y, X, W swizzle). An element whose write enables are all 0
        stores nothing. */
    uint32_t prog_stream_cntl_ext[8];
    /** VAP_PSC_SGN_NORM_CNTL (0x21DC): bits 2i+1:2i choose the signed-normalize method of
        element i. Default 0xAAAAAAAA (method 2 everywhere, what Mesa programs). */
    uint32_t sgn_norm_cntl;
    /** VAP_CNTL_STATUS (0x2140); only VC_SWAP, bits 1:0, is read. Default 0 (no swap). */
    uint32_t cntl_status;
    /** Number of vertex arrays, 0..16. 0 selects immediate mode (vtx_size_dwords). */
    uint32_t num_arrays;
    /** The vertex arrays (entries past num_arrays are ignored). */
    struct vfetch_r300_array arrays[VFETCH_R300_MAX_ARRAYS];
    /** Immediate mode only: dwords per vertex (VAP_VTX_SIZE), 1..128. */
    uint32_t vtx_size_dwords;
    /** Output layout, see vfetch_r300_layout. */
    enum vfetch_r300_layout layout;
    /** Bytes from one output record to the next: 0 (default) for the record size (16 bytes a
        vector), else a multiple of 4 at least the record size (VFETCH_EPLAN otherwise); the
        bytes past the record are left as they were (e.g. a host vertex buffer whose records
        carry more attributes). */
    uint32_t out_stride;
};

/** An EXT half (element) as after vfetch_r300_desc_init(): swizzle X, Y, Z, W, write all. */
#define VFETCH_R300_EXT_IDENTITY 0xF688u

/** Defaults: PROG_STREAM_CNTL words 0 (element 0 FLOAT_1 ...), every EXT half
    VFETCH_R300_EXT_IDENTITY, sgn_norm_cntl 0xAAAAAAAA, no swap, immediate mode with 0 dwords
    (to be set), compact layout, output stride the record size. */
void vfetch_r300_desc_init(struct vfetch_r300_desc *desc);

/**
 * Translate R300 registers into a plan description (no plan allocated). Errors:
 * VFETCH_ER300_RESERVED_TYPE, VFETCH_ER300_RESERVED_SGN_NORM, VFETCH_ERESERVED_SWIZZLE,
 * VFETCH_ER300_FLOAT8_LOC31, VFETCH_ER300_NO_LAST_VEC, VFETCH_ER300_STREAM_UNDERRUN, VFETCH_ER300_TOO_MANY_ARRAYS,
 * VFETCH_ER300_ARRAY_LAYOUT, VFETCH_EINVAL (NULL, vtx_size out of range, bad layout).
 */
int vfetch_r300_translate(const struct vfetch_r300_desc *desc, struct vfetch_plan_desc *out_desc);

/**
 * An immutable compiled R300 vertex format. It is the core plan itself: the core's run
 * parameters (index offset, VAP_VF_MAX_VTX_INDX clamp, instancing) are R300's, so nothing
 * wraps it, and every vfetch_plan_* query takes it as it is. The vfetch_r300_* names below
 * give it the same contract as the other families (docs/api.md).
 */
typedef struct vfetch_plan vfetch_r300_plan;

/** vfetch_r300_translate() followed by vfetch_plan_compile(): the errors of both. */
int vfetch_r300_compile(const struct vfetch_r300_desc *desc, vfetch_r300_plan **out_plan);

/** Free a plan. NULL is allowed. (vfetch_plan_free) */
void vfetch_r300_plan_free(vfetch_r300_plan *plan);

/** Run parameters' defaults (vfetch_run_params_init). */
void vfetch_r300_run_params_init(struct vfetch_run_params *params);

/** Convert a draw (vfetch_run: every check first, nothing written on error). */
int vfetch_r300_run(const vfetch_r300_plan *plan, const struct vfetch_run_params *params);

/** What the plan runs (vfetch_plan_info). */
int vfetch_r300_plan_info(const vfetch_r300_plan *plan, struct vfetch_plan_info *info);

/** The output record as a host vertex input, locations DST_VEC_LOC (vfetch_plan_declaration). */
int vfetch_r300_plan_declaration(const vfetch_r300_plan *plan, struct vfetch_vertex_decl *decl);

/** Bytes from one output record to the next (vfetch_plan_out_stride). */
uint32_t vfetch_r300_plan_out_stride(const vfetch_r300_plan *plan);

/** First 32-bit slot of DST_VEC_LOC location, or -1 (vfetch_plan_location). */
int vfetch_r300_plan_location(const vfetch_r300_plan *plan, unsigned location);

/** The core plan, as the other families give theirs: the plan itself. */
const vfetch_plan *vfetch_r300_plan_converter(const vfetch_r300_plan *plan);

/* ---- indexed draws into a batch ------------------------------------------------------------ */

/**
 * One R300/R500 draw through a guest index buffer (VAP_VF_CNTL PRIM_WALK "indexes"), its
 * vertices and its host indices appended to an emulator's batch in one call
 * (docs/prim.md, "Indexed draws in one call"). The entries are scanned once for their smallest
 * and largest (restart entries aside); the guest records between the two are converted once,
 * in order, to the batch's next records; and the primitive's host indices, each the entry less
 * the smallest plus the batch's vertex_count, follow the batch's indices. The result is byte
 * for byte vfetch_prim_run of `prim` in range mode (based at batch->vertex_count) and
 * vfetch_r300_run of records min_index .. max_index without an index buffer, each into the
 * batch where it goes; so every host index names the record the guest's entry names, as
 * vfetch_r300_run through the index buffer would convert it.
 *
 * `plan` is the vertex format (vfetch_r300_compile, or any core plan). `prim` is a primitive
 * plan (vfetch_prim_compile) for the draw's PRIM_TYPE with an index buffer (guest_index_bytes:
 * VAP_VF_CNTL INDEX_SIZE, its byte order, guest_restart) in range mode (`range`); its index
 * type is the batch's index width (a `narrowest` plan writes its widest: a batch holds one
 * width). Anything else is VFETCH_EINVAL.
 *
 * `params` carries what stays across a draw's entries: the stream bindings (streams,
 * num_streams), index_offset (added to every entry: the guest record of entry e is e +
 * index_offset), max_index (VAP_VF_MAX_VTX_INDX: records above it are clamped to it, as
 * vfetch_r300_run clamps them; entries clamped together share one host vertex, the indices
 * naming it), instance and base_instance. The fields a draw supplies itself must be as
 * vfetch_r300_run_params_init leaves them: first 0, count 0, indices NULL, index_type
 * VFETCH_INDEX_NONE, indices_size 0, out NULL, out_size 0 (VFETCH_EINVAL otherwise, so that
 * a direct run's parameters are never half used).
 *
 * `indices` is the guest index buffer and `indices_size` the bytes readable there (no
 * alignment needed); `count` is the draw's entries (VAP_VF_CNTL NUM_VERTICES).
 *
 * `batch` is the emulator's batch (vfetch/prim.h): the records go at vertices_used, the
 * indices at indices_used, based at vertex_count; on success the call adds to its three used
 * figures and sets record_stride to the plan's out stride.
 *
 * `result` (may be NULL) receives what was appended.
 *
 * Checks come first, in this order, and on any error nothing changes (neither buffer, nor
 * the batch, nor *result): VFETCH_EINVAL (NULL plan, prim, params or batch; a prim plan that
 * is not in range mode with an index buffer; the per-draw fields of params set; fewer
 * bindings than the plan's streams, or NULL streams; used figures past their capacities; a
 * NULL vertex buffer with entries to draw, a NULL or misaligned index buffer with indices to
 * write; NULL indices with entries to read); the entries' own errors as vfetch_prim_run
 * reports them (VFETCH_EOVERFLOW, VFETCH_ESHORT_INDICES); the vertex run's as vfetch_r300_run
 * reports them for records min .. max (VFETCH_EINDEX_RANGE: the smallest entry plus
 * index_offset negative; VFETCH_EMISSING_STREAM, VFETCH_EOVERFLOW, VFETCH_ESHORT_STREAM);
 * VFETCH_EBATCH_FULL (the batch holds records of another stride; no room for the records or
 * for vfetch_prim_index_count(prim, count) indices; the highest host index, vertex_count +
 * max - min, reaching the width's all-ones value): flush the batch and draw again. Then
 * VFETCH_ENOMEM only where the vertex run needs memory (a stage, or VFETCH_JIT=compare's
 * copy), still before anything is written. A draw of no entries, or only restart entries,
 * appends nothing and succeeds. Every entry counts for the range, those a trimmed primitive
 * drops included (their records are appended with no index naming them).
 */
int vfetch_r300_draw_indexed(const vfetch_r300_plan *plan, const vfetch_prim_plan *prim,
                             const struct vfetch_run_params *params, const void *indices,
                             size_t indices_size, uint32_t count, struct vfetch_batch *batch,
                             struct vfetch_draw_result *result);

/* ---- register state ---------------------------------------------------------------------- */

/** VAP register addresses a vfetch_r300_state holds (byte addresses, as in packet0). */
enum vfetch_r300_reg {
    VFETCH_R300_VAP_VTX_SIZE = 0x20B4,           /**< immediate mode: dwords per vertex */
    VFETCH_R300_VAP_VF_MAX_VTX_INDX = 0x2134,    /**< held for vfetch_r300_state_max_index */
    VFETCH_R300_VAP_CNTL_STATUS = 0x2140,        /**< VC_SWAP, bits 1:0 */
    VFETCH_R300_VAP_PROG_STREAM_CNTL_0 = 0x2150, /**< ..0x216C: _0.._7 */
    VFETCH_R300_VAP_PSC_SGN_NORM_CNTL = 0x21DC,
    VFETCH_R300_VAP_PROG_STREAM_CNTL_EXT_0 = 0x21E0, /**< ..0x21FC: _EXT_0.._7 */
};

/** An emulator's R300/R500 vertex-fetch state: register writes and 3D_LOAD_VBPNTR packets in,
    the cached plan for the current state out. Not thread-safe: one per command stream. */
typedef struct vfetch_r300_state vfetch_r300_state;

/** Options of a state's plans (zero = defaults: compact layout, record size as stride,
    automatic executor). */
struct vfetch_r300_state_params {
    enum vfetch_r300_layout layout;
    uint32_t out_stride;
    enum vfetch_path path;
};

/** Create a state whose registers hold vfetch_r300_desc_init()'s values (EXT identity, sign
    method 2, no swap, no arrays, VTX_SIZE 0, VF_MAX_VTX_INDX 0xFFFFFFFF). params may be NULL
    (defaults). VFETCH_EINVAL for options out of range, VFETCH_ENOMEM. */
int vfetch_r300_state_create(const struct vfetch_r300_state_params *params,
                             vfetch_r300_state **out);

/** Free a state and every plan it handed out. NULL is allowed. */
void vfetch_r300_state_free(vfetch_r300_state *state);

/**
 * One register write (packet0 address and value) of enum vfetch_r300_reg. Other addresses:
 * VFETCH_EREGISTER, no change. VFETCH_EINVAL for a NULL state.
 */
int vfetch_r300_load_reg(vfetch_r300_state *state, uint32_t addr, uint32_t value);

/** The value last written to a held register (its initial value if never written; 0 for an
    address the state does not hold). */
uint32_t vfetch_r300_state_reg(const vfetch_r300_state *state, uint32_t addr);

/**
 * The payload of a 3D_LOAD_VBPNTR packet (the vertex arrays of the draws that follow): word 0
 * holds the array count in bits 4:0 (bit 5, VC_FORCE_PREFETCH, is ignored); then per pair of
 * arrays one word with SIZE0 (dwords per vertex, bits 7:0), STRIDE0 (bits 15:8), SIZE1 (23:16)
 * and STRIDE1 (31:24), followed by the pair's two addresses (one word and one address for an
 * odd last array). Addresses are not held: the caller binds each array's memory as stream n
 * of vfetch_run. VFETCH_ER300_TOO_MANY_ARRAYS above 16 arrays, VFETCH_EINVAL when `words` is fewer
 * than the count needs (nothing changed either way).
 */
int vfetch_r300_load_vbpntr(vfetch_r300_state *state, const uint32_t *payload, size_t words);

/**
 * The plan for the current registers: of the vertex arrays (immediate 0) or of immediate-mode
 * vertices of VAP_VTX_SIZE dwords (immediate 1). Unchanged registers return the previous plan
 * at once; else a plan the state compiled for the same registers among its last 16
 * compilations; else compiled now (at the CPU level then in force). The plan stays valid until
 * a later call returns a different one, or the state is freed. Errors as vfetch_r300_compile
 * (nothing cached), VFETCH_EINVAL for NULL arguments.
 */
int vfetch_r300_state_plan(vfetch_r300_state *state, int immediate, const vfetch_r300_plan **out_plan);

/** VAP_VF_MAX_VTX_INDX as last written (for struct vfetch_run_params.max_index). */
uint32_t vfetch_r300_state_max_index(const vfetch_r300_state *state);

/** Compilations the state has run, failed ones included (for tests of the cache). */
uint64_t vfetch_r300_state_compiles(const vfetch_r300_state *state);

#ifdef __cplusplus
}
#endif

#endif /* VFETCH_R300_H */
