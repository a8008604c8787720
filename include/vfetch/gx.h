/*
 * vfetch GameCube/Wii front-end: the command processor's vertex descriptor (VCD_LO/VCD_HI) and
 * one vertex attribute table entry (VAT A/B/C of the format a draw selects), parsed.
 *
 * Three levels of use:
 *  - vfetch_gx_parse() / vfetch_gx_vertex_size(): the register words taken apart, and the byte
 *    size of one vertex in the command stream (what a display-list or FIFO walker needs);
 *  - the family's contract (docs/api.md): vfetch_gx_desc_init(), vfetch_gx_compile(),
 *    vfetch_gx_run(), the vfetch_gx_plan_* queries, vfetch_gx_plan_free(): a compiled GX vertex
 *    format that converts a draw's vertices (direct and indexed attributes) into a host layout;
 *  - vfetch_gx_state: CP register writes in, the cached compiled format of each VAT out.
 * Behaviour table (every field, every decision, the differences from Dolphin): docs/gx.md.
 */
#ifndef VFETCH_GX_H
#define VFETCH_GX_H

#include <stdint.h>

#include "vfetch/prim.h"
#include "vfetch/vfetch.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Attributes in stream order after the matrix-index bytes; also the CP array numbers. */
enum vfetch_gx_attr_id {
    VFETCH_GX_POSITION = 0,
    VFETCH_GX_NORMAL = 1,
    VFETCH_GX_COLOR0 = 2,
    VFETCH_GX_COLOR1 = 3,
    VFETCH_GX_TEXCOORD0 = 4, /**< texcoord n is VFETCH_GX_TEXCOORD0 + n, n = 0..7 */
    VFETCH_GX_NUM_ATTRS = 12,
};

/** How an attribute arrives (VCD two-bit fields). */
enum vfetch_gx_mode {
    VFETCH_GX_NONE = 0,    /**< not present */
    VFETCH_GX_DIRECT = 1,  /**< its data is in the vertex */
    VFETCH_GX_INDEX8 = 2,  /**< an 8-bit index into its array is in the vertex */
    VFETCH_GX_INDEX16 = 3, /**< a big-endian 16-bit index into its array is in the vertex */
};

/** Component formats of positions, normals and texcoords (VAT *FMT for non-colors). */
enum vfetch_gx_component {
    VFETCH_GX_U8 = 0,
    VFETCH_GX_S8 = 1,
    VFETCH_GX_U16 = 2,
    VFETCH_GX_S16 = 3,
    VFETCH_GX_F32 = 4,
    /* 5..7 are "unused" in the documents; read as F32 (as Dolphin does: shipped games send
       5), with VFETCH_GX_DIAG_UNUSED_FORMAT. */
};

/** Color formats (VAT COL*FMT). 6 and 7 are reserved: VFETCH_EGX_RESERVED_COLOR. */
enum vfetch_gx_color {
    VFETCH_GX_RGB565 = 0,   /**< 2 bytes */
    VFETCH_GX_RGB888 = 1,   /**< 3 bytes */
    VFETCH_GX_RGB888X = 2,  /**< 4 bytes, the fourth ignored */
    VFETCH_GX_RGBA4444 = 3, /**< 2 bytes */
    VFETCH_GX_RGBA6666 = 4, /**< 3 bytes */
    VFETCH_GX_RGBA8888 = 5, /**< 4 bytes */
};

/** Diagnostics: accepted inputs the documents call unused or n/a (bits of `diagnostics`). */
enum vfetch_gx_diagnostic {
    VFETCH_GX_DIAG_UNUSED_FORMAT = 1 << 0,   /**< a component format 5..7, read as f32 */
    VFETCH_GX_DIAG_UNSIGNED_NORMAL = 1 << 1, /**< a u8/u16 normal, read as u8/2^7, u16/2^15 */
};

/** The register words that describe one vertex format. */
struct vfetch_gx_regs {
    /** CP 0x50 VCD_LO: matrix-index presence (bits 0..8), position, normal, colors. */
    uint32_t vcd_lo;
    /** CP 0x60 VCD_HI: texcoords 0..7, two bits each. */
    uint32_t vcd_hi;
    /** CP 0x70+f, 0x80+f, 0x90+f: VAT A, B, C of the draw's format f. */
    uint32_t vat_a, vat_b, vat_c;
};

