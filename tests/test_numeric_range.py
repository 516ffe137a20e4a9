"""Numeric range: every place docs/errors.md's "Numeric range" table lists either gives the exact answer
(to rounding) or raises its named error -- never a silent wrong answer.  One test (or more) a row."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import la_graph as lg

BIG = 1e308                                   # two of them sum past float64's largest value (1.8e308)


def _karate(scale=1.0):
    """Karate with integer weights 1..4 (fixed), times ``scale``."""
    u, v = lg.Graph.from_file(lg.data.path("karate")).edges()
    keep = u < v
    w = np.random.default_rng(0).integers(1, 5, int(keep.sum())).astype(float)
    return lg.Graph.from_edges(u[keep], v[keep], w * scale)


# ---------------------------------------------------------------- shortest paths: sums of weights
PLUS = ([0, 1], [1, 2], [BIG, BIG])           # 0 -> 1 -> 2: 2e308
MINUS = ([0, 1], [1, 2], [-BIG, -BIG])        # -2e308
ALL_CALLS = {
    "sssp delta_stepping": lambda G, E: lg.sssp(G, 0, method="delta_stepping", engine=E),
    "sssp bellman_ford": lambda G, E: lg.sssp(G, 0, method="bellman_ford", engine=E),
    "sssp batch": lambda G, E: lg.sssp(G, sources=[0, 1], engine=E),
    "sssp batch bellman_ford": lambda G, E: lg.sssp(G, sources=[0, 1], method="bellman_ford", engine=E),
    "apsp floyd_warshall": lambda G, E: lg.apsp(G, "floyd_warshall", engine=E),
    "apsp sssp": lambda G, E: lg.apsp(G, "sssp", engine=E),
    "apsp_blocks": lambda G, E: list(lg.apsp_blocks(G, 2, engine=E)),
}


@pytest.mark.parametrize("call", list(ALL_CALLS))
@pytest.mark.parametrize("edges", [PLUS, MINUS], ids=["plus", "minus"])
def test_every_shortest_path_method_raises_on_a_length_past_float64(engine, call, edges):
    """A reached vertex whose path length overflows float64 (to +-inf) is never reported unreachable."""
    if edges is MINUS and call == "sssp delta_stepping":
        pytest.skip("delta-stepping takes non-negative weights")
    G = lg.Graph.from_edges(*edges[:2], w=edges[2], directed=True)
    with pytest.raises(lg.PathLengthOverflowError, match="does not fit in float64|below -1.798e\\+308"):
        ALL_CALLS[call](G, engine)


def test_the_overflow_error_is_an_overflow_error():
    assert issubclass(lg.PathLengthOverflowError, OverflowError)
    assert issubclass(lg.NumericRangeError, ArithmeticError)


def test_johnson_potentials_overflow_names_a_vertex_of_the_graph(engine):
    """Johnson's reweighting searches from a virtual vertex n; the error named it (vertex 3 of a 3-vertex graph)."""
    G = lg.Graph.from_edges(*MINUS[:2], w=MINUS[2], directed=True)
    with pytest.raises(lg.PathLengthOverflowError, match="a path into vertex 2 has a length below"):
        lg.apsp(G, "sssp", engine=engine)


def test_undoing_johnson_keeps_lengths_that_fit(engine):
    """D' - h[s] + h[v] overflowed on 1 -> 2 (D' = 1e308, -h[1] = 1e308) although its length 1e308 fits:
    apsp by searches said 'unreachable'; now it equals Floyd-Warshall."""
    G = lg.Graph.from_edges([0, 1, 3], [1, 2, 2], w=[-BIG, BIG, -BIG], directed=True)
    want = np.full((4, 4), np.inf)
    np.fill_diagonal(want, 0.0)
    want[0, 1], want[0, 2], want[1, 2], want[3, 2] = -BIG, 0.0, BIG, -BIG
    np.testing.assert_array_equal(lg.apsp(G, "sssp", engine=engine), want)
    np.testing.assert_array_equal(lg.apsp(G, "floyd_warshall", engine=engine), want)
    np.testing.assert_array_equal(np.vstack([b for _, b in lg.apsp_blocks(G, 3, engine=engine)]), want)


