"""CuPy and PyTorch on bench_stats's cases (run on the GPU machine beside it).

torch.median returns the lower of the two middle values (not their mean) and torch.quantile takes
at most 2^24 elements: the 2^26-element percentile uses torch.sort and the same lerp instead.
Method and output: bench/peers_util.py (JSON to argv[1] when given).
"""
import sys

from peers_util import median_ms, row, write

n = 1 << 26
m = 8192


def cases(lib, xp, sync):
    if lib == "cupy":
        g = xp.random.default_rng(5)
        a = [g.standard_normal(n, dtype=xp.float32) for _ in range(2)]
    else:
        a = [xp.randn(n, device="cuda", dtype=xp.float32) for _ in range(2)]
    k = [0]

    def turn(f):
        def go():
            i = k[0] % 2
            k[0] += 1
            return f(a[i])
        return go
    q3 = [0.05, 0.5, 0.95]
    if lib == "cupy":
        row(lib + " median(x, axis=1), 8192^2 f32", median_ms(turn(lambda x: xp.median(x.reshape(m, m), axis=1)), sync))
        row(lib + " nanmedian(x, axis=1), 8192^2 f32", median_ms(turn(lambda x: xp.nanmedian(x.reshape(m, m), axis=1)), sync))
        row(lib + " quantile(x, {.05, .5, .95}, axis=1), 8192^2 f32",
            median_ms(turn(lambda x: xp.quantile(x.reshape(m, m), xp.array(q3), axis=1)), sync))
        row(lib + " percentile(x, {5, 50, 95}), 2^26 f32", median_ms(turn(lambda x: xp.percentile(x, xp.array([5.0, 50.0, 95.0]))), sync))
        row(lib + " median(x), 2^26 f32", median_ms(turn(lambda x: xp.median(x)), sync))
        row(lib + " nanvar(x, axis=1), 8192^2 f32", median_ms(turn(lambda x: xp.nanvar(x.reshape(m, m), axis=1)), sync))
        row(lib + " cov(x.T), 2^22 x 16 f32 observations (f64 result)",
            median_ms(turn(lambda x: xp.cov(x.reshape(n // 16, 16), rowvar=False)), sync))
        row(lib + " histogram(x, 256, range=(-4, 4)), 2^26 f32", median_ms(turn(lambda x: xp.histogram(x, 256, range=(-4, 4))), sync))
    else:
        row(lib + " median(x, dim=1), 8192^2 f32 (lower middle)",
            median_ms(turn(lambda x: xp.median(x.reshape(m, m), dim=1)), sync))
        row(lib + " nanmedian(x, dim=1), 8192^2 f32 (lower middle)",
            median_ms(turn(lambda x: xp.nanmedian(x.reshape(m, m), dim=1)), sync))
        qt = xp.tensor(q3, device="cuda", dtype=xp.float32)
        row(lib + " quantile(x, {.05, .5, .95}, dim=1), 8192^2 f32",
            median_ms(turn(lambda x: xp.quantile(x.reshape(m, m), qt, dim=1)), sync))

        def pct(x):
            s = xp.sort(x).values
            v = xp.tensor(q3, device="cuda", dtype=xp.float64) * (n - 1)
            lo = v.floor().long()
            hi = (lo + 1).clamp(max=n - 1)
            t = (v - lo).float()
            return s[lo] + (s[hi] - s[lo]) * t
        row(lib + " percentile(x, {5, 50, 95}), 2^26 f32 (sort + lerp)", median_ms(turn(pct), sync))
        row(lib + " median(x), 2^26 f32 (lower middle)", median_ms(turn(lambda x: xp.median(x)), sync))
        row(lib + " nanvar(x, dim=1), 8192^2 f32 (var, no nan form)",
            median_ms(turn(lambda x: xp.var(x.reshape(m, m), dim=1)), sync))
        row(lib + " cov(x.T), 2^22 x 16 f32 observations (f32 result)",
            median_ms(turn(lambda x: xp.cov(x.reshape(n // 16, 16).T)), sync))
        row(lib + " histc(x, 256, -4, 4), 2^26 f32", median_ms(turn(lambda x: xp.histc(x, 256, -4, 4)), sync))


try:
    import cupy as cp
    cases("cupy", cp, cp.cuda.get_current_stream().synchronize)
except Exception as e:  # noqa: BLE001
    print("cupy unavailable:", e)
try:
    import torch
    cases("torch", torch, torch.cuda.synchronize)
except Exception as e:  # noqa: BLE001
    print("torch unavailable:", e)
write(sys.argv)