/** One attribute, parsed. */
struct vfetch_gx_attr {
    /** enum vfetch_gx_mode. */
    uint8_t mode;
    /** Components in the element: position 2/3, normal 3/9, color 3/4, texcoord 1/2. */
    uint8_t count;
    /** enum vfetch_gx_component (5..7 already mapped to F32), or enum vfetch_gx_color. */
    uint8_t format;
    /** Position/texcoord: dequantisation shift 0..31 in effect (0 for u8/s8 without
        BYTEDEQUANT). Normal: the fixed shift (6 for 8-bit, 14 for s16, 7/15 for u8/u16). */
    uint8_t shift;
    /** Bytes of one element (direct data, or one array entry when indexed). */
    uint8_t element_size;
    /** Bytes this attribute occupies in the vertex (element_size, or 1/2 per index; indexed
        NBT with NORMALINDEX3 carries three indices). */
    uint8_t stream_size;
};

/** A whole vertex format, parsed. */
struct vfetch_gx_format {
    /** Position-matrix index byte present (VCD_LO bit 0). */
    uint8_t pos_matrix_index;
    /** Texcoord-matrix index byte n present (VCD_LO bit 1 + n). */
    uint8_t tex_matrix_index[8];
    struct vfetch_gx_attr attr[VFETCH_GX_NUM_ATTRS];
    /** VAT A bit 30: shifts apply to u8/s8 too. */
    uint8_t byte_dequant;
    /** VAT A bit 31: indexed NBT normals carry three indices. */
    uint8_t normal_index3;
    /** VFETCH_GX_DIAG_* bits. */
    uint32_t diagnostics;
    /** Bytes of one vertex in the command stream. */
    uint32_t vertex_size;
};

/**
 * Take VCD and VAT words apart. Fields of attributes the VCD does not enable are ignored (so a
 * reserved color format on an absent color is no error). Returns VFETCH_EINVAL for NULL
 * pointers, VFETCH_EGX_RESERVED_COLOR for color format 6/7 on an enabled color.
 */
int vfetch_gx_parse(const struct vfetch_gx_regs *regs, struct vfetch_gx_format *out);

/** Bytes of one vertex in the command stream (what a FIFO or display-list walker needs).
    Same errors as vfetch_gx_parse. */
int vfetch_gx_vertex_size(const struct vfetch_gx_regs *regs, uint32_t *size);

/* ---- compiled vertex formats ------------------------------------------------------------ */

/** How converted vertices are laid out. */
enum vfetch_gx_layout {
    /** One vec4 (16 bytes) per present location, in location order; missing components
        (0, 0, 0, 1): positions XY get z = 0 and w = 1, texcoords S get t = 0. Matrix indices
        follow as 32-bit integers, four to a vec4, the last vec4 padded with 0. */
    VFETCH_GX_LAYOUT_VEC4 = 0,
    /** Only the components present, 4 bytes each, in location order (like an emulator's
        native vertex buffer): position 2/3, normal 3 (NBT 9), color 4 floats or one RGBA8,
        texcoord 1/2, one integer per matrix index. */
    VFETCH_GX_LAYOUT_PACKED = 1,
    /** Dolphin's native vertex format: the packed layout, except that the position-matrix
        index comes first (one integer slot) and each texcoord that has a matrix index is three
        floats (s, t, the index as a float; an S-only texcoord gets t = 0, a matrix index
        without its texcoord gives (0, 0, index)), where the texcoord-matrix locations are not
        locations of their own (vfetch_gx_plan_location gives -1 for them). With RGBA8 colors
        it is byte-identical to Dolphin's vertex loaders (docs/gx.md). */
    VFETCH_GX_LAYOUT_DOLPHIN = 2,
    /** Maxwell vertex-input ISBE records (vfetch/maxwell.h, docs/maxwell.md): the vec4
        layout's location n as generic attribute n (matrix index n: generic n's x, an
        integer), only the generic attributes' components present, in address order, so that
        one host layout serves GX and Maxwell guests. */
    VFETCH_GX_LAYOUT_ISBE_COMPACT = 3,
    /** The same as the full 256-slot ISBE image, every other slot at its default
        (SET_ATTRIBUTE_DEFAULT 0x0E). */
    VFETCH_GX_LAYOUT_ISBE_FULL = 4,
};

