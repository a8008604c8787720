/*
 * vfetch_run: every run error (and that nothing is written on error), and the run semantics:
 * index buffers, offset and clamp, steps, byte orders, swizzle constants, write masks, op
 * order, output gaps. Buffers sit against guard pages so that any stray access crashes.
 */
#include <stdlib.h>

#include "guard.h"
#include "testutil.h"
#include "vfetch/vfetch.h"

#define PATTERN 0xA5

/* One stream of `stride`-byte records: FIXED16 x2 UINT at 0 and 2 into slots 0..3, FIXED8 x1
   UINT at 4 into slots 4..7 (instanced: divisor 1). */
static void record_desc(struct vfetch_plan_desc *desc, enum vfetch_step step,
                        enum vfetch_byte_order order, uint32_t stride)
{
    struct vfetch_plan_desc d;
    vfetch_plan_desc_init(&d);
    d.num_streams = 1;
    d.streams[0].stride = stride;
    d.streams[0].divisor = step == VFETCH_STEP_INSTANCE;
    d.streams[0].step = step;
    d.streams[0].order = order;
    d.num_ops = 2;
    d.out_slots = 8;
    struct vfetch_op *a = &d.ops[0], *b = &d.ops[1];
    a->format = VFETCH_FORMAT_FIXED16;
    a->conversion = VFETCH_CONV_UINT;
    a->count = 2;
    a->src[1].offset = 2;
    b->format = VFETCH_FORMAT_FIXED8;
    b->conversion = VFETCH_CONV_UINT;
    b->count = 1;
    b->src[0].offset = 4;
    b->dst_slot = 4;
    for (unsigned c = 0; c < 4; c++)
        a->swizzle[c] = b->swizzle[c] = (uint8_t)c;
    a->write_mask = b->write_mask = 0xf;
    *desc = d;
}

static vfetch_plan *make_plan_strided(enum vfetch_step step, enum vfetch_byte_order order,
                                      uint32_t stride)
{
    struct vfetch_plan_desc d;
    record_desc(&d, step, order, stride);
    vfetch_plan *plan = NULL;
    if (vfetch_plan_compile(&d, &plan))
        abort();
    return plan;
}

static vfetch_plan *make_plan(enum vfetch_step step, enum vfetch_byte_order order)
{
    return make_plan_strided(step, order, 8);
}

/* Records whose fields encode the record number r: u16 r, u16 r + 1000, u8 r & 0xff. */
static uint8_t *make_records(unsigned n, size_t size, int at_head)
{
    uint8_t *p = at_head ? guard_alloc_head(size) : guard_alloc_tail(size);
    memset(p, 0, size);
    for (unsigned r = 0; r < n && (size_t)r * 8 + 5 <= size; r++) {
        const uint16_t x = (uint16_t)r, y = (uint16_t)(r + 1000);
        memcpy(p + 8 * r, &x, 2);
        memcpy(p + 8 * r + 2, &y, 2);
        p[8 * r + 4] = (uint8_t)r;
    }
    return p;
}

static void check_record(const float *out, unsigned r, int line)
{
    test_checks += 8;
    const float want[8] = { (float)r, (float)(r + 1000), 0, 1, (float)(r & 0xff), 0, 0, 1 };
    for (unsigned k = 0; k < 8; k++) {
        if (test_float_bits(out[k]) != test_float_bits(want[k])) {
            test_failures++;
            fprintf(stderr, "test_run.c:%d: record %u slot %u = %g, want %g\n", line, r, k,
                    (double)out[k], (double)want[k]);
            return;
        }
    }
}

static int untouched(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != PATTERN)
            return 0;
    return 1;
}

/* A run that must fail with `want` and leave the output untouched. */
static void expect_error(const vfetch_plan *plan, const struct vfetch_run_params *p, int want, int line)
{
    if (p->out)
        memset(p->out, PATTERN, p->out_size);
    const int got = vfetch_run(plan, p);
    test_checks += 2;
    if (got != want) {
        test_failures++;
        fprintf(stderr, "test_run.c:%d: vfetch_run = %d, want %d\n", line, got, want);
    }
    if (p->out && !untouched(p->out, p->out_size)) {
        test_failures++;
        fprintf(stderr, "test_run.c:%d: output written on error\n", line);
    }
}

