import importlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph.verify import check_cdlp

from .graphs import KARATE, SMALL, bump, real

LP = importlib.import_module("la_graph.algorithms.label_propagation")   # the module (its name is also the function's)

# LDBC Graphalytics' CDLP validation graphs (figures/examples/cdlp-*.graphml of ldbc_graphalytics_docs):
# vertices 1..8, 5 iterations, and the labels the specification gives for them
GRAPHALYTICS_DIRECTED = [(1, 2), (2, 1), (2, 3), (3, 2), (6, 7), (4, 5), (5, 6), (7, 8), (8, 6), (3, 1), (1, 3),
                         (1, 7), (7, 6), (5, 7), (7, 5), (6, 5), (5, 4), (4, 6)]
GRAPHALYTICS_UNDIRECTED = [(1, 2), (2, 3), (3, 1), (1, 7), (8, 7), (7, 6), (6, 5), (5, 4), (4, 6), (5, 7), (5, 8),
                           (4, 8), (8, 6)]


@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("max_iter", [1, 10])
def test_small_graphs(engine, name, max_iter):
    G = SMALL[name]()
    labels = lg.label_propagation(G, max_iter=max_iter, engine=engine)
    assert labels.dtype == np.int64 and labels.shape == (G.n,)
    check_cdlp(G, labels, max_iter)
    np.testing.assert_array_equal(labels, lg.label_propagation(G, max_iter=max_iter, engine="cpu"))


@pytest.mark.parametrize("edges, directed, expected", [
    (GRAPHALYTICS_DIRECTED, True, [1, 1, 1, 5, 4, 4, 4, 4]),
    (GRAPHALYTICS_UNDIRECTED, False, [1, 1, 1, 4, 4, 4, 4, 4]),
])
def test_graphalytics_validation_graphs(engine, edges, directed, expected):
    u, v = zip(*edges)
    G = lg.Graph.from_edges(u, v, directed=directed)        # vertex 0 is isolated and keeps its label
    labels = lg.label_propagation(G, max_iter=5, engine=engine)
    assert labels.tolist() == [0, *expected]
    check_cdlp(G, labels, 5)


def test_rules(engine):
    # two triangles joined by an edge: each settles on its smallest id reached
    G = lg.Graph.from_edges([0, 0, 1, 3, 3, 4, 2], [1, 2, 2, 4, 5, 5, 3])
    assert lg.label_propagation(G, engine=engine).tolist() == [0, 0, 0, 2, 2, 2]
    # ties go to the smallest label; every vertex updates at once, so one edge swaps its ends' labels
    K2 = lg.Graph.from_edges([0], [1], n=3)
    assert [lg.label_propagation(K2, max_iter=i, engine=engine).tolist() for i in (1, 2, 3)] == \
        [[1, 0, 2], [0, 1, 2], [1, 0, 2]]
    star = lg.generators.star(5)                             # the leaves all see 0, the centre sees 1..4
    assert lg.label_propagation(star, max_iter=1, engine=engine).tolist() == [1, 0, 0, 0, 0]


def test_directed_neighbours_both_ways_count_twice(engine):
    # 0 sees 1, 2 (out-edges) and 3 both ways: label 3 counts twice and wins over the smaller 1 and 2
    G = lg.Graph.from_edges([0, 0, 0, 3], [1, 2, 3, 0], directed=True)
    labels = lg.label_propagation(G, max_iter=1, engine=engine)
    assert labels[0] == 3
    check_cdlp(G, labels, 1)
    # in-neighbours count as well as out-neighbours: 1 -> 0 <- 2, 0 -> 3
    D = lg.Graph.from_edges([1, 2, 0], [0, 0, 3], directed=True)
    assert lg.label_propagation(D, max_iter=1, engine=engine).tolist() == [1, 0, 0, 0]


