"""Compiled loops of the CPU engine's shortest-path steps (numba).

Each kernel runs a whole label-correcting search on the host CSR arrays in one
call: done as GraphBLAS calls, delta-stepping pays tens of microseconds per
call for every inner round of every bucket, which on a road network is
thousands of rounds.  The semantics are those of the steps in
``la_graph/algorithms/sssp.py`` (``sssp_delta_stepping``, ``sssp_bellman_ford``,
``sssp_batch``).

Distances are float64 arrays with ``inf`` where unreached; parents int64 with
``-1`` where none (an empty ``par`` array means parents are not kept).  A
parent is set whenever a distance strictly drops, so at the end every parent
edge is tight and, without negative cycles, the parents form a tree.
"""

from __future__ import annotations

import numba
import numpy as np
from graphblas import Matrix, Vector

from ..objects import _numpy_views, _queue, _unsigned
from ._common import CALL_WORK, _drive, _need_full, _need_weights, fuses

#: most buckets the circular bucket array may hold (``max weight / delta + 3``);
#: a smaller ``delta`` is raised to ``max weight / MAX_BUCKETS`` (results do not
#: depend on ``delta``, only the work does)
MAX_BUCKETS = 1 << 16


def effective_delta(delta, max_weight):
    """``delta`` raised so that the circular bucket array stays within :data:`MAX_BUCKETS`."""
    return max(float(delta), float(max_weight) / (MAX_BUCKETS - 3))


@numba.njit(cache=True, nogil=True)
def _more_blocks(ev, ex, bnext):
    """Double the block pool; the new blocks form the free list, whose head is returned."""
    nblk = bnext.size
    B = ev.size // nblk
    ev2 = np.empty(2 * nblk * B, np.int64)
    ex2 = np.empty(2 * nblk * B, np.float64)
    bnext2 = np.empty(2 * nblk, np.int64)
    ev2[:nblk * B] = ev
    ex2[:nblk * B] = ex
    bnext2[:nblk] = bnext
    bnext2[nblk:] = np.arange(nblk + 1, 2 * nblk + 1)
    bnext2[2 * nblk - 1] = -1
    return ev2, ex2, bnext2, nblk


@numba.njit(cache=True, nogil=True)
def _starts(d, lo):
    """The vertices with ``lo <= d[v] < inf``, in order."""
    m = 0
    for v in range(d.size):
        x = d[v]
        if x >= lo and x < np.inf:
            m += 1
    out = np.empty(m, np.int64)
    m = 0
    for v in range(d.size):
        x = d[v]
        if x >= lo and x < np.inf:
            out[m] = v
            m += 1
    return out


@numba.njit(cache=True, nogil=True)
def delta_stepping(indptr, indices, w, d, par, lo, delta, maxw):
    """Delta-stepping from every vertex with ``lo <= d[v] < inf``, in place; weights non-negative, ``<= maxw``.

    Bucket ``b`` holds the pending vertices with ``lo + b*delta <= d[v] < lo +
    (b+1)*delta``; the smallest non-empty bucket is emptied first (vertices that
    improve into it are appended and taken in the same pass), then the next.
    Sequentially nothing is gained by holding heavy edges back until the bucket
    is done, so a vertex taken from its bucket relaxes all its edges at once (one
    pass over its row).  Buckets live in a circular array of ``maxw/delta + 3``
    slots (every pending distance is within ``maxw`` of the current bucket); each
    is a chain of fixed-size blocks of ``(vertex, distance)`` entries, read in
    order; an entry whose vertex improved since it was pushed is skipped.
    The loop itself is :func:`_settle`, which never reallocates its arrays (an
    array reassigned inside a numba loop makes the whole loop ~2x slower: rome99
    0.165 -> 0.077 ms); when the block pool runs short it returns, the pool is
    doubled here, and it resumes where it stopped.  (One search of a batch; a
    single search from Python is :func:`delta_stepping_driven`, which returns
    to the interpreter every ``work`` edges.)
    """
    nb = int(maxw / delta) + 3
    starts = _starts(d, lo)  # apart from the appends below: this loop over n runs 10x faster alone
    shead, stail, sfill, ev, ex, bnext, st = _buckets(nb, starts.size)
    _bucket_fill(d, lo, delta, starts, shead, stail, sfill, ev, ex, bnext, st)
    while _settle(indptr, indices, w, d, par, lo, delta, nb, _B, shead, stail, sfill, ev, ex, bnext, st,
                  _NO_PAUSE) == _MORE_BLOCKS:
        ev, ex, bnext = _grow(ev, ex, bnext, st)


