/*
 * The R300/R500 vertex front-end: VAP_PROG_STREAM_CNTL(_EXT), VAP_PSC_SGN_NORM_CNTL, VC_SWAP
 * and the vertex arrays (or immediate VTX_SIZE) -> plan description. It knows the hardware and
 * never touches vertex data. Every rule is in docs/r300.md, the behaviour table (with the
 * choices where the register documents are silent in docs/decisions.md).
 */
#include <stdbool.h>
#include <string.h>

#include "plan_internal.h"
#include "vfetch/r300.h"

#define R300_MAX_ELEMENTS 16
#define R300_VECTORS 32

/* One parsed 16-bit element of PROG_STREAM_CNTL. */
struct r300_element {
    unsigned type, skip, loc;
    bool last, is_signed, normalize;
};

/* Dwords each DATA_TYPE consumes (13..15 reserved). */
static const uint8_t r300_type_dwords[13] = { 1, 2, 3, 4, 1, 1, 1, 2, 1, 1, 8, 1, 2 };

void vfetch_r300_desc_init(struct vfetch_r300_desc *desc)
{
    if (!desc)
        return;
    memset(desc, 0, sizeof *desc);
    for (unsigned i = 0; i < 8; i++)
        desc->prog_stream_cntl_ext[i] = VFETCH_R300_EXT_IDENTITY * 0x10001u;
    desc->sgn_norm_cntl = 0xAAAAAAAAu;
    desc->layout = VFETCH_R300_LAYOUT_COMPACT;
}

static struct r300_element r300_parse_element(const struct vfetch_r300_desc *desc, unsigned e)
{
    const unsigned half = (desc->prog_stream_cntl[e / 2] >> (16 * (e & 1))) & 0xffff;
    return (struct r300_element){
        .type = half & 0xf,
        .skip = (half >> 4) & 0xf,
        .loc = (half >> 8) & 0x1f,
        .last = half >> 13 & 1,
        .is_signed = half >> 14 & 1,
        .normalize = half >> 15 & 1,
    };
}

/* The dword stream of one vertex: which stream and record byte each dword comes from. */
struct r300_dwords {
    unsigned total;
    uint8_t stream[VFETCH_MAX_STREAMS * 256];
    uint32_t offset[VFETCH_MAX_STREAMS * 256];
};

static int r300_streams(const struct vfetch_r300_desc *desc, struct vfetch_plan_desc *pd,
                        struct r300_dwords *dw)
{
    const enum vfetch_byte_order order = (enum vfetch_byte_order)(desc->cntl_status & 3);
    dw->total = 0;
    if (desc->num_arrays == 0) {
        /* Immediate mode: one interleaved stream already in draw order. */
        if (desc->vtx_size_dwords < 1 || desc->vtx_size_dwords > 128)
            return VFETCH_EINVAL;
        pd->num_streams = 1;
        pd->streams[0] = (struct vfetch_stream){ .stride = desc->vtx_size_dwords * 4, .order = order,
                                                 .step = VFETCH_STEP_SEQUENTIAL };
        for (unsigned d = 0; d < desc->vtx_size_dwords; d++) {
            dw->stream[dw->total] = 0;
            dw->offset[dw->total++] = 4 * d;
        }
        return VFETCH_OK;
    }
    if (desc->num_arrays > VFETCH_R300_MAX_ARRAYS)
        return VFETCH_ER300_TOO_MANY_ARRAYS;
    pd->num_streams = desc->num_arrays;
    for (unsigned a = 0; a < desc->num_arrays; a++) {
        const struct vfetch_r300_array *arr = &desc->arrays[a];
        /* Strides and counts are 8-bit fields in 3D_LOAD_VBPNTR; 255 bounds both. */
        if (arr->count_dwords < 1 || arr->count_dwords > 255 || arr->stride_dwords > 255 ||
            (arr->stride_dwords != 0 && arr->count_dwords > arr->stride_dwords))
            return VFETCH_ER300_ARRAY_LAYOUT;
        pd->streams[a] = (struct vfetch_stream){ .stride = arr->stride_dwords * 4, .order = order,
                                                 .step = VFETCH_STEP_INDEXED };
        for (unsigned d = 0; d < arr->count_dwords; d++) {
            dw->stream[dw->total] = (uint8_t)a;
            dw->offset[dw->total++] = 4 * d;
        }
    }
    return VFETCH_OK;
}

