"""Leiden's refinement (the step ``leiden_refine``) as compiled loops over the level's CSR (numba).

The rounds are the algebra's (``la_graph/algorithms/leiden.py``), in the same
order with the same decisions: each open vertex (alone, well connected to its
community) gathers its weights to the sub-communities of its community from
its CSR row into a dense scratch row (its row of ``A_C S_R``), scores the
well-connected ones (``2m w(v, T) - gamma k_v Sigma_T``), and becomes a
candidate for the best (the smallest id on a tie) when it scores above 0, else
it is closed; the candidates' priorities come from the same counter-based
hash (:func:`la_graph.engines.cpu.fused.louvain.priorities`' arithmetic) and
a candidate joins when no higher candidate targets its own singleton and its
target stays.  What the algebra recomputes every round from the membership --
the sub-communities' degree sums ``Sigma_T``, and ``w(T, C - T)`` as the sum
of the members' inner degrees less the sum of their weights inside ``T`` --
is kept per sub-community and updated by the joiners' rows, so a round costs
the rows of the vertices still open and of the joiners, not the graph's.  The
sums are the algebra's exactly when the weights are integers (as an unweighted
graph's are, at every level); with fractional weights they are added in
another order and a near-tie may round the other way, as between engines.
"""

from __future__ import annotations

import numba
import numpy as np

from ..objects import _numpy_views, _owning_full, _vsize
from ._common import _drive, _need_full, fuses
from .louvain import _mix63, _priority_key

# the refinement's rounds draw priorities offset from the moving rounds' (leiden_refine's ``rnd + (1 << 32)``)
_ROUND_OFFSET = np.uint64(1 << 32)


@numba.njit(cache=True, nogil=True)
def _inner_degrees(indptr, indices, w, part, kin, at, work):
    """``kin[i]``: the weight from ``i`` to the rest of its community (``A_C``'s row sums), rows ``at, ...``
    until about ``work`` entries are read; returns the next row, or -1 after the last."""
    n = part.size
    done = 0
    i = at
    while i < n:
        s = 0.0
        p = part[i]
        for e in range(indptr[i], indptr[i + 1]):
            if part[indices[e]] == p:
                s += w[e]
        kin[i] = 0.0 + s
        done += indptr[i + 1] - indptr[i] + 1
        i += 1
        if done >= work and i < n:
            return i
    return -1


@numba.njit(cache=True, nogil=True)
def _open(k, kin, part, two_m, gamma, sig_part, opn):
    """``sig_part``: the communities' degree sums (vertex order); ``opn``: the vertices well connected to
    their community, ascending; returns their count."""
    n = k.size
    for i in range(n):
        sig_part[part[i]] += k[i]
    no = 0
    for i in range(n):
        if two_m * kin[i] >= gamma * (k[i] * (sig_part[part[i]] - k[i])) and kin[i] > 0:
            opn[no] = i
            no += 1
    return no


