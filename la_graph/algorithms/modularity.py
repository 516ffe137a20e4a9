"""Newman–Girvan modularity of a partition, in linear algebra.

With ``S`` the ``n x c`` membership matrix (``S[i, c] = 1`` when vertex ``i``
is in community ``c``) and ``k = A 1`` the weighted degrees:

* undirected: ``Q = trace(S' A S) / 2m - gamma * ||S' k||^2 / (2m)^2``, ``2m = 1' k``;
  a self-loop counts twice in ``A``'s diagonal (and so in ``k``), as NetworkX
  counts it in a vertex's degree and once in ``m``;
* directed: ``Q = trace(S' A S) / m - gamma * (S' k_out) . (S' k_in) / m^2``,
  ``m = 1' A 1`` (Leicht & Newman 2008, NetworkX's definition).

``trace(S' A S)`` is one product: ``A S`` (``plus.times``) keeps the
entries of ``S`` (an element-wise product), summed; ``S' k`` is one ``vxm``.  The three sums (inside
weight, null-model product, total) are one named step,
:func:`modularity_terms`, which an engine may run as one pass over the edges.

Modularity, and so Louvain's and Leiden's moves, do not change when every
weight is multiplied by one positive number, but their products of weight sums
(``(2m)^2``, ``2m K[i, c]``) leave float64's range when the weights are near
``1e154`` or ``1e-154``.  :func:`level_matrix` then multiplies the weights by a
power of two that brings the largest near 1: exact, so the answer is the one
the unscaled arithmetic would give had it the range (weights in the usual range
are not touched).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from ..exceptions import InvalidArgumentError, InvalidGraphError
from ._registry import algorithm
from .steps import step

__all__ = ["modularity", "modularity_terms", "community_labels", "check_community_graph", "canonical_labels",
           "dense_ids", "inside_weight", "level_matrix", "membership", "positive_total"]


def check_community_graph(G, resolution, *, undirected=False):
    """``(G, resolution)`` checked for modularity-based community detection.

    The resolution must be a finite number ``> 0``; no edge weight may be
    negative (modularity's null model needs non-negative degrees): the first
    negative edge is named.
    """
    G = V.check_graph(G)
    if undirected and G.directed:
        raise InvalidGraphError("Louvain and Leiden here need an undirected graph, got a directed one (modularity() "
                                "takes either); use G.to_undirected()")
    resolution = V.check_real(resolution, "resolution", low=0, open_low=True)
    bad = G.negative_weight_edge()
    if bad is not None:
        u, v, w = bad
        raise InvalidGraphError(f"modularity needs non-negative edge weights, got edge {u} -> {v} of weight {w!r}")
    return G, resolution


def community_labels(communities, n):
    """``communities`` as an int64 label array of length ``n`` (equal labels: one community).

    ``communities`` is either ``n`` integer labels (an array or list) or an
    iterable of vertex sets covering ``0 .. n-1`` exactly once (NetworkX's
    form); a vertex missing from the sets, or in two of them, is named.
    """
    if isinstance(communities, np.ndarray) or (isinstance(communities, (list, tuple)) and all(
            isinstance(c, (numbers.Integral, np.integer)) and not isinstance(c, (bool, np.bool_))
            for c in communities) and len(communities) == n):
        labels = np.asarray(communities)
        if labels.ndim != 1 or labels.dtype.kind not in "iu":
            raise InvalidArgumentError(f"communities must be {n} integer labels or an iterable of vertex sets, got "
                                       f"an array of dtype {labels.dtype} and shape {labels.shape}")
        if labels.shape != (n,):
            raise InvalidArgumentError(f"communities must have one label per vertex ({n}), got {labels.size}")
        return labels.astype(np.int64)
    if isinstance(communities, (str, bytes, Mapping)) or not isinstance(communities, Iterable):
        raise InvalidArgumentError(f"communities must be {n} integer labels or an iterable of vertex sets, got "
                                   f"{type(communities).__name__}")
    labels = np.full(n, -1, dtype=np.int64)
    for c, members in enumerate(communities):
        if isinstance(members, (str, bytes)) or not isinstance(members, Iterable):
            raise InvalidArgumentError(f"communities[{c}] must be a set of vertices, got {members!r}")
        for v in members:
            v = V.check_vertex(v, n, what=f"a vertex of communities[{c}]")
            if labels[v] >= 0:
                raise InvalidArgumentError(f"communities are not a partition: vertex {v} is in communities "
                                           f"[{labels[v]}] and [{c}]")
            labels[v] = c
    missing = np.flatnonzero(labels < 0)
    if missing.size:
        raise InvalidArgumentError(f"communities are not a partition: vertex {int(missing[0])} is in none of them"
                                   f" ({missing.size} vert{'ex' if missing.size == 1 else 'ices'} missing)")
    return labels


def canonical_labels(labels):
    """Each vertex's community named by its smallest vertex id (int64), as la_graph's labelings are."""
    labels = np.asarray(labels)
    if labels.size == 0:
        return labels.astype(np.int64)
    _, first, inv = np.unique(labels, return_index=True, return_inverse=True)
    return first[inv].astype(np.int64)


def dense_ids(labels):
    """``(ids, c)``: the int64 labels renumbered ``0 .. c-1`` in the order of their values.

    Labels in ``0 .. 4n`` by a presence array (no sort: Louvain's and
    Leiden's labels are vertex ids); others by :func:`numpy.unique`.
    """
    labels = np.asarray(labels, dtype=np.int64)
    if labels.size == 0:
        return labels, 0
    if labels.min() < 0 or labels.max() > 4 * labels.size:
        _, inv = np.unique(labels, return_inverse=True)
        return inv.astype(np.int64).reshape(-1), int(inv.max()) + 1
    present = np.zeros(int(labels.max()) + 1, dtype=bool)
    present[labels] = True
    rank = np.cumsum(present, dtype=np.int64) - 1
    return rank[labels], int(rank[-1]) + 1


def positive_total(G):
    """Whether ``G`` has an edge of positive weight (``m > 0``: the weights are non-negative, checked before)."""
    return G.nnz > 0 and (not G.weighted or G.weight_range().max > 0)


def inside_weight(E, A, S):
    """``trace(S' A S) = 1' (A S .* S) 1``: the weight of ``A``'s entries whose ends share a community of ``S``."""
    return float(E.reduce(E.ewise_mult(E.mxm(A, S, "plus_times"), S, "first"), "plus"))


def membership(E, labels, ncols=None):
    """``S``: the ``n x ncols`` float64 membership matrix of the host labels (``S[i, labels[i]] = 1``)."""
    n = labels.size
    return E.matrix_from_coo(np.arange(n), labels, 1.0, n, n if ncols is None else ncols, dtype=np.float64)


#: :func:`level_matrix` leaves the weights as they are while the largest is at least ``2**-WEIGHT_EXP`` and
#: it times the number of stored entries at most ``2**WEIGHT_EXP``: then ``2m`` lies in that range too and
#: every product of two weight sums well inside float64's normal range (``2**-1022 .. 2**1024``)
WEIGHT_EXP = 200


def weight_scale(G):
    """The power of two :func:`level_matrix` multiplies ``G``'s weights by: 1.0, or one that brings the
    largest weight into ``[0.5, 1)`` when the weights would take modularity's products out of float64's range."""
    if not G.weighted or not G.nnz:
        return 1.0
    wmax = G.weight_range().max
    if wmax == 0 or (wmax >= 2.0 ** -WEIGHT_EXP and wmax * G.nnz <= 2.0 ** WEIGHT_EXP):
        return 1.0
    return math.ldexp(1.0, -math.frexp(wmax)[1])


def level_matrix(E, G, *, transpose=False, scale=None):
    """``G``'s adjacency as float64 weights (1 where unweighted) with self-loops counted twice if undirected;
    weights far from 1 multiplied by ``scale``, default :func:`weight_scale` (a power of two: exact)."""
    A = E.matrix(G, transpose=transpose)
    if scale is None:
        scale = weight_scale(G)
    if not G.weighted:
        A = E.apply(A, "times", right=1.0)                 # bool ones -> float64: products sum weights
    elif scale != 1.0:
        A = E.apply(A, "times", right=scale)               # a new matrix: G's own weights unchanged
    if G.self_loops and not G.directed:
        A = E.ewise_add(A, E.select(A, "diag"), "plus")    # a loop adds twice to its vertex's degree
    return A


def _degrees(E, A, n):
    k = E.full(n, 0.0)
    E.reduce_rows(A, "plus", out=k, accum="plus")          # a full vector: 0 where a row is empty
    return k


@step("modularity_terms")
def modularity_terms(E, G, labels, c, scale):
    """``(inside, null, total)`` of the partition ``labels`` (host int64, dense ids ``0 .. c-1``) of ``G``.

    With ``A = level_matrix(E, G, scale=scale)`` and ``S`` the membership matrix:
    ``inside = trace(S' A S)``, ``null = (S' k_out) . (S' k_in)`` (``k_in =
    k_out`` when undirected) and ``total = 1' A 1``: ``Q = inside / total -
    gamma null / total^2``.
    """
    A = level_matrix(E, G, scale=scale)
    kout = _degrees(E, A, G.n)
    total = float(E.reduce(kout, "plus"))
    S = membership(E, labels, c)
    inside = inside_weight(E, A, S)
    sout = E.vxm(kout, S, "plus_times")
    sin = sout if not G.directed else E.vxm(_degrees(E, level_matrix(E, G, transpose=True, scale=scale), G.n), S,
                                                  "plus_times")
    null = float(E.reduce(E.ewise_mult(sout, sin, "times"), "plus"))
    return inside, null, total


@algorithm("modularity", networkx=("modularity",), bench=("modularity",), page="algorithms/modularity.md",
           summary="modularity of a partition (NetworkX's definition)")
def modularity(G, communities, resolution=1.0, *, engine=None):
    """The modularity of a partition of ``G``'s vertices (Newman & Girvan; NetworkX's definition).

    Parameters
    ----------
    G : Graph
        Undirected or directed (Leicht & Newman's directed modularity, with
        out- and in-degrees), weighted or not.  Weights must be non-negative;
        a self-loop counts once in ``m`` and twice in its vertex's degree
        (undirected), as NetworkX counts it.
    communities : array_like of int, or iterable of sets
        ``n`` labels (vertices with equal labels form one community), or
        vertex sets that cover every vertex exactly once, as NetworkX takes
        them.
    resolution : float
        ``gamma > 0``: larger values favour smaller communities.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    float
        ``networkx.community.modularity(G, communities, resolution=...)`` up to
        rounding.

    Raises
    ------
    InvalidArgumentError
        ``communities`` is not a partition (the vertex missing or repeated is named).
    InvalidGraphError
        A negative weight, or a graph without edges (or of zero total weight):
        modularity divides by the total weight.

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 0, 1, 3, 3, 4, 2], [1, 2, 2, 4, 5, 5, 3])   # two triangles, one bridge
    >>> round(lg.modularity(G, [0, 0, 0, 3, 3, 3]), 6)
    0.357143
    >>> round(lg.modularity(G, [{0, 1, 2}, {3, 4, 5}], resolution=0.5), 6)
    0.607143
    """
    G, resolution = check_community_graph(G, resolution)
    labels = community_labels(communities, G.n)
    E = get_engine(engine)
    if not positive_total(G):
        raise InvalidGraphError("modularity is undefined on a graph without edges of positive weight (m = 0)")
    inside, null, total = modularity_terms(E, G, *dense_ids(labels), weight_scale(G))
    return inside / total - resolution * null / total ** 2
