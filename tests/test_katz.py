"""Katz centrality: networkx's results on generated and real graphs, every engine, divergence and errors."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import la_graph as lg
from la_graph import Graph, generators
from la_graph.exceptions import ConvergenceError, InvalidGraphError

from .graphs import KARATE, bump, real


def nx_values(d, n):
    return np.array([d[v] for v in range(n)])


GRAPHS = {
    "gnp_directed": lambda: Graph.from_networkx(nx.gnp_random_graph(150, 0.05, seed=1, directed=True)),
    "gnp_undirected": lambda: Graph.from_networkx(nx.gnp_random_graph(150, 0.05, seed=2)),
    "rmat": lambda: generators.rmat(8, 8, seed=3),
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("normalized", [True, False])
def test_matches_networkx(engine, name, normalized):
    G = GRAPHS[name]()
    H = G.to_networkx()
    alpha = 0.5 / max(1.0, float(np.abs(nx.adjacency_spectrum(H)).max()))
    want = nx_values(nx.katz_centrality(H, alpha=alpha, normalized=normalized,
                                        weight="weight" if G.weighted else None), G.n)
    got = lg.katz_centrality(G, alpha=alpha, normalized=normalized, engine=engine)
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_beta_nstart_weights(engine):
    rng = np.random.default_rng(5)
    u, v = rng.integers(0, 60, 200), rng.integers(0, 60, 200)
    G = Graph.from_edges(u, v, rng.uniform(0.1, 0.5, 200), n=60, directed=True)
    H = G.to_networkx()
    beta = {i: 1.0 + i % 3 for i in range(60)}
    start = {i: 0.5 for i in range(60)}
    want = nx_values(nx.katz_centrality(H, alpha=0.2, beta=beta, nstart=start, weight="weight"), 60)
    np.testing.assert_allclose(lg.katz_centrality(G, alpha=0.2, beta=beta, nstart=start, engine=engine), want,
                               atol=1e-12)


def test_divergence_names_lambda_max():
    G = Graph.from_networkx(nx.complete_graph(10))       # lambda_max = 9
    with pytest.raises(ConvergenceError, match="1/lambda_max"):
        lg.katz_centrality(G, alpha=0.2)
    with pytest.raises(InvalidGraphError):
        lg.katz_centrality(Graph.from_edges([0], [1], [-1.0]))


@pytest.mark.data
def test_real_graph(shared_data):
    G = real(shared_data, "snap/facebook_combined.txt.gz")
    want = nx_values(nx.katz_centrality(G.to_networkx(), alpha=0.001), G.n)
    np.testing.assert_allclose(lg.katz_centrality(G, alpha=0.001), want, atol=1e-10)


def test_checker_and_check_true():
    G = GRAPHS["gnp_directed"]()
    x = lg.katz_centrality(G, alpha=0.05, check=True)
    x[0] += 1e-2
    with pytest.raises(lg.VerificationError):
        lg.verify.check_katz(G, x, alpha=0.05)


# ---------------------------------------------------------------------- cases of the suite-wide tests
# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "katz_centrality": (KARATE, (), {}, lambda r: bump(r, 0, 0.1)),
}