@numba.njit(cache=True, nogil=True)
def refine_rounds(indptr, indices, w, k, part, kin, sig_part, two_m, gamma, seed, level,
                  r, sig, ksum, osum, acc, seen, touched, target, prio, top, leaves, alone, opn, cand, state,
                  at, work):
    """Rounds ``at, at + 1, ...`` of the refinement on ``r`` (in place) until about ``work`` entries are read.

    Returns the next round, or -1 once no vertex is open or none is a
    candidate.  ``sig``, ``ksum`` and ``osum`` hold, per sub-community of
    ``r``, the degree sum, the members' inner degrees summed and their weights
    inside it summed (``w(T, C - T) = ksum - osum``); ``opn[:state[0]]``
    lists the open vertices.  The other arrays are scratch of ``n`` entries
    (``seen`` and ``leaves`` all False, ``top`` all -1 on entry and exit).
    """
    useed, ulevel = np.uint64(seed), np.uint64(level)
    done = 0
    rnd = at
    while True:
        no = state[0]
        if no == 0:
            return -1
        nc = 0
        for t in range(no):
            i = opn[t]
            p = part[i]
            nt = 0
            for e in range(indptr[i], indptr[i + 1]):
                j = indices[e]
                if part[j] != p:
                    continue
                c = r[j]
                if not seen[c]:
                    seen[c] = True
                    acc[c] = 0.0
                    touched[nt] = c
                    nt += 1
                acc[c] += w[e]
            done += indptr[i + 1] - indptr[i] + 1
            bc = -1
            bv = 0.0
            for u in range(nt):
                c = touched[u]
                seen[c] = False
                if c == i:
                    continue
                s_c = sig[c]
                # only a well-connected sub-community is a target: 2m w(T, C - T) >= gamma Sigma_T (Sigma_C - Sigma_T)
                if not (s_c > 0 and two_m * (ksum[c] - osum[c]) >= gamma * (s_c * (sig_part[p] - s_c))):
                    continue
                s = acc[c] * two_m - (k[i] * s_c) * gamma
                if bc < 0 or s > bv or (s == bv and c < bc):
                    bc, bv = c, s
            if bc >= 0 and bv > 0.0:
                target[i] = bc
                cand[nc] = i
                nc += 1
        if nc == 0:
            state[0] = 0
            return -1
        key = _priority_key(useed, ulevel, np.uint64(rnd) + _ROUND_OFFSET)
        for t in range(nc):
            i = cand[t]
            prio[i] = _mix63(np.uint64(i) ^ key)
            top[target[i]] = max(top[target[i]], prio[i])
        for t in range(nc):
            i = cand[t]
            leaves[i] = top[i] < prio[i]            # no higher candidate joins i's singleton
        # the joiners: leaving for a target that stays
        nm = 0
        for t in range(nc):
            i = cand[t]
            if leaves[i] and not leaves[target[i]]:
                touched[nm] = i
                nm += 1
        for t in range(nc):
            i = cand[t]
            top[target[i]] = -1
            leaves[i] = False
        for t in range(nm):
            i = touched[t]
            c = target[i]
            r[i] = c
            alone[i] = False
            alone[c] = False
            sig[c] += k[i]
            sig[i] = 0.0
            ksum[c] += kin[i]
            ksum[i] = 0.0
            leaves[i] = True                        # marks the joiners for the inner weights below
        # the weight inside each target grows by the joiner's edges to its members (a pair of joiners: once each)
        for t in range(nm):
            i = touched[t]
            c = r[i]
            d = 0.0
            for e in range(indptr[i], indptr[i + 1]):
                j = indices[e]
                if r[j] == c and part[j] == part[i]:
                    d += (1.0 if leaves[j] else 2.0) * w[e]
            osum[c] += d
            done += indptr[i + 1] - indptr[i]
        for t in range(nm):
            leaves[touched[t]] = False
        # the candidates still alone stay open; the others are closed
        no = 0
        for t in range(nc):
            i = cand[t]
            if alone[i]:
                opn[no] = i
                no += 1
        state[0] = no
        rnd += 1
        if done >= work:
            return rnd


# ---- the fused step ----
@fuses
def leiden_refine(E, A, k, labels, resolution, seed, level):
    """The refinement's rounds in :func:`refine_rounds`, driven in bounded calls; ``A``'s CSR read once."""
    _need_full("leiden_refine", k, labels)
    n = _vsize(k)
    two_m = float(E.reduce(k, "plus"))
    if n == 0 or not two_m > 0:
        return E.iota(n)
    indptr, indices, w = A.to_csr(dtype=np.float64)
    with _numpy_views(k, labels) as (kv, lv):
        kh, part = kv.copy(), lv.copy()
    gamma = float(resolution)
    kin, sig_part = np.empty(n), np.zeros(n)
    _drive(_inner_degrees, indptr, indices, w, part, kin)
    opn = np.empty(n, np.int64)
    state = np.array([_open(kh, kin, part, two_m, gamma, sig_part, opn)], np.int64)
    r = np.arange(n, dtype=np.int64)
    sig, ksum, osum = kh.copy(), kin.copy(), np.zeros(n)
    acc, prio, top = np.empty(n), np.empty(n, np.int64), np.full(n, -1, np.int64)
    seen, leaves, alone = np.zeros(n, np.bool_), np.zeros(n, np.bool_), np.ones(n, np.bool_)
    touched, target, cand = (np.empty(n, np.int64) for _ in range(3))
    _drive(refine_rounds, indptr, indices, w, kh, part, kin, sig_part, two_m, gamma, np.uint64(seed),
           np.uint64(level), r, sig, ksum, osum, acc, seen, touched, target, prio, top, leaves, alone, opn, cand,
           state)
    return _owning_full(r)
