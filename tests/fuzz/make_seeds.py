#!/usr/bin/env python3
"""Write the seed corpus of every fuzz target: tests/fuzz/corpus/<target>/<name>.

Each encoder below follows the order in which its target reads the input (fuzz_input.h:
little-endian values, zeros once the input ends), so every seed is a meaningful case: valid
formats of several kinds, each error, indexed draws, edge sizes. Regenerate with
    python3 tests/fuzz/make_seeds.py
Files whose names start with "regress-" are reproducers of past findings: this script never
touches them.
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")


def u8(v): return struct.pack("<B", v & 0xff)
def i8(v): return struct.pack("<b", v)
def u16(v): return struct.pack("<H", v & 0xffff)
def u32(v): return struct.pack("<I", v & 0xffffffff)
def u64(v): return struct.pack("<Q", v & 0xffffffffffffffff)


def write(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def clean(target):
    d = os.path.join(CORPUS, target)
    if os.path.isdir(d):
        for n in os.listdir(d):
            if not n.startswith("regress-"):
                os.remove(os.path.join(d, n))


# ---- vfetch_run parameters (fuzz_plan_run.c) ------------------------------------------------

INDEX_NONE, INDEX_U16, INDEX_U32, INDEX_BAD = 0, 1, 2, 6
F_NO_STREAMS, F_NO_OUT, F_NO_INDICES, F_UNBOUND, F_FEWER_STREAMS = 1, 2, 4, 8, 16


def run_params(flags=0, first=0, count=3, index_type=INDEX_NONE, index_mode=0, index_range=3,
               offset_mode=0, offset=0, max_mode=0, max_index=0, index_delta=0, out_delta=0,
               stream_delta=None, unbound=0, seed=1, data=b""):
    first_mode = 0 if first == 0 else 1 if first < 256 else 2 if first < 65536 else 3
    b = u8(flags) + u8(first_mode) + u32(first)
    if count > 4096:
        b += u16(0x8000) + u32(count)
    else:
        b += u16(count)
    b += u8(index_type) + u8(index_mode) + u16(index_range)
    b += u8(offset_mode) + u64(offset) + u8(max_mode) + u32(max_index)
    sd = (stream_delta or []) + [0] * 16
    b += i8(index_delta) + i8(out_delta) + b"".join(i8(x) for x in sd[:16]) + u8(unbound)
    return b + u32(seed) + data


# ---- hand-built plans (fuzz_plan.c) ---------------------------------------------------------

FLOAT32, FLOAT16, FIXED8, FIXED16, F101010, F111110, RGB565, RGBA4444, RGBA6666, UINT6 = range(10)
C_FLOAT, C_UINT, C_SINT, C_UNORM, C_SNORM_ZERO, C_SNORM_CLAMP, C_SNORM_NO_ZERO, C_UNORM8, \
    C_INTEGER, C_PACK = range(10)
LITTLE, SWAP16, SWAP32, SWAPHALF, BIG = range(5)
INDEXED, SEQUENTIAL, CONSTANT = range(3)
PACKED = {F101010, F111110, RGB565, RGBA4444, RGBA6666}


def op(fmt, conv=C_FLOAT, count=4, srcs=((0, 0),), swizzle=(0, 1, 2, 3), mask=0xf, dst=0,
       shift=0, flags=0):
    """One op; srcs: (stream, offset) of component 0 (later ones follow the container)."""
    size = {FLOAT32: 4, FLOAT16: 2, FIXED8: 1, FIXED16: 2, UINT6: 1}.get(fmt, 0)
    if any(s > 5 for s in swizzle):
        flags |= 16  # raw selectors: the reserved 6/7 reach the library
    if conv != C_FLOAT and not (flags & 1):
        conv_byte = conv - 1
    else:
        conv_byte = conv
    if fmt in (FLOAT32, FLOAT16) and not (flags & 1):
        conv_byte = 0
    b = u8(flags) + u8(fmt) + u8(conv_byte) + u8(shift) + u8(count)
    stream0, off0 = srcs[0]
    for c in range(4):
        if c < len(srcs):
            s, o = srcs[c]
        else:
            s, o = stream0, off0 + c * size
        b += u8(s) + u8(o)
    sw = 0
    for c in range(4):
        sw |= (swizzle[c] & 7) << (3 * c)
    return b + u16(sw) + u8(mask) + u16(dst)


def plan(streams, ops, out_slots, out_stride=0, path=0, level=0, locations=(), run=b""):
    """streams: (stride, order, step); out_stride 0 = record size."""
    if out_stride == 0:
        stride_mode, stride_value = 0, 0
    else:
        stride_mode, stride_value = 2, out_stride
    b = u8(level) + u8(len(streams)) + u8(len(ops)) + u16(out_slots) + u8(stride_mode)
    b += u16(stride_value) + u8(path)
    for stride, order, step in streams:
        b += u16(stride) + u8(order) + u8(step)
    for o in ops:
        b += o
    b += u8(len(locations))
    for loc, slot in locations:
        b += u8(loc) + u16(slot + 20)
    return b + run


def vertex_bytes(n, size, seed):
    out = bytearray()
    x = seed * 2654435761 & 0xffffffff
    for _ in range(n * size):
        x = (x * 1103515245 + 12345) & 0xffffffff
        out.append(x >> 16 & 0xff)
    return bytes(out)


def make_plan_seeds():
    t = "plan"
    clean(t)
    pos_color = [op(FLOAT32, count=3, srcs=((0, 0),), dst=0),
                 op(FIXED8, C_UNORM, count=4, srcs=((0, 12),), dst=4)]
    s16 = [(16, LITTLE, INDEXED)]
    floats = struct.pack("<3f", 1.0, -2.5, 0.0) + bytes([255, 128, 0, 7])
    write(t, "float3-color-direct", plan(s16, pos_color, 8, run=run_params(count=3, data=floats * 3)))
    write(t, "float3-color-u16-indices", plan(s16, pos_color, 8, run=run_params(
        count=6, index_type=INDEX_U16, index_mode=0, index_range=3)))
    write(t, "float3-color-u32-offset-clamp", plan(s16, pos_color, 8, run=run_params(
        count=9, index_type=INDEX_U32, index_range=40, offset_mode=1, offset=3, max_mode=1,
        max_index=20)))
    write(t, "indices-first-nonzero", plan(s16, pos_color, 8, run=run_params(
        first=5, count=7, index_type=INDEX_U16, index_mode=2, index_range=1)))
    for order in (LITTLE, SWAP16, SWAP32, SWAPHALF, BIG):
        write(t, "fixed16-snorm-order%d" % order, plan([(8, order, INDEXED)], [
            op(FIXED16, C_SNORM_ZERO, count=4)], 4, run=run_params(count=17)))
    for fmt, conv in ((F101010, C_UNORM), (F101010, C_SINT), (F111110, C_SNORM_NO_ZERO),
                      (RGB565, C_UNORM8), (RGBA4444, C_UNORM8), (RGBA6666, C_UNORM8),
                      (RGB565, C_PACK), (RGBA4444, C_PACK), (RGBA6666, C_PACK)):
        count = 4 if fmt in (RGBA4444, RGBA6666) else 3
        mask = 1 if conv == C_PACK else 0xf
        write(t, "packed-f%d-c%d" % (fmt, conv), plan([(4, BIG if fmt >= RGB565 else LITTLE, INDEXED)], [
            op(fmt, conv, count=count, mask=mask)], 4, run=run_params(count=33)))
    write(t, "float16-x4", plan([(8, LITTLE, INDEXED)], [op(FLOAT16, count=4)], 4,
                                run=run_params(count=64, data=u16(0x7c01) + u16(0xfc00) + u16(0x0001) + u16(0x3c00))))
    write(t, "uint6-integer", plan([(1, BIG, SEQUENTIAL)], [op(UINT6, C_INTEGER, count=1, mask=1)], 1,
                                   run=run_params(count=100)))
    write(t, "uint-shift31", plan([(4, LITTLE, INDEXED)], [op(FIXED16, C_UINT, count=2, shift=31)], 4,
                                  run=run_params(count=5)))
    write(t, "swizzle-constants-partial-mask", plan([(12, LITTLE, INDEXED)], [
        op(FLOAT32, count=3, swizzle=(2, 4, 5, 0), mask=0b1011, dst=1)], 8, out_stride=48,
        run=run_params(count=11)))
    write(t, "three-streams-steps", plan([(12, LITTLE, INDEXED), (4, BIG, SEQUENTIAL), (16, LITTLE, CONSTANT)], [
        op(FLOAT32, count=3, srcs=((0, 0),)), op(FIXED8, C_UNORM, count=4, srcs=((1, 0),), dst=4),
        op(FLOAT32, count=4, srcs=((2, 0),), dst=8)], 12, run=run_params(
            count=20, index_type=INDEX_U16, index_range=30)))
    write(t, "overlapping-ops", plan([(8, LITTLE, INDEXED)], [
        op(FIXED8, C_UINT, count=4), op(FIXED16, C_SINT, count=2, dst=2, mask=0x3)], 4,
        run=run_params(count=8)))
    write(t, "stride0-extent-larger", plan([(0, LITTLE, INDEXED)], [op(FLOAT32, count=4)], 4,
                                           run=run_params(count=40, index_type=INDEX_U16)))
    write(t, "stride-smaller-than-record", plan([(4, LITTLE, INDEXED)], [op(FLOAT32, count=4)], 4,
                                                run=run_params(count=40, index_type=INDEX_U32, index_range=9)))
    write(t, "big-count", plan([(4, LITTLE, INDEXED)], [op(FIXED8, C_UNORM, count=4)], 4,
                               run=run_params(count=4096)))
    write(t, "count-zero", plan(s16, pos_color, 8, run=run_params(count=0)))
    write(t, "count-one", plan(s16, pos_color, 8, run=run_params(count=1)))
    write(t, "per-op-path", plan(s16, pos_color, 8, path=1, run=run_params(count=19)))
    write(t, "level-lowest", plan(s16, pos_color, 8, level=0x81, run=run_params(count=19)))
    write(t, "locations", plan(s16, pos_color, 8, locations=((0, 0), (3, 4), (31, 7), (5, 9), (6, -1)),
                               run=run_params(count=2)))
    write(t, "max-slots", plan([(16, LITTLE, INDEXED)], [op(FLOAT32, count=4, dst=252)], 256,
                               run=run_params(count=2)))
    # every run error
    errs = {
        "einval-index-type": run_params(index_type=INDEX_BAD),
        "einval-no-streams": run_params(flags=F_NO_STREAMS),
        "einval-fewer-streams": run_params(flags=F_FEWER_STREAMS),
        "einval-no-out": run_params(flags=F_NO_OUT),
        "einval-no-indices": run_params(flags=F_NO_INDICES, index_type=INDEX_U16),
        "eoverflow-first-count": run_params(first=0xffffffff, count=2),
        "eshort-indices": run_params(index_type=INDEX_U32, index_delta=-1),
        "eshort-output": run_params(count=5, out_delta=-1),
        "eindex-range": run_params(index_type=INDEX_U16, offset_mode=1, offset=0xfb),
        "emissing-stream": run_params(flags=F_UNBOUND),
        "eshort-stream": run_params(count=4, stream_delta=[-1]),
        "eshort-stream-indexed": run_params(count=4, index_type=INDEX_U16, index_range=9, stream_delta=[-1]),
        "offset-negative-ok": run_params(count=4, index_type=INDEX_U32, index_mode=2, index_range=10,
                                         offset_mode=5, offset=10),
        "offset-int64-min": run_params(index_type=INDEX_U16, offset_mode=4, offset=0),
    }
    for name, run in errs.items():
        write(t, "run-" + name, plan(s16, pos_color, 8, run=run))
    # plan errors
    write(t, "eplan-no-streams", plan([], pos_color, 8))
    write(t, "eplan-slot-past-end", plan(s16, [op(FLOAT32, count=4, dst=6)], 8))
    write(t, "eplan-swap-stride", plan([(6, SWAP16, INDEXED)], [op(FIXED8, C_UINT, count=1)], 4))
    write(t, "eplan-float-unorm", plan(s16, [op(FLOAT32, C_UNORM, count=1, flags=1)], 4))
    write(t, "eplan-pack-mask", plan(s16, [op(RGB565, C_PACK, count=3, mask=3)], 4))
    write(t, "ereserved-swizzle", plan(s16, [op(FLOAT32, count=4, swizzle=(0, 6, 2, 7))], 4))


# ---- R300 (fuzz_r300.c) ---------------------------------------------------------------------

def el(dtype, loc, last=0, signed=0, norm=0, skip=0):
    return dtype | skip << 4 | loc << 8 | last << 13 | signed << 14 | norm << 15


def r300(elements, arrays=(), vtx_size=0, ext=None, sgn_norm=None, swap=0, layout=0,
         stride_shift=0, num_arrays=None, level=0, run=b""):
    psc = [0] * 8
    for i, e in enumerate(elements):
        psc[i // 2] |= e << (16 * (i & 1))
    options = (1 if ext is not None else 0) | (2 if sgn_norm is not None else 0) | \
        (4 if stride_shift else 0) | layout << 4
    b = u8(level) + b"".join(u32(w) for w in psc) + u8(options)
    ext_words = [0] * 8
    for i, e in enumerate(ext or []):
        ext_words[i // 2] |= e << (16 * (i & 1))
    b += b"".join(u32(w) for w in ext_words)
    b += u32(sgn_norm or 0) + u32(swap)
    b += u8(len(arrays) if num_arrays is None else num_arrays)
    arr = list(arrays) + [(0, 0)] * 16
    for stride, count in arr[:16]:
        b += u8(stride) + u8(count)
    return b + u8(vtx_size) + run


def ext(sw=(0, 1, 2, 3), mask=0xf):
    v = 0
    for c in range(4):
        v |= sw[c] << (3 * c)
    return v | mask << 12


def make_r300_seeds():
    t = "r300"
    clean(t)
    FLOAT_3, FLOAT_4, BYTE, D3DCOLOR, SHORT_2, SHORT_4, TTT, EET, FLOAT_8, H2, H4 = 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    readme = [el(FLOAT_3, 0), el(D3DCOLOR, 1, last=1, norm=1)]
    write(t, "readme-example", r300(readme, arrays=[(4, 4)], run=run_params(count=3)))
    write(t, "readme-indexed-u16", r300(readme, arrays=[(4, 4)], run=run_params(count=6, index_type=INDEX_U16)))
    demo = [el(FLOAT_3, 0), el(SHORT_4, 1, signed=1, norm=1), el(D3DCOLOR, 2, norm=1), el(H2, 3, last=1)]
    write(t, "demo-two-arrays", r300(demo, arrays=[(5, 5), (2, 2)], run=run_params(count=4)))
    write(t, "demo-indexed-offset", r300(demo, arrays=[(5, 5), (2, 2)], run=run_params(
        count=6, index_type=INDEX_U32, index_range=5, offset_mode=1, offset=2, max_mode=1, max_index=6)))
    write(t, "immediate-mode", r300([el(FLOAT_4, 0, last=1)], vtx_size=4, run=run_params(count=9)))
    write(t, "immediate-with-indices", r300([el(FLOAT_4, 0, last=1)], vtx_size=4, run=run_params(
        count=9, index_type=INDEX_U16, index_range=100)))
    for swap in range(4):
        write(t, "swap%d-shorts" % swap, r300([el(SHORT_2, 0, signed=1), el(SHORT_4, 1, last=1, norm=1)],
                                              arrays=[(3, 3)], swap=swap, run=run_params(count=21)))
    for method in range(3):
        write(t, "sgn-norm-method%d" % method, r300([el(BYTE, 0, signed=1, norm=1, last=1)], arrays=[(1, 1)],
                                                    sgn_norm=method * 0x55555555, run=run_params(count=40)))
    write(t, "ttt-eet", r300([el(TTT, 0, norm=1), el(EET, 1, signed=1, last=1)], arrays=[(2, 2)],
                             run=run_params(count=13)))
    write(t, "float8", r300([el(FLOAT_8, 4, last=1)], arrays=[(8, 8)], run=run_params(count=5)))
    write(t, "flt16-4", r300([el(H4, 0, last=1)], arrays=[(2, 2)], run=run_params(count=64)))
    write(t, "ext-swizzle-mask", r300([el(FLOAT_4, 0), el(FLOAT_3, 0, last=1)], arrays=[(7, 7)],
                                      ext=[ext((3, 2, 1, 0), 0x5), ext((4, 5, 0, 1), 0xa)],
                                      run=run_params(count=10)))
    write(t, "ext-mask-zero", r300([el(FLOAT_4, 0, last=1)], arrays=[(4, 4)], ext=[ext(mask=0)],
                                   run=run_params(count=3)))
    write(t, "full-layout", r300(readme, arrays=[(4, 4)], layout=1, run=run_params(count=2)))
    write(t, "skip-dwords", r300([el(0, 0, skip=3), el(BYTE, 1, last=1)], arrays=[(5, 5)],
                                 run=run_params(count=7)))
    write(t, "straddle-arrays", r300([el(FLOAT_4, 0, last=1)], arrays=[(2, 2), (2, 2)], run=run_params(count=8)))
    write(t, "stride0-array", r300([el(FLOAT_4, 0, last=1)], arrays=[(0, 4)], run=run_params(count=8)))
    write(t, "sixteen-arrays", r300([el(BYTE, i, last=int(i == 15)) for i in range(16)],
                                    arrays=[(1, 1)] * 16, run=run_params(count=5)))
    write(t, "sixteen-elements", r300([el(BYTE, i % 32, last=int(i == 15)) for i in range(16)], vtx_size=16,
                                      run=run_params(count=3)))
    write(t, "same-loc-twice", r300([el(FLOAT_4, 2), el(SHORT_2, 2, last=1)], arrays=[(5, 5)],
                                    run=run_params(count=3)))
    write(t, "large-draw", r300(readme, arrays=[(4, 4)], run=run_params(count=4000)))
    write(t, "level-lowest", r300(demo, arrays=[(5, 5), (2, 2)], level=0x81, run=run_params(count=31)))
    # front-end errors
    write(t, "einval-layout", r300(readme, arrays=[(4, 4)], layout=2))
    write(t, "einval-vtx-size0", r300(readme, vtx_size=0))
    write(t, "einval-vtx-size129", r300(readme, vtx_size=129))
    write(t, "ereserved-type", r300([el(13, 0, last=1)], vtx_size=4))
    write(t, "reserved-after-last-ok", r300([el(FLOAT_4, 0, last=1), el(14, 0)], vtx_size=4, run=run_params(count=2)))
    write(t, "ereserved-sgn-norm", r300([el(SHORT_2, 0, signed=1, norm=1, last=1)], vtx_size=4, sgn_norm=3))
    write(t, "ereserved-swizzle", r300([el(FLOAT_4, 0, last=1)], vtx_size=4, ext=[ext((0, 6, 1, 2))]))
    write(t, "efloat8-loc31", r300([el(FLOAT_8, 31, last=1)], vtx_size=8))
    write(t, "eno-last-vec", r300([el(BYTE, i) for i in range(16)], vtx_size=16))
    write(t, "estream-underrun", r300([el(FLOAT_4, 0, last=1)], vtx_size=3))
    write(t, "etoo-many-arrays", r300(readme, arrays=[(4, 4)] * 16, num_arrays=17))
    write(t, "earray-layout-count0", r300(readme, arrays=[(4, 0)]))
    write(t, "earray-layout-count-gt-stride", r300(readme, arrays=[(3, 4)]))
    write(t, "earray-layout-stride256", r300(readme, arrays=[(128, 4)], stride_shift=1))
    # run errors through an R300 plan
    write(t, "run-eshort-stream", r300(readme, arrays=[(4, 4)], run=run_params(count=3, stream_delta=[-1])))
    write(t, "run-eindex-range", r300(readme, arrays=[(4, 4)], run=run_params(
        count=3, index_type=INDEX_U16, offset_mode=5, offset=70000)))


# ---- GX (fuzz_gx.c, fuzz_gx_draw.c, fuzz_gx_state.c) ----------------------------------------

NONE, DIRECT, INDEX8, INDEX16 = range(4)
U8, S8, U16, S16, F32 = range(5)
D_NO_VERTICES, D_NO_OUT, D_UNBOUND, D_TAME, D_SKIP = 1, 2, 4, 8, 16
CLAMP, BADPOLICY = 1, 2


def gx_regs(pos=(NONE, 1, F32, 0), nrm=(NONE, 0, S16), col0=(NONE, 1, 5), col1=(NONE, 1, 5),
            tex=(), pos_mtx=0, tex_mtx=0, byte_dequant=0, normal_index3=0):
    """(mode, cnt, fmt[, shift]) per attribute; tex: list of (mode, cnt, fmt, shift)."""
    vcd_lo = pos_mtx | tex_mtx << 1 | pos[0] << 9 | nrm[0] << 11 | col0[0] << 13 | col1[0] << 15
    vat_a = pos[1] | pos[2] << 1 | (pos[3] if len(pos) > 3 else 0) << 4
    vat_a |= nrm[1] << 9 | nrm[2] << 10 | col0[1] << 13 | col0[2] << 14 | col1[1] << 17 | col1[2] << 18
    vat_a |= byte_dequant << 30 | normal_index3 << 31
    vcd_hi = vat_b = vat_c = 0
    fields = [(0, 21, 22, 0, 25), (1, 0, 1, 1, 4), (1, 9, 10, 1, 13), (1, 18, 19, 1, 22),
              (1, 27, 28, 2, 0), (2, 5, 6, 2, 9), (2, 14, 15, 2, 18), (2, 23, 24, 2, 27)]
    words = [vat_a, 0, 0]
    for n, (mode, cnt, fmt, shift) in enumerate(tex):
        vcd_hi |= mode << (2 * n)
        w, cb, fb, sw, sb = fields[n]
        words[w] |= cnt << cb | fmt << fb
        words[sw] |= shift << sb
    return [vcd_lo, vcd_hi] + words


def gx_draw(flags=0, policy=0, count=3, vertices_delta=0, out_delta=0, unbound=0, skip_every=0,
            elements=None, array_delta=None, seed=7, data=b""):
    el = (elements or []) + [4] * 12
    ad = (array_delta or []) + [0] * 12
    b = u8(flags) + u8(policy) + u16(count) + i8(vertices_delta) + i8(out_delta)
    b += u8(unbound) + u8(skip_every) + bytes(el[:12]) + b"".join(i8(x) for x in ad[:12])
    return b + u32(seed) + data


def gx(regs, strides=None, layout=0, color=0, path=0, level=0, draw=b""):
    st = (strides or []) + [0] * 12
    b = u8(level) + b"".join(u32(w) for w in regs) + bytes(st[:12]) + u8(layout) + u8(color) + u8(path)
    return b + draw


def make_gx_seeds():
    t = "gx"
    clean(t)
    posf = gx_regs(pos=(DIRECT, 1, F32))
    f3 = struct.pack(">3f", 1.0, -0.5, 2.0)
    write(t, "pos-f32-xyz", gx(posf, draw=gx_draw(count=3, data=f3 * 3)))
    pc = gx_regs(pos=(DIRECT, 1, F32), col0=(DIRECT, 1, 5))
    write(t, "pos-color-vec4", gx(pc, draw=gx_draw(count=5)))
    write(t, "pos-color-packed", gx(pc, layout=1, draw=gx_draw(count=5)))
    write(t, "pos-color-rgba8-vec4", gx(pc, color=1, draw=gx_draw(count=9)))
    write(t, "pos-color-rgba8-packed", gx(pc, layout=1, color=1, draw=gx_draw(count=9)))
    write(t, "pos-color-per-op", gx(pc, path=1, draw=gx_draw(count=9)))
    for fmt in range(6):
        write(t, "color-format%d" % fmt, gx(gx_regs(pos=(DIRECT, 0, S16, 3), col0=(DIRECT, 0, fmt),
                                                    col1=(DIRECT, 1, 5 - fmt)), draw=gx_draw(count=33)))
    write(t, "ereserved-color", gx(gx_regs(pos=(DIRECT, 1, F32), col1=(DIRECT, 1, 6))))
    write(t, "reserved-color-absent-ok", gx(gx_regs(pos=(DIRECT, 1, F32), col1=(NONE, 1, 7)), draw=gx_draw()))
    write(t, "pos-s16-shift", gx(gx_regs(pos=(DIRECT, 1, S16, 7)), draw=gx_draw(count=17)))
    write(t, "pos-u8-bytedequant", gx(gx_regs(pos=(DIRECT, 0, U8, 5), byte_dequant=1), draw=gx_draw(count=17)))
    write(t, "pos-format5-unused", gx(gx_regs(pos=(DIRECT, 1, 5)), draw=gx_draw(count=4)))
    write(t, "normal-s8-nbt-direct", gx(gx_regs(pos=(DIRECT, 1, F32), nrm=(DIRECT, 1, S8)), draw=gx_draw(count=6)))
    write(t, "normal-u16-flagged", gx(gx_regs(pos=(DIRECT, 1, F32), nrm=(DIRECT, 0, U16)), draw=gx_draw(count=6)))
    write(t, "texcoords-all-eight", gx(gx_regs(pos=(DIRECT, 1, F32), tex=[(DIRECT, n & 1, n % 5, n) for n in range(8)]),
                                       draw=gx_draw(count=12)))
    write(t, "matrix-indices", gx(gx_regs(pos=(DIRECT, 1, F32), pos_mtx=1, tex_mtx=0x5a), draw=gx_draw(count=8)))
    write(t, "matrix-indices-only", gx(gx_regs(pos_mtx=1, tex_mtx=0xff), layout=1, draw=gx_draw(count=8)))
    write(t, "no-attributes", gx(gx_regs(), draw=gx_draw(count=100)))
    write(t, "no-attributes-null-vertices", gx(gx_regs(), draw=gx_draw(flags=D_NO_VERTICES, count=5)))
    # indexed: vertex bytes given explicitly (in range), arrays from the generator
    ip = gx_regs(pos=(INDEX8, 1, F32), col0=(INDEX16, 1, 5))
    idx_vertices = b"".join(u8(i) + struct.pack(">H", 3 - i) for i in range(4))
    write(t, "indexed-pos8-col16", gx(ip, strides=[12, 0, 4], draw=gx_draw(count=4, elements=[3, 0, 3], data=idx_vertices)))
    write(t, "indexed-skip-value", gx(ip, strides=[12, 0, 4], draw=gx_draw(
        flags=D_SKIP, count=8, skip_every=1, elements=[3, 0, 3], data=idx_vertices * 2)))
    write(t, "indexed-all-skipped", gx(ip, strides=[12, 0, 4], draw=gx_draw(
        count=4, elements=[3, 0, 3], data=(u8(0xff) + u16(0)) * 4)))
    write(t, "indexed-tame-clamp", gx(ip, strides=[12, 0, 4], draw=gx_draw(
        flags=D_TAME, policy=CLAMP, count=300, elements=[20, 0, 20])))
    write(t, "indexed-past-end-error", gx(ip, strides=[12, 0, 4], draw=gx_draw(
        count=1, elements=[3, 0, 3], data=u8(4) + struct.pack(">H", 0))))
    write(t, "indexed-past-end-clamp", gx(ip, strides=[12, 0, 4], draw=gx_draw(
        policy=CLAMP, count=1, elements=[3, 0, 3], data=u8(4) + struct.pack(">H", 9))))
    write(t, "indexed-array-too-small", gx(ip, strides=[12, 0, 4], draw=gx_draw(
        policy=CLAMP, count=1, elements=[0, 0, 0], array_delta=[-1], data=u8(0) + u16(0))))
    write(t, "indexed-stride0", gx(ip, strides=[0, 0, 0], draw=gx_draw(
        flags=D_TAME, count=50, elements=[0, 0, 0])))
    nbt3 = gx_regs(pos=(DIRECT, 1, F32), nrm=(INDEX16, 1, S16), normal_index3=1)
    write(t, "nbt-index3", gx(nbt3, strides=[0, 18], draw=gx_draw(flags=D_TAME, count=40, elements=[0, 10])))
    write(t, "nbt-index3-index8-clamp", gx(gx_regs(pos=(DIRECT, 1, F32), nrm=(INDEX8, 1, S8), normal_index3=1),
                                           strides=[0, 9], draw=gx_draw(flags=D_TAME, policy=CLAMP, count=40, elements=[0, 5])))
    write(t, "indexed-large-draw", gx(ip, strides=[12, 0, 4], draw=gx_draw(flags=D_TAME, policy=CLAMP, count=1024,
                                                                          elements=[200, 0, 200])))
    write(t, "level-lowest", gx(pc, level=0x81, draw=gx_draw(count=40)))
    # run errors
    write(t, "run-einval-policy", gx(pc, draw=gx_draw(policy=BADPOLICY)))
    write(t, "run-einval-no-out", gx(pc, draw=gx_draw(flags=D_NO_OUT)))
    write(t, "run-emissing-vertices", gx(pc, draw=gx_draw(flags=D_NO_VERTICES)))
    write(t, "run-emissing-array", gx(ip, strides=[12, 0, 4], draw=gx_draw(flags=D_UNBOUND | D_TAME, elements=[3, 0, 3])))
    write(t, "run-eshort-stream", gx(pc, draw=gx_draw(vertices_delta=-1)))
    write(t, "run-eshort-output", gx(pc, draw=gx_draw(out_delta=-1)))
    write(t, "run-count-zero", gx(pc, draw=gx_draw(count=0)))
    write(t, "einval-layout", gx(pc, layout=2))
    write(t, "einval-color-output", gx(pc, color=2))
    write(t, "einval-path", gx(pc, path=2))


def make_gx_state_seeds():
    t = "gx_state"
    clean(t)

    def state(steps, layout=0, color=0, path=0, level=0):
        return u8(level) + u8(layout) + u8(color) + u8(path) + b"".join(steps)

    def wr(addr, value):
        return u8(0) + u8(addr) + u32(value)

    def req(vat):
        return u8(0xc0) + u8(vat)

    def draw(vat, d):
        return u8(0xf0) + u8(vat) + d

    pc = gx_regs(pos=(DIRECT, 1, F32), col0=(DIRECT, 1, 5))
    ip = gx_regs(pos=(INDEX16, 1, S16, 4), col0=(INDEX8, 1, 3), tex=[(DIRECT, 1, U16, 8)])

    def load(regs, vat):
        return [wr(0x50, regs[0]), wr(0x60, regs[1]), wr(0x70 + vat, regs[2]), wr(0x80 + vat, regs[3]),
                wr(0x90 + vat, regs[4])]
    write(t, "draw-direct", state(load(pc, 0) + [req(0), draw(0, gx_draw(count=9))]))
    write(t, "draw-direct-packed-rgba8", state(load(pc, 3) + [draw(3, gx_draw(count=9))], layout=1, color=1))
    write(t, "draw-indexed", state(load(ip, 2) + [wr(0xb0, 6), wr(0xb2, 2), wr(0xa0, 0x80001000), req(2),
                                                  draw(2, gx_draw(flags=D_TAME, policy=CLAMP, count=64, elements=[30, 0, 30]))]))
    write(t, "cache-hit", state(load(pc, 0) + [req(0), wr(0x50, pc[0]), req(0), wr(0x30, 5), wr(0x40, 6), req(0),
                                               wr(0xa3, 1), req(0)]))
    write(t, "other-vat-keeps-cache", state(load(pc, 0) + [req(0), wr(0x71, 3), req(0), req(1)]))
    write(t, "vcd-write-dirties-all", state(load(pc, 0) + load(pc, 5) + [req(0), req(5), wr(0x60, 1), req(0), req(5)]))
    write(t, "stride-writes-low-bits-and-xf-arrays", state(load(ip, 1) + [req(1), wr(0xb0, 0x1ff), req(1), wr(0xbf, 3), req(1)]))
    write(t, "stale-plan-still-usable", state(load(pc, 4) + [req(4), wr(0x74, 0), wr(0x50, 0), draw(4, gx_draw(count=5))]))
    write(t, "recompile-after-error", state(load(gx_regs(pos=(DIRECT, 1, F32), col0=(DIRECT, 1, 7)), 0) +
                                           [req(0), req(0), wr(0x70, pc[2]), req(0), draw(0, gx_draw(count=3))]))
    write(t, "eregister", state([wr(a, 1) for a in (0x00, 0x20, 0x31, 0x41, 0x51, 0x61, 0x78, 0x8f, 0x98, 0x9f,
                                                     0xc0, 0xff)] + [req(0)]))
    write(t, "all-held-registers", state([wr(a, a * 0x01010101) for a in
                                          [0x30, 0x40, 0x50, 0x60] + list(range(0x70, 0x78)) + list(range(0x80, 0x88)) +
                                          list(range(0x90, 0x98)) + list(range(0xa0, 0xc0))] + [req(v) for v in range(8)]))
    write(t, "einval-vat8", state(load(pc, 0) + [req(8)]))
    write(t, "einval-options", state([], layout=2))
    write(t, "einval-path", state([], path=2))
    write(t, "per-op-state", state(load(pc, 0) + [draw(0, gx_draw(count=30))], path=1))
    write(t, "empty-vcd-draw", state([req(7), draw(7, gx_draw(count=4))]))


def make_gx_commands_seeds():
    """fuzz_gx_commands.c: a header, steps that build the command stream, the memory last."""
    t = "gx_commands"
    clean(t)
    VEC4, U32, RESTART, EXPAND, DROP, CLAMP_, BY_LENGTH, STARTED = 1, 1, 2, 4, 8, 16, 32, 64

    def case(steps, output=0, opt=0, vcap=4096, icap=2048, start=(0, 0, 0), preset=1, guest=0x80000000,
             memory=b"", cut=0, seed=1, level=0):
        b = u8(level) + u8(output) + u8(opt) + u16(vcap) + u16(icap) + b"".join(u16(x) for x in start)
        b += u8(preset) + u32(guest) + u16(len(memory)) + u8(cut) + u32(seed)
        return b + b"".join(steps) + memory

    def draw(op, count, fill=0, data=b""):
        """fill: 0 generator bytes, 1 data (count * vertex size bytes), 2 small, 3 index 0 or
        the skip value, 4 zeros."""
        c = u8(count) if count < 48 else u8(0xf0) + u16(count)
        return u8(0) + u8(op & 0x3f) + c + u8(fill) + data

    def cp(addr, value):
        """A held register: VCD, VAT words, array bases (an offset into the memory), strides."""
        hi, lo = addr >> 4, addr & 0xf
        which = {5: 0, 6: 1, 7: 2, 8: 3, 9: 4, 0xa: 5, 0xb: 6}.get(hi, 7)
        if which == 5:
            return u8(110) + u8(which) + u8(lo) + u16(value)
        if which == 6:
            return u8(110) + u8(which) + u8(lo) + u8(value)
        return u8(110) + u8(which) + u8(lo if which < 7 else (1 if addr == 0x40 else 0)) + u32(value)

    def cp_any(addr, value):
        return u8(150) + u8(addr) + u32(value)

    def nops(n):
        return u8(160 + n - 1)

    foreign_ops = [0x10, 0x20, 0x28, 0x30, 0x38, 0x40, 0x44, 0x48, 0x61, 0x01, 0x07, 0x09, 0x18, 0x50,
                   0x7f, 0xc0, 0xff]

    def foreign(op):
        return u8(170) + u8(foreign_ops.index(op))

    def raw(data):
        return u8(190) + u8(len(data)) + data

    prims = [0x80, 0x88, 0x90, 0x98, 0xa0, 0xa8, 0xb0, 0xb8]  # QUADS .. POINTS
    every_prim = [draw(p | v, 4 + 3 * i, fill=i % 2 * 4) for i, p in enumerate(prims) for v in range(3)]
    fifo = [foreign(op) for op in (0x61, 0x10, 0x20, 0x40, 0x44, 0x48)]
    write(t, "direct-packed", case(every_prim[:8] + fifo[:3] + every_prim[8:] + [nops(2)] + fifo[3:]))
    write(t, "direct-vec4-restart-expand", case(every_prim + fifo, output=VEC4, opt=RESTART | EXPAND | BY_LENGTH))
    write(t, "direct-u32-drop", case(every_prim, opt=U32 | DROP))
    write(t, "foreign-by-length", case(every_prim[:6] + fifo + every_prim[6:12] + fifo, opt=BY_LENGTH))
    mem = bytes((i * 37 + 11) & 0xff for i in range(0x100)) + bytes((i * 53) & 0xff for i in range(0x100))
    indexed = [draw(p | v, 9, fill=2 + i % 2) for i, p in enumerate(prims) for v in range(3)]
    write(t, "indexed-clamp", case(indexed, preset=2, opt=CLAMP_, memory=mem))
    write(t, "indexed-error-then-on", case([draw(0x90, 6, fill=0)] + [draw(p | 1, 7, fill=4) for p in prims], preset=2, memory=mem))
    write(t, "indexed-bases-moved", case(indexed[:4] + [cp(0xa0, 0x40), cp(0xb0, 12), cp(0xa2, 0x1f0)] +
                                         indexed[4:10], preset=2, opt=CLAMP_ | RESTART, memory=mem))
    write(t, "indexed-memory-past-4g", case(indexed[:4], preset=2, guest=0xffffff80, memory=mem))
    write(t, "indexed-unmapped", case(indexed[:4], preset=2, opt=CLAMP_))
    write(t, "batch-flushes", case(every_prim + every_prim, vcap=300, icap=40))
    write(t, "batch-flushes-expand", case(every_prim, vcap=2000, icap=50, opt=EXPAND | RESTART))
    write(t, "fits-no-batch", case(every_prim[:3], vcap=0, icap=0))
    write(t, "started-near-u16-limit", case(every_prim, opt=STARTED, start=(100, 65530, 7)))
    write(t, "started-full", case(every_prim[:4], opt=STARTED | U32, vcap=512, icap=64, start=(512, 3, 64)))
    write(t, "no-attributes-big-draws", case([draw(0xb8, 10000), draw(0x90, 60000), draw(0xa8, 16384)],
                                             preset=0, vcap=0, icap=65535, opt=EXPAND))
    write(t, "vat-words-midstream", case(every_prim[:3] + [cp(0x70, 0x41200008), cp(0x50, 0x200), cp(0x60, 1)] +
                                         every_prim[3:9] + [cp(0x71, 7 << 14 | 1 << 13)] + every_prim[9:12]))
    write(t, "reserved-color", case([cp(0x72, 7 << 14 | 1 << 13 | 1), draw(0x82, 3), draw(0x80, 3)]))
    write(t, "unheld-registers", case([cp_any(a, 0x12345678) for a in (0x00, 0x20, 0x31, 0x51, 0x78, 0xc0, 0xff)] +
                                      every_prim[:3], opt=BY_LENGTH))
    write(t, "matrix-indices-and-nops", case([cp(0x30, 0x1234), nops(4), cp(0x40, 0x5678), nops(1)] + every_prim[:3]))
    write(t, "raw-bytes", case([raw(bytes([0x08, 0x70])), draw(0x80, 4), raw(bytes([0x98, 0x00, 0x02])), draw(0x81, 4),
                                raw(bytes([0x00, 0x44, 0xc5]))]))
    data = b"".join(struct.pack(">3fI", x, -x, 0.5, 0xff8040ff) for x in range(4))
    write(t, "direct-data", case([draw(0x80, 4, fill=1, data=data), draw(0x90, 4, fill=1, data=data)]))
    write(t, "captures-format", case([draw(0x80, 4, fill=1, data=struct.pack(">16f", *range(16))), draw(0x80, 4)],
                                     preset=3))
    write(t, "cut-draw", case(every_prim[:5], cut=7))
    write(t, "cut-cp-write", case(every_prim[:2] + [cp(0x70, 0x41200008)], cut=3))
    write(t, "level-lowest", case(every_prim, output=VEC4, level=0x81))


def make_cli_seeds():
    t = "cli"
    clean(t)

    def args(*a):
        return b"\0".join(x.encode() for x in a)
    cases = {
        "no-args": args(),
        "demo": args("demo"),
        "cpu": args("cpu"),
        "version": args("--version"),
        "version-word": args("version"),
        "help": args("help"),
        "help-flag": args("--help"),
        "unknown": args("bogus"),
        "explain-alone": args("explain"),
        "prim-fan-restart": args("prim", "gx", "TRIANGLE_FAN", "7", "--restart"),
        "prim-lines-expand": args("prim", "gx", "0xA8", "4", "--expand", "--base", "2"),
        "prim-range": args("prim", "gx", "QUADS", "4", "--restart", "--base", "65532"),
        "prim-r300-quad-strip": args("prim", "r300", "QUAD_STRIP", "6", "--guest-last", "--host-last"),
        "prim-maxwell-line-loop": args("prim", "maxwell", "LINE_LOOP", "5", "--host-last"),
        "prim-maxwell-strip-adj": args("prim", "maxwell", "TRIANGLE_STRIP_ADJACENCY", "8", "--guest-last"),
        "prim-indices": args("prim", "r300", "QUADS", "9", "--indices", "0,1,2,3,255,4,5,6,7",
                             "--index-bytes", "1", "--restart-index", "255", "--range"),
        "explain-gx": args("explain", "gx"),
        "explain-float3": args("explain", "r300", "--psc", "0x2002", "--vtx-size", "3"),
        "explain-reserved-type": args("explain", "r300", "--psc", "0x200D", "--vtx-size", "3"),
        "explain-underrun": args("explain", "r300", "--psc", "0x2003", "--vtx-size", "3"),
        "explain-readme": args("explain", "r300", "--psc", "0xa1050002", "--arrays", "4:4"),
        "explain-ext-full-per-op": args("explain", "r300", "--psc", "0x2002,0", "--ext", "0xf688,0xf688",
                                        "--vtx-size", "3", "--full", "--per-op"),
        "explain-sgn-norm-swap": args("explain", "r300", "--psc", "0xe006", "--sgn-norm", "3", "--swap", "2",
                                      "--vtx-size", "1"),
        "explain-swap-4": args("explain", "r300", "--swap", "4"),
        "explain-arrays-two": args("explain", "r300", "--psc", "0x00072002,0x2005", "--arrays", "5:5,2:2"),
        "explain-arrays-17": args("explain", "r300", "--arrays", ",".join(["1:1"] * 17)),
        "explain-arrays-18": args("explain", "r300", "--arrays", ",".join(["1:1"] * 18)),
        "explain-arrays-bad": args("explain", "r300", "--arrays", "4"),
        "explain-missing-value": args("explain", "r300", "--psc"),
        "explain-list-too-long": args("explain", "r300", "--psc", "1,2,3,4,5,6,7,8,9"),
        "explain-word-too-big": args("explain", "r300", "--psc", "0x100000000"),
        "explain-negative": args("explain", "r300", "--vtx-size", "-1"),
        "explain-bogus-option": args("explain", "r300", "--bogus"),
        "explain-trailing-comma": args("explain", "r300", "--psc", "0x2002,", "--vtx-size", "3"),
        "aam-help": args("aam", "--check", "VS", "--help"),
        "aam-imap-without-check": args("aam", "--imap", "3"),
        "cpu-help": args("cpu", "--help"),
        "demo-extra": args("demo", "extra"),
        "explain-gx-bad-layout": args("explain", "gx", "--layout", "vec3"),
        "explain-gx-bad-stride": args("explain", "gx", "--array-stride", "tex9=4"),
        "explain-gx-indexed-packed": args("explain", "gx", "--vcd-lo", "0x6201", "--vcd-hi", "0x1", "--vat-a", "0xc1601a", "--array-stride", "color0=4", "--layout", "packed", "--color", "rgba8"),
        "explain-gx-nbt-index3": args("explain", "gx", "--vcd-lo", "0x1e00", "--vat-a", "0x80000608", "--array-stride", "normal=36", "--layout", "dolphin", "--per-op"),
        "explain-gx-pos-color": args("explain", "gx", "--vcd-lo", "0x2200", "--vat-a", "0x16009"),
        "explain-gx-reserved-color": args("explain", "gx", "--vcd-lo", "0x2200", "--vat-a", "0x1c009"),
        "explain-maxwell-disabled-stream": args("explain", "maxwell", "--attr", "0x38200000", "--stream", "0x0010"),
        "explain-maxwell-inactive": args("explain", "maxwell", "--attr", "0xffffffff"),
        "explain-r300-extra": args("explain", "r300", "--psc", "0x2002", "--vtx-size", "3", "extra"),
        "explain-r300-help": args("explain", "r300", "--psc", "0x2002", "-h"),
        "explain-r300-no-words": args("explain", "r300"),
        "explain-r300-vtx-size-200": args("explain", "r300", "--psc", "0x2002", "--vtx-size", "200"),
        "explain-gx-texture-c8": args("explain", "gx-texture", "--format", "C8", "--size", "35x19",
                                      "--palette-format", "RGB5A3"),
        "explain-gx-texture-words": args("explain", "gx-texture", "--setimage0", "0x88A04822",
                                         "--settlut", "0x98000800"),
        "explain-gx-texture-reserved": args("explain", "gx-texture", "--setimage0", "0x700000"),
        "explain-gx-texture-tlut3": args("explain", "gx-texture", "--format", "c4", "--size", "8x8",
                                         "--palette-format", "3"),
        "explain-gx-texture-address": args("explain", "gx-texture", "--setimage0", "0x99000000"),
        "explain-gx-texture-no-size": args("explain", "gx-texture", "--format", "I8"),
        "explain-gx-texture-big": args("explain", "gx-texture", "--format", "cmpr", "--size", "1025x4"),
        "gx-texture-files": args("gx-texture", "--format", "I8", "--size", "8x8", "in.src", "out.png"),
        "gx-capture": args("gx", "capture.dff"),
        "gx-commands-no-capture": args("gx", "--commands", "--batch-vertices", "100", "--batch-indices",
                                       "0x40", "--restart", "--u32", "--expand", "--drop-incomplete"),
        "gx-batch-option-alone": args("gx", "--restart", "--layout", "packed"),
        "gx-batch-zero": args("gx", "--commands", "--batch-indices", "0"),
        "gx-batch-too-big": args("gx", "--commands", "--batch-vertices", "0x4000001"),
        "gx-commands-help": args("gx", "--commands", "-h"),
        "h-flag": args("-h"),
        "help-explain-gx": args("help", "explain", "gx"),
        "help-nosuch": args("help", "nosuch"),
        "version-extra": args("--version", "x"),
    }
    for name, data in cases.items():
        write(t, name, data)


def make_prim_seeds():
    """fuzz_prim: level, primitive pick (< 240: one of the front-end's, by pick % 8 or % 10;
    with flag bit 5 an odd pick // 10 is Maxwell, else R300; >= 240 a raw u32 follows), flags
    (bit 0 restart, bit 1 expansion, bits 2-4 width: 0-2 u16, 3-5 u32, 6-7 out of range, bit 5
    Mesa's front-ends, bits 6-7 their provoking vertex in and out), count pick
    (< 200 itself, < 250 a u16 follows, else a u32 & 2^20 - 1), base pick (< 128 small, < 192
    near the limit, else raw) and the u32, room (< 128 exact, < 192 one short, < 240 slack,
    else none), where (< 240 at the guard page, < 250 misaligned, else NULL), options (bit 0
    the narrowest, 1 host fans, 2 incomplete primitives dropped, 3 yuzu's orders)."""
    t = "prim"
    clean(t)

    def case(prim=0, flags=0, count=7, base_pick=0, base=0, room=0, where=0, level=0, raw=None,
             raw_pick=240, options=0):
        d = u8(level) + u8(prim if raw is None else raw_pick) + u8(flags)
        if raw is not None:
            d += u32(raw)
        if count < 200:
            d += u8(count)
        elif count < 65536:
            d += u8(200) + u16(count)
        else:
            d += u8(250) + u32(count)
        return d + u8(base_pick) + u32(base) + u8(room) + u8(where) + u8(options)

    names = ["quads", "quads2", "triangles", "strip", "fan", "lines", "line-strip", "points"]
    for k, name in enumerate(names):
        for flags, mode in ((0, "pr0-vs0"), (1, "pr1-vs0"), (2, "pr0-vs1"), (3, "pr1-vs1")):
            write(t, "%s-%s-7" % (name, mode), case(prim=k, flags=flags, count=7))
        write(t, "%s-u32-big" % name, case(prim=k, flags=1 | 3 << 2, count=70000, base_pick=0))
        write(t, "%s-near-limit" % name, case(prim=k, flags=1, count=9, base_pick=128, base=0))
    write(t, "strip-restart-0", case(prim=3, flags=1, count=0))
    write(t, "quads-3", case(prim=0, count=3))
    write(t, "fan-restart-4", case(prim=4, flags=1, count=4))
    write(t, "short-room", case(prim=0, count=8, room=128))
    write(t, "slack", case(prim=0, count=8, room=200))
    write(t, "no-room", case(prim=0, count=8, room=250))
    write(t, "misaligned", case(prim=0, count=8, where=245))
    write(t, "null-out", case(prim=0, count=8, where=255))
    write(t, "null-out-empty", case(prim=2, count=2, where=255))
    write(t, "reserved", case(raw=0xC0))
    write(t, "reserved-zero", case(raw=0))
    write(t, "width-none", case(prim=0, flags=6 << 2))
    write(t, "width-bad", case(prim=0, flags=7 << 2))
    write(t, "lower-level", case(prim=0, count=100, level=200))
    write(t, "expanded-lines-overflow", case(prim=6, flags=2, count=20000))
    for k, name in enumerate(["points", "lines", "line-strip", "triangles", "fan", "strip",
                              "line-loop", "quads", "quad-strip", "polygon"]):
        for pv, mode in ((0, "first-first"), (0xC0, "last-last"), (0x40, "last-first"), (0x80, "first-last")):
            write(t, "r300-%s-%s" % (name, mode), case(prim=k, flags=0x20 | pv, count=9, base_pick=0, base=3))
    write(t, "r300-reserved", case(raw=7, flags=0x20))
    # Maxwell (flag 0x20 and an odd pick // 10): primitive pick % 14 is its BEGIN value
    for k, name in enumerate(["points", "lines", "line-loop", "line-strip", "triangles", "strip",
                              "fan", "quads", "quad-strip", "polygon", "lines-adj",
                              "line-strip-adj", "triangles-adj", "triangle-strip-adj"]):
        pick = next(p for p in range(240) if (p // 10) % 2 and p % 14 == k)
        for pv, mode in ((0, "first-first"), (0x40, "last-first")):
            write(t, "maxwell-%s-%s" % (name, mode), case(prim=pick, flags=0x20 | pv, count=13, base=3))
    write(t, "maxwell-patches", case(raw=0xE, raw_pick=250, flags=0x20))
    # the options
    write(t, "narrowest-fits", case(prim=0, flags=3 << 2, count=8, base_pick=0, base=100, options=1))
    write(t, "narrowest-past", case(prim=0, flags=1 | 3 << 2, count=8, base_pick=255, base=65530, options=1))
    write(t, "narrowest-misaligned", case(prim=0, flags=3 << 2, count=8, where=245, options=1))
    write(t, "drop-quads-7", case(prim=0, count=7, options=4))
    write(t, "drop-strip-restart-2", case(prim=3, flags=1, count=2, options=4))
    write(t, "r300-host-fans", case(prim=4, flags=0x20, count=9, options=2))
    write(t, "r300-host-fans-pv", case(prim=4, flags=0x20 | 0x40, count=9, options=2))
    for k, name in ((6, "fan"), (7, "quads"), (8, "quad-strip"), (9, "polygon")):
        pick = next(p for p in range(240) if (p // 10) % 2 and p % 14 == k)
        write(t, "maxwell-yuzu-%s" % name, case(prim=pick, flags=0x20 | 0x40, count=13, options=2 | 8))


def make_prim_indexed_seeds():
    """fuzz_prim_indexed: level, primitive pick (< 250: R300's ten by pick % 10, Maxwell's by
    pick % 15; else a raw u32), flags (bit 0 Maxwell, bit 1 u32 output, bits 2-3 provoking in and
    out, bit 4 the narrowest, 5 host fans, 6 yuzu's orders), format (bits 0-2 the entry size 1, 2, 4, 1, 2, 4, 3, 8; bit 3 big-endian, bit 4
    restart, bit 5 range, bits 6-7 the restart index: all ones, 0, 1, a u32), count pick (< 220
    itself, else a u16), bound pick (< 128: 1 + 3 pick, < 192: 65536, else none), restart rate,
    size pick (< 200 exact, < 240 a byte short, else NULL), base pick and its u32, room, where,
    the generator's seed, then the entries' bytes."""
    t = "prim_indexed"
    clean(t)

    def case(prim=0, flags=0, fmt=0, count=12, bound_pick=10, rate=0, size_pick=0, base_pick=0,
             base=0, room=0, where=0, level=0, entries=b"", raw=None, restart_raw=None):
        d = u8(level) + u8(prim if raw is None else 250) + u8(flags) + u8(fmt)
        if raw is not None:
            d += u32(raw)
        if restart_raw is not None:
            d += u32(restart_raw)
        d += u8(count) if count < 220 else u8(220) + u16(count)
        d += u8(bound_pick) + u8(rate) + u8(size_pick) + u8(base_pick) + u32(base)
        d += u8(room) + u8(where) + u32(7) + u32(0)
        return d + entries

    r300 = ["points", "lines", "line-strip", "triangles", "fan", "strip", "line-loop", "quads",
            "quad-strip", "polygon"]
    for k, name in enumerate(r300):
        for fmt, form in ((0, "u8"), (1 | 8, "u16-big"), (2, "u32"), (1 | 16, "u16-restart"),
                          (2 | 32, "u32-range")):
            write(t, "r300-%s-%s" % (name, form), case(prim=k, fmt=fmt, rate=60 if fmt & 16 else 0))
    maxwell = ["points", "lines", "line-loop", "line-strip", "triangles", "strip", "fan", "quads",
               "quad-strip", "polygon", "lines-adj", "line-strip-adj", "triangles-adj",
               "triangle-strip-adj", "patches"]
    for k, name in enumerate(maxwell):
        write(t, "maxwell-%s-u16-restart" % name, case(prim=k, flags=1, fmt=1 | 16, rate=80))
    write(t, "maxwell-line-strip-adj-pv", case(prim=11, flags=1 | 4, fmt=2 | 16, rate=80))
    write(t, "big-count", case(prim=3, fmt=1, count=5000, bound_pick=130))
    write(t, "u32-to-u16-range", case(prim=3, fmt=2, bound_pick=200))
    write(t, "u32-to-u16-range-mode", case(prim=3, fmt=2 | 32, bound_pick=200))
    write(t, "near-limit", case(prim=3, fmt=1, base_pick=170, base=3))
    write(t, "short-indices", case(prim=3, fmt=1, size_pick=210))
    write(t, "null-indices", case(prim=3, fmt=1, size_pick=250))
    write(t, "short-room", case(prim=3, fmt=1, room=170))
    write(t, "misaligned", case(prim=3, fmt=1, where=245))
    write(t, "entry-size-3", case(prim=3, fmt=6))
    write(t, "restart-zero", case(prim=3, fmt=1 | 16 | 64, rate=90))
    write(t, "restart-raw", case(prim=3, fmt=2 | 16 | 192, rate=90, restart_raw=5, bound_pick=3))
    write(t, "many-restart", case(prim=3, fmt=1 | 16, rate=255, count=40))
    write(t, "raw-primitive", case(raw=0x40, flags=1))
    write(t, "narrowest-range", case(prim=3, flags=2 | 16, fmt=2 | 32, bound_pick=200))
    write(t, "narrowest-wide", case(prim=3, flags=2 | 16, fmt=2, bound_pick=200))
    write(t, "host-fans-restart", case(prim=4, flags=32, fmt=1 | 16, rate=80))
    write(t, "maxwell-yuzu-fans-restart", case(prim=6, flags=1 | 4 | 32 | 64, fmt=1 | 16, rate=80))
    write(t, "maxwell-yuzu-polygon", case(prim=9, flags=1 | 32 | 64, fmt=0))
    write(t, "maxwell-yuzu-quad-strip", case(prim=8, flags=1 | 8 | 64, fmt=2))


def main():
    make_prim_indexed_seeds()
    make_prim_seeds()
    make_plan_seeds()
    make_r300_seeds()
    make_gx_seeds()
    make_gx_state_seeds()
    make_gx_commands_seeds()
    make_cli_seeds()
    import make_seeds_maxwell  # fuzz_maxwell's seeds: its own encoder
    make_seeds_maxwell.main()
    total = 0
    for root, _, files in os.walk(CORPUS):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    print("corpus: %d bytes" % total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
