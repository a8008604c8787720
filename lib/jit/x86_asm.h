/*
 * A small assembler over Zydis's encoder for the x86-64 generators: instructions appended to a
 * buffer whose run-time address is known (RIP-relative constants are absolute addresses in the
 * request), labels with 32-bit branch fix-ups, and a constant pool at the buffer's start.
 * Not installed.
 */
#ifndef VFETCH_JIT_X86_ASM_H
#define VFETCH_JIT_X86_ASM_H

#include <stddef.h>
#include <stdint.h>

#include <Zydis/Zydis.h>

#define X86_MAX_LABELS 64
#define X86_MAX_FIXUPS 128
#define X86_MAX_POOL 64

struct x86_asm {
    uint8_t *buf;       /**< where bytes are written */
    uint64_t runtime;   /**< the address buf[0] runs at */
    size_t len, cap;
    int failed;         /**< an encoding failed or the buffer is full: the result is unusable */
    size_t label_at[X86_MAX_LABELS]; /**< SIZE_MAX until bound */
    unsigned num_labels;
    struct { size_t at; unsigned label; } fixup[X86_MAX_FIXUPS]; /**< rel32 fields to patch */
    unsigned num_fixups;
    /** The constant pool: 16-byte entries at the start of the buffer, reserved up front. */
    size_t pool_at, pool_cap, pool_used;
};

/** Start an assembly into buf (cap bytes, running at runtime), with room for pool_entries
    16-byte constants at its start; code follows them. */
void x86_asm_init(struct x86_asm *a, uint8_t *buf, size_t cap, uint64_t runtime,
                  unsigned pool_entries);

/** The run-time address of a 16-byte constant (deduplicated); 0 and a failure when the pool
    is full. */
uint64_t x86_const(struct x86_asm *a, const void *bytes16);

/** Append one instruction. */
void x86_emit(struct x86_asm *a, ZydisMnemonic mnemonic, unsigned n,
              const ZydisEncoderOperand *ops);
#define X86_NARGS(...) (sizeof((ZydisEncoderOperand[]){ __VA_ARGS__ }) / sizeof(ZydisEncoderOperand))
#define X86(a, m, ...)                                                                      \
    x86_emit((a), ZYDIS_MNEMONIC_##m, (unsigned)X86_NARGS(__VA_ARGS__),                     \
             (ZydisEncoderOperand[]){ __VA_ARGS__ })

#define X86_0(a, m) x86_emit((a), ZYDIS_MNEMONIC_##m, 0, NULL)

static inline ZydisEncoderOperand x86_reg(ZydisRegister r)
{
    ZydisEncoderOperand o = { .type = ZYDIS_OPERAND_TYPE_REGISTER };
    o.reg.value = r;
    return o;
}

/** [base + disp], size bytes (base ZYDIS_REGISTER_RIP: disp is the absolute address). */
static inline ZydisEncoderOperand x86_mem(ZydisRegister base, int64_t disp, uint16_t size)
{
    ZydisEncoderOperand o = { .type = ZYDIS_OPERAND_TYPE_MEMORY };
    o.mem.base = base;
    o.mem.displacement = disp;
    o.mem.size = size;
    return o;
}

/** [base + index * scale + disp]. */
static inline ZydisEncoderOperand x86_memx(ZydisRegister base, ZydisRegister index, uint8_t scale,
                                           int64_t disp, uint16_t size)
{
    ZydisEncoderOperand o = x86_mem(base, disp, size);
    o.mem.index = index;
    o.mem.scale = scale;
    return o;
}

static inline ZydisEncoderOperand x86_imm(int64_t v)
{
    ZydisEncoderOperand o = { .type = ZYDIS_OPERAND_TYPE_IMMEDIATE };
    o.imm.s = v;
    return o;
}

/** A 16-byte constant as a RIP-relative memory operand of `size` bytes. */
static inline ZydisEncoderOperand x86_pool(struct x86_asm *a, const void *bytes16, uint16_t size)
{
    return x86_mem(ZYDIS_REGISTER_RIP, (int64_t)x86_const(a, bytes16), size);
}

/** A new label, not yet bound. */
unsigned x86_label(struct x86_asm *a);

/** Bind a label to the current position. */
void x86_bind(struct x86_asm *a, unsigned label);

/** A jump (JMP or a Jcc mnemonic) to a label, rel32. */
void x86_jump(struct x86_asm *a, ZydisMnemonic jcc, unsigned label);

/** Patch every fix-up; returns 0, or -1 when the assembly failed or a label is unbound. */
int x86_finish(struct x86_asm *a);

#endif
