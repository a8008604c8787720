/*
 * The per-vertex pass (lib/jit/x86_gen.h): vertex by vertex (record by record), a GX format's
 * skipped vertices taking no record, a plan's indexed streams' records computed from the next
 * entry of its index buffer, and each op by the emitter of its kind (op_kind):
 *
 *   constant        slots from the pool or immediates (x86_store.c)
 *   RGBA8 by table  RGB565/RGBA4444 colours: a GX array row's container, one load from the
 *                   shared 65,536-entry word table (colour_words.c); else two 256-entry
 *                   tables, an OR
 *   RGBA8 move      four bytes in order: one 32-bit move
 *                   (either RGBA8 word, where it takes the slot after a 3-lane op's run, goes
 *                   into that op's fourth lane before its store: joins_store)
 *   byte field      one unsigned byte stored alone (a matrix index): in eax, one vcvtsi2ss
 *   byte batch      several of them in one 8-byte window: one vpmovzxbd, one conversion
 *   fields          load and shuffle (x86_load.c), shifts and conversion (x86_convert.c),
 *                   swizzle and stores (x86_store.c)
 */
#include <string.h>

#include "jit/x86_gen.h"
#include "vertex_format.h"

enum op_kind { OP_CONSTANT, OP_RGBA8_TABLE, OP_RGBA8_MOVE, OP_BYTE_FIELD, OP_FIELDS };

/* RGBA8 from a 16-bit container (RGB565, RGBA4444): every output bit is a copy of one field
   bit (UNORM8's widening repeats bits, v << (8 - n) | v >> (2n - 8), the two parts disjoint),
   so the word is the OR of what the high byte and the low byte give: two 256-entry tables. */
static int packs_by_table(const struct vfetch_op_exec *x)
{
    return x->conversion == VFETCH_CONV_PACK_UNORM8 && x->lane[0].nbytes == 2 &&
           (x->format == VFETCH_FORMAT_RGB565 || x->format == VFETCH_FORMAT_RGBA4444);
}

/* The RGBA8 word (bytes R, G, B, A in memory order) of container value v; with `missing`, the
   missing alpha's 255 too (the high byte's table holds it). */
static uint32_t rgba8_of(const struct vfetch_op_exec *x, uint32_t v, int missing)
{
    uint8_t rgba[4] = { 0, 0, 0, missing && x->count < 4 ? 255 : 0 };
    for (unsigned c = 0; c < x->count; c++) {
        const struct vfetch_lane *l = &x->lane[c];
        rgba[c] = (uint8_t)vfetch_widen8(v >> l->field_shift & ((1u << l->field_bits) - 1),
                                         l->field_bits);
    }
    return (uint32_t)rgba[0] | (uint32_t)rgba[1] << 8 | (uint32_t)rgba[2] << 16 |
           (uint32_t)rgba[3] << 24;
}

/* Op x's two byte tables (packs_by_table): the high byte's, then the low byte's. Every output
   bit copies one field bit, so an entry is the OR of what its set bits give alone: each entry
   is the one without its lowest set bit ORed with that bit's word. */
static void rgba8_bytes(const struct vfetch_op_exec *x, uint32_t table[512])
{
    uint32_t high_bit[8], low_bit[8];
    for (unsigned i = 0; i < 8; i++) {
        high_bit[i] = rgba8_of(x, 1u << (8 + i), 0);
        low_bit[i] = rgba8_of(x, 1u << i, 0);
    }
    table[0] = rgba8_of(x, 0, 1); /* the missing alpha's 255, in every high-byte entry */
    table[256] = 0;
    for (uint32_t b = 1; b < 256; b++) {
        const unsigned low = (unsigned)__builtin_ctz(b);
        table[b] = table[b & (b - 1)] | high_bit[low];
        table[256 + b] = table[256 + (b & (b - 1))] | low_bit[low];
    }
}

/* The pool address of op x's two byte tables, made on first use. */
static uint64_t rgba8_table(struct gen *g, const struct vfetch_op_exec *x)
{
    const size_t op = (size_t)(x - g->conv->ops);
    if (g->table_at[op])
        return g->table_at[op];
    uint32_t table[512];
    rgba8_bytes(x, table);
    return g->table_at[op] = x86_const_wide(&g->a, table, sizeof table / 16);
}

/* Whether op x (packs_by_table) reads its container's two bytes side by side from an indexed
   copy's element (a GX array's row); and whether the byte at the lower address is the
   container's high one (big-endian, GX). */
static int element_side_by_side(const struct gen *g, const struct vfetch_op_exec *x,
                                int *first_high)
{
    struct op_source s;
    if (gen_op_source(g->gx, x, &s) || s.span > 16 || s.copy < 0)
        return 0;
    const int32_t lo = s.off[0][0] < s.off[0][1] ? s.off[0][0] : s.off[0][1];
    *first_high = s.off[0][1] == lo;
    return s.off[0][0] + s.off[0][1] == 2 * lo + 1;
}

/* The shared word table (vfetch_jit_colour_words) every colour op of the plan reads, where
   they all read their two bytes side by side from a GX array's rows and convert alike; else
   NULL: the byte tables (and where VFETCH_JIT_COLOUR_WORDS=0). Rows, not direct colours: an
   array's colours are as many as its rows (a palette: config c's index8 array holds 256), so
   the words a draw reads stay in the L1, where a long draw of direct colours can read every
   container once and miss it (Zen 3: 15 % slower at 16,384 random colours; docs/jit.md).
   Decided once a generator: each of its passes emits the same ops. */
static const uint32_t *plan_colour_words(struct gen *g)
{
    if (g->words_known)
        return g->words;
    g->words_known = 1;
    if (!vfetch_jit_colour_words_env())
        return g->words = NULL;
    const uint32_t *words = NULL;
    for (unsigned i = 0; i < g->conv->desc.num_ops; i++) {
        const struct vfetch_op_exec *x = &g->conv->ops[i];
        int first_high;
        if (!packs_by_table(x))
            continue;
        if (!element_side_by_side(g, x, &first_high))
            return g->words = NULL;
        uint32_t table[512];
        rgba8_bytes(x, table);
        const uint32_t *w = vfetch_jit_colour_words(table, first_high);
        if (!w || (words && w != words))
            return g->words = NULL;
        words = w;
    }
    return g->words = words;
}

