"""Compiled loops of the CPU engine's shortest-path steps (numba).

Each kernel runs a whole label-correcting search on the host CSR arrays in one
call: done as GraphBLAS calls, delta-stepping pays tens of microseconds per
call for every inner round of every bucket, which on a road network is
thousands of rounds.  The semantics are those of the engine methods in
``la_graph/engines/base.py`` (``sssp_delta_stepping``, ``sssp_bellman_ford``,
``sssp_batch``).

Distances are float64 arrays with ``inf`` where unreached; parents int64 with
``-1`` where none (an empty ``par`` array means parents are not kept).  A
parent is set whenever a distance strictly drops, so at the end every parent
edge is tight and, without negative cycles, the parents form a tree.
"""

from __future__ import annotations

import numba
import numpy as np

#: most buckets the circular bucket array may hold (``max weight / delta + 3``);
#: a smaller ``delta`` is raised to ``max weight / MAX_BUCKETS`` (results do not
#: depend on ``delta``, only the work does)
MAX_BUCKETS = 1 << 20


def effective_delta(delta, max_weight):
    """``delta`` raised so that the circular bucket array stays within :data:`MAX_BUCKETS`."""
    return max(float(delta), float(max_weight) / (MAX_BUCKETS - 3))


@numba.njit(cache=True, nogil=True)
def delta_stepping(indptr, indices, w, d, par, lo, delta):
    """Delta-stepping (Meyer & Sanders) from every vertex with ``lo <= d[v] < inf``, in place.

    Bucket ``b`` holds the pending vertices with ``lo + b*delta <= d[v] < lo + (b+1)*delta``.
    For the smallest non-empty bucket: relax the light edges (``w <= delta``) of
    its vertices until it stays empty (improved vertices land in it or later
    ones), then the heavy edges of every vertex it held.  Buckets live in a
    circular array of ``max(w)/delta + 3`` lists (all pending distances are
    within ``max(w)`` of the current bucket); stale entries (the vertex improved
    since) are skipped.  Weights must be non-negative.
    """
    n = d.size
    want_par = par.size > 0
    maxw = 0.0
    for e in range(w.size):
        if w[e] > maxw:
            maxw = w[e]
    nb = int(maxw / delta) + 3
    heavy = maxw > delta
    head = np.full(nb, -1, np.int64)
    cap = n + 16
    ev = np.empty(cap, np.int64)  # entry -> vertex
    ed = np.empty(cap, np.float64)  # entry -> distance when pushed (stale if d[v] moved)
    enx = np.empty(cap, np.int64)  # entry -> next entry of its list (or of the free list)
    free = -1
    used = 0
    pending = 0
    cur = 0
    # initial entries
    for v in range(n):
        x = d[v]
        if x >= lo and x < np.inf:
            f = (x - lo) / delta
            b = nb - 1 if f >= nb - 1 else int(f)
            if used == cap:
                cap *= 2
                ev2 = np.empty(cap, np.int64)
                ed2 = np.empty(cap, np.float64)
                en2 = np.empty(cap, np.int64)
                ev2[:used] = ev[:used]
                ed2[:used] = ed[:used]
                en2[:used] = enx[:used]
                ev, ed, enx = ev2, ed2, en2
            ev[used] = v
            ed[used] = x
            enx[used] = head[b]
            head[b] = used
            used += 1
            pending += 1
    if pending == 0:
        return
    # the first non-empty bucket
    while head[cur % nb] == -1:
        cur += 1
    settled = np.empty(n, np.int64)  # vertices the current bucket held (their heavy edges wait)
    in_settled = np.zeros(n, np.bool_)
    frontier = np.empty(n, np.int64)
    while True:
        slot = cur % nb
        ns = 0
        while head[slot] != -1:  # light rounds of bucket cur
            e = head[slot]
            head[slot] = -1
            nf = 0
            while e != -1:
                v = ev[e]
                nxt = enx[e]
                if ed[e] == d[v]:
                    frontier[nf] = v
                    nf += 1
                enx[e] = free
                free = e
                pending -= 1
                e = nxt
            for i in range(nf):
                u = frontier[i]
                if not in_settled[u]:
                    in_settled[u] = True
                    settled[ns] = u
                    ns += 1
                du = d[u]
                for k in range(indptr[u], indptr[u + 1]):
                    wk = w[k]
                    if wk <= delta:
                        v = indices[k]
                        x = du + wk
                        if x < d[v]:
                            d[v] = x
                            if want_par:
                                par[v] = u
                            f = (x - lo) / delta - cur
                            b = cur + nb - 1 if f >= nb - 1 else cur + max(int(f), 0)
                            if free == -1:
                                if used == cap:
                                    cap *= 2
                                    ev2 = np.empty(cap, np.int64)
                                    ed2 = np.empty(cap, np.float64)
                                    en2 = np.empty(cap, np.int64)
                                    ev2[:used] = ev[:used]
                                    ed2[:used] = ed[:used]
                                    en2[:used] = enx[:used]
                                    ev, ed, enx = ev2, ed2, en2
                                ent = used
                                used += 1
                            else:
                                ent = free
                                free = enx[free]
                            ev[ent] = v
                            ed[ent] = x
                            enx[ent] = head[b % nb]
                            head[b % nb] = ent
                            pending += 1
        for i in range(ns):  # heavy edges of the settled bucket
            u = settled[i]
            in_settled[u] = False
            if not heavy:
                continue
            du = d[u]
            for k in range(indptr[u], indptr[u + 1]):
                wk = w[k]
                if wk > delta:
                    v = indices[k]
                    x = du + wk
                    if x < d[v]:
                        d[v] = x
                        if want_par:
                            par[v] = u
                        f = (x - lo) / delta - cur
                        b = cur + nb - 1 if f >= nb - 1 else cur + max(int(f), 1)
                        if free == -1:
                            if used == cap:
                                cap *= 2
                                ev2 = np.empty(cap, np.int64)
                                ed2 = np.empty(cap, np.float64)
                                en2 = np.empty(cap, np.int64)
                                ev2[:used] = ev[:used]
                                ed2[:used] = ed[:used]
                                en2[:used] = enx[:used]
                                ev, ed, enx = ev2, ed2, en2
                            ent = used
                            used += 1
                        else:
                            ent = free
                            free = enx[free]
                        ev[ent] = v
                        ed[ent] = x
                        enx[ent] = head[b % nb]
                        head[b % nb] = ent
                        pending += 1
        if pending == 0:
            return
        cur += 1
        while head[cur % nb] == -1:
            cur += 1


