import dataclasses
import math
import random
from collections import deque
from fractions import Fraction
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph import _validation
from la_graph.algorithms import betweenness as B
from la_graph.engines.cpu.fused import betweenness as cpu_betweenness
from la_graph.verify import check_betweenness

from .engines import algebra_only
from .graphs import KARATE, SMALL, WEIGHTED, bump, real

#: graphs with more vertices than this are checked from a sample of sources (exact is n BFS each)
EXACT_N = 600


def _nx(G):
    """The same graph in networkx: vertices 0..n-1 and every stored edge (self-loops kept)."""
    H = nx.DiGraph() if G.directed else nx.Graph()
    H.add_nodes_from(range(G.n))
    u, v = G.edges()
    H.add_edges_from(zip(u.tolist(), v.tolist()))
    return H


def _array(d, n):
    return np.array([d[i] for i in range(n)], dtype=np.float64)


def _nx_sample(n, k, seed):
    """The sources networkx.betweenness_centrality(G, k, seed=seed) draws on a graph with nodes 0..n-1."""
    return random.Random(seed).sample(list(range(n)), k)


def _same(a, b):
    np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_graphs_match_networkx(engine, name):
    G = SMALL[name]()
    H = _nx(G)
    if G.n <= EXACT_N:
        bc = lg.betweenness_centrality(G, engine=engine)
        ref = _array(nx.betweenness_centrality(H), G.n)
        check_betweenness(G, bc)
    else:   # a sample, drawn as networkx draws it
        srcs = _nx_sample(G.n, 40, 11)
        bc = lg.betweenness_centrality(G, sources=srcs, engine=engine)
        ref = _array(nx.betweenness_centrality(H, k=40, seed=11), G.n)
        check_betweenness(G, bc, sources=srcs)
    assert bc.dtype == np.float64 and bc.shape == (G.n,)
    _same(bc, ref)


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("normalized", [True, False])
@pytest.mark.parametrize("endpoints", [False, True])
def test_options_match_networkx(engine, directed, normalized, endpoints):
    G = lg.generators.rmat(7, 6, seed=3, directed=directed)
    H = _nx(G)
    opts = dict(normalized=normalized, endpoints=endpoints)
    _same(lg.betweenness_centrality(G, engine=engine, **opts), _array(nx.betweenness_centrality(H, **opts), G.n))
    for k in (1, 2, 13):   # sampled sources: networkx's sample, and networkx's scaling of it
        srcs = _nx_sample(G.n, k, 5)
        bc = lg.betweenness_centrality(G, sources=srcs, engine=engine, **opts)
        ref = _array(nx.betweenness_centrality(H, k=k, seed=5, **opts), G.n)
        _same(bc, ref)                                  # nan at the one source of k=1 without endpoints
        assert np.isnan(bc).any() == (k == 1 and not endpoints)
        check_betweenness(G, bc, sources=srcs, **opts)


@pytest.mark.parametrize("n", [0, 1, 2, 3])
@pytest.mark.parametrize("endpoints", [False, True])
@pytest.mark.parametrize("normalized", [True, False])
def test_tiny_graphs(engine, n, endpoints, normalized):
    # below 3 vertices (2 with endpoints) networkx leaves the sums unscaled
    for directed in (False, True):
        G = lg.Graph.from_edges(np.arange(n - 1), np.arange(1, n), n=n, directed=directed)
        bc = lg.betweenness_centrality(G, normalized=normalized, endpoints=endpoints, engine=engine)
        ref = nx.betweenness_centrality(_nx(G), normalized=normalized, endpoints=endpoints)
        _same(bc, _array(ref, n))


def test_known_values(engine):
    P = lg.generators.path(5)
    assert lg.betweenness_centrality(P, normalized=False, engine=engine).tolist() == [0.0, 3.0, 4.0, 3.0, 0.0]
    star = lg.generators.star(6)                        # the centre lies on every path between two leaves
    bc = lg.betweenness_centrality(star, engine=engine)
    assert bc[0] == pytest.approx(1.0) and not bc[1:].any()
    D = lg.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=True)
    assert lg.betweenness_centrality(D, normalized=False, engine=engine).tolist() == [0.0, 2.0, 2.0, 0.0]


def test_seeded_sample_is_reproducible_and_the_same_on_every_engine(engine):
    G = lg.generators.rmat(9, 8, seed=4)
    a = lg.betweenness_centrality(G, k=20, seed=3, engine=engine)
    # the same sample each time; the sums agree to rounding (a GPU adds them up in no fixed order)
    np.testing.assert_allclose(lg.betweenness_centrality(G, k=20, seed=3, engine=engine), a, rtol=1e-12)
    np.testing.assert_allclose(lg.betweenness_centrality(G, k=20, seed=np.uint64(3), engine=engine), a, rtol=1e-12)
    srcs = B.sample_sources(G.n, 20, 3)
    np.testing.assert_allclose(lg.betweenness_centrality(G, sources=srcs, engine=engine), a, rtol=1e-12)
    _same(a, lg.betweenness_centrality(G, k=20, seed=3, engine="cpu"))
    check_betweenness(G, a, sources=srcs)
    assert not np.array_equal(lg.betweenness_centrality(G, k=20, seed=4, engine=engine), a)
    # k = n is the exact result, whatever the seed
    _same(lg.betweenness_centrality(G, k=G.n, seed=9, engine=engine), lg.betweenness_centrality(G, engine=engine))
    # seed=None: a fresh sample each call, of the right size
    assert lg.betweenness_centrality(G, k=5, engine=engine).shape == (G.n,)


