/*
 * Fuzz target: a hand-built plan description read from the input, checked against a model of
 * vfetch_plan_compile()'s validity written from plan.h, then run (fuzz_plan_run.c) with random
 * first/count/indices/index_offset/max_index/binding sizes at the tested level, the reference
 * and the per-op path.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "fuzz_plan_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* plan.h: each format's container and whether its components share it. */
static const struct {
    uint8_t is_float, packed, max_count, widen8;
} model_format[VFETCH_FORMAT_COUNT] = {
    [VFETCH_FORMAT_FLOAT32] = { 1, 0, 4, 0 },        [VFETCH_FORMAT_FLOAT16] = { 1, 0, 4, 0 },
    [VFETCH_FORMAT_FIXED8] = { 0, 0, 4, 1 },         [VFETCH_FORMAT_FIXED16] = { 0, 0, 4, 0 },
    [VFETCH_FORMAT_FIXED_10_10_10] = { 0, 1, 3, 0 }, [VFETCH_FORMAT_FIXED_11_11_10] = { 0, 1, 3, 0 },
    [VFETCH_FORMAT_RGB565] = { 0, 1, 3, 1 },         [VFETCH_FORMAT_RGBA4444] = { 0, 1, 4, 1 },
    [VFETCH_FORMAT_RGBA6666] = { 0, 1, 4, 1 },       [VFETCH_FORMAT_UINT6] = { 0, 0, 4, 1 },
    [VFETCH_FORMAT_FIXED32] = { 0, 0, 4, 0 },        [VFETCH_FORMAT_FIXED_10_10_10_2] = { 0, 1, 4, 0 },
    [VFETCH_FORMAT_UFLOAT_11_11_10] = { 1, 1, 3, 0 }, [VFETCH_FORMAT_CONSTANT] = { 1, 0, 0, 0 },
};

/* Structural validity of one op (plan.h's field comments), swizzle selectors 6/7 aside. */
static int model_op_valid(const struct vfetch_plan_desc *d, const struct vfetch_op *op)
{
    if ((unsigned)op->format >= VFETCH_FORMAT_COUNT || (unsigned)op->conversion >= VFETCH_CONV_COUNT)
        return 0;
    const int is_float = model_format[op->format].is_float;
    if (is_float != (op->conversion == VFETCH_CONV_FLOAT))
        return 0;
    /* plan.h: 32-bit fields take UINT, SINT, UNORM, SNORM_ZERO_CLAMP, INTEGER, SINTEGER */
    if (op->format == VFETCH_FORMAT_FIXED32 &&
        !(op->conversion == VFETCH_CONV_UINT || op->conversion == VFETCH_CONV_SINT ||
          op->conversion == VFETCH_CONV_UNORM || op->conversion == VFETCH_CONV_SNORM_ZERO_CLAMP ||
          op->conversion == VFETCH_CONV_INTEGER || op->conversion == VFETCH_CONV_SINTEGER))
        return 0;
    if ((op->conversion == VFETCH_CONV_UNORM8 || op->conversion == VFETCH_CONV_PACK_UNORM8) &&
        !model_format[op->format].widen8)
        return 0;
    const int shifted = op->conversion == VFETCH_CONV_UINT || op->conversion == VFETCH_CONV_SINT;
    if (op->shift > (shifted ? 31 : 0))
        return 0;
    const int constant = op->format == VFETCH_FORMAT_CONSTANT; /* no components, words */
    if (constant ? op->count != 0
                 : model_format[op->format].packed ? op->count != model_format[op->format].max_count
                                                   : op->count < 1 || op->count > 4)
        return 0;
    for (unsigned c = 0; c < op->count; c++) {
        if (op->src[c].stream >= d->num_streams || op->src[c].offset > UINT32_MAX - 8)
            return 0;
        if (model_format[op->format].packed && (op->src[c].stream != op->src[0].stream ||
                                                op->src[c].offset != op->src[0].offset))
            return 0;
    }
    if (op->write_mask > 0xf || op->write_mask == 0) /* an op must store something */
        return 0;
    for (unsigned c = 0; c < 4; c++) {
        if (op->swizzle[c] > VFETCH_SWIZZLE_1) /* 6/7 are reported before this is called */
            return 0;
        if ((op->write_mask >> c & 1) && (uint32_t)op->dst_slot + c >= d->out_slots)
            return 0;
    }
    if (op->conversion == VFETCH_CONV_PACK_UNORM8 &&
        (op->write_mask != 1 || op->swizzle[0] != 0 || op->swizzle[1] != 1 ||
         op->swizzle[2] != 2 || op->swizzle[3] != 3))
        return 0;
    return 1;
}

