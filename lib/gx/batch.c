/*
 * One guest draw command into an emulator's batch (vfetch_gx_state_draw_batch, docs/gx.md,
 * "One call per guest draw"): the vertices converted as vfetch_gx_state_draw converts them,
 * then the host indices of the command's primitive over the records written, as
 * vfetch_prim_run writes them. Every check of both halves comes before the first byte: the
 * room in the batch for all of the draw's vertices and the most indices they can take, and the
 * host indices' range, then the vertex draw's own checks, which it makes before it writes; the
 * indices of the records it wrote (fewer where vertices are skipped) then fit by construction,
 * so that a short draw's indices are written here from its count's entry in the primitive
 * plan's tiny table, without the primitive family's checks (lib/prim/compile.c, run_tiny).
 * The state's format plan, primitive plan (with its width and index counts) and draw
 * parameters are read in place (lib/gx/state.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simde/x86/sse2.h>

#include "gx/state.h"
#include "prim/prim_internal.h"

/* A draw whose format must be looked up again, or whose primitive has no plan yet: out of line,
   so that the common draw has no frame for it. */
static __attribute__((noinline)) int prepare(vfetch_gx_state *state, uint8_t command)
{
    const vfetch_gx_plan *plan;
    const int err = vfetch_gx_state_plan(state, command & 7u, &plan);
    return err ? err : vfetch_gx_state_prim_slot(state, command);
}

/* The first `bytes` bytes of the primitive's first block at base 0 (its indices one after
   another), plus the base `b` (in every lane) on the lanes that take it, 16 bytes at a time,
   the last 2 to 14 as 8, 4 and 2: nothing past them is written (the block's tables are read
   to the next 16 bytes: they are the block's whole vectors). */
static inline void put_first(const struct prim_vectors *v, simde__m128i b, int wide,
                             size_t bytes, uint8_t *out)
{
    for (size_t at = 0; at < bytes; at += 16) {
        const simde__m128i first = simde_mm_loadu_si128((const void *)(v->first + at));
        const simde__m128i takes = simde_mm_loadu_si128((const void *)(v->takes_base + at));
        const simde__m128i t = simde_mm_and_si128(b, takes);
        simde__m128i x = wide ? simde_mm_add_epi32(first, t) : simde_mm_add_epi16(first, t);
        const size_t left = bytes - at;
        if (left >= 16) {
            simde_mm_storeu_si128((void *)(out + at), x);
            continue;
        }
        uint8_t *o = out + at;
        if (left & 8) {
            simde_mm_storel_epi64((void *)o, x);
            x = simde_mm_srli_si128(x, 8);
            o += 8;
        }
        const uint32_t low = (uint32_t)simde_mm_cvtsi128_si32(x);
        if (left & 4) {
            memcpy(o, &low, 4);
            if (left & 2)
                memcpy(o + 4, &(uint16_t){ (uint16_t)simde_mm_extract_epi16(x, 2) }, 2);
        } else if (left & 2)
            memcpy(o, &(uint16_t){ (uint16_t)low }, 2);
        return;
    }
}

/* A short draw's tail after its body: each value plus the base where it takes it, else the
   restart index as it is. Out of line: most short draws have none. */
static __attribute__((noinline)) void put_tail(const struct prim_tiny *t, uint32_t base,
                                               size_t width, uint8_t *out)
{
    for (unsigned i = 0; i < t->tail_n; i++) {
        const uint32_t v = t->tail[i] + (t->tail_takes >> i & 1 ? base : 0);
        if (width == 4)
            memcpy(out + (t->body + i) * 4, &v, 4);
        else
            memcpy(out + (t->body + i) * 2, &(uint16_t){ (uint16_t)v }, 2);
    }
}

/* A short draw's indices from its count's tiny entry (which the plan has for every count below
   PRIM_TINY whose indices it checked against the reference): the body, then the tail.
   Returns how many. */
static inline size_t put_tiny(const vfetch_prim_plan *prim, const struct prim_tiny *t,
                              uint32_t base, uint8_t *out)
{
    const size_t width = prim->index_bytes;
    const simde__m128i b = width == 4 ? simde_mm_set1_epi32((int32_t)base)
                                      : simde_mm_set1_epi16((int16_t)base);
    put_first(&prim->vectors, b, width == 4, t->body * width, out);
    if (t->tail_n)
        put_tail(t, base, width, out);
    return (size_t)t->body + t->tail_n;
}

