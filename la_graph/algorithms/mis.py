"""Maximal independent set by Luby's algorithm (1986) with counter-based random priorities.

Every vertex gets a priority: a 63-bit splitmix hash of ``(seed, vertex id)``
(:func:`la_graph._random.vertex_priorities`; one-to-one, so no two vertices
tie), the same bits on every engine, so one seed gives one set everywhere and
in every run.  Isolated vertices join at once; the other vertices are
candidates.  One round (the step ``luby_round``):

* ``best = A max.second prio`` over the candidates -- the largest priority
  among each candidate's candidate neighbours;
* the candidates whose priority beats ``best`` (or with no candidate
  neighbour) join the set;
* they and their neighbours (``A any.pair new``) stop being candidates;

until no candidate is left.  The candidate of largest priority always joins,
so every round makes progress; Luby's analysis gives O(log n) rounds expected.
Self-loops are ignored: a loop does not make a vertex its own neighbour, so a
vertex whose only edge is a loop is isolated and joins.

Steps an engine may fuse (:mod:`la_graph.algorithms.steps`):
``vertex_priorities`` (the GPU engine hashes on the device), ``luby`` (the whole
algorithm; the GPU engine lets vertices decide in any order, which gives the same
set) and ``luby_round`` (one round).
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from .. import _random
from .._random import check_seed
from ._certify import Checker
from ._registry import Cli, algorithm
from .steps import step

__all__ = ["maximal_independent_set", "vertex_priorities", "luby", "luby_round"]


@algorithm("maximal_independent_set",
           cli=Cli("mis", "a maximal independent set (--seed)", options=("seed",), defaults={"seed": 0}),
           networkx=("maximal_independent_set",), checker=Checker("check_mis"), bench=("mis",), page="algorithms/mis.md",
           summary="Luby's algorithm with seeded hash priorities (the greedy set of the priorities: the GPU engine decides it in one kernel over a shrinking worklist)")
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
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.
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
    members = luby(E, A, vertex_priorities(E, n, seed))
    return (E.to_device if output == "device" else E.to_numpy)(members, fill=False, consume=True)


@step("vertex_priorities")
def vertex_priorities(E, n, seed):
    """Luby's priorities: a full int64 vector of ``n`` distinct non-negative hashes of ``(seed, id)``."""
    return E.vector_from_numpy(_random.vertex_priorities(n, seed))


@step("luby")
def luby(E, A, prio):
    """Luby's algorithm with priorities ``prio``; returns the set, a bool vector (True: member).

    ``A`` is symmetric without self-loops, ``prio`` a full int64 vector of
    distinct non-negative priorities.  Isolated vertices join at once; the
    others are candidates, holding their priority, and rounds
    (:func:`luby_round`) run until no candidate is left.

    With fixed priorities the rounds build the greedy set of the priority
    order: a vertex joins exactly when none of its higher-priority neighbours
    does (Blelloch, Fineman & Shun, 2012).  An engine may therefore let the
    vertices decide in any order -- the GPU engine lets each see its
    neighbours' decisions at once, over a worklist of the undecided -- and
    the set is the same.
    """
    n = E.size(prio)
    linked = E.mxv(A, E.full(n, True), "any_pair")  # vertices with a neighbour
    members = E.apply(E.full(n, True), "identity", mask=linked, structural=True, complement=True)
    cand = E.apply(prio, "identity", mask=linked, structural=True)
    while E.nvals(cand):
        cand = luby_round(E, A, cand, members)
    return members


@step("luby_round")
def luby_round(E, A, cand, members):
    """One round of Luby's algorithm; returns the candidates left, and adds the joiners to ``members``.

    ``cand`` holds each candidate's priority (distinct, non-negative);
    ``A`` is symmetric without self-loops.  A candidate joins when its
    priority beats every candidate neighbour's (``best = A max.second
    cand`` over the candidates; -1 where none); the joiners and their
    neighbours (``A any.pair new``) stop being candidates.
    """
    n = E.size(cand)
    best = E.full(n, -1, dtype=np.int64)
    E.mxv(A, cand, "max_second", out=best, mask=cand, structural=True, accum="max")
    new = E.select(E.ewise_mult(cand, best, "gt"), "valueeq", True)
    E.assign(members, True, mask=new, structural=True)
    gone = E.mxv(A, new, "any_pair", mask=cand, structural=True)
    E.assign(gone, True, mask=new, structural=True)
    return E.apply(cand, "identity", mask=gone, structural=True, complement=True)
