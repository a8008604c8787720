/*
 * vfetch — NVIDIA Maxwell attribute address map (AAM): the table as data, and the Bmaps.
 *
 * A Maxwell shader reads and writes its per-vertex attributes by address (IPA/ALD/AST): 256
 * attributes of 4 bytes, attribute n at byte address 4n. The attribute address map says, per
 * attribute and per pipeline stage, what a shader may do with it: its Idmap (load: default,
 * LD, LD_REQ) and Odmap (store: discard, ST, ST_REQ, ST_LAST), the value it holds when
 * nothing wrote it, and how a pixel shader interpolates it. Between two stages sits an
 * inter-stage buffer entry (ISBE); its Bmap, the attributes it holds, follows from the
 * upstream shader's Omap, the downstream shader's Imap (both from their Shader Program
 * Headers) and the two columns.
 *
 * This header gives the whole table (every "..." row of the seed expanded), the patch
 * attribute map and the tessellation LOD layout, with queries by number, address and name;
 * the SET_ATTRIBUTE_DEFAULT defaults; Imap/Omap parsing from a Shader Program Header; and the
 * Bmap of every ISBE, with each illegal combination as its own error. The source is
 * ../shared/spec/maxwell-attribute-address-map.txt; every rule and decision: docs/maxwell.md.
 */
#ifndef VFETCH_AAM_H
#define VFETCH_AAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfetch/vfetch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the attribute address map ----------------------------------------------------------- */

/** Attributes in the map (numbers 0..255, byte addresses 0..1023). */
#define VFETCH_AAM_ATTRIBUTES 256

/** A 256-bit set of attributes: bit n of words[n / 32] is attribute n. */
struct vfetch_aam_map {
    uint32_t words[8];
};

/** Whether attribute n (0..255) is in the set; false for n >= 256. */
static inline bool vfetch_aam_map_has(const struct vfetch_aam_map *map, unsigned n)
{
    return n < VFETCH_AAM_ATTRIBUTES && (map->words[n / 32] >> (n % 32) & 1u);
}

/** Put attribute n (0..255) in the set; n >= 256 is ignored. */
static inline void vfetch_aam_map_add(struct vfetch_aam_map *map, unsigned n)
{
    if (n < VFETCH_AAM_ATTRIBUTES)
        map->words[n / 32] |= 1u << (n % 32);
}

/** Named attribute numbers (the table's rows; the address is 4 times the number). */
enum {
    VFETCH_AAM_PRIMITIVE_ID = 24,
    VFETCH_AAM_RT_ARRAY_INDEX = 25,
    VFETCH_AAM_VIEWPORT_INDEX = 26,
    VFETCH_AAM_POINT_SIZE = 27,
    VFETCH_AAM_POSITION_X = 28,
    VFETCH_AAM_POSITION_Y = 29,
    VFETCH_AAM_POSITION_Z = 30,
    VFETCH_AAM_POSITION_W = 31,
    VFETCH_AAM_GENERIC_0 = 32, /**< GENERIC_ATTRIBUTE_00_X; generic n component c = 32 + 4n + c */
    VFETCH_AAM_COLOR_FRONT_DIFFUSE = 160,  /**< RED; GREEN, BLUE, ALPHA follow */
    VFETCH_AAM_COLOR_FRONT_SPECULAR = 164, /**< RED; GREEN, BLUE, ALPHA follow */
    VFETCH_AAM_COLOR_BACK_DIFFUSE = 168,   /**< RED; GREEN, BLUE, ALPHA follow */
    VFETCH_AAM_COLOR_BACK_SPECULAR = 172,  /**< RED; GREEN, BLUE, ALPHA follow */
    VFETCH_AAM_CLIP_DISTANCE_0 = 176,      /**< CLIP_DISTANCE_n = 176 + n, n = 0..7 */
    VFETCH_AAM_POINT_SPRITE_S = 184,
    VFETCH_AAM_POINT_SPRITE_T = 185,
    VFETCH_AAM_FOG_COORDINATE = 186,
    VFETCH_AAM_TESSELLATION_EVALUATION_POINT_U = 188,
    VFETCH_AAM_TESSELLATION_EVALUATION_POINT_V = 189,
    VFETCH_AAM_INSTANCE_ID = 190,
    VFETCH_AAM_VERTEX_ID = 191,
    VFETCH_AAM_FIXED_FNC_TEXTURE_0 = 192, /**< FIXED_FNC_TEXTURE_n_S; n = 0..9, S, T, R, Q */
    VFETCH_AAM_VIEWPORT_MASK = 232,
    VFETCH_AAM_IS_FRONT_FACE = 255,
};

