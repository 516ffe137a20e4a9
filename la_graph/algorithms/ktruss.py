"""k-truss and trussness by peeling edges, the support of each edge a masked ``plus.pair`` product.

The *support* of an edge ``{u, v}`` is the number of triangles it lies in: the
common neighbours of ``u`` and ``v``.  With ``C`` the simple undirected graph
(self-loops, weights and directions dropped, as :func:`~la_graph.triangles`
takes it), all supports at once are ``C<C> = C plus.pair C``.  The ``k``-truss
(Cohen 2008) is the largest subgraph in which every edge has support at least
``k - 2``; an edge's *trussness* is the largest ``k`` whose ``k``-truss holds
it (every edge is in the 2-truss).

Peeling, LAGraph's ``LAGraph_KTruss`` without its recount: the support matrix
``S`` holds every remaining edge's support (0 included).  One round::

    R    = select(S < k - 2)                       the edges that leave
    keep = select(S >= k - 2)
    lost = (R plus.pair S_old)<keep> + ((R plus.pair keep)<keep>)'
    S    = keep - lost

A triangle ``u, v, w`` of a kept edge ``{u, v}`` is lost when ``{u, w}`` or
``{v, w}`` leaves: ``R[u, w]`` with ``{w, v}`` an old edge (the first
product), or ``R[v, w]`` with ``{w, u}`` kept (the second, at ``[v, u]``,
transposed) -- the two cases are disjoint, so each lost triangle counts once.
Both products run over ``R``'s rows; the second is transposed on the host
(the engine interface has no transpose), its entries as few as the triangles
lost.  A round reads the removed edges' neighbourhoods only,
not the whole graph as a recount would; only an edge that lost support can
fall below the threshold, so the next ``R`` is selected among those.

:func:`trussness` peels level by level as :func:`~la_graph.core_number` peels
vertices: at level ``k`` the edges of support below ``k - 1`` are not in the
``(k + 1)``-truss, so their trussness is ``k``; levels no edge would leave at
are skipped (``k = max(k, min(S) + 2)``).

Steps an engine may fuse: ``edge_support``, ``truss_peel`` (the ``k``-truss)
and ``truss_levels`` (every level; the CPU engine runs the edge peeling of
Wang & Cheng 2012 one edge at a time, level by level, with the same
trussness).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import _validation as V
from .. import verify
from ..engines import get_engine
from ..exceptions import InvalidArgumentError
from ..graph import Graph, Subgraph
from ._certify import Checker
from ._registry import Cli, algorithm
from .steps import step

__all__ = ["k_truss", "trussness", "TrussnessResult", "edge_support", "truss_peel", "truss_levels"]


class TrussnessResult(NamedTuple):
    """Each undirected edge of the simple graph once, ``u < v``, sorted by ``(u, v)``, and its trussness.

    Attributes
    ----------
    u, v : numpy.ndarray
        int64 endpoints, ``u[i] < v[i]``.
    truss : numpy.ndarray
        int64: the largest ``k`` whose ``k``-truss holds edge ``i`` (at least 2).
    """

    u: np.ndarray
    v: np.ndarray
    truss: np.ndarray


def _simple(G):
    """``G`` undirected, as a graph to peel: directions dropped (weights kept, the smallest)."""
    return V.check_graph(G).to_undirected()


def _check_k(k):
    k = V.check_int(k, "k")
    if k < 2:
        raise InvalidArgumentError(f"k must be at least 2 (every edge is in the 2-truss; a k-truss needs k >= 2), "
                                   f"got {k}")
    return k


def _run_k_truss(args, G, engine):
    """``la-graph run ktruss``: the truss's size, its vertices and edges (ids of ``G``)."""
    H, ids = k_truss(G, args.k, engine=engine)
    u, v = H.edges()
    up = u < v
    summary = {"k": args.k, "vertices": int(ids.size), "edges": H.nedges}
    return summary, {"vertices": ids, "u": ids[u[up]], "v": ids[v[up]]}, \
        lambda: verify.check_k_truss(G, args.k, H, ids)


def _run_trussness(args, G, engine):
    """``la-graph run trussness``: the largest trussness and the edges that have it."""
    r = trussness(G, engine=engine)
    top = int(r.truss.max(initial=0))
    summary = {"edges": int(r.u.size), "max_truss": top, "edges_at_max": int((r.truss == top).sum())}
    return summary, r._asdict(), lambda: verify.check_trussness(G, r.u, r.v, r.truss)


