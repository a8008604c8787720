/*
 * The x86-64 generator's two functions, read first (lib/jit/x86_gen.h, docs/jit.md):
 *
 * A GX format's draw (vfetch_jit_gx_compile), vfetch_gx_run's body for that plan:
 *   the draw's checks (any failure: a tail jump to vfetch_gx_run_portable, nothing written);
 *   indexed formats, pass 1: every kept vertex's indices checked (x86_index_pass.c);
 *   a direct word copy (x86_copy.c), or
 *   whole groups by the record programs (x86_record.c), then vertex by vertex (x86_vertex.c);
 *   the result; the way out to the portable tier;
 *   a second entry, the batched draw (x86_batch.c): a direct format's ends in the same body.
 *
 * A plan's conversion (vfetch_jit_plan_compile), for vfetch_run's validated draws: the
 * registers it saves and its frame, each stream's first record, the same conversion, the way
 * back; and where a stream is indexed a second entry, the records read through the draw's
 * index buffer.
 *
 * Every constant is an immediate or in the code's own pool. Two variants: AVX2 encodings (VEX,
 * variable shifts, F16C) for the avx2 and avx512 levels, and SSE4.1 (each shape's legacy form;
 * no groups, no 256-bit passes, shifts by lane and binary16 by other means) for sse41.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "jit/jit.h"
#include "jit/x86_gen.h"

int vfetch_x86_gen_sse(void)
{
    return !(vfetch_cpu_allowed() & VFETCH_CPU_AVX2);
}

/* At an entry of the SSE4.1 variant where the CPU has AVX after all (the level chosen by the
   mask): the upper halves of the vector registers cleared, since legacy SSE instructions merge
   with them where a caller left them set (Zen 5: f at sse41, 16 vertices, 211 -> 257 ns with
   them set). vzeroupper is an AVX instruction: nothing where the CPU has none. */
static void sse_entry(struct gen *g)
{
    if (!g->a.sse || !(vfetch_cpu_detected() & VFETCH_CPU_AVX2))
        return;
    g->a.sse = 0;
    E(VZEROUPPER, 0, 0);
    g->a.sse = 1;
}

/* A generator for the ops of conv, its code written on the heap (gen_close copies it to
   executable memory at its exact size); with `groups`, the record programs whose whole groups
   it may emit (8 and 4 lanes, where it can). NULL with *why on failure. */
static struct gen *gen_open(const struct vfetch_plan *conv, int groups, const char **why)
{
    struct gen *g = calloc(1, sizeof *g);
    if (g) {
        x86_asm_init(&g->a);
        g->movbe_indices = vfetch_jit_movbe_indices();
        g->halves_ok = vfetch_jit_store_halves();
    }
    if (!g || g->a.failed) {
        *why = "out of memory";
        if (g)
            x86_asm_release(&g->a);
        free(g);
        return NULL;
    }
    g->conv = conv;
    memset(g->array_base, -1, sizeof g->array_base);
    gen_later_slots(g);
    g->a.sse = vfetch_x86_gen_sse();
    if (groups) {
        g->wide = gen_record_for(conv, 8);
        g->narrow = gen_record_for(conv, 4);
    }
    return g;
}

/* The assembly finished (branches patched, the pool placed after the code), copied to
   executable memory and sealed, the function at `entry` of its bytes: NULL, or why there is no
   code. Frees the generator and the record programs. */