/** The table's stage columns. The values of the five shader stages and PIXEL are their shader
    slots (0..5); VSC (the viewport/clip unit between the last VTG stage and the pixel shader)
    has an Idmap column and no slot. */
enum vfetch_aam_stage {
    VFETCH_AAM_CULL_BEFORE_FETCH = 0,
    VFETCH_AAM_VERTEX = 1,
    VFETCH_AAM_TESSELLATION_INIT = 2,
    VFETCH_AAM_TESSELLATION = 3,
    VFETCH_AAM_GEOMETRY = 4,
    VFETCH_AAM_PIXEL = 5,
    VFETCH_AAM_VSC = 6,
};

/** Idmap columns (every stage) and Odmap columns (CULL_BEFORE_FETCH..GEOMETRY: the VTG
    stages, whose values 0..4 index odmap[]). */
#define VFETCH_AAM_STAGES 7
#define VFETCH_AAM_VTG_STAGES 5

/** What a stage may load (the table's Idmap entries). */
enum vfetch_aam_idmap {
    /** An Imap 1 is illegal (VFETCH_EAAM_IMAP_DEFAULT); a load gets the default value, or the
        previous stage's output when that one is ST_REQ with its Omap bit 1. */
    VFETCH_AAM_IDMAP_DEFAULT = 0,
    /** Loads the value when the ISBE holds it, else the default. */
    VFETCH_AAM_IDMAP_LD = 1,
    /** Like LD, and an Imap 1 forces the Bmap bit. */
    VFETCH_AAM_IDMAP_LD_REQ = 2,
};

/** What a stage may store (the table's Odmap entries). */
enum vfetch_aam_odmap {
    /** An Omap 1 is illegal (VFETCH_EAAM_OMAP_DISCARD); a store is thrown away. */
    VFETCH_AAM_ODMAP_DISCARD = 0,
    /** Stored when a downstream consumer needs it, else thrown away. */
    VFETCH_AAM_ODMAP_ST = 1,
    /** Like ST, and an Omap 1 forces the Bmap bit (the shader can read its store back). */
    VFETCH_AAM_ODMAP_ST_REQ = 2,
    /** ST_REQ in the last enabled VTG stage, ST in the others. */
    VFETCH_AAM_ODMAP_ST_LAST = 3,
};

/** The table's "Default Value, or set via a field in SetAttributeDefault" column. */
enum vfetch_aam_default {
    VFETCH_AAM_DEFAULT_FLOAT_0 = 0,             /**< "0.0" */
    VFETCH_AAM_DEFAULT_FLOAT_1 = 1,             /**< "1.0" */
    VFETCH_AAM_DEFAULT_INTEGER_0 = 2,           /**< "0": an integer system value */
    VFETCH_AAM_DEFAULT_COLOR_FRONT_DIFFUSE = 3, /**< "ColorFrontDiffuse": SET_ATTRIBUTE_DEFAULT bit 0 */
    VFETCH_AAM_DEFAULT_COLOR_FRONT_SPECULAR = 4, /**< "ColorFrontSpecular": bit 1 */
    VFETCH_AAM_DEFAULT_GENERIC_VECTOR = 5,      /**< "GenericVector": bit 2 */
    VFETCH_AAM_DEFAULT_FIXED_FNC_TEXTURE = 6,   /**< "FixedFncTexture": bit 3 */
    VFETCH_AAM_DEFAULT_HARDWARE = 7,            /**< "always set by HW" (IS_FRONT_FACE) */
};

