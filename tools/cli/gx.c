/*
 * `vfetch gx`: replay a Dolphin FIFO capture through a vfetch_gx_state, converting every draw,
 * and print frames, draws, vertices, CP writes and the vertex formats. The capture is walked
 * with the gx-fifo test's walker, tests/gx/gx_fifo_parse.c, which tools/meson.build compiles
 * into this library, so that the capture format is parsed in one place.
 *
 * With --commands, each frame's FIFO bytes also go through vfetch_gx_state_run_commands into a
 * batch, as an emulator's command processor would hand them over (the walker's command lengths
 * step over what the runs do not own, a full batch is flushed), and every draw the walker finds
 * goes through vfetch_gx_state_draw_batch into a batch of its own: the two must append the same
 * draws, records, indices and bytes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "gx_fifo_parse.h"
#include "options.h"
#include "vfetch/gx.h"

/* Captures are read whole; a bound keeps a device such as /dev/zero from filling memory. */
#define GX_CAPTURE_LIMIT ((size_t)1 << 30)
/* Distinct vertex formats (VAT number and its registers) listed; more are counted. */
#define GX_REPLAY_FORMATS 32
/* --commands: the batch's default capacities (small enough that the captures' batches fill up
   now and then) and the largest ones taken. */
#define GX_BATCH_VERTICES 65536u
#define GX_BATCH_INDICES 16384u
#define GX_BATCH_VERTICES_MAX (1u << 26)
#define GX_BATCH_INDICES_MAX (1u << 24)

/* A batch as an emulator keeps one between flushes, and what went into it. Each flushed batch
   is folded into hash (FNV-1a over its figures and used bytes), so that two passes that flush
   the same batches end with the same hash. */
struct gx_batch_pass {
    struct vfetch_batch batch;
    unsigned index_bytes;
    uint64_t draws, vertices, indices, flushes, indexed_draws;
    uint64_t hash;
    /* draw by draw: the stride of the batch's records, whether a draw of another stride joined
       them, and how many flushed batches were so mixed */
    uint32_t stride;
    int mixed;
    uint64_t mixed_batches;
};

struct gx_replay {
    vfetch_gx_state *state;
    FILE *errs;
    const char *path;
    uint8_t *out; /* one draw's converted vertices, reused */
    size_t out_size;
    uint64_t converted, out_bytes;
    unsigned indexed_draws;
    int reported; /* a draw's failure is printed: the walk's failure needs no other message */
    unsigned formats, unlisted_draws;
    struct {
        unsigned vat;
        struct vfetch_gx_regs desc;
        uint32_t vertex_size;
        unsigned draws;
        uint64_t vertices;
    } seen[GX_REPLAY_FORMATS];
    /* --commands: a second state that takes the FIFO bytes in runs (the first one's registers
       come from the walker's writes, its draws go to draw_by_draw one by one) */
    int commands;
    vfetch_gx_state *run_state;
    struct gx_batch_pass in_runs, draw_by_draw;
    uint64_t runs, stops[VFETCH_GX_STOP_ERROR + 1], run_cp_writes;
};

static const char *const gx_stop_names[VFETCH_GX_STOP_ERROR + 1] = {
    "end", "foreign", "truncated", "batch full", "error",
};

static uint64_t gx_fnv(uint64_t hash, const void *data, size_t size)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < size; i++)
        hash = (hash ^ p[i]) * 0x100000001b3u;
    return hash;
}

static int gx_batch_open(struct gx_batch_pass *p, size_t vertex_bytes, size_t indices,
                         unsigned index_bytes)
{
    memset(p, 0, sizeof *p);
    p->index_bytes = index_bytes;
    p->hash = 0xcbf29ce484222325u;
    p->batch.vertices = malloc(vertex_bytes);
    p->batch.indices = malloc(indices * index_bytes);
    p->batch.vertices_capacity = vertex_bytes;
    p->batch.indices_capacity = indices;
    return p->batch.vertices && p->batch.indices ? 0 : VFETCH_ENOMEM;
}

static void gx_batch_close(struct gx_batch_pass *p)
{
    free(p->batch.vertices);
    free(p->batch.indices);
}

static int gx_batch_empty(const struct vfetch_batch *b)
{
    return !b->vertices_used && !b->vertex_count && !b->indices_used;
}

/* What the emulator does with a batch it cannot append to, and at the end: draws it (here,
   folds it into the hash) and starts the next one. */
