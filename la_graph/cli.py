"""The ``la-graph`` command line.

::

    la-graph info FILE [--format FMT] [--directed | --undirected]
    la-graph run ALGO FILE [--engine cpu|gpu|dask|reference] [--source S | --sources S,S,...]
                           [--method M] [--delta D] [--seed N] [--k K] [--alpha A] [--max-iter N] [--tol T]
                           [--variant V] [--out FILE.json|.npz] [--json] [--check]
    la-graph run cc karate              # a bundled example graph by name
    la-graph bench [ALGO ...] [--graphs ...] [--engines cpu,gpu] [--peers ...] [--repeat N] [--out FILE.json]
    la-graph bench --report benchmarks/results/*.json

``ALGO`` is any of :data:`ALGORITHMS`.  ``--out`` writes the result (and timings) as JSON.  ``FILE`` ``-``
reads the graph from standard input (an edge list unless ``--format`` says otherwise).
``bench`` runs the benchmark suite (``la-graph bench --help``; the results page: ``docs/benchmarks.md``).

Exit status: 0 done; 1 ``--check`` found the result wrong (``la-graph: check failed: ...``); 2 an error
(``la-graph: error: ...``); 130 interrupted (Ctrl-C: ``la-graph: interrupted``).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import sys
import time
import warnings
from pathlib import Path

import numpy as np

import la_graph as lg

from . import data
from .algorithms._registry import RUN_OPTIONS, cli_commands
from .algorithms.label_propagation import propagate as _propagate
from .exceptions import FileFormatError, InvalidArgumentError, LaGraphError, NumberingWarning, VerificationError
from .io import FORMATS

#: the suffixes ``--out`` writes
OUT_SUFFIXES = (".json", ".npz")
#: ``FILE`` for standard input
STDIN = "-"

#: the order ``la-graph run --help`` lists its algorithms in (since 0.1); any other registered one after them
_ORDER = ("bfs", "cc", "scc", "sssp", "apsp", "reachability", "mis", "msf", "pagerank", "triangles", "lcc", "bc",
          "cdlp", "kcore", "shortcut")
#: ``la-graph run`` ALGO -> its registered algorithm (:mod:`la_graph.algorithms._registry`)
_COMMANDS = dict(sorted(cli_commands().items(),
                       key=lambda kv: (_ORDER.index(kv[0]) if kv[0] in _ORDER else len(_ORDER), kv[0])))
#: ``la-graph run`` ALGO -> what it runs
ALGORITHMS = {name: a.cli.help for name, a in _COMMANDS.items()}

_EXAMPLES = """examples:
  la-graph info karate                          # a bundled graph by name
  la-graph run cc karate --check                # connected components, verified
  la-graph run bfs karate --source 0 --out r.json
  la-graph run sssp roads.gr --sources 0,5 --method delta_stepping
  la-graph run pagerank web.txt.gz --undirected --json
  la-graph COMMAND --help                       # every option of a command"""


