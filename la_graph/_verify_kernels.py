"""Compiled loops of the checkers (:mod:`la_graph.verify`), imported when a check needs one.

Plain numba loops of their own: they share nothing with the engines, so a
checker built on them stays an independent reference.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(parallel=True, cache=True)
def triangle_total(indptr, indices, n, nchunks):
    """Triangles of an oriented graph (CSR; each triangle once, at its lowest corner).

    For each vertex ``a`` its out-neighbours are marked in a scratch array and
    every out-neighbour ``b`` adds its out-neighbours that are marked: work
    ``sum over edges a -> b of outdeg(b)``, no product materialised.  Vertices
    are dealt to ``nchunks`` chunks round-robin, so hubs spread over threads.
    """
    sums = np.zeros(nchunks, np.int64)
    for c in numba.prange(nchunks):
        mark = np.zeros(n, np.bool_)
        t = 0
        for a in range(c, n, nchunks):
            for p in range(indptr[a], indptr[a + 1]):
                mark[indices[p]] = True
            for p in range(indptr[a], indptr[a + 1]):
                b = indices[p]
                for q in range(indptr[b], indptr[b + 1]):
                    if mark[indices[q]]:
                        t += 1
            for p in range(indptr[a], indptr[a + 1]):
                mark[indices[p]] = False
        sums[c] = t
    return sums.sum()


@numba.njit(parallel=True, cache=True)
def brandes_sums(indptr, indices, n, sources, endpoints, nchunks):
    """Raw Brandes sums over ``sources`` (hop distances), as ``verify._bc_reference`` defines them.

    Per source: a queue BFS counting shortest paths ``sigma``, then the
    dependencies ``delta(w) = sum over v with d(v) = d(w) + 1 of sigma(w) /
    sigma(v) (1 + delta(v))`` in reverse queue order.  Each level's counts
    are kept divided by the geometric mean of their largest and smallest
    (``grow[l]``, relative to level ``l - 1``'s), so counts beyond float64
    still give exact ratios.
    Sources are dealt to ``nchunks`` chunks, each with its own scratch and its
    own row of sums.
    """
    out = np.zeros((nchunks, n))
    for c in numba.prange(nchunks):
        dist = np.full(n, -1, np.int64)
        sigma = np.zeros(n)
        delta = np.zeros(n)
        queue = np.empty(n, np.int64)
        acc = out[c]
        grow = np.ones(n + 1)                # level l's counts are sigma times grow[1] ... grow[l]
        for k in range(c, sources.size, nchunks):
            s = sources[k]
            dist[s] = 0
            sigma[s] = 1.0
            queue[0] = s
            head, tail, level_end = 0, 1, 1
            while head < tail:
                u = queue[head]
                head += 1
                for p in range(indptr[u], indptr[u + 1]):
                    v = indices[p]
                    if dist[v] < 0:
                        dist[v] = dist[u] + 1
                        queue[tail] = v
                        tail += 1
                    if dist[v] == dist[u] + 1:
                        sigma[v] += sigma[u]
                if head == level_end and tail > level_end:   # the next level is complete: over its middle
                    top, bottom = 0.0, np.inf
                    for i in range(level_end, tail):
                        top = max(top, sigma[queue[i]])
                        bottom = min(bottom, sigma[queue[i]])
                    mid = np.sqrt(top) * np.sqrt(bottom)
                    for i in range(level_end, tail):
                        sigma[queue[i]] /= mid
                    grow[dist[queue[level_end]]] = mid
                    level_end = tail
            for i in range(tail - 1, -1, -1):
                x = queue[i]
                for p in range(indptr[x], indptr[x + 1]):
                    v = indices[p]
                    if dist[v] == dist[x] + 1:
                        delta[x] += sigma[x] / (sigma[v] * grow[dist[v]]) * (1.0 + delta[v])
                if x != s:
                    acc[x] += delta[x]
                if endpoints:
                    acc[x] += 1.0
            if endpoints:
                acc[s] += tail - 2
            for i in range(tail):
                x = queue[i]
                dist[x] = -1
                sigma[x] = 0.0
                delta[x] = 0.0
    return out.sum(axis=0)


def brandes_reference(indptr, indices, n, sources, endpoints):
    """:func:`brandes_sums` with the sources dealt to as many chunks as numba has threads."""
    return brandes_sums(indptr, indices, n, sources, endpoints, max(1, min(numba.get_num_threads(), sources.size)))


@numba.njit(parallel=True, cache=True)
def edge_positions(indptr, indices, u, v):
    """For each pair ``(u[k], v[k])`` the CSR position of edge ``u -> v`` (indices sorted within rows), or -1.

    A binary search in row ``u[k]`` each, the pairs in parallel.
    """
    pos = np.empty(u.size, np.int64)
    for k in numba.prange(u.size):
        lo, hi = indptr[u[k]], indptr[u[k] + 1]
        t = v[k]
        while lo < hi:
            mid = (lo + hi) // 2
            if indices[mid] < t:
                lo = mid + 1
            else:
                hi = mid
        pos[k] = lo if lo < indptr[u[k] + 1] and indices[lo] == t else -1
    return pos
