"""Scaling of the distributed engine: strong and weak scaling over 1, 2, 4 ... Dask workers.

For each worker count a :class:`distributed.LocalCluster` of worker processes,
one GraphBLAS thread each, is started on this machine (GPU workers: ``--local gpu``, one
process per visible GPU through dask-cuda), the graph's blocks are laid out on
it once, and each algorithm is timed with the blocks resident (a warm-up run,
then ``--repeat`` timed runs; the median is reported).  Every answer is
compared with the single-machine CPU engine's, whose time (one run, all
cores) is recorded beside (``cpu_engine_ms``).

Beside the times, the communication of one ``mxv`` with a full vector (a
PageRank step) is measured from the workers' own transfer counters
(``Worker.transfer_outgoing_bytes_total``) and set against the 2-D model:
block ``(i, j)`` fetches vector segment ``j`` unless its worker holds it, and
sends its partial result to the holder of segment ``i`` -- each of ``n / s``
entries, so a worker moves ``O(n / sqrt(p))`` per product.

With ``exchange="nccl"`` (GPU workers, one GPU each: the default there) the
products move their bytes over NCCL, and each row also splits the time into
the workers' local compute and exchange (``compute_ms``, ``exchange_ms``: per
run, the busiest worker's; :meth:`DaskEngine.exchange_stats`), and the traffic
rows carry what NCCL's own all-gather and all-reduce take for the model's bytes
between the same GPUs (``nccl_allgather_ms``, ``nccl_allreduce_ms``, measured
after the workers are gone).

``--generate workers`` builds R-MAT graphs (``rmatNN``, ``rmatNN:wLO-HI``,
``rmatNN:dir``) on the workers themselves (:func:`la_graph.engines.dask.rmat`,
replicated on GPU workers: drawn on the GPUs); their answers are checked
against the CPU engine on the gathered graph up to ``--check-max`` vertices,
and beyond that against the one-worker run's (the graph does not depend on the
number of workers).

Run ``python -m la_graph.bench.scaling --help``; ``--plot`` draws the JSON.

Examples
--------
>>> from la_graph.bench.scaling import mxv_model_bytes
>>> mxv_model_bytes(1000, 2, ["a", "b"], 16)   # 2 x 2 grid on two workers: two partials move
16000
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

import la_graph as lg

from .graphs import build as build_graph

ALGOS = ("bfs", "cc", "pagerank", "sssp")


def mxv_model_bytes(n, s, workers, entry_bytes):
    """Bytes one ``mxv`` with a full vector moves between workers under the 2-D model.

    ``workers`` in the engine's order (block ``(i, j)`` on ``workers[(i*s + j) % p]``, vector
    segment ``k`` with block ``(k, k)``); a worker fetches a segment once, however many of its
    blocks need it.
    """
    p = len(workers)

    def owner(i, j):
        return workers[(i * s + j) % p]

    seg = n / s * entry_bytes
    fetched = {(owner(i, j), j) for i in range(s) for j in range(s) if owner(i, j) != owner(j, j)}
    partials = sum(owner(i, j) != owner(i, i) for i in range(s) for j in range(s))
    return int(round((len(fetched) + partials) * seg))


def _run(algo, G, E, source):
    if algo == "bfs":
        return lg.bfs(G, source, parent=False, engine=E).level
    if algo == "cc":
        return lg.connected_components(G, engine=E)
    if algo == "pagerank":
        return lg.pagerank(G, engine=E)
    return lg.sssp(G, source, parent=False, engine=E).distance


def _same(algo, a, b):
    if algo == "pagerank":
        return bool(np.allclose(a, b, rtol=1e-9, atol=1e-12))
    if algo == "sssp":
        return bool(np.allclose(a, b, rtol=1e-12))
    return bool(np.array_equal(a, b))


def _transfer_bytes(client):
    return sum(client.run(lambda dask_worker: dask_worker.transfer_outgoing_bytes_total).values())


def _on_workers(E, name):
    """The R-MAT graph ``name`` (``rmatNN[:wLO-HI][:dir]``) generated on the workers of ``E``."""
    import re

    from ..engines.dask import rmat
    base, *mods = name.split(":")
    m = re.fullmatch(r"rmat(\d+)", base)
    if not m or any(x != "dir" and not re.fullmatch(r"w\d+-\d+", x) for x in mods):
        raise lg.InvalidArgumentError(f"--generate workers makes R-MAT graphs (rmatNN[:wLO-HI][:dir]), got {name!r}")
    weights = next((tuple(int(x) for x in mod[1:].split("-")) for mod in mods if mod.startswith("w")), None)
    return rmat(E, int(m.group(1)), seed=1, directed="dir" in mods, weights=weights, chunk_edges=1 << 24)


def _busiest(before, after):
    """``(compute_ms, exchange_ms, bytes)`` between two exchange_stats: the busiest worker's times, all bytes."""
    d = {w: {k: after[w][k] - before.get(w, {}).get(k, 0) for k in after[w]} for w in after}
    return (max(v["compute_s"] for v in d.values()) * 1e3, max(v["exchange_s"] for v in d.values()) * 1e3,
            int(sum(v["bytes_sent"] for v in d.values())))


