/*
 * The x86-64 generator (docs/jit.md): for a compiled GX format, one function that is
 * vfetch_gx_run's body for it; for a plan run through vfetch_run, one that converts a
 * validated draw's records, and where a stream is indexed a second for draws through an index
 * buffer (vfetch_jit_plan_compile, at the end). A GX draw:
 *
 *   the draw's checks (any failure: a tail jump to vfetch_gx_run_portable, nothing written);
 *   indexed formats, pass 1: every kept vertex's indices (skip values counted; several small
 *     vertices a register), each copy's highest, then each copy's array checked (bound, the
 *     highest element inside it);
 *   direct formats: whole groups by the record programs, emitted as code (8 lanes, then 4),
 *     where they cost fewer instructions a vertex than the ops (choose_groups);
 *   then vertex by vertex, op by op: the op's bytes loaded (never a byte past what is surely
 *     in the caller's buffer), one byte shuffle to 32-bit lanes, the field shifts, the
 *     conversion, the swizzle and constants, the stores its write mask asks for;
 *   the result.
 *
 * Every constant is an immediate or in the code's own pool. Two variants: AVX2 encodings (VEX,
 * variable shifts, F16C) for the avx2 and avx512 levels, and SSE4.1 (each shape's legacy form,
 * x86_asm.sse; no groups, no 256-bit passes, shifts by lane and binary16 by other means) for
 * sse41. Registers: rsi the run's parameters (GX; a plan's fourth stream), rdi the vertex (a
 * plan's first stream), r8 an indexed copy's element (a plan's second stream), r9 the skipped
 * count (a plan's third stream), rbx, rbp, r12-r15 a plan's next streams (r15 a stream kept in
 * the frame, loaded for its op), rdx the output record, rcx the vertices left, rax/r10 scratch,
 * r11 pass 1's counter and then the colour tables; xmm0-xmm5 values, ymm6 a record vector's
 * binary16 lanes, ymm6-ymm14 the 8-lane group loop's tables, xmm15 never written (the merge
 * source of partial loads: they depend on nothing).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "gx/gx_internal.h"
#include "jit/jit.h"
#include "jit/x86_asm.h"
#include "plan_internal.h"
#include "record.h"
#include "vertex_format.h"

/* One instruction of a shape (lib/jit/x86_shapes.h). */
#define E(shape, disp, imm) x86_op(&g->a, X86_##shape, (int64_t)(disp), (int64_t)(imm))
/* A pool constant as the displacement of a shape's memory operand. */
#define POOL(bytes16) x86_const(&g->a, (bytes16))

/* The largest byte offset from a base register the generators emit as a displacement: record
   offsets, strides times the groups of an unrolled loop, stay below it (checked per plan). */
#define GEN_MAX_DISP (1 << 30)

/* Registers ymm6..ymm14 hold an 8-lane group loop's most used constants (the record vectors
   use ymm0..ymm5; ymm15 stays the merge source of partial loads), chosen among at most
   GX_JIT_COUNTED of them. */
#define GX_JIT_CONST_REGS 9
#define GX_JIT_COUNTED 64

/* The record program's ops that have forms with the constant in a register, in the order of
   X86_RP_REG_FORMS; REGFORM_LOAD loads the register. */
enum regform {
    REGFORM_SHUFB, REGFORM_XOR_1_0, REGFORM_XOR_1_1, REGFORM_MUL, REGFORM_ADD, REGFORM_SLLV,
    REGFORM_AND_1_1, REGFORM_OR_2_0, REGFORM_MULLW_3_0, REGFORM_MULLW_4_0, REGFORM_AND_3_3,
    REGFORM_AND_4_4, REGFORM_MULHUW_5_3, REGFORM_MULHUW_5_4, REGFORM_OR_3_3, REGFORM_LOAD,
    REGFORMS
};

static enum x86_shape regform_shape(enum regform f, unsigned k)
{
    _Static_assert(X86_VPSHUFB_Y0_Y0_Y7 - X86_VPSHUFB_Y0_Y0_Y6 == REGFORMS,
                   "X86_RP_REG_FORMS and enum regform differ");
    return (enum x86_shape)(X86_VPSHUFB_Y0_Y0_Y6 + k * REGFORMS + f);
}

/* The red zone below rsp holds pass 1's highest index per indexed copy (16 qwords). */
#define GX_JIT_MAX_INDEXED 16

/* The base registers an op's bytes are addressed from, in order: rdi, r8, r9, rsi, rbx, rbp,
   r12..r15 (GX: the vertex and an element; a plan: its streams, one a register, or where it
   has more than ten, the first nine, the others kept in the frame and loaded into r15 for an
   op). GEN_TO_XMM1 in load tables: a load from rdi into xmm1. */
#define GEN_REGS 10
#define GEN_TO_XMM1 GEN_REGS
/* A shape's forms for each base register, in that order (X86_BASE_LOADS). */
#define REG_ROW(pre, post)                                                                  \
    X86_##pre##RDI##post, X86_##pre##R8##post, X86_##pre##R9##post, X86_##pre##RSI##post,   \
        X86_##pre##RBX##post, X86_##pre##RBP##post, X86_##pre##R12##post,                    \
        X86_##pre##R13##post, X86_##pre##R14##post, X86_##pre##R15##post
#define BASE_ROW(shape) REG_ROW(shape##_M, )

/* Where an op's bytes come from: the vertex (copy -1) or an indexed copy's element (GX), or a
   plan's stream (`base`: 0 the vertex, 1 an element, or the stream), and each lane's
   container bytes as offsets from that base. */

struct op_source {
    int copy;
    unsigned base;
    int32_t lo;    /* lowest byte read */
    uint32_t span; /* bytes from lo read */
    int32_t off[4][4];
};

/* One op's source bytes in the vertex or an element (GX), or in a record of one of a plan's
   streams (plan NULL); 0, or -1 when they span two copies or two streams. */
static int op_source(const struct vfetch_gx_plan *plan, const struct vfetch_op_exec *x,
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

/* The registers of the generated code. */

struct gen {
    struct x86_asm a;
    const struct vfetch_gx_plan *gx; /* a GX format's, or NULL: a plan of one stream */
    const struct vfetch_plan *conv;  /* the plan the ops are of (a GX format's converter) */
    uint32_t vsize;                  /* bytes from one vertex (record) to the next */
    /* Per base (GX: the vertex, an element; a plan: each stream): bytes it moves by from one
       vertex to the next, and bytes of its record surely inside the caller's buffer (GX: the
       vertex's, none of an element; a plan: each stream's extent), which a wider load may
       read. */
    uint32_t step[VFETCH_MAX_STREAMS], readable[VFETCH_MAX_STREAMS];
    /* A plan's: its streams, how many of them are in registers (the rest at frame_slot[s] from
       rsp), and whether the loop being emitted reads records through an index buffer (the
       indexed streams' records then computed a vertex from record 0 at data_slot[s]). */
    unsigned num_streams, reg_streams;
    int indexed;
    int32_t frame_slot[VFETCH_MAX_STREAMS], data_slot[VFETCH_MAX_STREAMS];
    int elem_copy;     /* the copy whose element r8 holds in this vertex, or -1 */
    int raw_copy;      /* the copy whose index, as read, r8 holds (the position's), or -1 */
    uint64_t later[VFETCH_MAX_OPS][VFETCH_MAX_SLOTS / 64]; /* slots later ops store */
    uint64_t tables; /* the lowest colour table's address, r11 in the conversion loop; or 0 */
    uint64_t table_at[VFETCH_MAX_OPS]; /* each op's colour tables in the pool, once made */
    int dirty_upper; /* the conversion loop wrote a ymm register: vzeroupper after it */
    /* The 8-lane group loop's constants held in ymm8 + k (reg_const[k]); while `counting`, the
       constants its vectors use, with how often. */
    int32_t rp_src, rp_dst; /* a record vector's group: bytes from rdi and rdx (unrolled) */
    uint64_t reg_const[GX_JIT_CONST_REGS];
    unsigned num_reg_consts, counting, num_counted;
    const struct vfetch_record_prog *counted_for; /* the 8-lane program counted (choose_groups) */
    struct { uint64_t at; unsigned uses; } counted[GX_JIT_COUNTED];
};

/* Whether code generated now is the SSE4.1 variant: the level in force lacks AVX2. */
static int jit_sse(void)
{
    return !(vfetch_cpu_allowed() & VFETCH_CPU_AVX2);
}

/* The register an op reads a base from (GX: the vertex's rdi, an element's r8): a plan's
   stream's own, or for a stream kept in the frame, r15 loaded with its record now. */
static unsigned stream_register(struct gen *g, unsigned base)
{
    if (g->gx || base < g->reg_streams)
        return base;
    E(MOV_R15_MRSP, g->frame_slot[base], 0);
    return GEN_REGS - 1;
}

static size_t arrays_data(unsigned a)
{
    return offsetof(struct vfetch_gx_run_params, arrays) + a * sizeof(struct vfetch_binding) +
           offsetof(struct vfetch_binding, data);
}

static size_t arrays_size(unsigned a)
{
    return offsetof(struct vfetch_gx_run_params, arrays) + a * sizeof(struct vfetch_binding) +
           offsetof(struct vfetch_binding, size);
}

/* dst = the big-endian index copy k's vertex bytes hold (zero-extended to 64 bits). */
/* eax = copy cp's index in pass 1's vertex (r10). */
static void load_index_eax(struct gen *g, const struct vfetch_gx_copy *cp)
{
    if (cp->index_size == 1) {
        E(MOVZX_EAX_B_MR10, cp->src, 0);
        return;
    }
    E(MOVZX_EAX_W_MR10, cp->src, 0);
    E(ROL_AX_8, 0, 8);
}

/* r8 = the element copy k reads in this vertex: array data + index * stride. */
static void load_element(struct gen *g, int k)
{
    if (g->elem_copy == k)
        return;
    const struct vfetch_gx_copy *cp = &g->gx->copies[k];
    const uint32_t stride = g->gx->desc.array_stride[cp->array];
    if (cp->index_size == 1) {
        if (g->raw_copy != k)
            E(MOVZX_R8D_B_MRDI, cp->src, 0);
    } else {
        if (g->raw_copy != k)
            E(MOVZX_R8D_W_MRDI, cp->src, 0);
        E(ROL_R8W_8, 0, 8);
    }
    g->raw_copy = -1;
    if (stride == 0)
        E(XOR_R8D_R8D, 0, 0);
    else if ((stride & (stride - 1)) == 0) {
        unsigned sh = 0;
        while ((1u << sh) != stride)
            sh++;
        if (sh)
            E(SHL_R8_I, 0, sh);
    } else
        E(IMUL_R8_I, 0, stride);
    E(ADD_R8_MRSI, arrays_data(cp->array), 0);
    g->elem_copy = k;
}

/* xmm0 byte position of span byte j after load_span. */
struct span_layout {
    unsigned s1, s2, span;
};

static unsigned span_pos(const struct span_layout *l, unsigned j)
{
    return j < l->s1 ? j : l->s1 + (j - (l->span - l->s2));
}

/* Load span bytes at [base + lo] into xmm0 (xmm1: dst 1, from rdi only) in at most two loads
   that read only those bytes. */
static void load_span_to(struct gen *g, unsigned base, int dst, int32_t lo, unsigned span,
                         struct span_layout *l)
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
    /* first load, then the insert: [size][base register, or rdi into xmm1] */
    static const enum x86_shape first[5][GEN_REGS + 1] = {
        [1] = { BASE_ROW(VPINSRB_X0_X15), X86_VPINSRB_X1_X15_MRDI },
        [2] = { BASE_ROW(VPINSRW_X0_X15), X86_VPINSRW_X1_X15_MRDI },
        [3] = { BASE_ROW(VMOVD_X0), X86_VMOVD_X1_MRDI },
        [4] = { BASE_ROW(VMOVQ_X0), X86_VMOVQ_X1_MRDI },
        [0] = { BASE_ROW(VMOVDQU_X0), X86_VMOVDQU_X1_MRDI },
    };
    static const enum x86_shape insert[5][GEN_REGS + 1] = {
        [1] = { BASE_ROW(VPINSRB_X0_X0), X86_VPINSRB_X1_X1_MRDI },
        [2] = { BASE_ROW(VPINSRW_X0_X0), X86_VPINSRW_X1_X1_MRDI },
        [3] = { BASE_ROW(VPINSRD_X0_X0), X86_VPINSRD_X1_X1_MRDI },
        [4] = { BASE_ROW(VPINSRQ_X0_X0), X86_VPINSRQ_X1_X1_MRDI },
    };
    const unsigned b = dst ? GEN_TO_XMM1 : base;
    const unsigned k1 = s1 == 1 ? 1 : s1 == 2 ? 2 : s1 == 4 ? 3 : s1 == 8 ? 4 : 0;
    x86_op(&g->a, first[k1][b], lo, 0);
    if (!s2)
        return;
    const int32_t at = lo + (int32_t)(span - s2);
    const unsigned k2 = s2 == 1 ? 1 : s2 == 2 ? 2 : s2 == 4 ? 3 : 4;
    x86_op(&g->a, insert[k2][b], at, s1 / s2);
}

static void load_span(struct gen *g, unsigned base, int32_t lo, unsigned span,
                      struct span_layout *l)
{
    load_span_to(g, base, 0, lo, span, l);
}

