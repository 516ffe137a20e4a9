"""The NetworkX backend: same answers as NetworkX (types, labels, order), declines what it cannot match."""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

import la_graph as lg  # noqa: E402
from la_graph import nx_backend  # noqa: E402
from la_graph.algorithms._registry import networkx_functions  # noqa: E402
from la_graph.nx_backend import LaGraphNX, convert_from_nx  # noqa: E402

B = "la_graph"


def needs(name):
    return pytest.mark.skipif(not hasattr(lg, name), reason=f"la_graph.{name} has not landed yet")


@pytest.fixture(autouse=True)
def _engine_and_quiet(engine):
    """Every test runs on each engine (through the backend's config); cache warnings silenced."""
    old = nx.config.backends.la_graph.engine
    nx.config.backends.la_graph.engine = engine
    nx.config.warnings_to_ignore.add("cache")
    yield
    nx.config.backends.la_graph.engine = old


LABELS = [
    lambda i: f"v{i}",
    lambda i: (i % 3, f"n{i}"),
    lambda i: i * 7 + 1000,
    lambda i: frozenset({i, -1}),
    lambda i: i if i % 2 else f"s{i}",     # mixed int and str
]


def random_graph(seed, *, directed=False, n=None, p=None, weights=None, multigraph=False):
    """A random graph with shuffled node order, non-integer labels and optional weights."""
    rng = random.Random(seed)
    n = rng.randint(0, 40) if n is None else n
    p = rng.choice([0.03, 0.08, 0.2]) if p is None else p
    label = LABELS[seed % len(LABELS)]
    cls = {(False, False): nx.Graph, (True, False): nx.DiGraph,
           (False, True): nx.MultiGraph, (True, True): nx.MultiDiGraph}[directed, multigraph]
    G = cls()
    order = list(range(n))
    rng.shuffle(order)
    G.add_nodes_from(label(i) for i in order)
    for u in range(n):
        for v in range(n):
            if (directed or u <= v) and rng.random() < p and (u != v or rng.random() < 0.3):
                attrs = {}
                if weights == "int":
                    attrs["weight"] = rng.randint(1, 4)         # many ties
                elif weights == "float":
                    attrs["weight"] = rng.choice([0.5, 1.25, 2.0, rng.random() * 10])
                elif weights == "neg":
                    attrs["weight"] = rng.randint(-2, 6)
                G.add_edge(label(u), label(v), **attrs)
                if multigraph and rng.random() < 0.3:
                    G.add_edge(label(u), label(v), weight=rng.randint(1, 4))
    return G


SEEDS = range(12)


# ---------------------------------------------------------------- registration and conversion
def test_registered():
    assert B in nx.utils.backends.backends
    info = nx.utils.backends.backend_info[B]
    assert set(info["functions"]) == set(nx_backend.FUNCTIONS)
    for name in nx_backend.FUNCTIONS:
        assert B in getattr(nx, name).backends, name


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["Graph", "DiGraph", "MultiGraph", "MultiDiGraph"])
def test_round_trip_keeps_labels_and_data(seed, kind):
    G = random_graph(seed, directed="Di" in kind, multigraph="Multi" in kind, weights="float")
    G.graph["name"] = "g"
    for i, v in enumerate(G):
        G.nodes[v]["i"] = i
    H = convert_from_nx(G, preserve_edge_attrs=True, preserve_node_attrs=True, preserve_graph_attrs=True)
    assert isinstance(H, LaGraphNX) and H.__networkx_backend__ == B
    assert list(H) == list(G) and len(H) == len(G) and H.is_directed() == G.is_directed()
    back = nx_backend.convert_to_nx(H)
    assert type(back) is type(G)
    assert nx.utils.graphs_equal(back, G)
    assert list(back) == list(G)


def test_conversion_to_lagraph_graph():
    G = nx.DiGraph()
    G.add_edge("b", "a", weight=2)
    G.add_edge("a", "c", weight=0.5)
    H = convert_from_nx(G, edge_attrs={"weight": 1})
    A = H.lagraph("weight")
    assert A.directed and A.n == 3
    assert A.to_scipy().toarray().tolist() == [[0, 2, 0], [0, 0, 0.5], [0, 0, 0]]
    assert H.lagraph().weights is None
    assert H.lagraph("cost").weights.tolist() == [1.0, 1.0]      # a missing attribute counts as 1
    with pytest.raises(NotImplementedError, match="not converted"):
        convert_from_nx(G).lagraph("weight")                     # edge data not kept


