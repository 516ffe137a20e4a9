"""Connected and strongly connected components (NetworkX's ``algorithms.components``)."""

from __future__ import annotations

from ._utils import _alg, _engine, _groups

__all__ = ["connected_components", "strongly_connected_components"]


def connected_components(G):
    """Components as sets of nodes, in the order of each component's first node (as NetworkX)."""
    labels = _alg("connected_components")(G.lagraph(), engine=_engine())
    yield from _groups(labels, G.labels)


def strongly_connected_components(G):
    """Strong components as sets of nodes, in the order of each one's first node.

    NetworkX yields them in Tarjan's order, which it does not document; the sets are the same.
    """
    labels = _alg("strongly_connected_components")(G.lagraph(), engine=_engine())
    yield from _groups(labels, G.labels)
