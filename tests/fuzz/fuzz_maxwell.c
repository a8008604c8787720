/*
 * Fuzz target: the Maxwell vertex front-end (vfetch/maxwell.h, docs/maxwell.md "Vertex
 * fetch"). SET_VERTEX_ATTRIBUTE_A words, vertex-stream words, SET_ATTRIBUTE_DEFAULT, a Bmap and
 * a layout → vfetch_maxwell_attribute_parse / _compile, then one draw with the streams'
 * LOCATION/LIMIT registers → vfetch_maxwell_run. Everything is checked against a model written
 * here from the header and the docs (never from lib/maxwell): parse results and fields, the
 * compile result (which attributes are checked), the plan's Bmap, slots and stride, the core
 * plan's streams, the run's result code, and every slot of every record: VERTEX_ID,
 * INSTANCE_ID, the AAM default of every slot no attribute feeds, and each fetched component
 * (all conversions but NaN payloads of the 16-bit and small floats). The same run at the
 * scalar reference (CPU mask 0) and on the per-op path must give the same bytes; after an
 * error no output byte may change. Buffers end at a guard page (fuzz_buf_alloc: no slack).
 *
 * Input (fuzz_input.h: in this order, little-endian, zeros past the end):
 *   u8   levels          fuzz_level_mask (>= 128: a lower level is tested)
 *   u8   desc            bit 0 layout COMPACT (else FULL), bit 1 path PER_OP, bits 3:2 == 3
 *                        layout out of range, bits 5:4 == 3 path out of range
 *   u8   n               attribute entries, n % 33; each 7 bytes:
 *        u8 index (% 32), u8 mode, u32 raw, u8 flip
 *          mode & 3 == 0: the word is raw; else it is built from raw: stream bits 4:0
 *          (only 1:0 unless mode bit 2), offset bits 18:5 (only 10:5 unless mode bit 6),
 *          size code mw_sizes[bits 23:19 % 18], type 1 + bits 26:24 % 7, swap bit 27; the type
 *          is made valid for the size unless mode bit 4; mode bit 5: inactive; mode bit 3:
 *          flip word bit (flip % 32) afterwards
 *   4 x  u16 format (ENABLE bit 12 inverted: 0 bytes = enabled, stride 0), u8 instance word,
 *        u8 frequency       streams 0..3
 *   u8   others          streams 4..31: bit 0 disabled, else enabled with stride (others>>1)*4
 *   u8   default mode, u32 default   SET_ATTRIBUTE_DEFAULT: mode % 3: reset 0x0E, 0, raw
 *   u8   bmap mode, 8 x u32 raw, u8 sys   the Bmap (mode % 4): 0 empty (the default Bmap),
 *        1 the raw words, 2 raw words 1..4 (the generics) + sys, 3 all four components of the
 *        attributes in raw[0] + sys; sys bits: VERTEX_ID, INSTANCE_ID, POSITION, COLOR_FRONT_
 *        DIFFUSE, FIXED_FNC_TEXTURE_0, IS_FRONT_FACE, CLIP_DISTANCE_0
 *   u8   flags           bit 0 streams NULL, 1 out NULL, 2 indices NULL, 3 one read stream's
 *                        data NULL (u8 which, next)
 *   u8   which
 *   u8   first mode, u32 first          0: 0, 1: & 0xff, 2: & 0xffff, 3: raw
 *   u16  count, u32 big count           count % 301, or the big count if bit 15
 *   u8   index type (% 4: none, u16, u32, out of range), u8 index mode, u16 index range,
 *        i8 index size delta            entries: 0 random <= range, 1 random, 2 range + i,
 *                                       3 the input's bytes
 *   u8   offset mode, u64 offset        index_offset families (as fuzz_plan_run.c)
 *   u32  vertex_id_base
 *   u8   instance mode, u32 instance, u32 base_instance   mode bits 1:0 / 3:2 per value:
 *                                       & 0xf, & 0xff, raw, UINT32_MAX - (v & 0xff)
 *   i8   out size delta
 *   5 x  binding block (streams 0..3, then one for all of 4..31), 15 bytes each:
 *        u8 size mode, i8 delta, u16 raw size, u8 location mode, u64 location, u8 limit mode,
 *        u8 shrink        buffer size (mode % 4): the model's need + delta, twice; raw & 0xfff;
 *                         0. LOCATION: bits 39:0, raw, 2^64 - 1 - (v & 0xfff), 0. LIMIT: the
 *                         buffer's last byte, twice; shrink bytes less; below LOCATION
 *   u32  generator seed; then index data, then stream data (input bytes, then generated)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "fuzz_run_model.h"
#include "vfetch/maxwell.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MW_MAX_COUNT 300u
/* Largest buffer one execution allocates; a larger need is given less (an error). */
#define MW_MAX_BUFFER ((size_t)1 << 18)
/* Largest output buffer: MW_MAX_COUNT full records and then some; a draw that needs more is
   given a few bytes (it must fail). */
#define MW_MAX_OUT ((size_t)MW_MAX_COUNT * 1024 + 256)
#define MW_OK_BIT 1u
#define MW_BIT(code) (1u << (unsigned)-(code))
#define MW_FULL_STRIDE 1024u

static const uint8_t mw_sizes[18] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x0A, 0x0F, 0x12, 0x13,
                                      0x18, 0x1B, 0x1D, 0x2F, 0x30, 0x31, 0x32, 0x33, 0x34 };

/* ---- the attribute word, from maxwell.h and docs/maxwell.md's tables ---------------------- */

struct mw_size {
    uint8_t valid;
    uint8_t components;
    uint8_t component_bytes; /* 0: one packed 32-bit word (0x30, 0x31) */
    uint8_t element_bytes;   /* the element's size (vfetch_maxwell_attribute.bytes) */
    uint8_t read_bytes;      /* bytes of it a fetch reads (X8B8G8R8: not the top byte) */
    uint8_t no_float;        /* FLOAT refused: 8-bit sizes, A2B10G10R10 */
};

static struct mw_size mw_size_model(uint32_t code)
{
    switch (code) {
    case 0x01: return (struct mw_size){ 1, 4, 4, 16, 16, 0 };
    case 0x02: return (struct mw_size){ 1, 3, 4, 12, 12, 0 };
    case 0x04: return (struct mw_size){ 1, 2, 4, 8, 8, 0 };
    case 0x12: return (struct mw_size){ 1, 1, 4, 4, 4, 0 };
    case 0x03: return (struct mw_size){ 1, 4, 2, 8, 8, 0 };
    case 0x05: return (struct mw_size){ 1, 3, 2, 6, 6, 0 };
    case 0x0F: return (struct mw_size){ 1, 2, 2, 4, 4, 0 };
    case 0x1B: return (struct mw_size){ 1, 1, 2, 2, 2, 0 };
    case 0x0A: case 0x2F: return (struct mw_size){ 1, 4, 1, 4, 4, 1 };
    case 0x13: return (struct mw_size){ 1, 3, 1, 3, 3, 1 };
    case 0x33: return (struct mw_size){ 1, 3, 1, 4, 3, 1 };
    case 0x18: case 0x32: return (struct mw_size){ 1, 2, 1, 2, 2, 1 };
    case 0x1D: case 0x34: return (struct mw_size){ 1, 1, 1, 1, 1, 1 };
    case 0x30: return (struct mw_size){ 1, 4, 0, 4, 4, 1 };
    case 0x31: return (struct mw_size){ 1, 3, 0, 4, 4, 0 };
    default: return (struct mw_size){ 0, 0, 0, 0, 0, 0 };
    }
}

