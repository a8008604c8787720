/*
 * Walking a region of a block-tiled image one block row at a time, for the texel decoders
 * (lib/texel/decode.c, lib/gx_texture/decode.c). Whole blocks of a block row go to the
 * decoder's row function in one run, straight into the caller's buffer; blocks the region cuts
 * (its edges) decode into a stack block and are copied from there, so that a row function
 * never reads or writes past what the region covers. Not installed.
 */
#ifndef VFETCH_BLOCK_WALK_H
#define VFETCH_BLOCK_WALK_H

#include <stddef.h>
#include <stdint.h>

/** Decode nblocks consecutive blocks of one block row from src (exactly nblocks * block_bytes
    readable) into block_h rows of nblocks * block_w texels, row r at dst + r * dst_pitch. */
typedef void vfetch_block_row_fn(const void *ctx, const uint8_t *src, size_t nblocks,
                                 uint8_t *dst, size_t dst_pitch);

/** The largest block a walk handles: 8x8 texels of 16 bytes. */
#define VFETCH_BLOCK_WALK_MAX_BYTES (8 * 8 * 16)

struct vfetch_block_walk {
    vfetch_block_row_fn *row;
    const void *ctx;
    uint32_t block_w, block_h, block_bytes; /**< block_w and block_h powers of two */
    size_t texel_bytes;            /**< of the output */
    const uint8_t *src;            /**< block (0, 0) */
    size_t src_pitch;              /**< bytes from one block row to the next */
    uint8_t *dst;                  /**< texel (x, y) of the region */
    size_t dst_pitch;
    /** The region, not empty, inside the image; 64-bit: x + width may be 2^32. Every byte
        offset formed from it was bounded in size_t by the caller's checks. */
    uint64_t x, y, width, height;
};

/** a * b + c, or 0 with *overflow set: the decoders' size arithmetic (without a division:
    a 64-bit divide is tens of cycles, a fair part of a small texture's decode). */
static inline size_t vfetch_mul_add(size_t a, size_t b, size_t c, int *overflow)
{
    size_t product, sum;
    if (__builtin_mul_overflow(a, b, &product) || __builtin_add_overflow(product, c, &sum)) {
        *overflow = 1;
        return 0;
    }
    return sum;
}

/** Decode the region. */
void vfetch_block_walk(const struct vfetch_block_walk *w);

#endif
