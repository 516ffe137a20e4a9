"""Writing your own algorithm on the operator interface: two worked examples.

Both functions call only the methods of :class:`la_graph.engines.base.Engine`,
so they run unchanged on the CPU and the GPU engine (``engine="cpu"`` or
``"gpu"``).  ``docs/primitives.md`` walks through them line by line.

Examples
--------
>>> import la_graph as lg
>>> from la_graph.examples import pagerank, triangle_count
>>> G = lg.Graph.from_file(lg.data.path("karate"))
>>> triangle_count(G)
45
>>> int(pagerank(G).argmax())
33
"""

from __future__ import annotations

import numpy as np

from . import _validation as V
from .engines import get_engine

__all__ = ["pagerank", "triangle_count"]


def pagerank(G, *, damping=0.85, tol=1e-9, max_iter=100, engine=None):
    """PageRank of every vertex, by power iteration in the plus-second semiring.

    Parameters
    ----------
    G : Graph
        Directed, or undirected (each edge then links both ways).  Edge weights
        are ignored.
    damping : float
        Probability of following an edge rather than jumping to a random vertex.
    tol : float
        Stop once the ranks change by less than ``tol`` in L1 norm ...
    max_iter : int
        ... or after this many iterations.
    engine : str, optional
        ``"cpu"`` or ``"gpu"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        float64 ranks summing to 1.  A vertex without out-edges (dangling)
        hands its rank to every vertex evenly, as networkx.pagerank does.

    Examples
    --------
    >>> import la_graph as lg
    >>> from la_graph.examples import pagerank
    >>> cycle = lg.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True)
    >>> pagerank(cycle).round(4).tolist()
    [0.3333, 0.3333, 0.3333]
    >>> star = lg.Graph.from_edges([1, 2, 3], [0, 0, 0], directed=True)   # 0 is dangling
    >>> pagerank(star).round(4).tolist()
    [0.542, 0.1527, 0.1527, 0.1527]
    """
    G = V.check_graph(G)
    E = get_engine(engine)
    n = G.n
    if n == 0:
        return np.zeros(0)
    AT = E.matrix(G, transpose=True)                 # AT[j, k] holds the edge k -> j
    deg = E.degree(G)                                # out-degrees: a full int64 vector
    # damping / out-degree, only where the out-degree is nonzero (deg as a value mask)
    scale = E.apply(E.apply(deg, "times", right=1.0), "minv", mask=deg)
    scale = E.apply(scale, "times", right=damping)
    r = E.full(n, 1.0 / n)
    for _ in range(max_iter):
        # the rank held by dangling vertices: r where deg is 0 (the complemented value mask)
        dangling = E.reduce(E.apply(r, "identity", mask=deg, complement=True), "plus")
        w = E.ewise_mult(r, scale, "times")          # damping * r[k] / deg[k]
        r_new = E.full(n, (1.0 - damping + damping * dangling) / n)
        E.mxv(AT, w, "plus_second", out=r_new, accum="plus")   # r_new[j] += sum over k -> j of w[k]
        change = E.reduce(E.apply(E.ewise_add(r_new, r, "minus"), "abs"), "plus")
        r = r_new
        if change < tol:
            break
    return E.to_numpy(r)


def triangle_count(G, *, engine=None):
    """Number of triangles of ``G`` taken as undirected; self-loops are ignored.

    With ``L`` the strictly lower and ``U`` the strictly upper triangle of the
    adjacency matrix, ``C<L> = L plus.pair U`` counts, for every edge ``i > j``,
    the vertices ``k < j`` adjacent to both: each triangle once, at its two
    largest vertices.

    Parameters
    ----------
    G : Graph
        Any graph; a directed one counts the triangles of its undirected version.
    engine : str, optional
        ``"cpu"`` or ``"gpu"``; default: the current engine.

    Returns
    -------
    int

    Examples
    --------
    >>> import la_graph as lg
    >>> from la_graph.examples import triangle_count
    >>> K4 = lg.Graph.from_edges([0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3])
    >>> triangle_count(K4)
    4
    """
    G = V.check_graph(G).to_undirected()
    E = get_engine(engine)
    A = E.matrix(G)
    L = E.select(A, "tril", -1)                      # edges i -> k with k < i
    U = E.select(A, "triu", 1)                       # edges k -> j with k < j
    C = E.mxm(L, U, "plus_pair", mask=L, structural=True)
    return int(E.reduce(C, "plus"))
