/*
 * The x86-64 generator's private header (docs/jit.md): its state, the register plan, the frame
 * and red-zone offsets, and the emitters its files share. Read lib/jit/x86_draw.c first: it
 * emits both functions from their checks to their epilogue and calls the rest in order.
 *
 *   x86_draw.c        the two emitted functions: a GX draw, a plan's conversion (both entries)
 *   x86_index_pass.c  GX pass 1: every kept vertex's indices checked before a byte is written
 *   x86_record.c      whole groups through the record program (record_passes.h's steps)
 *   x86_vertex.c      the per-vertex pass: the loop, one emitter per kind of op
 *   x86_held.c        what that pass holds in registers for the draw (array bases, controls)
 *   x86_load.c        an op's bytes into xmm0 (vertex, element, streams)
 *   x86_convert.c     the conversions, one emitter each, by table; shifts by lane
 *   x86_store.c       swizzles, constants and the stores the write mask asks for
 *   x86_copy.c        direct word copies
 *   x86_batch.c       a GX format's batched draw: checks, indices, the batch's figures
 *
 * Not installed.
 */
#ifndef VFETCH_JIT_X86_GEN_H
#define VFETCH_JIT_X86_GEN_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "gx/gx_internal.h"
#include "jit/x86_asm.h"
#include "plan_internal.h"
#include "record.h"

/*
 * The register plan: each general register's role in each part of the emitted code. A plan's
 * streams take the base registers in the order of the first column (GEN_REGS of them); the
 * rest live in the frame (FRAME_STREAMS) and are loaded into r15 for an op that reads one.
 *
 * | register | GX checks, pass 1           | GX groups, per-vertex pass | a plan's conversion        |
 * |----------|-----------------------------|----------------------------|----------------------------|
 * | rdi      | the plan, then the vertices | the vertex                 | stream 0's record          |
 * | rsi      | the draw's parameters       | the parameters             | stream 3 (after the count) |
 * | rdx      | the result (pushed), 2nd highest index | the output record | the output record         |
 * | rcx      | the count                   | vertices left              | records left               |
 * | r8       | 1st highest index           | an indexed copy's element  | stream 1                   |
 * | r9       | skipped vertices            | skipped vertices           | stream 2                   |
 * | r10      | pass 1's vertex             | scratch, or a 7th array base | scratch (index clamp)    |
 * | r11      | vertices left in pass 1     | the colour tables, or an 8th array base | the colour tables |
 * | rax      | scratch                     | scratch                    | scratch, the next index    |
 * | rbx, rbp, r12-r15 | -                  | per-vertex pass: the first six arrays' bases (saved; r10 and r11 the next two where no colour table takes them) | streams 4-9 (saved), r15 a frame stream |
 *
 * Under an index buffer whose state is in registers (g->index_regs: plans of up to
 * GEN_INDEX_REG_STREAMS streams) a plan's conversion moves its streams out of the state's way
 * (gen_stream_reg): the entries in r8, the highest index in r9, the offset in rsi, r10 the
 * draw's struct vfetch_jit_index until the pass; stream 0 in rdi, streams 1-6 in rbx, rbp,
 * r12-r15 (saved).
 *
 * Vector registers: xmm0-xmm5 an op's values; in a group, ymm0-ymm5 a record vector's, ymm6
 * its binary16 lanes, ymm6/ymm7-ymm14 the 8-lane loop's most used tables (GEN_CONST_REGS);
 * in the per-vertex pass, xmm6-xmm14 its most used shuffle controls (GEN_HELD_CONTROLS);
 * xmm15 is never written (the merge source of partial loads, so they depend on nothing).
 */

/* One instruction of a shape (lib/jit/x86_shapes.h). */
#define E(shape, disp, imm) x86_op(&g->a, X86_##shape, (int64_t)(disp), (int64_t)(imm))
/* A pool constant as the displacement of a shape's memory operand. */
#define POOL(bytes16) x86_const(&g->a, (bytes16))

/* The largest byte offset from a base register the generators emit as a displacement: record
   offsets, strides times the groups of an unrolled loop, stay below it (checked per plan). */
#define GEN_MAX_DISP (1 << 30)

/* The base registers an op's bytes are addressed from, in order: rdi, r8, r9, rsi, rbx, rbp,
   r12..r15 (GX: the vertex and an element). GEN_TO_XMM1 + base in load tables: a load from
   that register into xmm1. */
