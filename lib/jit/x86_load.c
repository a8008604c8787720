/*
 * Loads (lib/jit/x86_gen.h): where an op's bytes lie (the vertex, an indexed copy's element, a
 * plan's stream), and how they reach xmm0: at most two loads that read only those bytes, or
 * one wider load where the buffer surely holds the bytes past them, then one byte shuffle that
 * puts each component's container at the top of its 32-bit lane (byte swap, placement and zero
 * fill at once).
 */
#include <string.h>

#include "jit/x86_gen.h"

/* One op's source bytes in the vertex or an element (GX), or in a record of one of a plan's
   streams (plan NULL); 0, or -1 when they span two copies or two streams. */
int gen_op_source(const struct vfetch_gx_plan *plan, const struct vfetch_op_exec *x,
                  struct op_source *s)
{
    s->copy = -2;
    s->base = plan ? 0 : x->lane[0].stream;
    for (unsigned c = 0; !plan && c < x->count; c++)
        if (x->lane[c].stream != s->base)
            return -1;
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (unsigned c = 0; c < x->count; c++)
        for (unsigned k = 0; k < x->lane[c].nbytes; k++) {
            const uint32_t b = x->lane[c].byte_off[k];
            int copy = -1;
            int32_t off = (int32_t)b;
            if (plan && plan->any_indexed) {
                copy = -3;
                for (unsigned i = 0; i < plan->num_copies; i++) {
                    const struct vfetch_gx_copy *cp = &plan->copies[i];
                    if (b < cp->dst || b >= (uint32_t)cp->dst + cp->size)
                        continue;
                    if (cp->array == VFETCH_GX_FROM_VERTEX) {
                        copy = -1;
                        off = (int32_t)(cp->src + (b - cp->dst));
                    } else {
                        copy = (int)i;
                        off = (int32_t)(cp->elem_off + (b - cp->dst));
                    }
                }
                if (copy == -3)
                    return -1;
            }
            if (s->copy != -2 && s->copy != copy)
                return -1;
            s->copy = copy;
            s->off[c][k] = off;
            lo = off < lo ? off : lo;
            hi = off > hi ? off : hi;
        }
    s->lo = lo;
    s->span = (uint32_t)(hi - lo + 1);
    if (s->copy >= 0)
        s->base = 1; /* an element: r8 */
    return 0;
}

/* The bytes to load for `span` bytes at `lo`: 4, 8 or 16 where the buffer surely holds them
   (`readable` bytes from the base), one load instead of two; else the span itself. */
unsigned gen_load_width(int32_t lo, unsigned span, uint32_t readable)
{
    const unsigned wider = span <= 4 ? 4 : span <= 8 ? 8 : 16;
    return (uint32_t)lo + wider <= readable ? wider : span;
}

size_t gen_arrays_data(unsigned a)
{
    return offsetof(struct vfetch_gx_run_params, arrays) + a * sizeof(struct vfetch_binding) +
           offsetof(struct vfetch_binding, data);
}

size_t gen_arrays_size(unsigned a)
{
    return offsetof(struct vfetch_gx_run_params, arrays) + a * sizeof(struct vfetch_binding) +
           offsetof(struct vfetch_binding, size);
}

/* The register an op reads a base from (GX: the vertex's rdi, an element's r8 or its held
   base and r8 scaled, gen_load_element): a plan's stream's own (under an index buffer, where
   gen_records_at_offset, its record 0 plus r11), or for a stream kept in the frame, r15
   loaded with its record now. */
unsigned gen_stream_register(struct gen *g, unsigned base)
{
    if (g->gx)
        return base ? g->elem_base : 0;
    if (gen_records_at_offset(g)) /* stream k in STREAM_ROW's place k (gen_stream_reg) */
        return GEN_STREAM_R11 + base;
    if (base < g->reg_streams)
        return gen_stream_reg(g, base);
    E(MOV_R15_MRSP, g->frame_slot[base], 0);
    return GEN_REGS - 1;
}

/* Whether the per-vertex pass reads a 16-bit index at the avx2 level (its code's MOVBE: every
   AVX2 CPU has it, lib/cpu.c) where the CPU takes `movbe` as one operation: then r8's upper
   bits are kept zero where a vertex begins, so that each such index is one `movbe r8w`
   (g->r8_narrow) instead of `movzx` and `rol`. */
