"""Queue BFS (``queue_bfs.cu``) as a native CUDA baseline.

    from la_graph.bench.native.queue_bfs import queue_bfs
    level, parent = queue_bfs(indptr_gpu, indices_gpu, source)   # cupy int32 in and out

Edges ``u -> v`` are ``indices[indptr[u]:indptr[u+1]]``; ``-1`` marks unreached vertices;
``parent[source] = source``.  One host read of the next queue's size per level.
"""

from __future__ import annotations

from ._loader import THREADS, blocks, load

#: average degree from which the warp-per-vertex expansion is used
WARP_DEGREE = 8


def queue_bfs(indptr, indices, source, *, warp=None):
    """``(level, parent)`` of a BFS from ``source`` (int32 cupy arrays of length n)."""
    import cupy as cp

    n = indptr.size - 1
    if not 0 <= source < n:
        raise IndexError(f"source {source} is out of range 0..{n - 1}")
    mod = load("queue_bfs")
    level, parent = cp.empty(n, cp.int32), cp.empty(n, cp.int32)
    cq, nq = cp.empty(n, cp.int32), cp.empty(n, cp.int32)
    size = cp.zeros(1, cp.int32)
    grid, block = (blocks(),), (THREADS,)
    mod.get_function("qbfs_init")(grid, block, (cp.int32(n), cp.int32(source), level, parent, cq))
    if warp is None:
        warp = indices.size >= WARP_DEGREE * n
    expand = mod.get_function("qbfs_expand_warp" if warp else "qbfs_expand_thread")
    count, lev = 1, 0
    while count:
        size.fill(0)
        expand(grid, block, (cp.int32(lev), indptr, indices, level, parent, cq, cp.int32(count), nq, size))
        count = int(size.get()[0])
        cq, nq = nq, cq
        lev += 1
    return level, parent


def selftest(seed=0):
    """Compare with scipy on small random graphs (both expansions); raises AssertionError on a mismatch."""
    import cupy as cp
    import numpy as np
    import scipy.sparse as sp
    from scipy.sparse import csgraph

    rng = np.random.default_rng(seed)
    cases = [(1, 0), (10, 5), (1000, 3000), (20000, 60000), (5000, 200000)]
    for n, m in cases:
        A = sp.coo_matrix((np.ones(m), (rng.integers(0, n, m), rng.integers(0, n, m))), shape=(n, n)).tocsr()
        A.sum_duplicates()
        A.sort_indices()
        for warp in (False, True):
            lev, par = queue_bfs(cp.asarray(A.indptr, cp.int32), cp.asarray(A.indices, cp.int32), 0, warp=warp)
            lev, par = lev.get(), par.get()
            d = csgraph.shortest_path(A, unweighted=True, indices=0)
            ref = np.where(np.isinf(d), -1, d).astype(np.int64)
            np.testing.assert_array_equal(lev, ref, err_msg=f"queue_bfs levels wrong on n={n}, m={m}")
            v = np.flatnonzero((ref > 0))
            assert (par[0] == 0) and np.all(ref[par[v]] == ref[v] - 1), f"queue_bfs parents wrong on n={n}"
            C = A.tocoo()
            edge = np.isin(par[v].astype(np.int64) * n + v, C.row.astype(np.int64) * n + C.col)
            assert edge.all(), f"queue_bfs parent edge missing on n={n}"
    return len(cases)
