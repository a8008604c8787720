/*
 * The JIT tier: plans compiled to machine code (docs/jit.md). What the rest of the library sees
 * of it: the mode switches (lib/jit/mode.c, built everywhere), the generated code's memory
 * (lib/jit/exec_memory.c) and the generators (lib/jit/x86_draw.c and the files it calls), which
 * exist only where the build has the JIT (VFETCH_HAVE_JIT: x86-64 with Zydis, -Djit not
 * disabled). Not installed.
 */
#ifndef VFETCH_JIT_H
#define VFETCH_JIT_H

#include <stddef.h>
#include <stdint.h>

#include "vfetch/vfetch.h"

#ifndef VFETCH_HAVE_JIT
#define VFETCH_HAVE_JIT 0
#endif

/** The mode plans created now get: vfetch_set_jit_mode(), else VFETCH_JIT (read once), else
    VFETCH_JIT_ON where the build has the JIT. */
enum vfetch_jit_mode vfetch_jit_mode_now(void);

/** Why a plan compiled now under `mode` gets no code whatever it is (a static sentence: no JIT
    in this build, the mode is off, the level is below avx2), or NULL. */
const char *vfetch_jit_unavailable(enum vfetch_jit_mode mode);

/** The streams of a plan whose plain indexed draws may read past their extents (the index
    state in registers: lib/jit/x86_gen.h's GEN_INDEX_REG_STREAMS). */
#define VFETCH_JIT_REACH_STREAMS 7

/** One generated function in memory that is executable and not writable. */
struct vfetch_jit_code {
    void *entry;        /**< the function */
    void *entry_indexed; /**< a plan's function for draws through an index buffer, or NULL */
    void *entry_one;     /**< a one-stream plan's function given its first record itself
                              (vfetch_jit_plan_one_fn), or NULL */
    int indexed_plain;   /**< entry_indexed reads vfetch_jit_index's `plain` (else ignores it) */
    /** Plain draws through an index buffer whose loads read past some indexed stream's extent
        (`plain` 2), where a load of its last bytes is narrower than its span's (a 12-byte
        position by `vpmaskmovd`, its 16-byte load past the stream's extent): the bytes from
        such a stream's record its loads may read, each stream's extent otherwise (a plan of up
        to VFETCH_JIT_REACH_STREAMS streams, the index state in registers). indexed_reach 0:
        the code has no such draws. */
    int indexed_reach;
    uint32_t stream_reach[VFETCH_JIT_REACH_STREAMS];
    void *entry_batch;   /**< a direct GX format's batched draw, or NULL */
    void *entry_bound;   /**< a GX format's draw past `entry`'s test of each indexed array's
                              data for NULL, for arrays NULL only where their size is 0 (a
                              state's): the array checks then read the sizes alone */
    size_t code_bytes;  /**< bytes of code and constants written */
    size_t code_end;    /**< bytes of code from the mapping's start (its constants follow) */
    void *mapping;      /**< the executable mapping, mapping_bytes long */
    size_t mapping_bytes;
    void *writable;     /**< the arena's writable view of the block (lib/jit/exec_memory.c),
                             or NULL: pages of the plan's own */
    size_t counted_bytes; /**< what vfetch_jit_memory_usage counts as this code's live bytes:
                               the bytes asked for, then the bytes sealed */
    uint32_t crossover; /**< GX: draws of this many vertices or more go to the portable tier */
    int groups;         /**< whole groups run the 8-lane record program, emitted as code (a
                             plan's, or a direct GX format's) */
    unsigned broadcasts; /**< 8-lane vectors of those groups that load one 16-byte window for
                              both halves (vbroadcasti128): for the tests */
    unsigned byte_batches; /**< per-vertex batches of one-byte ops (the matrix indices): for the
                                tests */
    unsigned float_pairs; /**< two elements' binary32 pairs taken in one register (texture
                               coordinates): for the tests */
    unsigned matrices_beside; /**< texture coordinates stored with their matrix index's float
                                   inserted beside them (Dolphin's layout): for the tests */
    unsigned unrolled_passes; /**< per-vertex passes that hold four vertices a group (their
                                   ops written four times): for the tests */
    unsigned constants_held; /**< four-slot constant ops stored from the value the op before
                                  left in the register, not loaded again (a full record's
                                  defaults): for the tests */
    unsigned halves_loops; /**< 8-lane group loops written a second time storing each vector
                                as two 16-byte halves, taken where a draw's output is not
                                32-byte aligned: for the tests */
    unsigned gathered_loops; /**< loops of whole record-program groups under an index buffer,
                                  each record read from its entry's place (a one-stream
                                  plan's, for each entry width, plain draws and clamped
                                  ones): for the tests */
    int fma_division;   /**< the code divides a normalised conversion's value in the FMA
                             form (enum vfetch_jit_division) */
    unsigned fma_held;  /**< the entries (VFETCH_JIT_HELD_DIRECT, _INDEXED) whose per-vertex
                             ops divide in the FMA form too, by factors held in registers */
    int colour_words;   /**< its RGB565 / RGBA4444 colours read the shared word table (one load
                             a colour: lib/jit/colour_words.c), not two byte tables */
};

