/*
 * The Maxwell attribute address map against its seed text
 * (../shared/spec/maxwell-attribute-address-map.txt, read at test time; its path is argv[1]).
 * The seed is parsed here, independently of tools/gen_aam.py: every explicit row of the three
 * tables must equal the library's row field by field, and vfetch_aam_format_row() must print it
 * byte for byte as the seed does; every "..." is expanded by continuing the pattern of the rows
 * around it and each expanded row is checked the same way against the pattern's text. Then the
 * queries (by number, address, name), the SET_ATTRIBUTE_DEFAULT defaults against hand rules,
 * and the note 7 column check on the library's table and on mutated copies.
 *
 * Usage: test_aam SEED.txt   (fails when the file cannot be read: the seed is the proof)
 */
#include <ctype.h>
#include <stdlib.h>

#include "testutil.h"
#include "vfetch/aam.h"

#define MAX_LINES 400
#define MAX_CELLS 16

static char *seed_text;
static char *lines[MAX_LINES];
static unsigned num_lines;

static int load_seed(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 1 << 16, len = 0;
    seed_text = malloc(cap + 1);
    size_t got;
    while (seed_text && (got = fread(seed_text + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            char *bigger = realloc(seed_text, 2 * cap + 1);
            if (!bigger)
                break;
            seed_text = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (!seed_text)
        return -1;
    seed_text[len] = '\0';
    for (char *p = seed_text; *p && num_lines < MAX_LINES;) {
        lines[num_lines++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    return 0;
}

/* The cells of a table line "|a|b|...|" (pointers into buf, trimmed); returns the count. */
static unsigned split_cells(const char *line, char *buf, size_t size, char **cells)
{
    snprintf(buf, size, "%s", line);
    if (buf[0] != '|')
        return 0;
    unsigned n = 0;
    char *p = buf + 1;
    for (char *bar; (bar = strchr(p, '|')) && n < MAX_CELLS; p = bar + 1) {
        *bar = '\0';
        while (*p == ' ')
            p++;
        char *end = p + strlen(p);
        while (end > p && end[-1] == ' ')
            *--end = '\0';
        cells[n++] = p;
    }
    return n;
}

/* Text <-> values, written from the seed's definitions (not the library's name functions). */
static int idmap_of(const char *s)
{
    return !strcmp(s, "default") ? VFETCH_AAM_IDMAP_DEFAULT
           : !strcmp(s, "LD")    ? VFETCH_AAM_IDMAP_LD
           : !strcmp(s, "LD_REQ") ? VFETCH_AAM_IDMAP_LD_REQ
                                  : -1;
}

static int odmap_of(const char *s)
{
    return !strcmp(s, "discard") ? VFETCH_AAM_ODMAP_DISCARD
           : !strcmp(s, "ST")    ? VFETCH_AAM_ODMAP_ST
           : !strcmp(s, "ST_REQ") ? VFETCH_AAM_ODMAP_ST_REQ
           : !strcmp(s, "ST_LAST") ? VFETCH_AAM_ODMAP_ST_LAST
                                   : -1;
}

static int default_of(const char *s)
{
    static const char *const t[] = { "0.0", "1.0", "0", "ColorFrontDiffuse", "ColorFrontSpecular",
                                     "GenericVector", "FixedFncTexture", "always set by HW" };
    for (int i = 0; i < 8; i++)
        if (!strcmp(s, t[i]))
            return i; /* the order of enum vfetch_aam_default */
    return -1;
}

static int interp_of(const char *s)
{
    static const char *const t[] = { "Constant", "Perspective", "Non-Perspective",
                                     "\"Non-Perspective\"", "Selected in PS SPH", "not in PS SPH" };
    for (int i = 0; i < 6; i++)
        if (!strcmp(s, t[i]))
            return i; /* the order of enum vfetch_aam_interpolation */
    return -1;
}

/* "= 124;" -> 124, "n/a" -> -1, "<   0;" -> -1, ">1024;" -> 1024. */
static int number_of(const char *s)
{
    if (!strcmp(s, "n/a"))
        return -1;
    if (s[0] == '<')
        return -1;
    return atoi(s + 1);
}

/* One expected row: its cells (name, number, address, 5 stages, VSC, PIXEL, default, interp)
   and the line they come from (for the byte-for-byte print check). */
struct want_row {
    char name[64];
    int number, address;
    char stage[5][32], vsc[16], pixel[16], def[32], interp[32];
    int section;
    char line[512];
};

static unsigned rows_checked, rows_expanded;

/* The seed line of a row with its first three cells replaced (an expanded row's print). */
static void rebuild_line(struct want_row *w)
{
    char *bar[4];
    char *p = w->line;
    for (int i = 0; i < 4; i++) {
        p = strchr(p + (i > 0), '|');
        if (!p)
            return;
        bar[i] = p;
    }
    char tail[320];
    snprintf(tail, sizeof tail, "%s", bar[3]);
    snprintf(w->line, sizeof w->line, "|  %-35s|  = %3d;   |  =%4d;   %s", w->name, w->number,
             w->address, tail);
}

static void check_row(const struct vfetch_aam_attribute *got, const struct want_row *w)
{
    rows_checked++;
    CHECK(got != NULL);
    if (!got)
        return;
    const int name_ok = !strcmp(got->name, w->name);
    CHECK(name_ok);
    if (!name_ok)
        fprintf(stderr, "  name %s, want %s\n", got->name, w->name);
    CHECK_EQ(got->number, w->number);
    CHECK_EQ(got->address, w->address);
    for (int s = 0; s < 5; s++) {
        char id[32], od[32];
        CHECK(sscanf(w->stage[s], "%31s / %31s", id, od) == 2);
        CHECK_EQ(got->idmap[s], idmap_of(id));
        CHECK_EQ(got->odmap[s], odmap_of(od));
    }
    CHECK_EQ(got->idmap[VFETCH_AAM_VSC], idmap_of(w->vsc));
    CHECK_EQ(got->idmap[VFETCH_AAM_PIXEL], idmap_of(w->pixel));
    CHECK_EQ(got->default_value, default_of(w->def));
    CHECK_EQ(got->interpolation, interp_of(w->interp));
    CHECK_EQ(got->section, w->section);
    char printed[512];
    const size_t len = vfetch_aam_format_row(got, printed, sizeof printed);
    CHECK_EQ(len, strlen(w->line));
    const int line_ok = !strcmp(printed, w->line);
    CHECK(line_ok);
    if (!line_ok)
        fprintf(stderr, "  printed %s\n  seed    %s\n", printed, w->line);
}

static void fill_row(struct want_row *w, char **c, const char *line, int section)
{
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%s", c[0]);
    w->number = number_of(c[1]);
    w->address = c[2][0] == '>' ? 1024 : number_of(c[2]);
    for (int s = 0; s < 5; s++)
        snprintf(w->stage[s], sizeof w->stage[s], "%s", c[3 + s]);
    snprintf(w->vsc, sizeof w->vsc, "%s", c[8]);
    snprintf(w->pixel, sizeof w->pixel, "%s", c[9]);
    snprintf(w->def, sizeof w->def, "%s", c[10]);
    snprintf(w->interp, sizeof w->interp, "%s", c[11]);
    w->section = section;
    snprintf(w->line, sizeof w->line, "%s", line);
}

/* Name with its first digit run replaced by '#': the shape a "..." continues. */
static void name_shape(const char *name, char *out, size_t size)
{
    size_t o = 0;
    int done = 0;
    for (const char *p = name; *p && o + 1 < size; p++) {
        if (isdigit((unsigned char)*p) && !done) {
            out[o++] = '#';
            while (isdigit((unsigned char)p[1]))
                p++;
            done = 1;
        } else {
            out[o++] = *p;
        }
    }
    out[o] = '\0';
}

/* The index in a name (its first digit run), and how many digits it is written with. */
static int name_index(const char *name, int *width)
{
    const char *p = name;
    while (*p && !isdigit((unsigned char)*p))
        p++;
    *width = (int)strspn(p, "0123456789");
    return atoi(p);
}

/* Name with its first digit run replaced by index (zero-padded to width). */
static void name_with(const char *name, int index, int width, char *out, size_t size)
{
    const char *p = name;
    while (*p && !isdigit((unsigned char)*p))
        p++;
    const char *after = p + strspn(p, "0123456789");
    snprintf(out, size, "%.*s%0*d%s", (int)(p - name), name, width, index, after);
}

/* ---- the attribute address map ---- */

static void test_main_table(void)
{
    static struct want_row seen[300];
    unsigned count = 0, gaps = 0;
    int section = -1, in_table = 1, range_rows = 0;
    int pending_gap = 0;
    for (unsigned i = 0; i < num_lines && in_table; i++) {
        if (strstr(lines[i], "Definition of terms"))
            in_table = 0;
        char buf[400], *c[MAX_CELLS];
        const unsigned n = split_cells(lines[i], buf, sizeof buf, c);
        if (n != 12)
            continue;
        if (!strcmp(c[0], "System Values:") || !strcmp(c[0], "Generic Values:") ||
            !strcmp(c[0], "Illegal Values & HW Values:")) {
            section = !strcmp(c[0], "Generic Values:")   ? VFETCH_AAM_SECTION_GENERIC_VALUES
                      : !strcmp(c[0], "System Values:") ? VFETCH_AAM_SECTION_SYSTEM_VALUES
                                                        : VFETCH_AAM_SECTION_ILLEGAL_VALUES;
            continue;
        }
        if (!strcmp(c[0], "...")) {
            pending_gap = 1;
            gaps++;
            continue;
        }
        if (c[1][0] != '=' && strcmp(c[1], "n/a") != 0)
            continue; /* the headings */
        struct want_row w;
        if (!strcmp(c[1], "n/a")) {
            /* "below range" / "above range": quoted in the seed, unquoted names in the library */
            fill_row(&w, c, lines[i], VFETCH_AAM_SECTION_RANGE);
            const size_t len = strlen(w.name);
            CHECK(len > 2 && w.name[0] == '"' && w.name[len - 1] == '"');
            memmove(w.name, w.name + 1, len - 2);
            w.name[len - 2] = '\0';
            const struct vfetch_aam_attribute *got =
                vfetch_aam_at_address(c[2][0] == '<' ? -1 : 1024);
            check_row(got, &w);
            range_rows++;
            continue;
        }
        fill_row(&w, c, lines[i], section);
        if (pending_gap) {
            /* The pattern: the group before the gap that ends with a row shaped like w. */
            pending_gap = 0;
            char shape[64], s2[64];
            name_shape(w.name, shape, sizeof shape);
            unsigned g = 1;
            for (; g <= count; g++) {
                name_shape(seen[count - g].name, s2, sizeof s2);
                if (!strcmp(s2, shape))
                    break;
            }
            CHECK(g <= count && g <= 4);
            if (g > count)
                return;
            const unsigned group = count - g;
            int width;
            const int first = name_index(seen[group].name, &width) + 1;
            int after_width;
            const int last = name_index(w.name, &after_width) - 1;
            int number = seen[count - 1].number + 1;
            for (int k = first; k <= last; k++)
                for (unsigned r = 0; r < g; r++) {
                    struct want_row e = seen[group + r];
                    name_with(seen[group + r].name, k, width, e.name, sizeof e.name);
                    e.number = number;
                    e.address = 4 * number;
                    rebuild_line(&e);
                    CHECK(count < 300);
                    if (count < 300)
                        seen[count++] = e;
                    number++;
                    rows_expanded++;
                }
            CHECK_EQ(number, w.number); /* the gap ends where the next row starts */
        }
        CHECK(count < 300);
        if (count < 300)
            seen[count++] = w;
    }
    CHECK_EQ(range_rows, 2);
    CHECK_EQ(gaps, 5);
    CHECK_EQ(count, VFETCH_AAM_ATTRIBUTES);
    for (unsigned k = 0; k < count && k < VFETCH_AAM_ATTRIBUTES; k++) {
        CHECK_EQ(seen[k].number, k);
        check_row(vfetch_aam_attribute(k), &seen[k]);
    }
    /* DECISIONS.md names the expansions; spot-check that the pattern gave those */
    CHECK(!strcmp(vfetch_aam_attribute(14)->name, "SYSTEM_VALUE_RESERVED_04"));
    CHECK(!strcmp(vfetch_aam_attribute(21)->name, "SYSTEM_VALUE_RESERVED_11"));
    CHECK(!strcmp(vfetch_aam_attribute(36)->name, "GENERIC_ATTRIBUTE_01_X"));
    CHECK(!strcmp(vfetch_aam_attribute(155)->name, "GENERIC_ATTRIBUTE_30_W"));
    CHECK(!strcmp(vfetch_aam_attribute(196)->name, "FIXED_FNC_TEXTURE_1_S"));
    CHECK(!strcmp(vfetch_aam_attribute(227)->name, "FIXED_FNC_TEXTURE_8_Q"));
    CHECK(!strcmp(vfetch_aam_attribute(234)->name, "SYSTEM_VALUE_RESERVED_20"));
    CHECK(!strcmp(vfetch_aam_attribute(237)->name, "SYSTEM_VALUE_RESERVED_23"));
    CHECK(!strcmp(vfetch_aam_attribute(241)->name, "ILLEGAL_17"));
    CHECK(!strcmp(vfetch_aam_attribute(253)->name, "ILLEGAL_29"));
    CHECK_EQ(vfetch_aam_attribute(155)->default_value, VFETCH_AAM_DEFAULT_GENERIC_VECTOR);
    CHECK_EQ(vfetch_aam_attribute(227)->default_value, VFETCH_AAM_DEFAULT_FIXED_FNC_TEXTURE);
}

/* ---- the patch attribute map ---- */

static void test_patch_table(void)
{
    char names[VFETCH_AAM_PATCH_ATTRIBUTES + 8][48];
    int numbers[VFETCH_AAM_PATCH_ATTRIBUTES + 8] = { 0 };
    unsigned count = 0, below = 0, gaps = 0;
    int in_patch = 0, pending_gap = 0;
    for (unsigned i = 0; i < num_lines; i++) {
        if (strstr(lines[i], "Patch Attribute Address Map"))
            in_patch = 1;
        if (strstr(lines[i], "Tessellation LOD Layout"))
            in_patch = 0;
        char buf[400], *c[MAX_CELLS];
        if (!in_patch || split_cells(lines[i], buf, sizeof buf, c) != 3)
            continue;
        if (!strcmp(c[0], "...")) {
            pending_gap = 1;
            gaps++;
            continue;
        }
        if (!strcmp(c[1], "n/a")) {
            const struct vfetch_aam_patch_attribute *got = vfetch_aam_patch_at_address(-4);
            CHECK(got && !strcmp(c[0], "\"below range\"") && !strcmp(got->name, "below range"));
            CHECK(got && got->number == -1 && got->address == -1 && !strcmp(c[2], "<   0;"));
            below++;
            continue;
        }
        if (c[1][0] != '=')
            continue;
        const int number = number_of(c[1]);
        if (pending_gap) {
            pending_gap = 0;
            CHECK(count > 0);
            if (!count)
                return;
            int width, w2;
            const int first = name_index(names[count - 1], &width) + 1;
            const int last = name_index(c[0], &w2) - 1;
            for (int k = first; k <= last && count < VFETCH_AAM_PATCH_ATTRIBUTES; k++) {
                name_with(names[count - 1], k, width, names[count], sizeof names[count]);
                numbers[count] = numbers[count - 1] + 1;
                count++;
                rows_expanded++;
            }
            CHECK_EQ(numbers[count - 1] + 1, number);
        }
        CHECK_EQ(number_of(c[2]), 4 * number);
        CHECK(count < VFETCH_AAM_PATCH_ATTRIBUTES + 8);
        if (count >= VFETCH_AAM_PATCH_ATTRIBUTES + 8)
            return;
        snprintf(names[count], sizeof names[count], "%s", c[0]);
        numbers[count++] = number;
    }
    CHECK_EQ(below, 1);
    CHECK_EQ(gaps, 1);
    CHECK_EQ(count, VFETCH_AAM_PATCH_ATTRIBUTES);
    for (unsigned k = 0; k < count && k < VFETCH_AAM_PATCH_ATTRIBUTES; k++) {
        const struct vfetch_aam_patch_attribute *got = vfetch_aam_patch_attribute(k);
        rows_checked++;
        CHECK(got && !strcmp(got->name, names[k]));
        CHECK(got && got->number == numbers[k] && numbers[k] == (int)k && got->address == 4 * (int)k);
        CHECK(vfetch_aam_patch_at_address(4 * (long)k) == got);
        CHECK(vfetch_aam_patch_at_address(4 * (long)k + 2) == NULL);
        CHECK(vfetch_aam_patch_find(names[k]) == got);
    }
    CHECK(!strcmp(vfetch_aam_patch_attribute(10)->name, "GENERIC_PATCH_ATTRIBUTE_4"));
    CHECK(!strcmp(vfetch_aam_patch_attribute(125)->name, "GENERIC_PATCH_ATTRIBUTE_119"));
    CHECK(vfetch_aam_patch_attribute(128) == NULL);
    CHECK(vfetch_aam_patch_at_address(512) == NULL);
    CHECK(vfetch_aam_patch_find("tessellation_lod_top") == vfetch_aam_patch_attribute(1));
    CHECK(vfetch_aam_patch_find("GENERIC_PATCH_ATTRIBUTE_122") == NULL);
    CHECK(vfetch_aam_patch_find(NULL) == NULL);
}

/* ---- the tessellation LOD layout ---- */

static void test_lod_layout(void)
{
    unsigned slots = 0;
    for (unsigned i = 0; i < num_lines; i++) {
        const char *p = lines[i];
        if (p[0] != '|')
            continue;
        p++;
        while (*p == ' ')
            p++;
        if (strncmp(p, "slot ", 5) != 0)
            continue;
        /* cells are separated by two spaces or more and hold single spaces */
        char cells[9][48];
        unsigned n = 0;
        while (*p && *p != '|' && n < 9) {
            const char *end = strstr(p, "  ");
            const size_t len = end ? (size_t)(end - p) : strcspn(p, "|");
            snprintf(cells[n++], sizeof cells[0], "%.*s", (int)len, p);
            p += len;
            while (*p == ' ')
                p++;
        }
        CHECK_EQ(n, 9);
        if (n != 9)
            continue;
        const unsigned slot = (unsigned)atoi(cells[0] + 5);
        const struct vfetch_aam_lod_slot *got = vfetch_aam_lod_slot(slot);
        CHECK(got != NULL);
        if (!got)
            continue;
        CHECK_EQ(got->slot, slot);
        const char *fields[8] = { got->method, got->hw_name, got->quad_parameter,
                                  got->quad_diagram, got->triangle_parameter,
                                  got->triangle_diagram, got->isoline_parameter,
                                  got->isoline_diagram };
        for (unsigned f = 0; f < 8; f++) {
            const int ok = !strcmp(fields[f], cells[f + 1]);
            CHECK(ok);
            if (!ok)
                fprintf(stderr, "  slot %u field %u: %s, want %s\n", slot, f, fields[f], cells[f + 1]);
        }
        /* slot n is the patch attribute TESSELLATION_LOD_* number n */
        CHECK(!strncmp(vfetch_aam_patch_attribute(slot)->name, "TESSELLATION_LOD_", 17));
        slots++;
        rows_checked++;
    }
    CHECK_EQ(slots, VFETCH_AAM_LOD_SLOTS);
    CHECK(vfetch_aam_lod_slot(VFETCH_AAM_LOD_SLOTS) == NULL);
}

/* ---- queries ---- */

static void test_queries(void)
{
    CHECK(vfetch_aam_attribute(VFETCH_AAM_ATTRIBUTES) == NULL);
    CHECK(vfetch_aam_attribute(~0u) == NULL);
    for (long a = -9; a < 1040; a++) {
        const struct vfetch_aam_attribute *r = vfetch_aam_at_address(a);
        if (a < 0)
            CHECK(r && r->number == -1 && r->address == -1 && !strcmp(r->name, "below range"));
        else if (a >= 1024)
            CHECK(r && r->number == -1 && r->address == 1024 && !strcmp(r->name, "above range"));
        else if (a % 4)
            CHECK(r == NULL);
        else
            CHECK(r == vfetch_aam_attribute((unsigned)a / 4));
    }
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++) {
        const struct vfetch_aam_attribute *r = vfetch_aam_attribute(n);
        CHECK(vfetch_aam_find(r->name) == r);
        char lower[64];
        size_t i = 0;
        for (; r->name[i] && i + 1 < sizeof lower; i++)
            lower[i] = (char)tolower((unsigned char)r->name[i]);
        lower[i] = '\0';
        CHECK(vfetch_aam_find(lower) == r);
    }
    CHECK(vfetch_aam_find("below range") == NULL);
    CHECK(vfetch_aam_find("VERTEX_I") == NULL);
    CHECK(vfetch_aam_find("VERTEX_IDX") == NULL);
    CHECK(vfetch_aam_find("") == NULL);
    CHECK(vfetch_aam_find(NULL) == NULL);
    /* the named numbers of the header are the table's */
    static const struct { unsigned n; const char *name; } named[] = {
        { VFETCH_AAM_PRIMITIVE_ID, "PRIMITIVE_ID" }, { VFETCH_AAM_RT_ARRAY_INDEX, "RT_ARRAY_INDEX" },
        { VFETCH_AAM_VIEWPORT_INDEX, "VIEWPORT_INDEX" }, { VFETCH_AAM_POINT_SIZE, "POINT_SIZE" },
        { VFETCH_AAM_POSITION_X, "POSITION_X" }, { VFETCH_AAM_POSITION_Y, "POSITION_Y" },
        { VFETCH_AAM_POSITION_Z, "POSITION_Z" }, { VFETCH_AAM_POSITION_W, "POSITION_W" },
        { VFETCH_AAM_GENERIC_0, "GENERIC_ATTRIBUTE_00_X" },
        { VFETCH_AAM_GENERIC_0 + 4 * 17 + 2, "GENERIC_ATTRIBUTE_17_Z" },
        { VFETCH_AAM_COLOR_FRONT_DIFFUSE, "COLOR_FRONT_DIFFUSE_RED" },
        { VFETCH_AAM_COLOR_FRONT_SPECULAR, "COLOR_FRONT_SPECULAR_RED" },
        { VFETCH_AAM_COLOR_BACK_DIFFUSE, "COLOR_BACK_DIFFUSE_RED" },
        { VFETCH_AAM_COLOR_BACK_SPECULAR, "COLOR_BACK_SPECULAR_RED" },
        { VFETCH_AAM_CLIP_DISTANCE_0 + 7, "CLIP_DISTANCE_7" },
        { VFETCH_AAM_POINT_SPRITE_S, "POINT_SPRITE_S" }, { VFETCH_AAM_POINT_SPRITE_T, "POINT_SPRITE_T" },
        { VFETCH_AAM_FOG_COORDINATE, "FOG_COORDINATE" },
        { VFETCH_AAM_TESSELLATION_EVALUATION_POINT_U, "TESSELLATION_EVALUATION_POINT_U" },
        { VFETCH_AAM_TESSELLATION_EVALUATION_POINT_V, "TESSELLATION_EVALUATION_POINT_V" },
        { VFETCH_AAM_INSTANCE_ID, "INSTANCE_ID" }, { VFETCH_AAM_VERTEX_ID, "VERTEX_ID" },
        { VFETCH_AAM_FIXED_FNC_TEXTURE_0, "FIXED_FNC_TEXTURE_0_S" },
        { VFETCH_AAM_FIXED_FNC_TEXTURE_0 + 4 * 9 + 3, "FIXED_FNC_TEXTURE_9_Q" },
        { VFETCH_AAM_VIEWPORT_MASK, "VIEWPORT_MASK" }, { VFETCH_AAM_IS_FRONT_FACE, "IS_FRONT_FACE" },
    };
    for (unsigned i = 0; i < sizeof named / sizeof named[0]; i++)
        CHECK(!strcmp(vfetch_aam_attribute(named[i].n)->name, named[i].name));
    /* names of values */
    CHECK(!strcmp(vfetch_aam_idmap_name(VFETCH_AAM_IDMAP_LD_REQ), "LD_REQ"));
    CHECK(!strcmp(vfetch_aam_idmap_name(3), "?"));
    CHECK(!strcmp(vfetch_aam_odmap_name(VFETCH_AAM_ODMAP_ST_LAST), "ST_LAST"));
    CHECK(!strcmp(vfetch_aam_odmap_name(4), "?"));
    CHECK(!strcmp(vfetch_aam_default_name(VFETCH_AAM_DEFAULT_HARDWARE), "always set by HW"));
    CHECK(!strcmp(vfetch_aam_default_name(8), "?"));
    CHECK(!strcmp(vfetch_aam_interpolation_name(VFETCH_AAM_INTERP_NON_PERSPECTIVE_QUOTED),
                  "\"Non-Perspective\""));
    CHECK(!strcmp(vfetch_aam_interpolation_name(6), "?"));
    CHECK(!strcmp(vfetch_aam_stage_name(VFETCH_AAM_TESSELLATION_INIT), "TESSELLATION_INIT"));
    CHECK(!strcmp(vfetch_aam_stage_name(VFETCH_AAM_VSC), "VSC"));
    CHECK(!strcmp(vfetch_aam_stage_name(7), "?"));
    for (unsigned s = 0; s < VFETCH_AAM_STAGES; s++)
        CHECK_EQ(vfetch_aam_stage_from_name(vfetch_aam_stage_name(s)), s);
    CHECK_EQ(vfetch_aam_stage_from_name("gs"), VFETCH_AAM_GEOMETRY);
    CHECK_EQ(vfetch_aam_stage_from_name("Cbf"), VFETCH_AAM_CULL_BEFORE_FETCH);
    CHECK_EQ(vfetch_aam_stage_from_name("PS"), VFETCH_AAM_PIXEL);
    CHECK_EQ(vfetch_aam_stage_from_name("VERTEXX"), -1);
    CHECK_EQ(vfetch_aam_stage_from_name(NULL), -1);
    /* format_row is snprintf-like */
    const struct vfetch_aam_attribute *r = vfetch_aam_attribute(VFETCH_AAM_VERTEX_ID);
    const size_t need = vfetch_aam_format_row(r, NULL, 0);
    CHECK_EQ(need, 243); /* the seed's line width */
    char small[10];
    memset(small, 'x', sizeof small);
    CHECK_EQ(vfetch_aam_format_row(r, small, sizeof small), need);
    CHECK(!strcmp(small, "|  VERTEX"));
    CHECK_EQ(vfetch_aam_format_row(NULL, small, sizeof small), 0);
    CHECK(small[0] == '\0');
}

/* ---- defaults: the rules of docs/maxwell.md "Defaults", written out per attribute ---- */

static uint32_t want_default(unsigned n, uint32_t word)
{
    const uint32_t one = 0x3F800000u;
    if (n >= 32 && n < 160) /* generic: W from GENERIC_VECTOR (bit 2), X..Z 0.0 */
        return n % 4 == 3 && (word & 4) ? one : 0;
    if (n >= 160 && n <= 162) /* front diffuse R, G, B from bit 0: (0,0,0,1) or (1,1,1,1) */
        return word & 1 ? one : 0;
    if (n == 167) /* front specular alpha from bit 1 */
        return word & 2 ? one : 0;
    if (n >= 192 && n < 232) /* fixed function texture: Q from bit 3 */
        return n % 4 == 3 && (word & 8) ? one : 0;
    if (n == 31 || n == 163 || n == 171 || n == 175) /* POSITION_W and the other alphas: 1.0 */
        return one;
    return 0; /* 0.0, integer 0, IS_FRONT_FACE, out of range */
}

static void test_defaults(void)
{
    CHECK_EQ(VFETCH_AAM_ATTRIBUTE_DEFAULT_RESET, 0x0E);
    static const uint32_t words[] = { 0, 1, 2, 4, 8, 0x0E, 0x0F, 0xFFFFFFF0u, 0xFFFFFFFFu, 0x30 };
    for (unsigned w = 0; w < sizeof words / sizeof words[0]; w++)
        for (unsigned n = 0; n < 300; n++)
            CHECK_EQ(vfetch_aam_default_bits(n, words[w]), want_default(n, words[w]));
    /* the reset value: generic (0,0,0,1), front diffuse (0,0,0,1), front specular (0,0,0,1) */
    const uint32_t r = VFETCH_AAM_ATTRIBUTE_DEFAULT_RESET;
    CHECK_EQ(vfetch_aam_default_bits(VFETCH_AAM_GENERIC_0 + 3, r), 0x3F800000u);
    CHECK_EQ(vfetch_aam_default_bits(VFETCH_AAM_GENERIC_0, r), 0);
    CHECK_EQ(vfetch_aam_default_bits(VFETCH_AAM_COLOR_FRONT_DIFFUSE, r), 0);
    CHECK_EQ(vfetch_aam_default_bits(VFETCH_AAM_COLOR_FRONT_DIFFUSE + 3, r), 0x3F800000u);
    CHECK_EQ(vfetch_aam_default_bits(VFETCH_AAM_COLOR_FRONT_SPECULAR + 3, r), 0x3F800000u);
    CHECK_EQ(vfetch_aam_default_bits(VFETCH_AAM_FIXED_FNC_TEXTURE_0 + 3, r), 0x3F800000u);
    CHECK_EQ(vfetch_aam_default_bits(VFETCH_AAM_VERTEX_ID, ~0u), 0);
    CHECK_EQ(vfetch_aam_default_bits(VFETCH_AAM_IS_FRONT_FACE, ~0u), 0);
    CHECK_EQ(vfetch_aam_default_bits(VFETCH_AAM_POSITION_W, 0), 0x3F800000u);
}

/* ---- note 7 column checks ---- */

static void test_check_columns(void)
{
    static struct vfetch_aam_columns cols, copy;
    CHECK_EQ(vfetch_aam_get_columns(&cols), 0);
    CHECK_EQ(vfetch_aam_get_columns(NULL), VFETCH_EINVAL);
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++)
        for (unsigned s = 0; s < VFETCH_AAM_STAGES; s++)
            CHECK_EQ(cols.idmap[s][n], vfetch_aam_attribute(n)->idmap[s]);
    /* The seed's own CULL_BEFORE_FETCH Odmap has ST_LAST at 25, 26 and 232: each is reported
       in turn, and with ST_REQ there the table passes. */
    copy = cols;
    static const unsigned st_last[] = { VFETCH_AAM_RT_ARRAY_INDEX, VFETCH_AAM_VIEWPORT_INDEX,
                                        VFETCH_AAM_VIEWPORT_MASK };
    for (unsigned i = 0; i < 3; i++) {
        struct vfetch_aam_where where = { 99, 99 };
        CHECK_EQ(vfetch_aam_check_columns(&copy, &where), VFETCH_EAAM_CBF_ODMAP);
        CHECK_EQ(where.stage, VFETCH_AAM_CULL_BEFORE_FETCH);
        CHECK_EQ(where.attribute, st_last[i]);
        CHECK_EQ(copy.odmap[0][st_last[i]], VFETCH_AAM_ODMAP_ST_LAST);
        copy.odmap[0][st_last[i]] = VFETCH_AAM_ODMAP_ST_REQ;
    }
    struct vfetch_aam_where where = { 99, 99 };
    CHECK_EQ(vfetch_aam_check_columns(&copy, &where), 0);
    CHECK(where.stage == 99 && where.attribute == 99); /* untouched on success */
    CHECK_EQ(vfetch_aam_check_columns(&copy, NULL), 0);
    const struct vfetch_aam_columns fixed = copy;

    /* CULL_BEFORE_FETCH Idmap differs from VERTEX (either side changed) */
    copy = fixed;
    copy.idmap[VFETCH_AAM_CULL_BEFORE_FETCH][40] = VFETCH_AAM_IDMAP_LD_REQ;
    CHECK_EQ(vfetch_aam_check_columns(&copy, &where), VFETCH_EAAM_CBF_IDMAP);
    CHECK(where.stage == 0 && where.attribute == 40);
    copy = fixed;
    copy.idmap[VFETCH_AAM_VERTEX][VFETCH_AAM_POSITION_X] = VFETCH_AAM_IDMAP_LD;
    CHECK_EQ(vfetch_aam_check_columns(&copy, &where), VFETCH_EAAM_CBF_IDMAP);
    CHECK_EQ(where.attribute, VFETCH_AAM_POSITION_X);
    /* other columns are not compared */
    copy = fixed;
    copy.idmap[VFETCH_AAM_GEOMETRY][5] = VFETCH_AAM_IDMAP_LD;
    copy.odmap[VFETCH_AAM_VERTEX][5] = VFETCH_AAM_ODMAP_ST_LAST;
    CHECK_EQ(vfetch_aam_check_columns(&copy, NULL), 0);
    /* CULL_BEFORE_FETCH Odmap ST or ST_LAST */
    copy = fixed;
    copy.odmap[VFETCH_AAM_CULL_BEFORE_FETCH][100] = VFETCH_AAM_ODMAP_ST;
    CHECK_EQ(vfetch_aam_check_columns(&copy, &where), VFETCH_EAAM_CBF_ODMAP);
    CHECK_EQ(where.attribute, 100);
    copy = fixed;
    copy.odmap[VFETCH_AAM_CULL_BEFORE_FETCH][3] = VFETCH_AAM_ODMAP_ST_LAST;
    CHECK_EQ(vfetch_aam_check_columns(&copy, &where), VFETCH_EAAM_CBF_ODMAP);
    CHECK_EQ(where.attribute, 3);
    /* the lowest attribute first; on one attribute the Idmap first */
    copy = fixed;
    copy.odmap[VFETCH_AAM_CULL_BEFORE_FETCH][50] = VFETCH_AAM_ODMAP_ST;
    copy.idmap[VFETCH_AAM_CULL_BEFORE_FETCH][60] = VFETCH_AAM_IDMAP_DEFAULT;
    CHECK_EQ(vfetch_aam_check_columns(&copy, &where), VFETCH_EAAM_CBF_ODMAP);
    CHECK_EQ(where.attribute, 50);
    copy.idmap[VFETCH_AAM_CULL_BEFORE_FETCH][50] = VFETCH_AAM_IDMAP_LD_REQ;
    CHECK_EQ(vfetch_aam_check_columns(&copy, &where), VFETCH_EAAM_CBF_IDMAP);
    CHECK_EQ(where.attribute, 50);
    /* values out of their enums, NULL */
    copy = fixed;
    copy.idmap[VFETCH_AAM_VSC][7] = 3;
    CHECK_EQ(vfetch_aam_check_columns(&copy, NULL), VFETCH_EINVAL);
    copy = fixed;
    copy.odmap[VFETCH_AAM_GEOMETRY][7] = 4;
    CHECK_EQ(vfetch_aam_check_columns(&copy, NULL), VFETCH_EINVAL);
    CHECK_EQ(vfetch_aam_check_columns(NULL, NULL), VFETCH_EINVAL);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "../shared/spec/maxwell-attribute-address-map.txt";
    if (load_seed(path)) { /* meson counts exit 77 as SKIP: the seed lives outside the repository */
        printf("aam: skipped: cannot read the seed %s (the spec texts are kept in ../shared/spec "
               "beside the clone)\n", path);
        return 77;
    }
    test_main_table();
    test_patch_table();
    test_lod_layout();
    test_queries();
    test_defaults();
    test_check_columns();
    printf("test_aam: %u rows compared with %s (%u of them expanded from \"...\")\n", rows_checked,
           path, rows_expanded);
    free(seed_text);
    return test_summary("aam");
}
