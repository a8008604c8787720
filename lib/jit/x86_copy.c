/*
 * Direct word copies (lib/jit/x86_gen.h): formats whose output is their records' 32-bit words,
 * as they are or byte-reversed (the real captures' formats), 32 bytes a step (one ymm; SSE4.1:
 * two xmm, so that its steps are as many as AVX2's). Up to 128 bytes (a game's short draw: four
 * 16-byte records) the first and the last steps, overlapping where they meet, without a loop;
 * above, four steps an iteration and the last four steps again where they overlap the previous
 * ones. Four steps an iteration halve the loop's instructions a byte: with one, the copy ran
 * 1.5-1.7x slower where the machine was busy (Zen 3, docs/decisions.md, "Measured choices").
 * Past 64 bytes the byte-reversing control is held in xmm6/ymm6; up to 64 each shuffle reads
 * it from the pool, an instruction fewer for the short draws that are most of a game's.
 */
#include "jit/x86_gen.h"

/* One step of a word copy: `step` bytes (32: one ymm, or at SSE4.1 two xmm halves; 16: one
   xmm) at disp from rdi to rdx, byte-reversed where bswap: by the control at the pool address
   ctrl, or where ctrl is 0 by the one held in xmm6/ymm6. */
static void copy_step(struct gen *g, unsigned step, int32_t disp, int bswap, uint64_t ctrl)
{
    const int ymm = step == 32 && !g->a.sse;
    for (unsigned at = 0; at < step; at += ymm ? 32 : 16) {
        x86_op(&g->a, ymm ? X86_VMOVDQU_Y0_MRDI : X86_VMOVDQU_X0_MRDI, disp + (int32_t)at, 0);
        if (bswap && ctrl)
            x86_op(&g->a, ymm ? X86_VPSHUFB_Y0_Y0_P : X86_VPSHUFB_X0_X0_P, (int64_t)ctrl, 0);
        else if (bswap)
            x86_op(&g->a, ymm ? X86_VPSHUFB_Y0_Y0_Y6 : X86_VPSHUFB_X0_X0_X6, 0, 0);
        x86_op(&g->a, ymm ? X86_VMOVUPS_MRDX_Y0 : X86_VMOVUPS_MRDX_X0, disp + (int32_t)at, 0);
    }
}

/* `steps` steps of `step` bytes from disp = first, first + step, ... */
static void copy_run(struct gen *g, unsigned step, unsigned steps, int32_t first, int bswap,
                     uint64_t ctrl)
{
    for (unsigned k = 0; k < steps; k++)
        copy_step(g, step, first + (int32_t)(k * step), bswap, ctrl);
}

/* Of rax bytes, steps * step <= rax <= 2 * steps * step: the first steps * step and the last
   (overlapping where rax is less than 2 * steps * step: source and output do not overlap, so
   the same bytes are written twice), then on to `end`. */
static void copy_ends(struct gen *g, unsigned step, unsigned steps, int bswap, uint64_t ctrl,
                      unsigned end)
{
    copy_run(g, step, steps, 0, bswap, ctrl);
    E(ADD_RDI_RAX, 0, 0);
    E(ADD_RDX_RAX, 0, 0);
    copy_run(g, step, steps, -(int32_t)(steps * step), bswap, ctrl);
    if (step == 32)
        E(VZEROUPPER, 0, 0);
    x86_jump(&g->a, X86_JMP, end);
}

/* Of rax > 128 bytes: the first 32, then from the next 32-byte boundary of the output 128 at a
   time while more than 128 are left, then the last 128 (which overlap the previous ones where
   fewer than 128 were left), then on to `end`. Aligned, no store of the loop crosses a cache
   line: an Intel core splits one that does in two, and a copy to 16 bytes past a boundary (a
   malloc'd buffer's start) ran 2.7x slower than libc's memcpy, which aligns its stores too
   (docs/decisions.md, "Word copies"). A byte-reversing copy moves by whole words (its control
   reverses each 4 bytes from where it loads), so its output reaches the boundary only where it
   is 4-byte aligned. rax counts the bytes left past the iteration's 128, so that one `sub`
   steps and tests; r8 is scratch. The control is held in xmm6/ymm6. */
