/*
 * Plan creation: validate a description, normalise it (so that equal formats hash equal),
 * compile every source component into a byte map, choose the kernels. Nothing here runs for
 * each vertex.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "dsp.h"
#include "execute.h"
#include "plan_internal.h"
#include "record.h"
#include "vertex_format.h"

void vfetch_op_init(struct vfetch_op *op)
{
    if (!op)
        return;
    memset(op, 0, sizeof *op);
    for (unsigned c = 0; c < 4; c++)
        op->swizzle[c] = (uint8_t)c; /* xyzw: a zero swizzle would be xxxx */
    op->write_mask = 0xf;
}

void vfetch_plan_desc_init(struct vfetch_plan_desc *desc)
{
    if (!desc)
        return;
    memset(desc, 0, sizeof *desc);
    for (unsigned i = 0; i < VFETCH_MAX_OPS; i++)
        vfetch_op_init(&desc->ops[i]);
    for (unsigned i = 0; i < VFETCH_MAX_LOCATIONS; i++)
        desc->location_slot[i] = -1;
}

static int plan_check_stream(const struct vfetch_stream *s)
{
    if ((unsigned)s->order > VFETCH_ORDER_BIG_ENDIAN || (unsigned)s->step > VFETCH_STEP_INSTANCE)
        return VFETCH_EPLAN;
    const int dword_swap = s->order >= VFETCH_ORDER_SWAP_16 && s->order <= VFETCH_ORDER_SWAP_HALF;
    if (dword_swap && s->stride % 4 != 0)
        return VFETCH_EPLAN;
    return VFETCH_OK;
}

static int plan_check_op(const struct vfetch_plan_desc *desc, const struct vfetch_op *op)
{
    if ((unsigned)op->format >= VFETCH_FORMAT_COUNT || (unsigned)op->conversion >= VFETCH_CONV_COUNT)
        return VFETCH_EPLAN;
    const struct vfetch_format_info *fi = &vfetch_format_info[op->format];
    const int constant = op->format == VFETCH_FORMAT_CONSTANT;
    if (constant ? op->conversion != VFETCH_CONV_FLOAT || op->count != 0
                 : !vfetch_pair_valid(op->format, op->conversion))
        return VFETCH_EPLAN;

    const int shifted = op->conversion == VFETCH_CONV_UINT || op->conversion == VFETCH_CONV_SINT;
    if (op->shift > (shifted ? 31 : 0))
        return VFETCH_EPLAN;
    if (!constant &&
        (fi->packed ? op->count != fi->max_count : op->count < 1 || op->count > fi->max_count))
        return VFETCH_EPLAN;
    for (unsigned c = 0; c < op->count; c++) {
        if (op->src[c].stream >= desc->num_streams)
            return VFETCH_EPLAN;
        if (fi->packed && (op->src[c].stream != op->src[0].stream || op->src[c].offset != op->src[0].offset))
            return VFETCH_EPLAN;
        /* Offsets stay far below 2^32 so that offset + container never wraps. */
        if (op->src[c].offset > UINT32_MAX - 8)
            return VFETCH_EPLAN;
    }
    for (unsigned c = 0; c < 4; c++) {
        if (op->swizzle[c] == 6 || op->swizzle[c] == 7)
            return VFETCH_ERESERVED_SWIZZLE;
        if (op->swizzle[c] > VFETCH_SWIZZLE_1)
            return VFETCH_EPLAN;
        if ((op->write_mask >> c & 1) && (uint32_t)op->dst_slot + c >= desc->out_slots)
            return VFETCH_EPLAN;
    }
    /* An op that stores nothing is a mistake (a zeroed mask), never a way to write nothing. */
    if (op->write_mask > 0xf || op->write_mask == 0)
        return VFETCH_EPLAN;
    /* RGBA8 packs the components in order into one slot. */
    if (op->conversion == VFETCH_CONV_PACK_UNORM8 &&
        (op->write_mask != 1 || op->swizzle[0] != 0 || op->swizzle[1] != 1 ||
         op->swizzle[2] != 2 || op->swizzle[3] != 3))
        return VFETCH_EPLAN;
    return VFETCH_OK;
}

static int plan_check(const struct vfetch_plan_desc *desc)
{
    if (desc->num_streams < 1 || desc->num_streams > VFETCH_MAX_STREAMS)
        return VFETCH_EPLAN;
    if (desc->num_ops < 1 || desc->num_ops > VFETCH_MAX_OPS)
        return VFETCH_EPLAN;
    if ((unsigned)desc->path > VFETCH_PATH_PER_OP)
        return VFETCH_EPLAN;
    if (desc->out_slots < 1 || desc->out_slots > VFETCH_MAX_SLOTS)
        return VFETCH_EPLAN;
    if (!vfetch_out_stride_valid(desc->out_stride, desc->out_slots))
        return VFETCH_EPLAN;
    for (unsigned s = 0; s < desc->num_streams; s++) {
        int err = plan_check_stream(&desc->streams[s]);
        if (err)
            return err;
    }
    /* Swizzle errors outrank structural ones so that a reserved selector is always reported
       as such, whatever op it is in and whatever else is wrong with that op (plan_check_op
       returns at an op's first error, which may come before its swizzle). */
    for (unsigned i = 0; i < desc->num_ops; i++)
        for (unsigned c = 0; c < 4; c++)
            if (desc->ops[i].swizzle[c] == 6 || desc->ops[i].swizzle[c] == 7)
                return VFETCH_ERESERVED_SWIZZLE;
    int first_err = VFETCH_OK;
    for (unsigned i = 0; i < desc->num_ops; i++) {
        int err = plan_check_op(desc, &desc->ops[i]);
        if (err == VFETCH_ERESERVED_SWIZZLE)
            return err;
        if (err && !first_err)
            first_err = err;
    }
    return first_err;
}

