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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
png_rgba() { # FILE -> "WxH" and its RGBA bytes in hex (an 8-bit RGBA, non-interlaced PNG)
    python3 - "$1" <<'EOF'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
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
print('%dx%d %s' % (w, h, b''.join(rows).hex()))
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
    [ $rc -eq 2 ] && echo "$msg" | grep -q "ends before the texels read (code -36): .* 31 bytes read from" && [ ! -e "$tmp/g.png" ]
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

echo "$fails failed"
[ $fails -eq 0 ]
