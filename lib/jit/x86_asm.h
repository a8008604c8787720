/*
 * A small assembler for the x86-64 generators: each instruction is one shape of
 * lib/jit/x86_shapes.h, copied from the table Zydis encoded at build time with its displacement
 * and immediate patched; the smaller encoding is taken wherever the value fits 8 bits. Labels
 * take 32-bit branches fixed up at the end, and the code's constants sit in a pool at the start
 * of the buffer. The buffer's run-time address is known, so that a pool constant is reached
 * RIP-relative. Not installed.
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

#define X86_MAX_LABELS 64
#define X86_MAX_FIXUPS 128

struct x86_asm {
    uint8_t *buf;       /**< where bytes are written */
    uint64_t runtime;   /**< the address buf[0] runs at */
    size_t len, cap;
    int failed;         /**< the buffer, the pool or the labels ran out, or a shape has no
                             form at this level: the result is unusable */
    int sse;            /**< encode SSE4.1 forms (CPUs without AVX): set before the first op */
    enum x86_shape missing; /**< a shape asked for that has no SSE4.1 form, or X86_NUM_SHAPES */
    size_t label_at[X86_MAX_LABELS]; /**< SIZE_MAX until bound */
    unsigned num_labels;
    struct { size_t at; unsigned label; } fixup[X86_MAX_FIXUPS]; /**< rel32 fields to patch */
    unsigned num_fixups;
    unsigned ops;       /**< instructions appended (to compare two ways by emitting both) */
    /** The constant pool: 16-byte entries at the start of the buffer, reserved up front;
        constants of one or two entries from its start (pool_used), tables from its end
        (pool_top entries, each table's place in table_at/table_entries), so that a search for
        a constant never walks a table. */
    size_t pool_cap, pool_used, pool_top;
    size_t table_at[8];
    unsigned table_entries[8], num_tables;
    /** The constants of one or two entries by their first 8 bytes (open addressing): each
        slot 0 or 1 + its entry in the pool; the number in use. */
    uint16_t pool_hash[256];
    unsigned pool_hashed;
};

/** Start an assembly into buf (cap bytes, running at runtime), with room for pool_entries
    16-byte constants at its start; code follows them. */
void x86_asm_init(struct x86_asm *a, uint8_t *buf, size_t cap, uint64_t runtime,
                  unsigned pool_entries);

/** The run-time address of a 16-byte constant in the pool (deduplicated). */
uint64_t x86_const(struct x86_asm *a, const void *bytes16);

/** The same for a constant of `entries` 16-byte entries (a 32-byte vector: 2, 32-byte
    aligned; more: a table, deduplicated among the tables). */
uint64_t x86_const_wide(struct x86_asm *a, const void *bytes, unsigned entries);

/** Append one instruction: `disp` is its memory operand's displacement (for a pool operand,
    the constant's address from x86_const), `imm` its immediate; either ignored when the shape
    has none. */
void x86_op(struct x86_asm *a, enum x86_shape shape, int64_t disp, int64_t imm);

/** A new label, not yet bound. */
unsigned x86_label(struct x86_asm *a);

/** Bind a label to the current position. */
void x86_bind(struct x86_asm *a, unsigned label);

/** A branch shape (X86_JMP, X86_JZ, ...) to a label. */
void x86_jump(struct x86_asm *a, enum x86_shape branch, unsigned label);

/** Patch every branch; returns 0, or -1 when the assembly failed or a label is unbound. */
int x86_finish(struct x86_asm *a);

/** Bytes of code and constants the assembly wrote (the pool counted as used). */
size_t x86_bytes_used(const struct x86_asm *a);

#endif
