/*
 * Whole groups of a direct format through its record program (lib/jit/x86_gen.h, lib/record.h):
 * the program's vectors emitted as code, one emitter per step of lib/simd/record_passes.h,
 * named after the portable function it mirrors (rp_load_window, rp_halves, rp_permute,
 * rp_convert's raw, fixed-point, PACK8 and binary16 parts, rp_store), each table a constant of
 * the pool; the 8-lane loop keeps its most used tables in ymm registers, and takes several
 * small groups an iteration. Kept only where a group costs fewer instructions a vertex than
 * the ops one vertex at a time (gen_choose_groups).
 */
#include <stdlib.h>
#include <string.h>

#include "jit/x86_gen.h"

/* The record program's passes this generator emits: binary16 lanes and the AVX-512 table forms
   are not here. */
#define GEN_RP_PASSES                                                                       \
    (VFETCH_RP_LOAD | VFETCH_RP_FIXED | VFETCH_RP_SHIFT | VFETCH_RP_DIV | VFETCH_RP_CLAMP |   \
     VFETCH_RP_BLEND | VFETCH_RP_RAW | VFETCH_RP_KEEP | VFETCH_RP_MASK | VFETCH_RP_WIDEN |      \
     VFETCH_RP_PACK8 | VFETCH_RP_HALF)

/* Those the SSE4.1 variant emits: no variable shifts (SHIFT, WIDEN), masked stores (KEEP) or
   binary16 (HALF). */
#define GEN_RP_PASSES_SSE                                                                   \
    (VFETCH_RP_LOAD | VFETCH_RP_FIXED | VFETCH_RP_DIV | VFETCH_RP_CLAMP | VFETCH_RP_BLEND |   \
     VFETCH_RP_RAW | VFETCH_RP_MASK | VFETCH_RP_PACK8)

/* The record program's ops that have forms with the table in a register, in the order of
   X86_RP_REG_FORMS; REGFORM_LOAD loads the register. */
enum regform {
    REGFORM_SHUFB, REGFORM_XOR_1_0, REGFORM_XOR_1_1, REGFORM_MUL, REGFORM_ADD, REGFORM_SLLV,
    REGFORM_AND_1_1, REGFORM_OR_2_0, REGFORM_MULLW_3_0, REGFORM_MULLW_4_0, REGFORM_AND_3_3,
    REGFORM_AND_4_4, REGFORM_MULHUW_5_3, REGFORM_MULHUW_5_4, REGFORM_OR_3_3, REGFORM_MUL_3_1,
    REGFORM_FMADD_1_3, REGFORM_LOAD,
    REGFORMS,
    REGFORM_NONE = -1
};

static enum x86_shape regform_shape(enum regform f, unsigned k)
{
    _Static_assert(X86_VPSHUFB_Y0_Y0_Y7 - X86_VPSHUFB_Y0_Y0_Y6 == REGFORMS,
                   "X86_RP_REG_FORMS and enum regform differ");
    return (enum x86_shape)(X86_VPSHUFB_Y0_Y0_Y6 + k * REGFORMS + f);
}

/* Lanes i < n whose 32-bit table entry is all ones, as an immediate blend mask. */
static unsigned lane_mask(const int32_t *sel, unsigned n)
{
    unsigned m = 0;
    for (unsigned i = 0; i < n; i++)
        m |= (sel[i] == -1) << i;
    return m;
}

static int any_nonzero(const int32_t *t, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (t[i])
            return 1;
    return 0;
}

/* Whether the fixed-point lanes need their addend: x + 0.0 is x for every x the conversion can
   produce (cvtdq2ps never gives -0.0, and the scales are positive: checked, or the add stays). */
static int needs_add(const struct vfetch_rp_vector *v, unsigned lanes)
{
    int add = 0;
    for (unsigned i = 0; i < lanes; i++) {
        uint32_t m, d;
        memcpy(&m, &v->mul[i], 4);
        memcpy(&d, &v->add[i], 4);
        add |= d != 0 || (m >> 31) != 0;
    }
    return add;
}

/* Whether the fixed-point lanes need their product: x * 1.0 is x (unsigned whole fields at
   their lanes' bottoms, lib/record.c, have no other scale). */
static int needs_mul(const struct vfetch_rp_vector *v, unsigned lanes)
{
    for (unsigned i = 0; i < lanes; i++)
        if (v->mul[i] != 1.0f)
            return 1;
    return 0;
}

/* One vector being emitted: its width and where its result is. */
struct rp_emit {
    int y;             /* 8 lanes (ymm), else 4 (xmm) */
    unsigned lanes, entries;
    int raw_or;        /* it ORs raw lanes with a table */
    int all_fixed;     /* every written lane fixed-point: the result is register 1's */
    int res_in_0;      /* the result is in register 0: the shuffle's bytes as they are (the raw
                          lanes), or those with lanes blended in where no later pass reads them */
    int broadcast;     /* both halves of register 0 hold the one window (broadcast_controls) */
};

#define C(table) x86_const_wide(&g->a, (table), e->entries)
#define O(shape_y, shape_x, disp, imm) x86_op(&g->a, e->y ? X86_##shape_y : X86_##shape_x, (disp), (imm))
#define T(shape_y, shape_x, form, table) table_op(g, e->y, X86_##shape_y, X86_##shape_x, (form), (table))

/* An op with a table of the pool: at 8 lanes from the register that holds the table where the
   group loop loaded one (form f), else from the pool. */
static void table_op(struct gen *g, int y, enum x86_shape ymem, enum x86_shape xmem,
                     enum regform f, const void *table)
{
    const uint64_t at = x86_const_wide(&g->a, table, y ? 2 : 1);
    if (y && f != REGFORM_NONE)
        for (unsigned k = 0; k < g->num_reg_consts; k++)
            if (g->reg_const[k] == at) {
                x86_op(&g->a, regform_shape(f, k), 0, 0);
                return;
            }
    x86_op(&g->a, y ? ymem : xmem, (int64_t)at, 0);
}

/* The first and last byte of lane q's window of vector v that its shuffles read (the binary16
   one's too); first > last where they read none. */
static void window_used(const struct vfetch_rp_vector *v, unsigned q, unsigned *first,
                        unsigned *last)
{
    const uint8_t *c = v->ctrl + 16 * q, *h = v->hctrl + 16 * q;
    const int half = (v->passes & VFETCH_RP_HALF) != 0;
    *first = 16;
    *last = 0;
    for (unsigned i = 0; i < 16; i++)
        for (int t = 0; t <= half; t++) {
            const unsigned b = t ? h[i] : c[i];
            if (!(b & 0x80)) {
                *first = (b & 15) < *first ? (b & 15) : *first;
                *last = (b & 15) > *last ? (b & 15) : *last;
            }
        }
}

/* Lane q's window of vector v: loaded whole where it lies inside the group's readable bytes of
   its stream (group_at), else only the bytes its shuffles read (a window may reach past the
   vertices, its used bytes never do), the controls remapped to where they land. Where the
   window loads from, from its stream's register: *lo and *span (span 0: nothing read, every
   byte zero whatever the register holds; 16 at src_off: whole). */