struct mw_attr {
    uint32_t word;
    unsigned stream, inactive, offset, size, type, swap, integer;
    int parses;
    struct mw_size sz;
};

static void mw_attr_model(uint32_t w, struct mw_attr *a)
{
    a->word = w;
    a->stream = w & 31;
    a->inactive = w >> 6 & 1;
    a->offset = w >> 7 & 0x3fff;
    a->size = w >> 21 & 0x3f;
    a->type = w >> 27 & 7;
    a->swap = w >> 31;
    a->integer = a->type == VFETCH_MAXWELL_TYPE_UINT || a->type == VFETCH_MAXWELL_TYPE_SINT;
    a->sz = mw_size_model(a->size);
    const int is_float = a->type == VFETCH_MAXWELL_TYPE_FLOAT;
    int ok = a->sz.valid && a->type != 0;
    if (a->size == VFETCH_MAXWELL_SIZE_B10G11R11)
        ok = is_float;
    else if (is_float && a->sz.no_float)
        ok = 0;
    a->parses = a->inactive || ok;
}

/* A built word (see the input format above). */
static uint32_t mw_build_word(uint8_t mode, uint32_t raw, uint8_t flip)
{
    if ((mode & 3) == 0)
        return raw;
    const uint32_t stream = mode & 4 ? raw & 31 : raw & 3;
    const uint32_t offset = mode & 64 ? raw >> 5 & 0x3fff : raw >> 5 & 63;
    const uint32_t size = mw_sizes[(raw >> 19 & 31) % 18];
    uint32_t type = 1 + (raw >> 24 & 7) % 7;
    if (!(mode & 16)) {
        if (size == VFETCH_MAXWELL_SIZE_B10G11R11)
            type = VFETCH_MAXWELL_TYPE_FLOAT;
        else if (type == VFETCH_MAXWELL_TYPE_FLOAT && mw_size_model(size).no_float)
            type = VFETCH_MAXWELL_TYPE_UNORM;
    }
    uint32_t w = stream | offset << 7 | size << 21 | type << 27 | (raw >> 27 & 1) << 31;
    if (mode & 32)
        w |= 1u << 6;
    if (mode & 8)
        w ^= 1u << (flip & 31);
    return w;
}

static void mw_check_parse(const struct mw_attr *a)
{
    struct vfetch_maxwell_attribute got, before;
    memset(&before, 0x5A, sizeof before);
    got = before;
    const int err = vfetch_maxwell_attribute_parse(a->word, &got);
    FUZZ_REQUIRE(err == (a->parses ? VFETCH_OK : VFETCH_EMAXWELL_ATTRIBUTE_FORMAT),
                 "parse 0x%08x returned %d, model %s", a->word, err, a->parses ? "ok" : "refused");
    if (err) {
        FUZZ_REQUIRE(memcmp(&got, &before, sizeof got) == 0, "parse 0x%08x failed but wrote *out",
                     a->word);
        return;
    }
    FUZZ_REQUIRE(got.stream == a->stream && got.inactive == a->inactive && got.offset == a->offset &&
                     got.size == a->size && got.type == a->type && got.swap_r_and_b == a->swap &&
                     got.integer == a->integer,
                 "parse 0x%08x: fields %u %u %u 0x%x %u %u %u", a->word, got.stream, got.inactive,
                 got.offset, got.size, got.type, got.swap_r_and_b, got.integer);
    if (a->sz.valid)
        FUZZ_REQUIRE(got.components == a->sz.components && got.bytes == a->sz.element_bytes,
                     "parse 0x%08x: %u components, %u bytes; model %u, %u", a->word,
                     got.components, got.bytes, a->sz.components, a->sz.element_bytes);
}

/* ---- the description --------------------------------------------------------------------- */

struct mw_model {
    struct vfetch_maxwell_desc desc;
    struct mw_attr attr[VFETCH_MAXWELL_ATTRIBUTES];
    struct vfetch_aam_map bmap; /* the Bmap in effect (the default one filled in) */
    unsigned mask[VFETCH_MAXWELL_ATTRIBUTES]; /* generic components of attribute i in the Bmap */
    int slot_of[VFETCH_AAM_ATTRIBUTES];
    unsigned slots;
    int full;
};

static int mw_map_empty(const struct vfetch_aam_map *m)
{
    for (unsigned w = 0; w < 8; w++)
        if (m->words[w])
            return 0;
    return 1;
}

/* maxwell.h: the Bmap (all zero: the four components of every active attribute), the slots
   (full: attribute n in slot n; compact: the Bmap's attributes in address order). */
static void mw_model_layout(struct mw_model *m)
{
    const struct vfetch_maxwell_desc *d = &m->desc;
    m->bmap = d->input_bmap;
    if (mw_map_empty(&m->bmap))
        for (unsigned i = 0; i < VFETCH_MAXWELL_ATTRIBUTES; i++)
            if (!m->attr[i].inactive)
                for (unsigned c = 0; c < 4; c++)
                    vfetch_aam_map_add(&m->bmap, VFETCH_AAM_GENERIC_0 + 4 * i + c);
    for (unsigned i = 0; i < VFETCH_MAXWELL_ATTRIBUTES; i++) {
        m->mask[i] = 0;
        for (unsigned c = 0; c < 4; c++)
            m->mask[i] |= (unsigned)vfetch_aam_map_has(&m->bmap, VFETCH_AAM_GENERIC_0 + 4 * i + c) << c;
    }
    m->full = d->layout == VFETCH_MAXWELL_LAYOUT_FULL;
    m->slots = 0;
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++)
        m->slot_of[n] = m->full || vfetch_aam_map_has(&m->bmap, n) ? (int)m->slots++ : -1;
}

/* The results vfetch_maxwell_compile may give (a bit per code; bit 0 success). When several
   attributes are wrong, any one of their codes. */
static unsigned mw_model_compile(const struct mw_model *m)
{
    const struct vfetch_maxwell_desc *d = &m->desc;
    if ((unsigned)d->layout > VFETCH_MAXWELL_LAYOUT_FULL || (unsigned)d->path > VFETCH_PATH_PER_OP)
        return MW_BIT(VFETCH_EINVAL);
    if (m->slots == 0)
        return MW_BIT(VFETCH_EINVAL); /* a compact Bmap with no attribute */
    unsigned set = 0;
    for (unsigned i = 0; i < VFETCH_MAXWELL_ATTRIBUTES; i++) {
        const struct mw_attr *a = &m->attr[i];
        if (!m->mask[i])
            continue; /* outside the Bmap: not checked */
        if (!a->parses)
            set |= MW_BIT(VFETCH_EMAXWELL_ATTRIBUTE_FORMAT);
        else if (!a->inactive && !(d->stream_format[a->stream] >> 12 & 1))
            set |= MW_BIT(VFETCH_EMAXWELL_STREAM_DISABLED);
    }
    return set ? set : MW_OK_BIT;
}

