"""Triangle counting: per-vertex counts (networkx.triangles) and the total, on every engine."""

from __future__ import annotations

import functools
from math import comb

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import la_graph as lg
from la_graph import Graph
from la_graph.algorithms.triangles import oriented_edges
from la_graph.verify import check_triangles

from .graphs import KARATE, SMALL, bump, random_graphs, real


@functools.lru_cache(maxsize=None)
def small(name):
    return SMALL[name]()


def nx_triangles(G):
    ref = nx.triangles(G.to_undirected().to_networkx())
    return np.array([ref[v] for v in range(G.n)], dtype=np.int64)


def with_loops_and_duplicates(G, seed=0):
    """``G`` plus a self-loop on every third vertex and a second copy of some edges (directed graphs: reversed)."""
    rng = np.random.default_rng(seed)
    u, v = G.edges()
    pick = rng.random(u.size) < 0.3
    loops = np.arange(0, G.n, 3)
    return Graph.from_edges(np.r_[u, v[pick], loops], np.r_[v, u[pick], loops], n=G.n, directed=G.directed)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_graphs(engine, name):
    G = small(name)
    t = lg.triangles(G, engine=engine)
    assert t.dtype == np.int64 and t.shape == (G.n,)
    np.testing.assert_array_equal(t, nx_triangles(G))
    total = lg.triangle_count(G, engine=engine)
    assert isinstance(total, int) and total == int(t.sum()) // 3
    check_triangles(G, t, total)


def test_same_counts_on_every_engine(engine):
    for G in (small("rmat"), small("rmat_directed"), small("connected_caveman")):
        np.testing.assert_array_equal(lg.triangles(G, engine=engine), lg.triangles(G, engine="reference"))
        assert lg.triangle_count(G, engine=engine) == lg.triangle_count(G, engine="reference")


@pytest.mark.parametrize("n", [3, 4, 7, 12])
def test_complete_graphs(engine, n):
    K = lg.generators.complete(n)
    assert lg.triangle_count(K, engine=engine) == comb(n, 3)
    assert lg.triangles(K, engine=engine).tolist() == [comb(n - 1, 2)] * n


def test_known_answers(engine):
    karate = Graph.from_file(lg.data.path("karate"))
    assert lg.triangle_count(karate, engine=engine) == 45
    bowtie = Graph.from_edges([0, 0, 1, 2, 2, 3], [1, 2, 2, 3, 4, 4])
    assert lg.triangles(bowtie, engine=engine).tolist() == [1, 1, 2, 1, 1]
    # no triangles in bipartite graphs, trees and 4-cycles
    for G in (lg.generators.grid_2d(6, 5), lg.generators.hypercube(5), lg.generators.path(9), small("two_stars")):
        assert lg.triangle_count(G, engine=engine) == 0
        assert not lg.triangles(G, engine=engine).any()


@pytest.mark.parametrize("n", [0, 1, 4])
def test_no_edges(engine, n):
    G = Graph.from_edges([], [], n=n)
    assert lg.triangle_count(G, engine=engine) == 0
    assert lg.triangles(G, engine=engine).tolist() == [0] * n


def test_self_loops_duplicates_directions_and_weights_are_ignored(engine):
    for name in ("rmat", "rmat_directed", "caveman"):
        G = small(name)
        want = lg.triangles(G.to_undirected(), engine=engine)
        H = with_loops_and_duplicates(G)
        assert H.self_loops and H.nnz > G.nnz
        np.testing.assert_array_equal(lg.triangles(H, engine=engine), want)
        np.testing.assert_array_equal(lg.triangles(G, engine=engine), want)
        assert lg.triangle_count(H, engine=engine) == int(want.sum()) // 3
        u, v = G.edges()
        W = Graph.from_edges(u, v, w=np.arange(u.size) - 5.0, n=G.n, directed=G.directed)
        np.testing.assert_array_equal(lg.triangles(W, engine=engine), want)
    # a vertex whose only "triangle" goes through a loop has none
    G = Graph.from_edges([0, 0, 1], [0, 1, 1], n=3)
    assert lg.triangles(G, engine=engine).tolist() == [0, 0, 0]
    # a directed 3-cycle and a transitive triple are both one triangle
    for u, v in (([0, 1, 2], [1, 2, 0]), ([0, 0, 1], [1, 2, 2])):
        D = Graph.from_edges(u, v, directed=True)
        assert lg.triangles(D, engine=engine).tolist() == [1, 1, 1]


def test_orientation_is_by_degree_and_short():
    # every row of L holds later neighbours (higher degree, ties by id): at most sqrt(2 m) of them
    E = lg.get_engine("reference")
    G = small("rmat")
    L, U = oriented_edges(E, G)
    rows, cols, _ = E.to_coo(L)
    deg = G.out_degree
    assert ((deg[rows] < deg[cols]) | ((deg[rows] == deg[cols]) & (rows < cols))).all()
    assert rows.size == G.nedges - G.self_loops
    assert np.bincount(rows, minlength=G.n).max() <= np.sqrt(2 * G.nnz)
    urows, ucols, _ = E.to_coo(U)
    assert sorted(zip(urows.tolist(), ucols.tolist())) == sorted(zip(cols.tolist(), rows.tolist()))


def graphs():
    return random_graphs(14, 4)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(G=graphs())