static void test_errors(void)
{
    vfetch_plan *plan = make_plan(VFETCH_STEP_INDEXED, VFETCH_ORDER_LITTLE);
    const unsigned n = 10;
    uint8_t *src = make_records(n, 8 * (n - 1) + 5, 0); /* exactly what 10 records need */
    float *out = guard_alloc_tail(n * 32);
    struct vfetch_binding b = { src, 8 * (n - 1) + 5 };
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = &b;
    p.num_streams = 1;
    p.count = n;
    p.out = out;
    p.out_size = n * 32;

    CHECK_EQ(vfetch_run(plan, &p), VFETCH_OK); /* the exact sizes suffice */
    for (unsigned r = 0; r < n; r++)
        check_record(out + 8 * r, r, __LINE__);

    CHECK_EQ(vfetch_run(NULL, &p), VFETCH_EINVAL);
    CHECK_EQ(vfetch_run(plan, NULL), VFETCH_EINVAL);
    struct vfetch_run_params q = p;
    q.num_streams = 0;
    expect_error(plan, &q, VFETCH_EINVAL, __LINE__);
    q = p;
    q.streams = NULL;
    expect_error(plan, &q, VFETCH_EINVAL, __LINE__);
    q = p;
    q.index_type = (enum vfetch_index_type)3;
    expect_error(plan, &q, VFETCH_EINVAL, __LINE__);
    q = p;
    q.index_type = VFETCH_INDEX_U16; /* indices NULL */
    expect_error(plan, &q, VFETCH_EINVAL, __LINE__);
    q = p;
    q.out = NULL;
    CHECK_EQ(vfetch_run(plan, &q), VFETCH_EINVAL);

    struct vfetch_binding missing = { NULL, 1000 };
    q = p;
    q.streams = &missing;
    expect_error(plan, &q, VFETCH_EMISSING_STREAM, __LINE__);

    struct vfetch_binding short_src = { src + 1, 8 * (n - 1) + 4 }; /* one byte short */
    q = p;
    q.streams = &short_src;
    expect_error(plan, &q, VFETCH_ESHORT_STREAM, __LINE__);
    q = p;
    q.first = 1; /* the last record is one further */
    expect_error(plan, &q, VFETCH_ESHORT_STREAM, __LINE__);

    q = p;
    q.out = (uint8_t *)out + 1;
    q.out_size = n * 32 - 1; /* need 9 * 32 + 32 */
    expect_error(plan, &q, VFETCH_ESHORT_OUTPUT, __LINE__);

    q = p;
    q.first = UINT32_MAX;
    q.count = 2;
    expect_error(plan, &q, VFETCH_EOVERFLOW, __LINE__);

    uint16_t *idx = guard_alloc_tail(4 * sizeof(uint16_t));
    idx[0] = 9;
    idx[1] = 0;
    idx[2] = 10; /* one past the last record */
    idx[3] = 3;
    q = p;
    q.indices = idx;
    q.index_type = VFETCH_INDEX_U16;
    q.indices_size = 4 * sizeof(uint16_t);
    q.count = 4;
    expect_error(plan, &q, VFETCH_ESHORT_STREAM, __LINE__);
    q.max_index = 9; /* the clamp brings it back in */
    memset(out, PATTERN, n * 32);
    CHECK_EQ(vfetch_run(plan, &q), VFETCH_OK);
    check_record(out + 0, 9, __LINE__);
    check_record(out + 8, 0, __LINE__);
    check_record(out + 16, 9, __LINE__);
    check_record(out + 24, 3, __LINE__);
    q.max_index = UINT32_MAX;
    q.index_offset = -1; /* 0 - 1 < 0 */
    expect_error(plan, &q, VFETCH_EINDEX_RANGE, __LINE__);
    q.index_offset = 0;
    q.count = 5; /* a fifth entry is past indices_size */
    expect_error(plan, &q, VFETCH_ESHORT_INDICES, __LINE__);
    q.count = 3;
    q.first = 2; /* entries 2..4: entry 4 is past the end */
    expect_error(plan, &q, VFETCH_ESHORT_INDICES, __LINE__);

    /* An instanced record (base_instance + instance / divisor, up to 2^33 - 2) times a stride
       past 2^64: an overflow, not the wrapped product (which once read record bytes from
       offset 65536 of this binding and returned 0). */
    {
        vfetch_plan *inst = make_plan_strided(VFETCH_STEP_INSTANCE, VFETCH_ORDER_LITTLE,
                                              4294901761u);
        uint8_t *big = make_records(1, 65540, 0);
        struct vfetch_binding bb = { big, 65540 };
        q = p;
        q.streams = &bb;
        q.count = 1;
        q.base_instance = 0xFFFFFFFFu;
        q.instance = 65537;
        expect_error(inst, &q, VFETCH_EOVERFLOW, __LINE__);
        q.base_instance = 1; /* record 65538: past the binding, no overflow on 64 bits */
        expect_error(inst, &q, sizeof(size_t) == 8 ? VFETCH_ESHORT_STREAM : VFETCH_EOVERFLOW,
                     __LINE__);
        guard_free(big);
        vfetch_plan_free(inst);
    }

    /* count 0 writes nothing and needs no buffers */
    q = p;
    q.count = 0;
    q.out = NULL;
    q.out_size = 0;
    CHECK_EQ(vfetch_run(plan, &q), VFETCH_OK);

    guard_free(idx);
    guard_free(src);
    guard_free(out);
    vfetch_plan_free(plan);
}

