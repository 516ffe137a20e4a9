"""Louvain's local moving (the step ``louvain_move``) as one compiled loop per batch of rounds (numba).

The rounds are the algebra's, in the same order with the same arithmetic
(``la_graph/algorithms/louvain.py``): each vertex in view gathers its weights
to its neighbouring communities from its CSR row into a dense scratch row
(what ``K = A S`` holds), picks the best other community by score (the
smallest id on a tie) and, when it gains, becomes a candidate if the move
goes the round's way (up or down); the candidates' priorities come from the
same counter-based hash (:mod:`la_graph._random`, here in uint64
arithmetic), the crowding test walks them in priority order, the round's
exact modularity change is summed over the movers' rows and the communities
they touch, and Luby's movers of distinct communities replace them when it is
not positive.  The degree sums follow the moves, and the next round looks
only at the vertices that gained and the movers' neighbours, so a late round
costs the edges of the few vertices it looks at, not the graph's.  Of those,
a hub (a vertex of many edges, in view nearly every round) reads a map of its
weights that its neighbours' moves keep, and not even that when a bound shows
it cannot gain (see the hubs' section below); a large graph's rows are read
in three branch-free passes (clear, add, score).
"""

from __future__ import annotations

import numba
import numpy as np

from ..objects import _numpy_views, _owning_full, _vsize
from ._common import _drive, _need_full, fuses

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK63 = np.uint64((1 << 63) - 1)
_S27, _S30, _S31 = np.uint64(27), np.uint64(30), np.uint64(31)


@numba.njit(cache=True, nogil=True, inline="always")
def _priority_key(seed, level, r):
    """``_random.priority_key(louvain.round_seed(seed, level, r))``: all uint64, wrapping as the Python ints are masked."""
    z = seed * _GOLDEN + level * _M1 + r * _M2 + _GOLDEN
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return (z ^ (z >> _S31)) & _MASK63


@numba.njit(cache=True, nogil=True, inline="always")
def _mix63(x):
    """``_random.mix63`` of one uint64: a non-negative int64 priority."""
    z = (x + _GOLDEN) & _MASK63
    z = ((z ^ (z >> _S30)) * _M1) & _MASK63
    z = ((z ^ (z >> _S27)) * _M2) & _MASK63
    return np.int64(z ^ (z >> _S31))


@numba.njit(cache=True, nogil=True)
def priorities(n, seed, level, r, out):
    """Into ``out`` the priorities :func:`la_graph._random.vertex_priorities` gives round ``r`` of ``level``."""
    key = _priority_key(np.uint64(seed), np.uint64(level), np.uint64(r))
    for i in range(n):
        out[i] = _mix63(np.uint64(i) ^ key)


@numba.njit(cache=True, nogil=True)
def _shift(indices, k, lab, target, mover, cand, nc, d, seen, sigma):
    """``d[c]``: the change of community ``c``'s degree sum when the movers move (0 where none moves);
    returns ``sum_c d_c (2 Sigma_c + d_c)``, the change of ``||Sigma||^2``."""
    for t in range(nc):
        i = cand[t]
        if mover[i]:
            d[lab[i]] = 0.0
            d[target[i]] = 0.0
    for t in range(nc):
        i = cand[t]
        if mover[i]:
            d[lab[i]] -= k[i]
            d[target[i]] += k[i]
    d_sq = 0.0
    for t in range(nc):
        i = cand[t]
        if mover[i]:
            for c in (lab[i], target[i]):
                if not seen[c]:
                    seen[c] = True
                    d_sq += d[c] * (sigma[c] * 2.0 + d[c])
    for t in range(nc):
        i = cand[t]
        if mover[i]:
            seen[lab[i]] = False
            seen[target[i]] = False
    return d_sq


# ---- the hubs' weight maps ----
# A vertex of many edges is in view nearly every round (some neighbour of it moves), and reading its row
# again was most of a round's work, nearly always to find no gain.  A hub's weights to its neighbouring
# communities are kept instead in a hash map (open addressing, linear probing) that each neighbour's move
# updates, and with them a bound on its best score: the best at its last reading, and the score of every
# community a neighbour joined since (at that move), each raised by gamma k_h times the sum over the rounds
# since of the most any community's degree sum fell (no other score can have risen).  Its stay is exact
# (its own community's weight from the map), so when the bound is below the stay the hub cannot gain and
# is not read at all: the round is the algebra's either way.  Exact only while every partial sum is an
# integer (the weights are checked), so that the map's sums are the row's; the other graphs read rows.

