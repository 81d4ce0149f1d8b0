"""ptolab's ml_dtypes module (src/golden_dtypes): the bfloat16, float8_e4m3fn and
float8_e5m2 NumPy types pto-isa's gen_data.py scripts use.

Every expected value here comes from the formats' definitions (bfloat16 as
float32's top half, OCP FP8's E4M3FN and E5M2 formulas) worked out in
Python, never from the module under test. Skipped when the module was not
built (no Python or NumPy C headers).
"""

import math
import os
import sys

import numpy as np
import pytest

_dir = os.path.join(os.environ.get("PTOLAB_GOLDEN_DTYPES_DIR", ""), "ml_dtypes")
if not _dir or not os.path.isdir(_dir) or not any(f.startswith("ml_dtypes.") for f in os.listdir(_dir)):
    pytest.skip("ptolab's ml_dtypes module was not built (needs python3-dev and python3-numpy)",
                allow_module_level=True)
sys.path.insert(0, _dir)
import ml_dtypes  # noqa: E402

if getattr(ml_dtypes, "implementation", None) != "ptolab":
    pytest.skip(f"imported another ml_dtypes ({ml_dtypes.__file__})", allow_module_level=True)

from ml_dtypes import bfloat16, float8_e4m3fn, float8_e5m2  # noqa: E402

F8 = {"e4m3fn": float8_e4m3fn, "e5m2": float8_e5m2}


# --------------------------------------------------------------------------- references

def ocp_decode(fmt, code):
    """OCP 8-bit floating point specification, E4M3 (FN: no Inf, S.1111.111 NaN) and E5M2 (IEEE-like)."""
    sign = -1.0 if code & 0x80 else 1.0
    if fmt == "e4m3fn":
        e, m = (code >> 3) & 0xF, code & 0x7
        if e == 15 and m == 7:
            return math.nan
        return sign * (2.0 ** -6 * m / 8 if e == 0 else 2.0 ** (e - 7) * (1 + m / 8))
    e, m = (code >> 2) & 0x1F, code & 0x3
    if e == 31:
        return sign * math.inf if m == 0 else math.nan
    return sign * (2.0 ** -14 * m / 4 if e == 0 else 2.0 ** (e - 15) * (1 + m / 4))


def f32_bits(x):
    return np.asarray(x, dtype=np.float32).view(np.uint32)


def bf16_reference(x32):
    """Nearest bfloat16 of each float32 by distance (ties to the even code), float32's
    top half being the lower neighbour; beyond the largest finite value the next grid
    point is 2^128, which is Inf."""
    u = f32_bits(x32).astype(np.uint64)
    lo = (u >> 16) & 0xFFFF
    mag = lo & 0x7FFF
    hi = (lo + 1) & 0xFFFF
    with np.errstate(invalid="ignore"):  # NaN inputs; their result is set below
        lo_val = np.abs((lo << 16).astype(np.uint32).view(np.float32).astype(np.float64))
        hi_val = np.where((hi & 0x7FFF) == 0x7F80, 2.0 ** 128,
                          np.abs((hi << 16).astype(np.uint32).view(np.float32).astype(np.float64)))
        a = np.abs(np.asarray(x32, dtype=np.float32).astype(np.float64))
        down, up = a - lo_val, hi_val - a  # exact: float32 neighbours within one binade
    take_hi = (up < down) | ((up == down) & (lo & 1 == 1))
    out = np.where(take_hi, hi, lo)
    out = np.where(mag >= 0x7F80, lo, out)  # Inf and NaN keep their top half
    return out.astype(np.uint16)


def grid(fmt):
    """(value, code) of the non-negative finite codes, ascending."""
    pts = [(ocp_decode(fmt, c), c) for c in range(0x80)]
    return sorted((v, c) for v, c in pts if math.isfinite(v))


def bits(a):
    a = np.asarray(a)
    return a.view(np.uint16 if a.dtype.itemsize == 2 else np.uint8)


# --------------------------------------------------------------------------- bfloat16

