"""Writes NumPy's answers for the indexing functions (include/loom/indexing.hpp: take,
take_along_axis, put, put_along_axis, putmask, place, copyto, compress, extract, choose, select,
argwhere) as test data, in tools/gen_manipulation_cases.py's format, plus one argument kind:
V<shape>:<dtype>:<values> (an array of the given values, comma-separated in C order; bool as 0/1).
The functions that write (put, put_along_axis, putmask, place, copyto) give the array they wrote
into, a copy of the first argument.
Usage (where NumPy 2 is): python3 tools/gen_indexing_function_cases.py > tests/unit/api/indexing_function_cases.txt
"""
import numpy as np

import gen_manipulation_cases as g
from gen_manipulation_cases import A, Word


class V:
    def __init__(self, shape, dtype, values):
        self.shape, self.dtype, self.values = tuple(shape), dtype, list(values)

    def value(self):
        return np.array(self.values, dtype=self.dtype).reshape(self.shape)

    def token(self):
        vals = ",".join(str(int(v)) if self.dtype != "float64" else repr(float(v)) for v in self.values)
        return "V%s:%s:%s" % (g.fmt_shape(self.shape), self.dtype, vals)


_token, _value = g.token, g.value
g.token = lambda v: v.token() if isinstance(v, V) else _token(v)
g.value = lambda v: v.value() if isinstance(v, V) else _value(v)


def wrote(fn):
    def call(a, *rest):
        b = a.copy()
        fn(b, *rest)
        return b
    return call


g.CALLS.update({
    "take": lambda a, i, axis, mode: np.take(a, i, axis=axis, mode=mode),
    "take_along_axis": lambda a, i, axis: np.take_along_axis(a, i, axis),
    "put": wrote(lambda b, i, v, mode: np.put(b, i, v, mode=mode)),
    "put_along_axis": wrote(lambda b, i, v, axis: np.put_along_axis(b, i, v, axis)),
    "putmask": wrote(lambda b, m, v: np.putmask(b, m, v)),
    "place": wrote(lambda b, m, v: np.place(b, m, v)),
    "copyto": wrote(lambda b, s, w: np.copyto(b, s, where=True if w is None else w)),
    "compress": lambda c, a, axis: np.compress(c, a, axis),
    "extract": lambda c, a: np.extract(c, a),
    "choose": lambda a, ch: np.choose(a, ch),
    "select": lambda cl, ch, d: np.select(cl, ch, d),
    "argwhere": lambda a: np.argwhere(a),
})


