/*
 * The CP vertex state of an emulator: register writes in, the compiled format of each VAT out.
 * A format is looked up again only after a write changed something it depends on, and then
 * first in a cache of the last GX_CACHE_SIZE formats compiled (games switch between a few
 * vertex descriptors draw after draw), compiled only when it is not there.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gx/state.h"

/* Array n's binding: its ARRAY_BASE inside a mapped region (to the region's end), or none. */
static void gx_state_resolve(vfetch_gx_state *s, unsigned n)
{
    const uint32_t addr = s->array_base[n];
    s->draw.arrays[n] = (struct vfetch_binding){ NULL, 0 };
    for (unsigned r = 0; r < VFETCH_GX_MAX_REGIONS; r++)
        if (s->region[r].host && addr >= s->region[r].guest &&
            addr - s->region[r].guest < s->region[r].size) {
            const size_t off = addr - s->region[r].guest;
            s->draw.arrays[n] = (struct vfetch_binding){ s->region[r].host + off,
                                                         s->region[r].size - off };
            return;
        }
}

static void gx_shared_release(struct gx_shared_plan *shared)
{
    if (shared && --shared->refs == 0) {
        vfetch_gx_plan_free(shared->plan);
        free(shared);
    }
}

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
    vfetch_gx_run_params_init(&s->draw);
    *out = s;
    return VFETCH_OK;
}

void vfetch_gx_state_free(vfetch_gx_state *state)
{
    if (!state)
        return;
    for (unsigned f = 0; f < GX_NUM_FORMATS; f++)
        gx_shared_release(state->plan[f]);
    for (unsigned e = 0; e < state->cache_used; e++)
        gx_shared_release(state->cache_plan[e]);
    for (unsigned k = 0; k < 8; k++)
        vfetch_prim_plan_free(state->prim[k].plan);
    free(state);
}

/* What a CP address holds (a table, so that a write costs no switch): its register's byte
   offset in the state (0: an address the state does not hold), the bits of it formats read (0:
   none, as for matrix indices and strides 12..15; ARRAY_STRIDE's 7:0), and what a change of
   those bits touches: the formats (one VAT's or all eight) or an array's binding. */
enum gx_cp_touch { GX_TOUCH_NONE, GX_TOUCH_VAT, GX_TOUCH_ALL, GX_TOUCH_ARRAY };
struct gx_cp_slot {
    uint16_t offset;
    uint8_t touch; /* enum gx_cp_touch */
    uint8_t index; /* the VAT or the array */
    uint32_t read_bits;
};
/* Offset 0 marks an address not held: every register lies past the state's first member, and
   within the 16 bits of an offset. */
_Static_assert(offsetof(struct vfetch_gx_state, matindex) > 0 &&
                   offsetof(struct vfetch_gx_state, array_stride[15]) < 65536,
               "gx_cp_slot offsets");
#define GX_SLOT(member, touch, index, bits)                                                 \
    { offsetof(struct vfetch_gx_state, member), (touch), (index), (bits) }
#define GX_VAT_SLOTS(g)                                                                     \
    [0x70 + 0x10 * g] = GX_SLOT(vat[g][0], GX_TOUCH_VAT, 0, ~0u),                            \
    [0x71 + 0x10 * g] = GX_SLOT(vat[g][1], GX_TOUCH_VAT, 1, ~0u),                            \
    [0x72 + 0x10 * g] = GX_SLOT(vat[g][2], GX_TOUCH_VAT, 2, ~0u),                            \
    [0x73 + 0x10 * g] = GX_SLOT(vat[g][3], GX_TOUCH_VAT, 3, ~0u),                            \
    [0x74 + 0x10 * g] = GX_SLOT(vat[g][4], GX_TOUCH_VAT, 4, ~0u),                            \
    [0x75 + 0x10 * g] = GX_SLOT(vat[g][5], GX_TOUCH_VAT, 5, ~0u),                            \
    [0x76 + 0x10 * g] = GX_SLOT(vat[g][6], GX_TOUCH_VAT, 6, ~0u),                            \
    [0x77 + 0x10 * g] = GX_SLOT(vat[g][7], GX_TOUCH_VAT, 7, ~0u)
