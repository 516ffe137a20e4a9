"""Shortest paths: BFS, Dijkstra, Bellman-Ford, Floyd-Warshall (NetworkX's ``algorithms.shortest_paths``)."""

from __future__ import annotations

import networkx as nx
import numpy as np

import la_graph

from ..graph import Graph
from ._utils import _alg, _bfs_order, _dist_values, _engine

__all__ = ["single_source_shortest_path_length", "single_source_dijkstra_path_length", "bellman_ford_path_length", "floyd_warshall_numpy"]


def single_source_shortest_path_length(G, source, cutoff=None):
    """``{node: hops}`` for every node reachable from ``source``, in BFS order (as NetworkX)."""
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    limit = None       # NetworkX reaches level L while L - 1 < cutoff
    if cutoff is not None and cutoff != float("inf"):
        limit = max(int(np.ceil(cutoff)), 0)
    order, _, level = _bfs_order(G, G.index[source], limit)
    return dict(zip(G.labels[order].tolist(), level[order].tolist()))


def _sssp(G, s, weight):
    H = G.lagraph(weight)
    return _alg("sssp")(H, s, parent=False, engine=_engine()).distance


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    """``{node: distance}`` by la_graph's SSSP; nodes in increasing distance (ties by node order).

    Declines negative weights: NetworkX's Dijkstra has no defined answer for them.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    w = G.weights(weight)
    if w is not None and w.size and w.min() < 0:
        raise NotImplementedError("negative weights: Dijkstra's answer is not defined")
    s = G.index[source]
    d = _sssp(G, s, weight)
    keep = np.isfinite(d)
    if cutoff is not None:
        keep &= d <= cutoff
    keep[s] = False
    idx = np.flatnonzero(keep)
    idx = idx[np.argsort(d[idx], kind="stable")]
    out = {source: 0}
    out.update(zip(G.labels[idx].tolist(), _dist_values(d[idx], G.int_weights(weight))))
    return out


def bellman_ford_path_length(G, source, target, weight="weight"):
    """Length of a shortest path from ``source`` to ``target`` (negative weights allowed)."""
    if source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
        return 0
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    try:
        d = _sssp(G, G.index[source], weight)
    except la_graph.NegativeCycleError as exc:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from exc
    t = G.index.get(target) if target in G else None
    if t is None or not np.isfinite(d[t]):
        raise nx.NetworkXNoPath(f"node {target} not reachable from {source}")
    return _dist_values(d[t:t + 1], G.int_weights(weight))[0]


def floyd_warshall_numpy(G, nodelist=None, weight="weight"):
    """All-pairs distances as a float64 array, rows and columns in ``nodelist`` order (inf: no path).

    Declines negative weights on undirected graphs and negative cycles, where
    NetworkX's Floyd-Warshall returns an array without meaning.
    """
    if nodelist is not None:
        if not (len(nodelist) == len(G) == len(set(nodelist))):
            raise nx.NetworkXError(
                "nodelist must contain every node in G with no repeats."
                "If you wanted a subgraph of G use G.subgraph(nodelist)"
            )
        missing = set(nodelist) - set(G.index)
        if missing:
            raise nx.NetworkXError(f"Nodes {missing} in nodelist is not in G")
    H = G.lagraph(weight)
    if H.self_loops:        # NetworkX sets the diagonal to 0 whatever the loops weigh
        rows, cols = H.edges()
        off = rows != cols
        H = Graph.from_edges(rows[off], cols[off], None if H.weights is None else H.weights[off],
                             n=H.n, directed=True)
    if H.weights is not None and H.weights.size and H.weights.min() < 0 and not G.is_directed():
        raise NotImplementedError("negative weights on an undirected graph make negative cycles")
    try:
        D = np.asarray(_alg("apsp")(H, engine=_engine()), dtype=np.float64)
    except la_graph.NegativeCycleError as exc:
        raise NotImplementedError("negative cycle: NetworkX's Floyd-Warshall gives no meaningful answer") from exc
    if nodelist is not None:
        p = np.array([G.index[v] for v in nodelist], dtype=np.int64)
        D = D[np.ix_(p, p)]
    return D