int gen_colour_tables(const struct gen *g)
{
    for (unsigned i = 0; i < g->conv->desc.num_ops; i++)
        if (packs_by_table(&g->conv->ops[i]))
            return 1;
    return 0;
}

/* An op that converts one unsigned field of one byte, stored alone: a GX matrix index. */
static int one_byte_op(const struct vfetch_op_exec *x)
{
    return x->count == 1 && x->lane[0].nbytes == 1 && x->write_mask == 1 &&
           gen_effective_select(x, 0) == 0 &&
           (x->conversion == VFETCH_CONV_UINT || x->conversion == VFETCH_CONV_INTEGER);
}

/* Which emitter an op of one source (s) takes. */
static enum op_kind op_kind(const struct vfetch_op_exec *x, const struct op_source *s)
{
    if (x->format == VFETCH_FORMAT_CONSTANT)
        return OP_CONSTANT;
    if (packs_by_table(x))
        return OP_RGBA8_TABLE;
    if (x->conversion == VFETCH_CONV_PACK_UNORM8 && x->format == VFETCH_FORMAT_FIXED8 &&
        x->count == 4 && s->off[1][0] == s->off[0][0] + 1 && s->off[2][0] == s->off[0][0] + 2 &&
        s->off[3][0] == s->off[0][0] + 3)
        return OP_RGBA8_MOVE;
    if (one_byte_op(x))
        return OP_BYTE_FIELD;
    return OP_FIELDS;
}

static const enum x86_shape movzx_eax[GEN_LOAD_BASES] = { LOAD_ROW(MOVZX_EAX_B) },
                            movzx_eax_word[GEN_LOAD_BASES] = { LOAD_ROW(MOVZX_EAX_WORD) },
                            movzx_r10d[GEN_LOAD_BASES] = { LOAD_ROW(MOVZX_R10D_B) },
                            mov_eax[GEN_LOAD_BASES] = { LOAD_ROW(MOV_EAX) },
                            vpinsrd[GEN_LOAD_BASES] = { LOAD_ROW(VPINSRD_X0_X0) },
                            vmovq[GEN_LOAD_BASES] = { LOAD_ROW(VMOVQ_X0) },
                            /* an element's (r8, or a held base and r8) */
                            vmovhps[GEN_LOAD_BASES] = {
                                [1] = X86_VMOVHPS_X0_X0_MR8,
                                [GEN_REGS] = HELD_ROW(VMOVHPS_X0_X0, RBX),
                                HELD_ROW(VMOVHPS_X0_X0, RBP),
                                HELD_ROW(VMOVHPS_X0_X0, R12),
                                HELD_ROW(VMOVHPS_X0_X0, R13),
                                HELD_ROW(VMOVHPS_X0_X0, R14),
                                HELD_ROW(VMOVHPS_X0_X0, R15),
                                HELD_ROW(VMOVHPS_X0_X0, R10),
                                HELD_ROW(VMOVHPS_X0_X0, R11),
                                HELD_ROW(VMOVHPS_X0_X0, RAX),
                            };

/* RGBA8 = W[the two bytes as one little-endian word], the shared word table at r11; else
   T[first byte] | T'[second byte], the tables at r11 + their distance from the first. */
static void rgba8_table_op(struct gen *g, const struct vfetch_op_exec *x,
                           const struct op_source *s, unsigned base)
{
    const int32_t lo = s->off[0][0] < s->off[0][1] ? s->off[0][0] : s->off[0][1];
    if (plan_colour_words(g)) { /* the shared word table at r11 */
        x86_op(&g->a, movzx_eax_word[base], lo, 0);
        E(MOV_EAX_MR11_RAX4, 0, 0);
        E(MOV_MRDX_EAX, 4 * x->dst_slot, 0);
        return;
    }
    const int64_t at = (int64_t)(rgba8_table(g, x) - g->tables);
    if (s->off[0][0] + s->off[0][1] == 2 * lo + 1) {
        /* the two bytes side by side: one 16-bit load, the bytes apart in registers (a load
           fewer; the pass is bound by its loads) */
        const int first_high = s->off[0][1] == lo; /* the byte at lo takes the first table */
        x86_op(&g->a, movzx_eax_word[base], lo, 0);
        E(MOVZX_R10D_AL, 0, 0);
        E(SHR_EAX_I, 0, 8);
        E(MOV_R10D_MR11_R10_4, first_high ? at : at + 1024, 0);
        E(OR_R10D_MR11_RAX_4, first_high ? at + 1024 : at, 0);
        E(MOV_MRDX_R10D, 4 * x->dst_slot, 0);
        return;
    }
    /* r10d first: the base may be rax (gen_load_element) */
    x86_op(&g->a, movzx_r10d[base], s->off[0][0], 0);
    x86_op(&g->a, movzx_eax[base], s->off[0][1], 0);
    E(MOV_EAX_MR11_RAX4, at, 0);
    E(OR_EAX_MR11_R10_4, at + 1024, 0);
    E(MOV_MRDX_EAX, 4 * x->dst_slot, 0);
}

/* Whether op i + 1 is an RGBA8 word of one load (an RGBA8 move, or a colour of the shared word
   table) in the slot after op i's three (source t): op i's store is widened to 16 bytes for it
   (store_run), so the word goes into xmm0's fourth lane before that store instead of a store of
   its own (config c's position and colour: one instruction and one store a vertex fewer). */
static int joins_store(struct gen *g, unsigned i, const int32_t member_at[VFETCH_MAX_OPS],
                       struct op_source *t)
{
    const struct vfetch_op_exec *x = &g->conv->ops[i], *y = x + 1;
    if (i + 1 >= g->conv->desc.num_ops || member_at[i + 1] >= 0 || x->write_mask != 0x7 ||
        y->dst_slot != x->dst_slot + 3 || !(y->write_mask & 1) ||
        y->format == VFETCH_FORMAT_CONSTANT || gen_op_source(g->gx, y, t) || t->span > 16)
        return 0;
    const enum op_kind kind = op_kind(y, t);
    return kind == OP_RGBA8_MOVE || (kind == OP_RGBA8_TABLE && plan_colour_words(g));
}

