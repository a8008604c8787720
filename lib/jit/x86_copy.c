/*
 * Direct word copies (lib/jit/x86_gen.h): formats whose output is their records' 32-bit words,
 * as they are or byte-reversed (the real captures' formats), 32 bytes a step (one ymm; SSE4.1:
 * two xmm, so that its steps are as many as AVX2's), the last step again where it overlaps the
 * previous one; up to two steps' bytes (a game's short draw: four 16-byte records) as the first
 * and the last step, without a loop.
 */
#include "jit/x86_gen.h"

/* One step of a word copy: `step` bytes (32: one ymm, or at SSE4.1 two xmm halves; 16: one
   xmm) at disp from rdi to rdx, byte-reversed by the shuffle at ctrl where bswap. */
static void copy_step(struct gen *g, unsigned step, int32_t disp, int bswap, uint64_t ctrl)
{
    const int ymm = step == 32 && !g->a.sse;
    for (unsigned at = 0; at < step; at += ymm ? 32 : 16) {
        x86_op(&g->a, ymm ? X86_VMOVDQU_Y0_MRDI : X86_VMOVDQU_X0_MRDI, disp + (int32_t)at, 0);
        if (bswap)
            x86_op(&g->a, ymm ? X86_VPSHUFB_Y0_Y0_P : X86_VPSHUFB_X0_X0_P, (int64_t)ctrl, 0);
        x86_op(&g->a, ymm ? X86_VMOVUPS_MRDX_Y0 : X86_VMOVUPS_MRDX_X0, disp + (int32_t)at, 0);
    }
}

/* Of rax >= step bytes (a multiple of 4) from rdi to rdx: `step` at a time, the last `step`
   again where they overlap the previous ones (the same bytes written twice: source and output
   do not overlap); then on to `end`. */
static void copy_steps(struct gen *g, unsigned step, int bswap, uint64_t ctrl, unsigned end)
{
    struct x86_asm *a = &g->a;
    const unsigned loop = x86_label(a), done = x86_label(a);
    x86_bind(a, loop);
    copy_step(g, step, 0, bswap, ctrl);
    E(ADD_RDI_I, 0, step);
    E(ADD_RDX_I, 0, step);
    E(SUB_RAX_I, 0, step);
    E(CMP_RAX_I, 0, step);
    x86_jump(a, X86_JNB, loop);
    E(TEST_RAX_RAX, 0, 0);
    x86_jump(a, X86_JZ, done);
    E(ADD_RDI_RAX, 0, 0);
    E(ADD_RDX_RAX, 0, 0);
    copy_step(g, step, -(int32_t)step, bswap, ctrl);
    x86_bind(a, done);
    if (step == 32)
        E(VZEROUPPER, 0, 0);
    x86_jump(a, X86_JMP, end);
}

/* Of step <= rax <= 2 * step bytes: the first `step` and the last (overlapping where rax is
   less than 2 * step), then on to `end`. */
static void copy_two_steps(struct gen *g, unsigned step, int bswap, uint64_t ctrl, unsigned end)
{
    copy_step(g, step, 0, bswap, ctrl);
    E(ADD_RDI_RAX, 0, 0);
    E(ADD_RDX_RAX, 0, 0);
    copy_step(g, step, -(int32_t)step, bswap, ctrl);
    if (step == 32)
        E(VZEROUPPER, 0, 0);
    x86_jump(&g->a, X86_JMP, end);
}

/* A word copy (the plan's slots are its records' 32-bit words, as they are or byte-reversed,
   and the output stride is the vertex size): count * size bytes (a multiple of 4; rcx the
   count, kept; already in rax where bytes_in_rax); up to 64 the first and the last 32; above,
   32 at a time and the last 32 again where they overlap the previous step; 16 and 16 below 32
   bytes; words below 16. */
void gen_word_copy(struct gen *g, int bswap, int bytes_in_rax)
{
    static const uint8_t reverse[32] = { 3,  2,  1,  0,  7,  6,  5,  4,  11, 10, 9,
                                         8,  15, 14, 13, 12, 3,  2,  1,  0,  7,  6,
                                         5,  4,  11, 10, 9,  8,  15, 14, 13, 12 };
    struct x86_asm *a = &g->a;
    const unsigned half = x86_label(a), word = x86_label(a), end = x86_label(a);
    const uint64_t ctrl = x86_const_wide(a, reverse, 2);
    if (!bytes_in_rax)
        E(IMUL_RAX_RCX_I, 0, g->vsize);
    const unsigned longer = x86_label(a);
    E(CMP_RAX_I, 0, 32);
    x86_jump(a, X86_JB, half);
    E(CMP_RAX_I, 0, 64);
    x86_jump(a, X86_JNBE, longer);
    copy_two_steps(g, 32, bswap, ctrl, end);
    x86_bind(a, longer);
    copy_steps(g, 32, bswap, ctrl, end);
    x86_bind(a, half); /* 16..28 bytes: the first 16 and the last 16 */
    E(CMP_RAX_I, 0, 16);
    x86_jump(a, X86_JB, word);
    copy_two_steps(g, 16, bswap, ctrl, end);
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

