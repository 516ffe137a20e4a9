import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph.verify import check_core_number

from .graphs import KARATE, SMALL, bump, real


def _nx_core(G):
    """networkx.core_number of the same graph, self-loops dropped (networkx refuses them)."""
    H = nx.DiGraph() if G.directed else nx.Graph()
    H.add_nodes_from(range(G.n))
    u, v = G.edges()
    keep = u != v
    H.add_edges_from(zip(u[keep].tolist(), v[keep].tolist()))
    core = nx.core_number(H)
    return np.array([core[i] for i in range(G.n)], dtype=np.int64)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_graphs_match_networkx(engine, name):
    G = SMALL[name]()
    core = lg.core_number(G, engine=engine)
    assert core.dtype == np.int64 and core.shape == (G.n,)
    np.testing.assert_array_equal(core, _nx_core(G))
    check_core_number(G, core)


def test_known_values(engine):
    G = lg.Graph.from_edges([0, 0, 0, 1, 1, 2, 3], [1, 2, 3, 2, 3, 3, 4], n=6)   # K4, a tail 3 - 4, vertex 5
    assert lg.core_number(G, engine=engine).tolist() == [3, 3, 3, 3, 1, 0]
    assert lg.core_number(lg.generators.complete(7), engine=engine).tolist() == [6] * 7
    assert lg.core_number(lg.generators.path(50), engine=engine).tolist() == [1] * 50   # peeled from both ends
    assert lg.core_number(lg.generators.grid_2d(6, 5), engine=engine).tolist() == [2] * 30


def test_directed_degree_is_in_plus_out(engine):
    # a directed cycle: in + out = 2 everywhere; an edge both ways counts twice
    C = lg.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True)
    assert lg.core_number(C, engine=engine).tolist() == [2, 2, 2]
    B = lg.Graph.from_edges([0, 1, 1, 2], [1, 0, 2, 1], directed=True)            # 0 <-> 1 <-> 2
    assert lg.core_number(B, engine=engine).tolist() == _nx_core(B).tolist() == [2, 2, 2]
    for seed in range(3):
        D = lg.generators.uniform(60, 240, seed=seed, directed=True)
        np.testing.assert_array_equal(lg.core_number(D, engine=engine), _nx_core(D))
        check_core_number(D, lg.core_number(D, engine=engine))


def test_self_loops_duplicates_and_weights_are_ignored(engine):
    lonely = lg.Graph.from_edges([0, 1], [0, 2], n=3)                  # 0's only edge is a loop
    assert lg.core_number(lonely, engine=engine).tolist() == [0, 1, 1]
    for directed in (False, True):
        G = lg.generators.rmat(8, 8, seed=3, directed=directed)
        ref = lg.core_number(G, engine=engine)
        u, v = G.edges()
        loops = np.arange(0, G.n, 2)
        H = lg.Graph.from_edges(np.r_[u, u[:60], loops], np.r_[v, v[:60], loops], n=G.n, directed=directed)
        np.testing.assert_array_equal(lg.core_number(H, engine=engine), ref)
        check_core_number(H, ref)
        W = lg.Graph.from_edges(u, v, w=np.linspace(0.1, 3.0, u.size), n=G.n, directed=directed)
        np.testing.assert_array_equal(lg.core_number(W, engine=engine), ref)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_no_edges(engine, n):
    assert lg.core_number(lg.Graph.from_edges([], [], n=n), engine=engine).tolist() == [0] * n


@given(
    n=st.integers(0, 40),
    edges=st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39)), max_size=160),
    directed=st.booleans(),
)
@settings(max_examples=80, deadline=None)
def test_property_random_graphs(n, edges, directed):
    u = [a % n for a, _ in edges] if n else []
    v = [b % n for _, b in edges] if n else []
    G = lg.Graph.from_edges(u, v, n=n, directed=directed)
    core = lg.core_number(G)
    np.testing.assert_array_equal(core, _nx_core(G))
    check_core_number(G, core)


@pytest.mark.data
@pytest.mark.parametrize("name", ["snap/email-Eu-core.txt.gz", "snap/CA-GrQc.txt.gz", "snap/Wiki-Vote.txt.gz",
                                  "suitesparse/delaunay_n14.mtx.gz"])
def test_real_graphs(engine, shared_data, name):
    G = real(shared_data, name)
    core = lg.core_number(G, engine=engine)
    check_core_number(G, core)
    if engine.name != "cpu":
        np.testing.assert_array_equal(core, lg.core_number(G, engine="cpu"))


@pytest.mark.data
def test_real_graph_matches_networkx(shared_data):
    G = real(shared_data, "snap/email-Eu-core.txt.gz")          # directed, with self-loops
    np.testing.assert_array_equal(lg.core_number(G), _nx_core(G))


def test_checker_finds_wrong_core_numbers():
    G = lg.Graph.from_edges([0, 0, 0, 1, 1, 2, 3], [1, 2, 3, 2, 3, 3, 4], n=6)
    check_core_number(G, np.array([3, 3, 3, 3, 1, 0]))
    with pytest.raises(lg.VerificationError, match=r"core\[4\] = 2 but vertex 4 has 1 neighbour of core number 2 "
                                                   r"or more: it is not in the 2-core"):
        check_core_number(G, np.array([3, 3, 3, 3, 2, 0]))
    with pytest.raises(lg.VerificationError, match=r"core\[0\] = 2 but vertex 0 is in the 3-core"):
        check_core_number(G, np.array([2, 2, 2, 2, 1, 0]))
    with pytest.raises(lg.VerificationError, match=r"core\[5\] = -1 is negative"):
        check_core_number(G, np.array([3, 3, 3, 3, 1, -1]))
    with pytest.raises(lg.VerificationError, match="shape"):
        check_core_number(G, np.zeros(5, np.int64))
    with pytest.raises(lg.VerificationError, match="integer array"):
        check_core_number(G, np.zeros(6))


def test_rejects_bad_graph():
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        lg.core_number(nx.path_graph(3))
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        check_core_number(None, np.zeros(3, np.int64))
    with pytest.raises(lg.InvalidArgumentError, match="nope"):
        lg.core_number(lg.generators.path(3), engine="nope")


# ---------------------------------------------------------------------- cases of the suite-wide tests
# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "core_peel": ("directed", lambda G, E: {"core": lg.core_number(G, engine=E)}),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "core_number": (KARATE, (), {}, lambda r: bump(r, 0)),
}
