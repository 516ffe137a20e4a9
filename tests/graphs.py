"""Graphs the algorithm tests share: small hand-made cases, generated families, real files."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from la_graph import Graph, data, generators
from la_graph.bench.graphs import read_options

# name -> builder of a small graph (fast enough for every engine in every test)
SMALL = {
    "empty": lambda: Graph.from_edges([], [], n=0),
    "single": lambda: Graph.from_edges([], [], n=1),
    "isolated": lambda: Graph.from_edges([], [], n=5),
    "self_loop": lambda: Graph.from_edges([0, 1], [0, 2], n=4),
    "path": lambda: Graph.from_edges(np.arange(9), np.arange(1, 10)),
    "directed_path": lambda: Graph.from_edges(np.arange(9), np.arange(1, 10), directed=True),
    "directed_cycle": lambda: Graph.from_edges(np.arange(6), (np.arange(6) + 1) % 6, directed=True),
    "reverse_ids": lambda: Graph.from_edges(np.arange(20, 0, -1), np.arange(19, -1, -1)),
    "two_stars": lambda: Graph.from_edges([5, 5, 5, 9, 9], [0, 1, 2, 7, 8], n=12),
    "grid": lambda: generators.grid_2d(12, 9),
    "circulant": lambda: generators.circulant(60, [1, 7]),
    "hypercube": lambda: generators.hypercube(6),
    "caveman": lambda: generators.caveman(6, 5),
    "connected_caveman": lambda: generators.connected_caveman(6, 5),
    "rmat": lambda: generators.rmat(10, 8, seed=1),
    "rmat_directed": lambda: generators.rmat(9, 8, seed=2, directed=True),
    "erdos_renyi_sparse": lambda: generators.erdos_renyi(300, 0.004, seed=3),
    "uniform_directed": lambda: generators.uniform(400, 900, seed=4, directed=True),
}

# the graphs of the check=True cases (CHECK_CASES of the algorithms' test files, gathered by tests/test_check.py)
KARATE = Graph.from_file(data.path("karate"))
WEIGHTED = generators.rmat(6, 4, seed=3, weights="uniform")
DIRECTED = generators.rmat(6, 4, seed=2, directed=True)
CHAIN = Graph.from_edges(np.arange(40), np.arange(1, 41), directed=True)


def bump(a, at=-1, by=1):
    """A copy of array ``a`` with its entry ``at`` (flat index) moved by ``by``: a wrong result."""
    a = a.copy()
    a.flat[at] += by
    return a


# real graphs in ../shared/data (relative path -> nothing; read with Graph.from_file)
REAL = [
    "snap/facebook_combined.txt.gz",
    "snap/email-Eu-core.txt.gz",
    "snap/CA-GrQc.txt.gz",
    "snap/CA-HepPh.txt.gz",
    "snap/Email-Enron.txt.gz",
    "snap/as-caida20071105.txt.gz",
    "snap/Wiki-Vote.txt.gz",
    "snap/p2p-Gnutella31.txt.gz",
    "snap/soc-Slashdot0902.txt.gz",
    "snap/cit-HepTh.txt.gz",
    "snap/cit-HepPh.txt.gz",
    "snap/soc-sign-bitcoinotc.csv.gz",
    "law/uk-2007-05_100000.txt.gz",
    "dimacs/rome99.gr",
    "suitesparse/usroads-48.mtx.gz",
    "suitesparse/luxembourg_osm.mtx.gz",
    "suitesparse/delaunay_n14.mtx.gz",
    "suitesparse/delaunay_n16.mtx.gz",
    "metis/delaunay_n15.graph",
    "metis/rgg_n_2_15_s0.graph",
]

_cache: dict = {}


def real(shared_data, name):
    """Graph.from_file of a shared real graph, read once per test session."""
    if name not in _cache:
        _cache[name] = Graph.from_file(shared_data / name, **read_options(name))
    return _cache[name]


@st.composite
def random_graphs(draw, max_n=12, per_vertex=4):
    """Hypothesis strategy: a graph of 1..max_n vertices, up to per_vertex * n random edges (loops and
    duplicates allowed), directed or not."""
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(0, per_vertex * n))
    u = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    v = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    return Graph.from_edges(np.array(u, np.int64), np.array(v, np.int64), n=n, directed=draw(st.booleans()))


def built_once(graphs, reference):
    """``get(name) -> (G, reference(G))`` for the generated graphs ``graphs[name]()``, each made once."""
    cache = {}

    def get(name):
        if name not in cache:
            G = graphs[name]()
            cache[name] = (G, reference(G))
        return cache[name]
    return get


def relabeled(G, seed):
    """``G`` with its vertex ids permuted (seeded)."""
    u, v = G.edges()
    p = np.random.default_rng(seed).permutation(G.n)
    return Graph.from_edges(p[u], p[v], n=G.n, directed=G.directed)


def disjoint_union(*graphs):
    """The disjoint union of unweighted graphs, ids of each shifted past the previous ones."""
    us, vs, n = [], [], 0
    for G in graphs:
        u, v = G.edges()
        us.append(u + n)
        vs.append(v + n)
        n += G.n
    return Graph.from_edges(np.concatenate(us), np.concatenate(vs), n=n, directed=graphs[0].directed)
