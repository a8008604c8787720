/*
 * vfetch/prim.h: guest primitives to host index buffers.
 *
 * An emulator's vertex pipeline converts a guest draw's vertices (vfetch_gx_run and the other
 * families) and turns its primitive into something the host draws: hosts lack quads, fans and
 * polygons, and some lack primitive restart. A primitive plan is compiled once from the guest's
 * primitive word and the emulator's options (host restart, output width or the narrowest,
 * line and point expansion, provoking vertices, host fans, incomplete primitives, yuzu's
 * orders); each draw is then one call with its vertex count and where its vertices start in
 * the host vertex buffer, and writes the draw's indices.
 *
 * GameCube/Wii (VFETCH_PRIM_GX): the draw command's primitive, the orders byte-identical to
 * Dolphin's IndexGenerator in each of its four modes (restart on/off x line/point expansion
 * on/off), its odd cases included. R300/R500 (VFETCH_PRIM_R300): VAP_VF_CNTL's PRIM_TYPE as
 * point, line and triangle lists in the orders of Mesa's u_indices (its generate tables, the
 * provoking vertex converted from the guest's to the host's). Maxwell (VFETCH_PRIM_MAXWELL):
 * the BEGIN method's primitive (Maxwell3D's topology), its ten OpenGL-style primitives in the
 * same Mesa orders as R300's, its adjacency primitives passed through. docs/prim.md has every
 * order.
 *
 * Contract as in the other families: a description with defaults (vfetch_prim_desc_init),
 * compiled to an immutable plan that threads may share, run per draw, info, free; every error a
 * distinct negative code (vfetch.h), nothing written on error.
 */
#ifndef VFETCH_PRIM_H
#define VFETCH_PRIM_H

#include <stddef.h>
#include <stdint.h>

#include "vfetch/vfetch.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Whose primitive words a plan reads. */
enum vfetch_prim_frontend {
    VFETCH_PRIM_GX = 0,   /**< GameCube/Wii draw commands */
    VFETCH_PRIM_R300 = 1, /**< R300/R500 VAP_VF_CNTL PRIM_TYPE */
    VFETCH_PRIM_MAXWELL = 2, /**< NVIDIA Maxwell BEGIN (the draw's primitive topology) */
};

/** Maxwell BEGIN's primitive (NV9097 BEGIN OP; yuzu's Maxwell3D PrimitiveTopology). The
    adjacency primitives pass through to the host's (VFETCH_TOPOLOGY_*_ADJACENCY): lists with
    the provoking vertex converted as Mesa converts them, a line strip as it is or, where the
    conventions differ, as a list of its lines; a triangle strip with adjacency only where the
    conventions agree (else VFETCH_EPRIM_TYPE). Patches (0xE) are VFETCH_EPRIM_TYPE: they need
    the guest's patch size and tessellation on the host, not an index buffer. */
enum vfetch_maxwell_primitive {
    VFETCH_MAXWELL_POINTS = 0,
    VFETCH_MAXWELL_LINES = 1,
    VFETCH_MAXWELL_LINE_LOOP = 2,
    VFETCH_MAXWELL_LINE_STRIP = 3,
    VFETCH_MAXWELL_TRIANGLES = 4,
    VFETCH_MAXWELL_TRIANGLE_STRIP = 5,
    VFETCH_MAXWELL_TRIANGLE_FAN = 6,
    VFETCH_MAXWELL_QUADS = 7,
    VFETCH_MAXWELL_QUAD_STRIP = 8,
    VFETCH_MAXWELL_POLYGON = 9,
    VFETCH_MAXWELL_LINES_ADJACENCY = 0xA,
    VFETCH_MAXWELL_LINE_STRIP_ADJACENCY = 0xB,
    VFETCH_MAXWELL_TRIANGLES_ADJACENCY = 0xC,
    VFETCH_MAXWELL_TRIANGLE_STRIP_ADJACENCY = 0xD,
};

/** R300/R500 VAP_VF_CNTL PRIM_TYPE (bits 3:0). 0 (none) and 7..11 (triangle type 2, rectangle
    list, three-vertex point and line lists) are VFETCH_EPRIM_TYPE. */
enum vfetch_r300_primitive {
    VFETCH_R300_POINTS = 1,
    VFETCH_R300_LINES = 2,
    VFETCH_R300_LINE_STRIP = 3,
    VFETCH_R300_TRIANGLES = 4,
    VFETCH_R300_TRIANGLE_FAN = 5,
    VFETCH_R300_TRIANGLE_STRIP = 6,
    VFETCH_R300_LINE_LOOP = 12,
    VFETCH_R300_QUADS = 13,
    VFETCH_R300_QUAD_STRIP = 14,
    VFETCH_R300_POLYGON = 15,
};

