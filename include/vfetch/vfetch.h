/*
 * vfetch — guest GPU vertex fetch for emulators.
 *
 * The umbrella header: version, error codes, plan lifecycle and the run call. Every contract of
 * the API is written here, next to the declaration it governs.
 *
 * Conventions:
 *  - Every function that can fail returns int: 0 on success or a negative VFETCH_E* code;
 *    vfetch_strerror() turns a code into a sentence.
 *  - On failure nothing is written to any output, and *out pointers are left untouched.
 *  - A plan is immutable after creation; one plan may be run from many threads at once.
 */
#ifndef VFETCH_VFETCH_H
#define VFETCH_VFETCH_H

#include <stddef.h>
#include <stdint.h>

#include "vfetch/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VFETCH_VERSION_MAJOR 0
#define VFETCH_VERSION_MINOR 2
#define VFETCH_VERSION_PATCH 0

/** The library's version as "major.minor.patch". */
const char *vfetch_version(void);

/**
 * CPU feature levels the kernels are built for. Each level implies the ones below it on its
 * architecture; dispatch climbs the ladder and stops at the first level missing.
 */
enum vfetch_cpu_flag {
    VFETCH_CPU_SSE2 = 1 << 0,   /**< x86-64 baseline */
    VFETCH_CPU_SSE41 = 1 << 1,  /**< SSSE3 + SSE4.1 (pshufb, pmulld, blendv) */
    VFETCH_CPU_AVX2 = 1 << 2,   /**< AVX2 + F16C, BMI1, MOVBE, FMA; OS saving ymm state */
    VFETCH_CPU_AVX512 = 1 << 3, /**< AVX-512 F/BW/DQ/VL/VBMI + F16C, OS saving zmm state */
    VFETCH_CPU_NEON = 1 << 4,   /**< aarch64 Advanced SIMD */
};

/** The levels this CPU has (cpuid/xgetbv), ANDed with the current mask. */
unsigned vfetch_cpu_flags(void);

/**
 * Restrict the levels used by plans created from now on (bits of vfetch_cpu_flag; 0 forces the
 * scalar reference, ~0u allows everything). A flag bit allows its level and every level that
 * level implies (the ones below it): VFETCH_CPU_AVX2 alone allows avx2, sse41 and sse2. The
 * initial mask is ~0u, or the value of the environment variable VFETCH_CPU_MASK, read once at
 * the first use: a level name in any case ("c", "sse2", "sse41", "avx2", "avx512", "neon";
 * "AVX2" works), or a number of flag bits (0x.. or decimal), with the same implication. Any
 * other value is reported on stderr ("vfetch: VFETCH_CPU_MASK=... ignored") and allows every
 * level, as if unset. Plans already created keep their kernels.
 */
void vfetch_set_cpu_mask(unsigned mask);

/**
 * The current mask: what vfetch_set_cpu_mask() or VFETCH_CPU_MASK set, with the implied levels
 * added (VFETCH_CPU_AVX2 reads back as SSE2 | SSE41 | AVX2), or ~0u when nothing restricts it.
 * vfetch_set_cpu_mask(vfetch_get_cpu_mask()) restores it.
 */
unsigned vfetch_get_cpu_mask(void);

/** Name of the best level vfetch_cpu_flags() allows: "avx512", "avx2", "sse41", "sse2",
    "neon" or "c". */
const char *vfetch_cpu_name(void);

/**
 * The JIT tier (docs/jit.md): on x86-64 builds with the JIT (-Djit, Zydis), each plan of a
 * supported kind is also compiled to machine code for its draws. The mode a plan is created
 * under stays with it:
 *  - VFETCH_JIT_OFF: only the portable tier (the record program or the per-op kernels);
 *  - VFETCH_JIT_ON: the generated code where the plan has it (the default where built);
 *  - VFETCH_JIT_COMPARE: every draw runs both tiers and the process aborts, printing the plan
 *    and the first differing byte, if their outputs or results differ (for tests and fuzzing).
 * The initial mode is VFETCH_JIT_ON, or the environment variable VFETCH_JIT read once at the
 * first use: "0"/"off", "1"/"on", "compare" (any case); anything else is reported on stderr and
 * ignored. Builds without the JIT accept every mode and run the portable tier.
 */
