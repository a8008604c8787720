/*
 * Maxwell vertex fetch: SET_VERTEX_ATTRIBUTE words taken apart, and a whole vertex format
 * (attributes, streams, SET_ATTRIBUTE_DEFAULT, the vertex-input Bmap) compiled into a core
 * plan whose records are the input ISBE, full or compact (vfetch/maxwell.h).
 *
 * Every slot of a record gets exactly one writer: an attribute's op (its components in the
 * Bmap), a constant (the AAM default, an integer attribute's missing (0, 0, 0, 1), or 0 where
 * the run puts a system value). Constants are grouped four slots at a time, so a plan has at
 * most 64 of them beside at most 64 attribute ops (VFETCH_MAX_OPS = 128).
 */
#include <stdlib.h>
#include <string.h>

#include "maxwell/maxwell_internal.h"
#include "vertex_format.h"

/* Each size code: components, bytes per component (0: one packed 4-byte word), and whether
   FLOAT is refused (the 8-bit sizes and A2B10G10R10: no float of those widths). */
struct size_info {
    uint8_t valid, components, component_bytes, no_float;
};

static struct size_info maxwell_size_info(uint32_t size)
{
    switch (size) {
    case VFETCH_MAXWELL_SIZE_R32_G32_B32_A32: return (struct size_info){ 1, 4, 4, 0 };
    case VFETCH_MAXWELL_SIZE_R32_G32_B32: return (struct size_info){ 1, 3, 4, 0 };
    case VFETCH_MAXWELL_SIZE_R32_G32: return (struct size_info){ 1, 2, 4, 0 };
    case VFETCH_MAXWELL_SIZE_R32: return (struct size_info){ 1, 1, 4, 0 };
    case VFETCH_MAXWELL_SIZE_R16_G16_B16_A16: return (struct size_info){ 1, 4, 2, 0 };
    case VFETCH_MAXWELL_SIZE_R16_G16_B16: return (struct size_info){ 1, 3, 2, 0 };
    case VFETCH_MAXWELL_SIZE_R16_G16: return (struct size_info){ 1, 2, 2, 0 };
    case VFETCH_MAXWELL_SIZE_R16: return (struct size_info){ 1, 1, 2, 0 };
    case VFETCH_MAXWELL_SIZE_R8_G8_B8_A8:
    case VFETCH_MAXWELL_SIZE_A8B8G8R8: return (struct size_info){ 1, 4, 1, 1 };
    case VFETCH_MAXWELL_SIZE_R8_G8_B8:
    case VFETCH_MAXWELL_SIZE_X8B8G8R8: return (struct size_info){ 1, 3, 1, 1 };
    case VFETCH_MAXWELL_SIZE_R8_G8:
    case VFETCH_MAXWELL_SIZE_G8R8: return (struct size_info){ 1, 2, 1, 1 };
    case VFETCH_MAXWELL_SIZE_R8:
    case VFETCH_MAXWELL_SIZE_A8: return (struct size_info){ 1, 1, 1, 1 };
    case VFETCH_MAXWELL_SIZE_A2B10G10R10: return (struct size_info){ 1, 4, 0, 1 };
    case VFETCH_MAXWELL_SIZE_B10G11R11: return (struct size_info){ 1, 3, 0, 0 };
    default: return (struct size_info){ 0, 0, 0, 0 };
    }
}

int vfetch_maxwell_attribute_parse(uint32_t word, struct vfetch_maxwell_attribute *out)
{
    if (!out)
        return VFETCH_EINVAL;
    struct vfetch_maxwell_attribute a;
    a.stream = word & 0x1f;
    a.inactive = word >> 6 & 1;
    a.offset = word >> 7 & 0x3fff;
    a.size = word >> 21 & 0x3f;
    a.type = word >> 27 & 7;
    a.swap_r_and_b = word >> 31;
    const struct size_info si = maxwell_size_info(a.size);
    a.components = si.components;
    a.bytes = si.component_bytes ? (uint32_t)si.components * si.component_bytes : 4;
    if (a.size == VFETCH_MAXWELL_SIZE_X8B8G8R8)
        a.bytes = 4;
    a.integer = a.type == VFETCH_MAXWELL_TYPE_UINT || a.type == VFETCH_MAXWELL_TYPE_SINT;
    if (!a.inactive) {
        if (!si.valid || a.type == 0)
            return VFETCH_EMAXWELL_ATTRIBUTE_FORMAT;
        /* FLOAT: 16- and 32-bit components and the small floats, which have no other type */
        const int is_float = a.type == VFETCH_MAXWELL_TYPE_FLOAT;
        if (a.size == VFETCH_MAXWELL_SIZE_B10G11R11 ? !is_float : is_float && si.no_float)
            return VFETCH_EMAXWELL_ATTRIBUTE_FORMAT;
    }
    *out = a;
    return VFETCH_OK;
}

