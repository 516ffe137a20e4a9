"""k-truss and trussness: NetworkX's k_truss, the checker's peeling, every engine, real graphs, bad input."""

import networkx as nx
import numpy as np
import pytest

import la_graph as lg
from la_graph.verify import check_k_truss, check_trussness

from .graphs import KARATE, SMALL, bump, real


def _nx_graph(G):
    """The simple undirected graph NetworkX's k_truss takes (self-loops dropped: NetworkX refuses them)."""
    H = nx.Graph()
    H.add_nodes_from(range(G.n))
    u, v = G.edges()
    H.add_edges_from((a, b) for a, b in zip(u.tolist(), v.tolist()) if a != b)
    return H


def _edge_set(S, ids):
    u, v = S.edges()
    return {(int(ids[a]), int(ids[b])) for a, b in zip(u.tolist(), v.tolist()) if a < b}


def _assert_truss_matches_networkx(G, k, engine):
    S, ids = lg.k_truss(G, k, engine=engine)
    T = nx.k_truss(_nx_graph(G), k)
    assert ids.tolist() == sorted(T.nodes)
    assert _edge_set(S, ids) == {(min(a, b), max(a, b)) for a, b in T.edges}
    assert not S.directed and S.n == ids.size
    check_k_truss(G, k, S, ids)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_graphs_match_networkx(engine, name):
    G = SMALL[name]()
    r = lg.trussness(G, engine=engine)
    check_trussness(G, r.u, r.v, r.truss)
    assert r.u.dtype == r.v.dtype == r.truss.dtype == np.int64
    for k in (2, 3, 4):
        _assert_truss_matches_networkx(G, k, engine)
        assert _edge_set(*lg.k_truss(G, k, engine=engine)) == {
            (a, b) for a, b, t in zip(r.u.tolist(), r.v.tolist(), r.truss.tolist()) if t >= k}


@pytest.mark.parametrize("seed", range(6))
def test_dense_random_graphs(engine, seed):
    G = lg.generators.erdos_renyi(45, 0.15 + 0.05 * seed, seed=seed)
    r = lg.trussness(G, engine=engine)
    check_trussness(G, r.u, r.v, r.truss)
    for k in range(2, int(r.truss.max()) + 2):
        _assert_truss_matches_networkx(G, k, engine)


def test_known_values(engine):
    G = lg.Graph.from_edges([0, 0, 0, 1, 1, 2, 3], [1, 2, 3, 2, 3, 3, 4])      # K4 with a tail 3 - 4
    r = lg.trussness(G, engine=engine)
    assert list(zip(r.u.tolist(), r.v.tolist(), r.truss.tolist())) == [
        (0, 1, 4), (0, 2, 4), (0, 3, 4), (1, 2, 4), (1, 3, 4), (2, 3, 4), (3, 4, 2)]
    assert lg.trussness(lg.generators.complete(7), engine=engine).truss.tolist() == [7] * 21
    assert set(lg.trussness(lg.generators.grid_2d(5, 4), engine=engine).truss.tolist()) == {2}
    H, ids = lg.k_truss(lg.generators.caveman(3, 5), 5, engine=engine)            # three K5s, apart
    assert ids.tolist() == list(range(15)) and H.nedges == 30
    assert lg.k_truss(lg.generators.caveman(3, 5), 6, engine=engine).vertices.size == 0


def test_directions_loops_duplicates_and_weights(engine):
    G = lg.generators.rmat(8, 8, seed=3)
    ref = lg.trussness(G, engine=engine)
    u, v = G.edges()
    loops = np.arange(0, G.n, 3)
    D = lg.Graph.from_edges(np.r_[u, loops], np.r_[v, loops], n=G.n, directed=True)   # both ways and loops
    r = lg.trussness(D, engine=engine)
    assert np.array_equal(r.u, ref.u) and np.array_equal(r.v, ref.v) and np.array_equal(r.truss, ref.truss)
    check_trussness(D, r.u, r.v, r.truss)
    W = lg.Graph.from_edges(u, v, w=np.linspace(0.5, 3.0, u.size), n=G.n)
    H, ids = lg.k_truss(W, 3, engine=engine)
    assert H.weighted
    check_k_truss(W, 3, H, ids)                       # the truss keeps the graph's weights
    one = lg.Graph.from_edges(u[u < v], v[u < v], w=np.arange(1.0, 1.0 + (u < v).sum()), n=G.n, directed=True)
    check_k_truss(one, 3, *lg.k_truss(one, 3, engine=engine))


@pytest.mark.parametrize("n", [0, 1, 4])
def test_no_edges(engine, n):
    G = lg.Graph.from_edges([], [], n=n)
    r = lg.trussness(G, engine=engine)
    assert r.u.size == r.v.size == r.truss.size == 0
    H, ids = lg.k_truss(G, 3, engine=engine)
    assert H.n == 0 and ids.size == 0


def test_check_true_and_registry():
    G = lg.generators.caveman(4, 4)
    lg.trussness(G, check=True)
    lg.k_truss(G, 3, check=True)


def test_dask_engine(threaded):
    from la_graph.engines.dask import DaskEngine
    E = DaskEngine(threaded, grid=2)
    G = lg.generators.connected_caveman(3, 5)
    r = lg.trussness(G, engine=E)
    assert np.array_equal(r.truss, lg.trussness(G, engine="cpu").truss)
    assert lg.k_truss(G, 4, engine=E).graph == lg.k_truss(G, 4, engine="cpu").graph


