"""Writes the .npy fixtures the CPU tests compare loom's files with, where Debian's NumPy cannot
make them: tests/fixtures/npy/bfloat16.npy is np.save of an ml_dtypes bfloat16 array (JAX's),
(arange(12) % 7 - 3) shaped (3, 4). Run on the GPU machine (NumPy 2.5 and ml_dtypes there).
Usage: python3 tools/gen_npy_fixtures.py <out dir>"""
import os
import sys
import warnings

import ml_dtypes
import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
a = (np.arange(12) % 7 - 3).astype(ml_dtypes.bfloat16).reshape(3, 4)
with warnings.catch_warnings():
    warnings.simplefilter("error")  # a pickled (object) file would warn: fail instead
    np.save(os.path.join(out, "bfloat16.npy"), a)
with open(os.path.join(out, "bfloat16.npy"), "rb") as f:
    print("numpy", np.__version__, "ml_dtypes", ml_dtypes.__version__, "header:", f.read(128)[10:].split(b"\n")[0])