/* Array n: its base (a binding to resolve) and its stride (every format's); 12..15 feed XF
   indexed loads, never a vertex format. */
#define GX_ARRAY_SLOTS(n)                                                                   \
    [0xa0 + n] = GX_SLOT(array_base[n], GX_TOUCH_ARRAY, n, n < VFETCH_GX_NUM_ATTRS ? ~0u : 0),  \
    [0xb0 + n] = GX_SLOT(array_stride[n], GX_TOUCH_ALL, 0, n < VFETCH_GX_NUM_ATTRS ? 0xffu : 0)
static const struct gx_cp_slot gx_cp_slots[256] = {
    [0x30] = GX_SLOT(matindex[0], GX_TOUCH_NONE, 0, 0),
    [0x40] = GX_SLOT(matindex[1], GX_TOUCH_NONE, 0, 0),
    [0x50] = GX_SLOT(vcd_lo, GX_TOUCH_ALL, 0, ~0u),
    [0x60] = GX_SLOT(vcd_hi, GX_TOUCH_ALL, 0, ~0u),
    GX_VAT_SLOTS(0), GX_VAT_SLOTS(1), GX_VAT_SLOTS(2),
    GX_ARRAY_SLOTS(0), GX_ARRAY_SLOTS(1), GX_ARRAY_SLOTS(2), GX_ARRAY_SLOTS(3),
    GX_ARRAY_SLOTS(4), GX_ARRAY_SLOTS(5), GX_ARRAY_SLOTS(6), GX_ARRAY_SLOTS(7),
    GX_ARRAY_SLOTS(8), GX_ARRAY_SLOTS(9), GX_ARRAY_SLOTS(10), GX_ARRAY_SLOTS(11),
    GX_ARRAY_SLOTS(12), GX_ARRAY_SLOTS(13), GX_ARRAY_SLOTS(14), GX_ARRAY_SLOTS(15),
};
#undef GX_ARRAY_SLOTS
#undef GX_VAT_SLOTS
#undef GX_SLOT

int vfetch_gx_load_cp_reg(vfetch_gx_state *state, uint8_t addr, uint32_t value)
{
    const struct gx_cp_slot slot = gx_cp_slots[addr];
    if (!state)
        return VFETCH_EINVAL;
    if (!slot.offset)
        return VFETCH_EREGISTER;
    uint32_t *reg = (uint32_t *)((char *)state + slot.offset);
    const uint32_t old = *reg;
    *reg = value;
    if (!((old ^ value) & slot.read_bits))
        return VFETCH_OK;
    switch (slot.touch) {
    case GX_TOUCH_VAT:
        state->current[slot.index] = NULL;
        gx_state_unready(state, slot.index);
        break;
    case GX_TOUCH_ALL:
        memset(state->current, 0, sizeof state->current);
        gx_state_unready_all(state);
        break;
    case GX_TOUCH_ARRAY: /* the regions did not change: a binding moves only with its base */
        gx_state_resolve(state, slot.index);
        break;
    }
    return VFETCH_OK;
}

uint32_t vfetch_gx_state_reg(const vfetch_gx_state *state, uint8_t addr)
{
    const struct gx_cp_slot slot = gx_cp_slots[addr];
    return state && slot.offset ? *(const uint32_t *)((const char *)state + slot.offset) : 0;
}

