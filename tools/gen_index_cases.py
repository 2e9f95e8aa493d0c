"""Writes NumPy's answers for the index helpers and the raw/text I/O helpers (include/loom/indexing.hpp,
include/loom/io.hpp) as test data (tests/unit/api/index_cases.txt), in gen_math_cases.py's format.
Functions giving tuples give lists. Writes (fill_diagonal) give the array written. Files: fromfile
takes the file's bytes as a uint8 array (written to a temporary file first); tofile gives the bytes
it wrote as a uint8 array. Separators are m<word> tokens with '_' for a space ('m' alone: "").
Usage (where NumPy 2 is): python3 tools/gen_index_cases.py > tests/unit/api/index_cases.txt
"""
import os
import sys
import tempfile
import warnings

import numpy as np

warnings.simplefilter("ignore")
sys.path.insert(0, __file__.rsplit("/", 1)[0])

import gen_math_cases as gm  # noqa: E402
from gen_manipulation_cases import A, Word  # noqa: E402

V = gm.V
TMP = tempfile.mkdtemp()


def sep_of(w):
    return w.replace("_", " ")


def filled(a, val, wrap):
    b = np.array(a, copy=True)
    np.fill_diagonal(b, val, wrap=bool(wrap))
    return b


def fromfile(data, dt, count, sep, offset):
    path = os.path.join(TMP, "in.bin")
    with open(path, "wb") as f:
        f.write(np.asarray(data, dtype=np.uint8).tobytes())
    return np.fromfile(path, dtype=dt, count=count, sep=sep_of(sep), offset=offset)


def tofile(a, sep, fmt):
    path = os.path.join(TMP, "out.bin")
    a.tofile(path, sep=sep_of(sep), format=fmt)
    with open(path, "rb") as f:
        return np.frombuffer(f.read(), dtype=np.uint8)


def modes(m):
    return tuple(m) if isinstance(m, list) else m


gm.CALLS.update({
    "unravel_index": lambda i, shape, order: np.unravel_index(i, shape, order=order),
    "ravel_multi_index": lambda mi, dims, mode, order: np.ravel_multi_index(tuple(mi), dims, mode=modes(mode),
                                                                           order=order),
    "fill_diagonal": filled,
    "diag_indices": lambda n, ndim: np.diag_indices(n, ndim),
    "diag_indices_from": np.diag_indices_from,
    "tril_indices": lambda n, k, m: np.tril_indices(n, k, m),
    "triu_indices": lambda n, k, m: np.triu_indices(n, k, m),
    "tril_indices_from": lambda a, k: np.tril_indices_from(a, k),
    "triu_indices_from": lambda a, k: np.triu_indices_from(a, k),
    "packbits": lambda a, axis, order: np.packbits(a, axis=axis, bitorder=order),
    "unpackbits": lambda a, axis, count, order: np.unpackbits(a, axis=axis, count=count, bitorder=order),
    "asanyarray": np.asanyarray,
    "frombuffer": lambda buf, dt, count, offset: np.frombuffer(buf.tobytes(), dtype=dt, count=count, offset=offset),
    "fromfile": fromfile,
    "tofile": tofile,
})

call = gm.call
C, F = Word("C"), Word("F")
BIG, LITTLE = Word("big"), Word("little")


