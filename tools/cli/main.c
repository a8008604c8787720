/*
 * The `vfetch` command as a function (cli.h): vfetch_cli_main picks the command by its first
 * word and hands the rest to that command's file; the usage text, `vfetch help`, the explain
 * targets' dispatch and the two commands that only print a fact (version, cpu) are here.
 * Every command and option: usage_entries below and docs/cli.md.
 *
 * The tool writes to the streams it is given: tools/vfetch.c's main() passes stdout and
 * stderr; the fuzz target tests/fuzz/fuzz_cli.c passes memory streams.
 */
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "options.h"
#include "vfetch/vfetch.h"

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
      "                    [--array-stride ATTR=N[,..] ..] [--layout L] [--color C] [--per-op] [--asm]\n"
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
      "  vfetch gx [--layout L] [--color C] [--commands [--batch-vertices BYTES]\n"
      "            [--batch-indices N] [--restart] [--u32] [--expand] [--drop-incomplete]]\n"
      "            CAPTURE.dff\n"
      "      replay a Dolphin FIFO capture through a GX CP state, converting every draw, and\n"
      "      print frames, draws, vertices, CP writes and the vertex formats (L, C: as for\n"
      "      explain gx); --commands: each frame's FIFO bytes also in runs of commands into\n"
      "      a batch of BYTES of records (default 65536) and N indices (default 16384),\n"
      "      flushed when full, checked against the draws one by one (the index options as\n"
      "      for prim gx)\n" },
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
    "exit status: 0 done, 1 usage error, 2 the input was refused, 3 a check of gx --commands\n"
    "failed (docs/cli.md)\n";

unsigned usage_of(FILE *to, const char *cmd)
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

int is_help(const char *arg)
{
    return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

/* help [WORDS]: the usage of every command, or of the one WORDS name ("explain gx"). */
static int cmd_help(int argc, char **argv, FILE *out, FILE *errs)
{
    char cmd[64] = "";
    for (int i = 1; i < argc; i++) {
        if (strlen(cmd) + strlen(argv[i]) + 2 > sizeof cmd)
            return usage_error(errs, NULL, "help: no command '%.40s'", argv[i]);
        if (i > 1)
            strcat(cmd, " ");
        strcat(cmd, argv[i]);
    }
    if (argc < 2 || !strcmp(cmd, "help")) {
        usage_of(out, NULL);
        return 0;
    }
    if (!strcmp(cmd, "--version"))
        strcpy(cmd, "version");
    if (is_help(cmd) || !usage_of(out, cmd))
        return usage_error(errs, NULL, "help: no command '%.60s'", cmd);
    return 0;
}

/* ---- commands ---- */

/* A command (or explain target) by its word, which becomes its argv[0]. */
struct command {
    const char *name;
    int (*run)(int argc, char **argv, FILE *out, FILE *errs);
};

static const struct command explain_targets[] = {
    { "r300", cmd_explain_r300 },   { "maxwell", cmd_explain_maxwell },
    { "gx", cmd_explain_gx },       { "texel", cmd_explain_texel },
    { "gx-texture", cmd_explain_gx_texture },
};

/* The entry of table[0..n-1] named name, or NULL. */
static const struct command *command_named(const struct command *table, size_t n,
                                           const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, table[i].name))
            return &table[i];
    return NULL;
}

/* explain TARGET ..: the target's command, given TARGET as its argv[0]. */
static int cmd_explain(int argc, char **argv, FILE *out, FILE *errs)
{
    if (argc >= 2 && is_help(argv[1])) {
        usage_of(out, "explain");
        return 0;
    }
    if (argc < 2)
        return usage_error(errs, "explain", "explain needs a target: r300, maxwell, gx, texel or "
                           "gx-texture");
    const char *target = argv[1];
    const struct command *c =
        command_named(explain_targets, sizeof explain_targets / sizeof explain_targets[0], target);
    if (c)
        return c->run(argc - 1, argv + 1, out, errs);
    return usage_error(errs, "explain", "explain: no target '%.40s' (r300, maxwell, gx, texel or "
                       "gx-texture)", target);
}

int vfetch_cli_main(int argc, char **argv, FILE *out, FILE *errs)
{
    if (argc < 2)
        return usage_error(errs, NULL, "no command: explain, texel, gx-texture, gx, demo, cpu, "
                           "aam, --version or help");
    /* The command's word becomes its argv[0]. */
    const char *cmd = argv[1];
    argc--;
    argv++;
    static const struct command commands[] = {
        { "explain", cmd_explain }, { "texel", cmd_texel }, { "gx-texture", cmd_gx_texture },
        { "gx", cmd_gx },           { "aam", cmd_aam },     { "prim", cmd_prim },
    };
    const struct command *c = command_named(commands, sizeof commands / sizeof commands[0], cmd);
    if (c)
        return c->run(argc, argv, out, errs);
    if (!strcmp(cmd, "help") || is_help(cmd))
        return cmd_help(argc, argv, out, errs);
    /* The commands without arguments: version, and cpu here; demo in demo.c. */
    const int version = !strcmp(cmd, "--version") || !strcmp(cmd, "version");
    if (version || !strcmp(cmd, "demo") || !strcmp(cmd, "cpu")) {
        const int rc = no_arguments(version ? "version" : cmd, argc, argv, out, errs);
        if (rc >= 0)
            return rc;
        if (version)
            fprintf(out, "vfetch %s\n", vfetch_version());
        else if (cmd[0] == 'c')
            fprintf(out, "level %s (flags 0x%x)\n", vfetch_cpu_name(), vfetch_cpu_flags());
        else
            return cmd_demo(out, errs);
        return 0;
    }
    return usage_error(errs, NULL, "no command '%.40s' (explain, texel, gx-texture, gx, demo, "
                       "cpu, aam, --version, help)", cmd);
}
