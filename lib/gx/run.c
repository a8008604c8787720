/*
 * Running a compiled GX format over one draw: the entry points (the generated code where the
 * plan has it, the portable tier, or both compared), the vertex bytes checked, and the direct
 * draws (formats without indexed attributes), converted in place. Draws with indexed
 * attributes continue in lib/gx/run_indexed.c. Every check runs over the whole draw before the
 * first byte is written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "execute.h"

void vfetch_gx_run_params_init(struct vfetch_gx_run_params *params)
{
    if (!params)
        return;
    /* Field by field, 8 bytes a store: emulators call this for every draw. GCC compiles a
       memset of this size (240 bytes) to `rep stos`, whose start-up is slow; 16-byte stores
       were slower still, since the draw then loads 4- and 8-byte fields that wider stores
       wrote (docs/decisions.md, "Tried and not kept"). */
    params->vertices = NULL;
    params->vertices_size = 0;
    params->count = 0;
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
        params->arrays[a] = (struct vfetch_binding){ NULL, 0 };
    params->index_policy = VFETCH_GX_INDEX_ERROR;
    params->out = NULL;
    params->out_size = 0;
}

/* The portable tier's draw (the record program or the per-op kernels), its vertex bytes
   checked. */
static int gx_run_portable(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                           struct vfetch_gx_result *result)
{
    const uint32_t count = p->count;
    if (plan->any_indexed)
        return vfetch_gx_run_indexed(plan, p, result);
    if (plan->converter) { /* converted in place, if there is anything to convert */
        int err = vfetch_gx_check_output(plan, p, count);
        if (err)
            return err;
        /* A word copy (the real captures' formats) is vfetch_execute's first branch, taken
           here before the draw's description is built: its stores cost more than the copy
           of a four-vertex draw (docs/simd.md). */
        if (vfetch_execute_copies(plan->converter))
            vfetch_execute_copy(plan->converter, p->vertices, 0, count, p->out);
        else if ((err = vfetch_gx_convert(plan, p->vertices, p->vertices_size, count, p->out)))
            return err;
    }
    if (result)
        *result = (struct vfetch_gx_result){ count, 0, 0 };
    return VFETCH_OK;
}

/* VFETCH_JIT_COMPARE: the portable tier into a copy of the output, the generated code (which
   may hand the draw to the portable tier itself) into the output; any difference in the return
   code, the result or an output byte aborts the process. */
static __attribute__((noinline)) int gx_run_compare(const struct vfetch_gx_plan *plan,
                                                    const struct vfetch_gx_run_params *p,
                                                    struct vfetch_gx_result *result)
{
    const uint64_t need = p->count ? (uint64_t)(p->count - 1) * plan->out_stride + plan->record_size
                                   : 0;
    const size_t bytes = !p->out ? 0 : need < p->out_size ? (size_t)need : p->out_size;
    uint8_t *copy = malloc(bytes ? bytes : 1);
    if (!copy)
        return VFETCH_ENOMEM;
    if (bytes)
        memcpy(copy, p->out, bytes);
    struct vfetch_gx_run_params q = *p;
    q.out = p->out ? copy : NULL;
    struct vfetch_gx_result want = { 0, 0, 0 }, got = { 0, 0, 0 };
    const int want_err = vfetch_gx_run_portable(plan, &q, &want);
    const int err = plan->jit_entry(plan, p, &got);
    size_t at = 0;
    while (at < bytes && copy[at] == ((const uint8_t *)p->out)[at])
        at++;
    if (err != want_err || (!err && (got.written != want.written || got.skipped != want.skipped ||
                                     got.clamped != want.clamped)) ||
        at < bytes) {
        fprintf(stderr,
                "vfetch: VFETCH_JIT=compare: GX format VCD %08x/%08x VAT %08x/%08x/%08x, %u "
                "vertices: generated code: return %d (portable tier %d), written %u (%u), "
                "skipped %u (%u), clamped %u (%u)",
                plan->desc.regs.vcd_lo, plan->desc.regs.vcd_hi, plan->desc.regs.vat_a,
                plan->desc.regs.vat_b, plan->desc.regs.vat_c, p->count, err, want_err,
                got.written, want.written, got.skipped, want.skipped, got.clamped, want.clamped);
        if (at < bytes)
            fprintf(stderr, ", output byte %zu: %02x (portable tier %02x)", at,
                    ((const uint8_t *)p->out)[at], copy[at]);
        fprintf(stderr, "\n");
        abort();
    }
    free(copy);
    if (!err && result)
        *result = got;
    return err;
}

int vfetch_gx_run_portable(const struct vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                           struct vfetch_gx_result *result)
{
    if (!plan || !p || (unsigned)p->index_policy > VFETCH_GX_INDEX_CLAMP)
        return VFETCH_EINVAL;
    const uint32_t count = p->count;
    if (count == 0) {
        if (result)
            *result = (struct vfetch_gx_result){ 0, 0, 0 };
        return VFETCH_OK;
    }
    const uint64_t bytes = (uint64_t)count * plan->format.vertex_size;
    if (bytes > SIZE_MAX)
        return VFETCH_EOVERFLOW;
    if (bytes && !p->vertices)
        return VFETCH_EMISSING_STREAM;
    if (bytes > p->vertices_size)
        return VFETCH_ESHORT_STREAM;
    return gx_run_portable(plan, p, result);
}

/* The generated code, where the plan has it, runs the draw: it checks, converts, or hands the
   draw to vfetch_gx_run_portable (a tail call here: no frame of this function's). */
int vfetch_gx_run(const vfetch_gx_plan *plan, const struct vfetch_gx_run_params *p,
                  struct vfetch_gx_result *result)
{
    if (plan && p && plan->jit_run)
        return plan->jit_run(plan, p, result);
    if (plan && p && plan->jit_compare && plan->jit_entry)
        return gx_run_compare(plan, p, result);
    return vfetch_gx_run_portable(plan, p, result);
}