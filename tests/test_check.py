"""``check=True`` on every public algorithm, and ``LA_GRAPH_CHECK=1`` for a whole program.

Each algorithm runs with ``check=True`` on a small graph on every engine (the gpu variants where a GPU
is); a wrong answer (the algorithm swapped for one that corrupts its result, or an engine primitive
that corrupts what it returns) raises VerificationError; the environment variable turns checking on
and ``check=False`` turns it off again.
"""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest

import la_graph as lg
from la_graph import algorithms
from la_graph.algorithms import _certify
from la_graph.algorithms import _registry as R
from la_graph.exceptions import InvalidArgumentError, VerificationError

from .gather import gather, owner
from .graphs import CHAIN, DIRECTED, KARATE, bump

# name -> (graph, args, keywords, corrupt(result) -> a wrong result): the CHECK_CASES of the algorithms' test
# files, each function's in the file of the module that registers it (tests/gather.py)
CASES, CASES_FROM = gather("CHECK_CASES")

#: public functions that score an answer the caller gives (a partition) rather than compute one:
#: nothing of theirs to check, so no check= (registered without a checker, tests/test_registry.py)
MEASURES = {"modularity"}
PUBLIC = sorted(name for name in algorithms.__all__
                if inspect.isfunction(getattr(algorithms, name)) and name not in MEASURES)


def _same(a, b):
    """Results compare equal (arrays, dataclasses of arrays, graphs, block lists)."""
    if dataclasses.is_dataclass(a):
        return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, lg.Graph):
        return a == b
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, tuple):
        return all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, slice):
        return a == b
    return a is b or np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)


def _run(name, **extra):
    G, args, kw, _ = CASES[name]
    out = getattr(lg, name)(G, *args, **kw, **extra)
    return list(out) if name == "apsp_blocks" else out


def test_every_public_algorithm_takes_check_and_documents_it():
    home = {name: owner(R.REGISTRY[name].module) for name in PUBLIC}
    missing = [f"{name}: add it to CHECK_CASES of {home[name]}" for name in sorted(set(PUBLIC) - set(CASES))]
    assert not missing, "public algorithms without a check=True case: " + "; ".join(missing)
    unknown = [f"{name} (CHECK_CASES of {CASES_FROM[name]})" for name in sorted(set(CASES) - set(PUBLIC))]
    assert not unknown, "cases of no public algorithm that checks: " + "; ".join(unknown)
    assert set(PUBLIC) == set(CASES)
    away = [f"{name}: from {CASES_FROM[name]} to {home[name]}" for name in PUBLIC
            if CASES_FROM[name] != home[name] and home[name].startswith("tests/")]
    assert not away, "cases away from their function's test file, move them: " + "; ".join(away)
    for name in PUBLIC:
        fn = getattr(lg, name)
        assert fn.certified == name
        p = inspect.signature(fn).parameters["check"]
        assert p.kind is p.KEYWORD_ONLY and p.default is None
        doc = fn.__doc__
        params = doc[doc.index("Parameters\n"):]
        params = params[:params.index("\n\n    Returns") if "Returns" in params else params.index("\n\n    Yields")]
        assert "    check : bool, optional\n" in params, name
        assert f":func:`~la_graph.verify.{_certify.checker_of(name)[0]}`" in params, name


@pytest.mark.parametrize("name", sorted(CASES))
def test_checked_call_returns_the_result_unchanged(engine, name, monkeypatch):
    if name == "apsp" and engine.name == "reference":
        pytest.skip("covered by apsp_blocks on the reference engine (its Floyd-Warshall is slow by design)")
    if name == "apsp_blocks":       # a generator the check consumes: compare with a second run (deterministic)
        assert _same(_run(name, engine=engine, check=True), _run(name, engine=engine))
        return
    # the very result the algorithm returned: a second run may differ where the answer is not unique
    # (the GPU engine's BFS parents, float sums in atomic order)
    fn, seen = getattr(lg, name), []
    real = fn.__wrapped__
    monkeypatch.setattr(fn, "__wrapped__", lambda *a, **k: seen.append(real(*a, **k)) or seen[-1])
    out = _run(name, engine=engine, check=True)
    assert len(seen) == 1 and _same(out, seen[0])


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_wrong_result_is_caught(monkeypatch, name):
    fn, corrupt = getattr(lg, name), CASES[name][3]
    real = fn.__wrapped__
    monkeypatch.setattr(fn, "__wrapped__", lambda *a, **k: corrupt(real(*a, **k)))
    _run(name)                                            # unchecked: the wrong answer comes back
    with pytest.raises(VerificationError):
        _run(name, check=True)


def test_a_wrong_engine_primitive_is_caught(monkeypatch):
    E = lg.get_engine("reference")
    real = type(E).to_numpy

    def to_numpy(self, x, fill=None, *, consume=False):
        out = real(self, x, fill, consume=consume)
        if consume and out.dtype.kind == "i" and out.size:   # a returned label or core number, off by one
            out[-1] += 1
        return out

    monkeypatch.setattr(type(E), "to_numpy", to_numpy)
    lg.connected_components(KARATE, engine=E)
    for run in (lambda **k: lg.connected_components(KARATE, engine=E, **k),
                lambda **k: lg.core_number(KARATE, engine=E, **k)):
        with pytest.raises(VerificationError):
            run(check=True)


