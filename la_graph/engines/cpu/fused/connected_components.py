"""Compiled loops of the CPU engine's connected-components steps (numba).

:func:`fastsv_hook` is the part of the step ``fastsv_round`` (written in
primitives in ``la_graph/algorithms/connected_components.py``) after its
``mngp`` product (in primitives a scatter, two element-wise minimums, a gather
and a comparison).  :func:`afforest` computes the step ``component_labels``
(FastSV's fixpoint: the smallest id of each component) by a sampled union-find.
"""

from __future__ import annotations

import numba
import numpy as np

from ...base import Declined
from ..objects import _numpy_views, _owning_full
from ._common import _csr, _need_full, fuses


@numba.njit(cache=True, nogil=True)
def fastsv_hook(f, gp, mngp):
    """FastSV's hooking, shortcutting and grandparent update, in place; returns whether ``gp`` changed.

    Stochastic hooking ``f[f[i]] = min(f[f[i]], mngp[i])`` (indices from ``f``
    as it was before the round), aggressive hooking ``f = min(f, mngp)``,
    shortcutting ``f = min(f, gp)``, then ``gp = f[f]``.
    """
    n = f.size
    before = f.copy()
    for i in range(n):
        p = before[i]
        if mngp[i] < f[p]:
            f[p] = mngp[i]
    for i in range(n):
        m = mngp[i] if mngp[i] < gp[i] else gp[i]
        if m < f[i]:
            f[i] = m
    changed = False
    for i in range(n):
        g = f[f[i]]
        if g != gp[i]:
            changed = True
            gp[i] = g
    return changed


@numba.njit(cache=True, nogil=True, inline="always")
def _root(f, x):
    """The root of ``x``, halving the path on the way."""
    while f[x] != x:
        f[x] = f[f[x]]
        x = f[x]
    return x


@numba.njit(cache=True, nogil=True, inline="always")
def _link(f, u, v):
    """Join the trees of ``u`` and ``v``: the larger root hangs under the smaller (so a root is its tree's smallest id)."""
    ru = _root(f, u)
    rv = _root(f, v)
    if ru < rv:
        f[rv] = ru
    elif rv < ru:
        f[ru] = rv


#: Afforest's neighbour rounds and samples (passed explicitly: numba's dispatcher takes ~45 us to type
#: an omitted default argument, every call)
AFFOREST_ROUNDS = 2
AFFOREST_SAMPLES = 1024


@numba.njit(cache=True, nogil=True)
def afforest(indptr, indices, f, rounds, samples):
    """Afforest (Sutton, Ben-Nun & Barak 2018), sequential: ``f[v]`` = the smallest id of ``v``'s component.

    The CSR must be symmetric (an undirected graph).  Link every vertex to its
    first ``rounds`` neighbours; take the most frequent root of ``samples``
    vertices drawn by a fixed LCG as the giant component; then link the
    remaining edges of the vertices outside it only -- an edge between the
    giant component and another vertex is stored at that vertex too.  Roots
    are their trees' smallest ids throughout, so flattening gives the labels.
    """
    n = f.size
    for i in range(n):
        f[i] = i
    for r in range(rounds):
        for v in range(n):
            p = indptr[v] + r
            if p < indptr[v + 1]:
                _link(f, v, indices[p])
    for v in range(n):
        f[v] = _root(f, v)
    giant = -1
    if n > 0:
        picks = np.empty(samples, f.dtype)
        x = np.uint64(0x9E3779B97F4A7C15)
        for s in range(samples):
            x = x * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
            picks[s] = f[np.int64(x >> np.uint64(33)) % n]
        picks.sort()
        best = run = 0
        for s in range(samples):
            run = run + 1 if s > 0 and picks[s] == picks[s - 1] else 1
            if run > best:
                best = run
                giant = picks[s]
    for v in range(n):
        if f[v] == giant:
            continue
        for p in range(indptr[v] + rounds, indptr[v + 1]):
            _link(f, v, indices[p])
    for v in range(n):
        f[v] = _root(f, v)


# ---- the fused steps ----
@fuses
def component_labels(E, G):
    """Afforest's sampled union-find in one numba pass (the CSR of an undirected graph is symmetric)."""
    if G.directed:
        raise Declined("component_labels' union-find needs the symmetric CSR of an undirected graph")
    f = np.empty(G.n, np.int64)
    _afforest(G, f)
    return _owning_full(f)   # f itself, no copy


def _afforest(G, f):
    """Afforest over ``G``'s CSR (symmetric) into ``f``."""
    indptr, indices, _ = _csr(G)
    afforest(indptr, indices, f, AFFOREST_ROUNDS, AFFOREST_SAMPLES)


@fuses
def fastsv_round(E, A, f, gp, mngp):
    """The ``mngp`` product in GraphBLAS, then hooking, shortcutting and ``gp = f[f]`` in one numba loop."""
    _need_full("fastsv_round", f, gp, mngp)
    E.mxv(A, gp, "min_second", out=mngp, accum="min")
    with _numpy_views(f, gp, mngp) as (fa, ga, ma):
        changed = fastsv_hook(fa, ga, ma)
    return f, gp, changed
