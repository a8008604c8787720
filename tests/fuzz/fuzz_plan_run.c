/* Plans three ways and one checked run (see fuzz_plan_run.h). */
#include "fuzz_plan_run.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_run_model.h"

/* Largest buffer one execution allocates: sizes above it are refused by the library (the
   model says so), they are never lied about. */
#define FUZZ_MAX_BUFFER ((size_t)1 << 20)

/* A value no plan pointer can have: out-pointers must still hold it after a failed call. */
static char fuzz_untouched_marker;
#define FUZZ_UNTOUCHED ((vfetch_plan *)(void *)&fuzz_untouched_marker)

static int plan_compile_checked(const struct vfetch_plan_desc *desc, vfetch_plan **out)
{
    vfetch_plan *plan = FUZZ_UNTOUCHED;
    const int err = vfetch_plan_compile(desc, &plan);
    FUZZ_REQUIRE(err <= 0 && err > VFETCH_ECOUNT, "vfetch_plan_compile returned %d", err);
    if (err)
        FUZZ_REQUIRE(plan == FUZZ_UNTOUCHED, "vfetch_plan_compile failed (%d) but set *out_plan", err);
    else
        FUZZ_REQUIRE(plan && plan != FUZZ_UNTOUCHED, "vfetch_plan_compile succeeded without a plan");
    *out = err ? NULL : plan;
    return err;
}

/* describe: snprintf semantics at every buffer size. */
static void check_describe(const vfetch_plan *plan, size_t small)
{
    const size_t len = vfetch_plan_describe(plan, NULL, 0);
    char *full = malloc(len + 1);
    FUZZ_REQUIRE(full, "out of memory");
    FUZZ_REQUIRE(vfetch_plan_describe(plan, full, len + 1) == len, "describe length changed");
    FUZZ_REQUIRE(full[len] == '\0' && strlen(full) == len, "describe text not %zu chars", len);
    const size_t size = small % (len + 1) + 1; /* 1..len+1 */
    char *part = malloc(size + 1);
    FUZZ_REQUIRE(part, "out of memory");
    part[size] = 'X';
    FUZZ_REQUIRE(vfetch_plan_describe(plan, part, size) == len, "describe length at size %zu", size);
    FUZZ_REQUIRE(part[size - 1] == '\0' && memcmp(part, full, size - 1) == 0 && part[size] == 'X',
                 "describe into %zu bytes is not the truncated text", size);
    free(part);
    free(full);
}

/* What a created plan reports, against its description. */
static void check_plan_facts(const struct fuzz_plan_set *set)
{
    const struct vfetch_plan_desc *d = set->desc;
    for (unsigned s = 0; s < VFETCH_MAX_STREAMS; s++) {
        const uint32_t want = s < d->num_streams ? fuzz_model_extent(d, s) : 0;
        FUZZ_REQUIRE(vfetch_plan_stream_extent(set->test, s) == want,
                     "stream %u extent %u, model %u", s, vfetch_plan_stream_extent(set->test, s), want);
    }
    FUZZ_REQUIRE(vfetch_plan_record_size(set->test) == d->out_slots * 4, "record size");
    FUZZ_REQUIRE(vfetch_plan_out_stride(set->test) == fuzz_model_out_stride(d), "out stride");
    for (unsigned l = 0; l < VFETCH_MAX_LOCATIONS + 2; l++) {
        const int slot = l < VFETCH_MAX_LOCATIONS ? d->location_slot[l] : -1;
        const int want = slot >= 0 && (uint32_t)slot < d->out_slots ? slot : -1;
        FUZZ_REQUIRE(vfetch_plan_location(set->test, l) == want, "location %u: %d, want %d", l,
                     vfetch_plan_location(set->test, l), want);
    }
    /* The level does not change the description: equal plans, equal hashes. */
    FUZZ_REQUIRE(vfetch_plan_equal(set->test, set->ref) && vfetch_plan_equal(set->ref, set->test),
                 "plans of one description at two levels are not equal");
    FUZZ_REQUIRE(vfetch_plan_hash(set->test) == vfetch_plan_hash(set->ref), "hash depends on level");
    FUZZ_REQUIRE(!vfetch_plan_equal(set->test, set->per_op) || d->path == VFETCH_PATH_PER_OP,
                 "plans of different paths compare equal");
    const struct vfetch_plan_desc *n = vfetch_plan_get_desc(set->test);
    FUZZ_REQUIRE(n && n->num_ops == d->num_ops && n->num_streams == d->num_streams &&
                     n->out_slots == d->out_slots && n->out_stride == fuzz_model_out_stride(d),
                 "normalised description lost a field");
}

