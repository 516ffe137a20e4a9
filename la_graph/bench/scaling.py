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

Graphs generated on GPU workers are built by the lean block build; a row with
``algo="build"`` holds each worker's build (times of its passes, the memory model's peak
and resident bytes, CuPy's pool high-water mark), and a graph that does not fit is a row
with its ``error``.  ``--spmd`` also runs each algorithm on the workers by ``E.run``
(``path="spmd"``, first), beside the client-driven run (``path="client"``); each row has the
busiest worker's compute and exchange per run, the bytes and collectives per run, and on GPU
workers the largest CuPy pool on a worker (``pool_peak_bytes``: a high-water mark).
``--budget S`` times an algorithm once only when its first (warm-up) run takes over ``S`` seconds.  For runs cut
into one process per worker count, ``--refs FILE.npz`` keeps the first process's answers to
check the later ones against, ``--no-yardstick`` skips NCCL's collectives and ``--yardstick
JSON...`` adds them to the records afterwards.

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

from .. import verify

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


def _call(algo, G, source):
    """``(function, args, kwargs, pick)``: how to run ``algo`` on ``G``, and the array of its result compared."""
    if algo == "bfs":
        return lg.bfs, (G, source), {"parent": False}, lambda r: r.level
    if algo == "cc":
        return lg.connected_components, (G,), {}, lambda r: r
    if algo == "pagerank":
        return lg.pagerank, (G,), {}, lambda r: r
    return lg.sssp, (G, source), {"parent": False}, lambda r: r.distance


def _sample_check(algo, G, source, out, sample):
    """``la_graph.verify``'s check of ``algo``'s answer ``out`` at ``sample`` random vertices (and the source).

    Raises VerificationError; the caller records it as a wrong row."""
    if algo == "bfs":
        verify.check_bfs_sample(G, source, out, sample=sample)
    elif algo == "sssp":
        verify.check_sssp_sample(G, source, out, sample=sample)
    elif algo == "cc":
        verify.check_cc_sample(G, out, sample=sample)
    else:
        verify.check_pagerank_sample(G, out, sample=sample)


def _inside(fn, *args, engine=None, **kwargs):
    """``fn`` on an SPMD rank, and the seconds it took there (E.run returns rank 0's)."""
    t = time.perf_counter()
    out = fn(*args, engine=engine, **kwargs)
    return out, time.perf_counter() - t


def _run(algo, G, E, source, spmd=False):
    """``(answer, seconds)``: ``algo`` on ``G`` with engine ``E``, driven from the client, or (``spmd``) run on
    the workers by ``E.run``; seconds: rank 0's inside the algorithm, result gathered (None when client-driven)."""
    fn, args, kwargs, pick = _call(algo, G, source)
    if not spmd:
        return pick(fn(*args, engine=E, **kwargs)), None
    out, inside = E.run(_inside, fn, *args, **kwargs)
    return pick(out), inside


def _pool(release=False, dask_worker=None):
    """``(in use, held)`` bytes of CuPy's pool on a GPU worker (``release``: cached blocks given back first, so
    that what it holds later bounds the peak since from above: the pool keeps what it allocates)."""
    from ..engines.gpu.memory import pool_bytes
    return pool_bytes(release)


def _pool_peak(client, local):
    """The most bytes CuPy's pool holds on any worker (GPU workers; None otherwise)."""
    if local != "gpu":
        return None
    return max(held for _, held in client.run(_pool).values())


def _same(algo, a, b):
    if algo == "pagerank":
        return bool(np.allclose(a, b, rtol=1e-9, atol=1e-12))
    if algo == "sssp":
        return bool(np.allclose(a, b, rtol=1e-12))
    return bool(np.array_equal(a, b))


def _transfer_bytes(client):
    return sum(client.run(lambda dask_worker: dask_worker.transfer_outgoing_bytes_total).values())