static void test_indices_and_steps(void)
{
    const unsigned n = 300;
    uint8_t *src = make_records(n, 8 * n, 1);
    struct vfetch_binding b = { src, 8 * n };
    float *out = guard_alloc_tail(70 * 32);
    uint32_t *idx32 = malloc(70 * 4);
    uint16_t *idx16 = malloc(70 * 2);
    for (unsigned i = 0; i < 70; i++) {
        idx32[i] = (i * 37u) % 250;
        idx16[i] = (uint16_t)idx32[i];
    }
    for (int step = 0; step < 3; step++) {
        vfetch_plan *plan = make_plan((enum vfetch_step)step, VFETCH_ORDER_LITTLE);
        for (int it = 0; it < 3; it++) {
            struct vfetch_run_params p;
            vfetch_run_params_init(&p);
            p.streams = &b;
            p.num_streams = 1;
            p.first = 3;
            p.count = 67;
            p.out = out;
            p.out_size = 70 * 32;
            if (it == 1) {
                p.indices = idx32;
                p.index_type = VFETCH_INDEX_U32;
                p.indices_size = 70 * 4;
                p.index_offset = 40;
                p.max_index = 260;
            } else if (it == 2) {
                p.indices = idx16;
                p.index_type = VFETCH_INDEX_U16;
                p.indices_size = 70 * 2;
            }
            memset(out, PATTERN, 70 * 32);
            CHECK_EQ(vfetch_run(plan, &p), VFETCH_OK);
            for (unsigned i = 0; i < p.count; i++) {
                const unsigned pos = p.first + i;
                unsigned rec = pos;
                if (step == VFETCH_STEP_CONSTANT)
                    rec = 0;
                else if (step == VFETCH_STEP_INDEXED && it == 1)
                    rec = idx32[pos] + 40 > 260 ? 260 : idx32[pos] + 40;
                else if (step == VFETCH_STEP_INDEXED && it == 2)
                    rec = idx16[pos];
                check_record(out + 8 * i, rec, __LINE__);
            }
            CHECK(untouched((uint8_t *)(out + 8 * 67), 3 * 32));
        }
        vfetch_plan_free(plan);
    }
    free(idx32);
    free(idx16);
    guard_free(src);
    guard_free(out);
}

/* A run of `count` records from position `first` of the one-stream binding b, through an
   index buffer of `bytes`-byte entries (idx, idx_size bytes), into out. */
static struct vfetch_run_params indexed_run(const struct vfetch_binding *b, float *out,
                                            size_t out_size, const uint8_t *idx, unsigned bytes,
                                            size_t idx_size, uint32_t first, uint32_t count)
{
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = b;
    p.num_streams = 1;
    p.first = first;
    p.count = count;
    p.out = out;
    p.out_size = out_size;
    p.indices = idx;
    p.index_type = bytes == 4 ? VFETCH_INDEX_U32 : VFETCH_INDEX_U16;
    p.indices_size = idx_size;
    return p;
}