def test_undoing_johnson_raises_where_the_length_overflows(engine):
    """1 -> 2 -> 3 weighs 2e308: the searches' reweighted length was finite and came back inf, silently."""
    G = lg.Graph.from_edges([0, 1, 2], [1, 2, 3], w=[-BIG, BIG, BIG], directed=True)
    for run in (lambda: lg.apsp(G, "sssp", engine=engine), lambda: list(lg.apsp_blocks(G, engine=engine))):
        with pytest.raises(lg.PathLengthOverflowError, match="vertex 3 is reached from 1"):
            run()
    with pytest.raises(lg.PathLengthOverflowError, match="vertex 3 is reached from 1"):
        lg.apsp(G, "floyd_warshall", engine=engine)
    assert lg.sssp(G, 0, engine=engine).distance.tolist() == [0.0, -BIG, 0.0, BIG]   # from 0 it fits


def test_integer_weights_past_two_to_the_53_are_refused():
    """Weights are float64: integers past 2**53 would be rounded on the way in, so they are refused."""
    with pytest.raises(lg.InvalidGraphError, match=r"at most 2\*\*53"):
        lg.Graph.from_edges([0], [1], w=np.array([2**53 + 1]))
    G = lg.Graph.from_edges([0, 1], [1, 2], w=np.array([2**53, 2**53]), directed=True)
    assert lg.sssp(G, 0).distance[2] == 2.0**54                        # a float64 sum: no int64 wrap-around


def test_minimum_spanning_forest_total_past_float64_is_a_named_error(engine, recwarn):
    """The forest is exact; its total, a float64 sum, read inf with numpy's overflow warning: now asking for it
    raises NumericRangeError (no warning on the way), and the forest, its checker and check=True still work."""
    G = lg.Graph.from_edges([0, 1, 2], [1, 2, 3], w=[BIG, BIG, 1.0])
    r = lg.minimum_spanning_forest(G, engine=engine, check=True)
    assert r.weight.tolist() == [BIG, BIG, 1.0] and r.u.tolist() == [0, 1, 2]
    with pytest.raises(lg.NumericRangeError, match="total weight is past float64's range"):
        r.total_weight
    assert "past float64" in repr(r)
    lg.verify.check_msf(G, r)
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
    assert lg.minimum_spanning_forest(lg.Graph.from_edges([0], [1], w=[BIG]), engine=engine).total_weight == BIG


# ---------------------------------------------------------------- modularity: products of weight sums
@pytest.mark.parametrize("exp", [-1000, -600, -520, 500, 1010])
def test_community_detection_ignores_the_weights_scale(engine, exp):
    """Weights times 2**exp: (2m)^2 overflowed from ~1e152 (OverflowError), underflowed below ~1e-160
    (ZeroDivisionError), and at 1e306 Louvain returned singletons; now every answer is the unscaled one, bit
    for bit (the weights are brought back by a power of two, exactly)."""
    base, scaled = _karate(), _karate(2.0 ** exp)
    labels = lg.louvain(base, seed=1, engine=engine)
    assert lg.modularity(scaled, labels, engine=engine) == lg.modularity(base, labels, engine=engine)
    np.testing.assert_array_equal(lg.louvain(scaled, seed=1, engine=engine), labels)
    np.testing.assert_array_equal(lg.leiden(scaled, seed=1, engine=engine), lg.leiden(base, seed=1, engine=engine))


def test_weights_in_the_usual_range_are_not_rescaled():
    weight_scale = importlib.import_module("la_graph.algorithms.modularity").weight_scale
    assert weight_scale(_karate()) == 1.0 and weight_scale(_karate(1e-50)) == 1.0 and weight_scale(_karate(1e50)) == 1.0
    assert weight_scale(_karate(2.0 ** 300)) == 2.0 ** -303     # the largest weight, 4 * 2**300, to 0.5
    assert weight_scale(lg.generators.path(3)) == 1.0            # unweighted


