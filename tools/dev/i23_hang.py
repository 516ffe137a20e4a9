"""Issue 23: why test_gpu_workers[cuda-every-gpu] (client-driven products over NCCL, one worker per GPU) stops.

Runs the test's sequence with timestamps; after ``--after`` seconds every worker process dumps all its
threads' stacks (faulthandler, to the cluster's stderr) and the client prints what each worker is
processing, then the process exits.  ``--skip tc``: without triangle_count (mxm moves blocks between
workers through Dask)."""
import argparse
import faulthandler
import os
import sys
import threading
import time

import distributed
import numpy as np

import la_graph as lg
from la_graph import generators as gen

T0 = time.perf_counter()


def say(*a):
    print(f"[{time.perf_counter() - T0:6.1f} s]", *a, flush=True)


def _arm(after):
    faulthandler.dump_traceback_later(after, exit=False, file=sys.stderr)
    return os.getpid()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--after", type=float, default=120)
    ap.add_argument("--skip", nargs="*", default=[])
    args = ap.parse_args()
    import dask_cuda
    from la_graph.engines.dask import DaskEngine
    cluster = dask_cuda.LocalCUDACluster(dashboard_address=":0", silence_logs=40)
    client = distributed.Client(cluster)
    say("cluster up:", list(client.scheduler_info()["workers"]))
    left = args.after - (time.perf_counter() - T0)
    say("workers' pids:", client.run(_arm, left))

    def watchdog():
        time.sleep(max(left, 1) + 5)
        say("STOPPED. processing:", client.processing())
        try:
            say("call stacks:", client.call_stack())
        except Exception as exc:  # noqa: BLE001
            say("call_stack failed:", exc)
        sys.stdout.flush(), sys.stderr.flush()
        os._exit(3)
    threading.Thread(target=watchdog, daemon=True).start()
    E = DaskEngine(client, local="gpu", grid=2)
    say("exchange", E.exchange)
    for G in (gen.rmat(10, 8, seed=5), gen.grid_2d(20, 30, weights=(1, 9), seed=1)):
        say("cc", np.array_equal(lg.connected_components(G, engine=E), lg.connected_components(G, engine="cpu")))
        say("bfs", np.array_equal(lg.bfs(G, 3, engine=E).level, lg.bfs(G, 3, engine="cpu").level))
        say("sssp", np.allclose(lg.sssp(G, 3, engine=E).distance, lg.sssp(G, 3, engine="cpu").distance))
        say("pagerank", np.allclose(lg.pagerank(G, engine=E), lg.pagerank(G, engine="cpu"), rtol=1e-9, atol=1e-12))
        if "tc" not in args.skip:
            say("tc", lg.triangle_count(G, engine=E) == lg.triangle_count(G, engine="cpu"))
        say("bfs again", np.array_equal(lg.bfs(G, 3, engine=E).level, lg.bfs(G, 3, engine="cpu").level))
        say("scc", np.array_equal(lg.strongly_connected_components(G, engine=E),
                                  lg.strongly_connected_components(G, engine="cpu")))
    say("all done")
    client.close()
    cluster.close()
    os._exit(0)


if __name__ == "__main__":
    main()
