/*
 * The scalar reference: the oracle every kernel is checked against. Plain C, one obvious line
 * per rule of the spec (../shared/spec/DECISIONS.md), no cleverness.
 */
#ifndef VFETCH_REF_REF_H
#define VFETCH_REF_REF_H

#include <stdint.h>

#include "vfetch/plan.h"

/** IEEE binary16 -> binary32 bits, exact: denormals kept, +-inf kept, NaN payload kept and a
    signalling NaN quieted (bit 22 set), as x86 F16C vcvtph2ps does. */
uint32_t vfetch_ref_half_to_float_bits(uint16_t half);

/** An n-bit fixed-point field (bits 1..16, value in the low bits of field) converted with a
    fixed-point conversion (anything but VFETCH_CONV_FLOAT); shift applies to UINT/SINT. */
float vfetch_ref_fixed_to_float(uint32_t field, unsigned bits, enum vfetch_conversion conv,
                                unsigned shift);

#endif
