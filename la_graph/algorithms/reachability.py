"""Multi-source reachability as a masked boolean matrix-matrix product.

The searches from ``b`` sources run together as one frontier matrix ``Q``
(``b x n``, one row a source) and a visited matrix ``R`` of the same shape::

    Q<!R, replace> = Q any.pair A          (every out-edge of every frontier row,
    R<Q>          = true                    minus what that row has already seen)

until ``Q`` is empty.  Row ``i`` of ``R`` is then the set of vertices reachable
from ``sources[i]`` (the source included).  This is the Leiden thesis's
"modified parallel BFS" (a frontier of (vertex, source tag) pairs, duplicates
per tag removed) in matrix form: a stored entry ``Q[i, v]`` *is* the pair
(vertex ``v``, tag ``i``), and the complemented structural mask of ``R`` is its
per-vertex tag list, with no fixed bound on the number of tags per vertex.

:func:`sweep` is the level loop shared by :func:`reachability`, multi-source
:func:`~la_graph.bfs` (which also records levels and parents) and the
distance-limited searches of :func:`~la_graph.shortcut`.  A batch of
:func:`reachability` is the step ``reach_sweep`` (:mod:`la_graph.algorithms.steps`:
this sweep in primitives); the CPU engine runs it as one compiled loop over
bit-sliced rows, 64 sources per machine word (MS-BFS, Then et al. 2015), pushing
small frontiers and pulling large ones, and where the sources' frontiers stop
meeting level by level, finishes what is left in one pass over its strongly
connected components in topological order.
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from .. import verify
from ._certify import Checker, SAMPLE_ROWS, host
from ._registry import Cli, algorithm
from .steps import step

__all__ = ["reachability", "sweep", "default_batch", "reach_sweep"]

#: a batch of ``b`` sources keeps ``b * n`` at most this (``R`` and ``Q`` are ``b x n``)
BATCH_ENTRIES = 1 << 25


def default_batch(n, nsources):
    """The number of sources searched together by default: ``b * n <= 2**25``, at least 1.

    ``R`` and ``Q`` have ``b * n`` entries at most; 2**25 entries keep the
    working set of one batch to a few hundred MB in the worst case (every
    source reaches everything), whatever the graph.
    """
    return int(max(1, min(nsources, BATCH_ENTRIES // max(n, 1))))


def sweep(E, A, Q, visited, *, parent=None, level=None, k=0, depth=None):
    """Advance the frontier matrix ``Q`` level by level, in place; return ``(Q, k)``.

    Each level is ``Q<!visited, replace> = Q any.pair A`` (``any.secondi``,
    the parent, when ``parent`` is given), then ``parent<Q> = Q``,
    ``level<Q> = k`` and ``visited<Q> = true`` for whichever of them are given
    (``visited`` may be ``parent`` or ``level`` itself).  Stops when ``Q`` is
    empty (then ``k`` is the last level that found something) or after level
    ``depth`` (a distance-limited search; ``None``: no limit).
    """
    semiring = "any_secondi" if parent is not None else "any_pair"
    while depth is None or k < depth:
        E.mxm(Q, A, semiring, out=Q, mask=visited, structural=True, complement=True, replace=True)
        if E.nvals(Q) == 0:
            break
        k += 1
        if parent is not None:
            E.assign(parent, Q, mask=Q, structural=True)
        if level is not None:
            E.assign(level, k, mask=Q, structural=True)
        if visited is not parent and visited is not level:
            E.assign(visited, True, mask=Q, structural=True)
    return Q, k


@algorithm("reachability", cli=Cli("reachability", "the vertices reachable from each of --sources",
                                          options=("source", "sources")),
           networkx=("descendants", "ancestors", "has_path"),
           checker=Checker("check_reachability", lambda G, R, a: verify.check_reachability(G, a["sources"], host(R)),
                           sampled=f"check_reachability on {SAMPLE_ROWS} rows drawn at random",
                           sample=lambda G, R, a: verify.check_reachability(G, a["sources"], host(R),
                                                                            sample=SAMPLE_ROWS)), bench=("reachability",), page="algorithms/reachability.md",
           summary="batched reachability from many sources (bit frontiers)")
def reachability(G, sources, *, batch=None, engine=None):
    """Which vertices each source reaches.

    Parameters
    ----------
    G : Graph
        Directed: edges are followed from ``u`` to ``v`` for ``A[u, v]``.
        Undirected: a source reaches exactly its connected component.
    sources : sequence of int
        Source vertices (repeats allowed: one row each).
    batch : int, optional
        How many sources are searched together in one frontier matrix.
        Default: :func:`default_batch` -- as many as keep ``batch * n <= 2**25``.
        Results never depend on it.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        Boolean, shape ``(len(sources), n)``: ``R[i, v]`` tells whether
        ``sources[i]`` reaches ``v``.  A source reaches itself.

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 1, 3], [1, 2, 1], n=5, directed=True)
    >>> lg.reachability(G, [0, 3]).astype(int)
    array([[1, 1, 1, 0, 0],
           [0, 1, 1, 1, 0]])
    """
    G = V.check_graph(G)
    srcs = V.check_vertices(sources, G.n)
    V.source_batch(srcs.size, G.n, 1, 0, "reachability")   # the k x n bool result must fit (batches bound the rest)
    if batch is None:
        batch = default_batch(G.n, srcs.size)
    elif isinstance(batch, (bool, np.bool_)) or not isinstance(batch, (int, np.integer)) or batch <= 0:
        raise V.InvalidArgumentError(f"batch must be a positive integer, got {batch!r}")
    E = get_engine(engine)
    if batch >= srcs.size:   # one batch: its answer is the result (no copy)
        return reach_sweep(E, G, srcs)
    out = np.empty((srcs.size, G.n), dtype=bool)
    for lo in range(0, srcs.size, int(batch)):
        part = srcs[lo:lo + int(batch)]
        out[lo:lo + part.size] = reach_sweep(E, G, part)  # Q<!R> = Q any.pair A until Q is empty
    return out


@step("reach_sweep")
def reach_sweep(E, G, sources):
    """What each of ``sources`` (int64 ids) reaches in ``G``: a numpy bool array ``len(sources) x n``.

    ``Q = R = I(sources, :)``, then ``Q<!R, replace> = Q any.pair A`` and
    ``R<Q> = true`` until ``Q`` is empty (:func:`sweep`).
    """
    rows = np.arange(sources.size, dtype=np.int64)
    Q = E.matrix_from_coo(rows, sources, True, sources.size, G.n, dtype=bool)
    R = E.copy(Q)
    sweep(E, E.matrix(G), Q, R)
    return np.asarray(E.to_numpy(R, fill=False), dtype=bool)
