import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph.verify import check_mis

from .graphs import KARATE, REAL, SMALL, real


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_graphs(engine, name):
    G = SMALL[name]().to_undirected()
    mask = lg.maximal_independent_set(G, engine=engine)
    assert mask.dtype == np.bool_ and mask.shape == (G.n,)
    check_mis(G, mask)


def test_same_seed_same_set_other_seed_other_set(engine):
    G = lg.generators.rmat(10, 8, seed=1)
    a = lg.maximal_independent_set(G, seed=7, engine=engine)
    np.testing.assert_array_equal(lg.maximal_independent_set(G, seed=7, engine=engine), a)
    np.testing.assert_array_equal(lg.maximal_independent_set(G, seed=np.uint64(7), engine=engine), a)
    sets = {lg.maximal_independent_set(G, seed=s, engine=engine).tobytes() for s in range(5)}
    assert len(sets) == 5


def test_same_set_on_every_engine(engine):
    G = lg.generators.grid_2d(30, 20)
    np.testing.assert_array_equal(lg.maximal_independent_set(G, seed=3, engine=engine),
                                  lg.maximal_independent_set(G, seed=3, engine="cpu"))


def test_known_answer():
    # priorities for seed 0 on 4 vertices; the highest-ranked of each edge joins first
    G = lg.Graph.from_edges([0], [1], n=4)
    assert lg.maximal_independent_set(G).tolist() == [True, False, True, True]


def test_isolated_vertices_join(engine):
    G = lg.Graph.from_edges([0, 1], [1, 2], n=6)
    mask = lg.maximal_independent_set(G, engine=engine)
    assert mask[3:].all()
    check_mis(G, mask)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_no_edges(engine, n):
    G = lg.Graph.from_edges([], [], n=n)
    assert lg.maximal_independent_set(G, engine=engine).tolist() == [True] * n


def test_self_loops_are_ignored(engine):
    # 0 has only a loop: isolated, joins; 1-2 with loops on both: exactly one of them joins
    G = lg.Graph.from_edges([0, 1, 1, 2], [0, 1, 2, 2], n=3)
    for seed in range(6):
        mask = lg.maximal_independent_set(G, seed=seed, engine=engine)
        assert mask[0] and mask[1] != mask[2]
        check_mis(G, mask)
    # loops never change the set
    H = lg.generators.rmat(8, 8, seed=4)
    u, v = H.edges()
    loops = np.arange(0, H.n, 2)
    HL = lg.Graph.from_edges(np.r_[u, loops], np.r_[v, loops], n=H.n)
    np.testing.assert_array_equal(lg.maximal_independent_set(HL, seed=2, engine=engine),
                                  lg.maximal_independent_set(H, seed=2, engine=engine))


def test_complete_and_star(engine):
    assert lg.maximal_independent_set(lg.generators.complete(9), engine=engine).sum() == 1
    S = lg.generators.star(10)
    mask = lg.maximal_independent_set(S, engine=engine)
    check_mis(S, mask)
    assert mask.sum() in (1, 9)


@given(
    n=st.integers(0, 60),
    edges=st.lists(st.tuples(st.integers(0, 59), st.integers(0, 59)), max_size=150),
    seed=st.integers(0, 2**64 - 1),
)
@settings(max_examples=100, deadline=None)
def test_property_random_graphs(n, edges, seed):
    if n == 0:
        edges = []
    u = [a % n for a, _ in edges]
    v = [b % n for _, b in edges]
    G = lg.Graph.from_edges(u, v, n=n)
    check_mis(G, lg.maximal_independent_set(G, seed=seed))


@pytest.mark.data
@pytest.mark.parametrize("name", REAL)
def test_real_graphs(shared_data, name):
    G = real(shared_data, name).to_undirected()
    check_mis(G, lg.maximal_independent_set(G, seed=1))


def test_rejects_directed_graph():
    G = lg.Graph.from_edges([0], [1], directed=True)
    with pytest.raises(lg.InvalidGraphError, match="needs an undirected graph"):
        lg.maximal_independent_set(G)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True, "1", None])
def test_rejects_bad_seed(seed):
    G = lg.Graph.from_edges([0], [1])
    with pytest.raises(lg.InvalidArgumentError, match="seed must be"):
        lg.maximal_independent_set(G, seed=seed)


def test_rejects_bad_input():
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        lg.maximal_independent_set(np.eye(3))
    with pytest.raises(lg.InvalidArgumentError, match="output must be one of"):
        lg.maximal_independent_set(lg.Graph.from_edges([0], [1]), output="list")


# ---------------------------------------------------------------------- cases of the suite-wide tests

def _mis(G, E):
    G = G.to_undirected() if G.directed else G        # the real graphs are read as edge lists
    mask = lg.maximal_independent_set(G, seed=3, engine=E)
    check_mis(G, mask)
    return {"mask": mask}


# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "vertex_priorities": ("undirected", _mis),
    "luby_round": ("undirected", _mis),
    "luby": ("undirected", _mis),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "maximal_independent_set": (KARATE, (), {}, lambda r: np.r_[~r[:1], r[1:]]),
}
