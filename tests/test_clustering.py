"""The local clustering coefficient (LDBC Graphalytics): networkx.clustering on undirected graphs, the
specification's definition and examples on directed ones, every engine."""

from __future__ import annotations

import functools

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import la_graph as lg
from la_graph import Graph
from la_graph.verify import check_lcc

from .graphs import KARATE, SMALL, bump, random_graphs, real


@functools.lru_cache(maxsize=None)
def small(name):
    return SMALL[name]()


def by_definition(G):
    """The Graphalytics pseudo-code, vertex by vertex (small graphs only): edges among N(v) over |N(v)|(|N(v)|-1)."""
    u, v = G.edges()
    edges = {(a, b) for a, b in zip(u.tolist(), v.tolist()) if a != b}
    nbrs = [set() for _ in range(G.n)]
    for a, b in edges:
        nbrs[a].add(b)
        nbrs[b].add(a)
    out = np.zeros(G.n)
    for x in range(G.n):
        d = len(nbrs[x])
        if d >= 2:
            out[x] = sum((a, b) in edges for a in nbrs[x] for b in nbrs[x]) / (d * (d - 1))
    return out


def nx_clustering(G):
    ref = nx.clustering(G.to_networkx(), weight=None)
    return np.array([ref[v] for v in range(G.n)])


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_graphs(engine, name):
    G = small(name)
    c = lg.local_clustering_coefficient(G, engine=engine)
    assert c.dtype == np.float64 and c.shape == (G.n,)
    np.testing.assert_allclose(c, by_definition(G), rtol=1e-12, atol=0)
    check_lcc(G, c)
    if not G.directed and not G.self_loops:
        np.testing.assert_allclose(c, nx_clustering(G), rtol=1e-12, atol=0)


@pytest.mark.parametrize("name", sorted(n for n in SMALL if not SMALL[n]().directed))
def test_undirected_is_networkx_clustering(engine, name):
    G = small(name)
    H = G.to_networkx()
    H.remove_edges_from(nx.selfloop_edges(H))          # networkx counts a loop in the degree; Graphalytics has none
    ref = nx.clustering(H)
    np.testing.assert_allclose(lg.local_clustering_coefficient(G, engine=engine), [ref[v] for v in range(G.n)],
                               rtol=1e-12, atol=0)


def test_specification_examples(engine):
    # the LDBC Graphalytics specification's LCC figures (ldbc_graphalytics_docs, figures/examples/lcc-*.graphml),
    # to the two decimals they show; vertex 0 is not in them (isolated here)
    u = [1, 3, 3, 5, 2, 2, 2, 5, 5, 3, 8, 9, 3, 7, 6, 1, 6]
    v = [3, 1, 5, 3, 4, 10, 5, 4, 8, 8, 1, 4, 10, 4, 3, 5, 4]
    directed = Graph.from_edges(u, v, n=11, directed=True)
    assert lg.local_clustering_coefficient(directed, engine=engine).round(2).tolist() == \
        [0.0, 0.67, 0.17, 0.15, 0.05, 0.25, 0.0, 0.0, 0.83, 0.0, 0.0]
    e = [(2, 3), (2, 4), (3, 4), (3, 5), (3, 8), (5, 6), (5, 8), (6, 7), (6, 8), (6, 9), (6, 10), (7, 9)]
    undirected = Graph.from_edges([a for a, _ in e], [b for _, b in e], n=11)
    assert lg.local_clustering_coefficient(undirected, engine=engine).round(2).tolist() == \
        [0.0, 0.0, 1.0, 0.33, 1.0, 0.67, 0.2, 1.0, 0.67, 1.0, 0.0]


def test_directed_counts_each_direction(engine):
    # 0's neighbours 1 and 2: linked one way gives 1/2, both ways 2/2
    one = Graph.from_edges([0, 0, 1], [1, 2, 2], directed=True)
    both = Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 1], directed=True)
    assert lg.local_clustering_coefficient(one, engine=engine).tolist() == [0.5, 0.5, 0.5]
    assert lg.local_clustering_coefficient(both, engine=engine).tolist() == [1.0, 0.5, 0.5]
    # in- and out-neighbours count once each: 1 -> 0 and 0 -> 1 make one neighbour
    mutual = Graph.from_edges([0, 1, 0, 2, 1], [1, 0, 2, 0, 2], directed=True)
    assert lg.local_clustering_coefficient(mutual, engine=engine)[0] == 0.5


def test_same_coefficients_on_every_engine(engine):
    for G in (small("rmat"), small("rmat_directed"), small("uniform_directed")):
        np.testing.assert_allclose(lg.local_clustering_coefficient(G, engine=engine),
                                   lg.local_clustering_coefficient(G, engine="reference"), rtol=1e-15, atol=0)


def test_self_loops_duplicates_and_weights_are_ignored(engine):
    for name in ("rmat", "rmat_directed"):
        G = small(name)
        want = lg.local_clustering_coefficient(G, engine=engine)
        u, v = G.edges()
        loops = np.arange(0, G.n, 4)
        H = Graph.from_edges(np.r_[u, loops, u[:50]], np.r_[v, loops, v[:50]], n=G.n, directed=G.directed)
        np.testing.assert_array_equal(lg.local_clustering_coefficient(H, engine=engine), want)
        W = Graph.from_edges(u, v, w=np.linspace(-3, 3, u.size), n=G.n, directed=G.directed)
        np.testing.assert_array_equal(lg.local_clustering_coefficient(W, engine=engine), want)
    # a loop is no neighbour: a vertex with one neighbour and a loop has coefficient 0
    assert lg.local_clustering_coefficient(Graph.from_edges([0, 0], [0, 1]), engine=engine).tolist() == [0.0, 0.0]