def cases():
    out = []
    add = lambda *a: out.append(g.line(*a))
    i64, f32, i8, u8, b, f64, i32 = "int64", "float32", "int8", "uint8", "bool", "float64", "int32"
    raise_, wrap, clip = Word("raise"), Word("wrap"), Word("clip")
    # take
    for mode in (raise_, wrap, clip):
        add("take", A((2, 5)), V((4,), i64, [0, -1, 3, 9]), None, mode)
        add("take", A((2, 5), f32), V((2, 2), i64, [4, 0, -6, 2]), 1, mode)
        add("take", A((3, 4)), V((), i64, [5]), 0, mode)
        add("take", A((3,), i8), V((0,), i64, []), None, mode)
    add("take", A((3, 4)), V((2,), i64, [0, 2]), -1, raise_)
    add("take", A((3, 4)), V((2,), i64, [0, 2]), 2, raise_)
    add("take", A((3, 4)), V((2,), i32, [1, -3]), 0, raise_)
    add("take", A((3, 4)), V((2,), f64, [1, 2]), 0, raise_)
    add("take", A((0, 4)), V((1,), i64, [0]), 0, clip)
    add("take", A((3,), b), V((3,), i64, [2, 1, 0]), None, raise_)
    # take_along_axis
    add("take_along_axis", A((3, 4)), V((3, 2), i64, [0, 3, 1, 1, -1, 2]), 1)
    add("take_along_axis", A((3, 4), f32), V((1, 4), i64, [2, 0, 1, 2]), 0)
    add("take_along_axis", A((3, 4)), V((3, 1), i64, [0, 4, 1]), 1)
    add("take_along_axis", A((3, 4)), V((3,), i64, [0, 1, 2]), 1)
    add("take_along_axis", A((3, 4)), V((3, 2), i64, [0, 1, 0, 1, 0, 1]), 2)
    add("take_along_axis", A((2, 3, 4)), V((2, 1, 4), i64, [0, 1, 2, 0, 2, 2, 1, 0]), 1)
    # put
    for mode in (raise_, wrap, clip):
        add("put", A((2, 3)), V((3,), i64, [0, -1, 7]), V((2,), i64, [90, 80]), mode)
    add("put", A((5,), f32), V((2,), i64, [1, 1]), V((2,), f64, [2.5, 3.5]), raise_)
    add("put", A((5,), i8), V((1,), i64, [2]), V((3,), i64, [300, 1, 2]), raise_)
    add("put", A((5,)), V((0,), i64, []), V((1,), i64, [1]), raise_)
    add("put", A((5,)), V((2,), i64, [0, 1]), V((0,), i64, []), raise_)
    add("put", A((5,)), V((2,), i64, [-6, 1]), V((1,), i64, [9]), raise_)
    # put_along_axis
    add("put_along_axis", A((3, 4)), V((3, 1), i64, [0, 3, -1]), V((), i64, [-7]), 1)
    add("put_along_axis", A((3, 4), f32), V((1, 4), i64, [2, 0, 1, 2]), V((1, 4), f64, [0.5, 1.5, 2.5, 3.5]), 0)
    add("put_along_axis", A((3, 4)), V((3, 1), i64, [0, 4, 1]), V((), i64, [1]), 1)
    add("put_along_axis", A((3, 4)), V((3, 2), i64, [1, 1, 0, 0, 2, 2]), V((3, 2), i64, [1, 2, 3, 4, 5, 6]), 1)
    # putmask and place
    m34 = V((3, 4), b, [1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1])
    add("putmask", A((3, 4)), m34, V((5,), i64, [-1, -2, -3, -4, -5]))
    add("putmask", A((3, 4)), m34, V((2,), i64, [-1, -2]))
    add("putmask", A((3, 4), f32), m34, V((), f64, [0.25]))
    add("putmask", A((3, 4)), m34, V((0,), i64, []))
    add("putmask", A((3, 4)), V((4,), b, [1, 0, 0, 1]), V((1,), i64, [7]))
    add("putmask", A((3, 4), u8), m34, V((2,), i64, [-1, 256]))
    add("place", A((3, 4)), m34, V((2,), i64, [100, 200]))
    add("place", A((3, 4)), m34, V((9,), i64, list(range(9))))
    add("place", A((3, 4), f32), m34, V((1,), f64, [0.5]))
    add("place", A((3, 4)), m34, V((0,), i64, []))
    add("place", A((3, 4)), V((3, 4), b, [0] * 12), V((0,), i64, []))
    add("place", A((3, 4)), V((12,), b, [1] * 12), V((1,), i64, [5]))
    # copyto
    add("copyto", A((2, 3), f32), V((3,), i32, [9, 8, 7]), V((2, 3), b, [1, 0, 1, 0, 1, 0]))
    add("copyto", A((2, 3), f32), V((3,), i32, [9, 8, 7]), None)
    add("copyto", A((2, 3), i32), V((3,), f64, [9, 8, 7]), None)
    add("copyto", A((2, 3), i32), V((3,), i64, [9, 8, 7]), None)
    add("copyto", A((2, 3)), V((2,), i64, [1, 2]), None)
    add("copyto", A((2, 3), b), V((), b, [1]), V((3,), b, [0, 1, 0]))
    add("copyto", A((2, 3), u8), V((), i64, [5]), None)
    add("copyto", A((2, 3)), V((2, 1), i64, [5, 6]), V((2, 3), i64, [1, 0, 1, 0, 1, 0]))
    # compress and extract
    add("compress", V((3,), b, [1, 0, 1]), A((3, 4)), 0)
    add("compress", V((2,), b, [0, 1]), A((3, 4)), None)
    add("compress", V((2,), b, [0, 1]), A((3, 4)), 1)
    add("compress", V((5,), b, [0, 1, 0, 0, 1]), A((3, 4)), 1)
    add("compress", V((5,), b, [0, 1, 0, 0, 0]), A((3, 4)), 1)
    add("compress", V((3,), i64, [0, 2, -1]), A((3, 4)), 0)
    add("compress", V((3,), b, [1, 0, 1]), A((3, 4)), 2)
    add("compress", V((0,), b, []), A((3, 4)), 0)
    add("extract", m34, A((3, 4)))
    add("extract", V((4,), b, [1, 0, 0, 1]), A((3, 4)))
    add("extract", V((3, 4), i64, [0, 2, 0, 0, -1, 0, 0, 0, 0, 0, 0, 3]), A((3, 4), f32))
    add("extract", V((13,), b, [1] * 13), A((3, 4)))
    # choose
    add("choose", V((3, 4), i64, [0, 1, 2, 0] * 3), [A((3, 4)), A((3, 4), k=1), V((), i64, [-1])])
    add("choose", V((4,), i64, [0, 1, 1, 0]), [A((3, 4)), A((4,), f32, 1)])
    add("choose", V((2,), i64, [0, 3]), [A((2,)), A((2,), k=1)])
    add("choose", V((2,), i64, [0, -1]), [A((2,)), A((2,), k=1)])
    add("choose", V((), i64, [1]), [A((2,)), A((3,), k=1)])
    add("choose", V((2,), i8, [1, 0]), [A((2,), u8), A((2,), i8, 1)])
    # select
    add("select", [V((4,), b, [1, 0, 0, 0]), V((4,), b, [1, 1, 0, 0])], [A((4,)), A((4,), k=1)], 42)
    add("select", [V((2, 2), b, [1, 0, 0, 1])], [A((2, 2), f32)], 0)
    add("select", [V((4,), b, [0, 1, 0, 1])], [V((), i64, [7])], -1)
    add("select", [V((4,), b, [0, 1, 0, 1]), V((4,), b, [1, 1, 0, 0])], [A((4,), i8), A((4,), u8, 1)], 0)
    add("select", [V((4,), b, [0, 1, 0, 1])], [A((4,)), A((4,), k=1)], 0)
    add("select", [V((4,), i64, [0, 1, 0, 1])], [A((4,))], 0)
    add("select", [], [], 0)
    # argwhere
    add("argwhere", V((3, 4), i64, [0, 2, 0, 0, -1, 0, 0, 0, 0, 0, 0, 3]))
    add("argwhere", V((4,), b, [0, 1, 1, 0]))
    add("argwhere", V((), i64, [3]))
    add("argwhere", V((), i64, [0]))
    add("argwhere", V((2, 0), f32, []))
    add("argwhere", A((2, 2, 2), f32))
    return out


if __name__ == "__main__":
    print("# NumPy %s: indexing functions (tools/gen_indexing_function_cases.py)" % np.__version__)
    for ln in cases():
        print(ln)
