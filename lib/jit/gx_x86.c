/*
 * The x86-64 generator for GX draws (docs/jit.md): one function per compiled GX format that
 * runs a whole draw. Its shape:
 *
 *   indexed formats, pass 1: every kept vertex's indices read (the position's skip value
 *     counted), the highest of each copy kept in the red zone; then each copy's array checked:
 *     bound, and highest * stride + the bytes read inside it, else -1 (nothing written);
 *   pass 2: per vertex, per op of the converter plan: the op's bytes loaded (at most two loads,
 *     never past them), one byte shuffle to 32-bit lanes, the field shifts, the conversion, the
 *     swizzle and constants, the stores its write mask asks for.
 *
 * Every constant is an immediate or in the code's own pool. AVX2 encodings (VEX, 128-bit
 * registers, variable shifts, F16C): the code runs at the avx2 and avx512 levels. Registers:
 * rdi the run's parameters, rsi the vertex, rdx the output record, rcx the vertices left, r9
 * the skipped count, r8 an indexed copy's element, rax/r10/r11 scratch; xmm0/xmm1 values, xmm15
 * never written (the merge source of partial loads, so that they depend on nothing).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gx/gx_internal.h"
#include "jit/jit.h"
#include "jit/x86_asm.h"
#include "plan_internal.h"
#include "vertex_format.h"

#define R(x) x86_reg(ZYDIS_REGISTER_##x)
#define M(base, disp, size) x86_mem(ZYDIS_REGISTER_##base, (disp), (size))
#define I(v) x86_imm(v)

/* The red zone below rsp holds pass 1's highest index per indexed copy (16 qwords). */
#define GX_JIT_MAX_INDEXED 16
/* Bytes the generated code may take: a bound from the plan's size (docs/jit.md). */
#define GX_JIT_POOL_ENTRIES 48

/* Where an op's bytes come from: the vertex (copy -1) or an indexed copy's element, and each
   lane's container bytes as offsets from that base. */
struct op_source {
    int copy;
    int32_t lo;    /* lowest byte read */
    uint32_t span; /* bytes from lo read */
    int32_t off[4][4];
};

