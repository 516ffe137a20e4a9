"""Cores and trusses (NetworkX's ``algorithms.core``)."""

from __future__ import annotations

import networkx as nx
import numpy as np

from ._utils import _SELF_LOOPS, _alg, _by_node, _engine, _induced, _nx_subgraph

__all__ = ["core_number", "k_truss", "k_core"]


def core_number(G):
    """The core number of every node (a dict); self-loops are refused as NetworkX refuses them."""
    graph = G.lagraph()
    if graph.self_loops:
        raise nx.NetworkXNotImplemented(
            "Input graph has self loops which is not permitted; "
            "Consider using G.remove_edges_from(nx.selfloop_edges(G)).")
    return _by_node(G, _alg("core_number")(graph, engine=_engine()))


def k_truss(G, k):
    """The k-truss by la_graph's edge peeling: the graph's nodes and edges of the truss with their data, in the
    graph's order (nodes left without an edge dropped, as NetworkX drops them)."""
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k < 2:
        raise NotImplementedError("la_graph's k_truss takes an integer k >= 2")
    graph = G.lagraph()
    if graph.self_loops:
        raise nx.NetworkXNotImplemented(_SELF_LOOPS)
    T, ids = _alg("k_truss")(graph, int(k), engine=_engine())
    n = len(G)
    keep = np.zeros(n, bool)
    keep[ids] = True
    u, v = T.edges()
    kept = np.sort(ids[u].astype(np.int64) * n + ids[v])
    key = G._src * n + G._dst
    at = np.minimum(np.searchsorted(kept, key), max(kept.size - 1, 0))
    entry = (kept[at] == key) if kept.size else np.zeros(key.size, bool)
    return _nx_subgraph(G, keep, entry)


def k_core(G, k=None, core_number=None):
    """The k-core (the main core by default) by la_graph's core numbers, as ``G.subgraph(nodes).copy()``."""
    if k is not None and (not isinstance(k, (int, np.integer)) or isinstance(k, bool)):
        raise NotImplementedError("la_graph's k_core takes an integer k")
    if core_number is not None:                  # NetworkX's rule on the given numbers: no computation
        if k is None:
            k = max(core_number.values())
        return _induced(G, [G.index[v] for v in core_number if core_number[v] >= k])
    graph = G.lagraph()
    if graph.self_loops:
        raise nx.NetworkXNotImplemented(_SELF_LOOPS)
    if len(G) == 0 and k is None:
        max(())                                  # NetworkX's max() of no core numbers
    _, ids = _alg("k_core")(graph, None if k is None else max(int(k), 0), engine=_engine())
    return _induced(G, ids)
