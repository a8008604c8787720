#!/usr/bin/env python3
"""Generate lib/aam/aam_table.c from the seed's Maxwell attribute address map.

    python3 tools/gen_aam.py ../shared/spec/maxwell-attribute-address-map.txt > lib/aam/aam_table.c

Reads the three tables of the specification text (the attribute address map, the patch
attribute map, the tessellation LOD layout), expands each "..." row by continuing the pattern
of the rows around it (docs/maxwell.md, "The attribute address map"), and prints the C data.
The generated file is committed; the test `aam` parses the seed again, independently, at test
time and compares every row and column with the library, so a hand edit or a changed seed is
caught there.
"""
import re
import sys

# Idmap array order is enum vfetch_aam_stage: CBF, VERTEX, TI, TS, GS, PIXEL, VSC; the table's
# column order is CBF, VERTEX, TI, TS, GS, VSC, PIXEL.
IDMAP = {"default": "DF", "LD": "LD", "LD_REQ": "LR"}
ODMAP = {"discard": "DS", "ST": "ST", "ST_REQ": "SR", "ST_LAST": "SL"}
# Two or three letters each, so that a row fits a line; the #defines below spell them out.
DEFAULT = {"0.0": ("F0", "FLOAT_0"), "1.0": ("F1", "FLOAT_1"), "0": ("I0", "INTEGER_0"),
           "ColorFrontDiffuse": ("CFD", "COLOR_FRONT_DIFFUSE"),
           "ColorFrontSpecular": ("CFS", "COLOR_FRONT_SPECULAR"),
           "GenericVector": ("GV", "GENERIC_VECTOR"), "FixedFncTexture": ("FFT", "FIXED_FNC_TEXTURE"),
           "always set by HW": ("HW", "HARDWARE")}
INTERP = {"Constant": ("CO", "CONSTANT"), "Perspective": ("PE", "PERSPECTIVE"),
          "Non-Perspective": ("NP", "NON_PERSPECTIVE"),
          '"Non-Perspective"': ("NPQ", "NON_PERSPECTIVE_QUOTED"),
          "Selected in PS SPH": ("SPH", "SELECTED_IN_PS_SPH"),
          "not in PS SPH": ("NOS", "NOT_IN_PS_SPH")}
SECTION = {"System Values:": "SYS", "Generic Values:": "GEN",
           "Illegal Values & HW Values:": "ILL"}


def cells(line):
    return [c.strip() for c in line.rstrip("\n").split("|")[1:-1]]


def number_of(text):
    """'=  32;' -> 32."""
    m = re.fullmatch(r"=\s*(\d+);", text)
    if not m:
        raise ValueError("not a number cell: %r" % text)
    return int(m.group(1))


def expand(rows, at):
    """The rows the "..." at index `at` of `rows` stands for.

    Rows are dicts with 'name', 'number', 'address' and 'rest' (the other cells). The first row
    after the gap names the pattern: the group of rows before the gap that ends with the row
    whose name has the same shape (digits aside) starts over with the next index.
    """
    before = rows[:at]
    after = rows[at + 1]
    shape = re.sub(r"\d+", "#", after["name"])
    g = 1
    while re.sub(r"\d+", "#", before[-g]["name"]) != shape:
        g += 1
    group = before[-g:]
    index = re.search(r"\d+", group[0]["name"])
    width = len(index.group(0))
    first = int(index.group(0)) + 1
    last = int(re.search(r"\d+", after["name"]).group(0)) - 1
    out = []
    number = before[-1]["number"] + 1
    for i in range(first, last + 1):
        for r in group:
            name = re.sub(r"\d+", str(i).zfill(width), r["name"], count=1)
            out.append({"name": name, "number": number, "address": 4 * number,
                        "rest": r["rest"], "section": r.get("section")})
            number += 1
    if number != after["number"]:
        raise ValueError("gap before %s: %d rows do not reach %d" % (after["name"], number, after["number"]))
    return out