/* The format a key describes, compiled; or NULL (the error in *err). */
static struct gx_shared_plan *gx_state_compile(vfetch_gx_state *state, const struct gx_key *key,
                                               int *err)
{
    struct vfetch_gx_desc desc;
    vfetch_gx_desc_init(&desc);
    desc.regs = (struct vfetch_gx_regs){ key->vcd_lo, key->vcd_hi, key->vat_a, key->vat_b,
                                         key->vat_c };
    memcpy(desc.array_stride, key->array_stride, sizeof desc.array_stride);
    desc.layout = state->params.layout;
    desc.color_output = state->params.color_output;
    desc.path = state->params.path;
    state->compiles++;
    struct gx_shared_plan *shared = malloc(sizeof *shared);
    if (!shared) {
        *err = VFETCH_ENOMEM;
        return NULL;
    }
    *err = vfetch_gx_compile(&desc, &shared->plan);
    if (*err) {
        free(shared);
        return NULL;
    }
    shared->refs = 1;
    return shared;
}

/* The format of a VAT whose registers changed: from the cache, or compiled. Out of line, so
   that the lookup of an unchanged one (every draw but a few) sets up no frame. */
static __attribute__((noinline)) int gx_state_refresh(vfetch_gx_state *state, unsigned vat,
                                                      const vfetch_gx_plan **out_plan)
{
    struct gx_key key;
    key.vcd_lo = state->vcd_lo;
    key.vcd_hi = state->vcd_hi;
    key.vat_a = state->vat[0][vat];
    key.vat_b = state->vat[1][vat];
    key.vat_c = state->vat[2][vat];
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
        key.array_stride[a] = (uint8_t)state->array_stride[a]; /* ARRAY_STRIDE is 8 bits */
    struct gx_shared_plan *shared = NULL;
    for (unsigned e = 0; e < state->cache_used && !shared; e++)
        if (gx_key_equal(&state->cache_key[e], &key))
            shared = state->cache_plan[e];
    if (shared) {
        shared->refs++;
    } else {
        int err;
        shared = gx_state_compile(state, &key, &err);
        if (!shared) {
            gx_shared_release(state->plan[vat]);
            state->plan[vat] = NULL;
            state->current[vat] = NULL;
            gx_state_unready(state, vat);
            return err;
        }
        /* into the cache (which keeps a reference), replacing the oldest entry */
        const unsigned e = state->cache_next;
        if (e < state->cache_used)
            gx_shared_release(state->cache_plan[e]);
        else
            state->cache_used++;
        state->cache_key[e] = key;
        state->cache_plan[e] = shared;
        shared->refs++;
        state->cache_next = (e + 1) % GX_CACHE_SIZE;
    }
    gx_shared_release(state->plan[vat]);
    state->plan[vat] = shared;
    state->current[vat] = shared->plan;
    *out_plan = shared->plan;
    return VFETCH_OK;
}

int vfetch_gx_state_plan(vfetch_gx_state *state, unsigned vat, const vfetch_gx_plan **out_plan)
{
    if (!state || !out_plan || vat >= GX_NUM_FORMATS)
        return VFETCH_EINVAL;
    const vfetch_gx_plan *plan = gx_state_current(state, vat);
    if (!plan)
        return gx_state_refresh(state, vat, out_plan);
    *out_plan = plan;
    return VFETCH_OK;
}

uint64_t vfetch_gx_state_compiles(const vfetch_gx_state *state)
{
    return state ? state->compiles : 0;
}

int vfetch_gx_state_map_memory(vfetch_gx_state *state, unsigned region, uint32_t guest,
                               const void *host, size_t size)
{
    if (!state || region >= VFETCH_GX_MAX_REGIONS || (!host && size) ||
        (size && size - 1 > UINT32_MAX - guest))
        return VFETCH_EINVAL;
    state->region[region].guest = guest;
    state->region[region].host = size ? host : NULL;
    state->region[region].size = size;
    for (unsigned n = 0; n < VFETCH_GX_NUM_ATTRS; n++)
        gx_state_resolve(state, n);
    return VFETCH_OK;
}

/* A draw whose format must be looked up again first: out of line, so that the common draw is
   a few stores and a tail call, without a frame. */
