"""Triangles and clustering (NetworkX's ``algorithms.cluster``)."""

from __future__ import annotations

from collections import Counter

import numpy as np

import la_graph

from ..algorithms.ktruss import edge_support
from ._utils import _engine, _kept, _nbunch, _no_gc, _some_nodes, declines

__all__ = ["triangles", "clustering", "average_clustering", "transitivity", "square_clustering",
           "generalized_degree"]


def triangles(G, nodes=None):
    """The triangles at each node (a dict), or at one node (an int), as NetworkX counts them."""
    per = _kept(G, "triangles")
    return _some_nodes(G, nodes, per, int)


def clustering(G, nodes=None, weight=None):
    """The clustering coefficient of an undirected graph: ``2 T / (d (d - 1))`` per node (self-loops ignored)."""
    c = _kept(G, "local_clustering_coefficient")
    return _some_nodes(G, nodes, c, lambda x: 0 if x == 0 else float(x))


def average_clustering(G, nodes=None, weight=None, count_zeros=True):
    """The mean clustering coefficient over ``nodes`` (summed one by one in node order, as NetworkX)."""
    if nodes is None:          # every node: the kept coefficients as a list, no dict in between
        c = _kept(G, "local_clustering_coefficient")
        c = (c if count_zeros else c[c != 0]).tolist()
    else:
        c = clustering(G, nodes, weight=weight).values()
        if not count_zeros:
            c = [v for v in c if abs(v) > 0]
    return sum(c) / len(c)


def transitivity(G):
    """``3 x triangles / connected triples``: twice the triangles at each node over ``d (d - 1)`` (loops
    aside), summed exactly in integers."""
    if len(G) == 0:
        return 0
    graph = G.lagraph()
    t = _kept(G, "triangles").astype(np.int64, copy=False)
    d = graph.out_degree.astype(np.int64)
    if graph.self_loops:       # a loop is no neighbour
        rows, cols = graph.edges()
        d -= np.bincount(rows[rows == cols], minlength=len(G))
    tri, contri = int(2 * t.sum()), int((d * (d - 1)).sum())
    return 0 if tri == 0 else tri / contri


def _loop_free(G):
    """The converted graph's edges without self-loops (NetworkX's clustering functions ignore them) as
    ``(rows, cols)`` vertex ids, both ways."""
    rows, cols = G.lagraph().edges()
    off = rows != cols
    return rows[off].astype(np.int64), cols[off].astype(np.int64)


def square_clustering(G, nodes=None):
    """NetworkX's square clustering of an undirected graph, from ``M = A plus.times A`` on la_graph's engine.

    With ``k`` a node's neighbours (self-loops ignored), ``S`` the sum of their
    degrees, ``t`` its triangles and ``Q`` the sum of squares of its row of
    ``M`` (``M[v, x]``: the common neighbours of ``v`` and ``x``), NetworkX's
    loop gives ``squares = (Q - k^2 - (S - k)) / 2`` (pairs of paths
    ``v-u-x``, ``v-w-x`` to each ``x != v``) and ``potential = (k - 1) S -
    k (k - 1) - 2 t - squares``; the coefficient is ``squares / potential``
    (the int 0 where ``potential`` is 0 or ``k < 2``, as NetworkX).
    """
    n = len(G)
    E = la_graph.get_engine(_engine())
    rows, cols = _loop_free(G)
    A = E.matrix_from_coo(rows, cols, np.ones(rows.size, np.int64), n, n, dtype=np.int64)
    M = E.mxm(A, A, "plus_times")
    Q = np.asarray(E.to_numpy(E.reduce_rows(E.ewise_mult(M, M, "times"), "plus"), fill=0), np.int64)
    k = np.bincount(rows, minlength=n).astype(np.int64)
    S = np.bincount(rows, weights=k[cols], minlength=n).astype(np.int64)
    t2 = np.asarray(E.to_numpy(E.reduce_rows(E.ewise_mult(M, A, "times"), "plus"), fill=0), np.int64)
    squares = (Q - k * k - (S - k)) // 2
    potential = (k - 1) * S - k * (k - 1) - t2 - squares
    values = np.empty(n, dtype=object)
    values[:] = 0
    ok = (k >= 2) & (potential > 0)
    values[ok] = (squares[ok] / potential[ok]).tolist()
    return _some_nodes(G, nodes, values, lambda x: x)


def generalized_degree(G, nodes=None):
    """Each node's ``Counter`` of the triangle multiplicities of its edges (self-loops ignored), from la_graph's
    edge support ``S<A> = A plus.pair A`` (the k-truss step)."""
    n = len(G)
    E = la_graph.get_engine(_engine())
    u, v, s = E.to_coo(edge_support(E, G.lagraph()))
    u, s = np.asarray(u, np.int64), np.asarray(s, np.int64)
    # (node, multiplicity) pairs counted at once; each node's Counter from its run
    key, count = np.unique(u * (n + 1) + s, return_counts=True)
    node, mult = key // (n + 1), key % (n + 1)
    ptr = np.searchsorted(node, np.arange(n + 1))
    mult, count, ptr = mult.tolist(), count.tolist(), ptr.tolist()

    def gd(i):
        return Counter(dict(zip(mult[ptr[i]:ptr[i + 1]], count[ptr[i]:ptr[i + 1]])))

    if nodes in G:
        return gd(G.index[nodes])
    with _no_gc():                                   # a Counter per node
        if nodes is None:
            return {x: gd(i) for i, x in enumerate(G.nodes)}
        return {x: gd(G.index[x]) for x in _nbunch(G, nodes)}


@declines("square_clustering")
def _square_clustering_declines(a):
    G = a.get("G")
    if G is not None and G.is_directed():
        return "a directed G: NetworkX's square clustering over successors is not computed here"
    return None


@declines("transitivity")
def _transitivity_declines(a):
    G = a.get("G")
    if G is not None and (G.is_directed() or G.is_multigraph()):
        return "a directed or multigraph G is not supported"
    return None


@declines("clustering", "average_clustering")
def _clustering_declines(a):
    G = a.get("G")
    if G is not None and G.is_directed():
        return "a directed G: NetworkX's directed clustering (Fagiolo's) is not la_graph's (LDBC Graphalytics)"
    if a.get("weight") is not None:
        return "weight (weighted clustering) is not supported"
    if G is not None and G.is_multigraph():
        return "multigraphs are not supported"
    return None
