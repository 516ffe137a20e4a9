"""HITS: networkx's hubs and authorities on generated and real graphs, every engine, errors; the fused step."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import la_graph as lg
from la_graph import Graph, generators
from la_graph.algorithms import steps
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


# ---------------------------------------------------------------------- the CPU engine's fused hits_iterate
# Its row sums are added in CSR order; SuiteSparse's mxv adds some rows in another order (weighted rows, the
# rows of large graphs), and the L1 change is added per chunk: the fused step's hubs and authorities are
# the algebra's to within floating-point reassociation, stated here as rtol 1e-12, atol 1e-15
FUSED_RTOL, FUSED_ATOL = 1e-12, 1e-15

WEIGHTED = {
    "rmat_directed": lambda: generators.rmat(11, 8, seed=11, directed=True, weights=(1, 100)),
    "grid": lambda: generators.grid_2d(50, 40, weights=(0, 9), seed=12),     # zero weights, undirected
    "uniform_directed": lambda: generators.uniform(2000, 8000, seed=13, directed=True, weights="uniform"),
}


def _fused_and_algebra(G, **kw):
    """``lg.hits(G, **kw)`` on the CPU with the fused step and with its algebra: two (hubs, auth) or errors."""
    out = []
    for off in (False, True):
        with steps.algebraic("hits_iterate") if off else _nothing(), lg.profile.collect() as prof:
            try:
                out.append(lg.hits(G, engine="cpu", **kw))
            except ConvergenceError as e:
                out.append(e)
        assert prof.row("hits_iterate", engine="cpu", kind="algebraic" if off else "fused") is not None
    return out


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _pair(r):
    """The (hubs, authorities) of a result or of a ConvergenceError."""
    return r.result if isinstance(r, ConvergenceError) else r


def _close(fused, plain):
    assert isinstance(fused, ConvergenceError) == isinstance(plain, ConvergenceError)
    for x, y in zip(_pair(fused), _pair(plain)):
        np.testing.assert_allclose(x, y, rtol=FUSED_RTOL, atol=FUSED_ATOL)


@pytest.mark.parametrize("name", sorted(WEIGHTED))
@pytest.mark.parametrize("kw", [{}, {"normalized": False}, {"weight": False}, {"tol": 1e-13, "max_iter": 2000}])
def test_fused_weighted(name, kw):
    G = WEIGHTED[name]()
    fused, plain = _fused_and_algebra(G, **kw)
    if isinstance(plain, ConvergenceError):   # the grid's hubs oscillate: its spectrum is symmetric
        assert isinstance(fused, ConvergenceError) and fused.iterations == plain.iterations
    _close(fused, plain)


def test_fused_nstart():
    G = generators.rmat(12, 6, seed=6, directed=True)
    start = np.random.default_rng(4).uniform(0, 1, G.n)
    _close(*_fused_and_algebra(G, nstart=start))
    _close(*_fused_and_algebra(G, nstart={5: 1.0}, tol=1e-12, max_iter=1000))


def test_fused_convergence_error():
    G = generators.rmat(10, 8, seed=3, directed=True, weights=(1, 9))
    fused, plain = _fused_and_algebra(G, max_iter=3)
    assert isinstance(fused, ConvergenceError) and isinstance(plain, ConvergenceError)
    assert str(fused).startswith("hits did not converge in 3 iterations: the last one changed the hubs by ")
    assert fused.iterations == plain.iterations == 3
    assert fused.error == pytest.approx(plain.error, rel=1e-12)
    assert len(fused.result) == 2
    _close(fused.result, plain.result)
    assert fused.result[0].sum() == pytest.approx(1.0)


@pytest.mark.parametrize("directed", [True, False])
def test_fused_directed_and_undirected(directed):
    G = generators.rmat(12, 8, seed=21, directed=directed)
    fused, plain = _fused_and_algebra(G, tol=1e-12, max_iter=1000)
    _close(fused, plain)
    if not directed:
        np.testing.assert_allclose(fused[0], fused[1], rtol=1e-9, atol=1e-12)   # hubs are authorities
    want_h, _ = nx_hits(G)
    np.testing.assert_allclose(fused[0], want_h, atol=1e-9)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("directed", [False, True])
def test_fused_without_edges(weighted, directed):
    none = np.array([], np.int64)
    G = Graph.from_edges(none, none, np.array([]) if weighted else None, n=4, directed=directed)
    assert G.weighted == weighted
    fused, plain = _fused_and_algebra(G, nstart=[1.0, 2.0, 3.0, 4.0])
    for x, y in zip(fused, plain):
        assert x.tolist() == y.tolist() == [0.0] * 4


def test_fused_chunks_in_parallel(monkeypatch):
    """The chunked (prange) loop on small graphs: the serial loop's results to the bit, the algebra's within tol."""
    from la_graph.engines.cpu.fused import hits as fused_hits
    makers = list(WEIGHTED.values()) + [lambda: generators.rmat(12, 6, seed=6, directed=True)]
    serial = [_fused_and_algebra(make())[0] for make in makers]
    monkeypatch.setattr(fused_hits, "HITS_PARALLEL_MIN_NNZ", 0)
    for make, alone in zip(makers, serial):
        G = make()
        fused, plain = _fused_and_algebra(G)
        assert G._engine_cache[("cpu", "hits", G.weighted)][-1]   # it did run in chunks
        _close(fused, plain)
        for x, y in zip(_pair(fused), _pair(alone)):
            np.testing.assert_array_equal(x, y)


def _hits(G, engine):
    E = lg.get_engine(engine)
    out = {}
    runs = {"default": {}, "unnormalized": {"normalized": False}, "tol 1e-12": {"tol": 1e-12, "max_iter": 1000}}
    if G.weighted:
        runs["unweighted"] = {"weight": False}
    for key, kw in runs.items():
        try:
            out[key + " hubs"], out[key + " authorities"] = lg.hits(G, engine=E, **kw)
        except ConvergenceError as e:     # not converging is an answer too: the last iterate, on both paths
            out[key + " hubs (not converged)"], out[key + " authorities (not converged)"] = e.result
    try:
        lg.hits(G, max_iter=2, tol=1e-14, engine=E)
    except ConvergenceError as e:
        out["not converged hubs"], out["not converged authorities"] = e.result
    return out


# step -> (graph kind, run(G, engine) -> {name: array}): tests/test_fused.py runs each with the engines'
# kernels and with the step's algebra; hits_iterate is one of its reordered steps (rows summed in CSR order,
# SuiteSparse's in its own: equal within rtol 1e-12), so the weighted graphs run there too (the unweighted
# hubs of each through weight=False)
FUSED_RUNS = {
    "hits_iterate": ("weighted_directed", _hits),
}


# ---------------------------------------------------------------------- cases of the suite-wide tests
# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "hits": (DIRECTED, (), {}, lambda r: (bump(r[0], 0, 0.1), r[1])),
}