/* A shift of xmm0's lanes, each by its own count: the immediate form where the used lanes
   agree, else the variable form with the counts from the pool; nothing (or the copy into
   another destination) where no lane shifts. */
struct shift_forms {
    enum x86_shape imm, var, copy; /* copy: X86_NUM_SHAPES when dst is xmm0 */
};

static const struct shift_forms shl_x0 = { X86_VPSLLD_X0_X0_I, X86_VPSLLVD_X0_X0_P, X86_NUM_SHAPES };
static const struct shift_forms shl_x1 = { X86_VPSLLD_X1_X0_I, X86_VPSLLVD_X1_X0_P, X86_VMOVDQA_X1_X0 };
static const struct shift_forms sra_x0 = { X86_VPSRAD_X0_X0_I, X86_VPSRAVD_X0_X0_P, X86_NUM_SHAPES };
static const struct shift_forms srl_x0 = { X86_VPSRLD_X0_X0_I, X86_VPSRLVD_X0_X0_P, X86_NUM_SHAPES };

/* SSE4.1 has no shift of each lane by its own count: left shifts multiply by the powers of
   two (the low 32 bits of the product are the shifted lane), right shifts are made once per
   count from a copy of the lanes (xmm2) and blended in (through xmm3). */
static void shift_lanes_sse(struct gen *g, const struct shift_forms *f, const uint32_t count[4],
                            unsigned used)
{
    if (f->var != X86_VPSRLVD_X0_X0_P && f->var != X86_VPSRAVD_X0_X0_P) {
        uint32_t power[4] = { 1, 1, 1, 1 };
        for (unsigned c = 0; c < used; c++)
            power[c] = 1u << count[c];
        x86_op(&g->a, f->var == X86_VPSLLVD_X0_X0_P ? X86_VPMULLD_X0_X0_P : X86_VPMULLD_X1_X0_P,
               (int64_t)POOL(power), 0);
        return;
    }
    const int arith = f->var == X86_VPSRAVD_X0_X0_P;
    E(VMOVDQA_X2_X0, 0, 0);
    unsigned done = 0;
    for (unsigned c = 0; c < used; c++) {
        if (done >> c & 1)
            continue;
        unsigned lanes = 0;
        for (unsigned k = c; k < used; k++)
            if (count[k] == count[c])
                lanes |= 1u << k;
        if (!done) { /* every lane at the first count, the others blended over it */
            x86_op(&g->a, arith ? X86_VPSRAD_X0_X0_I : X86_VPSRLD_X0_X0_I, 0, count[c]);
        } else {
            x86_op(&g->a, arith ? X86_VPSRAD_X3_X2_I : X86_VPSRLD_X3_X2_I, 0, count[c]);
            E(VBLENDPS_X0_X0_X3_I, 0, lanes);
        }
        done |= lanes;
    }
}

static void shift_lanes(struct gen *g, const struct shift_forms *f, const uint32_t count[4],
                        unsigned used)
{
    int uniform = 1, any = 0;
    for (unsigned c = 0; c < used; c++) {
        uniform &= count[c] == count[0];
        any |= count[c] != 0;
    }
    if (!any) {
        if (f->copy != X86_NUM_SHAPES)
            x86_op(&g->a, f->copy, 0, 0);
        return;
    }
    if (uniform) {
        x86_op(&g->a, f->imm, 0, count[0]);
        return;
    }
    uint32_t v[4] = { 0, 0, 0, 0 };
    if (g->a.sse) { /* no variable shifts: see shift_lanes_sse */
        shift_lanes_sse(g, f, count, used);
        return;
    }
    for (unsigned c = 0; c < used; c++)
        v[c] = count[c];
    x86_op(&g->a, f->var, (int64_t)POOL(v), 0);
}

static int conv_signed(enum vfetch_conversion conv)
{
    return conv == VFETCH_CONV_SINT || conv == VFETCH_CONV_SNORM_ZERO ||
           conv == VFETCH_CONV_SNORM_ZERO_CLAMP || conv == VFETCH_CONV_SNORM_NO_ZERO ||
           conv == VFETCH_CONV_SINTEGER;
}

/* Which of the converted lanes (or constant) output component c takes: 0..3, or 4 (0.0) /
   5 (1.0); a component the op lacks reads 0, its w 1. */
static unsigned effective_select(const struct vfetch_op_exec *x, unsigned c)
{
    const unsigned sel = x->swizzle[c];
    if (sel < x->count)
        return sel;
    if (sel < 4)
        return sel == 3 ? VFETCH_SWIZZLE_1 : VFETCH_SWIZZLE_0;
    return sel;
}

static void store_dword(struct gen *g, unsigned slot, unsigned lane)
{
    if (lane == 0)
        E(VMOVD_MRDX_X0, 4 * slot, 0);
    else
        E(VEXTRACTPS_MRDX_X0_I, 4 * slot, lane);
}

static int later_stores(const struct gen *g, unsigned op, unsigned slot)
{
    return slot < VFETCH_MAX_SLOTS && (g->later[op][slot / 64] >> (slot % 64) & 1);
}

/* Swizzle, constants and the write mask: xmm0 holds the converted lanes. */
static void emit_store(struct gen *g, unsigned op_index, const struct vfetch_op_exec *x)
{
    unsigned sel[4], c0 = 4, c1 = 0, runs = 0;
    for (unsigned c = 0; c < 4; c++) {
        sel[c] = effective_select(x, c);
        if (x->write_mask >> c & 1) {
            if (c0 == 4)
                c0 = c;
            if (c == 0 || !(x->write_mask >> (c - 1) & 1))
                runs++;
            c1 = c;
        }
    }
    if (runs != 1) { /* scattered components, one store each */
        for (unsigned c = 0; c < 4; c++) {
            if (!(x->write_mask >> c & 1))
                continue;
            if (sel[c] >= 4)
                E(MOV_MRDX_I, 4 * (x->dst_slot + c),
                  sel[c] == VFETCH_SWIZZLE_1 ? (int32_t)VFETCH_ONE_BITS : 0);
            else
                store_dword(g, x->dst_slot + c, sel[c]);
        }
        return;
    }
    /* One run c0..c1: lane j of the stored vector is component c0 + j. */
    const unsigned n = c1 - c0 + 1;
    unsigned shuf = 0, blend = 0, identity = 1;
    uint32_t konst[4] = { 0, 0, 0, 0 };
    for (unsigned j = 0; j < 4; j++) {
        const unsigned c = c0 + j < 4 ? c0 + j : 3;
        const unsigned s = j < n ? sel[c] : j;
        if (s >= 4) {
            blend |= 1u << j;
            konst[j] = s == VFETCH_SWIZZLE_1 ? VFETCH_ONE_BITS : 0;
            shuf |= j << (2 * j);
        } else {
            shuf |= s << (2 * j);
            identity &= s == j;
        }
    }
    if (!identity)
        E(VPSHUFD_X0_X0_I, 0, shuf);
    if (blend)
        E(VBLENDPS_X0_X0_P_I, POOL(konst), blend);
    const unsigned slot = x->dst_slot + c0;
    /* A 12-byte store may be 16 when a later op of the vertex stores the 4th slot. */
    const int widen3 = n == 3 && later_stores(g, op_index, slot + 3);
    if (n == 4 || widen3)
        E(VMOVUPS_MRDX_X0, 4 * slot, 0);
    else if (n >= 2) {
        E(VMOVQ_MRDX_X0, 4 * slot, 0);
        if (n == 3)
            store_dword(g, slot + 2, 2);
    } else
        store_dword(g, slot, 0);
}

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

/* The pool address of op x's two tables (packs_by_table), made on first use. */
static uint64_t rgba8_table(struct gen *g, const struct vfetch_op_exec *x)
{
    const size_t op = (size_t)(x - g->conv->ops);
    if (g->table_at[op])
        return g->table_at[op];
    uint32_t table[512];
    for (uint32_t b = 0; b < 256; b++) {
        table[b] = rgba8_of(x, b << 8, 1);
        table[256 + b] = rgba8_of(x, b, 0);
    }
    return g->table_at[op] = x86_const_wide(&g->a, table, sizeof table / 16);
}

/* An op that converts one unsigned field of one byte, stored alone: a GX matrix index. */
static int one_byte_op(const struct vfetch_op_exec *x)
{
    return x->count == 1 && x->lane[0].nbytes == 1 && x->write_mask == 1 &&
           effective_select(x, 0) == 0 &&
           (x->conversion == VFETCH_CONV_UINT || x->conversion == VFETCH_CONV_INTEGER);
}

/* The ops of conv that convert to floats the bytes of one 8-byte window of the vertex, each a
   one_byte_op with the same field and scale (the texture matrix indices, several in a row):
   their number (at least 2, else 0), each member's byte in the vertex in at[] (-1 for the other
   ops), the window's first byte in *lo. */
static unsigned byte_field_batch(const struct gen *g, int32_t at[VFETCH_MAX_OPS], int32_t *lo)
{
    const struct vfetch_plan *conv = g->conv;
    const struct vfetch_op_exec *first = NULL;
    int32_t at0 = INT32_MAX, at1 = INT32_MIN;
    unsigned n = 0;
    for (unsigned i = 0; i < conv->desc.num_ops; i++) {
        const struct vfetch_op_exec *x = &conv->ops[i];
        struct op_source s;
        at[i] = -1;
        if (!g->gx || g->a.sse || !one_byte_op(x) || x->conversion != VFETCH_CONV_UINT ||
            op_source(g->gx, x, &s) || s.copy != -1)
            continue;
        first = first ? first : x;
        if (x->lane[0].field_bits != first->lane[0].field_bits ||
            x->lane[0].field_shift != first->lane[0].field_shift || x->shift != first->shift)
            continue;
        at[i] = s.off[0][0];
        at0 = at[i] < at0 ? at[i] : at0;
        at1 = at[i] > at1 ? at[i] : at1;
        n++;
    }
    /* every member's byte in one window of 8 (4 where there are 4 or fewer) inside the vertex */
    const int32_t window = n > 4 ? 8 : 4;
    if (n < 2 || at1 - at0 >= window || (uint32_t)(at0 + window) > g->readable[0])
        return 0;
    *lo = at0;
    return n;
}

/* The batch's conversion, where its last member is: the window's bytes zero-extended to 32-bit
   lanes, the field, one conversion (exact: at most 8 bits) and scale; each member's lane stored
   to its slot. */
static void emit_byte_field_batch(struct gen *g, const int32_t at[VFETCH_MAX_OPS], unsigned n,
                                  int32_t lo)
{
    const struct vfetch_plan *conv = g->conv;
    const struct vfetch_op_exec *f = NULL;
    for (unsigned i = 0; i < conv->desc.num_ops && !f; i++)
        if (at[i] >= 0)
            f = &conv->ops[i];
    const int y = n > 4;
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
    x86_op(&g->a, y ? X86_VCVTDQ2PS_Y0_Y0 : X86_VCVTDQ2PS_X0_X0, 0, 0);
    if (f->shift) {
        const uint32_t b = (127u - f->shift) << 23;
        const uint32_t scale[8] = { b, b, b, b, b, b, b, b };
        x86_op(&g->a, y ? X86_VMULPS_Y0_Y0_P : X86_VMULPS_X0_X0_P,
               (int64_t)x86_const_wide(&g->a, scale, y ? 2 : 1), 0);
    }
    for (unsigned half = 0; half < (y ? 2u : 1u); half++) {
        if (half)
            E(VEXTRACTF128_X0_Y0_I, 0, 1);
        for (unsigned i = 0; i < conv->desc.num_ops; i++)
            if (at[i] >= 0 && (unsigned)(at[i] - lo) / 4 == half)
                store_dword(g, conv->ops[i].dst_slot, (unsigned)(at[i] - lo) % 4);
    }
    if (y)
        g->dirty_upper = 1;
}

/* 0, or the reason the op is beyond this generator. */
static const char *emit_conversion(struct gen *g, unsigned op_index,
                                   const struct vfetch_op_exec *x);

/* Four binary16 values (xmm0's low 64 bits) to float, exactly: F16C, or at SSE4.1 by integers
   as the reference does (lib/ref/convert_ref.c): the magnitude rebiased (normal numbers; inf
   and NaN to exponent 255, a NaN quieted), denormals as m 2^-24 (one exact conversion and
   product, normal results: unmoved by FTZ and DAZ), the sign put back. */