/** How colors are delivered. Alpha always comes from the format (the color count does not
    change it: rgb565, rgb888 and rgb888x give alpha 255), as on the hardware and in Dolphin. */
enum vfetch_gx_color_output {
    VFETCH_GX_COLOR_FLOAT = 0, /**< four floats, each 8-bit channel / 255 */
    VFETCH_GX_COLOR_RGBA8 = 1, /**< one 32-bit slot: bytes R, G, B, A in memory order (the
                                    vec4 layout zero-fills the other three slots) */
};

/** Output locations, in layout order: vfetch_gx_plan_location() gives each one's first slot. */
enum vfetch_gx_location {
    VFETCH_GX_LOC_POSITION = 0,
    VFETCH_GX_LOC_NORMAL = 1,   /**< the normal, or the first vec3 of NBT */
    VFETCH_GX_LOC_NBT1 = 2,     /**< NBT's second vec3 (the SDK's binormal) */
    VFETCH_GX_LOC_NBT2 = 3,     /**< NBT's third vec3 (the SDK's tangent) */
    VFETCH_GX_LOC_COLOR0 = 4,
    VFETCH_GX_LOC_COLOR1 = 5,
    VFETCH_GX_LOC_TEXCOORD0 = 6,   /**< texcoord n at VFETCH_GX_LOC_TEXCOORD0 + n */
    VFETCH_GX_LOC_POS_MATRIX = 14, /**< the position-matrix index (an integer slot) */
    VFETCH_GX_LOC_TEX_MATRIX0 = 15, /**< texcoord-matrix index n at 15 + n (integer slots) */
    VFETCH_GX_NUM_LOCATIONS = 23,
};

/** Everything a GX plan is compiled from: the register words and the host's choices. Start
    from vfetch_gx_desc_init() (a zeroed description holds the same defaults). */
struct vfetch_gx_desc {
    /** VCD_LO/HI and the VAT A/B/C of the format. */
    struct vfetch_gx_regs regs;
    /** CP ARRAY_STRIDE of each attribute's array (0xB0 + attribute id), used by indexed
        attributes: element i of array a is at its binding + i * array_stride[a]. */
    uint8_t array_stride[VFETCH_GX_NUM_ATTRS];
    /** Output layout. Default VFETCH_GX_LAYOUT_VEC4. */
    enum vfetch_gx_layout layout;
    /** How colors are delivered. Default VFETCH_GX_COLOR_FLOAT. */
    enum vfetch_gx_color_output color_output;
    /** Executor of the converter plan (results are identical either way). Default
        VFETCH_PATH_AUTO. */
    enum vfetch_path path;
};

/** Defaults: register words 0 (no attribute), array strides 0, vec4 layout, float colors,
    automatic executor; every field 0. */
void vfetch_gx_desc_init(struct vfetch_gx_desc *desc);

/** An immutable compiled GX vertex format; one may be run from many threads at once. */
typedef struct vfetch_gx_plan vfetch_gx_plan;

/**
 * Compile a vertex format. Errors: VFETCH_EINVAL (NULL, layout or color output out of range),
 * VFETCH_EGX_RESERVED_COLOR, VFETCH_ENOMEM. A VCD with no attribute at all (not even a matrix
 * index) is valid: its vertices are 0 bytes and convert to nothing (output stride 0).
 */
int vfetch_gx_compile(const struct vfetch_gx_desc *desc, vfetch_gx_plan **out_plan);

/** Free a compiled format. NULL is allowed. */
void vfetch_gx_plan_free(vfetch_gx_plan *plan);

/** The parsed format (sizes, shifts, diagnostics) a plan was compiled from. */
const struct vfetch_gx_format *vfetch_gx_plan_format(const vfetch_gx_plan *plan);

/** The converter plan (over the vertex with every attribute direct), for describe/hash; NULL
    for a format with nothing to convert. */
const vfetch_plan *vfetch_gx_plan_converter(const vfetch_gx_plan *plan);

/** Bytes from one output vertex to the next (vec4 layout: a multiple of 16). */
uint32_t vfetch_gx_plan_out_stride(const vfetch_gx_plan *plan);

