/*
 * Real GameCube/Wii captures (the .dff files in ../shared/testdata/gx, Dolphin FIFO logs, format
 * in the README there): replay every frame's CP register writes and draw commands, and check that the
 * vertex sizes vfetch_gx_vertex_size() computes walk each frame's FIFO data exactly to its end.
 * Then replay each file again through a vfetch_gx_state at every ISA level and both layouts,
 * converting every draw: the output of each level must equal the reference (level "c")
 * output byte for byte, and every f32 attribute must equal its big-endian input bits.
 * Prints per-file totals (frames, draws, vertices, vertex formats seen). The capture walker is
 * gx_fifo_parse.c, shared with the replay benchmark (bench/vfetch_bench.c).
 *
 * Usage: test_gx_fifo DIR   (skips, exit 77, when DIR does not exist or holds no .dff file)
 */
#include <stdlib.h>

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
