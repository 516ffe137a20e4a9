"""Cores and trusses (NetworkX's ``algorithms.core``)."""

from __future__ import annotations

import networkx as nx
import numpy as np

from ._utils import _SELF_LOOPS, _alg, _by_node, _engine, _induced, _nx_subgraph

__all__ = ["core_number", "k_truss", "k_core", "k_shell", "k_crust", "k_corona"]


def core_number(G):
    """The core number of every node (a dict); self-loops are refused as NetworkX refuses them."""
    graph = G.lagraph()
    if graph.self_loops:
        raise nx.NetworkXNotImplemented(
            "Input graph has self loops which is not permitted; "
            "Consider using G.remove_edges_from(nx.selfloop_edges(G)).")
    return _by_node(G, _alg("core_number")(graph, engine=_engine()))


def k_truss(G, k):
    """The k-truss by la_graph's edge peeling: the graph's nodes and edges of the truss with their data, in the
    graph's order (nodes left without an edge dropped, as NetworkX drops them)."""
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k < 2:
        raise NotImplementedError("la_graph's k_truss takes an integer k >= 2")
    graph = G.lagraph()
    if graph.self_loops:
        raise nx.NetworkXNotImplemented(_SELF_LOOPS)
    T, ids = _alg("k_truss")(graph, int(k), engine=_engine())
    n = len(G)
    keep = np.zeros(n, bool)
    keep[ids] = True
    u, v = T.edges()
    kept = np.sort(ids[u].astype(np.int64) * n + ids[v])
    key = G._src * n + G._dst
    at = np.minimum(np.searchsorted(kept, key), max(kept.size - 1, 0))
    entry = (kept[at] == key) if kept.size else np.zeros(key.size, bool)
    return _nx_subgraph(G, keep, entry)


def k_core(G, k=None, core_number=None):
    """The k-core (the main core by default) by la_graph's core numbers, as ``G.subgraph(nodes).copy()``."""
    if k is not None and (not isinstance(k, (int, np.integer)) or isinstance(k, bool)):
        raise NotImplementedError("la_graph's k_core takes an integer k")
    if core_number is not None:                  # NetworkX's rule on the given numbers: no computation
        if k is None:
            k = max(core_number.values())
        return _induced(G, [G.index[v] for v in core_number if core_number[v] >= k])
    graph = G.lagraph()
    if graph.self_loops:
        raise nx.NetworkXNotImplemented(_SELF_LOOPS)
    if len(G) == 0 and k is None:
        max(())                                  # NetworkX's max() of no core numbers
    # la_graph's k_core is its core numbers and a subgraph of them; only the nodes are needed here (the subgraph
    # NetworkX gets is built from the converted graph), so the core numbers alone
    core = np.asarray(_alg("core_number")(graph, engine=_engine()))
    k = int(core.max(initial=0)) if k is None else max(int(k), 0)
    return _induced(G, np.flatnonzero(core >= k))


def _core_numbers(G, core_number):
    """la_graph's core numbers over vertex ids, or the given ``{node: core}`` as an array (missing: -1)."""
    if core_number is None:
        graph = G.lagraph()
        if graph.self_loops:
            raise nx.NetworkXNotImplemented(_SELF_LOOPS)
        return np.asarray(_alg("core_number")(graph, engine=_engine()), dtype=np.int64), False
    c = np.full(len(G), -1, np.int64)
    for v, x in core_number.items():
        c[G.index[v]] = x
    return c, True


def _max_core(c, given, core_number):
    if given:
        return max(core_number.values())
    return int(c.max())                        # max() of no core numbers raises, as NetworkX's


def k_shell(G, k=None, core_number=None):
    """The k-shell (core number exactly ``k``; the main shell by default) as ``G.subgraph(nodes).copy()``."""
    c, given = _core_numbers(G, core_number)
    if k is None:
        k = _max_core(c, given, core_number) if c.size else max(())
    return _induced(G, np.flatnonzero(c == k))


def k_crust(G, k=None, core_number=None):
    """The k-crust (core number at most ``k``; default the largest minus one) as ``G.subgraph(nodes).copy()``."""
    c, given = _core_numbers(G, core_number)
    if k is None:
        k = (_max_core(c, given, core_number) if c.size else max(())) - 1
    return _induced(G, np.flatnonzero((c <= k) & (c >= 0)))


def k_corona(G, k, core_number=None):
    """The k-corona: the k-shell's nodes with exactly ``k`` neighbours in the k-core, as
    ``G.subgraph(nodes).copy()``."""
    c, _ = _core_numbers(G, core_number)
    rows, cols = G.lagraph().edges()              # each node's neighbours in the k-core (a loop once, as G[v])
    into = np.bincount(rows[c[cols] >= k], minlength=len(G))
    return _induced(G, np.flatnonzero((c == k) & (into == k)))
