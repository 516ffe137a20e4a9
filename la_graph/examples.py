"""Writing your own algorithm on the operator interface: two worked examples.

Both functions call only the methods of :class:`la_graph.engines.base.Engine`,
so they run unchanged on every engine (``engine="cpu"``, ``"gpu"``,
``"dask"`` or ``"reference"``).  ``docs/primitives.md`` walks through them line by line.
They are small on purpose: la_graph's own algorithms (``lg.pagerank``,
``lg.triangle_count``, ...) are in :mod:`la_graph.algorithms`.

Examples
--------
>>> import la_graph as lg
>>> from la_graph.examples import k_hop_count, average_neighbor_degree
>>> G = lg.Graph.from_file(lg.data.path("karate"))
>>> k_hop_count(G, 0, 1), k_hop_count(G, 0, 2), k_hop_count(G, 0, 3)
(17, 26, 34)
>>> round(float(average_neighbor_degree(G)[0]), 4)
4.3125
"""

from __future__ import annotations

from . import _validation as V
from .engines import get_engine

__all__ = ["k_hop_count", "average_neighbor_degree"]


def k_hop_count(G, source, k, *, engine=None):
    """How many vertices lie within ``k`` hops of ``source``, the source included.

    A breadth-first expansion stopped after ``k`` levels: the frontier moves
    one hop with ``vxm`` in the ``any_pair`` semiring, masked by the
    complement of the vertices already seen.

    Parameters
    ----------
    G : Graph
        Directed (hops follow edges forwards) or undirected.
    source : int
        The vertex to start from.
    k : int
        The number of hops, ``>= 0``.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    int

    Examples
    --------
    >>> import la_graph as lg
    >>> from la_graph.examples import k_hop_count
    >>> path = lg.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 4])      # 0 - 1 - 2 - 3 - 4
    >>> [k_hop_count(path, 2, k) for k in range(4)]
    [1, 3, 5, 5]
    """
    G = V.check_graph(G)
    s = V.check_vertex(source, G.n)
    k = V.check_count(k, "k", low=0)
    E = get_engine(engine)
    A = E.matrix(G)                                  # A[i, j] holds the edge i -> j
    seen = E.vector_from_coo([s], True, G.n, dtype=bool)
    frontier = E.copy(seen)                          # the vertices first reached in the last hop
    for _ in range(k):
        # one hop out of the frontier, written only where `seen` has no entry
        frontier = E.vxm(frontier, A, "any_pair", mask=seen, structural=True, complement=True)
        if E.nvals(frontier) == 0:
            break                                    # nothing new: no later hop finds more
        E.assign(seen, frontier, mask=frontier, structural=True)
    return E.nvals(seen)


def average_neighbor_degree(G, *, engine=None):
    """The mean out-degree of the out-neighbours of every vertex (0 for a vertex without any).

    ``total = A plus.second deg`` adds up, for each vertex, the degrees at the
    far end of its edges; dividing by its own degree (an element-wise product
    that exists only where ``total`` does) gives the mean.

    Parameters
    ----------
    G : Graph
        Directed (out-neighbours and out-degrees) or undirected.  Edge weights
        are ignored; a self-loop makes a vertex its own neighbour, once.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        float64, one value per vertex; ``networkx.average_neighbor_degree``
        on graphs without self-loops.

    Examples
    --------
    >>> import la_graph as lg
    >>> from la_graph.examples import average_neighbor_degree
    >>> star = lg.Graph.from_edges([0, 0, 0], [1, 2, 3], n=5)      # 4 is isolated
    >>> average_neighbor_degree(star).tolist()
    [1.0, 3.0, 3.0, 3.0, 0.0]
    """
    G = V.check_graph(G)
    E = get_engine(engine)
    A = E.matrix(G)
    deg = E.apply(E.degree(G), "times", right=1.0)   # out-degrees as float64, a full vector
    total = E.mxv(A, deg, "plus_second")             # total[i] = sum over edges i -> j of deg[j]
    mean = E.ewise_mult(total, deg, "div")           # only where i has an edge, so deg[i] > 0
    return E.to_numpy(mean, fill=0.0)                # no entry: no neighbour, mean 0