def test_bf16_from_float32_matches_round_to_nearest_even():
    rng = np.random.default_rng(7)
    u = rng.integers(0, 2 ** 32, size=200_000, dtype=np.uint64).astype(np.uint32)
    specials = np.array([
        0x00000000, 0x80000000, 0x3F800000, 0x3F808000, 0x3F818000, 0x3F808001, 0x3F807FFF,  # ties, near ties
        0x7F7F7FFF, 0x7F7F8000, 0x7F7FFFFF, 0xFF7F8000, 0x7F800000, 0xFF800000,  # largest finite, overflow
        0x00000001, 0x00008000, 0x00018000, 0x007FFFFF, 0x80008000,  # subnormals
    ], dtype=np.uint32)
    u = np.concatenate([specials, u])
    x = u.view(np.float32)
    finite_or_inf = ~np.isnan(x)
    got = bits(x.astype(bfloat16))
    np.testing.assert_array_equal(got[finite_or_inf], bf16_reference(x)[finite_or_inf])
    nan_out = got[~finite_or_inf]
    assert np.all((nan_out & 0x7F80) == 0x7F80) and np.all(nan_out & 0x7F)  # NaN stays NaN
    np.testing.assert_array_equal(nan_out >> 15, u[~finite_or_inf] >> 31)  # with its sign


def test_bf16_known_values():
    x = np.array([1.0, 1.00390625, 1.01171875, 3.3895314e38, 3.39e38, -0.0, 1e-45], dtype=np.float32)
    # 1 + 2^-8 ties down to even 0x3F80, 1 + 3*2^-8 ties up to 0x3F82; 3.39e38 is below the midpoint
    # between the largest value (2 - 2^-7) * 2^127 and 2^128
    assert bits(x.astype(bfloat16)).tolist() == [0x3F80, 0x3F80, 0x3F82, 0x7F7F, 0x7F7F, 0x8000, 0x0000]
    # at that midpoint (2 - 2^-8) * 2^127 it ties away from the odd 0x7F7F: Inf
    mid = np.array([0x7F7F7FFF, 0x7F7F8000, 0xFF7F8000], dtype=np.uint32).view(np.float32)
    assert bits(mid.astype(bfloat16)).tolist() == [0x7F7F, 0x7F80, 0xFF80]


def test_bf16_to_float32_is_exact_for_every_code():
    codes = np.arange(0x10000, dtype=np.uint32).astype(np.uint16)
    f = codes.view(bfloat16).astype(np.float32)
    expect = (codes.astype(np.uint32) << 16).view(np.float32)
    same = (f32_bits(f) == f32_bits(expect)) | (np.isnan(f) & np.isnan(expect))
    assert same.all()
    back = bits(f.astype(bfloat16))
    finite = ~np.isnan(expect)
    np.testing.assert_array_equal(back[finite], codes[finite])


def test_bf16_from_float64_float16_and_integers_goes_through_float32():
    rng = np.random.default_rng(3)
    d = rng.uniform(-1e5, 1e5, 50_000)
    np.testing.assert_array_equal(bits(d.astype(bfloat16)), bf16_reference(d.astype(np.float32)))
    h = np.arange(0x10000, dtype=np.uint32).astype(np.uint16).view(np.float16)
    h = h[~np.isnan(h)]
    np.testing.assert_array_equal(bits(h.astype(bfloat16)), bf16_reference(h.astype(np.float32)))
    for t in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64):
        lo, hi = (0, 70_000) if np.issubdtype(t, np.unsignedinteger) else (-70_000, 70_000)
        i = np.clip(np.arange(lo, hi, 7), np.iinfo(t).min, np.iinfo(t).max).astype(t)
        np.testing.assert_array_equal(bits(i.astype(bfloat16)), bf16_reference(i.astype(np.float32)), err_msg=str(t))
    assert bits(np.array([True, False]).astype(bfloat16)).tolist() == [0x3F80, 0]


def test_bf16_back_to_other_types():
    b = np.array([0x4049, 0xC0A0, 0x7F80, 0x3F00], dtype=np.uint16).view(bfloat16)  # 3.140625, -5, inf, 0.5
    assert b.astype(np.float64).tolist() == [3.140625, -5.0, math.inf, 0.5]
    assert b.astype(np.float16).tolist() == [3.140625, -5.0, math.inf, 0.5]
    assert b[[0, 1, 3]].astype(np.int32).tolist() == [3, -5, 0]
    assert b.astype(np.bool_).tolist() == [True, True, True, True]
    assert b[[0, 3]].astype(np.uint8).tolist() == [3, 0] and b[[0, 3]].astype(np.uint16).tolist() == [3, 0]
    assert b[[0, 1]].astype(np.int8).tolist() == [3, -5] and b[[0, 1]].astype(np.int64).tolist() == [3, -5]
    assert np.array([np.nan, 0.0, -0.0], np.float32).astype(bfloat16).astype(np.bool_).tolist() == [True, False,
                                                                                                     False]