/* Op y's RGBA8 word (joins_store) into xmm0's fourth lane, its element loaded. */
static void rgba8_lane(struct gen *g, const struct vfetch_op_exec *y, const struct op_source *t)
{
    const unsigned base = gen_stream_register(g, t->base);
    if (op_kind(y, t) == OP_RGBA8_MOVE) {
        x86_op(&g->a, vpinsrd[base], t->off[0][0], 3);
        return;
    }
    const int32_t lo = t->off[0][0] < t->off[0][1] ? t->off[0][0] : t->off[0][1];
    x86_op(&g->a, movzx_eax_word[base], lo, 0);
    E(VPINSRD_X0_X0_MR11_RAX4_I, 0, 3);
}

/* One unsigned field of one byte stored alone: in eax, and for a float by one scalar conversion
   (exact: at most 8 bits) and scale. */
static void byte_field_op(struct gen *g, const struct vfetch_op_exec *x,
                          const struct op_source *s, unsigned base)
{
    const unsigned bits = x->lane[0].field_bits, shift = x->lane[0].field_shift;
    x86_op(&g->a, movzx_eax[base], s->off[0][0], 0);
    if (shift)
        E(SHR_EAX_I, 0, shift);
    if (shift + bits < 8)
        E(AND_EAX_I, 0, (1u << bits) - 1);
    if (x->conversion == VFETCH_CONV_INTEGER) {
        E(MOV_MRDX_EAX, 4 * x->dst_slot, 0);
        return;
    }
    E(VCVTSI2SS_X0_X15_EAX, 0, 0);
    if (x->shift) {
        const uint32_t scale[4] = { (127u - x->shift) << 23, 0, 0, 0 };
        E(VMULSS_X0_X0_P, POOL(scale), 0);
    }
    E(VMOVD_MRDX_X0, 4 * x->dst_slot, 0);
}

/* byte_batch's members of one conversion (to floats, UINT, or integers, INTEGER): the ops
   that take one byte of the vertex with the first such op's field and scale, within 8 bytes of
   the first member (4 where there are 4 or fewer) inside the vertex; their number, at[] and
   *lo as byte_batch gives them. */
static unsigned byte_batch_of(const struct gen *g, enum vfetch_conversion conversion,
                              int32_t at[VFETCH_MAX_OPS], int32_t *lo)
{
    const struct vfetch_plan *conv = g->conv;
    const struct vfetch_op_exec *first = NULL;
    int32_t at0 = INT32_MAX;
    for (unsigned i = 0; i < conv->desc.num_ops; i++) {
        const struct vfetch_op_exec *x = &conv->ops[i];
        struct op_source s;
        at[i] = -1;
        if (!g->gx || !one_byte_op(x) || x->conversion != conversion ||
            gen_op_source(g->gx, x, &s) || s.copy != -1)
            continue;
        first = first ? first : x;
        if (x->lane[0].field_bits != first->lane[0].field_bits ||
            x->lane[0].field_shift != first->lane[0].field_shift || x->shift != first->shift)
            continue;
        at[i] = s.off[0][0];
        at0 = at[i] < at0 ? at[i] : at0;
    }
    unsigned n = 0;
    for (unsigned i = 0; i < conv->desc.num_ops; i++)
        n += at[i] >= 0 && at[i] - at0 < 8;
    const int32_t window = n > 4 ? 8 : 4;
    n = 0;
    for (unsigned i = 0; i < conv->desc.num_ops; i++) {
        if (at[i] >= 0 && at[i] - at0 >= window)
            at[i] = -1; /* converted alone (a ninth index past the window) */
        n += at[i] >= 0;
    }
    if (n < 2 || (uint32_t)(at0 + window) > g->readable[0])
        return 0;
    *lo = at0;
    return n;
}

/* The ops of the plan that take the bytes of one 8-byte window of the vertex (the matrix
   indices, several in a row), all to floats or all to integers, whichever are more (Dolphin's
   layout: the texture matrices' as floats, the position matrix's as an integer): their number
   (at least 2, else 0), each member's byte in the vertex in at[] (-1 for the other ops), the
   window's first byte in *lo. */
static unsigned byte_batch(const struct gen *g, int32_t at[VFETCH_MAX_OPS], int32_t *lo)
{
    int32_t other[VFETCH_MAX_OPS], other_lo = 0;
    const unsigned floats = byte_batch_of(g, VFETCH_CONV_UINT, at, lo);
    const unsigned ints = byte_batch_of(g, VFETCH_CONV_INTEGER, other, &other_lo);
    if (ints > floats) {
        memcpy(at, other, sizeof other);
        *lo = other_lo;
        return ints;
    }
    if (!floats)
        for (unsigned i = 0; i < VFETCH_MAX_OPS; i++)
            at[i] = -1;
    return floats;
}

/* The batch's window (f its first member) from byte lo: 4 bytes into xmm0 or with y 8 into
   ymm0, zero-extended to 32-bit lanes, the field, for floats one conversion (exact: at most 8
   bits) and scale. */
static void byte_batch_convert(struct gen *g, const struct vfetch_op_exec *f, int32_t lo, int y)
{
    const unsigned bits = f->lane[0].field_bits, shift = f->lane[0].field_shift;
    x86_op(&g->a, y ? X86_VPMOVZXBD_Y0_MRDI : X86_VPMOVZXBD_X0_MRDI, lo, 0);
    if (shift)
        x86_op(&g->a, y ? X86_VPSRLD_Y0_Y0_I : X86_VPSRLD_X0_X0_I, 0, shift);
    if (shift + bits < 8) {
        const uint32_t m = (1u << bits) - 1;
        const uint32_t mask[8] = { m, m, m, m, m, m, m, m };
        x86_op(&g->a, y ? X86_VPAND_Y0_Y0_P : X86_VPAND_X0_X0_P,
               (int64_t)x86_const_wide(&g->a, mask, y ? 2 : 1), 0);
    }
    if (f->conversion == VFETCH_CONV_UINT) {
        x86_op(&g->a, y ? X86_VCVTDQ2PS_Y0_Y0 : X86_VCVTDQ2PS_X0_X0, 0, 0);
        gen_scale(g, y ? X86_VMULPS_Y0_Y0_P : X86_VMULPS_X0_X0_P, f->shift, y ? 2 : 1);
    }
    if (y)
        g->dirty_upper = 1;
}

