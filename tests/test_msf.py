import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph import generators
from la_graph.verify import check_msf

from .engines import algebra_only
from .graphs import SMALL, WEIGHTED, real


DEFAULT = algebra_only("cpu")  # the CPU primitives, every step as algebra


def kruskal(G):
    """The reference forest: Kruskal over the documented order (weight, min(u, v), max(u, v))."""
    rows, cols = G.edges()
    w = G.weights if G.weighted else np.ones(G.nnz)
    up = rows < cols
    lo, hi, w = rows[up].astype(np.int64), cols[up].astype(np.int64), w[up]
    parent = list(range(G.n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    keep = []
    for k in np.lexsort((hi, lo, w)).tolist():
        a, b = find(int(lo[k])), find(int(hi[k]))
        if a != b:
            parent[max(a, b)] = min(a, b)
            keep.append(k)
    keep = np.sort(np.array(keep, dtype=np.int64))  # entries are in (lo, hi) order
    return lo[keep], hi[keep], w[keep]


def check(G, r, reference=True):
    assert r.u.dtype == np.int64 and r.v.dtype == np.int64 and r.labels.dtype == np.int64
    assert r.weight.dtype == np.float64 and r.labels.shape == (G.n,)
    assert np.all(r.u < r.v)
    check_msf(G, r)
    if reference:
        u, v, w = kruskal(G)
        np.testing.assert_array_equal(r.u, u)  # the unique forest, sorted by (u, v)
        np.testing.assert_array_equal(r.v, v)
        np.testing.assert_array_equal(r.weight, w)


UNDIRECTED = sorted(k for k in SMALL if not SMALL[k]().directed)

FAMILIES = {
    "circulant": lambda w: generators.circulant(300, [1, 5, 17], weights=w, seed=1),
    "hypercube": lambda w: generators.hypercube(8, weights=w, seed=2),
    "caveman": lambda w: generators.caveman(12, 9, weights=w, seed=3),
    "connected_caveman": lambda w: generators.connected_caveman(12, 9, weights=w, seed=4),
    "erdos_renyi": lambda w: generators.erdos_renyi(400, 0.02, weights=w, seed=5),
    "erdos_renyi_sparse": lambda w: generators.erdos_renyi(500, 0.003, weights=w, seed=6),
    "rmat": lambda w: generators.rmat(10, 8, weights=w, seed=7),
    "grid": lambda w: generators.grid_2d(20, 15, weights=w, seed=8),
}
WEIGHTS = {"ints": (1, 1000), "few": (1, 3), "equal": (7, 7), "unweighted": None, "unique": "unique",
           "uniform": "uniform", "negative": (-50, 50)}


@pytest.mark.parametrize("name", UNDIRECTED)
def test_small_graphs(engine, name):
    G = SMALL[name]()
    check(G, lg.minimum_spanning_forest(G, engine=engine))


@pytest.mark.parametrize("weights", sorted(WEIGHTS))
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_families(engine, family, weights):
    G = FAMILIES[family](WEIGHTS[weights])
    r = lg.minimum_spanning_forest(G, engine=engine)
    check(G, r)
    if family == "caveman":
        assert r.ncomponents == 12  # a forest of 12 cliques


@pytest.mark.parametrize("weights", ["few", "equal", "uniform"])
@pytest.mark.parametrize("family", ["connected_caveman", "rmat", "hypercube"])
def test_plain_default_steps(family, weights):
    """base.py's primitive msf steps give the same forest as the engine's fused ones."""
    G = FAMILIES[family](WEIGHTS[weights])
    a = lg.minimum_spanning_forest(G, engine=DEFAULT)
    b = lg.minimum_spanning_forest(G)
    check(G, a)
    for x, y in zip((a.u, a.v, a.weight, a.labels), (b.u, b.v, b.weight, b.labels)):
        np.testing.assert_array_equal(x, y)
    assert a.total_weight == b.total_weight


@given(
    n=st.integers(0, 40),
    edges=st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39), st.integers(-2, 2)), max_size=120),
    perm_seed=st.integers(0, 2**31),
)
@settings(max_examples=120, deadline=None)
def test_property_random_graphs(n, edges, perm_seed):
    if n == 0:
        edges = []
    # few distinct weights (ties everywhere), self-loops and multi-edges allowed, ids shuffled
    p = np.random.default_rng(perm_seed).permutation(max(n, 1))
    u = p[[e[0] % max(n, 1) for e in edges]] if edges else np.zeros(0, np.int64)
    v = p[[e[1] % max(n, 1) for e in edges]] if edges else np.zeros(0, np.int64)
    w = np.array([e[2] for e in edges], dtype=float)
    G = lg.Graph.from_edges(u, v, w, n=n)
    r = lg.minimum_spanning_forest(G)
    check(G, r)
    d = lg.minimum_spanning_forest(G, engine=DEFAULT)
    np.testing.assert_array_equal(d.u, r.u)
    np.testing.assert_array_equal(d.v, r.v)