static void gx_batch_flush(struct gx_batch_pass *p)
{
    struct vfetch_batch *b = &p->batch;
    if (gx_batch_empty(b))
        return;
    const uint64_t figures[3] = { b->vertices_used, b->vertex_count, b->indices_used };
    p->hash = gx_fnv(p->hash, figures, sizeof figures);
    p->hash = gx_fnv(p->hash, b->vertices, b->vertices_used);
    p->hash = gx_fnv(p->hash, b->indices, b->indices_used * p->index_bytes);
    b->vertices_used = b->indices_used = 0;
    b->vertex_count = 0;
    p->flushes++;
    p->mixed_batches += p->mixed;
    p->mixed = 0;
}

/* Whether the format of these registers reads an array (VFETCH_EMISSING_STREAM from such a
   draw: this replay maps no guest memory). */
static int gx_indexed(const struct vfetch_gx_regs *regs)
{
    struct vfetch_gx_format f;
    if (vfetch_gx_parse(regs, &f) != 0)
        return 0;
    for (unsigned id = 0; id < VFETCH_GX_NUM_ATTRS; id++)
        if (f.attr[id].mode >= VFETCH_GX_INDEX8)
            return 1;
    return 0;
}

/* A draw neither pass could append: a refusal naming the draw (a batch too small for it names
   the two options). Returns 1, the walk's failure. */
static int gx_batch_refusal(struct gx_replay *r, int err, unsigned frame, size_t offset,
                            unsigned vat, uint32_t count, const struct vfetch_gx_regs *regs)
{
    const struct vfetch_batch *b = &r->draw_by_draw.batch;
    char where[400];
    if (err == VFETCH_EBATCH_FULL) {
        refusal(r->errs, err, "%.200s: frame %u, draw at byte %zu (VAT %u, %u vertices) in an "
                "empty batch of --batch-vertices %zu, --batch-indices %zu", r->path, frame,
                offset, vat, count, b->vertices_capacity, b->indices_capacity);
    } else {
        snprintf(where, sizeof where, "%.200s: frame %u, draw at byte %zu (VAT %u, %u vertices) "
                 "into a batch: ", r->path, frame, offset, vat, count);
        gx_refusal(r->errs, err, regs, where);
    }
    r->reported = 1;
    return 1;
}

/* The walker's draw, one by one into draw_by_draw: a full batch is flushed and the draw made
   again; a draw that reads arrays is counted (nothing is mapped). */
static int gx_draw_by_draw(struct gx_replay *r, const struct gx_fifo_draw *d)
{
    struct gx_batch_pass *p = &r->draw_by_draw;
    const uint8_t command = (uint8_t)(0x80 | d->primitive << 3 | d->vat);
    const size_t bytes = (size_t)d->count * d->vertex_size;
    struct vfetch_gx_batch_result appended;
    int err = vfetch_gx_state_draw_batch(r->state, command, d->vertices, bytes, d->count,
                                         &p->batch, &appended);
    if (err == VFETCH_EBATCH_FULL && !gx_batch_empty(&p->batch)) {
        gx_batch_flush(p);
        err = vfetch_gx_state_draw_batch(r->state, command, d->vertices, bytes, d->count,
                                         &p->batch, &appended);
    }
    if (!err) {
        const vfetch_gx_plan *plan;
        if (appended.vertices && vfetch_gx_state_plan(r->state, d->vat, &plan) == 0) {
            const uint32_t stride = vfetch_gx_plan_out_stride(plan);
            if (p->batch.vertex_count == appended.vertices) /* the batch's first records */
                p->stride = stride;
            else if (stride != p->stride)
                p->mixed = 1;
        }
        p->draws++;
        p->vertices += appended.vertices;
        p->indices += appended.indices;
        return 0;
    }
    if (err == VFETCH_EMISSING_STREAM && gx_indexed(&d->desc)) {
        p->indexed_draws++;
        return 0;
    }
    return gx_batch_refusal(r, err, d->frame, d->offset, d->vat, d->count, &d->desc);
}

static struct vfetch_gx_regs gx_state_regs(const vfetch_gx_state *st, unsigned vat)
{
    const struct vfetch_gx_regs regs = {
        vfetch_gx_state_reg(st, 0x50), vfetch_gx_state_reg(st, 0x60),
        vfetch_gx_state_reg(st, (uint8_t)(0x70 + vat)), vfetch_gx_state_reg(st, (uint8_t)(0x80 + vat)),
        vfetch_gx_state_reg(st, (uint8_t)(0x90 + vat)),
    };
    return regs;
}

