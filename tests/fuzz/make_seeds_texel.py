#!/usr/bin/env python3
"""Seed corpus for fuzz_texel.c: one input per format code (and MSB alternate), with a valid
surface, region and target, plus a few error cases. Layout follows fuzz_texel.c's read order."""
import os, struct, sys, zlib

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "texel")
os.makedirs(out, exist_ok=True)

def seed(name, f1, f2=0, opts=None, w=9, h=6, d=1, unit=0, pitch=None, slice_=None,
         short=0, region=(1, 1, 0, 7, 4, 1), whole=0, fmt=0, opitch=None, oslice=None, oshort=0):
    b = struct.pack("<II", f1, f2)
    if opts is None:
        b += bytes([0])
    else:
        b += bytes([0x80]) + bytes(opts)
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