/* The batch of n members from byte lo, its half h converted (byte_batch_convert: an 8-byte
   window in one ymm, or at SSE4.1 in two xmm halves, h 0 and 1, one after the other): each
   member's lane stored to its slot, or the whole register (or half) where its lanes are the
   members' slots in order. */
static void byte_batch_store(struct gen *g, const int32_t at[VFETCH_MAX_OPS], unsigned n,
                             int32_t lo, unsigned h)
{
    const struct vfetch_plan *conv = g->conv;
    const int y = n > 4 && !g->a.sse;
    int slot0 = -1;
    unsigned in_order = 0;
    for (unsigned i = 0; i < conv->desc.num_ops; i++)
        if (at[i] >= 0 && at[i] == lo)
            slot0 = conv->ops[i].dst_slot;
    for (unsigned i = 0; i < conv->desc.num_ops && slot0 >= 0; i++)
        in_order += at[i] >= 0 && conv->ops[i].dst_slot == slot0 + (at[i] - lo);
    if (in_order == (n > 4 ? 8u : 4u) && n == in_order) {
        x86_op(&g->a, y ? X86_VMOVUPS_MRDX_Y0 : X86_VMOVUPS_MRDX_X0, 4 * (slot0 + 4 * (int)h), 0);
        return;
    }
    for (unsigned half = h; half < (y ? 2u : h + 1); half++) {
        if (y && half)
            E(VEXTRACTF128_X0_Y0_I, 0, 1);
        for (unsigned i = 0; i < conv->desc.num_ops; i++)
            if (at[i] >= 0 && (unsigned)(at[i] - lo) / 4 == half)
                gen_store_dword(g, conv->ops[i].dst_slot, (unsigned)(at[i] - lo) % 4);
    }
}

/* The batch's half h converted (as byte_batch_store takes it) kept for matrix_beside_op:
   lanes 0-3 in xmm5, 4-7 in xmm4. */
static void byte_batch_keep(struct gen *g, unsigned h, int y)
{
    if (h) {
        E(VMOVAPS_X4_X0, 0, 0);
        return;
    }
    E(VMOVAPS_X5_X0, 0, 0);
    if (y)
        E(VEXTRACTF128_X4_Y0_I, 0, 1);
}

/* The byte swap of a binary32 pair of source s into bytes at..at+7 of ctrl. */
static void pair_control(uint8_t ctrl[16], const struct op_source *s, unsigned at)
{
    for (unsigned k = 0; k < 8; k++)
        ctrl[at + k] = (uint8_t)(at + s->off[k / 4][k % 4] - s->lo);
}

/* An op that copies a binary32 pair (a GX texture coordinate's f32 ST) from an element into
   two slots as they are: float_pair_op takes two such ops of two elements at once. */
static int float_pair(const struct gen *g, const struct vfetch_op_exec *x,
                      const struct op_source *s)
{
    return g->gx && s->copy >= 0 && s->span == 8 && x->format == VFETCH_FORMAT_FLOAT32 &&
           x->conversion == VFETCH_CONV_FLOAT && x->count == 2 && x->write_mask == 3 &&
           gen_effective_select(x, 0) == 0 && gen_effective_select(x, 1) == 1;
}

/* Whether op i (a float_pair, source s) and the next op (source *t) are taken together: the
   next a float_pair too, not of the matrix-index batch, its slots right after op i's. */
static int pairs_with_next(const struct gen *g, unsigned i, const struct op_source *s,
                           const int32_t member_at[VFETCH_MAX_OPS], struct op_source *t)
{
    const struct vfetch_plan *conv = g->conv;
    const struct vfetch_op_exec *x = &conv->ops[i], *y = &conv->ops[i + 1];
    return i + 1 < conv->desc.num_ops && float_pair(g, x, s) && member_at[i + 1] < 0 &&
           y->dst_slot == x->dst_slot + 2 && !gen_op_source(g->gx, y, t) && float_pair(g, y, t);
}

/* Two float_pair ops whose four slots follow one another (x's, then the next's), the first's
   element's 8 bytes in xmm0 and r8 at the second's element (as g->elem_base says): both in
   one register (vmovhps), one byte swap, one 16-byte store, instead of a shuffle and a store
   each (the kit's f: eight texture coordinates a vertex, four pairs). */
static void float_pair_op(struct gen *g, const struct vfetch_op_exec *x,
                          const struct op_source *s, const struct op_source *t)
{
    uint8_t ctrl[16];
    pair_control(ctrl, s, 0);
    pair_control(ctrl, t, 8);
    g->float_pairs += !g->collecting;
    x86_op(&g->a, vmovhps[g->elem_base], t->lo, 0);
    gen_shuffle(g, ctrl);
    E(VMOVUPS_MRDX_X0, 4 * x->dst_slot, 0);
}

/* Whether every member of the matrix-index batch (`members` of them, from op `first` to op
   `last`; floats: Dolphin's layout's texture matrices) follows a float_pair op whose two slots
   its own slot follows, the ops from the first of those to the last member being these pairs
   only: then each coordinate takes its matrix's float into its register (matrix_beside_op),
   the batch converted before the first into xmm5 (lanes 0-3) and xmm4 (4-7), which the
   pairs' ops leave alone. */
static int matrices_beside(const struct gen *g, const int32_t at[VFETCH_MAX_OPS],
                           unsigned members, unsigned first, unsigned last)
{
    const struct vfetch_plan *conv = g->conv;
    if (conv->ops[first].conversion != VFETCH_CONV_UINT || first == 0 ||
        last - first + 2 != 2 * members)
        return 0;
    for (unsigned i = first - 1; i <= last; i += 2) {
        const struct vfetch_op_exec *x = &conv->ops[i], *m = &conv->ops[i + 1];
        struct op_source s;
        if (at[i] >= 0 || at[i + 1] < 0 || gen_op_source(g->gx, x, &s) || !float_pair(g, x, &s) ||
            m->dst_slot != x->dst_slot + 2)
            return 0;
    }
    return 1;
}

/* Texture coordinate op i (its 8 bytes in xmm0, source s) and its matrix's float, lane `lane`
   of the batch (xmm5, then xmm4): byte-swapped, the float inserted as the third lane, stored
   as 16 bytes where a later op writes the fourth slot, else as 8 and 4. */