def _parser():
    p = argparse.ArgumentParser(prog="la-graph", description="Graph algorithms in the language of linear algebra.",
                                epilog=_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)

    def graph_args(sp):
        sp.add_argument("file", help=f"graph file, - for standard input (an edge list unless --format says "
                                     f"otherwise), or a bundled graph name ({', '.join(data.names())})")
        sp.add_argument("--format", dest="fmt", default=None, choices=FORMATS, metavar="FMT",
                        help=f"file format: {', '.join(FORMATS)} (default: from the extension, .gz aside)")
        d = sp.add_mutually_exclusive_group()
        d.add_argument("--directed", dest="directed", action="store_true", default=None,
                       help="read every edge as one-way (default: the file's own word; edge lists, CSV "
                            "and DIMACS are directed, METIS undirected, Matrix Market as its header says)")
        d.add_argument("--undirected", dest="directed", action="store_false",
                       help="read every edge as two-way (what algorithms for undirected graphs need: mis, "
                            "msf; SNAP lists of undirected graphs)")
        sp.add_argument("--no-progress", dest="progress", action="store_false",
                        help="no progress bars (shown on a terminal for reading, parsing and long runs once they "
                             "take 2 s)")
        sp.add_argument("--base", type=int, choices=(0, 1), default=None,
                        help="how an edge list or CSV numbers its vertices (default: as written, with a note "
                             "when the file looks 1-based)")
        sp.add_argument("--usecols", type=_int_list, default=None, metavar="U,V[,W]",
                        help="an edge list or CSV with more than three columns: the 0-based columns of the "
                             "source, the target and (optionally) the weight, e.g. 0,1,2")

    info = sub.add_parser("info", help="describe a graph file")
    graph_args(info)
    info.add_argument("--json", action="store_true", help="print JSON instead of text")

    run = sub.add_parser("run", help="run an algorithm on a graph file",
                         epilog="algorithms: " + "; ".join(f"{k}: {v}" for k, v in ALGORITHMS.items()))
    run.add_argument("algo", choices=tuple(ALGORITHMS), metavar="ALGO", help=", ".join(ALGORITHMS))
    graph_args(run)
    run.add_argument("--engine", choices=("cpu", "gpu", "dask", "reference"), default=None,
                     help="engine (default: LA_GRAPH_ENGINE or cpu); dask: the cluster at "
                          "$LA_GRAPH_DASK_SCHEDULER, else a LocalCluster on this machine; reference: numpy "
                          "primitives only, no fused step (the tests' oracle, slow by design)")
    src = run.add_mutually_exclusive_group()
    src.add_argument("--source", type=int, default=None, metavar="S",
                     help="source vertex of bfs, sssp, reachability; shortcut: the BFS whose levels are "
                          "compared (default 0)")
    src.add_argument("--sources", type=_int_list, default=None, metavar="S,S,...",
                     help="comma-separated source vertices, searched together (bfs, sssp, reachability, bc)")
    run.add_argument("--method", default=None, metavar="M",
                     help="sssp: auto, delta_stepping, bellman_ford; apsp: auto, floyd_warshall, sssp "
                          "(default auto)")
    run.add_argument("--delta", type=float, default=None, metavar="D",
                     help="sssp: the bucket width of delta-stepping (default: from the weights and degrees)")
    run.add_argument("--seed", type=int, default=None, metavar="N",
                     help="mis: the seed of the random priorities; bc: of the --k sampled sources; shortcut: "
                          "of the pivots (default 0)")
    run.add_argument("--alpha", type=float, default=None, metavar="A",
                     help="pagerank: the damping factor (default 0.85)")
    run.add_argument("--max-iter", type=int, default=None, metavar="N",
                     help="pagerank: most iterations (default 100); cdlp: rounds (default 10)")
    run.add_argument("--tol", type=float, default=None, metavar="T", help="pagerank: the tolerance (default 1e-6)")
    run.add_argument("--variant", default=None, metavar="V",
                     help="pagerank: networkx, gap or graphalytics (default networkx)")
    run.add_argument("--k", type=int, default=None, help="bc: sample this many sources (default: all, exact)")
    run.add_argument("--metric", default=None, metavar="M",
                     help="similarity: jaccard, overlap, cosine, sorensen, adamic_adar or resource_allocation "
                          "(default jaccard)")
    run.add_argument("--top-k", dest="top_k", type=int, default=None, metavar="K",
                     help="similarity: each vertex's K most similar (default: every pair with a common neighbour)")
    run.add_argument("--out", type=Path, default=None, metavar="FILE.json",
                     help="write the summary, timings and result arrays as JSON to this file (FILE.npz: the "
                          "arrays as numpy's .npz, the rest as JSON in its 'run' entry; for large results)")
    run.add_argument("--json", action="store_true", help="print the summary and timings as JSON")
    run.add_argument("--check", action="store_true", help="verify the result with la_graph.verify")

    from .bench.command import add_arguments

    bench = sub.add_parser("bench", help="benchmark la_graph against its peers (or render a report)",
                           description="Benchmark la_graph against its peers; every result is checked.")
    add_arguments(bench)
    return p