@algorithm("k_truss", cli=Cli("ktruss", "the k-truss subgraph (--k, default 3)", options=("k",), defaults={"k": 3},
                              run=_run_k_truss),
           networkx=("k_truss",),
           checker=Checker("check_k_truss", lambda G, r, a: verify.check_k_truss(G, a["k"], r.graph, r.vertices)),
           bench=("ktruss",), page="algorithms/ktruss.md",
           summary="the k-truss by peeling edges of support below k - 2, support from masked `C plus.pair C`")
def k_truss(G, k, *, engine=None):
    """The ``k``-truss of ``G``: its largest subgraph whose every edge lies in at least ``k - 2`` triangles.

    Parameters
    ----------
    G : Graph
        Any graph, taken as undirected: directions and self-loops are dropped
        and duplicate edges are one (as :func:`~la_graph.triangles` takes it).
        Weights are kept on the edges of the truss (a directed graph's edge
        both ways keeps the smaller weight).
    k : int
        At least 2 (the 2-truss is every edge).
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    Subgraph
        ``(graph, vertices)``: the truss as an undirected :class:`~la_graph.Graph`
        on the vertices that are in one of its edges, vertex ``i`` of
        ``graph`` being vertex ``vertices[i]`` of ``G`` (``vertices`` sorted,
        int64), as ``networkx.k_truss`` drops the nodes left without an edge.
        The truss need not be the induced subgraph on ``vertices``: an edge
        between two of them may have too little support.

    Raises
    ------
    InvalidArgumentError
        ``k`` is not an integer of at least 2.

    See Also
    --------
    trussness : every edge's largest ``k``.

    Examples
    --------
    >>> import la_graph as lg
    >>> K4 = lg.Graph.from_edges([0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3])
    >>> G = lg.Graph.from_edges([0, 0, 0, 1, 1, 2, 3], [1, 2, 3, 2, 3, 3, 4])   # K4 with a tail
    >>> H, ids = lg.k_truss(G, 4)
    >>> ids.tolist(), H == K4
    ([0, 1, 2, 3], True)
    >>> lg.k_truss(G, 5).vertices.tolist()
    []
    """
    G = _simple(G)
    k = _check_k(k)
    E = get_engine(engine)
    S = edge_support(E, G)
    S = truss_peel(E, S, k)
    rows, cols, _ = E.to_coo(S)
    return _truss_subgraph(G, np.asarray(rows, np.int64), np.asarray(cols, np.int64))


def _truss_subgraph(G, rows, cols):
    """The edges ``rows -> cols`` of undirected ``G`` (both ways stored), with their weights, on their vertices."""
    vertices = np.unique(rows)
    keep = np.zeros(G.nnz, bool)
    if rows.size:
        keep[_positions(G, rows, cols)] = True
    u, v = G.edges()
    w = None if G.weights is None else G.weights[keep]
    new = np.full(G.n, -1, np.int64)
    new[vertices] = np.arange(vertices.size)
    H = Graph.from_edges(new[u[keep]], new[v[keep]], w, n=vertices.size)
    return Subgraph(H, vertices)


def _positions(G, rows, cols):
    """The CSR positions of the stored entries ``rows -> cols`` of ``G`` (each must be stored)."""
    key = G.edges()[0].astype(np.int64) * G.n + G.indices
    return np.searchsorted(key, rows * G.n + cols)


@algorithm("trussness", cli=Cli("trussness", "the trussness of every edge (the largest k-truss holding it)",
                                   run=_run_trussness),
           networkx=("generalized_degree",),
           checker=Checker("check_trussness", lambda G, r, a: verify.check_trussness(G, r.u, r.v, r.truss)),
           bench=("trussness",), page="algorithms/ktruss.md", summary="every edge's truss number, peeling level by level")