enum vfetch_jit_mode {
    VFETCH_JIT_OFF = 0,
    VFETCH_JIT_ON = 1,
    VFETCH_JIT_COMPARE = 2,
};

/** Set the mode of plans created from now on. VFETCH_EINVAL for a value out of range. */
int vfetch_set_jit_mode(enum vfetch_jit_mode mode);

/** The mode plans created now get. */
enum vfetch_jit_mode vfetch_get_jit_mode(void);

/** 1 if this build has the JIT and this process can run generated code (executable memory
    was granted), else 0. */
int vfetch_jit_available(void);

/** The memory generated code holds now (docs/jit.md, "Memory"), for an emulator's logs and
    for tests: whether compiled-and-freed plans give their memory back. */
struct vfetch_jit_memory_usage {
    /** How code is made executable here: "arena" (chunks of a memfd, each mapped twice),
        "mprotect" (pages of each plan's own) or "none" (no JIT in this build, or no executable
        memory for this process); a static string. */
    const char *method;
    /** Executable bytes mapped for generated code: the arena's chunks (each counted once,
        though mapped twice) and the pages plans hold of their own. */
    uint64_t mapped_bytes;
    /** Bytes of the live plans' code and constants. */
    uint64_t live_bytes;
    /** Plans (and a plan's one piece of code) whose generated code is in memory. */
    uint32_t live_plans;
    /** The arena's chunks: shared chunks of 256 KiB, the spare among them, and one of its own
        for each plan larger than that. */
    uint32_t chunks;
    /** Shared chunks that hold no plan: 0 or 1, the one kept so that compiling after freeing
        maps nothing. */
    uint32_t spare_chunks;
    /** The 64-byte blocks of the shared chunks that live plans hold. */
    uint32_t live_blocks;
    /** Plans in pages of their own: every plan of the mprotect way, and the arena's where no
        chunk could be mapped. */
    uint32_t own_mappings;
};

/** Fill *usage with the memory generated code holds now, read at one instant (any thread may
    call it while others compile and free plans). Builds without the JIT report method "none"
    and zeros. VFETCH_EINVAL for NULL (nothing written), else 0. */
int vfetch_jit_memory_usage(struct vfetch_jit_memory_usage *usage);

/**
 * Error codes, grouped by where they arise. Each names one kind of bad input so that a caller
 * (or a test) can tell them apart. A code that only one family raises carries the family's
 * name (VFETCH_ER300_*, VFETCH_EGX_*, VFETCH_EMAXWELL_*, VFETCH_EAAM_*, VFETCH_ETEXEL_*); the
 * shared ones do not. Values never change and new codes take the next free value, so the
 * groups below are not in value order. docs/errors.md: what raises each one, and its test.
 */
enum vfetch_error {
    VFETCH_OK = 0,

    /* Any entry point. */
    VFETCH_EINVAL = -1,            /**< a required pointer is NULL or an argument is out of range */
    VFETCH_ENOMEM = -2,            /**< allocation failed */
    VFETCH_EOVERFLOW = -15,        /**< a byte size computed from the range overflows */

    /* Plan descriptions (the core IR, and what every front-end lowers to it). */
    VFETCH_EPLAN = -3,             /**< a hand-built plan description is inconsistent */
    VFETCH_ERESERVED_SWIZZLE = -6, /**< swizzle selector 6 or 7 (R300 EXT words, a plan
                                        description's swizzle, a texel SEL_* field) */

    /* The buffers a vertex run is given (vfetch_run, vfetch_r300_run, vfetch_gx_run,
       vfetch_maxwell_run); ESHORT_OUTPUT also a texel decode's target. */
    VFETCH_ESHORT_STREAM = -12,    /**< a bound stream buffer is smaller than the vertex range
                                        reads */
    VFETCH_ESHORT_OUTPUT = -13,    /**< the output buffer is smaller than count records (texel:
                                        the target ends before the last texel written) */
    VFETCH_ESHORT_INDICES = -14,   /**< the index buffer is smaller than the draw positions read */
    VFETCH_EINDEX_RANGE = -16,     /**< an index plus the index offset is negative */
    VFETCH_EMISSING_STREAM = -17,  /**< a stream the plan reads has no buffer bound */

