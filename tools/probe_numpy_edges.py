"""Prints NumPy 2's answers on the edge cases the hardening tests hold loom to (run where NumPy 2
is: the GPU machine). Each line is `case => result` (dtype and values, or the exception type and
message); the tests in tests/unit/api/test_numpy_edges.cpp (and tests/gpu) read this output, committed as
tests/unit/api/numpy_edges.txt.
Usage: python3 tools/probe_numpy_edges.py > tests/unit/api/numpy_edges.txt
"""
import warnings

import numpy as np

warnings.simplefilter("ignore")
I64_MIN, I64_MAX = -(2**63), 2**63 - 1


def show(label, fn):
    try:
        r = fn()
        if isinstance(r, np.generic):
            r = np.asarray(r)
        if isinstance(r, np.ndarray):
            out = f"{r.dtype} {r.shape} {r.tolist()!r}"
        else:
            out = f"{type(r).__name__} {r!r}"
    except Exception as e:  # noqa: BLE001
        out = f"!{type(e).__name__}: {e}"
    print(f"{label} => {out}")


print("numpy", np.__version__)
# Comparisons with out-of-range Python integers (NEP 50's exception for comparisons).
u8 = np.array([0, 1, 255], np.uint8)
i8 = np.array([-128, 0, 127], np.int8)
u64 = np.array([0, 2**64 - 1], np.uint64)
i64 = np.array([I64_MIN, I64_MAX], np.int64)
for op in ["==", "!=", "<", "<=", ">", ">="]:
    for nm, arr in [("u8", u8), ("i8", i8)]:
        for v in [300, -1, 1000, -1000]:
            show(f"{nm} {op} {v}", lambda: eval(f"arr {op} v"))
            show(f"{v} {op} {nm}", lambda: eval(f"v {op} arr"))
    show(f"u64 {op} -1", lambda: eval(f"u64 {op} -1"))
    show(f"i64 {op} 2**63", lambda: eval(f"i64 {op} 2**63"))
show("equal(u8, 300)", lambda: np.equal(u8, 300))
show("maximum(u8, 300)", lambda: np.maximum(u8, 300))
# clip
show("clip(i8, -5, 500)", lambda: np.clip(i8, -5, 500))
show("clip(i8, -500, 5)", lambda: np.clip(i8, -500, 5))
show("clip(i8, 1000, 2000)", lambda: np.clip(i8, 1000, 2000))
show("clip(u8, -1, 300)", lambda: np.clip(u8, -1, 300))
show("clip(u8, -10, -5)", lambda: np.clip(u8, -10, -5))
show("clip(i8, 5, -5)", lambda: np.clip(i8, 5, -5))
show("clip(i8, 1.5, 100)", lambda: np.clip(i8, 1.5, 100))
# round of bool and ints
b = np.array([True, False])
for d in [0, 1, 2, -1]:
    show(f"round(bool, {d})", lambda: np.round(b, d))
show("round(i8, -1)", lambda: np.round(np.array([15, 25, -15, 125], np.int8), -1))
# complex 0 ** z
for dt in ["complex64", "complex128"]:
    zs = [0, 1, 2, 0.5, -1, 1j, -1j, 1 + 1j, -1 + 1j, 1 - 1j, complex(0, 0), complex(np.nan, 0),
          complex(0, np.nan), complex(np.inf, 0), complex(-0.0, 0), complex(1e-30, 0)]
    for z in zs:
        show(f"{dt} 0**({z!r})", lambda: (np.array([0], dt) ** np.array([z], dt)))
    show(f"{dt} (-0.0)**2", lambda: (np.array([complex(-0.0, 0)], dt) ** np.array([2], dt)))
    show(f"{dt} (0-0j)**(1+0j)", lambda: (np.array([complex(0, -0.0)], dt) ** np.array([1], dt)))
    show(f"{dt} 0**2 scalar", lambda: (np.array([0], dt) ** 2))
    show(f"{dt} 0**0.5 scalar", lambda: (np.array([0], dt) ** 0.5))
    show(f"{dt} 0**-1 scalar", lambda: (np.array([0], dt) ** -1))
    show(f"{dt} 0**1j scalar", lambda: (np.array([0], dt) ** 1j))
# reductions of a 0-d array
z = np.array(3.5)
for fn in ["sum", "prod", "max", "min", "mean", "var", "std", "any", "all", "argmax", "argmin",
           "nanmax", "nansum", "nanmean", "ptp", "count_nonzero", "cumsum"]:
    for ax in [0, -1, 1, -2, (0,)]:
        show(f"{fn}(0-d, axis={ax})", lambda: getattr(np, fn)(z, axis=ax))
