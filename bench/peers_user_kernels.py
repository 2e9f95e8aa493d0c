"""CuPy on bench_user_kernels' cases (user kernels): squared_diff as an ElementwiseKernel on 2^26
float32, the l2norm ReductionKernel over axis 1 of 8192^2, ElementwiseKernel + multiply + sum, and
cupy.bincount of 2^26 int32 into 1024 bins beside a RawKernel with atomicAdd.
Usage: python3 bench/peers_user_kernels.py [out.json]"""
import sys

import cupy as cp

from peers_util import median_ms, row, write

sync = cp.cuda.Device().synchronize
n = 1 << 26
x = cp.random.uniform(-1, 1, n).astype(cp.float32)
y = cp.random.uniform(-1, 1, n).astype(cp.float32)
squared_diff = cp.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")
row("cupy squared_diff (ElementwiseKernel), 2^26 f32", median_ms(lambda: squared_diff(x, y), sync))
h = 8192
m = cp.random.uniform(-1, 1, (h, h)).astype(cp.float32)
m2 = cp.random.uniform(-1, 1, (h, h)).astype(cp.float32)
w = cp.random.uniform(-1, 1, (h, h)).astype(cp.float32)
l2norm = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
row("cupy l2norm ReductionKernel, axis 1 of 8192^2", median_ms(lambda: l2norm(m, axis=1), sync))
row("cupy sum(squared_diff(x, y) * w, 1), 8192^2", median_ms(lambda: cp.sum(squared_diff(m, m2) * w, 1), sync))
v = cp.random.randint(0, 1024, n).astype(cp.int32)
count = cp.RawKernel(r'''extern "C" __global__ void count(const int* x, long long n, int* bins) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    atomicAdd(&bins[x[i]], 1);
}''', "count")


def raw():
    bins = cp.zeros(1024, cp.int32)
    count((132 * 8,), (256,), (v, cp.int64(n), bins))


row("cupy bincount through a RawKernel (atomicAdd), 2^26 into 1024", median_ms(raw, sync))
row("cupy.bincount, the same", median_ms(lambda: cp.bincount(v, minlength=1024), sync))
write(sys.argv)
