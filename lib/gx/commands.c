/*
 * Runs of GX commands (vfetch_gx_state_run_commands, docs/gx.md, "Runs of commands"): an
 * emulator's FIFO or display-list bytes consumed while they are commands the vertex state
 * owns (NOP, LOAD_CP_REG, draws), each draw appended to the batch as
 * vfetch_gx_state_draw_batch appends it, up to the first command vfetch does not own, one cut
 * short, a full batch or a failing draw.
 */
#include <string.h>

#include "gx/state.h"

int vfetch_gx_state_run_commands(vfetch_gx_state *state, const void *commands, size_t size,
                                 struct vfetch_batch *batch,
                                 struct vfetch_gx_commands_result *result)
{
    if (!state || !batch || !result || (!commands && size))
        return VFETCH_EINVAL;
    const uint8_t *const p = commands;
    /* the figures kept here, stored once at the end (through `result` the compiler would store
       each after every draw, not knowing what the batch aliases) */
    struct vfetch_gx_commands_result r = { 0 };
    size_t at = 0;
    int err = VFETCH_OK;
    enum vfetch_gx_stop stop = VFETCH_GX_STOP_END;
    while (at < size) {
        const uint8_t op = p[at];
        const size_t left = size - at;
        if (op == 0x00) { /* NOP; FIFOs pad with runs of them: eight at a time */
            at++;
            for (uint64_t w; size - at >= 8 && (memcpy(&w, p + at, 8), w == 0);)
                at += 8;
            continue;
        }
        if (op == 0x08) { /* LOAD_CP_REG: register byte, big-endian value */
            if (left < 6) {
                stop = VFETCH_GX_STOP_TRUNCATED;
                break;
            }
            const uint32_t value = (uint32_t)p[at + 2] << 24 | (uint32_t)p[at + 3] << 16 |
                                   (uint32_t)p[at + 4] << 8 | p[at + 5];
            if (vfetch_gx_load_cp_reg(state, p[at + 1], value) != VFETCH_OK) {
                stop = VFETCH_GX_STOP_FOREIGN; /* a register the state does not hold */
                break;
            }
            r.cp_writes++;
            at += 6;
            continue;
        }
        if (op < 0x80 || op > 0xbf) {
            stop = VFETCH_GX_STOP_FOREIGN;
            break;
        }
        if (left < 3) {
            stop = VFETCH_GX_STOP_TRUNCATED;
            break;
        }
        /* a draw: its format's vertex size gives its length */
        const unsigned vat = op & 7u;
        const vfetch_gx_plan *plan = gx_state_current(state, vat);
        if (!plan && (err = vfetch_gx_state_plan(state, vat, &plan)) != VFETCH_OK) {
            stop = VFETCH_GX_STOP_ERROR;
            break;
        }
        const uint32_t count = (uint32_t)p[at + 1] << 8 | p[at + 2];
        const uint64_t bytes = (uint64_t)count * plan->format.vertex_size;
        if (bytes > left - 3) {
            stop = VFETCH_GX_STOP_TRUNCATED;
            break;
        }
        struct vfetch_gx_batch_result b;
        err = gx_state_draw_batch_with(state, op, p + at + 3, (size_t)bytes, count, batch, &b);
        if (err) {
            stop = err == VFETCH_EBATCH_FULL ? VFETCH_GX_STOP_BATCH_FULL : VFETCH_GX_STOP_ERROR;
            err = err == VFETCH_EBATCH_FULL ? VFETCH_OK : err;
            break;
        }
        r.draws++;
        r.vertices += b.vertices;
        r.skipped += b.skipped;
        r.clamped += b.clamped;
        r.indices += b.indices;
        at += 3 + (size_t)bytes;
    }
    r.consumed = at;
    r.stop = stop;
    *result = r;
    return err;
}
