"""Every fused step of every engine against its algebra: declared right, same answers, never silent.

An engine's ``fused_steps`` are accelerations of the named algebraic steps of
the algorithm modules (:mod:`la_graph.algorithms.steps`).  Here each one is
run inside its algorithm with the kernel on and with the step's algebra
(``steps.algebraic(name)``) on the same engine, on generated and real graphs:
labels, levels, distances and forests must be identical, parents valid.  The
GPU half runs on a device and skips elsewhere.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
from types import MappingProxyType

import numpy as np
import pytest

import la_graph as lg
from la_graph import generators, verify
from la_graph.algorithms import steps
from la_graph.engines.base import Declined
from la_graph.exceptions import ConvergenceError

from .graphs import real


def _bfs(G, E, direction, whole=True):
    """BFS from 0; ``whole=False``: with the whole-search step as algebra, so that its stretch steps run."""
    with contextlib.nullcontext() if whole else steps.algebraic("bfs_search"):
        r = lg.bfs(G, 0, direction=direction, engine=E)
    verify.check_bfs(G, 0, r)
    return {"level": r.level}


def _bfs_search(G, E):
    out = {}
    for direction in ("auto", "push", "pull"):
        for s in (0, G.n // 2, int(np.argmax(G.out_degree)), int(np.argmin(G.out_degree))):
            for level, parent in ((True, True), (True, False), (False, True)):
                r = lg.bfs(G, s, direction=direction, level=level, parent=parent, engine=E)
                verify.check_bfs(G, s, r)
                key = f"{direction} from {s}, level={level}, parent={parent}"
                out[key + ": reached"] = (r.parent if parent else r.level) >= 0
                if level:
                    out[key + ": level"] = r.level
    return out


def _sssp(G, E, method):
    r = lg.sssp(G, 0, method=method, engine=E)
    verify.check_sssp(G, 0, r.distance, r.parent)
    return {"distance": r.distance}


def _sssp_batch(G, E):
    src = [0, G.n // 2, G.n - 1]
    r = lg.sssp(G, sources=src, engine=E)
    for i, s in enumerate(src):
        verify.check_sssp(G, s, r.distance[i], r.parent[i])
    return {"distance": r.distance}


def _msf(G, E):
    r = lg.minimum_spanning_forest(G, engine=E)
    verify.check_msf(G, r)
    return {"u": r.u, "v": r.v, "weight": r.weight, "labels": r.labels}


def _mis(G, E):
    G = G.to_undirected() if G.directed else G        # the real graphs are read as edge lists
    mask = lg.maximal_independent_set(G, seed=3, engine=E)
    verify.check_mis(G, mask)
    return {"mask": mask}


def _apsp(G, E):
    D = lg.apsp(G, "floyd_warshall", engine=E)
    verify.check_apsp(G, D)
    return {"distance": D}


def _bfs_multi(G, E):
    src = np.r_[np.arange(0, G.n, max(G.n // 70, 1)), 0]      # more than 64 sources (two launches), one twice
    out = {}
    for level, parent in ((True, True), (True, False), (False, True)):
        r = lg.bfs(G, sources=src, level=level, parent=parent, engine=E)
        verify.check_bfs(G, None, r)
        out[f"level={level}, parent={parent}: reached"] = (r.parent if parent else r.level) >= 0
        if level:
            out[f"level={level}, parent={parent}: level"] = r.level
    return out


def _pagerank(G, E):
    """Every variant, weighted and not, with personalization and dangling distributions."""
    n = G.n
    rng = np.random.default_rng(4)
    p, d = rng.uniform(0, 1, n), rng.uniform(0, 1, n)
    out = {"networkx": lg.pagerank(G, engine=E),
           "networkx, tol 1e-12": lg.pagerank(G, tol=1e-12, max_iter=500, engine=E),
           "personalization": lg.pagerank(G, personalization=p, engine=E),
           "dangling": lg.pagerank(G, dangling=d, engine=E),
           "both": lg.pagerank(G, alpha=0.7, personalization=p, dangling=d, engine=E),
           "gap": lg.pagerank(G, variant="gap", max_iter=20, tol=1e-4, engine=E),
           "graphalytics": lg.pagerank(G, variant="graphalytics", max_iter=7, engine=E)}
    if G.weighted:
        out["unweighted"] = lg.pagerank(G, weight=False, engine=E)
    try:
        lg.pagerank(G, max_iter=2, tol=1e-14, engine=E)
    except ConvergenceError as e:
        out["not converged"] = e.result
    return out


def _reach(G, E):
    src = np.arange(0, G.n, max(G.n // 40, 1))
    R = lg.reachability(G, src, engine=E)
    verify.check_reachability(G, src, R)
    return {"reach": R}


def _communities(G, E, method):
    G = G.to_undirected() if G.directed else G        # the real graphs are read as edge lists
    r = method(G, seed=1, engine=E, dendrogram=True)
    return {"labels": r.labels, **{f"level {i}": x for i, x in enumerate(r.levels)}}


def _truss(G, E):
    r = lg.trussness(G, engine=E)
    return {"u": r.u, "v": r.v, "truss": r.truss, "4-truss": lg.k_truss(G, 4, engine=E).vertices}


# step -> (graph kind, run(G, engine) -> {name: array compared exactly}); every step is listed
RUNS = {
    "bfs_push": ("undirected", lambda G, E: _bfs(G, E, "push", whole=False)),
    "bfs_pull": ("directed", lambda G, E: _bfs(G, E, "pull", whole=False)),
    "bfs_search": ("directed", _bfs_search),
    "bfs_multi": ("directed", _bfs_multi),
    "fastsv_round": ("undirected", lambda G, E: {"labels": lg.connected_components(G, engine=E)}),
    "component_labels": ("undirected", lambda G, E: {"labels": lg.connected_components(G, engine=E)}),
    "scc_trim": ("directed", lambda G, E: {"labels": lg.strongly_connected_components(G, engine=E)}),
    "scc_fwbw": ("directed", lambda G, E: {"labels": lg.strongly_connected_components(G, engine=E)}),
    "scc_color": ("directed", lambda G, E: {"labels": lg.strongly_connected_components(G, engine=E)}),
    "scc_labels": ("directed", lambda G, E: {"labels": lg.strongly_connected_components(G, engine=E)}),
    "msf_edges": ("weighted", _msf),
    "msf_round": ("weighted", _msf),
    "msf_forest": ("weighted", _msf),
    "msf_labels": ("weighted", _msf),
    "sssp_delta_stepping": ("weighted_directed", lambda G, E: _sssp(G, E, "delta_stepping")),
    "sssp_bellman_ford": ("weighted_directed", lambda G, E: _sssp(G, E, "bellman_ford")),
    "sssp_relax": ("weighted_directed", lambda G, E: _sssp(G, E, "delta_stepping")),
    "sssp_batch": ("weighted_directed", _sssp_batch),
    "floyd_warshall": ("apsp", _apsp),
    "reach_sweep": ("directed", _reach),
    "vertex_priorities": ("undirected", _mis),
    "luby_round": ("undirected", _mis),
    "luby": ("undirected", _mis),
    "core_peel": ("directed", lambda G, E: {"core": lg.core_number(G, engine=E)}),
    "triangle_total": ("undirected", lambda G, E: {"total": np.array([lg.triangle_count(G, engine=E)])}),
    "vertex_triangles": ("undirected", lambda G, E: {"triangles": lg.triangles(G, engine=E),
                                                     "lcc": lg.local_clustering_coefficient(G, engine=E)}),
    "brandes_sources": ("directed", lambda G, E: {"bc": lg.betweenness_centrality(G, k=40, seed=1, endpoints=True,
                                                                               engine=E)}),
    "brandes_edge_sources": ("directed", lambda G, E: {"ebc": lg.edge_betweenness_centrality(
        G, k=40, seed=1, weight=False, engine=E).score}),
    "brandes_weighted_sources": ("weighted", lambda G, E: {
        "bc": lg.betweenness_centrality(G, k=20, seed=1, endpoints=True, weight=True, engine=E),
        "ebc": lg.edge_betweenness_centrality(G, k=20, seed=1, weight=True, engine=E).score}),
    "pagerank_iterate": ("weighted_directed", _pagerank),
    "louvain_move": ("undirected", lambda G, E: _communities(G, E, lg.louvain)),
    "leiden_refine": ("undirected", lambda G, E: _communities(G, E, lg.leiden)),
    "edge_support": ("undirected", _truss),
    "truss_peel": ("undirected", _truss),
    "truss_levels": ("undirected", _truss),
    "color_classes": ("undirected", lambda G, E: {m: lg.coloring(G, seed=1, method=m, engine=E)
                                                  for m in ("jones_plassmann", "largest_first")}),
    "distance_sums": ("weighted_directed", lambda G, E: {
        f"{f.__name__} distance={d}": f(G, k=60, seed=1, distance=d, engine=E)
        for f in (lg.closeness_centrality, lg.harmonic_centrality) for d in (None, False)}),
    "hop_reach": ("directed", lambda G, E: {"hops": lg.k_hop(G, [0, 5], 3, engine=E)}),
    "similarity_top_k": ("directed", lambda G, E: {f"{m} {x}": getattr(lg.similarity(G, metric=m, top_k=7,
                                                                                    engine=E), x)
                                                   for m in ("jaccard", "cosine") for x in ("u", "v", "score")}),
}

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
              "distance_sums")


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
    assert set(RUNS) == set(steps.STEPS)


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
    serial = [_pagerank(make(), "cpu") for make in makers]
    monkeypatch.setattr(fused, "PAGERANK_PARALLEL_MIN_NNZ", 0)
    for make, alone in zip(makers, serial):
        G = make()
        _same(G, lg.get_engine("cpu"), "pagerank_iterate")
        assert G._engine_cache[("cpu", "pagerank", G.weighted)][-1]   # it did run in chunks
        for key, value in _pagerank(G, "cpu").items():
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