def test_random_graphs(engine, G):
    t = lg.triangles(G, engine=engine)
    np.testing.assert_array_equal(t, nx_triangles(G))
    assert lg.triangle_count(G, engine=engine) == int(t.sum()) // 3


# published counts (SNAP) and counts confirmed by igraph's list_triangles
REAL = {
    "snap/facebook_combined.txt.gz": 1_612_010,
    "snap/CA-GrQc.txt.gz": 48_260,
    "snap/email-Eu-core.txt.gz": 105_461,
    "snap/Wiki-Vote.txt.gz": 608_389,
    "law/uk-2007-05_100000.txt.gz": 59_926_808,
}


@pytest.mark.data
@pytest.mark.parametrize("name", sorted(REAL))
def test_real_graphs(shared_data, name):
    G = real(shared_data, name)
    total = lg.triangle_count(G)
    assert total == REAL[name]
    t = lg.triangles(G)
    assert int(t.sum()) == 3 * total
    if G.nnz < 1_000_000:
        check_triangles(G, t, total)


@pytest.mark.data
def test_real_graph_on_every_engine(engine, shared_data):
    G = real(shared_data, "snap/email-Eu-core.txt.gz")
    np.testing.assert_array_equal(lg.triangles(G, engine=engine), lg.triangles(G, engine="cpu"))
    assert lg.triangle_count(G, engine=engine) == REAL["snap/email-Eu-core.txt.gz"]


def test_rmat_16_total():
    # counted by igraph's list_triangles as well
    assert lg.triangle_count(lg.generators.rmat(16, 16, seed=1)) == 15_706_755


def test_rejects_bad_input():
    for f in (lg.triangles, lg.triangle_count):
        with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
            f(nx.complete_graph(3))
        with pytest.raises(lg.InvalidArgumentError, match="engine must be one of"):
            f(Graph.from_edges([0], [1]), engine="no-such-engine")


def test_checker_catches_wrong_counts():
    G = small("caveman")
    t = lg.triangles(G)
    bad = t.copy()
    bad[7] += 1
    with pytest.raises(lg.VerificationError, match=rf"per_vertex\[7\] = {t[7] + 1}, expected {t[7]} triangles"):
        check_triangles(G, bad)
    with pytest.raises(lg.VerificationError, match=r"total = 1, expected"):
        check_triangles(G, total=1)
    with pytest.raises(lg.VerificationError, match="must have shape"):
        check_triangles(G, t[:-1])
    with pytest.raises(lg.VerificationError, match="integer"):
        check_triangles(G, t.astype(float))
    with pytest.raises(lg.InvalidArgumentError, match="give per_vertex, total, or both"):
        check_triangles(G)


def test_checker_counts_the_same_over_oriented_edges(monkeypatch):
    # the checker's second method (for skewed graphs) gives the counts of its first, the definition
    from la_graph import verify

    graphs = [small("rmat"), small("rmat_directed"), small("caveman"), with_loops_and_duplicates(small("rmat"))]
    direct = [verify._closed_pairs(verify._simple_undirected(G), verify._simple_undirected(G)) for G in graphs]
    monkeypatch.setattr(verify, "_DIRECT_LIMIT", -1)
    for G, want in zip(graphs, direct):
        S = verify._simple_undirected(G)
        np.testing.assert_array_equal(verify._closed_pairs(S, S), want)
        check_triangles(G, lg.triangles(G), lg.triangle_count(G))
        bad = lg.triangles(G)
        bad[int(np.argmax(bad))] -= 1
        with pytest.raises(lg.VerificationError, match="per_vertex"):
            check_triangles(G, bad)


# ---------------------------------------------------------------------- cases of the suite-wide tests
# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "triangle_total": ("undirected", lambda G, E: {"total": np.array([lg.triangle_count(G, engine=E)])}),
    "vertex_triangles": ("undirected", lambda G, E: {"triangles": lg.triangles(G, engine=E),
                                                     "lcc": lg.local_clustering_coefficient(G, engine=E)}),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "triangle_count": (KARATE, (), {}, lambda t: t + 1),
    "triangles": (KARATE, (), {}, lambda t: bump(t, 0)),
}


def test_sampled_checker_catches_a_wrong_count_where_it_looks():
    """check_triangles(sample=): the total whole, the per-vertex counts at a sample and the largest degree,
    and their sum against three times the total (the full per-vertex check takes minutes on R-MAT 20)."""
    G = lg.generators.rmat(12, 8, seed=3)
    pv, total = lg.triangles(G), lg.triangle_count(G)
    check_triangles(G, pv, total, sample=16)
    hub = int(np.argmax(G.out_degree))
    moved = pv.copy()
    moved[hub] += 1
    moved[(hub + 1) % G.n] -= 1                      # the sum still right: only the hub's own count tells
    with pytest.raises(lg.VerificationError, match=rf"per_vertex\[{hub}\]"):
        check_triangles(G, moved, total, sample=16)
    with pytest.raises(lg.VerificationError, match="sums to"):
        check_triangles(G, pv + 1, total, sample=16)
    with pytest.raises(lg.VerificationError, match="total"):
        check_triangles(G, pv, total + 1, sample=16)
    check_triangles(G, pv, sample=G.n)               # every vertex: the full check's answer
