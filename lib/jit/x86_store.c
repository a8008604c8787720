/*
 * Stores (lib/jit/x86_gen.h): an op's converted lanes in xmm0 to its slots of the output
 * record: the swizzle and the constants 0 and 1 by one vpshufd and one vblendps, then the
 * stores the write mask asks for, a 12-byte store widened to 16 where a later op of the same
 * vertex writes the fourth slot.
 */
#include <string.h>

#include "jit/x86_gen.h"

/* For each op, the slots ops after it store (a wider store may cover them). */
void gen_later_slots(struct gen *g)
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

static int later_stores(const struct gen *g, unsigned op, unsigned slot)
{
    return slot < VFETCH_MAX_SLOTS && (g->later[op][slot / 64] >> (slot % 64) & 1);
}

/* Which of the converted lanes (or constant) output component c takes: 0..3, or 4 (0.0) /
   5 (1.0); a component the op lacks reads 0, its w 1. */
unsigned gen_effective_select(const struct vfetch_op_exec *x, unsigned c)
{
    const unsigned sel = x->swizzle[c];
    if (sel < x->count)
        return sel;
    if (sel < 4)
        return sel == 3 ? VFETCH_SWIZZLE_1 : VFETCH_SWIZZLE_0;
    return sel;
}

/* Lane `lane` of xmm0 to slot `slot` of the output record. */
void gen_store_dword(struct gen *g, unsigned slot, unsigned lane)
{
    if (lane == 0)
        E(VMOVD_MRDX_X0, 4 * slot, 0);
    else
        E(VEXTRACTPS_MRDX_X0_I, 4 * slot, lane);
}

/* xmm0's first n lanes (2..4) to slots slot..slot + n - 1: 16 bytes where n is 4, or 3 and a
   later op of the vertex stores the fourth slot; else 8 (and the third lane alone). */
static void store_run(struct gen *g, unsigned op_index, unsigned slot, unsigned n)
{
    if (n == 4 || (n == 3 && later_stores(g, op_index, slot + 3))) {
        E(VMOVUPS_MRDX_X0, 4 * slot, 0);
        return;
    }
    E(VMOVQ_MRDX_X0, 4 * slot, 0);
    if (n == 3)
        E(VEXTRACTPS_MRDX_X0_I, 4 * (slot + 2), 2);
}

/* Swizzle, constants and the write mask: xmm0 holds the converted lanes. */
void gen_store(struct gen *g, unsigned op_index, const struct vfetch_op_exec *x)
{
    unsigned sel[4], c0 = 4, c1 = 0, runs = 0;
    for (unsigned c = 0; c < 4; c++) {
        sel[c] = gen_effective_select(x, c);
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
                gen_store_dword(g, x->dst_slot + c, sel[c]);
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
    if (n >= 2)
        store_run(g, op_index, x->dst_slot + c0, n);
    else
        gen_store_dword(g, x->dst_slot + c0, 0);
}

/* xmm0 = value, without a load where it is 0 or (0, 0, 0, 1.0) (a record's defaults): a
   load from the pool amid the record's stores waits on any of them 4 KiB apart from it (one
   in four where records are 1 KiB: the pool's placement in one process made the same code
   10 % slower). */
static void constant_value(struct gen *g, const uint32_t value[4])
{
    if (!(value[0] | value[1] | value[2] | value[3])) {
        E(VPXOR_X0_X0_X0, 0, 0);
    } else if (!(value[0] | value[1] | value[2]) && value[3] == VFETCH_ONE_BITS) {
        E(VPCMPEQD_X0_X0_X0, 0, 0); /* 0xffffffff */
        E(VPSLLD_X0_X0_I, 0, 25);   /* 0xfe000000 */
        E(VPSRLD_X0_X0_I, 0, 2);    /* 0x3f800000: 1.0 */
        E(VPSLLDQ_X0_X0_I, 0, 12);  /* in lane 3 alone */
    } else {
        E(VMOVDQU_X0_P, POOL(value), 0);
    }
}

/* n constant ops of four slots each, one after another among the ops (a full output record's
   defaults): each distinct value made once (constant_value) and stored from xmm0. One pool
   load an op, as gen_constant_op emits it, cost a full Maxwell record 60 loads a vertex;
   32-byte stores, half of them across a line where the output is 16 bytes past one, ran 1.5x
   slower with the output in the L1 and at most 9 % faster past the L2 (docs/jit.md). */
void gen_constant_run(struct gen *g, unsigned first, unsigned n)
{
    const struct vfetch_op_exec *ops = g->conv->ops + first;
    const uint32_t *held = NULL; /* the value xmm0 holds */
    for (unsigned k = 0; k < n; k++) {
        const uint32_t *value = ops[k].constant;
        if (!held || memcmp(held, value, 16)) {
            constant_value(g, value);
            held = value;
        } else {
            g->constants_held += !g->collecting;
        }
        E(VMOVUPS_MRDX_X0, 4 * ops[k].dst_slot, 0);
    }
}

/* A constant op: two or more slots in a row from the pool in one store; else one move each. */
void gen_constant_op(struct gen *g, unsigned op_index, const struct vfetch_op_exec *x)
{
    const unsigned m = x->write_mask;
    if (m == 0x3 || m == 0x7 || m == 0xf) {
        E(VMOVDQU_X0_P, POOL(x->constant), 0);
        store_run(g, op_index, x->dst_slot, m == 0x3 ? 2 : m == 0x7 ? 3 : 4);
        return;
    }
    for (unsigned c = 0; c < 4; c++)
        if (m >> c & 1)
            E(MOV_MRDX_I, 4 * (x->dst_slot + c), (int32_t)x->constant[c]);
}
