"""Writes NumPy's answers for indexing reads and writes as test data for tests/unit/api.

Each line is one case on x = np.arange(size).reshape(shape) (int64):
  read  <shape> <index> -> <result shape> <values>          x[index]
  write <shape> <index> <op> <value> -> <values>            x[index] = v / x[index] op= v
  error <shape> <index> -> <exception>|<message>            what x[index] raises
  at    <shape> <index> <ufunc> <value> -> <values>         np.<ufunc>.at(x, index, v)
  aterror <shape> <index> <ufunc> <value> -> <exception>|<message>
  bincount <x> <weights> <minlength> -> <dtype> <values>    np.bincount (x, weights: values;
                                                            weights '-': none)
  bincounterror <x> <weights> <minlength> -> <exception>|<message>
An index is entries joined by ';': i<int>, s<start>,<stop>,<step> (empty: None), n (newaxis),
e (ellipsis), a<shape>:<values> (int64 array), m<shape>:<values> (bool mask, 0/1). A shape is
extents joined by 'x' ('' for 0-d). A value is <shape>:<values> (int64). Values are
comma-separated, C order.
Usage (where NumPy 2 is): python3 tools/gen_indexing_cases.py > tests/unit/api/indexing_cases.txt
"""
import random

import numpy as np

rng = random.Random(14)


def fmt_shape(s):
    return "x".join(str(d) for d in s)


def fmt_vals(a):
    return ",".join(str(int(v)) for v in np.asarray(a).ravel())


def fmt_index(idx):
    out = []
    for e in idx:
        if e is None:
            out.append("n")
        elif e is Ellipsis:
            out.append("e")
        elif isinstance(e, slice):
            f = lambda v: "" if v is None else str(v)
            out.append("s%s,%s,%s" % (f(e.start), f(e.stop), f(e.step)))
        elif isinstance(e, (int, np.integer)):
            out.append("i%d" % e)
        else:
            a = np.asarray(e)
            tag = "m" if a.dtype == bool else "a"
            out.append("%s%s:%s" % (tag, fmt_shape(a.shape), fmt_vals(a.astype(np.int64))))
    return ";".join(out)


def rand_array(shape, lo, hi):
    return np.array([rng.randrange(lo, hi) for _ in range(int(np.prod(shape)))], dtype=np.int64).reshape(shape)


SHAPES = [(7,), (4, 5), (3, 4, 5), (2, 3, 4, 5), (6, 1, 3)]


def random_index(shape):
    nd = len(shape)
    entries = []
    d = 0
    n_adv = rng.choice([0, 1, 1, 2, 2, 3])
    adv_shape = rng.choice([(), (3,), (2, 3), (1, 3), (4,)])
    while d < nd:
        kind = rng.choice(["slice", "slice", "int", "adv", "adv", "newaxis", "full"])
        if kind == "newaxis" and rng.random() < 0.5:
            entries.append(None)
            continue
        n = shape[d]
        if kind == "int":
            entries.append(rng.randrange(-n, n))
        elif kind == "adv" and n_adv > 0:
            n_adv -= 1
            sub = adv_shape[rng.randrange(0, len(adv_shape) + 1):] if adv_shape else ()
            entries.append(rand_array(sub, -n, n))
        elif kind == "slice":
            start = rng.choice([None, rng.randrange(-n - 1, n + 1)])
            stop = rng.choice([None, rng.randrange(-n - 1, n + 1)])
            step = rng.choice([None, 1, 2, -1, -2, 3])
            entries.append(slice(start, stop, step))
        else:
            entries.append(slice(None))
        d += 1
    if rng.random() < 0.3 and entries:
        cut = rng.randrange(0, len(entries))
        entries = entries[:cut] + [Ellipsis] + entries[cut + 1:] if rng.random() < 0.5 else entries[:cut]
    return tuple(entries)


def has_array(idx):
    return any(isinstance(e, np.ndarray) for e in idx)


