/*
 * GX pass 1 (lib/jit/x86_gen.h, docs/jit.md): before a byte is written, every kept vertex's
 * indices: each indexed copy's highest index of the kept vertices (the vector forms fold the
 * skipped vertices in, the position's lane biased so that its skip value counts as 0; the
 * scalar form tests the position's index, counts the skipped vertices in r9 and reads none of
 * their other indices), then per copy `highest * stride + the bytes read in the element`
 * within the array's size. Any failure
 * leaves for `decline` (the portable tier decides and reports exactly); every vertex skipped
 * leaves for `done` (nothing to write). An unbound array needs no test of its own: wherever
 * the code runs its size is 0 (a state's arrays; a caller's unbound array with a size leaves
 * for the portable tier at the entry), so its copy's check declines.
 *
 * None where every array holds every index the format can name (gen_array_cover; with the
 * wide loads' reach too before the wide per-vertex pass). Else three
 * ways, the first that fits: several small vertices a register (index_pass_wide, inside the
 * vector pass; AVX2), one vertex a register (index_pass_vector: every index of a vertex
 * byte-swapped into a 16-bit lane by one vpshufb, folded by one vpmaxuw; at SSE4.1 one
 * register per 16-byte window), one index at a time (index_pass_scalar).
 */
#include <string.h>

#include "jit/x86_gen.h"

/* Branch by `branch` to `label` on the position index's skip value: the index loaded by
   forms[0] (a byte) or forms[1] (a word) from the vertex, compared to all ones by forms[2]. */
void gen_skip_test(struct gen *g, const enum x86_shape forms[3], enum x86_shape branch,
                   unsigned label)
{
    const struct vfetch_gx_copy *pc = &g->gx->copies[g->gx->position_copy];
    x86_op(&g->a, forms[pc->index_size == 1 ? 0 : 1], pc->src, 0);
    x86_op(&g->a, forms[2], 0, pc->index_size == 1 ? 0xff : 0xffff);
    x86_jump(&g->a, branch, label);
}

/* After the loop: leave for `done` when every vertex was skipped, else check each copy's
   highest index (place[k] >= 0: in the red zone's maxima as 16-bit lane place[k] where
   `lanes`, else in slot place[k], gen_index_pass's registers and red zone), for `decline`
   unless its element lies inside the array: index * stride + the bytes read in the element,
   within its size. Every vertex was skipped where r9 counts them all, or with `biased` (the
   position's lane biased by skip_bias, skipped vertices folded in and not counted) where the
   position's highest index is its skip value, which a vertex that is not skipped never has. */
static void index_checks(struct gen *g, const int *place, int lanes, int biased,
                         unsigned decline, unsigned done)
{
    const struct vfetch_gx_plan *plan = g->gx;
    const unsigned checks = x86_label(&g->a);
    if (biased) { /* every vertex skipped: r9 counts them all for `done` */
        const struct vfetch_gx_copy *pc = &plan->copies[plan->position_copy];
        E(MOVZX_EAX_W_MRSP, REDZONE_MAXIMA + 2 * place[plan->position_copy], 0);
        E(CMP_EAX_I, 0, pc->index_size == 1 ? 0xff : 0xffff);
        x86_jump(&g->a, X86_JNZ, checks);
        E(MOV_R9_RCX, 0, 0);
        x86_jump(&g->a, X86_JMP, done);
    } else {
        E(CMP_R9_RCX, 0, 0);
        x86_jump(&g->a, X86_JZ, done);
    }
    x86_bind(&g->a, checks);
    for (unsigned k = 0; k < plan->num_copies; k++) {
        if (place[k] < 0)
            continue;
        const struct vfetch_gx_copy *cp = &plan->copies[k];
        if (lanes)
            E(MOVZX_EAX_W_MRSP, REDZONE_MAXIMA + 2 * place[k], 0);
        else if (place[k] == 0)
            E(MOV_RAX_R8, 0, 0);
        else if (place[k] == 1)
            E(MOV_RAX_RDX, 0, 0);
        else
            E(MOV_RAX_MRSP, REDZONE_HIGHEST(place[k]), 0);
        E(IMUL_RAX_I, 0, plan->desc.array_stride[cp->array]);
        E(ADD_RAX_I, 0, cp->elem_off + cp->size);
        E(CMP_RAX_MRSI, gen_arrays_size(cp->array), 0);
        x86_jump(&g->a, X86_JNBE, decline);
    }
}