static void emit_half_to_float(struct gen *g)
{
    if (!g->a.sse) {
        E(VCVTPH2PS_X0_X0, 0, 0);
        return;
    }
    static const uint32_t magnitude[4] = { 0x7fff, 0x7fff, 0x7fff, 0x7fff },
                          rebias[4] = { 0x38000000, 0x38000000, 0x38000000, 0x38000000 },
                          finite_top[4] = { 0x7bff, 0x7bff, 0x7bff, 0x7bff },
                          inf[4] = { 0x7c00, 0x7c00, 0x7c00, 0x7c00 },
                          quiet[4] = { 0x400000, 0x400000, 0x400000, 0x400000 },
                          normal_low[4] = { 0x400, 0x400, 0x400, 0x400 };
    static const float denormal_unit[4] = { 0x1p-24f, 0x1p-24f, 0x1p-24f, 0x1p-24f };
    E(VPMOVZXWD_X0_X0, 0, 0);
    E(VPAND_X1_X0_P, POOL(magnitude), 0);
    E(VPXOR_X0_X0_X1, 0, 0);
    E(VPSLLD_X0_X0_I, 0, 16); /* the sign */
    E(VPSLLD_X3_X1_I, 0, 13);
    E(VPADDD_X3_X3_P, POOL(rebias), 0);
    E(VPCMPGTD_X4_X1_P, POOL(finite_top), 0); /* inf, NaN: rebiased once more, to 255 */
    E(VPAND_X4_X4_P, POOL(rebias), 0);
    E(VPADDD_X3_X3_X4, 0, 0);
    E(VPCMPGTD_X4_X1_P, POOL(inf), 0);
    E(VPAND_X4_X4_P, POOL(quiet), 0);
    E(VPOR_X3_X3_X4, 0, 0);
    E(VCVTDQ2PS_X2_X1, 0, 0); /* zero and denormals */
    E(VMULPS_X2_X2_P, POOL(denormal_unit), 0);
    E(VMOVDQU_X4_P, POOL(normal_low), 0);
    E(VPCMPGTD_X4_X4_X1, 0, 0);
    E(VPAND_X2_X2_X4, 0, 0);
    E(VPANDN_X4_X4_X3, 0, 0);
    E(VPOR_X2_X2_X4, 0, 0);
    E(VPOR_X0_X0_X2, 0, 0);
}

/* Where a lane's container byte goes in xmm0: each container at its 32-bit lane's top
   (FLOAT16: in 16-bit words). */
static unsigned lane_byte_at(const struct vfetch_op_exec *x, unsigned c, unsigned k)
{
    const unsigned nb = x->lane[0].nbytes;
    return x->format == VFETCH_FORMAT_FLOAT16 ? 2 * c + k : 4 * c + (4 - nb) + k;
}

/* A plan's op whose components come from several streams, or lie more than 16 bytes apart,
   into xmm0 as one load and shuffle would leave them: each run of components of one stream
   within 16 bytes loaded and shuffled on its own, the runs merged in xmm2. */
static void load_gathered(struct gen *g, const struct vfetch_op_exec *x)
{
    const unsigned all = (1u << x->count) - 1, nb = x->lane[0].nbytes;
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
                const int32_t b = (int32_t)x->lane[c].byte_off[k];
                l = b < l ? b : l;
                h = b > h ? b : h;
            }
            if (members && h - l + 1 > 16)
                continue;
            lo = l;
            hi = h;
            members |= 1u << c;
        }
        done |= members;
        const unsigned reg = stream_register(g, stream);
        unsigned span = (unsigned)(hi - lo + 1);
        const unsigned wider = span <= 4 ? 4 : span <= 8 ? 8 : 16;
        if ((uint32_t)lo + wider <= g->readable[stream])
            span = wider;
        struct span_layout l;
        load_span(g, reg, lo, span, &l);
        uint8_t ctrl[16];
        memset(ctrl, 0x80, sizeof ctrl);
        for (unsigned c = 0; c < x->count; c++)
            for (unsigned k = 0; members >> c & 1 && k < nb; k++)
                ctrl[lane_byte_at(x, c, k)] =
                    (uint8_t)span_pos(&l, (unsigned)((int32_t)x->lane[c].byte_off[k] - lo));
        if (first && done != all) {
            E(VPSHUFB_X2_X0_P, POOL(ctrl), 0);
            continue;
        }
        E(VPSHUFB_X0_X0_P, POOL(ctrl), 0);
        if (!first)
            x86_op(&g->a, done != all ? X86_VPOR_X2_X2_X0 : X86_VPOR_X0_X0_X2, 0, 0);
    }
}

/* 32-bit fields as the reference converts them, xmm0 holding the fields: unsigned (the high
   and low halves converted exactly, added with one rounding), and the divisions by 2^32 - 1
   (UNORM) and 2^31 - 1 (SNORM, of the magnitude, the sign put back) a lane at a time: m / (2^k
   - 1) is m 2^-k + m 2^-2k + ..., never a tie (lib/ref/convert_ref.c), so its nearest float is
   that of w = m 2^k + m scaled by 2^-2k; w is converted from 64 bits, for k = 32 halved first
   (it may reach 2^64). Neither w nor w / 2 is a tie where the rounding bit is 1: below that
   bit lie m's bits from 24 up, not all zero (m's top bit then is 24 or above), so their nearest
   floats are the reference's. */
static void emit_fixed32(struct gen *g, const struct vfetch_op_exec *x)
{
    if (x->conversion == VFETCH_CONV_UINT) {
        static const uint32_t low[4] = { 0xffff, 0xffff, 0xffff, 0xffff };
        static const float high[4] = { 65536.0f, 65536.0f, 65536.0f, 65536.0f };
        E(VPSRLD_X1_X0_I, 0, 16);
        E(VPAND_X0_X0_P, POOL(low), 0);
        E(VCVTDQ2PS_X1_X1, 0, 0);
        E(VCVTDQ2PS_X0_X0, 0, 0);
        E(VMULPS_X1_X1_P, POOL(high), 0);
        E(VADDPS_X0_X0_X1, 0, 0);
        if (x->shift) {
            const uint32_t bits = (127u - x->shift) << 23;
            const uint32_t scale[4] = { bits, bits, bits, bits };
            E(VMULPS_X0_X0_P, POOL(scale), 0);
        }
        return;
    }
    const int snorm = x->conversion == VFETCH_CONV_SNORM_ZERO_CLAMP;
    const unsigned k = snorm ? 31 : 32;
    if (snorm) {
        static const uint32_t sign[4] = { 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u };
        E(VPAND_X4_X0_P, POOL(sign), 0);
        E(VPABSD_X0_X0, 0, 0);
    }
    E(VPXOR_X3_X3_X3, 0, 0);
    for (unsigned c = 0; c < x->count; c++) {
        E(VPEXTRD_EAX_X0_I, 0, c);
        E(MOV_R10_RAX, 0, 0);
        E(SHL_R10_I, 0, k);
        E(OR_R10_RAX, 0, 0);
        E(MOV_RAX_R10, 0, 0);
        if (k == 32)
            E(SHR_RAX_I, 0, 1);
        E(VCVTSI2SS_X1_X15_RAX, 0, 0);
        E(VINSERTPS_X3_X3_X1_I, 0, c << 4);
    }
    const uint32_t bits = (127u - (k == 32 ? 63 : 62)) << 23;
    const uint32_t scale[4] = { bits, bits, bits, bits };
    E(VMULPS_X0_X3_P, POOL(scale), 0);
    if (snorm)
        E(VPOR_X0_X0_X4, 0, 0);
}

static const char *emit_op(struct gen *g, unsigned op_index, const struct vfetch_op_exec *x)
{
    if (x->format == VFETCH_FORMAT_CONSTANT) {
        /* two or more slots in a row from the pool in one store; else one move each */
        const unsigned m = x->write_mask;
        if (m == 0x3 || m == 0x7 || m == 0xf) {
            E(VMOVDQU_X0_P, POOL(x->constant), 0);
            const unsigned n = m == 0x3 ? 2 : m == 0x7 ? 3 : 4;
            if (n == 4 || (n == 3 && later_stores(g, op_index, x->dst_slot + 3u)))
                E(VMOVUPS_MRDX_X0, 4 * x->dst_slot, 0);
            else {
                E(VMOVQ_MRDX_X0, 4 * x->dst_slot, 0);
                if (n == 3)
                    E(VEXTRACTPS_MRDX_X0_I, 4 * (x->dst_slot + 2), 2);
            }
            return NULL;
        }
        for (unsigned c = 0; c < 4; c++)
            if (m >> c & 1)
                E(MOV_MRDX_I, 4 * (x->dst_slot + c), (int32_t)x->constant[c]);
        return NULL;
    }
    struct op_source s;
    const int one_source = !op_source(g->gx, x, &s) && s.span <= 16;
    if (!one_source && g->gx)
        return "an op reads bytes of two staging copies, or more than 16 bytes apart";
    if (!one_source) {
        load_gathered(g, x);
        return emit_conversion(g, op_index, x);
    }
    if (s.copy >= 0)
        load_element(g, s.copy);
    const unsigned base = stream_register(g, s.base);
    static const enum x86_shape movzx_eax[GEN_REGS] = { BASE_ROW(MOVZX_EAX_B) },
                                movzx_r10d[GEN_REGS] = { BASE_ROW(MOVZX_R10D_B) },
                                mov_eax[GEN_REGS] = { BASE_ROW(MOV_EAX) };
    const unsigned nb = x->lane[0].nbytes;
    if (packs_by_table(x)) { /* RGBA8 = T[first byte] | T'[second byte] */
        const int64_t at = (int64_t)(rgba8_table(g, x) - g->tables);
        x86_op(&g->a, movzx_eax[base], s.off[0][1], 0);
        x86_op(&g->a, movzx_r10d[base], s.off[0][0], 0);
        E(MOV_EAX_MR11_RAX4, at, 0);
        E(OR_EAX_MR11_R10_4, at + 1024, 0);
        E(MOV_MRDX_EAX, 4 * x->dst_slot, 0);
        return NULL;
    }
    /* RGBA8 from four bytes in order: one 32-bit move. */
    if (x->conversion == VFETCH_CONV_PACK_UNORM8 && x->format == VFETCH_FORMAT_FIXED8 &&
        x->count == 4 && s.off[1][0] == s.off[0][0] + 1 && s.off[2][0] == s.off[0][0] + 2 &&
        s.off[3][0] == s.off[0][0] + 3) {
        x86_op(&g->a, mov_eax[base], s.off[0][0], 0);
        E(MOV_MRDX_EAX, 4 * x->dst_slot, 0);
        return NULL;
    }
    /* One unsigned field of one byte stored alone (GX matrix indices): in eax, and for a
       float by one scalar conversion (exact: at most 8 bits). */
    if (one_byte_op(x)) {
        const unsigned bits = x->lane[0].field_bits, shift = x->lane[0].field_shift;
        x86_op(&g->a, movzx_eax[base], s.off[0][0], 0);
        if (shift)
            E(SHR_EAX_I, 0, shift);
        if (shift + bits < 8)
            E(AND_EAX_I, 0, (1u << bits) - 1);
        if (x->conversion == VFETCH_CONV_INTEGER) {
            E(MOV_MRDX_EAX, 4 * x->dst_slot, 0);
            return NULL;
        }
        E(VCVTSI2SS_X0_X15_EAX, 0, 0);
        if (x->shift) {
            const uint32_t bits_of_scale = (127u - x->shift) << 23;
            const uint32_t scale[4] = { bits_of_scale, 0, 0, 0 };
            E(VMULSS_X0_X0_P, POOL(scale), 0);
        }
        E(VMOVD_MRDX_X0, 4 * x->dst_slot, 0);
        return NULL;
    }
    /* A load may take bytes up to the end of what is surely in the caller's buffer (the
       vertex, a stream's extent): one load of 4, 8 or 16 bytes instead of two. */
    unsigned span = s.span;
    const unsigned wider = span <= 4 ? 4 : span <= 8 ? 8 : 16;
    if ((uint32_t)s.lo + wider <= g->readable[s.base])
        span = wider;
    struct span_layout l;
    load_span(g, base, s.lo, span, &l);
    /* The containers to 32-bit lanes, each at the lane's top (FLOAT16: to 16-bit words). */
    uint8_t ctrl[16];
    memset(ctrl, 0x80, sizeof ctrl);
    for (unsigned c = 0; c < x->count; c++)
        for (unsigned k = 0; k < nb; k++)
            ctrl[lane_byte_at(x, c, k)] = (uint8_t)span_pos(&l, (unsigned)(s.off[c][k] - s.lo));
    E(VPSHUFB_X0_X0_P, POOL(ctrl), 0);
    return emit_conversion(g, op_index, x);
}

