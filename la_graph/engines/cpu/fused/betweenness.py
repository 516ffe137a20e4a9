"""Brandes' betweenness for a batch of sources in one compiled loop, the sources shared among threads.

Per source: a BFS that counts shortest paths (``sigma``) a level at a time and
records the visit order, then a sweep back along that order that accumulates
each vertex's dependency ``delta[v] = sigma[v] * sum over children w of (1 +
delta[w]) / sigma[w]`` (children: out-neighbours one level further).

Path counts outgrow float64 (binomial coefficients on a grid), so each level's
counts are divided, once the level is complete, by the power of two
``2^e_d`` that centres their binary exponents on 0 (the algebra's ``D_d`` in
``la_graph/algorithms/betweenness.py``; exact, so the result is bit for bit the
unscaled one wherever that one is finite).  A level whose counts span more than
``2^SPREAD`` stops its source: ``failed[i]`` is that level, the caller raises.

The sweep goes a level at a time and keeps ``coef[w] = (1 + delta[w]) / sigma[w]``
of the level below, times ``2^-e`` of that level (so that the sum over
children is at the scale of the parent's level), set once that level is
finished and 0 elsewhere: an out-neighbour is at most a level deeper, so the
sum over children is the sum of ``coef`` over all out-neighbours (one read per
edge, no level test).

Each thread keeps its own work arrays and its own row of sums, all allocated by
the caller, and :func:`brandes` returns one int (where to resume): a kernel call does a
bounded batch of sources and builds no Python object but that int, so a Ctrl-C that
arrives during the call is raised by Python as the call returns (boxing a
returned array runs Python code that would meet the pending signal and leave
the interpreter with an exception set: a SystemError or a crash).
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba import prange

from ....exceptions import NumericRangeError
from ..objects import _unsigned
from ._common import _drive, _need_full, _need_weights, fuses

#: the algebra's COUNT_SPREAD: the largest binary-exponent spread of one source's counts at one level
SPREAD = 1800
#: bytes of per-thread edge sums :func:`brandes_dag` may take (threads beyond it are left idle)
EDGE_SUMS_BYTES = 1 << 30


def work_arrays(threads, n):
    """Per-thread scratch of :func:`brandes` for ``n`` vertices, in its reset state (reused across calls)."""
    # BFS levels (below n) in int32 where n fits it: half the bytes; int64 past 2**31 vertices
    level = np.int32 if n <= np.iinfo(np.int32).max else np.int64
    return (np.full((threads, n), -1, level), np.zeros((threads, n)), np.zeros((threads, n)),
            np.empty((threads, n)), np.empty((threads, n), np.int64), np.empty((threads, n + 1)))


@numba.njit(cache=True, nogil=True, parallel=True)
def brandes(indptr, indices, srcs, want_ends, acc, cnt, reached, failed, dist, sigma, coef, delta, order, scale,
            lo, work):
    """Brandes from each of ``srcs`` from ``lo`` on, on ``acc.shape[0]`` threads (thread ``t`` takes sources
    ``t, t + nt, ...``).

    Adds thread ``t``'s dependency sums to ``acc[t]`` (and, ``want_ends``, to ``cnt[t, v]`` one per source
    reaching ``v``); ``reached[i]``: how many vertices source ``i`` reaches (itself included);
    ``failed[i]``: the level whose counts span more than ``2^SPREAD``, or -1.  The work arrays
    (:func:`work_arrays`) are left as they were found.  A call takes the sources of about ``work``
    edges (two graph passes a source, ``nt`` sources at least) and returns the next source, or -1
    past the last or once a source failed (the caller calls again: an interrupt takes effect
    between calls).
    """
    b = srcs.size
    nt = acc.shape[0]
    n = dist.shape[1]
    hi = min(b, lo + nt * max(1, work // (nt * (2 * indices.size + n) + 1)))
    for t in prange(nt):
        dist_t, sigma_t, coef_t, delta_t, order_t, scale_t = dist[t], sigma[t], coef[t], delta[t], order[t], scale[t]
        for i in range(lo + t, hi, nt):
            s = srcs[i]
            dist_t[s] = 0
            sigma_t[s] = 1.0
            scale_t[0] = 1.0
            order_t[0] = s
            lo, hi, d, bad = 0, 1, 0, -1
            while True:                               # forward, a level at a time: path counts
                tail = hi
                for j in range(lo, hi):
                    v = order_t[j]
                    sv = sigma_t[v]
                    for e in range(indptr[v], indptr[v + 1]):
                        w = indices[e]
                        if dist_t[w] < 0:
                            dist_t[w] = d + 1
                            order_t[tail] = w
                            tail += 1
                        if dist_t[w] == d + 1:
                            sigma_t[w] += sv
                if tail == hi:
                    break
                d += 1
                xmax, xmin = -(1 << 30), 1 << 30
                for j in range(hi, tail):
                    x = math.frexp(sigma_t[order_t[j]])[1]
                    xmax = max(xmax, x)
                    xmin = min(xmin, x)
                lo, hi = hi, tail
                if xmax - xmin > SPREAD:
                    bad = d
                    break
                f = math.ldexp(1.0, -((xmax + xmin) >> 1))   # exact: a power of two
                scale_t[d] = f
                for j in range(lo, hi):
                    sigma_t[order_t[j]] *= f
            tail = hi
            failed[i] = bad
            while hi > 1 and bad < 0:                 # backward, a level at a time, deepest first (not the source's)
                lo = hi - 1
                d = dist_t[order_t[lo]]
                while dist_t[order_t[lo - 1]] == d:
                    lo -= 1
                f = scale_t[d]
                for j in range(lo, hi):              # out-neighbours are at most a level deeper, and only the
                    v = order_t[j]                   # level below is finished: the children are those of nonzero coef
                    c = 0.0
                    for e in range(indptr[v], indptr[v + 1]):
                        c += coef_t[indices[e]]
                    delta_t[j] = sigma_t[v] * c
                for j in range(lo, hi):
                    v = order_t[j]
                    coef_t[v] = (1.0 + delta_t[j]) / sigma_t[v] * f
                    acc[t, v] += delta_t[j]
                hi = lo
            reached[i] = tail
            for j in range(tail):                    # reset what this source touched
                v = order_t[j]
                if want_ends:
                    cnt[t, v] += 1
                dist_t[v] = -1
                sigma_t[v] = 0.0
                coef_t[v] = 0.0
    for i in range(lo, hi):
        if failed[i] >= 0:
            return -1
    return hi if hi < b else -1


# ---- shortest paths by weight (and the edges' dependencies) ----
def dag_work_arrays(threads, n):
    """Per-thread scratch of :func:`brandes_dag` (reset state): distances, path counts (mantissa and exponent),
    the sweep back's ``(1 + delta) / sigma``, settled flags, the settle order, an indexed heap and its positions."""
    return (np.full((threads, n), np.inf), np.zeros((threads, n)), np.zeros((threads, n), np.int64),
            np.zeros((threads, n)), np.zeros((threads, n), np.bool_), np.empty((threads, n), np.int64),
            np.empty((threads, n), np.int64), np.empty((threads, n), np.int64))


