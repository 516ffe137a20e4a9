"""Distance measures: eccentricity, diameter, radius, center, periphery, barycenter, Wiener index, efficiency
(NetworkX's ``algorithms.distance_measures``, ``wiener``, ``efficiency_measures``), from la_graph's all-pairs
shortest paths (:func:`la_graph.apsp`; hops when ``weight`` is None).

NetworkX answers these with one shortest-path search per node; here the whole
distance matrix comes from one ``apsp`` call (``n x n`` float64, so for graphs
whose distance matrix fits in memory).  Negative weights are declined (NetworkX's
Dijkstra has no defined answer for them), and so are a precomputed ``sp`` and
``barycenter``'s ``attr`` (which writes to the input graph).
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np

from ._utils import declines
from .shortest_paths import floyd_warshall_numpy

__all__ = ["eccentricity", "diameter", "radius", "center", "periphery", "barycenter", "wiener_index",
           "global_efficiency", "harmonic_diameter"]


def _distances(G, weight):
    """The distance matrix (``inf``: no path) and whether NetworkX's sums of these weights are ints."""
    w = G.weights(weight)
    if w is not None and w.size and w.min() < 0:
        raise NotImplementedError("negative weights: NetworkX's Dijkstra has no defined answer")
    return floyd_warshall_numpy(G, weight=weight), G.int_weights(weight)


def _value(x, is_int):
    return int(x) if is_int and math.isfinite(x) else float(x)


def eccentricity(G, v=None, sp=None, weight=None):
    """The largest distance from each node of ``v`` (default all; one value for a single node)."""
    if v is not None and v in G:
        nodes = [v]
    elif v is None:
        nodes = list(G.nodes)
    else:
        try:
            nodes = [u for u in v if u in G]
        except TypeError:
            raise nx.NetworkXError(f"Node {v} is not in the graph.") from None
    D, is_int = _distances(G, weight)
    ids = np.array([G.index[u] for u in nodes], dtype=np.int64)
    rows = D[ids] if ids.size else np.zeros((0, len(G)))
    if not np.isfinite(rows).all():
        if G.is_directed():
            raise nx.NetworkXError("Found infinite path length because the digraph is not strongly connected")
        raise nx.NetworkXError("Found infinite path length because the graph is not connected")
    e = {u: _value(x, is_int) for u, x in zip(nodes, rows.max(axis=1, initial=0).tolist())}
    if v is not None and v in G:
        return e[v]
    return e


def _ecc(G, e, weight):
    return eccentricity(G, weight=weight) if e is None else e


def diameter(G, e=None, usebounds=False, weight=None):
    """The largest eccentricity."""
    return max(_ecc(G, e, weight).values())


def radius(G, e=None, usebounds=False, weight=None):
    """The smallest eccentricity."""
    return min(_ecc(G, e, weight).values())


def periphery(G, e=None, usebounds=False, weight=None):
    """The nodes of largest eccentricity, in the order of ``e`` (node order)."""
    e = _ecc(G, e, weight)
    top = max(e.values())
    return [v for v in e if e[v] == top]


def _tree_check(G):
    """NetworkX's ``is_tree`` shortcut first meets the null graph."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("G has no nodes.")


def center(G, e=None, usebounds=False, weight=None):
    """The nodes of smallest eccentricity, in the order of ``e`` (node order; NetworkX's tree shortcut may list
    a tree's two centres the other way round)."""
    if e is None and weight is None and not G.is_directed():
        _tree_check(G)
    e = _ecc(G, e, weight)
    low = min(e.values())
    return [v for v in e if e[v] == low]


def barycenter(G, weight=None, attr=None, sp=None):
    """The nodes of least total distance to all others, in node order; ``NetworkXNoPath`` if disconnected."""
    if weight is None and not G.is_directed():
        _tree_check(G)
    D, is_int = _distances(G, weight)
    if len(G) and not np.isfinite(D).all():
        raise nx.NetworkXNoPath(f"Input graph {_describe(G)} is disconnected, so every induced subgraph "
                                "has infinite barycentricity.")
    total = D.sum(axis=1)
    if not total.size:
        return []
    return G.labels[total == total.min()].tolist()


def _describe(G):
    """NetworkX's ``str(G)`` of the graph's class."""
    H = G._nx_class()
    H.add_nodes_from(range(len(G)))
    return str(H).replace(f"with {len(G)} nodes and 0 edges", f"with {len(G)} nodes and {int(G._edges.size)} edges")


def wiener_index(G, weight=None):
    """The sum of the distances between all pairs (``inf`` if not (strongly) connected)."""
    D, is_int = _distances(G, weight)
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    if not np.isfinite(D).all():
        return float("inf")
    total = _value(D.sum(), is_int)
    return total if G.is_directed() else total / 2


def global_efficiency(G):
    """The mean of ``1 / distance`` over ordered pairs of distinct nodes (0 where no path)."""
    n = len(G)
    if n * (n - 1) == 0:
        return 0
    D, _ = _distances(G, None)
    off = np.isfinite(D) & (D > 0)
    return float((1.0 / D[off]).sum() / (n * (n - 1)))


def harmonic_diameter(G, sp=None, *, weight=None):
    """``n (n - 1) / sum(1 / d)`` over pairs at a non-zero finite distance (``inf``, or ``nan`` for n <= 1)."""
    n = len(G)
    D, _ = _distances(G, weight)
    nz = np.isfinite(D) & (D != 0)
    s = float((1.0 / D[nz]).sum()) if n else 0.0
    if s != 0:
        return n * (n - 1) / s
    return math.inf if n > 1 else math.nan


@declines(*__all__)
def _distance_declines(a):
    if a.get("sp") is not None:
        return "sp (precomputed shortest paths) is not supported"
    if a.get("attr") is not None:
        return "attr (writing barycentricity to the input graph) is not supported"
    G = a.get("G")
    if a.get("usebounds") and a.get("e") is None and G is not None and not G.is_directed():
        return "usebounds=True is not supported"
    return None
