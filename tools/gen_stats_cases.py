"""Writes NumPy's answers for the order statistics, nan reductions, covariance and partitions of
issue 30 as test data (tests/unit/api/stats_cases.txt), in gen_math_cases.py's format. q lists are
float64 arrays (V tokens), q numbers f tokens (NumPy's Python floats); axes are i (an int), n
(None) or l (a tuple); methods m<word>. partition/argpartition give only what NumPy defines: the
kth elements (and the checks). NumPy's RuntimeError (cov's weight shapes) is loom's ShapeError,
ValueError in the table.
Usage (where NumPy 2 is): python3 tools/gen_stats_cases.py > tests/unit/api/stats_cases.txt
"""
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")
sys.path.insert(0, __file__.rsplit("/", 1)[0])

import gen_math_cases as gm  # noqa: E402
from gen_manipulation_cases import A, Word  # noqa: E402

V = gm.V
NAN, INF = float("nan"), float("inf")
METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]


def ax(a):
    return tuple(a) if isinstance(a, tuple) else a


def q_of(q):
    return q.value() if isinstance(q, V) else q


def kth_values(r, kth, axis):
    k = np.atleast_1d(np.asarray(kth))
    return np.take(r, k, axis=-1 if axis is None else axis)


def part_arg(a, kth, axis):
    a = np.asarray(a)
    idx = np.argpartition(a, kth, axis=axis)
    src = a.ravel() if axis is None else a
    return kth_values(np.take_along_axis(src, idx, axis=-1 if axis is None else axis), kth, axis)


def rng_of(r):  # (the arguments arrive as NumPy values)
    return None if r is None else [tuple(p) for p in np.asarray(r).tolist()]


def bins_of(b):
    return b


def hdd(sample, bins, r, w, density):
    h, edges = np.histogramdd(sample, bins_of(bins), range=rng_of(r), weights=w, density=bool(density))
    return (h,) + tuple(edges)


gm.CALLS.update({
    "gradient": lambda f, sp, axis, eo: np.gradient(f, *[x for x in sp], axis=ax(axis), edge_order=eo),
    "interp": lambda x, xp, fp, left, right, period: np.interp(x, xp, fp, left=left, right=right, period=period),
    "convolve": lambda a, v, mode: np.convolve(a, v, mode=mode),
    "correlate": lambda a, v, mode: np.correlate(a, v, mode=mode),
    "unwrap": lambda p, discont, axis, period: np.unwrap(p, discont=discont, axis=axis, period=period),
    "vander": lambda x, n, inc: np.vander(x, n, increasing=bool(inc)),
    "polyfit": lambda x, y, deg, w: np.polyfit(x, y, deg, w=w),
    "kaiser": np.kaiser,
    "i0": np.i0,
    "histogram_rule": lambda a, rule, lo, hi: np.histogram(a, rule, range=None if lo is None else (lo, hi)),
    "bin_edges_rule": lambda a, rule, lo, hi: np.histogram_bin_edges(a, rule, range=None if lo is None else (lo, hi)),
    "histogramdd": hdd,
    "histogram2d": lambda x, y, bins, r, w, density: np.histogram2d(x, y, bins_of(bins), range=rng_of(r), weights=w,
                                                                  density=bool(density)),
    "quantile": lambda a, q, axis, kd, m: np.quantile(a, q_of(q), axis=ax(axis), keepdims=bool(kd), method=m),
    "percentile": lambda a, q, axis, kd, m: np.percentile(a, q_of(q), axis=ax(axis), keepdims=bool(kd), method=m),
    "nanquantile": lambda a, q, axis, kd, m: np.nanquantile(a, q_of(q), axis=ax(axis), keepdims=bool(kd), method=m),
    "nanpercentile": lambda a, q, axis, kd, m: np.nanpercentile(a, q_of(q), axis=ax(axis), keepdims=bool(kd),
                                                                method=m),
    "median": lambda a, axis, kd: np.median(a, axis=ax(axis), keepdims=bool(kd)),
    "nanmedian": lambda a, axis, kd: np.nanmedian(a, axis=ax(axis), keepdims=bool(kd)),
    "nanprod": lambda a, axis, kd: np.nanprod(a, axis=ax(axis), keepdims=bool(kd)),
    "nanvar": lambda a, axis, kd, ddof: np.nanvar(a, axis=ax(axis), keepdims=bool(kd), ddof=ddof),
    "nanstd": lambda a, axis, kd, ddof: np.nanstd(a, axis=ax(axis), keepdims=bool(kd), ddof=ddof),
    "nancumsum": lambda a, axis: np.nancumsum(a, axis=axis),
    "nancumprod": lambda a, axis: np.nancumprod(a, axis=axis),
    "nanargmin": lambda a, axis, kd: np.nanargmin(a, axis=axis, keepdims=bool(kd)),
    "nanargmax": lambda a, axis, kd: np.nanargmax(a, axis=axis, keepdims=bool(kd)),
    "cov": lambda m, y, rowvar, bias, ddof, fw, aw: np.cov(m, y, rowvar=bool(rowvar), bias=bool(bias), ddof=ddof,
                                                         fweights=fw, aweights=aw),
    "corrcoef": lambda x, y, rowvar: np.corrcoef(x, y, rowvar=bool(rowvar)),
    "partition": lambda a, kth, axis: kth_values(np.partition(a, kth, axis=axis), kth, axis),
    "argpartition": part_arg,
})

