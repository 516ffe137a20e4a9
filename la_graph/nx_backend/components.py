"""Connected, weakly and strongly connected components (NetworkX's ``algorithms.components``).

The components are la_graph's labels (FastSV; weak components of a directed
graph; strong components), grouped in the order of each one's first node.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ._utils import _alg, _engine, _groups

__all__ = ["connected_components", "number_connected_components", "is_connected", "node_connected_component",
           "weakly_connected_components", "number_weakly_connected_components", "is_weakly_connected",
           "strongly_connected_components", "number_strongly_connected_components", "is_strongly_connected",
           "condensation"]

_NULL = "Connectivity is undefined for the null graph."


def _cc(G):
    return _alg("connected_components")(G.lagraph(), engine=_engine())


def _scc(G):
    return _alg("strongly_connected_components")(G.lagraph(), engine=_engine())


def _count(labels):
    return int(np.unique(labels).size)


def connected_components(G):
    """Components as sets of nodes, in the order of each component's first node (as NetworkX)."""
    yield from _groups(_cc(G), G.label_array())


def number_connected_components(G):
    """The number of connected components."""
    return _count(_cc(G))


def is_connected(G):
    """Whether the graph has one connected component (``NetworkXPointlessConcept`` on the null graph)."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept(_NULL)
    return _count(_cc(G)) == 1


def node_connected_component(G, n):
    """The set of nodes in ``n``'s component (``KeyError`` if ``n`` is not a node, as NetworkX's search)."""
    if n not in G:
        raise KeyError(n)
    labels = _cc(G)
    return set(G.take(np.flatnonzero(labels == labels[G.vertex(n)])))


def weakly_connected_components(G):
    """Weak components of a directed graph as sets, in the order of each one's first node (as NetworkX)."""
    yield from _groups(_cc(G), G.label_array())


def number_weakly_connected_components(G):
    """The number of weakly connected components."""
    return _count(_cc(G))


def is_weakly_connected(G):
    """Whether a directed graph is weakly connected (``NetworkXPointlessConcept`` on the null graph)."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept(_NULL)
    return _count(_cc(G)) == 1


def strongly_connected_components(G):
    """Strong components as sets of nodes, in the order of each one's first node.

    NetworkX yields them in Tarjan's order, which it does not document; the sets are the same.
    """
    yield from _groups(_scc(G), G.label_array())


def number_strongly_connected_components(G):
    """The number of strongly connected components."""
    return _count(_scc(G))


def is_strongly_connected(G):
    """Whether a directed graph is strongly connected (``NetworkXPointlessConcept`` on the null graph)."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept(_NULL)
    return _count(_scc(G)) == 1


def condensation(G, scc=None):
    """The condensation ``DiGraph`` (node ``i`` the ``i``-th strong component, its ``members``; ``mapping`` in
    ``C.graph``), components numbered in the order of their first node (NetworkX's Tarjan order is undocumented)."""
    C = nx.DiGraph()
    mapping = {}
    C.graph["mapping"] = mapping
    if len(G) == 0:
        return C
    if scc is None:
        # number the components in the order of their first node
        _, first, inv = np.unique(_scc(G), return_index=True, return_inverse=True)
        rank = np.empty(first.size, np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(first.size)
        ids = rank[inv.ravel()]
        members = _groups(ids, G.labels)
    else:
        members = [set(c) for c in scc]
        ids = np.empty(len(G), np.int64)
        for i, c in enumerate(members):
            ids[[G.index[v] for v in c]] = i
    mapping.update(zip(G.nodes, ids.tolist()))
    C.add_nodes_from(range(len(members)))
    e = G._edges
    cu, cv = ids[G._src[e]], ids[G._dst[e]]
    keep = cu != cv
    C.add_edges_from(zip(cu[keep].tolist(), cv[keep].tolist()))
    nx.set_node_attributes(C, dict(enumerate(members)), "members")
    return C
