/*
 * vfetch's column for the Dolphin index-generator peer kit (../shared/peers/dolphin-index):
 * its hook vfetch_peer_indices() over the public API of vfetch/prim.h only. The bench build
 * compiles it into bench/libgx_index_peer.a; the kit links that and libvfetch.a (docs/prim.md,
 * "Against Dolphin").
 *
 * One call is one IndexGenerator::AddIndices: a GX draw's primitive (the command byte with its
 * VAT bits clear), its vertex count and base index, Dolphin's two switches (host restart, VS
 * line/point expansion), 16-bit indices out.
 */
#include <stddef.h>
#include <stdint.h>

#include "vfetch/prim.h"

/* The kit's vfetch-peer.h declares the same; defined here without it so that the library's
   build compiles this file on its own. */
#define VFETCH_PEER_ERROR ((size_t)-1)
size_t vfetch_peer_indices(int gx_primitive, uint32_t count, uint32_t base_index, int restart,
                           int vs_expand, uint16_t *out, size_t out_capacity);

/* A plan per primitive and mode, compiled on first use: an emulator compiles its primitives
   once too. The kit calls from one thread. */
static vfetch_prim_plan *plans[8][2][2];

static __attribute__((noinline)) vfetch_prim_plan *plan_for(unsigned primitive, int restart,
                                                            int vs_expand)
{
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    d.primitive = 0x80 | primitive << 3;
    d.restart = (uint8_t)restart;
    d.expand_lines_points = (uint8_t)vs_expand;
    d.index_type = VFETCH_INDEX_U16;
    vfetch_prim_plan *plan = NULL;
    if (vfetch_prim_compile(&d, &plan))
        return NULL;
    return plans[primitive][restart][vs_expand] = plan;
}

size_t vfetch_peer_indices(int gx_primitive, uint32_t count, uint32_t base_index, int restart,
                           int vs_expand, uint16_t *out, size_t out_capacity)
{
    if (gx_primitive < 0x80 || gx_primitive > 0xB8 || gx_primitive & 7)
        return VFETCH_PEER_ERROR;
    const unsigned primitive = (unsigned)(gx_primitive - 0x80) >> 3;
    restart = restart != 0;
    vs_expand = vs_expand != 0;
    const vfetch_prim_plan *plan = plans[primitive][restart][vs_expand];
    if (!plan && !(plan = plan_for(primitive, restart, vs_expand)))
        return VFETCH_PEER_ERROR;
    struct vfetch_prim_run_params p = {
        .count = count, .base_index = base_index, .out = out, .out_capacity = out_capacity
    };
    struct vfetch_prim_result r;
    return vfetch_prim_run(plan, &p, &r) ? VFETCH_PEER_ERROR : r.written;
}
