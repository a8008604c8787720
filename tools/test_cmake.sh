#!/usr/bin/env bash
# The CMake way in, as a consumer takes it (README, "Using vfetch"): `meson install` of the
# build BUILD staged into a directory of its own, then tests/cmake (find_package(vfetch),
# vfetch::vfetch) configured against it with CMAKE_PREFIX_PATH, built and run.
#
#   bash tools/test_cmake.sh BUILD        exit 0 pass, 1 fail, 77 skip (no cmake)
set -uo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:?usage: test_cmake.sh BUILD}" && pwd)
command -v cmake >/dev/null || { echo "cmake not installed (apt-get install -y cmake)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$(meson introspect "$build" --buildoptions |
         python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
meson install -C "$build" --no-rebuild --quiet --destdir "$work/stage" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; echo "meson install failed"; exit 1; }
cmake -S tests/cmake -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/stage$prefix" \
    -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; echo "cmake configure failed"; exit 1; }
cmake --build "$work/consumer" >"$work/build.log" 2>&1 ||
    { cat "$work/build.log"; echo "cmake build failed"; exit 1; }
"$work/consumer/vfetch_consumer"
