#!/usr/bin/env python3
"""Test: vfetch_bench's machine-readable output is only that, and summary.py's tables.

    check_output.py VFETCH_BENCH SUMMARY_PY

1. `vfetch_bench --benchmark_format=json` prints JSON alone on stdout (its own line goes to
   stderr): the whole of stdout parses, and holds the benchmark asked for.
2. `summary.py` prints the compile rows as a time per call only (compiling converts no
   vertices: a Mverts/s or GB/s column would be meaningless).
3. Its digest: a plan's best level at 4,096 vertices with Mverts/s consistent with its time
   per call (one clock), its 16-vertex time, the load line, the compile line, short.
4. Its GX texture table: texels per call from the benchmark (Mtexels/s x ns/call = 64 for an
   8x8 texture) and the ratio to memcpy of the RGBA8 output.
5. `summary.py --from-json` of the JSON the digest's run wrote prints the same digest and
   tables and (where matplotlib imports) draws the same PNG, byte for byte.
6. Its regret rows, from a JSON of made-up times: a plan as created at a level against every
   other path vfetch has at that level or below; a candidate its second timing clears is not
   listed.
7. VFETCH_BENCH_OUT_OFFSET / VFETCH_BENCH_SRC_OFFSET (the buffers' placement past a 4 KiB
   boundary): a value outside 0-4095 or not a number exits 2 naming the variable, before any
   benchmark runs; 0 and 4095 run.
8. The measured tiers: `vfetch_bench --jit-tiers` prints one `tier:` line per (plan, level),
   each once, its tier `every`, `below-N` or `none`, and none of the benchmark's plans is
   `none` (no generated code); and from made-up lines of three processes the digest lists the
   plan whose tier moved and only counts the one whose code's size did.
Exits 1 on any failure, printing what it saw.
"""
import json
import os
import subprocess
import sys
import tempfile


def fail(what, text):
    print("FAILED: %s\n%s" % (what, text))
    sys.exit(1)


