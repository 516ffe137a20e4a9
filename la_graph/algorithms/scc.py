"""Strongly connected components: trimming, forward-backward reachability, min-label coloring.

Three steps, each an engine method (``engines/base.py`` holds their plain
versions in primitives; the CPU engine runs each as one compiled loop), working
on ``labels``, a vector with an entry for every vertex already assigned:

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
   k SCCs instead of k.

Each SCC is labelled by its smallest vertex id, as connected components are.
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from ._random import vertex_ranks
from .connected_components import connected_components

__all__ = ["strongly_connected_components"]


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
        ``"cpu"`` or ``"gpu"``; default: the current engine.
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
    labels = E.hint(E.vector(n, np.int64), "dense")
    done = E.scc_trim(G, labels)
    if done < n:
        pivot = _pivot(E, G, labels)
        done += E.scc_fwbw(G, pivot, labels)
    if done < n:
        E.scc_color(G, E.vector_from_numpy(vertex_ranks(n, 0)), labels)  # rounds until all are labelled
    return (E.to_device if output == "device" else E.to_numpy)(labels, fill=-1)  # full by now


def _pivot(E, G, labels):
    """The unlabelled vertex of largest in-degree x out-degree (the smallest such id)."""
    score = E.ewise_mult(E.degree(G), E.degree(G, transpose=True), "times", mask=labels, structural=True,
                         complement=True)
    best = E.select(score, "valueeq", E.reduce(score, "max"))
    return int(E.to_coo(best)[0].min())
