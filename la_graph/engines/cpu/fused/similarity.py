"""Each vertex's ``k`` most similar others in one compiled pass (the ``similarity_top_k`` step).

For a vertex ``u`` every wedge ``u -> w <- x`` (``w`` an out-neighbour of
``u``, ``x`` an in-neighbour of ``w``; self-loops skipped) adds 1, or ``w``'s
weight for the summing metrics, to ``x``'s accumulator, the sparse accumulator
of a row of ``C plus.pair C'`` (a mark per vertex says which entries are this
row's).  The row's candidates are then scored with the algebra's formulas and
kept in a heap of the ``k`` best (its root the worst kept: lower score, or the
same score and a larger id), emptied into the row's ``k`` output slots best
first.  No row's product is ever stored; a call covers rows of bounded work
(:func:`~._common._drive`).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from ..objects import _unsigned
from ._common import _drive, fuses

#: metric name -> the kernel's code (the sums last)
_MODES = {"jaccard": 0, "overlap": 1, "cosine": 2, "sorensen": 3, "adamic_adar": 4, "resource_allocation": 5}


@numba.njit(inline="always")
def _score(mode, c, du, dv):
    """The metric from the common count (or sum) ``c`` and the set sizes, as the algebra's ``_scores``."""
    if mode >= 4:
        return c
    if mode == 0:
        den = du + dv - c
    elif mode == 1:
        den = min(du, dv)
    elif mode == 2:
        den = math.sqrt(du * dv)
    else:
        den = (du + dv) / 2.0
    return c / den if den > 0 else 0.0


@numba.njit(inline="always")
def _worse(s1, v1, s2, v2):
    """Whether ``(s1, v1)`` ranks below ``(s2, v2)``: a lower score, or the same score and a larger id."""
    return s1 < s2 or (s1 == s2 and v1 > v2)


@numba.njit(inline="always")
def _sift_down(hs, hv, h, i):
    while True:
        a = 2 * i + 1
        if a >= h:
            return
        b = a + 1
        if b < h and _worse(hs[b], hv[b], hs[a], hv[a]):
            a = b
        if not _worse(hs[a], hv[a], hs[i], hv[i]):
            return
        hs[i], hs[a] = hs[a], hs[i]
        hv[i], hv[a] = hv[a], hv[i]
        i = a


@numba.njit(inline="always")
def _sift_up(hs, hv, i):
    while i > 0:
        p = (i - 1) // 2
        if not _worse(hs[i], hv[i], hs[p], hv[p]):
            return
        hs[i], hs[p] = hs[p], hs[i]
        hv[i], hv[p] = hv[p], hv[i]
        i = p


@numba.njit(cache=True, nogil=True)
def top_rows(ptr, ind, tptr, tind, deg, weight, mode, k, mark, acc, cand, hs, hv, out_v, out_s, count, at, work):
    """Rows ``at, at + 1, ...`` until about ``work`` wedges are done: each row ``u``'s best ``k`` into
    ``out_v[u k : u k + count[u]]`` (and their scores into ``out_s``), best first.  Returns the next row, or
    -1 after the last.

    ``(ptr, ind)`` are the out-neighbours, ``(tptr, tind)`` the in-neighbours (the same arrays when
    undirected), ``deg`` the out-degrees without self-loops (float64), ``weight`` each neighbour's weight
    in the sums.  ``mark`` (int64, zero before the first call), ``acc`` and ``cand`` are ``n`` long, ``hs``
    and ``hv`` ``k`` long.
    """
    n = deg.size
    done = 0
    u = at
    while u < n:
        m = 0
        for e in range(ptr[u], ptr[u + 1]):
            w = ind[e]
            if w == u:
                continue
            add = weight[w] if mode >= 4 else 1.0
            lo, hi = tptr[w], tptr[w + 1]
            done += hi - lo + 1
            for f in range(lo, hi):
                x = tind[f]
                if x == w or x == u:
                    continue
                if mark[x] != u + 1:
                    mark[x] = u + 1
                    acc[x] = 0.0
                    cand[m] = x
                    m += 1
                acc[x] += add
        h = 0
        du = deg[u]
        for t in range(m):
            x = cand[t]
            s = _score(mode, acc[x], du, deg[x])
            if h < k:
                hs[h] = s
                hv[h] = x
                _sift_up(hs, hv, h)
                h += 1
            elif _worse(hs[0], hv[0], s, x):
                hs[0] = s
                hv[0] = x
                _sift_down(hs, hv, h, 0)
        count[u] = h
        base = u * k
        while h > 0:                      # the worst first, into the last slot
            h -= 1
            out_s[base + h] = hs[0]
            out_v[base + h] = hv[0]
            hs[0] = hs[h]
            hv[0] = hv[h]
            _sift_down(hs, hv, h, 0)
        u += 1
        done += 1
        if done >= work and u < n:
            return u
    return -1


def _simple_degrees(G):
    """Out- and in-degrees of ``G`` without its self-loops (float64)."""
    rows, cols = G.edges()
    loops = np.bincount(rows[rows == cols], minlength=G.n)
    out = (G.out_degree - loops).astype(np.float64)
    return out, ((G.in_degree - loops).astype(np.float64) if G.directed else out)


@fuses
def similarity_top_k(E, G, metric, k):
    """The wedges of each row accumulated and cut to the best ``k`` by a heap, in one numba pass."""
    n = G.n
    deg, d_in = _simple_degrees(G)
    with np.errstate(divide="ignore"):
        weight = 1.0 / np.log(d_in) if metric == "adamic_adar" else 1.0 / d_in
    T = G.T if G.directed else G
    ind, tind = _unsigned(G.indices), _unsigned(T.indices)
    mark = np.zeros(n, np.int64)
    acc = np.zeros(n)
    cand = np.zeros(n, np.int64)
    hs, hv = np.zeros(k), np.zeros(k, np.int64)
    out_v = np.zeros(n * k, np.int64)
    out_s = np.zeros(n * k)
    count = np.zeros(n, np.int64)
    if n:
        _drive(top_rows, G.indptr, ind, T.indptr, tind, deg, weight, _MODES[metric], k, mark, acc, cand, hs, hv,
               out_v, out_s, count)
    keep = (np.arange(k) < count[:, None]).ravel()
    return np.repeat(np.arange(n, dtype=np.int64), count), out_v[keep], out_s[keep]
