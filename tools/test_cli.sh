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

# vfetch explain maxwell: attribute and stream words (docs/maxwell.md)
out=$("$tool" explain maxwell --attr 0x38200000,0x16000000 --stream 0x1018 --bmap 32,33,34,35,36,37,38,39,191); rc=$?
check "explain maxwell exits 0" $rc
echo "$out" | grep -q "attribute  1: 0x16000000 stream 0 offset 0: A2B10G10R10 UNORM, 4 component(s)"; check "explain maxwell decodes A2B10G10R10 UNORM" $?
echo "$out" | grep -q "fixed_10_10_10_2 x4 unorm from s0+0 swizzle xyzw mask xyzw -> slots 4..7"; check "explain maxwell: generic 1 at slots 4..7" $?
echo "$out" | grep -q "VERTEX_ID .*(191) -> slot   8 (written per draw)"; check "explain maxwell: VERTEX_ID after the generics" $?
echo "$out" | grep -q "output: compact ISBE records, 36 bytes per vertex"; check "explain maxwell: compact record size" $?
out=$("$tool" explain maxwell --attr 0x38200000 --stream 0x1010 --full); rc=$?
echo "$out" | grep -q "output: full ISBE records, 1024 bytes per vertex"; check "explain maxwell --full: 1 KiB records" $?
"$tool" explain maxwell --attr 0x39400000 --stream 0x1010 2>/dev/null; [ $? -eq 2 ]; check "explain maxwell: 8-bit FLOAT exits 2" $?
msg=$("$tool" explain maxwell --attr 0x16200000 --stream 0x1010 2>&1 >/dev/null)
echo "$msg" | grep -q "size and numerical type the hardware does not accept"; check "explain maxwell: B10G11R11 UNORM message" $?
"$tool" explain maxwell --attr 0x38200000 --stream 0x0010 2>/dev/null; [ $? -eq 2 ]; check "explain maxwell: disabled stream exits 2" $?
msg=$("$tool" explain maxwell --attr 0x38200000 --stream 0x0010 2>&1 >/dev/null)
echo "$msg" | grep -q "disabled stream"; check "explain maxwell: disabled stream message" $?
"$tool" explain maxwell --bmap 300 2>/dev/null; [ $? -eq 1 ]; check "explain maxwell: attribute 300 is a usage error" $?


# vfetch aam: the Maxwell attribute address map (docs/maxwell.md)
out=$("$tool" aam); rc=$?
check "aam exits 0" $rc
[ "$(echo "$out" | grep -c '^|')" -eq 258 ]; check "aam prints 256 rows and the two range rows" $?
seed="$(dirname "$0")/../../shared/spec/maxwell-attribute-address-map.txt"
if [ -f "$seed" ]; then # every explicit row of the seed, byte for byte
    rows=$(awk -F'|' 'NF == 14 && ($3 ~ /=/ || $3 ~ /n\/a/)' "$seed")
    [ "$(echo "$rows" | wc -l)" -eq 81 ] && [ -z "$(echo "$rows" | grep -v -x -F -f <(echo "$out"))" ]
    check "aam prints the seed's 81 explicit rows as they are" $?
fi
echo "$out" | grep -q -x -F '|  GENERIC_ATTRIBUTE_17_Z             |  = 102;   |  = 408;   |       LD / ST_REQ   |       LD / ST       |       LD / ST       |       LD / ST       |       LD / ST       |  LD       |  LD       |  0.0                 |  Selected in PS SPH  |'
check "aam expands GENERIC_ATTRIBUTE_17_Z" $?
"$tool" aam 191 | grep -q "address         764 (0x2fc)"; check "aam 191 is VERTEX_ID at 764" $?
[ "$("$tool" aam --address 0x2fc | head -1)" = "VERTEX_ID" ]; check "aam --address 0x2fc" $?
[ "$("$tool" aam instance_id | head -1)" = "INSTANCE_ID" ]; check "aam by name, any case" $?
"$tool" aam --address 1024 | grep -q "^above range"; check "aam --address 1024 is above range" $?
"$tool" aam --address -4 | grep -q "^below range"; check "aam --address -4 is below range" $?
"$tool" aam 163 | grep -q "default         1.0 (0x3f800000"; check "aam COLOR_FRONT_DIFFUSE_ALPHA default 1.0" $?
msg=$("$tool" aam --address 5 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$msg" | grep -q "(code -1): address 5 is not the start"; check "aam unaligned address exits 2" $?
"$tool" aam 256 2>/dev/null; [ $? -eq 2 ]; check "aam 256 exits 2" $?
"$tool" aam NO_SUCH_ATTRIBUTE 2>/dev/null; [ $? -eq 2 ]; check "aam unknown name exits 2" $?
[ "$("$tool" aam --patch | grep -c 'GENERIC_PATCH_ATTRIBUTE_')" -eq 122 ]; check "aam --patch lists 122 generic patch attributes" $?
[ "$("$tool" aam --patch 6 | head -1)" = "GENERIC_PATCH_ATTRIBUTE_0" ]; check "aam --patch 6" $?
"$tool" aam --lod | grep -q "^slot 3  SetTessellationLodV1 .*triangle: unused (--)"; check "aam --lod slot 3" $?
msg=$("$tool" aam --check VS --imap POSITION_X 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$msg" | grep -q "(code -21): attribute 28 (POSITION_X) in VERTEX"; check "aam Imap on default exits 2" $?
msg=$("$tool" aam --check GS --omap 188 --last 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$msg" | grep -q "(code -22): attribute 188"; check "aam Omap on discard exits 2" $?
msg=$("$tool" aam --check PS --imap 32-35 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$msg" | grep -q "(code -23)"; check "aam PS without POSITION_W exits 2" $?
out=$("$tool" aam --check GS --omap RT_ARRAY_INDEX,POINT_SIZE,FOG_COORDINATE --last); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "^output Bmap forced (ST_REQ)  0a000000 0"; check "aam --check GS last forces RT_ARRAY_INDEX, POINT_SIZE" $?
out=$("$tool" aam --check VS --imap 32-35,VERTEX_ID --omap POSITION_X-POSITION_W,32,POINT_SIZE \
      --check PS --imap POSITION_W,32 --raster --skip-a 0x2); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "^VERTEX input  *00000000 0000000d 0" &&
    echo "$out" | grep -q "^VSC input  *f8000000 00000001 0"
check "aam --check pipeline: skip mask, VSC input Bmap" $?
out=$("$tool" aam --check VS --sph 0x401,0,0,0,0,0,0,0,0,0,0x80000000,0,0,0,0,0,0,0,0,0); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "^    191 VERTEX_ID"; check "aam --check --sph reads Imap bit 160+n" $?
"$tool" aam --check PS --sph 0x401,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 2>/dev/null; [ $? -eq 2 ]
check "aam --sph of another stage exits 2" $?
"$tool" aam --check 2>/dev/null; [ $? -eq 1 ]; check "aam --check without a stage is a usage error" $?
"$tool" aam --check XS --imap 1 2>/dev/null; [ $? -eq 1 ]; check "aam unknown stage is a usage error" $?
"$tool" aam --bogus 2>/dev/null; [ $? -eq 1 ]; check "aam unknown option is a usage error" $?

echo "$fails failed"
[ $fails -eq 0 ]