/** The table's "Interpolation Type for Pixel Shader and VPC clipping" column. */
enum vfetch_aam_interpolation {
    VFETCH_AAM_INTERP_CONSTANT = 0,
    VFETCH_AAM_INTERP_PERSPECTIVE = 1,
    VFETCH_AAM_INTERP_NON_PERSPECTIVE = 2,
    /** "Non-Perspective" in quotes: POSITION_X and _Y, whose pixel shader value is the
        pixel's own position whatever its Imap says (note 3). */
    VFETCH_AAM_INTERP_NON_PERSPECTIVE_QUOTED = 3,
    /** "Selected in PS SPH": the pixel shader's 2-bit Imap code chooses. */
    VFETCH_AAM_INTERP_SELECTED_IN_PS_SPH = 4,
    /** "not in PS SPH": the back colors, which never reach a pixel shader as themselves. */
    VFETCH_AAM_INTERP_NOT_IN_PS_SPH = 5,
};

/** The table's headings a row sits under. */
enum vfetch_aam_section {
    VFETCH_AAM_SECTION_RANGE = 0,          /**< the "below range" and "above range" rows */
    VFETCH_AAM_SECTION_SYSTEM_VALUES = 1,  /**< "System Values:" (0..31 and 160..239) */
    VFETCH_AAM_SECTION_GENERIC_VALUES = 2, /**< "Generic Values:" (32..159) */
    VFETCH_AAM_SECTION_ILLEGAL_VALUES = 3, /**< "Illegal Values & HW Values:" (240..255) */
};

/** One row of the attribute address map. */
struct vfetch_aam_attribute {
    /** As the table spells it ("GENERIC_ATTRIBUTE_00_X"); the range rows are "below range" and
        "above range" (the table has them in quotes). */
    const char *name;
    /** 0..255; -1 for the two range rows ("n/a"). */
    int number;
    /** IPA/ALD byte address, 4 * number. The range rows hold their bound: -1 for "below range"
        (every address < 0) and 1024 for "above range" (every address >= 1024; the table writes
        ">1024", see docs/maxwell.md). */
    int address;
    /** Idmap per enum vfetch_aam_stage (enum vfetch_aam_idmap values). */
    uint8_t idmap[VFETCH_AAM_STAGES];
    /** Odmap per VTG stage, CULL_BEFORE_FETCH..GEOMETRY (enum vfetch_aam_odmap values). */
    uint8_t odmap[VFETCH_AAM_VTG_STAGES];
    /** enum vfetch_aam_default. */
    uint8_t default_value;
    /** enum vfetch_aam_interpolation. */
    uint8_t interpolation;
    /** enum vfetch_aam_section. */
    uint8_t section;
};

/** Row `number` (0..255) of the map, or NULL. The returned rows are static and immutable. */
const struct vfetch_aam_attribute *vfetch_aam_attribute(unsigned number);

/** The row an IPA/ALD byte address selects: the "below range" row for address < 0, the "above
    range" row for address >= 1024, attribute address / 4 for a multiple of 4 in between, and
    NULL for any other address (not the start of an attribute). */
const struct vfetch_aam_attribute *vfetch_aam_at_address(long address);

/** The row named `name` (ASCII case-insensitive, e.g. "vertex_id"), or NULL; the range rows
    are not found by name. */
const struct vfetch_aam_attribute *vfetch_aam_find(const char *name);

/** The table's spelling of an Idmap / Odmap / default / interpolation value ("LD_REQ",
    "ST_LAST", "GenericVector", "Selected in PS SPH"; "Non-Perspective" with its quotes for
    the quoted one), and of a stage ("CULL_BEFORE_FETCH" .. "VSC"); "?" for a value out of
    range. */
const char *vfetch_aam_idmap_name(unsigned idmap);
const char *vfetch_aam_odmap_name(unsigned odmap);
const char *vfetch_aam_default_name(unsigned default_value);
const char *vfetch_aam_interpolation_name(unsigned interpolation);
const char *vfetch_aam_stage_name(unsigned stage);

