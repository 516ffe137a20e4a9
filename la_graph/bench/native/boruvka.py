"""Borůvka minimum spanning forest (``boruvka.cu``) as a native CUDA baseline.

    from la_graph.bench.native.boruvka import boruvka
    in_msf = boruvka(eu, ev, ew, n)   # edge list: int32, int32, float32 cupy; uint8 mask out

The edge list holds each undirected edge once (``u < v``); the result marks the edges of a
minimum spanning forest.  One host read of the number of edges added per round.
"""

from __future__ import annotations

from ._loader import THREADS, blocks, load


def boruvka(eu, ev, ew, n):
    import cupy as cp

    mod = load("boruvka")
    m = eu.size
    comp, nxt = cp.empty(n, cp.int32), cp.empty(n, cp.int32)
    cheapest = cp.empty(n, cp.uint64)
    in_msf = cp.zeros(m, cp.uint8)
    added = cp.zeros(1, cp.int32)
    grid, block, n32, m32 = (blocks(),), (THREADS,), cp.int32(n), cp.int32(m)
    mod.get_function("bv_init")(grid, block, (n32, comp, nxt))
    reset, assign, hook, link, flatten = (mod.get_function(k) for k in
                                          ("bv_reset", "bv_assign", "bv_hook", "bv_link", "bv_flatten"))
    while True:
        added.fill(0)
        reset(grid, block, (n32, cheapest))
        assign(grid, block, (m32, eu, ev, ew, comp, cheapest))
        hook(grid, block, (n32, eu, ev, comp, cheapest, nxt, in_msf, added))
        if not int(added.get()[0]):
            return in_msf
        link(grid, block, (n32, comp, nxt))
        flatten(grid, block, (n32, comp))


def selftest(seed=0):
    """Compare the forest's weight and size with scipy's minimum_spanning_tree on random graphs."""
    import cupy as cp
    import numpy as np
    import scipy.sparse as sp
    from scipy.sparse import csgraph

    rng = np.random.default_rng(seed)
    cases = [(1, 0), (10, 6), (1000, 3000), (20000, 60000), (3000, 100000)]
    for n, m in cases:
        u, v = rng.integers(0, n, m), rng.integers(0, n, m)
        w = rng.integers(1, 20, m).astype(float)  # many ties
        keep = u != v
        A = sp.coo_matrix((w[keep], (np.minimum(u, v)[keep], np.maximum(u, v)[keep])), shape=(n, n)).tocsr().tocoo()
        eu, ev, ew = (cp.asarray(A.row, cp.int32), cp.asarray(A.col, cp.int32), cp.asarray(A.data, cp.float32))
        mask = boruvka(eu, ev, ew, n).get().astype(bool)
        ref = csgraph.minimum_spanning_tree(A)
        ncomp = csgraph.connected_components(A, directed=False)[0]
        assert mask.sum() == n - ncomp, f"boruvka: {mask.sum()} edges, expected {n - ncomp} (n={n})"
        assert np.isclose(A.data[mask].sum(), ref.sum()), f"boruvka: weight {A.data[mask].sum()} != {ref.sum()}"
    return len(cases)
