/*
 * The `vfetch` command's argument handling and commands, as a function that writes to the
 * streams it is given (tools/vfetch.c's main() passes stdout and stderr; the fuzz target
 * tests/fuzz/fuzz_cli.c passes memory streams):
 *
 *   vfetch explain r300 [--psc W,..] [--ext W,..] [--sgn-norm W] [--swap N]
 *                       [--arrays S:C,..] [--vtx-size N] [--full] [--per-op]
 *   vfetch explain maxwell --attr W,.. [--stream W,..] [--instance B,..] [--frequency F,..]
 *                          [--default W] [--bmap N,..] [--full] [--per-op]
 *   vfetch explain texel --format1 W [--format2 W] [--option NAME=VALUE ..]
 *   vfetch texel --format1 W [--format2 W] --size WxH [--depth D] [--pitch BYTES]
 *                [--region X,Y,W,H] [--slice Z] [--option NAME=VALUE ..] IN.raw OUT.png
 *   vfetch demo
 *   vfetch cpu
 *   vfetch aam [N|NAME | --address A | --patch [N|NAME] | --lod |
 *              --check STAGE [--imap SET] [--omap SET] [--store-req S:E] [--sph W,..] ...]
 *   vfetch --version | help
 *
 * `vfetch texel` writes PNG files with libpng; tools/meson.build defines VFETCH_HAVE_PNG 1 when
 * it found libpng, else 0, and then the command says so and exits 2 (docs/texel-cli.md).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vfetch/aam.h"
#include "vfetch/maxwell.h"
#include "vfetch/r300.h"
#include "vfetch/texel.h"

#ifndef VFETCH_HAVE_PNG /* always defined by tools/meson.build; 0 for a bare syntax check */
#define VFETCH_HAVE_PNG 0
#endif
#if VFETCH_HAVE_PNG
#include <png.h>
#endif

/* The usage text on `to`; exit code 1 when it answers a mistake (is_error), else 0. */
static int usage(FILE *to, int is_error)
{
    fputs("usage:\n"
          "  vfetch explain r300 [--psc W0,W1,..] [--ext W0,..] [--sgn-norm W] [--swap N]\n"
          "                      [--arrays STRIDE:COUNT,..] [--vtx-size N] [--full] [--per-op]\n"
          "      print the plan R300 VAP_PROG_STREAM_CNTL register words compile to\n"
          "  vfetch demo      convert a bundled R300 sample and print the vertices\n"
          "  vfetch cpu       the ISA level the kernels run at (VFETCH_CPU_MASK limits it)\n"
          "  vfetch explain maxwell --attr W0,W1,.. [--stream W0,..] [--instance B0,..]\n"
          "                         [--frequency F0,..] [--default W] [--bmap N,..] [--full] [--per-op]\n"
          "      print the plan Maxwell SET_VERTEX_ATTRIBUTE / SET_VERTEX_STREAM_A_FORMAT words\n"
          "      compile to, and where each ISBE attribute lands\n"
          "  vfetch explain texel --format1 W [--format2 W] [--option NAME=VALUE ..]\n"
          "      print the plan R300/R500 TX_FORMAT1 / TX_FORMAT2 words compile to\n"
          "  vfetch texel --format1 W [--format2 W] --size WxH [--depth D] [--pitch BYTES]\n"
          "               [--region X,Y,W,H] [--slice Z] [--option NAME=VALUE ..] IN.raw OUT.png\n"
          "      decode one slice of a raw texture surface (IN.raw) into an 8-bit RGBA PNG\n"
          "      texel options: signed=clamp|zero|no-zero gamma=srgb|pow22 bc=truncate|float\n"
          "        dxt=truncate|round dxt-order=bgra|rgba code18=cxv8u8|y8 align10=low|high\n"
          "  vfetch aam [N|NAME|--address A]   the Maxwell attribute address map, or one row\n"
          "  vfetch aam --patch [N|NAME] | --lod   the patch attribute map; the LOD layout\n"
          "  vfetch aam --check STAGE [--imap SET] [--omap SET] [--store-req S:E] [--sph W0,..,W19]\n"
          "             [--check STAGE ...] [--last] [--skip-a W0,W1] [--skip-b W0,W1] [--raster]\n"
          "             [--stream SET] [--two-sided]\n"
          "      check Imaps/Omaps and print the Bmaps (SET: numbers, names, A-B, or words:W0,..)\n"
          "  vfetch --version\n",
          to);
    return is_error ? 1 : 0;
}

/* Parse a comma-separated list of numbers (hex or decimal); returns the count or -1. */
static int parse_list(const char *text, uint32_t *out, int max)
{
    int n = 0;
    while (*text) {
        char *end;
        const unsigned long v = strtoul(text, &end, 0);
        if (end == text || n == max || v > 0xffffffffu)
            return -1;
        out[n++] = (uint32_t)v;
        if (*end == ',')
            end++;
        else if (*end)
            return -1;
        text = end;
    }
    return n;
}

static int fail(FILE *errs, int code)
{
    fprintf(errs, "vfetch: %s (code %d)\n", vfetch_strerror(code), code);
    return 2;
}

static void print_plan(FILE *out, const vfetch_plan *plan)
{
    const size_t need = vfetch_plan_describe(plan, NULL, 0);
    char *text = malloc(need + 1);
    if (!text)
        return;
    vfetch_plan_describe(plan, text, need + 1);
    fputs(text, out);
    free(text);
}

/* ---- explain maxwell: SET_VERTEX_ATTRIBUTE and stream words -> plan ---- */

static const char *maxwell_size_name(uint32_t size)
{
    switch (size) {
    case 0x01: return "R32_G32_B32_A32";
    case 0x02: return "R32_G32_B32";
    case 0x03: return "R16_G16_B16_A16";
    case 0x04: return "R32_G32";
    case 0x05: return "R16_G16_B16";
    case 0x0A: return "R8_G8_B8_A8";
    case 0x0F: return "R16_G16";
    case 0x12: return "R32";
    case 0x13: return "R8_G8_B8";
    case 0x18: return "R8_G8";
    case 0x1B: return "R16";
    case 0x1D: return "R8";
    case 0x2F: return "A8B8G8R8";
    case 0x30: return "A2B10G10R10";
    case 0x31: return "B10G11R11";
    case 0x32: return "G8R8";
    case 0x33: return "X8B8G8R8";
    case 0x34: return "A8";
    default: return "(none)";
    }
}

static const char *const maxwell_type_name[8] = { "(type 0)", "SNORM", "UNORM", "SINT",
                                                  "UINT", "USCALED", "SSCALED", "FLOAT" };

