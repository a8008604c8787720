/*
 * The R300/R500 vertex-fetch state of an emulator: VAP register writes and 3D_LOAD_VBPNTR
 * packets in, the plan for the current state out. A plan is looked up again only after a write
 * changed a value, and then first in a cache of the last R300_CACHE_SIZE plans compiled
 * (drivers switch between a few vertex formats draw after draw), compiled only when missing.
 */
#include <stdlib.h>
#include <string.h>

#include "vfetch/r300.h"

#define R300_CACHE_SIZE 16

/* Everything a plan compiles from besides the state's options, canonical (arrays past the
   count, and the immediate size in array mode, are zero): 32-bit words, no padding, compared
   with memcmp. */
struct r300_key {
    uint32_t psc[8], ext[8], sgn_norm, swap, num_arrays, vtx_size;
    uint32_t array[VFETCH_R300_MAX_ARRAYS][2]; /* stride, count in dwords */
};

struct vfetch_r300_state {
    struct vfetch_r300_state_params params;
    /* The registers as a description (its layout and stride unused: the params' apply). */
    struct vfetch_r300_desc regs;
    uint32_t max_index;
    /* The plan each mode (0 arrays, 1 immediate) returned last, and whether it is still the
       current one (no write changed a value since). */
    const vfetch_plan *returned[2];
    uint8_t fresh[2];
    uint64_t compiles;
    /* The cache, first in first out: entry cache_next is replaced next. */
    struct r300_key cache_key[R300_CACHE_SIZE];
    vfetch_plan *cache_plan[R300_CACHE_SIZE];
    unsigned cache_used, cache_next;
};

int vfetch_r300_state_create(const struct vfetch_r300_state_params *params,
                             vfetch_r300_state **out)
{
    const struct vfetch_r300_state_params defaults = { VFETCH_R300_LAYOUT_COMPACT, 0,
                                                       VFETCH_PATH_AUTO };
    if (!params)
        params = &defaults;
    if (!out || (unsigned)params->layout > VFETCH_R300_LAYOUT_FULL ||
        (unsigned)params->path > VFETCH_PATH_PER_OP)
        return VFETCH_EINVAL;
    struct vfetch_r300_state *s = calloc(1, sizeof *s);
    if (!s)
        return VFETCH_ENOMEM;
    s->params = *params;
    vfetch_r300_desc_init(&s->regs);
    s->max_index = UINT32_MAX;
    *out = s;
    return VFETCH_OK;
}

void vfetch_r300_state_free(vfetch_r300_state *state)
{
    if (!state)
        return;
    for (unsigned e = 0; e < state->cache_used; e++)
        vfetch_plan_free(state->cache_plan[e]);
    free(state);
}

/* The register an address names, or NULL. */
static uint32_t *r300_state_reg(vfetch_r300_state *s, uint32_t addr)
{
    if (addr % 4)
        return NULL;
    if (addr >= VFETCH_R300_VAP_PROG_STREAM_CNTL_0 && addr < VFETCH_R300_VAP_PROG_STREAM_CNTL_0 + 32)
        return &s->regs.prog_stream_cntl[(addr - VFETCH_R300_VAP_PROG_STREAM_CNTL_0) / 4];
    if (addr >= VFETCH_R300_VAP_PROG_STREAM_CNTL_EXT_0 &&
        addr < VFETCH_R300_VAP_PROG_STREAM_CNTL_EXT_0 + 32)
        return &s->regs.prog_stream_cntl_ext[(addr - VFETCH_R300_VAP_PROG_STREAM_CNTL_EXT_0) / 4];
    switch (addr) {
    case VFETCH_R300_VAP_VTX_SIZE: return &s->regs.vtx_size_dwords;
    case VFETCH_R300_VAP_VF_MAX_VTX_INDX: return &s->max_index;
    case VFETCH_R300_VAP_CNTL_STATUS: return &s->regs.cntl_status;
    case VFETCH_R300_VAP_PSC_SGN_NORM_CNTL: return &s->regs.sgn_norm_cntl;
    default: return NULL;
    }
}

int vfetch_r300_load_reg(vfetch_r300_state *state, uint32_t addr, uint32_t value)
{
    if (!state)
        return VFETCH_EINVAL;
    uint32_t *reg = r300_state_reg(state, addr);
    if (!reg)
        return VFETCH_EREGISTER;
    /* plans read VC_SWAP alone of VAP_CNTL_STATUS, and none reads VF_MAX_VTX_INDX */
    const uint32_t read_bits = addr == VFETCH_R300_VAP_CNTL_STATUS ? 3u
                               : addr == VFETCH_R300_VAP_VF_MAX_VTX_INDX ? 0u
                                                                         : 0xffffffffu;
    if ((*reg ^ value) & read_bits)
        state->fresh[0] = state->fresh[1] = 0;
    *reg = value;
    return VFETCH_OK;
}

