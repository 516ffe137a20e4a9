"""The local clustering coefficient (LCC) of LDBC Graphalytics, by triangle sums in plus-pair.

Graphalytics (specification v1.0, section 2.3.5 "Local Clustering Coefficient" and
the pseudo-code of appendix A) defines, with ``N(v)`` the in- and out-neighbours
of ``v`` together (distinct),

``LCC(v) = |{(u, w) : u, w in N(v), (u, w) an edge}| / (|N(v)| (|N(v)| - 1))``

and 0 where ``|N(v)| < 2``.  The numerator counts *ordered* pairs, so an edge
between two neighbours counts once for each direction it exists in.  On an
undirected graph every edge exists both ways, and the coefficient is
``triangles(v) / (d (d - 1) / 2)``: ``networkx.clustering``.  Graphalytics
graphs have no self-loops; here a self-loop is not a neighbour and closes
nothing.

In linear algebra: orient the edges of the symmetrized graph by degree
(:func:`~la_graph.algorithms.triangles.oriented_edges`, ``L`` and ``U = L'``).
Every pair of adjacent neighbours of ``v`` closes a triangle ``v, u, w`` of the
symmetrized graph, and adds the number of directions of the edge ``u - w``
opposite ``v``.  With ``B`` that number on ``L``'s structure,
``B<L> = pair(A, 1) + pair(A', 1)`` (1 or 2: an ``apply`` of ``pair`` to each
and a masked ``ewise_add``), the numerator is
:func:`~la_graph.algorithms.triangles.triangle_sums` with ``B``: three masked
products ``L plus.second B``, ``B plus.first L`` and ``U plus.second B``.
Undirected graphs have ``B = 2`` everywhere: twice the per-vertex triangle
counts, from two ``plus.pair`` products.
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from ._certify import Checker
from ._registry import Cli, algorithm
from .triangles import oriented_edges, triangle_sums, vertex_triangles

__all__ = ["local_clustering_coefficient"]


@algorithm("local_clustering_coefficient",
           cli=Cli("lcc", "the local clustering coefficient of every vertex (LDBC Graphalytics)"),
           networkx=("clustering", "average_clustering"), checker=Checker("check_lcc"), bench=("lcc",), page="algorithms/clustering.md",
           summary="LDBC Graphalytics LCC, directed and undirected (NetworkX's `clustering` on undirected graphs)")
def local_clustering_coefficient(G, *, engine=None):
    """The local clustering coefficient of every vertex, as LDBC Graphalytics defines it.

    ``LCC(v)`` is the number of edges ``(u, w)`` between two neighbours of
    ``v`` over the number of ordered pairs of distinct neighbours,
    ``|N(v)| (|N(v)| - 1)``, and 0 when ``v`` has fewer than two neighbours.
    ``N(v)`` holds the in- and out-neighbours of ``v`` (each once, ``v``
    itself not).

    Parameters
    ----------
    G : Graph
        Directed: an edge between two neighbours counts once per direction it
        exists in (Graphalytics' directed LCC; not ``networkx.clustering``'s
        directed definition).  Undirected: ``triangles(v) / (d (d-1) / 2)``
        with ``d`` the number of neighbours, which is
        ``networkx.clustering(G)``.  Self-loops and weights are ignored;
        duplicate edges count once.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        float64 coefficients in ``[0, 1]``, one per vertex.

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 0, 0, 1], [1, 2, 3, 2])     # a triangle 0-1-2 and a pendant 3
    >>> lg.local_clustering_coefficient(G).round(4).tolist()
    [0.3333, 1.0, 1.0, 0.0]
    >>> D = lg.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 1], directed=True)   # 1 -> 2 and 2 -> 1
    >>> lg.local_clustering_coefficient(D).tolist()      # 0's neighbours 1, 2 are linked both ways
    [1.0, 0.5, 0.5]
    """
    G = V.check_graph(G)
    E = get_engine(engine)
    n = G.n
    S = G.to_undirected()                                    # N(v) = in- and out-neighbours
    loops = np.zeros(n, dtype=np.int64)
    if S.self_loops:
        # a loop counts once whatever its weight (a weight of 5 once made |N(v)| = d - 5)
        diag = E.apply(E.select(E.matrix(S), "diag"), "pair", right=1)
        loops = E.to_numpy(E.reduce_rows(diag, "plus"), fill=0).astype(np.int64)
    d = (S.out_degree - loops).astype(np.float64)            # |N(v)|, v itself left out
    if S.nnz == loops.sum():                                 # no edge between two vertices
        return np.zeros(n)
    if G.directed:
        L, U = oriented_edges(E, S)
        ones = [E.apply(E.matrix(G, transpose=t), "pair", right=1) for t in (False, True)]
        B = E.ewise_add(ones[0], ones[1], "plus", mask=L, structural=True)   # directions of each edge: 1 or 2
        closed = E.to_numpy(triangle_sums(E, L, U, B), consume=True)
    else:
        closed = 2 * E.to_numpy(vertex_triangles(E, S), consume=True)
    pairs = d * (d - 1)
    return np.divide(closed, pairs, out=np.zeros(n), where=pairs > 0)