def delta_stepping_driven(indptr, indices, w, d, par, lo, delta, maxw, work):
    """:func:`delta_stepping` in calls of about ``work`` edges each, so a Ctrl-C takes effect between them.

    Its compiled calls return only numbers (the arrays are made and grown
    here, in numpy): a returned array would be boxed by code that meets a
    pending Ctrl-C.
    """
    nb = int(maxw / delta) + 3
    starts = np.flatnonzero((d >= lo) & (d < np.inf))
    shead, stail, sfill, ev, ex, bnext, st = _buckets.py_func(nb, starts.size)
    _bucket_fill(d, lo, delta, starts, shead, stail, sfill, ev, ex, bnext, st)
    while True:
        why = _settle(indptr, indices, w, d, par, lo, delta, nb, _B, shead, stail, sfill, ev, ex, bnext, st, work)
        if why == _DONE:
            return
        if why == _MORE_BLOCKS:  # _grow, uncompiled
            ev, ex, bnext, head = _more_blocks.py_func(ev, ex, bnext)
            bnext[bnext.size - 1] = st[0]
            st[0] = head
            st[1] += head


_DONE, _MORE_BLOCKS, _PAUSED = 0, 1, 2
_NO_PAUSE = np.int64(2**62)
_B = 256  # entries per block


@numba.njit(cache=True, nogil=True)
def _grow(ev, ex, bnext, st):
    """Double the block pool of a stopped :func:`_settle` (enough free blocks for every push the next
    vertex can make, so the pool never grows inside the edge loop)."""
    ev, ex, bnext, head = _more_blocks(ev, ex, bnext)
    bnext[bnext.size - 1] = st[0]
    st[0] = head
    st[1] += head
    return ev, ex, bnext


