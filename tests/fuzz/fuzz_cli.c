/*
 * Fuzz target: the `vfetch` command's argument handling (tools/cli/). The input is split at
 * NUL bytes into at most FUZZ_CLI_MAX_ARGS arguments after "vfetch"; output and errors go to
 * memory streams. Checked: the exit code is 0, 1 or 2 and matches each command's documented
 * behaviour (docs/cli.md); a usage error is one "vfetch: ..." line and at most a "see `vfetch
 * help ...`" line on the error stream, and no output; the usage text is printed on the output
 * stream exactly when it is asked for (help, -h, --help); a refused register word gives one
 * "vfetch: ... (code N)" line and no output; success writes no error; the arguments are not
 * modified.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz_check.h"
#include "vfetch/vfetch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CLI_MAX_ARGS 24
#define FUZZ_CLI_STREAM (64 * 1024)

static char cli_out[FUZZ_CLI_STREAM + 1], cli_err[FUZZ_CLI_STREAM + 1];

/* Open a memory stream over buf; the text written is read back after fclose. */
static FILE *cli_stream(char *buf)
{
    memset(buf, 0, FUZZ_CLI_STREAM + 1);
    FILE *f = fmemopen(buf, FUZZ_CLI_STREAM, "w");
    FUZZ_REQUIRE(f, "fmemopen failed");
    return f;
}

static unsigned cli_count_lines(const char *text, const char *prefix)
{
    unsigned n = 0;
    const size_t len = strlen(prefix);
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        n += strncmp(line, prefix, len) == 0;
    return n;
}

/* Whether no argument of `vfetch gx` can be an operand, the capture it reads: each is an
   option ("-" and more) or the value of one of its options that take a value (an option that
   is not listed here makes its value an operand: the arguments are then not run). */