void vfetch_maxwell_desc_init(struct vfetch_maxwell_desc *desc)
{
    if (!desc)
        return;
    memset(desc, 0, sizeof *desc);
    for (unsigned i = 0; i < VFETCH_MAXWELL_ATTRIBUTES; i++)
        desc->attribute[i] = 1u << 6; /* inactive */
    desc->attribute_default = VFETCH_AAM_ATTRIBUTE_DEFAULT_RESET;
    desc->layout = VFETCH_MAXWELL_LAYOUT_COMPACT;
    desc->path = VFETCH_PATH_AUTO;
}

/* The core plan's format and conversion of an attribute. */
static void maxwell_format(const struct vfetch_maxwell_attribute *a, struct vfetch_op *op)
{
    static const enum vfetch_conversion conv_of[8] = {
        [VFETCH_MAXWELL_TYPE_SNORM] = VFETCH_CONV_SNORM_ZERO_CLAMP,
        [VFETCH_MAXWELL_TYPE_UNORM] = VFETCH_CONV_UNORM,
        [VFETCH_MAXWELL_TYPE_SINT] = VFETCH_CONV_SINTEGER,
        [VFETCH_MAXWELL_TYPE_UINT] = VFETCH_CONV_INTEGER,
        [VFETCH_MAXWELL_TYPE_USCALED] = VFETCH_CONV_UINT,
        [VFETCH_MAXWELL_TYPE_SSCALED] = VFETCH_CONV_SINT,
        [VFETCH_MAXWELL_TYPE_FLOAT] = VFETCH_CONV_FLOAT,
    };
    const struct size_info si = maxwell_size_info(a->size);
    const int is_float = a->type == VFETCH_MAXWELL_TYPE_FLOAT;
    op->conversion = conv_of[a->type];
    if (a->size == VFETCH_MAXWELL_SIZE_A2B10G10R10)
        op->format = VFETCH_FORMAT_FIXED_10_10_10_2;
    else if (a->size == VFETCH_MAXWELL_SIZE_B10G11R11)
        op->format = VFETCH_FORMAT_UFLOAT_11_11_10;
    else if (si.component_bytes == 4)
        op->format = is_float ? VFETCH_FORMAT_FLOAT32 : VFETCH_FORMAT_FIXED32;
    else if (si.component_bytes == 2)
        op->format = is_float ? VFETCH_FORMAT_FLOAT16 : VFETCH_FORMAT_FIXED16;
    else
        op->format = VFETCH_FORMAT_FIXED8;
}

/* What compile builds before the core plan exists. */
struct maxwell_build {
    const struct vfetch_maxwell_desc *desc;
    struct vfetch_plan_desc pd;
    struct vfetch_maxwell_plan *mp;
    /* per slot: 1 once an op writes it; else the constant word it gets */
    uint8_t written[VFETCH_MAX_SLOTS];
    uint32_t word[VFETCH_MAX_SLOTS];
    int8_t plan_stream[VFETCH_MAXWELL_STREAMS]; /* core stream of a hardware stream, or -1 */
};

/* The core plan stream of hardware stream j, added on first use. */
static unsigned maxwell_stream(struct maxwell_build *b, unsigned j)
{
    if (b->plan_stream[j] < 0) {
        const unsigned s = b->pd.num_streams++;
        struct vfetch_stream *st = &b->pd.streams[s];
        st->stride = b->desc->stream_format[j] & 0xfff;
        st->order = VFETCH_ORDER_LITTLE;
        const int instanced = b->desc->stream_instance[j] & 1;
        st->step = instanced ? VFETCH_STEP_INSTANCE : VFETCH_STEP_INDEXED;
        st->divisor = instanced ? b->desc->stream_frequency[j] : 0;
        b->plan_stream[j] = (int8_t)s;
        b->mp->stream_hw[s] = (uint8_t)j;
    }
    return (unsigned)b->plan_stream[j];
}

