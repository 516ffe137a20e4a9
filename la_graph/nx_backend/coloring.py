"""Greedy colouring (NetworkX's ``algorithms.coloring``).

NetworkX's ``greedy_color`` gives each node, in the strategy's order, the
smallest colour none of its neighbours has yet.  Colour class ``c`` is then the
greedy maximal independent set (in that order) of the nodes left by classes
``0 .. c-1``, which la_graph's colouring step builds by Luby's rounds on fixed
priorities (a node joins when it outranks every candidate neighbour): with the
priorities the strategy's order, the colours are NetworkX's.  Only
``largest_first`` (the default) has an order la_graph reproduces exactly
(degree descending, ties in node order: Python's stable sort); the others
depend on set iteration (``connected_sequential_*``), on a random state
(``random_sequential``), or on the colours as they are given
(``saturation_largest_first``, ``independent_set``, ``smallest_last``'s
ties), and are declined, as is ``interchange``.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

import la_graph

from ..algorithms.coloring import color_classes
from ._utils import _engine, declines

__all__ = ["greedy_color"]


def greedy_color(G, strategy="largest_first", interchange=False):
    """``{node: colour}`` in NetworkX's visiting order: largest degree first (a self-loop counts twice, as
    ``G.degree``), ties in node order, each node the smallest colour free among its neighbours."""
    n = len(G)
    if n == 0:
        return {}
    loops = np.bincount(G._src[G._src == G._dst], minlength=n)
    deg = np.diff(G._entry_ptr()) + loops
    order = np.argsort(-deg, kind="stable")             # sorted(G, key=G.degree, reverse=True)
    prio = np.empty(n, np.int64)
    prio[order] = np.arange(n - 1, -1, -1)              # the first visited ranks highest
    E = la_graph.get_engine(_engine())
    graph = G.lagraph()
    A = E.select(E.matrix(graph), "offdiag") if graph.self_loops else E.matrix(graph)
    colors = np.asarray(E.to_numpy(color_classes(E, A, E.vector_from_numpy(prio)), consume=True), np.int64)
    return dict(zip(G.take(order), colors[order].tolist()))


@declines(*__all__)
def _greedy_color_declines(a):
    G = a.get("G")
    strategy = a.get("strategy", "largest_first")
    if strategy not in ("largest_first", nx.coloring.strategy_largest_first):
        return ("strategy: only 'largest_first' has an order la_graph reproduces (the others follow set "
                "iteration, a random state or the colours given so far)")
    if a.get("interchange", False):
        return "interchange=True is not supported"
    if G is not None and (G.is_directed() or G.is_multigraph()):
        return "a directed or multigraph G: NetworkX colours around successors only, or counts parallel edges"
    return None
