"""ptolab's en_dtypes module (src/golden_dtypes): the hifloat8, float4_e2m1,
float4_e1m2 and float8_e8m0 NumPy types pto-isa's A5 gen_data.py scripts use.

Every expected value here comes from the formats' definitions (HiFloat8's
dot-coded exponent from its paper, the OCP MX spec's E2M1 and E8M0, E1M2
as a 1-bit-exponent, bias-1 float) worked out in Python, never from the
module under test. Skipped when the module was not built.
"""

import math
import os
import sys

import numpy as np
import pytest

_dir = os.path.join(os.environ.get("PTOLAB_GOLDEN_DTYPES_DIR", ""), "en_dtypes")
if not os.path.isdir(_dir) or not any(f.startswith("en_dtypes.") for f in os.listdir(_dir)):
    pytest.skip("ptolab's en_dtypes module was not built (needs python3-dev and python3-numpy)",
                allow_module_level=True)
sys.path.insert(0, _dir)
import en_dtypes  # noqa: E402

if getattr(en_dtypes, "implementation", None) != "ptolab":
    pytest.skip(f"imported another en_dtypes ({en_dtypes.__file__})", allow_module_level=True)

from en_dtypes import float4_e1m2, float4_e2m1, float8_e8m0, hifloat8  # noqa: E402


# --------------------------------------------------------------------------- references

def hif8_decode(code):
    """HiFloat8 (arXiv 2409.16626): sign, then a prefix-coded dot field giving the exponent
    width D (11: 4, 10: 3, 01: 2, 001: 1, 0001: 0, 0000: denormal), a sign-magnitude exponent
    with an implicit leading 1, and the rest mantissa. 0x80 is NaN, 0x6F/0xEF are +-Inf."""
    if code == 0x80:
        return math.nan
    sign = -1.0 if code & 0x80 else 1.0
    if code & 0x7F == 0x6F:
        return sign * math.inf
    b = format(code & 0x7F, "07b")
    if b.startswith("0000"):
        m = int(b[4:], 2)
        return 0.0 if m == 0 else sign * 2.0 ** (m - 23)
    for prefix, d in (("11", 4), ("10", 3), ("01", 2), ("001", 1), ("0001", 0)):
        if b.startswith(prefix):
            rest = b[len(prefix):]
            e_bits, m_bits = rest[:d], rest[d:]
            e = 0
            if d:
                e = (1 << (d - 1)) + (int(e_bits[1:], 2) if d > 1 else 0)
                e = -e if e_bits[0] == "1" else e
            return sign * 2.0 ** e * (1 + int(m_bits, 2) / 2 ** len(m_bits))
    raise AssertionError(code)


def e2m1_decode(code):
    """OCP MX FP4 E2M1: bias 1, subnormal 0.5 * m; no Inf or NaN."""
    sign = -1.0 if code & 0x8 else 1.0
    e, m = (code >> 1) & 0x3, code & 0x1
    return sign * (0.5 * m if e == 0 else 2.0 ** (e - 1) * (1 + m / 2))


def e1m2_decode(code):
    """FP4 E1M2: one exponent bit with bias 1, so subnormals 0.25 * m and normals 1 + m / 4."""
    sign = -1.0 if code & 0x8 else 1.0
    e, m = (code >> 2) & 0x1, code & 0x3
    return sign * (0.25 * m if e == 0 else 1 + m / 4)


def e8m0_decode(code):
    """OCP MX E8M0 scale: 2^(code - 127), 0xFF NaN; unsigned, no zero."""
    return math.nan if code == 0xFF else 2.0 ** (code - 127)


TYPES = {
    "hifloat8": (hifloat8, hif8_decode, 256),
    "float4_e2m1": (float4_e2m1, e2m1_decode, 16),
    "float4_e1m2": (float4_e1m2, e1m2_decode, 16),
    "float8_e8m0": (float8_e8m0, e8m0_decode, 256),
}


def grid(name):
    """(value, code) of the non-negative finite codes, ascending (+0 only once)."""
    _, decode, n = TYPES[name]
    pts = {}
    for c in range(n):
        v = decode(c)
        if math.isfinite(v) and v >= 0 and math.copysign(1, v) > 0:
            pts.setdefault(v, c)
    return sorted(pts.items())


# --------------------------------------------------------------------------- decoding and encoding

@pytest.mark.parametrize("name", TYPES)
def test_decode_every_code(name):
    t, decode, n = TYPES[name]
    got = np.arange(n, dtype=np.uint8).view(t).astype(np.float64)
    for c in range(n):
        want = decode(c)
        if math.isnan(want):
            assert math.isnan(got[c]), (name, hex(c))
        else:
            assert got[c] == want, (name, hex(c), got[c], want)


@pytest.mark.parametrize("name", TYPES)
def test_encode_round_trip_of_every_code(name):
    t, decode, n = TYPES[name]
    vals = np.array([decode(c) for c in range(n)], dtype=np.float32)
    keep = ~np.isnan(vals)
    codes = np.arange(n, dtype=np.uint8)
    if name == "float4_e2m1" or name == "float4_e1m2":
        keep &= codes != 0x8  # -0 encodes as itself; checked below
    np.testing.assert_array_equal(vals[keep].astype(t).view(np.uint8), codes[keep])
    if n == 16:
        assert np.array([-0.0], np.float32).astype(t).view(np.uint8).tolist() == [0x8]


