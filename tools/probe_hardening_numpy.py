"""NumPy 2's answers to the write/cast/bincount/pad questions of the hardening issue (run where
NumPy 2 is): prints one line per probe, `expr -> result` or `expr -> ExceptionType: message`.
Usage: python3 tools/probe_hardening_numpy.py
"""
import warnings
import numpy as np

warnings.simplefilter("ignore")


def probe(text, env=None):
    g = {"np": np}
    if env:
        g.update(env)
    try:
        exec(text, g)
        r = g.get("r")
        if isinstance(r, np.ndarray):
            r = f"{r.tolist()} {r.dtype}"
        elif isinstance(r, tuple):
            r = tuple(f"{x.tolist()} {x.dtype}" if isinstance(x, np.ndarray) else x for x in r)
        print(f"{text} -> {r!r}")
    except Exception as e:  # noqa: BLE001
        print(f"{text} -> {type(e).__name__}: {e}")


print("numpy", np.__version__)
I8 = "a = np.zeros(4, np.int8); "
U8 = "a = np.zeros(4, np.uint8); "
I32 = "a = np.zeros(4, np.int32); "
I64 = "a = np.zeros(4, np.int64); "
for t in [
    I8 + "a[0] = 300; r = a",
    I8 + "a[0] = -129; r = a",
    I8 + "a[0] = 300.0; r = a",
    I8 + "a[0] = 1e10; r = a",
    I8 + "a[0] = np.int64(300); r = a",
    I8 + "a[0] = np.float64(300.0); r = a",
    I8 + "a[:] = np.array([300, 1, 2, 3]); r = a",
    I8 + "a[0] = np.array(300); r = a",
    I8 + "a[1:3] = 300; r = a",
    I8 + "a[[0, 1]] = 300; r = a",
    I8 + "a[[0, 1]] += 300; r = a",
    I8 + "a[a == 0] = 300; r = a",
    I8 + "a[0] += 300; r = a",
    I8 + "a += 300; r = a",
    I8 + "a[1:3] += 100; a[1:3] += 100; r = a",
    U8 + "a[0] = -1; r = a",
    U8 + "a[0] = -1.0; r = a",
    U8 + "a[[1]] = -1; r = a",
    I64 + "a[0] = np.nan; r = a",
    I64 + "a[0] = np.inf; r = a",
    I64 + "a[[0]] = np.nan; r = a",
    I64 + "a[a == 0] = np.nan; r = a",
    I64 + "a[:] = np.array([np.nan, 1, 2, 3]); r = a",
    I64 + "a[0] = 1e30; r = a",
    I32 + "a[1:3] += 1.5; r = a",
    I32 + "a[[1, 2]] += 1.5; r = a",
    I32 + "a[1:3] *= 1.5; r = a",
    I32 + "a[1:3] /= 2; r = a",
    I32 + "a[1:3] //= 2.0; r = a",
    I32 + "a[1:3] -= 1; r = a",
    I32 + "a[1:3] += np.int64(1); r = a",
    I32 + "a[1:3] += np.array([1, 2], np.int64); r = a",
    I32 + "a[1:3] += np.array([1.5, 2]); r = a",
    "a = np.zeros(4, np.bool_); a[1:3] += 1; r = a",
    "a = np.zeros(4, np.float32); a[1:3] += 1j; r = a",
    "a = np.zeros(4, np.float32); a[0] = 1e300; r = a",
    "a = np.zeros(4, np.float16); a[0] = 1e10; r = a",
    I8 + "np.put(a, [0], 300); r = a",
    I8 + "np.put(a, [0], 300.0); r = a",
    I64 + "np.put(a, [0], np.nan); r = a",
    I8 + "np.putmask(a, a == 0, 300); r = a",
    I8 + "np.place(a, a == 0, [300]); r = a",
    I8 + "np.copyto(a, 300); r = a",
    I64 + "np.copyto(a, np.nan); r = a",
    I8 + "r = np.insert(a, 0, 300)",
    I8 + "r = np.insert(a, 0, 300.0)",
    I64 + "r = np.insert(a, 0, np.nan)",
    I8 + "r = np.full(3, 300, np.int8)",
    I8 + "r = np.full(3, np.nan, np.int64)",
    I8 + "np.add.at(a, [0], 300); r = a",
    I8 + "np.add.at(a, [0, 0], 100); r = a",
    I32 + "np.add.at(a, [0, 0, 1], 1.5); r = a",
    I32 + "a[:] = 7; np.divide.at(a, [0, 0, 1], 2); r = a",
    I32 + "a[:] = 7; np.divide.at(a, [0], 2.5); r = a",
    I32 + "a[:] = 7; np.multiply.at(a, [0, 1], 1.5); r = a",
    I32 + "a[:] = 7; np.subtract.at(a, [0, 1], 0.5); r = a",
    I32 + "a[:] = 7; np.floor_divide.at(a, [0, 1], 2.0); r = a",
    I32 + "a[:] = 7; np.power.at(a, [0, 1], 0.5); r = a",
    I32 + "a[:] = 7; np.maximum.at(a, [0, 1], 7.5); r = a",
    I32 + "np.add.at(a, [0], np.nan); r = a",
    "a = np.zeros(4, np.bool_); np.add.at(a, [0], 1.5); r = a",
    "a = np.zeros(4, np.float32); np.add.at(a, [0], 1j); r = a",
    "r = np.bincount(np.array([2**63 - 1]))",
    "r = np.bincount(np.array([2**63 - 1]), minlength=3)",
    "r = np.bincount(np.array([0, 2, 2], np.uint64))",
    "r = np.bincount(np.array([0, 2, 2], np.uint64), weights=[1.0, 2.0, 3.0])",
    "r = np.bincount(np.array([2**64 - 1], np.uint64))",
    "r = np.bincount(np.array([2**63], np.uint64))",
    "r = np.bincount(np.array([0, 2], np.uint32))",
    "r = np.bincount(np.array([0, 2], np.int8))",
    "r = np.bincount(np.array([0, 2], np.uint8), minlength=5)",
    "r = np.power(np.array([-np.inf, -1.0, -0.0, 0.0, 4.0, np.inf, np.nan], np.float32), 0.5)",
    "r = np.array([-np.inf, -1.0, -0.0, 4.0], np.float32) ** 0.5",
    "r = np.power(np.array([-np.inf, -1.0, -0.0, 4.0], np.float64), np.float64(0.5))",
    "r = np.power(np.array([-np.inf, -1.0, -0.0, 4.0], np.float64), np.array([0.5]))",
    "r = np.power(np.array([-np.inf, 0.0, 3.0], np.float64), 2.0)",
    "r = np.power(np.array([-np.inf, 0.0, 3.0], np.float64), -1.0)",
    "r = np.power(np.array([-np.inf, 0.0, 3.0], np.float64), 1.0)",
    "r = np.power(np.array([-np.inf, -0.0, 3.0], np.float64), -0.5)",
    "r = np.power(np.array([-8.0, -0.0, 3.0], np.float64), 1.0/3)",
    "r = np.power(np.array([1+1j, -4+0j]), 0.5)",
    "r = np.power(np.array([1, 4], np.int64), 0.5)",
    "r = np.power(np.array([2, 4], np.int32), 2)",
    "r = np.pad(np.arange(5.0), 2, mode='median', stat_length=0)",
    "r = np.pad(np.arange(5.0), 2, mode='mean', stat_length=0)",
    "r = np.pad(np.arange(5.0), 2, mode='maximum', stat_length=0)",
    "r = np.pad(np.arange(5), 2, mode='median', stat_length=0)",
    "r = np.pad(np.arange(5), 2, mode='mean', stat_length=0)",
    "r = np.pad(np.arange(5), 2, mode='minimum', stat_length=0)",
    "r = np.pad(np.arange(3), 2**62)",
    "r = np.pad(np.arange(3), 2**63 - 1)",
    "r = np.pad(np.arange(3), (0, 2**62))",
    "r = np.pad(np.zeros((2, 2)), 2**31)",
    "r = np.linalg.lstsq(np.eye(3), np.ones(3), rcond=None)",
    "r = np.linalg.lstsq(np.eye(3, dtype=np.float32), np.ones(3, np.float32), rcond=None)[2].dtype",
    "r = np.split(np.arange(6), [2])",
    "r = np.take(np.arange(5), [7])",
    "r = np.take(np.arange(5), [7], mode='raise')",
    "r = np.take(np.arange(5), [-6])",
    "r = np.take(np.arange(5), [-5, 4])",
    "r = np.take(np.arange(5), [7], mode='clip')",
    "r = np.take(np.arange(5), [7, -1], mode='wrap')",
    "a = np.arange(6); a.sort(); r = a",
    "r = np.array([0, 3, 5])",
    "r = np.arange(5, dtype=np.float32)",
    "r = np.arange(0, 5, 2, dtype=np.int8)",
    "r = np.arange(1.5, dtype=np.int32)",
    "r = np.arange(300, dtype=np.int8)",
    "r = np.arange(5, dtype=np.bool_)",
    "r = np.arange(2, dtype=np.bool_)",
    "r = np.arange(3, dtype=np.complex64)",
    "r = (np.nan, np.inf, np.pi, np.e)",
]:
    probe(t)
