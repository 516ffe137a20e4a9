"""Leiden community detection (Traag, Waltman & van Eck 2019): Louvain's moves, a refinement, connected communities.

Each level moves vertices as Louvain does
(:func:`~la_graph.algorithms.louvain.louvain_move`), then *refines* every
community (the step :func:`leiden_refine`): inside it, starting from
singletons, a vertex still alone and well connected to its community (``2m
w(v, C - v) >= gamma k_v (Sigma_C - k_v)``) joins the sub-community ``T`` of
the same community, well connected too (``2m w(T, C - T) >= gamma Sigma_T
(Sigma_C - Sigma_T)``), that raises the modularity most -- greedily: the
randomised choice of the paper at temperature 0. The weights ``w(v, T)`` are
one product, ``A_C S_R``, of the community's inner edges ``A_C = A .* (S S')``
(``A`` where ``l_i == l_j``, the labels spread over its pattern by products
with ``diag(l)``) and the sub-communities' membership. The joins are decided
in rounds with seeded priorities so that a vertex never joins a sub-community
whose only member leaves in the same round: a candidate joins its target when
no candidate of higher priority targets the candidate's own singleton, and the
target stays -- a larger sub-community (whose members never move), a singleton
that is no candidate, or one that a candidate of higher priority than its own
member targets (one scatter of priorities, ``max``). Every joiner is adjacent
to a target that stays, so every sub-community stays connected, and the
highest candidate always joins, so the rounds end. The next level aggregates
the *refined* partition (``S_R' A S_R``) and starts from the moved one, so a
community of one level may split at the next.

After the levels, every community is split into its connected components
(FastSV, the ``fastsv_round`` step, on ``A_C``'s pattern): a split of
unconnected parts only raises the modularity, and it makes the connectivity
unconditional.  The passes repeat from their own result until nothing changes
(a pass that changes nothing is not split again) or until one raises the
modularity by at most ``pass_threshold``; single-vertex moves on the graph
itself, each followed by the split, then run until nothing changes
(:func:`~la_graph.algorithms.louvain.polish`).  Either way the result is a
fixpoint of single-vertex moves whose communities are connected
(``verify.check_communities`` with ``connected=True`` checks both).  On R-MAT
18 the passes after the fourth raised the modularity by 0.00016 in all, and
took 70 of the 95 s.
"""

from __future__ import annotations

import itertools

import numpy as np

from .. import _random
from .. import verify
from ._certify import Checker, host
from ._registry import Cli, algorithm
from .connected_components import fastsv_round
from .louvain import LouvainResult, _check_args, optimise, round_seed
from .modularity import canonical_labels, check_community_graph, membership
from .steps import step

__all__ = ["leiden", "leiden_refine"]


def _same(E, A, host):
    """The pattern of ``A`` where both ends share a community of ``host`` (``l_i == l_j``; bool): the labels
    spread over ``A``'s pattern by its products with ``diag(l)`` on either side (``any.first``, ``any.second``)."""
    n = host.size
    ids = np.arange(n, dtype=np.int64)
    D = E.matrix_from_coo(ids, ids, host.astype(np.float64), n, n, dtype=np.float64)
    return E.select(E.ewise_mult(E.mxm(D, A, "any_first"), E.mxm(A, D, "any_second"), "eq"), "valueeq", True)


def _inner(E, A, host):
    """``A`` kept where both ends share a community of ``host``: ``A_C = A .* (S S')``."""
    return E.ewise_mult(A, _same(E, A, host), "first")


def _sums(E, x, S, n):
    out = E.full(n, 0.0)
    E.vxm(x, S, "plus_times", out=out, accum="plus")
    return out