def test_multigraph_weight_is_the_smallest_parallel_edge():
    G = nx.MultiGraph()
    G.add_edge(0, 1, weight=5)
    G.add_edge(0, 1, weight=2)
    G.add_edge(1, 2)
    H = convert_from_nx(G, edge_attrs={"weight": 1})
    assert H.lagraph("weight").to_scipy().toarray().tolist() == [[0, 2, 0], [2, 0, 1], [0, 1, 0]]


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "heavy", None])
def test_weights_la_graph_cannot_hold_decline(bad):
    G = nx.Graph()
    G.add_edge(0, 1, weight=bad)
    with pytest.raises(NotImplementedError):
        convert_from_nx(G, edge_attrs={"weight": 1})
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, 0, backend=B)


def test_from_graph_labels():
    G = lg.Graph.from_edges([0, 1], [1, 2], w=[1.5, 2.0], directed=True)
    H = LaGraphNX.from_graph(G, nodes=["x", "y", "z"])
    assert H.lagraph("weight") is G
    assert dict(nx.single_source_dijkstra_path_length(H, "x")) == {"x": 0, "y": 1.5, "z": 3.5}
    back = H.to_networkx()
    assert list(back.edges(data=True)) == [("x", "y", {"weight": 1.5}), ("y", "z", {"weight": 2.0})]
    with pytest.raises(lg.InvalidArgumentError, match="3 distinct labels"):
        LaGraphNX.from_graph(G, nodes="xx")


# ---------------------------------------------------------------- components
@needs("connected_components")
@pytest.mark.parametrize("seed", SEEDS)
def test_connected_components(seed):
    G = random_graph(seed)
    # same sets in the same order (the order of each component's first node)
    assert list(nx.connected_components(G, backend=B)) == list(nx.connected_components(G))
    assert nx.number_connected_components(G) == sum(1 for _ in nx.connected_components(G, backend=B))


def test_connected_components_rejects_directed():
    with pytest.raises(nx.NetworkXNotImplemented):
        list(nx.connected_components(nx.DiGraph([(0, 1)]), backend=B))


@needs("strongly_connected_components")
@pytest.mark.parametrize("seed", SEEDS)
def test_strongly_connected_components(seed):
    G = random_graph(seed, directed=True, p=0.1)
    got = list(nx.strongly_connected_components(G, backend=B))
    want = list(nx.strongly_connected_components(G))
    assert all(type(c) is set for c in got)
    assert sorted(map(sorted_key, got)) == sorted(map(sorted_key, want))
    firsts = [min(list(G).index(v) for v in c) for c in got]
    assert firsts == sorted(firsts)              # in the order of each one's first node


def sorted_key(c):
    return sorted(map(repr, c))


# ---------------------------------------------------------------- BFS
@needs("bfs")
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("directed", [False, True])
def test_bfs_edges_order(seed, directed):
    G = random_graph(seed, directed=directed, p=0.15)
    for s in list(G)[:3]:
        assert list(nx.bfs_edges(G, s, backend=B)) == list(nx.bfs_edges(G, s))
        for depth in (0, 1, 2, 2.5):
            assert list(nx.bfs_edges(G, s, depth_limit=depth, backend=B)) == list(
                nx.bfs_edges(G, s, depth_limit=depth))
        if not directed:
            assert list(nx.bfs_edges(G, s, reverse=True, backend=B)) == list(nx.bfs_edges(G, s, reverse=True))


@needs("bfs")
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("directed", [False, True])
def test_single_source_shortest_path_length(seed, directed):
    G = random_graph(seed, directed=directed, p=0.12)
    for s in list(G)[:3]:
        for cutoff in (None, 0, 1, 2.5, -1):
            got = nx.single_source_shortest_path_length(G, s, cutoff=cutoff, backend=B)
            want = nx.single_source_shortest_path_length(G, s, cutoff=cutoff)
            assert got == want and list(got) == list(want)         # BFS order too
            assert all(type(x) is int for x in got.values())


