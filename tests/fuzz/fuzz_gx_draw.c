/* A checked GX draw (see fuzz_gx_draw.h). */
#include "fuzz_gx_draw.h"

#include <string.h>

#include "fuzz_check.h"
#include "fuzz_gx_model.h"

#define GX_MAX_BUFFER ((size_t)1 << 20)

static size_t gx_size_near(uint64_t need, int delta)
{
    const int64_t s = (int64_t)(need > GX_MAX_BUFFER ? GX_MAX_BUFFER : need) + delta;
    return s < 0 ? 0 : s > (int64_t)GX_MAX_BUFFER ? GX_MAX_BUFFER : (size_t)s;
}

static uint32_t gx_index_at(const uint8_t *vx, const struct fuzz_gx_attr_model *at, unsigned j)
{
    const uint8_t *p = vx + at->offset + j * at->index_size;
    return at->index_size == 1 ? p[0] : (uint32_t)p[0] << 8 | p[1]; /* big-endian */
}

/* What vfetch_gx_run must return and report: docs/gx.md's checks, in that table's order. */
static int gx_model_run(const struct fuzz_gx_model *m, const struct vfetch_gx_desc *cp,
                        const struct vfetch_gx_run_params *p, uint32_t record_size,
                        struct vfetch_gx_result *r)
{
    memset(r, 0, sizeof *r);
    if ((unsigned)p->index_policy > VFETCH_GX_INDEX_CLAMP)
        return VFETCH_EINVAL;
    if (p->count == 0)
        return VFETCH_OK;
    const uint64_t bytes = (uint64_t)p->count * m->vertex_size;
    if (bytes > SIZE_MAX)
        return VFETCH_EOVERFLOW;
    if (bytes && !p->vertices)
        return VFETCH_EMISSING_STREAM;
    if (bytes > p->vertices_size)
        return VFETCH_ESHORT_STREAM;
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
        if (m->attr[a].mode >= VFETCH_GX_INDEX8 && !p->arrays[a].data)
            return VFETCH_EMISSING_STREAM;
    const struct fuzz_gx_attr_model *pos = &m->attr[VFETCH_GX_POSITION];
    for (uint32_t v = 0; v < p->count && m->vertex_size; v++) {
        const uint8_t *vx = (const uint8_t *)p->vertices + (size_t)v * m->vertex_size;
        if (pos->mode >= VFETCH_GX_INDEX8 &&
            gx_index_at(vx, pos, 0) == (pos->index_size == 1 ? 0xffu : 0xffffu)) {
            r->skipped++; /* the skip value: nothing of this vertex is read or checked */
            continue;
        }
        for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
            const struct fuzz_gx_attr_model *at = &m->attr[a];
            if (at->mode < VFETCH_GX_INDEX8)
                continue;
            /* Index j of an NBT with three indices reads the j-th third of its element. */
            const uint64_t piece = at->element_size / at->pieces;
            for (unsigned j = 0; j < at->pieces; j++) {
                const uint64_t start = (uint64_t)gx_index_at(vx, at, j) * cp->array_stride[a] + j * piece;
                if (start + piece <= p->arrays[a].size)
                    continue;
                if (p->index_policy == VFETCH_GX_INDEX_ERROR || j * piece + piece > p->arrays[a].size)
                    return VFETCH_EGX_ARRAY_INDEX;
                r->clamped++;
            }
        }
    }
    r->written = p->count - r->skipped;
    if (m->vertex_size && r->written) {
        if (!p->out)
            return VFETCH_EINVAL;
        if ((uint64_t)(r->written - 1) * record_size + record_size > p->out_size)
            return VFETCH_ESHORT_OUTPUT;
    }
    return VFETCH_OK;
}

