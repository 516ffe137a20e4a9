"""Benchmarks: la_graph against its peers, same machine, same run, JSON out.

Usage::

    python -m benchmarks.run                       # the CPU suite of the foundation issue
    python -m benchmarks.run --graphs grid usroads --repeat 7
    python -m benchmarks.run --out benchmarks/results/cpu.json --plot

Each graph is built once; every tool gets its own prepared input (scipy CSR,
igraph Graph, la_graph Graph already uploaded to the engine) outside the timed
region.  Each measurement is the median (and min) of ``--repeat`` runs after
one warm-up run, and every la_graph result is checked against the peers'.
Speed is never asserted here: the JSON and the printed table are the record.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import la_graph as lg
from la_graph.verify import check_bfs, check_cc

from . import peers

ROOT = Path(__file__).resolve().parent
DATA = Path(os.environ.get("LA_GRAPH_DATA", ROOT.parents[1] / "shared" / "data"))


def _graph_specs():
    """name -> (builder, BFS source rule)."""
    from la_graph import generators as gen

    return {
        "rmat20": (lambda: gen.rmat(20, 16, seed=20), "random"),
        "grid1000": (lambda: gen.grid_2d(1000, 1000), 0),
        "uk-2007-05": (lambda: lg.Graph.from_file(DATA / "law/uk-2007-05_100000.txt.gz"), "random"),
        "usroads-48": (lambda: lg.Graph.from_file(DATA / "suitesparse/usroads-48.mtx.gz"), 0),
        "rmat16": (lambda: gen.rmat(16, 16, seed=16), "random"),  # small, for a quick look
    }


DEFAULT_GRAPHS = ["rmat20", "grid1000", "uk-2007-05", "usroads-48"]


def _sources(G, rule, count=16, seed=1):
    """BFS sources: vertex ``rule``, or ``count`` random vertices with out-edges (Graph500/GAP practice)."""
    if rule != "random":
        return [int(rule)]
    cand = np.flatnonzero(G.out_degree > 0)
    return [int(s) for s in np.random.default_rng(seed).choice(cand, count)]


def interleaved(cases, repeat):
    """Time every case ``repeat`` times, one round of all cases after another.

    Interleaving puts every tool under the same machine conditions (a busy
    neighbour slows all of them alike).  Each case gets one untimed warm-up run
    first.  Returns, per case, (median s, min s, last result).
    """
    results = [fn() for _, fn, _ in cases]
    times = [[] for _ in cases]
    for _ in range(repeat):
        for i, (_, fn, _) in enumerate(cases):
            t = time.perf_counter()
            results[i] = fn()
            times[i].append(time.perf_counter() - t)
    return [(statistics.median(ts), min(ts), r) for ts, r in zip(times, results)]


def bench_graph(name, G, sources, engine, repeat, tools):
    """Time BFS (all ``sources``, one after another) and CC of ``G`` on la_graph and each peer."""
    rows = []
    E = lg.get_engine(engine)
    t = time.perf_counter()
    E.matrix(G)
    if G.directed:
        E.matrix(G, transpose=True)
    E.degree(G)
    upload = time.perf_counter() - t
    prepared = {tool: peers.prepare(tool, G) for tool in tools}

    def run_cases(algo, cases):
        for ((tool, variant), _, check), (med, best, out) in zip(cases, interleaved(cases, repeat)):
            check(out)
            rows.append({"graph": name, "algorithm": algo, "tool": tool, "variant": variant,
                         "median_s": med, "min_s": best, "repeat": repeat})
            print(f"  {algo:4s} {tool:22s} {variant:18s} {med * 1e3:10.2f} ms  (min {best * 1e3:.2f})", flush=True)

    # ---- BFS: every source in turn; results checked against the reference
    refs = [lg.bfs(G, s, engine=engine) for s in sources]
    for s, r in zip(sources, refs):
        check_bfs(G, s, r)
    reached = [int(np.count_nonzero(r.level >= 0)) for r in refs]
    tool = f"la_graph[{engine}]"

    def ours(**kw):
        return lambda: [lg.bfs(G, s, engine=engine, **kw) for s in sources]

    def same_levels(rs):
        for r, ref in zip(rs, refs):
            np.testing.assert_array_equal(r.level, ref.level)

    def valid_parents(rs):
        for s, r in zip(sources, rs):
            check_bfs(G, s, r)

    cases = [((tool, "parent"), ours(level=False), valid_parents),
             ((tool, "level+parent"), ours(), same_levels),
             ((tool, "level"), ours(parent=False), same_levels)]
    for peer in tools:
        fn, variant = peers.bfs(peer, prepared[peer], sources)
        cases.append(((peer, variant), fn, lambda r: peers.check_reached(r, reached)))
    run_cases("bfs", cases)

    # ---- CC
    labels = lg.connected_components(G, engine=engine)
    check_cc(G, labels)
    ncomp = int(np.unique(labels).size)
    cases = [((tool, "fastsv"), lambda: lg.connected_components(G, engine=engine),
              lambda r: np.testing.assert_array_equal(r, labels))]
    for peer in tools:
        fn, variant = peers.cc(peer, prepared[peer])
        cases.append(((peer, variant), fn, lambda r: peers.check_ncomponents(r, ncomp)))
    run_cases("cc", cases)
    info = {"graph": name, "n": G.n, "nnz": G.nnz, "edges": G.nedges, "directed": G.directed,
            "bfs_sources": sources, "bfs_levels": [r.nlevels for r in refs], "bfs_reached": reached,
            "components": ncomp, "upload_s": upload}
    return info, rows


def environment():
    import graphblas
    import scipy

    env = {"python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
           "numpy": np.__version__, "scipy": scipy.__version__, "python-graphblas": graphblas.__version__,
           "suitesparse": ".".join(map(str, graphblas.ss.about["library_version"])),
           "graphblas_threads": graphblas.ss.config["nthreads"]}
    try:
        import igraph

        env["igraph"] = igraph.__version__
    except ImportError:
        pass
    return env


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--graphs", nargs="+", default=DEFAULT_GRAPHS, choices=sorted(_graph_specs()))
    p.add_argument("--engine", default="cpu", choices=["cpu", "gpu"])
    p.add_argument("--peers", nargs="*", default=["scipy", "igraph"], choices=peers.TOOLS)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--out", type=Path, default=None, help="JSON file (default: benchmarks/results/<engine>-<date>.json)")
    p.add_argument("--plot", action="store_true", help="also write a PNG next to the JSON")
    args = p.parse_args(argv)

    tools = [t for t in args.peers if peers.available(t)]
    missing = sorted(set(args.peers) - set(tools))
    if missing:
        print(f"peers not installed, skipped: {', '.join(missing)}", file=sys.stderr)
    specs = _graph_specs()
    graphs, rows = [], []
    for name in args.graphs:
        build, rule = specs[name]
        t = time.perf_counter()
        try:
            G = build()
        except FileNotFoundError as exc:
            print(f"{name}: skipped ({exc})", file=sys.stderr)
            continue
        srcs = _sources(G, rule)
        print(f"{name}: {G!r}, built in {time.perf_counter() - t:.1f} s, BFS from {len(srcs)} source(s)",
              flush=True)
        info, r = bench_graph(name, G, srcs, args.engine, args.repeat, tools)
        graphs.append(info)
        rows.extend(r)
        del G
    stamp = dt.datetime.now(dt.timezone.utc)
    doc = {"date": stamp.isoformat(timespec="seconds"), "engine": args.engine, "environment": environment(),
           "graphs": graphs, "results": rows}
    write_record(doc, args.out or ROOT / "results" / f"{args.engine}-{stamp:%Y%m%d-%H%M}.json", summary(doc),
                 args.plot)
    return 0


def write_record(doc, out, table, plot=False):
    """Write the JSON record ``doc`` to ``out``, print ``table``, and with ``plot`` a PNG beside it."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1))
    print(f"wrote {out}")
    print()
    print(table)
    if plot:
        from .plot import plot as make_plot

        print(f"wrote {make_plot(doc, out.with_suffix('.png'))}")


def summary(doc):
    """A Markdown table: per graph and algorithm, each tool's median time and la_graph's speed-up."""
    by = {}
    for r in doc["results"]:
        by.setdefault((r["graph"], r["algorithm"]), []).append(r)
    lines = ["| graph | algorithm | tool (variant) | median ms | vs la_graph |", "|---|---|---|---:|---:|"]
    for (g, a), rs in by.items():
        ours = next(r for r in rs if r["tool"].startswith("la_graph") and r["variant"] in ("parent", "fastsv"))
        for r in rs:
            ratio = r["median_s"] / ours["median_s"]
            lines.append(f"| {g} | {a} | {r['tool']} ({r['variant']}) | {r['median_s'] * 1e3:.2f} | {ratio:.2f}x |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