/** The stage a name spells (case-insensitive; also the short forms "CBF", "VS", "TI", "TS",
    "GS", "PS"), or -1. */
int vfetch_aam_stage_from_name(const char *name);

/**
 * A row as one line of the seed table, byte for byte what the specification file has for it
 * ("|  VERTEX_ID                          |  = 191;   |  = 764;   |   LD_REQ / ST_REQ   | ...|"),
 * without a newline. snprintf-style: writes at most size bytes (NUL included, buf may be NULL
 * when size is 0) and returns the length the whole line needs.
 */
size_t vfetch_aam_format_row(const struct vfetch_aam_attribute *row, char *buf, size_t size);

/* ---- defaults ---------------------------------------------------------------------------- */

/** SET_ATTRIBUTE_DEFAULT's reset value (what NVK programs): 0x0E. Generic attributes and fixed
    function texture coordinates then default to (0,0,0,1), the front specular color to
    (0,0,0,1) and the front diffuse color to (0,0,0,1). */
#define VFETCH_AAM_ATTRIBUTE_DEFAULT_RESET 0x0Eu

/** SET_ATTRIBUTE_DEFAULT (method 0x1610) fields read by vfetch_aam_default_bits(). */
enum {
    VFETCH_AAM_SET_DEFAULT_COLOR_FRONT_DIFFUSE = 1u << 0,  /**< 0: (0,0,0,1), 1: (1,1,1,1) */
    VFETCH_AAM_SET_DEFAULT_COLOR_FRONT_SPECULAR = 1u << 1, /**< 0: (0,0,0,0), 1: (0,0,0,1) */
    VFETCH_AAM_SET_DEFAULT_GENERIC_VECTOR = 1u << 2,       /**< 0: (0,0,0,0), 1: (0,0,0,1) */
    VFETCH_AAM_SET_DEFAULT_FIXED_FNC_TEXTURE = 1u << 3,    /**< 0: (0,0,0,0), 1: (0,0,0,1) */
};

/**
 * The 32 bits the vertex-input ISBE holds for attribute `attribute` when nothing writes it:
 * the table's default value (float32 bits of 0.0 or 1.0, or integer 0 for the integer system
 * values, which is the same bits), with the SET_ATTRIBUTE_DEFAULT word's fields applied where
 * the table names them. A field sets only the components whose row names it: bit 0 the RED,
 * GREEN and BLUE of COLOR_FRONT_DIFFUSE (0.0 or 1.0; its ALPHA row is 1.0 either way), bit 1
 * the ALPHA of COLOR_FRONT_SPECULAR, bit 2 the _W of every generic attribute, bit 3 the _Q of
 * every fixed function texture (0.0 or 1.0). Other bits of the word are ignored.
 * IS_FRONT_FACE ("always set by HW": never a stored default) and numbers >= 256 (the "above
 * range" row's 0.0) give 0. docs/maxwell.md, "Defaults".
 */
uint32_t vfetch_aam_default_bits(unsigned attribute, uint32_t set_attribute_default);

/* ---- the patch attribute map and the tessellation LOD layout ------------------------------ */

/** Per-patch attributes (numbers 0..127, byte addresses 0..511). */
#define VFETCH_AAM_PATCH_ATTRIBUTES 128

/** One row of the patch attribute address map (read with ALD.P). */
struct vfetch_aam_patch_attribute {
    /** "TESSELLATION_LOD_LEFT" .. "TESSELLATION_LOD_INTERIOR_V" (0..5), then
        "GENERIC_PATCH_ATTRIBUTE_0" .. "_121" (6..127); the range row: "below range". */
    const char *name;
    /** 0..127; -1 for the "below range" row. */
    int number;
    /** 4 * number; -1 for the "below range" row (every address < 0). */
    int address;
};

/** Patch attribute `number` (0..127), or NULL. */
const struct vfetch_aam_patch_attribute *vfetch_aam_patch_attribute(unsigned number);

/** The patch row of a byte address: "below range" for address < 0, number address / 4 for a
    multiple of 4 up to 508, NULL otherwise (the seed has no "above range" patch row). */
