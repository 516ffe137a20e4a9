"""The algebraic steps the CPU engine runs as one compiled loop each (its ``fused_steps``).

Each function here takes exactly the arguments of the step of the same name
(written in primitives in its algorithm module, ``la_graph/algorithms/``) and
returns what that step returns; the numba loops are in the ``kernels_*``
modules.  A function that cannot take its arguments raises
:class:`~la_graph.engines.base.Declined` before it changes anything, and the
step's algebra runs instead.
"""

from __future__ import annotations

import functools
from types import MappingProxyType

import numba
import numpy as np
from graphblas import Matrix, Vector

from ..._keys import weight_ranks
from ...exceptions import NumericRangeError
from ..base import Declined
from . import (kernels_apsp, kernels_bc, kernels_bfs, kernels_cc, kernels_kcore, kernels_msf, kernels_pr,
               kernels_reach, kernels_scc, kernels_sssp, kernels_tc)
from .kernels_msf import MSFEdges
from .objects import (_bitmap_views, _frontier, _indices, _numpy_views, _owning_full, _queue, _unsigned, _vnvals,
                      _vsize)

_FUSED = {}

#: the most work, in edges (or vertices) touched, a kernel call does before it returns to this
#: module's loop, which calls it again: Python's KeyboardInterrupt (Ctrl-C) takes effect between
#: calls, so an interrupt stops a long loop within about a call's time.  2**25 random-access
#: edges take ~0.1-0.3 s on one core; a smaller call costs its few microseconds of dispatch
CALL_WORK = 1 << 25

#: step name -> its CPU implementation (``CPUEngine.fused_steps``)
FUSED = MappingProxyType(_FUSED)


