"""Device measurements of the session's last call (run after `. tools/gpu-machine.sh`):

  msbfs  multi-source reachability (gpu/msbfs.cu) on the sparse real graphs for MSBFS_SPARSE_BLOCKS
         in None (two blocks a multiprocessor), 64, 32, 16, 8: median of 5, ms, beside the CPU engine;
  pr     issue 21: a PageRank iteration on R-MAT 22 (graphalytics rule, exactly 20 iterations)
         against one read of the edge list (the transposed CSR's indices) on the same card.
"""
import statistics
import sys
import time

import cupy as cp
import numpy as np

import la_graph as lg
from la_graph.bench.graphs import build

sync = cp.cuda.Device().synchronize


def med(fn, k=5):
    fn()
    sync()
    ts = []
    for _ in range(k):
        t = time.perf_counter()
        fn()
        sync()
        ts.append((time.perf_counter() - t) * 1e3)
    return statistics.median(ts)


E = lg.get_engine("gpu")
if "msbfs" in sys.argv:
    for name in ("luxembourg_osm", "usroads-48", "delaunay_n16", "uk-2007-05"):
        G = build(name)
        for k in (16, 64):
            src = np.random.default_rng(1).choice(G.n, k, replace=False)
            ref = lg.reachability(G, src, engine="cpu")
            cpu = med(lambda: lg.reachability(G, src, engine="cpu"))
            row = []
            for b in (None, 64, 32, 16, 8):
                E.MSBFS_SPARSE_BLOCKS = b
                assert np.array_equal(lg.reachability(G, src, engine="gpu"), ref)
                row.append(f"{b}: {med(lambda: lg.reachability(G, src, engine='gpu')):.2f}")
            E.MSBFS_SPARSE_BLOCKS = None
            print(f"reach {name:15s} {k:3d} sources  cpu {cpu:7.2f} | gpu by blocks " + ", ".join(row), flush=True)
if "pr" in sys.argv:
    G = build("rmat22")
    it = 20
    t = med(lambda: lg.pagerank(G, variant="graphalytics", max_iter=it, engine="gpu"), 3)
    AT = E.matrix(G, transpose=True)
    ind = E._csr(AT)[1]
    one = med(lambda: ind.sum(), 5)
    print(f"pagerank rmat22: {t:.2f} ms for {it} iterations = {t / it:.3f} ms an iteration; one read of the "
          f"{ind.size:,} indices ({ind.nbytes / 1e6:.0f} MB): {one:.3f} ms ({ind.nbytes / one / 1e6:.0f} GB/s); "
          f"ratio {t / it / one:.2f}", flush=True)