/* Copy only the fields that mean something, everything else zero, so that memcmp and the
   hash see equal formats as equal. */
static void plan_normalise(const struct vfetch_plan_desc *in, struct vfetch_plan_desc *out)
{
    memset(out, 0, sizeof *out);
    out->num_streams = in->num_streams;
    for (unsigned s = 0; s < in->num_streams; s++) {
        out->streams[s].stride = in->streams[s].step == VFETCH_STEP_CONSTANT ? 0 : in->streams[s].stride;
        out->streams[s].order = in->streams[s].order;
        out->streams[s].step = in->streams[s].step;
        out->streams[s].divisor = in->streams[s].step == VFETCH_STEP_INSTANCE ? in->streams[s].divisor : 0;
    }
    out->num_ops = in->num_ops;
    for (unsigned i = 0; i < in->num_ops; i++) {
        const struct vfetch_op *a = &in->ops[i];
        struct vfetch_op *b = &out->ops[i];
        b->format = a->format;
        b->conversion = a->conversion;
        b->shift = a->shift;
        b->count = a->count;
        for (unsigned c = 0; c < a->count; c++) {
            /* Member by member: a struct copy could carry padding bytes into memcmp. */
            b->src[c].stream = a->src[c].stream;
            b->src[c].offset = a->src[c].offset;
        }
        b->write_mask = a->write_mask;
        b->dst_slot = a->dst_slot;
        if (a->format == VFETCH_FORMAT_CONSTANT) { /* the swizzle is not used */
            for (unsigned c = 0; c < 4; c++) {
                b->swizzle[c] = (uint8_t)c;
                b->constant[c] = a->write_mask >> c & 1 ? a->constant[c] : 0;
            }
        } else {
            memcpy(b->swizzle, a->swizzle, 4);
        }
    }
    out->path = in->path;
    out->out_slots = in->out_slots;
    out->out_stride = in->out_stride ? in->out_stride : in->out_slots * 4;
    for (unsigned l = 0; l < VFETCH_MAX_LOCATIONS; l++) {
        const int16_t slot = in->location_slot[l];
        out->location_slot[l] = slot >= 0 && (uint32_t)slot < in->out_slots ? slot : -1;
    }
}

/* Physical byte of logical byte b under a stream byte order (dword swaps are an XOR). */
static uint32_t plan_physical_byte(enum vfetch_byte_order order, uint32_t b)
{
    switch (order) {
    case VFETCH_ORDER_SWAP_16: return b ^ 1;
    case VFETCH_ORDER_SWAP_32: return b ^ 3;
    case VFETCH_ORDER_SWAP_HALF: return b ^ 2;
    default: return b;
    }
}

static void plan_compile_lane(const struct vfetch_plan_desc *desc, const struct vfetch_op *op,
                              unsigned c, struct vfetch_lane *lane, uint32_t *extent, uint32_t *lo)
{
    const struct vfetch_format_info *fi = &vfetch_format_info[op->format];
    const struct vfetch_source *src = &op->src[c];
    const enum vfetch_byte_order order = desc->streams[src->stream].order;

    lane->stream = src->stream;
    lane->nbytes = fi->container;
    lane->field_shift = fi->field_shift[c];
    lane->field_bits = fi->field_bits[c];
    for (unsigned k = 0; k < fi->container; k++) {
        const uint32_t logical = order == VFETCH_ORDER_BIG_ENDIAN
                                     ? src->offset + (fi->container - 1 - k)
                                     : src->offset + k;
        lane->byte_off[k] = plan_physical_byte(order, logical);
        if (lane->byte_off[k] + 1 > extent[src->stream])
            extent[src->stream] = lane->byte_off[k] + 1;
        if (lane->byte_off[k] < lo[src->stream])
            lo[src->stream] = lane->byte_off[k];
    }
    unsigned le = 1, be = 1;
    for (unsigned k = 1; k < fi->container; k++) {
        le &= lane->byte_off[k] == lane->byte_off[0] + k;
        be &= lane->byte_off[k] == lane->byte_off[0] - k;
    }
    lane->layout = le ? VFETCH_LANE_LE : be ? VFETCH_LANE_BE : VFETCH_LANE_SCATTERED;
}

/* The window fetch of an op (see vfetch_op_exec): possible when all of its bytes lie in one
   stream within 16 bytes. */