/*
 * A run through an index buffer is validated on its lowest and highest entries (the level's
 * scan): whichever position holds the one entry past the stream, or the one whose sum with a
 * negative offset is below 0, the run fails, at every count 1..70 and with the draw starting
 * anywhere in the buffer (entries up to its guarded end, 16- and 32-bit); with the entry back
 * in range it converts.
 */
static void test_index_extremes(void)
{
    const unsigned n = 40;
    uint8_t *src = make_records(n, 8 * n, 1);
    struct vfetch_binding b = { src, 8 * n };
    float *out = guard_alloc_tail(70 * 32);
    vfetch_plan *plan = make_plan(VFETCH_STEP_INDEXED, VFETCH_ORDER_LITTLE);
    for (unsigned wide = 0; wide < 2; wide++) {
        const unsigned bytes = wide ? 4 : 2;
        for (unsigned count = 1; count <= 70; count++) {
            /* the draw's entries end at the buffer's guarded end, after `first` others */
            const unsigned first = count % 5;
            uint8_t *idx = guard_alloc_tail((first + count) * bytes);
            for (unsigned pos = 0; pos < count; pos++) {
                for (unsigned k = 0; k < first + count; k++) {
                    /* 1..39 elsewhere; the entries before the draw out of range, unread */
                    const uint32_t e = k < first ? 1000 : 1 + (k * 7) % 39;
                    memcpy(idx + k * bytes, &e, bytes); /* little-endian host */
                }
                struct vfetch_run_params p = indexed_run(&b, out, 70 * 32, idx, bytes,
                                                         (first + count) * bytes, first, count);
                uint8_t *at = idx + (first + pos) * bytes;
                const uint32_t past = n, zero = 0;
                memcpy(at, &past, bytes);
                expect_error(plan, &p, VFETCH_ESHORT_STREAM, __LINE__);
                memcpy(at, &zero, bytes);
                p.index_offset = -1;
                expect_error(plan, &p, VFETCH_EINDEX_RANGE, __LINE__);
                p.index_offset = 0;
                CHECK_EQ(vfetch_run(plan, &p), VFETCH_OK);
                check_record(out + 8 * pos, 0, __LINE__);
            }
            guard_free(idx);
        }
    }
    vfetch_plan_free(plan);
    guard_free(src);
    guard_free(out);
}

/*
 * Index offsets at their edges, through 16- and 32-bit entries: negative (every entry still
 * at least its magnitude), one that takes entries exactly to max_index, one past it (clamped),
 * and INT64_MAX (every record max_index: entry + offset must not overflow). Each record as
 * vfetch_run's rule gives it: min(entry + offset, max_index).
 */
static void test_index_offsets(void)
{
    const unsigned n = 64;
    uint8_t *src = make_records(n, 8 * n, 1);
    struct vfetch_binding b = { src, 8 * n };
    float *out = guard_alloc_tail(40 * 32);
    vfetch_plan *plan = make_plan(VFETCH_STEP_INDEXED, VFETCH_ORDER_LITTLE);
    static const int64_t offsets[] = { -5, -1, 0, 13, 14, 15, 1000, INT64_MAX };
    for (unsigned wide = 0; wide < 2; wide++) {
        const unsigned bytes = wide ? 4 : 2;
        uint8_t *idx = guard_alloc_tail(40 * bytes);
        for (unsigned k = 0; k < 40; k++) {
            const uint32_t e = 5 + (k * 11) % 45; /* 5..49 */
            memcpy(idx + k * bytes, &e, bytes);
        }
        for (unsigned o = 0; o < sizeof offsets / sizeof offsets[0]; o++)
            for (unsigned count = 1; count <= 40; count += 13) {
                struct vfetch_run_params p =
                    indexed_run(&b, out, 40 * 32, idx, bytes, 40 * bytes, 0, count);
                p.index_offset = offsets[o];
                p.max_index = 63; /* 49 + 14 = 63: offset 14 reaches it, 15 passes it */
                memset(out, PATTERN, 40 * 32);
                CHECK_EQ(vfetch_run(plan, &p), VFETCH_OK);
                for (unsigned k = 0; k < count; k++) {
                    uint32_t e = 0;
                    memcpy(&e, idx + k * bytes, bytes);
                    const int64_t sum = offsets[o] > 63 - (int64_t)e ? 63 : e + offsets[o];
                    check_record(out + 8 * k, (unsigned)sum, __LINE__);
                }
            }
        guard_free(idx);
    }
    vfetch_plan_free(plan);
    guard_free(src);
    guard_free(out);
}

