"""Compiled loops of the CPU engine's minimum-spanning-forest steps (numba).

The exact semantics are those of the steps ``msf_edges`` / ``msf_round`` in
``la_graph/algorithms/msf.py``.  The CPU edge set is a :class:`MSFEdges`: the
surviving edges as numpy arrays, their endpoints relabelled to tree roots as
rounds go (contraction), plus per-vertex scratch reused every round.  The
kernels read the CSR's column indices unsigned (``objects._unsigned``): numba
then skips its negative-index test.
"""

from __future__ import annotations

import numba
import numpy as np

from ...._keys import weight_ranks
from ...base import Declined
from ..objects import _numpy_views, _owning_full, _unsigned
from ._common import _need_full, fuses

_INF = np.iinfo(np.int64).max


class MSFEdges:
    """The edges still between two trees.

    Light edges (weight rank below ``cut``) are packed into ``eu/ev/key[:m]``,
    endpoints relabelled to tree roots as rounds go.  The heavy ones stay in
    ``G``'s CSR until the light ones are used up (Kruskal's filter, as in
    Filter-Kruskal and ECL-MST): by then most of them lie inside a tree, and
    one pass over the CSR drops those and packs the rest.
    """

    __slots__ = ("G", "table", "offset", "cut", "heavy", "eu", "ev", "key", "m", "cheap", "partner", "touched")

    def __init__(self, G, table, offset):
        n, nnz = G.n, G.nnz
        idx = G.indices.dtype
        self.G = G
        self.table = table if table is not None else np.zeros(0, np.int64)
        self.offset = offset
        self.cut = _light_cut(G, self.weights, self.table, offset)
        cap = nnz // 2 + 1  # a symmetric CSR holds every non-loop edge twice (pages are touched only when written)
        self.eu, self.ev, self.key = np.empty(cap, idx), np.empty(cap, idx), np.empty(cap, np.int64)
        self.m, heavy = pack_edges(G.indptr, _unsigned(G.indices), self.weights, self.table, offset, self.cut,
                                   self.eu, self.ev, self.key)
        self.heavy = heavy > 0
        self.cheap = np.full(n, _INF, np.int64)
        self.partner = np.empty(n, idx)
        self.touched = np.empty(n, idx)

    @property
    def weights(self):
        return self.G.weights if self.G.weights is not None else np.zeros(0)

    def round(self, f, forest):
        """One round (the step ``msf_round``) on numpy ``f`` and ``forest``; returns ``hooked``."""
        self.m, hooked = boruvka_round(f, self.eu, self.ev, self.key, self.m, self.cheap, self.partner,
                                       self.touched, forest)
        if hooked == 0 and self.heavy:  # the light edges are used up: now the heavy ones
            G = self.G
            self.heavy = False
            self.m, hooked = heavy_round(f, G.indptr, _unsigned(G.indices), self.weights, self.table, self.offset,
                                         self.cut, self.eu, self.ev, self.key, self.cheap, self.partner,
                                         self.touched, forest)
        return hooked


#: the light edges are about this many per vertex (when the graph has more)
LIGHT_PER_VERTEX = 2


def _light_cut(G, w, table, offset):
    """The weight rank below which an edge is light: about ``LIGHT_PER_VERTEX * n`` edges, from a sample."""
    m = G.nnz // 2
    if w.size == 0 or m <= 2 * LIGHT_PER_VERTEX * G.n:
        return _INF
    p = np.random.default_rng(0).integers(0, G.nnz, 4096)
    ranks = table[p] if table.size else w[p].astype(np.int64) - offset
    return int(np.quantile(ranks, LIGHT_PER_VERTEX * G.n / m, method="higher")) + 1


@numba.njit(inline="always")
def _rank(p, weights, table, offset):
    if table.size > 0:
        return table[p]
    if weights.size > 0:
        return np.int64(weights[p]) - offset
    return np.int64(0)


@numba.njit(inline="always")
def _first_upper(indptr, indices, i):
    """The first CSR position of row ``i`` whose column is > ``i`` (columns are sorted)."""
    lo, hi = indptr[i], indptr[i + 1]
    while lo < hi:
        mid = (lo + hi) // 2
        if indices[mid] <= i:
            lo = mid + 1
        else:
            hi = mid
    return lo


@numba.njit(cache=True, nogil=True)
def pack_edges(indptr, indices, weights, table, offset, cut, eu, ev, key):
    """Write every entry ``p = (i, j)``, ``i < j``, of ``rank < cut`` as an edge keyed ``rank * nnz + p``.

    ``rank`` is ``table[p]`` if ``table`` is given, else ``weights[p] - offset``
    (0 for an unweighted graph: empty ``weights``).  Returns the counts of
    the edges written and of those left out (``rank >= cut``).
    """
    n = indptr.size - 1
    nnz = np.int64(indptr[n])
    m = 0
    heavy = 0
    for i in range(n):
        for p in range(_first_upper(indptr, indices, i), indptr[i + 1]):
            rank = _rank(p, weights, table, offset)
            if rank < cut:
                eu[m] = i
                ev[m] = indices[p]
                key[m] = rank * nnz + p
                m += 1
            else:
                heavy += 1
    return m, heavy


