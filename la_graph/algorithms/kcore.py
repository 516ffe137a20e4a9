"""Core numbers (k-core decomposition) by peeling, as masked sparse products.

The ``k``-core is the largest subgraph whose every vertex has degree at least
``k`` in it; a vertex's core number is the largest ``k`` whose ``k``-core holds
it.  Peeling finds them all (Batagelj & Zaversnik's order, a level at a time):
``deg`` holds the degree of every vertex still in the graph (a sparse vector:
the removed vertices have no entry).  For ``k`` from the smallest degree
upward, repeat::

    R = select(deg <= k)                    the vertices to remove at this level
    core<R> = k ; deg<!R> = deg             (they leave the graph)
    deg -= (A plus.pair R)<deg>             each remaining vertex loses its edges into R

until ``R`` is empty, then take for ``k`` the smallest degree left (empty levels
are skipped) -- until no vertex is left.  One removal round is a masked
matrix-vector product over the removed vertices' edges only, so the whole
decomposition touches each edge a constant number of times; the number of
rounds grows with the longest chain of vertices peeled one after another (a
path of ``n`` vertices takes ``n / 2``).

Degrees are those of ``networkx.core_number``: on a directed graph in-degree
plus out-degree (an edge each way counts twice, and removing ``v`` takes both
from each neighbour: ``A plus.pair R + A' plus.pair R``).  Self-loops are
ignored (NetworkX refuses graphs with self-loops; a loop would add 2 to a
degree without linking to any other vertex of the core).  Duplicate edges are
one edge (Graph merges them), weights are ignored.
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from ..engines import get_engine

__all__ = ["core_number"]

#: the degree of a removed vertex: above any core number even after it loses all its edges
_GONE = np.iinfo(np.int64).max // 2


def core_number(G, *, engine=None):
    """The core number of every vertex (k-core decomposition by peeling).

    Parameters
    ----------
    G : Graph
        Undirected, or directed (a vertex's degree is then its in-degree plus
        its out-degree, as ``networkx.core_number`` counts it).  Self-loops are
        ignored, where NetworkX refuses the graph; weights are ignored.
    engine : str, optional
        ``"cpu"`` or ``"gpu"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        int64, shape ``(n,)``: ``core[v]``, the largest ``k`` such that ``v``
        is in the ``k``-core (the largest subgraph of minimum degree ``k``);
        0 for isolated vertices.

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 0, 0, 1, 1, 2, 3], [1, 2, 3, 2, 3, 3, 4], n=6)   # K4 with a tail
    >>> lg.core_number(G).tolist()
    [3, 3, 3, 3, 1, 0]
    >>> D = lg.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True)               # a directed cycle
    >>> lg.core_number(D).tolist()
    [2, 2, 2]
    """
    G = V.check_graph(G)
    E = get_engine(engine)
    n = G.n
    core = E.full(n, 0, dtype=np.int64)
    if G.nnz == 0:
        return E.to_numpy(core)
    A = E.matrix(G)
    AT = E.matrix(G, transpose=True) if G.directed else None
    if G.self_loops:
        A = E.select(A, "offdiag")
        AT = E.select(AT, "offdiag") if AT is not None else None
    deg = E.full(n, 0, dtype=np.int64)                  # degrees; a removed vertex's is _GONE
    E.mxv(A, E.full(n, True), "plus_pair", out=deg, accum="plus")
    if AT is not None:
        E.mxv(AT, E.full(n, True), "plus_pair", out=deg, accum="plus")
    left, k = n, 0
    while left:
        k = max(k, E.reduce(deg, "min"))                 # skip the empty levels
        R = E.select(deg, "valuele", k)
        while E.nvals(R):
            left -= E.nvals(R)
            E.assign(core, k, mask=R, structural=True)
            E.assign(deg, _GONE, mask=R, structural=True)   # out of every later minimum and selection
            if not left:
                break
            # every vertex loses its edges into R: pushed from R's rows, so the work is R's edges
            # (a removed vertex loses some too: its degree stays far above any k)
            lost = E.vxm(R, A, "plus_pair")
            if AT is not None:
                E.vxm(R, AT, "plus_pair", out=lost, accum="plus")
            E.apply(lost, "identity", out=deg, accum="minus")
            # only a vertex that lost an edge can fall to k
            R = E.select(E.ewise_mult(deg, lost, "first"), "valuele", k)
    return E.to_numpy(core)
    A = E.matrix(G)
    AT = E.matrix(G, transpose=True) if G.directed else None
    if G.self_loops:
        A = E.select(A, "offdiag")
        AT = E.select(AT, "offdiag") if AT is not None else None
    deg = E.full(n, 0, dtype=np.int64)                 # degrees of the remaining vertices
    E.mxv(A, E.full(n, True), "plus_pair", out=deg, accum="plus")
    if AT is not None:
        E.mxv(AT, E.full(n, True), "plus_pair", out=deg, accum="plus")
    alive = E.full(n, True)
    left, k = n, 0
    while left:
        k = max(k, E.reduce(deg, "min"))                 # skip the empty levels
        R = E.select(deg, "valuele", k)
        while E.nvals(R):
            left -= E.nvals(R)
            E.assign(core, k, mask=R, structural=True)
            E.assign(alive, False, mask=R, structural=True)
            E.assign(deg, _GONE, mask=R, structural=True)   # out of every later minimum and selection
            if not left:
                break
            # each remaining vertex loses its edges into R: pushed from R's rows, so the work is R's edges
            lost = E.vxm(R, A, "plus_pair", mask=alive)
            if AT is not None:   # (not accumulated in the product: SuiteSparse 9.4.5 can crash on accum + value mask)
                lost = E.ewise_add(lost, E.vxm(R, AT, "plus_pair", mask=alive), "plus")
            E.apply(lost, "identity", out=deg, accum="minus")
            # only a vertex that lost an edge can fall to k
            R = E.select(E.ewise_mult(deg, lost, "first"), "valuele", k)
    return E.to_numpy(core)
    A = E.matrix(G)
    AT = E.matrix(G, transpose=True) if G.directed else None
    if G.self_loops:
        A = E.select(A, "offdiag")
        AT = E.select(AT, "offdiag") if AT is not None else None
    ones = E.full(n, True)
    deg = E.mxv(A, ones, "plus_pair")                    # degrees; a vertex without edges has no entry
    if AT is not None:
        E.mxv(AT, ones, "plus_pair", out=deg, accum="plus")
    # the vertices without an edge are 0-cores, already: peel the rest
    k = 0
    while E.nvals(deg):
        k = max(k, E.reduce(deg, "min"))                 # skip the empty levels
        while True:
            R = E.select(deg, "valuele", k)
            if E.nvals(R) == 0:
                break
            E.assign(core, k, mask=R, structural=True)
            deg = E.apply(deg, "identity", mask=R, structural=True, complement=True)
            if E.nvals(deg) == 0:
                break
            lost = E.mxv(A, R, "plus_pair", mask=deg, structural=True)
            if AT is not None:
                E.mxv(AT, R, "plus_pair", mask=deg, structural=True, out=lost, accum="plus")
            deg = E.ewise_add(deg, lost, "minus")
    return E.to_numpy(core)
