/*
 * An independent model of a GX vertex format, written from ../shared/spec/gx-cp-vat.txt and
 * docs/gx.md: which attributes the VCD enables, how many bytes each takes in the vertex, the
 * vertex size, the reserved-color error and the output record size of each layout. The
 * fuzz targets compare the library's parsing, sizes and run results against it.
 */
#ifndef VFETCH_FUZZ_GX_MODEL_H
#define VFETCH_FUZZ_GX_MODEL_H

#include <stdint.h>

#include "vfetch/gx.h"

struct fuzz_gx_attr_model {
    unsigned mode;         /**< VCD field: 0 none, 1 direct, 2 index8, 3 index16 */
    unsigned components;   /**< position 2/3, normal 3/9, color 3/4, texcoord 1/2 */
    unsigned element_size; /**< bytes of one element (direct data or one array entry) */
    unsigned index_size;   /**< indexed: bytes per index */
    unsigned pieces;       /**< indexed: indices in the vertex (3 for NBT with NORMALINDEX3) */
    unsigned offset;       /**< byte offset of the attribute in the vertex */
};

struct fuzz_gx_model {
    int err; /**< VFETCH_OK or VFETCH_EGX_RESERVED_COLOR */
    unsigned matrix_indices;
    unsigned matrix_bits; /**< VCD_LO bits 8:0: bit 0 position matrix, bit 1 + n texcoord n's */
    struct fuzz_gx_attr_model attr[VFETCH_GX_NUM_ATTRS];
    uint32_t vertex_size;
};

/** Model the format the registers describe. */
void fuzz_gx_model_parse(const struct vfetch_gx_regs *regs, struct fuzz_gx_model *m);

/** Bytes of one output record (and the stride between records) of a layout. */
uint32_t fuzz_gx_model_record_size(const struct fuzz_gx_model *m, enum vfetch_gx_layout layout,
                                   enum vfetch_gx_color_output colors);

/** Abort unless the library's parsed format agrees with the model. */
void fuzz_gx_require_format(const struct fuzz_gx_model *m, const struct vfetch_gx_format *f);

#endif