static const char *gen_close(struct gen *g, const char *why, size_t entry,
                             struct vfetch_jit_code *code)
{
    const int failed = why || x86_finish(&g->a);
    if (!why && g->a.missing != X86_NUM_SHAPES)
        why = "an instruction without an SSE4.1 form (a generator bug)";
    else if (!why && failed)
        why = g->a.failed == X86_FAILED_FULL
                  ? "more labels, jumps or tables than the assembler holds (a generator bug)"
                  : "out of memory";
    uint8_t *rw, *rx;
    const size_t bytes = failed ? 0 : x86_bytes_used(&g->a);
    const uint32_t crossover = code->crossover; /* set by the compile; the memory's open clears */
    const int groups = code->groups;
    const unsigned broadcasts = g->broadcasts, byte_batches = g->byte_batches,
                   float_pairs = g->float_pairs, matrices_beside = g->matrices_beside,
                   unrolled_passes = g->unrolled_passes, halves_loops = g->halves_loops,
                   gathered_loops = g->gathered_loops,
                   constants_held = g->constants_held;
    const int fma_division =
        (g->fma_division && g->divides) || g->fma_group_divides || g->fma_held_entries;
    const int colour_words = g->words != NULL;
    const unsigned fma_held = g->fma_held_entries;
    if (!failed && vfetch_jit_memory_open(bytes, &rw, &rx, code))
        why = "this process gets no executable memory";
    else if (!failed) {
        x86_write(&g->a, rw);
        if (vfetch_jit_memory_seal(code, bytes))
            why = "this process gets no executable memory";
    }
    const size_t code_end = g->a.len;
    x86_asm_release(&g->a);
    free(g->wide);
    free(g->narrow);
    free(g->gather);
    free(g);
    if (why)
        return why;
    code->crossover = crossover;
    code->groups = groups;
    code->broadcasts = broadcasts;
    code->byte_batches = byte_batches;
    code->float_pairs = float_pairs;
    code->unrolled_passes = unrolled_passes;
    code->halves_loops = halves_loops;
    code->gathered_loops = gathered_loops;
    code->constants_held = constants_held;
    code->matrices_beside = matrices_beside;
    code->fma_division = fma_division;
    code->fma_held = fma_held;
    code->colour_words = colour_words;
    code->code_bytes = bytes;
    code->code_end = code_end;
    code->entry = (uint8_t *)code->mapping + entry;
    return NULL;
}

/* Whether the draw's body is a direct word copy (x86_copy.c): its count stays in ecx. */
static int gx_word_copy(const struct gen *g)
{
    return g->conv->word_copy && !g->gx->any_indexed;
}

/* Whether a draw's output bytes are its vertex bytes (each record as long as its vertex, no
   stride past it): the checks' one product serves both, and a word copy's length. */
static int gx_output_is_input_size(const struct gen *g)
{
    const struct vfetch_plan *conv = g->conv;
    return g->gx->format.vertex_size && conv->out_stride == g->gx->format.vertex_size &&
           conv->record_size == conv->out_stride;
}

/* The draw's checks, each failing one leaving for the portable tier (`slow`) with nothing
   done (the index policy and the arrays' data tested before, for a caller's draws: at the
   entry): no vertices or at least the crossover's count, the vertex
   bytes, an output that does not hold a record for every vertex (the portable tier then checks
   it exactly, knowing the skipped vertices). */
static void gx_checks(struct gen *g, uint32_t crossover, unsigned slow)
{
    const struct vfetch_gx_plan *plan = g->gx;
    struct x86_asm *a = &g->a;
    /* count - 1 below crossover - 1, unsigned: no vertices (count - 1 wraps) go too */
    E(MOV_ECX_MRSI, offsetof(struct vfetch_gx_run_params, count), 0);
    E(LEA_EAX_RCX_M1, -1, 0);
    E(CMP_EAX_I, 0, (int32_t)(crossover - 1));
    x86_jump(a, X86_JNB, slow);
    if (plan->format.vertex_size) {
        E(IMUL_RAX_RCX_I, 0, plan->format.vertex_size);
        E(CMP_RAX_MRSI, offsetof(struct vfetch_gx_run_params, vertices_size), 0);
        x86_jump(a, X86_JNBE, slow);
        E(CMP_MRSI_I, offsetof(struct vfetch_gx_run_params, vertices), 0);
        x86_jump(a, X86_JZ, slow);
    }
    /* the last record's end: count * stride less what the last record lacks of a stride (in
       rax already where records are as long as vertices: rax stays count * vertex size) */
    if (!gx_output_is_input_size(g)) {
        E(IMUL_RAX_RCX_I, 0, g->conv->out_stride);
        if (g->conv->record_size != g->conv->out_stride)
            E(ADD_RAX_I, 0, (int64_t)g->conv->record_size - (int64_t)g->conv->out_stride);
    }
    E(CMP_RAX_MRSI, offsetof(struct vfetch_gx_run_params, out_size), 0);
    x86_jump(a, X86_JNBE, slow);
    E(CMP_MRSI_I, offsetof(struct vfetch_gx_run_params, out), 0);
    x86_jump(a, X86_JZ, slow);
}

