/*
 * Real GameCube/Wii captures (the .dff files in ../shared/testdata/gx, Dolphin FIFO logs, format
 * in the README there): replay every frame's CP register writes and draw commands, and check that the
 * vertex sizes vfetch_gx_vertex_size() computes walk each frame's FIFO data exactly to its end.
 * Then replay each file again through a vfetch_gx_state at every ISA level and both layouts,
 * converting every draw: the output of each level must equal the reference (level "c")
 * output byte for byte, and every f32 attribute must equal its big-endian input bits.
 * Then into batches of records and 16-bit indices, draw by draw (vfetch_gx_state_draw_batch) and
 * frame by frame in runs of commands (vfetch_gx_state_run_commands): the same bytes.
 * Prints per-file totals (frames, draws, vertices, vertex formats seen). The capture walker is
 * gx_fifo_parse.c, shared with the replay benchmark (bench/vfetch_bench.c).
 *
 * Usage: test_gx_fifo DIR   (skips, exit 77, when DIR does not exist or holds no .dff file)
 */
#include <stdlib.h>
#include <string.h>

#include "gx_fifo_parse.h"
#include "testutil.h"
#include "vfetch/gx.h"

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Converting replay: one state, every draw's output appended to one buffer. */
struct converter {
    vfetch_gx_state *state;
    uint8_t *out;
    size_t used, cap;
    uint64_t float_checks, float_mismatches;
};

/* The f32 components of direct positions, normals and texcoords against their input bits. */
static void check_float_bits(struct converter *cv, const vfetch_gx_plan *plan, const uint8_t *vx,
                             uint32_t count, const uint8_t *out)
{
    const struct vfetch_gx_format *f = vfetch_gx_plan_format(plan);
    uint32_t off = f->pos_matrix_index;
    for (unsigned m = 0; m < 8; m++)
        off += f->tex_matrix_index[m];
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++) {
        const struct vfetch_gx_attr *at = &f->attr[a];
        const int is_color = a == VFETCH_GX_COLOR0 || a == VFETCH_GX_COLOR1;
        if (at->mode == VFETCH_GX_DIRECT && !is_color && at->format == VFETCH_GX_F32) {
            for (unsigned c = 0; c < at->count; c++) {
                /* normals: three components per location (NBT: three locations) */
                const unsigned loc = a == VFETCH_GX_POSITION ? VFETCH_GX_LOC_POSITION
                                     : a == VFETCH_GX_NORMAL ? VFETCH_GX_LOC_NORMAL + c / 3
                                                             : VFETCH_GX_LOC_TEXCOORD0 + a - VFETCH_GX_TEXCOORD0;
                const unsigned comp = a == VFETCH_GX_NORMAL ? c % 3 : c;
                const int slot = vfetch_gx_plan_location(plan, loc);
                for (uint32_t v = 0; v < count; v++) {
                    uint32_t got;
                    memcpy(&got, out + (size_t)v * vfetch_gx_plan_out_stride(plan) + 4 * ((size_t)slot + comp), 4);
                    cv->float_checks++;
                    cv->float_mismatches += got != be32(vx + (size_t)v * f->vertex_size + off + 4 * c);
                }
            }
        }
        off += at->stream_size;
    }
}

/* Convert one draw (vertices at vx) with the state's plan for format vat. */
static int convert_draw(struct converter *cv, unsigned vat, const uint8_t *vx, uint32_t count)
{
    const vfetch_gx_plan *plan = NULL;
    int err = vfetch_gx_state_plan(cv->state, vat, &plan);
    if (err)
        return err;
    const size_t need = (size_t)count * vfetch_gx_plan_out_stride(plan);
    if (cv->used + need > cv->cap) {
        cv->cap = 2 * (cv->used + need);
        cv->out = realloc(cv->out, cv->cap);
    }
    struct vfetch_gx_run_params p;
    vfetch_gx_run_params_init(&p);
    p.vertices = vx;
    p.vertices_size = (size_t)count * vfetch_gx_plan_format(plan)->vertex_size;
    p.count = count;
    p.out = cv->out + cv->used;
    p.out_size = need;
    struct vfetch_gx_result r;
    err = vfetch_gx_run(plan, &p, &r);
    if (err)
        return err;
    if (r.written != count)
        return -1000;
    check_float_bits(cv, plan, vx, count, cv->out + cv->used);
    cv->used += need;
    return 0;
}

