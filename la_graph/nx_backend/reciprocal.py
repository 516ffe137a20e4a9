"""Reciprocity of directed graphs (NetworkX's ``algorithms.reciprocity``; this module is not named so, the package
exports the function ``reciprocity``).

An edge ``(u, v)`` is reciprocated where ``(v, u)`` is an edge too (a
self-loop is its own reverse): one vectorised search of the reversed edges
among the edges (``A .* A'``), then per-node counts.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ._utils import _nbunch, declines

__all__ = ["reciprocity", "overall_reciprocity"]


def _reciprocated(G):
    """Whether each adjacency entry ``(u, v)`` of a directed graph has its reverse ``(v, u)``."""
    n = len(G)
    key = G._src * n + G._dst
    order = np.argsort(key, kind="stable")
    skey = key[order]
    rev = G._dst * n + G._src
    at = np.minimum(np.searchsorted(skey, rev), max(skey.size - 1, 0))
    return skey[at] == rev if skey.size else np.zeros(0, bool)


def overall_reciprocity(G):
    """The fraction of edges whose reverse is an edge too, self-loops counted once (as NetworkX: the edges
    less those of ``G.to_undirected()``, twice, over the edges)."""
    m = int(G._edges.size)
    if not G.is_directed():
        overlap = 0                              # NetworkX's count for a graph that is its own undirected one
    else:
        both = _reciprocated(G) & (G._src != G._dst)
        overlap = int(both.sum())                # each reciprocated pair's two edges
    if m == 0:
        raise nx.NetworkXError("Not defined for empty graphs")
    return overlap / m


def reciprocity(G, nodes=None):
    """The graph's reciprocity (``nodes=None``), or each node's: twice its reciprocated neighbours over its in-
    plus out-degree (a dict; ``None`` for an isolated node; one value for a single node, where isolated raises)."""
    if nodes is None:
        return overall_reciprocity(G)
    n = len(G)
    both = _reciprocated(G)
    overlap = np.bincount(G._src[both], minlength=n)       # |pred & succ|: a self-loop is in both
    total = np.bincount(G._src, minlength=n) + np.bincount(G._dst, minlength=n)
    ov, tot = overlap.tolist(), total.tolist()

    def value(i):
        return None if tot[i] == 0 else 2 * ov[i] / tot[i]

    if nodes in G:
        r = value(G.index[nodes])
        if r is None:
            raise nx.NetworkXError("Not defined for isolated nodes.")
        return r
    return {v: value(G.index[v]) for v in _nbunch(G, nodes)}


@declines(*__all__)
def _reciprocity_declines(a):
    G = a.get("G")
    if G is not None and G.is_multigraph():
        return "a multigraph G: NetworkX counts parallel edges one by one"
    if G is not None and not G.is_directed() and a.get("nodes") is not None:
        return "an undirected G with nodes: NetworkX's answer is its AttributeError (no predecessors)"
    return None
