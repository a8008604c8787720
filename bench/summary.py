#!/usr/bin/env python3
"""Run vfetch_bench and print a digest, then (on request) one ratio table per family.

One clock for every column: each benchmark's wall time per call (Google Benchmark's
real_time); vertices, texels and output bytes per call come from the benchmark's name and
counters, so Mverts/s, GB/s and ns/call always agree.

The digest (first, under 60 lines): for every whole plan its best level at 4,096 vertices
(Mverts/s, the ratio to memcpy of the same output bytes measured in the same process, the
ratio to the scalar reference) and its time per 16-vertex call at that level; the regret rows
(every plan, level and count where the plan as created is more than 5 % slower than another
path vfetch has on a CPU of that level: the plan as created at a level below, the portable
tier or the per-op path; the worst eight, --tables lists all); one line each
for the per-op kernels, the texel formats and the GX texture formats (geometric means); the
replay of the real Wii captures; registers to plan; the measured choices that differ from
process to process (every benchmark plan compiled at every level with the JIT in
TIER_PROCESSES processes, vfetch_bench --jit-tiers: the count from which the portable tier
runs its draws and the size of its code, which a compile's measurements choose; the
benchmarks' process times one of them, so a choice that moves is a regret row the digest may
miss); the JIT's coverage of the GX plans (vfetch_bench --jit-coverage); and a line on how
busy the machine was
(load average before and after, the spread of repetitions under --full).

The tables (--tables, or any --filter): for every benchmark named family/what/isa/count,
Mverts/s, GB/s, x memcpy, x ref and ns per call; the replay table draws and vertices per
pass, ns per draw, Mverts/s; the compile table the time of one compile.

The JSON file (--json, default vfetch-bench.json) holds what vfetch_bench printed: a JSON
array with one Google Benchmark document per family run (vertices per call in each name,
output bytes and texels per call in its counters, the memcpy baselines as benchmarks of their
own). The first document's context adds "vfetch_summary": the CPU's model name, the git
commit, the load before and after, the repetitions and the --jit-coverage lines, so that
--from-json FILE prints the same digest and tables and draws the same chart as the run that
wrote FILE, running nothing (--filter then selects from the file).

The chart (--chart FILE.png, needs matplotlib; the digest and tables print first, and
without matplotlib the exit is 1 with a line on stderr): one PNG, titled with the machine,
the run's date and the commit.
  - A panel per plan (plan/r300-r1, plan/gx-a-packed, ...; each API from a new row):
    Mverts/s against vertices per call, both log. A colour per level; solid: the plan as
    created (the JIT's code where it has some), dash-dot: -portable (the record program
    alone), dotted: -perop (the per-op kernels, forced). Grey dashed: memcpy of the same
    output bytes as Mverts/s; black dotted: the scalar reference (ref; an indexed R300 plan,
    which has none, gets its direct draw's).
  - Two bar panels: the GX texture formats (texture/gx-*) and the R300 texel formats
    (texel/*), each format at every level with its own kernel as x memcpy of its output
    bytes (log), memcpy the dashed line at 1; at 256x256 and 65,536 texels (a quick run's
    sizes; --full's too).
  - A key explaining the above, where there is room.
--chart-list adds a line per panel on stderr: "chart panel TITLE: SERIES, ..." (check_chart.py
tests these against its fixture).

    bench/summary.py [--bench PATH] [--json OUT] [--full] [--tables] [--filter REGEX] [--digest]
                     [--chart FILE.png [--chart-list]]
    bench/summary.py --from-json FILE [--tables] [--filter REGEX] [--digest]
                     [--chart FILE.png [--chart-list]]

Default: a quick run (min time 0.02 s per benchmark, 4096-vertex kernels, all plan sizes,
65,536-texel texels, 256x256 GX textures, the replay). --full: every benchmark, min time 0.2 s,
3 repetitions interleaved in random order (the median is reported).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys

FAMILIES = ["kernel", "plan", "prim", "texel", "texture", "replay", "compile"]
PACKED = "-packed"


def run_family(bench, family, regex, min_time, repetitions, json_parts):
    cmd = [bench, "--benchmark_format=json", "--benchmark_filter=" + regex,
           "--benchmark_min_time=%g" % min_time]
    if repetitions > 1:
        # interleaved in random order: a phase of the machine's (a VM's neighbours, a clock
        # change) slows every row a little instead of a few rows a lot, which would read as
        # regret rows
        cmd += ["--benchmark_repetitions=%d" % repetitions, "--benchmark_report_aggregates_only=true",
                "--benchmark_enable_random_interleaving=true"]
    print("running %s benchmarks ..." % family, file=sys.stderr, flush=True)
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE).stdout.decode()
    # stdout is the JSON alone (vfetch_bench's own line goes to stderr)
    if not out.strip():
        # nothing matched: e.g. replay/ without the captures (vfetch_bench said so on stderr)
        print("no %s benchmarks" % family, file=sys.stderr, flush=True)
        return
    json_parts.append(json.loads(out))


def collect_results(json_parts, repetitions):
    """Every benchmark by name (the median under repetitions; a later family's run of a name,
    e.g. a memcpy baseline, replaces an earlier one's) and the repetitions' spreads. The same
    for a live run and for --from-json, so that both print and draw the same numbers."""
    results = {}
    spreads = []
    for data in json_parts:
        for b in data.get("benchmarks", []):
            name = b.get("run_name", b["name"])
            if repetitions > 1 and b.get("aggregate_name") == "cv":
                spreads.append(b["real_time"])  # the repetitions' coefficient of variation
            if repetitions > 1 and b.get("aggregate_name") != "median":
                continue
            if b.get("error_occurred"):
                continue
            results[name] = b
    return results, spreads


def cpu_model():
    """The CPU's model name, with its family and model numbers in hex (a VM's model name may be
    only "AMD EPYC": the numbers tell a Zen 4, 19h/11h, from a Zen 5, 1Ah/02h)."""
    try:
        with open("/proc/cpuinfo") as f:
            fields = {}
            for line in f:
                if not line.strip():
                    break  # the first CPU's block
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
    except OSError:
        return None
    name = fields.get("model name")
    if not name:
        return None
    try:
        return "%s (family %Xh model %02Xh)" % (name, int(fields["cpu family"]), int(fields["model"]))
    except (KeyError, ValueError):
        return name


def git_commit(here):
    try:
        out = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:
        return None
    if out.returncode != 0:
        return None  # not a git checkout (a release tarball)
    return out.stdout.decode().strip() or None


PLAN_SIZE = 4096   # the digest's throughput size
SHORT_SIZE = 16    # and its short draw
REGRET_DIGEST_ROWS = 8  # regret rows the digest lists (--tables: all)


REGRET = 0.95      # as created below this fraction of the fastest other path: a regret row
TIER_PROCESSES = 3  # processes that compile every benchmark plan, for the choices that move
TIER_DIGEST_ROWS = 8  # such plans the digest lists
LEVELS = ["sse2", "sse41", "avx2", "avx512", "neon"]


def bench_secs(b):
    """A benchmark's wall time per call, in seconds."""
    unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]
    return b["real_time"] * unit