const struct vfetch_aam_patch_attribute *vfetch_aam_patch_at_address(long address);

/** The patch row named `name` (case-insensitive), or NULL. */
const struct vfetch_aam_patch_attribute *vfetch_aam_patch_find(const char *name);

/** Slots of the per-patch CBE that hold the tessellation LODs (patch attributes 0..5). */
#define VFETCH_AAM_LOD_SLOTS 6

/** One slot of the tessellation LOD layout, as the seed's table spells it ("unused" and "--"
    where a patch type does not use the slot). */
struct vfetch_aam_lod_slot {
    unsigned slot;          /**< 0..5, also the patch attribute number */
    const char *method;     /**< the method that sets it: "SetTessellationLodU0OrDensity" .. */
    const char *hw_name;    /**< "Left", "Top", "Right", "Bottom", "InternalU", "InternalV" */
    const char *quad_parameter, *quad_diagram;
    const char *triangle_parameter, *triangle_diagram;
    const char *isoline_parameter, *isoline_diagram;
};

/** Slot `slot` (0..5) of the LOD layout, or NULL. */
const struct vfetch_aam_lod_slot *vfetch_aam_lod_slot(unsigned slot);

/* ---- table checks ------------------------------------------------------------------------ */

/** The Idmap and Odmap columns of a whole table, attribute-indexed, as the checks take them. */
struct vfetch_aam_columns {
    uint8_t idmap[VFETCH_AAM_STAGES][VFETCH_AAM_ATTRIBUTES];   /**< enum vfetch_aam_idmap */
    uint8_t odmap[VFETCH_AAM_VTG_STAGES][VFETCH_AAM_ATTRIBUTES]; /**< enum vfetch_aam_odmap */
};

/** The library's own columns (VFETCH_EINVAL for NULL). */
int vfetch_aam_get_columns(struct vfetch_aam_columns *out);

/** Where a check failed: the stage (enum vfetch_aam_stage) and attribute, -1 where it does not
    apply. Set only when the check fails. */
struct vfetch_aam_where {
    int stage;
    int attribute;
};

/**
 * Check columns against note 7 of the table, attribute by attribute from 0: a
 * CULL_BEFORE_FETCH Idmap different from the VERTEX one (VFETCH_EAAM_CBF_IDMAP), then a
 * CULL_BEFORE_FETCH Odmap other than ST_REQ or discard (VFETCH_EAAM_CBF_ODMAP); the first
 * failure is reported, in *where when it is not NULL. VFETCH_EINVAL for NULL or a value out of
 * its enum. Note: the seed's own table has ST_LAST in the CULL_BEFORE_FETCH Odmap of
 * RT_ARRAY_INDEX, VIEWPORT_INDEX and VIEWPORT_MASK, so the library's columns fail this check
 * at attribute 25 (docs/maxwell.md, "Table checks").
 */
int vfetch_aam_check_columns(const struct vfetch_aam_columns *columns,
                             struct vfetch_aam_where *where);

/* ---- Shader Program Header maps ---------------------------------------------------------- */

/** A Maxwell Shader Program Header: 80 bytes, as 20 little-endian words (SPH bit k is bit k % 32
    of word k / 32). */
#define VFETCH_AAM_SPH_WORDS 20

/** The pixel shader's 2-bit Imap codes (the SPH's PixelImap). */
enum vfetch_aam_pixel_imap {
    VFETCH_AAM_PIXEL_UNUSED = 0,
    VFETCH_AAM_PIXEL_CONSTANT = 1,
    VFETCH_AAM_PIXEL_PERSPECTIVE = 2,
    VFETCH_AAM_PIXEL_SCREEN_LINEAR = 3,
};

/** One shader's maps as the Bmap rules use them. Start from vfetch_aam_shader_init(). */
struct vfetch_aam_shader {
    /** Attributes the shader loads (its Imap; a pixel shader's: every attribute whose code is
        not UNUSED). */
    struct vfetch_aam_map imap;
    /** Attributes it stores (its Omap); not used for a pixel shader. */
    struct vfetch_aam_map omap;
    /** SPH StoreReqStart / StoreReqEnd: attributes start..end whose Odmap is ST or ST_LAST are
        treated as ST_REQ (CULL_BEFORE_FETCH, VERTEX, TESSELLATION_INIT, TESSELLATION; ignored
        for GEOMETRY and PIXEL, as the SPH specifies). start > end: none. */
    uint8_t store_req_start, store_req_end;
};