static void window_load(const struct gen *g, const struct vfetch_rp_vector *v, unsigned q,
                        uint8_t ctrl[16], uint8_t hctrl[16], int32_t *lo, unsigned *span)
{
    const uint8_t *c = v->ctrl + 16 * q, *h = v->hctrl + 16 * q;
    const unsigned s = v->stream[q];
    if (v->src_off[q] + 16 <= g->rp_bytes[s]) { /* inside the group's bytes: one load */
        memcpy(ctrl, c, 16);
        memcpy(hctrl, h, 16);
        *lo = g->rp_srcs[s] + (int32_t)v->src_off[q];
        *span = 16;
        return;
    }
    unsigned first, last;
    window_used(v, q, &first, &last);
    if (first > last) {
        memset(ctrl, 0x80, 16);
        memset(hctrl, 0x80, 16);
        *span = 0;
        return;
    }
    struct span_layout l;
    *lo = g->rp_srcs[s] + (int32_t)(v->src_off[q] + first);
    *span = last - first + 1;
    gen_span_layout(*span, &l);
    for (unsigned i = 0; i < 16; i++) {
        ctrl[i] = c[i] & 0x80 ? 0x80 : (uint8_t)gen_span_pos(&l, (c[i] & 15) - first);
        hctrl[i] = h[i] & 0x80 ? 0x80 : (uint8_t)gen_span_pos(&l, (h[i] & 15) - first);
    }
}

/* Where both 128-bit lanes of an 8-lane vector read bytes of one 16-byte window of one stream
   the group may read (small records, or one record's attributes; the unrolled loop's earlier
   groups' bytes too): the window's offset from the group (*at) and each lane's controls moved
   to it. 0 where they do not. */
static int broadcast_controls(const struct gen *g, const struct vfetch_rp_vector *v,
                              uint8_t *ctrl, uint8_t *hctrl, int32_t *at)
{
    if (v->stream[0] != v->stream[1])
        return 0;
    const uint32_t group_bytes = g->rp_bytes[v->stream[0]];
    const int32_t src = g->rp_srcs[v->stream[0]];
    int32_t first = INT32_MAX, last = -1;
    for (unsigned q = 0; q < 2; q++) {
        unsigned f, l;
        window_used(v, q, &f, &l);
        if (f > l)
            continue;
        first = (int32_t)(v->src_off[q] + f) < first ? (int32_t)(v->src_off[q] + f) : first;
        last = (int32_t)(v->src_off[q] + l) > last ? (int32_t)(v->src_off[q] + l) : last;
    }
    const int32_t w = first < (int32_t)group_bytes - 16 ? first : (int32_t)group_bytes - 16;
    if (last < 0 || w < -src || last >= w + 16)
        return 0;
    for (unsigned i = 0; i < 32; i++) {
        const int32_t lane = (int32_t)v->src_off[i / 16] - w;
        ctrl[i] = v->ctrl[i] & 0x80 ? 0x80 : (uint8_t)(lane + (v->ctrl[i] & 15));
        hctrl[i] = v->hctrl[i] & 0x80 ? 0x80 : (uint8_t)(lane + (v->hctrl[i] & 15));
    }
    /* the binary16 lanes' halves, in the low 8 bytes of each half, all in the low half: the
       conversion reads them there without a cross-lane move (rp_halves) */
    if (v->passes & VFETCH_RP_HALF)
        memcpy(hctrl + 8, hctrl + 16, 8);
    *at = w;
    return 1;
}

/* rp_load_window: the vector's window(s) into xmm0 (and xmm1, inserted as ymm0's upper half),
   or one window broadcast to both halves, each from its stream's register; the controls for
   the shuffles (ctrl, hctrl: 32 bytes at 8 lanes). */
static void rp_load_window(struct gen *g, struct rp_emit *e,
                           const struct vfetch_rp_vector *v, uint8_t *ctrl, uint8_t *hctrl)
{
    static const enum x86_shape broadcast[GEN_REGS] = { BASE_ROW(VBROADCASTI128_Y0) },
                                whole[2][GEN_REGS] = { { BASE_ROW(VMOVDQU_X0) },
                                                       { REG_ROW(VINSERTI128_Y0_Y0_M, _I) } };
    int32_t at;
    if (e->y && broadcast_controls(g, v, ctrl, hctrl, &at)) {
        e->broadcast = 1;
        x86_op(&g->a, broadcast[gen_stream_reg(g, v->stream[0])],
               g->rp_srcs[v->stream[0]] + at, 0);
        g->broadcasts++;
        return;
    }
    /* the upper half's whole window inserted from memory (no shuffle port on Intel cores,
       where a register's insert takes it), after the lower half's load that clears it */
    int inserted = 0;
    for (unsigned q = 0; q < 1u + e->y; q++) {
        int32_t lo = 0;
        unsigned span;
        const unsigned s = v->stream[q], base = gen_stream_reg(g, s);
        window_load(g, v, q, ctrl + 16 * q, hctrl + 16 * q, &lo, &span);
        struct span_layout l;
        if (span == 16 && lo == g->rp_srcs[s] + (int32_t)v->src_off[q] &&
            v->src_off[q] + 16 <= g->rp_bytes[s]) {
            x86_op(&g->a, whole[q][base], lo, q);
            inserted = q;
        } else if (span)
            gen_load_span(g, base, (int)q, lo, span, &l);
    }
    if (e->y && !inserted)
        E(VINSERTI128_Y0_Y0_X1_I, 0, 1);
}

/* Gathered groups (gen_groups gathered): a group's records each at its own place, read
   through the index buffer, so that a lane's window is loaded from its record's place (one
   stream: r11 plus its index scaled, gather_record; several of one stride: its stream's record
   0, held in the stream's register, plus its index times the stride, gather_stream_record),
   and only bytes of the record the draw's validation covers. */

/* The record of the group that 128-bit lane q of vector v reads, and the first and last bytes
   its shuffles read, from that record's start; 0 where it reads none. */
static int lane_record(const struct gen *g, const struct vfetch_rp_vector *v, unsigned q,
                       unsigned *rec, int32_t *first, int32_t *last)
{
    unsigned f, l;
    window_used(v, q, &f, &l);
    if (f > l)
        return 0;
    const uint32_t stride = g->step[v->stream[q]];
    *rec = (v->src_off[q] + f) / stride;
    const int32_t start = (int32_t)(*rec * stride);
    *first = (int32_t)(v->src_off[q] + f) - start;
    *last = (int32_t)(v->src_off[q] + l) - start;
    return 1;
}

/* Whether a draw through the index buffer may gather: every stream indexed with one stride
   (gen_indexed_one_stride: R300's arrays of one interleaved buffer, one offset a record serving
   every stream), not 0, each with bytes of its record the draw validates, and no more than its
   stride: where a record's fields reach past its stride, the bytes a lane reads past it are the
   next record's in the program's windows (lane_record names the record by offset / stride),
   but the record's own in its place, which a gathered group would not read. */
static int gather_streams(const struct gen *g)
{
    if (!gen_indexed_one_stride(g) || !g->step[0])
        return 0;
    for (unsigned s = 0; s < g->num_streams; s++)
        if (!g->readable[s] || g->readable[s] > g->step[s])
            return 0;
    return 1;
}

/* Whether each lane of prog reads bytes of one record, inside the bytes readable from it (its
   stream's extent): then its groups may read their records one by one. */
static int gather_fits(const struct gen *g, const struct vfetch_record_prog *prog)
{
    if (!gather_streams(g))
        return 0;
    for (unsigned k = 0; k < prog->num_vectors; k++) {
        const struct vfetch_rp_vector *v = &prog->vec[k];
        for (unsigned q = 0; q < prog->lanes / 4 && (v->passes & VFETCH_RP_LOAD); q++) {
            unsigned rec;
            int32_t first, last;
            if (lane_record(g, v, q, &rec, &first, &last) &&
                (rec >= prog->group || (uint32_t)last >= g->readable[v->stream[q]]))
                return 0;
        }
    }
    return 1;
}

/* The load of bytes first..last of a record of stream s: the narrowest of 4, 8 and 16 bytes
   that holds them inside the record's readable bytes, from *at; 0 where none does (then the
   bytes themselves, gen_load_span). */