def test_sample_sources():
    s = B.sample_sources(100, 10, 7)
    assert s.dtype == np.int64 and s.size == 10 and np.unique(s).size == 10
    assert np.array_equal(s, np.sort(s)) and s.min() >= 0 and s.max() < 100
    np.testing.assert_array_equal(B.sample_sources(100, 10, 7), s)
    np.testing.assert_array_equal(B.sample_sources(5, 5, 1), np.arange(5))


def test_batches_change_nothing(engine, monkeypatch):
    G = lg.generators.rmat(8, 8, seed=5, directed=True)
    whole = lg.betweenness_centrality(G, endpoints=True, engine=engine)
    monkeypatch.setattr(B, "BATCH_BYTES", 3 * G.n * B.WORK_BYTES)   # 3 sources a batch
    assert B.batch_size(G.n, G.n) == 3
    _same(lg.betweenness_centrality(G, endpoints=True, engine=engine), whole)


def test_batch_size_is_bounded_by_memory(monkeypatch):
    n = 1000
    monkeypatch.setattr(_validation, "available_host_bytes", lambda: 1 << 40)
    assert B.batch_size(64, n) == 64
    assert B.batch_size(10**6, n) == B.BATCH_BYTES // (n * B.WORK_BYTES)
    monkeypatch.setattr(_validation, "available_host_bytes", lambda: 5 * n * B.WORK_BYTES)
    assert B.batch_size(64, n) == 5
    monkeypatch.setattr(_validation, "available_host_bytes", lambda: n)
    with pytest.raises(lg.OutOfMemory, match="betweenness centrality from 64 sources"):
        B.batch_size(64, n)


def test_self_loops_duplicates_and_ignored_weights_change_nothing(engine):
    for directed in (False, True):
        G = lg.generators.rmat(7, 6, seed=6, directed=directed)
        ref = lg.betweenness_centrality(G, engine=engine)
        u, v = G.edges()
        loops = np.arange(0, G.n, 3)
        H = lg.Graph.from_edges(np.r_[u, u[:50], loops], np.r_[v, v[:50], loops], n=G.n, directed=directed)
        assert H.self_loops
        _same(lg.betweenness_centrality(H, engine=engine), ref)
        W = lg.Graph.from_edges(u, v, w=np.linspace(0.5, 9.0, u.size), n=G.n, directed=directed)
        _same(lg.betweenness_centrality(W, weight=False, engine=engine), ref)
        assert not np.allclose(lg.betweenness_centrality(W, engine=engine), ref)   # weight=None: G's weights


@given(
    n=st.integers(0, 25),
    edges=st.lists(st.tuples(st.integers(0, 24), st.integers(0, 24)), max_size=60),
    directed=st.booleans(),
    endpoints=st.booleans(),
)
@settings(max_examples=60, deadline=None)
def test_property_random_graphs(n, edges, directed, endpoints):
    u = [a % n for a, _ in edges] if n else []
    v = [b % n for _, b in edges] if n else []
    G = lg.Graph.from_edges(u, v, n=n, directed=directed)
    bc = lg.betweenness_centrality(G, endpoints=endpoints)
    _same(bc, _array(nx.betweenness_centrality(_nx(G), endpoints=endpoints), n))
    check_betweenness(G, bc, endpoints=endpoints)


@pytest.mark.data
@pytest.mark.parametrize("name", ["snap/email-Eu-core.txt.gz", "snap/facebook_combined.txt.gz",
                                  "dimacs/rome99.gr"])
def test_real_graphs(engine, shared_data, name):
    G = real(shared_data, name)
    srcs = B.sample_sources(G.n, 6, 1)
    bc = lg.betweenness_centrality(G, sources=srcs, engine=engine)
    check_betweenness(G, bc, sources=srcs)
    if engine.name != "cpu":
        _same(bc, lg.betweenness_centrality(G, sources=srcs, engine="cpu"))


