"""Vertex degrees, weighted degrees and degrees into a vertex set, as one matrix-vector product.

With ``A`` the adjacency matrix and ``t`` the indicator vector of the target
set ``T`` (every vertex by default), the out-degrees into ``T`` are

``d = A plus.pair t``  (counts),   ``d = A plus.times t``  (weights),

and the in-degrees the same product on ``A'``.  A self-loop is one entry of
``A`` but, in an undirected graph, two edge ends: its term is added once more
(``diag(A) plus.times t``, the diagonal selected by ``select(A, "diag")``), so
degrees are the graph-theory ones NetworkX reports.  The cuts, volumes and
expansions of NetworkX's ``algorithms.cuts`` are sums of these degrees.
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from .. import verify
from ..engines import get_engine
from ._certify import Checker, host
from ._registry import algorithm

__all__ = ["degree"]


@algorithm("degree",
           networkx=("degree_centrality", "in_degree_centrality", "out_degree_centrality", "isolates",
                     "number_of_isolates", "is_isolate", "volume", "cut_size", "normalized_cut_size",
                     "conductance", "edge_expansion", "mixing_expansion", "edge_boundary", "node_boundary",
                     "node_expansion", "boundary_expansion", "preferential_attachment", "is_regular", "is_k_regular",
                     "is_dominating_set", "s_metric", "rich_club_coefficient",
                     "adjacency_matrix", "laplacian_matrix", "normalized_laplacian_matrix", "modularity_matrix",
                     "reciprocity", "overall_reciprocity"),
           checker=Checker("check_degree", lambda G, d, a: verify.check_degree(
               G, host(d), weight=a["weight"], direction=a["direction"], into=a["into"])),
           page="algorithms/degree.md",
           summary="degrees, weighted degrees and degrees into a vertex set: A plus.pair t (self-loops twice)")
def degree(G, *, weight=False, direction="out", into=None, engine=None):
    """The degree of every vertex: its edges (or their weights), optionally only those ending in ``into``.

    Parameters
    ----------
    G : Graph
        Directed or undirected.  A self-loop counts twice in an undirected
        graph (both its ends), once as an out-edge and once as an in-edge
        in a directed one.
    weight : bool
        Sum the edge weights (``G`` must be weighted) instead of counting edges.
    direction : {"out", "in", "all"}
        Out-edges, in-edges, or both (their sum) of a directed graph; an
        undirected graph's degree whichever is given.
    into : sequence of int, optional
        Count only the edges whose other end is in this vertex set (default every vertex).
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        int64 counts, or float64 weights with ``weight=True``; one per vertex.

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 2])          # a triangle, a loop at 2
    >>> lg.degree(G).tolist()
    [2, 2, 4]
    >>> lg.degree(G, into=[2]).tolist()                              # edges ending at vertex 2
    [1, 1, 2]
    >>> D = lg.Graph.from_edges([0, 0, 1], [1, 2, 2], w=[0.5, 2.0, 4.0], directed=True)
    >>> lg.degree(D, weight=True, direction="in").tolist()
    [0.0, 0.5, 6.0]
    """
    G = V.check_graph(G)
    weight = V.check_flag(weight, "weight")
    if weight and not G.weighted:
        raise V.InvalidArgumentError("weight=True needs a weighted graph")
    V.check_choice(direction, ("out", "in", "all"), what="direction")
    n = G.n
    E = get_engine(engine)
    if into is None:
        t = E.full(n, 1.0, np.float64)
    else:
        into = np.atleast_1d(np.asarray(into, dtype=np.int64 if len(into) == 0 else None))
        ids = np.unique(V.check_vertices(into, n, what="into")) if into.size else np.zeros(0, np.int64)
        t = E.vector_from_coo(ids, np.ones(ids.size), n, dtype=np.float64)
    semiring = "plus_times" if weight else "plus_pair"
    dtype = np.float64 if weight else np.int64
    sides = ["out", "in"] if (G.directed and direction == "all") else [direction if G.directed else "out"]
    d = np.zeros(n, dtype)
    for side in sides:
        A = E.matrix(G, transpose=side == "in")
        d += _ends(E, A, t, semiring, n, dtype)
        if not G.directed and G.self_loops:        # a loop's second end
            d += _ends(E, E.select(A, "diag"), t, semiring, n, dtype)
    return d


def _ends(E, A, t, semiring, n, dtype):
    """``A semiring t`` on the host, absent entries 0."""
    return np.asarray(E.to_numpy(E.mxv(A, t, semiring), fill=0), dtype=dtype)
