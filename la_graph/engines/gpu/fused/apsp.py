"""All-pairs shortest paths (la_graph/algorithms/apsp.py): ``floyd_warshall``, blocked Floyd-Warshall
(cuda/apsp.cu).
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from ..kernels import _kernel
from ..memory import _reserve, _wait
from ..objects import _F64, _I32, _I64, GMat, _mat_keys
from ._common import fuses

#: Floyd-Warshall runs on int32 distances when every weight is an integer and ``N - 1`` of
#: the largest magnitude (``N``: n rounded up to the tile) sum to at most this: then no
#: entry reaches apsp.cu's "no path" cut (2^29) nor overflows, and the float64
#: distances it gives are exactly the algebra's
FW_INT32_LIMIT = 1 << 28
_FW_INF = {_I32: (1 << 30) - 1, _F64: np.inf}          # "no path" of each distance type
_FW_THREADS = 256


def _fw_dtype(E, G, N):
    """int32 where Floyd-Warshall's distances fit it exactly (:data:`FW_INT32_LIMIT`), else float64."""
    if G.weighted and G.nnz:
        wr = G.weight_range()
        wmax = max(-wr.min, wr.max)
        key = E._graph_key("integer_weights")
        whole = G._engine_cache.get(key)
        if whole is None:
            w = E.matrix(G).val
            whole = G._engine_cache[key] = bool(cp.all(w == cp.trunc(w)))
        if not whole:
            return _F64
    else:
        wmax = 1.0 if G.nnz else 0.0
    return _I32 if (N - 1) * wmax <= FW_INT32_LIMIT else _F64


@fuses
def floyd_warshall(E, G):
    n, T = G.n, E.FW_TILE
    N = -(-n // T) * T                                   # padded: rows and columns past n hold "no path"
    nb = N // T
    DT = _fw_dtype(E, G, N)
    export = DT != _F64 or N != n                        # the answer is a float64 n x n copy
    _reserve(DT.itemsize * N * N + (8 * n * n if export else 0) + 24 * G.nnz + 64,
             f"Floyd-Warshall's {n:,} x {n:,} float64 distance matrix"
             + (f" (computed in a {N:,} x {N:,} {DT.name} matrix)" if export else ""))
    A = E.matrix(G)
    W = cp.full(N * N, _FW_INF[DT], dtype=DT)
    keys = _mat_keys(A)                                  # row * n + col of every edge
    if keys.size:
        if N != n:
            keys = keys + keys // n * (N - n)
        W[keys] = A.val.astype(DT, copy=False) if A.val is not None else 1   # a Graph holds no duplicate edges
    diag = cp.arange(n, dtype=_I64) * (N + 1)
    W[diag] = cp.minimum(W[diag], 0)
    neg = cp.full(1, -1, dtype=_I64)                     # the vertex of a negative cycle found, or -1
    primary = _kernel("apsp.cu", "fw_primary", DT, T)
    panels = _kernel("apsp.cu", "fw_panels", DT, T)
    NN = np.int64(N)
    for K in range(nb):
        k = np.int32(K)
        primary((1,), (_FW_THREADS,), (W, NN, k, neg))
        if nb > 1:
            panels((nb - 1, 2), (_FW_THREADS,), (W, NN, k, np.int32(1), neg))
            panels((nb - 1, nb - 1), (_FW_THREADS,), (W, NN, k, np.int32(0), neg))
        if K % E.FW_CHECK_ROUNDS == E.FW_CHECK_ROUNDS - 1:
            _wait()                                      # Ctrl-C can interrupt the wait; a read cannot
            if int(neg[0]) >= 0:
                break
    _wait()
    v = int(neg[0])
    if export:
        D = cp.empty(n * n, dtype=_F64)
        if n:
            grid = (min(-(-n // _FW_THREADS), 16), min(n, 65535))
            _kernel("apsp.cu", "fw_export", DT)(grid, (_FW_THREADS,), (W, NN, D, np.int64(n)))
        del W
    else:
        D = W
    return GMat.dense_of(n, n, _F64, D, None), v