static unsigned gather_width(const struct gen *g, unsigned s, int32_t first, int32_t last,
                             int32_t *at)
{
    const int32_t readable = (int32_t)g->readable[s];
    for (int32_t w = 4; w <= 16; w *= 2)
        if (last - first < w && w <= readable) {
            *at = first < readable - w ? first : readable - w;
            return (unsigned)w;
        }
    return 0;
}

/* Where a vector's gathered windows load from: one load for both halves (broadcast), or each
   half's own (width 0: its bytes by gen_load_span); each from record rec of the group in
   stream `stream`. */
struct gather_load {
    int broadcast, used[2];
    unsigned rec[2], width[2], stream[2];
    int32_t at[2], first[2], last[2];
};

/* Window byte b of lane q (a control's value) where its load puts it. */
static uint8_t gather_pos(const struct gen *g, const struct vfetch_rp_vector *v,
                          const struct gather_load *gl, unsigned q, uint8_t b)
{
    const unsigned k = gl->broadcast ? 0 : q;
    if ((b & 0x80) || !gl->used[q])
        return 0x80;
    const int32_t in_record =
        (int32_t)v->src_off[q] - (int32_t)(gl->rec[q] * g->step[gl->stream[q]]) + (b & 15);
    if (gl->width[k])
        return (uint8_t)(in_record - gl->at[k]);
    struct span_layout l;
    gen_span_layout((unsigned)(gl->last[q] - gl->first[q] + 1), &l);
    return (uint8_t)gen_span_pos(&l, (unsigned)(in_record - gl->first[q]));
}

/* Vector v's windows in gathered groups (*gl), and its controls moved to where the loads put
   the bytes. Both halves from one load where they read one record's bytes that fit one. */
static void gather_window(const struct gen *g, const struct vfetch_rp_vector *v, int y,
                          struct gather_load *gl, uint8_t *ctrl, uint8_t *hctrl)
{
    const unsigned halves = y ? 2 : 1;
    memset(gl, 0, sizeof *gl);
    for (unsigned q = 0; q < halves; q++) {
        gl->stream[q] = v->stream[q];
        gl->used[q] = lane_record(g, v, q, &gl->rec[q], &gl->first[q], &gl->last[q]);
    }
    for (unsigned q = 0; q < halves; q++)
        if (gl->used[q])
            gl->width[q] = gather_width(g, gl->stream[q], gl->first[q], gl->last[q], &gl->at[q]);
    if (y && (gl->used[0] || gl->used[1]) &&
        (!gl->used[0] || !gl->used[1] ||
         (gl->rec[0] == gl->rec[1] && gl->stream[0] == gl->stream[1]))) {
        const unsigned a = gl->used[0] ? 0 : 1, b = gl->used[1] ? 1 : 0;
        const int32_t first = gl->first[a] < gl->first[b] ? gl->first[a] : gl->first[b],
                      last = gl->last[a] > gl->last[b] ? gl->last[a] : gl->last[b];
        int32_t at;
        const unsigned width = gather_width(g, gl->stream[a], first, last, &at);
        if (width) {
            gl->broadcast = 1;
            gl->rec[0] = gl->rec[1] = gl->rec[a];
            gl->stream[0] = gl->stream[1] = gl->stream[a];
            gl->width[0] = width;
            gl->at[0] = at;
        }
    }
    for (unsigned q = 0; q < halves; q++)
        for (unsigned i = 0; i < 16; i++) {
            ctrl[16 * q + i] = gather_pos(g, v, gl, q, v->ctrl[16 * q + i]);
            hctrl[16 * q + i] = gather_pos(g, v, gl, q, v->hctrl[16 * q + i]);
        }
    /* as broadcast_controls: the binary16 lanes' halves all in the low half */
    if (gl->broadcast && (v->passes & VFETCH_RP_HALF))
        memcpy(hctrl + 8, hctrl + 16, 8);
}

/* The scale of a gathered record's address [r11 + rax * scale] (0..3: 1, 2, 4, 8 bytes):
   rax the record's index where the stride is a scale, else its offset (index * stride, the
   scale 1). */
static unsigned gather_scale(const struct gen *g)
{
    const int scale = gen_stride_scale(g->step[0]);
    return scale < 0 ? 0 : (unsigned)scale;
}

/* A plan of several streams: the place of stream s's register in STREAM_ROW. */
static unsigned gather_stream_row(const struct gen *g, unsigned s)
{
    const unsigned reg = gen_stream_reg(g, s);
    return reg ? reg - 3 : 0; /* rdi, then rbx (4) on */
}

/* rax: the index of record rec of the group being written, from its entry (r8 plus the
   group's first record's entries; in a draw that is not plain, the offset added and clamped,
   as the pass's vertex_index), times the stride where that is no scale (several streams: times
   their one stride, each record then at [its stream's register + rax]), where it does not
   hold it yet; one stream's rdi the record's address too where a load takes only rdi
   (in_rdi). */
static void gather_record(struct gen *g, unsigned rec, int in_rdi)
{
    const unsigned at = g->gather_first + rec;
    if (g->gather_held != (int)at) {
        if (g->index_wide)
            E(MOV_EAX_MR8, 4 * at, 0);
        else
            E(MOVZX_EAX_W_MR8, 2 * at, 0);
        if (!g->index_plain) {
            E(ADD_RAX_RSI, 0, 0);
            E(CMP_RAX_R9, 0, 0);
            E(CMOVNLE_RAX_R9, 0, 0);
        }
        if (g->num_streams > 1 || gen_stride_scale(g->step[0]) < 0)
            E(IMUL_RAX_I, 0, g->step[0]);
        g->gather_held = (int)at;
        g->gather_rdi = 0;
    }
    if (in_rdi && !g->gather_rdi) {
        x86_op(&g->a, gen_record_lea(gather_scale(g)), 0, 0);
        g->gather_rdi = 1;
    }
}

/* A gathered load of `width` bytes (4, 8 or 16) at `at` in the record: into both halves of
   ymm0 (q 2), or into xmm0 or xmm1 (q 0, 1); from [r11 + rax * scale] (gather_scale). */
static void gather_load(struct gen *g, unsigned q, unsigned width, int32_t at)
{
#define SIB(shape) { X86_##shape##1, X86_##shape##2, X86_##shape##4, X86_##shape##8 }
    static const enum x86_shape by_index[3][3][4] = {
        { SIB(VMOVD_X0_MR11_RAX), SIB(VMOVQ_X0_MR11_RAX), SIB(VMOVDQU_X0_MR11_RAX) },
        { SIB(VMOVD_X1_MR11_RAX), SIB(VMOVQ_X1_MR11_RAX), SIB(VMOVDQU_X1_MR11_RAX) },
        { SIB(VPBROADCASTD_Y0_MR11_RAX), SIB(VPBROADCASTQ_Y0_MR11_RAX),
          SIB(VBROADCASTI128_Y0_MR11_RAX) }
    };
#undef SIB
    const unsigned w = width == 4 ? 0 : width == 8 ? 1 : 2;
    x86_op(&g->a, by_index[q][w][gather_scale(g)], at, 0);
}

/* rp_load_window in gathered groups of a plan of several streams: the vector's windows each
   from its record, [stream register + rax] (gather_record); a whole upper half inserted from
   memory, as rp_load_window does. */