/* An op's containers in xmm0 (each at its lane's top) to its fields, converted and stored. */
static const char *emit_conversion(struct gen *g, unsigned op_index,
                                   const struct vfetch_op_exec *x)
{
    const unsigned used = x->count, nb = x->lane[0].nbytes;
    const int is_float = vfetch_format_info[x->format].is_float;
    if (!is_float || x->format == VFETCH_FORMAT_UFLOAT_11_11_10) {
        uint32_t left[4] = { 0 }, right[4] = { 0 };
        for (unsigned c = 0; c < used; c++) {
            left[c] = 8 * nb - x->lane[c].field_shift - x->lane[c].field_bits;
            right[c] = 32 - x->lane[c].field_bits;
        }
        shift_lanes(g, &shl_x0, left, used);
        shift_lanes(g, conv_signed(x->conversion) ? &sra_x0 : &srl_x0, right, used);
    }
    float den[4] = { 1, 1, 1, 1 };
    uint32_t widen_l[4] = { 0 }, widen_r[4] = { 0 };
    if (x->format == VFETCH_FORMAT_FIXED32 &&
        (x->conversion == VFETCH_CONV_UINT || x->conversion == VFETCH_CONV_UNORM ||
         x->conversion == VFETCH_CONV_SNORM_ZERO_CLAMP)) {
        emit_fixed32(g, x);
        emit_store(g, op_index, x);
        return NULL;
    }
    switch (x->conversion) {
    case VFETCH_CONV_FLOAT:
        if (x->format == VFETCH_FORMAT_UFLOAT_11_11_10) {
            uint32_t up[4] = { 0 };
            for (unsigned c = 0; c < used; c++)
                up[c] = 15 - x->lane[c].field_bits;
            shift_lanes(g, &shl_x0, up, used);
            E(VPACKUSDW_X0_X0_X0, 0, 0);
        }
        if (x->format != VFETCH_FORMAT_FLOAT32)
            emit_half_to_float(g);
        break;
    case VFETCH_CONV_UINT:
    case VFETCH_CONV_SINT:
        E(VCVTDQ2PS_X0_X0, 0, 0);
        if (x->shift) {
            const uint32_t bits = (127u - x->shift) << 23;
            const uint32_t scale[4] = { bits, bits, bits, bits };
            E(VMULPS_X0_X0_P, POOL(scale), 0);
        }
        break;
    case VFETCH_CONV_UNORM:
    case VFETCH_CONV_SNORM_NO_ZERO:
        if (x->conversion == VFETCH_CONV_SNORM_NO_ZERO) { /* 2v + 1, the missing lanes kept 0 */
            uint32_t one[4] = { 0 };
            for (unsigned c = 0; c < used; c++)
                one[c] = 1;
            E(VPADDD_X0_X0_X0, 0, 0);
            E(VPADDD_X0_X0_P, POOL(one), 0);
        }
        for (unsigned c = 0; c < used; c++)
            den[c] = (float)((1u << x->lane[c].field_bits) - 1);
        E(VCVTDQ2PS_X0_X0, 0, 0);
        E(VDIVPS_X0_X0_P, POOL(den), 0);
        break;
    case VFETCH_CONV_SNORM_ZERO:
    case VFETCH_CONV_SNORM_ZERO_CLAMP:
        for (unsigned c = 0; c < used; c++)
            den[c] = (float)((1u << (x->lane[c].field_bits - 1)) - 1);
        E(VCVTDQ2PS_X0_X0, 0, 0);
        E(VDIVPS_X0_X0_P, POOL(den), 0);
        if (x->conversion == VFETCH_CONV_SNORM_ZERO_CLAMP) {
            const float minus_one[4] = { -1, -1, -1, -1 };
            E(VMAXPS_X0_X0_P, POOL(minus_one), 0);
        }
        break;
    case VFETCH_CONV_UNORM8:
    case VFETCH_CONV_PACK_UNORM8: {
        int any = 0;
        for (unsigned c = 0; c < used; c++) {
            widen_l[c] = 8 - x->lane[c].field_bits;
            widen_r[c] = 2 * x->lane[c].field_bits - 8;
            any |= widen_l[c] != 0;
        }
        if (any) { /* v << (8 - n) | v >> (2n - 8) */
            shift_lanes(g, &shl_x1, widen_l, used);
            shift_lanes(g, &srl_x0, widen_r, used);
            E(VPOR_X0_X0_X1, 0, 0);
        }
        if (x->conversion == VFETCH_CONV_PACK_UNORM8) {
            E(VPACKUSDW_X0_X0_X0, 0, 0);
            E(VPACKUSWB_X0_X0_X0, 0, 0);
            if (x->count < 4) {
                const uint32_t alpha[4] = { 0xff000000u, 0, 0, 0 };
                E(VPOR_X0_X0_P, POOL(alpha), 0);
            }
            E(VMOVD_MRDX_X0, 4 * x->dst_slot, 0);
            return NULL;
        }
        for (unsigned c = 0; c < used; c++)
            den[c] = 255.0f;
        E(VCVTDQ2PS_X0_X0, 0, 0);
        E(VDIVPS_X0_X0_P, POOL(den), 0);
        break;
    }
    case VFETCH_CONV_INTEGER:
    case VFETCH_CONV_SINTEGER: break;
    default: return "a conversion the generator does not know";
    }
    emit_store(g, op_index, x);
    return NULL;
}

/* For each op, the slots ops after it store (a wider store may cover them). */
static void later_slots(struct gen *g)
{
    const unsigned n = g->conv->desc.num_ops;
    uint64_t acc[VFETCH_MAX_SLOTS / 64] = { 0 };
    for (unsigned i = n; i-- > 0;) {
        memcpy(g->later[i], acc, sizeof acc);
        const struct vfetch_op_exec *x = &g->conv->ops[i];
        const unsigned slots = x->conversion == VFETCH_CONV_PACK_UNORM8 ? 1 : 4;
        for (unsigned c = 0; c < slots; c++)
            if (x->write_mask >> c & 1) {
                const unsigned s = x->dst_slot + c;
                acc[s / 64] |= (uint64_t)1 << (s % 64);
            }
    }
}

/* Leave for `decline` when copy cp's array is unbound. */
static void emit_array_bound(struct gen *g, const struct vfetch_gx_copy *cp, unsigned decline)
{
    E(CMP_MRSI_I, arrays_data(cp->array), 0);
    x86_jump(&g->a, X86_JZ, decline);
}

/* Leave for `decline` unless the element of copy cp at the index in rax (its highest) lies
   inside the array: index * stride + the bytes read in the element, within its size. */
static void emit_index_fits(struct gen *g, const struct vfetch_gx_copy *cp, unsigned decline)
{
    E(IMUL_RAX_I, 0, g->gx->desc.array_stride[cp->array]);
    E(ADD_RAX_I, 0, cp->elem_off + cp->size);
    E(CMP_RAX_MRSI, arrays_size(cp->array), 0);
    x86_jump(&g->a, X86_JNBE, decline);
}

/* What pass 1 adds to the position's index lane so that its skip value wraps to 0 and every
   other index keeps its order above it: a skipped vertex then adds nothing to the maximum and
   is counted where its lane compares equal to zero. */
static uint16_t skip_bias(const struct vfetch_gx_copy *pc)
{
    return pc->index_size == 1 ? 0xff01 : 1;
}

/* Pass 1's wide loop, where `per_lane` >= 2 vertices' indices fit one 16-byte window and 8
   16-bit lanes (n indexed copies, their bytes from lo to hi[0] of the vertex, none past the
   first window): 2 * per_lane vertices an iteration, vertex v's copy k in lane v * n +
   lane_of[k] of each 128-bit half, the position biased (skip_bias), skipped vertices counted by
   popcnt. A skipped vertex's other indices count in the maxima: conservative, the checks then
   only decline more (the portable tier decides exactly). Runs while the second window lies
   inside the vertices left; the rest go to the vertex loop that follows, or to `checks` when
   none is left. The result: per_lane, or 0 (nothing emitted). */
/* One register of the wide pass-1 layout folded in: the indices to their lanes (ctrl), the
   position's bias and the skipped vertices counted (bias 0: no position index), the maxima. */
static void wide_fold(struct gen *g, uint64_t ctrl, uint64_t bias, uint32_t skip_bits)
{
    E(VPSHUFB_Y0_Y0_P, ctrl, 0);
    if (bias)
        E(VPADDW_Y0_Y0_P, bias, 0);
    E(VPMAXUW_Y2_Y2_Y0, 0, 0);
    if (bias) {
        E(VPCMPEQW_Y1_Y0_Y3, 0, 0);
        E(VPMOVMSKB_EAX_Y1, 0, 0);
        E(AND_EAX_I, 0, skip_bits);
        E(POPCNT_EAX_EAX, 0, 0);
        E(ADD_R9_RAX, 0, 0);
    }
}

static unsigned emit_index_pass_wide(struct gen *g, const int *lane_of, unsigned n, int32_t lo,
                                     const int32_t hi[2], unsigned checks)
{
    const struct vfetch_gx_plan *plan = g->gx;
    struct x86_asm *a = &g->a;
    const uint32_t vsize = plan->format.vertex_size;
    if (hi[1] >= 0 || n == 0 || n > 4 || vsize == 0)
        return 0;
    unsigned per_lane = 8 / n;
    const unsigned fit = (16 - (unsigned)(hi[0] - lo + 1)) / vsize + 1;
    per_lane = fit < per_lane ? fit : per_lane;
    if (per_lane < 2)
        return 0;
    const struct vfetch_gx_copy *pc =
        plan->position_copy >= 0 ? &plan->copies[plan->position_copy] : NULL;
    uint8_t ctrl[32];
    uint16_t bias[16] = { 0 };
    uint32_t skip_bits = 0;
    memset(ctrl, 0x80, sizeof ctrl);
    for (unsigned v = 0; v < per_lane; v++)
        for (unsigned k = 0; k < plan->num_copies; k++) {
            if (lane_of[k] < 0)
                continue;
            const struct vfetch_gx_copy *cp = &plan->copies[k];
            const unsigned w = v * n + (unsigned)lane_of[k];
            const unsigned at = v * vsize + (unsigned)(cp->src - lo);
            for (unsigned h = 0; h < 2; h++) {
                if (cp->index_size == 1)
                    ctrl[16 * h + 2 * w] = (uint8_t)at;
                else { /* big-endian: the second byte is the low one */
                    ctrl[16 * h + 2 * w] = (uint8_t)(at + 1);
                    ctrl[16 * h + 2 * w + 1] = (uint8_t)at;
                }
                if (cp == pc) {
                    bias[8 * h + w] = skip_bias(pc);
                    skip_bits |= 1u << (16 * h + 2 * w);
                }
            }
        }
    const unsigned step = 2 * per_lane;
    unsigned need = per_lane + ((unsigned)lo + 16 + vsize - 1) / vsize;
    need = need < step ? step : need;
    const unsigned loop = x86_label(a), rest = x86_label(a), small = x86_label(a);
    if (pc)
        E(VPXOR_X3_X3_X3, 0, 0);
    E(CMP_R11_I, 0, need);
    x86_jump(a, X86_JB, rest);
    x86_bind(a, loop);
    E(VMOVDQU_X0_MRDI, lo, 0);
    E(VINSERTI128_Y0_Y0_MRDI_I, lo + (int32_t)(per_lane * vsize), 1);
    wide_fold(g, x86_const_wide(a, ctrl, 2), pc ? x86_const_wide(a, bias, 2) : 0, skip_bits);
    E(ADD_RDI_I, 0, step * vsize);
    E(SUB_R11_I, 0, step);
    E(CMP_R11_I, 0, need);
    x86_jump(a, X86_JNB, loop);
    x86_bind(a, rest);
    /* The last `step` vertices, where at least that many are left and their bytes hold 16 from
       the first's indices: the first half's window as in the loop, the second half's ending at
       the draw's last byte (its control moved by what lies before the last vertices); the
       vertices before them go on to the vertex loop. */
    if ((uint32_t)lo + 16 <= step * vsize) {
        const unsigned moved = 16 - per_lane * vsize + (unsigned)lo;
        uint8_t tail[32];
        memcpy(tail, ctrl, 32);
        for (unsigned i = 16; i < 32; i++)
            if (!(tail[i] & 0x80))
                tail[i] = (uint8_t)(tail[i] + moved);
        E(CMP_R11_I, 0, step);
        x86_jump(a, X86_JB, small);
        E(IMUL_RAX_R11_I, 0, vsize); /* rax: the end of the draw's bytes */
        E(ADD_RAX_RDI, 0, 0);
        E(VMOVDQU_X0_MRAX, lo - (int32_t)(step * vsize), 0);
        E(VINSERTI128_Y0_Y0_MRAX_I, -16, 1);
        wide_fold(g, x86_const_wide(a, tail, 2), pc ? x86_const_wide(a, bias, 2) : 0,
                  skip_bits);
        E(SUB_R11_I, 0, step);
    }
    x86_bind(a, small);
    E(TEST_R11_R11, 0, 0);
    x86_jump(a, X86_JZ, checks);
    return per_lane;
}

/* Pass 1 by vectors, where every indexed copy's index fits a 16-bit lane of one register:
   copies 0..7 from one 16-byte window of the vertex, 8..15 from another. Per kept vertex the
   indices are loaded, byte-swapped into their lanes by one vpshufb and folded into the maxima
   by one vpmaxuw; a skipped vertex's are not. The maxima go to the red zone (32 bytes below
   the result pointer's slot) for the checks. Returns 0, or -1 (nothing emitted) where the
   indices do not fit two windows. */
