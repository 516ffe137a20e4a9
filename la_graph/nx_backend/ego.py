"""Ego graphs (NetworkX's ``generators.ego``)."""

from __future__ import annotations

import networkx as nx
import numpy as np

from ._utils import _alg, _engine, _induced

__all__ = ["ego_graph"]


def ego_graph(G, n, radius=1, center=True, undirected=False, distance=None):
    """The ego graph by la_graph's hop-bounded search, as ``G.subgraph(nodes).copy()`` (``center=False`` drops
    ``n``); a weighted ``distance`` is declined."""
    if distance is not None:
        raise NotImplementedError("la_graph's ego_graph counts hops, not a weighted distance")
    if isinstance(radius, bool) or not isinstance(radius, (int, np.integer, float)) or not radius >= 0:
        raise NotImplementedError("la_graph's ego_graph takes a non-negative radius")
    if n not in G:
        raise nx.NodeNotFound(f"Source {n} is not in G")
    # NetworkX's search goes one level further while the cutoff exceeds the level: ceil(radius) hops
    hops = len(G) if radius == float("inf") else int(np.ceil(radius))
    _, ids = _alg("ego_graph")(G.lagraph(), G.index[n], min(hops, len(G)), undirected=bool(undirected),
                               engine=_engine())
    if not center:
        ids = ids[ids != G.index[n]]
    return _induced(G, ids)
