"""Algorithms a user writes with the primitives (la_graph.examples), on every engine, against networkx."""

from __future__ import annotations

import doctest
import functools
import inspect
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph import Graph, examples
from la_graph.examples import average_neighbor_degree, k_hop_count
from .graphs import random_graphs

DOC = Path(__file__).resolve().parents[1] / "docs" / "primitives.md"


def _complete(n):
    u, v = np.triu_indices(n, 1)
    return Graph.from_edges(u, v, n=n)


SMALL = {
    "single": lambda: Graph.from_edges([], [], n=1),
    "isolated": lambda: Graph.from_edges([], [], n=5),
    "self_loops": lambda: Graph.from_edges([0, 1, 1, 2], [0, 2, 1, 0], n=4),
    "triangle": lambda: Graph.from_edges([0, 1, 2], [1, 2, 0]),
    "K6": lambda: _complete(6),
    "path": lambda: Graph.from_edges(np.arange(11), np.arange(1, 12)),
    "two_components": lambda: Graph.from_edges([0, 1, 2, 4, 5, 6, 6], [1, 2, 0, 5, 6, 4, 7], n=9),
    "weighted": lambda: Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3], w=[2.0, 0.5, 7.0, 1.0]),
    "directed_cycle": lambda: Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], directed=True),
    "directed_dangling": lambda: Graph.from_edges([1, 2, 3, 0], [0, 0, 0, 4], n=6, directed=True),
    "karate": lambda: Graph.from_file(lg.data.path("karate")),
    "gnp": lambda: Graph.from_networkx(nx.gnp_random_graph(60, 0.15, seed=7)),
    "gnp_directed": lambda: Graph.from_networkx(nx.gnp_random_graph(60, 0.08, seed=8, directed=True)),
}


@functools.lru_cache(maxsize=None)
def small(name):
    return SMALL[name]()


def nx_k_hop(G, s, k):
    return len(nx.single_source_shortest_path_length(G.to_networkx(), s, cutoff=k))


def nx_neighbor_degree(G):
    """networkx.average_neighbor_degree, where a self-loop makes a vertex its own neighbour once (as la_graph)."""
    H = G.to_networkx()
    if G.self_loops:           # networkx counts a loop twice in an undirected degree: compare on the definition
        deg = G.out_degree.astype(float)
        rows, cols = G.edges()
        total = np.bincount(rows, weights=deg[cols], minlength=G.n)
        return np.divide(total, deg, out=np.zeros(G.n), where=deg > 0)
    ref = nx.average_neighbor_degree(H)
    return np.array([ref[v] for v in range(G.n)])


# ------------------------------------------------------------------ small graphs
@pytest.mark.parametrize("name", list(SMALL))
def test_k_hop_count_small(engine, name):
    G = small(name)
    for s in sorted({0, G.n // 2, G.n - 1}):
        for k in (0, 1, 2, 3, G.n):
            assert k_hop_count(G, s, k, engine=engine) == nx_k_hop(G, s, k)


@pytest.mark.parametrize("name", list(SMALL))
def test_average_neighbor_degree_small(engine, name):
    G = small(name)
    mean = average_neighbor_degree(G, engine=engine)
    assert mean.shape == (G.n,) and mean.dtype == np.float64
    np.testing.assert_allclose(mean, nx_neighbor_degree(G), rtol=1e-12)


def test_known_answers(engine):
    path = lg.generators.path(10)
    assert [k_hop_count(path, 0, k, engine=engine) for k in range(12)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10]
    assert k_hop_count(small("directed_cycle"), 1, 2, engine=engine) == 3          # 1 -> 2 -> 3, forwards only
    assert average_neighbor_degree(_complete(6), engine=engine).tolist() == [5.0] * 6
    np.testing.assert_array_equal(average_neighbor_degree(Graph.from_edges([], [], n=0), engine=engine), [])


def test_bad_input():
    G = small("path")
    with pytest.raises(lg.InvalidSourceError, match="out of range"):
        k_hop_count(G, 99, 1)
    with pytest.raises(lg.InvalidArgumentError, match="k must be at least 0"):
        k_hop_count(G, 0, -1)
    with pytest.raises(lg.InvalidArgumentError, match="k must be an integer"):
        k_hop_count(G, 0, 1.5)
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        average_neighbor_degree(nx.path_graph(3))


def graphs():
    return random_graphs(12, 3)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(G=graphs(), k=st.integers(0, 4))
def test_random_graphs(engine, G, k):
    assert k_hop_count(G, 0, k, engine=engine) == nx_k_hop(G, 0, k)
    np.testing.assert_allclose(average_neighbor_degree(G, engine=engine), nx_neighbor_degree(G), rtol=1e-12)


# ------------------------------------------------------------------ real graphs
REAL = ["snap/facebook_combined.txt.gz", "snap/Wiki-Vote.txt.gz"]


@pytest.mark.parametrize("name", REAL)
def test_real_graphs(shared_data, name):
    G = Graph.from_file(shared_data / name)
    H = G.to_networkx()
    s = int(np.argmax(G.out_degree))
    for k in (1, 2):
        assert k_hop_count(G, s, k) == len(nx.single_source_shortest_path_length(H, s, cutoff=k))
    if not G.self_loops:
        ref = nx.average_neighbor_degree(H)
        np.testing.assert_allclose(average_neighbor_degree(G), [ref[v] for v in range(G.n)], rtol=1e-12)


# ------------------------------------------------------------------ the documentation
@pytest.mark.parametrize("fn", [k_hop_count, average_neighbor_degree], ids=lambda f: f.__name__)
def test_doc_shows_the_tested_code(fn):
    """docs/primitives.md quotes la_graph/examples.py verbatim, so the doc's code is the tested code."""
    assert DOC.exists(), f"{DOC} is missing"
    assert inspect.getsource(fn) in DOC.read_text(), f"docs/primitives.md no longer matches examples.{fn.__name__}"


def test_examples_doctests():
    result = doctest.testmod(examples, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_doc_running_section():
    """The session shown under "Running them" in docs/primitives.md gives what it shows."""
    section = DOC.read_text().split("## Running them", 1)[1].split("\n## ", 1)[0]
    test = doctest.DocTestParser().get_doctest(section, {}, "primitives.md", str(DOC), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False) == (0, len(test.examples)) and test.examples