    /* Register states: vfetch_r300_state, vfetch_gx_state. */
    VFETCH_EREGISTER = -20,        /**< a register address the state does not hold */

    /* R300/R500 vertex (vfetch/r300.h). */
    VFETCH_ER300_RESERVED_TYPE = -4,     /**< DATA_TYPE 13..15 */
    VFETCH_ER300_RESERVED_SGN_NORM = -5, /**< VAP_PSC_SGN_NORM_CNTL method 3 on a signed
                                              normalized element */
    VFETCH_ER300_FLOAT8_LOC31 = -7,      /**< FLOAT_8 at DST_VEC_LOC 31 (would write vector 32) */
    VFETCH_ER300_NO_LAST_VEC = -8,       /**< 16 elements and none has LAST_VEC */
    VFETCH_ER300_STREAM_UNDERRUN = -9,   /**< the elements need more dwords than the arrays (or
                                              the immediate VTX_SIZE) supply */
    VFETCH_ER300_TOO_MANY_ARRAYS = -10,  /**< more than 16 vertex arrays */
    VFETCH_ER300_ARRAY_LAYOUT = -11,     /**< a vertex array's stride or count is unusable (count
                                              0, or record size larger than the stride) */

    /* GameCube/Wii vertex (vfetch/gx.h). */
    VFETCH_EGX_RESERVED_COLOR = -18, /**< color format 6 or 7 on a color the VCD enables */
    VFETCH_EGX_ARRAY_INDEX = -19,    /**< an array index reads past the end of the bound array */

    /* GameCube/Wii texture (vfetch/gx_texture.h); its decode also raises VFETCH_ETEXEL_REGION
       and VFETCH_ETEXEL_SHORT_SURFACE, as the R300 texel decode does. */
    VFETCH_EGX_TEXTURE_FORMAT = -37, /**< a reserved TX_SETIMAGE0 format (7, 0xB..0xD, 0xF) */
    VFETCH_EGX_TLUT_FORMAT = -38,    /**< palette format 3 in TX_SETTLUT on a palette format */
    VFETCH_EGX_SHORT_PALETTE = -39,  /**< the palette buffer holds fewer entries than the
                                          format indexes (16, 256, 16384) */

    /* Maxwell vertex fetch (vfetch/maxwell.h) and its attribute address map (vfetch/aam.h). */
    VFETCH_EMAXWELL_ATTRIBUTE_FORMAT = -26, /**< a SET_VERTEX_ATTRIBUTE size x numerical type
                                                 the hardware does not accept */
    VFETCH_EMAXWELL_STREAM_DISABLED = -27,  /**< an active attribute reads a disabled stream */
    VFETCH_EAAM_IMAP_DEFAULT = -21, /**< an Imap bit set on an attribute whose Idmap is
                                         "default" for that stage */
    VFETCH_EAAM_OMAP_DISCARD = -22, /**< an Omap bit set on an attribute whose Odmap is
                                         "discard" for that stage */
    VFETCH_EAAM_PS_POSITION_W = -23, /**< a pixel shader Imap without POSITION_W */
    VFETCH_EAAM_CBF_ODMAP = -24,   /**< a CULL_BEFORE_FETCH Odmap entry other than ST_REQ or
                                        discard (a table check) */
    VFETCH_EAAM_CBF_IDMAP = -25,   /**< a CULL_BEFORE_FETCH Idmap entry that differs from the
                                        VERTEX one (a table check) */