def ufunc_at_cases(cases):
    """np.<ufunc>.at (every duplicate counts) and np.bincount; a generator of their own, so the
    cases above stay as they were."""
    r = random.Random(15)
    lines = []
    ufuncs = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "minimum": np.minimum,
              "maximum": np.maximum}
    dup = [((7,), (np.array([3, -1, 0, 3, 3, 6]),)), ((4, 5), (np.array([0, 0, 3]), np.array([1, 1, -1]))),
           ((4, 5), (np.array([[1, 1], [1, 2]]), slice(1, 4))), ((4, 5), (slice(None), np.array([2, 2, 2]))),
           ((3, 4, 5), (np.array([0, 2, 0]), slice(None), np.array([1, 4, 1]))),
           ((4, 5), (np.array([], dtype=np.int64),)), ((4, 5), (1, slice(0, 3))), ((7,), (np.array(2),))]
    picked = dup + [c for c in cases if has_array(c[1]) and not any(
        isinstance(e, np.ndarray) and e.dtype == bool for e in c[1])][:40]
    for shape, idx in picked:
        x0 = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
        try:
            region = x0[idx].shape
        except Exception:  # noqa: BLE001
            continue
        for name, f in ufuncs.items():
            for vshape in [(), region[-1:] if region else (), region]:
                v = np.array([r.randrange(-5, 6) for _ in range(int(np.prod(vshape)))], dtype=np.int64).reshape(vshape)
                x = x0.copy()
                f.at(x, idx, v)
                lines.append("at %s %s %s %s:%s -> %s" % (fmt_shape(shape), fmt_index(idx), name,
                                                          fmt_shape(v.shape), fmt_vals(v), fmt_vals(x)))
    for shape, idx, v in [((7,), (np.array([0, 1]),), np.zeros(3, dtype=np.int64)),
                          ((7,), (np.array([7]),), np.zeros((), dtype=np.int64)),
                          ((4, 5), (np.array([0]), np.array([0, 1, 2])), np.zeros((), dtype=np.int64))]:
        x = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
        try:
            np.add.at(x, idx, v)
        except Exception as e:  # noqa: BLE001
            lines.append("aterror %s %s add %s:%s -> %s|%s" % (fmt_shape(shape), fmt_index(idx), fmt_shape(v.shape),
                                                               fmt_vals(v), type(e).__name__, str(e)))
    def fmt_w(w):
        return "-" if w is None else fmt_vals(w)
    for n, hi, minlength, weighted in [(20, 5, 0, False), (20, 5, 9, True), (1, 1, 0, True), (0, 1, 3, False),
                                       (0, 1, 0, True), (50, 30, 4, False), (33, 2, 2, True)]:
        xs = np.array([r.randrange(0, hi) for _ in range(n)], dtype=np.int64)
        w = np.array([r.randrange(-4, 5) for _ in range(n)], dtype=np.int64) if weighted else None
        b = np.bincount(xs, None if w is None else w.astype(np.float64), minlength=minlength)
        lines.append("bincount %s %s %d -> %s %s" % (fmt_vals(xs), fmt_w(w), minlength, b.dtype, fmt_vals(b)))
    for xs, w, minlength in [([1, -1, 2], None, 0), ([1, 2], [1, 2, 3], 0), ([1, 2], None, -1)]:
        try:
            np.bincount(np.array(xs, dtype=np.int64), None if w is None else np.array(w, dtype=np.float64),
                        minlength=minlength)
        except Exception as e:  # noqa: BLE001
            lines.append("bincounterror %s %s %d -> %s|%s" % (",".join(map(str, xs)), "-" if w is None else
                                                              ",".join(map(str, w)), minlength, type(e).__name__, str(e)))
    return lines