/** Which vertex of a primitive provokes its flat-shaded attributes. */
enum vfetch_prim_provoking {
    VFETCH_PROVOKING_FIRST = 0,
    VFETCH_PROVOKING_LAST = 1,
};

/** GX draw commands' primitives: the command byte with its VAT bits (2:0) clear. */
enum vfetch_gx_primitive {
    VFETCH_GX_QUADS = 0x80,
    VFETCH_GX_QUADS_2 = 0x88, /**< drawn as QUADS (as Dolphin does) */
    VFETCH_GX_TRIANGLES = 0x90,
    VFETCH_GX_TRIANGLE_STRIP = 0x98,
    VFETCH_GX_TRIANGLE_FAN = 0xA0,
    VFETCH_GX_LINES = 0xA8,
    VFETCH_GX_LINE_STRIP = 0xB0,
    VFETCH_GX_POINTS = 0xB8,
};

/** What the host draws a plan's indices as. */
enum vfetch_prim_topology {
    VFETCH_TOPOLOGY_POINT_LIST = 0,
    VFETCH_TOPOLOGY_LINE_LIST = 1,
    VFETCH_TOPOLOGY_TRIANGLE_LIST = 2,
    VFETCH_TOPOLOGY_TRIANGLE_STRIP = 3, /**< with primitive restart */
    /* Maxwell's adjacency primitives (geometry shader input) */
    VFETCH_TOPOLOGY_LINE_LIST_ADJACENCY = 4,
    VFETCH_TOPOLOGY_LINE_STRIP_ADJACENCY = 5,
    VFETCH_TOPOLOGY_TRIANGLE_LIST_ADJACENCY = 6,
    VFETCH_TOPOLOGY_TRIANGLE_STRIP_ADJACENCY = 7,
    /** R300 and Maxwell fans passed through (host_fans) */
    VFETCH_TOPOLOGY_TRIANGLE_FAN = 8,
};

/** A primitive plan's options: the guest's primitive, and what the host can draw. */
struct vfetch_prim_desc {
    /** Whose primitive words `primitive` is. Default VFETCH_PRIM_GX. */
    enum vfetch_prim_frontend frontend;
    /** The guest primitive. GX: an enum vfetch_gx_primitive value (a draw command byte with
        its VAT bits clear); R300: an enum vfetch_r300_primitive value (VAP_VF_CNTL bits 3:0);
        Maxwell: an enum vfetch_maxwell_primitive value. Any other value is VFETCH_EPRIM_TYPE.
        No default. */
    uint32_t primitive;
    /** Nonzero: the host has primitive restart, and triangles go out as strips, each ended by
        the restart index (the output width's all-ones value: 0xFFFF, 0xFFFFFFFF). 0 (the
        default): lists. Points and lines do not depend on it unless expanded. */
    uint8_t restart;
    /** Nonzero: lines and points are expanded to quads in the host's vertex shader (Dolphin's
        "VS line/point expansion"): each index is vertex * 4 + corner (the shader reads the
        vertex as index >> 2, the corner as its low two bits), drawn as triangles (strips with
        restart). Triangle primitives ignore it. Default 0. */
    uint8_t expand_lines_points;
    /** The output's index width: VFETCH_INDEX_U16 (the default) or VFETCH_INDEX_U32. */
    enum vfetch_index_type index_type;
    /** Nonzero: index_type is the widest a draw may write, and each draw takes the narrowest
        that holds its indices: 16 bits where every index it writes, and the restart index
        0xFFFF where it writes one, fits, else index_type's. `out` is then aligned to and
        sized for index_type's width; the width a draw wrote is in its result. Default 0. */
    uint8_t narrowest;
    /** R300 and Maxwell: the provoking vertex of the guest's primitives and of the host's;
        where they differ each triangle is rotated and each line reversed (Mesa's u_indices
        orders). GX plans take Dolphin's orders and ignore them. Default first and first. */
    enum vfetch_prim_provoking guest_provoking, host_provoking;
    /** R300 and Maxwell: nonzero where the host draws triangle fans (Vulkan portability
        subsets and D3D12 do not): a TRIANGLE_FAN whose provoking conventions agree passes
        through as VFETCH_TOPOLOGY_TRIANGLE_FAN, its vertices as they are (through an index
        buffer with guest_restart, its restart entries become the host's restart index). Where
        they differ, and for polygons (whose first vertex provokes, which no host fan does),
        the list as without it. GX plans ignore it: Dolphin batches a draw's triangles with
        other primitives' into one list or strip. Default 0. */
    uint8_t host_fans;
    /** GX: nonzero drops what Dolphin draws of an incomplete primitive: the triangle of three
        vertices left after QUADS' whole quads, and (with restart) a TRIANGLE_STRIP of fewer
        than three vertices, which Dolphin writes as its vertices and the restart index (a
        lone restart index for none). Default 0: Dolphin's output. R300 and Maxwell plans
        always drop incomplete primitives, as Mesa and the hardware do, and ignore it. */
    uint8_t drop_incomplete;
    /** Maxwell: nonzero draws as yuzu's Vulkan renderer does (and its forks), for an emulator
        of that family that keeps its output: QUADS as (q, q+1, q+2) (q, q+2, q+3) and
        QUAD_STRIP's quad from vertex 2i as (2i, 2i+3, 2i+1) (2i, 2i+2, 2i+3), whatever the
        provoking vertices (yuzu sets the host's to the guest's); with host_fans, TRIANGLE_FAN
        and POLYGON pass through as fans (yuzu draws a polygon as one). The rest as Mesa's
        (yuzu's line loop, drawn as a triangle list, is no order to keep). Default 0. */
    uint8_t yuzu_orders;
    /** R300 and Maxwell: the bytes of the guest's index buffer entries, 1, 2 or 4 (u8, u16,
        u32); the draw's count is then its entries, read from run params' `indices`, each
        primitive's vertices being entries (as Mesa's translate functions read them). 0 (the
        default): a draw's vertices are consecutive. GX plans take 0 (GX's indices are its
        attributes', vfetch_gx_run's). */
    uint8_t guest_index_bytes;
    /** Nonzero: the guest's 2- and 4-byte entries are big-endian. Default 0 (little). */
    uint8_t guest_big_endian;
    /** Nonzero: an entry equal to guest_restart_index (compared as the entry's unsigned value)
        is primitive restart: it ends the primitive, whose vertices so far are dropped where
        incomplete, and the next entry starts a new one (OpenGL's rule). Lists and the
        converted primitives are converted a run of entries at a time; a strip with adjacency
        drawn as it is gets the host's restart index there (plan info). Default 0. */
    uint8_t guest_restart;
    uint32_t guest_restart_index;
    /** Nonzero (with an index buffer): range mode. The draw's smallest and largest entries
        (restart entries aside) come back in the result, and each index written is
        base_index + entry - smallest: convert the guest's records smallest .. largest once,
        to host vertices base_index onwards, instead of one record per entry. 0 (the default):
        each index is base_index + entry. */
    uint8_t range;
};