#define GEN_REGS 10
/* A GX element read from a held array base (x86_held.c), [base + r8 * 2^shift]: the load
   tables' entry GEN_ELEMENT_BASE(held base 0..5, shift 0..3), after the registers' (LOAD_ROW);
   then GEN_TO_XMM1 + base: a load from a base register into xmm1 (X86_WINDOW_LOADS). */
#define GEN_HELD_BASES 8
/* The held bases past the first six (r10, r11) only where no op takes them (a colour table's
   base and scratch): gen_held_open. */
#define GEN_SAVED_BASES 6
#define GEN_ELEMENT_BASE(held, shift) (GEN_REGS + 4 * (held) + (shift))
/* An array no register holds: its base loaded into rax for each op that reads its element
   (gen_load_element), the loads' entry GEN_ELEMENT_BASE(GEN_RAX_BASE, shift). */
#define GEN_RAX_BASE GEN_HELD_BASES
/* Under an index buffer, a plan's record at [its stream's record 0 + r11] (the pass's loads
   of gen_records_at_offset): the load tables' entry GEN_STREAM_R11 + the stream register's
   place in STREAM_ROW, after the held bases' (LOAD_ROW). */
#define GEN_STREAM_R11 (GEN_REGS + 4 * (GEN_HELD_BASES + 1))
#define GEN_LOAD_BASES (GEN_STREAM_R11 + GEN_INDEX_REG_STREAMS)
#define GEN_TO_XMM1 GEN_LOAD_BASES
/* A span from [stream register + rax] (gathered groups of several streams, x86_record.c): the
   span tables' entry GEN_STREAM_RAX + the register's place in STREAM_ROW (xmm1: after
   them, GEN_STREAM_RAX + GEN_INDEX_REG_STREAMS + place). */
#define GEN_STREAM_RAX (GEN_LOAD_BASES + GEN_REGS)
#define GEN_SPAN_BASES (GEN_STREAM_RAX + 2 * GEN_INDEX_REG_STREAMS)
/* A shape's forms at [stream register + index register] (post: _RAX, _R11) for the registers
   that hold a plan's streams under an index buffer (gen_stream_reg: rdi, then rbx on;
   X86_GATHER_STREAM_LOADS, X86_OFFSET_LOADS). */
#define STREAM_ROW(shape, post)                                                             \
    X86_##shape##_MRDI##post, X86_##shape##_MRBX##post, X86_##shape##_MRBP##post,            \
        X86_##shape##_MR12##post, X86_##shape##_MR13##post, X86_##shape##_MR14##post,        \
        X86_##shape##_MR15##post
/* A shape's forms for each base register, in that order (X86_BASE_LOADS). */
#define REG_ROW(pre, post)                                                                  \
    X86_##pre##RDI##post, X86_##pre##R8##post, X86_##pre##R9##post, X86_##pre##RSI##post,   \
        X86_##pre##RBX##post, X86_##pre##RBP##post, X86_##pre##R12##post,                    \
        X86_##pre##R13##post, X86_##pre##R14##post, X86_##pre##R15##post
#define BASE_ROW(shape) REG_ROW(shape##_M, )
/* A load's forms for each base register, then for each held base and scale
   (X86_ELEMENT_LOADS), then for each stream register plus r11 (X86_OFFSET_LOADS):
   GEN_LOAD_BASES of them. */
#define HELD_ROW(shape, B)                                                                  \
    X86_##shape##_M##B##_R8X1, X86_##shape##_M##B##_R8X2, X86_##shape##_M##B##_R8X4,         \
        X86_##shape##_M##B##_R8X8
#define LOAD_ROW(shape)                                                                     \
    BASE_ROW(shape), HELD_ROW(shape, RBX), HELD_ROW(shape, RBP), HELD_ROW(shape, R12),      \
        HELD_ROW(shape, R13), HELD_ROW(shape, R14), HELD_ROW(shape, R15),                    \
        HELD_ROW(shape, R10), HELD_ROW(shape, R11), HELD_ROW(shape, RAX),                    \
        STREAM_ROW(shape, _R11)

/* The red zone below a GX draw's rsp (it calls nothing; the draw pushes its result pointer
   first): pass 1's highest index of each indexed copy past the first two (at
   REDZONE_HIGHEST(slot)), or the vector pass's maxima as 16-bit lanes (32 bytes at
   REDZONE_MAXIMA); an indexed format's batched draw's result, batch, slot and skipped vertices
   (REDZONE_RESULT, REDZONE_BATCH, REDZONE_SLOT, REDZONE_SKIPPED, x86_batch.c), live across its
   per-vertex pass (g->red_zone_live: the pass's pushes go below the red zone). */
