/*
 * Internal plan representation shared by plan.c, run.c and the kernels. Not installed.
 */
#ifndef VFETCH_INTERNAL_H
#define VFETCH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "vfetch/vfetch.h"

/** Vertices converted per kernel call: the executor's batch. */
#define VFETCH_BATCH 64

/** One source component, compiled: where its container's bytes are and which field to take. */
struct vfetch_lane {
    uint8_t stream;      /**< stream index */
    uint8_t nbytes;      /**< container size: 1, 2 or 4 */
    uint8_t field_shift; /**< lowest bit of the field in the assembled container */
    uint8_t field_bits;  /**< width of the field */
    /** Physical byte offsets within the record of the container's bytes, least significant
        first (the stream's byte order already applied). */
    uint32_t byte_off[4];
};

struct vfetch_op_exec;

/** Record pointers of one batch: rec[stream][i] is vertex i's record in that stream. */
typedef const uint8_t *vfetch_batch_records[VFETCH_MAX_STREAMS][VFETCH_BATCH];

/**
 * A per-op kernel: convert n (<= VFETCH_BATCH) vertices of one op into vec4 floats, with the
 * missing components filled with (0, 0, 0, 1). Results are float32 bit patterns (so that NaN
 * payloads travel untouched on every ABI). One signature for every variant.
 */
#define VFETCH_CONVERT_FN(name) \
    void name(const struct vfetch_op_exec *op, const vfetch_batch_records *rec, size_t n, \
              uint32_t (*out)[4])
typedef VFETCH_CONVERT_FN(vfetch_convert_fn);

/** One op, compiled. */
struct vfetch_op_exec {
    vfetch_convert_fn *convert;
    enum vfetch_format format;
    enum vfetch_conversion conversion;
    uint8_t shift;
    uint8_t count;
    uint8_t swizzle[4];
    uint8_t write_mask;
    uint16_t dst_slot;
    struct vfetch_lane lane[4];
};

struct vfetch_plan {
    struct vfetch_plan_desc desc;         /**< normalised copy */
    struct vfetch_op_exec ops[VFETCH_MAX_OPS];
    uint32_t stream_extent[VFETCH_MAX_STREAMS]; /**< bytes one vertex reads per stream */
    uint32_t record_size;                 /**< out_slots * 4 */
    uint32_t out_stride;
    uint64_t hash;
};

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

/** The reference kernel for a format x conversion pair (NULL for an invalid pair). */
vfetch_convert_fn *vfetch_ref_convert_kernel(enum vfetch_format format,
                                             enum vfetch_conversion conv);

#endif