/* Any other count: the primitive family's own draw (its checks pass: the batch's cover them). */
static __attribute__((noinline)) size_t put_general(const vfetch_prim_plan *prim, uint32_t count,
                                                    uint32_t base, void *out, size_t capacity)
{
    struct vfetch_prim_run_params q;
    q.count = count;
    q.base_index = base;
    q.out = out;
    q.out_capacity = capacity;
    q.indices = NULL;
    q.indices_size = 0;
    struct vfetch_prim_result written;
    return vfetch_prim_run(prim, &q, &written) ? 0 : written.written;
}

/* The indices of a draw's `written` records: from the count's tiny entry where it has one,
   else the primitive family's own draw. */
static inline size_t put_indices(const struct gx_prim_slot *slot, uint32_t written,
                                 uint32_t base, uint8_t *out, size_t capacity)
{
    const vfetch_prim_plan *prim = slot->plan;
    const struct prim_tiny *t = &prim->tiny[written < PRIM_TINY ? written : 0];
    return written < PRIM_TINY && t->top != PRIM_TINY_NONE
               ? put_tiny(prim, t, slot->scale * base, out)
               : put_general(prim, written, base, out, capacity);
}

/* The most indices a draw of `count` vertices writes. */
static inline uint64_t slot_most(const struct gx_prim_slot *slot, uint32_t count)
{
    return count < GX_PRIM_COUNTS ? slot->most[count]
                                  : vfetch_prim_index_count(slot->plan, count);
}

/* Whether a batch of `base` records takes `count` more: every host index of its vertices
   (vertex * scale + corner) below the width's all-ones value. */
static inline int slot_holds(const struct gx_prim_slot *slot, uint32_t base, uint32_t count)
{
    return (uint64_t)base + count <= slot->most_vertices;
}

/* The batch's figures after a draw of `written` records and `put` indices, and the result. */
static inline void appended(struct vfetch_batch *batch, uint32_t written, uint32_t stride,
                            size_t put, const struct vfetch_gx_result *drawn,
                            struct vfetch_gx_batch_result *result)
{
    batch->vertices_used += (size_t)written * stride;
    batch->vertex_count += written;
    if (written)
        batch->record_stride = stride;
    batch->indices_used += put;
    if (result) {
        result->vertices = written;
        result->skipped = drawn->skipped;
        result->clamped = drawn->clamped;
        result->indices = put;
    }
}

/* The checked way, each check in the documented order after the format's lookup (its errors
   come before these): the vertices, then the indices of the records written. */
static __attribute__((noinline)) int draw_checked(const vfetch_gx_plan *plan,
                                                  struct vfetch_gx_run_params *p,
                                                  struct vfetch_batch *batch,
                                                  const struct gx_prim_slot *slot,
                                                  struct vfetch_gx_batch_result *result)
{
    const uint32_t count = p->count;
    const size_t width = slot->width;
    const uint64_t most = slot_most(slot, count);
    /* the buffers where room is asked of them (no offset is taken from a NULL one) */
    if ((count && !batch->vertices) || (most && !batch->indices))
        return VFETCH_EINVAL;
    uint8_t *const records = count ? (uint8_t *)batch->vertices + batch->vertices_used : NULL;
    uint8_t *const indices = most ? (uint8_t *)batch->indices + batch->indices_used * width : NULL;
    if ((uintptr_t)indices & (width - 1))
        return VFETCH_EINVAL;
    /* room for every vertex's record and the most indices, and host indices within the width */
    const size_t room = batch->vertices_capacity - batch->vertices_used;
    const uint32_t base = batch->vertex_count;
    const uint32_t stride = plan->out_stride;
    if ((base && batch->record_stride != stride) || (uint64_t)count * stride > room ||
        most > batch->indices_capacity - batch->indices_used ||
        (count && !slot_holds(slot, base, count)))
        return VFETCH_EBATCH_FULL;
    p->out = records;
    p->out_size = room;
    struct vfetch_gx_result drawn;
    const int err = vfetch_gx_run(plan, p, &drawn);
    if (err)
        return err;
    const uint32_t written = drawn.written;
    const size_t put = put_indices(slot, written, base, indices,
                                   batch->indices_capacity - batch->indices_used);
    appended(batch, written, stride, put, &drawn, result);
    return VFETCH_OK;
}

