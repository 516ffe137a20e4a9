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
