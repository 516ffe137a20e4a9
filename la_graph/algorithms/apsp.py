"""All-pairs shortest paths: Floyd-Warshall in the min-plus semiring, or batched SSSP.

``D[i, j]`` is the length of a shortest path from ``i`` to ``j`` (``inf``: none;
unweighted graphs count hops).  Two methods:

* **Floyd-Warshall**: start from ``D = A`` with ``0`` on the diagonal and ``inf``
  where there is no edge, then for every pivot ``k``
  ``D = min(D, D[:, k] min.+ D[k, :])`` -- a rank-1 min-plus product
  accumulated with ``min``.  ``n^3`` work whatever the number of edges, all of
  it dense and regular.  A step an engine may fuse (:func:`floyd_warshall`,
  written below as those rank-1 updates): the CPU engine runs a blocked, tiled,
  parallel numba kernel, the GPU engine the blocked three-phase CUDA kernel
  (``la_graph/engines/gpu/cuda/apsp.cu``).  A negative cycle shows as ``D[v, v] < 0``.
* **Batched SSSP**: rows of ``D`` are shortest-path searches from a batch of
  sources at a time (:func:`la_graph.sssp` with ``sources=``), ``n (m + n)``-ish
  work, which wins on sparse graphs.  Negative weights are first removed by
  Johnson's reweighting: potentials ``h`` from one Bellman-Ford search (a
  virtual source with a 0-weight edge to every vertex), then
  ``w'(u, v) = w(u, v) + h[u] - h[v] >= 0`` and
  ``D[s, v] = D'[s, v] - h[s] + h[v]``.

:func:`apsp` returns the whole ``n x n`` matrix; :func:`apsp_blocks` streams it
in blocks of rows for graphs whose ``n^2`` does not fit in memory.
"""

from __future__ import annotations

import numpy as np

from .. import _progress, _validation as V
from ..engines import get_engine
from ..exceptions import InvalidArgumentError, NegativeCycleError, OutOfMemory, PathLengthOverflowError
from ..graph import Graph
from .. import verify
from ._certify import Checker, SAMPLE_ROWS, host
from ._registry import Cli, algorithm
from .steps import step

__all__ = ["apsp", "apsp_blocks", "METHODS", "floyd_warshall"]

METHODS = ("auto", "floyd_warshall", "sssp")

#: ``method="auto"`` runs Floyd-Warshall up to this many vertices whatever the edges
FW_ALWAYS_N = 128
#: ... and above it when the graph has at least ``n^2 / FW_DENSITY`` stored entries, by
#: whether it is weighted: ``n^3`` Floyd-Warshall updates cost ~0.25 ns each on the CPU
#: engine, batched SSSP ~100 ns per (source, edge) with weights, ~5 ns unweighted (BFS)
FW_DENSITY = {True: 256, False: 16}
#: rows per batch of the SSSP method: a batch's ``rows x n`` float64 block is about this size
BLOCK_BYTES = 1 << 26


@algorithm("apsp", cli=Cli("apsp", "all-pairs shortest paths (--method)", options=("method",)),
           networkx=("floyd_warshall_numpy", "floyd_warshall"), checker=Checker("check_apsp", sampled=f"check_apsp on {SAMPLE_ROWS} rows drawn at random",
                           sample=lambda G, D, a: verify.check_apsp(G, host(D), sample=SAMPLE_ROWS)), bench=("apsp",), page="algorithms/apsp.md",
           summary="all-pairs shortest paths: blocked Floyd–Warshall or batched SSSP")
