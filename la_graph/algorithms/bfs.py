"""Breadth-first search as masked sparse matrix-vector products.

The frontier ``q`` is a sparse vector; one level is ``q<!visited> = q any.secondi A``
(push, a vector-matrix product over the frontier's out-edges) or
``q<!visited> = A' any.secondi q`` (pull, each unvisited vertex asks its
in-neighbours).  ``secondi`` returns the index of the frontier vertex an edge
came from, which is the new vertex's parent.  The direction-optimizing switch
is Beamer's: go pull when a growing frontier's out-edges outnumber the
unvisited vertices' in-edges / ``ALPHA`` (``ALPHA_DIRECTED`` on directed
graphs, where unreachable vertices make pull dearer), go back to push once a
shrinking frontier holds at most ``n / BETA2`` vertices, and pull again only
if a growing frontier holds more than ``n / BETA1``.  A fused push stretch
stops where that rule may turn to pull (its out-edges past the in-edges left
/ alpha before any pull, past ``nnz / BETA1`` after), so on an engine that
fuses every push level a search is a push stretch, a pull stretch and a push
stretch to the end.  On graphs of average out-degree below ``PULL_MIN_DEGREE``
a search pushes to the end (a pull there rarely stops early).
Several sources run at once as a frontier matrix (one row a source) and ``mxm``.

Three steps an engine may fuse (:mod:`la_graph.algorithms.steps`): ``bfs_push``
runs a stretch of push levels over few edges -- on a road network or a grid,
with thousands of levels, per-call overhead is what decides speed -- and
``bfs_pull`` runs pull levels with their parent/level updates until Beamer's
rule turns back to push.  Both are written below in primitives; the CPU
engine runs each as one numba loop, the GPU engine as CUDA kernels.
``bfs_search`` is a whole single-source search, those stretches and the
direction choice between them: the CPU engine runs it as one numba loop that
fills the result arrays directly, so a search makes no GraphBLAS object at
all (on a small graph, or from a vertex without out-edges, those objects'
fixed cost was most of the time); the GPU engine, on graphs of up to a few
million edges, as one launch of its multi-source kernel with one source.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from .. import verify
from ._certify import Checker, fields, per_source, searched
from ._registry import Cli, algorithm
from .reachability import sweep
from .steps import step

__all__ = ["bfs", "BFSResult", "bfs_push", "bfs_pull", "bfs_search", "bfs_multi", "DirectionRule", "RULE"]

ALPHA = 8.0
# on a directed graph many unvisited vertices may be unreachable; pull pays their whole
# in-degree every level, so pull must look cheaper by a wider margin
ALPHA_DIRECTED = 2.0
BETA1 = 8.0
BETA2 = 512.0
# below this average out-degree (nnz / n) a search pushes to the end: a pull level scans
# every unvisited vertex's in-edges and, with two or three of them, rarely stops early
# (p2p-Gnutella31, 2.4: push alone 13% faster); road networks and grids never pull anyway
PULL_MIN_DEGREE = 4.0
SMALL_SHARE = 4 * ALPHA  # push levels over at most nnz / SMALL_SHARE edges may be fused


@dataclass(frozen=True)
class DirectionRule:
    """The constants of Beamer's direction switch (``direction="auto"``).

    Attributes
    ----------
    alpha : float
        Go pull when a growing frontier's out-edges outnumber the unvisited
        vertices' in-edges / ``alpha`` (on an undirected graph).
    alpha_directed : float
        ``alpha`` on a directed graph.
    beta1 : float
        After a pull, pull again only if a growing frontier holds more than ``n / beta1`` vertices.
    beta2 : float
        Go back to push once a shrinking frontier holds at most ``n / beta2`` vertices.
    min_degree : float
        Pull only on graphs whose average out-degree ``nnz / n`` is at least this.
    """

    alpha: float = ALPHA
    alpha_directed: float = ALPHA_DIRECTED
    beta1: float = BETA1
    beta2: float = BETA2
    min_degree: float = PULL_MIN_DEGREE

    def alpha_of(self, G):
        """``alpha`` for graph ``G`` (``alpha_directed`` if it is directed)."""
        return self.alpha_directed if G.directed else self.alpha


#: the rule :func:`bfs` searches with
RULE = DirectionRule()


@dataclass(frozen=True)
class BFSResult:
    """Levels and parents of a BFS.

    Attributes
    ----------
    level : numpy.ndarray or None
        ``level[v]`` hops from the source, ``-1`` where unreachable
        (shape ``(n,)``, or ``(k, n)`` for ``k`` sources).
    parent : numpy.ndarray or None
        ``parent[v]`` the vertex ``v`` was reached from, ``parent[source] = source``,
        ``-1`` where unreachable.
    source : int or None
        The source of a single-source search.
    sources : numpy.ndarray or None
        The sources of a multi-source search, in row order.
    """

    level: np.ndarray | None
    parent: np.ndarray | None
    source: int | None = None
    sources: np.ndarray | None = None

    @classmethod
    def _of(cls, level, parent, source, sources):
        """A result made without the frozen ``__init__``'s four ``object.__setattr__`` calls (~0.5 us a search)."""
        r = object.__new__(cls)
        d = r.__dict__
        d["level"], d["parent"], d["source"], d["sources"] = level, parent, source, sources
        return r

    @property
    def nlevels(self):
        """Number of levels (1 + the largest level; 0 if no level array)."""
        return 0 if self.level is None else int(self.level.max(initial=-1)) + 1