uint32_t vfetch_r300_state_reg(const vfetch_r300_state *state, uint32_t addr)
{
    if (!state)
        return 0;
    const uint32_t *reg = r300_state_reg((vfetch_r300_state *)state, addr);
    return reg ? *reg : 0;
}

int vfetch_r300_load_vbpntr(vfetch_r300_state *state, const uint32_t *payload, size_t words)
{
    if (!state || !payload || words < 1)
        return VFETCH_EINVAL;
    const uint32_t count = payload[0] & 0x1f;
    if (count > VFETCH_R300_MAX_ARRAYS)
        return VFETCH_ER300_TOO_MANY_ARRAYS;
    /* per pair: the size/stride word and two addresses; an odd last array: word, address */
    if (words < 1 + (size_t)3 * (count / 2) + 2 * (count & 1))
        return VFETCH_EINVAL;
    struct vfetch_r300_array arrays[VFETCH_R300_MAX_ARRAYS];
    for (uint32_t a = 0; a < count; a++) {
        const uint32_t w = payload[1 + 3 * (a / 2)] >> (16 * (a & 1));
        arrays[a] = (struct vfetch_r300_array){ .stride_dwords = w >> 8 & 0xff,
                                                .count_dwords = w & 0xff };
    }
    struct vfetch_r300_desc *r = &state->regs;
    if (count != r->num_arrays || memcmp(arrays, r->arrays, count * sizeof arrays[0]))
        state->fresh[0] = 0;
    r->num_arrays = count;
    memcpy(r->arrays, arrays, count * sizeof arrays[0]);
    return VFETCH_OK;
}

/* The key of a mode's plan (0 arrays, 1 immediate). */
static void r300_state_key(const struct vfetch_r300_desc *r, int immediate, struct r300_key *k)
{
    memset(k, 0, sizeof *k);
    memcpy(k->psc, r->prog_stream_cntl, sizeof k->psc);
    memcpy(k->ext, r->prog_stream_cntl_ext, sizeof k->ext);
    k->sgn_norm = r->sgn_norm_cntl;
    k->swap = r->cntl_status & 3;
    if (immediate) {
        k->vtx_size = r->vtx_size_dwords;
    } else {
        k->num_arrays = r->num_arrays;
        for (unsigned a = 0; a < r->num_arrays; a++) {
            k->array[a][0] = r->arrays[a].stride_dwords;
            k->array[a][1] = r->arrays[a].count_dwords;
        }
    }
}

int vfetch_r300_state_plan(vfetch_r300_state *state, int immediate, const vfetch_r300_plan **out_plan)
{
    if (!state || !out_plan)
        return VFETCH_EINVAL;
    const int mode = immediate ? 1 : 0;
    if (state->fresh[mode]) {
        *out_plan = state->returned[mode];
        return VFETCH_OK;
    }
    struct r300_key key;
    r300_state_key(&state->regs, mode, &key);
    for (unsigned e = 0; e < state->cache_used; e++)
        if (!memcmp(&state->cache_key[e], &key, sizeof key)) {
            *out_plan = state->returned[mode] = state->cache_plan[e];
            state->fresh[mode] = 1;
            return VFETCH_OK;
        }
    /* a miss: the mode's description (no arrays, or no immediate size), the state's options */
    state->compiles++;
    struct vfetch_r300_desc d = state->regs;
    if (mode)
        d.num_arrays = 0;
    else
        d.vtx_size_dwords = 0;
    d.layout = state->params.layout;
    d.out_stride = state->params.out_stride;
    struct vfetch_plan_desc pd;
    int err = vfetch_r300_translate(&d, &pd);
    vfetch_plan *plan = NULL;
    if (!err) {
        pd.path = state->params.path;
        err = vfetch_plan_compile(&pd, &plan);
    }
    if (err)
        return err;
    /* The oldest entry goes, unless it is the plan the other mode returned last (its caller
       may still hold it: the contract keeps it valid until that mode returns another). */
    unsigned e;
    if (state->cache_used < R300_CACHE_SIZE) {
        e = state->cache_used++;
    } else {
        e = state->cache_next;
        if (state->cache_plan[e] == state->returned[!mode])
            e = (e + 1) % R300_CACHE_SIZE;
        vfetch_plan_free(state->cache_plan[e]);
    }
    state->cache_next = (e + 1) % R300_CACHE_SIZE;
    state->cache_key[e] = key;
    state->cache_plan[e] = plan;
    *out_plan = state->returned[mode] = plan;
    state->fresh[mode] = 1;
    return VFETCH_OK;
}

uint32_t vfetch_r300_state_max_index(const vfetch_r300_state *state)
{
    return state ? state->max_index : UINT32_MAX;
}

uint64_t vfetch_r300_state_compiles(const vfetch_r300_state *state)
{
    return state ? state->compiles : 0;
}