/* Index bytes into a 16-bit lane at ctrl[at]: a byte as it is, a big-endian word swapped
   (`first` and `second`: where its two bytes are in the loaded window). */
static void put_index(uint8_t *ctrl, unsigned at, unsigned index_size, unsigned first,
                      unsigned second)
{
    if (index_size == 1)
        ctrl[at] = (uint8_t)first;
    else {
        ctrl[at] = (uint8_t)second;
        ctrl[at + 1] = (uint8_t)first;
    }
}

/* What pass 1 adds to the position's index lane so that its skip value wraps to 0 and every
   other index keeps its order above it: a skipped vertex then adds nothing to the maximum, and
   the maximum, the bias taken off again, is the skip value only where every vertex was
   skipped (index_checks). */
static uint16_t skip_bias(const struct vfetch_gx_copy *pc)
{
    return pc->index_size == 1 ? 0xff01 : 1;
}

/* One register of the wide layout folded in: the indices to their lanes (ctrl), the position's
   bias (0: no position index), the maxima. */
static void wide_fold(struct gen *g, uint64_t ctrl, uint64_t bias)
{
    E(VPSHUFB_Y0_Y0_P, ctrl, 0);
    if (bias)
        E(VPADDW_Y0_Y0_P, bias, 0);
    E(VPMAXUW_Y2_Y2_Y0, 0, 0);
}

/* The wide loop, where `per_lane` >= 2 vertices' indices fit one 16-byte window and 8 16-bit
   lanes (n indexed copies, their bytes from lo to hi[0] of the vertex, none past the first
   window): 2 * per_lane vertices an iteration, vertex v's copy k in lane v * n + lane_of[k] of
   each 128-bit half, the position biased (skip_bias), skipped vertices folded in as the rest
   (not counted: index_checks). A skipped vertex's other indices count in the maxima:
   conservative, the checks then only decline more. Runs while the second window lies inside the vertices left; the rest go to the
   vertex loop that follows, or to `checks` when none is left. Returns per_lane, or 0 (nothing
   emitted). */
static unsigned index_pass_wide(struct gen *g, const int *lane_of, unsigned n, int32_t lo,
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
    memset(ctrl, 0x80, sizeof ctrl);
    for (unsigned v = 0; v < per_lane; v++)
        for (unsigned k = 0; k < plan->num_copies; k++) {
            if (lane_of[k] < 0)
                continue;
            const struct vfetch_gx_copy *cp = &plan->copies[k];
            const unsigned w = v * n + (unsigned)lane_of[k];
            const unsigned at = v * vsize + (unsigned)(cp->src - lo);
            for (unsigned h = 0; h < 2; h++) {
                put_index(ctrl, 16 * h + 2 * w, cp->index_size, at, at + 1);
                if (cp == pc)
                    bias[8 * h + w] = skip_bias(pc);
            }
        }
    const unsigned step = 2 * per_lane;
    unsigned need = per_lane + ((unsigned)lo + 16 + vsize - 1) / vsize;
    need = need < step ? step : need;
    const unsigned loop = x86_label(a), rest = x86_label(a), small = x86_label(a);
    E(CMP_R11_I, 0, need);
    x86_jump(a, X86_JB, rest);
    x86_bind(a, loop);
    E(VMOVDQU_X0_MRDI, lo, 0);
    E(VINSERTI128_Y0_Y0_MRDI_I, lo + (int32_t)(per_lane * vsize), 1);
    wide_fold(g, x86_const_wide(a, ctrl, 2), pc ? x86_const_wide(a, bias, 2) : 0);
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
        wide_fold(g, x86_const_wide(a, tail, 2), pc ? x86_const_wide(a, bias, 2) : 0);
        E(SUB_R11_I, 0, step);
    }
    x86_bind(a, small);
    E(TEST_R11_R11, 0, 0);
    x86_jump(a, X86_JZ, checks);
    return per_lane;
}

