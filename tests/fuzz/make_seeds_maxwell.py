#!/usr/bin/env python3
"""Write the seed corpus of fuzz_maxwell: tests/fuzz/corpus/maxwell/<name>.

The encoder follows the order in which tests/fuzz/fuzz_maxwell.c reads its input (see the
comment at its top; little-endian, zeros once the input ends). The seeds reach successful
draws in both layouts, an instanced stream, u16/u32 indices, an index offset, SWAP_R_AND_B,
every size code, a Bmap with system values, and each error of compile and run. Regenerate with
    python3 tests/fuzz/make_seeds_maxwell.py
(make_seeds.py calls it too). Files named "regress-*" are left alone.
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.path.join(HERE, "corpus", "maxwell")


def u8(v): return struct.pack("<B", v & 0xff)
def i8(v): return struct.pack("<b", v)
def u16(v): return struct.pack("<H", v & 0xffff)
def u32(v): return struct.pack("<I", v & 0xffffffff)
def u64(v): return struct.pack("<Q", v & 0xffffffffffffffff)


SIZES = [0x01, 0x02, 0x03, 0x04, 0x05, 0x0A, 0x0F, 0x12, 0x13, 0x18, 0x1B, 0x1D, 0x2F, 0x30, 0x31,
         0x32, 0x33, 0x34]
SNORM, UNORM, SINT, UINT, USCALED, SSCALED, FLOAT = range(1, 8)
FULL, COMPACT = 0, 1
NONE, U16, U32, BAD = 0, 1, 2, 3
# Bmap system bits (the "sys" byte)
VERTEX_ID, INSTANCE_ID, POSITION, COLOR0, TEX0, FRONT_FACE, CLIP0 = (1 << k for k in range(7))


def built(index, stream=0, offset=0, size=0x01, type_=FLOAT, swap=0, inactive=False,
          keep_invalid=False, wide=False, flip=None):
    """One attribute entry whose word the target builds (mode & 3 != 0)."""
    mode = 1 | (4 if wide else 0) | (64 if offset > 63 else 0) | (16 if keep_invalid else 0)
    mode |= 32 if inactive else 0
    mode |= 8 if flip is not None else 0
    raw = (stream & 31) | (offset & 0x3fff) << 5 | SIZES.index(size) << 19 | (type_ - 1) << 24
    raw |= (swap & 1) << 27
    return u8(index) + u8(mode) + u32(raw) + u8(flip or 0)


def raw_word(index, word):
    return u8(index) + u8(0) + u32(word) + u8(0)


def stream(stride=16, enabled=True, instanced=False, frequency=0):
    fmt = (stride & 0xfff) | (0 if enabled else 0x1000)  # ENABLE is inverted in the input
    return u16(fmt) + u8(1 if instanced else 0) + u8(frequency)


def binding(size_mode=0, delta=0, raw_size=0, loc_mode=0, location=0x10000, limit_mode=0, shrink=0):
    return (u8(size_mode) + i8(delta) + u16(raw_size) + u8(loc_mode) + u64(location) +
            u8(limit_mode) + u8(shrink))


def maxwell(attrs=(), streams=(), others=0, default_mode=0, default=0, bmap_mode=0, bmap=(0,) * 8,
            sys=0, layout=COMPACT, per_op=False, level=0, flags=0, which=0, first=0, count=3,
            index_type=NONE, index_mode=0, index_range=3, index_delta=0, offset_mode=0, offset=0,
            vertex_id_base=0, instance_mode=0, instance=0, base_instance=0, out_delta=0,
            bindings=(), seed=1, desc_extra=0, big_count=0, data=b""):
    b = u8(level) + u8(layout | (2 if per_op else 0) | desc_extra)
    b += u8(len(attrs)) + b"".join(attrs)
    st = list(streams) + [stream()] * 4
    b += b"".join(st[:4]) + u8(others)
    b += u8(default_mode) + u32(default)
    bm = list(bmap) + [0] * 8
    b += u8(bmap_mode) + b"".join(u32(w) for w in bm[:8]) + u8(sys)
    first_mode = 0 if first == 0 else 1 if first < 256 else 2 if first < 65536 else 3
    b += u8(flags) + u8(which) + u8(first_mode) + u32(first)
    b += u16(count | (0x8000 if big_count else 0)) + u32(big_count)
    b += u8(index_type) + u8(index_mode) + u16(index_range) + i8(index_delta)
    b += u8(offset_mode) + u64(offset) + u32(vertex_id_base)
    b += u8(instance_mode) + u32(instance) + u32(base_instance) + i8(out_delta)
    bl = list(bindings) + [binding()] * 5
    b += b"".join(bl[:5]) + u32(seed)
    return b + data


def seeds():
    pos = built(0, 0, 0, 0x02, FLOAT)            # R32G32B32 FLOAT at 0
    col = built(1, 0, 12, 0x0A, UNORM)           # R8G8B8A8 UNORM at 12
    uv = built(2, 0, 16, 0x0F, SNORM, swap=1)    # R16G16 SNORM at 16, R and B swapped
    inst = built(3, 1, 0, 0x03, FLOAT)           # R16G16B16A16 FLOAT on stream 1
    ints = built(4, 2, 4, 0x13, SINT)            # R8G8B8 SINT at 4 on stream 2
    packed = built(5, 2, 8, 0x30, UINT)          # A2B10G10R10 UINT
    small = built(6, 2, 12, 0x31, FLOAT)         # B10G11R11 FLOAT
    s = {}
    s["compact-basic"] = maxwell([pos, col, uv], [stream(20)], count=4)
    s["full-basic"] = maxwell([pos, col, uv], [stream(20)], layout=FULL, count=3, default_mode=2,
                              default=0x5)
    s["compact-bmap-sys"] = maxwell([pos, col], [stream(16)], bmap_mode=3, bmap=(0x3,),
                                    sys=VERTEX_ID | INSTANCE_ID | POSITION | FRONT_FACE,
                                    vertex_id_base=1000, instance_mode=1, instance=7, count=5)
    s["full-partial-bmap"] = maxwell([pos, col, uv], [stream(20)], layout=FULL, bmap_mode=2,
                                     bmap=(0, 0x0305, 0, 0, 0), sys=VERTEX_ID | COLOR0 | TEX0 | CLIP0,
                                     count=2)
    s["instanced"] = maxwell([pos, inst], [stream(12), stream(8, instanced=True, frequency=2)],
                             instance_mode=1 | 1 << 2, instance=5, base_instance=3, count=6,
                             bmap_mode=3, bmap=(0x9,), sys=INSTANCE_ID | VERTEX_ID)
    s["instanced-freq0"] = maxwell([inst], [stream(), stream(8, instanced=True, frequency=0)],
                                   instance_mode=1 | 1 << 2, instance=9, base_instance=1, count=2)
    s["indexed-u16"] = maxwell([pos, col], [stream(16)], index_type=U16, index_mode=0,
                               index_range=40, count=30, first=2, vertex_id_base=0xfffffff0,
                               bmap_mode=3, bmap=(0x3,), sys=VERTEX_ID)
    s["indexed-u32-offset"] = maxwell([pos, uv], [stream(20)], index_type=U32, index_mode=2,
                                      index_range=5, count=7, offset_mode=1, offset=3,
                                      layout=FULL, bmap_mode=3, bmap=(0x5,), sys=VERTEX_ID)
    s["integers-packed"] = maxwell([ints, packed, small], [stream(), stream(), stream(16)],
                                   count=9, per_op=True)
    s["every-size"] = maxwell([built(k, k % 4, 4 * k, SIZES[k], UNORM if SIZES[k] != 0x31 else FLOAT,
                                     swap=k & 1) for k in range(18)],
                              [stream(80), stream(96), stream(104), stream(112)], count=12,
                              data=bytes(range(256)) * 8)
    s["uint32-32bit-norm"] = maxwell([built(0, 0, 0, 0x01, UNORM), built(1, 0, 16, 0x04, SNORM),
                                      built(2, 0, 24, 0x12, SSCALED), built(3, 0, 28, 0x04, UINT)],
                                     [stream(36)], count=8, data=b"\xff\x7f\x00\x80" * 80)
    s["big-offset-wide-stream"] = maxwell([built(9, 17, 300, 0x1B, USCALED, wide=True)],
                                          others=2 * 8, count=4)
    s["empty-full-no-attrs"] = maxwell([], layout=FULL, count=2, flags=1, default_mode=2,
                                       default=0xf)
    s["count-zero"] = maxwell([pos], [stream(12)], count=0)
    # compile errors
    s["err-compact-empty"] = maxwell([], layout=COMPACT)
    s["err-bad-layout"] = maxwell([pos], desc_extra=0xC)
    s["err-bad-path"] = maxwell([pos], desc_extra=0x30)
    s["err-format"] = maxwell([built(0, 0, 0, 0x0A, FLOAT, keep_invalid=True)])
    s["err-format-raw"] = maxwell([raw_word(3, 0x00000000)])
    s["err-disabled"] = maxwell([pos], [stream(12, enabled=False)])
    s["ok-bad-word-outside-bmap"] = maxwell([pos, raw_word(7, 0x07e00000)], [stream(12)],
                                            bmap_mode=3, bmap=(0x1,), count=2)
    # run errors
    s["err-short-stream"] = maxwell([pos], [stream(12)], count=5, bindings=[binding(delta=-1)])
    s["err-limit-below-location"] = maxwell([pos], [stream(12)], count=1,
                                            bindings=[binding(limit_mode=3, shrink=4)])
    s["err-limit-wraps"] = maxwell([pos], [stream(12)], count=2,
                                   bindings=[binding(loc_mode=2, location=5)])
    s["err-short-output"] = maxwell([pos], [stream(12)], count=4, out_delta=-1, layout=FULL)
    s["err-short-indices"] = maxwell([pos], [stream(12)], count=4, index_type=U16, index_delta=-1)
    s["err-index-range"] = maxwell([pos], [stream(12)], count=4, index_type=U32, offset_mode=5,
                                   offset=100)
    s["err-overflow"] = maxwell([pos], [stream(12)], first=0xfffffff0, count=0x20)
    s["err-missing-stream"] = maxwell([pos, inst], [stream(12), stream(8, instanced=True)],
                                      flags=8, which=1, count=2)
    s["err-streams-null"] = maxwell([pos], [stream(12)], flags=1, count=2)
    s["err-bad-index-type"] = maxwell([pos], [stream(12)], index_type=BAD, count=2)
    s["err-instance-past-limit"] = maxwell([inst], [stream(), stream(8, instanced=True, frequency=1)],
                                           instance_mode=2, instance=0xfffffffe, count=1,
                                           bindings=[binding(), binding(size_mode=2, raw_size=64)])
    s["err-out-null"] = maxwell([pos], [stream(12)], flags=2, count=1)
    return s


def main():
    os.makedirs(TARGET, exist_ok=True)
    for n in os.listdir(TARGET):
        if not n.startswith("regress-"):
            os.remove(os.path.join(TARGET, n))
    for name, data in seeds().items():
        with open(os.path.join(TARGET, name), "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