/* What the walk saw beyond gx_fifo_totals: the distinct vertex formats. */
struct formats {
    unsigned count;
    struct vfetch_gx_regs seen[64];
};

static void note_format(struct formats *fm, const struct vfetch_gx_regs *d)
{
    for (unsigned i = 0; i < fm->count; i++)
        if (!memcmp(&fm->seen[i], d, sizeof *d))
            return;
    if (fm->count < 64)
        fm->seen[fm->count++] = *d;
}

static int count_format(void *user, const struct gx_fifo_draw *d)
{
    note_format(user, &d->desc);
    return 0;
}

/* Every CP write goes to the state; registers it does not hold (VFETCH_EREGISTER) are not
   vertex state. */
static void state_cp_write(void *user, uint8_t addr, uint32_t value, int initial)
{
    (void)initial;
    struct converter *cv = user;
    vfetch_gx_load_cp_reg(cv->state, addr, value);
}

static int state_draw(void *user, const struct gx_fifo_draw *d)
{
    const int err = convert_draw(user, d->vat, d->vertices, d->count);
    if (err)
        fprintf(stderr, "frame %u: converting the draw at %zu: %d %s\n", d->frame, d->offset, err,
                vfetch_strerror(err));
    return err;
}

/* Every level this CPU has, each with both layouts, against the reference. */
static void convert_file(const uint8_t *b, size_t n, const char *name)
{
    static const unsigned masks[] = { 0, VFETCH_CPU_SSE2, VFETCH_CPU_SSE2 | VFETCH_CPU_SSE41,
                                      VFETCH_CPU_SSE2 | VFETCH_CPU_SSE41 | VFETCH_CPU_AVX2,
                                      VFETCH_CPU_SSE2 | VFETCH_CPU_SSE41 | VFETCH_CPU_AVX2 | VFETCH_CPU_AVX512,
                                      VFETCH_CPU_NEON };
    const unsigned have = vfetch_cpu_flags();
    for (unsigned layout = 0; layout < 2; layout++) {
        struct converter ref = { 0 };
        for (unsigned m = 0; m < sizeof masks / sizeof masks[0]; m++) {
            if ((masks[m] & have) != masks[m])
                continue;
            vfetch_set_cpu_mask(masks[m]);
            const struct vfetch_gx_state_params sp = { (enum vfetch_gx_layout)layout, VFETCH_GX_COLOR_FLOAT,
                                                       VFETCH_PATH_AUTO };
            struct converter cv = { 0 };
            CHECK_EQ(vfetch_gx_state_create(&sp, &cv.state), 0);
            const struct gx_fifo_callbacks cb = { state_cp_write, state_draw, &cv, NULL };
            CHECK_EQ(gx_fifo_walk(b, n, name, &cb, NULL), 0);
            CHECK(cv.float_checks > 0);
            CHECK_EQ(cv.float_mismatches, 0);
            if (m == 0) {
                ref = cv;
                ref.state = NULL;
            } else {
                CHECK_EQ(cv.used, ref.used);
                CHECK(cv.used == ref.used && memcmp(cv.out, ref.out, cv.used) == 0);
                free(cv.out);
            }
            printf("    converted at %-6s %s layout: %zu output bytes, %llu f32 components = input bits\n",
                   vfetch_cpu_name(), layout ? "packed" : "vec4", m ? cv.used : ref.used,
                   (unsigned long long)(m ? cv.float_checks : ref.float_checks));
            vfetch_gx_state_free(cv.state);
        }
        free(ref.out);
    }
    vfetch_set_cpu_mask(~0u);
}

/* One call per draw, and runs of commands: the captures replayed into batches (16-bit
   indices with restart, Dolphin's default on hosts with it) draw by draw
   (vfetch_gx_state_draw_batch from the walker's draws) and frame by frame through
   vfetch_gx_state_run_commands (the walker's frame bytes, the commands it does not own stepped
   over as the walker steps over them), both flushing where a draw does not fit. Every flushed
   batch and the last must be the same bytes. */