static int cmd_explain_maxwell(int argc, char **argv, FILE *out, FILE *errs)
{
    struct vfetch_maxwell_desc d;
    vfetch_maxwell_desc_init(&d);
    int attributes = 0;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        uint32_t words[VFETCH_MAXWELL_ATTRIBUTES];
        int n;
        if (!strcmp(opt, "--full")) {
            d.layout = VFETCH_MAXWELL_LAYOUT_FULL;
            continue;
        }
        if (!strcmp(opt, "--per-op")) {
            d.path = VFETCH_PATH_PER_OP;
            continue;
        }
        if (!val)
            return usage(errs, 1);
        i++;
        if (!strcmp(opt, "--attr") && (n = parse_list(val, words, VFETCH_MAXWELL_ATTRIBUTES)) > 0) {
            memcpy(d.attribute, words, n * sizeof words[0]); /* the rest stay inactive */
            attributes = n;
        } else if (!strcmp(opt, "--stream") && (n = parse_list(val, words, VFETCH_MAXWELL_STREAMS)) > 0) {
            memcpy(d.stream_format, words, n * sizeof words[0]);
        } else if (!strcmp(opt, "--instance") && (n = parse_list(val, words, VFETCH_MAXWELL_STREAMS)) > 0) {
            memcpy(d.stream_instance, words, n * sizeof words[0]);
        } else if (!strcmp(opt, "--frequency") && (n = parse_list(val, words, VFETCH_MAXWELL_STREAMS)) > 0) {
            memcpy(d.stream_frequency, words, n * sizeof words[0]);
        } else if (!strcmp(opt, "--default") && parse_list(val, words, 1) == 1) {
            d.attribute_default = words[0];
        } else if (!strcmp(opt, "--bmap") && (n = parse_list(val, words, VFETCH_MAXWELL_ATTRIBUTES)) > 0) {
            for (int k = 0; k < n; k++) {
                if (words[k] >= VFETCH_AAM_ATTRIBUTES)
                    return usage(errs, 1);
                vfetch_aam_map_add(&d.input_bmap, words[k]);
            }
        } else {
            return usage(errs, 1);
        }
    }
    for (int i = 0; i < attributes; i++) {
        struct vfetch_maxwell_attribute a;
        const int err = vfetch_maxwell_attribute_decode(d.attribute[i], &a);
        fprintf(out, "attribute %2d: 0x%08x ", i, d.attribute[i]);
        if (err)
            fprintf(out, "size 0x%02x %s, type %u %s: %s\n", (d.attribute[i] >> 21) & 0x3f,
                    maxwell_size_name((d.attribute[i] >> 21) & 0x3f), (d.attribute[i] >> 27) & 7,
                    maxwell_type_name[(d.attribute[i] >> 27) & 7], vfetch_strerror(err));
        else if (a.inactive)
            fprintf(out, "inactive (its slots hold their defaults)\n");
        else
            fprintf(out, "stream %u offset %u: %s %s%s, %u component(s), %u bytes%s\n", a.stream,
                    a.offset, maxwell_size_name(a.size), maxwell_type_name[a.type],
                    a.integer ? " (integers)" : "", a.components, a.bytes,
                    a.swap_r_and_b ? ", R and B swapped" : "");
    }
    vfetch_maxwell_plan *plan;
    const int err = vfetch_maxwell_compile(&d, &plan);
    if (err)
        return fail(errs, err);
    const vfetch_plan *conv = vfetch_maxwell_plan_converter(plan);
    print_plan(out, conv);
    fprintf(out, "output: %s records, %u bytes per vertex\n",
            d.layout == VFETCH_MAXWELL_LAYOUT_FULL ? "full ISBE" : "compact ISBE",
            vfetch_maxwell_plan_out_stride(plan));
    const struct vfetch_aam_map *bmap = vfetch_maxwell_plan_bmap(plan);
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++) {
        if (!vfetch_aam_map_has(bmap, n))
            continue;
        const struct vfetch_aam_attribute *row = vfetch_aam_attribute(n);
        fprintf(out, "  %-28s (%3u) -> slot %3d%s\n", row ? row->name : "?", n,
                vfetch_maxwell_plan_slot(plan, n),
                n == VFETCH_AAM_VERTEX_ID || n == VFETCH_AAM_INSTANCE_ID ? " (written per draw)" : "");
    }
    if (d.layout == VFETCH_MAXWELL_LAYOUT_FULL)
        fprintf(out, "  every other slot: its default (SET_ATTRIBUTE_DEFAULT 0x%x)\n", d.attribute_default);
    fprintf(out, "hash %016llx\n", (unsigned long long)vfetch_plan_hash(conv));
    vfetch_maxwell_plan_free(plan);
    return 0;
}

/* ---- explain texel / texel: R300/R500 TX_FORMAT1 and TX_FORMAT2 words -> texel plan ---- */

/* One refusal line on errs, "vfetch: <vfetch_strerror text> (code N): <detail>" (code 0: just
   "vfetch: <detail>", for files), control characters from the arguments shown as '?' so that it
   stays one line. Returns 2. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int texel_fail(FILE *errs, int code, const char *fmt, ...)
{
    char line[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    for (char *c = line; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    if (code)
        fprintf(errs, "vfetch: %s (code %d): %s\n", vfetch_strerror(code), code, line);
    else
        fprintf(errs, "vfetch: %s\n", line);
    return 2;
}

/* A usage error with its reason after the usage text. Returns 1. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int texel_usage(FILE *errs, const char *fmt, ...)
{
    usage(errs, 1);
    va_list ap;
    va_start(ap, fmt);
    fputs("vfetch: ", errs);
    vfprintf(errs, fmt, ap);
    fputc('\n', errs);
    va_end(ap);
    return 1;
}

/* --option NAME=VALUE: value n of a row is enum value n of its field. */
static const struct {
    const char *name;
    const char *values[3];
} texel_options[] = {
    { "signed", { "clamp", "zero", "no-zero" } },  /* signed_method */
    { "gamma", { "srgb", "pow22" } },              /* gamma */
    { "bc", { "truncate", "float" } },             /* bc_interp */
    { "dxt", { "truncate", "round" } },            /* dxt_interp */
    { "dxt-order", { "bgra", "rgba" } },           /* dxt_order */
    { "code18", { "cxv8u8", "y8" } },              /* code18 */
    { "align10", { "low", "high" } },              /* align10 */
};
#define TEXEL_OPTIONS (sizeof texel_options / sizeof texel_options[0])

/* Apply one --option NAME=VALUE; 0, or 1 after a usage error naming what is accepted. */
static int texel_option(const char *text, struct vfetch_texel_options *o, FILE *errs)
{
    const size_t len = strcspn(text, "=");
    for (unsigned i = 0; i < TEXEL_OPTIONS; i++) {
        const char *name = texel_options[i].name;
        const char *const *values = texel_options[i].values;
        if (strlen(name) != len || strncmp(text, name, len) != 0)
            continue;
        for (int v = 0; v < 3 && values[v] && text[len] == '='; v++) {
            if (strcmp(text + len + 1, values[v]) != 0)
                continue;
            switch (i) {
            case 0: o->signed_method = (enum vfetch_texel_signed)v; break;
            case 1: o->gamma = (enum vfetch_texel_gamma)v; break;
            case 2: o->bc_interp = (enum vfetch_texel_bc_interp)v; break;
            case 3: o->dxt_interp = (enum vfetch_texel_dxt_interp)v; break;
            case 4: o->dxt_order = (enum vfetch_texel_dxt_order)v; break;
            case 5: o->code18 = (enum vfetch_texel_code18)v; break;
            default: o->align10 = (enum vfetch_texel_align10)v; break;
            }
            return 0;
        }
        return texel_usage(errs, "--option %.40s: %s takes %s%s%s%s%s", text, name, values[0],
                           values[1] ? ", " : "", values[1] ? values[1] : "",
                           values[2] ? ", " : "", values[2] ? values[2] : "");
    }
    return texel_usage(errs, "--option %.40s: the options are signed, gamma, bc, dxt, dxt-order, "
                             "code18 and align10 (NAME=VALUE)", text);
}

