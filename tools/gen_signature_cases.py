"""Writes NumPy's answers for the signatures of issue 30, item 7 (loom functions taking NumPy's
arguments: repeat with counts, pad with a pair and per-side constants, tile with an int, delete
and insert with arrays, take_along_axis with axis None, choose's modes, copyto's casting, block
of any depth, where= and initial= on the reductions) as test data
(tests/unit/api/signature_cases.txt), in the format of tools/gen_math_cases.py:
  <fn> <arg> <arg> ... -> <dtype> <shape> <values>
  <fn> <arg> ... -> error <exception>|<message>
Arguments are gen_math_cases's tokens (V/Z arrays, A aranges, i ints, f floats, n None, m words,
l int lists, '[' ... ']' lists, nested for block) and gen_manipulation_cases's p pairs.
Calls that differ from NumPy's spelling only in how loom is called:
  repeat_device a counts axis        np.repeat with the counts as an array (loom: a device array)
  pad_pair a p<b>,<f> mode           np.pad(a, (b, f), mode): one pair for every axis
  pad a p<widths> mode p<values>     constant_values / end_values, (before, after) per axis
  <reduction> a axis keepdims where initial [ddof]   np.<reduction>(a, axis, keepdims=, where=,
                                     initial=); n: the keyword not given
  copyto dst src m<casting> where    np.copyto; the result is dst
Usage (where NumPy 2 is): python3 tools/gen_signature_cases.py > tests/unit/api/signature_cases.txt
"""
import os
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gen_math_cases as gm  # noqa: E402 (the tables share tokens and the line writer)
from gen_manipulation_cases import A, Pads, Word  # noqa: E402
from gen_math_cases import V  # noqa: E402


def token(v):
    return v.token() if isinstance(v, Pads) else gm.token(v)


def value(v):
    if isinstance(v, Pads):
        return [tuple(p) for p in v.pairs]
    if isinstance(v, list):
        return [value(x) for x in v]
    if isinstance(v, tuple):
        return list(v)
    return gm.value(v)


