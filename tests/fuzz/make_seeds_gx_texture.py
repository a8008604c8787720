#!/usr/bin/env python3
"""Seed corpus for fuzz_gx_texture.c: every format with every palette format, whole and in a
region with a padded pitch, both outputs, sizes up to 1024x1024, and each error the header
lists. Layout follows fuzz_gx_texture.c's read order."""
import os, struct, sys, zlib

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "gx_texture")
os.makedirs(out, exist_ok=True)

FORMATS = {"I4": 0, "I8": 1, "IA4": 2, "IA8": 3, "RGB565": 4, "RGB5A3": 5, "RGBA8": 6,
           "C4": 8, "C8": 9, "C14X2": 10, "CMPR": 14}
TLUTS = {"IA8": 0, "RGB565": 1, "RGB5A3": 2}


def seed(name, fmt, w, h, tlut=0, level=0, image=None, settlut=None, address=(1, 1), pick=0,
         region=None, z=None, depth=None, reads_only=0, source_short=0, palette=0,
         palette_arg=0, out_format=1, pitch=None, short_pitch=0, target_delta=0, large=0):
    """address: per word 0 as given, 1 cleared, 2 a register address (map from pick);
    region: None (whole, NULL) or (x, y, w, h); palette: 0 exact, 1 short by palette_arg + 1,
    2 longer by palette_arg, 3 NULL (4 with a format without one: NULL); out_format: 0 RGBA32F,
    1 RGBA8, 2 unknown; pitch: None (packed) or the padding in 4 bytes; target_delta: bytes
    short (negative) or 4 bytes of slack; large: 1 for a texture above 128x128 (the target's
    "large" tier: regions up to 65x65, the whole texture only asked for with rmode bit 3)."""
    if image is None:
        image = (w - 1) | (h - 1) << 10 | fmt << 20
    if settlut is None:
        settlut = tlut << 10
    # bits 0 and 5: up to 128x128 as given; bits 0, 5, 6: any size (the large tier)
    shape = (0x61 if large else 0x21) | address[0] << 1 | address[1] << 3
    b = bytes([level]) + struct.pack("<II", image, settlut) + bytes([shape, pick])
    rmode = 9 if region is None else 2  # whole, or clamped inside (sticking out: bit 1 clear)
    if region is not None and (region[0] + region[2] > w or region[1] + region[3] > h):
        rmode = 0
    if z is not None:
        rmode |= 0xF0 | (z - 1) << 2
    elif depth == 0:
        rmode |= 0xE0
    elif depth == 2:
        rmode |= 0xD0
    b += bytes([rmode]) + struct.pack("<HHHH", *(region or (0, 0, 0, 0)))
    b += bytes([reads_only]) + struct.pack("<b", -source_short)
    b += bytes([palette | palette_arg << 2])
    b += bytes([out_format])
    b += bytes([(0x80 | pitch) if pitch is not None else 0x40 if short_pitch else 0])
    b += struct.pack("<b", target_delta)
    b += struct.pack("<Q", zlib.crc32(name.encode()))
    with open(os.path.join(out, name), "wb") as f:
        f.write(b)


for name, fmt in FORMATS.items():
    tluts = TLUTS.items() if fmt in (8, 9, 10) else [("", 0)]
    for tname, tlut in tluts:
        n = name + ("-" + tname if tname else "")
        seed(n + "_35x19", fmt, 35, 19, tlut)
        seed(n + "_8x8_f32", fmt, 8, 8, tlut, out_format=0)
        seed(n + "_64x32_region_f32_pitch", fmt, 64, 32, tlut, region=(3, 5, 50, 22),
             out_format=0, pitch=3)
        seed(n + "_35x19_region_pitch_slack", fmt, 35, 19, tlut, region=(9, 2, 21, 15), pitch=5,
             target_delta=7)
        seed(n + "_35x19_pitch", fmt, 35, 19, tlut, pitch=1)
        seed(n + "_35x19_region_reads_only", fmt, 35, 19, tlut, region=(1, 1, 13, 9),
             reads_only=1)
    # the far corner of the largest texture, the source only up to the blocks the region reads
    seed(name + "_1024_corner", fmt, 1024, 1024, 2 if fmt in (8, 9, 10) else 0,
         region=(997, 1001, 27, 23), reads_only=1, large=1)
    seed(name + "_1000x600_inner", fmt, 1000, 600, 1 if fmt in (8, 9, 10) else 0,
         region=(501, 299, 65, 33), out_format=0, large=1)
    seed(name + "_1x1", fmt, 1, 1, level=0x81)
for level in range(0x81, 0x86):  # every level below the best one, every format
    for name, fmt in FORMATS.items():
        seed("level%x_%s_35x19_pitch" % (level, name), fmt, 35, 19, 1, level=level, pitch=3)
    seed("level%x_C14X2_35x19_f32" % level, 10, 35, 19, 1, level=level, out_format=0)
seed("RGBA8_1024x1024", 6, 1024, 1024, large=1)  # 4 MiB of output, the target's largest
seed("bp-words", 9, 35, 19, 2, address=(2, 2), pick=0x21)  # 0xA9..., 0xB9...

# errors
for code in (7, 11, 12, 13, 15):
    seed("reserved-format-%d" % code, code, 8, 8)
seed("tlut3-C8", 9, 8, 8, 3)
seed("tlut3-I8-ignored", 1, 8, 8, 3)
seed("address-setimage0", 1, 8, 8, image=0x99000000 | 7 | 7 << 10 | 1 << 20, address=(0, 1))
seed("address-settlut", 9, 8, 8, settlut=0x88000000, address=(1, 0))
seed("short-source", 4, 35, 19, source_short=1)
seed("short-source-region", 4, 35, 19, region=(4, 4, 9, 9), reads_only=1, source_short=1)
seed("short-palette", 9, 8, 8, 1, palette=1)
seed("short-palette-C14X2", 10, 35, 19, 0, palette=1, palette_arg=40)
seed("long-palette", 8, 8, 8, 1, palette=2, palette_arg=33)
seed("null-palette", 8, 8, 8, 0, palette=3)
seed("null-palette-I8", 1, 8, 8, palette=4)
seed("region-outside", 3, 35, 19, region=(30, 0, 10, 4))
seed("region-z1", 3, 35, 19, region=(0, 0, 4, 4), z=1)
seed("region-depth2", 3, 35, 19, region=(0, 0, 4, 4), depth=2)
seed("region-depth0", 3, 35, 19, region=(0, 0, 4, 4), depth=0)
seed("region-empty-width", 3, 35, 19, region=(5, 5, 0, 4))
seed("short-target", 5, 35, 19, target_delta=-1)
seed("short-target-f32", 5, 35, 19, out_format=0, target_delta=-4)
seed("short-pitch", 5, 35, 19, short_pitch=1)
seed("unknown-output", 5, 35, 19, out_format=2)
