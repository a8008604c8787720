#!/usr/bin/env bash
# Checks of the vfetch command (run by meson test): exit codes, messages and key output lines.
# Arguments: the tool, png or no-png (whether it was built with libpng), and the directory of
# the real GX captures (../shared/testdata/gx; its checks are skipped when it is not there).
set -u
tool="$1"
captures="${3:-}"
fails=0
check() { # description, then the command's success as the condition
    if [ "$2" -ne 0 ]; then echo "FAIL: $1"; fails=$((fails + 1)); else echo "ok: $1"; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run ARGS..: one run of the tool; sets rc, out (its stdout) and errlines (lines on stderr,
# which is kept in $tmp/stderr)
run() {
    out=$("$tool" "$@" 2>"$tmp/stderr"); rc=$?
    errlines=$(wc -l <"$tmp/stderr")
}
# expect_usage_error DESCRIPTION TEXT ARGS..: exit 1, nothing on stdout, one line on stderr that
# holds TEXT (naming what is wrong), then at most a line pointing at `vfetch help`
expect_usage_error() {
    local desc=$1 text=$2; shift 2
    run "$@"
    [ $rc -eq 1 ] && [ -z "$out" ] && [ "$errlines" -ge 1 ] && [ "$errlines" -le 2 ] &&
        head -1 "$tmp/stderr" | grep -q -F -- "$text" &&
        { [ "$errlines" -eq 1 ] || sed -n 2p "$tmp/stderr" | grep -q '^see `vfetch help'; }
    local ok=$?
    [ $ok -eq 0 ] || { echo "  exit $rc, stderr:"; sed 's/^/    /' "$tmp/stderr"; }
    check "$desc" $ok
}
# expect_refusal DESCRIPTION TEXT ARGS..: exit 2, nothing on stdout, exactly one line on stderr
# that holds TEXT
expect_refusal() {
    local desc=$1 text=$2; shift 2
    run "$@"
    [ $rc -eq 2 ] && [ -z "$out" ] && [ "$errlines" -eq 1 ] && grep -q -F -- "$text" "$tmp/stderr"
    local ok=$?
    [ $ok -eq 0 ] || { echo "  exit $rc, stderr:"; sed 's/^/    /' "$tmp/stderr"; }
    check "$desc" $ok
}
# expect_usage DESCRIPTION ARGS..: the usage on stdout, exit 0, nothing on stderr
expect_usage() {
    local desc=$1; shift
    run "$@"
    [ $rc -eq 0 ] && [ "$errlines" -eq 0 ] && [ "${out%%$'\n'*}" = "usage:" ]
    check "$desc" $?
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
# the plan's tier: generated code (an array stream is indexed: a second entry for index
# buffers), or why there is none (a build without the JIT)
out=$("$tool" explain r300 --psc 0x2002 --arrays 3:3 --asm); rc=$?
check "explain r300 --asm exits 0" $rc
echo "$out" | grep -Eq '^jit: (none \(.+\)|[0-9]+ bytes of generated code .*draws through an index buffer at every count)'
check "explain r300 prints the plan's generated code or why there is none" $?
if echo "$out" | grep -q '^jit: [0-9]'; then
    echo "$out" | grep -Eq '^  [0-9a-f]{4}  (ret|.*(no disassembler))'; check "explain r300 --asm prints the code" $?
fi

# SHORT_2 + BYTE_4 (r300-r4) at an AVX2 level: its indexed draws gather whole groups
out=$("$tool" explain r300 --psc 0xE1044006 --arrays 2:2); rc=$?
check "explain r300 r4 exits 0" $rc
if echo "$out" | grep -Eq 'isa (avx2|avx512)' && echo "$out" | grep -q '^jit: [0-9]'; then
    echo "$out" | grep -q "whole groups, each record from its entry's place"
    check "explain r300 r4 says its indexed draws gather whole groups" $?
fi

# the same as two arrays of one stride (Mesa's binding of an interleaved buffer), the groups
# asked for (untimed): its indexed draws gather whole groups from both streams
out=$(VFETCH_JIT_GATHER=1 "$tool" explain r300 --psc 0xE1044006 --arrays 2:1,2:1); rc=$?
check "explain r300 r4 as two arrays exits 0" $rc
if echo "$out" | grep -Eq 'isa (avx2|avx512)' && echo "$out" | grep -q '^jit: [0-9]'; then
    echo "$out" | grep -q '2 stream(s)' && echo "$out" | grep -q "whole groups, each record from its entry's place"
    check "explain r300 r4 as two arrays says its indexed draws gather whole groups" $?
fi

# r300-r1 as four arrays of one stride, its groups taken away (VFETCH_JIT_GATHER=0): the
# indexed pass loads every element from its stream's record 0 plus one offset in r11
# (gen_records_at_offset), and makes no stream's record address
out=$(VFETCH_JIT_GATHER=0 "$tool" explain r300 --psc 0xC1070002,0x230B8205 --arrays 7:3,7:2,7:1,7:1 --asm); rc=$?
check "explain r300 r1 as four arrays exits 0" $rc
if echo "$out" | grep -q '^jit: [0-9]' && ! echo "$out" | grep -q 'no disassembler'; then
    echo "$out" | grep -Eq 'imul r11, rax, 0x1C' && echo "$out" | grep -Eq '\[rbx\+r11\*1\]' &&
        echo "$out" | grep -Eq '\[r12\+r11\*1\]' && ! echo "$out" | grep -Eq 'add (rbx|rbp|r12), r11'
    check "explain r300 r1 as four arrays loads its indexed records at record 0 plus r11" $?
fi
# ... and as one array of 28-byte records (a stride no lea scales): rdi keeps its record 0
out=$(VFETCH_JIT_GATHER=0 "$tool" explain r300 --psc 0xC1070002,0x230B8205 --arrays 7:7 --asm); rc=$?
check "explain r300 r1 as one array exits 0" $rc
if echo "$out" | grep -q '^jit: [0-9]' && ! echo "$out" | grep -q 'no disassembler'; then
    echo "$out" | grep -Eq 'imul r11, rax, 0x1C' && echo "$out" | grep -Eq '\[rdi\+r11\*1\+0x0C\]' &&
        ! echo "$out" | grep -Eq 'imul rdi, rax'
    check "explain r300 r1 as one array loads its indexed records at record 0 plus r11" $?
fi

# r300-r3 (one UNORM8x4, 4-byte records) at an AVX2 level: its groups of two records alone cost
# more than the pass (their exact loads), so the groups start at one whole iteration of eight
# records and leave fewer to the pass (gen_choose_groups' no_single): the entry's first compare
# is with 8, and no group of two is loaded by two vmovd and an insert
out=$("$tool" explain r300 --psc 0xA004 --vtx-size 1 --asm); rc=$?
check "explain r300 r3 exits 0" $rc
if echo "$out" | grep -Eq 'isa (avx2|avx512)' && echo "$out" | grep -q '^jit: [0-9]' &&
    ! echo "$out" | grep -q 'no disassembler'; then
    first=$(echo "$out" | grep -m1 -E '^  [0-9a-f]{4}  cmp rcx, ')
    echo "$first" | grep -q 'cmp rcx, 0x08$' && ! echo "$out" | grep -q 'vinserti128 ymm0, ymm0, xmm1'
    check "explain r300 r3 starts its groups at a whole iteration, no group alone" $?
fi

"$tool" explain r300 --psc 0x200D --vtx-size 3 2>/dev/null; rc=$?
[ $rc -eq 2 ]; check "reserved DATA_TYPE 13 exits 2" $?
msg=$("$tool" explain r300 --psc 0x200D --vtx-size 3 2>&1 >/dev/null)
echo "$msg" | grep -q "reserved R300 DATA_TYPE"; check "reserved type message" $?
"$tool" explain r300 --psc 0x2003 --vtx-size 3 2>/dev/null; [ $? -eq 2 ]; check "underrun exits 2" $?
"$tool" explain r300 --bogus 2>/dev/null; [ $? -eq 1 ]; check "usage error exits 1" $?
"$tool" --version | grep -q "^vfetch 0.2.0"; check "version" $?

# vfetch prim: a GX draw's host indices (docs/prim.md)
out=$("$tool" prim gx TRIANGLE_FAN 7 --restart); rc=$?
check "prim exits 0" $rc
echo "$out" | grep -qx "1 2 0 3 4 R 4 5 0 6 R"; check "prim gx TRIANGLE_FAN 7 --restart: Dolphin's order" $?
echo "$out" | grep -q "drawn as a triangle strip"; check "prim names the host topology" $?
out=$("$tool" prim gx 0xA8 4 --expand --base 2)
echo "$out" | grep -qx "8 9 14 9 14 15 16 17 22 17 22 23"; check "prim gx LINES by command byte, expanded, base 2" $?
"$tool" prim gx 0xC0 4 2>/dev/null; [ $? -eq 2 ]; check "prim: a reserved primitive exits 2" $?
msg=$("$tool" prim gx QUADS 4 --restart --base 65532 2>&1 >/dev/null)
echo "$msg" | grep -q "VFETCH_EPRIM_INDEX_RANGE"; check "prim: an index past the width is refused" $?
out=$("$tool" prim r300 QUAD_STRIP 6)
echo "$out" | grep -qx "0 1 3 0 3 2 2 3 5 2 5 4"; check "prim r300 QUAD_STRIP 6: Mesa's order" $?
out=$("$tool" prim r300 QUADS 4 --host-last)
echo "$out" | grep -qx "1 2 0 2 3 0"; check "prim r300 QUADS to a last-vertex host: rotated" $?
"$tool" prim r300 7 4 2>/dev/null; [ $? -eq 2 ]; check "prim r300: triangle type 2 refused" $?
out=$("$tool" prim maxwell LINE_LOOP 3 --host-last)
echo "$out" | grep -qx "1 0 2 1 0 2"; check "prim maxwell LINE_LOOP 3 to a last-vertex host: Mesa's order" $?
out=$("$tool" prim maxwell 7 4)
echo "$out" | grep -qx "0 1 2 0 2 3"; check "prim maxwell 7 (BEGIN's QUADS) 4" $?
out=$("$tool" prim maxwell LINE_STRIP_ADJACENCY 5 --guest-last)
echo "$out" | grep -qx "3 2 1 0 4 3 2 1"; check "prim maxwell LINE_STRIP_ADJACENCY between conventions: a list, reversed" $?
echo "$out" | grep -q "drawn as a line list with adjacency"; check "prim maxwell: the adjacency topology named" $?
msg=$("$tool" prim maxwell 0xE 4 2>&1 >/dev/null); [ $? -eq 2 ]; check "prim maxwell: patches refused" $?
echo "$msg" | grep -q "VFETCH_EPRIM_TYPE"; check "prim maxwell: the patches' error named" $?
out=$("$tool" prim r300 QUADS 13 --indices 0,1,2,3,65535,4,5,6,65535,7,8,9,10 --restart-index 65535 --u32)
echo "$out" | grep -qx "0 1 2 0 2 3 7 8 9 7 9 10"; check "prim r300 QUADS through an index buffer cut by restart" $?
echo "$out" | grep -qx "entries 0..10"; check "prim --indices prints the entries' range" $?
out=$("$tool" prim maxwell TRIANGLES 3 --indices 1000000,1000002,1000001 --index-bytes 4 --range --base 5)
echo "$out" | grep -qx "5 7 6"; check "prim --range rebases the entries to the base" $?
out=$("$tool" prim r300 TRIANGLES 3 --indices 0x0100,0x0200,0x0300 --big-endian)
echo "$out" | grep -qx "256 512 768"; check "prim --big-endian: entries stored and read big-endian" $?
msg=$("$tool" prim r300 TRIANGLES 4 --indices 1,2,3 2>&1 >/dev/null); [ $? -eq 2 ]; check "prim: fewer entries than COUNT refused" $?
echo "$msg" | grep -q "VFETCH_ESHORT_INDICES"; check "prim: the short index buffer's error named" $?
"$tool" prim r300 TRIANGLES 3 --indices 1,2,3 --index-bytes 3 2>/dev/null; [ $? -eq 1 ]; check "prim --index-bytes 3: a usage error" $?
"$tool" prim nv50 QUADS 4 2>/dev/null; [ $? -eq 1 ]; check "prim: gx, r300 or maxwell, a usage error" $?
out=$("$tool" prim gx QUADS 4 --narrowest --base 65532)
echo "$out" | grep -q "6 16-bit indices"; check "prim --narrowest: 16 bits where the draw fits them" $?
out=$("$tool" prim gx QUADS 4 --narrowest --base 65533)
echo "$out" | grep -qx "65533 65534 65535 65533 65535 65536"; check "prim --narrowest: 32 bits past them" $?
out=$("$tool" prim gx QUADS 7 --drop-incomplete)
echo "$out" | grep -qx "0 1 2 0 2 3"; check "prim --drop-incomplete: no triangle of QUADS' last three" $?
out=$("$tool" prim r300 TRIANGLE_FAN 5 --host-fans --base 3)
echo "$out" | grep -qx "3 4 5 6 7"; check "prim --host-fans: a fan passed through" $?
echo "$out" | grep -q "drawn as a triangle fan"; check "prim --host-fans: the fan topology named" $?
out=$("$tool" prim maxwell QUAD_STRIP 4 --yuzu)
echo "$out" | grep -qx "0 3 1 0 2 3"; check "prim maxwell --yuzu: yuzu's quad strip" $?

# vfetch explain maxwell: attribute and stream words (docs/maxwell.md)
out=$("$tool" explain maxwell --attr 0x38200000,0x16000000 --stream 0x1018 --bmap 32,33,34,35,36,37,38,39,191); rc=$?
check "explain maxwell exits 0" $rc
echo "$out" | grep -q "attribute  1: 0x16000000 stream 0 offset 0: A2B10G10R10 UNORM, 4 component(s)"; check "explain maxwell parses A2B10G10R10 UNORM" $?
echo "$out" | grep -q "fixed_10_10_10_2 x4 unorm from s0+0 swizzle xyzw mask xyzw -> slots 4..7"; check "explain maxwell: generic 1 at slots 4..7" $?
echo "$out" | grep -q "VERTEX_ID .*(191) -> slot   8 (written per draw)"; check "explain maxwell: VERTEX_ID after the generics" $?
echo "$out" | grep -q "output: compact ISBE records, 36 bytes per vertex"; check "explain maxwell: compact record size" $?
echo "$out" | grep -Eq '^jit: (none \(|[0-9]+ bytes of generated code)'; check "explain maxwell prints its tier" $?
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
[ $rc -eq 2 ] && echo "$msg" | grep -q "aam --address 5 (not the start of an attribute.*(code -1)$"; check "aam unaligned address exits 2" $?
"$tool" aam 256 2>/dev/null; [ $? -eq 2 ]; check "aam 256 exits 2" $?
"$tool" aam NO_SUCH_ATTRIBUTE 2>/dev/null; [ $? -eq 2 ]; check "aam unknown name exits 2" $?
[ "$("$tool" aam --patch | grep -c 'GENERIC_PATCH_ATTRIBUTE_')" -eq 122 ]; check "aam --patch lists 122 generic patch attributes" $?
[ "$("$tool" aam --patch 6 | head -1)" = "GENERIC_PATCH_ATTRIBUTE_0" ]; check "aam --patch 6" $?
"$tool" aam --lod | grep -q "^slot 3  SetTessellationLodV1 .*triangle: unused (--)"; check "aam --lod slot 3" $?
msg=$("$tool" aam --check VS --imap POSITION_X 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$msg" | grep -q "attribute 28 (POSITION_X) in VERTEX: VFETCH_EAAM_IMAP_DEFAULT: .*(code -21)"; check "aam Imap on default exits 2" $?
msg=$("$tool" aam --check GS --omap 188 --last 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$msg" | grep -q "attribute 188 .*(code -22)"; check "aam Omap on discard exits 2" $?
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

# vfetch explain texel: TX_FORMAT1 / TX_FORMAT2 words (docs/texel-cli.md). The words below:
# TXFORMAT in bits 4:0, SEL_ALPHA 11:9, SEL_RED 14:12, SEL_GREEN 17:15, SEL_BLUE 20:18.
out=$("$tool" explain texel --format1 0x0008860F); rc=$? # DXT1, components 0..3 in order
check "explain texel DXT1 exits 0" $rc
echo "$out" | grep -q "^info: TX_FMT_DXT1, block 4x4 texels of 8 bytes, 2D$"; check "explain texel DXT1: 4x4 blocks of 8 bytes" $?
echo "$out" | grep -q "^rgba8_exact: yes"; check "explain texel DXT1: RGBA8 exact" $?
echo "$out" | grep -q "^TX_FORMAT1 0x0008860f"; check "explain texel prints the plan's description" $?
out=$("$tool" explain texel --format1 0x00108A06 --format2 0); rc=$? # 5_6_5, SEL_BLUE 0, SEL_ALPHA 1
check "explain texel 5_6_5 exits 0" $rc
echo "$out" | grep -q "^info: TX_FMT_5_6_5, block 1x1 texels of 2 bytes, 2D$"; check "explain texel 5_6_5 info" $?
echo "$out" | grep -q "SEL_BLUE  *0$" && echo "$out" | grep -q "SEL_ALPHA  *1$"
check "explain texel 5_6_5: SEL constants 0 and 1" $?
out=$("$tool" explain texel --format1 0x0008860C --format2 0x20000); rc=$? # 8_8_8_8, POW2FIX2FLT
[ $rc -eq 0 ] && echo "$out" | grep -q "^rgba8_exact: no"; check "explain texel --format2 POW2FIX2FLT: not RGBA8 exact" $?
"$tool" explain texel --format1 0x12 | grep -q "^info: TX_FMT_CxV8U8,"; check "explain texel code 18 is CxV8U8" $?
"$tool" explain texel --format1 0x12 --option code18=y8 | grep -q "^info: TX_FMT_Y8,"
check "explain texel --option code18=y8 reaches the library" $?
msg=$("$tool" explain texel --format1 0x1E 2>&1 >/dev/null); rc=$? # W24_FP
[ $rc -eq 2 ] && echo "$msg" | grep -q "no public bit layout, unsupported (code -28)"; check "explain texel W24_FP exits 2" $?
msg=$("$tool" explain texel --format1 0x600C 2>&1 >/dev/null); rc=$? # SEL_RED 6
[ $rc -eq 2 ] && echo "$msg" | grep -q "reserved swizzle selector"; check "explain texel SEL 6 exits 2" $?
msg=$("$tool" explain texel --format1 0xC --option signed=maybe 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] && echo "$msg" | grep -q "^vfetch: --option signed=maybe: signed takes clamp, zero, no-zero$"
check "explain texel bad --option value is a usage error" $?
"$tool" explain texel --format1 0xC --option nosuch=1 2>/dev/null; [ $? -eq 1 ]; check "explain texel unknown --option is a usage error" $?
"$tool" explain texel --format1 0xZZ 2>/dev/null; [ $? -eq 1 ]; check "explain texel bad word is a usage error" $?
"$tool" explain texel 2>/dev/null; [ $? -eq 1 ]; check "explain texel without --format1 is a usage error" $?

# vfetch texel: raw surface -> PNG. The PNG's pixels are read back with python3 (zlib, struct).
png_rgba() { # FILE.. -> for each, "WxH" and its RGBA bytes in hex (an 8-bit RGBA, non-interlaced
             # PNG), or "unreadable: why"; one python3 for all (its start-up is most of the time)
    python3 - "$@" <<'EOF'
import struct, sys, zlib
def pixels(path):
    d = open(path, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n'
    p, idat = 8, b''
    while p < len(d):
        n, t = struct.unpack('>I4s', d[p:p + 8])
        c = d[p + 8:p + 8 + n]
        assert zlib.crc32(t + c) == struct.unpack('>I', d[p + 8 + n:p + 12 + n])[0], t
        if t == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', c)
            assert (depth, ctype, interlace) == (8, 6, 0), (depth, ctype, interlace)
        elif t == b'IDAT':
            idat += c
        p += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), 4 * w, [], bytearray(4 * w)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - 4] if x >= 4 else 0
            b, c = prev[x], prev[x - 4] if x >= 4 else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            else: assert f == 0, f
        rows.append(bytes(line))
        prev = line
    return '%dx%d %s' % (w, h, b''.join(rows).hex())
for path in sys.argv[1:]:
    try:
        print(pixels(path))
    except Exception as e:
        print('unreadable: %r' % e)
EOF
}
# 32 bytes 01 02 .. 20: 4x2 texels of TX_FMT_8_8_8_8, component 0 the first byte of each
for i in $(seq 1 32); do printf "\\x$(printf %02x "$i")"; done >"$tmp/in.raw"
rgba8=0x0008860C # 8_8_8_8, R G B A = components 0 1 2 3
if [ "${2:-png}" = no-png ]; then
    msg=$("$tool" texel --format1 $rgba8 --size 4x2 "$tmp/in.raw" "$tmp/a.png" 2>&1 >/dev/null); rc=$?
    [ $rc -eq 2 ] && echo "$msg" | grep -q "this vfetch was built without libpng"; check "texel without libpng exits 2" $?
elif ! command -v python3 >/dev/null; then
    echo "skip: vfetch texel checks (no python3 to read the PNGs)"
else
    out=$("$tool" texel --format1 $rgba8 --size 4x2 "$tmp/in.raw" "$tmp/a.png"); rc=$?
    check "texel 8_8_8_8 exits 0" $rc
    echo "$out" | grep -q -x -F "wrote $tmp/a.png: 4x2 RGBA PNG of TX_FMT_8_8_8_8 texels 0,0..3,1 of slice 0, exact RGBA8"
    check "texel says what it wrote" $?
    [ "$(png_rgba "$tmp/a.png")" = "4x2 0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20" ]
    check "texel 8_8_8_8: the PNG holds the bytes" $?
    # SEL_RED 2, SEL_GREEN 1, SEL_BLUE 0, SEL_ALPHA 5 (the constant 1)
    "$tool" texel --format1 0xAA0C --size 4x2 "$tmp/in.raw" "$tmp/b.png" >/dev/null &&
        [ "$(png_rgba "$tmp/b.png")" = "4x2 030201ff070605ff0b0a09ff0f0e0dff131211ff171615ff1b1a19ff1f1e1dff" ]
    check "texel: the swizzle reaches the PNG" $?
    "$tool" texel --format1 $rgba8 --size 4x2 --region 1,0,2,2 "$tmp/in.raw" "$tmp/c.png" >/dev/null &&
        [ "$(png_rgba "$tmp/c.png")" = "2x2 05060708090a0b0c15161718191a1b1c" ]
    check "texel --region 1,0,2,2" $?
    # 2x2 texels with a pitch of 12 bytes: rows at bytes 0 and 12 (20 bytes read)
    head -c 20 "$tmp/in.raw" >"$tmp/pitch.raw"
    "$tool" texel --format1 $rgba8 --size 2x2 --pitch 12 "$tmp/pitch.raw" "$tmp/d.png" >/dev/null &&
        [ "$(png_rgba "$tmp/d.png")" = "2x2 01020304050607080d0e0f1011121314" ]
    check "texel --pitch 12" $?
    # 3D (TEX_COORD_TYPE 1), 2x1x2 texels: slice 1 is bytes 8..15
    "$tool" texel --format1 0x0208860C --size 2x1 --depth 2 --slice 1 "$tmp/in.raw" "$tmp/e.png" >/dev/null &&
        [ "$(png_rgba "$tmp/e.png")" = "2x1 090a0b0c0d0e0f10" ]
    check "texel --depth 2 --slice 1" $?
    # 32f_32f_32f_32f: (-1, 0.5, 2, 0.25) and (1, 0, 0.2, 0.75) -> clamped, round(255 x)
    printf '\x00\x00\x80\xbf\x00\x00\x00\x3f\x00\x00\x00\x40\x00\x00\x80\x3e\x00\x00\x80\x3f\x00\x00\x00\x00\xcd\xcc\x4c\x3e\x00\x00\x40\x3f' >"$tmp/f32.raw"
    out=$("$tool" texel --format1 0x0008861D --size 2x1 "$tmp/f32.raw" "$tmp/f.png"); rc=$?
    [ $rc -eq 0 ] && echo "$out" | grep -q "TX_FMT_32f_32f_32f_32f .*converted from RGBA32F" &&
        [ "$(png_rgba "$tmp/f.png")" = "2x1 0080ff40ff0033bf" ]
    check "texel 32f x4: converted from RGBA32F, clamped and rounded" $?
    # DXT1, one block stored whole for 3x3 texels: c0 white, c1 black, texel 0 index 1, others 0
    printf '\xff\xff\x00\x00\x01\x00\x00\x00' >"$tmp/dxt1.raw"
    "$tool" texel --format1 0x0008860F --size 3x3 "$tmp/dxt1.raw" "$tmp/h.png" >/dev/null &&
        [ "$(png_rgba "$tmp/h.png")" = "3x3 000000ff$(printf 'ffffffff%.0s' 1 2 3 4 5 6 7 8)" ]
    check "texel DXT1: a partial block" $?
    head -c 31 "$tmp/in.raw" >"$tmp/short.raw"
    msg=$("$tool" texel --format1 $rgba8 --size 4x2 "$tmp/short.raw" "$tmp/g.png" 2>&1 >/dev/null); rc=$?
    [ $rc -eq 2 ] && echo "$msg" | grep -q "31 bytes read from .*: VFETCH_ETEXEL_SHORT_SURFACE: .* ends before the texels read (code -36)" && [ ! -e "$tmp/g.png" ]
    check "texel: a short surface exits 2, no PNG" $?
    msg=$("$tool" texel --format1 $rgba8 --size 4x2 --region 3,0,2,1 "$tmp/in.raw" "$tmp/g.png" 2>&1 >/dev/null); rc=$?
    [ $rc -eq 2 ] && echo "$msg" | grep -q "(code -35)"; check "texel: a region outside the surface exits 2" $?
    msg=$("$tool" texel --format1 $rgba8 --size 4x2 "$tmp/no-such.raw" "$tmp/g.png" 2>&1 >/dev/null); rc=$?
    [ $rc -eq 2 ] && echo "$msg" | grep -q "^vfetch: cannot read .*no-such.raw: "; check "texel: a missing input exits 2" $?
    msg=$("$tool" texel --format1 $rgba8 --size 4x2 "$tmp/in.raw" "$tmp/no-dir/g.png" 2>&1 >/dev/null); rc=$?
    [ $rc -eq 2 ] && echo "$msg" | grep -q "^vfetch: cannot write .*g.png: "; check "texel: an unwritable PNG exits 2" $?
    msg=$("$tool" texel --format1 0x1E --size 4x2 "$tmp/in.raw" "$tmp/g.png" 2>&1 >/dev/null); rc=$?
    [ $rc -eq 2 ] && echo "$msg" | grep -q "(code -28)"; check "texel: W24_FP exits 2" $?
fi
"$tool" texel --format1 $rgba8 --size 4by2 "$tmp/in.raw" "$tmp/g.png" 2>/dev/null; [ $? -eq 1 ]; check "texel: a bad --size is a usage error" $?
"$tool" texel --format1 $rgba8 --size 4x2 --region 0,0,0,1 "$tmp/in.raw" "$tmp/g.png" 2>/dev/null; [ $? -eq 1 ]
check "texel: an empty region is a usage error" $?
"$tool" texel --format1 $rgba8 --size 4x2 "$tmp/in.raw" 2>/dev/null; [ $? -eq 1 ]; check "texel: without OUT.png is a usage error" $?
"$tool" texel --format1 $rgba8 --size 4x2 --option gamma=linear "$tmp/in.raw" "$tmp/g.png" 2>/dev/null; [ $? -eq 1 ]
check "texel: a bad --option is a usage error" $?

# vfetch explain gx-texture / gx-texture: GameCube/Wii textures (docs/gx-texture-cli.md). The
# decodes are checked against the Dolphin fixtures of the gx-texture test, named
# FORMAT[-PALETTE]_WxH_PATTERN: .src as in GX memory, .tlut the palette, .rgba Dolphin's RGBA8.
fixtures="$(dirname "$0")/../tests/gx_texture/fixtures"
run explain gx-texture --format C8 --size 35x19 --palette-format RGB5A3
[ $rc -eq 0 ] && [ "$errlines" -eq 0 ] && echo "$out" | grep -q -x "TX_SETIMAGE0 0x904822  TX_SETTLUT 0x000800" &&
    echo "$out" | grep -q "^info: C8, 35x19 texels, blocks of 8x4 texels in 32 bytes, padded 40x20, level [a-z0-9]*$" &&
    echo "$out" | grep -q -x "needs: 800 bytes of texture, a palette of 256 RGB5A3 entries (512 bytes)"
check "explain gx-texture C8 35x19: the words, info and the bytes a decode needs" $?
run explain gx-texture --setimage0 0x88E04822
[ $rc -eq 0 ] && echo "$out" | grep -q "^  format *0xe CMPR: " &&
    echo "$out" | grep -q -x "needs: 480 bytes of texture, no palette"
check "explain gx-texture: a BP write (address 0x88) of CMPR 35x19" $?
run explain gx-texture --format rgba8 --setimage0 0x00104822
[ $rc -eq 0 ] && echo "$out" | grep -q "^info: RGBA8, 35x19 texels," &&
    echo "$out" | grep -q -x "needs: 2880 bytes of texture, no palette"
check "explain gx-texture: --format replaces the field of --setimage0, in any order" $?
run explain gx-texture --setimage0 0x00901c07 --settlut 0x00000c00 --palette-format rgb565
[ $rc -eq 0 ] && echo "$out" | grep -q "of 256 RGB565 entries"
check "explain gx-texture: --palette-format replaces the field of --settlut" $?
expect_refusal "explain gx-texture: a reserved format names --setimage0" "vfetch: --setimage0 0x00700000 (FORMAT 0x7, bits 23:20 of TX_SETIMAGE0): VFETCH_EGX_TEXTURE_FORMAT: " explain gx-texture --setimage0 0x700000
expect_refusal "explain gx-texture: a reserved format names --format" "vfetch: --format 0xD (FORMAT 0xD, bits 23:20 of TX_SETIMAGE0): VFETCH_EGX_TEXTURE_FORMAT: " explain gx-texture --format 0xD --size 8x8
expect_refusal "explain gx-texture: palette format 3 names --palette-format" "vfetch: --palette-format 3 (TLUT_FORMAT 3, bits 11:10 of TX_SETTLUT, on a C14X2 texture): VFETCH_EGX_TLUT_FORMAT: " explain gx-texture --format C14X2 --size 8x8 --palette-format 3
expect_refusal "explain gx-texture: palette format 3 names --settlut" "vfetch: --settlut 0x98000c00 (TLUT_FORMAT 3, bits 11:10 of TX_SETTLUT, on a C4 texture): VFETCH_EGX_TLUT_FORMAT: " explain gx-texture --format C4 --size 8x8 --settlut 0x98000c00
run explain gx-texture --format I8 --size 8x8 --palette-format 3
check "explain gx-texture: palette format 3 on a format without a palette is not read" $rc
expect_refusal "explain gx-texture: a register address names the word" "vfetch: --setimage0 0x99100000 (register address 0x99, bits 31:24; TX_SETIMAGE0 is 0x88..0x8B or 0xA8..0xAB, or 0 for the value alone): VFETCH_EREGISTER: " explain gx-texture --setimage0 0x99100000
expect_refusal "explain gx-texture: a TX_SETTLUT address names --settlut" "vfetch: --settlut 0x88000000 (register address 0x88, " explain gx-texture --format C8 --size 8x8 --settlut 0x88000000
expect_usage_error "explain gx-texture without words" "explain gx-texture: missing --setimage0 (it needs --setimage0 W, or --format F and --size WxH)" explain gx-texture
expect_usage_error "explain gx-texture without --size" "explain gx-texture: missing --size" explain gx-texture --format I8
expect_usage_error "gx-texture: an unknown format is named" "--format I9: the formats are I4, I8, IA4, IA8, RGB565, RGB5A3, RGBA8, C4, C8, C14X2, CMPR or a code 0..15" gx-texture --format I9 --size 8x8 in.src out.png
expect_usage_error "gx-texture: a format code above 15" "--format 16: the formats are" explain gx-texture --format 16 --size 8x8
expect_usage_error "gx-texture: an unknown palette format is named" "--palette-format RGB888: the palette formats are IA8, RGB565, RGB5A3 or a code 0..3" explain gx-texture --format C8 --size 8x8 --palette-format RGB888
expect_usage_error "gx-texture: a size above 1024" "--size 1025x1: width and height are 1..1024" gx-texture --format I8 --size 1025x1 in.src out.png
expect_usage_error "gx-texture: a size of 0" "--size 0x8: width and height are 1..1024" gx-texture --format I8 --size 0x8 in.src out.png
expect_usage_error "gx-texture: a bad --size" "--size 8by8: not WxH" gx-texture --format I8 --size 8by8 in.src out.png
expect_usage_error "gx-texture: an empty region" "--region 0,0,0,1: an empty region makes no picture" gx-texture --format I8 --size 8x8 --region 0,0,0,1 in.src out.png
expect_usage_error "gx-texture: a bad region" "--region 0,0,1: not X,Y,W,H" gx-texture --format I8 --size 8x8 --region 0,0,1 in.src out.png
expect_usage_error "gx-texture: without OUT.png" "gx-texture: missing OUT.png" gx-texture --format I8 --size 8x8 in.src
expect_usage_error "gx-texture: without words" "gx-texture: missing --setimage0" gx-texture in.src out.png
expect_usage_error "gx-texture takes two files" "gx-texture: unexpected argument 'c'" gx-texture --format I8 --size 8x8 a b c
if [ "${2:-png}" = no-png ]; then
    msg=$("$tool" gx-texture --format I8 --size 8x8 "$fixtures/I8_8x8_random.src" "$tmp/gx.png" 2>&1 >/dev/null); rc=$?
    [ $rc -eq 2 ] && echo "$msg" | grep -q "this vfetch was built without libpng"; check "gx-texture without libpng exits 2" $?
elif ! command -v python3 >/dev/null; then
    echo "skip: vfetch gx-texture checks (no python3 to read the PNGs)"
else
    # rgba_region FILE WIDTH X Y W H: a region of an RGBA8 picture WIDTH texels wide, as png_rgba
    # prints a PNG
    rgba_region() {
        local hex out="" y
        hex=$(od -An -v -tx1 "$1" | tr -d ' \n')
        for ((y = $4; y < $4 + $6; y++)); do
            out+=${hex:$((8 * (y * $2 + $3))):$((8 * $5))}
        done
        echo "$5x$6 $out"
    }
    # gx_png DESCRIPTION EXIT PNG WANT: a decode whose PNG is checked at the end of the block,
    # where png_rgba reads them all with one python3 (its start-up is most of a check's time)
    descs=() rcs=() pngs=() wants=()
    gx_png() { descs+=("$1"); rcs+=("$2"); pngs+=("$3"); wants+=("$4"); }
    # Every format and every palette format, both sizes: the PNG holds Dolphin's texels.
    for name in I4_35x19_random I8_8x8_random IA4_35x19_random IA8_8x8_random RGB565_35x19_random \
                RGB5A3_35x19_a3-alpha RGBA8_35x19_random C4-IA8_35x19_random C8-RGB565_35x19_random \
                C8-RGB5A3_8x8_a3-alpha C14X2-RGB5A3_35x19_random C14X2-IA8_8x8_random \
                CMPR_35x19_cmpr-c0le CMPR_35x19_random CMPR_8x8_cmpr-c0gt; do
        kind=${name%%_*} rest=${name#*_}
        size=${rest%%_*}
        palette=()
        case "$kind" in *-*) palette=(--palette-format "${kind#*-}" --palette "$fixtures/$name.tlut") ;; esac
        "$tool" gx-texture --format "${kind%%-*}" --size "$size" "${palette[@]}" "$fixtures/$name.src" "$tmp/$name.png" >/dev/null
        rc=$?
        gx_png "gx-texture $name: the PNG holds Dolphin's texels" $rc "$tmp/$name.png" \
            "$(rgba_region "$fixtures/$name.rgba" "${size%x*}" 0 0 "${size%x*}" "${size#*x}")"
    done
    name=C14X2-RGB5A3_35x19_random
    run gx-texture --setimage0 0x88A04822 --settlut 0x98000800 --palette "$fixtures/$name.tlut" \
        "$fixtures/$name.src" "$tmp/words.png"
    [ $rc -eq 0 ] && [ "$out" = "wrote $tmp/words.png: 35x19 RGBA PNG of texels 0,0..34,18 of the 35x19 C14X2 texture (RGB5A3 palette)" ]
    check "gx-texture --setimage0 --settlut (BP writes): says what it wrote" $?
    gx_png "gx-texture --setimage0 --settlut (BP writes): Dolphin's texels" $rc "$tmp/words.png" \
        "$(rgba_region "$fixtures/$name.rgba" 35 0 0 35 19)"
    name=RGBA8_35x19_random
    run gx-texture --format RGBA8 --size 35x19 --region 3,5,10,7 "$fixtures/$name.src" "$tmp/region.png"
    [ $rc -eq 0 ] && [ "$out" = "wrote $tmp/region.png: 10x7 RGBA PNG of texels 3,5..12,11 of the 35x19 RGBA8 texture" ]
    check "gx-texture --region 3,5,10,7: says what it wrote" $?
    gx_png "gx-texture --region 3,5,10,7: those texels" $rc "$tmp/region.png" \
        "$(rgba_region "$fixtures/$name.rgba" 35 3 5 10 7)"
    # A region needs the source only up to the last block it reads: I8 35x19 is 5 blocks of 8x4
    # texels (32 bytes) a block row, so its top 4 rows are the first 160 bytes.
    head -c 160 "$fixtures/I8_35x19_random.src" >"$tmp/i8-top.src"
    "$tool" gx-texture --format I8 --size 35x19 --region 0,0,35,4 "$tmp/i8-top.src" "$tmp/top.png" >/dev/null
    rc=$?
    gx_png "gx-texture: a region decodes from a source that ends after its blocks" $rc "$tmp/top.png" \
        "$(rgba_region "$fixtures/I8_35x19_random.rgba" 35 0 0 35 4)"
    "$tool" gx-texture --format I8 --size 8x8 --palette "$tmp/no-such.tlut" "$fixtures/I8_8x8_random.src" "$tmp/i8.png" >/dev/null
    rc=$?
    gx_png "gx-texture: --palette is not read for a format without a palette" $rc "$tmp/i8.png" \
        "$(rgba_region "$fixtures/I8_8x8_random.rgba" 8 0 0 8 8)"
    rm -f "$tmp/g.png"
    expect_refusal "gx-texture: a source a block row short" "vfetch: region 0,0 35x5 of the 35x19 I8 texture, 160 bytes read from $tmp/i8-top.src: VFETCH_ETEXEL_SHORT_SURFACE: the texel surface buffer ends before the texels read (code -36)" gx-texture --format I8 --size 35x19 --region 0,0,35,5 "$tmp/i8-top.src" "$tmp/g.png"
    [ ! -e "$tmp/g.png" ]; check "gx-texture: no PNG after a refusal" $?
    head -c 63 "$fixtures/I8_8x8_random.src" >"$tmp/short.src"
    expect_refusal "gx-texture: a short input file" "63 bytes read from $tmp/short.src: VFETCH_ETEXEL_SHORT_SURFACE: " gx-texture --format I8 --size 8x8 "$tmp/short.src" "$tmp/g.png"
    head -c 511 "$fixtures/C8-IA8_8x8_random.tlut" >"$tmp/short.tlut"
    expect_refusal "gx-texture: a short palette" "511 palette bytes read from $tmp/short.tlut: VFETCH_EGX_SHORT_PALETTE: the GX palette buffer holds fewer entries than the texture format indexes (code -39)" gx-texture --format C8 --size 8x8 --palette "$tmp/short.tlut" "$fixtures/C8-IA8_8x8_random.src" "$tmp/g.png"
    expect_refusal "gx-texture: a missing palette file" "vfetch: cannot read $tmp/no-such.tlut: " gx-texture --format C8 --size 8x8 --palette "$tmp/no-such.tlut" "$fixtures/C8-IA8_8x8_random.src" "$tmp/g.png"
    expect_usage_error "gx-texture: a palette format without --palette" "gx-texture: a C4 texture needs --palette FILE (16 entries of 16 bits, as in TMEM)" gx-texture --format C4 --size 8x8 "$fixtures/C4-IA8_8x8_random.src" "$tmp/g.png"
    expect_refusal "gx-texture: a region outside the texture" "vfetch: region 30,0 10x4 of the 35x19 IA8 texture, 1440 bytes read from $fixtures/IA8_35x19_random.src: VFETCH_ETEXEL_REGION: the texel region is not inside the surface (code -35)" gx-texture --format IA8 --size 35x19 --region 30,0,10,4 "$fixtures/IA8_35x19_random.src" "$tmp/g.png"
    expect_refusal "gx-texture: a reserved format" "VFETCH_EGX_TEXTURE_FORMAT: reserved GX texture format" gx-texture --setimage0 0xF01C07 "$fixtures/I8_8x8_random.src" "$tmp/g.png"
    expect_refusal "gx-texture: palette format 3" "vfetch: --palette-format 3 (TLUT_FORMAT 3, bits 11:10 of TX_SETTLUT, on a C8 texture): VFETCH_EGX_TLUT_FORMAT: reserved GX palette format (TX_SETTLUT format 3) (code -38)" gx-texture --format C8 --size 8x8 --palette-format 3 --palette "$fixtures/C8-IA8_8x8_random.tlut" "$fixtures/C8-IA8_8x8_random.src" "$tmp/g.png"
    expect_refusal "gx-texture: a missing input" "vfetch: cannot read $tmp/no-such.src: " gx-texture --format I8 --size 8x8 "$tmp/no-such.src" "$tmp/g.png"
    expect_refusal "gx-texture: an unwritable PNG" "vfetch: cannot write $tmp/no-dir/g.png: " gx-texture --format I8 --size 8x8 "$fixtures/I8_8x8_random.src" "$tmp/no-dir/g.png"
    [ ! -e "$tmp/g.png" ]; check "gx-texture: no PNG after any of the refusals" $?
    mapfile -t gots < <(png_rgba "${pngs[@]}")
    for i in "${!descs[@]}"; do
        [ "${rcs[i]}" -eq 0 ] && [ "${gots[i]:-none}" = "${wants[i]}" ]
        check "${descs[i]}" $?
    done
fi

# Usage errors: one line naming the mistake (then a pointer to `vfetch help`), exit 1.
expect_usage_error "a bad word names the option and value" "vfetch: --psc 0xzz: not a list of" explain r300 --psc 0xzz
expect_usage_error "an unknown option is named" "explain r300: unknown option '--bogus'" explain r300 --bogus
expect_usage_error "a missing value is named" "vfetch: --vtx-size needs a value" explain r300 --psc 0x2002 --vtx-size
expect_usage_error "an unknown command is named" "no command 'bogus'" bogus
expect_usage_error "no command at all" "vfetch: no command" 
expect_usage_error "explain without a target" "explain needs a target" explain
expect_usage_error "explain of an unknown target" "explain: no target 'r400'" explain r400
expect_usage_error "--swap out of range" "--swap 4: VC_SWAP is 0..3" explain r300 --swap 4
expect_usage_error "a bad --arrays" "--arrays 4: not STRIDE:COUNT" explain r300 --arrays 4
expect_usage_error "maxwell --bmap 300 names the attribute" "--bmap 300: attribute 300 does not exist" explain maxwell --bmap 300
expect_usage_error "maxwell --attr not a list" "--attr 0x1,,2: not a list" explain maxwell --attr 0x1,,2
expect_usage_error "texel without --format1" "explain texel needs --format1" explain texel
expect_usage_error "texel bad word" "--format1 0xZZ: not a 32-bit word" explain texel --format1 0xZZ
expect_usage_error "texel missing files named" "texel: missing OUT.png" texel --format1 0xC --size 4x2 in.raw
expect_usage_error "aam unknown stage" "--check XS: no stage XS" aam --check XS --imap 1
expect_usage_error "aam map option before --check" "aam: unknown option '--imap' (it follows --check STAGE)" aam --imap 3
expect_usage_error "aam --sph with too few words" "--sph 1,2: 2 words, not the header's 20" aam --check VS --sph 1,2
expect_usage_error "help of an unknown command" "help: no command 'bogus'" help bogus
expect_usage_error "a control character stays on the line" "--psc 0x?zz: not a list" explain r300 --psc $'0x\nzz'

# Extra arguments a command does not take: the first one is named.
expect_usage_error "demo takes no arguments" "demo: unexpected argument 'now'" demo now please
expect_usage_error "cpu takes no arguments" "cpu: unexpected argument 'x'" cpu x
expect_usage_error "--version takes no arguments" "version: unexpected argument 'x'" --version x
expect_usage_error "explain r300 takes no operands" "explain r300: unexpected argument 'extra'" explain r300 --psc 0x2002 --vtx-size 3 extra
expect_usage_error "explain gx takes no operands" "explain gx: unexpected argument 'x'" explain gx --vcd-lo 0x200 x
expect_usage_error "aam takes one attribute" "aam: unexpected argument '2'" aam 1 2
expect_usage_error "texel takes two files" "texel: unexpected argument 'c'" texel --format1 0xC --size 1x1 a b c
expect_usage_error "gx takes one capture" "gx: unexpected argument 'b.dff'" gx a.dff b.dff

# -h / --help: the usage on stdout, exit 0.
expect_usage "help" help
expect_usage "-h" -h
expect_usage "--help" --help
expect_usage "explain r300 --help" explain r300 --help
expect_usage "explain gx -h after options" explain gx --vcd-lo 0x200 -h
expect_usage "demo --help" demo --help
expect_usage "aam --check VS -h" aam --check VS -h
expect_usage "gx --help" gx --help
expect_usage "gx-texture --help" gx-texture --help
expect_usage "explain gx-texture -h after options" explain gx-texture --format I8 -h
expect_usage "help explain gx" help explain gx
[ "$(echo "$out" | grep -c '^  vfetch ')" -eq 1 ] && echo "$out" | grep -q '^  vfetch explain gx '
check "help explain gx prints that command's usage alone" $?
run help
for c in "explain r300" "explain maxwell" "explain gx" "explain texel" "explain gx-texture" "texel" "gx-texture" "gx" "demo" "cpu" "aam" "--version"; do
    echo "$out" | grep -q "^  vfetch $c"; check "help lists vfetch $c" $?
done

# Refusals by the library: one line naming the option, the code's name, the sentence, exit 2.
expect_refusal "explain r300 without words names --vtx-size" "neither --vtx-size nor --arrays given (immediate mode takes --vtx-size 1..128 dwords per vertex): VFETCH_EINVAL: invalid argument" explain r300
expect_refusal "--vtx-size 200 is named" "vfetch: --vtx-size 200 (immediate mode, without --arrays, takes 1..128 dwords per vertex): VFETCH_EINVAL: " explain r300 --psc 0x2002 --vtx-size 200
expect_refusal "a reserved DATA_TYPE names --psc" "vfetch: --psc 0x200D: VFETCH_ER300_RESERVED_TYPE: reserved R300 DATA_TYPE (13..15) (code -4)" explain r300 --psc 0x200D --vtx-size 3
expect_refusal "an underrun names --psc and --vtx-size" "vfetch: --psc 0x2003 with --vtx-size 3: VFETCH_ER300_STREAM_UNDERRUN" explain r300 --psc 0x2003 --vtx-size 3
expect_refusal "17 arrays name --arrays" "VFETCH_ER300_TOO_MANY_ARRAYS" explain r300 --arrays "$(printf '1:1,%.0s' $(seq 16))1:1"
expect_refusal "maxwell: every attribute inactive names --attr" "vfetch: --attr 0xffffffff (no active attribute: the compact record would hold nothing; --full gives the 1 KiB record): VFETCH_EINVAL" explain maxwell --attr 0xffffffff
expect_refusal "maxwell: a bad attribute word is named" "vfetch: --attr word 1 0x39400000 (size 0x0a R8_G8_B8_A8, type 7 FLOAT): VFETCH_EMAXWELL_ATTRIBUTE_FORMAT" explain maxwell --attr 0x38200000,0x39400000 --stream 0x1010
expect_refusal "maxwell: a disabled stream is named" "vfetch: --stream word 0 0x10 (ENABLE, bit 12, clear), read by --attr word 0 0x38200000: VFETCH_EMAXWELL_STREAM_DISABLED" explain maxwell --attr 0x38200000 --stream 0x0010
expect_refusal "texel: W24_FP names --format1" "vfetch: --format1 0x0000001e: VFETCH_ETEXEL_UNSUPPORTED: " explain texel --format1 0x1E
expect_refusal "aam: an unknown attribute is named" "vfetch: aam NO_SUCH (no such attribute: 0..255 or a name): VFETCH_EINVAL" aam NO_SUCH

# vfetch explain gx: VCD_LO POS direct (bits 10:9 = 1), COL0 direct (14:13 = 1); VAT A POSCNT
# XYZ (bit 0), POSFMT f32 (3:1 = 4), COL0CNT RGBA (13), COL0FMT rgba8888 (16:14 = 5).
gx_pc="--vcd-lo 0x2200 --vat-a 0x16009"
run explain gx $gx_pc
check "explain gx position f32 XYZ + color0 rgba8888 exits 0" $rc
echo "$out" | grep -q "^  bytes   0..11  position     direct   f32 x3 (XYZ)$" &&
    echo "$out" | grep -q "^  bytes  12..15  color0       direct   rgba8888 (RGBA)$"
check "explain gx: each attribute, its bytes, mode and format" $?
echo "$out" | grep -q "^vertex: 16 bytes in the command stream$"; check "explain gx: vertex size 16" $?
echo "$out" | grep -q "^output: vec4 layout, float colors, 32 bytes per vertex$" &&
    echo "$out" | grep -q "^  location  0 position     offset    0  float32 x4$" &&
    echo "$out" | grep -q "^  location  4 color0       offset   16  float32 x4$"
check "explain gx: the vec4 declaration" $?
echo "$out" | grep -q "^plan [0-9a-f]*: 1 stream(s), 2 op(s)" && [ "$(echo "$out" | grep -c '^hash [0-9a-f]*$')" -eq 1 ]
check "explain gx: the converter's plan and hash" $?
run explain gx $gx_pc --layout packed --color rgba8
[ $rc -eq 0 ] && echo "$out" | grep -q "^output: packed layout, rgba8 colors, 16 bytes per vertex$" &&
    echo "$out" | grep -q "^  location  0 position     offset    0  float32 x3$" &&
    echo "$out" | grep -q "^  location  4 color0       offset   12  unorm8x4 (normalized)$"
check "explain gx --layout packed --color rgba8: the packed declaration" $?
# position index16 into array 0 with stride 12, PNMTXIDX (VCD_LO bit 0)
run explain gx --vcd-lo 0x601 --vat-a 0x9 --array-stride position=12 --layout dolphin
[ $rc -eq 0 ] && echo "$out" | grep -q "^  bytes   0..0   pos_matrix   direct   a matrix index" &&
    echo "$out" | grep -q "^  bytes   1..2   position     index16  into array 0 (stride 12 bytes): f32 x3 (XYZ), 12-byte elements$" &&
    echo "$out" | grep -q "^vertex: 3 bytes in the command stream$" &&
    echo "$out" | grep -q "^  location 14 pos_matrix   offset    0  uint32 x1$"
check "explain gx: an indexed position and Dolphin's matrix index first" $?
run explain gx
[ $rc -eq 0 ] && echo "$out" | grep -q "^vertex: 0 bytes" && echo "$out" | grep -q "^hash none$"
check "explain gx of no attribute: 0-byte vertices, no plan" $?
# the tier: generated code where this build and CPU have the JIT, else why not; --asm prints it
run explain gx $gx_pc --layout packed --color rgba8 --asm
[ $rc -eq 0 ] && [ "$(echo "$out" | grep -c '^jit: ')" -eq 1 ] &&
    { echo "$out" | grep -q '^jit: none (' ||
      { echo "$out" | grep -q '^jit: [0-9]* bytes of generated code' &&
        echo "$out" | grep -q '^  [0-9a-f]\{4\}  ret$'; }; }
check "explain gx --asm: the jit line, and the code to its ret where there is code" $?
VFETCH_JIT=0 run explain gx $gx_pc
[ $rc -eq 0 ] && echo "$out" | grep -qE '^jit: none \((.*VFETCH_JIT=0|this build has no JIT)'
check "explain gx under VFETCH_JIT=0: no code, and why" $?
expect_refusal "explain gx: a reserved color format names --vat-a and the field" "vfetch: --vat-a 0x0001c009 (COL0FMT 7, bits 16:14, on color0, which --vcd-lo 0x00002200 enables): VFETCH_EGX_RESERVED_COLOR: reserved GX color format (6 or 7) on an enabled color (code -18)" explain gx --vcd-lo 0x2200 --vat-a 0x1c009
run explain gx --vcd-lo 0x200 --vat-a 0x1c009
check "explain gx: a reserved color format on an absent color is ignored" $rc
expect_usage_error "explain gx: a bad word is named" "--vat-b 0x1g: not a 32-bit word" explain gx --vat-b 0x1g
expect_usage_error "explain gx: an unknown layout is named" "--layout vec3: the layouts are" explain gx --layout vec3
expect_usage_error "explain gx: an unknown color output is named" "--color rgb: the color outputs are" explain gx --color rgb
expect_usage_error "explain gx: a bad --array-stride attribute" "--array-stride tex8=4: not ATTR=N" explain gx --array-stride tex8=4
# a comma-separated list is the repeated flag
run explain gx --vcd-lo 0x4600 --vat-a 0x40000009 --array-stride position=12 --array-stride color0=2
repeated="$out"
run explain gx --vcd-lo 0x4600 --vat-a 0x40000009 --array-stride position=12,color0=2
[ $rc -eq 0 ] && [ "$out" = "$repeated" ] &&
    echo "$out" | grep -q "into array 2 (stride 2 bytes)"
check "explain gx: --array-stride as a list, as the flag repeated" $?
expect_usage_error "explain gx: a list's bad item named" "--array-stride color0=300: the stride is 0..255" explain gx --array-stride position=12,color0=300
expect_usage_error "explain gx: a stride above 255" "--array-stride 4=256: the stride is 0..255" explain gx --array-stride 4=256

# vfetch gx: replay the real captures (../shared/testdata/gx) when they are there.
expect_usage_error "gx without a capture" "gx needs a capture file" gx
expect_usage_error "gx: an unreadable capture exits 1" "vfetch: cannot read $tmp/none.dff: " gx "$tmp/none.dff"
printf 'not a capture' >"$tmp/bad.dff"
run gx "$tmp/bad.dff"
[ $rc -eq 2 ] && [ -z "$out" ] && [ "$errlines" -eq 1 ] && grep -q "^vfetch: $tmp/bad.dff: not a Dolphin FIFO capture$" "$tmp/stderr"
check "gx: a file that is no capture exits 2, one line" $?
# vfetch gx --commands: the batch options' usage errors
expect_usage_error "gx: a batch option without --commands" "vfetch: --restart: a batch option, for --commands only" gx --restart "$tmp/none.dff"
expect_usage_error "gx --commands: --batch-indices 0" "vfetch: --batch-indices 0: not a number of 1..16777216" gx --commands --batch-indices 0 "$tmp/none.dff"
expect_usage_error "gx --commands: --batch-vertices above 2^26" "vfetch: --batch-vertices 0x4000001: not a number of 1..67108864" gx --commands --batch-vertices 0x4000001 "$tmp/none.dff"
expect_usage_error "gx --commands: --batch-vertices without a number" "vfetch: --batch-vertices 1k: not a number" gx --commands --batch-vertices 1k "$tmp/none.dff"
# A capture of one frame written here: a draw whose position is indexed (no memory is mapped:
# both passes fail it with VFETCH_EMISSING_STREAM and step over it), a BP write, a direct draw.
if command -v python3 >/dev/null; then
    python3 - "$tmp/indexed.dff" <<'EOF'
import struct, sys
fifo = b"\x08\x50" + struct.pack(">I", 0x400)             # VCD_LO: position index8
fifo += b"\x08\x70" + struct.pack(">I", 0x9)              # VAT0 A: position f32 XYZ
fifo += b"\x90\x00\x03" + bytes([0, 1, 2])                 # TRIANGLES, 3 indexed vertices
fifo += b"\x61" + struct.pack(">I", 0x45000002)            # BP
fifo += b"\x08\x50" + struct.pack(">I", 0x200)            # VCD_LO: position direct
fifo += b"\x98\x00\x04" + struct.pack(">12f", *range(12))  # TRIANGLE_STRIP, 4 vertices
header = struct.pack("<III", 0x0D01F1F0, 1, 1) + bytes(12)  # id, versions; bpMem
header += struct.pack("<QI", 128, 0) + bytes(24)            # cpMem (none); xfMem, xfRegs
header += struct.pack("<QI", 128, 1)                        # the frame list: one frame
header += bytes(128 - len(header))
frame = struct.pack("<QI", 192, len(fifo)) + bytes(52)
open(sys.argv[1], "wb").write(header + frame + fifo)
EOF
    run gx --commands "$tmp/indexed.dff"
    [ $rc -eq 0 ] && [ "$errlines" -eq 0 ] && echo "$out" | grep -q "^frames 1, draws 2, vertices 7, CP writes 3 " &&
        echo "$out" | grep -qx "commands: runs 3, draws 1, vertices 4, indices 6, CP writes 3; flushes 1" &&
        echo "$out" | grep -qx "commands: stops: end 1, foreign 1, truncated 0, batch full 0, error 1" &&
        echo "$out" | grep -q "^commands: not appended: 1 draws with indexed attributes" &&
        echo "$out" | grep -qx "commands: batches with records of more than one stride: 0 of 1" &&
        echo "$out" | grep -qx "commands: the same draws, vertices, indices, flushes and batch bytes as draw by draw"
    check "gx --commands: an indexed draw is stepped over both ways, a BP write too" $?
else
    echo "skip: vfetch gx --commands on a capture written here (no python3)"
fi
if [ -n "$captures" ] && ls "$captures"/*.dff >/dev/null 2>&1; then
    for f in "$captures"/*.dff; do
        name=$(basename "$f")
        run gx "$f"
        [ $rc -eq 0 ] && [ "$errlines" -eq 0 ] && echo "$out" | grep -q "^frames [0-9]*, draws [0-9]*, vertices [0-9]*, CP writes [0-9]*" &&
            echo "$out" | grep -q "^VAT [0-7]: [0-9]*-byte vertices, [0-9]* draws"
        check "gx $name: replayed, summary printed" $?
        case "$name" in # the totals of the captures' README and the gx-fifo test
            v0e8b59a_data.dff) want="frames 1, draws 2, vertices 7," ;;
            vc1b69ee_multiframe.dff) want="frames 30, draws 60, vertices 210," ;;
            v1cb0df8_texture.dff) want="frames 30, draws 3090, vertices 12330," ;;
            *) want="" ;;
        esac
        if [ -n "$want" ]; then
            echo "$out" | grep -q "^$want"; check "gx $name: $want" $?
        fi
        echo "$out" | grep "^  vfetch explain gx " | while read -r _ args; do
            "$tool" $args >/dev/null || echo "FAIL: gx $name: vfetch $args"
        done | grep -q FAIL
        [ $? -ne 0 ]; check "gx $name: each format's explain gx line runs" $?
        # the runs of commands append every draw and vertex the walker found, as draw by draw
        totals=$(echo "$out" | sed -n 's/^frames [0-9]*, draws \([0-9]*\), vertices \([0-9]*\),.*/draws \1, vertices \2,/p')
        run gx --commands "$f"
        [ $rc -eq 0 ] && [ "$errlines" -eq 0 ] && [ -n "$totals" ] &&
            echo "$out" | grep -q "^commands: runs [0-9]*, $totals indices [0-9]*, CP writes [0-9]*; flushes [0-9]*$" &&
            echo "$out" | grep -qx "commands: the same draws, vertices, indices, flushes and batch bytes as draw by draw"
        check "gx --commands $name: $totals the same as draw by draw" $?
    done
    f="$captures/v1cb0df8_texture.dff"
    if [ -f "$f" ]; then
        run gx --layout packed --color rgba8 "$f"
        [ $rc -eq 0 ] && echo "$out" | grep -q "^converted 12330 vertices into [0-9]* bytes (packed layout, rgba8 colors); formats compiled 2$" &&
            echo "$out" | grep -q "^VAT 0: 16-byte vertices, 3060 draws, 12240 vertices: position f32 x2 (XY), tex0 f32 x2 (ST)$"
        check "gx --layout packed --color rgba8: formats compiled, VAT 0's draws" $?
        head -c 20000 "$f" >"$tmp/cut.dff"
        run gx "$tmp/cut.dff"
        [ $rc -eq 2 ] && [ -z "$out" ] && [ "$errlines" -eq 1 ] && grep -q "^vfetch: $tmp/cut.dff: frame " "$tmp/stderr"
        check "gx: a cut capture exits 2, one line" $?
        run gx --commands "$tmp/cut.dff"
        [ $rc -eq 2 ] && [ -z "$out" ] && [ "$errlines" -eq 1 ] && grep -q "^vfetch: $tmp/cut.dff: frame " "$tmp/stderr"
        check "gx --commands: a cut capture exits 2, one line" $?
        # the batch is flushed where the records' stride changes (VAT 0's 32 bytes, VAT 1's 16,
        # 30 times each way) and where it fills up
        run gx --commands "$f"
        [ $rc -eq 0 ] && echo "$out" | grep -qx "commands: runs 1469, draws 3090, vertices 12330, indices 18450, CP writes 180; flushes 60" &&
            echo "$out" | grep -qx "commands: stops: end 0, foreign 1410, truncated 0, batch full 59, error 0" &&
            echo "$out" | grep -qx "commands: batch of 65536 bytes and 16384 u16 indices" &&
            echo "$out" | grep -qx "commands: batches with records of more than one stride: 0 of 60"
        check "gx --commands: the texture capture's runs, stops and flushes (a batch of one stride each)" $?
        # every index option: QUADS as strips with restart, 5 indices a quad
        run gx --commands --layout packed --color rgba8 --restart --u32 --expand --drop-incomplete "$f"
        [ $rc -eq 0 ] && echo "$out" | grep -q "^commands: runs [0-9]*, draws 3090, vertices 12330, indices 15420, CP writes 180; flushes 60$" &&
            echo "$out" | grep -qx "commands: batch of 65536 bytes and 16384 u32 indices, restart, lines and points expanded, incomplete primitives dropped" &&
            echo "$out" | grep -qx "commands: the same draws, vertices, indices, flushes and batch bytes as draw by draw"
        check "gx --commands with every index option: the same as draw by draw" $?
        # small batches: hundreds of flushes, by the records' bytes and by the indices
        run gx --commands --batch-vertices 1000 --batch-indices 100 "$f"
        [ $rc -eq 0 ] && echo "$out" | grep -q "^commands: runs [0-9]*, draws 3090, vertices 12330, indices 18450, CP writes 180; flushes [0-9][0-9][0-9]$" &&
            echo "$out" | grep -qx "commands: the same draws, vertices, indices, flushes and batch bytes as draw by draw"
        check "gx --commands --batch-vertices 1000 --batch-indices 100: flushed often, the same as draw by draw" $?
        expect_refusal "gx --commands: a draw larger than an empty batch exits 2, naming the options" \
            "vfetch: $f: frame 0, draw at byte 245 (VAT 0, 4 vertices) in an empty batch of --batch-vertices 16, --batch-indices 16384: VFETCH_EBATCH_FULL: " \
            gx --commands --batch-vertices 16 "$f"
        expect_refusal "gx --commands: a draw with more indices than an empty batch holds exits 2" \
            "in an empty batch of --batch-vertices 65536, --batch-indices 5: VFETCH_EBATCH_FULL: " gx --commands --batch-indices 5 "$f"
    fi
else
    echo "skip: vfetch gx on the real captures (no ${captures:-captures directory given}/*.dff)"
fi

echo "$fails failed"
[ $fails -eq 0 ]