def main():
    lines = []
    fixed = [
        ((7,), (np.array([3, -1, 0, 3]),)),
        ((4, 5), (np.array([0, 2]), np.array([1, -1]))),
        ((4, 5), (slice(None), np.array([[0, 4], [1, 1]]))),
        ((3, 4, 5), (np.array([0, 2]), slice(1, 3), np.array([1, 4]))),        # separated: first
        ((3, 4, 5), (slice(None), np.array([0, 3]), np.array([[1], [2]]))),     # adjacent: in place
        ((3, 4, 5), (1, slice(None), np.array([1, 2]))),                        # int + array split
        ((3, 4, 5), (Ellipsis, np.array([4, 0]))),
        ((3, 4, 5), (None, np.array([2]), Ellipsis)),
        ((3, 4, 5), (np.array(1), slice(None), 2)),                              # 0-d array index
        ((4, 5), (np.array([[True, False, True, False, True]] * 4),)),
        ((4, 5), (np.array([True, False, True, True]), slice(1, 4))),
        ((4, 5), (np.zeros((0,), dtype=np.int64),)),
        ((2, 3, 4, 5), (np.array([1, 0]), slice(None), slice(None), np.array([3, 2]))),
    ]
    cases = list(fixed)
    for _ in range(120):
        shape = rng.choice(SHAPES)
        cases.append((shape, random_index(shape)))
    for shape, idx in cases:
        x = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
        try:
            r = x[idx]
        except Exception:  # noqa: BLE001
            continue
        lines.append("read %s %s -> %s %s" % (fmt_shape(shape), fmt_index(idx), fmt_shape(r.shape), fmt_vals(r)))
    # Writes: basic indices and one bool mask, with a scalar or an array that broadcasts.
    ops = {"set": None, "add": np.add, "subtract": np.subtract, "multiply": np.multiply,
           "min": np.minimum, "max": np.maximum}
    wcases = [
        ((7,), (slice(1, 5),)), ((4, 5), (slice(1, -1), slice(1, -1))), ((4, 5), (0,)),
        ((4, 5), (slice(None), -1)), ((4, 5), (slice(None, None, -2), slice(1, None, 3))),
        ((3, 4, 5), (Ellipsis, 2)), ((3, 4, 5), (1, None, slice(0, 4, 2))), ((4, 5), ()),
        ((4, 5), (slice(3, 1),)), ((2, 3, 4, 5), (slice(None), 1, slice(None, None, -1), slice(0, 5, 2))),
    ]
    for _ in range(60):
        shape = rng.choice(SHAPES)
        idx = random_index(shape)
        if not has_array(idx):
            wcases.append((shape, idx))
    for shape, idx in wcases:
        x0 = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
        try:
            region = x0[idx].shape
        except Exception:  # noqa: BLE001
            continue
        for opname, f in ops.items():
            for vshape in [(), region[-1:] if region else (), region]:
                v = rand_array(vshape, -50, 50)
                x = x0.copy()
                if f is None:
                    x[idx] = v
                else:
                    x[idx] = f(x[idx], v)
                lines.append("write %s %s %s %s:%s -> %s" % (fmt_shape(shape), fmt_index(idx), opname,
                                                             fmt_shape(v.shape), fmt_vals(v), fmt_vals(x)))
    # Integer-array writes: x[idx] = v and x[idx] = x[idx] op v (NumPy's x[idx] op= v: of
    # duplicate indices the last wins).
    for shape, idx in cases:
        if not has_array(idx) or any(isinstance(e, np.ndarray) and e.dtype == bool for e in idx):
            continue
        x0 = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
        try:
            region = x0[idx].shape
        except Exception:  # noqa: BLE001
            continue
        for opname, f in [("set", None), ("add", np.add), ("max", np.maximum)]:
            for vshape in [(), region[-1:] if region else (), region]:
                v = rand_array(vshape, -50, 50)
                x = x0.copy()
                x[idx] = v if f is None else f(x[idx], v)
                lines.append("write %s %s %s %s:%s -> %s" % (fmt_shape(shape), fmt_index(idx), opname,
                                                             fmt_shape(v.shape), fmt_vals(v), fmt_vals(x)))
    for shape in [(4, 5), (3, 4, 5), (7,)]:
        x0 = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
        for lead in range(1, len(shape) + 1):
            m = np.array([rng.random() < 0.5 for _ in range(int(np.prod(shape[:lead])))]).reshape(shape[:lead])
            for vshape in [(), shape[lead:], (int(m.sum()),) + tuple(shape[lead:])]:
                v = rand_array(vshape, -50, 50)
                for opname, f in ops.items():
                    x = x0.copy()
                    if f is None:
                        x[m] = v
                    else:
                        x[m] = f(x[m], v)
                    lines.append("write %s %s %s %s:%s -> %s" % (fmt_shape(shape), fmt_index((m,)), opname,
                                                                 fmt_shape(v.shape), fmt_vals(v), fmt_vals(x)))
    # Errors.
    errs = [((4, 5), (np.array([4]),)), ((4, 5), (slice(None), np.array([-6]))),
            ((4, 5), (np.array([0, 1]), np.array([0, 1, 2]))), ((4, 5), (0, 0, 0)),
            ((3, 4, 5), (np.array([1]), Ellipsis, Ellipsis))]
    for shape, idx in errs:
        x = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
        try:
            x[idx]
        except Exception as e:  # noqa: BLE001
            lines.append("error %s %s -> %s|%s" % (fmt_shape(shape), fmt_index(idx), type(e).__name__, str(e)))
    lines += ufunc_at_cases(cases)
    print("# NumPy %s: x = arange(size).reshape(shape), int64 (tools/gen_indexing_cases.py)" % np.__version__)
    print("\n".join(lines))


main()