@algorithm("bfs", cli=Cli("bfs", "breadth-first search from --source (levels, parents) or from --sources",
                         options=("source", "sources")),
           networkx=("bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors", "bfs_layers", "descendants_at_distance",
                     "single_source_shortest_path_length", "single_source_shortest_path",
                     "single_target_shortest_path_length", "single_target_shortest_path",
                     "all_pairs_shortest_path_length", "all_pairs_shortest_path", "bidirectional_shortest_path",
                     "predecessor", "is_bipartite", "generic_bfs_edges", "bfs_labeled_edges", "is_aperiodic",
                     "efficiency", "all_shortest_paths", "single_source_all_shortest_paths",
                     "all_pairs_all_shortest_paths"), checker=Checker("check_bfs", lambda G, r, a: verify.check_bfs(G, searched(r), fields(r, "level", "parent")),
                           sampled="check_bfs_sample levels only", sample_ok=lambda G, a: a["level"],
                           sample=lambda G, r, a: per_source(verify.check_bfs_sample, G, r, r.level)), bench=("bfs",),
           page="algorithms/bfs.md",
           summary="BFS by masked SpMV: push, pull, direction-optimizing; levels and parents; multi-source")
def bfs(G, source=None, *, sources=None, level=True, parent=True, direction="auto", engine=None,
        output="numpy"):
    """Breadth-first search from one source or several.

    Parameters
    ----------
    G : Graph
        Directed or undirected; edges are followed from ``u`` to ``v`` for ``A[u, v]``.
    source : int, optional
        The source vertex (give this or ``sources``).
    sources : sequence of int, optional
        Several sources, searched together; results get one row per source.
    level, parent : bool
        Which results to compute (skipping parents is faster).
    direction : {"auto", "push", "pull"}
        ``"auto"`` switches between push and pull per level (direction-optimizing BFS).
        Multi-source searches let the engine choose.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.
    output : {"numpy", "device"}
        ``"device"`` leaves the arrays where the engine computed them (CuPy
        arrays on the GPU engine, for chaining more GPU work; numpy on the CPU).

    Returns
    -------
    BFSResult
        ``.level`` and ``.parent`` int64 arrays, ``-1`` where unreachable.

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 1, 1], [1, 2, 3])
    >>> r = lg.bfs(G, 0)
    >>> r.level.tolist(), r.parent.tolist()
    ([0, 1, 2, 2], [0, 0, 1, 1])
    >>> lg.bfs(G, sources=[0, 3], parent=False).level.tolist()
    [[0, 1, 2, 2], [2, 1, 2, 0]]
    """
    G = V.check_graph(G)
    V.check_choice(direction, {"auto", "push", "pull"}, what="direction")
    level, parent = V.check_flag(level, "level"), V.check_flag(parent, "parent")
    if not (level or parent):
        raise V.InvalidArgumentError("bfs needs level=True or parent=True")
    V.check_choice(output, {"numpy", "device"}, what="output")
    if (source is None) == (sources is None):
        raise V.InvalidSourceError("give exactly one of source= or sources=")
    E = get_engine(engine)
    if sources is not None:
        srcs = V.check_vertices(sources, G.n)
        # levels and parents (8 bytes each): the returned arrays, and the engine's matrices and frontier
        kept = 8 * (int(level) + int(parent))
        batch = V.source_batch(srcs.size, G.n, kept, kept + 1, "a breadth-first search")
        if batch >= srcs.size or output == "device":
            lev, par = _bfs_multi(E, G, srcs, level, parent, output)
        else:   # the results fit, the engine's working copies for all sources at once do not
            lev, par = (np.empty((srcs.size, G.n), np.int64) if want else None for want in (level, parent))
            for lo in range(0, srcs.size, batch):
                part = _bfs_multi(E, G, srcs[lo:lo + batch], level, parent, output)
                for whole, rows in zip((lev, par), part):
                    if whole is not None:
                        whole[lo:lo + batch] = rows
        return BFSResult(lev, par, None, srcs)
    s = V.check_vertex(source, G.n)
    if direction == "auto" and G.nnz < RULE.min_degree * G.n:
        direction = "push"   # too sparse for pull to pay (RULE.min_degree)
    lev, par = bfs_search(E, G, s, level, parent, direction, output, RULE)
    return BFSResult._of(lev, par, s, None)


