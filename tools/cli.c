/*
 * The `vfetch` command's argument handling and commands, as a function that writes to the
 * streams it is given (tools/vfetch.c's main() passes stdout and stderr; the fuzz target
 * tests/fuzz/fuzz_cli.c passes memory streams). Every command and option: usage_entries below
 * and docs/cli.md.
 *
 * Messages, so that a newcomer's mistake is answered by what is wrong rather than by the whole
 * usage: a usage error is one line naming the argument and what is wrong with it, then one
 * line pointing at the command's usage (exit 1); a refusal by the library is one line naming
 * the option or field that carried the refused value, the error code's name,
 * vfetch_strerror's sentence and the code (exit 2). -h / --help print the usage on `out`.
 *
 * `vfetch texel` and `vfetch gx-texture` write PNG files with libpng; tools/meson.build defines
 * VFETCH_HAVE_PNG 1 when it found libpng, else 0, and then they say so and exit 2
 * (docs/texel-cli.md, docs/gx-texture-cli.md).
 * `vfetch gx` walks Dolphin FIFO captures with the gx-fifo test's walker,
 * tests/gx/gx_fifo_parse.c, which tools/meson.build compiles into this library.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#if VFETCH_CLI_ZYDIS
#include <Zydis/Zydis.h>
#endif
#include "gx_fifo_parse.h"
#include "vfetch/aam.h"
#include "vfetch/gx.h"
#include "vfetch/gx_texture.h"
#include "vfetch/maxwell.h"
#include "vfetch/prim.h"
#include "vfetch/r300.h"
#include "vfetch/texel.h"

#ifndef VFETCH_HAVE_PNG /* always defined by tools/meson.build; 0 for a bare syntax check */
#define VFETCH_HAVE_PNG 0
#endif
#if VFETCH_HAVE_PNG
#include <png.h>
#endif

#if defined(__GNUC__)
#define CLI_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define CLI_PRINTF(fmt, args)
#endif

/* ---- usage ---- */

/* One entry per command: `vfetch help` prints them all, `vfetch help WORDS` and
   `vfetch WORDS --help` those whose command starts with WORDS ("explain": every explain). */
static const struct {
    const char *cmd;
    const char *text;
} usage_entries[] = {
    { "explain r300",
      "  vfetch explain r300 [--psc W0,W1,..] [--ext W0,..] [--sgn-norm W] [--swap N]\n"
      "                      [--arrays STRIDE:COUNT,..] [--vtx-size N] [--full] [--per-op] [--asm]\n"
      "      print the plan R300 VAP_PROG_STREAM_CNTL register words compile to, and its\n"
      "      generated code (--asm: the instructions)\n" },
    { "explain maxwell",
      "  vfetch explain maxwell --attr W0,W1,.. [--stream W0,..] [--instance B0,..]\n"
      "                         [--frequency F0,..] [--default W] [--bmap N,..] [--full]"
      " [--per-op] [--asm]\n"
      "      print the plan Maxwell SET_VERTEX_ATTRIBUTE / SET_VERTEX_STREAM_A_FORMAT words\n"
      "      compile to, where each ISBE attribute lands, and its generated code\n" },
    { "explain gx",
      "  vfetch explain gx [--vcd-lo W] [--vcd-hi W] [--vat-a W] [--vat-b W] [--vat-c W]\n"
      "                    [--array-stride ATTR=N ..] [--layout L] [--color C] [--per-op] [--asm]\n"
      "      print the GameCube/Wii vertex format VCD/VAT words describe: each attribute, the\n"
      "      vertex size, the output declaration and the plan (ATTR: position, normal, color0,\n"
      "      color1, tex0..tex7 or 0..11; L: vec4, packed, dolphin, isbe-full, isbe-compact;\n"
      "      C: float, rgba8)\n" },
    { "explain texel",
      "  vfetch explain texel --format1 W [--format2 W] [--option NAME=VALUE ..]\n"
      "      print the plan R300/R500 TX_FORMAT1 / TX_FORMAT2 words compile to\n"
      "      texel options: signed=clamp|zero|no-zero gamma=srgb|pow22 bc=truncate|float\n"
      "        dxt=truncate|round dxt-order=bgra|rgba code18=cxv8u8|y8 align10=low|high\n" },
    { "texel",
      "  vfetch texel --format1 W [--format2 W] --size WxH [--depth D] [--pitch BYTES]\n"
      "               [--region X,Y,W,H] [--slice Z] [--option NAME=VALUE ..] IN.raw OUT.png\n"
      "      decode one slice of a raw texture surface (IN.raw) into an 8-bit RGBA PNG\n"
      "      (--option: as for explain texel)\n" },
    { "explain gx-texture",
      "  vfetch explain gx-texture (--setimage0 W | --format F --size WxH) [--settlut W]\n"
      "                            [--palette-format P]\n"
      "      print the plan GameCube/Wii TX_SETIMAGE0 / TX_SETTLUT words compile to, and the\n"
      "      bytes a decode needs (F: I4, I8, IA4, IA8, RGB565, RGB5A3, RGBA8, C4, C8, C14X2,\n"
      "      CMPR or a code 0..15; P: IA8, RGB565, RGB5A3 or a code 0..3)\n" },
    { "gx-texture",
      "  vfetch gx-texture (--setimage0 W | --format F --size WxH) [--settlut W]\n"
      "                    [--palette-format P] [--palette FILE] [--region X,Y,W,H] IN OUT.png\n"
      "      decode a GX texture as it lies in memory (IN; for C4, C8, C14X2 the palette FILE\n"
      "      as in TMEM) into an 8-bit RGBA PNG (F, P: as for explain gx-texture)\n" },
    { "prim",
      "  vfetch prim gx PRIMITIVE COUNT [--restart] [--expand] [--drop-incomplete] [--base N]\n"
      "             [--u32 | --narrowest]\n"
      "  vfetch prim r300|maxwell PRIMITIVE COUNT [--guest-last] [--host-last] [--host-fans]\n"
      "             [--yuzu] [--base N] [--u32 | --narrowest]\n"
      "             [--indices LIST [--index-bytes 1|2|4] [--big-endian] [--restart-index N]\n"
      "             [--range]]\n"
      "      print the host indices of a draw of COUNT vertices (gx PRIMITIVE: QUADS,\n"
      "      QUADS_2, TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN, LINES, LINE_STRIP, POINTS or\n"
      "      the command byte 0x80..0xB8; --restart: host primitive restart, --expand: lines\n"
      "      and points expanded in the vertex shader; R is the restart index. r300\n"
      "      PRIMITIVE: POINTS, LINES, LINE_STRIP, TRIANGLES, TRIANGLE_FAN, TRIANGLE_STRIP,\n"
      "      LINE_LOOP, QUADS, QUAD_STRIP, POLYGON or PRIM_TYPE 1..15; maxwell: the same\n"
      "      names, LINES_ADJACENCY, LINE_STRIP_ADJACENCY, TRIANGLES_ADJACENCY,\n"
      "      TRIANGLE_STRIP_ADJACENCY or BEGIN's 0..13; the provoking vertex first unless\n"
      "      --guest-last / --host-last; --indices: a draw of COUNT entries of a guest index\n"
      "      buffer, of --index-bytes each (default 2), --restart-index its restart entry,\n"
      "      --range: indices rebased to the smallest entry; --host-fans: fans passed to the\n"
      "      host, --yuzu: yuzu's orders; --narrowest: 16 or 32 bits, whichever the draw\n"
      "      needs; --drop-incomplete: no triangle of QUADS' last three vertices, no strip\n"
      "      below three)\n" },
    { "gx",
      "  vfetch gx [--layout L] [--color C] CAPTURE.dff\n"
      "      replay a Dolphin FIFO capture through a GX CP state, converting every draw, and\n"
      "      print frames, draws, vertices, CP writes and the vertex formats (L, C: as for\n"
      "      explain gx)\n" },
    { "demo", "  vfetch demo      convert a bundled R300 sample and print the vertices\n" },
    { "cpu", "  vfetch cpu       the ISA level the kernels run at (VFETCH_CPU_MASK limits it)\n" },
    { "aam",
      "  vfetch aam [N|NAME|--address A]   the Maxwell attribute address map, or one row\n"
      "  vfetch aam --patch [N|NAME] | --lod   the patch attribute map; the LOD layout\n"
      "  vfetch aam --check STAGE [--imap SET] [--omap SET] [--store-req S:E] [--sph W0,..,W19]\n"
      "             [--check STAGE ...] [--last] [--skip-a W0,W1] [--skip-b W0,W1] [--raster]\n"
      "             [--stream SET] [--two-sided]\n"
      "      check Imaps/Omaps and print the Bmaps (SET: numbers, names, A-B, or words:W0,..)\n" },
    { "version", "  vfetch --version  (or vfetch version)\n" },
    { "help",
      "  vfetch help [COMMAND]   this text, or one command's part of it (also: vfetch -h,\n"
      "                          vfetch COMMAND --help)\n" },
};
#define USAGE_ENTRIES (sizeof usage_entries / sizeof usage_entries[0])

static const char usage_footer[] =
    "W (a 32-bit word), N: decimal or 0x hex; lists are comma-separated.\n"
    "exit status: 0 done, 1 usage error, 2 the input was refused (docs/cli.md)\n";

/* The usage of cmd (NULL: of every command) on `to`; how many entries matched. */
static unsigned usage_of(FILE *to, const char *cmd)
{
    const size_t len = cmd ? strlen(cmd) : 0;
    unsigned n = 0;
    for (unsigned i = 0; i < USAGE_ENTRIES; i++) {
        const char *c = usage_entries[i].cmd;
        if (cmd && (strncmp(c, cmd, len) != 0 || (c[len] != '\0' && c[len] != ' ')))
            continue;
        if (n++ == 0)
            fputs("usage:\n", to);
        fputs(usage_entries[i].text, to);
    }
    if (n)
        fputs(usage_footer, to);
    return n;
}