def _on_workers(E, name, chunk_edges=1 << 24):
    """The R-MAT graph ``name`` (``rmatNN[:wLO-HI][:dir]``) generated on the workers of ``E``."""
    import re

    from ..engines.dask import rmat
    base, *mods = name.split(":")
    m = re.fullmatch(r"rmat(\d+)", base)
    if not m or any(x != "dir" and not re.fullmatch(r"w\d+-\d+", x) for x in mods):
        raise lg.InvalidArgumentError(f"--generate workers makes R-MAT graphs (rmatNN[:wLO-HI][:dir]), got {name!r}")
    weights = next((tuple(int(x) for x in mod[1:].split("-")) for mod in mods if mod.startswith("w")), None)
    return rmat(E, int(m.group(1)), seed=1, directed="dir" in mods, weights=weights, chunk_edges=chunk_edges)


def _busiest(before, after):
    """``(compute_ms, exchange_ms, bytes)`` between two exchange_stats: the busiest worker's times, all bytes."""
    d = {w: {k: after[w][k] - before.get(w, {}).get(k, 0) for k in after[w]} for w in after}
    return (max(v["compute_s"] for v in d.values()) * 1e3, max(v["exchange_s"] for v in d.values()) * 1e3,
            int(sum(v["bytes_sent"] for v in d.values())))