def regret_candidates(all_results, secs):
    """Every (plan, level, count) where the plan as created at that level (plan/P/LEVEL/N) is
    more than 5 % slower than the fastest other path vfetch has for it on a CPU of that level:
    the plan as created at a level below, or the portable tier (-portable) or the per-op path
    (-perop) at that level or below. Returns (cells compared, rows), each row (plan, level,
    count, seconds as created, the fastest other row's name, its seconds, the row's name)."""
    by_cell = {}
    for name, b in all_results.items():
        parts = name.split("/")
        if parts[0] != "plan" or len(parts) != 4 or not parts[3].isdigit():
            continue
        level, _, tier = parts[2].partition("-")
        if level not in LEVELS:
            continue
        by_cell.setdefault((parts[1], int(parts[3])), []).append((LEVELS.index(level), tier, name,
                                                                   secs(b), b.get("generated")))
    cells, rows = 0, []
    for (what, count), entries in by_cell.items():
        for lv, tier, name, t, generated in entries:
            if tier:
                continue
            # where the plan as created runs its portable tier at this count (the benchmark's
            # "generated" counter 0), its own level's -portable row is the same code: not
            # another path, and their difference is the machine's
            others = [(o_t, o_name) for o_lv, o_tier, o_name, o_t, _ in entries
                      if o_lv <= lv and o_name != name and
                      not (generated == 0 and o_lv == lv and o_tier == "portable")]
            if not others:
                continue
            cells += 1
            best_t, best_name = min(others)
            if best_t < REGRET * t:
                rows.append((what, LEVELS[lv], count, t, best_name, best_t, name))
    return cells, rows


def regret_rows(all_results, secs, confirm=None):
    """The regret candidates (regret_candidates), and where a second run timed each candidate's
    two rows again (confirm: {row name: [its seconds, the other row's name, its seconds]}),
    those that are still regret rows in it, with its times. Returns (cells compared,
    candidates, rows), rows worst first."""
    cells, candidates = regret_candidates(all_results, secs)
    rows = []
    for row in candidates:
        what, level, count, t, best_name, best_t, name = row
        if confirm is not None:
            again = confirm.get(name)
            if not again or again[1] != best_name or not again[2] < REGRET * again[0] or \
                    (len(again) > 3 and not again[3]):
                continue
            t, best_t = again[0], again[2]
        rows.append((what, level, count, t, best_name, best_t, name))
    rows.sort(key=lambda r: r[5] / r[3])
    return cells, len(candidates), rows


