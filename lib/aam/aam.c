/*
 * Queries on the Maxwell attribute address map (the rows themselves and the lookups by number
 * are in aam_table.c, generated from the seed): lookups by name, the table's spellings of its
 * values, a row printed as the seed prints it, the SET_ATTRIBUTE_DEFAULT defaults, and the
 * note 7 check of a table's CULL_BEFORE_FETCH columns.
 */
#include <stdio.h>
#include <string.h>

#include "vfetch/aam.h"

/* ASCII case-insensitive equality (names are ASCII; strcasecmp is POSIX, not C11). */
static int aam_name_equal(const char *a, const char *b)
{
    for (;; a++, b++) {
        const unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        const unsigned char lx = x >= 'A' && x <= 'Z' ? x + 32 : x;
        const unsigned char ly = y >= 'A' && y <= 'Z' ? y + 32 : y;
        if (lx != ly)
            return 0;
        if (!x)
            return 1;
    }
}

const struct vfetch_aam_attribute *vfetch_aam_find(const char *name)
{
    if (!name)
        return NULL;
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++)
        if (aam_name_equal(vfetch_aam_attribute(n)->name, name))
            return vfetch_aam_attribute(n);
    return NULL;
}

const struct vfetch_aam_patch_attribute *vfetch_aam_patch_find(const char *name)
{
    if (!name)
        return NULL;
    for (unsigned n = 0; n < VFETCH_AAM_PATCH_ATTRIBUTES; n++)
        if (aam_name_equal(vfetch_aam_patch_attribute(n)->name, name))
            return vfetch_aam_patch_attribute(n);
    return NULL;
}

static const char *aam_pick(const char *const *names, unsigned count, unsigned value)
{
    return value < count ? names[value] : "?";
}

const char *vfetch_aam_idmap_name(unsigned idmap)
{
    static const char *const names[] = { "default", "LD", "LD_REQ" };
    return aam_pick(names, 3, idmap);
}

const char *vfetch_aam_odmap_name(unsigned odmap)
{
    static const char *const names[] = { "discard", "ST", "ST_REQ", "ST_LAST" };
    return aam_pick(names, 4, odmap);
}

const char *vfetch_aam_default_name(unsigned default_value)
{
    static const char *const names[] = { "0.0", "1.0", "0", "ColorFrontDiffuse",
                                         "ColorFrontSpecular", "GenericVector",
                                         "FixedFncTexture", "always set by HW" };
    return aam_pick(names, 8, default_value);
}

const char *vfetch_aam_interpolation_name(unsigned interpolation)
{
    static const char *const names[] = { "Constant", "Perspective", "Non-Perspective",
                                         "\"Non-Perspective\"", "Selected in PS SPH",
                                         "not in PS SPH" };
    return aam_pick(names, 6, interpolation);
}

static const char *const aam_stage_names[VFETCH_AAM_STAGES] = {
    "CULL_BEFORE_FETCH", "VERTEX", "TESSELLATION_INIT", "TESSELLATION", "GEOMETRY", "PIXEL", "VSC",
};

const char *vfetch_aam_stage_name(unsigned stage)
{
    return aam_pick(aam_stage_names, VFETCH_AAM_STAGES, stage);
}

int vfetch_aam_stage_from_name(const char *name)
{
    static const char *const short_names[VFETCH_AAM_STAGES] = { "CBF", "VS", "TI", "TS",
                                                                "GS",  "PS", "VSC" };
    if (!name)
        return -1;
    for (int s = 0; s < VFETCH_AAM_STAGES; s++)
        if (aam_name_equal(name, aam_stage_names[s]) || aam_name_equal(name, short_names[s]))
            return s;
    return -1;
}

