/*
 * What every command of the `vfetch` tool shares (options.h): the messages, the arguments
 * taken with getopt_long, numbers and lists of them, and reading a file.
 *
 * getopt_long is glibc's, with optstring "-:h": '-' returns every argument in the order given
 * (an operand as 1, so that a command takes options and operands in any order, as it always
 * did, and argv is never permuted), ':' reports a missing value apart from an unknown option,
 * and -h is the one short option. getopt prints nothing (opterr 0): the messages are this
 * file's. getopt also takes "--name=value", an unambiguous abbreviation of a name, clustered
 * short options ("-hx") and "--" (the end of options); the tool's options are their exact
 * names, each value the next argument, so next_option() reports each of those as an unknown
 * option.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "vfetch/vfetch.h"

/* ---- messages ---- */

void one_line(char *text)
{
    for (; *text; text++)
        if ((unsigned char)*text < 0x20 || *text == 0x7f)
            *text = '?';
}

/* A message's text, formatted and made one line (the three kinds of message share it). */
#define MESSAGE_LINE(line, fmt)                                                                     \
    char line[400];                                                                                \
    do {                                                                                           \
        va_list ap;                                                                                \
        va_start(ap, fmt);                                                                         \
        vsnprintf(line, sizeof line, fmt, ap);                                                     \
        va_end(ap);                                                                                \
        one_line(line);                                                                            \
    } while (0)

int usage_error(FILE *errs, const char *cmd, const char *fmt, ...)
{
    MESSAGE_LINE(line, fmt);
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
    "VFETCH_EPRIM_TYPE", "VFETCH_EPRIM_INDEX_RANGE", "VFETCH_EBATCH_FULL",
};
_Static_assert(sizeof error_names / sizeof error_names[0] == -VFETCH_ECOUNT,
               "a name for every error code of include/vfetch/vfetch.h");

int refusal(FILE *errs, int code, const char *fmt, ...)
{
    MESSAGE_LINE(line, fmt);
    const char *name = code <= 0 && code > VFETCH_ECOUNT ? error_names[-code] : "VFETCH_E?";
    fprintf(errs, "vfetch: %s: %s: %s (code %d)\n", line, name, vfetch_strerror(code), code);
    return 2;
}

int file_error(FILE *errs, int rc, const char *fmt, ...)
{
    MESSAGE_LINE(line, fmt);
    fprintf(errs, "vfetch: %s\n", line);
    return rc;
}

/* ---- arguments ---- */

void args_begin(struct args *a, const char *cmd, const struct option *options, int argc,
                char **argv, FILE *out, FILE *errs)
{
    *a = (struct args){ cmd, options, argc, argv, out, errs, NULL, NULL, 0 };
    optind = 0; /* glibc: 0 starts a new scan, its state from an earlier one forgotten */
    opterr = 0;
}

const struct option *option_named(const struct option *options, const char *text)
{
    if (text[0] != '-' || text[1] != '-')
        return NULL;
    for (; options->name; options++)
        if (!strcmp(options->name, text + 2))
            return options;
    return NULL;
}

int next_option(struct args *a)
{
    /* The argument getopt looks at: each call that the command goes on from takes whole
       arguments (an operand, an option, an option and its value), so this is where it starts. */
    const int at = optind ? optind : 1;
    const int got = getopt_long(a->argc, a->argv, "-:h", a->options, NULL);
    a->val = NULL;
    if (got == ARG_OPERAND) {
        a->arg = optarg;
        return ARG_OPERAND;
    }
    if (got == -1 && at >= a->argc)
        return ARG_END;
    /* An option, or "--" (getopt returns -1 at it, before the end) */
    const char *text = a->argv[at];
    const struct option *named = option_named(a->options, text);
    a->arg = text;
    if (got == 'h' && is_help(text)) {
        usage_of(a->out, a->cmd);
        a->rc = 0;
        return ARG_EXIT;
    }
    if (got == ':' && named && named->val == optopt) {
        a->rc = usage_error(a->errs, a->cmd, "%s needs a value", text);
        return ARG_EXIT;
    }
    if (got != '?' && got != ':' && got != -1 && named && named->val == got) {
        a->val = named->has_arg == required_argument ? optarg : NULL;
        return got;
    }
    a->rc = usage_error(a->errs, a->cmd, "%s: unknown option '%.40s'", a->cmd, text);
    return ARG_EXIT;
}

int args_exit(const struct args *a, int got)
{
    if (got == ARG_EXIT)
        return a->rc;
    return usage_error(a->errs, a->cmd, "%s: unexpected argument '%.40s'", a->cmd, a->arg);
}

int no_arguments(const char *cmd, int argc, char **argv, FILE *out, FILE *errs)
{
    static const struct option options[] = { OPTIONS_END };
    struct args a;
    args_begin(&a, cmd, options, argc, argv, out, errs);
    const int got = next_option(&a);
    return got == ARG_END ? -1 : args_exit(&a, got);
}

/* ---- numbers ---- */

int parse_number(const char *text, unsigned long long max, unsigned long long *out)
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

int list_item(const char **text, char sep, char *item, size_t size)
{
    const char seps[2] = { sep, '\0' };
    const size_t len = strcspn(*text, seps);
    if (len >= size)
        return -1;
    memcpy(item, *text, len);
    item[len] = '\0';
    const int last = (*text)[len] == '\0';
    *text += len + !last;
    return last;
}

int parse_numbers(const char *text, char sep, uint32_t limit, uint32_t *out, int max)
{
    for (int n = 0;; n++) {
        char item[24];
        unsigned long long v;
        const int last = n == max ? -1 : list_item(&text, sep, item, sizeof item);
        if (last < 0 || !parse_number(item, limit, &v))
            return -1;
        out[n] = (uint32_t)v;
        if (last)
            return n + 1;
    }
}

int word_option(const struct args *a, uint32_t *word)
{
    if (parse_numbers(a->val, ',', 0xffffffffu, word, 1) == 1)
        return 0;
    return usage_error(a->errs, a->cmd, "%s %.40s: not a 32-bit word (decimal or 0x hex)", a->arg,
                       a->val);
}

int list_option(const struct args *a, uint32_t *words, int max, int *n)
{
    *n = parse_numbers(a->val, ',', 0xffffffffu, words, max);
    if (*n > 0)
        return 0;
    return usage_error(a->errs, a->cmd,
                       "%s %.60s: not a list of 1 to %d 32-bit words (decimal or 0x hex, "
                       "comma-separated)", a->arg, a->val, max);
}

int name_index(const char *const *names, unsigned n, const char *text)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(names[i], text))
            return (int)i;
    return -1;
}

/* ---- files ---- */

unsigned char *read_file_at_most(const char *path, size_t limit, size_t *size)
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