/* The memory component output component c of attribute a takes (SWAP_R_AND_B exchanges x and
   z; A8 is (0, 0, 0, A)): 0..3, or -1 when it is a constant (a missing component). */
static int mw_source(const struct mw_attr *a, unsigned c)
{
    const unsigned src = a->swap && (c == 0 || c == 2) ? 2 - c : c;
    if (a->size == VFETCH_MAXWELL_SIZE_A8)
        return src == 3 ? 0 : -1;
    return src < a->sz.components ? (int)src : -1;
}

/* The constant a missing output component holds: (0, 0, 0, 1), 1 as an integer for UINT and
   SINT, else as a float. */
static uint32_t mw_missing(const struct mw_attr *a, unsigned c)
{
    const unsigned src = a->swap && (c == 0 || c == 2) ? 2 - c : c;
    if (src != 3 || a->size == VFETCH_MAXWELL_SIZE_A8)
        return 0;
    return a->integer ? 1u : 0x3f800000u;
}

/* ---- the plan ---------------------------------------------------------------------------- */

struct mw_plans {
    vfetch_maxwell_plan *test, *ref, *per_op;
    /* per hardware stream: bytes one record read (the plan's extent), its core stream or -1 */
    uint32_t extent[VFETCH_MAXWELL_STREAMS];
    int core[VFETCH_MAXWELL_STREAMS];
};

static char mw_untouched_marker;
#define MW_UNTOUCHED ((vfetch_maxwell_plan *)(void *)&mw_untouched_marker)

static int mw_compile_checked(const struct vfetch_maxwell_desc *d, unsigned mask,
                              vfetch_maxwell_plan **out)
{
    vfetch_maxwell_plan *plan = MW_UNTOUCHED;
    fuzz_use_levels(mask);
    const int err = vfetch_maxwell_compile(d, &plan);
    fuzz_use_best_levels();
    FUZZ_REQUIRE(err <= 0 && err > VFETCH_ECOUNT, "vfetch_maxwell_compile returned %d", err);
    if (err)
        FUZZ_REQUIRE(plan == MW_UNTOUCHED, "vfetch_maxwell_compile failed (%d) but set *out_plan", err);
    else
        FUZZ_REQUIRE(plan && plan != MW_UNTOUCHED, "vfetch_maxwell_compile succeeded without a plan");
    *out = err ? NULL : plan;
    return err;
}

/* What a compiled plan reports, against the model. Fills extent[] and core[]. */
static void mw_check_plan(const struct mw_model *m, struct mw_plans *p)
{
    const vfetch_maxwell_plan *mp = p->test;
    FUZZ_REQUIRE(memcmp(vfetch_maxwell_plan_bmap(mp), &m->bmap, sizeof m->bmap) == 0,
                 "the plan's Bmap differs from the model's");
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++)
        FUZZ_REQUIRE(vfetch_maxwell_plan_slot(mp, n) == m->slot_of[n], "attribute %u in slot %d, model %d",
                     n, vfetch_maxwell_plan_slot(mp, n), m->slot_of[n]);
    FUZZ_REQUIRE(vfetch_maxwell_plan_slot(mp, VFETCH_AAM_ATTRIBUTES) == -1 &&
                     vfetch_maxwell_plan_slot(mp, UINT32_MAX) == -1,
                 "a slot for an attribute above 255");
    const uint32_t stride = m->full ? MW_FULL_STRIDE : 4 * m->slots;
    FUZZ_REQUIRE(vfetch_maxwell_plan_out_stride(mp) == stride, "out stride %u, model %u",
                 vfetch_maxwell_plan_out_stride(mp), stride);
    const vfetch_plan *conv = vfetch_maxwell_plan_converter(mp);
    FUZZ_REQUIRE(conv && vfetch_plan_record_size(conv) == 4 * m->slots &&
                     vfetch_plan_out_stride(conv) == stride,
                 "converter record %u, model %u", conv ? vfetch_plan_record_size(conv) : 0, 4 * m->slots);
    FUZZ_REQUIRE(vfetch_plan_equal(conv, vfetch_maxwell_plan_converter(p->ref)),
                 "the plans at two levels differ");

    /* Which core stream is which hardware stream: each op that reads memory writes slots of
       one attribute, whose word names the stream. */
    const struct vfetch_plan_desc *cd = vfetch_plan_get_desc(conv);
    int hw_of_core[VFETCH_MAX_STREAMS];
    for (unsigned s = 0; s < VFETCH_MAX_STREAMS; s++)
        hw_of_core[s] = -1;
    for (unsigned j = 0; j < VFETCH_MAXWELL_STREAMS; j++) {
        p->core[j] = -1;
        p->extent[j] = 0;
    }
    int attr_of_slot[VFETCH_MAX_SLOTS];
    for (unsigned s = 0; s < VFETCH_MAX_SLOTS; s++)
        attr_of_slot[s] = -1;
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++)
        if (m->slot_of[n] >= 0)
            attr_of_slot[m->slot_of[n]] = (int)n;
    for (unsigned k = 0; k < cd->num_ops; k++) {
        const struct vfetch_op *op = &cd->ops[k];
        if (op->count == 0)
            continue; /* a constant */
        const int n = attr_of_slot[op->dst_slot];
        FUZZ_REQUIRE(n >= VFETCH_AAM_GENERIC_0 && n < VFETCH_AAM_GENERIC_0 + 128,
                     "op %u fetches into slot %u (attribute %d), not a generic", k, op->dst_slot, n);
        const struct mw_attr *a = &m->attr[(n - VFETCH_AAM_GENERIC_0) / 4];
        FUZZ_REQUIRE(!a->inactive && m->mask[(n - VFETCH_AAM_GENERIC_0) / 4],
                     "op %u fetches for attribute %d, inactive or outside the Bmap", k, n);
        const unsigned s = op->src[0].stream;
        FUZZ_REQUIRE(hw_of_core[s] < 0 || hw_of_core[s] == (int)a->stream,
                     "core stream %u is read for hardware streams %d and %u", s, hw_of_core[s], a->stream);
        FUZZ_REQUIRE(p->core[a->stream] < 0 || p->core[a->stream] == (int)s,
                     "hardware stream %u is core streams %d and %u", a->stream, p->core[a->stream], s);
        hw_of_core[s] = (int)a->stream;
        p->core[a->stream] = (int)s;
    }
    for (unsigned s = 0; s < cd->num_streams; s++)
        if (hw_of_core[s] < 0)
            FUZZ_REQUIRE(vfetch_plan_stream_extent(conv, s) == 0, "core stream %u read by no attribute", s);

    /* Each read stream: its registers, and its extent between what the attributes that
       certainly read it need and what every attribute on it could (an attribute whose Bmap
       components are all constants may or may not read: the docs leave it open). */
    for (unsigned j = 0; j < VFETCH_MAXWELL_STREAMS; j++) {
        uint32_t lo = 0, hi = 0;
        for (unsigned i = 0; i < VFETCH_MAXWELL_ATTRIBUTES; i++) {
            const struct mw_attr *a = &m->attr[i];
            if (a->inactive || a->stream != j || !m->mask[i])
                continue;
            int certain = 0;
            for (unsigned c = 0; c < 4; c++)
                certain |= (m->mask[i] >> c & 1) && mw_source(a, c) >= 0;
            const uint32_t end = a->offset + a->sz.read_bytes;
            if (certain && end > lo)
                lo = end;
            if (end > hi)
                hi = end;
        }
        if (p->core[j] < 0) {
            FUZZ_REQUIRE(lo == 0, "stream %u: no op reads it, but attributes need %u bytes", j, lo);
            continue;
        }
        const struct vfetch_stream *st = &cd->streams[p->core[j]];
        const int instanced = m->desc.stream_instance[j] & 1;
        FUZZ_REQUIRE(st->stride == (m->desc.stream_format[j] & 0xfff) &&
                         st->step == (instanced ? VFETCH_STEP_INSTANCE : VFETCH_STEP_INDEXED) &&
                         st->divisor == (instanced ? m->desc.stream_frequency[j] : 0) &&
                         st->order == VFETCH_ORDER_LITTLE,
                     "stream %u: stride %u step %d divisor %u", j, st->stride, (int)st->step, st->divisor);
        p->extent[j] = vfetch_plan_stream_extent(conv, (unsigned)p->core[j]);
        FUZZ_REQUIRE(p->extent[j] >= lo && p->extent[j] <= hi, "stream %u: extent %u, model %u..%u", j,
                     p->extent[j], lo, hi);
    }
}