    /* R300/R500 texel decode (vfetch/texel.h). */
    VFETCH_ETEXEL_UNSUPPORTED = -28, /**< W24_FP, 16_MPEG or 16_16_MPEG, whose bit layouts are
                                          not public */
    VFETCH_ETEXEL_RESERVED_COORD_TYPE = -29, /**< TEX_COORD_TYPE 3 */
    VFETCH_ETEXEL_RESERVED_YUV_MODE = -30,   /**< YUV_TO_RGB 3 */
    VFETCH_ETEXEL_YUV_FORMAT = -31,    /**< YUV_TO_RGB or SWAP_YUV on a format that is not Y/YUV */
    VFETCH_ETEXEL_POW2FIX_FORMAT = -32, /**< POW2FIX2FLT on a format whose components are not all
                                             8-bit fixed point */
    VFETCH_ETEXEL_RGBA8_INEXACT = -33, /**< RGBA8 output for a plan RGBA8 cannot hold exactly */
    VFETCH_ETEXEL_SURFACE_LAYOUT = -34, /**< a surface size, depth or pitch is unusable */
    VFETCH_ETEXEL_REGION = -35,        /**< the region is not inside the surface */
    VFETCH_ETEXEL_SHORT_SURFACE = -36, /**< the surface buffer ends before the texels read */

    /* Primitives and index buffers (vfetch/prim.h). */
    VFETCH_EPRIM_TYPE = -40,        /**< a primitive word the front-end does not define */
    VFETCH_EPRIM_INDEX_RANGE = -41, /**< an index a draw writes would not fit the output width,
                                         or would be the restart index */
    VFETCH_EBATCH_FULL = -42,       /**< the batch has no room for the draw's records or
                                         indices, or its host indices would pass the index
                                         width: flush the batch, then draw again */

    VFETCH_ECOUNT = -43 /**< one below the lowest code (not an error code) */
};

/** A short English sentence for an error code ("unknown error" for anything else). */
const char *vfetch_strerror(int code);

/** An immutable compiled plan. */
typedef struct vfetch_plan vfetch_plan;

/**
 * Validate a description and compile it into a plan (kernels chosen here, never per vertex).
 * Returns VFETCH_EPLAN for an inconsistent description (bad enum, format/conversion mismatch,
 * component count, stream index, slot past out_slots, stride not a multiple of 4 under a dword
 * swap mode, ...), VFETCH_ERESERVED_SWIZZLE for selectors 6/7.
 */
int vfetch_plan_compile(const struct vfetch_plan_desc *desc, vfetch_plan **out_plan);

/** Free a plan. NULL is allowed. */
void vfetch_plan_free(vfetch_plan *plan);

/** The description a plan was created from (normalised: unused fields zeroed). */
const struct vfetch_plan_desc *vfetch_plan_get_desc(const vfetch_plan *plan);

/**
 * Bytes of stream s that one vertex reads: one past the highest physical byte any op touches
 * (0 if the plan does not read the stream). Run-time bounds checks use it.
 */
uint32_t vfetch_plan_stream_extent(const vfetch_plan *plan, unsigned stream);

/** Bytes one output record needs (out_slots * 4). */
uint32_t vfetch_plan_record_size(const vfetch_plan *plan);

/** Bytes from one output record to the next. */
uint32_t vfetch_plan_out_stride(const vfetch_plan *plan);

/** First output slot of a front-end location (R300: DST_VEC_LOC), or -1 if not written. */
int vfetch_plan_location(const vfetch_plan *plan, unsigned location);

/**
 * Write a human-readable description of the plan, one line per stream and per op, into buf
 * (always NUL-terminated when size > 0). Returns the length the full text needs, excluding the
 * NUL (like snprintf), so a caller can size the buffer with a first call of size 0.
 */
size_t vfetch_plan_describe(const vfetch_plan *plan, char *buf, size_t size);

/**
 * A stable 64-bit hash of the plan's normalised description: the same description gives the
 * same hash on every run, machine and library build of this major version. For plan caches.
 */
uint64_t vfetch_plan_hash(const vfetch_plan *plan);

/** 1 if two plans have identical normalised descriptions, else 0. */
int vfetch_plan_equal(const vfetch_plan *a, const vfetch_plan *b);

/** The type of one attribute's components in an output record (vfetch_attr_decl). */
enum vfetch_attr_type {
    VFETCH_ATTR_FLOAT32 = 0, /**< count IEEE binary32 values (VK_FORMAT_R32..._SFLOAT, GL_FLOAT) */
    VFETCH_ATTR_UINT32 = 1,  /**< count 32-bit unsigned integers (GX matrix indices: R32_UINT,
                                  glVertexAttribIPointer with GL_UNSIGNED_INT) */
    /** four bytes R, G, B, A in memory order, to be read normalized (VK_FORMAT_R8G8B8A8_UNORM,
        GL_UNSIGNED_BYTE with normalized GL_TRUE); count 4, one 32-bit slot */
    VFETCH_ATTR_UNORM8X4 = 2,
    /** count 32-bit two's-complement integers (VFETCH_CONV_SINTEGER: R32_SINT) */
    VFETCH_ATTR_SINT32 = 3,
};

