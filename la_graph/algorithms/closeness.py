"""Closeness and harmonic centrality from batched multi-source BFS (or SSSP when weighted).

NetworkX's conventions: on a directed graph a vertex's centrality is about
the distances *to* it, ``d(u, v)`` for every ``u``; so the searches run on
the reversed graph ``G'`` (``A'``), from the vertices whose centrality is
asked.  A batch of ``b`` sources is one multi-source BFS (unit lengths, the
``bfs_multi`` lanes of :func:`~la_graph.bfs`) or one batched
:func:`~la_graph.sssp` (edge weights as lengths), ``b`` chosen so that the
``b x n`` distance block stays near 64 MiB.  From a row ``d`` of distances to
``v`` with ``r`` vertices reaching ``v`` (``v`` itself included) and total
``t = sum d``:

* closeness ``C(v) = (r - 1) / t``, times ``(r - 1) / (n - 1)`` when
  ``wf_improved`` (Wasserman and Faust's scaling for graphs that are not
  strongly connected); 0 when ``t = 0`` or ``n = 1``;
* harmonic ``H(v) = sum of 1 / d(u, v)`` over ``u`` with ``d > 0``.

The three sums per vertex are the step :func:`distance_sums`, which an engine
may run as one kernel (the CPU engine's: a search per source, no block).
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from .._random import sample_sources
from ..engines import get_engine
from ..exceptions import InvalidArgumentError, InvalidGraphError
from .. import verify
from ._certify import Checker, host
from ._registry import algorithm
from .bfs import RULE, bfs
from .steps import step
from .sssp import sssp

__all__ = ["closeness_centrality", "harmonic_centrality"]

#: bytes of one batch's distance block (``8 * b * n``)
BATCH_BYTES = 64 << 20


def _targets(G, sources, k, seed):
    """The vertices whose centrality is computed (int64), or None for all of them."""
    n = G.n
    if sources is not None and k is not None:
        raise InvalidArgumentError("give sources= or k=, not both")
    if k is not None:
        k = V.check_count(k, "k", low=1)
        if k > n:
            raise InvalidArgumentError(f"k must be at most the number of vertices ({n}), got {k}")
        return sample_sources(n, k, seed)
    if sources is not None:
        return np.asarray(V.check_vertices(sources, n), dtype=np.int64)
    return None


def _checked(G, a):
    """The vertices a call computed (for its checker): its ``sources``, or the ``k`` draw redone."""
    return sample_sources(G.n, a["k"], a["seed"]) if a["k"] is not None else a["sources"]


def _lengths(G, distance, name):
    if not (distance is None or distance is True or distance is False):
        raise InvalidArgumentError(f"distance must be None (G's weights if it has them), True or False, got "
                                   f"{distance!r} (distance=False counts hops: NetworkX's distance=None)")
    if distance is True:
        V.check_graph(G, weighted=True)
    weighted = G.weighted and distance is not False
    if weighted and G.nnz and G.weight_range().min < 0:
        u, v, w = G.negative_weight_edge()
        raise InvalidGraphError(f"{name} needs non-negative edge lengths, got {w!r} on edge {u} -> {v}; "
                                "pass distance=False to count hops")
    return weighted


def _sums(G, targets, weighted, engine):
    """``(r, t, h)`` for each vertex of ``targets`` (None: all): :func:`distance_sums` on the reversed graph."""
    E = get_engine(engine)
    R = G.T   # the reversed graph (G itself when undirected), kept on G for its next call
    todo = np.arange(G.n, dtype=np.int64) if targets is None else np.asarray(targets, np.int64)
    return distance_sums(E, R, todo, weighted, RULE)


@step("distance_sums")
def distance_sums(E, R, srcs, weighted, rule):
    """For each source ``s`` of ``srcs`` and the vertices ``u`` it reaches in ``R``: ``(r, t, h)``.

    ``r[i]``: how many vertices ``srcs[i]`` reaches (itself included);
    ``t[i] = sum d(s, u)``; ``h[i] = sum 1 / d(s, u)`` over the ``u`` with
    ``d > 0`` -- three float64 arrays (``r`` and, by hops, ``t`` are exact
    integers).  ``weighted``: ``R``'s weights are the lengths, else hops;
    ``rule``: the direction rule of a kernel's per-source BFS
    (:data:`la_graph.algorithms.bfs.RULE`; the batched searches here take
    their own).

    The algebra runs the sources in batches, one multi-source BFS (the
    ``bfs_multi`` lanes) or one batched SSSP a batch, ``b`` chosen so that
    the ``b x n`` block of distances stays near :data:`BATCH_BYTES`, and
    reduces each block's rows.  The CPU engine fuses it: a search per source
    (direction-optimizing BFS, or Dijkstra), the sources shared among its
    threads, sums kept per level, no ``b x n`` block.
    """
    n = R.n
    out = np.zeros((3, srcs.size))
    b = max(1, min(srcs.size, BATCH_BYTES // (8 * max(n, 1))))
    for lo in range(0, srcs.size, b):
        batch = srcs[lo:lo + b]
        if weighted:
            D = sssp(R, sources=batch, parent=False, engine=E).distance
        else:
            L = bfs(R, sources=batch, parent=False, engine=E).level
            D = np.where(L >= 0, L.astype(np.float64), np.inf)
        reached = np.isfinite(D)
        out[0, lo:lo + b] = reached.sum(axis=1)
        out[1, lo:lo + b] = np.where(reached, D, 0.0).sum(axis=1)
        with np.errstate(divide="ignore"):
            out[2, lo:lo + b] = np.where(reached & (D > 0), 1.0 / D, 0.0).sum(axis=1)
    return out[0], out[1], out[2]


def _prepare(G, distance, sources, k, seed, name):
    G = V.check_graph(G)
    targets = _targets(G, sources, k, seed)
    return G, targets, _lengths(G, distance, name)


@algorithm("closeness_centrality", networkx=("closeness_centrality",),
           checker=Checker("check_closeness", lambda G, r, a: verify.check_closeness(
               G, host(r), wf_improved=a["wf_improved"], distance=a["distance"], sources=_checked(G, a))),
           bench=("closeness",), page="algorithms/closeness.md", summary="batched multi-source BFS (SSSP when weighted) on the reversed graph; NetworkX's wf_improved scaling")
def closeness_centrality(G, *, wf_improved=True, distance=None, sources=None, k=None, seed=None, engine=None):
    """Closeness centrality (``networkx.closeness_centrality``'s definition).

    Parameters
    ----------
    G : Graph
        Directed (distances *to* each vertex, as NetworkX) or undirected.
    wf_improved : bool
        Scale by the share of vertices that reach the vertex (Wasserman and Faust).
    distance : bool or None
        ``None``: ``G``'s weights as edge lengths when it has them; ``False``:
        hop counts (NetworkX's ``distance=None``); ``True``: ``G`` must be
        weighted.  Lengths must be non-negative.
    sources : array_like of int, optional
        The vertices whose closeness is computed (each exactly, from all
        distances to it); default every vertex.
    k : int, optional
        Instead of ``sources``: ``k`` vertices drawn with ``seed``
        (:func:`la_graph._random.sample_sources`, sorted), each computed
        exactly; ``1 <= k <= n``.
    seed : int, optional
        The seed of the ``k`` draw.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        float64: one value per vertex, or per vertex of ``sources`` / of the
        ``k`` sample (in that order).

    Examples
    --------
    >>> import la_graph as lg
    >>> path = lg.Graph.from_edges([0, 1], [1, 2])
    >>> lg.closeness_centrality(path).round(4).tolist()
    [0.6667, 1.0, 0.6667]
    >>> lg.closeness_centrality(path, sources=[1]).tolist()
    [1.0]
    """
    G, targets, weighted = _prepare(G, distance, sources, k, seed, "closeness_centrality")
    n = G.n
    r, t, _ = _sums(G, targets, weighted, engine)
    r = r - 1.0   # the others that reach the vertex
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(t > 0, r / t, 0.0)
    if wf_improved and n > 1:
        c *= r / (n - 1)
    return c if n > 1 else np.zeros_like(c)


@algorithm("harmonic_centrality", networkx=("harmonic_centrality",),
           checker=Checker("check_closeness", lambda G, r, a: verify.check_closeness(
               G, host(r), harmonic=True, distance=a["distance"], sources=_checked(G, a))),
           bench=("harmonic",), page="algorithms/closeness.md", summary="sum of 1/d(u, v) over batched multi-source BFS (SSSP when weighted) on the reversed graph")
def harmonic_centrality(G, *, distance=None, sources=None, k=None, seed=None, engine=None):
    """Harmonic centrality: ``H(v) = sum over u != v of 1 / d(u, v)`` (``networkx.harmonic_centrality``).

    Parameters
    ----------
    G : Graph
        Directed (distances *to* each vertex) or undirected.
    distance, sources, k, seed
        As for :func:`closeness_centrality` (``sources``: the vertices whose
        centrality is computed, NetworkX's ``nbunch``).
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        float64, one value per vertex (or per vertex of ``sources`` / the sample).

    Examples
    --------
    >>> import la_graph as lg
    >>> path = lg.Graph.from_edges([0, 1], [1, 2])
    >>> lg.harmonic_centrality(path).tolist()
    [1.5, 2.0, 1.5]
    """
    G, targets, weighted = _prepare(G, distance, sources, k, seed, "harmonic_centrality")
    return _sums(G, targets, weighted, engine)[2]