/* ---- the draw ---------------------------------------------------------------------------- */

struct mw_binding_block {
    uint8_t size_mode;
    int8_t delta;
    uint16_t raw_size;
    uint8_t location_mode;
    uint64_t location;
    uint8_t limit_mode;
    uint8_t shrink;
};

struct mw_draw {
    struct vfetch_maxwell_run_params p;
    uint8_t flags, which;
    int8_t index_delta, out_delta;
    unsigned index_mode;
    uint32_t index_range;
    struct mw_binding_block block[5];
    uint32_t seed;
};

static uint32_t mw_pick(unsigned mode, uint32_t v)
{
    switch (mode & 3) {
    case 0: return v & 0xf;
    case 1: return v & 0xff;
    case 2: return v;
    default: return UINT32_MAX - (v & 0xff);
    }
}

static int64_t mw_index_offset(unsigned mode, uint64_t v)
{
    switch (mode % 8) {
    case 1: return (int8_t)v;
    case 2: return (int32_t)v;
    case 3: return INT64_MAX - (int64_t)(v & 0xff);
    case 4: return INT64_MIN + (int64_t)(v & 0xff);
    case 5: return -(int64_t)(uint32_t)v;
    case 6: return (int64_t)v;
    default: return 0;
    }
}

static void mw_read_draw(struct fuzz_input *in, struct mw_draw *dr)
{
    struct vfetch_maxwell_run_params *p = &dr->p;
    vfetch_maxwell_run_params_init(p);
    dr->flags = fuzz_u8(in);
    dr->which = fuzz_u8(in);
    const unsigned first_mode = fuzz_below(in, 4);
    const uint32_t first = fuzz_u32(in);
    p->first = first_mode == 0 ? 0 : first_mode == 1 ? first & 0xff : first_mode == 2 ? first & 0xffff : first;
    const uint16_t count = fuzz_u16(in);
    const uint32_t big = fuzz_u32(in);
    p->count = count & 0x8000 ? big : count % (MW_MAX_COUNT + 1);
    const unsigned index_type = fuzz_below(in, 4);
    p->index_type = (enum vfetch_index_type)index_type;
    dr->index_mode = fuzz_below(in, 4);
    dr->index_range = fuzz_u16(in);
    dr->index_delta = (int8_t)fuzz_u8(in);
    const unsigned offset_mode = fuzz_u8(in);
    p->index_offset = mw_index_offset(offset_mode, fuzz_u64(in));
    p->vertex_id_base = fuzz_u32(in);
    const unsigned instance_mode = fuzz_u8(in);
    const uint32_t instance = fuzz_u32(in), base = fuzz_u32(in);
    p->instance = mw_pick(instance_mode, instance);
    p->base_instance = mw_pick(instance_mode >> 2, base);
    dr->out_delta = (int8_t)fuzz_u8(in);
    for (unsigned b = 0; b < 5; b++) {
        struct mw_binding_block *bb = &dr->block[b];
        bb->size_mode = fuzz_u8(in);
        bb->delta = (int8_t)fuzz_u8(in);
        bb->raw_size = fuzz_u16(in);
        bb->location_mode = fuzz_u8(in);
        bb->location = fuzz_u64(in);
        bb->limit_mode = fuzz_u8(in);
        bb->shrink = fuzz_u8(in);
    }
    dr->seed = fuzz_u32(in);
}

static size_t mw_size_near(uint64_t need, int delta)
{
    if (need > MW_MAX_BUFFER)
        return (uint8_t)delta; /* the run must fail: no point filling a large buffer */
    const int64_t s = (int64_t)need + delta;
    return s < 0 ? 0 : s > (int64_t)MW_MAX_BUFFER ? MW_MAX_BUFFER : (size_t)s;
}

static unsigned mw_index_width(const struct vfetch_maxwell_run_params *p)
{
    return p->index_type == VFETCH_INDEX_U16 ? 2 : p->index_type == VFETCH_INDEX_U32 ? 4 : 0;
}

static uint32_t mw_entry(const struct vfetch_maxwell_run_params *p, uint64_t pos)
{
    return fuzz_model_index_entry(p->indices, p->index_type, pos);
}

/* Record an indexed stream reads at draw position pos: the entry + index_offset (64-bit,
   saturating) clamped to UINT32_MAX (vfetch_run's max_index default), or the position; -1
   when negative. */