/* A number that is the whole text, decimal or 0x hex, at most max. */
static int texel_number(const char *text, unsigned long long max, unsigned long long *out)
{
    if (*text < '0' || *text > '9')
        return 0;
    const int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    char *end;
    errno = 0;
    const unsigned long long v = strtoull(hex ? text + 2 : text, &end, hex ? 16 : 10);
    if (errno || *end || end == text + (hex ? 2 : 0) || v > max)
        return 0;
    *out = v;
    return 1;
}

/* "WxH", each decimal below 2^32 (0 is left for the library to refuse). */
static int texel_size(const char *text, uint32_t *width, uint32_t *height)
{
    char w[24];
    const size_t len = strcspn(text, "x");
    unsigned long long a, b;
    if (len == 0 || len >= sizeof w || text[len] != 'x' || strchr(text + len + 1, 'x'))
        return 0;
    memcpy(w, text, len);
    w[len] = '\0';
    if (!texel_number(w, 0xffffffffu, &a) || !texel_number(text + len + 1, 0xffffffffu, &b))
        return 0;
    *width = (uint32_t)a;
    *height = (uint32_t)b;
    return 1;
}

/* The arguments both texel commands take: the two words and the options. */
struct texel_words {
    uint32_t format1, format2;
    int have_format1;
    struct vfetch_texel_options options;
};

/* opt/val if it is --format1, --format2 or --option: 1 taken, 0 not one of them, -1 after a
   usage error. */
/* The plan of the words and its info, or the tool's exit code for a refusal. */
static int texel_compile(const struct texel_words *w, vfetch_texel_plan **plan,
                         struct vfetch_texel_info *info, FILE *errs)
{
    int err = vfetch_texel_compile(w->format1, w->format2, &w->options, plan);
    if (err)
        return fail(errs, err);
    err = vfetch_texel_plan_info(*plan, info);
    if (err) {
        vfetch_texel_plan_free(*plan);
        return fail(errs, err);
    }
    return 0;
}

static int texel_word_arg(const char *opt, const char *val, struct texel_words *w, FILE *errs)
{
    uint32_t word;
    if (!strcmp(opt, "--option"))
        return texel_option(val, &w->options, errs) ? -1 : 1;
    if (strcmp(opt, "--format1") != 0 && strcmp(opt, "--format2") != 0)
        return 0;
    if (parse_list(val, &word, 1) != 1 || strchr(val, ','))
        return texel_usage(errs, "%s %.40s: not a 32-bit word (decimal or 0x hex)", opt, val), -1;
    if (!strcmp(opt, "--format1")) {
        w->format1 = word;
        w->have_format1 = 1;
    } else {
        w->format2 = word;
    }
    return 1;
}

static const char *const texel_coord_names[3] = { "2D", "3D", "cube" };

static int cmd_explain_texel(int argc, char **argv, FILE *out, FILE *errs)
{
    struct texel_words w = { 0, 0, 0, { 0 } };
    vfetch_texel_options_default(&w.options);
    for (int i = 1; i < argc; i += 2) { /* every argument is an option and its value */
        if (i + 1 >= argc)
            return usage(errs, 1);
        const int taken = texel_word_arg(argv[i], argv[i + 1], &w, errs);
        if (taken < 0)
            return 1;
        if (!taken)
            return usage(errs, 1);
    }
    if (!w.have_format1)
        return texel_usage(errs, "explain texel needs --format1");
    vfetch_texel_plan *plan;
    struct vfetch_texel_info info;
    int err = texel_compile(&w, &plan, &info, errs);
    if (err)
        return err;
    const size_t need = vfetch_texel_describe(plan, NULL, 0);
    char *text = malloc(need + 1);
    if (!text) {
        vfetch_texel_plan_free(plan);
        return fail(errs, VFETCH_ENOMEM);
    }
    vfetch_texel_describe(plan, text, need + 1);
    fputs(text, out);
    if (need && text[need - 1] != '\n')
        fputc('\n', out);
    free(text);
    fprintf(out, "info: %s, block %ux%u texels of %u byte%s, %s\n", info.name, info.block_width,
            info.block_height, info.block_bytes, info.block_bytes == 1 ? "" : "s",
            (unsigned)info.coord_type < 3 ? texel_coord_names[info.coord_type] : "?");
    fprintf(out, "rgba8_exact: %s\n",
            info.rgba8_exact ? "yes (RGBA8 output holds round(255 x) of the RGBA32F results)"
                             : "no (RGBA32F output only)");
    vfetch_texel_plan_free(plan);
    return 0;
}

/* An upper bound on the bytes a decode of this layout can read (SIZE_MAX where the product
   overflows): rows of blocks, each the larger of the packed row and the pitch, times slices. */
static size_t texel_surface_bound(const struct vfetch_texel_info *info, uint32_t width,
                                  uint32_t height, uint32_t depth, size_t pitch)
{
    const size_t bw = info->block_width ? info->block_width : 1;
    const size_t bh = info->block_height ? info->block_height : 1;
    const size_t across = width / bw + (width % bw != 0);
    const size_t down = height / bh + (height % bh != 0);
    size_t row = across, total;
    if (info->block_bytes && row > SIZE_MAX / info->block_bytes)
        return SIZE_MAX;
    row *= info->block_bytes;
    if (pitch > row)
        row = pitch;
    if (down && row > SIZE_MAX / down)
        return SIZE_MAX;
    total = row * down;
    if (depth && total > SIZE_MAX / depth)
        return SIZE_MAX;
    return total * depth;
}

/* At most limit bytes of path (more are never read: a surface needs no more, and a device like
   /dev/zero ends). NULL with errno set when it cannot be read. */
static unsigned char *texel_read(const char *path, size_t limit, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = limit < 65536 ? limit + 1 : 65536, len = 0;
    unsigned char *buf = malloc(cap);
    int error = buf ? 0 : ENOMEM;
    while (!error && len < limit) {
        if (len == cap) { /* cap < limit here */
            const size_t grow = cap > limit - cap ? limit : 2 * cap;
            unsigned char *more = realloc(buf, grow);
            if (!more) {
                error = ENOMEM;
                break;
            }
            buf = more;
            cap = grow;
        }
        const size_t want = cap - len < limit - len ? cap - len : limit - len;
        errno = 0;
        const size_t got = fread(buf + len, 1, want, f);
        len += got;
        if (got < want) {
            if (ferror(f))
                error = errno ? errno : EIO;
            break;
        }
    }
    fclose(f);
    if (error) {
        free(buf);
        errno = error;
        return NULL;
    }
    *size = len;
    return buf;
}