def measure(graphs, workers, algos, *, weak=False, repeat=3, local="cpu", check=True, log=print, save=None,
            exchange="auto", generate="host", check_max=1 << 22, check_sample=4096, spmd=False,
            client_driven=True, grid=None, budget=None,
            chunk_edges=1 << 24, refs_file=None, yardstick=True, threads=1, cpu_baseline=False):
    """Rows ``{graph, workers, algo, ms, ...}`` and ``mxv`` traffic rows, for each worker count.

    Strong scaling runs every graph on every worker count; ``weak=True`` runs
    ``graphs[k]`` on ``workers[k]`` only (a ladder growing with the workers).
    ``generate="workers"``: R-MAT graphs made on the workers (module docstring), drawn
    ``chunk_edges`` at a time.  ``spmd``: every algorithm also run by ``E.run`` (rows with
    ``path="spmd"``; the client-driven ones have ``path="client"``; ``client_driven=False``: those left out).
    ``check_sample``: graphs not checked on the CPU engine are checked by the local conditions at this
    many sampled vertices (:mod:`la_graph.verify`'s ``check_*_sample``; 0: not).  ``grid``: blocks per
    side (default ``ceil(sqrt(workers))``).  ``budget``: seconds; an algorithm whose first
    run (one-off costs included) takes longer is timed once more only (``runs=1``).  ``refs_file``:
    an ``.npz`` of answers; those it holds are the references, and new references are added to
    it (several processes, one per worker count, check against the first one's answers).
    ``yardstick``: NCCL's collectives for the same bytes at the end (:func:`nccl_yardstick`).
    ``threads``: GraphBLAS threads per CPU worker.  ``cpu_baseline``: each algorithm also timed on the
    CPU engine in this process with all its cores (rows with ``path="cpu-engine"``, ``workers=0``: a warm-up,
    then ``repeat`` runs), on every graph whose host copy is here (built here, or gathered for the check).
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
    stored = _load_refs(refs_file)
    refs = dict(stored)
    gb = 1e9
    baselined = set()
    for w in workers:
        client, cluster = local_cluster(w, local)
        try:
            E = DaskEngine(client, local=local, grid=grid or int(np.ceil(np.sqrt(w))), threads=threads,
                           exchange=exchange)
            log(f"{w} workers ({threads} threads each), {E.grid}x{E.grid} blocks, exchange {E.exchange}")
            for k, (name, G) in enumerate(built.items()):
                if weak and workers[k] != w:
                    continue
                host = G
                build = None
                if generate == "workers":
                    t = time.perf_counter()
                    try:
                        G = _on_workers(E, name, chunk_edges)
                        E.synchronize()
                    except (lg.OutOfDeviceMemory, lg.OutOfMemory) as exc:
                        log(f"  {name} on {w} workers: does not fit ({exc})")
                        rows.append({"graph": name, "workers": w, "grid": E.grid, "algo": "build",
                                     "error": str(exc)})
                        continue
                    build_s = time.perf_counter() - t
                    log(f"  {name}: {G}, generated on the workers in {build_s:.1f} s")
                    build = _build_row(G, name, w, E.grid, build_s, log)
                    rows.append(build)
                    host = G.to_graph() if check and G.n <= check_max and (name, "graph") not in refs else None
                    if host is not None:
                        refs[(name, "graph")] = host
                    host = refs.get((name, "graph"))
                source = int(np.argmax(G.out_degree))
                if cpu_baseline and host is not None and name not in baselined:
                    baselined.add(name)
                    rows += _cpu_engine_rows(name, host, algos, source, repeat, weak, log)
                    if save:
                        save(rows, traffic)
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
                del u
                paths = (("spmd",) if spmd else ()) + (("client",) if client_driven or not spmd else ())
                for path in paths:     # E.run first: it is the quicker
                    for algo in algos:
                        if algo == "sssp" and not G.weighted:
                            continue
                        if path == "spmd" and w > 1 and E.exchange not in ("nccl", "local", "tcp"):
                            log(f"    {algo:9s} spmd   skipped: E.run needs an exchange between workers, this "
                                f"engine's is {E.exchange!r}")
                            continue
                        row = {"scaling": "weak" if weak else "strong", "graph": name, "n": G.n, "nnz": G.nnz,
                               "workers": w, "grid": E.grid, "algo": algo, "path": path, "exchange": E.exchange,
                               "threads_per_worker": threads if local == "cpu" else None}
                        try:
                            out = _timed_runs(algo, G, E, source, path == "spmd", repeat, budget, client, local, row)
                        except Exception as exc:  # noqa: BLE001 - recorded in the row and the log; the others run
                            row["error"] = f"{type(exc).__name__}: {exc}"
                            row["memory"] = isinstance(exc, (lg.OutOfDeviceMemory, lg.OutOfMemory))
                            rows.append(row)
                            log(f"    {algo:9s} {path:6s} {'does not fit' if row['memory'] else 'FAILED'}: "
                                f"{row['error']}")
                            if save:
                                save(rows, traffic)
                            continue
                        ok, against = None, None
                        if check:
                            key = (name, algo)
                            if key not in refs and host is not None:
                                t = time.perf_counter()
                                refs[key] = (_run(algo, host, "cpu", source)[0], (time.perf_counter() - t) * 1e3,
                                             "cpu engine")
                            elif key not in refs:
                                refs[key] = (out, None, f"the {w}-worker {path} run")
                            ok, against = _same(algo, out, refs[key][0]), refs[key][2]
                            if ok and check_sample and host is None:     # no CPU engine answer: the local conditions
                                t = time.perf_counter()
                                try:
                                    _sample_check(algo, G, source, out, check_sample)
                                    against += (f"; the local conditions at {check_sample} sampled vertices "
                                                f"({time.perf_counter() - t:.1f} s)")
                                except lg.VerificationError as exc:
                                    ok, against = False, f"the local conditions at sampled vertices: {exc}"
                        row.update(checked=ok, checked_against=against,
                                   cpu_engine_ms=refs[(name, algo)][1] if check else None)
                        rows.append(row)
                        pool = "" if row["pool_peak_bytes"] is None else f", pool {row['pool_peak_bytes'] / gb:.1f} GB"
                        runs = f"n={row['runs']}" if row["runs"] else "first run only"
                        inside = "" if row["inside_ms"] is None else f"rank 0 inside {row['inside_ms']:.1f}, "
                        log(f"    {algo:9s} {path:6s} {row['ms']:10.1f} ms  (min {row['min_ms']:.1f}, {runs}; "
                            f"{inside}compute {row['compute_ms']:.1f}, exchange {row['exchange_ms']:.1f}, "
                            f"{row['bytes_per_run'] / 1e6:.1f} MB in {row['collectives_per_run']:.0f} collectives"
                            f"{pool})" + ("" if ok is None else f"  ok ({against})" if ok else f"  WRONG ({against})"))
                        if save:
                            save(rows, traffic)
                G._engine_cache.clear()
                del G, A
        finally:
            client.close()
            cluster.close()
            answers = {key for key in refs if key[1] != "graph"}
            if refs_file and answers - set(stored):           # (also when interrupted)
                stored = {key: refs[key] for key in answers}
                _save_refs(refs_file, stored)
    if local == "gpu" and yardstick:
        nccl_yardstick(rows, traffic, log)
        if save:
            save(rows, traffic)
    return rows, traffic


def _cpu_engine_rows(name, G, algos, source, repeat, weak, log):
    """The CPU engine's own time for each algorithm on host graph ``G``, in this process with all its cores:
    a warm-up (compiles, caches), then ``repeat`` runs; rows with ``path="cpu-engine"``."""
    rows = []
    for algo in algos:
        if algo == "sssp" and not G.weighted:
            continue
        fn, args, kwargs, _ = _call(algo, G, source)
        fn(*args, engine="cpu", **kwargs)
        times = []
        for _ in range(max(repeat, 1)):
            t = time.perf_counter()
            fn(*args, engine="cpu", **kwargs)
            times.append((time.perf_counter() - t) * 1e3)
        rows.append({"scaling": "weak" if weak else "strong", "graph": name, "n": G.n, "nnz": G.nnz, "workers": 0,
                     "algo": algo, "path": "cpu-engine", "cores": os.cpu_count(), "ms": statistics.median(times),
                     "min_ms": min(times), "runs": len(times)})
        log(f"    {algo:9s} cpu engine, {os.cpu_count()} cores: {rows[-1]['ms']:10.1f} ms  (min {min(times):.1f})")
    return rows


def nccl_yardstick(rows, traffic, log=print):
    """What NCCL's all-gather and all-reduce take for the same bytes, between the same number of GPUs.

    Traffic rows: the 2-D model's bytes of one ``mxv``.  Algorithm rows (``bytes_per_run`` over
    ``collectives_per_run``): one collective's average bytes, and ``nccl_floor_ms``, that many
    all-gathers of that size -- what the run's exchange would cost as NCCL collectives alone,
    beside its ``exchange_ms``.  Adds ``nccl_allgather_ms`` and ``nccl_allreduce_ms`` to the rows.
    Run after the workers are gone (one process drives every GPU).
    """
    from .native.nccl import exchange_ms

    def size(r):
        if "model_bytes" in r:
            return int(r["model_bytes"])
        return int(float(f"{r['bytes_per_run'] / r['collectives_per_run']:.2g}"))    # 2 digits: fewer sizes

    for p in sorted({r["workers"] for r in [*traffic, *rows] if r["workers"] > 1}):
        wanted = [r for r in traffic if r["workers"] == p] + \
                 [r for r in rows if r["workers"] == p and r.get("bytes_per_run") and r.get("collectives_per_run")]
        sizes = sorted({size(r) for r in wanted})
        if not sizes:
            continue
        got = dict(zip(sizes, exchange_ms(sizes, devices=range(p))))
        for r in wanted:
            g = got[size(r)]
            r["nccl_allgather_ms"], r["nccl_allreduce_ms"] = g["allgather_ms"], g["allreduce_ms"]
            if "model_bytes" in r:
                log(f"  NCCL, {p} GPUs, one mxv's {size(r) / 1e6:.1f} MB: all-gather {g['allgather_ms']:.3f} ms, "
                    f"all-reduce {g['allreduce_ms']:.3f} ms (the engine's mxv: exchange {r['mxv_exchange_ms']:.2f} "
                    f"ms)")
            else:
                r["nccl_floor_ms"] = r["collectives_per_run"] * g["allgather_ms"]
                log(f"  NCCL, {p} GPUs, {r['graph']} {r['algo']} {r['path']}: {r['collectives_per_run']:.0f} "
                    f"collectives of {size(r) / 1e6:.2f} MB, all-gather {g['allgather_ms']:.3f} ms each = "
                    f"{r['nccl_floor_ms']:.1f} ms per run (the engine's exchange: {r['exchange_ms']:.1f} ms)")


def _load_refs(path):
    """Answers saved by an earlier run (``--refs``): ``{(graph, algo): (array, None, against)}``."""
    if not path or not os.path.exists(path):
        return {}
    with np.load(path) as f:
        return {tuple(k.split("|", 1)): (f[k], None, "an earlier run (refs file)") for k in f.files}


def _save_refs(path, refs):
    with open(path, "wb") as f:
        np.savez(f, **{f"{g}|{a}": np.asarray(v[0]) for (g, a), v in refs.items()})


def _build_row(G, name, w, grid, seconds, log):
    """The row of a graph generated on the workers: time, and each worker's build (G.build_stats)."""
    stats = getattr(G, "build_stats", None) or {}
    row = {"graph": name, "workers": w, "grid": grid, "algo": "build", "n": G.n, "nnz": G.nnz, "s": seconds,
           "per_worker": stats}
    for addr, st in stats.items():
        peak = st.get("peak_device_bytes")
        log(f"    build {addr}: {st['blocks']} blocks, {st['rows']:,} rows, {st['drawn_entries']:,} drawn -> "
            f"{st['entries']:,} entries; count {st['count_s']:.1f} s, fill {st['fill_s']:.1f} s, sort "
            f"{st['sort_s']:.1f} s, blocks {st['blocks_s']:.1f} s; model peak {st['model_peak_bytes'] / 1e9:.1f} GB, "
            f"resident {st['model_resident_bytes'] / 1e9:.1f} GB"
            + ("" if peak is None else f"; measured pool peak {peak / 1e9:.1f} GB"))
    return row


