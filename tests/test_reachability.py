import contextlib
from unittest import mock

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from hypothesis import given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph.algorithms.reachability import default_batch
from la_graph.verify import check_reachability

from .graphs import DIRECTED, SMALL, real


def _closure(G):
    """Dense transitive closure (reflexive) by scipy, for small graphs."""
    d = csgraph.shortest_path(G.to_scipy(), directed=True, unweighted=True)
    return np.isfinite(d)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_graphs_all_sources(engine, name):
    G = SMALL[name]()
    if G.n == 0:
        return
    R = lg.reachability(G, np.arange(G.n), engine=engine)
    assert R.dtype == np.bool_ and R.shape == (G.n, G.n)
    np.testing.assert_array_equal(R, _closure(G))
    check_reachability(G, np.arange(G.n), R)


@pytest.mark.parametrize("batch", [1, 2, 3, 7, 1000])
def test_batch_does_not_change_result(engine, batch):
    G = SMALL["rmat_directed"]()
    sources = [0, 5, 5, 17, G.n - 1, 3, 100]
    R = lg.reachability(G, sources, batch=batch, engine=engine)
    np.testing.assert_array_equal(R, lg.reachability(G, sources, engine=engine))
    check_reachability(G, sources, R)


@pytest.mark.parametrize("name", ["rmat_directed", "uniform_directed", "directed_cycle", "grid", "two_stars"])
def test_agrees_with_multi_source_bfs(engine, name):
    G = SMALL[name]()
    sources = [0, G.n - 1, G.n // 2, 0]
    R = lg.reachability(G, sources, engine=engine)
    np.testing.assert_array_equal(R, lg.bfs(G, sources=sources, parent=False, engine=engine).level >= 0)


def test_undirected_is_component_membership(engine):
    G = SMALL["caveman"]()
    labels = lg.connected_components(G, engine=engine)
    R = lg.reachability(G, np.arange(G.n), engine=engine)
    np.testing.assert_array_equal(R, labels[:, None] == labels[None, :])


def test_self_loops_and_isolated_sources(engine):
    G = lg.Graph.from_edges([0, 1, 2], [0, 2, 1], n=4, directed=True)
    R = lg.reachability(G, [0, 1, 3], engine=engine)
    np.testing.assert_array_equal(R.astype(int), [[1, 0, 0, 0], [0, 1, 1, 0], [0, 0, 0, 1]])


def test_default_batch():
    assert default_batch(10, 5) == 5
    assert default_batch(1 << 24, 64) == 2
    assert default_batch(1 << 30, 64) == 1
    assert default_batch(0, 3) == 3


@given(
    n=st.integers(1, 30),
    edges=st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29)), max_size=90),
    directed=st.booleans(),
    batch=st.integers(1, 8),
)
@settings(max_examples=50, deadline=None)
def test_property_random_graphs(n, edges, directed, batch):
    u = [a % n for a, _ in edges]
    v = [b % n for _, b in edges]
    G = lg.Graph.from_edges(u, v, n=n, directed=directed)
    R = lg.reachability(G, np.arange(n), batch=batch, engine="cpu")
    np.testing.assert_array_equal(R, _closure(G))


@pytest.mark.parametrize("name", ["snap/cit-HepTh.txt.gz", "snap/p2p-Gnutella31.txt.gz", "dimacs/rome99.gr"])
def test_real_graphs(engine, shared_data, name):
    G = real(shared_data, name)
    sources = np.random.default_rng(7).choice(G.n, 16, replace=False)
    R = lg.reachability(G, sources, batch=5, engine=engine)
    check_reachability(G, sources, R)


def test_checker_catches_errors():
    G = lg.Graph.from_edges([0, 1], [1, 2], n=4, directed=True)
    R = lg.reachability(G, [0, 1])
    check_reachability(G, [0, 1], R)
    bad = R.copy()
    bad[0, 3] = True
    with pytest.raises(lg.VerificationError, match=r"R\[0, 3\] = True but vertex 3 is not reachable from 0"):
        check_reachability(G, [0, 1], bad)
    bad = R.copy()
    bad[1, 1] = False
    with pytest.raises(lg.VerificationError, match=r"R\[1, 1\] = False but vertex 1 is reachable from 1"):
        check_reachability(G, [0, 1], bad)
    with pytest.raises(lg.VerificationError, match="boolean"):
        check_reachability(G, [0, 1], R.astype(int))
    with pytest.raises(lg.VerificationError, match="shape"):
        check_reachability(G, [0, 1, 2], R)
    check_reachability(G, [0, 1], R, sample=1)


@pytest.mark.parametrize(
    "sources, exc, match",
    [
        ([], lg.InvalidSourceError, "at least one"),
        ([0, 9], lg.InvalidSourceError, r"sources\[1\] = 9 is out of range 0..3"),
        ([-1], lg.InvalidSourceError, "out of range"),
        ([[0, 1]], lg.InvalidSourceError, "1-D"),
        (["a"], lg.InvalidSourceError, "integer vertex id"),
        ([0.5], lg.InvalidSourceError, "integer vertex id"),
    ],
)
def test_bad_sources(sources, exc, match):
    G = lg.Graph.from_edges([0, 1], [1, 2], n=4, directed=True)
    with pytest.raises(exc, match=match):
        lg.reachability(G, sources)


