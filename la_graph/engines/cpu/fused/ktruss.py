"""k-truss and trussness (la_graph/algorithms/ktruss.py) in compiled passes over the edges.

Every undirected edge gets a number, its place among the edges ``u < v`` in
CSR order; :func:`edge_ids` writes it at both of the edge's entries.

* ``edge_support``: the edges oriented from the earlier end to the later one
  in the order of ascending degree (as the triangle count orients them, no
  row longer than ``sqrt(2 m)``); for each vertex its later neighbours are
  marked with their edge numbers, and every later neighbour's own later
  neighbours that are marked close a triangle, counted at its three edges:
  O(m^1.5).
* ``truss_levels`` and ``truss_peel``: Wang & Cheng's (2012) peeling, the
  edge analogue of Batagelj & Zaversnik's core numbers.  The edges sit in an
  array sorted by support, with each support's block start; the edge of least
  support leaves with trussness ``support + 2``, and each triangle it closes
  with two edges still there costs those edges one support each -- those of
  higher support move one block down.  The triangles of an edge ``{u, v}``
  are found by looking each neighbour of its end of smaller degree up in the
  other end's sorted row (a galloping search: the rows are sorted, so the
  lookups only move forward).  ``truss_peel`` stops at the
  first edge of support ``k - 2`` or more: the edges left are the ``k``-truss,
  their supports counted within it.

Both run as calls of bounded work (``_common._drive``).
"""

from __future__ import annotations

import numba
import numpy as np

from ...base import Declined
from ..objects import _unsigned
from ._common import _drive, fuses
from .triangles import degree_rank


@numba.njit(cache=True, nogil=True)
def edge_ids(indptr, indices, eid, eu, ev):
    """Into ``eid`` (one per entry) the number of each entry's undirected edge, -1 at a self-loop, and into
    ``eu``, ``ev`` each edge's ends (``u < v``); returns the number of edges.

    The CSR must be symmetric with sorted rows: the entries ``v -> u`` with ``u < v`` come in the order of
    ``u``, the order the rows ``u`` meet them in, so a cursor per row finds each edge's second entry.
    """
    n = indptr.size - 1
    cur = np.empty(n, np.int64)
    for v in range(n):
        cur[v] = indptr[v]
    m = 0
    for u in range(n):
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            if v > u:
                eid[p] = m
                eid[cur[v]] = m
                cur[v] += 1
                eu[m] = u
                ev[m] = v
                m += 1
            elif v == u:
                eid[p] = -1
    return m


@numba.njit(cache=True, nogil=True)
def oriented(indptr, indices, eid, rank, optr, oind, oeid):
    """Into ``optr``, ``oind``, ``oeid`` the CSR of ``u -> v`` for the edges with ``rank[u] < rank[v]``, each
    entry with its edge number (self-loops dropped)."""
    n = indptr.size - 1
    optr[0] = 0
    j = 0
    for u in range(n):
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            if v != u and rank[v] > rank[u]:
                oind[j] = v
                oeid[j] = eid[p]
                j += 1
        optr[u + 1] = j


@numba.njit(cache=True, nogil=True)
def supports(optr, oind, oeid, mark, sup, at, work):
    """Add into ``sup`` the triangles of every edge, from vertex ``at`` on (its lowest corner in the degree
    order); ``mark`` (n, all -1) is left as found.  Returns the vertex to resume at, or -1."""
    n = optr.size - 1
    done = 0
    for u in range(at, n):
        for p in range(optr[u], optr[u + 1]):
            mark[oind[p]] = oeid[p]
        for p in range(optr[u], optr[u + 1]):
            v = oind[p]
            e = oeid[p]
            for q in range(optr[v], optr[v + 1]):
                f = mark[oind[q]]
                if f >= 0:
                    sup[e] += 1
                    sup[f] += 1
                    sup[oeid[q]] += 1
            done += optr[v + 1] - optr[v]
        for p in range(optr[u], optr[u + 1]):
            mark[oind[p]] = -1
        done += 2 * (optr[u + 1] - optr[u]) + 1
        if done >= work and u + 1 < n:
            return u + 1
    return -1


