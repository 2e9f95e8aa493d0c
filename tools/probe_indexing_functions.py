"""NumPy's answers for the indexing functions that tests/unit/api/test_indexing.cpp checks by hand
(putmask, place, copyto, select, choose, compress, extract, argwhere, and their errors): run where
NumPy 2 is and compare with the values in the test."""
import numpy as np
a = np.arange(12).reshape(3, 4)
x = a.copy(); np.putmask(x, x % 3 == 0, np.array([-1, -2, -3, -4, -5])); print("putmask", x.ravel().tolist())
x = a.copy(); np.place(x, x % 5 == 1, np.array([100, 200])); print("place", x.ravel().tolist())
x = a.astype(np.float32); np.copyto(x, np.array([9, 8, 7, 6], dtype=np.int32), where=a > 5); print("copyto", x.ravel().tolist())
print("select", np.select([a < 3, a > 8], [a, -a], 42).ravel().tolist())
print("choose", np.choose(np.array([[0, 1, 2, 0]] * 3) , [a, a * 10, np.array(-1)]).ravel().tolist())
print("compress", np.compress([True, False, True], a, axis=0).ravel().tolist(), np.compress([False, True], a).tolist())
print("extract", np.extract(a % 4 == 1, a).tolist())
print("argwhere", np.argwhere(a % 5 == 0).ravel().tolist(), np.argwhere(a % 5 == 0).shape)
try:
    np.copyto(np.zeros(3, np.int32), np.ones(3))
except Exception as e: print(type(e).__name__, e)
try:
    np.choose(np.array([0, 3]), [np.arange(2), np.arange(2)])
except Exception as e: print(type(e).__name__, e)
try:
    x = np.zeros(3); np.place(x, x == 0, [])
except Exception as e: print(type(e).__name__, e)
s = np.zeros(5, np.float32); d = np.array([1, 3, 1, -1]); s[d] = [10, 20, 30, 40]; print("scatter", s.tolist()); s[d] += 1; print("scatter+=", s.tolist())
p = np.arange(6); np.put(p, [0, -1, 7], [9, 8], mode="wrap"); print("put", p.tolist())
q = np.arange(6).reshape(2, 3); np.put_along_axis(q, np.array([[2], [0]]), -7, 1); print("put_along_axis", q.ravel().tolist())