/** How the generated code divides a normalised conversion's integer v by d = 2^n - 1 (or
    2^(n-1) - 1): by one `vdivps`, or as v * hi + v * lo by one product and one fused
    multiply-add, hi = RN(1/d) and lo = RN(1/d - hi) (vfetch_jit_reciprocal), which gives the
    same correctly rounded quotient for every dividend the conversions make (checkasm's
    jit-fma-division proves it for all of them). The FMA form is the AVX2 variant's only. A
    plan's compile takes it in the 8-lane record groups, its two tables held in registers, and
    in an entry's per-vertex ops where the pass holds both factors in registers and the form
    was measured faster there, else divides there (VFETCH_JIT_FMA_GROUPS, the default:
    docs/decisions.md); VFETCH_JIT_DIVISION=fma asks for it everywhere (factors from the pool
    where not held), =divide nowhere. GX formats always divide. */
enum vfetch_jit_division { VFETCH_JIT_DIVIDE, VFETCH_JIT_FMA, VFETCH_JIT_FMA_GROUPS };

/** hi and lo of divisor d for the FMA form; for d 0 or 1 (lanes not divided) 1 and 0, so that
    the lane keeps its value. */
static inline void vfetch_jit_reciprocal(float d, float *hi, float *lo)
{
    if (d == 0.0f || d == 1.0f) {
        *hi = 1.0f;
        *lo = 0.0f;
        return;
    }
    const double r = 1.0 / (double)d;
    *hi = (float)r;
    *lo = (float)(r - (double)*hi);
}

/**
 * Writable memory for code of at most `bytes` bytes: *rw to write through, *rx the address the
 * code will run at (a second view of the same pages, or the same address once sealed), both
 * 64-byte aligned. Returns 0, or VFETCH_ENOMEM where the system gives no memory that can
 * become executable (probed once per process: a memfd arena's two views, else pages sealed by
 * mprotect).
 */
int vfetch_jit_memory_open(size_t bytes, uint8_t **rw, uint8_t **rx, struct vfetch_jit_code *code);

/** Make the written code executable and no longer writable (its first `used` bytes; the
    blocks or pages past them go back). 0 or VFETCH_ENOMEM (the mapping is then released). */
int vfetch_jit_memory_seal(struct vfetch_jit_code *code, size_t used);

/** A view of a plan's code for a disassembler (vfetch_*_plan_jit_code): zero bytes where the
    plan has none (has_code 0). */
static inline void vfetch_jit_view(const struct vfetch_jit_code *code, int has_code,
                                   struct vfetch_jit_code_view *view)
{
    *view = (struct vfetch_jit_code_view){ 0 };
    if (!has_code)
        return;
    view->bytes = code->mapping;
    view->size = code->code_end;
    view->entry = (size_t)((const uint8_t *)code->entry - (const uint8_t *)code->mapping);
    view->address = (uint64_t)(uintptr_t)code->mapping;
}

/** Release a code mapping (sealed or not). NULL and zeroed codes are allowed. */
void vfetch_jit_memory_free(struct vfetch_jit_code *code);

/** Which way the process makes code executable: "arena", "mprotect", or "none". */
const char *vfetch_jit_memory_method(void);

struct vfetch_gx_plan;
struct vfetch_gx_run_params;
struct vfetch_gx_result;