static int is_help(const char *arg)
{
    return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

/* ---- messages ---- */

/* Control characters (an argument may hold a newline) shown as '?', so that a message that
   quotes arguments stays one line. */
static void one_line(char *text)
{
    for (; *text; text++)
        if ((unsigned char)*text < 0x20 || *text == 0x7f)
            *text = '?';
}

/* A usage error: "vfetch: <what is wrong>", then a line pointing at the usage of cmd (NULL:
   of every command). Returns 1, the exit code. */
CLI_PRINTF(3, 4)
static int usage_error(FILE *errs, const char *cmd, const char *fmt, ...)
{
    char line[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    one_line(line);
    fprintf(errs, "vfetch: %s\nsee `vfetch help%s%s`\n", line, cmd ? " " : "", cmd ? cmd : "");
    return 1;
}

/* The names of the error codes 0, -1, .., VFETCH_ECOUNT + 1 (include/vfetch/vfetch.h), in
   that order: a message names the code a reader can look up in docs/errors.md. */
static const char *const error_names[] = {
    "VFETCH_OK", "VFETCH_EINVAL", "VFETCH_ENOMEM", "VFETCH_EPLAN", "VFETCH_ER300_RESERVED_TYPE",
    "VFETCH_ER300_RESERVED_SGN_NORM", "VFETCH_ERESERVED_SWIZZLE", "VFETCH_ER300_FLOAT8_LOC31",
    "VFETCH_ER300_NO_LAST_VEC", "VFETCH_ER300_STREAM_UNDERRUN", "VFETCH_ER300_TOO_MANY_ARRAYS",
    "VFETCH_ER300_ARRAY_LAYOUT", "VFETCH_ESHORT_STREAM", "VFETCH_ESHORT_OUTPUT",
    "VFETCH_ESHORT_INDICES", "VFETCH_EOVERFLOW", "VFETCH_EINDEX_RANGE", "VFETCH_EMISSING_STREAM",
    "VFETCH_EGX_RESERVED_COLOR", "VFETCH_EGX_ARRAY_INDEX", "VFETCH_EREGISTER",
    "VFETCH_EAAM_IMAP_DEFAULT", "VFETCH_EAAM_OMAP_DISCARD", "VFETCH_EAAM_PS_POSITION_W",
    "VFETCH_EAAM_CBF_ODMAP", "VFETCH_EAAM_CBF_IDMAP", "VFETCH_EMAXWELL_ATTRIBUTE_FORMAT",
    "VFETCH_EMAXWELL_STREAM_DISABLED", "VFETCH_ETEXEL_UNSUPPORTED", "VFETCH_ETEXEL_RESERVED_COORD_TYPE",
    "VFETCH_ETEXEL_RESERVED_YUV_MODE", "VFETCH_ETEXEL_YUV_FORMAT", "VFETCH_ETEXEL_POW2FIX_FORMAT",
    "VFETCH_ETEXEL_RGBA8_INEXACT", "VFETCH_ETEXEL_SURFACE_LAYOUT", "VFETCH_ETEXEL_REGION", "VFETCH_ETEXEL_SHORT_SURFACE",
    "VFETCH_EGX_TEXTURE_FORMAT", "VFETCH_EGX_TLUT_FORMAT", "VFETCH_EGX_SHORT_PALETTE",
    "VFETCH_EPRIM_TYPE", "VFETCH_EPRIM_INDEX_RANGE",
};
_Static_assert(sizeof error_names / sizeof error_names[0] == -VFETCH_ECOUNT,
               "a name for every error code of include/vfetch/vfetch.h");

/* The library refused a value: "vfetch: <what>: <code's name>: <vfetch_strerror> (code N)" on
   one line, where <what> names the option or field that carried the value (and, in
   parentheses, the rule it broke when the sentence alone would not say). Returns 2. */
CLI_PRINTF(3, 4)
static int refusal(FILE *errs, int code, const char *fmt, ...)
{
    char line[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    one_line(line);
    const char *name = code <= 0 && code > VFETCH_ECOUNT ? error_names[-code] : "VFETCH_E?";
    fprintf(errs, "vfetch: %s: %s: %s (code %d)\n", line, name, vfetch_strerror(code), code);
    return 2;
}

/* A failure that is not the library's (a file that cannot be read or written, a capture the
   walker cannot walk): "vfetch: <what>" on one line. Returns rc. */
CLI_PRINTF(3, 4)
static int file_error(FILE *errs, int rc, const char *fmt, ...)
{
    char line[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    one_line(line);
    fprintf(errs, "vfetch: %s\n", line);
    return rc;
}

/* ---- arguments ---- */

/* One command's arguments, taken one at a time by next_arg(). */
struct args {
    const char *cmd;            /* "explain r300": for messages and its usage */
    const char *const *valued;  /* its options that take a value (NULL-terminated) */
    const char *const *flags;   /* its options that take none (NULL-terminated) */
    int argc, i;
    char **argv;
    FILE *out, *errs;
    int rc; /* the exit code, once next_arg() returned ARG_EXIT */
};

#define ARGS(cmd, valued, flags, argc, argv, out, errs) \
    { (cmd), (valued), (flags), (argc), 0, (argv), (out), (errs), 0 }

static const char *const no_options[] = { NULL };

enum { ARG_END, ARG_OPTION, ARG_OPERAND, ARG_EXIT };

static int in_list(const char *const *names, const char *text)
{
    for (; *names; names++)
        if (!strcmp(*names, text))
            return 1;
    return 0;
}

/* The next argument: ARG_OPTION (*opt, and *val when it takes one), ARG_OPERAND (*opt, an
   argument that is no option: "-" is one, for a file), ARG_END, or ARG_EXIT with a->rc set:
   0 after -h / --help printed the usage, 1 after a usage error (an unknown option, a missing
   value). */
static int next_arg(struct args *a, const char **opt, const char **val)
{
    if (a->i >= a->argc)
        return ARG_END;
    const char *arg = a->argv[a->i++];
    *opt = arg;
    *val = NULL;
    if (arg[0] != '-' || arg[1] == '\0')
        return ARG_OPERAND;
    if (is_help(arg)) {
        usage_of(a->out, a->cmd);
        a->rc = 0;
        return ARG_EXIT;
    }
    if (in_list(a->flags, arg))
        return ARG_OPTION;
    if (!in_list(a->valued, arg)) {
        a->rc = usage_error(a->errs, a->cmd, "%s: unknown option '%.40s'", a->cmd, arg);
        return ARG_EXIT;
    }
    if (a->i >= a->argc) {
        a->rc = usage_error(a->errs, a->cmd, "%s needs a value", arg);
        return ARG_EXIT;
    }
    *val = a->argv[a->i++];
    return ARG_OPTION;
}

/* What ended a command's options when it was not ARG_END: the exit code of -h or of a usage
   error already printed, or a usage error for an argument the command does not take. */
static int args_stopped(const struct args *a, int kind, const char *arg)
{
    if (kind == ARG_EXIT)
        return a->rc;
    return usage_error(a->errs, a->cmd, "%s: unexpected argument '%.40s'", a->cmd, arg);
}

/* A command that takes no arguments: -1 when it was given none, else its exit code (0 after
   -h, 1 after a usage error naming the first argument). */
static int no_arguments(struct args *a)
{
    const char *opt, *val;
    const int kind = next_arg(a, &opt, &val);
    return kind == ARG_END ? -1 : args_stopped(a, kind, opt);
}

/* ---- numbers ---- */

/* A number that is the whole text, decimal or 0x hex (no sign, no spaces, no octal), at most
   max. */
static int parse_number(const char *text, unsigned long long max, unsigned long long *out)
{
    if (*text < '0' || *text > '9')
        return 0;
    const int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    if (hex && !isxdigit((unsigned char)text[2])) /* strtoull would take a sign or a space */
        return 0;
    char *end;
    errno = 0;
    const unsigned long long v = strtoull(hex ? text + 2 : text, &end, hex ? 16 : 10);
    if (errno || *end || v > max)
        return 0;
    *out = v;
    return 1;
}

/* Up to max numbers, each at most limit, separated by sep and making up the whole text: the
   count, or -1 (an empty item, one that does not parse, more than max). */
static int parse_numbers(const char *text, char sep, uint32_t limit, uint32_t *out, int max)
{
    const char seps[2] = { sep, '\0' };
    for (int n = 0;; n++) {
        char item[24];
        const size_t len = strcspn(text, seps);
        unsigned long long v;
        if (n == max || len >= sizeof item)
            return -1;
        memcpy(item, text, len);
        item[len] = '\0';
        if (!parse_number(item, limit, &v))
            return -1;
        out[n] = (uint32_t)v;
        if (text[len] == '\0')
            return n + 1;
        text += len + 1;
    }
}

/* Option opt's value as one 32-bit word: 0, or 1 after a usage error naming both. */
static int word_option(const struct args *a, const char *opt, const char *val, uint32_t *word)
{
    if (parse_numbers(val, ',', 0xffffffffu, word, 1) == 1)
        return 0;
    return usage_error(a->errs, a->cmd, "%s %.40s: not a 32-bit word (decimal or 0x hex)", opt,
                       val);
}

/* Option opt's value as 1..max comma-separated 32-bit words (*n of them): 0, or 1 after a
   usage error naming both. */
static int list_option(const struct args *a, const char *opt, const char *val, uint32_t *words,
                       int max, int *n)
{
    *n = parse_numbers(val, ',', 0xffffffffu, words, max);
    if (*n > 0)
        return 0;
    return usage_error(a->errs, a->cmd,
                       "%s %.60s: not a list of 1 to %d 32-bit words (decimal or 0x hex, "
                       "comma-separated)", opt, val, max);
}

/* The index of text among names[0..n-1], or -1. */
static int name_index(const char *const *names, unsigned n, const char *text)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(names[i], text))
            return (int)i;
    return -1;
}

static void print_plan_jit(FILE *out, const vfetch_plan *plan, int with_asm);

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

/* A texel or GX texture plan's description on out, ending in a newline: describe() sizes it
   with a first call, then fills it. Returns 0, or -1 when the text cannot be allocated. */
typedef size_t describe_fn(const void *plan, char *buf, size_t size);
static int put_description(FILE *out, describe_fn *describe, const void *plan)
{
    const size_t need = describe(plan, NULL, 0);
    char *text = malloc(need + 1);
    if (!text)
        return -1;
    describe(plan, text, need + 1);
    fputs(text, out);
    if (need && text[need - 1] != '\n')
        fputc('\n', out);
    free(text);
    return 0;
}
static size_t describe_texel(const void *plan, char *buf, size_t size)
{
    return vfetch_texel_plan_describe(plan, buf, size);
}
static size_t describe_gx_texture(const void *plan, char *buf, size_t size)
{
    return vfetch_gx_texture_plan_describe(plan, buf, size);
}

/* ---- files ---- */

/* At most limit bytes of path (more are never read: a surface or capture needs no more, and a
   device like /dev/zero ends). NULL with errno set when it cannot be read. */
static unsigned char *read_file_at_most(const char *path, size_t limit, size_t *size)
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

/* ---- explain r300: VAP_PROG_STREAM_CNTL and friends -> plan ---- */

static const char *const r300_valued[] = { "--psc", "--ext", "--sgn-norm", "--swap", "--arrays",
                                           "--vtx-size", NULL };
static const char *const r300_flags[] = { "--full", "--per-op", "--asm", NULL };

/* The options as given (NULL: not given), for naming the one a refusal is about. */
struct r300_given {
    const char *psc, *ext, *sgn_norm, *arrays, *vtx_size;
};

#define R300_GIVEN(text) ((text) ? (text) : "(not given: 0)")

/* A refusal of vfetch_r300_translate(), naming the option whose value it is about (r300.h
   lists which check each code answers). */
static int r300_refusal(FILE *errs, int err, const struct r300_given *g)
{
    switch (err) {
    case VFETCH_EINVAL: /* the only argument the tool can get wrong: VAP_VTX_SIZE */
        if (!g->vtx_size)
            return refusal(errs, err, "neither --vtx-size nor --arrays given (immediate mode "
                           "takes --vtx-size 1..128 dwords per vertex)");
        return refusal(errs, err, "--vtx-size %.40s (immediate mode, without --arrays, takes "
                       "1..128 dwords per vertex)", g->vtx_size);
    case VFETCH_ER300_TOO_MANY_ARRAYS:
    case VFETCH_ER300_ARRAY_LAYOUT:
        return refusal(errs, err, "--arrays %.90s (at most 16 arrays, each COUNT 1..255 and "
                       "STRIDE 0..255, COUNT at most STRIDE unless STRIDE is 0)", g->arrays);
    case VFETCH_ER300_RESERVED_SGN_NORM:
        return refusal(errs, err, "--sgn-norm %.40s on --psc %.90s", R300_GIVEN(g->sgn_norm),
                       R300_GIVEN(g->psc));
    case VFETCH_ERESERVED_SWIZZLE:
        return refusal(errs, err, "--ext %.90s", R300_GIVEN(g->ext));
    case VFETCH_EPLAN:
        return refusal(errs, err, "--ext %.90s (every element's write mask is 0: nothing to "
                       "convert)", R300_GIVEN(g->ext));
    case VFETCH_ER300_STREAM_UNDERRUN:
        return refusal(errs, err, "--psc %.90s with %s %.90s", R300_GIVEN(g->psc),
                       g->arrays ? "--arrays" : "--vtx-size",
                       g->arrays ? g->arrays : R300_GIVEN(g->vtx_size));
    default: /* the element words themselves: reserved type, FLOAT_8 at 31, no LAST_VEC */
        return refusal(errs, err, "--psc %.90s", R300_GIVEN(g->psc));
    }
}

/* --arrays STRIDE:COUNT,..: every pair counted, the first 16 kept (more are the library's to
   refuse, as the hardware's limit). 0, or 1 after a usage error. */
static int r300_arrays(const struct args *a, const char *val, struct vfetch_r300_desc *d)
{
    d->num_arrays = 0;
    for (const char *p = val;; d->num_arrays++) {
        char item[48];
        uint32_t pair[2];
        const size_t len = strcspn(p, ",");
        if (len < sizeof item) {
            memcpy(item, p, len);
            item[len] = '\0';
        }
        if (len >= sizeof item || parse_numbers(item, ':', 0xffffffffu, pair, 2) != 2)
            return usage_error(a->errs, a->cmd, "--arrays %.60s: not STRIDE:COUNT,.. (dwords, "
                               "decimal or 0x hex)", val);
        if (d->num_arrays < VFETCH_R300_MAX_ARRAYS)
            d->arrays[d->num_arrays] = (struct vfetch_r300_array){ pair[0], pair[1] };
        if (p[len] == '\0') {
            d->num_arrays++;
            return 0;
        }
        p += len + 1;
    }
}

static int cmd_explain_r300(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a = ARGS("explain r300", r300_valued, r300_flags, argc, argv, out, errs);
    struct vfetch_r300_desc d;
    vfetch_r300_desc_init(&d);
    struct r300_given g = { NULL, NULL, NULL, NULL, NULL };
    int per_op = 0, with_asm = 0, kind, n;
    const char *opt, *val;
    uint32_t words[8];
    while ((kind = next_arg(&a, &opt, &val)) == ARG_OPTION) {
        if (!strcmp(opt, "--full")) {
            d.layout = VFETCH_R300_LAYOUT_FULL;
        } else if (!strcmp(opt, "--per-op")) {
            per_op = 1;
        } else if (!strcmp(opt, "--asm")) {
            with_asm = 1;
        } else if (!strcmp(opt, "--psc") || !strcmp(opt, "--ext")) {
            if (list_option(&a, opt, val, words, 8, &n))
                return 1;
            const int psc = opt[2] == 'p'; /* --ext: the words not given stay the identity */
            memcpy(psc ? d.prog_stream_cntl : d.prog_stream_cntl_ext, words,
                   (size_t)n * sizeof words[0]);
            if (psc)
                g.psc = val;
            else
                g.ext = val;
        } else if (!strcmp(opt, "--sgn-norm")) {
            if (word_option(&a, opt, val, &d.sgn_norm_cntl))
                return 1;
            g.sgn_norm = val;
        } else if (!strcmp(opt, "--swap")) {
            if (word_option(&a, opt, val, &d.cntl_status))
                return 1;
            if (d.cntl_status > 3)
                return usage_error(errs, a.cmd, "--swap %.40s: VC_SWAP is 0..3", val);
        } else if (!strcmp(opt, "--vtx-size")) {
            if (word_option(&a, opt, val, &d.vtx_size_dwords))
                return 1;
            g.vtx_size = val;
        } else { /* --arrays */
            if (r300_arrays(&a, val, &d))
                return 1;
            g.arrays = val;
        }
    }
    if (kind != ARG_END)
        return args_stopped(&a, kind, opt);
    struct vfetch_plan_desc pd;
    int err = vfetch_r300_translate(&d, &pd);
    if (err)
        return r300_refusal(errs, err, &g);
    pd.path = per_op ? VFETCH_PATH_PER_OP : VFETCH_PATH_AUTO;
    vfetch_plan *plan;
    err = vfetch_plan_compile(&pd, &plan);
    if (err)
        return refusal(errs, err, "explain r300: the plan of the translated words");
    print_plan(out, plan);
    fprintf(out, "output: %u bytes per vertex\n", vfetch_plan_record_size(plan));
    for (unsigned loc = 0; loc < 32; loc++)
        if (vfetch_plan_location(plan, loc) >= 0)
            fprintf(out, "  DST_VEC_LOC %2u -> bytes %u..%u\n", loc,
                    4 * vfetch_plan_location(plan, loc), 4 * vfetch_plan_location(plan, loc) + 15);
    fprintf(out, "hash %016llx\n", (unsigned long long)vfetch_plan_hash(plan));
    print_plan_jit(out, plan, with_asm);
    vfetch_plan_free(plan);
    return 0;
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

static const char *const maxwell_valued[] = { "--attr", "--stream", "--instance", "--frequency",
                                              "--default", "--bmap", NULL };
static const char *const maxwell_flags[] = { "--full", "--per-op", "--asm", NULL };

/* A refusal of vfetch_maxwell_compile(), naming the attribute or stream word it is about: the
   first attribute compile checks (those in the Bmap; by default every active one) that breaks
   the rule the code stands for. */
static int maxwell_refusal(FILE *errs, int err, const struct vfetch_maxwell_desc *d,
                           const char *attr_text)
{
    int bmap_given = 0;
    for (unsigned w = 0; w < 8; w++)
        bmap_given |= d->input_bmap.words[w] != 0;
    for (unsigned i = 0; i < VFETCH_MAXWELL_ATTRIBUTES; i++) {
        const uint32_t word = d->attribute[i];
        int checked = !(word >> 6 & 1);
        if (bmap_given) {
            checked = 0;
            for (unsigned c = 0; c < 4; c++)
                checked |= vfetch_aam_map_has(&d->input_bmap, VFETCH_AAM_GENERIC_0 + 4 * i + c);
        }
        struct vfetch_maxwell_attribute at;
        const int bad = checked ? vfetch_maxwell_attribute_parse(word, &at) : 0;
        if (err == VFETCH_EMAXWELL_ATTRIBUTE_FORMAT && bad)
            return refusal(errs, err, "--attr word %u 0x%08x (size 0x%02x %s, type %u %s)", i,
                           word, (word >> 21) & 0x3f, maxwell_size_name((word >> 21) & 0x3f),
                           (word >> 27) & 7, maxwell_type_name[(word >> 27) & 7]);
        if (err == VFETCH_EMAXWELL_STREAM_DISABLED && checked && !bad && !at.inactive &&
            !(d->stream_format[at.stream] >> 12 & 1))
            return refusal(errs, err, "--stream word %u 0x%x (ENABLE, bit 12, clear), read by "
                           "--attr word %u 0x%08x", at.stream, d->stream_format[at.stream], i,
                           word);
    }
    if (err == VFETCH_EINVAL) /* the only one the tool can cause: a compact record of nothing */
        return refusal(errs, err, "--attr %.90s (no active attribute%s: the compact record "
                       "would hold nothing; --full gives the 1 KiB record)",
                       attr_text ? attr_text : "(not given)", bmap_given ? " in --bmap" : "");
    return refusal(errs, err, "explain maxwell");
}

static int cmd_explain_maxwell(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a = ARGS("explain maxwell", maxwell_valued, maxwell_flags, argc, argv, out, errs);
    struct vfetch_maxwell_desc d;
    vfetch_maxwell_desc_init(&d);
    int attributes = 0, with_asm = 0, kind, n;
    const char *opt, *val, *attr_text = NULL;
    while ((kind = next_arg(&a, &opt, &val)) == ARG_OPTION) {
        uint32_t words[VFETCH_MAXWELL_ATTRIBUTES];
        if (!strcmp(opt, "--full")) {
            d.layout = VFETCH_MAXWELL_LAYOUT_FULL;
        } else if (!strcmp(opt, "--per-op")) {
            d.path = VFETCH_PATH_PER_OP;
        } else if (!strcmp(opt, "--asm")) {
            with_asm = 1;
        } else if (!strcmp(opt, "--default")) {
            if (word_option(&a, opt, val, &d.attribute_default))
                return 1;
        } else if (!strcmp(opt, "--attr")) {
            if (list_option(&a, opt, val, words, VFETCH_MAXWELL_ATTRIBUTES, &n))
                return 1;
            memcpy(d.attribute, words, (size_t)n * sizeof words[0]); /* the rest stay inactive */
            attributes = n;
            attr_text = val;
        } else if (!strcmp(opt, "--bmap")) {
            if (list_option(&a, opt, val, words, VFETCH_MAXWELL_ATTRIBUTES, &n))
                return 1;
            for (int k = 0; k < n; k++) {
                if (words[k] >= VFETCH_AAM_ATTRIBUTES)
                    return usage_error(errs, a.cmd, "--bmap %.60s: attribute %u does not exist "
                                       "(0..255)", val, words[k]);
                vfetch_aam_map_add(&d.input_bmap, words[k]);
            }
        } else { /* --stream, --instance, --frequency: one word per stream */
            if (list_option(&a, opt, val, words, VFETCH_MAXWELL_STREAMS, &n))
                return 1;
            memcpy(!strcmp(opt, "--stream")     ? d.stream_format
                   : !strcmp(opt, "--instance") ? d.stream_instance
                                                : d.stream_frequency,
                   words, (size_t)n * sizeof words[0]);
        }
    }
    if (kind != ARG_END)
        return args_stopped(&a, kind, opt);
    /* Compiled before anything is printed: a refusal leaves the output empty. */
    vfetch_maxwell_plan *plan;
    const int err = vfetch_maxwell_compile(&d, &plan);
    if (err)
        return maxwell_refusal(errs, err, &d, attr_text);
    for (int i = 0; i < attributes; i++) {
        struct vfetch_maxwell_attribute at;
        const uint32_t word = d.attribute[i];
        const int bad = vfetch_maxwell_attribute_parse(word, &at);
        fprintf(out, "attribute %2d: 0x%08x ", i, word);
        if (bad) /* outside the Bmap: not fetched, so compile did not refuse it */
            fprintf(out, "size 0x%02x %s, type %u %s: %s\n", (word >> 21) & 0x3f,
                    maxwell_size_name((word >> 21) & 0x3f), (word >> 27) & 7,
                    maxwell_type_name[(word >> 27) & 7], vfetch_strerror(bad));
        else if (at.inactive)
            fprintf(out, "inactive (its slots hold their defaults)\n");
        else
            fprintf(out, "stream %u offset %u: %s %s%s, %u component(s), %u bytes%s\n", at.stream,
                    at.offset, maxwell_size_name(at.size), maxwell_type_name[at.type],
                    at.integer ? " (integers)" : "", at.components, at.bytes,
                    at.swap_r_and_b ? ", R and B swapped" : "");
    }
    const vfetch_plan *conv = vfetch_maxwell_plan_converter(plan);
    print_plan(out, conv);
    fprintf(out, "output: %s records, %u bytes per vertex\n",
            d.layout == VFETCH_MAXWELL_LAYOUT_FULL ? "full ISBE" : "compact ISBE",
            vfetch_maxwell_plan_out_stride(plan));
    const struct vfetch_aam_map *bmap = vfetch_maxwell_plan_bmap(plan);
    for (unsigned b = 0; b < VFETCH_AAM_ATTRIBUTES; b++) {
        if (!vfetch_aam_map_has(bmap, b))
            continue;
        const struct vfetch_aam_attribute *row = vfetch_aam_attribute(b);
        const int per_draw = b == VFETCH_AAM_VERTEX_ID || b == VFETCH_AAM_INSTANCE_ID;
        fprintf(out, "  %-28s (%3u) -> slot %3d%s\n", row ? row->name : "?", b,
                vfetch_maxwell_plan_slot(plan, b), per_draw ? " (written per draw)" : "");
    }
    if (d.layout == VFETCH_MAXWELL_LAYOUT_FULL)
        fprintf(out, "  every other slot: its default (SET_ATTRIBUTE_DEFAULT 0x%x)\n",
                d.attribute_default);
    fprintf(out, "hash %016llx\n", (unsigned long long)vfetch_plan_hash(conv));
    print_plan_jit(out, conv, with_asm);
    vfetch_maxwell_plan_free(plan);
    return 0;
}

/* ---- explain gx / gx: GameCube/Wii CP vertex formats (include/vfetch/gx.h, docs/gx.md) ---- */

/* Attribute names by enum vfetch_gx_attr_id, which is also the CP array number. */
static const char *const gx_attr_names[VFETCH_GX_NUM_ATTRS] = {
    "position", "normal", "color0", "color1", "tex0", "tex1",
    "tex2",     "tex3",   "tex4",   "tex5",   "tex6", "tex7",
};
/* Output locations by enum vfetch_gx_location. */
static const char *const gx_location_names[VFETCH_GX_NUM_LOCATIONS] = {
    "position",    "normal",      "nbt1",        "nbt2",        "color0",      "color1",
    "tex0",        "tex1",        "tex2",        "tex3",        "tex4",        "tex5",
    "tex6",        "tex7",        "pos_matrix",  "tex0_matrix", "tex1_matrix", "tex2_matrix",
    "tex3_matrix", "tex4_matrix", "tex5_matrix", "tex6_matrix", "tex7_matrix",
};
static const char *const gx_mode_names[4] = { "none", "direct", "index8", "index16" };
/* By enum vfetch_gx_layout and enum vfetch_gx_color_output: the values of --layout, --color. */
static const char *const gx_layout_names[] = { "vec4", "packed", "dolphin", "isbe-compact",
                                               "isbe-full" };
static const char *const gx_color_names[] = { "float", "rgba8" };
#define GX_LAYOUTS (sizeof gx_layout_names / sizeof gx_layout_names[0])
#define GX_COLORS (sizeof gx_color_names / sizeof gx_color_names[0])
static const char *const decl_type_names[4] = { "float32", "uint32", "unorm8x4", "sint32" };

/* What one element of attribute id holds, e.g. "f32 x3 (XYZ)", "s16 x2 (ST), shift 8",
   "rgba8888 (RGBA)". */
static void gx_element_text(char *text, size_t size, unsigned id, const struct vfetch_gx_attr *at)
{
    static const char *const components[5] = { "u8", "s8", "u16", "s16", "f32" };
    static const char *const colors[6] = { "rgb565",   "rgb888",   "rgb888x",
                                           "rgba4444", "rgba6666", "rgba8888" };
    /* per kind (position, normal, color, texcoord): the smaller count's name, the larger's */
    static const char *const counts[4][2] = { { "XY", "XYZ" }, { "N", "NBT" }, { "RGB", "RGBA" },
                                              { "S", "ST" } };
    static const uint8_t smaller[4] = { 2, 3, 3, 1 };
    const unsigned kind = id == VFETCH_GX_POSITION ? 0
                          : id == VFETCH_GX_NORMAL ? 1
                          : id <= VFETCH_GX_COLOR1 ? 2
                                                   : 3;
    const char *count = counts[kind][at->count != smaller[kind]];
    if (kind == 2)
        snprintf(text, size, "%s (%s)", at->format < 6 ? colors[at->format] : "?", count);
    else if (at->format != VFETCH_GX_F32 && at->shift)
        snprintf(text, size, "%s x%u (%s), shift %u", at->format < 5 ? components[at->format] : "?",
                 at->count, count, at->shift);
    else
        snprintf(text, size, "%s x%u (%s)", at->format < 5 ? components[at->format] : "?",
                 at->count, count);
}

/* The format's attributes in stream order, each with its bytes in the vertex. */
static void gx_print_format(FILE *out, const struct vfetch_gx_format *f, const uint8_t *strides)
{
    unsigned at = 0;
    for (unsigned m = 0; m < 9; m++) { /* the position's, then texcoord 0..7's */
        if (m ? f->tex_matrix_index[m - 1] : f->pos_matrix_index) {
            fprintf(out, "  bytes %3u..%-3u %-12s direct   a matrix index (its low 6 bits)\n",
                    at, at, gx_location_names[VFETCH_GX_LOC_POS_MATRIX + m]);
            at++;
        }
    }
    for (unsigned id = 0; id < VFETCH_GX_NUM_ATTRS; id++) {
        const struct vfetch_gx_attr *a = &f->attr[id];
        char element[64];
        if (a->mode == VFETCH_GX_NONE)
            continue;
        gx_element_text(element, sizeof element, id, a);
        fprintf(out, "  bytes %3u..%-3u %-12s %-8s ", at, at + a->stream_size - 1,
                gx_attr_names[id], gx_mode_names[a->mode & 3]);
        if (a->mode == VFETCH_GX_DIRECT)
            fprintf(out, "%s\n", element);
        else
            fprintf(out, "%sinto array %u (stride %u bytes%s): %s, %u-byte elements\n",
                    /* NBT with NORMALINDEX3: an index of 1 or 2 bytes per vector */
                    a->stream_size == 3 * (a->mode - 1u) ? "3 indices " : "", id, strides[id],
                    strides[id] ? "" : ": every index reads element 0", element,
                    a->element_size);
        at += a->stream_size;
    }
    if (f->byte_dequant)
        fputs("  BYTEDEQUANT (VAT A bit 30): the shifts apply to u8/s8 too\n", out);
    if (f->diagnostics & VFETCH_GX_DIAG_UNUSED_FORMAT)
        fputs("  note: a component format 5..7 (unused in the documents) is read as f32\n", out);
    if (f->diagnostics & VFETCH_GX_DIAG_UNSIGNED_NORMAL)
        fputs("  note: an unsigned normal (n/a in the documents) is read as u8/2^7 or u16/2^15\n",
              out);
    fprintf(out, "vertex: %u bytes in the command stream\n", f->vertex_size);
}

/* The attributes in one line, e.g. "position f32 x3 (XYZ), tex0 index8 f32 x2 (ST)". */
static void gx_format_summary(char *text, size_t size, const struct vfetch_gx_format *f)
{
    size_t len = 0;
    text[0] = '\0';
    for (unsigned m = 0; m < 9 && len < size; m++) /* the position's, then texcoord 0..7's */
        if (m ? f->tex_matrix_index[m - 1] : f->pos_matrix_index)
            len += (size_t)snprintf(text + len, size - len, "%s%s", len ? ", " : "",
                                    gx_location_names[VFETCH_GX_LOC_POS_MATRIX + m]);
    for (unsigned id = 0; id < VFETCH_GX_NUM_ATTRS && len < size; id++) {
        const struct vfetch_gx_attr *a = &f->attr[id];
        char element[64];
        if (a->mode == VFETCH_GX_NONE)
            continue;
        gx_element_text(element, sizeof element, id, a);
        const int direct = a->mode == VFETCH_GX_DIRECT;
        len += (size_t)snprintf(text + len, size - len, "%s%s %s%s%s", len ? ", " : "",
                                gx_attr_names[id], direct ? "" : gx_mode_names[a->mode & 3],
                                direct ? "" : " ", element);
    }
    if (!text[0])
        snprintf(text, size, "no attribute");
}

/* --layout L or --color C (the options both gx commands take): 0, or 1 after a usage error. */
static int gx_output_option(const struct args *a, const char *opt, const char *val,
                            enum vfetch_gx_layout *layout, enum vfetch_gx_color_output *color)
{
    if (!strcmp(opt, "--layout")) {
        const int n = name_index(gx_layout_names, GX_LAYOUTS, val);
        if (n < 0)
            return usage_error(a->errs, a->cmd, "--layout %.40s: the layouts are vec4, packed, "
                               "dolphin, isbe-compact and isbe-full", val);
        *layout = (enum vfetch_gx_layout)n;
    } else {
        const int n = name_index(gx_color_names, GX_COLORS, val);
        if (n < 0)
            return usage_error(a->errs, a->cmd, "--color %.40s: the color outputs are float and "
                               "rgba8", val);
        *color = (enum vfetch_gx_color_output)n;
    }
    return 0;
}

/* --array-stride ATTR=N: CP ARRAY_STRIDE of an indexed attribute's array (ATTR by name or
   number 0..11, N 0..255 as the register's 8 bits). 0, or 1 after a usage error. */
static int gx_array_stride(const struct args *a, const char *val, uint8_t *strides)
{
    char name[16];
    const size_t len = strcspn(val, "=");
    unsigned long long n, stride;
    int id = -1;
    if (len < sizeof name && val[len] == '=') {
        memcpy(name, val, len);
        name[len] = '\0';
        id = parse_number(name, VFETCH_GX_NUM_ATTRS - 1, &n)
                 ? (int)n
                 : name_index(gx_attr_names, VFETCH_GX_NUM_ATTRS, name);
    }
    if (id < 0)
        return usage_error(a->errs, a->cmd, "--array-stride %.40s: not ATTR=N (ATTR: position, "
                           "normal, color0, color1, tex0..tex7 or 0..11)", val);
    if (!parse_number(val + len + 1, 255, &stride))
        return usage_error(a->errs, a->cmd, "--array-stride %.40s: the stride is 0..255 bytes "
                           "(decimal or 0x hex)", val);
    strides[id] = (uint8_t)stride;
    return 0;
}

/* A refusal of these VCD/VAT words: a reserved color format is named by its field (the only
   word gx.h refuses: VFETCH_EGX_RESERVED_COLOR), anything else by every word. */
static int gx_refusal(FILE *errs, int err, const struct vfetch_gx_regs *r, const char *where)
{
    for (unsigned c = 0; c < 2 && err == VFETCH_EGX_RESERVED_COLOR; c++) {
        const unsigned mode = (r->vcd_lo >> (13 + 2 * c)) & 3;
        const unsigned format = (r->vat_a >> (14 + 4 * c)) & 7;
        if (mode != VFETCH_GX_NONE && format >= 6)
            return refusal(errs, err, "%s--vat-a 0x%08x (COL%uFMT %u, bits %u:%u, on color%u, "
                           "which --vcd-lo 0x%08x enables)", where, r->vat_a, c, format,
                           16 + 4 * c, 14 + 4 * c, c, r->vcd_lo);
    }
    return refusal(errs, err, "%s--vcd-lo 0x%08x --vcd-hi 0x%08x --vat-a 0x%08x --vat-b 0x%08x "
                   "--vat-c 0x%08x", where, r->vcd_lo, r->vcd_hi, r->vat_a, r->vat_b, r->vat_c);
}

/* `vfetch explain gx` options that are register words, in struct vfetch_gx_regs's order. */
static const char *const gx_explain_valued[] = { "--vcd-lo", "--vcd-hi", "--vat-a", "--vat-b",
                                                 "--vat-c", "--array-stride", "--layout",
                                                 "--color", NULL };
static const char *const gx_explain_flags[] = { "--per-op", "--asm", NULL };

/* Generated code, one instruction a line (Zydis's formatter, where the command was built
   with it: it comes with the JIT). */
static void print_jit_code(FILE *out, const struct vfetch_jit_code_view *view)
{
    const struct vfetch_jit_code_view v = *view;
    if (!v.size)
        return;
#if VFETCH_CLI_ZYDIS
    const uint8_t *b = v.bytes;
    ZydisDisassembledInstruction ins;
    for (size_t at = v.entry; at < v.size; at += ins.info.length) {
        if (!ZYAN_SUCCESS(ZydisDisassembleIntel(ZYDIS_MACHINE_MODE_LONG_64, v.address + at,
                                                b + at, v.size - at, &ins)))
            break;
        fprintf(out, "  %04zx  %s\n", at, ins.text);
    }
#else
    fprintf(out, "  (%zu bytes; this build of the command has no disassembler)\n", v.size - v.entry);
#endif
}

/* The plan's tier: its generated code (and, with --asm, that code), or why it has none. */
static void print_gx_jit(FILE *out, const vfetch_gx_plan *plan, int with_asm)
{
    struct vfetch_plan_info info;
    vfetch_gx_plan_info(plan, &info);
    if (!info.jit) {
        fprintf(out, "jit: none (%s)\n", info.jit_reason);
        return;
    }
    if (info.jit_crossover == 0)
        fprintf(out, "jit: %u bytes of generated code (with constants); every draw runs the portable "
                "tier, measured faster (VFETCH_JIT=compare runs both)\n", info.jit_code_bytes);
    else if (info.jit_crossover == UINT32_MAX)
        fprintf(out, "jit: %u bytes of generated code (with constants), every draw\n",
                info.jit_code_bytes);
    else
        fprintf(out, "jit: %u bytes of generated code (with constants), draws below %u vertices\n",
                info.jit_code_bytes, info.jit_crossover);
    struct vfetch_jit_code_view view;
    if (with_asm && !vfetch_gx_plan_jit_code(plan, &view))
        print_jit_code(out, &view);
}

/* An R300 or Maxwell plan's tier: its generated code for draws without an index buffer (below
   the crossover) and through one (every count, where a stream is indexed), and with --asm that
   code; or why it has none. */
static void print_plan_jit(FILE *out, const vfetch_plan *plan, int with_asm)
{
    struct vfetch_plan_info info;
    vfetch_plan_info(plan, &info);
    if (!info.jit) {
        fprintf(out, "jit: none (%s)\n", info.jit_reason);
        return;
    }
    const struct vfetch_plan_desc *d = vfetch_plan_get_desc(plan);
    int indexed = 0;
    for (unsigned s = 0; s < d->num_streams; s++)
        indexed |= d->streams[s].step == VFETCH_STEP_INDEXED && vfetch_plan_stream_extent(plan, s);
    fprintf(out, "jit: %u bytes of generated code (with constants), ", info.jit_code_bytes);
    if (info.jit_crossover == UINT32_MAX)
        fputs("every draw", out);
    else
        fprintf(out, "draws without an index buffer below %u records", info.jit_crossover);
    fputs(indexed ? "; draws through an index buffer at every count (a second entry)\n" : "\n",
          out);
    struct vfetch_jit_code_view view;
    if (with_asm && !vfetch_plan_jit_code(plan, &view))
        print_jit_code(out, &view);
}

static int cmd_explain_gx(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a = ARGS("explain gx", gx_explain_valued, gx_explain_flags, argc, argv, out, errs);
    struct vfetch_gx_desc p;
    memset(&p, 0, sizeof p);
    uint32_t *const words[5] = { &p.regs.vcd_lo, &p.regs.vcd_hi, &p.regs.vat_a, &p.regs.vat_b,
                                 &p.regs.vat_c };
    int kind, with_asm = 0;
    const char *opt, *val;
    while ((kind = next_arg(&a, &opt, &val)) == ARG_OPTION) {
        const int w = name_index(gx_explain_valued, 5, opt);
        if (w >= 0) {
            if (word_option(&a, opt, val, words[w]))
                return 1;
        } else if (!strcmp(opt, "--per-op")) {
            p.path = VFETCH_PATH_PER_OP;
        } else if (!strcmp(opt, "--asm")) {
            with_asm = 1;
        } else if (!strcmp(opt, "--array-stride")) {
            if (gx_array_stride(&a, val, p.array_stride))
                return 1;
        } else if (gx_output_option(&a, opt, val, &p.layout, &p.color_output)) {
            return 1;
        }
    }
    if (kind != ARG_END)
        return args_stopped(&a, kind, opt);
    vfetch_gx_plan *plan;
    int err = vfetch_gx_compile(&p, &plan);
    if (err)
        return gx_refusal(errs, err, &p.regs, "");
    struct vfetch_vertex_decl decl;
    err = vfetch_gx_plan_declaration(plan, &decl);
    if (err) {
        vfetch_gx_plan_free(plan);
        return refusal(errs, err, "explain gx: the declaration of the compiled format");
    }
    fprintf(out, "format: VCD_LO 0x%08x VCD_HI 0x%08x VAT A 0x%08x VAT B 0x%08x VAT C 0x%08x\n",
            p.regs.vcd_lo, p.regs.vcd_hi, p.regs.vat_a, p.regs.vat_b, p.regs.vat_c);
    gx_print_format(out, vfetch_gx_plan_format(plan), p.array_stride);
    fprintf(out, "output: %s layout, %s colors, %u bytes per vertex\n", gx_layout_names[p.layout],
            gx_color_names[p.color_output], vfetch_gx_plan_out_stride(plan));
    for (uint32_t i = 0; i < decl.num_attrs; i++) {
        const struct vfetch_attr_decl *d = &decl.attrs[i];
        fprintf(out, "  location %2u %-12s offset %4u  ", d->location,
                d->location < VFETCH_GX_NUM_LOCATIONS ? gx_location_names[d->location] : "?",
                d->offset);
        if (d->type == VFETCH_ATTR_UNORM8X4) /* one slot of four bytes */
            fprintf(out, "unorm8x4%s\n", d->normalized ? " (normalized)" : "");
        else
            fprintf(out, "%s x%u\n", (unsigned)d->type < 4 ? decl_type_names[d->type] : "?",
                    d->count);
    }
    const vfetch_plan *conv = vfetch_gx_plan_converter(plan);
    int indexed = 0;
    for (unsigned id = 0; id < VFETCH_GX_NUM_ATTRS; id++)
        indexed |= vfetch_gx_plan_format(plan)->attr[id].mode >= VFETCH_GX_INDEX8;
    if (conv) {
        if (indexed)
            fputs("staged: each indexed attribute's element is fetched into the vertex, as if "
                  "direct, and the plan converts that (docs/gx.md)\n", out);
        print_plan(out, conv);
        fprintf(out, "hash %016llx\n", (unsigned long long)vfetch_plan_hash(conv));
        print_gx_jit(out, plan, with_asm);
    } else {
        fputs("plan: none (no attribute: 0-byte vertices, nothing to convert)\nhash none\n", out);
    }
    vfetch_gx_plan_free(plan);
    return 0;
}

/* ---- gx: replay a Dolphin FIFO capture through a vfetch_gx_state ---- */

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

static const char *const gx_replay_valued[] = { "--layout", "--color", NULL };

static int cmd_gx(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a = ARGS("gx", gx_replay_valued, no_options, argc, argv, out, errs);
    struct vfetch_gx_state_params sp;
    memset(&sp, 0, sizeof sp);
    const char *path = NULL, *opt, *val;
    int kind;
    while ((kind = next_arg(&a, &opt, &val)) != ARG_END) {
        if (kind == ARG_OPERAND && !path)
            path = opt;
        else if (kind != ARG_OPTION)
            return args_stopped(&a, kind, opt);
        else if (gx_output_option(&a, opt, val, &sp.layout, &sp.color_output))
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
    const struct gx_fifo_callbacks callbacks = { gx_replay_cp_write, gx_replay_draw, r };
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

/* ---- explain texel / texel: R300/R500 TX_FORMAT1 and TX_FORMAT2 words -> texel plan ---- */

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
static int texel_option(const struct args *a, const char *text, struct vfetch_texel_options *o)
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
        return usage_error(a->errs, a->cmd, "--option %.40s: %s takes %s%s%s%s%s", text, name,
                           values[0], values[1] ? ", " : "", values[1] ? values[1] : "",
                           values[2] ? ", " : "", values[2] ? values[2] : "");
    }
    return usage_error(a->errs, a->cmd, "--option %.40s: the options are signed, gamma, bc, dxt, "
                       "dxt-order, code18 and align10 (NAME=VALUE)", text);
}

/* The arguments both texel commands take: the two words and the options. */
struct texel_words {
    struct vfetch_texel_desc desc; /* TX_FORMAT1, TX_FORMAT2 and the options */
    int have_format1;
};

/* opt/val if it is --format1, --format2 or --option: 1 taken, 0 not one of them, -1 after a
   usage error. */
static int texel_word_arg(const struct args *a, const char *opt, const char *val,
                          struct texel_words *w)
{
    if (!strcmp(opt, "--option"))
        return texel_option(a, val, &w->desc.options) ? -1 : 1;
    if (!strcmp(opt, "--format1")) {
        w->have_format1 = 1;
        return word_option(a, opt, val, &w->desc.tx_format1) ? -1 : 1;
    }
    if (!strcmp(opt, "--format2"))
        return word_option(a, opt, val, &w->desc.tx_format2) ? -1 : 1;
    return 0;
}

/* The plan of the words and its info, or the tool's exit code for a refusal, which names the
   word it is about: POW2FIX2FLT is TX_FORMAT2's, everything else TX_FORMAT1's (with
   TX_FORMAT2's TXFORMAT_MSB). */
static int texel_compile(const struct texel_words *w, vfetch_texel_plan **plan,
                         struct vfetch_texel_info *info, FILE *errs)
{
    int err = vfetch_texel_compile(&w->desc, plan);
    if (err == VFETCH_ETEXEL_POW2FIX_FORMAT)
        return refusal(errs, err, "--format2 0x%08x (POW2FIX2FLT, bit 17) on --format1 0x%08x",
                       w->desc.tx_format2, w->desc.tx_format1);
    if (err)
        return refusal(errs, err, "--format1 0x%08x%s", w->desc.tx_format1,
                       w->desc.tx_format2 ? " (with --format2)" : "");
    err = vfetch_texel_plan_info(*plan, info);
    if (err) {
        vfetch_texel_plan_free(*plan);
        return refusal(errs, err, "--format1 0x%08x: the plan's info", w->desc.tx_format1);
    }
    return 0;
}

static const char *const texel_coord_names[3] = { "2D", "3D", "cube" };
static const char *const texel_explain_valued[] = { "--format1", "--format2", "--option", NULL };

static int cmd_explain_texel(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a = ARGS("explain texel", texel_explain_valued, no_options, argc, argv, out, errs);
    struct texel_words w;
    vfetch_texel_desc_init(&w.desc);
    w.have_format1 = 0;
    int kind;
    const char *opt, *val;
    while ((kind = next_arg(&a, &opt, &val)) == ARG_OPTION)
        if (texel_word_arg(&a, opt, val, &w) < 0)
            return 1;
    if (kind != ARG_END)
        return args_stopped(&a, kind, opt);
    if (!w.have_format1)
        return usage_error(errs, a.cmd, "explain texel needs --format1");
    vfetch_texel_plan *plan;
    struct vfetch_texel_info info;
    int err = texel_compile(&w, &plan, &info, errs);
    if (err)
        return err;
    if (put_description(out, describe_texel, plan)) {
        vfetch_texel_plan_free(plan);
        return refusal(errs, VFETCH_ENOMEM, "explain texel: the plan's description");
    }
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

/* The PNG writer of `vfetch texel` and `vfetch gx-texture`. */
#if VFETCH_HAVE_PNG
/* libpng's error callback: keep the message (in the caller's buffer), unwind to setjmp. */
static void rgba_png_error(png_structp png, png_const_charp message)
{
    char *why = png_get_error_ptr(png);
    snprintf(why, 128, "%s", message);
    png_longjmp(png, 1);
}

static void rgba_png_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;
}

/* The part of the writing libpng may unwind from (nothing here changes after setjmp). */
static int rgba_png_rows(png_structp png, png_infop info, FILE *f, const uint8_t *rgba,
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
static int write_rgba_png(const char *path, const uint8_t *rgba, uint32_t width,
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
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, why, rgba_png_error,
                                              rgba_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    int rc = info ? rgba_png_rows(png, info, f, rgba, width, height) : -1;
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

/* The commands that write a picture (texel, gx-texture): --region X,Y,W,H into region (0, or
   the usage error's code), and the refusal of a build without libpng. */
static int region_arg(const struct args *a, const char *val, uint32_t region[4])
{
    if (parse_numbers(val, ',', 0xffffffffu, region, 4) != 4)
        return usage_error(a->errs, a->cmd, "--region %.40s: not X,Y,W,H", val);
    if (!region[2] || !region[3])
        return usage_error(a->errs, a->cmd, "--region %.40s: an empty region makes no picture",
                           val);
    return 0;
}
static int no_png(FILE *errs, const char *path)
{
    return file_error(errs, 2, "this vfetch was built without libpng: it cannot write %.100s",
                      path);
}

static const char *const texel_valued[] = { "--format1", "--format2", "--option", "--size",
                                            "--depth", "--pitch", "--region", "--slice", NULL };

static int cmd_texel(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a = ARGS("texel", texel_valued, no_options, argc, argv, out, errs);
    struct texel_words w;
    vfetch_texel_desc_init(&w.desc);
    w.have_format1 = 0;
    uint32_t width = 0, height = 0, depth = 0, slice = 0, region[4] = { 0, 0, 0, 0 };
    int have_size = 0, have_depth = 0, have_region = 0, files = 0, kind;
    unsigned long long pitch = 0;
    const char *file[2] = { NULL, NULL }, *opt, *val;
    while ((kind = next_arg(&a, &opt, &val)) != ARG_END) {
        if (kind == ARG_OPERAND && files < 2) {
            file[files++] = opt;
            continue;
        }
        if (kind != ARG_OPTION)
            return args_stopped(&a, kind, opt);
        const int taken = texel_word_arg(&a, opt, val, &w);
        unsigned long long n;
        uint32_t size[2];
        if (taken < 0)
            return 1;
        if (taken)
            continue;
        if (!strcmp(opt, "--size")) {
            /* 0 is left for the library to refuse */
            if (parse_numbers(val, 'x', 0xffffffffu, size, 2) != 2)
                return usage_error(errs, a.cmd, "--size %.40s: not WxH (decimal)", val);
            width = size[0];
            height = size[1];
            have_size = 1;
        } else if (!strcmp(opt, "--region")) {
            if (region_arg(&a, val, region))
                return 1;
            have_region = 1;
        } else { /* --depth, --slice, --pitch */
            if (!parse_number(val, opt[2] == 'p' ? SIZE_MAX : 0xffffffffu, &n))
                return usage_error(errs, a.cmd, "%s %.40s: not a number (decimal or 0x hex)", opt,
                                   val);
            if (opt[2] == 'd') {
                depth = (uint32_t)n;
                have_depth = 1;
            } else if (opt[2] == 's') {
                slice = (uint32_t)n;
            } else {
                pitch = n;
            }
        }
    }
    if (!w.have_format1 || !have_size || files != 2)
        return usage_error(errs, a.cmd, "texel: missing %s%s%s (it needs --format1 W, --size WxH, "
                           "IN.raw and OUT.png)", w.have_format1 ? "" : "--format1 ",
                           have_size ? "" : "--size ",
                           files == 2 ? "" : files == 1 ? "OUT.png" : "IN.raw OUT.png");
    if (!VFETCH_HAVE_PNG)
        return no_png(errs, file[1]);

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
        rc = refusal(errs, VFETCH_EOVERFLOW, "a %ux%u region (--region, or --size)", r.width,
                     r.height);
        goto done;
    }
    /* A --size of 0 reaches the library, which refuses it: the buffers get a texel anyway. */
    const size_t texels = r.width && r.height ? (size_t)r.width * r.height : 1;
    size_t size;
    src = read_file_at_most(file[0],
                            texel_surface_bound(&info, width, height, depth, (size_t)pitch), &size);
    if (!src) {
        rc = file_error(errs, 2, "cannot read %.200s: %s", file[0], strerror(errno));
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
            rc = refusal(errs, VFETCH_ENOMEM, "texel: a %ux%u picture", r.width, r.height);
            goto done;
        }
        t.data = exact ? (void *)rgba : (void *)f32;
        t.size = texels * (exact ? 4 : 16);
        err = vfetch_texel_decode(plan, &s, &r, &t);
    }
    if (err) {
        rc = refusal(errs, err, "region %u,%u %ux%u of slice %u, a %ux%ux%u %s surface, "
                     "%zu bytes read from %.200s", r.x, r.y, r.width, r.height, r.z, width,
                     height, depth, info.name, size, file[0]);
        goto done;
    }
    if (!exact)
        for (size_t i = 0; i < texels * 4; i++)
            rgba[i] = texel_unorm8(f32[i]);
    char why[128];
    if (write_rgba_png(file[1], rgba, r.width, r.height, why)) {
        rc = file_error(errs, 2, "cannot write %.200s: %s", file[1], why);
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

/* ---- explain gx-texture / gx-texture: GameCube/Wii TX_SETIMAGE0 and TX_SETTLUT -> texture
   plan (include/vfetch/gx_texture.h, docs/gx-texture-cli.md) ---- */

/* TX_SETIMAGE0.FORMAT by code; NULL at the reserved codes, which --format takes as numbers so
   that the library's refusal can be seen. */
static const char *const gx_texture_format_names[16] = {
    "I4", "I8", "IA4", "IA8", "RGB565", "RGB5A3", "RGBA8", NULL,
    "C4", "C8", "C14X2", NULL, NULL, NULL, "CMPR", NULL,
};
/* TX_SETTLUT.TLUT_FORMAT by code (3 is reserved). */
static const char *const gx_tlut_format_names[4] = { "IA8", "RGB565", "RGB5A3", NULL };

/* A name of names[0..n-1] in any case (i8 is typed as often as I8), or a code 0..n-1 as a
   number: the code, or -1. */
static int gx_texture_code(const char *text, const char *const *names, unsigned n)
{
    unsigned long long code;
    if (parse_number(text, n - 1, &code))
        return (int)code;
    for (unsigned i = 0; i < n; i++) {
        const char *name = names[i];
        size_t k = 0;
        while (name && name[k] && toupper((unsigned char)text[k]) == name[k])
            k++;
        if (name && !name[k] && !text[k])
            return (int)i;
    }
    return -1;
}

/* The arguments both gx-texture commands take. --format, --size and --palette-format replace
   their fields of --setimage0 and --settlut, whatever the order they come in. */
struct gx_texture_words {
    struct vfetch_gx_texture_desc desc; /* --setimage0, --settlut as given */
    int have_setimage0;
    const char *format, *size, *palette_format; /* the values as given, or NULL */
    uint32_t format_code, width, height, tlut_code;
};

/* opt/val if it is one of the words' options: 1 taken, 0 not one of them, -1 after a usage
   error (usage_error returns 1). */
static int gx_texture_word_arg(const struct args *a, const char *opt, const char *val,
                               struct gx_texture_words *w)
{
    if (!strcmp(opt, "--setimage0")) {
        w->have_setimage0 = 1;
        return word_option(a, opt, val, &w->desc.setimage0) ? -1 : 1;
    }
    if (!strcmp(opt, "--settlut"))
        return word_option(a, opt, val, &w->desc.settlut) ? -1 : 1;
    if (!strcmp(opt, "--format")) {
        const int code = gx_texture_code(val, gx_texture_format_names, 16);
        if (code < 0)
            return -usage_error(a->errs, a->cmd, "--format %.40s: the formats are I4, I8, IA4, "
                               "IA8, RGB565, RGB5A3, RGBA8, C4, C8, C14X2, CMPR or a code 0..15",
                               val);
        w->format = val;
        w->format_code = (uint32_t)code;
        return 1;
    }
    if (!strcmp(opt, "--palette-format")) {
        const int code = gx_texture_code(val, gx_tlut_format_names, 4);
        if (code < 0)
            return -usage_error(a->errs, a->cmd, "--palette-format %.40s: the palette formats "
                               "are IA8, RGB565, RGB5A3 or a code 0..3", val);
        w->palette_format = val;
        w->tlut_code = (uint32_t)code;
        return 1;
    }
    if (!strcmp(opt, "--size")) {
        uint32_t size[2];
        if (parse_numbers(val, 'x', 0xffffffffu, size, 2) != 2)
            return -usage_error(a->errs, a->cmd, "--size %.40s: not WxH (decimal)", val);
        if (size[0] < 1 || size[0] > 1024 || size[1] < 1 || size[1] > 1024)
            return -usage_error(a->errs, a->cmd, "--size %.40s: width and height are 1..1024 "
                               "(TX_SETIMAGE0 holds each minus 1 in 10 bits)", val);
        w->size = val;
        w->width = size[0];
        w->height = size[1];
        return 1;
    }
    return 0;
}

/* The words with the fields of --format, --size and --palette-format put in; 0, or 1 after a
   usage error when neither --setimage0 nor both --format and --size were given. */
static int gx_texture_words_finish(const struct args *a, struct gx_texture_words *w)
{
    if (!w->have_setimage0 && (!w->format || !w->size))
        return usage_error(a->errs, a->cmd, "%s: missing %s (it needs --setimage0 W, or --format "
                           "F and --size WxH)", a->cmd,
                           w->format ? "--size" : w->size ? "--format" : "--setimage0");
    uint32_t *image = &w->desc.setimage0, *tlut = &w->desc.settlut;
    if (w->format)
        *image = (*image & ~(0xfu << 20)) | w->format_code << 20;
    if (w->size)
        *image = (*image & ~0xfffffu) | (w->width - 1) | (w->height - 1) << 10;
    if (w->palette_format)
        *tlut = (*tlut & ~(3u << 10)) | w->tlut_code << 10;
    return 0;
}

/* Whether a word's bits 31:24 are 0 or one of its register's addresses (texture maps 0..3 at
   base, 4..7 at base + 0x20), as the library checks them. */
static int gx_texture_address_ok(uint32_t word, unsigned base)
{
    const unsigned address = word >> 24;
    return !address || (address >= base && address < base + 4) ||
           (address >= base + 0x20 && address < base + 0x24);
}

/* The plan of the words and its info, or the tool's exit code for a refusal, which names the
   option that carried the refused field. */
static int gx_texture_compile(const struct gx_texture_words *w, vfetch_gx_texture_plan **plan,
                              struct vfetch_gx_texture_info *info, FILE *errs)
{
    const uint32_t image = w->desc.setimage0, tlut = w->desc.settlut;
    int err = vfetch_gx_texture_compile(&w->desc, plan);
    char from[80];
    switch (err) {
    case VFETCH_OK:
        break;
    case VFETCH_EREGISTER:
        if (!gx_texture_address_ok(image, 0x88))
            return refusal(errs, err, "--setimage0 0x%08x (register address 0x%02x, bits 31:24; "
                           "TX_SETIMAGE0 is 0x88..0x8B or 0xA8..0xAB, or 0 for the value alone)",
                           image, image >> 24);
        return refusal(errs, err, "--settlut 0x%08x (register address 0x%02x, bits 31:24; "
                       "TX_SETTLUT is 0x98..0x9B or 0xB8..0xBB, or 0 for the value alone)", tlut,
                       tlut >> 24);
    case VFETCH_EGX_TEXTURE_FORMAT:
        if (w->format)
            snprintf(from, sizeof from, "--format %.40s", w->format);
        else
            snprintf(from, sizeof from, "--setimage0 0x%08x", image);
        return refusal(errs, err, "%s (FORMAT 0x%X, bits 23:20 of TX_SETIMAGE0)", from,
                       image >> 20 & 0xf);
    case VFETCH_EGX_TLUT_FORMAT:
        if (w->palette_format)
            snprintf(from, sizeof from, "--palette-format %.40s", w->palette_format);
        else
            snprintf(from, sizeof from, "--settlut 0x%08x", tlut);
        return refusal(errs, err, "%s (TLUT_FORMAT 3, bits 11:10 of TX_SETTLUT, on a %s "
                       "texture)", from, gx_texture_format_names[image >> 20 & 0xf]);
    default:
        return refusal(errs, err, "--setimage0 0x%08x with --settlut 0x%08x", image, tlut);
    }
    err = vfetch_gx_texture_plan_info(*plan, info);
    if (err) {
        vfetch_gx_texture_plan_free(*plan);
        return refusal(errs, err, "--setimage0 0x%08x: the plan's info", image);
    }
    return 0;
}

static const char *const gx_texture_explain_valued[] = { "--setimage0", "--settlut", "--format",
                                                         "--size", "--palette-format", NULL };

static int cmd_explain_gx_texture(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a = ARGS("explain gx-texture", gx_texture_explain_valued, no_options, argc, argv,
                         out, errs);
    struct gx_texture_words w;
    memset(&w, 0, sizeof w);
    vfetch_gx_texture_desc_init(&w.desc);
    int kind;
    const char *opt, *val;
    while ((kind = next_arg(&a, &opt, &val)) == ARG_OPTION)
        if (gx_texture_word_arg(&a, opt, val, &w) < 0)
            return 1;
    if (kind != ARG_END)
        return args_stopped(&a, kind, opt);
    if (gx_texture_words_finish(&a, &w))
        return 1;
    vfetch_gx_texture_plan *plan;
    struct vfetch_gx_texture_info info;
    int err = gx_texture_compile(&w, &plan, &info, errs);
    if (err)
        return err;
    if (put_description(out, describe_gx_texture, plan)) {
        vfetch_gx_texture_plan_free(plan);
        return refusal(errs, VFETCH_ENOMEM, "explain gx-texture: the plan's description");
    }
    fprintf(out, "info: %s, %ux%u texels, blocks of %ux%u texels in %u bytes, padded %ux%u, "
            "level %s\n", info.name, info.width, info.height, info.block_width,
            info.block_height, info.block_bytes, info.padded_width, info.padded_height,
            info.level);
    if (info.palette_entries)
        fprintf(out, "needs: %zu bytes of texture, a palette of %u %s entries (%u bytes)\n",
                info.source_bytes, info.palette_entries, info.palette_name,
                2 * info.palette_entries);
    else
        fprintf(out, "needs: %zu bytes of texture, no palette\n", info.source_bytes);
    vfetch_gx_texture_plan_free(plan);
    return 0;
}

static const char *const gx_texture_valued[] = { "--setimage0", "--settlut", "--format",
                                                 "--size", "--palette-format", "--palette",
                                                 "--region", NULL };

static int cmd_gx_texture(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a = ARGS("gx-texture", gx_texture_valued, no_options, argc, argv, out, errs);
    struct gx_texture_words w;
    memset(&w, 0, sizeof w);
    vfetch_gx_texture_desc_init(&w.desc);
    uint32_t region[4] = { 0, 0, 0, 0 };
    int have_region = 0, files = 0, kind;
    const char *file[2] = { NULL, NULL }, *palette_file = NULL, *opt, *val;
    while ((kind = next_arg(&a, &opt, &val)) != ARG_END) {
        if (kind == ARG_OPERAND && files < 2) {
            file[files++] = opt;
            continue;
        }
        if (kind != ARG_OPTION)
            return args_stopped(&a, kind, opt);
        const int taken = gx_texture_word_arg(&a, opt, val, &w);
        if (taken < 0)
            return 1;
        if (taken)
            continue;
        if (!strcmp(opt, "--palette")) {
            palette_file = val;
        } else { /* --region */
            if (region_arg(&a, val, region))
                return 1;
            have_region = 1;
        }
    }
    if (files != 2)
        return usage_error(errs, a.cmd, "gx-texture: missing %s (it needs the words, IN and "
                           "OUT.png)", files == 1 ? "OUT.png" : "IN OUT.png");
    if (gx_texture_words_finish(&a, &w))
        return 1;
    if (!VFETCH_HAVE_PNG)
        return no_png(errs, file[1]);

    vfetch_gx_texture_plan *plan;
    struct vfetch_gx_texture_info info;
    int err = gx_texture_compile(&w, &plan, &info, errs);
    if (err)
        return err;
    int rc = 0;
    unsigned char *src = NULL, *palette = NULL;
    uint8_t *rgba = NULL;
    size_t size = 0, palette_size = 0;
    if (info.palette_entries && !palette_file) {
        rc = usage_error(errs, a.cmd, "gx-texture: a %s texture needs --palette FILE (%u "
                         "entries of 16 bits, as in TMEM)", info.name, info.palette_entries);
        goto done;
    }
    if (!have_region) {
        region[2] = info.width;
        region[3] = info.height;
    }
    const struct vfetch_texel_region r = { region[0], region[1], 0, region[2], region[3], 1 };
    /* Only what a decode may read: the whole texture, the palette's entries. */
    src = read_file_at_most(file[0], info.source_bytes, &size);
    if (!src) {
        rc = file_error(errs, 2, "cannot read %.200s: %s", file[0], strerror(errno));
        goto done;
    }
    if (info.palette_entries) {
        palette = read_file_at_most(palette_file, 2 * (size_t)info.palette_entries,
                                    &palette_size);
        if (!palette) {
            rc = file_error(errs, 2, "cannot read %.200s: %s", palette_file, strerror(errno));
            goto done;
        }
    }
    const struct vfetch_gx_texture_source s = { src, size, palette, palette_size };
    uint8_t none[4];
    struct vfetch_texel_target t = { none, 0, VFETCH_TEXEL_RGBA8, 0, 0 };
    /* First without room for the texels, as `vfetch texel` does: the library checks every size
       before it writes, so a region or file it refuses is reported before the picture is
       allocated. (A region is at most 1024 x 1024 texels: no overflow.) */
    err = vfetch_gx_texture_decode(plan, &s, &r, &t);
    if (err == VFETCH_ESHORT_OUTPUT) {
        rgba = malloc((size_t)r.width * r.height * 4);
        if (!rgba) {
            rc = refusal(errs, VFETCH_ENOMEM, "gx-texture: a %ux%u picture", r.width, r.height);
            goto done;
        }
        t.data = rgba;
        t.size = (size_t)r.width * r.height * 4;
        err = vfetch_gx_texture_decode(plan, &s, &r, &t);
    }
    if (err) {
        char palette_text[260] = "";
        if (info.palette_entries)
            snprintf(palette_text, sizeof palette_text, ", %zu palette bytes read from %.200s",
                     palette_size, palette_file);
        rc = refusal(errs, err, "region %u,%u %ux%u of the %ux%u %s texture, %zu bytes read "
                     "from %.200s%s", r.x, r.y, r.width, r.height, info.width, info.height,
                     info.name, size, file[0], palette_text);
        goto done;
    }
    char why[128];
    if (write_rgba_png(file[1], rgba, r.width, r.height, why)) {
        rc = file_error(errs, 2, "cannot write %.200s: %s", file[1], why);
        goto done;
    }
    char palette_note[40] = "";
    if (info.palette_entries)
        snprintf(palette_note, sizeof palette_note, " (%s palette)", info.palette_name);
    fprintf(out, "wrote %s: %ux%u RGBA PNG of texels %u,%u..%u,%u of the %ux%u %s texture%s\n",
            file[1], r.width, r.height, r.x, r.y, r.x + r.width - 1, r.y + r.height - 1,
            info.width, info.height, info.name, palette_note);
done:
    free(rgba);
    free(palette);
    free(src);
    vfetch_gx_texture_plan_free(plan);
    return rc;
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
    struct vfetch_binding b[2] = { { demo_array0, sizeof demo_array0 },
                                   { demo_array1, sizeof demo_array1 } };
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
        return refusal(errs, err, "demo: the sample's draw");
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
    fprintf(out, "arrays: 0 stride 5 count 5 (position FLOAT_3, normal SHORT_4), "
                 "1 stride 2 count 2 (color D3DCOLOR, texcoord FLT16_2)\n\n");
    vfetch_plan *plan;
    const int err = vfetch_r300_compile(&d, &plan);
    if (err)
        return refusal(errs, err, "demo: the sample's words");
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

/* A number (decimal or 0x hex, optionally negative) that is the whole text. */
static int aam_number(const char *text, long *out)
{
    const int negative = text[0] == '-';
    unsigned long long v;
    if (!parse_number(text + negative, 65536, &v))
        return 0;
    *out = negative ? -(long)v : (long)v;
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
   numbers, names and ranges A-B. 0 ok, 1 not a set, 2 an attribute that does not exist
   (named in bad). */
static int aam_parse_map(const char *text, struct vfetch_aam_map *map, char *bad, size_t bad_size)
{
    memset(map, 0, sizeof *map);
    if (!strncmp(text, "words:", 6)) {
        uint32_t words[8];
        const int n = parse_numbers(text + 6, ',', 0xffffffffu, words, 8);
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
        return usage_error(errs, "aam", "aam --patch: unexpected argument '%.40s'", argv[1]);
    if (argc == 1) {
        long n;
        const struct vfetch_aam_patch_attribute *p =
            aam_number(argv[0], &n) ? (n >= 0 ? vfetch_aam_patch_attribute((unsigned)n) : NULL)
                                    : vfetch_aam_patch_find(argv[0]);
        if (!p)
            return refusal(errs, VFETCH_EINVAL, "aam --patch %.40s (no such patch attribute)",
                           argv[0]);
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

static int aam_lod(int argc, char **argv, FILE *out, FILE *errs)
{
    if (argc)
        return usage_error(errs, "aam", "aam --lod: unexpected argument '%.40s'", argv[0]);
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
static const char *const aam_check_valued[] = { "--check", "--imap", "--omap", "--stream",
                                                "--store-req", "--sph", "--skip-a", "--skip-b",
                                                NULL };
static const char *const aam_check_flags[] = { "--last", "--raster", "--two-sided", NULL };

static int aam_check(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a = ARGS("aam", aam_check_valued, aam_check_flags, argc, argv, out, errs);
    struct vfetch_aam_pipeline p;
    memset(&p, 0, sizeof p);
    for (unsigned s = 0; s < 6; s++)
        vfetch_aam_shader_init(&p.shaders[s]);
    int current = -1, stages = 0, last = 0, kind, n;
    char detail[128] = "";
    const char *opt, *val;
    while ((kind = next_arg(&a, &opt, &val)) == ARG_OPTION) {
        uint32_t words[20];
        /* a stage's maps follow its --check */
        const int of_stage = !strcmp(opt, "--imap") || !strcmp(opt, "--omap") ||
                             !strcmp(opt, "--store-req") || !strcmp(opt, "--sph");
        if (of_stage && current < 0)
            return usage_error(errs, a.cmd, "%s before the first --check STAGE", opt);
        if (!strcmp(opt, "--last")) {
            last = 1;
        } else if (!strcmp(opt, "--raster")) {
            p.vsc.raster_enabled = true;
        } else if (!strcmp(opt, "--two-sided")) {
            p.vsc.two_sided_light = true;
        } else if (!strcmp(opt, "--check")) {
            current = vfetch_aam_stage_from_name(val);
            if (current < 0 || current > VFETCH_AAM_PIXEL)
                return usage_error(errs, a.cmd, "--check %.40s: no stage %.40s (CBF, VS, TI, TS, "
                                   "GS, PS or their full names)", val, val);
            if (p.enabled >> current & 1)
                return usage_error(errs, a.cmd, "--check %.40s: %s is checked once", val,
                                   vfetch_aam_stage_name((unsigned)current));
            p.enabled |= 1u << current;
            stages++;
        } else if (!strcmp(opt, "--imap") || !strcmp(opt, "--omap") || !strcmp(opt, "--stream")) {
            struct vfetch_aam_map m;
            const int rc = aam_parse_map(val, &m, detail, sizeof detail);
            if (rc == 1)
                return usage_error(errs, a.cmd, "%s %.60s: not a set (attribute numbers, names "
                                   "and ranges A-B, or words:W0,..,W7)", opt, val);
            if (rc)
                return refusal(errs, VFETCH_EINVAL, "%s %.60s (%s)", opt, val, detail);
            if (!strcmp(opt, "--stream")) {
                p.vsc.stream_enabled = true;
                p.vsc.stream_imap = m;
            } else if (!strcmp(opt, "--imap")) {
                p.shaders[current].imap = m;
            } else {
                p.shaders[current].omap = m;
            }
        } else if (!strcmp(opt, "--store-req")) {
            if (parse_numbers(val, ':', 255, words, 2) != 2)
                return usage_error(errs, a.cmd, "--store-req %.40s: not S:E (attribute numbers "
                                   "0..255)", val);
            p.shaders[current].store_req_start = (uint8_t)words[0];
            p.shaders[current].store_req_end = (uint8_t)words[1];
        } else if (!strcmp(opt, "--sph")) {
            if (list_option(&a, opt, val, words, 20, &n))
                return 1;
            if (n != 20)
                return usage_error(errs, a.cmd, "--sph %.60s: %d words, not the header's 20", val,
                                   n);
            struct vfetch_aam_sph sph;
            const int err = vfetch_aam_sph_parse(words, &sph);
            if (err)
                return refusal(errs, err, "--sph %.60s (not a Shader Program Header)", val);
            const int want = current == VFETCH_AAM_CULL_BEFORE_FETCH ? VFETCH_AAM_VERTEX : current;
            if ((int)sph.stage != want)
                return refusal(errs, VFETCH_EINVAL, "--sph %.60s (a %s shader's header, for %s)",
                               val, vfetch_aam_stage_name(sph.stage),
                               vfetch_aam_stage_name((unsigned)current));
            p.shaders[current] = sph.maps;
        } else { /* --skip-a, --skip-b: a 64-bit mask as one or two words, low word first */
            if (list_option(&a, opt, val, words, 2, &n))
                return 1;
            const uint64_t mask = words[0] | (uint64_t)(n == 2 ? words[1] : 0) << 32;
            if (opt[7] == 'a')
                p.skip_mask_a = mask;
            else
                p.skip_mask_b = mask;
        }
    }
    if (kind != ARG_END)
        return args_stopped(&a, kind, opt);
    if (!stages) /* not reached from cmd_aam, which calls this at a --check */
        return usage_error(errs, a.cmd, "aam --check needs a STAGE");
    struct vfetch_aam_where where = { -1, -1 };
    if (stages == 1 && current != VFETCH_AAM_VERTEX) {
        struct vfetch_aam_stage_bmaps b;
        const int err = vfetch_aam_stage_bmaps((enum vfetch_aam_stage)current, &p.shaders[current],
                                               last, &b, &where);
        if (err) {
            snprintf(detail, sizeof detail, "attribute %d (%s) in %s", where.attribute,
                     vfetch_aam_attribute((unsigned)where.attribute)->name,
                     vfetch_aam_stage_name((unsigned)where.stage));
            return refusal(errs, err, "aam --check: %s", detail);
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
        return refusal(errs, err, "aam --check: %s", detail);
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
        for (unsigned k = 0; k < VFETCH_AAM_ATTRIBUTES; k++)
            if (b.ps.source[k] != VFETCH_AAM_PS_ZERO)
                fprintf(out, "%s %u %s", count++ ? "," : "", k,
                        aam_source_names[b.ps.source[k] & 3]);
        fputc('\n', out);
    }
    return 0;
}

static int cmd_aam(int argc, char **argv, FILE *out, FILE *errs)
{
    for (int i = 0; i < argc; i++) {
        if (is_help(argv[i])) {
            usage_of(out, "aam");
            return 0;
        }
    }
    if (argc == 0) {
        aam_print_table(out);
        return 0;
    }
    if (!strcmp(argv[0], "--patch"))
        return aam_patch(argc - 1, argv + 1, out, errs);
    if (!strcmp(argv[0], "--lod"))
        return aam_lod(argc - 1, argv + 1, out, errs);
    if (!strcmp(argv[0], "--check"))
        return aam_check(argc, argv, out, errs);
    const int address = !strcmp(argv[0], "--address");
    if (argv[0][0] == '-' && !address)
        return usage_error(errs, "aam", "aam: unknown option '%.40s'%s", argv[0],
                           in_list(aam_check_valued, argv[0]) || in_list(aam_check_flags, argv[0])
                               ? " (it follows --check STAGE)"
                               : "");
    if (argc > 1 + address) /* --address A, or N|NAME */
        return usage_error(errs, "aam", "aam: unexpected argument '%.40s'", argv[1 + address]);
    if (!strcmp(argv[0], "--address")) {
        long a;
        if (argc == 1)
            return usage_error(errs, "aam", "--address needs a value");
        if (!aam_number(argv[1], &a))
            return usage_error(errs, "aam", "--address %.40s: not a byte address (decimal or 0x "
                               "hex, may be negative)", argv[1]);
        const struct vfetch_aam_attribute *row = vfetch_aam_at_address(a);
        if (!row)
            return refusal(errs, VFETCH_EINVAL, "aam --address %ld (not the start of an "
                           "attribute: a multiple of 4)", a);
        aam_print_row(out, row);
        return 0;
    }
    const int n = aam_attribute_of(argv[0]);
    if (n < 0)
        return refusal(errs, VFETCH_EINVAL, "aam %.40s (no such attribute: 0..255 or a name)",
                       argv[0]);
    aam_print_row(out, vfetch_aam_attribute((unsigned)n));
    return 0;
}

/* ---- commands ---- */

static int cmd_explain(int argc, char **argv, FILE *out, FILE *errs)
{
    if (argc >= 1 && is_help(argv[0])) {
        usage_of(out, "explain");
        return 0;
    }
    if (argc < 1)
        return usage_error(errs, "explain", "explain needs a target: r300, maxwell, gx, texel or "
                           "gx-texture");
    if (!strcmp(argv[0], "r300"))
        return cmd_explain_r300(argc - 1, argv + 1, out, errs);
    if (!strcmp(argv[0], "maxwell"))
        return cmd_explain_maxwell(argc - 1, argv + 1, out, errs);
    if (!strcmp(argv[0], "gx"))
        return cmd_explain_gx(argc - 1, argv + 1, out, errs);
    if (!strcmp(argv[0], "texel"))
        return cmd_explain_texel(argc - 1, argv + 1, out, errs);
    if (!strcmp(argv[0], "gx-texture"))
        return cmd_explain_gx_texture(argc - 1, argv + 1, out, errs);
    return usage_error(errs, "explain", "explain: no target '%.40s' (r300, maxwell, gx, texel or "
                       "gx-texture)", argv[0]);
}

/* help [WORDS]: the usage of every command, or of the one WORDS name ("explain gx"). */
static int cmd_help(int argc, char **argv, FILE *out, FILE *errs)
{
    char cmd[64] = "";
    for (int i = 0; i < argc; i++) {
        if (strlen(cmd) + strlen(argv[i]) + 2 > sizeof cmd)
            return usage_error(errs, NULL, "help: no command '%.40s'", argv[i]);
        if (i)
            strcat(cmd, " ");
        strcat(cmd, argv[i]);
    }
    if (!argc || !strcmp(cmd, "help")) {
        usage_of(out, NULL);
        return 0;
    }
    if (!strcmp(cmd, "--version"))
        strcpy(cmd, "version");
    if (is_help(cmd) || !usage_of(out, cmd))
        return usage_error(errs, NULL, "help: no command '%.60s'", cmd);
    return 0;
}

/* ---- prim: a GX draw's host indices (vfetch/prim.h, docs/prim.md) ---- */

static const char *const prim_valued[] = { "--base", "--indices", "--index-bytes",
                                           "--restart-index", NULL };
static const char *const prim_flags[] = { "--restart", "--expand", "--u32", "--guest-last",
                                          "--host-last", "--big-endian", "--range",
                                          "--narrowest", "--host-fans", "--drop-incomplete",
                                          "--yuzu", NULL };
/* Each front-end's primitives by name (vfetch/prim.h) */
static const struct {
    enum vfetch_prim_frontend frontend;
    const char *name;
    uint32_t primitive;
} prim_names[] = {
    { VFETCH_PRIM_GX, "QUADS", VFETCH_GX_QUADS },
    { VFETCH_PRIM_GX, "QUADS_2", VFETCH_GX_QUADS_2 },
    { VFETCH_PRIM_GX, "TRIANGLES", VFETCH_GX_TRIANGLES },
    { VFETCH_PRIM_GX, "TRIANGLE_STRIP", VFETCH_GX_TRIANGLE_STRIP },
    { VFETCH_PRIM_GX, "TRIANGLE_FAN", VFETCH_GX_TRIANGLE_FAN },
    { VFETCH_PRIM_GX, "LINES", VFETCH_GX_LINES },
    { VFETCH_PRIM_GX, "LINE_STRIP", VFETCH_GX_LINE_STRIP },
    { VFETCH_PRIM_GX, "POINTS", VFETCH_GX_POINTS },
    { VFETCH_PRIM_R300, "POINTS", VFETCH_R300_POINTS },
    { VFETCH_PRIM_R300, "LINES", VFETCH_R300_LINES },
    { VFETCH_PRIM_R300, "LINE_STRIP", VFETCH_R300_LINE_STRIP },
    { VFETCH_PRIM_R300, "TRIANGLES", VFETCH_R300_TRIANGLES },
    { VFETCH_PRIM_R300, "TRIANGLE_FAN", VFETCH_R300_TRIANGLE_FAN },
    { VFETCH_PRIM_R300, "TRIANGLE_STRIP", VFETCH_R300_TRIANGLE_STRIP },
    { VFETCH_PRIM_R300, "LINE_LOOP", VFETCH_R300_LINE_LOOP },
    { VFETCH_PRIM_R300, "QUADS", VFETCH_R300_QUADS },
    { VFETCH_PRIM_R300, "QUAD_STRIP", VFETCH_R300_QUAD_STRIP },
    { VFETCH_PRIM_R300, "POLYGON", VFETCH_R300_POLYGON },
    { VFETCH_PRIM_MAXWELL, "POINTS", VFETCH_MAXWELL_POINTS },
    { VFETCH_PRIM_MAXWELL, "LINES", VFETCH_MAXWELL_LINES },
    { VFETCH_PRIM_MAXWELL, "LINE_LOOP", VFETCH_MAXWELL_LINE_LOOP },
    { VFETCH_PRIM_MAXWELL, "LINE_STRIP", VFETCH_MAXWELL_LINE_STRIP },
    { VFETCH_PRIM_MAXWELL, "TRIANGLES", VFETCH_MAXWELL_TRIANGLES },
    { VFETCH_PRIM_MAXWELL, "TRIANGLE_STRIP", VFETCH_MAXWELL_TRIANGLE_STRIP },
    { VFETCH_PRIM_MAXWELL, "TRIANGLE_FAN", VFETCH_MAXWELL_TRIANGLE_FAN },
    { VFETCH_PRIM_MAXWELL, "QUADS", VFETCH_MAXWELL_QUADS },
    { VFETCH_PRIM_MAXWELL, "QUAD_STRIP", VFETCH_MAXWELL_QUAD_STRIP },
    { VFETCH_PRIM_MAXWELL, "POLYGON", VFETCH_MAXWELL_POLYGON },
    { VFETCH_PRIM_MAXWELL, "LINES_ADJACENCY", VFETCH_MAXWELL_LINES_ADJACENCY },
    { VFETCH_PRIM_MAXWELL, "LINE_STRIP_ADJACENCY", VFETCH_MAXWELL_LINE_STRIP_ADJACENCY },
    { VFETCH_PRIM_MAXWELL, "TRIANGLES_ADJACENCY", VFETCH_MAXWELL_TRIANGLES_ADJACENCY },
    { VFETCH_PRIM_MAXWELL, "TRIANGLE_STRIP_ADJACENCY", VFETCH_MAXWELL_TRIANGLE_STRIP_ADJACENCY },
};
static const char *const prim_frontend_names[] = { "gx", "r300", "maxwell" };
static const char *const topology_names[] = {
    "point list", "line list", "triangle list", "triangle strip", "line list with adjacency",
    "line strip with adjacency", "triangle list with adjacency", "triangle strip with adjacency",
    "triangle fan",
};

static int cmd_prim(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a = ARGS("prim", prim_valued, prim_flags, argc, argv, out, errs);
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    const char *operand[3] = { NULL, NULL, NULL }, *opt, *val;
    int operands = 0, kind, entries_n = 0;
    uint32_t base = 0, entries[256], index_bytes = 2;
    while ((kind = next_arg(&a, &opt, &val)) != ARG_END) {
        if (kind == ARG_OPERAND && operands < 3) {
            operand[operands++] = opt;
            continue;
        }
        if (kind != ARG_OPTION)
            return args_stopped(&a, kind, opt);
        if (!strcmp(opt, "--restart"))
            d.restart = 1;
        else if (!strcmp(opt, "--expand"))
            d.expand_lines_points = 1;
        else if (!strcmp(opt, "--u32"))
            d.index_type = VFETCH_INDEX_U32;
        else if (!strcmp(opt, "--guest-last"))
            d.guest_provoking = VFETCH_PROVOKING_LAST;
        else if (!strcmp(opt, "--host-last"))
            d.host_provoking = VFETCH_PROVOKING_LAST;
        else if (!strcmp(opt, "--big-endian"))
            d.guest_big_endian = 1;
        else if (!strcmp(opt, "--range"))
            d.range = 1;
        else if (!strcmp(opt, "--narrowest"))
            d.narrowest = 1, d.index_type = VFETCH_INDEX_U32;
        else if (!strcmp(opt, "--host-fans"))
            d.host_fans = 1;
        else if (!strcmp(opt, "--drop-incomplete"))
            d.drop_incomplete = 1;
        else if (!strcmp(opt, "--yuzu"))
            d.yuzu_orders = 1;
        else if (!strcmp(opt, "--indices")) {
            if (list_option(&a, opt, val, entries, 256, &entries_n))
                return 1;
        } else if (!strcmp(opt, "--index-bytes")) {
            if (word_option(&a, opt, val, &index_bytes))
                return 1;
        } else if (!strcmp(opt, "--restart-index")) {
            d.guest_restart = 1;
            if (word_option(&a, opt, val, &d.guest_restart_index))
                return 1;
        } else if (word_option(&a, opt, val, &base)) /* --base */
            return 1;
    }
    int frontend = -1;
    for (int f = 0; operands == 3 && f < 3; f++)
        if (!strcmp(operand[0], prim_frontend_names[f]))
            frontend = f;
    if (frontend < 0)
        return usage_error(errs, a.cmd, "prim: it needs gx, r300 or maxwell, a primitive and a "
                           "vertex count");
    d.frontend = (enum vfetch_prim_frontend)frontend;
    int named = 0;
    for (size_t k = 0; k < sizeof prim_names / sizeof prim_names[0]; k++)
        if (prim_names[k].frontend == d.frontend && !strcmp(operand[1], prim_names[k].name))
            d.primitive = prim_names[k].primitive, named = 1;
    if (named)
        ;
    else if (parse_numbers(operand[1], ',', 0xffffffffu, &d.primitive, 1) != 1)
        return usage_error(errs, a.cmd, "prim: %.40s: not a primitive name or command byte",
                           operand[1]);
    uint32_t count;
    if (parse_numbers(operand[2], ',', 0xffffffffu, &count, 1) != 1 || count > 1u << 20)
        return usage_error(errs, a.cmd, "prim: %.40s: not a vertex count of 0..1048576",
                           operand[2]);
    /* an index buffer: the entries in the byte order asked (COUNT of them are read) */
    uint8_t in[256 * 4];
    if (entries_n) {
        if (index_bytes != 1 && index_bytes != 2 && index_bytes != 4)
            return usage_error(errs, a.cmd, "prim: --index-bytes %u: not 1, 2 or 4", index_bytes);
        d.guest_index_bytes = (uint8_t)index_bytes;
        for (int i = 0; i < entries_n; i++)
            for (uint32_t b = 0; b < index_bytes; b++)
                in[i * index_bytes + b] = (uint8_t)(entries[i] >> (d.guest_big_endian
                                                                       ? 8 * (index_bytes - 1 - b)
                                                                       : 8 * b));
    }
    vfetch_prim_plan *plan;
    int err = vfetch_prim_compile(&d, &plan);
    if (err)
        return refusal(errs, err, "prim %s %.40s", operand[0], operand[1]);
    const size_t n = vfetch_prim_index_count(plan, count);
    const size_t width = d.index_type == VFETCH_INDEX_U32 ? 4 : 2;
    void *indices = malloc(n ? n * width : 1);
    if (!indices) {
        vfetch_prim_plan_free(plan);
        return refusal(errs, VFETCH_ENOMEM, "prim: %zu indices", n);
    }
    struct vfetch_prim_run_params p = { .count = count, .base_index = base, .out = indices, .out_capacity = n };
    if (entries_n) {
        p.indices = in;
        p.indices_size = (size_t)entries_n * index_bytes;
    }
    struct vfetch_prim_result r;
    err = vfetch_prim_run(plan, &p, &r);
    if (!err) {
        struct vfetch_prim_plan_info info;
        vfetch_prim_plan_info(plan, &info);
        fprintf(out, "%s: %zu %sindices, drawn as a %s%s\n", operand[1], r.written,
                !d.narrowest ? "" : r.index_bytes == 2 ? "16-bit " : "32-bit ",
                topology_names[info.topology],
                info.restart_index ? " (R: the restart index)" : "");
        const uint32_t restart = r.index_bytes == 4 ? 0xffffffffu : 0xffffu;
        for (size_t i = 0; i < r.written; i++) {
            const uint32_t v = r.index_bytes == 4 ? ((uint32_t *)indices)[i] : ((uint16_t *)indices)[i];
            if (info.restart_index && v == restart)
                fputs(i ? " R" : "R", out);
            else
                fprintf(out, i ? " %u" : "%u", v);
        }
        fputc('\n', out);
        if (entries_n)
            fprintf(out, "entries %u..%u%s\n", r.min_index, r.max_index,
                    d.range ? " (rebased to the base)" : "");
    }
    free(indices);
    vfetch_prim_plan_free(plan);
    return err ? refusal(errs, err, "prim %s %.40s %u at base %u", operand[0], operand[1], count,
                         base)
               : 0;
}

int vfetch_cli_main(int argc, char **argv, FILE *out, FILE *errs)
{
    if (argc < 2)
        return usage_error(errs, NULL, "no command: explain, texel, gx-texture, gx, demo, cpu, "
                           "aam, --version or help");
    const char *cmd = argv[1];
    argc -= 2;
    argv += 2;
    if (!strcmp(cmd, "explain"))
        return cmd_explain(argc, argv, out, errs);
    if (!strcmp(cmd, "texel"))
        return cmd_texel(argc, argv, out, errs);
    if (!strcmp(cmd, "gx-texture"))
        return cmd_gx_texture(argc, argv, out, errs);
    if (!strcmp(cmd, "gx"))
        return cmd_gx(argc, argv, out, errs);
    if (!strcmp(cmd, "aam"))
        return cmd_aam(argc, argv, out, errs);
    if (!strcmp(cmd, "prim"))
        return cmd_prim(argc, argv, out, errs);
    if (!strcmp(cmd, "help") || is_help(cmd))
        return cmd_help(argc, argv, out, errs);
    /* The commands without arguments. */
    const int version = !strcmp(cmd, "--version") || !strcmp(cmd, "version");
    if (version || !strcmp(cmd, "demo") || !strcmp(cmd, "cpu")) {
        struct args a = ARGS(version ? "version" : cmd, no_options, no_options, argc, argv, out,
                             errs);
        const int rc = no_arguments(&a);
        if (rc >= 0)
            return rc;
        if (version) {
            fprintf(out, "vfetch %s\n", vfetch_version());
            return 0;
        }
        return cmd[0] == 'd' ? cmd_demo(out, errs) : cmd_cpu(out);
    }
    return usage_error(errs, NULL, "no command '%.40s' (explain, texel, gx-texture, gx, demo, "
                       "cpu, aam, --version, help)", cmd);
}
