/*
 * checkasm's framework (checkasm.c): what every family of checks shares -- the options, the
 * random numbers, the level table, guarded buffers, reference runs, output comparison -- and
 * each family's entry point, which main calls in the order below.
 */
#ifndef VFETCH_CHECKASM_H
#define VFETCH_CHECKASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu.h"
#include "dsp.h"
#include "internal.h"
#include "gx/gx_dsp.h"
#include "guard.h"
#include "testutil.h"

/* testutil.h's tallies are static, one pair per file. checkasm.c owns the ones test_summary
   prints; the other files count into those through these pointers, so that the summary and
   every family's "ok"/"FAILED" see every check and mismatch. */
extern unsigned *const checkasm_checks, *const checkasm_failures;
#define test_checks (*checkasm_checks)
#define test_failures (*checkasm_failures)

/* ---- options, random numbers ------------------------------------------------------------ */

extern uint64_t opt_seed;
extern bool opt_quick;
extern unsigned mismatch_reports; /* the first 10 mismatches print their bytes */

/* Whether the run includes the kernel or family `name` (no --kernel, or --kernel name; --isa
   is in the level table). */
bool checkasm_wants(const char *name);
/* For a family too long for one share (prim): whether --kernel leaves it in (no --kernel, or
   --kernel name), and whether the run includes its piece `piece`: every piece under --kernel,
   else the pieces dealt out across the --part shares, so that both cores share the family.
   Each piece seeds itself by its own name (rng_seed_for), so that both ways replay the same
   cases. */
bool checkasm_family_runs(const char *name);
bool checkasm_wants_piece(const char *name, unsigned piece);

uint64_t rnd(void);
uint32_t rnd_below(uint32_t n);
void rnd_fill(uint8_t *p, size_t n);

/* Seed for one named test, so that --kernel replays the same cases as a full run. */
void rng_seed_for(const char *name);

/* ---- ISA levels ---------------------------------------------------------------------------- */

struct level {
    const char *name;
    unsigned bit;
    struct vfetch_dsp dsp;
    struct vfetch_gx_dsp gx; /* GX's table (lib/gx/gx_dsp.h) at the same level */
};

/* The levels this CPU has (and --isa allows), lowest first, and the reference's tables. */
extern struct level levels[5];
extern unsigned num_levels;
extern struct vfetch_dsp ref_dsp;
extern struct vfetch_gx_dsp ref_gx;

/* The CPU mask that selects level l and those below it. */
unsigned level_mask(unsigned l);

/* A format's plan at level l (the CPU mask set to it), checked to be created. */
vfetch_plan *plan_at_level(const struct vfetch_plan_desc *d, unsigned l);

/* A plan variant: the level's plan with a given record program swapped in. */
struct variant {
    const char *name;
    unsigned lanes;
    int wide;
    vfetch_record_fn *fn;
};

/* The variants level l can run: "chosen" (the plan as created), then its programs. */
unsigned level_variants(const struct level *l, struct variant v[4]);

/* Make a plan run variant v alone (its program for every count); "chosen" changes nothing
   (and returns the plan's program, NULL on the per-op path). Returns the variant's program,
   or NULL when the plan cannot be lowered to it. */
const struct vfetch_record_prog *plan_use_variant(vfetch_plan *plan, const struct variant *v);

/* Flush-to-zero / denormals-are-zero while a kernel runs (the reference always runs without). */
void fp_flush_begin(bool on, unsigned level_bit);
void fp_flush_end(bool on);

/*
 * Compare two output buffers of records `stride` bytes apart. On a difference: one report with
 * the vertex's input bytes (src/src_len of that vertex), both records, the first differing
 * byte and the command that replays it. Returns true when equal.
 */
bool compare_outputs(const char *what, const char *isa, const char *detail,
                     const uint8_t *want, const uint8_t *got, size_t size, size_t stride,
                     const uint8_t *src, size_t src_stride, size_t src_len);

/* ---- kernels, random formats ------------------------------------------------------------ */

