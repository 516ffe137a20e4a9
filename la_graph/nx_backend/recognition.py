"""Questions about a graph's shape: trees and forests (from la_graph's components), regular graphs, dominating
sets and the s-metric (from its degrees), bipartite graphs (from BFS levels) -- NetworkX's ``tree.recognition``,
``regular``, ``dominating``, ``smetric``, ``bipartite.basic``."""

from __future__ import annotations

import networkx as nx
import numpy as np

from ..graph import Graph
from ._convert import LaGraphNX
from ._utils import _alg, _engine, _levels, declines

__all__ = ["is_tree", "is_forest", "is_regular", "is_k_regular", "is_dominating_set", "is_bipartite", "s_metric",
           "rich_club_coefficient"]


def _components(G):
    return int(np.unique(_alg("connected_components")(G.lagraph(), engine=_engine())).size)


def is_tree(G):
    """Whether ``G`` is connected (weakly, if directed) with ``n - 1`` edges."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("G has no nodes.")
    return len(G) - 1 == int(G._edges.size) and _components(G) == 1


def is_forest(G):
    """Whether every (weak) component is a tree: ``n - components`` edges in all."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("G has no nodes.")
    return int(G._edges.size) == len(G) - _components(G)


def _degree(G, direction="all", into=None):
    return _alg("degree")(G.lagraph(), direction=direction, into=into, engine=_engine())


def is_regular(G):
    """Whether every node has the same degree (the same in- and out-degrees, if directed)."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Graph has no nodes.")
    if not G.is_directed():
        d = _degree(G)
        return bool((d == d[0]).all())
    i, o = _degree(G, "in"), _degree(G, "out")
    return bool((i == i[0]).all() and (o == o[0]).all())


def is_k_regular(G, k):
    """Whether every node has degree ``k``."""
    return bool((_degree(G) == k).all())


def is_dominating_set(G, nbunch):
    """Whether every node is in ``nbunch`` or an out-neighbour of one of its nodes."""
    ids = np.array([G.index[v] for v in {v for v in nbunch if v in G}], dtype=np.int64)
    dominated = _degree(G, "in", ids) > 0
    dominated[ids] = True
    return bool(dominated.all())


def is_bipartite(G):
    """Whether ``G`` (edges taken both ways) has no odd cycle: BFS from one node of each component, and no edge
    joins two nodes of one level (a self-loop does)."""
    n = len(G)
    if n == 0:
        return True
    H = G
    if G.is_directed():              # NetworkX colours along predecessors and successors
        U = Graph.from_edges(G._src, G._dst, n=n, directed=False)
        H = LaGraphNX.from_graph(U, nodes=G.nodes)
    labels = _alg("connected_components")(H.lagraph(), engine=_engine())
    _, roots = np.unique(labels, return_index=True)
    level = _levels(H, roots)
    return not bool(np.any(level[H._src] == level[H._dst]))


def s_metric(G):
    """The sum over edges of ``d(u) d(v)`` (la_graph's degrees; in plus out if directed), as a float."""
    d = _degree(G)
    e = G._edges
    return float((d[G._src[e]] * d[G._dst[e]]).sum())


def rich_club_coefficient(G, normalized=True, Q=100, seed=None):
    """The rich-club coefficient ``2 E_k / (N_k (N_k - 1))`` for each degree ``k`` with ``N_k > 1`` nodes of
    degree above ``k`` (``E_k`` the edges between them), from la_graph's degrees; ``normalized=True`` (a random
    rewiring) is declined."""
    if G.lagraph().self_loops:
        raise Exception("rich_club_coefficient is not implemented for graphs with self loops.")
    if normalized:
        raise NotImplementedError("normalized=True compares with NetworkX's random rewiring")
    m = int(G._edges.size)
    if m == 0:
        return {}
    d = _degree(G)
    nk = len(G) - np.cumsum(np.bincount(d))                 # nodes of degree above k, for k = 0, 1, ...
    ks = int(np.count_nonzero(nk > 1))
    e = G._edges
    low = np.sort(np.minimum(d[G._src[e]], d[G._dst[e]]))  # an edge stays in the club while k < its lower degree
    ek = m - np.searchsorted(low, np.arange(ks), side="right")
    return {k: 2 * a / (b * (b - 1)) for k, a, b in zip(range(ks), ek.tolist(), nk[:ks].tolist())}


@declines("rich_club_coefficient")
def _rich_club_declines(a):
    if a.get("normalized", True):
        return "normalized=True compares with NetworkX's random rewiring (double_edge_swap)"
    return None


@declines("is_tree", "is_forest")
def _tree_declines(a):
    G = a.get("G")
    if G is not None and G.is_multigraph():
        return "a multigraph G: NetworkX counts parallel edges; la_graph's graph merges them"
    return None


@declines("is_regular", "is_k_regular", "s_metric")
def _regular_declines(a):
    G = a.get("G")
    if G is not None and G.is_multigraph():
        return "a multigraph G: NetworkX counts parallel edges in degrees; la_graph's graph merges them"
    return None
