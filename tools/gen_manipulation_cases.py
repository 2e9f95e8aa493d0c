"""Writes NumPy's answers for array manipulation (include/loom/manipulation.hpp) as test data.

Each line is a call and what NumPy gives:
  <fn> <arg> <arg> ... -> <dtype> <shape> <values>
  <fn> <arg> ... -> list <count> ; <dtype> <shape> <values> ; ...     (functions giving lists)
  <fn> <arg> ... -> error <exception>|<message>
Arguments: A<shape>:<dtype>@<k> is (np.arange(size) + 100 * k).reshape(shape).astype(dtype);
i<int>; n (None); l<int>,<int>,... (a list of ints; 'l' alone: empty); p<before>,<after>/...
(pad widths); s<start>,<stop>,<step> (a slice; empty parts None); m<word> (a string);
'[' and ']' around a list of arrays (nested for np.block). A shape is extents joined by 'x'
('' for 0-d). Values are comma-separated in C order (floats as repr).
Usage (where NumPy 2 is): python3 tools/gen_manipulation_cases.py > tests/unit/api/manipulation_cases.txt
"""
import numpy as np


def fmt_shape(s):
    return "x".join(str(d) for d in s)


def fmt_vals(a):
    a = np.asarray(a)
    if a.dtype == bool:
        return ",".join("1" if v else "0" for v in a.ravel())
    if a.dtype.kind in "iu":
        return ",".join(str(int(v)) for v in a.ravel())
    return ",".join(repr(float(v)) for v in a.ravel())


class A:
    def __init__(self, shape, dtype="int64", k=0):
        self.shape, self.dtype, self.k = tuple(shape), dtype, k

    def value(self):
        n = int(np.prod(self.shape)) if self.shape else 1
        return (np.arange(n) + 100 * self.k).reshape(self.shape).astype(self.dtype)

    def token(self):
        return "A%s:%s@%d" % (fmt_shape(self.shape), self.dtype, self.k)


class Pads:
    def __init__(self, pairs):
        self.pairs = pairs

    def token(self):
        return "p" + "/".join("%d,%d" % p for p in self.pairs)


class Word:
    def __init__(self, w):
        self.w = w

    def token(self):
        return "m" + self.w


def token(v):
    if isinstance(v, (A, Pads, Word)):
        return v.token()
    if v is None:
        return "n"
    if isinstance(v, bool):
        return "i%d" % int(v)
    if isinstance(v, int):
        return "i%d" % v
    if isinstance(v, slice):
        f = lambda x: "" if x is None else str(x)
        return "s%s,%s,%s" % (f(v.start), f(v.stop), f(v.step))
    if isinstance(v, tuple):
        return "l" + ",".join(str(x) for x in v)
    if isinstance(v, list):
        return "[ " + "".join(token(x) + " " for x in v) + "]"
    raise TypeError(v)


def value(v):
    if isinstance(v, A):
        return v.value()
    if isinstance(v, Pads):
        return [tuple(p) for p in v.pairs]
    if isinstance(v, Word):
        return v.w
    if isinstance(v, list):
        return [value(x) for x in v]
    if isinstance(v, tuple):
        return list(v)
    return v


def result_text(r):
    if isinstance(r, (list, tuple)):
        return "list %d ; " % len(r) + " ; ".join(result_text(x) for x in r)
    r = np.asarray(r)
    return "%s %s %s" % (r.dtype.name, fmt_shape(r.shape), fmt_vals(r))


