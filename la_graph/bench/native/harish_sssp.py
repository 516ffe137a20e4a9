"""Harish & Narayanan SSSP, corrected (``harish_sssp.cu``), as a native CUDA baseline.

    from la_graph.bench.native.harish_sssp import harish_sssp
    dist = harish_sssp(indptr_gpu, indices_gpu, weights_gpu, source)   # float64 cupy, inf unreached

Weights float64, non-negative.  One host read of the change flag per round.
"""

from __future__ import annotations

from ._loader import THREADS, blocks, load


def harish_sssp(indptr, indices, weights, source):
    """Shortest-path distances from ``source`` (float64 cupy array of length n)."""
    import cupy as cp

    n = indptr.size - 1
    if not 0 <= source < n:
        raise IndexError(f"source {source} is out of range 0..{n - 1}")
    mod = load("harish_sssp")
    cost, ucost = cp.empty(n, cp.float64), cp.empty(n, cp.float64)
    mask, flag = cp.empty(n, cp.int32), cp.zeros(1, cp.int32)
    grid, block, n32 = (blocks(),), (THREADS,), cp.int32(n)
    mod.get_function("hs_init")(grid, block, (n32, cp.int32(source), cost, ucost, mask))
    phase1, phase2 = mod.get_function("hs_phase1"), mod.get_function("hs_phase2")
    while True:
        flag.fill(0)
        phase1(grid, block, (n32, indptr, indices, weights, cost, ucost, mask))
        phase2(grid, block, (n32, cost, ucost, mask, flag))
        if not int(flag.get()[0]):
            return cost


def selftest(seed=0):
    """Compare with scipy's Dijkstra on small random weighted graphs."""
    import cupy as cp
    import numpy as np
    import scipy.sparse as sp
    from scipy.sparse import csgraph

    rng = np.random.default_rng(seed)
    cases = [(1, 0), (10, 5), (1000, 3000), (20000, 80000)]
    for n, m in cases:
        A = sp.coo_matrix((rng.integers(1, 1000, m).astype(float), (rng.integers(0, n, m), rng.integers(0, n, m))),
                          shape=(n, n)).tocsr()
        A.sum_duplicates()
        A.sort_indices()
        got = harish_sssp(cp.asarray(A.indptr, cp.int32), cp.asarray(A.indices, cp.int32),
                          cp.asarray(A.data, cp.float64), 0).get()
        np.testing.assert_allclose(got, csgraph.dijkstra(A, indices=0), err_msg=f"harish_sssp wrong on n={n}")
    return len(cases)
