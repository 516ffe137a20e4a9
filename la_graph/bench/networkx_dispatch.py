"""The NetworkX backend's speed table: NetworkX calls dispatched to la_graph, to graphblas-algorithms, and NetworkX.

Usage::

    python -m la_graph.bench.networkx_dispatch --out FILE.json
    python -m la_graph.bench.networkx_dispatch --graphs facebook --functions pagerank,triangles --repeat 5
    python -m la_graph.bench.networkx_dispatch --engine gpu --graphs rmat20 --ways la_graph,la_graph_cached \
        --out FILE.json          # the GPU through NetworkX (on a machine with CuPy and a CUDA device)

Each NetworkX function of :data:`CALLS` runs on each graph (``facebook``: SNAP
ego-Facebook from the bench's data folder, 4,039 nodes and 88,234 edges;
``gnm100k``: ``nx.gnm_random_graph(100_000, 800_000, seed=1)``; ``rmat18`` and
``rmat20``: la_graph's Graph500 R-MAT of scale 18 or 20, edge factor 16, seed 1,
made a NetworkX ``Graph`` with nodes ``0 .. n-1``) in one process, four ways,
per call:

* ``networkx``: NetworkX's own code (``backend="networkx"``);
* ``la_graph``: ``backend="la_graph"`` with NetworkX's cache of converted graphs
  off, so every call converts the graph (what a first call costs);
* ``la_graph_cached``: the same with the cache on, after one warm-up call (what
  every later call on the unchanged graph costs);
* ``graphblas`` / ``graphblas_cached``: graphblas-algorithms the same two ways,
  where it implements the function (its ``backend="graphblas"``).

The time of a way is the median of ``--repeat`` runs after a warm-up call (the
backends' compiled kernels are loaded then; NetworkX's own runs have none),
fewer where a run passes ``--budget`` seconds (one run then); results are read
as their user reads them: generators drained (``list``), lazy mappings
(graphblas-algorithms' ``NodeMap``) read into a dict.  Answers are not compared
here: tests/test_nx_backend.py compares every dispatched function with NetworkX.
A way that raises is recorded with its error (graphblas-algorithms'
``NotImplementedError`` for options it lacks).

``--engine`` picks la_graph's engine (``nx.config.backends.la_graph.engine``;
default: la_graph's own setting).  With ``--engine gpu`` the ``la_graph`` way
converts the NetworkX graph on every call, so its time includes the upload of
the converted graph to the device (the GPU engine copies a graph there on its
first use); the cached way reuses the device copy.  Without CuPy and a CUDA
device, ``--engine gpu`` stops at once, saying why.

Printed: one markdown table per graph, milliseconds, with la_graph's speed-up
over NetworkX uncached and cached.  ``--out`` writes the JSON record (the
machine, the versions, the engine, every time).
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import importlib.metadata
import json
import os
import platform
import statistics
import time
import warnings
from collections.abc import Iterator, Mapping

import networkx as nx

import la_graph

from .graphs import data_dir

#: the graphs by name: a builder of the NetworkX graph
GRAPHS = {
    "facebook": lambda: _read_snap("snap/facebook_combined.txt.gz"),
    "gnm100k": lambda: nx.gnm_random_graph(100_000, 800_000, seed=1),
    "rmat18": lambda: _rmat(18),
    "rmat20": lambda: _rmat(20),
}

#: the graphs of the CPU table (the R-MAT ones are for the device: NetworkX's own code would take hours there)
DEFAULT_GRAPHS = ("facebook", "gnm100k")

#: label -> call(G) of the NetworkX function (``**kw`` carries ``backend=``); the first eight are the common ones
CALLS = {
    "pagerank": lambda G, **kw: nx.pagerank(G, **kw),
    "triangles": lambda G, **kw: nx.triangles(G, **kw),
    "clustering": lambda G, **kw: nx.clustering(G, **kw),
    "single_source_shortest_path_length": lambda G, **kw: nx.single_source_shortest_path_length(G, 0, **kw),
    "bellman_ford_path_length": lambda G, **kw: nx.bellman_ford_path_length(G, 0, _far(G), **kw),
    "connected_components": lambda G, **kw: list(nx.connected_components(G, **kw)),
    "betweenness_centrality k=8": lambda G, **kw: nx.betweenness_centrality(G, k=8, seed=1, **kw),
    "core_number": lambda G, **kw: nx.core_number(G, **kw),
    # more of the dispatched functions
    "number_connected_components": lambda G, **kw: nx.number_connected_components(G, **kw),
    "is_connected": lambda G, **kw: nx.is_connected(G, **kw),
    "node_connected_component": lambda G, **kw: nx.node_connected_component(G, 0, **kw),
    "bfs_edges": lambda G, **kw: list(nx.bfs_edges(G, 0, **kw)),
    "descendants": lambda G, **kw: nx.descendants(G, 0, **kw),
    "has_path": lambda G, **kw: nx.has_path(G, 0, _far(G), **kw),
    "single_source_shortest_path": lambda G, **kw: nx.single_source_shortest_path(G, 0, **kw),
    "single_source_dijkstra_path_length": lambda G, **kw: nx.single_source_dijkstra_path_length(G, 0, **kw),
    "transitivity": lambda G, **kw: nx.transitivity(G, **kw),
    "average_clustering": lambda G, **kw: nx.average_clustering(G, **kw),
    "degree_centrality": lambda G, **kw: nx.degree_centrality(G, **kw),
    "eigenvector_centrality": lambda G, **kw: nx.eigenvector_centrality(G, max_iter=1000, **kw),
    "hits": lambda G, **kw: nx.hits(G, **kw),
    "k_core": lambda G, **kw: nx.k_core(G, **kw),
    "maximal_independent_set": lambda G, **kw: nx.maximal_independent_set(G, seed=1, **kw),
    "minimum_spanning_edges": lambda G, **kw: list(nx.minimum_spanning_edges(G, **kw)),
    "is_bipartite": lambda G, **kw: nx.is_bipartite(G, **kw),
    "louvain_communities": lambda G, **kw: nx.community.louvain_communities(G, seed=1, **kw),
    "greedy_color": lambda G, **kw: nx.greedy_color(G, **kw),
    "generalized_degree": lambda G, **kw: nx.generalized_degree(G, **kw),
    "laplacian_matrix": lambda G, **kw: nx.laplacian_matrix(G, **kw),
    "square_clustering": lambda G, **kw: nx.square_clustering(G, **kw),
}

#: the eight functions of the issue's table
COMMON = list(CALLS)[:8]

#: (graph, label) pairs NetworkX itself would take minutes on: skipped
SKIP = {("gnm100k", "louvain_communities"), ("gnm100k", "square_clustering")}


def _read_snap(rel):
    """A SNAP edge list of the data folder as an undirected NetworkX graph (nodes in order of first appearance)."""
    path = data_dir() / rel
    if not path.exists():
        raise FileNotFoundError(f"{path} is not in the data folder (LA_GRAPH_DATA)")
    with gzip.open(path, "rt") as f:
        return nx.parse_edgelist((line for line in f if not line.startswith("#")), nodetype=int)


def _rmat(scale):
    """la_graph's R-MAT (edge factor 16, seed 1) as an undirected NetworkX graph: nodes 0..n-1 in order, each edge
    added once (R-MAT 20: about 1 M nodes and 16 M edges, a minute and several GB in NetworkX)."""
    G = la_graph.generators.rmat(scale, seed=1)
    rows, cols = G.edges()
    up = rows <= cols
    H = nx.Graph()
    H.add_nodes_from(range(G.n))
    H.add_edges_from(zip(rows[up].tolist(), cols[up].tolist()))
    return H


def _far(G):
    """The last node: the target of the two-node calls."""
    return next(reversed(G._node))


def _timed(fn, repeat, budget):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
        if times[-1] > budget:
            break
    return statistics.median(times)


def _materialize(result):
    """A result as its user reads it: a lazy mapping (graphblas-algorithms' ``NodeMap``) read into a dict,
    generators into lists, tuples item by item."""
    if isinstance(result, tuple):
        return tuple(map(_materialize, result))
    if isinstance(result, Mapping) and type(result) is not dict:
        return dict(result)
    if isinstance(result, Iterator):
        return list(result)
    return result


def _way(G, call, backend, cached, repeat, budget):
    """Seconds of one way (``None`` and the error where it raises)."""
    kw = {"backend": backend}
    plain = call

    def call(G, **kw):
        return _materialize(plain(G, **kw))

    nx.config.cache_converted_graphs = cached
    G.__networkx_cache__.clear()
    try:
        if cached or backend != "networkx":
            call(G, **kw)            # a warm-up (compiled kernels loaded); with the cache on, fills it
        return _timed(lambda: call(G, **kw), repeat, budget), None
    except Exception as exc:         # recorded, not raised: a way that cannot run this call
        return None, f"{type(exc).__name__}: {exc}"[:200]
    finally:
        G.__networkx_cache__.clear()
        nx.config.cache_converted_graphs = True


WAYS = (("networkx", "networkx", False), ("la_graph", "la_graph", False), ("la_graph_cached", "la_graph", True),
        ("graphblas", "graphblas", False), ("graphblas_cached", "graphblas", True))


def run(graphs, labels, repeat=3, budget=2.0, ways=None, log=print):
    """``{graph: {"n", "m", "calls": {label: {way: seconds or None, way + "_error": message}}}}`` (``ways``: the
    names of :data:`WAYS` to run, default all; the others are ``None``)."""
    out = {}
    for gname in graphs:
        G = GRAPHS[gname]()
        rows = {}
        log(f"{gname}: {G.number_of_nodes():,} nodes, {G.number_of_edges():,} edges")
        for label in labels:
            if (gname, label) in SKIP:
                continue
            row = {}
            for way, backend, cached in WAYS:
                if ways is not None and way not in ways:
                    row[way] = None
                    continue
                t, err = _way(G, CALLS[label], backend, cached, repeat, budget)
                row[way] = t
                if err:
                    row[way + "_error"] = err
            rows[label] = row
            log("  " + label + ": " + ", ".join(f"{w} {_ms(row[w])}" for w, _, _ in WAYS))
        out[gname] = {"n": G.number_of_nodes(), "m": G.number_of_edges(), "calls": rows}
    return out


def _ms(t):
    return "-" if t is None else f"{t * 1000:,.0f}" if t >= 0.01 else f"{t * 1000:.1f}"


def _x(a, b):
    return "-" if a is None or b is None or b == 0 else f"{a / b:,.1f}x"


def table(result):
    """Markdown tables, one per graph (milliseconds; speed-ups of la_graph over NetworkX)."""
    lines = []
    for gname, g in result.items():
        lines += [f"{gname} ({g['n']:,} nodes, {g['m']:,} edges), milliseconds:", "",
                  ("| function | NetworkX | la_graph | la_graph cached | graphblas | graphblas cached "
                   "| la_graph / NetworkX | cached / NetworkX |"),
                  "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for label, r in g["calls"].items():
            lines.append(f"| `{label}` | " + " | ".join(_ms(r[w]) for w, _, _ in WAYS)
                         + f" | {_x(r['networkx'], r['la_graph'])} | {_x(r['networkx'], r['la_graph_cached'])} |")
        lines.append("")
    return "\n".join(lines)


def _version(pkg):
    try:
        return importlib.metadata.version(pkg)
    except importlib.metadata.PackageNotFoundError:
        return None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m la_graph.bench.networkx_dispatch", description=__doc__.split("\n")[0])
    ap.add_argument("--graphs", default=",".join(DEFAULT_GRAPHS),
                    help="comma-separated: " + ", ".join(GRAPHS) + " (default: " + ",".join(DEFAULT_GRAPHS) + ")")
    ap.add_argument("--functions", default=",".join(CALLS), help="comma-separated labels of CALLS")
    ap.add_argument("--repeat", type=int, default=3, help="runs per way (median)")
    ap.add_argument("--budget", type=float, default=2.0, help="seconds after which one run is enough")
    ap.add_argument("--ways", default=",".join(w for w, _, _ in WAYS), help="comma-separated: which of the ways")
    ap.add_argument("--engine", choices=la_graph.algorithms._registry.ENGINES,
                    help="la_graph's engine for the la_graph ways (default: la_graph's own setting)")
    ap.add_argument("--out", help="write the JSON record here")
    a = ap.parse_args(argv)
    graphs, labels = a.graphs.split(","), a.functions.split(",")
    bad = [g for g in graphs if g not in GRAPHS] + [f for f in labels if f not in CALLS]
    if bad:
        ap.error(f"unknown graphs or functions: {bad}")
    if a.engine is not None:
        try:
            la_graph.get_engine(a.engine)      # before any graph is built: no CuPy, no run
        except la_graph.EngineUnavailable as exc:
            ap.error(f"--engine {a.engine}: {exc}")
        nx.config.backends.la_graph.engine = a.engine
    warnings.filterwarnings("ignore")
    nx.config.warnings_to_ignore.add("cache")
    started = datetime.datetime.now(datetime.UTC)
    result = run(graphs, labels, a.repeat, a.budget, a.ways.split(","))
    print()
    print(table(result))
    if a.out:
        record = {
            "study": "networkx-dispatch",
            "date": started.isoformat(timespec="seconds"),
            "machine": {"platform": platform.platform(), "processor": platform.processor(),
                        "cpus": os.cpu_count(), "loadavg_at_start": os.getloadavg()},
            "versions": {p: _version(p) for p in ("networkx", "graphblas-algorithms", "python-graphblas", "numpy")},
            "repeat": a.repeat, "budget_s": a.budget, "ways": a.ways.split(","),
            "engine": a.engine or la_graph.get_engine().name,
            "graphs": result,
        }
        with open(a.out, "w") as f:
            json.dump(record, f, indent=1)
        print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
