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
from ._common import _drive, fuses


@numba.njit(cache=True, nogil=True)
def degree_rank(indptr, rank):
    """Into ``rank`` each vertex's place in the order of ascending degree, ties by id (a counting sort, O(n))."""
    n = rank.size
    top = 0
    for u in range(n):
        top = max(top, indptr[u + 1] - indptr[u])
    start = np.zeros(top + 2, np.int64)
    for u in range(n):
        start[indptr[u + 1] - indptr[u] + 1] += 1
    for d in range(1, top + 2):
        start[d] += start[d - 1]
    for u in range(n):
        d = indptr[u + 1] - indptr[u]
        rank[u] = start[d]
        start[d] += 1


@numba.njit(cache=True, nogil=True)
def later_counts(indptr, indices, rank, ptr):
    """Into ``ptr`` (n + 1) the row bounds of :func:`later_neighbours`' CSR."""
    ptr[0] = 0
    for u in range(ptr.size - 1):
        c = 0
        for p in range(indptr[u], indptr[u + 1]):
            if rank[indices[p]] > rank[u]:
                c += 1
        ptr[u + 1] = ptr[u] + c


@numba.njit(cache=True, nogil=True)
def later_neighbours(indptr, indices, rank, ptr, ind):
    """Into ``ind`` the CSR of ``u -> v`` for the edges with ``rank[u] < rank[v]`` (self-loops dropped),
    its row bounds ``ptr`` from :func:`later_counts`."""
    for u in range(ptr.size - 1):
        j = ptr[u]
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            if rank[v] > rank[u]:
                ind[j] = v
                j += 1


@numba.njit(cache=True, nogil=True)
def work_before(ptr, ind, out):
    """``out[u]``: the entries :func:`triangles` reads for the vertices before ``u`` (n + 1 of them, from 0).

    Vertex ``u`` reads its later neighbours' rows and its own (twice, for the marks).
    """
    out[0] = 0
    for u in range(ptr.size - 1):
        c = 2 * (ptr[u + 1] - ptr[u]) + 1
        for p in range(ptr[u], ptr[u + 1]):
            k = ind[p]
            c += ptr[k + 1] - ptr[k]
        out[u + 1] = out[u] + c


@numba.njit(parallel=True, cache=True, nogil=True)
def triangles(ptr, ind, n, before, part, lo, work):
    """Add the triangles at the vertices from ``lo`` on (and their later neighbours) into ``part``, int64.

    ``ptr``, ``ind``: :func:`later_neighbours`; ``before``: :func:`work_before`'s.
    ``part``: one row per thread of ``n`` counts (per vertex) or of one (the
    total); the rows are summed at the end.  A call takes the vertices
    ``lo .. hi - 1`` whose work is about ``work`` (at least one vertex), dealt
    to the rows round-robin, and returns ``hi``, or -1 past the last vertex:
    the caller calls again, so that an interrupt takes effect between calls.
    """
    if lo >= n:
        return -1
    hi = max(lo + 1, np.searchsorted(before, before[lo] + work, "right") - 1)
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
    return hi if hi < n else -1


# ---- the fused steps ----
def _triangles(S, per_vertex):
    n = S.n
    indices = _unsigned(S.indices)
    # every loop fills arrays made here: none returns an array (see _common._drive)
    rank, ptr = np.empty(n, np.int64), np.empty(n + 1, np.int64)
    degree_rank(S.indptr, rank)
    later_counts(S.indptr, indices, rank, ptr)
    ind = np.empty(ptr[n], np.int64)
    later_neighbours(S.indptr, indices, rank, ptr, ind)
    work = np.empty(n + 1, np.int64)
    work_before(ptr, ind, work)
    part = np.zeros((numba.get_num_threads(), n if per_vertex else 1), np.int64)
    _drive(triangles, ptr, ind, n, work, part)
    return part.sum(axis=0)


@fuses
def triangle_total(E, S):
    """The triangle total in one parallel numba pass over the edges oriented by degree."""
    return int(_triangles(S, False)[0])


@fuses
def vertex_triangles(E, S):
    """Triangles at every vertex in one parallel numba pass over the edges oriented by degree."""
    return E.vector_from_numpy(_triangles(S, True))