def _degree_sum(E, v, degree):
    """The sum of ``degree`` over ``v``'s entries."""
    return E.reduce(E.ewise_mult(v, degree, "second"), "plus")


def _found(E, q, parent, level, k):
    """``parent<q> = q`` and ``level<q> = k`` for whichever of them is kept."""
    if parent is not None:
        E.assign(parent, q, mask=q, structural=True)
    if level is not None:
        E.assign(level, k, mask=q, structural=True)


def _push_level(E, A, q, parent, level, k):
    """One push level to level ``k``: ``q<!visited, replace> = q any.secondi A``, then :func:`_found`; returns ``(q, nq)``."""
    visited = parent if parent is not None else level
    semiring = "any_secondi" if parent is not None else "any_pair"
    q = E.vxm(E.hint(q, "sparse"), A, semiring, out=q, mask=visited, structural=True, complement=True, replace=True)
    _found(E, q, parent, level, k)
    return q, E.nvals(q)


@step("bfs_push")
def bfs_push(E, G, q, parent, level, k, max_edges):
    """Push levels from frontier ``q`` (found at level ``k``) while the frontier has at most ``max_edges`` out-edges.

    One level: ``q<!visited, replace> = q any.secondi A`` (``any.pair``
    without parents), ``parent<q> = q``, ``level<q> = k + 1``; the visited set
    is ``parent``'s structure if kept, else ``level``'s.  Stops when the
    frontier is empty or has more than ``max_edges`` out-edges (it is then
    left as it is).  Returns ``(q, k, nq, found, scanned, found_in)``: the last
    frontier, its level, its size, the number of vertices found, of edges
    scanned, and the found vertices' in-degree sum (the caller's direction
    choice keeps count of the in-edges left to pull with it).
    """
    A, deg, indeg = E.matrix(G), E.degree(G), E.degree(G, transpose=True)
    nq, found, scanned, found_in = E.nvals(q), 0, 0, 0
    while nq:
        edges = _degree_sum(E, q, deg)
        if edges > max_edges:
            break
        k += 1
        q, nq = _push_level(E, A, q, parent, level, k)
        scanned += edges
        found += nq
        found_in += _degree_sum(E, q, indeg)
    return q, k, nq, found, scanned, found_in


@step("bfs_pull")
def bfs_pull(E, G, q, parent, level, k, min_frontier=-1):
    """Pull levels from frontier ``q``, in place, until the frontier shrinks below ``min_frontier``.

    One level: ``q<!visited, replace> = A' any.secondi q`` (``any.pair``
    without parents), then ``parent<q> = q`` and ``level<q> = k``.  Levels
    ``k, k + 1, ...`` follow each other until the new frontier is empty, or
    smaller than the one before and at most ``min_frontier`` vertices (where
    Beamer's rule turns back to push; ``-1``: pull to the end).  Returns
    ``(q, k, nq, found, found_in)``: the last frontier, its level, its size,
    the number of vertices found and their in-degree sum.
    """
    AT, indeg = E.matrix(G, transpose=True), E.degree(G, transpose=True)
    visited = parent if parent is not None else level
    semiring = "any_secondi" if parent is not None else "any_pair"
    found = found_in = 0
    last = E.nvals(q)
    while True:
        q = E.mxv(AT, E.hint(q, "dense"), semiring, out=q, mask=visited, structural=True, complement=True,
                  replace=True)
        nq = E.nvals(q)
        _found(E, q, parent, level, k)
        found += nq
        found_in += _degree_sum(E, q, indeg)
        if nq == 0 or (nq < last and nq <= min_frontier):
            return q, k, nq, found, found_in
        last, k = nq, k + 1


