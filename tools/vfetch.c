/*
 * vfetch — the command-line tool: explain register words, convert a bundled sample, show
 * which ISA level runs. The commands live in cli.c (see cli.h).
 */
#include <stdio.h>

#include "cli.h"

int main(int argc, char **argv)
{
    return vfetch_cli_main(argc, argv, stdout, stderr);
}