/* A per-op kernel: one format x conversion, named as --kernel and --list name it. */
struct kernel {
    char name[40];
    enum vfetch_format format;
    enum vfetch_conversion conversion;
};

extern struct kernel kernels[VFETCH_FORMAT_COUNT * VFETCH_CONV_COUNT];
extern unsigned num_kernels;

/* Byte orders by enum vfetch_byte_order, for mismatch reports. */
extern const char *const order_names[5];

/* The identity op of kernel k reading contiguous components from offset 0. */
struct vfetch_op full_op(const struct kernel *k);

/*
 * A random valid vertex format. Returns true when it is regular: each op writes its own vec4,
 * reads one stream, and the output stride is whole vec4s -- what every R300 format without
 * straddling or repeated DST_VEC_LOC is, and what a record program must always express.
 */
bool random_plan_desc(struct vfetch_plan_desc *d);

/* The tests that call the run's internal entry point (vfetch_execute, which takes instanced
   streams already moved to their record: vfetch_run does that) read
   instanced streams as constant ones. */
void instanced_as_constant(struct vfetch_plan_desc *d);

/* ---- buffers, reference runs ------------------------------------------------------------ */

/* size bytes against a guard page: starting `align` bytes after one (at_head), or ending at
   one. *alloc is what guard_free takes; exits on failure. */
uint8_t *place(size_t size, bool at_head, unsigned align, uint8_t **alloc);

/* Buffers of one run, each exactly as large as the run needs, against guard pages. */
struct run_buffers {
    uint8_t *alloc[VFETCH_MAX_STREAMS + 2];
    struct vfetch_binding bind[VFETCH_MAX_STREAMS];
    uint8_t *idx;
    size_t idx_size;
    enum vfetch_index_type idx_type;
    uint32_t first, count;
    int64_t index_offset;
    uint32_t max_index;
    uint32_t instance, base_instance; /* instanced streams read record base + instance / divisor */
    size_t out_size;
};

/* Buffers for a run of `count` vertices, or of a random count for RUN_RANDOM_COUNT. */
#define RUN_RANDOM_COUNT UINT32_MAX

/* Direct draws only (no index buffer), for RUN_DIRECT in count. */
#define RUN_DIRECT 0x80000000u

/* vfetch_run of plan over b's buffers into out. */
int run_with(const vfetch_plan *plan, const struct run_buffers *b, uint8_t *out);

/* A format's reference output: its plan at level c, buffers for a run of it, the output
   buffer's initial pattern and the reference's result over it. */
struct reference_run {
    vfetch_plan *ref;
    struct run_buffers b;
    bool head;
    uint8_t *want, *pattern;
};

/* count as for struct run_buffers (RUN_RANDOM_COUNT, RUN_DIRECT); head: the buffers start
   after a guard page (1), end before one (0), or either (-1). */
bool reference_run_make_at(const struct vfetch_plan_desc *d, struct reference_run *rr,
                           uint32_t count, int head);
void reference_run_free(struct reference_run *rr);

/* Run plan over rr's buffers (its output placed and pre-filled as rr's was) and compare with
   rr's reference output. */
void reference_run_compare(const vfetch_plan *plan, const struct reference_run *rr,
                           const char *what, const char *isa, const char *detail);

/* ---- families, in the order main runs them ------------------------------------------------- */

void check_kernels(void);   /* convert.c: the per-op kernels, each by its name */
void check_record(void);    /* record.c: record programs ("record") */
void check_word_copy(void); /* word_copy.c: word copies ("record") */
void check_gx(void);        /* gx.c: gathered programs ("record"), index columns ("gx-index") */
void check_texel(void);     /* texel.c: the texel kernels ("texel") */
void check_gx_texture(void); /* gx_texture.c: the GX texture kernels ("gx-texture") */
void check_jit(void);       /* jit.c: the JIT tier's generated code ("jit") */
void check_prim(void);      /* prim.c: primitives to index buffers ("prim") */
void check_prim_index(void); /* prim_index.c: draws through guest index buffers ("prim-index") */

#endif
