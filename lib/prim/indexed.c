/*
 * Draws through a guest index buffer (R300, Maxwell; vfetch/prim.h's guest_* fields): the
 * checks in the header's order, one scan of the entries for their smallest and largest (the
 * range check, range mode's rebasing) and whether a restart entry is there, then the indices:
 * the level's convert kernel where the plan writes vertex k as index k (lists whose provoking
 * vertices agree, points, strips drawn as they are), once or a run of entries between restart
 * entries at a time; the reference's loops otherwise (quads, fans, strips and the rest:
 * generated orders mapped through the entries, as Mesa's translate functions do). The entries'
 * checks and the writing after the scan are functions of their own, which the one-call indexed
 * draws (lib/draw_indexed.c) call around their own scan.
 */
#include <stdint.h>

#include "prim/prim_internal.h"

/* The one pass: the convert kernel's indices and the range of the entries it converted, the
   entries past them (a list's dropped last ones, fewer than six) one at a time. */
static int run_one_pass(const vfetch_prim_plan *plan, const struct vfetch_prim_run_params *params,
                        uint64_t bound, struct vfetch_prim_result *result)
{
    const struct prim_guest *g = &plan->guest;
    const uint32_t count = params->count, base = params->base_index;
    const size_t written = plan->pass_restart ? count : (size_t)bound;
    uint32_t range[2] = { UINT32_MAX, 0 };
    if (written)
        plan->convert(params->indices, written, g, base, plan->restart_index, plan->mode.wide,
                      params->out, range);
    uint32_t lo = range[0], hi = range[1];
    for (size_t i = written; i < count; i++) { /* (no restart entry: none fits) */
        const uint32_t e = vfetch_prim_entry(params->indices, g, i);
        lo = e < lo ? e : lo;
        hi = e > hi ? e : hi;
    }
    if (result) {
        result->written = written;
        result->min_index = lo <= hi ? lo : 1;
        result->max_index = lo <= hi ? hi : 0;
        result->index_bytes = plan->index_bytes;
    }
    return VFETCH_OK;
}

int vfetch_prim_check_entries(const vfetch_prim_plan *plan, const void *indices,
                              size_t indices_size, uint32_t count, uint64_t bound)
{
    const struct prim_guest *g = &plan->guest;
    if (count && !indices)
        return VFETCH_EINVAL;
    if ((uint64_t)count * g->bytes > SIZE_MAX ||
        (sizeof(size_t) < 8 && bound > SIZE_MAX / plan->index_bytes))
        return VFETCH_EOVERFLOW;
    if (indices_size < (size_t)count * g->bytes)
        return VFETCH_ESHORT_INDICES;
    return VFETCH_OK;
}

size_t vfetch_prim_write_entries(const vfetch_prim_plan *plan, const void *indices,
                                 uint32_t count, uint64_t bound, uint32_t delta, int restarted,
                                 void *out)
{
    const struct prim_mode *m = &plan->mode;
    const struct prim_guest *g = &plan->guest;
    const size_t width = plan->index_bytes;
    size_t written;
    if (plan->identity && plan->convert && (!restarted || plan->pass_restart)) {
        /* one run: the lists' whole primitives, or a strip's entries as they are */
        written = plan->pass_restart ? count : (size_t)bound;
        if (written)
            plan->convert(indices, written, g, delta, plan->restart_index, m->wide, out, NULL);
    } else if (plan->identity && plan->convert) {
        /* lists cut by restart: each run's whole primitives, converted as they are */
        const uint8_t *in = indices;
        uint8_t *at = out;
        written = 0;
        for (uint32_t start = 0, i; start <= count; start = i + 1) {
            i = plan->find(in, g, start, count);
            const size_t n = (size_t)vfetch_prim_groups(m, i - start) * plan->program.per_group;
            if (n)
                plan->convert(in + (size_t)start * g->bytes, n, g, delta, plan->restart_index,
                              m->wide, at + written * width, NULL);
            written += n;
        }
    } else {
        written = vfetch_prim_ref_indexed(m, g, plan->pass_restart, indices, count, delta,
                                          plan->restart_index, out);
    }
    return written;
}

int vfetch_prim_run_indexed(const vfetch_prim_plan *plan,
                            const struct vfetch_prim_run_params *params,
                            struct vfetch_prim_result *result)
{
    const struct prim_mode *m = &plan->mode;
    const struct prim_guest *g = &plan->guest;
    const uint32_t count = params->count;
    const uint64_t bound = vfetch_prim_plan_count(plan, count);
    const size_t width = plan->index_bytes;
    if (bound && (!params->out || ((uintptr_t)params->out & (width - 1))))
        return VFETCH_EINVAL;
    const int err =
        vfetch_prim_check_entries(plan, params->indices, params->indices_size, count, bound);
    if (err)
        return err;
    if (bound > params->out_capacity)
        return VFETCH_ESHORT_OUTPUT;

    /* one pass where no entry can leave the range (not range mode, base_index + the entries'
       largest value within the width) and the convert kernel converts every entry the draw
       reads but the few a list's last primitive drops, and finds their range as it goes */
    const uint32_t type_max = g->bytes == 4 ? 0xffffffffu : (1u << (8 * g->bytes)) - 1;
    const uint64_t limit = (m->wide ? 0xffffffffu : 0xffffu) - (plan->pass_restart ? 1u : 0u);
    if (plan->identity && plan->convert && !plan->range &&
        (!vfetch_prim_restart_fits(g) || plan->pass_restart) &&
        (uint64_t)params->base_index + type_max <= limit)
        return run_one_pass(plan, params, bound, result);
    uint32_t lo = UINT32_MAX, hi = 0;
    const int restarted = count ? plan->scan(params->indices, count, g, &lo, &hi) : 0;
    const int any = lo <= hi; /* an entry that is not restart */
    const uint32_t sub = plan->range && any ? lo : 0;
    if (any) {
        const uint64_t top = (uint64_t)params->base_index + (hi - sub);
        if (top > limit)
            return VFETCH_EPRIM_INDEX_RANGE;
    }
    const size_t written = vfetch_prim_write_entries(plan, params->indices, count, bound,
                                                     params->base_index - sub, restarted,
                                                     params->out);
    if (result) {
        result->written = written;
        result->min_index = any ? lo : 1;
        result->max_index = any ? hi : 0;
        result->index_bytes = (uint32_t)width;
    }
    return VFETCH_OK;
}
