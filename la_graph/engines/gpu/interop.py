"""Graphs built on the device from CuPy arrays, for the GPU engine (``GPUEngine.graph_from_device``).

The engine's methods ``graph_from_device`` and ``graph_from_device_matrix`` are
these functions (``E`` is the engine); ``Graph.from_edges`` and
``Graph.from_scipy`` hand CuPy input to them.
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from ..._validation import check_edge_arrays
from ...exceptions import InvalidGraphError
from ...graph import Graph
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
    u, v, w, n = check_edge_arrays(u, v, w, n, xp=cp)
    if w is not None and (weighted is False or (weighted == "auto" and bool(cp.all(w == 1)))):
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