/** One attribute of a plan's output record: what a host vertex input needs for it. */
struct vfetch_attr_decl {
    /** The front-end location (R300: DST_VEC_LOC; GX: enum vfetch_gx_location). */
    uint32_t location;
    /** Bytes from the start of the record. */
    uint32_t offset;
    /** Components the host reads, 1..4: a vec4 location of the vec4 layouts is 4 (the ones the
        format lacks hold 0, 0, 0, 1), a packed one just the components present. */
    uint32_t count;
    enum vfetch_attr_type type;
    /** 1 for VFETCH_ATTR_UNORM8X4 (bytes to be read as / 255), else 0: floats are final. */
    uint32_t normalized;
};

/** A plan's output records as a host vertex input layout. */
struct vfetch_vertex_decl {
    /** Bytes from one record to the next (vfetch_plan_out_stride). */
    uint32_t stride;
    /** Attributes, in location order. */
    uint32_t num_attrs;
    struct vfetch_attr_decl attrs[VFETCH_MAX_LOCATIONS];
};

/**
 * The declaration of a plan's output: each location's offset, component count and type, and
 * the stride; enough to fill a VkVertexInputAttributeDescription or a glVertexAttribPointer
 * call. A location runs from its first slot to the next location's first slot (or the end of
 * the record), at most 4 components; its type is that of the op whose value its first slot holds (the last
 * one storing it)
 * (RGBA8 packing: UNORM8X4; an integer conversion: UINT32, one per component the op reads).
 * VFETCH_EINVAL for NULL arguments (decl untouched), else 0.
 */
int vfetch_plan_declaration(const vfetch_plan *plan, struct vfetch_vertex_decl *decl);

/** Which executor a plan runs its draws with. */
enum vfetch_executor {
    /** One kernel per op, each over the whole draw. */
    VFETCH_EXECUTOR_PER_OP = 0,
    /** The record program: whole vertex records per vector instruction (docs/simd.md). */
    VFETCH_EXECUTOR_RECORD = 1,
};

/** Why a plan runs per op (VFETCH_EXECUTOR_PER_OP). */
enum vfetch_fallback {
    VFETCH_FALLBACK_NONE = 0,     /**< it runs the record program */
    VFETCH_FALLBACK_REQUESTED = 1, /**< the description asked for VFETCH_PATH_PER_OP */
    VFETCH_FALLBACK_LEVEL = 2,    /**< its level has no byte shuffle (the reference "c", sse2) */
    /** the record program cannot express the format (docs/simd.md: what the lowering refuses,
        e.g. RGBA8 packing of fields from several containers, integer fields above bit 0) */
    VFETCH_FALLBACK_FORMAT = 3,
};