/** Empty maps, no StoreReq range (start 255, end 0). */
void vfetch_aam_shader_init(struct vfetch_aam_shader *shader);

/** What a Shader Program Header says about attributes. */
struct vfetch_aam_sph {
    /** From CommonWord0 ShaderType: VERTEX (also the program of a CULL_BEFORE_FETCH slot),
        TESSELLATION_INIT, TESSELLATION, GEOMETRY or PIXEL. */
    enum vfetch_aam_stage stage;
    /** VTG: Imap bit n = SPH bit 160 + n, Omap bit n = SPH bit 400 + n (n < 240), StoreReq
        from CommonWord4 bits 19:12 and 31:24. PIXEL: imap from the codes below, no Omap, no
        StoreReq range. */
    struct vfetch_aam_shader maps;
    /** PIXEL: per attribute its enum vfetch_aam_pixel_imap code, 0 where unused. 2-bit fields
        (generic attributes, front colors, fixed function textures, 232..239) give their code;
        1-bit fields (attributes 0..31, 176..191) give the table's interpolation type for a set
        bit (Constant 1, Perspective 2, Non-Perspective 3). VTG: all 0. */
    uint8_t interpolation[VFETCH_AAM_ATTRIBUTES];
};

/**
 * Parse the attribute maps of a Shader Program Header (docs/maxwell.md, "Shader Program
 * Header maps"). VFETCH_EINVAL for NULL, an SphType other than 1 (VTG) or 2 (PS), a ShaderType
 * outside 1..5, or a type that does not match (PS with a VTG ShaderType or the reverse). The
 * maps are not checked against the table here: the Bmap functions do that.
 */
int vfetch_aam_sph_parse(const uint32_t sph[VFETCH_AAM_SPH_WORDS], struct vfetch_aam_sph *out);

/** A pixel shader attribute's interpolation code as the hardware applies it: its SPH code,
    except that SET_SHADE_MODE FLAT (flat_shade) makes a used COLOR_FRONT_* code CONSTANT
    (note 16). UNUSED (0) for NULL or attribute >= 256. */
unsigned vfetch_aam_ps_interpolation(const struct vfetch_aam_sph *ps, unsigned attribute,
                                     bool flat_shade);

/* ---- Bmaps ------------------------------------------------------------------------------- */

/**
 * VERTEX_INPUT_BMAP = (cbf_imap | vertex_imap) & ~SKIPMASK (note 7). cbf_imap may be NULL (no
 * CULL_BEFORE_FETCH shader). Validates each Imap against its stage's Idmap (an Imap 1 on a
 * "default" entry: VFETCH_EAAM_IMAP_DEFAULT). SKIPMASK is SET_DA_OUTPUT_ATTRIBUTE_SKIP_MASK_A
 * and _B, each the pair of method words (i) = 0, 1 the hardware has: skip_mask_a = A(0) |
 * A(1) << 32 covers vertex attributes 0..15, skip_mask_b = B(0) | B(1) << 32 covers 16..31;
 * bit 4k + c of a mask is attribute k component c, AAM attribute 32 + 4k + c (+64 for B).
 * Returns 0 or a negative code; *out untouched on error (VFETCH_EINVAL for NULL vertex_imap or
 * out).
 */
int vfetch_aam_vertex_input_bmap(const struct vfetch_aam_map *cbf_imap,
                                 const struct vfetch_aam_map *vertex_imap,
                                 uint64_t skip_mask_a, uint64_t skip_mask_b,
                                 struct vfetch_aam_map *out);

