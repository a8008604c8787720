/*
 * The kernel signatures a plan holds: a per-op conversion, a record-program executor and a word
 * copy. One signature each for the reference and every SIMD level, so that the kernel tables
 * (dsp.h) can fill a plan with whichever level the CPU allows. Not installed.
 */
#ifndef VFETCH_KERNEL_H
#define VFETCH_KERNEL_H

#include <stddef.h>
#include <stdint.h>

struct vfetch_op_exec;
struct vfetch_record_prog;

/**
 * A per-op kernel: convert n vertices of one op and store them. Stream s's records start at
 * base[s] and are stride[s] bytes apart (only the streams the op reads are set). Vertex i's
 * output record starts at dst + i * dst_stride; the kernel stores the components the write
 * mask enables, swizzled, at slots dst_slot + c, and touches no other byte. One signature for
 * the reference and every SIMD variant.
 */
#define VFETCH_CONVERT_FN(name)                                                             \
    void name(const struct vfetch_op_exec *op, const uint8_t *const *base,                  \
              const size_t *stride, size_t n, uint8_t *dst, size_t dst_stride)
typedef VFETCH_CONVERT_FN(vfetch_convert_fn);

/**
 * A record-program executor (lib/record.h): run `groups` groups. Group g reads stream s at
 * base[s] + g * prog->group_step[s] and writes dst + g * prog->dst_step (the steps of the
 * plan the program was lowered for).
 */
#define VFETCH_RECORD_FN(name)                                                              \
    void name(const struct vfetch_record_prog *prog, const uint8_t *const *base, size_t groups, \
              uint8_t *dst)
typedef VFETCH_RECORD_FN(vfetch_record_fn);

/** A word copy (lib/word_copy.c): `bytes`, a multiple of 4, from src to dst, as stored or
    each 32-bit word's bytes reversed. The buffers do not overlap. */
typedef void vfetch_word_copy_fn(const uint8_t *src, uint8_t *dst, size_t bytes);

#endif