static void matrix_beside_op(struct gen *g, unsigned i, const struct op_source *s, unsigned lane)
{
    const struct vfetch_op_exec *x = &g->conv->ops[i];
    g->matrices_beside += !g->collecting;
    uint8_t ctrl[16];
    memset(ctrl + 8, 0x80, 8);
    pair_control(ctrl, s, 0);
    gen_shuffle(g, ctrl);
    x86_op(&g->a, lane < 4 ? X86_VINSERTPS_X0_X0_X5_I : X86_VINSERTPS_X0_X0_X4_I, 0,
           (lane % 4) << 6 | 2 << 4);
    const unsigned fourth = x->dst_slot + 3;
    if (fourth < VFETCH_MAX_SLOTS && (g->later[i + 1][fourth / 64] >> (fourth % 64) & 1)) {
        E(VMOVUPS_MRDX_X0, 4 * x->dst_slot, 0);
        return;
    }
    E(VMOVQ_MRDX_X0, 4 * x->dst_slot, 0);
    E(VEXTRACTPS_MRDX_X0_I, 4 * (x->dst_slot + 2), 2);
}

/* Where a GX format's per-vertex pass may load the fields of elements wider than they are (one
   16-byte load for config c's 12-byte position instead of vmovq and vpinsrd): per indexed
   copy, the bytes from its element's start its widened loads reach (reach[k]; 0: none
   widen). Whether any copy's do. */
int gen_vertex_element_reach(const struct gen *g, uint32_t reach[VFETCH_GX_MAX_COPIES])
{
    const struct vfetch_gx_plan *plan = g->gx;
    memset(reach, 0, VFETCH_GX_MAX_COPIES * sizeof *reach);
    int any = 0;
    for (unsigned i = 0; plan && plan->any_indexed && i < g->conv->desc.num_ops; i++) {
        const struct vfetch_op_exec *x = &g->conv->ops[i];
        struct op_source s;
        if (x->format == VFETCH_FORMAT_CONSTANT || gen_op_source(plan, x, &s) || s.copy < 0 ||
            s.span > 16 || op_kind(x, &s) != OP_FIELDS)
            continue;
        const unsigned wide = gen_load_width(s.lo, s.span, UINT32_MAX);
        if (wide != s.span && (uint32_t)s.lo + wide > reach[s.copy]) {
            reach[s.copy] = (uint32_t)s.lo + wide;
            any = 1;
        }
    }
    return any;
}

/* A constant op of four slots (a full record's default). */
static int constant_quad(const struct vfetch_op_exec *x)
{
    return x->format == VFETCH_FORMAT_CONSTANT && x->write_mask == 0xf;
}

/* One vertex's ops (the pass's loop body, without its skip test and pointer steps). NULL, or
   why an op cannot be generated. */
const char *gen_vertex(struct gen *g)
{
    const struct vfetch_plan *conv = g->conv;
    int32_t member_at[VFETCH_MAX_OPS];
    int32_t batch_lo = 0;
    const unsigned batch = byte_batch(g, member_at, &batch_lo);
    unsigned first = conv->desc.num_ops, last = 0; /* the batch's first and last members */
    for (unsigned i = 0; i < conv->desc.num_ops; i++)
        if (member_at[i] >= 0) {
            first = i < first ? i : first;
            last = i;
        }
    /* Dolphin's layout: each texture coordinate with its matrix index's float beside it, the
       batch converted before the first coordinate and kept; else converted and stored where
       its last member is */
    const int merged = batch && matrices_beside(g, member_at, batch, first, last);
    const unsigned batch_at = merged ? first - 1 : last;
    for (unsigned i = 0; i < conv->desc.num_ops; i++) {
        const struct vfetch_op_exec *x = &conv->ops[i];
        if (batch && i == batch_at) {
            const int y = batch > 4 && !g->a.sse;
            g->byte_batches += !g->collecting;
            for (unsigned h = 0; h < (batch > 4 && g->a.sse ? 2u : 1u); h++) {
                byte_batch_convert(g, &conv->ops[first], batch_lo + 4 * (int)h, y);
                if (merged)
                    byte_batch_keep(g, h, y);
                else
                    byte_batch_store(g, member_at, batch, batch_lo, h);
            }
        }
        if (batch && member_at[i] >= 0)
            continue;
        if (x->format == VFETCH_FORMAT_CONSTANT) {
            unsigned n = 0; /* four-slot constant ops in a row, none where the batch is stored */
            while (i + n < conv->desc.num_ops && constant_quad(&conv->ops[i + n]) &&
                   (n == 0 || !(batch && (i + n == batch_at || member_at[i + n] >= 0))))
                n++;
            if (n >= 2) {
                gen_constant_run(g, i, n);
                i += n - 1;
            } else {
                gen_constant_op(g, i, x);
            }
            continue;
        }
        gen_convert_fn *convert = gen_converter(x);
        struct op_source s;
        const int one_source = !gen_op_source(g->gx, x, &s) && s.span <= 16;
        if (!one_source && g->gx)
            return "an op reads bytes of two staging copies, or more than 16 bytes apart";
        if (!one_source) {
            if (!convert)
                return "a conversion the generator does not know";
            gen_load_gathered(g, x);
            gen_fields(g, x);
            if (convert(g, x))
                gen_store(g, i, x);
            continue;
        }
        if (merged && i + 1 < conv->desc.num_ops && member_at[i + 1] >= 0) {
            gen_load_element(g, s.copy);
            x86_op(&g->a, vmovq[g->elem_base], s.lo, 0);
            matrix_beside_op(g, i, &s, (unsigned)(member_at[i + 1] - batch_lo));
            continue;
        }
        struct op_source t;
        if (pairs_with_next(g, i, &s, member_at, &t)) {
            gen_load_element(g, s.copy);
            x86_op(&g->a, vmovq[g->elem_base], s.lo, 0);
            gen_load_element(g, t.copy);
            float_pair_op(g, x, &s, &t);
            i++;
            continue;
        }
        if (s.copy >= 0)
            gen_load_element(g, s.copy);
        const unsigned base = gen_stream_register(g, s.base);
        switch (op_kind(x, &s)) {
        case OP_RGBA8_TABLE: rgba8_table_op(g, x, &s, base); continue;
        case OP_RGBA8_MOVE:
            x86_op(&g->a, mov_eax[base], s.off[0][0], 0);
            E(MOV_MRDX_EAX, 4 * x->dst_slot, 0);
            continue;
        case OP_BYTE_FIELD: byte_field_op(g, x, &s, base); continue;
        default: break;
        }
        if (!convert)
            return "a conversion the generator does not know";
        gen_load_fields(g, x, &s, base);
        gen_fields(g, x);
        if (!convert(g, x))
            continue;
        if (joins_store(g, i, member_at, &t)) {
            if (t.copy >= 0)
                gen_load_element(g, t.copy);
            rgba8_lane(g, &conv->ops[i + 1], &t);
            gen_store(g, i, x);
            i++;
            continue;
        }
        gen_store(g, i, x);
    }
    return NULL;
}

/* The bytes of one entry of the index buffer the pass being emitted reads. */
static unsigned entry_bytes(const struct gen *g)
{
    return g->index_wide ? 4 : 2;
}

/* Whether, under an index buffer, a plan's loads address its records from one offset: streams
   indexed with one stride (gen_indexed_one_stride), several or one whose stride is no scale
   (gen_stride_scale: else one lea makes its record), and r11 free (no colour table). Each
   stream's register then keeps its record 0 (the prologue's) and a vertex's offset, its index
   times the stride, goes into r11 once: every load is [record 0 + r11 + offset]
   (X86_OFFSET_LOADS), where each stream's record took a load and an add a vertex (one stream:
   an imul and an add). */
int gen_records_at_offset(const struct gen *g)
{
    return !g->gx && g->indexed &&
           (g->num_streams > 1 || gen_stride_scale(g->step[0]) < 0) &&
           gen_indexed_one_stride(g) && !gen_colour_tables(g);
}

/* Under an index buffer, at the top of a vertex: its index from the next entry (16 or 32 bits,
   the draw's width), plus the offset and clamped to the highest index as vfetch_run does
   (min(entry + offset, max) as entry + min(max - entry, offset), which cannot overflow; a
   plain draw's entry as it is), and each indexed stream's record at its record 0 + index *
   stride. */
static void vertex_index(struct gen *g)
{
    struct x86_asm *a = &g->a;
    if (g->index_regs) { /* min(entry + offset, max): the offset was clamped to max + 1 */
        if (g->index_wide)
            E(MOV_EAX_MR8, 0, 0);
        else
            E(MOVZX_EAX_W_MR8, 0, 0);
        if (!g->in_group) /* a group's entries by displacements, r8 moved once a group */
            E(ADD_R8_I, 0, entry_bytes(g));
        if (!g->index_plain) {
            E(ADD_RAX_RSI, 0, 0);
            E(CMP_RAX_R9, 0, 0);
            E(CMOVNLE_RAX_R9, 0, 0);
        }
    } else {
        const unsigned wide = x86_label(a), have = x86_label(a);
        E(MOV_RAX_MRSP, FRAME_ENTRIES, 0);
        E(CMP_MRSP_I, FRAME_WIDE, 0);
        x86_jump(a, X86_JNZ, wide);
        E(MOVZX_EAX_W_MRAX, 0, 0);
        E(ADD_MRSP_I, FRAME_ENTRIES, 2);
        x86_jump(a, X86_JMP, have);
        x86_bind(a, wide);
        E(MOV_EAX_MRAX, 0, 0);
        E(ADD_MRSP_I, FRAME_ENTRIES, 4);
        x86_bind(a, have);
        E(MOV_R10_MRSP, FRAME_MAX, 0);
        E(SUB_R10_RAX, 0, 0);
        E(CMP_R10_MRSP, FRAME_OFFSET, 0);
        E(CMOVNLE_R10_MRSP, FRAME_OFFSET, 0);
        E(ADD_RAX_R10, 0, 0);
    }
    static const enum x86_shape imul[GEN_REGS] = { REG_ROW(IMUL_, _RAX_I) },
                                add[GEN_REGS] = { REG_ROW(ADD_, _MRSP) };
    /* indexed streams of one stride (R300's arrays of one interleaved buffer; one stream of a
       stride no lea scales): the offset once, in r11 */
    if (gen_records_at_offset(g)) {
        E(IMUL_R11_RAX_I, 0, g->step[0]);
        return;
    }
    for (unsigned k = 0; k < g->num_streams; k++) {
        if (g->data_slot[k] < 0)
            continue;
        if (!k && g->record0_r11) { /* rdi: one lea (a stride of no scale is at one offset) */
            x86_op(a, gen_record_lea((unsigned)gen_stride_scale(g->step[0])), 0, 0);
            continue;
        }
        const unsigned r = k < g->reg_streams ? gen_stream_reg(g, k) : GEN_REGS - 1;
        x86_op(a, imul[r], 0, g->step[k]);
        x86_op(a, add[r], g->data_slot[k], 0);
        if (k >= g->reg_streams)
            E(MOV_MRSP_R15, g->frame_slot[k], 0);
    }
}

/* A skipped vertex, out of the loop's way: counted in r9, then on to the next. */
static void skipped_vertex(struct gen *g, unsigned skip, unsigned next)
{
    x86_bind(&g->a, skip);
    E(INC_R9, 0, 0);
    x86_jump(&g->a, X86_JMP, next);
}

/* The skip test's forms: the position index into r8d (8 or 16 bits), compared with the skip
   value; r8 keeps it for its element. A 16-bit one as read, or where r8's upper bits are zero
   (gen_movbe_index) already swapped by movbe: 0xffff either way. */
static const enum x86_shape skip_to_r8d[3] = { X86_MOVZX_R8D_B_MRDI, X86_MOVZX_R8D_W_MRDI,
                                               X86_CMP_R8D_I },
                            skip_swapped_to_r8d[3] = { X86_MOVZX_R8D_B_MRDI,
                                                       X86_MOVBE_R8W_MRDI, X86_CMP_R8D_I };

/* The top of one vertex of the pass, before its ops: no element in r8 yet; a GX format's skip
   test (to `skip`; r8 keeps the position's index for its element); under an index buffer the
   vertex's record from the next entry. */