@pytest.mark.parametrize("batch", [0, -2, 1.5, True, "4"])
def test_bad_batch(batch):
    G = lg.Graph.from_edges([0, 1], [1, 2], n=4, directed=True)
    with pytest.raises(lg.InvalidArgumentError, match="batch must be a positive integer"):
        lg.reachability(G, [0], batch=batch)


def test_bad_graph():
    with pytest.raises(lg.InvalidGraphError):
        lg.reachability([[0, 1]], [0])
    with pytest.raises(lg.InvalidSourceError, match="no vertices"):
        lg.reachability(lg.Graph.from_edges([], [], n=0), [0])


@pytest.mark.parametrize("name", ["rmat_directed", "uniform_directed", "grid", "directed_cycle", "self_loop"])
def test_reach_sweep_step_and_its_algebra_match_scipy(engine, name):
    """The reach_sweep step (the engine's fused kernel where it has one) and its algebra on the engine's
    primitives each give scipy's reach from every source (where the engine has no kernel, both are the
    algebra: scipy still checks it)."""
    from la_graph.algorithms.reachability import reach_sweep

    G = SMALL[name]()
    srcs = np.random.default_rng(0).integers(0, G.n, 70)  # more than one 64-bit word of sources
    want = np.isfinite(np.atleast_2d(csgraph.shortest_path(G.to_scipy(), directed=True, unweighted=True,
                                                            indices=srcs)))
    np.testing.assert_array_equal(reach_sweep(engine, G, srcs), want)
    np.testing.assert_array_equal(reach_sweep.algebraic(engine, G, srcs), want)


def _sources(G, kind):
    if kind == "spread":   # more than one 64-bit word of sources
        return np.r_[np.arange(0, G.n, max(G.n // 60, 1)), np.random.default_rng(1).integers(0, G.n, 20)]
    return np.r_[[0] * 3, [G.n // 2] * 3, [0]]   # repeats: searches that see the same vertices at once


#: (REACH_MIN_SHARE, REACH_FLAT, REACH_FLAT_BUDGET): never stop the sweep, the defaults, stop at the
#: first level that would pull, stop after the second level
STOPS = [(0.0, 9.9, 0.0), (3.0, 0.95, 0.5), (0.0, 0.0, 0.0), (1e9, 9.9, 0.0)]


def _stopped(stop):
    from la_graph.engines.cpu.fused import reachability as fused

    return [mock.patch.object(fused, name, value)
            for name, value in zip(("REACH_MIN_SHARE", "REACH_FLAT", "REACH_FLAT_BUDGET"), stop)]


@pytest.mark.parametrize("stop", STOPS)
@pytest.mark.parametrize("kind", ["spread", "repeats"])
@pytest.mark.parametrize("name", ["rmat_directed", "uniform_directed", "grid", "directed_cycle", "two_stars",
                                  "self_loop"])
def test_cpu_sweep_finished_after_any_level(name, kind, stop):
    """The CPU kernel's sweep handed to its shared finish (SCCs in topological order) after any level: scipy's reach."""
    from la_graph.algorithms.reachability import reach_sweep
    from la_graph.engines import get_engine

    G = SMALL[name]()
    srcs = _sources(G, kind)
    want = np.isfinite(np.atleast_2d(csgraph.shortest_path(G.to_scipy(), directed=True, unweighted=True,
                                                            indices=srcs)))
    with contextlib.ExitStack() as patches:
        for patch in _stopped(stop):
            patches.enter_context(patch)
        np.testing.assert_array_equal(reach_sweep(get_engine("cpu"), G, srcs), want)


@given(
    n=st.integers(1, 40),
    edges=st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39)), max_size=120),
    nsources=st.integers(1, 70),
    stop=st.sampled_from(STOPS),
)
@settings(max_examples=80, deadline=None)
def test_property_cpu_sweep_finished_after_any_level(n, edges, nsources, stop):
    G = lg.Graph.from_edges([a % n for a, _ in edges], [b % n for _, b in edges], n=n, directed=True)
    srcs = np.random.default_rng(n + nsources).integers(0, n, nsources)
    with contextlib.ExitStack() as patches:
        for patch in _stopped(stop):
            patches.enter_context(patch)
        R = lg.reachability(G, srcs, engine="cpu")
    np.testing.assert_array_equal(R, _closure(G)[srcs])


# ---------------------------------------------------------------------- cases of the suite-wide tests

def _reach(G, E):
    src = np.arange(0, G.n, max(G.n // 40, 1))
    R = lg.reachability(G, src, engine=E)
    check_reachability(G, src, R)
    return {"reach": R}


# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "reach_sweep": ("directed", _reach),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "reachability": (DIRECTED, ([0, 5],), {}, lambda R: np.r_[~R[:1], R[1:]]),
}
