/*
 * What the per-vertex pass holds in registers for a whole draw instead of loading it again for
 * every vertex (lib/jit/x86_gen.h, docs/jit.md):
 *
 *   a GX format's array bases  in rbx, rbp, r12..r15 (pushed, below the red zone where a
 *                              batched draw keeps its batch there), and in r10, r11 where
 *                              no colour table takes them: an element's bytes are read at
 *                              [base + r8 * 1, 2, 4 or 8], r8 its index times the stride's
 *                              rest (nothing, one lea or shift; else the stride, by imul)
 *   constants                  in xmm6..xmm14: the shuffle controls and the FMA form's
 *                              division factors (where the default division asks for them)
 *                              a vertex's ops use most, found by emitting the ops once and
 *                              taking them back; xmm14 the mask of 12-byte masked loads
 *                              where an op asks for one
 *
 * The pass is bound by its memory operations (config c, a position index16 and a colour
 * index8 a vertex: 11 loads and 2 stores in 22 instructions); these were 3 of the loads.
 */
#include <string.h>

#include "jit/x86_gen.h"

static const enum x86_shape push_base[GEN_SAVED_BASES] = { X86_PUSH_RBX, X86_PUSH_RBP,
                                                           X86_PUSH_R12, X86_PUSH_R13,
                                                           X86_PUSH_R14, X86_PUSH_R15 },
                            pop_base[GEN_SAVED_BASES] = { X86_POP_RBX, X86_POP_RBP, X86_POP_R12,
                                                          X86_POP_R13, X86_POP_R14, X86_POP_R15 },
                            load_base[GEN_HELD_BASES] = { X86_MOV_RBX_MRSI, X86_MOV_RBP_MRSI,
                                                          X86_MOV_R12_MRSI, X86_MOV_R13_MRSI,
                                                          X86_MOV_R14_MRSI, X86_MOV_R15_MRSI,
                                                          X86_MOV_R10_MRSI, X86_MOV_R11_MRSI };
static const enum x86_shape load_control[GEN_HELD_CONTROLS] = {
    X86_VMOVDQU_X6_P,  X86_VMOVDQU_X7_P,  X86_VMOVDQU_X8_P,  X86_VMOVDQU_X9_P, X86_VMOVDQU_X10_P,
    X86_VMOVDQU_X11_P, X86_VMOVDQU_X12_P, X86_VMOVDQU_X13_P, X86_VMOVDQU_X14_P,
},
                            shuffle_by[GEN_HELD_CONTROLS] = {
                                X86_VPSHUFB_X0_X0_X6,  X86_VPSHUFB_X0_X0_X7,  X86_VPSHUFB_X0_X0_X8,
                                X86_VPSHUFB_X0_X0_X9,  X86_VPSHUFB_X0_X0_X10, X86_VPSHUFB_X0_X0_X11,
                                X86_VPSHUFB_X0_X0_X12, X86_VPSHUFB_X0_X0_X13, X86_VPSHUFB_X0_X0_X14,
                            },
                            mul_by[GEN_HELD_CONTROLS] = {
                                X86_VMULPS_X1_X0_X6,  X86_VMULPS_X1_X0_X7,  X86_VMULPS_X1_X0_X8,
                                X86_VMULPS_X1_X0_X9,  X86_VMULPS_X1_X0_X10, X86_VMULPS_X1_X0_X11,
                                X86_VMULPS_X1_X0_X12, X86_VMULPS_X1_X0_X13, X86_VMULPS_X1_X0_X14,
                            },
                            fma_by[GEN_HELD_CONTROLS] = {
                                X86_VFMADD132PS_X0_X1_X6,  X86_VFMADD132PS_X0_X1_X7,
                                X86_VFMADD132PS_X0_X1_X8,  X86_VFMADD132PS_X0_X1_X9,
                                X86_VFMADD132PS_X0_X1_X10, X86_VFMADD132PS_X0_X1_X11,
                                X86_VFMADD132PS_X0_X1_X12, X86_VFMADD132PS_X0_X1_X13,
                                X86_VFMADD132PS_X0_X1_X14,
                            };

/* The held bases saved at the pass's start and restored after it (r10 and r11 are not). */
static unsigned saved_bases(const struct gen *g)
{
    return g->num_bases < GEN_SAVED_BASES ? g->num_bases : GEN_SAVED_BASES;
}

/* Before the pass's loop: the first six arrays the format's copies read in registers (eight
   where no colour table takes r10 and r11); then counting the controls the ops ask for, until
   gen_held_controls (the caller emits one vertex's ops in between, to be taken back). */
struct x86_mark gen_held_open(struct gen *g)
{
    const struct vfetch_gx_plan *plan = g->gx;
    memset(g->array_base, -1, sizeof g->array_base);
    g->num_bases = g->num_held = g->num_wanted = 0;
    /* r10 and r11 too where no colour table takes them (g->tables, g->words: its base and
       scratch) */
    const unsigned most = g->tables || g->words ? GEN_SAVED_BASES : GEN_HELD_BASES;
    for (unsigned k = 0; plan && k < plan->num_copies; k++) {
        const unsigned array = plan->copies[k].array;
        if (array != VFETCH_GX_FROM_VERTEX && g->array_base[array] < 0 && g->num_bases < most)
            g->array_base[array] = (int8_t)g->num_bases++;
    }
    if (g->num_bases) {
        if (g->red_zone_live)
            E(SUB_RSP_I, 0, 128);
        for (unsigned b = 0; b < saved_bases(g); b++)
            x86_op(&g->a, push_base[b], 0, 0);
        for (unsigned array = 0; array < VFETCH_GX_NUM_ATTRS; array++)
            if (g->array_base[array] >= 0)
                x86_op(&g->a, load_base[g->array_base[array]], gen_arrays_data(array), 0);
    }
    g->collecting = 1;
    g->masked_wanted = 0;
    g->mask_held = 0;
    g->elem_copy = g->raw_copy = -1;
    g->rax_bases = 1;
    return x86_mark(&g->a);
}