def _interrupt_in(exc):
    """The KeyboardInterrupt ``exc`` was raised from, or None."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def _interruptible(fn):
    """``fn`` raising a Ctrl-C that came during a numba call as KeyboardInterrupt.

    A numba function returning an array boxes it through a Python call (the
    dtype, from numba's pickled constants); a SIGINT that arrived during the
    loop makes Python raise KeyboardInterrupt there, and numba's dispatcher
    reports that as SystemError("returned a result with an exception set").
    The call itself had finished: only its result is lost.
    """
    @functools.wraps(fn)
    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except SystemError as exc:
            interrupt = _interrupt_in(exc)
            if interrupt is None:
                raise
            raise interrupt.with_traceback(interrupt.__traceback__) from None
    return run


def fuses(fn):
    """Declare ``fn`` the CPU implementation of the step of its name (Ctrl-C within it: KeyboardInterrupt)."""
    _FUSED[fn.__name__] = _interruptible(fn)
    return fn


def _need_full(step, *vectors):
    """Decline ``step`` unless ``vectors`` are full and distinct (they are lent to numba as numpy arrays)."""
    if len({id(v) for v in vectors}) < len(vectors):
        raise Declined(f"{step} lends its vectors to numba: they must be distinct objects")
    if any(_vnvals(v) != _vsize(v) for v in vectors):
        raise Declined(f"{step} needs full vectors")


def _need_weights(step, G):
    if G.weights is None:
        raise Declined(f"{step} needs a weighted graph")


# ---- bfs ----
def _need_visited(step, parent, level):
    if parent is None and level is None:
        raise Declined(f"{step} needs parent or level: the visited set is its structure")


_NO_DEGREES = np.empty(0, np.int64)   # the BFS kernels: an undirected graph's in-degrees are its out-degrees
_NOT_KEPT = np.empty(0, np.int64)      # a BFS result not kept
_DIRECTIONS = {"auto": kernels_bfs.AUTO, "push": kernels_bfs.PUSH, "pull": kernels_bfs.PULL}


def _csr(G):
    """``G``'s CSR as the BFS kernels take it: ``(indptr, indices, max_degree)``, unsigned, cached.

    ``G.indptr`` is int64; below 2**32 stored entries a 32-bit copy (made once
    per graph, 4 bytes a vertex) halves what every row lookup reads.
    ``max_degree`` is the largest out-degree.
    """
    key = ("cpu", "csr32")
    csr = G._engine_cache.get(key)
    if csr is None:
        indptr = G.indptr
        if G.nnz < 1 << 32:
            indptr = indptr.astype(np.uint32)
        csr = G._engine_cache[key] = (_unsigned(indptr), _unsigned(G.indices), int(G.out_degree.max(initial=0)))
    return csr


def _bfs_queue(q, n, dtype):
    """The frontier ``q`` as the BFS kernels' queue: ``q``'s vertices first, room for every vertex after them."""
    nq = _vnvals(q)
    queue = np.empty(n + nq, dtype)  # q's vertices are visited (room for n after them is room for everything)
    queue[:nq] = _indices(q)
    return queue, nq


def _in_degrees(G):
    """What the BFS kernels take for the in-degrees: ``G.in_degree``, or empty when undirected (the out-degree)."""
    return G.in_degree if G.directed else _NO_DEGREES


class _visited_views(_bitmap_views):
    """Lend ``parent`` and ``level`` as the BFS kernels take them: values ``-1`` where absent.

    ``with _visited_views(parent, level) as (vis, seen, par, lev)``: ``seen``
    is ``par`` if the parents are kept, else ``lev``, and ``vis`` its bitmap
    (the visited set is that vector's structure); on exit each bitmap becomes
    its values' ``>= 0``.
    """

    def __enter__(self):
        (self.pb, pv), (self.lb, lv) = super().__enter__()
        for present, values in ((self.pb, pv), (self.lb, lv)):
            kernels_bfs.fill_absent(values, present, -1)
        self.par, self.lev = pv, lv
        return ((self.pb, pv) if pv.size else (self.lb, lv)) + (pv, lv)

    def __exit__(self, *exc):
        for present, values in ((self.pb, self.par), (self.lb, self.lev)):
            np.greater_equal(values, 0, out=present)
        return super().__exit__(*exc)


@fuses
def bfs_push(E, G, q, parent, level, k, max_edges):
    """Push levels in one numba loop over the CSR, on the parent/level vectors lent as bitmaps."""
    _need_visited("bfs_push", parent, level)
    n = G.n
    if _vnvals(q) == 0:
        return q, k, 0, 0, 0, 0
    indptr, indices, max_degree = _csr(G)
    queue, nf = _bfs_queue(q, n, indices.dtype)  # the queue holds vertex ids: 32 bits up to 2**31 vertices
    if kernels_bfs.out_edges(indptr, queue, 0, nf) > max_edges:
        return q, k, nf, 0, 0, 0
    with _visited_views(parent, level) as (vis, seen, par, lev):
        lo, hi, k, _ = kernels_bfs.push_levels(indptr, indices, queue, 0, nf, vis, seen, par, lev, np.zeros(n, bool),
                                               k, max_edges, n, max_degree, False)
    scanned = kernels_bfs.out_edges(indptr, queue, 0, lo)   # the frontiers expanded
    found_in = kernels_bfs.degree_sum(_in_degrees(G), indptr, queue, nf, hi)
    return _frontier(queue[lo:hi], n, q.dtype), k, hi - lo, hi - nf, scanned, found_in


@fuses
def bfs_pull(E, G, q, parent, level, k, min_frontier=-1):
    """Pull levels in one numba loop over the CSR of ``A'`` (each unvisited vertex stops at its first parent)."""
    _need_visited("bfs_pull", parent, level)
    n = G.n
    tptr, tind, _ = _csr(G.T)
    queue, nf = _bfs_queue(q, n, tind.dtype)
    with _visited_views(parent, level) as (vis, seen, par, lev):
        lo, hi, k = kernels_bfs.pull_levels(tptr, tind, queue, 0, nf, np.zeros(n, bool), vis, seen, par, lev, k,
                                            min_frontier)
    found_in = kernels_bfs.out_edges(tptr, queue, nf, hi)   # rows of A': in-degrees
    return _frontier(queue[lo:hi], n, q.dtype), k, hi - lo, hi - nf, found_in


_BFS_SCRATCH = ("cpu", "bfs_scratch")

#: bfs_search pushes branchless (kernels_bfs.push_levels) on graphs of at most this average
#: degree and at least BFS_BRANCHLESS_MIN_N vertices: road networks, where whether a neighbour
#: is new is a coin toss and its entry a cache miss.  Bench-like runs (igraph between calls,
#: 2 cores), the push loop alone: usroads-48 0.87x scipy against 1.00x, luxembourg_osm 0.93x
#: against 0.99x; on rome99 (3,353 vertices, in cache) 1.11x against 0.85x, and on a grid
#: (degree 4) or a Delaunay mesh (6) 20% slower (neighbours share targets: the stores chain)
BFS_BRANCHLESS_DEGREE = 3.0
BFS_BRANCHLESS_MIN_N = 1 << 15


def _search_arrays(G):
    """What :func:`bfs_search` hands the loop for ``G`` (cached).

    The CSR of ``A`` and ``A'``, the in-degrees, the largest out-degree, and
    whether the push levels run branchless (see BFS_BRANCHLESS_DEGREE).
    """
    key = ("cpu", "bfs_search")
    arrays = G._engine_cache.get(key)
    if arrays is None:
        indptr, indices, max_degree = _csr(G)
        tptr, tind, _ = _csr(G.T)
        branchless = G.n >= BFS_BRANCHLESS_MIN_N and G.nnz <= BFS_BRANCHLESS_DEGREE * G.n
        arrays = G._engine_cache[key] = (indptr, indices, tptr, tind, _in_degrees(G), max_degree, branchless)
    return arrays


@fuses
def bfs_search(E, G, s, level, parent, direction, output, rule):
    """The whole search in one numba loop (stretches and direction choice), into numpy arrays made here.

    No GraphBLAS object at all; from a vertex without out-edges not even the
    loop.  The loop's scratch (a queue and two bitmaps, 6 bytes a vertex) is
    kept on the graph for its next search (taken while in use, so concurrent
    searches never share it): fresh arrays cost page faults on every search
    wherever the allocator hands memory back to the system (cit-HepPh: 60 us
    of a 600 us search).
    """
    n = G.n
    lev = np.empty(n, np.int64) if level else _NOT_KEPT
    par = np.empty(n, np.int64) if parent else _NOT_KEPT
    arrays = _search_arrays(G)
    indptr = arrays[0]
    if indptr[s] == indptr[s + 1]:  # the source alone
        for out, at_s in ((lev, 0), (par, s)):
            if out.size:
                out.view(np.uint8).fill(0xFF)   # -1: a memset (int64 fill(-1) runs at half its speed)
                out[s] = at_s
    else:
        scratch = G._engine_cache.pop(_BFS_SCRATCH, None)
        if scratch is None:
            scratch = np.empty(n + 1, arrays[1].dtype), np.zeros(n, bool), np.zeros(n, bool)
        indptr, indices, tptr, tind, indeg, max_degree, branchless = arrays
        kernels_bfs.bfs_search(indptr, indices, tptr, tind, indeg, max_degree, s, *scratch, par, lev,
                               _DIRECTIONS[direction], rule.alpha_of(G), rule.beta1, rule.beta2, branchless)
        G._engine_cache[_BFS_SCRATCH] = scratch   # its bitmaps all false again (not put back if the loop failed)
    return (lev if level else None), (par if parent else None)


# ---- connected components ----
@fuses
def component_labels(E, G):
    """Afforest's sampled union-find in one numba pass (the CSR of an undirected graph is symmetric)."""
    if G.directed:
        raise Declined("component_labels' union-find needs the symmetric CSR of an undirected graph")
    f = np.empty(G.n, np.int64)
    _afforest(G, f)
    return _owning_full(f)   # f itself, no copy


def _afforest(G, f):
    """Afforest over ``G``'s CSR (symmetric) into ``f``."""
    indptr, indices, _ = _csr(G)
    kernels_cc.afforest(indptr, indices, f, kernels_cc.AFFOREST_ROUNDS, kernels_cc.AFFOREST_SAMPLES)


@fuses
def fastsv_round(E, A, f, gp, mngp):
    """The ``mngp`` product in GraphBLAS, then hooking, shortcutting and ``gp = f[f]`` in one numba loop."""
    _need_full("fastsv_round", f, gp, mngp)
    E.mxv(A, gp, "min_second", out=mngp, accum="min")
    with _numpy_views(f, gp, mngp) as (fa, ga, ma):
        changed = kernels_cc.fastsv_hook(fa, ga, ma)
    return f, gp, changed


# ---- scc ----
def _both_ways(G):
    """The CSR of ``G`` and of its transpose as the SCC kernels take them (column indices unsigned)."""
    T = G.T
    return G.indptr, _unsigned(G.indices), T.indptr, _unsigned(T.indices)


@fuses
def scc_trim(E, G, labels):
    """Trimming as a queue of vertices whose unlabelled in- or out-degree dropped to 0 (linear time)."""
    with _bitmap_views(labels) as ((done, lab),):
        return int(kernels_scc.scc_trim(*_both_ways(G), done, lab))


@fuses
def scc_fwbw(E, G, pivot, labels):
    """The forward and backward searches as two queue-based traversals."""
    with _bitmap_views(labels) as ((done, lab),):
        return int(kernels_scc.scc_fwbw(*_both_ways(G), done, lab, pivot))


@fuses
def scc_color(E, G, seed, labels):
    """The same labels as the coloring rounds, by Tarjan's algorithm over the unlabelled vertices (linear time)."""
    indptr, indices, _ = _csr(G)
    with _bitmap_views(labels) as ((done, lab),):
        return int(kernels_scc.tarjan(indptr, indices, done, lab))


def _symmetric(G):
    """Whether every arc of ``G`` has its reverse (computed once per graph: degrees, then the transpose's CSR)."""
    key = ("cpu", "symmetric")
    sym = G._engine_cache.get(key)
    if sym is None:
        sym = G._engine_cache[key] = bool(np.array_equal(G.out_degree, G.in_degree)
                                          and np.array_equal(G.indices, G.T.indices))
    return sym


#: scc_labels runs Tarjan alone up to this many vertices; beyond, the trim and the giant SCC's two
#: searches first (2-core machine, 2026-11, Pearce's form: R-MAT 20 218 ms alone against 249 ms;
#: R-MAT 21 593 against 565, uniform 20 452 against 405; web, social and citation graphs of
#: 35-100 k vertices: Tarjan alone 1.6-4x faster)
SCC_TARJAN_ONLY_MAX_N = 1 << 20


@fuses
def scc_labels(E, G, labels):
    """Tarjan's algorithm over the whole graph up to SCC_TARJAN_ONLY_MAX_N vertices; declined beyond.

    A digraph whose every arc has its reverse (an undirected graph stored as
    directed) has its weak components for SCCs, and its CSR is symmetric:
    Afforest's union-find (``component_labels``) labels it, at any size.
    """
    if _symmetric(G):
        with _bitmap_views(labels) as ((done, lab),):
            _afforest(G, lab)
            done[:] = True
        return labels
    if G.n > SCC_TARJAN_ONLY_MAX_N:
        raise Declined(f"scc_labels runs Tarjan alone up to {SCC_TARJAN_ONLY_MAX_N:,} vertices; this graph has "
                       f"{G.n:,}: the step's trim and searches (fused too) go first")
    scc_color(E, G, 0, labels)
    return labels


# ---- msf: both steps or neither (the edge set is this engine's own) ----
@fuses
def msf_edges(E, G):
    """A :class:`~.kernels_msf.MSFEdges`: the light edges packed, the heavy ones left in the CSR for later."""
    return MSFEdges(G, *weight_ranks(G.weights, G.nnz))


@fuses
def msf_round(E, f, edges, forest):
    """One Borůvka round in one pass that also drops the edges inside a tree (contraction)."""
    if not isinstance(edges, MSFEdges):
        raise Declined(f"msf_round takes the CPU engine's own edge set, got {type(edges).__name__}")
    _need_full("msf_round", f, forest)
    with _numpy_views(f, forest) as (fa, fo):
        hooked = edges.round(fa, fo)
    return edges, int(hooked)


@fuses
def msf_forest(E, G, forest):
    """The forest's CSR entries flagged and read back in CSR order (no sort of the keys)."""
    _need_full("msf_forest", forest)
    with _numpy_views(forest) as (fo,):
        m = int(np.count_nonzero(fo >= 0))
        u, v, p = np.empty(m, np.int64), np.empty(m, np.int64), np.empty(m, np.int64)  # numpy's own: packed uncopied
        kernels_msf.forest_entries(G.indptr, _unsigned(G.indices), fo, u, v, p)
    w = G.weights[p] if G.weighted else np.ones(m)
    return _owning_full(u), _owning_full(v), _owning_full(w)


# ---- sssp ----
def _search_vectors(step, d, parent):
    """Decline ``step`` unless ``d`` and ``parent`` (or None) are full and distinct: the kernels update them in place."""
    _need_full(step, *(v for v in (d, parent) if v is not None))   # distinct objects included


def _max_weight(G):
    """The largest edge weight of ``G`` (0 without edges), computed once per graph."""
    key = ("cpu", "max_weight")
    m = G._engine_cache.get(key)
    if m is None:
        m = G._engine_cache[key] = float(G.weights.max()) if G.nnz else 0.0
    return m


#: the compiled loops' buckets are this share of ``delta`` wide: one thread relaxing a
#: vertex's edges at once gains nothing from wide buckets, and narrower ones relax fewer
#: vertices twice (same run, 2 cores: rome99 0.227 -> 0.167 ms, usroads-48:w1-255
#: 17.8 -> 14.0 ms, rmat20:w1-255 680 -> 610 ms; flat between 0.1 and 0.3)
SSSP_BUCKET_SHARE = 0.25


def _bucket_width(delta, maxw):
    return kernels_sssp.effective_delta(delta * SSSP_BUCKET_SHARE, maxw)


@fuses
def sssp_delta_stepping(E, G, d, parent, bucket, delta):
    """Every bucket from ``bucket`` on, in one numba loop (``next_bucket`` is then None)."""
    _need_weights("sssp_delta_stepping", G)
    _search_vectors("sssp_delta_stepping", d, parent)
    maxw = _max_weight(G)
    with _numpy_views(d, parent) as (dd, pp):   # d and parent lent to the kernel: updated in place, no copies
        kernels_sssp.delta_stepping(G.indptr, _unsigned(G.indices), G.weights, dd, pp, bucket * delta,
                                    _bucket_width(delta, maxw), maxw)
    return d, parent, None


@fuses
def sssp_bellman_ford(E, G, d, parent, q, max_rounds):
    """Rounds in one numba loop, relaxing with the newest distances; stops at a cycle of the parents."""
    _need_weights("sssp_bellman_ford", G)
    _search_vectors("sssp_bellman_ford", d, parent)
    frontier, nf = _queue(q, np.int64)
    indices = _unsigned(G.indices)
    rounds = 0
    with _numpy_views(d, parent) as (dd, pp):   # d and parent lent to the kernel: updated in place, no copies
        nxt, *scratch = kernels_sssp.bf_scratch(pp, frontier, nf)
        while True:   # calls of bounded work: an interrupt takes effect between them
            frontier, nxt, nf, more, cycle = kernels_sssp.bf_rounds(G.indptr, indices, G.weights, dd, pp, frontier,
                                                                    nf, max_rounds - rounds, nxt, *scratch,
                                                                    CALL_WORK)
            rounds += more
            if cycle or nf == 0 or rounds >= max_rounds:
                break
        last = np.sort(frontier[:nf])
        values = dd[last]
    q = Vector.from_coo(last, values, size=G.n, dtype=np.float64)
    return d, parent, q, rounds


@fuses
def sssp_batch(E, G, sources, delta, max_rounds, parent):
    """One delta-stepping (or Bellman-Ford) search per source, the sources in parallel."""
    _need_weights("sssp_batch", G)
    k, n = sources.size, G.n
    D = np.full((k, n), np.inf)
    P = np.full((k, n) if parent else (k, 0), -1, np.int64)
    maxw = _max_weight(G)
    step = _bucket_width(delta, maxw) if delta is not None else 0.0
    active = np.zeros(k, bool)
    per_call = max(numba.get_num_threads(), CALL_WORK // (n + G.nnz))   # about a graph pass a source
    for lo in range(0, k, per_call):   # calls of bounded work: an interrupt takes effect between them
        hi = min(k, lo + per_call)
        active[lo:hi] = kernels_sssp.batch(G.indptr, _unsigned(G.indices), G.weights, D[lo:hi], P[lo:hi],
                                           sources[lo:hi], step, maxw, max_rounds)
    return Matrix.from_dense(D), (Matrix.from_dense(P) if parent else None), active


# ---- apsp ----
@fuses
def floyd_warshall(E, G):
    """Blocked (tiled) Floyd-Warshall on a numpy matrix that then becomes the result without a copy."""
    n = G.n
    w = G.weights if G.weights is not None else np.empty(0)
    D = kernels_apsp.dense_from_csr(G.indptr, _unsigned(G.indices), w, n)
    T = kernels_apsp.TILE
    nb = (n + T - 1) // T
    # rounds a call: a round is n^2 T vectorized min-plus updates, ~16 to an edge's time (2e9 a second, 2 cores)
    per_call = max(1, CALL_WORK * 16 // (n * n * T + 1))
    v = -1
    for K in range(0, nb, per_call):   # calls of bounded work: an interrupt takes effect between them
        v = kernels_apsp.floyd_warshall(D, T, K, min(nb, K + per_call))
        if v >= 0:
            break
    M = Matrix(np.float64, n, n)
    M.ss.pack_fullr(D, take_ownership=True)  # the numpy array becomes the matrix: no copy
    return M, int(v)


# ---- reachability ----
#: the shared sweep stops when its next level is expected to find fewer (vertex, source)
#: pairs than this per vertex it touches (frontiers that rarely meet, or meet at different
#: depths): the searches then finish together in topological order (kernels_reach.finish_shared)
REACH_MIN_SHARE = 3.0

#: ... or at a level that would pull where, by a sample, the pull would scan at least REACH_FLAT
#: of the in-edges left (no vertex finds every live search at once: the searches meet at
#: different depths, or not at all), once such levels have cost more than REACH_FLAT_BUDGET
#: times those in-edges (the finish passes over them about twice; early levels look so too,
#: before the frontiers meet).  2-core machine, 16 / 64 sources, ms, against no such stop:
#: uk-2007-05 25.6 -> 21.9 / 30.9 -> 24.7, soc-Slashdot0902 9.0 -> 8.6 / 23.3 -> 13.3,
#: cit-HepPh 2.4 -> 2.4 / 13.4 -> 3.9, R-MAT 20 221 -> 208 / 750 -> 652; a budget of 0 (stop at
#: once) gives uk 17.7 / 20.2 and cit-HepPh 2.8 at 64, but soc-Slashdot0902 11.4 at 16
REACH_FLAT = 0.95
REACH_FLAT_BUDGET = 0.5


@fuses
def reach_sweep(E, G, sources):
    """The sweep bit-sliced, 64 sources a machine word, push or pull per level, in one numba loop.

    Where the sources' frontiers stop meeting level by level, what is left is
    finished in one pass over its SCCs in topological order.
    """
    k = sources.size
    T = G.T
    indptr, indices = _unsigned(G.indptr), _unsigned(G.indices)
    vis, fr, active, na = kernels_reach.ms_reach(indptr, indices, _unsigned(T.indptr), _unsigned(T.indices),
                                                 sources, (k + 63) // 64, 4, REACH_MIN_SHARE,
                                                 REACH_FLAT, REACH_FLAT_BUDGET)
    if na:
        kernels_reach.finish_shared(G.indptr, indices, vis, fr, active, na)
    return kernels_reach.unpack_rows(vis, np.empty((k, G.n), bool))


# ---- core numbers ----
@fuses
def core_peel(E, G):
    """Batagelj and Zaversnik's bucket peeling in one numba pass over the CSR (and its transpose when directed)."""
    T = G.T if G.directed else G
    core = kernels_kcore.core_numbers(G.indptr, _unsigned(G.indices), T.indptr, _unsigned(T.indices), G.directed, G.n)
    return _owning_full(core.astype(np.int64))   # the int64 copy handed over as it is


# ---- betweenness ----
@fuses
def brandes_sources(E, G, srcs, total, ends):
    """Brandes over the batch in parallel numba calls (a BFS and a backward sweep per source), each call a
    bounded batch of sources into per-thread sums (an interrupt takes effect between calls)."""
    n, srcs = G.n, np.asarray(srcs, np.int64)
    nt = max(1, min(numba.get_num_threads(), srcs.size))
    acc = np.zeros((nt, n))
    counts = np.zeros((nt, n if ends is not None else 0), np.int64)
    reached, failed = np.zeros(srcs.size, np.int64), np.zeros(srcs.size, np.int64)
    work = kernels_bc.work_arrays(nt, n)
    indices = _unsigned(G.indices)
    per_call = nt * max(1, CALL_WORK // (nt * (2 * G.nnz + n) + 1))   # about two graph passes a source
    for lo in range(0, srcs.size, per_call):
        hi = min(srcs.size, lo + per_call)
        kernels_bc.brandes(G.indptr, indices, srcs[lo:hi], ends is not None, acc, counts, reached[lo:hi],
                           failed[lo:hi], *work)
        bad = np.flatnonzero(failed[lo:hi] >= 0)
        if bad.size:
            i = lo + int(bad[0])
            raise NumericRangeError(
                f"betweenness: the shortest-path counts from source {int(srcs[i])} to the vertices at distance "
                f"{int(failed[i])} span a factor beyond 2**{kernels_bc.SPREAD}, more than float64 holds even "
                "scaled per level; this source's dependencies cannot be computed in float64: leave it out of "
                "sources=")
    E.apply(E.vector_from_numpy(acc.sum(axis=0)), "identity", out=total, accum="plus")
    if ends is None:
        return None
    E.apply(E.vector_from_numpy(counts.sum(axis=0)), "identity", out=ends, accum="plus")
    return reached


# ---- triangles ----
def _triangles(S, per_vertex):
    n = S.n
    rank = kernels_tc.degree_rank(S.indptr, n)
    ptr, ind = kernels_tc.later_neighbours(S.indptr, _unsigned(S.indices), rank, n)
    work = kernels_tc.work_before(ptr, ind, n)
    part = np.zeros((numba.get_num_threads(), n if per_vertex else 1), np.int64)
    lo = 0
    while lo < n:   # ranges of vertices of bounded work: an interrupt takes effect between calls
        hi = max(lo + 1, int(np.searchsorted(work, work[lo] + CALL_WORK, "right")) - 1)
        kernels_tc.triangles(ptr, ind, n, lo, hi, part)
        lo = hi
    return part.sum(axis=0)


@fuses
def triangle_total(E, S):
    """The triangle total in one parallel numba pass over the edges oriented by degree."""
    return int(_triangles(S, False)[0])


@fuses
def vertex_triangles(E, S):
    """Triangles at every vertex in one parallel numba pass over the edges oriented by degree."""
    return E.vector_from_numpy(_triangles(S, True))


# ---- pagerank ----
#: pagerank_iterate runs its chunks of rows in parallel from this many stored entries on; below, on one
#: thread: a parallel region (numba, OpenMP) costs ~40 us an iteration on the 2-core machine.  Serial
#: against parallel, per iteration: facebook (88 k) 46 / 85 us, R-MAT 14 (228 k) 179 / 188 us,
#: cit-HepPh (422 k) 510 / 460 us, R-MAT 16 (955 k) 1.40 / 0.93 ms, soc-Slashdot0902 1.36 / 1.18 ms
PAGERANK_PARALLEL_MIN_NNZ = 1 << 18

#: ... in this many chunks of about equal work (rows plus edges), whatever the number of threads:
#: the chunks' partial sums are added in chunk order, so the ranks do not depend on the threads
PAGERANK_CHUNKS = 64


def _pagerank_arrays(G, weighted):
    """What :func:`pagerank_iterate` hands the loop for ``G`` (cached): the CSR of ``A'`` (its weights or an
    empty array), ``s`` (out-degrees or out-weights, float64) and the chunks' row bounds."""
    key = ("cpu", "pagerank", weighted)
    arrays = G._engine_cache.get(key)
    if arrays is None:
        T = G.T
        tptr, tind, _ = _csr(T)
        if weighted:
            tw, s = T.weights, kernels_pr.out_weights(G.indptr, G.weights, G.n)
        else:
            tw, s = np.empty(0), G.out_degree.astype(np.float64)
        parallel = G.nnz >= PAGERANK_PARALLEL_MIN_NNZ
        bounds = kernels_pr.chunk_bounds(tptr, G.n, PAGERANK_CHUNKS if parallel else 1)
        arrays = G._engine_cache[key] = (tptr, tind, tw, s, bounds, parallel)
    return arrays


_NO_VALUES = np.empty(0)


@fuses
def pagerank_iterate(E, G, weighted, alpha, p, d, variant, max_iter, tol):
    """The whole power iteration in one numba loop, pulling over the CSR of ``A'`` (no GraphBLAS call)."""
    n = G.n
    tptr, tind, tw, s, bounds, parallel = _pagerank_arrays(G, weighted)
    if variant == "gap":
        mode = kernels_pr.CONST_GAP
    elif p is None and d is None:
        mode = kernels_pr.CONST_UNIFORM
    elif d is None:
        mode = kernels_pr.CONST_P
    else:
        mode = kernels_pr.CONST_P_D
    pa = _NO_VALUES if p is None and d is None else np.ascontiguousarray(p if p is not None else np.full(n, 1.0 / n),
                                                                       np.float64)
    da = _NO_VALUES if d is None else np.ascontiguousarray(d, np.float64)
    threshold = {"networkx": n * tol, "gap": tol}.get(variant, -np.inf)
    r = np.full(n, 1.0 / n)
    scale, dangling, w, lost = kernels_pr.start(s, float(alpha), r)
    w_next = np.empty(n)
    per_call = max(1, CALL_WORK // (n + tptr.size + tind.size))   # iterations a call: bounded work (interrupts)
    iterations, change = 0, np.inf
    while iterations < max_iter:
        it, change, lost = kernels_pr.iterate(tptr, tind, tw, pa, da, mode, float(alpha),
                                              int(min(per_call, max_iter - iterations)), float(threshold), bounds,
                                              parallel, r, scale, dangling, w, w_next, lost)
        iterations += it
        if it % 2:   # the kernel swapped its buffers an odd number of times
            w, w_next = w_next, w
        if change < threshold:
            break
    return _owning_full(r), int(iterations), (float("nan") if variant == "graphalytics" else float(change))
