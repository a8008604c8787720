/*
 * The assembler of lib/jit/x86_asm.h: instruction bytes from the build-time table of shapes
 * (x86_shapes_table.h, written by lib/jit/x86_shapes_gen.c with Zydis), displacement and
 * immediate patched in place, branches patched when the assembly finishes.
 */
#include <stdlib.h>
#include <string.h>

#include "jit/x86_asm.h"

/** One encoding of a shape: its bytes, and where its displacement and immediate lie (size 0:
    none). */
struct x86_encoding {
    uint8_t len, disp_at, disp_size, imm_at, imm_size;
    uint8_t bytes[X86_ENCODING_MAX];
};

#include "x86_shapes_table.h"

/* The heap buffers start at sizes most plans fit and double: the largest plans (Maxwell's
   full ISBE records) write some tens of KiB. */
#define CODE_START (16u << 10)
#define POOL_START 64u  /* entries */
#define RIP_START 256u
#define CODE_MAX (64u << 20)

void x86_asm_init(struct x86_asm *a)
{
    memset(a, 0, sizeof *a);
    a->missing = X86_NUM_SHAPES;
    /* the three buffers at their first sizes in one allocation: most plans never outgrow them */
    a->first = malloc(CODE_START + 16 * (size_t)POOL_START + RIP_START * sizeof *a->rip_at);
    if (!a->first) {
        a->failed = 1;
        return;
    }
    a->buf = a->first;
    a->pool = a->buf + CODE_START;
    a->rip_at = (uint32_t *)(void *)(a->pool + 16 * (size_t)POOL_START);
    a->cap = CODE_START;
    a->pool_cap = POOL_START;
    a->rip_cap = RIP_START;
}

/* A buffer outside the first allocation is its own (grow moved it). */
static int own_buffer(const struct x86_asm *a, const void *p)
{
    const uint8_t *b = p;
    return !a->first || b < a->first ||
           b >= a->first + CODE_START + 16 * (size_t)POOL_START + RIP_START * sizeof *a->rip_at;
}

void x86_asm_release(struct x86_asm *a)
{
    if (own_buffer(a, a->buf))
        free(a->buf);
    if (own_buffer(a, a->pool))
        free(a->pool);
    if (own_buffer(a, a->rip_at))
        free(a->rip_at);
    free(a->first);
    a->first = a->buf = a->pool = NULL;
    a->rip_at = NULL;
}

/* Room for `more` items of `size` bytes in a growing buffer: 0, or -1 (out of memory). */
static int grow(struct x86_asm *a, void **buf, size_t *cap, size_t used, size_t more, size_t size)
{
    if (*cap - used >= more)
        return 0;
    size_t n = *cap;
    while (n - used < more)
        n *= 2;
    if (n * size > CODE_MAX)
        return -1;
    void *p;
    if (own_buffer(a, *buf))
        p = realloc(*buf, n * size);
    else if ((p = malloc(n * size)))
        memcpy(p, *buf, used * size);
    if (!p)
        return -1;
    *buf = p;
    *cap = n;
    return 0;
}

/* `entries` new entries at the pool's end: their first, or SIZE_MAX (the assembly failed). */
static size_t pool_take(struct x86_asm *a, size_t entries)
{
    if (a->failed || grow(a, (void **)&a->pool, &a->pool_cap, a->pool_used, entries, 16)) {
        a->failed = 1;
        return SIZE_MAX;
    }
    const size_t at = a->pool_used;
    a->pool_used += entries;
    return at;
}

/* A table (more than two entries): one the assembly holds already, else a new one. */
static uint64_t x86_table(struct x86_asm *a, const void *bytes, unsigned entries)
{
    const size_t n = 16 * (size_t)entries;
    for (unsigned t = 0; t < a->num_tables; t++)
        if (a->table_entries[t] == entries && !memcmp(a->pool + 16 * a->table_at[t], bytes, n))
            return X86_POOL_TAG + 16 * a->table_at[t];
    if (a->num_tables == sizeof a->table_at / sizeof a->table_at[0]) {
        a->failed = X86_FAILED_FULL;
        return X86_POOL_TAG;
    }
    const size_t at = pool_take(a, entries);
    if (at == SIZE_MAX)
        return X86_POOL_TAG;
    a->table_at[a->num_tables] = at;
    a->table_entries[a->num_tables++] = entries;
    memcpy(a->pool + 16 * at, bytes, n);
    return X86_POOL_TAG + 16 * at;
}

uint64_t x86_const_wide(struct x86_asm *a, const void *bytes, unsigned entries)
{
    if (entries > 2)
        return x86_table(a, bytes, entries);
    const size_t n = 16 * (size_t)entries;
    uint64_t first;
    memcpy(&first, bytes, 8);
    /* the same constant placed before (a 32-byte one is always found as placed: aligned) */
    const unsigned mask = sizeof a->pool_hash / sizeof a->pool_hash[0] - 1;
    unsigned h = (unsigned)((first * 0x9e3779b97f4a7c15ull) >> 56) ^ entries;
    for (h &= mask; a->pool_hash[h]; h = (h + 1) & mask) {
        const size_t i = a->pool_hash[h] - 1u;
        if (i + entries <= a->pool_used && !memcmp(a->pool + 16 * i, bytes, n) &&
            (entries == 1 || i % 2 == 0))
            return X86_POOL_TAG + 16 * i;
    }
    /* a 32-byte constant on a 32-byte boundary (the pool starts on one): no load of it splits
       a cache line */
    if (entries == 2 && a->pool_used % 2) {
        const size_t pad = pool_take(a, 1);
        if (pad != SIZE_MAX)
            memset(a->pool + 16 * pad, 0, 16);
    }
    const size_t i = pool_take(a, entries);
    if (i == SIZE_MAX)
        return X86_POOL_TAG;
    /* (a full table, three quarters of its slots: later constants are not found again, only
       stored again) */
    if (a->pool_hashed < 3 * (mask + 1) / 4 && i < UINT16_MAX) {
        a->pool_hash[h] = (uint16_t)(i + 1);
        a->pool_hashed++;
    }
    memcpy(a->pool + 16 * i, bytes, n);
    return X86_POOL_TAG + 16 * i;
}

