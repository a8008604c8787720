/*
 * The primitive family's internals (vfetch/prim.h, docs/prim.md): the reference (the oracle,
 * one direct loop per primitive and option), the affine programs the fast path runs, the
 * kernel table and the plan. Not installed.
 */
#ifndef VFETCH_PRIM_INTERNAL_H
#define VFETCH_PRIM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ladder.h"
#include "vfetch/prim.h"

/** The primitives the generators know, whatever front-end named them. */
enum prim_kind {
    /* GX's, in Dolphin's orders */
    PRIM_QUADS,
    PRIM_TRIANGLES,
    PRIM_TRIANGLE_STRIP,
    PRIM_TRIANGLE_FAN,
    PRIM_LINES,
    PRIM_LINE_STRIP,
    PRIM_POINTS,
    /* R300's (VAP_VF_CNTL PRIM_TYPE) and Maxwell's, in Mesa's u_indices orders: lists out,
       the provoking vertex converted */
    PRIM_M_POINTS,
    PRIM_M_LINES,
    PRIM_M_LINE_STRIP,
    PRIM_M_LINE_LOOP,
    PRIM_M_TRIANGLES,
    PRIM_M_TRIANGLE_STRIP,
    PRIM_M_TRIANGLE_FAN,
    PRIM_M_QUADS,
    PRIM_M_QUAD_STRIP,
    PRIM_M_POLYGON,
    /* Maxwell's adjacency primitives, passed through (lists: the provoking vertex converted as
       Mesa does; a line strip converted to a list where it must be) */
    PRIM_M_LINES_ADJ,
    PRIM_M_LINE_STRIP_ADJ,
    PRIM_M_TRIANGLES_ADJ,
    PRIM_M_TRIANGLE_STRIP_ADJ,
    /* a fan the host draws (host_fans), passed through */
    PRIM_M_FAN_AS_IS,
    PRIM_KINDS
};

/** A draw as the generators see it: the kind and the options that change the order. */
struct prim_mode {
    enum prim_kind kind;
    int restart;  /* strips ended by the restart index */
    int expand;   /* lines and points: index = vertex * 4 + corner */
    int wide;     /* 32-bit indices */
    int pv_in_last;  /* R300, Maxwell: the guest's provoking vertex is the last */
    int pv_out_last; /* R300, Maxwell: the host's */
    int drop;        /* GX: incomplete primitives dropped, not drawn as Dolphin draws them */
    int yuzu;        /* Maxwell: a quad strip in yuzu's order */
};

/** Mesa's trimming of a draw of `count` vertices to its whole primitives (u_trim_pipe_prim). */
static inline uint32_t vfetch_prim_mesa_trim(enum prim_kind kind, uint32_t count)
{
    switch (kind) {
    case PRIM_M_LINES: return count - count % 2;
    case PRIM_M_LINE_STRIP:
    case PRIM_M_LINE_LOOP: return count < 2 ? 0 : count;
    case PRIM_M_TRIANGLES: return count - count % 3;
    case PRIM_M_TRIANGLE_STRIP:
    case PRIM_M_TRIANGLE_FAN:
    case PRIM_M_FAN_AS_IS:
    case PRIM_M_POLYGON: return count < 3 ? 0 : count;
    case PRIM_M_QUADS: return count - count % 4;
    case PRIM_M_QUAD_STRIP: return count < 4 ? 0 : count - count % 2;
    case PRIM_M_LINES_ADJ: return count - count % 4;
    case PRIM_M_LINE_STRIP_ADJ: return count < 4 ? 0 : count;
    case PRIM_M_TRIANGLES_ADJ: return count - count % 6;
    case PRIM_M_TRIANGLE_STRIP_ADJ: return count < 6 ? 0 : count - count % 2;
    default: return count;
    }
}

/** The reference: the draw's indices into out (NULL: only count them); returns how many.
    Values are computed in 64 bits and stored truncated to the width (the caller checked the
    range). */
size_t vfetch_prim_ref(const struct prim_mode *m, uint32_t count, uint32_t base, void *out);