@needs("bfs")
def test_bfs_errors_and_declines():
    G = nx.path_graph(3)
    with pytest.raises(nx.NetworkXError, match="not in the graph"):
        list(nx.bfs_edges(G, 9, backend=B))
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_shortest_path_length(G, 9, backend=B)
    with pytest.raises(NotImplementedError):
        list(nx.bfs_edges(G, 0, sort_neighbors=sorted, backend=B))
    with pytest.raises(NotImplementedError):
        list(nx.bfs_edges(nx.DiGraph([(0, 1)]), 1, reverse=True, backend=B))
    # dispatched by priority, a declined call runs NetworkX's own code
    with nx.config.backend_priority(algos=[B]):
        assert list(nx.bfs_edges(G, 0, sort_neighbors=sorted)) == [(0, 1), (1, 2)]


# ---------------------------------------------------------------- shortest paths
@needs("sssp")
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weights", [None, "int", "float"])
def test_dijkstra(seed, weights):
    G = random_graph(seed, directed=seed % 2 == 1, weights=weights, p=0.12)
    for s in list(G)[:2]:
        for cutoff in (None, 2):
            got = nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff, backend=B)
            want = nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff)
            assert got.keys() == want.keys()
            for v in want:
                assert type(got[v]) is type(want[v]) and math.isclose(got[v], want[v]), (v, got[v], want[v])
            assert list(got.values()) == sorted(got.values())


@needs("sssp")
def test_dijkstra_errors_and_declines():
    G = nx.DiGraph()
    G.add_edge("a", "b", weight=-1)
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_dijkstra_path_length(G, "z", backend=B)
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, "a", backend=B)      # negative weight
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, "a", weight=lambda u, v, d: 1, backend=B)
    H = nx.MultiGraph()
    H.add_edge(0, 1, weight=4)
    H.add_edge(0, 1, weight=1)
    assert nx.single_source_dijkstra_path_length(H, 0, backend=B) == {0: 0, 1: 1}


@needs("sssp")
@pytest.mark.parametrize("seed", SEEDS)
def test_bellman_ford_path_length(seed):
    G = random_graph(seed, directed=True, weights="neg", p=0.1)
    nodes = list(G)
    for s in nodes[:2]:
        try:
            nx.single_source_bellman_ford_path_length(G, s)
        except nx.NetworkXUnbounded:
            with pytest.raises(nx.NetworkXUnbounded):
                nx.bellman_ford_path_length(G, s, nodes[-1], backend=B)
            continue
        for t in nodes[:6]:
            try:
                want = nx.bellman_ford_path_length(G, s, t)
            except nx.NetworkXNoPath:
                with pytest.raises(nx.NetworkXNoPath):
                    nx.bellman_ford_path_length(G, s, t, backend=B)
                continue
            got = nx.bellman_ford_path_length(G, s, t, backend=B)
            assert got == want and type(got) is type(want)


@needs("sssp")
def test_bellman_ford_errors():
    G = nx.Graph([(0, 1)])
    assert nx.bellman_ford_path_length(G, 0, 0, backend=B) == 0
    with pytest.raises(nx.NodeNotFound):
        nx.bellman_ford_path_length(G, 5, 5, backend=B)
    with pytest.raises(nx.NodeNotFound):
        nx.bellman_ford_path_length(G, 5, 0, backend=B)
    with pytest.raises(nx.NetworkXNoPath):
        nx.bellman_ford_path_length(G, 0, 7, backend=B)
    G.add_edge(1, 2, weight=-1)                   # undirected negative edge: a negative cycle
    with pytest.raises(nx.NetworkXUnbounded):
        nx.bellman_ford_path_length(G, 0, 2, backend=B)


@needs("apsp")
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weights", [None, "int", "float"])
def test_floyd_warshall_numpy(seed, weights):
    G = random_graph(seed, directed=seed % 2 == 0, weights=weights, n=15)
    got = nx.floyd_warshall_numpy(G, backend=B)
    want = nx.floyd_warshall_numpy(G)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want)
    nodelist = list(G)[::-1]
    np.testing.assert_allclose(nx.floyd_warshall_numpy(G, nodelist=nodelist, backend=B),
                               nx.floyd_warshall_numpy(G, nodelist=nodelist))