/**
 * A generated GX draw, called as vfetch_gx_run is (plan and parameters not NULL): it checks the
 * draw (the same checks, in the same order, as the portable tier), checks every index of the
 * kept vertices (skip value, bounds, bound arrays), converts, and fills the result. Where a
 * check fails, an index lies past its array, the output holds fewer than count records or the
 * count reaches the crossover, it has written nothing and jumps to `slow` (the portable tier,
 * vfetch_gx_run_portable) with the same arguments, which reports or clamps as documented.
 */
typedef int vfetch_jit_gx_fn(const struct vfetch_gx_plan *plan,
                             const struct vfetch_gx_run_params *params,
                             struct vfetch_gx_result *result);

struct vfetch_batch;
struct vfetch_gx_batch_result;
struct gx_prim_slot;

/**
 * A generated GX batched draw (vfetch_gx_state_draw_batch's, lib/jit/x86_batch.c), called as
 * vfetch_gx_batch_draw is: `params` holds the draw's vertices, bytes and count, the slot is the
 * command's primitive's. Where every
 * check passes, a direct format's writes the indices from the count's tiny entry, adds to the
 * batch's figures, converts the vertices and fills the result, and a format with indexed
 * attributes converts the vertices and ends in vfetch_gx_batch_finish; else it has written
 * nothing and jumps to vfetch_gx_batch_draw, with the same arguments.
 */
typedef int vfetch_jit_gx_batch_fn(const struct vfetch_gx_plan *plan,
                                   struct vfetch_gx_run_params *params,
                                   struct vfetch_batch *batch, const struct gx_prim_slot *slot,
                                   struct vfetch_gx_batch_result *result);

/** What a generated batched draw of a format with indexed attributes ends in once its records
    are written (vfetch_gx_batch_finish): the same arguments, and the vertices it skipped. */
typedef int vfetch_jit_gx_batch_finish_fn(const struct vfetch_gx_plan *plan,
                                          struct vfetch_gx_run_params *params,
                                          struct vfetch_batch *batch,
                                          const struct gx_prim_slot *slot,
                                          struct vfetch_gx_batch_result *result, uint32_t skipped);

/** A direct format's batched draw of PRIM_TINY vertices or more, its other checks passed,
    before its vertices (vfetch_gx_batch_long_indices): its indices written and how many, or
    VFETCH_EBATCH_FULL with nothing written. */
typedef int64_t vfetch_jit_gx_batch_indices_fn(const struct vfetch_gx_plan *plan,
                                               const struct vfetch_gx_run_params *params,
                                               const struct vfetch_batch *batch,
                                               const struct gx_prim_slot *slot);

/** Generate a GX plan's draw, running draws of fewer than `crossover` vertices (the rest go
    to `slow`, the portable tier), or of fewer than `crossover_per_vertex` where a direct
    format's whole groups cannot be emitted as its 8-lane record program. Sets code->crossover
    to the one in force; also code->entry_batch, the format's batched draw, whose draws it
    does not take go to `batch_slow` (vfetch_gx_batch_draw); a direct format's draws of
    PRIM_TINY vertices or more write their indices through `batch_indices`
    (vfetch_gx_batch_long_indices); a format with indexed attributes converts its records,
    then ends in `batch_finish` (vfetch_gx_batch_finish). NULL, or why there is none (a static
    sentence). */
const char *vfetch_jit_gx_compile(const struct vfetch_gx_plan *plan, uint32_t crossover,
                                  uint32_t crossover_per_vertex, vfetch_jit_gx_fn *slow,
                                  vfetch_jit_gx_batch_fn *batch_slow,
                                  vfetch_jit_gx_batch_finish_fn *batch_finish,
                                  vfetch_jit_gx_batch_indices_fn *batch_indices,
                                  struct vfetch_jit_code *code);

/** VFETCH_JIT_CROSSOVER=N: the crossover a record-program format's or plan's compile uses
    instead of its own (docs/jit.md), or 0 where it is unset or out of range (lib/jit/mode.c). */
uint32_t vfetch_jit_crossover_env(void);

/** How a compile chooses the tier of long draws where it measures (lib/jit/measure.c): by
    timing (the default), or as VFETCH_JIT_MEASURE says: "0"/"off" the class's fixed choice,
    "portable" or "generated" that answer without timing (for tests and measurements). */
enum vfetch_jit_measure {
    VFETCH_JIT_MEASURE_TIME,
    VFETCH_JIT_MEASURE_OFF,
    VFETCH_JIT_MEASURE_PORTABLE,
    VFETCH_JIT_MEASURE_GENERATED,
};
enum vfetch_jit_measure vfetch_jit_measure_mode(void);

