/*
 * The portable tier: a validated draw through the plan's record program (in place where every
 * window lies inside its binding; short draws and tails from stack copies; else through a
 * stage) or, where the plan has none or a group cannot be staged, the per-op kernels.
 */
#include <string.h>

#include "execute.h"
#include "record.h"
#include "stage.h"

/* Bytes of record staging on the stack: indexed streams are staged into contiguous records
   here so that every kernel sees strided sources. */
#define PORTABLE_STAGE_BYTES 16384
#define PORTABLE_MAX_BATCH 256

/*
 * Convert draw positions [first, first + n) with the per-op kernels. Streams that are strided
 * for this range (sequential, constant, or indexed without an index buffer) are read in place;
 * indexed streams of an indexed run are staged first: of each record only the bytes the ops
 * read, [stream_lo, stream_extent), one after another.
 */
static void portable_per_op(const vfetch_plan *plan, const struct vfetch_run_params *p,
                            uint32_t first, size_t n, uint8_t *out, uint8_t *stage)
{
    const struct vfetch_plan_desc *d = &plan->desc;
    const uint8_t *base[VFETCH_MAX_STREAMS];
    size_t stride[VFETCH_MAX_STREAMS];
    size_t stage_used = 0;

    for (unsigned s = 0; s < d->num_streams; s++) {
        const uint32_t extent = plan->stream_extent[s];
        if (extent == 0)
            continue;
        const struct vfetch_stream *st = &d->streams[s];
        const uint8_t *data = p->streams[s].data;
        if (vfetch_step_fixed(st->step)) { /* instanced: shifted to its record (vfetch_run) */
            base[s] = data;
            stride[s] = 0;
        } else if (!vfetch_run_through_indices(st, p)) {
            base[s] = data + (size_t)first * st->stride;
            stride[s] = st->stride;
        } else {
            const uint32_t lo = plan->stream_lo[s];
            const size_t bytes = extent - lo;
            uint8_t *to = stage + stage_used;
            for (size_t i = 0; i < n; i++) {
                const uint64_t idx = (uint64_t)vfetch_run_vertex_index(p, first + (uint32_t)i);
                memcpy(to + i * bytes, data + (size_t)(idx * st->stride) + lo, bytes);
            }
            /* The ops address byte b of record i as base + i * stride + b (b >= lo). The
               base before the stage is formed as an integer: it is never dereferenced. */
            base[s] = (const uint8_t *)((uintptr_t)to - lo);
            stride[s] = bytes;
            stage_used += n * bytes;
        }
    }
    for (unsigned o = 0; o < d->num_ops; o++) {
        const struct vfetch_op_exec *op = &plan->ops[o];
        if (op->write_mask)
            op->convert(op, base, stride, n, out, plan->out_stride);
    }
}

/* Bytes one vertex needs in the stage on the per-op path: the bytes its indexed streams'
   records are read at, when the run has an index buffer (64 bits: 16 streams of up to 4 GiB). */
static uint64_t portable_staged_bytes(const vfetch_plan *plan, const struct vfetch_run_params *p)
{
    uint64_t bytes = 0;
    for (unsigned s = 0; s < plan->desc.num_streams; s++)
        if (vfetch_run_through_indices(&plan->desc.streams[s], p) && plan->stream_extent[s])
            bytes += plan->stream_extent[s] - plan->stream_lo[s];
    return bytes;
}

/*
 * Draw positions [first, first + count) through the per-op kernels, in batches as large as the
 * stage allows when indexed streams must be staged (vfetch_run opened the stage with room for
 * at least one vertex).
 */
static void portable_per_op_range(const vfetch_plan *plan, const struct vfetch_run_params *p,
                                  uint32_t first, size_t count, uint8_t *out, uint8_t *stage,
                                  size_t stage_size)
{
    const uint64_t staged_bytes = portable_staged_bytes(plan, p);
    size_t batch = staged_bytes ? (size_t)(stage_size / staged_bytes) : count;
    if (staged_bytes && batch > PORTABLE_MAX_BATCH)
        batch = PORTABLE_MAX_BATCH;
    for (size_t done = 0; done < count;) {
        const size_t n = count - done < batch ? count - done : batch;
        portable_per_op(plan, p, first + (uint32_t)done, n, out + done * plan->out_stride, stage);
        done += n;
    }
}

