#!/usr/bin/env bash
# Install what is missing, build from scratch, run every test. Ends with "N passed, N failed".
#
# Builds, each running `meson test`:
#   build-test     gcc, release: every test, every ISA level this CPU has
#   build-asan     gcc, AddressSanitizer + UndefinedBehaviorSanitizer
#   build-nonative SIMD kernels compiled with SIMDE_NO_NATIVE (SIMDe's portable emulation)
#   build-tsan     clang, ThreadSanitizer (the threads test)
#   build-aarch64  cross-compiled for aarch64 (NEON kernels), run under qemu-aarch64-static
set -uo pipefail
cd "$(dirname "$0")/.."

packages=(meson ninja-build pkg-config python3 gcc g++ clang libclang-rt-14-dev
          libsimde-dev libbenchmark-dev libfp16-dev
          gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static)
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

passed=0
failed=0

# Add the results of one build's testlog.json to the totals.
count_results() {
    local log="$1/meson-logs/testlog.json"
    if [ ! -f "$log" ]; then
        failed=$((failed + 1))
        return
    fi
    read -r p f < <(python3 - "$log" <<'PY'
import json, sys
p = f = 0
for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        continue
    r = json.loads(line)["result"]
    if r in ("OK", "EXPECTEDFAIL"):
        p += 1
    elif r != "SKIP":
        f += 1
print(p, f)
PY
)
    passed=$((passed + p))
    failed=$((failed + f))
}

# build NAME [meson setup args...] -- [meson test args...]
run_build() {
    local dir="$1"; shift
    local setup=() tests=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do setup+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    tests=("$@")
    echo "=== $dir: meson setup ${setup[*]}"
    rm -rf "$dir"
    if ! meson setup "$dir" "${setup[@]}" >"$dir.setup.log" 2>&1 || ! ninja -C "$dir" >"$dir.build.log" 2>&1; then
        echo "build failed: see $dir.setup.log / $dir.build.log"
        tail -20 "$dir.build.log" 2>/dev/null || tail -20 "$dir.setup.log"
        failed=$((failed + 1))
        return
    fi
    meson test -C "$dir" --print-errorlogs "${tests[@]}" | grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Timeout:"
    count_results "$dir"
}

export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1
export TSAN_OPTIONS=halt_on_error=1

t0=$(date +%s)
run_build build-test --buildtype=release
run_build build-asan --buildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args=-fno-sanitize-recover=all -Dbench=disabled
run_build build-nonative --buildtype=release -Dsimde_no_native=true -Dbench=disabled
if [ -f tests/test_threads.c ]; then
    CC=clang run_build build-tsan --buildtype=debugoptimized -Db_sanitize=thread -Db_lundef=false \
        -Dbench=disabled -- threads
fi
run_build build-aarch64 --cross-file cross/aarch64-linux-gnu.ini --buildtype=release -Dbench=disabled
echo "total time $(( $(date +%s) - t0 )) s"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