#define REDZONE_RESULT (-8)
#define REDZONE_HIGHEST(slot) (-8 * (int64_t)(slot))
#define REDZONE_MAXIMA (-48)
#define GX_JIT_MAX_INDEXED 16

/* A plan's frame (from rsp, when it has one): an index buffer's state as the draw's struct
   vfetch_jit_index gives it (the next entry moving on), then the records of the streams kept
   in the frame, then under an index buffer each indexed stream's record 0. */
#define FRAME_ENTRIES 0
#define FRAME_OFFSET 8
#define FRAME_MAX 16
#define FRAME_WIDE 24
#define FRAME_STREAMS 32
/* struct vfetch_jit_index's `plain`, read from the index state (not copied to the frame) */
#define INDEX_PLAIN 32

/* The 8-lane group loop keeps its most used tables in ymm6/ymm7..ymm14, chosen among at most
   GEN_COUNTED of them; a group emitted as code has at most GEN_RP_MAX_VECTORS vectors (a
   record of 16 slots: 16 vectors a group of 8). */
#define GEN_CONST_REGS 9
/* Records from which a draw whose output is off 32 bytes runs the 8-lane groups' loop with
   each vector stored as two 16-byte halves (x86_record.c, gen_groups). */
#define GEN_HALVES_LEAST 128
/* Records from which a direct draw of a plan of several streams runs its whole groups, else the
   per-vertex pass: R300's two-array formats (each vector's halves from two streams) at 16
   records ran 0.95-0.96x as groups with the output 16 bytes past a line and 1.03x with it on
   one, at 32 and more 1.01-1.08x either way (Intel Xeon, 2026-12-05). */
#define GEN_GROUPS_STREAMS_LEAST 32
#define GEN_COUNTED 64
#define GEN_RP_MAX_VECTORS 16

/* The per-vertex pass holds at most GEN_HELD_CONTROLS constants in xmm6..xmm14 (shuffle
   controls, and the FMA form's factors where the default form asks for them), the most used of
   the first GEN_WANTED_CONTROLS a vertex's ops ask for (x86_held.c). */
#define GEN_HELD_CONTROLS 9
#define GEN_WANTED_CONTROLS 32

/* Where an op's bytes come from: the vertex (copy -1) or an indexed copy's element (GX), or a
   plan's stream (`base`: 0 the vertex, 1 an element, or the stream), and each lane's
   container bytes as offsets from that base. */
struct op_source {
    int copy;
    unsigned base;
    int32_t lo;    /* lowest byte read */
    uint32_t span; /* bytes from lo read */
    int32_t off[4][4];
};

/* Where span byte j lands in the register after gen_load_span. */
struct span_layout {
    unsigned s1, s2, span;
};