/* `span` bytes of a binding from byte `at` on, as far as the binding goes (validation put
   every record's used bytes inside it), zeros after: what a window reading them at `to` sees. */
static inline void portable_copy_span(uint8_t *to, const struct vfetch_binding *b, size_t at,
                                      size_t span)
{
    const size_t room = b->size - at;
    const size_t copy = span < room ? span : room;
    memcpy(to, (const uint8_t *)b->data + at, copy);
    memset(to + copy, 0, span - copy);
}

/*
 * Copy the source bytes of `groups` groups starting at draw position `first` into the stage,
 * laid out exactly as in memory (vertex i of stream s at i * stride): the record program's
 * offsets stay valid and every window it loads lies inside the zero-padded stage. Of each
 * record only the bytes the program uses are copied, [record_lo, record_hi): the windows of
 * the last group reach (groups - 1) * group * stride + window_end, and record.h guarantees
 * every copied byte lies below that, so the stage's size and its copies agree by
 * construction. Indexed streams of an indexed run are staged record by record. Of the last
 * group only `present` vertices exist (a tail): the records past them are zero when staged
 * (their index entries are not read), whatever the binding holds otherwise. Returns 0 if the
 * stage is too small.
 */
static int portable_stage_groups(const vfetch_plan *plan, const struct vfetch_record_prog *prog,
                                 const struct vfetch_run_params *p, uint32_t first, size_t groups,
                                 size_t present, uint8_t *stage, size_t stage_size,
                                 const uint8_t **base)
{
    const struct vfetch_plan_desc *d = &plan->desc;
    size_t used = 0;
    for (unsigned s = 0; s < d->num_streams; s++) {
        if (!prog->window_end[s])
            continue;
        const struct vfetch_stream *st = &d->streams[s];
        const size_t sstride = plan->vertex_stride[s]; /* 0: one record for the run */
        /* < 2^64: groups <= count < 2^32 and a group's step < 2^36 */
        const uint64_t span = (uint64_t)(groups - 1) * prog->group_step[s] + prog->window_end[s];
        if (span > stage_size - used)
            return 0;
        uint8_t *to = stage + used;
        const uint8_t *data = p->streams[s].data;
        const uint32_t lo = prog->record_lo[s], bytes = prog->record_hi[s] - lo;
        const int indexed = vfetch_run_through_indices(st, p);
        if (!indexed && sstride) {
            /* Records in draw order: the stage mirrors memory, so copy the span at once. */
            portable_copy_span(to, &p->streams[s], (size_t)first * sstride, (size_t)span);
            base[s] = to;
            used += (size_t)span;
            continue;
        }
        memset(to, 0, (size_t)span);
        const size_t records = sstride ? present : 1; /* stride 0: every vertex reads one */
        for (size_t i = 0; i < records; i++) {
            const uint32_t pos = first + (uint32_t)i;
            const uint64_t rec = vfetch_step_fixed(st->step) ? 0
                                 : indexed ? (uint64_t)vfetch_run_vertex_index(p, pos)
                                           : pos;
            memcpy(to + i * sstride + lo, data + (size_t)(rec * st->stride) + lo, bytes);
        }
        base[s] = to;
        used += (size_t)span;
    }
    return 1;
}