@numba.njit(cache=True, nogil=True)
def _sift_up(heap, at, dist, i):
    """Move ``heap[i]`` up the binary min-heap keyed by ``dist`` (``at[v]``: ``v``'s place in it)."""
    v = heap[i]
    key = dist[v]
    while i > 0:
        p = (i - 1) >> 1
        u = heap[p]
        if dist[u] <= key:
            break
        heap[i] = u
        at[u] = i
        i = p
    heap[i] = v
    at[v] = i


@numba.njit(cache=True, nogil=True)
def _sift_down(heap, at, dist, size, i):
    """Move ``heap[i]`` down the binary min-heap of ``size`` entries keyed by ``dist``."""
    v = heap[i]
    key = dist[v]
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and dist[heap[c + 1]] < dist[heap[c]]:
            c += 1
        if dist[heap[c]] >= key:
            break
        heap[i] = heap[c]
        at[heap[i]] = i
        i = c
    heap[i] = v
    at[v] = i


@numba.njit(cache=True, nogil=True)
def _heap_pop(heap, at, dist, size):
    """The vertex of least ``dist`` off the heap of ``size`` entries (the caller's size is one less after)."""
    v = heap[0]
    if size > 1:
        heap[0] = heap[size - 1]
        _sift_down(heap, at, dist, size - 1, 0)
    return v


@numba.njit(cache=True, nogil=True)
def _heap_offer(heap, at, dist, size, w, nd):
    """``w`` at distance ``nd`` where that is shorter: into the heap, or up from its place; the heap's new size."""
    if dist[w] == np.inf:
        heap[size] = w
        dist[w] = nd
        _sift_up(heap, at, dist, size)
        return size + 1
    dist[w] = nd
    _sift_up(heap, at, dist, at[w])
    return size


@numba.njit(cache=True, nogil=True)
def _times_pow2(x, e):
    """``x * 2**e`` (exact, or the underflow ``ldexp`` gives): a product for the common small ``e``."""
    if e == 0:
        return x
    if e == -1:
        return x * 0.5
    if e == 1:
        return x * 2.0
    return math.ldexp(x, e)


