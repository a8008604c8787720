/*
 * A GX format's batched draw (vfetch_gx_state_draw_batch, docs/gx.md "One call per guest
 * draw"): a second entry of the format's generated draw, which takes a whole draw command into
 * the batch. A format with indexed attributes converts first, through a body of its own, and
 * ends in C (vfetch_gx_batch_finish: the indices of the records written). A direct format's:
 * every check of both halves, the primitive's indices from its count's tiny entry
 * (lib/prim/compile.c; from 32 vertices through vfetch_gx_batch_long_indices, batch_long), the
 * batch's figures, then the format's own conversion (the draw's body, at `body`) and its
 * result. Called as vfetch_gx_batch_draw is (lib/gx/batch.c,
 * its C twin: the same short way): rdi the plan, rsi the draw's parameters (vertices, bytes
 * and count set), rdx the batch, rcx the
 * primitive's slot, r8 the result. Any check failing, or a count with a tail of indices, leaves
 * with nothing written for vfetch_gx_batch_draw, the five registers as they came; the long
 * way's indices' room, checked last, returns VFETCH_EBATCH_FULL itself (the error the C way
 * reports there), nothing written.
 *
 * A direct format's draw cannot fail once its bytes and room are checked, so the indices are
 * written first and the conversion ends the function, as it ends the plain draw.
 */
#include <stddef.h>

#include "gx/state.h"
#include "jit/x86_gen.h"
#include "prim/prim_internal.h"

#define PARAM(f) offsetof(struct vfetch_gx_run_params, f)
#define BATCH(f) offsetof(struct vfetch_batch, f)
#define SLOT(f) offsetof(struct gx_prim_slot, f)
#define VECTORS(f) (offsetof(struct vfetch_prim_plan, vectors) + offsetof(struct prim_vectors, f))

/* Every check, in any order (the C way reports the first failing one in the documented
   order): eax the count, from 1 to limit - 1 (else to `beyond`); the vertex bytes; the batch's used figures
   within their capacities; the records' room and stride;
   the host indices' range; the indices' room (`most`: from the slot's table, for counts below
   GX_PRIM_COUNTS), buffer and alignment; the count's tiny entry, without a tail (the slot's
   short_counts). */
static void batch_checks(struct gen *g, uint32_t limit, int most, int tiny, unsigned beyond,
                         unsigned slow)
{
    struct x86_asm *a = &g->a;
    const uint32_t stride = g->gx->out_stride, vsize = g->gx->format.vertex_size;
    E(MOV_EAX_MRSI, PARAM(count), 0);
    E(LEA_R9D_MRAX, -1, 0); /* count - 1 below limit - 1, unsigned: 0 wraps */
    E(CMP_R9D_I, 0, limit - 1);
    x86_jump(a, X86_JNB, beyond);
    E(IMUL_R9_RAX_I, 0, vsize);
    E(CMP_R9_MRSI, PARAM(vertices_size), 0);
    x86_jump(a, X86_JNBE, slow);
    E(CMP_MRSI_I, PARAM(vertices), 0);
    x86_jump(a, X86_JZ, slow);
    /* the records: the buffer, room for count of them, the batch's stride where it has some */
    E(CMP_MRDX_I, BATCH(vertices), 0);
    x86_jump(a, X86_JZ, slow);
    E(MOV_R10_MRDX, BATCH(vertices_capacity), 0);
    E(MOV_R9_MRDX, BATCH(vertices_used), 0);
    E(SUB_R10_R9, 0, 0); /* used past the capacity: the C way's VFETCH_EINVAL */
    x86_jump(a, X86_JB, slow);
    E(IMUL_R11_RAX_I, 0, stride);
    E(CMP_R11_R10, 0, 0);
    x86_jump(a, X86_JNBE, slow);
    const unsigned no_records = x86_label(a);
    E(MOV_R9D_MRDX, BATCH(vertex_count), 0);
    E(TEST_R9D_R9D, 0, 0);
    x86_jump(a, X86_JZ, no_records);
    E(CMP_MRDX32_I, BATCH(record_stride), stride);
    x86_jump(a, X86_JNZ, slow);
    x86_bind(a, no_records);
    /* host indices below the width's all-ones value: vertex_count + count at most the slot's
       most records */
    E(ADD_R9_RAX, 0, 0);
    E(CMP_R9_MRCX, SLOT(most_vertices), 0);
    x86_jump(a, X86_JNBE, slow);
    /* the indices: room for the count's most (where the slot has it: else the long way's
       call checks it), the buffer, aligned to the width */
    E(MOV_R10_MRDX, BATCH(indices_capacity), 0);
    E(MOV_R9_MRDX, BATCH(indices_used), 0);
    E(SUB_R10_R9, 0, 0);
    x86_jump(a, X86_JB, slow);
    if (most) {
        E(MOVZX_R11D_W_MRCX_RAX2, SLOT(most), 0);
        E(CMP_R11_R10, 0, 0);
        x86_jump(a, X86_JNBE, slow);
    }
    E(MOV_R10_MRDX, BATCH(indices), 0);
    E(TEST_R10_R10, 0, 0);
    x86_jump(a, X86_JZ, slow);
    E(TEST_MRCX_R10, SLOT(width_mask), 0);
    x86_jump(a, X86_JNZ, slow);
    if (!tiny)
        return;
    /* the count's tiny entry: one, without a tail */
    E(MOV_R10D_MRCX, SLOT(short_counts), 0);
    E(BT_R10D_EAX, 0, 0);
    x86_jump(a, X86_JNB, slow);
}

