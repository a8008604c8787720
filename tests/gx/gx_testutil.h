/* What the GX tests that build register words share (test_gx_convert.c, test_gx_state.c). */
#ifndef VFETCH_GX_TESTUTIL_H
#define VFETCH_GX_TESTUTIL_H

#include <stdint.h>

/* VCD_LO mode field of attribute a (position 0, normal 1, color0 2, color1 3). */
static inline uint32_t vcd(unsigned a, unsigned mode)
{
    return mode << (9 + 2 * a);
}

#endif