def test_checker_finds_wrong_values():
    G = lg.generators.grid_2d(5, 4)
    bc = lg.betweenness_centrality(G)
    check_betweenness(G, bc)
    bad = bc.copy()
    bad[7] *= 1.01
    with pytest.raises(lg.VerificationError, match=r"bc\[7\] = .* expected"):
        check_betweenness(G, bad)
    with pytest.raises(lg.VerificationError, match=r"bc\[0\]"):
        check_betweenness(G, bc, normalized=False)
    with pytest.raises(lg.VerificationError, match="from 4 sources"):
        check_betweenness(G, bc, sources=[0, 1, 2, 3])
    with pytest.raises(lg.VerificationError, match="shape"):
        check_betweenness(G, bc[:-1])
    with pytest.raises(lg.VerificationError, match="real array"):
        check_betweenness(G, bc.astype(str))
    nan = lg.betweenness_centrality(G, sources=[3])   # networkx's nan at a one-vertex sample's source
    assert math.isnan(nan[3])
    check_betweenness(G, nan, sources=[3])
    with pytest.raises(lg.VerificationError, match=r"bc\[3\] = 0.0"):
        check_betweenness(G, np.nan_to_num(nan), sources=[3])


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(k=0), lg.InvalidArgumentError, "k must be at least 1, got 0"),
    (dict(k=-3), lg.InvalidArgumentError, "k must be at least 1, got -3"),
    (dict(k=11), lg.InvalidArgumentError, r"k must be at most n = 10 \(the number of vertices\), got 11"),
    (dict(k=2.5), lg.InvalidArgumentError, "k must be an integer, got 2.5"),
    (dict(k=True), lg.InvalidArgumentError, "k must be an integer, got True"),
    (dict(k="3"), lg.InvalidArgumentError, "k must be an integer, got '3'"),
    (dict(k=2, sources=[0, 1]), lg.InvalidArgumentError, "not both"),
    (dict(sources=[0, 4, 2, 4]), lg.InvalidSourceError, r"sources must be distinct: sources\[3\] = 4 repeats "
                                                        r"sources\[1\]"),
    (dict(sources=[0, 10]), lg.InvalidSourceError, r"sources\[1\] = 10 is out of range 0..9"),
    (dict(sources=[]), lg.InvalidSourceError, "at least one vertex"),
    (dict(sources=[[0, 1]]), lg.InvalidSourceError, "1-D"),
    (dict(k=2, seed=-1), lg.InvalidArgumentError, "seed must be in 0..2\\*\\*64-1, got -1"),
    (dict(k=2, seed=1.5), lg.InvalidArgumentError, "seed must be a non-negative integer"),
    (dict(seed="a"), lg.InvalidArgumentError, "seed must be a non-negative integer"),
    (dict(normalized=1), lg.InvalidArgumentError, "normalized must be True or False, got 1"),
    (dict(endpoints="yes"), lg.InvalidArgumentError, "endpoints must be True or False, got 'yes'"),
    (dict(engine="nope"), lg.InvalidArgumentError, "nope"),
    (dict(progress="x"), lg.InvalidArgumentError, "progress must be True or False, got 'x'"),
])
def test_rejects_bad_arguments(kwargs, error, match):
    G = lg.generators.path(10)
    with pytest.raises(error, match=match):
        lg.betweenness_centrality(G, **kwargs)


def test_rejects_bad_graph():
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        lg.betweenness_centrality(np.eye(3))
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        check_betweenness(np.eye(3), np.zeros(3))
    E0 = lg.Graph.from_edges([], [], n=0)
    assert lg.betweenness_centrality(E0).shape == (0,)
    assert lg.betweenness_centrality(E0, k=0).shape == (0,)
    with pytest.raises(lg.InvalidArgumentError, match="k must be at least 1"):
        lg.betweenness_centrality(E0, k=-1)


# ---------------------------------------------------------------------- the GPU engine's kernel (cuda/betweenness.cu)
_BC_GRAPHS = {
    "rmat": lambda: lg.generators.rmat(11, 8, seed=3),                      # hubs: rows in chunks under the knobs
    "rmat_directed": lambda: lg.generators.rmat(11, 6, seed=4, directed=True),
    "star": lambda: lg.generators.star(3000),                               # one row of 2999 (chunks by default)
    "path": lambda: lg.generators.path(700),                                # 700 levels
    "sparse_directed": lambda: lg.Graph.from_edges([0, 1, 5, 7, 7], [1, 2, 6, 7, 8], n=40, directed=True),
}


def _gpu_engines():
    try:
        E = lg.get_engine("gpu")
    except lg.EngineUnavailable as exc:
        pytest.skip(f"gpu engine unavailable: {exc}")
    return E, type(E)(index_dtype="int64")   # int64 CSR indices: the kernel's other instantiation


@pytest.mark.gpu
@pytest.mark.parametrize("knobs", [{}, {"BC_BIG_ROW": 8, "BC_CHUNK": 3}, {"BC_BIG_ROW": 0, "BC_CHUNK": 1}],
                         ids=["default", "chunks", "all-chunks"])
