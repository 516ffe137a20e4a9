"""Core numbers (k-core decomposition) by peeling, as sparse products over the removed vertices.

The ``k``-core is the largest subgraph whose every vertex has degree at least
``k`` in it; a vertex's core number is the largest ``k`` whose ``k``-core holds
it.  Peeling finds them all, a level at a time (Batagelj & Zaversnik's order):
``deg`` is a full vector of the remaining degrees, a removed vertex's set to
``GONE`` (far above any degree, so no minimum or selection sees it again).
For ``k`` from the smallest degree upward::

    R = select(deg <= k)                  the vertices of the k-shell found first
    repeat while R is not empty:
        core<R> = k ;  deg<R> = GONE        they leave the graph
        lost = R plus.pair S                each vertex's edges into R (pushed from R's rows)
        deg -= lost
        R = select(deg<lost> <= k)          only a vertex that lost an edge can drop to k

then ``k = max(k, min(deg))`` -- empty levels are skipped -- until every vertex
is removed.  A round's work is the removed vertices' edges and the vertices
they touch, so the decomposition reads each edge a constant number of times;
each level also scans ``deg`` twice (its minimum, its first selection).  The
number of rounds grows with the longest chain of vertices peeled one after
another (a path of ``n`` vertices takes ``n / 2``).

Degrees are those of ``networkx.core_number``: on a directed graph in-degree
plus out-degree, an edge each way counting twice.  There ``S = A + A'`` holds
the number of edges between two vertices (1 or 2, built once with
``apply(pair)`` and ``ewise_add(plus)``) and a round is ``R plus.second S``;
an undirected graph's ``S`` is ``A`` itself.  Self-loops are ignored
(NetworkX refuses graphs with self-loops; a loop would add 2 to a degree
without linking the vertex to any other vertex of a core).  Duplicate edges
are one edge (Graph merges them), weights are ignored.

One step an engine may fuse (:mod:`la_graph.algorithms.steps`): ``core_peel``,
the whole decomposition; the CPU engine runs it as Batagelj and Zaversnik's
bucket algorithm, one compiled O(n + m) pass (its peeling rounds above cost a
few engine calls each: 1,036 rounds on uk-2007-05_100000).  The GPU engine runs
these same levels and rounds in one persistent launch (``la_graph/engines/gpu/cuda/kcore.cu``), grid
barriers between them and no host round trip: a neighbour's degree falls by an
atomic decrement, the one that takes it to ``k`` queues it for the next round.
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from ._certify import Checker
from ._registry import Cli, algorithm
from .steps import step

__all__ = ["core_number", "core_peel"]

#: the degree of a removed vertex: above any core number even after it loses all its edges
_GONE = np.iinfo(np.int64).max // 2


@algorithm("core_number", cli=Cli("kcore", "the core number of every vertex (k-core decomposition)"),
           networkx=("core_number", "k_shell", "k_crust", "k_corona"), checker=Checker("check_core_number"), bench=("kcore",), page="algorithms/kcore.md",
           summary="k-core decomposition by peeling with masked SpMV (NetworkX's degrees on directed graphs)")
def core_number(G, *, engine=None):
    """The core number of every vertex (k-core decomposition by peeling).

    Parameters
    ----------
    G : Graph
        Undirected, or directed (a vertex's degree is then its in-degree plus
        its out-degree, as ``networkx.core_number`` counts it).  Self-loops are
        ignored, where NetworkX refuses the graph; weights are ignored.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

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
    if G.nnz == 0:
        return np.zeros(G.n, dtype=np.int64)
    return E.to_numpy(core_peel(E, G), consume=True).astype(np.int64, copy=False)


@step("core_peel")
def core_peel(E, G):
    """The core numbers of ``G``'s vertices (a full int64 vector) by peeling (the module notes).

    The CPU engine runs it as Batagelj and Zaversnik's bucket algorithm in
    one compiled pass over the edges.
    """
    n = G.n
    core = E.full(n, 0, dtype=np.int64)
    A = E.matrix(G)
    if G.self_loops:
        A = E.select(A, "offdiag")
    if G.directed:   # S[u, v]: the edges between u and v, 1 or 2 (both ways): one product per round
        AT = E.matrix(G, transpose=True)
        if G.self_loops:
            AT = E.select(AT, "offdiag")
        S = E.ewise_add(E.apply(A, "pair", right=1), E.apply(AT, "pair", right=1), "plus")
        counted, pushed = "plus_first", "plus_second"   # the multiply reads S's counts
    else:
        S, counted, pushed = A, "plus_pair", "plus_pair"
    deg = E.full(n, 0, dtype=np.int64)                  # degrees; a removed vertex's is _GONE
    E.mxv(S, E.full(n, 1, dtype=np.int64), counted, out=deg, accum="plus")
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
            lost = E.vxm(R, S, pushed)
            E.apply(lost, "identity", out=deg, accum="minus")
            # only a vertex that lost an edge can fall to k
            R = E.select(E.ewise_mult(deg, lost, "first"), "valuele", k)
    return core