/* One vertex a register, where every indexed copy's index fits a 16-bit lane: copies 0..7 from
   one 16-byte window of the vertex, 8..15 from another (after the wide loop, where it fits). Per
   vertex the indices are loaded, byte-swapped into their lanes by one vpshufb, the position's
   biased (skip_bias) and folded into the maxima by one vpmaxuw. The maxima go to the red zone
   (REDZONE_MAXIMA) for the checks. Returns 0, or -1 (nothing emitted) where the indices do not
   fit two windows. */
static int index_pass_vector(struct gen *g, unsigned decline, unsigned done)
{
    const struct vfetch_gx_plan *plan = g->gx;
    struct x86_asm *a = &g->a;
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
    struct span_layout l[2];
    uint8_t ctrl[32];
    memset(ctrl, 0x80, sizeof ctrl);
    /* SSE4.1: no 256-bit register; each window folded into its own (xmm2, xmm3) */
    const int sse = g->a.sse;
    E(XOR_R9D_R9D, 0, 0);
    E(MOV_R11_RCX, 0, 0);
    E(VPXOR_X2_X2_X2, 0, 0);
    if (sse)
        E(VPXOR_X3_X3_X3, 0, 0);
    const unsigned loop = x86_label(a), checks = x86_label(a);
    const unsigned per_lane = sse ? 0 : index_pass_wide(g, lane_of, n, lo[0], hi, checks);
    /* the position's lane biased as the wide loop's are (its skip value wraps to 0): skipped
       vertices folded in too, not tested (a load, a compare and a branch a vertex fewer for
       one more vector add; their other indices count, which can only decline more). An indexed
       position is the first indexed copy (the attributes' order), so its lane is the first
       window's 0. */
    uint16_t bias[16] = { 0 };
    const int biased = plan->position_copy >= 0;
    if (biased)
        bias[lane_of[plan->position_copy]] = skip_bias(&plan->copies[plan->position_copy]);
    x86_bind(a, loop);
    for (unsigned h = 0; h < 2 && hi[h] >= 0; h++) /* the vertex's bytes past them may be read */
        gen_load_span(g, 0, (int)h, lo[h],
                      gen_load_width(lo[h], (unsigned)(hi[h] - lo[h] + 1), plan->format.vertex_size),
                      &l[h]);
    for (unsigned k = 0; k < plan->num_copies; k++) {
        if (lane_of[k] < 0)
            continue;
        const struct vfetch_gx_copy *cp = &plan->copies[k];
        const unsigned h = (unsigned)lane_of[k] / 8, at = 16 * h + 2 * ((unsigned)lane_of[k] % 8);
        put_index(ctrl, at, cp->index_size, gen_span_pos(&l[h], (unsigned)(cp->src - lo[h])),
                  gen_span_pos(&l[h], (unsigned)(cp->src + 1 - lo[h])));
    }
    if (sse) {
        E(VPSHUFB_X0_X0_P, x86_const(a, ctrl), 0);
        if (biased)
            E(VPADDW_X0_X0_P, POOL(bias), 0);
        E(VPMAXUW_X2_X2_X0, 0, 0);
        if (hi[1] >= 0) {
            E(VPSHUFB_X1_X1_P, x86_const(a, ctrl + 16), 0);
            E(VPMAXUW_X3_X3_X1, 0, 0);
        }
    } else {
        if (hi[1] >= 0)
            E(VINSERTI128_Y0_Y0_X1_I, 0, 1);
        E(VPSHUFB_Y0_Y0_P, x86_const_wide(a, ctrl, 2), 0);
        if (biased)
            E(VPADDW_Y0_Y0_P, x86_const_wide(a, bias, 2), 0);
        E(VPMAXUW_Y2_Y2_Y0, 0, 0);
    }
    if (plan->format.vertex_size)
        E(ADD_RDI_I, 0, plan->format.vertex_size);
    E(DEC_R11, 0, 0);
    x86_jump(a, X86_JNZ, loop);
    x86_bind(a, checks);
    if (per_lane) { /* each copy's lanes folded into its first: both halves, then the vertices */
        E(VEXTRACTI128_X1_Y2_I, 0, 1);
        E(VPMAXUW_X2_X2_X1, 0, 0);
        for (unsigned w = n; w < per_lane * n; w *= 2) {
            E(VPSRLDQ_X1_X2_I, 0, 2 * w);
            E(VPMAXUW_X2_X2_X1, 0, 0);
        }
        if (biased) /* the bias undone (every vertex skipped: the skip value) */
            E(VPSUBW_X2_X2_P, POOL(bias), 0);
    } else if (biased) { /* the same, each window's lanes where they are */
        if (sse)
            E(VPSUBW_X2_X2_P, POOL(bias), 0);
        else
            E(VPSUBW_Y2_Y2_P, x86_const_wide(a, bias, 2), 0);
    }
    if (sse) {
        E(VMOVDQU_MRSP_X2, REDZONE_MAXIMA, 0);
        E(VMOVDQU_MRSP_X3, REDZONE_MAXIMA + 16, 0);
    } else {
        E(VMOVDQU_MRSP_Y2, REDZONE_MAXIMA, 0);
        E(VZEROUPPER, 0, 0);
    }
    index_checks(g, lane_of, 1, biased, decline, done);
    E(MOV_RDI_MRSI, offsetof(struct vfetch_gx_run_params, vertices), 0);
    return 0;
}