@numba.njit(cache=True, nogil=True)
def buckets(sup, order, pos, start):
    """The edges sorted by support (a counting sort): ``order``, each edge's place ``pos``, and ``start[s]``
    where support ``s``'s block begins (``start`` has room for the largest support + 2)."""
    for e in range(sup.size):
        start[sup[e] + 1] += 1
    for s in range(1, start.size):
        start[s] += start[s - 1]
    fill = start.copy()
    for e in range(sup.size):
        pos[e] = fill[sup[e]]
        order[pos[e]] = e
        fill[sup[e]] += 1


@numba.njit(inline="always")
def _gallop(indices, lo, hi, x):
    """The first place of ``indices[lo:hi]`` (sorted) whose value is ``x`` or more (``hi`` if none): steps of
    1, 2, 4, ... from ``lo``, then a binary search in the last step -- the cost is the log of the distance,
    so a sorted run of lookups costs a merge of the two rows at most."""
    if lo >= hi or indices[lo] >= x:
        return lo
    step = 1
    below = lo                        # indices[below] < x
    while lo + step < hi and indices[lo + step] < x:
        below = lo + step
        step <<= 1
    top = min(lo + step, hi)          # indices[top] >= x, or top is hi
    lo = below + 1
    while lo < top:
        mid = (lo + top) >> 1
        if indices[mid] < x:
            lo = mid + 1
        else:
            top = mid
    return lo


@numba.njit(inline="always")
def _drop(f, s, sup, order, pos, start):
    """Edge ``f`` loses a triangle if its support is above ``s`` (the level): one block down, to its front."""
    sf = sup[f]
    if sf > s:
        pw = start[sf]                  # the first edge of f's block changes place with f
        g = order[pw]
        if g != f:
            pf = pos[f]
            order[pf] = g
            pos[g] = pf
            order[pw] = f
            pos[f] = pw
        start[sf] += 1
        sup[f] = sf - 1


@numba.njit(cache=True, nogil=True)
def peel(indptr, end, indices, eid, eu, ev, sup, order, pos, start, gone, stop, at, work):
    """Remove the edges in the order of ``order`` from place ``at`` on while their support is below ``stop``.

    An edge leaves with its support as it stands (its trussness less 2); each triangle it closes with two
    edges not gone costs those one support when theirs is higher (:func:`_drop`).  Row ``u`` is
    ``indices[indptr[u]:end[u]]`` (with ``eid``): the row scanned is compacted as it is read, gone entries
    dropped and the order kept, so that the other end's row stays sorted for its galloping search and a hub
    whose edges left is cheap to scan.  Returns the place to resume at, or -1 (every edge gone, or the next
    one's support is ``stop`` or more).
    """
    m = sup.size
    done = 0
    for i in range(at, m):
        e = order[i]
        s = sup[e]
        if s >= stop:
            return -1
        gone[e] = True
        a, b = eu[e], ev[e]
        if end[a] - indptr[a] > end[b] - indptr[b]:
            a, b = b, a
        blo, bhi = indptr[b], end[b]
        j = indptr[a]
        for p in range(indptr[a], end[a]):
            e1 = eid[p]
            if gone[e1]:
                continue
            w = indices[p]
            indices[j] = w
            eid[j] = e1
            j += 1
            blo = _gallop(indices, blo, bhi, w)       # a's row is sorted: the places in b's only grow
            if blo == bhi:
                continue                              # (the rest of a's row is still compacted)
            if indices[blo] != w:
                continue
            e2 = eid[blo]
            if gone[e2]:
                continue
            _drop(e1, s, sup, order, pos, start)
            _drop(e2, s, sup, order, pos, start)
        done += end[a] - indptr[a] + 1
        end[a] = j
        if done >= work and i + 1 < m:
            return i + 1
    return -1


@numba.njit(cache=True, nogil=True)
def kept(indptr, indices, eid, gone, sup, ptr, ind, val):
    """Into ``ptr``, ``ind``, ``val`` the CSR of the entries whose edge is not gone, valued by its support."""
    n = indptr.size - 1
    ptr[0] = 0
    j = 0
    for u in range(n):
        for p in range(indptr[u], indptr[u + 1]):
            e = eid[p]
            if not gone[e]:
                ind[j] = indices[p]
                val[j] = sup[e]
                j += 1
        ptr[u + 1] = j


