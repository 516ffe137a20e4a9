"""Blocked Floyd–Warshall (``blocked_fw.cu``) as a native CUDA baseline for all-pairs shortest paths.

    from la_graph.bench.native.blocked_fw import blocked_fw
    D = blocked_fw(indptr_gpu, indices_gpu, weights_gpu_or_None, n)   # float32 cupy (N, N), N >= n

The distance matrix is float32 and padded to a multiple of 32 (``D[:n, :n]`` is the
answer); weights non-negative (None: every edge 1).  Building the dense matrix from the
CSR is part of the call, as it is part of any APSP from a sparse graph.
"""

from __future__ import annotations

from ._loader import THREADS, blocks, load

TILE = 32


def blocked_fw(indptr, indices, weights, n):
    import cupy as cp

    mod = load("blocked_fw")
    N = max(TILE, -(-n // TILE) * TILE)
    D = cp.empty((N, N), cp.float32)
    grid, block = (blocks(),), (THREADS,)
    mod.get_function("fw_fill")(grid, block, (cp.int64(N * N), cp.int32(N), D))
    w = weights if weights is not None else cp.zeros(1, cp.float64)  # unweighted: every edge 1
    mod.get_function("fw_edges")(grid, block, (cp.int32(n), cp.int32(N), indptr, indices, w,
                                               cp.int32(weights is not None), D))
    nb = N // TILE
    p1, p2, p3 = (mod.get_function(f"fw_phase{i}") for i in (1, 2, 3))
    tile = (TILE, TILE)
    for b in range(nb):
        args = (cp.int32(N), cp.int32(b), D)
        p1((1,), tile, args)
        p2((nb, 2), tile, args)
        p3((nb, nb), tile, args)
    return D


def selftest(seed=0):
    """Compare with scipy's Floyd–Warshall on small random weighted graphs."""
    import cupy as cp
    import numpy as np
    import scipy.sparse as sp
    from scipy.sparse import csgraph

    rng = np.random.default_rng(seed)
    cases = [(1, 0), (5, 8), (100, 900), (333, 20000)]
    for n, m in cases:
        A = sp.coo_matrix((rng.integers(1, 100, m).astype(float), (rng.integers(0, n, m), rng.integers(0, n, m))),
                          shape=(n, n)).tocsr()
        A.sum_duplicates()
        A.sort_indices()
        ip, ix = cp.asarray(A.indptr, cp.int32), cp.asarray(A.indices, cp.int32)
        got = blocked_fw(ip, ix, cp.asarray(A.data, cp.float64), n).get()[:n, :n]
        np.testing.assert_allclose(got, csgraph.floyd_warshall(A), err_msg=f"blocked_fw wrong on n={n}")
        got1 = blocked_fw(ip, ix, None, n).get()[:n, :n]
        np.testing.assert_allclose(got1, csgraph.shortest_path(A, unweighted=True), err_msg=f"unweighted n={n}")
    return len(cases)
