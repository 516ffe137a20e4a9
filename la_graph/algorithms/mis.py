"""Maximal independent set by Luby's algorithm (1986) with counter-based random priorities.

Every vertex gets a priority: its rank under a splitmix64 hash of
``(seed, vertex id)`` (ties broken by id), computed on the host, so one seed
gives one set on every engine and in every run.  Isolated vertices join at
once; the other vertices are candidates.  One round:

* ``best = A max.second prio`` over the candidates -- the largest priority
  among each candidate's candidate neighbours;
* the candidates whose priority beats ``best`` (or with no candidate
  neighbour) join the set;
* they and their neighbours (``A any.pair new``) stop being candidates;

until no candidate is left.  The candidate of largest priority always joins,
so every round makes progress; Luby's analysis gives O(log n) rounds expected.
Self-loops are ignored: a loop does not make a vertex its own neighbour, so a
vertex whose only edge is a loop is isolated and joins.
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from ._random import check_seed, vertex_ranks

__all__ = ["maximal_independent_set"]


def maximal_independent_set(G, seed=0, *, engine=None, output="numpy"):
    """A maximal independent set of an undirected graph (Luby's algorithm).

    Parameters
    ----------
    G : Graph
        Undirected (a directed graph is an error: independence is defined on
        undirected edges; use ``G.to_undirected()``).  Self-loops are ignored.
    seed : int
        Non-negative; the random priorities are a hash of ``(seed, vertex id)``:
        one seed gives the same set on every engine and run, other seeds give
        other sets.
    engine : str, optional
        ``"cpu"`` or ``"gpu"``; default: the current engine.
    output : {"numpy", "device"}
        ``"device"`` leaves the mask where the engine computed it (a CuPy array
        on the GPU engine; numpy on the CPU).

    Returns
    -------
    numpy.ndarray of bool, shape (n,)
        ``mask[v]`` is True when ``v`` is in the set.

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.generators.path(6)
    >>> mask = lg.maximal_independent_set(G, seed=1)
    >>> lg.verify.check_mis(G, mask)
    >>> lg.maximal_independent_set(lg.Graph.from_edges([0], [1], n=4)).tolist()
    [True, False, True, True]
    """
    G = V.check_graph(G, undirected=True)
    seed = check_seed(seed)
    V.check_choice(output, {"numpy", "device"}, what="output")
    E = get_engine(engine)
    n = G.n
    A = E.select(E.matrix(G), "offdiag") if G.self_loops else E.matrix(G)
    prio = E.vector_from_numpy(vertex_ranks(n, seed))
    linked = E.mxv(A, E.full(n, True), "any_pair")  # vertices with a neighbour
    members = E.apply(E.full(n, True), "identity", mask=linked, structural=True, complement=True)
    cand = E.apply(prio, "identity", mask=linked, structural=True)
    while E.nvals(cand):
        best = E.full(n, -1, dtype=np.int64)
        E.mxv(A, cand, "max_second", out=best, mask=cand, structural=True, accum="max")
        new = E.select(E.ewise_mult(cand, best, "gt"), "valueeq", True)
        E.assign(members, True, mask=new, structural=True)
        gone = E.mxv(A, new, "any_pair", mask=cand, structural=True)
        E.assign(gone, True, mask=new, structural=True)
        cand = E.apply(cand, "identity", mask=gone, structural=True, complement=True)
    return (E.to_device if output == "device" else E.to_numpy)(members, fill=False)