static void gather_load_streams(struct gen *g, struct rp_emit *e,
                                const struct vfetch_rp_vector *v, uint8_t *ctrl, uint8_t *hctrl)
{
    static const enum x86_shape broadcast[3][GEN_INDEX_REG_STREAMS] = {
        { STREAM_ROW(VPBROADCASTD_Y0, _RAX) },
        { STREAM_ROW(VPBROADCASTQ_Y0, _RAX) },
        { STREAM_ROW(VBROADCASTI128_Y0, _RAX) }
    };
    static const enum x86_shape load[2][3][GEN_INDEX_REG_STREAMS] = {
        { { STREAM_ROW(VMOVD_X0, _RAX) }, { STREAM_ROW(VMOVQ_X0, _RAX) },
          { STREAM_ROW(VMOVDQU_X0, _RAX) } },
        { { STREAM_ROW(VPBROADCASTD_Y1, _RAX) }, { STREAM_ROW(VPBROADCASTQ_Y1, _RAX) },
          { STREAM_ROW(VINSERTI128_Y0_Y0, _RAX_I) } }
    };
    struct gather_load gl;
    gather_window(g, v, e->y, &gl, ctrl, hctrl);
    if (gl.broadcast) {
        gather_record(g, gl.rec[0], 0);
        const unsigned w = gl.width[0] == 4 ? 0 : gl.width[0] == 8 ? 1 : 2;
        x86_op(&g->a, broadcast[w][gather_stream_row(g, gl.stream[0])], gl.at[0], 0);
        e->broadcast = 1;
        g->broadcasts++;
        return;
    }
    /* the upper half: 16 bytes inserted from memory; 4 or 8 broadcast into ymm1 and blended
       in (a load and a blend: no shuffle port on an Intel core, as the insert of xmm1 takes);
       its bytes in xmm1, inserted */
    enum { UPPER_SPAN, UPPER_INSERTED, UPPER_BROADCAST } upper = UPPER_SPAN;
    for (unsigned q = 0; q < 1u + e->y; q++) {
        if (!gl.used[q])
            continue;
        gather_record(g, gl.rec[q], 0);
        const unsigned row = gather_stream_row(g, gl.stream[q]);
        const unsigned w = gl.width[q] == 4 ? 0 : gl.width[q] == 8 ? 1 : 2;
        struct span_layout l;
        if (gl.width[q])
            x86_op(&g->a, load[q][w][row], gl.at[q], q);
        else
            gen_load_span(g, GEN_STREAM_RAX + row, (int)q, gl.first[q],
                          (unsigned)(gl.last[q] - gl.first[q] + 1), &l);
        if (q && gl.width[q])
            upper = gl.width[q] == 16 ? UPPER_INSERTED : UPPER_BROADCAST;
    }
    if (e->y && upper == UPPER_BROADCAST)
        E(VPBLENDD_Y0_Y0_Y1_I, 0, 0xF0);
    else if (e->y && upper == UPPER_SPAN)
        E(VINSERTI128_Y0_Y0_X1_I, 0, 1);
}

/* rp_load_window in gathered groups: the vector's windows from their records. */
static void gather_load_window(struct gen *g, struct rp_emit *e,
                               const struct vfetch_rp_vector *v, uint8_t *ctrl, uint8_t *hctrl)
{
    struct gather_load gl;
    gather_window(g, v, e->y, &gl, ctrl, hctrl);
    if (gl.broadcast) {
        gather_record(g, gl.rec[0], 0);
        gather_load(g, 2, gl.width[0], gl.at[0]);
        e->broadcast = 1;
        g->broadcasts++;
        return;
    }
    for (unsigned q = 0; q < 1u + e->y; q++) {
        if (!gl.used[q])
            continue;
        gather_record(g, gl.rec[q], !gl.width[q]);
        struct span_layout l;
        if (gl.width[q])
            gather_load(g, q, gl.width[q], gl.at[q]);
        else
            gen_load_span(g, 0, (int)q, gl.first[q], (unsigned)(gl.last[q] - gl.first[q] + 1),
                          &l);
    }
    if (e->y)
        E(VINSERTI128_Y0_Y0_X1_I, 0, 1);
}

/* rp_halves: the binary16 lanes shuffled into register 6 and widened (F16C). */
static void rp_halves(struct gen *g, const struct rp_emit *e, const uint8_t *hctrl)
{
    O(VPSHUFB_Y6_Y0_P, VPSHUFB_X6_X0_P, C(hctrl), 0);
    if (e->y && !e->broadcast) /* the halves sit in the low 8 bytes of each 128-bit lane */
        E(VPERMQ_Y6_Y6_I, 0, 0x08);
    x86_op(&g->a, e->y ? X86_VCVTPH2PS_Y6_X6 : X86_VCVTPH2PS_X6_X6, 0, 0);
}

/* Whether a lane the raw result keeps (not one a fixed-point, packed or binary16 result
   replaces) has bits to OR in: the portable loop ORs every lane, but a lane blended over
   later (a packed colour's alpha) need not be. */
static int raw_or_kept(const struct vfetch_rp_vector *v, unsigned lanes)
{
    for (unsigned i = 0; i < lanes; i++)
        if (v->raw_or[i] && !v->fixed_sel[i] && !v->pack_sel[i] && !v->half_sel[i])
            return 1;
    return 0;
}

/* rp_convert's raw lanes (register 2): masked and sign-extended integers, or the shuffle's
   bytes ORed with a table; none where every written lane is fixed-point, and the shuffle's
   bytes as they are stay in register 0 until the first blend reads them (no copy). */
static void rp_raw(struct gen *g, struct rp_emit *e, const struct vfetch_rp_vector *v)
{
    if (e->all_fixed)
        return;
    if (v->passes & VFETCH_RP_MASK) {
        O(VPAND_Y2_Y0_P, VPAND_X2_X0_P, C(v->raw_and), 0);
        O(VPXOR_Y2_Y2_P, VPXOR_X2_X2_P, C(v->raw_sign), 0);
        O(VPSUBD_Y2_Y2_P, VPSUBD_X2_X2_P, C(v->raw_sign), 0);
        if (e->raw_or)
            O(VPOR_Y2_Y2_P, VPOR_X2_X2_P, C(v->raw_or), 0);
    } else if (raw_or_kept(v, e->lanes))
        T(VPOR_Y2_Y0_P, VPOR_X2_X0_P, REGFORM_OR_2_0, v->raw_or);
    else
        e->res_in_0 = 1;
}

/* The division's two tables in its fused multiply-add form (vfetch_jit_reciprocal). */
static void reciprocals(const struct vfetch_rp_vector *v, float hi[VFETCH_RP_LANES],
                        float lo[VFETCH_RP_LANES])
{
    for (unsigned i = 0; i < VFETCH_RP_LANES; i++)
        vfetch_jit_reciprocal(v->div[i], &hi[i], &lo[i]);
}

/* rp_convert's fixed-point lanes (register 1): shifted and masked (rp_shift_left), widened
   (rp_widen), sign flipped, converted, multiplied and added (rp_mul_add), divided and clamped,
   blended into the result. A zero sign flip, a product by 1 and a zero addend are left out. */
