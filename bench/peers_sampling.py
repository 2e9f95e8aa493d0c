"""CuPy and PyTorch on bench_sampling's cases (run on the GPU machine beside it).

Method and output: bench/peers_util.py (JSON to argv[1] when given). PyTorch has no
choice without replacement: torch.randperm(n)[:k] is its idiom; torch.multinomial draws by
weights (without replacement: the same Gumbel/exponential-key method). Its gamma is
torch.distributions.Gamma(...).sample(), its binomial torch.binomial.
"""
import sys

from peers_util import median_ms, row, write

n = 1 << 26
k = 1 << 20

try:
    import cupy as cp
    sync = cp.cuda.get_current_stream().synchronize
    g = cp.random.default_rng(1234)
    if hasattr(g, "choice"):
        row("cupy Generator.choice(2^26, 2^20, replace=False)", median_ms(lambda: g.choice(n, k, replace=False), sync))
    row("cupy random.choice(2^26, 2^20, replace=False) (legacy)", median_ms(lambda: cp.random.choice(n, k, replace=False), sync))
    row("cupy choice(2^26, 2^20) with replacement", median_ms(lambda: cp.random.choice(n, k), sync))
    row("cupy permutation(2^26)", median_ms(lambda: cp.random.permutation(n), sync))
    row("cupy standard_gamma(2.5) 2^26 float64", median_ms(lambda: g.standard_gamma(2.5, n), sync))
    row("cupy standard_gamma(0.5) 2^26 float64", median_ms(lambda: g.standard_gamma(0.5, n), sync))
    row("cupy gamma(2.5, 3) 2^26 float32", median_ms(lambda: g.gamma(2.5, 3, n).astype(cp.float32), sync))
    row("cupy binomial(100, 0.3) 2^26", median_ms(lambda: cp.random.binomial(100, 0.3, n), sync))
    row("cupy binomial(20, 0.1) 2^26", median_ms(lambda: cp.random.binomial(20, 0.1, n), sync))
    row("cupy laplace(0, 1) 2^26 float64", median_ms(lambda: cp.random.laplace(0, 1, n), sync))
except Exception as e:  # noqa: BLE001
    print("cupy unavailable:", e)
try:
    import torch
    sync = torch.cuda.synchronize
    torch.manual_seed(1234)
    w = torch.ones(n, device="cuda")
    row("torch randperm(2^26)[:2^20]", median_ms(lambda: torch.randperm(n, device="cuda")[:k], sync))
    row("torch multinomial(ones(2^26), 2^20, replacement=False)", median_ms(lambda: torch.multinomial(w, k), sync))
    row("torch randint(0, 2^26, (2^20,)) with replacement", median_ms(lambda: torch.randint(0, n, (k,), device="cuda"), sync))
    row("torch randperm(2^26)", median_ms(lambda: torch.randperm(n, device="cuda"), sync))
    conc = torch.full((n,), 2.5, dtype=torch.float64, device="cuda")
    row("torch Gamma(2.5).sample() 2^26 float64", median_ms(lambda: torch._standard_gamma(conc), sync))
    half = torch.full((n,), 0.5, dtype=torch.float64, device="cuda")
    row("torch Gamma(0.5).sample() 2^26 float64", median_ms(lambda: torch._standard_gamma(half), sync))
    cnt = torch.full((n,), 100.0, device="cuda")
    row("torch binomial(100, 0.3) 2^26", median_ms(lambda: torch.binomial(cnt, torch.full_like(cnt, 0.3)), sync))
    row("torch Laplace(0, 1).sample() 2^26 float64",
        median_ms(lambda: torch.distributions.Laplace(torch.tensor(0.0, dtype=torch.float64, device="cuda"),
                                                      torch.tensor(1.0, dtype=torch.float64, device="cuda")).sample((n,)), sync))
except Exception as e:  # noqa: BLE001
    print("torch unavailable:", e)
write(sys.argv)