# ---- the fused steps ----
def _numbered(indptr, indices):
    """``(eid, eu, ev)`` of a symmetric CSR with sorted rows (:func:`edge_ids`), cut to the edges."""
    eid = np.empty(indices.size, np.int64)
    eu, ev = np.empty(indices.size // 2 + 1, np.int64), np.empty(indices.size // 2 + 1, np.int64)
    m = edge_ids(indptr, indices, eid, eu, ev)
    return eid, eu[:m], ev[:m]


@fuses
def edge_support(E, G):
    """The supports by the triangles of the degree-oriented edges, in one numba pass (bounded calls)."""
    if G.directed:
        raise Declined("edge_support's kernel needs the symmetric CSR of an undirected graph")
    n = G.n
    indptr, indices = G.indptr, _unsigned(G.indices)
    if G.self_loops:
        rows = np.repeat(np.arange(n), np.diff(indptr))
        off = rows != G.indices
        indptr = np.zeros(n + 1, np.int64)
        np.cumsum(np.bincount(rows[off], minlength=n), out=indptr[1:])
        indices = indices[off]
    eid, eu, _ = _numbered(indptr, indices)
    m = eu.size
    rank = np.empty(n, np.int64)
    degree_rank(indptr, rank)
    optr, oind, oeid = np.empty(n + 1, np.int64), np.empty(m, indices.dtype), np.empty(m, np.int64)
    oriented(indptr, indices, eid, rank, optr, oind, oeid)
    sup = np.zeros(m, np.int64)
    _drive(supports, optr, oind, oeid, np.full(n, -1, np.int64), sup)
    return E._matrix_from_csr(indptr, indices.view(G.indices.dtype), sup[eid], n, n, dtype=np.int64)


def _peeled(S, stop):
    """Peel the edges of support matrix ``S`` (symmetric, no self-loop) while their support is below
    ``stop``: ``(indptr, indices, eid, sup, gone)``, ``sup`` the supports after the peeling."""
    nrows, ncols = S.nrows, S.ncols
    if nrows != ncols:
        raise Declined("the truss peeling takes a square support matrix")
    indptr, indices, values = S.to_csr(dtype=np.int64)
    indptr, indices = indptr.view(np.int64), _unsigned(indices)      # (int64 row bounds: numba's uint64
    # arithmetic with an int turns to float)
    eid, eu, ev = _numbered(indptr, indices)
    if eid.size != 2 * eu.size:
        raise Declined("the truss peeling takes a symmetric support matrix without self-loops")
    sup = np.empty(eu.size, np.int64)
    sup[eid] = values
    order, pos = np.empty(eu.size, np.int64), np.empty(eu.size, np.int64)
    start = np.zeros(int(sup.max(initial=0)) + 2, np.int64)
    buckets(sup, order, pos, start)
    gone = np.zeros(eu.size, np.bool_)
    # the peeling compacts its own copy of the rows; indices and eid stay S's
    _drive(peel, indptr, indptr[1:].copy(), indices.copy(), eid.copy(), eu, ev, sup, order, pos, start, gone,
           stop)
    return indptr, indices, eid, sup, gone


@fuses
def truss_levels(E, S):
    """Wang & Cheng's bucket peeling of every edge in one numba pass (bounded calls)."""
    indptr, indices, eid, sup, _ = _peeled(S, np.iinfo(np.int64).max)
    n = S.nrows
    return E._matrix_from_csr(indptr, indices.view(np.int64), sup[eid] + 2, n, n, dtype=np.int64)


@fuses
def truss_peel(E, S, k):
    """The bucket peeling up to the edges of support ``k - 2`` in one numba pass; the rest is the truss."""
    indptr, indices, eid, sup, gone = _peeled(S, k - 2)
    n = S.nrows
    live = int(indices.size - 2 * int(gone.sum()))
    ptr, ind, val = np.empty(n + 1, np.int64), np.empty(live, np.int64), np.empty(live, np.int64)
    kept(indptr, indices, eid, gone, sup, ptr, ind, val)
    return E._matrix_from_csr(ptr, ind, val, n, n, dtype=np.int64)