def apsp(G, method="auto", *, max_bytes=None, engine=None, progress=False, output="numpy"):
    """Shortest-path lengths between all pairs of vertices, as a dense ``n x n`` array.

    Parameters
    ----------
    G : Graph
        Directed or undirected; edge ``u -> v`` has weight ``A[u, v]``
        (unweighted: every edge 1, so distances count hops).  Weights may be
        negative; a cycle of negative weight raises :class:`NegativeCycleError`.
    method : {"auto", "floyd_warshall", "sssp"}
        ``"floyd_warshall"``: ``n^3`` dense min-plus work (best for dense graphs
        and small ``n``).  ``"sssp"``: batched single-source searches, Johnson's
        reweighting first when a weight is negative (best for sparse graphs).
        ``"auto"``: Floyd-Warshall when ``n <= 128`` or the graph has at least
        ``n^2 / 256`` stored entries (``n^2 / 16`` unweighted, where the searches
        are BFS and cheaper), else ``"sssp"``: the crossover of the two costs
        measured on the CPU engine (``FW_ALWAYS_N``, ``FW_DENSITY``).
    max_bytes : int, optional
        Refuse (:class:`OutOfMemory`) if the ``8 n^2``-byte result would be larger.
        Without it the result only has to fit in the available memory.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.
    progress : bool
        Show on standard error the rows done and their rate (or the time spent,
        for Floyd-Warshall), once the work has taken 2 seconds.
    output : {"numpy", "device"}
        ``"device"``: leave ``D`` where the engine computes it (a CuPy array on
        the GPU engine, for more GPU work: no copy of the ``8 n^2`` bytes to the
        host; numpy on the CPU engine).

    Returns
    -------
    numpy.ndarray
        ``D`` of shape ``(n, n)``, float64: ``D[i, j]`` the length of a shortest
        path from ``i`` to ``j``, ``inf`` where ``j`` is unreachable from ``i``,
        ``0`` on the diagonal (a cupy.ndarray with ``output="device"`` on the GPU).

    Raises
    ------
    NegativeCycleError
        ``G`` has a cycle of negative weight; ``.vertex`` is a vertex on it and
        ``.cycle`` (when found) its vertices in edge order.
    OutOfMemory
        The result needs more host memory than is available or ``max_bytes``
        allows (the message gives the bytes); :func:`apsp_blocks` streams it instead.
    OutOfDeviceMemory
        The GPU engine's Floyd-Warshall matrix does not fit in free GPU memory.

    See Also
    --------
    apsp_blocks : the same rows, a block at a time.
    la_graph.sssp : distances from a few sources.

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 1, 0, 2], [1, 2, 2, 3], w=[1.0, 1.0, 5.0, -1.0], directed=True)
    >>> lg.apsp(G)
    array([[ 0.,  1.,  2.,  1.],
           [inf,  0.,  1.,  0.],
           [inf, inf,  0., -1.],
           [inf, inf, inf,  0.]])
    >>> lg.apsp(G, method="sssp").tolist() == lg.apsp(G).tolist()
    True
    >>> lg.apsp(lg.Graph.from_edges([0, 1], [1, 2]))   # unweighted: hops
    array([[0., 1., 2.],
           [1., 0., 1.],
           [2., 1., 0.]])
    """
    G = V.check_graph(G)
    V.check_choice(method, set(METHODS), what="method")
    V.check_choice(output, {"numpy", "device"}, what="output")
    progress = V.check_flag(progress, "progress")
    max_bytes = _check_max_bytes(max_bytes)
    E = get_engine(engine)
    n = G.n
    method = _choose_method(G, method)
    need = 8 * n * n
    if max_bytes is not None and need > max_bytes:
        raise OutOfMemory(
            f"the {n:,} x {n:,} distance matrix needs {need:,} bytes, more than max_bytes = {max_bytes:,}; "
            "stream it with apsp_blocks(G, block_rows)")
    # Floyd-Warshall keeps the engine's own n x n matrix too: on the host unless the engine has a device
    copies = 2 if method == "floyd_warshall" and E.objects_on_host else 1
    _check_host_memory(copies * need, f"the {n:,} x {n:,} distance matrix" + (" and its working copy"
                                                                              if copies == 2 else ""))
    if n == 0:
        return np.zeros((0, 0))
    if method == "floyd_warshall":
        with _progress.step(progress, f"Floyd-Warshall on {n:,} vertices"):
            D, v = floyd_warshall(E, G)
        if v >= 0:
            del D
            _raise_negative_cycle(G, int(v), E)
        out = (E.to_device if output == "device" else E.to_numpy)(D, consume=True)
        if G.weighted and G.nnz:
            from .sssp import _check_overflow

            wr = G.weight_range()
            wabs = max(-wr.min, wr.max)
            if wabs * max(n - 1, 1) >= np.finfo(np.float64).max:     # else no length can overflow: no download
                _check_overflow(E, G, np.arange(n), out if isinstance(out, np.ndarray) else out.get(), wabs)
        return out
    out = np.empty((n, n))
    bar = _progress.bar(progress, desc="all-pairs shortest paths", total=n, unit="rows")
    try:
        for rows, block in _sssp_rows(E, G, _rows_per_block(n, None, None)):
            out[rows] = block
            bar.update(rows.stop - rows.start)
    finally:
        bar.close()
    if output == "device":      # the searches' rows come to the host; the engine's array, as asked
        return E.to_device(E.vector_from_numpy(out.reshape(-1)), consume=True).reshape(n, n)
    return out