/** Runs of each tier a measurement times (the first of each a warm-up). */
#define VFETCH_JIT_MEASURE_ROUNDS 5
/** Records of the synthetic draws a measurement times: the long one, the short one, and the
    least crossover it gives: the short draw's, since below it nothing was measured (a line
    through 64 and 1,024 records placed at 16 sent 16-record draws of the kit's e at avx512 to
    the 16-lane program, 0.52x Dolphin's JIT where the generated code gave 1.50x: the
    program's fixed part, which the line does not model, weighs most on the shortest draws). */
#define VFETCH_JIT_MEASURE_RECORDS 1024
#define VFETCH_JIT_MEASURE_SHORT 64
#define VFETCH_JIT_MEASURE_LEAST VFETCH_JIT_MEASURE_SHORT

/** Where a 16-lane program is a class's default for the long draws (a GX direct format's, an
    avx512 plan's), a second draw is timed after the one of VFETCH_JIT_MEASURE_RECORDS: past the
    L1 cache, its output VFETCH_JIT_MEASURE_PAST_L1_OUT bytes past a 64-byte line as malloc
    places a buffer and a stream's draws mostly start (where the heap put it on a line, the
    program's stores crossed none and gx-d-packed kept it in some processes, 0.56x the generated
    code at 4,096 vertices; vfetch_jit_measured_past_l1). On an Intel Xeon the program's 64-byte
    stores off a line each cross one: within 10 % of the generated code at 1,024 records in the
    L1 (gx-d, r300-r2), 1.4-1.9x slower at 4,096; and GX config e's packed records ran 5-12 %
    faster through the generated code at 1,024 and 1.2x slower at 4,096 (docs/decisions.md). The
    lead asked for, 20 % (the generated code's time at most 80 % of the program's, 1.25x): a 10
    % lead, within the placement's and the VM's spread, gave e's packed records to the generated
    code in some compiles, 0.92x the program at 4,096 vertices in the peer kit; 25 % (1.33x)
    sent r300-r2, 1.33-1.43x faster through the generated code there, to the program in 3 of 16
    processes. */
#define VFETCH_JIT_MEASURE_PAST_L1 4096
#define VFETCH_JIT_MEASURE_PAST_L1_LEAD 20
#define VFETCH_JIT_MEASURE_PAST_L1_OUT 16

/** One synthetic draw of `count` records (at most as many as the buffers its context set up
    hold) through the portable tier (portable 1) or the generated code. */
typedef void vfetch_jit_measure_fn(void *ctx, int portable, uint32_t count);

/** From how many records the portable tier should run a class's draws: UINT32_MAX (the
    generated code at every count), or a crossover. `run` times the long draw through each tier,
    VFETCH_JIT_MEASURE_ROUNDS times each, alternately; their fastest runs are compared, and the
    class's default (the portable tier where `portable_default` is 1, the generated code where
    0) stands unless the other is at least 10 % faster; with no default (-1), the faster one.
    Where the portable tier takes the long draws by default without being 10 % faster, the
    crossover is the long draw's count; where it takes them otherwise, the short draw is timed
    too and the crossover is where the straight line through the two differences crosses 0, at
    least VFETCH_JIT_MEASURE_LEAST and at most VFETCH_JIT_MEASURE_RECORDS. Not timing
    (VFETCH_JIT_MEASURE), the portable tier's crossover is `fixed`. The long draw's fastest
    times (ns; [0] the generated code, [1] the portable tier) in at_long, zeros where nothing
    was timed. */
uint32_t vfetch_jit_measured_crossover(vfetch_jit_measure_fn *run, void *ctx,
                                       int portable_default, uint32_t fixed, uint64_t at_long[2]);
/** Whether the second of two ways to run a draw (run's `portable` argument 1) is clearly
    faster than the first (0) on this machine: its fastest of VFETCH_JIT_MEASURE_ROUNDS draws of
    `count` records, alternately with the first's, at least lead_percent % faster. */
int vfetch_jit_measured_second(vfetch_jit_measure_fn *run, void *ctx, uint32_t count,
                               unsigned lead_percent);

/** Sets up *ctx for a draw of VFETCH_JIT_MEASURE_PAST_L1 records of `owner` (a plan or a GX
    format), its output VFETCH_JIT_MEASURE_PAST_L1_OUT bytes past a 64-byte line: the block to
    free, or NULL. */
