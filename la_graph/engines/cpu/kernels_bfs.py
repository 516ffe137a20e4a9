"""Compiled loops of the CPU engine's BFS steps (numba, which python-graphblas itself requires).

GraphBLAS has no single call for these steps; done as one GraphBLAS call per
level they pay the call overhead (tens of microseconds) thousands of times on
high-diameter graphs.  Each kernel is the exact semantics of the step it runs
(``bfs_push``, ``bfs_pull``), written in primitives in ``la_graph/algorithms/bfs.py``.

Index arrays come in unsigned (``objects._unsigned`` gives the zero-copy view): numba
wraps negative indices, and with signed ones it pays that test on every
edge -- a third of a BFS's time on a web graph.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def mark(flags, indices):
    """``flags[indices] = True``."""
    for i in range(indices.size):
        flags[indices[i]] = True


@numba.njit(cache=True, nogil=True)
def fill_absent(values, present, fill):
    """``values[~present] = fill`` in one pass (numpy makes ``~present`` first)."""
    for i in range(values.size):
        if not present[i]:
            values[i] = fill


@numba.njit(cache=True, nogil=True)
def bfs_push_levels(indptr, indices, indeg, frontier, nf, nxt, vis, par, lev, k, max_edges):
    """Expand BFS levels from ``frontier[:nf]`` (found at level ``k``) while each scans <= ``max_edges`` edges.

    ``q<!vis> = q any.secondi A; par<q> = q; lev<q> = k`` level after level; ``vis``
    is the visited bitmap (the parents' when kept, else the levels').  Empty
    ``par`` or ``lev`` arrays mean that result is not kept.  ``indptr``,
    ``indices`` and the scratch queues ``frontier``, ``nxt`` (length n) are
    unsigned.  ``indeg`` is the in-degree of a directed graph, or empty for an
    undirected one (the out-degree then serves: it is the same).
    Returns ``(frontier, nf, k, found, scanned, found_in)``: the last frontier,
    its size, its level, the number of vertices found, of edges scanned, and
    the found vertices' in-degree sum.  The next level's edge count is summed
    as its vertices are found (their rows are read next anyway): one pass over
    each frontier.
    """
    found = 0
    scanned = 0
    found_in = 0
    directed = indeg.size > 0
    want_par = par.size > 0
    want_lev = lev.size > 0
    edges = 0
    for i in range(nf):
        u = frontier[i]
        edges += np.int64(indptr[u + 1] - indptr[u])
    while nf > 0:
        if edges > max_edges:
            break
        scanned += edges
        k += 1
        m = 0
        nxt_edges = 0
        for i in range(nf):
            u = frontier[i]
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                if not vis[v]:
                    vis[v] = True
                    if want_par:
                        par[v] = u
                    if want_lev:
                        lev[v] = k
                    nxt[m] = v
                    m += 1
                    nxt_edges += np.int64(indptr[v + 1] - indptr[v])
                    if directed:
                        found_in += indeg[v]
        if not directed:
            found_in += nxt_edges
        edges = nxt_edges
        frontier, nxt = nxt, frontier
        nf = m
        found += m
    return frontier, nf, k, found, scanned, found_in


@numba.njit(cache=True, nogil=True)
def bfs_pull_levels(tptr, tind, frontier, nf, nxt, in_frontier, vis, par, lev, k, min_frontier):
    """Bottom-up BFS levels ``q<!vis> = A' any.secondi q; par<q> = q; lev<q> = k``, then k + 1, ...

    Every unvisited vertex scans its in-neighbours (row of ``A'``: ``tptr``,
    ``tind``, unsigned) and stops at the first one in the frontier
    ``frontier[:nf]``.  Levels follow each other until the new frontier is
    empty, or smaller than the one before and at most ``min_frontier``.
    ``nxt`` is a scratch queue of length n (unsigned, like ``frontier``),
    ``in_frontier`` an all-false scratch bitmap (left all false).  Empty
    ``par`` / ``lev`` arrays mean that result is not kept.  Returns
    ``(frontier, nf, k, found, found_in)``: the last frontier, its size and
    level, the number of vertices found and their in-degree sum.
    """
    want_par = par.size > 0
    want_lev = lev.size > 0
    found = 0
    found_in = 0
    while True:
        for i in range(nf):
            in_frontier[frontier[i]] = True
        m = 0
        for v in range(vis.size):
            if not vis[v]:
                for e in range(tptr[v], tptr[v + 1]):
                    u = tind[e]
                    if in_frontier[u]:
                        nxt[m] = v
                        m += 1
                        found_in += np.int64(tptr[v + 1] - tptr[v])
                        if want_par:
                            par[v] = u
                        if want_lev:
                            lev[v] = k
                        break
        for i in range(nf):
            in_frontier[frontier[i]] = False
        for i in range(m):
            vis[nxt[i]] = True
        found += m
        frontier, nxt = nxt, frontier
        if m == 0 or (m < nf and m <= min_frontier):
            return frontier, m, k, found, found_in
        nf = m
        k += 1
