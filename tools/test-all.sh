#!/usr/bin/env bash
# Install what is missing, build from scratch, run every test. Ends with
# "N passed, N failed, N skipped" (skipped: meson's SKIP, a test that exited 77, e.g. gx-fifo
# without ../shared/testdata/gx; never hidden, and every one is listed above that line).
#
# Builds, each running `meson test` (-Dguard_stages=true: the library's internal stages sit
# between PROT_NONE pages, so an overrun crashes; ASan watches the stack stages itself):
#   build-test     gcc, release: every test, every ISA level this CPU has
#   build-nonative SIMD kernels compiled with SIMDE_NO_NATIVE (SIMDe's portable emulation), -O2,
#                  and -Djit=disabled: the x86-64 build without the JIT tier passes every test
#   build-tsan     clang, ThreadSanitizer (the threads test; only what it needs is built)
#   build-aarch64  cross-compiled for aarch64 (NEON kernels), run under qemu-aarch64-static
#   build-i386     cross-compiled for 32-bit x86 (32-bit size_t; levels c..avx2 built and run:
#                  qemu has no AVX-512), run under qemu-i386-static
#                  (both with checkasm's quick mode, VFETCH_CHECKASM_QUICK=1, as build-fuzz,
#                  and the texel test's, VFETCH_TEST_QUICK=1: samples of its largest sweeps)
#   build-fuzz     clang, AddressSanitizer + UndefinedBehaviorSanitizer with libFuzzer's
#                  coverage: every test, then each target of tests/fuzz fuzzed for
#                  FUZZ_SECONDS (default 20) by tools/fuzz.sh in the same build; each target
#                  counts as one test (one sanitizer build serves both: compiling the library
#                  under the sanitizers is most of a build's time)
set -uo pipefail
cd "$(dirname "$0")/.."

packages=(meson ninja-build pkg-config cmake python3 python3-matplotlib gcc g++ clang libclang-rt-14-dev
          libsimde-dev libbenchmark-dev libfp16-dev libpng-dev libzydis-dev
          gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static
          gcc-i686-linux-gnu libc6-dev-i386-cross)
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
skipped=0
skipped_names=()

# Add the results of one build's testlog.json to the totals.
count_results() {
    local log="$1/meson-logs/testlog.json"
    if [ ! -f "$log" ]; then
        failed=$((failed + 1))
        return
    fi
    local p f s names
    read -r p f s names < <(python3 - "$log" <<'PY'
import json, sys
p = f = 0
skips = []
for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        continue
    r = json.loads(line)
    if r["result"] in ("OK", "EXPECTEDFAIL"):
        p += 1
    elif r["result"] == "SKIP":
        skips.append(r["name"])
    else:
        f += 1
print(p, f, len(skips), " ".join(skips))
PY
)
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
    for n in $names; do skipped_names+=("$1/$n"); done
}