#: the least degree of a hub
HUB_MIN_DEGREE = 32
#: the most map slots, per stored entry of the graph (a slot: 16 bytes, an entry of the CSR: 16)
HUB_SLOTS_PER_ENTRY = 2
#: the fewest stored entries of a graph whose hubs keep maps: below, keeping them costs more than reading
#: rows (facebook, 176k entries: 20% slower with maps; R-MAT 17, 3.7M: 1.8x faster)
HUB_MIN_ENTRIES = 1 << 20


def hub_maps(indptr, w, n, min_degree=None, budget=None):
    """The hubs' arrays ``(hub, hbase, hcap, hused, hkey, hcnt, hval, hflag, hx, hm, gsum)`` for
    :func:`move_rounds`, the maps empty (:func:`build_hubs` fills them).

    ``hub``: each vertex's hub number or -1; per hub its slots ``hbase .. hbase + hcap``, the slots in use
    ``hused``, ``hflag`` (full: rebuilt after the moves); per slot the community ``hkey`` (-1: empty), its
    edge count ``hcnt`` and weight ``hval``; per hub the community ``hx`` its bound ``hm`` holds for (-1:
    none), ``hm`` less ``gamma k_h gsum``; ``gsum[0]``: the degree-sum falls summed over the rounds.

    The hubs are the vertices of degree at least ``min_degree``, the largest first while their slots
    (a power of two at least twice the degree each) fit in ``budget``; none unless the weights are
    integers whose total is below ``2**53`` (the maps' sums are then exact), or the ids fit no int32;
    by default (``min_degree=None``) none in a graph of fewer than :data:`HUB_MIN_ENTRIES` entries.
    """
    if min_degree is None and w.size < HUB_MIN_ENTRIES:
        min_degree = n + 1
    min_degree = HUB_MIN_DEGREE if min_degree is None else min_degree
    budget = HUB_SLOTS_PER_ENTRY * w.size if budget is None else budget
    deg = np.diff(indptr)
    big = np.flatnonzero(deg >= min_degree)
    # (the exactness test reads every weight: only where there are hubs to keep)
    if big.size and not (n < 2**31 and bool(np.all(np.floor(w) == w)) and float(np.abs(w).sum()) < 2.0**53):
        big = big[:0]
    big = big[np.argsort(-deg[big], kind="stable")]
    cap = np.left_shift(1, np.ceil(np.log2(2 * deg[big] + 1)).astype(np.int64)).astype(np.int64)
    big, cap = big[np.cumsum(cap) <= budget], cap[np.cumsum(cap) <= budget]
    hub = np.full(n, -1, np.int64)
    hub[big] = np.arange(big.size)
    hbase = np.zeros(big.size, np.int64)
    hbase[1:] = np.cumsum(cap)[:-1]
    slots = int(cap.sum())
    nh = big.size
    return (hub, hbase, cap, np.zeros(nh, np.int64), np.full(slots, -1, np.int32), np.zeros(slots, np.int32),
            np.zeros(slots), np.zeros(nh, np.bool_), np.full(nh, -1, np.int64), np.zeros(nh), np.zeros(1))


@numba.njit(cache=True, nogil=True, inline="always")
def _slot(hkey, base, cap, c):
    """The slot of community ``c`` in the map at ``base`` (``cap`` slots, a power of two), or the empty one it takes."""
    q = (c * 2654435761) & (cap - 1)
    while True:
        key = hkey[base + q]
        if key == c or key == -1:
            return base + q
        q = (q + 1) & (cap - 1)


@numba.njit(cache=True, nogil=True)
def _hub_build(indptr, indices, w, lab, i, hub, hbase, hcap, hused, hkey, hcnt, hval, hflag, hx):
    """Hub ``i``'s map afresh from its row (its entries in row order, as the row's scan adds them); returns the work."""
    h = hub[i]
    b0, cap = hbase[h], hcap[h]
    for q in range(b0, b0 + cap):
        hkey[q] = -1
        hcnt[q] = 0
        hval[q] = 0.0
    used = 0
    for e in range(indptr[i], indptr[i + 1]):
        c = lab[indices[e]]
        q = _slot(hkey, b0, cap, c)
        if hkey[q] == -1:
            hkey[q] = c
            used += 1
        hcnt[q] += 1
        hval[q] += w[e] * 1.0
    hused[h] = used
    hflag[h] = False
    hx[h] = -1                                      # no bound on its scores until it is read afresh
    return cap + indptr[i + 1] - indptr[i]