/* A frame's FIFO bytes in runs, as an emulator hands them over: each run goes as far as it
   can; the caller steps over a command it does not own (the walker's length), flushes a full
   batch, and steps over a draw that reads arrays (nothing is mapped). A command cut short, or
   one the walker does not know, ends the frame's runs: the walk that follows reports it. */
static int gx_run_frame(void *user, unsigned frame, const uint8_t *data, size_t size)
{
    struct gx_replay *r = user;
    struct gx_batch_pass *p = &r->in_runs;
    size_t at = 0;
    while (at < size) {
        struct vfetch_gx_commands_result res = { 0 }; /* an argument refused: nothing done */
        const int err = vfetch_gx_state_run_commands(r->run_state, data + at, size - at,
                                                     &p->batch, &res);
        r->runs++;
        r->stops[res.stop]++;
        r->run_cp_writes += res.cp_writes;
        p->draws += res.draws;
        p->vertices += res.vertices;
        p->indices += res.indices;
        at += res.consumed;
        if (res.stop == VFETCH_GX_STOP_END || res.stop == VFETCH_GX_STOP_TRUNCATED)
            return 0;
        if (res.stop == VFETCH_GX_STOP_FOREIGN) {
            const size_t len = gx_fifo_command_length(data + at, size - at);
            if (!len || len > size - at)
                return 0;
            at += len;
            continue;
        }
        if (res.stop == VFETCH_GX_STOP_BATCH_FULL && !gx_batch_empty(&p->batch)) {
            gx_batch_flush(p);
            continue;
        }
        /* a draw that failed, or fits no batch: the state's registers size it and name it */
        const unsigned vat = data[at] & 7u;
        const uint32_t count = (uint32_t)data[at + 1] << 8 | data[at + 2];
        const struct vfetch_gx_regs regs = gx_state_regs(r->run_state, vat);
        uint32_t vertex_size;
        if (err == VFETCH_EMISSING_STREAM && gx_indexed(&regs) &&
            vfetch_gx_vertex_size(&regs, &vertex_size) == 0) {
            p->indexed_draws++;
            at += 3 + (size_t)count * vertex_size; /* the run checked that it is all there */
            continue;
        }
        return gx_batch_refusal(r, err ? err : VFETCH_EBATCH_FULL, frame, at, vat, count, &regs);
    }
    return 0;
}

/* Every CP write goes to the state, the capture's initial cpMem included; the registers a
   state does not hold (VFETCH_EREGISTER: most of cpMem) are not vertex state. */
static void gx_replay_cp_write(void *user, uint8_t addr, uint32_t value, int initial)
{
    struct gx_replay *r = user;
    (void)vfetch_gx_load_cp_reg(r->state, addr, value);
    if (initial && r->commands) /* the FIFO's own writes reach it through its runs */
        (void)vfetch_gx_load_cp_reg(r->run_state, addr, value);
}

static void gx_replay_note(struct gx_replay *r, const struct gx_fifo_draw *d)
{
    unsigned i = 0;
    while (i < r->formats && (r->seen[i].vat != d->vat ||
                              memcmp(&r->seen[i].desc, &d->desc, sizeof d->desc) != 0))
        i++;
    if (i == r->formats) {
        if (i == GX_REPLAY_FORMATS) {
            r->unlisted_draws++;
            return;
        }
        r->formats++;
        r->seen[i].vat = d->vat;
        r->seen[i].desc = d->desc;
        r->seen[i].vertex_size = d->vertex_size;
        r->seen[i].draws = 0;
        r->seen[i].vertices = 0;
    }
    r->seen[i].draws++;
    r->seen[i].vertices += d->count;
}

/* One draw: the state's plan for its VAT, then its vertices converted. Indexed attributes read
   arrays that arrive as memory updates, which the walker does not apply: such draws are counted,
   not converted. */