/** What a plan runs: its level and executor, for logs, tests and benchmarks. */
struct vfetch_plan_info {
    /** The ISA level its kernels were chosen for: "avx512", "avx2", "sse41", "sse2", "neon" or
        "c" (a static string). */
    const char *level;
    /** The executor of its draws. */
    enum vfetch_executor executor;
    /** Record program: lanes of its vectors (4, 8 or 16; 8 on an AVX-512 level means the
        256-bit program was estimated cheaper), vertices per group and vectors per group; 0
        per op. */
    uint32_t record_lanes, record_group, record_vectors;
    /** Lanes of the program kept for draws of fewer than two groups (an AVX-512 plan's 256-bit
        one), 0 if none. */
    uint32_t small_draw_lanes;
    /** Why it runs per op (VFETCH_FALLBACK_NONE when it runs the record program). */
    enum vfetch_fallback fallback;
    /** The same as a sentence (a static string; "" for VFETCH_FALLBACK_NONE). */
    const char *fallback_reason;
    /** 1 if the plan only moves 32-bit words: each output slot k is the raw word at byte 4k of
        the record (a float, or a 32-bit integer kept whole), as stored or every word
        byte-reversed, with one stream whose stride is the output stride and the record size.
        Its draws without an index buffer then run as one copy of their records (memcpy, or a
        byte-reversing copy), at every level above the reference "c". */
    int word_copy;
    /** 1 if the plan's draws run generated machine code (the JIT tier), else 0. */
    int jit;
    /** Bytes of that code and its constants (0 without). */
    uint32_t jit_code_bytes;
    /** Draws of at least this many vertices run the portable tier instead, where it was
        measured faster (UINT32_MAX: every draw runs the generated code; 0 without). */
    uint32_t jit_crossover;
    /** Why the plan has no generated code (a static string; "" when it has). */
    const char *jit_reason;
    /** 1 if that code divides some of its normalised conversions (UNORM, SNORM, UNORM8) by a
        product and one fused multiply-add instead of a division: the same bits (the correctly
        rounded quotient). AVX2 levels, plans run through vfetch_run: by default the 8-lane
        groups do, and the per-vertex ops of each entry (with and without an index buffer) where
        the compile measured it faster than the division there; the environment variable
        VFETCH_JIT_DIVISION=fma at the plan's compile asks for it everywhere, =divide nowhere
        (docs/jit.md). */
    int jit_fma_division;
    /** 1 if that code's draws through an index buffer convert whole groups of records by the
        record program, each record loaded from the place its entry names (one-stream plans at
        the AVX2 levels, where the groups cost fewer instructions a record than converting
        record by record; VFETCH_JIT_GATHER=0 at the compile: never, =1: wherever they fit),
        the draw's last few records one by one (docs/jit.md). */
    int jit_gathered;
};

/** A plan's generated code as it is in memory, for a disassembler (`vfetch explain gx --asm`
    prints it with Zydis's formatter). */
struct vfetch_jit_code_view {
    /** The code's bytes: its constants first, then the instructions; NULL without code. */
    const void *bytes;
    /** Bytes from `bytes` to the end of the last instruction (0 without code). */
    size_t size;
    /** Offset of the function's first instruction (the constants come before it). */
    size_t entry;
    /** The address the bytes run at (RIP-relative operands are relative to it). */
    uint64_t address;
};

/** Fill *info for a plan. VFETCH_EINVAL for NULL arguments (info untouched), else 0. */
int vfetch_plan_info(const vfetch_plan *plan, struct vfetch_plan_info *info);

/** A plan's generated code (`vfetch explain r300|maxwell --asm` prints it): its entry for draws
    without an index buffer; a plan with an indexed stream has a second one, for draws through
    an index buffer, after it in the same bytes. A view of 0 bytes where the plan has no code.
    VFETCH_EINVAL for NULL arguments, else 0. */
int vfetch_plan_jit_code(const vfetch_plan *plan, struct vfetch_jit_code_view *view);

/** Width of the entries of an index buffer. */
enum vfetch_index_type {
    VFETCH_INDEX_NONE = 0, /**< no index buffer: indexed streams read record p */
    VFETCH_INDEX_U16 = 1,
    VFETCH_INDEX_U32 = 2,
};

/** Memory bound to one stream for one run. */
struct vfetch_binding {
    /** Start of record 0. */
    const void *data;
    /** Bytes readable from data. Every byte a run reads is checked against it first. */
    size_t size;
};

/**
 * Everything one run needs besides the plan. Start from vfetch_run_params_init(), then set the
 * fields you use.
 */