@algorithm("apsp_blocks", networkx=("eccentricity", "diameter", "radius", "center", "periphery", "barycenter",
                                    "wiener_index", "global_efficiency", "harmonic_diameter",
                                    "average_shortest_path_length"),
           checker=Checker("check_apsp", blocks=True, sampled=f"check_apsp on {SAMPLE_ROWS} rows of each block",
                           note="Each block is checked as it is yielded."), page="algorithms/apsp.md",
           summary="the rows streamed in blocks")
def apsp_blocks(G, block_rows=None, *, max_bytes=None, engine=None):
    """Stream the all-pairs distance matrix a block of rows at a time.

    For graphs whose ``n x n`` matrix does not fit in memory (or is not needed
    whole): the rows come from batched single-source searches (the ``"sssp"``
    method of :func:`apsp`, Johnson's reweighting first when a weight is
    negative), so only one block is held at a time.  Arguments and memory are
    checked at the call; a negative cycle raises at the first block.

    Parameters
    ----------
    G : Graph
        As for :func:`apsp`.
    block_rows : int, optional
        Rows per block; default: as many as fit in ``max_bytes`` (else in 64 MiB).
    max_bytes : int, optional
        Largest block, in bytes (``8 * block_rows * n``); :class:`OutOfMemory` if
        ``block_rows`` asks for more or one row is already larger.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Yields
    ------
    rows : slice
        The rows of ``D`` in this block, ``slice(start, stop)``, in order.
    block : numpy.ndarray
        ``D[rows]``, float64 of shape ``(stop - start, n)``.

    Raises
    ------
    NegativeCycleError
        As for :func:`apsp`, before the first block.

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 1, 2], [1, 2, 3])
    >>> for rows, block in lg.apsp_blocks(G, 3):
    ...     print(rows, block.max(axis=1).tolist())
    slice(0, 3, None) [3.0, 2.0, 2.0]
    slice(3, 4, None) [3.0]
    """
    G = V.check_graph(G)
    max_bytes = _check_max_bytes(max_bytes)
    if block_rows is not None:
        block_rows = _check_block_rows(block_rows)
    E = get_engine(engine)
    n = G.n
    if n == 0:
        return iter(())
    b = _rows_per_block(n, block_rows, max_bytes)
    _check_host_memory(8 * b * n, f"a block of {b:,} rows of {n:,} distances")
    return _sssp_rows(E, G, b)


# ---------------------------------------------------------------- the methods
def _choose_method(G, method):
    if method != "auto":
        return method
    n = G.n
    return "floyd_warshall" if n <= FW_ALWAYS_N or G.nnz * FW_DENSITY[G.weighted] >= n * n else "sssp"