/* Whole groups that can run in place: every window of every stream inside its binding. */
static size_t portable_safe_groups(const vfetch_plan *plan, const struct vfetch_record_prog *prog,
                                   const struct vfetch_run_params *p, size_t groups,
                                   const uint8_t **base)
{
    size_t safe = groups;
    for (unsigned i = 0; i < prog->num_streams_read; i++) {
        const unsigned s = prog->streams_read[i];
        const uint8_t *data = p->streams[s].data;
        /* first * stride <= the validated binding size for the streams read in place (stride
           0: one record for the run) */
        const uint64_t start = (uint64_t)p->first * plan->vertex_stride[s],
                       size = p->streams[s].size;
        if (start + prog->window_end[s] > size) {
            base[s] = data;
            safe = 0;
            continue;
        }
        base[s] = data + start;
        /* group g reads up to start + g*group*stride + window_end: a multiply tells whether
           all groups fit (the common case), a division how many do otherwise */
        const uint64_t step = prog->group_step[s], room = size - start - prog->window_end[s];
        if (safe && step && (uint64_t)(safe - 1) * step > room) {
            const uint64_t fit = room / step + 1;
            safe = fit < safe ? (size_t)fit : safe;
        }
    }
    return safe;
}

/* Bytes staging the whole run would copy per stream stay below this: a small draw whose last
   groups cannot run in place (their windows reach past the binding) is then staged whole (the
   in-place path copies such a draw's bytes to the stack: portable_past_end). */
#define PORTABLE_SMALL_SPAN VFETCH_RUN_SMALL_SPAN

static int portable_small_span(const struct vfetch_record_prog *prog, size_t groups)
{
    for (unsigned i = 0; i < prog->num_streams_read; i++) {
        const unsigned s = prog->streams_read[i];
        if ((uint64_t)groups * prog->group_step[s] + prog->window_end[s] > PORTABLE_SMALL_SPAN)
            return 0;
    }
    return 1;
}

/* Output bytes of the group a tail runs as (larger groups leave their tail to the per-op
   kernels). */
#define PORTABLE_TAIL_OUT_BYTES VFETCH_RUN_TAIL_OUT_BYTES

/* One group of fewer than a group's vertices (n of them), its sources at base: the program
   writes a stack copy of its output records, filled from the caller's first when some slot is
   kept (so that it stays as it was), and the n records are copied back to `to`. The caller
   checked that a group's records fit PORTABLE_TAIL_OUT_BYTES. */
static inline __attribute__((always_inline)) void
portable_group_through_stack(const vfetch_plan *plan, const struct vfetch_record_prog *prog,
                             vfetch_record_fn *record_run, const uint8_t *const *base, size_t n,
                             uint8_t *to)
{
    _Alignas(64) uint8_t out[PORTABLE_TAIL_OUT_BYTES];
    const size_t bytes = (n - 1) * plan->out_stride + plan->record_size;
    if (!prog->writes_all)
        memcpy(out, to, bytes);
    record_run(prog, base, 1, out);
    memcpy(to, out, bytes);
}

/*
 * The vertices after the last whole group, fewer than a group: run as one group through the
 * same program, from a staged copy of their records (zero past them) into a stack copy of
 * their output records, of which the bytes that belong to the draw are copied back (read
 * first, so that the slots the program keeps stay as they were). Returns 0 if the group does
 * not fit the stage or the stack (the per-op kernels then run the tail).
 */
static int portable_record_tail(const vfetch_plan *plan, const struct vfetch_record_prog *prog,
                                vfetch_record_fn *record_run, const struct vfetch_run_params *p,
                                size_t converted, uint8_t *stage, size_t stage_size)
{
    const size_t n = p->count - converted;
    if (prog->dst_step > PORTABLE_TAIL_OUT_BYTES)
        return 0;
    const uint8_t *base[VFETCH_MAX_STREAMS];
    if (!portable_stage_groups(plan, prog, p, p->first + (uint32_t)converted, 1, n, stage,
                               stage_size, base))
        return 0;
    portable_group_through_stack(plan, prog, record_run, base, n,
                                 (uint8_t *)p->out + converted * plan->out_stride);
    return 1;
}

/* The record-program path with program prog: groups in place where safe, through the stage
   where not; the vertices of a last partial group as one more group (portable_record_tail). */
