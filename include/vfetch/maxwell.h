/*
 * vfetch — NVIDIA Maxwell vertex fetch: SET_VERTEX_ATTRIBUTE and vertex-stream register words
 * compiled into a plan whose output records are the vertex shader's input ISBE, laid out by the
 * attribute address map (vfetch/aam.h).
 *
 * The hardware's 32 vertex attributes each read one element from one of 32 vertex streams and
 * feed generic attribute n (AAM attributes 32 + 4n .. 35 + 4n). A record holds, for the
 * attributes of the vertex-input Bmap, what the shader loads: the fetched components, the
 * system values VERTEX_ID and INSTANCE_ID, or the attribute's default value (under
 * SET_ATTRIBUTE_DEFAULT). Two layouts:
 *
 *   VFETCH_MAXWELL_LAYOUT_FULL     the whole ISBE image: 256 slots of 4 bytes, attribute n in
 *                                  slot n (address 4n); every slot outside the Bmap holds its
 *                                  default, as an ALD of it returns.
 *   VFETCH_MAXWELL_LAYOUT_COMPACT  only the Bmap's attributes, in address order, packed
 *                                  (vfetch_maxwell_plan_slot() gives each one's slot).
 *
 * Every decision the register documents leave open is in docs/maxwell.md.
 */
#ifndef VFETCH_MAXWELL_H
#define VFETCH_MAXWELL_H

#include <stddef.h>
#include <stdint.h>

#include "vfetch/aam.h"
#include "vfetch/prim.h"
#include "vfetch/vfetch.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Vertex attributes (SET_VERTEX_ATTRIBUTE_A(i)) and vertex streams the hardware has. */
#define VFETCH_MAXWELL_ATTRIBUTES 32
#define VFETCH_MAXWELL_STREAMS 32

/** SET_VERTEX_ATTRIBUTE_A.COMPONENT_BIT_WIDTHS (bits 26:21). Components in memory order. */
enum vfetch_maxwell_size {
    VFETCH_MAXWELL_SIZE_R32_G32_B32_A32 = 0x01,
    VFETCH_MAXWELL_SIZE_R32_G32_B32 = 0x02,
    VFETCH_MAXWELL_SIZE_R16_G16_B16_A16 = 0x03,
    VFETCH_MAXWELL_SIZE_R32_G32 = 0x04,
    VFETCH_MAXWELL_SIZE_R16_G16_B16 = 0x05,
    VFETCH_MAXWELL_SIZE_R8_G8_B8_A8 = 0x0A,
    VFETCH_MAXWELL_SIZE_R16_G16 = 0x0F,
    VFETCH_MAXWELL_SIZE_R32 = 0x12,
    VFETCH_MAXWELL_SIZE_R8_G8_B8 = 0x13,
    VFETCH_MAXWELL_SIZE_R8_G8 = 0x18,
    VFETCH_MAXWELL_SIZE_R16 = 0x1B,
    VFETCH_MAXWELL_SIZE_R8 = 0x1D,
    /** 32-bit word, R in bits 7:0 .. A in 31:24: the bytes of R8_G8_B8_A8 */
    VFETCH_MAXWELL_SIZE_A8B8G8R8 = 0x2F,
    /** 32-bit word: R 9:0, G 19:10, B 29:20, A 31:30 */
    VFETCH_MAXWELL_SIZE_A2B10G10R10 = 0x30,
    /** 32-bit word of unsigned small floats: R 10:0, G 21:11, B 31:22 (FLOAT only) */
    VFETCH_MAXWELL_SIZE_B10G11R11 = 0x31,
    /** 16-bit word, R in bits 7:0: the bytes of R8_G8 */
    VFETCH_MAXWELL_SIZE_G8R8 = 0x32,
    /** A8B8G8R8 whose top byte is ignored: R, G, B (w = 1) */
    VFETCH_MAXWELL_SIZE_X8B8G8R8 = 0x33,
    /** one byte, the alpha component: (0, 0, 0, A) */
    VFETCH_MAXWELL_SIZE_A8 = 0x34,
};

/** SET_VERTEX_ATTRIBUTE_A.NUMERICAL_TYPE (bits 29:27). */
enum vfetch_maxwell_type {
    VFETCH_MAXWELL_TYPE_SNORM = 1,   /**< max(v / (2^(n-1) - 1), -1) */
    VFETCH_MAXWELL_TYPE_UNORM = 2,   /**< v / (2^n - 1) */
    VFETCH_MAXWELL_TYPE_SINT = 3,    /**< sign-extended 32-bit integers, not floats */
    VFETCH_MAXWELL_TYPE_UINT = 4,    /**< zero-extended 32-bit integers, not floats */
    VFETCH_MAXWELL_TYPE_USCALED = 5, /**< (float)v */
    VFETCH_MAXWELL_TYPE_SSCALED = 6, /**< (float)signed v */
    VFETCH_MAXWELL_TYPE_FLOAT = 7,   /**< 16- or 32-bit IEEE floats, B10G11R11 small floats */
};