CALLS = {
    # The extra argument: constant_values (constant), end_values (linear_ramp), stat_length (the rest).
    "pad": lambda a, w, mode, *x: np.pad(a, w, mode=mode, **(
        {} if not x else {"reflect_type": x[0]} if isinstance(x[0], str) else
        {"constant": {"constant_values": x[0]}, "linear_ramp": {"end_values": x[0]}}.get(mode, {"stat_length": x[0]}))),
    "delete": lambda a, obj, axis: np.delete(a, obj, axis),
    "insert": lambda a, obj, v, axis: np.insert(a, obj, v, axis),
    "indices": lambda dims, dtype: np.indices(tuple(dims), dtype=dtype),
    "meshgrid": lambda xs, ind, sparse: np.meshgrid(*xs, indexing=ind, sparse=bool(sparse)),
    "ix_": lambda xs: np.ix_(*xs),
    "broadcast_arrays": lambda xs: np.broadcast_arrays(*xs),
    "rot90": lambda a, k, axes: np.rot90(a, k, axes=tuple(axes)),
    "tri": lambda n, m, k, dtype: np.tri(n, m, k, dtype=dtype),
    "logspace": lambda a, b, num, endpoint, base: np.logspace(a / 4, b / 4, num, bool(endpoint), base / 2),
    "geomspace": lambda a, b, num, endpoint: np.geomspace(a, b, num, bool(endpoint)),
    "tile": lambda a, reps: np.tile(a, tuple(reps)),
    "unstack": lambda a, axis: np.unstack(a, axis=axis),
    "sliding_window_view": lambda a, w, axis=None: np.lib.stride_tricks.sliding_window_view(
        a, tuple(w), None if axis is None else tuple(axis)),
}
if not hasattr(np, "unstack"):  # NumPy < 2.1 (a development machine): the same, by hand
    def _unstack(a, axis):
        if np.ndim(a) == 0:
            raise ValueError("Input array must be at least 1-d.")
        return tuple(np.moveaxis(a, axis, 0))
    CALLS["unstack"] = _unstack


def line(fn, *args):
    text = fn + " " + " ".join(token(a) for a in args)
    f = CALLS.get(fn) or getattr(np, fn)
    try:
        r = f(*[value(a) for a in args])
        return text + " -> " + result_text(r)
    except Exception as e:  # noqa: BLE001
        name = type(e).__name__
        if name == "AxisError":
            name = "IndexError"
        return text + " -> error %s|%s" % (name, str(e).split("\n")[0])