/* A float channel as a byte of the picture: clamped to [0, 1] (NaN: 0), round(255 x) with
   halves up. The product is exact in double. */
static uint8_t texel_unorm8(float x)
{
    if (!(x > 0.0f))
        return 0;
    if (x >= 1.0f)
        return 255;
    return (uint8_t)((double)x * 255.0 + 0.5);
}

#if VFETCH_HAVE_PNG
/* libpng's error callback: keep the message (in the caller's buffer), unwind to setjmp. */
static void texel_png_error(png_structp png, png_const_charp message)
{
    char *why = png_get_error_ptr(png);
    snprintf(why, 128, "%s", message);
    png_longjmp(png, 1);
}

static void texel_png_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;
}

/* The part of the writing libpng may unwind from (nothing here changes after setjmp). */
static int texel_png_rows(png_structp png, png_infop info, FILE *f, const uint8_t *rgba,
                          uint32_t width, uint32_t height)
{
    if (setjmp(png_jmpbuf(png)))
        return -1;
    png_init_io(png, f);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++)
        png_write_row(png, rgba + (size_t)y * width * 4);
    png_write_end(png, NULL);
    return 0;
}
#endif

/* Write width x height RGBA bytes as an 8-bit RGBA PNG; 0, or -1 with the reason in why
   (128 bytes). A file this created is removed again on failure (never one that was there,
   which may be a device such as /dev/full). */
static int texel_write_png(const char *path, const uint8_t *rgba, uint32_t width,
                           uint32_t height, char *why)
{
#if VFETCH_HAVE_PNG
    FILE *f = fopen(path, "rb");
    const int existed = f != NULL;
    if (f)
        fclose(f);
    f = fopen(path, "wb");
    if (!f) {
        snprintf(why, 128, "%s", strerror(errno));
        return -1;
    }
    why[0] = '\0';
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, why, texel_png_error,
                                              texel_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    int rc = info ? texel_png_rows(png, info, f, rgba, width, height) : -1;
    if (!info)
        snprintf(why, 128, "out of memory");
    png_destroy_write_struct(&png, &info);
    if (fclose(f) != 0 && rc == 0) {
        snprintf(why, 128, "%s", strerror(errno));
        rc = -1;
    }
    if (rc && !existed)
        remove(path);
    return rc;
#else
    (void)path, (void)rgba, (void)width, (void)height;
    snprintf(why, 128, "this vfetch was built without libpng");
    return -1;
#endif
}

static int cmd_texel(int argc, char **argv, FILE *out, FILE *errs)
{
    struct texel_words w = { 0, 0, 0, { 0 } };
    vfetch_texel_options_default(&w.options);
    uint32_t width = 0, height = 0, depth = 0, slice = 0, region[4] = { 0, 0, 0, 0 };
    int have_size = 0, have_depth = 0, have_region = 0, files = 0;
    unsigned long long pitch = 0;
    const char *file[2] = { NULL, NULL };
    for (int i = 0; i < argc; i++) {
        const char *opt = argv[i];
        if (opt[0] != '-' || !opt[1]) {
            if (files == 2)
                return texel_usage(errs, "texel takes two files, IN.raw and OUT.png");
            file[files++] = opt;
            continue;
        }
        if (i + 1 >= argc)
            return usage(errs, 1);
        const char *val = argv[++i];
        const int taken = texel_word_arg(opt, val, &w, errs);
        unsigned long long n;
        if (taken < 0)
            return 1;
        if (taken)
            continue;
        if (!strcmp(opt, "--size")) {
            if (!texel_size(val, &width, &height))
                return texel_usage(errs, "--size %.40s: not WxH", val);
            have_size = 1;
        } else if (!strcmp(opt, "--depth") || !strcmp(opt, "--slice") || !strcmp(opt, "--pitch")) {
            if (!texel_number(val, opt[2] == 'p' ? SIZE_MAX : 0xffffffffu, &n))
                return texel_usage(errs, "%s %.40s: not a number (decimal or 0x hex)", opt, val);
            if (opt[2] == 'd')
                depth = (uint32_t)n, have_depth = 1;
            else if (opt[2] == 's')
                slice = (uint32_t)n;
            else
                pitch = n;
        } else if (!strcmp(opt, "--region")) {
            const char *p = val;
            for (int k = 0; k < 4; k++) {
                char item[24];
                const size_t len = strcspn(p, ",");
                if (len >= sizeof item || (k < 3) != (p[len] == ','))
                    return texel_usage(errs, "--region %.40s: not X,Y,W,H", val);
                memcpy(item, p, len);
                item[len] = '\0';
                if (!texel_number(item, 0xffffffffu, &n))
                    return texel_usage(errs, "--region %.40s: not X,Y,W,H", val);
                region[k] = (uint32_t)n;
                p += len + (k < 3);
            }
            if (!region[2] || !region[3])
                return texel_usage(errs, "--region %.40s: an empty region makes no picture", val);
            have_region = 1;
        } else {
            return usage(errs, 1);
        }
    }
    if (!w.have_format1 || !have_size || files != 2)
        return texel_usage(errs, "texel needs --format1, --size and the files IN.raw OUT.png");
    if (!VFETCH_HAVE_PNG)
        return texel_fail(errs, 0, "this vfetch was built without libpng: it cannot write %.100s",
                          file[1]);

    vfetch_texel_plan *plan;
    struct vfetch_texel_info info;
    int err = texel_compile(&w, &plan, &info, errs);
    if (err)
        return err;
    if (!have_depth)
        depth = info.coord_type == VFETCH_TEXEL_CUBE ? 6 : 1;
    if (!have_region) {
        region[2] = width;
        region[3] = height;
    }
    const struct vfetch_texel_region r = { region[0], region[1], slice, region[2], region[3], 1 };
    const int exact = info.rgba8_exact;
    int rc = 0;
    unsigned char *src = NULL;
    uint8_t *rgba = NULL;
    float *f32 = NULL;
    if (r.height && r.width > SIZE_MAX / 16 / r.height) { /* 32-bit size_t */
        rc = texel_fail(errs, VFETCH_EOVERFLOW, "a %ux%u region", r.width, r.height);
        goto done;
    }
    /* A --size of 0 reaches the library, which refuses it: the buffers get a texel anyway. */
    const size_t texels = r.width && r.height ? (size_t)r.width * r.height : 1;
    size_t size;
    src = texel_read(file[0], texel_surface_bound(&info, width, height, depth, (size_t)pitch),
                     &size);
    if (!src) {
        rc = texel_fail(errs, 0, "cannot read %.200s: %s", file[0], strerror(errno));
        goto done;
    }
    const struct vfetch_texel_surface s = { src, size, width, height, depth, (size_t)pitch,
                                            VFETCH_TEXEL_PITCH_BYTES, 0 };
    uint8_t none[16];
    struct vfetch_texel_target t = { none, 0, exact ? VFETCH_TEXEL_RGBA8 : VFETCH_TEXEL_RGBA32F,
                                     0, 0 };
    /* First without room for the texels: the library checks every size before it writes, so a
       surface or region it refuses is reported before the buffers are allocated. */
    err = vfetch_texel_decode(plan, &s, &r, &t);
    if (err == VFETCH_ESHORT_OUTPUT) {
        rgba = malloc(texels * 4);
        f32 = exact ? NULL : malloc(texels * 16);
        if (!rgba || (!exact && !f32)) {
            rc = fail(errs, VFETCH_ENOMEM);
            goto done;
        }
        t.data = exact ? (void *)rgba : (void *)f32;
        t.size = texels * (exact ? 4 : 16);
        err = vfetch_texel_decode(plan, &s, &r, &t);
    }
    if (err) {
        rc = texel_fail(errs, err, "region %u,%u %ux%u of slice %u, a %ux%ux%u %s surface, "
                        "%zu bytes read from %.200s", r.x, r.y, r.width, r.height, r.z, width,
                        height, depth, info.name, size, file[0]);
        goto done;
    }
    if (!exact)
        for (size_t i = 0; i < texels * 4; i++)
            rgba[i] = texel_unorm8(f32[i]);
    char why[128];
    if (texel_write_png(file[1], rgba, r.width, r.height, why)) {
        rc = texel_fail(errs, 0, "cannot write %.200s: %s", file[1], why);
        goto done;
    }
    fprintf(out, "wrote %s: %ux%u RGBA PNG of %s texels %u,%u..%u,%u of slice %u, %s\n", file[1],
            r.width, r.height, info.name, r.x, r.y, r.x + r.width - 1, r.y + r.height - 1, r.z,
            exact ? "exact RGBA8"
                  : "converted from RGBA32F (clamped to [0, 1], rounded to 255ths)");
done:
    free(f32);
    free(rgba);
    free(src);
    vfetch_texel_plan_free(plan);
    return rc;
}

