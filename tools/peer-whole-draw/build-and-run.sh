#!/usr/bin/env bash
# A whole GX draw (vertices and host indices) through Dolphin and through vfetch in one process:
# Dolphin's loader lookup, JIT RunVertices and IndexGenerator::AddIndices against
# vfetch_gx_state_draw_batch (whole_draw.cpp; docs/benchmarks.md, "Whole draws").
#
#   bash tools/peer-whole-draw/build-and-run.sh [SAMPLES]      (from the vfetch checkout)
#
# It links what the two peer kits build (run them first, with their default WORK directories):
# ../shared/peers/dolphin (Dolphin's loaders: $VERTEX_WORK, default /tmp/vfetch-peer-dolphin)
# and ../shared/peers/dolphin-index (IndexGenerator: $INDEX_WORK, default
# /tmp/vfetch-peer-dolphin-index), and compiles against the same kits' stub headers. vfetch is
# built in release under $WORK (default /tmp/vfetch-peer-whole-draw). PIN=1 (taskset CPU; none).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
VF=$(cd "$HERE/../.." && pwd)
KITS=${KITS:-$VF/../shared/peers}
VW=${VERTEX_WORK:-/tmp/vfetch-peer-dolphin}
IW=${INDEX_WORK:-/tmp/vfetch-peer-dolphin-index}
WORK=${WORK:-/tmp/vfetch-peer-whole-draw}
for f in "$VW/obj/libdolphinvl.a" "$IW/obj/IndexGenerator.o" "$IW/gen"; do
  [ -e "$f" ] || { echo "missing $f: run the vertex and index peer kits first" >&2; exit 2; }
done
mkdir -p "$WORK"
if [ ! -f "$WORK/vf/build.ninja" ]; then
  meson setup "$WORK/vf" "$VF" -Dbuildtype=release -Dtests=false -Dbench=disabled >/dev/null
fi
ninja -C "$WORK/vf" >/dev/null
DEFS="-D_ARCH_64=1 -D_M_X86_64=1 -D_DEFAULT_SOURCE -DFMT_EXCEPTIONS=0 -DNDEBUG"
g++ -std=c++23 -O2 $DEFS -fno-strict-aliasing -w -I"$KITS/dolphin/stub" \
  -I"$VW/dolphin-src/Source/Core" -I"$VW/fmt-src/include" \
  -c "$HERE/dolphin_vertices.cpp" -o "$WORK/dolphin_vertices.o"
g++ -std=c++23 -O2 $DEFS -fno-strict-aliasing -w -I"$KITS/dolphin-index/stub" -I"$IW/gen" \
  -I"$IW/dolphin-src/Source/Core" -I"$VF/include" \
  -c "$HERE/whole_draw.cpp" -o "$WORK/whole_draw.o"
g++ "$WORK/whole_draw.o" "$WORK/dolphin_vertices.o" "$IW/obj/IndexGenerator.o" \
  "$VW/obj/libdolphinvl.a" "$WORK/vf/lib/libvfetch.a" -lm -static -o "$WORK/whole-draw"
echo "== $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) CPUs); vfetch $(git -C "$VF" rev-parse --short HEAD 2>/dev/null); $(uptime | sed 's/.*load/load/')"
PIN=${PIN:-1}
if [ "$PIN" = none ]; then "$WORK/whole-draw" "$@"; else taskset -c "$PIN" "$WORK/whole-draw" "$@"; fi
