"""Compiled loops of the CPU engine's BFS steps (numba, which python-graphblas itself requires).

GraphBLAS has no single call for these steps; done as one GraphBLAS call per
level they pay the call overhead (tens of microseconds) thousands of times on
high-diameter graphs.  Each kernel is the exact semantics of the step it runs
(``bfs_push``, ``bfs_pull``, ``bfs_search``), written in primitives in
``la_graph/algorithms/bfs.py``: :func:`push_levels` and :func:`pull_levels`
are the two stretches, :func:`search` the whole single-source search made
of them (its driver, the direction choice, in the same loop: no per-call cost
at all between stretches).

The frontier lives in one queue that every vertex enters once: a level's
frontier is a slice ``queue[lo:hi]`` and the next one is appended after it; a
large frontier of a large graph is put in vertex order first (its rows are
then read in memory order: R-MAT 18 from vertex 0, 13 ms against 21 in
discovery order).
The results come in all ``-1`` and ``seen`` -- the parents if kept, else the
levels -- gets each vertex's entry as it is found.  Whether a vertex was found
is a bitmap ``vis`` (one byte a vertex: fewer cache misses than the 8-byte
entries on all but road networks), or, in the branchless push form, ``seen``
itself.

Index arrays come in unsigned (``objects._unsigned`` gives the zero-copy view): numba
wraps negative indices, and with signed ones it pays that test on every
edge -- a third of a BFS's time on a web graph.
"""

from __future__ import annotations

import numba
import numpy as np

from ...base import Declined
from ..objects import _bitmap_views, _frontier, _indices, _vnvals, fill_absent
from ._common import _csr, fuses


#: :func:`search`'s ``direction`` codes
AUTO, PUSH, PULL = 0, 1, 2

#: a push level's frontier of more than n >> ORDER_SHIFT vertices is put in vertex order first,
#: on graphs of at least ORDER_MIN_EDGES stored edges (smaller ones stay in cache: there the
#: pass over n flags a level only costs; rome99, 48 levels of ~100 vertices: 2.3x slower)
ORDER_SHIFT = 6
ORDER_MIN_EDGES = 1 << 20


@numba.njit(cache=True, nogil=True)
def out_edges(indptr, queue, lo, hi):
    """The out-edges of the vertices ``queue[lo:hi]`` (the sum of their rows' lengths)."""
    total = 0
    for i in range(lo, hi):
        u = queue[i]
        total += np.int64(indptr[u + 1] - indptr[u])
    return total


@numba.njit(cache=True, nogil=True)
def degree_sum(degree, indptr, queue, lo, hi):
    """The sum of ``degree`` over the vertices ``queue[lo:hi]``; their out-edges if ``degree`` is empty."""
    if degree.size == 0:
        return out_edges(indptr, queue, lo, hi)
    total = 0
    for i in range(lo, hi):
        total += degree[queue[i]]
    return total


@numba.njit(cache=True, nogil=True)
def in_vertex_order(queue, lo, hi, flags):
    """Sort the distinct vertices ``queue[lo:hi]`` in place by a pass over ``flags`` (all false, left so)."""
    for i in range(lo, hi):
        flags[queue[i]] = True
    j = lo
    for v in range(flags.size):
        if flags[v]:
            flags[v] = False
            queue[j] = v
            j += 1