# --------------------------------------------------------------------------- float8

@pytest.mark.parametrize("fmt", ["e4m3fn", "e5m2"])
def test_fp8_decode_every_code(fmt):
    codes = np.arange(256, dtype=np.uint8)
    got = codes.view(F8[fmt]).astype(np.float32)
    for c in range(256):
        want = ocp_decode(fmt, c)
        if math.isnan(want):
            assert math.isnan(got[c]), (fmt, c)
        else:
            assert got[c] == want and math.copysign(1, got[c]) == math.copysign(1, want), (fmt, hex(c), got[c], want)
    assert np.all(codes.view(F8[fmt]).astype(np.float64)[~np.isnan(got)] == got[~np.isnan(got)])


@pytest.mark.parametrize("fmt", ["e4m3fn", "e5m2"])
def test_fp8_encode_round_trip_of_every_code(fmt):
    codes = np.arange(256, dtype=np.uint8)
    vals = np.array([ocp_decode(fmt, c) for c in range(256)], dtype=np.float32)
    keep = ~np.isnan(vals)
    np.testing.assert_array_equal(bits(vals[keep].astype(F8[fmt])), codes[keep])


@pytest.mark.parametrize("fmt", ["e4m3fn", "e5m2"])
def test_fp8_encode_midpoints_ties_to_even(fmt):
    g = grid(fmt)
    xs, want = [], []
    for (lo, lc), (hi, hc) in zip(g, g[1:]):
        mid = (lo + hi) / 2  # exact in float32: one more bit than the format
        even = lc if lc % 2 == 0 else hc
        below = float(np.nextafter(np.float32(mid), np.float32(0)))
        above = float(np.nextafter(np.float32(mid), np.float32(np.inf)))
        xs += [mid, below, above, -mid, -below, -above]
        want += [even, lc, hc, 0x80 | even, 0x80 | lc, 0x80 | hc]
    got = bits(np.array(xs, dtype=np.float32).astype(F8[fmt]))
    bad = [(x, hex(w), hex(g_)) for x, w, g_ in zip(xs, want, got.tolist()) if w != g_]
    assert not bad, bad[:10]


def test_fp8_overflow_and_specials():
    e4 = np.array([448, 463.99997, 464, 464.00003, 1e6, np.inf, -np.inf, -464.00003, np.nan, -np.nan, -0.0],
                  dtype=np.float32)
    # E4M3FN has no Inf: past the 448/480 midpoint (which ties down to 448, code 0x7E) it is NaN
    assert bits(e4.astype(float8_e4m3fn)).tolist() == [0x7E, 0x7E, 0x7E, 0x7F, 0x7F, 0x7F, 0xFF, 0xFF, 0x7F, 0xFF,
                                                       0x80]
    e5 = np.array([57344, 61439.996, 61440, 1e6, np.inf, -np.inf, -61440, np.nan, 2.0 ** -17, 3 * 2.0 ** -17],
                  dtype=np.float32)
    # E5M2 overflows to Inf: the midpoint of its largest value 57344 and 2^16 ties up (0x7B is odd)
    got = bits(e5.astype(float8_e5m2)).tolist()
    assert got[:7] == [0x7B, 0x7B, 0x7C, 0x7C, 0x7C, 0xFC, 0xFC]
    assert (got[7] & 0x7C) == 0x7C and (got[7] & 3)  # NaN
    assert got[8:] == [0x00, 0x02]  # 2^-17 and 3 * 2^-17 are midpoints of codes 0/1 and 1/2: even


def test_fp8_from_float64_goes_through_float32():
    rng = np.random.default_rng(11)
    d = rng.uniform(-600, 600, 20_000)
    for t in F8.values():
        np.testing.assert_array_equal(bits(d.astype(t)), bits(d.astype(np.float32).astype(t)))
    i = np.arange(-128, 128)
    np.testing.assert_array_equal(bits(i.astype(float8_e4m3fn)), bits(i.astype(np.float32).astype(float8_e4m3fn)))


