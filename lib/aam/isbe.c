/*
 * The ISBE record layout (isbe.h), shared by the Maxwell and GX front-ends: a record's slots
 * in the attribute address map, their defaults, and any front-end's plan description turned
 * into that layout.
 */
#include <string.h>

#include "aam/isbe.h"

int vfetch_isbe_constants(struct vfetch_plan_desc *d, const uint8_t *written,
                                  const uint32_t *word)
{
    for (unsigned base = 0; base < d->out_slots; base += 4) {
        unsigned mask = 0;
        for (unsigned c = 0; c < 4 && base + c < d->out_slots; c++)
            if (!written[base + c])
                mask |= 1u << c;
        if (!mask)
            continue;
        if (d->num_ops == VFETCH_MAX_OPS)
            return VFETCH_EPLAN;
        struct vfetch_op *op = &d->ops[d->num_ops++];
        vfetch_op_init(op);
        op->format = VFETCH_FORMAT_CONSTANT;
        op->conversion = VFETCH_CONV_FLOAT;
        op->count = 0;
        op->dst_slot = (uint16_t)base; /* (its masked slots all lie in the record) */
        op->write_mask = (uint8_t)mask;
        for (unsigned c = 0; c < 4; c++)
            op->constant[c] = mask >> c & 1 ? word[base + c] : 0;
    }
    return VFETCH_OK;
}

unsigned vfetch_isbe_slots(const struct vfetch_aam_map *bmap, int full, uint32_t attribute_default,
                           int16_t *slot_of, uint32_t *word)
{
    unsigned slots = 0;
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++) {
        const int held = full || vfetch_aam_map_has(bmap, n);
        slot_of[n] = held ? (int16_t)slots++ : -1;
        if (held)
            word[slot_of[n]] = vfetch_aam_default_bits(n, attribute_default);
    }
    return slots;
}

int vfetch_isbe_desc(const struct vfetch_plan_desc *in, const int8_t *generic_of_location, int full,
                     uint32_t attribute_default, struct vfetch_plan_desc *out)
{
    if (!in || !out)
        return VFETCH_EINVAL;
    if (in->out_slots < 1 || in->out_slots > VFETCH_MAX_SLOTS || in->num_ops > VFETCH_MAX_OPS)
        return VFETCH_EPLAN;
    /* Each location's slots: from its first to the next location's first (or the record's
       end), at most four; they become its generic attribute's components, in order. */
    int16_t generic_slot[VFETCH_MAX_SLOTS]; /* input slot -> AAM attribute, or -1 */
    memset(generic_slot, -1, sizeof generic_slot);
    struct vfetch_aam_map bmap = { { 0 } };
    int8_t generic[VFETCH_MAX_LOCATIONS];
    for (unsigned l = 0; l < VFETCH_MAX_LOCATIONS; l++) {
        const int g = generic_of_location ? generic_of_location[l] : (int)l;
        generic[l] = (int8_t)g;
        const int first = in->location_slot[l];
        if (g < 0 || first < 0 || (unsigned)first >= in->out_slots)
            continue;
        if (g >= 32)
            return VFETCH_EINVAL;
        for (unsigned k = 0; k < VFETCH_MAX_LOCATIONS; k++) /* a generic taken twice */
            if (k < l && generic[k] == g && in->location_slot[k] >= 0 &&
                (unsigned)in->location_slot[k] < in->out_slots)
                return VFETCH_EINVAL;
        unsigned end = in->out_slots;
        for (unsigned k = 0; k < VFETCH_MAX_LOCATIONS; k++)
            if (in->location_slot[k] > first && (unsigned)in->location_slot[k] < end)
                end = (unsigned)in->location_slot[k];
        for (unsigned c = 0; c < 4 && (unsigned)first + c < end; c++) {
            generic_slot[first + c] = (int16_t)(VFETCH_AAM_GENERIC_0 + 4 * g + c);
            vfetch_aam_map_add(&bmap, VFETCH_AAM_GENERIC_0 + 4 * (unsigned)g + c);
        }
    }
    /* Output slots, as the Maxwell front-end lays them out. */
    int16_t slot_of[VFETCH_AAM_ATTRIBUTES];
    uint8_t written[VFETCH_MAX_SLOTS] = { 0 };
    uint32_t word[VFETCH_MAX_SLOTS];
    const unsigned slots = vfetch_isbe_slots(&bmap, full, attribute_default, slot_of, word);
    if (!slots)
        return VFETCH_EINVAL; /* a compact record of nothing: no location maps */

    struct vfetch_plan_desc d;
    vfetch_plan_desc_init(&d);
    d.num_streams = in->num_streams;
    memcpy(d.streams, in->streams, sizeof d.streams);
    d.path = in->path;
    d.out_slots = slots;
    d.out_stride = full ? 4 * VFETCH_AAM_ATTRIBUTES : 0;
    /* Each op's components that land in a location, one op per run of them whose output
       slots stay consecutive (a component keeps its source through the swizzle). */
    for (unsigned i = 0; i < in->num_ops; i++) {
        const struct vfetch_op *op = &in->ops[i];
        int16_t to[4];
        for (unsigned c = 0; c < 4; c++) {
            const unsigned s = (unsigned)op->dst_slot + c;
            to[c] = (op->write_mask >> c & 1) && s < VFETCH_MAX_SLOTS && generic_slot[s] >= 0
                        ? slot_of[generic_slot[s]] : -1;
        }
        for (unsigned c0 = 0; c0 < 4; c0++) {
            if (to[c0] < 0)
                continue;
            unsigned c1 = c0;
            while (c1 + 1 < 4 && to[c1 + 1] == to[c1] + 1)
                c1++;
            if (d.num_ops == VFETCH_MAX_OPS)
                return VFETCH_EPLAN;
            struct vfetch_op *o = &d.ops[d.num_ops++];
            *o = *op;
            o->dst_slot = (uint16_t)to[c0];
            o->write_mask = (uint8_t)((1u << (c1 - c0 + 1)) - 1);
            /* component c0 + j becomes component j (RGBA8 ops are one slot: c0 = 0) */
            for (unsigned j = 0; j < 4; j++) {
                o->swizzle[j] = c0 + j < 4 ? op->swizzle[c0 + j] : (uint8_t)j;
                o->constant[j] = c0 + j < 4 ? op->constant[c0 + j] : 0;
            }
            for (unsigned c = c0; c <= c1; c++)
                written[to[c]] = 1;
            c0 = c1;
        }
    }
    for (unsigned l = 0; l < VFETCH_MAX_LOCATIONS; l++) {
        const int first = in->location_slot[l];
        d.location_slot[l] = first >= 0 && (unsigned)first < in->out_slots && generic_slot[first] >= 0
                                 ? slot_of[generic_slot[first]] : -1;
    }
    const int err = vfetch_isbe_constants(&d, written, word);
    if (err)
        return err;
    if (d.num_streams == 0)
        d.num_streams = 1;
    *out = d;
    return VFETCH_OK;
}
