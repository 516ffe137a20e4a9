"""Maximal independent sets (NetworkX's ``algorithms.mis``)."""

from __future__ import annotations

import networkx as nx
import numpy as np

from ..graph import Graph
from ._utils import _alg, _engine

__all__ = ["maximal_independent_set"]


def maximal_independent_set(G, nodes=None, seed=None):
    """A maximal independent set containing ``nodes``, as a list (``nodes`` first), by la_graph's Luby MIS.

    NetworkX's answer is random; this one is a valid answer of the same kind,
    reproducible for a given ``seed``.  Like NetworkX, a node with a self-loop
    may be chosen, but not given in ``nodes``.
    """
    n = len(G)
    if n == 0 and not nodes:
        raise IndexError("Cannot choose from an empty sequence")
    nodes = set(nodes) if nodes else set()
    if not nodes.issubset(G.index):
        raise nx.NetworkXUnfeasible(f"{nodes} is not a subset of the nodes of G")
    src, dst = G._src, G._dst
    forced = np.zeros(n, dtype=bool)
    forced[[G.index[v] for v in nodes]] = True
    blocked = forced.copy()
    blocked[dst[forced[src]]] = True                     # nodes and their neighbours
    if np.any(forced[dst[forced[src]]]):
        raise nx.NetworkXUnfeasible(f"{nodes} is not an independent set of G")
    keep = ~blocked
    new_id = np.cumsum(keep) - 1
    e = keep[src] & keep[dst] & (src < dst)              # the rest of the graph, without loops
    sub = Graph.from_edges(new_id[src[e]], new_id[dst[e]], n=int(keep.sum()), directed=False)
    if seed is None or isinstance(seed, int):
        s = seed or 0
    elif hasattr(seed, "getrandbits"):       # NetworkX hands over a random.Random
        s = seed.getrandbits(31)
    else:
        s = int(seed.randint(0, 2**31 - 1))
    mask = np.asarray(_alg("maximal_independent_set")(sub, seed=s, engine=_engine()), dtype=bool)
    chosen = np.flatnonzero(keep)[mask]
    return list(nodes) + G.labels[chosen].tolist()