static void portable_record_with(const vfetch_plan *plan, const struct vfetch_record_prog *prog,
                                 vfetch_record_fn *record_run, const struct vfetch_run_params *p,
                                 uint8_t *stage, size_t stage_size)
{
    const size_t group = prog->group;
    const size_t groups = p->count >> prog->group_shift;
    /* Set for the streams the program reads, the only ones it looks at. */
    const uint8_t *base[VFETCH_MAX_STREAMS];
    uint8_t *out = p->out;
    size_t done = 0; /* groups converted */

    int staged_run = 0;
    for (unsigned i = 0; i < prog->num_streams_read; i++) {
        const unsigned s = prog->streams_read[i];
        const struct vfetch_stream *st = &plan->desc.streams[s];
        /* Staged records keep the stream's stride (the program's offsets assume it), so
           records longer than their stride would overlap in the stage. */
        const int indexed = vfetch_run_through_indices(st, p);
        if (indexed && prog->record_hi[s] - prog->record_lo[s] > st->stride) {
            portable_per_op_range(plan, p, p->first, p->count, out, stage, stage_size);
            return;
        }
        staged_run |= indexed;
    }
    if (!staged_run) {
        done = portable_safe_groups(plan, prog, p, groups, base);
        if (done < groups && portable_small_span(prog, groups))
            done = 0; /* staged whole below: one short copy beats a second program pass */
        else
            record_run(prog, base, done, out);
    }
    /* The rest, a batch of groups at a time through the stage. */
    while (done < groups) {
        size_t batch = groups - done;
        const uint32_t first = p->first + (uint32_t)(done * group);
        while (batch && !portable_stage_groups(plan, prog, p, first, batch, batch * group, stage,
                                               stage_size, base))
            batch /= 2;
        if (!batch)
            break; /* one group does not fit the stage: per-op from here on */
        record_run(prog, base, batch, out + done * prog->dst_step);
        done += batch;
    }
    const size_t converted = done * group;
    if (converted == p->count)
        return;
    if (done == groups && plan->record_small && prog != plan->record_small &&
        (p->count - converted) % plan->record_small->group == 0) {
        /* Whole groups of the small program left: they run in place, where a tail group of
           this one is staged. Not when the small program would leave a tail of its own: two
           steps measured slower than one (docs/simd.md). */
        struct vfetch_run_params rest = *p;
        rest.first += (uint32_t)converted;
        rest.count -= (uint32_t)converted;
        rest.out = out + converted * plan->out_stride;
        rest.out_size -= converted * plan->out_stride;
        portable_record_with(plan, plan->record_small, plan->record_small_run, &rest, stage,
                             stage_size);
        return;
    }
    if (done == groups &&
        portable_record_tail(plan, prog, record_run, p, converted, stage, stage_size))
        return;
    portable_per_op_range(plan, p, p->first + (uint32_t)converted, p->count - converted,
                          out + converted * plan->out_stride, stage, stage_size);
}

/* The program a draw of `count` vertices runs, and its executor: a draw that fills at most one
   group of the plan's program runs its program for small draws when it has one (the 256-bit
   program of an AVX-512 plan: plan.c). */
static inline const struct vfetch_record_prog *
portable_program(const vfetch_plan *plan, uint32_t count, vfetch_record_fn **record_run)
{
    if (plan->record_small && count < 2u * plan->record->group) {
        *record_run = plan->record_small_run;
        return plan->record_small;
    }
    *record_run = plan->record_run;
    return plan->record;
}

static void portable_record(const vfetch_plan *plan, const struct vfetch_run_params *p,
                            uint8_t *stage, size_t stage_size)
{
    vfetch_record_fn *record_run;
    const struct vfetch_record_prog *prog = portable_program(plan, p->count, &record_run);
    portable_record_with(plan, prog, record_run, p, stage, stage_size);
}

/*
 * The in-place path (vfetch_execute's first resort for a draw in draw order): exactly what
 * portable_record_with does for such a draw, without its set-up; most real draws (four vertices of
 * a format whose groups are two or four) take it. Its bounds rule is portable_safe_groups' for all
 * groups at once; that function counts how many groups fit (with a division) where this path
 * only needs all or none and stops at the first stream that does not fit.
 *
 * The in-place path with program prog, for a draw of whole groups: 1 if every group ran in
 * place, 0 if some window passes a binding's end (nothing done).
 */