int fuzz_plan_set_create(struct fuzz_plan_set *set, const struct vfetch_plan_desc *desc,
                         unsigned level_mask)
{
    memset(set, 0, sizeof *set);
    set->desc = desc;
    fuzz_use_levels(level_mask);
    const int err = plan_compile_checked(desc, &set->test);
    fuzz_use_levels(0);
    const int ref_err = plan_compile_checked(desc, &set->ref);
    fuzz_use_best_levels();
    FUZZ_REQUIRE(err == ref_err, "plan creation depends on the level: %d vs %d", err, ref_err);
    if (err)
        return err;
    struct vfetch_plan_desc per_op = *desc;
    per_op.path = VFETCH_PATH_PER_OP;
    fuzz_use_levels(level_mask);
    const int per_op_err = plan_compile_checked(&per_op, &set->per_op);
    fuzz_use_best_levels();
    FUZZ_REQUIRE(per_op_err == 0, "the per-op path refuses a valid description (%d)", per_op_err);
    check_plan_facts(set);
    check_describe(set->test, (size_t)desc->num_ops * 7 + desc->out_slots);
    return 0;
}

void fuzz_plan_set_free(struct fuzz_plan_set *set)
{
    vfetch_plan_free(set->test);
    vfetch_plan_free(set->ref);
    vfetch_plan_free(set->per_op);
    memset(set, 0, sizeof *set);
}

/* A size near what the model needs: need + delta, within [0, FUZZ_MAX_BUFFER]. */
static size_t size_near(uint64_t need, int delta)
{
    if (need > FUZZ_MAX_BUFFER)
        return FUZZ_MAX_BUFFER;
    const int64_t s = (int64_t)need + delta;
    if (s < 0)
        return 0;
    return s > (int64_t)FUZZ_MAX_BUFFER ? FUZZ_MAX_BUFFER : (size_t)s;
}

/* The index offset, from a few families that reach every rule (negative sums, clamps,
   saturation near INT64_MAX). */
static int64_t read_index_offset(struct fuzz_input *in)
{
    const unsigned mode = fuzz_below(in, 8);
    const uint64_t v = fuzz_u64(in);
    switch (mode) {
    case 1: return (int8_t)v;
    case 2: return (int32_t)v;
    case 3: return INT64_MAX - (int64_t)(v & 0xff);
    case 4: return INT64_MIN + (int64_t)(v & 0xff);
    case 5: return -(int64_t)(uint32_t)v;
    case 6: return (int64_t)v;
    default: return 0;
    }
}

static uint32_t read_max_index(struct fuzz_input *in)
{
    const unsigned mode = fuzz_below(in, 4);
    const uint32_t v = fuzz_u32(in);
    return mode == 1 ? (v & 0xff) : mode == 2 ? (v & 0xffff) : mode == 3 ? v : UINT32_MAX;
}

/* Fill index entries [first, first + count) that lie within the buffer. */
static void fill_indices(struct fuzz_input *in, struct fuzz_rng *rng, uint8_t *buf, size_t size,
                         unsigned width, uint32_t first, uint32_t count, unsigned mode,
                         uint32_t range)
{
    const uint64_t from = (uint64_t)first * width;
    if (from >= size)
        return;
    const uint64_t to64 = ((uint64_t)first + count) * width;
    const size_t to = to64 < size ? (size_t)to64 : (size_t)from + (size - (size_t)from) / width * width;
    if (mode == 3) { /* the fuzzer's own bytes */
        fuzz_fill(in, rng, buf + from, to - (size_t)from);
        return;
    }
    uint32_t i = 0;
    for (size_t at = (size_t)from; at + width <= to; at += width, i++) {
        const uint32_t r = fuzz_rng_next(rng);
        const uint32_t v = mode == 0 ? r % (range + 1u) : mode == 1 ? r : range + i;
        if (width == 2) {
            const uint16_t v16 = (uint16_t)v;
            memcpy(buf + at, &v16, 2);
        } else {
            memcpy(buf + at, &v, 4);
        }
    }
}

