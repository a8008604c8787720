/*
 * Lowering a plan to a record program (see record.h). Runs once per plan; everything the SIMD
 * loop needs per vector is decided here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

/* What one output slot receives; ops run in order, so a later op's write replaces it. */
/* SLOT_RGBA8: a PACK_UNORM8 slot of 8-bit fields, its bytes moved as they are (widening an
   8-bit field changes nothing), a missing alpha OR-ed in as 255. SLOT_PACK8: a PACK_UNORM8
   slot of the narrower fields of one packed container, unpacked lane by lane. */
enum slot_kind {
    SLOT_KEEP, SLOT_CONST0, SLOT_CONST1, SLOT_RAW32, SLOT_HALF, SLOT_FIXED, SLOT_INT, SLOT_RGBA8,
    SLOT_PACK8
};

struct slot_source {
    enum slot_kind kind;
    const struct vfetch_op_exec *op;
    const struct vfetch_lane *lane;
    uint32_t word; /**< SLOT_CONST1: the constant's bits (1.0, or a constant op's word) */
};

static void record_slot_sources(const struct vfetch_plan *plan, struct slot_source *slots)
{
    for (unsigned s = 0; s < plan->desc.out_slots; s++)
        slots[s] = (struct slot_source){ SLOT_KEEP, NULL, NULL, 0 };
    for (unsigned o = 0; o < plan->desc.num_ops; o++) {
        const struct vfetch_op_exec *op = &plan->ops[o];
        for (unsigned c = 0; c < 4; c++) {
            if (!(op->write_mask >> c & 1))
                continue;
            struct slot_source *slot = &slots[op->dst_slot + c];
            const unsigned sel = op->swizzle[c];
            slot->op = op;
            slot->lane = NULL;
            slot->word = VFETCH_ONE_BITS;
            if (op->format == VFETCH_FORMAT_CONSTANT) {
                slot->word = op->constant[c];
                slot->kind = op->constant[c] ? SLOT_CONST1 : SLOT_CONST0;
            } else if (op->conversion == VFETCH_CONV_PACK_UNORM8) { /* write mask 1, identity */
                slot->lane = &op->lane[0];
                slot->kind = op->format == VFETCH_FORMAT_FIXED8 ? SLOT_RGBA8 : SLOT_PACK8;
            } else if (sel == VFETCH_SWIZZLE_0 || (sel < 3 && sel >= op->count))
                slot->kind = SLOT_CONST0;
            else if (sel == VFETCH_SWIZZLE_1 || sel >= op->count) /* missing w = 1 */
                slot->kind = SLOT_CONST1;
            else {
                slot->lane = &op->lane[sel];
                slot->kind = op->format == VFETCH_FORMAT_FLOAT32        ? SLOT_RAW32
                             : op->format == VFETCH_FORMAT_FLOAT16      ? SLOT_HALF
                             : op->conversion == VFETCH_CONV_INTEGER ||
                                       op->conversion == VFETCH_CONV_SINTEGER ? SLOT_INT
                                                                              : SLOT_FIXED;
            }
        }
    }
}

