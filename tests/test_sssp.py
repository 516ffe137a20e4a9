import dataclasses
import gzip

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph
from hypothesis import given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph import generators
from la_graph.verify import check_sssp

from .engines import algebra_only
from .graphs import SMALL, WEIGHTED, bump, real


DEFAULT = algebra_only("cpu")  # the CPU primitives, every step as algebra
METHODS = ["auto", "bellman_ford", "delta_stepping"]


def weighted(G, lo=0, hi=9, seed=0, signed=False):
    """``G`` with random integer weights in ``lo..hi`` (one per undirected edge; directed stays directed)."""
    rng = np.random.default_rng(seed)
    u, v = G.edges()
    if not G.directed:
        keep = u <= v
        u, v = u[keep], v[keep]
    w = rng.integers(lo, hi + 1, u.size).astype(float)
    return lg.Graph.from_edges(u, v, w, n=G.n, directed=G.directed)


def assert_negative_cycle(G, exc):
    """The error names a vertex on a cycle of real edges with negative total weight."""
    cyc = exc.cycle
    assert exc.vertex in cyc and len(set(cyc)) == len(cyc) >= 1
    A = G.to_scipy().tocsr()
    total = 0.0
    for a, b in zip(cyc, cyc[1:] + cyc[:1]):
        assert A[a, b] != 0 or b in A.indices[A.indptr[a]:A.indptr[a + 1]], (a, b)
        total += A[a, b]
    assert total < 0
    assert str(exc.vertex) in str(exc)