/* One op's source bytes in the vertex or an element; 0, or -1 when they span two copies. */
static int op_source(const struct vfetch_gx_plan *plan, const struct vfetch_op_exec *x,
                     struct op_source *s)
{
    s->copy = -2;
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (unsigned c = 0; c < x->count; c++)
        for (unsigned k = 0; k < x->lane[c].nbytes; k++) {
            const uint32_t b = x->lane[c].byte_off[k];
            int copy = -1;
            int32_t off = (int32_t)b;
            if (plan->any_indexed) {
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
    return 0;
}

/* The registers of the generated code. */
#define REG_VTX ZYDIS_REGISTER_RSI
#define REG_ELEM ZYDIS_REGISTER_R8

struct gen {
    struct x86_asm a;
    const struct vfetch_gx_plan *plan;
    const struct vfetch_plan *conv;
    int elem_copy;     /* the copy whose element r8 holds in this vertex, or -1 */
    uint64_t later[VFETCH_MAX_OPS][VFETCH_MAX_SLOTS / 64]; /* slots later ops store */
};

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
static void load_index(struct gen *g, ZydisRegister dst32, ZydisRegister dst16, ZydisRegister vtx,
                       const struct vfetch_gx_copy *cp)
{
    if (cp->index_size == 1) {
        X86(&g->a, MOVZX, x86_reg(dst32), x86_mem(vtx, cp->src, 1));
        return;
    }
    X86(&g->a, MOVZX, x86_reg(dst32), x86_mem(vtx, cp->src, 2));
    X86(&g->a, ROL, x86_reg(dst16), I(8));
}

/* r8 = the element copy k reads in this vertex: array data + index * stride. */
static void load_element(struct gen *g, int k)
{
    if (g->elem_copy == k)
        return;
    const struct vfetch_gx_copy *cp = &g->plan->copies[k];
    const uint32_t stride = g->plan->desc.array_stride[cp->array];
    load_index(g, ZYDIS_REGISTER_R8D, ZYDIS_REGISTER_R8W, REG_VTX, cp);
    if (stride == 0)
        X86(&g->a, XOR, R(R8D), R(R8D));
    else if ((stride & (stride - 1)) == 0) {
        unsigned sh = 0;
        while ((1u << sh) != stride)
            sh++;
        if (sh)
            X86(&g->a, SHL, R(R8), I(sh));
    } else
        X86(&g->a, IMUL, R(R8), R(R8), I(stride));
    X86(&g->a, ADD, R(R8), M(RDI, (int64_t)arrays_data(cp->array), 8));
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

/* Load span bytes at [base + lo] into xmm0 in at most two loads that read only those bytes. */
static void load_span(struct gen *g, ZydisRegister base, int32_t lo, unsigned span,
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
    struct x86_asm *a = &g->a;
    switch (s1) {
    case 1: X86(a, VPINSRB, R(XMM0), R(XMM15), x86_mem(base, lo, 1), I(0)); break;
    case 2: X86(a, VPINSRW, R(XMM0), R(XMM15), x86_mem(base, lo, 2), I(0)); break;
    case 4: X86(a, VMOVD, R(XMM0), x86_mem(base, lo, 4)); break;
    case 8: X86(a, VMOVQ, R(XMM0), x86_mem(base, lo, 8)); break;
    default: X86(a, VMOVDQU, R(XMM0), x86_mem(base, lo, 16)); break;
    }
    if (!s2)
        return;
    const int32_t at = lo + (int32_t)(span - s2);
    switch (s2) {
    case 1: X86(a, VPINSRB, R(XMM0), R(XMM0), x86_mem(base, at, 1), I(s1)); break;
    case 2: X86(a, VPINSRW, R(XMM0), R(XMM0), x86_mem(base, at, 2), I(s1 / 2)); break;
    case 4: X86(a, VPINSRD, R(XMM0), R(XMM0), x86_mem(base, at, 4), I(s1 / 4)); break;
    default: X86(a, VPINSRQ, R(XMM0), R(XMM0), x86_mem(base, at, 8), I(1)); break;
    }
}

static void pool_u32(struct gen *g, ZydisMnemonic m, const uint32_t v[4])
{
    const ZydisEncoderOperand ops[3] = { R(XMM0), R(XMM0), x86_pool(&g->a, v, 16) };
    x86_emit(&g->a, m, 3, ops);
}

static void pool_f32(struct gen *g, ZydisMnemonic m, const float v[4])
{
    pool_u32(g, m, (const uint32_t *)(const void *)v);
}

/* dst = src with each lane shifted by its own count (one immediate when the used lanes agree;
   a move when no lane shifts). */
static void shift_lanes_to(struct gen *g, ZydisRegister dst, ZydisRegister src,
                           ZydisMnemonic imm_form, ZydisMnemonic var_form, const uint32_t count[4],
                           unsigned used)
{
    int uniform = 1, any = 0;
    for (unsigned c = 0; c < used; c++) {
        uniform &= count[c] == count[0];
        any |= count[c] != 0;
    }
    if (!any) {
        if (dst != src)
            X86(&g->a, VMOVDQA, x86_reg(dst), x86_reg(src));
        return;
    }
    if (uniform) {
        const ZydisEncoderOperand ops[3] = { x86_reg(dst), x86_reg(src), I(count[0]) };
        x86_emit(&g->a, imm_form, 3, ops);
        return;
    }
    uint32_t v[4] = { 0, 0, 0, 0 };
    for (unsigned c = 0; c < used; c++)
        v[c] = count[c];
    const ZydisEncoderOperand ops[3] = { x86_reg(dst), x86_reg(src), x86_pool(&g->a, v, 16) };
    x86_emit(&g->a, var_form, 3, ops);
}

static void shift_lanes(struct gen *g, ZydisMnemonic imm_form, ZydisMnemonic var_form,
                        const uint32_t count[4], unsigned used)
{
    shift_lanes_to(g, ZYDIS_REGISTER_XMM0, ZYDIS_REGISTER_XMM0, imm_form, var_form, count, used);
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
        X86(&g->a, VMOVD, M(RDX, 4 * slot, 4), R(XMM0));
    else
        X86(&g->a, VEXTRACTPS, M(RDX, 4 * slot, 4), R(XMM0), I(lane));
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
                X86(&g->a, MOV, M(RDX, 4 * (x->dst_slot + c), 4),
                    I(sel[c] == VFETCH_SWIZZLE_1 ? (int32_t)VFETCH_ONE_BITS : 0));
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
        X86(&g->a, VPSHUFD, R(XMM0), R(XMM0), I(shuf));
    if (blend)
        X86(&g->a, VBLENDPS, R(XMM0), R(XMM0), x86_pool(&g->a, konst, 16), I(blend));
    const unsigned slot = x->dst_slot + c0;
    /* A 12-byte store may be 16 when a later op of the vertex stores the 4th slot. */
    const int widen3 = n == 3 && later_stores(g, op_index, slot + 3);
    if (n == 4 || widen3)
        X86(&g->a, VMOVUPS, M(RDX, 4 * slot, 16), R(XMM0));
    else if (n >= 2) {
        X86(&g->a, VMOVQ, M(RDX, 4 * slot, 8), R(XMM0));
        if (n == 3)
            store_dword(g, slot + 2, 2);
    } else
        store_dword(g, slot, 0);
}

/* 0, or the reason the op is beyond this generator. */
static const char *emit_op(struct gen *g, unsigned op_index, const struct vfetch_op_exec *x)
{
    struct x86_asm *a = &g->a;
    if (x->format == VFETCH_FORMAT_CONSTANT) {
        for (unsigned c = 0; c < 4; c++)
            if (x->write_mask >> c & 1)
                X86(a, MOV, M(RDX, 4 * (x->dst_slot + c), 4), I((int32_t)x->constant[c]));
        return NULL;
    }
    struct op_source s;
    if (op_source(g->plan, x, &s))
        return "an op reads bytes of two staging copies";
    if (s.span > 16)
        return "an op's components lie more than 16 bytes apart";
    if (x->format == VFETCH_FORMAT_FIXED32 &&
        (x->conversion == VFETCH_CONV_UINT || x->conversion == VFETCH_CONV_UNORM ||
         x->conversion == VFETCH_CONV_SNORM_ZERO_CLAMP))
        return "32-bit unsigned and normalized fields are not generated yet";
    ZydisRegister base = REG_VTX;
    if (s.copy >= 0) {
        load_element(g, s.copy);
        base = REG_ELEM;
    }
    const unsigned nb = x->lane[0].nbytes;
    /* RGBA8 from four bytes in order: one 32-bit move. */
    if (x->conversion == VFETCH_CONV_PACK_UNORM8 && x->format == VFETCH_FORMAT_FIXED8 &&
        x->count == 4 && s.off[1][0] == s.off[0][0] + 1 && s.off[2][0] == s.off[0][0] + 2 &&
        s.off[3][0] == s.off[0][0] + 3) {
        X86(a, MOV, R(EAX), x86_mem(base, s.off[0][0], 4));
        X86(a, MOV, M(RDX, 4 * x->dst_slot, 4), R(EAX));
        return NULL;
    }
    struct span_layout l;
    load_span(g, base, s.lo, s.span, &l);
    /* The containers to 32-bit lanes, each at the lane's top (FLOAT16: to 16-bit words). */
    uint8_t ctrl[16];
    memset(ctrl, 0x80, sizeof ctrl);
    const int half = x->format == VFETCH_FORMAT_FLOAT16;
    for (unsigned c = 0; c < x->count; c++)
        for (unsigned k = 0; k < nb; k++) {
            const unsigned at = half ? 2 * c + k : 4 * c + (4 - nb) + k;
            ctrl[at] = (uint8_t)span_pos(&l, (unsigned)(s.off[c][k] - s.lo));
        }
    X86(a, VPSHUFB, R(XMM0), R(XMM0), x86_pool(a, ctrl, 16));
    const unsigned used = x->count;
    const int is_float = vfetch_format_info[x->format].is_float;
    if (!is_float || x->format == VFETCH_FORMAT_UFLOAT_11_11_10) {
        uint32_t left[4] = { 0 }, right[4] = { 0 };
        for (unsigned c = 0; c < used; c++) {
            left[c] = 8 * nb - x->lane[c].field_shift - x->lane[c].field_bits;
            right[c] = 32 - x->lane[c].field_bits;
        }
        shift_lanes(g, ZYDIS_MNEMONIC_VPSLLD, ZYDIS_MNEMONIC_VPSLLVD, left, used);
        if (conv_signed(x->conversion))
            shift_lanes(g, ZYDIS_MNEMONIC_VPSRAD, ZYDIS_MNEMONIC_VPSRAVD, right, used);
        else
            shift_lanes(g, ZYDIS_MNEMONIC_VPSRLD, ZYDIS_MNEMONIC_VPSRLVD, right, used);
    }
    float den[4] = { 1, 1, 1, 1 };
    uint32_t widen_l[4] = { 0 }, widen_r[4] = { 0 };
    switch (x->conversion) {
    case VFETCH_CONV_FLOAT:
        if (x->format == VFETCH_FORMAT_UFLOAT_11_11_10) {
            uint32_t up[4] = { 0 };
            for (unsigned c = 0; c < used; c++)
                up[c] = 15 - x->lane[c].field_bits;
            shift_lanes(g, ZYDIS_MNEMONIC_VPSLLD, ZYDIS_MNEMONIC_VPSLLVD, up, used);
            X86(a, VPACKUSDW, R(XMM0), R(XMM0), R(XMM0));
        }
        if (x->format != VFETCH_FORMAT_FLOAT32)
            X86(a, VCVTPH2PS, R(XMM0), R(XMM0));
        break;
    case VFETCH_CONV_UINT:
    case VFETCH_CONV_SINT:
        X86(a, VCVTDQ2PS, R(XMM0), R(XMM0));
        if (x->shift) {
            const uint32_t bits = (127u - x->shift) << 23;
            const uint32_t scale[4] = { bits, bits, bits, bits };
            pool_u32(g, ZYDIS_MNEMONIC_VMULPS, scale);
        }
        break;
    case VFETCH_CONV_UNORM:
    case VFETCH_CONV_SNORM_NO_ZERO:
        if (x->conversion == VFETCH_CONV_SNORM_NO_ZERO) { /* 2v + 1, the missing lanes kept 0 */
            uint32_t one[4] = { 0 };
            for (unsigned c = 0; c < used; c++)
                one[c] = 1;
            X86(a, VPADDD, R(XMM0), R(XMM0), R(XMM0));
            pool_u32(g, ZYDIS_MNEMONIC_VPADDD, one);
        }
        for (unsigned c = 0; c < used; c++)
            den[c] = (float)((1u << x->lane[c].field_bits) - 1);
        X86(a, VCVTDQ2PS, R(XMM0), R(XMM0));
        pool_f32(g, ZYDIS_MNEMONIC_VDIVPS, den);
        break;
    case VFETCH_CONV_SNORM_ZERO:
    case VFETCH_CONV_SNORM_ZERO_CLAMP:
        for (unsigned c = 0; c < used; c++)
            den[c] = (float)((1u << (x->lane[c].field_bits - 1)) - 1);
        X86(a, VCVTDQ2PS, R(XMM0), R(XMM0));
        pool_f32(g, ZYDIS_MNEMONIC_VDIVPS, den);
        if (x->conversion == VFETCH_CONV_SNORM_ZERO_CLAMP) {
            const float minus_one[4] = { -1, -1, -1, -1 };
            pool_f32(g, ZYDIS_MNEMONIC_VMAXPS, minus_one);
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
            shift_lanes_to(g, ZYDIS_REGISTER_XMM1, ZYDIS_REGISTER_XMM0, ZYDIS_MNEMONIC_VPSLLD,
                           ZYDIS_MNEMONIC_VPSLLVD, widen_l, used);
            shift_lanes(g, ZYDIS_MNEMONIC_VPSRLD, ZYDIS_MNEMONIC_VPSRLVD, widen_r, used);
            X86(a, VPOR, R(XMM0), R(XMM0), R(XMM1));
        }
        if (x->conversion == VFETCH_CONV_PACK_UNORM8) {
            X86(a, VPACKUSDW, R(XMM0), R(XMM0), R(XMM0));
            X86(a, VPACKUSWB, R(XMM0), R(XMM0), R(XMM0));
            if (x->count < 4) {
                const uint32_t alpha[4] = { 0xff000000u, 0, 0, 0 };
                pool_u32(g, ZYDIS_MNEMONIC_VPOR, alpha);
            }
            X86(a, VMOVD, M(RDX, 4 * x->dst_slot, 4), R(XMM0));
            return NULL;
        }
        for (unsigned c = 0; c < used; c++)
            den[c] = 255.0f;
        X86(a, VCVTDQ2PS, R(XMM0), R(XMM0));
        pool_f32(g, ZYDIS_MNEMONIC_VDIVPS, den);
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

/* Pass 1 of an indexed format: skip values counted, each copy's highest index of the kept
   vertices, then the arrays checked; leaves r9 = skipped. Jumps to `decline` on a failed check,
   to `done` when every vertex is skipped. */
static void emit_index_pass(struct gen *g, unsigned decline, unsigned done)
{
    const struct vfetch_gx_plan *plan = g->plan;
    struct x86_asm *a = &g->a;
    const uint32_t vsize = plan->format.vertex_size;
    unsigned slot[VFETCH_GX_MAX_COPIES];
    unsigned n = 0;
    for (unsigned k = 0; k < plan->num_copies; k++)
        if (plan->copies[k].array != VFETCH_GX_FROM_VERTEX) {
            const unsigned arr = plan->copies[k].array;
            X86(a, CMP, M(RDI, (int64_t)arrays_data(arr), 8), I(0));
            x86_jump(a, ZYDIS_MNEMONIC_JZ, decline);
            slot[k] = n++;
            X86(a, MOV, M(RSP, -8 * (int64_t)(slot[k] + 1), 8), I(0));
        }
    X86(a, XOR, R(R9D), R(R9D));
    X86(a, MOV, R(R10), R(RSI));
    X86(a, MOV, R(R11), R(RCX));
    const unsigned loop = x86_label(a), next = x86_label(a);
    x86_bind(a, loop);
    if (plan->position_copy >= 0) {
        const unsigned keep = x86_label(a);
        const struct vfetch_gx_copy *pc = &plan->copies[plan->position_copy];
        X86(a, MOVZX, R(EAX), x86_mem(ZYDIS_REGISTER_R10, pc->src, pc->index_size));
        X86(a, CMP, R(EAX), I(pc->index_size == 1 ? 0xff : 0xffff));
        x86_jump(a, ZYDIS_MNEMONIC_JNZ, keep);
        X86(a, INC, R(R9));
        x86_jump(a, ZYDIS_MNEMONIC_JMP, next);
        x86_bind(a, keep);
    }
    for (unsigned k = 0; k < plan->num_copies; k++) {
        const struct vfetch_gx_copy *cp = &plan->copies[k];
        if (cp->array == VFETCH_GX_FROM_VERTEX)
            continue;
        const int64_t at = -8 * (int64_t)(slot[k] + 1);
        load_index(g, ZYDIS_REGISTER_EAX, ZYDIS_REGISTER_AX, ZYDIS_REGISTER_R10, cp);
        X86(a, CMP, R(RAX), M(RSP, at, 8));
        X86(a, CMOVB, R(RAX), M(RSP, at, 8));
        X86(a, MOV, M(RSP, at, 8), R(RAX));
    }
    x86_bind(a, next);
    if (vsize)
        X86(a, ADD, R(R10), I(vsize));
    X86(a, DEC, R(R11));
    x86_jump(a, ZYDIS_MNEMONIC_JNZ, loop);
    X86(a, CMP, R(R9), R(RCX));
    x86_jump(a, ZYDIS_MNEMONIC_JZ, done);
    for (unsigned k = 0; k < plan->num_copies; k++) {
        const struct vfetch_gx_copy *cp = &plan->copies[k];
        if (cp->array == VFETCH_GX_FROM_VERTEX)
            continue;
        const uint32_t stride = plan->desc.array_stride[cp->array];
        X86(a, MOV, R(RAX), M(RSP, -8 * (int64_t)(slot[k] + 1), 8));
        X86(a, IMUL, R(RAX), R(RAX), I(stride));
        X86(a, ADD, R(RAX), I(cp->elem_off + cp->size));
        X86(a, CMP, R(RAX), M(RDI, (int64_t)arrays_size(cp->array), 8));
        x86_jump(a, ZYDIS_MNEMONIC_JNBE, decline);
    }
}

const char *vfetch_jit_gx_compile(const struct vfetch_gx_plan *plan, struct vfetch_jit_code *code)
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
    const size_t bound = 16 * GX_JIT_POOL_ENTRIES + 512 + 64 * (size_t)plan->num_copies +
                         160 * (size_t)conv->desc.num_ops;
    uint8_t *rw, *rx;
    if (vfetch_jit_memory_open(bound, &rw, &rx, code))
        return "this process gets no executable memory";
    struct gen *g = calloc(1, sizeof *g);
    if (!g) {
        vfetch_jit_memory_free(code);
        return "out of memory";
    }
    g->plan = plan;
    g->conv = conv;
    later_slots(g);
    struct x86_asm *a = &g->a;
    x86_asm_init(a, rw, bound, (uint64_t)(uintptr_t)rx, GX_JIT_POOL_ENTRIES);
    const size_t entry = a->len;
    const unsigned decline = x86_label(a), done = x86_label(a), loop = x86_label(a),
                   next = x86_label(a);
    X86(a, MOV, R(RSI), M(RDI, offsetof(struct vfetch_gx_run_params, vertices), 8));
    X86(a, MOV, R(ECX), M(RDI, offsetof(struct vfetch_gx_run_params, count), 4));
    if (plan->any_indexed)
        emit_index_pass(g, decline, done);
    else
        X86(a, XOR, R(R9D), R(R9D));
    X86(a, MOV, R(RDX), M(RDI, offsetof(struct vfetch_gx_run_params, out), 8));
    x86_bind(a, loop);
    g->elem_copy = -1;
    if (plan->position_copy >= 0) {
        const struct vfetch_gx_copy *pc = &plan->copies[plan->position_copy];
        X86(a, MOVZX, R(EAX), x86_mem(REG_VTX, pc->src, pc->index_size));
        X86(a, CMP, R(EAX), I(pc->index_size == 1 ? 0xff : 0xffff));
        x86_jump(a, ZYDIS_MNEMONIC_JZ, next);
    }
    const char *why = NULL;
    for (unsigned i = 0; i < conv->desc.num_ops && !why; i++)
        why = emit_op(g, i, &conv->ops[i]);
    if (conv->out_stride)
        X86(a, ADD, R(RDX), I(conv->out_stride));
    x86_bind(a, next);
    if (plan->format.vertex_size)
        X86(a, ADD, R(RSI), I(plan->format.vertex_size));
    X86(a, DEC, R(RCX));
    x86_jump(a, ZYDIS_MNEMONIC_JNZ, loop);
    x86_bind(a, done);
    X86(a, MOV, R(RAX), R(R9));
    X86_0(a, RET);
    x86_bind(a, decline);
    X86(a, MOV, R(RAX), I(-1));
    X86_0(a, RET);
    const int failed = why || x86_finish(a);
    const size_t used = a->len;
    free(g);
    if (failed) {
        vfetch_jit_memory_free(code);
        return why ? why : "the code did not fit its buffer";
    }
    if (vfetch_jit_memory_seal(code, used))
        return "this process gets no executable memory";
    code->entry = (uint8_t *)code->mapping + entry;
    return NULL;
}

size_t vfetch_jit_disassemble(const struct vfetch_jit_code *code, char *buf, size_t size)
{
    size_t need = 0;
    if (size)
        buf[0] = 0;
    if (!code || !code->entry)
        return 0;
    ZydisDisassembledInstruction ins;
    const uint8_t *base = code->mapping;
    size_t at = (size_t)((const uint8_t *)code->entry - base);
    while (at < code->code_bytes &&
           ZYAN_SUCCESS(ZydisDisassembleIntel(ZYDIS_MACHINE_MODE_LONG_64,
                                              (ZyanU64)(uintptr_t)(base + at), base + at,
                                              code->code_bytes - at, &ins))) {
        char line[160];
        const int n = snprintf(line, sizeof line, "  %04zx  %s\n", at, ins.text);
        if (n > 0) {
            if (need + (size_t)n < size)
                memcpy(buf + need, line, (size_t)n + 1);
            else if (need < size)
                buf[need] = 0;
            need += (size_t)n;
        }
        at += ins.info.length;
    }
    return need;
}