/** A guest index buffer's format (vfetch_prim_desc's guest_* fields). */
struct prim_guest {
    uint32_t bytes;         /* 1, 2 or 4 */
    uint32_t big;           /* big-endian entries */
    uint32_t restart;       /* entries equal to restart_index are primitive restart */
    uint32_t restart_index;
};

/** Whether an entry of g's width can hold its restart index at all. */
static inline int vfetch_prim_index_fits(const struct prim_guest *g)
{
    return g->bytes == 4 || g->restart_index >> (8 * g->bytes) == 0;
}

/** Whether an entry can be a restart entry: restart on, and its index within the width. */
static inline int vfetch_prim_restart_fits(const struct prim_guest *g)
{
    return g->restart && vfetch_prim_index_fits(g);
}

/** Entry i of a guest index buffer, zero-extended. */
static inline uint32_t vfetch_prim_entry(const void *in, const struct prim_guest *g, size_t i)
{
    const uint8_t *p = (const uint8_t *)in + i * g->bytes;
    switch (g->bytes) {
    case 1: return p[0];
    case 2: return g->big ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
    default:
        return g->big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
                      : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
    }
}

/** The reference for a draw through a guest index buffer of `count` entries: each run of
    entries between restart entries drawn as its own draw of consecutive vertices, whose
    vertex k is the run's entry k plus `delta` (mod 2^32); or, with `pass_restart` (a strip
    drawn as it is), every entry plus delta and restart entries as `host_restart`. */
size_t vfetch_prim_ref_indexed(const struct prim_mode *m, const struct prim_guest *g,
                               int pass_restart, const void *in, uint32_t count, uint32_t delta,
                               uint32_t host_restart, void *out);

/* The most indices of a group (VS-expanded lines: 6). */
#define PRIM_GROUP_MAX 6

/*
 * A draw's indices as groups of one pattern: group g (g = 0 .. groups - 1) writes `per_group`
 * indices, index j being the restart index where restart_lanes has bit j, else
 * scale * base + start[j] + g * step[j]. Every primitive is such a run of groups followed by a
 * short tail (prim_tail): the fast path writes the groups by vectors.
 */
struct prim_program {
    uint32_t per_group;
    uint32_t restart_lanes;
    uint32_t scale; /* 1, or 4 where an index is vertex * 4 + corner */
    int32_t start[PRIM_GROUP_MAX];
    int32_t step[PRIM_GROUP_MAX];
};

/** The program of a mode. */
void vfetch_prim_program(const struct prim_mode *m, struct prim_program *p);

/** How many whole groups of its program a draw of `count` vertices has. */
static inline uint64_t vfetch_prim_groups(const struct prim_mode *m, uint32_t count)
{
    const uint64_t n = count;
    switch (m->kind) {
    case PRIM_QUADS: return n / 4;
    case PRIM_TRIANGLES: return n / 3;
    case PRIM_TRIANGLE_STRIP:
        return m->restart ? (m->drop && n < 3 ? 0 : n) : n >= 3 ? (n - 2) / 2 : 0;
    case PRIM_TRIANGLE_FAN: return n < 3 ? 0 : m->restart ? (n - 2) / 3 : n - 2;
    case PRIM_LINES: return n / 2;
    case PRIM_LINE_STRIP: return n >= 2 ? n - 1 : 0;
    case PRIM_POINTS: return n;
    default: break;
    }
    /* R300, Maxwell: after Mesa's trimming */
    const uint64_t t = vfetch_prim_mesa_trim(m->kind, count);
    switch (m->kind) {
    case PRIM_M_POINTS: return t;
    case PRIM_M_LINES: return t / 2;
    case PRIM_M_LINE_STRIP:
    case PRIM_M_LINE_LOOP: return t ? t - 1 : 0;
    case PRIM_M_TRIANGLES: return t / 3;
    case PRIM_M_TRIANGLE_STRIP: return t ? (t - 2) / 2 : 0; /* two triangles a group */
    case PRIM_M_TRIANGLE_FAN:
    case PRIM_M_POLYGON: return t ? t - 2 : 0;
    case PRIM_M_QUADS: return t / 4;
    case PRIM_M_QUAD_STRIP: return t ? (t - 2) / 2 : 0;
    case PRIM_M_LINES_ADJ: return t / 4;
    case PRIM_M_LINE_STRIP_ADJ: /* as it is, or a list of its segments */
        return m->pv_in_last == m->pv_out_last ? t : t ? t - 3 : 0;
    case PRIM_M_TRIANGLES_ADJ: return t / 6;
    case PRIM_M_TRIANGLE_STRIP_ADJ: /* as it is */
    case PRIM_M_FAN_AS_IS: return t;
    default: return 0;
    }
}