static int cmd_explain(int argc, char **argv, FILE *out, FILE *errs)
{
    if (argc >= 1 && !strcmp(argv[0], "texel"))
        return cmd_explain_texel(argc, argv, out, errs);
    if (argc >= 1 && !strcmp(argv[0], "maxwell"))
        return cmd_explain_maxwell(argc, argv, out, errs);
    if (argc < 1 || strcmp(argv[0], "r300") != 0)
        return usage(errs, 1);
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    int per_op = 0;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        uint32_t words[16];
        int n;
        if (!strcmp(opt, "--full")) {
            d.layout = VFETCH_R300_LAYOUT_FULL;
            continue;
        }
        if (!strcmp(opt, "--per-op")) {
            per_op = 1;
            continue;
        }
        if (!val)
            return usage(errs, 1);
        i++;
        if (!strcmp(opt, "--psc") && (n = parse_list(val, words, 8)) > 0) {
            memcpy(d.prog_stream_cntl, words, n * sizeof words[0]);
        } else if (!strcmp(opt, "--ext") && (n = parse_list(val, words, 8)) > 0) {
            memcpy(d.prog_stream_cntl_ext, words, n * sizeof words[0]); /* the rest: identity */
        } else if (!strcmp(opt, "--sgn-norm") && parse_list(val, words, 1) == 1) {
            d.sgn_norm_cntl = words[0];
        } else if (!strcmp(opt, "--swap") && parse_list(val, words, 1) == 1 && words[0] < 4) {
            d.cntl_status = words[0];
        } else if (!strcmp(opt, "--vtx-size") && parse_list(val, words, 1) == 1) {
            d.vtx_size_dwords = words[0];
        } else if (!strcmp(opt, "--arrays")) {
            const char *p = val;
            d.num_arrays = 0;
            while (*p) {
                char *end;
                const unsigned long stride = strtoul(p, &end, 0);
                if (*end != ':' || d.num_arrays == VFETCH_R300_MAX_ARRAYS + 1)
                    return usage(errs, 1);
                const unsigned long count = strtoul(end + 1, &end, 0);
                if (d.num_arrays < VFETCH_R300_MAX_ARRAYS)
                    d.arrays[d.num_arrays] = (struct vfetch_r300_array){ (uint32_t)stride, (uint32_t)count };
                d.num_arrays++;
                if (*end == ',')
                    end++;
                else if (*end)
                    return usage(errs, 1);
                p = end;
            }
        } else {
            return usage(errs, 1);
        }
    }
    struct vfetch_plan_desc pd;
    int err = vfetch_r300_translate(&d, &pd);
    if (err)
        return fail(errs, err);
    pd.path = per_op ? VFETCH_PATH_PER_OP : VFETCH_PATH_AUTO;
    vfetch_plan *plan;
    err = vfetch_plan_create(&pd, &plan);
    if (err)
        return fail(errs, err);
    print_plan(out, plan);
    fprintf(out, "output: %u bytes per vertex\n", vfetch_plan_record_size(plan));
    for (unsigned loc = 0; loc < 32; loc++)
        if (vfetch_plan_location(plan, loc) >= 0)
            fprintf(out, "  DST_VEC_LOC %2u -> bytes %u..%u\n", loc, 4 * vfetch_plan_location(plan, loc),
                   4 * vfetch_plan_location(plan, loc) + 15);
    fprintf(out, "hash %016llx\n", (unsigned long long)vfetch_plan_hash(plan));
    vfetch_plan_free(plan);
    return 0;
}

/* ---- demo: a textured, lit quad as an R300 driver would submit it ---- */

#define EL(type, loc, last, sgn, norm)                                                     \
    ((uint32_t)(type) | (uint32_t)(loc) << 8 | (uint32_t)(last) << 13 |                     \
     (uint32_t)(sgn) << 14 | (uint32_t)(norm) << 15)

/* Array 0: position FLOAT_3 and normal SHORT_4 (signed normalized), 5 dwords per vertex.
   Array 1: color D3DCOLOR (normalized) and texcoord FLT16_2, 2 dwords per vertex. */
static const uint32_t demo_psc[2] = {
    EL(VFETCH_R300_FLOAT_3, 0, 0, 0, 0) | EL(VFETCH_R300_SHORT_4, 1, 0, 1, 1) << 16,
    EL(VFETCH_R300_D3DCOLOR, 2, 0, 0, 1) | EL(VFETCH_R300_FLT16_2, 3, 1, 0, 0) << 16,
};

struct demo_pos_normal {
    float x, y, z;
    int16_t nx, ny, nz, nw;
};

static const struct demo_pos_normal demo_array0[4] = {
    { -1.0f, -1.0f, 0.0f, 0, 0, 32767, 0 },
    { 1.0f, -1.0f, 0.0f, 0, 0, 32767, 0 },
    { 1.0f, 1.0f, 0.0f, 0, 23170, 23170, 0 },
    { -1.0f, 1.0f, 0.5f, -32768, 0, 0, 0 },
};