# ---------------------------------------------------------------- correctness
@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("method", METHODS)
def test_small_graphs(engine, name, method):
    G = weighted(SMALL[name](), seed=len(name))
    for s in sorted({0, G.n // 2, G.n - 1}) if G.n else []:
        r = lg.sssp(G, s, method=method, engine=engine)
        check_sssp(G, s, r.distance, r.parent)
        assert r.distance.dtype == np.float64 and r.parent.dtype == np.int64
        assert r.source == s and r.sources is None


@pytest.mark.parametrize("name", ["rmat", "rmat_directed", "grid", "connected_caveman", "uniform_directed",
                                  "directed_cycle", "self_loop"])
@pytest.mark.parametrize("method", ["bellman_ford", "delta_stepping"])
def test_default_steps(name, method):
    """base.py's plain steps agree with the checker and with the CPU engine's fused ones."""
    G = weighted(SMALL[name](), seed=3)
    for delta in (None, 0.5, 4.0):
        r = lg.sssp(G, 1, method=method, delta=delta, engine=DEFAULT)
        check_sssp(G, 1, r.distance, r.parent)
        np.testing.assert_array_equal(r.distance, lg.sssp(G, 1, method=method, delta=delta, engine="cpu").distance)
    srcs = np.array([0, G.n - 1, 1, 0])
    r = lg.sssp(G, sources=srcs, method=method, engine=DEFAULT)
    check_sssp(G, srcs, r.distance, r.parent)


@pytest.mark.parametrize("delta", [1e-3, 0.5, 1.0, 3.0, 7.5, 100.0, 1e12])
def test_delta_changes_no_distance(engine, delta):
    G = weighted(SMALL["rmat"](), lo=0, hi=20, seed=5)
    r = lg.sssp(G, 7, delta=delta, engine=engine)
    assert r.method == "delta_stepping" and r.delta >= delta
    check_sssp(G, 7, r.distance, r.parent)


def test_float_weights_and_zero_weight_cycles(engine):
    # zero-weight cycles: the parents must still form a tree (checked by check_sssp)
    G = lg.Graph.from_edges([0, 1, 2, 3, 2, 4, 5], [1, 2, 3, 1, 4, 5, 4], w=[0.1, 0.0, 0.0, 0.0, 0.3, 0.0, 0.0],
                            directed=True)
    for method in METHODS:
        r = lg.sssp(G, 0, method=method, engine=engine)
        check_sssp(G, 0, r.distance, r.parent)
    G = generators.rmat(9, 8, seed=7, directed=True, weights="uniform")
    for method in METHODS:
        r = lg.sssp(G, 3, method=method, engine=engine)
        check_sssp(G, 3, r.distance, r.parent)


@pytest.mark.parametrize("name", ["rmat", "rmat_directed", "grid", "two_stars", "directed_cycle"])
@pytest.mark.parametrize("method", METHODS)
def test_multi_source(engine, name, method):
    G = weighted(SMALL[name](), seed=2)
    srcs = [0, G.n - 1, 1, 0]  # a repeated source is allowed: one row each
    r = lg.sssp(G, sources=srcs, method=method, engine=engine)
    assert r.distance.shape == (4, G.n) and r.parent.shape == (4, G.n)
    assert r.source is None
    np.testing.assert_array_equal(r.sources, srcs)
    check_sssp(G, np.asarray(srcs), r.distance, r.parent)
    for i, s in enumerate(srcs):
        np.testing.assert_array_equal(r.distance[i], lg.sssp(G, s, method=method, engine=engine).distance)
    assert lg.sssp(G, sources=srcs, parent=False, engine=engine).parent is None


@pytest.mark.parametrize("name", ["path", "grid", "rmat_directed", "two_stars", "isolated"])
def test_unweighted_is_bfs(engine, name):
    G = SMALL[name]()
    b = lg.bfs(G, 1, engine=engine)
    for method in METHODS:
        r = lg.sssp(G, 1, method=method, engine=engine)
        assert r.method == "bfs"
        np.testing.assert_array_equal(r.distance, np.where(b.level >= 0, b.level, np.inf))
        check_sssp(G, 1, r.distance, r.parent)
    r = lg.sssp(G, sources=[1, 0], parent=False, engine=engine)
    check_sssp(G, np.array([1, 0]), r.distance)
    assert r.parent is None


def test_negative_weights_without_cycles(engine):
    rng = np.random.default_rng(0)
    n = 200
    u = rng.integers(0, n, 1200)
    v = rng.integers(0, n, 1200)
    keep = u < v  # a DAG: no cycles at all
    G = lg.Graph.from_edges(u[keep], v[keep], rng.integers(-20, 20, keep.sum()).astype(float), n=n, directed=True)
    for method in ("auto", "bellman_ford"):
        r = lg.sssp(G, 0, method=method, engine=engine)
        assert r.method == "bellman_ford"
        check_sssp(G, 0, r.distance, r.parent)
    r = lg.sssp(G, sources=[0, 5, 17], engine=engine)
    check_sssp(G, np.array([0, 5, 17]), r.distance, r.parent)
    r = lg.sssp(G, 3, engine=DEFAULT)
    check_sssp(G, 3, r.distance, r.parent)


# ---------------------------------------------------------------- negative cycles
@pytest.mark.parametrize("eng", ["cpu", DEFAULT], ids=["cpu", "default"])
def test_negative_cycle_is_located(eng):
    # 0 -> 1 -> 2 -> 3 -> 1 (weight -1 around), plus a tail 3 -> 4
    G = lg.Graph.from_edges([0, 1, 2, 3, 3], [1, 2, 3, 1, 4], w=[5.0, 2.0, 1.0, -4.0, 1.0], directed=True)
    for kwargs in ({"source": 0}, {"sources": [4, 0]}):
        with pytest.raises(lg.NegativeCycleError, match="negative cycle is reachable from source 0") as info:
            lg.sssp(G, engine=eng, **kwargs)
        assert sorted(info.value.cycle) == [1, 2, 3]
        assert_negative_cycle(G, info.value)
    # not reachable from 4: fine
    r = lg.sssp(G, 4, engine=eng)
    check_sssp(G, 4, r.distance, r.parent)
    # a negative self-loop is a cycle of one edge
    H = lg.Graph.from_edges([0, 1], [1, 1], w=[1.0, -1.0], directed=True)
    with pytest.raises(lg.NegativeCycleError) as info:
        lg.sssp(H, 0, engine=eng)
    assert info.value.cycle == [1] and info.value.vertex == 1
    # an undirected negative edge is a negative cycle of two edges
    U = lg.Graph.from_edges([0, 1], [1, 2], w=[3.0, -1.0])
    with pytest.raises(lg.NegativeCycleError) as info:
        lg.sssp(U, 0, engine=eng)
    assert sorted(info.value.cycle) == [1, 2]
    with pytest.raises(ValueError):  # NegativeCycleError is a ValueError
        lg.sssp(U, 0, engine=eng)


@given(
    n=st.integers(1, 25),
    edges=st.lists(st.tuples(st.integers(0, 24), st.integers(0, 24), st.integers(-6, 12)), max_size=70),
    directed=st.booleans(),
    data=st.data(),
)
@settings(max_examples=60, deadline=None)
def test_property_random_graphs(n, edges, directed, data):
    u = [a % n for a, _, _ in edges]
    v = [b % n for _, b, _ in edges]
    w = [float(c) for _, _, c in edges]
    G = lg.Graph.from_edges(u, v, w, n=n, directed=directed)
    s = data.draw(st.integers(0, n - 1))
    eng = data.draw(st.sampled_from(["cpu", DEFAULT]))
    A = G.to_scipy()
    try:
        ref = csgraph.bellman_ford(A, directed=True, indices=s)
    except csgraph.NegativeCycleError:
        ref = None
    if ref is None:
        with pytest.raises(lg.NegativeCycleError) as info:
            lg.sssp(G, s, engine=eng)
        assert_negative_cycle(G, info.value)
        return
    r = lg.sssp(G, s, engine=eng)
    check_sssp(G, s, r.distance, r.parent)
    if G.nnz and G.weights.min() >= 0:
        delta = data.draw(st.sampled_from([None, 0.25, 1.0, 5.0]))
        r = lg.sssp(G, s, method="delta_stepping", delta=delta, engine=eng)
        check_sssp(G, s, r.distance, r.parent)
    srcs = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4)))
    try:
        csgraph.bellman_ford(A, directed=True, indices=srcs)
    except csgraph.NegativeCycleError:
        with pytest.raises(lg.NegativeCycleError) as info:
            lg.sssp(G, sources=srcs, engine=eng)
        assert_negative_cycle(G, info.value)
        return
    r = lg.sssp(G, sources=srcs, engine=eng)
    check_sssp(G, srcs, r.distance, r.parent)