static inline __attribute__((always_inline)) int
portable_in_place_with(const vfetch_plan *plan, const struct vfetch_record_prog *prog,
                       vfetch_record_fn *record_run, const struct vfetch_binding *streams,
                       uint32_t first, uint32_t count, void *out)
{
    const size_t last = (count >> prog->group_shift) - 1;
    const uint8_t *base[VFETCH_MAX_STREAMS];
    for (unsigned i = 0; i < prog->num_streams_read; i++) {
        const unsigned s = prog->streams_read[i];
        /* Validation put every record of the draw inside the binding: first * stride and
           the last group's start stay below its size, so neither sum overflows. */
        const uint64_t start = (uint64_t)first * plan->vertex_stride[s];
        if (start + (uint64_t)last * prog->group_step[s] + prog->window_end[s] > streams[s].size)
            return 0;
        base[s] = (const uint8_t *)streams[s].data + start;
    }
    record_run(prog, base, last + 1, out);
    return 1;
}

/* Bytes the windows of `groups` groups read, over every stream the program reads. */
static inline uint64_t portable_windows_span(const struct vfetch_record_prog *prog, size_t groups)
{
    uint64_t spans = 0;
    for (unsigned i = 0; i < prog->num_streams_read; i++) {
        const unsigned s = prog->streams_read[i];
        spans += (uint64_t)(groups - 1) * prog->group_step[s] + prog->window_end[s];
    }
    return spans;
}

/* The bytes the windows of `groups` groups from draw position `first` read, stream after
   stream into copy (as far as each binding goes, zeros after: as staging does), and the
   program's sources over them. The caller checked portable_windows_span <= PORTABLE_SMALL_SPAN. */
static inline void portable_copy_windows(const vfetch_plan *plan,
                                         const struct vfetch_record_prog *prog,
                                         const struct vfetch_binding *streams, uint32_t first,
                                         size_t groups, uint8_t *copy, const uint8_t **base)
{
    size_t used = 0;
    for (unsigned i = 0; i < prog->num_streams_read; i++) {
        const unsigned s = prog->streams_read[i];
        /* validation put the draw's records inside the binding: first * stride < its size */
        const uint64_t start = (uint64_t)first * plan->vertex_stride[s];
        const uint64_t span = (uint64_t)(groups - 1) * prog->group_step[s] + prog->window_end[s];
        portable_copy_span(copy + used, &streams[s], (size_t)start, (size_t)span);
        base[s] = copy + used;
        used += (size_t)span;
    }
}

/*
 * A short draw of whole groups whose program's last windows pass a binding's end (a buffer that
 * ends at the draw's last vertex): its windows read at most PORTABLE_SMALL_SPAN bytes in all
 * (longer draws take the staged path, which runs every group that fits in place and stages the last
 * ones). First an AVX-512 plan's 256-bit program for small draws, whose smaller groups and
 * windows may fit in place. Else the bytes its windows read are copied to the stack (as far as
 * each binding goes, zeros after) and the program runs from there: the stage's copy without
 * its set-up. Out of line: the common case sets up none of it.
 */
static __attribute__((noinline)) int portable_past_end(const vfetch_plan *plan,
                                                       const struct vfetch_record_prog *prog,
                                                       vfetch_record_fn *record_run,
                                                       const struct vfetch_binding *streams,
                                                       uint32_t first, uint32_t count, void *out)
{
    const size_t groups = count >> prog->group_shift;
    if (portable_windows_span(prog, groups) > PORTABLE_SMALL_SPAN)
        return 0;
    const struct vfetch_record_prog *small = plan->record_small;
    if (small && small != prog && !(count & (small->group - 1)) &&
        portable_in_place_with(plan, small, plan->record_small_run, streams, first, count, out))
        return 1;
    _Alignas(64) uint8_t copy[PORTABLE_SMALL_SPAN];
    const uint8_t *base[VFETCH_MAX_STREAMS];
    portable_copy_windows(plan, prog, streams, first, groups, copy, base);
    record_run(prog, base, groups, out);
    return 1;
}