@numba.njit(cache=True, nogil=True)
def push_levels(indptr, indices, queue, lo, hi, vis, seen, par, lev, flags, k, max_edges, max_levels, max_degree,
                branchless):
    """Push levels from the frontier ``queue[lo:hi]`` (found at level ``k``).

    ``q<!visited> = q any.secondi A; par<q> = q; lev<q> = k`` level after
    level, each new frontier appended to ``queue`` after the one before (every
    vertex enters the queue once), while a frontier has at most ``max_edges``
    out-edges, for at most ``max_levels`` levels.  ``vis`` is the visited
    bitmap; ``seen`` is ``par`` if kept, else ``lev`` (the same array object),
    ``-1`` where not visited.  An empty ``par`` or ``lev`` is a result not
    kept.  ``flags`` is an all-false scratch bitmap (left so), for putting a
    large frontier in vertex order.  ``indptr``, ``indices`` and ``queue``
    are unsigned.  Returns ``(lo, hi, k, edges)``: the last frontier
    ``queue[lo:hi]``, its level and its out-edges.  A frontier's out-edges are
    summed only where its size times ``max_degree`` (the largest out-degree,
    or more) passes ``max_edges``: on a road network, never (the found
    vertices' degrees, which the direction choice counts, are summed over the
    queue when it asks).

    ``branchless``: ``seen`` alone tells the visited (``vis`` is neither read
    nor written), and every edge writes its target to the queue (the end
    moves only for a new vertex) and its ``seen`` entry (a new value only for
    a new vertex), with no branch on whether it is new; ``queue`` then needs
    one slot more than it can hold vertices.  Where that branch is a coin toss
    and the accesses miss the cache (road networks) this runs 10-40% faster;
    where neighbours share targets (grids, meshes) the stores chain the loop
    and it runs 20% slower.
    """
    parents = par.size > 0
    both = parents and lev.size > 0   # else seen is the one result kept
    n = seen.size
    order = n >> ORDER_SHIFT if indices.size >= ORDER_MIN_EDGES else n   # frontiers past this are sorted
    levels = 0
    while hi > lo and levels < max_levels:
        if (hi - lo) * max_degree > max_edges:
            edges = out_edges(indptr, queue, lo, hi)
            if edges > max_edges:
                return lo, hi, k, edges
        k += 1
        levels += 1
        end = hi
        if end - lo > order:
            in_vertex_order(queue, lo, end, flags)
        if branchless:
            lo, hi = _level_branchless(indptr, indices, queue, lo, end, hi, seen, parents, k)
        else:
            lo, hi = _level(indptr, indices, queue, lo, end, hi, vis, seen, parents, k)
        if both:   # the levels of what seen (the parents) found: the queue's new stretch
            for i in range(end, hi):
                lev[queue[i]] = k
    return lo, hi, k, out_edges(indptr, queue, lo, hi)


@numba.njit(cache=True, nogil=True, inline="always")
def _level(indptr, indices, queue, lo, end, hi, vis, seen, parents, k):
    """One push level of :func:`push_levels`: expand ``queue[lo:end]``, append at ``hi``; returns ``(end, hi)``.

    A new vertex is marked in ``vis``, and ``seen`` gets its parent (``parents``) or ``k``.
    """
    while lo < end:   # not range(lo, end): numba's range loop here ran 10% slower on roads
        u = queue[lo]
        lo += 1
        mark = np.int64(u) if parents else k
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            if not vis[v]:
                vis[v] = True
                seen[v] = mark
                queue[hi] = v
                hi += 1
    return lo, hi


@numba.njit(cache=True, nogil=True, inline="always")
def _level_branchless(indptr, indices, queue, lo, end, hi, seen, parents, k):
    """:func:`_level` with no branch on whether a vertex is new, and ``seen`` as the visited set (see :func:`push_levels`)."""
    while lo < end:
        u = queue[lo]
        lo += 1
        mark = np.int64(u) if parents else k
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            was = seen[v]   # loaded once: the choice below is then a select, not a branch
            seen[v] = mark if was < 0 else was
            queue[hi] = v
            hi += was < 0
    return lo, hi