def test_self_loops_duplicates_and_weights_are_ignored(engine):
    # 0 has a loop and neighbours 1, 2: its own label 0 is not counted, so it takes 1
    G = lg.Graph.from_edges([0, 0, 0], [0, 1, 2])
    assert lg.label_propagation(G, max_iter=1, engine=engine).tolist() == [1, 0, 0]
    lonely = lg.Graph.from_edges([1, 2], [1, 3], n=4)          # 1's only edge is a loop: it keeps its label
    assert lg.label_propagation(lonely, max_iter=1, engine=engine).tolist() == [0, 1, 3, 2]
    for directed in (False, True):
        H = lg.generators.rmat(8, 8, seed=2, directed=directed)
        ref = lg.label_propagation(H, engine=engine)
        u, v = H.edges()
        loops = np.arange(0, H.n, 2)
        L = lg.Graph.from_edges(np.r_[u, u[:40], loops], np.r_[v, v[:40], loops], n=H.n, directed=directed)
        np.testing.assert_array_equal(lg.label_propagation(L, engine=engine), ref)
        W = lg.Graph.from_edges(u, v, w=np.linspace(1.0, 5.0, u.size), n=H.n, directed=directed)
        np.testing.assert_array_equal(lg.label_propagation(W, engine=engine), ref)


def test_stopping_early_gives_the_same_labels(engine):
    G = lg.generators.connected_caveman(6, 5)
    settled = lg.label_propagation(G, max_iter=10, engine=engine)
    for max_iter in (30, 1000):
        np.testing.assert_array_equal(lg.label_propagation(G, max_iter=max_iter, engine=engine), settled)
    check_cdlp(G, settled, 1000)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_no_edges(engine, n):
    G = lg.Graph.from_edges([], [], n=n)
    assert lg.label_propagation(G, engine=engine).tolist() == list(range(n))


@given(
    n=st.integers(0, 40),
    edges=st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39)), max_size=120),
    directed=st.booleans(),
    max_iter=st.integers(1, 6),
)
@settings(max_examples=80, deadline=None)
def test_property_random_graphs(n, edges, directed, max_iter):
    u = [a % n for a, _ in edges] if n else []
    v = [b % n for _, b in edges] if n else []
    G = lg.Graph.from_edges(u, v, n=n, directed=directed)
    check_cdlp(G, lg.label_propagation(G, max_iter=max_iter), max_iter)


@pytest.mark.data
@pytest.mark.parametrize("name", ["snap/email-Eu-core.txt.gz", "snap/CA-GrQc.txt.gz", "snap/Wiki-Vote.txt.gz"])
def test_real_graphs(engine, shared_data, name):
    G = real(shared_data, name)
    labels = lg.label_propagation(G, engine=engine)
    check_cdlp(G, labels, 10)
    if engine.name != "cpu":
        np.testing.assert_array_equal(labels, lg.label_propagation(G, engine="cpu"))


def test_checker_finds_wrong_labels():
    G = lg.generators.connected_caveman(4, 5)
    labels = lg.label_propagation(G, max_iter=3)
    check_cdlp(G, labels, 3)
    bad = labels.copy()
    bad[6] += 1
    with pytest.raises(lg.VerificationError, match=r"labels\[6\] = .*, expected .* \(after 3 iterations\)"):
        check_cdlp(G, bad, 3)
    with pytest.raises(lg.VerificationError, match="after 1 iteration\\)"):
        check_cdlp(G, labels, 1)
    with pytest.raises(lg.VerificationError, match="shape"):
        check_cdlp(G, labels[:-1], 3)
    with pytest.raises(lg.VerificationError, match="integer array"):
        check_cdlp(G, labels.astype(float), 3)
    with pytest.raises(lg.InvalidArgumentError, match="max_iter must be at least 1"):
        check_cdlp(G, labels, 0)


@pytest.mark.parametrize("max_iter, match", [
    (0, "max_iter must be at least 1, got 0"),
    (-2, "max_iter must be at least 1, got -2"),
    (1.5, "max_iter must be an integer, got 1.5"),
    (True, "max_iter must be an integer, got True"),
    ("3", "max_iter must be an integer, got '3'"),
    (None, "max_iter must be an integer, got None"),
])
def test_rejects_bad_max_iter(max_iter, match):
    with pytest.raises(lg.InvalidArgumentError, match=match):
        lg.label_propagation(lg.generators.path(4), max_iter=max_iter)


def test_rejects_bad_graph(monkeypatch):
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        lg.label_propagation([[0, 1], [1, 0]])
    monkeypatch.setattr(LP, "MAX_N", 3)
    with pytest.raises(lg.InvalidGraphError, match="label propagation takes at most 3 vertices .* got n = 4"):
        lg.label_propagation(lg.generators.path(4))


# ---------------------------------------------------------------------- cases of the suite-wide tests
# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "label_propagation": (KARATE, (), {}, lambda r: bump(r, 0, 40)),
}
