import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph.algorithms import steps
from la_graph.algorithms.scc import scc_color
from la_graph.verify import check_scc

from .graphs import DIRECTED, REAL, SMALL, bump, real


def _directed(G):
    """``G`` as a directed graph with the same stored entries (both directions of an undirected edge)."""
    u, v = G.edges()
    return lg.Graph.from_edges(u, v, n=G.n, directed=True)


def _algebraic_scc(G, engine="cpu"):
    """The SCC labels with every step run as its algebra (what an engine without fused steps runs)."""
    with steps.algebraic("scc_trim", "scc_fwbw", "scc_color"):
        return lg.strongly_connected_components(G, engine=engine)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_graphs(engine, name):
    G = SMALL[name]()
    for H in (G, _directed(G)):
        labels = lg.strongly_connected_components(H, engine=engine)
        assert labels.dtype == np.int64 and labels.shape == (H.n,)
        check_scc(H, labels)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_algebraic_steps_match(engine, name):
    G = _directed(SMALL[name]())
    np.testing.assert_array_equal(_algebraic_scc(G, engine),
                                  lg.strongly_connected_components(G, engine=engine))


def test_example_with_fringe_and_cycles(engine):
    # 0->1->2->0 is an SCC, 3<->4 another, 5 hangs off 4, 6 is isolated
    G = lg.Graph.from_edges([0, 1, 2, 2, 3, 4, 4], [1, 2, 0, 3, 4, 3, 5], n=7, directed=True)
    np.testing.assert_array_equal(lg.strongly_connected_components(G, engine=engine), [0, 0, 0, 3, 3, 5, 6])


def test_undirected_gives_connected_components(engine):
    G = lg.generators.connected_caveman(5, 4)
    H = lg.Graph.from_edges([0, 2, 5], [1, 3, 6], n=9)
    for g in (G, H):
        np.testing.assert_array_equal(lg.strongly_connected_components(g, engine=engine),
                                      lg.connected_components(g, engine=engine))


def test_self_loops_and_multi_edges_change_nothing(engine):
    rng = np.random.default_rng(5)
    u, v = rng.integers(0, 200, 500), rng.integers(0, 200, 500)
    G = lg.Graph.from_edges(u, v, n=200, directed=True)
    loops = np.arange(0, 200, 3)
    H = lg.Graph.from_edges(np.r_[u, u, loops], np.r_[v, v, loops], n=200, directed=True)
    assert H.self_loops >= loops.size
    a = lg.strongly_connected_components(G, engine=engine)
    np.testing.assert_array_equal(lg.strongly_connected_components(H, engine=engine), a)
    np.testing.assert_array_equal(_algebraic_scc(H), a)
    check_scc(H, a)


def test_only_self_loops(engine):
    G = lg.Graph.from_edges([0, 1, 2], [0, 1, 2], n=4, directed=True)
    np.testing.assert_array_equal(lg.strongly_connected_components(G, engine=engine), [0, 1, 2, 3])


@pytest.mark.parametrize("n", [0, 1, 7])
def test_no_edges(engine, n):
    G = lg.Graph.from_edges([], [], n=n, directed=True)
    np.testing.assert_array_equal(lg.strongly_connected_components(G, engine=engine), np.arange(n))


@pytest.mark.parametrize("increasing", [True, False])
def test_chain_of_two_cycles(engine, increasing):
    # k 2-cycles in a chain: nothing to trim, one SCC per color per round (the coloring's hard case)
    k = 1500
    a = np.arange(0, 2 * k, 2)
    u = np.r_[a, a + 1, a[:-1] + 1]
    v = np.r_[a + 1, a, a[1:]]
    if not increasing:
        u, v = 2 * k - 1 - u, 2 * k - 1 - v
    G = lg.Graph.from_edges(u, v, n=2 * k, directed=True)
    labels = lg.strongly_connected_components(G, engine=engine)
    check_scc(G, labels)
    assert np.unique(labels).size == k


def test_coloring_alone_on_random_digraphs():
    # the coloring step must finish any state by itself, fused and plain alike
    rng = np.random.default_rng(11)
    for _ in range(30):
        n = int(rng.integers(1, 50))
        m = int(rng.integers(0, 150))
        G = lg.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), n=n, directed=True)
        E = lg.get_engine("cpu")
        for color in (scc_color, scc_color.algebraic):
            labels = E.hint(E.vector(n, np.int64), "dense")
            assert color(E, G, 3, labels) == n
            check_scc(G, E.to_numpy(labels, fill=-1))