def parse(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    main, patch, lod = [], [], []
    part = 0
    section = None
    for line in lines:
        if "Patch Attribute Address Map" in line:
            part = 1
        elif "Tessellation LOD Layout" in line:
            part = 2
        if part == 2:
            m = re.match(r"\|\s+slot (\d)\s", line)
            if m:
                lod.append(line)
            continue
        if not line.startswith("|"):
            continue
        c = cells(line)
        if part == 0 and len(c) == 12 and c[0] in SECTION:
            section = SECTION[c[0]]
            continue
        width = 12 if part == 0 else 3
        if len(c) != width or not (c[1].startswith("=") or c[1] in ("n/a", "...")):
            continue
        row = {"name": c[0], "rest": c[3:], "section": section}
        if c[1] == "...":
            row["gap"] = True
        elif c[1] == "n/a":
            row["number"] = -1
            row["address"] = -1 if c[2].startswith("<") else 1024
            row["section"] = "RNG"
        else:
            row["number"] = number_of(c[1])
            row["address"] = number_of(c[2])
        (main if part == 0 else patch).append(row)
    return main, patch, lod


def expand_all(rows):
    out = []
    for i, r in enumerate(rows):
        if r.get("gap"):
            out.extend(expand(out + [r, rows[i + 1]], len(out)))
        else:
            out.append(r)
    return out


def lod_columns(lines):
    """The nine cells of each slot line: separated by two spaces or more, single inside."""
    return [re.split(r"\s{2,}", line.strip("| \n")) for line in lines]


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen_aam.py SEED.txt > aam_table.c")
    main_rows, patch_rows, lod_lines = parse(sys.argv[1])
    table = expand_all(main_rows)
    patches = expand_all(patch_rows)
    ranges = [r for r in table if r["number"] < 0]
    attrs = [r for r in table if r["number"] >= 0]
    assert [r["number"] for r in attrs] == list(range(256)), "attribute numbers are not 0..255"
    assert all(r["address"] == 4 * r["number"] for r in attrs)
    below = [r for r in patches if r["number"] < 0]
    pattrs = [r for r in patches if r["number"] >= 0]
    assert [r["number"] for r in pattrs] == list(range(128)), "patch numbers are not 0..127"

    lod = lod_columns(lod_lines)
    assert [len(c) for c in lod] == [9] * 6, "the LOD layout is not six slots of nine cells"

    p = print
    p("/*")
    p(" * The Maxwell attribute address map as data: the 256 attributes (every \"...\" row of the")
    p(" * seed expanded), the two range rows, the patch attribute map and the tessellation LOD")
    p(" * layout, and the accessors by number. GENERATED by tools/gen_aam.py from the map's seed")
    p(" * text (docs/maxwell.md names it): do not edit, regenerate; the test `aam` compares every row")
    p(" * with the seed text.")
    p(" */")
    p('#include "vfetch/aam.h"')
    p("")
    p("#define DF VFETCH_AAM_IDMAP_DEFAULT")
    p("#define LD VFETCH_AAM_IDMAP_LD")
    p("#define LR VFETCH_AAM_IDMAP_LD_REQ")
    p("#define DS VFETCH_AAM_ODMAP_DISCARD")
    p("#define ST VFETCH_AAM_ODMAP_ST")
    p("#define SR VFETCH_AAM_ODMAP_ST_REQ")
    p("#define SL VFETCH_AAM_ODMAP_ST_LAST")
    for short, long in DEFAULT.values():
        p("#define %s VFETCH_AAM_DEFAULT_%s" % (short, long))
    for short, long in INTERP.values():
        p("#define %s VFETCH_AAM_INTERP_%s" % (short, long))
    p("#define RNG VFETCH_AAM_SECTION_RANGE")
    p("#define SYS VFETCH_AAM_SECTION_SYSTEM_VALUES")
    p("#define GEN VFETCH_AAM_SECTION_GENERIC_VALUES")
    p("#define ILL VFETCH_AAM_SECTION_ILLEGAL_VALUES")
    p("")
    p("/* name, number, address, Idmap CBF VERTEX TI TS GS PIXEL VSC, Odmap CBF VERTEX TI TS GS,")
    p("   default, interpolation, section */")

    def row_c(r):
        rest = r["rest"]
        pairs = [x.split("/") for x in rest[:5]]
        idm = [IDMAP[a.strip()] for a, _ in pairs] + [IDMAP[rest[6]], IDMAP[rest[5]]]
        odm = [ODMAP[b.strip()] for _, b in pairs]
        name = r["name"].strip('"')
        return '{ %s, %d, %d, { %s }, { %s }, %s, %s, %s }' % (
            c_str(name), r["number"], r["address"], ", ".join(idm), ", ".join(odm),
            DEFAULT[rest[7]][0], INTERP[rest[8]][0], r["section"])

    p("static const struct vfetch_aam_attribute aam_rows[VFETCH_AAM_ATTRIBUTES] = {")
    for r in attrs:
        p("    %s," % row_c(r))
    p("};")
    p("")
    p("static const struct vfetch_aam_attribute aam_below_range =")
    p("    %s;" % row_c(ranges[0]))
    p("static const struct vfetch_aam_attribute aam_above_range =")
    p("    %s;" % row_c(ranges[1]))
    p("")
    p("static const struct vfetch_aam_patch_attribute aam_patch_rows[VFETCH_AAM_PATCH_ATTRIBUTES] = {")
    for r in pattrs:
        p("    { %s, %d, %d }," % (c_str(r["name"]), r["number"], r["address"]))
    p("};")
    p("")
    p("static const struct vfetch_aam_patch_attribute aam_patch_below_range = { %s, -1, -1 };"
      % c_str(below[0]["name"].strip('"')))
    p("")
    p("/* slot, method, HW name, quad parameter and diagram, triangle ..., isoline ... */")
    p("static const struct vfetch_aam_lod_slot aam_lod_slots[VFETCH_AAM_LOD_SLOTS] = {")
    for cols in lod:
        slot = int(cols[0].split()[1])
        p("    { %d, %s }," % (slot, ", ".join(c_str(c) for c in cols[1:])))
    p("};")
    p("")
    p("const struct vfetch_aam_attribute *vfetch_aam_attribute(unsigned number)")
    p("{")
    p("    return number < VFETCH_AAM_ATTRIBUTES ? &aam_rows[number] : NULL;")
    p("}")
    p("")
    p("const struct vfetch_aam_attribute *vfetch_aam_at_address(long address)")
    p("{")
    p("    if (address < 0)")
    p("        return &aam_below_range;")
    p("    if (address >= 4 * VFETCH_AAM_ATTRIBUTES)")
    p("        return &aam_above_range;")
    p("    return address % 4 ? NULL : &aam_rows[address / 4];")
    p("}")
    p("")
    p("const struct vfetch_aam_patch_attribute *vfetch_aam_patch_attribute(unsigned number)")
    p("{")
    p("    return number < VFETCH_AAM_PATCH_ATTRIBUTES ? &aam_patch_rows[number] : NULL;")
    p("}")
    p("")
    p("const struct vfetch_aam_patch_attribute *vfetch_aam_patch_at_address(long address)")
    p("{")
    p("    if (address < 0)")
    p("        return &aam_patch_below_range;")
    p("    if (address >= 4 * VFETCH_AAM_PATCH_ATTRIBUTES || address % 4)")
    p("        return NULL;")
    p("    return &aam_patch_rows[address / 4];")
    p("}")
    p("")
    p("const struct vfetch_aam_lod_slot *vfetch_aam_lod_slot(unsigned slot)")
    p("{")
    p("    return slot < VFETCH_AAM_LOD_SLOTS ? &aam_lod_slots[slot] : NULL;")
    p("}")


if __name__ == "__main__":
    main()
