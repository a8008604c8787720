/*
 * Every instruction shape the x86-64 generators emit, as data: a mnemonic and its operands,
 * with the displacement and the immediate left open. lib/jit/x86_shapes_gen.c (built and run at
 * build time, linked with Zydis) encodes each shape once per displacement and immediate size and
 * writes the bytes with the places of those fields; at run time an instruction is a copy of its
 * shape's bytes with the two fields patched (lib/jit/x86_asm.c), so that the library itself
 * needs no encoder and compiling a plan costs microseconds.
 *
 * The includer defines S(name, mnemonic, operands...) and the operand kinds: REG(register),
 * MEM(base register, bytes) (base + displacement), MEMX(base, index, scale, bytes) (base +
 * index * scale + displacement), RIP(bytes) (a constant of the code's pool),
 * IMM8, IMM32, IMM64, IMMS (8 or 32 bits, whichever holds the value), REL (a 32-bit branch
 * target).
 * Not installed.
 */
#ifndef VFETCH_JIT_X86_SHAPES_H
#define VFETCH_JIT_X86_SHAPES_H

/* The longest encoding of a shape: an SSE4.1 form may be two instructions (a movaps first). */
#define X86_ENCODING_MAX 20

/* Operand letters in the names: the register, m<base> memory, p a pool constant, i an
   immediate. */
/* The record program's passes (lib/record.h) at one vector width: W the letter in the names,
   R the registers' prefix, N the bytes of a pool constant. */
