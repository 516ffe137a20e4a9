"""Subgraphs around vertices and by core: the vertices found in linear algebra, the subgraph induced by them.

* :func:`k_hop`: the vertices within ``k`` hops of some sources -- a BFS cut
  at level ``k``: ``reached = sources``, then ``k`` times
  ``frontier<!reached> = frontier any.pair A`` and ``reached += frontier``,
  stopping early when the frontier empties.
* :func:`ego_graph`: ``networkx.ego_graph``: the subgraph induced by the
  vertices within ``radius`` hops of one vertex (out-edges, or either way).
* :func:`k_core`: ``networkx.k_core``: the subgraph induced by the vertices
  of core number at least ``k`` (:func:`~la_graph.core_number`), the
  largest core by default.

Each subgraph is :meth:`Graph.subgraph <la_graph.Graph.subgraph>` of the
vertices found: a :class:`~la_graph.graph.Subgraph` ``(graph, vertices)``,
vertex ``i`` of ``graph`` being vertex ``vertices[i]`` of ``G`` (sorted),
weights and self-loops kept.  The extraction runs on the host, where the
Graph lives; the search runs on the engine.
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from .. import verify
from ..engines import get_engine
from ._certify import Checker
from ._registry import Cli, algorithm
from .kcore import core_number
from .steps import step

__all__ = ["k_hop", "ego_graph", "k_core", "hop_reach"]


def _summary(H, ids):
    return {"vertices": int(ids.size), "edges": H.nedges}


def _run_k_hop(args, G, engine):
    """``la-graph run khop``: how many vertices lie within ``--k`` hops of ``--sources`` (or ``--source``)."""
    sources = args.sources if args.sources is not None else [args.source]
    ids = k_hop(G, sources, args.k, engine=engine)
    return {"vertices": int(ids.size)}, {"vertices": ids}, lambda: verify.check_k_hop(G, sources, args.k, ids)


def _run_k_core(args, G, engine):
    """``la-graph run kcore-subgraph``: the ``--k``-core's size (the largest core without ``--k``)."""
    H, ids = k_core(G, args.k, engine=engine)
    return _summary(H, ids), {"vertices": ids}, lambda: verify.check_k_core(G, args.k, H, ids)


@algorithm("k_hop", cli=Cli("khop", "the vertices within --k hops of --sources (or --source)",
                            options=("source", "sources", "k"), defaults={"source": 0, "k": 1}, run=_run_k_hop),
           checker=Checker("check_k_hop", lambda G, r, a: verify.check_k_hop(G, a["sources"], a["k"], r)),
           page="algorithms/subgraph.md", summary="the vertices within k hops: a BFS cut at level k (masked `any.pair`)")
def k_hop(G, sources, k, *, engine=None):
    """The vertices within ``k`` hops of ``sources`` (along out-edges), the sources included.

    Parameters
    ----------
    G : Graph
        Any graph; on a directed graph the hops follow the edges' directions
        (``G.to_undirected()`` for either way).
    sources : int or array_like of int
        One vertex or several (duplicates allowed).
    k : int
        Non-negative; 0 gives the sources.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        int64, sorted: every vertex at most ``k`` hops from a source.

    Examples
    --------
    >>> import la_graph as lg
    >>> P = lg.generators.path(8)
    >>> lg.k_hop(P, 3, 2).tolist()
    [1, 2, 3, 4, 5]
    >>> lg.k_hop(P, [0, 7], 1).tolist()
    [0, 1, 6, 7]
    """
    G = V.check_graph(G)
    sources = np.unique(V.check_vertices(np.atleast_1d(sources), G.n))
    k = V.check_int(k, "k", low=0)
    E = get_engine(engine)
    reached = hop_reach(E, G, sources, k)
    idx, _ = E.to_coo(reached)
    return np.sort(np.asarray(idx, np.int64))


