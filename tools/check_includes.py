#!/usr/bin/env python3
"""Test: the #include "..." graph of the library's sources has no circle.

Every header of lib/ is a node, with an edge to each header it includes (resolved beside the
including file first, then under lib/, as the build's include path does); a path that comes back
to where it started is printed and fails the test. The .c files are walked too, so a header that
only a source includes is still checked.

    tools/check_includes.py LIB_DIR
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def resolve(lib, including, name):
    for base in (os.path.dirname(including), lib):
        path = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(path):
            return path
    return None  # a public header (include/vfetch/) or a system one: no edges of ours


def main():
    lib = os.path.normpath(sys.argv[1])
    files = [os.path.join(d, f) for d, _, fs in os.walk(lib) for f in fs if f.endswith((".c", ".h"))]
    edges = {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        edges[path] = [p for p in (resolve(lib, path, n) for n in INCLUDE.findall(text)) if p]
    circles = []
    state = {}  # 1: on the current path, 2: done

    def walk(node, path):
        state[node] = 1
        for nxt in edges.get(node, []):
            if state.get(nxt) == 1:
                circles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                walk(nxt, path + [nxt])
        state[node] = 2

    for path in sorted(files):
        if path not in state:
            walk(path, [path])
    for c in circles:
        print("include circle: " + " -> ".join(os.path.relpath(p, lib) for p in c))
    print("%d files, %d includes, %d circles" % (len(files), sum(map(len, edges.values())), len(circles)))
    return 1 if circles else 0


if __name__ == "__main__":
    sys.exit(main())