/* xmm1: the next 16 bytes of the block's indices (r11 past the plan), the base added on the
   lanes that take it. */
static void index_vector(struct gen *g)
{
    E(VMOVDQU_X1_MR11, VECTORS(first), 0);
    E(VPAND_X2_X0_MR11, VECTORS(takes_base), 0);
    E(VPADDD_X1_X1_X2, 0, 0);
}

/* The count's indices: the primitive's first block at base 0 plus the base (vertex_count times
   the slot's spread: the scale, in every 32-bit lane, twice where the lanes are of 16 bits: a
   16-bit lane's sum never carries, every index being below 0xffff) on the lanes that take it, 16 bytes at a
   time, the last 2 to 14 as 8, 4 and 2. Leaves rdi the indices written. */
static void batch_indices(struct gen *g)
{
    struct x86_asm *a = &g->a;
    const unsigned loop = x86_label(a), last = x86_label(a),
                   no8 = x86_label(a), no4 = x86_label(a), done = x86_label(a);
    E(MOV_EDI_MRDX, BATCH(vertex_count), 0);
    E(IMUL_EDI_MRCX, SLOT(spread), 0);
    E(VMOVD_X0_EDI, 0, 0);
    E(VPSHUFD_X0_X0_I, 0, 0);
    /* r10 the indices' place, r9 their bytes, rdi their number, r11 the plan's tables */
    E(MOV_R10_MRDX, BATCH(indices_used), 0);
    E(IMUL_R10_MRCX, SLOT(index_bytes), 0);
    E(ADD_R10_MRDX, BATCH(indices), 0);
    E(MOVZX_EDI_B_MRCX_RAX, SLOT(body), 0);
    E(MOVZX_R9D_W_MRCX_RAX2, SLOT(body_bytes), 0);
    E(MOV_R11_MRCX, SLOT(plan), 0);
    x86_bind(a, loop);
    E(CMP_R9_I, 0, 16);
    x86_jump(a, X86_JB, last);
    index_vector(g);
    E(VMOVDQU_MR10_X1, 0, 0);
    E(ADD_R11_I, 0, 16);
    E(ADD_R10_I, 0, 16);
    E(SUB_R9_I, 0, 16);
    x86_jump(a, X86_JMP, loop);
    x86_bind(a, last);
    E(TEST_R9D_I, 0, 0xe);
    x86_jump(a, X86_JZ, done);
    index_vector(g);
    E(TEST_R9D_I, 0, 8);
    x86_jump(a, X86_JZ, no8);
    E(VMOVQ_MR10_X1, 0, 0);
    E(VPSRLDQ_X1_X1_I, 0, 8);
    E(ADD_R10_I, 0, 8);
    x86_bind(a, no8);
    E(TEST_R9D_I, 0, 4);
    x86_jump(a, X86_JZ, no4);
    E(VMOVD_MR10_X1, 0, 0);
    E(VPSRLDQ_X1_X1_I, 0, 4);
    E(ADD_R10_I, 0, 4);
    x86_bind(a, no4);
    E(TEST_R9D_I, 0, 2);
    x86_jump(a, X86_JZ, done);
    E(VMOVD_R9D_X1, 0, 0);
    E(MOV_MR10_R9W, 0, 0);
    x86_bind(a, done);
}