/* One index at a time: each indexed copy's highest index in a slot, the first two in r8 and
   rdx (free until pass 2; the result pointer is in the red zone's first qword), the others in
   the red zone after it; the vertex in r10. */
static void index_pass_scalar(struct gen *g, unsigned decline, unsigned done)
{
    const struct vfetch_gx_plan *plan = g->gx;
    struct x86_asm *a = &g->a;
    const uint32_t vsize = plan->format.vertex_size;
    int slot[VFETCH_GX_MAX_COPIES];
    int n = 0;
    for (unsigned k = 0; k < plan->num_copies; k++) {
        slot[k] = -1;
        if (plan->copies[k].array == VFETCH_GX_FROM_VERTEX)
            continue;
        slot[k] = n++;
        if (slot[k] == 0)
            E(XOR_R8D_R8D, 0, 0);
        else if (slot[k] == 1)
            E(XOR_EDX_EDX, 0, 0);
        else
            E(MOV_MRSP_I, REDZONE_HIGHEST(slot[k]), 0);
    }
    E(XOR_R9D_R9D, 0, 0);
    E(MOV_R10_RDI, 0, 0);
    E(MOV_R11_RCX, 0, 0);
    const unsigned loop = x86_label(a), next = x86_label(a);
    x86_bind(a, loop);
    if (plan->position_copy >= 0) {
        static const enum x86_shape from_r10[3] = { X86_MOVZX_EAX_B_MR10, X86_MOVZX_EAX_W_MR10,
                                                    X86_CMP_EAX_I };
        const unsigned keep = x86_label(a);
        gen_skip_test(g, from_r10, X86_JNZ, keep);
        E(INC_R9, 0, 0);
        x86_jump(a, X86_JMP, next);
        x86_bind(a, keep);
    }
    for (unsigned k = 0; k < plan->num_copies; k++) {
        const struct vfetch_gx_copy *cp = &plan->copies[k];
        if (slot[k] < 0)
            continue;
        if (cp->index_size == 1)
            E(MOVZX_EAX_B_MR10, cp->src, 0);
        else {
            E(MOVZX_EAX_W_MR10, cp->src, 0);
            E(ROL_AX_8, 0, 8);
        }
        if (slot[k] == 0) {
            E(CMP_RAX_R8, 0, 0);
            E(CMOVNBE_R8_RAX, 0, 0);
        } else if (slot[k] == 1) {
            E(CMP_RAX_RDX, 0, 0);
            E(CMOVNBE_RDX_RAX, 0, 0);
        } else {
            E(CMP_RAX_MRSP, REDZONE_HIGHEST(slot[k]), 0);
            E(CMOVB_RAX_MRSP, REDZONE_HIGHEST(slot[k]), 0);
            E(MOV_MRSP_RAX, REDZONE_HIGHEST(slot[k]), 0);
        }
    }
    x86_bind(a, next);
    if (vsize)
        E(ADD_R10_I, 0, vsize);
    E(DEC_R11, 0, 0);
    x86_jump(a, X86_JNZ, loop);
    index_checks(g, slot, 0, 0, decline, done);
}