/* The result (written, skipped, clamped 0: a past-the-end index declined) through the pointer
   pushed at the entry, and return 0. */
static void gx_result(struct gen *g, unsigned no_result)
{
    const struct vfetch_gx_plan *plan = g->gx;
    E(POP_RDX, 0, 0);
    E(TEST_RDX_RDX, 0, 0);
    x86_jump(&g->a, X86_JZ, no_result);
    const int count_in_ecx = gx_word_copy(g);
    if (!count_in_ecx)
        E(MOV_EAX_MRSI, offsetof(struct vfetch_gx_run_params, count), 0);
    _Static_assert(offsetof(struct vfetch_gx_result, clamped) ==
                       offsetof(struct vfetch_gx_result, skipped) + 4,
                   "skipped and clamped are stored as one qword");
    if (plan->any_indexed) { /* r9: the skipped vertices (below 2^32: clamped 0 above them) */
        E(SUB_EAX_R9D, 0, 0);
        E(MOV_MRDX_EAX, offsetof(struct vfetch_gx_result, written), 0);
        E(MOV_MRDX_R9, offsetof(struct vfetch_gx_result, skipped), 0);
    } else { /* every vertex written, none skipped or clamped: the last two in one store */
        x86_op(&g->a, count_in_ecx ? X86_MOV_MRDX_ECX : X86_MOV_MRDX_EAX,
               offsetof(struct vfetch_gx_result, written), 0);
        E(MOV_MRDX_Q_I, offsetof(struct vfetch_gx_result, skipped), 0);
    }
    x86_bind(&g->a, no_result);
    E(XOR_EAX_EAX, 0, 0);
    E(RET, 0, 0);
}

/* Leave for `label` where an array an indexed copy reads is unbound (its data NULL), each
   array once. */
static void unbound_arrays(struct gen *g, unsigned label)
{
    unsigned seen = 0;
    for (unsigned k = 0; k < g->gx->num_copies; k++) {
        const unsigned array = g->gx->copies[k].array;
        if (array == VFETCH_GX_FROM_VERTEX || (seen >> array & 1))
            continue;
        seen |= 1u << array;
        E(CMP_MRSI_I, gen_arrays_data(array), 0);
        x86_jump(&g->a, X86_JZ, label);
    }
}

