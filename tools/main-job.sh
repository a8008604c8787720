#!/usr/bin/env bash
# The main job: install what is missing, build, print the benchmark summary and a demo
# conversion. Pass --full for the full benchmark set with repetitions.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(meson ninja-build pkg-config python3 gcc g++ libsimde-dev libbenchmark-dev libfp16-dev libpng-dev libzydis-dev)
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
python3 bench/summary.py --bench build-main/bench/vfetch_bench --json build-main/vfetch-bench.json "$@"
