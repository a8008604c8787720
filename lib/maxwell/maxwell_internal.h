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

#endif
