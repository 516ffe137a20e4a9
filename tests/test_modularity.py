"""Modularity against NetworkX's, and its inputs (label arrays, vertex sets, non-partitions, bad graphs)."""

import networkx as nx
import numpy as np
import pytest

import la_graph as lg
from la_graph.exceptions import InvalidArgumentError, InvalidGraphError


def _random_graph(seed, directed, weighted, n=30, m=90):
    rng = np.random.default_rng(seed)
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)          # self-loops and duplicates included
    w = rng.uniform(0.1, 5.0, m) if weighted else None
    return lg.Graph.from_edges(u, v, w, n=n, directed=directed), rng


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("resolution", [1.0, 0.3, 2.5])
def test_equals_networkx(engine, directed, weighted, resolution):
    for seed in range(3):
        G, rng = _random_graph(seed, directed, weighted)
        H = G.to_networkx()
        labels = rng.integers(0, 5, G.n)
        sets = [set(np.flatnonzero(labels == c).tolist()) for c in np.unique(labels)]
        want = nx.community.modularity(H, sets, resolution=resolution)
        assert abs(lg.modularity(G, labels, resolution, engine=engine) - want) <= 1e-12
        assert abs(lg.modularity(G, sets, resolution=resolution, engine=engine) - want) <= 1e-12


def test_known_values():
    G = lg.Graph.from_edges([0, 0, 1, 3, 3, 4, 2], [1, 2, 2, 4, 5, 5, 3])
    assert lg.modularity(G, [0, 0, 0, 1, 1, 1]) == pytest.approx(5 / 14, abs=1e-15)
    assert lg.modularity(G, np.zeros(6, dtype=int)) == pytest.approx(0.0, abs=1e-15)


def test_not_a_partition():
    G = lg.generators.path(4)
    with pytest.raises(InvalidArgumentError, match="vertex 3 is in none"):
        lg.modularity(G, [{0, 1}, {2}])
    with pytest.raises(InvalidArgumentError, match="vertex 1 is in communities"):
        lg.modularity(G, [{0, 1}, {1, 2, 3}])
    with pytest.raises(lg.InvalidSourceError, match="out of range"):
        lg.modularity(G, [{0, 1}, {2, 3, 7}])
    with pytest.raises(InvalidArgumentError, match="one label per vertex"):
        lg.modularity(G, np.zeros(3, dtype=int))
    with pytest.raises(InvalidArgumentError):
        lg.modularity(G, "abcd")


def test_bad_graphs_and_resolutions():
    G = lg.Graph.from_edges([0, 1], [1, 2], w=[1.0, -2.0])
    with pytest.raises(InvalidGraphError, match="edge 1 -> 2 of weight -2.0"):
        lg.modularity(G, [0, 0, 0])
    with pytest.raises(InvalidGraphError, match="without edges"):
        lg.modularity(lg.Graph.from_edges([], [], n=3), [0, 1, 2])
    for bad in (0, -1.0, float("inf"), float("nan"), "1"):
        with pytest.raises(InvalidArgumentError, match="resolution"):
            lg.modularity(lg.generators.path(3), [0, 0, 0], bad)


@pytest.mark.parametrize("labels", [[5, 5, -3, 9 * 10**12, -3, 5], [0, 0, 0, 3, 3, 3], [17, 17, 17, 2, 2, 2]])
def test_any_integer_labels(engine, labels):
    """Labels are names only: negative, huge and sparse ones give the modularity of the partition they make."""
    G = lg.Graph.from_edges([0, 0, 1, 3, 3, 4, 2, 2], [1, 2, 2, 4, 5, 5, 3, 2])     # a self-loop at 2
    sets = [set(np.flatnonzero(np.array(labels) == c).tolist()) for c in np.unique(labels)]
    want = nx.community.modularity(G.to_networkx(), sets)
    assert abs(lg.modularity(G, np.array(labels), engine=engine) - want) <= 1e-12


@pytest.mark.parametrize("exp", [-700, 700])
def test_weights_far_from_one(engine, exp):
    """Weights near 1e-211 or 1e211 (scaled by a power of two inside): NetworkX's value on weights near 1."""
    G, rng = _random_graph(4, False, True)
    labels = rng.integers(0, 4, G.n)
    u, v = G.edges()
    far = lg.Graph.from_edges(u, v, np.ldexp(G.weights, exp), n=G.n)
    assert abs(lg.modularity(far, labels, engine=engine) - lg.modularity(G, labels, engine=engine)) <= 1e-12


def _terms(G, E):
    labels = np.arange(G.n) % 7
    return {"Q": np.array([lg.modularity(G, labels, engine=E), lg.modularity(G, labels, 0.5, engine=E)])}


# step -> (graph kind, run(G, engine) -> {name: array}): tests/test_fused.py compares each engine's fused
# implementation with the algebra on that kind's graphs
FUSED_RUNS = {
    "modularity_terms": ("weighted_directed", _terms),
}