static void plan_compile_window(struct vfetch_op_exec *x)
{
    uint32_t lo = UINT32_MAX, hi = 0;
    x->win_ok = 0;
    if (x->count == 0)
        return; /* a constant op reads nothing */
    for (unsigned c = 0; c < x->count; c++) {
        if (x->lane[c].stream != x->lane[0].stream)
            return;
        for (unsigned k = 0; k < x->lane[c].nbytes; k++) {
            lo = x->lane[c].byte_off[k] < lo ? x->lane[c].byte_off[k] : lo;
            hi = x->lane[c].byte_off[k] > hi ? x->lane[c].byte_off[k] : hi;
        }
    }
    if (hi - lo >= 16)
        return;
    memset(x->win_ctrl, 0x80, sizeof x->win_ctrl);
    for (unsigned c = 0; c < x->count; c++)
        for (unsigned k = 0; k < x->lane[c].nbytes; k++)
            x->win_ctrl[4 * c + k] = (uint8_t)(x->lane[c].byte_off[k] - lo);
    x->win_ok = 1;
    x->win_stream = x->lane[0].stream;
    x->win_lo = lo;
    x->win_span = (uint8_t)(hi - lo + 1);
}

/* FNV-1a over an explicit little-endian serialisation: independent of struct padding and of
   the host's byte order. */
