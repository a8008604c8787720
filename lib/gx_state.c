/*
 * The CP vertex state of an emulator: register writes in, the compiled format of each VAT out,
 * compiled again only after a write changed something it depends on.
 */
#include <stdlib.h>
#include <string.h>

#include "gx_internal.h"

#define GX_NUM_FORMATS 8

struct vfetch_gx_state {
    struct vfetch_gx_state_params params;
    uint32_t matindex[2];
    uint32_t vcd_lo, vcd_hi;
    uint32_t vat[3][GX_NUM_FORMATS]; /* A, B, C */
    uint32_t array_base[16], array_stride[16];
    vfetch_gx_plan *plan[GX_NUM_FORMATS];
    uint8_t dirty[GX_NUM_FORMATS];
    uint64_t compiles;
};

int vfetch_gx_state_create(const struct vfetch_gx_state_params *params, vfetch_gx_state **out)
{
    const struct vfetch_gx_state_params defaults = { VFETCH_GX_LAYOUT_VEC4, VFETCH_GX_COLOR_FLOAT,
                                                     VFETCH_PATH_AUTO };
    if (!params)
        params = &defaults;
    if (!out || !vfetch_gx_options_valid(params->layout, params->color_output, params->path))
        return VFETCH_EINVAL;
    struct vfetch_gx_state *s = calloc(1, sizeof *s);
    if (!s)
        return VFETCH_ENOMEM;
    s->params = *params;
    memset(s->dirty, 1, sizeof s->dirty);
    *out = s;
    return VFETCH_OK;
}

void vfetch_gx_state_free(vfetch_gx_state *state)
{
    if (!state)
        return;
    for (unsigned f = 0; f < GX_NUM_FORMATS; f++)
        vfetch_gx_plan_free(state->plan[f]);
    free(state);
}

/* The register a CP address names, or NULL; *scope is the format it affects (0..7) or -1 for
   all of them, or -2 for none (matrix indices and array bases do not change a format). */
static uint32_t *gx_state_reg(vfetch_gx_state *s, uint8_t addr, int *scope)
{
    const unsigned hi = addr >> 4, lo = addr & 0xf;
    *scope = -1;
    switch (hi) {
    case 0x3: *scope = -2; return lo == 0 ? &s->matindex[0] : NULL;
    case 0x4: *scope = -2; return lo == 0 ? &s->matindex[1] : NULL;
    case 0x5: return lo == 0 ? &s->vcd_lo : NULL;
    case 0x6: return lo == 0 ? &s->vcd_hi : NULL;
    case 0x7:
    case 0x8:
    case 0x9:
        if (lo >= GX_NUM_FORMATS)
            return NULL;
        *scope = (int)lo;
        return &s->vat[hi - 0x7][lo];
    case 0xa: *scope = -2; return &s->array_base[lo];
    case 0xb:
        /* Arrays 12..15 feed XF indexed loads, never a vertex format. */
        *scope = lo < VFETCH_GX_NUM_ATTRS ? -1 : -2;
        return &s->array_stride[lo];
    default: return NULL;
    }
}

int vfetch_gx_load_cp_reg(vfetch_gx_state *state, uint8_t addr, uint32_t value)
{
    if (!state)
        return VFETCH_EINVAL;
    int scope;
    uint32_t *reg = gx_state_reg(state, addr, &scope);
    if (!reg)
        return VFETCH_EREGISTER;
    /* Formats read 8 bits of ARRAY_STRIDE: other bits change nothing they depend on. */
    const uint32_t read_bits = (addr >> 4) == 0xb ? 0xffu : 0xffffffffu;
    const int changed = ((*reg ^ value) & read_bits) != 0;
    *reg = value;
    if (!changed)
        return VFETCH_OK;
    if (scope >= 0)
        state->dirty[scope] = 1;
    else if (scope == -1)
        memset(state->dirty, 1, sizeof state->dirty);
    return VFETCH_OK;
}

uint32_t vfetch_gx_state_reg(const vfetch_gx_state *state, uint8_t addr)
{
    int scope;
    const uint32_t *reg = state ? gx_state_reg((vfetch_gx_state *)state, addr, &scope) : NULL;
    return reg ? *reg : 0;
}

int vfetch_gx_state_plan(vfetch_gx_state *state, unsigned vat, const vfetch_gx_plan **out_plan)
{
    if (!state || !out_plan || vat >= GX_NUM_FORMATS)
        return VFETCH_EINVAL;
    if (!state->dirty[vat] && state->plan[vat]) {
        *out_plan = state->plan[vat];
        return VFETCH_OK;
    }
    struct vfetch_gx_compile_params cp;
    memset(&cp, 0, sizeof cp);
    cp.regs = (struct vfetch_gx_desc){ state->vcd_lo, state->vcd_hi, state->vat[0][vat],
                                       state->vat[1][vat], state->vat[2][vat] };
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
        cp.array_stride[a] = (uint8_t)state->array_stride[a]; /* ARRAY_STRIDE is 8 bits */
    cp.layout = state->params.layout;
    cp.color_output = state->params.color_output;
    cp.path = state->params.path;
    vfetch_gx_plan *plan = NULL;
    const int err = vfetch_gx_compile(&cp, &plan);
    state->compiles++;
    vfetch_gx_plan_free(state->plan[vat]);
    state->plan[vat] = plan;
    state->dirty[vat] = err != 0;
    if (err)
        return err;
    *out_plan = plan;
    return VFETCH_OK;
}

uint64_t vfetch_gx_state_compiles(const vfetch_gx_state *state)
{
    return state ? state->compiles : 0;
}
