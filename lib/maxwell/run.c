/*
 * A Maxwell draw: the streams' registers (location, inclusive limit) as bindings, the core
 * plan's run, then the system values the hardware synthesises per vertex.
 */
#include <string.h>

#include "maxwell/maxwell_internal.h"
#include "plan_internal.h"
#include "run.h"

void vfetch_maxwell_run_params_init(struct vfetch_maxwell_run_params *params)
{
    if (params)
        memset(params, 0, sizeof *params);
}

/* Bytes a stream's registers make readable: location .. limit inclusive. */
static size_t maxwell_binding_size(const struct vfetch_maxwell_binding *b)
{
    if (b->limit < b->location)
        return 0;
    const uint64_t bytes = b->limit - b->location; /* + 1, without wrapping at 2^64 */
    return bytes >= SIZE_MAX ? SIZE_MAX : (size_t)bytes + 1;
}

/* Store one 32-bit value at `at` + i * stride for n records. */
static void maxwell_fill(uint8_t *at, size_t stride, uint32_t n, uint32_t value)
{
    for (uint32_t i = 0; i < n; i++)
        memcpy(at + i * stride, &value, 4);
}

/* VERTEX_ID (index entry or draw position, plus the base) and INSTANCE_ID per record, one
   tight loop per index type (not a test per vertex, which was much slower). The core run
   validated the index entries and the output first. */
void vfetch_maxwell_system_values(const struct vfetch_maxwell_plan *mp,
                                  const struct vfetch_maxwell_run_params *p)
{
    const size_t stride = vfetch_plan_out_stride(mp->plan);
    uint8_t *out = p->out;
    if (mp->instance_id_slot >= 0)
        maxwell_fill(out + 4 * (size_t)mp->instance_id_slot, stride, p->count, p->instance);
    if (mp->vertex_id_slot < 0)
        return;
    uint8_t *at = out + 4 * (size_t)mp->vertex_id_slot;
    const uint32_t base = p->vertex_id_base;
    if (p->index_type == VFETCH_INDEX_U16) {
        const uint8_t *ix = (const uint8_t *)p->indices + 2 * (size_t)p->first;
        for (uint32_t i = 0; i < p->count; i++) {
            uint16_t e;
            memcpy(&e, ix + 2 * (size_t)i, 2);
            const uint32_t id = e + base;
            memcpy(at + i * stride, &id, 4);
        }
    } else if (p->index_type == VFETCH_INDEX_U32) {
        const uint8_t *ix = (const uint8_t *)p->indices + 4 * (size_t)p->first;
        for (uint32_t i = 0; i < p->count; i++) {
            uint32_t id;
            memcpy(&id, ix + 4 * (size_t)i, 4);
            id += base;
            memcpy(at + i * stride, &id, 4);
        }
    } else {
        for (uint32_t i = 0; i < p->count; i++) {
            const uint32_t id = p->first + i + base;
            memcpy(at + i * stride, &id, 4);
        }
    }
}

int vfetch_maxwell_core_params(const struct vfetch_maxwell_plan *plan,
                               const struct vfetch_maxwell_run_params *params,
                               struct vfetch_binding bind[VFETCH_MAX_STREAMS],
                               struct vfetch_run_params *p)
{
    /* the core plan's fields read here, not through its accessors: a short draw's whole call
       is a few hundred instructions */
    const struct vfetch_plan *core = plan->plan;
    const unsigned n = core->desc.num_streams;
    for (unsigned s = 0; s < n; s++) {
        bind[s] = (struct vfetch_binding){ NULL, 0 };
        if (core->stream_extent[s] == 0)
            continue;
        if (!params->streams)
            return VFETCH_EINVAL;
        const struct vfetch_maxwell_binding *mb = &params->streams[plan->stream_hw[s]];
        bind[s] = (struct vfetch_binding){ mb->data, maxwell_binding_size(mb) };
    }
    *p = vfetch_run_params_default();
    p->streams = bind;
    p->num_streams = n;
    p->first = params->first;
    p->count = params->count;
    p->indices = params->indices;
    p->index_type = params->index_type;
    p->indices_size = params->indices_size;
    p->index_offset = params->index_offset;
    p->instance = params->instance;
    p->base_instance = params->base_instance;
    p->out = params->out;
    p->out_size = params->out_size;
    return VFETCH_OK;
}

/* Every other draw: the core run's parameters built, run, then the system values. */
static __attribute__((noinline)) int maxwell_run_general(
    const vfetch_maxwell_plan *plan, const struct vfetch_maxwell_run_params *params)
{
    struct vfetch_binding bind[VFETCH_MAX_STREAMS];
    struct vfetch_run_params p;
    int err = vfetch_maxwell_core_params(plan, params, bind, &p);
    if (err)
        return err;
    err = vfetch_run(plan->plan, &p);
    if (err || params->count == 0)
        return err;
    if (plan->instance_id_slot >= 0 || plan->vertex_id_slot >= 0)
        vfetch_maxwell_system_values(plan, params);
    return VFETCH_OK;
}

/* A draw of a one-stream core plan with generated code, without an index buffer or system
   values: straight to the code where vfetch_run would run it at once (vfetch_run_one_stream:
   its checks of such a draw, without a vfetch_run_params), else the general way. */
static __attribute__((noinline)) int maxwell_run_one(
    const vfetch_maxwell_plan *plan, const struct vfetch_maxwell_run_params *params)
{
    const struct vfetch_maxwell_binding *mb = &params->streams[plan->stream_hw[0]];
    const struct vfetch_binding b = { mb->data, maxwell_binding_size(mb) };
    if (!vfetch_run_one_stream(plan->plan, params->first, params->count, params->out,
                               params->out_size, &b))
        return VFETCH_OK;
    return maxwell_run_general(plan, params);
}

/* Either way a tail call: no frame here for a draw that takes the general way. */
int vfetch_maxwell_run(const vfetch_maxwell_plan *plan, const struct vfetch_maxwell_run_params *params)
{
    if (!plan || !params)
        return VFETCH_EINVAL;
    if (plan->plan->jit_one && params->index_type == VFETCH_INDEX_NONE && params->streams &&
        plan->instance_id_slot < 0 && plan->vertex_id_slot < 0)
        return maxwell_run_one(plan, params);
    return maxwell_run_general(plan, params);
}
