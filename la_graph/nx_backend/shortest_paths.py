"""Shortest paths: BFS, Dijkstra, Bellman-Ford, Floyd-Warshall (NetworkX's ``algorithms.shortest_paths``).

Lengths come from la_graph's BFS levels and SSSP distances; paths are rebuilt
from the searches' parent vectors.  Unweighted paths are NetworkX's own (the
BFS tree its queue builds); weighted paths are shortest paths, but where
several tie NetworkX's heap may pick another one.  Several sources are one
search from a new vertex joined to each source (weight 0).
"""

from __future__ import annotations

from collections import defaultdict

import networkx as nx
import numpy as np

import la_graph

from ..graph import Graph
from ._utils import _alg, _bfs_order, _dist_values, _engine, _levels, _tree_paths, declines

__all__ = [
    "single_source_shortest_path_length", "single_source_shortest_path", "single_target_shortest_path_length",
    "single_target_shortest_path", "all_pairs_shortest_path_length", "all_pairs_shortest_path",
    "bidirectional_shortest_path", "predecessor", "has_path", "all_shortest_paths", "single_source_all_shortest_paths",
    "all_pairs_all_shortest_paths",
    "single_source_dijkstra_path_length", "single_source_dijkstra_path", "single_source_dijkstra",
    "dijkstra_path", "dijkstra_path_length", "multi_source_dijkstra", "multi_source_dijkstra_path",
    "multi_source_dijkstra_path_length", "all_pairs_dijkstra", "all_pairs_dijkstra_path",
    "all_pairs_dijkstra_path_length", "bidirectional_dijkstra",
    "bellman_ford_path_length", "bellman_ford_path", "single_source_bellman_ford",
    "single_source_bellman_ford_path", "single_source_bellman_ford_path_length", "all_pairs_bellman_ford_path",
    "all_pairs_bellman_ford_path_length", "negative_edge_cycle", "johnson", "efficiency",
    "shortest_path", "shortest_path_length", "floyd_warshall_numpy", "floyd_warshall",
]

_ROWS = 2**22      # distances held at once by the all-pairs generators (rows x n)


# ---------------------------------------------------------------- unweighted: BFS
def _hop_limit(cutoff):
    """NetworkX's BFS reaches level ``L`` while ``L - 1 < cutoff``: ``ceil(cutoff)`` levels (None: all)."""
    if cutoff is None or cutoff == float("inf"):
        return None
    return max(int(np.ceil(cutoff)), 0)


def single_source_shortest_path_length(G, source, cutoff=None):
    """``{node: hops}`` for every node reachable from ``source``, in BFS order (as NetworkX)."""
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    order, _, level = _bfs_order(G, G.vertex(source), _hop_limit(cutoff), parents=False)
    return dict(zip(G.take(order), level[order].tolist()))


def single_target_shortest_path_length(G, target, cutoff=None):
    """``{node: hops to target}`` in NetworkX's order (its BFS over predecessors)."""
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    R = G.reverse()
    order, _, level = _bfs_order(R, R.index[target], _hop_limit(cutoff))
    return dict(zip(G.labels[order].tolist(), level[order].tolist()))


def _bfs_paths(H, s, cutoff, reverse=False):
    order, parent, _ = _bfs_order(H, s, _hop_limit(cutoff))
    par = np.full(len(H), -1, np.int64)
    par[order] = parent
    par[s] = s
    return _tree_paths(H.labels, par, par >= 0, keys=order, reverse=reverse)


def single_source_shortest_path(G, source, cutoff=None):
    """``{node: path}``: NetworkX's BFS-tree paths, in BFS order."""
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    return _bfs_paths(G, G.vertex(source), cutoff)


def single_target_shortest_path(G, target, cutoff=None):
    """``{node: path to target}``: NetworkX's paths of its BFS over predecessors."""
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} not in G")
    R = G.reverse()
    return _bfs_paths(R, R.index[target], cutoff, reverse=True)


