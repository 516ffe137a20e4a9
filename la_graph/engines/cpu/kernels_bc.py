"""Brandes' betweenness for a batch of sources in one compiled loop, the sources shared among threads.

Per source: a BFS that counts shortest paths (``sigma``) and records the visit
order, then a sweep back along that order that accumulates each vertex's
dependency ``delta[v] = sigma[v] * sum over children w of (1 + delta[w]) / sigma[w]``
(children: out-neighbours one level further).  The sweep goes a level at a
time and keeps ``coef[w] = (1 + delta[w]) / sigma[w]`` of the level below,
set once that level is finished and 0 elsewhere: an out-neighbour is at most
a level deeper, so the sum over children is the sum of ``coef`` over all
out-neighbours (one read per edge, no level test).  Each thread keeps its own
work arrays and its own row of sums; the rows are added at the end.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange


@numba.njit(cache=True, nogil=True, parallel=True)
def brandes(indptr, indices, srcs, n, want_ends, threads):
    """``(dependency sums (n,), ends (n,) or empty, reached (b,))`` over the sources ``srcs``, on
    ``threads`` threads (numba's ``get_num_threads()``, passed in: a kernel that reads it is not cached).

    ``ends[v]``: how many of the sources reach ``v`` (itself included);
    ``reached[i]``: how many vertices source ``i`` reaches (itself included).
    """
    b = srcs.size
    nt = max(1, min(threads, b))
    acc = np.zeros((nt, n))
    cnt = np.zeros((nt, n if want_ends else 0), np.int64)
    reached = np.zeros(b, np.int64)
    for t in prange(nt):
        dist = np.full(n, -1, np.int32)
        sigma = np.zeros(n)
        coef = np.zeros(n)                            # (1 + delta[w]) / sigma[w] once w is finished, else 0
        delta = np.empty(n)                           # by position in order
        order = np.empty(n, np.int64)
        for i in range(t, b, nt):
            s = srcs[i]
            dist[s] = 0
            sigma[s] = 1.0
            order[0] = s
            head, tail = 0, 1
            while head < tail:                       # forward: levels and path counts
                v = order[head]
                head += 1
                dn = dist[v] + 1
                for e in range(indptr[v], indptr[v + 1]):
                    w = indices[e]
                    if dist[w] < 0:
                        dist[w] = dn
                        order[tail] = w
                        tail += 1
                    if dist[w] == dn:
                        sigma[w] += sigma[v]
            hi = tail
            while hi > 1:                            # backward, a level at a time, deepest first (not the source's)
                lo = hi - 1
                d = dist[order[lo]]
                while dist[order[lo - 1]] == d:
                    lo -= 1
                for j in range(lo, hi):              # out-neighbours are at most a level deeper, and only the
                    v = order[j]                     # level below is finished: the children are those of nonzero coef
                    c = 0.0
                    for e in range(indptr[v], indptr[v + 1]):
                        c += coef[indices[e]]
                    delta[j] = sigma[v] * c
                for j in range(lo, hi):
                    v = order[j]
                    coef[v] = (1.0 + delta[j]) / sigma[v]
                    acc[t, v] += delta[j]
                hi = lo
            reached[i] = tail
            for j in range(tail):                    # reset what this source touched
                v = order[j]
                if want_ends:
                    cnt[t, v] += 1
                dist[v] = -1
                sigma[v] = 0.0
                coef[v] = 0.0
    total = np.zeros(n)
    ends = np.zeros(n if want_ends else 0, np.int64)
    for t in range(nt):
        for v in range(n):
            total[v] += acc[t, v]
        if want_ends:
            for v in range(n):
                ends[v] += cnt[t, v]
    return total, ends, reached
