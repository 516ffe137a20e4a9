"""Compiled loops of the CPU engine's minimum-spanning-forest steps (numba).

The exact semantics are those of ``Engine.msf_edges`` / ``Engine.msf_round`` in
``la_graph/engines/base.py``.  The CPU edge set is a :class:`MSFEdges`: the
surviving edges as numpy arrays, their endpoints relabelled to tree roots as
rounds go (contraction), plus per-vertex scratch reused every round.
"""

from __future__ import annotations

import numba
import numpy as np

_INF = np.iinfo(np.int64).max


class MSFEdges:
    """The edges still between two trees: ``eu[:m]``, ``ev[:m]`` (tree roots) and ``key[:m]``."""

    __slots__ = ("eu", "ev", "key", "m", "cheap", "partner", "touched")

    def __init__(self, G, table, offset):
        n, nnz = G.n, G.nnz
        idx = G.indices.dtype
        cap = nnz // 2 + 1  # a symmetric CSR holds every non-loop edge twice
        self.eu, self.ev, self.key = np.empty(cap, idx), np.empty(cap, idx), np.empty(cap, np.int64)
        w = G.weights if G.weights is not None else np.zeros(0)
        tab = table if table is not None else np.zeros(0, np.int64)
        self.m = pack_edges(G.indptr, G.indices, w, tab, offset, self.eu, self.ev, self.key)
        self.cheap = np.full(n, _INF, np.int64)
        self.partner = np.empty(n, idx)
        self.touched = np.empty(n, idx)


@numba.njit(cache=True, nogil=True)
def pack_edges(indptr, indices, weights, table, offset, eu, ev, key):
    """Write every entry ``p = (i, j)``, ``i < j``, as an edge keyed ``rank * nnz + p``; return the count.

    ``rank`` is ``table[p]`` if ``table`` is given, else ``weights[p] - offset``
    (0 for an unweighted graph: empty ``weights``).
    """
    n = indptr.size - 1
    nnz = np.int64(indptr[n])
    use_table = table.size > 0
    weighted = weights.size > 0
    m = 0
    for i in range(n):
        for p in range(indptr[i], indptr[i + 1]):
            j = indices[p]
            if j > i:
                if use_table:
                    rank = table[p]
                elif weighted:
                    rank = np.int64(weights[p]) - offset
                else:
                    rank = np.int64(0)
                eu[m] = i
                ev[m] = j
                key[m] = rank * nnz + p
                m += 1
    return m


@numba.njit(cache=True, nogil=True)
def boruvka_round(f, eu, ev, key, m, cheap, partner, touched, forest):
    """One Borůvka round in place; returns ``(m, hooked)``: the edges left and the roots that hooked.

    One pass over the edges relabels each end to its root, drops edges inside
    a tree, compacts the rest and keeps per root the cheapest edge and its
    other end; then roots hook (the smaller root of a 2-cycle stays), the hooked
    roots are compressed to their new roots and every vertex jumps once
    (``f = f[f]``), which makes ``f`` a star forest again.  ``cheap`` is all
    ``_INF`` on entry and exit.
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
    hooked = 0
    for t in range(nt):
        r = touched[t]
        p = partner[r]
        if cheap[p] == cheap[r] and r < p:
            continue
        f[r] = p
        forest[r] = cheap[r]
        hooked += 1
    for t in range(nt):  # compress the hooked roots' paths (acyclic: distinct keys leave only 2-cycles)
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
    return j, hooked
