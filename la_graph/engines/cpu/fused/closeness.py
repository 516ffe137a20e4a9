"""Closeness and harmonic centrality (la_graph/algorithms/closeness.py): ``distance_sums`` a search per source.

The algebra runs the sources in batches of multi-source searches and reduces
each ``b x n`` block of distances.  Here each source gets its own search, the
sources dealt to numba's threads: by hops the direction-optimizing BFS of
:func:`.bfs.search` (its queue is in level order, so the sums are taken
level by level: ``c`` vertices at level ``d`` add ``c * d`` and ``c / d``);
by weight a Dijkstra over an indexed binary heap (the heap of
:mod:`.betweenness`).  No block: the batch is as large as the work a call may
take (:data:`~._common.CALL_WORK`), so Ctrl-C takes effect between calls.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange

from .betweenness import _heap_offer, _heap_pop
from .bfs import AUTO, PUSH, _search_arrays, search
from ._common import _drive, _need_weights, fuses


@numba.njit(cache=True, nogil=True, parallel=True)
def hop_sums(indptr, indices, tptr, tind, indeg, max_degree, branchless, direction, alpha, beta1, beta2, srcs,
             out, queue, flags, vis, lev, lo, work):
    """BFS sums from ``srcs[lo:]`` on ``queue.shape[0]`` threads (thread ``t``: sources ``t, t + nt, ...``).

    ``out[0, i]``, ``out[1, i]``, ``out[2, i]``: the vertices source ``i``
    reaches (itself included), the sum of their levels, the sum of the
    inverse levels past 0.  Per-thread scratch (``queue``, ``flags``, ``vis``,
    ``lev``) as :func:`.bfs.search` takes it.  Returns the next source or -1
    (the protocol of :func:`~._common._drive`).
    """
    b = srcs.size
    nt = queue.shape[0]
    n = flags.shape[1]
    hi = min(b, lo + nt * max(1, work // (nt * (indices.size + n) + 1)))
    none = lev[0, :0]
    for t in prange(nt):
        q, lev_t = queue[t], lev[t]
        for i in range(lo + t, hi, nt):
            s = srcs[i]
            if indptr[s] == indptr[s + 1]:
                out[0, i], out[1, i], out[2, i] = 1.0, 0.0, 0.0
                continue
            reached = search(indptr, indices, tptr, tind, indeg, max_degree, s, q, flags[t], vis[t], none, lev_t,
                             direction, alpha, beta1, beta2, branchless)
            total, inverse = 0, 0.0
            j = 1
            while j < reached:                 # the queue holds a level after another
                d = lev_t[q[j]]
                k = j
                while k < reached and lev_t[q[k]] == d:
                    k += 1
                total += (k - j) * d
                inverse += (k - j) / d
                j = k
            out[0, i], out[1, i], out[2, i] = reached, total, inverse
    return hi if hi < b else -1


@numba.njit(cache=True, nogil=True, parallel=True)
def length_sums(indptr, indices, weights, srcs, out, dist, done, order, heap, at, lo, work):
    """Dijkstra sums from ``srcs[lo:]`` on ``dist.shape[0]`` threads: :func:`hop_sums`' ``out`` by weight.

    Per-thread scratch in its reset state, left so: ``dist`` (inf),
    ``done`` (false), ``order``, ``heap``, ``at``.  A vertex is counted
    once settled; ``1 / d`` only where ``d > 0`` (a zero-length edge's far
    end is reached at distance 0).
    """
    b = srcs.size
    nt = dist.shape[0]
    n = dist.shape[1]
    hi = min(b, lo + nt * max(1, work // (nt * (2 * indices.size + n) + 1)))
    for t in prange(nt):
        dist_t, done_t, order_t, heap_t, at_t = dist[t], done[t], order[t], heap[t], at[t]
        for i in range(lo + t, hi, nt):
            s = srcs[i]
            dist_t[s] = 0.0
            heap_t[0] = s
            at_t[s] = 0
            size, k = 1, 0
            total, inverse = 0.0, 0.0
            while size > 0:
                v = _heap_pop(heap_t, at_t, dist_t, size)
                size -= 1
                d = dist_t[v]
                done_t[v] = True
                order_t[k] = v
                k += 1
                total += d
                if d > 0:
                    inverse += 1.0 / d
                for e in range(indptr[v], indptr[v + 1]):
                    w = indices[e]
                    nd = d + weights[e]
                    if nd < dist_t[w] and not done_t[w]:
                        size = _heap_offer(heap_t, at_t, dist_t, size, w, nd)
            out[0, i], out[1, i], out[2, i] = k, total, inverse
            for j in range(k):
                v = order_t[j]
                dist_t[v] = np.inf
                done_t[v] = False
    return hi if hi < b else -1


@fuses
def distance_sums(E, R, srcs, weighted, rule):
    """A search per source on numba's threads, the sums kept as it goes (no ``b x n`` block)."""
    n, srcs = R.n, np.asarray(srcs, np.int64)
    out = np.zeros((3, srcs.size))
    if srcs.size == 0:
        return out[0], out[1], out[2]
    nt = max(1, min(numba.get_num_threads(), srcs.size))
    if weighted:
        _need_weights("distance_sums", R)
        scratch = (np.full((nt, n), np.inf), np.zeros((nt, n), np.bool_), np.empty((nt, n), np.int64),
                   np.empty((nt, n), np.int64), np.empty((nt, n), np.int64))
        _drive(length_sums, R.indptr, R.indices, R.weights.astype(np.float64, copy=False), srcs, out, *scratch)
    else:
        indptr, indices, tptr, tind, indeg, max_degree, branchless = _search_arrays(R)
        # Beamer's switch where the search would take it (bfs's rule: pull only on graphs dense enough)
        direction = AUTO if R.nnz >= rule.min_degree * n else PUSH
        scratch = (np.empty((nt, n + 1), indices.dtype), np.zeros((nt, n), np.bool_), np.zeros((nt, n), np.bool_),
                   np.empty((nt, n), np.int64))
        _drive(hop_sums, indptr, indices, tptr, tind, indeg, max_degree, branchless, direction, rule.alpha_of(R),
               rule.beta1, rule.beta2, srcs, out, *scratch)
    return out[0], out[1], out[2]