/*
 * Two streams through an index buffer (vfetch_run's generated-code way for several streams):
 * the first indexed, the second indexed, sequential or constant, each binding ending at a
 * guard page exactly where the draw's last record (the highest entry's, the last vertex's, the
 * one record) ends. Every count 1..40, 16- and 32-bit entries, offsets 0, -2 and +3 (clamped
 * to the last record): the records as the steps name them; an entry one past the streams,
 * either binding a byte short, the second unbound: the error, nothing written.
 */
static void test_index_streams(void)
{
    const unsigned n = 48;
    static const enum vfetch_step steps[3] = { VFETCH_STEP_INDEXED, VFETCH_STEP_SEQUENTIAL,
                                               VFETCH_STEP_CONSTANT };
    float *out = guard_alloc_tail(40 * 32);
    for (unsigned st = 0; st < 3; st++) {
        struct vfetch_plan_desc d; /* the records' byte 4 from the second stream */
        record_desc(&d, VFETCH_STEP_INDEXED, VFETCH_ORDER_LITTLE, 8);
        d.num_streams = 2;
        d.streams[1].stride = 8;
        d.streams[1].step = steps[st];
        d.ops[1].src[0].stream = 1;
        vfetch_plan *plan;
        CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
        for (unsigned wide = 0; wide < 2; wide++) {
            const unsigned bytes = wide ? 4 : 2;
            for (unsigned count = 1; count <= 40; count++) {
                /* the highest entry names record n - 1; the second stream holds up to the
                   record its step reads last */
                const unsigned last1 = steps[st] == VFETCH_STEP_INDEXED      ? n - 1
                                       : steps[st] == VFETCH_STEP_SEQUENTIAL ? count - 1
                                                                             : 0;
                uint8_t *s0 = guard_alloc_tail(8 * (n - 1) + 4); /* the first op's 4 bytes */
                for (unsigned r = 0; r < n; r++) {
                    const uint16_t x = (uint16_t)r, y = (uint16_t)(r + 1000);
                    memcpy(s0 + 8 * r, &x, 2);
                    memcpy(s0 + 8 * r + 2, &y, 2);
                }
                uint8_t *s1 = make_records(last1 + 1, 8 * last1 + 5, 0); /* the second's byte 4 */
                struct vfetch_binding b[2] = { { s0, 8 * (n - 1) + 4 }, { s1, 8 * last1 + 5 } };
                uint8_t *idx = guard_alloc_tail(count * bytes);
                for (unsigned k = 0; k < count; k++) {
                    const uint32_t e = k == count / 2 ? n - 1 : 2 + (k * 13) % (n - 2);
                    memcpy(idx + k * bytes, &e, bytes);
                }
                struct vfetch_run_params p =
                    indexed_run(b, out, 40 * 32, idx, bytes, count * bytes, 0, count);
                p.num_streams = 2;
                /* no offset; -2 (every record below max_index: the plain way); +3 clamped at
                   n - 1 (the top entries' records clamped) */
                static const int64_t offsets[3] = { 0, -2, 3 };
                for (unsigned o = 0; o < 3; o++) {
                    p.index_offset = offsets[o];
                    p.max_index = o == 2 ? n - 1 : UINT32_MAX;
                    memset(out, PATTERN, 40 * 32);
                    CHECK_EQ(vfetch_run(plan, &p), VFETCH_OK);
                    for (unsigned k = 0; k < count; k++) {
                        uint32_t e = 0;
                        memcpy(&e, idx + k * bytes, bytes);
                        const int64_t sum = (int64_t)e + offsets[o];
                        const unsigned r = sum > (int64_t)(n - 1) ? n - 1 : (unsigned)sum;
                        const unsigned r1 = steps[st] == VFETCH_STEP_INDEXED      ? r
                                            : steps[st] == VFETCH_STEP_SEQUENTIAL ? k
                                                                                  : 0;
                        const float want[8] = { (float)r, (float)(r + 1000), 0, 1, (float)r1,
                                                0, 0, 1 };
                        for (unsigned c = 0; c < 8; c++)
                            CHECK_EQ(test_float_bits(out[8 * k + c]), test_float_bits(want[c]));
                    }
                    CHECK(untouched((uint8_t *)(out + 8 * count), (40 - count) * 32));
                }
                p.index_offset = 0;
                p.max_index = UINT32_MAX;
                const uint32_t past = n, top = n - 1;
                memcpy(idx + count / 2 * bytes, &past, bytes);
                expect_error(plan, &p, VFETCH_ESHORT_STREAM, __LINE__);
                memcpy(idx + count / 2 * bytes, &top, bytes);
                b[0].size--;
                expect_error(plan, &p, VFETCH_ESHORT_STREAM, __LINE__);
                b[0].size++;
                b[1].size--;
                expect_error(plan, &p, VFETCH_ESHORT_STREAM, __LINE__);
                b[1].size++;
                b[1].data = NULL;
                expect_error(plan, &p, VFETCH_EMISSING_STREAM, __LINE__);
                guard_free(idx);
                guard_free(s1);
                guard_free(s0);
            }
        }
        vfetch_plan_free(plan);
    }
    guard_free(out);
}

