/*
 * The CP vertex state's innards (lib/gx/state.c), shared with the batched draw
 * (lib/gx/batch.c), which reads a format's plan, its primitive's plan and the draw parameters
 * without a call each. Not installed.
 */
#ifndef VFETCH_GX_STATE_H
#define VFETCH_GX_STATE_H

#include <string.h>

#include "gx/gx_internal.h"
#include "prim/prim_internal.h"
#include "vfetch/prim.h"

#define GX_NUM_FORMATS 8
/* Formats kept compiled (games switch between a few: the real Wii captures the gx-fifo test
   replays use three). */
#define GX_CACHE_SIZE 32

/* What a format compiles from besides the state's options: 32 bytes, no padding (compared
   with memcmp). */
struct gx_key {
    uint32_t vcd_lo, vcd_hi, vat_a, vat_b, vat_c;
    uint8_t array_stride[VFETCH_GX_NUM_ATTRS];
};
_Static_assert(sizeof(struct gx_key) == 32, "gx_key: 32 bytes, no padding");

/* Keys compared as four 64-bit words (a format switch looks its key up in the cache: a
   memcmp call per entry cost more than the compare). */
static inline int gx_key_equal(const struct gx_key *a, const struct gx_key *b)
{
    uint64_t x[4], y[4];
    memcpy(x, a, sizeof x);
    memcpy(y, b, sizeof y);
    return !((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2]) | (x[3] ^ y[3]));
}

/* A compiled format, shared by the cache and the formats currently using it. */
struct gx_shared_plan {
    vfetch_gx_plan *plan;
    unsigned refs;
};

/* A GX primitive's plan under the state's index options, with what a batched draw checks:
   the index width in bytes, the scale (4 where lines and points are expanded, else 1: host
   index = vertex * scale + corner), and the most indices a draw of each count below
   GX_PRIM_COUNTS writes (vfetch_prim_index_count). */
#define GX_PRIM_COUNTS 64
struct gx_prim_slot {
    vfetch_prim_plan *plan;
    uint8_t width, scale;
    uint16_t most[GX_PRIM_COUNTS];
    /* The short way's figures, as the generated batched draw reads them (lib/jit/x86_batch.c):
       the width as a qword and its low bits (an index buffer's address has none of them), the
       most records a batch may hold (vertex_count + count up to this keeps every host index
       below the width's all-ones value), the base's factor (scale; for 16-bit lanes also copied into the upper
       half of each 32-bit lane), and each count's short-way indices: short_counts has bit n
       where a draw of n vertices (1 to PRIM_TINY - 1) has a tiny entry without a tail, of
       body[n] indices, body_bytes[n] bytes. */
    uint64_t index_bytes, width_mask, most_vertices;
    uint32_t spread, short_counts;
    uint16_t body_bytes[PRIM_TINY];
    uint8_t body[PRIM_TINY];
};

/* A draw command ready for a batched draw (vfetch_gx_state_draw_batch): its format's batched
   draw (the generated entry, the C way, or the two compared), the format and the primitive's
   slot. Made on the command's first draw after its format or primitive changed; cleared where
   either may change (a write changing its VAT's format, new index options). */
struct gx_ready {
    vfetch_jit_gx_batch_fn *draw;
    const vfetch_gx_plan *plan;
    const struct gx_prim_slot *slot;
};

struct vfetch_gx_state {
    struct vfetch_gx_state_params params;
    uint32_t matindex[2];
    uint32_t vcd_lo, vcd_hi;
    uint32_t vat[3][GX_NUM_FORMATS]; /* A, B, C */
    uint32_t array_base[16], array_stride[16];
    struct gx_shared_plan *plan[GX_NUM_FORMATS];
    /* Each VAT's format while no register it depends on changed since it was looked up, else
       NULL: a draw's lookup is one load. */
    const vfetch_gx_plan *current[GX_NUM_FORMATS];
    uint64_t compiles;
    /* The cache, first in first out: entry cache_next is replaced next. */
    struct gx_key cache_key[GX_CACHE_SIZE];
    struct gx_shared_plan *cache_plan[GX_CACHE_SIZE];
    unsigned cache_used, cache_next;
    /* Guest memory (vfetch_gx_state_map_memory) and the draw parameters vfetch_gx_state_draw
       passes: the arrays resolved from ARRAY_BASE when a base or the memory changes, so that
       a draw stores only what changes per draw. */
    struct {
        uint32_t guest;
        const uint8_t *host;
        size_t size;
    } region[VFETCH_GX_MAX_REGIONS];
    struct vfetch_gx_run_params draw;
    /* Batched draws (lib/gx/batch.c): the index options, and each GX primitive's plan made
       from them on its first draw (by the command's bits 5:3). */
    struct vfetch_gx_index_options index_options;
    struct gx_prim_slot prim[8];
    struct gx_ready ready[64]; /* by command - 0x80 */
    uint64_t ready_set;        /* the entries of ready[] made ready: bit command - 0x80 */
};