def _stdin(args):
    """``FILE`` for reading standard input (``-``; ``/dev/stdin`` too): the path to read it by (without
    ``--format``, the reader tells Matrix Market by its banner, else reads an edge list)."""
    if args.file == STDIN and sys.stdin is not None and sys.stdin.isatty():
        raise InvalidArgumentError("FILE - reads the graph from standard input, which is a terminal here: pipe "
                                   "or redirect the file in ('cat g.txt | la-graph run cc -', '< g.txt')")
    return "/dev/stdin" if args.file == STDIN else args.file


def _load(args):
    from .graph import Graph

    if args.file in (STDIN, "/dev/stdin"):
        path = _stdin(args)
    else:
        path = data.path(args.file) if args.file in data.names() and not Path(args.file).exists() else args.file
    if not Path(path).exists():
        raise FileNotFoundError(f"{args.file}: no such file, and no bundled graph of that name "
                                f"(bundled: {', '.join(data.names())})")
    if Path(path).is_dir():
        raise IsADirectoryError(f"{args.file}: is a folder, not a graph file")
    t = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", NumberingWarning)
        try:
            G = Graph.from_file(path, directed=args.directed, fmt=args.fmt,
                                progress=_show_progress(args), base=args.base,
                                usecols=args.usecols)
        except FileFormatError as exc:     # the reader's advice, in the command line's words
            text = re.sub(r"usecols=\(([^)]*)\)", lambda m: "--usecols " + m[1].replace(" ", ""), str(exc))
            raise FileFormatError(text.replace("usecols= ", "--usecols ")) from None
    if any(issubclass(w.category, NumberingWarning) for w in caught):
        print(f"la-graph: note: {args.file} has no vertex 0 and its smallest id is 1: vertex 0 is counted as an "
              "extra isolated vertex; pass --base 1 if the file numbers its vertices from 1 (--base 0 to keep "
              "them and skip this note)", file=sys.stderr)
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


def _show_progress(args):
    """Progress bars on standard error: on a terminal, unless --no-progress."""
    return args.progress and sys.stderr.isatty()


def _int_list(text):
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated vertex ids, got {text!r}") from None


def _one_source(args):
    """The single source (--source, default 0), or None when --sources gives several (argparse refuses both)."""
    if args.sources is not None:
        return None
    return 0 if args.source is None else args.source


def _counts(labels):
    roots, sizes = np.unique(labels, return_counts=True)
    return {"components": int(roots.size), "largest_component": int(sizes.max(initial=0))}


def _bfs(args, G, engine):
    s = _one_source(args)
    if s is None:
        r = lg.bfs(G, sources=args.sources, engine=engine)
        summary = {"sources": args.sources, "reached": [int(x) for x in (r.level >= 0).sum(axis=1)]}
        check = lambda: [lg.verify.check_bfs(G, x, lg.BFSResult(r.level[i], r.parent[i], x))  # noqa: E731
                         for i, x in enumerate(args.sources)]
    else:
        r = lg.bfs(G, s, engine=engine)
        summary = {"source": s, "levels": r.nlevels, "reached": int(np.count_nonzero(r.level >= 0))}
        check = lambda: lg.verify.check_bfs(G, s, r)  # noqa: E731
    return summary, {"level": r.level, "parent": r.parent}, check


def _cc(args, G, engine):
    labels = lg.connected_components(G, engine=engine)
    return _counts(labels), {"labels": labels}, lambda: lg.verify.check_cc(G, labels)


def _scc(args, G, engine):
    labels = lg.strongly_connected_components(G, engine=engine)
    return _counts(labels), {"labels": labels}, lambda: lg.verify.check_scc(G, labels)