def _batches(G):
    n = len(G)
    step = max(1, _ROWS // max(n, 1))
    for lo in range(0, n, step):
        yield np.arange(lo, min(n, lo + step))


def all_pairs_shortest_path_length(G, cutoff=None):
    """``(node, {node: hops})`` for every node, by batched multi-source BFS; keys by hops, ties in node order."""
    lab = G.labels
    limit = _hop_limit(cutoff)
    for rows in _batches(G):
        L = _alg("bfs")(G.lagraph(), sources=rows, parent=False, engine=_engine()).level
        for s, lev in zip(rows.tolist(), L):
            if limit is not None:
                lev = np.where(lev > limit, -1, lev)
            idx = np.flatnonzero(lev >= 0)
            idx = idx[np.argsort(lev[idx], kind="stable")]
            yield lab[s], dict(zip(lab[idx].tolist(), lev[idx].tolist()))


def all_pairs_shortest_path(G, cutoff=None):
    """``(node, {node: path})`` for every node: NetworkX's BFS-tree paths."""
    for s in range(len(G)):
        yield G.labels[s], _bfs_paths(G, s, cutoff)


def bidirectional_shortest_path(G, source, target):
    """A shortest path (hops) from ``source`` to ``target``, on the BFS tree from ``source`` (NetworkX's
    bidirectional search may pick another of equal length)."""
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    paths = _bfs_paths(G, G.index[source], None)
    if target not in paths:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return paths[target]


def predecessor(G, source, target=None, cutoff=None, return_seen=None):
    """``{node: [its predecessors one level up]}`` in NetworkX's BFS order (and ``{node: level}``)."""
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    limit = None if not cutoff else max(int(np.ceil(cutoff)), 1)      # NetworkX stops after level `cutoff`
    order, _, level = _bfs_order(G, G.index[source], limit)
    pos = np.full(len(G), -1, np.int64)
    pos[order] = np.arange(order.size)
    rows, cols = G.lagraph().edges()
    keep = (level[rows] >= 0) & (level[cols] == level[rows] + 1)
    u, v = rows[keep], cols[keep]
    o = np.lexsort((pos[u], pos[v]))            # by the node, then its predecessors in BFS order
    lab = G.labels
    preds = lab[u[o]].tolist()
    bounds = np.searchsorted(pos[v[o]], np.arange(order.size + 1)).tolist()
    pred = {x: preds[a:b] for x, a, b in zip(lab[order].tolist(), bounds[:-1], bounds[1:])}
    seen = dict(zip(lab[order].tolist(), level[order].tolist()))
    if target is not None:
        if return_seen:
            return (pred[target], seen[target]) if target in pred else ([], -1)
        return pred.get(target, [])
    return (pred, seen) if return_seen else pred


def _walks(pred, source, target):
    """Every path from ``source`` to ``target`` along the predecessor lists, depth first in list order (the
    first path follows each node's first predecessor), iteratively: paths may be as long as the graph."""
    if target not in pred:
        raise nx.NetworkXNoPath(f"Target {target} cannot be reached from given sources")
    stack = [[target, 0]]
    while stack:
        node, i = stack[-1]
        if node == source:
            yield [v for v, _ in reversed(stack)]
        if i < len(pred[node]):
            stack[-1][1] = i + 1
            stack.append([pred[node][i], 0])
        else:
            stack.pop()


def _unweighted_only(weight, method):
    if weight is not None:
        if method not in ("dijkstra", "bellman-ford"):
            raise ValueError(f"method not supported: {method}")
        raise NotImplementedError("weight: the order of weighted predecessors is NetworkX's heap order")


def all_shortest_paths(G, source, target, weight=None, method="dijkstra"):
    """Every shortest (hop) path from ``source`` to ``target``, in NetworkX's order: depth first over the
    predecessor lists of :func:`predecessor` (exact: each list in BFS order)."""
    _unweighted_only(weight, method)
    return _walks(predecessor(G, source), source, target)


def single_source_all_shortest_paths(G, source, weight=None, method="dijkstra"):
    """``(node, [every shortest path from source])`` for each reached node, in BFS order."""
    _unweighted_only(weight, method)
    pred = predecessor(G, source)
    for n in pred:
        yield n, list(_walks(pred, source, n))


def all_pairs_all_shortest_paths(G, weight=None, method="dijkstra"):
    """``(node, {node: [every shortest path]})`` for every node."""
    _unweighted_only(weight, method)
    for s in G.nodes:
        yield s, dict(single_source_all_shortest_paths(G, s))


def has_path(G, source, target):
    """Whether ``target`` is reachable from ``source`` (la_graph's reachability)."""
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    return bool(_alg("reachability")(G.lagraph(), [G.index[source]], engine=_engine())[0, G.index[target]])


# ---------------------------------------------------------------- weighted: SSSP (Dijkstra, Bellman-Ford)
def _sssp(G, s, weight):
    H = G.lagraph(weight)
    return _alg("sssp")(H, s, parent=False, engine=_engine()).distance


def _no_negative(G, weight):
    w = G.weights(weight)
    if w is not None and w.size and w.min() < 0:
        raise NotImplementedError("negative weights: Dijkstra's answer is not defined")


def _search(G, sources, weight, *, paths=False, negative=False):
    """``(distance, parent)`` over vertex ids from the vertex ids ``sources`` (``parent[s] == s``); parents
    only with ``paths``.  Dijkstra (``negative=False``) declines negative weights; Bellman-Ford raises
    ``NetworkXUnbounded`` on a negative cycle it reaches."""
    if not negative:
        _no_negative(G, weight)
    graph = G.lagraph(weight)
    srcs = np.asarray(sources, dtype=np.int64)
    n = len(G)
    try:
        if srcs.size == 1:
            r = _alg("sssp")(graph, int(srcs[0]), parent=paths, engine=_engine())
            return r.distance, r.parent
        rows, cols = graph.edges()          # a new vertex n with a weight-0 edge to every source
        w = graph.weights if graph.weights is not None else np.ones(rows.size)
        S = Graph.from_edges(np.concatenate([rows, np.full(srcs.size, n)]), np.concatenate([cols, srcs]),
                             np.concatenate([w, np.zeros(srcs.size)]), n=n + 1, directed=True)
        r = _alg("sssp")(S, n, parent=paths, engine=_engine())
    except la_graph.NegativeCycleError as exc:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from exc
    d = r.distance[:n]
    par = None
    if paths:
        par = r.parent[:n].copy()
        par[srcs] = srcs
    return d, par


def _ordered(G, d, sources, cutoff):
    """The reached vertex ids: sources first (in order), then by distance, ties in node order."""
    keep = np.isfinite(d)
    if cutoff is not None:
        keep &= d <= cutoff
    srcs = np.asarray(sources, dtype=np.int64)
    keep[srcs] = False
    idx = np.flatnonzero(keep)
    return np.concatenate([srcs, idx[np.argsort(d[idx], kind="stable")]])


def _lengths(G, d, ids, weight, nsources=1):
    """``{node: distance}`` over vertex ids ``ids``, the first ``nsources`` the sources (NetworkX's int 0)."""
    vals = _dist_values(d[ids], G.int_weights(weight))
    vals[:nsources] = [0] * min(nsources, len(vals))
    return dict(zip(G.labels[ids].tolist(), vals))


def _source_ids(G, sources):
    """NetworkX's checks of a sources collection; the vertex ids in its iteration order (repeats dropped)."""
    if not sources:
        raise ValueError("sources must not be empty")
    for s in sources:
        if s not in G:
            raise nx.NodeNotFound(f"Node {s} not found in graph")
    return [G.index[s] for s in dict.fromkeys(sources)]


def _dijkstra_all(G, srcs, cutoff, weight, paths):
    d, par = _search(G, srcs, weight, paths=paths)
    ids = _ordered(G, d, srcs, cutoff)
    dist = _lengths(G, d, ids, weight, len(srcs))
    if not paths:
        return dist, None
    reached = np.zeros(len(G), bool)
    reached[ids] = True
    return dist, _tree_paths(G.labels, par, reached, keys=ids)


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    """``{node: distance}`` by la_graph's SSSP; nodes in increasing distance (ties by node order).

    Declines negative weights: NetworkX's Dijkstra has no defined answer for them.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    return _dijkstra_all(G, [G.index[source]], cutoff, weight, False)[0]


def multi_source_dijkstra_path_length(G, sources, cutoff=None, weight="weight"):
    """``{node: distance from the nearest source}``, in increasing distance."""
    return _dijkstra_all(G, _source_ids(G, sources), cutoff, weight, False)[0]


def multi_source_dijkstra(G, sources, target=None, cutoff=None, weight="weight"):
    """``(distances, paths)`` from the nearest source, or ``(distance, path)`` to ``target``."""
    srcs = _source_ids(G, sources)
    if target in sources:
        return (0, [target])
    dist, paths = _dijkstra_all(G, srcs, cutoff, weight, True)
    if target is None:
        return dist, paths
    try:
        return dist[target], paths[target]
    except (KeyError, TypeError) as err:
        raise nx.NetworkXNoPath(f"No path to {target}.") from err


def multi_source_dijkstra_path(G, sources, cutoff=None, weight="weight"):
    """``{node: a shortest path from the nearest source}``."""
    return multi_source_dijkstra(G, sources, cutoff=cutoff, weight=weight)[1]


def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight"):
    """``(distances, paths)`` from ``source``, or ``(distance, path)`` to ``target``."""
    return multi_source_dijkstra(G, {source}, target=target, cutoff=cutoff, weight=weight)


def single_source_dijkstra_path(G, source, cutoff=None, weight="weight"):
    """``{node: a shortest path from source}``."""
    return multi_source_dijkstra(G, {source}, cutoff=cutoff, weight=weight)[1]


def dijkstra_path(G, source, target, weight="weight"):
    """A shortest weighted path from ``source`` to ``target``."""
    return single_source_dijkstra(G, source, target=target, weight=weight)[1]


def dijkstra_path_length(G, source, target, weight="weight"):
    """The weighted distance from ``source`` to ``target``."""
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    if source == target:
        return 0
    d, _ = _search(G, [G.index[source]], weight)
    t = G.index.get(target) if target in G else None
    if t is None or not np.isfinite(d[t]):
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return _dist_values(d[t:t + 1], G.int_weights(weight))[0]


def bidirectional_dijkstra(G, source, target, weight="weight"):
    """``(distance, path)`` from ``source`` to ``target`` (a shortest path; NetworkX may pick another of equal
    length)."""
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    if source == target:
        return (0, [source])
    try:
        return single_source_dijkstra(G, source, target=target, weight=weight)
    except nx.NetworkXNoPath:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.") from None


def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight"):
    """``(node, {node: distance})`` for every node, by batched multi-source SSSP."""
    _no_negative(G, weight)
    lab = G.labels
    for rows in _batches(G):
        D = _alg("sssp")(G.lagraph(weight), sources=rows, parent=False, engine=_engine()).distance
        for s, d in zip(rows.tolist(), D):
            yield lab[s], _lengths(G, d, _ordered(G, d, [s], cutoff), weight)


def all_pairs_dijkstra(G, cutoff=None, weight="weight"):
    """``(node, (distances, paths))`` for every node."""
    for s in G.nodes:
        yield s, single_source_dijkstra(G, s, cutoff=cutoff, weight=weight)


def all_pairs_dijkstra_path(G, cutoff=None, weight="weight"):
    """``(node, {node: path})`` for every node."""
    for s in G.nodes:
        yield s, single_source_dijkstra_path(G, s, cutoff=cutoff, weight=weight)


def _bellman_ford(G, source, weight, paths):
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    s = G.index[source]
    d, par = _search(G, [s], weight, paths=paths, negative=True)
    ids = _ordered(G, d, [s], None)
    dist = _lengths(G, d, ids, weight)
    if not paths:
        return dist, None
    reached = np.zeros(len(G), bool)
    reached[ids] = True
    return dist, _tree_paths(G.labels, par, reached, keys=ids)


def bellman_ford_path_length(G, source, target, weight="weight"):
    """Length of a shortest path from ``source`` to ``target`` (negative weights allowed)."""
    if source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
        return 0
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    d, _ = _search(G, [G.index[source]], weight, negative=True)
    t = G.index.get(target) if target in G else None      # one distance read, not the dict of every node's
    if t is None or not np.isfinite(d[t]):
        raise nx.NetworkXNoPath(f"node {target} not reachable from {source}")
    return _dist_values(d[t:t + 1], G.int_weights(weight))[0]


def single_source_bellman_ford(G, source, target=None, weight="weight"):
    """``(distances, paths)`` from ``source`` (negative weights allowed), or ``(distance, path)`` to ``target``."""
    if source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} is not found in the graph")
        return (0, [source])
    dist, paths = _bellman_ford(G, source, weight, True)
    if target is None:
        return dist, paths
    try:
        return dist[target], paths[target]
    except (KeyError, TypeError) as err:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}") from err


def bellman_ford_path(G, source, target, weight="weight"):
    """A shortest path from ``source`` to ``target`` (negative weights allowed)."""
    return single_source_bellman_ford(G, source, target=target, weight=weight)[1]


def single_source_bellman_ford_path(G, source, weight="weight"):
    """``{node: a shortest path from source}`` (negative weights allowed)."""
    return single_source_bellman_ford(G, source, weight=weight)[1]


def single_source_bellman_ford_path_length(G, source, weight="weight"):
    """``{node: distance}`` (negative weights allowed)."""
    return _bellman_ford(G, source, weight, False)[0]


def all_pairs_bellman_ford_path_length(G, weight="weight"):
    """``(node, {node: distance})`` for every node (negative weights allowed)."""
    for s in G.nodes:
        yield s, _bellman_ford(G, s, weight, False)[0]


def all_pairs_bellman_ford_path(G, weight="weight"):
    """``(node, {node: path})`` for every node (negative weights allowed)."""
    for s in G.nodes:
        yield s, _bellman_ford(G, s, weight, True)[1]


def negative_edge_cycle(G, weight="weight", heuristic=True):
    """Whether any negative cycle exists: one SSSP from a new vertex joined to every node (weight 0)."""
    if not G._edges.size:
        return False
    try:
        _search(G, np.arange(len(G)), weight, negative=True) if len(G) > 1 else \
            _search(G, [0], weight, negative=True)
    except nx.NetworkXUnbounded:
        return True
    return False


def johnson(G, weight="weight"):
    """``{node: {node: path}}`` for every pair (negative weights allowed; ``NetworkXUnbounded`` on any negative
    cycle), by la_graph's SSSP from each node."""
    if negative_edge_cycle(G, weight):
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    return {s: _bellman_ford(G, s, weight, True)[1] for s in G.nodes}


def efficiency(G, u, v):
    """``1 / hops`` from ``u`` to ``v`` (0 if no path) of an undirected graph."""
    if u not in G:
        raise nx.NodeNotFound(f"Source {u} is not in G")
    if v not in G:
        raise nx.NodeNotFound(f"Target {v} is not in G")
    if u == v:
        raise ZeroDivisionError("division by zero")      # NetworkX's 1 / shortest_path_length(G, u, u)
    d = int(_levels(G, G.index[u])[G.index[v]])
    return 0 if d < 0 else 1 / d


@declines("all_shortest_paths", "single_source_all_shortest_paths", "all_pairs_all_shortest_paths")
def _all_paths_declines(a):
    if a.get("weight") is not None:
        return "weight: the order of weighted predecessors is NetworkX's heap order"
    return None


# ---------------------------------------------------------------- the dispatchers
def _method(weight, method):
    if method not in ("dijkstra", "bellman-ford"):
        raise ValueError(f"method not supported: {method}")
    return "unweighted" if weight is None else method


def shortest_path(G, source=None, target=None, weight=None, method="dijkstra"):
    """NetworkX's ``shortest_path`` by the functions above (its branches on ``source``, ``target``, ``method``)."""
    method = _method(weight, method)
    if source is None:
        if target is None:
            if method == "unweighted":
                return all_pairs_shortest_path(G)
            if method == "dijkstra":
                return all_pairs_dijkstra_path(G, weight=weight)
            return all_pairs_bellman_ford_path(G, weight=weight)
        if method == "unweighted":
            if target not in G:
                raise nx.NodeNotFound(f"Source {target} not in G")
            return {v: p[::-1] for v, p in _bfs_paths(G.reverse(), G.index[target], None).items()}
        return _to_target(G, target, weight, method, True)
    if target is None:
        if method == "unweighted":
            return single_source_shortest_path(G, source)
        if method == "dijkstra":
            return single_source_dijkstra_path(G, source, weight=weight)
        return single_source_bellman_ford_path(G, source, weight=weight)
    if method == "unweighted":
        return bidirectional_shortest_path(G, source, target)
    if method == "dijkstra":
        return bidirectional_dijkstra(G, source, target, weight)[1]
    return bellman_ford_path(G, source, target, weight)


def _to_target(G, target, weight, method, paths):
    """Weighted lengths (or paths) from every node *to* ``target``: one SSSP on the transposed graph."""
    if target not in G:
        raise nx.NodeNotFound(f"Node {target} not found in graph" if method == "dijkstra"
                              else f"Source {target} not in G")
    if method == "dijkstra":
        _no_negative(G, weight)
    t = G.index[target]
    graph = G.lagraph(weight)
    if G.is_directed():
        rows, cols = graph.edges()
        graph = Graph.from_edges(cols, rows, graph.weights, n=graph.n, directed=True)
    try:
        r = _alg("sssp")(graph, t, parent=paths, engine=_engine())
    except la_graph.NegativeCycleError as exc:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from exc
    ids = _ordered(G, r.distance, [t], None)
    if not paths:
        return _lengths(G, r.distance, ids, weight)
    reached = np.zeros(len(G), bool)
    reached[ids] = True
    return _tree_paths(G.labels, r.parent, reached, keys=ids, reverse=True)


def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
    """NetworkX's ``shortest_path_length`` by the functions above."""
    method = _method(weight, method)
    if source is None:
        if target is None:
            if method == "unweighted":
                return all_pairs_shortest_path_length(G)
            if method == "dijkstra":
                return all_pairs_dijkstra_path_length(G, weight=weight)
            return all_pairs_bellman_ford_path_length(G, weight=weight)
        if method == "unweighted":
            if target not in G:
                raise nx.NodeNotFound(f"Source {target} is not in G")
            R = G.reverse()
            order, _, level = _bfs_order(R, R.index[target], None)
            return dict(zip(G.labels[order].tolist(), level[order].tolist()))
        return _to_target(G, target, weight, method, False)
    if target is None:
        if method == "unweighted":
            return single_source_shortest_path_length(G, source)
        if method == "dijkstra":
            return single_source_dijkstra_path_length(G, source, weight=weight)
        return single_source_bellman_ford_path_length(G, source, weight=weight)
    if method == "unweighted":
        return len(bidirectional_shortest_path(G, source, target)) - 1
    if method == "dijkstra":
        return dijkstra_path_length(G, source, target, weight)
    return bellman_ford_path_length(G, source, target, weight)


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


def floyd_warshall(G, weight="weight"):
    """All-pairs distances as NetworkX's dict of dicts (``defaultdict``s, ``inf`` where no path, every pair
    present), from la_graph's all-pairs shortest paths; declines negative self-loops and negative cycles."""
    w = G.weights(weight)
    if w is not None and np.any((G._src[G._edges] == G._dst[G._edges]) & (w < 0)):
        raise NotImplementedError("a negative self-loop: NetworkX's Floyd-Warshall gives no meaningful answer")
    D = floyd_warshall_numpy(G, weight=weight)
    is_int = G.int_weights(weight)
    lab = G.nodes
    dist = defaultdict(lambda: defaultdict(lambda: float("inf")))
    for i, row in enumerate(D):
        vals = row.tolist()
        if is_int:
            vals = [int(x) if x != float("inf") else x for x in vals]
        inner = defaultdict(lambda: float("inf"))
        inner.update(zip(lab, vals))
        dist[lab[i]] = inner
    return dist
