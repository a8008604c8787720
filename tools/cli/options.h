/*
 * What every command of the `vfetch` tool shares (options.c): its arguments taken one at a
 * time with getopt_long, numbers and lists of them, the three kinds of message (a usage error,
 * a refusal by the library, a failure that is neither) and reading a file. The usage text
 * itself is main.c's.
 *
 * Messages, so that a newcomer's mistake is answered by what is wrong rather than by the whole
 * usage: a usage error is one line naming the argument and what is wrong with it, then one
 * line pointing at the command's usage (exit 1); a refusal by the library is one line naming
 * the option or field that carried the refused value, the error code's name,
 * vfetch_strerror's sentence and the code (exit 2). -h / --help print the usage on `out`.
 */
#ifndef VFETCH_TOOLS_CLI_OPTIONS_H
#define VFETCH_TOOLS_CLI_OPTIONS_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define CLI_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define CLI_PRINTF(fmt, args)
#endif

/* ---- usage (main.c) ---- */

/* The usage of cmd (NULL: of every command) on `to`; how many entries matched. */
unsigned usage_of(FILE *to, const char *cmd);

/* Whether arg is -h or --help. */
int is_help(const char *arg);

/* ---- messages ---- */

/* Control characters (an argument may hold a newline) shown as '?', so that a message that
   quotes arguments stays one line. */
void one_line(char *text);

/* A usage error: "vfetch: <what is wrong>", then a line pointing at the usage of cmd (NULL:
   of every command). Returns 1, the exit code. */
CLI_PRINTF(3, 4)
int usage_error(FILE *errs, const char *cmd, const char *fmt, ...);

/* The library refused a value: "vfetch: <what>: <code's name>: <vfetch_strerror> (code N)" on
   one line, where <what> names the option or field that carried the value (and, in
   parentheses, the rule it broke when the sentence alone would not say). Returns 2. */
CLI_PRINTF(3, 4)
int refusal(FILE *errs, int code, const char *fmt, ...);

/* A failure that is not the library's (a file that cannot be read or written, a capture the
   walker cannot walk): "vfetch: <what>" on one line. Returns rc. */
CLI_PRINTF(3, 4)
int file_error(FILE *errs, int rc, const char *fmt, ...);

/* ---- arguments ---- */

/* A command's options are a getopt_long table: each entry's name without its "--", whether it
   takes a value (required_argument) or none (no_argument), flag NULL and val the command's id
   for it, from FIRST_OPTION_ID up. The table ends with OPTIONS_END, which adds --help. */
#define FIRST_OPTION_ID 0x100
#define OPTIONS_END { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 }

/* What next_option() returns besides an option's id. */
enum {
    ARG_END = -1,    /* no argument left */
    ARG_EXIT = -2,   /* -h printed the usage, or a usage error was printed: exit with a->rc */
    ARG_OPERAND = 1, /* an argument that is no option (a->arg): "-" is one, for a file */
};

/* One command's arguments, taken one at a time by next_option(). */
struct args {
    const char *cmd;              /* "explain r300": for messages and its usage */
    const struct option *options; /* its getopt_long table */
    int argc;
    char **argv; /* argv[0] is the command's last word (getopt starts at argv[1]) */
    FILE *out, *errs;
    const char *arg; /* the argument taken: the option as written ("--psc"), or the operand */
    const char *val; /* the option's value, or NULL */
    int rc;          /* the exit code, once next_option() returned ARG_EXIT */
};

/* Start taking argv[1..argc-1]; this starts getopt's scan afresh (vfetch_cli_main runs many
   times in one process), so one command's arguments are taken at a time. */
void args_begin(struct args *a, const char *cmd, const struct option *options, int argc,
                char **argv, FILE *out, FILE *errs);

/* The next argument, in the order given: an option's id (a->arg as written, a->val its value
   if it takes one), ARG_OPERAND, ARG_END, or ARG_EXIT with a->rc set: 0 after -h / --help
   printed the usage, 1 after a usage error (an unknown option, a missing value). An option is
   its name exactly, "--name", with its value, if any, the next argument: "--name=value", an
   abbreviation of a name and "--" are unknown options. */
int next_option(struct args *a);

/* The exit code when a command's arguments stopped at `got` (ARG_EXIT, or an argument the
   command does not take): that of -h or of the usage error already printed, or a usage error
   for the unexpected argument. */
int args_exit(const struct args *a, int got);

/* A command that takes no arguments: -1 when it was given none, else its exit code (0 after
   -h, 1 after a usage error naming the first argument). */
int no_arguments(const char *cmd, int argc, char **argv, FILE *out, FILE *errs);

/* The entry of options that text names ("--name" exactly), or NULL. */
const struct option *option_named(const struct option *options, const char *text);

/* ---- lists ---- */

/* The next item of a sep-separated list at *text into item (size bytes with its NUL), *text
   moved past the item and its separator: 1 where it was the list's last item, 0 where more
   follow, -1 where the item does not fit (item not written). */
int list_item(const char **text, char sep, char *item, size_t size);

/* ---- numbers ---- */

/* A number that is the whole text, decimal or 0x hex (no sign, no spaces, no octal), at most
   max. */
int parse_number(const char *text, unsigned long long max, unsigned long long *out);

/* Up to max numbers, each at most limit, separated by sep and making up the whole text: the
   count, or -1 (an empty item, one that does not parse, more than max). */
int parse_numbers(const char *text, char sep, uint32_t limit, uint32_t *out, int max);

/* The option just taken's value as one 32-bit word: 0, or 1 after a usage error naming
   both. */
int word_option(const struct args *a, uint32_t *word);

/* The option just taken's value as 1..max comma-separated 32-bit words (*n of them): 0, or 1
   after a usage error naming both. */
int list_option(const struct args *a, uint32_t *words, int max, int *n);

/* The index of text among names[0..n-1], or -1. */
int name_index(const char *const *names, unsigned n, const char *text);

/* ---- files ---- */

/* At most limit bytes of path (more are never read: a surface or capture needs no more, and a
   device like /dev/zero ends). NULL with errno set when it cannot be read. */
unsigned char *read_file_at_most(const char *path, size_t limit, size_t *size);

#endif