def _sssp(args, G, engine):
    s = _one_source(args)
    kw = dict(method=args.method or "auto", delta=args.delta, engine=engine)
    r = lg.sssp(G, s, **kw) if s is not None else lg.sssp(G, sources=args.sources, **kw)
    D = np.atleast_2d(r.distance)
    reached = [int(x) for x in np.isfinite(D).sum(axis=1)]
    farthest = [float(d[np.isfinite(d)].max(initial=0.0)) for d in D]
    if s is not None:
        summary = {"source": s, "method": r.method, "reached": reached[0], "farthest": farthest[0]}
    else:
        summary = {"sources": args.sources, "method": r.method, "reached": reached, "farthest": farthest}
    src = s if s is not None else np.asarray(args.sources)
    return (summary, {"distance": r.distance, "parent": r.parent},
            lambda: lg.verify.check_sssp(G, src, r.distance, r.parent))


def _apsp(args, G, engine):
    D = lg.apsp(G, args.method or "auto", engine=engine, progress=_show_progress(args))
    finite = np.isfinite(D)
    summary = {"pairs_connected": int(finite.sum()), "diameter": float(D[finite].max(initial=0.0))}
    return summary, {"distance": D}, lambda: lg.verify.check_apsp(G, D)


def _source_list(args):
    """--sources, or [--source] (default 0), as an array."""
    return np.asarray(args.sources if args.sources is not None else [_one_source(args)])


def _reachability(args, G, engine):
    src = _source_list(args)
    R = lg.reachability(G, src, engine=engine)
    summary = {"sources": src.tolist(), "reached": [int(x) for x in R.sum(axis=1)]}
    return summary, {"reach": R}, lambda: lg.verify.check_reachability(G, src, R)


def _mis(args, G, engine):
    mask = lg.maximal_independent_set(G, seed=args.seed, engine=engine)
    summary = {"seed": args.seed, "size": int(np.count_nonzero(mask))}
    return summary, {"members": np.flatnonzero(mask)}, lambda: lg.verify.check_mis(G, mask)


def _msf(args, G, engine):
    r = lg.minimum_spanning_forest(G, engine=engine)
    try:
        total = r.total_weight
    except lg.NumericRangeError:   # the forest is exact; its float64 total is not
        total = "past float64's range (about 1.8e308)"
    summary = {"forest_edges": int(r.u.size), "total_weight": total, "trees": r.ncomponents}
    result = {"u": r.u, "v": r.v, "weight": r.weight}
    return summary, result, lambda: lg.verify.check_msf(G, r)


def _top(values):
    v = int(np.argmax(values)) if len(values) else None
    if v is None:
        return {"top_vertex": None, "top_value": None}
    top = int(values[v]) if np.issubdtype(np.asarray(values).dtype, np.integer) else float(f"{values[v]:.6g}")
    return {"top_vertex": v, "top_value": top}


def _pagerank(args, G, engine):
    kw = dict(alpha=args.alpha, max_iter=100 if args.max_iter is None else args.max_iter, tol=args.tol,
              variant=args.variant)
    r = lg.pagerank(G, engine=engine, **kw)
    return _top(r), {"rank": r}, lambda: lg.verify.check_pagerank(G, r, **kw)


def _triangles(args, G, engine):
    per = lg.triangles(G, engine=engine)
    total = int(per.sum()) // 3                    # each triangle is at three vertices
    summary = {"triangles": total, **_top(per)}
    return summary, {"triangles": per}, lambda: lg.verify.check_triangles(G, per, total)


def _lcc(args, G, engine):
    c = lg.local_clustering_coefficient(G, engine=engine)
    summary = {"mean": float(f"{c.mean():.6g}") if c.size else 0.0, **_top(c)}
    return summary, {"lcc": c}, lambda: lg.verify.check_lcc(G, c)


def _bc(args, G, engine):
    from .algorithms.betweenness import _check_k, sample_sources

    src = args.sources
    if args.k is not None:              # the sample, drawn here so that the check uses the same sources
        if src is not None:
            raise lg.InvalidArgumentError("give --k (sampled sources) or --sources, not both")
        src = sample_sources(G.n, _check_k(args.k, G.n), args.seed)
    bc = lg.betweenness_centrality(G, sources=src, engine=engine, progress=_show_progress(args))
    summary = {"sources": "all" if src is None else len(src), **_top(bc)}
    return summary, {"betweenness": bc}, lambda: lg.verify.check_betweenness(G, bc, sources=src)