@numba.njit(cache=True, nogil=True)
def _buckets(nb, nstarts):
    """Empty buckets and a free pool that holds ``nstarts`` initial entries (numpy only: also run uncompiled)."""
    shead = np.full(nb, -1, np.int64)
    stail = np.full(nb, -1, np.int64)
    sfill = np.zeros(nb, np.int64)
    nblk = max(16, min(nstarts, nb) + nstarts // _B + 2)  # the initial entries fit: no growth in their loop
    ev = np.empty(nblk * _B, np.int64)
    ex = np.empty(nblk * _B, np.float64)
    bnext = np.arange(1, nblk + 1)
    bnext[nblk - 1] = -1
    # free blocks, their count, pending entries, current bucket, block and entry to resume at (-2: none)
    st = np.array([0, nblk, 0, 0, -2, 0], np.int64)
    return shead, stail, sfill, ev, ex, bnext, st


@numba.njit(cache=True, nogil=True)
def _bucket_fill(d, lo, delta, starts, shead, stail, sfill, ev, ex, bnext, st):
    """Put the initial entries ``starts`` into their buckets; the state ``st`` of :func:`_settle` updated."""
    nb = shead.size
    B = _B
    free = st[0]
    nfree = st[1]
    for i in range(starts.size):
        v = starts[i]
        x = d[v]
        f = (x - lo) / delta
        slot = nb - 1 if f >= nb - 1 else int(f)
        t = stail[slot]
        if t == -1 or sfill[slot] == B:
            nbk = free
            free = bnext[nbk]
            nfree -= 1
            bnext[nbk] = -1
            if t == -1:
                shead[slot] = nbk
            else:
                bnext[t] = nbk
            stail[slot] = nbk
            sfill[slot] = 0
            t = nbk
        ev[t * B + sfill[slot]] = v
        ex[t * B + sfill[slot]] = x
        sfill[slot] += 1
    st[0] = free
    st[1] = nfree
    st[2] = starts.size


@numba.njit(cache=True, nogil=True)
def _settle(indptr, indices, w, d, par, lo, delta, nb, B, shead, stail, sfill, ev, ex, bnext, st, work):
    """The bucket loop of :func:`delta_stepping` from the state ``st``: ``_DONE``, or why it stopped.

    It stops before taking a vertex whose pushes the free blocks might not
    hold (``_MORE_BLOCKS``), or once it relaxed ``work`` edges (``_PAUSED``),
    with ``st`` pointing at that entry.
    """
    want_par = par.size > 0
    free = st[0]
    nfree = st[1]
    pending = st[2]
    cur = st[3]
    blk = st[4]
    i = st[5]
    resume = blk != -2
    done = 0
    while pending > 0:
        slot = cur % nb
        if resume:
            resume = False
        else:
            blk = shead[slot]
            i = 0
        while blk != -1:
            lim = sfill[slot] if blk == stail[slot] else B
            if i == lim:
                if blk == stail[slot]:
                    break
                nxt = bnext[blk]  # a full block, all taken: back to the free list
                bnext[blk] = free
                free = blk
                nfree += 1
                blk = nxt
                i = 0
                continue
            u = ev[blk * B + i]
            du = ex[blk * B + i]
            if du != d[u]:
                i += 1
                pending -= 1
                continue  # stale: u improved since
            deg = indptr[u + 1] - indptr[u]
            short = nfree <= min(deg, nb) + deg // B
            if short or done >= work:
                st[0] = free
                st[1] = nfree
                st[2] = pending
                st[3] = cur
                st[4] = blk
                st[5] = i
                return 1 if short else 2
            done += deg + 1
            i += 1
            pending -= 1
            for k in range(indptr[u], indptr[u + 1]):
                v = indices[k]
                x = du + w[k]
                if x < d[v]:
                    d[v] = x
                    if want_par:
                        par[v] = u
                    f = (x - lo) / delta - cur
                    b = cur + nb - 1 if f >= nb - 1 else cur + max(int(f), 0)
                    # the append of the initial entries again, written out: as a helper (inlined
                    # or called) it made this loop 12-30% slower (rmat16, a 400 x 400 grid)
                    s2 = b % nb
                    t = stail[s2]
                    if t == -1 or sfill[s2] == B:
                        nbk = free
                        free = bnext[nbk]
                        nfree -= 1
                        bnext[nbk] = -1
                        if t == -1:
                            shead[s2] = nbk
                        else:
                            bnext[t] = nbk
                        stail[s2] = nbk
                        sfill[s2] = 0
                        t = nbk
                    ev[t * B + sfill[s2]] = v
                    ex[t * B + sfill[s2]] = x
                    sfill[s2] += 1
                    pending += 1
        if blk != -1:  # the tail block
            bnext[blk] = free
            free = blk
            nfree += 1
        shead[slot] = -1
        stail[slot] = -1
        sfill[slot] = 0
        if pending == 0:
            break
        cur += 1
        while shead[cur % nb] == -1:
            cur += 1
    return 0


@numba.njit(cache=True, nogil=True)
def _parent_cycle(par, d, root, starts, m, stamp, owner, check):
    """A vertex on a cycle of the parent pointers reached from ``starts[:m]``, or -1.

    Parents only change on a strict drop, so such a cycle has negative weight.
    A source (``root``) points to itself; that is a cycle only once its distance
    dropped below 0; any other vertex pointing to itself has a negative
    self-loop.  ``stamp`` / ``owner`` are scratch arrays; ``check`` a fresh stamp.
    """
    for i in range(m):
        v = starts[i]
        while stamp[v] != check:
            stamp[v] = check
            owner[v] = i
            p = par[v]
            if p == v:
                if d[v] < 0 or not root[v]:
                    return v
                break
            v = p
        else:
            if owner[v] == i:
                return v
    return -1


@numba.njit(cache=True, nogil=True)
def bf_start(par, frontier, nf, queued, root):
    """Mark ``frontier[:nf]`` in ``queued`` (false) and, with parents, the sources (their own parents now)
    in ``root``."""
    for v in range(root.size):
        root[v] = par[v] == v
    for i in range(nf):
        queued[frontier[i]] = True


@numba.njit(cache=True, nogil=True)
def bf_scratch(par, frontier, nf):
    """The state :func:`bf_rounds` carries from call to call: ``(nxt, queued, stamp, owner, root, counts)``.

    ``queued`` marks ``frontier[:nf]``; ``root`` the sources (their own
    parents now); ``counts``: the edges relaxed since the last parent-cycle
    search and the searches made.
    """
    n = frontier.size
    want_par = par.size > 0
    nxt = np.empty(n, np.int64)
    queued = np.zeros(n, np.bool_)
    stamp = np.zeros(n if want_par else 0, np.int64)
    owner = np.zeros(n if want_par else 0, np.int64)
    root = np.zeros(n if want_par else 0, np.bool_)
    bf_start(par, frontier, nf, queued, root)
    return nxt, queued, stamp, owner, root, np.zeros(2, np.int64)


@numba.njit(cache=True, nogil=True)
def bf_rounds(indptr, indices, w, d, par, frontier, nf, max_rounds, nxt, queued, stamp, owner, root, counts,
              max_work):
    """Frontier Bellman-Ford rounds from ``frontier[:nf]``, in place; relaxes with the newest distances.

    Each round relaxes every out-edge of the frontier; the vertices whose
    distance dropped form the next frontier.  Stops when the frontier is empty,
    after ``max_rounds`` rounds, after the round that took the edges relaxed
    in this call to ``max_work`` or more (a caller calls again: an interrupt
    takes effect between calls), or (with parents) as soon as the parents form
    a cycle -- a negative one; the frontier is then that one vertex on it.  The
    parents are searched for a cycle whenever ``n`` edges were relaxed since the
    last search (O(1) per edge).  ``nxt`` ... ``counts``: as :func:`bf_scratch`
    made them, or as the last call left them.  Returns ``(frontier, nxt, nf,
    rounds, cycle)``: the frontier and the scratch for the next call (they
    change places each round), the rounds run, whether a cycle was found.
    """
    n = d.size
    want_par = par.size > 0
    work = counts[0]
    checks = counts[1]
    done = 0
    rounds = 0
    while nf > 0 and rounds < max_rounds and done < max_work:
        rounds += 1
        for i in range(nf):
            queued[frontier[i]] = False
        m = 0
        for i in range(nf):
            u = frontier[i]
            du = d[u]
            work += indptr[u + 1] - indptr[u]
            done += indptr[u + 1] - indptr[u] + 1
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
        if want_par and nf > 0 and work >= n:
            work = 0
            checks += 1
            c = _parent_cycle(par, d, root, frontier, nf, stamp, owner, checks)
            if c >= 0:
                frontier[0] = c
                counts[0] = work
                counts[1] = checks
                return frontier, nxt, 1, rounds, True
    counts[0] = work
    counts[1] = checks
    return frontier, nxt, nf, rounds, False


@numba.njit(cache=True, nogil=True)
def bellman_ford(indptr, indices, w, d, par, frontier, nf, max_rounds):
    """:func:`bf_rounds` to the end, in one call (no bound on the work).  Returns ``(frontier, nf, rounds)``."""
    nxt, queued, stamp, owner, root, counts = bf_scratch(par, frontier, nf)
    frontier, _, nf, rounds, _ = bf_rounds(indptr, indices, w, d, par, frontier, nf, max_rounds, nxt, queued, stamp,
                                           owner, root, counts, np.iinfo(np.int64).max)
    return frontier, nf, rounds


@numba.njit(cache=True, nogil=True)
def bf_steps(indptr, indices, w, d, par, F, queued, stamp, owner, root, counts, state, max_rounds, at, work):
    """:func:`bf_rounds` from round ``at`` on, the rounds of about ``work`` edges, in arrays the caller made.

    ``F`` (2 x n int64): the frontier in row ``at % 2``, the next one written
    into the other (they change places each round); ``queued`` ...
    ``counts``: as for :func:`bf_rounds` (:func:`bf_start` marks the first
    frontier); ``state`` (int64): the frontier's size, whether the parents
    formed a cycle, the rounds run.  Returns the rounds run so far, or -1
    once done: the frontier empty, ``max_rounds`` rounds, or a cycle (the
    caller calls again: an interrupt takes effect between calls).
    """
    p = at % 2
    _, _, nf, rounds, cycle = bf_rounds(indptr, indices, w, d, par, F[p], state[0], max_rounds - at, F[1 - p], queued,
                                        stamp, owner, root, counts, work)
    at += rounds
    state[0] = nf
    state[1] = cycle
    state[2] = at
    return -1 if cycle or nf == 0 or at >= max_rounds else at


@numba.njit(cache=True, nogil=True, parallel=True)
def batch(indptr, indices, w, D, P, sources, delta, maxw, max_rounds, active, threads, lo, work):
    """One search per row of ``D`` / ``P`` (row ``i`` from ``sources[i]``), rows in parallel, from row ``lo`` on.

    ``delta > 0``: delta-stepping (non-negative weights); else Bellman-Ford
    bounded by ``max_rounds`` that stops at a parent cycle (parents are kept for
    it even when ``P`` has no columns).  ``D`` starts all ``inf``, ``P`` all
    ``-1`` (or has no columns: no parents).  ``active[i]``: row ``i`` stopped
    with a non-empty frontier (a negative cycle).  A call takes the rows of
    about ``work`` edges (a graph pass a row; ``threads`` rows at least:
    numba's thread count, read by the caller -- a kernel reading it is not
    cached) and returns the next row, or -1 past the last (the caller calls
    again: an interrupt takes effect between calls).
    """
    k = sources.size
    if lo >= k:
        return -1
    hi = min(k, lo + max(threads, work // (D.shape[1] + indices.size)))
    for j in numba.prange(hi - lo):
        i = lo + j
        s = sources[i]
        d = D[i]
        p = P[i]
        d[s] = 0.0
        if p.size > 0:
            p[s] = s
        if delta > 0:
            delta_stepping(indptr, indices, w, d, p, 0.0, delta, maxw)
        else:
            if p.size == 0:  # parents find a negative cycle early: keep them for this row
                p = np.full(d.size, -1, np.int64)
                p[s] = s
            fr = np.empty(d.size, np.int64)
            fr[0] = s
            _, nf, _ = bellman_ford(indptr, indices, w, d, p, fr, 1, max_rounds)
            active[i] = nf > 0
    return hi if hi < k else -1


# ---- the fused steps ----
def _search_vectors(step, d, parent):
    """Decline ``step`` unless ``d`` and ``parent`` (or None) are full and distinct: the kernels update them in place."""
    _need_full(step, *(v for v in (d, parent) if v is not None))   # distinct objects included


def _max_weight(G):
    """The largest edge weight of ``G`` (0 without edges), computed once per graph."""
    key = ("cpu", "max_weight")
    m = G._engine_cache.get(key)
    if m is None:
        m = G._engine_cache[key] = float(G.weights.max()) if G.nnz else 0.0
    return m


#: the compiled loops' buckets are this share of ``delta`` wide: one thread relaxing a
#: vertex's edges at once gains nothing from wide buckets, and narrower ones relax fewer
#: vertices twice (same run, 2 cores: rome99 0.227 -> 0.167 ms, usroads-48:w1-255
#: 17.8 -> 14.0 ms, rmat20:w1-255 680 -> 610 ms; flat between 0.1 and 0.3)
SSSP_BUCKET_SHARE = 0.25


def _bucket_width(delta, maxw):
    return effective_delta(delta * SSSP_BUCKET_SHARE, maxw)


@fuses
def sssp_delta_stepping(E, G, d, parent, bucket, delta):
    """Every bucket from ``bucket`` on, in numba calls of bounded work (``next_bucket`` is then None)."""
    _need_weights("sssp_delta_stepping", G)
    _search_vectors("sssp_delta_stepping", d, parent)
    maxw = _max_weight(G)
    with _numpy_views(d, parent) as (dd, pp):   # d and parent lent to the kernel: updated in place, no copies
        delta_stepping_driven(G.indptr, _unsigned(G.indices), G.weights, dd, pp, bucket * delta,
                              _bucket_width(delta, maxw), maxw, CALL_WORK)
    return d, parent, None


@fuses
def sssp_bellman_ford(E, G, d, parent, q, max_rounds):
    """Rounds in one numba loop, relaxing with the newest distances; stops at a cycle of the parents."""
    _need_weights("sssp_bellman_ford", G)
    _search_vectors("sssp_bellman_ford", d, parent)
    n = G.n
    frontier, nf = _queue(q, np.int64)
    F = np.empty((2, n), np.int64)
    F[0, :nf] = frontier[:nf]
    state = np.array([nf, 0, 0], np.int64)   # the frontier's size, a cycle, the rounds run
    with _numpy_views(d, parent) as (dd, pp):   # d and parent lent to the kernel: updated in place, no copies
        kept = n if pp.size else 0
        queued, root = np.zeros(n, bool), np.zeros(kept, bool)
        bf_start(pp, frontier, nf, queued, root)
        _drive(bf_steps, G.indptr, _unsigned(G.indices), G.weights, dd, pp, F, queued, np.zeros(kept, np.int64),
               np.zeros(kept, np.int64), root, np.zeros(2, np.int64), state, max_rounds)
        rounds, nf = int(state[2]), int(state[0])
        last = np.sort(F[rounds % 2, :nf])
        values = dd[last]
    q = Vector.from_coo(last, values, size=G.n, dtype=np.float64)
    return d, parent, q, rounds


@fuses
def sssp_batch(E, G, sources, delta, max_rounds, parent):
    """One delta-stepping (or Bellman-Ford) search per source, the sources in parallel."""
    _need_weights("sssp_batch", G)
    k, n = sources.size, G.n
    D = np.full((k, n), np.inf)
    P = np.full((k, n) if parent else (k, 0), -1, np.int64)
    maxw = _max_weight(G)
    step = _bucket_width(delta, maxw) if delta is not None else 0.0
    active = np.zeros(k, bool)
    _drive(batch, G.indptr, _unsigned(G.indices), G.weights, D, P, sources, step, maxw, max_rounds, active,
           numba.get_num_threads())
    return Matrix.from_dense(D), (Matrix.from_dense(P) if parent else None), active