def _timed_runs(algo, G, E, source, spmd, repeat, budget, client, local, row):
    """Run ``algo`` once (warm-up), then ``repeat`` times (once if the first run took over ``budget`` seconds);
    fills ``row`` with the times (``inside_ms``: an SPMD run's rank 0 inside the algorithm, its result gathered;
    the rest of ``ms`` is the run's start and the result's trip to the client), the busiest worker's compute
    and exchange per run, the bytes and collectives per run, and the pool's high-water mark (GPU workers).
    Returns the first run's answer."""
    if local == "gpu":
        client.run(_pool, True)
    stats0 = E.exchange_stats()
    t = time.perf_counter()
    out, inside = _run(algo, G, E, source, spmd)
    first = time.perf_counter() - t
    insides = [inside]
    # the first run pays the workers' one-off costs (kernel compiles, NCCL's communicators), so at
    # least one timed run follows it; past the budget, only one
    runs = repeat if budget is None or first <= budget else min(repeat, 1)
    times = [first * 1e3]
    if runs:
        stats0 = E.exchange_stats()
        times, insides = [], []
        for _ in range(runs):
            t = time.perf_counter()
            insides.append(_run(algo, G, E, source, spmd)[1])
            times.append((time.perf_counter() - t) * 1e3)
    after = E.exchange_stats()
    compute_ms, exchange_ms, sent = _busiest(stats0, after)
    per = max(runs, 1)
    collectives = sum(after[w]["collectives"] - stats0.get(w, {}).get("collectives", 0) for w in after)
    row.update(ms=statistics.median(times), min_ms=min(times), runs=runs, first_ms=first * 1e3,
               inside_ms=None if insides[0] is None else statistics.median(insides) * 1e3,
               compute_ms=compute_ms / per, exchange_ms=exchange_ms / per, bytes_per_run=sent / per,
               collectives_per_run=collectives / per, pool_peak_bytes=_pool_peak(client, local))
    return out


