"""Graphs to and from python-graphblas matrices, for the CPU engine (``CPUEngine.graph_from_graphblas``).

The engine's methods ``graph_from_graphblas`` and ``graph_to_graphblas`` are these
functions (``E`` is the engine); :meth:`Graph.from_graphblas <la_graph.Graph.from_graphblas>`
and :meth:`Graph.to_graphblas <la_graph.Graph.to_graphblas>` hand their work to them through
the engine registry, so that la_graph.graph imports no engine.
"""

from __future__ import annotations

from ...graph import Graph
from .objects import graph_to_graphblas as _to_graphblas
from .objects import graphblas_to_scipy

__all__ = ["graph_from_graphblas", "graph_to_graphblas"]


def graph_from_graphblas(E, M, directed=None, weighted=None):
    """A :class:`~la_graph.Graph` of a square python-graphblas ``Matrix`` (the rules of
    :meth:`Graph.from_scipy <la_graph.Graph.from_scipy>`: stored entries are edges).

    Examples
    --------
    >>> import graphblas as gb, la_graph as lg
    >>> M = gb.Matrix.from_coo([0, 1], [1, 2], [2.5, 1.0], nrows=3, ncols=3)
    >>> lg.get_engine("cpu").graph_from_graphblas(M)
    Graph(n=3, edges=2, directed, weighted)
    """
    return Graph.from_scipy(graphblas_to_scipy(M), directed=directed, weighted=weighted)


def graph_to_graphblas(E, G):
    """A new python-graphblas ``Matrix`` of ``G``'s adjacency: iso BOOL ones if unweighted, else FP64 weights.

    Examples
    --------
    >>> import la_graph as lg
    >>> M = lg.get_engine("cpu").graph_to_graphblas(lg.Graph.from_edges([0], [1], w=[2.5], directed=True))
    >>> M.nrows, M.nvals, M.dtype.name
    (2, 1, 'FP64')
    """
    return _to_graphblas(G)
