#!/usr/bin/env python3
"""Test: the x86-64 generator's call chains are at most five emitters deep (docs/jit.md).

The functions of lib/jit/x86_*.c (the assembler and the build-time shape tool aside) are read as
text: an emitter is a function that emits an instruction (E, x86_op, x86_jump, x86_bind) or
calls an emitter; a call through the conversion table (`convert(g, x)`) reaches every
`convert_*` function. From each entry point (vfetch_jit_gx_compile, vfetch_jit_plan_compile) the
longest chain of emitters, the entry point counted, must have at most five; the longest ones
are printed.

    tools/check_jit_depth.py LIB_DIR
"""
import functools
import glob
import os
import re
import sys

LIMIT = 5
ENTRIES = ("vfetch_jit_gx_compile", "vfetch_jit_plan_compile")
DEFINITION = re.compile(r"^(?:static\s+)?(?:const\s+)?[\w\s\*]+?\b(\w+)\(([^;{]*?)\)\s*\{", re.M)
EMITS = re.compile(r"\bE\(|\bx86_op\(|\bx86_jump\(|\bx86_bind\(")
CALL = re.compile(r"\b(\w+)\s*\(")


def bodies(lib):
    out = {}
    for path in sorted(glob.glob(os.path.join(lib, "jit", "x86_*.c"))):
        if path.endswith(("x86_asm.c", "x86_shapes_gen.c")):
            continue
        text = open(path, encoding="utf-8").read()
        for m in DEFINITION.finditer(text):
            i = j = m.end() - 1
            depth = 0
            while True:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                if depth == 0:
                    break
                j += 1
            out[m.group(1)] = text[i:j]
    return out


def main():
    src = bodies(sys.argv[1])
    calls = {}
    for name, body in src.items():
        callees = {c for c in CALL.findall(body) if c in src and c != name}
        if re.search(r"\bconvert\(g, x\)", body):
            callees |= {c for c in src if c.startswith("convert_")}
        calls[name] = callees
    emitters = {n for n, b in src.items() if EMITS.search(b)}
    grown = True
    while grown:
        grown = False
        for n in src:
            if n not in emitters and calls[n] & emitters:
                emitters.add(n)
                grown = True

    @functools.lru_cache(None)
    def longest(name):
        below = [longest(c) for c in sorted(calls[name]) if c in emitters]
        return (name,) + (max(below, key=len) if below else ())

    failed = False
    for entry in ENTRIES:
        if entry not in src:
            print(f"check_jit_depth: entry point {entry} not found")
            return 1
        chain = longest(entry)
        print(f"{entry}: {len(chain)} emitters deep: {' -> '.join(chain)}")
        failed |= len(chain) > LIMIT
    if failed:
        print(f"check_jit_depth: more than {LIMIT} emitters deep")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