/** What one shader contributes to the Bmaps of the ISBE it reads and the ISBE it writes. */
struct vfetch_aam_stage_bmaps {
    /** Its Imap: the attributes it asks the upstream ISBE for. */
    struct vfetch_aam_map load;
    /** The Imap bits forced into its input Bmap: LD_REQ entries (PIXEL: every Imap bit, note
        21, for the CBE). */
    struct vfetch_aam_map load_req;
    /** Its Omap: the attributes it offers the downstream ISBE (PIXEL: none). */
    struct vfetch_aam_map store;
    /** The Omap bits forced into its output Bmap: ST_REQ entries, ST_LAST ones when it is the
        last enabled VTG stage, ST and ST_LAST ones in its StoreReq range; CULL_BEFORE_FETCH:
        every Omap bit (the hardware ORs its Omap into VERTEX_OUTPUT_BMAP, note 7). */
    struct vfetch_aam_map store_req;
};

/**
 * Check one shader's maps against its stage's columns and give its contribution to its
 * ISBEs. `last`: this is the last enabled VTG stage (ignored for CULL_BEFORE_FETCH and PIXEL).
 * Errors, looked for in this order, the lowest attribute first (also in *where when not NULL):
 * VFETCH_EAAM_IMAP_DEFAULT (an Imap 1 on a "default" Idmap entry), VFETCH_EAAM_OMAP_DISCARD
 * (an Omap 1 on a "discard" Odmap entry; not for PIXEL, whose omap is ignored),
 * VFETCH_EAAM_PS_POSITION_W (PIXEL without POSITION_W, note 20). VFETCH_EINVAL for NULL or
 * stage VSC / out of range. *out untouched on error.
 */
int vfetch_aam_stage_bmaps(enum vfetch_aam_stage stage, const struct vfetch_aam_shader *shader,
                           bool last, struct vfetch_aam_stage_bmaps *out,
                           struct vfetch_aam_where *where);

/** The Bmap of the ISBE between two consecutive enabled VTG stages (up's output, down's input):
    (up.store & down.load) | up.store_req | down.load_req. When up is VERTEX with a
    CULL_BEFORE_FETCH shader, OR that shader's store_req into up.store_req first. */
void vfetch_aam_isbe_bmap(const struct vfetch_aam_stage_bmaps *up,
                          const struct vfetch_aam_stage_bmaps *down, struct vfetch_aam_map *out);

/** The state note 19 reads besides the maps. */
struct vfetch_aam_vsc_state {
    /** SET_RASTER_ENABLE: the rasterizer takes POSITION_X, _Y, _Z, VIEWPORT_INDEX,
        RT_ARRAY_INDEX and POINT_SIZE (the "Raster IMAP"). */
    bool raster_enabled;
    /** SET_STREAM_OUTPUT_ENABLE: stream out takes stream_imap. */
    bool stream_enabled;
    /** SET_TWO_SIDED_LIGHT: a pixel shader's COLOR_FRONT_* Imap bits also take the matching
        COLOR_BACK_* attributes (note 15; derived, docs/maxwell.md). */
    bool two_sided_light;
    /** The attributes the stream-out layout (SET_STREAM_OUT_LAYOUT_SELECT) reads. */
    struct vfetch_aam_map stream_imap;
};

/**
 * The VSC input Bmap (note 19a), the Bmap of the last VTG stage's output ISBE:
 * (OMAP (&) (PS_IMAP & ps_enabled)) | (OMAP (&) ((RASTER_IMAP & raster) | (STREAM_IMAP &
 * stream))), where A (&) B = (A & B & VSC-LD) | (A & forced): an attribute a consumer asks for
 * is kept when the last stage stores it and the VSC Idmap loads it; `last->store_req` (computed
 * with last = true, and holding the CULL_BEFORE_FETCH Omap when VERTEX is last) is kept
 * whatever the consumers. ps: the pixel shader's contribution, NULL when it is disabled (its
 * LD entries act as LD here, note 21). vsc may be NULL (everything disabled).
 */
void vfetch_aam_vsc_input_bmap(const struct vfetch_aam_stage_bmaps *last,
                               const struct vfetch_aam_stage_bmaps *ps,
                               const struct vfetch_aam_vsc_state *vsc,
                               struct vfetch_aam_map *out);

