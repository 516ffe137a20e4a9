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
def ms_reach(indptr, indices, tptr, tind, sources, nwords, alpha):
    """Bit-sliced multi-source reachability; returns the visited words ``vis`` (n x nwords uint64).

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
    while na > 0:
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
                vis[v, w] |= nxt[v, w]
                fr[v, w] = nxt[v, w]
                nxt[v, w] = 0
            active[a] = v
        na = nn
    return vis