void fuzz_plan_run(struct fuzz_input *in, const struct fuzz_plan_set *set)
{
    const struct vfetch_plan_desc *d = set->desc;
    /* Parameters first (fixed positions), then bulk data from what is left. */
    const uint8_t flags = fuzz_u8(in);
    const unsigned first_mode = fuzz_below(in, 4);
    const uint32_t first_raw = fuzz_u32(in);
    const uint32_t first = first_mode == 0 ? 0 : first_mode == 1 ? first_raw & 0xff
                           : first_mode == 2 ? first_raw & 0xffff : first_raw;
    const uint16_t count_raw = fuzz_u16(in);
    const uint32_t count = count_raw & 0x8000 ? fuzz_u32(in) : count_raw % 4097u;
    const unsigned index_type = fuzz_below(in, 7); /* 0..2, and 3..6 as 0..2 or out of range */
    const unsigned index_mode = fuzz_below(in, 4);
    const uint32_t index_range = fuzz_u16(in);
    const int64_t index_offset = read_index_offset(in);
    const uint32_t max_index = read_max_index(in);
    const int8_t index_delta = (int8_t)fuzz_u8(in);
    const int8_t out_delta = (int8_t)fuzz_u8(in);
    int8_t stream_delta[VFETCH_MAX_STREAMS];
    fuzz_bytes(in, stream_delta, sizeof stream_delta);
    const unsigned unbound = fuzz_u8(in); /* which stream gets no buffer, with flags bit 3 */
    struct fuzz_rng rng = fuzz_rng_make(fuzz_u32(in));

    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.first = first;
    p.count = count;
    p.index_type = (enum vfetch_index_type)(index_type == 6 ? 3 : index_type % 3);
    p.index_offset = index_offset;
    p.max_index = max_index;
    /* instanced streams' record: base_instance + instance / divisor (from the seed: the
       input format stays as it was) */
    const uint32_t inst = fuzz_rng_next(&rng);
    p.instance = inst & 0x80 ? (inst >> 8) % 1000 : inst % 16;
    p.base_instance = inst & 0x40 ? (inst >> 4) % 5 : 0;
    if ((inst & 0x30) == 0x30) { /* records near 2^33: times a stride >= 2^31, past 2^64 */
        p.instance = UINT32_MAX - (inst >> 8) % 70000u;
        p.base_instance = UINT32_MAX - (inst >> 20) % 3u;
    }

    /* The index buffer: first + count entries (or less, or a bit more). */
    uint8_t *indices = NULL;
    if (p.index_type == VFETCH_INDEX_U16 || p.index_type == VFETCH_INDEX_U32) {
        const unsigned width = p.index_type == VFETCH_INDEX_U16 ? 2 : 4;
        p.indices_size = size_near(((uint64_t)first + count) * width, index_delta);
        indices = fuzz_buf_alloc(p.indices_size);
        fill_indices(in, &rng, indices, p.indices_size, width, first, count, index_mode, index_range);
        p.indices = flags & 4 ? NULL : indices;
    } else if ((unsigned)p.index_type > VFETCH_INDEX_U32) {
        p.indices = &rng; /* anything: the type alone is refused */
    }

    /* Streams sized from the records the model says the run reads. */
    struct fuzz_run_records rec = { 0, (uint64_t)first + count - 1, (uint64_t)first + count - 1,
                                    p.instance, p.base_instance };
    if (count && p.indices && (uint64_t)first + count <= UINT32_MAX + 1ull &&
        ((uint64_t)first + count) * (p.index_type == VFETCH_INDEX_U16 ? 2 : 4) <= p.indices_size)
        rec = fuzz_model_records(&p);
    struct vfetch_binding bind[VFETCH_MAX_STREAMS + 1];
    uint8_t *data[VFETCH_MAX_STREAMS] = { NULL };
    for (unsigned s = 0; s < d->num_streams; s++) {
        const uint64_t need = count ? fuzz_model_stream_need(d, s, &rec) : 0;
        const size_t size = size_near(need, stream_delta[s]);
        data[s] = fuzz_buf_alloc(size);
        fuzz_fill(in, &rng, data[s], size);
        bind[s].data = data[s];
        bind[s].size = size;
    }
    bind[d->num_streams] = (struct vfetch_binding){ NULL, 0 };
    if (flags & 8)
        bind[unbound % d->num_streams].data = NULL;
    p.streams = flags & 1 ? NULL : bind;
    p.num_streams = d->num_streams - (flags & 16 ? 1 : 0) + (flags & 32 ? 1 : 0);

    const uint64_t out_need = count ? fuzz_model_out_need(d, count) : 0;
    p.out_size = size_near(out_need, out_delta);
    uint8_t *out[3];
    for (unsigned k = 0; k < 3; k++) {
        out[k] = fuzz_buf_alloc(p.out_size);
        fuzz_canary_fill(out[k], p.out_size);
    }

    p.out = flags & 2 ? NULL : out[0];
    const int want = fuzz_model_run(d, &p);
    const int got = vfetch_run(set->test, &p);
    fuzz_trace("run first %u count %u index_type %d offset %lld max %u -> %d (model %d)\n", first,
               count, (int)p.index_type, (long long)index_offset, max_index, got, want);
    FUZZ_REQUIRE(got == want, "vfetch_run returned %d, the model says %d", got, want);
    FUZZ_REQUIRE(vfetch_run(NULL, &p) == VFETCH_EINVAL && vfetch_run(set->test, NULL) == VFETCH_EINVAL,
                 "NULL plan or params accepted");
    if (got != VFETCH_OK || count == 0) {
        fuzz_require_canary(out[0], 0, p.out_size, "output after an error or an empty run");
    } else {
        fuzz_require_unwritten_intact(d, count, out[0], p.out_size);
        p.out = out[1];
        FUZZ_REQUIRE(vfetch_run(set->ref, &p) == VFETCH_OK, "the reference refused the run");
        fuzz_require_same(out[0], out[1], p.out_size, "tested", "reference");
        p.out = out[2];
        FUZZ_REQUIRE(vfetch_run(set->per_op, &p) == VFETCH_OK, "the per-op path refused the run");
        fuzz_require_same(out[2], out[1], p.out_size, "per-op", "reference");
    }

    for (unsigned k = 0; k < 3; k++)
        fuzz_buf_free(out[k]);
    for (unsigned s = 0; s < d->num_streams; s++)
        fuzz_buf_free(data[s]);
    fuzz_buf_free(indices);
}