/** One SET_VERTEX_ATTRIBUTE_A word, taken apart (vfetch_maxwell_attribute_parse). */
struct vfetch_maxwell_attribute {
    /** Vertex stream, 0..31 (bits 4:0). */
    uint32_t stream;
    /** 1: the attribute fetches nothing and reads its default (SOURCE, bit 6). */
    uint32_t inactive;
    /** Byte offset of the element in the stream's record (bits 20:7). */
    uint32_t offset;
    /** enum vfetch_maxwell_size value (bits 26:21). */
    uint32_t size;
    /** enum vfetch_maxwell_type value (bits 29:27). */
    uint32_t type;
    /** 1: components 0 and 2 (R and B) change places (bit 31). */
    uint32_t swap_r_and_b;
    /** Components the element supplies (1..4), and the element's size in bytes (X8B8G8R8: 4,
        of which only the three components' bytes are read). */
    uint32_t components;
    uint32_t bytes;
    /** 1 for UINT and SINT: the components are delivered as integers. */
    uint32_t integer;
};

/**
 * Take a SET_VERTEX_ATTRIBUTE_A word apart. An inactive attribute (bit 6) is always valid:
 * its size and type are not used. Otherwise VFETCH_EMAXWELL_ATTRIBUTE_FORMAT for a size code the
 * hardware does not have, type 0, FLOAT on 8-bit or A2B10G10R10 sizes, or B10G11R11 with any
 * type but FLOAT. VFETCH_EINVAL for a NULL out. *out is filled only on success.
 */
int vfetch_maxwell_attribute_parse(uint32_t word, struct vfetch_maxwell_attribute *out);

/** The layout of a Maxwell plan's output records (see the top of this file). */
enum vfetch_maxwell_layout {
    VFETCH_MAXWELL_LAYOUT_COMPACT = 0, /**< only the attributes the Bmap holds (the default) */
    VFETCH_MAXWELL_LAYOUT_FULL = 1,    /**< the whole 256-slot ISBE image */
};

/** Everything a Maxwell plan is compiled from. Start from vfetch_maxwell_desc_init(). */
struct vfetch_maxwell_desc {
    /** SET_VERTEX_ATTRIBUTE_A(i) words. Default 0x40 (inactive). */
    uint32_t attribute[VFETCH_MAXWELL_ATTRIBUTES];
    /** SET_VERTEX_STREAM_A_FORMAT(j) words: STRIDE bits 11:0, ENABLE bit 12. Default 0. */
    uint32_t stream_format[VFETCH_MAXWELL_STREAMS];
    /** SET_VERTEX_STREAM_INSTANCE_A(j), bit 0: the stream advances per instance, not per
        vertex. Default 0. */
    uint32_t stream_instance[VFETCH_MAXWELL_STREAMS];
    /** SET_VERTEX_STREAM_A_FREQUENCY(j): an instanced stream's divisor (instances per
        record; 0: every instance reads the base instance's record). Default 0. */
    uint32_t stream_frequency[VFETCH_MAXWELL_STREAMS];
    /** SET_ATTRIBUTE_DEFAULT. Default VFETCH_AAM_ATTRIBUTE_DEFAULT_RESET (0x0E). */
    uint32_t attribute_default;
    /** The vertex-input Bmap: the attributes a record holds (compute it from the shaders'
        Imaps with vfetch_aam_vertex_input_bmap()). All zero (the default): the four
        components of every active attribute. */
    struct vfetch_aam_map input_bmap;
    /** Output layout. Default VFETCH_MAXWELL_LAYOUT_COMPACT. */
    enum vfetch_maxwell_layout layout;
    /** Bytes from one output record to the next: 0 (default) for the record size, else a
        multiple of 4, at least the record size and at most 1024 (VFETCH_EINVAL otherwise):
        the record is padded to it with zero words, written like the others (so that every
        vector of the record program stores whole: docs/maxwell.md). A compact record whose
        attributes come from several streams runs the record program only if its stride is a
        multiple of 16 bytes. */
    uint32_t out_stride;
    /** Executor choice for the plan (vfetch_path). Default VFETCH_PATH_AUTO. */
    enum vfetch_path path;
};

