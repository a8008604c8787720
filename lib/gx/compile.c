/*
 * GX vertex format -> converter plan and staging program. The converter reads the "staged"
 * vertex: the vertex as it would be with every attribute direct, in stream order. A format
 * without indexed attributes is its own staged vertex, so its draws convert in place; other
 * formats first copy each vertex's direct bytes and indexed elements into that layout
 * (run.c). docs/gx.md is the behaviour table.
 */
#include <stdlib.h>
#include <string.h>

#include "aam/isbe.h"
#include "cpu.h"
#include "gx_internal.h"
#include "gx/state.h"
#include "plan_internal.h"
#include "vertex_format.h"

/* Draws of this many vertices or more of a format with a record program run the record program
   (gx_jit_crossover), where the class's tier is not timed (VFETCH_JIT_MEASURE): timed, the
   crossover is where the two tiers' times cross (lib/jit/measure.c). */
#define GX_JIT_RECORD_CROSSOVER 64

/* Bytes of one component of a non-color format. */
static unsigned gx_component_bytes(unsigned format)
{
    static const uint8_t size[5] = { 1, 1, 2, 2, 4 };
    return size[format];
}

/* Plan format and conversion of a position, normal or texcoord component format. */
static void gx_component_op(unsigned format, struct vfetch_op *op)
{
    switch (format) {
    case VFETCH_GX_U8: op->format = VFETCH_FORMAT_FIXED8, op->conversion = VFETCH_CONV_UINT; break;
    case VFETCH_GX_S8: op->format = VFETCH_FORMAT_FIXED8, op->conversion = VFETCH_CONV_SINT; break;
    case VFETCH_GX_U16: op->format = VFETCH_FORMAT_FIXED16, op->conversion = VFETCH_CONV_UINT; break;
    case VFETCH_GX_S16: op->format = VFETCH_FORMAT_FIXED16, op->conversion = VFETCH_CONV_SINT; break;
    default: op->format = VFETCH_FORMAT_FLOAT32, op->conversion = VFETCH_CONV_FLOAT; break;
    }
}

/* Output placement while ops are added in location order. */
struct gx_builder {
    struct vfetch_plan_desc desc;
    const struct vfetch_gx_desc *gx;
    uint32_t next_slot;
    int16_t location_slot[VFETCH_GX_NUM_LOCATIONS];
    /* Building the vec4 layout for an ISBE one: the matrix indices are not padded, so that
       each keeps one slot and its generic's y, z, w take the default (docs/maxwell.md) */
    int isbe;
    uint32_t matrix_base; /* the matrix-index bytes' staged offset (plan->matrix_staged) */
};

/* Append a zeroed op (the caller fills it). */
static struct vfetch_op *gx_new_op(struct gx_builder *b)
{
    struct vfetch_op *op = &b->desc.ops[b->desc.num_ops++];
    memset(op, 0, sizeof *op);
    return op;
}

/* Append an op whose `width` components go to the next free slots (vec4 layout: a whole
   vec4, its missing components (0, 0, 0, 1)). */
static struct vfetch_op *gx_add_op(struct gx_builder *b, unsigned location, unsigned width)
{
    struct vfetch_op *op = gx_new_op(b);
    for (unsigned c = 0; c < 4; c++)
        op->swizzle[c] = (uint8_t)c;
    op->dst_slot = (uint16_t)b->next_slot;
    b->location_slot[location] = (int16_t)b->next_slot;
    if (b->gx->layout == VFETCH_GX_LAYOUT_VEC4) {
        op->write_mask = 0xf;
        b->next_slot += 4;
    } else {
        op->write_mask = (uint8_t)((1u << width) - 1);
        b->next_slot += width;
    }
    return op;
}

/* Components of a vector attribute at consecutive big-endian offsets. */
static void gx_add_vector(struct gx_builder *b, unsigned location, unsigned format,
                          unsigned count, unsigned shift, uint32_t offset)
{
    struct vfetch_op *op = gx_add_op(b, location, count);
    gx_component_op(format, op);
    op->count = (uint8_t)count;
    op->shift = (uint8_t)shift;
    for (unsigned c = 0; c < count; c++)
        op->src[c].offset = offset + c * gx_component_bytes(format);
}