const char *vfetch_jit_gx_compile(const struct vfetch_gx_plan *plan, uint32_t crossover,
                                  uint32_t crossover_per_vertex, vfetch_jit_gx_fn *slow_fn,
                                  vfetch_jit_gx_batch_fn *batch_slow,
                                  vfetch_jit_gx_batch_finish_fn *batch_finish,
                                  vfetch_jit_gx_batch_indices_fn *batch_indices,
                                  struct vfetch_jit_code *code)
{
    memset(code, 0, sizeof *code);
    const struct vfetch_plan *conv = plan->converter;
    if (!conv)
        return "the format has nothing to convert";
    unsigned indexed = 0;
    for (unsigned k = 0; k < plan->num_copies; k++)
        indexed += plan->copies[k].array != VFETCH_GX_FROM_VERTEX;
    if (indexed > GX_JIT_MAX_INDEXED)
        return "more indexed copies than the generated code keeps";
    /* A direct format's whole groups run its record programs, where they can be emitted. */
    const char *why = NULL;
    struct gen *g = gen_open(conv, !plan->any_indexed && !conv->word_copy && !plan->jit_no_groups,
                             &why);
    if (!g)
        return why;
    g->gx = plan;
    g->vsize = g->step[0] = g->readable[0] = plan->format.vertex_size;
    gen_choose_groups(g, 0);
    code->groups = g->wide != NULL;
    /* without whole groups in the code (at SSE4.1: the 4-lane program's), its long draws are
       the record program's from the per-vertex crossover; a word copy's are its copy's */
    if (!plan->any_indexed && conv->record && !conv->word_copy && !g->wide &&
        !(g->a.sse && g->narrow))
        crossover = crossover_per_vertex;
    struct x86_asm *a = &g->a;
    const size_t entry = a->len;
    code->crossover = crossover;
    /* The draw's body once for the draw (k = 0), and for a format with indexed attributes once
       more for its batched draw (k = 1), which converts first and ends in batch_finish; a
       direct format's batched draw ends in the first body (at `body`). */
    const int batch = batch_slow && batch_finish;
    const int bodies = batch && plan->any_indexed && indexed <= GEN_BATCH_MAX_INDEXED ? 2 : 1;
    size_t entry_batch = 0, entry_bound = entry;
    int batched = 0;
    unsigned body = 0;
    /* a direct word copy's body finds its length in rax (the checks' product), where one
       product serves the checks */
    const int body_bytes = gx_word_copy(g) && gx_output_is_input_size(g);
    for (int k = 0; k < bodies && !why; k++) {
        const unsigned slow = x86_label(a), decline = x86_label(a), done = x86_label(a),
                       no_result = x86_label(a), finish = x86_label(a);
        if (!k) {
            /* rdi the plan, rsi the parameters, rdx the result (pushed from here: the red
               zone below it holds nothing the per-vertex pass needs). A caller's draw first
               leaves for the portable tier where its index policy is out of range or an
               indexed array is unbound (which refuse them): past that test, at entry_bound,
               a state's draws enter, whose policy is checked where it is set and whose
               arrays are NULL only where their size is 0 (the checks below read an array's
               size alone). */
            sse_entry(g);
            E(CMP_MRSI_I32, offsetof(struct vfetch_gx_run_params, index_policy),
              VFETCH_GX_INDEX_CLAMP);
            x86_jump(a, X86_JNBE, slow);
            unbound_arrays(g, slow);
            entry_bound = a->len;
            sse_entry(g);
            gx_checks(g, crossover, slow);
            E(PUSH_RDX, 0, 0);
            g->red_zone_live = 0;
            E(MOV_RDI_MRSI, offsetof(struct vfetch_gx_run_params, vertices), 0);
        } else {
            entry_batch = a->len;
            sse_entry(g);
            if (!(batched = gen_batch_indexed_open(g, crossover, (const void *)batch_slow)))
                break;
        }
        uint32_t reach[VFETCH_GX_MAX_COPIES];
        const int wide = plan->any_indexed && gen_vertex_element_reach(g, reach);
        const unsigned wide_pass = x86_label(a);
        if (wide) {
            /* arrays bound with room past every element they can name: no pass 1 and the
               fields loaded wider; else pass 1 where it is needed, then the wide pass where
               the arrays whose fields widen have the room, else the exact loads */
            const unsigned exact = x86_label(a);
            gen_array_cover(g, reach, exact);
            E(XOR_R9D_R9D, 0, 0);
            x86_bind(a, wide_pass);
            E(MOV_RDX_MRSI, offsetof(struct vfetch_gx_run_params, out), 0);
            memcpy(g->elem_readable, reach, sizeof reach);
            why = gen_vertex_pass(g, finish);
            memset(g->elem_readable, 0, sizeof g->elem_readable);
            x86_bind(a, exact);
        }
        if (plan->any_indexed)
            gen_index_pass(g, decline, done);
        if (wide) { /* pass 1 took the draw: the wide pass where the arrays with a reach hold it */
            const unsigned exact_pass = x86_label(a);
            gen_element_slack(g, reach, exact_pass);
            x86_jump(a, X86_JMP, wide_pass);
            x86_bind(a, exact_pass);
        }
        E(MOV_RDX_MRSI, offsetof(struct vfetch_gx_run_params, out), 0);
        x86_bind(a, body = x86_label(a));
        if (gx_word_copy(g))
            gen_word_copy(g, conv->word_copy == VFETCH_WORD_COPY_BSWAP32, body_bytes);
        else if (wide) {
            const char *exact_why = gen_vertex_pass(g, GEN_FALL_THROUGH);
            why = why ? why : exact_why;
        } else {
            gen_groups(g, finish, 0);
            why = gen_vertex_pass(g, GEN_FALL_THROUGH);
        }
        x86_bind(a, finish);
        x86_bind(a, done);
        if (k) {
            gen_batch_indexed_close(g, decline, (const void *)batch_finish,
                                    (const void *)batch_slow);
            continue;
        }
        gx_result(g, no_result);
        /* nothing written: the portable tier runs the draw, with the caller's arguments */
        x86_bind(a, decline);
        E(POP_RDX, 0, 0);
        x86_bind(a, slow);
        E(MOV_RDI_I64, 0, (int64_t)(uintptr_t)plan);
        E(MOV_RAX_I64, 0, (int64_t)(uintptr_t)slow_fn);
        E(JMP_RAX, 0, 0);
        if (batch && !plan->any_indexed) {
            entry_batch = a->len;
            sse_entry(g);
            batched = gen_batch_entry(g, crossover, body, body_bytes, (const void *)batch_slow,
                                      (const void *)batch_indices);
        }
    }
    why = gen_close(g, why, entry, code);
    if (!why && batched)
        code->entry_batch = (uint8_t *)code->mapping + entry_batch;
    if (!why)
        code->entry_bound = (uint8_t *)code->mapping + entry_bound;
    return why;
}

