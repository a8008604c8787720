/*
 * The assembler of lib/jit/x86_asm.h: each instruction is one ZydisEncoderRequest, encoded at
 * its run-time address (so that RIP-relative constants are given as absolute addresses);
 * branches to labels are encoded with a zero rel32 and patched when the assembly finishes.
 */
#include <string.h>

#include "jit/x86_asm.h"

void x86_asm_init(struct x86_asm *a, uint8_t *buf, size_t cap, uint64_t runtime,
                  unsigned pool_entries)
{
    memset(a, 0, sizeof *a);
    a->buf = buf;
    a->cap = cap;
    a->runtime = runtime;
    a->pool_at = 0;
    a->pool_cap = pool_entries > X86_MAX_POOL ? X86_MAX_POOL : pool_entries;
    a->len = a->pool_cap * 16;
    if (a->len > cap)
        a->failed = 1;
}

uint64_t x86_const(struct x86_asm *a, const void *bytes16)
{
    for (size_t i = 0; i < a->pool_used; i++)
        if (!memcmp(a->buf + a->pool_at + 16 * i, bytes16, 16))
            return a->runtime + a->pool_at + 16 * i;
    if (a->pool_used == a->pool_cap) {
        a->failed = 1;
        return a->runtime;
    }
    const size_t at = a->pool_at + 16 * a->pool_used++;
    memcpy(a->buf + at, bytes16, 16);
    return a->runtime + at;
}

static void request_init(ZydisEncoderRequest *r, ZydisMnemonic m, unsigned n,
                         const ZydisEncoderOperand *ops)
{
    memset(r, 0, sizeof *r);
    r->machine_mode = ZYDIS_MACHINE_MODE_LONG_64;
    r->mnemonic = m;
    r->operand_count = (ZyanU8)n;
    if (n)
        memcpy(r->operands, ops, n * sizeof *ops);
}

void x86_emit(struct x86_asm *a, ZydisMnemonic mnemonic, unsigned n,
              const ZydisEncoderOperand *ops)
{
    if (a->failed)
        return;
    ZydisEncoderRequest r;
    request_init(&r, mnemonic, n, ops);
    ZyanUSize length = a->cap - a->len;
    if (length > ZYDIS_MAX_INSTRUCTION_LENGTH)
        length = ZYDIS_MAX_INSTRUCTION_LENGTH;
    if (a->cap - a->len < ZYDIS_MAX_INSTRUCTION_LENGTH ||
        !ZYAN_SUCCESS(ZydisEncoderEncodeInstructionAbsolute(&r, a->buf + a->len, &length,
                                                             a->runtime + a->len))) {
        a->failed = 1;
        return;
    }
    a->len += length;
}

unsigned x86_label(struct x86_asm *a)
{
    if (a->num_labels == X86_MAX_LABELS) {
        a->failed = 1;
        return 0;
    }
    a->label_at[a->num_labels] = SIZE_MAX;
    return a->num_labels++;
}

void x86_bind(struct x86_asm *a, unsigned label)
{
    a->label_at[label] = a->len;
}

void x86_jump(struct x86_asm *a, ZydisMnemonic jcc, unsigned label)
{
    if (a->failed)
        return;
    if (a->num_fixups == X86_MAX_FIXUPS || a->cap - a->len < ZYDIS_MAX_INSTRUCTION_LENGTH) {
        a->failed = 1;
        return;
    }
    ZydisEncoderRequest r;
    const ZydisEncoderOperand target = x86_imm(0);
    request_init(&r, jcc, 1, &target);
    r.branch_type = ZYDIS_BRANCH_TYPE_NEAR;
    r.branch_width = ZYDIS_BRANCH_WIDTH_32;
    ZyanUSize length = ZYDIS_MAX_INSTRUCTION_LENGTH;
    if (!ZYAN_SUCCESS(ZydisEncoderEncodeInstruction(&r, a->buf + a->len, &length))) {
        a->failed = 1;
        return;
    }
    a->len += length;
    a->fixup[a->num_fixups].at = a->len - 4; /* the rel32 ends the instruction */
    a->fixup[a->num_fixups++].label = label;
}

int x86_finish(struct x86_asm *a)
{
    if (a->failed)
        return -1;
    for (unsigned i = 0; i < a->num_fixups; i++) {
        const size_t target = a->label_at[a->fixup[i].label];
        if (target == SIZE_MAX)
            return -1;
        const int32_t rel = (int32_t)((int64_t)target - (int64_t)(a->fixup[i].at + 4));
        memcpy(a->buf + a->fixup[i].at, &rel, 4);
    }
    return 0;
}
