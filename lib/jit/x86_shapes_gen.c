/*
 * Build-time tool: encodes every shape of lib/jit/x86_shapes.h with Zydis, once per
 * displacement size (8, 32 bits) and immediate size (8, 32 bits) where the shape has that field
 * open, finds the fields' byte positions with Zydis's decoder, and writes them as C tables
 * (x86_shapes_table.h, included by lib/jit/x86_asm.c): the shapes as written (AVX2), and their
 * SSE4.1 forms where SSE has one (encode_sse), and each shape's memory base register
 * (write_bases). Exits non-zero when a shape cannot be encoded as
 * written, so that a typo fails the build.
 *
 *   x86_shapes_gen OUTPUT.h
 */
#include <stdio.h>
#include <string.h>

#include <Zydis/Zydis.h>

#include "x86_shapes.h"

enum { OP_NONE, OP_REG, OP_MEM, OP_RIP, OP_IMM8, OP_IMM32, OP_IMM64, OP_IMMS, OP_REL };

struct operand_spec {
    int kind;
    ZydisRegister reg;
    unsigned size;
    ZydisRegister index; /* MEMX: the index register and its scale */
    unsigned scale;
};

struct shape_spec {
    const char *name;
    ZydisMnemonic mnemonic;
    struct operand_spec ops[4];
};

#define REG(r) { OP_REG, ZYDIS_REGISTER_##r, 0, ZYDIS_REGISTER_NONE, 0 }
#define MEM(b, n) { OP_MEM, ZYDIS_REGISTER_##b, n, ZYDIS_REGISTER_NONE, 0 }
#define MEMX(b, i, sc, n) { OP_MEM, ZYDIS_REGISTER_##b, n, ZYDIS_REGISTER_##i, sc }
#define RIP(n) { OP_RIP, ZYDIS_REGISTER_RIP, n, ZYDIS_REGISTER_NONE, 0 }
#define IMM8 { OP_IMM8, ZYDIS_REGISTER_NONE, 0, ZYDIS_REGISTER_NONE, 0 }
#define IMM32 { OP_IMM32, ZYDIS_REGISTER_NONE, 0, ZYDIS_REGISTER_NONE, 0 }
#define IMMS { OP_IMMS, ZYDIS_REGISTER_NONE, 0, ZYDIS_REGISTER_NONE, 0 }
#define IMM64 { OP_IMM64, ZYDIS_REGISTER_NONE, 0, ZYDIS_REGISTER_NONE, 0 }
#define REL { OP_REL, ZYDIS_REGISTER_NONE, 0, ZYDIS_REGISTER_NONE, 0 }
#define S(name, mn, ...) { #name, ZYDIS_MNEMONIC_##mn, { __VA_ARGS__ } },
static const struct shape_spec shapes[] = { X86_SHAPES };
#undef S

/* Marker values: small ones select the 8-bit forms, large ones the 32-bit forms. */
static const int64_t small_marker = 0x12, large_marker = 0x12345678,
                     huge_marker = 0x1234567812345678;

/* One instruction of a request's operands (a shape's, or the SSE4.1 form's). */
static int encode_ops(ZydisMnemonic mnemonic, const struct operand_spec *ops, unsigned count,
                      int wide_disp, int wide_imm, uint8_t *out, ZyanUSize *len)
{
    ZydisEncoderRequest r;
    memset(&r, 0, sizeof r);
    r.machine_mode = ZYDIS_MACHINE_MODE_LONG_64;
    r.mnemonic = mnemonic;
    for (unsigned n = 0; n < count; n++) {
        const struct operand_spec *o = &ops[n];
        ZydisEncoderOperand *e = &r.operands[n];
        switch (o->kind) {
        case OP_REG:
            e->type = ZYDIS_OPERAND_TYPE_REGISTER;
            e->reg.value = o->reg;
            break;
        case OP_MEM:
        case OP_RIP:
            e->type = ZYDIS_OPERAND_TYPE_MEMORY;
            e->mem.base = o->reg;
            e->mem.index = o->index;
            e->mem.scale = (ZyanU8)o->scale;
            e->mem.size = (ZyanU16)o->size;
            e->mem.displacement = o->kind == OP_RIP || wide_disp ? large_marker : small_marker;
            break;
        case OP_REL:
            e->type = ZYDIS_OPERAND_TYPE_IMMEDIATE;
            e->imm.s = large_marker;
            r.branch_type = ZYDIS_BRANCH_TYPE_NEAR;
            r.branch_width = ZYDIS_BRANCH_WIDTH_32;
            break;
        default:
            e->type = ZYDIS_OPERAND_TYPE_IMMEDIATE;
            e->imm.s = o->kind == OP_IMM64                                     ? huge_marker
                       : o->kind == OP_IMM32 || (o->kind == OP_IMMS && wide_imm) ? large_marker
                                                                                 : small_marker;
            break;
        }
    }
    r.operand_count = (ZyanU8)count;
    *len = ZYDIS_MAX_INSTRUCTION_LENGTH;
    return ZYAN_SUCCESS(ZydisEncoderEncodeInstruction(&r, out, len)) ? 0 : -1;
}