def test_environment_turns_checking_on_and_check_false_overrides(monkeypatch):
    fn = lg.triangles
    real = fn.__wrapped__
    monkeypatch.setattr(fn, "__wrapped__", lambda *a, **k: bump(real(*a, **k), 0))
    monkeypatch.setenv(_certify.ENV, "1")
    with pytest.raises(VerificationError, match=r"triangles?\[0\]|per_vertex\[0\]|vertex 0"):
        fn(KARATE)
    fn(KARATE, check=False)                              # wrong, but not checked
    for off in ("0", "", "off"):
        monkeypatch.setenv(_certify.ENV, off)
        fn(KARATE)
    monkeypatch.setenv(_certify.ENV, "maybe")
    with pytest.raises(InvalidArgumentError, match="LA_GRAPH_CHECK"):
        fn(KARATE)
    with pytest.raises(InvalidArgumentError, match="check must be True or False"):
        fn(KARATE, check=1)


def test_nested_calls_are_checked_once(monkeypatch):
    # sssp on an unweighted graph runs bfs; scc runs connected_components: only the outer answer is checked
    seen = []
    for name in ("bfs", "connected_components", "sssp", "strongly_connected_components"):
        spec = _certify._SPECS[name]
        monkeypatch.setattr(spec, "full", lambda G, r, a, _full=spec.full, _n=name: (seen.append(_n), _full(G, r, a)))
    monkeypatch.setenv(_certify.ENV, "1")
    lg.sssp(KARATE, 0)
    lg.strongly_connected_components(DIRECTED)
    assert seen == ["sssp", "strongly_connected_components"]


def test_large_graphs_get_the_sampled_checker(monkeypatch):
    monkeypatch.setattr(_certify, "FULL_CHECK_MAX_NNZ", 10)
    for name in ("bfs", "sssp", "connected_components", "pagerank", "reachability", "apsp_blocks", "shortcut"):
        _run(name, check=True)
    fn = lg.connected_components
    real = fn.__wrapped__
    monkeypatch.setattr(fn, "__wrapped__", lambda *a, **k: np.arange(DIRECTED.n))     # every vertex alone
    with pytest.raises(VerificationError, match="neighbour"):                           # check_cc_sample's words
        fn(DIRECTED, check=True)
    monkeypatch.setattr(fn, "__wrapped__", real)
    calls = []
    monkeypatch.setattr(_certify.verify, "check_cc_sample", lambda *a, **k: calls.append("sample"))
    fn(DIRECTED, check=True)
    assert calls == ["sample"]


def test_betweenness_with_a_fresh_sample_is_checked():
    lg.betweenness_centrality(KARATE, k=5, check=True)          # seed=None: the wrapper draws the seed


def test_check_shortcut():
    from la_graph.verify import check_shortcut

    H = lg.shortcut(CHAIN, seed=1)
    check_shortcut(CHAIN, H)
    u, v = CHAIN.edges()
    with pytest.raises(VerificationError, match="of G is not in H"):
        check_shortcut(CHAIN, lg.Graph.from_edges(u[1:], v[1:], n=41, directed=True))
    with pytest.raises(VerificationError, match="40 -> 0, but 0 is not reachable from 40"):
        check_shortcut(CHAIN, lg.Graph.from_edges(np.r_[u, 40], np.r_[v, 0], n=41, directed=True))


def test_distributed_graph(threaded, monkeypatch):
    from la_graph.engines.dask import DaskEngine, rmat

    E = DaskEngine(threaded)
    G = rmat(E, 7, seed=1)
    assert lg.bfs(G, 0, engine=E, check=True).nlevels == lg.bfs(G.to_graph(), 0).nlevels  # full: G gathered
    monkeypatch.setattr(_certify, "FULL_CHECK_MAX_NNZ", 10)
    lg.connected_components(G, engine=E, check=True)                 # check_cc_sample, rows read on the workers
    with pytest.raises(InvalidArgumentError, match="no sampled checker"):
        lg.core_number(G, engine=E, check=True)                      # refused before it runs


@pytest.mark.gpu
def test_device_outputs_are_checked_on_the_host():
    try:
        E = lg.get_engine("gpu")
    except lg.EngineUnavailable as exc:
        pytest.skip(f"gpu engine unavailable: {exc}")
    for name in ("bfs", "connected_components", "strongly_connected_components", "maximal_independent_set",
                 "minimum_spanning_forest", "apsp"):
        G, args, kw, _ = CASES[name]
        out = getattr(lg, name)(G, *args, **kw, engine=E, output="device", check=True)
        assert not isinstance(out, np.ndarray)             # the caller keeps the device arrays
