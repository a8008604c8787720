/* What the GX tests that build register words or states share (test_gx_convert.c,
   test_gx_state.c, test_gx_batch.c, test_gx_commands.c). */
#ifndef VFETCH_GX_TESTUTIL_H
#define VFETCH_GX_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "vfetch/gx.h"

/* VCD_LO mode field of attribute a (position 0, normal 1, color0 2, color1 3). */
static inline uint32_t vcd(unsigned a, unsigned mode)
{
    return mode << (9 + 2 * a);
}

/* A state of packed records with RGBA8 colours (an emulator's vertex buffer layout), or NULL. */
static inline vfetch_gx_state *gx_packed_state(void)
{
    const struct vfetch_gx_state_params packed = { VFETCH_GX_LAYOUT_PACKED, VFETCH_GX_COLOR_RGBA8,
                                                   VFETCH_PATH_AUTO };
    vfetch_gx_state *st = NULL;
    return vfetch_gx_state_create(&packed, &st) ? NULL : st;
}

#endif
