/*
 * Real GameCube/Wii captures (the .dff files in ../shared/testdata/gx, Dolphin FIFO logs, format
 * in the README there): replay every frame's CP register writes and draw commands, and check that the
 * vertex sizes vfetch_gx_vertex_size() computes walk each frame's FIFO data exactly to its end.
 * Then replay each file again through a vfetch_gx_state at every ISA level and both layouts,
 * converting every draw: the output of each level must equal the reference (level "c")
 * output byte for byte, and every f32 attribute must equal its big-endian input bits.
 * Prints per-file totals (frames, draws, vertices, vertex formats seen).
 *
 * Usage: test_gx_fifo DIR   (skips, exit 77, when DIR does not exist or holds no .dff file)
 */
#include <dirent.h>
#include <stdlib.h>

#include "testutil.h"
#include "vfetch/gx.h"

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

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

struct totals {
    unsigned frames, draws, cp_writes;
    uint64_t vertices;
    unsigned formats;
    struct vfetch_gx_desc seen[64];
};

static void note_format(struct totals *t, const struct vfetch_gx_desc *d)
{
    for (unsigned i = 0; i < t->formats; i++)
        if (!memcmp(&t->seen[i], d, sizeof *d))
            return;
    if (t->formats < 64)
        t->seen[t->formats++] = *d;
}

/* Walk one frame's FIFO bytes; returns 1 when every command, and every draw's vertices, end
   exactly at the end of the data. */
static int walk_frame(const uint8_t *p, size_t size, uint32_t *cp, struct totals *t, const char *name,
                      struct converter *cv)
{
    size_t pos = 0;
    while (pos < size) {
        const uint8_t op = p[pos];
        size_t len;
        if (op >= 0x80 && op <= 0xbf) {
            if (pos + 3 > size)
                break;
            const unsigned f = op & 7, count = (unsigned)p[pos + 1] << 8 | p[pos + 2];
            const struct vfetch_gx_desc d = { cp[0x50], cp[0x60], cp[0x70 + f], cp[0x80 + f],
                                              cp[0x90 + f] };
            uint32_t vsize = 0;
            const int err = vfetch_gx_vertex_size(&d, &vsize);
            if (err) {
                fprintf(stderr, "%s: draw at %zu: %s\n", name, pos, vfetch_strerror(err));
                return 0;
            }
            len = 3 + (size_t)count * vsize;
            if (cv && pos + len <= size) {
                const int cerr = convert_draw(cv, f, p + pos + 3, count);
                if (cerr) {
                    fprintf(stderr, "%s: converting the draw at %zu: %d %s\n", name, pos, cerr,
                            vfetch_strerror(cerr));
                    return 0;
                }
            }
            t->draws++;
            t->vertices += count;
            note_format(t, &d);
        } else {
            switch (op) {
            case 0x00: case 0x44: case 0x48: len = 1; break;
            case 0x08:
                if (pos + 6 > size)
                    return 0;
                cp[p[pos + 1]] = be32(p + pos + 2);
                if (cv) /* registers the state does not hold (VFETCH_EREGISTER) are not vertex state */
                    vfetch_gx_load_cp_reg(cv->state, p[pos + 1], be32(p + pos + 2));
                t->cp_writes++;
                len = 6;
                break;
            case 0x10:
                if (pos + 5 > size)
                    return 0;
                len = 5 + 4 * (size_t)(((be32(p + pos + 1) >> 16) & 0xf) + 1);
                break;
            case 0x20: case 0x28: case 0x30: case 0x38: case 0x61: len = 5; break;
            case 0x40: len = 9; break;
            default:
                fprintf(stderr, "%s: unknown FIFO opcode 0x%02x at %zu of %zu\n", name, op, pos, size);
                return 0;
            }
        }
        pos += len;
    }
    if (pos != size)
        fprintf(stderr, "%s: the last command ends at %zu, the frame at %zu\n", name, pos, size);
    return pos == size;
}

