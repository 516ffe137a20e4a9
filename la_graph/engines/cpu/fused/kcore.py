"""Core numbers in one compiled pass: Batagelj and Zaversnik's bucket algorithm (2003).

Vertices sit in an array sorted by their current degree, with the start of
each degree's block in ``start``; taking the vertices in that order, each
neighbour of higher degree loses one and moves to the front of its block,
one block down.  Every adjacency entry is looked at once: O(n + m).
"""

from __future__ import annotations

import numba
import numpy as np

from ..objects import _owning_full, _unsigned
from ._common import fuses
from .scc import _has


@numba.njit(inline="always")
def _peel(ptr, ind, v, deg, start, vert, pos):
    """``v`` leaves: each neighbour of higher degree loses one and moves one block down.

    ``deg[v]`` stays as it is meanwhile (only higher degrees drop), and a self-loop
    fails the test (``deg[v] > deg[v]`` is false).
    """
    dv = deg[v]
    for e in range(ptr[v], ptr[v + 1]):
        u = ind[e]
        du = deg[u]
        if du > dv:
            pw = start[du]                 # the first vertex of u's block changes place with u
            w = vert[pw]
            if u != w:
                pu = pos[u]
                vert[pu] = w
                pos[w] = pu
                vert[pw] = u
                pos[u] = pw
            start[du] += 1
            deg[u] = du - 1


@numba.njit(cache=True, nogil=True)
def core_numbers(indptr, indices, tptr, tind, directed, deg):
    """Into ``deg`` (zero) the core number of every vertex of the graph with out-adjacency ``(indptr, indices)``
    and, when ``directed``, in-adjacency ``(tptr, tind)`` (ignored otherwise).

    A vertex's degree is its number of adjacency entries to other vertices (out plus in when directed:
    an edge both ways counts twice, as NetworkX counts it); self-loops are skipped.  The work arrays and
    ``deg`` have the type of ``indices`` (unsigned vertex ids, up to ``2**31`` vertices: a degree is
    below ``2 n``): 32 bits halve what the peeling reads.  The caller makes ``deg``: no array is
    returned (see ``_common._drive``: a Ctrl-C is then never met while numba boxes one).
    """
    n = deg.size
    for v in range(n):   # row lengths less a self-loop (rows are sorted: a binary search, no edge scan)
        lo, hi = indptr[v], indptr[v + 1]
        d = hi - lo - _has(indices, lo, hi, v)
        if directed:
            lo, hi = tptr[v], tptr[v + 1]
            d += hi - lo - _has(tind, lo, hi, v)
        deg[v] = d
    top = 0
    for v in range(n):
        if deg[v] > top:
            top = deg[v]
    start = np.zeros(top + 2, indices.dtype)           # start[d]: where degree d's block begins
    for v in range(n):
        start[deg[v] + 1] += 1
    for d in range(1, top + 2):
        start[d] += start[d - 1]
    vert = np.empty(n, indices.dtype)              # vertices by degree
    pos = np.empty(n, indices.dtype)               # where each vertex is in vert
    fill = start.copy()
    for v in range(n):
        pos[v] = fill[deg[v]]
        vert[pos[v]] = v
        fill[deg[v]] += 1
    for i in range(n):
        v = vert[i]
        _peel(indptr, indices, v, deg, start, vert, pos)
        if directed:
            _peel(tptr, tind, v, deg, start, vert, pos)


# ---- the fused steps ----
@fuses
def core_peel(E, G):
    """Batagelj and Zaversnik's bucket peeling in one numba pass over the CSR (and its transpose when directed)."""
    T = G.T if G.directed else G
    indices = _unsigned(G.indices)
    core = np.zeros(G.n, indices.dtype)   # vertex-sized numbers in the vertex ids' (unsigned) type
    core_numbers(G.indptr, indices, T.indptr, _unsigned(T.indices), G.directed, core)
    return _owning_full(core.astype(np.int64))   # the int64 copy handed over as it is
