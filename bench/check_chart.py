#!/usr/bin/env python3
"""Test: summary.py --from-json FIXTURE --chart draws the chart, times nothing.

    check_chart.py SUMMARY_PY FIXTURE_JSON

FIXTURE_JSON (bench/chart-fixture.json) is a real quick run's --json, trimmed: five plans
(r300-r1 with its -perop and -portable rows, r300-r1-indexed, gx-a, gx-a-packed, maxwell-a)
at every level and count, three GX texture and three texel formats, one kernel, a replay and
two compile rows, the memcpy baselines they need, one benchmark a line.

1. Without matplotlib (a stand-in package that fails to import, first on PYTHONPATH): the
   digest still prints, stderr says that matplotlib cannot be imported (no traceback), the
   exit is non-zero and no PNG is written.
2. With matplotlib (else exit 77, meson's SKIP): exit 0; a PNG (signature, IHDR size, more
   than 50 KB); stdout names it with its panel count; --chart-list's lines on stderr give
   every panel with its series, which must be the fixture's: per plan every level and tier it has, memcpy and the
   scalar reference (the indexed plan: the direct draw's, "ref-direct"); per bar panel its
   levels and memcpy.
3. The same JSON drawn twice gives the same bytes (the date, machine and commit come from the
   JSON, not from the time of drawing).
Exits 1 on any failure, printing what it saw.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile


def fail(what, text=""):
    print("FAILED: %s\n%s" % (what, text))
    sys.exit(1)


def expected_series(fixture):
    """{panel: [series]} as summary.py must report them, from the fixture's names alone."""
    names = [b["name"] for part in json.load(open(fixture)) for b in part["benchmarks"]]
    order = ["ref", "plain", "table", "sse2", "sse41", "avx2", "avx512"]
    tiers = ["", "portable", "perop"]

    def key(isa):
        level, _, tier = isa.partition("-")
        return order.index(level), tiers.index(tier)

    plans, bars = {}, {}
    for name in names:
        family, what, isa, count = name.split("/")
        if family == "plan":
            plans.setdefault(what, set()).add(isa)
        elif family in ("texture", "texel"):
            bars.setdefault("%s/%s" % (family, count), set()).add(isa.partition("-")[0])
    panels = {}
    for what, isas in plans.items():
        ref = "ref" if "ref" in isas else "ref-direct"
        panels["plan/" + what] = sorted(isas - {"ref"}, key=key) + ["memcpy", ref]
    for panel, levels in bars.items():
        panels[panel] = sorted(levels, key=key) + ["memcpy"]
    return panels


def main():
    summary, fixture = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        # 1. no matplotlib
        hide = os.path.join(tmp, "hide", "matplotlib")
        os.makedirs(hide)
        with open(os.path.join(hide, "__init__.py"), "w") as f:
            f.write("raise ImportError('matplotlib hidden by check_chart.py')\n")
        png = os.path.join(tmp, "none.png")
        env = dict(os.environ, PYTHONPATH=os.path.dirname(hide))
        run = subprocess.run([sys.executable, summary, "--from-json", fixture, "--chart", png],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        out, err = run.stdout.decode(), run.stderr.decode()
        if run.returncode == 0 or "no chart: matplotlib cannot be imported" not in err or \
                "Traceback" in err or os.path.exists(png) or \
                not out.startswith("vfetch_bench digest: AMD EPYC, 2 CPUs") or \
                "\ngx-a " not in out:
            fail("without matplotlib: exit %d, want the digest, a non-zero exit, a line on "
                 "stderr saying so (no traceback) and no PNG" % run.returncode,
                 "stdout:\n%s\nstderr:\n%s" % (out, err))

        # 2. the chart
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("SKIP: %s cannot import matplotlib (Debian: python3-matplotlib)" %
                  sys.executable)
            sys.exit(77)
        pngs = []
        for i in range(2):
            png = os.path.join(tmp, "chart%d.png" % i)
            run = subprocess.run([sys.executable, summary, "--from-json", fixture,
                                  "--chart", png, "--chart-list"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
            out, err = run.stdout.decode(), run.stderr.decode()
            if run.returncode != 0:
                fail("summary.py --from-json --chart exited %d" % run.returncode, out + err)
            with open(png, "rb") as f:
                pngs.append(f.read())
        data = pngs[0]
        if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
            fail("%s is not a PNG" % png, repr(data[:32]))
        width, height = struct.unpack(">II", data[16:24])
        if not (1000 <= width <= 4000 and 1000 <= height <= 20000) or len(data) < 50000:
            fail("the PNG is %dx%d, %d bytes" % (width, height, len(data)))
        want = expected_series(fixture)
        got = {}
        for line in err.splitlines():
            if line.startswith("chart panel "):
                panel, _, series = line[len("chart panel "):].partition(": ")
                got[panel] = series.split(", ")
        if got != want:
            fail("the panels and series drawn are not the fixture's",
                 "want:\n%s\ngot:\n%s" % (
                     "\n".join("%s: %s" % kv for kv in sorted(want.items())),
                     "\n".join("%s: %s" % kv for kv in sorted(got.items()))))
        if "chart: %s (%d panels)" % (png, len(want)) not in out.splitlines():
            fail("stdout does not say where the chart is", out)
        # 3. the same picture again
        if pngs[0] != pngs[1]:
            fail("the same JSON drew two different PNGs")
    print("chart: %dx%d PNG, %d panels with the fixture's series, the same bytes twice; "
          "without matplotlib the digest and a clear failure: ok" % (width, height, len(want)))


if __name__ == "__main__":
    main()
