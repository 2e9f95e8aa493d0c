"""The peers on bench_interop's cases: a DLPack round trip in CuPy and in PyTorch (export, then
import of the capsule, no copy), and a 1 GiB float32 array saved with numpy.save(cupy.asnumpy(x))
and loaded with cupy.asarray(numpy.load(path)) (each save to a new file; the load read back from
the page cache, as loom's).
Usage: python3 bench/peers_interop.py [out.json]"""
import os
import sys
import tempfile

import cupy as cp
import numpy as np

from peers_util import median_ms, row, write

sync = cp.cuda.Device().synchronize
a = cp.random.uniform(0, 1, 1 << 20).astype(cp.float32)
row("cupy from_dlpack(x.__dlpack__()) round trip, 2^20 f32", median_ms(lambda: cp.from_dlpack(a), sync, reps=2000, warm=100))
try:
    import torch
    import torch.utils.dlpack as tdl

    t = torch.rand(1 << 20, device="cuda")
    row("torch from_dlpack(to_dlpack(t)) round trip, 2^20 f32",
        median_ms(lambda: tdl.from_dlpack(tdl.to_dlpack(t)), torch.cuda.synchronize, reps=2000, warm=100))
except ImportError:
    print("no torch")
n = 1 << 28
big = cp.random.uniform(0, 1, n).astype(cp.float32)
paths = []


def save():  # to a new file each time, as bench_interop (overwriting waits for the old file's writeback)
    paths.append(os.path.join(tempfile.gettempdir(), "peers_interop%d.npy" % len(paths)))
    np.save(paths[-1], cp.asnumpy(big))


row("numpy.save(cupy.asnumpy(x)) to a new file, 1 GiB f32", median_ms(save, sync, reps=5, warm=1))
row("cupy.asarray(numpy.load(path)), 1 GiB f32", median_ms(lambda: cp.asarray(np.load(paths[0])), sync, reps=5, warm=1))
for p in paths:
    os.remove(p)
write(sys.argv)
