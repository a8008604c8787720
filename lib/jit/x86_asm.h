/*
 * A small assembler for the x86-64 generators: each instruction is one shape of
 * lib/jit/x86_shapes.h, copied from the table Zydis encoded at build time with its displacement
 * and immediate patched; the smaller encoding is taken wherever the value fits 8 bits. Labels
 * take 32-bit branches fixed up at the end, and the code's constants sit in a pool placed after
 * the code when it is finished, reached RIP-relative: the function is position-independent, so
 * that it is written on the heap and copied, at its exact size, to executable memory. Not
 * installed.
 */
#ifndef VFETCH_JIT_X86_ASM_H
#define VFETCH_JIT_X86_ASM_H

#include <stddef.h>
#include <stdint.h>

#include "jit/x86_shapes.h"

enum x86_shape {
#define S(name, ...) X86_##name,
    X86_SHAPES
#undef S
    X86_NUM_SHAPES
};

/* A GX draw: two passes, each with its groups' skip stubs, and two bodies: the kit's formats
   take up to 124 labels and 243 jumps (config c packed at avx2). A generator past them fails
   as a generator bug, its plan left to the portable tier (bench-output checks none is). */
#define X86_MAX_LABELS 256
#define X86_MAX_FIXUPS 512
#define X86_FAILED_FULL 2 /* x86_asm's `failed` where one of its fixed tables ran out */

/* A constant's address as the generators see it: its byte offset in the pool plus this tag, a
   value no real displacement reaches. Only a RIP-relative operand may take one (x86_op); the
   pool's place is fixed when the assembly finishes, right after the code. */
#define X86_POOL_TAG ((uint64_t)1 << 62)

struct x86_asm {
    uint8_t *first;     /**< one allocation holding the three buffers below at their first sizes */
    uint8_t *buf;       /**< the code, in a heap buffer that grows as it is written */
    size_t len, cap;
    int failed;         /**< memory ran out (1), a table of labels, branches or constant
                             tables was full (X86_FAILED_FULL), or a shape has no form at this
                             level: the result is unusable */
    int sse;            /**< encode SSE4.1 forms (CPUs without AVX): set before the first op */
    enum x86_shape missing; /**< a shape asked for that has no SSE4.1 form, or X86_NUM_SHAPES */
    size_t label_at[X86_MAX_LABELS]; /**< SIZE_MAX until bound */
    unsigned num_labels;
    struct { size_t at; unsigned label; } fixup[X86_MAX_FIXUPS]; /**< rel32 fields to patch */
    unsigned num_fixups;
    unsigned ops;       /**< instructions appended (to compare two ways by emitting both) */
    /** The constant pool, 16-byte entries in a heap buffer of its own while the code is
        written, placed after the code (32-byte aligned) by x86_finish. */
    uint8_t *pool;
    size_t pool_used, pool_cap; /**< entries */
    /** The places of the RIP-relative displacements, which x86_finish moves by the pool's
        offset (each holds the constant's pool offset less its instruction's end). */
    uint32_t *rip_at;
    size_t num_rip, rip_cap;
    /** Tables (constants of more than two entries), deduplicated among themselves. */
    size_t table_at[8];
    unsigned table_entries[8], num_tables;
    /** The constants of one or two entries by their first 8 bytes (open addressing): each
        slot 0 or 1 + its entry in the pool; the number in use. */
    uint16_t pool_hash[256];
    unsigned pool_hashed;
    size_t pool_offset; /**< after x86_finish: where the pool starts (the code's length,
                             rounded up to 32 bytes) */
    /** Added to the displacement of every memory operand whose base is general register r
        (X86_GPR_*: its encoding number), 0 but while an unrolled loop's copy of its body is
        written: each copy then addresses its own record from the same registers. */
    int32_t bias[16];
};

/* General registers by encoding number, the index of x86_asm's bias. */
enum { X86_GPR_RDX = 2, X86_GPR_RSI = 6, X86_GPR_RDI = 7, X86_GPR_R8 = 8 };

/* The assembler's functions, prefixed in the library's symbol table (a static library's
   symbols share the program's namespace: tools/check_symbols.py). */
#define x86_asm_init vfetch_x86_asm_init
#define x86_asm_release vfetch_x86_asm_release
#define x86_const vfetch_x86_const
#define x86_const_wide vfetch_x86_const_wide
#define x86_op vfetch_x86_op
#define x86_mark vfetch_x86_mark
#define x86_rewind vfetch_x86_rewind
#define x86_label vfetch_x86_label
#define x86_bind vfetch_x86_bind
#define x86_jump vfetch_x86_jump
#define x86_finish vfetch_x86_finish
#define x86_bytes_used vfetch_x86_bytes_used
#define x86_write vfetch_x86_write

/** Start an assembly (its buffers on the heap; x86_asm_release frees them). */
void x86_asm_init(struct x86_asm *a);

/** Free the assembly's buffers. */
void x86_asm_release(struct x86_asm *a);

/** A 16-byte constant of the pool (deduplicated), as an operand for a RIP-relative shape. */
uint64_t x86_const(struct x86_asm *a, const void *bytes16);

/** The same for a constant of `entries` 16-byte entries (a 32-byte vector: 2, 32-byte
    aligned; more: a table, deduplicated among the tables). */
uint64_t x86_const_wide(struct x86_asm *a, const void *bytes, unsigned entries);

/** Append one instruction: `disp` is its memory operand's displacement (for a pool operand,
    the constant from x86_const), `imm` its immediate; either ignored when the shape has none. */
void x86_op(struct x86_asm *a, enum x86_shape shape, int64_t disp, int64_t imm);

/** A point of the assembly to come back to: code emitted after it only to be measured (its
    instructions counted) is taken back by x86_rewind; its constants stay in the pool. */
struct x86_mark {
    size_t len, num_rip;
    unsigned ops, num_labels, num_fixups;
};

struct x86_mark x86_mark(const struct x86_asm *a);
void x86_rewind(struct x86_asm *a, struct x86_mark m);

/** A new label, not yet bound. */
unsigned x86_label(struct x86_asm *a);

/** Bind a label to the current position. */
void x86_bind(struct x86_asm *a, unsigned label);

/** A branch shape (X86_JMP, X86_JZ, ...) to a label. */
void x86_jump(struct x86_asm *a, enum x86_shape branch, unsigned label);

/** Patch every branch and place the pool after the code; returns 0, or -1 when the assembly
    failed or a label is unbound. */
int x86_finish(struct x86_asm *a);

/** After x86_finish: the bytes of the function, code and pool (x86_write lays them out). */
size_t x86_bytes_used(const struct x86_asm *a);

/** Write the finished function to `dst` (x86_bytes_used bytes): the code, int3 up to the
    pool, the pool. The code reaches its constants only RIP-relative and its branches are
    relative, so the bytes run wherever they are copied (at a 32-byte aligned address). */
void x86_write(const struct x86_asm *a, uint8_t *dst);

#endif