static void copy_loop(struct gen *g, int bswap, unsigned end)
{
    struct x86_asm *a = &g->a;
    const unsigned loop = x86_label(a), last = x86_label(a);
    copy_step(g, 32, 0, bswap, 0);
    E(MOV_R8_RDX, 0, 0); /* r8 = the bytes to the output's next 32-byte boundary, 0-31 */
    E(NEG_R8, 0, 0);
    E(AND_R8D_I, 0, bswap ? 28 : 31); /* reversing: whole words, 0-28 */
    E(ADD_RDI_R8, 0, 0);
    E(ADD_RDX_R8, 0, 0);
    E(SUB_RAX_R8, 0, 0);
    E(SUB_RAX_I, 0, 128); /* 97-128 bytes left: only the last 128 */
    x86_jump(a, X86_JBE, last);
    x86_bind(a, loop);
    copy_run(g, 32, 4, 0, bswap, 0);
    E(ADD_RDI_I, 0, 128);
    E(ADD_RDX_I, 0, 128);
    E(SUB_RAX_I, 0, 128);
    x86_jump(a, X86_JNBE, loop);
    /* 0 < left <= 128: the last 128 end at rdi + left = rdi + rax + 128 (and start past the
       copy's start: it is longer than 128) */
    x86_bind(a, last);
    E(ADD_RDI_RAX, 0, 0);
    E(ADD_RDX_RAX, 0, 0);
    copy_run(g, 32, 4, 0, bswap, 0);
    E(VZEROUPPER, 0, 0);
    x86_jump(a, X86_JMP, end);
}

/* A word copy (the plan's slots are its records' 32-bit words, as they are or byte-reversed,
   and the output stride is the vertex size): count * size bytes (a multiple of 4; rcx the
   count, kept; already in rax where bytes_in_rax): up to 64 the first and the last 32; 16 and
   16 below 32 bytes; words below 16; above 64 the control into xmm6/ymm6, then the first and
   the last 64 up to 128, and copy_loop above. */
void gen_word_copy(struct gen *g, int bswap, int bytes_in_rax)
{
    static const uint8_t reverse[32] = { 3,  2,  1,  0,  7,  6,  5,  4,  11, 10, 9,
                                         8,  15, 14, 13, 12, 3,  2,  1,  0,  7,  6,
                                         5,  4,  11, 10, 9,  8,  15, 14, 13, 12 };
    struct x86_asm *a = &g->a;
    const unsigned half = x86_label(a), word = x86_label(a), end = x86_label(a);
    const unsigned over64 = x86_label(a), longer = x86_label(a);
    const uint64_t ctrl = bswap ? x86_const_wide(a, reverse, 2) : 0; /* plain: no control */
    if (!bytes_in_rax)
        E(IMUL_RAX_RCX_I, 0, g->vsize);
    E(CMP_RAX_I, 0, 32);
    x86_jump(a, X86_JB, half);
    E(CMP_RAX_I, 0, 64);
    x86_jump(a, X86_JNBE, over64);
    copy_ends(g, 32, 1, bswap, ctrl, end);
    x86_bind(a, over64);
    if (bswap)
        x86_op(a, a->sse ? X86_VMOVDQU_X6_P : X86_VMOVDQU_Y6_P, (int64_t)ctrl, 0);
    E(CMP_RAX_I, 0, 128);
    x86_jump(a, X86_JNBE, longer);
    copy_ends(g, 32, 2, bswap, 0, end);
    x86_bind(a, longer);
    copy_loop(g, bswap, end);
    x86_bind(a, half); /* 16..28 bytes: the first 16 and the last 16 */
    E(CMP_RAX_I, 0, 16);
    x86_jump(a, X86_JB, word);
    copy_ends(g, 16, 1, bswap, ctrl, end);
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
