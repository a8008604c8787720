/*
 * Fuzz target: R300 register words through vfetch_r300_translate and vfetch_r300_compile,
 * checked against a model of the front-end's errors and output layout written from r300.h and
 * docs/r300.md, then the plan run (fuzz_plan_run.c) at the tested level, the reference and the
 * per-op path.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "fuzz_plan_run.h"
#include "vfetch/r300.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Dwords each DATA_TYPE takes from the vertex's dword stream (the VAP register spec). */
static const uint8_t model_type_dwords[13] = { 1, 2, 3, 4, 1, 1, 1, 2, 1, 1, 8, 1, 2 };

struct r300_model {
    int err;
    uint8_t written[33]; /* DST_VEC_LOC vectors some element writes */
};

static unsigned element_half(const uint32_t words[8], unsigned e)
{
    return words[e / 2] >> (16 * (e & 1)) & 0xffff;
}

/* docs/r300.md "Error codes of the front-end", checked element by element in order. */
static struct r300_model model_translate(const struct vfetch_r300_desc *d)
{
    struct r300_model m;
    memset(&m, 0, sizeof m);
    m.err = VFETCH_EINVAL;
    if ((unsigned)d->layout > VFETCH_R300_LAYOUT_FULL)
        return m;
    unsigned supplied = 0;
    if (d->num_arrays == 0) {
        if (d->vtx_size_dwords < 1 || d->vtx_size_dwords > 128)
            return m;
        supplied = d->vtx_size_dwords;
    } else if (d->num_arrays > VFETCH_R300_MAX_ARRAYS) {
        m.err = VFETCH_ER300_TOO_MANY_ARRAYS;
        return m;
    } else {
        for (unsigned a = 0; a < d->num_arrays; a++) {
            const struct vfetch_r300_array *arr = &d->arrays[a];
            if (arr->count_dwords < 1 || arr->count_dwords > 255 || arr->stride_dwords > 255 ||
                (arr->stride_dwords && arr->count_dwords > arr->stride_dwords)) {
                m.err = VFETCH_ER300_ARRAY_LAYOUT;
                return m;
            }
            supplied += arr->count_dwords;
        }
    }
    unsigned elements = 0;
    while (elements < 16 && !(element_half(d->prog_stream_cntl, elements) >> 13 & 1))
        elements++;
    if (elements == 16) {
        m.err = VFETCH_ER300_NO_LAST_VEC;
        return m;
    }
    elements++; /* the one with LAST_VEC counts */
    unsigned used = 0, stores = 0; /* stores: some element's write mask is not 0 */
    for (unsigned e = 0; e < elements; e++) {
        const unsigned half = element_half(d->prog_stream_cntl, e);
        const unsigned type = half & 0xf, skip = half >> 4 & 0xf, loc = half >> 8 & 0x1f;
        const unsigned is_signed = half >> 14 & 1, normalize = half >> 15 & 1;
        const int is_float = type <= VFETCH_R300_FLOAT_4 || type >= VFETCH_R300_FLOAT_8;
        if (type > VFETCH_R300_FLT16_4) {
            m.err = VFETCH_ER300_RESERVED_TYPE;
            return m;
        }
        if (!is_float && is_signed && normalize && (d->sgn_norm_cntl >> (2 * e) & 3) == 3) {
            m.err = VFETCH_ER300_RESERVED_SGN_NORM;
            return m;
        }
        if (type == VFETCH_R300_FLOAT_8 && loc == 31) {
            m.err = VFETCH_ER300_FLOAT8_LOC31;
            return m;
        }
        const unsigned ext = element_half(d->prog_stream_cntl_ext, e); /* always honoured */
        for (unsigned c = 0; c < 4; c++)
            if ((ext >> (3 * c) & 7) > VFETCH_SWIZZLE_1) {
                m.err = VFETCH_ERESERVED_SWIZZLE;
                return m;
            }
        stores |= (ext >> 12 & 0xf) != 0;
        used += model_type_dwords[type] + skip;
        if (used > supplied) {
            m.err = VFETCH_ER300_STREAM_UNDERRUN;
            return m;
        }
        m.written[loc] = 1;
        if (type == VFETCH_R300_FLOAT_8)
            m.written[loc + 1] = 1;
    }
    /* an output stride that cannot hold the record */
    unsigned vectors = 0;
    for (unsigned v = 0; v < 32; v++)
        vectors += m.written[v];
    const uint32_t record = d->layout == VFETCH_R300_LAYOUT_FULL ? 512 : 16 * vectors;
    if (d->out_stride && (d->out_stride % 4 || d->out_stride < record)) {
        m.err = VFETCH_EPLAN;
        return m;
    }
    /* elements that store nothing have no op; a state of only such elements converts nothing */
    m.err = stores ? VFETCH_OK : VFETCH_EPLAN;
    return m;
}

