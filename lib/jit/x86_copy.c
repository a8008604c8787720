/*
 * Direct word copies (lib/jit/x86_gen.h): formats whose output is their records' 32-bit words,
 * as they are or byte-reversed (the real captures' formats), 32 bytes a step (one ymm; SSE4.1:
 * two xmm, so that its steps are as many as AVX2's). Up to 128 bytes (a game's short draw: four
 * 16-byte records) the first and the last steps, overlapping where they meet, without a loop;
 * above, four steps an iteration (eight past 256 bytes at AVX2) and the last ones again where
 * they overlap the previous ones. Four steps an iteration halve the loop's instructions a byte:
 * with one, the copy ran 1.5-1.7x slower where the machine was busy (Zen 3, docs/decisions.md,
 * "Measured choices").
 * Past 64 bytes the byte-reversing control is held in xmm6/ymm6; up to 64 each shuffle reads
 * it from the pool, an instruction fewer for the short draws that are most of a game's. The
 * avx512 level's loop steps 64 bytes (one zmm) from 257 bytes to 16 KiB, where the CPU runs
 * 512-bit operations whole (not Zen 4: vfetch_cpu_splits_512).
 */
#include <string.h>

#include "cpu.h"
#include "jit/jit.h"
#include "jit/x86_gen.h"

/* One step of a word copy: `step` bytes (64: one zmm, at the avx512 level; 32: one ymm, or at
   SSE4.1 two xmm halves; 16: one xmm) at disp from rdi to rdx, byte-reversed where bswap: by the
   control at the pool address ctrl, or where ctrl is 0 by the one held in xmm6/ymm6/zmm6. */
