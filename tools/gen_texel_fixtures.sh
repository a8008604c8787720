#!/bin/sh
# Regenerate tests/texel/fixtures/: small crops of icons shipped in Debian packages, compressed
# with NVIDIA Texture Tools' nvcompress (-bc1 .. -bc5) and decoded back with its nvdecompress,
# whose RGBA output is stored raw (<name>.<bc>.rgba, width * height * 4 bytes R, G, B, A).
# tests/texel/test_texel_nvtt.c decodes every .dds with vfetch and compares.
#
# Needs: python3, libnvtt-bin 2.0.8 (installed with apt-get if missing, when run as root),
# adwaita-icon-theme and openjdk-17-jre (the source icons; see tests/texel/fixtures/README.md).
#
# Usage: tools/gen_texel_fixtures.sh [output-dir]   (default tests/texel/fixtures)
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/tests/texel/fixtures}

if ! command -v nvcompress >/dev/null 2>&1 || ! command -v nvdecompress >/dev/null 2>&1; then
    apt-get install -y libnvtt-bin
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$out"

# name  source png  crop x y width height
cat >"$work/list" <<'EOF'
folder 32x32 /usr/share/icons/Adwaita/32x32/places/folder-pictures.png 0 0 32 32
duke 30x18 /usr/share/icons/hicolor/48x48/apps/openjdk-17.png 0 0 30 18
foot 13x7 /usr/share/icons/Adwaita/48x48/places/start-here.png 8 10 13 7
EOF

# PNG (8-bit RGB / RGBA, not interlaced) -> cropped 32-bit top-left TGA; TGA -> raw RGBA.
cat >"$work/conv.py" <<'EOF'
import struct, sys, zlib

def read_png(path):
    d = open(path, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n', path
    p, idat = 8, b''
    while p < len(d):
        n, t = struct.unpack('>I4s', d[p:p + 8])
        c = d[p + 8:p + 8 + n]
        if t == b'IHDR':
            w, h, bd, ct, _, _, il = struct.unpack('>IIBBBBB', c)
            assert bd == 8 and ct in (2, 6) and il == 0, (path, bd, ct, il)
        elif t == b'IDAT':
            idat += c
        p += 12 + n
    bpp = 4 if ct == 6 else 3
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
            else: assert f == 0, f
        rows.append(bytes(line) if bpp == 4 else
                    b''.join(line[i:i + 3] + b'\xff' for i in range(0, stride, 3)))
        prev = line
    return w, h, rows

def crop_to_tga(src, x, y, w, h, dst):
    pw, ph, rows = read_png(src)
    assert x + w <= pw and y + h <= ph
    px = bytearray()
    for r in range(y, y + h):
        for i in range(x, x + w):
            R, G, B, A = rows[r][4 * i:4 * i + 4]
            px += bytes((B, G, R, A))
    hdr = struct.pack('<BBBHHBHHHHBB', 0, 0, 2, 0, 0, 0, 0, 0, w, h, 32, 0x28)
    open(dst, 'wb').write(hdr + px)

def tga_to_rgba(src, dst, w, h):
    d = open(src, 'rb').read()
    assert d[1] == 0 and d[2] == 2, src
    tw, th = struct.unpack('<HH', d[12:16])
    assert (tw, th) == (w, h), (src, tw, th)
    n, top = d[16] // 8, d[17] & 0x20
    off = 18 + d[0]
    out = bytearray()
    for y in range(h):
        sy = y if top else h - 1 - y
        for x in range(w):
            p = off + (sy * w + x) * n
            if n == 4: out += bytes((d[p + 2], d[p + 1], d[p], d[p + 3]))
            else: out += bytes((d[p + 2], d[p + 1], d[p], 255))
    open(dst, 'wb').write(out)

def noise_dds(fourcc, w, h, dst):
    # Pseudo-random blocks (a fixed 64-bit LCG, so the bytes never depend on Python's RNG):
    # about half the colour blocks have c0 <= c1 and half the alpha blocks a0 <= a1; every
    # eighth block has equal endpoints.
    state = 0x9E3779B97F4A7C15
    def byte():
        nonlocal state
        state = (state * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
        return state >> 56
    bs = 8 if fourcc in ('DXT1', 'ATI1') else 16
    nblocks = ((w + 3) // 4) * ((h + 3) // 4)
    data = bytearray()
    for k in range(nblocks):
        b = bytearray(byte() for _ in range(bs))
        if k % 8 == 7:
            if fourcc in ('DXT1', 'DXT3', 'DXT5'):
                b[bs - 6:bs - 4] = b[bs - 8:bs - 6]
            if fourcc in ('DXT5', 'ATI1', 'ATI2'):
                b[1] = b[0]
            if fourcc == 'ATI2':
                b[9] = b[8]
        data += b
    flags = 0x1 | 0x2 | 0x4 | 0x1000 | 0x80000
    pf = struct.pack('<II4sIIIII', 32, 0x4, fourcc.encode(), 0, 0, 0, 0, 0)
    hdr = (struct.pack('<4sIIIIIII', b'DDS ', 124, flags, h, w, len(data), 0, 1) + bytes(44) +
           pf + struct.pack('<IIIII', 0x1000, 0, 0, 0, 0))
    open(dst, 'wb').write(hdr + data)

if sys.argv[1] == 'noise':
    noise_dds(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
elif sys.argv[1] == 'crop':
    crop_to_tga(sys.argv[2], *map(int, sys.argv[3:7]), sys.argv[7])
else:
    tga_to_rgba(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
EOF

while read -r name size src x y w h; do
    python3 "$work/conv.py" crop "$src" "$x" "$y" "$w" "$h" "$work/$name.tga"
    for bc in bc1 bc1a bc2 bc3 bc4 bc5; do
        nvcompress -nomips -$bc "$work/$name.tga" "$work/$name.$bc.dds" >/dev/null
        nvdecompress "$work/$name.$bc.dds" >/dev/null
        python3 "$work/conv.py" rgba "$work/$name.$bc.tga" "$out/$name.$bc.rgba" "$w" "$h"
        cp "$work/$name.$bc.dds" "$out/$name.$bc.dds"
        echo "$name ($size from $src): $bc"
    done
done <"$work/list"

# Hand-made blocks of pseudo-random bytes (not from nvcompress), decoded by nvdecompress: they
# exercise what real encoder output rarely does (three-colour DXT3/DXT5 blocks, index 3 of
# three-colour blocks, six-value alpha blocks with indices 6 and 7).
for pair in bc1:DXT1 bc2:DXT3 bc3:DXT5 bc4:ATI1 bc5:ATI2; do
    bc=${pair%%:*} fourcc=${pair#*:}
    python3 "$work/conv.py" noise "$fourcc" 30 14 "$work/noise.$bc.dds"
    nvdecompress "$work/noise.$bc.dds" >/dev/null
    python3 "$work/conv.py" rgba "$work/noise.$bc.tga" "$out/noise.$bc.rgba" 30 14
    cp "$work/noise.$bc.dds" "$out/noise.$bc.dds"
    echo "noise (30x14, pseudo-random blocks): $bc"
done
