"""Writes NumPy's answers for CuPy's three user-kernel seed examples (tests/gpu/test_user_kernels_gpu.cpp
runs them as loom ElementwiseKernel, ReductionKernel and RawKernel calls on the GPU).

Inputs (built the same way in the test): x = (arange(1000) * 37 % 101) as float32 / 7 - 3,
y = (arange(1000) * 53 % 89) as float32 / 5 - 4, v = arange(1000) * 7919 % 97 as int32.
Lines: squared_diff <1000 values>; l2norm <20 values: axis 1 of x.reshape(20, 50)>;
bincount <97 counts>. Floats as repr of the float32 value.
Usage (where NumPy 2 is): python3 tools/gen_user_kernel_cases.py > tests/gpu/user_kernel_cases.txt
"""
import numpy as np

n = 1000
f32 = np.float32
x = (np.arange(n) * 37 % 101).astype(f32) / f32(7) - f32(3)
y = (np.arange(n) * 53 % 89).astype(f32) / f32(5) - f32(4)
v = (np.arange(n) * 7919 % 97).astype(np.int32)
print("# NumPy %s: CuPy's user-kernel seed examples (tools/gen_user_kernel_cases.py)" % np.__version__)
print("squared_diff " + ",".join(repr(float(a)) for a in (x - y) * (x - y)))
print("l2norm " + ",".join(repr(float(a)) for a in np.sqrt(np.sum(x.reshape(20, 50) ** 2, axis=1))))
print("bincount " + ",".join(str(int(a)) for a in np.bincount(v)))
