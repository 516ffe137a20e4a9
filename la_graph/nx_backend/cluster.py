"""Triangles and clustering (NetworkX's ``algorithms.cluster``)."""

from __future__ import annotations

from ._utils import _alg, _engine, _some_nodes, declines

__all__ = ["triangles", "clustering"]


def triangles(G, nodes=None):
    """The triangles at each node (a dict), or at one node (an int), as NetworkX counts them."""
    per = _alg("triangles")(G.lagraph(), engine=_engine())
    return _some_nodes(G, nodes, per, int)


def clustering(G, nodes=None, weight=None):
    """The clustering coefficient of an undirected graph: ``2 T / (d (d - 1))`` per node (self-loops ignored)."""
    c = _alg("local_clustering_coefficient")(G.lagraph(), engine=_engine())
    return _some_nodes(G, nodes, c, lambda x: 0 if x == 0 else float(x))


@declines("clustering")
def _clustering_declines(a):
    G = a.get("G")
    if G is not None and G.is_directed():
        return "a directed G: NetworkX's directed clustering (Fagiolo's) is not la_graph's (LDBC Graphalytics)"
    if a.get("weight") is not None:
        return "weight (weighted clustering) is not supported"
    if G is not None and G.is_multigraph():
        return "multigraphs are not supported"
    return None
