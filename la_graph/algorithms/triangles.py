"""Triangle counting in the plus-pair semiring, over the edges oriented by degree.

The graph is taken as simple and undirected: edge directions, self-loops,
weights and duplicate edges do not count.  Put the vertices in the *degree
order* (ascending degree, ties by id) and orient every edge from its earlier
end to its later one: ``L[u, v]`` holds the edge ``u -> v`` when ``u`` comes
first, and ``U = L'`` the same edges reversed.  This is the strictly lower
triangle of the graph relabelled by descending degree, LAGraph's degree-sorted
relabelling, kept in the original ids (built on the host from the graph's CSR;
relabelling would only move rows, and counts do not depend on the labels).
A triangle ``u, k, v`` (in that order) has the edges ``u -> k``, ``k -> v``
and ``u -> v`` in ``L``.

* **Total** ("Sandia-dot", Wolf et al. 2017): ``C<L> = L plus.pair U'``, and
  ``U' = L``.  ``C[u, v]`` counts the ``k`` with ``u -> k -> v``: every
  triangle once, at its first and last vertex.  The total is ``sum(C)``.
* **Per vertex**: the row sums of ``C`` count each vertex's triangles in which
  it comes first, the column sums those in which it comes last, and the row
  sums of ``D<L> = U plus.pair L`` those in which it is the middle one
  (``D[k, v]`` counts the ``u`` with ``u -> k`` and ``u -> v``).

Why the orientation: a row of ``L`` holds a vertex's later neighbours, which
have at least its degree, so no row has more than ``sqrt(2 m)`` entries, even
at a hub; the products scan only such rows.  The plain identity
``t = (C<A> = A plus.pair A) row sums / 2`` reads both whole neighbourhoods of
every edge, twice: 4 to 10 times the work on skewed graphs (R-MAT, web crawls).

:func:`triangle_sums` weighs each triangle at a vertex by a value on the
opposite edge; the directed local clustering coefficient
(:mod:`la_graph.algorithms.clustering`) counts with it.
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from .. import verify
from ._certify import Checker, host
from ._registry import Cli, algorithm
from .steps import step

__all__ = ["triangles", "triangle_count", "oriented_edges", "triangle_sums", "triangle_total", "vertex_triangles"]


@algorithm("triangle_count", checker=Checker("check_triangles", lambda G, t, a: verify.check_triangles(G, total=t)), bench=("tc",), page="algorithms/triangles.md",
           summary="masked `L plus.pair L` over degree-oriented edges (the total, GAP TC)")
def triangle_count(G, *, engine=None):
    """The number of triangles of ``G`` taken as undirected (the GAP TC kernel).

    ``C<L> = L plus.pair L`` over the edges oriented by degree, summed (see the
    module notes).  la_graph gives the total and the per-vertex counts as two
    functions, not one result holding both, because they cost differently:
    the total is one product over each vertex's later neighbours, the
    per-vertex counts two; a caller who wants the total pays for nothing else.

    Parameters
    ----------
    G : Graph
        Any graph.  Directions, self-loops, weights and duplicate edges are
        ignored: the count is that of the simple undirected graph.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    int
        The number of triangles, each counted once.

    See Also
    --------
    triangles : the number of triangles at each vertex.

    Examples
    --------
    >>> import la_graph as lg
    >>> K4 = lg.Graph.from_edges([0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3])
    >>> lg.triangle_count(K4)
    4
    >>> lg.triangle_count(lg.Graph.from_file(lg.data.path("karate")))
    45
    """
    G = V.check_graph(G).to_undirected()
    E = get_engine(engine)
    if G.nnz == 0:
        return 0
    return triangle_total(E, G)


@step("triangle_total")
def triangle_total(E, S):
    """The triangles of the undirected graph ``S`` (with an edge), each once: ``sum(C<L> = L plus.pair L)``.

    The CPU engine fuses it as one compiled pass marking each vertex's later
    neighbours, the GPU engine as one thread an oriented edge, intersecting the
    two rows of later neighbours.
    """
    L, _ = oriented_edges(E, S, reverse=False)
    C = E.mxm(L, L, "plus_pair", mask=L, structural=True)
    return int(E.reduce(C, "plus"))


@algorithm("triangles",
           cli=Cli("triangles", "triangles at each vertex and in all (the graph taken as undirected)"),
           networkx=("triangles", "transitivity", "square_clustering"), checker=Checker("check_triangles", lambda G, t, a: verify.check_triangles(G, per_vertex=host(t))), page="algorithms/triangles.md",
           summary="the per-vertex counts")
def triangles(G, *, engine=None):
    """The number of triangles at each vertex of ``G`` taken as undirected.

    ``networkx.triangles``: the triangles each vertex belongs to; their sum is
    three times :func:`triangle_count`.  Computed with the edges oriented by
    degree, ``C<L> = L plus.pair L`` and ``D<L> = U plus.pair L`` (see the
    module notes): ``t = row sums of C + column sums of C + row sums of D``.

    Parameters
    ----------
    G : Graph
        Any graph.  Directions, self-loops, weights and duplicate edges are
        ignored: the counts are those of the simple undirected graph.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        int64 counts, one per vertex (0 for a vertex in no triangle).

    See Also
    --------
    triangle_count : the total, at about half the cost.

    Examples
    --------
    >>> import la_graph as lg
    >>> bowtie = lg.Graph.from_edges([0, 0, 1, 2, 2, 3], [1, 2, 2, 3, 4, 4])   # two triangles at 2
    >>> lg.triangles(bowtie).tolist()
    [1, 1, 2, 1, 1]
    >>> int(lg.triangles(bowtie).sum()) // 3 == lg.triangle_count(bowtie)
    True
    """
    G = V.check_graph(G).to_undirected()
    E = get_engine(engine)
    if G.nnz == 0:
        return np.zeros(G.n, dtype=np.int64)
    return E.to_numpy(vertex_triangles(E, G), consume=True).astype(np.int64, copy=False)


@step("vertex_triangles")
def vertex_triangles(E, S):
    """The triangles at each vertex of the undirected graph ``S``: a full int64 vector.

    ``S`` is undirected and has an edge; self-loops close nothing.  The edges
    oriented by degree (:func:`oriented_edges`), then :func:`triangle_sums`.
    The CPU engine fuses it: one compiled pass over the oriented edges,
    marking each vertex's later neighbours.
    """
    L, U = oriented_edges(E, S)
    return triangle_sums(E, L, U)


def oriented_edges(E, G, *, reverse=True):
    """``(L, U)``: the edges of undirected ``G`` oriented by the degree order, on engine ``E``.

    ``L[u, v]`` (bool) for each edge ``{u, v}`` without self-loops, ``u``
    before ``v`` in the order of ascending degree (ties by id); ``U = L'``
    (``None`` unless ``reverse``).  With ``P = diag(pos)``, ``pos`` the place
    of each vertex in that order, ``P any.first A`` holds ``pos[u]`` and
    ``A any.second P`` holds ``pos[v]`` on every edge ``u -> v``; ``L`` keeps
    the edges where the first is less (``U`` where it is greater).
    """
    n = G.n
    pos = np.empty(n, dtype=np.int64)
    pos[np.argsort(G.out_degree, kind="stable")] = np.arange(n, dtype=np.int64)
    ids = np.arange(n, dtype=np.int64)
    P = E.matrix_from_coo(ids, ids, pos, n, n, dtype=np.int64)
    A = E.matrix(G)
    at_u, at_v = E.mxm(P, A, "any_first"), E.mxm(A, P, "any_second")
    L = E.select(E.ewise_mult(at_u, at_v, "lt"), "valueeq", True)
    if not reverse:
        return L, None
    return L, E.select(E.ewise_mult(at_u, at_v, "gt"), "valueeq", True)


def triangle_sums(E, L, U, B=None):
    """For every vertex, the sum over its triangles of ``B`` on the edge opposite it: a full int64 vector.

    ``L`` and ``U`` are :func:`oriented_edges`; ``B`` an int64 matrix with
    ``L``'s structure, or ``None`` for 1 on every edge (then the sums count the
    triangles).  For a triangle ``u, k, v`` in the degree order, ``u``'s
    opposite edge is ``k -> v``, ``k``'s ``u -> v`` and ``v``'s ``u -> k``:

    * ``u``: row sums of ``L plus.second B`` (``B[k, v]``), masked by ``L``;
    * ``v``: column sums of ``B plus.first L`` (``B[u, k]``), masked by ``L``;
    * ``k``: row sums of ``U plus.second B`` (``B[u, v]``), masked by ``L``.

    Without ``B`` the first two are one product, ``L plus.pair L``.
    """
    n = E.size(L)[0]
    t = E.full(n, 0, dtype=np.int64)
    ones = E.full(n, 1, dtype=np.int64)
    if B is None:
        C = E.mxm(L, L, "plus_pair", mask=L, structural=True)             # C[u, v]: the k of u -> k -> v
        E.reduce_rows(C, "plus", out=t, accum="plus")                       # u first
        E.vxm(ones, C, "plus_second", out=t, accum="plus")                  # v last
        D = E.mxm(U, L, "plus_pair", mask=L, structural=True)             # D[k, v]: the u of u -> k, u -> v
        E.reduce_rows(D, "plus", out=t, accum="plus")                       # k in the middle
        return t
    E.reduce_rows(E.mxm(L, B, "plus_second", mask=L, structural=True), "plus", out=t, accum="plus")
    E.vxm(ones, E.mxm(B, L, "plus_first", mask=L, structural=True), "plus_second", out=t, accum="plus")
    E.reduce_rows(E.mxm(U, B, "plus_second", mask=L, structural=True), "plus", out=t, accum="plus")
    return t