@needs("apsp")
def test_floyd_warshall_numpy_loops_errors_declines():
    G = nx.DiGraph()
    G.add_edge(0, 0, weight=-3)                  # NetworkX ignores the diagonal
    G.add_edge(0, 1, weight=-1)
    np.testing.assert_array_equal(nx.floyd_warshall_numpy(G, backend=B), nx.floyd_warshall_numpy(G))
    with pytest.raises(nx.NetworkXError, match="nodelist"):
        nx.floyd_warshall_numpy(G, nodelist=[0], backend=B)
    with pytest.raises(nx.NetworkXError, match="not in G"):
        nx.floyd_warshall_numpy(G, nodelist=[0, 5], backend=B)
    G.add_edge(1, 0, weight=-1)                  # a negative cycle
    with pytest.raises(NotImplementedError):
        nx.floyd_warshall_numpy(G, backend=B)
    assert nx.floyd_warshall_numpy(nx.Graph(), backend=B).shape == (0, 0)


# ---------------------------------------------------------------- spanning trees
@needs("minimum_spanning_forest")
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weights", [None, "int", "float"])
def test_minimum_spanning_edges_exact(seed, weights):
    G = random_graph(seed, weights=weights, p=0.15)
    for data in (True, False):
        got = list(nx.minimum_spanning_edges(G, data=data, backend=B))
        want = list(nx.minimum_spanning_edges(G, data=data))
        assert got == want
        if data:
            assert all(g[2] is w[2] for g, w in zip(got, want))     # the graph's own dicts
    T = nx.minimum_spanning_tree(G, backend=B)
    assert nx.utils.graphs_equal(T, nx.minimum_spanning_tree(G))
    assert list(T.edges) == list(nx.minimum_spanning_tree(G).edges)


@needs("minimum_spanning_forest")
@pytest.mark.parametrize("seed", range(6))
def test_minimum_spanning_multigraph(seed):
    G = random_graph(seed, multigraph=True, weights="int", p=0.2)
    assert list(nx.minimum_spanning_edges(G, backend=B)) == list(nx.minimum_spanning_edges(G))
    assert list(nx.minimum_spanning_edges(G, keys=False, backend=B)) == list(nx.minimum_spanning_edges(G, keys=False))
    T = nx.minimum_spanning_tree(G, backend=B)
    assert type(T) is nx.MultiGraph and nx.utils.graphs_equal(T, nx.minimum_spanning_tree(G))


@needs("minimum_spanning_forest")
def test_minimum_spanning_nan_and_declines():
    G = nx.Graph()
    G.add_edge(0, 1, weight=float("nan"))
    G.add_edge(1, 2, weight=1)
    with pytest.raises(ValueError, match="NaN"):
        list(nx.minimum_spanning_edges(G, backend=B))
    assert list(nx.minimum_spanning_edges(G, ignore_nan=True, backend=B)) == [(1, 2, {"weight": 1})]
    with pytest.raises(NotImplementedError):
        list(nx.minimum_spanning_edges(G, algorithm="prim", backend=B))
    with pytest.raises(ValueError, match="valid choice"):
        list(nx_backend.minimum_spanning_edges(convert_from_nx(G), algorithm="nope"))


@needs("minimum_spanning_forest")
def test_minimum_spanning_tree_of_a_directed_graph_is_refused():
    """NetworkX refuses it; the backend returned a tree of the directed graph."""
    with pytest.raises(nx.NetworkXNotImplemented, match="not implemented for directed type"):
        nx.minimum_spanning_tree(nx.DiGraph([(0, 1), (1, 2)]), backend=B)


@needs("triangles")
@needs("local_clustering_coefficient")
@pytest.mark.parametrize("name", ["triangles", "clustering"])
def test_nodes_that_are_not_in_the_graph(name):
    """NetworkX's nbunch rules: a single non-node is an error (was a TypeError), a container's are skipped."""
    f, G = getattr(nx, name), nx.path_graph(4)
    with pytest.raises(nx.NetworkXError, match="Node 99 is not in the graph"):
        f(G, 99, backend=B)
    with pytest.raises(nx.NetworkXError, match=r"Node \[1\] in sequence nbunch is not a valid node"):
        f(G, [0, [1]], backend=B)
    assert f(G, [1, 99], backend=B) == f(G, [1, 99])


# ---------------------------------------------------------------- independent sets
def is_mis(G, S):
    S = set(S)
    if any(u in S and v in S and u != v for u, v in G.edges):
        return False
    return all(v in S or any(w in S for w in G[v]) for v in G)