static int cli_gx_options_only(int argc, char **argv)
{
    static const char *const valued[] = { "--layout", "--color", "--batch-vertices",
                                          "--batch-indices" };
    for (int i = 2; i < argc; i++) {
        if (argv[i][0] != '-' || argv[i][1] == '\0')
            return 0;
        for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
            if (!strcmp(argv[i], valued[k])) {
                i++; /* its value, whatever it is */
                break;
            }
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Arguments: NUL-separated pieces of one NUL-terminated copy of the input. */
    char *text = malloc(size + 1);
    char *copy = malloc(size + 1);
    FUZZ_REQUIRE(text && copy, "out of memory");
    memcpy(text, data, size);
    text[size] = '\0';
    memcpy(copy, text, size + 1);
    char *argv[FUZZ_CLI_MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = "vfetch";
    for (size_t at = 0; at < size && argc <= FUZZ_CLI_MAX_ARGS; at += strlen(text + at) + 1)
        argv[argc++] = text + at;
    argv[argc] = NULL;
    /* `vfetch texel` and `vfetch gx-texture` read and write the files their arguments name,
       `vfetch gx` reads one: never run under fuzzing (tools/test_cli.sh tests them), except gx
       without an operand (its options are taken, and no file is read). */
    if (argc > 1 && (!strcmp(argv[1], "texel") || !strcmp(argv[1], "gx-texture") ||
                     (!strcmp(argv[1], "gx") && !cli_gx_options_only(argc, argv)))) {
        free(text);
        free(copy);
        return 0;
    }

    FILE *out = cli_stream(cli_out), *err = cli_stream(cli_err);
    const int rc = vfetch_cli_main(argc, argv, out, err);
    fclose(out);
    fclose(err);
    FUZZ_REQUIRE(memcmp(text, copy, size + 1) == 0, "the command modified its arguments");
    const char *cmd = argc > 1 ? argv[1] : "";
    fuzz_trace("cli %s (%d args) -> %d\n", cmd, argc, rc);
    /* A request for the usage: the help command, or -h / --help among the arguments. */
    int help = !strcmp(cmd, "help");
    for (int i = 1; i < argc; i++)
        help |= !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help");

    FUZZ_REQUIRE(rc >= 0 && rc <= 2, "exit code %d", rc);
    if (rc == 1) {
        const char *second = strchr(cli_err, '\n');
        FUZZ_REQUIRE(strncmp(cli_err, "vfetch: ", 8) == 0 && second && !cli_out[0],
                     "exit 1 without a 'vfetch: ...' line on the error stream alone: %s", cli_err);
        second++;
        FUZZ_REQUIRE(!*second || (strncmp(second, "see `vfetch help", 16) == 0 &&
                                  strchr(second, '\n') == cli_err + strlen(cli_err) - 1),
                     "exit 1 with more than the line and a pointer to the usage: %s", cli_err);
    }
    if (rc == 2) {
        FUZZ_REQUIRE(strncmp(cli_err, "vfetch: ", 8) == 0 && strstr(cli_err, " (code -") &&
                         strchr(cli_err, '\n') == cli_err + strlen(cli_err) - 1,
                     "exit 2 without one 'vfetch: ... (code N)' line: %s", cli_err);
        FUZZ_REQUIRE(!cli_out[0], "exit 2 after writing output");
    }
    if (rc == 0)
        FUZZ_REQUIRE(!cli_err[0], "success with an error message: %s", cli_err);
    if (!strncmp(cli_out, "usage:\n", 7))
        FUZZ_REQUIRE(help && rc == 0, "the usage printed unasked, exit %d", rc);
    if (help && rc == 0)
        FUZZ_REQUIRE(!strncmp(cli_out, "usage:\n", 7), "exit 0 on a help request without usage");

    /* Each command's documented result (a help request aside). Commands that take no
       arguments refuse any. */
    const int alone = argc == 2;
    if (argc < 2) {
        FUZZ_REQUIRE(rc == 1, "no command: exit %d", rc);
    } else if (help && rc == 0) {
        /* the usage, checked above */
    } else if (!strcmp(cmd, "demo")) {
        FUZZ_REQUIRE(alone ? rc == 0 && cli_count_lines(cli_out, "vertex ") == 10 : rc == 1,
                     "demo: exit %d", rc);
    } else if (!strcmp(cmd, "cpu")) {
        FUZZ_REQUIRE(alone ? rc == 0 && !strncmp(cli_out, "level ", 6) : rc == 1, "cpu: exit %d",
                     rc);
    } else if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        char want[64];
        snprintf(want, sizeof want, "vfetch %s\n", vfetch_version());
        FUZZ_REQUIRE(alone ? rc == 0 && !strcmp(cli_out, want) : rc == 1, "version: exit %d, %s",
                     rc, cli_out);
    } else if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        FUZZ_REQUIRE(!alone && rc == 1, "help: exit %d", rc); /* alone: a help request */
    } else if (!strcmp(cmd, "explain")) {
        const int texel = argc >= 3 && !strcmp(argv[2], "texel");
        const int gx_texture = argc >= 3 && !strcmp(argv[2], "gx-texture");
        if (argc < 3 || (strcmp(argv[2], "r300") != 0 && strcmp(argv[2], "maxwell") != 0 &&
                         strcmp(argv[2], "gx") != 0 && !texel && !gx_texture))
            FUZZ_REQUIRE(rc == 1, "explain without r300, maxwell, gx, texel or gx-texture: exit "
                         "%d", rc);
        if (rc == 0 && texel)
            FUZZ_REQUIRE(cli_count_lines(cli_out, "info: ") == 1 &&
                             cli_count_lines(cli_out, "rgba8_exact: ") == 1,
                         "explain texel succeeded without the info and rgba8_exact lines");
        else if (rc == 0 && gx_texture)
            FUZZ_REQUIRE(cli_count_lines(cli_out, "TX_SETIMAGE0 ") == 1 &&
                             cli_count_lines(cli_out, "info: ") == 1 &&
                             cli_count_lines(cli_out, "needs: ") == 1,
                         "explain gx-texture succeeded without the description, info and needs "
                         "lines");
        else if (rc == 0)
            FUZZ_REQUIRE(strstr(cli_out, "output: ") && cli_count_lines(cli_out, "hash ") == 1,
                         "explain succeeded without the plan's size and hash");
    } else if (!strcmp(cmd, "prim")) {
        /* a draw's indices: the header line and one line of them (and the entries' range with
           --indices), else a refusal or a usage error */
        const int lines = cli_count_lines(cli_out, "");
        FUZZ_REQUIRE(rc == 1 || rc == 2 ||
                         (rc == 0 && strstr(cli_out, " indices, drawn as a ") &&
                          (lines == 2 || (lines == 3 && cli_count_lines(cli_out, "entries ") == 1))),
                     "prim: exit %d", rc);
    } else if (!strcmp(cmd, "gx")) {
        FUZZ_REQUIRE(rc == 1, "gx without a capture: exit %d", rc); /* a usage error */
    } else if (!strcmp(cmd, "aam")) {
        if (argc == 2) /* the whole map: 256 rows and the two range rows */
            FUZZ_REQUIRE(rc == 0 && cli_count_lines(cli_out, "|") == 258, "aam: exit %d", rc);
        else
            FUZZ_REQUIRE(rc == 0 || rc == 1 || rc == 2, "aam: exit %d", rc);
    } else {
        FUZZ_REQUIRE(rc == 1, "unknown command '%s': exit %d", cmd, rc);
    }
    free(text);
    free(copy);
    return 0;
}