@numba.njit(inline="always")
def _consider(a, b, k, cheap, partner, touched, nt):
    """Edge ``k`` between roots ``a != b``: keep it if it is the cheapest of either; returns the new ``nt``.

    The two ends are written out: as a helper called twice, a Borůvka round was 40% slower (rmat18).
    """
    if k < cheap[a]:
        if cheap[a] == _INF:
            touched[nt] = a
            nt += 1
        cheap[a] = k
        partner[a] = b
    if k < cheap[b]:
        if cheap[b] == _INF:
            touched[nt] = b
            nt += 1
        cheap[b] = k
        partner[b] = a
    return nt


@numba.njit(inline="always")
def _hook(f, nt, cheap, partner, touched, forest):
    """Hook the ``nt`` touched roots, make ``f`` a star forest again, reset ``cheap``; returns the hooks.

    A root hooks onto the root at the other end of its cheapest edge, except the
    smaller root of a pair that chose the same edge (distinct keys leave no other
    cycle); the hooked roots' paths are compressed and every vertex jumps once
    (``f = f[f]``).
    """
    hooked = 0
    for t in range(nt):
        r = touched[t]
        p = partner[r]
        if cheap[p] == cheap[r] and r < p:
            continue
        f[r] = p
        forest[r] = cheap[r]
        hooked += 1
    for t in range(nt):
        r = touched[t]
        x = r
        while f[x] != x:
            x = f[x]
        while f[r] != x:
            y = f[r]
            f[r] = x
            r = y
    if hooked:
        for v in range(f.size):
            f[v] = f[f[v]]
    for t in range(nt):
        cheap[touched[t]] = _INF
    return hooked


@numba.njit(cache=True, nogil=True)
def boruvka_round(f, eu, ev, key, m, cheap, partner, touched, forest):
    """One Borůvka round over the packed edges ``[0, m)``; returns ``(m, hooked)``.

    One pass relabels each end to its root, drops edges inside a tree, compacts
    the rest and keeps per root the cheapest edge and its other end; then the
    roots hook (:func:`_hook`).  ``cheap`` is all ``_INF`` on entry and exit.
    """
    nt = 0
    j = 0
    for i in range(m):
        a = f[eu[i]]
        b = f[ev[i]]
        if a == b:
            continue
        k = key[i]
        eu[j] = a
        ev[j] = b
        key[j] = k
        j += 1
        nt = _consider(a, b, k, cheap, partner, touched, nt)
    return j, _hook(f, nt, cheap, partner, touched, forest)


@numba.njit(cache=True, nogil=True)
def heavy_round(f, indptr, indices, weights, table, offset, cut, eu, ev, key, cheap, partner, touched, forest):
    """:func:`boruvka_round` over the edges of ``rank >= cut``, read from the CSR; packs the survivors to ``[0, m)``."""
    n = indptr.size - 1
    nnz = np.int64(indptr[n])
    nt = 0
    j = 0
    for i in range(n):
        a = f[i]
        for p in range(_first_upper(indptr, indices, i), indptr[i + 1]):
            b = f[indices[p]]
            if a == b:
                continue
            rank = _rank(p, weights, table, offset)
            if rank < cut:
                continue
            k = rank * nnz + p
            eu[j] = a
            ev[j] = b
            key[j] = k
            j += 1
            nt = _consider(a, b, k, cheap, partner, touched, nt)
    return j, _hook(f, nt, cheap, partner, touched, forest)


@numba.njit(cache=True, nogil=True)
def forest_entries(indptr, indices, forest, u, v, p):
    """The forest's edges in CSR order into ``(u, v, p)``: the entries ``p = key % nnz`` of the keys ``forest >= 0``.

    The entries are flagged, then read back row by row (a pass over the CSR
    instead of a sort of the keys): sorted by ``p``, so by ``(u, v)``.
    ``u``, ``v``, ``p`` have room for exactly the keys.
    """
    nnz = max(np.int64(indptr[indptr.size - 1]), 1)
    mark = np.zeros(nnz, np.bool_)
    for r in range(forest.size):
        if forest[r] >= 0:
            mark[forest[r] % nnz] = True
    j = 0
    for i in range(indptr.size - 1):
        for e in range(indptr[i], indptr[i + 1]):
            if mark[e]:
                u[j] = i
                v[j] = indices[e]
                p[j] = e
                j += 1


# ---- the fused steps ----
@fuses
def msf_edges(E, G):
    """A :class:`~.MSFEdges`: the light edges packed, the heavy ones left in the CSR for later."""
    return MSFEdges(G, *weight_ranks(G.weights, G.nnz))


@fuses
def msf_round(E, f, edges, forest):
    """One Borůvka round in one pass that also drops the edges inside a tree (contraction)."""
    if not isinstance(edges, MSFEdges):
        raise Declined(f"msf_round takes the CPU engine's own edge set, got {type(edges).__name__}")
    _need_full("msf_round", f, forest)
    with _numpy_views(f, forest) as (fa, fo):
        hooked = edges.round(fa, fo)
    return edges, int(hooked)


@fuses
def msf_forest(E, G, forest):
    """The forest's CSR entries flagged and read back in CSR order (no sort of the keys)."""
    _need_full("msf_forest", forest)
    with _numpy_views(forest) as (fo,):
        m = int(np.count_nonzero(fo >= 0))
        u, v, p = np.empty(m, np.int64), np.empty(m, np.int64), np.empty(m, np.int64)  # numpy's own: packed uncopied
        forest_entries(G.indptr, _unsigned(G.indices), fo, u, v, p)
    w = G.weights[p] if G.weighted else np.ones(m)
    return _owning_full(u), _owning_full(v), _owning_full(w)