/* Compile a twin of the plan under test: the same registers at another level or path. */
static vfetch_gx_plan *gx_twin(const struct vfetch_gx_desc *cp, unsigned levels,
                               enum vfetch_path path)
{
    struct vfetch_gx_desc twin = *cp;
    twin.path = path;
    vfetch_gx_plan *plan = NULL;
    fuzz_use_levels(levels);
    const int err = vfetch_gx_compile(&twin, &plan);
    fuzz_use_best_levels();
    FUZZ_REQUIRE(err == VFETCH_OK && plan, "a twin of a compiled format failed to compile (%d)", err);
    return plan;
}

void fuzz_gx_draw(struct fuzz_input *in, const vfetch_gx_plan *plan,
                  const struct vfetch_gx_desc *cp, unsigned level_mask)
{
    struct fuzz_gx_model m;
    fuzz_gx_model_parse(&cp->regs, &m);
    const uint32_t record = fuzz_gx_model_record_size(&m, cp->layout, cp->color_output);
    FUZZ_REQUIRE(vfetch_gx_plan_out_stride(plan) == record, "out stride %u, model %u",
                 vfetch_gx_plan_out_stride(plan), record);

    /* flags: 1 no vertices, 2 no output, 4 one array unbound, 8 tame indices (mostly in
       range), 16 skip every (n+1)-th vertex */
    const uint8_t flags = fuzz_u8(in);
    const unsigned policy = fuzz_below(in, 3);
    const uint32_t count = fuzz_u16(in) % 1025u;
    const int8_t vertices_delta = (int8_t)fuzz_u8(in), out_delta = (int8_t)fuzz_u8(in);
    const unsigned unbound = fuzz_u8(in), skip_every = fuzz_u8(in);
    uint8_t elements[VFETCH_GX_NUM_ATTRS];
    int8_t array_delta[VFETCH_GX_NUM_ATTRS];
    fuzz_bytes(in, elements, sizeof elements);
    fuzz_bytes(in, array_delta, sizeof array_delta);
    struct fuzz_rng rng = fuzz_rng_make(fuzz_u32(in));

    struct vfetch_gx_run_params p;
    vfetch_gx_run_params_init(&p);
    p.count = count;
    p.index_policy = (enum vfetch_gx_index_policy)policy;
    p.vertices_size = gx_size_near((uint64_t)count * m.vertex_size, vertices_delta);
    uint8_t *vertices = fuzz_buf_alloc(p.vertices_size);
    fuzz_fill(in, &rng, vertices, p.vertices_size);
    p.vertices = flags & 1 ? NULL : vertices;

    /* Arrays of the indexed attributes: elements[a] whole elements, give or take a few bytes. */
    uint8_t *arrays[VFETCH_GX_NUM_ATTRS] = { NULL };
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
        const struct fuzz_gx_attr_model *at = &m.attr[a];
        if (at->mode < VFETCH_GX_INDEX8)
            continue;
        const uint64_t need = (uint64_t)elements[a] * cp->array_stride[a] + at->element_size;
        p.arrays[a].size = gx_size_near(need, array_delta[a]);
        arrays[a] = fuzz_buf_alloc(p.arrays[a].size);
        fuzz_fill(in, &rng, arrays[a], p.arrays[a].size);
        p.arrays[a].data = arrays[a];
        if (flags & 8) { /* rewrite the indices: mostly within elements[a], some one past */
            for (uint32_t v = 0; v < count && (size_t)(v + 1) * m.vertex_size <= p.vertices_size; v++)
                for (unsigned j = 0; j < at->pieces; j++) {
                    uint8_t *ix = vertices + (size_t)v * m.vertex_size + at->offset + j * at->index_size;
                    const uint32_t idx = fuzz_rng_next(&rng) % (elements[a] + 2u);
                    if (at->index_size == 1) {
                        ix[0] = (uint8_t)idx;
                    } else {
                        ix[0] = (uint8_t)(idx >> 8);
                        ix[1] = (uint8_t)idx;
                    }
                }
        }
    }
    if (flags & 16 && m.attr[VFETCH_GX_POSITION].mode >= VFETCH_GX_INDEX8)
        for (uint32_t v = 0; v < count && (size_t)(v + 1) * m.vertex_size <= p.vertices_size;
             v += skip_every % 8 + 1)
            memset(vertices + (size_t)v * m.vertex_size + m.attr[VFETCH_GX_POSITION].offset, 0xff,
                   m.attr[VFETCH_GX_POSITION].index_size);
    if (flags & 4) {
        for (unsigned k = 0; k < VFETCH_GX_NUM_ATTRS; k++) {
            const unsigned a = (unbound + k) % VFETCH_GX_NUM_ATTRS;
            if (m.attr[a].mode >= VFETCH_GX_INDEX8) {
                p.arrays[a].data = NULL;
                break;
            }
        }
    }

    /* Output for every vertex (skipped ones leave room unused), give or take a few bytes. */
    p.out_size = gx_size_near(count ? (uint64_t)count * record : 0, out_delta);
    uint8_t *out[3];
    for (unsigned k = 0; k < 3; k++) {
        out[k] = fuzz_buf_alloc(p.out_size);
        fuzz_canary_fill(out[k], p.out_size);
    }
    p.out = flags & 2 ? NULL : out[0];

    struct vfetch_gx_result want_r;
    const int want = gx_model_run(&m, cp, &p, record, &want_r);
    struct vfetch_gx_result got_r;
    memset(&got_r, 0xA5, sizeof got_r);
    const int got = vfetch_gx_run(plan, &p, &got_r);
    fuzz_trace("gx draw count %u vertex %u record %u policy %u -> %d (model %d) written %u "
               "skipped %u clamped %u\n", count, m.vertex_size, record, policy, got, want,
               got_r.written, got_r.skipped, got_r.clamped);
    FUZZ_REQUIRE(got == want, "vfetch_gx_run returned %d, the model says %d", got, want);
    if (got != VFETCH_OK) {
        struct vfetch_gx_result untouched;
        memset(&untouched, 0xA5, sizeof untouched);
        FUZZ_REQUIRE(memcmp(&got_r, &untouched, sizeof got_r) == 0, "result written on error %d", got);
        fuzz_require_canary(out[0], 0, p.out_size, "gx output after an error");
    } else {
        FUZZ_REQUIRE(got_r.written == want_r.written && got_r.skipped == want_r.skipped &&
                         got_r.clamped == want_r.clamped,
                     "result written %u skipped %u clamped %u, model %u %u %u", got_r.written,
                     got_r.skipped, got_r.clamped, want_r.written, want_r.skipped, want_r.clamped);
        const size_t used = m.vertex_size && got_r.written ? (size_t)got_r.written * record : 0;
        if (p.out)
            fuzz_require_canary(out[0], used, p.out_size, "gx output past the written records");
        FUZZ_REQUIRE(vfetch_gx_run(plan, &p, NULL) == VFETCH_OK, "a NULL result refused");
        vfetch_gx_plan *ref = gx_twin(cp, 0, cp->path);
        vfetch_gx_plan *per_op = gx_twin(cp, level_mask, VFETCH_PATH_PER_OP);
        if (p.out) {
            p.out = out[1];
            FUZZ_REQUIRE(vfetch_gx_run(ref, &p, NULL) == VFETCH_OK, "the reference refused the draw");
            fuzz_require_same(out[0], out[1], p.out_size, "tested", "reference");
            p.out = out[2];
            FUZZ_REQUIRE(vfetch_gx_run(per_op, &p, NULL) == VFETCH_OK, "the per-op path refused the draw");
            fuzz_require_same(out[2], out[1], p.out_size, "per-op", "reference");
        }
        vfetch_gx_plan_free(ref);
        vfetch_gx_plan_free(per_op);
    }

    for (unsigned k = 0; k < 3; k++)
        fuzz_buf_free(out[k]);
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
        fuzz_buf_free(arrays[a]);
    fuzz_buf_free(vertices);
}
