/*
 * The ISBE record layout: a vertex record in the NVIDIA Maxwell attribute address map (AAM,
 * include/vfetch/aam.h), full (attribute n at slot n) or compact (the present attributes in
 * address order), every slot written (data, or the attribute's default). Shared by the Maxwell
 * front-end (lib/maxwell) and GX's ISBE layouts (lib/gx), which depend on it, not on each
 * other. Not installed.
 */
#ifndef VFETCH_AAM_ISBE_H
#define VFETCH_AAM_ISBE_H

#include <stdint.h>

#include "vfetch/aam.h"
#include "vfetch/vfetch.h"

/** The slots of an ISBE record: attribute n at slot n (full), or the Bmap's attributes in
    address order (compact); slot_of[n] is attribute n's slot or -1, word[slot] its AAM default
    under attribute_default. Returns the slots. */
unsigned vfetch_isbe_slots(const struct vfetch_aam_map *bmap, int full, uint32_t attribute_default,
                           int16_t *slot_of, uint32_t *word);

/** Constant ops (a word per slot) for every slot of d's record not `written`, four slots to an
    op, appended to d. VFETCH_EPLAN when d has no room for them. */
int vfetch_isbe_constants(struct vfetch_plan_desc *d, const uint8_t *written, const uint32_t *word);

/**
 * A plan description's output as an ISBE record (vfetch_maxwell_isbe_desc's contract,
 * include/vfetch/maxwell.h): location l becomes generic attribute generic_of_location[l]
 * (NULL: l), its slots the attribute's components, every other slot of the record its default.
 */
int vfetch_isbe_desc(const struct vfetch_plan_desc *in, const int8_t *generic_of_location, int full,
                     uint32_t attribute_default, struct vfetch_plan_desc *out);

#endif
