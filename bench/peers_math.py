"""CuPy and PyTorch on bench_math's cases (run on the GPU machine beside it).

Method and output: bench/peers_util.py (JSON to argv[1] when given).
"""
import sys

from peers_util import median_ms, row, write

n = 1 << 26
m = 8192


def cases(lib, xp, sync, allclose, isclose, equal, logaddexp, nan_to_num, sinc, diff, cross, trapezoid):
    ar = xp.arange(n, dtype=xp.float32) if lib == "cupy" else xp.arange(n, device="cuda", dtype=xp.float32)
    a = [ar * 1e-7, ar * 2e-7]
    b = [x + 1e-9 for x in a]
    k = [0]

    def turn(f):
        def g():
            i = k[0] % 2
            k[0] += 1
            return f(a[i], b[i])
        return g
    row(lib + " allclose(a, b), 2^26 f32", median_ms(turn(lambda x, y: bool(allclose(x, y))), sync))
    row(lib + " isclose(a, b), 2^26 f32", median_ms(turn(isclose), sync))
    row(lib + " array_equal(a, b), 2^26 f32", median_ms(turn(lambda x, y: bool(equal(x, y))), sync))
    row(lib + " logaddexp(a, b), 2^26 f32", median_ms(turn(logaddexp), sync))
    row(lib + " nan_to_num(a / b), 2^26 f32", median_ms(turn(lambda x, y: nan_to_num(x / y)), sync))
    row(lib + " sinc(a), 2^26 f32", median_ms(turn(lambda x, y: sinc(x)), sync))
    row(lib + " diff(x, axis=1), 8192^2 f32", median_ms(turn(lambda x, y: diff(x.reshape(m, m), 1)), sync))
    row(lib + " diff(x, axis=0), 8192^2 f32", median_ms(turn(lambda x, y: diff(x.reshape(m, m), 0)), sync))
    nv = n // 3
    row(lib + " cross(u, v), 2^26/3 3-vectors f32",
        median_ms(turn(lambda x, y: cross(x[:3 * nv].reshape(nv, 3), y[:3 * nv].reshape(nv, 3))), sync))
    row(lib + " trapezoid(x, axis=1), 8192^2 f32", median_ms(turn(lambda x, y: trapezoid(x.reshape(m, m))), sync))
    u = [xp.sin(ar * 0.001), xp.cos(ar * 0.001)]

    def turn_u(f):
        def g():
            i = k[0] % 2
            k[0] += 1
            return f(u[i])
        return g
    if lib == "cupy":
        row(lib + " histogram(x, 256, range=(-1, 1)), 2^26 f32", median_ms(turn_u(lambda x: xp.histogram(x, 256, range=(-1, 1))), sync))
        row(lib + " histogram(x, 256), 2^26 f32 (range from the data)", median_ms(turn_u(lambda x: xp.histogram(x, 256)), sync))
        e = xp.linspace(-1, 1, 101).astype(xp.float32)
        row(lib + " digitize(x, 101 edges), 2^26 f32", median_ms(turn_u(lambda x: xp.digitize(x, e)), sync))
    else:
        row(lib + " histc(x, 256, -1, 1), 2^26 f32", median_ms(turn_u(lambda x: xp.histc(x, 256, -1, 1)), sync))
        row(lib + " histogram(x, 256), 2^26 f32 (histc, range from the data)", median_ms(turn_u(lambda x: xp.histc(x, 256)), sync))
        e = xp.linspace(-1, 1, 101, device="cuda", dtype=xp.float32)
        row(lib + " bucketize(x, 101 edges, right=True), 2^26 f32", median_ms(turn_u(lambda x: xp.bucketize(x, e, right=True)), sync))


try:
    import cupy as cp
    cases("cupy", cp, cp.cuda.get_current_stream().synchronize, cp.allclose, cp.isclose, cp.array_equal,
          cp.logaddexp, cp.nan_to_num, cp.sinc, lambda x, ax: cp.diff(x, axis=ax), cp.cross,
          lambda x: cp.trapezoid(x, axis=1) if hasattr(cp, "trapezoid") else cp.trapz(x, axis=1))
except Exception as e:  # noqa: BLE001
    print("cupy unavailable:", e)
try:
    import torch
    cases("torch", torch, torch.cuda.synchronize, torch.allclose, torch.isclose, torch.equal, torch.logaddexp,
          torch.nan_to_num, torch.sinc, lambda x, ax: torch.diff(x, dim=ax), lambda x, y: torch.linalg.cross(x, y),
          lambda x: torch.trapezoid(x, dim=1))
except Exception as e:  # noqa: BLE001
    print("torch unavailable:", e)
write(sys.argv)