/** Defaults: GX, no primitive (set one), no restart, no expansion, 16-bit indices (not the
    narrowest), first provoking vertex in and out, no host fans, Dolphin's incomplete
    primitives, no index buffer. */
void vfetch_prim_desc_init(struct vfetch_prim_desc *desc);

/** An immutable compiled primitive plan. */
typedef struct vfetch_prim_plan vfetch_prim_plan;

/**
 * Compile a description. VFETCH_EINVAL (NULL arguments, a frontend or index_type out of
 * range), VFETCH_EPRIM_TYPE (a primitive the frontend does not define), VFETCH_ENOMEM.
 */
int vfetch_prim_compile(const struct vfetch_prim_desc *desc, vfetch_prim_plan **out_plan);

/** Free a plan. NULL is allowed. */
void vfetch_prim_plan_free(vfetch_prim_plan *plan);

/** What a plan writes. */
struct vfetch_prim_plan_info {
    /** What the host draws the indices as. */
    enum vfetch_prim_topology topology;
    /** Bytes per index (2, 4); a narrowest plan: the widest it writes (each draw's width is
        in its result). */
    uint32_t index_bytes;
    /** The restart index the plan writes (0 without restart): the width's all-ones value, the
        one Vulkan, D3D12, Metal and OpenGL's fixed-index restart use (a narrowest plan's
        16-bit draws write 0xFFFF). */
    uint32_t restart_index;
    /** Nonzero where an index is vertex * 4 + corner (expanded lines and points). */
    uint32_t expanded;
    /** The ISA level of its kernel ("c" for the reference). */
    const char *level;
};

/** Fill *info. VFETCH_EINVAL for NULL arguments, else 0. */
int vfetch_prim_plan_info(const vfetch_prim_plan *plan, struct vfetch_prim_plan_info *info);

/**
 * The number of indices a draw of `count` vertices writes (docs/prim.md has the formula per
 * primitive and option): what out_capacity must hold. SIZE_MAX if it would not fit a size_t.
 */
size_t vfetch_prim_index_count(const vfetch_prim_plan *plan, uint32_t count);

/** One draw. */
struct vfetch_prim_run_params {
    /** The guest draw's vertices (any number, 0 included; vertices a primitive cannot use,
        such as a triangle list's last count % 3, write nothing). */
    uint32_t count;
    /** The host vertex of the draw's first vertex: its vertices are base_index ..
        base_index + count - 1 (Dolphin's base index: the vertices already in the batch). */
    uint32_t base_index;
    /** Where the indices go (of the plan's width, aligned to it), out_capacity of them (a
        narrowest plan: room for out_capacity indices of its widest width). */
    void *out;
    size_t out_capacity;
    /** A plan with an index buffer (guest_index_bytes): the draw's `count` entries, and the
        bytes readable there. NULL and 0 for a plan without one. */
    const void *indices;
    size_t indices_size;
};

