"""Every fused step of every engine against its algebra: declared right, same answers, never silent.

An engine's ``fused_steps`` are accelerations of the named algebraic steps of
the algorithm modules (:mod:`la_graph.algorithms.steps`).  Here each one is
run inside its algorithm with the kernel on and with the step's algebra
(``steps.algebraic(name)``) on the same engine, on generated and real graphs:
labels, levels, distances and forests must be identical, parents valid.  The
GPU half runs on a device and skips elsewhere.
"""

from __future__ import annotations

import inspect
import logging
from types import MappingProxyType

import numpy as np
import pytest

import la_graph as lg
from la_graph import generators
from la_graph.algorithms import steps
from la_graph.engines.base import Declined

from .gather import gather, owner
from .graphs import real


# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): the FUSED_RUNS of the algorithms'
# test files, each step's in the file of the module that defines it (tests/gather.py)
RUNS, RUNS_FROM = gather("FUSED_RUNS")

# graph kind -> generated graphs (integer weights: sums are exact, so distances must be identical)
GENERATED = {
    "undirected": [lambda: generators.rmat(12, 8, seed=5), lambda: generators.grid_2d(60, 40),
                   lambda: generators.caveman(30, 6)],
    "directed": [lambda: generators.rmat(12, 6, seed=6, directed=True),
                 lambda: generators.uniform(3000, 6000, seed=7, directed=True),
                 lambda: lg.Graph.from_edges(np.arange(999), np.arange(1, 1000), directed=True)],
    "weighted": [lambda: generators.rmat(12, 8, seed=8, weights=(1, 50)),
                 lambda: generators.grid_2d(50, 40, weights=(1, 9), seed=9),
                 lambda: generators.uniform(2000, 3000, seed=10, weights="uniform")],
    "weighted_directed": [lambda: generators.rmat(11, 8, seed=11, directed=True, weights=(1, 100)),
                          lambda: generators.grid_2d(50, 40, weights=(0, 9), seed=12),
                          lambda: generators.uniform(2000, 8000, seed=13, directed=True, weights=(1, 1000))],
    "apsp": [lambda: generators.rmat(8, 6, seed=14, directed=True, weights=(1, 20)),
             lambda: generators.grid_2d(15, 13, weights=(1, 9), seed=15)],
}

# graph kind -> real graphs of ../shared/data (tests/graphs.py REAL)
REAL_GRAPHS = {
    "undirected": ["snap/CA-GrQc.txt.gz", "suitesparse/usroads-48.mtx.gz"],
    "directed": ["snap/email-Eu-core.txt.gz", "snap/p2p-Gnutella31.txt.gz"],
    "weighted": ["dimacs/rome99.gr"],
    "weighted_directed": ["dimacs/rome99.gr"],
    "apsp": [],
}


def _fused(engine):
    if not engine.fused_steps:
        pytest.skip(f"the {engine.name} engine fuses no step")
    return engine.fused_steps


# steps whose kernels add floats in another order than their algebra: allclose, not equal
_REORDERED = ("brandes_sources", "brandes_edge_sources", "brandes_weighted_sources", "pagerank_iterate",
              "hits_iterate", "distance_sums", "modularity_terms")


def _same(G, engine, name):
    _, run = RUNS[name]
    fused = run(G, engine)
    with steps.algebraic(name):
        plain = run(G, engine)
    for key, value in fused.items():
        if np.asarray(value).dtype.kind == "f" and name in _REORDERED:
            np.testing.assert_allclose(value, plain[key], rtol=1e-12, atol=1e-15,
                                       err_msg=f"{name} on {engine.name}: {key} differs")
        else:
            np.testing.assert_array_equal(value, plain[key], err_msg=f"{name} on {engine.name}: {key} differs")


def test_every_step_is_exercised():
    """Every step has its run, in FUSED_RUNS of the test file of the module that defines it."""
    home = {name: owner(s.algebraic.__module__) for name, s in steps.STEPS.items()}
    missing = [f"{name}: add it to FUSED_RUNS of {home[name]}" for name in sorted(set(home) - set(RUNS))]
    assert not missing, "steps without a run: " + "; ".join(missing)
    unknown = [f"{name} (FUSED_RUNS of {RUNS_FROM[name]})" for name in sorted(set(RUNS) - set(home))]
    assert not unknown, "runs of no step: " + "; ".join(unknown)
    assert set(RUNS) == set(steps.STEPS)
    away = [f"{name}: from {RUNS_FROM[name]} to {home[name]}" for name in sorted(RUNS)
            if RUNS_FROM[name] != home[name] and home[name].startswith("tests/")]
    assert not away, "runs away from their step's test file, move them: " + "; ".join(away)


