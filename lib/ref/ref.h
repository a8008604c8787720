/*
 * The scalar reference: the oracle every kernel is checked against. Plain C, one obvious line
 * per rule (docs/r300.md, docs/decisions.md), no cleverness.
 */
#ifndef VFETCH_REF_REF_H
#define VFETCH_REF_REF_H

#include <stdint.h>

#include "vfetch/plan.h"

/** IEEE binary16 -> binary32 bits, exact: denormals kept, +-inf kept, NaN payload kept and a
    signalling NaN quieted (bit 22 set), as x86 F16C vcvtph2ps does. */
uint32_t vfetch_ref_half_to_float_bits(uint16_t half);

/** An n-bit fixed-point field (bits 1..16 or 32, value in the low bits of field) converted
    with a fixed-point conversion to float (not VFETCH_CONV_FLOAT, INTEGER, SINTEGER or
    PACK_UNORM8); shift applies to UINT/SINT. */
float vfetch_ref_fixed_to_float(uint32_t field, unsigned bits, enum vfetch_conversion conv,
                                unsigned shift);

/** An unsigned small float (Maxwell B10G11R11: 5-bit exponent, bits - 5 mantissa bits, bits
    10 or 11) -> binary32 bits: the binary16 with the same exponent and mantissa, widened. */
uint32_t vfetch_ref_ufloat_to_float_bits(uint32_t field, unsigned bits);

/** m / (2^k - 1) rounded once to binary32 (round to nearest even), 24 <= k <= 32,
    m <= 2^k - 1: the 32-bit UNORM and SNORM divisions, which a float division cannot do
    exactly (neither operand is a float). */
float vfetch_ref_div_all_ones(uint32_t m, unsigned k);

#endif