static void gx_add_color(struct gx_builder *b, unsigned location, const struct vfetch_gx_attr *at,
                         uint32_t offset)
{
    const int rgba8 = b->gx->color_output == VFETCH_GX_COLOR_RGBA8;
    struct vfetch_op *op = gx_add_op(b, location, rgba8 ? 1 : 4);
    op->conversion = rgba8 ? VFETCH_CONV_PACK_UNORM8 : VFETCH_CONV_UNORM8;
    switch (at->format) {
    case VFETCH_GX_RGB565: op->format = VFETCH_FORMAT_RGB565, op->count = 3; break;
    case VFETCH_GX_RGBA4444: op->format = VFETCH_FORMAT_RGBA4444, op->count = 4; break;
    case VFETCH_GX_RGBA6666: op->format = VFETCH_FORMAT_RGBA6666, op->count = 4; break;
    case VFETCH_GX_RGBA8888: op->format = VFETCH_FORMAT_FIXED8, op->count = 4; break;
    default: op->format = VFETCH_FORMAT_FIXED8, op->count = 3; break; /* rgb888, rgb888x */
    }
    const int packed = vfetch_format_info[op->format].packed;
    for (unsigned c = 0; c < op->count; c++)
        op->src[c].offset = offset + (packed ? 0 : c); /* missing alpha: 1.0 / 255 */
    if (rgba8) {
        op->write_mask = 1;
        if (b->gx->layout == VFETCH_GX_LAYOUT_VEC4) {
            /* y, z, w of the color's vec4: zero (a constant op reading the color's byte) */
            struct vfetch_op *zero = gx_new_op(b);
            zero->format = VFETCH_FORMAT_FIXED8;
            zero->conversion = VFETCH_CONV_UINT;
            zero->count = 1;
            zero->src[0].offset = offset;
            memset(zero->swizzle, VFETCH_SWIZZLE_0, 4);
            zero->write_mask = 0xe;
            zero->dst_slot = op->dst_slot;
        }
    }
}

/* Whether matrix index m is present (0: position, 1 + n: texcoord n). */
static unsigned gx_matrix_present(const struct vfetch_gx_format *f, unsigned m)
{
    return m == 0 ? f->pos_matrix_index : f->tex_matrix_index[m - 1];
}

/* The offset of matrix index m among the matrix-index bytes, one per index present, in that
   order (at plan->matrix_staged in the staged vertex: gx_build_staging); gx_matrix_offset(f,
   9) is their count. */
static uint32_t gx_matrix_offset(const struct vfetch_gx_format *f, unsigned m)
{
    uint32_t offset = 0;
    for (unsigned k = 0; k < m; k++)
        offset += gx_matrix_present(f, k);
    return offset;
}

/* A matrix-index op: its 6-bit value at component x, as an integer (INTEGER) or a float
   (UINT, Dolphin's texcoord z). */
static struct vfetch_op *gx_add_matrix_op(struct gx_builder *b, uint32_t offset,
                                          enum vfetch_conversion conversion)
{
    struct vfetch_op *op = gx_new_op(b);
    op->format = VFETCH_FORMAT_UINT6;
    op->conversion = conversion;
    op->count = 1;
    op->src[0].offset = offset;
    op->swizzle[0] = VFETCH_SWIZZLE_X;
    memset(op->swizzle + 1, VFETCH_SWIZZLE_0, 3);
    op->write_mask = 1;
    return op;
}

/* Dolphin's layout: texcoord t with its matrix index, three floats (s, t or 0, index). */
static void gx_add_dolphin_texcoord(struct gx_builder *b, const struct vfetch_gx_format *f,
                                    unsigned t, uint32_t staged)
{
    const struct vfetch_gx_attr *tc = &f->attr[VFETCH_GX_TEXCOORD0 + t];
    const unsigned slot = b->next_slot;
    if (tc->mode) {
        gx_add_vector(b, VFETCH_GX_LOC_TEXCOORD0 + t, tc->format, tc->count, tc->shift, staged);
        b->desc.ops[b->desc.num_ops - 1].write_mask = 3; /* t = 0 for an S-only texcoord */
        struct vfetch_op *z =
            gx_add_matrix_op(b, b->matrix_base + gx_matrix_offset(f, 1 + t), VFETCH_CONV_UINT);
        z->dst_slot = (uint16_t)(slot + 2);
    } else {
        struct vfetch_op *op =
            gx_add_matrix_op(b, b->matrix_base + gx_matrix_offset(f, 1 + t), VFETCH_CONV_UINT);
        op->swizzle[0] = op->swizzle[1] = VFETCH_SWIZZLE_0;
        op->swizzle[2] = VFETCH_SWIZZLE_X;
        op->write_mask = 7;
        op->dst_slot = (uint16_t)slot;
        b->location_slot[VFETCH_GX_LOC_TEXCOORD0 + t] = (int16_t)slot;
    }
    b->next_slot = slot + 3;
}

/* Matrix indices: one integer slot each; the vec4 layout pads the last vec4 with 0 (not on
   the way to an ISBE layout: there the padding would become the last index's y, z, w). */
static void gx_add_matrix_indices(struct gx_builder *b, const struct vfetch_gx_format *f)
{
    uint32_t offset = b->matrix_base;
    struct vfetch_op *last = NULL;
    for (unsigned m = 0; m < 9; m++) {
        if (!gx_matrix_present(f, m))
            continue;
        const unsigned location = m == 0 ? VFETCH_GX_LOC_POS_MATRIX : VFETCH_GX_LOC_TEX_MATRIX0 + m - 1;
        struct vfetch_op *op = gx_add_matrix_op(b, offset++, VFETCH_CONV_INTEGER);
        op->dst_slot = (uint16_t)b->next_slot;
        b->location_slot[location] = (int16_t)b->next_slot++;
        last = op;
    }
    if (last && b->gx->layout == VFETCH_GX_LAYOUT_VEC4 && !b->isbe) {
        const unsigned used = b->next_slot % 4; /* slots of the last vec4 in use, 0 = all */
        if (used) {
            last->write_mask = (uint8_t)((1u << (4 - used + 1)) - 1);
            b->next_slot += 4 - used;
        }
    }
}