static void rp_fixed(struct gen *g, struct rp_emit *e, const struct vfetch_rp_vector *v)
{
    const unsigned P = v->passes;
    const int xor = any_nonzero(v->xmask, e->lanes);
    if (P & VFETCH_RP_SHIFT) {
        T(VPSLLVD_Y1_Y0_P, VPSLLVD_X1_X0_P, REGFORM_SLLV, v->shl);
        T(VPAND_Y1_Y1_P, VPAND_X1_X1_P, REGFORM_AND_1_1, v->fmask);
        if (P & VFETCH_RP_WIDEN) {
            O(VPSRLVD_Y3_Y1_P, VPSRLVD_X3_X1_P, C(v->widen_shr), 0);
            O(VPOR_Y1_Y1_Y3, VPOR_X1_X1_X3, 0, 0);
            O(VPAND_Y1_Y1_P, VPAND_X1_X1_P, C(v->widen_mask), 0);
        }
        if (xor)
            T(VPXOR_Y1_Y1_P, VPXOR_X1_X1_P, REGFORM_XOR_1_1, v->xmask);
        O(VCVTDQ2PS_Y1_Y1, VCVTDQ2PS_X1_X1, 0, 0);
    } else if (xor) {
        T(VPXOR_Y1_Y0_P, VPXOR_X1_X0_P, REGFORM_XOR_1_0, v->xmask);
        O(VCVTDQ2PS_Y1_Y1, VCVTDQ2PS_X1_X1, 0, 0);
    } else
        O(VCVTDQ2PS_Y1_Y0, VCVTDQ2PS_X1_X0, 0, 0);
    if (needs_mul(v, e->lanes))
        T(VMULPS_Y1_Y1_P, VMULPS_X1_X1_P, REGFORM_MUL, v->mul);
    if (needs_add(v, e->lanes))
        T(VADDPS_Y1_Y1_P, VADDPS_X1_X1_P, REGFORM_ADD, v->add);
    if (P & VFETCH_RP_DIV) {
        g->divides = 1;
        if (g->fma_division || (g->fma_groups && e->y)) {
            /* register 1 * hi + register 1 * lo, the product in 3; in an 8-lane loop both
               tables held in registers (hold_tables) */
            g->fma_group_divides |= e->y;
            float hi[VFETCH_RP_LANES], lo[VFETCH_RP_LANES];
            reciprocals(v, hi, lo);
            T(VMULPS_Y3_Y1_P, VMULPS_X3_X1_P, REGFORM_MUL_3_1, lo);
            T(VFMADD132PS_Y1_Y3_P, VFMADD132PS_X1_X3_P, REGFORM_FMADD_1_3, hi);
        } else {
            O(VDIVPS_Y1_Y1_P, VDIVPS_X1_X1_P, C(v->div), 0);
        }
        if (P & VFETCH_RP_CLAMP)
            O(VMAXPS_Y1_Y1_P, VMAXPS_X1_X1_P, C(v->lo), 0);
    }
    if (e->all_fixed)
        ;
    else if (e->res_in_0) {
        /* into register 0 (at SSE4.1 no copy before the blend): rp_pack8 reads it after, but
           only its own lanes, none of them fixed-point */
        O(VPBLENDD_Y0_Y0_Y1_I, VPBLENDD_X0_X0_X1_I, 0, lane_mask(v->fixed_sel, e->lanes));
    } else
        O(VPBLENDD_Y2_Y2_Y1_I, VPBLENDD_X2_X2_X1_I, 0, lane_mask(v->fixed_sel, e->lanes));
}

/* rp_pack8: RGBA8 from 16-bit slices, two channels a half at a time by 16-bit multiplies,
   each widened into a low byte by one high multiply (the high bytes' then shifted up),
   blended into the result. */
static void rp_pack8(struct gen *g, struct rp_emit *e, const struct vfetch_rp_vector *v)
{
    T(VPMULLW_Y4_Y0_P, VPMULLW_X4_X0_P, REGFORM_MULLW_4_0, v->pack_mul[1]);
    T(VPAND_Y4_Y4_P, VPAND_X4_X4_P, REGFORM_AND_4_4, v->pack_mask[1]);
    T(VPMULHUW_Y5_Y4_P, VPMULHUW_X5_X4_P, REGFORM_MULHUW_5_4, v->pack_shr[1]);
    O(VPSLLW_Y4_Y5_I, VPSLLW_X4_X5_I, 0, 8);
    T(VPMULLW_Y3_Y0_P, VPMULLW_X3_X0_P, REGFORM_MULLW_3_0, v->pack_mul[0]);
    T(VPAND_Y3_Y3_P, VPAND_X3_X3_P, REGFORM_AND_3_3, v->pack_mask[0]);
    T(VPMULHUW_Y5_Y3_P, VPMULHUW_X5_X3_P, REGFORM_MULHUW_5_3, v->pack_shr[0]);
    O(VPOR_Y3_Y4_Y5, VPOR_X3_X4_X5, 0, 0);
    if (e->raw_or)
        T(VPOR_Y3_Y3_P, VPOR_X3_X3_P, REGFORM_OR_3_3, v->raw_or);
    if (e->res_in_0) /* into register 0, read no more */
        O(VPBLENDD_Y0_Y0_Y3_I, VPBLENDD_X0_X0_X3_I, 0, lane_mask(v->pack_sel, e->lanes));
    else
        O(VPBLENDD_Y2_Y2_Y3_I, VPBLENDD_X2_X2_X3_I, 0, lane_mask(v->pack_sel, e->lanes));
}

/* rp_convert's binary16 lanes (register 6) blended into the result. */
static void rp_half_blend(struct gen *g, struct rp_emit *e, const struct vfetch_rp_vector *v)
{
    const unsigned m = lane_mask(v->half_sel, e->lanes);
    if (e->res_in_0)
        O(VPBLENDD_Y2_Y0_Y6_I, VPBLENDD_X2_X0_X6_I, 0, m);
    else if (e->all_fixed)
        O(VPBLENDD_Y2_Y1_Y6_I, VPBLENDD_X2_X1_X6_I, 0, m);
    else
        O(VPBLENDD_Y2_Y2_Y6_I, VPBLENDD_X2_X2_X6_I, 0, m);
    e->res_in_0 = e->all_fixed = 0;
}

/* rp_store: the result (register 0 where res_in_0, 1 where every lane is fixed-point, else 2)
   to the group's output, only the written lanes where some are kept. */
static void rp_store(struct gen *g, const struct rp_emit *e, const struct vfetch_rp_vector *v)
{
    const int32_t at = g->rp_dst + (int32_t)v->dst_off;
    if (e->y && g->store_halves && !(v->passes & VFETCH_RP_KEEP)) {
        /* two 16-byte halves: off 32 bytes, one ymm store of two crosses a cache line */
        static const enum x86_shape low[3] = { X86_VMOVDQU_MRDX_X0, X86_VMOVDQU_MRDX_X1,
                                               X86_VMOVDQU_MRDX_X2 },
                                    high[3] = { X86_VEXTRACTI128_MRDX_Y0_I,
                                                X86_VEXTRACTI128_MRDX_Y1_I,
                                                X86_VEXTRACTI128_MRDX_Y2_I };
        const int r = e->res_in_0 ? 0 : e->all_fixed ? 1 : 2;
        x86_op(&g->a, low[r], at, 0);
        x86_op(&g->a, high[r], at + 16, 1);
        return;
    }
    if (e->res_in_0 && !(v->passes & VFETCH_RP_KEEP)) {
        O(VMOVDQU_MRDX_Y0, VMOVDQU_MRDX_X0, at, 0);
        return;
    }
    if (e->res_in_0) /* the masked store's form takes register 2 */
        O(VMOVDQA_Y2_Y0, VMOVDQA_X2_X0, 0, 0);
    if (v->passes & VFETCH_RP_KEEP) {
        O(VMOVDQU_Y3_P, VMOVDQU_X3_P, C(v->store_sel), 0);
        if (e->all_fixed)
            O(VPMASKMOVD_MRDX_Y3_Y1, VPMASKMOVD_MRDX_X3_X1, at, 0);
        else
            O(VPMASKMOVD_MRDX_Y3_Y2, VPMASKMOVD_MRDX_X3_X2, at, 0);
    } else if (e->all_fixed)
        O(VMOVDQU_MRDX_Y1, VMOVDQU_MRDX_X1, at, 0);
    else
        O(VMOVDQU_MRDX_Y2, VMOVDQU_MRDX_X2, at, 0);
}

