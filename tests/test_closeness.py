"""Closeness and harmonic centrality: networkx's values (directed = incoming distances, wf_improved, weights),
sources= and k samples, every engine, bad inputs."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import la_graph as lg
from la_graph import Graph
from la_graph.algorithms import closeness as closeness_module
from la_graph.exceptions import InvalidArgumentError, InvalidGraphError, InvalidSourceError

from .graphs import KARATE, bump, real


def values(d, vertices):
    return np.array([d[v] for v in vertices])


def graph(directed, weighted, seed=1, n=120, p=0.025):
    g = nx.gnp_random_graph(n, p, seed=seed, directed=directed)    # sparse: several components
    if weighted:
        for u, v in g.edges():
            g[u][v]["weight"] = 0.5 + (u * 7 + v) % 5
    return g


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("wf", [True, False])
def test_closeness_matches_networkx(engine, directed, weighted, wf):
    g = graph(directed, weighted)
    G = Graph.from_networkx(g)
    want = values(nx.closeness_centrality(g, distance="weight" if weighted else None, wf_improved=wf), range(g.order()))
    np.testing.assert_allclose(lg.closeness_centrality(G, wf_improved=wf, engine=engine), want, rtol=1e-12)


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("weighted", [True, False])
def test_harmonic_matches_networkx(engine, directed, weighted):
    g = graph(directed, weighted)
    G = Graph.from_networkx(g)
    want = values(nx.harmonic_centrality(g, distance="weight" if weighted else None), range(g.order()))
    np.testing.assert_allclose(lg.harmonic_centrality(G, engine=engine), want, rtol=1e-12)


def test_sources_k_and_batches(monkeypatch):
    g = graph(True, False)
    G = Graph.from_networkx(g)
    full = lg.closeness_centrality(G)
    np.testing.assert_array_equal(lg.closeness_centrality(G, sources=[7, 3, 7]), full[[7, 3, 7]])
    picked = lg.closeness_centrality(G, k=10, seed=4)
    sample = np.sort(np.random.default_rng(4).choice(G.n, 10, replace=False))
    np.testing.assert_array_equal(picked, full[sample])
    np.testing.assert_array_equal(lg.harmonic_centrality(G, k=10, seed=4), lg.harmonic_centrality(G)[sample])
    monkeypatch.setattr(closeness_module, "BATCH_BYTES", 8 * G.n * 7)       # batches of 7 sources
    np.testing.assert_array_equal(lg.closeness_centrality(G), full)


def test_bad_inputs():
    G = Graph.from_edges([0, 1], [1, 2], [1.0, -2.0])
    with pytest.raises(InvalidGraphError, match="non-negative"):
        lg.closeness_centrality(G)
    assert lg.closeness_centrality(G, distance=False).tolist() == pytest.approx([2 / 3, 1.0, 2 / 3])
    with pytest.raises(InvalidArgumentError, match="at most"):
        lg.closeness_centrality(G, distance=False, k=4)
    with pytest.raises(InvalidArgumentError):
        lg.harmonic_centrality(G, distance=False, k=1, sources=[0])
    with pytest.raises(InvalidSourceError):
        lg.closeness_centrality(G, distance=False, sources=[5])
    assert lg.closeness_centrality(Graph.from_edges([], [], n=1)).tolist() == [0.0]
    assert lg.closeness_centrality(Graph.from_edges([], [], n=0)).shape == (0,)


@pytest.mark.data
def test_real_graph_rows(shared_data):
    G = real(shared_data, "snap/email-Eu-core.txt.gz")
    g = G.to_networkx()
    picked = [0, 5, 100, 400]
    want = [nx.closeness_centrality(g, u=v) for v in picked]
    np.testing.assert_allclose(lg.closeness_centrality(G, sources=picked), want, rtol=1e-12)


def test_checker_and_check_true():
    G = Graph.from_networkx(graph(True, True))
    lg.closeness_centrality(G, check=True)
    lg.harmonic_centrality(G, k=5, seed=2, check=True)
    c = lg.closeness_centrality(G)
    c[3] += 1e-3
    with pytest.raises(lg.VerificationError):
        lg.verify.check_closeness(G, c)


# ---------------------------------------------------------------------- cases of the suite-wide tests
# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "distance_sums": ("weighted_directed", lambda G, E: {
        f"{f.__name__} distance={d}": f(G, k=60, seed=1, distance=d, engine=E)
        for f in (lg.closeness_centrality, lg.harmonic_centrality) for d in (None, False)}),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "closeness_centrality": (KARATE, (), {}, lambda r: bump(r, 0, 0.1)),
    "harmonic_centrality": (KARATE, (), {"k": 8, "seed": 4}, lambda r: bump(r, 0, 0.1)),
}