/** What a draw wrote. */
struct vfetch_prim_result {
    /** Indices written: out[0 .. written). */
    size_t written;
    /** A plan with an index buffer: the smallest and largest entry of the draw (restart
        entries aside), the guest records it reads; with no such entry 1 and 0 (an empty
        range: largest - smallest + 1 is 0). 0 and 0 for a plan without one. */
    uint32_t min_index, max_index;
    /** The bytes of each index written (2, 4): the plan's width, or the draw's own in a
        narrowest plan. */
    uint32_t index_bytes;
};

/** Zero everything. */
void vfetch_prim_run_params_init(struct vfetch_prim_run_params *params);

/**
 * Write a draw's indices. Checks first, then writes: VFETCH_EINVAL (NULL plan or params, NULL
 * or misaligned out with indices to write), VFETCH_EOVERFLOW (the index count does not fit a
 * size_t), VFETCH_EPRIM_INDEX_RANGE (an index the draw writes would not fit the output width,
 * or would equal the restart index: base_index + count - 1, times 4 plus 3 where expanded,
 * must stay below it), VFETCH_ESHORT_OUTPUT (out_capacity below vfetch_prim_index_count). On
 * error nothing is written and *result is untouched. result may be NULL.
 *
 * With an index buffer, in this order: VFETCH_EINVAL (as above, or NULL indices with entries
 * to read; indices given to a plan without an index buffer), VFETCH_EOVERFLOW (the entries'
 * bytes do not fit a size_t), VFETCH_ESHORT_INDICES (indices_size below count entries),
 * VFETCH_ESHORT_OUTPUT (out_capacity below vfetch_prim_index_count(plan, count): the most a
 * draw of count entries writes; restart writes fewer), VFETCH_EPRIM_INDEX_RANGE (base_index +
 * the largest entry, less the smallest in range mode, above the width's all-ones value, or
 * equal to the host's restart index where the plan writes one).
 */
int vfetch_prim_run(const vfetch_prim_plan *plan, const struct vfetch_prim_run_params *params,
                    struct vfetch_prim_result *result);

/**
 * An emulator's batch between two flushes, as Dolphin's vertex manager keeps one: the host
 * vertex records and host indices of the draws appended since the batch was last flushed. The
 * emulator owns both buffers, flushes (draws the batch on the host) when it wants, and then
 * sets the used figures and record_stride to 0. A batch holds records of one stride (a draw of
 * another stride finds it full: a run of GX commands stops there too); a draw's host indices
 * count from vertex_count, its records go at vertices_used. Every family's one-call draws
 * append to it (vfetch_gx_state_draw_batch, vfetch_r300_draw_indexed,
 * vfetch_maxwell_draw_indexed). Formats of the same stride and another
 * vertex declaration share a batch unless the emulator flushes between them, as Dolphin
 * flushes when its native vertex format changes.
 */
struct vfetch_batch {
    /** The host vertex buffer, vertices_capacity bytes. */
    void *vertices;
    size_t vertices_capacity;
    /** Bytes of records in it: where the next draw's records go. */
    size_t vertices_used;
    /** Records in it: the next draw's first host index (Dolphin's base index). */
    uint32_t vertex_count;
    /** The bytes from one of its records to the next, set by its first draw (0 while it
        holds none): a draw of another stride finds it full (VFETCH_EBATCH_FULL). */
    uint32_t record_stride;
    /** The host index buffer, aligned to the index width, indices_capacity indices (not
        bytes). */
    void *indices;
    size_t indices_capacity;
    /** Indices in it: where the next draw's indices go. */
    size_t indices_used;
};

/**
 * What an indexed draw appended to a batch (vfetch_r300_draw_indexed,
 * vfetch_maxwell_draw_indexed): the same figures for every family. Written only on success.
 */
struct vfetch_draw_result {
    /** Host vertices (records) appended: the guest records the draw's entries name, from the
        smallest entry's to the largest's, converted once each. 0 for a draw with no entry
        but restart entries. */
    uint32_t vertices;
    /** Host indices appended (restart writes fewer than vfetch_prim_index_count). */
    size_t indices;
    /** The draw's smallest and largest entry, restart entries aside, as vfetch_prim_run's
        range mode reports them: 1 and 0 where there is none (an empty range). The first
        record appended is the guest record of min_index (with the run's index offset). */
    uint32_t min_index, max_index;
};

#ifdef __cplusplus
}
#endif

#endif