/* The callee-saved registers a plan's entry uses: rbx, rbp, r12..r15 where a stream (or the
   frame's loads, r15) takes them (gen_stream_reg: g->indexed set for the entry). Their number;
   the registers in saved[]. */
static unsigned saved_registers(const struct gen *g, unsigned saved[GEN_REGS])
{
    const unsigned n = g->num_streams, held = n < g->reg_streams ? n : g->reg_streams;
    unsigned num = 0;
    for (unsigned k = 0; k < held; k++)
        if (gen_stream_reg(g, k) >= 4)
            saved[num++] = gen_stream_reg(g, k);
    if (n > held)
        saved[num++] = GEN_REGS - 1;
    return num;
}

/* A plan entry's prologue: the registers it keeps saved, its frame, each stream's first record
   (under an index buffer, an indexed stream's record 0 into the frame instead, and the index
   state); rcx the count, rdx the output. one_stream: the entry loaded the one stream's record
   into rdi before it (plan_one_stream). */
static void plan_prologue(struct gen *g, int indexed, int32_t frame, unsigned one_stream)
{
    struct x86_asm *a = &g->a;
    const unsigned n = g->num_streams, held = n < g->reg_streams ? n : g->reg_streams;
    static const enum x86_shape push[GEN_REGS] = { REG_ROW(PUSH_, ) },
                                first[GEN_REGS] = { REG_ROW(MOV_, _MRDI) };
    g->indexed = indexed;
    unsigned saved[GEN_REGS];
    const unsigned num_saved = saved_registers(g, saved);
    for (unsigned i = 0; i < num_saved; i++)
        x86_op(a, push[saved[i]], 0, 0);
    if (frame)
        E(SUB_RSP_I, 0, frame);
    for (unsigned k = 0; k < n; k++)
        g->data_slot[k] = indexed && g->conv->desc.streams[k].step == VFETCH_STEP_INDEXED &&
                                  g->readable[k]
                              ? FRAME_STREAMS + 8 * (int32_t)(n - held + k)
                              : -1;
    /* rcx: the draw's struct vfetch_jit_index, into the frame or (index_regs) r10 for now */
    if (indexed && g->index_regs)
        E(MOV_R10_RCX, 0, 0);
    else if (indexed)
        for (int32_t f = FRAME_ENTRIES; f <= FRAME_WIDE; f += 8) {
            E(MOV_RAX_MRCX, f, 0);
            E(MOV_MRSP_RAX, f, 0);
        }
    /* rdi the streams' first records, rsi the count, rdx the output */
    E(MOV_RCX_RSI, 0, 0);
    /* (the records 0 of a pass at one offset stay in their registers only: below) */
    const int at_offset = gen_records_at_offset(g);
    g->record0_r11 = indexed && g->index_regs && n == 1 && g->data_slot[0] >= 0 &&
                     !gen_colour_tables(g) && !at_offset;
    for (unsigned k = 0; k < n; k++)
        if (k >= held || (g->data_slot[k] >= 0 && !at_offset)) {
            E(MOV_RAX_MRDI, 8 * (int64_t)k, 0);
            if (!k && g->record0_r11)
                E(MOV_R11_RAX, 0, 0);
            else
                E(MOV_MRSP_RAX, g->data_slot[k] >= 0 ? g->data_slot[k] : g->frame_slot[k], 0);
        }
    for (unsigned k = held; k-- > one_stream;) /* rdi itself last */
        x86_op(a, first[gen_stream_reg(g, k)], 8 * (int64_t)k, 0);
    if (indexed && g->index_regs) {
        /* the offset clamped to max + 1 (signed), so that entry + offset cannot overflow and
           min(entry + offset, max) is vfetch_run's entry + min(max - entry, offset) */
        E(MOV_R8_MR10, FRAME_ENTRIES, 0);
        E(MOV_RSI_MR10, FRAME_OFFSET, 0);
        E(MOV_R9_MR10, FRAME_MAX, 0);
        E(LEA_RAX_MR9, 1, 0);
        E(CMP_RSI_RAX, 0, 0);
        E(CMOVNLE_RSI_RAX, 0, 0);
    }
}

