/*
 * Lowering a record program's gathered form (see record.h): each output byte's staged source
 * byte, read off the program's window and ctrl, becomes a byte of a 16-byte piece (a move of
 * one vertex of the group). Runs once per compiled GX format.
 */
#include <stdlib.h>
#include <string.h>

#include "gx/gx_dsp.h"

/* A byte of a piece: move, vertex of the group, offset in the move's 16 bytes. */
struct gather_byte {
    int used;
    uint8_t move, vertex, off;
};

/* The staged byte output byte b of vector v reads, as a piece byte; .used = 0 for a zero. */
static int gather_source(const struct vfetch_record_prog *prog, const struct vfetch_rp_vector *v,
                         unsigned b, uint32_t stride, unsigned num_moves, const uint16_t *dst,
                         const uint16_t *size, struct gather_byte *out)
{
    uint64_t at;
    out->used = 0;
    if (v->window == VFETCH_RP_WINDOW_16) {
        if (v->ctrl[b] & 0x80)
            return 1;
        at = (uint64_t)v->src_off[b / 16] + (v->ctrl[b] & 15);
    } else {
        if (!(v->zmask >> b & 1))
            return 1;
        at = (uint64_t)v->src_off[0] + (v->ctrl[b] & (vfetch_rp_window_bytes(v->window) - 1));
    }
    const uint64_t vertex = at / stride, s = at % stride;
    if (vertex >= prog->group)
        return 0; /* lanes read only their group's records: not expected */
    for (unsigned m = 0; m < num_moves; m++)
        if (s >= dst[m] && s < (uint64_t)dst[m] + size[m]) {
            *out = (struct gather_byte){ 1, (uint8_t)m, (uint8_t)vertex, (uint8_t)(s - dst[m]) };
            return 1;
        }
    return 0; /* a byte no move stages */
}

static int gather_same_piece(const struct gather_byte *a, const struct gather_byte *b)
{
    return a->move == b->move && a->vertex == b->vertex;
}

/* One vector's gather: its pieces placed, its ctrl and zmask. Returns 0 if it has too many. */
static int gather_vector(const struct vfetch_record_prog *prog, const struct vfetch_rp_vector *v,
                         struct vfetch_rp_gather_vector *g, uint32_t stride, unsigned num_moves,
                         const uint16_t *dst, const uint16_t *size, int wide)
{
    memset(g, 0, sizeof *g);
    if (!(v->passes & VFETCH_RP_LOAD))
        return 1;
    if (v->passes & VFETCH_RP_HALF)
        return 0; /* its second shuffle reads the window itself (GX has no binary16) */
    const unsigned bytes = prog->lanes * 4, lanes128 = prog->lanes / 4;
    struct gather_byte src[64];
    for (unsigned b = 0; b < bytes; b++)
        if (!gather_source(prog, v, b, stride, num_moves, dst, size, &src[b]))
            return 0;
    /* pieces per slot: [register][128-bit lane]; slot_used marks the placed ones */
    struct gather_byte slot[VFETCH_RP_GATHER_REGS][4];
    int slot_used[VFETCH_RP_GATHER_REGS][4] = { { 0 } };
    unsigned regs = 0;
    if (wide) {
        unsigned pieces = 0;
        for (unsigned b = 0; b < bytes; b++) {
            if (!src[b].used)
                continue;
            unsigned j = 0;
            while (j < pieces && !gather_same_piece(&slot[j / 4][j % 4], &src[b]))
                j++;
            if (j == pieces) {
                if (pieces == 8)
                    return 0; /* two registers' worth */
                slot[j / 4][j % 4] = src[b];
                slot_used[j / 4][j % 4] = 1;
                pieces++;
            }
            g->ctrl[0][b] = (uint8_t)(16 * j + src[b].off);
            g->zmask |= 1ull << b;
        }
        regs = (pieces + 3) / 4;
    } else {
        memset(g->ctrl, 0x80, sizeof g->ctrl);
        for (unsigned q = 0; q < lanes128; q++) {
            unsigned pieces = 0;
            for (unsigned b = 16 * q; b < 16 * q + 16; b++) {
                if (!src[b].used)
                    continue;
                unsigned j = 0;
                while (j < pieces && !gather_same_piece(&slot[j][q], &src[b]))
                    j++;
                if (j == pieces) {
                    if (pieces == VFETCH_RP_GATHER_REGS)
                        return 0;
                    slot[j][q] = src[b];
                    slot_used[j][q] = 1;
                    pieces++;
                }
                g->ctrl[j][b] = src[b].off;
            }
            regs = pieces > regs ? pieces : regs;
        }
    }
    /* Unused slots of the registers assembled load a used piece (any address the columns
       hold does; its bytes are not shuffled in). */
    const struct gather_byte *any = NULL;
    for (unsigned j = 0; j < regs && !any; j++)
        for (unsigned q = 0; q < 4 && !any; q++)
            if (slot_used[j][q])
                any = &slot[j][q];
    for (unsigned j = 0; j < regs; j++)
        for (unsigned q = 0; q < 4; q++) {
            const struct gather_byte *p = slot_used[j][q] ? &slot[j][q] : any;
            g->move[j][q] = p->move;
            g->vertex[j][q] = p->vertex;
        }
    g->regs = (uint8_t)regs;
    return 1;
}

struct vfetch_rp_gather *vfetch_record_gather_lower(const struct vfetch_record_prog *prog,
                                                    uint32_t stride, unsigned num_moves,
                                                    const uint16_t *dst, const uint16_t *size,
                                                    int wide)
{
    if (!prog || !stride || !num_moves || prog->num_streams_read != 1 ||
        prog->streams_read[0] != 0)
        return NULL;
    for (unsigned m = 0; m < num_moves; m++)
        if (size[m] > 16 || (m && dst[m] < dst[m - 1] + size[m - 1]))
            return NULL;
    /* 64-byte aligned, as the vectors' ctrl tables are (struct vfetch_rp_gather_vector) */
    const size_t bytes = sizeof(struct vfetch_rp_gather) +
                         (size_t)prog->num_vectors * sizeof(struct vfetch_rp_gather_vector);
    struct vfetch_rp_gather *gp = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!gp)
        return NULL;
    gp->prog = prog;
    gp->wide = wide != 0;
    for (unsigned k = 0; k < prog->num_vectors; k++)
        if (!gather_vector(prog, &prog->vec[k], &gp->vec[k], stride, num_moves, dst, size, wide)) {
            free(gp);
            return NULL;
        }
    return gp;
}