/* One vector of a record program of `lanes` 4 (xmm) or 8 (ymm), over the group whose first
   records are rp_srcs bytes from their streams' registers (group_at) and first output record at
   rdx + rp_dst: exactly record_passes.h's rp_convert and rp_store. */
static void rp_vector(struct gen *g, const struct vfetch_rp_vector *v, unsigned lanes)
{
    const unsigned P = v->passes;
    struct rp_emit e = { .y = lanes == 8, .lanes = lanes, .entries = lanes == 8 ? 2 : 1 };
    e.raw_or = any_nonzero(v->raw_or, lanes);
    e.all_fixed = (P & VFETCH_RP_FIXED) && !(P & VFETCH_RP_BLEND);
    if (P & VFETCH_RP_LOAD) {
        uint8_t ctrl[32], hctrl[32];
        if (g->gathering && g->num_streams > 1)
            gather_load_streams(g, &e, v, ctrl, hctrl);
        else if (g->gathering)
            gather_load_window(g, &e, v, ctrl, hctrl);
        else
            rp_load_window(g, &e, v, ctrl, hctrl);
        if (P & VFETCH_RP_HALF)
            rp_halves(g, &e, hctrl);
        table_op(g, e.y, X86_VPSHUFB_Y0_Y0_P, X86_VPSHUFB_X0_X0_P, REGFORM_SHUFB, ctrl);
    } else
        E(VPXOR_X0_X0_X0, 0, 0);
    rp_raw(g, &e, v);
    if (P & VFETCH_RP_FIXED)
        rp_fixed(g, &e, v);
    if (P & VFETCH_RP_PACK8)
        rp_pack8(g, &e, v);
    if (P & VFETCH_RP_HALF)
        rp_half_blend(g, &e, v);
    rp_store(g, &e, v);
}

#undef T
#undef O
#undef C

/* A copy of a program the plan already lowered at `lanes` lanes without the wide windows (the
   portable tier's, its small-draw one, or the one it dropped), or NULL: lowering is most of a
   compile, and gives the same program again. */
static struct vfetch_record_prog *record_copy(const struct vfetch_record_prog *prog,
                                              unsigned lanes)
{
    if (!prog || prog->lanes != lanes || prog->wide_windows)
        return NULL;
    const size_t bytes =
        sizeof(struct vfetch_record_prog) + prog->num_vectors * sizeof(struct vfetch_rp_vector);
    struct vfetch_record_prog *copy = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (copy)
        memcpy(copy, prog, bytes);
    return copy;
}

/* A direct format's record program of `lanes` lanes that this generator can emit, or NULL:
   one it cannot lower, one with a pass not emitted here, or one of more vectors than a group's
   code is worth. */
struct vfetch_record_prog *gen_record_for(const struct vfetch_plan *conv, unsigned lanes)
{
    /* SSE4.1: the 4-lane program only, where its passes have SSE4.1 forms (no variable shifts
       or masked stores; gen_choose_groups drops it where an instruction has none) */
    const int sse = vfetch_x86_gen_sse();
    if (sse && lanes != 4)
        return NULL;
    struct vfetch_record_prog *prog = record_copy(conv->record, lanes);
    if (!prog)
        prog = record_copy(conv->record_small, lanes);
    if (!prog)
        prog = record_copy(conv->record_spare, lanes);
    if (!prog)
        prog = vfetch_record_lower(conv, lanes, 0);
    if (!prog)
        return NULL;
    int ok = prog->num_vectors <= GEN_RP_MAX_VECTORS;
    for (unsigned k = 0; k < prog->num_vectors && ok; k++)
        ok = !(prog->vec[k].passes & ~(sse ? GEN_RP_PASSES_SSE : GEN_RP_PASSES)) &&
             prog->vec[k].window == VFETCH_RP_WINDOW_16;
    if (!ok) {
        free(prog);
        return NULL;
    }
    return prog;
}

/* Groups an iteration of the group loop: small groups of few vectors several (at least 8
   vertices, at most 16 vectors), so that the loop's own instructions do not outweigh a group's. */
static unsigned group_unroll(const struct vfetch_record_prog *prog)
{
    if (prog->lanes != 8 || prog->group >= 8)
        return 1;
    const unsigned by_vectors = GEN_RP_MAX_VECTORS / prog->num_vectors;
    const unsigned unroll = 8 / prog->group < by_vectors ? 8 / prog->group : by_vectors;
    return unroll ? unroll : 1;
}

/* One table use counted (count_tables). */
static void count_table(struct gen *g, const void *table)
{
    const uint64_t at = x86_const_wide(&g->a, table, 2);
    unsigned i = 0;
    while (i < g->num_counted && g->counted[i].at != at)
        i++;
    if (i < GEN_COUNTED) {
        /* a new entry starts its count afresh: an earlier count's (gen_choose_groups' trial,
           or the other body's) may have left one there */
        g->counted[i].uses = i == g->num_counted ? 1 : g->counted[i].uses + 1;
        g->counted[i].at = at;
        g->num_counted += i == g->num_counted;
    }
}

/* Group j of an iteration of n: its records at j steps from their streams' registers and its
   output at j steps from rdx (rp_srcs, rp_dst), and the bytes its vectors may read from each
   stream's first record there, whole windows up to the iteration's last group's end
   (rp_bytes); gathered, its records' entries (gather_first). */
static void group_at(struct gen *g, const struct vfetch_record_prog *prog, unsigned n,
                     unsigned j)
{
    g->rp_dst = (int32_t)(j * prog->dst_step);
    if (g->gathering) { /* its records from its entries (gather_record) */
        g->gather_first = j * prog->group;
        return;
    }
    for (unsigned i = 0; i < prog->num_streams_read; i++) {
        const unsigned s = prog->streams_read[i];
        g->rp_srcs[s] = (int32_t)(j * prog->group_step[s]);
        g->rp_bytes[s] = (uint32_t)((n * prog->group - 1) * g->step[s] + g->readable[s] -
                                    j * prog->group_step[s]);
    }
}

/* The tables an 8-lane group's vectors read through forms that take them from a register, with
   how often, in the order rp_vector asks for them: the candidates for the loop's registers. */
static void count_tables(struct gen *g, const struct vfetch_record_prog *prog, unsigned unroll)
{
    g->num_counted = 0;
    group_at(g, prog, unroll, 0); /* the unrolled loop's first group, as rp_vector sees it */
    for (unsigned k = 0; k < prog->num_vectors; k++) {
        const struct vfetch_rp_vector *v = &prog->vec[k];
        const unsigned P = v->passes;
        const int raw_or = any_nonzero(v->raw_or, 8);
        if (P & VFETCH_RP_LOAD) {
            uint8_t ctrl[32], hctrl[32];
            int32_t lo;
            unsigned span;
            struct gather_load gl;
            if (g->gathering)
                gather_window(g, v, 1, &gl, ctrl, hctrl);
            else if (!broadcast_controls(g, v, ctrl, hctrl, &lo))
                for (unsigned q = 0; q < 2; q++)
                    window_load(g, v, q, ctrl + 16 * q, hctrl + 16 * q, &lo, &span);
            count_table(g, ctrl);
        }
        if (!((P & VFETCH_RP_FIXED) && !(P & VFETCH_RP_BLEND)) && !(P & VFETCH_RP_MASK) &&
            raw_or_kept(v, 8))
            count_table(g, v->raw_or);
        if (P & VFETCH_RP_FIXED) {
            const int xor = any_nonzero(v->xmask, 8);
            if (P & VFETCH_RP_SHIFT) {
                count_table(g, v->shl);
                count_table(g, v->fmask);
            }
            if (xor)
                count_table(g, v->xmask);
            if (needs_mul(v, 8))
                count_table(g, v->mul);
            if (needs_add(v, 8))
                count_table(g, v->add);
            /* the division's fused multiply-add form, whose two tables a vector would load
               where `vdivps` loads one (the division's own table stays in the pool: holding
               it made no loop faster, the divider binds them, and costs a load a draw) */
            if ((P & VFETCH_RP_DIV) && g->fma_groups) { /* set wherever fma_division is */
                float hi[VFETCH_RP_LANES], lo[VFETCH_RP_LANES];
                reciprocals(v, hi, lo);
                count_table(g, lo);
                count_table(g, hi);
            }
        }
        if (P & VFETCH_RP_PACK8) {
            for (unsigned h = 0; h < 2; h++) {
                count_table(g, v->pack_mul[h]);
                count_table(g, v->pack_mask[h]);
                count_table(g, v->pack_shr[h]);
            }
            if (raw_or)
                count_table(g, v->raw_or);
        }
    }
}

