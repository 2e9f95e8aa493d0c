"""Writes NumPy's answers for the math, logic and difference functions of issue 30 as test data
(tests/unit/api/math_cases.txt), in the format of tools/gen_manipulation_cases.py:
  <fn> <arg> <arg> ... -> <dtype> <shape> <values>
  <fn> <arg> ... -> error <exception>|<message>
Arguments: V<shape>:<dtype>:<values> (an array of those values, C order; floats as repr, so nan,
inf, -0.0), Z<shape>:<dtype>:<re>,<im>,... (a complex array), A<shape>:<dtype>@<k> (arange + 100k),
f<float> (a Python float), i<int> (a Python int), n (None), m<word>, l<ints>, '[' ... ']'.
Complex results are re,im pairs. Functions giving a Python bool give a 0-d bool.
Usage (where NumPy 2 is): python3 tools/gen_math_cases.py > tests/unit/api/math_cases.txt
"""
import warnings

import numpy as np

warnings.simplefilter("ignore")


from gen_manipulation_cases import A, Word, fmt_shape  # noqa: E402 (the tables share tokens)


def fnum(v):
    return repr(float(v))


def fmt_vals(a):  # as gen_manipulation_cases's, with complex values as re,im pairs
    a = np.asarray(a)
    if a.dtype == bool:
        return ",".join("1" if v else "0" for v in a.ravel())
    if a.dtype.kind in "iu":
        return ",".join(str(int(v)) for v in a.ravel())
    if a.dtype.kind == "c":
        return ",".join(fnum(v.real) + "," + fnum(v.imag) for v in a.ravel())
    return ",".join(fnum(v) for v in a.ravel())


class V:
    def __init__(self, values, dtype, shape=None):
        self.values = list(values)
        self.dtype = dtype
        self.shape = tuple(shape) if shape is not None else (len(self.values),)

    def value(self):
        return np.array(self.values, dtype=self.dtype).reshape(self.shape)

    def token(self):
        v = self.value()
        kind = "Z" if v.dtype.kind == "c" else "V"
        return "%s%s:%s:%s" % (kind, fmt_shape(self.shape), self.dtype, fmt_vals(v))


def token(v):
    if isinstance(v, (V, A, Word)):
        return v.token()
    if v is None:
        return "n"
    if isinstance(v, bool):
        return "i%d" % int(v)
    if isinstance(v, int):
        return "i%d" % v
    if isinstance(v, float):
        return "f" + fnum(v)
    if isinstance(v, tuple):
        return "l" + ",".join(str(x) for x in v)
    if isinstance(v, list):
        return "[ " + "".join(token(x) + " " for x in v) + "]"
    raise TypeError(v)


def value(v):
    if isinstance(v, (V, A)):
        return v.value()
    if isinstance(v, Word):
        return v.w
    if isinstance(v, list):
        return [value(x) for x in v]
    return v


def nv(v):  # None means "not given" for the optional arrays of diff
    return np._NoValue if v is None else v


