"""Isolated nodes (NetworkX's ``algorithms.isolate``), from la_graph's degrees (:func:`la_graph.degree`)."""

from __future__ import annotations

import networkx as nx
import numpy as np

from ._utils import _alg, _engine

__all__ = ["isolates", "number_of_isolates", "is_isolate"]


def _all_degrees(G):
    """Every node's degree as NetworkX's ``G.degree`` (in plus out if directed; an undirected loop twice)."""
    return _alg("degree")(G.lagraph(), direction="all", engine=_engine())


def isolates(G):
    """The nodes of degree 0, in node order (a generator)."""
    return iter(G.labels[_all_degrees(G) == 0].tolist())


def number_of_isolates(G):
    """The number of nodes of degree 0."""
    return int(np.count_nonzero(_all_degrees(G) == 0))


def is_isolate(G, n):
    """Whether node ``n`` has degree 0."""
    if n not in G:                   # NetworkX takes it as a container of nodes: an empty degree view, not 0
        try:
            iter(n)
        except TypeError:
            raise nx.NetworkXError(f"Node {n} is not in the graph.") from None
        return False
    return bool(_all_degrees(G)[G.index[n]] == 0)
