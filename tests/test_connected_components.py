import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph.verify import check_cc

from .graphs import DIRECTED, REAL, SMALL, bump, real


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_graphs(engine, name):
    G = SMALL[name]()
    labels = lg.connected_components(G, engine=engine)
    assert labels.dtype == np.int64 and labels.shape == (G.n,)
    check_cc(G, labels)


def test_directed_gives_weak_components(engine):
    G = lg.Graph.from_edges([1, 2, 4], [0, 0, 5], n=6, directed=True)
    np.testing.assert_array_equal(lg.connected_components(G, engine=engine), [0, 0, 0, 3, 4, 4])


@given(
    n=st.integers(0, 60),
    edges=st.lists(st.tuples(st.integers(0, 59), st.integers(0, 59)), max_size=80),
    directed=st.booleans(),
    perm_seed=st.integers(0, 2**31),
)
@settings(max_examples=80, deadline=None)
def test_property_random_graphs(n, edges, directed, perm_seed):
    if n == 0:
        edges = []
    edges = [(u % max(n, 1), v % max(n, 1)) for u, v in edges]
    # relabel randomly: FastSV must not depend on the ids being "nice"
    p = np.random.default_rng(perm_seed).permutation(n)
    u = p[[e[0] for e in edges]] if edges else []
    v = p[[e[1] for e in edges]] if edges else []
    G = lg.Graph.from_edges(u, v, n=n, directed=directed)
    labels = lg.connected_components(G)
    check_cc(G, labels)


@pytest.mark.data
@pytest.mark.parametrize("name", REAL)
def test_real_graphs(shared_data, name):
    G = real(shared_data, name)
    labels = lg.connected_components(G)
    check_cc(G, labels)


def test_rejects_non_graph():
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        lg.connected_components(np.eye(3))


# ---------------------------------------------------------------------- cases of the suite-wide tests
# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "fastsv_round": ("undirected", lambda G, E: {"labels": lg.connected_components(G, engine=E)}),
    "component_labels": ("undirected", lambda G, E: {"labels": lg.connected_components(G, engine=E)}),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "connected_components": (DIRECTED, (), {}, lambda r: bump(r, np.argmax(r > 0) if (r > 0).any() else -1)),
}