/** First 32-bit output slot of a location (enum vfetch_gx_location), or -1 if not present. */
int vfetch_gx_plan_location(const vfetch_gx_plan *plan, unsigned location);

/**
 * The output vertex as a host vertex input layout (vfetch_plan_declaration): per present
 * location (enum vfetch_gx_location) its offset, count and type, and the stride. Vec4 layout:
 * every vector location 4 floats (or one UNORM8X4 color), each matrix index one UINT32;
 * packed layout: position 2/3 floats, normals 3, colors 4 floats or one UNORM8X4, texcoords
 * 1/2, matrix indices one UINT32 each. A format with nothing to convert declares no
 * attribute. VFETCH_EINVAL for NULL arguments, else 0.
 */
int vfetch_gx_plan_declaration(const vfetch_gx_plan *plan, struct vfetch_vertex_decl *decl);

/** What the plan runs (its converter's vfetch_plan_info; a format with nothing to convert
    reports the per-op executor at level "c"). VFETCH_EINVAL for NULL arguments, else 0. */
int vfetch_gx_plan_info(const vfetch_gx_plan *plan, struct vfetch_plan_info *info);

/** The plan's generated code (the JIT tier, docs/jit.md): *view filled, with size 0 and
    bytes NULL for a plan without. VFETCH_EINVAL for NULL arguments, else 0. */
int vfetch_gx_plan_jit_code(const vfetch_gx_plan *plan, struct vfetch_jit_code_view *view);

/** What to do with an array index past the end of its bound array. */
enum vfetch_gx_index_policy {
    VFETCH_GX_INDEX_ERROR = 0, /**< VFETCH_EGX_ARRAY_INDEX, nothing written (default) */
    VFETCH_GX_INDEX_CLAMP = 1, /**< read the last whole element instead */
};

/** One draw's data. Start from zero (or vfetch_gx_run_params_init()). */
struct vfetch_gx_run_params {
    /** The draw's vertex data as it follows the draw command (big-endian, vertex_size bytes
        per vertex), and the bytes readable there. */
    const void *vertices;
    size_t vertices_size;
    /** Vertices in the draw. 0 is valid and writes nothing. */
    uint32_t count;
    /** Each indexed attribute's array (by attribute id), from the caller's mapping of CP
        ARRAY_BASE: element i is at data + i * stride, and must lie within size. Arrays of
        attributes that are not indexed are ignored. Bind an array to the end of the guest
        memory it lies in, not to the rows a game uses: where every array holds the element of
        every index its format can name (65,536 rows for an index16, 256 for an index8), the
        generated code reads no index before converting (docs/jit.md). */
    struct vfetch_binding arrays[VFETCH_GX_NUM_ATTRS];
    enum vfetch_gx_index_policy index_policy;
    /** Output: one record per vertex that is not skipped, vfetch_gx_plan_out_stride() apart. */
    void *out;
    size_t out_size;
};

/** What a run did. */
struct vfetch_gx_result {
    /** Output records written: count minus skipped. They are consecutive: a skipped vertex
        takes no record (as in Dolphin), so primitives must be built on `written` vertices. */
    uint32_t written;
    /** Vertices whose position index is the skip value (0xFF index8, 0xFFFF index16): not
        converted, no array read at that index. */
    uint32_t skipped;
    /** Array indices past the end that VFETCH_GX_INDEX_CLAMP replaced. */
    uint32_t clamped;
};

/** Zero everything (VFETCH_GX_INDEX_ERROR). */
void vfetch_gx_run_params_init(struct vfetch_gx_run_params *params);

/**
 * Convert one draw. Checks first, then writes: VFETCH_EINVAL (NULL plan or params, policy out
 * of range, NULL out with vertices to write), VFETCH_EOVERFLOW (count * vertex size),
 * VFETCH_EMISSING_STREAM (no vertex data, or an indexed attribute's array unbound),
 * VFETCH_ESHORT_STREAM (vertices_size below count * vertex size), VFETCH_EGX_ARRAY_INDEX (an
 * index whose element does not lie within its array, under VFETCH_GX_INDEX_ERROR, or an array
 * too small for even one element), VFETCH_ESHORT_OUTPUT. On error nothing is written and
 * *result is untouched. result may be NULL.
 */