/* color as D3DCOLOR ARGB (B in bits 7:0), texcoords as binary16 */
static const uint32_t demo_array1[8] = {
    0xFFFF0000u, 0x00000000u, /* red, (0, 0) */
    0xFF00FF00u, 0x00003C00u, /* green, (1, 0) */
    0x800000FFu, 0x3C003C00u, /* blue, half alpha, (1, 1) */
    0xFFFFFFFFu, 0x3C000000u, /* white, (0, 1) */
};

static int demo_run(const vfetch_plan *plan, const uint16_t *indices, unsigned count, FILE *out,
                    FILE *errs)
{
    struct vfetch_binding b[2] = { { demo_array0, sizeof demo_array0 }, { demo_array1, sizeof demo_array1 } };
    float vertices[6][16];
    struct vfetch_run_params p;
    vfetch_run_params_init(&p);
    p.streams = b;
    p.num_streams = 2;
    p.count = count;
    p.out = vertices;
    p.out_size = sizeof vertices;
    if (indices) {
        p.indices = indices;
        p.index_type = VFETCH_INDEX_U16;
        p.indices_size = count * sizeof *indices;
    }
    const int err = vfetch_run(plan, &p);
    if (err)
        return fail(errs, err);
    static const char *const names[4] = { "position", "normal", "color", "texcoord" };
    for (unsigned v = 0; v < count; v++) {
        fprintf(out, "vertex %u\n", v);
        for (unsigned a = 0; a < 4; a++) {
            const float *f = &vertices[v][4 * a];
            uint32_t bits[4];
            memcpy(bits, f, sizeof bits);
            fprintf(out, "  %-8s (%10.6g %10.6g %10.6g %10.6g)  [%08x %08x %08x %08x]\n", names[a],
                   (double)f[0], (double)f[1], (double)f[2], (double)f[3], bits[0], bits[1],
                   bits[2], bits[3]);
        }
    }
    return 0;
}

static int cmd_demo(FILE *out, FILE *errs)
{
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    memcpy(d.prog_stream_cntl, demo_psc, sizeof demo_psc);
    d.num_arrays = 2;
    d.arrays[0] = (struct vfetch_r300_array){ 5, 5 };
    d.arrays[1] = (struct vfetch_r300_array){ 2, 2 };
    fprintf(out, "vfetch %s demo at level %s\n", vfetch_version(), vfetch_cpu_name());
    fprintf(out, "VAP_PROG_STREAM_CNTL_0 = 0x%08x, _1 = 0x%08x, VAP_PSC_SGN_NORM_CNTL = 0x%08x\n",
           demo_psc[0], demo_psc[1], d.sgn_norm_cntl);
    fprintf(out, "arrays: 0 stride 5 count 5 (position FLOAT_3, normal SHORT_4), 1 stride 2 count 2 "
           "(color D3DCOLOR, texcoord FLT16_2)\n\n");
    vfetch_plan *plan;
    const int err = vfetch_r300_compile(&d, &plan);
    if (err)
        return fail(errs, err);
    print_plan(out, plan);
    fprintf(out, "\nquad, vertices 0..3:\n");
    int rc = demo_run(plan, NULL, 4, out, errs);
    static const uint16_t triangles[6] = { 0, 1, 2, 0, 2, 3 };
    fprintf(out, "\nindexed (u16 indices 0 1 2 0 2 3):\n");
    if (!rc)
        rc = demo_run(plan, triangles, 6, out, errs);
    vfetch_plan_free(plan);
    return rc;
}

static int cmd_cpu(FILE *out)
{
    fprintf(out, "level %s (flags 0x%x)\n", vfetch_cpu_name(), vfetch_cpu_flags());
    return 0;
}

/* ---- aam: the Maxwell attribute address map and Bmaps (docs/maxwell.md, "`vfetch aam`") ---- */

/* A refusal: the library's sentence and code, then what it is about, on one line. */
static int aam_fail(FILE *errs, int code, const char *detail)
{
    char line[160]; /* the detail quotes arguments: control characters would break the line */
    size_t n = 0;
    for (; detail[n] && n + 1 < sizeof line; n++)
        line[n] = (unsigned char)detail[n] < 0x20 || detail[n] == 0x7f ? '?' : detail[n];
    line[n] = '\0';
    fprintf(errs, "vfetch: %s (code %d)%s%s\n", vfetch_strerror(code), code, n ? ": " : "", line);
    return 2;
}

/* A number (decimal or 0x hex, optionally negative) that is the whole text. */
static int aam_number(const char *text, long *out)
{
    char *end;
    if (!*text)
        return 0;
    const long v = strtol(text, &end, 0);
    if (*end || v < -65536 || v > 65536)
        return 0;
    *out = v;
    return 1;
}

/* An attribute by number or name; -1 when there is none. */
static int aam_attribute_of(const char *text)
{
    long n;
    if (aam_number(text, &n))
        return n >= 0 && n < VFETCH_AAM_ATTRIBUTES ? (int)n : -1;
    const struct vfetch_aam_attribute *row = vfetch_aam_find(text);
    return row ? row->number : -1;
}

/* A set: "words:W0,..,W7" (word n holds attributes 32n..32n+31), or a comma list of attribute
   numbers, names and ranges A-B. 0 ok, 1 usage error, 2 an attribute that does not exist
   (named in bad). */
static int aam_parse_map(const char *text, struct vfetch_aam_map *map, char *bad, size_t bad_size)
{
    memset(map, 0, sizeof *map);
    if (!strncmp(text, "words:", 6)) {
        uint32_t words[8];
        const int n = parse_list(text + 6, words, 8);
        if (n < 1)
            return 1;
        memcpy(map->words, words, (size_t)n * sizeof words[0]);
        return 0;
    }
    if (!*text)
        return 1;
    while (*text) {
        char item[64];
        const size_t len = strcspn(text, ",");
        if (len == 0 || len >= sizeof item)
            return 1;
        memcpy(item, text, len);
        item[len] = '\0';
        text += len + (text[len] == ',');
        char *dash = strchr(item + 1, '-'); /* a range A-B (names hold no '-') */
        int first, last;
        if (dash && dash[1] != '\0') {
            *dash = '\0';
            first = aam_attribute_of(item);
            last = aam_attribute_of(dash + 1);
            *dash = '-';
        } else {
            first = last = aam_attribute_of(item);
        }
        if (first < 0 || last < first) {
            snprintf(bad, bad_size, "no attribute \"%s\"", item);
            return 2;
        }
        for (int n = first; n <= last; n++)
            vfetch_aam_map_add(map, (unsigned)n);
    }
    return 0;
}

static void aam_print_map(FILE *out, const char *title, const struct vfetch_aam_map *map)
{
    fprintf(out, "%-28s", title);
    for (unsigned w = 0; w < 8; w++)
        fprintf(out, " %08x", map->words[w]);
    fputc('\n', out);
    unsigned count = 0;
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++)
        if (vfetch_aam_map_has(map, n))
            fprintf(out, "%s %u %s", count++ % 4 ? "," : count > 1 ? "\n   " : "   ", n,
                    vfetch_aam_attribute(n)->name);
    fputs(count ? "\n" : "    (none)\n", out);
}

