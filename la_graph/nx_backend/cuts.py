"""Cuts, volumes, expansions and boundaries (NetworkX's ``algorithms.cuts`` and ``algorithms.boundary``),
from la_graph's degrees into a vertex set (:func:`la_graph.degree`).

For disjoint ``S`` and ``T`` the cut is ``sum over S of the degrees into
T`` (plus the reverse direction on a directed graph).  Multigraphs are
declined (NetworkX counts parallel edges one by one), and so are ``S`` and
``T`` that overlap (NetworkX then counts an edge inside both once).
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ._utils import _alg, _engine, declines

__all__ = ["cut_size", "volume", "normalized_cut_size", "conductance", "edge_expansion", "mixing_expansion",
           "node_expansion", "boundary_expansion", "edge_boundary", "node_boundary"]


def _degree(G, weight=None, direction="out", into=None):
    """la_graph's degrees on the graph of attribute ``weight`` (None: counts), in NetworkX's type."""
    d = _alg("degree")(G.lagraph(weight), weight=weight is not None, direction=direction, into=into,
                       engine=_engine())
    return d.astype(np.int64) if weight is not None and G.int_weights(weight) else d


def _ids(G, nodes):
    """Vertex ids of the nodes of ``nodes`` that are in ``G``, repeats dropped, in iteration order."""
    return np.array([G.index[v] for v in dict.fromkeys(v for v in nodes if v in G)], dtype=np.int64)


def _num(x):
    return x.item() if isinstance(x, np.generic) else x


def cut_size(G, S, T=None, weight=None):
    """The number (or weight) of edges between ``S`` and ``T`` (default: the rest), both ways if directed."""
    s = _ids(G, S)
    if T is None:
        if G.is_directed():              # NetworkX's edge_boundary(G, None, S)
            raise TypeError("'NoneType' object is not iterable")
        t = np.setdiff1d(np.arange(len(G)), s)
    else:
        t = _ids(G, T)
        if np.intersect1d(s, t).size:
            raise NotImplementedError("S and T overlap: NetworkX counts an edge inside both once")
    total = _degree(G, weight, "out", t)[s].sum()
    if G.is_directed():
        total = total + _degree(G, weight, "out", s)[t].sum()
    return _num(total)


def volume(G, S, weight=None):
    """The sum of the degrees (out-degrees if directed) of the nodes of ``S`` (repeats count again)."""
    if S in G:                           # NetworkX unpacks G.degree(S), an int
        raise TypeError("cannot unpack non-iterable int object")
    ids = [G.index[v] for v in S if v in G]
    return _num(_degree(G, weight, "out")[ids].sum())


def normalized_cut_size(G, S, T=None, weight=None):
    """``cut_size * (1 / volume(S) + 1 / volume(T))``."""
    if T is None:
        T = set(G) - set(S)
    return cut_size(G, S, T=T, weight=weight) * ((1 / volume(G, S, weight=weight)) + (1 / volume(G, T, weight=weight)))


def conductance(G, S, T=None, weight=None):
    """``cut_size / min(volume(S), volume(T))``."""
    if T is None:
        T = set(G) - set(S)
    return cut_size(G, S, T, weight=weight) / min(volume(G, S, weight=weight), volume(G, T, weight=weight))


def edge_expansion(G, S, T=None, weight=None):
    """``cut_size / min(len(S), len(T))``."""
    if T is None:
        T = set(G) - set(S)
    return cut_size(G, S, T=T, weight=weight) / min(len(S), len(T))


def mixing_expansion(G, S, T=None, weight=None):
    """``cut_size / (2 * number of edges)``."""
    return cut_size(G, S, T=T, weight=weight) / (2 * int(G._edges.size))


def _neighbours(G, s):
    """Whether each vertex is an out-neighbour of some vertex of ``s``: its degree from ``s`` is positive."""
    return _degree(G, None, "in", s) > 0


def node_expansion(G, S):
    """``len(out-neighbours of S) / len(S)``."""
    for v in S:
        if v not in G:
            raise nx.NetworkXError(f"The node {v} is not in the graph.")
    return int(_neighbours(G, _ids(G, S)).sum()) / len(S)


def node_boundary(G, nbunch1, nbunch2=None):
    """The out-neighbours of ``nbunch1`` outside it (within ``nbunch2`` if given), as a set."""
    s = _ids(G, nbunch1)
    out = _neighbours(G, s)
    out[s] = False
    bdy = set(G.labels[out].tolist())
    if nbunch2 is not None:
        bdy &= set(nbunch2)
    return bdy


def boundary_expansion(G, S):
    """``len(node_boundary(S)) / len(S)``."""
    return len(node_boundary(G, S)) / len(S)


def edge_boundary(G, nbunch1, nbunch2=None, data=False, keys=False, default=None):
    """The edges with exactly one end in ``nbunch1`` (or from it to ``nbunch2``), in NetworkX's order: the
    nodes of ``set(nbunch1)`` in its iteration order, each one's edges in adjacency order."""
    first = [v for v in set(v for v in nbunch1 if v in G)]
    n = len(G)
    pos = np.full(n, -1, np.int64)
    pos[[G.index[v] for v in first]] = np.arange(len(first))
    src, dst = G._src, G._dst
    e = np.flatnonzero(pos[src] >= 0)
    if not G.is_directed():              # an edge inside nbunch1 is listed once, from its earlier end
        e = e[~((pos[dst[e]] >= 0) & (pos[dst[e]] < pos[src[e]]))]
    if nbunch2 is None:
        e = e[pos[dst[e]] < 0]
    else:
        inside2 = np.zeros(n, bool)
        inside2[[G.index[v] for v in set(nbunch2) if v in G]] = True
        e = e[inside2[dst[e]] | ((pos[dst[e]] >= 0) & inside2[src[e]])]
    rank = np.arange(src.size) - np.searchsorted(src, np.arange(n))[src]
    e = e[np.lexsort((rank[e], pos[src[e]]))]
    lab = G.nodes
    u, v = [lab[i] for i in src[e].tolist()], [lab[i] for i in dst[e].tolist()]
    if data is False:
        return iter(list(zip(u, v)))
    if G._edge_data is None:
        raise NotImplementedError("edge data were not converted")
    ds = [G._edge_data[i] for i in e.tolist()]
    if data is True:
        return iter(list(zip(u, v, ds)))
    return iter([(a, b, d.get(data, default)) for a, b, d in zip(u, v, ds)])


@declines(*__all__)
def _cuts_declines(a):
    G = a.get("G")
    if G is not None and G.is_multigraph():
        return "a multigraph G: NetworkX counts parallel edges one by one; la_graph's graph merges them"
    return None