def trussness(G, *, engine=None):
    """The trussness of every edge: the largest ``k`` such that the ``k``-truss holds it.

    Parameters
    ----------
    G : Graph
        Any graph, taken as undirected: directions, self-loops, weights and
        duplicate edges are ignored.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    TrussnessResult
        ``(u, v, truss)``: int64 arrays, one entry per undirected edge with
        ``u < v``, sorted by ``(u, v)`` (the order of ``G``'s CSR upper
        triangle); ``truss`` is at least 2.  ``{(u, v): t}`` is
        ``dict(zip(zip(u.tolist(), v.tolist()), truss.tolist()))``.

    See Also
    --------
    k_truss : the subgraph of one ``k``.

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 0, 0, 1, 1, 2, 3], [1, 2, 3, 2, 3, 3, 4])   # K4 with a tail
    >>> r = lg.trussness(G)
    >>> list(zip(r.u.tolist(), r.v.tolist(), r.truss.tolist()))
    [(0, 1, 4), (0, 2, 4), (0, 3, 4), (1, 2, 4), (1, 3, 4), (2, 3, 4), (3, 4, 2)]
    """
    G = _simple(G)
    E = get_engine(engine)
    T = truss_levels(E, edge_support(E, G))
    rows, cols, t = E.to_coo(T)
    rows, cols, t = np.asarray(rows, np.int64), np.asarray(cols, np.int64), np.asarray(t, np.int64)
    up = rows < cols
    u, v, t = rows[up], cols[up], t[up]
    key = u * G.n + v
    if key.size > 1 and not np.all(key[1:] > key[:-1]):      # an engine's COO need not be row-major
        order = np.argsort(key)
        u, v, t = u[order], v[order], t[order]
    return TrussnessResult(u, v, t)


@step("edge_support")
def edge_support(E, G):
    """The support of every edge of undirected ``G`` (self-loops dropped): an int64 matrix on its edges, 0 kept.

    ``S<A> = A plus.pair A`` accumulated into zeros on ``A``'s structure, so an
    edge in no triangle keeps its entry.
    """
    rows, cols = G.edges()
    off = rows != cols
    rows, cols = rows[off].astype(np.int64), cols[off].astype(np.int64)
    A = E.matrix_from_coo(rows, cols, np.ones(rows.size, bool), G.n, G.n, dtype=bool)
    S = E.matrix_from_coo(rows, cols, np.zeros(rows.size, np.int64), G.n, G.n, dtype=np.int64)
    E.mxm(A, A, "plus_pair", out=S, mask=A, structural=True, accum="plus")
    return S


def _peel_round(E, S, R, low):
    """Remove the edges ``R`` from the support matrix ``S``; returns ``(S', lost)``: the edges of support at
    least ``low`` with their support updated, and how much each lost (module notes)."""
    keep = E.select(S, "valuege", low)
    lost = E.mxm(R, S, "plus_pair", mask=keep, structural=True)         # {u, w} removed, {w, v} was an edge
    # {v, w} removed and {w, u} kept: the same product over the kept edges, read transposed; it is as small as
    # the removed edges' neighbourhoods, where (keep plus.pair R) would scan every kept edge
    rows, cols, vals = E.to_coo(E.mxm(R, keep, "plus_pair", mask=keep, structural=True))
    n = E.size(S)[0]
    lost = E.ewise_add(lost, E.matrix_from_coo(cols, rows, vals, n, n, dtype=np.int64), "plus")
    E.apply(lost, "identity", out=keep, accum="minus")
    return keep, lost


@step("truss_peel")
def truss_peel(E, S, k):
    """The ``k``-truss from the support matrix ``S`` of :func:`edge_support`: its edges with their support.

    Rounds remove the edges of support below ``k - 2`` (module notes) until none is left.
    """
    R = E.select(S, "valuelt", k - 2)
    while E.nvals(R):
        S, lost = _peel_round(E, S, R, k - 2)
        R = E.select(E.ewise_mult(S, lost, "first"), "valuelt", k - 2)
    return S


@step("truss_levels")
def truss_levels(E, S):
    """Every edge's trussness from the support matrix ``S`` of :func:`edge_support`: an int64 matrix on its
    structure.

    Level ``k`` removes, round by round, the edges of support below ``k - 1``
    (their trussness is ``k``); levels no edge would leave at are skipped
    (module notes).
    """
    n = E.size(S)[0]
    parts_r, parts_c, parts_t = [], [], []
    k = 2
    while E.nvals(S):
        k = max(k, int(E.reduce(S, "min")) + 2)      # every edge left is in the (min + 2)-truss
        R = E.select(S, "valuelt", k - 1)              # not in the (k + 1)-truss: trussness k
        while E.nvals(R):
            rows, cols, _ = E.to_coo(R)
            parts_r.append(np.asarray(rows, np.int64))
            parts_c.append(np.asarray(cols, np.int64))
            parts_t.append(np.full(parts_r[-1].size, k, np.int64))
            S, lost = _peel_round(E, S, R, k - 1)
            R = E.select(E.ewise_mult(S, lost, "first"), "valuelt", k - 1)
    if not parts_r:
        return E.matrix_from_coo(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), n, n,
                                 dtype=np.int64)
    return E.matrix_from_coo(np.concatenate(parts_r), np.concatenate(parts_c), np.concatenate(parts_t), n, n,
                             dtype=np.int64)