/* The 8-lane loop's registers: the tables its vectors use most (count_tables) loaded into
   ymm7..ymm14 (ymm6 too where no vector has binary16 lanes) once, before the loop. */
static void hold_tables(struct gen *g, const struct vfetch_record_prog *prog, unsigned unroll)
{
    count_tables(g, prog, unroll);
    unsigned first = 0;
    for (unsigned k = 0; k < prog->num_vectors; k++)
        first |= (prog->vec[k].passes & VFETCH_RP_HALF) != 0;
    for (unsigned k = 0; k < first; k++)
        g->reg_const[g->num_reg_consts++] = 0; /* ymm6: no constant is at 0 */
    while (g->num_reg_consts < GEN_CONST_REGS) {
        unsigned best = GEN_COUNTED;
        /* a table used once an iteration of one group costs its load either way */
        for (unsigned i = 0; i < g->num_counted; i++)
            if (g->counted[i].uses * unroll >= 2 &&
                (best == GEN_COUNTED || g->counted[i].uses > g->counted[best].uses))
                best = i;
        if (best == GEN_COUNTED)
            break;
        g->counted[best].uses = 0;
        g->reg_const[g->num_reg_consts] = g->counted[best].at;
        x86_op(&g->a, regform_shape(REGFORM_LOAD, g->num_reg_consts++),
               (int64_t)g->counted[best].at, 0);
    }
}

/* The group loop's steps past an iteration of n groups, before its branch: the entries (r8,
   gathered), or every stream that moves from record to record (each in its register,
   gen_stream_reg, so that the per-vertex pass after the groups finds each where they left
   off); the output (rdx) and the count (rcx), compared with another iteration's records. */
static void group_steps(struct gen *g, const struct vfetch_record_prog *prog, unsigned n,
                        int gathered)
{
    static const enum x86_shape add[GEN_REGS] = { REG_ROW(ADD_, _I) };
    if (gathered)
        E(ADD_R8_I, 0, n * prog->group * (g->index_wide ? 4 : 2));
    for (unsigned s = 0; !gathered && s < (g->gx ? 1 : g->num_streams); s++)
        if (prog->group_step[s])
            x86_op(&g->a, add[gen_stream_reg(g, s)], 0, (int64_t)(n * prog->group_step[s]));
    E(ADD_RDX_I, 0, n * prog->dst_step);
    E(SUB_RCX_I, 0, n * prog->group);
    E(CMP_RCX_I, 0, n * prog->group);
}

/* prog's bit in g->no_single. */
static unsigned group_prog_bit(const struct gen *g, const struct vfetch_record_prog *prog)
{
    return prog == g->wide ? 1 : prog == g->narrow ? 2 : 4;
}

/* Whether prog's groups run one at a time after its unrolled loop (a loop of one group: its
   only one), or leave the records there to the pass (g->no_single). */
static int group_singles(const struct gen *g, const struct vfetch_record_prog *prog)
{
    return group_unroll(prog) == 1 || !(g->no_single & group_prog_bit(g, prog));
}

/* A direct format's whole groups: the 8-lane program's, then the 4-lane one's, each while
   whole groups are left: `unroll` groups an iteration while they are there (then one at a
   time), group j's vectors at j steps from rdi and rdx, reading whole windows up to the last
   group's end; rdi, rdx and rcx move on past them. On to `finish` where no vertex is left. */
/* Whether each unmasked store of a group's vectors lies a whole number of 32-byte vectors past
   the group's output (so that one test of the output's alignment tells every store's). */
static int stores_whole_vectors(const struct vfetch_record_prog *prog)
{
    if (prog->dst_step % 32)
        return 0;
    for (unsigned k = 0; k < prog->num_vectors; k++)
        if (prog->vec[k].dst_off % 32)
            return 0;
    return 1;
}

/* Whole groups of the record programs while whole groups are left: a direct format's 8-lane
   program's, then its 4-lane one's, or under an index buffer (gathered) the gathered program's,
   each record read from its entry's place (gather_record). `unroll` groups an iteration while
   they are there (then one at a time), group j's vectors at j steps from rdi (gathered: from
   its records' entries at r8) and rdx, reading whole windows up to the last group's end; rdi
   (r8), rdx and rcx move on past them. On to `finish` where no vertex is left. */