@pytest.mark.parametrize("name", sorted(_BC_GRAPHS))
def test_gpu_kernel_matches_cpu(monkeypatch, name, knobs):
    """The fused GPU step, its hub rows as chunks or not, int32 and int64 indices: the CPU engine's values."""
    engines = _gpu_engines()
    from la_graph.engines.gpu.fused import betweenness as gpu_bc
    for key, value in knobs.items():
        monkeypatch.setattr(gpu_bc, key, value)
    G = _BC_GRAPHS[name]()
    assert "brandes_sources" in engines[0].fused_steps
    for endpoints in (False, True):
        want = lg.betweenness_centrality(G, k=min(G.n, 50), seed=2, endpoints=endpoints, engine="cpu")
        for E in engines if not knobs else engines[:1]:
            _same(lg.betweenness_centrality(G, k=min(G.n, 50), seed=2, endpoints=endpoints, engine=E), want)


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["rmat", "rmat_directed", "sparse_directed"])
def test_gpu_kernel_batch_as_algebra(name):
    """One batch with a source twice and sources without edges: the algebra's sums, ends and reach counts."""
    E, _ = _gpu_engines()
    G = _BC_GRAPHS[name]()
    deg = np.asarray(G.out_degree)
    srcs = np.array([3, 3, int(np.argmax(deg)), int(np.argmin(deg)), G.n - 1, 0], dtype=np.int64)
    got, want = [E.full(G.n, 1.5), E.full(G.n, 2, dtype=np.int64)], [E.full(G.n, 1.5), E.full(G.n, 2, dtype=np.int64)]
    r = B.brandes_sources(E, G, srcs, *got)
    r0 = B.brandes_sources.algebraic(E, G, srcs, *want)
    np.testing.assert_array_equal(r, r0)
    np.testing.assert_array_equal(E.to_numpy(got[1]), E.to_numpy(want[1]))
    _same(E.to_numpy(got[0]), E.to_numpy(want[0]))
    t, t0 = E.full(G.n, 0.0), E.full(G.n, 0.0)
    assert B.brandes_sources(E, G, srcs[:3], t, None) is None
    B.brandes_sources.algebraic(E, G, srcs[:3], t0, None)
    _same(E.to_numpy(t), E.to_numpy(t0))


@pytest.mark.gpu
@pytest.mark.data
@pytest.mark.parametrize("name", ["suitesparse/usroads-48.mtx.gz", "snap/facebook_combined.txt.gz",
                                  "snap/p2p-Gnutella31.txt.gz"])
def test_gpu_kernel_real_graphs(shared_data, name):
    """High diameter (a road graph), dense and directed real graphs, in batches of 64: the CPU engine's values."""
    E, _ = _gpu_engines()
    G = real(shared_data, name)
    for endpoints in (False, True):
        want = lg.betweenness_centrality(G, k=64, seed=1, endpoints=endpoints, engine="cpu")
        _same(lg.betweenness_centrality(G, k=64, seed=1, endpoints=endpoints, engine=E), want)


# ---------------------------------------------------------------------- path counts beyond float64 (issue 37)
def _ladder(levels):
    """Source 0; at distance d (1 .. levels) a_d, b_d joined to both of the next level's (2**(d-1) paths each)
    and c_d on a path (1 path): at level d the counts span 2**(d-1), past float64 beyond d = 1025."""
    u, v = [0, 0, 0], [1, 2, 3]
    for d in range(2, levels + 1):
        a, b, c = 3 * d - 2, 3 * d - 1, 3 * d
        u += [a - 3, a - 3, b - 3, b - 3, c - 3]
        v += [a, b, a, b, c]
    return lg.Graph.from_edges(np.array(u), np.array(v), n=3 * levels + 1)


def _exact_brandes(G, sources):
    """Raw Brandes sums in exact arithmetic: path counts as Python ints, dependencies as Fractions."""
    n = G.n
    adj = [G.indices[G.indptr[i]:G.indptr[i + 1]].tolist() for i in range(n)]
    bc = [Fraction(0)] * n
    for s in sources:
        dist, sigma, order, q = [-1] * n, [0] * n, [s], deque([s])
        dist[s], sigma[s] = 0, 1
        while q:
            v = q.popleft()
            for w in adj[v]:
                if dist[w] < 0:
                    dist[w] = dist[v] + 1
                    q.append(w)
                    order.append(w)
                if dist[w] == dist[v] + 1:
                    sigma[w] += sigma[v]
        delta = [Fraction(0)] * n
        for w in reversed(order):
            for v in adj[w]:
                if dist[v] == dist[w] - 1:
                    delta[v] += Fraction(sigma[v], sigma[w]) * (1 + delta[w])
            if w != s:
                bc[w] += delta[w]
    return np.array([float(x) for x in bc])


@pytest.mark.parametrize("algebra", [False, True])
def test_path_counts_beyond_float64_are_exact(engine, algebra):
    # 2**1099 paths to the last level: unscaled, the counts were inf and the result NaN
    G, srcs = _ladder(1100), [0, 1]
    E = algebra_only(engine.name) if algebra else engine
    bc = lg.betweenness_centrality(G, sources=srcs, normalized=False, engine=E)
    want = B.rescale(_exact_brandes(G, srcs), G.n, normalized=False, directed=False, endpoints=False,
                     sources=np.array(srcs))
    np.testing.assert_allclose(bc, want, rtol=1e-12, atol=0)
    check_betweenness(G, bc, sources=srcs, normalized=False, rtol=1e-12)   # the checker scales its counts too


@pytest.mark.parametrize("algebra", [False, True])
def test_path_counts_spread_beyond_float64_raise(engine, algebra):
    E = algebra_only(engine.name) if algebra else engine
    with pytest.raises(lg.exceptions.NumericRangeError, match=r"source 0 .* distance 1802 .*2\*\*1800"):
        lg.betweenness_centrality(_ladder(1850), sources=[0], engine=E)


