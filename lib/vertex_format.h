/*
 * The vertex formats and conversions as plans and kernels see them: each format's container
 * and fields (the table is the reference's, lib/ref/convert_ref.c), which pairs a plan may
 * hold, and the widening and default w every level shares. Not installed.
 */
#ifndef VFETCH_VERTEX_FORMAT_H
#define VFETCH_VERTEX_FORMAT_H

#include <stdint.h>

#include "vfetch/vfetch.h"

/** Container size and field layout of each format. */
struct vfetch_format_info {
    const char *name;
    uint8_t container;     /**< bytes */
    uint8_t packed;        /**< 1: all components share one container */
    uint8_t max_count;     /**< components the format can supply */
    uint8_t is_float;
    uint8_t field_shift[4];
    uint8_t field_bits[4];
};
extern const struct vfetch_format_info vfetch_format_info[VFETCH_FORMAT_COUNT];

extern const char *const vfetch_conversion_name[VFETCH_CONV_COUNT];

/** 1 if every field of a format has 4..8 bits (what UNORM8 and PACK_UNORM8 widen). */
static inline int vfetch_format_fields_widen8(enum vfetch_format format)
{
    const struct vfetch_format_info *fi = &vfetch_format_info[format];
    if (fi->is_float || fi->max_count == 0)
        return 0;
    for (unsigned c = 0; c < fi->max_count; c++)
        if (fi->field_bits[c] < 4 || fi->field_bits[c] > 8)
            return 0;
    return 1;
}

/** 1 if a plan may pair this format with this conversion (both already in range). The
    constant "format" reads nothing and is no pair (plan_check_op takes it apart). */
static inline int vfetch_pair_valid(enum vfetch_format format, enum vfetch_conversion conv)
{
    if (format == VFETCH_FORMAT_CONSTANT)
        return 0;
    if (vfetch_format_info[format].is_float != (conv == VFETCH_CONV_FLOAT))
        return 0;
    /* 32-bit fields: the conversions Maxwell has (no 32-bit SNORM without the clamp, and
       nothing that widens or packs bytes). */
    if (format == VFETCH_FORMAT_FIXED32)
        return conv == VFETCH_CONV_UINT || conv == VFETCH_CONV_SINT || conv == VFETCH_CONV_UNORM ||
               conv == VFETCH_CONV_SNORM_ZERO_CLAMP || conv == VFETCH_CONV_INTEGER ||
               conv == VFETCH_CONV_SINTEGER;
    if (conv == VFETCH_CONV_UNORM8 || conv == VFETCH_CONV_PACK_UNORM8)
        return vfetch_format_fields_widen8(format);
    return 1;
}

/** An n-bit value (n = 4..8) widened to 8 bits by repeating its bits (UNORM8). */
static inline uint32_t vfetch_widen8(uint32_t v, unsigned n)
{
    return (v << (8 - n) | v >> (2 * n - 8)) & 0xff;
}

/** Float32 bits of 1.0, the default w. */
#define VFETCH_ONE_BITS 0x3f800000u

#endif
