/*
 * The `vfetch` command as a function: argument handling and every command, writing to the
 * given streams instead of stdout/stderr, so that a test or fuzz target can call it.
 */
#ifndef VFETCH_TOOLS_CLI_H
#define VFETCH_TOOLS_CLI_H

#include <stdio.h>

/**
 * Run the command line argv[0..argc-1] (argv[0] is the program name): normal output and the
 * usage text (help, -h, --help) to out, error messages to err. Returns the exit code
 * (docs/cli.md): 0 success; 1 a usage error (one line naming the argument, then a pointer to
 * `vfetch help`), or a capture `vfetch gx` cannot read; 2 the input was refused: the library
 * refused the register words or a texel surface (one line naming the option or field, the
 * code's name, vfetch_strerror's sentence and the code), a capture does not walk, or
 * `vfetch texel` or `vfetch gx-texture` could not read its input or write its PNG (or was built
 * without libpng). `vfetch texel` and `vfetch gx-texture` read and write the files their
 * arguments name, `vfetch gx` reads one; the capture walker (tests/gx/gx_fifo_parse.c) reports
 * a capture it cannot walk on stderr, not on err.
 */
int vfetch_cli_main(int argc, char **argv, FILE *out, FILE *err);

#endif