/* Staged offsets of every attribute, and the staging copies. */
static void gx_build_staging(struct vfetch_gx_plan *p, uint32_t staged_off[VFETCH_GX_NUM_ATTRS])
{
    const struct vfetch_gx_format *f = &p->format;
    const uint32_t matrix_bytes = gx_matrix_offset(f, 9);
    uint32_t src = matrix_bytes, dst = 0; /* the attributes follow the matrix-index bytes */
    p->any_indexed = 0;
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
        if (f->attr[a].mode == VFETCH_GX_INDEX8 || f->attr[a].mode == VFETCH_GX_INDEX16)
            p->any_indexed = 1;
    p->position_copy = -1;
    p->matrix_staged = 0;
    if (matrix_bytes && !p->any_indexed) { /* converted in place: where the vertex has them */
        p->copies[p->num_copies++] =
            (struct vfetch_gx_copy){ VFETCH_GX_FROM_VERTEX, 0, 0, 0, (uint16_t)matrix_bytes, 0 };
        dst = matrix_bytes;
    }
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
        const struct vfetch_gx_attr *at = &f->attr[a];
        staged_off[a] = dst;
        if (at->mode == VFETCH_GX_NONE)
            continue;
        if (at->mode == VFETCH_GX_DIRECT) {
            struct vfetch_gx_copy *prev = p->num_copies ? &p->copies[p->num_copies - 1] : NULL;
            if (prev && prev->array == VFETCH_GX_FROM_VERTEX && prev->src + prev->size == src &&
                prev->dst + prev->size == dst)
                prev->size = (uint16_t)(prev->size + at->element_size);
            else
                p->copies[p->num_copies++] = (struct vfetch_gx_copy){
                    VFETCH_GX_FROM_VERTEX, 0, (uint16_t)src, (uint16_t)dst, at->element_size, 0 };
        } else {
            const unsigned index_size = at->mode == VFETCH_GX_INDEX8 ? 1 : 2;
            const unsigned pieces = at->stream_size / index_size; /* 3: NBT with NORMALINDEX3 */
            const unsigned piece = at->element_size / pieces;
            if (a == VFETCH_GX_POSITION)
                p->position_copy = (int8_t)p->num_copies;
            for (unsigned j = 0; j < pieces; j++)
                p->copies[p->num_copies++] = (struct vfetch_gx_copy){
                    (uint8_t)a, (uint8_t)index_size, (uint16_t)(src + j * index_size),
                    (uint16_t)(dst + j * piece), (uint16_t)piece, (uint16_t)(j * piece) };
        }
        src += at->stream_size;
        dst += at->element_size;
    }
    if (matrix_bytes && p->any_indexed) { /* after the attributes (vfetch_gx_plan.matrix_staged) */
        p->matrix_staged = dst;
        p->copies[p->num_copies++] = (struct vfetch_gx_copy){
            VFETCH_GX_FROM_VERTEX, 0, 0, (uint16_t)dst, (uint16_t)matrix_bytes, 0 };
        dst += matrix_bytes;
    }
    p->staged_size = dst;
}

