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
duplicate edge is one edge: neither changes the result.  Edge weights are
ignored (NetworkX's default ``weight=None``): paths are counted by hops.

The batch size bounds the memory of the ``b x n`` level matrices: see
:func:`batch_size`.  Normalization follows ``networkx.betweenness_centrality``
(NetworkX 3.6) exactly, sampled sources included: see :func:`rescale`.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .. import _progress, _validation as V
from .._random import check_seed, sample_sources  # re-exported: its home is la_graph._random
from ..engines import get_engine
from ..exceptions import InvalidArgumentError, NumericRangeError
from .. import verify
from ._certify import Checker, fresh_seed, host
from ._registry import Cli, algorithm
from .steps import step

__all__ = ["betweenness_centrality", "batch_size", "rescale", "sample_sources", "COUNT_SPREAD"]

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


@algorithm("betweenness_centrality",
           cli=Cli("bc", "betweenness centrality (exact, or from --k sampled sources with --seed, or from --sources)",
                   options=("sources", "seed", "k"), defaults={"seed": 0}),
           networkx=("betweenness_centrality",), checker=Checker(
               "check_betweenness",
               lambda G, bc, a: verify.check_betweenness(
                   G, host(bc), normalized=a["normalized"], endpoints=a["endpoints"],
                   sources=(sample_sources(G.n, int(a["k"]), a["seed"])
                            if a["sources"] is None and a["k"] is not None and a["k"] < G.n else a["sources"])),
               # seed=None draws a fresh sample inside the algorithm, which the checker could not know: draw the
               # seed here instead (a fresh random seed: the same distribution of samples)
               prepare=lambda a: a.update(seed=fresh_seed()) if (
                   a["k"] is not None and a["sources"] is None and a["seed"] is None) else None,
               note="With ``k`` and ``seed=None`` a seed is drawn for the checker to know the sample (the same "
                    "distribution of samples)."), bench=("bc",),
           page="algorithms/betweenness.md",
           summary="Brandes batched over sources with masked mxm; exact, `k` sampled sources (seeded) or given `sources`; NetworkX's normalization")
def betweenness_centrality(G, k=None, *, normalized=True, endpoints=False, seed=None, sources=None,
                           engine=None, progress=False):
    """Shortest-path betweenness centrality of every vertex (Brandes, batched in linear algebra).

    ``bc[v]`` sums, over pairs ``s != t`` with ``v`` not ``s`` or ``t``, the
    fraction of the shortest ``s``-``t`` paths that pass through ``v``, as
    ``networkx.betweenness_centrality`` computes it (same normalization and
    the same scaling of sampled sources; NetworkX 3.6).

    Parameters
    ----------
    G : Graph
        Directed (paths follow the edges) or undirected.  Edge weights are
        ignored: paths are counted by hops, as NetworkX does with its default
        ``weight=None``.  Self-loops and duplicate edges change nothing.
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
        bad ``seed``, ``normalized`` or ``endpoints`` not a bool.
    InvalidSourceError
        A source out of range, or given twice.

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
    """
    G = V.check_graph(G)
    normalized = V.check_flag(normalized, "normalized")
    endpoints = V.check_flag(endpoints, "endpoints")
    progress = V.check_flag(progress, "progress")
    seed = None if seed is None else check_seed(seed)
    n = G.n
    if k is not None and sources is not None:
        raise InvalidArgumentError("give k (a number of sampled sources) or sources (a list), not both")
    if sources is not None:
        srcs = V.check_distinct(V.check_vertices(sources, n))
    elif k is not None and _check_k(k, n) < n:
        srcs = sample_sources(n, int(k), seed)
    else:
        srcs = np.arange(n, dtype=np.int64)
    E = get_engine(engine)
    bc = _brandes(E, G, srcs, endpoints, progress)
    exact = srcs.size == n
    return rescale(bc, n, normalized=normalized, directed=G.directed, endpoints=endpoints,
                   sources=None if exact else srcs)


def batch_size(nsources, n):
    """How many sources one batch takes: ``b * n * WORK_BYTES`` within ``BATCH_BYTES`` and free memory.

    A batch keeps ``b x n`` matrices: every BFS level's path counts, the
    visited pattern, and the backward sweep's temporaries, ``WORK_BYTES`` per
    (source, vertex) where every source reaches every vertex.  The batch is
    the largest with that within ``BATCH_BYTES`` (512 MiB) and within the
    available memory (:func:`la_graph._validation.source_batch`, which raises
    :class:`~la_graph.exceptions.OutOfMemory` when not even one source fits);
    at least 1, at most ``nsources``.
    """
    fit = V.source_batch(nsources, n, 0, WORK_BYTES, "betweenness centrality")
    return int(max(1, min(nsources, fit, BATCH_BYTES // max(n * WORK_BYTES, 1))))


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
    if not np.isfinite(bc).all():   # a safety net: the level scaling keeps every sum within range
        v = int(np.flatnonzero(~np.isfinite(bc))[0])
        raise NumericRangeError(f"betweenness: the dependency sum of vertex {v} is {bc[v]} (not finite) even with "
                                "path counts scaled per level; please report the graph")
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


def _brandes_batch(E, G, srcs, total, ends):
    """One batch of :func:`brandes_sources`' algebra: forward levels by ``mxm``, then the sweep back."""
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
    if len(levels) < 3:   # no vertex strictly between a source and a target
        return reached
    W = E.mxm(scales.pop(), E.apply(levels.pop(), "minv"), "plus_times")   # deepest level: (1 + 0) / sigma
    while len(levels) > 1:   # backward, down to level 1
        Fd, Dd = levels.pop(), scales.pop()
        T = E.mxm(W, AT, "plus_first", mask=Fd, structural=True)   # sum over children of (1 + delta) / sigma
        delta = E.ewise_mult(Fd, T, "times")
        E.vxm(ones, delta, "plus_second", out=total, accum="plus")
        if len(levels) > 1:   # to the scale of level d - 1, as T above is at level d's
            W = E.mxm(Dd, E.ewise_add(E.apply(Fd, "minv"), T, "plus"), "plus_times")
    return reached


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