static int64_t mw_vertex_record(const struct vfetch_maxwell_run_params *p, uint64_t pos)
{
    if (p->index_type == VFETCH_INDEX_NONE)
        return (int64_t)pos;
    const uint32_t e = mw_entry(p, pos);
    const int64_t sum = p->index_offset > INT64_MAX - (int64_t)e ? INT64_MAX : (int64_t)e + p->index_offset;
    if (sum < 0)
        return -1;
    return sum > (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : sum;
}

/* Index buffer usable for the whole range (entries in bounds, pointer set). */
static int mw_indices_usable(const struct vfetch_maxwell_run_params *p)
{
    const unsigned w = mw_index_width(p);
    if (!w || !p->indices || p->count == 0)
        return 0;
    const uint64_t end = (uint64_t)p->first + p->count;
    return end - 1 <= UINT32_MAX && end * w <= p->indices_size;
}

/* Highest record of indexed streams, or -1 if an entry is negative after the offset. */
static int64_t mw_max_record(const struct vfetch_maxwell_run_params *p)
{
    if (p->count == 0)
        return 0;
    if (p->index_type == VFETCH_INDEX_NONE || !mw_indices_usable(p))
        return (int64_t)((uint64_t)p->first + p->count - 1);
    int64_t max = 0;
    for (uint64_t pos = p->first; pos < (uint64_t)p->first + p->count; pos++) {
        const int64_t r = mw_vertex_record(p, pos);
        if (r < 0)
            return -1;
        if (r > max)
            max = r;
    }
    return max;
}

static uint64_t mw_instance_record(const struct mw_model *m, const struct vfetch_maxwell_run_params *p,
                                   unsigned j)
{
    const uint32_t f = m->desc.stream_frequency[j];
    return (uint64_t)p->base_instance + (f ? p->instance / f : 0);
}

/* Bytes stream j must make readable for the draw (0: not read). */
static uint64_t mw_stream_need(const struct mw_model *m, const struct mw_plans *pl,
                               const struct vfetch_maxwell_run_params *p, unsigned j, int64_t max_record)
{
    if (!pl->extent[j] || p->count == 0)
        return 0;
    const uint64_t stride = m->desc.stream_format[j] & 0xfff;
    const uint64_t rec = m->desc.stream_instance[j] & 1 ? mw_instance_record(m, p, j)
                         : max_record < 0 ? 0 : (uint64_t)max_record;
    return rec * stride + pl->extent[j];
}

static uint64_t mw_binding_bytes(const struct vfetch_maxwell_binding *b)
{
    return b->limit < b->location ? 0 : b->limit - b->location + 1; /* no wrap: see the caller */
}

/* The results vfetch_maxwell_run may give, from maxwell.h and vfetch.h's order of checks:
   arguments, the range's sizes, indices, output, index values, then each stream (any one of
   the failing streams' codes). */
static unsigned mw_model_run(const struct mw_model *m, const struct mw_plans *pl,
                             const struct vfetch_maxwell_run_params *p, size_t out_size)
{
    int reads = 0;
    for (unsigned j = 0; j < VFETCH_MAXWELL_STREAMS; j++)
        reads |= pl->extent[j] != 0;
    if ((reads && !p->streams) || (unsigned)p->index_type > VFETCH_INDEX_U32)
        return MW_BIT(VFETCH_EINVAL);
    if (p->count == 0)
        return MW_OK_BIT;
    if (!p->out || (p->index_type != VFETCH_INDEX_NONE && !p->indices))
        return MW_BIT(VFETCH_EINVAL);
    const uint64_t end = (uint64_t)p->first + p->count;
    if (end - 1 > UINT32_MAX)
        return MW_BIT(VFETCH_EOVERFLOW);
    if (p->index_type != VFETCH_INDEX_NONE && end * mw_index_width(p) > p->indices_size)
        return MW_BIT(VFETCH_ESHORT_INDICES);
    const uint64_t stride = m->full ? MW_FULL_STRIDE : 4 * m->slots;
    const uint64_t out_need = (uint64_t)(p->count - 1) * stride + 4 * m->slots;
    if (out_need > SIZE_MAX)
        return MW_BIT(VFETCH_EOVERFLOW);
    if (out_need > out_size)
        return MW_BIT(VFETCH_ESHORT_OUTPUT);
    const int64_t max_record = mw_max_record(p);
    if (max_record < 0)
        return MW_BIT(VFETCH_EINDEX_RANGE);
    unsigned set = 0;
    for (unsigned j = 0; j < VFETCH_MAXWELL_STREAMS; j++) {
        if (!pl->extent[j])
            continue;
        const struct vfetch_maxwell_binding *b = &p->streams[j];
        const uint64_t need = mw_stream_need(m, pl, p, j, max_record);
        if (!b->data)
            set |= MW_BIT(VFETCH_EMISSING_STREAM);
        else if (need > SIZE_MAX) /* 32-bit hosts */
            set |= MW_BIT(VFETCH_EOVERFLOW);
        else if (need > mw_binding_bytes(b))
            set |= MW_BIT(VFETCH_ESHORT_STREAM);
    }
    return set ? set : MW_OK_BIT;
}

/* ---- the values of a record -------------------------------------------------------------- */

static uint32_t mw_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint32_t mw_le(const uint8_t *at, unsigned bytes)
{
    uint32_t v = 0;
    for (unsigned k = 0; k < bytes; k++)
        v |= (uint32_t)at[k] << 8 * k;
    return v;
}

static int32_t mw_sext(uint32_t v, unsigned bits)
{
    if (bits >= 32)
        return (int32_t)v;
    const uint32_t sign = 1u << (bits - 1);
    return (int32_t)((v ^ sign) - sign);
}

/* m / (2^k - 1), correctly rounded, for k = 31 or 32 and 0 <= m <= 2^k - 1: the quotient's
   binary expansion is m's k bits repeated (docs/maxwell.md), so (m << k | m) holds its first
   2k bits and a sticky 1 below them settles the rounding. */
static float mw_div_all_ones(uint64_t mv, unsigned k)
{
    if (mv == 0)
        return 0.0f;
    if (mv == (1ull << k) - 1)
        return 1.0f;
    const uint64_t x = (mv << k | mv) | 1;
    const float scale = k == 32 ? 0x1p-64f : 0x1p-62f;
    return (float)x * scale;
}

/* A binary16's value as float32 bits (exact); 0 with *checked = 0 for a NaN. */
static uint32_t mw_half(uint32_t h, int *checked)
{
    const uint32_t s = (h >> 15 & 1) << 31, e = h >> 10 & 31, mant = h & 0x3ff;
    if (e == 31) {
        if (mant) {
            *checked = 0;
            return 0;
        }
        return s | 0x7f800000u;
    }
    if (e == 0)
        return s | mw_float_bits((float)mant * 0x1p-24f);
    return s | (e + 112) << 23 | mant << 13;
}

/* A field of `bits` bits under the attribute's numerical type (docs/maxwell.md "Types →
   conversions"); *checked = 0 where the model does not say. */
static uint32_t mw_convert(const struct mw_attr *a, uint32_t v, unsigned bits, int *checked)
{
    switch (a->type) {
    case VFETCH_MAXWELL_TYPE_UINT: return v;
    case VFETCH_MAXWELL_TYPE_SINT: return (uint32_t)mw_sext(v, bits);
    case VFETCH_MAXWELL_TYPE_USCALED: return mw_float_bits((float)v);
    case VFETCH_MAXWELL_TYPE_SSCALED: return mw_float_bits((float)mw_sext(v, bits));
    case VFETCH_MAXWELL_TYPE_UNORM:
        if (bits == 32)
            return mw_float_bits(mw_div_all_ones(v, 32));
        /* a double quotient of integers below 2^17 rounds to the same float as the exact one */
        return mw_float_bits((float)((double)v / (double)((1u << bits) - 1)));
    case VFETCH_MAXWELL_TYPE_SNORM: {
        const int32_t sv = mw_sext(v, bits);
        const uint32_t top = bits == 32 ? 0x7fffffffu : (1u << (bits - 1)) - 1;
        if (sv < -(int64_t)top)
            return mw_float_bits(-1.0f);
        float f;
        if (bits == 32) {
            f = mw_div_all_ones((uint64_t)(sv < 0 ? -(int64_t)sv : sv), 31);
            f = sv < 0 ? -f : f;
        } else {
            f = (float)((double)sv / (double)top);
        }
        return mw_float_bits(f);
    }
    case VFETCH_MAXWELL_TYPE_FLOAT:
        if (bits == 32)
            return v;
        if (bits == 16)
            return mw_half(v, checked);
        if (bits == 11) /* small floats: exponent on top, as the binary16 with the same bits */
            return mw_half((v >> 6 & 31) << 10 | (v & 63) << 4, checked);
        return mw_half((v >> 5 & 31) << 10 | (v & 31) << 5, checked);
    default:
        *checked = 0;
        return 0;
    }
}

/* The value of fetched component `src` (0..3) of attribute a in the record at rec. */
static uint32_t mw_component(const struct mw_attr *a, const uint8_t *rec, unsigned src, int *checked)
{
    if (a->size == VFETCH_MAXWELL_SIZE_A2B10G10R10) {
        static const uint8_t shift[4] = { 0, 10, 20, 30 }, bits[4] = { 10, 10, 10, 2 };
        const uint32_t w = mw_le(rec + a->offset, 4);
        return mw_convert(a, w >> shift[src] & ((1u << bits[src]) - 1), bits[src], checked);
    }
    if (a->size == VFETCH_MAXWELL_SIZE_B10G11R11) {
        static const uint8_t shift[3] = { 0, 11, 22 }, bits[3] = { 11, 11, 10 };
        const uint32_t w = mw_le(rec + a->offset, 4);
        return mw_convert(a, w >> shift[src] & ((1u << bits[src]) - 1), bits[src], checked);
    }
    const unsigned cb = a->sz.component_bytes;
    return mw_convert(a, mw_le(rec + a->offset + src * cb, cb), 8 * cb, checked);
}

struct mw_buffers {
    uint8_t *data[VFETCH_MAXWELL_STREAMS];
    size_t size[VFETCH_MAXWELL_STREAMS];     /* allocated */
    uint64_t binding[VFETCH_MAXWELL_STREAMS]; /* readable under location/limit */
};

/* Every slot of every record of a successful run. */
static void mw_check_records(const struct mw_model *m, const struct vfetch_maxwell_run_params *p,
                             const struct mw_buffers *bufs, const uint8_t *out)
{
    const size_t stride = m->full ? MW_FULL_STRIDE : 4 * (size_t)m->slots;
    const uint32_t dflt = m->desc.attribute_default;
    for (uint32_t v = 0; v < p->count; v++) {
        const uint64_t pos = (uint64_t)p->first + v;
        const uint32_t entry = p->index_type == VFETCH_INDEX_NONE ? (uint32_t)pos : mw_entry(p, pos);
        const int64_t vrec = mw_vertex_record(p, pos);
        const uint8_t *rec = out + v * stride;
        for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++) {
            if (m->slot_of[n] < 0)
                continue;
            uint32_t got;
            memcpy(&got, rec + 4 * (size_t)m->slot_of[n], 4);
            const int held = vfetch_aam_map_has(&m->bmap, n);
            if (n == VFETCH_AAM_VERTEX_ID && held) {
                FUZZ_REQUIRE(got == entry + p->vertex_id_base, "vertex %u: VERTEX_ID %u, want %u + %u", v,
                             got, entry, p->vertex_id_base);
                continue;
            }
            if (n == VFETCH_AAM_INSTANCE_ID && held) {
                FUZZ_REQUIRE(got == p->instance, "vertex %u: INSTANCE_ID %u, want %u", v, got, p->instance);
                continue;
            }
            const unsigned i = (n - VFETCH_AAM_GENERIC_0) / 4, c = (n - VFETCH_AAM_GENERIC_0) % 4;
            const int generic = n >= VFETCH_AAM_GENERIC_0 && n < VFETCH_AAM_GENERIC_0 + 128;
            if (!generic || m->attr[i].inactive || !(m->mask[i] >> c & 1)) {
                const uint32_t want = vfetch_aam_default_bits(n, dflt);
                FUZZ_REQUIRE(got == want, "vertex %u: attribute %u (slot %d) holds 0x%08x, its default is 0x%08x",
                             v, n, m->slot_of[n], got, want);
                continue;
            }
            const struct mw_attr *a = &m->attr[i];
            const int src = mw_source(a, c);
            uint32_t want;
            int checked = 1;
            if (src < 0) {
                want = mw_missing(a, c);
            } else {
                const unsigned j = a->stream;
                const uint64_t r = m->desc.stream_instance[j] & 1 ? mw_instance_record(m, p, j) : (uint64_t)vrec;
                const uint64_t at = r * (m->desc.stream_format[j] & 0xfff);
                FUZZ_REQUIRE(bufs->data[j] && at + a->offset + a->sz.read_bytes <= bufs->binding[j],
                             "vertex %u: attribute %u reads stream %u record %llu, past its binding of %llu bytes",
                             v, i, j, (unsigned long long)r, (unsigned long long)bufs->binding[j]);
                want = mw_component(a, bufs->data[j] + at, (unsigned)src, &checked);
            }
            FUZZ_REQUIRE(!checked || got == want,
                         "vertex %u: generic %u.%c (word 0x%08x) holds 0x%08x, model 0x%08x", v, i, "xyzw"[c],
                         a->word, got, want);
        }
    }
}

