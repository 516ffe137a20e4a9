"""Graphs built on the device from CuPy arrays, for the GPU engine (``GPUEngine.graph_from_device``).

The engine's methods ``graph_from_device`` and ``graph_from_device_matrix`` are
these functions (``E`` is the engine); ``Graph.from_edges`` and
``Graph.from_scipy`` hand CuPy input to them.
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from ..._validation import INT64_MAX
from ...exceptions import InvalidGraphError
from .objects import _BOOL, _F64, _I64, _INT32_MAX, GMat


def graph_from_device(E, u, v, w=None, n=None, directed=False, weighted=None):
    """A :class:`~la_graph.Graph` built on the GPU from device edge arrays (``Graph.from_edges`` rules).

    ``u``, ``v``, ``w`` are CuPy arrays (or anything with
    ``__cuda_array_interface__``).  Validation, symmetrization, the CSR (a
    duplicate keeps its smallest weight) and, for ``directed=None``, the
    symmetry test run on the device; the finished CSR is copied to the host
    once (a Graph is a host object) and its device copy is cached as this
    engine's matrix of the graph, so running on the GPU uploads nothing.
    ``weighted=None`` keeps ``w``; ``False`` drops it; ``"auto"`` drops
    it when every weight is 1 (``Graph.from_scipy``'s rule).
    """
    from ...graph import Graph

    def ids(a, name):
        a = cp.asarray(a).reshape(-1)
        if a.size and a.dtype.kind not in "iu":
            if a.dtype.kind == "f" and bool(cp.all(cp.isfinite(a) & (a == cp.round(a)))):
                return a.astype(_I64)
            raise InvalidGraphError(f"{name} must hold integer vertex ids, got dtype {a.dtype}")
        if a.dtype.kind == "u" and a.size and int(a.max()) > INT64_MAX:
            raise InvalidGraphError(f"vertex id {int(a.max())} does not fit in int64")
        return a.astype(_I64)

    u, v = ids(u, "u"), ids(v, "v")
    if u.shape != v.shape:
        raise InvalidGraphError(f"u and v must have the same length, got {u.size} and {v.size}")
    for name, a in (("u", u), ("v", v)):
        if a.size and int(a.min()) < 0:
            i = int(cp.argmax(a < 0))
            raise InvalidGraphError(f"vertex ids must be >= 0, got {name}[{i}] = {int(a[i])}")
        if a.size and n is not None and int(a.max()) >= n:
            i = int(cp.argmax(a >= n))
            raise InvalidGraphError(f"vertex ids must be < n = {n}, got {name}[{i}] = {int(a[i])}")
    if n is None:
        n = max(int(u.max()), int(v.max())) + 1 if u.size else 0
    n = int(n)
    if n < 0:
        raise InvalidGraphError(f"n must be a non-negative integer, got {n}")
    if n > INT64_MAX // max(n, 1):
        raise InvalidGraphError(f"n = {n} is too large: n*n must fit in int64")
    if w is not None:
        w = cp.asarray(w)
        if w.dtype.kind not in "iufb":
            raise InvalidGraphError(f"weights must be real numbers, got dtype {w.dtype}")
        w = w.astype(_F64).reshape(-1) if w.ndim else cp.full(u.size, float(w), _F64)
        if w.shape != u.shape:
            raise InvalidGraphError(f"w must have one weight per edge: {w.size} weights for {u.size} edges")
        bad = ~cp.isfinite(w)
        if bool(bad.any()):
            i = int(cp.argmax(bad))
            raise InvalidGraphError(f"weights must be finite, got w[{i}] = {float(w[i])}")
        if weighted is False or (weighted == "auto" and bool(cp.all(w == 1))):
            w = None
    if directed is False:
        off = u != v
        u, v = cp.concatenate([u, v[off]]), cp.concatenate([v, u[off]])
        if w is not None:
            w = cp.concatenate([w, w[off]])
    key = u * n + v
    if w is None:
        key = cp.unique(key)                                 # sorted, duplicates merged
    else:
        key, w = E._build(key, w, "min", _F64)            # each duplicate keeps its smallest weight
    rows = key // max(n, 1)
    cols = key - rows * n
    if directed is None:                                     # undirected iff A == A'
        tkey = cols * n + rows
        t = cp.argsort(tkey)
        directed = not (bool(cp.array_equal(tkey[t], key)) and (w is None or bool(cp.array_equal(w[t], w))))
    IT = E._itype(n, key.size)
    indptr = cp.searchsorted(rows, cp.arange(n + 1, dtype=_I64), side="left")
    indices = cols.astype(IT)
    host_idx = np.int32 if n <= _INT32_MAX else np.int64
    G = Graph(cp.asnumpy(indptr).astype(np.int64), cp.asnumpy(cols).astype(host_idx),
              None if w is None else cp.asnumpy(w), n, bool(directed), _trusted=True)
    M = GMat.csr(n, n, _BOOL if w is None else _F64, indptr.astype(IT), indices, w)
    if not directed:
        M._cache["T"] = (M.indptr, M.indices, M.val)
    G._engine_cache[E._graph_key("A")] = M
    return G


def graph_from_device_matrix(E, A, directed=None, weighted=None):
    """A :class:`~la_graph.Graph` of a square CuPy sparse matrix (``cupyx.scipy.sparse``), built on the GPU.

    ``Graph.from_scipy``'s rules: stored entries are edges, ``directed=None``
    means undirected iff symmetric, ``weighted=None`` means unweighted when
    the matrix is boolean or every value is 1.
    """
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise InvalidGraphError(f"adjacency matrix must be square, got shape {A.shape[0]}x{A.shape[1]}")
    if A.dtype.kind not in "iufb":
        raise InvalidGraphError(f"adjacency matrix must hold real numbers, got dtype {A.dtype}")
    C = A.tocoo()
    w = None if weighted is False or (weighted is None and A.dtype.kind == "b") else C.data
    return graph_from_device(E, C.row, C.col, w, A.shape[0], directed,
                             weighted="auto" if weighted is None else weighted)