def _sssp_rows(E, G, b):
    """``(slice, rows of D)`` for blocks of ``b`` sources, by batched SSSP (Johnson's reweighting first)."""
    from .sssp import sssp

    H, h = _johnson(E, G)
    n = G.n
    for start in range(0, n, b):
        stop = min(n, start + b)
        D = sssp(H, sources=np.arange(start, stop), parent=False, engine=E).distance
        if h is not None:  # undo the reweighting: D[s, v] = D'[s, v] + (h[v] - h[s])
            reached = np.isfinite(D)
            with np.errstate(over="ignore"):        # an overflow is found and raised just below
                for i in range(stop - start):
                    # h <= 0, so h[v] - h[s] cannot overflow, and the sum overflows only where the length does
                    # (D' - h[s] first overflowed on lengths that fit: D' and -h[s] both near float64's largest)
                    D[i] += h - h[start + i]
            D[np.arange(stop - start), np.arange(start, stop)] = 0.0  # exact zeros on the diagonal
            _check_undone_lengths(D, reached, start)
        yield slice(start, stop), D


def _check_undone_lengths(D, reached, start):
    """Raise where a reached pair's length became infinite when Johnson's reweighting was undone."""
    bad = np.argwhere(reached & np.isinf(D))
    if bad.size:
        i, v = bad[0]
        raise PathLengthOverflowError(
            f"vertex {v} is reached from {start + i}, but the length of the path does not fit in float64 "
            f"(its weights sum past {np.finfo(np.float64).max:.4g} in magnitude); rescale the weights")


def _johnson(E, G):
    """``(H, h)``: ``G`` reweighted to non-negative weights and the potentials ``h``, or ``(G, None)``.

    ``h[v]`` is the shortest distance to ``v`` from a virtual vertex with a
    0-weight edge to every vertex (one Bellman-Ford search); then
    ``w(u, v) + h[u] - h[v] >= 0`` on every edge and shortest paths keep their
    vertices.  A negative cycle makes that search raise.
    """
    from .sssp import sssp

    if not G.weighted or G.nnz == 0 or G.weight_range().min >= 0:
        return G, None
    n, nnz = G.n, G.nnz
    plus = Graph(np.concatenate([G.indptr, [nnz + n]]).astype(G.indptr.dtype, copy=False),
                 np.concatenate([G.indices, np.arange(n, dtype=G.indices.dtype)]),
                 np.concatenate([G.weights, np.zeros(n)]), n + 1, True, _trusted=True)
    try:
        h = sssp(plus, n, method="bellman_ford", parent=False, engine=E).distance[:n]
    except NegativeCycleError as exc:
        _reraise(G, exc)
    except PathLengthOverflowError as exc:   # its source is the virtual vertex n, which G does not have
        raise PathLengthOverflowError(
            f"a path into vertex {exc.vertex} has a length below -{np.finfo(np.float64).max:.4g} (Johnson's "
            "reweighting computes the smallest length into each vertex first), which float64 cannot hold; "
            "rescale the weights") from None
    rows = np.repeat(np.arange(n), np.diff(G.indptr))
    w = G.weights + h[rows] - h[G.indices]
    np.maximum(w, 0.0, out=w)  # rounding of non-integer weights; exact zeros stay zeros
    return Graph(G.indptr, G.indices, w, n, True, _trusted=True), h


def _raise_negative_cycle(G, v, E):
    """Floyd-Warshall found ``D[v, v] < 0``: find the cycle (Bellman-Ford from ``v``) and raise."""
    from .sssp import sssp

    try:
        sssp(G, v, method="bellman_ford", parent=False, engine=E)
    except NegativeCycleError as exc:
        _reraise(G, exc)
    exc = NegativeCycleError(f"the graph has a negative cycle: a closed walk through vertex {v} has negative weight")
    exc.vertex, exc.cycle = v, None
    raise exc


