#!/usr/bin/env python3
"""Test: every global symbol the library defines is prefixed vfetch_.

A static library's symbols share the namespace of the program that links it (an emulator's own
`x86_op` or `gen_vertex` would collide with ours), so each external name carries the prefix
(internal headers rename their functions with #define, as lib/jit/x86_gen.h does). Reads
`nm -g --defined-only` of each archive or shared object given and prints every symbol without
the prefix.

    tools/check_symbols.py NM LIBRARY...
"""
import subprocess
import sys


def main():
    nm, libraries = sys.argv[1], sys.argv[2:]
    bad = set()
    for lib in libraries:
        out = subprocess.run([nm, "-g", "--defined-only", lib], check=True, capture_output=True,
                             text=True).stdout
        for line in out.splitlines():
            fields = line.split()
            # "address type name" for each symbol; archive member headers ("file.o:") have one field
            if len(fields) == 3 and not fields[2].startswith("vfetch_"):
                bad.add(fields[2])
    for name in sorted(bad):
        print("unprefixed global symbol:", name)
    print("%d libraries, %d unprefixed symbols" % (len(libraries), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
