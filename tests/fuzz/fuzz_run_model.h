/*
 * An independent model of vfetch_run(), written from the contracts in vfetch.h and plan.h:
 * which records a run reads, how many bytes of each stream that implies, what the call must
 * return, and which output bytes it may write. It never calls into the library.
 */
#ifndef VFETCH_FUZZ_RUN_MODEL_H
#define VFETCH_FUZZ_RUN_MODEL_H

#include <stdint.h>

#include "vfetch/vfetch.h"

/** Bytes of stream s one vertex reads: one past the highest physical byte any op's
    components occupy (after the dword swap of the stream's byte order); 0 if none. */
uint32_t fuzz_model_extent(const struct vfetch_plan_desc *d, unsigned s);

/** Bytes from one output record to the next (out_stride, or out_slots * 4 when 0). */
uint32_t fuzz_model_out_stride(const struct vfetch_plan_desc *d);

/** The records a run reads: the highest record of indexed and of sequential streams, or
    VFETCH_EINDEX_RANGE if an index entry plus the offset is negative. Only meaningful for
    params that pass the earlier checks (count > 0, a readable index buffer). */
struct fuzz_run_records {
    int err;
    uint64_t max_indexed;
    uint64_t max_sequential;
    uint32_t instance, base_instance; /* instanced streams: base + instance / divisor */
};
struct fuzz_run_records fuzz_model_records(const struct vfetch_run_params *p);

/** Index entry `position` of a U16 or U32 index buffer (native byte order). */
uint32_t fuzz_model_index_entry(const void *indices, enum vfetch_index_type type, uint64_t position);

/** The record an index entry selects: entry + offset in 64 bits, saturating rather than
    wrapping, clamped to max_index; -1 when negative. */
int64_t fuzz_model_vertex_index(uint32_t entry, int64_t offset, uint32_t max_index);

/** Bytes of stream s a run needs bound (0 if the plan does not read it; UINT64_MAX if the
    count does not fit 64 bits). */
uint64_t fuzz_model_stream_need(const struct vfetch_plan_desc *d, unsigned s,
                                const struct fuzz_run_records *r);

/** Bytes of output count records need (the last one only its record size). */
uint64_t fuzz_model_out_need(const struct vfetch_plan_desc *d, uint32_t count);

/** What vfetch_run(plan of d, p) must return. */
int fuzz_model_run(const struct vfetch_plan_desc *d, const struct vfetch_run_params *p);

/** After a successful run: abort unless every output byte no op of d writes for the count
    records (masked components, unwritten slots, the gap between records, and everything past
    the last record) still holds the canary. */
void fuzz_require_unwritten_intact(const struct vfetch_plan_desc *d, uint32_t count,
                                   const uint8_t *out, size_t out_size);

#endif