static uint64_t plan_hash_bytes(uint64_t h, uint32_t value, unsigned nbytes)
{
    for (unsigned k = 0; k < nbytes; k++) {
        h ^= (value >> (8 * k)) & 0xff;
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t plan_hash_desc(const struct vfetch_plan_desc *d)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = plan_hash_bytes(h, d->num_streams, 4);
    for (unsigned s = 0; s < d->num_streams; s++) {
        h = plan_hash_bytes(h, d->streams[s].stride, 4);
        h = plan_hash_bytes(h, (uint32_t)d->streams[s].order, 1);
        h = plan_hash_bytes(h, (uint32_t)d->streams[s].step, 1);
        if (d->streams[s].step == VFETCH_STEP_INSTANCE) /* (older plans keep their hashes) */
            h = plan_hash_bytes(h, d->streams[s].divisor, 4);
    }
    h = plan_hash_bytes(h, d->num_ops, 4);
    for (unsigned i = 0; i < d->num_ops; i++) {
        const struct vfetch_op *op = &d->ops[i];
        h = plan_hash_bytes(h, (uint32_t)op->format, 1);
        h = plan_hash_bytes(h, (uint32_t)op->conversion, 1);
        h = plan_hash_bytes(h, op->shift, 1);
        h = plan_hash_bytes(h, op->count, 1);
        for (unsigned c = 0; c < 4; c++) {
            h = plan_hash_bytes(h, op->src[c].stream, 1);
            h = plan_hash_bytes(h, op->src[c].offset, 4);
            h = plan_hash_bytes(h, op->swizzle[c], 1);
        }
        h = plan_hash_bytes(h, op->write_mask, 1);
        h = plan_hash_bytes(h, op->dst_slot, 2);
        if (op->format == VFETCH_FORMAT_CONSTANT)
            for (unsigned c = 0; c < 4; c++)
                h = plan_hash_bytes(h, op->constant[c], 4);
    }
    h = plan_hash_bytes(h, d->out_slots, 4);
    h = plan_hash_bytes(h, d->out_stride, 4);
    for (unsigned l = 0; l < VFETCH_MAX_LOCATIONS; l++)
        h = plan_hash_bytes(h, (uint16_t)d->location_slot[l], 2);
    h = plan_hash_bytes(h, (uint32_t)d->path, 1);
    return h;
}

int vfetch_plan_compile_portable(const struct vfetch_plan_desc *desc, vfetch_plan **out_plan)
{
    if (!desc || !out_plan)
        return VFETCH_EINVAL;
    int err = plan_check(desc);
    if (err)
        return err;

    struct vfetch_plan *plan = calloc(1, sizeof *plan);
    if (!plan)
        return VFETCH_ENOMEM;
    plan_normalise(desc, &plan->desc);
    const struct vfetch_plan_desc *d = &plan->desc;
    struct vfetch_dsp dsp;
    vfetch_dsp_current(&dsp);
    plan->isa = dsp.name;
    struct vfetch_prim_dsp prim;
    vfetch_prim_dsp_init(&prim, vfetch_cpu_allowed());
    plan->index_scan = prim.scan ? prim.scan : vfetch_prim_scan_ref;

    for (unsigned s = 0; s < VFETCH_MAX_STREAMS; s++)
        plan->stream_lo[s] = UINT32_MAX;
    for (unsigned i = 0; i < d->num_ops; i++) {
        const struct vfetch_op *op = &d->ops[i];
        struct vfetch_op_exec *x = &plan->ops[i];
        x->convert = dsp.convert[op->format][op->conversion];
        x->format = op->format;
        x->conversion = op->conversion;
        x->shift = op->shift;
        x->count = op->count;
        memcpy(x->swizzle, op->swizzle, 4);
        x->write_mask = op->write_mask;
        x->dst_slot = op->dst_slot;
        memcpy(x->constant, op->constant, sizeof x->constant);
        for (unsigned c = 0; c < op->count; c++)
            plan_compile_lane(d, op, c, &x->lane[c], plan->stream_extent, plan->stream_lo);
        plan_compile_window(x);
    }
    for (unsigned s = 0; s < VFETCH_MAX_STREAMS; s++)
        if (!plan->stream_extent[s])
            plan->stream_lo[s] = 0;
    for (unsigned s = 0; s < d->num_streams; s++) {
        plan->vertex_stride[s] = vfetch_step_fixed(d->streams[s].step) ? 0 : d->streams[s].stride;
        plan->has_instanced |= d->streams[s].step == VFETCH_STEP_INSTANCE;
    }
    plan->record_size = d->out_slots * 4;
    plan->out_stride = d->out_stride;
    plan->hash = plan_hash_desc(d);
    plan->fallback = d->path != VFETCH_PATH_AUTO ? VFETCH_FALLBACK_REQUESTED
                     : !dsp.record               ? VFETCH_FALLBACK_LEVEL
                                                 : VFETCH_FALLBACK_NONE;
    if (d->path == VFETCH_PATH_AUTO && dsp.record) {
        /* NULL when the format cannot be expressed: the per-op kernels run it. */
        plan->record = vfetch_record_lower(plan, dsp.record_lanes, dsp.record_wide_windows);
        plan->record_run = plan->record ? dsp.record : NULL;
        if (dsp.record_narrow) {
            struct vfetch_record_prog *narrow =
                vfetch_record_lower(plan, dsp.record_narrow_lanes, 0);
            /* On CPUs that split 512-bit ops the 256-bit program wins every near-tie: the
               wide one must be clearly cheaper by the estimate, which counts a 512-bit op as
               two. Where they run at full width a 512-bit op counts as one: the narrow
               program only if cheaper still (measurements: docs/decisions.md, "Measured
               choices"). */
            const uint64_t narrow_cost = narrow ? vfetch_record_cost(narrow) : 0;
            const uint64_t wide_cost = plan->record ? vfetch_record_cost(plan->record) : 0;
            const int narrow_cheaper = vfetch_cpu_splits_512() ? 4 * narrow_cost <= 5 * wide_cost
                                                               : 2 * narrow_cost < wide_cost;
            const int take_narrow = narrow && (!plan->record || narrow_cheaper);
            if (take_narrow) {
                free(plan->record);
                plan->record = narrow;
                plan->record_run = dsp.record_narrow;
            } else if (narrow && narrow->group < plan->record->group) {
                /* A draw of one 512-bit group or less: the 256-bit program's smaller groups
                   waste fewer lanes on it (docs/simd.md). */
                plan->record_small = narrow;
                plan->record_small_run = dsp.record_narrow;
            } else {
                plan->record_spare = narrow;
            }
        }
    }
    if (!plan->fallback && !plan->record)
        plan->fallback = VFETCH_FALLBACK_FORMAT;
    /* Above the reference (the oracle every level is checked against), a plan that only moves
       words runs its draws as one copy (lib/word_copy.c). */
    if (d->path == VFETCH_PATH_AUTO && dsp.level) {
        plan->word_copy = (uint8_t)vfetch_plan_word_copy(plan);
        plan->copy = plan->word_copy == VFETCH_WORD_COPY_BSWAP32 ? dsp.bswap32_copy
                                                                  : vfetch_word_copy_c;
    }
    plan->jit_reason = "the plan was compiled for the portable tier alone";
    *out_plan = plan;
    return VFETCH_OK;
}

/* Records above this many bytes (Maxwell's full ISBE image: 1 KiB, mostly defaults). */
#define PLAN_JIT_BIG_RECORD 256
/* The record program's crossovers where it keeps the long draws (below; where a class is
   timed, the crossover is where the two tiers' times cross, lib/jit/measure.c). */
#define PLAN_JIT_RECORD_CROSSOVER 64
#define PLAN_JIT_BIG_CROSSOVER 8

/*
 * From how many records a plan's direct draws run its record program instead of the generated
 * code (docs/decisions.md, "Measured choices"; vfetch_bench's plan rows against the generated
 * code at every count, VFETCH_JIT_CROSSOVER, Zen 5), and whether that is measured on the
 * machine (*measure: the record program from where the two tiers' times cross, where it runs
 * a long draw clearly faster). Measured: a program built for the avx512 level where the plan
 * reads one stream and its records are of at most PLAN_JIT_BIG_RECORD bytes (R300's and
 * Maxwell's one-stream compact records: the 16-lane program led the generated code 1.1-2.4x
 * from 256 records until the generated groups loaded a window both their halves read once;
 * since, Maxwell's a and b run 1.2-1.5x faster through them), and a 4-lane program (sse41:
 * both ways on Zen 5). From 8 records where a 4-lane program converts records of more than
 * PLAN_JIT_BIG_RECORD bytes in groups of 4 or more (Maxwell's instanced full image: the
 * program 1.05-1.5x); else never. At the avx2 level the generated code was as fast or faster
 * at every count (1.0-1.3x for R300 plans, 1.2-1.9x for Maxwell's, 1.1-4x for the full ISBE
 * images; on the Xeon the avx2 program lost to the sse41 level's generated code); so was it
 * for plans of several streams at avx512 (Maxwell's: the program stages them, 1.3-1.8x) and
 * the full images (1.1-4x from 4,096 records).
 */
static uint32_t plan_jit_crossover(const struct vfetch_plan *plan, int *measure)
{
    const struct vfetch_record_prog *rp = plan->record;
    const int big = plan->record_size > PLAN_JIT_BIG_RECORD;
    *measure = 0;
    if (!rp)
        return UINT32_MAX;
    if (!strcmp(plan->isa, "avx512")) {
        *measure = !big && plan->desc.num_streams == 1;
        return UINT32_MAX;
    }
    if (rp->lanes == 4 && big && rp->group >= 4)
        return PLAN_JIT_BIG_CROSSOVER;
    *measure = rp->lanes == 4;
    return UINT32_MAX;
}

#if VFETCH_HAVE_JIT
/* A synthetic draw of a one-stream plan (zero bytes) through its generated code or its
   portable tier. */
struct plan_measure {
    const struct vfetch_plan *plan;
    const uint8_t *records[1];
    struct vfetch_binding stream;
    struct vfetch_draw draw;
};

static void plan_measure_run(void *ctx, int portable, uint32_t count)
{
    struct plan_measure *m = ctx;
    m->draw.count = count;
    if (portable)
        vfetch_execute_portable(m->plan, &m->draw);
    else
        m->plan->jit(m->records, m->draw.count, m->draw.out);
}

/* A synthetic draw of `n` records of a one-stream plan into *m: the block to free, or NULL.
   The output follows the records; with `out_past_line` (> 0) it lies that many bytes past a
   64-byte boundary instead of wherever the heap puts it. */
static uint8_t *plan_measure_setup(const struct vfetch_plan *plan, size_t n, struct plan_measure *m,
                                   size_t out_past_line)
{
    const size_t in = n * plan->vertex_stride[0] + plan->record_size, out = n * plan->out_stride;
    const size_t out_at = out_past_line ? ((in + 63) & ~(size_t)63) + out_past_line : in;
    const size_t bytes = (out_at + out + 63) & ~(size_t)63;
    uint8_t *buf = out_past_line ? aligned_alloc(64, bytes) : malloc(bytes);
    if (!buf)
        return NULL;
    memset(buf, 0, bytes);
    *m = (struct plan_measure){ .plan = plan, .records = { buf }, .stream = { buf, in } };
    m->draw = (struct vfetch_draw){ .streams = &m->stream, .first = 0, .count = (uint32_t)n,
                                    .out = buf + out_at };
    return buf;
}

/* That draw past the L1 (vfetch_jit_past_l1_setup_fn). */
static uint8_t *plan_measure_past_l1(const void *plan, void *m)
{
    return plan_measure_setup(plan, VFETCH_JIT_MEASURE_PAST_L1, m, VFETCH_JIT_MEASURE_PAST_L1_OUT);
}

/* From how many records the portable tier runs a one-stream plan's direct draws rather than
   its generated code on this machine (lib/jit/measure.c): UINT32_MAX, or a crossover,
   `portable_default` the class's answer unless the other tier is clearly faster; 0 for any
   other plan (not measured). Where the 16-lane program is the default (portable_default 1), a
   draw past the L1 cache with its output off a line decides too (vfetch_jit_measured_past_l1),
   as for GX formats: on an Intel Xeon r300-r2's 1,024-record draws went either way from
   process to process (within 10 %) and its 4,096-record ones ran 1.4x slower through the
   program, whose 64-byte stores each cross a line (docs/decisions.md). */
static uint32_t plan_measured_crossover(const struct vfetch_plan *plan, int portable_default)
{
    const enum vfetch_step step = plan->desc.streams[0].step;
    if (plan->desc.num_streams != 1 || plan->has_instanced ||
        (step != VFETCH_STEP_INDEXED && step != VFETCH_STEP_SEQUENTIAL))
        return 0; /* a direct draw reads record p of an indexed or sequential stream */
    struct plan_measure m;
    uint8_t *buf = plan_measure_setup(plan, VFETCH_JIT_MEASURE_RECORDS, &m, 0);
    if (!buf)
        return UINT32_MAX;
    uint64_t at_long[2];
    uint32_t crossover = vfetch_jit_measured_crossover(plan_measure_run, &m, portable_default,
                                                       PLAN_JIT_RECORD_CROSSOVER, at_long);
    free(buf);
    if (portable_default == 1) {
        struct plan_measure again;
        crossover = vfetch_jit_measured_past_l1(plan_measure_run, plan_measure_past_l1, plan, &m,
                                                &again, crossover, at_long);
    }
    return crossover;
}
#endif

/* A synthetic draw through one of two codes of a plan (its streams' records from one buffer):
   without an index buffer, or through one of 16-bit entries naming the records shuffled. */
struct plan_held_measure {
    const struct vfetch_jit_code *code[2];
    int through_index;
    const uint8_t *records[VFETCH_MAX_STREAMS];
    uint8_t *out;
    struct vfetch_jit_index index;
};

static void plan_held_run(void *ctx, int second, uint32_t count)
{
    struct plan_held_measure *m = ctx;
    const struct vfetch_jit_code *c = m->code[second];
    if (m->through_index)
        ((vfetch_jit_plan_indexed_fn *)c->entry_indexed)(m->records, count, m->out, &m->index);
    else
        ((vfetch_jit_plan_fn *)c->entry)(m->records, count, m->out);
}

/* Records of the draws that weigh the held factors against vdivps: short draws, where the
   two differed as at 4,096 (docs/jit.md); and a plan's whole groups against its pass. */
#define PLAN_HELD_MEASURE 256

/* Of a plan's entries in `entries` (VFETCH_JIT_HELD_DIRECT, _INDEXED), those where code
   `second` runs a PLAN_HELD_MEASURE-record draw more than lead_percent faster than `first` (the
   fastest of several runs each, alternately: vfetch_jit_measured_second), each stream's
   records from one buffer of bytes that are not zeros (a divider may take zeros faster);
   through an index buffer of 16-bit entries naming every record once, shuffled. The output
   64-byte aligned where `aligned` asks, else wherever the heap puts it. All of `entries` where
   the buffer cannot be had (the second code stands). */
static unsigned plan_entries_faster(const struct vfetch_plan *plan,
                                    const struct vfetch_jit_code *first,
                                    const struct vfetch_jit_code *second, unsigned entries,
                                    unsigned lead_percent, int aligned)
{
    const uint32_t n = PLAN_HELD_MEASURE;
    size_t stride = 0, extent = 0;
    for (unsigned k = 0; k < plan->desc.num_streams; k++) {
        stride = plan->vertex_stride[k] > stride ? plan->vertex_stride[k] : stride;
        extent = plan->stream_extent[k] > extent ? plan->stream_extent[k] : extent;
    }
    const size_t records = n * stride + extent, out = (size_t)n * plan->out_stride;
    const size_t in = aligned ? (records + 63) & ~(size_t)63 : records;
    uint16_t indices[PLAN_HELD_MEASURE];
    uint8_t *buf = aligned ? aligned_alloc(64, (in + out + 63) & ~(size_t)63) : malloc(in + out);
    if (!buf)
        return entries;
    memset(buf, 0x5a, in);
    for (uint32_t i = 0; i < n; i++)
        indices[i] = (uint16_t)(i * 157u % n);
    struct plan_held_measure m = { .code = { first, second }, .out = buf + in };
    for (unsigned k = 0; k < plan->desc.num_streams; k++)
        m.records[k] = buf;
    m.index = (struct vfetch_jit_index){ .entries = indices, .max_index = n - 1,
                                         .plain = (uint64_t)second->indexed_plain };
    unsigned faster = 0;
    for (m.through_index = 0; m.through_index < 2; m.through_index++)
        if ((entries >> m.through_index & 1) &&
            vfetch_jit_measured_second(plan_held_run, &m, n, lead_percent))
            faster |= 1u << m.through_index;
    free(buf);
    return faster;
}

/* Of the entries whose per-vertex ops divide by held factors (code `held`), those measured
   faster than with vdivps (code `divided`) on this machine: the faster one, with no default,
   since neither form is the safer one to keep. The two forms ranked differently plan by plan,
   and entry by entry (on an Intel Xeon, r300-r3 through an index buffer 1.4-1.9x faster by held
   factors, r300-r1 through one 0.87-0.95x): the measurement decides, as for a GX format's
   groups and pass. */
static unsigned plan_measured_held(const struct vfetch_plan *plan,
                                   const struct vfetch_jit_code *held,
                                   const struct vfetch_jit_code *divided)
{
    return plan_entries_faster(plan, divided, held, held->fma_held, 0, 0);
}

/* After a choice made entry by entry between the plan's code and `other` (the same plan
   compiled the other way): the plan's code kept where every entry keeps it (`other` freed);
   else `other` taken, and where some entries keep the first way (mixed), the plan compiled
   once more, with `held` and the plan's jit_no_groups as they are now. 0 where that third
   compile failed (`other` stands). */
static int plan_take_code(struct vfetch_plan *plan, struct vfetch_jit_code *other, int kept,
                          int mixed, enum vfetch_jit_division division, unsigned held)
{
    if (kept) {
        vfetch_jit_memory_free(other);
        return 1;
    }
    vfetch_jit_memory_free(&plan->jit_code);
    plan->jit_code = *other;
    struct vfetch_jit_code some;
    if (!mixed)
        return 1;
    if (vfetch_jit_plan_compile(plan, division, held, &some))
        return 0;
    vfetch_jit_memory_free(&plan->jit_code);
    plan->jit_code = some;
    return 1;
}

/* The plan's code with the held factors where they are measured faster (plan_measured_held):
   compiled again without them (and once more with the entries that keep them, where those are
   some of the first code's), the other code freed; VFETCH_JIT_HELD says which without timing.
   Nothing where not timing (VFETCH_JIT_MEASURE) or where the plan has an instanced stream (not
   measured): the first code stands. */
static void plan_choose_held(struct vfetch_plan *plan, enum vfetch_jit_division division)
{
    const int forced = vfetch_jit_held_env();
    if (!plan->jit_code.fma_held ||
        (forced < 0 && (plan->has_instanced || vfetch_jit_measure_mode() != VFETCH_JIT_MEASURE_TIME)) ||
        (forced >= 0 && ((unsigned)forced & plan->jit_code.fma_held) == plan->jit_code.fma_held))
        return;
    struct vfetch_jit_code divided;
    if (vfetch_jit_plan_compile(plan, division, 0, &divided))
        return; /* a failed compile leaves nothing to free */
    const unsigned keep = forced >= 0 ? (unsigned)forced & plan->jit_code.fma_held
                                      : plan_measured_held(plan, &plan->jit_code, &divided);
    (void)plan_take_code(plan, &divided, keep == plan->jit_code.fma_held, keep != 0, division,
                         keep);
}

/* A plan of several streams whose code converts draws in whole groups (its direct draws, or
   through an index buffer gathered): compiled again without them (jit_no_groups) and the two
   timed entry by entry on a 256-record draw (output 64-byte aligned, as a host vertex
   buffer's records of 32 and 64 bytes lie), the groups kept in an entry only where they lead
   by 5 % (compiled a third time where one entry keeps them and the other does not). Counted
   instructions ranked them wrongly for records of one vertex and several vectors, each
   vector's halves from two streams: on an Intel Xeon R300's skinned format in four arrays
   (Mesa's one array an element) ran 0.89-0.94x as groups, where its two-array formats ran
   1.13-1.16x (direct draws; with the output 12 or 16 bytes past a line 1.0-1.2x and
   0.88-0.90x; docs/decisions.md). One-stream plans keep the count, which ranked their groups
   right on the CPUs measured. Not where timing is off (VFETCH_JIT_MEASURE), VFETCH_JIT_GROUPS
   (direct draws) or VFETCH_JIT_GATHER (through an index buffer) asks, or a stream is
   instanced (not measured). */
static void plan_choose_groups(struct vfetch_plan *plan, enum vfetch_jit_division division)
{
    const unsigned entries =
        (plan->jit_code.groups && vfetch_jit_groups_env() < 0 ? VFETCH_JIT_HELD_DIRECT : 0) |
        (plan->jit_code.gathered_loops && vfetch_jit_gather_env() < 0 ? VFETCH_JIT_HELD_INDEXED
                                                                       : 0);
    if (!entries || plan->desc.num_streams < 2 || plan->has_instanced ||
        vfetch_jit_measure_mode() != VFETCH_JIT_MEASURE_TIME)
        return;
    const unsigned held = VFETCH_JIT_HELD_DIRECT | VFETCH_JIT_HELD_INDEXED;
    struct vfetch_jit_code pass;
    plan->jit_no_groups = (uint8_t)entries;
    if (vfetch_jit_plan_compile(plan, division, held, &pass)) {
        plan->jit_no_groups = 0; /* a failed compile leaves nothing to free */
        return;
    }
    const unsigned keep = plan_entries_faster(plan, &pass, &plan->jit_code, entries, 5, 1);
    plan->jit_no_groups = (uint8_t)(entries & ~keep);
    if (!plan_take_code(plan, &pass, keep == entries, keep != 0, division, held))
        plan->jit_no_groups = (uint8_t)entries; /* the code without any groups stands */
}

/* The generated conversion, where the build, the mode, the level and the plan allow it. */
static void plan_build_jit(struct vfetch_plan *plan)
{
    const enum vfetch_jit_mode mode = vfetch_jit_mode_now();
    plan->jit_reason = vfetch_jit_unavailable(mode);
    if (plan->jit_reason)
        return;
#if VFETCH_HAVE_JIT
    /* the division's form: the FMA form in the 8-lane groups, and in each entry's per-vertex
       ops by factors held in registers where that is measured faster, else vdivps; unless
       VFETCH_JIT_DIVISION asks for one form everywhere (docs/decisions.md) */
    const int asked = vfetch_jit_division_env();
    const enum vfetch_jit_division division =
        asked < 0 ? VFETCH_JIT_FMA_GROUPS : (enum vfetch_jit_division)asked;
    if (!(plan->jit_reason = vfetch_jit_plan_compile(
              plan, division, VFETCH_JIT_HELD_DIRECT | VFETCH_JIT_HELD_INDEXED, &plan->jit_code))) {
        if (asked < 0 && mode != VFETCH_JIT_COMPARE) {
            plan_choose_groups(plan, division);
            plan_choose_held(plan, division);
        }
        plan->jit_reason = "";
        plan->jit = (vfetch_jit_plan_fn *)plan->jit_code.entry;
        plan->jit_indexed = (vfetch_jit_plan_indexed_fn *)plan->jit_code.entry_indexed;
        plan->jit_one = (vfetch_jit_plan_one_fn *)plan->jit_code.entry_one;
        plan->jit_compare = mode == VFETCH_JIT_COMPARE;
        int measure = 0;
        plan->jit_crossover = plan->jit_compare ? UINT32_MAX
                              : plan->word_copy ? vfetch_word_copy_crossover(plan)
                                                : plan_jit_crossover(plan, &measure);
        /* VFETCH_JIT_CROSSOVER=N moves a record program's or a word copy's crossover, to
           measure where the tiers cross (docs/jit.md), as for GX formats; a word copy's draws
           through an index buffer run the generated code at every count */
        const uint32_t forced = vfetch_jit_crossover_env();
        if ((plan->record || plan->word_copy) && !plan->jit_compare && forced)
            plan->jit_crossover = forced;
        /* The classes whose long draws went both ways (plan_jit_crossover; a 4-lane program's:
           the generated code ahead for r300-r1, r3, r4, skin, behind for r2, docs/benchmarks.md,
           "Regret rows"): measured, the record program from where the tiers cross if it
           takes the long draws; an avx512 plan that cannot be keeps the record program from
           PLAN_JIT_RECORD_CROSSOVER records. */
        else if (measure && !plan->jit_compare) {
            const int avx512 = !strcmp(plan->isa, "avx512");
            const uint32_t measured = plan_measured_crossover(plan, avx512);
            if (measured)
                plan->jit_crossover = measured;
            else if (avx512)
                plan->jit_crossover = PLAN_JIT_RECORD_CROSSOVER;
        }
        plan->jit_direct_most =
            plan->jit_compare || plan->has_instanced ? 0 : plan->jit_crossover - 1;
        plan->jit_indexed_direct =
            plan->jit_compare || plan->has_instanced ? NULL : plan->jit_indexed;
        plan->one_indexed_stream = plan->desc.num_streams == 1 &&
                                   plan->desc.streams[0].step == VFETCH_STEP_INDEXED;
    }
#endif
}

void vfetch_plan_drop_spare(struct vfetch_plan *plan)
{
    free(plan->record_spare);
    plan->record_spare = NULL;
}

int vfetch_plan_compile(const struct vfetch_plan_desc *desc, vfetch_plan **out_plan)
{
    const int err = vfetch_plan_compile_portable(desc, out_plan);
    if (!err) {
        plan_build_jit(*out_plan);
        vfetch_plan_drop_spare(*out_plan);
    }
    return err;
}

int vfetch_plan_jit_code(const vfetch_plan *plan, struct vfetch_jit_code_view *view)
{
    if (!plan || !view)
        return VFETCH_EINVAL;
    vfetch_jit_view(&plan->jit_code, plan->jit != NULL, view);
    return VFETCH_OK;
}

int vfetch_plan_info(const vfetch_plan *plan, struct vfetch_plan_info *info)
{
    static const char *const reasons[] = {
        [VFETCH_FALLBACK_NONE] = "",
        [VFETCH_FALLBACK_REQUESTED] = "the description asks for the per-op path",
        [VFETCH_FALLBACK_LEVEL] = "this level has no byte shuffle for the record program",
        [VFETCH_FALLBACK_FORMAT] = "the record program cannot express this format",
    };
    if (!plan || !info)
        return VFETCH_EINVAL;
    const struct vfetch_record_prog *prog = plan->record;
    info->level = plan->isa;
    info->executor = prog ? VFETCH_EXECUTOR_RECORD : VFETCH_EXECUTOR_PER_OP;
    info->record_lanes = prog ? prog->lanes : 0;
    info->record_group = prog ? prog->group : 0;
    info->record_vectors = prog ? prog->num_vectors : 0;
    info->small_draw_lanes = plan->record_small ? plan->record_small->lanes : 0;
    info->fallback = (enum vfetch_fallback)plan->fallback;
    info->fallback_reason = reasons[plan->fallback];
    info->word_copy = plan->word_copy != VFETCH_WORD_COPY_NONE;
    info->jit = plan->jit != NULL;
    info->jit_code_bytes = (uint32_t)plan->jit_code.code_bytes;
    info->jit_crossover = plan->jit_crossover;
    info->jit_reason = plan->jit_reason;
    info->jit_fma_division = plan->jit && plan->jit_code.fma_division;
    info->jit_gathered = plan->jit && plan->jit_code.gathered_loops != 0;
    return VFETCH_OK;
}

void vfetch_plan_free(vfetch_plan *plan)
{
    if (plan) {
        free(plan->record);
        free(plan->record_small);
        free(plan->record_spare);
#if VFETCH_HAVE_JIT
        vfetch_jit_memory_free(&plan->jit_code);
#endif
    }
    free(plan);
}

const struct vfetch_plan_desc *vfetch_plan_get_desc(const vfetch_plan *plan)
{
    return plan ? &plan->desc : NULL;
}

uint32_t vfetch_plan_stream_extent(const vfetch_plan *plan, unsigned stream)
{
    return plan && stream < VFETCH_MAX_STREAMS ? plan->stream_extent[stream] : 0;
}

uint32_t vfetch_plan_record_size(const vfetch_plan *plan)
{
    return plan ? plan->record_size : 0;
}

uint32_t vfetch_plan_out_stride(const vfetch_plan *plan)
{
    return plan ? plan->out_stride : 0;
}

int vfetch_plan_location(const vfetch_plan *plan, unsigned location)
{
    if (!plan || location >= VFETCH_MAX_LOCATIONS)
        return -1;
    return plan->desc.location_slot[location];
}

uint64_t vfetch_plan_hash(const vfetch_plan *plan)
{
    return plan ? plan->hash : 0;
}

int vfetch_plan_equal(const vfetch_plan *a, const vfetch_plan *b)
{
    if (!a || !b)
        return a == b;
    return memcmp(&a->desc, &b->desc, sizeof a->desc) == 0;
}