#define BATCH_VERTEX_BYTES (64u << 10)
#define BATCH_INDICES 8192u

struct batcher {
    vfetch_gx_state *state;
    struct vfetch_batch batch;
    uint64_t digest; /* of every flushed batch's bytes, in order */
    unsigned flushes, runs;
    uint64_t draws, indices;
    int failed;
};

static void batcher_open(struct batcher *b)
{
    memset(b, 0, sizeof *b);
    const struct vfetch_gx_state_params sp = { VFETCH_GX_LAYOUT_PACKED, VFETCH_GX_COLOR_RGBA8,
                                               VFETCH_PATH_AUTO };
    CHECK_EQ(vfetch_gx_state_create(&sp, &b->state), 0);
    const struct vfetch_gx_index_options o = { VFETCH_INDEX_U16, 1, 0, 0 };
    CHECK_EQ(vfetch_gx_state_set_index_options(b->state, &o), 0);
    b->batch.vertices = malloc(BATCH_VERTEX_BYTES);
    b->batch.vertices_capacity = BATCH_VERTEX_BYTES;
    b->batch.indices = malloc(BATCH_INDICES * 2);
    b->batch.indices_capacity = BATCH_INDICES;
    CHECK(b->batch.vertices && b->batch.indices);
}

static void batcher_flush(struct batcher *b)
{
    uint64_t h = b->digest ^ 0xcbf29ce484222325u;
    const uint8_t *v = b->batch.vertices, *x = b->batch.indices;
    for (size_t i = 0; i < b->batch.vertices_used; i++)
        h = (h ^ v[i]) * 0x100000001b3u;
    for (size_t i = 0; i < 2 * b->batch.indices_used; i++)
        h = (h ^ x[i]) * 0x100000001b3u;
    b->digest = h ^ b->batch.vertex_count;
    b->batch.vertices_used = b->batch.indices_used = 0;
    b->batch.vertex_count = 0;
    b->flushes++;
}

static void batcher_close(struct batcher *b)
{
    vfetch_gx_state_free(b->state);
    free(b->batch.vertices);
    free(b->batch.indices);
}

static void batch_cp_write(void *user, uint8_t addr, uint32_t value, int initial)
{
    struct batcher *b = user;
    (void)initial;
    vfetch_gx_load_cp_reg(b->state, addr, value);
}

static int batch_draw(void *user, const struct gx_fifo_draw *d)
{
    struct batcher *b = user;
    const uint8_t command = (uint8_t)(0x80 | d->primitive << 3 | d->vat);
    const size_t bytes = (size_t)d->count * d->vertex_size;
    struct vfetch_gx_batch_result r;
    int err = vfetch_gx_state_draw_batch(b->state, command, d->vertices, bytes, d->count,
                                         &b->batch, &r);
    if (err == VFETCH_EBATCH_FULL) {
        batcher_flush(b);
        err = vfetch_gx_state_draw_batch(b->state, command, d->vertices, bytes, d->count,
                                         &b->batch, &r);
    }
    CHECK_EQ(err, 0);
    b->draws++;
    b->indices += r.indices;
    return err;
}

/* The initial cpMem only: the frames' own LOAD_CP_REG commands go through the runs. */
static void runs_cp_write(void *user, uint8_t addr, uint32_t value, int initial)
{
    if (initial)
        batch_cp_write(user, addr, value, initial);
}

static int runs_frame(void *user, unsigned frame, const uint8_t *data, size_t size)
{
    struct batcher *b = user;
    size_t at = 0;
    while (at < size) {
        struct vfetch_gx_commands_result r;
        const int err = vfetch_gx_state_run_commands(b->state, data + at, size - at, &b->batch, &r);
        b->runs++;
        CHECK_EQ(err, 0);
        if (err)
            return err;
        at += r.consumed;
        b->draws += r.draws;
        b->indices += r.indices;
        if (r.stop == VFETCH_GX_STOP_BATCH_FULL)
            batcher_flush(b);
        else if (r.stop == VFETCH_GX_STOP_FOREIGN) {
            const size_t len = gx_fifo_command_length(data + at, size - at);
            if (!len || len > size - at) { /* the walker refuses such a frame too */
                CHECK(0);
                return -1;
            }
            at += len;
        }
        else if (r.stop != VFETCH_GX_STOP_END) {
            fprintf(stderr, "frame %u: the run stopped at %zu (%d)\n", frame, at, (int)r.stop);
            CHECK(0);
            return -1;
        }
    }
    CHECK_EQ(at, size);
    return 0;
}