# ---------------------------------------------------------------- real graphs
def _bitcoin(shared_data):
    with gzip.open(shared_data / "snap/soc-sign-bitcoinotc.csv.gz", "rt") as f:
        a = np.loadtxt(f, delimiter=",")
    return a[:, 0].astype(np.int64), a[:, 1].astype(np.int64), a[:, 2]


@pytest.mark.data
def test_bitcoin_signed_weights(shared_data):
    u, v, w = _bitcoin(shared_data)
    G = lg.Graph.from_edges(u, v, w, directed=True)
    s = int(np.argmax(G.out_degree))
    with pytest.raises(lg.NegativeCycleError) as info:
        lg.sssp(G, s)
    assert_negative_cycle(G, info.value)
    with pytest.raises(lg.NegativeCycleError) as info:
        lg.sssp(G, sources=[s, 1])
    assert_negative_cycle(G, info.value)
    with pytest.raises(lg.InvalidArgumentError, match="non-negative weights"):
        lg.sssp(G, s, method="delta_stepping")
    for W in (np.abs(w), w + 11):  # absolute values; shifted to be positive
        H = lg.Graph.from_edges(u, v, W, directed=True)
        for method in ("auto", "bellman_ford"):
            r = lg.sssp(H, s, method=method)
            check_sssp(H, s, r.distance, r.parent)
        srcs = np.array([s, 1, 7])
        r = lg.sssp(H, sources=srcs)
        check_sssp(H, srcs, r.distance, r.parent)


@pytest.mark.data
def test_rome99(shared_data):
    G = real(shared_data, "dimacs/rome99.gr")
    assert G.weighted and G.directed
    for method in METHODS:
        for s in (0, 1234, G.n - 1):
            r = lg.sssp(G, s, method=method)
            check_sssp(G, s, r.distance, r.parent)
    srcs = np.array([0, 1234, G.n - 1])
    r = lg.sssp(G, sources=srcs)
    check_sssp(G, srcs, r.distance, r.parent)
    r = lg.sssp(G, 17, engine=DEFAULT)
    check_sssp(G, 17, r.distance, r.parent)