def measure(graphs, workers, algos, *, weak=False, repeat=3, local="cpu", check=True, log=print, save=None,
            exchange="auto", generate="host", check_max=1 << 22):
    """Rows ``{graph, workers, algo, ms, ...}`` and ``mxv`` traffic rows, for each worker count.

    Strong scaling runs every graph on every worker count; ``weak=True`` runs
    ``graphs[k]`` on ``workers[k]`` only (a ladder growing with the workers).
    ``generate="workers"``: R-MAT graphs made on the workers (module docstring).
    """
    if weak and len(graphs) != len(workers):
        raise lg.InvalidArgumentError(f"weak scaling pairs graphs with worker counts: {len(graphs)} graphs, "
                                      f"{len(workers)} worker counts")
    from ..engines.dask import DaskEngine, local_cluster
    rows, traffic = [], []
    built = {}
    for name in graphs:
        if generate == "workers":
            built[name] = None
            continue
        t = time.perf_counter()
        built[name] = build_graph(name)
        log(f"{name}: {built[name]}, built in {time.perf_counter() - t:.1f} s")
    refs = {}
    for w in workers:
        client, cluster = local_cluster(w, local)
        try:
            E = DaskEngine(client, local=local, grid=int(np.ceil(np.sqrt(w))), threads=1, exchange=exchange)
            log(f"{w} workers, {E.grid}x{E.grid} blocks, exchange {E.exchange}")
            for k, (name, G) in enumerate(built.items()):
                if weak and workers[k] != w:
                    continue
                host = G
                if generate == "workers":
                    t = time.perf_counter()
                    try:
                        G = _on_workers(E, name)
                        E.synchronize()
                    except (lg.OutOfDeviceMemory, lg.OutOfMemory) as exc:
                        log(f"  {name} on {w} workers: does not fit ({exc})")
                        continue
                    log(f"  {name}: {G}, generated on the workers in {time.perf_counter() - t:.1f} s")
                    host = G.to_graph() if check and G.n <= check_max and (name, "graph") not in refs else None
                    if host is not None:
                        refs[(name, "graph")] = host
                    host = refs.get((name, "graph"))
                source = int(np.argmax(G.out_degree))
                t = time.perf_counter()
                A = E.matrix(G)
                E.synchronize()
                layout_s = time.perf_counter() - t
                u = E.full(G.n, 1.0)
                E.synchronize()
                y = E.mxv(A, u, "plus_times")
                E.synchronize()
                before, stats0 = _transfer_bytes(client), E.exchange_stats()
                t = time.perf_counter()
                y = E.mxv(A, u, "plus_times")        # held: the engine waits only for results still wanted
                E.synchronize()
                del y
                mxv_ms = (time.perf_counter() - t) * 1e3
                moved = _transfer_bytes(client) - before
                split = _busiest(stats0, E.exchange_stats())
                moved += split[2]                             # NCCL's bytes: Dask does not see them
                entry = 8                                     # a full local vector travels as its float64 values
                model = mxv_model_bytes(G.n, E.grid, list(E.placement.workers), entry)
                traffic.append({"graph": name, "workers": w, "grid": E.grid, "n": G.n, "mxv_bytes": int(moved),
                                "model_bytes": model, "per_worker_bytes": int(moved / w), "mxv_ms": mxv_ms,
                                "exchange": E.exchange, "mxv_compute_ms": split[0], "mxv_exchange_ms": split[1]})
                log(f"  {name} on {w} workers ({E.grid}x{E.grid} blocks): layout {layout_s:.1f} s, "
                    f"one mxv {mxv_ms:.1f} ms (compute {split[0]:.1f}, exchange {split[1]:.1f}) moved "
                    f"{moved / 1e6:.1f} MB (2-D model {model / 1e6:.1f} MB)")
                for algo in algos:
                    weighted = G.weighted
                    if algo == "sssp" and not weighted:
                        continue
                    out = _run(algo, G, E, source)                     # warm-up
                    times = []
                    stats0 = E.exchange_stats()
                    for _ in range(repeat):
                        t = time.perf_counter()
                        _run(algo, G, E, source)
                        times.append((time.perf_counter() - t) * 1e3)
                    compute_ms, exchange_ms, _ = _busiest(stats0, E.exchange_stats())
                    ok, against = None, None
                    if check:
                        key = (name, algo)
                        if key not in refs and host is not None:
                            t = time.perf_counter()
                            refs[key] = (_run(algo, host, "cpu", source), (time.perf_counter() - t) * 1e3, "cpu engine")
                        elif key not in refs:
                            refs[key] = (out, None, f"the {w}-worker run")
                        ok, against = _same(algo, out, refs[key][0]), refs[key][2]
                    ms = statistics.median(times)
                    rows.append({"scaling": "weak" if weak else "strong", "graph": name, "n": G.n, "nnz": G.nnz,
                                 "workers": w, "grid": E.grid, "algo": algo, "ms": ms, "min_ms": min(times),
                                 "runs": repeat, "checked": ok, "checked_against": against,
                                 "cpu_engine_ms": refs[(name, algo)][1] if check else None,
                                 "exchange": E.exchange, "compute_ms": compute_ms / repeat,
                                 "exchange_ms": exchange_ms / repeat})
                    log(f"    {algo:9s} {ms:10.1f} ms  (min {min(times):.1f}, n={repeat}; compute "
                        f"{compute_ms / repeat:.1f}, exchange {exchange_ms / repeat:.1f})"
                        + ("" if ok is None else f"  ok ({against})" if ok else f"  WRONG ({against})"))
                    if save:
                        save(rows, traffic)
                G._engine_cache.clear()
                del G
        finally:
            client.close()
            cluster.close()
    if local == "gpu":
        from .native.nccl import exchange_ms
        for row in traffic:
            if row["workers"] > 1:
                got = exchange_ms(row["model_bytes"], devices=range(row["workers"]))
                row["nccl_allgather_ms"], row["nccl_allreduce_ms"] = got["allgather_ms"], got["allreduce_ms"]
                log(f"  NCCL, {row['workers']} GPUs, {row['model_bytes'] / 1e6:.1f} MB: all-gather "
                    f"{got['allgather_ms']:.3f} ms, all-reduce {got['allreduce_ms']:.3f} ms")
                if save:
                    save(rows, traffic)
    return rows, traffic