/* 2^e, exact: its bits where it is a normal float (every use here), ldexpf elsewhere. */
static float record_pow2(int e)
{
    if (e < -126 || e > 127)
        return ldexpf(1.0f, e);
    const uint32_t bits = (uint32_t)(e + 127) << 23;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static unsigned record_gcd(unsigned a, unsigned b)
{
    while (b) {
        const unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* PACK8 lanes hold their container in two 16-bit slices, one per half of the lane: half h
   (output bytes 2h and 2h + 1, channels 2h and 2h + 1) takes the 16 bits of the container
   from its byte s on, s the half's slice (record_pack8_slice), so that both its fields lie in
   it. Returns s, or -1 if the half's fields span more than 16 bits. */
static int record_pack8_slice(const struct vfetch_op_exec *op, unsigned h)
{
    unsigned lo = 32, hi = 0;
    for (unsigned c = 2 * h; c < 2 * h + 2 && c < op->count; c++) {
        const unsigned shift = op->lane[c].field_shift, top = shift + op->lane[c].field_bits;
        lo = shift < lo ? shift : lo;
        hi = top > hi ? top : hi;
    }
    if (lo > hi)
        return 0; /* no field in this half */
    const unsigned first = lo / 8;
    return hi <= 8 * first + 16 ? (int)first : -1;
}

/* Whether a fixed-point slot's container goes to the bottom of its lane, zero-extended: an
   unsigned field that fills a container of one or two bytes, converted as UINT or UNORM
   (UNORM8 of 8 bits is UNORM). Its value then converts exactly as it is, with no shift, sign
   flip or bias; every other fixed-point container goes to the lane's top. */
static int record_fixed_at_bottom(const struct slot_source *slot)
{
    if (slot->kind != SLOT_FIXED)
        return 0;
    const struct vfetch_lane *lane = slot->lane;
    const enum vfetch_conversion c = slot->op->conversion;
    return lane->nbytes <= 2 && lane->field_shift == 0 && lane->field_bits == 8 * lane->nbytes &&
           (c == VFETCH_CONV_UINT || c == VFETCH_CONV_UNORM ||
            (c == VFETCH_CONV_UNORM8 && lane->field_bits == 8));
}

/* Bytes of one lane: for each of its 4 output bytes, the source byte (relative to the group's
   first record) or -1 for zero. Returns the number of source bytes. */
static unsigned record_lane_bytes(const struct slot_source *slot, const struct vfetch_plan *plan,
                                  unsigned vertex, int64_t bytes[4])
{
    for (unsigned b = 0; b < 4; b++)
        bytes[b] = -1;
    if (!slot->lane)
        return 0;
    const struct vfetch_lane *lane = slot->lane;
    const uint64_t rec = (uint64_t)vertex * plan->vertex_stride[lane->stream];
    if (slot->kind == SLOT_RGBA8) { /* byte c of the slot is component c's byte */
        for (unsigned c = 0; c < slot->op->count; c++)
            bytes[c] = (int64_t)(rec + slot->op->lane[c].byte_off[0]);
        return slot->op->count;
    }
    if (slot->kind == SLOT_PACK8) { /* two 16-bit slices of the container (above) */
        unsigned used = 0;
        for (unsigned h = 0; h < 2; h++) {
            const int first = record_pack8_slice(slot->op, h);
            for (unsigned b = 0; b < 2; b++)
                if (first >= 0 && first + b < lane->nbytes) {
                    bytes[2 * h + b] = (int64_t)(rec + lane->byte_off[first + b]);
                    used++;
                }
        }
        return used;
    }
    const unsigned used = slot->kind == SLOT_HALF ? 2 : lane->nbytes;
    /* Integer fields keep only the bits of their field (raw_and): they start at bit 0. */
    /* Fixed-point containers go to the top of the lane, so that a whole-byte field needs no
       shift at all, but unsigned whole fields to the bottom (record_fixed_at_bottom); float
       bits and halves to the bottom. */
    const unsigned at = slot->kind == SLOT_FIXED && !record_fixed_at_bottom(slot) ? 4 - used : 0;
    for (unsigned b = 0; b < used; b++)
        bytes[at + b] = (int64_t)(rec + lane->byte_off[b]);
    return used;
}

/* Fill the per-lane arithmetic of lane i of a vector from its slot. */
static void record_lane_params(struct vfetch_rp_vector *v, unsigned i, const struct slot_source *slot)
{
    v->mul[i] = 1.0f;
    v->add[i] = 0.0f;
    float div = 1.0f;
    v->lo[i] = -INFINITY;
    v->raw_and[i] = -1;
    v->widen_mask[i] = -1;
    v->store_sel[i] = slot->kind == SLOT_KEEP ? 0 : -1;
    if (slot->kind == SLOT_KEEP) {
        v->passes |= VFETCH_RP_KEEP;
        return;
    }
    if (slot->kind == SLOT_CONST1)
        v->raw_or[i] = (int32_t)slot->word;
    if ((slot->kind == SLOT_RGBA8 || slot->kind == SLOT_PACK8) && slot->op->count < 4)
        v->raw_or[i] = (int32_t)0xff000000u; /* missing alpha: 255 (missing G, B: 0) */
    if (slot->kind == SLOT_PACK8) {
        /* Per 16-bit half of the lane (record_pack8_slice): each channel's field moved to
           the top of the half (a multiply by 2^(16 - p - n), p its bit in the slice) and kept
           (mask), then widened into the half's low byte by one high multiply by 2^8 +
           2^(8 - n) (record.h); the high-byte channel's then shifted up. A missing channel has
           mask 0 (alpha 255 comes from raw_or). */
        v->passes |= VFETCH_RP_PACK8;
        v->pack_sel[i] = -1;
        for (unsigned h = 0; h < 2; h++) {
            const unsigned first = (unsigned)record_pack8_slice(slot->op, h); /* lowering checked */
            for (unsigned b = 0; b < 2; b++) {
                const unsigned c = 2 * h + b, j = 2 * i + h;
                uint16_t mul = 0, mask = 0, shr = 0;
                if (c < slot->op->count) {
                    const struct vfetch_lane *field = &slot->op->lane[c];
                    const unsigned n = field->field_bits, p = field->field_shift - 8 * first;
                    mul = (uint16_t)(1u << (16 - p - n));
                    mask = (uint16_t)(0xffffu << (16 - n));
                    shr = (uint16_t)(256u + (1u << (8 - n)));
                }
                v->pack_mul[b][j] = mul;
                v->pack_mask[b][j] = mask;
                v->pack_shr[b][j] = shr;
            }
        }
        return;
    }
    if (slot->kind == SLOT_CONST0 || slot->kind == SLOT_CONST1 || slot->kind == SLOT_RAW32 ||
        slot->kind == SLOT_INT || slot->kind == SLOT_RGBA8)
        v->passes |= VFETCH_RP_RAW;
    if (slot->kind == SLOT_INT) {
        /* a field narrower than its container keeps its bits; a signed one narrower than 32
           bits is also sign-extended */
        const unsigned n = slot->lane->field_bits;
        const int sext = slot->op->conversion == VFETCH_CONV_SINTEGER && n < 32;
        if (n < 8 * slot->lane->nbytes || sext) {
            v->raw_and[i] = (int32_t)((1u << n) - 1);
            v->passes |= VFETCH_RP_MASK;
        }
        if (sext)
            v->raw_sign[i] = (int32_t)(1u << (n - 1));
    }
    if (slot->kind == SLOT_HALF) {
        v->half_sel[i] = -1;
        v->passes |= VFETCH_RP_HALF;
    }
    if (slot->kind != SLOT_FIXED)
        return;

    const struct vfetch_op_exec *op = slot->op;
    unsigned n = slot->lane->field_bits;
    v->passes |= VFETCH_RP_FIXED;
    v->fixed_sel[i] = -1;
    if (record_fixed_at_bottom(slot)) { /* the field as it is (exact below 2^24): no shift,
                                           flip or bias */
        v->shl_mul[i] = 1;
        v->fmask[i] = -1;
        if (op->conversion == VFETCH_CONV_UINT)
            v->mul[i] = record_pow2(-(int)op->shift);
        else
            div = (float)((1u << n) - 1);
        v->div[i] = div;
        if (div != 1.0f)
            v->passes |= VFETCH_RP_DIV;
        return;
    }
    /* The container sits in the top bytes of the lane (record_lane_bytes), so its field's top
       bit is at 32 - shl; shifting left by shl puts it at bit 31. */
    const unsigned top_of_field = slot->lane->field_shift + n + 8 * (4 - slot->lane->nbytes);
    const unsigned shl = 32 - top_of_field;
    const int is_signed = op->conversion != VFETCH_CONV_UINT && op->conversion != VFETCH_CONV_UNORM &&
                          op->conversion != VFETCH_CONV_UNORM8;
    if (shl || slot->lane->field_shift)
        v->passes |= VFETCH_RP_SHIFT; /* packed fields: shift and clear the bits below */
    v->shl[i] = (int32_t)shl;
    v->shl_mul[i] = (int32_t)(1u << shl);
    v->fmask[i] = (int32_t)~((1u << (32 - n)) - 1);
    /* An unsigned field gets its top bit flipped, so that the signed conversion sees
       u - 2^(n-1); adding 2^(n-1) back afterwards is exact. */
    v->xmask[i] = is_signed ? 0 : (int32_t)0x80000000u;
    enum vfetch_conversion conversion = op->conversion;
    if (conversion == VFETCH_CONV_UNORM8) {
        /* 4 and 8 bits: widening is exact scaling (v * 17 / 255 = v / 15): plain UNORM. */
        if (n != 4 && n != 8) {
            v->widen_shr[i] = (int32_t)n;
            v->widen_mul[i] = (int32_t)(1u << (8 - n));
            v->widen_mask[i] = (int32_t)0xff000000u;
            v->passes |= VFETCH_RP_WIDEN | VFETCH_RP_SHIFT;
            n = 8; /* from here on an unsigned 8-bit field at the top of the lane */
        }
        conversion = VFETCH_CONV_UNORM;
    }
    const float bias = is_signed ? 0.0f : record_pow2((int)n - 1);
    /* After the conversion the lane holds (v - bias) * 2^(32-n), exactly. */
    v->mul[i] = record_pow2(-(int)(32 - n));
    v->add[i] = bias;
    switch (conversion) {
    case VFETCH_CONV_UINT:
    case VFETCH_CONV_SINT:
        v->mul[i] = record_pow2(-(int)(32 - n) - op->shift);
        v->add[i] = bias * record_pow2(-(int)op->shift);
        break;
    case VFETCH_CONV_UNORM: div = (float)((1u << n) - 1); break;
    case VFETCH_CONV_SNORM_ZERO: div = (float)((1u << (n - 1)) - 1); break;
    case VFETCH_CONV_SNORM_ZERO_CLAMP:
        div = (float)((1u << (n - 1)) - 1);
        v->lo[i] = -1.0f;
        /* the clamp runs with the division (a 2-bit field's is by 1): see VFETCH_RP_CLAMP */
        v->passes |= VFETCH_RP_DIV | VFETCH_RP_CLAMP;
        break;
    case VFETCH_CONV_SNORM_NO_ZERO:
        v->mul[i] = record_pow2(-(int)(31 - n)); /* 2v */
        v->add[i] = 1.0f;                        /* 2v + 1 */
        div = (float)((1u << n) - 1);
        break;
    default: break;
    }
    v->div[i] = div;
    if (div != 1.0f)
        v->passes |= VFETCH_RP_DIV;
}

/*
 * Place a run of lanes (one 128-bit lane, or the whole vector) in one window of `size` bytes.
 * first_lane..first_lane+nlanes-1 are vector lanes; slots[] their sources; vertex[] the group
 * vertex of each. Returns 0 if the bytes do not fit one stream and one window.
 */
static int record_window(const struct vfetch_plan *plan, struct vfetch_rp_vector *v,
                         const struct slot_source *const *slots, const unsigned *vertex,
                         unsigned first_lane, unsigned nlanes, unsigned size, unsigned win_index,
                         const uint64_t *limit, uint32_t *window_end)
{
    int64_t lo = INT64_MAX, hi = -1;
    int stream = -1;
    for (unsigned i = first_lane; i < first_lane + nlanes; i++) {
        int64_t bytes[4];
        if (!record_lane_bytes(slots[i], plan, vertex[i], bytes))
            continue;
        if (stream >= 0 && stream != slots[i]->lane->stream)
            return 0;
        stream = slots[i]->lane->stream;
        for (unsigned b = 0; b < 4; b++) {
            if (bytes[b] < 0)
                continue;
            lo = bytes[b] < lo ? bytes[b] : lo;
            hi = bytes[b] > hi ? bytes[b] : hi;
        }
    }
    if (stream < 0) { /* nothing to load: every lane constant or kept */
        v->stream[win_index] = 0xff;
        for (unsigned i = first_lane; i < first_lane + nlanes; i++)
            for (unsigned b = 0; b < 4; b++)
                v->ctrl[4 * i + b] = size == 16 ? 0x80 : 0;
        return 1;
    }
    if (hi - lo >= (int64_t)size || hi > (int64_t)UINT32_MAX - size)
        return 0;
    /* Moved back so as not to reach past the group's last used byte where the group is long
       enough: [lo, hi] stays inside, since hi < limit and hi - lo < size. */
    if (lo + (int64_t)size > (int64_t)limit[stream] && limit[stream] >= size)
        lo = (int64_t)limit[stream] - size;
    v->stream[win_index] = (uint8_t)stream;
    v->src_off[win_index] = (uint32_t)lo;
    if ((uint32_t)lo + size > window_end[stream])
        window_end[stream] = (uint32_t)lo + size;
    v->passes |= VFETCH_RP_LOAD;
    for (unsigned i = first_lane; i < first_lane + nlanes; i++) {
        int64_t bytes[4];
        record_lane_bytes(slots[i], plan, vertex[i], bytes);
        if (slots[i]->kind == SLOT_HALF) {
            for (unsigned b = 0; b < 2; b++) {
                const unsigned at = size == 16 ? 16 * (i / 4) + 2 * (i % 4) + b : 2 * i + b;
                v->hctrl[at] = (uint8_t)(bytes[b] - lo);
                if (size != 16)
                    v->hzmask |= 1ull << at;
            }
        }
        for (unsigned b = 0; b < 4; b++) {
            const unsigned at = 4 * i + b;
            if (bytes[b] < 0) {
                v->ctrl[at] = size == 16 ? 0x80 : 0;
            } else {
                /* pshufb indexes within the 128-bit lane; vpermb within the whole window */
                v->ctrl[at] = (uint8_t)(bytes[b] - lo);
                if (size != 16)
                    v->zmask |= 1ull << at;
            }
        }
    }
    return 1;
}

/* The record bytes each stream's lanes use: [record_lo, record_hi), (0, 0) where none. */
static void record_used_bytes(const struct vfetch_plan *plan, const struct slot_source *slots,
                              struct vfetch_record_prog *prog)
{
    const struct vfetch_plan_desc *d = &plan->desc;
    for (unsigned s = 0; s < d->num_streams; s++)
        prog->record_lo[s] = UINT32_MAX;
    for (unsigned slot = 0; slot < d->out_slots; slot++) {
        int64_t bytes[4];
        if (!record_lane_bytes(&slots[slot], plan, 0, bytes))
            continue;
        const unsigned s = slots[slot].lane->stream;
        for (unsigned b = 0; b < 4; b++) {
            if (bytes[b] < 0)
                continue;
            if ((uint64_t)bytes[b] < prog->record_lo[s])
                prog->record_lo[s] = (uint32_t)bytes[b];
            if ((uint64_t)bytes[b] + 1 > prog->record_hi[s])
                prog->record_hi[s] = (uint32_t)bytes[b] + 1;
        }
    }
    for (unsigned s = 0; s < d->num_streams; s++)
        if (prog->record_hi[s] == 0)
            prog->record_lo[s] = 0;
}

/*
 * The proof that staging the used bytes stays inside the windows, and that a group whose
 * records are all in the binding may run in place when its windows were moved back: the last
 * vertex of a group ends at (group - 1) * stride + record_hi, which some window loads, so it
 * is at most window_end. Returns 0 if not (a lowering bug: the plan then goes op by op rather
 * than overrun a stage).
 */
static int record_windows_cover(const struct vfetch_plan *plan,
                                const struct vfetch_record_prog *prog)
{
    const struct vfetch_plan_desc *d = &plan->desc;
    for (unsigned s = 0; s < d->num_streams; s++) {
        if (prog->record_hi[s] == 0) {
            if (prog->window_end[s])
                return 0;
            continue;
        }
        const uint64_t last = (uint64_t)(prog->group - 1) * plan->vertex_stride[s] + prog->record_hi[s];
        if (!prog->window_end[s] || last > prog->window_end[s])
            return 0;
    }
    return 1;
}

static int record_same_container(const struct vfetch_lane *a, const struct vfetch_lane *b)
{
    if (a->nbytes != b->nbytes)
        return 0;
    for (unsigned k = 0; k < a->nbytes; k++)
        if (a->byte_off[k] != b->byte_off[k])
            return 0;
    return 1;
}

/* A vector's PACK8 lanes as PACK8_LUT (lib/record.h) where every field has 4..6 bits; the
   bytes of other lanes read the table's zeros (their result is not selected). */
static void record_pack8_lut(struct vfetch_rp_vector *v, const struct slot_source *const *lane_slot,
                             unsigned lanes)
{
    for (unsigned i = 0; i < lanes; i++) {
        if (lane_slot[i]->kind != SLOT_PACK8)
            continue;
        const struct vfetch_op_exec *op = lane_slot[i]->op;
        for (unsigned c = 0; c < op->count; c++)
            if (op->lane[c].field_bits < 4 || op->lane[c].field_bits > 6)
                return;
    }
    memset(v->pack_bmask, 0, sizeof v->pack_bmask);
    memset(v->pack_base, VFETCH_RP_PACK8_ZERO, sizeof v->pack_base);
    memset(v->pack_bit, 0, sizeof v->pack_bit);
    for (unsigned i = 0; i < lanes; i++) {
        if (lane_slot[i]->kind != SLOT_PACK8)
            continue;
        const struct vfetch_op_exec *op = lane_slot[i]->op;
        for (unsigned c = 0; c < op->count; c++) {
            const unsigned n = op->lane[c].field_bits, at = 4 * i + c, h = c / 2;
            /* the field's bit in the lane's qword: its half's slice (record_lane_bytes) */
            const unsigned first = (unsigned)record_pack8_slice(op, h);
            v->pack_bit[at] =
                (uint8_t)(32 * (i % 2) + 16 * h + op->lane[c].field_shift - 8 * first);
            v->pack_bmask[at] = (uint8_t)((1u << n) - 1);
            v->pack_base[at] = n == 6 ? VFETCH_RP_PACK8_BASE6
                               : n == 5 ? VFETCH_RP_PACK8_BASE5 : VFETCH_RP_PACK8_BASE4;
        }
    }
    v->passes = (uint16_t)((v->passes & ~VFETCH_RP_PACK8) | VFETCH_RP_PACK8_LUT);
}

/* Vectors with the same passes made consecutive (output order does not matter: each vector
   writes its own bytes), each run's length on its first vector: one dispatch per run. */
static void record_group_runs(struct vfetch_record_prog *prog)
{
    struct vfetch_rp_vector *vec = prog->vec;
    for (unsigned i = 0; i < prog->num_vectors;) {
        unsigned len = 1;
        for (unsigned j = i + 1; j < prog->num_vectors; j++) {
            if (vec[j].passes != vec[i].passes)
                continue;
            if (j != i + len) {
                struct vfetch_rp_vector t = vec[i + len];
                vec[i + len] = vec[j];
                vec[j] = t;
            }
            len++;
        }
        vec[i].run = (uint16_t)len;
        i += len;
    }
}

struct vfetch_record_prog *vfetch_record_lower(const struct vfetch_plan *plan, unsigned lanes,
                                               int wide_windows)
{
    const struct vfetch_plan_desc *d = &plan->desc;
    if (plan->out_stride % 4 || (lanes != 4 && lanes != 8 && lanes != 16))
        return NULL;
    /* The group's output records are one flat run of 32-bit slots (any stride, packed layouts
       included); a group is the fewest vertices whose slots fill whole vectors. lanes is a
       power of two, so is every divisor of it. */
    const unsigned record_slots = plan->out_stride / 4;
    const unsigned group = lanes / record_gcd(record_slots, lanes);
    const unsigned num_vectors = group * record_slots / lanes;
    const unsigned per_vector = lanes / 4; /* 128-bit lanes per vector */
    if (num_vectors > 1024)
        return NULL;

    /* RGBA8 packing of fields in several streams (or, narrower than 8 bits, in several
       containers) would need more than one window per lane; integer fields above bit 0 would
       need a right shift. */
    for (unsigned o = 0; o < d->num_ops; o++) {
        const struct vfetch_op_exec *op = &plan->ops[o];
        if (op->conversion == VFETCH_CONV_PACK_UNORM8) {
            /* 8-bit fields: any bytes of one stream; narrower ones: one container, whose
               halves' fields each lie in 16 bits (record_pack8_slice). */
            const int bytes = op->format == VFETCH_FORMAT_FIXED8;
            for (unsigned c = 1; c < op->count; c++)
                if (op->lane[c].stream != op->lane[0].stream ||
                    (!bytes && !record_same_container(&op->lane[c], &op->lane[0])))
                    return NULL;
            if (!bytes && (record_pack8_slice(op, 0) < 0 || record_pack8_slice(op, 1) < 0))
                return NULL;
        }
        for (unsigned c = 0; c < op->count; c++)
            if ((op->conversion == VFETCH_CONV_INTEGER || op->conversion == VFETCH_CONV_SINTEGER) &&
                op->lane[c].field_shift)
                return NULL;
        /* Not (yet) in the program: the unsigned small floats (no binary16 in memory to
           load), and the float conversions of 32-bit fields (one int -> float step cannot
           hold them exactly). */
        if (op->format == VFETCH_FORMAT_UFLOAT_11_11_10)
            return NULL;
        if (op->format == VFETCH_FORMAT_FIXED32 && op->conversion != VFETCH_CONV_INTEGER &&
            op->conversion != VFETCH_CONV_SINTEGER)
            return NULL;
    }

    struct slot_source slots[VFETCH_MAX_SLOTS];
    record_slot_sources(plan, slots);
    const struct slot_source keep = { SLOT_KEEP, NULL, NULL, 0 };

    /* The vectors' tables 64-byte aligned (struct vfetch_rp_vector): so is the allocation. */
    const size_t bytes =
        sizeof(struct vfetch_record_prog) + num_vectors * sizeof(struct vfetch_rp_vector);
    struct vfetch_record_prog *prog = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!prog)
        return NULL;
    /* the header now, each vector when its turn comes: a plan the lowering refuses (at its
       first vectors, mostly) zeroes no more than it looked at */
    memset(prog, 0, sizeof *prog);
    prog->lanes = lanes;
    prog->wide_windows = wide_windows != 0;
    prog->group = group;
    while ((1u << prog->group_shift) < group)
        prog->group_shift++;
    prog->num_vectors = num_vectors;
    /* Steps from one group to the next, fixed by the plan: a draw forms none of them. Only a
       32-bit host with strides of 2^28 bytes and more has a step that does not fit size_t:
       such a plan goes op by op. */
    for (unsigned s = 0; s < d->num_streams; s++) {
        const uint64_t step = (uint64_t)group * plan->vertex_stride[s];
        if (step > SIZE_MAX) {
            free(prog);
            return NULL;
        }
        prog->group_step[s] = (size_t)step;
    }
    if ((uint64_t)group * plan->out_stride > SIZE_MAX) {
        free(prog);
        return NULL;
    }
    prog->dst_step = (size_t)group * plan->out_stride;
    /* groups per block: as many as 16 KiB of output holds, 1..64 (record.h) */
    const uint64_t fit = 16384 / ((uint64_t)group * plan->out_stride);
    prog->block = fit < 1 ? 1 : fit > 64 ? 64 : (uint32_t)fit;
    /* One vector: no other pass shares a block's bytes in L1, so the whole draw is one block
       (each return to the executor's block loop reloads its stack under the block's stores in
       flight, which alias it modulo 4 KiB: docs/decisions.md, "Measured choices"). */
    if (num_vectors == 1)
        prog->block = UINT32_MAX;
    /* Windows end at most at the group's last used byte where they can (see record_window):
       then a group whose records lie in the binding runs in place, with no staging copy. */
    record_used_bytes(plan, slots, prog);
    uint64_t limit[VFETCH_MAX_STREAMS];
    for (unsigned s = 0; s < d->num_streams; s++)
        limit[s] = (uint64_t)(group - 1) * plan->vertex_stride[s] + prog->record_hi[s];

    for (unsigned k = 0; k < num_vectors; k++) {
        struct vfetch_rp_vector *v = &prog->vec[k];
        memset(v, 0, sizeof *v);
        const struct slot_source *lane_slot[VFETCH_RP_LANES];
        unsigned lane_vertex[VFETCH_RP_LANES];
        for (unsigned i = 0; i < lanes; i++) {
            const unsigned flat = k * lanes + i; /* slot within the group's output */
            const unsigned slot = flat % record_slots;
            lane_vertex[i] = flat / record_slots;
            lane_slot[i] = slot < d->out_slots ? &slots[slot] : &keep;
            record_lane_params(v, i, lane_slot[i]);
        }
        v->dst_off = k * 4 * lanes;
        if (wide_windows && (v->passes & VFETCH_RP_PACK8)) /* VBMI: vpmultishiftqb, vpermt2b */
            record_pack8_lut(v, lane_slot, lanes);
        if ((v->passes & VFETCH_RP_FIXED) &&
            (v->passes & (VFETCH_RP_RAW | VFETCH_RP_MASK | VFETCH_RP_HALF | VFETCH_RP_PACK8 |
                          VFETCH_RP_PACK8_LUT)))
            v->passes |= VFETCH_RP_BLEND;
        memset(v->hctrl, 0x80, sizeof v->hctrl);
        int ok = 0;
        if (wide_windows) {
            /* One window for the whole vector if the bytes allow, else per 128-bit lane; the
               smallest that holds them, so that it can end inside a short group (a window
               longer than the group reads past a draw that ends there: the group is staged). */
            static const enum vfetch_rp_window whole[] = {
                VFETCH_RP_WINDOW_32, VFETCH_RP_WINDOW_64, VFETCH_RP_WINDOW_128
            };
            memset(v->hctrl, 0, sizeof v->hctrl); /* vpermb: unused bytes masked */
            for (unsigned w = 0; w < 3 && !ok; w++) {
                /* (a window that does not fit changes nothing, window_end included: no copy
                   of the vector to try it on) */
                if (record_window(plan, v, lane_slot, lane_vertex, 0, lanes,
                                  vfetch_rp_window_bytes(whole[w]), 0, limit, prog->window_end)) {
                    v->window = (uint8_t)whole[w];
                    ok = 1;
                }
            }
        }
        if (!ok) {
            v->window = VFETCH_RP_WINDOW_16;
            v->zmask = 0;
            v->hzmask = 0;
            memset(v->hctrl, 0x80, sizeof v->hctrl);
            ok = 1;
            for (unsigned q = 0; q < per_vector && ok; q++)
                ok = record_window(plan, v, lane_slot, lane_vertex, 4 * q, 4, 16, q, limit,
                                   prog->window_end);
            /* Lanes with nothing to load borrow a loaded lane's window: always in bounds. */
            for (unsigned q = 0; q < per_vector && ok; q++) {
                if (v->stream[q] != 0xff)
                    continue;
                for (unsigned r = 0; r < per_vector; r++)
                    if (v->stream[r] != 0xff) {
                        v->stream[q] = v->stream[r];
                        v->src_off[q] = v->src_off[r];
                        break;
                    }
            }
        }
        if (!ok) {
            free(prog);
            return NULL;
        }
    }
    record_group_runs(prog);
    if (!record_windows_cover(plan, prog)) {
        free(prog);
        return NULL;
    }
    for (unsigned s = 0; s < d->num_streams; s++)
        if (prog->window_end[s])
            prog->streams_read[prog->num_streams_read++] = (uint8_t)s;
    prog->writes_all = 1;
    for (unsigned k = 0; k < num_vectors; k++)
        if (prog->vec[k].passes & VFETCH_RP_KEEP)
            prog->writes_all = 0;
    return prog;
}

unsigned vfetch_record_cost(const struct vfetch_record_prog *prog)
{
    static const struct {
        unsigned pass, cost;
    } weights[] = {
        { VFETCH_RP_LOAD, 3 },  { VFETCH_RP_FIXED, 5 }, { VFETCH_RP_SHIFT, 2 },
        { VFETCH_RP_DIV, 6 },   { VFETCH_RP_CLAMP, 1 }, { VFETCH_RP_HALF, 3 },
        { VFETCH_RP_KEEP, 2 },  { VFETCH_RP_RAW, 1 },   { VFETCH_RP_WIDEN, 3 },
        { VFETCH_RP_MASK, 1 },  { VFETCH_RP_PACK8, 12 }, { VFETCH_RP_PACK8_LUT, 3 },
    };
    unsigned total = 0;
    for (unsigned k = 0; k < prog->num_vectors; k++) {
        unsigned c = 2; /* store and loop */
        for (unsigned w = 0; w < sizeof weights / sizeof weights[0]; w++)
            if (prog->vec[k].passes & weights[w].pass)
                c += weights[w].cost;
        total += c;
    }
    /* width factor lanes / 8 (xmm 0.5, ymm 1, zmm 2), in eighths to stay integral */
    return total * prog->lanes * 1000 / (8 * prog->group);
}
