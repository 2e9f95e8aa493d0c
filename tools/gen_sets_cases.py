"""Writes NumPy's answers for the set functions (include/loom/sets.hpp) as test data
(tests/unit/api/sets_cases.txt), in the format of tools/gen_math_cases.py:
  <fn> <arg> <arg> ... -> <dtype> <shape> <values>
  <fn> <arg> ... -> list <count> ; <dtype> <shape> <values> ; ...
  <fn> <arg> ... -> error <exception>|<message>
Arguments are gen_math_cases's tokens (V/Z arrays, A aranges, i ints and bools, n None, m words).
unique's arguments: a return_index return_inverse return_counts axis equal_nan sorted.
Where NumPy 2 may give the unique values in hash order (unique_values, and unique with
sorted=False and nothing else asked), the table holds them sorted: loom always sorts.
Inverses without return_index use NumPy's unstable argsort, so those cases hold at most one NaN
(the order of several NaNs among themselves would be NumPy's sorting kernel's choice).
Under NumPy 1.x (to try the script only) NumPy 2's rules are emulated: the Array API functions,
inverses of the input's shape, a 1-D array with an axis taken as flat.
Usage (NumPy 2.x): python3 tools/gen_sets_cases.py > tests/unit/api/sets_cases.txt
"""
import os
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
NUMPY2 = int(np.__version__.split(".")[0]) >= 2
HAS_SORTED = NUMPY2 and tuple(int(x) for x in np.__version__.split(".")[:2]) >= (2, 3)
if not NUMPY2:  # gen_math_cases names NumPy 2's functions when imported (for trying this script only)
    for missing in ("asin", "acos", "atan", "asinh", "acosh", "atanh", "atan2", "pow", "bitwise_invert",
                    "bitwise_left_shift", "bitwise_right_shift", "matrix_transpose"):
        setattr(np, missing, None)

from gen_math_cases import V  # noqa: E402 (the tables share tokens and the line writer)
from gen_math_cases import call as math_call  # noqa: E402
from gen_manipulation_cases import Word  # noqa: E402


def np_unique(a, ri, rinv, rc, axis, en, srt):
    kw = dict(return_index=bool(ri), return_inverse=bool(rinv), return_counts=bool(rc), axis=axis,
              equal_nan=bool(en))
    if HAS_SORTED:
        kw["sorted"] = bool(srt)
    if NUMPY2:
        r = np.unique(a, **kw)
    else:  # NumPy 1.x, for trying this script only: NumPy 2's rules on top (never for the table)
        a = np.asarray(a)
        if axis is not None and a.ndim == 1:
            if not -1 <= axis < 1:
                raise np.AxisError(axis, 1)
            kw["axis"] = None
        r = np.unique(a, **kw)
        if rinv and kw["axis"] is None:
            r = list(r)
            r[1 + bool(ri)] = r[1 + bool(ri)].reshape(a.shape)
            r = tuple(r)
    if not (ri or rinv or rc) and not srt:
        r = np.sort(r)
    return r


def array_api(fn, x):
    if NUMPY2:
        r = getattr(np, fn)(x)
        return np.sort(r) if fn == "unique_values" else tuple(r) if isinstance(r, tuple) else r
    flags = {"unique_all": (1, 1, 1), "unique_counts": (0, 0, 1), "unique_inverse": (0, 1, 0),
             "unique_values": (0, 0, 0)}[fn]
    return np_unique(x, *flags, None, 0, 1)


CALLS = {
    "unique": np_unique,
    "unique_all": lambda x: array_api("unique_all", x),
    "unique_counts": lambda x: array_api("unique_counts", x),
    "unique_inverse": lambda x: array_api("unique_inverse", x),
    "unique_values": lambda x: array_api("unique_values", x),
    "isin": lambda e, t, au, inv, kind: np.isin(e, t, assume_unique=bool(au), invert=bool(inv), kind=kind),
    "intersect1d": lambda a, b, au, ri: np.intersect1d(a, b, assume_unique=bool(au), return_indices=bool(ri)),
    "union1d": np.union1d,
    "setdiff1d": lambda a, b, au: np.setdiff1d(a, b, assume_unique=bool(au)),
    "setxor1d": lambda a, b, au: np.setxor1d(a, b, assume_unique=bool(au)),
}


