"""Triangles and clustering (NetworkX's ``algorithms.cluster``)."""

from __future__ import annotations

import numpy as np

from ._utils import _alg, _engine, _some_nodes, declines

__all__ = ["triangles", "clustering", "average_clustering", "transitivity"]


def triangles(G, nodes=None):
    """The triangles at each node (a dict), or at one node (an int), as NetworkX counts them."""
    per = _alg("triangles")(G.lagraph(), engine=_engine())
    return _some_nodes(G, nodes, per, int)


def clustering(G, nodes=None, weight=None):
    """The clustering coefficient of an undirected graph: ``2 T / (d (d - 1))`` per node (self-loops ignored)."""
    c = _alg("local_clustering_coefficient")(G.lagraph(), engine=_engine())
    return _some_nodes(G, nodes, c, lambda x: 0 if x == 0 else float(x))


def average_clustering(G, nodes=None, weight=None, count_zeros=True):
    """The mean clustering coefficient over ``nodes`` (summed in node order, as NetworkX)."""
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
    t = np.asarray(_alg("triangles")(graph, engine=_engine()), dtype=np.int64)
    rows, cols = graph.edges()
    d = np.bincount(rows[rows != cols], minlength=len(G)).astype(np.int64)
    tri, contri = int(2 * t.sum()), int((d * (d - 1)).sum())
    return 0 if tri == 0 else tri / contri


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