/** Fill a description with the defaults above. */
void vfetch_maxwell_desc_init(struct vfetch_maxwell_desc *desc);

/** A compiled Maxwell vertex format: immutable, usable from many threads at once. */
typedef struct vfetch_maxwell_plan vfetch_maxwell_plan;

/**
 * Compile a description. Errors (nothing allocated, *out_plan untouched): VFETCH_EINVAL (NULL
 * arguments, a layout or path out of range), VFETCH_EMAXWELL_ATTRIBUTE_FORMAT (an active attribute
 * in the Bmap whose word vfetch_maxwell_attribute_parse() rejects), VFETCH_EMAXWELL_STREAM_DISABLED
 * (an active attribute in the Bmap on a stream whose ENABLE bit is clear), VFETCH_ENOMEM.
 * Attributes whose components are all outside the Bmap are not checked: they fetch nothing.
 */
int vfetch_maxwell_compile(const struct vfetch_maxwell_desc *desc, vfetch_maxwell_plan **out_plan);

/** Free a plan. NULL is allowed. */
void vfetch_maxwell_plan_free(vfetch_maxwell_plan *plan);

/** The core plan that does the fetching and converting (for vfetch_plan_describe,
    vfetch_plan_info, ...). It writes every slot of a record but VERTEX_ID and INSTANCE_ID's,
    which vfetch_maxwell_run() fills. */
const vfetch_plan *vfetch_maxwell_plan_converter(const vfetch_maxwell_plan *plan);

/** Bytes from one output record to the next (1024 for the full layout). */
uint32_t vfetch_maxwell_plan_out_stride(const vfetch_maxwell_plan *plan);

/** The 32-bit slot of a record that holds AAM attribute `attribute`, or -1 when the record
    does not hold it (compact layout, outside the Bmap). */
int vfetch_maxwell_plan_slot(const vfetch_maxwell_plan *plan, unsigned attribute);

/** The Bmap the plan was compiled with (the default one filled in). */
const struct vfetch_aam_map *vfetch_maxwell_plan_bmap(const vfetch_maxwell_plan *plan);

/** What the plan runs (its converter's vfetch_plan_info). VFETCH_EINVAL for NULL arguments. */
int vfetch_maxwell_plan_info(const vfetch_maxwell_plan *plan, struct vfetch_plan_info *info);

/**
 * The output record as a host vertex input layout (vfetch_plan_declaration of the converter):
 * location i is generic attribute i, declared when the record holds its x component and the
 * attribute fetches (an inactive one reads constants and is not declared); VERTEX_ID,
 * INSTANCE_ID and the other ISBE slots are not declared. VFETCH_EINVAL for NULL arguments.
 */
int vfetch_maxwell_plan_declaration(const vfetch_maxwell_plan *plan, struct vfetch_vertex_decl *decl);

/**
 * Every front-end into one host layout: a plan description whose locations (R300 DST_VEC_LOC
 * n, GX enum vfetch_gx_location n, ...) hold vectors becomes one whose records are
 * vertex-input ISBE records, location l's slots (from its first slot to the next location's,
 * at most four) feeding generic attribute generic_of_location[l] (NULL: l; -1: dropped), in
 * the given layout: every slot the record holds that no op writes gets its AAM default under
 * attribute_default (SET_ATTRIBUTE_DEFAULT). Ops keep their streams, formats and
 * conversions; components outside every location are dropped; location_slot follows the
 * locations. The result goes to vfetch_plan_compile(). VFETCH_EINVAL: NULL, a layout out of
 * range, a generic above 31 or taken twice, no location (compact); VFETCH_EPLAN: an input
 * out of range, or more ops than a plan holds. *out is written only on success.
 * (docs/maxwell.md: the mapping.)
 */
int vfetch_maxwell_isbe_desc(const struct vfetch_plan_desc *in, const int8_t *generic_of_location,
                             enum vfetch_maxwell_layout layout, uint32_t attribute_default,
                             struct vfetch_plan_desc *out);

/** One vertex stream's memory for a draw, as its registers give it. */
struct vfetch_maxwell_binding {
    /** Host pointer to the byte at GPU address `location` (SET_VERTEX_STREAM_A_LOCATION). */
    const void *data;
    /** GPU address of the stream's record 0. */
    uint64_t location;
    /** The inclusive last address the stream may read (SET_VERTEX_STREAM_LIMIT_A): the
        binding is limit - location + 1 bytes, none when limit < location. */
    uint64_t limit;
};