static int gx_build_converter(struct vfetch_gx_plan *p, const uint32_t staged_off[VFETCH_GX_NUM_ATTRS])
{
    const struct vfetch_gx_format *f = &p->format;
    struct gx_builder *b = calloc(1, sizeof *b);
    if (!b)
        return VFETCH_ENOMEM;
    vfetch_plan_desc_init(&b->desc);
    /* The ISBE layouts are the vec4 layout's vectors, moved to generic attributes below. */
    const int isbe = p->desc.layout == VFETCH_GX_LAYOUT_ISBE_FULL ||
                     p->desc.layout == VFETCH_GX_LAYOUT_ISBE_COMPACT;
    struct vfetch_gx_desc vec4_desc = p->desc;
    if (isbe)
        vec4_desc.layout = VFETCH_GX_LAYOUT_VEC4;
    b->gx = &vec4_desc;
    b->isbe = isbe;
    b->matrix_base = p->matrix_staged;
    for (unsigned l = 0; l < VFETCH_GX_NUM_LOCATIONS; l++)
        b->location_slot[l] = -1;

    const int dolphin = p->desc.layout == VFETCH_GX_LAYOUT_DOLPHIN;
    if (dolphin && f->pos_matrix_index) { /* Dolphin: the position-matrix index first */
        struct vfetch_op *op = gx_add_matrix_op(b, b->matrix_base, VFETCH_CONV_INTEGER);
        op->dst_slot = (uint16_t)b->next_slot;
        b->location_slot[VFETCH_GX_LOC_POS_MATRIX] = (int16_t)b->next_slot++;
    }
    const struct vfetch_gx_attr *pos = &f->attr[VFETCH_GX_POSITION];
    if (pos->mode)
        gx_add_vector(b, VFETCH_GX_LOC_POSITION, pos->format, pos->count, pos->shift,
                      staged_off[VFETCH_GX_POSITION]);
    const struct vfetch_gx_attr *nrm = &f->attr[VFETCH_GX_NORMAL];
    if (nrm->mode)
        for (unsigned j = 0; j < nrm->count / 3u; j++)
            gx_add_vector(b, VFETCH_GX_LOC_NORMAL + j, nrm->format, 3, nrm->shift,
                          staged_off[VFETCH_GX_NORMAL] + j * 3 * gx_component_bytes(nrm->format));
    for (unsigned c = 0; c < 2; c++)
        if (f->attr[VFETCH_GX_COLOR0 + c].mode)
            gx_add_color(b, VFETCH_GX_LOC_COLOR0 + c, &f->attr[VFETCH_GX_COLOR0 + c],
                         staged_off[VFETCH_GX_COLOR0 + c]);
    for (unsigned t = 0; t < 8; t++) {
        const struct vfetch_gx_attr *tc = &f->attr[VFETCH_GX_TEXCOORD0 + t];
        if (dolphin && f->tex_matrix_index[t])
            gx_add_dolphin_texcoord(b, f, t, staged_off[VFETCH_GX_TEXCOORD0 + t]);
        else if (tc->mode)
            gx_add_vector(b, VFETCH_GX_LOC_TEXCOORD0 + t, tc->format, tc->count, tc->shift,
                          staged_off[VFETCH_GX_TEXCOORD0 + t]);
    }
    if (!dolphin) /* Dolphin's are placed above */
        gx_add_matrix_indices(b, f);

    int err = VFETCH_OK;
    memcpy(p->location_slot, b->location_slot, sizeof p->location_slot);
    if (b->desc.num_ops) {
        b->desc.num_streams = 1;
        b->desc.streams[0] = (struct vfetch_stream){ .stride = p->staged_size,
                                                     .order = VFETCH_ORDER_BIG_ENDIAN,
                                                     .step = VFETCH_STEP_SEQUENTIAL };
        b->desc.out_slots = b->next_slot;
        b->desc.path = p->desc.path;
        for (unsigned l = 0; l < VFETCH_GX_NUM_LOCATIONS; l++)
            b->desc.location_slot[l] = b->location_slot[l];
        if (isbe) { /* location n -> generic attribute n (docs/maxwell.md) */
            const struct vfetch_plan_desc vec4 = b->desc;
            err = vfetch_isbe_desc(&vec4, NULL, p->desc.layout == VFETCH_GX_LAYOUT_ISBE_FULL,
                                   VFETCH_AAM_ATTRIBUTE_DEFAULT_RESET, &b->desc);
            for (unsigned l = 0; l < VFETCH_GX_NUM_LOCATIONS; l++)
                p->location_slot[l] = b->desc.location_slot[l];
        }
        if (!err)
            err = vfetch_plan_compile_portable(&b->desc, &p->converter);
        if (!err) {
            p->out_stride = vfetch_plan_out_stride(p->converter);
            p->record_size = vfetch_plan_record_size(p->converter);
        }
    }
    free(b);
    return err;
}

/*
 * The gathered form of the converter's record program, for formats with indexed attributes
 * that lib/gx/run_indexed.c stages by rows (at most VFETCH_GX_ROW_MOVES copies of at most 16 bytes:
 * its moves are the copies). None where the program or the form is missing: the stage then
 * runs as before.
 */
static void gx_build_gather(struct vfetch_gx_plan *p, const struct vfetch_gx_dsp *dsp)
{
    const vfetch_plan *conv = p->converter;
    if (!p->any_indexed || !conv || !conv->record || p->num_copies > VFETCH_GX_ROW_MOVES)
        return;
    vfetch_record_gather_fn *run = vfetch_gx_gather_for(dsp, conv->record->lanes);
    /* the last partial group runs through a stack copy of its output (lib/gx/run_gathered.c) */
    if (!run || (uint64_t)conv->record->group * p->out_stride > VFETCH_GX_TAIL_OUT_BYTES)
        return;
    uint16_t dst[VFETCH_GX_ROW_MOVES], size[VFETCH_GX_ROW_MOVES];
    for (unsigned k = 0; k < p->num_copies; k++) {
        dst[k] = p->copies[k].dst;
        size[k] = p->copies[k].size;
    }
    p->gather = vfetch_record_gather_lower(conv->record, p->staged_size, p->num_copies, dst, size,
                                           conv->record->lanes == 16);
    p->gather_run = p->gather ? run : NULL;
}