/* The entries of ready[] in `entries` no longer ready: those made ready among them cleared. */
static inline void gx_state_unready_set(vfetch_gx_state *state, uint64_t entries)
{
    uint64_t set = state->ready_set & entries;
    state->ready_set &= ~set;
    for (; set; set &= set - 1)
        state->ready[__builtin_ctzll(set)].draw = NULL;
}

/* A VAT's format may change: its commands are no longer ready. */
static inline void gx_state_unready(vfetch_gx_state *state, unsigned vat)
{
    gx_state_unready_set(state, UINT64_C(0x0101010101010101) << vat); /* every primitive's */
}

/* Every format may change (VCD, new index options): no command is ready. Only the entries
   made ready are cleared: a game writes VCD between draws, and clearing the whole table each
   time cost more than the draw (the real captures' replay). */
static inline void gx_state_unready_all(vfetch_gx_state *state)
{
    gx_state_unready_set(state, UINT64_MAX);
}

/* A VAT's format where no register it depends on changed, else NULL. */
static inline const vfetch_gx_plan *gx_state_current(const vfetch_gx_state *state, unsigned vat)
{
    return state->current[vat];
}

/* A draw of a format: the five values that change stored into the state's parameters, then
   the generated code where the plan runs it directly (as vfetch_gx_run would, without its
   hop), else vfetch_gx_run (plan->draw, either). */
static inline int gx_state_draw_with(vfetch_gx_state *state, const vfetch_gx_plan *plan,
                                     const void *vertices, size_t vertices_size, uint32_t count,
                                     void *out, size_t out_size, struct vfetch_gx_result *result)
{
    struct vfetch_gx_run_params *p = &state->draw;
    p->vertices = vertices;
    p->vertices_size = vertices_size;
    p->count = count;
    p->out = out;
    p->out_size = out_size;
    return plan->draw(plan, p, result);
}

/** A batched draw whose format (`plan`, current) and primitive slot are looked up, its vertices,
    bytes and count in `p` (the state's draw parameters): the C way of the draw (lib/gx/batch.c), and where the generated code's batch
    entry hands every draw it does not take. */
int vfetch_gx_batch_draw(const vfetch_gx_plan *plan, struct vfetch_gx_run_params *p,
                         struct vfetch_batch *batch, const struct gx_prim_slot *slot,
                         struct vfetch_gx_batch_result *result);

/** A batched draw of a command that is not ready (lib/gx/batch.c): the batch's figures checked,
    the format and primitive looked up, the command made ready, then its draw run. */
int vfetch_gx_state_draw_unready(vfetch_gx_state *state, uint8_t command,
                                 struct vfetch_batch *batch, struct vfetch_gx_batch_result *result);

/* A batched draw of a valid command (0x80-0xBF): the draw's vertices, bytes and count stored
   into the state's draw parameters (every way reads them there), then the command's batched
   draw, where it is ready. */
static inline int gx_state_draw_batch_with(vfetch_gx_state *state, uint8_t command,
                                           const void *vertices, size_t vertices_size,
                                           uint32_t count, struct vfetch_batch *batch,
                                           struct vfetch_gx_batch_result *result)
{
    struct vfetch_gx_run_params *p = &state->draw;
    p->vertices = vertices;
    p->vertices_size = vertices_size;
    p->count = count;
    const struct gx_ready *r = &state->ready[command - 0x80];
    if (r->draw)
        return r->draw(r->plan, p, batch, r->slot, result);
    return vfetch_gx_state_draw_unready(state, command, batch, result);
}

/** The end of the generated batched draw of a format with indexed attributes (lib/jit/
    x86_batch.c), its records written with `skipped` vertices skipped: the indices of the
    records written, the batch's figures, the result. Returns 0. */
int vfetch_gx_batch_finish(const vfetch_gx_plan *plan, struct vfetch_gx_run_params *p,
                           struct vfetch_batch *batch, const struct gx_prim_slot *slot,
                           struct vfetch_gx_batch_result *result, uint32_t skipped);

/** The indices of a direct format's batched draw of PRIM_TINY vertices or more, every other
    check of both halves passed (the generated batched draw's long way, lib/jit/x86_batch.c,
    before it converts the vertices): the indices' room for the count's most, then the indices
    of all `p->count` records, as vfetch_gx_batch_draw writes them. Returns how many, or
    VFETCH_EBATCH_FULL with nothing written. */
int64_t vfetch_gx_batch_long_indices(const vfetch_gx_plan *plan,
                                     const struct vfetch_gx_run_params *p,
                                     const struct vfetch_batch *batch,
                                     const struct gx_prim_slot *slot);

/** Make the primitive slot of draw command `command` (0x80-0xBF) under the state's index
    options where it has no plan yet: 0, or the compile's error (VFETCH_ENOMEM). */
int vfetch_gx_state_prim_slot(vfetch_gx_state *state, uint8_t command);

#endif
