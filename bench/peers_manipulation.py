"""CuPy and PyTorch on bench_manipulation's cases (run on the GPU machine beside it).

Method and output: bench/peers_util.py (JSON to argv[1] when given).
"""
import sys

from peers_util import median_ms, row, write

n = 1 << 24


def cases(lib, xp, sync, pad_reflect, tile, repeat, roll, cat, exp, stack):
    a, b, c, d = [xp.random.uniform(-1, 1, n).astype(xp.float32) if lib == "cupy" else
                  xp.rand(n, device="cuda", dtype=xp.float32) * 2 - 1 for _ in range(4)]
    row(lib + " concatenate(a*2, b+1, exp(c), d-a)", median_ms(lambda: cat([a * 2, b + 1, exp(c), d - a]), sync))
    row(lib + " concatenate of 4 buffers", median_ms(lambda: cat([a, b, c, d]), sync))
    u = (xp.concatenate([a, b, c, d]) if lib == "cupy" else xp.cat([a, b, c, d])).reshape(8192, 8192)

    def padded():
        p = pad_reflect(u)
        return p[1:-1, 1:-1] + 0.1 * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * p[1:-1, 1:-1])
    row(lib + " pad(u, 1, reflect) + 5-point stencil, 8192^2", median_ms(padded, sync))
    x = a.reshape(4096, 4096)
    row(lib + " tile(x, (2, 2)) + 1", median_ms(lambda: tile(x) + 1, sync))
    row(lib + " repeat(x, 4, axis=1) + 1", median_ms(lambda: repeat(x) + 1, sync))
    row(lib + " roll(u, 1000, axis=1) + 1, 8192^2", median_ms(lambda: roll(u) + 1, sync))
    parts = [a[k << 14:(k << 14) + (1 << 20)] + 0 for k in range(64)]
    row(lib + " stack of 64 arrays of 2^20", median_ms(lambda: stack(parts), sync))


try:
    import cupy as cp
    cases("cupy", cp, cp.cuda.get_current_stream().synchronize, lambda u: cp.pad(u, 1, mode="reflect"),
          lambda x: cp.tile(x, (2, 2)), lambda x: cp.repeat(x, 4, axis=1), lambda x: cp.roll(x, 1000, axis=1),
          cp.concatenate, cp.exp, cp.stack)
except Exception as e:  # noqa: BLE001
    print("cupy unavailable:", e)
try:
    import torch
    import torch.nn.functional as F
    cases("torch", torch, torch.cuda.synchronize,
          lambda u: F.pad(u[None, None], (1, 1, 1, 1), mode="reflect")[0, 0],
          lambda x: x.tile((2, 2)), lambda x: x.repeat_interleave(4, dim=1), lambda x: torch.roll(x, 1000, 1),
          torch.cat, torch.exp, torch.stack)
except Exception as e:  # noqa: BLE001
    print("torch unavailable:", e)
write(sys.argv)
