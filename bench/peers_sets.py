"""CuPy and PyTorch on bench_sets's cases (run on the GPU machine beside it): cupy.isin and
torch.isin of 2^26 int32/float32 elements against 2^16 test values, and the eager set functions
on 2^24 int32 elements (torch has unique and isin only; its rows are torch.unique's).

Method and output: bench/peers_util.py (JSON to argv[1] when given).
"""
import sys

from peers_util import median_ms, row, write

n = 1 << 26
m = 1 << 16
e = 1 << 24


def cases(lib, make, sync, isin, extra):
    for dtype in ("int32", "float32"):
        x = [make(n, 1 << 20, dtype, 1), make(n, 1 << 20, dtype, 2)]
        tests = make(m, 1 << 20, dtype, 3)
        k = [0]

        def one():
            i = k[0] % 2
            k[0] += 1
            return isin(x[i], tests)
        row("%s isin(x, tests), 2^26 %s x 2^16" % (lib, dtype), median_ms(one, sync))
    a = make(e, 1 << 22, "int32", 4)
    b = make(e, 1 << 22, "int32", 5)
    for name, f in extra(a, b):
        row("%s %s" % (lib, name), median_ms(f, sync))


try:
    import cupy as cp

    def cp_make(count, hi, dtype, seed):
        return cp.random.RandomState(seed).randint(0, hi, count, dtype=cp.int32).astype(dtype)

    def cp_extra(a, b):
        rows = (a % 16).reshape(e // 4, 4)
        return [("unique(a), 2^24 int32", lambda: cp.unique(a)),
                ("unique_all(a), 2^24 int32",
                 lambda: cp.unique(a, return_index=True, return_inverse=True, return_counts=True)),
                ("intersect1d(a, b), 2^24 int32 each", lambda: cp.intersect1d(a, b)),
                ("union1d(a, b), 2^24 int32 each", lambda: cp.union1d(a, b)),
                ("setdiff1d(a, b), 2^24 int32 each", lambda: cp.setdiff1d(a, b)),
                ("setxor1d(a, b), 2^24 int32 each", lambda: cp.setxor1d(a, b)),
                ("unique(rows, axis=0), 2^22 rows x 4 int32", lambda: cp.unique(rows, axis=0))]

    cases("cupy", cp_make, cp.cuda.get_current_stream().synchronize, cp.isin, cp_extra)
except Exception as ex:  # noqa: BLE001
    print("cupy unavailable:", ex)
try:
    import torch

    def torch_make(count, hi, dtype, seed):
        g = torch.Generator(device="cuda").manual_seed(seed)
        v = torch.randint(0, hi, (count,), device="cuda", dtype=torch.int32, generator=g)
        return v.to(getattr(torch, dtype))

    def torch_extra(a, b):
        rows = (a % 16).reshape(e // 4, 4)
        return [("unique(a), 2^24 int32", lambda: torch.unique(a)),
                ("unique_all(a), 2^24 int32 (inverse and counts)",
                 lambda: torch.unique(a, return_inverse=True, return_counts=True)),
                ("unique(rows, axis=0), 2^22 rows x 4 int32", lambda: torch.unique(rows, dim=0))]

    cases("torch", torch_make, torch.cuda.synchronize, torch.isin, torch_extra)
except Exception as ex:  # noqa: BLE001
    print("torch unavailable:", ex)
write(sys.argv)