def test_casts_between_the_types_are_exact_where_the_value_fits():
    for t in F8.values():
        codes = np.arange(256, dtype=np.uint8).view(t)
        f = codes.astype(np.float32)
        keep = ~np.isnan(f)
        np.testing.assert_array_equal(codes.astype(bfloat16).astype(np.float32)[keep], f[keep])
        np.testing.assert_array_equal(codes.astype(np.float16).astype(np.float32)[keep], f[keep])
    e5 = np.arange(256, dtype=np.uint8).view(float8_e5m2)
    assert bits(e5.astype(float8_e4m3fn))[0x3C] == 0x38  # 1.0


# --------------------------------------------------------------------------- NumPy behaviour

def test_dtype_properties():
    assert np.dtype(bfloat16).itemsize == 2 and np.dtype(float8_e4m3fn).itemsize == 1
    assert np.dtype("bfloat16") == np.dtype(bfloat16)
    assert bfloat16.__name__ == "bfloat16" and float8_e5m2.__name__ == "float8_e5m2"
    # like the ml_dtypes package: not np.floating, so scripts skip np.finfo for them
    assert not np.issubdtype(bfloat16, np.floating) and not np.issubdtype(float8_e4m3fn, np.integer)
    assert issubclass(bfloat16, np.generic)


def test_array_round_trips_tofile_fromfile_and_views(tmp_path):
    rng = np.random.default_rng(5)
    for t in (bfloat16, float8_e4m3fn, float8_e5m2):
        a = rng.uniform(-8, 8, (7, 33)).astype(t)
        p = tmp_path / f"{t.__name__}.bin"
        a.tofile(p)
        raw = np.fromfile(p, dtype=np.uint8)
        assert raw.size == a.size * np.dtype(t).itemsize
        np.testing.assert_array_equal(raw, a.reshape(-1).view(np.uint8))
        b = np.fromfile(p, dtype=t).reshape(7, 33)
        np.testing.assert_array_equal(bits(b), bits(a))
        a.T.tofile(p)  # non-contiguous
        np.testing.assert_array_equal(bits(np.fromfile(p, dtype=t)), bits(np.ascontiguousarray(a.T)).reshape(-1))
        z = np.zeros((2, 3), dtype=t)
        assert not bits(z).any()
        c = np.concatenate([a[:, :2], a[:, 2:]], axis=1)
        np.testing.assert_array_equal(bits(c), bits(a))


def test_matmul_after_astype_float32():
    a = np.array([[1.5, -2.0, 0.375], [4.0, 0.0625, -1.0]])
    b = np.array([[2.0, -0.5], [1.0, 3.0], [-8.0, 0.25]])
    for t in (bfloat16, float8_e4m3fn, float8_e5m2):
        got = np.matmul(a.astype(t).astype(np.float32), b.astype(t).astype(np.float32))
        # every entry above is exact in each format, so the product is the float64 one
        np.testing.assert_array_equal(got, a @ b)
        assert got.dtype == np.float32
    x = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    d = np.dot(x.astype(bfloat16), x.T.astype(bfloat16))
    assert d.dtype == np.dtype(bfloat16)
    # 30 70 110 / 174 278 / 446: even below 512, so exact in bfloat16
    np.testing.assert_array_equal(d.astype(np.float32), x @ x.T)
    y = np.array([[1.0, 1.0, 1.0]], np.float32)
    z = np.array([[256.0], [1.0], [1.0]], np.float32)
    # summed in float (258) and rounded once: exact; per-step bfloat16 rounding would give 256
    assert np.dot(y.astype(bfloat16), z.astype(bfloat16)).astype(np.float32).tolist() == [[258.0]]