CALLS = {
    "isclose": lambda a, b, rtol, atol, en: np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=bool(en)),
    "allclose": lambda a, b, rtol, atol, en: np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=bool(en)),
    "array_equal": lambda a, b, en: np.array_equal(a, b, equal_nan=bool(en)),
    "array_equiv": lambda a, b: np.array_equiv(a, b),
    "angle": lambda a, deg: np.angle(a, deg=bool(deg)),
    "nan_to_num": lambda a, nan, posinf, neginf: np.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf),
    "asin": np.asin, "acos": np.acos, "atan": np.atan, "asinh": np.asinh, "acosh": np.acosh,
    "atanh": np.atanh, "atan2": np.atan2, "pow": np.pow, "bitwise_invert": np.bitwise_invert,
    "bitwise_left_shift": np.bitwise_left_shift, "bitwise_right_shift": np.bitwise_right_shift,
    "concat": lambda xs, axis: np.concat(xs, axis=axis),
    "permute_dims": lambda a, axes: np.permute_dims(a, tuple(axes)),
    "matrix_transpose": np.matrix_transpose,
    "diff": lambda a, n, axis, pre, app: np.diff(a, n, axis, prepend=nv(pre), append=nv(app)),
    "ediff1d": lambda a, to_end, to_begin: np.ediff1d(a, to_end=to_end, to_begin=to_begin),
    "cross": lambda a, b, axa, axb, axc: np.cross(a, b, axisa=axa, axisb=axb, axisc=axc),
    "trapezoid": lambda y, x, dx, axis: np.trapezoid(y, x, dx=dx, axis=axis),
    "histogram": lambda a, bins, lo, hi, w, density: np.histogram(
        a, bins, range=None if lo is None else (lo, hi), weights=w, density=bool(density)),
    "histogram_bin_edges": lambda a, bins, lo, hi: np.histogram_bin_edges(a, bins, range=None if lo is None else (lo, hi)),
    "digitize": lambda x, bins, right: np.digitize(x, bins, right=bool(right)),
    "cumulative_sum": lambda a, axis, dt, inc: np.cumulative_sum(a, axis=axis, dtype=dt, include_initial=bool(inc)),
    "cumulative_prod": lambda a, axis, dt, inc: np.cumulative_prod(a, axis=axis, dtype=dt, include_initial=bool(inc)),
}


def call(fn, *args, calls=None):  # calls: another table's functions (gen_sets_cases.py)
    vals = [value(a) for a in args]
    line = fn + "".join(" " + token(a) for a in args) + " -> "
    try:
        f = (calls or CALLS).get(fn) or getattr(np, fn)
        r = f(*vals)
        if isinstance(r, (bool, np.bool_)) and fn in ("allclose", "array_equal", "array_equiv"):
            r = np.array(bool(r))
        if isinstance(r, tuple):
            line += "list %d ; " % len(r) + " ; ".join(
                "%s %s %s" % (np.asarray(x).dtype.name, fmt_shape(np.asarray(x).shape), fmt_vals(x)) for x in r)
        else:
            r = np.asarray(r)
            line += "%s %s %s" % (r.dtype.name, fmt_shape(r.shape), fmt_vals(r))
    except Exception as e:  # noqa: BLE001
        name = type(e).__name__
        if name == "AxisError":
            name = "IndexError"
        if name == "UFuncTypeError":  # (a TypeError: loom's DTypeError)
            name = "TypeError"
        if name == "RuntimeError":  # (np.cov's weight shapes: loom's ShapeError)
            name = "ValueError"
        line += "error %s|%s" % (name, str(e).replace("\n", "\\n"))
    print(line)


NAN, INF = float("nan"), float("inf")
SPECIAL = [0.0, -0.0, 1.5, -2.25, 3.0, NAN, INF, -INF]
F64 = V(SPECIAL, "float64")
F32 = V(SPECIAL, "float32")
F16 = V([0.0, -0.0, 1.5, -2.25, NAN, INF], "float16")
I64 = V([0, -3, 7, 100, -128], "int64")
I8 = V([0, -3, 7, 100, -128], "int8")
U8 = V([0, 3, 7, 100, 255], "uint8")
I16 = V([0, -3, 7, 100, -128], "int16")
B = V([True, False, True], "bool")
C128 = V([0j, 1 + 2j, -3.5j, complex(NAN, 0), complex(INF, 1), complex(0, -INF)], "complex128")
C64 = V([0j, 1 + 2j, -3.5j, complex(NAN, 1)], "complex64")