/* Under an index buffer, the bytes from each stream's record its loads read where its binding
   holds them past its extent (reach[], each at least the extent): an op's bytes from one
   indexed stream within 16 (gen_op_source), of a span no single load takes (3, 5-7, 9-15
   bytes), loaded as wide as its power of two where the extent narrows that load (a 12-byte
   position's `vpmaskmovd`, a 6-byte field's two loads). 1 where some stream's
   reach passes its extent: the plain draws whose bindings hold it take loads as wide. */
static int plan_reach(const struct gen *g, uint32_t reach[VFETCH_JIT_REACH_STREAMS])
{
    int any = 0;
    for (unsigned k = 0; k < g->num_streams && k < VFETCH_JIT_REACH_STREAMS; k++)
        reach[k] = g->readable[k];
    for (unsigned i = 0; i < g->conv->desc.num_ops; i++) {
        const struct vfetch_op_exec *x = &g->conv->ops[i];
        struct op_source s;
        if (x->format == VFETCH_FORMAT_CONSTANT || !x->count || gen_op_source(NULL, x, &s) ||
            s.span > 16 || s.base >= VFETCH_JIT_REACH_STREAMS ||
            g->conv->desc.streams[s.base].step != VFETCH_STEP_INDEXED)
            continue;
        /* its load where every byte is readable; a span of 1, 2, 4, 8 or 16 bytes is one load
           either way */
        const unsigned wider = gen_load_width(s.lo, s.span, UINT32_MAX);
        if ((s.span & (s.span - 1)) && gen_load_width(s.lo, s.span, reach[s.base]) < wider) {
            reach[s.base] = (uint32_t)s.lo + wider;
            any = 1;
        }
    }
    return any;
}

/* A plan entry's way back: the frame released, the saved registers restored. */
static void plan_epilogue(struct gen *g, int32_t frame)
{
    static const enum x86_shape pop[GEN_REGS] = { REG_ROW(POP_, ) };
    unsigned saved[GEN_REGS];
    const unsigned num_saved = saved_registers(g, saved);
    if (frame)
        E(ADD_RSP_I, 0, frame);
    for (unsigned i = num_saved; i-- > 0;)
        x86_op(&g->a, pop[saved[i]], 0, 0);
    E(XOR_EAX_EAX, 0, 0); /* 0: vfetch_jit_plan_one_fn's return */
    E(RET, 0, 0);
}

/* Whether a plan's entry without an index buffer is also entered past its load of the one
   stream's record (vfetch_jit_plan_one_fn): one stream, held in rdi, nothing saved or framed
   before that load. */
static unsigned plan_one_stream(const struct gen *g, int32_t frame)
{
    unsigned saved[GEN_REGS];
    return g->num_streams == 1 && g->reg_streams == 1 && gen_stream_reg(g, 0) == 0 && !frame &&
           !saved_registers(g, saved);
}

