"""Issue 23: where an SPMD run's wall time goes (R-MAT 26 BFS on 2 GPUs: 12.3 s wall against 37 ms of
collective compute and 15 ms of exchange). For each worker count: the R-MAT graph generated on the
workers, then each algorithm by E.run twice; rank 0 profiles its own run (la_graph.profile: every engine
call, device synchronised) and times it from inside; the client times the whole call. Wall minus the
inside time is what lies outside the algorithm (task submission, arguments, the result's trip back).

    python3 tools/dev/spmd_prof.py --local gpu --workers 1 2 --scale 24 --algos bfs pagerank
"""
import argparse
import time

import numpy as np

import la_graph as lg
from la_graph import profile
from la_graph.engines.dask import DaskEngine, local_cluster, rmat

CALLS = {"bfs": lambda G, s, E: lg.bfs(G, s, parent=False, engine=E),
         "pagerank": lambda G, s, E: lg.pagerank(G, engine=E),
         "cc": lambda G, s, E: lg.connected_components(G, engine=E),
         "sssp": lambda G, s, E: lg.sssp(G, s, parent=False, engine=E)}


def _time_channel():
    """Wrap the message channel's steps on this worker (once): seconds and calls per step in _PHASES."""
    from la_graph.engines.dask import transport as tr
    if hasattr(tr, "PHASES"):
        return tr.PHASES
    phases = tr.PHASES = {}     # on the module: each E.run brings its own copy of this function's globals

    def wrap(cls, name, sync=False):
        fn = getattr(cls, name)

        def timed(*a, **k):
            if sync:
                import cupy
                cupy.cuda.get_current_stream().synchronize()
            t = time.perf_counter()
            out = fn(*a, **k)
            if sync:
                import cupy
                cupy.cuda.get_current_stream().synchronize()
            c = phases.setdefault(f"{cls.__name__}.{name}", [0.0, 0])
            c[0] += time.perf_counter() - t
            c[1] += 1
            return out
        setattr(cls, name, timed)

    for cls, name in ((tr._Pickler, "dump"), (tr._Unpickler, "load"), (tr.Channel, "send"), (tr.Channel, "recv")):
        wrap(cls, name)
    for name in ("_frame", "_send", "_recv", "_host", "_raw"):
        wrap(tr.NcclChannel, name, sync=True)
    return phases


def profiled(algo, G, s, engine=None):
    """The algorithm on this rank; rank 0 also returns its profile table and its own time."""
    phases = _time_channel() if engine.channel is not None else {}
    phases.clear()
    if engine.rank != 0:
        CALLS[algo](G, s, engine)
        return None
    t = time.perf_counter()
    with profile.collect() as p:
        CALLS[algo](G, s, engine)
    inside = time.perf_counter() - t
    phases = "\n".join(f"   {k:24s} {1e3 * v[0]:9.1f} ms {v[1]:6d} calls" for k, v in sorted(phases.items()))
    return p.table() + ("\n" + phases if phases else ""), inside


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--local", default="gpu")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--scale", type=int, default=24)
    ap.add_argument("--algos", nargs="+", default=["bfs", "pagerank"])
    ap.add_argument("--exchange", default="auto")
    a = ap.parse_args()
    for w in a.workers:
        client, cluster = local_cluster(w, a.local)
        try:
            E = DaskEngine(client, local=a.local, grid=int(np.ceil(np.sqrt(w))), threads=1, exchange=a.exchange)
            t = time.perf_counter()
            G = rmat(E, a.scale, seed=1, weights=(1, 255))
            E.synchronize()
            print(f"== {w} workers, exchange {E.exchange}: R-MAT {a.scale} built in {time.perf_counter() - t:.1f} s",
                  flush=True)
            s = int(np.argmax(G.out_degree))
            for algo in a.algos:
                for i in range(2):
                    t = time.perf_counter()
                    table, inside = E.run(profiled, algo, G, s)
                    wall = time.perf_counter() - t
                    print(f"{algo} run {i}: wall {wall:.3f} s, rank 0 inside the algorithm {inside:.3f} s", flush=True)
                    t = time.perf_counter()
                    E.run(lambda engine=None: None)
                    print(f"   an empty E.run: {time.perf_counter() - t:.3f} s", flush=True)
                print(table, flush=True)
        finally:
            client.close()
            cluster.close()


if __name__ == "__main__":
    main()