def call(fn, *args):
    math_call(fn, *args, calls=CALLS)


NAN, INF = float("nan"), float("inf")
FLOATS = [3.0, -0.0, NAN, 1.5, 0.0, INF, 3.0, -INF, NAN, 1.5, NAN]
ONE_NAN = [3.0, -0.0, 1.5, 0.0, INF, 3.0, -INF, NAN, 1.5, 2.0]
INTS = [5, -3, 7, 5, 0, -3, 100, 7, 5, -128]
UINTS = [5, 3, 7, 5, 0, 3, 200, 7, 5, 255]
F64, F32 = V(FLOATS, "float64"), V(FLOATS, "float32")
F64_1, F32_1 = V(ONE_NAN, "float64"), V(ONE_NAN, "float32")
F16 = V([1.5, -0.0, NAN, 0.0, 1.5, INF], "float16")
I8, I16, I32, I64 = (V(INTS, t) for t in ("int8", "int16", "int32", "int64"))
U8, U64 = V(UINTS, "uint8"), V(UINTS, "uint64")
B = V([True, False, True, True], "bool")
C128 = V([1 + 2j, complex(NAN, 1), 1 + 2j, complex(1, NAN), -1j, complex(NAN, NAN), -0j, complex(NAN, 1)],
         "complex128")
C128_1 = V([1 + 2j, 1 + 2j, complex(1, NAN), -1j, -0j, 3 + 0j], "complex128")
EMPTY = V([], "float64")
EMPTY_I = V([], "int32")
FLAGS = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1)]