static int gx_replay_draw(void *user, const struct gx_fifo_draw *d)
{
    struct gx_replay *r = user;
    gx_replay_note(r, d);
    if (r->commands && gx_draw_by_draw(r, d))
        return 1;
    const vfetch_gx_plan *plan;
    int err = vfetch_gx_state_plan(r->state, d->vat, &plan);
    if (!err) {
        const struct vfetch_gx_format *f = vfetch_gx_plan_format(plan);
        for (unsigned id = 0; id < VFETCH_GX_NUM_ATTRS; id++) {
            if (f->attr[id].mode >= VFETCH_GX_INDEX8) {
                r->indexed_draws++;
                return 0;
            }
        }
        const size_t need = (size_t)d->count * vfetch_gx_plan_out_stride(plan);
        if (need > r->out_size) {
            uint8_t *more = realloc(r->out, need);
            if (more) {
                r->out = more;
                r->out_size = need;
            } else {
                err = VFETCH_ENOMEM;
            }
        }
        struct vfetch_gx_run_params p;
        vfetch_gx_run_params_init(&p);
        p.vertices = d->vertices;
        p.vertices_size = (size_t)d->count * d->vertex_size;
        p.count = d->count;
        p.out = r->out;
        p.out_size = r->out_size;
        struct vfetch_gx_result result;
        if (!err && !(err = vfetch_gx_run(plan, &p, &result))) {
            r->converted += result.written;
            r->out_bytes += (uint64_t)result.written * vfetch_gx_plan_out_stride(plan);
            return 0;
        }
    }
    char where[300];
    snprintf(where, sizeof where, "%.200s: frame %u, draw at byte %zu (VAT %u, %u vertices): ",
             r->path, d->frame, d->offset, d->vat, d->count);
    gx_refusal(r->errs, err, &d->desc, where);
    r->reported = 1;
    return 1;
}

enum {
    GX_REPLAY_LAYOUT = FIRST_OPTION_ID,
    GX_REPLAY_COLOR,
    GX_REPLAY_COMMANDS,
    GX_REPLAY_BATCH_VERTICES,
    GX_REPLAY_BATCH_INDICES,
    GX_REPLAY_RESTART,
    GX_REPLAY_U32,
    GX_REPLAY_EXPAND,
    GX_REPLAY_DROP_INCOMPLETE,
};

static const struct option gx_replay_options[] = {
    { "layout", required_argument, NULL, GX_REPLAY_LAYOUT },
    { "color", required_argument, NULL, GX_REPLAY_COLOR },
    { "commands", no_argument, NULL, GX_REPLAY_COMMANDS },
    { "batch-vertices", required_argument, NULL, GX_REPLAY_BATCH_VERTICES },
    { "batch-indices", required_argument, NULL, GX_REPLAY_BATCH_INDICES },
    { "restart", no_argument, NULL, GX_REPLAY_RESTART },
    { "u32", no_argument, NULL, GX_REPLAY_U32 },
    { "expand", no_argument, NULL, GX_REPLAY_EXPAND },
    { "drop-incomplete", no_argument, NULL, GX_REPLAY_DROP_INCOMPLETE },
    OPTIONS_END
};

/* A batch capacity option's value, 1..max: 0, or 1 after a usage error. */
static int gx_capacity_option(const struct args *a, unsigned long long max, size_t *value)
{
    unsigned long long v;
    if (!parse_number(a->val, max, &v) || v == 0)
        return usage_error(a->errs, a->cmd, "%s %.40s: not a number of 1..%llu", a->arg, a->val,
                           max);
    *value = (size_t)v;
    return 0;
}

/* The --commands lines: what the runs did, and whether the draws one by one agree. Returns 0
   when they do, else 3 after a line on errs. */