def confirm_regrets(bench, all_results, secs, processes=3, repetitions=5):
    """Time each regret candidate's two rows again in `processes` fresh processes, interleaved
    with the others in random order, `repetitions` times each (the median of the processes'
    medians), listed only where it is slower in every process: a phase of the machine during the
    first run, or a process whose code and buffers landed where they run slower (the same row
    measured 1.6x apart from one process to the next on the Zen 5 VM), reads as a regret that
    is not there. Returns {row name: [seconds, the other row's name, seconds, held in every
    process]}."""
    _, candidates = regret_candidates(all_results, secs)
    if not candidates:
        return {}
    names = sorted({r[6] for r in candidates} | {r[4] for r in candidates})
    # benchmark names are letters, digits, '/', '-' and '.': only the dot needs a class (the
    # benchmark's regex dialect rejects Python's escapes of the others)
    regex = "^(" + "|".join(n.replace(".", "[.]") for n in names) + ")$"
    print("timing %d regret candidates again, in %d processes ..." % (len(candidates), processes),
          file=sys.stderr, flush=True)
    runs = []
    for _ in range(processes):
        out = subprocess.run([bench, "--benchmark_format=json", "--benchmark_filter=" + regex,
                              "--benchmark_min_time=0.05",
                              "--benchmark_repetitions=%d" % repetitions,
                              "--benchmark_report_aggregates_only=true",
                              "--benchmark_enable_random_interleaving=true"],
                             check=True, stdout=subprocess.PIPE).stdout.decode()
        runs.append(collect_results([json.loads(out)], repetitions)[0])

    def median_secs(name):
        ts = sorted(secs(run[name]) for run in runs if name in run)
        return ts[len(ts) // 2] if ts else None

    confirm = {}
    for r in candidates:
        t, other = median_secs(r[6]), median_secs(r[4])
        # held: slower in every process, not only in the median (a row's speed is bimodal
        # from one process to the next on a VM: one slow process of three is not a regret)
        held = all(r[6] in run and r[4] in run and secs(run[r[4]]) < REGRET * secs(run[r[6]])
                   for run in runs)
        if t and other:
            confirm[r[6]] = [t, r[4], other, held]
    return confirm


def tier_differences(runs):
    """The measured choices of each process's compiles (runs: one list of vfetch_bench
    --jit-tiers lines a process, "tier: PLAN LEVEL TIER BYTES"): how many (plan, level) were
    compiled; those whose tier differs between the processes (the count from which the
    portable tier runs), [((plan, level), [tier and bytes in each process])]; and how many
    differ in their code's size alone (a direct format's groups or pass, the held division
    factors: choices without a default, whose two sides measured within the machine's spread).
    """
    by_key = {}
    for run in runs:
        for line in run:
            parts = line.split()
            if len(parts) >= 4 and parts[0] == "tier:":
                by_key.setdefault((parts[1], parts[2]), []).append(parts[3:])
    tiers = [(k, [" ".join(c) for c in v]) for k, v in sorted(by_key.items())
             if len(set(c[0] for c in v)) > 1]
    code = sum(1 for v in by_key.values()
               if len(set(c[0] for c in v)) == 1 and len(set(tuple(c) for c in v)) > 1)
    return len(by_key), tiers, code


def regret_text(row, ns_text):
    what, level, count, t, best_name, best_t, _ = row
    return "%-22s %-7s %6d: as created %9s ns, %-24s %9s ns (%.2fx)" % (
        what, level, count, ns_text(t * 1e9), best_name.split("/")[2], ns_text(best_t * 1e9),
        best_t / t)


def print_digest(all_results, meta, spreads, per_call, ratios, secs, fmt, geomean, ns_text):
    """The digest: best level per plan, kernels and texels in a line each, replay, compile."""
    cpus = meta.get("num_cpus") or 1
    load_before, load_after = meta.get("load_before"), meta.get("load_after")
    print("vfetch_bench digest: %s, %d CPUs; every column from wall time per call" % (
        meta.get("cpu_model") or "?", cpus))
    spread = ("repetitions' spread (coefficient of variation) median %.1f %%, worst %.1f %%" %
              (100 * sorted(spreads)[len(spreads) // 2], 100 * max(spreads))
              if spreads else "one run per benchmark (--full repeats each 3 times)")
    if load_before is None or load_after is None:
        print("machine load: not recorded; %s" % spread)
    else:
        busy = max(load_before, load_after) > 0.5 * cpus
        print("machine load: %.2f before, %.2f after%s; %s" % (
            load_before, load_after, " (BUSY: other work ran, ratios are less reliable)" if busy
            else "", spread))

    def split(name):
        parts = name.split("/")
        return parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else ""

    print()
    print("%-26s %-15s %10s %9s %8s %12s" % ("plan (4096 vertices)", "best", "Mverts/s",
                                             "x memcpy", "x ref", "ns/16 verts"))
    plans = sorted({split(n)[1] for n in all_results if n.startswith("plan/")})
    for what in plans:
        best = None
        for name in all_results:
            fam, w, isa, count = split(name)
            if fam != "plan" or w != what or isa == "ref" or isa.endswith("-perop") or \
                    count != str(PLAN_SIZE):
                continue
            t = secs(all_results[name])
            if best is None or t < best[1]:
                best = (name, t, isa)
        if not best:
            continue
        t, vs_memcpy, vs_ref = ratios(best[0])
        # the short draw at its fastest level and tier (the generated code's, where it has some)
        shorts = [secs(all_results[n]) for n in all_results
                  if n.startswith("plan/%s/" % what) and n.endswith("/%d" % SHORT_SIZE) and
                  split(n)[2] != "ref"]
        short_ns = ns_text(min(shorts) * 1e9) if shorts else "-"
        print("%-26s %-15s %10.1f %9s %8s %12s" % (what, best[2], PLAN_SIZE / t / 1e6,
                                                   fmt(vs_memcpy), fmt(vs_ref, 1), short_ns))

    confirm = meta.get("regret_confirm")
    cells, candidates, regrets = regret_rows(all_results, secs, confirm)
    if cells:
        print()
        print("regret rows (the plan as created > 5 %% slower than another path vfetch has at "
              "its level or below): %d of %d (plan, level, count) cells%s%s" % (
                  len(regrets), cells,
                  " (%d in the run, timed again: 3 processes of 5 interleaved repetitions, "
                  "slower in each)" % candidates
                  if confirm is not None else "", "; the worst:" if regrets else ""))
        for row in regrets[:REGRET_DIGEST_ROWS]:
            print("  " + regret_text(row, ns_text))
        if len(regrets) > REGRET_DIGEST_ROWS:
            print("  ... %d more (summary.py --tables lists them all)" % (
                len(regrets) - REGRET_DIGEST_ROWS))
    runs = meta.get("jit_tiers")
    if runs:
        compiled, moved, code = tier_differences(runs)
        print()
        print("measured tiers: %d of %d (plan, level) alike in %d processes (%d more with "
              "code of another size: groups or pass, held factors)%s" % (
                  compiled - len(moved), compiled, len(runs), code,
                  "; these moved (the portable tier below N records, or every count; code "
                  "bytes):" if moved else ""))
        for (plan, level), choices in moved[:TIER_DIGEST_ROWS]:
            print("  %-28s %-7s %s" % (plan, level, " | ".join(choices)))
        if len(moved) > TIER_DIGEST_ROWS:
            print("  ... %d more" % (len(moved) - TIER_DIGEST_ROWS))

    for fam, label in (("kernel", "per-op kernels"), ("texel", "texel formats"),
                       ("texture", "GX texture formats")):
        best = {}
        for name in all_results:
            f, what, isa, count = split(name)
            # GX textures count the reference as a level: a format without a kernel yet still
            # shows its x memcpy (and adds nothing to x ref)
            if f != fam or (isa == "ref" and fam != "texture"):
                continue
            t = secs(all_results[name])
            key = (what, count)
            if key not in best or t < best[key][1]:
                best[key] = (name, t)
        if not best:
            continue
        rs = [ratios(n) for n, _ in best.values()]
        mems = [r[1] for r in rs if r[1]]
        print()
        print("%s: %d, each at its best level: x ref geometric mean %s; x memcpy geometric "
              "mean %s (%s .. %s)" % (label, len(best), fmt(geomean([r[2] for r in rs]), 1),
                                       fmt(geomean(mems)), fmt(min(mems) if mems else None),
                                       fmt(max(mems) if mems else None)))

    replay = [n for n in all_results if n.startswith("replay/")]
    if replay:
        best = min(replay, key=lambda n: secs(all_results[n]))
        b = all_results[best]
        draws = b.get("draws", 0.0)
        print()
        print("replay of the real Wii captures, best level %s: %s ns per draw, %.1f Mverts/s" % (
            best.split("/")[2], ns_text(secs(b) * 1e9 / draws) if draws else "-",
            b.get("vertices", 0.0) / secs(b) / 1e6))
    compiles = sorted(n for n in all_results if n.startswith("compile/"))
    if compiles:
        print()
        print("registers to plan: " + ", ".join("%s %s ns" % (n.split("/")[1],
                                                              ns_text(secs(all_results[n]) * 1e9))
                                                for n in compiles))
    print()


# ---- the chart (--chart) ----

LEVEL_COLORS = {"sse2": "tab:blue", "sse41": "tab:green", "avx2": "tab:orange",
                "avx512": "tab:red", "neon": "tab:purple", "table": "tab:brown",
                "plain": "tab:pink", "ref": "0.55"}
# a plan as created (the JIT's code where it has some), the portable tier alone, per-op kernels
TIER_STYLES = {"": ("-", "o"), "portable": ("-.", "s"), "perop": (":", "x")}
MEMCPY_STYLE = dict(color="0.45", linestyle="--", linewidth=2.2)
CHART_KEY = (
    "How to read the plan panels: one panel per plan (the benchmark's plan/<what>), its\n"
    "Mverts/s (log) against vertices per call (log), from the wall time per call.\n"
    "A colour per ISA level. Solid: the plan as created (the JIT's generated code where it\n"
    "has some); dash-dot: -portable (the record program alone, JIT off); dotted: -perop\n"
    "(the per-op kernels, forced). Grey dashed: memcpy of the same output bytes, measured\n"
    "in the same process, as Mverts/s. Black dotted: the scalar reference (an indexed\n"
    "R300 plan has none of its own: the direct draw's).\n"
    "\n"
    "The bar panels: each format's speed as a multiple of memcpy of its output bytes, at\n"
    "every level that has its own kernel (ref: the scalar reference).")
REF_STYLE = dict(color="0.2", linestyle=(0, (1, 1.5)), linewidth=2.2)


def chart_available():
    try:
        import matplotlib  # noqa: F401
        return True
    except ImportError:
        return False


def level_order(isa):
    """ref first, then the levels from the narrowest, each level's tiers together."""
    level, _, tier = isa.partition("-")
    order = ["ref", "plain", "table", "sse2", "sse41", "avx2", "avx512", "neon"]
    return (order.index(level) if level in order else len(order), level,
            list(TIER_STYLES).index(tier) if tier in TIER_STYLES else len(TIER_STYLES), tier)


def chart_title(meta):
    """The machine, the date and the commit: the figure's title."""
    date = (meta.get("date") or "date not recorded").replace("T", " ")
    run = ("--full: median of %d repetitions" % meta["repetitions"] if meta.get("repetitions", 1) > 1
           else "quick run")
    if meta.get("filter"):
        run += ", only --filter %s" % meta["filter"]
    load = ""
    if meta.get("load_before") is not None and meta.get("load_after") is not None:
        load = "; load %.2f before, %.2f after" % (meta["load_before"], meta["load_after"])
    return ("vfetch_bench on %s (%s CPUs), %s, vfetch %s\n%s%s; wall time per call" % (
        meta.get("cpu_model") or "an unrecorded machine", meta.get("num_cpus") or "?", date,
        meta.get("commit") or "(commit not recorded)", run, load))


def plan_panels(all_results, memcpy, secs):
    """One panel per plan (r300-r1, gx-a-packed, ...): {isa: {vertices: Mverts/s}}, and the
    memcpy of each count's output bytes as Mverts/s; in the benchmark's order."""
    panels = {}
    for name, b in all_results.items():
        parts = name.split("/")
        if parts[0] != "plan" or len(parts) != 4 or not parts[3].isdigit():
            continue
        n = int(parts[3])
        p = panels.setdefault(parts[1], {"series": {}, "memcpy": {}})
        p["series"].setdefault(parts[2], {})[n] = n / secs(b) / 1e6
        mc = memcpy.get(int(b.get("out_bytes", 0)))
        if mc and n not in p["memcpy"]:
            p["memcpy"][n] = n / mc / 1e6
    return panels


QUICK_SIZES = {"texture": "256x256", "texel": "65536"}


def bar_groups(all_results, family, ratios):
    """A bar panel's rows: (format, [(isa, x memcpy)]) in the benchmark's order, each format at
    one size: the quick run's (256x256 GX textures, 65,536 texels) where the run has it, so that
    a --full chart shows the same, else the largest."""
    sizes = {}
    for name in all_results:
        parts = name.split("/")
        if parts[0] == family and len(parts) == 4:
            w, h = (parts[3].split("x") + [1])[:2] if "x" in parts[3] else (parts[3], 1)
            sizes[parts[3]] = int(w) * int(h)
    if not sizes:
        return [], None
    size = QUICK_SIZES[family] if QUICK_SIZES.get(family) in sizes else max(sizes, key=sizes.get)
    groups = {}
    for name in all_results:
        parts = name.split("/")
        if parts[0] != family or len(parts) != 4 or parts[3] != size:
            continue
        vs_memcpy = ratios(name)[1]
        if vs_memcpy:
            groups.setdefault(parts[1], []).append((parts[2], vs_memcpy))
    return [(what, sorted(bars, key=lambda b: level_order(b[0])))
            for what, bars in groups.items()], size


def draw_chart(path, all_results, memcpy, secs, ratios, meta):
    """Draw the PNG; returns [(panel title, [series labels])], what it drew."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullLocator

    def number(x, _pos=None):
        return "%g" % x

    drawn = []
    panels = plan_panels(all_results, memcpy, secs)
    # each API's plans from a new row: r300 (direct, indexed), gx (vec4, packed), maxwell
    ncols = 4
    cells = []
    api = None
    for what in panels:
        if what.split("-")[0] != api and cells:
            cells += [None] * (-len(cells) % ncols)
        api = what.split("-")[0]
        cells.append(what)
    cells += [None] * (-len(cells) % ncols)
    plan_rows = len(cells) // ncols
    bars = [(groups, size, family) for family in ("texture", "texel")
            for groups, size in [bar_groups(all_results, family, ratios)] if groups]
    bar_lines = [sum(len(g) + 1 for _, g in groups) + 5 for groups, _, _ in bars]
    bar_height = 1.3 + 0.1 * max(bar_lines) if bars else 0
    plan_height = 3.4
    heights = [plan_height] * plan_rows + ([bar_height] if bars else [])
    if not heights:
        print("summary.py: nothing to draw (no plan, texture or texel benchmarks)", file=sys.stderr)
        return drawn
    title_height = 0.9
    total = sum(heights) + title_height + 0.55
    fig = plt.figure(figsize=(4.6 * ncols, total), dpi=100)
    grid = fig.add_gridspec(len(heights), ncols, height_ratios=heights,
                            top=1 - title_height / total, bottom=0.55 / total, left=0.04,
                            right=0.99, hspace=0.8 * len(heights) / sum(heights), wspace=0.2)
    fig.suptitle(chart_title(meta), fontsize=13, y=1 - 0.12 / total, va="top")

    for i, what in enumerate(cells):
        if what is None:
            continue
        p = panels[what]
        ax = fig.add_subplot(grid[i // ncols, i % ncols])
        labels = []
        levels, tiers = [], []
        for isa in sorted(p["series"], key=level_order):
            if isa == "ref":
                continue
            pts = sorted(p["series"][isa].items())
            level, _, tier = isa.partition("-")
            style, marker = TIER_STYLES.get(tier, ("--", "d"))
            ax.plot([n for n, _ in pts], [v for _, v in pts], linestyle=style, marker=marker,
                    markersize=3.5, linewidth=1.4, color=LEVEL_COLORS.get(level, "tab:olive"))
            labels.append(isa)
            levels += [level] if level not in levels else []
            tiers += [tier] if tier not in tiers else []
        if p["memcpy"]:
            pts = sorted(p["memcpy"].items())
            ax.plot([n for n, _ in pts], [v for _, v in pts], **MEMCPY_STYLE)
            labels.append("memcpy")
        # the scalar reference; an indexed R300 plan has none (it runs from sse41): the direct
        # draw's reference, said so
        ref, ref_label = p["series"].get("ref"), "ref (scalar)"
        if ref is None and what.endswith("-indexed") and what[:-len("-indexed")] in panels:
            ref = panels[what[:-len("-indexed")]]["series"].get("ref")
            ref_label = "ref (direct draw)"
        if ref:
            pts = sorted(ref.items())
            ax.plot([n for n, _ in pts], [v for _, v in pts], **REF_STYLE)
            labels.append("ref" if ref is p["series"].get("ref") else "ref-direct")
        # the legend: a colour per level (the plan as created, solid), a line style per tier,
        # the two baselines; it sits in headroom above the highest line
        handles = [Line2D([], [], color=LEVEL_COLORS.get(l, "tab:olive"), marker="o",
                          markersize=3.5, linewidth=1.4, label=l) for l in levels]
        handles += [Line2D([], [], color="0.3", linestyle=TIER_STYLES.get(t, ("--", "d"))[0],
                           marker=TIER_STYLES.get(t, ("--", "d"))[1], markersize=3.5,
                           linewidth=1.4, label="-" + t)
                    for t in sorted(tiers, key=lambda t: level_order("x-" + t)) if t]
        if p["memcpy"]:
            handles.append(Line2D([], [], label="memcpy (same bytes)", **MEMCPY_STYLE))
        if ref:
            handles.append(Line2D([], [], label=ref_label, **REF_STYLE))
        values = [v for s in p["series"].values() for v in s.values()] + \
            list(p["memcpy"].values()) + (list(ref.values()) if ref else [])
        ax.set_yscale("log")
        ax.set_ylim(min(values) / 1.6, max(values) * 9)
        counts = sorted({n for s in p["series"].values() for n in s})
        ax.set_xscale("log")
        ax.set_xlim(counts[0] / 1.5, counts[-1] * 1.5)
        ax.xaxis.set_major_locator(FixedLocator(counts))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_major_formatter(FuncFormatter(number))
        ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_minor_locator(NullLocator())
        ax.yaxis.set_major_formatter(FuncFormatter(number))
        ax.set_xlabel("vertices per call", fontsize=8, labelpad=1)
        ax.set_ylabel("Mverts/s", fontsize=8, labelpad=1)
        ax.tick_params(labelsize=7.5)
        ax.grid(True, alpha=0.3)
        ax.set_title("plan/" + what, fontsize=10, pad=3)
        ax.legend(handles=handles, fontsize=6.5, ncol=3 if len(handles) <= 6 else 4, loc="upper left", framealpha=0.8,
                  handlelength=2.4, columnspacing=0.9, borderaxespad=0.3)
        drawn.append(("plan/" + what, labels))

    for k, (groups, size, family) in enumerate(bars):
        if len(bars) > 1:
            # the shorter panel on top of its half, the key to the chart below it
            rows = max(bar_lines)
            # (room on the left for the formats' names)
            sub = grid[len(heights) - 1, 2 * k:2 * k + 2].subgridspec(
                2, 2, height_ratios=[bar_lines[k] + 13, rows - bar_lines[k] + 1e-3],
                width_ratios=[0.08, 0.92], hspace=0, wspace=0)
            ax = fig.add_subplot(sub[0, 1])
            if bar_lines[k] + 13 < 0.7 * rows:
                key = fig.add_subplot(sub[1, :])
                key.axis("off")
                key.text(0.03, 0.9, CHART_KEY, fontsize=10.5, va="top", linespacing=1.5,
                         transform=key.transAxes)
        else:
            ax = fig.add_subplot(grid[len(heights) - 1, :])
        y = 0
        ticks, ticklabels, levels = [], [], []
        for what, group in groups:
            first = y
            for isa, vs_memcpy in group:
                level = isa.partition("-")[0]
                ax.barh(y, vs_memcpy, height=0.85, color=LEVEL_COLORS.get(level, "tab:olive"))
                ax.text(vs_memcpy * 1.02, y, "%.2f" % vs_memcpy, va="center", fontsize=5.5)
                levels += [level] if level not in levels else []
                y += 1
            ticks.append((first + y - 1) / 2)
            ticklabels.append(what[3:] if family == "texture" and what.startswith("gx-")
                              else what)
            y += 1  # a gap between formats
        ax.axvline(1.0, **MEMCPY_STYLE)
        ax.set_yticks(ticks)
        ax.set_yticklabels(ticklabels, fontsize=7)
        ax.set_ylim(y + 4.5, -1)  # the last rows: the legend's
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_major_formatter(FuncFormatter(number))
        ax.set_xlim(right=ax.get_xlim()[1] * 1.15)
        ax.set_xlabel("x memcpy of the same output bytes (log; right of the dashed line: "
                      "faster than memcpy)", fontsize=8)
        ax.tick_params(axis="x", labelsize=7.5)
        ax.grid(True, axis="x", alpha=0.3)
        title = ("texture/gx-<format>: GX textures decoded to RGBA8, %s" % size
                 if family == "texture" else
                 "texel/<format>-<out>: R300 texel formats to RGBA8 or f32, %s texels" % size)
        ax.set_title(title + "; each level with its own kernel", fontsize=10, pad=3)
        levels.sort(key=level_order)
        handles = [Patch(color=LEVEL_COLORS.get(l, "tab:olive"), label=l)
                   for l in levels]
        handles.append(Line2D([], [], label="memcpy (1x)", **MEMCPY_STYLE))
        ax.legend(handles=handles, fontsize=7.5, loc="lower right", framealpha=0.85,
                  ncol=min(len(handles), 5))
        drawn.append(("%s/%s" % (family, size), levels + ["memcpy"]))

    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return drawn


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default=os.path.join(here, "..", "build-main", "bench", "vfetch_bench"))
    ap.add_argument("--json", default=None,
                    help="where to write the JSON (default vfetch-bench.json; none with --from-json)")
    ap.add_argument("--from-json", metavar="FILE", default=None,
                    help="print (and draw) from a JSON an earlier --json wrote, running nothing")
    ap.add_argument("--chart", metavar="FILE.png", default=None,
                    help="draw the plans' Mverts/s against vertex count and the texture formats "
                         "against memcpy into one PNG (needs matplotlib)")
    ap.add_argument("--chart-list", action="store_true",
                    help="with --chart: each panel and its series on stderr, a line each")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--filter", default=None, help="only benchmarks whose name matches")
    ap.add_argument("--tables", action="store_true", help="every family's table after the digest")
    ap.add_argument("--digest", action="store_true", help="the digest even with --filter")
    args = ap.parse_args()
    if args.from_json and (args.json or args.full):
        ap.error("--from-json runs nothing: no --json or --full with it")
    if args.chart and not args.from_json and not chart_available():
        # said now, before minutes of benchmarks; the digest still prints, then the exit fails
        print("summary.py: --chart needs matplotlib, which %s cannot import (Debian: apt-get "
              "install python3-matplotlib, for /usr/bin/python3); no chart will be drawn" %
              sys.executable, file=sys.stderr, flush=True)

    if args.from_json:
        with open(args.from_json) as f:
            json_parts = json.load(f)
        ctx = json_parts[0].get("context", {}) if json_parts else {}
        meta = dict(ctx.get("vfetch_summary", {}))
        # a JSON without the summary's own record (written before it kept one): what Google
        # Benchmark recorded, and repetitions seen in the aggregates
        meta.setdefault("num_cpus", ctx.get("num_cpus"))
        meta.setdefault("date", ctx.get("date"))
        meta.setdefault("repetitions", 3 if any(b.get("run_type") == "aggregate"
                                                for d in json_parts
                                                for b in d.get("benchmarks", [])) else 1)
        all_results, spreads = collect_results(json_parts, meta["repetitions"])
        if args.filter:
            all_results = {n: b for n, b in all_results.items() if re.search(args.filter, n)}
        json_name = args.from_json
    else:
        meta = {"cpu_model": cpu_model(), "commit": git_commit(here),
                "load_before": os.getloadavg()[0], "full": args.full, "filter": args.filter}
        min_time = 0.2 if args.full else 0.02
        meta["repetitions"] = 3 if args.full else 1
        json_parts = []
        for family in FAMILIES:
            if args.filter:
                regex = args.filter
            elif family == "kernel":
                regex = "^(kernel/.*/4096|baseline/memcpy/-/65536)$" if not args.full else "^(kernel/|baseline/)"
            elif family == "plan":
                regex = "^(plan/|baseline/)"
            elif family == "texel":
                regex = "^(texel/.*/65536|baseline/)" if not args.full else "^(texel/|baseline/)"
            elif family == "texture":
                # quick: 256x256 and its baseline only, to keep the main job short (1024x1024
                # adds the memory, 8x8 the call's cost; --full has both)
                regex = ("^(texture/.*/256x256|baseline/memcpy/-/262144)$" if not args.full
                         else "^(texture/|baseline/)")
            elif family == "replay":
                regex = "^replay/"
            else:
                regex = "^compile/"
            label = "matching" if args.filter else family
            run_family(args.bench, label, regex, min_time, meta["repetitions"], json_parts)
            if args.filter:
                break
        meta["load_after"] = os.getloadavg()[0]
        ctx = json_parts[0].get("context", {}) if json_parts else {}
        meta["num_cpus"] = ctx.get("num_cpus", os.cpu_count() or 1)
        meta["date"] = ctx.get("date")
        all_results, spreads = collect_results(json_parts, meta["repetitions"])
        if args.digest or not args.filter:
            # the JIT's coverage of the GX plans (the peer kit's configs in every layout)
            meta["jit_coverage"] = subprocess.run(
                [args.bench, "--jit-coverage"], stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL).stdout.decode().strip().splitlines()
            # the measured choices, compiled in several processes (tier_differences)
            meta["jit_tiers"] = [
                [line for line in subprocess.run(
                    [args.bench, "--jit-tiers"], stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL).stdout.decode().splitlines()
                 if line.startswith("tier:")]
                for _ in range(TIER_PROCESSES)]
            # the regret candidates timed again, so that a phase of the machine is not
            # reported as a regret
            meta["regret_confirm"] = confirm_regrets(args.bench, all_results, bench_secs)
        # what the digest and the chart need beyond Google Benchmark's own record, so that
        # --from-json prints and draws what this run does
        if json_parts:
            json_parts[0].setdefault("context", {})["vfetch_summary"] = meta
        json_name = args.json or "vfetch-bench.json"
        with open(json_name, "w") as f:
            json.dump(json_parts, f, indent=1)

    secs = bench_secs

    memcpy = {}
    for name, b in all_results.items():
        parts = name.split("/")
        if parts[0] == "baseline":
            memcpy[int(parts[3])] = secs(b)

    def ns_text(ns):
        # short draws take tens of nanoseconds: keep a decimal there
        return "%.1f" % ns if ns < 100 else "%.0f" % ns

    def ref_of(parts):
        ref_name = "/".join([parts[0], parts[1], "ref"] + parts[3:])
        return ref_name, all_results.get(ref_name)

    def per_call(name):
        """Vertices (or texels) and output bytes one call handles."""
        b = all_results[name]
        last = name.split("/")[-1]
        units = b.get("texels") or (float(last) if last.isdigit() else 0.0)
        return units, b.get("out_bytes", 0.0)

    def ratios(name):
        """Seconds per call, x memcpy (None without a baseline), x ref (None without one)."""
        t = secs(all_results[name])
        _, out_bytes = per_call(name)
        mc = memcpy.get(int(out_bytes)) if out_bytes else None
        ref_name, ref = ref_of(name.split("/"))
        return t, (mc / t if mc else None), (secs(ref) / t if ref and ref_name != name else None)

    def fmt(x, digits=2):
        return ("%%.%df" % digits) % x if x is not None else "-"

    def geomean(xs):
        xs = [x for x in xs if x]
        return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None

    def print_tables():
        for family in FAMILIES:
            names = [n for n in all_results if n.split("/")[0] == family]
            if not names:
                continue
            print()
            if family == "replay":
                print("%-44s %7s %9s %9s %10s %8s %9s" % (
                    family, "draws", "vertices", "ns/draw", "Mverts/s", "x ref", "compiles"))
                for name in names:
                    b = all_results[name]
                    t, _, vs_ref = ratios(name)
                    draws = b.get("draws", 0.0)
                    vertices = b.get("vertices", 0.0)
                    print("%-44s %7d %9d %9s %10.1f %8s %9.0f" % (
                        name, draws, vertices, ns_text(t * 1e9 / draws) if draws else "-",
                        vertices / t / 1e6, fmt(vs_ref, 1), b.get("compiles", 0.0)))
                continue
            if family == "compile":
                # registers to a plan: a time per compile; no vertices, no output bytes
                print("%-44s %10s" % (family, "ns/call"))
                for name in names:
                    print("%-44s %10s" % (name, ns_text(secs(all_results[name]) * 1e9)))
                continue
            if family == "plan":
                # each packed row right after the vec4 row it is a variant of
                order = {n: i for i, n in enumerate(names)}

                def plan_key(n):
                    parts = n.split("/")
                    packed = parts[1].endswith(PACKED)
                    vec4 = "/".join([parts[0], parts[1][:-len(PACKED)]] + parts[2:]) if packed else n
                    return (order.get(vec4, order[n]), packed)
                names.sort(key=plan_key)
            if family == "texture":
                # GX textures decode to RGBA8 only: x memcpy is of the texels' RGBA8 size already
                print("%-44s %10s %8s %9s %8s %10s" % (family, "Mtexels/s", "GB/s", "x memcpy",
                                                       "x ref", "ns/call"))
                for name in names:
                    texels, out_bytes = per_call(name)
                    t, vs_memcpy, vs_ref = ratios(name)
                    print("%-44s %10.1f %8.2f %9s %8s %10s" % (
                        name, texels / t / 1e6, out_bytes / t / 1e9, fmt(vs_memcpy), fmt(vs_ref, 1),
                        ns_text(t * 1e9)))
                continue
            if family == "texel":
                # texels, and the ratio to memcpy of the texels' RGBA8 size (the issue's yardstick
                # for every format, whatever its output)
                print("%-44s %10s %8s %9s %9s %8s %10s" % (family, "Mtexels/s", "GB/s", "x memcpy",
                                                           "x memcpy8", "x ref", "ns/call"))
                for name in names:
                    texels, out_bytes = per_call(name)
                    t, vs_memcpy, vs_ref = ratios(name)
                    mc8 = memcpy.get(int(texels) * 4) if texels else None
                    print("%-44s %10.1f %8.2f %9s %9s %8s %10s" % (
                        name, texels / t / 1e6, out_bytes / t / 1e9, fmt(vs_memcpy),
                        fmt(mc8 / t if mc8 else None), fmt(vs_ref, 1), ns_text(t * 1e9)))
                continue
            print("%-44s %10s %8s %9s %8s %10s" % (family, "Mverts/s", "GB/s", "x memcpy", "x ref", "ns/call"))
            for name in names:
                vertices, out_bytes = per_call(name)
                t, vs_memcpy, vs_ref = ratios(name)
                print("%-44s %10.1f %8.2f %9s %8s %10s" % (
                    name, vertices / t / 1e6, out_bytes / t / 1e9, fmt(vs_memcpy), fmt(vs_ref, 1),
                    ns_text(t * 1e9)))
            confirm = meta.get("regret_confirm")
            if family == "plan" and regret_rows(all_results, secs, confirm)[0]:
                cells, candidates, regrets = regret_rows(all_results, secs, confirm)
                print()
                print("regret rows: %d of %d (plan, level, count) cells%s" % (
                    len(regrets), cells, " (%d in the run, timed again)" % candidates
                    if confirm is not None else ""))
                for row in regrets:
                    print("  " + regret_text(row, ns_text))
    if args.digest or not args.filter:
        print_digest(all_results, meta, spreads, per_call, ratios, secs, fmt, geomean, ns_text)
        cov = meta.get("jit_coverage", [])
        for line in cov:
            print(line)
        if cov:
            print()
    if args.tables or args.filter:
        print_tables()
        print()
        print("raw JSON: %s" % json_name)
    else:
        print("every table: %s --tables; raw JSON: %s" % (os.path.basename(sys.argv[0]), json_name))
    sys.stdout.flush()
    if not args.chart:
        return 0
    if not chart_available():
        print("summary.py: no chart: matplotlib cannot be imported by %s (Debian: apt-get install "
              "python3-matplotlib)" % sys.executable, file=sys.stderr)
        return 1
    series = draw_chart(args.chart, all_results, memcpy, secs, ratios, meta)
    if args.chart_list:
        for title, labels in series:
            print("chart panel %s: %s" % (title, ", ".join(labels)), file=sys.stderr)
    print("chart: %s (%d panels)" % (args.chart, len(series)))
    return 0 if series else 1


if __name__ == "__main__":
    sys.exit(main())