static int emit_index_pass_vector(struct gen *g, unsigned decline, unsigned done)
{
    const struct vfetch_gx_plan *plan = g->gx;
    struct x86_asm *a = &g->a;
    if (a->sse) /* its vectors are 256 bits wide */
        return 1;
    int lane_of[VFETCH_GX_MAX_COPIES];
    unsigned n = 0;
    int32_t lo[2] = { INT32_MAX, INT32_MAX }, hi[2] = { -1, -1 };
    for (unsigned k = 0; k < plan->num_copies; k++) {
        lane_of[k] = -1;
        const struct vfetch_gx_copy *cp = &plan->copies[k];
        if (cp->array == VFETCH_GX_FROM_VERTEX)
            continue;
        const unsigned h = n / 8;
        lane_of[k] = (int)n++;
        lo[h] = cp->src < lo[h] ? cp->src : lo[h];
        hi[h] = cp->src + cp->index_size - 1 > hi[h] ? cp->src + cp->index_size - 1 : hi[h];
    }
    for (unsigned h = 0; h < 2; h++)
        if (hi[h] >= 0 && hi[h] - lo[h] >= 16)
            return -1;
    for (unsigned k = 0; k < plan->num_copies; k++)
        if (lane_of[k] >= 0)
            emit_array_bound(g, &plan->copies[k], decline);
    struct span_layout l[2];
    uint8_t ctrl[32];
    memset(ctrl, 0x80, sizeof ctrl);
    E(XOR_R9D_R9D, 0, 0);
    E(MOV_R11_RCX, 0, 0);
    E(VPXOR_X2_X2_X2, 0, 0);
    const unsigned loop = x86_label(a), next = x86_label(a), skip = x86_label(a),
                   checks = x86_label(a);
    const unsigned per_lane = emit_index_pass_wide(g, lane_of, n, lo[0], hi, checks);
    /* the position's lane biased as the wide loop's are (its skip value wraps to 0) */
    uint16_t bias[16] = { 0 };
    if (per_lane && plan->position_copy >= 0)
        bias[lane_of[plan->position_copy]] = skip_bias(&plan->copies[plan->position_copy]);
    x86_bind(a, loop);
    if (plan->position_copy >= 0) {
        const struct vfetch_gx_copy *pc = &plan->copies[plan->position_copy];
        x86_op(a, pc->index_size == 1 ? X86_MOVZX_EAX_B_MRDI : X86_MOVZX_EAX_W_MRDI, pc->src, 0);
        E(CMP_EAX_I, 0, pc->index_size == 1 ? 0xff : 0xffff);
        x86_jump(a, X86_JZ, skip);
    }
    for (unsigned h = 0; h < 2 && hi[h] >= 0; h++) {
        const unsigned span = (unsigned)(hi[h] - lo[h] + 1);
        /* the vertex's bytes past the indices may be read too */
        const unsigned wider = span <= 4 ? 4 : span <= 8 ? 8 : 16;
        load_span_to(g, 0, (int)h, lo[h],
                     (uint32_t)lo[h] + wider <= plan->format.vertex_size ? wider : span, &l[h]);
    }
    for (unsigned k = 0; k < plan->num_copies; k++) {
        if (lane_of[k] < 0)
            continue;
        const struct vfetch_gx_copy *cp = &plan->copies[k];
        const unsigned h = (unsigned)lane_of[k] / 8, at = 16 * h + 2 * ((unsigned)lane_of[k] % 8);
        if (cp->index_size == 1)
            ctrl[at] = (uint8_t)span_pos(&l[h], (unsigned)(cp->src - lo[h]));
        else { /* big-endian: the second byte is the low one */
            ctrl[at] = (uint8_t)span_pos(&l[h], (unsigned)(cp->src + 1 - lo[h]));
            ctrl[at + 1] = (uint8_t)span_pos(&l[h], (unsigned)(cp->src - lo[h]));
        }
    }
    if (hi[1] >= 0)
        E(VINSERTI128_Y0_Y0_X1_I, 0, 1);
    E(VPSHUFB_Y0_Y0_P, x86_const_wide(a, ctrl, 2), 0);
    if (per_lane && plan->position_copy >= 0)
        E(VPADDW_Y0_Y0_P, x86_const_wide(a, bias, 2), 0);
    E(VPMAXUW_Y2_Y2_Y0, 0, 0);
    x86_bind(a, next);
    if (plan->format.vertex_size)
        E(ADD_RDI_I, 0, plan->format.vertex_size);
    E(DEC_R11, 0, 0);
    x86_jump(a, X86_JNZ, loop);
    x86_jump(a, X86_JMP, checks);
    x86_bind(a, skip);
    E(INC_R9, 0, 0);
    x86_jump(a, X86_JMP, next);
    x86_bind(a, checks);
    if (per_lane) { /* each copy's lanes folded into its first: both halves, then the vertices */
        E(VEXTRACTI128_X1_Y2_I, 0, 1);
        E(VPMAXUW_X2_X2_X1, 0, 0);
        for (unsigned w = n; w < per_lane * n; w *= 2) {
            E(VPSRLDQ_X1_X2_I, 0, 2 * w);
            E(VPMAXUW_X2_X2_X1, 0, 0);
        }
        if (plan->position_copy >= 0) /* the bias undone (every vertex skipped: not read) */
            E(VPSUBW_X2_X2_P, POOL(bias), 0);
    }
    E(VMOVDQU_MRSP_Y2, -48, 0);
    E(VZEROUPPER, 0, 0);
    E(CMP_R9_RCX, 0, 0);
    x86_jump(a, X86_JZ, done);
    for (unsigned k = 0; k < plan->num_copies; k++) {
        if (lane_of[k] < 0)
            continue;
        E(MOVZX_EAX_W_MRSP, -48 + 2 * lane_of[k], 0);
        emit_index_fits(g, &plan->copies[k], decline);
    }
    E(MOV_RDI_MRSI, offsetof(struct vfetch_gx_run_params, vertices), 0);
    return 0;
}

/* An instruction on pass 1's slot of a copy's highest index: forms[0] for slot 0 (r8),
   forms[1] for slot 1 (rdx), forms[2] for the others (the red zone, at -8 * slot). */
static void slot_op(struct gen *g, unsigned slot, const enum x86_shape forms[3])
{
    x86_op(&g->a, forms[slot < 2 ? slot : 2], -8 * (int64_t)slot, 0);
}

/* Pass 1 of an indexed format: skip values counted, each copy's highest index of the kept
   vertices, then the arrays checked; leaves r9 = skipped. Jumps to `decline` on a failed check,
   to `done` when every vertex is skipped. */
static void emit_index_pass(struct gen *g, unsigned decline, unsigned done)
{
    const struct vfetch_gx_plan *plan = g->gx;
    struct x86_asm *a = &g->a;
    const uint32_t vsize = plan->format.vertex_size;
    /* Each indexed copy's highest index: the first two in r8 and rdx (free until pass 2; the
       result pointer is in the red zone's first qword), the others in the red zone after it. */
    unsigned slot[VFETCH_GX_MAX_COPIES];
    unsigned n = 0;
    for (unsigned k = 0; k < plan->num_copies; k++)
        if (plan->copies[k].array != VFETCH_GX_FROM_VERTEX) {
            emit_array_bound(g, &plan->copies[k], decline);
            slot[k] = n++;
            static const enum x86_shape zero[3] = { X86_XOR_R8D_R8D, X86_XOR_EDX_EDX,
                                                    X86_MOV_MRSP_I };
            slot_op(g, slot[k], zero);
        }
    E(XOR_R9D_R9D, 0, 0);
    E(MOV_R10_RDI, 0, 0);
    E(MOV_R11_RCX, 0, 0);
    const unsigned loop = x86_label(a), next = x86_label(a);
    x86_bind(a, loop);
    if (plan->position_copy >= 0) {
        const unsigned keep = x86_label(a);
        const struct vfetch_gx_copy *pc = &plan->copies[plan->position_copy];
        x86_op(a, pc->index_size == 1 ? X86_MOVZX_EAX_B_MR10 : X86_MOVZX_EAX_W_MR10, pc->src, 0);
        E(CMP_EAX_I, 0, pc->index_size == 1 ? 0xff : 0xffff);
        x86_jump(a, X86_JNZ, keep);
        E(INC_R9, 0, 0);
        x86_jump(a, X86_JMP, next);
        x86_bind(a, keep);
    }
    for (unsigned k = 0; k < plan->num_copies; k++) {
        const struct vfetch_gx_copy *cp = &plan->copies[k];
        if (cp->array == VFETCH_GX_FROM_VERTEX)
            continue;
        load_index_eax(g, cp);
        if (slot[k] == 0) {
            E(CMP_RAX_R8, 0, 0);
            E(CMOVNBE_R8_RAX, 0, 0);
        } else if (slot[k] == 1) {
            E(CMP_RAX_RDX, 0, 0);
            E(CMOVNBE_RDX_RAX, 0, 0);
        } else {
            const int64_t at = -8 * (int64_t)slot[k];
            E(CMP_RAX_MRSP, at, 0);
            E(CMOVB_RAX_MRSP, at, 0);
            E(MOV_MRSP_RAX, at, 0);
        }
    }
    x86_bind(a, next);
    if (vsize)
        E(ADD_R10_I, 0, vsize);
    E(DEC_R11, 0, 0);
    x86_jump(a, X86_JNZ, loop);
    E(CMP_R9_RCX, 0, 0);
    x86_jump(a, X86_JZ, done);
    for (unsigned k = 0; k < plan->num_copies; k++) {
        const struct vfetch_gx_copy *cp = &plan->copies[k];
        if (cp->array == VFETCH_GX_FROM_VERTEX)
            continue;
        static const enum x86_shape read[3] = { X86_MOV_RAX_R8, X86_MOV_RAX_RDX, X86_MOV_RAX_MRSP };
        slot_op(g, slot[k], read);
        emit_index_fits(g, cp, decline);
    }
}

/* The record program's passes this generator emits (lib/simd/record_passes.h does the same
   with its tables in registers): binary16 lanes and the AVX-512 table forms are not here. */
#define GX_JIT_RP_PASSES                                                                    \
    (VFETCH_RP_LOAD | VFETCH_RP_FIXED | VFETCH_RP_SHIFT | VFETCH_RP_DIV | VFETCH_RP_CLAMP |   \
     VFETCH_RP_BLEND | VFETCH_RP_RAW | VFETCH_RP_KEEP | VFETCH_RP_MASK | VFETCH_RP_WIDEN |      \
     VFETCH_RP_PACK8 | VFETCH_RP_HALF)

/* The most vectors of a group emitted as code (a record of 16 slots: 16 vectors a group of 8). */
#define GX_JIT_RP_MAX_VECTORS 16

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

/* The window of 128-bit lane q of a record vector into xmm0 (q 0) or xmm1 (q 1): whole where
   it lies inside the group's readable bytes, else only the bytes its shuffle reads, in at most two
   loads (a window may reach past the vertices, its used bytes never do), its shuffle control
   remapped to where they land. */
static void load_window_exact(struct gen *g, const struct vfetch_rp_vector *v, unsigned q,
                              uint32_t group_bytes, uint8_t ctrl[16], uint8_t hctrl[16])
{
    const uint8_t *c = v->ctrl + 16 * q, *h = v->hctrl + 16 * q;
    const int half = (v->passes & VFETCH_RP_HALF) != 0;
    if (v->src_off[q] + 16 <= group_bytes) { /* inside the group's bytes: one load */
        x86_op(&g->a, q ? X86_VMOVDQU_X1_MRDI : X86_VMOVDQU_X0_MRDI, g->rp_src + v->src_off[q],
               0);
        memcpy(ctrl, c, 16);
        memcpy(hctrl, h, 16);
        return;
    }
    unsigned lo = 16, hi = 0;
    for (unsigned i = 0; i < 16; i++)
        for (unsigned t = 0; t < 1u + half; t++) {
            const uint8_t b = t ? h[i] : c[i];
            if (!(b & 0x80)) {
                lo = (b & 15) < lo ? (b & 15) : lo;
                hi = (b & 15) > hi ? (b & 15) : hi;
            }
        }
    if (lo > hi) { /* nothing read: every byte zero whatever the register holds */
        memset(ctrl, 0x80, 16);
        memset(hctrl, 0x80, 16);
        return;
    }
    struct span_layout l;
    load_span_to(g, 0, (int)q, g->rp_src + (int32_t)(v->src_off[q] + lo), hi - lo + 1, &l);
    for (unsigned i = 0; i < 16; i++) {
        ctrl[i] = c[i] & 0x80 ? 0x80 : (uint8_t)span_pos(&l, (c[i] & 15) - lo);
        hctrl[i] = h[i] & 0x80 ? 0x80 : (uint8_t)span_pos(&l, (h[i] & 15) - lo);
    }
}

/* An op of a record vector with a table of the pool: at 8 lanes from the register that holds
   the table where the group loop loaded one (form f; -1: the op has no register form), else
   from the pool. */
static void rp_table_op(struct gen *g, int y, enum x86_shape ymem, enum x86_shape xmem, int f,
                        const void *table)
{
    const uint64_t at = x86_const_wide(&g->a, table, y ? 2 : 1);
    if (y && g->counting && f >= 0) {
        unsigned i = 0;
        while (i < g->num_counted && g->counted[i].at != at)
            i++;
        if (i < GX_JIT_COUNTED) {
            g->counted[i].at = at;
            g->counted[i].uses++;
            g->num_counted += i == g->num_counted;
        }
    }
    if (y && f >= 0)
        for (unsigned k = 0; k < g->num_reg_consts; k++)
            if (g->reg_const[k] == at) {
                x86_op(&g->a, regform_shape((enum regform)f, k), 0, 0);
                return;
            }
    x86_op(&g->a, y ? ymem : xmem, (int64_t)at, 0);
}

/* One vector of a record program of `lanes` 4 (xmm) or 8 (ymm), over the group whose first
   vertex is at rdi and first output record at rdx: exactly record_passes.h's rp_convert and
   rp_store, each table a constant of the pool. */
