/*
 * vfetch — the command-line tool: explain R300, Maxwell, GX and texel register words, decode an
 * R300 texture surface or a GameCube/Wii texture to PNG, replay a GameCube/Wii FIFO capture,
 * convert a bundled sample, show which ISA level runs (`vfetch help`, docs/cli.md). The
 * commands live in cli/, one file each, cli/main.c dispatching to them (see cli/cli.h).
 */
#include <stdio.h>

#include "cli.h"

int main(int argc, char **argv)
{
    return vfetch_cli_main(argc, argv, stdout, stderr);
}