uint64_t x86_const(struct x86_asm *a, const void *bytes16)
{
    return x86_const_wide(a, bytes16, 1);
}

static int fits8(int64_t v)
{
    return v >= -128 && v <= 127;
}

/* A field of n bytes (1, 2, 4 or 8), little-endian as x86 stores it: the host's order. */
static inline void put_le(uint8_t *p, int64_t v, unsigned n)
{
    const uint64_t w = (uint64_t)v;
    switch (n) {
    case 1: p[0] = (uint8_t)w; break;
    case 2: { const uint16_t h = (uint16_t)w; memcpy(p, &h, 2); break; }
    case 4: { const uint32_t d = (uint32_t)w; memcpy(p, &d, 4); break; }
    default: memcpy(p, &w, 8); break;
    }
}

void x86_op(struct x86_asm *a, enum x86_shape shape, int64_t disp, int64_t imm)
{
    if (a->failed)
        return;
    if (a->sse && shape == X86_VZEROUPPER)
        return; /* no upper halves to clear */
    const struct x86_encoding(*table)[2][2] = a->sse ? x86_shape_table_sse : x86_shape_table;
    const struct x86_encoding *small = &table[shape][0][0];
    /* A pool operand is RIP-relative: its displacement is always 32 bits. (So is an EVEX
       shape's from a base: the 8-bit form scales by the operand's size, which the shapes'
       marker is not a multiple of.) */
    const int rip = small->disp_size == 4 && !x86_shape_base[shape];
    if (x86_shape_base[shape])
        disp += a->bias[x86_shape_base[shape] - 1];
    const struct x86_encoding *e = &table[shape][!rip && !fits8(disp)][!fits8(imm)];
    if (!e->len) { /* a shape without an SSE4.1 form: the generator must not ask for it */
        a->failed = 1;
        a->missing = shape;
        return;
    }
    if (grow(a, (void **)&a->buf, &a->cap, a->len, X86_ENCODING_MAX, 1) ||
        (rip && grow(a, (void **)&a->rip_at, &a->rip_cap, a->num_rip, 1, sizeof *a->rip_at))) {
        a->failed = 1;
        return;
    }
    uint8_t *p = a->buf + a->len;
    /* the whole encoding (the bytes past the instruction are the next one's to write): one
       fixed-size copy */
    memcpy(p, e->bytes, X86_ENCODING_MAX);
    if (rip) /* the pool offset less the instruction's end; x86_finish adds the pool's place */
        a->rip_at[a->num_rip++] = (uint32_t)(a->len + e->disp_at);
    if (e->disp_size)
        put_le(p + e->disp_at,
               rip ? disp - (int64_t)X86_POOL_TAG - (int64_t)(a->len + e->len) : disp,
               e->disp_size);
    if (e->imm_size)
        put_le(p + e->imm_at, imm, e->imm_size);
    a->len += e->len;
    a->ops++;
}

struct x86_mark x86_mark(const struct x86_asm *a)
{
    return (struct x86_mark){ a->len, a->num_rip, a->ops, a->num_labels, a->num_fixups };
}

void x86_rewind(struct x86_asm *a, struct x86_mark m)
{
    a->len = m.len;
    a->num_rip = m.num_rip;
    a->ops = m.ops;
    a->num_labels = m.num_labels;
    a->num_fixups = m.num_fixups;
}

unsigned x86_label(struct x86_asm *a)
{
    if (a->num_labels == X86_MAX_LABELS) {
        a->failed = X86_FAILED_FULL;
        return 0;
    }
    a->label_at[a->num_labels] = SIZE_MAX;
    return a->num_labels++;
}

void x86_bind(struct x86_asm *a, unsigned label)
{
    a->label_at[label] = a->len;
}

void x86_jump(struct x86_asm *a, enum x86_shape branch, unsigned label)
{
    if (a->failed)
        return;
    if (a->num_fixups == X86_MAX_FIXUPS) {
        a->failed = X86_FAILED_FULL;
        return;
    }
    x86_op(a, branch, 0, 0);
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
        put_le(a->buf + a->fixup[i].at, (int64_t)target - (int64_t)(a->fixup[i].at + 4), 4);
    }
    a->pool_offset = (a->len + 31) & ~(size_t)31;
    for (size_t i = 0; i < a->num_rip; i++) {
        int32_t d;
        memcpy(&d, a->buf + a->rip_at[i], 4);
        put_le(a->buf + a->rip_at[i], (int64_t)d + (int64_t)a->pool_offset, 4);
    }
    return 0;
}

size_t x86_bytes_used(const struct x86_asm *a)
{
    return a->pool_offset + 16 * a->pool_used;
}

void x86_write(const struct x86_asm *a, uint8_t *dst)
{
    memcpy(dst, a->buf, a->len);
    memset(dst + a->len, 0xcc, a->pool_offset - a->len);
    memcpy(dst + a->pool_offset, a->pool, 16 * a->pool_used);
}