/* The generator's state. */
struct gen {
    struct x86_asm a;
    const struct vfetch_gx_plan *gx; /* a GX format's, or NULL: a plan run through vfetch_run */
    const struct vfetch_plan *conv;  /* the plan the ops are of (a GX format's converter) */
    /* The record programs whose whole groups the code runs (8 and 4 lanes), or NULL. */
    struct vfetch_record_prog *wide, *narrow;
    uint32_t vsize;                  /* bytes from one vertex (record) to the next */
    /* Per base (GX: the vertex, an element; a plan: each stream): bytes it moves by from one
       vertex to the next, and bytes of its record surely inside the caller's buffer (GX: the
       vertex's, none of an element; a plan: each stream's extent), which a wider load may
       read. */
    uint32_t step[VFETCH_MAX_STREAMS], readable[VFETCH_MAX_STREAMS];
    /* GX: per indexed copy, bytes of its element surely readable (0: none past the element's
       own), in the per-vertex pass that loads elements wider (gen_element_slack). */
    uint32_t elem_readable[VFETCH_GX_MAX_COPIES];
    /* A plan's: its streams, how many of them are in registers (the rest at frame_slot[s] from
       rsp), and whether the loop being emitted reads records through an index buffer (the
       indexed streams' records then computed a vertex from record 0 at data_slot[s]). */
    unsigned num_streams, reg_streams;
    int indexed;
    /* Under an index buffer, a plan's index state in registers (entries r8, the offset rsi,
       the highest index r9; plans of up to GEN_INDEX_REG_STREAMS streams, gen_stream_reg) and
       the width of the entries the pass being emitted reads (its loop once per width) and
       whether it adds the offset and clamps (or the draw is plain, jit.h); else the state in
       the frame, read a vertex. */
    int index_regs, index_wide, index_plain;
    /* Under an index buffer with the state in registers, a one-stream plan's record 0 in r11
       (no colour table takes it; a stride of 1, 2, 4 or 8, the others read at one offset,
       gen_records_at_offset): each record one lea of r11 + index * stride, not an add from
       the frame. */
    int record0_r11;
    /* Under an index buffer, a draw of a plan whose streams are all indexed (one: record 0 in
       r11; several of one stride: each record 0 in its stream's register): the record program
       whose groups read their records through the entries (x86_record.c, gen_groups
       gathered), or NULL; while such groups are written (gathering), the group's first record
       in the iteration (its entry at r8 + that many entries), the record whose index (several
       streams: offset) rax holds (-1: none) and whether rdi holds its address (one stream). */
    struct vfetch_record_prog *gather;
    int gathering, gather_held, gather_rdi;
    unsigned gather_first;
    /* The record programs whose loop of one group at a time (after the unrolled one) the
       count dropped (gen_choose_groups: its exact loads cost the pass's instructions or more),
       their records left to the pass: bit 0 wide, 1 narrow, 2 gather (group_prog_bit). */
    unsigned no_single;
    /* The per-vertex pass's group of four being written (x86_vertex.c): each vertex's entry
       read by a displacement from r8, which moves once a group. */
    int in_group;
    int32_t frame_slot[VFETCH_MAX_STREAMS], data_slot[VFETCH_MAX_STREAMS];
    int elem_copy;     /* the copy whose element r8 addresses in this vertex, or -1 */
    unsigned elem_base; /* how: 1 (r8 its address), or GEN_ELEMENT_BASE (r8 its index scaled) */
    int rax_bases;      /* the per-vertex pass's ops: an array no register holds read from rax */
    int red_zone_live;  /* the red zone holds what the per-vertex pass must keep (x86_held.c) */
    int raw_copy;      /* the copy whose index, as read, r8 holds (the position's), or -1 */
    int raw_swapped;   /* ... already in the CPU's byte order (read by movbe) */
    /* r8's bits 16-63 are zero here (after a zero-extending load, and no scaling since): a
       16-bit big-endian index is one `movbe r8w` (the avx2 level), which keeps them. */
    int r8_narrow;
    int movbe_indices; /* ... where the AVX2 variant reads them so (vfetch_jit_movbe_indices) */
    /* Held for the per-vertex pass (x86_held.c): each GX array's base register (0..5: rbx,
       rbp, r12..r15) or -1, and how many are held; the shuffle controls in xmm6.. (held),
       and while `collecting`, the ones the ops ask for with how often (wanted). */
    int8_t array_base[VFETCH_GX_NUM_ATTRS];
    unsigned num_bases, num_held, num_wanted;
    int collecting;
    /* 12-byte fields read by one masked load (gen_load_fields), its mask in xmm14: how many
       the counted ops asked for, and whether the pass holds the mask */
    unsigned masked_wanted;
    int mask_held;
    uint8_t held[GEN_HELD_CONTROLS][16];
    struct { uint8_t bytes[16]; unsigned uses; } wanted[GEN_WANTED_CONTROLS];
    uint64_t later[VFETCH_MAX_OPS][VFETCH_MAX_SLOTS / 64]; /* slots later ops store */
    uint64_t tables; /* the lowest colour table's address, r11 in the conversion loop; or 0 */
    uint64_t table_at[VFETCH_MAX_OPS]; /* each op's colour tables in the pool, once made */
    /* the shared word table every colour op reads instead (vfetch_jit_colour_words), r11 in
       the conversion loop; or NULL; and whether it was looked for */
    const uint32_t *words;
    int words_known;
    int dirty_upper; /* the conversion loop wrote a ymm register: vzeroupper after it */
    /* Normalised divisions by one product and one FMA (vfetch_jit_division; the AVX2 variant
       only), and whether any division was emitted (either form, trials included). */
    int fma_division, divides;
    /* the 8-lane record groups divide in the FMA form (fma_division: every division does), and
       some group did so */
    int fma_groups, fma_group_divides;
    /* the per-vertex ops of the entry being written divide in the FMA form where the pass
       holds both of its factors, and some op did so; the entries where some did
       (VFETCH_JIT_HELD_DIRECT, VFETCH_JIT_HELD_INDEXED) */
    int fma_held, fma_held_divides;
    unsigned fma_held_entries;
    unsigned broadcasts; /* 8-lane vectors whose window is broadcast (vfetch_jit_code) */
    unsigned byte_batches; /* matrix-index batches emitted (vfetch_jit_code) */
    unsigned float_pairs;  /* two elements' binary32 pairs in one register (vfetch_jit_code) */
    unsigned matrices_beside; /* coordinates with their matrix's float inserted (the same) */
    unsigned unrolled_passes; /* per-vertex passes written in groups (the same) */
    unsigned halves_loops; /* 8-lane group loops written again with halved stores (the same) */
    unsigned gathered_loops; /* group loops reading records through the entries (the same) */
    unsigned constants_held; /* constant ops stored without a load of their own (the same) */
    int store_halves;      /* the loop being written stores each ymm as two 16-byte halves */
    int halves_ok;         /* ... and such loops are written (vfetch_jit_store_halves) */
    /* The 8-lane group loop's tables held in registers (reg_const[k] in the k-th of them), and
       the tables its vectors use, with how often (x86_record.c, count_tables). */
    /* A record vector's group (unrolled loops): bytes of its output from rdx; per stream (each
       in its register, gen_stream_reg), bytes of its first record from that register and the
       bytes its windows may read from there (x86_record.c, group_at). */
    int32_t rp_dst;
    int32_t rp_srcs[GEN_REGS];
    uint32_t rp_bytes[GEN_REGS];
    uint64_t reg_const[GEN_CONST_REGS];
    unsigned num_reg_consts, num_counted;
    struct { uint64_t at; unsigned uses; } counted[GEN_COUNTED];
};