/* Replay a whole capture (b, n bytes); with cv, convert every draw through cv's state. */
static void replay(const uint8_t *b, long n, const char *name, struct totals *t, struct converter *cv)
{
    /* header: id, version, min version, then (u64 offset, u32 count) for bpMem, cpMem, xfMem,
       xfRegs, then u64 frame-list offset, u32 frame count */
    const uint64_t cp_off = le64(b + 24);
    const uint32_t cp_count = le32(b + 32);
    const uint64_t frames_off = le64(b + 60);
    const uint32_t frames = le32(b + 68);
    CHECK(cp_count <= 256 && cp_off + 4ull * cp_count <= (uint64_t)n);
    uint32_t cp[256] = { 0 };
    for (uint32_t i = 0; i < cp_count && i < 256; i++) {
        cp[i] = le32(b + cp_off + 4 * i);
        if (cv)
            vfetch_gx_load_cp_reg(cv->state, (uint8_t)i, cp[i]);
    }
    for (uint32_t fr = 0; fr < frames; fr++) {
        const uint8_t *info = b + frames_off + 64ull * fr;
        const uint64_t data = le64(info);
        const uint32_t size = le32(info + 8);
        CHECK(data + size <= (uint64_t)n);
        if (data + size > (uint64_t)n)
            break;
        CHECK(walk_frame(b + data, size, cp, t, name, cv));
        t->frames++;
    }
}

/* Every level this CPU has, each with both layouts, against the reference. */
static void convert_file(const uint8_t *b, long n, const char *name)
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
            struct totals t = { 0 };
            replay(b, n, name, &t, &cv);
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
    FILE *file = fopen(path, "rb");
    CHECK(file != NULL);
    if (!file)
        return;
    fseek(file, 0, SEEK_END);
    const long n = ftell(file);
    fseek(file, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n);
    CHECK(fread(b, 1, (size_t)n, file) == (size_t)n);
    fclose(file);

    CHECK_EQ(le32(b), 0x0D01F1F0u);
    struct totals t = { 0 };
    replay(b, n, name, &t, NULL);
    CHECK(t.draws > 0);
    if (!strcmp(name, "v1cb0df8_texture.dff"))
        CHECK_EQ(t.vertices, 12330); /* the count the capture's README gives */
    printf("%-28s %3u frames %5u draws %7llu vertices %3u CP writes %2u vertex formats\n", name,
           t.frames, t.draws, (unsigned long long)t.vertices, t.cp_writes, t.formats);
    for (unsigned i = 0; i < t.formats; i++) {
        uint32_t vsize = 0;
        vfetch_gx_vertex_size(&t.seen[i], &vsize);
        printf("    VCD %08x %08x VAT %08x %08x %08x: %u bytes per vertex\n", t.seen[i].vcd_lo,
               t.seen[i].vcd_hi, t.seen[i].vat_a, t.seen[i].vat_b, t.seen[i].vat_c, vsize);
    }
    convert_file(b, n, name);
    free(b);
}

int main(int argc, char **argv)
{
    const char *dir_name = argc > 1 ? argv[1] : "../shared/testdata/gx";
    DIR *dir = opendir(dir_name);
    if (!dir) { /* meson counts exit 77 as SKIP: the captures live outside the repository */
        printf("gx-fifo: skipped: no capture directory %s (the .dff captures are kept in "
               "../shared/testdata/gx beside the clone)\n", dir_name);
        return 77;
    }
    unsigned files = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        const size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 4, ".dff") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir_name, e->d_name);
        replay_file(path, e->d_name);
        files++;
    }
    closedir(dir);
    if (files == 0) { /* the directory without its captures: skipped too, and said so */
        printf("gx-fifo: skipped: no .dff capture in %s\n", dir_name);
        return 77;
    }
    CHECK_EQ(files, 3); /* some but not all: a broken copy, a failure */
    return test_summary("gx-fifo");
}
