#!/usr/bin/env bash
# Instructions per call of the benchmark plans, on any machine: vfetch_bench --callcost under
# callgrind (instruction counts do not move with the machine's load), or directly where
# perf_event_open counts instructions.
#
#   bash tools/callcost.sh [BUILD] [REGEX]     BUILD default build-dev (made if missing),
#                                              REGEX default ^plan/ (every plan, 1/16/4096 vertices)
#   CALLCOST_PERF=1 bash tools/callcost.sh     use the hardware counter instead of callgrind
#
# Prints one row per benchmark: instructions per call, per vertex, and the call minus its
# vertices' cost at 4096 (the fixed part), the loop's own cost (harness/empty-loop)
# subtracted. Level: the benchmark name's; a level this CPU lacks is not registered.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-dev}
filter=${2:-^plan/}
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" --buildtype=release >/dev/null
fi
if [ "${CALLCOST_PERF:-0}" != 1 ] && ! grep -q VFETCH_HAVE_VALGRIND_H "$build/build.ninja"; then
    # configured before valgrind's header was there: the generated code must tell valgrind
    # when it is written again (docs/jit.md, "Memory")
    meson setup --reconfigure "$build" >/dev/null
fi
ninja -C "$build" bench/vfetch_bench >/dev/null
bench="$build/bench/vfetch_bench"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [ "${CALLCOST_PERF:-0}" = 1 ]; then
    "$bench" --callcost="$filter" >"$out/list" 2>/dev/null
else
    command -v valgrind >/dev/null || { echo "callcost: valgrind not installed (apt-get install valgrind)"; exit 2; }
    valgrind --tool=callgrind --collect-atstart=no --dump-instr=no --compress-strings=no \
        --callgrind-out-file="$out/cg.%p" "$bench" --callcost="$filter" >"$out/list" 2>"$out/log" ||
        { tail -20 "$out/log"; exit 1; }
fi
python3 - "$out" <<'PY'
import glob, os, re, sys
out = sys.argv[1]
rows = [l.split() for l in open(os.path.join(out, "list")) if l.strip() and not l.startswith("#")]
# callgrind: one dump per benchmark, named by the client request that wrote it
dumps = {}
for f in glob.glob(os.path.join(out, "cg.*")):
    desc = total = None
    for line in open(f, errors="replace"):
        if line.startswith("desc: Trigger: Client Request: "):
            desc = line.split("Client Request: ", 1)[1].strip()
        elif line.startswith("summary:") or line.startswith("totals:"):
            total = int(line.split()[1])
    if desc is not None and total is not None:
        dumps[desc] = total
def count(r):
    return dumps[r[0]] if r[0] in dumps else int(r[2])
loop = count(rows[0]) / int(rows[0][1])
per_call = {}
for r in rows[1:]:
    if len(r) > 3:
        print("%-44s skipped" % r[0]); continue
    per_call[r[0]] = count(r) / int(r[1]) - loop
print("%-44s %12s %10s %10s" % ("benchmark (loop cost %.1f subtracted)" % loop, "instr/call", "instr/vtx", "fixed"))
for name, c in per_call.items():
    last = name.rsplit("/", 1)[1]
    if not last.isdigit():  # a row of no vertex count (the replay's whole passes): per call only
        print("%-44s %12.0f %10s %10s" % (name, c, "-", "-"))
        continue
    n = int(last)
    big = per_call.get(name.rsplit("/", 1)[0] + "/4096")
    fixed = "%.0f" % (c - n * big / 4096) if big is not None else "-"
    print("%-44s %12.0f %10.1f %10s" % (name, c, c / n, fixed))
PY