def plot(doc, path):
    """Time and speed-up (strong scaling) or efficiency (weak) per worker count, a line per graph and algorithm."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4))
    series = {}
    for r in doc["rows"]:
        if "ms" not in r or r.get("path") == "cpu-engine":  # a build, an algorithm that did not fit, the baseline
            continue
        graph = r["graph"] if r.get("scaling") != "weak" else "weak ladder"
        algo = r["algo"] + (" (E.run)" if r.get("path") == "spmd" else "")
        series.setdefault((graph, algo), []).append((r["workers"], r["ms"]))
    for (graph, algo), pts in sorted(series.items()):
        pts.sort()
        w = [p[0] for p in pts]
        ms = [p[1] for p in pts]
        ax.plot(w, ms, marker="o", label=f"{algo} {graph}")
        bx.plot(w, [ms[0] / m for m in ms], marker="o", label=f"{algo} {graph}")
    workers = sorted({r["workers"] for r in doc["rows"] if "ms" in r and r["workers"]})
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
    p.add_argument("--exchange", default="auto", choices=("auto", "dask", "nccl", "tcp"),
                   help="how products exchange between workers (DaskEngine's exchange)")
    p.add_argument("--generate", default="host", choices=("host", "workers"),
                   help="build the graphs on the host, or R-MAT on the workers themselves")
    p.add_argument("--check-max", type=int, default=1 << 22,
                   help="worker-made graphs up to this many vertices are gathered and checked on the CPU engine")
    p.add_argument("--check-sample", type=int, default=4096,
                   help="graphs not checked on the CPU engine: the answer's local conditions at this many sampled "
                        "vertices (la_graph.verify.check_*_sample; 0: none)")
    p.add_argument("--spmd", action="store_true", help="also run each algorithm on the workers with E.run")
    p.add_argument("--no-client", action="store_true",
                   help="with --spmd: only the E.run rows (the client-driven runs of a big graph take minutes)")
    p.add_argument("--grid", type=int, help="blocks per side (default ceil(sqrt(workers)))")
    p.add_argument("--budget", type=float,
                   help="seconds: an algorithm whose first (warm-up) run takes longer is timed once only")
    p.add_argument("--chunk-edges", type=int, default=1 << 24,
                   help="edges a worker draws at a time with --generate workers (the build's scratch)")
    p.add_argument("--refs", help="an .npz of reference answers: read if it exists, new answers added")
    p.add_argument("--no-yardstick", action="store_true", help="skip NCCL's collectives for the same bytes")
    p.add_argument("--yardstick", nargs="+", metavar="JSON",
                   help="add NCCL's collectives for the bytes of JSON records written before, then exit")
    p.add_argument("--threads", type=int, default=1, help="GraphBLAS threads per CPU worker process")
    p.add_argument("--cpu-baseline", action="store_true",
                   help="also time each algorithm on the CPU engine in this process, all cores (path cpu-engine)")
    p.add_argument("--processes", action="store_true",
                   help="E.run on CPU worker processes over TCP: short for --local cpu --exchange tcp --spmd "
                        "--no-client --generate workers --cpu-baseline")
    p.add_argument("--no-cpu-baseline", action="store_true",
                   help="with --processes: leave the CPU engine's timing out (a later process of a split run)")
    p.add_argument("--out", help="write the JSON here")
    p.add_argument("--plot", nargs=2, metavar=("JSON", "PNG"), help="draw a JSON written before, then exit")
    args = p.parse_args(argv)
    if args.plot:
        with open(args.plot[0]) as f:
            plot(json.load(f), args.plot[1])
        return 0
    if args.yardstick:
        for path in args.yardstick:
            with open(path) as f:
                rec = json.load(f)
            nccl_yardstick(rec["rows"], rec["traffic"])
            with open(path, "w") as f:
                json.dump(rec, f, indent=1)
        return 0
    if args.processes:
        args.local, args.exchange, args.spmd, args.no_client = "cpu", "tcp", True, True
        args.generate, args.cpu_baseline = "workers", not args.no_cpu_baseline
    doc = {"kind": "la_graph dask scaling", "machine": f"{platform.node()} ({os.cpu_count()} cores)",
           "local": args.local, "date": time.strftime("%Y-%m-%d"), "command": " ".join(sys.argv), "partial": True}

    def save(rows, traffic):
        if args.out:
            with open(args.out, "w") as f:
                json.dump({**doc, "rows": rows, "traffic": traffic}, f, indent=1)

    t0 = time.perf_counter()

    def log(line):                  # the seconds since the start, at the end of each line (where the time went)
        print(f"{line}  [{time.perf_counter() - t0:.0f} s]", flush=True)

    rows, traffic = measure(args.graphs, [int(w) for w in args.workers.split(",")], args.algos.split(","),
                            weak=args.weak, repeat=args.repeat, local=args.local, check=not args.no_check,
                            save=save, log=log,
                            exchange=args.exchange, generate=args.generate, check_max=args.check_max,
                            check_sample=args.check_sample, spmd=args.spmd, client_driven=not args.no_client,
                            grid=args.grid, budget=args.budget, chunk_edges=args.chunk_edges,
                            refs_file=args.refs, yardstick=not args.no_yardstick, threads=args.threads,
                            cpu_baseline=args.cpu_baseline)
    doc["partial"] = False
    save(rows, traffic)
    if args.out:
        print(f"wrote {args.out}")
    return 0 if all(r.get("checked") is not False and (r.get("memory", True) or "error" not in r)
                    for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