/* Output layout: compact packs written vectors in DST_VEC_LOC order, full puts v at 4v. */
static void check_layout(const struct vfetch_r300_desc *d, const struct r300_model *m,
                         const vfetch_plan *plan)
{
    unsigned rank = 0;
    for (unsigned v = 0; v < 32; v++) {
        const int want = !m->written[v] ? -1
                         : d->layout == VFETCH_R300_LAYOUT_FULL ? (int)(4 * v)
                                                                : (int)(4 * rank);
        rank += m->written[v];
        FUZZ_REQUIRE(vfetch_plan_location(plan, v) == want, "DST_VEC_LOC %u at slot %d, model %d",
                     v, vfetch_plan_location(plan, v), want);
    }
    const uint32_t record = d->layout == VFETCH_R300_LAYOUT_FULL ? 512 : 16 * rank;
    const uint32_t stride = d->out_stride ? d->out_stride : record;
    FUZZ_REQUIRE(vfetch_plan_record_size(plan) == record && vfetch_plan_out_stride(plan) == stride,
                 "record %u bytes, stride %u, model %u, %u", vfetch_plan_record_size(plan),
                 vfetch_plan_out_stride(plan), record, stride);
}

static char r300_untouched_marker;
#define R300_UNTOUCHED ((vfetch_plan *)(void *)&r300_untouched_marker)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = fuzz_input_make(data, size);
    const unsigned levels = fuzz_level_mask(fuzz_u8(&in));
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    for (unsigned i = 0; i < 8; i++)
        d.prog_stream_cntl[i] = fuzz_u32(&in);
    const uint8_t options = fuzz_u8(&in);
    for (unsigned i = 0; i < 8; i++) { /* programmed, or left at vfetch_r300_desc_init's */
        const uint32_t ext = fuzz_u32(&in);
        if (options & 1)
            d.prog_stream_cntl_ext[i] = ext;
    }
    const uint32_t sgn_norm = fuzz_u32(&in);
    if (options & 2) /* else Mesa's default, method 2 everywhere */
        d.sgn_norm_cntl = sgn_norm;
    d.cntl_status = fuzz_u32(&in);
    d.num_arrays = fuzz_u8(&in) % (VFETCH_R300_MAX_ARRAYS + 3);
    for (unsigned a = 0; a < VFETCH_R300_MAX_ARRAYS; a++) {
        const uint8_t stride = fuzz_u8(&in), count = fuzz_u8(&in);
        d.arrays[a].stride_dwords = options & 4 ? (uint32_t)stride << 1 : stride;
        d.arrays[a].count_dwords = count;
    }
    d.vtx_size_dwords = fuzz_u8(&in);
    d.layout = (enum vfetch_r300_layout)(options >> 4 & 3) % 3;
    const uint32_t out_stride = fuzz_u32(&in);
    if (options & 8) /* some fit the record, most do not */
        d.out_stride = out_stride % 1100;

    const struct r300_model m = model_translate(&d);
    struct vfetch_plan_desc pd, untouched;
    memset(&pd, 0x5A, sizeof pd);
    memcpy(&untouched, &pd, sizeof pd);
    const int err = vfetch_r300_translate(&d, &pd);
    vfetch_plan *compiled = R300_UNTOUCHED;
    fuzz_use_levels(levels);
    const int compile_err = vfetch_r300_compile(&d, &compiled);
    fuzz_use_best_levels();
    fuzz_trace("r300 psc %08x %08x arrays %u vtx %u layout %d -> %d (model %d)\n",
               d.prog_stream_cntl[0], d.prog_stream_cntl[1], d.num_arrays, d.vtx_size_dwords,
               (int)d.layout, err, m.err);
    FUZZ_REQUIRE(err == m.err, "vfetch_r300_translate returned %d, the model says %d", err, m.err);
    FUZZ_REQUIRE(compile_err == err, "compile %d but translate %d", compile_err, err);
    if (err) {
        FUZZ_REQUIRE(memcmp(&pd, &untouched, sizeof pd) == 0, "translate wrote its output on error");
        FUZZ_REQUIRE(compiled == R300_UNTOUCHED, "compile failed but set *out_plan");
        return 0;
    }
    check_layout(&d, &m, compiled);

    struct fuzz_plan_set set;
    const int create_err = fuzz_plan_set_create(&set, &pd, levels);
    FUZZ_REQUIRE(create_err == VFETCH_OK, "a translated description is refused (%d)", create_err);
    FUZZ_REQUIRE(vfetch_plan_equal(compiled, set.test) && vfetch_plan_hash(compiled) == vfetch_plan_hash(set.test),
                 "compile and translate + create give different plans");
    vfetch_plan_free(compiled);
    fuzz_plan_run(&in, &set);
    fuzz_plan_set_free(&set);
    return 0;
}