/* Leave for `label` unless copy k's array holds `bytes` from the start of the element of every
   index the copy can name: any value of its index, but the position's skip value, whose
   vertex reads nothing. */
static void array_holds(struct gen *g, unsigned k, uint32_t bytes, unsigned label)
{
    const struct vfetch_gx_plan *plan = g->gx;
    const struct vfetch_gx_copy *cp = &plan->copies[k];
    uint32_t highest = cp->index_size == 1 ? 0xff : 0xffff;
    if ((int)k == plan->position_copy)
        highest--;
    /* below 2^24 + 2^9: an imm32 */
    E(CMP_MRSI_Q_I32, gen_arrays_size(cp->array),
      highest * plan->desc.array_stride[cp->array] + bytes);
    x86_jump(&g->a, X86_JB, label);
}

/* Leave for `label` unless every indexed copy's array holds the element of every index the
   copy can read (any value of its index, but the position's skip value, whose vertex reads
   nothing), and where reach is given (the wide per-vertex pass's, else NULL) reach[k] bytes
   from its start too. An emulator's binding runs to the end of its guest memory, far past the
   highest row, so most draws need no index read before their conversion, and load the
   elements' fields wider. The size alone tells: an unbound array's is 0 wherever the code runs
   (a state's arrays; vfetch_gx_run hands a caller's unbound array with a size to the portable
   tier), and pass 1, at `label`, declines it by that size. */
void gen_array_cover(struct gen *g, const uint32_t *reach, unsigned label)
{
    const struct vfetch_gx_plan *plan = g->gx;
    for (unsigned k = 0; k < plan->num_copies; k++) {
        const struct vfetch_gx_copy *cp = &plan->copies[k];
        if (cp->array == VFETCH_GX_FROM_VERTEX)
            continue;
        const uint32_t need = (uint32_t)cp->elem_off + cp->size;
        array_holds(g, k, reach && reach[k] > need ? reach[k] : need, label);
    }
}

/* After pass 1 (some array does not hold every index its copy can name, but the draw's do):
   leave for `exact` unless each copy's array with a reach holds reach[k] bytes from the start
   of the element of every index the copy can name, as gen_array_cover asks (an emulator's
   arrays run to the end of its guest memory: the first ones have the room, the last may
   not). */
void gen_element_slack(struct gen *g, const uint32_t reach[VFETCH_GX_MAX_COPIES], unsigned exact)
{
    const struct vfetch_gx_plan *plan = g->gx;
    for (unsigned k = 0; k < plan->num_copies; k++) {
        const struct vfetch_gx_copy *cp = &plan->copies[k];
        if (cp->array != VFETCH_GX_FROM_VERTEX && reach[k])
            array_holds(g, k, reach[k], exact);
    }
}

/* Pass 1 of an indexed format, rdi at the vertices and rcx their count: skipped where the
   arrays hold every index (gen_array_cover), else every index checked (leaving for `decline` or
   `done`). Pass 2 counts the skipped vertices again (r9, from 0). */
void gen_index_pass(struct gen *g, unsigned decline, unsigned done)
{
    const unsigned pass = x86_label(&g->a), covered = x86_label(&g->a);
    gen_array_cover(g, NULL, pass);
    x86_jump(&g->a, X86_JMP, covered);
    x86_bind(&g->a, pass);
    if (index_pass_vector(g, decline, done))
        index_pass_scalar(g, decline, done);
    x86_bind(&g->a, covered);
    E(XOR_R9D_R9D, 0, 0);
}