#define X86_RP_SHAPES(W, R, N)                                                              \
    S(VPSHUFB_##W##0_##W##0_P, VPSHUFB, REG(R##0), REG(R##0), RIP(N))                        \
    S(VPAND_##W##2_##W##0_P, VPAND, REG(R##2), REG(R##0), RIP(N))                            \
    S(VPXOR_##W##2_##W##2_P, VPXOR, REG(R##2), REG(R##2), RIP(N))                            \
    S(VPSUBD_##W##2_##W##2_P, VPSUBD, REG(R##2), REG(R##2), RIP(N))                          \
    S(VPOR_##W##2_##W##0_P, VPOR, REG(R##2), REG(R##0), RIP(N))                              \
    S(VPOR_##W##2_##W##2_P, VPOR, REG(R##2), REG(R##2), RIP(N))                              \
    S(VMOVDQA_##W##2_##W##0, VMOVDQA, REG(R##2), REG(R##0))                                  \
    S(VPSLLVD_##W##1_##W##0_P, VPSLLVD, REG(R##1), REG(R##0), RIP(N))                        \
    S(VPAND_##W##1_##W##1_P, VPAND, REG(R##1), REG(R##1), RIP(N))                            \
    S(VPSRLVD_##W##3_##W##1_P, VPSRLVD, REG(R##3), REG(R##1), RIP(N))                        \
    S(VPOR_##W##1_##W##1_##W##3, VPOR, REG(R##1), REG(R##1), REG(R##3))                      \
    S(VPXOR_##W##1_##W##1_P, VPXOR, REG(R##1), REG(R##1), RIP(N))                            \
    S(VPXOR_##W##1_##W##0_P, VPXOR, REG(R##1), REG(R##0), RIP(N))                            \
    S(VCVTDQ2PS_##W##1_##W##1, VCVTDQ2PS, REG(R##1), REG(R##1))                              \
    S(VCVTDQ2PS_##W##1_##W##0, VCVTDQ2PS, REG(R##1), REG(R##0))                              \
    S(VMULPS_##W##1_##W##1_P, VMULPS, REG(R##1), REG(R##1), RIP(N))                          \
    S(VADDPS_##W##1_##W##1_P, VADDPS, REG(R##1), REG(R##1), RIP(N))                          \
    S(VDIVPS_##W##1_##W##1_P, VDIVPS, REG(R##1), REG(R##1), RIP(N))                          \
    S(VMULPS_##W##3_##W##1_P, VMULPS, REG(R##3), REG(R##1), RIP(N))                          \
    S(VFMADD132PS_##W##1_##W##3_P, VFMADD132PS, REG(R##1), REG(R##3), RIP(N))                \
    S(VMAXPS_##W##1_##W##1_P, VMAXPS, REG(R##1), REG(R##1), RIP(N))                          \
    S(VPBLENDD_##W##2_##W##2_##W##1_I, VPBLENDD, REG(R##2), REG(R##2), REG(R##1), IMM8)      \
    S(VPMULLW_##W##3_##W##0_P, VPMULLW, REG(R##3), REG(R##0), RIP(N))                        \
    S(VPMULLW_##W##4_##W##0_P, VPMULLW, REG(R##4), REG(R##0), RIP(N))                        \
    S(VPAND_##W##3_##W##3_P, VPAND, REG(R##3), REG(R##3), RIP(N))                            \
    S(VPAND_##W##4_##W##4_P, VPAND, REG(R##4), REG(R##4), RIP(N))                            \
    S(VPMULHUW_##W##5_##W##3_P, VPMULHUW, REG(R##5), REG(R##3), RIP(N))                      \
    S(VPMULHUW_##W##5_##W##4_P, VPMULHUW, REG(R##5), REG(R##4), RIP(N))                      \
    S(VPOR_##W##3_##W##3_##W##5, VPOR, REG(R##3), REG(R##3), REG(R##5))                      \
    S(VPOR_##W##4_##W##4_##W##5, VPOR, REG(R##4), REG(R##4), REG(R##5))                      \
    S(VPSLLW_##W##4_##W##5_I, VPSLLW, REG(R##4), REG(R##5), IMM8)                            \
    S(VPOR_##W##3_##W##3_##W##4, VPOR, REG(R##3), REG(R##3), REG(R##4))                      \
    S(VPOR_##W##3_##W##4_##W##5, VPOR, REG(R##3), REG(R##4), REG(R##5))                      \
    S(VPOR_##W##3_##W##3_P, VPOR, REG(R##3), REG(R##3), RIP(N))                              \
    S(VPSHUFB_##W##6_##W##0_P, VPSHUFB, REG(R##6), REG(R##0), RIP(N))                        \
    S(VPBLENDD_##W##2_##W##0_##W##6_I, VPBLENDD, REG(R##2), REG(R##0), REG(R##6), IMM8)      \
    S(VPBLENDD_##W##2_##W##1_##W##6_I, VPBLENDD, REG(R##2), REG(R##1), REG(R##6), IMM8)      \
    S(VPBLENDD_##W##2_##W##2_##W##6_I, VPBLENDD, REG(R##2), REG(R##2), REG(R##6), IMM8)      \
    S(VPBLENDD_##W##2_##W##2_##W##3_I, VPBLENDD, REG(R##2), REG(R##2), REG(R##3), IMM8)      \
    S(VPBLENDD_##W##0_##W##0_##W##1_I, VPBLENDD, REG(R##0), REG(R##0), REG(R##1), IMM8)      \
    S(VPBLENDD_##W##0_##W##0_##W##3_I, VPBLENDD, REG(R##0), REG(R##0), REG(R##3), IMM8)      \
    S(VMOVDQU_MRDX_##W##0, VMOVDQU, MEM(RDX, N), REG(R##0))                                  \
    S(VMOVDQU_MRDX_##W##2, VMOVDQU, MEM(RDX, N), REG(R##2))                                  \
    S(VMOVDQU_MRDX_##W##1, VMOVDQU, MEM(RDX, N), REG(R##1))                                  \
    S(VPMASKMOVD_MRDX_##W##3_##W##1, VPMASKMOVD, MEM(RDX, N), REG(R##3), REG(R##1))          \
    S(VMOVDQU_##W##3_P, VMOVDQU, REG(R##3), RIP(N))                                          \
    S(VPMASKMOVD_MRDX_##W##3_##W##2, VPMASKMOVD, MEM(RDX, N), REG(R##3), REG(R##2))

/* Bytes at base register B into xmm<D> (gen_load_span): a load of 1-16 bytes, an insert of
   1-8. */
#define X86_SPAN_LOADS(B, D)                                                                \
    S(VPINSRB_X##D##_X15_M##B, VPINSRB, REG(XMM##D), REG(XMM15), MEM(B, 1), IMM8)            \
    S(VPINSRW_X##D##_X15_M##B, VPINSRW, REG(XMM##D), REG(XMM15), MEM(B, 2), IMM8)            \
    S(VMOVD_X##D##_M##B, VMOVD, REG(XMM##D), MEM(B, 4))                                      \
    S(VMOVQ_X##D##_M##B, VMOVQ, REG(XMM##D), MEM(B, 8))                                      \
    S(VMOVDQU_X##D##_M##B, VMOVDQU, REG(XMM##D), MEM(B, 16))                                 \
    S(VPINSRB_X##D##_X##D##_M##B, VPINSRB, REG(XMM##D), REG(XMM##D), MEM(B, 1), IMM8)        \
    S(VPINSRW_X##D##_X##D##_M##B, VPINSRW, REG(XMM##D), REG(XMM##D), MEM(B, 2), IMM8)        \
    S(VPINSRD_X##D##_X##D##_M##B, VPINSRD, REG(XMM##D), REG(XMM##D), MEM(B, 4), IMM8)        \
    S(VPINSRQ_X##D##_X##D##_M##B, VPINSRQ, REG(XMM##D), REG(XMM##D), MEM(B, 8), IMM8)

/* An op's loads from the record (or element) at base register B, and B's step to the next
   vertex: rdi the vertex (a plan's first stream), r8 an element (its second), r9 and rsi a
   plan's third and fourth streams. */
#define X86_BASE_LOADS(B)                                                                   \
    X86_SPAN_LOADS(B, 0)                                                                    \
    S(VPMASKMOVD_X0_X14_M##B, VPMASKMOVD, REG(XMM0), REG(XMM14), MEM(B, 16))                 \
    S(MOV_EAX_M##B, MOV, REG(EAX), MEM(B, 4))                                                \
    S(MOVZX_EAX_B_M##B, MOVZX, REG(EAX), MEM(B, 1))                                          \
    S(MOVZX_EAX_WORD_M##B, MOVZX, REG(EAX), MEM(B, 2))                                       \
    S(MOVZX_R10D_B_M##B, MOVZX, REG(R10D), MEM(B, 1))                                        \
    S(ADD_##B##_I, ADD, REG(B), IMMS)                                                        \
    /* a plan's stream: its first record from the array of them (rdi); under an index     \
       buffer, an indexed stream's record from the vertex index (rax) and its record 0 */  \
    S(MOV_##B##_MRDI, MOV, REG(B), MEM(RDI, 8))                                              \
    S(IMUL_##B##_RAX_I, IMUL, REG(B), REG(RAX), IMM32)                                       \
    S(ADD_##B##_MRSP, ADD, REG(B), MEM(RSP, 8))                                              \
    S(MOV_##B##_MRSP, MOV, REG(B), MEM(RSP, 8))                                              \
    S(ADD_##B##_R11, ADD, REG(B), REG(R11))                                                  \
    S(PUSH_##B, PUSH, REG(B))                                                                \
    S(POP_##B, POP, REG(B))

/* A record program's window (lib/jit/x86_record.c) from the record at base register B, a
   plan's stream: into xmm1, the upper half of an 8-lane vector (its bytes by a load and an
   insert, gen_load_span), a whole one straight into ymm0's upper half, or 4, 8 or 16 bytes
   into both halves of ymm0. */
#define X86_WINDOW_LOADS(B)                                                                 \
    X86_SPAN_LOADS(B, 1)                                                                    \
    S(VPBROADCASTD_Y0_M##B, VPBROADCASTD, REG(YMM0), MEM(B, 4))                             \
    S(VPBROADCASTQ_Y0_M##B, VPBROADCASTQ, REG(YMM0), MEM(B, 8))                             \
    S(VBROADCASTI128_Y0_M##B, VBROADCASTI128, REG(YMM0), MEM(B, 16))                        \
    S(VINSERTI128_Y0_Y0_M##B##_I, VINSERTI128, REG(YMM0), REG(YMM0), MEM(B, 16), IMM8)

/* What the per-vertex pass holds in registers for a draw (lib/jit/x86_held.c): a GX array's
   base in register B (rbx, rbp, r12..r15; r10 and r11 where no colour table takes them), its
   elements' bytes read at [B + r8 * scale] from their index in r8, and a shuffle control in
   xmm<K> (xmm6..xmm14). */
#define X86_ARRAY_BASE(B)                                                                   \
    S(MOV_##B##_MRSI, MOV, REG(B), MEM(RSI, 8))                                              \
    X86_ARRAY_ELEMENTS(B)
#define X86_ARRAY_ELEMENTS(B)                                                               \
    X86_ELEMENT_LOADS(B, 1)                                                                 \
    X86_ELEMENT_LOADS(B, 2)                                                                 \
    X86_ELEMENT_LOADS(B, 4)                                                                 \
    X86_ELEMENT_LOADS(B, 8)
/* An op's loads from an element at [B + r8 * SC] (B a held array base, r8 its index scaled so
   that SC times it is the index times the stride): the forms of X86_BASE_LOADS, and the
   second binary32 pair of float_pair_op. */
#define X86_ELEMENT_LOADS(B, SC) X86_INDEX_LOADS(B, R8, SC, _R8X##SC)
/* Under an index buffer, a plan's loads from a record at [B + r11], B the stream's record 0 and
   r11 the vertex's index times the streams' one stride (gen_records_at_offset). */
#define X86_OFFSET_LOADS(B) X86_INDEX_LOADS(B, R11, 1, _R11)
/* Those loads at [B + I * SC], named ..._M<B><N> */
#define X86_INDEX_LOADS(B, I, SC, N)                                                        \
    S(VPINSRB_X0_X15_M##B##N, VPINSRB, REG(XMM0), REG(XMM15), MEMX(B, I, SC, 1), IMM8)      \
    S(VPINSRW_X0_X15_M##B##N, VPINSRW, REG(XMM0), REG(XMM15), MEMX(B, I, SC, 2), IMM8)      \
    S(VMOVD_X0_M##B##N, VMOVD, REG(XMM0), MEMX(B, I, SC, 4))                                \
    S(VMOVQ_X0_M##B##N, VMOVQ, REG(XMM0), MEMX(B, I, SC, 8))                                \
    S(VMOVDQU_X0_M##B##N, VMOVDQU, REG(XMM0), MEMX(B, I, SC, 16))                           \
    S(VPMASKMOVD_X0_X14_M##B##N, VPMASKMOVD, REG(XMM0), REG(XMM14), MEMX(B, I, SC, 16))     \
    S(VPINSRB_X0_X0_M##B##N, VPINSRB, REG(XMM0), REG(XMM0), MEMX(B, I, SC, 1), IMM8)        \
    S(VPINSRW_X0_X0_M##B##N, VPINSRW, REG(XMM0), REG(XMM0), MEMX(B, I, SC, 2), IMM8)        \
    S(VPINSRD_X0_X0_M##B##N, VPINSRD, REG(XMM0), REG(XMM0), MEMX(B, I, SC, 4), IMM8)        \
    S(VPINSRQ_X0_X0_M##B##N, VPINSRQ, REG(XMM0), REG(XMM0), MEMX(B, I, SC, 8), IMM8)        \
    S(MOV_EAX_M##B##N, MOV, REG(EAX), MEMX(B, I, SC, 4))                                    \
    S(MOVZX_EAX_B_M##B##N, MOVZX, REG(EAX), MEMX(B, I, SC, 1))                              \
    S(MOVZX_EAX_WORD_M##B##N, MOVZX, REG(EAX), MEMX(B, I, SC, 2))                           \
    S(MOVZX_R10D_B_M##B##N, MOVZX, REG(R10D), MEMX(B, I, SC, 1))                            \
    S(VMOVHPS_X0_X0_M##B##N, VMOVHPS, REG(XMM0), REG(XMM0), MEMX(B, I, SC, 8))
/* A gathered group's window (lib/jit/x86_record.c) from its record at [r11 + rax * SC], rax
   its index and SC the stride: 4, 8 or 16 bytes into both halves of ymm0, or into xmm0 or
   xmm1. */
#define X86_GATHER_LOADS(SC)                                                                \
    S(VPBROADCASTD_Y0_MR11_RAX##SC, VPBROADCASTD, REG(YMM0), MEMX(R11, RAX, SC, 4))          \
    S(VPBROADCASTQ_Y0_MR11_RAX##SC, VPBROADCASTQ, REG(YMM0), MEMX(R11, RAX, SC, 8))          \
    S(VBROADCASTI128_Y0_MR11_RAX##SC, VBROADCASTI128, REG(YMM0), MEMX(R11, RAX, SC, 16))     \
    S(VMOVD_X0_MR11_RAX##SC, VMOVD, REG(XMM0), MEMX(R11, RAX, SC, 4))                        \
    S(VMOVQ_X0_MR11_RAX##SC, VMOVQ, REG(XMM0), MEMX(R11, RAX, SC, 8))                        \
    S(VMOVDQU_X0_MR11_RAX##SC, VMOVDQU, REG(XMM0), MEMX(R11, RAX, SC, 16))                   \
    S(VMOVD_X1_MR11_RAX##SC, VMOVD, REG(XMM1), MEMX(R11, RAX, SC, 4))                        \
    S(VMOVQ_X1_MR11_RAX##SC, VMOVQ, REG(XMM1), MEMX(R11, RAX, SC, 8))                        \
    S(VMOVDQU_X1_MR11_RAX##SC, VMOVDQU, REG(XMM1), MEMX(R11, RAX, SC, 16))
/* A gathered group's window of a plan of several streams (lib/jit/x86_record.c) from its record
   at [B + rax], B the stream's record 0 (loaded from the frame: X86_BASE_LOADS) and rax the
   record's index times the streams' one stride: 4, 8 or 16 bytes into both halves of ymm0,
   into xmm0 or xmm1 (16 into ymm0's upper half, 4 or 8 into both of ymm1's), or its bytes by
   a load and an insert. */
#define X86_GATHER_STREAM_LOADS(B)                                                          \
    S(VPBROADCASTD_Y0_M##B##_RAX, VPBROADCASTD, REG(YMM0), MEMX(B, RAX, 1, 4))               \
    S(VPBROADCASTQ_Y0_M##B##_RAX, VPBROADCASTQ, REG(YMM0), MEMX(B, RAX, 1, 8))               \
    S(VBROADCASTI128_Y0_M##B##_RAX, VBROADCASTI128, REG(YMM0), MEMX(B, RAX, 1, 16))          \
    S(VPBROADCASTD_Y1_M##B##_RAX, VPBROADCASTD, REG(YMM1), MEMX(B, RAX, 1, 4))               \
    S(VPBROADCASTQ_Y1_M##B##_RAX, VPBROADCASTQ, REG(YMM1), MEMX(B, RAX, 1, 8))               \
    S(VINSERTI128_Y0_Y0_M##B##_RAX_I, VINSERTI128, REG(YMM0), REG(YMM0), MEMX(B, RAX, 1, 16), \
      IMM8)                                                                                 \
    X86_GATHER_STREAM_HALF(B, 0)                                                            \
    X86_GATHER_STREAM_HALF(B, 1)
/* ... into xmm<D>: a load of 1-16 bytes, and an insert of 1-8 */
#define X86_GATHER_STREAM_HALF(B, D)                                                        \
    S(VPINSRB_X##D##_X15_M##B##_RAX, VPINSRB, REG(XMM##D), REG(XMM15), MEMX(B, RAX, 1, 1), IMM8) \
    S(VPINSRW_X##D##_X15_M##B##_RAX, VPINSRW, REG(XMM##D), REG(XMM15), MEMX(B, RAX, 1, 2), IMM8) \
    S(VMOVD_X##D##_M##B##_RAX, VMOVD, REG(XMM##D), MEMX(B, RAX, 1, 4))                       \
    S(VMOVQ_X##D##_M##B##_RAX, VMOVQ, REG(XMM##D), MEMX(B, RAX, 1, 8))                       \
    S(VMOVDQU_X##D##_M##B##_RAX, VMOVDQU, REG(XMM##D), MEMX(B, RAX, 1, 16))                  \
    S(VPINSRB_X##D##_X##D##_M##B##_RAX, VPINSRB, REG(XMM##D), REG(XMM##D), MEMX(B, RAX, 1, 1),  \
      IMM8)                                                                                 \
    S(VPINSRW_X##D##_X##D##_M##B##_RAX, VPINSRW, REG(XMM##D), REG(XMM##D), MEMX(B, RAX, 1, 2),  \
      IMM8)                                                                                 \
    S(VPINSRD_X##D##_X##D##_M##B##_RAX, VPINSRD, REG(XMM##D), REG(XMM##D), MEMX(B, RAX, 1, 4),  \
      IMM8)                                                                                 \
    S(VPINSRQ_X##D##_X##D##_M##B##_RAX, VPINSRQ, REG(XMM##D), REG(XMM##D), MEMX(B, RAX, 1, 8),  \
      IMM8)
#define X86_HELD_CONTROL(K)                                                                 \
    S(VMOVDQU_X##K##_P, VMOVDQU, REG(XMM##K), RIP(16))                                       \
    S(VPSHUFB_X0_X0_X##K, VPSHUFB, REG(XMM0), REG(XMM0), REG(XMM##K))                        \
    S(VMULPS_X1_X0_X##K, VMULPS, REG(XMM1), REG(XMM0), REG(XMM##K))                          \
    S(VFMADD132PS_X0_X1_X##K, VFMADD132PS, REG(XMM0), REG(XMM1), REG(XMM##K))

/* The record program's 8-lane ops with their pool constant held in ymm<K> (the group loop
   loads the constants it uses most into ymm6..ymm14 once); the order is regform_shape's. */
#define X86_RP_REG_FORMS(K)                                                                 \
    S(VPSHUFB_Y0_Y0_Y##K, VPSHUFB, REG(YMM0), REG(YMM0), REG(YMM##K))                        \
    S(VPXOR_Y1_Y0_Y##K, VPXOR, REG(YMM1), REG(YMM0), REG(YMM##K))                            \
    S(VPXOR_Y1_Y1_Y##K, VPXOR, REG(YMM1), REG(YMM1), REG(YMM##K))                            \
    S(VMULPS_Y1_Y1_Y##K, VMULPS, REG(YMM1), REG(YMM1), REG(YMM##K))                          \
    S(VADDPS_Y1_Y1_Y##K, VADDPS, REG(YMM1), REG(YMM1), REG(YMM##K))                          \
    S(VPSLLVD_Y1_Y0_Y##K, VPSLLVD, REG(YMM1), REG(YMM0), REG(YMM##K))                        \
    S(VPAND_Y1_Y1_Y##K, VPAND, REG(YMM1), REG(YMM1), REG(YMM##K))                            \
    S(VPOR_Y2_Y0_Y##K, VPOR, REG(YMM2), REG(YMM0), REG(YMM##K))                              \
    S(VPMULLW_Y3_Y0_Y##K, VPMULLW, REG(YMM3), REG(YMM0), REG(YMM##K))                        \
    S(VPMULLW_Y4_Y0_Y##K, VPMULLW, REG(YMM4), REG(YMM0), REG(YMM##K))                        \
    S(VPAND_Y3_Y3_Y##K, VPAND, REG(YMM3), REG(YMM3), REG(YMM##K))                            \
    S(VPAND_Y4_Y4_Y##K, VPAND, REG(YMM4), REG(YMM4), REG(YMM##K))                            \
    S(VPMULHUW_Y5_Y3_Y##K, VPMULHUW, REG(YMM5), REG(YMM3), REG(YMM##K))                      \
    S(VPMULHUW_Y5_Y4_Y##K, VPMULHUW, REG(YMM5), REG(YMM4), REG(YMM##K))                      \
    S(VPOR_Y3_Y3_Y##K, VPOR, REG(YMM3), REG(YMM3), REG(YMM##K))                              \
    S(VMULPS_Y3_Y1_Y##K, VMULPS, REG(YMM3), REG(YMM1), REG(YMM##K))                          \
    S(VFMADD132PS_Y1_Y3_Y##K, VFMADD132PS, REG(YMM1), REG(YMM3), REG(YMM##K))                \
    S(VMOVDQU_Y##K##_P, VMOVDQU, REG(YMM##K), RIP(32))

/* A GX format's batched draw (lib/jit/x86_batch.c): rsi the draw's parameters, rdx the batch,
   rcx the primitive's slot, r8 the result; its checks, the indices from the count's tiny entry
   (r11 the primitive plan, r10 the indices' place, xmm0 the base in every lane), the batch's
   figures. */
#define X86_BATCH_SHAPES                                                                    \
    S(LEA_R9D_MRAX, LEA, REG(R9D), MEM(RAX, 8))                                             \
    S(CMP_R9D_I, CMP, REG(R9D), IMM32)                                                      \
    S(IMUL_R11_RAX_I, IMUL, REG(R11), REG(RAX), IMMS)                                       \
    S(CMP_R9_MRSI, CMP, REG(R9), MEM(RSI, 8))                                               \
    S(MOV_R9_MRDX, MOV, REG(R9), MEM(RDX, 8))                                               \
    S(MOV_R10_MRDX, MOV, REG(R10), MEM(RDX, 8))                                             \
    S(SUB_R10_R9, SUB, REG(R10), REG(R9))                                                   \
    S(CMP_R11_R10, CMP, REG(R11), REG(R10))                                                 \
    S(CMP_MRDX_I, CMP, MEM(RDX, 8), IMM8)                                                   \
    S(MOV_R9D_MRDX, MOV, REG(R9D), MEM(RDX, 4))                                             \
    S(TEST_R9D_R9D, TEST, REG(R9D), REG(R9D))                                               \
    S(CMP_MRDX32_I, CMP, MEM(RDX, 4), IMM32)                                                \
    S(MOV_R10D_MRCX, MOV, REG(R10D), MEM(RCX, 4))                                           \
    S(CMP_R9_MRCX, CMP, REG(R9), MEM(RCX, 8))                                               \
    S(TEST_MRCX_R10, TEST, MEM(RCX, 8), REG(R10))                                           \
    S(BT_R10D_EAX, BT, REG(R10D), REG(EAX))                                                 \
    S(IMUL_EDI_MRCX, IMUL, REG(EDI), MEM(RCX, 4))                                           \
    S(IMUL_R10_MRCX, IMUL, REG(R10), MEM(RCX, 8))                                           \
    S(MOVZX_EDI_B_MRCX_RAX, MOVZX, REG(EDI), MEMX(RCX, RAX, 1, 1))                          \
    S(MOVZX_R9D_W_MRCX_RAX2, MOVZX, REG(R9D), MEMX(RCX, RAX, 2, 2))                         \
    S(MOVZX_R11D_W_MRCX_RAX2, MOVZX, REG(R11D), MEMX(RCX, RAX, 2, 2))                       \
    S(TEST_R10_R10, TEST, REG(R10), REG(R10))                                               \
    S(MOV_R11_MRCX, MOV, REG(R11), MEM(RCX, 8))                                             \
    S(MOV_EDI_MRDX, MOV, REG(EDI), MEM(RDX, 4))                                             \
    S(VMOVD_X0_EDI, VMOVD, REG(XMM0), REG(EDI))                                             \
    S(ADD_R10_MRDX, ADD, REG(R10), MEM(RDX, 8))                                             \
    S(CMP_R9_I, CMP, REG(R9), IMMS)                                                         \
    S(VMOVDQU_X1_MR11, VMOVDQU, REG(XMM1), MEM(R11, 16))                                    \
    S(VPAND_X2_X0_MR11, VPAND, REG(XMM2), REG(XMM0), MEM(R11, 16))                          \
    S(VPADDD_X1_X1_X2, VPADDD, REG(XMM1), REG(XMM1), REG(XMM2))                             \
    S(VMOVDQU_MR10_X1, VMOVDQU, MEM(R10, 16), REG(XMM1))                                    \
    S(ADD_R11_I, ADD, REG(R11), IMMS)                                                       \
    S(SUB_R9_I, SUB, REG(R9), IMMS)                                                         \
    S(TEST_R9D_I, TEST, REG(R9D), IMM32)                                                    \
    S(VMOVQ_MR10_X1, VMOVQ, MEM(R10, 8), REG(XMM1))                                         \
    S(VPSRLDQ_X1_X1_I, VPSRLDQ, REG(XMM1), REG(XMM1), IMM8)                                 \
    S(VMOVD_MR10_X1, VMOVD, MEM(R10, 4), REG(XMM1))                                         \
    S(VMOVD_R9D_X1, VMOVD, REG(R9D), REG(XMM1))                                             \
    S(MOV_MR10_R9W, MOV, MEM(R10, 2), REG(R9W))                                             \
    S(ADD_MRDX_R9, ADD, MEM(RDX, 8), REG(R9))                                               \
    S(ADD_MRDX_EAX, ADD, MEM(RDX, 4), REG(EAX))                                             \
    S(ADD_MRDX_RDI, ADD, MEM(RDX, 8), REG(RDI))                                             \
    S(TEST_R8_R8, TEST, REG(R8), REG(R8))                                                   \
    S(MOV_MR8_RDI, MOV, MEM(R8, 8), REG(RDI))                                               \
    S(MOV_MRSP_R8, MOV, MEM(RSP, 8), REG(R8))                                               \
    S(MOV_RDX_R10, MOV, REG(RDX), REG(R10))                                                 \
    S(MOV_ECX_EAX, MOV, REG(ECX), REG(EAX))                                                 \
    S(ADD_R9_MRDX, ADD, REG(R9), MEM(RDX, 8))                                               \
    S(MOV_MRSI_R9, MOV, MEM(RSI, 8), REG(R9))                                               \
    S(MOV_MRSP_RCX, MOV, MEM(RSP, 8), REG(RCX))                                             \
    S(MOV_RCX_MRSP, MOV, REG(RCX), MEM(RSP, 8))                                             \
    S(MOV_MRSP_R9, MOV, MEM(RSP, 8), REG(R9))                                               \
    S(MOV_MR8_EAX, MOV, MEM(R8, 4), REG(EAX))                                               \
    S(MOV_MR8_R9D, MOV, MEM(R8, 4), REG(R9D))                                               \
    S(MOV_MR8_I, MOV, MEM(R8, 4), IMM32)

#define X86_SHAPES                                                                          \
    X86_BATCH_SHAPES                                                                        \
    X86_RP_SHAPES(Y, YMM, 32)                                                               \
    X86_RP_SHAPES(X, XMM, 16)                                                               \
    X86_RP_REG_FORMS(6)                                                                     \
    X86_RP_REG_FORMS(7)                                                                     \
    X86_RP_REG_FORMS(8)                                                                     \
    X86_RP_REG_FORMS(9)                                                                     \
    X86_RP_REG_FORMS(10)                                                                    \
    X86_RP_REG_FORMS(11)                                                                    \
    X86_RP_REG_FORMS(12)                                                                    \
    X86_RP_REG_FORMS(13)                                                                    \
    X86_RP_REG_FORMS(14)                                                                    \
    X86_ARRAY_BASE(RBX)                                                                     \
    X86_ARRAY_BASE(RBP)                                                                     \
    X86_ARRAY_BASE(R12)                                                                     \
    X86_ARRAY_BASE(R13)                                                                     \
    X86_ARRAY_BASE(R14)                                                                     \
    X86_ARRAY_BASE(R15)                                                                     \
    X86_ARRAY_ELEMENTS(R10) /* its MOV_R10_MRSI is among the general shapes */               \
    X86_ARRAY_BASE(R11)                                                                     \
    X86_ARRAY_ELEMENTS(RAX) /* an array no register holds (MOV_RAX_MRSI: general shapes) */ \
    X86_HELD_CONTROL(6)                                                                     \
    X86_HELD_CONTROL(7)                                                                     \
    X86_HELD_CONTROL(8)                                                                     \
    X86_HELD_CONTROL(9)                                                                     \
    X86_HELD_CONTROL(10)                                                                    \
    X86_HELD_CONTROL(11)                                                                    \
    X86_HELD_CONTROL(12)                                                                    \
    X86_HELD_CONTROL(13)                                                                    \
    X86_HELD_CONTROL(14)                                                                    \
    X86_BASE_LOADS(RDI)                                                                     \
    X86_BASE_LOADS(R8)                                                                      \
    X86_BASE_LOADS(R9)                                                                      \
    X86_BASE_LOADS(RSI)                                                                     \
    X86_BASE_LOADS(RBX)                                                                     \
    X86_BASE_LOADS(RBP)                                                                     \
    X86_BASE_LOADS(R12)                                                                     \
    X86_BASE_LOADS(R13)                                                                     \
    X86_BASE_LOADS(R14)                                                                     \
    X86_BASE_LOADS(R15)                                                                     \
    X86_WINDOW_LOADS(RDI)                                                                   \
    X86_WINDOW_LOADS(R8)                                                                    \
    X86_WINDOW_LOADS(R9)                                                                    \
    X86_WINDOW_LOADS(RSI)                                                                   \
    X86_WINDOW_LOADS(RBX)                                                                   \
    X86_WINDOW_LOADS(RBP)                                                                   \
    X86_WINDOW_LOADS(R12)                                                                   \
    X86_WINDOW_LOADS(R13)                                                                   \
    X86_WINDOW_LOADS(R14)                                                                   \
    X86_WINDOW_LOADS(R15)                                                                   \
    /* a plan's frame: streams past the registers, kept at [rsp] and loaded into r15 for   \
       an op; an index buffer's state (entries, offset, highest index) */                  \
    S(SUB_RSP_I, SUB, REG(RSP), IMM32)                                                      \
    S(ADD_RSP_I, ADD, REG(RSP), IMM32)                                                      \
    /* (MOV_R15_MRSP: X86_BASE_LOADS) */                                                   \
    S(MOV_MRSP_R15, MOV, MEM(RSP, 8), REG(R15))                                             \
    S(ADD_MRSP_I, ADD, MEM(RSP, 8), IMMS)                                                   \
    S(MOV_RAX_MRDI, MOV, REG(RAX), MEM(RDI, 8))                                             \
    S(MOV_RAX_MRSI, MOV, REG(RAX), MEM(RSI, 8))                                             \
    S(MOV_RAX_MRCX, MOV, REG(RAX), MEM(RCX, 8))                                             \
    S(MOVZX_EAX_W_MRAX, MOVZX, REG(EAX), MEM(RAX, 2))                                       \
    S(MOV_EAX_MRAX, MOV, REG(EAX), MEM(RAX, 4))                                             \
    S(CMP_MRSP_I, CMP, MEM(RSP, 8), IMMS)                                                   \
    S(MOV_R10_MRSP, MOV, REG(R10), MEM(RSP, 8))                                             \
    S(SUB_R10_RAX, SUB, REG(R10), REG(RAX))                                                 \
    S(CMP_R10_MRSP, CMP, REG(R10), MEM(RSP, 8))                                             \
    S(CMOVNLE_R10_MRSP, CMOVNLE, REG(R10), MEM(RSP, 8))                                     \
    S(ADD_RAX_R10, ADD, REG(RAX), REG(R10))                                                 \
    /* ... held in registers for a one-stream plan: entries r8, offset rsi, highest r9 */    \
    S(MOV_R10_RCX, MOV, REG(R10), REG(RCX))                                                 \
    S(MOV_R8_MR10, MOV, REG(R8), MEM(R10, 8))                                               \
    S(MOV_RSI_MR10, MOV, REG(RSI), MEM(R10, 8))                                             \
    S(MOV_R9_MR10, MOV, REG(R9), MEM(R10, 8))                                               \
    S(CMP_MR10_I, CMP, MEM(R10, 8), IMMS)                                                   \
    S(LEA_RAX_MR9, LEA, REG(RAX), MEM(R9, 8))                                               \
    S(CMP_RSI_RAX, CMP, REG(RSI), REG(RAX))                                                 \
    S(CMOVNLE_RSI_RAX, CMOVNLE, REG(RSI), REG(RAX))                                         \
    S(MOVZX_EAX_W_MR8, MOVZX, REG(EAX), MEM(R8, 2))                                         \
    S(ADD_RAX_RSI, ADD, REG(RAX), REG(RSI))                                                 \
    S(CMP_RAX_R9, CMP, REG(RAX), REG(R9))                                                   \
    S(CMOVNLE_RAX_R9, CMOVNLE, REG(RAX), REG(R9))                                           \
    /* the record program's group loops */                                                  \
    /* binary16 lanes: their halves gathered into one register (ymm6) and widened */       \
    S(VPERMQ_Y6_Y6_I, VPERMQ, REG(YMM6), REG(YMM6), IMM8)                                   \
    S(VCVTPH2PS_Y6_X6, VCVTPH2PS, REG(YMM6), REG(XMM6))                                     \
    S(VCVTPH2PS_X6_X6, VCVTPH2PS, REG(XMM6), REG(XMM6))                                     \
    S(CMP_RCX_I, CMP, REG(RCX), IMMS)                                                       \
    S(CMP_RDI_R10, CMP, REG(RDI), REG(R10))                                                 \
    S(SUB_RCX_I, SUB, REG(RCX), IMMS)                                                       \
    S(ADD_RCX_I, ADD, REG(RCX), IMMS)                                                       \
    S(MOV_R10_MRSI, MOV, REG(R10), MEM(RSI, 8))                                             \
    S(SUB_R10_I, SUB, REG(R10), IMM32)                                                      \
    S(ADD_R10_MRSI, ADD, REG(R10), MEM(RSI, 8))                                             \
    S(TEST_RCX_RCX, TEST, REG(RCX), REG(RCX))                                               \
    S(MOV_RCX_RSI, MOV, REG(RCX), REG(RSI))                                                 \
    S(VPXOR_X0_X0_X0, VPXOR, REG(XMM0), REG(XMM0), REG(XMM0))                               \
    S(VMOVDQU_X0_P, VMOVDQU, REG(XMM0), RIP(16))                                            \
    S(VPCMPEQD_X0_X0_X0, VPCMPEQD, REG(XMM0), REG(XMM0), REG(XMM0))                         \
    S(VPSLLDQ_X0_X0_I, VPSLLDQ, REG(XMM0), REG(XMM0), IMM8)                                 \
    /* the draw's checks (rsi the parameters), loop counters, results, the way out */      \
    S(CMP_MRSI_I32, CMP, MEM(RSI, 4), IMM8)                                                 \
    S(CMP_MRSI_Q_I32, CMP, MEM(RSI, 8), IMM32)                                              \
    S(IMUL_RAX_RCX_I, IMUL, REG(RAX), REG(RCX), IMMS)                                       \
    S(LEA_EAX_RCX_M1, LEA, REG(EAX), MEM(RCX, 8))                                           \
    S(MOV_MRSP_RDX, MOV, MEM(RSP, 8), REG(RDX))                                             \
    S(MOV_RDX_MRSP, MOV, REG(RDX), MEM(RSP, 8))                                             \
    S(TEST_RDX_RDX, TEST, REG(RDX), REG(RDX))                                               \
    S(SUB_EAX_R9D, SUB, REG(EAX), REG(R9D))                                                 \
    S(MOV_MRDX_R9D, MOV, MEM(RDX, 4), REG(R9D))                                             \
    S(MOV_MRDX_R9, MOV, MEM(RDX, 8), REG(R9))                                               \
    S(PUSH_RDX, PUSH, REG(RDX))                                                             \
    S(POP_RDX, POP, REG(RDX))                                                               \
    S(XOR_EAX_EAX, XOR, REG(EAX), REG(EAX))                                                 \
    S(MOV_RDI_I64, MOV, REG(RDI), IMM64)                                                    \
    S(MOV_RAX_I64, MOV, REG(RAX), IMM64)                                                    \
    S(MOV_R11_I64, MOV, REG(R11), IMM64)                                                    \
    S(JMP_RAX, JMP, REG(RAX))                                                               \
    S(CALL_RAX, CALL, REG(RAX))                                                             \
    S(MOV_RDI_RAX, MOV, REG(RDI), REG(RAX))                                                 \
    S(MOV_RDI_MRSI, MOV, REG(RDI), MEM(RSI, 8))                                             \
    S(MOV_ECX_MRSI, MOV, REG(ECX), MEM(RSI, 4))                                             \
    S(MOV_RDX_MRSI, MOV, REG(RDX), MEM(RSI, 8))                                             \
    S(XOR_R9D_R9D, XOR, REG(R9D), REG(R9D))                                                 \
    S(ADD_RDX_I, ADD, REG(RDX), IMMS)                                                       \
    S(ADD_R10_I, ADD, REG(R10), IMMS)                                                       \
    S(DEC_RCX, DEC, REG(RCX))                                                               \
    S(DEC_R11, DEC, REG(R11))                                                               \
    S(INC_R9, INC, REG(R9))                                                                 \
    S(MOV_RAX_R9, MOV, REG(RAX), REG(R9))                                                   \
    S(OR_RAX_I, OR, REG(RAX), IMM8)                                                         \
    S(RET, RET)                                                                             \
    S(JMP, JMP, REL)                                                                        \
    S(JZ, JZ, REL)                                                                          \
    S(JNZ, JNZ, REL)                                                                        \
    S(JNBE, JNBE, REL)                                                                      \
    S(JNB, JNB, REL)                                                                        \
    S(JS, JS, REL)                                                                          \
    /* pass 1: skip values and the highest index of each copy (in the red zone) */         \
    S(CMP_MRSI_I, CMP, MEM(RSI, 8), IMM8)                                                   \
    S(MOV_MRSP_I, MOV, MEM(RSP, 8), IMM32)                                                  \
    S(MOV_R10_RDI, MOV, REG(R10), REG(RDI))                                                 \
    S(MOV_R11_RCX, MOV, REG(R11), REG(RCX))                                                 \
    S(MOV_R9_RCX, MOV, REG(R9), REG(RCX))                                                   \
    /* a one-stream plan's record 0 held in r11 under an index buffer: the record of index  \
       rax at r11 + rax * stride */                                                          \
    S(MOV_R11_RAX, MOV, REG(R11), REG(RAX))                                                 \
    S(MOV_R11_RDI, MOV, REG(R11), REG(RDI))                                                 \
    S(MOV_RDI_R11, MOV, REG(RDI), REG(R11))                                                 \
    S(LEA_RDI_MR11_RAX_1, LEA, REG(RDI), MEMX(R11, RAX, 1, 8))                              \
    S(LEA_RDI_MR11_RAX_2, LEA, REG(RDI), MEMX(R11, RAX, 2, 8))                              \
    S(LEA_RDI_MR11_RAX_4, LEA, REG(RDI), MEMX(R11, RAX, 4, 8))                              \
    S(LEA_RDI_MR11_RAX_8, LEA, REG(RDI), MEMX(R11, RAX, 8, 8))                              \
    S(MOVZX_EAX_B_MR10, MOVZX, REG(EAX), MEM(R10, 1))                                       \
    S(MOVZX_EAX_W_MR10, MOVZX, REG(EAX), MEM(R10, 2))                                       \
    S(CMP_EAX_I, CMP, REG(EAX), IMM32)                                                      \
    S(ROL_AX_8, ROL, REG(AX), IMM8)                                                         \
    S(CMP_RAX_MRSP, CMP, REG(RAX), MEM(RSP, 8))                                             \
    S(XOR_EDX_EDX, XOR, REG(EDX), REG(EDX))                                                 \
    S(CMP_RAX_R8, CMP, REG(RAX), REG(R8))                                                   \
    S(CMP_RAX_RDX, CMP, REG(RAX), REG(RDX))                                                 \
    S(CMOVNBE_R8_RAX, CMOVNBE, REG(R8), REG(RAX))                                           \
    S(CMOVNBE_RDX_RAX, CMOVNBE, REG(RDX), REG(RAX))                                         \
    S(MOV_RAX_R8, MOV, REG(RAX), REG(R8))                                                   \
    S(MOV_RAX_RDX, MOV, REG(RAX), REG(RDX))                                                 \
    S(CMOVB_RAX_MRSP, CMOVB, REG(RAX), MEM(RSP, 8))                                         \
    S(MOV_MRSP_RAX, MOV, MEM(RSP, 8), REG(RAX))                                             \
    S(MOV_RAX_MRSP, MOV, REG(RAX), MEM(RSP, 8))                                             \
    S(CMP_R9_RCX, CMP, REG(R9), REG(RCX))                                                   \
    S(IMUL_RAX_I, IMUL, REG(RAX), REG(RAX), IMMS)                                           \
    S(ADD_RAX_I, ADD, REG(RAX), IMMS)                                                       \
    S(CMP_RAX_MRSI, CMP, REG(RAX), MEM(RSI, 8))                                             \
    /* pass 1 by vectors: every index of a vertex in a 16-bit lane, maxima by vpmaxuw */   \
    X86_GATHER_LOADS(1)                                                                     \
    X86_GATHER_LOADS(2)                                                                     \
    X86_GATHER_LOADS(4)                                                                     \
    X86_GATHER_LOADS(8)                                                                     \
    X86_GATHER_STREAM_LOADS(RDI)                                                            \
    X86_GATHER_STREAM_LOADS(RBX)                                                            \
    X86_GATHER_STREAM_LOADS(RBP)                                                            \
    X86_GATHER_STREAM_LOADS(R12)                                                            \
    X86_GATHER_STREAM_LOADS(R13)                                                            \
    X86_GATHER_STREAM_LOADS(R14)                                                            \
    X86_GATHER_STREAM_LOADS(R15)                                                            \
    X86_OFFSET_LOADS(RDI)                                                                   \
    X86_OFFSET_LOADS(RBX)                                                                   \
    X86_OFFSET_LOADS(RBP)                                                                   \
    X86_OFFSET_LOADS(R12)                                                                   \
    X86_OFFSET_LOADS(R13)                                                                   \
    X86_OFFSET_LOADS(R14)                                                                   \
    X86_OFFSET_LOADS(R15)                                                                   \
    S(VINSERTI128_Y0_Y0_X1_I, VINSERTI128, REG(YMM0), REG(YMM0), REG(XMM1), IMM8)           \
    S(VPXOR_X2_X2_X2, VPXOR, REG(XMM2), REG(XMM2), REG(XMM2))                               \
    S(VPMAXUW_Y2_Y2_Y0, VPMAXUW, REG(YMM2), REG(YMM2), REG(YMM0))                           \
    S(VMOVDQU_MRSP_Y2, VMOVDQU, MEM(RSP, 32), REG(YMM2))                                    \
    S(MOVZX_EAX_W_MRSP, MOVZX, REG(EAX), MEM(RSP, 2))                                       \
    /* ... and several vertices a register where they are small (skipped ones folded in) */   \
    S(VPADDW_Y0_Y0_P, VPADDW, REG(YMM0), REG(YMM0), RIP(32))                                \
    S(IMUL_RAX_R11_I, IMUL, REG(RAX), REG(R11), IMMS)                                       \
    S(ADD_RAX_RDI, ADD, REG(RAX), REG(RDI))                                                 \
    S(VMOVDQU_X0_MRAX, VMOVDQU, REG(XMM0), MEM(RAX, 16))                                    \
    S(VINSERTI128_Y0_Y0_MRAX_I, VINSERTI128, REG(YMM0), REG(YMM0), MEM(RAX, 16), IMM8)      \
    S(VPXOR_X3_X3_X3, VPXOR, REG(XMM3), REG(XMM3), REG(XMM3))                               \
    S(ADD_R9_RAX, ADD, REG(R9), REG(RAX))                                                   \
    S(SUB_R11_I, SUB, REG(R11), IMMS)                                                       \
    S(CMP_R11_I, CMP, REG(R11), IMMS)                                                       \
    S(TEST_R11_R11, TEST, REG(R11), REG(R11))                                               \
    S(VEXTRACTI128_X1_Y2_I, VEXTRACTI128, REG(XMM1), REG(YMM2), IMM8)                       \
    S(VPMAXUW_X2_X2_X1, VPMAXUW, REG(XMM2), REG(XMM2), REG(XMM1))                           \
    /* pass 1 at SSE4.1: each window's indices folded into its own register */              \
    S(VPSHUFB_X1_X1_P, VPSHUFB, REG(XMM1), REG(XMM1), RIP(16))                               \
    S(VPMAXUW_X2_X2_X0, VPMAXUW, REG(XMM2), REG(XMM2), REG(XMM0))                           \
    S(VPMAXUW_X3_X3_X1, VPMAXUW, REG(XMM3), REG(XMM3), REG(XMM1))                           \
    S(VMOVDQU_MRSP_X2, VMOVDQU, MEM(RSP, 16), REG(XMM2))                                    \
    S(VMOVDQU_MRSP_X3, VMOVDQU, MEM(RSP, 16), REG(XMM3))                                    \
    S(VPSRLDQ_X1_X2_I, VPSRLDQ, REG(XMM1), REG(XMM2), IMM8)                                 \
    S(VPSUBW_X2_X2_P, VPSUBW, REG(XMM2), REG(XMM2), RIP(16))                                \
    /* ... the position's lane biased one vertex a register */                              \
    S(VPSUBW_Y2_Y2_P, VPSUBW, REG(YMM2), REG(YMM2), RIP(32))                                \
    S(VPADDW_X0_X0_P, VPADDW, REG(XMM0), REG(XMM0), RIP(16))                                \
    /* pass 2: an indexed copy's element into r8 */                                        \
    S(MOVZX_R8D_B_MRDI, MOVZX, REG(R8D), MEM(RDI, 1))                                       \
    S(MOVZX_R8D_W_MRDI, MOVZX, REG(R8D), MEM(RDI, 2))                                       \
    S(ROL_R8W_8, ROL, REG(R8W), IMM8)                                                       \
    S(MOVBE_R8W_MRDI, MOVBE, REG(R8W), MEM(RDI, 2))                                         \
    S(CMP_R8D_I, CMP, REG(R8D), IMM32)                                                      \
    S(XOR_R8D_R8D, XOR, REG(R8D), REG(R8D))                                                 \
    S(SHL_R8_I, SHL, REG(R8), IMM8)                                                         \
    S(IMUL_R8_I, IMUL, REG(R8), REG(R8), IMMS)                                              \
    S(LEA_R8_MR8_R8X2, LEA, REG(R8), MEMX(R8, R8, 2, 8))                                     \
    S(LEA_R8_MR8_R8X4, LEA, REG(R8), MEMX(R8, R8, 4, 8))                                     \
    S(LEA_R8_MR8_R8X8, LEA, REG(R8), MEMX(R8, R8, 8, 8))                                     \
    S(ADD_R8_MRSI, ADD, REG(R8), MEM(RSI, 8))                                               \
    /* conversions */                                                                       \
    S(VPSLLD_X0_X0_I, VPSLLD, REG(XMM0), REG(XMM0), IMM8)                                   \
    S(VPSLLD_X1_X0_I, VPSLLD, REG(XMM1), REG(XMM0), IMM8)                                   \
    S(VPSLLVD_X0_X0_P, VPSLLVD, REG(XMM0), REG(XMM0), RIP(16))                              \
    S(VPSRAD_X0_X0_I, VPSRAD, REG(XMM0), REG(XMM0), IMM8)                                   \
    S(VPSRAVD_X0_X0_P, VPSRAVD, REG(XMM0), REG(XMM0), RIP(16))                              \
    S(VPSRLD_X0_X0_I, VPSRLD, REG(XMM0), REG(XMM0), IMM8)                                   \
    S(VPSRLVD_X0_X0_P, VPSRLVD, REG(XMM0), REG(XMM0), RIP(16))                              \
    S(VMOVDQA_X1_X0, VMOVDQA, REG(XMM1), REG(XMM0))                                         \
    S(VPACKUSDW_X0_X0_X0, VPACKUSDW, REG(XMM0), REG(XMM0), REG(XMM0))                       \
    S(VPACKUSWB_X0_X0_X0, VPACKUSWB, REG(XMM0), REG(XMM0), REG(XMM0))                       \
    S(VCVTPH2PS_X0_X0, VCVTPH2PS, REG(XMM0), REG(XMM0))                                     \
    S(VCVTDQ2PS_X0_X0, VCVTDQ2PS, REG(XMM0), REG(XMM0))                                     \
    S(VMULPS_X0_X0_P, VMULPS, REG(XMM0), REG(XMM0), RIP(16))                                \
    S(VDIVPS_X0_X0_P, VDIVPS, REG(XMM0), REG(XMM0), RIP(16))                                \
    S(VMULPS_X1_X0_P, VMULPS, REG(XMM1), REG(XMM0), RIP(16))                                \
    S(VFMADD132PS_X0_X1_P, VFMADD132PS, REG(XMM0), REG(XMM1), RIP(16))                      \
    S(VMAXPS_X0_X0_P, VMAXPS, REG(XMM0), REG(XMM0), RIP(16))                                \
    S(VPADDD_X0_X0_X0, VPADDD, REG(XMM0), REG(XMM0), REG(XMM0))                             \
    S(VPADDD_X0_X0_P, VPADDD, REG(XMM0), REG(XMM0), RIP(16))                                \
    S(VPOR_X0_X0_X1, VPOR, REG(XMM0), REG(XMM0), REG(XMM1))                                 \
    S(VPOR_X0_X0_P, VPOR, REG(XMM0), REG(XMM0), RIP(16))                                    \
    S(VPSHUFD_X0_X0_I, VPSHUFD, REG(XMM0), REG(XMM0), IMM8)                                 \
    S(VBLENDPS_X0_X0_P_I, VBLENDPS, REG(XMM0), REG(XMM0), RIP(16), IMM8)                    \
    /* one-byte integer fields (matrix indices): several a register, or in eax */           \
    S(VPMOVZXBD_Y0_MRDI, VPMOVZXBD, REG(YMM0), MEM(RDI, 8))                                 \
    S(VPMOVZXBD_X0_MRDI, VPMOVZXBD, REG(XMM0), MEM(RDI, 4))                                 \
    S(VPSRLD_Y0_Y0_I, VPSRLD, REG(YMM0), REG(YMM0), IMM8)                                   \
    S(VPAND_Y0_Y0_P, VPAND, REG(YMM0), REG(YMM0), RIP(32))                                  \
    S(VPAND_X0_X0_P, VPAND, REG(XMM0), REG(XMM0), RIP(16))                                  \
    S(VCVTDQ2PS_Y0_Y0, VCVTDQ2PS, REG(YMM0), REG(YMM0))                                     \
    S(VMULPS_Y0_Y0_P, VMULPS, REG(YMM0), REG(YMM0), RIP(32))                                \
    S(VEXTRACTF128_X0_Y0_I, VEXTRACTF128, REG(XMM0), REG(YMM0), IMM8)                       \
    S(SHR_EAX_I, SHR, REG(EAX), IMM8)                                                       \
    S(AND_EAX_I, AND, REG(EAX), IMMS)                                                       \
    S(VCVTSI2SS_X0_X15_EAX, VCVTSI2SS, REG(XMM0), REG(XMM15), REG(EAX))                     \
    S(VMULSS_X0_X0_P, VMULSS, REG(XMM0), REG(XMM0), RIP(4))                                 \
    /* an op's lanes from several loads (streams, or more than 16 bytes apart), merged */   \
    S(VPSHUFB_X2_X0_P, VPSHUFB, REG(XMM2), REG(XMM0), RIP(16))                              \
    S(VPOR_X2_X2_X0, VPOR, REG(XMM2), REG(XMM2), REG(XMM0))                                 \
    S(VPOR_X0_X0_X2, VPOR, REG(XMM0), REG(XMM0), REG(XMM2))                                 \
    /* 32-bit unsigned fields to float: the high and low halves converted and added (one   \
       rounding); the divisions by 2^32 - 1 and 2^31 - 1 a lane at a time, as the nearest   \
       float to (m 2^k + m) 2^-2k (64 bits, halved where it may reach 2^64) */             \
    S(VPSRLD_X1_X0_I, VPSRLD, REG(XMM1), REG(XMM0), IMM8)                                   \
    S(VADDPS_X0_X0_X1, VADDPS, REG(XMM0), REG(XMM0), REG(XMM1))                             \
    S(VPEXTRD_EAX_X0_I, VPEXTRD, REG(EAX), REG(XMM0), IMM8)                                 \
    S(MOV_R10_RAX, MOV, REG(R10), REG(RAX))                                                 \
    S(SHL_R10_I, SHL, REG(R10), IMM8)                                                       \
    S(OR_R10_RAX, OR, REG(R10), REG(RAX))                                                   \
    S(MOV_RAX_R10, MOV, REG(RAX), REG(R10))                                                 \
    S(SHR_RAX_I, SHR, REG(RAX), IMM8)                                                       \
    S(VCVTSI2SS_X1_X15_RAX, VCVTSI2SS, REG(XMM1), REG(XMM15), REG(RAX))                     \
    S(VINSERTPS_X3_X3_X1_I, VINSERTPS, REG(XMM3), REG(XMM3), REG(XMM1), IMM8)               \
    S(VMULPS_X0_X3_P, VMULPS, REG(XMM0), REG(XMM3), RIP(16))                                \
    S(VPABSD_X0_X0, VPABSD, REG(XMM0), REG(XMM0))                                           \
    S(VPAND_X4_X0_P, VPAND, REG(XMM4), REG(XMM0), RIP(16))                                  \
    S(VPOR_X0_X0_X4, VPOR, REG(XMM0), REG(XMM0), REG(XMM4))                                 \
    /* the SSE4.1 code's own: shifts of lanes by different counts (multiplies by powers of  \
       two; shifts by each count, blended), binary16 to float by integers (no F16C) */      \
    S(VPMULLD_X0_X0_P, VPMULLD, REG(XMM0), REG(XMM0), RIP(16))                              \
    S(VPMULLD_X1_X0_P, VPMULLD, REG(XMM1), REG(XMM0), RIP(16))                              \
    S(VPSRLD_X3_X2_I, VPSRLD, REG(XMM3), REG(XMM2), IMM8)                                   \
    S(VPSRAD_X3_X2_I, VPSRAD, REG(XMM3), REG(XMM2), IMM8)                                   \
    S(VBLENDPS_X0_X0_X3_I, VBLENDPS, REG(XMM0), REG(XMM0), REG(XMM3), IMM8)                 \
    S(VPMOVZXWD_X0_X0, VPMOVZXWD, REG(XMM0), REG(XMM0))                                     \
    S(VPAND_X1_X0_P, VPAND, REG(XMM1), REG(XMM0), RIP(16))                                  \
    S(VPXOR_X0_X0_X1, VPXOR, REG(XMM0), REG(XMM0), REG(XMM1))                               \
    S(VPSLLD_X3_X1_I, VPSLLD, REG(XMM3), REG(XMM1), IMM8)                                   \
    S(VPADDD_X3_X3_P, VPADDD, REG(XMM3), REG(XMM3), RIP(16))                                \
    S(VPADDD_X3_X3_X4, VPADDD, REG(XMM3), REG(XMM3), REG(XMM4))                             \
    S(VPCMPGTD_X4_X1_P, VPCMPGTD, REG(XMM4), REG(XMM1), RIP(16))                            \
    S(VPCMPGTD_X4_X4_X1, VPCMPGTD, REG(XMM4), REG(XMM4), REG(XMM1))                         \
    S(VMOVDQU_X4_P, VMOVDQU, REG(XMM4), RIP(16))                                            \
    S(VCVTDQ2PS_X2_X1, VCVTDQ2PS, REG(XMM2), REG(XMM1))                                     \
    S(VMULPS_X2_X2_P, VMULPS, REG(XMM2), REG(XMM2), RIP(16))                                \
    S(VPAND_X2_X2_X4, VPAND, REG(XMM2), REG(XMM2), REG(XMM4))                               \
    S(VPANDN_X4_X4_X3, VPANDN, REG(XMM4), REG(XMM4), REG(XMM3))                             \
    S(VPOR_X2_X2_X4, VPOR, REG(XMM2), REG(XMM2), REG(XMM4))                                 \
    /* word copies: 16 bytes at a time, then 4 */                                           \
    S(SUB_RAX_I, SUB, REG(RAX), IMMS)                                                       \
    S(VMOVDQU_Y0_MRDI, VMOVDQU, REG(YMM0), MEM(RDI, 32))                                    \
    S(VMOVUPS_MRDX_Y0, VMOVUPS, MEM(RDX, 32), REG(YMM0))                                    \
    S(VZEROUPPER, VZEROUPPER)                                                               \
    S(ADD_RDI_RAX, ADD, REG(RDI), REG(RAX))                                                 \
    S(ADD_RDX_RAX, ADD, REG(RDX), REG(RAX))                                                 \
    S(CMP_RAX_I, CMP, REG(RAX), IMMS)                                                       \
    S(TEST_RAX_RAX, TEST, REG(RAX), REG(RAX))                                               \
    S(JB, JB, REL)                                                                          \
    S(MOV_R8D_MRDI, MOV, REG(R8D), MEM(RDI, 4))                                             \
    S(BSWAP_R8D, BSWAP, REG(R8D))                                                           \
    S(MOV_MRDX_R8D, MOV, MEM(RDX, 4), REG(R8D))                                             \
    S(MOV_R8_RDX, MOV, REG(R8), REG(RDX))                                                   \
    S(NEG_R8, NEG, REG(R8))                                                                 \
    S(AND_R8D_I, AND, REG(R8D), IMM8)                                                       \
    S(ADD_RDI_R8, ADD, REG(RDI), REG(R8))                                                   \
    S(ADD_RDX_R8, ADD, REG(RDX), REG(R8))                                                   \
    S(SUB_RAX_R8, SUB, REG(RAX), REG(R8))                                                   \
    S(JBE, JBE, REL)                                                                        \
    /* the avx512 level's long word copies, 64 bytes a step (EVEX: k0, no mask) */          \
    S(VMOVDQU64_Z0_MRDI, VMOVDQU64, REG(ZMM0), REG(K0), MEM(RDI, 64))                       \
    S(VMOVDQU64_MRDX_Z0, VMOVDQU64, MEM(RDX, 64), REG(K0), REG(ZMM0))                       \
    S(VPSHUFB_Z0_Z0_Z6, VPSHUFB, REG(ZMM0), REG(K0), REG(ZMM0), REG(ZMM6))                  \
    S(VBROADCASTI32X4_Z6_P, VBROADCASTI32X4, REG(ZMM6), REG(K0), RIP(16))                   \
    /* the 8-lane groups' stores as two 16-byte halves, where the output is off 32 bytes */ \
    S(TEST_EDX_I, TEST, REG(EDX), IMM32)                                                    \
    S(VEXTRACTI128_MRDX_Y0_I, VEXTRACTI128, MEM(RDX, 16), REG(YMM0), IMM8)                  \
    S(VEXTRACTI128_MRDX_Y1_I, VEXTRACTI128, MEM(RDX, 16), REG(YMM1), IMM8)                  \
    S(VEXTRACTI128_MRDX_Y2_I, VEXTRACTI128, MEM(RDX, 16), REG(YMM2), IMM8)                  \
    /* two elements' binary32 pairs in one register (x86_vertex.c) */                     \
    S(VMOVHPS_X0_X0_MR8, VMOVHPS, REG(XMM0), REG(XMM0), MEM(R8, 8))                         \
    /* a texture coordinate with its matrix index's float beside it (x86_vertex.c) */       \
    S(VMOVAPS_X5_X0, VMOVAPS, REG(XMM5), REG(XMM0))                                         \
    S(VMOVAPS_X4_X0, VMOVAPS, REG(XMM4), REG(XMM0))                                         \
    S(VEXTRACTF128_X4_Y0_I, VEXTRACTF128, REG(XMM4), REG(YMM0), IMM8)                       \
    S(VINSERTPS_X0_X0_X5_I, VINSERTPS, REG(XMM0), REG(XMM0), REG(XMM5), IMM8)               \
    S(VINSERTPS_X0_X0_X4_I, VINSERTPS, REG(XMM0), REG(XMM0), REG(XMM4), IMM8)               \
    /* RGB565 and RGBA4444 to RGBA8: the shared word table's load, or two 256-entry tables */ \
    S(LEA_R11_P, LEA, REG(R11), RIP(8))                                                     \
    S(MOV_EAX_MR11_RAX4, MOV, REG(EAX), MEMX(R11, RAX, 4, 4))                               \
    S(VPINSRD_X0_X0_MR11_RAX4_I, VPINSRD, REG(XMM0), REG(XMM0), MEMX(R11, RAX, 4, 4), IMM8)   \
    S(OR_EAX_MR11_R10_4, OR, REG(EAX), MEMX(R11, R10, 4, 4))                                \
    S(MOVZX_R10D_AL, MOVZX, REG(R10D), REG(AL))                                             \
    S(MOV_R10D_MR11_R10_4, MOV, REG(R10D), MEMX(R11, R10, 4, 4))                            \
    S(OR_R10D_MR11_RAX_4, OR, REG(R10D), MEMX(R11, RAX, 4, 4))                              \
    S(MOV_MRDX_R10D, MOV, MEM(RDX, 4), REG(R10D))                                           \
    /* stores into the output record (rdx) */                                              \
    S(VMOVD_MRDX_X0, VMOVD, MEM(RDX, 4), REG(XMM0))                                         \
    S(VMOVQ_MRDX_X0, VMOVQ, MEM(RDX, 8), REG(XMM0))                                         \
    S(VMOVUPS_MRDX_X0, VMOVUPS, MEM(RDX, 16), REG(XMM0))                                    \
    S(VEXTRACTPS_MRDX_X0_I, VEXTRACTPS, MEM(RDX, 4), REG(XMM0), IMM8)                       \
    S(MOV_MRDX_I, MOV, MEM(RDX, 4), IMM32)                                                  \
    S(MOV_MRDX_Q_I, MOV, MEM(RDX, 8), IMM32)                                                \
    S(MOV_MRDX_EAX, MOV, MEM(RDX, 4), REG(EAX))                                             \
    S(MOV_MRDX_ECX, MOV, MEM(RDX, 4), REG(ECX))

#endif
