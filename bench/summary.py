#!/usr/bin/env python3
"""Run vfetch_bench and print a digest, then (on request) one ratio table per family.

One clock for every column: each benchmark's wall time per call (Google Benchmark's
real_time); vertices, texels and output bytes per call come from the benchmark's name and
counters, so Mverts/s, GB/s and ns/call always agree.

The digest (first, under 60 lines): for every whole plan its best level at 4,096 vertices
(Mverts/s, the ratio to memcpy of the same output bytes measured in the same process, the
ratio to the scalar reference) and its time per 16-vertex call at that level; one line each
for the per-op kernels, the texel formats and the GX texture formats (geometric means); the
replay of the real Wii captures; registers to plan; the JIT's coverage of the GX plans
(vfetch_bench --jit-coverage); and a line on how busy the machine was
(load average before and after, the spread of repetitions under --full).

The tables (--tables, or any --filter): for every benchmark named family/what/isa/count,
Mverts/s, GB/s, x memcpy, x ref and ns per call; the replay table draws and vertices per
pass, ns per draw, Mverts/s; the compile table the time of one compile. The JSON file holds
what vfetch_bench printed: a JSON array with one Google Benchmark document per family run.

    bench/summary.py [--bench PATH] [--json OUT] [--full] [--tables] [--filter REGEX] [--digest]

Default: a quick run (min time 0.02 s per benchmark, 4096-vertex kernels, all plan sizes,
65,536-texel texels, 256x256 GX textures, the replay). --full: every benchmark, min time 0.2 s,
3 repetitions (the median is reported).
"""
import argparse
import json
import math
import os
import subprocess
import sys

FAMILIES = ["kernel", "plan", "prim", "texel", "texture", "replay", "compile"]
PACKED = "-packed"


def run_family(bench, family, regex, min_time, repetitions, json_parts, spreads):
    cmd = [bench, "--benchmark_format=json", "--benchmark_filter=" + regex,
           "--benchmark_min_time=%g" % min_time]
    if repetitions > 1:
        cmd += ["--benchmark_repetitions=%d" % repetitions, "--benchmark_report_aggregates_only=true"]
    print("running %s benchmarks ..." % family, file=sys.stderr, flush=True)
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE).stdout.decode()
    # stdout is the JSON alone (vfetch_bench's own line goes to stderr)
    if not out.strip():
        # nothing matched: e.g. replay/ without the captures (vfetch_bench said so on stderr)
        print("no %s benchmarks" % family, file=sys.stderr, flush=True)
        return {}
    data = json.loads(out)
    json_parts.append(data)
    results = {}
    for b in data["benchmarks"]:
        name = b.get("run_name", b["name"])
        if repetitions > 1 and b.get("aggregate_name") == "cv":
            spreads.append(b["real_time"])  # the repetitions' coefficient of variation
        if repetitions > 1 and b.get("aggregate_name") != "median":
            continue
        if b.get("error_occurred"):
            continue
        results[name] = b
    return results


PLAN_SIZE = 4096   # the digest's throughput size
SHORT_SIZE = 16    # and its short draw


def print_digest(all_results, json_parts, spreads, load_before, reps, per_call, ratios, secs,
                 fmt, geomean, ns_text):
    """The digest: best level per plan, kernels and texels in a line each, replay, compile."""
    ctx = json_parts[0].get("context", {}) if json_parts else {}
    cpus = ctx.get("num_cpus", os.cpu_count() or 1)
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            model = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load_after = os.getloadavg()[0]
    busy = max(load_before, load_after) > 0.5 * cpus
    print("vfetch_bench digest: %s, %d CPUs; every column from wall time per call" % (model, cpus))
    spread = ("repetitions' spread (coefficient of variation) median %.1f %%, worst %.1f %%" %
              (100 * sorted(spreads)[len(spreads) // 2], 100 * max(spreads))
              if spreads else "one run per benchmark (--full repeats each 3 times)")
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


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default=os.path.join(here, "..", "build-main", "bench", "vfetch_bench"))
    ap.add_argument("--json", default="vfetch-bench.json")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--filter", default=None, help="only benchmarks whose name matches")
    ap.add_argument("--tables", action="store_true", help="every family's table after the digest")
    ap.add_argument("--digest", action="store_true", help="the digest even with --filter")
    args = ap.parse_args()
    load_before = os.getloadavg()[0]

    min_time = 0.2 if args.full else 0.02
    reps = 3 if args.full else 1
    json_parts = []
    spreads = []
    all_results = {}
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
            # quick: 256x256 and its baseline only, to keep the main job short (1024x1024 adds
            # the memory, 8x8 the call's cost; --full has both)
            regex = ("^(texture/.*/256x256|baseline/memcpy/-/262144)$" if not args.full
                     else "^(texture/|baseline/)")
        elif family == "replay":
            regex = "^replay/"
        else:
            regex = "^compile/"
        label = "matching" if args.filter else family
        all_results.update(run_family(args.bench, label, regex, min_time, reps, json_parts,
                                      spreads))
        if args.filter:
            break

    with open(args.json, "w") as f:
        json.dump(json_parts, f, indent=1)

    def secs(b):
        unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]
        return b["real_time"] * unit

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

    if args.digest or not args.filter:
        print_digest(all_results, json_parts, spreads, load_before, reps, per_call, ratios,
                     secs, fmt, geomean, ns_text)
        # the JIT's coverage of the GX plans (the peer kit's configs in every layout)
        cov = subprocess.run([args.bench, "--jit-coverage"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout.decode().strip().splitlines()
        for line in cov:
            print(line)
        if cov:
            print()
    if not (args.tables or args.filter):
        print("every table: %s --tables; raw JSON: %s" % (os.path.basename(sys.argv[0]), args.json))
        return 0

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
                t = secs(b)
                draws = b.get("draws", 0.0)
                vertices = b.get("vertices", 0.0)
                ref_name, ref = ref_of(name.split("/"))
                vs_ref = secs(ref) / t if ref and ref_name != name else None
                print("%-44s %7d %9d %9s %10.1f %8s %9.0f" % (
                    name, draws, vertices, ns_text(t * 1e9 / draws) if draws else "-",
                    vertices / t / 1e6, "%.1f" % vs_ref if vs_ref is not None else "-",
                    b.get("compiles", 0.0)))
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
                b = all_results[name]
                t = secs(b)
                out_bytes = b.get("out_bytes", 0.0)
                texels = b.get("texels", 0.0)
                ref_name, ref = ref_of(name.split("/"))
                vs_ref = secs(ref) / t if ref and ref_name != name else None
                mc = memcpy.get(int(out_bytes)) if out_bytes else None
                mc8 = memcpy.get(int(texels) * 4) if texels else None
                print("%-44s %10.1f %8.2f %9s %9s %8s %10s" % (
                    name, texels / t / 1e6, out_bytes / t / 1e9,
                    "%.2f" % (mc / t) if mc else "-", "%.2f" % (mc8 / t) if mc8 else "-",
                    "%.1f" % vs_ref if vs_ref is not None else "-", ns_text(t * 1e9)))
            continue
        print("%-44s %10s %8s %9s %8s %10s" % (family, "Mverts/s", "GB/s", "x memcpy", "x ref", "ns/call"))
        for name in names:
            vertices, out_bytes = per_call(name)
            t, vs_memcpy, vs_ref = ratios(name)
            print("%-44s %10.1f %8.2f %9s %8s %10s" % (
                name, vertices / t / 1e6, out_bytes / t / 1e9, fmt(vs_memcpy), fmt(vs_ref, 1),
                ns_text(t * 1e9)))
    print()
    print("raw JSON: %s" % args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