static void emit_rp_vector(struct gen *g, const struct vfetch_rp_vector *v, unsigned lanes,
                           uint32_t group_bytes)
{
    const int y = lanes == 8;
    const unsigned entries = y ? 2 : 1, P = v->passes;
#define RP(shape) (y ? X86_##shape##_Y : X86_##shape##_X)
#define C(table) x86_const_wide(&g->a, (table), entries)
#define O(shape_y, shape_x, disp, imm) x86_op(&g->a, y ? X86_##shape_y : X86_##shape_x, (disp), (imm))
#define T(shape_y, shape_x, form, table) rp_table_op(g, y, X86_##shape_y, X86_##shape_x, (form), (table))
    if (P & VFETCH_RP_LOAD) {
        uint8_t ctrl[32], hctrl[32];
        load_window_exact(g, v, 0, group_bytes, ctrl, hctrl);
        if (y) {
            load_window_exact(g, v, 1, group_bytes, ctrl + 16, hctrl + 16);
            E(VINSERTI128_Y0_Y0_X1_I, 0, 1);
        }
        if (P & VFETCH_RP_HALF) { /* register 6: the binary16 lanes, widened (F16C) */
            O(VPSHUFB_Y6_Y0_P, VPSHUFB_X6_X0_P, C(hctrl), 0);
            if (y) /* the halves sit in the low 8 bytes of each 128-bit lane */
                E(VPERMQ_Y6_Y6_I, 0, 0x08);
            x86_op(&g->a, y ? X86_VCVTPH2PS_Y6_X6 : X86_VCVTPH2PS_X6_X6, 0, 0);
        }
        T(VPSHUFB_Y0_Y0_P, VPSHUFB_X0_X0_P, REGFORM_SHUFB, ctrl);
    } else
        E(VPXOR_X0_X0_X0, 0, 0);
    /* res (register 2): the raw lanes; none where every written lane is fixed-point (the
       conversion's register is then stored as it is). Raw lanes that are the shuffle's bytes as
       they are stay in register 0 until the first blend reads them from there (no copy). */
    const int raw_or = any_nonzero(v->raw_or, lanes);
    const int all_fixed = (P & VFETCH_RP_FIXED) && !(P & VFETCH_RP_BLEND);
    int res_in_0 = 0;
    if (all_fixed)
        ;
    else if (P & VFETCH_RP_MASK) {
        O(VPAND_Y2_Y0_P, VPAND_X2_X0_P, C(v->raw_and), 0);
        O(VPXOR_Y2_Y2_P, VPXOR_X2_X2_P, C(v->raw_sign), 0);
        O(VPSUBD_Y2_Y2_P, VPSUBD_X2_X2_P, C(v->raw_sign), 0);
        if (raw_or)
            O(VPOR_Y2_Y2_P, VPOR_X2_X2_P, C(v->raw_or), 0);
    } else if (raw_or)
        T(VPOR_Y2_Y0_P, VPOR_X2_X0_P, REGFORM_OR_2_0, v->raw_or);
    else
        res_in_0 = 1;
    if (P & VFETCH_RP_FIXED) { /* register 1: the fixed-point lanes */
        /* A zero xor (signed fields) and a zero addend are left out: x + 0.0 is x for every x
           the conversion can produce (cvtdq2ps never gives -0.0, and the scales are positive:
           checked, or the add stays). */
        const int xor = any_nonzero(v->xmask, lanes);
        int add = 0;
        for (unsigned i = 0; i < lanes; i++) {
            uint32_t m, d;
            memcpy(&m, &v->mul[i], 4);
            memcpy(&d, &v->add[i], 4);
            add |= d != 0 || (m >> 31) != 0;
        }
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
        T(VMULPS_Y1_Y1_P, VMULPS_X1_X1_P, REGFORM_MUL, v->mul);
        if (add)
            T(VADDPS_Y1_Y1_P, VADDPS_X1_X1_P, REGFORM_ADD, v->add);
        if (P & VFETCH_RP_DIV) {
            O(VDIVPS_Y1_Y1_P, VDIVPS_X1_X1_P, C(v->div), 0);
            if (P & VFETCH_RP_CLAMP)
                O(VMAXPS_Y1_Y1_P, VMAXPS_X1_X1_P, C(v->lo), 0);
        }
        if (all_fixed)
            ;
        else if (res_in_0) {
            O(VPBLENDD_Y2_Y0_Y1_I, VPBLENDD_X2_X0_X1_I, 0, lane_mask(v->fixed_sel, lanes));
            res_in_0 = 0;
        } else
            O(VPBLENDD_Y2_Y2_Y1_I, VPBLENDD_X2_X2_X1_I, 0, lane_mask(v->fixed_sel, lanes));
    }
    if (P & VFETCH_RP_PACK8) { /* RGBA8 from 16-bit slices: two channels a half at a time */
        static const uint32_t high_bytes[8] = { 0xff00ff00u, 0xff00ff00u, 0xff00ff00u, 0xff00ff00u,
                                                0xff00ff00u, 0xff00ff00u, 0xff00ff00u, 0xff00ff00u };
        T(VPMULLW_Y3_Y0_P, VPMULLW_X3_X0_P, REGFORM_MULLW_3_0, v->pack_mul[0]);
        T(VPAND_Y3_Y3_P, VPAND_X3_X3_P, REGFORM_AND_3_3, v->pack_mask[0]);
        T(VPMULHUW_Y5_Y3_P, VPMULHUW_X5_X3_P, REGFORM_MULHUW_5_3, v->pack_shr[0]);
        O(VPOR_Y3_Y3_Y5, VPOR_X3_X3_X5, 0, 0);
        O(VPSRLW_Y3_Y3_I, VPSRLW_X3_X3_I, 0, 8);
        T(VPMULLW_Y4_Y0_P, VPMULLW_X4_X0_P, REGFORM_MULLW_4_0, v->pack_mul[1]);
        T(VPAND_Y4_Y4_P, VPAND_X4_X4_P, REGFORM_AND_4_4, v->pack_mask[1]);
        T(VPMULHUW_Y5_Y4_P, VPMULHUW_X5_X4_P, REGFORM_MULHUW_5_4, v->pack_shr[1]);
        O(VPOR_Y4_Y4_Y5, VPOR_X4_X4_X5, 0, 0);
        T(VPAND_Y4_Y4_P, VPAND_X4_X4_P, REGFORM_AND_4_4, high_bytes);
        O(VPOR_Y3_Y3_Y4, VPOR_X3_X3_X4, 0, 0);
        if (raw_or)
            T(VPOR_Y3_Y3_P, VPOR_X3_X3_P, REGFORM_OR_3_3, v->raw_or);
        if (res_in_0)
            O(VPBLENDD_Y2_Y0_Y3_I, VPBLENDD_X2_X0_X3_I, 0, lane_mask(v->pack_sel, lanes));
        else
            O(VPBLENDD_Y2_Y2_Y3_I, VPBLENDD_X2_X2_X3_I, 0, lane_mask(v->pack_sel, lanes));
        res_in_0 = 0;
    }
    int in_1 = all_fixed; /* the result is register 1's (every lane fixed-point) */
    if (P & VFETCH_RP_HALF) {
        const unsigned m = lane_mask(v->half_sel, lanes);
        if (res_in_0)
            O(VPBLENDD_Y2_Y0_Y6_I, VPBLENDD_X2_X0_X6_I, 0, m);
        else if (in_1)
            O(VPBLENDD_Y2_Y1_Y6_I, VPBLENDD_X2_X1_X6_I, 0, m);
        else
            O(VPBLENDD_Y2_Y2_Y6_I, VPBLENDD_X2_X2_X6_I, 0, m);
        res_in_0 = in_1 = 0;
    }
    if (res_in_0) /* raw lanes only: stored from register 0 */
        O(VMOVDQA_Y2_Y0, VMOVDQA_X2_X0, 0, 0);
    if (P & VFETCH_RP_KEEP) { /* only the written lanes */
        O(VMOVDQU_Y3_P, VMOVDQU_X3_P, C(v->store_sel), 0);
        if (in_1)
            O(VPMASKMOVD_MRDX_Y3_Y1, VPMASKMOVD_MRDX_X3_X1, g->rp_dst + (int32_t)v->dst_off, 0);
        else
            O(VPMASKMOVD_MRDX_Y3_Y2, VPMASKMOVD_MRDX_X3_X2, g->rp_dst + (int32_t)v->dst_off, 0);
    } else if (in_1)
        O(VMOVDQU_MRDX_Y1, VMOVDQU_MRDX_X1, g->rp_dst + (int32_t)v->dst_off, 0);
    else
        O(VMOVDQU_MRDX_Y2, VMOVDQU_MRDX_X2, g->rp_dst + (int32_t)v->dst_off, 0);
#undef T
#undef O
#undef C
#undef RP
}

/* A direct format's record program of `lanes` lanes that this generator can emit, or NULL:
   one it cannot lower, one with a pass not emitted here, or one of more vectors than a
   group's code is worth. */
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

static struct vfetch_record_prog *record_for(const struct vfetch_plan *conv, unsigned lanes)
{
    if (jit_sse()) /* the programs' passes use AVX2 (variable shifts, dword blends) */
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
    int ok = prog->num_vectors <= GX_JIT_RP_MAX_VECTORS;
    for (unsigned k = 0; k < prog->num_vectors && ok; k++)
        ok = !(prog->vec[k].passes & ~GX_JIT_RP_PASSES) &&
             prog->vec[k].window == VFETCH_RP_WINDOW_16;
    if (!ok) {
        free(prog);
        return NULL;
    }
    return prog;
}

/* Whole groups of a direct format through its record program (windows past the bytes surely
   in the buffer loaded exactly: no group reads past its vertices): rdi, rdx and rcx move on
   past them. */
/* Groups an iteration of the group loop: small groups of few vectors several (at least 8
   vertices, at most 16 vectors), so that the loop's own instructions do not outweigh a group's. */
static unsigned group_unroll(const struct vfetch_record_prog *prog)
{
    if (prog->lanes != 8 || prog->group >= 8)
        return 1;
    const unsigned by_vectors = GX_JIT_RP_MAX_VECTORS / prog->num_vectors;
    const unsigned unroll = 8 / prog->group < by_vectors ? 8 / prog->group : by_vectors;
    return unroll ? unroll : 1;
}

static void emit_record_groups(struct gen *g, const struct vfetch_record_prog *prog)
{
    struct x86_asm *a = &g->a;
    const unsigned loop = x86_label(a), single = x86_label(a), out = x86_label(a);
    const unsigned unroll = group_unroll(prog);
    E(CMP_RCX_I, 0, prog->group);
    x86_jump(a, X86_JB, out);
    if (prog->lanes == 8) {
        /* The constants the vectors use most, into ymm8..ymm14 once: the loop body emitted
           once to count them (then taken back), the registers loaded, the body emitted again. */
        const struct x86_mark mark = x86_mark(a);
        if (g->counted_for != prog) { /* else choose_groups counted them */
            g->counting = 1;
            g->num_counted = 0;
            g->rp_src = g->rp_dst = 0;
            for (unsigned k = 0; k < prog->num_vectors; k++)
                emit_rp_vector(g, &prog->vec[k], prog->lanes,
                               (prog->group - 1) * g->vsize + g->readable[0]);
            g->counting = 0;
        }
        g->counted_for = NULL;
        x86_rewind(a, mark);
        /* ymm6 holds binary16 lanes where a vector has them: the constants start at ymm7 */
        unsigned first = 0;
        for (unsigned k = 0; k < prog->num_vectors; k++)
            first |= (prog->vec[k].passes & VFETCH_RP_HALF) != 0;
        for (unsigned k = 0; k < first; k++)
            g->reg_const[g->num_reg_consts++] = 0; /* no constant is at address 0 */
        while (g->num_reg_consts < GX_JIT_CONST_REGS) {
            unsigned best = GX_JIT_COUNTED;
            /* a constant used once an iteration of one group costs its load either way */
            for (unsigned i = 0; i < g->num_counted; i++)
                if (g->counted[i].uses * unroll >= 2 &&
                    (best == GX_JIT_COUNTED || g->counted[i].uses > g->counted[best].uses))
                    best = i;
            if (best == GX_JIT_COUNTED)
                break;
            g->counted[best].uses = 0;
            g->reg_const[g->num_reg_consts] = g->counted[best].at;
            x86_op(a, regform_shape(REGFORM_LOAD, g->num_reg_consts++),
                   (int64_t)g->counted[best].at, 0);
        }
    }
    /* `unroll` groups an iteration while they are there (then one at a time): group j's
       vectors at j steps from rdi and rdx, reading whole windows up to the last group's end */
    for (unsigned pass = unroll > 1 ? 0 : 1; pass < 2; pass++) {
        const unsigned n = pass ? 1 : unroll, here = x86_label(a);
        if (!pass) {
            E(CMP_RCX_I, 0, n * prog->group);
            x86_jump(a, X86_JB, single);
        } else if (unroll > 1) {
            x86_bind(a, single);
            E(CMP_RCX_I, 0, prog->group);
            x86_jump(a, X86_JB, out);
        }
        x86_bind(a, pass ? loop : here);
        for (unsigned j = 0; j < n; j++) {
            g->rp_src = (int32_t)(j * prog->group_step[0]);
            g->rp_dst = (int32_t)(j * prog->dst_step);
            for (unsigned k = 0; k < prog->num_vectors; k++)
                emit_rp_vector(g, &prog->vec[k], prog->lanes,
                               (n * prog->group - 1) * g->vsize + g->readable[0] -
                                   j * prog->group_step[0]);
        }
        g->rp_src = g->rp_dst = 0;
        E(ADD_RDI_I, 0, n * prog->group_step[0]);
        E(ADD_RDX_I, 0, n * prog->dst_step);
        E(SUB_RCX_I, 0, n * prog->group);
        E(CMP_RCX_I, 0, n * prog->group);
        x86_jump(a, X86_JNB, pass ? loop : here);
    }
    g->num_reg_consts = 0;
    x86_bind(a, out);
}