# arange
show("arange(0, 5, dtype=complex128)", lambda: np.arange(0, 5, dtype=np.complex128))
show("arange(0.5, 3, 0.5, dtype=complex64)", lambda: np.arange(0.5, 3, 0.5, dtype=np.complex64))
show("arange(1, 2, 0.1, dtype=complex64)", lambda: np.arange(1, 2, 0.1, dtype=np.complex64))
show("arange(0.0, inf)", lambda: np.arange(0.0, np.inf))
show("arange(0.0, -inf, -1)", lambda: np.arange(0.0, -np.inf, -1.0))
show("arange(0.0, nan)", lambda: np.arange(0.0, np.nan))
show("arange(nan, 1.0)", lambda: np.arange(np.nan, 1.0))
show("arange(0.0, 1.0, nan)", lambda: np.arange(0.0, 1.0, np.nan))
show("arange(0.0, 1e300, 1e-300)", lambda: np.arange(0.0, 1e300, 1e-300))
show("arange(0, 1e19)", lambda: np.arange(0, 1e19))
show("arange(I64_MIN, I64_MAX)", lambda: np.arange(I64_MIN, I64_MAX))
show("arange(0, I64_MAX, I64_MAX//2)", lambda: np.arange(0, I64_MAX, I64_MAX // 2))
show("arange(I64_MAX, 0, -(I64_MAX//2))", lambda: np.arange(I64_MAX, 0, -(I64_MAX // 2)))
show("arange(I64_MIN, I64_MAX, 2**62)", lambda: np.arange(I64_MIN, I64_MAX, 2**62))
show("arange(0, 2**62)", lambda: np.arange(0, 2**62))
show("arange(0, 2**61, dtype=int8)", lambda: np.arange(0, 2**61, dtype=np.int8))
show("arange(5, dtype=bool)", lambda: np.arange(5, dtype=bool))
show("arange(2, dtype=bool)", lambda: np.arange(2, dtype=bool))
show("arange(1.0, 0.0)", lambda: np.arange(1.0, 0.0))
# full / eye / broadcast_to / shapes
show("full(2, 300, int8)", lambda: np.full(2, 300, np.int8))
show("full(2, -1, uint8)", lambda: np.full(2, -1, np.uint8))
show("full(2, 1.5, int8)", lambda: np.full(2, 1.5, np.int8))
show("full(2, 300, bool)", lambda: np.full(2, 300, bool))
show("full(2, 2**64, uint64)", lambda: np.full(2, 2**64, np.uint64))
show("full(2, 300, float16)", lambda: np.full(2, 300, np.float16))
show("eye(3, -2)", lambda: np.eye(3, -2))
show("eye(-1)", lambda: np.eye(-1))
show("eye(3, 3, -5)", lambda: np.eye(3, 3, -5))
show("broadcast_to((-3,))", lambda: np.broadcast_to(np.ones(1), (-3,)))
show("broadcast_to((2,-1))", lambda: np.broadcast_to(np.ones(1), (2, -1)))
show("empty((2**32, 2**32))", lambda: np.empty((2**32, 2**32)))
show("empty((2**62, 4))", lambda: np.empty((2**62, 4)))
show("zeros((3037000500, 3037000500))", lambda: np.zeros((3037000500, 3037000500)))
show("empty((2**62,), int8) size", lambda: np.empty((2**62,), np.int8).size)
show("ones(2**32).reshape(...)", lambda: np.ones((1,)).reshape(2**32, 2**32))
show("broadcast (2**32,1)+(1,2**32)",
     lambda: np.broadcast_shapes((2**32, 1), (1, 2**32)))
show("empty((0, 2**62, 2**62))", lambda: np.empty((0, 2**62, 2**62)).shape)
# slices with extreme steps
x = np.arange(5)
for sl in ["::I64_MAX", "::I64_MIN", "I64_MIN:I64_MAX:I64_MAX", "I64_MAX:I64_MIN:I64_MIN",
           "1::I64_MAX", "-1::I64_MIN", "I64_MIN::", ":I64_MIN:-1", "I64_MAX::-1", "::-I64_MAX"]:
    show(f"x[{sl}]", lambda: eval(f"x[{sl}]"))
# linalg
a = np.random.default_rng(0).standard_normal((5, 3))
show("lstsq rank type", lambda: type(np.linalg.lstsq(a, np.ones(5), rcond=None)[2]).__name__)
show("lstsq rank dtype", lambda: np.asarray(np.linalg.lstsq(a, np.ones(5), rcond=None)[2]).dtype.name)
# power by an exponent that is one value for the loop: NumPy's float32 and float64 loops take a
# fast path (0.5 -> sqrt, -1 -> 1/x, 1 -> x, 2 -> x*x); others and complex arrays are pow.
inf = np.inf
show("power(f32[-inf,-1,-0,0,4,inf,nan], 0.5)",
     lambda: np.power(np.array([-inf, -1.0, -0.0, 0.0, 4.0, inf, np.nan], np.float32), 0.5))
show("power(f64[-inf,-1,-0,4], float64(0.5))",
     lambda: np.power(np.array([-inf, -1.0, -0.0, 4.0]), np.float64(0.5)))
show("power(f64[-inf,0,3], 2.0)", lambda: np.power(np.array([-inf, 0.0, 3.0]), 2.0))
show("power(f64[-inf,0,3], -1.0)", lambda: np.power(np.array([-inf, 0.0, 3.0]), -1.0))
show("power(f64[-inf,0,3], 1.0)", lambda: np.power(np.array([-inf, 0.0, 3.0]), 1.0))
show("power(f64[-inf,-0,3], -0.5)", lambda: np.power(np.array([-inf, -0.0, 3.0]), -0.5))
show("power(f64[-8,-0,3], 1/3)", lambda: np.power(np.array([-8.0, -0.0, 3.0]), 1.0 / 3))
show("power(i64[1,4], 0.5)", lambda: np.power(np.array([1, 4]), 0.5))
show("power(i32[2,4], 2)", lambda: np.power(np.array([2, 4], np.int32), 2))
# item conversion
show("int(np.float64(1e20))", lambda: int(np.float64(1e20)))
show("np.array(1e20).astype(int32)", lambda: np.array([1e20]).astype(np.int32))
show("np.array(nan).astype(int32)", lambda: np.array([np.nan]).astype(np.int32))

# Complex products whose parts cancel or underflow: NumPy's multiply loop computes
# re = fma(ar, br, -(ai * bi)), im = fma(ar, bi, ai * br) where the CPU has FMA (the formulas are
# counted below for each path); loom's multiply must give the same bits. `cmul` lines hold
# inputs and NumPy's product as hex bit patterns (complex64: 8 hex digits per part).
rng = np.random.default_rng(1)
n = 20000
for dt, ft, it, lo, hi in [(np.complex64, np.float32, np.uint32, -75, -55),
                           (np.complex128, np.float64, np.uint64, -540, -500)]:
    def parts():
        e = rng.integers(lo, hi, n).astype(np.float64)
        return (rng.standard_normal(n) * 2.0**e).astype(ft)
    ar, ai = rng.standard_normal(n).astype(ft), parts()
    br, bi = parts(), rng.standard_normal(n).astype(ft)
    a = (ar + 1j * ai).astype(dt)
    b = (br + 1j * bi).astype(dt)
    def fma(x, y, z):
        if ft is np.float32:  # float32 products are exact in float64, and one rounding follows
            return (x.astype(np.float64) * y.astype(np.float64) + z.astype(np.float64)).astype(ft)
        from fractions import Fraction  # exact, then one correct rounding (float(Fraction))
        return np.array([float(Fraction(float(p)) * Fraction(float(q)) + Fraction(float(r)))
                         for p, q, r in zip(x, y, z)], ft)
    want_fma = (fma(ar, br, -(ai * bi)), fma(ar, bi, ai * br))
    plain = ((ar * br) - (ai * bi), (ar * bi) + (ai * br))
    def same(got, ref):
        re, im = ref
        return int(((re.view(it) == got.real.view(it)) & (im.view(it) == got.imag.view(it))).sum())
    name = np.dtype(dt).name
    for label, got in [("contiguous", a * b), ("strided", (a[::1].repeat(2)[::2] * b.repeat(2)[::2])),
                       ("np.multiply out=", np.multiply(a, b, out=np.empty_like(a)))]:
        print(f"# {name} multiply {label}: fma {same(got, want_fma)} plain {same(got, plain)} of {n}")
    sq = a * a
    want_sq = (fma(ar, ar, -(ai * ai)), fma(ar, ai, ai * ar))
    plain_sq = ((ar * ar) - (ai * ai), (ar * ai) + (ai * ar))
    for label, got in [("square", np.square(a)), ("power 2", np.power(a, 2)), ("a*a", sq)]:
        print(f"# {name} {label}: fma {same(got, want_sq)} plain {same(got, plain_sq)} of {n}")
    s0 = b[:1]
    got = a * s0[0]
    want = (fma(ar, s0.real, -(ai * s0.imag)), fma(ar, s0.imag, ai * s0.real))
    pl = ((ar * s0.real) - (ai * s0.imag), (ar * s0.imag) + (ai * s0.real))
    print(f"# {name} array * scalar: fma {same(got, want)} plain {same(got, pl)} of {n}")
    got = a * b
    differ = np.nonzero((plain[0].view(it) != got.real.view(it)) | (plain[1].view(it) != got.imag.view(it)))[0]
    w = 8 if ft is np.float32 else 16
    for i in differ[:48]:
        hx = lambda v: format(int(np.asarray(v, ft).view(it)), f"0{w}x")
        print(f"cmul {name} {hx(ar[i])} {hx(ai[i])} {hx(br[i])} {hx(bi[i])} => {hx(got[i].real)} {hx(got[i].imag)}")