def _cdlp(args, G, engine):
    max_iter = 10 if args.max_iter is None else args.max_iter
    labels, rounds = _propagate(G, max_iter, engine)        # rounds: those run (fewer once no label changes)
    roots, sizes = np.unique(labels, return_counts=True)
    summary = {"rounds": rounds, "communities": int(roots.size), "largest_community": int(sizes.max(initial=0))}
    return summary, {"labels": labels}, lambda: lg.verify.check_cdlp(G, labels, max_iter)


def _kcore(args, G, engine):
    core = lg.core_number(G, engine=engine)
    summary = {"max_core": int(core.max(initial=0)), "in_max_core": int(np.count_nonzero(core == core.max(initial=0)))}
    return summary, {"core": core}, lambda: lg.verify.check_core_number(G, core)


def _shortcut(args, G, engine):
    H = lg.shortcut(G, seed=args.seed, engine=engine)
    s = 0 if args.source is None else args.source
    before, after = lg.bfs(G, s, parent=False, engine=engine), lg.bfs(H, s, parent=False, engine=engine)
    A, B = _pattern(G), _pattern(H)          # both directed: an undirected G counts each edge both ways
    added = (B - B.multiply(A)).tocoo()      # the shortcuts: edges of H that G lacks
    summary = {"seed": args.seed, "shortcuts": int(added.nnz), "source": s,
               "levels_before": before.nlevels, "levels_after": after.nlevels}

    def check():
        lg.verify.check_shortcut(G, H)      # the registered checker (check=True's): H reaches what G reaches
        if after.nlevels > before.nlevels:
            raise lg.VerificationError(f"the BFS from {s} got deeper: {before.nlevels} -> {after.nlevels} levels")

    return summary, {"u": added.row, "v": added.col}, check


def _pattern(G):
    """The stored entries of G as a scipy CSR matrix of ones (explicit zero weights included)."""
    import scipy.sparse as sp

    return sp.csr_matrix((np.ones(G.nnz), G.indices, G.indptr), shape=(G.n, G.n))


# run's options that only some algorithms read (the others refuse them), and the defaults each algorithm's
# registration sets for those it reads
_OPTIONS = {o: tuple(k for k, a in _COMMANDS.items() if o in a.cli.options) for o in RUN_OPTIONS}
_DEFAULTS = {k: a.cli.defaults for k, a in _COMMANDS.items()}


def _check_options(args):
    """Refuse an option that ALGO does not read (it was ignored silently); then fill in the defaults."""
    for name, algos in _OPTIONS.items():
        if getattr(args, name) is not None and args.algo not in algos:
            raise lg.InvalidArgumentError(
                f"--{name.replace('_', '-')} is not an option of {args.algo} (only of {', '.join(algos)})")
    for name, value in _DEFAULTS[args.algo].items():
        if getattr(args, name) is None:
            setattr(args, name, value)


# the runners written here (their summaries say more than the top vertex); a registered Cli(run=...) or, for
# neither, the plain runner serves any other algorithm
_RUNNERS = {"bfs": _bfs, "cc": _cc, "scc": _scc, "sssp": _sssp, "apsp": _apsp, "reachability": _reachability,
            "mis": _mis, "msf": _msf, "pagerank": _pagerank, "triangles": _triangles, "lcc": _lcc, "bc": _bc,
            "cdlp": _cdlp, "kcore": _kcore, "shortcut": _shortcut}


def _runner(name):
    """ALGO's runner: ``run(args, G, engine) -> (summary, result arrays, check)``."""
    a = _COMMANDS[name]
    return a.cli.run or _RUNNERS.get(name) or functools.partial(_plain, a)


def _plain(a, args, G, engine):
    """The runner of a registered algorithm without its own: the function called with the options it reads
    (those given), the top vertex of its result, the check by its registered checker."""
    kw = {o: getattr(args, o) for o in a.cli.options if getattr(args, o) is not None}
    r = a.function(G, engine=engine, **kw)
    summary = _top(r) if isinstance(r, np.ndarray) and r.ndim == 1 else {}
    check = (lambda: getattr(lg.verify, a.checker)(G, r)) if a.checker else (lambda: None)
    return summary, {a.cli.name: r}, check


def _run(args, G):
    """Run ALGO: the first call (it may load compiled kernels: start-up), then, when that took under a
    second, a second call whose time is the warm one; returns (summary, result arrays, times, the
    VerificationError of a failed --check or None)."""
    run = _runner(args.algo)
    t = time.perf_counter()
    summary, result, check = run(args, G, args.engine)
    first = time.perf_counter() - t
    times = {"first": first}
    if first < 1.0:
        t = time.perf_counter()
        run(args, G, args.engine)
        times["warm"] = time.perf_counter() - t
    failed = None
    if args.check:
        try:
            check()
        except VerificationError as exc:
            failed = exc
    return summary, result, times, failed


#: advice of the Python API -> the command line's way of doing it
_ADVICE = {
    "pass fmt= one of": "pass --format, one of",
    "use Graph.from_edges(..., directed=False) or G.to_undirected()": "pass --undirected to read every edge as "
                                                                      "two-way",
    "stream the rows with apsp_blocks(G, block_rows)": "ask for some rows with 'la-graph run sssp --sources "
                                                       "S,S,...', or stream them all from Python with "
                                                       "la_graph.apsp_blocks",
    "pass weight=False to ignore the weights": "read the file without its weight column to ignore the weights "
                                               "(--usecols 0,1)",
    "pass base=1 to number from 1 (base=0 to keep them, silently)": "pass --base 1 to number from 1 (--base 0 to "
                                                                    "keep them, silently)",
}
#: the Python arguments that are options of ``la-graph run``, in ``name=value`` advice
_ARGUMENT = re.compile(r"\b(engine|method|variant|delta|max_iter|alpha|tol|k|seed|base|fmt|metric|top_k)"
                       r"='?([\w.+-]+)'?")


def _cli_words(message):
    """An error message of the Python API in the command line's words (its option names).

    The library's messages advise Python arguments (``pass weight=False``, ``use method='bellman_ford'``);
    on the command line the advice is an option (``--usecols 0,1``, ``--method bellman_ford``).
    """
    for api, cli in _ADVICE.items():
        message = message.replace(api, cli)
    message = _ARGUMENT.sub(lambda m: f"--{'format' if m[1] == 'fmt' else m[1].replace('_', '-')} {m[2]}", message)
    message = re.sub(r"\b(raise )max_iter or tol\b", r"\1--max-iter or --tol", message)
    message = re.sub(r"^(variant|method|delta|max_iter|alpha|tol|k|seed|sources?|metric|top_k) (must|is)\b",
                     lambda m: f"--{m[1].replace('_', '-')} {m[2]}", message)
    return re.sub(r"^(sources?)\b(?=\[| \d| -)", r"--\1", message)


def _brief(value, head=5):
    """A summary value for the text line: a long list (one entry a source) shortened to its first entries
    and its size; --json and --out keep it whole."""
    if isinstance(value, list) and len(value) > 2 * head:
        return f"[{', '.join(map(str, value[:head]))}, ... ({len(value)} in all)]"
    return value


def _json_list(values):
    """An array as (nested) JSON lists; inf (unreachable: sssp, apsp) as null, since JSON has no infinity
    (Python's json writes ``Infinity``, which JSON.parse and other strict readers reject)."""
    a = np.asarray(values)
    if a.dtype.kind == "f" and not np.isfinite(a).all():
        out = a.astype(object)
        out[~np.isfinite(a)] = None
        return out.tolist()
    return a.tolist()


