"""Compiled multi-source reachability sweep of the CPU engine (numba).

The batched frontier matrix ``Q`` and visited matrix ``R`` of the step
``reach_sweep`` (``la_graph/algorithms/reachability.py``) stored bit-sliced:
vertex ``v`` holds ``W`` words of 64 bits, bit ``i`` of ``R[v]`` set when
source ``i`` reached ``v`` (the MS-BFS layout of Then et al., VLDB 2015).
One level ``Q<!R> = Q any.pair A`` is then one pass over the frontier's
out-edges (push, ORing words) or over the unfinished vertices' in-edges
(pull), 64 sources per machine word.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def ms_reach(indptr, indices, tptr, tind, sources, nwords, alpha, min_share):
    """Bit-sliced multi-source reachability; returns ``(vis, fr, active, na)``.

    ``vis`` (n x nwords uint64) the visited words; the search stops early, with
    ``fr`` the frontier words of the ``na`` vertices ``active[:na]``, when
    sharing the frontier will not pay: from the second level on, when the next
    level is expected to find fewer than ``min_share`` (vertex, source) pairs
    per vertex -- a level's pairs per vertex beyond one, ``s - 1``, scaled by
    how much its frontier grew, ``g`` (the excess grows with the share of the
    graph a frontier covers): ``1 + (s - 1) g < min_share``.  On a road network
    frontiers of different sources rarely meet, and one search per source is
    cheaper (:func:`finish_each`).  ``na == 0``: done.

    ``indptr/indices``: CSR of ``A`` (out-edges), ``tptr/tind``: CSR of ``A'``
    (in-edges), all unsigned (numba then skips its negative-index test on
    every edge).  Level-synchronous; a level pushes when its frontier's
    out-edges are at most ``nnz / alpha``, or at most half the in-edges of the
    vertices some live search has not reached (what a pull scans at most:
    on a web graph many vertices are unreachable and scanned whole); else pulls.
    """
    n = indptr.size - 1
    nnz = indices.size
    vis = np.zeros((n, nwords), np.uint64)
    fr = np.zeros((n, nwords), np.uint64)
    nxt = np.zeros((n, nwords), np.uint64)
    active = np.empty(n, indices.dtype)
    na = 0
    mark = np.zeros(n, np.bool_)
    for i in range(sources.size):
        s = sources[i]
        bit = np.uint64(1) << np.uint64(i % 64)
        vis[s, i // 64] |= bit
        fr[s, i // 64] |= bit
        if not mark[s]:
            mark[s] = True
            active[na] = s
            na += 1
    new = np.empty(n, indices.dtype)
    pairs = 0    # (vertex, source) pairs the last level found
    last = na    # the frontier before it
    levels = 0
    while na > 0:
        # s = pairs / na, g = na / last: 1 + (s - 1) g = 1 + (pairs - na) / last
        if levels >= 2 and pairs - na < (min_share - 1) * last:
            return vis, fr, active, na
        last = na
        pairs = 0
        levels += 1
        edges = 0  # the frontier's out-edges
        live = np.zeros(nwords, np.uint64)  # the sources whose frontier is not empty
        for a in range(na):
            u = active[a]
            edges += np.int64(indptr[u + 1] - indptr[u])
            mark[u] = False
            for w in range(nwords):
                live[w] |= fr[u, w]
        nn = 0
        push = edges * alpha <= nnz
        if not push:  # pull only where it scans fewer edges: the vertices a live search has not reached
            pull_edges = 0
            for v in range(n):
                for w in range(nwords):
                    if live[w] & ~vis[v, w]:
                        pull_edges += np.int64(tptr[v + 1] - tptr[v])
                        break
            push = edges * 2 <= pull_edges  # unreached vertices are scanned whole: pull must look 2x cheaper
        if push:  # push: OR each frontier word into the out-neighbours
            for a in range(na):
                u = active[a]
                for e in range(indptr[u], indptr[u + 1]):
                    v = indices[e]
                    hit = False
                    for w in range(nwords):
                        t = fr[u, w] & ~vis[v, w]
                        if t:
                            nxt[v, w] |= t
                            hit = True
                    if hit and not mark[v]:
                        mark[v] = True
                        new[nn] = v
                        nn += 1
        else:  # pull: every vertex some live search has not reached ORs its in-neighbours' frontier words
            for v in range(n):
                todo = False
                for w in range(nwords):
                    if live[w] & ~vis[v, w]:
                        todo = True
                if not todo:
                    continue
                for e in range(tptr[v], tptr[v + 1]):
                    u = tind[e]
                    done = True
                    for w in range(nwords):
                        nxt[v, w] |= fr[u, w]
                        if live[w] & ~(nxt[v, w] | vis[v, w]):
                            done = False
                    if done:
                        break
                hit = False
                for w in range(nwords):
                    nxt[v, w] &= ~vis[v, w]
                    if nxt[v, w]:
                        hit = True
                if hit:
                    mark[v] = True
                    new[nn] = v
                    nn += 1
        for a in range(na):
            u = active[a]
            for w in range(nwords):
                fr[u, w] = 0
        for a in range(nn):
            v = new[a]
            for w in range(nwords):
                x = nxt[v, w]
                pairs += _popcount(x)
                vis[v, w] |= x
                fr[v, w] = x
                nxt[v, w] = 0
            active[a] = v
        na = nn
    return vis, fr, active, 0


@numba.njit(cache=True, nogil=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@numba.njit(cache=True, nogil=True)
def unpack_rows(vis, k, out):
    """``out[i, v] = bit i of vis[v]`` for the set bits (``out``: k x n, all false)."""
    n, nwords = vis.shape
    for v in range(n):
        for w in range(nwords):
            x = vis[v, w]
            while x:
                low = x & (~x + np.uint64(1))
                i = w * 64 + _popcount(low - np.uint64(1))
                if i < k:
                    out[i, v] = True
                x ^= low
    return out


#: sources x edges below which :func:`finish_each` runs on one thread: where cores are
#: shared, waking a second one can cost milliseconds (rome99, 16 sources, 2 busy cores:
#: 0.67 ms on one thread, 7.98 ms on two), which only a large search hides
PARALLEL_WORK = 1 << 26


def finish_each(indptr, indices, fr, active, na, out):
    """Finish each source's search alone: a plain queue over its bool row.

    ``out[i]`` holds what source ``i`` has reached (:func:`unpack_rows`), and
    ``fr[active[:na]]`` the words of the frontier :func:`ms_reach` stopped at:
    vertices reached whose out-edges are not yet scanned.  Rows in parallel
    when ``rows x edges`` is at least :data:`PARALLEL_WORK`.
    """
    if out.shape[0] * indices.size >= PARALLEL_WORK:
        _finish_parallel(indptr, indices, fr, active, na, out)
    else:
        _finish_serial(indptr, indices, fr, active, na, out)


@numba.njit(cache=True, nogil=True)
def _finish_row(indptr, indices, fr, active, na, i, row):
    n = indptr.size - 1
    w = i // 64
    bit = np.uint64(1) << np.uint64(i % 64)
    q = np.empty(n, indices.dtype)
    tail = 0
    for a in range(na):
        u = active[a]
        if fr[u, w] & bit:
            q[tail] = u
            tail += 1
    head = 0
    while head < tail:
        u = q[head]
        head += 1
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            if not row[v]:
                row[v] = True
                q[tail] = v
                tail += 1


@numba.njit(cache=True, nogil=True)
def _finish_serial(indptr, indices, fr, active, na, out):
    for i in range(out.shape[0]):
        _finish_row(indptr, indices, fr, active, na, i, out[i])


@numba.njit(cache=True, nogil=True, parallel=True)
def _finish_parallel(indptr, indices, fr, active, na, out):
    for i in numba.prange(out.shape[0]):
        _finish_row(indptr, indices, fr, active, na, i, out[i])
