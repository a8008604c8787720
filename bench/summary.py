#!/usr/bin/env python3
"""Run vfetch_bench and print one ratio table per benchmark family.

For every benchmark named family/what/isa/count it shows Mverts/s, GB/s of output, the ratio
to memcpy of the same output bytes (baseline/memcpy/-/<bytes>, measured in the same process)
and the ratio to the scalar reference (the same what/count at isa "ref"). The raw Google
Benchmark JSON is written beside it.

    bench/summary.py [--bench PATH] [--json OUT] [--full] [--filter REGEX]

Default: a quick run (min time 0.02 s per benchmark, 4096-vertex kernels and all plan sizes).
--full: every benchmark, min time 0.2 s, 3 repetitions (the median is reported).
"""
import argparse
import json
import os
import subprocess
import sys

FAMILIES = ["kernel", "plan", "compile"]


def run_family(bench, family, regex, min_time, repetitions, json_parts):
    cmd = [bench, "--benchmark_format=json", "--benchmark_filter=" + regex,
           "--benchmark_min_time=%g" % min_time]
    if repetitions > 1:
        cmd += ["--benchmark_repetitions=%d" % repetitions, "--benchmark_report_aggregates_only=true"]
    print("running %s benchmarks ..." % family, file=sys.stderr, flush=True)
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE).stdout.decode()
    # vfetch_bench prints one line of its own before the JSON
    data = json.loads(out[out.index("{"):])
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
        else:
            regex = "^compile/"
        all_results.update(run_family(args.bench, family, regex, min_time, reps, json_parts))
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

    for family in FAMILIES:
        rows = []
        for name, b in all_results.items():
            parts = name.split("/")
            if parts[0] != family:
                continue
            t = secs(b)
            items = b.get("items_per_second", 0.0)
            bps = b.get("bytes_per_second", 0.0)
            out_bytes = b.get("out_bytes", 0.0)
            ref_name = "/".join([parts[0], parts[1], "ref", parts[3]])
            ref = all_results.get(ref_name)
            vs_ref = secs(ref) / t if ref and ref_name != name else None
            mc = memcpy.get(int(out_bytes)) if out_bytes else None
            vs_memcpy = mc / t if mc else None
            rows.append((name, items / 1e6, bps / 1e9, vs_memcpy, vs_ref, t * 1e9))
        if not rows:
            continue
        print()
        print("%-44s %10s %8s %9s %8s %10s" % (family, "Mverts/s", "GB/s", "x memcpy", "x ref", "ns/call"))
        for r in rows:
            print("%-44s %10.1f %8.2f %9s %8s %10.0f" % (
                r[0], r[1], r[2],
                "%.2f" % r[3] if r[3] is not None else "-",
                "%.1f" % r[4] if r[4] is not None else "-", r[5]))
    print()
    print("raw JSON: %s" % args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
