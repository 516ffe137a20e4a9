"""Timing for the device scripts of tools/dev: ``timed(fn)`` -> (median ms, min ms, last result).

Each call is synchronised with the current CUDA device when CuPy is present; one warm-up call first;
``slow``: a warm-up that took longer than this many seconds is the only run (reps 1).
"""
import statistics
import time

try:
    import cupy as _cp
    _sync = _cp.cuda.Device().synchronize
except ImportError:          # the CPU engine alone
    def _sync():
        pass


def timed(fn, reps=5, slow=None):
    t = time.perf_counter()
    out = fn()
    _sync()
    first = 1e3 * (time.perf_counter() - t)
    if slow is not None and first > 1e3 * slow:
        return first, first, out
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        _sync()
        ts.append(1e3 * (time.perf_counter() - t))
    return statistics.median(ts), min(ts), out
