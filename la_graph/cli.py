"""The ``la-graph`` command line.

::

    la-graph info FILE [--format FMT] [--directed | --undirected]
    la-graph run ALGO FILE [--engine cpu|gpu] [--source S] [--out FILE.json] [--check]
    la-graph run cc karate              # a bundled example graph by name
    la-graph bench [ALGO ...] [--graphs ...] [--engines cpu,gpu] [--peers ...] [--repeat N] [--out FILE.json]
    la-graph bench --report benchmarks/results/*.json

``ALGO`` is ``bfs`` or ``cc``.  ``--out`` writes the result (and timings) as JSON.
``bench`` runs the benchmark suite (``la-graph bench --help``, ``benchmarks/README.md``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from . import data
from .exceptions import LaGraphError

ALGORITHMS = ("bfs", "cc")


def _parser():
    p = argparse.ArgumentParser(prog="la-graph", description="Graph algorithms in the language of linear algebra.")
    sub = p.add_subparsers(dest="command", required=True)

    def graph_args(sp):
        sp.add_argument("file", help=f"graph file, or a bundled graph name ({', '.join(data.names())})")
        sp.add_argument("--format", dest="fmt", default=None, help="file format (default: from the extension)")
        d = sp.add_mutually_exclusive_group()
        d.add_argument("--directed", dest="directed", action="store_true", default=None)
        d.add_argument("--undirected", dest="directed", action="store_false")
        sp.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar while reading")

    info = sub.add_parser("info", help="describe a graph file")
    graph_args(info)
    info.add_argument("--json", action="store_true", help="print JSON instead of text")

    run = sub.add_parser("run", help="run an algorithm on a graph file")
    run.add_argument("algo", choices=ALGORITHMS)
    graph_args(run)
    run.add_argument("--engine", choices=("cpu", "gpu"), default=None, help="engine (default: LA_GRAPH_ENGINE or cpu)")
    run.add_argument("--source", type=int, default=0, help="BFS source vertex (default 0)")
    run.add_argument("--out", type=Path, default=None, help="write the result and timings as JSON to this file")
    run.add_argument("--check", action="store_true", help="verify the result with la_graph.verify")

    from .bench.command import add_arguments

    bench = sub.add_parser("bench", help="benchmark la_graph against its peers (or render a report)",
                           description="Benchmark la_graph against its peers; every result is checked.")
    add_arguments(bench)
    return p


def _load(args):
    from .graph import Graph

    path = data.path(args.file) if args.file in data.names() and not Path(args.file).exists() else args.file
    t = time.perf_counter()
    G = Graph.from_file(path, directed=args.directed, fmt=args.fmt, progress=args.progress and sys.stderr.isatty())
    return G, time.perf_counter() - t


def _describe(G):
    deg = G.out_degree
    return {
        "vertices": G.n,
        "edges": G.nedges,
        "directed": G.directed,
        "weighted": G.weighted,
        "self_loops": G.self_loops,
        "max_out_degree": int(deg.max(initial=0)),
        "isolated_vertices": int(np.count_nonzero((deg == 0) & (G.in_degree == 0))),
    }


def _run(args, G):
    from . import algorithms, verify

    if args.algo == "cc":
        t = time.perf_counter()
        labels = algorithms.connected_components(G, engine=args.engine)
        dt = time.perf_counter() - t
        roots, sizes = np.unique(labels, return_counts=True)
        summary = {"components": int(roots.size), "largest_component": int(sizes.max(initial=0))}
        result = {"labels": labels.tolist()}
        if args.check:
            verify.check_cc(G, labels)
    else:
        t = time.perf_counter()
        r = algorithms.bfs(G, args.source, engine=args.engine)
        dt = time.perf_counter() - t
        reached = int(np.count_nonzero(r.level >= 0))
        summary = {"source": args.source, "levels": r.nlevels, "reached": reached}
        result = {"level": r.level.tolist(), "parent": r.parent.tolist()}
        if args.check:
            verify.check_bfs(G, args.source, r)
    return summary, result, dt


def main(argv=None):
    """Entry point of ``la-graph``; returns the exit status."""
    args = _parser().parse_args(argv)
    if args.command == "bench":
        from .bench.command import run as bench

        try:
            return bench(args, sys.argv[1:] if argv is None else argv)
        except (LaGraphError, OSError, ValueError) as exc:
            print(f"la-graph: error: {exc}", file=sys.stderr)
            return 2
    try:
        G, t_load = _load(args)
        if args.command == "info":
            d = _describe(G)
            if args.json:
                print(json.dumps(d))
            else:
                print(f"{args.file}: {G!r}")
                for k, v in d.items():
                    print(f"  {k.replace('_', ' ')}: {v}")
                print(f"  read in {t_load:.3f} s")
            return 0
        from .engines import get_engine

        engine = get_engine(args.engine).name
        summary, result, dt = _run(args, G)
    except (LaGraphError, OSError) as exc:
        print(f"la-graph: error: {exc}", file=sys.stderr)
        return 2
    parts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in summary.items())
    print(f"{args.algo} on {args.file} ({G.n} vertices, {G.nedges} edges, {engine} engine): {parts}")
    print(f"  read {t_load:.3f} s, {args.algo} {dt * 1e3:.2f} ms" + ("; checked: correct" if args.check else ""))
    if args.out is not None:
        doc = {"algorithm": args.algo, "file": str(args.file), "engine": engine, "graph": _describe(G),
               "seconds": {"read": t_load, "run": dt}, "summary": summary, "result": result}
        args.out.write_text(json.dumps(doc))
        print(f"  wrote {args.out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