@step("leiden_refine")
def leiden_refine(E, A, k, labels, resolution, seed, level):
    """The refined partition of ``labels`` (a full int64 vector of sub-community ids), as the module docstring says.

    ``A`` is the level's symmetric adjacency without its diagonal, ``k`` its
    degrees; priorities from :func:`~la_graph.algorithms.louvain.round_seed`
    of ``(seed, level, round)``, offset from the moving rounds'.
    """
    n = E.size(k)
    ids = np.arange(n, dtype=np.int64)
    part = E.to_numpy(labels)
    two_m = float(E.reduce(k, "plus"))
    gamma = float(resolution)
    if n == 0 or not two_m > 0:
        return E.iota(n)
    Ain = _inner(E, A, part)
    kh = E.to_numpy(k)
    kin = E.full(n, 0.0)
    E.reduce_rows(Ain, "plus", out=kin, accum="plus")
    kin_h = E.to_numpy(kin)
    sig_part = E.to_numpy(_sums(E, k, membership(E, part), n))
    # vertices well connected to their community: the candidates (each is visited until it joins or cannot)
    open_ = two_m * kin_h >= gamma * (kh * (sig_part[part] - kh))
    open_ &= kin_h > 0
    alone = np.ones(n, dtype=bool)
    r = ids.copy()
    Dk = E.matrix_from_coo(ids, ids, kh, n, n, dtype=np.float64)
    for rnd in itertools.count():
        if not open_.any():
            break
        SR = membership(E, r)
        KR = E.mxm(Ain, SR, "plus_times")                                  # w(v, T) inside v's community
        sig = E.to_numpy(_sums(E, k, SR, n))
        own = E.full(n, 0.0)
        E.reduce_rows(E.ewise_mult(KR, SR, "first"), "plus", out=own, accum="plus")
        ext = E.to_numpy(_sums(E, kin, SR, n)) - E.to_numpy(_sums(E, own, SR, n))   # w(T, C - T)
        well = (sig > 0) & (two_m * ext >= gamma * (sig * (sig_part[part[ids]] - sig)))
        wi = np.flatnonzero(well)
        ci = np.flatnonzero(open_)
        rows = E.matrix_from_coo(ci, ci, 1.0, n, n, dtype=np.float64)
        cols = E.matrix_from_coo(wi, wi, 1.0, n, n, dtype=np.float64)
        KW = E.mxm(E.mxm(rows, KR, "plus_times"), cols, "plus_times")       # open rows, well-connected columns
        KW = E.apply(KW, "identity", mask=SR, structural=True, complement=True)
        Dsig = E.matrix_from_coo(ids, ids, sig, n, n, dtype=np.float64)
        kS = E.mxm(E.mxm(Dk, E.apply(KW, "one"), "plus_times"), Dsig, "plus_times")
        score = E.ewise_add(E.apply(KW, "times", right=two_m), E.apply(kS, "times", right=gamma), "minus")
        best = E.reduce_rows(score, "max")
        cand = E.select(best, "valuegt", 0.0)                               # staying alone scores 0
        bi, bv = E.to_coo(cand)
        open_[ci[~np.isin(ci, bi)]] = False                                 # nothing to join: visited
        if bi.size == 0:
            break
        at_best = E.ewise_mult(score, E.mxm(E.matrix_from_coo(bi, bi, bv, n, n, dtype=np.float64),
                                            E.apply(KW, "one"), "plus_times"), "eq")
        target = E.mxv(E.select(at_best, "valueeq", True), E.full(n, 1.0), "min_secondi", mask=cand, structural=True)
        # a vertex joins a sub-community that stays: a larger one, or a singleton that is no candidate, or
        # one that a candidate of higher priority than its own joins (then it does not move itself)
        vi, tv = E.to_coo(target)
        tv = tv.astype(np.int64)
        allp = _random.vertex_priorities(n, round_seed(seed, level, rnd + (1 << 32)))
        top = E.full(n, -1, dtype=np.int64)
        E.scatter(top, E.vector_from_numpy(tv), E.vector_from_numpy(allp[vi]), dup="max", accum="max")
        top = E.to_numpy(top)
        leaves = np.zeros(n, dtype=bool)
        leaves[vi] = top[vi] < allp[vi]                                     # no higher candidate joins it
        go = leaves[vi] & ~leaves[tv]
        mi, tgt = vi[go], tv[go]
        r[mi] = tgt
        alone[mi] = False
        alone[tgt] = False
        open_ &= alone
    return E.vector_from_numpy(r)


def _connected_parts(E, Aoff, labels):
    """``labels`` with every community split into its connected components, each named by its smallest vertex
    (``Aoff``: the graph's adjacency without its diagonal)."""
    A = _same(E, Aoff, labels)                          # FastSV reads the pattern only
    f = E.iota(labels.size)
    gp, mngp = E.copy(f), E.copy(f)
    changed = labels.size > 0
    while changed:
        f, gp, changed = fastsv_round(E, A, f, gp, mngp)
    return canonical_labels(E.to_numpy(f))


@algorithm("leiden", cli=Cli("leiden", "connected communities by Leiden modularity optimisation (--seed)",
                             options=("seed",), defaults={"seed": 0}),
           networkx=("leiden_communities", "leiden_partitions"),
           checker=Checker("check_communities", lambda G, r, a: verify.check_communities(
               G, host(getattr(r, "labels", r)), resolution=a["resolution"], connected=True)), bench=("leiden",),
           page="algorithms/leiden.md",
           summary="connected communities by Leiden modularity optimisation, seeded")
def leiden(G, resolution=1.0, *, seed=None, threshold=1e-7, max_level=None, pass_threshold=1e-4, engine=None,
           dendrogram=False):
    """Connected communities of maximal modularity by the Leiden method.

    Parameters
    ----------
    G : Graph
        Undirected (a directed graph is refused: use ``G.to_undirected()``),
        weights non-negative (a negative weight is refused, naming the edge).
    resolution : float
        ``gamma > 0`` of the modularity; larger values give smaller communities.
    seed : int, optional
        The moves' random priorities; the same seed gives the same partition on
        one engine.  ``None``: a fresh seed each call.
    threshold : float
        The levels of a pass stop when one raises the modularity by at most
        this much and its refined aggregate no longer shrinks (a level may
        gain nothing while its communities coarsen towards a merge).
    max_level : int, optional
        The most levels of the first pass.
    pass_threshold : float
        The passes stop when one raises the modularity by at most this much
        (0: only when one changes nothing); single-vertex moves then finish,
        so the result is a fixpoint of single moves either way.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.
    dendrogram : bool
        Also return the labeling after each level.

    Returns
    -------
    numpy.ndarray or LouvainResult
        int64 labels, each community named by its smallest vertex id; every
        community induces a connected subgraph.  With ``dendrogram=True`` a
        :class:`~la_graph.LouvainResult` (``labels`` and ``levels``, as
        :func:`~la_graph.louvain` gives them).

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.generators.connected_caveman(4, 5)
    >>> lg.leiden(G, seed=1).tolist()
    [0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 15, 15, 15, 15, 15]
    """
    G, resolution = check_community_graph(G, resolution, undirected=True)
    threshold, max_level, pass_threshold, dendrogram = _check_args(threshold, max_level, pass_threshold, dendrogram)
    labels, levels = optimise(G, resolution, seed, threshold, max_level, engine, refine=leiden_refine,
                              finish=_connected_parts, pass_threshold=pass_threshold)
    return LouvainResult(labels, levels) if dendrogram else labels
