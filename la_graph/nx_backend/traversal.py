"""Breadth-first traversal (NetworkX's ``algorithms.traversal``)."""

from __future__ import annotations

import networkx as nx
import numpy as np

from ._utils import _bfs_order, declines

__all__ = ["bfs_edges"]


def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """BFS tree edges ``(parent, child)`` in NetworkX's order."""
    if sort_neighbors is not None or (reverse and G.is_directed()):
        raise NotImplementedError("sort_neighbors, and reverse=True on a directed graph, are not supported")
    if source not in G:
        raise nx.NetworkXError(f"The node {source} is not in the graph.")
    limit = len(G) if depth_limit is None else depth_limit
    if limit <= 0:
        return
    order, parent, _ = _bfs_order(G, G.index[source], int(np.ceil(limit)))
    lab = G.labels
    yield from zip(lab[parent[1:]].tolist(), lab[order[1:]].tolist())


@declines("bfs_edges")
def _bfs_edges_declines(a):
    if a.get("sort_neighbors") is not None:
        return "sort_neighbors is not supported"
    G = a.get("G")
    if a.get("reverse") and G is not None and G.is_directed():
        return "reverse=True on a directed graph is not supported"
    return None