def test_declarations(engine):
    """Fused steps name registered steps, take the algebra's arguments, and fuse families whole."""
    declared = engine.fused_steps
    assert isinstance(declared, MappingProxyType)
    for name, impl in declared.items():
        assert name in steps.STEPS, f"{engine.name} fuses an unknown step {name!r}"
        want = list(inspect.signature(steps.STEPS[name].algebraic).parameters)
        got = list(inspect.signature(impl).parameters)
        assert got == want, f"{engine.name}'s {name} takes {got}, the algebra {want}"
    for family, names in steps.families().items():
        have = set(names) & set(declared)
        assert not have or have == set(names), f"{engine.name} fuses {sorted(have)} of family {family}"


@pytest.mark.parametrize("name", sorted(RUNS))
@pytest.mark.parametrize("which", range(3))
def test_fused_equals_algebra_generated(engine, name, which):
    if name not in _fused(engine):
        pytest.skip(f"the {engine.name} engine does not fuse {name}")
    makers = GENERATED[RUNS[name][0]]
    if which >= len(makers):
        pytest.skip("no such graph")
    _same(makers[which](), engine, name)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_fused_equals_algebra_real(engine, shared_data, name):
    if name not in _fused(engine):
        pytest.skip(f"the {engine.name} engine does not fuse {name}")
    graphs = REAL_GRAPHS[RUNS[name][0]]
    if not graphs:
        pytest.skip("no real graph of this kind is small enough")
    for path in graphs:
        G = real(shared_data, path)
        if RUNS[name][0] == "weighted" and G.directed:
            G = G.to_undirected()
        _same(G, engine, name)


def test_pagerank_chunks_in_parallel(monkeypatch):
    """The CPU pagerank_iterate on small graphs in parallel chunks: the algebra's ranks, the serial kernel's."""
    from la_graph.engines.cpu.fused import pagerank as fused
    makers = GENERATED["weighted_directed"] + GENERATED["directed"]
    _, run = RUNS["pagerank_iterate"]
    serial = [run(make(), "cpu") for make in makers]
    monkeypatch.setattr(fused, "PAGERANK_PARALLEL_MIN_NNZ", 0)
    for make, alone in zip(makers, serial):
        G = make()
        _same(G, lg.get_engine("cpu"), "pagerank_iterate")
        assert G._engine_cache[("cpu", "pagerank", G.weighted)][-1]   # it did run in chunks
        for key, value in run(G, "cpu").items():
            np.testing.assert_allclose(value, alone[key], rtol=1e-12, atol=1e-15, err_msg=key)


def _declining(E, *args):
    raise Declined("the test's kernel takes nothing")


def test_declined_runs_the_algebra_logged_and_profiled(caplog):
    """A kernel that cannot take its arguments: the algebra runs, the log and the profile say so."""
    cpu = type(lg.get_engine("cpu"))
    E = type("Declining", (cpu,), {"fused_steps": MappingProxyType({"fastsv_round": _declining})})()
    G = generators.caveman(5, 4)
    with caplog.at_level(logging.DEBUG, logger="la_graph"), lg.profile.collect() as prof:
        labels = lg.connected_components(G, engine=E)
    np.testing.assert_array_equal(labels, lg.connected_components(G, engine="cpu"))
    assert "fastsv_round kernel declined (the test's kernel takes nothing)" in caplog.text
    row = prof.row("fastsv_round", engine="cpu", kind="declined")
    assert row["calls"] >= 1
    assert prof.row("mxv", engine="cpu")["calls"] >= 1  # the algebra's primitives ran


def test_profile_kinds():
    """The profile tells fused from algebraic steps and counts the primitives inside."""
    G = generators.grid_2d(10, 10)
    with lg.profile.collect() as prof:
        with steps.algebraic("component_labels"):        # FastSV's rounds, not the CPU's union-find
            lg.connected_components(G, engine="cpu")
            with steps.algebraic("fastsv_round"):
                lg.connected_components(G, engine="cpu")
        lg.connected_components(G, engine="reference")
    fused = prof.row("fastsv_round", engine="cpu", kind="fused")
    plain = prof.row("fastsv_round", engine="cpu", kind="algebraic")
    ref = prof.row("fastsv_round", engine="reference", kind="algebraic")
    assert fused["calls"] >= 1 and plain["calls"] >= 1 and ref["calls"] >= 1
    assert plain["total_s"] >= plain["self_s"] >= 0
    assert prof.row("mxv", engine="reference", kind="primitive")["calls"] >= ref["calls"]
    assert "fastsv_round" in prof.table()
    assert prof.row("component_labels", engine="cpu", kind="algebraic")["calls"] == 2


def test_algebraic_rejects_unknown_step():
    with pytest.raises(ValueError, match="unknown step 'no_such_step'"):
        with steps.algebraic("no_such_step"):
            pass