/*
 * A plan run through vfetch_run (R300, Maxwell, a hand-built one): a function that converts
 * count >= 1 records of a draw without an index buffer, given each stream's first record (the
 * draw's first, or a constant or instanced stream's one record), validated before (vfetch_run's
 * checks: every byte the ops read lies inside its binding); and where a stream is indexed, a
 * second for draws through an index buffer, given the indexed streams' record 0 and the
 * buffer's entries (validated: every index, offset added and clamped, names a record inside
 * them). Plans of one stream read record by record convert whole groups of a draw without
 * indices by their record programs first, as a direct GX format does; the rest record by
 * record, each stream's register moving by its stride (0 for a constant or instanced stream),
 * or under an index buffer computed from the vertex's index.
 */
const char *vfetch_jit_plan_compile(const struct vfetch_plan *plan,
                                    enum vfetch_jit_division division, unsigned held,
                                    struct vfetch_jit_code *code)
{
    memset(code, 0, sizeof *code);
    const unsigned n = plan->desc.num_streams;
    int indexed = 0;
    for (unsigned k = 0; k < n; k++) {
        indexed |= plan->stream_extent[k] && plan->desc.streams[k].step == VFETCH_STEP_INDEXED;
        /* every byte offset the code reaches (16 groups of an unrolled loop included) must be a
           32-bit displacement */
        if (plan->stream_extent[k] > GEN_MAX_DISP ||
            plan->vertex_stride[k] > GEN_MAX_DISP / (GEN_RP_MAX_VECTORS + 1))
            return "records too large for the generated code's 32-bit displacements";
    }
    /* whole groups by the record programs where every stream has a register of the direct
       entry (gen_stream_reg) for their windows to load from, and some stream moves from record
       to record (a plan of constant records only repeats one); none where VFETCH_JIT_GROUPS=0
       asks */
    int moving = 0;
    for (unsigned k = 0; k < n; k++)
        moving |= !vfetch_step_fixed(plan->desc.streams[k].step);
    const char *why = NULL;
    struct gen *g = gen_open(plan,
                             n <= GEN_REGS && moving && !plan->word_copy &&
                                 !(plan->jit_no_groups & VFETCH_JIT_HELD_DIRECT) &&
                                 vfetch_jit_groups_env() != 0,
                             &why);
    if (!g)
        return why;
    g->gx = NULL;
    g->fma_division = division == VFETCH_JIT_FMA && !g->a.sse;
    g->fma_groups = division != VFETCH_JIT_DIVIDE && !g->a.sse;
    g->vsize = plan->vertex_stride[0];
    g->num_streams = n;
    g->reg_streams = n <= GEN_REGS ? n : GEN_REGS - 1;
    for (unsigned k = 0; k < n; k++) {
        g->step[k] = plan->vertex_stride[k];
        g->readable[k] = plan->stream_extent[k];
        g->frame_slot[k] = FRAME_STREAMS + 8 * (int32_t)(k - g->reg_streams);
    }
    const unsigned in_frame = n - (n < g->reg_streams ? n : g->reg_streams);
    /* each entry's frame: the streams kept there; under an index buffer the index state and
       every stream's record 0 too */
    const int32_t frame[2] = { in_frame ? FRAME_STREAMS + 8 * (int32_t)in_frame : 0,
                               FRAME_STREAMS + 8 * (int32_t)(in_frame + n) };
    gen_choose_groups(g, 0);
    /* an indexed plan's 8-lane program for its indexed draws' gathered groups (weighed in
       that entry, where every stream is indexed: gather_fits). Not the SSE4.1 variant's 4-lane
       one: its counted instructions miss the legacy forms' register copies, and r300-r4 ran
       0.91-0.93x gathered there; nor a word copy's, whose pass only loads and stores where
       the groups insert and shuffle (r300-float8-indexed 0.83-0.89x at 64-256 records;
       docs/decisions.md); nor where the plan's timing took them away (jit_no_groups) */
    if (indexed && n <= GEN_INDEX_REG_STREAMS && !g->a.sse && !plan->word_copy &&
        !(plan->jit_no_groups & VFETCH_JIT_HELD_INDEXED))
        g->gather = gen_record_for(plan, 8);
    struct x86_asm *a = &g->a;
    size_t entry[2] = { 0, 0 }, entry_one = 0;
    /* through an index buffer: the index state in free registers (the streams in others,
       gen_stream_reg), the vertex pass once per entry width (the prologue compared the
       draw's) */
    g->index_regs = n <= GEN_INDEX_REG_STREAMS;
    uint32_t reach[VFETCH_JIT_REACH_STREAMS] = { 0 };
    _Static_assert(VFETCH_JIT_REACH_STREAMS == GEN_INDEX_REG_STREAMS, "a reach a stream");
    const int reach_any = indexed && g->index_regs && !plan->word_copy && plan_reach(g, reach);
    for (int through_index = 0; through_index <= indexed && !why; through_index++) {
        entry[through_index] = a->len;
        g->indexed = through_index; /* gen_stream_reg's answer for this entry */
        /* this entry's per-vertex ops by the held factors, where `held` lets them; not after
           whole groups (the direct draw's last few records: its loads not paid for) */
        g->fma_held = (held >> through_index & 1) && division != VFETCH_JIT_DIVIDE &&
                      !g->a.sse && !(through_index == 0 && g->wide);
        g->fma_held_divides = 0;
        const unsigned one = !through_index && plan_one_stream(g, frame[0]);
        if (one) { /* the record's load, then the entry given the record */
            E(MOV_RDI_MRDI, 0, 0);
            entry_one = a->len;
        }
        sse_entry(g);
        plan_prologue(g, through_index, frame[through_index], one);
        const unsigned finish = x86_label(a);
        if (plan->word_copy && !through_index)
            gen_word_copy(g, plan->word_copy == VFETCH_WORD_COPY_BSWAP32, 0);
        else if (through_index && g->index_regs) {
            /* four passes: 16- or 32-bit entries, offset and clamp applied or a plain draw;
               and two more where plain draws whose bindings hold the streams' reach load as
               wide as it (plan_reach: `plain` 2) */
            const unsigned plain = x86_label(a), reached = x86_label(a);
            E(CMP_MR10_I, INDEX_PLAIN, 0);
            x86_jump(a, X86_JNZ, plain);
            /* the gathered groups weighed once, as the first pass (16-bit, clamped) has them */
            g->index_plain = g->index_wide = 0;
            gen_choose_groups(g, 1);
            uint32_t exact[VFETCH_MAX_STREAMS];
            memcpy(exact, g->readable, sizeof exact);
            for (unsigned kind = 0; kind < 2u + (unsigned)reach_any && !why; kind++) {
                const unsigned wide = x86_label(a);
                g->index_plain = kind > 0;
                if (kind == 1)
                    x86_bind(a, plain);
                if (kind == 1 && reach_any) {
                    E(CMP_MR10_I, INDEX_PLAIN, 1);
                    x86_jump(a, X86_JNZ, reached);
                }
                if (kind == 2) {
                    x86_bind(a, reached);
                    memcpy(g->readable, reach, n * sizeof reach[0]);
                }
                E(CMP_MR10_I, FRAME_WIDE, 0);
                x86_jump(a, X86_JNZ, wide);
                g->index_wide = 0;
                gen_groups(g, finish, 1);
                why = gen_vertex_pass(g, finish);
                x86_bind(a, wide);
                g->index_wide = 1;
                gen_groups(g, finish, 1);
                why = why ? why
                          : gen_vertex_pass(g, kind == 1u + (unsigned)reach_any ? GEN_FALL_THROUGH
                                                                               : finish);
            }
            memcpy(g->readable, exact, sizeof exact);
            g->index_plain = 0;
        } else {
            if (!through_index)
                gen_groups(g, finish, 0);
            why = gen_vertex_pass(g, GEN_FALL_THROUGH);
        }
        x86_bind(a, finish);
        plan_epilogue(g, frame[through_index]);
        g->fma_held_entries |= (unsigned)g->fma_held_divides << through_index;
    }
    code->groups = g->wide != NULL;
    const int plain = g->index_regs; /* g is freed by gen_close */
    why = gen_close(g, why, entry[0], code);
    if (!why && entry_one)
        code->entry_one = (uint8_t *)code->mapping + entry_one;
    if (!why && indexed) {
        code->entry_indexed = (uint8_t *)code->mapping + entry[1];
        code->indexed_plain = plain;
        code->indexed_reach = reach_any;
        memcpy(code->stream_reach, reach, sizeof reach);
    }
    return why;
}