def cases():
    out = []
    add = lambda *a: out.append(line(*a))
    i64, f32, i8, u8, b = "int64", "float32", "int8", "uint8", "bool"
    # concatenate and friends
    add("concatenate", [A((2, 3)), A((4, 3), k=1)], 0)
    add("concatenate", [A((2, 3)), A((2, 5), f32, 1)], 1)
    add("concatenate", [A((2, 3)), A((2, 2), i8, 1), A((2, 1), u8, 2)], -1)
    add("concatenate", [A((2, 3), i8), A((3,), u8, 1)], None)
    add("concatenate", [A((2, 0)), A((2, 3), k=1)], 1)
    add("concatenate", [A((3,), b), A((2,), b, 1)], 0)
    add("concatenate", [A((3,), b), A((2,), i8, 1)], 0)
    add("concatenate", [A((2, 3, 4)), A((2, 1, 4), f32, 1)], 1)
    add("concatenate", [A((3,))], 0)
    add("concatenate", [A(())], 0)
    add("concatenate", [A((2, 3)), A((3,), k=1)], 0)
    add("concatenate", [A((2, 3)), A((2, 4), k=1)], 0)
    add("concatenate", [A((2, 3)), A((2, 3), k=1)], 2)
    add("stack", [A((2, 3)), A((2, 3), k=1)], 0)
    add("stack", [A((2, 3)), A((2, 3), f32, 1), A((2, 3), k=2)], -1)
    add("stack", [A((2, 3)), A((2, 3), k=1)], 1)
    add("stack", [A(()), A((), k=1)], 0)
    add("stack", [A((2, 3)), A((3, 2), k=1)], 0)
    add("stack", [A((2,)), A((2,), k=1)], 2)
    add("hstack", [A((3,)), A((2,), k=1)])
    add("hstack", [A((2, 3)), A((2, 1), k=1)])
    add("hstack", [A(()), A((), k=1)])
    add("vstack", [A((3,)), A((3,), k=1)])
    add("vstack", [A((2, 3)), A((3,), i8, 1)])
    add("dstack", [A((3,)), A((3,), k=1)])
    add("dstack", [A((2, 3)), A((2, 3), k=1)])
    add("column_stack", [A((3,)), A((3,), k=1), A((3, 2), k=2)])
    add("append", A((2, 3)), A((4,), k=1), None)
    add("append", A((2, 3)), A((1, 3), k=1), 0)
    add("append", A((2, 3)), A((3,), k=1), 0)
    add("block", [A((2, 2)), A((2, 3), k=1)])
    add("block", [[A((2, 2)), A((2, 3), k=1)], [A((1, 5), k=2)]])
    add("block", [[A((2,)), A((3,), k=1)], [A((1, 5), k=2)]])
    # splitting
    add("split", A((6, 2)), 3, 0)
    add("split", A((6, 2)), 4, 0)
    add("split", A((6, 4)), (1, 3, 10), 1)
    add("split", A((6,)), (-2, 2), 0)
    add("array_split", A((7,)), 3, 0)
    add("array_split", A((2, 5)), 4, -1)
    add("array_split", A((7,)), 0, 0)
    add("hsplit", A((2, 6)), 3)
    add("hsplit", A((6,)), (2, 4))
    add("hsplit", A(()), 1)
    add("vsplit", A((4, 3)), 2)
    add("vsplit", A((4,)), 2)
    add("dsplit", A((2, 2, 4)), 2)
    add("dsplit", A((2, 4)), 2)
    add("unstack", A((3, 2)), 0)
    add("unstack", A((3, 2)), 1)
    add("unstack", A(()), 0)
    # delete and insert
    add("delete", A((5,)), 1, None)
    add("delete", A((3, 4)), 1, 0)
    add("delete", A((3, 4)), (0, 2, 2), 1)
    add("delete", A((3, 4)), slice(None, None, 2), 1)
    add("delete", A((3, 4)), -1, None)
    add("delete", A((3, 4)), 5, 0)
    add("insert", A((5,)), 2, A((), k=9), None)
    add("insert", A((2, 3)), 1, A((3,), k=9), 0)
    add("insert", A((2, 3)), 1, A((2,), k=9), 1)
    add("insert", A((2, 3)), 3, A((), f32, 9), 1)
    add("insert", A((5,)), (1, 1, 4), A((3,), k=9), None)
    add("insert", A((2, 3)), (0, 2), A((), k=9), 1)
    add("insert", A((5,)), 7, A((), k=9), None)
    # tile, repeat, roll, resize
    add("tile", A((3,)), (2,))
    add("tile", A((2, 3)), (2, 1, 3))
    add("tile", A((2, 3)), (2,))
    add("tile", A((2, 3), b), (1, 2))
    add("repeat", A((3,)), 2, None)
    add("repeat", A((2, 3)), 3, 1)
    add("repeat", A((2, 3)), 2, None)
    add("repeat", A((2, 3)), 0, 0)
    add("roll", A((5,)), 2, None)
    add("roll", A((2, 5)), -7, 1)
    add("roll", A((2, 5)), 3, None)
    add("roll", A((3, 4)), 1, 0)
    add("resize", A((2, 3)), (3, 4))
    add("resize", A((3,)), (2,))
    add("resize", A((0,)), (2, 2))
    # pad
    for mode in ["constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum", "minimum", "mean", "median"]:
        add("pad", A((3,)), Pads([(2, 1)]), Word(mode))
        add("pad", A((2, 3)), Pads([(1, 2), (0, 3)]), Word(mode))
        add("pad", A((3,)), Pads([(7, 5)]), Word(mode))
        add("pad", A((2, 3), f32), Pads([(1, 1)]), Word(mode))
    add("pad", A((2, 3), i8), Pads([(1, 1)]), Word("constant"), 7)
    add("pad", A((2, 3)), Pads([(1, 1), (1, 1), (1, 1)]), Word("edge"))
    add("pad", A((2, 0)), Pads([(1, 1)]), Word("edge"))
    add("pad", A((2, 3)), Pads([(-1, 1)]), Word("edge"))
    add("pad", A((2, 3), i8), Pads([(3, 2), (2, 4)]), Word("linear_ramp"), -5)
    add("pad", A((4,), u8), Pads([(5, 3)]), Word("linear_ramp"), 200)
    add("pad", A((2, 3), f32), Pads([(2, 3)]), Word("linear_ramp"), 7)
    add("pad", A((3, 2), "float64", 2), Pads([(1, 4), (3, 0)]), Word("linear_ramp"))
    add("pad", A((3,), "bool"), Pads([(2, 2)]), Word("linear_ramp"))
    add("pad", A((2, 0)), Pads([(1, 1)]), Word("linear_ramp"))
    for mode in ["maximum", "minimum", "mean", "median"]:
        add("pad", A((2, 5)), Pads([(2, 3)]), Word(mode), 2)
        add("pad", A((5,), f32, 1), Pads([(1, 2)]), Word(mode), 9)
        add("pad", A((3, 4), i8), Pads([(1, 1), (2, 0)]), Word(mode), 1)
    add("pad", A((2, 5)), Pads([(2, 3)]), Word("maximum"), 0)
    for mode in ["reflect", "symmetric"]:  # reflect_type
        add("pad", A((3,)), Pads([(2, 1)]), Word(mode), Word("odd"))
        add("pad", A((4,)), Pads([(7, 9)]), Word(mode), Word("odd"))
        add("pad", A((2, 3), f32), Pads([(1, 2), (4, 3)]), Word(mode), Word("odd"))
        add("pad", A((3,), u8), Pads([(2, 2)]), Word(mode), Word("odd"))
        add("pad", A((1, 3)), Pads([(2, 2)]), Word(mode), Word("odd"))
        add("pad", A((3, 2), "float64", 2), Pads([(3, 1), (2, 5)]), Word(mode), Word("odd"))
        add("pad", A((3,)), Pads([(2, 1)]), Word(mode), Word("even"))
    # diagonals and triangles
    add("diagonal", A((3, 4)), 0, 0, 1)
    add("diagonal", A((3, 4)), 2, 0, 1)
    add("diagonal", A((3, 4)), -1, 0, 1)
    add("diagonal", A((3, 4)), 5, 0, 1)
    add("diagonal", A((2, 3, 4)), 1, 2, 0)
    add("diagonal", A((3,)), 0, 0, 1)
    add("diagonal", A((3, 3)), 0, 1, 1)
    add("diag", A((3,)), 0)
    add("diag", A((3,)), 2)
    add("diag", A((3,)), -1)
    add("diag", A((3, 4)), 1)
    add("diag", A((2, 2, 2)), 0)
    add("diagflat", A((2, 2)), -1)
    add("trace", A((3, 4)))
    add("trace", A((2, 3, 4), f32), 1, 1, 2)
    add("tri", 3, 4, 1, Word("int64"))
    add("tri", 3, 2, -1, Word("bool"))
    add("tril", A((3, 4)), 0)
    add("tril", A((2, 3, 4), f32), -1)
    add("triu", A((3, 4)), 1)
    add("triu", A((4,)), 0)
    # re-viewing
    add("flipud", A((3, 2)))
    add("flipud", A(()))
    add("fliplr", A((3, 2)))
    add("fliplr", A((3,)))
    add("rot90", A((2, 3)), 1, (0, 1))
    add("rot90", A((2, 3)), 2, (0, 1))
    add("rot90", A((2, 3)), -1, (0, 1))
    add("rot90", A((2, 3, 4)), 1, (2, 0))
    add("rot90", A((2, 3)), 1, (0, 0))
    add("moveaxis", A((2, 3, 4)), 0, -1)
    add("moveaxis", A((2, 3, 4)), (0, 1), (2, 0))
    add("moveaxis", A((2, 3, 4)), (0, 0), (1, 2))
    add("rollaxis", A((2, 3, 4)), 2, 0)
    add("rollaxis", A((2, 3, 4)), 0, 3)
    add("atleast_1d", A(()))
    add("atleast_2d", A((3,)))
    add("atleast_3d", A((2, 3)))
    add("atleast_3d", A((3,)))
    add("broadcast_arrays", [A((2, 1)), A((3,), k=1)])
    add("meshgrid", [A((3,)), A((2,), k=1)], Word("xy"), 0)
    add("meshgrid", [A((3,)), A((2,), k=1), A((2,), k=2)], Word("ij"), 0)
    add("meshgrid", [A((3,)), A((2,), k=1)], Word("xy"), 1)
    add("indices", (2, 3), Word("int64"))
    add("indices", (2, 1, 2), Word("int32"))
    add("ix_", [A((2,)), A((3,), k=1)])
    add("logspace", 0, 8, 5, 1, 20)
    add("logspace", -4, 4, 4, 0, 4)
    add("geomspace", 1, 1000, 4, 1)
    add("geomspace", -2, -32, 5, 0)
    add("geomspace", 0, 5, 3, 1)
    add("sliding_window_view", A((6,)), (3,))
    add("sliding_window_view", A((3, 4)), (2, 2))
    add("sliding_window_view", A((3, 4)), (2,), (1,))
    add("sliding_window_view", A((3, 4)), (2, 3), (1, 1))
    add("sliding_window_view", A((3, 4)), (2,))
    add("sliding_window_view", A((3, 4)), (5,), (0,))
    add("sliding_window_view", A((3, 4)), (-1,), (0,))
    # edge cases (sixth session): empty lists, axes at and past the ends, zero counts and sizes
    add("concatenate", [], 0)
    add("concatenate", [A((2, 3)), A((2, 3), k=1)], -3)
    add("concatenate", [A((2, 3)), A((2, 3), k=1)], -2)
    add("concatenate", [A(()), A((), k=1)], None)
    add("concatenate", [A((0, 3)), A((0, 3), k=1)], 0)
    add("concatenate", [A((2, 2), u8), A((2, 2), i8, 1)], 0)
    add("concatenate", [A((2, 2), b), A((2, 2), f32, 1)], 1)
    add("stack", [], 0)
    add("stack", [A((2, 3)), A((2, 3), k=1)], -3)
    add("stack", [A((2, 3)), A((2, 3), k=1)], 3)
    add("stack", [A((0,)), A((0,), k=1)], 1)
    add("hstack", [A((2,), i8), A((3,), u8, 1)])
    add("vstack", [A(()), A((), k=1)])
    add("vstack", [A((2, 3)), A((2, 2), k=1)])
    add("dstack", [A(()), A((), k=1)])
    add("dstack", [A((2, 3, 2)), A((2, 3, 1), k=1)])
    add("column_stack", [A((2, 2)), A((2, 3), k=1)])
    add("column_stack", [A((3,)), A((2,), k=1)])
    add("append", A((2, 3)), A((2, 2), k=1), 0)
    add("append", A(()), A(()), None)
    # (split(a, 0): NumPy raises ZeroDivisionError from its own modulo; loom raises ValueError,
    # array_split's "number sections must be larger than 0.": loom has no ZeroDivisionError.)
    add("split", A((0,)), 3, 0)
    add("split", A((6, 4)), 2, -1)
    add("split", A((6, 4)), 2, 2)
    add("split", A((6,)), (4, 2), 0)
    add("array_split", A((5,)), 7, 0)
    add("array_split", A((6,)), (-1, 10), 0)
    add("vsplit", A((4, 3)), (1,))
    add("unstack", A((3, 2)), -1)
    add("unstack", A((3, 2)), 2)
    add("delete", A((5,)), (-1, -5), None)
    add("delete", A((5,)), (1, 7), None)
    add("delete", A((5,)), slice(None, None, -2), None)
    add("delete", A((5,)), (), None)
    add("delete", A((3, 4)), -5, 1)
    add("delete", A((3, 4)), 1, 2)
    add("delete", A((3, 4)), (0, 1, 2), 0)
    add("insert", A((5,)), -1, A((), k=9), None)
    add("insert", A((5,)), 5, A((), k=9), None)
    add("insert", A((5,)), -6, A((), k=9), None)
    add("insert", A((5,)), (4, 0, 2), A((3,), k=9), None)
    add("insert", A((2, 3)), 1, A((), k=9), None)
    add("insert", A((2, 3)), 1, A((2, 1), k=9), 1)
    add("insert", A((2, 3)), 1, A((3,), f32, 9), 0)
    add("insert", A((2, 3)), (1,), A((2,), k=9), 1)
    add("tile", A((2, 3)), (0,))
    add("tile", A((2, 3)), (2, 0))
    add("tile", A(()), (3,))
    add("tile", A(()), ())
    add("tile", A((2,)), (1, 1, 2))
    add("repeat", A((2, 3)), 2, -1)
    add("repeat", A((2, 3)), 2, 2)
    add("repeat", A(()), 3, None)
    add("repeat", A((2, 3)), -1, 0)
    add("repeat", A((0, 3)), 2, 0)
    add("roll", A((5,)), 0, None)
    add("roll", A((2, 5)), 12, -1)
    add("roll", A((2, 5)), 1, 2)
    add("roll", A(()), 1, None)
    add("roll", A((0,)), 3, None)
    add("roll", A((2, 3)), -4, 0)
    add("resize", A((2, 3)), ())
    add("resize", A((2, 3)), (0,))
    add("resize", A((2, 3)), (4, 4))
    add("resize", A((2,)), (-1,))
    add("pad", A((2, 2, 2)), Pads([(1, 0)]), Word("wrap"))
    add("pad", A((2, 3)), Pads([(2, 1)]), Word("symmetric"))
    add("pad", A((0,)), Pads([(1, 1)]), Word("reflect"))
    add("pad", A((0,)), Pads([(1, 1)]), Word("constant"))
    add("pad", A((1,)), Pads([(3, 2)]), Word("reflect"))
    add("pad", A((1,)), Pads([(3, 2)]), Word("symmetric"))
    add("pad", A((2, 3)), Pads([(1, 1), (1, 1), (1, 1)]), Word("constant"))
    add("pad", A((2, 3)), Pads([(1, 1)]), Word("median"))
    add("pad", A((4,), u8), Pads([(2, 2)]), Word("median"))
    add("pad", A((5,), i8), Pads([(1, 2)]), Word("median"), 4)
    add("pad", A((2, 3)), Pads([(1, 1)]), Word("nonsense"))
    add("pad", A((4,), u8), Pads([(2, 2)]), Word("mean"))
    add("pad", A((4,), b), Pads([(2, 2)]), Word("maximum"))
    add("diagonal", A((3, 4)), -3, 0, 1)
    add("diagonal", A((3, 4)), -4, 0, 1)
    add("diagonal", A((2, 3, 4)), 0, -1, -2)
    add("diagonal", A((2, 3, 4)), 0, 0, 3)
    add("diag", A(()), 0)
    add("diag", A((3, 4)), -5)
    add("diag", A((3, 4)), 4)
    add("diag", A((0,)), 1)
    add("diagflat", A((3,)), 1)
    add("diagflat", A(()), 0)
    add("trace", A((3, 4)), 1, 0, 1)
    add("trace", A((3, 4)), -2, 1, 0)
    add("trace", A((3,)))
    add("tri", 3, 4, -5, Word("int64"))
    add("tri", 0, 3, 0, Word("float32"))
    add("tri", 2, 2, 5, Word("bool"))
    add("tril", A((3, 4)), 5)
    add("tril", A((3, 4)), -5)
    add("triu", A((3, 4), b), -1)
    # (triu of a 0-d array: NumPy fails inside its own tri() call with a TypeError about a
    # missing argument; loom raises ValueError "input array must be at least 1-d".)
    add("rot90", A((2, 3)), 3, (0, 1))
    add("rot90", A((2, 3)), 4, (1, 0))
    add("rot90", A((2, 3)), -2, (1, 0))
    add("rot90", A((2, 3)), 1, (0, 2))
    add("rot90", A((3,)), 1, (0, 1))
    add("moveaxis", A((2, 3, 4)), -1, 0)
    add("moveaxis", A((2, 3, 4)), 3, 0)
    add("moveaxis", A((2, 3, 4)), (0, 1), (1,))
    add("rollaxis", A((2, 3, 4)), -1, 1)
    add("rollaxis", A((2, 3, 4)), 1, 4)
    add("rollaxis", A((2, 3, 4)), 3, 0)
    add("atleast_2d", A((2, 3, 4)))
    add("atleast_3d", A(()))
    add("broadcast_arrays", [A((2, 3)), A((3, 2), k=1)])
    add("broadcast_arrays", [A(()), A((2, 1), k=1), A((1, 3), k=2)])
    add("meshgrid", [A((3,))], Word("xy"), 0)
    add("meshgrid", [A((3,)), A((2,), k=1), A((2,), k=2)], Word("xy"), 1)
    add("indices", (), Word("int64"))
    add("indices", (0, 2), Word("int64"))
    add("ix_", [A((2,), b), A((3,), k=1)])
    add("logspace", 0, 8, 1, 1, 20)
    add("logspace", 0, 8, 0, 1, 20)
    add("logspace", 4, 0, 3, 1, 20)
    add("geomspace", 8, 1, 4, 1)
    add("geomspace", 5, 5, 3, 1)
    add("geomspace", 1, 16, 1, 0)
    add("geomspace", 1, -16, 3, 1)
    add("sliding_window_view", A((4,)), (4,))
    add("sliding_window_view", A((4,)), (0,))
    add("sliding_window_view", A((3, 4)), (2, 2), (0, 0))
    add("sliding_window_view", A((3, 4)), (2,), (2,))
    return out


if __name__ == "__main__":
    print("# NumPy %s: array manipulation (tools/gen_manipulation_cases.py)" % np.__version__)
    for ln in cases():
        print(ln)