/* The batch's figures: eax records of the format's stride (r9 their bytes), rdi indices;
   r10 where the records go. */
static void batch_advance(struct gen *g)
{
    const uint32_t stride = g->gx->out_stride;
    E(IMUL_R9_RAX_I, 0, stride);
    E(MOV_R10_MRDX, BATCH(vertices_used), 0);
    E(ADD_R10_MRDX, BATCH(vertices), 0);
    E(ADD_MRDX_R9, BATCH(vertices_used), 0);
    E(ADD_MRDX_EAX, BATCH(vertex_count), 0);
    E(MOV_MRDX_I, BATCH(record_stride), stride);
    E(ADD_MRDX_RDI, BATCH(indices_used), 0);
}

/* A direct format's figures (count records), the result's indices, then the body's registers:
   the result pushed (as the draw's entry pushes it), rdi the vertices, rdx the records' place,
   ecx the count. */
static void batch_figures(struct gen *g)
{
    struct x86_asm *a = &g->a;
    const unsigned no_result = x86_label(a);
    batch_advance(g);
    E(TEST_R8_R8, 0, 0);
    x86_jump(a, X86_JZ, no_result);
    E(MOV_MR8_RDI, offsetof(struct vfetch_gx_batch_result, indices), 0);
    x86_bind(a, no_result);
    E(PUSH_R8, 0, 0);
    E(MOV_RDX_R10, 0, 0);
    E(MOV_ECX_EAX, 0, 0);
    E(MOV_RDI_MRSI, PARAM(vertices), 0);
}

/* A direct format's long way: a draw of PRIM_TINY vertices or more (below the body's
   crossover, where the portable tier gets faster), every check but the indices' room, then
   indices_fn (vfetch_gx_batch_long_indices: that room, the primitive family's indices, how
   many or VFETCH_EBATCH_FULL), called with the five registers as they came (three of them
   kept on the stack, which leaves it aligned for the call), then the short way's figures and
   body: some 80 instructions a draw fewer than the C way's checked path. */
static void batch_long(struct gen *g, uint32_t crossover, unsigned body, int body_bytes,
                       const void *indices_fn, unsigned slow)
{
    struct x86_asm *a = &g->a;
    const unsigned full = x86_label(a);
    batch_checks(g, crossover, 0, 0, slow, slow);
    E(PUSH_RSI, 0, 0);
    E(PUSH_RDX, 0, 0);
    E(PUSH_R8, 0, 0);
    E(MOV_RAX_I64, 0, (int64_t)(uintptr_t)indices_fn);
    E(CALL_RAX, 0, 0);
    E(POP_R8, 0, 0);
    E(POP_RDX, 0, 0);
    E(POP_RSI, 0, 0);
    E(TEST_RAX_RAX, 0, 0);
    x86_jump(a, X86_JS, full);
    E(MOV_RDI_RAX, 0, 0);
    E(MOV_EAX_MRSI, PARAM(count), 0);
    batch_figures(g);
    if (body_bytes)
        E(IMUL_RAX_RCX_I, 0, g->vsize);
    x86_jump(a, X86_JMP, body);
    x86_bind(a, full); /* nothing written: eax the error */
    E(RET, 0, 0);
}

int gen_batch_entry(struct gen *g, uint32_t crossover, unsigned body, int body_bytes,
                    const void *slow_fn, const void *indices_fn)
{
    struct x86_asm *a = &g->a;
    /* the short way's counts: all of them, past the body's crossover too (the body converts
       any count; the crossover, where the portable tier gets faster, is at 16 vertices or
       more, where a call through the C way would cost more than it saves) */
    if (!crossover) /* the format's draws all run the portable tier */
        return 0;
    const unsigned slow = x86_label(a), long_way = x86_label(a);
    batch_checks(g, PRIM_TINY, 1, 1, long_way, slow);
    batch_indices(g);
    batch_figures(g);
    if (body_bytes)
        E(IMUL_RAX_RCX_I, 0, g->vsize);
    x86_jump(a, X86_JMP, body);
    x86_bind(a, long_way);
    batch_long(g, crossover, body, body_bytes, indices_fn, slow);
    x86_bind(a, slow);
    E(MOV_RAX_I64, 0, (int64_t)(uintptr_t)slow_fn);
    E(JMP_RAX, 0, 0);
    return 1;
}