/* The streams a plan's index state in registers leaves room for: rdi, rbx, rbp, r12..r15. */
#define GEN_INDEX_REG_STREAMS 7

/* The register (its place in REG_ROW) that holds a plan's stream k: its own place, or where
   the index state holds r8, r9 and rsi (g->index_regs, under an index buffer), stream 0 in
   rdi and the rest from rbx on. */
static inline unsigned gen_stream_reg(const struct gen *g, unsigned k)
{
    return !g->gx && g->indexed && g->index_regs && k ? k + 3 : k;
}

/* Under an index buffer, whether every stream of a plan is read through it with one stride (its
   record 0 in the frame, data_slot), the index state in registers where there are several
   (each stream in its own, gen_stream_reg): a vertex's records then lie at one offset from
   their records 0. */
static inline int gen_indexed_one_stride(const struct gen *g)
{
    if (!g->num_streams || (g->num_streams > 1 && !g->index_regs))
        return 0;
    for (unsigned k = 0; k < g->num_streams; k++)
        if (g->data_slot[k] < 0 || g->step[k] != g->step[0])
            return 0;
    return 1;
}

/* The scale (0..3: 1, 2, 4 or 8 bytes) of an address [base + index * scale] that steps by
   `stride`, or -1 where the stride is none of them (then a multiply). */
static inline int gen_stride_scale(uint32_t stride)
{
    return stride == 1 ? 0 : stride == 2 ? 1 : stride == 4 ? 2 : stride == 8 ? 3 : -1;
}

/* Under an index buffer, a one-stream plan's record into rdi from its record 0 in r11
   (record0_r11): lea rdi, [r11 + rax * 2^scale]. */
static inline enum x86_shape gen_record_lea(unsigned scale)
{
    static const enum x86_shape lea[4] = { X86_LEA_RDI_MR11_RAX_1, X86_LEA_RDI_MR11_RAX_2,
                                           X86_LEA_RDI_MR11_RAX_4, X86_LEA_RDI_MR11_RAX_8 };
    return lea[scale];
}

/* Whether a 16-bit index is read by one `movbe r8w` here: r8's upper bits are zero
   (g->r8_narrow), the code is the AVX2 variant's (MOVBE: every AVX2 CPU has it) and the CPU
   takes it as one operation (g->movbe_indices). */
static inline int gen_movbe_index(const struct gen *g)
{
    return g->r8_narrow && !g->a.sse && g->movbe_indices;
}

