/*
 * The Maxwell vertex front-end's plan, shared by its compile (vertex.c) and run (run.c).
 */
#ifndef VFETCH_MAXWELL_INTERNAL_H
#define VFETCH_MAXWELL_INTERNAL_H

#include "internal.h"
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

/** The slots of an ISBE record: attribute n at slot n (full layout), or the Bmap's attributes
    in address order (compact); slot_of[n] is attribute n's slot or -1, word[slot] its AAM
    default under attribute_default. Returns the slots. */
unsigned vfetch_maxwell_isbe_slots(const struct vfetch_aam_map *bmap, enum vfetch_maxwell_layout layout,
                                   uint32_t attribute_default, int16_t *slot_of, uint32_t *word);

/** Constant ops (a word per slot) for every slot of d's record not `written`, four slots to an
    op, appended to d. VFETCH_EPLAN when d has no room for them. */
int vfetch_maxwell_isbe_constants(struct vfetch_plan_desc *d, const uint8_t *written,
                                  const uint32_t *word);

#endif