@numba.njit(cache=True, nogil=True, parallel=True)
def brandes_dag(indptr, indices, weights, hops, srcs, want_ends, acc, cnt, eacc, reached, failed, dist, sig, ex,
                coef, done, order, heap, at, lo, work):
    """Brandes by weight from each of ``srcs`` from ``lo`` on, on ``acc.shape[0]`` threads (thread ``t`` takes
    sources ``t, t + nt, ...``): Dijkstra, then the path counts along the settle order, then the sweep back.
    With ``hops`` every edge weighs 1 (``weights`` is not read) and the search is a BFS, its queue the order.

    ``v``'s predecessors are the ``u`` with ``dist[u] + w == dist[v]`` (float64).  A path count is
    ``sig * 2**ex``, its mantissa brought into ``[0.5, 1)`` once final, so counts of any size hold.
    Adds thread ``t``'s vertex dependencies to ``acc[t]`` (when it has columns), one per source
    reaching ``v`` to ``cnt[t, v]`` (``want_ends``) and the stored edges' dependencies to
    ``eacc[t]`` (when it has columns); ``reached[i]``: the vertices source ``i`` reaches;
    ``failed[i]``: 1 when a shortest path has an edge whose weight is lost beside its distance
    (``dist + w == dist``).  Returns where to resume, or -1 (:func:`brandes`' protocol).
    """
    b = srcs.size
    nt = acc.shape[0]
    want_v = acc.shape[1] > 0
    want_e = eacc.shape[1] > 0
    hi = min(b, lo + nt * max(1, work // (nt * (3 * indices.size + dist.shape[1]) + 1)))
    for t in prange(nt):
        dist_t, sig_t, ex_t, coef_t, done_t, order_t, heap_t, at_t = (dist[t], sig[t], ex[t], coef[t], done[t],
                                                                      order[t], heap[t], at[t])
        for i in range(lo + t, hi, nt):
            s = srcs[i]
            dist_t[s] = 0.0
            heap_t[0] = s
            at_t[s] = 0
            size, k, bad = 1, 0, 0
            if hops:                                  # BFS: the queue is the order by distance
                order_t[0] = s
                tail = 1
                while k < tail:
                    v = order_t[k]
                    k += 1
                    d = dist_t[v] + 1.0
                    for e in range(indptr[v], indptr[v + 1]):
                        w = indices[e]
                        if dist_t[w] == np.inf:
                            dist_t[w] = d
                            order_t[tail] = w
                            tail += 1
                size = 0
            while size > 0:                           # Dijkstra: the settle order is by distance
                v = _heap_pop(heap_t, at_t, dist_t, size)
                size -= 1
                d = dist_t[v]
                done_t[v] = True
                order_t[k] = v
                k += 1
                for e in range(indptr[v], indptr[v + 1]):
                    w = indices[e]
                    nd = d + weights[e]
                    if nd == d and nd <= dist_t[w] and w != v:
                        bad = 1                           # a DAG edge whose weight is lost beside the distance
                    if nd < dist_t[w] and not done_t[w]:
                        size = _heap_offer(heap_t, at_t, dist_t, size, w, nd)
            failed[i] = bad
            sig_t[s] = 1.0
            for j in range(k if bad == 0 else 0):     # path counts forward: v's count is final when v comes
                v = order_t[j]
                m_, x_ = math.frexp(sig_t[v])
                sig_t[v] = m_
                ex_t[v] += x_
                dv, sv, xv = dist_t[v], sig_t[v], ex_t[v]
                for e in range(indptr[v], indptr[v + 1]):
                    w = indices[e]
                    if dv + (1.0 if hops else weights[e]) == dist_t[w] and w != v:
                        if sig_t[w] == 0.0:
                            sig_t[w] = sv
                            ex_t[w] = xv
                        elif xv > ex_t[w]:
                            sig_t[w] = _times_pow2(sig_t[w], ex_t[w] - xv) + sv
                            ex_t[w] = xv
                        else:
                            sig_t[w] += _times_pow2(sv, xv - ex_t[w])
            for j in range(k - 1 if bad == 0 else -1, -1, -1):   # the sweep back, children first
                v = order_t[j]
                dv, sv, xv = dist_t[v], sig_t[v], ex_t[v]
                delta = 0.0
                for e in range(indptr[v], indptr[v + 1]):
                    w = indices[e]
                    if dv + (1.0 if hops else weights[e]) == dist_t[w] and w != v:
                        c = _times_pow2(sv * coef_t[w], xv - ex_t[w])   # sigma_v / sigma_w (1 + delta_w)
                        delta += c
                        if want_e:
                            eacc[t, e] += c
                coef_t[v] = (1.0 + delta) / sv
                if want_v and v != s:
                    acc[t, v] += delta
            reached[i] = k
            for j in range(k):                        # reset what this source touched
                v = order_t[j]
                if want_ends:
                    cnt[t, v] += 1
                dist_t[v] = np.inf
                sig_t[v] = 0.0
                ex_t[v] = 0
                coef_t[v] = 0.0
                done_t[v] = False
    for i in range(lo, hi):
        if failed[i]:
            return -1
    return hi if hi < b else -1


def _dag(E, G, srcs, weights, total, ends, edges):
    """:func:`brandes_dag` over ``srcs`` (``weights`` None: by hops), its sums added into the engine vectors
    ``total``, ``ends``, ``edges``."""
    n, m, srcs = G.n, G.nnz, np.asarray(srcs, np.int64)
    nt = max(1, min(numba.get_num_threads(), srcs.size))
    if edges is not None:   # a row of edge sums a thread: at most EDGE_SUMS_BYTES of them
        nt = max(1, min(nt, EDGE_SUMS_BYTES // max(8 * m, 1)))
    acc = np.zeros((nt, n if total is not None else 0))
    eacc = np.zeros((nt, m if edges is not None else 0))
    counts = np.zeros((nt, n if ends is not None else 0), np.int64)
    reached, failed = np.zeros(srcs.size, np.int64), np.zeros(srcs.size, np.int64)
    hops = weights is None
    _drive(brandes_dag, G.indptr, _unsigned(G.indices), np.zeros(0) if hops else weights, hops, srcs,
           ends is not None, acc, counts, eacc, reached, failed, *dag_work_arrays(nt, n))
    bad = np.flatnonzero(failed)
    if bad.size:
        raise NumericRangeError(
            f"betweenness: from source {int(srcs[bad[0]])} a shortest path has an edge whose weight is lost beside "
            "its distance in float64 (the distance plus the weight is the distance): the path counts are not "
            "defined; rescale the weights")
    for x, a in ((total, acc), (edges, eacc), (ends, counts)):
        if x is not None:
            E.apply(E.vector_from_numpy(a.sum(axis=0)), "identity", out=x, accum="plus")
    return reached if ends is not None else None


# ---- the fused steps ----
@fuses
def brandes_weighted_sources(E, G, srcs, total, ends, edges):
    """Brandes by weight over the sources in parallel numba calls (Dijkstra, counts, sweep back per source)."""
    _need_weights("brandes_weighted_sources", G)
    _need_full("brandes_weighted_sources", *(x for x in (total, ends, edges) if x is not None))
    return _dag(E, G, srcs, G.weights, total, ends, edges)


@fuses
def brandes_edge_sources(E, G, srcs, edges):
    """Brandes by hops onto the edges: :func:`brandes_dag`'s BFS (hop distances are exact in float64)."""
    _need_full("brandes_edge_sources", edges)
    return _dag(E, G, srcs, None, None, None, edges)

@fuses
def brandes_sources(E, G, srcs, total, ends):
    """Brandes over the batch in parallel numba calls (a BFS and a backward sweep per source), each call a
    bounded batch of sources into per-thread sums (an interrupt takes effect between calls, :func:`_drive`)."""
    n, srcs = G.n, np.asarray(srcs, np.int64)
    nt = max(1, min(numba.get_num_threads(), srcs.size))
    acc = np.zeros((nt, n))
    counts = np.zeros((nt, n if ends is not None else 0), np.int64)
    reached, failed = np.zeros(srcs.size, np.int64), np.full(srcs.size, -1, np.int64)
    _drive(brandes, G.indptr, _unsigned(G.indices), srcs, ends is not None, acc, counts, reached, failed,
           *work_arrays(nt, n))
    bad = np.flatnonzero(failed >= 0)
    if bad.size:
        i = int(bad[0])
        raise NumericRangeError(
            f"betweenness: the shortest-path counts from source {int(srcs[i])} to the vertices at distance "
            f"{int(failed[i])} span a factor beyond 2**{SPREAD}, more than float64 holds even "
            "scaled per level; this source's dependencies cannot be computed in float64: leave it out of "
            "sources=")
    E.apply(E.vector_from_numpy(acc.sum(axis=0)), "identity", out=total, accum="plus")
    if ends is None:
        return None
    E.apply(E.vector_from_numpy(counts.sum(axis=0)), "identity", out=ends, accum="plus")
    return reached