int gen_narrow_indices(const struct gen *g)
{
    if (g->a.sse || !g->gx || !g->movbe_indices)
        return 0;
    for (unsigned k = 0; k < g->gx->num_copies; k++)
        if (g->gx->copies[k].array != VFETCH_GX_FROM_VERTEX && g->gx->copies[k].index_size == 2)
            return 1;
    return 0;
}

/* Where a loop of the pass begins or goes back to its start: r8's upper bits zeroed where
   they may not be (gen_narrow_indices). */
void gen_narrow_r8(struct gen *g)
{
    const int narrow = gen_narrow_indices(g);
    if (narrow && !g->r8_narrow)
        E(XOR_R8D_R8D, 0, 0);
    g->r8_narrow = narrow;
}

/* r8 *= m: xor for 0, imul where one instruction cannot (gen_multiplier_one_op), one lea for
   3, 5 and 9, else one shift for a power of two (nothing for 1). */
static void multiply_r8(struct gen *g, uint32_t m)
{
    g->r8_narrow = m <= 1 && g->r8_narrow;
    static const enum x86_shape lea[3] = { X86_LEA_R8_MR8_R8X2, X86_LEA_R8_MR8_R8X4,
                                           X86_LEA_R8_MR8_R8X8 };
    if (!m)
        E(XOR_R8D_R8D, 0, 0);
    else if (!gen_multiplier_one_op(m))
        E(IMUL_R8_I, 0, m);
    else if (m == 3 || m == 5 || m == 9)
        x86_op(&g->a, lea[m == 3 ? 0 : m == 5 ? 1 : 2], 0, 0);
    else {
        unsigned k = 0;
        while ((1u << k) != m)
            k++;
        if (k)
            E(SHL_R8_I, 0, k);
    }
}

/* The element copy k reads in this vertex: its index in r8, scaled for [base + r8 * scale]
   from its array's base, held in a register or else loaded into rax (which the op's own
   instructions may take after their loads: the next op loads it again), else r8 = array data
   + index * stride; how in g->elem_base (gen_stream_register). */
void gen_load_element(struct gen *g, int k)
{
    if (g->elem_copy == k && g->elem_base < GEN_ELEMENT_BASE(GEN_RAX_BASE, 0))
        return;
    const struct vfetch_gx_copy *cp = &g->gx->copies[k];
    const uint32_t stride = g->gx->desc.array_stride[cp->array];
    if (cp->index_size == 1) {
        if (g->raw_copy != k)
            E(MOVZX_R8D_B_MRDI, cp->src, 0);
    } else if (g->raw_copy != k && gen_movbe_index(g)) {
        E(MOVBE_R8W_MRDI, cp->src, 0);
    } else if (g->raw_copy != k || !g->raw_swapped) { /* as read: swapped here */
        if (g->raw_copy != k)
            E(MOVZX_R8D_W_MRDI, cp->src, 0);
        E(ROL_R8W_8, 0, 8);
    }
    g->r8_narrow = 1;
    g->raw_copy = -1;
    g->elem_copy = k;
    uint32_t m;
    const unsigned held = gen_held_element(g, cp->array, stride, &m);
    if (held >= GEN_ELEMENT_BASE(GEN_RAX_BASE, 0))
        E(MOV_RAX_MRSI, gen_arrays_data(cp->array), 0);
    multiply_r8(g, m);
    g->elem_base = held ? held : 1;
    if (!held) {
        E(ADD_R8_MRSI, gen_arrays_data(cp->array), 0);
        g->r8_narrow = 0;
    }
}

unsigned gen_span_pos(const struct span_layout *l, unsigned j)
{
    return j < l->s1 ? j : l->s1 + (j - (l->span - l->s2));
}

/* How gen_load_span loads `span` bytes: the largest power of two of them (at most 16) first,
   the rest by one insert of the next power of two, ending at the span's last byte. */
