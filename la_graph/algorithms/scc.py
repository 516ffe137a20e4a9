"""Strongly connected components: trimming, forward-backward reachability, min-label coloring.

Three steps (:mod:`la_graph.algorithms.steps`: each written below in
primitives; the CPU engine runs each as one compiled loop, the GPU engine each
as one launch of a persistent CUDA kernel, ``la_graph/engines/gpu/cuda/scc.cu``), working on
``labels``, a vector with an entry for every vertex already assigned:

1. **Trim** (``scc_trim``): a vertex with no unassigned in-neighbour or none
   out (``A any.pair 1`` and ``1 any.pair A`` over the unassigned vertices,
   self-loops aside) is an SCC of its own; repeat until none is left.  This
   takes the sources, sinks and DAG fringes that make up most of the SCCs of
   web and social graphs.
2. **Forward-backward** (``scc_fwbw``, Fleischer, Hendrickson & Pinar 2000;
   Coppersmith et al. 2005): the vertices reachable from a pivot (the one of
   largest in-degree x out-degree) both forward on ``A`` and backward on ``A'``
   are its SCC, usually the giant one.  (No second trim: on web and R-MAT
   graphs it found nothing after this step, and coloring takes what it would.)
3. **Coloring** (``scc_color``, Orzan 2004; LAGraph's experimental
   LAGraph_scc): every unassigned vertex takes the least priority of the
   vertices that reach it (min-first propagation to a fixed point); the root
   of each color -- its own priority -- collects its SCC by backward
   reachability within its color.  Every round assigns at least one SCC per
   color; rounds repeat until all are assigned (one engine call).  Priorities are a fixed random
   permutation (a splitmix64 hash of the id), not the ids themselves: a chain
   of SCCs whose ids grow along the chain then needs about 2 sqrt(k) rounds for
   k SCCs instead of k.  The step's result is unique (every vertex left gets
   its SCC's smallest id), and the CPU engine reaches it by Tarjan's algorithm
   over the vertices left, in linear time (coloring is quadratic on a chain of
   small SCCs: no colour has more than one root).

All three together are the step ``scc_labels``, which the CPU engine fuses
into one Tarjan pass over the whole graph (Afforest's union-find where every
arc has its reverse: the SCCs are then the weak components), and the GPU
engine into one kernel launch (which also contracts the components of mutual
edges and trims the graph of them by pointer jumping: a chain of small SCCs
then takes log2 sweeps).

Each SCC is labelled by its smallest vertex id, as connected components are.
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from .._random import vertex_ranks
from ._certify import Checker
from ._registry import Cli, algorithm
from .connected_components import connected_components
from .steps import step

__all__ = ["strongly_connected_components", "scc_labels", "scc_trim", "scc_fwbw", "scc_color"]


@algorithm("strongly_connected_components", cli=Cli("scc", "strongly connected components"),
           networkx=("strongly_connected_components", "number_strongly_connected_components", "is_strongly_connected",
                     "condensation", "is_directed_acyclic_graph"), checker=Checker("check_scc"), bench=("scc",),
           page="algorithms/scc.md",
           summary="trim, forward-backward and colouring (max-second propagation); the CPU engine finishes with Tarjan's algorithm (linear)")
def strongly_connected_components(G, *, engine=None, output="numpy"):
    """Label the strongly connected components of a directed graph.

    Parameters
    ----------
    G : Graph
        Directed.  An undirected graph's strong components are its connected
        components: they are returned (computed by
        :func:`~la_graph.connected_components`).  Self-loops and duplicate
        edges do not change the answer.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.
    output : {"numpy", "device"}
        ``"device"`` leaves the labels where the engine computed them (a CuPy
        array on the GPU engine; numpy on the CPU).

    Returns
    -------
    numpy.ndarray (or cupy.ndarray with ``output="device"`` on the GPU)
        ``labels[v]`` = the smallest vertex id in ``v``'s strong component (int64).

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 1, 2, 2, 3, 4], [1, 2, 0, 3, 4, 3], n=6, directed=True)
    >>> lg.strongly_connected_components(G).tolist()
    [0, 0, 0, 3, 3, 5]
    """
    G = V.check_graph(G)
    V.check_choice(output, {"numpy", "device"}, what="output")
    if not G.directed:
        return connected_components(G, engine=engine, output=output)
    E = get_engine(engine)
    n = G.n
    labels = scc_labels(E, G, E.hint(E.vector(n, np.int64), "dense"))
    return (E.to_device if output == "device" else E.to_numpy)(labels, fill=-1, consume=True)  # full by now


@step("scc_labels")
def scc_labels(E, G, labels):
    """All three steps: every vertex of ``G`` gets its SCC's smallest id in ``labels`` (empty); returns ``labels``.

    The CPU engine fuses it: Tarjan's algorithm over the whole graph, one
    linear pass (what its ``scc_color`` does with the vertices left), up to
    a million vertices; beyond, where a giant SCC's two searches beat
    Tarjan's depth-first walk through it, it declines (the profiler shows it)
    and these steps run.  A graph whose every arc has its reverse it labels
    by Afforest's union-find over its (symmetric) CSR, at any size.
    """
    n = G.n
    done = scc_trim(E, G, labels)
    if done < n:
        pivot = _pivot(E, G, labels)
        done += scc_fwbw(E, G, pivot, labels)
    if done < n:
        scc_color(E, G, 0, labels)  # rounds until all are labelled
    return labels


def _pivot(E, G, labels):
    """The unlabelled vertex of largest in-degree x out-degree (the smallest such id)."""
    score = E.ewise_mult(E.degree(G), E.degree(G, transpose=True), "times", mask=labels, structural=True,
                         complement=True)
    best = E.select(score, "valueeq", E.reduce(score, "max"))
    return int(E.reduce(E.ewise_mult(best, E.iota(G.n), "second"), "min"))


@step("scc_trim")
def scc_trim(E, G, labels):
    """Trim, in place: label every unlabelled vertex with no unlabelled in- or out-neighbour by its own id.

    Repeats until no such vertex is left (self-loops do not count as
    neighbours); such a vertex is an SCC of its own.  Returns the number of
    vertices labelled.
    """
    A = E.select(E.matrix(G), "offdiag") if G.self_loops else E.matrix(G)
    ids = E.iota(G.n)
    total = 0
    while True:
        active = E.apply(ids, "one", mask=labels, structural=True, complement=True)
        has_out = E.mxv(A, active, "any_pair", mask=active, structural=True)
        has_both = E.vxm(active, A, "any_pair", mask=has_out, structural=True)
        trimmed = E.apply(active, "one", mask=has_both, structural=True, complement=True)
        k = E.nvals(trimmed)
        if k == 0:
            return total
        E.assign(labels, ids, mask=trimmed, structural=True)
        total += k


@step("scc_fwbw")
def scc_fwbw(E, G, pivot, labels):
    """Label the SCC of unlabelled vertex ``pivot``, in place; returns its size.

    Forward reachability from ``pivot`` among the unlabelled vertices
    (``q<!seen> = q any.pair A``), then backward reachability
    (``q<!seen> = A any.pair q``) within the forward set; the vertices
    found both ways get their smallest id.
    """
    n = G.n
    A = E.matrix(G)
    ids = E.iota(n)
    q = E.vector_from_coo([pivot], True, n, dtype=bool)
    seen = E.apply(labels, "one")
    E.assign(seen, 1, mask=q, structural=True)
    while E.nvals(q):
        q = E.vxm(q, A, "any_pair", mask=seen, structural=True, complement=True)
        E.assign(seen, 1, mask=q, structural=True)
    forward = E.apply(seen, "one", mask=labels, structural=True, complement=True)
    seen = E.apply(E.full(n, 1, dtype=np.int64), "one", mask=forward, structural=True, complement=True)
    q = E.vector_from_coo([pivot], True, n, dtype=bool)
    scc = E.copy(q)
    E.assign(seen, 1, mask=q, structural=True)
    while E.nvals(q):
        q = E.mxv(A, q, "any_pair", mask=seen, structural=True, complement=True)
        E.assign(seen, 1, mask=q, structural=True)
        E.assign(scc, q, mask=q, structural=True)
    smallest = E.reduce(E.ewise_mult(scc, ids, "second"), "min")
    E.assign(labels, smallest, mask=scc, structural=True)
    return E.nvals(scc)


@step("scc_color")
def scc_color(E, G, seed, labels):
    """Min-label (coloring) rounds until every vertex is labelled, in place; returns the number labelled.

    The priorities are ``vertex_ranks(n, seed)``, a random permutation of
    ``0..n-1`` (:mod:`la_graph._random`).  ``labels`` holds whole SCCs.
    One round: every unlabelled vertex takes the smallest priority among
    the unlabelled vertices that reach it (``c = min(c, c min.first A)`` to
    a fixed point); a vertex whose color is its own priority is the root of
    its color class, and the vertices of that class that reach it backward
    (``q = A max.second q``, kept where the color matches) form the root's
    SCC.  Each such SCC gets its smallest id.  The unlabelled vertex of least
    priority is always a root, so every round labels at least one SCC.
    """
    prio = E.vector_from_numpy(vertex_ranks(G.n, seed))
    total = 0
    while E.nvals(labels) < G.n:
        total += _scc_color_round(E, G, prio, labels)
    return total


def _scc_color_round(E, G, prio, labels):
    """One round of :func:`scc_color`; returns the number of vertices labelled."""
    n = G.n
    A = E.matrix(G)
    ids = E.iota(n)
    c = E.apply(prio, "identity", mask=labels, structural=True, complement=True)
    while True:
        before = E.copy(c)
        E.vxm(c, A, "min_first", out=c, mask=c, structural=True, accum="min")
        if E.isequal(before, c):
            break
    q = E.apply(c, "identity", mask=E.ewise_mult(c, prio, "eq"))  # the roots, holding their colors
    scc = E.copy(q)
    while E.nvals(q):
        t = E.mxv(A, q, "max_second", mask=scc, structural=True, complement=True)
        q = E.apply(c, "identity", mask=E.ewise_mult(t, c, "eq"))
        E.assign(scc, q, mask=q, structural=True)
    # smallest id of each root's SCC, scattered by color, gathered back
    color = E.full(n, 0, dtype=np.int64)
    E.assign(color, scc, mask=scc, structural=True)
    member = E.full(n, n, dtype=np.int64)
    E.assign(member, ids, mask=scc, structural=True)
    smallest = E.full(n, n, dtype=np.int64)
    E.scatter(smallest, color, member, dup="min", accum="min")
    E.assign(labels, E.extract(smallest, color, mask=scc, structural=True), mask=scc, structural=True)
    return E.nvals(scc)