int vfetch_gx_run(const vfetch_gx_plan *plan, const struct vfetch_gx_run_params *params,
                  struct vfetch_gx_result *result);

/* ---- CP state -------------------------------------------------------------------------- */

/** An emulator's CP vertex state: register writes in, compiled formats out. Not thread-safe:
    one state per command-processor thread. */
typedef struct vfetch_gx_state vfetch_gx_state;

/** Options of a state's compiled formats (zero = defaults, as in vfetch_gx_desc_init). */
struct vfetch_gx_state_params {
    enum vfetch_gx_layout layout;
    enum vfetch_gx_color_output color_output;
    enum vfetch_path path;
};

/** Create a state with every register 0. params may be NULL (defaults). VFETCH_EINVAL for
    out-of-range options, VFETCH_ENOMEM. */
int vfetch_gx_state_create(const struct vfetch_gx_state_params *params, vfetch_gx_state **out);

/** Free a state and every plan it handed out. NULL is allowed. */
void vfetch_gx_state_free(vfetch_gx_state *state);

/**
 * One CP register write (the LOAD_CP_REG command's register byte and value): 0x30 MATINDEX_A,
 * 0x40 MATINDEX_B, 0x50 VCD_LO, 0x60 VCD_HI, 0x70+f / 0x80+f / 0x90+f VAT A/B/C of format f
 * (0..7), 0xA0+n ARRAY_BASE and 0xB0+n ARRAY_STRIDE (n 0..15; 12..15 are the XF indexed-load
 * arrays). A write that changes a value marks the formats it affects for recompilation: VCD and
 * strides 0..11 all eight (a stride only when its bits 7:0 change), a VAT word its own format;
 * matrix indices, array bases and strides 12..15 none. Other addresses: VFETCH_EREGISTER, no
 * change.
 */
int vfetch_gx_load_cp_reg(vfetch_gx_state *state, uint8_t addr, uint32_t value);

/** The value last written to a register (0 if never written or not held). */
uint32_t vfetch_gx_state_reg(const vfetch_gx_state *state, uint8_t addr);

/**
 * The compiled format for VAT format vat (0..7) under the current registers: the one this vat
 * had unless a register write changed something it depends on; else, if the state compiled
 * the same registers (VCD, the vat's VAT words, the array strides) among its last 32
 * compilations, that plan (formats with equal registers share one plan); else compiled now.
 * Plans are compiled at the CPU level in force when they are compiled. The plan stays valid
 * until a later call for the same vat returns a different one, or the state is freed. Errors
 * as vfetch_gx_compile (the vat's plan is then dropped; nothing is cached), VFETCH_ENOMEM,
 * VFETCH_EINVAL for vat > 7.
 */
int vfetch_gx_state_plan(vfetch_gx_state *state, unsigned vat, const vfetch_gx_plan **out_plan);

/** How many compilations the state has run, failed ones included (for tests of the cache,
    and statistics). */
uint64_t vfetch_gx_state_compiles(const vfetch_gx_state *state);

/** Regions of guest memory a state resolves ARRAY_BASE through (MEM1, MEM2, ...). */
#define VFETCH_GX_MAX_REGIONS 4

/**
 * Map guest memory for the state's arrays: guest addresses [guest, guest + size) are the `size`
 * bytes at `host` (region 0..VFETCH_GX_MAX_REGIONS-1; size 0 unmaps it). From then on each
 * ARRAY_BASE of arrays 0..11 (the value as written by vfetch_gx_load_cp_reg, unmasked) that
 * lies in a region binds that array to the bytes from there to the region's end, bounds-checked
 * at every draw as vfetch_gx_run checks its arrays; a base outside every region binds nothing
 * (an indexed attribute reading it is VFETCH_EMISSING_STREAM). Mapping again re-resolves every
 * base. The memory must stay readable while draws read it. VFETCH_EINVAL for a NULL state,
 * a region out of range, a NULL host with a size, or a range past 2^32.
 */
int vfetch_gx_state_map_memory(vfetch_gx_state *state, unsigned region, uint32_t guest,
                               const void *host, size_t size);

/** The index policy of the state's draws (default VFETCH_GX_INDEX_ERROR). VFETCH_EINVAL for a
    NULL state or a policy out of range. */
