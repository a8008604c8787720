/*
 * Plans that are word copies. Many real vertex formats convert nothing: GX positions and
 * texcoords stored as big-endian floats and laid out packed, R300/Maxwell little-endian floats
 * into the same layout. Such a plan turns a record of S bytes into S bytes of output, slot k
 * from the 32-bit word at byte 4k, as it is or with its bytes reversed. A draw of it is then
 * one copy of count * S bytes (memcpy, or the level's byte-reversing copy): no program, no
 * groups, no tail, which is what small draws need.
 */
#include <stdint.h>
#include <string.h>

#include "dsp.h"
#include "plan_internal.h"

void vfetch_word_copy_c(const uint8_t *src, uint8_t *dst, size_t bytes)
{
    memcpy(dst, src, bytes);
}

void vfetch_word_copy_bswap32_c(const uint8_t *src, uint8_t *dst, size_t bytes)
{
    for (size_t i = 0; i < bytes; i += 4) {
        uint32_t w;
        memcpy(&w, src + i, 4);
        w = w >> 24 | (w >> 8 & 0xff00) | (w << 8 & 0xff0000) | w << 24;
        memcpy(dst + i, &w, 4);
    }
}

/* Whether slot k's word is the container at record bytes 4k..4k+3, in memory order (LE) or
   reversed (BE), or neither. */
static int word_order(const struct vfetch_lane *lane, unsigned k)
{
    int le = 1, be = 1;
    for (unsigned b = 0; b < 4; b++) {
        le &= lane->byte_off[b] == 4 * k + b;
        be &= lane->byte_off[b] == 4 * k + 3 - b;
    }
    return le ? VFETCH_WORD_COPY : be ? VFETCH_WORD_COPY_BSWAP32 : VFETCH_WORD_COPY_NONE;
}

int vfetch_plan_word_copy(const struct vfetch_plan *plan)
{
    const struct vfetch_plan_desc *d = &plan->desc;
    if (d->num_streams != 1 || (d->streams[0].step != VFETCH_STEP_SEQUENTIAL &&
                                d->streams[0].step != VFETCH_STEP_INDEXED))
        return VFETCH_WORD_COPY_NONE;
    const uint32_t stride = d->streams[0].stride;
    if (!stride || stride % 4 || stride != plan->out_stride || stride != plan->record_size ||
        plan->stream_extent[0] != stride)
        return VFETCH_WORD_COPY_NONE;
    /* The op that writes each slot last (ops run in order), and its component there. */
    const struct vfetch_op_exec *writer[VFETCH_MAX_SLOTS] = { NULL };
    uint8_t component[VFETCH_MAX_SLOTS];
    for (unsigned o = 0; o < d->num_ops; o++) {
        const struct vfetch_op_exec *op = &plan->ops[o];
        for (unsigned c = 0; c < 4; c++)
            if (op->write_mask >> c & 1) {
                writer[op->dst_slot + c] = op;
                component[op->dst_slot + c] = op->swizzle[c];
            }
    }
    int kind = VFETCH_WORD_COPY_NONE;
    for (unsigned k = 0; k < stride / 4; k++) {
        const struct vfetch_op_exec *op = writer[k];
        if (!op)
            return VFETCH_WORD_COPY_NONE;
        /* the field's 32 bits, unconverted: floats, or 32-bit integers kept whole */
        const int raw = op->format == VFETCH_FORMAT_FLOAT32 ||
                        (op->format == VFETCH_FORMAT_FIXED32 &&
                         (op->conversion == VFETCH_CONV_INTEGER ||
                          op->conversion == VFETCH_CONV_SINTEGER));
        if (!raw || component[k] >= op->count)
            return VFETCH_WORD_COPY_NONE;
        const struct vfetch_lane *lane = &op->lane[component[k]];
        if (lane->stream != 0 || lane->nbytes != 4 || lane->field_shift || lane->field_bits != 32)
            return VFETCH_WORD_COPY_NONE;
        const int order = word_order(lane, k);
        if (order == VFETCH_WORD_COPY_NONE || (kind && order != kind))
            return VFETCH_WORD_COPY_NONE;
        kind = order;
    }
    return kind;
}

/* The generated copy (lib/jit/x86_copy.c, four 32-byte steps an iteration, stores aligned)
   against the portable one, measured on a Zen 3 and an Intel Xeon (docs/decisions.md,
   "Measured choices"): at the avx2 and avx512 levels (the same code) it is as fast or faster
   at every count, byte-reversed or not; at the sse41 level too where it reverses bytes, but
   libc's memcpy, which uses the CPU's widest stores whatever level vfetch runs at, copied
   plain 32-byte records up to 1.8x faster from 48 records (1.1-1.4x slower at 16). */
uint32_t vfetch_word_copy_crossover(const struct vfetch_plan *plan)
{
    if (plan->word_copy == VFETCH_WORD_COPY && !strcmp(plan->isa, "sse41"))
        return 32;
    return UINT32_MAX;
}