@pytest.mark.parametrize("loop", [5.0, 2.0, 3.0, 10.0, 0.0, -1.0, 0.5])
def test_a_weighted_self_loop_counts_once(engine, loop):
    # a triangle 0-1-2, a pendant 3, and a loop at 0 of any weight: the loop's weight was subtracted from
    # 0's degree (5 -> [1, 1, 1, 0], 3 -> 0.0, 10 -> 0.048); found on an airline network
    for directed in (False, True):
        G = Graph.from_edges([0, 0, 1, 0, 0], [1, 2, 2, 3, 0], w=[1, 1, 1, 1, loop], directed=directed)
        lcc = lg.local_clustering_coefficient(G, engine=engine)
        check_lcc(G, lcc)
        np.testing.assert_allclose(lcc, [1 / 3, 1, 1, 0] if not directed else [1 / 6, 0.5, 0.5, 0], rtol=1e-15)
    G = Graph.from_edges([0, 0, 1, 0, 0], [1, 2, 2, 3, 0], w=[1, 1, 1, 1, loop])
    want = nx.clustering(G.to_networkx(), weight=None)
    assert lcc_of(G, engine) == [want[v] for v in range(4)]


def lcc_of(G, engine):
    return lg.local_clustering_coefficient(G, engine=engine).tolist()


@pytest.mark.parametrize("n", [0, 1, 5])
def test_no_edges(engine, n):
    assert lg.local_clustering_coefficient(Graph.from_edges([], [], n=n), engine=engine).tolist() == [0.0] * n
    loops = Graph.from_edges(np.arange(n), np.arange(n), n=n, directed=True)
    assert lg.local_clustering_coefficient(loops, engine=engine).tolist() == [0.0] * n


def test_complete_graphs(engine):
    assert lg.local_clustering_coefficient(lg.generators.complete(6), engine=engine).tolist() == [1.0] * 6
    u, v = np.nonzero(~np.eye(5, dtype=bool))
    full = Graph.from_edges(u, v, directed=True)                  # every ordered pair
    assert lg.local_clustering_coefficient(full, engine=engine).tolist() == [1.0] * 5
    tournament = Graph.from_edges(*np.triu_indices(5, 1), directed=True)   # each pair one way
    assert lg.local_clustering_coefficient(tournament, engine=engine).tolist() == [0.5] * 5


def graphs():
    return random_graphs(12, 4)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(G=graphs())
def test_random_graphs(engine, G):
    c = lg.local_clustering_coefficient(G, engine=engine)
    np.testing.assert_allclose(c, by_definition(G), rtol=1e-12, atol=0)
    assert ((c >= 0) & (c <= 1)).all()


@pytest.mark.data
@pytest.mark.parametrize("name", ["snap/facebook_combined.txt.gz", "snap/email-Eu-core.txt.gz",
                                  "snap/Wiki-Vote.txt.gz", "snap/CA-GrQc.txt.gz"])
def test_real_graphs(shared_data, name):
    G = real(shared_data, name)
    c = lg.local_clustering_coefficient(G)
    check_lcc(G, c)
    if not G.directed:
        np.testing.assert_allclose(c, nx_clustering(G), rtol=1e-12, atol=0)


@pytest.mark.data
def test_real_graph_on_every_engine(engine, shared_data):
    G = real(shared_data, "snap/email-Eu-core.txt.gz")
    np.testing.assert_allclose(lg.local_clustering_coefficient(G, engine=engine),
                               lg.local_clustering_coefficient(G, engine="cpu"), rtol=1e-15, atol=0)


def test_rejects_bad_input():
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        lg.local_clustering_coefficient(nx.path_graph(3))
    with pytest.raises(lg.InvalidArgumentError, match="engine must be one of"):
        lg.local_clustering_coefficient(Graph.from_edges([0], [1]), engine="tpu")


def test_checker_catches_wrong_coefficients():
    G = small("rmat_directed")
    c = lg.local_clustering_coefficient(G)
    v = int(np.flatnonzero(c > 0)[0])
    bad = c.copy()
    bad[v] *= 1.001
    with pytest.raises(lg.VerificationError, match=rf"lcc\[{v}\] = .* expected .* ordered pairs of its"):
        check_lcc(G, bad)
    with pytest.raises(lg.VerificationError, match="must have shape"):
        check_lcc(G, c[1:])
    with pytest.raises(lg.VerificationError, match=r"lcc\[0\] = nan"):
        check_lcc(G, np.r_[np.nan, c[1:]])


def test_checker_over_oriented_edges(monkeypatch):
    # the checker's second method (for skewed graphs) agrees with the definition, directed edges included
    from la_graph import verify

    graphs = [small("rmat"), small("rmat_directed"), small("uniform_directed"), small("self_loop")]
    want = [lg.local_clustering_coefficient(G) for G in graphs]
    monkeypatch.setattr(verify, "_DIRECT_LIMIT", -1)
    for G, c in zip(graphs, want):
        check_lcc(G, c)
        np.testing.assert_allclose(c, by_definition(G), rtol=1e-12, atol=0)
        if c.any():
            bad = c.copy()
            bad[int(np.argmax(c))] *= 0.999
            with pytest.raises(lg.VerificationError, match="lcc"):
                check_lcc(G, bad)


# ---------------------------------------------------------------------- cases of the suite-wide tests
# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "local_clustering_coefficient": (KARATE, (), {}, lambda c: bump(c, 0, 0.25)),
}