/** One draw. Start from vfetch_maxwell_run_params_init(). */
struct vfetch_maxwell_run_params {
    /** One binding per hardware stream (indexed by stream number; only the streams the plan
        reads need data). */
    const struct vfetch_maxwell_binding *streams;
    /** First draw position (the first index entry read, with an index buffer). */
    uint32_t first;
    /** Vertices to convert. 0 writes nothing. */
    uint32_t count;
    /** Index buffer, its entry type and size in bytes (as struct vfetch_run_params). */
    const void *indices;
    enum vfetch_index_type index_type;
    size_t indices_size;
    /** Added to every index entry before the fetch (the base vertex). Default 0. */
    int64_t index_offset;
    /** VERTEX_ID = index entry (or draw position without indices) + vertex_id_base
        (SET_VERTEX_ID_BASE), mod 2^32. Default 0. */
    uint32_t vertex_id_base;
    /** The instance drawn (0-based: INSTANCE_ID) and the base instance added to instanced
        streams' record numbers. Default 0, 0. */
    uint32_t instance;
    uint32_t base_instance;
    /** Output records and the bytes writable there. */
    void *out;
    size_t out_size;
};

/** Defaults: everything 0 / NULL. */
void vfetch_maxwell_run_params_init(struct vfetch_maxwell_run_params *params);

/**
 * Convert a draw. Validates everything before writing (as vfetch_run: bindings, every byte
 * read, indices, output size); errors as vfetch_run's. VFETCH_EINVAL for NULL arguments or
 * a NULL streams array when the plan reads a stream.
 */
int vfetch_maxwell_run(const vfetch_maxwell_plan *plan, const struct vfetch_maxwell_run_params *params);

/**
 * One Maxwell indexed draw (DRAW_ELEMENTS: the index buffer's entries, BEGIN's primitive), its
 * vertices and its host indices appended to an emulator's batch in one call, as
 * vfetch_r300_draw_indexed does for R300 (its comment has the whole contract; docs/prim.md,
 * "Indexed draws in one call"). The entries are scanned once; the guest records from the
 * smallest entry's to the largest's (restart entries aside) are converted once, in order, to
 * the batch's next records, as vfetch_maxwell_run converts a draw of them without an index
 * buffer; the primitive's host indices, each the entry less the smallest plus the batch's
 * vertex_count, follow the batch's indices.
 *
 * `plan` is the vertex format (vfetch_maxwell_compile); `prim` a primitive plan for BEGIN's
 * primitive with an index buffer (guest_index_bytes, byte order, guest_restart: the
 * PRIMITIVE_RESTART method's index) in range mode; its index type is the batch's width.
 *
 * `params` carries the stream bindings, index_offset (the base vertex: the record of entry e
 * is e + index_offset, sums past 2^32 - 1 clamped to it as vfetch_maxwell_run clamps them),
 * vertex_id_base (each record's VERTEX_ID is its entry + vertex_id_base, as through the index
 * buffer), instance and base_instance (INSTANCE_ID, instanced streams). first, count, indices,
 * index_type, indices_size, out and out_size must be as vfetch_maxwell_run_params_init leaves
 * them (VFETCH_EINVAL otherwise). `indices`, `indices_size`, `count`, `batch` and `result`
 * as vfetch_r300_draw_indexed's.
 *
 * Checks, in this order, nothing changed on error: VFETCH_EINVAL (as vfetch_r300_draw_indexed;
 * a NULL streams array where the plan reads a stream); the entries' errors (VFETCH_EOVERFLOW,
 * VFETCH_ESHORT_INDICES); the vertex run's for records min .. max (VFETCH_EINDEX_RANGE: the
 * smallest entry plus index_offset negative; VFETCH_EMISSING_STREAM, VFETCH_EOVERFLOW,
 * VFETCH_ESHORT_STREAM: a stream's limit below the last byte read); VFETCH_EBATCH_FULL; then
 * VFETCH_ENOMEM (before any write). No entry but restart entries: nothing appended, success.
 */
int vfetch_maxwell_draw_indexed(const vfetch_maxwell_plan *plan, const vfetch_prim_plan *prim,
                                const struct vfetch_maxwell_run_params *params,
                                const void *indices, size_t indices_size, uint32_t count,
                                struct vfetch_batch *batch, struct vfetch_draw_result *result);

/* ---- names before 0.2 (vfetch.h: kept until 1.0; docs/api.md) ------------------------------ */
#ifndef VFETCH_NO_DEPRECATED
#define vfetch_maxwell_attribute_decode vfetch_maxwell_attribute_parse
#endif

#ifdef __cplusplus
}
#endif

#endif /* VFETCH_MAXWELL_H */