static void copy_step(struct gen *g, unsigned step, int32_t disp, int bswap, uint64_t ctrl)
{
    if (step == 64) {
        E(VMOVDQU64_Z0_MRDI, disp, 0);
        if (bswap)
            E(VPSHUFB_Z0_Z0_Z6, 0, 0);
        E(VMOVDQU64_MRDX_Z0, disp, 0);
        return;
    }
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

/* Of rax > steps * step bytes, `step` (32 or 64) bytes a step: where the output is off the
   boundary of its stores (`step` bytes; SSE4.1's 16), the first step, then on to the next one;
   from there `steps` steps an iteration while more than an iteration's bytes are left, then the
   last `steps` (which overlap the previous ones where fewer were left), then on to `end`.
   Aligned, no store of the loop crosses a cache line: an Intel core splits one that does in
   two, and a copy to 16 bytes past a boundary (a malloc'd buffer's start) ran 2.7x slower than
   libc's memcpy, which aligns its stores too (docs/decisions.md, "Word copies"). An output
   already on a boundary skips the first step: storing it twice cost a 512-byte copy a step (16
   vertices of the kit's b, 0.85x).
   A byte-reversing copy moves by whole words (its control reverses each 4 bytes from where it
   loads), so its output reaches the boundary only where it is 4-byte aligned. rax counts the
   bytes left past the iteration's, so that one `sub` steps and tests; r8 is scratch. The
   control is held in xmm6/ymm6/zmm6. */
static void copy_loop(struct gen *g, unsigned step, unsigned steps, int bswap, unsigned end)
{
    struct x86_asm *a = &g->a;
    const unsigned loop = x86_label(a), last = x86_label(a), aligned = x86_label(a);
    const int32_t iteration = (int32_t)(steps * step);
    const unsigned store = g->a.sse ? 16 : step; /* the bytes one store writes: its boundary */
    E(TEST_EDX_I, 0, store - 1);
    x86_jump(a, X86_JZ, aligned);
    copy_step(g, step, 0, bswap, 0);
    E(MOV_R8_RDX, 0, 0); /* r8 = the bytes to the output's next boundary, 1 to store - 1 */
    E(NEG_R8, 0, 0);
    E(AND_R8D_I, 0, bswap ? (store - 1) & ~3u : store - 1); /* reversing: whole words */
    E(ADD_RDI_R8, 0, 0);
    E(ADD_RDX_R8, 0, 0);
    E(SUB_RAX_R8, 0, 0);
    x86_bind(a, aligned);
    E(SUB_RAX_I, 0, iteration); /* at most an iteration's bytes left: only the last steps */
    x86_jump(a, X86_JBE, last);
    x86_bind(a, loop);
    copy_run(g, step, steps, 0, bswap, 0);
    E(ADD_RDI_I, 0, iteration);
    E(ADD_RDX_I, 0, iteration);
    E(SUB_RAX_I, 0, iteration);
    x86_jump(a, X86_JNBE, loop);
    /* 0 < left <= iteration: the last `steps` end at rdi + left = rdi + rax + iteration
       (and start past the copy's start: it is longer than an iteration) */
    x86_bind(a, last);
    E(ADD_RDI_RAX, 0, 0);
    E(ADD_RDX_RAX, 0, 0);
    copy_run(g, step, steps, 0, bswap, 0);
    E(VZEROUPPER, 0, 0);
    x86_jump(a, X86_JMP, end);
}

/* A word copy (the plan's slots are its records' 32-bit words, as they are or byte-reversed,
   and the output stride is the vertex size): count * size bytes (a multiple of 4; rcx the
   count, kept; already in rax where bytes_in_rax): up to 64 the first and the last 32; 16 and
   16 below 32 bytes; words below 16; above 64 the control into xmm6/ymm6 (zmm6), then the
   first and the last 64 up to 128, and copy_loop above (by 64 bytes at avx512 from 257 bytes to
   VFETCH_JIT_WORD_COPY_ZMM_MOST, else by 32). */
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
    /* The avx512 level's loop 64 bytes a step from 257 bytes (four steps) to
       VFETCH_JIT_WORD_COPY_ZMM_MOST (zmm6's control: the 16 bytes in each lane). 32-byte
       records on an Intel Xeon: 1.1-1.35x the 32-byte steps from 16 to 512 records, the output
       on a line or 16 bytes past one; past the L1 cache 0.97x on a line and 0.88x off it,
       where aligning the stores makes every 64-byte load cross a line (half the 32-byte ones
       do): the 32-byte loop from there. A CPU that splits 512-bit operations (Zen 4) ran the
       64-byte steps 0.94-0.95x the 32-byte ones at 16 and 64 records, as fast past them: the
       32-byte steps there. */
    const int zmm = !strcmp(g->conv->isa, "avx512") && !vfetch_cpu_splits_512();
    if (bswap && zmm)
        E(VBROADCASTI32X4_Z6_P, POOL(reverse), 0);
    else if (bswap)
        x86_op(a, a->sse ? X86_VMOVDQU_X6_P : X86_VMOVDQU_Y6_P, (int64_t)ctrl, 0);
    E(CMP_RAX_I, 0, 128);
    x86_jump(a, X86_JNBE, longer);
    copy_ends(g, 32, 2, bswap, 0, end);
    x86_bind(a, longer);
    /* Above 256 bytes (AVX2) eight 32-byte steps an iteration: the loop's own instructions
       halved again; on the Xeon gx-b-packed (reversed words) at 256 records 61.6-62.3 ->
       54.3-55.0 ns, at 64 1.06x, plain words and 4,096 records within 2 %. At avx512 the
       64-byte steps up to VFETCH_JIT_WORD_COPY_ZMM_MOST, those past it. */
    if (!g->a.sse) {
        const unsigned four = x86_label(a);
        E(CMP_RAX_I, 0, 256);
        x86_jump(a, X86_JBE, four);
        if (zmm) {
            const unsigned past = x86_label(a);
            E(CMP_RAX_I, 0, VFETCH_JIT_WORD_COPY_ZMM_MOST);
            x86_jump(a, X86_JNBE, past);
            copy_loop(g, 64, 4, bswap, end);
            x86_bind(a, past);
        }
        copy_loop(g, 32, 8, bswap, end);
        x86_bind(a, four);
    }
    copy_loop(g, 32, 4, bswap, end);
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