@step("bfs_search")
def bfs_search(E, G, s, level, parent, direction, output, rule):
    """A whole search from vertex ``s``: push and pull stretches, Beamer's rule between them.

    ``level`` and ``parent`` (bools) say which results to keep, ``direction``
    is ``"auto"``, ``"push"`` or ``"pull"``, ``output`` ``"numpy"`` or
    ``"device"``, ``rule`` a :class:`DirectionRule`.  The frontier ``q`` starts
    as ``{s}``, the parents ``pi`` as ``{s: s}``, the levels as ``{s: 0}``;
    stretches of :func:`bfs_push` (up to where the rule may turn to pull) and
    :func:`bfs_pull` (until it turns back) follow each other until the
    frontier is empty.  Returns ``(level, parent)``: int64 arrays, ``-1``
    where unreached (``None`` for a result not kept), as :func:`bfs` returns them.
    """
    want_level, want_parent = level, parent
    n = G.n
    A = E.matrix(G)
    ids = E.id_dtype(n)
    # q: the frontier; pi: parents; lev: levels; the visited set is pi's (else lev's) structure
    q = E.vector_from_coo([s], s, n, dtype=ids if want_parent else bool)
    pi = E.hint(E.vector_from_coo([s], s, n, dtype=ids), "dense") if want_parent else None
    lev = E.hint(E.vector_from_coo([s], 0, n, dtype=ids), "dense") if want_level else None
    push = direction != "pull"
    auto = direction == "auto"
    deg = E.degree(G) if auto else None
    indeg = E.degree(G, transpose=True) if auto else None
    alpha = rule.alpha_of(G)
    # a push level over few edges is mostly call overhead: the engine may run a
    # stretch of such levels in one fused call (while Beamer's rule says push)
    small = max(G.nnz / SMALL_SHARE, E.bfs_fuse_edges) if auto else (G.nnz if push else -1)
    any_pull = False
    nq, last_nq, nvisited, k = 1, 0, 1, 0
    # the unvisited vertices' in-edges: the most a pull level can scan (the fused
    # steps return the in-degree sum of what they find)
    edges_to_pull = G.nnz - int(G.in_degree[s])
    while nvisited < n:
        if push:
            limit = small
            if auto and edges_to_pull >= n:
                # stop the stretch where Beamer's rule may turn to pull: before any pull, where the
                # frontier's out-edges outgrow the in-edges left / alpha; after, where it may hold
                # more than n / beta1 vertices (of average degree)
                limit = min(small, G.nnz / rule.beta1 if any_pull else edges_to_pull / alpha)
            q, k, nq, found, _, found_in = bfs_push(E, G, q, pi, lev, k, limit)
            nvisited += found
            edges_to_pull -= found_in
            if nq == 0 or nvisited >= n:
                break
        if auto and edges_to_pull < n:
            auto = False  # little of the graph is left: stay as we are
            if push:
                continue  # a push stretch with no pull to stop for
        if auto:  # Beamer's switch
            if push:
                growing = nq > last_nq
                if any_pull:
                    push = not (growing and nq > n / rule.beta1)
                elif growing:
                    push = not (_degree_sum(E, q, deg) > edges_to_pull / alpha)
            else:  # a pull stretch ends where Beamer's rule turns back: the frontier shrank to <= n / beta2
                push = True
            any_pull = any_pull or not push
        k += 1
        last_nq = nq
        if push:
            q, nq = _push_level(E, A, q, pi, lev, k)
            found = nq
            if auto and nq:
                edges_to_pull -= _degree_sum(E, q, indeg)
        else:  # q<!visited> = A' any.secondi q with the parent/level updates, level after level (a fused step)
            q, k, nq, found, found_in = bfs_pull(E, G, q, pi, lev, k, n / rule.beta2 if auto else -1)
            edges_to_pull -= found_in
        nvisited += found
        if nq == 0:
            break
    return _result(E, lev, output), _result(E, pi, output)


def _bfs_multi(E, G, srcs, want_level, want_parent, output):
    L, Pi = bfs_multi(E, G, srcs, want_level, want_parent)
    return _result(E, L, output), _result(E, Pi, output)


@step("bfs_multi")
def bfs_multi(E, G, sources, level, parent):
    """A search from each of ``sources`` (numpy int64) at once: ``(L, Pi)``, k x n int64 matrices.

    ``level`` and ``parent`` (bools) say which to build (``None`` for the
    other).  Row ``i`` holds the levels (the parents) of the vertices
    ``sources[i]`` reaches.  A frontier matrix, one row a source, swept by
    ``Q<!visited, replace> = Q any.secondi A`` level by level (:func:`sweep`,
    which multi-source reachability shares).  The GPU engine runs it as one
    kernel launch per 64 sources, a bit lane each.
    """
    n, ns = G.n, sources.size
    rows = np.arange(ns, dtype=np.int64)
    Q = E.matrix_from_coo(rows, sources, sources, ns, n, dup="first", dtype=np.int64)
    Pi = E.copy(Q) if parent else None
    L = E.matrix_from_coo(rows, sources, 0, ns, n, dup="first", dtype=np.int64) if level else None
    sweep(E, E.matrix(G), Q, Pi if parent else L, parent=Pi, level=L)
    return L, Pi


def _result(E, x, output):
    """``x`` as an int64 array (-1 where missing), numpy or left on the device; None stays None."""
    if x is None:
        return None
    get = E.to_device if output == "device" else E.to_numpy
    return get(x, fill=-1, consume=True).astype(np.int64, copy=False)
