#!/usr/bin/env bash
# Build the libFuzzer targets (tests/fuzz/fuzz_*.c) with clang + ASan + UBSan in build-fuzz,
# from scratch, and run each one for a bounded time on a temporary copy of its seed corpus.
#
#   bash tools/fuzz.sh [SECONDS]     seconds per target (default 60, or $FUZZ_SECONDS)
#   FUZZ_TARGETS="gx plan"           only these targets
#   FUZZ_JOBS=2                      ninja parallelism (default: ninja's own)
#   FUZZ_PARALLEL=2                  targets fuzzed at once (default: the number of CPUs)
#   FUZZ_REUSE=1                     keep an existing build-fuzz (configured as below)
#
# Prints one line per target with libFuzzer's execution count; exits non-zero if any target
# found a crash, leak, timeout or contract violation, printing the tail of its log and the
# reproducer (kept in build-fuzz/artifacts/). Replay a reproducer with
#   build-fuzz/tests/fuzz/fuzz_<target> <file>
# and add it to tests/fuzz/corpus/<target>/ once fixed, so that it stays a regression test.
set -uo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-${FUZZ_SECONDS:-60}}"
targets=(${FUZZ_TARGETS:-r300 gx gx_state gx_commands plan cli maxwell texel gx_texture prim prim_indexed})
build=build-fuzz
jobs=()
[ -n "${FUZZ_JOBS:-}" ] && jobs=(-j "$FUZZ_JOBS")

# FUZZ_REUSE=1: build-fuzz is already configured this way (tools/test-all.sh builds and tests
# it first): only its fuzz targets are brought up to date.
if [ "${FUZZ_REUSE:-0}" != 1 ] || [ ! -f "$build/build.ninja" ]; then
    rm -rf "$build"
    mkdir -p "$build"
    source tools/fuzz_setup.sh
    if ! CC=clang meson setup "$build" "${fuzz_setup_args[@]}" >"$build-setup.log" 2>&1; then
        echo "fuzz: meson setup failed (see $build-setup.log)"
        tail -20 "$build-setup.log"
        exit 1
    fi
    mv "$build-setup.log" "$build/setup.log"
fi
exes=()
for t in "${targets[@]}"; do exes+=("tests/fuzz/fuzz_$t"); done
if ! ninja -C "$build" "${jobs[@]}" "${exes[@]}" >"$build/build.log" 2>&1; then
    echo "fuzz: build failed (see $build/build.log)"
    tail -20 "$build/build.log"
    exit 1
fi

# Every draw runs both tiers, the generated code and the portable one, and any difference aborts
# (docs/jit.md): the fuzzers check the JIT against the record program as they go.
export VFETCH_JIT="${VFETCH_JIT:-compare}"
export ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$build/artifacts" "$build/logs"
parallel="${FUZZ_PARALLEL:-$(nproc 2>/dev/null || echo 1)}"

# Fuzz the targets, `parallel` at a time; each writes its exit status next to its log.
running=0
for t in "${targets[@]}"; do
    cp -r "tests/fuzz/corpus/$t" "$work/$t"
    (
        "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
            -artifact_prefix="$build/artifacts/$t-" "$work/$t" >"$build/logs/$t.log" 2>&1
        echo $? >"$build/logs/$t.rc"
    ) &
    running=$((running + 1))
    if [ "$running" -ge "$parallel" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait

failed=0
for t in "${targets[@]}"; do
    log="$build/logs/$t.log"
    rc=$(cat "$build/logs/$t.rc" 2>/dev/null || echo 1)
    done_line=$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$log" | tail -1)
    if [ $rc -eq 0 ]; then
        printf '%-10s ok      %s\n' "$t" "${done_line:-?}"
    else
        failed=$((failed + 1))
        printf '%-10s FAILED  exit %d (log %s)\n' "$t" "$rc" "$log"
        grep -E 'ERROR: |FUZZ CONTRACT VIOLATION|runtime error|SUMMARY' "$log" | head -5 | sed 's/^/    /'
        tail -25 "$log" | sed 's/^/    | /'
        grep -o "Test unit written to .*" "$log" | sed 's/^/    reproducer: /; s/Test unit written to //'
    fi
done
echo "fuzz: ${#targets[@]} targets, $failed failed, $seconds s each"
[ $failed -eq 0 ]
