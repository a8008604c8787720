/*
 * The `vfetch` command as a function: argument handling and every command, writing to the
 * given streams instead of stdout/stderr, so that a test or fuzz target can call it.
 */
#ifndef VFETCH_TOOLS_CLI_H
#define VFETCH_TOOLS_CLI_H

#include <stdio.h>

/**
 * Run the command line argv[0..argc-1] (argv[0] is the program name): normal output to out,
 * usage text and error messages to err. Returns the exit code: 0 success, 1 usage error,
 * 2 the library refused the register words (or a texel surface), or `vfetch texel` could not
 * read its input or write its PNG (or was built without libpng). `vfetch texel` reads and
 * writes the files its arguments name.
 */
int vfetch_cli_main(int argc, char **argv, FILE *out, FILE *err);

#endif