def test_grid_corner_counts_beyond_float64(engine):
    # corner to corner of 600 x 600: C(1198, 599) ~ 1e359 paths (1200 levels: the ladder covers the reference engine)
    if engine.name == "reference":
        pytest.skip("1200 levels of the reference engine's products take a minute")
    G = lg.generators.grid_2d(600, 600)
    bc = lg.betweenness_centrality(G, sources=[0, 1], engine=engine)
    assert np.isfinite(bc).all()
    check_betweenness(G, bc, sources=[0, 1], rtol=1e-11)


def test_every_kernel_checks_the_algebras_spread():
    assert cpu_betweenness.SPREAD == B.COUNT_SPREAD
    kernel = Path(B.__file__).parents[1] / "engines" / "gpu" / "cuda" / "betweenness.cu"
    assert f"#define BC_SPREAD {B.COUNT_SPREAD}\n" in kernel.read_text()


# ---------------------------------------------------------------------- edge betweenness, weighted betweenness
def _nx_weighted(G):
    """The same graph in networkx with G's weights as the attribute "weight"."""
    H = nx.DiGraph() if G.directed else nx.Graph()
    H.add_nodes_from(range(G.n))
    u, v = G.edges()
    H.add_weighted_edges_from(zip(u.tolist(), v.tolist(), G.weights.tolist()))
    return H


def _same_edges(r, G, ref):
    """``r`` (an EdgeBetweennessResult) against networkx's ``{(u, v): score}``: G's edges, the same scores."""
    u, v = G.edges()
    keep = np.ones(u.size, bool) if G.directed else u <= v
    np.testing.assert_array_equal(r.u, u[keep])
    np.testing.assert_array_equal(r.v, v[keep])
    assert r.u.dtype == r.v.dtype == np.int64 and r.score.dtype == np.float64
    assert len(ref) == r.u.size
    want = [ref[(a, b)] if (a, b) in ref else ref[(b, a)] for a, b in zip(r.u.tolist(), r.v.tolist())]
    _same(r.score, np.array(want))


def _weighted_graphs():
    """Small weighted graphs, directed and undirected: integer weights (many equal-length paths), floats,
    disconnected pieces, isolated vertices, self-loops."""
    rng = np.random.default_rng(7)
    out = {}
    for directed in (False, True):
        d = "directed" if directed else "undirected"
        G = lg.generators.grid_2d(7, 6)
        u, v = G.edges()
        keep = u < v
        out[f"grid_ties_{d}"] = lg.Graph.from_edges(u[keep], v[keep], w=rng.integers(1, 3, keep.sum()).astype(float),
                                                    directed=directed)
        u, v = rng.integers(0, 40, 160), rng.integers(0, 40, 160)
        out[f"random_int_{d}"] = lg.Graph.from_edges(u, v, w=rng.integers(1, 5, 160).astype(float), n=45,
                                                     directed=directed)
        out[f"random_float_{d}"] = lg.Graph.from_edges(u, v, w=rng.random(160) + 0.05, n=45, directed=directed)
        a, b = rng.integers(0, 12, 30), rng.integers(0, 12, 30)   # two pieces and a loop
        out[f"pieces_{d}"] = lg.Graph.from_edges(np.r_[a, b + 12, 3], np.r_[b, a + 12, 3],
                                                 w=np.r_[rng.integers(1, 3, 60), 1].astype(float), n=26,
                                                 directed=directed)
    return out


WEIGHTED_GRAPHS = _weighted_graphs()


@pytest.mark.parametrize("name", sorted(SMALL))
def test_edge_betweenness_small_graphs_match_networkx(engine, name):
    G = SMALL[name]()
    H = _nx(G)
    if G.n <= EXACT_N:
        r = lg.edge_betweenness_centrality(G, weight=False, engine=engine)
        ref = nx.edge_betweenness_centrality(H)
        srcs = None
    else:
        srcs = _nx_sample(G.n, 30, 11)
        r = lg.edge_betweenness_centrality(G, sources=srcs, weight=False, engine=engine)
        ref = nx.edge_betweenness_centrality(H, k=30, seed=11)
    _same_edges(r, G, ref)
    lg.verify.check_edge_betweenness(G, r, sources=srcs, weight=False)