static int gx_print_commands(FILE *out, FILE *errs, const struct gx_replay *r,
                             const struct vfetch_gx_index_options *o)
{
    const struct gx_batch_pass *a = &r->in_runs, *b = &r->draw_by_draw;
    fprintf(out, "commands: runs %llu, draws %llu, vertices %llu, indices %llu, CP writes %llu; "
            "flushes %llu\n", (unsigned long long)r->runs, (unsigned long long)a->draws,
            (unsigned long long)a->vertices, (unsigned long long)a->indices,
            (unsigned long long)r->run_cp_writes, (unsigned long long)a->flushes);
    fprintf(out, "commands: stops:");
    for (unsigned s = 0; s <= VFETCH_GX_STOP_ERROR; s++)
        fprintf(out, "%s %s %llu", s ? "," : "", gx_stop_names[s], (unsigned long long)r->stops[s]);
    fprintf(out, "\n");
    fprintf(out, "commands: batch of %zu bytes and %zu %s indices%s%s%s\n",
            a->batch.vertices_capacity, a->batch.indices_capacity,
            o->index_type == VFETCH_INDEX_U32 ? "u32" : "u16", o->restart ? ", restart" : "",
            o->expand_lines_points ? ", lines and points expanded" : "",
            o->drop_incomplete ? ", incomplete primitives dropped" : "");
    if (a->indexed_draws)
        fprintf(out, "commands: not appended: %llu draws with indexed attributes (no guest "
                "memory is mapped)\n", (unsigned long long)a->indexed_draws);
    /* a run appends across a change of the output format, where an emulator would flush */
    fprintf(out, "commands: batches with records of more than one stride: %llu of %llu\n",
            (unsigned long long)b->mixed_batches, (unsigned long long)b->flushes);
    if (a->draws == b->draws && a->vertices == b->vertices && a->indices == b->indices &&
        a->flushes == b->flushes && a->indexed_draws == b->indexed_draws && a->hash == b->hash) {
        fprintf(out, "commands: the same draws, vertices, indices, flushes and batch bytes as "
                "draw by draw\n");
        return 0;
    }
    fprintf(out, "commands: draw by draw: draws %llu, vertices %llu, indices %llu, flushes %llu, "
            "indexed %llu, batches %s\n", (unsigned long long)b->draws,
            (unsigned long long)b->vertices, (unsigned long long)b->indices,
            (unsigned long long)b->flushes, (unsigned long long)b->indexed_draws,
            a->hash == b->hash ? "the same" : "differ");
    file_error(errs, 3, "%.200s: the runs of commands and the draws one by one differ",
               r->path);
    return 3;
}

