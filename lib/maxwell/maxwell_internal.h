/*
 * The Maxwell vertex front-end's plan, shared by its compile (vertex.c) and run (run.c).
 */
#ifndef VFETCH_MAXWELL_INTERNAL_H
#define VFETCH_MAXWELL_INTERNAL_H

#include "aam/isbe.h"
#include "vfetch/maxwell.h"

struct vfetch_maxwell_plan {
    /** The core plan: fetch, convert, defaults (and zeros where the system values go). */
    vfetch_plan *plan;
    /** Hardware stream of each of the core plan's streams. */
    uint8_t stream_hw[VFETCH_MAX_STREAMS];
    /** Record slot of each AAM attribute, or -1. */
    int16_t slot_of[VFETCH_AAM_ATTRIBUTES];
    /** Slots the run fills per vertex, or -1: VERTEX_ID and INSTANCE_ID. */
    int16_t vertex_id_slot, instance_id_slot;
    struct vfetch_aam_map bmap;
};

/** A Maxwell run as the core plan's (lib/maxwell/run.c): each stream the plan reads bound from
    its hardware stream's location and limit into bind, the rest of *params copied into *core.
    VFETCH_EINVAL where the plan reads a stream and params->streams is NULL. */
int vfetch_maxwell_core_params(const struct vfetch_maxwell_plan *plan,
                               const struct vfetch_maxwell_run_params *params,
                               struct vfetch_binding bind[VFETCH_MAX_STREAMS],
                               struct vfetch_run_params *core);

/** VERTEX_ID and INSTANCE_ID into the params->count records at params->out, after the core
    run wrote them (it checked the index entries and the output). */
void vfetch_maxwell_system_values(const struct vfetch_maxwell_plan *plan,
                                  const struct vfetch_maxwell_run_params *params);

#endif