/* The ops of attribute i for its components in `mask` (Bmap bits 0..3). */
static int maxwell_attribute_ops(struct maxwell_build *b, unsigned i, unsigned mask)
{
    struct vfetch_maxwell_attribute a;
    int err = vfetch_maxwell_attribute_parse(b->desc->attribute[i], &a);
    if (err)
        return err;
    if (a.inactive)
        return VFETCH_OK; /* its slots keep their defaults */
    if (!(b->desc->stream_format[a.stream] >> 12 & 1))
        return VFETCH_EMAXWELL_STREAM_DISABLED;

    struct vfetch_op proto;
    vfetch_op_init(&proto);
    maxwell_format(&a, &proto);
    const unsigned s = maxwell_stream(b, a.stream);
    const struct size_info si = maxwell_size_info(a.size);
    proto.count = (uint8_t)a.components;
    for (unsigned c = 0; c < a.components; c++) {
        proto.src[c].stream = (uint8_t)s;
        proto.src[c].offset = a.offset + c * si.component_bytes; /* packed: the word's offset */
    }
    /* Output component c takes sel[c]: A8 feeds w alone; SWAP_R_AND_B exchanges x and z. */
    uint8_t sel[4] = { 0, 1, 2, 3 };
    if (a.size == VFETCH_MAXWELL_SIZE_A8) {
        sel[0] = sel[1] = sel[2] = VFETCH_SWIZZLE_0;
        sel[3] = 0;
    }
    if (a.swap_r_and_b) {
        const uint8_t t = sel[0];
        sel[0] = sel[2];
        sel[2] = t;
    }
    const unsigned first = VFETCH_AAM_GENERIC_0 + 4 * i;
    /* Components the element does not supply (missing, or A8's zeros) are constants: (0, 0,
       0, 1), as integers for UINT/SINT. So the element is fetched, and its bytes checked,
       exactly when some held component reads it. */
    for (unsigned c = 0; c < 4; c++)
        if ((mask >> c & 1) && sel[c] >= a.components) {
            b->word[b->mp->slot_of[first + c]] = sel[c] != 3 ? 0u : a.integer ? 1u : VFETCH_ONE_BITS;
            mask &= ~(1u << c);
        }
    /* One op per run of consecutive components (their slots are consecutive in both layouts). */
    for (unsigned c0 = 0; c0 < 4; c0++) {
        if (!(mask >> c0 & 1))
            continue;
        unsigned c1 = c0;
        while (c1 + 1 < 4 && (mask >> (c1 + 1) & 1))
            c1++;
        if (b->pd.num_ops == VFETCH_MAX_OPS)
            return VFETCH_EPLAN; /* cannot happen: 32 attributes x 2 runs + 64 constants */
        struct vfetch_op *op = &b->pd.ops[b->pd.num_ops++];
        *op = proto;
        op->dst_slot = (uint16_t)b->mp->slot_of[first + c0];
        op->write_mask = (uint8_t)((1u << (c1 - c0 + 1)) - 1);
        for (unsigned j = 0; j < 4; j++)
            op->swizzle[j] = c0 + j <= c1 ? sel[c0 + j] : (uint8_t)j;
        for (unsigned c = c0; c <= c1; c++)
            b->written[b->mp->slot_of[first + c]] = 1;
        c0 = c1;
    }
    return VFETCH_OK;
}

static int maxwell_map_empty(const struct vfetch_aam_map *m)
{
    for (unsigned w = 0; w < 8; w++)
        if (m->words[w])
            return 0;
    return 1;
}