@pytest.mark.parametrize("name", sorted(WEIGHTED_GRAPHS))
@pytest.mark.parametrize("normalized", [True, False])
def test_weighted_match_networkx(engine, name, normalized):
    G = WEIGHTED_GRAPHS[name]
    H = _nx_weighted(G)
    for endpoints in (False, True):
        bc = lg.betweenness_centrality(G, normalized=normalized, endpoints=endpoints, engine=engine)
        _same(bc, _array(nx.betweenness_centrality(H, normalized=normalized, endpoints=endpoints, weight="weight"),
                         G.n))
        check_betweenness(G, bc, normalized=normalized, endpoints=endpoints)
    r = lg.edge_betweenness_centrality(G, normalized=normalized, weight=True, engine=engine)
    _same_edges(r, G, nx.edge_betweenness_centrality(H, normalized=normalized, weight="weight"))
    lg.verify.check_edge_betweenness(G, r, normalized=normalized)
    for k in (1, 7):   # networkx's sample, passed as sources=, and networkx's scaling of it
        srcs = _nx_sample(G.n, k, 3)
        bc = lg.betweenness_centrality(G, sources=srcs, normalized=normalized, engine=engine)
        _same(bc, _array(nx.betweenness_centrality(H, k=k, seed=3, normalized=normalized, weight="weight"), G.n))
        r = lg.edge_betweenness_centrality(G, sources=srcs, normalized=normalized, engine=engine)
        _same_edges(r, G, nx.edge_betweenness_centrality(H, k=k, seed=3, normalized=normalized, weight="weight"))
        lg.verify.check_edge_betweenness(G, r, sources=srcs, normalized=normalized)


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("normalized", [True, False])
def test_edge_betweenness_options_match_networkx(engine, directed, normalized):
    G = lg.generators.rmat(7, 6, seed=3, directed=directed)
    H = _nx(G)
    _same_edges(lg.edge_betweenness_centrality(G, normalized=normalized, engine=engine), G,
                nx.edge_betweenness_centrality(H, normalized=normalized))
    for k in (1, 2, 13):
        r = lg.edge_betweenness_centrality(G, sources=_nx_sample(G.n, k, 5), normalized=normalized, engine=engine)
        _same_edges(r, G, nx.edge_betweenness_centrality(H, k=k, seed=5, normalized=normalized))


def test_edge_betweenness_tiny_graphs_and_loops(engine):
    for n in range(4):   # no rescaling below 2 vertices, as networkx
        G = lg.generators.path(n) if n else lg.Graph.from_edges([], [], n=0)
        r = lg.edge_betweenness_centrality(G, engine=engine)
        _same_edges(r, G, nx.edge_betweenness_centrality(_nx(G)))
    L = lg.Graph.from_edges([0, 1, 1, 2], [1, 1, 2, 2])   # loops: G.edges() has them, scored 0 as in networkx
    r = lg.edge_betweenness_centrality(L, engine=engine)
    assert r.as_dict() == pytest.approx(nx.edge_betweenness_centrality(_nx(L)))
    assert r.as_dict()[(1, 1)] == 0.0


def test_edge_betweenness_seeded_sample(engine):
    G = lg.generators.rmat(8, 6, seed=2, weights=(1, 9))
    a = lg.edge_betweenness_centrality(G, k=12, seed=5, engine=engine)
    b = lg.edge_betweenness_centrality(G, sources=B.sample_sources(G.n, 12, 5), engine="reference")
    _same(a.score, b.score)
    lg.edge_betweenness_centrality(G, k=12, check=True, engine=engine)   # seed=None: the wrapper draws one
    exact = lg.edge_betweenness_centrality(G, k=G.n, seed=1, engine=engine)
    _same(exact.score, lg.edge_betweenness_centrality(G, engine=engine).score)


def test_weight_rule(engine):
    G = lg.generators.rmat(7, 6, seed=6)
    u, v = G.edges()
    W = lg.Graph.from_edges(u, v, w=np.linspace(0.5, 9.0, u.size), n=G.n)
    _same(lg.betweenness_centrality(W, weight=True, engine=engine), lg.betweenness_centrality(W, engine=engine))
    _same(lg.betweenness_centrality(W, weight=False, engine=engine), lg.betweenness_centrality(G, engine=engine))
    _same(lg.edge_betweenness_centrality(W, weight=False, engine=engine).score,
          lg.edge_betweenness_centrality(G, engine=engine).score)
    ones = lg.Graph.from_edges(u, v, w=np.full(u.size, 3.0), n=G.n)   # equal weights: the hop DAG
    _same(lg.betweenness_centrality(ones, engine=engine), lg.betweenness_centrality(G, engine=engine))
    _same(lg.edge_betweenness_centrality(ones, engine=engine).score,
          lg.edge_betweenness_centrality(G, engine=engine).score)


