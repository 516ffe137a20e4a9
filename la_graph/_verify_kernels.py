"""Compiled loops of the checkers (:mod:`la_graph.verify`), imported when a check needs one.

Plain numba loops of their own: they share nothing with the engines, so a
checker built on them stays an independent reference.  The long ones run as
calls of bounded work (:data:`CALL_WORK`) from a Python loop here, each
adding into arrays that loop made and returning nothing, so that Ctrl-C
(KeyboardInterrupt) takes effect between calls -- never while numba boxes a
returned array.
"""

from __future__ import annotations

import numba
import numpy as np


#: about the most edges a kernel call here reads before it returns to Python, where Ctrl-C takes
#: effect (~0.1-0.3 s on one core)
CALL_WORK = 1 << 25


@numba.njit(cache=True, nogil=True)
def _oriented_work(indptr, indices, out):
    """``out[a]``: the entries :func:`_triangle_part` reads for the vertices before ``a`` (n + 1 of them)."""
    out[0] = 0
    for a in range(indptr.size - 1):
        c = 2 * (indptr[a + 1] - indptr[a]) + 1
        for p in range(indptr[a], indptr[a + 1]):
            b = indices[p]
            c += indptr[b + 1] - indptr[b]
        out[a + 1] = out[a] + c


@numba.njit(parallel=True, cache=True, nogil=True)
def _triangle_part(indptr, indices, n, sums, lo, hi):
    """Add into ``sums[c]`` the triangles at the lowest corners ``lo <= a < hi`` with ``a % nchunks == c``."""
    nchunks = sums.size
    for c in numba.prange(nchunks):
        mark = np.zeros(n, np.bool_)
        t = 0
        for a in range(lo + (c - lo) % nchunks, hi, nchunks):
            for p in range(indptr[a], indptr[a + 1]):
                mark[indices[p]] = True
            for p in range(indptr[a], indptr[a + 1]):
                b = indices[p]
                for q in range(indptr[b], indptr[b + 1]):
                    if mark[indices[q]]:
                        t += 1
            for p in range(indptr[a], indptr[a + 1]):
                mark[indices[p]] = False
        sums[c] += t


def triangle_total(indptr, indices, n, nchunks):
    """Triangles of an oriented graph (CSR; each triangle once, at its lowest corner).

    For each vertex ``a`` its out-neighbours are marked in a scratch array and
    every out-neighbour ``b`` adds its out-neighbours that are marked: work
    ``sum over edges a -> b of outdeg(b)``, no product materialised.  Vertices
    are dealt to ``nchunks`` chunks round-robin, so hubs spread over threads;
    ranges of vertices of about :data:`CALL_WORK` entries a call.

    Examples
    --------
    >>> import numpy as np
    >>> indptr, indices = np.array([0, 2, 3, 3]), np.array([1, 2, 2])   # 0 -> 1, 0 -> 2, 1 -> 2
    >>> int(triangle_total(indptr, indices, 3, 1))
    1
    """
    before = np.empty(n + 1, np.int64)
    _oriented_work(indptr, indices, before)
    sums = np.zeros(nchunks, np.int64)
    lo = 0
    while lo < n:   # calls of bounded work: an interrupt takes effect between them
        hi = max(lo + 1, int(np.searchsorted(before, before[lo] + CALL_WORK, "right")) - 1)
        _triangle_part(indptr, indices, n, sums, lo, hi)
        lo = hi
    return sums.sum()


@numba.njit(parallel=True, cache=True, nogil=True)
def _brandes_part(indptr, indices, n, sources, endpoints, out, lo, hi):
    """:func:`brandes_sums` for the sources ``lo .. hi - 1``, source ``k`` added into ``out[k % nchunks]``."""
    nchunks = out.shape[0]
    for c in numba.prange(nchunks):
        dist = np.full(n, -1, np.int64)
        sigma = np.zeros(n)
        delta = np.zeros(n)
        queue = np.empty(n, np.int64)
        acc = out[c]
        grow = np.ones(n + 1)                # level l's counts are sigma times grow[1] ... grow[l]
        for k in range(lo + (c - lo) % nchunks, hi, nchunks):
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


def brandes_sums(indptr, indices, n, sources, endpoints, nchunks):
    """Raw Brandes sums over ``sources`` (hop distances), as ``verify._bc_reference`` defines them.

    Per source: a queue BFS counting shortest paths ``sigma``, then the
    dependencies ``delta(w) = sum over v with d(v) = d(w) + 1 of sigma(w) /
    sigma(v) (1 + delta(v))`` in reverse queue order.  Each level's counts
    are kept divided by the geometric mean of their largest and smallest
    (``grow[l]``, relative to level ``l - 1``'s), so counts beyond float64
    still give exact ratios.
    Sources are dealt to ``nchunks`` chunks, each with its own scratch and its
    own row of sums; about :data:`CALL_WORK` edges of sources a call.

    Examples
    --------
    >>> import numpy as np
    >>> indptr, indices = np.array([0, 1, 3, 4]), np.array([1, 0, 2, 1])   # the path 0 - 1 - 2
    >>> brandes_sums(indptr, indices, 3, np.arange(3), False, 2).tolist()
    [0.0, 2.0, 0.0]
    """
    out = np.zeros((nchunks, n))
    per_call = nchunks * max(1, CALL_WORK // (nchunks * (2 * indices.size + n) + 1))   # two graph passes a source
    for lo in range(0, sources.size, per_call):   # calls of bounded work: an interrupt takes effect between them
        _brandes_part(indptr, indices, n, sources, endpoints, out, lo, min(sources.size, lo + per_call))
    return out.sum(axis=0)


def brandes_reference(indptr, indices, n, sources, endpoints):
    """:func:`brandes_sums` with the sources dealt to as many chunks as numba has threads."""
    return brandes_sums(indptr, indices, n, sources, endpoints, max(1, min(numba.get_num_threads(), sources.size)))


@numba.njit(parallel=True, cache=True, nogil=True)
def _edge_positions(indptr, indices, u, v, pos):
    """Into ``pos``: :func:`edge_positions`."""
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


def edge_positions(indptr, indices, u, v):
    """For each pair ``(u[k], v[k])`` the CSR position of edge ``u -> v`` (indices sorted within rows), or -1.

    A binary search in row ``u[k]`` each, the pairs in parallel, into an array made here (the loop
    returns none: see the module's note on Ctrl-C).

    Examples
    --------
    >>> import numpy as np
    >>> indptr, indices = np.array([0, 2, 3]), np.array([0, 1, 0])   # 0 -> 0, 0 -> 1, 1 -> 0
    >>> edge_positions(indptr, indices, np.array([0, 1, 1]), np.array([1, 0, 1])).tolist()
    [1, 2, -1]
    """
    pos = np.empty(u.size, np.int64)
    _edge_positions(indptr, indices, u, v, pos)
    return pos