/*
 * A stream that holds every record the index type can name (65,536 records through 16-bit
 * entries; through 32-bit ones max_index's, 65,535, every larger entry clamped to it): the run
 * needs no scan of its entries (vfetch_run's generated way skips it); the stream a byte short of
 * that record: scanned. Entries from 0 to the largest, each record as the rule gives it; in the
 * short stream an entry naming its missing record refused, nothing written.
 */
static void test_index_bound(void)
{
    const unsigned n = 65536, count = 300;
    const size_t size = 8 * (size_t)(n - 1) + 5; /* the last record's 5 bytes */
    uint8_t *src = make_records(n, size, 0);
    float *out = guard_alloc_tail(count * 32);
    vfetch_plan *plan = make_plan(VFETCH_STEP_INDEXED, VFETCH_ORDER_LITTLE);
    for (unsigned wide = 0; wide < 2; wide++) {
        const unsigned bytes = wide ? 4 : 2;
        uint8_t *idx = guard_alloc_tail(count * bytes);
        for (unsigned cut = 0; cut < 2; cut++) {
            for (unsigned k = 0; k < count; k++) {
                uint32_t e = (uint32_t)(k * 2654435761u) % n;
                e = k == 0 ? 0 : k == 1 ? n - 1 - cut : k == 2 && wide && !cut ? 100000 : e;
                e = cut && e == n - 1 ? n - 2 : e;
                memcpy(idx + k * bytes, &e, bytes);
            }
            struct vfetch_binding b = { src, size - cut };
            struct vfetch_run_params p =
                indexed_run(&b, out, count * 32, idx, bytes, count * bytes, 0, count);
            p.max_index = wide ? n - 1 : UINT32_MAX;
            memset(out, PATTERN, count * 32);
            CHECK_EQ(vfetch_run(plan, &p), VFETCH_OK);
            for (unsigned k = 0; k < count; k++) {
                uint32_t e = 0;
                memcpy(&e, idx + k * bytes, bytes);
                const uint32_t r = e > n - 1 ? n - 1 : e;
                const float want[8] = { (float)(uint16_t)r, (float)(uint16_t)(r + 1000), 0, 1,
                                        (float)(r & 0xff), 0, 0, 1 };
                for (unsigned c = 0; c < 8; c++)
                    CHECK_EQ(test_float_bits(out[8 * k + c]), test_float_bits(want[c]));
            }
            if (cut) {
                const uint32_t top = n - 1;
                memcpy(idx + (count / 2) * bytes, &top, bytes);
                expect_error(plan, &p, VFETCH_ESHORT_STREAM, __LINE__);
            }
        }
        guard_free(idx);
    }
    vfetch_plan_free(plan);
    guard_free(src);
    guard_free(out);
}

