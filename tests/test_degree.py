"""Degrees, weighted degrees and degrees into a vertex set against NetworkX and the checker, every engine."""

import networkx as nx
import numpy as np
import pytest

import la_graph as lg
from la_graph.verify import check_degree

from .graphs import KARATE, bump, real


def _nx(G):
    H = nx.DiGraph() if G.directed else nx.Graph()
    H.add_nodes_from(range(G.n))
    u, v = G.edges()
    w = G.weights if G.weights is not None else np.ones(u.size)
    H.add_weighted_edges_from(zip(u.tolist(), v.tolist(), w.tolist()))
    return H


def _with_loops(G, seed):
    """``G`` plus a few self-loops and random weights."""
    rng = np.random.default_rng(seed)
    u, v = G.edges()
    loops = rng.choice(G.n, 5, replace=False)
    u, v = np.concatenate([u, loops]), np.concatenate([v, loops])
    keep = G.directed | (u <= v)
    return lg.Graph.from_edges(u[keep], v[keep], w=rng.uniform(-1, 3, int(keep.sum())), n=G.n,
                               directed=G.directed)


@pytest.mark.parametrize("seed", range(4))
def test_against_networkx(engine, seed):
    G = _with_loops(lg.generators.uniform(60, 180, seed=seed, directed=bool(seed % 2)), seed)
    H = _nx(G)
    for weight in (False, True):
        w = "weight" if weight else None
        d = lg.degree(G, weight=weight, direction="all", engine=engine, check=True)
        np.testing.assert_allclose(d, [H.degree(v, weight=w) for v in range(G.n)])
        assert d.dtype == (np.float64 if weight else np.int64)
        if G.directed:
            for side, view in (("in", H.in_degree), ("out", H.out_degree)):
                np.testing.assert_allclose(lg.degree(G, weight=weight, direction=side, engine=engine),
                                           [view(v, weight=w) for v in range(G.n)])
        T = list(range(0, G.n, 3))
        into = lg.degree(G, weight=weight, into=T, engine=engine, check=True)
        S = set(range(G.n)) - set(T)
        # the cut between S and T: the degrees of S into T
        assert into[sorted(S)].sum() == pytest.approx(nx.cut_size(H.to_undirected() if not G.directed else H, S, T,
                                                                  weight=w) if not G.directed else
                                                      sum(d.get("weight", 1) if weight else 1
                                                          for a, b, d in H.edges(S, data=True) if b in T))


def test_empty_and_no_edges(engine):
    G = lg.Graph.from_edges([], [], n=4)
    assert lg.degree(G, engine=engine).tolist() == [0, 0, 0, 0]
    assert lg.degree(G, into=[], engine=engine).tolist() == [0, 0, 0, 0]
    assert lg.degree(lg.Graph.from_edges([], [], n=0), engine=engine).tolist() == []


def test_bad_input():
    G = lg.Graph.from_edges([0, 1], [1, 2])
    with pytest.raises(lg.InvalidArgumentError, match="weight=True needs a weighted graph"):
        lg.degree(G, weight=True)
    with pytest.raises(lg.InvalidArgumentError, match="direction"):
        lg.degree(G, direction="both")
    with pytest.raises(lg.InvalidSourceError, match="into"):
        lg.degree(G, into=[7])
    with pytest.raises(lg.InvalidArgumentError, match="weight"):
        lg.degree(G, weight=1)


def test_checker_finds_a_wrong_degree():
    G = lg.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 2])
    check_degree(G, [2, 2, 4])
    with pytest.raises(lg.VerificationError, match="vertex 2 has degree 4"):
        check_degree(G, [2, 2, 3])
    with pytest.raises(lg.VerificationError, match="shape"):
        check_degree(G, [2, 2])


@pytest.mark.data
def test_real_graph(shared_data, engine):
    G = real(shared_data, "snap/email-Eu-core.txt.gz")
    d = lg.degree(G, direction="all", engine=engine, check=True)
    assert d.sum() == 2 * G.nnz


# ---------------------------------------------------------------------- cases of the suite-wide tests
# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "degree": (KARATE, (), {"into": [0, 1, 2]}, lambda d: bump(d, 0)),
}
