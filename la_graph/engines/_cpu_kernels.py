"""Compiled loops of the CPU engine's fused steps (numba, which python-graphblas itself requires).

GraphBLAS has no single call for these steps; done as one GraphBLAS call per
level they pay the call overhead (tens of microseconds) thousands of times on
high-diameter graphs.  Each kernel is the exact semantics of the engine method
that calls it, documented in ``la_graph/engines/base.py``.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def bfs_push_levels(indptr, indices, frontier, nf, nxt, vis, par, lev_b, lev, k, max_frontier):
    """Expand BFS levels from ``frontier[:nf]`` (found at level ``k``) while it holds <= max_frontier vertices.

    ``q<!vis> = q any.secondi A; par<q> = q; lev<q> = k`` level after level; ``vis``
    is the visited bitmap (the parents' when kept, else the levels').  ``par``,
    ``lev_b`` and ``lev`` are written for every vertex found (pass scratch arrays
    of length n for the ones not wanted).  Returns ``(frontier, nf, k, found)``:
    the last frontier, its size, its level and the number of vertices found.
    """
    found = 0
    while 0 < nf <= max_frontier:
        k += 1
        m = 0
        for i in range(nf):
            u = frontier[i]
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                if not vis[v]:
                    vis[v] = True
                    par[v] = u
                    lev_b[v] = True
                    lev[v] = k
                    nxt[m] = v
                    m += 1
        frontier, nxt = nxt, frontier
        nf = m
        found += m
    return frontier, nf, k, found
