"""Distance measures: eccentricity, diameter, radius, center, periphery, barycenter, Wiener index, efficiency
(NetworkX's ``algorithms.distance_measures``, ``wiener``, ``efficiency_measures``), from la_graph's all-pairs
shortest paths streamed a block of rows at a time (:func:`la_graph.apsp_blocks`; hops when ``weight`` is None).

NetworkX answers these with one shortest-path search per node; here the rows
come from batched searches, each block reduced (maximum, sum, sum of
reciprocals) before the next, so memory stays one block.  Negative weights
are declined (NetworkX's Dijkstra has no defined answer for them), and so are
a precomputed ``sp`` and ``barycenter``'s ``attr`` (which writes to the input
graph).
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np

from ._utils import _alg, _engine, declines

__all__ = ["eccentricity", "diameter", "radius", "center", "periphery", "barycenter", "wiener_index",
           "global_efficiency", "harmonic_diameter", "average_shortest_path_length"]

_ROWS = 2**22        # distances per block of a single-source batch (rows x n)


def _rows(G, weight, ids=None):
    """``(vertex ids, distance rows)`` blocks: every row by ``apsp_blocks``, or the rows of ``ids`` by batched
    single-source searches; ``inf`` where there is no path."""
    w = G.weights(weight)
    if w is not None and w.size and w.min() < 0:
        raise NotImplementedError("negative weights: NetworkX's Dijkstra has no defined answer")
    graph = G.lagraph(weight)
    if ids is None:
        for rows, block in _alg("apsp_blocks")(graph, engine=_engine()):
            yield np.arange(rows.start, rows.stop), block
        return
    step = max(1, _ROWS // max(len(G), 1))
    for lo in range(0, len(ids), step):
        part = np.asarray(ids[lo:lo + step], dtype=np.int64)
        yield part, np.atleast_2d(_alg("sssp")(graph, sources=part, parent=False, engine=_engine()).distance)


def _stats(G, weight, what, ids=None):
    """Per-row reductions over the distance rows: ``"max"`` (inf if a node is unreachable), ``"sum"`` (inf
    likewise), ``"inv"`` (the sum of ``1 / d`` over finite non-zero ``d``), in the order of ``ids`` (default
    every vertex)."""
    out = np.zeros(len(G) if ids is None else len(ids))
    at = 0
    for part, D in _rows(G, weight, ids):
        k = part.size
        if what == "max":
            out[at:at + k] = D.max(axis=1, initial=0)
        elif what == "sum":
            out[at:at + k] = D.sum(axis=1)
        else:
            with np.errstate(divide="ignore"):
                inv = np.where(np.isfinite(D) & (D != 0), 1.0 / D, 0.0)
            out[at:at + k] = inv.sum(axis=1)
        at += k
    return out


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
    ids = [G.index[u] for u in nodes]
    ecc = _stats(G, weight, "max", None if len(ids) == len(G) else ids) if ids else np.zeros(0)
    if len(ids) == len(G):
        ecc = ecc[ids]
    if not np.isfinite(ecc).all():
        if G.is_directed():
            raise nx.NetworkXError("Found infinite path length because the digraph is not strongly connected")
        raise nx.NetworkXError("Found infinite path length because the graph is not connected")
    is_int = G.int_weights(weight)
    e = {u: _value(x, is_int) for u, x in zip(nodes, ecc.tolist())}
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
    total = _stats(G, weight, "sum")
    if not total.size:
        return []
    if not np.isfinite(total).all():
        raise nx.NetworkXNoPath(f"Input graph {_describe(G)} is disconnected, so every induced subgraph "
                                "has infinite barycentricity.")
    return G.labels[total == total.min()].tolist()


def _describe(G):
    """NetworkX's ``str(G)`` of the graph's class."""
    H = G._nx_class()
    H.add_nodes_from(range(len(G)))
    return str(H).replace(f"with {len(G)} nodes and 0 edges", f"with {len(G)} nodes and {int(G._edges.size)} edges")


def wiener_index(G, weight=None):
    """The sum of the distances between all pairs (``inf`` if not (strongly) connected)."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    sums = _stats(G, weight, "sum")
    if not np.isfinite(sums).all():
        return float("inf")
    total = _value(sums.sum(), G.int_weights(weight))
    return total if G.is_directed() else total / 2


def global_efficiency(G):
    """The mean of ``1 / distance`` over ordered pairs of distinct nodes (0 where no path)."""
    n = len(G)
    if n * (n - 1) == 0:
        return 0
    return float(_stats(G, None, "inv").sum() / (n * (n - 1)))


def harmonic_diameter(G, sp=None, *, weight=None):
    """``n (n - 1) / sum(1 / d)`` over pairs at a non-zero finite distance (``inf``, or ``nan`` for n <= 1)."""
    n = len(G)
    s = float(_stats(G, weight, "inv").sum()) if n else 0.0
    if s != 0:
        return n * (n - 1) / s
    return math.inf if n > 1 else math.nan


def average_shortest_path_length(G, weight=None, method=None):
    """The mean distance over ordered pairs of distinct nodes (every ``method`` gives the same sum)."""
    methods = ("unweighted", "dijkstra", "bellman-ford", "floyd-warshall", "floyd-warshall-numpy")
    if method is None:
        method = "unweighted" if weight is None else "dijkstra"
    if method not in methods:
        raise ValueError(f"method not supported: {method}")
    n = len(G)
    if n == 0:
        raise nx.NetworkXPointlessConcept(
            "the null graph has no paths, thus there is no average shortest path length")
    if n == 1:
        return 0
    w = None if method == "unweighted" else weight
    sums = _stats(G, w, "sum")
    if not np.isfinite(sums).all():
        raise nx.NetworkXError("Graph is not strongly connected." if G.is_directed()
                               else "Graph is not connected.")
    return _value(sums.sum(), G.int_weights(w)) / (n * (n - 1))


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