/*
 * The n < group vertices after a draw's whole groups (or a draw shorter than a group, most
 * real draws: four vertices), as one group: the bytes its windows read copied to the stack
 * (portable_past_end's copy, for one group), then portable_group_through_stack. Without the stage's
 * set-up. Returns 0 having done nothing when the group does not fit the stack copies.
 */
static __attribute__((noinline)) int portable_short_tail(const vfetch_plan *plan,
                                                         const struct vfetch_record_prog *prog,
                                                         vfetch_record_fn *record_run,
                                                         const struct vfetch_binding *streams,
                                                         uint32_t first, uint32_t n, uint8_t *out)
{
    if (prog->dst_step > PORTABLE_TAIL_OUT_BYTES ||
        portable_windows_span(prog, 1) > PORTABLE_SMALL_SPAN)
        return 0;
    _Alignas(64) uint8_t copy[PORTABLE_SMALL_SPAN];
    const uint8_t *base[VFETCH_MAX_STREAMS];
    portable_copy_windows(plan, prog, streams, first, 1, copy, base);
    portable_group_through_stack(plan, prog, record_run, base, n, out);
    return 1;
}

/* A draw in draw order by its program without a stage: 1 done, or 0 having written nothing
   or only records the staged path then writes again with the same bytes. */
static int portable_in_place(const vfetch_plan *plan, const struct vfetch_draw *src)
{
    const uint32_t count = src->count, first = src->first;
    vfetch_record_fn *record_run;
    const struct vfetch_record_prog *prog = portable_program(plan, count, &record_run);
    const uint32_t whole = count & ~(prog->group - 1), rest = count - whole;
    if (rest) {
        /* the tail first: if it cannot run here, nothing has been written (the caller then
           stages the whole draw) */
        if (!portable_short_tail(plan, prog, record_run, src->streams, first + whole, rest,
                                 (uint8_t *)src->out + (size_t)whole * plan->out_stride))
            return 0;
        if (!whole)
            return 1;
    }
    return portable_in_place_with(plan, prog, record_run, src->streams, first, whole, src->out) ||
           portable_past_end(plan, prog, record_run, src->streams, first, whole, src->out);
}

/* Through the stage (on the stack, or on the heap for a vertex whose staged records alone
   exceed it, allocated here so that an allocation failure comes before any write). Kept out
   of line so that the in-place path sets up no stack stage. */
static __attribute__((noinline)) int portable_staged(const vfetch_plan *plan,
                                                     const struct vfetch_draw *src)
{
    struct vfetch_run_params p =
        src->indexed ? *src->indexed : (struct vfetch_run_params){.index_type = VFETCH_INDEX_NONE};
    p.streams = src->streams;
    p.num_streams = plan->desc.num_streams;
    p.first = src->first;
    p.count = src->count;
    p.out = src->out;
    _Alignas(64) uint8_t stage_stack[PORTABLE_STAGE_BYTES];
    const uint64_t staged_bytes = src->indexed ? portable_staged_bytes(plan, &p) : 0;
    if (staged_bytes > SIZE_MAX)
        return VFETCH_ENOMEM;
    struct vfetch_stage stage;
    const int err =
        vfetch_stage_open(&stage, stage_stack, sizeof stage_stack, (size_t)staged_bytes);
    if (err)
        return err;
    if (plan->record)
        portable_record(plan, &p, stage.data, stage.size);
    else
        portable_per_op_range(plan, &p, p.first, p.count, p.out, stage.data, stage.size);
    vfetch_stage_close(&stage);
    return VFETCH_OK;
}

/* The portable tier: the record program in place, else through the stage (or per op). */
int vfetch_execute_portable(const vfetch_plan *plan, const struct vfetch_draw *src)
{
    if (!src->indexed && plan->record && portable_in_place(plan, src))
        return VFETCH_OK;
    if (src->in_place_only)
        return VFETCH_EXECUTE_DECLINED;
    return portable_staged(plan, src);
}