/* The vertices of a draw on the short way where the generated code does not take them:
   their own draw, its result copied into the batch's. */
static __attribute__((noinline)) int short_vertices(const vfetch_gx_plan *plan,
                                                    struct vfetch_gx_run_params *p,
                                                    struct vfetch_gx_batch_result *result)
{
    struct vfetch_gx_result drawn;
    const int err = vfetch_gx_run(plan, p, &drawn);
    if (result) {
        result->vertices = drawn.written;
        result->skipped = drawn.skipped;
        result->clamped = drawn.clamped;
    }
    return err;
}

/* The indices of a draw's `written` records, the batch's figures and the result. */
static inline int finish(const vfetch_gx_plan *plan, struct vfetch_batch *batch,
                         const struct gx_prim_slot *slot, const struct vfetch_gx_result *drawn,
                         struct vfetch_gx_batch_result *result)
{
    const size_t iused = batch->indices_used;
    const size_t put = put_indices(slot, drawn->written, batch->vertex_count,
                                   (uint8_t *)batch->indices + iused * slot->width,
                                   batch->indices_capacity - iused);
    appended(batch, drawn->written, plan->out_stride, put, drawn, result);
    return VFETCH_OK;
}

int vfetch_gx_batch_finish(const vfetch_gx_plan *plan, struct vfetch_gx_run_params *p,
                           struct vfetch_batch *batch, const struct gx_prim_slot *slot,
                           struct vfetch_gx_batch_result *result, uint32_t skipped)
{
    const struct vfetch_gx_result drawn = { p->count - skipped, skipped, 0 };
    return finish(plan, batch, slot, &drawn, result);
}

int64_t vfetch_gx_batch_long_indices(const vfetch_gx_plan *plan,
                                     const struct vfetch_gx_run_params *p,
                                     const struct vfetch_batch *batch,
                                     const struct gx_prim_slot *slot)
{
    (void)plan;
    const uint32_t count = p->count;
    const size_t iused = batch->indices_used, iroom = batch->indices_capacity - iused;
    /* a GX primitive writes at most six indices a vertex (a point expanded to a quad's two
       triangles): the count's own figure only where the batch is that short of room */
    if ((uint64_t)count * 6 > iroom && slot_most(slot, count) > iroom)
        return VFETCH_EBATCH_FULL;
    return (int64_t)put_general(slot->plan, count, batch->vertex_count,
                                (uint8_t *)batch->indices + iused * slot->width, iroom);
}

/* The short way of a format with indexed attributes, its checks passed: the vertices first
   (some may be skipped, and an index out of its array fails the draw), then the indices of
   those written. */
static __attribute__((noinline)) int short_indexed(const vfetch_gx_plan *plan,
                                                   struct vfetch_gx_run_params *p,
                                                   struct vfetch_batch *batch,
                                                   const struct gx_prim_slot *slot,
                                                   struct vfetch_gx_batch_result *result)
{
    struct vfetch_gx_result drawn;
    const int err = vfetch_gx_run(plan, p, &drawn);
    return err ? err : finish(plan, batch, slot, &drawn, result);
}

/* The generated code writes its vfetch_gx_result into the batch's result in place. */
_Static_assert(offsetof(struct vfetch_gx_batch_result, vertices) ==
                       offsetof(struct vfetch_gx_result, written) &&
                   offsetof(struct vfetch_gx_batch_result, skipped) ==
                       offsetof(struct vfetch_gx_result, skipped) &&
                   offsetof(struct vfetch_gx_batch_result, clamped) ==
                       offsetof(struct vfetch_gx_result, clamped),
               "a batch result begins as a vertex draw's result");