int vfetch_maxwell_compile(const struct vfetch_maxwell_desc *desc, vfetch_maxwell_plan **out_plan)
{
    if (!desc || !out_plan || (unsigned)desc->layout > VFETCH_MAXWELL_LAYOUT_FULL ||
        (unsigned)desc->path > VFETCH_PATH_PER_OP || desc->out_stride % 4)
        return VFETCH_EINVAL;
    struct maxwell_build *b = calloc(1, sizeof *b);
    struct vfetch_maxwell_plan *mp = calloc(1, sizeof *mp);
    int err = VFETCH_ENOMEM;
    if (!b || !mp)
        goto fail;
    b->desc = desc;
    b->mp = mp;
    memset(b->plan_stream, -1, sizeof b->plan_stream);

    /* The Bmap; by default every component of every active attribute. */
    mp->bmap = desc->input_bmap;
    if (maxwell_map_empty(&mp->bmap))
        for (unsigned i = 0; i < VFETCH_MAXWELL_ATTRIBUTES; i++)
            if (!(desc->attribute[i] >> 6 & 1))
                for (unsigned c = 0; c < 4; c++)
                    vfetch_aam_map_add(&mp->bmap, VFETCH_AAM_GENERIC_0 + 4 * i + c);

    unsigned slots = vfetch_isbe_slots(&mp->bmap, desc->layout == VFETCH_MAXWELL_LAYOUT_FULL, desc->attribute_default,
                                               mp->slot_of, b->word);
    err = VFETCH_EINVAL;
    if (slots == 0)
        goto fail; /* a compact record of nothing */
    if (desc->out_stride) { /* padded with zero words (b->word is zeroed) */
        if (desc->out_stride < 4 * slots || desc->out_stride > 4 * VFETCH_MAX_SLOTS)
            goto fail;
        slots = desc->out_stride / 4;
    }

    vfetch_plan_desc_init(&b->pd);
    b->pd.out_slots = slots;
    b->pd.path = desc->path;
    for (unsigned i = 0; i < VFETCH_MAXWELL_ATTRIBUTES; i++) {
        unsigned mask = 0;
        for (unsigned c = 0; c < 4; c++)
            mask |= (unsigned)vfetch_aam_map_has(&mp->bmap, VFETCH_AAM_GENERIC_0 + 4 * i + c) << c;
        if (mask && (err = maxwell_attribute_ops(b, i, mask)) != VFETCH_OK)
            goto fail;
        /* location i (the declaration's): the fetched attribute's x slot, if held */
        const int16_t x = mp->slot_of[VFETCH_AAM_GENERIC_0 + 4 * i];
        if ((mask & 1) && !(desc->attribute[i] >> 6 & 1) && x >= 0)
            b->pd.location_slot[i] = x;
    }
    /* System values: zero here, the run writes them (vfetch_maxwell_run). */
    mp->vertex_id_slot = vfetch_aam_map_has(&mp->bmap, VFETCH_AAM_VERTEX_ID)
                             ? mp->slot_of[VFETCH_AAM_VERTEX_ID] : -1;
    mp->instance_id_slot = vfetch_aam_map_has(&mp->bmap, VFETCH_AAM_INSTANCE_ID)
                               ? mp->slot_of[VFETCH_AAM_INSTANCE_ID] : -1;
    if (mp->vertex_id_slot >= 0)
        b->word[mp->vertex_id_slot] = 0;
    if (mp->instance_id_slot >= 0)
        b->word[mp->instance_id_slot] = 0;
    if ((err = vfetch_isbe_constants(&b->pd, b->written, b->word)) != VFETCH_OK)
        goto fail;
    if (b->pd.num_streams == 0) { /* nothing fetched: a stream no op reads */
        b->pd.num_streams = 1;
        b->pd.streams[0].stride = 0;
    }
    if (desc->layout == VFETCH_MAXWELL_LAYOUT_FULL)
        b->pd.out_stride = 4 * VFETCH_AAM_ATTRIBUTES;
    err = vfetch_plan_compile(&b->pd, &mp->plan);
    if (err)
        goto fail;
    free(b);
    *out_plan = mp;
    return VFETCH_OK;
fail:
    free(b);
    free(mp);
    return err;
}

void vfetch_maxwell_plan_free(vfetch_maxwell_plan *plan)
{
    if (plan)
        vfetch_plan_free(plan->plan);
    free(plan);
}

const vfetch_plan *vfetch_maxwell_plan_converter(const vfetch_maxwell_plan *plan)
{
    return plan ? plan->plan : NULL;
}

uint32_t vfetch_maxwell_plan_out_stride(const vfetch_maxwell_plan *plan)
{
    return plan ? vfetch_plan_out_stride(plan->plan) : 0;
}

int vfetch_maxwell_plan_slot(const vfetch_maxwell_plan *plan, unsigned attribute)
{
    return plan && attribute < VFETCH_AAM_ATTRIBUTES ? plan->slot_of[attribute] : -1;
}

const struct vfetch_aam_map *vfetch_maxwell_plan_bmap(const vfetch_maxwell_plan *plan)
{
    return plan ? &plan->bmap : NULL;
}

int vfetch_maxwell_plan_info(const vfetch_maxwell_plan *plan, struct vfetch_plan_info *info)
{
    return plan ? vfetch_plan_info(plan->plan, info) : VFETCH_EINVAL;
}

int vfetch_maxwell_plan_declaration(const vfetch_maxwell_plan *plan, struct vfetch_vertex_decl *decl)
{
    return plan ? vfetch_plan_declaration(plan->plan, decl) : VFETCH_EINVAL;
}

int vfetch_maxwell_isbe_desc(const struct vfetch_plan_desc *in, const int8_t *generic_of_location,
                             enum vfetch_maxwell_layout layout, uint32_t attribute_default,
                             struct vfetch_plan_desc *out)
{
    if ((unsigned)layout > VFETCH_MAXWELL_LAYOUT_FULL)
        return VFETCH_EINVAL;
    return vfetch_isbe_desc(in, generic_of_location, layout == VFETCH_MAXWELL_LAYOUT_FULL,
                            attribute_default, out);
}
