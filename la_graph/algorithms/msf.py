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

Two steps an engine may fuse, together (:mod:`la_graph.algorithms.steps`; the
family ``msf``: the edge set is the engine's own): ``msf_edges`` packs the
keys; ``msf_round`` runs one round -- the CPU engine as one compiled pass that
also compacts the surviving edges, relabelled to their roots (contraction),
light edges first and the heavy ones once those are used up (Kruskal's
filter); the GPU engine likewise, as CUDA kernels.  Both are written below in
primitives.  Two more, each its own: ``msf_forest`` turns the keys of the
forest into its edges, ``msf_labels`` labels each vertex by its tree (the GPU
engine runs both on the device).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from .._keys import weight_ranks
from .. import verify
from ..exceptions import NumericRangeError
from ._certify import Checker, fields
from ._registry import Cli, algorithm
from .steps import step

__all__ = ["minimum_spanning_forest", "MSFResult", "weight_ranks", "msf_edges", "msf_round", "msf_forest",
           "msf_labels"]


@dataclass(frozen=True)
class MSFResult:
    """A minimum spanning forest.

    The arrays are numpy arrays, or CuPy arrays from the GPU engine with
    ``output="device"``.

    Attributes
    ----------
    u, v : numpy.ndarray
        The forest's edges, each once, ``u[k] < v[k]`` (int64), sorted by ``(u, v)``.
    weight : numpy.ndarray
        ``weight[k]`` of edge ``k`` (float64; 1.0 on an unweighted graph).
    total_weight : float
        The sum of ``weight`` (float64).  Raises :class:`~la_graph.NumericRangeError`
        where that sum is past float64's range (about ``1.8e308``): the forest
        itself is exact, only its total does not fit.
    labels : numpy.ndarray
        ``labels[x]`` = the smallest vertex id in ``x``'s tree, i.e. its connected
        component (int64).
    """

    u: np.ndarray
    v: np.ndarray
    weight: np.ndarray
    _total: float            # read through total_weight, which names an overflow
    labels: np.ndarray

    @property
    def total_weight(self):
        """The sum of ``weight``; :class:`~la_graph.NumericRangeError` where it overflows float64."""
        if not math.isfinite(self._total):   # the weights are finite (Graph refuses others): the sum overflowed
            raise NumericRangeError(
                f"the forest's total weight is past float64's range (its {self.weight.size} weights sum beyond "
                f"{np.finfo(np.float64).max:.4g}); the forest itself (u, v, weight) is exact: sum the weights "
                f"scaled down, or as Python integers or fractions")
        return self._total

    def __repr__(self):
        total = self._total if math.isfinite(self._total) else "past float64"
        return (f"MSFResult(u={self.u!r}, v={self.v!r}, weight={self.weight!r}, total_weight={total!r}, "
                f"labels={self.labels!r})")

    @property
    def ncomponents(self):
        """Number of trees (connected components, isolated vertices included)."""
        return self.labels.size - self.u.size


@algorithm("minimum_spanning_forest", cli=Cli("msf", "a minimum spanning forest"),
           networkx=("minimum_spanning_edges", "minimum_spanning_tree", "maximum_spanning_edges",
                     "maximum_spanning_tree"), checker=Checker("check_msf", lambda G, r, a: verify.check_msf(
               G, fields(r, "u", "v", "weight", "labels", total_weight=r._total))), bench=("msf",),
           page="algorithms/msf.md",
           summary="Borůvka: min-reduction per component, hook, shortcut; packed (weight rank, position) keys; the GPU engine takes the lightest edges first (Kruskal's filter) and leaves the forest on the device with `output=\"device\"`")
def minimum_spanning_forest(G, *, engine=None, output="numpy"):
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
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.
    output : {"numpy", "device"}
        ``"device"`` leaves the arrays where the engine computed them (CuPy
        arrays on the GPU engine; numpy on the CPU).

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
    V.check_choice(output, {"numpy", "device"}, what="output")
    E = get_engine(engine)
    n = G.n
    f = E.iota(n)
    forest = E.full(n, -1, dtype=np.int64)
    edges = msf_edges(E, G)
    hooked = 1
    while hooked:
        edges, hooked = msf_round(E, f, edges, forest)
    del edges
    labels = msf_labels(E, f)
    get = E.to_device if output == "device" else E.to_numpy
    u, v, w, labels = (get(x, consume=True) for x in (*msf_forest(E, G, forest), labels))
    with np.errstate(over="ignore"):   # an overflowing total is the result's named error, when it is asked for
        total = float(w.sum())
    return MSFResult(u, v, w, total, labels)


@step("msf_edges", family="msf")
def msf_edges(E, G):
    """The edges of undirected ``G`` for :func:`msf_round`, each once, with a packed key.

    Every stored entry ``p`` of ``G``'s CSR with row ``i`` < column ``j`` is
    the edge ``{i, j}`` (self-loops are left out), keyed
    ``key = rank(w[p]) * G.nnz + p`` with ``rank`` the weights' integer
    ranks (:func:`la_graph._keys.weight_ranks`; 0 when unweighted).  Keys are distinct
    and order the edges by weight, then by ``(i, j)``: a strict total order,
    so the minimum spanning forest is unique and no round can close a cycle
    of equal weights.
    ``p = key % G.nnz`` recovers the entry.

    Returns an engine-native edge set that only :func:`msf_round` reads
    (here ``(eu, ev, key)``, full int64 vectors).
    """
    table, offset = weight_ranks(G.weights, G.nnz)
    rows, cols = G.edges()
    p = np.flatnonzero(rows < cols)
    if table is not None:
        rank = table[p]
    elif G.weights is not None:
        rank = G.weights[p].astype(np.int64) - offset
    else:
        rank = np.zeros(p.size, np.int64)
    key = rank * np.int64(G.nnz) + p
    return (E.vector_from_numpy(rows[p].astype(np.int64)), E.vector_from_numpy(cols[p].astype(np.int64)),
            E.vector_from_numpy(key))


@step("msf_round", family="msf")
def msf_round(E, f, edges, forest):
    """One Boruvka round, in place on ``f`` and ``forest``; returns ``(edges, hooked)``.

    With ``a = f[eu]``, ``b = f[ev]`` the trees at the two ends of every edge:

    * edges with ``a == b`` lie inside a tree and are dropped (an engine
      may remove them from the returned edge set, the default keys them out);
    * ``c[a] min= key``, ``c[b] min= key``: per tree root the cheapest edge
      leaving it (a min-monoid scatter, i.e. ``c = B min.second key`` for
      the root-by-edge incidence matrix ``B``), and ``p[r]`` the tree at
      that edge's other end;
    * every root with an edge hooks ``f[r] = p[r]`` and records
      ``forest[r] = c[r]``, except where ``c[p[r]] == c[r]`` (both trees
      chose the same edge: the only cycle distinct keys allow) and
      ``r < p[r]``: the smaller root stays a root;
    * shortcut ``f = f[f]`` until ``f`` is a star forest again.

    ``hooked`` is the number of roots that hooked; 0 means no edge joins two trees.
    An engine may hold heavier edges back while lighter ones still join
    trees (Kruskal's filter: every round then runs on a prefix of the key
    order); the forest is the same, rounds may hook differently.
    """
    inf = np.iinfo(np.int64).max
    eu, ev, key = edges
    n = E.size(f)
    m = E.size(key)
    a = E.extract(f, eu)
    b = E.extract(f, ev)
    k = E.full(m, inf, dtype=np.int64)
    E.assign(k, key, mask=E.ewise_mult(a, b, "ne"))
    c = E.full(n, inf, dtype=np.int64)
    E.scatter(c, a, k, dup="min", accum="min")
    E.scatter(c, b, k, dup="min", accum="min")
    p = E.full(n, inf, dtype=np.int64)
    for x, y in ((a, b), (b, a)):  # the other end of each root's cheapest edge
        other = E.full(m, inf, dtype=np.int64)
        E.assign(other, y, mask=E.ewise_mult(k, E.extract(c, x), "eq"))
        E.scatter(p, x, other, dup="min", accum="min")
    ids = E.iota(n)
    has = E.apply(c, "lt", right=inf)
    E.assign(p, ids, mask=has, complement=True)
    stay = E.ewise_mult(E.ewise_mult(E.extract(c, p), c, "eq"), E.ewise_mult(ids, p, "lt"), "land")
    hook = E.select(E.ewise_mult(has, E.apply(stay, "lnot"), "land"), "valueeq", True)
    E.assign(f, p, mask=hook, structural=True)
    E.assign(forest, c, mask=hook, structural=True)
    while True:
        g = E.extract(f, f)
        if E.isequal(g, f):
            break
        E.assign(f, g)
    return edges, E.nvals(hook)


@step("msf_forest")
def msf_forest(E, G, forest):
    """The forest's edges as full vectors ``(u, v, w)`` (int64, int64, float64), sorted by ``(u, v)``.

    ``forest`` holds, per hooked root, the key of the edge it hooked by (-1
    elsewhere); ``p = key % G.nnz`` is the edge's CSR entry, so sorting the
    entries sorts the edges, ``u`` is the row of ``p``, ``v = indices[p]``;
    ``w`` is the edge's weight (1.0 on an unweighted graph).
    """
    _, keys = E.to_coo(E.select(forest, "valuege", 0))
    p = np.sort(np.asarray(keys, dtype=np.int64) % max(G.nnz, 1))
    u = np.searchsorted(G.indptr, p, side="right").astype(np.int64) - 1
    v = G.indices[p].astype(np.int64)
    w = G.weights[p] if G.weighted else np.ones(p.size)
    return E.vector_from_numpy(u), E.vector_from_numpy(v), E.vector_from_numpy(w)


@step("msf_labels")
def msf_labels(E, f):
    """Each vertex's label, the smallest vertex id of its tree, for a star forest ``f``: a full int64 vector.

    The smallest id of each tree is scattered to its root (min monoid) and
    gathered back.
    """
    n = E.size(f)
    smallest = E.full(n, n, dtype=np.int64)
    E.scatter(smallest, f, E.iota(n), dup="min", accum="min")
    return E.extract(smallest, f)