/* What vfetch_plan_compile must return. A reserved selector is reported as such whatever else
   is wrong with the ops (plan.c documents that it outranks structural op errors), but the
   description's own shape and streams are checked before any op. */
static int model_plan_compile(const struct vfetch_plan_desc *d)
{
    if (d->num_streams < 1 || d->num_streams > VFETCH_MAX_STREAMS || d->num_ops < 1 ||
        d->num_ops > VFETCH_MAX_OPS || (unsigned)d->path > VFETCH_PATH_PER_OP ||
        d->out_slots < 1 || d->out_slots > VFETCH_MAX_SLOTS)
        return VFETCH_EPLAN;
    if (d->out_stride && (d->out_stride % 4 || d->out_stride < d->out_slots * 4))
        return VFETCH_EPLAN;
    for (unsigned s = 0; s < d->num_streams; s++) {
        const struct vfetch_stream *st = &d->streams[s];
        if ((unsigned)st->order > VFETCH_ORDER_BIG_ENDIAN || (unsigned)st->step > VFETCH_STEP_INSTANCE)
            return VFETCH_EPLAN;
        if (st->order >= VFETCH_ORDER_SWAP_16 && st->order <= VFETCH_ORDER_SWAP_HALF && st->stride % 4)
            return VFETCH_EPLAN;
    }
    for (unsigned i = 0; i < d->num_ops; i++)
        for (unsigned c = 0; c < 4; c++)
            if (d->ops[i].swizzle[c] == 6 || d->ops[i].swizzle[c] == 7)
                return VFETCH_ERESERVED_SWIZZLE;
    for (unsigned i = 0; i < d->num_ops; i++)
        if (!model_op_valid(d, &d->ops[i]))
            return VFETCH_EPLAN;
    return VFETCH_OK;
}

/* A conversion that fits the format (most inputs), or any value (flag set). */
static enum vfetch_conversion read_conversion(struct fuzz_input *in, enum vfetch_format format,
                                              int raw)
{
    const unsigned v = fuzz_u8(in);
    if (raw || (unsigned)format >= VFETCH_FORMAT_COUNT)
        return (enum vfetch_conversion)(v % (VFETCH_CONV_COUNT + 1));
    if (model_format[format].is_float)
        return VFETCH_CONV_FLOAT;
    return (enum vfetch_conversion)(1 + v % (VFETCH_CONV_COUNT - 1));
}