def test_coloring_after_partial_labels():
    # coloring must leave labelled vertices alone and take the rest, whatever was labelled before
    rng = np.random.default_rng(12)
    for _ in range(20):
        n = int(rng.integers(2, 60))
        m = int(rng.integers(0, 200))
        G = lg.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), n=n, directed=True)
        expected = lg.strongly_connected_components(G)
        comps = np.unique(expected)
        pre = np.flatnonzero(np.isin(expected, comps[rng.random(comps.size) < 0.3]))  # whole SCCs labelled
        E = lg.get_engine("cpu")
        for color in (scc_color, scc_color.algebraic):
            labels = E.hint(E.vector_from_coo(pre, expected[pre], n, dtype=np.int64), "dense")
            assert color(E, G, 5, labels) == n - pre.size
            np.testing.assert_array_equal(E.to_numpy(labels, fill=-1), expected)


def test_whole_graph_pass_matches_scipy():
    # Tarjan's pass over whole graphs with SCCs of many sizes met deep in the search: a path through
    # the vertices (in a random order), random forward arcs along it, and short backward arcs
    from scipy.sparse import csgraph

    rng = np.random.default_rng(13)
    for n, m, nb, span in ((3000, 6000, 300, 20), (3000, 9000, 1000, 5), (500, 1500, 100, 50)):
        order = rng.permutation(n)
        a, b = rng.integers(0, n, m), rng.integers(0, n, m)
        x = rng.integers(0, n, nb)
        y = np.maximum(0, x - rng.integers(1, span, nb))
        u = order[np.r_[np.arange(n - 1), np.minimum(a, b), x]]
        v = order[np.r_[np.arange(1, n), np.maximum(a, b), y]]
        G = lg.Graph.from_edges(u, v, n=n, directed=True)
        labels = lg.strongly_connected_components(G, engine="cpu")
        k, comp = csgraph.connected_components(G.to_scipy(), directed=True, connection="strong")
        smallest = np.full(k, n)
        np.minimum.at(smallest, comp, np.arange(n))
        np.testing.assert_array_equal(labels, smallest[comp])
        assert 1 < k < n


def test_output_device_on_cpu():
    G = lg.Graph.from_edges([0, 1], [1, 0], n=3, directed=True)
    assert lg.strongly_connected_components(G, engine="cpu", output="device").tolist() == [0, 0, 2]


@given(
    n=st.integers(0, 50),
    edges=st.lists(st.tuples(st.integers(0, 49), st.integers(0, 49)), max_size=120),
    perm_seed=st.integers(0, 2**31),
)
@settings(max_examples=100, deadline=None)
def test_property_random_digraphs(n, edges, perm_seed):
    if n == 0:
        edges = []
    p = np.random.default_rng(perm_seed).permutation(n)
    u = np.array([p[a % n] for a, _ in edges], dtype=np.int64)
    v = np.array([p[b % n] for _, b in edges], dtype=np.int64)
    G = lg.Graph.from_edges(u, v, n=n, directed=True)
    labels = lg.strongly_connected_components(G)
    check_scc(G, labels)
    np.testing.assert_array_equal(_algebraic_scc(G), labels)


@pytest.mark.data
@pytest.mark.parametrize("name", REAL)
def test_real_graphs(shared_data, name):
    G = real(shared_data, name)
    check_scc(G, lg.strongly_connected_components(G))
    if not G.directed and G.nnz < 10**6:  # the same graph taken as a symmetric digraph
        H = _directed(G)
        check_scc(H, lg.strongly_connected_components(H))


def test_rejects_bad_input():
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        lg.strongly_connected_components(np.eye(3))
    G = lg.Graph.from_edges([0], [1], directed=True)
    with pytest.raises(lg.InvalidArgumentError, match="output must be one of"):
        lg.strongly_connected_components(G, output="list")


# ---------------------------------------------------------------------- cases of the suite-wide tests
# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "scc_trim": ("directed", lambda G, E: {"labels": lg.strongly_connected_components(G, engine=E)}),
    "scc_fwbw": ("directed", lambda G, E: {"labels": lg.strongly_connected_components(G, engine=E)}),
    "scc_color": ("directed", lambda G, E: {"labels": lg.strongly_connected_components(G, engine=E)}),
    "scc_labels": ("directed", lambda G, E: {"labels": lg.strongly_connected_components(G, engine=E)}),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "strongly_connected_components": (DIRECTED, (), {}, lambda r: bump(r, -1, -1)),
}