/* A format with indexed attributes: its vertices go first (a vertex may be skipped, an index may
   send the draw to the portable tier), so its batched draw has a body of its own between these
   two. The checks (the draws they refuse go to slow_fn, nothing changed), the records' place
   into the parameters' `out`, the batch and the slot kept in the red zone beside the result,
   then the body's registers: rdi the vertices, ecx the count. Counts of PRIM_TINY or more go
   the C way: the close's test of the records written (bt) takes them modulo 32, and a guard
   there would cost every short draw two instructions. */
int gen_batch_indexed_open(struct gen *g, uint32_t crossover, const void *slow_fn)
{
    struct x86_asm *a = &g->a;
    if (!crossover)
        return 0;
    const unsigned slow = x86_label(a), on = x86_label(a);
    batch_checks(g, PRIM_TINY, 1, 0, slow, slow);
    x86_jump(a, X86_JMP, on);
    x86_bind(a, slow);
    E(MOV_RAX_I64, 0, (int64_t)(uintptr_t)slow_fn);
    E(JMP_RAX, 0, 0);
    x86_bind(a, on);
    E(MOV_R9_MRDX, BATCH(vertices_used), 0);
    E(ADD_R9_MRDX, BATCH(vertices), 0);
    E(MOV_MRSI_R9, PARAM(out), 0);
    E(MOV_MRSP_R8, REDZONE_RESULT, 0);
    E(MOV_MRSP_RDX, REDZONE_BATCH, 0);
    E(MOV_MRSP_RCX, REDZONE_SLOT, 0);
    g->red_zone_live = 1;
    E(MOV_ECX_EAX, 0, 0);
    E(MOV_RDI_MRSI, PARAM(vertices), 0);
    return 1;
}

/* After the body (r9 the skipped vertices): the batch, slot and result back; where the records
   written (eax) take the short way, their indices and the batch's figures here and the whole
   result, else the five registers back for finish_fn, which writes them. `decline` (an index for
   the portable tier, nothing written) restores the registers for slow_fn, the C way, which
   draws and reports as documented. */
void gen_batch_indexed_close(struct gen *g, unsigned decline, const void *finish_fn,
                             const void *slow_fn)
{
    struct x86_asm *a = &g->a;
    const unsigned in_c = x86_label(a), no_result = x86_label(a);
    E(MOV_RDX_MRSP, REDZONE_BATCH, 0);
    E(MOV_RCX_MRSP, REDZONE_SLOT, 0);
    E(MOV_R8_MRSP, REDZONE_RESULT, 0);
    E(MOV_EAX_MRSI, PARAM(count), 0);
    E(SUB_EAX_R9D, 0, 0);
    E(MOV_R10D_MRCX, SLOT(short_counts), 0);
    E(BT_R10D_EAX, 0, 0);
    x86_jump(a, X86_JNB, in_c);
    E(MOV_MRSP_R9, REDZONE_SKIPPED, 0);
    batch_indices(g);
    batch_advance(g);
    E(TEST_R8_R8, 0, 0);
    x86_jump(a, X86_JZ, no_result);
    E(MOV_MR8_EAX, offsetof(struct vfetch_gx_batch_result, vertices), 0);
    E(MOV_R9_MRSP, REDZONE_SKIPPED, 0);
    E(MOV_MR8_R9D, offsetof(struct vfetch_gx_batch_result, skipped), 0);
    E(MOV_MR8_I, offsetof(struct vfetch_gx_batch_result, clamped), 0);
    E(MOV_MR8_RDI, offsetof(struct vfetch_gx_batch_result, indices), 0);
    x86_bind(a, no_result);
    E(XOR_EAX_EAX, 0, 0);
    E(RET, 0, 0);
    for (int leg = 0; leg < 2; leg++) {
        x86_bind(a, leg ? decline : in_c);
        if (leg) {
            E(MOV_RDX_MRSP, REDZONE_BATCH, 0);
            E(MOV_RCX_MRSP, REDZONE_SLOT, 0);
            E(MOV_R8_MRSP, REDZONE_RESULT, 0);
        }
        E(MOV_RDI_I64, 0, (int64_t)(uintptr_t)g->gx);
        E(MOV_RAX_I64, 0, (int64_t)(uintptr_t)(leg ? slow_fn : finish_fn));
        E(JMP_RAX, 0, 0);
    }
}
