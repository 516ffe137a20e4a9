"""HITS: networkx's hubs and authorities on generated and real graphs, every engine, errors."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import la_graph as lg
from la_graph import Graph, generators
from la_graph.exceptions import ConvergenceError, InvalidGraphError
from la_graph.verify import check_hits

from .graphs import DIRECTED, bump, real


def nx_hits(G, **kw):
    h, a = nx.hits(G.to_networkx(), **kw)
    return np.array([h[v] for v in range(G.n)]), np.array([a[v] for v in range(G.n)])


GRAPHS = {
    "gnp_directed": lambda: Graph.from_networkx(nx.gnp_random_graph(150, 0.05, seed=1, directed=True)),
    "gnp_undirected": lambda: Graph.from_networkx(nx.gnp_random_graph(150, 0.05, seed=2)),
    "rmat": lambda: generators.rmat(8, 8, seed=3),
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_matches_networkx(engine, name):
    G = GRAPHS[name]()
    hubs, auth = lg.hits(G, engine=engine)
    want_h, want_a = nx_hits(G)
    np.testing.assert_allclose(hubs, want_h, atol=1e-9)
    np.testing.assert_allclose(auth, want_a, atol=1e-9)
    assert abs(hubs.sum() - 1) < 1e-12 and abs(auth.sum() - 1) < 1e-12


def test_unnormalized_and_weighted(engine):
    rng = np.random.default_rng(5)
    u, v = rng.integers(0, 60, 300), rng.integers(0, 60, 300)
    G = Graph.from_edges(u, v, rng.uniform(0.5, 3, 300), n=60, directed=True)
    hubs, auth = lg.hits(G, engine=engine)
    want_h, want_a = nx_hits(G)
    np.testing.assert_allclose(hubs, want_h, atol=1e-9)
    h2, a2 = lg.hits(G, normalized=False, engine=engine)
    assert h2.max() == pytest.approx(1.0) and a2.max() == pytest.approx(1.0)
    np.testing.assert_allclose(h2 / h2.sum(), hubs, atol=1e-12)


def test_errors():
    with pytest.raises(ConvergenceError) as info:
        lg.hits(generators.rmat(8, 8, seed=3), max_iter=1)
    assert len(info.value.result) == 2
    with pytest.raises(InvalidGraphError):
        lg.hits(Graph.from_edges([0], [1], [-1.0]))
    hubs, auth = lg.hits(Graph.from_edges([], [], n=3))   # no edges: zero scores (networkx's ARPACK errors)
    assert hubs.tolist() == [0.0] * 3 and auth.tolist() == [0.0] * 3


@pytest.mark.data
def test_real_graph(shared_data):
    G = real(shared_data, "snap/email-Eu-core.txt.gz")
    hubs, auth = lg.hits(G)
    want_h, want_a = nx_hits(G)
    np.testing.assert_allclose(hubs, want_h, atol=1e-8)
    np.testing.assert_allclose(auth, want_a, atol=1e-8)


def test_checker_and_check_true():
    G = GRAPHS["gnp_directed"]()
    hubs, auth = lg.hits(G, check=True)
    hubs[0] += 1e-3
    with pytest.raises(lg.VerificationError):
        lg.verify.check_hits(G, hubs, auth)


def test_checker_on_a_repeated_leading_singular_value():
    # two equal cliques: the leading singular value is repeated, so the leading vectors are any mix of the
    # cliques'; the power iteration from all ones gives the even mix, which the checker once rejected
    # (it compared with the one vector the SVD happened to return)
    G = generators.caveman(2, 5)
    hubs, authorities = lg.hits(G)
    np.testing.assert_allclose(hubs, 0.1)
    check_hits(G, hubs, authorities)
    with pytest.raises(lg.VerificationError):
        check_hits(G, np.r_[np.full(5, 0.2), np.zeros(5)] * 0.5 + 0.05, authorities)


# ---------------------------------------------------------------------- cases of the suite-wide tests
# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "hits": (DIRECTED, (), {}, lambda r: (bump(r[0], 0, 0.1), r[1])),
}
