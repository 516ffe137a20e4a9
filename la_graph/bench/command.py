"""``la-graph bench``: run the benchmark suite, or render records into the benchmarks page.

::

    la-graph bench                                  # every algorithm, the standard graphs, CPU engine, all peers
    la-graph bench bfs cc --graphs rmat18 grid512 --repeat 3
    la-graph bench --suite targets ladder --engines cpu --render
    la-graph bench --engines gpu                    # on a GPU machine
    la-graph bench hits --engines cpu,gpu --processes 3   # GPU rows: the median of 3 processes
    la-graph bench --report benchmarks/results/*.json                             # -> docs/benchmarks.md
    la-graph bench --list                                                         # what there is

Records go to ``benchmarks/results/`` (:data:`la_graph.bench.report.RESULTS`), never over
an earlier one.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from ..exceptions import InvalidArgumentError
from . import cases, harness, peers
from .report import PAGE, RESULTS, render

#: ``la-graph run``'s names of the algorithms the bench names otherwise
_RUN_NAMES = {"triangles": "tc"}


def _csv(text):
    return [x for part in text.split(",") for x in [part.strip()] if x]


def _scales(text):
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(x) for x in _csv(text)]


def add_arguments(p):
    algos = sorted(cases.ALGORITHMS)
    p.add_argument("algos", nargs="*", metavar="ALGO",
                   help=f"algorithms to run: {', '.join(algos)} (default: all; those not yet in la_graph are "
                        f"skipped with a note)")
    p.add_argument("--graphs", nargs="+", default=None, metavar="GRAPH",
                   help="graph names (e.g. rmat20, grid1000, usroads-48, rmat20:w1-255, uk-2007-05:sym; see "
                        "la_graph.bench.graphs); default: the suites' graphs")
    p.add_argument("--suite", nargs="+", default=["targets"],
                   choices=["targets", "breadth", "community", "ladder", "families", "real"],
                   help="default graph sets: targets (the standard graphs: R-MAT 20, a 1000 x 1000 grid, a road "
                        "network, a web crawl and a few more per algorithm; default), breadth (issue 40's: HITS, "
                        "eigenvector, Katz, closeness, harmonic, edge betweenness on R-MAT 20 and the web crawl, "
                        "trussness and Jaccard on facebook, colouring; R-MAT 22 on the GPU), community (Louvain, "
                        "Leiden and modularity on facebook, CA-GrQc, email-Eu-core, R-MAT 15 and 18), ladder (R-MAT "
                        "scales, see --scales), families (every generated family), real (the data folder's graphs)")
    p.add_argument("--scales", type=_scales, default=None,
                   help="R-MAT scales of the ladder, e.g. 16-23 (default 16-21 on the CPU, 16-23 on the GPU)")
    p.add_argument("--data", type=Path, default=None, metavar="DIR",
                   help="the folder of real graphs (default: $LA_GRAPH_DATA, else ../shared/data beside the "
                        "repository)")
    p.add_argument("--engines", type=_csv, default=["cpu"], help="comma-separated engines: cpu, gpu (default cpu)")
    p.add_argument("--peers", type=_csv, default=None,
                   help=f"comma-separated peers: {', '.join(peers.TOOLS)}, or none (default: every one installed)")
    p.add_argument("--repeat", type=int, default=5, help="timed runs per implementation after a warm-up (default 5)")
    p.add_argument("--processes", type=int, default=1, metavar="N",
                   help="run the GPU rows (la_graph's GPU engine and the GPU peers) in N processes and record the "
                        "median of their medians, since one machine's processes differ by up to 1.5x; the CPU "
                        "rows run in the first process only (default 1)")
    p.add_argument("--budget", type=float, default=60.0,
                   help="seconds of timed runs per implementation and case at most; slower ones run fewer "
                        "rounds, at least one (default 60)")
    p.add_argument("--out", type=Path, default=None,
                   help=f"JSON record (default: {RESULTS.as_posix()}/bench-<engines>-<date>.json); a file that "
                        "exists is never overwritten: the record gets the next free name (-2, -3, ...)")
    p.add_argument("--label", default="", help="a title for the run on the report page")
    p.add_argument("--provisional", action="store_true",
                   help="mark the record provisional (e.g. a pipeline check on a loaded machine): the report "
                        "leaves it out")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")
    p.add_argument("--report", nargs="+", type=Path, default=None, metavar="JSON",
                   help="render these records into the benchmarks page instead of running (JSON files that "
                        "are not benchmark records are skipped with a note)")
    p.add_argument("--report-out", type=Path, default=PAGE,
                   help=f"the page --report writes (default {PAGE.as_posix()}; plots go to "
                        f"{PAGE.with_suffix('').as_posix()}/)")
    p.add_argument("--render", action="store_true",
                   help="after the run, render every record in the --out folder into the page (--report-out)")
    p.add_argument("--list", action="store_true", help="list algorithms, suites and peers, then exit")


def _list(args):
    import la_graph

    print("algorithms:")
    for name, a in cases.ALGORITHMS.items():
        state = "ok" if getattr(la_graph, a.function, None) else "not in la_graph yet"
        print(f"  {name:13s} la_graph.{a.function:32s} {state}")
    print("peers:")
    for tool in peers.TOOLS:
        ok, why = peers.available(tool)
        print(f"  {tool:21s} {peers.version(tool) if ok else 'skipped: ' + why}")
    for suite in ("targets", "breadth", "community"):
        print(f"--suite {suite}:" + (" (the default)" if suite == "targets" else ""))
        for e, by in cases.SUITES[suite].items():
            for a, gs in by.items():
                print(f"  {e} {a:13s} {' '.join(gs)}")
    for s in ("families", "real"):
        print(f"--suite {s}: {' '.join(cases.SUITES[s])}")
    print(f"--suite ladder: rmat<scale> for scales {', '.join(f'{e} {min(r)}-{max(r)}' for e, r in cases.LADDER_SCALES.items())}")
    return 0


def run(args, argv=None):
    """Execute ``la-graph bench`` (``argv``: its command line, recorded); returns the exit status."""
    if args.list:
        return _list(args)
    if args.report:
        missing = [str(p) for p in args.report if not p.is_file()]
        if missing:
            raise FileNotFoundError(f"no such benchmark record: {', '.join(missing)}")
        skipped = []
        page = render(args.report, args.report_out, skip_others=True, skipped=skipped)
        for p in skipped:
            print(f"note: skipped {p}: not a benchmark record")
        print(f"wrote {page}")
        return 0
    algos = [_RUN_NAMES.get(a, a) for a in args.algos] or list(cases.ALGORITHMS)
    bad = [a for a in algos if a not in cases.ALGORITHMS]
    if bad:
        hint = " (la-graph run's shortcut has no bench case)" if bad[0] == "shortcut" else ""
        raise InvalidArgumentError(f"unknown algorithm {bad[0]!r}{hint}; there are {', '.join(cases.ALGORITHMS)}")
    bad = [e for e in args.engines if e not in ("cpu", "gpu")]
    if bad or not args.engines:
        raise InvalidArgumentError(f"--engines takes cpu and/or gpu, got {','.join(args.engines)!r}")
    chosen = args.peers
    if chosen == ["none"]:
        chosen = []
    elif chosen is not None:
        bad = [t for t in chosen if t not in peers.TOOLS]
        if bad:
            raise InvalidArgumentError(f"unknown peer {bad[0]!r}; there are {', '.join(peers.TOOLS)} (or none)")
    if args.repeat < 1:
        raise InvalidArgumentError(f"--repeat must be at least 1, got {args.repeat}")
    if args.processes < 1:
        raise InvalidArgumentError(f"--processes must be at least 1, got {args.processes}")
    if args.processes > 1:
        return _run_processes(args, list(argv or []), chosen)
    from .graphs import family, find_file

    from .. import data

    if args.data is not None:
        if not args.data.is_dir():
            raise FileNotFoundError(f"--data {args.data}: no such folder")
        os.environ["LA_GRAPH_DATA"] = str(args.data.resolve())   # read by graphs.data_dir() and by peers' runs
    for g in args.graphs or ():   # a named real graph that is not there: say so before any work
        base = g.split(":")[0]
        if family(base) == "real" and base not in data.names():
            try:
                find_file(base)
            except FileNotFoundError as exc:
                raise FileNotFoundError(f"graph {g!r}: {exc}; the data folder is --data, else $LA_GRAPH_DATA, "
                                        "else ../shared/data beside the repository") from None

    out = args.out
    if out is None:
        stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%d-%H%M")
        out = RESULTS / f"bench-{'-'.join(args.engines)}-{stamp}.json"
    out = harness.free_path(out)   # chosen once: the run's checkpoints rewrite this file only

    def save(doc):  # after every row too, so that a long run killed midway keeps what it measured
        if not doc["results"]:
            return  # never an empty record
        if args.provisional:
            doc["provisional"] = True
        harness.write(doc, out)

    doc = harness.run(algos, graphs=args.graphs, suites=args.suite, engines=args.engines, peers=chosen,
                      repeat=args.repeat, scales=args.scales, budget_s=args.budget, label=args.label,
                      command=" ".join(["la-graph", *(argv or [])]),
                      progress=args.progress and sys.stderr.isatty(), checkpoint=save)
    if not doc["results"]:
        why = "; ".join(doc["notes"]) or "no algorithm ran on any graph"
        raise InvalidArgumentError(f"nothing was measured, so no record was written ({why})")
    save(doc)
    for n in doc["notes"]:
        print(f"note: {n}")
    print(f"\nwrote {out} ({doc['seconds']:.0f} s)")
    if args.render:
        print(f"wrote {render(sorted(Path(out).parent.glob('*.json')), args.report_out, skip_others=True)}")
    return 0


# ---------------------------------------------------------------- GPU rows over several processes
def _gpu_row(row):
    return row.get("engine") == "gpu"


def _row_key(row):
    return row["algorithm"], row["graph"], row.get("setting"), row["impl"], row.get("variant")


def merge_processes(docs):
    """One record from the records of the same command run in several processes (the first one complete,
    the others with the GPU rows only): each GPU row gets the median of the processes' medians
    (``process_medians_s``), its minimum over all, and every timed run (``times_s``); a GPU row wrong or
    failed in any process keeps that status and note.  The CPU rows are the first process's.

    Examples
    --------
    >>> row = lambda t: {"algorithm": "bfs", "graph": "g", "impl": "la_graph[gpu]", "engine": "gpu",
    ...                  "status": "ok", "median_s": t, "min_s": t, "times_s": [t]}
    >>> merged = merge_processes([{"results": [row(3.0)], "notes": []}, {"results": [row(1.0)], "notes": []},
    ...                           {"results": [row(2.0)], "notes": []}])
    >>> merged["results"][0]["median_s"], merged["results"][0]["process_medians_s"], merged["processes"]
    (2.0, [3.0, 1.0, 2.0], 3)
    """
    first = dict(docs[0])
    others = [{_row_key(r): r for r in d["results"]} for d in docs[1:]]
    rows = []
    for row in first["results"]:
        if not _gpu_row(row):
            rows.append(row)
            continue
        group = [row] + [o[_row_key(row)] for o in others if _row_key(row) in o]
        bad = next((r for r in group if r["status"] != "ok"), None)
        if bad is not None:
            rows.append(dict(bad, processes=len(group)))
            continue
        medians = [r["median_s"] for r in group]
        times = [t for r in group for t in r["times_s"]]
        med = statistics.median(medians)
        merged = dict(row, median_s=med, min_s=min(r["min_s"] for r in group), times_s=times, repeat=len(times),
                      process_medians_s=medians, processes=len(group))
        if row.get("work_edges") is not None:
            merged["edges_per_s"] = row["work_edges"] / med
        rows.append(merged)
    first["results"] = rows
    first["processes"] = len(docs)
    first["notes"] = list(dict.fromkeys(n for d in docs for n in d.get("notes", [])))
    first["seconds"] = sum(d.get("seconds", 0) for d in docs)
    first["timing"] = (first.get("timing", "") + "; GPU rows: the median of the medians of "
                       f"{len(docs)} processes (process_medians_s)")
    return first


def _run_processes(args, argv, chosen):
    """``--processes N``: the command in N child processes (the first as given, the others on the GPU rows
    only), their records merged by :func:`merge_processes` into one."""
    if "gpu" not in args.engines:
        raise InvalidArgumentError("--processes is for GPU rows (one machine's processes differ by up to 1.5x); "
                                   "pass --engines gpu or cpu,gpu")
    gpu_peers = [t for t in (peers.TOOLS if chosen is None else chosen) if t in peers.GPU_TOOLS]
    out = harness.free_path(args.out or RESULTS / f"bench-{'-'.join(args.engines)}-"
                            f"{dt.datetime.now(dt.timezone.utc).strftime('%Y%m%d-%H%M')}.json")
    docs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.processes):
            part = Path(tmp) / f"process-{i}.json"
            extra = ["--processes", "1", "--out", str(part), "--no-progress"]
            if i:
                extra += ["--engines", "gpu", "--peers", ",".join(gpu_peers) or "none"]
            print(f"=== process {i + 1} of {args.processes}", flush=True)
            rc = subprocess.call([sys.executable, "-m", "la_graph.cli", *argv, *extra])
            if part.is_file():
                docs.append(json.loads(part.read_text()))
            if rc != 0:
                print(f"la-graph: process {i + 1} ended with status {rc}", file=sys.stderr)
                if not docs:
                    return rc
                break
    doc = merge_processes(docs)
    doc["command"] = " ".join(["la-graph", *argv])
    if args.provisional:
        doc["provisional"] = True
    harness.write(doc, out)
    print(f"\nwrote {out} ({len(docs)} processes, {doc['seconds']:.0f} s)")
    if args.render:
        print(f"wrote {render(sorted(Path(out).parent.glob('*.json')), args.report_out, skip_others=True)}")
    return 0