void gen_span_layout(unsigned span, struct span_layout *l)
{
    unsigned s1 = 1;
    while (s1 * 2 <= span && s1 < 16)
        s1 *= 2;
    const unsigned r = span - s1;
    unsigned s2 = 0;
    if (r)
        for (s2 = 1; s2 < r; s2 *= 2)
            ;
    l->s1 = s1;
    l->s2 = s2;
    l->span = span;
}

/* Load span bytes at [base + lo] into xmm0 (dst 1: xmm1, from a base register or a stream
   register plus rax only) in at most two loads that read only those bytes (gen_span_layout).
   `base`: a load table's entry (LOAD_ROW), or GEN_STREAM_RAX + a stream register's place. */
void gen_load_span(struct gen *g, unsigned base, int dst, int32_t lo, unsigned span,
                   struct span_layout *l)
{
    gen_span_layout(span, l);
    const unsigned s1 = l->s1, s2 = l->s2;
    /* first load, then the insert: [size][base register; a base register into xmm1; a stream
       register plus rax, into xmm0, then into xmm1] */
#define SPAN_ROW(x0, x1)                                                                    \
    { LOAD_ROW(x0), BASE_ROW(x1), STREAM_ROW(x0, _RAX), STREAM_ROW(x1, _RAX) }
    static const enum x86_shape first[5][GEN_SPAN_BASES] = {
        [1] = SPAN_ROW(VPINSRB_X0_X15, VPINSRB_X1_X15),
        [2] = SPAN_ROW(VPINSRW_X0_X15, VPINSRW_X1_X15),
        [3] = SPAN_ROW(VMOVD_X0, VMOVD_X1),
        [4] = SPAN_ROW(VMOVQ_X0, VMOVQ_X1),
        [0] = SPAN_ROW(VMOVDQU_X0, VMOVDQU_X1),
    };
    static const enum x86_shape insert[5][GEN_SPAN_BASES] = {
        [1] = SPAN_ROW(VPINSRB_X0_X0, VPINSRB_X1_X1),
        [2] = SPAN_ROW(VPINSRW_X0_X0, VPINSRW_X1_X1),
        [3] = SPAN_ROW(VPINSRD_X0_X0, VPINSRD_X1_X1),
        [4] = SPAN_ROW(VPINSRQ_X0_X0, VPINSRQ_X1_X1),
    };
#undef SPAN_ROW
    const unsigned b = !dst                      ? base
                       : base >= GEN_STREAM_RAX ? base + GEN_INDEX_REG_STREAMS
                                                : GEN_TO_XMM1 + base;
    const unsigned k1 = s1 == 1 ? 1 : s1 == 2 ? 2 : s1 == 4 ? 3 : s1 == 8 ? 4 : 0;
    x86_op(&g->a, first[k1][b], lo, 0);
    if (!s2)
        return;
    const int32_t at = lo + (int32_t)(span - s2);
    const unsigned k2 = s2 == 1 ? 1 : s2 == 2 ? 2 : s2 == 4 ? 3 : 4;
    x86_op(&g->a, insert[k2][b], at, s1 / s2);
}

/* The shuffle control that puts the containers of the components in `members` in xmm0's
   lanes, from bytes at off[c][k] - lo of a span loaded as l says: each container at its 32-bit
   lane's top, or its bottom where that is its field (gen_fields_at_bottom); FLOAT16 in 16-bit
   words. */
static void shuffle_control(uint8_t ctrl[16], const struct vfetch_op_exec *x, unsigned members,
                            const struct span_layout *l, int32_t lo, const int32_t off[4][4])
{
    const unsigned nb = x->lane[0].nbytes, half = x->format == VFETCH_FORMAT_FLOAT16;
    const unsigned lane = half ? 2 : 4, pad = half || gen_fields_at_bottom(x) ? 0 : 4 - nb;
    for (unsigned c = 0; c < x->count; c++)
        for (unsigned k = 0; members >> c & 1 && k < nb; k++)
            ctrl[lane * c + pad + k] = (uint8_t)gen_span_pos(l, (unsigned)(off[c][k] - lo));
}

/* Whether the shuffle would move none of the lanes the op stores: 32-bit floats taken as they
   are, each already in its lane in memory order (a little-endian plan's position, say). The
   lanes past its count are never stored (gen_effective_select: a component the op lacks is a
   constant), so what the load left there does not matter. */