def _check_out(path):
    """Fail before the work if ``--out`` cannot be written, or names a suffix it does not write."""
    if path is None:
        return
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise OSError(f"--out {path}: is a folder, not a file")
    if path.suffix.lower() not in OUT_SUFFIXES:
        raise InvalidArgumentError(f"--out {path}: --out writes .json (the summary, timings and result) or .npz "
                                   f"(the result arrays as numpy's .npz), not {path.suffix or 'a file without a suffix'}"
                                   f": name the file FILE.json or FILE.npz")
    if not parent.is_dir():
        raise OSError(f"--out {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise OSError(f"--out {path}: not writable")


def main(argv=None):
    """Entry point of ``la-graph``; returns the exit status.

    Ctrl-C prints ``la-graph: interrupted`` and returns 130 (128 + SIGINT, the shell's convention); the
    dask engine's worker processes never see it (they are closed with the engine).  Python warnings
    print as one ``la-graph: warning: ...`` line each.
    """
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            return _main(argv)
    except KeyboardInterrupt:
        print("la-graph: interrupted", file=sys.stderr)
        return 130


def _show_warning(message, category, filename, lineno, file=None, line=None):
    print(f"la-graph: warning: {_cli_words(str(message))}", file=sys.stderr)


def _main(argv):
    args = _parser().parse_args(argv)
    if args.command == "bench":
        from .bench.command import run as bench

        try:
            return bench(args, sys.argv[1:] if argv is None else argv)
        except (LaGraphError, OSError, ValueError) as exc:
            print(f"la-graph: error: {exc}", file=sys.stderr)
            return 2
    try:
        if args.command == "run":
            _check_options(args)
            _check_out(args.out)
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

        try:
            engine = get_engine(args.engine).name
        except LaGraphError as exc:
            if (args.engine is None and os.environ.get("LA_GRAPH_ENGINE")   # the user did not type it here
                    and "LA_GRAPH_ENGINE" not in str(exc)):
                raise type(exc)(f"LA_GRAPH_ENGINE={os.environ['LA_GRAPH_ENGINE']} asked for it: {exc}") from exc
            raise
        args.engine = engine
        summary, result, times, failed = _run(args, G)
    except (LaGraphError, OSError) as exc:
        print(f"la-graph: error: {_cli_words(str(exc))}", file=sys.stderr)
        return 2
    seconds = {"read": t_load, **times}
    if args.json:
        print(json.dumps({"algorithm": args.algo, "file": str(args.file), "engine": engine, "graph": _describe(G),
                          "seconds": seconds, "summary": summary, "checked": bool(args.check) and not failed,
                          **({"check_failed": str(failed)} if failed else {})}))
    else:
        parts = ", ".join(f"{k.replace('_', ' ')} {_brief(v)}" for k, v in summary.items())
        print(f"{args.algo} on {args.file} ({G.n} vertices, {G.nedges} edges, {engine} engine): {parts}")
        took = (f"{args.algo} {times['warm'] * 1e3:.2f} ms (first call {times['first'] * 1e3:.2f} ms, with start-up)"
                if "warm" in times else f"{args.algo} {times['first'] * 1e3:.2f} ms (with start-up)")
        print(f"  read {t_load:.3f} s, {took}"
              + (("; check failed" if failed else "; checked: correct") if args.check else ""))
    if failed:                         # a wrong result is not written to --out
        print(f"la-graph: check failed: {failed}" + (f" (--out {args.out} not written)" if args.out else ""),
              file=sys.stderr)
        return 1
    if args.out is not None:
        doc = {"algorithm": args.algo, "file": str(args.file), "engine": engine, "graph": _describe(G),
               "seconds": seconds, "summary": summary}
        try:
            if args.out.suffix.lower() == ".npz":    # the arrays as they are (APSP on facebook: 16 M distances)
                with open(args.out, "wb") as f:
                    np.savez(f, run=np.array(json.dumps(doc)), **{k: np.asarray(v) for k, v in result.items()})
            else:
                doc["result"] = {k: _json_list(v) for k, v in result.items()}   # lists only for the file
                args.out.write_text(json.dumps(doc))
        except OSError as exc:
            print(f"la-graph: error: --out {args.out}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        if not args.json:
            print(f"  wrote {args.out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