def axis_of(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def reduction(fn):
    def run(a, axis, keepdims, where, initial, *ddof):
        kw = {"axis": axis_of(axis), "keepdims": bool(keepdims)}
        if where is not None:
            kw["where"] = where
        if initial is not None:
            kw["initial"] = initial
        if ddof:
            kw["ddof"] = ddof[0]
        return getattr(np, fn)(a, **kw)
    return run


def copyto(dst, src, casting, where):
    out = dst.copy()
    np.copyto(out, src, casting=casting, where=True if where is None else where)
    return out


CALLS = {
    "repeat": lambda a, r, axis: np.repeat(a, r, axis),
    "repeat_device": lambda a, r, axis: np.repeat(a, r, axis),
    "pad_pair": lambda a, w, mode: np.pad(a, w[0], mode=mode),
    "pad": lambda a, w, mode, x: np.pad(a, w, mode=mode, **(
        {"constant_values": x} if mode == "constant" else {"end_values": x})),
    "tile": np.tile,
    "delete": lambda a, obj, axis: np.delete(a, obj, axis),
    "insert": lambda a, obj, v, axis: np.insert(a, obj, v, axis),
    "take_along_axis": lambda a, i, axis: np.take_along_axis(a, i, axis=axis),
    "choose": lambda a, cs, mode: np.choose(a, cs, mode=mode),
    "copyto": copyto,
    "block": np.block,
}
for _fn in ("sum", "prod", "nansum", "max", "min", "mean", "nanmean", "var", "std", "any", "all",
            "count_nonzero"):
    CALLS[_fn] = reduction(_fn)
CALLS["count_nonzero"] = lambda a, axis, keepdims, where, initial: np.count_nonzero(
    a, axis=axis_of(axis), keepdims=bool(keepdims), **({} if where is None else {"where": where}))


def call(fn, *args):
    vals = [value(a) for a in args]
    line = fn + "".join(" " + token(a) for a in args) + " -> "
    try:
        r = np.asarray(CALLS[fn](*vals))
        line += "%s %s %s" % (r.dtype.name, gm.fmt_shape(r.shape), gm.fmt_vals(r))
    except Exception as e:  # noqa: BLE001
        name = type(e).__name__
        if name == "AxisError":
            name = "IndexError"
        line += "error %s|%s" % (name, str(e).split("\n")[0])
    print(line)


def B(values, shape=None):
    return V([bool(v) for v in values], "bool", shape)


def main():
    print("# NumPy %s: NumPy's signatures (tools/gen_signature_cases.py)" % np.__version__)
    i64, f32, f64, i8, u8 = "int64", "float32", "float64", "int8", "uint8"
    # 1. repeat with a count per element, from the host and from the device
    for fn in ("repeat", "repeat_device"):
        call(fn, A((3,)), (1, 0, 2), None)
        call(fn, A((2, 3), f32), (2, 1), 0)
        call(fn, A((2, 3), i8), (0, 3, 1), 1)
        call(fn, A((2, 2)), (1, 2, 0, 1), None)
        call(fn, A((2, 3)), (3,), 1)
        call(fn, A((3,)), (1, 2), None)
        call(fn, A((3,)), (1, -1, 2), None)
        call(fn, A((2, 3)), (1, 1), 2)
    call("repeat", A((0,)), (), 0)
    # 2. pad with one pair for every axis, and constants / ramp ends per side
    call("pad_pair", A((2, 3)), Pads([(1, 2)]), Word("constant"))
    call("pad_pair", A((3,), f32), Pads([(0, 2)]), Word("edge"))
    call("pad", A((2, 2)), Pads([(1, 1), (1, 2)]), Word("constant"), Pads([(7, 8), (-1, -2)]))
    call("pad", A((2,), u8), Pads([(2, 1)]), Word("constant"), Pads([(5, 9)]))
    call("pad", A((2, 3), f32), Pads([(1, 0), (0, 1)]), Word("constant"), Pads([(1, 2)]))
    call("pad", A((2, 2)), Pads([(1, 1)]), Word("constant"), Pads([(1, 2), (3, 4), (5, 6)]))
    call("pad", A((3,), f64), Pads([(2, 2)]), Word("linear_ramp"), Pads([(4, -4)]))
    # 3. tile with an int
    call("tile", A((3,)), 2)
    call("tile", A((2, 2), i8), 3)
    call("tile", A(()), 3)
    call("tile", A((2,)), 0)
    # 4. delete and insert with an array obj
    call("delete", A((5,)), V([0, 3, 3, -1], i64), None)
    call("delete", A((3, 4)), V([1], "int32"), 1)
    call("delete", A((5,)), B([1, 0, 0, 1, 0]), None)
    call("delete", A((3, 2)), B([0, 1, 0]), 0)
    call("delete", A((5,)), B([1, 0]), None)
    call("delete", A((5,)), V([5], i64), None)
    call("delete", A((5,)), V([2], i64, ()), None)
    call("insert", A((4,)), V([1, 3], i64), A((2,), k=1), None)
    call("insert", A((2, 3)), V([0, 3], i64), A((2,), k=1), 1)
    call("insert", A((4,)), V([2], i64, ()), A((), k=1), None)
    call("insert", A((4,)), V([[1]], i64, (1, 1)), A((), k=1), None)
    # 5. take_along_axis with axis None
    call("take_along_axis", A((2, 3)), V([5, 0, 2], i64), None)
    call("take_along_axis", A((2, 3), f32), V([-1, 1], i64), None)
    call("take_along_axis", A((2, 3)), V([[0]], i64, (1, 1)), None)
    call("take_along_axis", A((2, 3)), V([[0, 2], [1, 0]], i64, (2, 2)), 1)
    # 6. choose's modes
    for mode in ("raise", "wrap", "clip"):
        call("choose", V([0, 1, 2, 3, -1, -4], i64), [A((6,)), A((6,), k=1), A((6,), k=2)], Word(mode))
        call("choose", V([0, 1, 0], "int8"), [A((2, 3)), A((3,), f32, 1)], Word(mode))
    # 7. copyto's casting rules
    for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
        call("copyto", A((3,), "int32"), V([1.5, -2.5, 3.0], f64), Word(casting), None)
        call("copyto", A((3,), i64), V([1, 2, 3], "int32"), Word(casting), None)
        call("copyto", A((3,), f64), V([1, 2, 3], "int32"), Word(casting), None)
        call("copyto", A((3,), f32), V([1.5, 2.5, 3.5], f64), Word(casting), None)
    call("copyto", A((2, 3), f64), V([1.5, 2.5, 3.5], f32), Word("same_kind"), B([1, 0, 1]))
    call("copyto", A((3,), i64), V([1, 2, 3], i64), Word("sideways"), None)
    # 9. block of any depth
    call("block", [[[A((1, 1, 2)), A((1, 1, 1), k=1)]], [[A((1, 1, 3), k=2)]]])
    call("block", [[[A((2,)), A((1,), k=1)]]])
    call("block", [[A((2, 2)), A((2, 1), k=1)], [A((1, 3), k=2)]])
    call("block", [A((2,)), A((), k=1), A((1, 3), k=2)])
    call("block", [[A((2,)), A((2,), k=1)], A((2,), k=2)])
    call("block", [[A((2,))], [[A((2,), k=1)]]])
    call("block", [[A((2,))], []])
    call("block", [])
    call("block", A((2, 2)))
    # 10. where= and initial= on the reductions
    m23 = B([1, 0, 1, 0, 0, 1], (2, 3))
    col = B([1, 0, 1])
    call("sum", A((2, 3)), None, 0, m23, None)
    call("sum", A((2, 3), i8), 1, 0, col, 10)
    call("sum", A((2, 3), f32), 0, 1, m23, 0.5)
    call("sum", A((2, 3)), None, 0, None, 5)
    call("sum", A((0,)), None, 0, None, 3)
    call("sum", A((2, 3)), None, 0, V([1, 0, 1], i64), None)
    call("prod", A((2, 3), k=1), 1, 0, col, None)
    call("prod", A((2, 3)), None, 0, None, 2)
    call("nansum", V([1.0, float("nan"), 2.5, 4.0], f64), None, 0, B([1, 1, 0, 1]), 1)
    call("max", A((2, 3)), 1, 0, B([0, 0, 1]), -5)
    call("max", A((2, 3)), None, 0, None, 100)
    call("max", A((2, 3)), 1, 0, col, None)
    call("max", A((0,)), None, 0, None, None)
    call("max", A((0,), f32), None, 0, None, 3)
    call("max", A((2, 0)), 1, 0, None, 7)
    call("min", A((2, 3), u8), 0, 1, m23, 50)
    call("min", A((2, 3)), None, 0, B([0] * 6, (2, 3)), 9)
    call("mean", A((2, 3)), 1, 0, m23, None)
    call("mean", A((2, 3), f32), None, 0, col, None)
    call("mean", A((2, 3)), 0, 0, B([1, 0, 0, 1, 0, 0], (2, 3)), None)
    call("mean", A((2, 3)), None, 0, None, 1)
    call("nanmean", V([1.0, float("nan"), 2.0, 6.0], f64), None, 0, B([1, 1, 0, 1]), None)
    call("var", A((2, 3)), 1, 0, m23, None)
    call("var", A((2, 4), f64), 1, 0, B([1, 1, 1, 0]), None, 1)
    call("std", A((2, 3)), None, 0, m23, None)
    call("any", V([0, 1, 0, 1], i64), None, 0, B([1, 0, 1, 0]), None)
    call("all", V([1, 0, 1, 0], i64), None, 0, B([1, 0, 1, 0]), None)
    call("all", V([1, 0, 1, 0], i64), None, 0, None, 1)
    call("count_nonzero", A((2, 3)), None, 0, m23, None)


if __name__ == "__main__":
    main()