/* One step of a word copy: 32 bytes (wide) or 16 at disp from rdi to rdx, byte-reversed by
   the shuffle at ctrl where bswap. */
static void copy_step(struct gen *g, int wide, int32_t disp, int bswap, uint64_t ctrl)
{
    x86_op(&g->a, wide ? X86_VMOVDQU_Y0_MRDI : X86_VMOVDQU_X0_MRDI, disp, 0);
    if (bswap)
        x86_op(&g->a, wide ? X86_VPSHUFB_Y0_Y0_P : X86_VPSHUFB_X0_X0_P, (int64_t)ctrl, 0);
    x86_op(&g->a, wide ? X86_VMOVUPS_MRDX_Y0 : X86_VMOVUPS_MRDX_X0, disp, 0);
}

/* Of rax >= step bytes (a multiple of 4) from rdi to rdx: `step` (16, or 32 in ymm) at a
   time, the last `step` again where they overlap the previous ones (the same bytes written
   twice: source and output do not overlap); then on to `end`. */
static void copy_steps(struct gen *g, unsigned step, int bswap, uint64_t ctrl, unsigned end)
{
    struct x86_asm *a = &g->a;
    const int wide = step == 32;
    const unsigned loop = x86_label(a), done = x86_label(a);
    x86_bind(a, loop);
    copy_step(g, wide, 0, bswap, ctrl);
    E(ADD_RDI_I, 0, step);
    E(ADD_RDX_I, 0, step);
    E(SUB_RAX_I, 0, step);
    E(CMP_RAX_I, 0, step);
    x86_jump(a, X86_JNB, loop);
    E(TEST_RAX_RAX, 0, 0);
    x86_jump(a, X86_JZ, done);
    E(ADD_RDI_RAX, 0, 0);
    E(ADD_RDX_RAX, 0, 0);
    copy_step(g, wide, -(int32_t)step, bswap, ctrl);
    x86_bind(a, done);
    if (wide)
        E(VZEROUPPER, 0, 0);
    x86_jump(a, X86_JMP, end);
}

/* A word copy (the plan's slots are its records' 32-bit words, as they are or byte-reversed,
   and the output stride is the vertex size): count * size bytes (a multiple of 4), 32 at a
   time (SSE4.1: 16) and the last 32 again where they overlap the previous step; 16 and 16
   below 32 bytes; words below 16. */
static void emit_word_copy(struct gen *g, int bswap)
{
    static const uint8_t reverse[32] = { 3,  2,  1,  0,  7,  6,  5,  4,  11, 10, 9,
                                         8,  15, 14, 13, 12, 3,  2,  1,  0,  7,  6,
                                         5,  4,  11, 10, 9,  8,  15, 14, 13, 12 };
    struct x86_asm *a = &g->a;
    const unsigned half = x86_label(a), word = x86_label(a), end = x86_label(a);
    const uint64_t ctrl = x86_const_wide(a, reverse, 2);
    E(IMUL_RAX_RCX_I, 0, g->vsize);
    if (a->sse) { /* 16 bytes at a time */
        E(CMP_RAX_I, 0, 16);
        x86_jump(a, X86_JB, word);
        copy_steps(g, 16, bswap, ctrl, end);
    } else {
        E(CMP_RAX_I, 0, 32);
        x86_jump(a, X86_JB, half);
        copy_steps(g, 32, bswap, ctrl, end);
        x86_bind(a, half); /* 16..28 bytes: the first 16 and the last 16 */
        E(CMP_RAX_I, 0, 16);
        x86_jump(a, X86_JB, word);
        copy_step(g, 0, 0, bswap, ctrl);
        E(ADD_RDI_RAX, 0, 0);
        E(ADD_RDX_RAX, 0, 0);
        copy_step(g, 0, -16, bswap, ctrl);
        x86_jump(a, X86_JMP, end);
    }
    x86_bind(a, word); /* 4..12 bytes */
    E(MOV_R8D_MRDI, 0, 0);
    if (bswap)
        E(BSWAP_R8D, 0, 0);
    E(MOV_MRDX_R8D, 0, 0);
    E(ADD_RDI_I, 0, 4);
    E(ADD_RDX_I, 0, 4);
    E(SUB_RAX_I, 0, 4);
    x86_jump(a, X86_JNZ, word);
    x86_bind(a, end);
}

/* One vertex's ops (pass 2's loop body, without its skip test and pointer steps). NULL, or why
   an op cannot be generated. */
static const char *emit_vertex_ops(struct gen *g)
{
    const struct vfetch_plan *conv = g->conv;
    const char *why = NULL;
    int32_t member_at[VFETCH_MAX_OPS];
    int32_t batch_lo = 0;
    const unsigned batch = byte_field_batch(g, member_at, &batch_lo);
    unsigned left = batch;
    for (unsigned i = 0; i < conv->desc.num_ops && !why; i++) {
        if (batch && member_at[i] >= 0) { /* the batch, once its last member's turn comes */
            if (!--left)
                emit_byte_field_batch(g, member_at, batch, batch_lo);
            continue;
        }
        why = emit_op(g, i, &conv->ops[i]);
    }
    return why;
}

/* Keep a direct format's record programs only where their groups cost fewer instructions a
   vertex than the ops one vertex at a time (records of one vertex and several vectors can
   cost more, binary16 ones among them): both emitted, counted and taken back. */
static void choose_groups(struct gen *g, struct vfetch_record_prog **wide,
                          struct vfetch_record_prog **narrow)
{
    struct x86_asm *a = &g->a;
    if (!*wide && !*narrow)
        return;
    const struct x86_mark mark = x86_mark(a);
    const unsigned ops = a->ops;
    const int dirty = g->dirty_upper;
    g->elem_copy = g->raw_copy = -1;
    (void)emit_vertex_ops(g);
    const unsigned one = a->ops - ops + 4; /* and the loop's pointer steps and branch */
    x86_rewind(a, mark);
    g->dirty_upper = dirty;
    struct vfetch_record_prog **progs[2] = { wide, narrow };
    for (unsigned k = 0; k < 2; k++) {
        struct vfetch_record_prog *prog = *progs[k];
        if (!prog)
            continue;
        g->rp_src = g->rp_dst = 0;
        /* the 8-lane program's constants counted on the way (emit_record_groups needs them) */
        g->counting = prog->lanes == 8;
        if (g->counting)
            g->num_counted = 0;
        for (unsigned v = 0; v < prog->num_vectors; v++)
            emit_rp_vector(g, &prog->vec[v], prog->lanes,
                           (prog->group - 1) * g->vsize + g->readable[0]);
        g->counting = 0;
        g->counted_for = prog->lanes == 8 ? prog : g->counted_for;
        /* and the loop's steps, compare and branch, once an iteration */
        const unsigned unroll = group_unroll(prog);
        const unsigned iteration = (a->ops - ops) * unroll + 5;
        x86_rewind(a, mark);
        if (iteration >= one * prog->group * unroll) {
            if (g->counted_for == prog)
                g->counted_for = NULL;
            free(prog);
            *progs[k] = NULL;
        }
    }
}

/* A plan's frame (from rsp, when it has one): an index buffer's state as the draw's struct
   vfetch_jit_index gives it (the next entry moving on), then the records of the streams kept
   in the frame, then under an index buffer each indexed stream's record 0. */
#define FRAME_ENTRIES 0
#define FRAME_OFFSET 8
#define FRAME_MAX 16
#define FRAME_WIDE 24
#define FRAME_STREAMS 32

/* Under an index buffer, at the top of a vertex: its index from the next entry (16 or 32 bits,
   the draw's width), plus the offset and clamped to the highest index as vfetch_run does
   (min(entry + offset, max) as entry + min(max - entry, offset), which cannot overflow), and
   each indexed stream's record at its record 0 + index * stride. */
static void emit_vertex_index(struct gen *g)
{
    struct x86_asm *a = &g->a;
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
    static const enum x86_shape imul[GEN_REGS] = { REG_ROW(IMUL_, _RAX_I) },
                                add[GEN_REGS] = { REG_ROW(ADD_, _MRSP) };
    for (unsigned k = 0; k < g->num_streams; k++) {
        if (g->data_slot[k] < 0)
            continue;
        const unsigned r = k < g->reg_streams ? k : GEN_REGS - 1;
        x86_op(a, imul[r], 0, g->step[k]);
        x86_op(a, add[r], g->data_slot[k], 0);
        if (k >= g->reg_streams)
            E(MOV_MRSP_R15, g->frame_slot[k], 0);
    }
}

/* The conversion of rcx >= 1 vertices from rdi into rdx: a direct format's whole groups by its
   record programs (8 lanes, then 4), then vertex by vertex (a GX format's skipped vertices
   taking no record), then on to `finish`. NULL, or why an op cannot be generated. */
static const char *emit_convert(struct gen *g, const struct vfetch_record_prog *wide,
                                const struct vfetch_record_prog *narrow, unsigned finish)
{
    struct x86_asm *a = &g->a;
    const struct vfetch_gx_plan *plan = g->gx;
    const struct vfetch_plan *conv = g->conv;
    if (wide || narrow) {
        if (wide)
            emit_record_groups(g, wide);
        if (narrow)
            emit_record_groups(g, narrow);
        if (wide)
            E(VZEROUPPER, 0, 0);
        E(TEST_RCX_RCX, 0, 0);
        x86_jump(a, X86_JZ, finish);
    }
    /* r11: the colour tables, loaded once (each op's at its distance from the first) */
    g->tables = 0;
    for (unsigned i = 0; i < conv->desc.num_ops; i++)
        if (packs_by_table(&conv->ops[i])) {
            const uint64_t t = rgba8_table(g, &conv->ops[i]);
            g->tables = g->tables && g->tables < t ? g->tables : t;
        }
    if (g->tables)
        E(LEA_R11_P, g->tables, 0);
    const unsigned loop = x86_label(a), next = x86_label(a);
    x86_bind(a, loop);
    g->elem_copy = g->raw_copy = -1;
    if (plan && plan->position_copy >= 0) { /* the skip value; r8 keeps it for its element */
        const struct vfetch_gx_copy *pc = &plan->copies[plan->position_copy];
        x86_op(a, pc->index_size == 1 ? X86_MOVZX_R8D_B_MRDI : X86_MOVZX_R8D_W_MRDI, pc->src, 0);
        E(CMP_R8D_I, 0, pc->index_size == 1 ? 0xff : 0xffff);
        x86_jump(a, X86_JZ, next);
        g->raw_copy = plan->position_copy;
    }
    if (g->indexed)
        emit_vertex_index(g);
    const char *why = emit_vertex_ops(g);
    if (conv->out_stride)
        E(ADD_RDX_I, 0, conv->out_stride);
    x86_bind(a, next);
    static const enum x86_shape advance[GEN_REGS] = { REG_ROW(ADD_, _I) };
    const unsigned bases = g->gx ? 2 : g->num_streams;
    for (unsigned b = 0; b < bases; b++) {
        if (!g->step[b] || (g->indexed && g->data_slot[b] >= 0))
            continue; /* fixed, or an indexed stream's record computed from the next index */
        if (g->gx || b < g->reg_streams)
            x86_op(a, advance[b], 0, g->step[b]);
        else
            E(ADD_MRSP_I, g->frame_slot[b], g->step[b]);
    }
    E(DEC_RCX, 0, 0);
    x86_jump(a, X86_JNZ, loop);
    if (g->dirty_upper)
        E(VZEROUPPER, 0, 0);
    return why;
}

/* A generator for the ops of conv, its code written on the heap (gen_close copies it to
   executable memory at its exact size). NULL with *why (the programs freed) on failure. */
static struct gen *gen_open(const struct vfetch_plan *conv, struct vfetch_record_prog *wide,
                            struct vfetch_record_prog *narrow, const char **why)
{
    struct gen *g = calloc(1, sizeof *g);
    if (g)
        x86_asm_init(&g->a);
    if (!g || g->a.failed) {
        *why = "out of memory";
        if (g)
            x86_asm_release(&g->a);
        free(g);
        free(wide);
        free(narrow);
        return NULL;
    }
    g->conv = conv;
    later_slots(g);
    g->a.sse = jit_sse();
    return g;
}

/* The assembly finished (branches patched, the pool placed after the code), copied to
   executable memory and sealed, the function at `entry` of its bytes: NULL, or why there is no
   code. Frees the generator and the record programs. */