def main():
    print("# NumPy %s: math, logic and differences (tools/gen_math_cases.py)" % np.__version__)
    # --- logic: isclose, allclose, array_equal, array_equiv ---
    a = V([1.0, 1e10, 1e-8, NAN, INF, -INF, 0.0, 1.0], "float64")
    b = V([1.0 + 1e-6, 1.00001e10, 1e-9, NAN, INF, INF, 1e-9, 1.1], "float64")
    for en in (0, 1):
        call("isclose", a, b, 1e-5, 1e-8, en)
        call("allclose", a, b, 1e-5, 1e-8, en)
    call("isclose", V([1.0, 2.0, 3.0], "float32"), V([1.0000001, 2.1, 3.0], "float32"), 1e-5, 1e-8, 0)
    call("isclose", V([1.0, 2.0, 3.0], "float32"), V([1.0, 2.0, 3.0], "float64"), 0.0, 0.0, 0)
    call("isclose", I64, V([0, -3, 8, 100, -128], "int64"), 1e-5, 1e-8, 0)
    call("isclose", I8, 7, 1e-5, 1e-8, 0)
    call("isclose", F32, 1.5, 1e-5, 1e-8, 0)
    call("isclose", V([1.0, 2.0], "float64", (1, 2)), V([1.0, 2.0, 2.0], "float64", (3, 1)), 0.1, 0.0, 0)
    call("isclose", V([1.0, 2.0], "float64"), V([1.0, 2.0, 3.0], "float64"), 1e-5, 1e-8, 0)
    call("isclose", V([5.0, 100.0], "float64"), V([5.5, 90.0], "float64"), 0.1, 0.0, 0)
    call("isclose", V([5.0, 100.0], "float64"), V([5.5, 90.0], "float64"), 0.0, 0.6, 0)
    call("isclose", C128, C128, 1e-5, 1e-8, 1)
    call("isclose", U8, V([1, 3, 6, 100, 254], "uint8"), 0.0, 1.0, 0)
    call("isclose", B, B, 1e-5, 1e-8, 0)
    call("allclose", V([1.0, 2.0], "float64"), V([1.0, 2.0000001], "float32"), 1e-5, 1e-8, 0)
    call("allclose", V([1.0, NAN], "float64"), V([1.0, NAN], "float64"), 1e-5, 1e-8, 0)
    call("allclose", V([], "float64"), V([], "float64"), 1e-5, 1e-8, 0)
    call("allclose", V([1.0, 2.0], "float64"), V([1.0, 2.0, 3.0], "float64"), 1e-5, 1e-8, 0)
    for en in (0, 1):
        call("array_equal", V([1.0, NAN, 3.0], "float64"), V([1.0, NAN, 3.0], "float64"), en)
        call("array_equal", V([1.0, NAN, 3.0], "float64"), V([1.0, 2.0, NAN], "float64"), en)
        call("array_equal", V([1 + 0j, complex(NAN, 0)], "complex128"), V([1 + 0j, complex(0, NAN)], "complex128"), en)
    call("array_equal", I64, V([0, -3, 7, 100, -128], "float32"), 0)
    call("array_equal", I64, V([0, -3, 7, 100], "int64"), 0)
    call("array_equal", A((2, 3)), A((3, 2)), 0)
    call("array_equal", A((2, 3)), A((2, 3), "float64"), 1)
    call("array_equal", V([], "float64"), V([], "int8"), 0)
    call("array_equiv", V([1, 2], "int64"), V([1, 2, 1, 2], "int64", (2, 2)))
    call("array_equiv", V([1, 2], "int64"), V([1, 2, 1, 3], "int64", (2, 2)))
    call("array_equiv", V([1, 2], "int64"), V([1, 2, 3], "int64"))
    call("array_equiv", V([1.0], "float64"), V([1, 1, 1], "int8"))
    # --- elementwise compositions ---
    for fn in ("radians", "degrees", "deg2rad", "rad2deg", "fabs", "sinc", "fix", "signbit", "isreal",
               "iscomplex", "isneginf", "isposinf", "real_if_close"):
        for x in (F64, F32, F16, I64, I8, U8, I16, B, C128, C64):
            call(fn, x)
    call("real_if_close", V([1 + 1e-15j, 2 - 1e-15j], "complex128"))
    call("real_if_close", V([1 + 1e-5j, 2 + 0j], "complex128"))
    call("real_if_close", V([1 + 1e-8j, 2 + 0j], "complex64"))
    for x in (F64, F32, I64, I8, B, C128, C64):
        for deg in (0, 1):
            call("angle", x, deg)
    for x in (F64, F32, F16, I64, I8, B, C128, C64):
        call("nan_to_num", x, 0.0, None, None)
    call("nan_to_num", F64, -1.0, 1e10, -1e10)
    call("nan_to_num", F32, 5.0, 1e300, None)
    call("nan_to_num", C128, 7.0, 9.0, -9.0)
    call("nan_to_num", V([NAN, INF, -INF], "float64", (3, 1)), 0.5, None, -2.0)
    h0 = V([0.5, 0.5, 1.0, 1.0, 0.5, 2.0, 0.5, 0.5], "float64")
    for fn in ("heaviside", "logaddexp", "logaddexp2", "float_power"):
        call(fn, F64, h0)
        call(fn, F32, V([0.5, 0.25, 1.0, 2.0, -1.0, 0.0, INF, -INF], "float32"))
        call(fn, F32, 0.5)
        call(fn, I64, V([1, 2, 3, 0, 1], "int64"))
        call(fn, I8, V([1, 2, 3, 0, 1], "int8"))
        call(fn, I8, 2)
        call(fn, U8, V([1, 2, 3, 0, 1], "int16"))
        call(fn, B, B)
        call(fn, F16, V([1.0, 1.0, 2.0, 0.5, 1.0, 1.0], "float16"))
        call(fn, C128, C128)
        call(fn, V([1.0, 2.0], "float64", (2, 1)), V([0.0, 3.0, -1.0], "float64"))
    call("logaddexp", V([1e300, -1e300, INF, -INF, INF, 0.0], "float64"),
         V([1e300, -1e300, INF, -INF, -INF, NAN], "float64"))
    call("logaddexp2", V([1e300, -1e300, INF, -INF, INF, 0.0], "float64"),
         V([1e300, -1e300, INF, -INF, -INF, NAN], "float64"))
    # --- floating-point parts and neighbours, gcd and lcm ---
    for x in (F64, F32, F16, I8, U8, I16, B, V([5e-324, -1e-310, 1e308, 0.1, -7.5], "float64"),
              V([1e-45, 3.4e38, -0.1], "float32"), V([6e-08, 65504.0, -0.1], "float16")):
        for fn in ("spacing", "modf", "frexp"):
            call(fn, x)
    for fn in ("spacing", "modf", "frexp"):
        call(fn, C128)
    for a, b in ((F64, V([1.0, -1.0, 2.0, -3.0, INF, 0.0, -INF, 1.0], "float64")),
                 (F32, V([1.0, -1.0, 2.0, -3.0, INF, 0.0, -INF, 1.0], "float32")),
                 (F16, V([1.0, -1.0, 2.0, -3.0, 0.0, -INF], "float16")),
                 (V([0.0, -0.0, 1.0, 65504.0, 6e-08, -6e-08, 2.0, 0.5], "float16"),
                  V([-1.0, 1.0, 0.0, INF, 0.0, 0.0, 1.0, 1.0], "float16")),
                 (V([1.0, 2.0, 1e-45, 0.0], "float32"), 0.0), (I8, V([1, 2, 3, 0, 1], "int8"))):
        call("nextafter", a, b)
    call("nextafter", C128, C128)
    for a, b in ((V([7.5, -7.5, 7.5, -7.5, 1.0, INF, 0.0, NAN], "float64"),
                  V([2.0, 2.0, -2.0, -2.0, 0.0, 1.0, 3.0, 1.0], "float64")),
                 (V([7.5, -7.5, 3.25], "float32"), 2.0), (V([7, -7, 7, -7, 5, -128], "int8"), V([3, 3, -3, -3, 0, -1], "int8")),
                 (V([7, 200, 5], "uint8"), V([3, 7, 0], "uint8")), (V([True, False], "bool"), V([True, True], "bool")),
                 (V([7.5, -2.5], "float16"), V([2.0, 2.0], "float16"))):
        call("fmod", a, b)
    call("fmod", C128, C128)
    for m, e in ((V([1.0, -1.5, 0.75, 5e-324, 1e308, 3.0, 0.0, INF, NAN], "float64"),
                  V([3, -2, 10, 1074, -1100, 1030, 5, 2, 1], "int64")),
                 (V([1.0, 1.5, 1e-45], "float32"), V([127, -149, 170], "int32")),
                 (V([1.0, 1.5, 6e-08], "float16"), V([15, -25, 20], "int16")), (A((3,), "int8"), V([1, 2, 3], "int8")),
                 (V([1.0, 2.0], "float64"), V([0.5, 1.0], "float64")), (V([1.0, 2.0], "float64"), 3)):
        call("ldexp", m, e)
    for fn in ("gcd", "lcm"):
        call(fn, V([12, -18, 0, 7, -128, 100, 0], "int8"), V([18, 12, 5, 0, 64, 75, 0], "int8"))
        call(fn, V([12, 18, 255], "uint8"), V([8, 27, 15], "uint8"))
        call(fn, V([2 ** 40, 6, -9], "int64"), V([2 ** 20 * 3, 4, 6], "int64"))
        call(fn, V([12, 18], "int16"), 8)
        call(fn, V([True, False], "bool"), V([True, True], "bool"))
        call(fn, F64, F64)
    # --- the Array API spellings ---
    u = V([-0.5, 0.0, 0.25, 0.9], "float64")
    for fn in ("asin", "acos", "atan", "asinh", "atanh"):
        call(fn, u)
        call(fn, V([-0.5, 0.0, 0.25, 0.9], "float32"))
    call("acosh", V([1.0, 1.5, 10.0], "float64"))
    call("atan2", u, V([1.0, -1.0, 0.0, -0.0], "float64"))
    call("atan2", I8, 2)
    call("atan2", 2, U8)
    call("atan2", I16, V([1, 2, 3, 0, 1], "int8"))
    call("pow", V([2.0, 3.0, 0.5], "float32"), V([3.0, 0.5, -2.0], "float32"))
    call("pow", I64, 2)
    call("bitwise_invert", I8)
    call("bitwise_invert", B)
    call("bitwise_left_shift", I64, V([1, 2, 3, 0, 1], "int64"))
    call("bitwise_right_shift", U8, V([1, 2, 3, 0, 1], "uint8"))
    call("concat", [A((2, 3)), A((1, 3), "int64", 1)], 0)
    call("concat", [A((2, 3)), A((2, 2), "float32", 1)], 1)
    call("concat", [A((2, 3)), A((2,), "int64", 1)], None)
    call("permute_dims", A((2, 3, 4)), (2, 0, 1))
    call("permute_dims", A((2, 3)), (0, 0))
    call("matrix_transpose", A((2, 3, 4)))
    call("matrix_transpose", A((3,)))
    # --- differences, cross products, integrals, cumulative sums ---
    for x in (A((6,)), V([1.0, 4.0, 9.0, NAN, 2.0], "float64"), V([1, 0, 0, 1, 1], "bool"),
              V([1, 200, 3, 255], "uint8"), V([1.0, 2.5, -1.0], "float32")):
        call("diff", x, 1, -1, None, None)
    call("diff", A((3, 4)), 1, 0, None, None)
    call("diff", A((3, 4)), 2, 1, None, None)
    call("diff", A((3, 4)), 3, 0, None, None)
    call("diff", A((3, 4)), 0, 1, None, None)
    call("diff", A((3, 4)), 1, -1, 0, None)
    call("diff", A((3, 4)), 1, 0, None, 5.5)
    call("diff", A((3, 4)), 1, 1, A((3, 2), "int8", 1), A((3, 1), "float32", 2))
    call("diff", A((3, 4)), 1, 0, A((4,), "int64", 1), None)
    call("diff", A((3, 4)), -1, 0, None, None)
    call("diff", V([1.0], "float64", ()), 1, -1, None, None)
    call("diff", A((3, 4)), 1, 2, None, None)
    call("diff", V([True, False], "bool"), 2, -1, None, None)
    call("ediff1d", A((2, 3)), None, None)
    call("ediff1d", V([1.0, 4.0, 9.0], "float32"), V([10.0, 20.0], "float64"), -1)
    call("ediff1d", V([1, 4, 9], "int8"), 300, None)
    call("ediff1d", V([1, 4, 9], "int8"), 1.5, None)
    call("ediff1d", V([5], "int64"), None, V([1, 2], "int64"))
    call("ediff1d", V([True, False], "bool"), None, None)
    x3 = V([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "float64", (2, 3))
    y3 = V([-1.0, 0.5, 2.0, 7.0, 8.0, -9.0], "float64", (2, 3))
    call("cross", x3, y3, -1, -1, -1)
    call("cross", A((3,), "int64"), A((3,), "int64", 1), -1, -1, -1)
    call("cross", A((3, 2)), A((3, 2), "int64", 1), 0, 0, 0)
    call("cross", A((3, 2)), A((2, 3), "float32", 1), 0, -1, -1)
    call("cross", x3, V([1.0, 2.0, 3.0], "float32"), -1, -1, 0)
    call("cross", V([1.0, 2.0], "float64"), V([3.0, 4.0], "float64"), -1, -1, -1)
    call("cross", V([1.0, 2.0], "float64"), V([3.0, 4.0, 5.0], "float64"), -1, -1, -1)
    call("cross", V([1.0, 2.0, 3.0], "float64"), V([3.0, 4.0], "float64"), -1, -1, -1)
    call("cross", A((4,)), A((3,)), -1, -1, -1)
    call("cross", A((3,)), A((3,)), -1, -1, 2)
    call("cross", V([1.0], "float64", ()), A((3,)), -1, -1, -1)
    call("trapezoid", V([1.0, 2.0, 4.0, 7.0], "float64"), None, 1.0, -1)
    call("trapezoid", A((3, 4)), None, 0.5, 0)
    call("trapezoid", A((3, 4), "float32"), None, 2.0, -1)
    call("trapezoid", V([1.0, 2.0, 4.0], "float64"), V([0.0, 1.0, 3.0], "float64"), 1.0, -1)
    call("trapezoid", A((3, 4)), V([0.0, 1.0, 3.0, 3.5], "float64"), 1.0, 1)
    call("trapezoid", A((3, 4)), A((3, 4), "float64", 1), 1.0, 0)
    call("trapezoid", V([True, False, True], "bool"), None, 1.0, -1)
    # --- windows and polynomials ---
    for M in (0, 1, 2, 5, 12):
        for fn in ("bartlett", "blackman", "hamming", "hanning"):
            call(fn, M)
    call("polyval", V([3.0, 0.0, 1.0], "float64"), V([5.0, -1.0, 0.5], "float64"))
    call("polyval", V([1, 2, 3], "int64"), V([2, -1], "int8"))
    call("polyval", V([1.5, -2.0], "float32"), 2)
    call("polyval", V([1, 2, 3], "int64"), 2.5)
    call("polyval", V([2.0, 1.0], "float64"), A((2, 3), "float32"))
    call("polyval", V([], "float64"), V([1.0, 2.0], "float32"))
    call("polyder", V([1, 2, 3, 4], "int64"), 1)
    call("polyder", V([1.0, 2.0, 3.0, 4.0], "float32"), 2)
    call("polyder", V([1, 2, 3, 4], "int64"), 5)
    call("polyder", V([1, 2, 3, 4], "int64"), 0)
    call("polyder", V([1, 2], "int64"), -1)
    call("polyint", V([1, 2, 3], "int64"), 1, 0.0)
    call("polyint", V([3.0, 2.0], "float32"), 2, 0.0)
    call("polyint", V([1, 2, 3], "int64"), 0, 0.0)
    call("polyint", V([6.0, 2.0], "float64"), 1, 4.0)
    call("polyint", V([1, 2], "int64"), -1, 0.0)
    # --- histograms and bins ---
    h = V([0.5, 1.0, 1.25, 2.0, 2.5, 3.0, 3.75, 4.0, 0.0, 4.0], "float64")
    h32 = V([0.5, 1.0, 1.25, 2.0, 2.5, 3.0, 3.75, 4.0, 0.0, 4.0], "float32")
    grid = V(list(np.linspace(0.0, 1.0, 101)), "float64")
    call("histogram", h, 4, None, None, None, 0)
    call("histogram", h, 3, 1.0, 3.0, None, 0)
    call("histogram", h32, 5, None, None, None, 0)
    call("histogram", h32, 7, 0.25, 3.5, None, 0)
    call("histogram", A((3, 4)), 5, None, None, None, 0)
    call("histogram", A((3, 4)), 4, 0.0, 12.0, A((3, 4), "float32", 1), 0)
    call("histogram", h, 4, None, None, V([1.0] * 5 + [2.0] * 5, "float64"), 0)
    call("histogram", h, 4, None, None, None, 1)
    call("histogram", A((3, 4), "int8"), 6, None, None, None, 1)
    call("histogram", grid, 10, None, None, None, 0)
    call("histogram", grid, 7, None, None, None, 0)
    call("histogram", V([(k * 37) % 1000 for k in range(1000)], "int64"), 7, None, None, None, 0)
    call("histogram", V([(k * 0.37) % 10 for k in range(500)], "float32"), 13, None, None, None, 0)
    call("histogram", h, V([0.0, 1.0, 2.5, 4.0], "float64"), None, None, None, 0)
    call("histogram", h, V([0.0, 1.0, 1.0, 4.0], "float64"), None, None, None, 0)
    call("histogram", h, V([1, 2, 3], "int64"), None, None, V([0.5] * 10, "float32"), 0)
    call("histogram", h, V([0.0, 1.0, 2.5, 4.0], "float64"), None, None, None, 1)
    call("histogram", V([1.0, NAN, 2.0], "float64"), 3, 0.0, 3.0, None, 0)
    call("histogram", V([2.0, 2.0], "float64"), 4, None, None, None, 0)
    call("histogram", V([], "float64"), 3, None, None, None, 0)
    call("histogram", h, V([3.0, 1.0], "float64"), None, None, None, 0)
    call("histogram", h, 0, None, None, None, 0)
    call("histogram", V([1.0, NAN], "float64"), 3, None, None, None, 0)
    call("histogram", h, 4, 3.0, 1.0, None, 0)
    call("histogram", h, 4, 0.0, INF, None, 0)
    call("histogram", h, 4, None, None, V([1.0, 2.0], "float64"), 0)
    call("histogram_bin_edges", h, 4, None, None)
    call("histogram_bin_edges", h32, 3, 1.0, 3.0)
    call("histogram_bin_edges", A((3, 4)), 5, None, None)
    x = V([0.2, 6.4, 3.0, 1.6, -1.0, 10.0, 2.5], "float64")
    for right in (0, 1):
        call("digitize", x, V([0.0, 1.0, 2.5, 4.0, 10.0], "float64"), right)
        call("digitize", x, V([10.0, 4.0, 2.5, 1.0, 0.0], "float64"), right)
        call("digitize", V([0, 3, 7, -2], "int64"), V([0, 3, 3, 8], "int8"), right)
    call("digitize", x, V([1.0, 3.0, 2.0], "float64"), 0)
    call("digitize", x, V([2.0], "float64"), 0)
    call("digitize", C128, V([0.0, 1.0], "float64"), 0)
    for fn in ("cumulative_sum", "cumulative_prod"):
        call(fn, V([1, 2, 3, 4], "int8"), None, None, 0)
        call(fn, V([1, 2, 3, 4], "int8"), None, None, 1)
        call(fn, V([1, 2, 3, 4], "uint16"), 0, None, 0)
        call(fn, V([True, True, False], "bool"), None, None, 0)
        call(fn, V([1.5, 2.0, -1.0], "float32"), None, Word("float64"), 1)
        call(fn, A((2, 3)), 1, None, 1)
        call(fn, A((2, 3), "float64"), 0, None, 1)
        call(fn, A((2, 3)), None, None, 0)
        call(fn, V([5.0], "float64", ()), None, None, 1)
        call(fn, A((2, 3)), 2, None, 0)


if __name__ == "__main__":
    main()