@pytest.mark.data
@pytest.mark.parametrize("name, weights", [
    ("snap/Wiki-Vote.txt.gz", (1, 255)),
    ("snap/CA-HepPh.txt.gz", (0, 50)),
    ("suitesparse/usroads-48.mtx.gz", (1, 255)),
    ("suitesparse/delaunay_n14.mtx.gz", "float"),
])
def test_real_graphs_with_generated_weights(shared_data, name, weights):
    G0 = real(shared_data, name)
    if weights == "float":
        rng = np.random.default_rng(1)
        u, v = G0.edges()
        keep = u <= v
        G = lg.Graph.from_edges(u[keep], v[keep], rng.uniform(0.5, 2.0, keep.sum()), n=G0.n)
    else:
        G = weighted(G0, *weights, seed=4)
    s = int(np.argmax(G.out_degree))
    for method in ("auto", "bellman_ford"):
        r = lg.sssp(G, s, method=method)
        check_sssp(G, s, r.distance, r.parent)
    srcs = np.array([s, 0])
    r = lg.sssp(G, sources=srcs)
    check_sssp(G, srcs, r.distance, r.parent)


# ---------------------------------------------------------------- bad input
def test_bad_weights_are_rejected_by_the_graph():
    with pytest.raises(lg.InvalidGraphError, match="finite"):
        lg.Graph.from_edges([0], [1], w=[np.nan])
    with pytest.raises(lg.InvalidGraphError, match="finite"):
        lg.Graph.from_edges([0], [1], w=[np.inf])
    with pytest.raises(lg.InvalidGraphError, match="finite"):
        lg.Graph.from_scipy(sp.csr_array(np.array([[0, -np.inf], [1.0, 0]])))


@pytest.mark.parametrize("delta", [0, -1.0, np.nan, np.inf, "1", True, 1j])
def test_bad_delta(delta):
    G = weighted(SMALL["path"](), 1, 5)
    with pytest.raises(lg.InvalidArgumentError, match="delta must be a positive finite number"):
        lg.sssp(G, 0, delta=delta)


@pytest.mark.parametrize("engine", ["cpu", "reference"])
@pytest.mark.parametrize("kw", [dict(source=0), dict(sources=[0, 1])])
def test_a_delta_too_small_to_number_its_buckets(engine, kw):
    """Past 2**52 buckets, bucket b and b + 1 share their bounds: the reference engine's search hung there."""
    G = lg.Graph.from_edges([0, 1, 2], [1, 2, 3], w=[1.0, 2.0, 3.0])
    with pytest.raises(lg.InvalidArgumentError, match=r"delta must be at least .* = 2e-15 .*got 1e-300"):
        lg.sssp(G, delta=1e-300, engine=engine, **kw)
    assert lg.sssp(G, delta=1e-12, engine=engine, **kw).distance.reshape(-1, 4)[0].tolist() == [0, 1, 3, 6]


def test_bad_arguments():
    G = weighted(SMALL["path"](), 1, 5)
    with pytest.raises(lg.InvalidSourceError, match="source -1 is out of range 0..9"):
        lg.sssp(G, -1)
    with pytest.raises(lg.InvalidSourceError, match="source 10 is out of range 0..9"):
        lg.sssp(G, 10)
    with pytest.raises(lg.InvalidSourceError, match="integer vertex id"):
        lg.sssp(G, 1.0)
    with pytest.raises(lg.InvalidSourceError, match="exactly one of"):
        lg.sssp(G)
    with pytest.raises(lg.InvalidSourceError, match="exactly one of"):
        lg.sssp(G, 0, sources=[1])
    with pytest.raises(lg.InvalidSourceError, match=r"sources\[1\] = 12 is out of range 0..9"):
        lg.sssp(G, sources=[0, 12])
    with pytest.raises(lg.InvalidSourceError, match="at least one"):
        lg.sssp(G, sources=[])
    with pytest.raises(lg.InvalidArgumentError, match="method must be one of"):
        lg.sssp(G, 0, method="dijkstra")
    with pytest.raises(lg.InvalidArgumentError, match=r"method must be one of .*, got \['auto'\]"):
        lg.sssp(G, 0, method=["auto"])
    with pytest.raises(lg.InvalidArgumentError, match="parent must be True or False, got 'no'"):
        lg.sssp(G, 0, parent="no")
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        lg.sssp(G.to_scipy(), 0)
    with pytest.raises(lg.InvalidArgumentError, match="engine must be one of"):
        lg.sssp(G, 0, engine="tpu")
    with pytest.raises(lg.InvalidSourceError, match="no vertices"):
        lg.sssp(SMALL["empty"](), 0)
    N = lg.Graph.from_edges([0, 1], [1, 2], w=[1.0, -1.0], directed=True)
    with pytest.raises(lg.InvalidArgumentError, match="delta_stepping needs non-negative weights, got a weight of -1"):
        lg.sssp(N, 0, method="delta_stepping")
    check_sssp(N, 0, lg.sssp(N, 0).distance)