def test_example_forest():
    G = lg.Graph.from_edges([0, 1, 0, 3], [1, 2, 2, 4], w=[1.0, 2.0, 2.0, 5.0], n=6)
    r = lg.minimum_spanning_forest(G)
    assert (r.u.tolist(), r.v.tolist(), r.weight.tolist()) == ([0, 0, 3], [1, 2, 4], [1.0, 2.0, 5.0])
    assert r.total_weight == 8.0 and r.ncomponents == 3
    assert r.labels.tolist() == lg.connected_components(G).tolist()


def test_ties_broken_by_endpoints(engine):
    # a 4-cycle of equal weights: the edge (2, 3) is the largest in the order and is left out
    G = lg.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], w=[4.0] * 4)
    r = lg.minimum_spanning_forest(G, engine=engine)
    assert list(zip(r.u.tolist(), r.v.tolist())) == [(0, 1), (0, 3), (1, 2)]


def test_self_loops_ignored_and_multi_edges_keep_min(engine):
    G = lg.Graph.from_edges([0, 0, 1, 1, 2], [0, 1, 0, 2, 2], w=[-5.0, 3.0, 2.0, 1.0, -9.0])
    r = lg.minimum_spanning_forest(G, engine=engine)
    assert list(zip(r.u.tolist(), r.v.tolist(), r.weight.tolist())) == [(0, 1, 2.0), (1, 2, 1.0)]
    assert r.total_weight == 3.0


def test_negative_zero_and_float_weights(engine):
    G = lg.Graph.from_edges([0, 1, 2, 0, 1], [1, 2, 3, 2, 3], w=[-1.5, 0.0, -0.0, 2.25, -1e300])
    r = lg.minimum_spanning_forest(G, engine=engine)
    check(G, r)
    assert r.total_weight == -1e300 - 1.5


def test_huge_integer_weights(engine):
    G = lg.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], w=[2.0**60, 1.0, 2.0**60 + 2**10, -(2.0**62)])
    check(G, lg.minimum_spanning_forest(G, engine=engine))


def test_a_total_weight_past_float64_checks(engine):
    """The total 2e308 is inf in float64; the checker compared inf - inf (nan) with its tolerance and failed.
    The total itself is now a NumericRangeError when asked for (tests/test_numeric_range.py)."""
    G = lg.Graph.from_edges([0, 1, 2], [1, 2, 3], w=[1e308, 1e308, 1.0])
    r = lg.minimum_spanning_forest(G, engine=engine)
    check_msf(G, r)
    with pytest.raises(lg.NumericRangeError):
        r.total_weight


def test_equal_weights_on_a_larger_graph_terminates(engine):
    G = generators.rmat(13, 16, seed=9, weights=(1, 1))
    check(G, lg.minimum_spanning_forest(G, engine=engine), reference=False)


def test_rejects_directed(engine):
    G = lg.Graph.from_edges([0, 1], [1, 2], directed=True)
    with pytest.raises(lg.InvalidGraphError, match=r"undirected graph.*G\.to_undirected\(\)"):
        lg.minimum_spanning_forest(G, engine=engine)
    check(G.to_undirected(), lg.minimum_spanning_forest(G.to_undirected(), engine=engine))


def test_rejects_non_graph():
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        lg.minimum_spanning_forest(np.eye(3))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_weights_cannot_reach_msf(bad):
    with pytest.raises(lg.InvalidGraphError, match="weights must be finite"):
        lg.Graph.from_edges([0, 1], [1, 2], w=[1.0, bad])