static void vertex_top(struct gen *g, unsigned skip)
{
    const struct vfetch_gx_plan *plan = g->gx;
    g->elem_copy = g->raw_copy = -1;
    if (plan && plan->position_copy >= 0) {
        g->raw_swapped = plan->copies[plan->position_copy].index_size == 2 && gen_movbe_index(g);
        gen_skip_test(g, g->raw_swapped ? skip_swapped_to_r8d : skip_to_r8d, X86_JZ, skip);
        g->r8_narrow = 1;
        g->raw_copy = plan->position_copy;
    }
    if (g->indexed)
        vertex_index(g);
}

/* Vertices a group of the pass holds: GEN_UNROLL where one vertex's ops are at most
   GEN_UNROLL_OPS instructions; for a GX format whose ops are at most GEN_UNROLL_SHORT (config
   c's: 12), groups of twice as many while that many are left, then of GEN_UNROLL (a draw of
   four to seven vertices, the games' most common, still runs one group). The group's copies
   address their vertices and records by displacements from the same registers (x86_asm's
   bias), so that the pointers and the count move once a group. Longer bodies gain little from
   it and would grow the code by as much; R300's and Maxwell's short bodies measured no faster
   in groups of eight (docs/decisions.md). */
#define GEN_UNROLL 4
#define GEN_UNROLL_OPS 40
#define GEN_UNROLL_MAX 8
#define GEN_UNROLL_SHORT 16

/* The general register (x86_asm's numbering) of each base register in REG_ROW's order. */
static const uint8_t reg_row_gpr[GEN_REGS] = { X86_GPR_RDI, X86_GPR_R8, 9, X86_GPR_RSI, 3,
                                               5, 12, 13, 14, 15 };

/* One loop of the pass's groups: the vertices a group holds, its labels (the group's start;
   the tail, where fewer are left) and each vertex's skip stub. */
struct group_loop {
    unsigned size, group, tail, stub[GEN_UNROLL_MAX];
};

/* The group loops of the pass, largest first (their sizes set), and how many (0: none): a GX
   format, or a plan whose streams are all in registers (read in order, or through an index
   buffer whose state is in registers), of one vertex's ops of `ops` instructions. */
static unsigned group_loops(const struct gen *g, unsigned ops, struct group_loop loops[2])
{
    if (ops > GEN_UNROLL_OPS ||
        !(g->gx || ((!g->indexed || g->index_regs) && g->reg_streams == g->num_streams)))
        return 0;
    unsigned n = 0;
    if (g->gx && ops <= GEN_UNROLL_SHORT)
        loops[n++].size = GEN_UNROLL_MAX;
    loops[n++].size = GEN_UNROLL;
    return n;
}

/* Whether base b moves by its step from one vertex to the next (not fixed, nor an indexed
   stream's record computed from the next index). */
static int base_moves(const struct gen *g, unsigned b)
{
    return g->step[b] && !(g->indexed && g->data_slot[b] >= 0);
}

/* Every moving base's, the record's and under an index buffer the next entry's displacement
   for the group's vertex j (0: none). */
static void group_bias(struct gen *g, unsigned j)
{
    const unsigned bases = g->gx ? 2 : g->num_streams;
    for (unsigned b = 0; b < bases; b++)
        if (base_moves(g, b))
            g->a.bias[reg_row_gpr[gen_stream_reg(g, b)]] = (int32_t)(j * g->step[b]);
    g->a.bias[X86_GPR_RDX] = (int32_t)(j * g->conv->out_stride);
    if (!g->gx && g->indexed)
        g->a.bias[X86_GPR_R8] = (int32_t)(j * entry_bytes(g));
}

/* The bytes readable from a group's vertex with `after` vertices of the group after it: its
   own (`own`, a vertex's) and theirs, for each moving base (group_open runs a group only where
   all its vertices are left, skipped ones too), so that its loads may be as wide as they would
   be short of the draw's end: one load where the exact ones take two. */
static void group_readable(struct gen *g, const uint32_t own[VFETCH_MAX_STREAMS], unsigned after)
{
    const unsigned bases = g->gx ? 1 : g->num_streams;
    for (unsigned b = 0; b < bases; b++)
        if (base_moves(g, b))
            g->readable[b] = own[b] + after * g->step[b];
}

/* Every moving base by n vertices' steps (a plan's streams in the frame by their own), the
   record by m records. */
static void advance_bases(struct gen *g, unsigned n, unsigned m)
{
    static const enum x86_shape advance[GEN_REGS] = { REG_ROW(ADD_, _I) };
    const unsigned bases = g->gx ? 2 : g->num_streams;
    for (unsigned b = 0; b < bases; b++) {
        if (!base_moves(g, b))
            continue;
        if (g->gx || b < g->reg_streams)
            x86_op(&g->a, advance[gen_stream_reg(g, b)], 0, n * g->step[b]);
        else
            E(ADD_MRSP_I, g->frame_slot[b], n * g->step[b]);
    }
    if (m && g->conv->out_stride)
        E(ADD_RDX_I, 0, m * g->conv->out_stride);
}

/* The loop's groups while its size's vertices are left: rcx counts the vertices left less
   that, so that one subtraction steps and tests it; fewer left go to its tail. The caller
   writes the group's vertices after this, each with its group_bias. */
static void group_open(struct gen *g, const struct group_loop *l)
{
    E(SUB_RCX_I, 0, l->size);
    x86_jump(&g->a, X86_JB, l->tail);
    x86_bind(&g->a, l->group);
}

/* The pointers moved past a group of n vertices: every moving base, the record, under an index
   buffer the next entry. */
static void group_steps(struct gen *g, unsigned n)
{
    advance_bases(g, n, n);
    if (!g->gx && g->indexed)
        E(ADD_R8_I, 0, n * entry_bytes(g));
}

/* After the group's vertices: the pointers moved past them, the next group, else on to the
   loop's tail with rcx the vertices left (fewer than its size). */
static void group_close(struct gen *g, const struct group_loop *l)
{
    group_bias(g, 0);
    group_steps(g, l->size);
    E(SUB_RCX_I, 0, l->size);
    x86_jump(&g->a, X86_JNB, l->group);
    x86_bind(&g->a, l->tail);
    E(ADD_RCX_I, 0, l->size);
}