def unique_cases():
    for x in (I8, I16, I32, I64, U8, U64, B, F64_1, F32_1, C128_1):
        for f in FLAGS:
            call("unique", x, *f, None, 1, 1)
    for x in (F64, F32, F16, C128):  # several NaNs: inverses only beside the (stable) index
        for f in ((0, 0, 0), (1, 0, 0), (0, 0, 1), (1, 1, 1)):
            for en in (1, 0):
                # (NumPy 2.3+'s hash path for complex values alone keeps the first NaN of the
                # input as the NaN; its sort path, and loom, the smallest, as NumPy's docs say.)
                if not (x is C128 and f == (0, 0, 0) and en == 1):
                    call("unique", x, *f, None, en, 1)
    for x in (F64_1, C128_1):
        call("unique", x, 0, 1, 0, None, 0, 1)
    call("unique", F64, 0, 0, 0, None, 1, 0)
    call("unique", I32, 0, 0, 0, None, 1, 0)
    call("unique", F64, 0, 0, 1, None, 0, 0)
    m = V([2, 1, 2, 0, 1, 2, 2, 1, 0, 5, 1, 2], "int64", (3, 4))
    call("unique", m, 1, 1, 1, None, 1, 1)
    call("unique", V([7], "int16", ()), 1, 1, 1, None, 1, 1)
    for x in (EMPTY, EMPTY_I, V([], "float32", (2, 0))):
        call("unique", x, 1, 1, 1, None, 1, 1)
        call("unique", x, 0, 0, 0, None, 0, 1)
    # along an axis: slices sorted lexicographically
    rows = V([1, 0, 0, 1, 0, 0, 2, 3, 4, 0, 9, 9, 1, 0, 0, 2, 3, 3], "int64", (6, 3))
    for axis in (0, 1, -1, -2):
        call("unique", rows, 1, 1, 1, axis, 1, 1)
    call("unique", rows, 0, 0, 0, 0, 1, 1)
    call("unique", V([1, 0, 0, 1, 0, 0, 2, 3, 4, 0, 9, 9, 1, 0, 0, 2, 3, 3], "int8", (6, 3)), 1, 1, 1, 0, 1, 1)
    call("unique", V([1, 0, 0, 1, 0, 0, 2, 3, 4, 0, 9, 9, 1, 0, 0, 2, 3, 3], "uint16", (3, 6)), 1, 1, 1, 1, 1, 1)
    cube = V([k % 3 for k in range(24)], "int32", (2, 4, 3))
    for axis in (0, 1, 2):
        call("unique", cube, 1, 1, 1, axis, 1, 1)
    frows = V([1.0, NAN, 1.0, NAN, -0.0, 2.0, 0.0, 2.0, INF, 1.0, 1.0, -INF, 1.0, NAN], "float64", (7, 2))
    for en in (1, 0):
        call("unique", frows, 1, 1, 1, 0, en, 1)
    call("unique", V([1.0, NAN, 1.0, NAN, -0.0, 2.0, 0.0, 2.0], "float32", (4, 2)), 1, 1, 1, 0, 1, 1)
    call("unique", V([True, False, True, False, False, True, True, False], "bool", (4, 2)), 1, 1, 1, 0, 1, 1)
    call("unique", V([1 + 1j, 2j, 1 + 1j, 2j, 1 - 1j, 0j], "complex128", (3, 2)), 1, 1, 1, 0, 1, 1)
    call("unique", V([1.0, NAN, NAN, 1.0, 0.0], "float64"), 1, 1, 1, 0, 1, 1)
    call("unique", V([1.0, NAN, 2.0, 1.0, NAN], "float64"), 1, 0, 1, 0, 0, 1)
    call("unique", V([], "int64", (0, 3)), 1, 1, 1, 0, 1, 1)
    call("unique", V([], "int64", (0, 3)), 1, 1, 1, 1, 1, 1)
    call("unique", V([], "int64", (2, 0)), 1, 1, 1, 0, 1, 1)
    call("unique", V([], "int64", (2, 0)), 1, 1, 1, 1, 1, 1)
    # errors
    call("unique", rows, 0, 0, 0, 2, 1, 1)
    call("unique", rows, 0, 0, 0, -3, 1, 1)
    call("unique", I64, 0, 0, 0, 1, 1, 1)
    call("unique", V([7], "int16", ()), 0, 0, 0, 0, 1, 1)


def array_api_cases():
    m = V([2, 1, 2, 0, 1, 2, 2, 1, 0, 5, 1, 2], "int64", (3, 4))
    for fn in ("unique_all", "unique_counts", "unique_inverse", "unique_values"):
        for x in (I32, U8, B, F32_1, C128_1, m, V([7], "int16", ()), EMPTY):
            call(fn, x)
    for fn in ("unique_all", "unique_counts", "unique_values"):
        for x in (F64, F32, C128, V([NAN, 1.0, NAN, NAN, 1.0, NAN], "float64", (2, 3))):
            call(fn, x)


def isin_cases():
    tests_i = V([7, 0, 5, 300, -3, 7], "int64")
    for inv in (0, 1):
        for x in (I8, I16, I32, I64, U8, U64):
            call("isin", x, tests_i, 0, inv, None)
        call("isin", F64, V([NAN, 0.0, INF, 2.0, 1.5], "float64"), 0, inv, None)
        call("isin", F32, V([NAN, -0.0, -INF, 3.0], "float64"), 0, inv, None)
        call("isin", F16, V([1.5, 0.0], "float32"), 0, inv, None)
        call("isin", B, V([False], "bool"), 0, inv, None)
        call("isin", B, V([1, 2], "int8"), 0, inv, None)
        call("isin", C128, V([1 + 2j, -0j, complex(NAN, 1)], "complex128"), 0, inv, None)
        call("isin", I32, V([5.0, 0.5, -3.0], "float32"), 0, inv, None)
        call("isin", V([2, 1, 2, 0, 1, 2, 2, 1, 0, 5, 1, 2], "int64", (3, 4)), V([1, 5], "int32", (2, 1)), 0, inv, None)
        call("isin", V([7], "int16", ()), tests_i, 0, inv, None)
        call("isin", I64, EMPTY_I, 0, inv, None)
        call("isin", F64, EMPTY, 0, inv, None)
        call("isin", EMPTY, tests_i, 0, inv, None)
    call("isin", 5, tests_i, 0, 0, None)
    call("isin", 2.5, V([2.5, 1.0], "float32"), 0, 0, None)
    call("isin", I32, V([7, 0, 5], "int64"), 1, 0, None)
    call("isin", I32, V([7, 0, 5], "int64"), 1, 1, Word("sort"))
    call("isin", I32, tests_i, 0, 0, Word("sort"))
    call("isin", I32, tests_i, 0, 0, Word("table"))
    call("isin", B, V([True], "bool"), 0, 1, Word("table"))
    call("isin", F64, tests_i, 0, 0, Word("sort"))
    call("isin", F64, tests_i, 0, 0, Word("table"))
    call("isin", I32, V([1.0], "float32"), 0, 0, Word("table"))
    call("isin", I32, tests_i, 0, 0, Word("hash"))


def pair_cases():
    a_i = V([5, 1, 3, 5, 9, 1, -2], "int64")
    b_i = V([3, 7, 1, 1, 8, 3], "int64")
    a_f = V([1.5, NAN, -0.0, 2.0, NAN, INF, 1.5], "float64")
    b_f = V([0.0, NAN, 2.0, -INF, 3.0], "float64")
    pairs = [
        (a_i, b_i), (a_f, b_f), (V([5, 1, 3, 5], "int32"), V([3.0, 1.5, 5.0], "float32")),
        (V([5, 1, 3, 100], "int8"), V([200, 3, 1], "uint8")), (V([-1, 5, 3], "int64"), V([3, 5, 1], "uint64")),
        (B, V([True], "bool")), (V([2, 1, 2, 0, 1, 2], "int64", (2, 3)), V([0, 2, 7, 0], "int16", (2, 2))),
        (V([1.5, 2.0, 3.0], "float32"), V([2.0, 1.5], "float16")),
        (V([1 + 2j, -1j, complex(NAN, 1), 3 + 0j], "complex128"), V([3 + 0j, -1j, complex(NAN, 1)], "complex128")),
        (a_i, EMPTY_I), (EMPTY, a_f), (EMPTY, EMPTY_I), (V([7], "int64", ()), V([7, 8], "int64")),
    ]
    for a, b in pairs:
        for ri in (0, 1):
            call("intersect1d", a, b, 0, ri)
        call("union1d", a, b)
        call("setdiff1d", a, b, 0)
        call("setdiff1d", b, a, 0)
        call("setxor1d", a, b, 0)
    ua, ub = V([5, 1, 3, 9, -2], "int64"), V([3, 7, 1, 8], "int64")
    uf, vf = V([1.5, NAN, 2.0, INF], "float64"), V([NAN, 2.0, -INF, 0.0], "float64")
    for a, b in ((ua, ub), (uf, vf), (V([5, 1, 3], "int16", (3, 1)), V([3, 7], "int8"))):
        for ri in (0, 1):
            call("intersect1d", a, b, 1, ri)
        call("setdiff1d", a, b, 1)
        call("setxor1d", a, b, 1)
    call("setdiff1d", V([9, 2, 7, 2], "int64"), V([2, 2], "int64"), 1)


def main():
    print("# NumPy %s: set functions (tools/gen_sets_cases.py)" % np.__version__)
    unique_cases()
    array_api_cases()
    isin_cases()
    pair_cases()


if __name__ == "__main__":
    main()
