"""Betweenness centrality by Brandes' algorithm, batched over sources as sparse matrix products.

Brandes (2001) sums, over sources ``s``, the dependency ``delta_s(v)`` of ``s``
on every other vertex ``v``; one breadth-first search counts the shortest paths
``sigma_s`` forward, and one sweep back over its levels accumulates
``delta_s(v) = sigma_s(v) * sum over children w of (1 + delta_s(w)) / sigma_s(w)``.
Here a batch of ``b`` sources runs together, one row a source (LAGraph's
batched betweenness, Buluc's formulation):

Forward, level by level from ``F_0`` (``F_0[i, s_i] = 1``)::

    F_{d+1}<!P, replace> = F_d plus.first A     (path counts of the new level)
    P<F_{d+1}>           = true                 (visited: the pattern of every level)

``F_d[i, v]`` is ``sigma_{s_i}(v)`` for the vertices at distance ``d`` from
``s_i``: the ``plus`` monoid adds the counts of all parents one level up, and
the complemented structural mask ``!P`` keeps only vertices seen for the first
time.  Each level is kept (a sparse ``b x n`` matrix).

Backward, from the deepest level ``D`` with ``W_D = 1 ./ F_D``::

    T<F_{d-1}> = W_d plus.first A'           (sum over children of (1 + delta) / sigma)
    delta_{d-1} = F_{d-1} .* T               (dependencies at level d - 1)
    bc += ones' plus.second delta_{d-1}      (summed over the batch's sources)
    W_{d-1} = (1 ./ F_{d-1}) + T             ((1 + delta) / sigma, since delta = sigma T)

down to level 1 (a source's dependency on itself is not counted).

Path counts grow like binomial coefficients (corner to corner of a 700 x 700
grid: about 1e420 paths, past float64's 1.8e308), but the sweep back needs only
ratios of counts of consecutive levels.  So each level is kept scaled, a source
(a row) at a time, by a power of two (exact: the answer is bit for bit the
unscaled one wherever that one is finite)::

    x_max, x_min = binary exponents of the row's largest and smallest count
    D_d = diag(2^-e_d),  e_d = floor((x_max + x_min) / 2)    (centres the row's range on 1)
    F_d = D_d F_d                                              (counts over 2^(e_1 + ... + e_d))

and the sweep back scales ``W_d`` by the same ``D_d`` (``W_d = D_d (1 ./ F_d + T)``),
so that ``T`` at level ``d - 1`` carries the scale of level ``d - 1``: every
quantity stays within ``2^(COUNT_SPREAD / 2)`` of 1 times ``n``.  A level whose
counts from one source span more than ``2^COUNT_SPREAD`` (largest over
smallest) cannot be held even so: it raises
:class:`~la_graph.exceptions.NumericRangeError`, as does any sum that is not
finite at the end.  Shortest
paths only ever join consecutive levels, so a self-loop never counts and a
duplicate edge is one edge: neither changes the result.  With ``weight=False``
(or an unweighted graph) paths are counted by hops.

**Edge betweenness** is the same sweep back written onto the edges: an edge
``u -> w`` of the shortest-path DAG of ``s`` carries ``sigma_s(u) / sigma_s(w)
* (1 + delta_s(w))``.  In edge space, with the incidence matrices ``S`` (``n x
m``, ``S[u, e] = 1`` where edge ``e`` leaves ``u``) and ``H`` (``H[w, e] = 1``
where it enters ``w``), one entry per stored edge ``e`` (CSR order)::

    X   = W_d plus.first H                  ((1 + delta) / sigma at the head of every edge into level d)
    Y<X> = F_{d-1} plus.first S             (sigma at the tail, for the edges from level d - 1: the DAG's)
    ebc += ones' plus.second (Y .* X)

(``F_{d-1}`` and ``W_d`` carry opposite scales, so ``Y .* X`` is unscaled.)

**Weighted betweenness** (``weight=None`` on a weighted graph, or ``True``):
shortest paths by weight, NetworkX's ``_single_source_dijkstra_path_basic``.
A batch's distances ``D`` (``b x n``) come from :func:`~la_graph.sssp`'s batched
search (the step ``sssp_batch``); the DAG of every source is then the set of
edges ``e = u -> w`` with ``D[s, u] + w_e == D[s, w]`` (an exact float64 tie,
as NetworkX's ``==``), found in edge space::

    X     = D min.plus S_w                  (D[s, u] + w_e, S_w: S holding the weights)
    Y<X>  = D min.first H                   (D[s, w])
    Tight = (X == Y)                        (b x m: the DAG of each source)

Vertices are not joined to the level just before, so the path counts go in
topological order of the DAG (Kahn's): a vertex is done once all its DAG
in-edges are, ``rem = Tight plus.pair H'`` counting those left::

    C<Tight>  = F_r plus.first S            (sigma of the tails, on the DAG edges out of round r)
    P        += C                           (edges waiting for their head)
    rem      -= C plus.pair H'
    R         = rem == 0 (where just lowered)          (the next round)
    In        = P<R plus.pair H>,  P -= In  (the DAG edges into round r + 1)
    F_{r+1}   = In plus.first H'            (their path counts)

and the sweep back goes down the rounds, ``Acc`` collecting ``(1 + delta) /
sigma`` of the children at the tails::

    delta_r  = F_r .* Acc<F_r>
    W_r      = 1 ./ F_r + Acc<F_r>
    X<In_r>  = W_r plus.first H
    ebc     += ones' plus.second (In_r .* X)
    Acc     += X plus.first S'

Each round's counts are scaled, a source at a time, by a power of two when
their exponents leave ``+-SCALE_AT`` (centred as above), and the waiting edges
``P`` and sums ``Acc`` of that source with them, so every quantity keeps the
scale of the round it is used in.  Weights must be positive: NetworkX's
Dijkstra takes zero weights but then counts paths in the order of its heap (a
vertex reached at equal distance through a zero edge after it was settled
loses those paths), so a zero (or negative) weight raises
:class:`~la_graph.exceptions.InvalidGraphError`; a weight so small beside a
distance that the sum does not change (``D[s, u] + w == D[s, u]`` on a DAG
edge) raises :class:`~la_graph.exceptions.NumericRangeError`.

The batch size bounds the memory of the ``b x n`` level matrices: see
:func:`batch_size`.  Normalization follows ``networkx.betweenness_centrality``
(NetworkX 3.6) exactly, sampled sources included: see :func:`rescale`.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from .. import _progress, _validation as V
from .._random import check_seed, sample_sources  # re-exported: its home is la_graph._random
from ..engines import get_engine
from ..exceptions import InvalidArgumentError, InvalidGraphError, NumericRangeError
from .. import verify
from ._certify import Checker, fields, fresh_seed, host
from ._registry import Cli, algorithm
from .sssp import _default_delta, sssp_batch
from .steps import step

__all__ = ["betweenness_centrality", "edge_betweenness_centrality", "EdgeBetweennessResult", "batch_size",
           "weighted_batch_size", "rescale", "sample_sources", "COUNT_SPREAD"]

#: bytes a batch's ``b x n`` matrices may take at most (levels, visited, the backward sweep's temporaries)
BATCH_BYTES = 1 << 29
#: sources a call of the step :func:`brandes_sources` takes (the progress bar moves a call at a time)
STEP_SOURCES = 1024
#: bytes per (source, vertex) of a batch, reached in the worst case: the levels' path counts
#: (8 bytes of value + 8 of index, each vertex in one level), the visited pattern (9) and
#: the backward sweep's ``T``, ``W`` and ``delta`` (16 each) beside the level they come from
WORK_BYTES = 80
#: the largest ratio, as a power of two, of the largest to the smallest path count from one source at one
#: level: scaled to centre the range on 1, the counts stay within 2**±900, and what the sweep back computes
#: from them within n times that (every engine's kernel checks the same bound:
#: la_graph/engines/gpu/cuda/betweenness.cu's BC_SPREAD, la_graph/engines/cpu/fused/betweenness.py's SPREAD)
COUNT_SPREAD = 1800
#: bytes per (source, stored edge) of a weighted batch (or an edge betweenness one), beside ``WORK_BYTES`` per
#: (source, vertex): the DAG in edge space (``X``, ``Y``, ``Tight``), the edges waiting for their head and each
#: round's in-edges (16 bytes of value and index each)
EDGE_WORK_BYTES = 64
#: the weighted sweep rescales a source's round when its counts' binary exponents leave ``+-SCALE_AT``
#: (then centred as the hop levels are): below that every count, sum and waiting edge keeps its scale
SCALE_AT = 512


@algorithm("betweenness_centrality",
           cli=Cli("bc", "betweenness centrality (exact, or from --k sampled sources with --seed, or from --sources)",
                   options=("sources", "seed", "k"), defaults={"seed": 0}),
           networkx=("betweenness_centrality",), checker=Checker(
               "check_betweenness",
               lambda G, bc, a: verify.check_betweenness(
                   G, host(bc), normalized=a["normalized"], endpoints=a["endpoints"], sources=_checked_sources(G, a),
                   weight=_weighted(G, a["weight"])),
               # seed=None draws a fresh sample inside the algorithm, which the checker could not know: draw the
               # seed here instead (a fresh random seed: the same distribution of samples)
               prepare=lambda a: a.update(seed=fresh_seed()) if (
                   a["k"] is not None and a["sources"] is None and a["seed"] is None) else None,
               note="With ``k`` and ``seed=None`` a seed is drawn for the checker to know the sample (the same "
                    "distribution of samples)."), bench=("bc",),
           page="algorithms/betweenness.md",
           summary="Brandes batched over sources with masked mxm; exact, `k` sampled sources (seeded) or given `sources`; NetworkX's normalization")
def betweenness_centrality(G, k=None, *, normalized=True, endpoints=False, seed=None, sources=None,
                           weight=None, engine=None, progress=False):
    """Shortest-path betweenness centrality of every vertex (Brandes, batched in linear algebra).

    ``bc[v]`` sums, over pairs ``s != t`` with ``v`` not ``s`` or ``t``, the
    fraction of the shortest ``s``-``t`` paths that pass through ``v``, as
    ``networkx.betweenness_centrality`` computes it (same normalization and
    the same scaling of sampled sources; NetworkX 3.6).

    Parameters
    ----------
    G : Graph
        Directed (paths follow the edges) or undirected.  Self-loops and
        duplicate edges change nothing.
    k : int, optional
        Sample ``k`` distinct source vertices (``1 <= k <= n``) with ``seed`` and
        scale the sums from them up to an estimate of the full sum; ``k == n``
        is the exact result.  ``None``: every vertex is a source (exact).
    normalized : bool
        Divide by the number of ordered pairs ``(s, t)`` that can pass through
        a vertex: ``(n - 1)(n - 2)`` (``n (n - 1)`` with ``endpoints``),
        directed or not.  ``False``: raw sums, halved on undirected graphs (each
        unordered pair once).
    endpoints : bool
        Count a path's two ends as on the path too.
    seed : int, optional
        Seed of the sample of ``k`` sources (``0 .. 2**64 - 1``): one seed gives
        the same sources, hence the same result, on every engine and run
        (:func:`sample_sources`).  ``None``: a fresh random sample each call.
        NetworkX draws its sample differently: use ``sources=`` to compare.
    sources : sequence of int, optional
        The sources, given explicitly instead of ``k``: distinct vertex ids,
        scaled as a sample of ``len(sources)`` (so all ``n`` vertices is the
        exact result).
    weight : bool or None
        ``None``: shortest paths by ``G``'s weights when it has them, else by
        hops; ``False``: by hops (NetworkX's default ``weight=None``);
        ``True``: by weights, ``G`` must be weighted (NetworkX's
        ``weight="weight"``: Dijkstra, equal float64 sums are ties).  Weights
        must be positive.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.
    progress : bool
        Show on standard error the sources done and their rate, once the work
        has taken 2 seconds.

    Returns
    -------
    numpy.ndarray
        float64, shape ``(n,)``.  As in NetworkX, with ``k`` (or ``sources``) of
        one vertex and ``endpoints=False`` that vertex's value is ``nan`` (no
        pair is left to sample for it); graphs with fewer than 3 vertices (2
        with ``endpoints``) are not rescaled.

    Raises
    ------
    InvalidArgumentError
        ``k`` not an integer in ``1..n``, both ``k`` and ``sources`` given, a
        bad ``seed``, ``normalized`` or ``endpoints`` not a bool, ``weight``
        not None, True or False.
    InvalidSourceError
        A source out of range, or given twice.
    InvalidGraphError
        Weighted, and a weight is zero or negative; ``weight=True`` on an
        unweighted graph.

    Examples
    --------
    >>> import la_graph as lg
    >>> P = lg.generators.path(4)                   # 0 - 1 - 2 - 3
    >>> lg.betweenness_centrality(P).tolist()
    [0.0, 0.6666666666666666, 0.6666666666666666, 0.0]
    >>> lg.betweenness_centrality(P, normalized=False).tolist()
    [0.0, 2.0, 2.0, 0.0]
    >>> lg.betweenness_centrality(P, normalized=False, sources=[0, 3]).tolist()
    [0.0, 2.25, 2.25, 0.0]
    >>> bc = lg.betweenness_centrality(lg.generators.rmat(8, 8, seed=1), k=16, seed=7)
    >>> bc.shape
    (256,)

    By weight: the square 0 - 1 - 2 - 3 - 0 with the edge 1 - 2 heavy, so
    the shortest path from 1 to 2 goes round by 0 and 3:

    >>> W = lg.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], w=[1.0, 5.0, 1.0, 1.0])
    >>> lg.betweenness_centrality(W, normalized=False).tolist()
    [2.0, 0.0, 0.0, 2.0]
    >>> lg.betweenness_centrality(W, normalized=False, weight=False).tolist()     # by hops
    [0.5, 0.5, 0.5, 0.5]
    """
    G = V.check_graph(G)
    normalized = V.check_flag(normalized, "normalized")
    endpoints = V.check_flag(endpoints, "endpoints")
    progress = V.check_flag(progress, "progress")
    weighted = _weighted(G, weight)
    srcs = _sources(G.n, k, seed, sources)
    E = get_engine(engine)
    n = G.n
    if weighted:
        bc, _ = _brandes_weighted(E, G, srcs, True, endpoints, False, progress)
    else:
        bc = _brandes(E, G, srcs, endpoints, progress)
    exact = srcs.size == n
    return rescale(bc, n, normalized=normalized, directed=G.directed, endpoints=endpoints,
                   sources=None if exact else srcs)


@dataclass(frozen=True)
class EdgeBetweennessResult:
    """Edge betweenness centrality: one score per edge.

    Attributes
    ----------
    u, v : numpy.ndarray
        The edges (int64), as ``G.edges()`` lists them: every stored edge of a
        directed graph, in CSR order (by ``u``, then ``v``); each edge of an
        undirected graph once, ``u <= v``, in the same order (self-loops
        included, as NetworkX's ``G.edges()`` has them; their score is 0).
    score : numpy.ndarray
        float64, ``score[i]`` the betweenness of edge ``(u[i], v[i])``.

    Examples
    --------
    >>> import la_graph as lg
    >>> r = lg.edge_betweenness_centrality(lg.generators.path(3), normalized=False)
    >>> r.as_dict()
    {(0, 1): 2.0, (1, 2): 2.0}
    """

    u: np.ndarray
    v: np.ndarray
    score: np.ndarray

    def as_dict(self):
        """``{(u, v): score}``, NetworkX's form (ids and scores as Python ints and floats)."""
        return dict(zip(zip(self.u.tolist(), self.v.tolist()), self.score.tolist()))


@algorithm("edge_betweenness_centrality",
           cli=Cli("ebc", "edge betweenness centrality (exact, or from --k sampled sources with --seed, or from "
                          "--sources)", options=("sources", "seed", "k"), defaults={"seed": 0},
                   run=lambda args, G, engine: _ebc_cli(args, G, engine)),
           networkx=("edge_betweenness_centrality",),
           checker=Checker(
               "check_edge_betweenness",
               lambda G, r, a: verify.check_edge_betweenness(
                   G, fields(r, "u", "v", "score"), normalized=a["normalized"], sources=_checked_sources(G, a),
                   weight=_weighted(G, a["weight"])),
               prepare=lambda a: a.update(seed=fresh_seed()) if (
                   a["k"] is not None and a["sources"] is None and a["seed"] is None) else None,
               note="With ``k`` and ``seed=None`` a seed is drawn for the checker to know the sample (the same "
                    "distribution of samples)."), bench=("ebc",),
           page="algorithms/betweenness.md",
           summary="Brandes' dependencies written onto the edges (the sweep back in edge space: incidence matrices); by hops or by weight; NetworkX's normalization")
def edge_betweenness_centrality(G, k=None, *, normalized=True, seed=None, sources=None, weight=None, engine=None,
                                progress=False):
    """Shortest-path betweenness centrality of every edge (Brandes, batched in linear algebra).

    ``score[e]`` sums, over pairs ``s != t``, the fraction of the shortest
    ``s``-``t`` paths that use edge ``e``, as
    ``networkx.edge_betweenness_centrality`` computes it (NetworkX 3.6: the
    same normalization, the same scaling of sampled sources).  On an
    undirected graph an edge is used in either direction.

    Parameters
    ----------
    G : Graph
        Directed (paths follow the edges) or undirected.
    k : int, optional
        Sample ``k`` distinct sources (``1 <= k <= n``) with ``seed`` and scale
        the sums from them up to an estimate of the full sum; ``None``: every
        vertex is a source (exact).
    normalized : bool
        Divide by ``n (n - 1)``, the ordered pairs ``(s, t)`` (NetworkX's edge
        rule, on directed and undirected graphs alike).  ``False``: raw sums,
        halved on undirected graphs (each unordered pair once).
    seed : int, optional
        Seed of the sample of ``k`` sources, as for
        :func:`betweenness_centrality`.
    sources : sequence of int, optional
        The sources, given explicitly instead of ``k`` (distinct vertex ids),
        scaled as a sample of ``len(sources)``.
    weight : bool or None
        ``None``: shortest paths by ``G``'s weights when it has them, else by
        hops; ``False``: by hops (NetworkX's default ``weight=None``);
        ``True``: by weights, ``G`` must be weighted.  Weights must be positive.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.
    progress : bool
        Show on standard error the sources done and their rate, once the work
        has taken 2 seconds.

    Returns
    -------
    EdgeBetweennessResult
        ``.u``, ``.v`` (the edges, in ``G.edges()`` order; an undirected edge
        once, ``u <= v``) and ``.score`` (float64); ``.as_dict()`` gives
        NetworkX's ``{(u, v): score}``.

    Raises
    ------
    InvalidArgumentError
        ``k`` not an integer in ``1..n``, both ``k`` and ``sources`` given, a
        bad ``seed``, ``normalized`` not a bool, ``weight`` not None, True or
        False.
    InvalidSourceError
        A source out of range, or given twice.
    InvalidGraphError
        Weighted, and a weight is zero or negative; ``weight=True`` on an
        unweighted graph.

    Examples
    --------
    >>> import la_graph as lg
    >>> P = lg.generators.path(4)                   # 0 - 1 - 2 - 3
    >>> r = lg.edge_betweenness_centrality(P, normalized=False)
    >>> r.u.tolist(), r.v.tolist(), r.score.tolist()
    ([0, 1, 2], [1, 2, 3], [3.0, 4.0, 3.0])
    >>> lg.edge_betweenness_centrality(P).score.tolist()          # ordered pairs over n (n - 1) = 12
    [0.5, 0.6666666666666666, 0.5]
    >>> W = lg.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], w=[1.0, 5.0, 1.0, 1.0])
    >>> lg.edge_betweenness_centrality(W, normalized=False).as_dict()     # 1 - 2 is never a shortest path
    {(0, 1): 3.0, (0, 3): 4.0, (1, 2): 0.0, (2, 3): 3.0}
    """
    G = V.check_graph(G)
    normalized = V.check_flag(normalized, "normalized")
    progress = V.check_flag(progress, "progress")
    weighted = _weighted(G, weight)
    srcs = _sources(G.n, k, seed, sources)
    E = get_engine(engine)
    n = G.n
    if weighted:
        _, raw = _brandes_weighted(E, G, srcs, False, False, True, progress)
    else:
        raw = _brandes_edges(E, G, srcs, progress)
    u, v, score = edge_sums(G, raw)
    exact = srcs.size == n
    rescale(score, n, normalized=normalized, directed=G.directed, endpoints=True, sources=None if exact else srcs)
    return EdgeBetweennessResult(u, v, score)


def _ebc_cli(args, G, engine):
    """``la-graph run ebc``: the scores of every edge, the top edge, the check from the same sources."""
    src = args.sources
    if args.k is not None:              # the sample, drawn here so that the check uses the same sources
        if src is not None:
            raise InvalidArgumentError("give --k (sampled sources) or --sources, not both")
        src = sample_sources(G.n, _check_k(args.k, G.n), args.seed)
    r = edge_betweenness_centrality(G, sources=src, engine=engine)
    top = int(np.argmax(r.score)) if r.score.size else None
    summary = {"sources": "all" if src is None else len(src),
               "top_edge": None if top is None else [int(r.u[top]), int(r.v[top])],
               "top_value": None if top is None else float(f"{r.score[top]:.6g}")}
    return summary, {"u": r.u, "v": r.v, "score": r.score}, lambda: verify.check_edge_betweenness(G, r, sources=src)


def edge_sums(G, raw):
    """``(u, v, score)``: the sums ``raw`` of every stored entry (CSR order) as one per edge of ``G``.

    Directed: the entries themselves.  Undirected: the entries with ``u <= v``
    (in CSR order), each adding its mirror ``v -> u`` (a path uses an
    undirected edge in either direction).
    """
    rows, cols = G.edges()
    rows, cols = rows.astype(np.int64), cols.astype(np.int64)
    if G.directed:
        return rows, cols, np.asarray(raw, np.float64).copy()
    keep = rows <= cols
    score = raw[keep].astype(np.float64)
    down = np.flatnonzero(rows > cols)
    down = down[np.lexsort((rows[down], cols[down]))]   # mirrors, in the order of the (u < v) entries
    score[(rows < cols)[keep]] += raw[down]
    return rows[keep], cols[keep], score


def _sources(n, k, seed, sources):
    """The sources a call runs from (int64): ``sources``, a seeded sample of ``k``, or every vertex."""
    seed = None if seed is None else check_seed(seed)
    if k is not None and sources is not None:
        raise InvalidArgumentError("give k (a number of sampled sources) or sources (a list), not both")
    if sources is not None:
        return V.check_distinct(V.check_vertices(sources, n))
    if k is not None and _check_k(k, n) < n:
        return sample_sources(n, int(k), seed)
    return np.arange(n, dtype=np.int64)


def _checked_sources(G, a):
    """The sources a call's checker must use (None: all of them), from the call's arguments ``a``."""
    if a["sources"] is None and a["k"] is not None and a["k"] < G.n:
        return sample_sources(G.n, int(a["k"]), a["seed"])
    return a["sources"]


def _weighted(G, weight):
    """Whether paths are by weight (:func:`la_graph._validation.uses_weights`); weights must be positive."""
    if not V.uses_weights(G, weight, "betweenness"):
        return False
    wr = G.weight_range()
    if G.nnz and wr.min <= 0:
        e = int(np.flatnonzero(G.weights <= 0)[0])
        u = int(np.searchsorted(G.indptr, e, side="right")) - 1
        raise InvalidGraphError(
            f"weighted betweenness needs positive edge weights, got {float(G.weights[e])!r} on edge {u} -> "
            f"{int(G.indices[e])}: NetworkX's Dijkstra takes a zero weight but then counts paths in the order of "
            "its heap; pass weight=False to count hops")
    if wr.max * max(G.n - 1, 1) >= np.finfo(np.float64).max:
        raise InvalidGraphError(f"weighted betweenness: path lengths of up to {G.n - 1} edges of weight up to "
                                f"{wr.max!r} may not fit in float64; rescale the weights")
    return True


def batch_size(nsources, n, m=0):
    """How many sources one batch takes: ``b * n * WORK_BYTES`` within ``BATCH_BYTES`` and free memory.

    A batch keeps ``b x n`` matrices: every BFS level's path counts, the
    visited pattern, and the backward sweep's temporaries, ``WORK_BYTES`` per
    (source, vertex) where every source reaches every vertex.  The batch is
    the largest with that within ``BATCH_BYTES`` (512 MiB) and within the
    available memory (:func:`la_graph._validation.source_batch`, which raises
    :class:`~la_graph.exceptions.OutOfMemory` when not even one source fits);
    at least 1, at most ``nsources``.  With ``m`` (the sweeps in edge space:
    edge betweenness, weighted paths) each source also takes
    ``EDGE_WORK_BYTES`` per stored edge.
    """
    per = WORK_BYTES + (-(-EDGE_WORK_BYTES * m // n) if m and n else 0)   # bytes a (source, vertex), edges spread
    fit = V.source_batch(nsources, n, 0, per, "betweenness centrality")
    return int(max(1, min(nsources, fit, BATCH_BYTES // max(n * per, 1))))


def rescale(bc, n, *, normalized, directed, endpoints, sources=None):
    """Scale raw Brandes sums ``bc`` (in place) as ``networkx.betweenness_centrality`` does; returns ``bc``.

    With ``N = n`` (``endpoints``) or ``n - 1`` (not), nothing changes when
    ``N < 2``.  Exact (``sources=None``), or sampled with endpoints, every
    value is multiplied by ``1 / (K (N - 1))`` when ``normalized``, else by
    ``N / (K c)`` (``c = 2`` undirected, ``1`` directed), where ``K = N``
    exact and ``K = len(sources)`` sampled.  Sampled without endpoints, a
    sampled source ``v`` cannot pair with itself, so it is scaled with
    ``K - 1`` in place of ``K`` (``nan`` when ``K = 1``).
    """
    N = n if endpoints else n - 1
    if N < 2:
        return bc
    K = N if sources is None else len(sources)
    if sources is None or endpoints:
        bc *= 1.0 / (K * (N - 1)) if normalized else N / (K * (1 if directed else 2))
        return bc
    if normalized:
        at_source = 1.0 / ((K - 1) * (N - 1)) if K > 1 else math.nan
        elsewhere = 1.0 / (K * (N - 1))
    else:
        c = 1 if directed else 2
        at_source = N / ((K - 1) * c) if K > 1 else math.nan
        elsewhere = N / (K * c)
    is_source = np.zeros(n, bool)
    is_source[np.asarray(sources, np.int64)] = True
    bc *= np.where(is_source, at_source, elsewhere)
    return bc


# ---------------------------------------------------------------------- validation
def _check_k(k, n):
    """``k`` as an int in ``1..n`` (or ``n`` itself, 0 on an empty graph: every vertex)."""
    if isinstance(k, (numbers.Integral, np.integer)) and not isinstance(k, (bool, np.bool_)) and k == n:
        return int(k)
    k = V.check_count(k, "k")
    if k > n:
        raise InvalidArgumentError(f"k must be at most n = {n} (the number of vertices), got {k}")
    return k


# ---------------------------------------------------------------------- the algebra
def _brandes(E, G, srcs, endpoints, progress=False):
    """Raw Brandes sums over the sources ``srcs`` (numpy float64, unscaled), ``STEP_SOURCES`` a step call."""
    n = G.n
    bc = np.zeros(n)
    if n == 0 or srcs.size == 0:
        return bc
    total = E.full(n, 0.0)
    ends = E.full(n, 0, dtype=np.int64) if endpoints else None
    bar = _progress.bar(progress, desc="betweenness", total=int(srcs.size), unit="sources")
    try:
        for lo in range(0, srcs.size, STEP_SOURCES):
            part = srcs[lo:lo + STEP_SOURCES]
            reached = brandes_sources(E, G, part, total, ends)
            if endpoints:   # each source is an end of a path to every vertex it reaches
                bc[part] += reached - 1
            bar.update(part.size)
    finally:
        bar.close()
    bc += E.to_numpy(total)
    _finite(bc, "betweenness: the dependency sum of vertex")
    if endpoints:
        bc += E.to_numpy(ends)   # ... and every vertex reached is an end, its own source aside
        bc[srcs] -= 1
    return bc


@step("brandes_sources")
def brandes_sources(E, G, srcs, total, ends):
    """Brandes from each of ``srcs``: adds the dependencies to ``total`` (and path ends to ``ends``).

    Returns the number of vertices each source reaches (itself included) when
    ``ends`` is kept, else None.  The algebra runs the sources in batches of
    :func:`batch_size` (its ``b x n`` matrices bound the batch).  The CPU
    engine fuses it: one BFS and one backward sweep per source in a compiled
    loop, the sources shared among its threads (no ``b x n`` matrix, so no
    batches); the GPU engine's kernel takes as many sources a launch as its
    own ``b x n`` arrays allow.
    """
    b = batch_size(srcs.size, G.n)
    counts = [_brandes_batch(E, G, srcs[lo:lo + b], total, ends) for lo in range(0, srcs.size, b)]
    return None if ends is None else np.concatenate(counts + [np.zeros(0, np.int64)])


def _brandes_batch(E, G, srcs, total, ends, edges=None):
    """One batch of :func:`brandes_sources`' algebra: forward levels by ``mxm``, then the sweep back.

    ``total`` (None: vertex sums not wanted) gets the dependencies of the vertices, ``edges`` (None: not
    wanted; :func:`brandes_edge_sources`) those of the edges, one entry per stored edge of ``G``.
    """
    n = G.n
    A = E.matrix(G)
    AT = E.matrix(G, transpose=True) if G.directed else A
    b = srcs.size
    rows = np.arange(b, dtype=np.int64)
    F = E.matrix_from_coo(rows, srcs, 1.0, b, n, dtype=np.float64)   # level 0: one path to each source
    P = E.hint(E.matrix_from_coo(rows, srcs, True, b, n, dtype=bool), "dense")   # visited: a mask read at random
    levels, scales = [F], [None]   # scales[d]: D_d (None: the identity, level 0's)
    while True:   # forward: F<!P, replace> = F plus.first A, the path counts of the next level
        F = E.mxm(F, A, "plus_first", mask=P, structural=True, complement=True)
        reached_now = E.nvals(F)
        if reached_now == 0:
            break
        E.assign(P, True, mask=F, structural=True)
        D = level_scale(E, F, srcs, len(levels))
        F = E.mxm(D, F, "plus_times")   # one term a row: the exact product
        levels.append(E.hint(F, "sparse") if reached_now * 16 < b * n else F)   # kept until the sweep back
        scales.append(D)
    ones = E.full(b, 1.0)
    reached = None
    if ends is not None:
        E.vxm(ones, P, "plus_pair", out=ends, accum="plus")   # sources reaching each vertex
        reached = E.to_numpy(E.mxv(P, E.full(n, True), "plus_pair"), fill=0)
    del P
    if len(levels) < (2 if edges is not None else 3):   # no vertex strictly between a source and a target
        return reached
    S, H = _incidence(E, G)[:2] if edges is not None else (None, None)
    W = E.mxm(scales.pop(), E.apply(levels.pop(), "minv"), "plus_times")   # deepest level: (1 + 0) / sigma
    while len(levels) > 1:   # backward, down to level 1
        Fd, Dd = levels.pop(), scales.pop()
        if edges is not None:
            _edge_dependencies(E, Fd, W, S, H, ones, edges)
        T = E.mxm(W, AT, "plus_first", mask=Fd, structural=True)   # sum over children of (1 + delta) / sigma
        if total is not None:
            delta = E.ewise_mult(Fd, T, "times")
            E.vxm(ones, delta, "plus_second", out=total, accum="plus")
        if len(levels) > 1 or edges is not None:   # to the scale of level d - 1, as T above is at level d's
            W = E.mxm(Dd, E.ewise_add(E.apply(Fd, "minv"), T, "plus"), "plus_times")
    if edges is not None:   # the edges out of the sources
        _edge_dependencies(E, levels.pop(), W, S, H, ones, edges)
    return reached


def _edge_dependencies(E, F, W, S, H, ones, edges):
    """``edges += ones' plus.second (Y .* X)``: ``X = W plus.first H`` (``W`` at each edge's head), ``Y<X> = F
    plus.first S`` (``F`` at its tail): the DAG edges from ``F``'s level to ``W``'s, each
    ``sigma(tail) / sigma(head) * (1 + delta(head))`` (``F`` and ``W`` carry opposite scales)."""
    X = E.mxm(W, H, "plus_first")
    Y = E.mxm(F, S, "plus_first", mask=X, structural=True)
    E.vxm(ones, E.ewise_mult(Y, X, "times"), "plus_second", out=edges, accum="plus")


def _incidence(E, G):
    """``(S, H, S', H')`` of ``G`` on ``E`` (cached on ``G``): ``S[u, e]`` the weight of stored edge ``e``
    where it leaves ``u`` (1.0 unweighted), ``H[w, e] = 1`` where it enters ``w``; ``e`` the CSR position."""
    key = (E.cache_key, "bc_incidence")
    hit = G._engine_cache.get(key)
    if hit is None:
        n, m = G.n, G.nnz
        rows, cols = G.edges()
        e = np.arange(m, dtype=np.int64)
        w = G.weights if G.weighted else np.ones(m)
        hit = G._engine_cache[key] = (
            E.matrix_from_coo(rows, e, w, n, m, dtype=np.float64), E.matrix_from_coo(cols, e, True, n, m, dtype=bool),
            E.matrix_from_coo(e, rows, True, m, n, dtype=bool), E.matrix_from_coo(e, cols, True, m, n, dtype=bool))
    return hit


def _brandes_edges(E, G, srcs, progress=False):
    """Raw Brandes sums on every stored edge of ``G`` (CSR order; numpy float64), ``STEP_SOURCES`` a step call."""
    edges = np.zeros(G.nnz)
    if G.n == 0 or srcs.size == 0 or G.nnz == 0:
        return edges
    total = E.full(G.nnz, 0.0)
    bar = _progress.bar(progress, desc="edge betweenness", total=int(srcs.size), unit="sources")
    try:
        for lo in range(0, srcs.size, STEP_SOURCES):
            part = srcs[lo:lo + STEP_SOURCES]
            brandes_edge_sources(E, G, part, total)
            bar.update(part.size)
    finally:
        bar.close()
    edges += E.to_numpy(total)
    _finite(edges, "edge betweenness: the dependency sum of stored edge")
    return edges


def _finite(x, what):
    """A safety net: raise NumericRangeError where a sum is not finite (the scaling keeps every sum in range)."""
    if not np.isfinite(x).all():
        i = int(np.flatnonzero(~np.isfinite(x))[0])
        raise NumericRangeError(f"{what} {i} is {x[i]} (not finite) even with path counts scaled; please "
                                "report the graph")


@step("brandes_edge_sources")
def brandes_edge_sources(E, G, srcs, edges):
    """Brandes from each of ``srcs`` by hops: adds each stored edge's dependencies to ``edges``.

    ``edges`` is a full float64 vector of ``G.nnz`` entries, one per stored
    edge in CSR order: edge ``u -> w`` on the shortest-path DAG of a source
    ``s`` gets ``sigma_s(u) / sigma_s(w) * (1 + delta_s(w))``.  The algebra is
    :func:`brandes_sources`' batches with the sweep back also written onto
    the edges (:func:`_edge_dependencies`).  The CPU engine fuses it: a BFS,
    the path counts and the sweep back per source in a compiled loop, the
    sources shared among its threads (each with its own row of edge sums).
    """
    b = batch_size(srcs.size, G.n, G.nnz)
    for lo in range(0, srcs.size, b):
        _brandes_batch(E, G, srcs[lo:lo + b], None, None, edges)


# ---------------------------------------------------------------------- weighted: the DAG in edge space
def _brandes_weighted(E, G, srcs, want_vertices, endpoints, want_edges, progress=False):
    """Raw weighted Brandes sums ``(vertex sums or None, edge sums or None)`` (numpy), ``STEP_SOURCES`` a step."""
    n, m = G.n, G.nnz
    bc = np.zeros(n) if want_vertices else None
    eb = np.zeros(m) if want_edges else None
    if n == 0 or srcs.size == 0:
        return bc, eb
    total = E.full(n, 0.0) if want_vertices else None
    ends = E.full(n, 0, dtype=np.int64) if endpoints else None
    edges = E.full(m, 0.0) if want_edges and m else None
    bar = _progress.bar(progress, desc="betweenness", total=int(srcs.size), unit="sources")
    try:
        for lo in range(0, srcs.size, STEP_SOURCES):
            part = srcs[lo:lo + STEP_SOURCES]
            reached = brandes_weighted_sources(E, G, part, total, ends, edges)
            if endpoints:
                bc[part] += reached - 1
            bar.update(part.size)
    finally:
        bar.close()
    if want_vertices:
        bc += E.to_numpy(total)
        _finite(bc, "betweenness: the dependency sum of vertex")
        if endpoints:
            bc += E.to_numpy(ends)
            bc[srcs] -= 1
    if edges is not None:
        eb += E.to_numpy(edges)
        _finite(eb, "edge betweenness: the dependency sum of stored edge")
    return bc, eb


def weighted_batch_size(nsources, n, m):
    """How many sources a batch of the weighted (or edge) sweep takes: ``WORK_BYTES`` a (source, vertex) and
    ``EDGE_WORK_BYTES`` a (source, stored edge) within ``BATCH_BYTES`` and free memory (:func:`batch_size`)."""
    return batch_size(nsources, n, m)


@step("brandes_weighted_sources")
def brandes_weighted_sources(E, G, srcs, total, ends, edges):
    """Brandes from each of ``srcs`` with shortest paths by weight (positive weights).

    Adds the vertices' dependencies to ``total`` (a full float64 vector, or
    None), one per source reaching each vertex to ``ends`` (a full int64
    vector, or None) and the stored edges' dependencies to ``edges`` (a full
    float64 vector of ``G.nnz`` entries in CSR order, or None).  Returns the
    number of vertices each source reaches (itself included) when ``ends`` is
    kept, else None.  A vertex's shortest-path predecessors are the ``u`` with
    ``d(u) + w(u, v) == d(v)`` in float64, NetworkX's ties.  The algebra:
    distances by ``sssp_batch``, the DAG in edge space, path counts in
    topological rounds and the sweep back down them (the module docstring),
    in batches of :func:`weighted_batch_size` sources.  The CPU engine fuses
    it: a Dijkstra per source, path counts along the settle order as
    mantissa and exponent (any size: no ``COUNT_SPREAD`` limit there), the
    sweep back, the sources shared among its threads.
    """
    wr = G.weight_range()
    delta = _default_delta(G, wr.max, wr.min_positive)
    b = weighted_batch_size(srcs.size, G.n, G.nnz)
    counts = [_weighted_batch(E, G, srcs[lo:lo + b], delta, total, ends, edges) for lo in range(0, srcs.size, b)]
    return None if ends is None else np.concatenate(counts + [np.zeros(0, np.int64)])


def _weighted_batch(E, G, srcs, delta, total, ends, edges):
    """One batch of :func:`brandes_weighted_sources`' algebra."""
    n, m, b = G.n, G.nnz, srcs.size
    rows = np.arange(b, dtype=np.int64)
    S, H, ST, HT = _incidence(E, G)
    D = E.select(sssp_batch(E, G, srcs, delta, n, False)[0], "valuelt", np.inf)   # finite: reached
    ones = E.full(b, 1.0)
    reached = None
    if ends is not None:
        E.vxm(ones, D, "plus_pair", out=ends, accum="plus")
        reached = E.to_numpy(E.mxv(D, E.full(n, True), "plus_pair"), fill=0)
    if m == 0:
        return reached
    X = E.mxm(D, S, "min_plus")                                       # d(u) + w(e), every edge out of a reached u
    Y = E.mxm(D, H, "min_first", mask=X, structural=True)             # d(w)
    tight = E.select(E.ewise_mult(X, Y, "eq"), "valueeq", True)       # the DAG of every source, in edge space
    del X
    tails = E.mxm(D, S, "min_first", mask=tight)                      # d(u) on the DAG: a weight lost in the sum?
    lost = E.select(E.ewise_mult(tails, Y, "eq"), "valueeq", True)
    if E.nvals(lost):
        i, e, _ = E.to_coo(lost)
        u = int(np.searchsorted(G.indptr, e[0], side="right")) - 1
        raise NumericRangeError(
            f"betweenness: from source {int(srcs[i[0]])} the edge {u} -> {int(G.indices[e[0]])} of weight "
            f"{float(G.weights[e[0]])!r} lies on a shortest path, but its distance plus the weight is the distance "
            "in float64 (the weight is lost beside it): the path counts are not defined; rescale the weights")
    del tails, lost, Y
    nreached = E.nvals(D)
    del D
    rem = E.hint(E.mxm(tight, HT, "plus_pair"), "dense")             # DAG in-edges not yet done
    F = E.matrix_from_coo(rows, srcs, 1.0, b, n, dtype=np.float64)   # round 0: one path to each source
    wait = E.matrix_from_coo([], [], 0.0, b, m, dtype=np.float64)    # DAG edges waiting for their head
    levels, ins, scales = [F], [None], [None]
    done = b
    while True:   # forward, in topological rounds of the DAGs
        C = E.mxm(F, S, "plus_first", mask=tight)
        wait = E.ewise_add(wait, C, "plus")
        cnt = E.mxm(C, HT, "plus_pair")
        E.assign(rem, cnt, mask=cnt, structural=True, accum="minus")
        R = E.select(rem, "valueeq", 0, mask=cnt, structural=True)   # every DAG in-edge done: the next round
        if E.nvals(R) == 0:
            break
        into = E.mxm(R, H, "any_pair", mask=wait, structural=True)
        In = E.apply(wait, "identity", mask=into, structural=True)
        wait = E.apply(wait, "identity", mask=into, structural=True, complement=True)
        F = E.mxm(In, HT, "plus_first")
        done += E.nvals(F)
        Dd = round_scale(E, F, srcs, len(levels))
        if Dd is not None:   # the round's counts, and the edges still waiting, to the new scale
            F, In, wait = (E.mxm(Dd, x, "plus_times") for x in (F, In, wait))
        levels.append(F)
        ins.append(In)
        scales.append(Dd)
    del wait, rem, tight, C, cnt, R
    if done != nreached:   # cannot happen with positive weights (the check above): a safety net
        raise NumericRangeError("betweenness: a shortest-path DAG has a cycle; please report the graph")
    acc = E.hint(E.matrix_from_coo([], [], 0.0, b, n, dtype=np.float64), "dense")   # sums of (1 + delta) / sigma
    while len(levels) > 1:   # backward, down the rounds to round 1
        Fd, In, Dd = levels.pop(), ins.pop(), scales.pop()
        T = E.apply(acc, "identity", mask=Fd, structural=True)      # every child done: complete
        if total is not None:
            E.vxm(ones, E.ewise_mult(Fd, T, "times"), "plus_second", out=total, accum="plus")
        W = E.ewise_add(E.apply(Fd, "minv"), T, "plus")              # (1 + delta) / sigma at this round's scale
        X = E.mxm(W, H, "plus_first", mask=In, structural=True)      # ... at the head of each DAG edge into it
        if edges is not None:
            E.vxm(ones, E.ewise_mult(In, X, "times"), "plus_second", out=edges, accum="plus")
        E.mxm(X, ST, "plus_first", out=acc, accum="plus")           # ... summed at the tails
        if Dd is not None:   # to the scale of the round before (2^E (1 + delta) / sigma: times 2^-e, as F was)
            acc = E.hint(E.mxm(Dd, acc, "plus_times"), "dense")
    return reached


def round_scale(E, F, srcs, d):
    """``D = diag(2^-e)`` for a round ``d`` of weighted path counts ``F``, or None when no source needs one.

    A source (a row) is rescaled when its counts' binary exponents leave
    ``+-SCALE_AT``: ``e`` centres them as :func:`level_scale` does (0 for
    the other rows).  Raises :class:`~la_graph.exceptions.NumericRangeError`
    when a row's spread passes ``COUNT_SPREAD``.
    """
    b = srcs.size
    _, hi = np.frexp(E.to_numpy(E.reduce_rows(F, "max"), fill=1.0))
    _, lo = np.frexp(E.to_numpy(E.reduce_rows(F, "min"), fill=1.0))
    over = np.flatnonzero(hi - lo > COUNT_SPREAD)
    if over.size:
        i = int(over[0])
        raise NumericRangeError(
            f"betweenness: the shortest-path counts from source {int(srcs[i])} at round {d} of its shortest-path "
            f"DAG span a factor 2**{int(hi[i] - lo[i])}, beyond the 2**{COUNT_SPREAD} that float64 holds even "
            "scaled; this source's dependencies cannot be computed in float64: leave it out of sources=")
    move = (hi > SCALE_AT) | (lo < -SCALE_AT)
    if not move.any():
        return None
    e = np.where(move, (hi.astype(np.int64) + lo) >> 1, 0)
    rows = np.arange(b, dtype=np.int64)
    return E.matrix_from_coo(rows, rows, np.ldexp(1.0, -e), b, b, dtype=np.float64)



def level_scale(E, F, srcs, d):
    """``D = diag(2^-e)``, ``b x b``: the power of two a row (source) of level ``d``'s counts ``F`` is divided by.

    ``e = floor((x_max + x_min) / 2)`` of the binary exponents (:func:`numpy.frexp`) of the row's largest
    and smallest count, so the row's counts straddle 1.  Raises
    :class:`~la_graph.exceptions.NumericRangeError` when ``x_max - x_min > COUNT_SPREAD``.

    Examples
    --------
    >>> import numpy as np
    >>> from la_graph.engines import get_engine
    >>> from la_graph.algorithms.betweenness import level_scale
    >>> E = get_engine("reference")
    >>> F = E.matrix_from_coo(np.array([0, 0]), np.array([1, 2]), np.array([1.0, 12.0]), 1, 3)
    >>> E.to_numpy(level_scale(E, F, np.array([0]), 1)).tolist()        # exponents 1 and 4: divide by 2**2
    [[0.25]]
    """
    b = srcs.size
    _, hi = np.frexp(E.to_numpy(E.reduce_rows(F, "max"), fill=1.0))   # a row without entries: any scale
    _, lo = np.frexp(E.to_numpy(E.reduce_rows(F, "min"), fill=1.0))
    over = np.flatnonzero(hi - lo > COUNT_SPREAD)
    if over.size:
        i = int(over[0])
        raise NumericRangeError(
            f"betweenness: the shortest-path counts from source {int(srcs[i])} to the vertices at distance {d} "
            f"span a factor 2**{int(hi[i] - lo[i])}, beyond the 2**{COUNT_SPREAD} that float64 holds even "
            "scaled per level; this source's dependencies cannot be computed in float64: leave it out of sources=")
    rows = np.arange(b, dtype=np.int64)
    return E.matrix_from_coo(rows, rows, np.ldexp(1.0, -((hi.astype(np.int64) + lo) >> 1)), b, b, dtype=np.float64)