/* From how many vertices a draw runs the portable tier: a model of the measured crossovers
   (docs/jit.md): a record program converts whole groups per vector and overtakes the generated
   code's vertex-by-vertex loop between 32 and 64 vertices, unless it stages or gathers many
   indexed attributes; the per-op path never does; a direct word copy's generated copy runs
   where it is as fast as the portable one (lib/word_copy.c). VFETCH_JIT_CROSSOVER=N moves a
   word copy's or a record program's crossover, to measure where the tiers cross (docs/jit.md).
   *measure: 1 where the long draws' tier is measured (gx_build_jit). */
static uint32_t gx_jit_crossover(const struct vfetch_gx_plan *p, int *vertex_wise, int *measure)
{
    *vertex_wise = *measure = 0;
    const struct vfetch_plan *conv = p->converter;
    unsigned indexed = 0;
    for (unsigned k = 0; k < p->num_copies; k++)
        indexed += p->copies[k].array != VFETCH_GX_FROM_VERTEX;
    const uint32_t forced = vfetch_jit_crossover_env();
    if (conv->word_copy && !p->any_indexed)
        return forced ? forced : vfetch_word_copy_crossover(conv);
    /* three or more indexed copies: the record program's staging or gathering costs more than
       the generated code's per-vertex loads (docs/decisions.md, "Measured choices") */
    if (!conv->record || indexed >= 3)
        return UINT32_MAX;
    /* Records of more than 256 bytes (the ISBE images, vec4 of many attributes): the generated
       code at every count, vertex by vertex where it cannot emit the groups, as plans' full
       images at avx2 and avx512 (lib/plan.c). The record program stages an indexed format's
       elements (the generated code 1.5-11x faster: config c in the full image), and its wide
       stores of a direct format's full image cross lines where the output is off one (the
       generated code, storing 16 bytes at a time, 1.3-1.9x faster at avx2 and avx512 from 16
       vertices, 1.2-1.6x with the output on a line but at avx512 and 16 vertices 0.82x; at
       sse41 1.2-2.3x, the 4-lane program's instructions 2.3x the generated code's; config a,
       Intel Xeon, docs/decisions.md). */
    if (conv->record_size > 256) {
        *vertex_wise = !p->any_indexed;
        return UINT32_MAX;
    }
    if (forced)
        return forced;
    /* The generated code runs the 8- and 4-lane record programs too, their most used tables
       in registers and small groups unrolled (the classes below); with indexed attributes the
       portable program stages or gathers, and the generated code leads at short draws only.
       Direct formats' long draws: measured (docs/decisions.md, "Measured choices"). */
    const struct vfetch_record_prog *rp = conv->record;
    /* With one or two indexed copies the AVX-512 program's gathers and the generated code's
       per-vertex loads (array bases and shuffle controls held in registers) went both ways
       on Zen 5 from 64 vertices (config c: the gathers 1.1-1.17x for vec4 records, the
       generated code 1.06-1.13x for packed ones; docs/decisions.md, "Measured choices"):
       measured, the faster one (no default: each led by about as much). Narrower programs
       stage: the generated code. */
    if (p->any_indexed) {
        *measure = rp->lanes == 16;
        return UINT32_MAX;
    }
    /* The 8-lane programs went both ways on Zen 5 (docs/benchmarks.md, "Regret rows": the
       generated groups ahead for a's packed records, behind for d's; e's packed records, two a
       vector, 1.35-1.4x the portable loop from 4,096 once their packing took eight operations
       and their raw OR was left out where nothing keeps it), and so did the 4-lane ones below:
       their long draws' tier is measured. */
    if (rp->lanes == 8) {
        *measure = 1;
        return UINT32_MAX;
    }
    /* The 16-lane (AVX-512) programs too, since the generated groups load a window both their
       halves read once, but the other way round: the program keeps the long draws unless the
       generated groups are clearly faster (d's packed records 1.4-1.7x, Zen 5; where the two
       are as fast at 256 records, a's, the program leads at 4,096: docs/decisions.md). */
    if (rp->lanes == 16) {
        *measure = 1;
        return UINT32_MAX;
    }
    /* A 4-lane program (the sse41 level) of groups of 1-3 records lost to the generated
       code's vertex-by-vertex loop at every count measured on Zen 4 (docs/jit.md); of larger
       groups, the generated code runs it too where its passes have SSE4.1 forms (else the
       portable tier keeps the long draws, from the per-vertex crossover): both measured. */
    if (rp->lanes == 4) {
        *vertex_wise = rp->group < 4;
        *measure = 1;
        return UINT32_MAX;
    }
    return GX_JIT_RECORD_CROSSOVER;
}

#if VFETCH_HAVE_JIT
/* A synthetic draw (zero bytes but for indices: every format converts them, and the tiers'
   speed does not depend on the values) through the generated code or the portable tier. */
struct gx_measure {
    const struct vfetch_gx_plan *plan;
    struct vfetch_gx_run_params params;
};

static void gx_measure_run(void *ctx, int portable, uint32_t count)
{
    struct gx_measure *m = ctx;
    m->params.count = count;
    if (portable)
        vfetch_gx_run_portable(m->plan, &m->params, NULL);
    else
        ((vfetch_jit_gx_fn *)m->plan->jit_code.entry)(m->plan, &m->params, NULL);
}

