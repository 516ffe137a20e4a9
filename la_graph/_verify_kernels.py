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


# ---- trussness (check_trussness, check_k_truss) ----
@numba.njit(cache=True, nogil=True)
def _edge_numbers(indptr, indices, eu, ev, eid):
    """``eid[p]``: the number of the edge ``{u, v}`` stored at CSR position ``p`` of a simple symmetric graph
    whose edges ``u < v`` are ``(eu, ev)``, sorted: a binary search of ``(min, max)`` in row ``min``'s upper
    part, through the edges' own row bounds."""
    n = indptr.size - 1
    first = np.zeros(n + 1, np.int64)                # first[u]: the first edge number of row u (u < v)
    for k in range(eu.size):
        first[eu[k] + 1] += 1
    for u in range(n):
        first[u + 1] += first[u]
    for u in range(n):
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            a, b = (u, v) if u < v else (v, u)
            lo, hi = first[a], first[a + 1]
            while lo < hi:
                mid = (lo + hi) >> 1
                if ev[mid] < b:
                    lo = mid + 1
                else:
                    hi = mid
            eid[p] = lo


@numba.njit(cache=True, nogil=True)
def _truss_triangles(indptr, indices, eid, truss, sup, held, lo, hi):
    """For the vertices ``lo <= a < hi``, the triangles ``a < b < c`` by a merge of rows ``a`` and ``b`` above
    ``b``: each adds one to ``sup`` of its three edges, and to ``held`` of each edge whose two others have a
    ``truss`` at least its own (skipped when ``truss`` is empty)."""
    check = truss.size > 0
    for a in range(lo, hi):
        for p in range(indptr[a], indptr[a + 1]):
            b = indices[p]
            if b <= a:
                continue
            i, j = p + 1, indptr[b]
            i_end, j_end = indptr[a + 1], indptr[b + 1]
            while j < j_end and indices[j] <= b:
                j += 1
            while i < i_end and j < j_end:
                x, y = indices[i], indices[j]
                if x < y:
                    i += 1
                elif x > y:
                    j += 1
                else:                             # a < b < x: the triangle's edges ab, ax, bx
                    e0, e1, e2 = eid[p], eid[i], eid[j]
                    sup[e0] += 1
                    sup[e1] += 1
                    sup[e2] += 1
                    if check:
                        t0, t1, t2 = truss[e0], truss[e1], truss[e2]
                        if t1 >= t0 and t2 >= t0:
                            held[e0] += 1
                        if t0 >= t1 and t2 >= t1:
                            held[e1] += 1
                        if t0 >= t2 and t1 >= t2:
                            held[e2] += 1
                    i += 1
                    j += 1


@numba.njit(cache=True, nogil=True)
def _truss_level(indptr, indices, eid, eu, ev, sup, gone, queued, queue, truss, k, budget):
    """Level ``k`` of the peeling, resumable: ``queue[0]`` the head, ``queue[1]`` the tail (the queue from
    ``queue[2]`` on; both 0 at a level's start, when every live edge of support below ``k - 1`` is queued).
    Each edge taken leaves with trussness ``k``; a triangle it closes with two live edges (a binary search
    of its smaller end's row in the other's) costs each of them one, queued once below ``k - 1``.  Returns
    -1 when this call's ``budget`` entries are spent with the level still going, else the edges it took."""
    m = sup.size
    if queue[1] == 0:
        for e in range(m):
            if not gone[e] and sup[e] < k - 1:
                queue[2 + queue[1]] = e
                queue[1] += 1
                queued[e] = True
    work = 0
    while queue[0] < queue[1]:
        e = queue[2 + queue[0]]
        queue[0] += 1
        gone[e] = True
        truss[e] = k
        a, b = eu[e], ev[e]
        if indptr[a + 1] - indptr[a] > indptr[b + 1] - indptr[b]:
            a, b = b, a
        for p in range(indptr[a], indptr[a + 1]):
            f = eid[p]
            if gone[f]:
                continue
            w = indices[p]
            lo, hi = indptr[b], indptr[b + 1]
            while lo < hi:
                mid = (lo + hi) >> 1
                if indices[mid] < w:
                    lo = mid + 1
                else:
                    hi = mid
            if lo == indptr[b + 1] or indices[lo] != w:
                continue
            g = eid[lo]
            if gone[g]:
                continue
            sup[f] -= 1
            sup[g] -= 1
            if not queued[f] and sup[f] < k - 1:
                queued[f] = True
                queue[2 + queue[1]] = f
                queue[1] += 1
            if not queued[g] and sup[g] < k - 1:
                queued[g] = True
                queue[2 + queue[1]] = g
                queue[1] += 1
        work += indptr[a + 1] - indptr[a] + 1
        if work >= budget and queue[0] < queue[1]:
            return -1
    return queue[1]


def truss_supports(indptr, indices, eu, ev, truss=None):
    """``(eid, sup, held)``: each CSR position's edge number (edges ``u < v`` as ``(eu, ev)``, sorted), each
    edge's triangles, and (with ``truss``) each edge's triangles whose two other edges have a trussness at
    least its own.  Row merges above each edge's upper end, in calls of about :data:`CALL_WORK` entries.

    Examples
    --------
    >>> import numpy as np
    >>> indptr, indices = np.array([0, 2, 4, 7, 8]), np.array([1, 2, 0, 2, 0, 1, 3, 2])   # a triangle, tail 2-3
    >>> eid, sup, held = truss_supports(indptr, indices, np.array([0, 0, 1, 2]), np.array([1, 2, 2, 3]))
    >>> sup.tolist()
    [1, 1, 1, 0]
    """
    n = indptr.size - 1
    eid = np.empty(indices.size, np.int64)
    _edge_numbers(indptr, indices, eu, ev, eid)
    sup, held = np.zeros(eu.size, np.int64), np.zeros(eu.size, np.int64)
    t = np.zeros(0, np.int64) if truss is None else truss
    before = np.cumsum(np.diff(indptr) ** 2 // 2 + 1)     # a row merge's work, roughly
    lo = 0
    while lo < n:   # calls of bounded work: an interrupt takes effect between them
        hi = max(lo + 1, int(np.searchsorted(before, (before[lo - 1] if lo else 0) + CALL_WORK, "right")))
        _truss_triangles(indptr, indices, eid, t, sup, held, lo, min(hi, n))
        lo = hi
    return eid, sup, held


def truss_numbers(indptr, indices, eu, ev, eid, sup):
    """Each edge's trussness by peeling level by level (``sup`` is used up): at level ``k`` a queue takes the
    edges of support below ``k - 1`` and those that fall below it, each leaving with trussness ``k``; empty
    levels are skipped.

    Examples
    --------
    >>> import numpy as np
    >>> indptr, indices = np.array([0, 2, 4, 7, 8]), np.array([1, 2, 0, 2, 0, 1, 3, 2])   # a triangle, tail 2-3
    >>> eu, ev = np.array([0, 0, 1, 2]), np.array([1, 2, 2, 3])
    >>> eid, sup, _ = truss_supports(indptr, indices, eu, ev)
    >>> truss_numbers(indptr, indices, eu, ev, eid, sup).tolist()
    [3, 3, 3, 2]
    """
    m = eu.size
    truss = np.zeros(m, np.int64)
    gone, queued = np.zeros(m, bool), np.zeros(m, bool)
    queue = np.zeros(m + 2, np.int64)
    left, k = m, 2
    while left > 0:
        k = max(k, int(sup[~gone].min()) + 2)
        queue[:2] = 0
        took = -1
        while took < 0:   # calls of bounded work within the level
            took = _truss_level(indptr, indices, eid, eu, ev, sup, gone, queued, queue, truss, k, CALL_WORK)
        left -= took
        k += 1
    return truss