/* The seed's column order after the address: the five VTG stages, then VSC, then PIXEL. */
size_t vfetch_aam_format_row(const struct vfetch_aam_attribute *row, char *buf, size_t size)
{
    if (!row) {
        if (size)
            buf[0] = '\0';
        return 0;
    }
    char name[40], number[16], address[16], stages[VFETCH_AAM_VTG_STAGES][32];
    if (row->number < 0) {
        snprintf(name, sizeof name, "\"%s\"", row->name);
        snprintf(number, sizeof number, "    n/a    ");
        snprintf(address, sizeof address, row->address < 0 ? "  <   0;   " : "  >1024;   ");
    } else {
        snprintf(name, sizeof name, "%s", row->name);
        snprintf(number, sizeof number, "  = %3d;   ", row->number);
        snprintf(address, sizeof address, "  =%4d;   ", row->address);
    }
    for (unsigned s = 0; s < VFETCH_AAM_VTG_STAGES; s++)
        snprintf(stages[s], sizeof stages[s], "%9s / %-9s", vfetch_aam_idmap_name(row->idmap[s]),
                 vfetch_aam_odmap_name(row->odmap[s]));
    const int n = snprintf(buf, size, "|  %-35s|%s|%s|%s|%s|%s|%s|%s|  %-9s|  %-9s|  %-20s|  %-20s|",
                           name, number, address, stages[0], stages[1], stages[2], stages[3],
                           stages[4], vfetch_aam_idmap_name(row->idmap[VFETCH_AAM_VSC]),
                           vfetch_aam_idmap_name(row->idmap[VFETCH_AAM_PIXEL]),
                           vfetch_aam_default_name(row->default_value),
                           vfetch_aam_interpolation_name(row->interpolation));
    return n < 0 ? 0 : (size_t)n;
}

#define AAM_FLOAT_1 0x3F800000u

uint32_t vfetch_aam_default_bits(unsigned attribute, uint32_t set_attribute_default)
{
    const struct vfetch_aam_attribute *row = vfetch_aam_attribute(attribute);
    if (!row)
        return 0; /* the "above range" row: 0.0 */
    /* Each field picks between two vectors that differ only in the components whose rows name
       it, so a named row takes 1.0 exactly when its field is set. */
    unsigned field;
    switch (row->default_value) {
    case VFETCH_AAM_DEFAULT_FLOAT_1: return AAM_FLOAT_1;
    case VFETCH_AAM_DEFAULT_COLOR_FRONT_DIFFUSE:
        field = VFETCH_AAM_SET_DEFAULT_COLOR_FRONT_DIFFUSE;
        break;
    case VFETCH_AAM_DEFAULT_COLOR_FRONT_SPECULAR:
        field = VFETCH_AAM_SET_DEFAULT_COLOR_FRONT_SPECULAR;
        break;
    case VFETCH_AAM_DEFAULT_GENERIC_VECTOR: field = VFETCH_AAM_SET_DEFAULT_GENERIC_VECTOR; break;
    case VFETCH_AAM_DEFAULT_FIXED_FNC_TEXTURE:
        field = VFETCH_AAM_SET_DEFAULT_FIXED_FNC_TEXTURE;
        break;
    default: return 0; /* 0.0, integer 0, and IS_FRONT_FACE, which the hardware sets */
    }
    return (set_attribute_default & field) ? AAM_FLOAT_1 : 0;
}

int vfetch_aam_get_columns(struct vfetch_aam_columns *out)
{
    if (!out)
        return VFETCH_EINVAL;
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++) {
        const struct vfetch_aam_attribute *row = vfetch_aam_attribute(n);
        for (unsigned s = 0; s < VFETCH_AAM_STAGES; s++)
            out->idmap[s][n] = row->idmap[s];
        for (unsigned s = 0; s < VFETCH_AAM_VTG_STAGES; s++)
            out->odmap[s][n] = row->odmap[s];
    }
    return VFETCH_OK;
}

int vfetch_aam_check_columns(const struct vfetch_aam_columns *columns,
                             struct vfetch_aam_where *where)
{
    if (!columns)
        return VFETCH_EINVAL;
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++)
        for (unsigned s = 0; s < VFETCH_AAM_STAGES; s++)
            if (columns->idmap[s][n] > VFETCH_AAM_IDMAP_LD_REQ ||
                (s < VFETCH_AAM_VTG_STAGES && columns->odmap[s][n] > VFETCH_AAM_ODMAP_ST_LAST))
                return VFETCH_EINVAL;
    const unsigned cbf = VFETCH_AAM_CULL_BEFORE_FETCH;
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++) {
        int err = VFETCH_OK;
        const unsigned od = columns->odmap[cbf][n];
        if (columns->idmap[cbf][n] != columns->idmap[VFETCH_AAM_VERTEX][n])
            err = VFETCH_EAAM_CBF_IDMAP;
        else if (od != VFETCH_AAM_ODMAP_ST_REQ && od != VFETCH_AAM_ODMAP_DISCARD)
            err = VFETCH_EAAM_CBF_ODMAP;
        if (err) {
            if (where)
                *where = (struct vfetch_aam_where){ (int)cbf, (int)n };
            return err;
        }
    }
    return VFETCH_OK;
}