/* The emitters the files share (prefixed in the library's symbol table). */
#define gen_op_source vfetch_x86_gen_op_source
#define gen_load_width vfetch_x86_gen_load_width
#define gen_load_span vfetch_x86_gen_load_span
#define gen_span_pos vfetch_x86_gen_span_pos
#define gen_span_layout vfetch_x86_gen_span_layout
#define gen_load_element vfetch_x86_gen_load_element
#define gen_narrow_indices vfetch_x86_gen_narrow_indices
#define gen_narrow_r8 vfetch_x86_gen_narrow_r8
#define gen_load_fields vfetch_x86_gen_load_fields
#define gen_load_gathered vfetch_x86_gen_load_gathered
#define gen_stream_register vfetch_x86_gen_stream_register
#define gen_skip_test vfetch_x86_gen_skip_test
#define gen_index_pass vfetch_x86_gen_index_pass
#define gen_element_slack vfetch_x86_gen_element_slack
#define gen_record_for vfetch_x86_gen_record_for
#define gen_choose_groups vfetch_x86_gen_choose_groups
#define gen_groups vfetch_x86_gen_groups
#define gen_vertex_pass vfetch_x86_gen_vertex_pass
#define gen_vertex_pass_cost vfetch_x86_gen_vertex_pass_cost
#define gen_vertex vfetch_x86_gen_vertex
#define gen_vertex_element_reach vfetch_x86_gen_vertex_element_reach
#define gen_held_open vfetch_x86_gen_held_open
#define gen_held_close vfetch_x86_gen_held_close
#define gen_held_controls vfetch_x86_gen_held_controls
#define gen_held_lea vfetch_x86_gen_held_lea
#define gen_array_cover vfetch_x86_gen_array_cover
#define gen_held_element vfetch_x86_gen_held_element
#define gen_colour_tables vfetch_x86_gen_colour_tables
#define gen_records_at_offset vfetch_x86_gen_records_at_offset
#define gen_held_add vfetch_x86_gen_held_add
#define gen_shuffle vfetch_x86_gen_shuffle
#define gen_held_fma_divide vfetch_x86_gen_held_fma_divide
#define gen_fields vfetch_x86_gen_fields
#define gen_fields_at_bottom vfetch_x86_gen_fields_at_bottom
#define gen_converter vfetch_x86_gen_converter
#define gen_scale vfetch_x86_gen_scale
#define gen_store vfetch_x86_gen_store
#define gen_store_dword vfetch_x86_gen_store_dword
#define gen_later_slots vfetch_x86_gen_later_slots
#define gen_constant_op vfetch_x86_gen_constant_op
#define gen_constant_run vfetch_x86_gen_constant_run
#define gen_effective_select vfetch_x86_gen_effective_select
#define gen_word_copy vfetch_x86_gen_word_copy
#define gen_batch_entry vfetch_x86_gen_batch_entry
#define gen_batch_indexed_open vfetch_x86_gen_batch_indexed_open
#define gen_batch_indexed_close vfetch_x86_gen_batch_indexed_close
#define gen_arrays_data vfetch_x86_gen_arrays_data
#define gen_arrays_size vfetch_x86_gen_arrays_size

/* Whether code generated now is the SSE4.1 variant: the level in force lacks AVX2. */
int vfetch_x86_gen_sse(void);

/* x86_load.c */
int gen_op_source(const struct vfetch_gx_plan *plan, const struct vfetch_op_exec *x,
                  struct op_source *s);
unsigned gen_load_width(int32_t lo, unsigned span, uint32_t readable);
void gen_load_span(struct gen *g, unsigned base, int dst, int32_t lo, unsigned span,
                   struct span_layout *l);
unsigned gen_span_pos(const struct span_layout *l, unsigned j);
void gen_span_layout(unsigned span, struct span_layout *l);
unsigned gen_stream_register(struct gen *g, unsigned base);
void gen_load_element(struct gen *g, int k);
int gen_narrow_indices(const struct gen *g);
void gen_narrow_r8(struct gen *g);
void gen_load_fields(struct gen *g, const struct vfetch_op_exec *x, const struct op_source *s,
                     unsigned base);
void gen_load_gathered(struct gen *g, const struct vfetch_op_exec *x);
size_t gen_arrays_data(unsigned a);
size_t gen_arrays_size(unsigned a);