/* The rows of each array a measured draw of an indexed format reads (index8's skip value,
   255, is not among them), and the bytes past a row's start an element may read. */
#define GX_MEASURE_ROWS 200
#define GX_MEASURE_ELEMENT 256

/* A synthetic draw of `n` vertices for a measurement (zero bytes but for indices, which name
   rows spread over small arrays): m->params filled; the block to free, or NULL. The output
   follows the vertices; with `out_past_line` (> 0) it lies that many bytes past a 64-byte
   boundary instead of wherever the heap puts it. */
static uint8_t *gx_measure_setup(const struct vfetch_gx_plan *p, size_t n, struct gx_measure *m,
                                 size_t out_past_line)
{
    const size_t in = n * p->format.vertex_size, out = n * p->converter->out_stride;
    /* the arrays the indexed copies read, their sizes */
    size_t size[VFETCH_GX_NUM_ATTRS] = { 0 }, arrays = 0;
    for (unsigned k = 0; k < p->num_copies; k++) {
        const unsigned a = p->copies[k].array;
        if (a != VFETCH_GX_FROM_VERTEX && !size[a]) {
            size[a] = (size_t)GX_MEASURE_ROWS * p->desc.array_stride[a] + GX_MEASURE_ELEMENT;
            arrays += size[a];
        }
    }
    const size_t out_at = out_past_line ? ((in + 63) & ~(size_t)63) + out_past_line : in;
    const size_t bytes = (out_at + out + arrays + 63) & ~(size_t)63;
    uint8_t *buf = out_past_line ? aligned_alloc(64, bytes) : malloc(bytes);
    if (!buf)
        return NULL;
    memset(buf, 0, bytes);
    m->plan = p;
    vfetch_gx_run_params_init(&m->params);
    m->params.vertices = buf;
    m->params.vertices_size = in;
    m->params.count = (uint32_t)n;
    m->params.out = buf + out_at;
    m->params.out_size = out;
    uint8_t *array = buf + out_at + out;
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
        if (size[a]) {
            m->params.arrays[a] = (struct vfetch_binding){ array, size[a] };
            array += size[a];
        }
    for (unsigned k = 0; k < p->num_copies; k++) {
        const struct vfetch_gx_copy *cp = &p->copies[k];
        for (size_t v = 0; cp->array != VFETCH_GX_FROM_VERTEX && v < n; v++) {
            const uint32_t row = (uint32_t)(v * 37 + k) % GX_MEASURE_ROWS;
            uint8_t *at = buf + v * p->format.vertex_size + cp->src;
            at[0] = (uint8_t)(cp->index_size == 1 ? row : row >> 8);
            if (cp->index_size == 2)
                at[1] = (uint8_t)row;
        }
    }
    return buf;
}

/* That draw past the L1 (vfetch_jit_past_l1_setup_fn). */
static uint8_t *gx_measure_past_l1(const void *p, void *m)
{
    return gx_measure_setup(p, VFETCH_JIT_MEASURE_PAST_L1, m, VFETCH_JIT_MEASURE_PAST_L1_OUT);
}

/* From how many vertices the portable tier runs a format's draws rather than its generated
   code (compiled to run every count) on this machine (lib/jit/measure.c): UINT32_MAX, or a
   crossover; the class's default unless the other is clearly faster. An indexed format's
   vertices name rows spread over small arrays (every tier's cost but the cache's). Where a
   direct format's 16-lane program is the default (portable_default 1), a draw past the L1
   cache decides too (vfetch_jit_measured_past_l1): on an Intel Xeon gx-d's 1,024-record
   draws went to the program (as fast) and its 4,096-record ones ran 1.5x slower through it
   (its 64-byte stores off a line each cross one), e's packed records went the other way
   (docs/decisions.md). */
static uint32_t gx_measured_crossover(const struct vfetch_gx_plan *p, int portable_default)
{
    struct gx_measure m;
    uint8_t *buf = gx_measure_setup(p, VFETCH_JIT_MEASURE_RECORDS, &m, 0);
    if (!buf)
        return UINT32_MAX;
    uint64_t at_long[2];
    uint32_t crossover = vfetch_jit_measured_crossover(gx_measure_run, &m, portable_default,
                                                       GX_JIT_RECORD_CROSSOVER, at_long);
    free(buf);
    if (portable_default == 1) {
        struct gx_measure again;
        crossover = vfetch_jit_measured_past_l1(gx_measure_run, gx_measure_past_l1, p, &m, &again,
                                                crossover, at_long);
    }
    return crossover;
}

/* Two codes of one format drawn alternately (`second`: the other one's entry). */
struct gx_measure_codes {
    struct gx_measure m;
    vfetch_jit_gx_fn *entry[2];
};

static void gx_measure_codes_run(void *ctx, int second, uint32_t count)
{
    struct gx_measure_codes *c = ctx;
    c->m.params.count = count;
    c->entry[second](c->m.plan, &c->m.params, NULL);
}

