#!/usr/bin/env python3
"""Run vfetch_bench and print one ratio table per benchmark family.

For every benchmark named family/what/isa/count it shows Mverts/s, GB/s of output, the ratio
to memcpy of the same output bytes (baseline/memcpy/-/<bytes>, measured in the same process),
the ratio to the scalar reference (the same what/count at isa "ref") and the time per call
(one iteration). In the plan table each packed GX row (plan/gx-<cfg>-packed/...) follows the
vec4 row of the same config, level and size. The replay table (every draw of the real Wii
captures through one vfetch_gx_state) shows draws and vertices per pass, ns per draw and
Mverts/s, both from wall time; the compile table the time of one compile. The raw Google
Benchmark JSON is written beside it.

    bench/summary.py [--bench PATH] [--json OUT] [--full] [--filter REGEX]

Default: a quick run (min time 0.02 s per benchmark, 4096-vertex kernels, all plan sizes, the
replay). --full: every benchmark, min time 0.2 s, 3 repetitions (the median is reported).
"""
import argparse
import json
import os
import subprocess
import sys

FAMILIES = ["kernel", "plan", "texel", "replay", "compile"]
PACKED = "-packed"


def run_family(bench, family, regex, min_time, repetitions, json_parts):
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
        if repetitions > 1 and b.get("aggregate_name") != "median":
            continue
        if b.get("error_occurred"):
            continue
        results[name] = b
    return results


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default=os.path.join(here, "..", "build-main", "bench", "vfetch_bench"))
    ap.add_argument("--json", default="vfetch-bench.json")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--filter", default=None, help="only benchmarks whose name matches")
    args = ap.parse_args()

    min_time = 0.2 if args.full else 0.02
    reps = 3 if args.full else 1
    json_parts = []
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
        elif family == "replay":
            regex = "^replay/"
        else:
            regex = "^compile/"
        label = "matching" if args.filter else family
        all_results.update(run_family(args.bench, label, regex, min_time, reps, json_parts))
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
            b = all_results[name]
            t = secs(b)
            items = b.get("items_per_second", 0.0)
            bps = b.get("bytes_per_second", 0.0)
            out_bytes = b.get("out_bytes", 0.0)
            ref_name, ref = ref_of(name.split("/"))
            vs_ref = secs(ref) / t if ref and ref_name != name else None
            mc = memcpy.get(int(out_bytes)) if out_bytes else None
            vs_memcpy = mc / t if mc else None
            print("%-44s %10.1f %8.2f %9s %8s %10s" % (
                name, items / 1e6, bps / 1e9,
                "%.2f" % vs_memcpy if vs_memcpy is not None else "-",
                "%.1f" % vs_ref if vs_ref is not None else "-", ns_text(t * 1e9)))
    print()
    print("raw JSON: %s" % args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
