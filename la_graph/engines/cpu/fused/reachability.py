"""Compiled multi-source reachability sweep of the CPU engine (numba).

The batched frontier matrix ``Q`` and visited matrix ``R`` of the step
``reach_sweep`` (``la_graph/algorithms/reachability.py``) stored bit-sliced:
vertex ``v`` holds ``W`` words of 64 bits, bit ``i`` of ``R[v]`` set when
source ``i`` reached ``v`` (the MS-BFS layout of Then et al., VLDB 2015).
One level ``Q<!R> = Q any.pair A`` is then one pass over the frontier's
out-edges (push, ORing words) or over the unfinished vertices' in-edges
(pull), 64 sources per machine word.

Level by level, a vertex passes its words on once per level at which some
source reaches it; where the sources reach it at many different depths
(citation and web graphs, road networks) :func:`finish_shared` takes over:
over the SCCs of what is left, in topological order, each vertex passes its
words on once.
"""

from __future__ import annotations

import numba
import numpy as np

from ..objects import _unsigned
from ._common import _drive, fuses
from .scc import tarjan_from


@numba.njit(cache=True, nogil=True)
def ms_start(sources, vis, fr, active, mark):
    """Set source ``i``'s bit at its vertex in ``vis`` and ``fr`` (n x nwords uint64, zero) and list the
    distinct sources in ``active`` (``mark``, all false, marks them); returns how many there are."""
    na = 0
    for i in range(sources.size):
        s = sources[i]
        bit = np.uint64(1) << np.uint64(i % 64)
        vis[s, i // 64] |= bit
        fr[s, i // 64] |= bit
        if not mark[s]:
            mark[s] = True
            active[na] = s
            na += 1
    return na


@numba.njit(cache=True, nogil=True)
def ms_reach(indptr, indices, tptr, tind, alpha, min_share, flat, budget, vis, fr, nxt, active, mark, new, sample,
             state, spent, level, work):
    """Bit-sliced multi-source reachability, levels from ``level`` on, into arrays the caller made.

    Returns the next level, or -1 once done; ``state[0] == 0`` (no frontier
    left) means finished, else the search stopped early, with ``fr`` the
    frontier words of the ``state[0]`` vertices ``active[:state[0]]``, when
    sharing the frontier will not pay: from the second level on, when the next
    level is expected to find fewer than ``min_share`` (vertex, source) pairs
    per vertex -- a level's pairs per vertex beyond one, ``s - 1``, scaled by
    how much its frontier grew, ``g`` (the excess grows with the share of the
    graph a frontier covers): ``1 + (s - 1) g < min_share``; or at a level
    that would pull where the pull would scan at least ``flat`` times the
    in-edges of the vertices some live search has not reached (next to none
    of them finds every live search at once, :func:`_pull_estimate`), once
    such levels have cost more than ``budget`` times those in-edges.  On a
    road network frontiers of different sources rarely meet; on citation,
    web and social graphs they meet at different depths.
    :func:`finish_shared` then finishes them in one pass.

    ``indptr/indices``: CSR of ``A`` (out-edges), ``tptr/tind``: CSR of ``A'``
    (in-edges), all unsigned (numba then skips its negative-index test on
    every edge).  Level-synchronous; a level pushes when its frontier's
    out-edges are at most ``nnz / alpha``, or at most the in-edges a pull
    would scan (:func:`_pull_estimate`); else pulls.

    ``vis``, ``fr`` (n x nwords uint64) the visited and frontier words and
    ``active``, ``mark`` as :func:`ms_start` left them, ``nxt`` zero (n x
    nwords), ``new`` (n) and ``sample`` (nwords) scratch; ``state`` (int64:
    the frontier's size, the pairs its level found, the frontier before it)
    and ``spent`` (float64, one) carry the search from call to call.  A call
    returns after the level that takes the edges it touched to ``work`` or
    more (the caller calls again: an interrupt takes effect between calls).
    """
    n = indptr.size - 1
    nnz = indices.size
    nwords = vis.shape[1]
    na = state[0]
    pairs = state[1]   # (vertex, source) pairs the last level found
    last = state[2]    # the frontier before it
    # spent[0]: the edges of the levels whose pull would have found next to no vertex done
    levels = level
    done = 0
    while na > 0 and done < work:
        # s = pairs / na, g = na / last: 1 + (s - 1) g = 1 + (pairs - na) / last
        if levels >= 2 and pairs - na < (min_share - 1) * last:
            state[0] = na
            return -1
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
        if not push:
            scan, left = _pull_estimate(tptr, tind, fr, vis, live, sample)
            if scan >= flat * left:   # next to no vertex would find every live search (yet)
                spent[0] += min(edges, scan)
                if spent[0] > budget * left:
                    state[0] = na
                    return -1
            push = edges <= scan   # pull only where it scans fewer edges than the push would
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
                if _todo(vis, live, v):
                    _pull(tptr, tind, fr, vis, live, v, nxt[v])
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
        done += n + edges   # the level's passes over the vertices and the frontier's edges (or a pull's)
    state[0] = na
    state[1] = pairs
    state[2] = last
    return levels if na > 0 else -1


#: a pull's cost is estimated from every PULL_STRIDE-th vertex (:func:`_pull_estimate`)
PULL_STRIDE = 64


@numba.njit(cache=True, nogil=True, inline="always")
def _todo(vis, live, v):
    """Whether some live search has not reached ``v``."""
    for w in range(vis.shape[1]):
        if live[w] & ~vis[v, w]:
            return True
    return False


@numba.njit(cache=True, nogil=True, inline="always")
def _pull(tptr, tind, fr, vis, live, v, row):
    """OR into ``row`` the frontier words of ``v``'s in-neighbours, up to the first that leaves no live search to find.

    Returns the in-edges scanned (all of them where some live search does not
    reach ``v`` this level).
    """
    for e in range(tptr[v], tptr[v + 1]):
        u = tind[e]
        done = True
        for w in range(row.size):
            row[w] |= fr[u, w]
            if live[w] & ~(row[w] | vis[v, w]):
                done = False
        if done:
            return e + 1 - tptr[v]
    return tptr[v + 1] - tptr[v]


@numba.njit(cache=True, nogil=True)
def _pull_estimate(tptr, tind, fr, vis, live, row):
    """``(scan, left)``: the in-edges a pull level would scan, from those of every PULL_STRIDE-th vertex, and at most.

    ``left``: the in-edges of the vertices some live search has not reached
    (what the pull scans at most, and what :func:`finish_shared` would pass
    over at most); ``row``: scratch words.  A pull scans less where vertices
    find every live search in their first in-neighbours: where the
    searches' frontiers move together.
    """
    n = tptr.size - 1
    left = 0
    sampled, scanned = 0, 0
    for v in range(n):
        if _todo(vis, live, v):
            degree = np.int64(tptr[v + 1] - tptr[v])
            left += degree
            if v % PULL_STRIDE == 0:
                row[:] = 0
                sampled += degree
                scanned += np.int64(_pull(tptr, tind, fr, vis, live, v, row))
    return (left * scanned / sampled if sampled else float(left)), left


@numba.njit(cache=True, nogil=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


#: :func:`unpack_rows` takes this many vertices at a time (a word of each: 32 KB)
UNPACK_BLOCK = 4096


@numba.njit(cache=True, nogil=True)
def unpack_rows(vis, out):
    """``out[i, v] = bit i of vis[v]`` (``out``: k x n, written whole), one block of vertices at a time.

    A block's word of each vertex is copied out first, then each of its 64
    rows is written in order from that contiguous copy (a loop the compiler
    vectorizes: 7-9x faster than setting the bits one by one).
    """
    n, nwords = vis.shape
    k = out.shape[0]
    col = np.empty(UNPACK_BLOCK, np.uint64)
    for lo in range(0, n, UNPACK_BLOCK):
        hi = min(lo + UNPACK_BLOCK, n)
        for w in range(nwords):
            for v in range(lo, hi):
                col[v - lo] = vis[v, w]
            for i in range(w * 64, min(w * 64 + 64, k)):
                b = np.uint64(i % 64)
                row = out[i, lo:hi]
                for j in range(hi - lo):
                    row[j] = (col[j] >> b) & np.uint64(1) != 0


@numba.njit(cache=True, nogil=True)
def finish_shared(indptr, indices, vis, fr, active, na):
    """Finish the searches :func:`ms_reach` stopped, all at once, in one pass over what is left.

    ``vis`` (updated in place) and the frontier words ``fr`` of the vertices
    ``active[:na]`` as :func:`ms_reach` left them; ``indptr`` signed, as
    :func:`~.scc.tarjan_from` takes it.  What source ``i`` has yet
    to reach is what its frontier reaches along paths that leave its visited
    set at once (a visited vertex off the frontier has all its out-neighbours
    visited).  So a vertex that every live search has visited (and that is no
    one's frontier) is left out, and over the rest, from the frontier, the
    SCCs come in reverse topological order (:func:`~.scc.tarjan_from`):
    taken the other way round, each SCC ORs its members' words and passes
    them along its out-edges, every edge once, whatever the depths at which
    the sources reach it (a level-synchronous sweep passes a vertex's words
    on once per level some source reaches it at).
    """
    n, nwords = vis.shape
    live = np.zeros(nwords, np.uint64)   # the sources whose frontier is not empty
    for a in range(na):
        for w in range(nwords):
            live[w] |= fr[active[a], w]
    done = np.empty(n, np.bool_)   # left out: visited by every live search
    for v in range(n):
        full = True
        for w in range(nwords):
            if live[w] & ~vis[v, w]:
                full = False
        done[v] = full
    roots = np.empty(n, np.int64)   # the frontier, but for a vertex left out its out-neighbours not left out
    rooted = np.zeros(n, np.bool_)
    nr = 0
    for a in range(na):
        u = active[a]
        if not done[u]:
            if not rooted[u]:
                rooted[u] = True
                roots[nr] = u
                nr += 1
            continue
        for e in range(indptr[u], indptr[u + 1]):
            x = indices[e]
            if not done[x]:
                for w in range(nwords):
                    vis[x, w] |= fr[u, w]
                if not rooted[x]:
                    rooted[x] = True
                    roots[nr] = x
                    nr += 1
    order = np.empty(n, np.int64)
    ends = np.empty(n, np.int64)
    _, sccs = tarjan_from(indptr, indices, roots[:nr], done, order[:0], order, ends)
    for w in range(nwords):   # a word at a time: its OR in a register (25% faster on one word)
        hi = ends[sccs - 1] if sccs else 0
        for c in range(sccs - 1, -1, -1):   # topological order: an SCC's words are whole when it is reached
            lo = ends[c - 1] if c else 0
            acc = np.uint64(0)
            for j in range(lo, hi):
                acc |= vis[order[j], w]
            for j in range(lo, hi):
                u = order[j]
                vis[u, w] = acc
                for e in range(indptr[u], indptr[u + 1]):
                    vis[indices[e], w] |= acc
            hi = lo


# ---- the fused steps ----
#: the shared sweep stops when its next level is expected to find fewer (vertex, source)
#: pairs than this per vertex it touches (frontiers that rarely meet, or meet at different
#: depths): the searches then finish together in topological order (finish_shared)
REACH_MIN_SHARE = 3.0

#: ... or at a level that would pull where, by a sample, the pull would scan at least REACH_FLAT
#: of the in-edges left (no vertex finds every live search at once: the searches meet at
#: different depths, or not at all), once such levels have cost more than REACH_FLAT_BUDGET
#: times those in-edges (the finish passes over them about twice; early levels look so too,
#: before the frontiers meet).  2-core machine, 16 / 64 sources, ms, against no such stop:
#: uk-2007-05 25.6 -> 21.9 / 30.9 -> 24.7, soc-Slashdot0902 9.0 -> 8.6 / 23.3 -> 13.3,
#: cit-HepPh 2.4 -> 2.4 / 13.4 -> 3.9, R-MAT 20 221 -> 208 / 750 -> 652; a budget of 0 (stop at
#: once) gives uk 17.7 / 20.2 and cit-HepPh 2.8 at 64, but soc-Slashdot0902 11.4 at 16
REACH_FLAT = 0.95
REACH_FLAT_BUDGET = 0.5


@fuses
def reach_sweep(E, G, sources):
    """The sweep bit-sliced, 64 sources a machine word, push or pull per level, in one numba loop.

    Where the sources' frontiers stop meeting level by level, what is left is
    finished in one pass over its SCCs in topological order.
    """
    k, n = sources.size, G.n
    nwords = (k + 63) // 64
    T = G.T
    indptr, indices = _unsigned(G.indptr), _unsigned(G.indices)
    vis, fr, nxt = (np.zeros((n, nwords), np.uint64) for _ in range(3))
    active, new, mark = np.empty(n, indices.dtype), np.empty(n, indices.dtype), np.zeros(n, bool)
    state = np.array([ms_start(sources, vis, fr, active, mark), 0, 0], np.int64)
    _drive(ms_reach, indptr, indices, _unsigned(T.indptr), _unsigned(T.indices), 4, REACH_MIN_SHARE, REACH_FLAT,
           REACH_FLAT_BUDGET, vis, fr, nxt, active, mark, new, np.empty(nwords, np.uint64), state, np.zeros(1))
    if state[0]:
        finish_shared(G.indptr, indices, vis, fr, active, state[0])
    out = np.empty((k, n), bool)
    unpack_rows(vis, out)
    return out