def test_weighted_batches_change_nothing(engine, monkeypatch):
    G = WEIGHTED_GRAPHS["random_int_directed"]
    want_bc = lg.betweenness_centrality(G, endpoints=True, engine=engine)
    want_e = lg.edge_betweenness_centrality(G, engine=engine).score
    per = B.WORK_BYTES + -(-B.EDGE_WORK_BYTES * G.nnz // G.n)   # a source's bytes a vertex, its edges spread
    monkeypatch.setattr(B, "BATCH_BYTES", 3 * G.n * per)
    assert B.weighted_batch_size(G.n, G.n, G.nnz) == 3
    _same(lg.betweenness_centrality(G, endpoints=True, engine=algebra_only(engine.name)), want_bc)
    _same(lg.edge_betweenness_centrality(G, engine=algebra_only(engine.name)).score, want_e)
    _same(lg.edge_betweenness_centrality(G, weight=False, engine=algebra_only(engine.name)).score,
          lg.edge_betweenness_centrality(G, weight=False, engine="reference").score)


@given(
    n=st.integers(1, 16),
    edges=st.lists(st.tuples(st.integers(0, 15), st.integers(0, 15), st.integers(1, 3)), max_size=40),
    directed=st.booleans(),
)
@settings(max_examples=40, deadline=None)
def test_property_weighted_random_graphs(n, edges, directed):
    G = lg.Graph.from_edges([a % n for a, _, _ in edges], [b % n for _, b, _ in edges],
                            w=[float(w) for _, _, w in edges], n=n, directed=directed)
    if not G.weighted:
        return
    H = _nx_weighted(G)
    _same(lg.betweenness_centrality(G), _array(nx.betweenness_centrality(H, weight="weight"), n))
    _same_edges(lg.edge_betweenness_centrality(G), G, nx.edge_betweenness_centrality(H, weight="weight"))
    _same_edges(lg.edge_betweenness_centrality(G, weight=False), G, nx.edge_betweenness_centrality(H))


@pytest.mark.data
@pytest.mark.parametrize("name", ["dimacs/rome99.gr", "snap/soc-sign-bitcoinotc.csv.gz"])
def test_weighted_real_graphs(engine, shared_data, name):
    G = real(shared_data, name)
    if G.weight_range().min < 0:   # bitcoin-otc's trust ratings -10..10: their sizes as lengths
        u, v = G.edges()
        G = lg.Graph.from_edges(u, v, w=np.abs(G.weights), n=G.n, directed=G.directed)
    srcs = B.sample_sources(G.n, 5, 2)
    bc = lg.betweenness_centrality(G, sources=srcs, engine=engine)
    check_betweenness(G, bc, sources=srcs)
    r = lg.edge_betweenness_centrality(G, sources=srcs, engine=engine)
    lg.verify.check_edge_betweenness(G, r, sources=srcs)
    if engine.name != "cpu":
        _same(bc, lg.betweenness_centrality(G, sources=srcs, engine="cpu"))
        _same(r.score, lg.edge_betweenness_centrality(G, sources=srcs, engine="cpu").score)


@pytest.mark.data
def test_edge_betweenness_real_graph(engine, shared_data):
    G = real(shared_data, "snap/email-Eu-core.txt.gz")
    srcs = B.sample_sources(G.n, 6, 1)
    r = lg.edge_betweenness_centrality(G, sources=srcs, engine=engine)
    lg.verify.check_edge_betweenness(G, r, sources=srcs)
    if engine.name != "cpu":
        _same(r.score, lg.edge_betweenness_centrality(G, sources=srcs, engine="cpu").score)


@pytest.mark.parametrize("algebra", [False, True])
def test_weighted_path_counts_beyond_float64(engine, algebra):
    # the ladder with every weight 2: the hop DAG, 2**1099 paths to the last level
    L = _ladder(1100)
    u, v = L.edges()
    G, srcs = lg.Graph.from_edges(u, v, w=np.full(u.size, 2.0), n=L.n), [0, 1]
    if engine.name == "reference":
        pytest.skip("1100 rounds of the reference engine's products take long: the cpu algebra covers them")
    E = algebra_only(engine.name) if algebra else engine
    bc = lg.betweenness_centrality(G, sources=srcs, normalized=False, engine=E)
    want = B.rescale(_exact_brandes(L, srcs), G.n, normalized=False, directed=False, endpoints=False,
                     sources=np.array(srcs))
    np.testing.assert_allclose(bc, want, rtol=1e-12, atol=0)
    r = lg.edge_betweenness_centrality(G, sources=srcs, engine=E)
    assert np.isfinite(r.score).all()
    lg.verify.check_edge_betweenness(G, r, sources=srcs, rtol=1e-11)


def test_weighted_spread_beyond_float64(engine):
    L = _ladder(1850)
    u, v = L.edges()
    G = lg.Graph.from_edges(u, v, w=np.ones(u.size), n=L.n)
    if engine.name == "cpu":   # the algebra's scaled rounds cannot hold 2**1849 beside 1 (1802 rounds: cpu only)
        with pytest.raises(lg.exceptions.NumericRangeError, match=r"source 0 at round 1802 .*2\*\*1800"):
            lg.betweenness_centrality(G, sources=[0], engine=algebra_only(engine.name))
    if "brandes_weighted_sources" in engine.fused_steps:   # a kernel of mantissas and exponents can
        bc = lg.betweenness_centrality(G, sources=[0], normalized=False, engine=engine)
        want = B.rescale(_exact_brandes(L, [0]), G.n, normalized=False, directed=False, endpoints=False,
                         sources=np.array([0]))
        np.testing.assert_allclose(bc, want, rtol=1e-12, atol=0, equal_nan=True)


def test_grid_corner_counts_beyond_float64_weighted(engine):
    if engine.name == "reference":
        pytest.skip("1200 rounds of the reference engine's products take minutes")
    G = lg.generators.grid_2d(600, 600)
    u, v = G.edges()
    W = lg.Graph.from_edges(u, v, w=np.full(u.size, 0.5), n=G.n)   # (the ladder above covers the algebra)
    bc = lg.betweenness_centrality(W, sources=[0, 1], engine=engine)
    assert np.isfinite(bc).all()
    _same(bc, lg.betweenness_centrality(G, sources=[0, 1], engine=engine))   # equal weights: the hop DAG's
    r = lg.edge_betweenness_centrality(W, sources=[0], engine=engine)
    assert np.isfinite(r.score).all()
    _same(r.score, lg.edge_betweenness_centrality(G, sources=[0], engine=engine).score)   # the hop DAG's


def test_edge_checker_finds_wrong_values():
    G = WEIGHTED_GRAPHS["random_int_undirected"]
    r = lg.edge_betweenness_centrality(G)
    lg.verify.check_edge_betweenness(G, r)
    bad = dataclasses.replace(r, score=r.score.copy())
    bad.score[5] *= 1.01
    with pytest.raises(lg.VerificationError, match=r"score\[5\] \(edge .* - .*\) = .* expected"):
        lg.verify.check_edge_betweenness(G, bad)
    with pytest.raises(lg.VerificationError, match=r"score\[\d+\] \(edge"):   # by hops the sums differ
        lg.verify.check_edge_betweenness(G, r, weight=False)
    with pytest.raises(lg.VerificationError, match="raw sum .* from 4 sources"):
        lg.verify.check_edge_betweenness(G, r, sources=[0, 1, 2, 3])
    swapped = dataclasses.replace(r, u=r.v, v=r.u)
    with pytest.raises(lg.VerificationError, match=r"u\[0\] = .*G.edges\(\) order"):
        lg.verify.check_edge_betweenness(G, swapped)
    with pytest.raises(lg.VerificationError, match="shape"):
        lg.verify.check_edge_betweenness(G, dataclasses.replace(r, score=r.score[:-1]))
    bc = lg.betweenness_centrality(G)
    check_betweenness(G, bc)
    with pytest.raises(lg.VerificationError, match=r"bc\[.*\] = "):
        check_betweenness(G, bc, weight=False)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(weight="weight"), lg.InvalidArgumentError, "weight must be None .* True or False, got 'weight'"),
    (dict(weight=1), lg.InvalidArgumentError, "weight must be None"),
    (dict(k=3, sources=[0]), lg.InvalidArgumentError, "not both"),
    (dict(k=11), lg.InvalidArgumentError, r"k must be at most n = 10"),
    (dict(sources=[0, 0]), lg.InvalidSourceError, "distinct"),
    (dict(normalized="no"), lg.InvalidArgumentError, "normalized must be True or False"),
    (dict(seed=-2, k=2), lg.InvalidArgumentError, "seed must be in"),
])
def test_edge_betweenness_rejects_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        lg.edge_betweenness_centrality(lg.generators.path(10), **kwargs)
    with pytest.raises(error, match=match):
        lg.betweenness_centrality(lg.generators.path(10), **kwargs)