/* Each loop's skip stubs, out of the loops' way: its vertex j skipped (its skip test's jump to
   stub[j]), counted in r9, the j before it converted, the pointers and the count moved past
   it; the loop's groups go on from the next. */
static void group_stubs(struct gen *g, const struct group_loop *loops, unsigned n)
{
    for (const struct group_loop *l = loops; l < loops + n; l++)
        for (unsigned j = 0; j < l->size; j++) {
            x86_bind(&g->a, l->stub[j]);
            E(INC_R9, 0, 0);
            advance_bases(g, j + 1, j);
            E(SUB_RCX_I, 0, j + 1);
            x86_jump(&g->a, X86_JNB, l->group);
            x86_jump(&g->a, X86_JMP, l->tail);
        }
}

/* The instructions the pass spends on `vertices` vertices of `ops` instructions each: theirs
   and the loop's own (the pointers' steps, the count, the branch) as gen_vertex_pass writes
   them, once a group of the largest where the pass holds groups (group_loops), else once a
   vertex. gen_choose_groups weighs a record program's groups against it. */
unsigned gen_vertex_pass_cost(struct gen *g, unsigned ops, unsigned vertices)
{
    struct x86_asm *a = &g->a;
    const struct x86_mark mark = x86_mark(a);
    struct group_loop loops[2];
    const unsigned grouped = group_loops(g, ops, loops) ? loops[0].size : 0;
    if (grouped) {
        group_steps(g, grouped);
    } else {
        advance_bases(g, 1, 0);
        if (g->conv->out_stride)
            E(ADD_RDX_I, 0, g->conv->out_stride);
    }
    /* a group's, or a vertex's: and the count's step and the branch */
    const unsigned steps = a->ops - mark.ops + 2;
    x86_rewind(a, mark);
    return vertices * ops + (grouped ? (vertices * steps + grouped - 1) / grouped
                                     : vertices * steps);
}

/* The pass over rcx >= 1 vertices from rdi into rdx: each vertex's ops, a GX format's skipped
   vertices taking no record (counted in r9, which the caller zeroed), each base moving by its
   step; a vertex's ops written in groups where they are short (group_loops: a loop of each
   size, largest first), once for the rest; then on to the label `exit`, or GEN_FALL_THROUGH:
   the code after the pass. NULL, or why an op cannot be generated. */
const char *gen_vertex_pass(struct gen *g, unsigned exit)
{
    struct x86_asm *a = &g->a;
    const struct vfetch_gx_plan *plan = g->gx;
    const struct vfetch_plan *conv = g->conv;
    /* r11: the shared word table, or the byte tables (each op's at its distance from the
       first), loaded once */
    g->tables = 0;
    const uint32_t *words = plan_colour_words(g);
    for (unsigned i = 0; i < conv->desc.num_ops && !words; i++)
        if (packs_by_table(&conv->ops[i])) {
            const uint64_t t = rgba8_table(g, &conv->ops[i]);
            g->tables = g->tables && g->tables < t ? g->tables : t;
        }
    if (words)
        E(MOV_R11_I64, 0, (int64_t)(uintptr_t)words);
    else if (g->tables)
        E(LEA_R11_P, g->tables, 0);
    const struct x86_mark counted = gen_held_open(g);
    g->r8_narrow = gen_narrow_indices(g); /* as at the loop's start (gen_narrow_r8) */
    (void)gen_vertex(g); /* counted, then taken back: which shuffle controls to hold */
    const unsigned body_ops = a->ops - counted.ops;
    gen_held_controls(g, counted);
    g->r8_narrow = 0;
    gen_narrow_r8(g);
    const unsigned loop = x86_label(a), next = x86_label(a), skip = x86_label(a),
                   after = x86_label(a);
    const int skips = plan && plan->position_copy >= 0;
    struct group_loop loops[2];
    const unsigned num_loops = group_loops(g, body_ops, loops);
    const char *why = NULL;
    if (num_loops) {
        const unsigned counts[4] = { g->broadcasts, g->byte_batches, g->float_pairs,
                                     g->matrices_beside };
        /* each loop's groups (its vertex j's skip test leaving for stub[j]), going on at its
           tail with rcx the vertices left */
        for (struct group_loop *l = loops; l < loops + num_loops; l++) {
            l->group = x86_label(a);
            l->tail = x86_label(a);
            group_open(g, l);
            g->in_group = 1;
            uint32_t readable[VFETCH_MAX_STREAMS];
            memcpy(readable, g->readable, sizeof readable);
            for (unsigned j = 0; j < l->size; j++) {
                group_bias(g, j);
                group_readable(g, readable, l->size - 1 - j);
                l->stub[j] = skips ? x86_label(a) : 0;
                vertex_top(g, l->stub[j]);
                const char *w = gen_vertex(g);
                why = why ? why : w;
            }
            memcpy(g->readable, readable, sizeof readable);
            g->in_group = 0;
            gen_narrow_r8(g);
            group_close(g, l);
        }
        x86_jump(a, X86_JZ, after);
        g->unrolled_passes++;
        /* vfetch_jit_code's figures count the single vertex's ops, written next */
        g->broadcasts = counts[0];
        g->byte_batches = counts[1];
        g->float_pairs = counts[2];
        g->matrices_beside = counts[3];
    }
    x86_bind(a, loop);
    vertex_top(g, skip);
    const char *w = gen_vertex(g);
    why = why ? why : w;
    gen_narrow_r8(g);
    if (conv->out_stride)
        E(ADD_RDX_I, 0, conv->out_stride);
    x86_bind(a, next);
    advance_bases(g, 1, 0);
    E(DEC_RCX, 0, 0);
    x86_jump(a, X86_JNZ, loop);
    if (skips && exit == GEN_FALL_THROUGH) { /* jumped over */
        x86_jump(a, X86_JMP, after);
        skipped_vertex(g, skip, next);
        group_stubs(g, loops, num_loops);
    }
    x86_bind(a, after);
    gen_held_close(g);
    if (g->dirty_upper)
        E(VZEROUPPER, 0, 0);
    if (exit != GEN_FALL_THROUGH) { /* after the jump out */
        x86_jump(a, X86_JMP, exit);
        if (skips) {
            skipped_vertex(g, skip, next);
            group_stubs(g, loops, num_loops);
        }
    }
    return why;
}
