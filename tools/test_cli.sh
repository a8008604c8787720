#!/usr/bin/env bash
# Checks of the vfetch command (run by meson test): exit codes and key output lines.
set -u
tool="$1"
fails=0
check() { # description, then the command's success as the condition
    if [ "$2" -ne 0 ]; then echo "FAIL: $1"; fails=$((fails + 1)); else echo "ok: $1"; fi
}

out=$("$tool" demo); rc=$?
check "demo exits 0" $rc
# vertex 0 color: D3DCOLOR 0xFFFF0000 = red, alpha 1
echo "$out" | grep -q "color    .*\[3f800000 00000000 00000000 3f800000\]"; check "demo red color bits" $?
# vertex 3 normal: SHORT_4 -32768 under SGN_NORM method 2 = -1
echo "$out" | grep -q "normal   .*\[bf800000 37800080 37800080 37800080\]"; check "demo normal -32768 -> -1, 0 -> 1/65535" $?
[ "$(echo "$out" | grep -c '^vertex ')" -eq 10 ]; check "demo prints 4 + 6 vertices" $?

out=$("$tool" explain r300 --psc 0x2002 --vtx-size 3); rc=$?
check "explain FLOAT_3 exits 0" $rc
echo "$out" | grep -q "float32 x3"; check "explain shows float32 x3" $?
echo "$out" | grep -q "DST_VEC_LOC  0 -> bytes 0..15"; check "explain shows where loc 0 lands" $?

"$tool" explain r300 --psc 0x200D --vtx-size 3 2>/dev/null; rc=$?
[ $rc -eq 2 ]; check "reserved DATA_TYPE 13 exits 2" $?
msg=$("$tool" explain r300 --psc 0x200D --vtx-size 3 2>&1 >/dev/null)
echo "$msg" | grep -q "reserved R300 DATA_TYPE"; check "reserved type message" $?
"$tool" explain r300 --psc 0x2003 --vtx-size 3 2>/dev/null; [ $? -eq 2 ]; check "underrun exits 2" $?
"$tool" explain r300 --bogus 2>/dev/null; [ $? -eq 1 ]; check "usage error exits 1" $?
"$tool" --version | grep -q "^vfetch 0.1.0"; check "version" $?

echo "$fails failed"
[ $fails -eq 0 ]
