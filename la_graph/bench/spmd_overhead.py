"""The distributed engine driven from the client against the same algorithms run SPMD on the workers (``E.run``).

Usage::

    python -m la_graph.bench.spmd_overhead                         # R-MAT 14, 3 workers, 2 x 2 grid
    python -m la_graph.bench.spmd_overhead --scale 16 --workers 4 --repeat 5
    python -m la_graph.bench.spmd_overhead --local gpu --workers 4 --scale 22      # one worker per GPU, NCCL

One graph (an R-MAT generated on the workers by ``la_graph.engines.dask.rmat``:
undirected and weighted; directed for SCC), a threaded LocalCluster whose
workers exchange through memory (``exchange="local"``: SPMD runs need an
exchange between the workers, and on CPU workers only a threaded cluster has
one).  ``--local gpu``: dask-cuda's LocalCUDACluster, one worker per GPU
(``--workers`` of them), exchanging over NCCL.  Each algorithm runs both ways, interleaved, median of ``--repeat`` runs
after a warm-up; the answers of the two ways are compared.

Printed per algorithm: the client-driven time, the SPMD time, the Dask tasks
the client-driven run submits (each a scheduler round trip's share), the time
saved per task, and for scale the single-process local engine on the same graph
gathered to the client (its fused steps run there; the distributed engines run
every step as its algebra).  A threaded cluster shares one interpreter (the GIL)
between its workers, so the work itself does not run in parallel here: what
the comparison shows is the control overhead that the SPMD run removes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from ..algorithms import bfs, connected_components, pagerank, sssp, strongly_connected_components


def _timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def _same(a, b):
    if hasattr(a, "level"):                                  # BFS: levels equal (parents may differ)
        return np.array_equal(a.level, b.level)
    if hasattr(a, "distance"):
        return np.allclose(a.distance, b.distance)
    return np.allclose(np.asarray(a), np.asarray(b), rtol=1e-9, atol=1e-12)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m la_graph.bench.spmd_overhead", description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=14, help="R-MAT scale (2**scale vertices; default 14)")
    ap.add_argument("--edge-factor", type=int, default=8)
    ap.add_argument("--workers", type=int, default=3)
    ap.add_argument("--grid", type=int, default=None, help="blocks per side (default ceil(sqrt(workers)))")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--algorithms", nargs="+", default=["bfs", "cc", "sssp", "pagerank", "scc"])
    ap.add_argument("--local", choices=["cpu", "gpu"], default="cpu", help="what the workers compute with")
    args = ap.parse_args(argv)
    # the dask engine needs dask and distributed, optional dependencies: loaded when this study runs, so that
    # la_graph.bench imports without them (as la_graph.bench.scaling does)
    from ..engines.dask import DaskEngine, local_cluster, rmat

    # CPU workers: threads of this process (an SPMD run needs an exchange, and only a threaded cluster's CPU
    # workers have one, through memory); GPU workers: one process per GPU, over NCCL
    client, cluster = local_cluster(args.workers, args.local, processes=args.local == "gpu")
    try:
        E = DaskEngine(client, grid=args.grid, local=args.local,
                       exchange="local" if args.local == "cpu" else "auto")
        G = rmat(E, args.scale, args.edge_factor, seed=1, weights=(1, 100))
        D = rmat(E, args.scale, args.edge_factor, seed=1, directed=True)
        hub = int(np.argmax(G.out_degree))
        cases = {
            "bfs": (bfs, (G, hub)),
            "cc": (connected_components, (G,)),
            "sssp": (sssp, (G, hub)),
            "pagerank": (pagerank, (G,)),
            "scc": (strongly_connected_components, (D,)),
        }
        submitted = [0]
        real_submit = E._submit

        def counting(*a, **k):
            submitted[0] += 1
            return real_submit(*a, **k)

        print(f"R-MAT {args.scale} (n={G.n:,}, {G.nnz:,} stored entries), {args.workers} {args.local} workers, "
              f"{E.grid} x {E.grid} grid, exchange={E.exchange}; median of {args.repeat} after a warm-up")
        print(f"{'algorithm':>10} {'client-driven ms':>17} {'E.run ms':>9} {'speed-up':>9} {'tasks':>7} "
              f"{'ms saved / task':>16} {args.local + ' engine ms':>14}")
        host = {id(G): G.to_graph(), id(D): D.to_graph()}
        for name in args.algorithms:
            fn, fargs = cases[name]
            E._submit = counting
            submitted[0] = 0
            want = fn(*fargs, engine=E)                      # warm-up, and the task count
            E._submit = real_submit
            tasks = submitted[0]
            got = E.run(fn, *fargs)
            if not _same(want, got):
                raise SystemExit(f"{name}: E.run's answer differs from the client-driven engine's")
            client_t, spmd_t = [], []
            for _ in range(args.repeat):
                client_t.append(_timed(lambda: fn(*fargs, engine=E))[1])
                spmd_t.append(_timed(lambda: E.run(fn, *fargs))[1])
            hargs = (host[id(fargs[0])],) + fargs[1:]
            fn(*hargs, engine=args.local)
            one = statistics.median(_timed(lambda: fn(*hargs, engine=args.local))[1] for _ in range(args.repeat)) * 1e3
            c, s = statistics.median(client_t) * 1e3, statistics.median(spmd_t) * 1e3
            print(f"{name:>10} {c:>17.1f} {s:>9.1f} {c / s:>8.1f}x {tasks:>7} {(c - s) / max(tasks, 1):>16.2f} "
                  f"{one:>14.1f}")
    finally:
        client.close()
        cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
