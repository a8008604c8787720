/*
 * vfetch_plan_declaration: a plan's output record as a host vertex input layout, read off
 * its description (location first slots, the ops that store them).
 */
#include "plan_internal.h"

/* The op whose value `slot` holds: the last one that stores it (ops run in order, a later
   one overwrites), or NULL. */
static const struct vfetch_op *decl_owner(const struct vfetch_plan_desc *d, unsigned slot)
{
    for (unsigned i = d->num_ops; i-- > 0;) {
        const struct vfetch_op *op = &d->ops[i];
        if (slot >= op->dst_slot && slot < op->dst_slot + 4u &&
            (op->write_mask >> (slot - op->dst_slot) & 1))
            return op;
    }
    return NULL;
}

int vfetch_plan_declaration(const vfetch_plan *plan, struct vfetch_vertex_decl *decl)
{
    if (!plan || !decl)
        return VFETCH_EINVAL;
    const struct vfetch_plan_desc *d = &plan->desc;
    decl->stride = plan->out_stride;
    decl->num_attrs = 0;
    for (unsigned l = 0; l < VFETCH_MAX_LOCATIONS; l++) {
        const int first = d->location_slot[l];
        if (first < 0)
            continue;
        /* up to the next location's first slot, or the record's end */
        unsigned end = d->out_slots;
        for (unsigned k = 0; k < VFETCH_MAX_LOCATIONS; k++)
            if (d->location_slot[k] > first && (unsigned)d->location_slot[k] < end)
                end = (unsigned)d->location_slot[k];
        const unsigned span = end - (unsigned)first < 4 ? end - (unsigned)first : 4;
        const struct vfetch_op *op = decl_owner(d, (unsigned)first);
        struct vfetch_attr_decl *a = &decl->attrs[decl->num_attrs++];
        a->location = l;
        a->offset = 4u * (unsigned)first;
        a->normalized = 0;
        if (op && op->conversion == VFETCH_CONV_PACK_UNORM8) {
            a->type = VFETCH_ATTR_UNORM8X4;
            a->count = 4;
            a->normalized = 1;
        } else if (op && (op->conversion == VFETCH_CONV_INTEGER ||
                          op->conversion == VFETCH_CONV_SINTEGER)) {
            /* the integers the op stores; its other slots are padding (float 0 / 1 bits, or
               a front-end's integer constants) */
            a->type = op->conversion == VFETCH_CONV_INTEGER ? VFETCH_ATTR_UINT32 : VFETCH_ATTR_SINT32;
            a->count = op->count < span ? op->count : span;
        } else {
            a->type = VFETCH_ATTR_FLOAT32;
            a->count = span;
        }
    }
    return VFETCH_OK;
}
