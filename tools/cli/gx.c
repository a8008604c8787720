/*
 * `vfetch gx`: replay a Dolphin FIFO capture through a vfetch_gx_state, converting every draw,
 * and print frames, draws, vertices, CP writes and the vertex formats. The capture is walked
 * with the gx-fifo test's walker, tests/gx/gx_fifo_parse.c, which tools/meson.build compiles
 * into this library, so that the capture format is parsed in one place.
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
};

/* Every CP write goes to the state, the capture's initial cpMem included; the registers a
   state does not hold (VFETCH_EREGISTER: most of cpMem) are not vertex state. */
static void gx_replay_cp_write(void *user, uint8_t addr, uint32_t value, int initial)
{
    struct gx_replay *r = user;
    (void)initial;
    (void)vfetch_gx_load_cp_reg(r->state, addr, value);
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

enum { GX_REPLAY_LAYOUT = FIRST_OPTION_ID, GX_REPLAY_COLOR };

static const struct option gx_replay_options[] = {
    { "layout", required_argument, NULL, GX_REPLAY_LAYOUT },
    { "color", required_argument, NULL, GX_REPLAY_COLOR },
    OPTIONS_END
};

int cmd_gx(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a;
    args_begin(&a, "gx", gx_replay_options, argc, argv, out, errs);
    struct vfetch_gx_state_params sp;
    memset(&sp, 0, sizeof sp);
    const char *path = NULL;
    int got;
    while ((got = next_option(&a)) != ARG_END) {
        if (got == ARG_OPERAND && !path)
            path = a.arg;
        else if (got < FIRST_OPTION_ID)
            return args_exit(&a, got);
        else if (gx_output_option(&a, &sp.layout, &sp.color_output)) /* --layout, --color */
            return 1;
    }
    if (!path)
        return usage_error(errs, a.cmd, "gx needs a capture file (vfetch gx CAPTURE.dff)");
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
    r->out_size = 65536; /* never NULL: a run with vertices to write needs an output */
    r->out = malloc(r->out_size);
    if (!r->out) {
        vfetch_gx_state_free(r->state);
        free(r);
        free(data);
        return refusal(errs, VFETCH_ENOMEM, "gx: the output buffer");
    }
    /* The walker reports a capture it cannot walk on stderr, as "<name>: <why>": named
       "vfetch: <path>", that is this tool's one-line message. */
    char name[240];
    snprintf(name, sizeof name, "vfetch: %.200s", path);
    one_line(name);
    const struct gx_fifo_callbacks callbacks = { gx_replay_cp_write, gx_replay_draw, r, NULL };
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
    }
    vfetch_gx_state_free(r->state);
    free(r->out);
    free(r);
    free(data);
    return rc;
}