call = gm.call


def main():
    print("# NumPy %s: order statistics, nan reductions, covariance (tools/gen_stats_cases.py)" % np.__version__)
    f8 = V([3.0, 1.0, 4.0, 1.5, 9.0, 2.5, 5.0, 3.5], "float64")
    f4 = V([3.0, 1.0, 4.0, 1.5, 9.0, 2.5, 5.0], "float32")
    h2 = V([3.0, 1.0, 4.0, 1.5, 9.0, 2.5], "float16")
    i8 = V([7, -3, 100, 0, -128, 5], "int8")
    u8 = V([7, 3, 255, 0, 128], "uint8")
    i64 = V([10, 40, 20, 30], "int64")
    b = V([True, False, True, True], "bool")
    nanv = V([2.0, NAN, 1.0, 4.0, NAN, 3.0], "float64")
    m2 = V([1.0, 7.0, 3.0, NAN, 5.0, 2.0, 8.0, 6.0, 4.0, NAN, NAN, NAN], "float64", (3, 4))
    m3 = V([(k * 37) % 23 + 0.5 for k in range(24)], "float32", (2, 3, 4))
    inf = V([1.0, INF, -INF, 2.0], "float64")
    qs = V([0.0, 0.1, 0.25, 0.5, 0.9, 1.0], "float64")
    # --- quantile, every method, numbers and lists of q ---
    for m in METHODS:
        w = Word(m)
        call("quantile", f8, 0.4, None, 0, w)
        call("quantile", f8, qs, None, 0, w)
        call("quantile", f4, 0.3, None, 0, w)
        call("quantile", i8, qs, None, 0, w)
        call("quantile", A((3, 5)), 0.75, 1, 0, w)
        call("quantile", m3, V([0.2, 0.6], "float64"), (0, 2), 1, w)
        call("nanquantile", m2, qs, 1, 0, w)
        call("nanquantile", nanv, 0.5, None, 0, w)
    for q in (0.0, 0.5, 0.37, 1.0):
        call("quantile", h2, q, None, 0, Word("linear"))
        call("quantile", u8, q, None, 0, Word("linear"))
        call("quantile", i64, q, None, 0, Word("linear"))
        call("quantile", inf, q, None, 0, Word("linear"))
        call("quantile", m2, q, 1, 0, Word("linear"))
        call("quantile", m2, q, 0, 1, Word("lower"))
    call("quantile", b, 0.5, None, 0, Word("linear"))
    call("quantile", b, 0.5, None, 0, Word("lower"))
    call("quantile", A((2, 3, 4), "float64"), 0.5, (0, 1), 0, Word("linear"))
    call("quantile", A((2, 3, 4), "float64"), qs, -1, 1, Word("hazen"))
    call("quantile", A((2, 3, 4), "float64"), 0.5, 3, 0, Word("linear"))
    call("quantile", A((2, 3, 4), "float64"), 0.5, (1, 1), 0, Word("linear"))
    call("quantile", f8, 1.5, None, 0, Word("linear"))
    call("quantile", f8, -0.1, None, 0, Word("linear"))
    call("quantile", f8, V([0.5, NAN], "float64"), None, 0, Word("linear"))
    call("quantile", f8, 0.5, None, 0, Word("bogus"))
    call("quantile", V([1 + 1j, 2j], "complex128"), 0.5, None, 0, Word("linear"))
    call("quantile", V([], "float64"), 0.5, None, 0, Word("linear"))
    call("quantile", V([5.0], "float64", ()), 0.5, None, 0, Word("linear"))
    for m in ("linear", "nearest", "weibull"):
        call("percentile", f8, 40.0, None, 0, Word(m))
        call("percentile", A((3, 5), "int16"), V([5.0, 50.0, 95.0], "float64"), 0, 0, Word(m))
        call("nanpercentile", m2, V([5.0, 50.0, 95.0], "float64"), 1, 1, Word(m))
    call("percentile", f8, 101.0, None, 0, Word("linear"))
    call("nanquantile", V([NAN, NAN], "float64"), 0.5, None, 0, Word("linear"))
    call("nanquantile", V([], "float64"), 0.5, None, 0, Word("linear"))
    call("nanquantile", i8, 0.5, None, 0, Word("linear"))
    # (not a first slice of NaNs only: NumPy's result would take its float32 dtype from it)
    call("nanquantile", V([1.0, NAN, NAN, 2.0], "float32", (2, 2)), qs, 0, 0, Word("linear"))
    # --- median ---
    for x in (f8, f4, h2, i8, u8, i64, b, nanv, inf, V([1 + 2j, 3 - 1j, 0j], "complex128"), V([5.0], "float64", ())):
        call("median", x, None, 0)
        call("nanmedian", x, None, 0)
    for axis in (0, 1, None, (0, 1), -1):
        call("median", m2, axis, 0)
        call("nanmedian", m2, axis, 1)
        call("median", A((4, 3), "int32"), axis, 1)
    call("median", m3, (0, 2), 0)
    call("nanmedian", m3, (2, 0), 1)
    call("median", V([], "float64"), None, 0)
    call("median", A((2, 3)), 2, 0)
    call("nanmedian", V([NAN, NAN, 1.0, NAN], "float32", (2, 2)), 1, 0)
    # --- the nan reductions ---
    for x in (nanv, m2, V([NAN, 2.0, 3.0, NAN], "float32", (2, 2)), i8, V([1.5, NAN, -2.0], "float16")):
        for axis in (None, 0, -1):
            if axis is not None and x.value().ndim == 1 and axis == -1:
                continue
            call("nanprod", x, axis, 0)
            call("nanvar", x, axis, 0, 0)
            call("nanvar", x, axis, 1, 1)
            call("nanstd", x, axis, 0, 1)
            call("nancumsum", x, axis)
            call("nancumprod", x, axis)
    for x in (nanv, V([1.0, NAN, 3.0, 0.5, 2.0, NAN], "float64", (2, 3)), i8, inf):
        for axis in (None, 0):
            call("nanargmin", x, axis, 0)
            call("nanargmax", x, axis, 1)
    call("nanargmin", m2, 1, 0)
    call("nanargmax", V([NAN, NAN], "float64"), None, 0)
    call("nanvar", V([1 + 1j, complex(NAN, 0), 2 - 1j], "complex128"), None, 0, 0)
    call("nanvar", V([NAN, NAN, 1.0, 2.0], "float64", (2, 2)), 1, 0, 0)
    # --- covariance and correlation ---
    x2 = V([1.0, 2.0, 4.0, 7.0, 3.0, 1.0, 0.5, 2.0, 8.0, 6.0, 6.5, 1.0], "float64", (3, 4))
    y2 = V([2.0, 1.0, 0.0, 5.0], "float64")
    call("cov", x2, None, 1, 0, None, None, None)
    call("cov", x2, None, 0, 0, None, None, None)
    call("cov", x2, None, 1, 1, None, None, None)
    call("cov", x2, None, 1, 0, 2, None, None)
    call("cov", x2, y2, 1, 0, None, None, None)
    call("cov", y2, None, 1, 0, None, None, None)
    call("cov", A((3, 4), "int32"), None, 1, 0, None, None, None)
    call("cov", A((3, 4), "float32"), None, 1, 0, None, None, None)
    call("cov", x2, None, 1, 0, None, V([1, 2, 1, 3], "int64"), None)
    call("cov", x2, None, 1, 0, None, None, V([0.5, 1.0, 2.0, 0.25], "float64"))
    call("cov", x2, None, 1, 0, None, V([1, 2, 1, 3], "int64"), V([0.5, 1.0, 2.0, 0.25], "float64"))
    call("cov", x2, None, 1, 0, 0, V([1, 2, 1, 3], "int64"), V([0.5, 1.0, 2.0, 0.25], "float64"))
    call("cov", x2, None, 1, 0, None, V([1.5, 2.0, 1.0, 3.0], "float64"), None)
    call("cov", x2, None, 1, 0, None, V([1, -2, 1, 3], "int64"), None)
    call("cov", x2, None, 1, 0, None, V([1, 2, 1], "int64"), None)
    call("cov", x2, None, 1, 0, None, None, V([1.0, -2.0, 1.0, 3.0], "float64"))
    call("cov", V([1 + 1j, 2 - 1j, 0.5j, 3.0], "complex128", (2, 2)), None, 1, 0, None, None, None)
    call("cov", A((2, 2, 2), "float64"), None, 1, 0, None, None, None)
    call("cov", V([1.0, 2.0], "float64"), None, 1, 0, 5, None, None)
    call("cov", x2, V([1.0, 2.0, 3.0], "float64"), 1, 0, None, None, None)
    call("corrcoef", x2, None, 1)
    call("corrcoef", x2, None, 0)
    call("corrcoef", x2, y2, 1)
    call("corrcoef", y2, None, 1)
    call("corrcoef", A((3, 4), "int8"), None, 1)
    call("corrcoef", V([1 + 1j, 2 - 1j, 0.5j, 3.0, 1.0, 2j], "complex128", (2, 3)), None, 1)
    # --- histogram bin rules, histogramdd, histogram2d ---
    g = np.random.default_rng(7)
    data = V(list(np.round(g.normal(size=200) * 3, 3)), "float64")
    data32 = V(list(np.round(g.gamma(2.0, size=150), 3)), "float32")
    ints = V(list(g.integers(-20, 20, size=120)), "int64")
    for rule in ("auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"):
        call("histogram_rule", data, Word(rule), None, None)
        call("histogram_rule", data32, Word(rule), None, None)
        call("histogram_rule", ints, Word(rule), None, None)
        call("bin_edges_rule", data, Word(rule), -2.0, 5.0)
    call("histogram_rule", V([3.0, 3.0, 3.0], "float64"), Word("fd"), None, None)
    call("histogram_rule", V([], "float64"), Word("auto"), None, None)
    call("histogram_rule", data, Word("bogus"), None, None)
    pts = V(list(np.round(g.uniform(-1, 3, size=60), 3)), "float64", (30, 2))
    pts3 = V(list(np.round(g.uniform(0, 1, size=90), 3)), "float32", (30, 3))
    call("histogramdd", pts, 4, None, None, 0)
    call("histogramdd", pts, (3, 5), V([-1.0, 3.0, 0.0, 2.0], "float64", (2, 2)), None, 0)
    # (float32 edges: NumPy's linspace steps in float32, loom's rounds from float64, an ulp apart
    # at most: counts, not the density, are compared there)
    call("histogramdd", pts3, 3, None, V(list(np.arange(30) % 4), "float64"), 0)
    call("histogramdd", pts, 3, None, V(list(np.arange(30) % 4), "float64"), 1)
    call("histogramdd", pts, [V([-1.0, 0.0, 2.5, 3.0], "float64"), V([-1.0, 1.0, 3.0], "float64")], None, None, 0)
    call("histogramdd", V([0.5, 1.5, 1.0, 2.0, 2.0], "float64"), 2, None, None, 0)
    call("histogramdd", pts, (3, 4, 5), None, None, 0)
    call("histogramdd", pts, 0, None, None, 0)
    call("histogramdd", pts, [V([1.0, 0.0], "float64"), V([0.0, 1.0], "float64")], None, None, 0)
    x1 = V(list(np.round(g.normal(size=40), 3)), "float64")
    y1 = V(list(np.round(g.normal(size=40), 3)), "float64")
    call("histogram2d", x1, y1, 5, None, None, 0)
    call("histogram2d", x1, y1, (3, 4), V([-2.0, 2.0, -1.0, 1.0], "float64", (2, 2)), None, 1)
    call("histogram2d", x1, y1, [V([-3.0, 0.0, 3.0], "float64"), V([-1.0, 0.0, 0.5, 1.0], "float64")], None,
         V(list(np.linspace(0, 1, 40)), "float64"), 0)
    # --- gradient, interp, convolve, correlate, unwrap, vander, polyfit, kaiser, i0 ---
    fg = V([1.0, 2.0, 4.0, 7.0, 11.0, 16.0], "float64")
    fg2 = V([1.0, 2.0, 6.0, 3.0, 4.0, 5.0, 8.0, 1.0, 0.5, 2.5, 7.0, 9.0], "float64", (3, 4))
    for eo in (1, 2):
        call("gradient", fg, [], None, eo)
        call("gradient", fg, [2.0], None, eo)
        call("gradient", fg, [V([0.0, 1.0, 1.5, 3.5, 4.0, 6.0], "float64")], None, eo)
        call("gradient", fg, [V([0, 2, 4, 6, 8, 10], "int64")], None, eo)
        call("gradient", fg2, [], None, eo)
        call("gradient", fg2, [0.5, V([0.0, 1.0, 3.0, 4.0], "float64")], None, eo)
        call("gradient", fg2, [], 1, eo)
        call("gradient", V([1, 4, 9, 16, 25], "int32"), [], None, eo)
        call("gradient", V([1.0, 4.0, 9.0, 16.0], "float32"), [0.5], None, eo)
    call("gradient", V([1.0, 2.0], "float64"), [], None, 2)
    call("gradient", fg, [], None, 3)
    call("gradient", fg, [1.0, 2.0], None, 1)
    call("gradient", fg, [V([1.0, 2.0], "float64")], None, 1)
    call("gradient", fg2, [], 2, 1)
    call("gradient", V([True, False, True], "bool"), [], None, 1)
    xp = V([0.0, 1.0, 2.5, 4.0, 4.0, 6.0], "float64")
    fp = V([1.0, 3.0, 2.0, 5.0, 7.0, 0.0], "float64")
    xq = V([-1.0, 0.0, 0.5, 2.5, 3.0, 4.0, 5.0, 6.0, 7.0, NAN], "float64")
    call("interp", xq, xp, fp, None, None, None)
    call("interp", xq, xp, fp, -10.0, 10.0, None)
    call("interp", V([1, 2, 3], "int32"), V([0, 2, 4], "int64"), V([0.0, 1.0, 0.0], "float32"), None, None, None)
    call("interp", V([-3.0, 0.5, 5.5, 361.0], "float64"), V([0.0, 90.0, 180.0, 270.0], "float64"),
         V([0.0, 1.0, 0.0, -1.0], "float64"), None, None, 360.0)
    call("interp", V([0.5, 1.5], "float64"), V([0.0, 1.0, 2.0], "float64"), V([1 + 1j, 2 - 1j, 0j], "complex128"), None,
         None, None)
    call("interp", V([0.5, 2.0, -1.0], "float64"), V([1.0], "float64"), V([3.0], "float64"), None, None, None)
    call("interp", V([0.5, 1.5], "float64", (2, 1)), V([0.0, 1.0, 2.0], "float64"), V([0.0, 10.0, 0.0], "float64"),
         None, None, None)
    call("interp", V([0.5], "float64"), V([0.0, 1.0], "float64"), V([0.0, 1.0, 2.0], "float64"), None, None, None)
    call("interp", V([0.5], "float64"), V([], "float64"), V([], "float64"), None, None, None)
    call("interp", V([0.5], "float64"), V([0.0, 1.0], "float64"), V([0.0, 1.0], "float64"), None, None, 0.0)
    call("interp", V([0.5, 1.0], "float64"), V([0.0, 1.0, INF], "float64"), V([0.0, 1.0, 2.0], "float64"), None, None,
         None)
    ca = V([1.0, 2.0, 3.0, 4.0, 5.0], "float64")
    cv = V([0.5, 1.0, -1.0], "float64")
    for mode in ("full", "same", "valid"):
        call("convolve", ca, cv, Word(mode))
        call("convolve", cv, ca, Word(mode))
        call("correlate", ca, cv, Word(mode))
        call("correlate", cv, ca, Word(mode))
        call("convolve", V([1, 2, 3, 4], "int8"), V([1, -1], "int8"), Word(mode))
        call("correlate", V([1 + 1j, 2, 3j, 4], "complex128"), V([1j, 2 - 1j], "complex128"), Word(mode))
        call("correlate", V([2j, 1], "complex128"), V([1 + 1j, 2, 3j, 4], "complex128"), Word(mode))
        call("convolve", V([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "float32"), V([1.0, 2.0, 3.0, 4.0], "float32"), Word(mode))
        call("correlate", V([True, False, True, False], "bool"), V([True, True], "bool"), Word(mode))
    call("convolve", ca, V([], "float64"), Word("full"))
    call("correlate", V([], "float64"), cv, Word("valid"))
    call("convolve", ca, cv, Word("bogus"))
    call("convolve", A((2, 2), "float64"), cv, Word("full"))
    ph = V([0.0, 1.0, 3.5, 6.5, 1.0, -3.0, 3.2, 0.1], "float64")
    call("unwrap", ph, None, -1, 2 * np.pi)
    call("unwrap", ph, 1.0, -1, 2 * np.pi)
    call("unwrap", ph, None, -1, 4.0)
    call("unwrap", V([0.0, 1.0, 3.5, 6.5, 1.0, -3.0], "float32", (2, 3)), None, 0, 2 * np.pi)
    call("unwrap", V([0, 3, 7, 12, 1], "int64"), None, -1, 6.0)
    call("unwrap", V([0.0, np.pi, 0.0, -np.pi], "float64"), None, -1, 2 * np.pi)
    for x in (V([1.0, 2.0, 3.0, 5.0], "float64"), V([1, 2, 3], "int8"), V([2.0, -1.5], "float32"),
              V([True, False], "bool"), V([1 + 1j, 2], "complex64")):
        call("vander", x, None, 0)
        call("vander", x, 4, 1)
    call("vander", V([1.0, 2.0], "float64"), 0, 0)
    call("vander", A((2, 2), "float64"), None, 0)
    call("vander", V([1.0, 2.0], "float64"), -1, 0)
    px = V([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], "float64")
    py = V([1.0, 1.8, 3.2, 3.9, 5.1, 6.0], "float64")
    call("polyfit", px, py, 1, None)
    call("polyfit", px, py, 3, None)
    call("polyfit", px, V([1.0, 1.8, 3.2, 3.9, 5.1, 6.0, 2.0, 0.0, 1.0, 3.0, 2.0, 2.0], "float64", (6, 2)), 2, None)
    call("polyfit", px, py, 2, V([1.0, 2.0, 1.0, 0.5, 1.0, 3.0], "float64"))
    call("polyfit", V([0, 1, 2, 3], "int64"), V([1, 3, 7, 13], "int64"), 2, None)
    call("polyfit", px, py, -1, None)
    call("polyfit", px, V([1.0, 2.0], "float64"), 1, None)
    call("polyfit", V([], "float64"), V([], "float64"), 1, None)
    for M in (0, 1, 2, 7):
        for beta in (0.0, 5.0, 14.0):
            call("kaiser", M, beta)
    call("i0", V([0.0, 1.0, -2.5, 7.9, 8.0, 8.1, 30.0, 700.0, NAN, INF], "float64"))
    call("i0", V([0.5, 9.0, -12.0], "float32"))
    call("i0", V([1, 2, 10], "int64"))
    call("i0", V([1j], "complex128"))
    # --- partition (the kth elements) ---
    p = V([5.0, 1.0, 4.0, NAN, 2.0, 9.0, -1.0, 3.0], "float64")
    for k in (0, 3, -1, [1, 5]):
        call("partition", p, k, -1)
        call("argpartition", p, k, -1)
    call("partition", V([3, 1, 2, 9, 7, 5], "int32", (2, 3)), 1, 0)
    call("partition", V([3, 1, 2, 9, 7, 5], "int32", (2, 3)), 2, None)
    call("argpartition", V([3, 1, 2, 9, 7, 5], "int32", (2, 3)), 1, 1)
    call("partition", p, 8, -1)
    call("partition", p, -9, -1)
    call("argpartition", A((2, 3)), 3, 1)
    call("partition", A((2, 3)), 0, 2)


if __name__ == "__main__":
    main()