typedef uint8_t *vfetch_jit_past_l1_setup_fn(const void *owner, void *ctx);

/** The crossover of a class whose default is the 16-lane program, given the first
    measurement's (`crossover` and `at_long`, vfetch_jit_measured_crossover's), after a draw of
    VFETCH_JIT_MEASURE_PAST_L1 records through each tier in a context `setup` fills (ctx; past
    the L1, the output off a line), where that draw can move the answer
    (vfetch_jit_past_l1_wanted) and VFETCH_JIT_MEASURE times: where the program kept the long
    draws, UINT32_MAX if the generated code leads by VFETCH_JIT_MEASURE_PAST_L1_LEAD % there,
    else `crossover`; where the generated code took them (UINT32_MAX),
    VFETCH_JIT_MEASURE_RECORDS if the program is the faster there, else UINT32_MAX. A program
    kept both times is timed once more in `again` (vfetch_jit_past_l1_again). `crossover`
    where nothing is timed. */
uint32_t vfetch_jit_measured_past_l1(vfetch_jit_measure_fn *run,
                                     vfetch_jit_past_l1_setup_fn *setup, const void *owner,
                                     void *ctx, void *again, uint32_t crossover,
                                     const uint64_t at_long[2]);
/** Whether that draw can move the answer: not where the generated code took the long draws
    leading by VFETCH_JIT_MEASURE_PAST_L1_LEAD % at 1,024 (at_long, as
    vfetch_jit_measured_crossover gives them), which spares most compiles its time (gx-a's
    vec4 records at avx512, twice as fast through the generated code: 90 µs). */
int vfetch_jit_past_l1_wanted(uint32_t crossover, const uint64_t at_long[2]);
/** That answer from the fastest times (ns) of the draw past the L1, [0] through the generated
    code, [1] through the portable tier. */
uint32_t vfetch_jit_past_l1_crossover(const uint64_t past_l1[2], uint32_t crossover);
/** Whether the program, kept at 1,024 records (`kept`, not UINT32_MAX) and again past the L1
    (`answer`, vfetch_jit_measured_past_l1's), is to be timed past the L1 once more, in a buffer
    of its own (allocated while the first is held, so at another address): it keeps the long
    draws only where both draws say so. On an Intel Xeon r300-r2's program past the L1 ran
    2.8-4.2 µs from one process to the next (its generated code 2.4-3.0, 1.4x faster in
    `vfetch_bench`), and its rare fast draws kept the program in 7 processes of 300. */
int vfetch_jit_past_l1_again(uint32_t kept, uint32_t answer);

/** That crossover from the fastest times (ns) of the short and the long draw, [0] through the
    generated code, [1] through the portable tier. */
uint32_t vfetch_jit_crossover_fit(const uint64_t at_short[2], const uint64_t at_long[2]);

/** The longest word copy (bytes) the avx512 level's generated code steps through 64 bytes at a
    time (lib/jit/x86_copy.c); longer ones, past the L1 cache, 32 at a time. */
#define VFETCH_JIT_WORD_COPY_ZMM_MOST 16384

/** VFETCH_JIT_DIVISION: "fma" or "divide", the form every plan's compile then uses (for tests,
    and to measure the FMA form on a CPU); -1 where it is unset or neither (lib/jit/mode.c). */
int vfetch_jit_division_env(void);

/** VFETCH_JIT_HELD=0..3: the entries (VFETCH_JIT_HELD_DIRECT, _INDEXED) of a plan's code
    whose per-vertex ops keep the held factors of the default division form, without measuring
    where they are faster (for tests, and to measure both forms on a CPU); -1 otherwise
    (lib/jit/mode.c). */
int vfetch_jit_held_env(void);

/** VFETCH_JIT_COLOUR_WORDS=0: the per-vertex pass's RGB565 / RGBA4444 colours by their two
    256-entry byte tables, not the shared 65,536-entry word table (for tests, and to measure the
    two forms on a CPU); 1 otherwise, the default (lib/jit/mode.c). */
int vfetch_jit_colour_words_env(void);

/** VFETCH_JIT_GROUPS=0 or 1: a direct GX format whose code would run whole 8-lane groups
    converts vertex by vertex (0) or keeps its groups (1) without measuring which is faster
    (for tests, and to measure the two on a CPU); -1 otherwise (lib/jit/mode.c). */
