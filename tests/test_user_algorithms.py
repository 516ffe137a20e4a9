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
from la_graph.examples import pagerank, triangle_count

DOC = Path(__file__).resolve().parents[1] / "docs" / "primitives.md"


def _complete(n):
    u, v = np.triu_indices(n, 1)
    return Graph.from_edges(u, v, n=n)


SMALL = {
    "empty": lambda: Graph.from_edges([], [], n=0),
    "single": lambda: Graph.from_edges([], [], n=1),
    "isolated": lambda: Graph.from_edges([], [], n=5),
    "self_loops": lambda: Graph.from_edges([0, 1, 1, 2], [0, 2, 1, 0], n=4),
    "triangle": lambda: Graph.from_edges([0, 1, 2], [1, 2, 0]),
    "K6": lambda: _complete(6),
    "bowtie": lambda: Graph.from_edges([0, 1, 2, 2, 3, 4], [1, 2, 0, 3, 4, 2]),
    "two_components": lambda: Graph.from_edges([0, 1, 2, 4, 5, 6, 6], [1, 2, 0, 5, 6, 4, 7], n=9),
    "weighted": lambda: Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3], w=[2.0, 0.5, 7.0, 1.0]),
    "directed_cycle": lambda: Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], directed=True),
    "directed_dangling": lambda: Graph.from_edges([1, 2, 3, 0], [0, 0, 0, 4], n=6, directed=True),
    "directed_triangles": lambda: Graph.from_edges([0, 1, 2, 2, 3, 0], [1, 2, 0, 3, 0, 2], directed=True),
    "karate": lambda: Graph.from_file(lg.data.path("karate")),
    "gnp": lambda: Graph.from_networkx(nx.gnp_random_graph(60, 0.15, seed=7)),
    "gnp_directed": lambda: Graph.from_networkx(nx.gnp_random_graph(60, 0.08, seed=8, directed=True)),
}


@functools.lru_cache(maxsize=None)
def small(name):
    return SMALL[name]()


def nx_pagerank(G):
    ranks = nx.pagerank(G.to_networkx(), alpha=0.85, tol=1e-13, max_iter=10_000, weight=None)
    return np.array([ranks[v] for v in range(G.n)])


def nx_triangles(G):
    return sum(nx.triangles(G.to_undirected().to_networkx()).values()) // 3


# ------------------------------------------------------------------ small graphs
@pytest.mark.parametrize("name", list(SMALL))
def test_pagerank_small(engine, name):
    G = small(name)
    r = pagerank(G, engine=engine)
    assert r.shape == (G.n,) and r.dtype == np.float64
    np.testing.assert_allclose(r, nx_pagerank(G), rtol=0, atol=1e-8)
    if G.n:
        assert abs(r.sum() - 1.0) < 1e-9


@pytest.mark.parametrize("name", list(SMALL))
def test_triangle_count_small(engine, name):
    G = small(name)
    t = triangle_count(G, engine=engine)
    assert isinstance(t, int)
    assert t == nx_triangles(G)


def test_known_counts(engine):
    assert triangle_count(_complete(6), engine=engine) == 20          # C(6, 3)
    assert triangle_count(small("karate"), engine=engine) == 45
    np.testing.assert_allclose(pagerank(small("directed_cycle"), engine=engine), 0.25, atol=1e-12)


def test_pagerank_options(engine):
    G = small("gnp_directed")
    one = pagerank(G, max_iter=1, engine=engine)
    assert not np.allclose(one, nx_pagerank(G), atol=1e-6)           # stopped early
    ref = nx.pagerank(G.to_networkx(), alpha=0.5, tol=1e-13, max_iter=10_000, weight=None)
    np.testing.assert_allclose(pagerank(G, damping=0.5, engine=engine), [ref[v] for v in range(G.n)], atol=1e-8)


@st.composite
def graphs(draw):
    n = draw(st.integers(1, 12))
    m = draw(st.integers(0, 3 * n))
    u = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    v = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    return Graph.from_edges(np.array(u, np.int64), np.array(v, np.int64), n=n, directed=draw(st.booleans()))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(G=graphs())
def test_random_graphs(engine, G):
    # a bipartite graph converges slowly (the error shrinks by 0.85 a step): let it reach tol
    np.testing.assert_allclose(pagerank(G, max_iter=1000, engine=engine), nx_pagerank(G), rtol=0, atol=1e-8)
    np.testing.assert_allclose(pagerank(G, engine=engine), nx_pagerank(G), rtol=0, atol=1e-6)
    assert triangle_count(G, engine=engine) == nx_triangles(G)


# ------------------------------------------------------------------ real graphs
REAL = {
    # file: (vertices as stored: max id + 1, undirected triangles published by SNAP)
    "snap/facebook_combined.txt.gz": (4039, 1_612_010),
    "snap/CA-GrQc.txt.gz": (26_197, 48_260),     # ids kept as given: isolated (dangling) ids between them
}


@functools.lru_cache(maxsize=None)
def real(path):
    edges = np.loadtxt(path, dtype=np.int64, comments="#", ndmin=2)
    return Graph.from_edges(edges[:, 0], edges[:, 1], directed=False)


@functools.lru_cache(maxsize=None)
def real_nx_pagerank(path):
    return nx_pagerank(real(path))


@pytest.mark.parametrize("name", list(REAL))
def test_real_graphs(engine, shared_data, name):
    path = shared_data / name
    if not path.exists():
        pytest.skip(f"{path} not found")
    G = real(path)
    n, triangles = REAL[name]
    assert G.n == n
    t = triangle_count(G, engine=engine)
    assert t == triangles
    if name.startswith("snap/facebook"):
        assert t == nx_triangles(G)
    r = pagerank(G, engine=engine)
    np.testing.assert_allclose(r, real_nx_pagerank(path), rtol=0, atol=1e-9)


# ------------------------------------------------------------------ the documentation
@pytest.mark.parametrize("fn", [pagerank, triangle_count], ids=lambda f: f.__name__)
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