/* The byte orders on FIXED16 and FLOAT32 (32-bit value 0x11223344 stored as 44 33 22 11). */
static void test_byte_orders(void)
{
    static const uint8_t bytes[8] = { 0x44, 0x33, 0x22, 0x11, 0x88, 0x77, 0x66, 0x55 };
    /* logical dword 0 after each swap, read little-endian; halves 0 and 1 as u16 */
    static const uint32_t dword0[5] = { 0x11223344, 0x22114433, 0x44332211, 0x33441122, 0 };
    for (int order = 0; order < 5; order++) {
        struct vfetch_plan_desc d;
        vfetch_plan_desc_init(&d);
        d.num_streams = 1;
        d.streams[0].stride = 8;
        d.streams[0].order = (enum vfetch_byte_order)order;
        d.num_ops = 2;
        d.out_slots = 8;
        d.ops[0].format = VFETCH_FORMAT_FIXED16;
        d.ops[0].conversion = VFETCH_CONV_UINT;
        d.ops[0].count = 2;
        d.ops[0].src[1].offset = 2;
        d.ops[1].format = VFETCH_FORMAT_FLOAT32;
        d.ops[1].conversion = VFETCH_CONV_FLOAT;
        d.ops[1].count = 1;
        d.ops[1].dst_slot = 4;
        for (unsigned c = 0; c < 4; c++)
            d.ops[0].swizzle[c] = d.ops[1].swizzle[c] = (uint8_t)c;
        d.ops[0].write_mask = d.ops[1].write_mask = 0xf;
        vfetch_plan *plan;
        CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
        uint8_t *src = guard_alloc_tail(8);
        memcpy(src, bytes, 8);
        uint32_t *out = guard_alloc_head(32);
        struct vfetch_binding b = { src, 8 };
        struct vfetch_run_params p;
        vfetch_run_params_init(&p);
        p.streams = &b;
        p.num_streams = 1;
        p.count = 1;
        p.out = out;
        p.out_size = 32;
        CHECK_EQ(vfetch_run(plan, &p), VFETCH_OK);
        uint32_t want = dword0[order];
        uint16_t h0 = (uint16_t)want, h1 = (uint16_t)(want >> 16);
        if (order == VFETCH_ORDER_BIG_ENDIAN) { /* each container big-endian in place */
            want = 0x44332211;
            h0 = 0x4433;
            h1 = 0x2211;
        }
        CHECK_FLOAT(test_bits_float(out[0]), (float)h0);
        CHECK_FLOAT(test_bits_float(out[1]), (float)h1);
        CHECK_EQ(out[4], want);
        guard_free(src);
        guard_free(out);
        vfetch_plan_free(plan);
    }
}

/* Swizzle constants, write masks, op order, output gaps. */
static void test_output_rules(void)
{
    struct vfetch_plan_desc d;
    vfetch_plan_desc_init(&d);
    d.num_streams = 1;
    d.streams[0].stride = 4;
    d.num_ops = 2;
    d.out_slots = 6;
    d.out_stride = 32; /* 8 gap bytes per record */
    struct vfetch_op *a = &d.ops[0], *b = &d.ops[1];
    a->format = VFETCH_FORMAT_FIXED8;
    a->conversion = VFETCH_CONV_UINT;
    a->count = 2; /* x = byte 0, y = byte 1 */
    a->src[1].offset = 1;
    a->swizzle[0] = VFETCH_SWIZZLE_Y;
    a->swizzle[1] = VFETCH_SWIZZLE_0;
    a->swizzle[2] = VFETCH_SWIZZLE_1;
    a->swizzle[3] = VFETCH_SWIZZLE_Z; /* missing z = 0 */
    a->write_mask = 0xb;              /* x, y, w: slot 2 untouched */
    b->format = VFETCH_FORMAT_FIXED8;
    b->conversion = VFETCH_CONV_UINT;
    b->count = 1;
    b->src[0].offset = 3;
    b->swizzle[0] = VFETCH_SWIZZLE_X;
    b->swizzle[1] = VFETCH_SWIZZLE_W; /* missing w = 1 */
    b->write_mask = 0x3;
    b->dst_slot = 3; /* overwrites a's w (slot 3), writes slot 4; slot 5 untouched */
    for (int path = 0; path < 2; path++) {
        d.path = (enum vfetch_path)path;
        vfetch_plan *plan;
        CHECK_EQ(vfetch_plan_compile(&d, &plan), VFETCH_OK);
        uint8_t *src = guard_alloc_tail(4 * 5);
        for (unsigned i = 0; i < 20; i++)
            src[i] = (uint8_t)(i + 1);
        const size_t out_size = 4 * 32 + 24;
        uint8_t *out = guard_alloc_tail(out_size);
        memset(out, PATTERN, out_size);
        struct vfetch_binding bd = { src, 20 };
        struct vfetch_run_params p;
        vfetch_run_params_init(&p);
        p.streams = &bd;
        p.num_streams = 1;
        p.count = 5;
        p.out = out;
        p.out_size = out_size;
        CHECK_EQ(vfetch_run(plan, &p), VFETCH_OK);
        for (unsigned v = 0; v < 5; v++) {
            const uint8_t *rec = out + 32 * v;
            float f[6];
            memcpy(f, rec, 24);
            CHECK_FLOAT(f[0], (float)(4 * v + 2)); /* y */
            CHECK_FLOAT(f[1], 0.0f);
            CHECK(untouched(rec + 8, 4));
            CHECK_FLOAT(f[3], (float)(4 * v + 4)); /* b's x replaced a's w */
            CHECK_FLOAT(f[4], 1.0f);
            CHECK(untouched(rec + 20, 4));
            if (v < 4)
                CHECK(untouched(rec + 24, 8)); /* the gap */
        }
        guard_free(src);
        guard_free(out);
        vfetch_plan_free(plan);
    }
}