/** Where a pixel shader attribute's value comes from (notes 3, 13, 14, 22). */
enum vfetch_aam_ps_source {
    /** Imap 0: the pixel shader reads zero. */
    VFETCH_AAM_PS_ZERO = 0,
    /** The last VTG stage's output (the VSC input Bmap holds it). */
    VFETCH_AAM_PS_UPSTREAM = 1,
    /** The VSC inserts the attribute's default (Imap 1, the last VTG stage does not store it). */
    VFETCH_AAM_PS_DEFAULT = 2,
    /** Made by the hardware: POSITION_X/_Y (the pixel's position, whatever the Imap),
        PRIMITIVE_ID without a geometry shader, POINT_SPRITE_S/_T, IS_FRONT_FACE (always). */
    VFETCH_AAM_PS_HARDWARE = 3,
};

/** The pixel shader's side: the CBE and where each input comes from. */
struct vfetch_aam_ps_bmaps {
    /** The CBE's Bmap: the PS Imap itself (notes 2, 21). */
    struct vfetch_aam_map cbe;
    /** Its STri portion: the PS Imap without POSITION_X and _Y (note 19d). */
    struct vfetch_aam_map stri;
    /** Per attribute, enum vfetch_aam_ps_source. */
    uint8_t source[VFETCH_AAM_ATTRIBUTES];
};

/** The pixel shader's CBE Bmaps and input sources, from its contribution (vfetch_aam_stage_bmaps
    with PIXEL), the VSC input Bmap and whether a geometry shader is enabled (note 13). */
void vfetch_aam_ps_bmaps(const struct vfetch_aam_stage_bmaps *ps,
                         const struct vfetch_aam_map *vsc_input, bool gs_enabled,
                         struct vfetch_aam_ps_bmaps *out);

/** A whole pipeline's maps and state. */
struct vfetch_aam_pipeline {
    /** The enabled stages: bit (1u << stage) per enum vfetch_aam_stage CULL_BEFORE_FETCH..PIXEL.
        VERTEX must be enabled. */
    unsigned enabled;
    /** Each enabled stage's maps, indexed by enum vfetch_aam_stage (others are ignored). */
    struct vfetch_aam_shader shaders[6];
    /** SET_DA_OUTPUT_ATTRIBUTE_SKIP_MASK_A/_B pairs, as vfetch_aam_vertex_input_bmap() takes. */
    uint64_t skip_mask_a, skip_mask_b;
    /** Raster, stream out, two-sided light (note 19). */
    struct vfetch_aam_vsc_state vsc;
};

/** Every Bmap of a pipeline. Entries of disabled stages are zero. */
struct vfetch_aam_bmaps {
    /** The Bmap of the ISBE each stage reads: CULL_BEFORE_FETCH and VERTEX the
        VERTEX_INPUT_BMAP, PIXEL the CBE Bmap. */
    struct vfetch_aam_map input[6];
    /** The Bmap of the ISBE each VTG stage writes (CULL_BEFORE_FETCH shares VERTEX's); the
        last enabled one's is vsc_input. */
    struct vfetch_aam_map output[VFETCH_AAM_VTG_STAGES];
    /** The VSC input Bmap (note 19). */
    struct vfetch_aam_map vsc_input;
    /** The pixel shader's side (zero when it is disabled). */
    struct vfetch_aam_ps_bmaps ps;
    /** The last enabled VTG stage. */
    enum vfetch_aam_stage last_vtg;
};

/**
 * Check every enabled stage's maps (in pipeline order, each as vfetch_aam_stage_bmaps()) and
 * compute every Bmap. VFETCH_EINVAL for NULL, VERTEX not enabled or an enabled bit above PIXEL.
 * *out untouched on error; *where (when not NULL) says where the error is.
 */
int vfetch_aam_pipeline_bmaps(const struct vfetch_aam_pipeline *pipeline,
                              struct vfetch_aam_bmaps *out, struct vfetch_aam_where *where);

#ifdef __cplusplus
}
#endif

#endif
