"""Triangles (the total, or at every vertex) in compiled passes over the edges oriented by degree.

The edges of the simple undirected graph are oriented from the earlier end to
the later one in the order of ascending degree (ties by id), as
:func:`la_graph.algorithms.triangles.oriented_edges` orients them, and kept as
a CSR of each vertex's later neighbours (no row longer than ``sqrt(2 m)``).
For each vertex ``u`` its later neighbours are marked; every later neighbour
``k`` then scans its own later neighbours ``v``, and each marked one closes the
triangle ``u, k, v``: counted once for the total, or at all three corners.
Vertices are dealt to the threads round-robin (so the hubs spread), each
thread adding into a row of its own; the rows are summed at the end.  A call
takes a range of vertices (:func:`work_before` tells each one's work), so a
caller bounds the work of a call and an interrupt takes effect between calls.
"""

from __future__ import annotations

import numba
import numpy as np

from ..objects import _unsigned
from ._common import CALL_WORK, fuses


@numba.njit(cache=True, nogil=True)
def degree_rank(indptr, n):
    """Each vertex's place in the order of ascending degree, ties by id (a counting sort, O(n))."""
    top = 0
    for u in range(n):
        top = max(top, indptr[u + 1] - indptr[u])
    start = np.zeros(top + 2, np.int64)
    for u in range(n):
        start[indptr[u + 1] - indptr[u] + 1] += 1
    for d in range(1, top + 2):
        start[d] += start[d - 1]
    rank = np.empty(n, np.int64)
    for u in range(n):
        d = indptr[u + 1] - indptr[u]
        rank[u] = start[d]
        start[d] += 1
    return rank


@numba.njit(cache=True, nogil=True)
def later_neighbours(indptr, indices, rank, n):
    """CSR of ``u -> v`` for the edges with ``rank[u] < rank[v]`` (self-loops dropped)."""
    ptr = np.zeros(n + 1, np.int64)
    for u in range(n):
        c = 0
        for p in range(indptr[u], indptr[u + 1]):
            if rank[indices[p]] > rank[u]:
                c += 1
        ptr[u + 1] = ptr[u] + c
    ind = np.empty(ptr[n], np.int64)
    for u in range(n):
        j = ptr[u]
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            if rank[v] > rank[u]:
                ind[j] = v
                j += 1
    return ptr, ind


@numba.njit(cache=True, nogil=True)
def work_before(ptr, ind, n):
    """``out[u]``: the entries :func:`triangles` reads for the vertices before ``u`` (n + 1 of them, from 0).

    Vertex ``u`` reads its later neighbours' rows and its own (twice, for the marks).
    """
    out = np.zeros(n + 1, np.int64)
    for u in range(n):
        c = 2 * (ptr[u + 1] - ptr[u]) + 1
        for p in range(ptr[u], ptr[u + 1]):
            k = ind[p]
            c += ptr[k + 1] - ptr[k]
        out[u + 1] = out[u] + c
    return out


@numba.njit(parallel=True, cache=True)
def triangles(ptr, ind, n, lo, hi, part):
    """Add the triangles at the vertices ``lo .. hi - 1`` (and their later neighbours) into ``part``, int64.

    ``ptr``, ``ind``: :func:`later_neighbours`.  ``part``: one row per thread
    of ``n`` counts (per vertex) or of one (the total); the rows are summed
    at the end.  The vertices of a range are dealt to the rows round-robin;
    a caller takes ranges of bounded work in turn, so that an interrupt takes
    effect between calls.
    """
    nthreads = part.shape[0]
    per_vertex = part.shape[1] == n
    for c in numba.prange(nthreads):
        mark = np.zeros(n, np.bool_)
        t = part[c]
        for u in range(lo + c, hi, nthreads):
            for p in range(ptr[u], ptr[u + 1]):
                mark[ind[p]] = True
            for p in range(ptr[u], ptr[u + 1]):
                k = ind[p]
                for q in range(ptr[k], ptr[k + 1]):
                    v = ind[q]
                    if mark[v]:
                        if per_vertex:
                            t[u] += 1
                            t[k] += 1
                            t[v] += 1
                        else:
                            t[0] += 1
            for p in range(ptr[u], ptr[u + 1]):
                mark[ind[p]] = False


# ---- the fused steps ----
def _triangles(S, per_vertex):
    n = S.n
    rank = degree_rank(S.indptr, n)
    ptr, ind = later_neighbours(S.indptr, _unsigned(S.indices), rank, n)
    work = work_before(ptr, ind, n)
    part = np.zeros((numba.get_num_threads(), n if per_vertex else 1), np.int64)
    lo = 0
    while lo < n:   # ranges of vertices of bounded work: an interrupt takes effect between calls
        hi = max(lo + 1, int(np.searchsorted(work, work[lo] + CALL_WORK, "right")) - 1)
        triangles(ptr, ind, n, lo, hi, part)
        lo = hi
    return part.sum(axis=0)


@fuses
def triangle_total(E, S):
    """The triangle total in one parallel numba pass over the edges oriented by degree."""
    return int(_triangles(S, False)[0])


@fuses
def vertex_triangles(E, S):
    """Triangles at every vertex in one parallel numba pass over the edges oriented by degree."""
    return E.vector_from_numpy(_triangles(S, True))
