"""CuPy and PyTorch on bench_indexing's cases (run on the GPU machine beside bench_indexing).

Method and output: bench/peers_util.py (JSON to argv[1] when given).
"""
import sys

from peers_util import median_ms, row, write

n = 1 << 26
try:
    import cupy as cp
    s = cp.cuda.get_current_stream().synchronize
    x = cp.random.uniform(-1, 1, n, dtype=cp.float32)
    idx = cp.random.randint(0, n, n, dtype=cp.int64)
    row("cupy x[idx]", median_ms(lambda: x[idx], s))
    row("cupy take(x, idx)", median_ms(lambda: cp.take(x, idx), s))
    big = cp.zeros((8192, 8192), cp.float32)
    reg = cp.random.uniform(0, 1, (4096, 4096), dtype=cp.float32)

    def cp_region():
        big[1024:5120, 2048:6144] = reg
    row("cupy region write (in place)", median_ms(cp_region, s))

    def cp_mask():
        y = x.copy()
        y[y < 0] = 0
    row("cupy y = x.copy(); y[y < 0] = 0", median_ms(cp_mask, s))
    row("cupy where(x < 0, 0, x)", median_ms(lambda: cp.where(x < 0, cp.float32(0), x), s))
    u = cp.random.uniform(0, 1, (4096, 4096), dtype=cp.float32)

    def cp_heat():
        v = u.copy()
        v[1:-1, 1:-1] = u[1:-1, 1:-1] + 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1])
        v[0] = 0
        v[-1] = 0
        v[:, 0] = 0
        v[:, -1] = 0
    row("cupy heat step", median_ms(cp_heat, s))
    del x, idx, big, reg, u
    import cupyx
    w = cp.random.uniform(-1, 1, n, dtype=cp.float32)
    for bins in (1024, 1 << 20):
        pos = cp.random.randint(0, bins, n, dtype=cp.int64)
        y = cp.zeros(bins, cp.float32)
        row("cupyx.scatter_add f32 of 2^26 into %d bins" % bins, median_ms(lambda: cupyx.scatter_add(y, pos, w), s))
        row("cupy.bincount weights f32 of 2^26 into %d bins" % bins, median_ms(lambda: cp.bincount(pos, weights=w), s))
        row("cupy.bincount counts of 2^26 into %d bins" % bins, median_ms(lambda: cp.bincount(pos), s))
    del w, pos, y
    cp.get_default_memory_pool().free_all_blocks()
except Exception as e:  # noqa: BLE001
    print("cupy: %s" % e)

try:
    import torch
    s = torch.cuda.synchronize
    x = torch.rand(n, device="cuda") * 2 - 1
    idx = torch.randint(0, n, (n,), device="cuda", dtype=torch.int64)
    row("torch.index_select(x, 0, idx)", median_ms(lambda: torch.index_select(x, 0, idx), s))
    row("torch x[idx]", median_ms(lambda: x[idx], s))
    big = torch.zeros((8192, 8192), device="cuda")
    reg = torch.rand((4096, 4096), device="cuda")

    def t_region():
        big[1024:5120, 2048:6144] = reg
    row("torch region write (in place)", median_ms(t_region, s))

    def t_mask():
        y = x.clone()
        y[y < 0] = 0
    row("torch y = x.clone(); y[y < 0] = 0", median_ms(t_mask, s))
    row("torch where(x < 0, 0, x)", median_ms(lambda: torch.where(x < 0, 0.0, x), s))
    u = torch.rand((4096, 4096), device="cuda")

    def t_heat():
        v = u.clone()
        v[1:-1, 1:-1] = u[1:-1, 1:-1] + 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1])
        v[0] = 0
        v[-1] = 0
        v[:, 0] = 0
        v[:, -1] = 0
    row("torch heat step", median_ms(t_heat, s))
    w = torch.rand(n, device="cuda") * 2 - 1
    for bins in (1024, 1 << 20):
        pos = torch.randint(0, bins, (n,), device="cuda", dtype=torch.int64)
        y = torch.zeros(bins, device="cuda")
        row("torch index_add_ f32 of 2^26 into %d bins" % bins, median_ms(lambda: y.index_add_(0, pos, w), s))
        row("torch.bincount weights f32 of 2^26 into %d bins" % bins,
            median_ms(lambda: torch.bincount(pos, weights=w, minlength=bins), s))
        row("torch.bincount counts of 2^26 into %d bins" % bins, median_ms(lambda: torch.bincount(pos), s))
        try:
            torch.use_deterministic_algorithms(True)
            row("torch index_add_ deterministic of 2^26 into %d bins" % bins,
                median_ms(lambda: y.index_add_(0, pos, w), s))
        except Exception as e:  # noqa: BLE001
            print("torch deterministic index_add_: %s" % e)
        finally:
            torch.use_deterministic_algorithms(False)
except Exception as e:  # noqa: BLE001
    print("torch: %s" % e)

write(sys.argv)