@numba.njit(cache=True, nogil=True)
def pull_levels(tptr, tind, queue, lo, hi, in_frontier, vis, seen, par, lev, k, min_frontier):
    """Bottom-up BFS levels ``q<!visited> = A' any.secondi q; par<q> = q; lev<q> = k``, then k + 1, ...

    The frontier is ``queue[lo:hi]``; each new one is appended after it.
    Every unvisited vertex (``seen``, ``par`` or ``lev`` as for
    :func:`push_levels`, negative) scans its in-neighbours (row of ``A'``:
    ``tptr``, ``tind``, unsigned) and stops at the first one in the frontier;
    the bitmap ``vis`` (empty: none kept) is kept up to date.  Levels follow
    each other until the new frontier is empty, or smaller than the one before
    and at most ``min_frontier``.  ``in_frontier`` is an all-false scratch
    bitmap (left all false).  Returns ``(lo, hi, k)``: the last frontier
    ``queue[lo:hi]`` and its level.
    """
    parents = par.size > 0
    both = parents and lev.size > 0
    keep_vis = vis.size > 0
    while True:
        for i in range(lo, hi):
            in_frontier[queue[i]] = True
        end = hi
        for v in range(seen.size):
            if seen[v] < 0:
                for e in range(tptr[v], tptr[v + 1]):
                    u = tind[e]
                    if in_frontier[u]:   # v is visited from here on: its own row only, read once a level
                        seen[v] = np.int64(u) if parents else k
                        if both:
                            lev[v] = k
                        if keep_vis:
                            vis[v] = True
                        queue[hi] = v
                        hi += 1
                        break
        for i in range(lo, end):
            in_frontier[queue[i]] = False
        m, nf = hi - end, end - lo
        lo = end
        if m == 0 or (m < nf and m <= min_frontier):
            return lo, hi, k
        k += 1


@numba.njit(cache=True, nogil=True)
def search(indptr, indices, tptr, tind, indeg, max_degree, s, queue, flags, vis, par, lev, direction,
           alpha, beta1, beta2, branchless):
    """A whole single-source BFS from ``s``: the driver of ``la_graph.algorithms.bfs.bfs_search`` in one loop.

    The same direction choices as the algebra (with every push level fused):
    push stretches that stop where Beamer's rule may turn to pull (the
    frontier's out-edges past the in-edges left / ``alpha`` before any pull,
    past ``nnz / beta1`` after), pull stretches until a shrinking frontier holds
    at most ``n / beta2`` vertices, and once fewer than ``n`` in-edges are left
    to pull, the direction it has to the end.  ``direction``: :data:`AUTO`,
    :data:`PUSH` or :data:`PULL`.  ``tptr``, ``tind``: the CSR of ``A'`` (that
    of ``A`` when undirected); ``indeg``: the in-degrees of a directed graph,
    empty for an undirected one; ``max_degree``: the largest out-degree;
    ``branchless``: the push levels' form (:func:`push_levels`).  Scratch a
    caller may keep for the next search: ``queue`` (unsigned, length n + 1),
    ``flags`` and ``vis`` (bitmaps of length n, all false, left so).  ``par``
    and ``lev`` (int64; empty: not kept) are filled here (``-1`` where
    unreached).  Returns the number of vertices reached.
    """
    n = flags.size
    nnz = np.int64(indptr[n])
    seen = par if par.size > 0 else lev
    par[:] = -1   # a memset (all bytes 0xFF)
    lev[:] = -1
    marks = vis[:0] if branchless else vis   # the branchless form keeps no bitmap
    if par.size > 0:
        par[s] = s
    if lev.size > 0:
        lev[s] = 0
    if marks.size > 0:
        marks[s] = True
    queue[0] = s
    lo, hi = 0, 1
    edges = np.int64(0)
    push = direction != PULL
    auto = direction == AUTO
    any_pull = False
    nq, last_nq, k = 1, 0, 0
    # the unvisited vertices' in-edges, the most a pull level can scan: the in-degrees of
    # queue[:counted] taken off, the rest when the rule asks (queue holds every vertex found)
    edges_to_pull, counted = nnz, 0
    everything = np.inf
    while hi < n:
        if push:
            limit = everything
            if auto:
                edges_to_pull -= degree_sum(indeg, indptr, queue, counted, hi)
                counted = hi
                if edges_to_pull >= n:
                    limit = nnz / beta1 if any_pull else edges_to_pull / alpha
            lo, hi, k, edges = push_levels(indptr, indices, queue, lo, hi, marks, seen, par, lev, flags, k, limit,
                                           n, max_degree, branchless)
            nq = hi - lo
            if nq == 0 or hi >= n:
                break
        if auto:
            edges_to_pull -= degree_sum(indeg, indptr, queue, counted, hi)
            counted = hi
            if edges_to_pull < n:
                auto = False  # little of the graph is left: stay as we are
                if push:
                    continue  # a push stretch with no pull to stop for
        if auto:  # Beamer's switch
            if push:
                growing = nq > last_nq
                if any_pull:
                    push = not (growing and nq > n / beta1)
                elif growing:
                    push = not (edges > edges_to_pull / alpha)
            else:  # a pull stretch ends where the rule turns back: the frontier shrank to <= n / beta2
                push = True
            any_pull = any_pull or not push
        last_nq = nq
        if push:  # one level, past the stretch's limit
            lo, hi, k, edges = push_levels(indptr, indices, queue, lo, hi, marks, seen, par, lev, flags, k,
                                           everything, 1, max_degree, branchless)
        else:
            lo, hi, k = pull_levels(tptr, tind, queue, lo, hi, flags, marks, seen, par, lev, k + 1,
                                    n / beta2 if auto else -1.0)
        nq = hi - lo
        if nq == 0:
            break
    if marks.size > 0:   # vis all false again: cleared whole where that is cheaper than vertex by vertex
        if hi > n >> 4:
            marks[:] = False
        else:
            for i in range(hi):
                marks[queue[i]] = False
    return hi