static int fields_in_place(const uint8_t ctrl[16], const struct vfetch_op_exec *x)
{
    if (x->format != VFETCH_FORMAT_FLOAT32 || x->conversion != VFETCH_CONV_FLOAT)
        return 0;
    for (unsigned b = 0; b < 4 * x->count; b++)
        if (ctrl[b] != b)
            return 0;
    return 1;
}

/* An op's bytes from one base (s, addressed from register `base`): its containers at the tops
   of xmm0's lanes (FLOAT16: in 16-bit words); no shuffle where they are there as loaded. */
void gen_load_fields(struct gen *g, const struct vfetch_op_exec *x, const struct op_source *s,
                     unsigned base)
{
    struct span_layout l;
    const uint32_t readable = s->copy >= 0 ? g->elem_readable[s->copy] : g->readable[s->base];
    const unsigned width = gen_load_width(s->lo, s->span, readable);
    if (width == 12 && !g->a.sse && (g->collecting || g->mask_held)) {
        /* 12 bytes that may be the buffer's last (config c's position from an array sized to
           its rows): one load of the first three lanes (the fourth neither read nor able to
           fault) where vmovq and vpinsrd took two, the mask held in xmm14 for the pass */
        static const enum x86_shape masked[GEN_LOAD_BASES] = { LOAD_ROW(VPMASKMOVD_X0_X14) };
        g->masked_wanted += (unsigned)g->collecting;
        x86_op(&g->a, masked[base], s->lo, 0);
        gen_span_layout(16, &l);
    } else
        gen_load_span(g, base, 0, s->lo, width, &l);
    uint8_t ctrl[16];
    memset(ctrl, 0x80, sizeof ctrl);
    shuffle_control(ctrl, x, (1u << x->count) - 1, &l, s->lo, s->off);
    if (!fields_in_place(ctrl, x))
        gen_shuffle(g, ctrl);
}

/* A plan's op whose components come from several streams, or lie more than 16 bytes apart,
   into xmm0 as one load and shuffle would leave them: each run of components of one stream
   within 16 bytes loaded and shuffled on its own, the runs merged in xmm2. */
void gen_load_gathered(struct gen *g, const struct vfetch_op_exec *x)
{
    const unsigned all = (1u << x->count) - 1, nb = x->lane[0].nbytes;
    int32_t off[4][4];
    for (unsigned c = 0; c < x->count; c++)
        for (unsigned k = 0; k < nb; k++)
            off[c][k] = (int32_t)x->lane[c].byte_off[k];
    unsigned done = 0;
    for (int first = 1; done != all; first = 0) {
        unsigned c0 = 0;
        while (done >> c0 & 1)
            c0++;
        const unsigned stream = x->lane[c0].stream;
        int32_t lo = INT32_MAX, hi = INT32_MIN;
        unsigned members = 0;
        for (unsigned c = c0; c < x->count; c++) {
            if (done >> c & 1 || x->lane[c].stream != stream)
                continue;
            int32_t l = lo, h = hi;
            for (unsigned k = 0; k < nb; k++) {
                l = off[c][k] < l ? off[c][k] : l;
                h = off[c][k] > h ? off[c][k] : h;
            }
            if (members && h - l + 1 > 16)
                continue;
            lo = l;
            hi = h;
            members |= 1u << c;
        }
        done |= members;
        const unsigned reg = gen_stream_register(g, stream);
        struct span_layout l;
        gen_load_span(g, reg, 0, lo, gen_load_width(lo, (unsigned)(hi - lo + 1), g->readable[stream]),
                      &l);
        uint8_t ctrl[16];
        memset(ctrl, 0x80, sizeof ctrl);
        shuffle_control(ctrl, x, members, &l, lo, off);
        if (first && done != all) {
            E(VPSHUFB_X2_X0_P, POOL(ctrl), 0);
            continue;
        }
        E(VPSHUFB_X0_X0_P, POOL(ctrl), 0);
        if (!first)
            x86_op(&g->a, done != all ? X86_VPOR_X2_X2_X0 : X86_VPOR_X0_X0_X2, 0, 0);
    }
}
