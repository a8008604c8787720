/*
 * One tier per validated draw: the generated code (lib/jit/) where the plan has it and the
 * draw is the code's, else the portable tier (lib/portable.c); under VFETCH_JIT=compare both,
 * compared byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "execute.h"

/* VFETCH_JIT_COMPARE: the portable tier into a copy of the output first (its error, if any,
   returned with nothing written), then the generated code into the output; any differing
   byte aborts the process. */
static __attribute__((noinline)) int execute_compare(const vfetch_plan *plan,
                                                     const struct vfetch_draw *src,
                                                     const uint8_t *const *records,
                                                     const struct vfetch_jit_index *index)
{
    const size_t bytes = (size_t)(src->count - 1) * plan->out_stride + plan->record_size;
    uint8_t *copy = malloc(bytes);
    if (!copy)
        return VFETCH_ENOMEM;
    memcpy(copy, src->out, bytes);
    struct vfetch_draw portable = *src;
    portable.out = copy;
    const int err = vfetch_execute_portable(plan, &portable);
    if (!err) {
        if (index)
            plan->jit_indexed(records, src->count, src->out, index);
        else
            plan->jit(records, src->count, src->out);
        size_t at = 0;
        while (at < bytes && copy[at] == ((const uint8_t *)src->out)[at])
            at++;
        if (at < bytes) {
            fprintf(stderr,
                    "vfetch: VFETCH_JIT=compare: plan %016llx, %u records: output byte %zu: %02x "
                    "(portable tier %02x)\n",
                    (unsigned long long)plan->hash, src->count, at,
                    ((const uint8_t *)src->out)[at], copy[at]);
            abort();
        }
    }
    free(copy);
    return err;
}

/* A validated draw through an index buffer by the generated conversion: each indexed
   stream's record 0, the others' first records, and the index state. */
static int execute_generated_indexed(const vfetch_plan *plan, const struct vfetch_draw *src)
{
    const struct vfetch_run_params *p = src->indexed;
    const uint8_t *records[VFETCH_MAX_STREAMS];
    for (unsigned s = 0; s < plan->desc.num_streams; s++) {
        const size_t first = vfetch_run_through_indices(&plan->desc.streams[s], p) ? 0 : src->first;
        records[s] = (const uint8_t *)((uintptr_t)src->streams[s].data +
                                       first * plan->vertex_stride[s]);
    }
    const int wide = p->index_type == VFETCH_INDEX_U32;
    const struct vfetch_jit_index index = {
        .entries = (const uint8_t *)p->indices + (size_t)src->first * (wide ? 4 : 2),
        .offset = p->index_offset,
        .max_index = p->max_index,
        .wide = (uint64_t)wide,
    };
    if (plan->jit_compare)
        return execute_compare(plan, src, records, &index);
    plan->jit_indexed(records, src->count, src->out, &index);
    return VFETCH_OK;
}

int vfetch_execute_program(const vfetch_plan *plan, const struct vfetch_draw *src)
{
    /* The generated conversion reads exactly what the ops read, which validation put inside
       the binding: any draw (checkasm's in-place-only draws excepted); through an index
       buffer at every count (the portable tier copies the records to a stage first: slower
       at every count measured, docs/jit.md), else below the crossover. */
    if (plan->jit && !src->in_place_only) {
        if (src->indexed) {
            if (plan->jit_indexed)
                return execute_generated_indexed(plan, src);
        } else if (src->count < plan->jit_crossover) {
            /* each stream's first record (as integers: a stream no op reads may be unbound) */
            const uint8_t *records[VFETCH_MAX_STREAMS];
            for (unsigned s = 0; s < plan->desc.num_streams; s++)
                records[s] = (const uint8_t *)((uintptr_t)src->streams[s].data +
                                               (size_t)src->first * plan->vertex_stride[s]);
            if (plan->jit_compare)
                return execute_compare(plan, src, records, NULL);
            plan->jit(records, src->count, src->out);
            return VFETCH_OK;
        }
    }
    return vfetch_execute_portable(plan, src);
}