def test_arithmetic_rounds_float32_results():
    rng = np.random.default_rng(9)
    a32 = rng.uniform(-100, 100, 5000).astype(np.float32)
    b32 = rng.uniform(-100, 100, 5000).astype(np.float32)
    a, b = a32.astype(bfloat16), b32.astype(bfloat16)
    af, bf = a.astype(np.float32), b.astype(np.float32)
    for got, exact in ((a + b, af + bf), (a - b, af - bf), (a * b, af * bf), (a / b, af / bf)):
        assert got.dtype == np.dtype(bfloat16)
        np.testing.assert_array_equal(bits(got), bf16_reference(exact))
    np.testing.assert_array_equal(bits(-a), bits(a) ^ 0x8000)
    np.testing.assert_array_equal(bits(np.abs(a)), bits(a) & 0x7FFF)
    np.testing.assert_array_equal(np.maximum(a, b).astype(np.float32), np.maximum(af, bf))
    assert float(np.max(a)) == af.max() and float(np.min(a)) == af.min()
    np.testing.assert_array_equal(np.round(a).astype(np.float32), np.round(af))
    for op in (np.less, np.less_equal, np.greater, np.greater_equal, np.equal, np.not_equal):
        np.testing.assert_array_equal(op(a, b), op(af, bf))
    mixed = a + np.ones(5000, np.float32)
    assert mixed.dtype == np.float32  # the type widens to float32 safely
    e = np.array([1.0, 2.0, 448.0], np.float32).astype(float8_e4m3fn)
    assert bits(e + e).tolist() == [0x40, 0x48, 0x7F]  # 896 is past E4M3FN's range: NaN
    assert np.isnan(e + e).tolist() == [False, False, True]


def test_scalars():
    x = bfloat16(3.14159)
    assert type(x) is bfloat16 and float(x) == 3.140625 and repr(x) == "3.14062"
    assert float(x + x) == 6.28125 and float(x * bfloat16(2)) == 6.28125 and float(-x) == -3.140625
    assert x == bfloat16(3.140625) and x < bfloat16(4) and not x > bfloat16(4)
    assert int(bfloat16(-2.5)) == -2 and bool(bfloat16(0)) is False
    a = np.zeros(4, dtype=bfloat16)
    a[0] = x
    a[1] = 2.5
    a[2] = np.float32(1.00390625)  # ties to even: 1.0
    a[3] = float8_e4m3fn(0.3)  # 0.3 -> 0.3125 in E4M3, exact in bfloat16
    assert a.tolist() == [3.140625, 2.5, 1.0, 0.3125]
    assert type(a[0]) is bfloat16 and float(a[0]) == 3.140625 and a[1] == bfloat16(2.5)
    s = np.float32(1.7).astype(bfloat16)
    assert type(s) is bfloat16 and float(s) == 1.703125
    assert f"{bfloat16(1.5):.2f}" == "1.50"
    assert int(bits(np.array([float8_e4m3fn(500.0)]))[0]) == 0x7F
    g = np.full((2, 3), 0).astype(bfloat16)
    g[:1, :2] = bfloat16(-1.25)
    assert g.astype(np.float32).tolist() == [[-1.25, -1.25, 0.0], [0.0, 0.0, 0.0]]


def e2m1_reference(code):
    """OCP MX FP4 E2M1: 1 sign, 2 exponent (bias 1), 1 mantissa bit; no Inf, no NaN."""
    sign = -1.0 if code & 0x8 else 1.0
    e, m = (code >> 1) & 0x3, code & 0x1
    return sign * (0.5 * m if e == 0 else 2.0 ** (e - 1) * (1 + m / 2))


def test_float4_e2m1fn_decodes_every_code_and_rounds_to_nearest_even_from_bfloat16():
    """A5's tquant_dn gen_data.py: `scaled.astype(bfloat16).astype(float4_e2m1fn).view(np.uint8)`."""
    from ml_dtypes import float4_e2m1fn
    codes = np.arange(16, dtype=np.uint8)
    got = codes.view(float4_e2m1fn).astype(np.float32).tolist()
    assert got == [e2m1_reference(c) for c in range(16)]
    # Midpoints tie to the even code (0.25 -> 0, 0.75 -> 1.0, 2.5 -> 2.0, 5.0 -> 4.0); beyond 6 it saturates.
    x = np.array([0.25, 0.75, 1.25, 2.5, 3.5, 5.0, 5.5, 7.0, 100.0, -0.3, -6.0], np.float32).astype(bfloat16)
    assert x.astype(float4_e2m1fn).view(np.uint8).tolist() == [0x0, 0x2, 0x2, 0x4, 0x6, 0x6, 0x7, 0x7, 0x7, 0x9, 0xF]
    assert np.dtype(float4_e2m1fn).itemsize == 1 and float4_e2m1fn.__name__ == "float4_e2m1fn"