static __attribute__((noinline)) int gx_state_draw_refresh(vfetch_gx_state *state, unsigned vat,
                                                           const void *vertices,
                                                           size_t vertices_size, uint32_t count,
                                                           void *out, size_t out_size,
                                                           struct vfetch_gx_result *result)
{
    const vfetch_gx_plan *plan;
    const int err = gx_state_refresh(state, vat, &plan);
    return err ? err
               : gx_state_draw_with(state, plan, vertices, vertices_size, count, out, out_size,
                                    result);
}

int vfetch_gx_state_draw(vfetch_gx_state *state, unsigned vat, const void *vertices,
                         size_t vertices_size, uint32_t count, void *out, size_t out_size,
                         struct vfetch_gx_result *result)
{
    if (!state || vat >= GX_NUM_FORMATS)
        return VFETCH_EINVAL;
    const vfetch_gx_plan *plan = gx_state_current(state, vat);
    if (!plan)
        return gx_state_draw_refresh(state, vat, vertices, vertices_size, count, out, out_size,
                                     result);
    return gx_state_draw_with(state, plan, vertices, vertices_size, count, out, out_size, result);
}

int vfetch_gx_state_set_index_policy(vfetch_gx_state *state, enum vfetch_gx_index_policy policy)
{
    if (!state || (unsigned)policy > VFETCH_GX_INDEX_CLAMP)
        return VFETCH_EINVAL;
    state->draw.index_policy = policy;
    return VFETCH_OK;
}

int vfetch_gx_state_set_index_options(vfetch_gx_state *state,
                                      const struct vfetch_gx_index_options *options)
{
    if (!state || !options || (unsigned)options->index_type > VFETCH_INDEX_U32)
        return VFETCH_EINVAL;
    state->index_options = *options;
    gx_state_unready_all(state);
    for (unsigned k = 0; k < 8; k++) { /* made again from these on their next draw */
        vfetch_prim_plan_free(state->prim[k].plan);
        state->prim[k].plan = NULL;
    }
    return VFETCH_OK;
}

int vfetch_gx_state_prim_slot(vfetch_gx_state *state, uint8_t command)
{
    struct gx_prim_slot *slot = &state->prim[command >> 3 & 7];
    if (slot->plan)
        return VFETCH_OK;
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    d.frontend = VFETCH_PRIM_GX;
    d.primitive = command & 0xf8u;
    d.index_type =
        state->index_options.index_type == VFETCH_INDEX_U32 ? VFETCH_INDEX_U32 : VFETCH_INDEX_U16;
    d.restart = state->index_options.restart != 0;
    d.expand_lines_points = state->index_options.expand_lines_points != 0;
    d.drop_incomplete = state->index_options.drop_incomplete != 0;
    const int err = vfetch_prim_compile(&d, &slot->plan);
    if (err)
        return err;
    struct vfetch_prim_plan_info info;
    vfetch_prim_plan_info(slot->plan, &info);
    slot->width = (uint8_t)info.index_bytes;
    slot->scale = info.expanded ? 4 : 1;
    for (uint32_t n = 0; n < GX_PRIM_COUNTS; n++)
        slot->most[n] = (uint16_t)vfetch_prim_index_count(slot->plan, n);
    slot->index_bytes = info.index_bytes;
    slot->width_mask = info.index_bytes - 1;
    slot->most_vertices = (info.index_bytes == 4 ? 0xffffffffu : 0xffffu) / slot->scale;
    slot->spread = slot->scale * (info.index_bytes == 4 ? 1u : 0x10001u);
    slot->short_counts = 0;
    _Static_assert(PRIM_GROUP_MAX * PRIM_VEC_BYTES / 2 <= UINT8_MAX, "a body fits slot->body");
    for (uint32_t n = 1; n < PRIM_TINY; n++) {
        const struct prim_tiny *t = &slot->plan->tiny[n];
        const int short_way = t->top != PRIM_TINY_NONE && !t->tail_n;
        slot->short_counts |= (uint32_t)short_way << n;
        slot->body[n] = short_way ? (uint8_t)t->body : 0;
        slot->body_bytes[n] = short_way ? (uint16_t)(t->body * info.index_bytes) : 0;
    }
    return VFETCH_OK;
}