/* The widest vector a level's kernel writes: 64 bytes (avx512). */
#define PRIM_VEC_BYTES 64

/**
 * A program laid out for a kernel of `lanes` indices a vector: one block = `lanes` groups =
 * per_group vectors; vector k's lane l is index k * lanes + l of the block, its value at block
 * 0 (restart lanes hold the restart index), what a block adds to it (0 on restart lanes), and
 * an all-ones mask on the lanes that take the base (not the restart ones).
 */
struct prim_vectors {
    /* vector k at byte k * the level's vector size: the block's indices one after another */
    _Alignas(64) uint8_t first[PRIM_GROUP_MAX * PRIM_VEC_BYTES];
    _Alignas(64) uint8_t step[PRIM_GROUP_MAX * PRIM_VEC_BYTES];
    _Alignas(64) uint8_t takes_base[PRIM_GROUP_MAX * PRIM_VEC_BYTES];
    uint32_t per_group;
    uint32_t lanes; /* groups a block: indices a vector */
};

/** A level's kernels: groups 0 .. groups - 1 (whole blocks stored as they are, the last part
    of a block through a copy on the stack: nothing past them is written), `base` (scale *
    base_index) added to the lanes that take it. They return 0 (VFETCH_OK), so that a draw
    can end in them. */
typedef int vfetch_prim_blocks_fn(const struct prim_vectors *v, uint32_t base, size_t groups,
                                  void *out);

/** The first n indices of a draw within the first block. */
typedef int vfetch_prim_small_fn(const struct prim_vectors *v, uint32_t base, size_t n, int wide,
                                 void *out);

/* Draws of fewer vertices than this take the tiny way: a table per vertex count. */
#define PRIM_TINY 32

/*
 * A vertex count's draw on the tiny way (vfetch_prim_run): `body` indices of the program's
 * first block (the small kernel), then `tail_n` more, each tail[i] plus the base where
 * tail_takes has bit i (else the restart index as it is); `top`: the highest index at base 0
 * (scale * last vertex + scale - 1), which base * scale plus it must keep within the plan's
 * limit; PRIM_TINY_NONE where the count takes another way (compile checks every count's
 * indices at base 0 against the reference, and gives any that differ none).
 */
struct prim_tiny {
    uint64_t top;
    uint16_t body;
    uint8_t tail_n, tail_takes;
    uint32_t tail[5];
};
#define PRIM_TINY_NONE (1ull << 40)

/** A guest index buffer's smallest and largest entries (restart entries aside where g->restart):
    *min, *max (UINT32_MAX and 0 where there is none); returns nonzero if a restart entry was
    seen. */
typedef int vfetch_prim_scan_fn(const void *in, size_t count, const struct prim_guest *g,
                                uint32_t *min, uint32_t *max);

/** Entries 0 .. count - 1 of a guest index buffer to indices of 16 or 32 bits (wide): each
    entry plus delta (mod 2^32, then the width), restart entries (where g->restart) as
    host_restart. With `range`, also the smallest and largest entry converted, restart entries
    aside, as the scan finds them (UINT32_MAX and 0 where there is none), so that a draw whose
    range cannot fail needs no scan of its own. */
typedef void vfetch_prim_convert_fn(const void *in, size_t count, const struct prim_guest *g,
                                    uint32_t delta, uint32_t host_restart, int wide, void *out,
                                    uint32_t *range);

/** The first restart entry (g->restart_index, its width able to hold it) of entries i ..
    count - 1, or count. */
typedef uint32_t vfetch_prim_find_fn(const void *in, const struct prim_guest *g, uint32_t i,
                                     uint32_t count);

/** The scan's and the search's references (and the reference level's). */
vfetch_prim_scan_fn vfetch_prim_scan_ref;
vfetch_prim_find_fn vfetch_prim_find_ref;