@needs("maximal_independent_set")
@pytest.mark.parametrize("seed", SEEDS)
def test_maximal_independent_set(seed):
    G = random_graph(seed, n=25)
    S = nx.maximal_independent_set(G, seed=seed, backend=B)
    assert type(S) is list and len(S) == len(set(S)) and is_mis(G, S)
    assert S == nx.maximal_independent_set(G, seed=seed, backend=B)        # reproducible
    if len(G) > 2:
        v = list(G)[len(G) // 2]
        S = nx.maximal_independent_set(G, [v], seed=seed, backend=B)
        assert S[0] == v and is_mis(G, S)


@needs("maximal_independent_set")
def test_maximal_independent_set_errors():
    G = nx.path_graph(["a", "b", "c"])
    with pytest.raises(nx.NetworkXUnfeasible, match="not a subset"):
        nx.maximal_independent_set(G, ["z"], backend=B)
    with pytest.raises(nx.NetworkXUnfeasible, match="not an independent set"):
        nx.maximal_independent_set(G, ["a", "b"], backend=B)
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.maximal_independent_set(nx.DiGraph([(0, 1)]), backend=B)
    with pytest.raises(IndexError):
        nx.maximal_independent_set(nx.Graph(), backend=B)
    G.add_edge("c", "c")                          # a self-loop node may be chosen, not required
    assert is_mis(G, nx.maximal_independent_set(G, seed=1, backend=B))
    with pytest.raises(nx.NetworkXUnfeasible):
        nx.maximal_independent_set(G, ["c"], backend=B)


# ---------------------------------------------------------------- NetworkX's own tests
# NetworkX's test modules of the functions the backend implements: beside each function's module, tests/test_<its
# module>.py where that names the function (read from the registry), and these, whose names differ from their modules'
_NX_TESTS_NAMED = [
    "algorithms/shortest_paths/tests/test_dense_numpy.py",
    "algorithms/traversal/tests/test_bfs.py",
    "algorithms/link_analysis/tests/test_pagerank.py",
    "algorithms/centrality/tests/test_betweenness_centrality.py",
    "algorithms/link_analysis/tests/test_hits.py",
    "algorithms/centrality/tests/test_eigenvector_centrality.py",
    "algorithms/centrality/tests/test_katz_centrality.py",
    "algorithms/centrality/tests/test_closeness_centrality.py",
    "algorithms/centrality/tests/test_harmonic_centrality.py",
]


def _nx_test_files():
    """NetworkX's own test modules for the registered NetworkX functions (paths under networkx/)."""
    root = Path(nx.__file__).parent
    found = set(_NX_TESTS_NAMED)
    for name in networkx_functions():
        if not hasattr(nx, name):
            continue                                                  # newer than the installed NetworkX
        module = getattr(nx, name).__module__.split(".")[1:]          # networkx.algorithms.x.y -> algorithms/x
        path = Path(*module[:-1], "tests", f"test_{module[-1]}.py")
        if (root / path).exists() and name in (root / path).read_text():
            found.add(path.as_posix())
    return sorted(found)


NX_TESTS = _nx_test_files()


def test_every_networkx_function_has_networkx_tests():
    """Each registered NetworkX function is named in one of NetworkX's test modules run on the backend."""
    root = Path(nx.__file__).parent
    if not all((root / f).exists() for f in NX_TESTS):
        pytest.skip("networkx's tests are not installed")
    texts = [(root / f).read_text() for f in NX_TESTS]
    assert [n for n in networkx_functions() if hasattr(nx, n) and not any(n in t for t in texts)] == []


def test_networkx_own_tests_pass_on_the_backend(engine):
    """NetworkX's test modules for these algorithms, every call dispatched to la_graph (other calls: NetworkX)."""
    if engine.name != "cpu":
        pytest.skip("one run suffices; the engine is chosen by la_graph's configuration")
    root = Path(nx.__file__).parent
    files = [str(root / f) for f in NX_TESTS if (root / f).exists()]
    if not files:
        pytest.skip("networkx's tests are not installed")
    env = dict(os.environ, NETWORKX_TEST_BACKEND=B, NETWORKX_FALLBACK_TO_NX="True")
    here = str(Path(lg.__file__).resolve().parents[1])          # the la_graph under test, not another install
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "ignore",
         f"--rootdir={root}", "-c", os.devnull, *files],
        capture_output=True, text=True, env=env, cwd=root.parent, timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout
