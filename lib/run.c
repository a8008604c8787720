/*
 * vfetch_run, the front-end of hand-built, R300 and Maxwell plans: a run validated completely
 * (nothing is written before every check has passed), then executed as one validated draw
 * (lib/execute.h). A draw the generated code takes whole is checked in the few terms it leaves
 * and run at once.
 */

#include "execute.h"
#include "run.h"

void vfetch_run_params_init(struct vfetch_run_params *params)
{
    if (params)
        *params = vfetch_run_params_default();
}

/* The one record an instanced stream reads in a run (< 2^33; times a stride it may not fit 64
   bits: run_validate checks). */
static inline uint64_t run_instance_record(const struct vfetch_stream *st,
                                           const struct vfetch_run_params *p)
{
    return (uint64_t)p->base_instance + (st->divisor ? p->instance / st->divisor : 0);
}

/* Entries below which validation scans an index buffer without the level's kernel. */
#define RUN_SCAN_LEAST 16

/* Highest record each step kind reads over the whole run. Through an index buffer: the
   records of its lowest and highest entries (vfetch_run_entry_record is nondecreasing), the
   entries found by the level's scan. Inline: out of line, its frame cost a short draw 40
   instructions. */
static inline __attribute__((always_inline)) int
run_max_records(const vfetch_plan *plan, const struct vfetch_run_params *p, uint64_t *max_indexed,
                uint64_t *max_sequential)
{
    const uint64_t last = (uint64_t)p->first + p->count - 1;
    *max_sequential = last;
    if (p->index_type == VFETCH_INDEX_NONE) {
        *max_indexed = last;
        return VFETCH_OK;
    }
    uint32_t lo = UINT32_MAX, hi = 0;
    if (p->count < RUN_SCAN_LEAST) { /* the kernel's set-up outweighs a few entries */
#pragma GCC unroll 1
        for (uint32_t k = 0; k < p->count; k++) {
            const uint32_t e = vfetch_run_index_entry(p, p->first + k);
            lo = e < lo ? e : lo;
            hi = e > hi ? e : hi;
        }
    } else {
        const struct prim_guest entries = { p->index_type == VFETCH_INDEX_U16 ? 2 : 4, 0, 0, 0 };
        uint32_t scan_lo, scan_hi;
        plan->index_scan((const uint8_t *)p->indices + (size_t)p->first * entries.bytes,
                         p->count, &entries, &scan_lo, &scan_hi);
        lo = scan_lo;
        hi = scan_hi;
    }
    if (vfetch_run_entry_record(p, lo) < 0)
        return VFETCH_EINDEX_RANGE;
    *max_indexed = (uint64_t)vfetch_run_entry_record(p, hi);
    return VFETCH_OK;
}

/* Every check of a run in vfetch_run's order; without `output`, the output's (a NULL out, its
   size) left to the caller, who knows where the records go only after these pass. */
static inline int run_validate(const vfetch_plan *plan, const struct vfetch_run_params *p,
                               const int output)
{
    const struct vfetch_plan_desc *d = &plan->desc;
    if ((unsigned)p->index_type > VFETCH_INDEX_U32)
        return VFETCH_EINVAL;
    if (p->num_streams < d->num_streams || (d->num_streams && !p->streams))
        return VFETCH_EINVAL;
    if (p->count == 0)
        return VFETCH_OK;
    if ((output && !p->out) || (p->index_type != VFETCH_INDEX_NONE && !p->indices))
        return VFETCH_EINVAL;

    const uint64_t end = (uint64_t)p->first + p->count; /* one past the last draw position */
    if (end - 1 > UINT32_MAX)
        return VFETCH_EOVERFLOW;
    if (p->index_type != VFETCH_INDEX_NONE) {
        const uint64_t need = end * (p->index_type == VFETCH_INDEX_U16 ? 2 : 4);
        if (need > p->indices_size)
            return VFETCH_ESHORT_INDICES;
    }

    if (output) {
        const uint64_t out_need = (uint64_t)(p->count - 1) * plan->out_stride + plan->record_size;
        if (out_need > SIZE_MAX)
            return VFETCH_EOVERFLOW;
        if (out_need > p->out_size)
            return VFETCH_ESHORT_OUTPUT;
    }

    uint64_t max_indexed, max_sequential;
    int err = run_max_records(plan, p, &max_indexed, &max_sequential);
    if (err)
        return err;

    for (unsigned s = 0; s < d->num_streams; s++) {
        if (plan->stream_extent[s] == 0)
            continue; /* the plan never reads it: no binding needed */
        if (!p->streams[s].data)
            return VFETCH_EMISSING_STREAM;
        const struct vfetch_stream *st = &d->streams[s];
        const uint64_t rec = st->step == VFETCH_STEP_INDEXED      ? max_indexed
                             : st->step == VFETCH_STEP_SEQUENTIAL ? max_sequential
                             : st->step == VFETCH_STEP_INSTANCE   ? run_instance_record(st, p)
                                                                  : 0;
        /* rec may reach 2^33 - 2 (instanced): the product is checked before it is formed */
        if (st->stride && rec > (SIZE_MAX - plan->stream_extent[s]) / st->stride)
            return VFETCH_EOVERFLOW;
        const uint64_t need = rec * st->stride + plan->stream_extent[s];
        if (need > p->streams[s].size)
            return VFETCH_ESHORT_STREAM;
    }
    return VFETCH_OK;
}

/* The source of a validated run: its bindings, an instanced stream's moved to the one record
   it reads (validated to lie inside it), so that it runs as a constant stream. */
static __attribute__((noinline)) int run_instanced(const vfetch_plan *plan,
                                                   const struct vfetch_run_params *params,
                                                   struct vfetch_draw *src)
{
    struct vfetch_binding shifted[VFETCH_MAX_STREAMS];
    for (unsigned s = 0; s < plan->desc.num_streams; s++) {
        shifted[s] = params->streams[s];
        const struct vfetch_stream *st = &plan->desc.streams[s];
        if (st->step != VFETCH_STEP_INSTANCE || !shifted[s].data)
            continue;
        const size_t at = (size_t)(run_instance_record(st, params) * st->stride);
        shifted[s].data = (const uint8_t *)shifted[s].data + at;
        shifted[s].size -= at;
    }
    src->streams = shifted;
    return vfetch_execute(plan, src);
}

/* Whether stream s's binding holds record `last` where an op reads the stream (unbound
   otherwise), its stride below 2^16 so that the product cannot overflow (a stride past that
   leaves the draw to the general path, which checks it whole). */
static inline int run_stream_holds(const vfetch_plan *plan, const struct vfetch_binding *b,
                                   unsigned s, uint64_t last)
{
    const uint64_t stride = plan->vertex_stride[s];
    const uint32_t extent = plan->stream_extent[s];
    return stride <= 0xffff && (!extent || (b->data && last * stride + extent <= b->size));
}

/* Where stream s's records start for the generated code: the draw's first record or, in a
   draw through an index buffer (`indexed`, known to the caller), an indexed stream's record 0
   (record `offset` in a plain draw: jit.h). As integers: a stream no op reads may be unbound,
   and a plain draw's negative offset points below record 0, which no entry reaches. */
static inline const uint8_t *run_stream_start(const vfetch_plan *plan,
                                              const struct vfetch_run_params *p, unsigned s,
                                              int indexed, int plain)
{
    const uint64_t stride = plan->vertex_stride[s];
    uintptr_t at = (uintptr_t)p->streams[s].data;
    if (!indexed || plan->desc.streams[s].step != VFETCH_STEP_INDEXED)
        at += (size_t)p->first * stride;
    else if (plain)
        at += (uintptr_t)(p->index_offset * (int64_t)stride);
    return (const uint8_t *)at;
}

/* Each stream's start (run_stream_start) into records[], every stream the ops read bound and
   holding the last record it reads: an indexed stream's in a draw through an index buffer
   max_indexed (unless `held`: the caller checked them), the others' max_sequential (a constant
   or instanced stream's stride is 0). 0 where a check failed. */
static inline int run_stream_records(const vfetch_plan *plan, const struct vfetch_run_params *p,
                                     int indexed, uint64_t max_indexed, uint64_t max_sequential,
                                     int plain, int held, const uint8_t **records)
{
    for (unsigned s = 0; s < plan->desc.num_streams; s++) {
        const int through = indexed && plan->desc.streams[s].step == VFETCH_STEP_INDEXED;
        if (!(through && held) &&
            !run_stream_holds(plan, &p->streams[s], s, through ? max_indexed : max_sequential))
            return 0;
        records[s] = run_stream_start(plan, p, s, indexed, plain);
    }
    return 1;
}

/* A draw of several streams without an index buffer (run_generated), each stream holding
   record `last` (the draw's last), into the generated code; 1 where a check failed. Out of
   line: its table of records is a frame a one-stream draw does not set up. */
static __attribute__((noinline)) int run_generated_streams(const vfetch_plan *plan,
                                                           const struct vfetch_run_params *p)
{
    const uint64_t last = (uint64_t)p->first + p->count - 1;
    const uint8_t *records[VFETCH_MAX_STREAMS];
    if (!run_stream_records(plan, p, 0, last, last, 0, 0, records))
        return 1;
    plan->jit(records, p->count, p->out);
    return 0;
}

/* The same through an index buffer (run_generated_indexed), its highest entry's record and the
   last sequential record given (`held`: the indexed streams hold the highest, checked). */
static __attribute__((noinline)) int run_generated_indexed_streams(
    const vfetch_plan *plan, const struct vfetch_run_params *p, uint64_t max_indexed,
    uint64_t max_sequential, int held, const struct vfetch_jit_index *index)
{
    const uint8_t *records[VFETCH_MAX_STREAMS];
    if (!run_stream_records(plan, p, 1, max_indexed, max_sequential, (int)index->plain, held,
                            records))
        return 1;
    plan->jit_indexed(records, p->count, p->out, index);
    return 0;
}

/* Entries below which a draw through an index buffer whose bound reaches max_index runs the
   clamped pass unscanned (run_generated_indexed): the clamp's 3 instructions an entry against the
   scan's fixed part and its chance of the plain pass. r300-r3 and r4 through 16-bit entries,
   max_index 65,535, AVX2, Zen 3 (2026-12-03): unscanned 1.08-1.30x faster at 16 and 32
   entries, even at 48 and 64, 0.85-0.95x from 128 (0.82-0.89x at 4,096). */
#define RUN_CLAMPED_UNSCANNED 48

/* Whether every stream read through the indices holds record `rec` (run_stream_holds). */
static inline int run_indexed_streams_hold(const vfetch_plan *plan,
                                           const struct vfetch_run_params *p, uint64_t rec)
{
    for (unsigned s = 0; s < plan->desc.num_streams; s++)
        if (plan->desc.streams[s].step == VFETCH_STEP_INDEXED &&
            !run_stream_holds(plan, &p->streams[s], s, rec))
            return 0;
    return 1;
}

/* Whether every stream whose plain indexed draws' loads read past its extent (the code's
   stream_reach) holds that many bytes of record `rec` (uint64: below 2^34 times strides below
   2^31, no overflow). */
static inline int run_streams_reach(const vfetch_plan *plan, const struct vfetch_run_params *p,
                                    uint64_t rec)
{
    for (unsigned s = 0; s < plan->desc.num_streams && s < VFETCH_JIT_REACH_STREAMS; s++) {
        const uint32_t reach = plan->jit_code.stream_reach[s];
        if (reach > plan->stream_extent[s] &&
            (!p->streams[s].data || rec * plan->vertex_stride[s] + reach > p->streams[s].size))
            return 0;
    }
    return 1;
}

/* The generated code's draw through the index buffer, max_indexed the record of its highest
   entry (or a bound of it: below max_index, no entry's record is clamped). */
static inline int run_generated_indexed_with(const vfetch_plan *plan,
                                             const struct vfetch_run_params *p, unsigned bytes,
                                             uint64_t max_indexed, int held)
{
    const uint64_t max_sequential = (uint64_t)p->first + p->count - 1;
    /* plain where no entry's record was clamped: the highest one's is below max_index; 2
       where the streams' bindings also hold the reach of the code's wider loads */
    const uint64_t plain = plan->jit_code.indexed_plain && max_indexed < p->max_index;
    const struct vfetch_jit_index index = {
        .entries = (const uint8_t *)p->indices + (size_t)p->first * bytes,
        .offset = p->index_offset,
        .max_index = p->max_index,
        .wide = bytes == 4,
        .plain = plain + (plain && plan->jit_code.indexed_reach &&
                          run_streams_reach(plan, p, max_indexed)),
    };
    if (!plan->one_indexed_stream)
        return run_generated_indexed_streams(plan, p, max_indexed, max_sequential, held, &index);
    if (!held && !run_stream_holds(plan, p->streams, 0, max_indexed))
        return 1;
    const uint8_t *record = run_stream_start(plan, p, 0, 1, (int)index.plain);
    plan->jit_indexed_direct(&record, p->count, p->out, &index);
    return 0;
}

static int run_general(const vfetch_plan *plan, const struct vfetch_run_params *params);

/* run_generated_indexed's draw whose every indexed stream holds record `bound`, the record of
   the index type's largest entry. */
static __attribute__((noinline)) int run_generated_indexed_bound(const vfetch_plan *plan,
                                                                 const struct vfetch_run_params *p,
                                                                 unsigned bytes, uint64_t bound)
{
    return run_generated_indexed_with(plan, p, bytes, bound, 1) ? run_general(plan, p)
                                                                : VFETCH_OK;
}

/* run_generated_indexed's draw whose entries are scanned for their lowest and highest records
   (run_max_records). */
static __attribute__((noinline)) int run_generated_indexed_scanned(
    const vfetch_plan *plan, const struct vfetch_run_params *p, unsigned bytes)
{
    uint64_t max_indexed, max_sequential;
    if (run_max_records(plan, p, &max_indexed, &max_sequential) ||
        run_generated_indexed_with(plan, p, bytes, max_indexed, 0))
        return run_general(plan, p);
    return VFETCH_OK;
}

/* A draw through an index buffer the generated conversion runs at once (as
   vfetch_execute_program would, at every count): no instanced stream, every check of
   run_validate passed; vfetch_run's result. Not such a draw (or a check failed): the general
   path runs it, and reports. Out of line: a draw without indices sets up none of this. Where the index offset is
   not negative and every stream read through the indices holds the record of the largest entry
   the index type has (clamped to max_index: 65,535 + offset through 16-bit indices), no entry
   can name a record outside them: the entries are not scanned (run_validate's scan could
   find nothing to refuse), but for a draw of RUN_CLAMPED_UNSCANNED entries or more whose bound
   reaches max_index (the scan may earn it the plain pass). Else they are
   (run_generated_indexed_scanned). One stream read through the indices (an R300 draw's one
   array) is checked without a table of records. Every way out is a tail call: this function
   sets up no frame. */
static __attribute__((noinline)) int run_generated_indexed(const vfetch_plan *plan,
                                                           const struct vfetch_run_params *p)
{
    const uint32_t count = p->count;
    const unsigned n = plan->desc.num_streams;
    if (!plan->jit_indexed_direct || count == 0 || p->num_streams < n || !p->streams ||
        !p->out || !p->indices || (unsigned)p->index_type > VFETCH_INDEX_U32)
        return run_general(plan, p);
    /* 2 or 4: the caller took VFETCH_INDEX_NONE elsewhere */
    _Static_assert(VFETCH_INDEX_U16 == 1 && VFETCH_INDEX_U32 == 2, "an entry's bytes");
    const unsigned bytes = 2 * (unsigned)p->index_type;
    const uint64_t end = (uint64_t)p->first + count;
    if (end - 1 > UINT32_MAX || end * bytes > p->indices_size ||
        (uint64_t)(count - 1) * plan->out_stride + plan->record_size > p->out_size)
        return run_general(plan, p);
    if (p->index_offset >= 0) {
        const uint64_t bound = (uint64_t)vfetch_run_entry_record(p, bytes == 2 ? 0xffffu
                                                                              : UINT32_MAX);
        /* where the bound reaches max_index the draw would take the clamped pass; a scan may
           find its highest record below max_index, for the plain pass, which wins past
           RUN_CLAMPED_UNSCANNED entries */
        if ((bound < p->max_index || !plan->jit_code.indexed_plain ||
             count < RUN_CLAMPED_UNSCANNED) &&
            (plan->one_indexed_stream ? run_stream_holds(plan, p->streams, 0, bound)
                                      : run_indexed_streams_hold(plan, p, bound)))
            return run_generated_indexed_bound(plan, p, bytes, bound);
    }
    return run_generated_indexed_scanned(plan, p, bytes);
}

/* A draw the generated conversion runs at once: no index buffer, no instanced stream, 1 to the
   crossover's count of records (jit_direct_most holds both, and the compare mode), every check
   of run_validate passed in the few terms such a draw leaves: each stream the ops read bound
   and holding the last record's bytes (record first + count - 1 of a sequential stream, 0 of a
   constant one; the products below cannot overflow: the strides are below 2^16 here and the
   records below 2^32). RUN_DIRECT_NOT: not such a draw (or a check failed): the general path
   runs it, and reports; RUN_DIRECT_STREAMS: a plan of several streams, whose checks
   run_generated_streams makes; RUN_DIRECT_ONE: the one stream's first record in *record, for
   the caller's tail call of jit_one. Most plans read one stream (an R300 draw's one array):
   checked here, without a table of records. Each way out is its caller's tail call: vfetch_run
   sets up no frame. */
enum { RUN_DIRECT_NOT, RUN_DIRECT_STREAMS, RUN_DIRECT_ONE };

/* run_generated's terms of one draw, from its first record, count, output and bindings (every
   stream the plan has bound in `bindings`, checked by the caller): also vfetch_run_one_stream's. */
static inline int run_direct(const vfetch_plan *plan, uint32_t first, uint32_t count, void *out,
                             size_t out_size, const struct vfetch_binding *bindings,
                             const uint8_t **record)
{
    /* the crossover first: a long draw leaves at once for the general path */
    if (count - 1u >= plan->jit_direct_most || !out)
        return RUN_DIRECT_NOT;
    const uint64_t last = (uint64_t)first + count - 1;
    if (last > UINT32_MAX ||
        (uint64_t)(count - 1) * plan->out_stride + plan->record_size > out_size)
        return RUN_DIRECT_NOT;
    if (!plan->jit_one)
        return RUN_DIRECT_STREAMS;
    if (!run_stream_holds(plan, bindings, 0, last))
        return RUN_DIRECT_NOT;
    /* as an integer (run_stream_start): a stream no op reads may be unbound */
    *record = (const uint8_t *)((uintptr_t)bindings->data + (size_t)first * plan->vertex_stride[0]);
    return RUN_DIRECT_ONE;
}

static inline int run_generated(const vfetch_plan *plan, const struct vfetch_run_params *p,
                                const uint8_t **record)
{
    if (p->index_type != VFETCH_INDEX_NONE || p->num_streams < plan->desc.num_streams ||
        !p->streams)
        return RUN_DIRECT_NOT;
    return run_direct(plan, p->first, p->count, p->out, p->out_size, p->streams, record);
}

int vfetch_run_one_stream(const vfetch_plan *plan, uint32_t first, uint32_t count, void *out,
                          size_t out_size, const struct vfetch_binding *binding)
{
    const uint8_t *record;
    if (run_direct(plan, first, count, out, out_size, binding, &record) != RUN_DIRECT_ONE)
        return 1;
    return plan->jit_one(record, count, out);
}

/* A validated draw of one or more records on the portable tier or, through vfetch_execute,
   the generated code. */
static int run_execute(const vfetch_plan *plan, const struct vfetch_run_params *params)
{
    struct vfetch_draw src = {
        .streams = params->streams,
        .first = params->first,
        .count = params->count,
        .indexed = params->index_type != VFETCH_INDEX_NONE ? params : NULL,
        .out = params->out,
    };
    return plan->has_instanced ? run_instanced(plan, params, &src) : vfetch_execute(plan, &src);
}

/* Every other draw: validated whole, then executed. Out of line, so that the generated
   conversion's draws set up none of its frame. */
static __attribute__((noinline)) int run_general(const vfetch_plan *plan,
                                                 const struct vfetch_run_params *params)
{
    const int err = run_validate(plan, params, 1);
    if (err || params->count == 0)
        return err;
    return run_execute(plan, params);
}

int vfetch_run_check_reads(const vfetch_plan *plan, const struct vfetch_run_params *params)
{
    return run_validate(plan, params, 0);
}

int vfetch_run_checked(const vfetch_plan *plan, const struct vfetch_run_params *params)
{
    if (params->count == 0)
        return VFETCH_OK;
    const uint8_t *record;
    switch (run_generated(plan, params, &record)) {
    case RUN_DIRECT_ONE:
        return plan->jit_one(record, params->count, params->out);
    case RUN_DIRECT_STREAMS:
        if (!run_generated_streams(plan, params))
            return VFETCH_OK;
        /* fall through */
    default:
        return run_execute(plan, params);
    }
}

/* vfetch_run's draw of several streams (RUN_DIRECT_STREAMS): the generated code, or the general
   path where a check failed. */
static __attribute__((noinline)) int run_streams_or_general(const vfetch_plan *plan,
                                                            const struct vfetch_run_params *p)
{
    return run_generated_streams(plan, p) ? run_general(plan, p) : VFETCH_OK;
}

int vfetch_run(const vfetch_plan *plan, const struct vfetch_run_params *params)
{
    if (!plan || !params)
        return VFETCH_EINVAL;
    if (params->index_type != VFETCH_INDEX_NONE)
        return run_generated_indexed(plan, params);
    const uint8_t *record;
    switch (run_generated(plan, params, &record)) {
    case RUN_DIRECT_ONE:
        return plan->jit_one(record, params->count, params->out);
    case RUN_DIRECT_STREAMS:
        return run_streams_or_general(plan, params);
    default:
        return run_general(plan, params);
    }
}
