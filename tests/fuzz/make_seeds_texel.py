#!/usr/bin/env python3
"""Seed corpus for fuzz_texel.c: one input per format code (and MSB alternate), with a valid
surface, region and target, plus a few error cases. Layout follows fuzz_texel.c's read order."""
import os, struct, sys, zlib

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "texel")
os.makedirs(out, exist_ok=True)

def seed(name, f1, f2=0, opts=None, w=9, h=6, d=1, unit=0, pitch=None, slice_=None,
         short=0, region=(1, 1, 0, 7, 4, 1), whole=0, fmt=0, opitch=None, oslice=None, oshort=0,
         huge=0):
    """huge: 0, or 0x40 (the surface is 2^32 - 1 - w wide, region x counted back from its
    edge) or 0x60 (the same in height and y)."""
    b = struct.pack("<II", f1, f2)
    if opts is None:
        b += bytes([huge])
    else:
        b += bytes([0x80 | huge]) + bytes(opts)
    b += bytes([w, h, d, unit])
    b += bytes([0x80]) + struct.pack("<H", pitch) if pitch is not None else bytes([0])
    b += bytes([0x80]) + struct.pack("<H", slice_) if slice_ is not None else bytes([0])
    b += struct.pack("<b", short)
    b += struct.pack("<Q", zlib.crc32(name.encode()))
    b += bytes(region) + bytes([whole, fmt])
    b += bytes([0x80, opitch]) if opitch is not None else bytes([0])
    b += bytes([0x80]) + struct.pack("<H", oslice) if oslice is not None else bytes([0])
    b += struct.pack("<b", oshort)
    with open(os.path.join(out, name), "wb") as f:
        f.write(b)

SEL_RGBA = 0 << 12 | 1 << 15 | 2 << 18 | 3 << 9
SEL_BGRA = 2 << 12 | 1 << 15 | 0 << 18 | 3 << 9
for code in range(32):
    seed("code%02d" % code, code | SEL_RGBA)
    seed("code%02d-rgba8" % code, code | SEL_BGRA, fmt=1, whole=1)
    seed("code%02d-3d" % code, code | SEL_RGBA | 1 << 25, d=3, region=(0, 2, 1, 5, 3, 2))
for code in range(7):
    seed("msb%d" % code, code | SEL_RGBA, 1 << 14)
    seed("msb%d-rgba8-pitch" % code, code | SEL_BGRA, 1 << 14, fmt=1, unit=1, pitch=20, whole=1)
seed("signed-all", 12 | SEL_RGBA | 0xF << 5, opts=[1, 0, 0, 0, 0, 0, 0, 0])
seed("gamma-dxt1", 15 | SEL_BGRA | 1 << 21, w=13, h=9)
seed("pow2", 3 | SEL_RGBA, 1 << 17)
seed("yuv-clamp", 21 | 1 << 22 | 1 << 24, w=10)
seed("bc-float-signed", 5 | SEL_RGBA | 1 << 5, 1 << 14, opts=[0, 0, 1, 0, 0, 0, 0, 0])
seed("cube", 12 | SEL_RGBA | 2 << 25, w=4, h=4, d=6, region=(0, 0, 2, 4, 4, 3))
seed("short-surface", 17 | SEL_BGRA, w=16, h=8, short=-1, whole=1)
seed("short-target", 6 | SEL_RGBA, oshort=-3)
seed("region-outside", 12 | SEL_RGBA, region=(5, 0, 0, 9, 1, 1))
seed("rgba8-inexact", 14 | SEL_RGBA, fmt=1)
seed("bad-pitch", 12 | SEL_RGBA, pitch=3)
seed("padded-target", 31 | SEL_RGBA, w=21, h=10, whole=1, opitch=0, oslice=800)
seed("reserved-sel", 12 | 6 << 12)
seed("bad-option", 12, opts=[3, 0, 0, 0, 0, 0, 0, 0])
# sizes near 2^32: regions at the far edge (x = edge - region[0]) of blocks wider or taller than 1
for code, f2 in ((15, 0), (31, 0), (0, 1 << 14), (20, 0), (6, 0)):
    seed("huge-wide-%d%s" % (code, "-msb" if f2 else ""), code | SEL_RGBA, f2, w=0, h=5,
         region=(7, 0, 0, 6, 3, 1), huge=0x40)
    seed("huge-wide-inner-%d%s" % (code, "-msb" if f2 else ""), code | SEL_RGBA, f2, w=2, h=3,
         region=(9, 1, 0, 5, 2, 1), huge=0x40, fmt=1)
    seed("huge-tall-%d%s" % (code, "-msb" if f2 else ""), code | SEL_RGBA, f2, w=11, h=0,
         region=(2, 7, 0, 9, 6, 1), huge=0x60)
# the region's first whole block past 2^32 (x + block_w - 1 wraps in 32 bits)
seed("huge-wide-wrap-tx1", 0 | SEL_RGBA, 1 << 14, w=0, h=1, region=(6, 0, 0, 6, 1, 1), huge=0x40)
seed("huge-wide-wrap-dxt1", 15 | SEL_RGBA, w=0, h=4, region=(2, 0, 0, 2, 4, 1), huge=0x40)
seed("huge-tall-wrap-dxt5", 17 | SEL_RGBA, w=5, h=0, region=(0, 2, 0, 5, 2, 1), huge=0x60)