# ---- the fused steps ----
def _need_visited(step, parent, level):
    if parent is None and level is None:
        raise Declined(f"{step} needs parent or level: the visited set is its structure")


_NO_DEGREES = np.empty(0, np.int64)   # the BFS kernels: an undirected graph's in-degrees are its out-degrees
_NOT_KEPT = np.empty(0, np.int64)      # a BFS result not kept
_DIRECTIONS = {"auto": AUTO, "push": PUSH, "pull": PULL}


def _bfs_queue(q, n, dtype):
    """The frontier ``q`` as the BFS kernels' queue: ``q``'s vertices first, room for every vertex after them."""
    nq = _vnvals(q)
    queue = np.empty(n + nq, dtype)  # q's vertices are visited (room for n after them is room for everything)
    queue[:nq] = _indices(q)
    return queue, nq


def _in_degrees(G):
    """What the BFS kernels take for the in-degrees: ``G.in_degree``, or empty when undirected (the out-degree)."""
    return G.in_degree if G.directed else _NO_DEGREES


class _visited_views(_bitmap_views):
    """Lend ``parent`` and ``level`` as the BFS kernels take them: values ``-1`` where absent.

    ``with _visited_views(parent, level) as (vis, seen, par, lev)``: ``seen``
    is ``par`` if the parents are kept, else ``lev``, and ``vis`` its bitmap
    (the visited set is that vector's structure); on exit each bitmap becomes
    its values' ``>= 0``.
    """

    def __enter__(self):
        (self.pb, pv), (self.lb, lv) = super().__enter__()
        for present, values in ((self.pb, pv), (self.lb, lv)):
            fill_absent(values, present, -1)
        self.par, self.lev = pv, lv
        return ((self.pb, pv) if pv.size else (self.lb, lv)) + (pv, lv)

    def __exit__(self, *exc):
        for present, values in ((self.pb, self.par), (self.lb, self.lev)):
            np.greater_equal(values, 0, out=present)
        return super().__exit__(*exc)


@fuses
def bfs_push(E, G, q, parent, level, k, max_edges):
    """Push levels in one numba loop over the CSR, on the parent/level vectors lent as bitmaps."""
    _need_visited("bfs_push", parent, level)
    n = G.n
    if _vnvals(q) == 0:
        return q, k, 0, 0, 0, 0
    indptr, indices, max_degree = _csr(G)
    queue, nf = _bfs_queue(q, n, indices.dtype)  # the queue holds vertex ids: 32 bits up to 2**31 vertices
    if out_edges(indptr, queue, 0, nf) > max_edges:
        return q, k, nf, 0, 0, 0
    with _visited_views(parent, level) as (vis, seen, par, lev):
        lo, hi, k, _ = push_levels(indptr, indices, queue, 0, nf, vis, seen, par, lev, np.zeros(n, bool),
                                   k, max_edges, n, max_degree, False)
    scanned = out_edges(indptr, queue, 0, lo)   # the frontiers expanded
    found_in = degree_sum(_in_degrees(G), indptr, queue, nf, hi)
    return _frontier(queue[lo:hi], n, q.dtype), k, hi - lo, hi - nf, scanned, found_in