static void batch_file(const uint8_t *data, size_t n, const char *name)
{
    struct batcher one, runs;
    batcher_open(&one);
    batcher_open(&runs);
    const struct gx_fifo_callbacks by_draw = { batch_cp_write, batch_draw, &one, NULL };
    CHECK_EQ(gx_fifo_walk(data, n, name, &by_draw, NULL), 0);
    const struct gx_fifo_callbacks by_run = { runs_cp_write, NULL, &runs, runs_frame };
    CHECK_EQ(gx_fifo_walk(data, n, name, &by_run, NULL), 0);
    batcher_flush(&one);
    batcher_flush(&runs);
    CHECK_EQ(runs.draws, one.draws);
    CHECK_EQ(runs.indices, one.indices);
    CHECK_EQ(runs.flushes, one.flushes);
    CHECK(runs.digest == one.digest);
    CHECK(one.indices > 0);
    printf("    batched: %llu draws, %llu indices, %u batches; runs of commands: %u runs, the same "
           "bytes: %s\n",
           (unsigned long long)one.draws, (unsigned long long)one.indices, one.flushes, runs.runs,
           runs.digest == one.digest ? "yes" : "NO");
    batcher_close(&one);
    batcher_close(&runs);
}

static void replay_file(const char *path, const char *name)
{
    size_t n = 0;
    uint8_t *b = gx_fifo_load(path, &n);
    CHECK(b != NULL);
    if (!b)
        return;

    struct gx_fifo_totals t;
    struct formats fm = { 0 };
    const struct gx_fifo_callbacks cb = { NULL, count_format, &fm, NULL };
    CHECK_EQ(gx_fifo_walk(b, n, name, &cb, &t), 0);
    CHECK(t.draws > 0);
    if (!strcmp(name, "v1cb0df8_texture.dff"))
        CHECK_EQ(t.vertices, 12330); /* the count the capture's README gives */
    printf("%-28s %3u frames %5u draws %7llu vertices %3u CP writes %2u vertex formats\n", name,
           t.frames, t.draws, (unsigned long long)t.vertices, t.cp_writes, fm.count);
    for (unsigned i = 0; i < fm.count; i++) {
        uint32_t vsize = 0;
        vfetch_gx_vertex_size(&fm.seen[i], &vsize);
        printf("    VCD %08x %08x VAT %08x %08x %08x: %u bytes per vertex\n", fm.seen[i].vcd_lo,
               fm.seen[i].vcd_hi, fm.seen[i].vat_a, fm.seen[i].vat_b, fm.seen[i].vat_c, vsize);
    }
    convert_file(b, n, name);
    batch_file(b, n, name);
    free(b);
}

int main(int argc, char **argv)
{
    const char *dir_name = argc > 1 ? argv[1] : "../shared/testdata/gx";
    char **names = NULL;
    const int files = gx_fifo_list(dir_name, &names);
    if (files < 0) { /* meson counts exit 77 as SKIP: the captures live outside the repository */
        printf("gx-fifo: skipped: no capture directory %s (the .dff captures are kept in "
               "../shared/testdata/gx beside the clone)\n", dir_name);
        return 77;
    }
    for (int i = 0; i < files; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir_name, names[i]);
        replay_file(path, names[i]);
    }
    gx_fifo_free_names(names, files);
    if (files == 0) { /* the directory without its captures: skipped too, and said so */
        printf("gx-fifo: skipped: no .dff capture in %s\n", dir_name);
        return 77;
    }
    CHECK_EQ(files, 3); /* some but not all: a broken copy, a failure */
    return test_summary("gx-fifo");
}