# build NAME [meson setup args...] -- [meson test args...]; with targets in BUILD_TARGETS, only
# those are built (and the tests run without rebuilding). BESIDE_TESTS: a command run in the
# background once the build is done, while the tests run (the tests then never rebuild).
run_build() {
    local dir="$1"; shift
    local setup=() tests=() targets=(${BUILD_TARGETS:-})
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do setup+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    tests=("$@")
    [ ${#targets[@]} -gt 0 ] && tests=(--no-rebuild "${tests[@]}")
    echo "=== $dir: meson setup ${setup[*]}"
    rm -rf "$dir"
    local b0 b1
    b0=$(date +%s)
    if ! meson setup "$dir" "${setup[@]}" >"$dir.setup.log" 2>&1 || ! ninja -C "$dir" "${targets[@]}" >"$dir.build.log" 2>&1; then
        echo "build failed: see $dir.setup.log / $dir.build.log"
        tail -20 "$dir.build.log" 2>/dev/null || tail -20 "$dir.setup.log"
        failed=$((failed + 1))
        return
    fi
    b1=$(date +%s)
    local beside=
    if [ -n "${BESIDE_TESTS:-}" ]; then
        bash -c "$BESIDE_TESTS" &
        beside=$!
        [ ${#targets[@]} -gt 0 ] || tests=(--no-rebuild "${tests[@]}")
    fi
    meson test -C "$dir" --print-errorlogs "${tests[@]}" | grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:|^Timeout:"
    echo "$dir: build $((b1 - b0)) s, tests $(( $(date +%s) - b1 )) s"
    [ -z "$beside" ] || wait "$beside"
    count_results "$dir"
}

export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1
export TSAN_OPTIONS=halt_on_error=1

# The AVX-512 kernels are compiled by build-test everywhere (a compile check, and run where the
# CPU has the level); the other builds compile them only where this CPU runs them (F, BW, DQ,
# VL and VBMI, as lib/cpu.c asks; qemu-i386 never does): compiled and never run they added some
# three minutes to a run on a CPU without AVX-512 and proved nothing build-test does not.
avx512_here=-Davx512=auto
flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
for f in avx512f avx512dq avx512bw avx512vl avx512vbmi; do
    case "$flags" in *" $f "*) ;; *) avx512_here=-Davx512=disabled ;; esac
done

t0=$(date +%s)
run_build build-test --buildtype=release -Dguard_stages=true
# -O2: SIMDe's portable code at -O3 took four times as long to compile (75 s against 17 s for
# the avx512 record program) for the same semantics, which is what this build checks.
run_build build-nonative -Doptimization=2 -Ddebug=false -Dsimde_no_native=true -Djit=disabled \
    -Dbench=disabled -Dguard_stages=true "$avx512_here"
# ThreadSanitizer at -O1 with line tables (what its documentation suggests; the library's
# compile at -O2 -g was most of this build's time).
if [ -f tests/test_threads.c ]; then
    BUILD_TARGETS=tests/test_threads CC=clang run_build build-tsan -Doptimization=1 -Ddebug=false \
        -Dc_args=-gline-tables-only -Db_sanitize=thread -Db_lundef=false -Dbench=disabled \
        "$avx512_here" -- threads
fi
# Under qemu checkasm runs its quick mode (fewer random formats, byte orders and shifts; every
# kernel and record loop variant still at every level): the native builds above run it whole.
VFETCH_CHECKASM_QUICK=1 VFETCH_TEST_QUICK=1 run_build build-aarch64 --cross-file cross/aarch64-linux-gnu.ini \
    --buildtype=release -Dbench=disabled -Dguard_stages=true
t1=$(date +%s)
VFETCH_CHECKASM_QUICK=1 VFETCH_TEST_QUICK=1 run_build build-i386 --cross-file cross/i686-linux-gnu.ini \
    --buildtype=release -Dbench=disabled -Dguard_stages=true -Davx512=disabled
echo "build-i386: $(( $(date +%s) - t1 )) s"
t1=$(date +%s)
# checkasm in its quick mode here too: the native builds above run it whole; under ASan it is
# every kernel and record loop variant at every level, with fewer random formats.
# Configured as tools/fuzz.sh configures it (tools/fuzz_setup.sh). The fuzzers run beside the
# tests (two cores, four processes: each target gets its FUZZ_SECONDS of wall time, with less
# of the CPU while the tests run).
source tools/fuzz_setup.sh
rm -f build-fuzz.log
VFETCH_CHECKASM_QUICK=1 CC=clang \
    BESIDE_TESTS="FUZZ_REUSE=1 bash tools/fuzz.sh ${FUZZ_SECONDS:-20} > build-fuzz.log 2>&1" \
    run_build build-fuzz "${fuzz_setup_args[@]}" "$avx512_here"
echo "=== build-fuzz: tools/fuzz.sh ${FUZZ_SECONDS:-20} (beside the tests)"
touch build-fuzz.log
cat build-fuzz.log
fuzz_ok=$(grep -cE '^[a-z0-9_]+ +ok ' build-fuzz.log)
fuzz_failed=$(grep -cE '^[a-z0-9_]+ +FAILED ' build-fuzz.log)
[ "$fuzz_ok" -eq 0 ] && [ "$fuzz_failed" -eq 0 ] && fuzz_failed=1 # it did not even build
passed=$((passed + fuzz_ok))
failed=$((failed + fuzz_failed))
echo "build-fuzz: $(( $(date +%s) - t1 )) s"
echo "total time $(( $(date +%s) - t0 )) s"

# Kernels compiled but never executed (a level this CPU, or qemu, does not have): each build's
# per-level kernel libraries against the levels its checkasm ran. Not failures, but said.
not_run=0
for dir in build-test build-nonative build-aarch64 build-i386 build-fuzz; do
    log="$dir/meson-logs/testlog.txt"
    [ -f "$log" ] || continue
    # checkasm runs a test per level: the levels every one of them ran
    ran=" $(grep -ho 'checkasm: seed [0-9]*, levels:[a-z0-9 ]*' "$log" | sed 's/.*levels://' | tr '\n' ' ') "
    # libvfetch_LEVEL.a and libvfetch_texture_LEVEL.a (the texture kernels, compiled apart)
    for level in $(for lib in "$dir"/lib/libvfetch_*.a; do
                       [ -f "$lib" ] || continue
                       level=${lib##*/libvfetch_}
                       level=${level#texture_}
                       echo "${level%.a}"
                   done | sort -u); do
        case "$ran" in
        *" $level "*) ;;
        *) echo "not run: $dir: the $level kernels were compiled but not executed (this CPU or its emulator lacks $level)"
           not_run=$((not_run + 1)) ;;
        esac
    done
done

# Why each skip happened is in its build's meson-logs/testlog.txt.
for n in "${skipped_names[@]}"; do echo "skipped: $n"; done
[ "$not_run" -gt 0 ] && echo "$not_run compiled kernel levels not executed (listed above)"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
