"""Modularity, Louvain and Leiden communities (NetworkX's ``algorithms.community``).

``louvain_communities`` / ``louvain_partitions`` run la_graph's seeded
Louvain, ``leiden_communities`` / ``leiden_partitions`` its Leiden (NetworkX
3.6 has Leiden only for backends).  The partitions are valid and
reproducible for a given ``seed``, but they are la_graph's: NetworkX's own
random order of node moves gives other partitions for the same seed (both
optimise the same modularity, with the same ``resolution`` and
``threshold``).  Directed graphs (NetworkX's directed Louvain), multigraphs
(NetworkX sums parallel weights) and negative weights are declined.
"""

from __future__ import annotations

import numpy as np
from networkx.algorithms.community.quality import NotAPartition

from ._utils import _alg, _engine, _groups, declines

__all__ = ["modularity", "louvain_communities", "louvain_partitions", "leiden_communities", "leiden_partitions"]


def _seed(seed):
    """An int seed from what NetworkX's ``py_random_state`` hands over (a ``random.Random``, or an int)."""
    if seed is None or isinstance(seed, (int, np.integer)):
        return 0 if seed is None else int(seed)
    if hasattr(seed, "getrandbits"):
        return seed.getrandbits(31)
    return int(seed.randint(0, 2**31 - 1))          # a numpy RandomState


def _graph(G, weight):
    graph = G.lagraph(weight)
    if graph.weights is not None and graph.nnz and graph.weight_range().min < 0:
        raise NotImplementedError(f"negative weights in {weight!r} are not supported")
    return graph


def modularity(G, communities, weight="weight", resolution=1):
    """The modularity of a partition of the nodes by la_graph's ``modularity`` (NetworkX's definition)."""
    if not isinstance(communities, list):
        communities = list(communities)
    labels = np.full(len(G), -1, np.int64)
    try:
        for i, c in enumerate(communities):
            for v in c:
                if v not in G or labels[G.index[v]] >= 0:
                    raise NotAPartition(G, communities)
                labels[G.index[v]] = i
    except TypeError:
        raise NotAPartition(G, communities) from None
    if (labels < 0).any():
        raise NotAPartition(G, communities)
    if not G._edges.size:                           # NetworkX's 1 / m
        raise ZeroDivisionError("division by zero")
    return float(_alg("modularity")(_graph(G, weight), labels, resolution, engine=_engine()))


def _partitions(G, name, weight, resolution, threshold, max_level, seed):
    """The labelings after each level of la_graph's ``louvain``/``leiden``, as lists of sets by first node."""
    if len(G) == 0:
        return [[]]
    if not G._edges.size:                           # NetworkX's is_empty(G): every node alone
        return [[{v} for v in G.nodes]]
    r = _alg(name)(_graph(G, weight), resolution, seed=_seed(seed), threshold=threshold, dendrogram=True,
                   engine=_engine())
    levels = r.levels if max_level is None else r.levels[:max_level]     # NetworkX's islice of the levels
    return [_groups(np.asarray(level), G.labels) for level in levels]


def louvain_partitions(G, weight="weight", resolution=1, threshold=1e-07, seed=None):
    """The partition after each level of la_graph's Louvain (a generator of lists of sets)."""
    yield from _partitions(G, "louvain", weight, resolution, threshold, None, seed)


def louvain_communities(G, weight="weight", resolution=1, threshold=1e-07, max_level=None, seed=None):
    """The communities of la_graph's Louvain as a list of sets (in the order of each one's first node)."""
    if max_level is not None and max_level <= 0:
        raise ValueError("max_level argument must be a positive integer or None")
    return _partitions(G, "louvain", weight, resolution, threshold, max_level, seed)[-1]


def leiden_partitions(G, weight="weight", resolution=1, seed=None):
    """The partition after each level of la_graph's Leiden (a generator of lists of sets)."""
    yield from _partitions(G, "leiden", weight, resolution, 1e-07, None, seed)


def leiden_communities(G, weight="weight", resolution=1, max_level=None, seed=None):
    """The communities of la_graph's Leiden (connected) as a list of sets (in the order of each one's first
    node)."""
    if max_level is not None and max_level <= 0:
        raise ValueError("max_level argument must be a positive integer or None")
    return _partitions(G, "leiden", weight, resolution, 1e-07, max_level, seed)[-1]


@declines(*__all__)
def _community_declines(a):
    G = a.get("G")
    if G is not None and G.is_multigraph():
        return "a multigraph G: NetworkX sums the weights of parallel edges; la_graph keeps the smallest"
    if G is not None and G.is_directed() and a.get("communities") is None:
        return "a directed G: la_graph's Louvain and Leiden are for undirected graphs"
    return None