@step("hop_reach")
def hop_reach(E, G, sources, k):
    """The vertices within ``k`` hops of ``sources`` (a numpy int64 array): a bool vector holding them.

    ``frontier<!reached> = frontier any.pair A`` (pushed along out-edges), at
    most ``k`` times, stopping when nothing new is reached.
    """
    n = G.n
    reached = E.vector_from_coo(sources, np.ones(sources.size, bool), n, dtype=bool)
    if not k or not G.nnz:
        return reached
    A = E.matrix(G)
    frontier = E.copy(reached)
    for _ in range(k):
        frontier = E.vxm(frontier, A, "any_pair", mask=reached, structural=True, complement=True)
        if not E.nvals(frontier):
            break
        E.assign(reached, True, mask=frontier, structural=True)
    return reached


@algorithm("ego_graph", networkx=("ego_graph",),
           checker=Checker("check_ego_graph", lambda G, r, a: verify.check_ego_graph(
               G, a["v"], a["radius"], r.graph, r.vertices, undirected=a["undirected"])),
           page="algorithms/subgraph.md", summary="the subgraph induced by the vertices within a radius of one vertex")
def ego_graph(G, v, radius=1, *, undirected=False, engine=None):
    """The subgraph induced by ``v`` and the vertices within ``radius`` hops of it (``networkx.ego_graph``).

    Parameters
    ----------
    G : Graph
        Any graph; the subgraph keeps its weights, self-loops and directions.
    v : int
        The centre.
    radius : int
        Non-negative: hops, every edge counting 1 (NetworkX's ``distance=None``).
    undirected : bool
        On a directed graph, follow edges either way (the subgraph stays directed).
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    Subgraph
        ``(graph, vertices)``: vertex ``i`` of ``graph`` is vertex
        ``vertices[i]`` of ``G`` (sorted int64 ids).

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 4], directed=True)   # 0 -> 1 -> 2 -> 3 -> 4
    >>> lg.ego_graph(G, 2, 1).vertices.tolist()
    [2, 3]
    >>> H, ids = lg.ego_graph(G, 2, 1, undirected=True)
    >>> ids.tolist(), H.nedges
    ([1, 2, 3], 2)
    """
    G = V.check_graph(G)
    v = V.check_vertex(v, G.n, what="v")
    radius = V.check_int(radius, "radius", low=0)
    undirected = V.check_flag(undirected, "undirected")
    ids = k_hop(G.to_undirected() if undirected else G, v, radius, engine=engine)
    return G.subgraph(ids)


@algorithm("k_core", cli=Cli("kcore-subgraph", "the k-core subgraph (--k; default the largest core)",
                             options=("k",), run=_run_k_core),
           networkx=("k_core",),
           checker=Checker("check_k_core", lambda G, r, a: verify.check_k_core(G, a["k"], r.graph, r.vertices)),
           page="algorithms/subgraph.md", summary="the k-core as a subgraph (beside `core_number`); the largest core by default")
def k_core(G, k=None, *, engine=None):
    """The ``k``-core of ``G``: the subgraph induced by the vertices of core number ``k`` or more (``networkx.k_core``).

    Parameters
    ----------
    G : Graph
        Any graph; degrees are :func:`~la_graph.core_number`'s (in- plus
        out-degree on a directed graph, self-loops ignored).  The subgraph
        keeps its weights, self-loops and directions.
    k : int, optional
        Non-negative; default: the largest core number (the main core, as
        NetworkX's default).
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    Subgraph
        ``(graph, vertices)``: vertex ``i`` of ``graph`` is vertex
        ``vertices[i]`` of ``G`` (sorted int64 ids).

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 0, 0, 1, 1, 2, 3], [1, 2, 3, 2, 3, 3, 4])   # K4 with a tail
    >>> H, ids = lg.k_core(G)
    >>> ids.tolist(), H.nedges
    ([0, 1, 2, 3], 6)
    >>> lg.k_core(G, 1).vertices.tolist()
    [0, 1, 2, 3, 4]
    """
    G = V.check_graph(G)
    if k is not None:
        k = V.check_int(k, "k", low=0)
    core = core_number(G, engine=engine)
    if k is None:
        k = int(core.max(initial=0))
    return G.subgraph(core >= k)