int cmd_gx(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a;
    args_begin(&a, "gx", gx_replay_options, argc, argv, out, errs);
    struct vfetch_gx_state_params sp;
    memset(&sp, 0, sizeof sp);
    struct vfetch_gx_index_options io;
    memset(&io, 0, sizeof io);
    io.index_type = VFETCH_INDEX_U16;
    size_t batch_vertices = GX_BATCH_VERTICES, batch_indices = GX_BATCH_INDICES;
    const char *path = NULL, *batch_option = NULL; /* an option that needs --commands */
    int commands = 0, got;
    while ((got = next_option(&a)) != ARG_END) {
        if (got == ARG_OPERAND && !path) {
            path = a.arg;
            continue;
        }
        if (got < FIRST_OPTION_ID)
            return args_exit(&a, got);
        if (got > GX_REPLAY_COMMANDS && !batch_option)
            batch_option = a.arg;
        switch (got) {
        case GX_REPLAY_COMMANDS: commands = 1; break;
        case GX_REPLAY_BATCH_VERTICES:
            if (gx_capacity_option(&a, GX_BATCH_VERTICES_MAX, &batch_vertices))
                return 1;
            break;
        case GX_REPLAY_BATCH_INDICES:
            if (gx_capacity_option(&a, GX_BATCH_INDICES_MAX, &batch_indices))
                return 1;
            break;
        case GX_REPLAY_RESTART: io.restart = 1; break;
        case GX_REPLAY_U32: io.index_type = VFETCH_INDEX_U32; break;
        case GX_REPLAY_EXPAND: io.expand_lines_points = 1; break;
        case GX_REPLAY_DROP_INCOMPLETE: io.drop_incomplete = 1; break;
        default: /* --layout, --color */
            if (gx_output_option(&a, &sp.layout, &sp.color_output))
                return 1;
            break;
        }
    }
    if (!path)
        return usage_error(errs, a.cmd, "gx needs a capture file (vfetch gx CAPTURE.dff)");
    if (batch_option && !commands)
        return usage_error(errs, a.cmd, "%s: a batch option, for --commands only", batch_option);
    size_t size;
    uint8_t *data = read_file_at_most(path, GX_CAPTURE_LIMIT + 1, &size);
    if (!data)
        return file_error(errs, 1, "cannot read %.200s: %s", path, strerror(errno));
    if (size > GX_CAPTURE_LIMIT) {
        free(data);
        return file_error(errs, 1, "cannot read %.200s: larger than 1 GiB", path);
    }
    struct gx_replay *r = calloc(1, sizeof *r);
    int err = r ? vfetch_gx_state_create(&sp, &r->state) : VFETCH_ENOMEM;
    if (err) {
        free(r);
        free(data);
        return refusal(errs, err, "gx: the CP state");
    }
    r->errs = errs;
    r->path = path;
    r->commands = commands;
    r->out_size = 65536; /* never NULL: a run with vertices to write needs an output */
    r->out = malloc(r->out_size);
    err = r->out ? VFETCH_OK : VFETCH_ENOMEM;
    if (!err && commands) {
        const unsigned index_bytes = io.index_type == VFETCH_INDEX_U32 ? 4 : 2;
        err = vfetch_gx_state_create(&sp, &r->run_state);
        if (!err)
            err = vfetch_gx_state_set_index_options(r->state, &io);
        if (!err)
            err = vfetch_gx_state_set_index_options(r->run_state, &io);
        const int err_runs = gx_batch_open(&r->in_runs, batch_vertices, batch_indices, index_bytes);
        const int err_draws = gx_batch_open(&r->draw_by_draw, batch_vertices, batch_indices, index_bytes);
        if (!err)
            err = err_runs ? err_runs : err_draws;
    }
    if (err) {
        gx_batch_close(&r->in_runs);
        gx_batch_close(&r->draw_by_draw);
        vfetch_gx_state_free(r->run_state);
        vfetch_gx_state_free(r->state);
        free(r->out);
        free(r);
        free(data);
        return refusal(errs, err, "gx: the output buffer, the batches");
    }
    /* The walker reports a capture it cannot walk on stderr, as "<name>: <why>": named
       "vfetch: <path>", that is this tool's one-line message. */
    char name[240];
    snprintf(name, sizeof name, "vfetch: %.200s", path);
    one_line(name);
    const struct gx_fifo_callbacks callbacks = { gx_replay_cp_write, gx_replay_draw, r,
                                                 commands ? gx_run_frame : NULL };
    struct gx_fifo_totals t;
    int rc = 0;
    if (gx_fifo_walk(data, size, name, &callbacks, &t) != 0) {
        rc = 2;
        if (!r->reported && errs != stderr) /* the walker's line went elsewhere */
            file_error(errs, 2, "%.200s: not a capture the walker can walk (why: on stderr)",
                       path);
    } else {
        fprintf(out, "capture %s: %zu bytes\n", path, size);
        fprintf(out, "frames %u, draws %u, vertices %llu, CP writes %u (in the FIFO data)\n",
                t.frames, t.draws, (unsigned long long)t.vertices, t.cp_writes);
        fprintf(out, "converted %llu vertices into %llu bytes (%s layout, %s colors); formats "
                "compiled %llu\n", (unsigned long long)r->converted,
                (unsigned long long)r->out_bytes, gx_layout_names[sp.layout],
                gx_color_names[sp.color_output],
                (unsigned long long)vfetch_gx_state_compiles(r->state));
        if (r->indexed_draws)
            fprintf(out, "not converted: %u draws with indexed attributes (their arrays arrive "
                    "as memory updates, which this replay does not apply)\n", r->indexed_draws);
        for (unsigned i = 0; i < r->formats; i++) {
            const struct vfetch_gx_regs *d = &r->seen[i].desc;
            struct vfetch_gx_format f;
            char summary[400];
            if (vfetch_gx_parse(d, &f) == 0) /* the walker sized these draws with it */
                gx_format_summary(summary, sizeof summary, &f);
            else
                snprintf(summary, sizeof summary, "?");
            fprintf(out, "VAT %u: %u-byte vertices, %u draws, %llu vertices: %s\n",
                    r->seen[i].vat, r->seen[i].vertex_size, r->seen[i].draws,
                    (unsigned long long)r->seen[i].vertices, summary);
            fprintf(out, "  vfetch explain gx --vcd-lo 0x%x --vcd-hi 0x%x --vat-a 0x%x "
                    "--vat-b 0x%x --vat-c 0x%x%s%s%s%s\n", d->vcd_lo, d->vcd_hi, d->vat_a,
                    d->vat_b, d->vat_c, sp.layout ? " --layout " : "",
                    sp.layout ? gx_layout_names[sp.layout] : "",
                    sp.color_output ? " --color " : "",
                    sp.color_output ? gx_color_names[sp.color_output] : "");
        }
        if (r->unlisted_draws)
            fprintf(out, "and %u draws of further formats\n", r->unlisted_draws);
        if (commands) {
            gx_batch_flush(&r->in_runs); /* the last batches */
            gx_batch_flush(&r->draw_by_draw);
            rc = gx_print_commands(out, errs, r, &io);
        }
    }
    gx_batch_close(&r->in_runs);
    gx_batch_close(&r->draw_by_draw);
    vfetch_gx_state_free(r->run_state);
    vfetch_gx_state_free(r->state);
    free(r->out);
    free(r);
    free(data);
    return rc;
}