@fuses
def bfs_pull(E, G, q, parent, level, k, min_frontier=-1):
    """Pull levels in one numba loop over the CSR of ``A'`` (each unvisited vertex stops at its first parent)."""
    _need_visited("bfs_pull", parent, level)
    n = G.n
    tptr, tind, _ = _csr(G.T)
    queue, nf = _bfs_queue(q, n, tind.dtype)
    with _visited_views(parent, level) as (vis, seen, par, lev):
        lo, hi, k = pull_levels(tptr, tind, queue, 0, nf, np.zeros(n, bool), vis, seen, par, lev, k,
                                min_frontier)
    found_in = out_edges(tptr, queue, nf, hi)   # rows of A': in-degrees
    return _frontier(queue[lo:hi], n, q.dtype), k, hi - lo, hi - nf, found_in


_BFS_SCRATCH = ("cpu", "bfs_scratch")

#: bfs_search pushes branchless (push_levels) on graphs of at most this average
#: degree and at least BFS_BRANCHLESS_MIN_N vertices: road networks, where whether a neighbour
#: is new is a coin toss and its entry a cache miss.  Bench-like runs (igraph between calls,
#: 2 cores), the push loop alone: usroads-48 0.87x scipy against 1.00x, luxembourg_osm 0.93x
#: against 0.99x; on rome99 (3,353 vertices, in cache) 1.11x against 0.85x, and on a grid
#: (degree 4) or a Delaunay mesh (6) 20% slower (neighbours share targets: the stores chain)
BFS_BRANCHLESS_DEGREE = 3.0
BFS_BRANCHLESS_MIN_N = 1 << 15


def _search_arrays(G):
    """What the step :func:`bfs_search` hands the loop for ``G`` (cached).

    The CSR of ``A`` and ``A'``, the in-degrees, the largest out-degree, and
    whether the push levels run branchless (see BFS_BRANCHLESS_DEGREE).
    """
    key = ("cpu", "bfs_search")
    arrays = G._engine_cache.get(key)
    if arrays is None:
        indptr, indices, max_degree = _csr(G)
        tptr, tind, _ = _csr(G.T)
        branchless = G.n >= BFS_BRANCHLESS_MIN_N and G.nnz <= BFS_BRANCHLESS_DEGREE * G.n
        arrays = G._engine_cache[key] = (indptr, indices, tptr, tind, _in_degrees(G), max_degree, branchless)
    return arrays


@fuses
def bfs_search(E, G, s, level, parent, direction, output, rule):
    """The whole search in one numba loop (stretches and direction choice), into numpy arrays made here.

    No GraphBLAS object at all; from a vertex without out-edges not even the
    loop.  The loop's scratch (a queue and two bitmaps, 6 bytes a vertex) is
    kept on the graph for its next search (taken while in use, so concurrent
    searches never share it): fresh arrays cost page faults on every search
    wherever the allocator hands memory back to the system (cit-HepPh: 60 us
    of a 600 us search).
    """
    n = G.n
    lev = np.empty(n, np.int64) if level else _NOT_KEPT
    par = np.empty(n, np.int64) if parent else _NOT_KEPT
    arrays = _search_arrays(G)
    indptr = arrays[0]
    if indptr[s] == indptr[s + 1]:  # the source alone
        for out, at_s in ((lev, 0), (par, s)):
            if out.size:
                out.view(np.uint8).fill(0xFF)   # -1: a memset (int64 fill(-1) runs at half its speed)
                out[s] = at_s
    else:
        scratch = G._engine_cache.pop(_BFS_SCRATCH, None)
        if scratch is None:
            scratch = np.empty(n + 1, arrays[1].dtype), np.zeros(n, bool), np.zeros(n, bool)
        indptr, indices, tptr, tind, indeg, max_degree, branchless = arrays
        search(indptr, indices, tptr, tind, indeg, max_degree, s, *scratch, par, lev, _DIRECTIONS[direction],
               rule.alpha_of(G), rule.beta1, rule.beta2, branchless)
        G._engine_cache[_BFS_SCRATCH] = scratch   # its bitmaps all false again (not put back if the loop failed)
    return (lev if level else None), (par if parent else None)
