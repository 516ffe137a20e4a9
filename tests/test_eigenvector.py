"""Eigenvector centrality: networkx's results on generated and real graphs, every engine, errors."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import la_graph as lg
from la_graph import Graph, generators
from la_graph.exceptions import ConvergenceError, InvalidArgumentError, InvalidGraphError

from .graphs import KARATE, bump, real


def nx_values(d, n):
    return np.array([d[v] for v in range(n)])


GRAPHS = {
    "gnp_directed": lambda: Graph.from_networkx(nx.gnp_random_graph(150, 0.05, seed=1, directed=True)),
    "gnp_undirected": lambda: Graph.from_networkx(nx.gnp_random_graph(150, 0.05, seed=2)),
    "rmat": lambda: generators.rmat(8, 8, seed=3),
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_matches_networkx(engine, name):
    G = GRAPHS[name]()
    H = G.to_networkx()
    try:
        want = nx_values(nx.eigenvector_centrality(H, weight="weight" if G.weighted else None), G.n)
    except nx.PowerIterationFailedConvergence:
        with pytest.raises(ConvergenceError):
            lg.eigenvector_centrality(G, engine=engine)
        return
    np.testing.assert_allclose(lg.eigenvector_centrality(G, engine=engine), want, atol=1e-12)


def test_weighted_and_nstart(engine):
    rng = np.random.default_rng(5)
    u, v = rng.integers(0, 60, 300), rng.integers(0, 60, 300)
    G = Graph.from_edges(u, v, rng.uniform(0.5, 3, 300), n=60)
    H = G.to_networkx()
    start = {i: 1.0 + i for i in range(60)}
    want = nx_values(nx.eigenvector_centrality(H, weight="weight", nstart=start), 60)
    np.testing.assert_allclose(lg.eigenvector_centrality(G, nstart=start, engine=engine), want, atol=1e-12)
    unweighted = nx_values(nx.eigenvector_centrality(H), 60)
    np.testing.assert_allclose(lg.eigenvector_centrality(G, weight=False, engine=engine), unweighted, atol=1e-12)


def test_errors():
    G = Graph.from_edges([0, 1], [1, 2], [1.0, -1.0])
    with pytest.raises(InvalidGraphError, match="non-negative"):
        lg.eigenvector_centrality(G)
    with pytest.raises(InvalidArgumentError):
        lg.eigenvector_centrality(G, weight=False, max_iter=0)
    with pytest.raises(ConvergenceError) as info:
        lg.eigenvector_centrality(generators.rmat(8, 8, seed=3), max_iter=2)
    assert info.value.result.shape == (256,)
    assert lg.eigenvector_centrality(Graph.from_edges([], [], n=0)).shape == (0,)


@pytest.mark.data
def test_real_graph(shared_data):
    G = real(shared_data, "snap/facebook_combined.txt.gz")
    want = nx_values(nx.eigenvector_centrality(G.to_networkx(), max_iter=1000), G.n)
    np.testing.assert_allclose(lg.eigenvector_centrality(G, max_iter=1000), want, atol=1e-10)


def test_checker_and_check_true():
    G = GRAPHS["gnp_undirected"]()
    x = lg.eigenvector_centrality(G, check=True)
    x[0] += 1e-6
    with pytest.raises(lg.VerificationError):
        lg.verify.check_eigenvector(G, x)


# ---------------------------------------------------------------------- cases of the suite-wide tests
# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "eigenvector_centrality": (KARATE, (), {}, lambda r: bump(r, 0, 0.1)),
}