struct vfetch_prim_dsp {
    vfetch_prim_blocks_fn *blocks16, *blocks32;
    vfetch_prim_small_fn *small;
    vfetch_prim_scan_fn *scan;
    vfetch_prim_convert_fn *convert;
    vfetch_prim_find_fn *find;
    uint32_t vec_bytes; /* bytes a vector (0: no kernel, the reference runs) */
    const char *level;
};

VFETCH_LADDER_DECLARE(vfetch_prim_init, struct vfetch_prim_dsp);
VFETCH_LADDER_DECLARE(vfetch_prim_index_init, struct vfetch_prim_dsp);
void vfetch_prim_dsp_init(struct vfetch_prim_dsp *dsp, unsigned allowed);

struct vfetch_prim_plan {
    struct vfetch_prim_desc desc;
    /* A narrowest plan: its 16-bit twin, tried first (the rest of this plan is the widest's) */
    struct vfetch_prim_plan *narrow;
    struct prim_mode mode;
    struct prim_program program;
    enum vfetch_prim_topology topology;
    uint32_t restart_index; /* the width's all ones, with restart; else 0 */
    vfetch_prim_blocks_fn *blocks; /* the level's kernel for the width, or NULL */
    vfetch_prim_small_fn *small;
    /* A draw's shape without a switch (vfetch_prim_run's short way): groups = count >=
       group_min ? (count - group_off) * group_magic >> 33 : 0 (an exact division by 1 to 4);
       its last vertex count - 1, or groups * group_vertices - 1 where group_vertices is set
       (lists); its tail the restart index alone (restart_tail), none, or one the general way
       takes (tail_varies: QUADS where count % 4 is 3, a strip without restart, a fan with) */
    uint32_t group_min, group_off, group_vertices;
    uint64_t group_magic;
    uint8_t restart_tail, tail_varies;
    uint32_t limit; /* the highest index the width allows (below the restart index) */
    uint32_t index_bytes; /* 2 or 4 */
    uint32_t odd_base;    /* 1: a draw from an odd base does not take the tiny way */
    struct prim_tiny tiny[PRIM_TINY];
    const char *level;
    /* A guest index buffer (guest.bytes nonzero): its format; range mode; `identity`: the
       program writes vertex k as index k (lists whose provoking vertices agree, points,
       strips drawn as they are), which the convert kernel writes; `pass_restart`: a strip
       drawn as it is whose restart entries become the host's restart index */
    struct prim_guest guest;
    uint8_t range, identity, pass_restart;
    vfetch_prim_scan_fn *scan;
    vfetch_prim_convert_fn *convert;
    vfetch_prim_find_fn *find;
    struct prim_vectors vectors; /* the program laid out for the kernel */
};

/** The most indices a draw of `count` vertices (or entries) writes, in 64 bits. */
uint64_t vfetch_prim_plan_count(const vfetch_prim_plan *plan, uint32_t count);

/** A draw's entries checked as vfetch_prim_run checks them after its output's: VFETCH_EINVAL
    (NULL indices with entries to read), VFETCH_EOVERFLOW (their bytes, or on 32-bit hosts
    the bytes of `bound` indices, past SIZE_MAX), VFETCH_ESHORT_INDICES (lib/prim/indexed.c). */
int vfetch_prim_check_entries(const vfetch_prim_plan *plan, const void *indices,
                              size_t indices_size, uint32_t count, uint64_t bound);

/** A checked and scanned draw's indices into out (room for `bound` of them, its
    vfetch_prim_plan_count; every index in range): each entry plus delta (base_index, less the
    smallest entry in range mode), restarted where the scan saw a restart entry. Returns how
    many it wrote. */
size_t vfetch_prim_write_entries(const vfetch_prim_plan *plan, const void *indices,
                                 uint32_t count, uint64_t bound, uint32_t delta, int restarted,
                                 void *out);

/** vfetch_prim_run for a plan with a guest index buffer (lib/prim/indexed.c). */
int vfetch_prim_run_indexed(const vfetch_prim_plan *plan,
                            const struct vfetch_prim_run_params *params,
                            struct vfetch_prim_result *result);

#endif