int vfetch_jit_groups_env(void);
/** VFETCH_JIT_GATHER: "0" no plan's indexed draws gather whole groups of their records
    (x86_record.c, gen_groups gathered), "1" every plan's where the groups fit, unweighed; else
    -1 (the compile weighs them against the per-vertex pass). */
int vfetch_jit_gather_env(void);

/** Whether the AVX2 variant reads a 16-bit big-endian index by one `movbe r8w` where r8's
    upper bits are zero (1), or by `movzx` and `rol` as the SSE4.1 variant does (0):
    VFETCH_JIT_MOVBE=1 or 0 asks (for tests, and to measure both on a CPU); else 1 on AMD's
    CPUs, 0 on the rest (lib/jit/mode.c). */
int vfetch_jit_movbe_indices(void);

/** Whether the AVX2 variant's 8-lane group loops are written a second time storing each
    vector as two 16-byte halves, for draws of at least GEN_HALVES_LEAST records whose output
    is off 32 bytes (1), or only with whole stores (0): VFETCH_JIT_HALVES=1 or 0 asks (for
    tests, and to measure both on a CPU); else 0 on AMD's CPUs, 1 on the rest
    (lib/jit/mode.c). */
int vfetch_jit_store_halves(void);

/** The RGBA8 word of every 16-bit container as one little-endian load reads its two bytes,
    from a colour op's two byte tables (bytes[0..255] the container's high byte's,
    bytes[256..511] the low byte's; first_high: the byte at the lower address is the high one):
    65,536 words shared by every plan of the process, built on first use and kept
    (lib/jit/colour_words.c). NULL where none can be had (out of memory, or every slot holding
    another pair's). */
const uint32_t *vfetch_jit_colour_words(const uint32_t bytes[512], int first_high);

struct vfetch_plan;

/** A plan's generated conversion: count >= 1 records into `out`, records[s] each stream's
    first record of the draw (validated). */
typedef void vfetch_jit_plan_fn(const uint8_t *const *records, uint64_t count, uint8_t *out);

/** The same draw of a plan of one stream, given the stream's first record: returns 0, so that
    vfetch_run ends in a tail call of it (the entry past the record's load from `records`). */
typedef int vfetch_jit_plan_one_fn(const uint8_t *record, uint64_t count, uint8_t *out);

/** A draw's index buffer as a plan's indexed conversion reads it (the layout is the generated
    code's: five qwords). */
struct vfetch_jit_index {
    const void *entries; /**< the draw's first entry (native byte order) */
    int64_t offset;      /**< added to every entry */
    uint64_t max_index;  /**< the highest index (clamped to) */
    uint64_t wide;       /**< 0: 16-bit entries, 1: 32-bit */
    /** 1: no entry plus the offset passes max_index, and the indexed streams' records[s] are
        their record `offset` (the offset added for the code): each entry is its record as it
        is, neither offset nor clamp applied. Only for code whose indexed_plain is set. 2: the
        same, and each indexed stream's binding holds the highest record's stream_reach bytes
        (only for code whose indexed_reach is set): its loads read as far. */
    uint64_t plain;
};

/** The same through an index buffer, whose every index (offset added, clamped) was validated:
    records[s] is an indexed stream's record 0, the others' first record of the draw. */
typedef void vfetch_jit_plan_indexed_fn(const uint8_t *const *records, uint64_t count,
                                        uint8_t *out, const struct vfetch_jit_index *index);

/** The entries of a plan's code (the draw without an index buffer, the one through it) whose
    per-vertex ops divide in the FMA form by factors held in registers, where the form is asked
    for (VFETCH_JIT_FMA_GROUPS or VFETCH_JIT_FMA) and the pass holds them; as a mask. */
enum { VFETCH_JIT_HELD_DIRECT = 1, VFETCH_JIT_HELD_INDEXED = 2 };

/** Generate a plan's conversion, and its indexed one where a stream is indexed, its divisions
    in the form `division` asks where the variant has it (the FMA form: the AVX2 variant), the
    per-vertex ops of the entries in `held` by held factors. NULL, or why there is none (a
    static sentence). */
const char *vfetch_jit_plan_compile(const struct vfetch_plan *plan,
                                    enum vfetch_jit_division division, unsigned held,
                                    struct vfetch_jit_code *code);

#endif