/*
 * Records longer than their stride (each vertex reads 8 bytes, records 4 bytes apart: vertex
 * i's second dword is vertex i+1's first) through an index buffer: each vertex must see its own
 * 8 bytes, on every path. Regression: the record program's stage once laid staged
 * records at the stream stride, so a later record overwrote the tail of the one before.
 */
static void test_overlapping_records(void)
{
    struct vfetch_plan_desc d;
    vfetch_plan_desc_init(&d);
    d.num_streams = 1;
    d.streams[0].stride = 4;
    d.num_ops = 1;
    d.out_slots = 4;
    struct vfetch_op *op = &d.ops[0];
    op->format = VFETCH_FORMAT_FIXED16;
    op->conversion = VFETCH_CONV_UINT;
    op->count = 4;
    for (unsigned c = 0; c < 4; c++) {
        op->src[c].offset = 2 * c;
        op->swizzle[c] = (uint8_t)c;
    }
    op->write_mask = 0xf;
    vfetch_plan *plan = NULL;
    CHECK_EQ(vfetch_plan_compile(&d, &plan), 0);

    /* 40 u16 values 0..39: record r holds r*2, r*2+1, r*2+2, r*2+3. */
    enum { VALUES = 40, COUNT = 32 };
    uint8_t *data = guard_alloc_tail(2 * VALUES);
    for (uint16_t v = 0; v < VALUES; v++)
        memcpy(data + 2 * v, &v, 2);
    uint32_t *idx = guard_alloc_tail(4 * COUNT);
    for (unsigned i = 0; i < COUNT; i++)
        idx[i] = (i * 7) % 19; /* max 18: reads up to byte 18*4 + 8 = 80 */
    float *out = guard_alloc_tail(16 * COUNT);
    struct vfetch_binding b = { data, 2 * VALUES };
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = &b;
    p.num_streams = 1;
    p.count = COUNT;
    p.indices = idx;
    p.index_type = VFETCH_INDEX_U32;
    p.indices_size = 4 * COUNT;
    p.out = out;
    p.out_size = 16 * COUNT;
    CHECK_EQ(vfetch_run(plan, &p), 0);
    for (unsigned i = 0; i < COUNT; i++)
        for (unsigned c = 0; c < 4; c++)
            CHECK_FLOAT(out[4 * i + c], (float)(2 * idx[i] + c));
    guard_free(data);
    guard_free(idx);
    guard_free(out);
    vfetch_plan_free(plan);
}

int main(void)
{
    vfetch_run_params_init(NULL); /* harmless */
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    CHECK_EQ(p.max_index, UINT32_MAX);
    CHECK_EQ(p.index_type, VFETCH_INDEX_NONE);
    test_errors();
    test_indices_and_steps();
    test_index_extremes();
    test_index_offsets();
    test_index_streams();
    test_index_bound();
    test_byte_orders();
    test_output_rules();
    test_overlapping_records();
    return test_summary("run");
}