def main():
    print("# NumPy %s: index helpers, bit packing, raw and text I/O (tools/gen_index_cases.py)" % np.__version__)
    # --- unravel_index ---
    for dt in ("int64", "int32", "int8", "uint8", "uint16", "bool"):
        call("unravel_index", V([0, 1, 5, 11, 7], dt) if dt != "bool" else V([True, False], dt), (3, 4), C)
        call("unravel_index", V([0, 1, 5, 11, 7], dt) if dt != "bool" else V([True, False], dt), (3, 4), F)
    call("unravel_index", 5, (3, 4), C)
    call("unravel_index", 22, (7, 6), C)
    call("unravel_index", 41, (7, 6), F)
    call("unravel_index", V([1621, 0, 2999], "int64"), (6, 7, 8, 9), C)
    call("unravel_index", V([1621, 0, 2999], "int64"), (6, 7, 8, 9), F)
    call("unravel_index", V([0, 3, 5, 2, 1, 4], "int64", (2, 3)), (2, 3), C)
    call("unravel_index", V([0, 3, 5, 2, 1, 4], "int32", (3, 2)), (6,), F)
    call("unravel_index", V([], "int64"), (3, 4), C)
    call("unravel_index", V([0], "int64"), (), C)
    call("unravel_index", V([12], "int64"), (3, 4), C)
    call("unravel_index", V([3, -1], "int64"), (3, 4), C)
    call("unravel_index", V([3, 20, 13], "int64"), (3, 4), F)
    call("unravel_index", V([0], "int64"), (3, 0), C)
    call("unravel_index", V([1.0], "float64"), (3, 4), C)
    call("unravel_index", V([1], "uint64"), (3, 4), C)
    call("unravel_index", V([1], "int64"), (3, 4), Word("A"))
    call("unravel_index", V([1], "int64"), (3, 4), Word("X"))
    call("unravel_index", V([1], "int64"), (2 ** 40, 2 ** 40), C)
    # --- ravel_multi_index ---
    r, c = V([3, 6, 6], "int64"), V([4, 5, 1], "int64")
    call("ravel_multi_index", [r, c], (7, 6), Word("raise"), C)
    call("ravel_multi_index", [r, c], (7, 6), Word("raise"), F)
    call("ravel_multi_index", [V([3, 6, 6], "int32"), V([4, 5, 1], "uint8")], (7, 6), Word("raise"), C)
    call("ravel_multi_index", [V([3, 1], "int64"), V([1, 2], "int64", (2, 1))], (4, 5), Word("raise"), C)
    call("ravel_multi_index", [V([True, False], "bool"), V([2, 0], "int64")], (2, 3), Word("raise"), C)
    call("ravel_multi_index", [V([3, 1, 4, 1], "int64"), V([1, 2, 0, 3], "int64"), V([0, 1, 2, 3], "int64")],
         (6, 7, 8), Word("raise"), F)
    call("ravel_multi_index", [V([3], "int64"), V([4], "int64")], (3, 4), Word("raise"), C)
    call("ravel_multi_index", [V([-1], "int64"), V([2], "int64")], (3, 4), Word("raise"), C)
    for mode in ("wrap", "clip"):
        call("ravel_multi_index", [V([-1, 3, 7, -9], "int64"), V([2, 5, -1, 13], "int64")], (3, 4), Word(mode), C)
        call("ravel_multi_index", [V([-1, 3, 7, -9], "int64"), V([2, 5, -1, 13], "int64")], (3, 4), Word(mode), F)
    call("ravel_multi_index", [V([-1, 3, 7], "int64"), V([2, 5, -1], "int64")], (3, 4), [Word("wrap"), Word("clip")], C)
    call("ravel_multi_index", [V([1, 2], "int64"), V([2, 5], "int64")], (3, 4), [Word("clip"), Word("raise")], C)
    call("ravel_multi_index", [V([1], "int64"), V([2], "int64")], (3, 4), [Word("clip")] * 3, C)
    call("ravel_multi_index", [V([1], "int64"), V([2], "int64")], (3, 4), Word("bogus"), C)
    call("ravel_multi_index", [V([1], "int64")], (3, 4), Word("raise"), C)
    call("ravel_multi_index", [V([1.0], "float64"), V([2], "int64")], (3, 4), Word("raise"), C)
    call("ravel_multi_index", [V([1], "int64"), V([2], "int64")], (2 ** 40, 2 ** 40), Word("raise"), C)
    call("ravel_multi_index", [V([1], "int64"), V([2], "int64")], (3, 4), Word("raise"), Word("A"))
    # --- fill_diagonal ---
    call("fill_diagonal", A((3, 3)), 7, 0)
    call("fill_diagonal", A((3, 3), "float64"), 2.5, 0)
    call("fill_diagonal", A((3, 3), "int32"), 2.5, 0)
    call("fill_diagonal", A((5, 3)), 9, 0)
    call("fill_diagonal", A((7, 3)), 9, 1)
    call("fill_diagonal", A((3, 5)), 9, 1)
    call("fill_diagonal", A((4, 4)), V([10, 20], "int64"), 0)
    call("fill_diagonal", A((3, 3)), V([10, 20, 30, 40], "int64"), 0)
    call("fill_diagonal", A((3, 3), "float32"), V([1.5, -2.0, 4.0], "float64"), 0)
    call("fill_diagonal", A((2, 2, 2)), 5, 0)
    call("fill_diagonal", A((3, 3, 3), "int16"), V([1, 2, 3], "int16"), 0)
    call("fill_diagonal", A((2, 3, 2)), 5, 0)
    call("fill_diagonal", A((3,)), 5, 0)
    call("fill_diagonal", A((0, 0)), 5, 0)
    call("fill_diagonal", V([True, False, False, True], "bool", (2, 2)), 0, 0)
    # --- diag_indices, tril/triu_indices ---
    for n, nd in ((4, 2), (3, 3), (0, 2), (1, 1), (2, 4)):
        call("diag_indices", n, nd)
    call("diag_indices_from", A((3, 3)))
    call("diag_indices_from", A((2, 2, 2)))
    call("diag_indices_from", A((3,)))
    call("diag_indices_from", A((3, 4)))
    for fn in ("tril_indices", "triu_indices"):
        for n, k, m in ((4, 0, None), (4, 1, None), (4, -1, None), (3, 0, 5), (5, 0, 3), (4, -2, 6), (4, 3, 2),
                        (4, 10, None), (4, -10, None), (0, 0, None), (1, 0, None), (3, 2, 0), (6, -3, 4),
                        (5, 2, 9), (2, -1, 7)):
            call(fn, n, k, m)
    for fn in ("tril_indices_from", "triu_indices_from"):
        call(fn, A((3, 3)), 0)
        call(fn, A((3, 5)), 1)
        call(fn, A((5, 2)), -1)
        call(fn, A((3,)), 0)
        call(fn, A((2, 2, 2)), 0)
    # --- packbits, unpackbits ---
    bits = V([1, 0, 1, 1, 0, 0, 0, 1, 1, 1, 0], "uint8")
    for order in (BIG, LITTLE):
        call("packbits", bits, None, order)
        call("packbits", V([1, 0, 2, 0, -3, 0, 0, 9, 0], "int16"), None, order)
        call("packbits", V([True, False, True, True, True, True, True, True], "bool"), None, order)
        call("packbits", V([1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1], "int32", (2, 6)), 1, order)
        call("packbits", V([1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1], "int64", (2, 6)), 0, order)
        call("packbits", V([1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1] * 2, "uint8", (2, 3, 4)), -1, order)
        call("packbits", V([1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1] * 2, "uint8", (2, 3, 4)), None, order)
        call("packbits", V([], "uint8"), None, order)
        call("packbits", V([5], "int8", ()), None, order)
        b = V([2, 7, 23, 255, 0, 128], "uint8")
        call("unpackbits", b, None, None, order)
        call("unpackbits", V([2, 7, 23, 255, 0, 128], "uint8", (2, 3)), 0, None, order)
        call("unpackbits", V([2, 7, 23, 255, 0, 128], "uint8", (2, 3)), 1, None, order)
        call("unpackbits", V([2, 7, 23, 255, 0, 128], "uint8", (2, 3)), None, None, order)
        call("unpackbits", b, None, 10, order)
        call("unpackbits", b, None, 60, order)
        call("unpackbits", b, None, -5, order)
        call("unpackbits", b, None, 0, order)
        call("unpackbits", V([2, 7, 23, 255, 0, 128], "uint8", (2, 3)), 1, 5, order)
        call("unpackbits", V([201], "uint8", ()), None, None, order)
    call("packbits", V([1.0, 0.0], "float64"), None, BIG)
    call("packbits", bits, 1, BIG)
    call("packbits", bits, None, Word("middle"))
    call("unpackbits", V([1, 2], "int8"), None, None, BIG)
    call("unpackbits", V([1, 2], "uint8"), None, -17, BIG)
    call("unpackbits", V([1, 2], "uint8"), 1, None, BIG)
    # --- asanyarray ---
    call("asanyarray", A((2, 3), "float32"))
    call("asanyarray", V([1, 2, 3], "int8"))
    # --- frombuffer ---
    raw = V([0, 0, 128, 63, 0, 0, 0, 192, 255, 255, 255, 255, 1, 2, 3, 4], "uint8")
    for dt in ("uint8", "int8", "int16", "int32", "uint32", "float32", "int64", "float64", "uint16", "bool"):
        call("frombuffer", raw if dt != "bool" else V([1, 0, 1], "uint8"), Word(dt), -1, 0)
    call("frombuffer", raw, Word("int32"), 2, 4)
    call("frombuffer", raw, Word("int16"), -1, 2)
    call("frombuffer", raw, Word("float32"), 1, 12)
    call("frombuffer", raw, Word("complex64"), -1, 0)
    call("frombuffer", raw, Word("int32"), -1, 2)
    call("frombuffer", raw, Word("int32"), 4, 4)
    call("frombuffer", raw, Word("int32"), -1, 17)
    call("frombuffer", raw, Word("int32"), -1, -1)
    call("frombuffer", raw, Word("int32"), 0, 16)
    call("frombuffer", raw, Word("int32"), -1, 16)
    # --- fromfile: binary and text ---
    for dt in ("uint8", "int16", "int32", "float32", "float64"):
        call("fromfile", raw, Word(dt), -1, Word(""), 0)
    call("fromfile", raw, Word("int32"), 2, Word(""), 4)
    call("fromfile", raw, Word("int32"), 10, Word(""), 0)
    call("fromfile", raw, Word("int32"), -1, Word(""), 2)
    call("fromfile", raw, Word("int64"), -1, Word(""), 9)
    call("fromfile", V([], "uint8"), Word("float64"), -1, Word(""), 0)

    def text(s):
        return V(list(s.encode()), "uint8")
    call("fromfile", text("1,2,3,40"), Word("int64"), -1, Word(","), 0)
    call("fromfile", text("1, 2 ,3 , 40"), Word("int32"), -1, Word(","), 0)
    call("fromfile", text("1.5 2.25\n-3e2\t7"), Word("float64"), -1, Word("_"), 0)
    call("fromfile", text("1.5 2.25\n-3e2\t7"), Word("float32"), 2, Word("_"), 0)
    call("fromfile", text("1,2,3,"), Word("int64"), -1, Word(","), 0)
    call("fromfile", text("1;2;x;4"), Word("int64"), -1, Word(";"), 0)
    call("fromfile", text("nan,inf,-inf,0.1"), Word("float64"), -1, Word(","), 0)
    call("fromfile", text("300,-1"), Word("int16"), -1, Word(","), 0)
    call("fromfile", text("1 2 3"), Word("int64"), -1, Word("_"), 3)
    # --- tofile: binary and text ---
    call("tofile", V([1, -2, 300], "int32"), Word(""), Word("%s"))
    call("tofile", V([1.5, -0.25], "float64", (2, 1)), Word(""), Word("%s"))
    call("tofile", V([1, -2, 300], "int32"), Word(","), Word("%s"))
    call("tofile", V([1.5, -0.25, 3.0, 0.1, 1e20, 1e-7, 123456.789], "float64"), Word(","), Word("%s"))
    call("tofile", V([0.1, 2.0, -1.5], "float32"), Word(","), Word("%s"))
    call("tofile", V([True, False], "bool"), Word(","), Word("%s"))
    call("tofile", V([1, 2, 3, 4, 5, 6], "int64", (2, 3)), Word("_"), Word("%s"))
    call("tofile", V([1.0, 2.5], "float64"), Word(";"), Word("%.3f"))
    call("tofile", V([3, 14], "int16"), Word(","), Word("%05d"))
    call("tofile", V([1.5, 2.0], "float64"), Word(","), Word("%d"))
    call("tofile", V([1 + 2j, -1.5j], "complex128"), Word(","), Word("%s"))


if __name__ == "__main__":
    main()