/*
 * A draw whose format and primitive are looked up (the generated code's batch entry, lib/jit/
 * x86_batch.c, hands it every draw it does not take): the batch's used figures within their
 * capacities (VFETCH_EINVAL) first. The short way: a draw of any count but 0 whose every check
 * of both halves passes, the vertex draw's included (tested together: any failing one sends
 * the draw to the checked way, which reports the first in order). A direct format's vertex
 * draw cannot fail then, so its indices go first (from the count's tiny entry where it has
 * one, else the primitive family's own draw) and the draw ends in the vertex draw (a tail call
 * into the generated code, which writes the result's first three fields); a format with
 * indexed attributes draws its vertices first.
 */
int vfetch_gx_batch_draw(const vfetch_gx_plan *plan, struct vfetch_gx_run_params *p,
                         struct vfetch_batch *batch, const struct gx_prim_slot *slot,
                         struct vfetch_gx_batch_result *result)
{
    const uint32_t count = p->count;
    if (batch->vertices_used > batch->vertices_capacity ||
        batch->indices_used > batch->indices_capacity)
        return VFETCH_EINVAL;
    if (!count)
        return draw_checked(plan, p, batch, slot, result);
    const size_t vused = batch->vertices_used, iused = batch->indices_used;
    const size_t vroom = batch->vertices_capacity - vused, iroom = batch->indices_capacity - iused;
    const uint32_t stride = plan->out_stride, base = batch->vertex_count, width = slot->width;
    const uintptr_t indices = (uintptr_t)batch->indices + iused * width;
    if (!batch->vertices || !batch->indices || (indices & (width - 1)) ||
        (base && batch->record_stride != stride) || (uint64_t)count * stride > vroom ||
        slot_most(slot, count) > iroom || !slot_holds(slot, base, count) || !p->vertices ||
        (uint64_t)count * plan->format.vertex_size > p->vertices_size)
        return draw_checked(plan, p, batch, slot, result);
    p->out = (uint8_t *)batch->vertices + vused;
    p->out_size = vroom;
    if (plan->any_indexed) /* vertices may be skipped, or an index fail: they go first */
        return short_indexed(plan, p, batch, slot, result);
    batch->vertices_used = vused + (size_t)count * stride;
    batch->vertex_count = base + count;
    batch->record_stride = stride;
    const size_t put = put_indices(slot, count, base, (uint8_t *)indices, iroom);
    batch->indices_used = iused + put;
    if (result)
        result->indices = put;
    /* below the crossover the code takes every checked draw itself (none goes on to the
       portable tier with this result) */
    if (plan->jit_run && count < plan->jit_crossover) /* (the state's arrays: plan->draw) */
        return plan->draw(plan, p, (struct vfetch_gx_result *)(void *)result);
    return short_vertices(plan, p, result);
}

/* VFETCH_JIT=compare: the C way into the batch, the generated batched draw into copies of the
   bytes the draw may append (a twin batch whose buffers are the copies, its figures but the
   used ones the batch's): the same return, result, figures and bytes, or the process aborts
   with the first difference. */
