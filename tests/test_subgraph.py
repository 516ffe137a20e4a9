"""Graph.subgraph, k_hop, ego_graph and k_core against NetworkX and the checkers, every engine."""

import networkx as nx
import numpy as np
import pytest

import la_graph as lg
from la_graph.verify import check_subgraph

from .graphs import KARATE, bump


def _nx(G):
    H = nx.DiGraph() if G.directed else nx.Graph()
    H.add_nodes_from(range(G.n))
    u, v = G.edges()
    H.add_edges_from(zip(u.tolist(), v.tolist()))
    return H


@pytest.mark.parametrize("seed", range(4))
def test_against_networkx(engine, seed):
    G = lg.generators.uniform(80, 200, seed=seed, directed=bool(seed % 2))
    H = _nx(G)
    for r in (0, 1, 2):
        for und in (False, True):
            S, ids = lg.ego_graph(G, seed, r, undirected=und, engine=engine, check=True)
            T = nx.ego_graph(H, seed, r, undirected=und)
            assert ids.tolist() == sorted(T.nodes) and S.nedges == T.number_of_edges()
    Hs = H.copy()
    Hs.remove_edges_from(nx.selfloop_edges(Hs))
    for k in (None, 0, 1, 2, 3):
        assert lg.k_core(G, k, engine=engine, check=True).vertices.tolist() == sorted(nx.k_core(Hs, k).nodes)
    lg.k_hop(G, [1, 5], 2, engine=engine, check=True)


def test_subgraph_keeps_weights():
    G = lg.generators.rmat(8, 8, seed=2, directed=True)
    u, v = G.edges()
    W = lg.Graph.from_edges(u, v, w=np.linspace(0.0, 2.0, u.size), n=G.n, directed=True)
    ids = np.arange(0, G.n, 3)
    H, got = W.subgraph(ids[::-1])
    assert np.array_equal(got, ids) and H.weighted and H.directed
    check_subgraph(W, got, H)
    mask = np.zeros(G.n, bool)
    mask[ids] = True
    assert W.subgraph(mask).graph == H
    with pytest.raises(lg.VerificationError):
        check_subgraph(W, got, lg.Graph.from_edges([], [], n=got.size, directed=True))


def test_bad_input():
    P = lg.generators.path(5)
    with pytest.raises(lg.InvalidArgumentError, match="k"):
        lg.k_hop(P, 0, -1)
    with pytest.raises(lg.InvalidSourceError):
        lg.ego_graph(P, 9)
    with pytest.raises(lg.InvalidArgumentError, match="radius"):
        lg.ego_graph(P, 0, -2)
    with pytest.raises(lg.InvalidArgumentError, match="shape"):
        P.subgraph(np.ones(3, bool))
    with pytest.raises(lg.InvalidSourceError):
        P.subgraph([7])


# ---------------------------------------------------------------------- cases of the suite-wide tests
# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "hop_reach": ("directed", lambda G, E: {"hops": lg.k_hop(G, [0, 5], 3, engine=E)}),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "k_hop": (KARATE, ([0], 1), {}, lambda r: r[:-1]),
    "ego_graph": (KARATE, (0,), {}, lambda r: r._replace(vertices=r.vertices[:-1])),
    "k_core": (KARATE, (), {}, lambda r: r._replace(vertices=bump(r.vertices, -1))),
}