def tables_from_json(summary, doc):
    """What `summary.py --from-json --tables` prints of a JSON document made here."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "made.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        return subprocess.run([sys.executable, summary, "--from-json", path, "--tables"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              check=True).stdout.decode()


def main():
    bench, summary = sys.argv[1], sys.argv[2]
    run = subprocess.run([bench, "--benchmark_format=json", "--benchmark_filter=^compile/r300/",
                          "--benchmark_min_time=0.001"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, check=True)
    out = run.stdout.decode()
    try:
        data = json.loads(out)
    except ValueError as e:
        fail("stdout of --benchmark_format=json is not JSON (%s)" % e, out[:400])
    names = [b["name"] for b in data.get("benchmarks", [])]
    if names != ["compile/r300/-/-"]:
        fail("the JSON's benchmarks are %r" % names, out[:400])
    if "best level" not in run.stderr.decode():
        fail("vfetch_bench's own line is not on stderr", run.stderr.decode())

    with tempfile.TemporaryDirectory() as tmp:
        text = subprocess.run([sys.executable, summary, "--bench", bench, "--filter", "^compile/",
                               "--json", os.path.join(tmp, "out.json")],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              check=True).stdout.decode()
    lines = [l for l in text.splitlines() if l.strip()]
    header = [l for l in lines if l.split()[0] == "compile"]
    rows = [l for l in lines if l.startswith("compile/")]
    names = sorted(r.split()[0] for r in rows)
    if header != ["compile" + " " * 37 + "    ns/call"] or \
            names != ["compile/gx-allindexed/-/-", "compile/gx-portable/-/-", "compile/gx/-/-",
                      "compile/r300-state/-/-", "compile/r300/-/-"]:
        fail("the compile table is not name and ns/call", text)
    for row in rows:
        fields = row.split()
        if len(fields) != 2 or not float(fields[1]) > 0:
            fail("a compile row is not a name and a time", row)
    try:
        import matplotlib  # noqa: F401
        chart = True
    except ImportError:
        chart = False
    with tempfile.TemporaryDirectory() as tmp:
        live_json = os.path.join(tmp, "out.json")
        charts = ["--chart", os.path.join(tmp, "live.png")] if chart else []
        text = subprocess.run([sys.executable, summary, "--bench", bench, "--digest", "--filter",
                               "^(plan/gx-d/(avx2|ref)/(16|4096)|baseline/memcpy/-/131072|compile/.*)$",
                               "--json", live_json] + charts,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              check=True).stdout.decode()
        # 5. the same from the JSON, running nothing: the same text and the same picture
        charts = ["--chart", os.path.join(tmp, "json.png")] if chart else []
        again = subprocess.run([sys.executable, summary, "--digest", "--filter", "^",
                                "--bench", "/nonexistent", "--from-json", live_json] + charts,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               check=True).stdout.decode()

        def same(t):
            return [l for l in t.splitlines() if not l.startswith(("raw JSON: ", "chart: "))]
        if same(again) != same(text):
            fail("--from-json printed another text than the run that wrote the JSON",
                 "live:\n%s\nfrom the JSON:\n%s" % (text, again))
        if chart:
            with open(os.path.join(tmp, "live.png"), "rb") as a, \
                    open(os.path.join(tmp, "json.png"), "rb") as b:
                if a.read() != b.read():
                    fail("--from-json drew another chart than the run that wrote the JSON")
    digest = text.split("\ncompile ")[0]  # the tables (--filter prints them) follow it
    lines = digest.splitlines()
    if len(lines) >= 60 or not any(l.startswith("machine load: ") for l in lines) or \
            not any(l.startswith("registers to plan: ") and ", gx " in l for l in lines):
        fail("the digest lacks its load or compile line, or is long", digest)
    row = [l.split() for l in lines if l.startswith("gx-d ")]
    if len(row) != 1 or row[0][1] != "avx2" or not all(float(x) > 0 for x in row[0][2:6]):
        fail("the digest's gx-d row is not: name, best level, four positive numbers", digest)
    # one clock: the table's Mverts/s and ns/call of the same benchmark agree
    table = [l.split() for l in text.splitlines() if l.startswith("plan/gx-d/avx2/4096 ")]
    if len(table) != 1 or abs(float(table[0][1]) * float(table[0][5]) / 1e3 - 4096) > 0.01 * 4096:
        fail("Mverts/s and ns/call of plan/gx-d/avx2/4096 come from different clocks", text)
    with tempfile.TemporaryDirectory() as tmp:
        text = subprocess.run([sys.executable, summary, "--bench", bench, "--filter",
                               "^(texture/gx-i8/ref/8x8|baseline/memcpy/-/256)$",
                               "--json", os.path.join(tmp, "out.json")],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              check=True).stdout.decode()
    row = [l.split() for l in text.splitlines() if l.startswith("texture/gx-i8/ref/8x8 ")]
    if len(row) != 1 or len(row[0]) != 6 or row[0][3] == "-" or \
            abs(float(row[0][1]) * float(row[0][5]) / 1e3 - 64) > 0.01 * 64:
        fail("the texture row is not: name, Mtexels/s, GB/s, x memcpy, x ref, ns/call with "
             "64 texels a call", text)
    # the regret rows: a plan as created at a level against every other path at that level or
    # below (not above: a CPU of that level has no avx512 code)
    rows = [("plan/p/sse41/256", 100.0), ("plan/p/avx2/256", 200.0),
            ("plan/p/avx2-portable/256", 150.0), ("plan/p/avx512/256", 50.0),
            ("plan/q/sse41/256", 100.0), ("plan/q/avx2/256", 97.0),
            ("plan/q/avx2-perop/256", 99.0), ("plan/q/ref/256", 1.0),
            # r as created runs its portable tier at 256 (counter "generated" 0): its -portable
            # row is the same code, compared with nothing else, so r's cell is not compared
            ("plan/r/avx2/256", 200.0), ("plan/r/avx2-portable/256", 150.0)]
    doc = [{"context": {"num_cpus": 2}, "benchmarks": [
        dict({"name": n, "run_name": n, "run_type": "iteration", "real_time": t,
              "time_unit": "ns"}, **({"generated": 0} if n == "plan/r/avx2/256" else {}))
        for n, t in rows]}]
    text = tables_from_json(summary, doc)
    listed = [l.split() for l in text.splitlines()
              if l.startswith("  p ") or l.startswith("  q ") or l.startswith("  r ")]
    if "regret rows: 1 of 3 (plan, level, count) cells" not in text or \
            len(listed) != 2 or listed[0][:3] != ["p", "avx2", "256:"] or listed[0][7] != "sse41":
        fail("the regret rows are not: p at avx2 (sse41 is 2x faster) alone, of three cells "
             "(in the digest and the table)", text)
    # timed again (the live run's second pass, kept in the JSON): p at avx2 as fast as sse41
    doc[0]["context"]["vfetch_summary"] = {"num_cpus": 2, "repetitions": 1, "regret_confirm": {
        "plan/p/avx2/256": [1e-7, "plan/p/sse41/256", 1e-7]}}
    text = tables_from_json(summary, doc)
    if "regret rows: 0 of 3 (plan, level, count) cells (1 in the run, timed again)" not in text:
        fail("a regret row its second timing clears is still listed", text)
    # timed again: slower in the median, but not in every process (held false): cleared; held:
    # listed
    for held, want in ((False, 0), (True, 1)):
        doc[0]["context"]["vfetch_summary"]["regret_confirm"] = {
            "plan/p/avx2/256": [2e-7, "plan/p/sse41/256", 1e-7, held]}
        text = tables_from_json(summary, doc)
        if "regret rows: %d of 3 (plan, level, count) cells (1 in the run, timed again)" % want \
                not in text:
            fail("a regret row %s in every process is %s" % (
                "slower" if held else "not slower", "not listed" if want else "listed"), text)
    # the measured tiers: the benchmark's own lines, then made-up ones of three processes
    tiers = [l.split() for l in subprocess.run([bench, "--jit-tiers"], stdout=subprocess.PIPE,
                                               check=True).stdout.decode().splitlines()
             if l.startswith("tier: ")]
    keys = [(t[1], t[2]) for t in tiers]
    if not tiers or len(set(keys)) != len(keys) or not all(
            (len(t) == 4 and t[3] == "none") or
            (len(t) == 5 and (t[3] == "every" or t[3].startswith("below-")) and t[4].isdigit())
            for t in tiers):
        fail("--jit-tiers does not print one line per (plan, level): tier every, below-N or "
             "none, and the code's bytes", "\n".join(" ".join(t) for t in tiers[:20]))
    # every benchmark plan has its generated code at every level with the JIT (a generator
    # past its assembler's tables reports "out of memory" and leaves the plan to the portable
    # tier, its draws still exact: only this tells)
    without = [" ".join(t) for t in tiers if t[3] == "none"]
    if without:
        fail("plans without generated code at a level with the JIT", "\n".join(without))
    doc[0]["context"]["vfetch_summary"]["jit_tiers"] = [
        ["tier: p avx2 every 100", "tier: q avx2 below-64 200", "tier: r sse41 every 300"],
        ["tier: p avx2 every 100", "tier: q avx2 every 200", "tier: r sse41 every 320"],
        ["tier: p avx2 every 100", "tier: q avx2 below-64 200", "tier: r sse41 every 300"]]
    text = tables_from_json(summary, doc)
    moved = [l.split() for l in text.splitlines() if l.startswith("  q ")]
    if "measured tiers: 2 of 3 (plan, level) alike in 3 processes (1 more with code of " \
            "another size" not in text or not any(m[:3] == ["q", "avx2", "below-64"] and
                                                  "every" in m for m in moved):
        fail("the measured tiers are not: q at avx2 moved (listed), r's code alone (counted), "
             "of three", text)
    # the buffers' placement: refused where it is no offset within a page, taken where it is
    for name in ("VFETCH_BENCH_OUT_OFFSET", "VFETCH_BENCH_SRC_OFFSET"):
        for value, ok in (("4096", False), ("12x", False), ("-1", False), ("0", True),
                          ("4095", True)):
            placed = subprocess.run([bench, "--benchmark_filter=^plan/r300-r1/sse41/16$",
                                     "--benchmark_min_time=0.001"],
                                    env=dict(os.environ, **{name: value}),
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            err = placed.stderr.decode(errors="replace")
            if ok and (placed.returncode != 0 or b"plan/r300-r1/sse41/16" not in placed.stdout):
                fail("%s=%s did not run the benchmark" % (name, value), err)
            if not ok and (placed.returncode != 2 or name not in err or placed.stdout):
                fail("%s=%s was not refused (exit 2, the variable named, nothing run)" % (
                    name, value), err)
    print("bench output: JSON alone on stdout, compile rows in ns per call, digest, texture "
          "table, regret rows, measured tiers, buffer placement, --from-json's text%s as the "
          "run's: ok" % (
              " and chart" if chart else " (no matplotlib: not its chart)"))


if __name__ == "__main__":
    main()