def plot(doc, path):
    """Time and speed-up (strong scaling) or efficiency (weak) per worker count, a line per graph and algorithm."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4))
    series = {}
    for r in doc["rows"]:
        graph = r["graph"] if r.get("scaling") != "weak" else "weak ladder"
        series.setdefault((graph, r["algo"]), []).append((r["workers"], r["ms"]))
    for (graph, algo), pts in sorted(series.items()):
        pts.sort()
        w = [p[0] for p in pts]
        ms = [p[1] for p in pts]
        ax.plot(w, ms, marker="o", label=f"{algo} {graph}")
        bx.plot(w, [ms[0] / m for m in ms], marker="o", label=f"{algo} {graph}")
    workers = sorted({r["workers"] for r in doc["rows"]})
    weak = any(r.get("scaling") == "weak" for r in doc["rows"])
    bx.plot(workers, [1.0] * len(workers) if weak else [w / workers[0] for w in workers], "k:", label="ideal")
    for a in (ax, bx):
        a.set_xscale("log", base=2)
        a.set_xticks(workers, [str(w) for w in workers])
        a.set_xlabel("Dask workers")
    ax.set_yscale("log")
    ax.set_ylabel("ms (median)")
    bx.set_ylabel("weak-scaling efficiency (time at 1 / time)" if weak else f"speed-up over {workers[0]} worker(s)")
    bx.legend(fontsize=7)
    fig.suptitle(f"la_graph dask engine, {doc['machine']}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m la_graph.bench.scaling", description=__doc__.split("\n\n")[0])
    p.add_argument("--graphs", nargs="+", default=["rmat20", "rmat20:w1-1000"], help="graph names (la_graph.bench.graphs)")
    p.add_argument("--workers", default="1,2,4", help="comma-separated worker counts")
    p.add_argument("--algos", default=",".join(ALGOS), help=f"comma-separated: {', '.join(ALGOS)}")
    p.add_argument("--weak", action="store_true", help="weak scaling: the k-th graph on the k-th worker count")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--local", default="cpu", choices=("cpu", "gpu"), help="each worker's engine")
    p.add_argument("--no-check", action="store_true", help="skip comparing with the CPU engine")
    p.add_argument("--exchange", default="auto", choices=("auto", "dask", "nccl"),
                   help="how products exchange between workers (DaskEngine's exchange)")
    p.add_argument("--generate", default="host", choices=("host", "workers"),
                   help="build the graphs on the host, or R-MAT on the workers themselves")
    p.add_argument("--check-max", type=int, default=1 << 22,
                   help="worker-made graphs up to this many vertices are gathered and checked on the CPU engine")
    p.add_argument("--out", help="write the JSON here")
    p.add_argument("--plot", nargs=2, metavar=("JSON", "PNG"), help="draw a JSON written before, then exit")
    args = p.parse_args(argv)
    if args.plot:
        with open(args.plot[0]) as f:
            plot(json.load(f), args.plot[1])
        return 0
    doc = {"kind": "la_graph dask scaling", "machine": f"{platform.node()} ({os.cpu_count()} cores)",
           "local": args.local, "date": time.strftime("%Y-%m-%d"), "command": " ".join(sys.argv), "partial": True}

    def save(rows, traffic):
        if args.out:
            with open(args.out, "w") as f:
                json.dump({**doc, "rows": rows, "traffic": traffic}, f, indent=1)

    rows, traffic = measure(args.graphs, [int(w) for w in args.workers.split(",")], args.algos.split(","),
                            weak=args.weak, repeat=args.repeat, local=args.local, check=not args.no_check, save=save,
                            exchange=args.exchange, generate=args.generate, check_max=args.check_max)
    doc["partial"] = False
    save(rows, traffic)
    if args.out:
        print(f"wrote {args.out}")
    return 0 if all(r["checked"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