int vfetch_gx_state_set_index_policy(vfetch_gx_state *state, enum vfetch_gx_index_policy policy);

/**
 * One draw of VAT format vat with the state's registers and arrays: what an emulator's draw
 * command carries (the vertices, their count) and where the output goes, and nothing else: the
 * format is vfetch_gx_state_plan's, the arrays the mapped ARRAY_BASEs, the policy the state's.
 * Equal to vfetch_gx_state_plan then vfetch_gx_run with those parameters, with the same errors
 * (vfetch_gx_state_plan's first), and no 240-byte parameter block filled per draw.
 */
int vfetch_gx_state_draw(vfetch_gx_state *state, unsigned vat, const void *vertices,
                         size_t vertices_size, uint32_t count, void *out, size_t out_size,
                         struct vfetch_gx_result *result);

/* ---- one call per guest draw: vertices and indices into a batch ------------------------- */

/** The host indices of a state's batched draws (vfetch_gx_state_draw_batch): the primitive
    family's options for GX draw commands (vfetch/prim.h, struct vfetch_prim_desc), set once.
    Zero is Dolphin's default output: 16-bit lists, no expansion, incomplete primitives as
    Dolphin draws them. */
struct vfetch_gx_index_options {
    /** VFETCH_INDEX_U16 (Dolphin's; 0, VFETCH_INDEX_NONE, means it too) or VFETCH_INDEX_U32. */
    enum vfetch_index_type index_type;
    /** Nonzero: the host has primitive restart, and triangles go out as strips ended by the
        restart index (Dolphin's bSupportsPrimitiveRestart). 0: lists. */
    uint8_t restart;
    /** Nonzero: lines and points are expanded to quads in the host's vertex shader (each
        index vertex * 4 + corner), drawn as triangles. */
    uint8_t expand_lines_points;
    /** Nonzero: what Dolphin draws of an incomplete primitive is dropped (QUADS' last three
        vertices, a strip of fewer than three with restart). */
    uint8_t drop_incomplete;
};

/** Set the state's index options (compiles the eight GX primitives' plans). VFETCH_EINVAL for
    a NULL state or options, an index type out of range; VFETCH_ENOMEM (the options in force
    stay). A state's options start as zero. */
int vfetch_gx_state_set_index_options(vfetch_gx_state *state,
                                      const struct vfetch_gx_index_options *options);

/** What a batched draw appended. */
struct vfetch_gx_batch_result {
    /** Records appended: the draw's count less its skipped vertices. */
    uint32_t vertices;
    /** Vertices skipped (position index at the skip value) and indices clamped, as
        vfetch_gx_result counts them. */
    uint32_t skipped, clamped;
    /** Host indices appended. */
    size_t indices;
};

/**
 * One guest draw command into a batch: `command` is the draw command byte (0x80-0xBF: the
 * primitive in bits 7:3, the VAT format in bits 2:0), `vertices` the `count` vertices it
 * carries (vertices_size bytes readable there). Converts the vertices with the VAT format's
 * plan as vfetch_gx_state_draw does, appends their records at batch->vertices_used, and appends
 * the host indices of the primitive over the records written (skipped vertices take none, as
 * Dolphin gives its index generator the vertices it loaded), based at batch->vertex_count, with
 * the state's index options: byte for byte what vfetch_gx_state_draw then vfetch_prim_run
 * write. Then adds what it appended to the batch's used figures.
 *
 * Checks first, in this order, and on error changes nothing (neither buffer, nor the batch's
 * figures, nor *result): VFETCH_EINVAL (NULL state or batch; a command outside 0x80-0xBF; used
 * figures past their capacities; a NULL buffer, or an index buffer not aligned to the width,
 * with room asked of it), the format's errors (vfetch_gx_state_plan's), VFETCH_EBATCH_FULL
 * (records of another stride in the batch, fewer than count records' bytes or
 * vfetch_prim_index_count(count) indices left, or host
 * indices past the width: vertex_count + count - 1, times 4 plus 3 where lines and points are
 * expanded, must stay below the width's all-ones value: flush and draw again), then the draw's
 * own errors as vfetch_gx_run reports them (VFETCH_EOVERFLOW, VFETCH_EMISSING_STREAM,
 * VFETCH_ESHORT_STREAM, VFETCH_EGX_ARRAY_INDEX). The room is checked for all `count` vertices,
 * skipped ones included. result may be NULL.
 */
