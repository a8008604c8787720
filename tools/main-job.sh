#!/usr/bin/env bash
# The main job: install what is missing, build, print the benchmark summary and a demo
# conversion, and draw the benchmark chart (build-main/vfetch-bench.png, beside its JSON).
# Pass --full for the full benchmark set with repetitions.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(meson ninja-build pkg-config python3 python3-matplotlib gcc g++ libsimde-dev libbenchmark-dev
          libfp16-dev libpng-dev libzydis-dev)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    echo "installing: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Only what this job runs: the command-line tool and the benchmark (no test programs).
if [ -d build-main ]; then
    meson setup build-main --reconfigure --buildtype=release -Dbench=enabled -Dtests=disabled >/dev/null
else
    meson setup build-main --buildtype=release -Dbench=enabled -Dtests=disabled >/dev/null
fi
ninja -C build-main tools/vfetch bench/vfetch_bench >/dev/null

echo "== demo =="
build-main/tools/vfetch demo
echo
echo "== texel demo: what a TX_FORMAT1 word means =="
build-main/tools/vfetch explain texel --format1 0xa60f
echo
echo "== benchmark summary =="
# The chart needs matplotlib, which python3-matplotlib installs for Debian's python3: use that
# one when the python3 first on PATH (a pyenv or venv one) cannot import it.
python=python3
if ! python3 -c 'import matplotlib' 2>/dev/null && /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
    python=/usr/bin/python3
fi
# the summary prints where the chart is ("chart: build-main/vfetch-bench.png ...")
"$python" bench/summary.py --bench build-main/bench/vfetch_bench --json build-main/vfetch-bench.json \
    --chart build-main/vfetch-bench.png "$@"