@pytest.mark.parametrize("f", [lg.betweenness_centrality, lambda G, **kw: lg.edge_betweenness_centrality(G, **kw)])
def test_weighted_rejects_bad_graphs(engine, f):
    with pytest.raises(lg.InvalidGraphError, match="needs edge weights, got an unweighted graph"):
        f(lg.generators.path(4), weight=True)
    Z = lg.Graph.from_edges([0, 1, 2], [1, 2, 3], w=[1.0, 0.0, 2.0])
    with pytest.raises(lg.InvalidGraphError, match=r"positive edge weights, got 0.0 on edge 1 -> 2"):
        f(Z, engine=engine)
    f(Z, weight=False, engine=engine)                         # by hops: weights ignored
    N = lg.Graph.from_edges([0, 1], [1, 2], w=[1.0, -2.0], directed=True)
    with pytest.raises(lg.InvalidGraphError, match=r"non-negative edge weights, got -2.0 on edge 1 -> 2"):
        f(N, engine=engine)
    big = lg.Graph.from_edges([0, 1], [1, 2], w=[1e308, 1e308])
    with pytest.raises(lg.InvalidGraphError, match="rescale the weights"):
        f(big, engine=engine)
    lost = lg.Graph.from_edges([0, 1], [1, 2], w=[1e17, 1.0], directed=True)   # 1e17 + 1 == 1e17
    for E in (engine, algebra_only(engine.name)):
        with pytest.raises(lg.exceptions.NumericRangeError, match="lost beside"):
            f(lost, engine=E)


# ---------------------------------------------------------------------- cases of the suite-wide tests
# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "brandes_sources": ("directed", lambda G, E: {"bc": lg.betweenness_centrality(G, k=40, seed=1, endpoints=True,
                                                                               engine=E)}),
    "brandes_edge_sources": ("directed", lambda G, E: {"ebc": lg.edge_betweenness_centrality(
        G, k=40, seed=1, weight=False, engine=E).score}),
    "brandes_weighted_sources": ("weighted", lambda G, E: {
        "bc": lg.betweenness_centrality(G, k=20, seed=1, endpoints=True, weight=True, engine=E),
        "ebc": lg.edge_betweenness_centrality(G, k=20, seed=1, weight=True, engine=E).score}),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "betweenness_centrality": (KARATE, (), {"k": 8, "seed": 4}, lambda bc: bump(bc, 0, 0.1)),
    "edge_betweenness_centrality": (WEIGHTED, (), {"k": 8, "seed": 4},
                                    lambda r: dataclasses.replace(r, score=bump(r.score, 0, 0.1))),
}
