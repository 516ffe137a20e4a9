"""Reachability benchmarks: multi-source search, and what Fineman's shortcuts buy.

Usage::

    python -m la_graph.bench.reachability                     # both studies, CPU engine
    python -m la_graph.bench.reachability --study multi --graphs cit-HepPh --repeat 5
    python -m la_graph.bench.reachability --study shortcut

``multi``: the vertices reached from 16 and 64 random sources (with out-edges),
by ``la_graph.reachability`` (one batched masked ``any.pair`` mxm sweep), by
repeated single-source ``la_graph.bfs(G, s, parent=False)`` on the same engine,
and by scipy's ``csgraph.breadth_first_order`` per source.  Every result is
checked (``check_reachability`` on 8 sampled rows, and the per-source reach
counts of all three tools agree).

``shortcut``: ``la_graph.shortcut`` on high-diameter directed graphs; BFS depth
(the most levels over 16 sources) and BFS time (16 single-source level-only
searches, and one 16-source reachability sweep) before and after, the time the
shortcutting itself takes, and the number of 16-source query batches after
which it has paid for itself ("never" where the queries got no faster).

Timings interleave the tools round by round (:func:`interleaved`):
median of ``--repeat`` runs after a warm-up.  The JSON goes to
``benchmarks/results/reachability/reachability-cpu.json`` (a folder of its own: its records are not
the harness's, which ``la-graph bench --report benchmarks/results/*.json`` reads; never over an earlier
record: the next free name, ``-2``, ``-3`` ...).  Real graphs come from the bench's data folder
(``$LA_GRAPH_DATA``, else ``../shared/data``: :func:`la_graph.bench.graphs.data_dir`); one that is
absent is skipped.  (The general harness,
``la-graph bench``, times reachability too; this script is the shortcut
before/after study and the thesis's multi-source vs repeated-BFS comparison.)
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from scipy.sparse import csgraph

from .. import generators as gen
from ..algorithms import bfs, reachability, shortcut
from ..engines import get_engine
from ..graph import Graph
from ..verify import check_reachability
from .graphs import data_dir
from .harness import free_path, machine_facts
from .report import RESULTS


def interleaved(cases, repeat):
    """Time every case ``repeat`` times, one round of all cases after another, after one warm-up each.

    Returns, per case, (median s, min s, last result).
    """
    results = [fn() for _, fn, _ in cases]
    times = [[] for _ in cases]
    for _ in range(repeat):
        for i, (_, fn, _) in enumerate(cases):
            t = time.perf_counter()
            results[i] = fn()
            times[i].append(time.perf_counter() - t)
    return [(statistics.median(ts), min(ts), r) for ts, r in zip(times, results)]


def _orient(G, how, seed=0):
    """A directed graph from an undirected one: ``"id"`` low id -> high id (a DAG), ``"bfs"`` from
    lower to higher BFS level from vertex 0 (a DAG, ties by id), ``"random"`` a random direction per edge."""
    u, v = G.edges()
    keep = u < v
    u, v = u[keep].astype(np.int64), v[keep].astype(np.int64)
    if how == "random":
        flip = np.random.default_rng(seed).random(u.size) < 0.5
    elif how == "bfs":
        lev = bfs(G, 0, parent=False).level
        key = np.where(lev < 0, G.n, lev) * np.int64(G.n) + np.arange(G.n)
        flip = key[u] > key[v]
    else:
        flip = np.zeros(u.size, bool)
    return Graph.from_edges(np.where(flip, v, u), np.where(flip, u, v), n=G.n, directed=True)


def _read(rel):
    """The graph file ``rel`` of the data folder (FileNotFoundError where there is none: the graph is skipped)."""
    return Graph.from_file(data_dir() / rel)


def _file(rel):
    return lambda: _read(rel)


MULTI = {
    "cit-HepPh": _file("snap/cit-HepPh.txt.gz"),
    "soc-Slashdot0902": _file("snap/soc-Slashdot0902.txt.gz"),
    "uk-2007-05": _file("law/uk-2007-05_100000.txt.gz"),
    "rmat20-directed": lambda: gen.rmat(20, 16, seed=20, directed=True),
}

SHORTCUT = {
    "grid300-dag": lambda: _orient(gen.grid_2d(300, 300), "id"),
    "rome99": _file("dimacs/rome99.gr"),
    "luxembourg_osm-bfs": lambda: _orient(_read("suitesparse/luxembourg_osm.mtx.gz"), "bfs"),
    "luxembourg_osm-random": lambda: _orient(_read("suitesparse/luxembourg_osm.mtx.gz"), "random"),
    "usroads-48-bfs": lambda: _orient(_read("suitesparse/usroads-48.mtx.gz"), "bfs"),
    "usroads-48-random": lambda: _orient(_read("suitesparse/usroads-48.mtx.gz"), "random"),
    "cit-HepTh": _file("snap/cit-HepTh.txt.gz"),
    "cit-HepPh": _file("snap/cit-HepPh.txt.gz"),
}


def _sources(G, count, seed=1):
    cand = np.flatnonzero(G.out_degree > 0)
    return np.random.default_rng(seed).choice(cand, count)


def _row(rows, **kw):
    rows.append(kw)
    extra = "  ".join(f"{k}={v}" for k, v in kw.items() if k not in ("graph", "median_s", "min_s"))
    print(f"  {kw['graph']:22s} {kw.get('median_s', 0) * 1e3:10.1f} ms  {extra}", flush=True)


def multi(name, G, engine, repeat, counts=(16, 64)):
    rows = []
    A = G.to_scipy()
    E = get_engine(engine)
    E.matrix(G)
    E.matrix(G, transpose=True)
    E.degree(G)
    for k in counts:
        srcs = _sources(G, k)
        R = reachability(G, srcs, engine=engine)
        check_reachability(G, srcs, R, sample=8)
        reached = R.sum(axis=1).tolist()
        cases = [
            ("la_graph.reachability", lambda: reachability(G, srcs, engine=engine).sum(axis=1).tolist()),
            ("la_graph.bfs x k", lambda: [int((bfs(G, int(s), parent=False, engine=engine).level >= 0).sum())
                                          for s in srcs]),
            ("scipy bfo x k", lambda: [csgraph.breadth_first_order(A, int(s), directed=True,
                                                                   return_predecessors=False).size
                                       for s in srcs]),
        ]
        res = interleaved([(c, fn, None) for c, fn in cases], repeat)
        base = res[0][0]
        for (tool, _), (med, best, out) in zip(cases, res):
            if list(out) != reached:
                raise AssertionError(f"{tool} reached {out[:4]}.., reachability {reached[:4]}..")
            _row(rows, graph=name, study="multi", sources=k, tool=tool, median_s=med, min_s=best,
                 repeat=repeat, vs_reachability=round(med / base, 2))
    return rows


def shortcut_study(name, G, engine, repeat):
    rows = []
    srcs = _sources(G, 16)
    t = time.perf_counter()
    H = shortcut(G, seed=0, engine=engine)
    t_sc = time.perf_counter() - t
    R = reachability(G, srcs, engine=engine)
    check_reachability(H, srcs, R)  # same reach sets
    for X in (G, H):
        E = get_engine(engine)
        E.matrix(X)
        E.matrix(X, transpose=True)
        E.degree(X)

    def depth(X):
        return int(bfs(X, sources=srcs, parent=False, engine=engine).level.max())

    def bfs16(X):
        return lambda: [bfs(X, int(s), parent=False, engine=engine).nlevels for s in srcs]

    def reach16(X):
        return lambda: reachability(X, srcs, engine=engine).sum()

    cases = [("bfs x16 before", bfs16(G), None), ("bfs x16 after", bfs16(H), None),
             ("reachability(16) before", reach16(G), None), ("reachability(16) after", reach16(H), None)]
    (b0, _, l0), (b1, _, l1), (r0, _, _), (r1, _, _) = interleaved(cases, repeat)
    d0, d1 = depth(G), depth(H)
    assert max(l1) <= max(l0) and d1 <= d0

    def pays(before, after):
        return round(t_sc / (before - after), 1) if after < before else "never"

    _row(rows, graph=name, study="shortcut", n=G.n, edges_before=G.nedges, edges_after=H.nedges,
         median_s=t_sc, shortcut_s=round(t_sc, 3), depth_before=d0, depth_after=d1,
         bfs16_before_ms=round(b0 * 1e3, 2), bfs16_after_ms=round(b1 * 1e3, 2),
         reach16_before_ms=round(r0 * 1e3, 2), reach16_after_ms=round(r1 * 1e3, 2),
         pays_after_bfs16_batches=pays(b0, b1), pays_after_reach16_batches=pays(r0, r1), repeat=repeat)
    return rows


def table(doc):
    lines = ["| graph | sources | tool | median ms | vs reachability |", "|---|---:|---|---:|---:|"]
    for r in doc["results"]:
        if r["study"] == "multi":
            lines.append(f"| {r['graph']} | {r['sources']} | {r['tool']} | {r['median_s'] * 1e3:.1f} | "
                         f"{r['vs_reachability']:.2f}x |")
    lines += ["", "| graph | n | edges before -> after | shortcut s | BFS depth before -> after | "
              "16 BFS ms before -> after | reach(16) ms before -> after | pays after (16-BFS / reach batches) |",
              "|---|---:|---|---:|---|---|---|---|"]
    for r in doc["results"]:
        if r["study"] == "shortcut":
            lines.append(f"| {r['graph']} | {r['n']} | {r['edges_before']} -> {r['edges_after']} | "
                         f"{r['shortcut_s']:.2f} | {r['depth_before']} -> {r['depth_after']} | "
                         f"{r['bfs16_before_ms']} -> {r['bfs16_after_ms']} | "
                         f"{r['reach16_before_ms']} -> {r['reach16_after_ms']} | "
                         f"{r['pays_after_bfs16_batches']} / {r['pays_after_reach16_batches']} |")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m la_graph.bench.reachability", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--study", nargs="+", default=["multi", "shortcut"], choices=["multi", "shortcut"])
    p.add_argument("--graphs", nargs="+", default=None, help="names from either study (default: all)")
    p.add_argument("--engine", default="cpu", choices=["cpu", "gpu"])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    rows, graphs = [], []
    for study, specs, fn in (("multi", MULTI, multi), ("shortcut", SHORTCUT, shortcut_study)):
        if study not in args.study:
            continue
        for name, build in specs.items():
            if args.graphs and name not in args.graphs:
                continue
            try:
                G = build()
            except FileNotFoundError as exc:
                print(f"{name}: skipped ({exc})", file=sys.stderr)
                continue
            print(f"{study} {name}: {G!r}", flush=True)
            graphs.append({"graph": name, "study": study, "n": G.n, "edges": G.nedges})
            rows.extend(fn(name, G, args.engine, args.repeat))
    stamp = dt.datetime.now(dt.timezone.utc)
    doc = {"date": stamp.isoformat(timespec="seconds"), "engine": args.engine, "machine": machine_facts(),
           "note": "2 shared cores, other jobs running: medians of interleaved runs",
           "graphs": graphs, "results": rows}
    out = args.out or free_path(RESULTS / "reachability" / f"reachability-{args.engine}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1, default=str))
    print(f"wrote {out}\n")
    print(table(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