static __attribute__((noinline)) int batch_compare(const vfetch_gx_plan *plan,
                                                   struct vfetch_gx_run_params *p,
                                                   struct vfetch_batch *batch,
                                                   const struct gx_prim_slot *slot,
                                                   struct vfetch_gx_batch_result *result)
{
    const uint32_t count = p->count;
    const size_t width = slot->width;
    const uint64_t most = slot_most(slot, count);
    /* the bytes the draw may append, where the batch has them */
    const size_t vroom = batch->vertices_capacity - batch->vertices_used;
    const size_t iroom = batch->indices_capacity - batch->indices_used;
    const size_t vbytes = batch->vertices && (uint64_t)count * plan->out_stride <= vroom
                              ? (size_t)count * plan->out_stride : 0;
    const size_t ibytes = batch->indices && most <= iroom ? (size_t)most * width : 0;
    uint8_t *const vat = vbytes ? (uint8_t *)batch->vertices + batch->vertices_used : NULL;
    uint8_t *const iat = ibytes ? (uint8_t *)batch->indices + batch->indices_used * width : NULL;
    uint8_t *copy = malloc(vbytes + ibytes + 4);
    if (!copy)
        return VFETCH_ENOMEM;
    uint8_t *const icopy = copy + ((vbytes + 3) & ~(size_t)3); /* aligned to the width */
    if (vbytes)
        memcpy(copy, vat, vbytes);
    if (ibytes)
        memcpy(icopy, iat, ibytes);
    struct vfetch_batch twin = *batch;
    twin.vertices = vbytes ? copy : NULL;
    twin.vertices_capacity = vbytes;
    twin.vertices_used = 0;
    twin.indices = ibytes ? icopy : NULL;
    twin.indices_capacity = ibytes / width;
    twin.indices_used = 0;
    struct vfetch_batch before = *batch;
    struct vfetch_gx_batch_result want = { 0, 0, 0, 0 }, got = { 0, 0, 0, 0 };
    const int want_err = vfetch_gx_batch_draw(plan, p, batch, slot, &want);
    const int err = want_err ? want_err : plan->jit_batch_entry(plan, p, &twin, slot, &got);
    size_t vdiff = 0, idiff = 0;
    while (!want_err && vdiff < vbytes && copy[vdiff] == vat[vdiff])
        vdiff++;
    while (!want_err && idiff < ibytes && icopy[idiff] == iat[idiff])
        idiff++;
    if (err != want_err ||
        (!err && (got.vertices != want.vertices || got.skipped != want.skipped ||
                  got.clamped != want.clamped || got.indices != want.indices ||
                  vdiff < vbytes || idiff < ibytes ||
                  twin.vertices_used != batch->vertices_used - before.vertices_used ||
                  twin.indices_used != batch->indices_used - before.indices_used ||
                  twin.vertex_count != batch->vertex_count ||
                  twin.record_stride != batch->record_stride))) {
        fprintf(stderr,
                "vfetch: VFETCH_JIT=compare: GX format VCD %08x/%08x VAT %08x/%08x/%08x, batched "
                "draw of %u vertices: generated code: return %d (C way %d), vertices %u (%u), "
                "indices %zu (%zu), record byte %zu of %zu, index byte %zu of %zu, vertex_count "
                "%u (%u), record_stride %u (%u)\n",
                plan->desc.regs.vcd_lo, plan->desc.regs.vcd_hi, plan->desc.regs.vat_a,
                plan->desc.regs.vat_b, plan->desc.regs.vat_c, count, err, want_err, got.vertices,
                want.vertices, got.indices, want.indices, vdiff, vbytes, idiff, ibytes,
                twin.vertex_count, batch->vertex_count, twin.record_stride, batch->record_stride);
        abort();
    }
    free(copy);
    if (!want_err && result)
        *result = want;
    return want_err;
}

/* A command not ready (its format or primitive to look up first; the batch's used figures'
   error comes before the format's): made ready, then drawn. Out of line, so that the common
   draw has no frame for it. */
int vfetch_gx_state_draw_unready(vfetch_gx_state *state, uint8_t command,
                                 struct vfetch_batch *batch, struct vfetch_gx_batch_result *result)
{
    if (batch->vertices_used > batch->vertices_capacity ||
        batch->indices_used > batch->indices_capacity)
        return VFETCH_EINVAL;
    const int err = prepare(state, command);
    if (err)
        return err;
    struct gx_ready *r = &state->ready[command - 0x80];
    r->plan = gx_state_current(state, command & 7u);
    r->slot = &state->prim[command >> 3 & 7];
    r->draw = r->plan->jit_batch         ? r->plan->jit_batch
              : r->plan->jit_batch_entry ? batch_compare /* VFETCH_JIT=compare */
                                         : vfetch_gx_batch_draw;
    state->ready_set |= UINT64_C(1) << (command - 0x80);
    return r->draw(r->plan, &state->draw, batch, r->slot, result);
}

int vfetch_gx_state_draw_batch(vfetch_gx_state *state, uint8_t command, const void *vertices,
                               size_t vertices_size, uint32_t count, struct vfetch_batch *batch,
                               struct vfetch_gx_batch_result *result)
{
    if (!state || !batch || (unsigned)(command - 0x80) > 0x3f)
        return VFETCH_EINVAL;
    return gx_state_draw_batch_with(state, command, vertices, vertices_size, count, batch, result);
}
