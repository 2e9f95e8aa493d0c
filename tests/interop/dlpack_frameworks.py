"""DLPack between loom and PyTorch / CuPy on the GPU machine (issue 17): capsules pass both ways
through tests/interop/dlpack_bridge.cpp (libloom_dlpack_bridge.so, loaded with ctypes); values
are checked, and the device pointer on both sides is the same (no copy).
Usage: python3 tests/interop/dlpack_frameworks.py <build>/tests/libloom_dlpack_bridge.so [--numpy]
With --numpy (a machine without a GPU, where loom's arrays are in host memory: DLPack's kDLCPU),
the same checks run against NumPy instead (a CPU test)."""
import ctypes
import sys

lib = ctypes.CDLL(sys.argv[1])
lib.loom_bridge_export.restype = ctypes.c_void_p
lib.loom_bridge_export.argtypes = [ctypes.c_int64, ctypes.c_int64, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]
lib.loom_bridge_import.restype = ctypes.c_double
lib.loom_bridge_import.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
py = ctypes.pythonapi
py.PyCapsule_New.restype = ctypes.py_object
py.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
py.PyCapsule_GetPointer.restype = ctypes.c_void_p
py.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
py.PyCapsule_SetName.restype = ctypes.c_int
py.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]

failures = 0


def check(what, ok):
    global failures
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    failures += 0 if ok else 1


def from_loom(n, rows, transposed):
    ptr = ctypes.c_void_p()
    managed = lib.loom_bridge_export(n, rows, transposed, ctypes.byref(ptr))
    return py.PyCapsule_New(managed, b"dltensor", None), ptr.value


def to_loom(capsule):
    managed = py.PyCapsule_GetPointer(capsule, b"dltensor")
    py.PyCapsule_SetName(capsule, b"used_dltensor")  # consumed: the capsule no longer owns it
    ptr = ctypes.c_void_p()
    total = lib.loom_bridge_import(managed, ctypes.byref(ptr))
    return total, ptr.value


def run(name, from_dlpack, to_dlpack, arange, data_ptr, sync):
    for n, rows, tr in [(12, 3, 0), (12, 3, 1), (1 << 20, 1024, 1), (0, 1, 0)]:
        cap, ptr = from_loom(n, rows, tr)
        t = from_dlpack(cap)
        want = (arange(n) * 2 + 1).reshape(rows, n // rows if rows else 0)
        if tr:
            want = want.T
        check("%s from loom: values n=%d transposed=%d" % (name, n, tr), bool((t == want).all()) and t.shape == want.shape)
        check("%s from loom: the same memory" % name, n == 0 or data_ptr(t) == ptr)
    x = (arange(1 << 16) * 0.5).reshape(256, 256)
    for t in [x, x.T, x[::2, 1::3]]:
        sync()
        total, ptr = to_loom(to_dlpack(t))
        check("%s to loom: values" % name, abs(total - float(t.sum()) * 3) <= 1e-6 * abs(total))
        check("%s to loom: the same memory" % name, ptr == data_ptr(t))


if "--numpy" in sys.argv:
    import numpy as np

    if lib.loom_bridge_gpus() > 0:
        print("loom has a GPU: its arrays are not host memory (run the torch and cupy checks)")
        sys.exit(77)

    class Capsule:  # what np.from_dlpack takes: an object with __dlpack__ and __dlpack_device__
        def __init__(self, c):
            self.c = c

        def __dlpack__(self, stream=None):
            return self.c

        def __dlpack_device__(self):
            return (1, 0)

    run("numpy", lambda c: np.from_dlpack(Capsule(c)), lambda t: t.__dlpack__(),
        lambda n: np.arange(n, dtype=np.float32), lambda t: t.ctypes.data, lambda: None)
    print("dlpack interop: %s" % ("all passed" if failures == 0 else "%d FAILED" % failures))
    sys.exit(1 if failures else 0)
try:
    import torch
    import torch.utils.dlpack as tdl
    run("torch", tdl.from_dlpack, tdl.to_dlpack, lambda n: torch.arange(n, dtype=torch.float32, device="cuda"),
        lambda t: t.data_ptr(), torch.cuda.synchronize)
except ImportError:
    print("no torch")
try:
    import cupy as cp
    # __dlpack__() without max_version: the unversioned "dltensor" capsule (DLPack 0.6, Debian's header)
    run("cupy", cp.from_dlpack, lambda t: t.__dlpack__(), lambda n: cp.arange(n, dtype=cp.float32),
        lambda t: t.data.ptr, cp.cuda.Device().synchronize)
except ImportError:
    print("no cupy")
print("dlpack interop: %s" % ("all passed" if failures == 0 else "%d FAILED" % failures))
sys.exit(1 if failures else 0)
