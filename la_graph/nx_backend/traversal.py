"""Breadth-first traversal and reachability (NetworkX's ``algorithms.traversal`` and ``algorithms.dag``).

Every search is la_graph's BFS (levels), its visiting order then rebuilt as
NetworkX's queue makes it (:func:`~la_graph.nx_backend._utils._bfs_order`);
searches over predecessors (``reverse=True``, ``ancestors``) run on the
reverse graph with NetworkX's ``G.pred`` order.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ._utils import _alg, _bfs_order, _engine, _levels, _tuples, declines

__all__ = ["bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors", "bfs_layers", "descendants_at_distance",
           "descendants", "ancestors", "is_directed_acyclic_graph", "generic_bfs_edges", "bfs_labeled_edges",
           "is_aperiodic"]


def _check_source(G, source):
    if source not in G:
        raise nx.NetworkXError(f"The node {source} is not in the graph.")


def _tree_edges(G, source, reverse, depth_limit):
    """``(parents, children)`` vertex arrays of NetworkX's BFS tree edges, in its order."""
    _check_source(G, source)
    H = G.reverse() if reverse else G
    limit = len(G) if depth_limit is None else depth_limit
    if limit <= 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    order, parent, _ = _bfs_order(H, G.vertex(source), int(np.ceil(limit)))
    return parent[1:], order[1:]


def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """BFS tree edges ``(parent, child)`` in NetworkX's order (``reverse``: over predecessors)."""
    if sort_neighbors is not None:
        raise NotImplementedError("sort_neighbors is not supported")
    u, v = _tree_edges(G, source, reverse, depth_limit)
    yield from _tuples(G.take(u), G.take(v))


def generic_bfs_edges(G, source, neighbors=None, depth_limit=None):
    """``bfs_edges`` for the graph's own neighbours (a ``neighbors`` function is declined)."""
    if neighbors is not None:
        raise NotImplementedError("neighbors (a function) is not supported")
    u, v = _tree_edges(G, source, False, depth_limit)
    yield from _tuples(G.take(u), G.take(v))


def bfs_labeled_edges(G, sources):
    """Every edge met by the BFS from ``sources`` with NetworkX's label (``"tree"``, ``"level"``,
    ``"forward"``, ``"reverse"``), in its queue's order: the nodes in BFS order, each one's edges in adjacency
    order (an undirected edge's level label once, its reverse direction not at all)."""
    if sources in G:
        sources = [sources]
    first = [G.index[s] for s in dict.fromkeys(sources)]
    if not first:
        return
    order, parent, level = _bfs_order(G, first, None)
    n = len(G)
    pos = np.full(n, -1, np.int64)
    pos[order] = np.arange(order.size)
    par = np.full(n, -1, np.int64)
    par[order] = parent
    src, dst = G._src, G._dst
    e = np.flatnonzero(pos[src] >= 0)
    rank = np.arange(src.size) - np.searchsorted(src, np.arange(n))[src]
    e = e[np.lexsort((rank[e], pos[src[e]]))]
    u, v = src[e], dst[e]
    du, dv = level[u], level[v]
    tree = (par[v] == u) & (dv == du + 1)
    label = np.full(e.size, "", dtype=object)
    label[tree] = "tree"
    same = ~tree & (du == dv)
    label[same & (G.is_directed() | (pos[v] >= pos[u]))] = "level"
    label[~tree & (du < dv)] = "forward"
    if G.is_directed():
        label[~tree & (du > dv)] = "reverse"
    keep = label != ""
    lab = G.labels
    yield from _tuples(lab[u[keep]].tolist(), lab[v[keep]].tolist(), label[keep].tolist())


def is_aperiodic(G):
    """Whether the cycle lengths of a strongly connected digraph have gcd 1: the gcd over every edge ``(u, v)`` of
    ``level(u) - level(v) + 1`` for BFS levels from the first node."""
    if not G.is_directed():
        raise nx.NetworkXError("is_aperiodic not defined for undirected graphs")
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Graph has no nodes.")
    if np.unique(_alg("strongly_connected_components")(G.lagraph(), engine=_engine())).size != 1:
        raise nx.NetworkXError("Graph is not strongly connected.")
    level = _levels(G, 0)
    g = np.gcd.reduce(np.abs(level[G._src] - level[G._dst] + 1)) if G._src.size else 0
    return int(g) == 1


