"""Fineman's diameter-reducing shortcuts (Algorithms 3 and 4 of Fineman 2018/2020).

A *shortcut* is an edge ``(u, v)`` added where ``u`` already reaches ``v``: the
transitive closure stays the same and paths get fewer hops, so a BFS (the
reachability query) needs fewer levels.  ``ParSC(G, h)`` (Algorithm 3):

1. permute the vertices at random and split the sequence into groups
   ``X_1 .. X_2k`` of sizes ``1, (1+eps), (1+eps)^2, ..`` growing to the middle
   and shrinking again;
2. for each group ``i`` in turn, from every still-live pivot ``x_j`` of the
   group, search forward and backward up to ``d*D`` hops (the *core*
   ``R_j^+, R_j^-``) and on to ``(d+1)*D`` hops (the *fringe* ``F_j^+, F_j^-``),
   with ``d`` random in ``[d_min, d_max)``;
   add the shortcuts ``x_j -> v`` for ``v`` in ``R_j^+ u F_j^+`` and
   ``u -> x_j`` for ``u`` in ``R_j^- u F_j^-``;
   tag every core vertex with ``j``; a vertex keeps only its smallest tag, and
   each pivot drops the vertices tagged earlier; recurse (depth ``h - 1``) on
   ``G[(R_j^+ minus R_j^-) u F_j^+]`` and ``G[(R_j^- minus R_j^+) u F_j^-]``;
   the core vertices die (they leave the graph for later groups);
3. ``ParDiam`` (Algorithm 4) adds the shortcuts of ``runs`` independent calls
   ``ParSC(G', depth)`` to ``G'``, ``rounds`` times.

In linear algebra: all the subproblems of one recursion level live side by side
in one block-diagonal matrix ``H`` (a vertex that two subproblems share -- a
fringe vertex -- gets one copy in each), and its search matrix is
``B = [[H, 0], [0, H']]``: a frontier row holding ``x_j`` in both halves runs the
forward and the backward search of ``x_j`` at once.  All pivots of group ``i``,
across every subproblem, search together as one frontier matrix::

    Q<!R, replace> = Q any.pair B_live,   R<Q> = true      (dD levels: the core, then D more)

(:func:`~la_graph.algorithms.reachability.sweep`) where ``B_live = B any.pair
diag(live)`` drops the dead vertices' columns.  The bookkeeping between groups
(tags, the subproblems' vertex sets, the next level's block matrix) is numpy on
the host.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from .. import _validation as V
from ..engines import get_engine
from ..graph import Graph
from .. import verify
from ._certify import Checker, SAMPLE_ROWS
from ._registry import Cli, algorithm
from .reachability import sweep

__all__ = ["shortcut", "search_schedule"]


def search_schedule(n, *, eps=1.0, layers=2, distance=1, depth=None):
    """The parameters :func:`shortcut` derives for a graph of ``n`` vertices.

    Returns a dict with ``k`` (groups grow over ``X_1..X_k`` and shrink over
    ``X_k+1..X_2k``), ``N_k = 2k`` (the most groups of one ParSC call),
    ``N_L = layers``, ``D = distance``, ``depth`` (``ceil(lg n)`` by default) and
    ``radius``: the largest core search distance ``d*D``, at the top level's
    first group (``d < d_max = 1 + depth*N_k*N_L``).

    Examples
    --------
    >>> from la_graph.algorithms.shortcut import search_schedule
    >>> s = search_schedule(1000)
    >>> s["k"], s["N_k"], s["depth"], s["radius"]
    (8, 16, 10, 319)
    """
    sizes = _group_sizes(n, eps)
    k = _k_of(np.array([max(n, 1)]), np.cumsum(sizes))[0]
    depth = _default_depth(n) if depth is None else depth
    nk = 2 * int(k)
    return {"k": int(k), "N_k": nk, "N_L": layers, "D": distance, "depth": depth,
            "radius": distance * (depth * nk * layers - 1)}


@algorithm("shortcut",
           cli=Cli("shortcut", "Fineman's shortcuts: edges added with the same reachability and fewer BFS levels "
                               "(--seed; levels from --source)",
                   options=("source", "sources", "seed"), defaults={"seed": 0}),
           checker=Checker("check_shortcut", lambda G, H, a: verify.check_shortcut(G, H),
                           sampled=f"check_shortcut with {SAMPLE_ROWS} of its searches",
                           sample=lambda G, H, a: verify.check_shortcut(G, H, sample=SAMPLE_ROWS)), page="algorithms/shortcut.md",
           summary="Fineman's diameter-reducing shortcuts: the same reachability in fewer BFS levels")
def shortcut(G, *, seed=0, eps=1.0, layers=2, distance=1, depth=None, rounds=1, runs=1, engine=None):
    """Add Fineman's shortcuts: a graph with the same reachability and fewer BFS levels.

    Parameters
    ----------
    G : Graph
        Directed (an undirected graph is taken as its symmetric directed graph).
    seed : int
        Seed of the random pivot orders and search distances (numpy
        ``default_rng``); the result depends only on it, not on the engine.
    eps : float
        Fineman's ``eps_pi`` in ``(0, 1]``: group ``i`` holds ``floor((1+eps)^i)``
        pivots.  Default 1: groups of 2, 4, 8, ... pivots.
    layers : int
        ``N_L >= 2``: the search-distance multiplier ``d`` is drawn from ``N_L - 1``
        consecutive values, and drops by ``N_L`` from one group to the next.
    distance : int
        ``D >= 1``: the unit of search distance; core searches go ``d*D`` hops,
        fringe searches ``(d+1)*D``.
    depth : int, optional
        Recursion depth of ParSC (``h``); default ``ceil(lg n)``, Fineman's choice.
    rounds, runs : int
        Algorithm 4: ``rounds`` times, add the shortcuts of ``runs`` independent
        ParSC calls on the current graph (Fineman: ``Theta(log n)`` and
        ``Theta(gamma log n)``; default 1 and 1).
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    Graph
        Directed and unweighted: the edges of ``G`` plus the shortcuts.  Every
        vertex reaches exactly what it reached in ``G``; no BFS gets deeper.

    Examples
    --------
    >>> import numpy as np, la_graph as lg
    >>> G = lg.Graph.from_edges(np.arange(63), np.arange(1, 64), directed=True)  # a path
    >>> lg.bfs(G, 0).nlevels
    64
    >>> H = lg.shortcut(G, seed=1)
    >>> lg.bfs(H, 0).nlevels < 10
    True
    >>> bool((lg.reachability(H, [0, 30]) == lg.reachability(G, [0, 30])).all())
    True
    """
    G = V.check_graph(G)
    seed = V.check_int(seed, "seed", 0)
    eps = V.check_real(eps, "eps", low=0, high=1, open_low=True)
    layers = V.check_int(layers, "layers", 2)
    distance = V.check_int(distance, "distance", 1)
    depth = _default_depth(G.n) if depth is None else V.check_int(depth, "depth", 1)
    rounds = V.check_int(rounds, "rounds", 1)
    runs = V.check_int(runs, "runs", 1)
    E = get_engine(engine)
    rng = np.random.default_rng(seed)
    n = G.n
    Gc = G
    for _ in range(rounds):
        u, v = Gc.edges()
        found = [_parsc(E, Gc, rng, float(eps), layers, distance, depth) for _ in range(runs)]
        Gc = Graph.from_edges(np.concatenate([u, *(f[0] for f in found)]),
                              np.concatenate([v, *(f[1] for f in found)]), n=n, directed=True)
    return Gc  # rounds >= 1: always a new Graph


# ---------------------------------------------------------------------- ParSC
def _parsc(E, G, rng, eps, nl, D, depth):
    """One call ``ParSC(G, depth)``, every recursion level at once; returns the shortcuts ``(u, v)``."""
    n = G.n
    sizes = _group_sizes(n, eps)
    prefix = np.cumsum(sizes)
    nk = 2 * int(_k_of(np.array([max(n, 1)]), prefix)[0])
    H = G.to_scipy().astype(bool)
    part = np.zeros(n, np.int64)  # the subproblem of each vertex of H
    orig = np.arange(n, dtype=np.int64)  # the vertex of G it stands for
    su, sv = [], []
    for h in range(depth, 0, -1):
        if H.shape[0] == 0:
            break
        H, part, orig, (u, v) = _level(E, H, part, orig, h, rng, prefix, nk, nl, D)
        su.append(u)
        sv.append(v)
    return np.concatenate(su or [np.zeros(0, np.int64)]), np.concatenate(sv or [np.zeros(0, np.int64)])


def _level(E, H, part, orig, h, rng, prefix, nk, nl, D):
    """All ParSC calls of recursion depth ``h`` (one per part of ``H``); returns the next level and shortcuts."""
    nh = H.shape[0]
    # the search matrix [[H, 0], [0, H']]: column c < nh forward, nh + c backward
    Hc = H.tocoo()
    rows = np.concatenate([Hc.row, nh + Hc.col]).astype(np.int64)
    cols = np.concatenate([Hc.col, nh + Hc.row]).astype(np.int64)
    B = E.matrix_from_coo(rows, cols, True, 2 * nh, 2 * nh, dtype=bool)
    # random order inside each part: rank = position in the part's permutation; groups by rank
    order = np.lexsort((rng.random(nh), part))
    psize = np.bincount(part)
    start = np.concatenate([[0], np.cumsum(psize)[:-1]])
    rank = np.empty(nh, np.int64)
    rank[order] = np.arange(nh) - start[part[order]]
    group = _group_of(rank, psize[part], prefix)
    live = np.ones(nh, bool)
    dead_changed = False
    B_live = B
    short_u, short_v, child_of, child_vertex = [], [], [], []
    nchild = 0
    for i in range(1, int(group.max(initial=0)) + 1):
        piv = np.flatnonzero((group == i) & live)
        if piv.size == 0:
            continue
        d_min = 1 + h * nk * nl - i * nl
        d = int(rng.integers(d_min, d_min + nl - 1))  # d in {d_min, .., d_max - 1}, d_max = d_min + N_L - 1
        if dead_changed:
            keep = np.concatenate([np.flatnonzero(live), nh + np.flatnonzero(live)])
            B_live = E.mxm(B, E.matrix_from_coo(keep, keep, True, 2 * nh, 2 * nh, dtype=bool), "any_pair")
            dead_changed = False
        p = piv.size
        r = np.arange(p, dtype=np.int64)
        Q = E.matrix_from_coo(np.concatenate([r, r]), np.concatenate([piv, nh + piv]), True, p, 2 * nh,
                              dtype=bool)
        R = E.copy(Q)
        Q, k = sweep(E, B_live, Q, R, depth=d * D)
        core = E.copy(R)
        if k == d * D:
            sweep(E, B_live, Q, R, k=k, depth=(d + 1) * D)
        fringe = E.apply(R, "identity", mask=core, structural=True, complement=True)
        cr, cc, _ = E.to_coo(core)
        fr, fc, _ = E.to_coo(fringe)
        cr, cc, fr, fc = (np.asarray(a, np.int64) for a in (cr, cc, fr, fc))
        # shortcuts x_j -> v (forward half) and u -> x_j (backward half), core and fringe alike
        ar, ac = np.concatenate([cr, fr]), np.concatenate([cc, fc])
        fwd = ac < nh
        x = orig[piv[ar]]
        y = orig[np.where(fwd, ac, ac - nh)]
        su, sv = np.where(fwd, x, y), np.where(fwd, y, x)
        short_u.append(su[su != sv])
        short_v.append(sv[su != sv])
        # tags: every core vertex keeps the smallest pivot rank that reached it
        cv = np.where(cc < nh, cc, cc - nh)
        tag = np.full(nh, np.iinfo(np.int64).max)
        np.minimum.at(tag, cv, rank[piv[cr]])
        live[cv] = False
        dead_changed = True
        if h == 1:
            continue
        jr = rank[piv]
        keep_core = tag[cv] == jr[cr]
        fv = np.where(fc < nh, fc, fc - nh)
        keep_fringe = tag[fv] > jr[fr]
        ck_r, ck_c = cr[keep_core], cc[keep_core]
        fk_r, fk_c = fr[keep_fringe], fc[keep_fringe]
        # V_F = R+ minus R-, V_B = R- minus R+ (per pivot), each with its fringe
        plus = ck_r[ck_c < nh] * nh + ck_c[ck_c < nh]
        minus = ck_r[ck_c >= nh] * nh + (ck_c[ck_c >= nh] - nh)
        vf = np.setdiff1d(plus, minus, assume_unique=True)
        vb = np.setdiff1d(minus, plus, assume_unique=True)
        ff = fk_r[fk_c < nh] * nh + fk_c[fk_c < nh]
        fb = fk_r[fk_c >= nh] * nh + (fk_c[fk_c >= nh] - nh)
        for side, members in ((0, np.concatenate([vf, ff])), (1, np.concatenate([vb, fb]))):
            pr, pv = members // nh, members % nh
            child_of.append(nchild + 2 * pr + side)
            child_vertex.append(pv)
        nchild += 2 * p
    found = (np.concatenate(short_u or [np.zeros(0, np.int64)]), np.concatenate(short_v or [np.zeros(0, np.int64)]))
    if not child_of:
        return sp.csr_array((0, 0), dtype=bool), np.zeros(0, np.int64), np.zeros(0, np.int64), found
    H2, part2, orig2 = _subproblems(H, orig, np.concatenate(child_of), np.concatenate(child_vertex))
    return H2, part2, orig2, found


def _subproblems(H, orig, child, vertex):
    """The block-diagonal matrix of the subgraphs ``H[{vertex[t] : child[t] = c}]``, one block per child.

    Children of fewer than two vertices are dropped (they hold no path).
    Returns ``(H2, part2, orig2)``.
    """
    cnt = np.bincount(child)
    keep = cnt[child] >= 2
    child, vertex = child[keep], vertex[keep]
    order = np.lexsort((vertex, child))
    child, vertex = child[order], vertex[order]
    _, part2 = np.unique(child, return_inverse=True)
    T = child.size
    # H2 = S H S' restricted to pairs of copies in the same child (S selects the copies)
    S = sp.csr_array((np.ones(T, bool), (np.arange(T), vertex)), shape=(T, H.shape[0]))
    C = (S @ H.astype(np.int8) @ S.T).tocoo()
    same = part2[C.row] == part2[C.col]
    H2 = sp.csr_array((np.ones(int(same.sum()), bool), (C.row[same], C.col[same])), shape=(T, T))
    return H2, part2.astype(np.int64), orig[vertex]


# ---------------------------------------------------------------------- groups
def _group_sizes(n, eps):
    """``floor((1+eps)^i)`` for ``i = 1, 2, ..`` until twice their sum reaches ``n``."""
    sizes, i = [], 1
    while 2 * sum(sizes) < max(n, 1):
        sizes.append(math.floor((1 + eps) ** i))
        i += 1
    return np.array(sizes, np.int64)


def _k_of(s, prefix):
    """``k`` for parts of sizes ``s``: the least ``k`` with ``2 * (|X_1| + .. + |X_k|) >= s``."""
    return np.searchsorted(2 * prefix, s, side="left") + 1


def _group_of(rank, size, prefix):
    """Group index (1-based) of the vertex at ``rank`` of a part of ``size`` vertices.

    Groups ``1..k-1`` take ``|X_i| = floor((1+eps)^i)`` vertices from the front,
    groups ``2k..k+2`` the same sizes from the back, groups ``k`` and ``k+1``
    share the rest (each at most ``|X_k|``).
    """
    k = _k_of(size, prefix)
    P = np.concatenate([[0], prefix])
    pk = P[k - 1]  # |X_1| + .. + |X_{k-1}|
    rem = size - 2 * pk
    front = np.searchsorted(P, rank, side="right")  # i with P[i-1] <= rank < P[i]
    back = 2 * k + 1 - np.searchsorted(P, size - 1 - rank, side="right")
    mid1 = rank < pk + (rem + 1) // 2
    return np.where(rank < pk, front,
                    np.where(mid1, k, np.where(rank < pk + rem, k + 1, back))).astype(np.int64)


def _default_depth(n):
    return max(1, math.ceil(math.log2(max(n, 2))))