@numba.njit(cache=True, nogil=True)
def build_hubs(indptr, indices, w, lab, hub, hbase, hcap, hused, hkey, hcnt, hval, hflag, hx, hm, gsum, at, work):
    """Every hub's map from its row, vertices ``at, ...`` until about ``work`` entries; the next vertex, or -1."""
    n = lab.size
    done = 0
    i = at
    while i < n:
        if hub[i] >= 0:
            done += _hub_build(indptr, indices, w, lab, i, hub, hbase, hcap, hused, hkey, hcnt, hval, hflag, hx)
        i += 1
        if done >= work and i < n:
            return i
    return -1


@numba.njit(cache=True, nogil=True)
def _hub_moves(indptr, indices, w, k, sigma, two_m, gamma, i, a, b, hub, hbase, hcap, hused, hkey, hcnt, hval,
               hflag, hx, hm, g, full, nf):
    """The maps of ``i``'s hub neighbours after ``i`` moves from ``a`` to ``b``; a map that would pass 3/4
    full is flagged and listed in ``full[nf:]`` (rebuilt once the labels are moved); returns the new ``nf``."""
    for e in range(indptr[i], indptr[i + 1]):
        h = hub[indices[e]]
        if h < 0 or hflag[h]:
            continue
        b0, cap = hbase[h], hcap[h]
        q = _slot(hkey, b0, cap, a)
        hcnt[q] -= 1
        hval[q] -= w[e] * 1.0
        if hcnt[q] == 0:
            hval[q] = 0.0
        q = _slot(hkey, b0, cap, b)
        if hkey[q] == -1:
            if 4 * (hused[h] + 1) > 3 * cap:
                hflag[h] = True
                full[nf] = indices[e]
                nf += 1
                continue
            hkey[q] = b
            hused[h] += 1
        hcnt[q] += 1
        hval[q] += w[e] * 1.0
        if b != hx[h]:
            # another community's weight grew: its score now joins the bound
            kh = k[indices[e]]
            hm[h] = max(hm[h], hval[q] * two_m - (kh * sigma[b]) * gamma - (kh * g) * gamma)
    return nf