/* Format and conversion of a DATA_TYPE under SIGNED/NORMALIZE and its SGN_NORM method. */
static int r300_conversion(const struct r300_element *el, unsigned method,
                           enum vfetch_format *format, enum vfetch_conversion *conv)
{
    switch (el->type) {
    case VFETCH_R300_FLOAT_1: case VFETCH_R300_FLOAT_2: case VFETCH_R300_FLOAT_3:
    case VFETCH_R300_FLOAT_4: case VFETCH_R300_FLOAT_8:
        *format = VFETCH_FORMAT_FLOAT32;
        *conv = VFETCH_CONV_FLOAT; /* SIGNED/NORMALIZE ignored for floats */
        return VFETCH_OK;
    case VFETCH_R300_FLT16_2: case VFETCH_R300_FLT16_4:
        *format = VFETCH_FORMAT_FLOAT16;
        *conv = VFETCH_CONV_FLOAT;
        return VFETCH_OK;
    case VFETCH_R300_BYTE: case VFETCH_R300_D3DCOLOR: *format = VFETCH_FORMAT_FIXED8; break;
    case VFETCH_R300_SHORT_2: case VFETCH_R300_SHORT_4: *format = VFETCH_FORMAT_FIXED16; break;
    case VFETCH_R300_VECTOR_3_TTT: *format = VFETCH_FORMAT_FIXED_10_10_10; break;
    case VFETCH_R300_VECTOR_3_EET: *format = VFETCH_FORMAT_FIXED_11_11_10; break;
    default: return VFETCH_ER300_RESERVED_TYPE;
    }
    if (!el->normalize) {
        *conv = el->is_signed ? VFETCH_CONV_SINT : VFETCH_CONV_UINT;
    } else if (!el->is_signed) {
        *conv = VFETCH_CONV_UNORM;
    } else {
        static const enum vfetch_conversion methods[3] = {
            VFETCH_CONV_SNORM_ZERO, VFETCH_CONV_SNORM_ZERO_CLAMP, VFETCH_CONV_SNORM_NO_ZERO
        };
        if (method == 3)
            return VFETCH_ER300_RESERVED_SGN_NORM;
        *conv = methods[method];
    }
    return VFETCH_OK;
}

/* Component c of an element type: which of its dwords, and the byte offset in that dword. */
static void r300_component_place(unsigned type, unsigned c, unsigned *dword, unsigned *byte)
{
    switch (type) {
    case VFETCH_R300_BYTE: *dword = 0; *byte = c; return;
    case VFETCH_R300_D3DCOLOR: { /* Z = [7:0], Y = [15:8], X = [23:16], W = [31:24] */
        static const uint8_t place[4] = { 2, 1, 0, 3 };
        *dword = 0;
        *byte = place[c];
        return;
    }
    case VFETCH_R300_SHORT_2: case VFETCH_R300_SHORT_4:
    case VFETCH_R300_FLT16_2: case VFETCH_R300_FLT16_4:
        *dword = c / 2;
        *byte = 2 * (c % 2);
        return;
    case VFETCH_R300_VECTOR_3_TTT: case VFETCH_R300_VECTOR_3_EET:
        *dword = 0; /* one shared container */
        *byte = 0;
        return;
    default: /* FLOAT_n, FLOAT_8 */
        *dword = c;
        *byte = 0;
        return;
    }
}

static unsigned r300_component_count(unsigned type)
{
    static const uint8_t counts[13] = { 1, 2, 3, 4, 4, 4, 2, 4, 3, 3, 4, 2, 4 };
    return counts[type];
}

/* EXT swizzle and write enable of element e. */
static int r300_swizzle(const struct vfetch_r300_desc *desc, unsigned e, uint8_t swizzle[4],
                        uint8_t *mask)
{
    const unsigned half = (desc->prog_stream_cntl_ext[e / 2] >> (16 * (e & 1))) & 0xffff;
    for (unsigned c = 0; c < 4; c++) {
        swizzle[c] = (half >> (3 * c)) & 7;
        if (swizzle[c] > VFETCH_SWIZZLE_1)
            return VFETCH_ERESERVED_SWIZZLE;
    }
    *mask = (half >> 12) & 0xf;
    return VFETCH_OK;
}

