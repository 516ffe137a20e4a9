"""Link prediction: Jaccard, Adamic-Adar, resource allocation, preferential attachment (NetworkX's
``algorithms.link_prediction``), from la_graph's neighbour-set similarity (:func:`la_graph.similarity`, masked
``C plus.pair C'`` over the pairs) and degrees.

The pairs are NetworkX's: ``ebunch`` as given, or ``nx.non_edges(G)`` in its
order (every pair of non-adjacent nodes, so ``n^2`` of them on a sparse
graph).  Graphs with self-loops are declined: NetworkX counts a node among
its own neighbours, la_graph's similarity ignores loops.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ._utils import _alg, _engine, declines

__all__ = ["jaccard_coefficient", "adamic_adar_index", "resource_allocation_index", "preferential_attachment"]


def _pairs(G, ebunch):
    """The label pairs NetworkX scores (its node checks on ``ebunch``, which it consumes)."""
    if ebunch is None:
        out = []
        adj = [set() for _ in range(len(G))]
        for u, v in zip(G._src.tolist(), G._dst.tolist()):
            adj[u].add(v)
        lab = G.nodes
        nodes = set(lab)
        while nodes:                      # nx.non_edges(G): its set order
            u = nodes.pop()
            nbrs = {lab[i] for i in adj[G.index[u]]}
            out.extend((u, v) for v in nodes - nbrs)
        return out
    given = iter(ebunch) is ebunch          # an iterator: NetworkX's checks use it up
    pairs = list(ebunch)
    for u, v in pairs:
        if u not in G:
            raise nx.NodeNotFound(f"Node {u} not in G.")
        if v not in G:
            raise nx.NodeNotFound(f"Node {v} not in G.")
    return [] if given else pairs


def _scored(G, ebunch, metric):
    pairs = _pairs(G, ebunch)
    if not pairs:
        return iter(())
    ids = np.array([(G.index[u], G.index[v]) for u, v in pairs], dtype=np.int64)
    score = _alg("similarity")(G.lagraph(), ids, metric=metric, engine=_engine()).score
    return iter([(u, v, s) for (u, v), s in zip(pairs, score.tolist())])


def jaccard_coefficient(G, ebunch=None):
    """``(u, v, |N(u) & N(v)| / |N(u) | N(v)|)`` for each pair (0 where both have no neighbours)."""
    return _scored(G, ebunch, "jaccard")


def adamic_adar_index(G, ebunch=None):
    """``(u, v, sum of 1 / log d(w) over common neighbours w)`` for each pair."""
    return _scored(G, ebunch, "adamic_adar")


def resource_allocation_index(G, ebunch=None):
    """``(u, v, sum of 1 / d(w) over common neighbours w)`` for each pair."""
    return _scored(G, ebunch, "resource_allocation")


def preferential_attachment(G, ebunch=None):
    """``(u, v, d(u) d(v))`` for each pair, from la_graph's degrees."""
    pairs = _pairs(G, ebunch)
    d = _alg("degree")(G.lagraph(), engine=_engine()).tolist()
    idx = G.index
    return iter([(u, v, d[idx[u]] * d[idx[v]]) for u, v in pairs])


@declines("jaccard_coefficient", "adamic_adar_index", "resource_allocation_index")
def _similarity_declines(a):
    G = a.get("G")
    if isinstance(G, nx.Graph):
        loops = any(u in nbrs for u, nbrs in G._adj.items())
    else:
        loops = G is not None and bool(G.lagraph().self_loops)
    if loops:
        return "self-loops: NetworkX counts a node among its own neighbours; la_graph's similarity ignores loops"
    return None
