"""k-truss and trussness (la_graph/algorithms/ktruss.py) in compiled passes over the edges.

Every undirected edge gets a number, its place among the edges ``u < v`` in
CSR order; :func:`edge_ids` writes it at both of the edge's entries.

* ``edge_support``: the edges oriented from the earlier end to the later one
  in the order of ascending degree (as the triangle count orients them, no
  row longer than ``sqrt(2 m)``); for each vertex its later neighbours are
  marked with their edge numbers, and every later neighbour's own later
  neighbours that are marked close a triangle, counted at its three edges:
  O(m^1.5).
* ``truss_levels`` and ``truss_peel``: the peeling of Wang & Cheng (2012),
  level by level as in PKT (Kabir & Madduri 2017): at level ``s`` (the least
  support left) a queue takes the edges of support ``s``; each leaves with
  trussness ``s + 2``, and each triangle it closes with two edges still
  there costs those edges one support each, down to ``s`` at most (one
  reaching ``s`` joins the queue).  A level's edges are found by one
  sequential pass; a lost triangle costs one read of a support, where
  buckets kept sorted cost several random reads.  The triangles of an edge
  ``{u, v}`` are found by looking each live neighbour ``w`` of its end of
  fewer live neighbours up in a hash table of the edges (``{v, w}``: one
  probe, where a search of a hub's row would miss the cache at every step).
  ``truss_peel`` stops at level ``k - 2``: the edges left are the
  ``k``-truss, their supports counted within it.

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


@numba.njit(inline="always")
def _slot(key, mask):
    """Where ``key`` starts its probe in a table of ``mask + 1`` slots (a splitmix finaliser of the key)."""
    x = np.uint64(key)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    x = x ^ (x >> np.uint64(31))
    return np.int64(x & np.uint64(mask))


@numba.njit(cache=True, nogil=True)
def edge_table(eu, ev, n, table):
    """Into ``table`` (slots of ``(key, edge)``, a power of two of them, keys -1) every edge under the key
    ``u * n + v``: open addressing, linear probing."""
    mask = table.shape[0] - 1
    for e in range(eu.size):
        key = eu[e] * n + ev[e]
        i = _slot(key, mask)
        while table[i, 0] >= 0:
            i = (i + 1) & mask
        table[i, 0] = key
        table[i, 1] = e


@numba.njit(inline="always")
def _edge(table, a, b, n):
    """The number of the edge ``{a, b}``, or -1: one probe of the table, a cache line, as a rule."""
    key = a * n + b if a < b else b * n + a
    mask = table.shape[0] - 1
    i = _slot(key, mask)
    while True:
        k = table[i, 0]
        if k == key:
            return table[i, 1]
        if k < 0:
            return -1
        i = (i + 1) & mask


@numba.njit(cache=True, nogil=True)
def least(sup, gone):
    """The least support of an edge not gone, or -1 when every edge is gone."""
    low = -1
    for e in range(sup.size):
        if not gone[e] and (low < 0 or sup[e] < low):
            low = sup[e]
    return low


@numba.njit(cache=True, nogil=True)
def level_edges(sup, gone, s, queue):
    """Into ``queue`` the edges not gone of support ``s`` (none has less); returns how many."""
    t = 0
    for e in range(sup.size):
        if not gone[e] and sup[e] == s:
            queue[t] = e
            t += 1
    return t


@numba.njit(cache=True, nogil=True)
def peel_level(indptr, end, indices, eid, eu, ev, table, sup, gone, queue, tail, s, at, work):
    """Remove the edges ``queue[at:tail[0]]`` of level ``s`` (support ``s``, trussness ``s + 2``), and those
    that fall to ``s`` meanwhile, queued behind them.

    Each triangle an edge closes with two edges not gone costs those one support when theirs is above
    ``s`` (one reaching ``s`` is queued); one already at ``s`` leaves at this level anyway.  The triangles
    of ``{a, b}``: each live neighbour ``w`` of the end of fewer live neighbours, ``{b, w}`` looked up in
    the edge table.  Row ``u`` is ``indices[indptr[u]:end[u]]`` (with ``eid``), compacted as it is
    scanned (gone entries dropped), so that a hub whose edges left is cheap to scan.  Returns the place to
    resume at, or -1 once the queue is empty.
    """
    n = indptr.size - 1
    done = 0
    i = at
    while i < tail[0]:
        e = queue[i]
        i += 1
        gone[e] = True
        a, b = eu[e], ev[e]
        if end[a] - indptr[a] > end[b] - indptr[b]:
            a, b = b, a
        j = indptr[a]
        for p in range(indptr[a], end[a]):
            e1 = eid[p]
            if gone[e1]:
                continue
            w = indices[p]
            indices[j] = w
            eid[j] = e1
            j += 1
            e2 = _edge(table, b, np.int64(w), n)
            if e2 < 0 or gone[e2]:
                continue
            if sup[e1] > s:
                sup[e1] -= 1
                if sup[e1] == s:
                    queue[tail[0]] = e1
                    tail[0] += 1
            if sup[e2] > s:
                sup[e2] -= 1
                if sup[e2] == s:
                    queue[tail[0]] = e2
                    tail[0] += 1
        done += end[a] - indptr[a] + 1
        end[a] = j
        if done >= work and i < tail[0]:
            return i
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
    gone = np.zeros(eu.size, np.bool_)
    table = np.full((1 << max(1, int(2 * eu.size).bit_length()), 2), -1, np.int64)   # at most half full
    edge_table(eu, ev, nrows, table)
    end, rows, ids = indptr[1:].copy(), indices.copy(), eid.copy()   # compacted by the peeling; S's stay
    queue, tail = np.empty(eu.size, np.int64), np.zeros(1, np.int64)
    s = least(sup, gone)
    while 0 <= s < stop:          # a level a pass: its edges, then those that fall to it
        tail[0] = level_edges(sup, gone, s, queue)
        _drive(peel_level, indptr, end, rows, ids, eu, ev, table, sup, gone, queue, tail, s)
        s = least(sup, gone)
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