int vfetch_gx_state_draw_batch(vfetch_gx_state *state, uint8_t command, const void *vertices,
                               size_t vertices_size, uint32_t count, struct vfetch_batch *batch,
                               struct vfetch_gx_batch_result *result);

/** Why a run of commands stopped (vfetch_gx_state_run_commands). */
enum vfetch_gx_stop {
    /** Every byte was consumed. */
    VFETCH_GX_STOP_END = 0,
    /** At a command vfetch does not own: BP (0x61), XF (0x10) and indexed XF loads
        (0x20-0x38), CALL_DL (0x40), metrics (0x44), vertex cache invalidation (0x48), an
        unknown opcode, or a LOAD_CP_REG of a register the state does not hold. The emulator
        runs it and calls again past it. */
    VFETCH_GX_STOP_FOREIGN = 1,
    /** At a command whose bytes do not all lie in the buffer (its opcode, count or vertices
        cut short): the rest of it has not arrived yet. */
    VFETCH_GX_STOP_TRUNCATED = 2,
    /** At a draw the batch has no room for (VFETCH_EBATCH_FULL): flush the batch and call again
        from the draw. */
    VFETCH_GX_STOP_BATCH_FULL = 3,
    /** At a draw that failed: the call returned its error code. */
    VFETCH_GX_STOP_ERROR = 4,
};

/** What a run of commands did. */
struct vfetch_gx_commands_result {
    /** Bytes consumed: the command the run stopped at starts there (the size at
        VFETCH_GX_STOP_END). */
    size_t consumed;
    /** Why it stopped. */
    enum vfetch_gx_stop stop;
    /** Draw commands appended to the batch, and LOAD_CP_REG commands taken by the state. */
    uint32_t draws, cp_writes;
    /** Records and host indices appended (the draws' results added up), and skipped and
        clamped vertices. */
    uint32_t vertices, skipped, clamped;
    size_t indices;
};

/**
 * Consume an emulator's FIFO or display-list bytes while they are commands vfetch owns: NOP
 * (0x00), LOAD_CP_REG (0x08: the register byte and a big-endian word, as
 * vfetch_gx_load_cp_reg takes them) and draws (0x80-0xBF: a big-endian 16-bit count and the
 * vertices, each appended to the batch as vfetch_gx_state_draw_batch appends it). Stops before
 * the first command it does not own, one cut short by the end of the bytes, a draw the batch
 * has no room for, or a draw that fails; *result says where and why, and counts what was
 * appended. Earlier commands keep their effect when a later one stops the run: a failing
 * draw appends nothing, and its error is returned (the result's stop is then
 * VFETCH_GX_STOP_ERROR); every other stop returns 0. A draw whose format fails to compile is
 * that draw's error even where its bytes are cut short (its length is not known). VFETCH_EINVAL
 * for a NULL state, batch or result, or NULL commands with bytes (*result then untouched). The
 * same bytes as the draws and writes one by one.
 */
int vfetch_gx_state_run_commands(vfetch_gx_state *state, const void *commands, size_t size,
                                 struct vfetch_batch *batch,
                                 struct vfetch_gx_commands_result *result);

/* ---- names before 0.2 (vfetch.h: kept until 1.0; docs/api.md) ------------------------------ */
#ifndef VFETCH_NO_DEPRECATED
/* 0.1's compile parameters are the description now; its register words are .regs, as before. */
#define vfetch_gx_compile_params vfetch_gx_desc
/* 0.1's vfetch_gx_decode took the register words, then named struct vfetch_gx_desc: a
   description whose first member is the register words initialises the same way
   ({ vcd_lo, vcd_hi, vat_a, vat_b, vat_c }). */
static inline int vfetch_gx_decode(const struct vfetch_gx_desc *desc, struct vfetch_gx_format *out)
{
    return desc ? vfetch_gx_parse(&desc->regs, out) : VFETCH_EINVAL;
}
#endif

#ifdef __cplusplus
}
#endif

#endif /* VFETCH_GX_H */