/* ---- the target -------------------------------------------------------------------------- */

static void mw_read_desc(struct fuzz_input *in, struct mw_model *m)
{
    struct vfetch_maxwell_desc *d = &m->desc;
    vfetch_maxwell_desc_init(d);
    const uint8_t flags = fuzz_u8(in);
    d->layout = flags & 1 ? VFETCH_MAXWELL_LAYOUT_COMPACT : VFETCH_MAXWELL_LAYOUT_FULL;
    d->path = flags & 2 ? VFETCH_PATH_PER_OP : VFETCH_PATH_AUTO;
    if ((flags >> 2 & 3) == 3)
        d->layout = (enum vfetch_maxwell_layout)(2 + (flags >> 6));
    if ((flags >> 4 & 3) == 3)
        d->path = (enum vfetch_path)(2 + (flags >> 6));

    const unsigned n = fuzz_u8(in) % 33;
    for (unsigned k = 0; k < n; k++) {
        const unsigned index = fuzz_u8(in) % 32;
        const uint8_t mode = fuzz_u8(in);
        const uint32_t raw = fuzz_u32(in);
        const uint8_t flip = fuzz_u8(in);
        d->attribute[index] = mw_build_word(mode, raw, flip);
    }
    for (unsigned j = 0; j < 4; j++) {
        d->stream_format[j] = fuzz_u16(in) ^ 0x1000u;
        d->stream_instance[j] = fuzz_u8(in);
        d->stream_frequency[j] = fuzz_u8(in);
    }
    const uint8_t others = fuzz_u8(in);
    for (unsigned j = 4; j < VFETCH_MAXWELL_STREAMS; j++)
        d->stream_format[j] = others & 1 ? 0 : 0x1000u | (uint32_t)(others >> 1) * 4;
    const unsigned dmode = fuzz_below(in, 3);
    const uint32_t draw_default = fuzz_u32(in);
    d->attribute_default = dmode == 0 ? VFETCH_AAM_ATTRIBUTE_DEFAULT_RESET : dmode == 1 ? 0 : draw_default;

    const unsigned bmode = fuzz_below(in, 4);
    uint32_t raw[8];
    for (unsigned w = 0; w < 8; w++)
        raw[w] = fuzz_u32(in);
    const uint8_t sys = fuzz_u8(in);
    struct vfetch_aam_map *b = &d->input_bmap;
    memset(b, 0, sizeof *b);
    if (bmode == 1) {
        memcpy(b->words, raw, sizeof raw);
    } else if (bmode >= 2) {
        if (bmode == 2)
            memcpy(&b->words[1], &raw[1], 4 * sizeof raw[0]);
        else
            for (unsigned i = 0; i < VFETCH_MAXWELL_ATTRIBUTES; i++)
                if (raw[0] >> i & 1)
                    for (unsigned c = 0; c < 4; c++)
                        vfetch_aam_map_add(b, VFETCH_AAM_GENERIC_0 + 4 * i + c);
        static const uint16_t sys_first[7] = { VFETCH_AAM_VERTEX_ID, VFETCH_AAM_INSTANCE_ID,
                                               VFETCH_AAM_POSITION_X, VFETCH_AAM_COLOR_FRONT_DIFFUSE,
                                               VFETCH_AAM_FIXED_FNC_TEXTURE_0, VFETCH_AAM_IS_FRONT_FACE,
                                               VFETCH_AAM_CLIP_DISTANCE_0 };
        static const uint8_t sys_len[7] = { 1, 1, 4, 4, 4, 1, 1 };
        for (unsigned k = 0; k < 7; k++)
            if (sys >> k & 1)
                for (unsigned c = 0; c < sys_len[k]; c++)
                    vfetch_aam_map_add(b, sys_first[k] + c);
    }
    for (unsigned i = 0; i < VFETCH_MAXWELL_ATTRIBUTES; i++)
        mw_attr_model(d->attribute[i], &m->attr[i]);
    mw_model_layout(m);
}