@numba.njit(cache=True, nogil=True)
def move_rounds(indptr, indices, w, k, lab, two_m, gamma, seed, level,
                sigma, acc, seen, touched, target, gain, prio, nb, top_src, top_tgt, cand, mover, crowd_t, crowd_s,
                active, gainful, listed, state, hub, hbase, hcap, hused, hkey, hcnt, hval, hflag, hx, hm, gsum, at, work):
    """Rounds ``at, at + 1, ...`` of local moving on ``lab`` (in place) until about ``work`` entries are touched.

    Returns the next round, or -1 once a round of every vertex finds none that
    gains by moving.  ``sigma`` holds the degree sums of ``lab``'s communities
    and follows the moves; ``active[:state[1]]`` lists the vertices the next
    round looks at (every vertex when ``state[2]`` is 1); ``state[0]`` becomes
    1 when a label changes.  The other arrays are scratch of ``n`` entries
    (``prio`` all -1, ``seen``, ``mover`` and ``listed`` all False,
    ``crowd_t`` and ``crowd_s`` all 0 on entry and exit).  ``hub`` to
    ``gsum``: the hubs' maps and bounds of :func:`hub_maps` (built on ``lab``
    by :func:`build_hubs`), kept up to date with the moves.
    """
    n = k.size
    useed, ulevel = np.uint64(seed), np.uint64(level)
    done = 0
    r = at
    while True:
        na = state[1]
        up = r % 2 == 0
        nc = 0
        ng = 0
        for t in range(na):
            i = active[t]
            a = lab[i]
            own = 0.0
            bc = -1
            bv = 0.0
            h = hub[i]
            if h >= 0 and hx[h] == a:
                # no gain possible: every other score is at most the best at the last reading or at a
                # neighbour's move into it since, raised by the degree sums that fell since; the stay is exact
                q = _slot(hkey, hbase[h], hcap[h], a)
                stay = hval[q] * two_m - (k[i] * (sigma[a] - k[i])) * gamma
                bound = hm[h] + (k[i] * gsum[0]) * gamma
                if bound + 1e-9 * (abs(bound) + abs(stay) + k[i] * two_m) < stay:
                    done += 1
                    continue
            if h >= 0:
                # a hub's weights to its neighbouring communities are its map's live entries
                b0 = hbase[h]
                for p in range(b0, b0 + hcap[h]):
                    if hcnt[p] <= 0:
                        continue
                    c = np.int64(hkey[p])
                    if c == a:
                        own = hval[p]
                        continue
                    s = hval[p] * two_m - (k[i] * sigma[c]) * gamma
                    if bc < 0 or s > bv or (s == bv and c < bc):
                        bc, bv = c, s
                done += hcap[h] // 8 + 1
                hx[h] = a
                hm[h] = (bv if bc >= 0 else -np.inf) - (k[i] * gsum[0]) * gamma
            elif hcap.size == 0:
                # a small graph (no hubs): its rows meet few communities, and testing whether each was
                # seen is cheapest
                nt = 0
                for e in range(indptr[i], indptr[i + 1]):
                    c = lab[indices[e]]
                    if not seen[c]:
                        seen[c] = True
                        acc[c] = 0.0
                        touched[nt] = c
                        nt += 1
                    acc[c] += w[e] * 1.0
                done += indptr[i + 1] - indptr[i] + 1
                for u in range(nt):
                    c = touched[u]
                    seen[c] = False
                    if c == a:
                        own = acc[c]
                        continue
                    s = acc[c] * two_m - (k[i] * sigma[c]) * gamma
                    if bc < 0 or s > bv or (s == bv and c < bc):
                        bc, bv = c, s
            else:
                # three branch-free passes over the row (clear, add, score; a community scored once per
                # edge to it gives the same best): cheaper on a large graph, whose rows meet many
                # communities and mispredict the test whether each was seen
                lo, nt = indptr[i], indptr[i + 1] - indptr[i]
                acc[a] = 0.0
                for u in range(nt):
                    c = lab[indices[lo + u]]
                    touched[u] = c
                    acc[c] = 0.0
                for u in range(nt):
                    acc[touched[u]] += w[lo + u] * 1.0
                own = acc[a]
                for u in range(nt):
                    c = touched[u]
                    if c == a:
                        continue
                    s = acc[c] * two_m - (k[i] * sigma[c]) * gamma
                    if bc < 0 or s > bv or (s == bv and c < bc):
                        bc, bv = c, s
                done += nt + 1
            if bc >= 0:
                stay = own * two_m - (k[i] * (sigma[a] - k[i])) * gamma
                g = bv - stay
                if g > 0.0:
                    gainful[ng] = i
                    ng += 1
                    if (bc > a) if up else (bc < a):
                        target[i] = bc
                        gain[i] = g
                        cand[nc] = i
                        nc += 1
        r += 1
        if ng == 0:
            if state[2] == 1:
                return -1                  # no vertex gains by moving alone
            for i in range(n):             # a round of every vertex to be sure
                active[i] = i
            state[1] = n
            state[2] = 1
            if done >= work:
                return r
            continue
        state[2] = 0
        if nc == 0:                        # the gainful moves go the other way: the next round
            for t in range(ng):
                active[t] = gainful[t]
            state[1] = ng
            if done >= work:
                return r
            continue
        key = _priority_key(useed, ulevel, np.uint64(r - 1))
        for t in range(nc):
            i = cand[t]
            prio[i] = _mix63(np.uint64(i) ^ key)
        # crowding: the degrees of the higher-priority candidates joining the same target and leaving the same source
        order = np.argsort(-prio[cand[:nc]])
        for t in range(nc):
            i = cand[order[t]]
            jt = crowd_t[target[i]]
            ls = crowd_s[lab[i]]
            crowd_t[target[i]] = jt + k[i]
            crowd_s[lab[i]] = ls + k[i]
            mover[i] = gain[i] - gamma * (k[i] * (jt + ls)) > 0.0
        for t in range(nc):
            i = cand[t]
            crowd_t[target[i]] = 0.0
            crowd_s[lab[i]] = 0.0
        # the exact change of the inside weight (both directions of an edge) if the movers all move
        d_in = 0.0
        for t in range(nc):
            i = cand[t]
            if not mover[i]:
                continue
            for e in range(indptr[i], indptr[i + 1]):
                j = indices[e]
                nj = target[j] if mover[j] else lab[j]
                d = (1.0 if target[i] == nj else 0.0) - (1.0 if lab[i] == lab[j] else 0.0)
                d_in += (1.0 if mover[j] else 2.0) * (w[e] * d)
            done += indptr[i + 1] - indptr[i]
        d_sq = _shift(indices, k, lab, target, mover, cand, nc, acc, seen, sigma)
        if not two_m * d_in - gamma * d_sq > 0.0:
            # Luby's movers among the candidates, then only those first in their source and their target
            for t in range(nc):
                i = cand[t]
                m = np.int64(-1)
                for e in range(indptr[i], indptr[i + 1]):
                    p = prio[indices[e]]
                    if p > m:
                        m = p
                nb[i] = m
                top_src[lab[i]] = -1
                top_tgt[target[i]] = -1
                done += indptr[i + 1] - indptr[i]
            for t in range(nc):
                i = cand[t]
                if prio[i] > nb[i]:
                    top_src[lab[i]] = max(top_src[lab[i]], prio[i])
                    top_tgt[target[i]] = max(top_tgt[target[i]], prio[i])
            for t in range(nc):
                i = cand[t]
                mover[i] = prio[i] > nb[i] and top_src[lab[i]] == prio[i] and top_tgt[target[i]] == prio[i]
            _shift(indices, k, lab, target, mover, cand, nc, acc, seen, sigma)
        # the next round looks at the gainful and the movers' neighbours
        na = 0
        for t in range(ng):
            i = gainful[t]
            listed[i] = True
            active[na] = i
            na += 1
        for t in range(nc):
            i = cand[t]
            prio[i] = -1
            if not mover[i]:
                continue
            for e in range(indptr[i], indptr[i + 1]):
                j = indices[e]
                if not listed[j]:
                    listed[j] = True
                    active[na] = j
                    na += 1
            done += indptr[i + 1] - indptr[i]
        for t in range(na):
            listed[active[t]] = False
        state[1] = na
        # the moves, and the degree sums after them
        fell = 0.0
        for t in range(nc):
            i = cand[t]
            if mover[i]:
                fell = max(fell, -acc[lab[i]], -acc[target[i]])
        gsum[0] += fell
        for t in range(nc):
            i = cand[t]
            if mover[i]:
                sigma[lab[i]] = sigma[lab[i]] + acc[lab[i]]
                acc[lab[i]] = 0.0
                sigma[target[i]] = sigma[target[i]] + acc[target[i]]
                acc[target[i]] = 0.0
        nf = 0
        for t in range(nc):
            i = cand[t]
            if mover[i]:
                nf = _hub_moves(indptr, indices, w, k, sigma, two_m, gamma, i, lab[i], target[i], hub, hbase, hcap,
                                hused, hkey, hcnt, hval, hflag, hx, hm, gsum[0], touched, nf)
                done += indptr[i + 1] - indptr[i]
        for t in range(nc):
            i = cand[t]
            if mover[i]:
                lab[i] = target[i]
                state[0] = 1
                mover[i] = False
        for t in range(nf):
            done += _hub_build(indptr, indices, w, lab, touched[t], hub, hbase, hcap, hused, hkey, hcnt, hval, hflag, hx)
        if done >= work:
            return r