static void aam_print_row(FILE *out, const struct vfetch_aam_attribute *row)
{
    static const char *const sections[] = { "out of range", "System Values", "Generic Values",
                                            "Illegal Values & HW Values" };
    fprintf(out, "%s\n", row->name);
    if (row->number < 0)
        fprintf(out, "  number          n/a\n  address         %s\n",
                row->address < 0 ? "< 0" : ">= 1024");
    else
        fprintf(out, "  number          %d\n  address         %d (0x%03x)\n", row->number,
                row->address, (unsigned)row->address);
    fprintf(out, "  section         %s\n", sections[row->section & 3]);
    fprintf(out, "  %-19s Idmap    Odmap\n", "stage");
    for (unsigned s = 0; s < VFETCH_AAM_STAGES; s++) {
        const unsigned column = s < 5 ? s : s == 5 ? VFETCH_AAM_VSC : VFETCH_AAM_PIXEL;
        if (column < VFETCH_AAM_VTG_STAGES)
            fprintf(out, "  %-19s %-8s %s\n", vfetch_aam_stage_name(column),
                    vfetch_aam_idmap_name(row->idmap[column]),
                    vfetch_aam_odmap_name(row->odmap[column]));
        else
            fprintf(out, "  %-19s %s\n", vfetch_aam_stage_name(column),
                    vfetch_aam_idmap_name(row->idmap[column]));
    }
    fprintf(out, "  default         %s", vfetch_aam_default_name(row->default_value));
    if (row->number >= 0)
        fprintf(out, " (0x%08x with SET_ATTRIBUTE_DEFAULT 0x%02X)",
                vfetch_aam_default_bits((unsigned)row->number, VFETCH_AAM_ATTRIBUTE_DEFAULT_RESET),
                VFETCH_AAM_ATTRIBUTE_DEFAULT_RESET);
    fprintf(out, "\n  interpolation   %s\n", vfetch_aam_interpolation_name(row->interpolation));
    const size_t need = vfetch_aam_format_row(row, NULL, 0);
    char *line = malloc(need + 1);
    if (line) {
        vfetch_aam_format_row(row, line, need + 1);
        fprintf(out, "%s\n", line);
        free(line);
    }
}

static void aam_print_table(FILE *out)
{
    fputs("Maxwell attribute address map, one row per line as the seed prints it: name | number "
          "| address | CULL_BEFORE_FETCH | VERTEX | TESSELLATION_INIT | TESSELLATION | GEOMETRY "
          "(Idmap / Odmap) | VSC | PIXEL (Idmap) | default | interpolation\n",
          out);
    char line[512];
    vfetch_aam_format_row(vfetch_aam_at_address(-1), line, sizeof line);
    fprintf(out, "%s\n", line);
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++) {
        vfetch_aam_format_row(vfetch_aam_attribute(n), line, sizeof line);
        fprintf(out, "%s\n", line);
    }
    vfetch_aam_format_row(vfetch_aam_at_address(4 * VFETCH_AAM_ATTRIBUTES), line, sizeof line);
    fprintf(out, "%s\n", line);
}

static int aam_patch(int argc, char **argv, FILE *out, FILE *errs)
{
    if (argc > 1)
        return usage(errs, 1);
    if (argc == 1) {
        long n;
        const struct vfetch_aam_patch_attribute *p =
            aam_number(argv[0], &n) ? (n >= 0 ? vfetch_aam_patch_attribute((unsigned)n) : NULL)
                                    : vfetch_aam_patch_find(argv[0]);
        if (!p) {
            char detail[96];
            snprintf(detail, sizeof detail, "no patch attribute \"%.40s\"", argv[0]);
            return aam_fail(errs, VFETCH_EINVAL, detail);
        }
        fprintf(out, "%s\n  patch number    %d\n  address         %d (0x%03x)\n", p->name,
                p->number, p->address, (unsigned)p->address);
        return 0;
    }
    fprintf(out, "patch attribute address map (ALD.P): number, address, name\n");
    fprintf(out, "  n/a   < 0  %s\n", vfetch_aam_patch_at_address(-1)->name);
    for (unsigned n = 0; n < VFETCH_AAM_PATCH_ATTRIBUTES; n++)
        fprintf(out, "  %3u  %4u  %s\n", n, 4 * n, vfetch_aam_patch_attribute(n)->name);
    return 0;
}

static int aam_lod(int argc, FILE *out, FILE *errs)
{
    if (argc)
        return usage(errs, 1);
    fprintf(out, "tessellation LOD layout: per-patch CBE slot = patch attribute number\n");
    for (unsigned s = 0; s < VFETCH_AAM_LOD_SLOTS; s++) {
        const struct vfetch_aam_lod_slot *l = vfetch_aam_lod_slot(s);
        fprintf(out, "slot %u  %-30s %-10s quad: %s (%s); triangle: %s (%s); isoline: %s (%s)\n",
                l->slot, l->method, l->hw_name, l->quad_parameter, l->quad_diagram,
                l->triangle_parameter, l->triangle_diagram, l->isoline_parameter,
                l->isoline_diagram);
    }
    return 0;
}

static const char *const aam_source_names[] = { "zero", "upstream", "default", "hardware" };