void gen_groups(struct gen *g, unsigned finish, int gathered)
{
    struct x86_asm *a = &g->a;
    const struct vfetch_record_prog *progs[2] = { gathered ? g->gather : g->wide,
                                                  gathered ? NULL : g->narrow };
    if (!progs[0] && !progs[1])
        return;
    g->gathering = gathered;
    /* record 0 in r11 where the entry keeps it in the frame (a colour table takes r11 in
       the per-vertex pass, which loads it at its start) or in rdi (a pass at one offset, which
       takes r11 after the groups) */
    if (gathered && g->num_streams == 1 && gen_records_at_offset(g)) {
        E(MOV_R11_RDI, 0, 0);
    } else if (gathered && g->num_streams == 1 && !g->record0_r11) {
        E(MOV_RAX_MRSP, g->data_slot[0], 0);
        E(MOV_R11_RAX, 0, 0);
    }
    /* several streams: each one's record 0 is in its register, as the prologue loaded it (the
       groups run before the pass, which may make each record's address there) */
    const unsigned clean = x86_label(a); /* past the vzeroupper: no ymm written yet */
    for (unsigned p = 0; p < 2; p++) {
        const struct vfetch_record_prog *prog = progs[p];
        if (!prog)
            continue;
        const unsigned out = x86_label(a), halves = x86_label(a);
        const unsigned unroll = group_unroll(prog);
        const int singles = group_singles(g, prog);
        /* gathered, or where the groups run no loop of one group: from one whole iteration,
           fewer records left to the pass (whose controls it loads anyway: the groups' tables
           would be a second set of loads); a direct draw of several streams from
           GEN_GROUPS_STREAMS_LEAST records */
        const unsigned least = g->num_streams > 1 && !gathered ? GEN_GROUPS_STREAMS_LEAST : 0,
                       first = gathered || !singles ? unroll * prog->group : prog->group;
        E(CMP_RCX_I, 0, first > least ? first : least);
        x86_jump(a, X86_JB, p == 0 && !progs[1] ? clean : out);
        if (prog->lanes == 8)
            hold_tables(g, prog, unroll);
        /* 8 lanes: the loop twice, its ymm stores whole where the output is 32-byte aligned
           or the draw short, else as two 16-byte halves, chosen once a draw (a group's output
           is whole vectors, so every store of the draw lies as its first does; the SSE4.1
           variant has no ymm). An Intel core splits a store across a cache line in two, and
           from 256 records the halves ran 1.04-1.5x faster there (docs/jit.md); below, where
           the lines stay in the L1, the extra store of each vector cost up to 1.1x. AMD's
           cores store across a line at full speed: whole stores only (halves_ok). */
        const int forms =
            prog->lanes == 8 && !a->sse && g->halves_ok && stores_whole_vectors(prog) ? 2 : 1;
        if (forms == 2) {
            const unsigned whole = x86_label(a);
            E(TEST_EDX_I, 0, 31);
            x86_jump(a, X86_JZ, whole);
            E(CMP_RCX_I, 0, GEN_HALVES_LEAST);
            x86_jump(a, X86_JNB, halves);
            x86_bind(a, whole);
            g->halves_loops++;
        }
        for (int form = 0; form < forms; form++) {
            if (form) {
                x86_jump(a, X86_JMP, out);
                x86_bind(a, halves);
            }
            g->store_halves = form;
            const unsigned loop = x86_label(a), single = x86_label(a);
            for (unsigned pass = unroll > 1 ? 0 : 1; pass < 1u + (unsigned)singles; pass++) {
                const unsigned n = pass ? 1 : unroll, here = x86_label(a);
                if (!pass) {
                    E(CMP_RCX_I, 0, n * prog->group);
                    x86_jump(a, X86_JB, singles ? single : out);
                } else if (unroll > 1) {
                    x86_bind(a, single);
                    E(CMP_RCX_I, 0, prog->group);
                    x86_jump(a, X86_JB, out);
                }
                x86_bind(a, pass ? loop : here);
                g->gather_held = -1;
                for (unsigned j = 0; j < n; j++) {
                    group_at(g, prog, n, j);
                    for (unsigned k = 0; k < prog->num_vectors; k++)
                        rp_vector(g, &prog->vec[k], prog->lanes);
                }
                g->rp_dst = 0;
                group_steps(g, prog, n, gathered);
                x86_jump(a, X86_JNB, pass ? loop : here);
            }
        }
        g->store_halves = 0;
        g->num_reg_consts = 0;
        x86_bind(a, out);
    }
    g->gathering = 0;
    g->gathered_loops += gathered;
    /* one stream's rdi made each record's address (gather_record): record 0 again for a pass
       at one offset */
    if (gathered && g->num_streams == 1 && gen_records_at_offset(g))
        E(MOV_RDI_R11, 0, 0);
    if (progs[0] && progs[0]->lanes == 8)
        E(VZEROUPPER, 0, 0);
    x86_bind(a, clean);
    E(TEST_RCX_RCX, 0, 0);
    x86_jump(a, X86_JZ, finish);
}

/* Keep the record programs only where their groups cost fewer instructions a vertex than the
   ops one vertex at a time (records of one vertex and several vectors can cost more, binary16
   ones among them): both emitted as the code would hold them (the group loop's tables in
   registers, the per-vertex pass's steps once a group of four where it unrolls), counted and
   taken back. A direct format's 8- and 4-lane programs; or (gathered) under an index buffer,
   a draw of a one-stream plan, the gathered program where its lanes each read one
   record's readable bytes (gather_fits), against the pass with each vertex's entry read and
   its record's address made (VFETCH_JIT_GATHER: 0 never, 1 wherever they fit, unweighed). */
void gen_choose_groups(struct gen *g, int gathered)
{
    struct x86_asm *a = &g->a;
    struct vfetch_record_prog **progs[2] = { gathered ? &g->gather : &g->wide,
                                             gathered ? NULL : &g->narrow };
    if (!*progs[0] && (!progs[1] || !*progs[1]))
        return;
    const int asked = gathered ? vfetch_jit_gather_env() : -1;
    if (gathered && (!asked || !gather_fits(g, g->gather))) {
        free(g->gather);
        g->gather = NULL;
        return;
    }
    const struct x86_mark mark = x86_mark(a);
    const int dirty = g->dirty_upper;
    const unsigned counts[5] = { g->broadcasts, g->byte_batches, g->float_pairs,
                                 g->matrices_beside, g->constants_held };
    const int fma_group_divides = g->fma_group_divides;
    g->elem_copy = g->raw_copy = -1;
    g->r8_narrow = gen_narrow_indices(g); /* as the pass's loop starts (gen_narrow_r8) */
    (void)gen_vertex(g);
    /* a vertex's ops; under an index buffer its entry's load and its records' addresses too
       (one stream: one lea where the stride is a scale, else a multiply and an add; several:
       a multiply and an add each, or of one stride one multiply) */
    const unsigned address = gen_records_at_offset(g) ? 1
                             : g->num_streams == 1    ? 1 + (gen_stride_scale(g->step[0]) < 0)
                                                      : 2 * g->num_streams;
    const unsigned one =
        a->ops - mark.ops + (gathered ? 1 + address + (g->index_plain ? 0 : 3) : 0);
    x86_rewind(a, mark);
    g->r8_narrow = 0;
    g->dirty_upper = dirty;
    g->gathering = gathered;
    for (unsigned k = 0; k < 2 && asked < 0; k++) {
        struct vfetch_record_prog *prog = progs[k] ? *progs[k] : NULL;
        if (!prog)
            continue;
        /* the unrolled loop's body as gen_groups writes it, its tables in registers, and its
           loop of one group at a time: each iteration's groups, steps and branch */
        const int failed = a->failed;
        const unsigned unroll = group_unroll(prog);
        unsigned cost[2] = { 0, 0 }; /* the unrolled loop's iteration, a group alone's */
        for (unsigned c = 0; c < (unroll > 1 ? 2u : 1u); c++) {
            const unsigned n = c ? 1 : unroll;
            if (prog->lanes == 8)
                hold_tables(g, prog, unroll);
            const unsigned held = a->ops;
            g->gather_held = -1;
            for (unsigned j = 0; j < n; j++) {
                group_at(g, prog, n, j);
                for (unsigned v = 0; v < prog->num_vectors; v++)
                    rp_vector(g, &prog->vec[v], prog->lanes);
            }
            g->rp_dst = 0;
            group_steps(g, prog, n, gathered);
            cost[c] = a->ops - held + 1;
            g->num_reg_consts = 0;
        }
        x86_rewind(a, mark);
        const unsigned iteration = cost[0], single = cost[1];
        /* at SSE4.1, an instruction without a legacy form: no groups (not a failure) */
        const int missing = a->missing != X86_NUM_SHAPES;
        if (missing) {
            a->missing = X86_NUM_SHAPES;
            a->failed = failed;
        }
        /* against the same vertices through the per-vertex pass, its loop's steps as it
           writes them (once every four vertices where it holds them in groups) */
        if (missing || iteration >= gen_vertex_pass_cost(g, one, prog->group * unroll)) {
            free(prog);
            *progs[k] = NULL;
            continue;
        }
        /* a group alone reads only its own records' bytes (exact loads, more of them): where
           that costs the pass's instructions or more, the pass takes the records an iteration
           leaves (r300-r3, r4 and gx-d at avx2: 1.14-1.26x faster at 4 and 6 records, Intel
           Xeon; docs/jit.md) */
        const unsigned bit = group_prog_bit(g, prog);
        g->no_single &= ~bit;
        if (unroll > 1 && single >= gen_vertex_pass_cost(g, one, prog->group))
            g->no_single |= bit;
    }
    g->gathering = 0;
    /* the trials' figures taken back */
    g->broadcasts = counts[0];
    g->byte_batches = counts[1];
    g->float_pairs = counts[2];
    g->matrices_beside = counts[3];
    g->constants_held = counts[4];
    g->fma_group_divides = fma_group_divides;
}