/* Fill index entries [first, first + count) that lie within the buffer. */
static void mw_fill_indices(struct fuzz_input *in, struct fuzz_rng *rng, uint8_t *buf, size_t size,
                            unsigned width, const struct mw_draw *dr)
{
    const uint64_t from = (uint64_t)dr->p.first * width;
    if (from >= size)
        return;
    const uint64_t to64 = ((uint64_t)dr->p.first + dr->p.count) * width;
    const size_t to = to64 < size ? (size_t)to64 : (size_t)from + (size - (size_t)from) / width * width;
    if (dr->index_mode == 3) {
        fuzz_fill(in, rng, buf + from, to - (size_t)from);
        return;
    }
    uint32_t i = 0;
    for (size_t at = (size_t)from; at + width <= to; at += width, i++) {
        const uint32_t r = fuzz_rng_next(rng);
        const uint32_t v = dr->index_mode == 0 ? r % (dr->index_range + 1u)
                           : dr->index_mode == 1 ? r : dr->index_range + i;
        if (width == 2) {
            const uint16_t v16 = (uint16_t)v;
            memcpy(buf + at, &v16, 2);
        } else {
            memcpy(buf + at, &v, 4);
        }
    }
}

/* A binding of `size` host bytes: its location and limit registers, never more than size
   bytes readable (an empty binding when location + size - 1 wraps past 2^64). */
static struct vfetch_maxwell_binding mw_binding(const struct mw_binding_block *bb, const uint8_t *data,
                                                size_t size)
{
    struct vfetch_maxwell_binding b = { data, 0, 0 };
    switch (bb->location_mode % 4) {
    case 0: b.location = bb->location & 0xffffffffffull; break;
    case 1: b.location = bb->location; break;
    case 2: b.location = UINT64_MAX - (bb->location & 0xfff); break;
    default: b.location = 0; break;
    }
    uint64_t bytes = size;
    if (bb->limit_mode % 4 == 2)
        bytes = size - (bb->shrink < size ? bb->shrink : size);
    else if (bb->limit_mode % 4 == 3)
        bytes = 0;
    if (bytes == 0) {
        if (b.location == 0)
            b.location = 1 + (uint64_t)bb->shrink;
        b.limit = b.location - 1 - (bb->shrink < b.location ? bb->shrink : b.location - 1);
    } else {
        b.limit = b.location + (bytes - 1); /* may wrap below location: empty */
    }
    FUZZ_REQUIRE(mw_binding_bytes(&b) <= size, "harness: binding larger than its buffer");
    return b;
}

/* The canary (fuzz_canary) of the largest output, built once: filling and checking with
   memcpy/memcmp keeps large outputs cheap under the fuzzer's instrumentation. */
static const uint8_t *mw_canary_pattern(void)
{
    static uint8_t *pattern;
    if (!pattern) {
        pattern = malloc(MW_MAX_OUT + 256);
        FUZZ_REQUIRE(pattern, "out of memory");
        fuzz_canary_fill(pattern, MW_MAX_OUT + 256);
    }
    return pattern;
}

static void mw_canary_fill(uint8_t *p, size_t n)
{
    if (n)
        memcpy(p, mw_canary_pattern(), n);
}

static void mw_require_canary(const uint8_t *p, size_t from, size_t to, const char *what)
{
    if (to > from && memcmp(p + from, mw_canary_pattern() + from, to - from) != 0)
        fuzz_require_canary(p, from, to, what); /* reports the first changed byte */
}