# ---------------------------------------------------------------- PageRank and label propagation
def test_pagerank_refuses_subnormal_weights(engine):
    """An out-weight sum of 1e-320 has no float64 reciprocal: the ranks were NaN (a ConvergenceError 'changed by nan')."""
    G = lg.Graph.from_edges([0, 1, 2], [1, 2, 0], w=[1e-320] * 3, directed=True)
    with pytest.raises(lg.InvalidGraphError, match="no float64 reciprocal; rescale the weights"):
        lg.pagerank(G, engine=engine)
    np.testing.assert_allclose(lg.pagerank(G, weight=False, engine=engine), [1 / 3] * 3)   # weights unused: fine
    np.testing.assert_allclose(lg.pagerank(lg.Graph.from_edges([0, 1, 2], [1, 2, 0], w=[1e-300] * 3, directed=True),
                                           engine=engine), [1 / 3] * 3)


def test_pagerank_reports_not_converging(engine):
    """networkx's rule raises with the last ranks; the GAP and Graphalytics definitions stop at max_iter by design."""
    G = lg.generators.path(50)
    with pytest.raises(lg.ConvergenceError, match="did not converge in 2 iterations") as info:
        lg.pagerank(G, max_iter=2, tol=1e-12, engine=engine)
    assert info.value.iterations == 2 and info.value.error > 0 and info.value.result.shape == (50,)
    assert lg.pagerank(G, variant="gap", max_iter=2, tol=1e-12, engine=engine).shape == (50,)


def test_label_propagation_refuses_graphs_its_keys_cannot_hold(monkeypatch):
    """CDLP's int64 keys n * count + n - 1 need n < 2**31 (checked; a smaller limit stands in for it here)."""
    monkeypatch.setattr(importlib.import_module("la_graph.algorithms.label_propagation"), "MAX_N", 4)
    with pytest.raises(lg.InvalidGraphError, match="at most 4 vertices"):
        lg.label_propagation(lg.generators.path(5))


# ---------------------------------------------------------------- counts
def test_counts_are_integers(engine):
    """Triangle counts are int64 sums of 0/1 products on every engine (never float64, exact past 2**53)."""
    G = _karate()
    assert type(lg.triangle_count(G, engine=engine)) is int
    t = lg.triangles(G, engine=engine)
    assert t.dtype == np.int64 and int(t.sum()) == 3 * lg.triangle_count(G, engine=engine)


# ---------------------------------------------------------------- the GPU engine's narrow types
@pytest.mark.gpu
@pytest.mark.parametrize("sign", [1, -1])
def test_gpu_floyd_warshall_int32_at_its_limit(sign):
    """Integer weights at FW_INT32_LIMIT / (N - 1) run in int32 and stay exact, unreachable pairs stay inf;
    one more and the kernel runs in float64, exact too (a chain of 63 edges, N = 64: the longest path)."""
    try:
        E = lg.get_engine("gpu")
    except lg.EngineUnavailable as exc:
        pytest.skip(f"gpu engine unavailable: {exc}")
    fused = importlib.import_module("la_graph.engines.gpu.fused.apsp")
    n = 64
    for w, dtype in ((fused.FW_INT32_LIMIT // (n - 1), np.int32), (fused.FW_INT32_LIMIT // (n - 1) + 1, np.float64)):
        G = lg.Graph.from_edges(np.arange(n - 1), np.arange(1, n), w=np.full(n - 1, sign * float(w)), directed=True)
        assert fused._fw_dtype(E, G, n) == dtype
        D = lg.apsp(G, "floyd_warshall", engine=E)
        np.testing.assert_array_equal(D, lg.apsp(G, "floyd_warshall", engine="cpu"))
        assert D[0, n - 1] == sign * w * (n - 1) and np.isinf(D[n - 1, 0])


@pytest.mark.gpu
def test_gpu_kcore_degrees_of_a_directed_hub():
    """core_peel's degrees (out + in, below 2n) in its narrow vertex type: a directed hub linked both ways."""
    try:
        E = lg.get_engine("gpu")
    except lg.EngineUnavailable as exc:
        pytest.skip(f"gpu engine unavailable: {exc}")
    n = 5000
    u = np.r_[np.zeros(n - 1, np.int64), np.arange(1, n)]
    G = lg.Graph.from_edges(u, np.r_[np.arange(1, n), np.zeros(n - 1, np.int64)], n=n, directed=True)
    np.testing.assert_array_equal(lg.core_number(G, engine=E), lg.core_number(G, engine="cpu"))
