"""``la-graph bench``: run the benchmark suite, or render records into the benchmarks page.

::

    la-graph bench                                  # every algorithm, the standard graphs, CPU engine, all peers
    la-graph bench bfs cc --graphs rmat18 grid512 --repeat 3
    la-graph bench --suite targets ladder --engines cpu --render
    la-graph bench --engines gpu                    # on a GPU machine
    la-graph bench --report benchmarks/results/*.json                             # -> docs/benchmarks.md
    la-graph bench --list                                                         # what there is

Records go to ``benchmarks/results/`` (:data:`la_graph.bench.report.RESULTS`), never over
an earlier one.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
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