static void mw_run(struct fuzz_input *in, const struct mw_model *m, const struct mw_plans *pl)
{
    struct mw_draw dr;
    mw_read_draw(in, &dr);
    struct vfetch_maxwell_run_params *p = &dr.p;
    struct fuzz_rng rng = fuzz_rng_make(dr.seed);

    /* indices */
    uint8_t *indices = NULL;
    const unsigned width = mw_index_width(p);
    if (width) {
        p->indices_size = mw_size_near(((uint64_t)p->first + p->count) * width, dr.index_delta);
        indices = fuzz_buf_alloc(p->indices_size);
        mw_fill_indices(in, &rng, indices, p->indices_size, width, &dr);
        p->indices = dr.flags & 4 ? NULL : indices;
    } else if ((unsigned)p->index_type > VFETCH_INDEX_U32) {
        p->indices = &rng; /* anything: the type alone is refused */
    }

    /* streams: exactly the bytes the model says the draw reads, give or take */
    const int64_t max_record = mw_max_record(p);
    struct mw_buffers bufs;
    memset(&bufs, 0, sizeof bufs);
    struct vfetch_maxwell_binding *bind = malloc(VFETCH_MAXWELL_STREAMS * sizeof *bind);
    FUZZ_REQUIRE(bind, "out of memory");
    unsigned nread = 0, read[VFETCH_MAXWELL_STREAMS];
    for (unsigned j = 0; j < VFETCH_MAXWELL_STREAMS; j++) {
        /* a stream no op reads: a nonsense binding that must be ignored */
        bind[j] = (struct vfetch_maxwell_binding){ NULL, 5, UINT64_MAX };
        if (!pl->extent[j])
            continue;
        read[nread++] = j;
        const struct mw_binding_block *bb = &dr.block[j < 4 ? j : 4];
        const uint64_t need = mw_stream_need(m, pl, p, j, max_record);
        size_t size;
        switch (bb->size_mode % 4) {
        case 2: size = bb->raw_size & 0xfff; break;
        case 3: size = 0; break;
        default: size = mw_size_near(need, bb->delta); break;
        }
        bufs.data[j] = fuzz_buf_alloc(size);
        bufs.size[j] = size;
        bind[j] = mw_binding(bb, bufs.data[j], size);
        bufs.binding[j] = mw_binding_bytes(&bind[j]);
    }
    for (unsigned k = 0; k < nread; k++)
        fuzz_fill(in, &rng, bufs.data[read[k]], bufs.size[read[k]]);
    if ((dr.flags & 8) && nread)
        bind[read[dr.which % nread]].data = NULL;
    p->streams = dr.flags & 1 ? NULL : bind;

    /* Output: one buffer for the tested plan; after an error the reference and per-op plans
       must fail the same way in it, still untouched; after a success they get their own. */
    const uint64_t stride = m->full ? MW_FULL_STRIDE : 4 * m->slots;
    const uint64_t out_need = p->count ? (uint64_t)(p->count - 1) * stride + 4 * m->slots : 0;
    const int64_t near = (int64_t)out_need + dr.out_delta;
    const size_t out_size = out_need > MW_MAX_OUT ? (uint8_t)dr.out_delta : near < 0 ? 0 : (size_t)near;
    uint8_t *out[3] = { fuzz_buf_alloc(out_size), NULL, NULL };
    mw_canary_fill(out[0], out_size);
    p->out_size = out_size;
    p->out = dr.flags & 2 ? NULL : out[0];

    const unsigned allowed = mw_model_run(m, pl, p, out_size);
    const vfetch_maxwell_plan *plans[3] = { pl->test, pl->ref, pl->per_op };
    static const char *const names[3] = { "tested", "reference", "per-op" };
    const int got = vfetch_maxwell_run(pl->test, p);
    FUZZ_REQUIRE(got <= 0 && got > VFETCH_ECOUNT, "vfetch_maxwell_run returned %d", got);
    fuzz_trace("maxwell run first %u count %u index_type %d offset %lld instance %u base %u streams %u -> %d"
               " (model 0x%x)\n", p->first, p->count, (int)p->index_type, (long long)p->index_offset,
               p->instance, p->base_instance, nread, got, allowed);
    FUZZ_REQUIRE(allowed >> (unsigned)-got & 1, "vfetch_maxwell_run returned %d, the model allows 0x%x", got,
                 allowed);
    FUZZ_REQUIRE(vfetch_maxwell_run(NULL, p) == VFETCH_EINVAL && vfetch_maxwell_run(pl->test, NULL) == VFETCH_EINVAL,
                 "NULL plan or params accepted");
    if (got != VFETCH_OK || p->count == 0 || !p->out) {
        mw_require_canary(out[0], 0, out_size, names[0]);
        for (unsigned k = 1; k < 3; k++) {
            const int again = vfetch_maxwell_run(plans[k], p);
            FUZZ_REQUIRE(again == got, "run results differ: %d (tested), %d (%s)", got, again, names[k]);
            mw_require_canary(out[0], 0, out_size, names[k]);
        }
    } else {
        mw_require_canary(out[0], (size_t)out_need, out_size, "output past the last record");
        mw_check_records(m, p, &bufs, out[0]);
        for (unsigned k = 1; k < 3; k++) {
            out[k] = fuzz_buf_alloc(out_size);
            mw_canary_fill(out[k], out_size);
            p->out = out[k];
            const int again = vfetch_maxwell_run(plans[k], p);
            FUZZ_REQUIRE(again == VFETCH_OK, "the %s plan refused the run (%d)", names[k], again);
            fuzz_require_same(out[k], out[0], out_size, names[k], names[0]);
        }
    }

    for (unsigned k = 0; k < 3; k++)
        fuzz_buf_free(out[k]);
    for (unsigned j = 0; j < VFETCH_MAXWELL_STREAMS; j++)
        fuzz_buf_free(bufs.data[j]);
    free(bind);
    fuzz_buf_free(indices);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = fuzz_input_make(data, size);
    const unsigned levels = fuzz_level_mask(fuzz_u8(&in));

    struct mw_model *m = malloc(sizeof *m);
    FUZZ_REQUIRE(m, "out of memory");
    vfetch_maxwell_desc_init(&m->desc);
    FUZZ_REQUIRE(m->desc.attribute[0] == 0x40 && m->desc.attribute[31] == 0x40 &&
                     m->desc.attribute_default == VFETCH_AAM_ATTRIBUTE_DEFAULT_RESET &&
                     m->desc.layout == VFETCH_MAXWELL_LAYOUT_COMPACT && m->desc.path == VFETCH_PATH_AUTO &&
                     m->desc.stream_format[0] == 0 && mw_map_empty(&m->desc.input_bmap),
                 "vfetch_maxwell_desc_init: not the documented defaults");
    mw_read_desc(&in, m);

    for (unsigned i = 0; i < VFETCH_MAXWELL_ATTRIBUTES; i++)
        mw_check_parse(&m->attr[i]);
    FUZZ_REQUIRE(vfetch_maxwell_attribute_parse(m->desc.attribute[0], NULL) == VFETCH_EINVAL,
                 "parse into NULL accepted");

    const unsigned allowed = mw_model_compile(m);
    struct mw_plans pl;
    memset(&pl, 0, sizeof pl);
    const int err = mw_compile_checked(&m->desc, levels, &pl.test);
    fuzz_trace("maxwell compile layout %d path %d slots %u -> %d (model 0x%x)\n", (int)m->desc.layout,
               (int)m->desc.path, m->slots, err, allowed);
    FUZZ_REQUIRE(allowed >> (unsigned)-err & 1, "vfetch_maxwell_compile returned %d, the model allows 0x%x", err,
                 allowed);
    const int ref_err = mw_compile_checked(&m->desc, 0, &pl.ref);
    FUZZ_REQUIRE(ref_err == err, "compile depends on the level: %d vs %d", err, ref_err);
    struct vfetch_maxwell_desc per_op = m->desc;
    if ((unsigned)per_op.path <= VFETCH_PATH_PER_OP)
        per_op.path = VFETCH_PATH_PER_OP;
    const int per_op_err = mw_compile_checked(&per_op, levels, &pl.per_op);
    FUZZ_REQUIRE(per_op_err == err, "compile depends on the path: %d vs %d", err, per_op_err);
    vfetch_maxwell_plan *dummy = MW_UNTOUCHED;
    FUZZ_REQUIRE(vfetch_maxwell_compile(NULL, &dummy) == VFETCH_EINVAL && dummy == MW_UNTOUCHED &&
                     vfetch_maxwell_compile(&m->desc, NULL) == VFETCH_EINVAL,
                 "compile with NULL arguments");

    if (err == VFETCH_OK) {
        mw_check_plan(m, &pl);
        mw_run(&in, m, &pl);
    }
    vfetch_maxwell_plan_free(pl.test);
    vfetch_maxwell_plan_free(pl.ref);
    vfetch_maxwell_plan_free(pl.per_op);
    free(m);
    return 0;
}