static unsigned operand_count(const struct shape_spec *s)
{
    unsigned n = 0;
    while (n < 4 && s->ops[n].kind != OP_NONE)
        n++;
    return n;
}

/* A shape as written (AVX2 encodings): one instruction; *op_at 0. */
static int encode(const struct shape_spec *s, int wide_disp, int wide_imm, uint8_t *out,
                  ZyanUSize *len, ZyanUSize *op_at)
{
    *op_at = 0;
    return encode_ops(s->mnemonic, s->ops, operand_count(s), wide_disp, wide_imm, out, len);
}

static int is_vector(const struct operand_spec *o)
{
    return o->kind == OP_REG && ((o->reg >= ZYDIS_REGISTER_XMM0 && o->reg <= ZYDIS_REGISTER_XMM31) ||
                                 (o->reg >= ZYDIS_REGISTER_YMM0 && o->reg <= ZYDIS_REGISTER_YMM31) ||
                                 (o->reg >= ZYDIS_REGISTER_ZMM0 && o->reg <= ZYDIS_REGISTER_ZMM31));
}

/* The legacy (SSE) mnemonic of a V one: "vpshufb" -> "pshufb"; none where SSE has no such
   instruction (AVX2's variable shifts, blends of dwords, F16C, masked moves, lane moves). */
static ZydisMnemonic legacy_mnemonic(ZydisMnemonic m)
{
    const char *name = ZydisMnemonicGetString(m);
    if (!name || name[0] != 'v')
        return ZYDIS_MNEMONIC_INVALID;
    /* AVX2's dword blend by immediate is SSE4.1's blendps on an xmm (the same lanes) */
    if (!strcmp(name, "vpblendd"))
        return ZYDIS_MNEMONIC_BLENDPS;
    for (int k = 1; k <= ZYDIS_MNEMONIC_MAX_VALUE; k++) {
        const char *other = ZydisMnemonicGetString((ZydisMnemonic)k);
        if (other && !strcmp(other, name + 1))
            return (ZydisMnemonic)k;
    }
    return ZYDIS_MNEMONIC_INVALID;
}

static int commutes(ZydisMnemonic m)
{
    static const char *const names[] = { "pand", "por",  "pxor",    "paddd",   "paddw", "pmulld",
                                         "pmullw", "pmulhuw", "pmaxuw", "pcmpeqw", "addps", "mulps" };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (!strcmp(ZydisMnemonicGetString(m), names[k]))
            return 1;
    return 0;
}

/*
 * A shape's SSE4.1 form (the code of CPUs without AVX): the shape as it is where it names no
 * vector register (general-purpose instructions); for a V instruction on xmm registers, its
 * legacy form, the first source tied to the destination (a movaps into the destination first
 * where they differ; a commutative one's sources swapped where the second source is the
 * destination), or all operands where the legacy form takes them so. *op_at: where the last
 * instruction (the one with the shape's displacement and immediate) starts. -1: none (ymm
 * registers, an instruction SSE lacks, a destination the copy would clobber).
 */
static int encode_sse(const struct shape_spec *s, int wide_disp, int wide_imm, uint8_t *out,
                      ZyanUSize *len, ZyanUSize *op_at)
{
    const unsigned n = operand_count(s);
    int vectors = 0;
    for (unsigned k = 0; k < n; k++) {
        if (is_vector(&s->ops[k]) && !(s->ops[k].reg >= ZYDIS_REGISTER_XMM0 &&
                                       s->ops[k].reg <= ZYDIS_REGISTER_XMM15))
            return -1;
        vectors |= is_vector(&s->ops[k]);
    }
    if (!vectors && ZydisMnemonicGetString(s->mnemonic)[0] != 'v')
        return encode(s, wide_disp, wide_imm, out, len, op_at);
    const ZydisMnemonic legacy = legacy_mnemonic(s->mnemonic);
    if (legacy == ZYDIS_MNEMONIC_INVALID)
        return -1;
    *op_at = 0;
    if (n >= 3 && is_vector(&s->ops[1])) {
        struct operand_spec tied[4] = { s->ops[0] };
        for (unsigned k = 2; k < n; k++)
            tied[k - 1] = s->ops[k];
        const int same = s->ops[0].kind == OP_REG && s->ops[0].reg == s->ops[1].reg;
        const int clobbered = s->ops[2].kind == OP_REG && s->ops[2].reg == s->ops[0].reg;
        if (!same && clobbered) { /* d = a op d: d op= a where the operation commutes */
            if (!commutes(legacy))
                return -1;
            tied[1] = s->ops[1];
            return encode_ops(legacy, tied, n - 1, wide_disp, wide_imm, out, len);
        }
        uint8_t op[ZYDIS_MAX_INSTRUCTION_LENGTH];
        ZyanUSize op_len;
        if (!encode_ops(legacy, tied, n - 1, wide_disp, wide_imm, op, &op_len)) {
            ZyanUSize move_len = 0;
            if (!same) {
                const struct operand_spec move[2] = { s->ops[0], s->ops[1] };
                move_len = ZYDIS_MAX_INSTRUCTION_LENGTH;
                if (encode_ops(ZYDIS_MNEMONIC_MOVAPS, move, 2, 0, 0, out, &move_len))
                    return -1;
            }
            memcpy(out + move_len, op, op_len);
            *op_at = move_len;
            *len = move_len + op_len;
            return 0;
        }
    }
    return encode_ops(legacy, s->ops, n, wide_disp, wide_imm, out, len);
}