@pytest.mark.parametrize("name,ties", [("float4_e2m1", "even"), ("float4_e1m2", "even"), ("hifloat8", "away")])
def test_midpoints(name, ties):
    t = TYPES[name][0]
    g = grid(name)
    sign_bit = 0x80 if name == "hifloat8" else 0x8
    xs, want = [], []
    for (lo, lc), (hi, hc) in zip(g, g[1:]):
        mid = (lo + hi) / 2
        tie = (lc if lc % 2 == 0 else hc) if ties == "even" else hc
        below = float(np.nextafter(np.float32(mid), np.float32(0)))
        above = float(np.nextafter(np.float32(mid), np.float32(np.inf)))
        xs += [mid, below, above, -mid, -above]
        neg = (lambda c: 0 if c == 0 else sign_bit | c) if name == "hifloat8" else (lambda c: sign_bit | c)
        want += [tie, lc, hc, neg(tie), neg(hc)]
    got = np.array(xs, dtype=np.float32).astype(t).view(np.uint8).tolist()
    bad = [(x, hex(w), hex(g_)) for x, w, g_ in zip(xs, want, got) if w != g_]
    assert not bad, bad[:10]


def test_overflow():
    # the 4-bit formats have neither Inf nor NaN: they saturate
    assert np.array([7.0, 100.0, -1e9, np.inf], np.float32).astype(float4_e2m1).view(np.uint8).tolist() == \
        [0x7, 0x7, 0xF, 0x7]
    assert np.array([1.9, 2.0, -5.0], np.float32).astype(float4_e1m2).view(np.uint8).tolist() == [0x7, 0x7, 0xF]
    # HiFloat8's largest finite value is 2^15; half-way to the next grid point (1.5 * 2^15) ties away: Inf
    h = np.array([32768, 1.25 * 32768 - 8, 1.25 * 32768, 1e9, -1e9, np.inf, np.nan], np.float32).astype(hifloat8)
    assert h.view(np.uint8).tolist() == [0x6E, 0x6E, 0x6F, 0x6F, 0xEF, 0x6F, 0x80]
    # HiFloat8 has one zero
    assert np.array([-0.0, 1e-9], np.float32).astype(hifloat8).view(np.uint8).tolist() == [0x00, 0x00]
    assert np.array([1.0, 0.5, 2.0 ** -127], np.float32).astype(float8_e8m0).view(np.uint8).tolist() == \
        [127, 126, 0]


# --------------------------------------------------------------------------- what the golden scripts do

def test_fp4_nibble_packing_as_the_scripts_do(tmp_path):
    """tmatmul_mx and textract pack two fp4 elements per byte: even index in the low nibble."""
    rng = np.random.default_rng(3)
    for t, decode in ((float4_e2m1, e2m1_decode), (float4_e1m2, e1m2_decode)):
        x = rng.integers(-6, 6, (8, 16)).astype(t)
        assert np.dtype(t).itemsize == 1
        flat = x.flatten()
        packed = ((flat[1::2].view(np.uint8) & 0x0F) << 4) | (flat[::2].view(np.uint8) & 0x0F)
        p = tmp_path / "x.bin"
        packed.reshape(8, 8).tofile(p)
        raw = np.fromfile(p, np.uint8)
        unpacked = np.empty(raw.size * 2, np.float64)
        unpacked[::2] = [decode(b & 0xF) for b in raw]
        unpacked[1::2] = [decode(b >> 4) for b in raw]
        np.testing.assert_array_equal(unpacked.reshape(8, 16), x.astype(np.float64))


def test_matmul_and_casts():
    a = np.array([[1, -1, 0], [0, 1, 1]]).astype(hifloat8)
    b = np.array([[2, 1], [-1, 3], [1, 1]]).astype(hifloat8)
    # np.dot keeps the type; np.matmul (no loop registered) computes in float32, and
    # tstore_acc2gm's golden casts its result back with .astype(hifloat8)
    d = np.dot(a, b)
    assert d.dtype == np.dtype(hifloat8) and d.astype(np.float32).tolist() == [[3.0, -2.0], [0.0, 4.0]]
    assert np.matmul(a, b).astype(hifloat8).astype(np.float32).tolist() == [[3.0, -2.0], [0.0, 4.0]]
    # through float32, like the package: a float16 source and a float64 one give the same codes
    x = np.random.default_rng(1).uniform(-300, 300, 4000)
    np.testing.assert_array_equal(x.astype(np.float16).astype(hifloat8).view(np.uint8),
                                  x.astype(np.float16).astype(np.float32).astype(hifloat8).view(np.uint8))
    np.testing.assert_array_equal(x.astype(hifloat8).view(np.uint8),
                                  x.astype(np.float32).astype(hifloat8).view(np.uint8))
    # between the module's own types
    assert np.array([1.5, -6.0], np.float32).astype(float4_e2m1).astype(hifloat8).astype(np.float32).tolist() == \
        [1.5, -6.0]


def test_dtype_properties():
    assert hifloat8.__name__ == "hifloat8" and np.dtype("float4_e2m1") == np.dtype(float4_e2m1)
    assert not np.issubdtype(hifloat8, np.floating) and issubclass(float4_e1m2, np.generic)
    assert float(hifloat8(3.3)) == 3.25 and float(float4_e2m1(5)) == 4.0