/* Vertices of the draw that weighs a direct format's whole groups against its per-vertex pass:
   the short draws most of a game's are, where the two differed most (docs/jit.md). */
#define GX_MEASURE_GROUPS 256

/* Whether the per-vertex pass (code `pass`) converts a direct format's draws clearly faster than
   its whole groups (code `groups`) on this machine. */
static int gx_pass_faster(const struct vfetch_gx_plan *p, const struct vfetch_jit_code *groups,
                          const struct vfetch_jit_code *pass)
{
    struct gx_measure_codes c = { .entry = { (vfetch_jit_gx_fn *)groups->entry,
                                             (vfetch_jit_gx_fn *)pass->entry } };
    uint8_t *buf = gx_measure_setup(p, GX_MEASURE_GROUPS, &c.m, 0);
    if (!buf)
        return 0;
    const int faster = vfetch_jit_measured_second(gx_measure_codes_run, &c, GX_MEASURE_GROUPS, 10);
    free(buf);
    return faster;
}

/* The format's code with these crossovers, its slow ways the portable tier and the C batched
   draw: NULL, or why there is none. */
static const char *gx_generate(struct vfetch_gx_plan *p, uint32_t crossover, uint32_t per_vertex)
{
    return vfetch_jit_gx_compile(p, crossover, per_vertex, vfetch_gx_run_portable,
                                 vfetch_gx_batch_draw, vfetch_gx_batch_finish,
                                 vfetch_gx_batch_long_indices, &p->jit_code);
}
#endif

/* The generated draw, where the build, the mode, the level and the format allow it. */
static void gx_build_jit(struct vfetch_gx_plan *p)
{
    const enum vfetch_jit_mode mode = vfetch_jit_mode_now();
    p->jit_entry = p->jit_run = NULL;
    p->draw = vfetch_gx_run;
    p->jit_batch_entry = p->jit_batch = NULL;
    p->jit_crossover = 0;
    if ((p->jit_reason = vfetch_jit_unavailable(mode)))
        return;
    if (!p->converter) {
        p->jit_reason = "the format has nothing to convert";
        return;
    }
#if VFETCH_HAVE_JIT
    /* Under compare the generated code runs every draw, beside the portable tier. */
    const int compare = mode == VFETCH_JIT_COMPARE;
    int vertex_wise = 0, measure = 0;
    uint32_t crossover = gx_jit_crossover(p, &vertex_wise, &measure);
    if (compare)
        crossover = UINT32_MAX;
    /* a direct format whose record program the generator cannot emit converts vertex by vertex:
       the record program keeps the long draws, unless that loop wins anyway */
    const uint32_t per_vertex = crossover < GX_JIT_RECORD_CROSSOVER || compare || vertex_wise
                                    ? crossover
                                    : GX_JIT_RECORD_CROSSOVER;
    p->jit_no_groups = 0;
    p->jit_reason = gx_generate(p, crossover, per_vertex);
    /* Whole groups or the per-vertex pass: the generator keeps the groups where they cost fewer
       instructions a vertex, which ranked them right on a Zen 3 and wrong on an Intel Xeon for
       config e (the pass 1.04-1.25x faster there, docs/jit.md): where it kept them, the pass is
       generated too (at every count, as a vertex-wise format's) and kept where it is measured
       10 % faster (not under compare: the groups by count), or where VFETCH_JIT_GROUPS=0
       asks. */
    const int groups_asked = vfetch_jit_groups_env();
    if (!p->jit_reason && !p->any_indexed && p->jit_code.groups &&
        (groups_asked == 0 ||
         (groups_asked < 0 && !compare && vfetch_jit_measure_mode() == VFETCH_JIT_MEASURE_TIME))) {
        struct vfetch_jit_code with_groups = p->jit_code;
        p->jit_no_groups = 1;
        /* a failed compile leaves its code empty: freeing it is nothing */
        const int pass = !gx_generate(p, crossover, crossover) &&
                         (groups_asked == 0 || gx_pass_faster(p, &with_groups, &p->jit_code));
        vfetch_jit_memory_free(pass ? &with_groups : &p->jit_code);
        if (!pass) {
            p->jit_code = with_groups;
            p->jit_no_groups = 0;
        }
    }
    /* A class whose long draws went both ways: where the code runs every count but the
       portable tier should keep the long draws here (its default for 16-lane programs, unless
       the generated code is clearly faster; else where it is clearly faster itself), the code
       again with the record program's crossover (the same code below it). */
    if (!p->jit_reason && measure && !compare && p->jit_code.crossover == UINT32_MAX) {
        const uint32_t measured =
            gx_measured_crossover(p, p->any_indexed ? -1 : p->converter->record->lanes == 16);
        if (measured != UINT32_MAX) {
            vfetch_jit_memory_free(&p->jit_code);
            p->jit_reason = gx_generate(p, measured, measured);
        }
    }
    if (p->jit_reason)
        return;
    p->jit_reason = "";
    p->jit_entry = (vfetch_jit_gx_fn *)p->jit_code.entry;
    /* a crossover of 0: every draw runs the portable tier, without a call through the code */
    crossover = p->jit_code.crossover;
    p->jit_run = compare || !crossover ? NULL : p->jit_entry;
    /* a state's arrays are NULL only where their size is 0: its draws enter past the test */
    p->draw = p->jit_run ? (vfetch_jit_gx_fn *)p->jit_code.entry_bound : vfetch_gx_run;
    p->jit_batch_entry = (vfetch_jit_gx_batch_fn *)p->jit_code.entry_batch;
    p->jit_batch = p->jit_run ? p->jit_batch_entry : NULL;
    p->jit_crossover = crossover;
    p->jit_compare = (uint8_t)compare;
#endif
}