def bfs_tree(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """The BFS tree as a ``DiGraph``: ``source``, then the tree edges in NetworkX's order."""
    if sort_neighbors is not None:
        raise NotImplementedError("sort_neighbors is not supported")
    T = nx.DiGraph()
    T.add_node(source)
    u, v = _tree_edges(G, source, reverse, depth_limit)
    lab = G.labels
    T.add_edges_from(zip(lab[u].tolist(), lab[v].tolist()))
    return T


def bfs_predecessors(G, source, depth_limit=None, sort_neighbors=None):
    """``(node, its BFS parent)`` pairs in NetworkX's order."""
    if sort_neighbors is not None:
        raise NotImplementedError("sort_neighbors is not supported")
    u, v = _tree_edges(G, source, False, depth_limit)
    lab = G.labels
    yield from _tuples(lab[v].tolist(), lab[u].tolist())


def bfs_successors(G, source, depth_limit=None, sort_neighbors=None):
    """``(node, [its BFS children])`` in NetworkX's order (a parent's children are consecutive tree edges)."""
    if sort_neighbors is not None:
        raise NotImplementedError("sort_neighbors is not supported")
    u, v = _tree_edges(G, source, False, depth_limit)
    lab = G.labels
    if not u.size:                   # NetworkX yields the source with no children
        yield (source, [])
        return
    cuts = np.flatnonzero(u[1:] != u[:-1]) + 1
    for parents, children in zip(np.split(u, cuts), np.split(v, cuts)):
        yield (lab[parents[0]], lab[children].tolist())


def bfs_layers(G, sources):
    """The BFS layers from ``sources`` (a node or several) as lists, in NetworkX's order (its first layer is
    ``list(set(sources))``, as NetworkX takes it)."""
    if sources in G:
        sources = [sources]
    first = list(set(sources))
    for s in first:
        _check_source(G, s)
    if not first:
        return
    order, _, level = _bfs_order(G, [G.index[s] for s in first], None)
    lab = G.labels[order]
    lev = level[order]
    cuts = np.flatnonzero(lev[1:] != lev[:-1]) + 1
    for layer in np.split(lab, cuts):
        yield layer.tolist()


def descendants_at_distance(G, source, distance):
    """The nodes exactly ``distance`` hops from ``source``, as a set."""
    _check_source(G, source)
    if distance < 0 or distance != int(distance):
        return set()
    level = _levels(G, G.index[source], int(distance))
    return set(G.labels[level == distance].tolist())


def _reached(H, source):
    """The vertices ``source`` reaches on ``H``, itself excluded, by one BFS from it (levels only: la_graph's
    ``reachability`` batches many sources in bit frontiers, 8x the time for one on G(100k, 800k))."""
    s = H.index[source]
    r = _alg("bfs")(H.lagraph(), s, parent=False, engine=_engine()).level >= 0
    r[s] = False
    return set(H.labels[r].tolist())


def descendants(G, source):
    """The nodes reachable from ``source`` (a set, ``source`` excluded)."""
    _check_source(G, source)
    return _reached(G, source)


def ancestors(G, source):
    """The nodes that reach ``source`` (a set, ``source`` excluded)."""
    _check_source(G, source)
    return _reached(G.reverse(), source)


def _acyclic(G):
    """Whether a directed graph has no cycle: no self-loop and every strong component a single vertex."""
    graph = G.lagraph()
    if graph.self_loops:
        return False
    labels = _alg("strongly_connected_components")(graph, engine=_engine())
    return np.unique(labels).size == len(G)


def is_directed_acyclic_graph(G):
    """Whether ``G`` is directed and has no cycle (from la_graph's strong components)."""
    return G.is_directed() and _acyclic(G)


@declines("generic_bfs_edges")
def _generic_bfs_declines(a):
    if a.get("neighbors") is not None:
        return "neighbors (a function) is not supported"
    return None


@declines("bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors")
def _bfs_declines(a):
    if a.get("sort_neighbors") is not None:
        return "sort_neighbors is not supported"
    return None