struct vfetch_run_params {
    /** One binding per plan stream (num_streams entries). */
    const struct vfetch_binding *streams;
    /** Number of entries in streams; must be at least the plan's num_streams. */
    uint32_t num_streams;
    /** First draw position. With an index buffer it is the first index entry read. */
    uint32_t first;
    /** Number of vertices to convert. 0 is valid and writes nothing. */
    uint32_t count;
    /** Index buffer (native byte order), or NULL with index_type VFETCH_INDEX_NONE. */
    const void *indices;
    /** Width of the index entries. */
    enum vfetch_index_type index_type;
    /** Bytes readable from indices. */
    size_t indices_size;
    /** Added to every index entry (R300 index offset), in 64-bit arithmetic; a negative sum
        is VFETCH_EINDEX_RANGE. Default 0. */
    int64_t index_offset;
    /** Indices above it (after the offset) are clamped to it (R300 VAP_VF_MAX_VTX_INDX).
        Default UINT32_MAX, i.e. no clamp. A draw through 16-bit entries whose indexed
        streams hold record min(65535 + index_offset, max_index) (and through 32-bit ones,
        record max_index), with an offset of 0 or more, cannot name a record outside them:
        vfetch_run then skips its scan of the entries (the fastest short indexed draws; where
        that record is max_index's, draws of fewer than 48 entries only). */
    uint32_t max_index;
    /** The instance this run draws (0-based) and the first instance's record offset: an
        instanced stream (VFETCH_STEP_INSTANCE) reads record base_instance + instance /
        divisor, or base_instance for divisor 0. Default 0 and 0. */
    uint32_t instance;
    uint32_t base_instance;
    /** Output: count records of the plan's out_stride bytes (the last one only needs the
        record size). Slots no op writes, and components an op masks off, are not touched. */
    void *out;
    /** Bytes writable at out. */
    size_t out_size;
};

/** Defaults: no streams, no indices, max_index = UINT32_MAX, everything else 0. */
void vfetch_run_params_init(struct vfetch_run_params *params);

/**
 * Convert params->count vertices with a plan. Validates everything first (bindings, every
 * byte every fetch of the range implies, index entries, output size, size overflow); on error
 * returns the code and writes nothing.
 */
int vfetch_run(const vfetch_plan *plan, const struct vfetch_run_params *params);

/* ---- names before 0.2 ----------------------------------------------------------------------
 * Kept until 1.0 so that code written against 0.1 still builds (docs/api.md: the migration).
 * Define VFETCH_NO_DEPRECATED to hide them; vfetch's own code builds that way. */
#ifndef VFETCH_NO_DEPRECATED
#define vfetch_plan_create vfetch_plan_compile
#define VFETCH_ERESERVED_TYPE VFETCH_ER300_RESERVED_TYPE
#define VFETCH_ERESERVED_SGN_NORM VFETCH_ER300_RESERVED_SGN_NORM
#define VFETCH_EFLOAT8_LOC31 VFETCH_ER300_FLOAT8_LOC31
#define VFETCH_ENO_LAST_VEC VFETCH_ER300_NO_LAST_VEC
#define VFETCH_ESTREAM_UNDERRUN VFETCH_ER300_STREAM_UNDERRUN
#define VFETCH_ETOO_MANY_ARRAYS VFETCH_ER300_TOO_MANY_ARRAYS
#define VFETCH_EARRAY_LAYOUT VFETCH_ER300_ARRAY_LAYOUT
#define VFETCH_ERESERVED_COLOR VFETCH_EGX_RESERVED_COLOR
#define VFETCH_EARRAY_INDEX VFETCH_EGX_ARRAY_INDEX
#define VFETCH_EATTRIBUTE_FORMAT VFETCH_EMAXWELL_ATTRIBUTE_FORMAT
#define VFETCH_ESTREAM_DISABLED VFETCH_EMAXWELL_STREAM_DISABLED
#define VFETCH_ERESERVED_COORD_TYPE VFETCH_ETEXEL_RESERVED_COORD_TYPE
#define VFETCH_ERESERVED_YUV_MODE VFETCH_ETEXEL_RESERVED_YUV_MODE
#define VFETCH_EPOW2FIX_FORMAT VFETCH_ETEXEL_POW2FIX_FORMAT
#define VFETCH_ERGBA8_INEXACT VFETCH_ETEXEL_RGBA8_INEXACT
#define VFETCH_ESURFACE_LAYOUT VFETCH_ETEXEL_SURFACE_LAYOUT
#define VFETCH_EREGION VFETCH_ETEXEL_REGION
#define VFETCH_ESHORT_SURFACE VFETCH_ETEXEL_SHORT_SURFACE
#endif

#ifdef __cplusplus
}
#endif

#endif /* VFETCH_VFETCH_H */