def _reraise(G, found):
    """Raise apsp's NegativeCycleError for the one an SSSP search raised."""
    cycle = getattr(found, "cycle", None)
    if not cycle:
        raise found
    cycle = [int(v) for v in cycle]
    weight = sum(G.edge_weight(u, v) for u, v in zip(cycle, cycle[1:] + cycle[:1]))
    path = " -> ".join(str(v) for v in cycle + cycle[:1])
    exc = NegativeCycleError(f"the graph has a negative cycle: {path} has weight {weight}")
    exc.vertex, exc.cycle = cycle[0], cycle
    raise exc from None


# ---------------------------------------------------------------- memory
def _check_max_bytes(max_bytes):
    if max_bytes is None:
        return None
    if isinstance(max_bytes, (bool, np.bool_)) or not isinstance(max_bytes, (int, np.integer)) or max_bytes <= 0:
        raise InvalidArgumentError(f"max_bytes must be a positive integer, got {max_bytes!r}")
    return int(max_bytes)


def _check_block_rows(block_rows):
    if (isinstance(block_rows, (bool, np.bool_)) or not isinstance(block_rows, (int, np.integer))
            or block_rows <= 0):
        raise InvalidArgumentError(f"block_rows must be a positive integer, got {block_rows!r}")
    return int(block_rows)


def _rows_per_block(n, block_rows, max_bytes):
    row = 8 * n
    if max_bytes is not None and row > max_bytes:
        raise OutOfMemory(f"one row of {n:,} distances needs {row:,} bytes, more than max_bytes = {max_bytes:,}")
    if block_rows is None:
        block_rows = max(1, (max_bytes if max_bytes is not None else BLOCK_BYTES) // row)
    elif max_bytes is not None and block_rows * row > max_bytes:
        raise OutOfMemory(f"a block of {block_rows:,} rows of {n:,} distances needs {block_rows * row:,} bytes, "
                          f"more than max_bytes = {max_bytes:,}; use block_rows <= {max_bytes // row:,}")
    return min(block_rows, n)


def _check_host_memory(need, what):
    V.check_host_memory(need, what, "stream the rows with apsp_blocks(G, block_rows)")


@step("floyd_warshall")
def floyd_warshall(E, G):
    """All-pairs shortest path lengths of ``G`` by Floyd-Warshall in the min-plus semiring.

    ``D`` starts as ``G``'s adjacency matrix (weights; 1 per edge when
    unweighted) with ``min(0, self-loop)`` on the diagonal and ``inf`` where
    there is no edge; then for each pivot ``k = 0 .. n-1``
    ``D = min(D, D[:, k] min.+ D[k, :])``, the rank-1 min-plus product of
    column and row ``k`` (here ``D min.+ R_k`` accumulated with ``min``,
    ``R_k`` holding row ``k`` of ``D`` only).  Engines may run the pivots in
    tiles (blocked Floyd-Warshall); the distances are the same.

    Returns ``(D, v)``: ``D`` a full ``n x n`` float64 matrix of this engine;
    ``v = -1``, or a vertex with ``D[v, v] < 0`` (a negative cycle: a closed
    walk through ``v`` of negative weight), and then ``D`` is left part way.
    An engine checks the memory it needs first (OutOfDeviceMemory on a device).
    """
    n = G.n
    I0 = E.matrix_from_coo(np.arange(n), np.arange(n), 0.0, n, n, dtype=np.float64)
    D = E.ewise_add(I0, E.matrix(G), "min")
    E.assign(D, np.inf, mask=D, structural=True, complement=True)
    for k in range(n):
        R = E.select(E.select(D, "rowle", k), "rowgt", k - 1)
        E.mxm(D, R, "min_plus", out=D, accum="min")
        if E.reduce(E.select(R, "diag"), "min") < 0:
            return D, k
    return D, -1