# ---- the fused step ----
@fuses
def louvain_move(E, A, k, labels, resolution, seed, level):
    """All rounds of local moving in :func:`move_rounds`, driven in bounded calls; ``A``'s CSR read once."""
    _need_full("louvain_move", k, labels)
    n = _vsize(k)
    indptr, indices, w = A.to_csr(dtype=np.float64)
    with _numpy_views(k) as (kv,):
        kh = kv.copy()
    two_m = float(E.reduce(k, "plus"))
    if n == 0 or indices.size == 0 or not two_m > 0:
        return labels, False
    with _numpy_views(labels) as (lv,):
        lab = lv.copy()
    sigma = _degree_sums(kh, lab)
    acc, gain, crowd_t, crowd_s = np.empty(n), np.empty(n), np.zeros(n), np.zeros(n)
    seen, mover, listed = np.zeros(n, np.bool_), np.zeros(n, np.bool_), np.zeros(n, np.bool_)
    touched, target, nb, top_src, top_tgt, cand, gainful = (np.empty(n, np.int64) for _ in range(7))
    prio = np.full(n, -1, np.int64)
    active = np.arange(n, dtype=np.int64)
    state = np.array([0, n, 1], np.int64)
    hubs = hub_maps(indptr, w, n)
    _drive(build_hubs, indptr, indices, w, lab, *hubs)
    _drive(move_rounds, indptr, indices, w, kh, lab, two_m, float(resolution), np.uint64(seed), np.uint64(level),
           sigma, acc, seen, touched, target, gain, prio, nb, top_src, top_tgt, cand, mover, crowd_t, crowd_s,
           active, gainful, listed, state, *hubs)
    return _owning_full(lab), bool(state[0])


@numba.njit(cache=True, nogil=True)
def _degree_sums(k, lab):
    """``Sigma = S' k`` in vertex order, as ``vxm`` adds it."""
    sigma = np.zeros(k.size)
    for i in range(k.size):
        sigma[lab[i]] += k[i]
    return sigma