typedef int encoder(const struct shape_spec *s, int wide_disp, int wide_imm, uint8_t *out,
                    ZyanUSize *len, ZyanUSize *op_at);

/* One table of every shape's encodings by one encoder: 0, or 1 when a shape the encoder must
   encode cannot be (every shape for the AVX2 table). */
static int write_table(FILE *f, ZydisDecoder *dec, const char *table, encoder *enc, int all)
{
    int status = 0;
    fprintf(f, "static const struct x86_encoding %s[][2][2] = {\n", table);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const struct shape_spec *s = &shapes[i];
        fprintf(f, "    [X86_%s] = {", s->name);
        for (int d = 0; d < 2; d++) {
            fprintf(f, " {");
            for (int m = 0; m < 2; m++) {
                uint8_t bytes[2 * ZYDIS_MAX_INSTRUCTION_LENGTH];
                ZyanUSize len = 0, at = 0;
                ZydisDecodedInstruction ins;
                ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
                unsigned disp_at = 0, disp_size = 0, imm_at = 0, imm_size = 0;
                if (enc(s, d, m, bytes, &len, &at) ||
                    !ZYAN_SUCCESS(ZydisDecoderDecodeFull(dec, bytes + at, len - at, &ins, ops)) ||
                    len > X86_ENCODING_MAX) {
                    if (all) {
                        fprintf(stderr, "x86_shapes_gen: shape %s cannot be encoded\n", s->name);
                        status = 1;
                    }
                    len = 0;
                } else {
                    disp_size = ins.raw.disp.size / 8;
                    disp_at = disp_size ? (unsigned)at + ins.raw.disp.offset : 0;
                    imm_size = ins.raw.imm[0].size / 8;
                    imm_at = imm_size ? (unsigned)at + ins.raw.imm[0].offset : 0;
                }
                fprintf(f, " { %u, %u, %u, %u, %u, {", (unsigned)len, disp_at, disp_size, imm_at,
                        imm_size);
                for (ZyanUSize k = 0; k < len; k++)
                    fprintf(f, "%s0x%02x", k ? ", " : " ", bytes[k]);
                fprintf(f, " } },");
            }
            fprintf(f, " },");
        }
        fprintf(f, " },\n");
    }
    fprintf(f, "};\n");
    return status;
}

/* Each shape's memory operand's base register as its number + 1 (rax 1 .. r15 16), 0 for none
   or RIP: the assembler moves the displacements of one base by a bias (x86_asm_bias). */
static void write_bases(FILE *f)
{
    fprintf(f, "static const uint8_t x86_shape_base[X86_NUM_SHAPES] = {\n");
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const struct shape_spec *s = &shapes[i];
        unsigned base = 0;
        for (unsigned k = 0; k < operand_count(s); k++)
            if (s->ops[k].kind == OP_MEM && s->ops[k].reg >= ZYDIS_REGISTER_RAX &&
                s->ops[k].reg <= ZYDIS_REGISTER_R15)
                base = (unsigned)(s->ops[k].reg - ZYDIS_REGISTER_RAX) + 1;
        if (base)
            fprintf(f, "    [X86_%s] = %u,\n", s->name, base);
    }
    fprintf(f, "};\n");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: x86_shapes_gen OUTPUT.h\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "w");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    ZydisDecoder dec;
    ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    fprintf(f, "/* Generated by lib/jit/x86_shapes_gen.c from lib/jit/x86_shapes.h: do not edit. */\n");
    int status = write_table(f, &dec, "x86_shape_table", encode, 1);
    status |= write_table(f, &dec, "x86_shape_table_sse", encode_sse, 0);
    write_bases(f);
    if (fclose(f))
        status = 1;
    return status;
}
