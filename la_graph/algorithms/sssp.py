"""Single-source and batched shortest paths in the min-plus semiring.

Distances ``d`` are a float64 vector (``inf``: not reached yet).  One
*relaxation* of a frontier ``q`` (the vertices whose distance just dropped,
holding those distances) over a set of edges ``A`` is

``t = q min.plus A``;  keep ``t < d``;  ``d<t> = t``;  ``parent<t> = argmin``

where the parent of an improved vertex ``v`` is the smallest frontier vertex
``u`` with ``q[u] + A[u, v] == t[v]``.  The kept ``t`` is the next frontier.

* **Bellman-Ford** repeats relaxations of the whole graph from the source.
  Without a negative cycle every shortest path has at most ``n - 1`` edges, so
  the frontier is empty after ``n`` rounds; if it is not, a negative cycle is
  reachable and walking ``n`` parents back from a vertex that improved in
  round ``n`` lands on it (:class:`~la_graph.exceptions.NegativeCycleError`).
* **Delta-stepping** (Meyer & Sanders 2003; LAGraph's formulation, Sridhar
  et al. 2019) splits the edges into light (``w <= delta``) and heavy ones and
  keeps the tentative distances in buckets ``[b*delta, (b+1)*delta)``.  The
  smallest non-empty bucket is settled by relaxing light edges from its
  vertices until it stops changing, then the heavy edges of every vertex it
  held once; then the next non-empty bucket.  Non-negative weights only.
* **Unweighted graphs** have hop distances: a BFS (:func:`la_graph.bfs`).
* **Several sources** run together: the frontier is a matrix with one row per
  source and a relaxation is ``T = Q min.plus A``, Bellman-Ford rounds until
  ``Q`` is empty.

Four steps an engine may fuse (:mod:`la_graph.algorithms.steps`), each written
below in primitives: ``sssp_relax`` is one relaxation (the GPU engine's CUDA
kernel), ``sssp_delta_stepping`` settles a bucket (the CPU engine settles all of
them in one compiled call: on a road network there are thousands of small light
rounds, each a handful of calls), ``sssp_bellman_ford`` runs rounds and
``sssp_batch`` runs a multi-source search; the algebra of the last three is
loops of ``sssp_relax``.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from ..exceptions import InvalidArgumentError, NegativeCycleError, PathLengthOverflowError
from .. import verify
from ._certify import Checker, host, nonnegative, per_source, searched
from ._registry import Cli, algorithm
from .bfs import bfs
from .steps import step

__all__ = ["sssp", "SSSPResult", "sssp_relax", "sssp_delta_stepping", "sssp_bellman_ford", "sssp_batch"]

METHODS = ("auto", "bellman_ford", "delta_stepping")


@dataclass(frozen=True)
class SSSPResult:
    """Distances and parents of a shortest-path search.

    Attributes
    ----------
    distance : numpy.ndarray
        ``distance[v]`` the length of a shortest path from the source, ``inf``
        where unreachable (float64; shape ``(n,)``, or ``(k, n)`` for ``k`` sources).
    parent : numpy.ndarray or None
        ``parent[v]`` the vertex before ``v`` on a shortest path,
        ``parent[source] = source``, ``-1`` where unreachable (int64).
    source : int or None
        The source of a single-source search.
    sources : numpy.ndarray or None
        The sources of a multi-source search, in row order.
    method : str
        The method that ran: ``"bfs"`` (unweighted), ``"bellman_ford"`` or ``"delta_stepping"``.
    delta : float or None
        The bucket width delta-stepping used.
    """

    distance: np.ndarray
    parent: np.ndarray | None
    source: int | None = None
    sources: np.ndarray | None = None
    method: str = ""
    delta: float | None = None


@algorithm("sssp",
           cli=Cli("sssp", "single-source shortest paths from --source or --sources (--method, --delta)",
                   options=("source", "sources", "method", "delta")),
           networkx=("single_source_dijkstra_path_length", "single_source_dijkstra_path", "single_source_dijkstra",
                     "dijkstra_path", "dijkstra_path_length", "multi_source_dijkstra", "multi_source_dijkstra_path",
                     "multi_source_dijkstra_path_length", "all_pairs_dijkstra", "all_pairs_dijkstra_path",
                     "all_pairs_dijkstra_path_length", "bidirectional_dijkstra", "bellman_ford_path_length",
                     "bellman_ford_path", "single_source_bellman_ford", "single_source_bellman_ford_path",
                     "single_source_bellman_ford_path_length", "all_pairs_bellman_ford_path",
                     "all_pairs_bellman_ford_path_length", "negative_edge_cycle", "shortest_path", "shortest_path_length",
                     "johnson"), checker=Checker("check_sssp", lambda G, r, a: verify.check_sssp(G, searched(r), host(r.distance), host(r.parent)),
                           sampled="check_sssp_sample distances only, if no weight is negative",
                           sample=lambda G, r, a: per_source(verify.check_sssp_sample, G, r, r.distance),
                           sample_ok=lambda G, a: nonnegative(G)),
           bench=("sssp",), page="algorithms/sssp.md",
           summary="Δ-stepping (min-plus with light/heavy buckets; on the GPU near-far in one persistent kernel launch), Bellman–Ford with negative-cycle reports; multi-source")
def sssp(G, source=None, *, sources=None, method="auto", delta=None, parent=True, engine=None):
    """Shortest-path distances (and parents) from one source or several.

    Parameters
    ----------
    G : Graph
        Directed or undirected; edge ``u -> v`` has weight ``A[u, v]``
        (unweighted graphs: every edge 1, hop distances by BFS).  Weights may be
        negative (then Bellman-Ford; a negative cycle reachable from a source
        raises :class:`~la_graph.exceptions.NegativeCycleError`).
    source : int, optional
        The source vertex (give this or ``sources``).
    sources : sequence of int, optional
        Several sources, searched together; results get one row per source.
    method : {"auto", "bellman_ford", "delta_stepping"}
        ``"auto"``: BFS on an unweighted graph, or where every weight is the
        same positive integer ``w`` (distances ``w`` x hops, exact: no sum
        can round), Bellman-Ford when some weight is negative, else
        delta-stepping.
    delta : float, optional
        Bucket width of delta-stepping (> 0); default: the largest weight over
        the average out-degree, at least the smallest positive weight.  Changes
        the speed, not the distances.  Other methods ignore it.
    parent : bool
        Compute parents too.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    SSSPResult
        ``.distance`` (float64, ``inf`` where unreachable) and ``.parent``
        (int64, ``-1`` where unreachable, ``parent[source] = source``).

    Raises
    ------
    NegativeCycleError
        A cycle of negative weight is reachable from a source; ``.cycle`` lists
        its vertices in edge order, ``.vertex`` is one of them.
    PathLengthOverflowError
        A reached vertex's distance overflows float64 (weights near 1e308):
        it would otherwise read as ``inf``, unreachable.

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], w=[4.0, 1.0, 2.0, 5.0], directed=True)
    >>> r = lg.sssp(G, 0)
    >>> r.distance.tolist(), r.parent.tolist()
    ([0.0, 4.0, 1.0, 6.0], [0, 0, 0, 2])
    >>> lg.sssp(G, sources=[1, 3], parent=False).distance.tolist()
    [[inf, 0.0, 2.0, 7.0], [inf, inf, inf, 0.0]]
    >>> H = lg.Graph.from_edges([0, 1, 2], [1, 2, 1], w=[1.0, 1.0, -3.0], directed=True)
    >>> lg.sssp(H, 0)
    Traceback (most recent call last):
    ...
    la_graph.exceptions.NegativeCycleError: a negative cycle is reachable from source 0: 1 -> 2 -> 1 has weight -2.0
    """
    G = V.check_graph(G)
    V.check_choice(method, set(METHODS), what="method")
    parent = V.check_flag(parent, "parent")
    if delta is not None:
        if (isinstance(delta, (bool, np.bool_)) or not isinstance(delta, (numbers.Real, np.floating, np.integer))
                or not math.isfinite(delta) or delta <= 0):
            raise InvalidArgumentError(f"delta must be a positive finite number, got {delta!r}")
        delta = float(delta)
    if (source is None) == (sources is None):
        raise V.InvalidSourceError("give exactly one of source= or sources=")
    if sources is not None:
        srcs = V.check_vertices(sources, G.n)
    else:
        s = V.check_vertex(source, G.n)
    E = get_engine(engine)

    hop = 1   # the length of every edge where all are alike (unweighted), else None
    if G.weighted:
        wmin, wmax, wpos = G.weight_range()
        # one positive integer weight everywhere (a NetworkX graph read with weight="weight" and no such
        # attribute: all 1) is a BFS too, 5x faster than delta-stepping on G(100k, 800k); every path's length an
        # exact integer either way
        uniform = (method == "auto" and 0 < wmin == wmax and float(wmax).is_integer()
                   and wmax * max(G.n - 1, 1) <= 2.0 ** 53)
        hop = wmax if uniform else None
    if hop is not None:  # hop distances, times the one weight
        r = bfs(G, source, sources=sources, parent=parent, engine=E)
        dist = np.where(r.level >= 0, r.level * hop, np.inf)
        return SSSPResult(dist, r.parent, r.source, r.sources, "bfs", None)
    if method == "delta_stepping" and wmin < 0:
        raise InvalidArgumentError(
            f"delta_stepping needs non-negative weights, got a weight of {wmin}; use method='bellman_ford'")
    if method == "auto":
        method = "bellman_ford" if wmin < 0 else "delta_stepping"
    if method == "delta_stepping":
        delta = _default_delta(G, wmax, wpos) if delta is None else V.check_bucket_width(delta, G.n, wmax)
    if method == "bellman_ford":
        delta = None

    if sources is not None:
        # distances and parents (8 bytes each): the returned arrays, and the engine's matrices and frontier
        kept = 8 * (1 + int(bool(parent)))
        batch = V.source_batch(srcs.size, G.n, kept, kept + 9, "a shortest-path search")
        dist = np.empty((srcs.size, G.n))
        par = np.empty((srcs.size, G.n), np.int64) if parent else None
        for lo in range(0, srcs.size, batch):   # one batch unless the engine's copies for all would not fit
            chunk = srcs[lo:lo + batch]
            D, P, active = sssp_batch(E, G, chunk, delta, G.n, parent)
            if active.any():  # a negative cycle: find it from the first such source
                _bellman_ford(E, G, int(chunk[np.argmax(active)]))
            dist[lo:lo + batch] = E.to_numpy(D, fill=np.inf, consume=True)
            if parent:
                par[lo:lo + batch] = E.to_numpy(P, fill=-1, consume=True)
        _check_overflow(E, G, srcs, dist, max(abs(wmin), abs(wmax)))
        return SSSPResult(dist, par, None, srcs, method, delta)

    if method == "bellman_ford":
        d, p = _bellman_ford(E, G, s)
    else:
        d, p = _delta_stepping(E, G, s, delta, parent)
    dist = E.to_numpy(d, fill=np.inf, consume=True)
    par = E.to_numpy(p, fill=-1, consume=True).astype(np.int64, copy=False) if parent else None
    _check_overflow(E, G, np.array([s]), dist, max(abs(wmin), abs(wmax)))
    return SSSPResult(dist, par, s, None, method, delta)


def _check_overflow(E, G, sources, dist, wabs):
    """Raise where a reached vertex has an infinite distance: its path's length overflowed float64.

    Only possible when ``n - 1`` weights of the largest magnitude ``wabs`` can sum past
    float64's largest value; otherwise nothing is done.
    """
    if wabs * max(G.n - 1, 1) < np.finfo(np.float64).max:
        return
    reached = bfs(G, sources=sources, parent=False, engine=E).level >= 0
    bad = np.argwhere(reached & np.isinf(dist.reshape(reached.shape)))
    if bad.size:
        i, v = bad[0]
        exc = PathLengthOverflowError(
            f"vertex {v} is reached from {sources[i]}, but the length of the path does not fit in float64 "
            f"(its weights sum past {np.finfo(np.float64).max:.4g}); rescale the weights")
        exc.source, exc.vertex = int(sources[i]), int(v)     # apsp's Johnson step names its own vertices
        raise exc


def _start(E, n, s, want_parent):
    """``d`` full of ``inf`` with ``d[s] = 0``; ``parent`` full of -1 with ``parent[s] = s``."""
    d = E.full(n, np.inf, np.float64)
    at_s = E.vector_from_coo([s], [0.0], n, dtype=np.float64)
    E.assign(d, at_s, mask=at_s, structural=True)
    p = None
    if want_parent:
        p = E.full(n, -1, np.int64)
        E.assign(p, E.vector_from_coo([s], [s], n, dtype=np.int64), mask=at_s, structural=True)
    return d, p


def _delta_stepping(E, G, s, delta, want_parent):
    d, p = _start(E, G.n, s, want_parent)
    bucket = 0
    while bucket is not None:  # settle bucket after bucket (the engine may settle several per call)
        d, p, bucket = sssp_delta_stepping(E, G, d, p, bucket, delta)
    return d, p


def _bellman_ford(E, G, s):
    """Bellman-Ford from ``s`` (parents always kept: they locate a negative cycle)."""
    n = G.n
    d, p = _start(E, n, s, True)
    q = E.vector_from_coo([s], [0.0], n, dtype=np.float64)
    d, p, q, _ = sssp_bellman_ford(E, G, d, p, q, n)
    if E.nvals(q):
        x, _ = E.to_coo(q)
        _raise_negative_cycle(G, s, E.to_numpy(p, fill=-1), int(x[0]))
    return d, p


def _raise_negative_cycle(G, s, parent, x):
    """``x`` improved in round ``n``: ``n`` parents back from it lies a negative cycle."""
    y = x
    for _ in range(G.n):
        y = int(parent[y])
    cycle = [y]
    v = int(parent[y])
    while v != y and len(cycle) <= G.n:
        cycle.append(v)
        v = int(parent[v])
    cycle.reverse()  # edge order: cycle[i] -> cycle[i+1]
    weight = sum(G.edge_weight(u, v) for u, v in zip(cycle, cycle[1:] + cycle[:1]))
    path = " -> ".join(str(v) for v in cycle + cycle[:1])
    exc = NegativeCycleError(f"a negative cycle is reachable from source {s}: {path} has weight {weight}")
    exc.vertex = y
    exc.cycle = cycle
    raise exc


def _default_delta(G, wmax, wpos):
    """The bucket width: the largest weight over the average out-degree (Meyer & Sanders'
    ``Theta(1/degree)`` for weights in ``[0, 1]``), at least the smallest positive weight."""
    if wmax <= 0:
        return 1.0
    avg_degree = max(G.nnz / max(G.n, 1), 1.0)
    return max(wmax / avg_degree, wpos)


# ---------------------------------------------------------------- the steps
@step("sssp_delta_stepping")
def sssp_delta_stepping(E, G, d, parent, bucket, delta):
    """Settle delta-stepping bucket ``bucket``; returns ``(d, parent, next_bucket)``.

    ``G`` has non-negative weights; ``d`` is a full float64 vector of tentative
    distances (``inf``: not reached), ``parent`` a full int64 vector (``-1``:
    none) or ``None``.  Bucket ``b`` holds the vertices with ``b*delta <= d[v]
    < (b+1)*delta``; those of buckets before ``bucket`` are settled.  Relax the
    light edges (``w <= delta``) from the bucket's vertices whose distance
    changed until the bucket stops changing, then the heavy edges of every
    vertex it held (all its edges when most are heavy, see :func:`_split`).
    ``next_bucket`` is the smallest non-empty bucket left, ``None`` when
    there is none.  Engines may settle more buckets per call (the CPU engine
    settles all); the distances are the same.
    """
    AL, AH = _split(E, G, delta)
    lo, hi = bucket * delta, (bucket + 1) * delta
    q = E.select(E.select(d, "valuege", lo), "valuelt", hi)
    held = None
    while E.nvals(q):
        held = q if held is None else E.ewise_add(held, q, "first")
        q = E.select(sssp_relax(E, AL, q, d, parent), "valuelt", hi)
    if held is not None and AH is not None:
        sssp_relax(E, AH, E.ewise_mult(d, held, "first"), d, parent)
    m = E.reduce(E.select(d, "valuege", hi), "min")
    if not m < float("inf"):
        return d, parent, None
    nxt = max(int(m // delta), bucket + 1)  # the bucket holding m, with the bounds computed as above
    while nxt * delta > m:
        nxt -= 1
    while (nxt + 1) * delta <= m:
        nxt += 1
    return d, parent, max(nxt, bucket + 1)


@step("sssp_bellman_ford")
def sssp_bellman_ford(E, G, d, parent, q, max_rounds):
    """Bellman-Ford rounds from frontier ``q``; returns ``(d, parent, q, rounds)``.

    ``d`` a full float64 vector (``inf``: not reached), ``parent`` a full int64
    vector or ``None``, ``q`` a sparse float64 vector: the vertices whose
    distance just dropped, holding it.  A round relaxes every out-edge of ``q``
    (see :func:`sssp_relax`); the improved vertices are the next ``q``.  Stops
    when ``q`` is empty or after ``max_rounds`` rounds.  Engines may relax with
    distances that dropped within the round (the fixpoint is the same, and a
    vertex still improving after ``n`` rounds still means a negative cycle).
    With parents, they may also stop as soon as the parents form a cycle (a
    parent changes only on a strict drop, so the cycle is negative); ``q`` is
    then one vertex on it.  By default the parents are searched after rounds
    1, 2, 4, 8, ... (:func:`_parent_cycle`).
    """
    A = E.matrix(G)
    roots = None
    if parent is not None:  # the sources: their own parents (a source whose distance dropped is not a root)
        roots = E.select(E.ewise_mult(parent, E.iota(G.n), "eq"), "valueeq", True)
    for rounds in range(max_rounds):
        if E.nvals(q) == 0:
            return d, parent, q, rounds
        q = sssp_relax(E, A, q, d, parent)
        if roots is not None and E.nvals(q) and (rounds + 1) & rounds == 0:
            c = _parent_cycle(E, parent, d, roots)
            if c >= 0:
                return d, parent, E.vector_from_coo([c], [0.0], G.n, dtype=np.float64), rounds + 1
    return d, parent, q, max_rounds


def _parent_cycle(E, parent, d, roots):
    """A vertex on a cycle of the parent pointers, or -1 (pointer jumping: ``log2 n`` gathers).

    ``P`` (a full int64 vector, -1: none) with -1 read as "points to itself";
    after ``ceil(log2 n) + 1`` squarings ``P^(2^k)[v]`` is where ``v``'s chain
    ends: a vertex on a cycle of 2 or more, or a vertex pointing to itE.  A
    vertex pointing to itself is a cycle unless it is a root (a source) whose
    distance has not dropped below 0.
    """
    n = E.size(parent)
    me = E.iota(n)
    P = E.copy(parent)
    E.assign(P, me, mask=E.select(parent, "valuelt", 0))
    Pk = E.copy(P)
    for _ in range(max(n - 1, 1).bit_length() + 1):
        Pk = E.extract(Pk, Pk)
    ends = E.ewise_mult(E.extract(P, Pk), Pk, "ne")       # ends[v]: v's chain ends on a longer cycle
    on_cycle = E.apply(Pk, "identity", mask=ends)
    if E.nvals(on_cycle):
        return int(E.reduce(on_cycle, "min"))
    selfp = E.select(E.ewise_mult(parent, me, "eq"), "valueeq", True)  # v -> v
    fake = E.ewise_mult(roots, E.select(d, "valuege", 0), "first")   # roots still at >= 0
    loops = E.apply(selfp, "identity", mask=fake, structural=True, complement=True)
    if E.nvals(loops):
        return int(E.reduce(E.apply(me, "identity", mask=loops, structural=True), "min"))
    return -1


@step("sssp_batch")
def sssp_batch(E, G, sources, delta, max_rounds, parent):
    """Shortest paths from each of ``sources`` (a numpy int64 array), one row each.

    Returns ``(D, P, active)``: ``D`` a k x n float64 matrix (missing or ``inf``:
    unreachable), ``P`` a k x n int64 matrix of parents (missing or -1: none;
    ``None`` without ``parent``) and ``active`` a numpy bool per row: still
    improving after ``max_rounds`` Bellman-Ford rounds (a negative cycle).
    ``delta`` is ``None`` with negative weights, else a bucket width engines may
    use for delta-stepping.  By default: Bellman-Ford rounds ``Q = Q min.plus A``
    on a frontier matrix (one row per source).
    """
    k, n = sources.size, G.n
    rows = np.arange(k, dtype=np.int64)
    A = E.matrix(G)
    D = E.matrix_from_coo(rows, sources, np.zeros(k), k, n, dtype=np.float64)
    P = E.matrix_from_coo(rows, sources, sources.copy(), k, n, dtype=np.int64) if parent else None
    Q = E.copy(D)
    for _ in range(max_rounds):
        Q = sssp_relax(E, A, Q, D, P)
        if E.nvals(Q) == 0:
            return D, P, np.zeros(k, bool)
    active = np.zeros(k, bool)
    active[E.to_coo(Q)[0]] = True
    return D, P, active


def _split(E, G, delta):
    """Light (``w <= delta``) and heavy edges of ``G``; the last split is kept on ``G``.

    When most edges are heavy (the default delta leaves about one light edge a vertex), the heavy
    ones are the whole matrix: relaxing a settled bucket's light edges again changes no distance,
    and no second copy of most of the graph is made (R-MAT 28 on four H100s had no room for it).
    The heavy part is ``None`` when there is no heavy edge (known once, not asked each bucket)."""
    key = (E.cache_key, "sssp_split")
    hit = G._engine_cache.get(key)
    if hit is None or hit[0] != delta:
        A = E.matrix(G)
        AL = E.select(A, "valuele", delta)
        light, every = E.nvals(AL), E.nvals(A)
        AH = None if light == every else A if 2 * light <= every else E.select(A, "valuegt", delta)
        hit = G._engine_cache[key] = (delta, AL, AH)
    return hit[1], hit[2]


@step("sssp_relax")
def sssp_relax(E, A, q, d, parent):
    """One relaxation of frontier ``q`` over the edges of matrix ``A``; returns the next frontier.

    ``t = q min.plus A``; keep ``t`` where ``d`` has no entry or ``t < d``;
    ``d<t> = t``; ``parent<t> = argmin``, the smallest frontier vertex ``u``
    with ``q[u] + A[u, v] == t[v]`` (``parent`` may be ``None``).  ``q`` holds
    the distances its vertices had when they entered the frontier.  ``q``,
    ``d``, ``parent`` are vectors, or k x n matrices (one row per source, then
    ``mxm``).  ``d`` and ``parent`` are updated in place; the kept ``t`` is
    returned.  The other sssp steps' plain versions are loops of this one.
    """
    vec = isinstance(E.size(q), int)
    t = (E.vxm if vec else E.mxm)(q, A, "min_plus")
    better = E.ewise_mult(t, d, "lt")
    t = E.ewise_add(E.apply(t, "identity", mask=better),
                       E.apply(t, "identity", mask=d, structural=True, complement=True), "first")
    if parent is not None:
        tc = E.to_coo(t) if vec else None       # the vector's entries, read once: whether any, and diag(t)
        if (tc[0].size if vec else E.nvals(t)):
            P = _argmin(E, A, q, t, tc)
            E.assign(parent, P, mask=P, structural=True)
    E.assign(d, t, mask=t, structural=True)
    return t


def _argmin(E, A, q, t, tc):
    """For each entry ``(i, v)`` of ``t``: the smallest ``u`` with ``q[i, u] + A[u, v] == t[i, v]``.

    With one row ``r`` per frontier entry ``(i_r, u_r)``: ``X[r, v] = q_r + A[u_r, v]``,
    ``Y[r, v] = t[i_r, v]`` on ``X``'s pattern; the tight ``(r, v)`` have ``X == Y``, and
    ``P[i, v] = min u_r`` over the tight ``r`` of row ``i`` (a ``min.first`` product; for a
    vector ``q``, ``u min.first tight`` with ``u[r] = u_r``).  ``tc``: a vector ``t``'s
    ``(indices, values)``, ``None`` for a matrix.
    ``Y`` is never the whole outer product of the frontier and ``t``: a hub's heavy edges relaxed
    after a bucket of thousands made it 10^8 entries (a 20,000-leaf star).
    """
    n = E.size(A)[1]
    vec = tc is not None
    if vec:
        qu, qv = E.to_coo(q)
        qi = np.zeros(qu.size, np.int64)
    else:
        qi, qu, qv = E.to_coo(q)
    m = qu.size
    r = np.arange(m, dtype=np.int64)
    X = E.mxm(E.matrix_from_coo(r, qu, qv, m, n, dtype=np.float64), A, "min_plus")
    if vec:      # Y = X's pattern times diag(t): one product per entry of X
        Y = E.mxm(X, E.matrix_from_coo(tc[0], tc[0], tc[1], n, n, dtype=np.float64), "any_second")
    else:
        Y = E.mxm(E.matrix_from_coo(r, qi, np.ones(m, bool), m, E.size(q)[0], dtype=bool), t, "any_second",
                  mask=X, structural=True)
    tight = E.select(E.ewise_mult(X, Y, "eq"), "valueeq", True)
    if vec:
        return E.vxm(E.vector_from_coo(r, np.asarray(qu, np.int64), m, dtype=np.int64), tight, "min_first")
    return E.mxm(E.matrix_from_coo(qi, r, np.asarray(qu, np.int64), E.size(q)[0], m, dtype=np.int64), tight,
                 "min_first")