@numba.njit(cache=True, nogil=True)
def bellman_ford(indptr, indices, w, d, par, frontier, nf, max_rounds):
    """Frontier Bellman-Ford rounds from ``frontier[:nf]``, in place; relaxes with the newest distances.

    Each round relaxes every out-edge of the frontier; the vertices whose
    distance dropped form the next frontier.  Stops when the frontier is empty
    or after ``max_rounds`` rounds.  Returns ``(frontier, nf, rounds)``.
    """
    n = d.size
    want_par = par.size > 0
    nxt = np.empty(n, np.int64)
    queued = np.zeros(n, np.bool_)
    for i in range(nf):
        queued[frontier[i]] = True
    rounds = 0
    while nf > 0 and rounds < max_rounds:
        rounds += 1
        for i in range(nf):
            queued[frontier[i]] = False
        m = 0
        for i in range(nf):
            u = frontier[i]
            du = d[u]
            for k in range(indptr[u], indptr[u + 1]):
                v = indices[k]
                x = du + w[k]
                if x < d[v]:
                    d[v] = x
                    if want_par:
                        par[v] = u
                    if not queued[v]:
                        queued[v] = True
                        nxt[m] = v
                        m += 1
        frontier, nxt = nxt, frontier
        nf = m
    return frontier, nf, rounds


@numba.njit(cache=True, nogil=True, parallel=True)
def batch(indptr, indices, w, D, P, sources, delta, max_rounds):
    """One search per row of ``D`` / ``P`` (row ``i`` from ``sources[i]``), rows in parallel.

    ``delta > 0``: delta-stepping (non-negative weights); else Bellman-Ford
    bounded by ``max_rounds``.  ``D`` starts all ``inf``, ``P`` all ``-1`` (or
    has no columns: no parents).  Returns a bool per row: still changing after
    ``max_rounds`` rounds (a negative cycle).
    """
    k = sources.size
    active = np.zeros(k, np.bool_)
    for i in numba.prange(k):
        s = sources[i]
        d = D[i]
        p = P[i]
        d[s] = 0.0
        if p.size > 0:
            p[s] = s
        if delta > 0:
            delta_stepping(indptr, indices, w, d, p, 0.0, delta)
        else:
            fr = np.empty(d.size, np.int64)
            fr[0] = s
            _, nf, _ = bellman_ford(indptr, indices, w, d, p, fr, 1, max_rounds)
            active[i] = nf > 0
    return active
