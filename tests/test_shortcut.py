import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from hypothesis import given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph import generators as gen
from la_graph.algorithms.shortcut import _group_of, _group_sizes, search_schedule
from la_graph.verify import check_reachability

from .graphs import CHAIN, SMALL, real


def _dist(G):
    return csgraph.shortest_path(G.to_scipy(), directed=True, unweighted=True)


def _check_shortcuts(G, H):
    """Same transitive closure, no distance longer, G's edges kept."""
    assert H.directed and H.n == G.n
    dG, dH = _dist(G), _dist(H)
    np.testing.assert_array_equal(np.isfinite(dH), np.isfinite(dG))
    assert (dH <= dG).all()
    A, B = G.to_scipy().astype(bool), H.to_scipy().astype(bool)
    assert (A > B).nnz == 0  # every edge of G is in H


def _dag_grid(rows, cols):
    g = gen.grid_2d(rows, cols)
    u, v = g.edges()
    keep = u < v
    return lg.Graph.from_edges(u[keep], v[keep], n=g.n, directed=True)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_graphs_keep_closure(engine, name):
    G = SMALL[name]()
    H = lg.shortcut(G, seed=3, engine=engine)
    _check_shortcuts(G, H)


def test_path_and_grid_get_shallower(engine):
    P = lg.Graph.from_edges(np.arange(199), np.arange(1, 200), directed=True)
    H = lg.shortcut(P, seed=0, engine=engine)
    _check_shortcuts(P, H)
    assert lg.bfs(H, 0).nlevels < lg.bfs(P, 0).nlevels / 4
    G = _dag_grid(30, 30)
    H = lg.shortcut(G, seed=0, engine=engine)
    _check_shortcuts(G, H)
    assert lg.bfs(H, 0).nlevels < lg.bfs(G, 0).nlevels / 2


def test_engine_independent_and_seeded(engine):
    G = SMALL["uniform_directed"]()
    H = lg.shortcut(G, seed=5, engine=engine)
    assert H == lg.shortcut(G, seed=5, engine="cpu")
    assert H == lg.shortcut(G, seed=5, engine=engine)


@pytest.mark.parametrize("kw", [dict(depth=1), dict(depth=3, layers=3), dict(distance=3), dict(eps=0.25),
                                dict(rounds=2), dict(runs=2, depth=2)])
def test_parameters_keep_closure(kw):
    G = SMALL["rmat_directed"]()
    _check_shortcuts(G, lg.shortcut(G, seed=1, **kw))


@given(
    n=st.integers(1, 30),
    edges=st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29)), max_size=90),
    directed=st.booleans(),
    seed=st.integers(0, 1000),
    depth=st.integers(1, 6),
    distance=st.integers(1, 3),
)
@settings(max_examples=60, deadline=None)
def test_property_random_graphs(n, edges, directed, seed, depth, distance):
    u = [a % n for a, _ in edges]
    v = [b % n for _, b in edges]
    G = lg.Graph.from_edges(u, v, n=n, directed=directed)
    _check_shortcuts(G, lg.shortcut(G, seed=seed, depth=depth, distance=distance, engine="cpu"))


@pytest.mark.parametrize("name", ["dimacs/rome99.gr", "snap/cit-HepTh.txt.gz"])
def test_real_graphs_sampled_sources(engine, shared_data, name):
    if engine.name == "reference" and name.startswith("snap/"):
        # a minute of CI's ten; rome99 runs the same algebra on the reference engine
        pytest.skip("the reference engine's shortcuts on cit-HepTh take about 60 s")
    G = real(shared_data, name)
    H = lg.shortcut(G, seed=0, engine=engine)
    sources = np.random.default_rng(2).choice(G.n, 12, replace=False)
    R = lg.reachability(G, sources, engine=engine)
    check_reachability(G, sources, R)
    check_reachability(H, sources, R)  # H reaches exactly what G reaches
    assert lg.bfs(H, sources=sources, parent=False).level.max() <= lg.bfs(G, sources=sources, parent=False).level.max()


def test_groups_follow_fineman():
    prefix = np.cumsum(_group_sizes(1000, 1.0))
    sizes = np.bincount(_group_of(np.arange(1000), np.full(1000, 1000), prefix))[1:]
    assert sizes.tolist() == [2, 4, 8, 16, 32, 64, 128, 246, 246, 128, 64, 32, 16, 8, 4, 2]
    prefix = np.cumsum(_group_sizes(50, 0.5))
    assert prefix[0] == 1  # floor(1.5) = 1: the first group is a single pivot
    for s in range(1, 51):
        g = _group_of(np.arange(s), np.full(s, s), prefix)
        assert (np.diff(g) >= 0).all() and g.min() == 1  # groups are consecutive runs of the permutation
    sched = search_schedule(1000)
    assert sched["N_k"] == 2 * sched["k"] and sched["radius"] == sched["depth"] * sched["N_k"] * 2 - 1


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(eps=0), "eps must be > 0, got 0"),
        (dict(eps=1.5), "eps must be"),
        (dict(eps="x"), "eps must be"),
        (dict(layers=1), "layers must be an integer >= 2, got 1"),
        (dict(distance=0), "distance must be an integer >= 1, got 0"),
        (dict(distance=2.0), "distance must be an integer"),
        (dict(depth=0), "depth must be an integer >= 1"),
        (dict(rounds=0), "rounds must be"),
        (dict(runs=True), "runs must be"),
        (dict(seed=-1), "seed must be an integer >= 0, got -1"),
        (dict(seed=1.5), "seed must be"),
    ],
)
def test_bad_parameters(kw, match):
    G = SMALL["directed_path"]()
    with pytest.raises(lg.InvalidArgumentError, match=match):
        lg.shortcut(G, **kw)


def test_bad_graph():
    with pytest.raises(lg.InvalidGraphError):
        lg.shortcut(np.eye(3))


# ---------------------------------------------------------------------- cases of the suite-wide tests
# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "shortcut": (CHAIN, (), {"seed": 1},
                 lambda H: lg.Graph.from_edges(*(np.r_[e, x] for e, x in zip(H.edges(), (40, 0))), n=41,
                                               directed=True)),
}