def test_hub_and_many_buckets(engine):
    # a hub pushes 20000 vertices at once (the CPU kernel's block pool grows); tiny delta: many buckets
    G = weighted(generators.star(20000), lo=1, hi=1000, seed=9)
    for delta in (None, 0.01, 1e6):
        r = lg.sssp(G, 5, delta=delta, engine=engine)
        check_sssp(G, 5, r.distance, r.parent)
    r = lg.sssp(G, sources=[0, 5, 19999], engine=engine)
    check_sssp(G, np.array([0, 5, 19999]), r.distance, r.parent)


@pytest.mark.parametrize("eng", ["cpu", DEFAULT], ids=["cpu", "default"])
def test_negative_cycle_found_early(eng):
    # a long path behind a negative 2-cycle near the source: the parents close the
    # cycle after a few rounds, long before n rounds
    n = 3000
    u = np.r_[0, 1, 2, np.arange(2, n - 1)]
    v = np.r_[1, 2, 1, np.arange(3, n)]
    w = np.r_[1.0, 1.0, -3.0, np.ones(n - 3)]
    G = lg.Graph.from_edges(u, v, w, n=n, directed=True)
    with pytest.raises(lg.NegativeCycleError) as info:
        lg.sssp(G, 0, engine=eng)
    assert sorted(info.value.cycle) == [1, 2]
    # a negative self-loop away from the source
    H = lg.Graph.from_edges([0, 1, 2], [1, 2, 2], w=[2.0, 3.0, -0.5], directed=True)
    with pytest.raises(lg.NegativeCycleError) as info:
        lg.sssp(H, 0, engine=eng)
    assert info.value.cycle == [2]


# ---------------------------------------------------------------------- cases of the suite-wide tests

def _sssp(G, E, method):
    r = lg.sssp(G, 0, method=method, engine=E)
    check_sssp(G, 0, r.distance, r.parent)
    return {"distance": r.distance}


def _sssp_batch(G, E):
    src = [0, G.n // 2, G.n - 1]
    r = lg.sssp(G, sources=src, engine=E)
    for i, s in enumerate(src):
        check_sssp(G, s, r.distance[i], r.parent[i])
    return {"distance": r.distance}


# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "sssp_delta_stepping": ("weighted_directed", lambda G, E: _sssp(G, E, "delta_stepping")),
    "sssp_bellman_ford": ("weighted_directed", lambda G, E: _sssp(G, E, "bellman_ford")),
    "sssp_relax": ("weighted_directed", lambda G, E: _sssp(G, E, "delta_stepping")),
    "sssp_batch": ("weighted_directed", _sssp_batch),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "sssp": (WEIGHTED, (0,), {}, lambda r: dataclasses.replace(r, distance=bump(r.distance, 1, 0.5))),
}


@pytest.mark.parametrize("w", [1.0, 3.0, 0.1])
def test_one_weight_everywhere_is_a_bfs_when_exact(engine, w):
    """Every weight the same positive integer: "auto" runs a BFS (hops x w, exact), with the distances and a
    valid shortest-path tree of delta-stepping; a fractional weight keeps delta-stepping (w x hops is not the
    sum of hops copies of w in float64)."""
    base = lg.generators.rmat(9, 6, seed=4, directed=True)
    rows, cols = base.edges()
    G = lg.Graph.from_edges(rows, cols, w=np.full(rows.size, w), n=base.n, directed=True)
    r = lg.sssp(G, 0, engine=engine)
    want = lg.sssp(G, 0, method="delta_stepping", engine=engine)
    assert r.method == ("bfs" if w.is_integer() else "delta_stepping")
    np.testing.assert_array_equal(r.distance, want.distance)
    check_sssp(G, 0, r.distance, r.parent)
    rs = lg.sssp(G, sources=[0, 5], engine=engine)
    np.testing.assert_array_equal(rs.distance, lg.sssp(G, sources=[0, 5], method="delta_stepping",
                                                        engine=engine).distance)