/* The counted ops taken back (to `counted`), and the controls they use most loaded into
   xmm6.. ; xmm14 the masked loads' mask where they asked for it (gen_load_fields). */
void gen_held_controls(struct gen *g, struct x86_mark counted)
{
    x86_rewind(&g->a, counted);
    g->collecting = 0;
    const unsigned most = g->masked_wanted ? GEN_HELD_CONTROLS - 1 : GEN_HELD_CONTROLS;
    if (g->masked_wanted) {
        static const uint32_t three_lanes[4] = { ~0u, ~0u, ~0u, 0 };
        E(VMOVDQU_X14_P, POOL(three_lanes), 0);
        g->mask_held = 1;
    }
    while (g->num_held < most) {
        unsigned best = 0;
        for (unsigned w = 1; w < g->num_wanted; w++)
            best = g->wanted[w].uses > g->wanted[best].uses ? w : best;
        if (best >= g->num_wanted || !g->wanted[best].uses)
            break;
        memcpy(g->held[g->num_held], g->wanted[best].bytes, 16);
        x86_op(&g->a, load_control[g->num_held++], (int64_t)POOL(g->wanted[best].bytes), 0);
        g->wanted[best].uses = 0;
    }
}

/* After the pass: the base registers restored. */
void gen_held_close(struct gen *g)
{
    g->rax_bases = 0;
    if (g->num_bases) {
        for (unsigned b = saved_bases(g); b-- > 0;)
            x86_op(&g->a, pop_base[b], 0, 0);
        if (g->red_zone_live)
            E(ADD_RSP_I, 0, 128);
    }
    memset(g->array_base, -1, sizeof g->array_base);
    g->num_bases = g->num_held = 0;
    g->mask_held = 0;
}

/* Where the array's base is held, the loads' base for its elements (GEN_ELEMENT_BASE: [base +
   r8 * 2^shift]) and in *m what r8, the index, is to be multiplied by (stride = m * 2^shift:
   m 1, 3, 5, 9 or a power of two, one instruction at most; else the stride, shift 0). In the
   per-vertex pass's ops an array no register holds takes rax (GEN_RAX_BASE, which the caller
   loads) where m is one instruction. Else 0 and *m the stride. Emits nothing. */
unsigned gen_held_element(const struct gen *g, unsigned array, uint32_t stride, uint32_t *m)
{
    int b = array < VFETCH_GX_NUM_ATTRS ? g->array_base[array] : -1;
    *m = stride;
    if (b < 0 && g->rax_bases)
        b = GEN_RAX_BASE;
    if (b < 0)
        return 0;
    unsigned shift = 3;
    while (shift && stride % (1u << shift))
        shift--;
    const uint32_t rest = stride >> shift;
    if (!gen_multiplier_one_op(rest))
        return b == GEN_RAX_BASE ? 0 : GEN_ELEMENT_BASE(b, 0);
    *m = rest;
    return GEN_ELEMENT_BASE(b, shift);
}

/* The register (0 for xmm6 ..) that holds the 16 bytes, or -1; while the ops are emitted to
   be counted, one more use of them. */
static int held_constant(struct gen *g, const void *bytes)
{
    for (unsigned k = 0; k < g->num_held; k++)
        if (!memcmp(g->held[k], bytes, 16))
            return (int)k;
    if (g->collecting) {
        unsigned w = 0;
        while (w < g->num_wanted && memcmp(g->wanted[w].bytes, bytes, 16))
            w++;
        if (w == g->num_wanted && w < GEN_WANTED_CONTROLS) {
            memcpy(g->wanted[w].bytes, bytes, 16);
            g->wanted[g->num_wanted++].uses = 0;
        }
        if (w < g->num_wanted)
            g->wanted[w].uses++;
    }
    return -1;
}

/* xmm0's bytes shuffled by ctrl: from its register where it is held, else from the pool. */
void gen_shuffle(struct gen *g, const uint8_t ctrl[16])
{
    const int k = held_constant(g, ctrl);
    if (k >= 0)
        x86_op(&g->a, shuffle_by[k], 0, 0);
    else
        E(VPSHUFB_X0_X0_P, POOL(ctrl), 0);
}

/* The FMA form's division (xmm0 * hi + xmm0 * lo, vfetch_jit_reciprocal) by the registers
   that hold hi and lo: its product into xmm1 (*mul) and its fused multiply-add (*fma); 0
   unless both are held. Emits nothing. */
int gen_held_fma_divide(struct gen *g, const float hi[4], const float lo[4], enum x86_shape *mul,
                        enum x86_shape *fma)
{
    const int h = held_constant(g, hi), l = held_constant(g, lo);
    if (h < 0 || l < 0)
        return 0;
    *mul = mul_by[l];
    *fma = fma_by[h];
    return 1;
}
