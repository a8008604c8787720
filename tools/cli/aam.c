/*
 * `vfetch aam`: the Maxwell attribute address map (include/vfetch/aam.h, docs/maxwell.md,
 * "`vfetch aam`"): the whole map or one row, the patch attribute map, the LOD layout, and
 * --check: Imaps/Omaps of one stage or a whole pipeline checked, with the Bmaps they give.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "vfetch/aam.h"

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
        if (list_item(&text, ',', item, sizeof item) < 0 || !item[0])
            return 1;
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

/* aam --patch [N|NAME]: argv[0] is "--patch". */
static int aam_patch(int argc, char **argv, FILE *out, FILE *errs)
{
    if (argc > 2)
        return usage_error(errs, "aam", "aam --patch: unexpected argument '%.40s'", argv[2]);
    if (argc == 2) {
        long n;
        const struct vfetch_aam_patch_attribute *p =
            aam_number(argv[1], &n) ? (n >= 0 ? vfetch_aam_patch_attribute((unsigned)n) : NULL)
                                    : vfetch_aam_patch_find(argv[1]);
        if (!p)
            return refusal(errs, VFETCH_EINVAL, "aam --patch %.40s (no such patch attribute)",
                           argv[1]);
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

/* aam --lod: argv[0] is "--lod". */
static int aam_lod(int argc, char **argv, FILE *out, FILE *errs)
{
    if (argc > 1)
        return usage_error(errs, "aam", "aam --lod: unexpected argument '%.40s'", argv[1]);
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

enum {
    AAM_CHECK = FIRST_OPTION_ID,
    AAM_IMAP,
    AAM_OMAP,
    AAM_STREAM,
    AAM_STORE_REQ,
    AAM_SPH,
    AAM_SKIP_A,
    AAM_SKIP_B,
    AAM_LAST,
    AAM_RASTER,
    AAM_TWO_SIDED,
};

/* The options of aam --check STAGE. */
static const struct option aam_check_options[] = {
    { "check", required_argument, NULL, AAM_CHECK },
    { "imap", required_argument, NULL, AAM_IMAP },
    { "omap", required_argument, NULL, AAM_OMAP },
    { "stream", required_argument, NULL, AAM_STREAM },
    { "store-req", required_argument, NULL, AAM_STORE_REQ },
    { "sph", required_argument, NULL, AAM_SPH },
    { "skip-a", required_argument, NULL, AAM_SKIP_A },
    { "skip-b", required_argument, NULL, AAM_SKIP_B },
    { "last", no_argument, NULL, AAM_LAST },
    { "raster", no_argument, NULL, AAM_RASTER },
    { "two-sided", no_argument, NULL, AAM_TWO_SIDED },
    OPTIONS_END
};

/* --check: one stage's maps checked alone (no VERTEX among them), or a whole pipeline. argv[0]
   is "aam", argv[1] the first --check. */
static int aam_check(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a;
    args_begin(&a, "aam", aam_check_options, argc, argv, out, errs);
    struct vfetch_aam_pipeline p;
    memset(&p, 0, sizeof p);
    for (unsigned s = 0; s < 6; s++)
        vfetch_aam_shader_init(&p.shaders[s]);
    int current = -1, stages = 0, last = 0, got, n;
    char detail[128] = "";
    while ((got = next_option(&a)) >= FIRST_OPTION_ID) {
        const char *val = a.val;
        uint32_t words[20];
        /* a stage's maps follow its --check */
        const int of_stage = got == AAM_IMAP || got == AAM_OMAP || got == AAM_STORE_REQ ||
                             got == AAM_SPH;
        if (of_stage && current < 0)
            return usage_error(errs, a.cmd, "%s before the first --check STAGE", a.arg);
        if (got == AAM_LAST) {
            last = 1;
        } else if (got == AAM_RASTER) {
            p.vsc.raster_enabled = true;
        } else if (got == AAM_TWO_SIDED) {
            p.vsc.two_sided_light = true;
        } else if (got == AAM_CHECK) {
            current = vfetch_aam_stage_from_name(val);
            if (current < 0 || current > VFETCH_AAM_PIXEL)
                return usage_error(errs, a.cmd, "--check %.40s: no stage %.40s (CBF, VS, TI, TS, "
                                   "GS, PS or their full names)", val, val);
            if (p.enabled >> current & 1)
                return usage_error(errs, a.cmd, "--check %.40s: %s is checked once", val,
                                   vfetch_aam_stage_name((unsigned)current));
            p.enabled |= 1u << current;
            stages++;
        } else if (got == AAM_IMAP || got == AAM_OMAP || got == AAM_STREAM) {
            struct vfetch_aam_map m;
            const int rc = aam_parse_map(val, &m, detail, sizeof detail);
            if (rc == 1)
                return usage_error(errs, a.cmd, "%s %.60s: not a set (attribute numbers, names "
                                   "and ranges A-B, or words:W0,..,W7)", a.arg, val);
            if (rc)
                return refusal(errs, VFETCH_EINVAL, "%s %.60s (%s)", a.arg, val, detail);
            if (got == AAM_STREAM) {
                p.vsc.stream_enabled = true;
                p.vsc.stream_imap = m;
            } else if (got == AAM_IMAP) {
                p.shaders[current].imap = m;
            } else {
                p.shaders[current].omap = m;
            }
        } else if (got == AAM_STORE_REQ) {
            if (parse_numbers(val, ':', 255, words, 2) != 2)
                return usage_error(errs, a.cmd, "--store-req %.40s: not S:E (attribute numbers "
                                   "0..255)", val);
            p.shaders[current].store_req_start = (uint8_t)words[0];
            p.shaders[current].store_req_end = (uint8_t)words[1];
        } else if (got == AAM_SPH) {
            if (list_option(&a, words, 20, &n))
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
            if (list_option(&a, words, 2, &n))
                return 1;
            const uint64_t mask = words[0] | (uint64_t)(n == 2 ? words[1] : 0) << 32;
            if (got == AAM_SKIP_A)
                p.skip_mask_a = mask;
            else
                p.skip_mask_b = mask;
        }
    }
    if (got != ARG_END)
        return args_exit(&a, got);
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

/* The first argument picks the form: none, N|NAME, --address A, --patch [N|NAME], --lod, or
   --check STAGE and its options (aam_check). Help anywhere wins, even as a value. The forms but
   --check take a fixed number of arguments, which may start with '-' (--address -4, --patch
   -1), so only --check's options go through getopt. */
int cmd_aam(int argc, char **argv, FILE *out, FILE *errs)
{
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            usage_of(out, "aam");
            return 0;
        }
    }
    if (argc == 1) {
        aam_print_table(out);
        return 0;
    }
    if (!strcmp(argv[1], "--check"))
        return aam_check(argc, argv, out, errs);
    if (!strcmp(argv[1], "--patch"))
        return aam_patch(argc - 1, argv + 1, out, errs);
    if (!strcmp(argv[1], "--lod"))
        return aam_lod(argc - 1, argv + 1, out, errs);
    const int address = !strcmp(argv[1], "--address");
    if (argv[1][0] == '-' && !address) /* --check's options name their place */
        return usage_error(errs, "aam", "aam: unknown option '%.40s'%s", argv[1],
                           option_named(aam_check_options, argv[1]) ? " (it follows --check STAGE)"
                                                                    : "");
    if (argc > 2 + address) /* --address A, or N|NAME */
        return usage_error(errs, "aam", "aam: unexpected argument '%.40s'", argv[2 + address]);
    if (address) {
        long a;
        if (argc == 2)
            return usage_error(errs, "aam", "--address needs a value");
        if (!aam_number(argv[2], &a))
            return usage_error(errs, "aam", "--address %.40s: not a byte address (decimal or 0x "
                               "hex, may be negative)", argv[2]);
        const struct vfetch_aam_attribute *row = vfetch_aam_at_address(a);
        if (!row)
            return refusal(errs, VFETCH_EINVAL, "aam --address %ld (not the start of an "
                           "attribute: a multiple of 4)", a);
        aam_print_row(out, row);
        return 0;
    }
    const int n = aam_attribute_of(argv[1]);
    if (n < 0)
        return refusal(errs, VFETCH_EINVAL, "aam %.40s (no such attribute: 0..255 or a name)",
                       argv[1]);
    aam_print_row(out, vfetch_aam_attribute((unsigned)n));
    return 0;
}
