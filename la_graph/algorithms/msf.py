"""Minimum spanning forest by Borůvka's algorithm over packed edge keys.

Every undirected edge ``{i, j}`` (``i < j``, stored at CSR position ``p`` of
row ``i``) gets one int64 key, ``rank(w) * nnz + p``: weights in their order,
ties broken by ``(i, j)``.  Keys are distinct, so the edges are strictly
ordered, the minimum spanning forest is unique, and no round can pick a cycle
of equal weights (the cause of the cycles and hangs in the CMU Borůvka report
and of the TNL thesis' non-terminating Awerbuch–Shiloach MSF).  Positions never
change when endpoints are relabelled to tree roots, so the order stays strict on
the multi-edges contraction makes.

Each vertex has a parent ``f`` (a star forest: ``f[v]`` is the root of
``v``'s tree; initially every vertex is its own tree).  One round:

* ``a = f[eu]``, ``b = f[ev]`` -- the trees at the ends of each edge; edges with
  ``a == b`` lie inside a tree and are filtered out for good;
* ``c[a] min= key``, ``c[b] min= key`` -- per tree the cheapest edge leaving it
  (a min-monoid scatter: ``c = B min.second key`` with the tree-by-edge incidence
  matrix ``B``), and the tree at its other end;
* hook every root onto that tree, except the smaller root of a pair that chose
  the same edge (the only cycle distinct keys allow: a 2-cycle); the edge a root
  hooks by joins the forest;
* shortcut ``f = f[f]`` until the trees are stars again.

Every tree with an edge leaving it merges, so the number of such trees at least
halves each round: at most ``log2(n) + 1`` rounds; the loop ends in the first
round where no root hooks.  Finally each vertex is labelled by the smallest
vertex id of its tree (as :func:`~la_graph.connected_components`).

Both steps are engine methods (``engines/base.py`` holds their plain versions
in primitives): ``msf_edges`` packs the keys; ``msf_round`` runs one round --
the CPU engine as one compiled pass that also compacts the surviving edges,
relabelled to their roots (contraction), light edges first and the heavy ones
once those are used up (Kruskal's filter); the GPU engine as CUDA kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validation as V
from ..engines import get_engine

__all__ = ["minimum_spanning_forest", "MSFResult"]


@dataclass(frozen=True)
class MSFResult:
    """A minimum spanning forest.

    Attributes
    ----------
    u, v : numpy.ndarray
        The forest's edges, each once, ``u[k] < v[k]`` (int64), sorted by ``(u, v)``.
    weight : numpy.ndarray
        ``weight[k]`` of edge ``k`` (float64; 1.0 on an unweighted graph).
    total_weight : float
        The sum of ``weight``.
    labels : numpy.ndarray
        ``labels[x]`` = the smallest vertex id in ``x``'s tree, i.e. its connected
        component (int64).
    """

    u: np.ndarray
    v: np.ndarray
    weight: np.ndarray
    total_weight: float
    labels: np.ndarray

    @property
    def ncomponents(self):
        """Number of trees (connected components, isolated vertices included)."""
        return self.labels.size - self.u.size


def minimum_spanning_forest(G, *, engine=None):
    """A minimum spanning forest of undirected ``G`` (a minimum spanning tree per component).

    Edges are ordered by weight, ties broken by ``(min(u, v), max(u, v))``; under
    that strict order the forest is unique, so every engine returns the same one.
    Self-loops are ignored; negative weights are fine; an unweighted graph counts
    every edge as weight 1.

    Parameters
    ----------
    G : Graph
        Undirected.  Make a directed graph undirected with ``G.to_undirected()``
        (an edge in either direction becomes one edge with the smaller weight).
    engine : str, optional
        ``"cpu"`` or ``"gpu"``; default: the current engine.

    Returns
    -------
    MSFResult
        ``.u``, ``.v``, ``.weight`` (the forest's edges), ``.total_weight`` and
        ``.labels`` (smallest vertex id per component).

    Raises
    ------
    InvalidGraphError
        ``G`` is directed.

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 1, 0, 3], [1, 2, 2, 4], w=[1.0, 2.0, 2.0, 5.0], n=6)
    >>> r = lg.minimum_spanning_forest(G)
    >>> r.u.tolist(), r.v.tolist(), r.weight.tolist()
    ([0, 0, 3], [1, 2, 4], [1.0, 2.0, 5.0])
    >>> r.total_weight, r.labels.tolist()
    (8.0, [0, 0, 0, 3, 3, 5])
    """
    G = V.check_graph(G, undirected=True)
    E = get_engine(engine)
    n = G.n
    f = E.iota(n)
    forest = E.full(n, -1, dtype=np.int64)
    edges = E.msf_edges(G)
    hooked = 1
    while hooked:
        edges, hooked = E.msf_round(f, edges, forest)
    # labels: the smallest id of each tree, scattered to its root and gathered back
    smallest = E.full(n, n, dtype=np.int64)
    E.scatter(smallest, f, E.iota(n), dup="min", accum="min")
    labels = E.to_numpy(E.extract(smallest, f))
    _, keys = E.to_coo(E.select(forest, "valuege", 0))
    p = np.sort(np.asarray(keys, dtype=np.int64) % max(G.nnz, 1))  # CSR positions: sorted by (u, v)
    u = np.searchsorted(G.indptr, p, side="right").astype(np.int64) - 1
    v = G.indices[p].astype(np.int64)
    w = G.weights[p] if G.weighted else np.ones(p.size)
    return MSFResult(u, v, w, float(w.sum()), labels.astype(np.int64, copy=False))