# ---------------------------------------------------------------------- the checker
def test_checker_catches_wrong_results():
    G = lg.Graph.from_edges([0, 1, 0, 2], [1, 2, 2, 3], w=[1.0, 2.0, 3.0, 1.0], n=5)
    r = lg.minimum_spanning_forest(G)
    check_msf(G, r)
    from dataclasses import replace

    with pytest.raises(lg.VerificationError, match="labels|label"):
        check_msf(G, replace(r, labels=np.array([0, 0, 0, 0, 0])))
    with pytest.raises(lg.VerificationError, match=r"result.weight\[0\]"):
        check_msf(G, replace(r, weight=r.weight + 1))
    with pytest.raises(lg.VerificationError, match="reported weight"):
        check_msf(G, replace(r, _total=1.0))
    heavier = replace(r, u=np.array([0, 0, 2]), v=np.array([1, 2, 3]), weight=np.array([1.0, 3.0, 1.0]),
                      _total=5.0)
    with pytest.raises(lg.VerificationError, match="cycle property|forest weight"):
        check_msf(G, heavier)


def test_cycle_property_names_the_edge():
    from la_graph.verify import _check_cycle_property

    G = lg.Graph.from_edges([0, 1, 0], [1, 2, 2], w=[1.0, 2.0, 3.0])
    with pytest.raises(lg.VerificationError, match=r"edge \(1, 2\) of weight 2.0 .*\(cycle property\)"):
        _check_cycle_property(G, np.array([0, 0]), np.array([1, 2]), np.array([1.0, 3.0]))


# ---------------------------------------------------------------------- real graphs
def with_weights(G, seed):
    """``G`` made undirected with integer weights 1..999 (one per edge)."""
    G = G.to_undirected()
    rows, cols = G.edges()
    up = rows < cols
    w = np.random.default_rng(seed).integers(1, 1000, size=int(up.sum())).astype(float)
    return lg.Graph.from_edges(rows[up], cols[up], w, n=G.n)


@pytest.mark.data
def test_road_graph_real_weights(shared_data, engine):
    G = real(shared_data, "dimacs/rome99.gr").to_undirected()
    assert G.weighted
    check(G, lg.minimum_spanning_forest(G, engine=engine))


@pytest.mark.data
@pytest.mark.parametrize("name", ["snap/facebook_combined.txt.gz", "snap/email-Eu-core.txt.gz",
                                  "snap/CA-GrQc.txt.gz", "snap/as-caida20071105.txt.gz",
                                  "snap/p2p-Gnutella31.txt.gz", "suitesparse/usroads-48.mtx.gz"])
def test_real_graphs_generated_weights(shared_data, engine, name):
    G = with_weights(real(shared_data, name), seed=len(name))
    r = lg.minimum_spanning_forest(G, engine=engine)
    check(G, r, reference=G.nedges < 100_000)


@pytest.mark.parametrize("share", [0.0, 0.3, 1.0])
@pytest.mark.parametrize("weights", ["few", "ints", "uniform", "equal"])
@pytest.mark.parametrize("family", ["rmat", "erdos_renyi", "connected_caveman"])
def test_cpu_light_edges_first(monkeypatch, family, weights, share):
    """The CPU engine's Kruskal filter (light edges first, heavy ones later) at several cuts."""
    from la_graph.engines.cpu.fused import msf as cpu_msf

    monkeypatch.setattr(cpu_msf, "LIGHT_PER_VERTEX", share)
    G = FAMILIES[family](WEIGHTS[weights])
    check(G, lg.minimum_spanning_forest(G, engine="cpu"))


# ---------------------------------------------------------------------- cases of the suite-wide tests

def _msf(G, E):
    r = lg.minimum_spanning_forest(G, engine=E)
    check_msf(G, r)
    return {"u": r.u, "v": r.v, "weight": r.weight, "labels": r.labels}


# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "msf_edges": ("weighted", _msf),
    "msf_round": ("weighted", _msf),
    "msf_forest": ("weighted", _msf),
    "msf_labels": ("weighted", _msf),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "minimum_spanning_forest": (WEIGHTED, (), {}, lambda r: dataclasses.replace(r, _total=r.total_weight + 1)),
}
