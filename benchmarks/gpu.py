"""GPU benchmark: CC and BFS on the GPU engine, against native ECL-CC, the CPU engine and scipy.

Usage::

    python -m benchmarks.gpu                                   # the suite of the GPU-engine issue
    python -m benchmarks.gpu --graphs grid2000 usroads-48 --repeat 7
    LA_GRAPH_DATA=$PWD/.data python -m benchmarks.gpu --out benchmarks/results/gpu-h100.json --plot

Each graph is built once and uploaded once (upload timed on its own).  GPU
times are compute times with the graph already on the device and the result
left there (``output="device"``): CUDA events around each call, median (and
min) of ``--repeat`` runs after one warm-up run; the wall time of the same runs
is recorded too (it includes Python and any host synchronisation).  The native
ECL-CC baseline (``benchmarks/native/ecl_cc.cu``) runs on its own int32 copy of
the CSR.  The CPU engine and scipy.sparse.csgraph are timed once each (wall
clock), for context.  Every result is checked: CC labels are equal across all
tools (smallest vertex id per component) and BFS results pass
``la_graph.verify.check_bfs``.

Without CuPy (no GPU) only the CPU engine and scipy run: a smoke test.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import la_graph as lg
from la_graph.verify import check_bfs, check_cc

from .run import write_record

ROOT = Path(__file__).resolve().parent
DATA = Path(os.environ.get("LA_GRAPH_DATA", ROOT.parents[1] / "shared" / "data"))

#: Targets of the GPU-engine issue (compute ms, graph on the GPU), per graph and algorithm.
TARGETS_MS = {
    ("rmat22", "cc"): 4.0,
    ("uniform22", "cc"): 5.0,
    ("grid2000", "cc"): 1.5,
    ("rmat22", "bfs"): 2.5,
    ("grid2000", "bfs"): 100.0,
}


def _graph_specs():
    from la_graph import generators as gen

    return {
        "rmat22": lambda: gen.rmat(22, 16, seed=22),
        "uniform22": lambda: gen.uniform(4_194_304, 33_554_432, seed=1),
        "grid2000": lambda: gen.grid_2d(2000, 2000),
        "rmat23": lambda: gen.rmat(23, 16, seed=23),
        "usroads-48": lambda: lg.Graph.from_file(DATA / "suitesparse/usroads-48.mtx.gz"),
        "delaunay_n16": lambda: lg.Graph.from_file(DATA / "suitesparse/delaunay_n16.mtx.gz"),
        "luxembourg_osm": lambda: lg.Graph.from_file(DATA / "suitesparse/luxembourg_osm.mtx.gz"),
        "grid100": lambda: gen.grid_2d(100, 100),  # tiny, for a smoke test
        "rmat14": lambda: gen.rmat(14, 16, seed=14),  # tiny, for a smoke test
    }


DEFAULT_GRAPHS = ["rmat22", "uniform22", "grid2000", "usroads-48", "delaunay_n16", "luxembourg_osm"]


def _cupy():
    try:
        import cupy as cp

        cp.cuda.runtime.getDeviceCount()
        return cp
    except Exception:  # no cupy, or no device
        return None


def gpu_time(cp, fn, repeat):
    """(median ms, min ms, median wall ms, last result) of ``fn`` by CUDA events, after one warm-up."""
    out = fn()
    cp.cuda.Device().synchronize()
    ev, wall = [], []
    for _ in range(repeat):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        t = time.perf_counter()
        a.record()
        out = fn()
        b.record()
        b.synchronize()
        wall.append((time.perf_counter() - t) * 1e3)
        ev.append(cp.cuda.get_elapsed_time(a, b))
    return statistics.median(ev), min(ev), statistics.median(wall), out


def wall_once(fn):
    t = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t) * 1e3, out


def _canonical(labels):
    """Component labels -> smallest vertex id of each component."""
    labels = np.asarray(labels)
    _, inv = np.unique(labels, return_inverse=True)
    first = np.full(inv.max() + 1 if inv.size else 0, labels.size, np.int64)
    np.minimum.at(first, inv, np.arange(labels.size))
    return first[inv]


def bench_graph(name, G, repeat, cp, notes):
    from scipy.sparse import csgraph

    rows = []

    def row(algo, tool, variant, med, best, **extra):
        r = {"graph": name, "algorithm": algo, "tool": tool, "variant": variant,
             "median_s": med / 1e3, "min_s": best / 1e3, **extra}
        rows.append(r)
        more = "".join(f"  {k}={v:.3g}" if isinstance(v, float) else f"  {k}={v}" for k, v in extra.items()
                       if k in ("wall_ms", "gteps", "repeat"))
        print(f"  {algo:4s} {tool:16s} {variant:14s} {med:10.3f} ms (min {best:.3f}){more}", flush=True)

    info = {"graph": name, "n": G.n, "nnz": G.nnz, "edges": G.nedges, "directed": G.directed}
    A = G.to_scipy() if hasattr(G, "to_scipy") else None
    if A is None:
        import scipy.sparse as sp

        A = sp.csr_matrix((np.ones(G.nnz, np.int8), G.indices, G.indptr), shape=(G.n, G.n))

    # ---- reference results (scipy) and context timings: scipy and the CPU engine, once each
    ms, (ncomp, sl) = wall_once(lambda: csgraph.connected_components(A, directed=G.directed, connection="weak"))
    ref_labels = _canonical(sl)
    info["components"] = int(ncomp)
    row("cc", "scipy", "labels", ms, ms, repeat=1)
    ms, lab = wall_once(lambda: lg.connected_components(G, engine="cpu"))
    np.testing.assert_array_equal(lab, ref_labels)
    row("cc", "la_graph[cpu]", "fastsv", ms, ms, repeat=1)
    # BFS sources: vertex 0 (the issue's), and the highest-degree vertex ("hub") when vertex 0
    # reaches less than half the graph (R-MAT's vertex 0 is isolated after its permutation)
    deg = np.diff(np.asarray(G.indptr))
    sources = {"": 0}
    bfs_info = {}
    for tag, s in list(sources.items()):
        ms, order = wall_once(lambda: csgraph.breadth_first_order(A, s, directed=True, return_predecessors=False))
        reached = np.asarray(order)
        nnz_reached = int(deg[reached].sum())
        edges_reached = nnz_reached if G.directed else nnz_reached // 2  # undirected edges counted once
        bfs_info[tag] = {"source": s, "reached": int(reached.size), "nnz_reached": nnz_reached,
                         "edges_reached": edges_reached, "levels": None}
        row("bfs", "scipy", "order" + tag, ms, ms, repeat=1, gteps=edges_reached / (ms * 1e6))
        ms, res = wall_once(lambda: lg.bfs(G, s, engine="cpu", level=False))
        check_bfs(G, s, res)
        row("bfs", "la_graph[cpu]", "parent" + tag, ms, ms, repeat=1, gteps=edges_reached / (ms * 1e6))
        if tag == "" and reached.size < G.n // 2 and G.n > 1:
            sources["@hub"] = int(np.argmax(deg))
            hub = sources["@hub"]
            ms, order = wall_once(lambda: csgraph.breadth_first_order(A, hub, directed=True,
                                                                       return_predecessors=False))
            reached = np.asarray(order)
            nnz_reached = int(deg[reached].sum())
            edges_reached = nnz_reached if G.directed else nnz_reached // 2
            bfs_info["@hub"] = {"source": hub, "reached": int(reached.size), "nnz_reached": nnz_reached,
                                "edges_reached": edges_reached, "levels": None}
            row("bfs", "scipy", "order@hub", ms, ms, repeat=1, gteps=edges_reached / (ms * 1e6))
            ms, res = wall_once(lambda: lg.bfs(G, hub, engine="cpu", level=False))
            check_bfs(G, hub, res)
            row("bfs", "la_graph[cpu]", "parent@hub", ms, ms, repeat=1, gteps=edges_reached / (ms * 1e6))
    info["bfs"] = bfs_info
    info["bfs_reached"] = bfs_info[""]["reached"]

    if cp is None:
        return info, rows

    # ---- upload, timed on its own: the engine's CSR (+ degrees), and the native baseline's int32 CSR
    from .native.ecl_cc import ecl_cc, workspace

    E = lg.get_engine("gpu")
    cp.cuda.Device().synchronize()
    t = time.perf_counter()
    E.matrix(G)
    if G.directed:
        E.matrix(G, transpose=True)
    E.degree(G)
    cp.cuda.Device().synchronize()
    info["upload_ms"] = (time.perf_counter() - t) * 1e3
    t = time.perf_counter()
    indptr = cp.asarray(np.asarray(G.indptr, np.int32))
    indices = cp.asarray(np.asarray(G.indices, np.int32))
    cp.cuda.Device().synchronize()
    info["native_upload_ms"] = (time.perf_counter() - t) * 1e3
    print(f"  upload: engine {info['upload_ms']:.1f} ms, native int32 CSR {info['native_upload_ms']:.1f} ms",
          flush=True)

    # ---- CC
    med, best, wall, lab = gpu_time(cp, lambda: lg.connected_components(G, engine="gpu", output="device"), repeat)
    ok = bool(np.array_equal(cp.asnumpy(lab), ref_labels))
    if not ok:
        notes.append(f"{name}: la_graph[gpu] CC labels differ from scipy's")
    row("cc", "la_graph[gpu]", "fastsv", med, best, wall_ms=wall, repeat=repeat, correct=ok)
    gpu_cc = med
    if G.directed:
        notes.append(f"{name}: directed, native ECL-CC skipped (needs a symmetric CSR)")
    else:
        out, ws = cp.empty(G.n, cp.int32), workspace(G.n)
        med, best, wall, lab = gpu_time(cp, lambda: ecl_cc(indptr, indices, out=out, workspace=ws), repeat)
        ok = bool(np.array_equal(cp.asnumpy(lab), ref_labels))
        if not ok:
            notes.append(f"{name}: native ECL-CC labels differ from scipy's")
        row("cc", "native", "ecl-cc", med, best, wall_ms=wall, repeat=repeat, correct=ok)
        info["cc_ratio_to_native"] = gpu_cc / med
        del out, ws

    # ---- BFS from vertex 0 (and the hub, see above): level+parent, parent only
    for tag, s in sources.items():
        edges_reached = bfs_info[tag]["edges_reached"]
        for variant, kw in (("level+parent", {}), ("parent", {"level": False})):
            med, best, wall, res = gpu_time(cp, lambda: lg.bfs(G, s, engine="gpu", output="device", **kw), repeat)
            host = type("R", (), {"level": None if res.level is None else cp.asnumpy(res.level),
                                  "parent": None if res.parent is None else cp.asnumpy(res.parent)})()
            try:
                check_bfs(G, s, host)
                ok = True
            except Exception as exc:  # record, keep going
                ok = False
                notes.append(f"{name}: la_graph[gpu] BFS ({variant}{tag}) failed check_bfs: {exc}")
            if host.level is not None:
                bfs_info[tag]["levels"] = int(host.level.max()) + 1
            row("bfs", "la_graph[gpu]", variant + tag, med, best, wall_ms=wall, repeat=repeat, correct=ok,
                gteps=edges_reached / (med * 1e6))
    info["bfs_levels"] = bfs_info[""]["levels"]
    del indptr, indices
    G._engine_cache.clear() if hasattr(G, "_engine_cache") else None
    cp.get_default_memory_pool().free_all_blocks()
    return info, rows


def environment(cp):
    import scipy

    env = {"numpy": np.__version__, "scipy": scipy.__version__, "cpus": os.cpu_count()}
    try:
        import graphblas

        env["python-graphblas"] = graphblas.__version__
        env["suitesparse"] = ".".join(map(str, graphblas.ss.about["library_version"]))
    except Exception:
        pass
    if cp is not None:
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        env.update(cupy=cp.__version__, device=props["name"].decode(), sms=props["multiProcessorCount"],
                   cuda_runtime=cp.cuda.runtime.runtimeGetVersion(), driver=cp.cuda.runtime.driverGetVersion())
    return env


def summary(doc):
    """Markdown tables: CC (GPU vs native, targets) and BFS (ms, GTEPS, targets), CPU + scipy for context."""
    def get(g, a, tool, variant=None):
        for r in doc["results"]:
            if r["graph"] == g and r["algorithm"] == a and r["tool"] == tool and variant in (None, r["variant"]):
                return r
        return None

    def ms(r):
        return "—" if r is None else f"{r['median_s'] * 1e3:.3f}"

    lines = ["| graph | n | nnz | GPU CC ms | native ECL-CC ms | ratio | target | met | CPU engine ms | scipy ms |",
             "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    for info in doc["graphs"]:
        g = info["graph"]
        ours, nat = get(g, "cc", "la_graph[gpu]"), get(g, "cc", "native")
        tgt = TARGETS_MS.get((g, "cc"))
        ratio = f"{ours['median_s'] / nat['median_s']:.2f}x" if ours and nat else "—"
        met = "—" if tgt is None or ours is None else ("yes" if ours["median_s"] * 1e3 <= tgt else "NO")
        lines.append(f"| {g} | {info['n']:,} | {info['nnz']:,} | {ms(ours)} | {ms(nat)} | {ratio} | "
                     f"{'—' if tgt is None else tgt} | {met} | {ms(get(g, 'cc', 'la_graph[cpu]'))} | "
                     f"{ms(get(g, 'cc', 'scipy'))} |")
    lines += ["", "| graph, source | reached | levels | GPU BFS ms (level+parent) | GTEPS | GPU BFS ms (parent) | GTEPS | "
              "target | met | CPU engine ms | scipy ms |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    def gt(r):
        return "—" if r is None else f"{r['gteps']:.2f}"

    for info in doc["graphs"]:
        g = info["graph"]
        for tag, b in info["bfs"].items():
            lp = get(g, "bfs", "la_graph[gpu]", "level+parent" + tag)
            p = get(g, "bfs", "la_graph[gpu]", "parent" + tag)
            tgt = TARGETS_MS.get((g, "bfs")) if tag == "" else None
            met = "—" if tgt is None or lp is None else ("yes" if lp["median_s"] * 1e3 <= tgt else "NO")
            lines.append(f"| {g} from {b['source']} | {b['reached']:,} | {b['levels'] or '—'} | {ms(lp)} | "
                         f"{gt(lp)} | {ms(p)} | {gt(p)} | {'—' if tgt is None else tgt} | {met} | "
                         f"{ms(get(g, 'bfs', 'la_graph[cpu]', 'parent' + tag))} | "
                         f"{ms(get(g, 'bfs', 'scipy', 'order' + tag))} |")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--graphs", nargs="+", default=DEFAULT_GRAPHS, choices=sorted(_graph_specs()))
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--out", type=Path, default=None, help="JSON file (default: benchmarks/results/gpu-<date>.json)")
    p.add_argument("--plot", action="store_true", help="also write a PNG next to the JSON")
    args = p.parse_args(argv)
    if args.repeat < 1:
        p.error("--repeat must be at least 1")

    cp = _cupy()
    if cp is None:
        print("no CuPy / GPU: timing the CPU engine and scipy only (smoke test)", file=sys.stderr)
    specs = _graph_specs()
    graphs, rows, notes = [], [], []
    warm = specs["grid100"]()  # first-call costs (GraphBLAS set-up) out of the CPU engine's one-shot timings
    lg.connected_components(warm, engine="cpu")
    lg.bfs(warm, 0, engine="cpu", level=False)
    for name in args.graphs:
        t = time.perf_counter()
        try:
            G = specs[name]()
        except FileNotFoundError as exc:
            print(f"{name}: skipped ({exc})", file=sys.stderr)
            notes.append(f"{name}: skipped, file not found")
            continue
        build = time.perf_counter() - t
        print(f"{name}: {G!r}, built in {build:.1f} s", flush=True)
        info, r = bench_graph(name, G, args.repeat, cp, notes)
        info["build_s"] = build
        graphs.append(info)
        rows.extend(r)
        del G
    stamp = dt.datetime.now(dt.timezone.utc)
    doc = {"date": stamp.isoformat(timespec="seconds"), "engine": "gpu", "environment": environment(cp),
           "timing": "GPU: CUDA events, median of --repeat after a warm-up, graph and result on the device; "
                     "CPU engine and scipy: one wall-clock run",
           "targets_ms": {f"{g}/{a}": v for (g, a), v in TARGETS_MS.items()},
           "graphs": graphs, "results": rows, "notes": notes}
    table = "\n".join([summary(doc), *(f"NOTE: {n}" for n in notes)])
    write_record(doc, args.out or ROOT / "results" / f"gpu-{stamp:%Y%m%d-%H%M}.json", table, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
