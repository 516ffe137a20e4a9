"""Brandes' betweenness for a batch of sources in one compiled loop, the sources shared among threads.

Per source: a BFS that counts shortest paths (``sigma``) a level at a time and
records the visit order, then a sweep back along that order that accumulates
each vertex's dependency ``delta[v] = sigma[v] * sum over children w of (1 +
delta[w]) / sigma[w]`` (children: out-neighbours one level further).

Path counts outgrow float64 (binomial coefficients on a grid), so each level's
counts are divided, once the level is complete, by the power of two
``2^e_d`` that centres their binary exponents on 0 (the algebra's ``D_d`` in
``la_graph/algorithms/betweenness.py``; exact, so the result is bit for bit the
unscaled one wherever that one is finite).  A level whose counts span more than
``2^SPREAD`` stops its source: ``failed[i]`` is that level, the caller raises.

The sweep goes a level at a time and keeps ``coef[w] = (1 + delta[w]) / sigma[w]``
of the level below, times ``2^-e`` of that level (so that the sum over
children is at the scale of the parent's level), set once that level is
finished and 0 elsewhere: an out-neighbour is at most a level deeper, so the
sum over children is the sum of ``coef`` over all out-neighbours (one read per
edge, no level test).

Each thread keeps its own work arrays and its own row of sums, all allocated by
the caller, and :func:`brandes` returns one int (where to resume): a kernel call does a
bounded batch of sources and builds no Python object but that int, so a Ctrl-C that
arrives during the call is raised by Python as the call returns (boxing a
returned array runs Python code that would meet the pending signal and leave
the interpreter with an exception set: a SystemError or a crash).
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba import prange

from ....exceptions import NumericRangeError
from ..objects import _unsigned
from ._common import _drive, fuses

#: the algebra's COUNT_SPREAD: the largest binary-exponent spread of one source's counts at one level
SPREAD = 1800


def work_arrays(threads, n):
    """Per-thread scratch of :func:`brandes` for ``n`` vertices, in its reset state (reused across calls)."""
    # BFS levels (below n) in int32 where n fits it: half the bytes; int64 past 2**31 vertices
    level = np.int32 if n <= np.iinfo(np.int32).max else np.int64
    return (np.full((threads, n), -1, level), np.zeros((threads, n)), np.zeros((threads, n)),
            np.empty((threads, n)), np.empty((threads, n), np.int64), np.empty((threads, n + 1)))


@numba.njit(cache=True, nogil=True, parallel=True)
def brandes(indptr, indices, srcs, want_ends, acc, cnt, reached, failed, dist, sigma, coef, delta, order, scale,
            lo, work):
    """Brandes from each of ``srcs`` from ``lo`` on, on ``acc.shape[0]`` threads (thread ``t`` takes sources
    ``t, t + nt, ...``).

    Adds thread ``t``'s dependency sums to ``acc[t]`` (and, ``want_ends``, to ``cnt[t, v]`` one per source
    reaching ``v``); ``reached[i]``: how many vertices source ``i`` reaches (itself included);
    ``failed[i]``: the level whose counts span more than ``2^SPREAD``, or -1.  The work arrays
    (:func:`work_arrays`) are left as they were found.  A call takes the sources of about ``work``
    edges (two graph passes a source, ``nt`` sources at least) and returns the next source, or -1
    past the last or once a source failed (the caller calls again: an interrupt takes effect
    between calls).
    """
    b = srcs.size
    nt = acc.shape[0]
    n = dist.shape[1]
    hi = min(b, lo + nt * max(1, work // (nt * (2 * indices.size + n) + 1)))
    for t in prange(nt):
        dist_t, sigma_t, coef_t, delta_t, order_t, scale_t = dist[t], sigma[t], coef[t], delta[t], order[t], scale[t]
        for i in range(lo + t, hi, nt):
            s = srcs[i]
            dist_t[s] = 0
            sigma_t[s] = 1.0
            scale_t[0] = 1.0
            order_t[0] = s
            lo, hi, d, bad = 0, 1, 0, -1
            while True:                               # forward, a level at a time: path counts
                tail = hi
                for j in range(lo, hi):
                    v = order_t[j]
                    sv = sigma_t[v]
                    for e in range(indptr[v], indptr[v + 1]):
                        w = indices[e]
                        if dist_t[w] < 0:
                            dist_t[w] = d + 1
                            order_t[tail] = w
                            tail += 1
                        if dist_t[w] == d + 1:
                            sigma_t[w] += sv
                if tail == hi:
                    break
                d += 1
                xmax, xmin = -(1 << 30), 1 << 30
                for j in range(hi, tail):
                    x = math.frexp(sigma_t[order_t[j]])[1]
                    xmax = max(xmax, x)
                    xmin = min(xmin, x)
                lo, hi = hi, tail
                if xmax - xmin > SPREAD:
                    bad = d
                    break
                f = math.ldexp(1.0, -((xmax + xmin) >> 1))   # exact: a power of two
                scale_t[d] = f
                for j in range(lo, hi):
                    sigma_t[order_t[j]] *= f
            tail = hi
            failed[i] = bad
            while hi > 1 and bad < 0:                 # backward, a level at a time, deepest first (not the source's)
                lo = hi - 1
                d = dist_t[order_t[lo]]
                while dist_t[order_t[lo - 1]] == d:
                    lo -= 1
                f = scale_t[d]
                for j in range(lo, hi):              # out-neighbours are at most a level deeper, and only the
                    v = order_t[j]                   # level below is finished: the children are those of nonzero coef
                    c = 0.0
                    for e in range(indptr[v], indptr[v + 1]):
                        c += coef_t[indices[e]]
                    delta_t[j] = sigma_t[v] * c
                for j in range(lo, hi):
                    v = order_t[j]
                    coef_t[v] = (1.0 + delta_t[j]) / sigma_t[v] * f
                    acc[t, v] += delta_t[j]
                hi = lo
            reached[i] = tail
            for j in range(tail):                    # reset what this source touched
                v = order_t[j]
                if want_ends:
                    cnt[t, v] += 1
                dist_t[v] = -1
                sigma_t[v] = 0.0
                coef_t[v] = 0.0
    for i in range(lo, hi):
        if failed[i] >= 0:
            return -1
    return hi if hi < b else -1


# ---- the fused steps ----
@fuses
def brandes_sources(E, G, srcs, total, ends):
    """Brandes over the batch in parallel numba calls (a BFS and a backward sweep per source), each call a
    bounded batch of sources into per-thread sums (an interrupt takes effect between calls, :func:`_drive`)."""
    n, srcs = G.n, np.asarray(srcs, np.int64)
    nt = max(1, min(numba.get_num_threads(), srcs.size))
    acc = np.zeros((nt, n))
    counts = np.zeros((nt, n if ends is not None else 0), np.int64)
    reached, failed = np.zeros(srcs.size, np.int64), np.full(srcs.size, -1, np.int64)
    _drive(brandes, G.indptr, _unsigned(G.indices), srcs, ends is not None, acc, counts, reached, failed,
           *work_arrays(nt, n))
    bad = np.flatnonzero(failed >= 0)
    if bad.size:
        i = int(bad[0])
        raise NumericRangeError(
            f"betweenness: the shortest-path counts from source {int(srcs[i])} to the vertices at distance "
            f"{int(failed[i])} span a factor beyond 2**{SPREAD}, more than float64 holds even "
            "scaled per level; this source's dependencies cannot be computed in float64: leave it out of "
            "sources=")
    E.apply(E.vector_from_numpy(acc.sum(axis=0)), "identity", out=total, accum="plus")
    if ends is None:
        return None
    E.apply(E.vector_from_numpy(counts.sum(axis=0)), "identity", out=ends, accum="plus")
    return reached