static const char *gen_close(struct gen *g, const char *why, size_t entry,
                             struct vfetch_record_prog *wide, struct vfetch_record_prog *narrow,
                             struct vfetch_jit_code *code)
{
    const int failed = why || x86_finish(&g->a);
    if (!why && g->a.missing != X86_NUM_SHAPES)
        why = "an instruction without an SSE4.1 form (a generator bug)";
    else if (!why && failed)
        why = "out of memory";
    uint8_t *rw, *rx;
    const size_t bytes = failed ? 0 : x86_bytes_used(&g->a);
    const uint32_t crossover = code->crossover; /* set by the compile; the memory's open clears */
    const int groups = code->groups;
    if (!failed && vfetch_jit_memory_open(bytes, &rw, &rx, code))
        why = "this process gets no executable memory";
    else if (!failed) {
        x86_write(&g->a, rw);
        if (vfetch_jit_memory_seal(code, bytes))
            why = "this process gets no executable memory";
    }
    const size_t code_end = g->a.len;
    x86_asm_release(&g->a);
    free(g);
    free(wide);
    free(narrow);
    if (why)
        return why;
    code->crossover = crossover;
    code->groups = groups;
    code->code_bytes = bytes;
    code->code_end = code_end;
    code->entry = (uint8_t *)code->mapping + entry;
    return NULL;
}

/* The draw's checks, each failing one leaving for the portable tier (`slow`) with nothing
   done: an index policy out of range, no vertices or at least the crossover's count, the vertex
   bytes, an output that does not hold a record for every vertex (the portable tier then checks
   it exactly, knowing the skipped vertices). */
static void emit_checks(struct gen *g, uint32_t crossover, unsigned slow)
{
    const struct vfetch_gx_plan *plan = g->gx;
    struct x86_asm *a = &g->a;
    E(CMP_MRSI_I32, offsetof(struct vfetch_gx_run_params, index_policy), VFETCH_GX_INDEX_CLAMP);
    x86_jump(a, X86_JNBE, slow);
    /* count - 1 below crossover - 1, unsigned: no vertices (count - 1 wraps) go too */
    E(MOV_ECX_MRSI, offsetof(struct vfetch_gx_run_params, count), 0);
    E(LEA_EAX_RCX_M1, -1, 0);
    E(CMP_EAX_I, 0, (int32_t)(crossover - 1));
    x86_jump(a, X86_JNB, slow);
    if (plan->format.vertex_size) {
        E(IMUL_RAX_RCX_I, 0, plan->format.vertex_size);
        E(CMP_RAX_MRSI, offsetof(struct vfetch_gx_run_params, vertices_size), 0);
        x86_jump(a, X86_JNBE, slow);
        E(CMP_MRSI_I, offsetof(struct vfetch_gx_run_params, vertices), 0);
        x86_jump(a, X86_JZ, slow);
    }
    /* the last record's end: count * stride less what the last record lacks of a stride */
    E(IMUL_RAX_RCX_I, 0, g->conv->out_stride);
    if (g->conv->record_size != g->conv->out_stride)
        E(ADD_RAX_I, 0, (int64_t)g->conv->record_size - (int64_t)g->conv->out_stride);
    E(CMP_RAX_MRSI, offsetof(struct vfetch_gx_run_params, out_size), 0);
    x86_jump(a, X86_JNBE, slow);
    E(CMP_MRSI_I, offsetof(struct vfetch_gx_run_params, out), 0);
    x86_jump(a, X86_JZ, slow);
}

const char *vfetch_jit_gx_compile(const struct vfetch_gx_plan *plan, uint32_t crossover,
                                  uint32_t crossover_per_vertex, vfetch_jit_gx_fn *slow_fn,
                                  struct vfetch_jit_code *code)
{
    memset(code, 0, sizeof *code);
    const struct vfetch_plan *conv = plan->converter;
    if (!conv)
        return "the format has nothing to convert";
    unsigned indexed = 0;
    for (unsigned k = 0; k < plan->num_copies; k++)
        indexed += plan->copies[k].array != VFETCH_GX_FROM_VERTEX;
    if (indexed > GX_JIT_MAX_INDEXED)
        return "more indexed copies than the generated code keeps";
    /* A direct format's whole groups run its record programs, where they can be emitted. */
    struct vfetch_record_prog *wide = NULL, *narrow = NULL;
    if (!plan->any_indexed && !conv->word_copy) {
        wide = record_for(conv, 8);
        narrow = record_for(conv, 4);
    }
    const char *why = NULL;
    struct gen *g = gen_open(conv, wide, narrow, &why);
    if (!g)
        return why;
    g->gx = plan;
    g->vsize = g->step[0] = g->readable[0] = plan->format.vertex_size;
    choose_groups(g, &wide, &narrow);
    if (!plan->any_indexed && conv->record && !wide)
        crossover = crossover_per_vertex;
    struct x86_asm *a = &g->a;
    const size_t entry = a->len;
    const unsigned slow = x86_label(a), decline = x86_label(a), done = x86_label(a),
                   no_result = x86_label(a), finish_label = x86_label(a);
    /* rdi the plan, rsi the parameters, rdx the result (kept in the red zone from here) */
    code->crossover = crossover;
    emit_checks(g, crossover, slow);
    E(MOV_MRSP_RDX, -8, 0);
    E(MOV_RDI_MRSI, offsetof(struct vfetch_gx_run_params, vertices), 0);
    if (plan->any_indexed && emit_index_pass_vector(g, decline, done))
        emit_index_pass(g, decline, done);
    E(MOV_RDX_MRSI, offsetof(struct vfetch_gx_run_params, out), 0);
    if (conv->word_copy && !plan->any_indexed) {
        emit_word_copy(g, conv->word_copy == VFETCH_WORD_COPY_BSWAP32);
        goto finish;
    }
    why = emit_convert(g, wide, narrow, finish_label);
finish:
    x86_bind(a, finish_label);
    /* the result: written, skipped, clamped (none: a past-the-end index declined) */
    x86_bind(a, done);
    E(MOV_RDX_MRSP, -8, 0);
    E(TEST_RDX_RDX, 0, 0);
    x86_jump(a, X86_JZ, no_result);
    E(MOV_EAX_MRSI, offsetof(struct vfetch_gx_run_params, count), 0);
    if (plan->any_indexed) { /* r9: the skipped vertices */
        E(SUB_EAX_R9D, 0, 0);
        E(MOV_MRDX_EAX, offsetof(struct vfetch_gx_result, written), 0);
        E(MOV_MRDX_R9D, offsetof(struct vfetch_gx_result, skipped), 0);
        E(MOV_MRDX_I, offsetof(struct vfetch_gx_result, clamped), 0);
    } else { /* every vertex written, none skipped or clamped: the last two in one store */
        _Static_assert(offsetof(struct vfetch_gx_result, clamped) ==
                           offsetof(struct vfetch_gx_result, skipped) + 4,
                       "skipped and clamped are stored as one qword");
        E(MOV_MRDX_EAX, offsetof(struct vfetch_gx_result, written), 0);
        E(MOV_MRDX_Q_I, offsetof(struct vfetch_gx_result, skipped), 0);
    }
    x86_bind(a, no_result);
    E(XOR_EAX_EAX, 0, 0);
    E(RET, 0, 0);
    /* nothing written: the portable tier runs the draw, with the caller's arguments */
    x86_bind(a, decline);
    E(MOV_RDX_MRSP, -8, 0);
    x86_bind(a, slow);
    E(MOV_RDI_I64, 0, (int64_t)(uintptr_t)plan);
    E(MOV_RAX_I64, 0, (int64_t)(uintptr_t)slow_fn);
    E(JMP_RAX, 0, 0);
    return gen_close(g, why, entry, wide, narrow, code);
}

/*
 * One entry of a plan's conversion: the registers it keeps saved, its frame, each stream's
 * first record (under an index buffer, an indexed stream's record 0 into the frame instead,
 * and the index state), the conversion, and the way back.
 */
static const char *emit_plan_entry(struct gen *g, const struct vfetch_record_prog *wide,
                                   const struct vfetch_record_prog *narrow, int indexed,
                                   int32_t frame)
{
    struct x86_asm *a = &g->a;
    const unsigned n = g->num_streams, held = n < g->reg_streams ? n : g->reg_streams;
    static const enum x86_shape push[GEN_REGS] = { REG_ROW(PUSH_, ) },
                                pop[GEN_REGS] = { REG_ROW(POP_, ) },
                                first[GEN_REGS] = { REG_ROW(MOV_, _MRDI) };
    /* rbx, rbp, r12..r15 are the caller's: saved where a stream (or the frame's loads) uses
       them */
    unsigned saved[GEN_REGS], num_saved = 0;
    for (unsigned r = 4; r < held; r++)
        saved[num_saved++] = r;
    if (n > held)
        saved[num_saved++] = GEN_REGS - 1;
    for (unsigned i = 0; i < num_saved; i++)
        x86_op(a, push[saved[i]], 0, 0);
    if (frame)
        E(SUB_RSP_I, 0, frame);
    g->indexed = indexed;
    for (unsigned k = 0; k < n; k++)
        g->data_slot[k] = indexed && g->conv->desc.streams[k].step == VFETCH_STEP_INDEXED &&
                                  g->readable[k]
                              ? FRAME_STREAMS + 8 * (int32_t)(n - held + k)
                              : -1;
    if (indexed) /* rcx: the draw's struct vfetch_jit_index */
        for (int32_t f = FRAME_ENTRIES; f <= FRAME_WIDE; f += 8) {
            E(MOV_RAX_MRCX, f, 0);
            E(MOV_MRSP_RAX, f, 0);
        }
    /* rdi the streams' first records, rsi the count, rdx the output */
    E(MOV_RCX_RSI, 0, 0);
    for (unsigned k = 0; k < n; k++)
        if (k >= held || g->data_slot[k] >= 0) {
            E(MOV_RAX_MRDI, 8 * (int64_t)k, 0);
            E(MOV_MRSP_RAX, g->data_slot[k] >= 0 ? g->data_slot[k] : g->frame_slot[k], 0);
        }
    for (unsigned k = held; k-- > 0;) /* rdi itself last */
        x86_op(a, first[k], 8 * (int64_t)k, 0);
    const unsigned finish = x86_label(a);
    const char *why = NULL;
    if (g->conv->word_copy && !indexed)
        emit_word_copy(g, g->conv->word_copy == VFETCH_WORD_COPY_BSWAP32);
    else
        why = emit_convert(g, wide, narrow, finish);
    x86_bind(a, finish);
    if (frame)
        E(ADD_RSP_I, 0, frame);
    for (unsigned i = num_saved; i-- > 0;)
        x86_op(a, pop[saved[i]], 0, 0);
    E(RET, 0, 0);
    return why;
}

/*
 * A plan run through vfetch_run (R300, Maxwell, a hand-built one): a function that converts
 * count >= 1 records of a draw without an index buffer, given each stream's first record (the
 * draw's first, or a constant or instanced stream's one record), validated before (vfetch_run's
 * checks: every byte the ops read lies inside its binding); and where a stream is indexed, a
 * second for draws through an index buffer, given the indexed streams' record 0 and the
 * buffer's entries (validated: every index, offset added and clamped, names a record inside
 * them). Plans of one stream read record by record convert whole groups of a draw without
 * indices by their record programs first, as a direct GX format does; the rest record by
 * record, each stream's register moving by its stride (0 for a constant or instanced stream),
 * or under an index buffer computed from the vertex's index.
 */
const char *vfetch_jit_plan_compile(const struct vfetch_plan *plan, struct vfetch_jit_code *code)
{
    memset(code, 0, sizeof *code);
    const unsigned n = plan->desc.num_streams;
    int indexed = 0;
    for (unsigned k = 0; k < n; k++) {
        indexed |= plan->stream_extent[k] && plan->desc.streams[k].step == VFETCH_STEP_INDEXED;
        /* every byte offset the code reaches (16 groups of an unrolled loop included) must be a
           32-bit displacement */
        if (plan->stream_extent[k] > GEN_MAX_DISP ||
            plan->vertex_stride[k] > GEN_MAX_DISP / (GX_JIT_RP_MAX_VECTORS + 1))
            return "records too large for the generated code's 32-bit displacements";
    }
    const struct vfetch_stream *st = &plan->desc.streams[0];
    struct vfetch_record_prog *wide = NULL, *narrow = NULL;
    if (n == 1 && !vfetch_step_fixed(st->step) && !plan->word_copy) {
        wide = record_for(plan, 8);
        narrow = record_for(plan, 4);
    }
    const char *why = NULL;
    struct gen *g = gen_open(plan, wide, narrow, &why);
    if (!g)
        return why;
    g->gx = NULL;
    g->vsize = plan->vertex_stride[0];
    g->num_streams = n;
    g->reg_streams = n <= GEN_REGS ? n : GEN_REGS - 1;
    for (unsigned k = 0; k < n; k++) {
        g->step[k] = plan->vertex_stride[k];
        g->readable[k] = plan->stream_extent[k];
        g->frame_slot[k] = FRAME_STREAMS + 8 * (int32_t)(k - g->reg_streams);
    }
    const unsigned in_frame = n - (n < g->reg_streams ? n : g->reg_streams);
    const int32_t frame = in_frame ? FRAME_STREAMS + 8 * (int32_t)in_frame : 0;
    choose_groups(g, &wide, &narrow);
    struct x86_asm *a = &g->a;
    const size_t entry = a->len;
    why = emit_plan_entry(g, wide, narrow, 0, frame);
    const size_t entry_indexed = a->len;
    if (indexed && !why)
        why = emit_plan_entry(g, NULL, NULL, 1, FRAME_STREAMS + 8 * (int32_t)(in_frame + n));
    code->groups = wide != NULL;
    why = gen_close(g, why, entry, wide, narrow, code);
    if (!why && indexed)
        code->entry_indexed = (uint8_t *)code->mapping + entry_indexed;
    return why;
}