int vfetch_r300_translate(const struct vfetch_r300_desc *desc, struct vfetch_plan_desc *out_desc)
{
    if (!desc || !out_desc || (unsigned)desc->layout > VFETCH_R300_LAYOUT_FULL)
        return VFETCH_EINVAL;

    struct vfetch_plan_desc pd;
    vfetch_plan_desc_init(&pd);
    struct r300_dwords dw;
    int err = r300_streams(desc, &pd, &dw);
    if (err)
        return err;

    /* Pass 1: the element list, up to and including LAST_VEC. */
    struct r300_element el[R300_MAX_ELEMENTS];
    unsigned num_el = 0;
    for (;;) {
        if (num_el == R300_MAX_ELEMENTS)
            return VFETCH_ER300_NO_LAST_VEC;
        el[num_el] = r300_parse_element(desc, num_el);
        if (el[num_el++].last)
            break;
    }

    /* Pass 2: check each element and mark the vectors written. */
    bool written[R300_VECTORS + 1] = { false };
    unsigned cursor = 0;
    for (unsigned e = 0; e < num_el; e++) {
        enum vfetch_format format;
        enum vfetch_conversion conv;
        err = r300_conversion(&el[e], (desc->sgn_norm_cntl >> (2 * e)) & 3, &format, &conv);
        if (err)
            return err;
        if (el[e].type == VFETCH_R300_FLOAT_8 && el[e].loc == 31)
            return VFETCH_ER300_FLOAT8_LOC31;
        uint8_t swizzle[4], mask;
        err = r300_swizzle(desc, e, swizzle, &mask);
        if (err)
            return err;
        /* The element's dwords and its skipped dwords must all be supplied. */
        cursor += r300_type_dwords[el[e].type] + el[e].skip;
        if (cursor > dw.total)
            return VFETCH_ER300_STREAM_UNDERRUN;
        written[el[e].loc] = true;
        if (el[e].type == VFETCH_R300_FLOAT_8)
            written[el[e].loc + 1] = true;
    }

    /* Output layout: vector v at slot_of[v] * 4. */
    int slot_of[R300_VECTORS];
    unsigned vectors = 0;
    for (unsigned v = 0; v < R300_VECTORS; v++) {
        slot_of[v] = -1;
        if (desc->layout == VFETCH_R300_LAYOUT_FULL)
            slot_of[v] = (int)(4 * v);
        else if (written[v])
            slot_of[v] = (int)(4 * vectors++);
        if (written[v])
            pd.location_slot[v] = (int16_t)slot_of[v];
    }
    pd.out_slots = desc->layout == VFETCH_R300_LAYOUT_FULL ? 4 * R300_VECTORS : 4 * vectors;
    /* checked here too, so that translate and compile agree */
    if (!vfetch_out_stride_valid(desc->out_stride, pd.out_slots))
        return VFETCH_EPLAN;
    pd.out_stride = desc->out_stride;

    /* Pass 3: one op per element (two for FLOAT_8), in element order: later elements win. */
    cursor = 0;
    for (unsigned e = 0; e < num_el; e++) {
        const unsigned type = el[e].type;
        const unsigned parts = type == VFETCH_R300_FLOAT_8 ? 2 : 1;
        for (unsigned part = 0; part < parts; part++) {
            struct vfetch_op *op = &pd.ops[pd.num_ops];
            r300_swizzle(desc, e, op->swizzle, &op->write_mask);
            if (!op->write_mask)
                continue; /* the element stores nothing (EXT write mask 0): no op */
            pd.num_ops++;
            r300_conversion(&el[e], (desc->sgn_norm_cntl >> (2 * e)) & 3, &op->format,
                            &op->conversion);
            op->count = (uint8_t)r300_component_count(type);
            op->dst_slot = (uint16_t)slot_of[el[e].loc + part];
            for (unsigned c = 0; c < op->count; c++) {
                unsigned dword, byte;
                r300_component_place(type, c, &dword, &byte);
                const unsigned at = cursor + 4 * part + dword;
                op->src[c].stream = dw.stream[at];
                op->src[c].offset = dw.offset[at] + byte;
            }
        }
        cursor += r300_type_dwords[type] + el[e].skip;
    }
    if (!pd.num_ops)
        return VFETCH_EPLAN; /* every element's EXT write mask is 0: nothing to convert */
    *out_desc = pd;
    return VFETCH_OK;
}

int vfetch_r300_compile(const struct vfetch_r300_desc *desc, vfetch_r300_plan **out_plan)
{
    if (!out_plan)
        return VFETCH_EINVAL;
    struct vfetch_plan_desc pd;
    int err = vfetch_r300_translate(desc, &pd);
    if (err)
        return err;
    return vfetch_plan_compile(&pd, out_plan);
}