@pytest.mark.data
@pytest.mark.parametrize("name", ["snap/facebook_combined.txt.gz", "snap/email-Eu-core.txt.gz",
                                  "snap/CA-GrQc.txt.gz", "suitesparse/delaunay_n14.mtx.gz"])
def test_real_graphs(engine, shared_data, name):
    if engine.name == "reference" and name.startswith("snap/facebook"):
        pytest.skip("the reference engine's products are too slow for facebook's 97 levels")
    G = real(shared_data, name)
    r = lg.trussness(G, engine=engine)
    check_trussness(G, r.u, r.v, r.truss)
    k = int(np.median(r.truss)) + 1
    H, ids = lg.k_truss(G, k, engine=engine)
    check_k_truss(G, k, H, ids)


@pytest.mark.data
def test_real_graph_matches_networkx(shared_data):
    G = real(shared_data, "snap/email-Eu-core.txt.gz")          # directed, with self-loops
    for k in (3, 8, 15):
        _assert_truss_matches_networkx(G, k, "cpu")


def test_checkers_find_wrong_answers():
    G = lg.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3])           # a triangle with a tail
    check_trussness(G, [0, 0, 1, 2], [1, 2, 2, 3], [3, 3, 3, 2])
    with pytest.raises(lg.VerificationError, match=r"truss\[3\] of edge \(2, 3\) = 3 but its trussness is 2"):
        check_trussness(G, [0, 0, 1, 2], [1, 2, 2, 3], [3, 3, 3, 3])
    with pytest.raises(lg.VerificationError, match=r"edge 1 is \(1, 2\) but the graph's edge 1"):
        check_trussness(G, [0, 1, 0, 2], [1, 2, 2, 3], [3, 3, 3, 2])
    with pytest.raises(lg.VerificationError, match="shape"):
        check_trussness(G, [0, 0, 1], [1, 2, 2], [3, 3, 3])
    T = lg.Graph.from_edges([0, 0, 1], [1, 2, 2])
    check_k_truss(G, 3, T, [0, 1, 2])
    with pytest.raises(lg.VerificationError, match="vertex 3 is in the 3-truss but should not be"):
        check_k_truss(G, 3, lg.Graph.from_edges([0, 0, 1], [1, 2, 2], n=4), [0, 1, 2, 3])
    with pytest.raises(lg.VerificationError, match="vertex 2 should be in the 3-truss"):
        check_k_truss(G, 3, lg.Graph.from_edges([0], [1]), [0, 1])
    with pytest.raises(lg.VerificationError, match="lack the edge"):
        check_k_truss(G, 3, lg.Graph.from_edges([0, 0], [1, 2]), [0, 1, 2])
    with pytest.raises(lg.VerificationError, match="weight"):
        W = lg.Graph.from_edges([0, 0, 1], [1, 2, 2], w=[1.0, 2.0, 3.0])
        check_k_truss(W, 3, lg.Graph.from_edges([0, 0, 1], [1, 2, 2], w=[1.0, 2.0, 4.0]), [0, 1, 2])


def test_bad_input():
    G = lg.generators.complete(4)
    with pytest.raises(lg.InvalidArgumentError, match=r"k must be at least 2 .*got 1"):
        lg.k_truss(G, 1)
    with pytest.raises(lg.InvalidArgumentError, match="at least 2"):
        lg.k_truss(G, -3)
    with pytest.raises(lg.InvalidArgumentError, match="integer"):
        lg.k_truss(G, 3.0)
    with pytest.raises(lg.InvalidArgumentError, match="integer"):
        lg.k_truss(G, True)
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        lg.trussness(nx.path_graph(3))
    with pytest.raises(lg.InvalidArgumentError, match="nope"):
        lg.trussness(G, engine="nope")


def test_networkx_backend():
    nx.config.warnings_to_ignore.add("cache")
    H = nx.karate_club_graph()
    for k in (2, 3, 4, 5, 6):
        a, b = nx.k_truss(H, k, backend="la_graph"), nx.k_truss(H, k)
        assert dict(a.nodes(data=True)) == dict(b.nodes(data=True))
        assert {frozenset(e[:2]): e[2] for e in a.edges(data=True)} == {frozenset(e[:2]): e[2] for e in b.edges(data=True)}
    with pytest.raises(NotImplementedError):
        nx.k_truss(H, 1, backend="la_graph")               # declined: NetworkX's own answer runs by priority
    L = nx.Graph([(0, 0), (0, 1)])
    with pytest.raises(nx.NetworkXNotImplemented, match="self loops"):
        nx.k_truss(L, 3, backend="la_graph")


# ---------------------------------------------------------------------- cases of the suite-wide tests

def _truss(G, E):
    r = lg.trussness(G, engine=E)
    return {"u": r.u, "v": r.v, "truss": r.truss, "4-truss": lg.k_truss(G, 4, engine=E).vertices}


# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "edge_support": ("undirected", _truss),
    "truss_peel": ("undirected", _truss),
    "truss_levels": ("undirected", _truss),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "trussness": (KARATE, (), {}, lambda r: r._replace(truss=bump(r.truss, 0))),
    "k_truss": (KARATE, (4,), {}, lambda r: r._replace(vertices=bump(r.vertices, -1))),
}