void vfetch_gx_desc_init(struct vfetch_gx_desc *desc)
{
    if (desc)
        memset(desc, 0, sizeof *desc); /* every default is 0 (gx.h) */
}

int vfetch_gx_compile(const struct vfetch_gx_desc *desc, vfetch_gx_plan **out_plan)
{
    if (!desc || !out_plan ||
        !vfetch_gx_options_valid(desc->layout, desc->color_output, desc->path))
        return VFETCH_EINVAL;
    struct vfetch_gx_plan *p = calloc(1, sizeof *p);
    if (!p)
        return VFETCH_ENOMEM;
    p->desc = *desc;
    int err = vfetch_gx_parse(&desc->regs, &p->format);
    uint32_t staged_off[VFETCH_GX_NUM_ATTRS];
    if (!err) {
        struct vfetch_gx_dsp dsp;
        vfetch_gx_dsp_init(&dsp, vfetch_cpu_allowed());
        p->read_indices = dsp.read_indices;
        p->index_addrs = dsp.index_addrs;
        p->read_index_addrs = dsp.read_index_addrs;
        gx_build_staging(p, staged_off);
        err = gx_build_converter(p, staged_off);
        if (!err)
            gx_build_gather(p, &dsp);
    }
    if (!err) {
        gx_build_jit(p);
        if (p->converter)
            vfetch_plan_drop_spare(p->converter);
    }
    if (err) {
        vfetch_gx_plan_free(p);
        return err;
    }
    *out_plan = p;
    return VFETCH_OK;
}

void vfetch_gx_plan_free(vfetch_gx_plan *plan)
{
    if (plan) {
        vfetch_plan_free(plan->converter);
        free(plan->gather);
#if VFETCH_HAVE_JIT
        vfetch_jit_memory_free(&plan->jit_code);
#endif
    }
    free(plan);
}

const struct vfetch_gx_format *vfetch_gx_plan_format(const vfetch_gx_plan *plan)
{
    return plan ? &plan->format : NULL;
}

const vfetch_plan *vfetch_gx_plan_converter(const vfetch_gx_plan *plan)
{
    return plan ? plan->converter : NULL;
}

uint32_t vfetch_gx_plan_out_stride(const vfetch_gx_plan *plan)
{
    return plan ? plan->out_stride : 0;
}

int vfetch_gx_plan_location(const vfetch_gx_plan *plan, unsigned location)
{
    return plan && location < VFETCH_GX_NUM_LOCATIONS ? plan->location_slot[location] : -1;
}

int vfetch_gx_plan_info(const vfetch_gx_plan *plan, struct vfetch_plan_info *info)
{
    if (!plan || !info)
        return VFETCH_EINVAL;
    if (plan->converter) {
        vfetch_plan_info(plan->converter, info);
        info->jit = plan->jit_entry != NULL;
        info->jit_code_bytes = (uint32_t)plan->jit_code.code_bytes;
        info->jit_crossover = plan->jit_crossover;
        info->jit_reason = plan->jit_reason;
        return VFETCH_OK;
    }
    memset(info, 0, sizeof *info); /* nothing to convert: no level chose anything */
    info->jit_reason = plan->jit_reason;
    info->level = "c";
    info->executor = VFETCH_EXECUTOR_PER_OP;
    info->fallback = VFETCH_FALLBACK_FORMAT;
    info->fallback_reason = "the format has no attribute: there is nothing to convert";
    return VFETCH_OK;
}

int vfetch_gx_plan_jit_code(const vfetch_gx_plan *plan, struct vfetch_jit_code_view *view)
{
    if (!plan || !view)
        return VFETCH_EINVAL;
    vfetch_jit_view(&plan->jit_code, plan->jit_entry != NULL, view);
    return VFETCH_OK;
}

int vfetch_gx_plan_declaration(const vfetch_gx_plan *plan, struct vfetch_vertex_decl *decl)
{
    if (!plan || !decl)
        return VFETCH_EINVAL;
    if (plan->converter) /* its locations are the GX ones (gx_build_plan) */
        return vfetch_plan_declaration(plan->converter, decl);
    decl->stride = plan->out_stride;
    decl->num_attrs = 0;
    return VFETCH_OK;
}