/* --check: one stage's maps checked alone (no VERTEX among them), or a whole pipeline. */
static int aam_check(int argc, char **argv, FILE *out, FILE *errs)
{
    struct vfetch_aam_pipeline p;
    memset(&p, 0, sizeof p);
    for (unsigned s = 0; s < 6; s++)
        vfetch_aam_shader_init(&p.shaders[s]);
    int current = -1, stages = 0, last = 0;
    char detail[128] = "";
    for (int i = 0; i < argc; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "--last")) {
            last = 1;
            continue;
        }
        if (!strcmp(opt, "--raster")) {
            p.vsc.raster_enabled = true;
            continue;
        }
        if (!strcmp(opt, "--two-sided")) {
            p.vsc.two_sided_light = true;
            continue;
        }
        if (i + 1 >= argc)
            return usage(errs, 1);
        const char *val = argv[++i];
        uint32_t words[20];
        if (!strcmp(opt, "--check")) {
            current = vfetch_aam_stage_from_name(val);
            if (current < 0 || current > VFETCH_AAM_PIXEL || (p.enabled >> current & 1))
                return usage(errs, 1);
            p.enabled |= 1u << current;
            stages++;
        } else if (!strcmp(opt, "--imap") || !strcmp(opt, "--omap") || !strcmp(opt, "--stream")) {
            struct vfetch_aam_map m;
            const int rc = aam_parse_map(val, &m, detail, sizeof detail);
            if (rc == 1 || (current < 0 && strcmp(opt, "--stream") != 0))
                return usage(errs, 1);
            if (rc)
                return aam_fail(errs, VFETCH_EINVAL, detail);
            if (!strcmp(opt, "--stream")) {
                p.vsc.stream_enabled = true;
                p.vsc.stream_imap = m;
            } else if (!strcmp(opt, "--imap")) {
                p.shaders[current].imap = m;
            } else {
                p.shaders[current].omap = m;
            }
        } else if (!strcmp(opt, "--store-req") && current >= 0) {
            char *end;
            const unsigned long a = strtoul(val, &end, 0);
            if (*end != ':' || a > 255)
                return usage(errs, 1);
            const unsigned long b = strtoul(end + 1, &end, 0);
            if (*end || b > 255 || end == val)
                return usage(errs, 1);
            p.shaders[current].store_req_start = (uint8_t)a;
            p.shaders[current].store_req_end = (uint8_t)b;
        } else if (!strcmp(opt, "--sph") && current >= 0) {
            if (parse_list(val, words, 20) != 20)
                return usage(errs, 1);
            struct vfetch_aam_sph sph;
            const int err = vfetch_aam_sph_parse(words, &sph);
            if (err)
                return aam_fail(errs, err, "not a Shader Program Header");
            const int want = current == VFETCH_AAM_CULL_BEFORE_FETCH ? VFETCH_AAM_VERTEX : current;
            if ((int)sph.stage != want) {
                snprintf(detail, sizeof detail, "the header is a %s shader's",
                         vfetch_aam_stage_name(sph.stage));
                return aam_fail(errs, VFETCH_EINVAL, detail);
            }
            p.shaders[current] = sph.maps;
        } else if (!strcmp(opt, "--skip-a") && parse_list(val, words, 2) >= 1) {
            p.skip_mask_a = words[0] | (uint64_t)(strchr(val, ',') ? words[1] : 0) << 32;
        } else if (!strcmp(opt, "--skip-b") && parse_list(val, words, 2) >= 1) {
            p.skip_mask_b = words[0] | (uint64_t)(strchr(val, ',') ? words[1] : 0) << 32;
        } else {
            return usage(errs, 1);
        }
    }
    if (!stages)
        return usage(errs, 1);
    struct vfetch_aam_where where = { -1, -1 };
    if (stages == 1 && current != VFETCH_AAM_VERTEX) {
        struct vfetch_aam_stage_bmaps b;
        const int err = vfetch_aam_stage_bmaps((enum vfetch_aam_stage)current, &p.shaders[current],
                                               last, &b, &where);
        if (err) {
            snprintf(detail, sizeof detail, "attribute %d (%s) in %s", where.attribute,
                     vfetch_aam_attribute((unsigned)where.attribute)->name,
                     vfetch_aam_stage_name((unsigned)where.stage));
            return aam_fail(errs, err, detail);
        }
        fprintf(out, "%s%s: legal\n", vfetch_aam_stage_name((unsigned)current),
                last && current != VFETCH_AAM_PIXEL ? " (last VTG stage)" : "");
        aam_print_map(out, "Imap", &b.load);
        aam_print_map(out, "input Bmap forced (LD_REQ)", &b.load_req);
        if (current != VFETCH_AAM_PIXEL) {
            aam_print_map(out, "Omap", &b.store);
            aam_print_map(out, "output Bmap forced (ST_REQ)", &b.store_req);
        }
        return 0;
    }
    struct vfetch_aam_bmaps b;
    const int err = vfetch_aam_pipeline_bmaps(&p, &b, &where);
    if (err) {
        if (where.attribute >= 0)
            snprintf(detail, sizeof detail, "attribute %d (%s) in %s", where.attribute,
                     vfetch_aam_attribute((unsigned)where.attribute)->name,
                     vfetch_aam_stage_name((unsigned)where.stage));
        else
            snprintf(detail, sizeof detail, "a pipeline needs a VERTEX stage");
        return aam_fail(errs, err, detail);
    }
    fprintf(out, "pipeline legal; last VTG stage %s\n", vfetch_aam_stage_name(b.last_vtg));
    for (unsigned s = 0; s <= VFETCH_AAM_PIXEL; s++) {
        if (!(p.enabled >> s & 1))
            continue;
        char title[64];
        snprintf(title, sizeof title, "%s input", vfetch_aam_stage_name(s));
        aam_print_map(out, title, &b.input[s]);
        if (s < VFETCH_AAM_VTG_STAGES && s != b.last_vtg) {
            snprintf(title, sizeof title, "%s output", vfetch_aam_stage_name(s));
            aam_print_map(out, title, &b.output[s]);
        }
    }
    aam_print_map(out, "VSC input", &b.vsc_input);
    if (p.enabled >> VFETCH_AAM_PIXEL & 1) {
        aam_print_map(out, "PIXEL CBE STri portion", &b.ps.stri);
        fputs("PIXEL inputs (not zero)     ", out);
        unsigned count = 0;
        for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++)
            if (b.ps.source[n] != VFETCH_AAM_PS_ZERO)
                fprintf(out, "%s %u %s", count++ ? "," : "", n, aam_source_names[b.ps.source[n] & 3]);
        fputc('\n', out);
    }
    return 0;
}

static int cmd_aam(int argc, char **argv, FILE *out, FILE *errs)
{
    if (argc == 0) {
        aam_print_table(out);
        return 0;
    }
    if (!strcmp(argv[0], "--patch"))
        return aam_patch(argc - 1, argv + 1, out, errs);
    if (!strcmp(argv[0], "--lod"))
        return aam_lod(argc - 1, out, errs);
    if (!strcmp(argv[0], "--check"))
        return aam_check(argc, argv, out, errs);
    char detail[96];
    if (!strcmp(argv[0], "--address")) {
        long a;
        if (argc != 2 || !aam_number(argv[1], &a))
            return usage(errs, 1);
        const struct vfetch_aam_attribute *row = vfetch_aam_at_address(a);
        if (!row) {
            snprintf(detail, sizeof detail, "address %ld is not the start of an attribute", a);
            return aam_fail(errs, VFETCH_EINVAL, detail);
        }
        aam_print_row(out, row);
        return 0;
    }
    if (argc != 1 || argv[0][0] == '-')
        return usage(errs, 1);
    const int n = aam_attribute_of(argv[0]);
    if (n < 0) {
        snprintf(detail, sizeof detail, "no attribute \"%.40s\"", argv[0]);
        return aam_fail(errs, VFETCH_EINVAL, detail);
    }
    aam_print_row(out, vfetch_aam_attribute((unsigned)n));
    return 0;
}

int vfetch_cli_main(int argc, char **argv, FILE *out, FILE *errs)
{
    if (argc < 2)
        return usage(errs, 1);
    const char *cmd = argv[1];
    if (!strcmp(cmd, "explain"))
        return cmd_explain(argc - 2, argv + 2, out, errs);
    if (!strcmp(cmd, "texel"))
        return cmd_texel(argc - 2, argv + 2, out, errs);
    if (!strcmp(cmd, "demo"))
        return cmd_demo(out, errs);
    if (!strcmp(cmd, "cpu"))
        return cmd_cpu(out);
    if (!strcmp(cmd, "aam"))
        return cmd_aam(argc - 2, argv + 2, out, errs);
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        fprintf(out, "vfetch %s\n", vfetch_version());
        return 0;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help"))
        return usage(out, 0);
    return usage(errs, 1);
}