/* x86_index_pass.c */
void gen_skip_test(struct gen *g, const enum x86_shape forms[3], enum x86_shape branch,
                   unsigned label);
void gen_index_pass(struct gen *g, unsigned decline, unsigned done);
void gen_array_cover(struct gen *g, const uint32_t *reach, unsigned label);
void gen_element_slack(struct gen *g, const uint32_t reach[VFETCH_GX_MAX_COPIES], unsigned exact);

/* x86_record.c */
struct vfetch_record_prog *gen_record_for(const struct vfetch_plan *conv, unsigned lanes);
void gen_choose_groups(struct gen *g, int gathered);
void gen_groups(struct gen *g, unsigned finish, int gathered);

/* gen_vertex_pass's exit where the code after the pass follows it */
#define GEN_FALL_THROUGH UINT_MAX
const char *gen_vertex_pass(struct gen *g, unsigned exit);
unsigned gen_vertex_pass_cost(struct gen *g, unsigned ops, unsigned vertices);
const char *gen_vertex(struct gen *g);
int gen_vertex_element_reach(const struct gen *g, uint32_t reach[VFETCH_GX_MAX_COPIES]);

/* x86_convert.c: a conversion's emitter returns 1 where xmm0 is left for gen_store, 0 where it
   stored the op itself. */
typedef int gen_convert_fn(struct gen *g, const struct vfetch_op_exec *x);
void gen_fields(struct gen *g, const struct vfetch_op_exec *x);
int gen_fields_at_bottom(const struct vfetch_op_exec *x);
gen_convert_fn *gen_converter(const struct vfetch_op_exec *x);
void gen_scale(struct gen *g, enum x86_shape mul, unsigned shift, unsigned entries);

/* x86_held.c */
struct x86_mark gen_held_open(struct gen *g);
void gen_held_controls(struct gen *g, struct x86_mark counted);
void gen_held_close(struct gen *g);
unsigned gen_held_element(const struct gen *g, unsigned array, uint32_t stride, uint32_t *m);

/* Whether r8 * m takes one instruction at most (x86_load.c's multiply): 0 (xor), a power of two
   (a shift or nothing), 3, 5 or 9 (one lea). */
static inline int gen_multiplier_one_op(uint32_t m)
{
    return m == 3 || m == 5 || m == 9 || (m & (m - 1)) == 0;
}
void gen_shuffle(struct gen *g, const uint8_t ctrl[16]);
int gen_held_fma_divide(struct gen *g, const float hi[4], const float lo[4], enum x86_shape *mul,
                        enum x86_shape *fma);

/* x86_store.c */
void gen_later_slots(struct gen *g);
unsigned gen_effective_select(const struct vfetch_op_exec *x, unsigned c);
void gen_store_dword(struct gen *g, unsigned slot, unsigned lane);
void gen_store(struct gen *g, unsigned op_index, const struct vfetch_op_exec *x);
void gen_constant_op(struct gen *g, unsigned op_index, const struct vfetch_op_exec *x);
void gen_constant_run(struct gen *g, unsigned first, unsigned n);

int gen_colour_tables(const struct gen *g);
int gen_records_at_offset(const struct gen *g);

/* x86_copy.c */
void gen_word_copy(struct gen *g, int bswap, int bytes_in_rax);

/* x86_batch.c: a GX format's batched draw. A direct format's ends in the draw's body (at
   `body`: rdi the vertices, rsi the parameters, rdx the output, ecx the count, with
   body_bytes rax the vertex bytes, the result pushed), the draws it does not take going to
   slow_fn; 0 where it has none (a crossover of 0). A format with indexed attributes (at most
   GEN_BATCH_MAX_INDEXED indexed copies: the batch and slot take red-zone slots past pass 1's)
   opens with the checks and the body's registers, and closes after a body of its own: to
   finish_fn, or from `decline` to slow_fn. */
#define GEN_BATCH_MAX_INDEXED 12
#define REDZONE_BATCH (-104)
#define REDZONE_SLOT (-112)
#define REDZONE_SKIPPED (-120)
int gen_batch_entry(struct gen *g, uint32_t crossover, unsigned body, int body_bytes,
                    const void *slow_fn, const void *indices_fn);
int gen_batch_indexed_open(struct gen *g, uint32_t crossover, const void *slow_fn);
void gen_batch_indexed_close(struct gen *g, unsigned decline, const void *finish_fn,
                             const void *slow_fn);

#endif
