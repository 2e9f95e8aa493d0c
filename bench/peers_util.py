"""What the peers' scripts (bench/peers_*.py) share: bench/bench_util.hpp's method in Python
(median of 20 calls after 3 warm-up calls, each followed by a synchronize), one printed line and
one JSON row per case."""
import json
import time

rows = []


def median_ms(f, sync, reps=20, warm=3):
    for _ in range(warm):
        f()
    sync()
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        sync()
        t.append((time.perf_counter() - t0) * 1e3)
    t.sort()
    return t[len(t) // 2]


def row(name, ms):
    print("%-60s %9.4f ms" % (name, ms), flush=True)
    rows.append({"name": name, "ms": ms})


def write(argv):
    if len(argv) > 1:
        with open(argv[1], "w") as f:
            json.dump({"rows": rows}, f, indent=1)