static void read_op(struct fuzz_input *in, const struct vfetch_plan_desc *d, struct vfetch_op *op)
{
    /* flags: 1 raw conversion, 2 shift on any conversion, 4 a huge offset, 8 distinct sources
       for packed formats, 16 raw swizzle selectors, 32 raw write mask, 64 RGBA8 made valid */
    const uint8_t flags = fuzz_u8(in);
    op->format = (enum vfetch_format)(fuzz_u8(in) % (VFETCH_FORMAT_COUNT + 1));
    op->conversion = read_conversion(in, op->format, flags & 1);
    const uint8_t shift = fuzz_u8(in);
    const int shifted = op->conversion == VFETCH_CONV_UINT || op->conversion == VFETCH_CONV_SINT;
    op->shift = flags & 2 ? shift % 40 : shifted ? shift % 32 : 0;
    const uint8_t count = fuzz_u8(in);
    const int packed = (unsigned)op->format < VFETCH_FORMAT_COUNT && model_format[op->format].packed;
    op->count = packed && !(count & 0x80) ? model_format[op->format].max_count : count % 6;
    if (op->format == VFETCH_FORMAT_CONSTANT && !(count & 0x80)) { /* mostly valid: words */
        op->count = 0;
        op->constant[0] = count & 1 ? 0x3f800000u : 0;
        op->constant[3] = (uint32_t)count * 0x01010101u;
    }
    for (unsigned c = 0; c < 4; c++) {
        const uint8_t stream = fuzz_u8(in), offset = fuzz_u8(in);
        op->src[c].stream = (uint8_t)(stream % (d->num_streams + 1));
        op->src[c].offset = flags & 4 && c == 0 ? UINT32_MAX - 12 + (offset & 7) : offset;
        if (c && packed && !(flags & 8))
            op->src[c] = op->src[0];
    }
    const uint16_t sw = fuzz_u16(in);
    for (unsigned c = 0; c < 4; c++) {
        const unsigned sel = sw >> (3 * c) & 7;
        op->swizzle[c] = (uint8_t)(flags & 16 ? sel : sel % 6);
    }
    const uint8_t mask = fuzz_u8(in);
    op->write_mask = flags & 32 ? mask : mask & 0xf;
    op->dst_slot = (uint16_t)(fuzz_u16(in) % (VFETCH_MAX_SLOTS + 4));
    if (flags & 64 && op->conversion == VFETCH_CONV_PACK_UNORM8) {
        for (unsigned c = 0; c < 4; c++)
            op->swizzle[c] = (uint8_t)c;
        op->write_mask = 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = fuzz_input_make(data, size);
    const unsigned levels = fuzz_level_mask(fuzz_u8(&in));

    struct vfetch_plan_desc d;
    vfetch_plan_desc_init(&d);
    d.num_streams = fuzz_u8(&in) % (VFETCH_MAX_STREAMS + 2);
    d.num_ops = fuzz_u8(&in) % (VFETCH_MAX_OPS + 2);
    d.out_slots = fuzz_u16(&in) % (VFETCH_MAX_SLOTS + 4);
    const uint8_t stride_mode = fuzz_u8(&in);
    const uint16_t stride_value = fuzz_u16(&in);
    d.out_stride = stride_mode % 4 == 0   ? 0
                   : stride_mode % 4 == 1 ? d.out_slots * 4 + 4u * (stride_value % 64)
                   : stride_mode % 4 == 2 ? stride_value
                                          : (uint32_t)stride_value * 65537u;
    d.path = (enum vfetch_path)(fuzz_u8(&in) % 3);
    for (unsigned s = 0; s < VFETCH_MAX_STREAMS && s < d.num_streams; s++) {
        const uint16_t stride = fuzz_u16(&in);
        d.streams[s].stride = stride & 0x8000 ? (uint32_t)stride * 65537u : stride % 300u;
        d.streams[s].order = (enum vfetch_byte_order)(fuzz_u8(&in) % 6);
        const uint8_t step = fuzz_u8(&in);
        d.streams[s].step = (enum vfetch_step)(step % 5);
        d.streams[s].divisor = step >> 5; /* instanced streams: 0..7 */
    }
    for (unsigned i = 0; i < VFETCH_MAX_OPS && i < d.num_ops; i++)
        read_op(&in, &d, &d.ops[i]);
    const unsigned locations = fuzz_u8(&in) % (VFETCH_MAX_LOCATIONS + 1);
    for (unsigned l = 0; l < locations; l++) {
        const uint8_t loc = fuzz_u8(&in);
        d.location_slot[loc % VFETCH_MAX_LOCATIONS] = (int16_t)(fuzz_u16(&in) % 300u) - 20;
    }

    const int want = model_plan_compile(&d);
    struct fuzz_plan_set set;
    const int got = fuzz_plan_set_create(&set, &d, levels);
    fuzz_trace("plan streams %u ops %u slots %u stride %u -> %d (model %d)\n", d.num_streams,
               d.num_ops, d.out_slots, d.out_stride, got, want);
    FUZZ_REQUIRE(got == want, "vfetch_plan_compile returned %d, the model says %d", got, want);
    if (got == VFETCH_OK)
        fuzz_plan_run(&in, &set);
    fuzz_plan_set_free(&set);
    return 0;
}
