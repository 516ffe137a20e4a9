"""PageRank: networkx's definition and results, the GAP and Graphalytics variants, every engine, every error."""

from __future__ import annotations

import functools

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph import Graph
from la_graph.verify import check_pagerank

from .graphs import DIRECTED, SMALL, bump, random_graphs, real


@functools.lru_cache(maxsize=None)
def small(name):
    return SMALL[name]()


def nx_pagerank(G, weight=None, personalization=None, dangling=None, **kw):
    """networkx.pagerank on G's networkx copy, with la_graph's meaning of weight= (None: G's weights if any)."""
    H = G.to_networkx()
    w = "weight" if (G.weighted and weight is not False) else None
    ranks = nx.pagerank(H, weight=w, personalization=personalization, dangling=dangling, **kw)
    return np.array([ranks[v] for v in range(G.n)])


def weighted_digraph(seed=3, n=40, m=160, zero=0):
    rng = np.random.default_rng(seed)
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.uniform(0.1, 5.0, m)
    w[:zero] = 0.0
    return Graph.from_edges(u, v, w, n=n + 3, directed=True)       # 3 isolated (dangling) vertices


# ------------------------------------------------------------------ networkx's definition
@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_graphs_match_networkx(engine, name):
    G = small(name)
    r = lg.pagerank(G, engine=engine)
    assert r.dtype == np.float64 and r.shape == (G.n,)
    np.testing.assert_allclose(r, nx_pagerank(G), rtol=0, atol=1e-10)
    check_pagerank(G, r)
    if G.n:
        assert abs(r.sum() - 1) < 1e-12


@pytest.mark.parametrize("name", ["rmat_directed", "two_stars", "self_loop", "directed_path", "caveman"])
def test_tight_tolerance_reaches_the_fixed_point(engine, name):
    G = small(name)
    r = lg.pagerank(G, tol=1e-13, max_iter=1000, engine=engine)
    check_pagerank(G, r, tol=1e-13, rtol=1e-8)
    np.testing.assert_allclose(r, nx_pagerank(G, tol=1e-13, max_iter=1000), rtol=1e-10, atol=1e-15)


def test_same_ranks_on_every_engine(engine):
    for G in (small("rmat_directed"), small("grid"), weighted_digraph()):
        np.testing.assert_allclose(lg.pagerank(G, engine=engine), lg.pagerank(G, engine="reference"),
                                   rtol=1e-12, atol=1e-15)
        for variant in ("gap", "graphalytics"):
            np.testing.assert_allclose(lg.pagerank(G, variant=variant, engine=engine),
                                       lg.pagerank(G, variant=variant, engine="reference"), rtol=1e-12, atol=1e-15)


def test_known_answers(engine):
    cycle = Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True)
    np.testing.assert_allclose(lg.pagerank(cycle, engine=engine), 1 / 3, atol=1e-15)
    star = Graph.from_edges([1, 2, 3], [0, 0, 0], directed=True)             # 0 is dangling
    np.testing.assert_allclose(lg.pagerank(star, engine=engine), [0.5419853569696174] + [0.1526715476767942] * 3,
                               atol=1e-9)
    assert lg.pagerank(Graph.from_edges([], [], n=0), engine=engine).tolist() == []
    assert lg.pagerank(Graph.from_edges([], [], n=3), engine=engine).tolist() == [1 / 3] * 3


def test_undirected_is_each_edge_both_ways(engine):
    G = small("caveman")
    D = Graph.from_edges(*G.edges(), n=G.n, directed=True)
    np.testing.assert_allclose(lg.pagerank(G, engine=engine), lg.pagerank(D, engine=engine), atol=1e-15)


def test_self_loops_and_duplicate_edges(engine):
    # a self-loop is an out-edge to the vertex itself (as in networkx); a duplicate edge counts once
    G = Graph.from_edges([0, 0, 1, 1, 2, 2, 3], [0, 1, 2, 2, 0, 3, 3], directed=True)
    np.testing.assert_allclose(lg.pagerank(G, engine=engine), nx_pagerank(G), atol=1e-10)
    simple = Graph.from_edges([0, 0, 1, 2, 2, 3], [0, 1, 2, 0, 3, 3], directed=True)
    np.testing.assert_array_equal(lg.pagerank(G, engine=engine), lg.pagerank(simple, engine=engine))


# ------------------------------------------------------------------ weights, personalization, dangling
def test_weighted(engine):
    G = weighted_digraph()
    r = lg.pagerank(G, engine=engine)
    np.testing.assert_allclose(r, nx_pagerank(G), atol=1e-10)
    check_pagerank(G, r)
    np.testing.assert_array_equal(lg.pagerank(G, weight=True, engine=engine), r)
    u = lg.pagerank(G, weight=False, engine=engine)
    np.testing.assert_allclose(u, nx_pagerank(G, weight=False), atol=1e-10)
    check_pagerank(G, u, weight=False)
    assert not np.allclose(u, r, atol=1e-4)
    U = Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3], w=[2.0, 0.5, 7.0, 1.0])      # undirected, weighted
    np.testing.assert_allclose(lg.pagerank(U, engine=engine), nx_pagerank(U), atol=1e-10)


def test_zero_out_weight_makes_a_vertex_dangling(engine):
    G = weighted_digraph(seed=5, zero=40)
    r = lg.pagerank(G, engine=engine)
    np.testing.assert_allclose(r, nx_pagerank(G), atol=1e-10)
    check_pagerank(G, r)


def test_personalization(engine):
    G = small("rmat_directed")
    rng = np.random.default_rng(1)
    p = rng.uniform(0, 1, G.n) * (rng.uniform(0, 1, G.n) < 0.3)
    as_dict = {v: float(p[v]) for v in np.flatnonzero(p)}
    r = lg.pagerank(G, personalization=p, engine=engine)
    np.testing.assert_allclose(r, nx_pagerank(G, personalization=as_dict), atol=1e-10)
    np.testing.assert_allclose(lg.pagerank(G, personalization=as_dict, engine=engine), r, atol=1e-15)
    np.testing.assert_allclose(lg.pagerank(G, personalization=p * 1e6, engine=engine), r, atol=1e-15)  # normalized
    check_pagerank(G, r, personalization=p)
    one = lg.pagerank(G, personalization={3: 1}, engine=engine)
    np.testing.assert_allclose(one, nx_pagerank(G, personalization={3: 1}), atol=1e-10)
    # no damping: the ranks are the jump distribution
    np.testing.assert_allclose(lg.pagerank(G, alpha=0.0, personalization=p, engine=engine), p / p.sum(), atol=1e-15)


def test_dangling(engine):
    G = small("directed_path")          # 9 is the only dangling vertex
    d = {0: 3.0, 5: 1.0}
    r = lg.pagerank(G, dangling=d, engine=engine)
    np.testing.assert_allclose(r, nx_pagerank(G, dangling=d), atol=1e-10)
    check_pagerank(G, r, dangling=d)
    p = {2: 1.0, 7: 2.0}
    both = lg.pagerank(G, personalization=p, dangling=d, engine=engine)
    np.testing.assert_allclose(both, nx_pagerank(G, personalization=p, dangling=d), atol=1e-10)
    check_pagerank(G, both, personalization=p, dangling=d)
    arr = np.zeros(G.n)
    arr[[0, 5]] = [3.0, 1.0]
    np.testing.assert_allclose(lg.pagerank(G, dangling=arr, engine=engine), r, atol=1e-15)


def test_damping_values(engine):
    G = small("erdos_renyi_sparse")
    for alpha in (0.0, 0.5, 0.99):
        r = lg.pagerank(G, alpha=alpha, max_iter=5000, engine=engine)
        np.testing.assert_allclose(r, nx_pagerank(G, alpha=alpha, max_iter=5000), atol=1e-10)
        check_pagerank(G, r, alpha=alpha)
    np.testing.assert_allclose(lg.pagerank(G, alpha=0, engine=engine), 1 / G.n)
    # alpha = 1 on a strongly connected aperiodic graph: the stationary distribution
    A = Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 1], directed=True)
    r = lg.pagerank(A, alpha=1.0, engine=engine)
    np.testing.assert_allclose(r, nx_pagerank(A, alpha=1.0), atol=1e-10)
    check_pagerank(A, r, alpha=1.0)


def test_convergence_error(engine):
    G = small("rmat_directed")
    with pytest.raises(lg.ConvergenceError, match=r"did not converge in 3 iterations: .* n\*tol") as info:
        lg.pagerank(G, max_iter=3, engine=engine)
    err = info.value
    assert isinstance(err, RuntimeError) and isinstance(err, lg.LaGraphError)
    assert err.iterations == 3 and err.error > G.n * 1e-6
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx_pagerank(G, max_iter=3)
    # the partial result is the third iterate (the graphalytics variant has networkx's step, no test)
    np.testing.assert_allclose(err.result, lg.pagerank(G, variant="graphalytics", max_iter=3, engine=engine),
                               atol=1e-15)
    # a periodic graph with no damping never settles: [1/3, 1/3, 1/3] -> [2/3, 1/3, 0] -> [1/3, 2/3, 0] -> ...
    with pytest.raises(lg.ConvergenceError):
        lg.pagerank(Graph.from_edges([0, 1, 2], [1, 0, 0], directed=True), alpha=1.0, engine=engine)


# ------------------------------------------------------------------ GAP and Graphalytics
def gap_by_hand(G, alpha=0.85, max_iter=20, tol=1e-4):
    """GAP's pr_spmv loop, vertex by vertex in Python (tiny graphs only)."""
    n = G.n
    out = G.out_degree
    preds = [[] for _ in range(n)]
    for u, v in zip(*G.edges()):
        preds[v].append(u)
    scores = [1.0 / n] * n
    for _ in range(max_iter):
        contrib = [scores[u] / out[u] if out[u] else 0.0 for u in range(n)]
        new = [(1 - alpha) / n + alpha * sum(contrib[u] for u in preds[v]) for v in range(n)]
        error = sum(abs(a - b) for a, b in zip(new, scores))
        scores = new
        if error < tol:
            break
    return np.array(scores)


def graphalytics_by_hand(G, alpha=0.85, iterations=10):
    """The Graphalytics specification's pseudo-code, in Python (tiny graphs only)."""
    n = G.n
    out = G.out_degree
    preds = [[] for _ in range(n)]
    for u, v in zip(*G.edges()):
        preds[v].append(u)
    rank = [1.0 / n] * n
    for _ in range(iterations):
        sink = sum(rank[w] for w in range(n) if out[w] == 0)
        rank = [(1 - alpha) / n + alpha * sum(rank[u] / out[u] for u in preds[v]) + alpha / n * sink
                for v in range(n)]
    return np.array(rank)


@pytest.mark.parametrize("name", ["directed_path", "self_loop", "two_stars", "rmat_directed", "isolated"])
def test_gap_variant(engine, name):
    G = small(name)
    r = lg.pagerank(G, variant="gap", max_iter=20, tol=1e-4, engine=engine)
    np.testing.assert_allclose(r, gap_by_hand(G), rtol=1e-12)
    check_pagerank(G, r, variant="gap", max_iter=20, tol=1e-4)
    if G.n and (G.out_degree == 0).any():
        assert r.sum() < 1 - 1e-3                       # dangling rank leaks
    # max_iter is a limit, not an error
    short = lg.pagerank(G, variant="gap", max_iter=2, tol=1e-12, engine=engine)
    np.testing.assert_allclose(short, gap_by_hand(G, max_iter=2, tol=1e-12), rtol=1e-12)


@pytest.mark.parametrize("name", ["directed_path", "self_loop", "two_stars", "rmat_directed", "isolated"])
def test_graphalytics_variant(engine, name):
    G = small(name)
    for iterations in (1, 2, 10):
        r = lg.pagerank(G, variant="graphalytics", max_iter=iterations, engine=engine)
        np.testing.assert_allclose(r, graphalytics_by_hand(G, iterations=iterations), rtol=1e-12)
        check_pagerank(G, r, variant="graphalytics", max_iter=iterations)
        if G.n:
            assert abs(r.sum() - 1) < 1e-12
    # a fixed number of iterations: tol plays no part
    np.testing.assert_array_equal(lg.pagerank(G, variant="graphalytics", max_iter=5, tol=1.0, engine=engine),
                                  lg.pagerank(G, variant="graphalytics", max_iter=5, tol=1e-12, engine=engine))


def test_variants_ignore_weights(engine):
    G = weighted_digraph()
    U = Graph.from_edges(*G.edges(), n=G.n, directed=True)
    for variant in ("gap", "graphalytics"):
        np.testing.assert_array_equal(lg.pagerank(G, variant=variant, engine=engine),
                                      lg.pagerank(U, variant=variant, engine=engine))


# ------------------------------------------------------------------ random and real graphs
def graphs():
    return random_graphs(12, 3)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(G=graphs(), alpha=st.sampled_from([0.5, 0.85, 0.95]))
def test_random_graphs(engine, G, alpha):
    r = lg.pagerank(G, alpha=alpha, max_iter=1000, engine=engine)
    np.testing.assert_allclose(r, nx_pagerank(G, alpha=alpha, max_iter=1000), atol=1e-10)
    check_pagerank(G, r, alpha=alpha)
    check_pagerank(G, lg.pagerank(G, alpha=alpha, variant="gap", engine=engine), alpha=alpha, variant="gap")


@pytest.mark.data
@pytest.mark.parametrize("name", ["snap/facebook_combined.txt.gz", "snap/Wiki-Vote.txt.gz",
                                  "snap/email-Eu-core.txt.gz", "law/uk-2007-05_100000.txt.gz"])
def test_real_graphs(shared_data, name):
    G = real(shared_data, name)
    r = lg.pagerank(G)
    check_pagerank(G, r)
    if G.nnz < 1_000_000:
        np.testing.assert_allclose(r, nx_pagerank(G), atol=1e-10)
    gap = lg.pagerank(G, variant="gap", max_iter=20, tol=1e-4)
    check_pagerank(G, gap, variant="gap", max_iter=20, tol=1e-4)
    check_pagerank(G, lg.pagerank(G, variant="graphalytics", max_iter=10), variant="graphalytics", max_iter=10)


@pytest.mark.data
def test_real_graph_on_every_engine(engine, shared_data):
    G = real(shared_data, "snap/Wiki-Vote.txt.gz")
    np.testing.assert_allclose(lg.pagerank(G, engine=engine), lg.pagerank(G, engine="cpu"), rtol=1e-12, atol=1e-16)


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("kwargs, match", [
    ({"alpha": -0.1}, r"alpha must be >= 0, got -0.1"),
    ({"alpha": 1.5}, r"alpha must be <= 1, got 1.5"),
    ({"alpha": float("nan")}, r"alpha must be a finite real number, got nan"),
    ({"alpha": "0.85"}, r"alpha must be a finite real number, got '0.85'"),
    ({"alpha": True}, r"alpha must be a finite real number, got True"),
    ({"max_iter": 0}, r"max_iter must be at least 1, got 0"),
    ({"max_iter": 2.5}, r"max_iter must be an integer, got 2.5"),
    ({"max_iter": None}, r"max_iter must be an integer, got None"),
    ({"tol": 0}, r"tol must be > 0, got 0"),
    ({"tol": -1e-6}, r"tol must be > 0, got -1e-06"),
    ({"tol": float("inf")}, r"tol must be a finite real number, got inf"),
    ({"weight": "weight"}, r"weight must be None .* True or False, got 'weight'"),
    ({"weight": 1}, r"weight must be None .* True or False, got 1"),
    ({"variant": "ldbc"}, r"variant must be one of \['gap', 'graphalytics', 'networkx'\], got 'ldbc'"),
    ({"variant": "gap", "personalization": [1, 0, 0, 0]}, r"personalization is not part of the gap PageRank"),
    ({"variant": "graphalytics", "dangling": {0: 1}}, r"dangling is not part of the graphalytics PageRank"),
    ({"variant": "gap", "weight": True}, r"the gap PageRank definition is unweighted: weight=True"),
    ({"personalization": [1, 2, 3]}, r"personalization must have one value per vertex \(4\), got 3"),
    ({"personalization": [1, -2, 3, 0]}, r"must be non-negative and finite, got personalization\[1\] = -2.0"),
    ({"personalization": [0, 0, 0, 0]}, r"personalization must have a positive sum, got 0.0"),
    ({"personalization": [1, np.nan, 0, 0]}, r"personalization\[1\] = nan"),
    ({"personalization": [[1, 2], [3, 4]]}, r"personalization must be a 1-D array .* got shape \(2, 2\)"),
    ({"personalization": ["a", "b", "c", "d"]}, r"personalization must be a 1-D array of numbers .* got dtype"),
    ({"personalization": {}}, r"personalization must have a positive sum, got 0.0"),
    ({"personalization": {0: -1.0}}, r"personalization\[0\] must be >= 0, got -1.0"),
    ({"dangling": {0: "x"}}, r"dangling\[0\] must be a finite real number, got 'x'"),
    ({"dangling": [0, 0, 0, 0]}, r"dangling must have a positive sum"),
])
def test_rejects_bad_arguments(kwargs, match):
    G = Graph.from_edges([1, 2, 3], [0, 0, 0], directed=True)
    with pytest.raises(lg.InvalidArgumentError, match=match):
        lg.pagerank(G, **kwargs)


def test_rejects_bad_graphs_and_keys():
    G = Graph.from_edges([1, 2, 3], [0, 0, 0], directed=True)
    with pytest.raises(lg.InvalidSourceError, match=r"personalization key 9 is out of range 0..3"):
        lg.pagerank(G, personalization={9: 1.0})
    with pytest.raises(lg.InvalidSourceError, match=r"dangling key must be an integer vertex id, got 'a'"):
        lg.pagerank(G, dangling={"a": 1.0})
    with pytest.raises(lg.InvalidGraphError, match="needs edge weights"):
        lg.pagerank(G, weight=True)
    N = Graph.from_edges([0, 1, 2], [1, 2, 0], w=[1.0, -2.0, 1.0], directed=True)
    with pytest.raises(lg.InvalidGraphError, match=r"non-negative edge weights, got -2.0 on edge 1 -> 2"):
        lg.pagerank(N)
    lg.pagerank(N, weight=False)                                 # ignored weights may be anything
    lg.pagerank(N, variant="gap")


@pytest.mark.parametrize("engine", ["cpu", "reference"])
def test_out_weights_that_may_overflow_are_refused(engine):
    """Vertex 1's out-weights summed to inf: its edges then carried no rank, which was lost (ranks summed to 0.27)."""
    G = Graph.from_edges([0, 1, 2], [1, 2, 3], w=[1e308, 1e308, 1.0])
    with pytest.raises(lg.InvalidGraphError, match=r"vertex 1's 2 out-edges with weights up to 1e\+308 may sum past "
                                                   r"float64's largest value"):
        lg.pagerank(G, engine=engine)
    check_pagerank(G, lg.pagerank(G, weight=False, engine=engine), weight=False)
    one = Graph.from_edges([0, 1], [1, 2], w=[1e308, 1.0], directed=True)     # one edge each: no sum overflows
    check_pagerank(one, lg.pagerank(one, engine=engine))
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        lg.pagerank(nx.path_graph(3))


def test_checker_catches_wrong_ranks():
    G = small("rmat_directed")
    r = lg.pagerank(G, tol=1e-12, max_iter=500)
    bad = r.copy()
    bad[[3, 7]] += [1e-3, -1e-3]                                  # still sums to 1
    with pytest.raises(lg.VerificationError, match="not a PageRank fixed point"):
        check_pagerank(G, bad, tol=1e-12)
    with pytest.raises(lg.VerificationError, match="sum to"):
        check_pagerank(G, r * 1.01)
    with pytest.raises(lg.VerificationError, match=r"ranks\[0\] = .* expected .* \(the gap PageRank\)"):
        check_pagerank(G, r, variant="gap")
    with pytest.raises(lg.VerificationError, match="shape"):
        check_pagerank(G, r[:-1])
    with pytest.raises(lg.VerificationError, match=r"ranks\[2\] = -1.0 is not a finite non-negative number"):
        check_pagerank(G, np.r_[r[:2], -1.0, r[3:]])


# ------------------------------------------------------------------ the GPU engine's fused step
def _gpu_engines():
    try:
        E = lg.get_engine("gpu")
    except lg.EngineUnavailable as exc:
        pytest.skip(f"gpu engine unavailable: {exc}")
    return E, type(E)(index_dtype="int64")   # int64 CSR indices: the kernels' other instantiation


def _hub_rmat():
    """R-MAT 13 (past the row-plan size) with the odd vertices also pointing at 0: a row of A' of
    >4,096 entries, cut into pieces; even vertices without an out-edge in the R-MAT are dangling."""
    R = lg.generators.rmat(13, 6, seed=6, directed=True)
    rows = np.repeat(np.arange(R.n), np.diff(R.indptr))
    k = np.arange(1, R.n, 2)
    return Graph.from_edges(np.r_[rows, k], np.r_[R.indices, np.zeros_like(k)], n=R.n, directed=True)


_GPU_PR_GRAPHS = {
    "zero_weights": lambda: weighted_digraph(seed=5, zero=40),   # out-weights 0 and isolated vertices: dangling
    "hub": _hub_rmat,
    "rmat_undirected_weighted": lambda: lg.generators.rmat(12, 8, seed=3, weights=(1, 50)),
    "path": lambda: small("directed_path"),
    "self_loop_and_isolated": lambda: Graph.from_edges([0], [0], n=4, directed=True),
}


@pytest.mark.gpu
@pytest.mark.parametrize("batch", [None, (1, 1), (3, 5)], ids=["default", "read every iteration", "batches 3, 5"])
@pytest.mark.parametrize("name", sorted(_GPU_PR_GRAPHS))
def test_gpu_kernel_as_algebra(monkeypatch, name, batch):
    """The GPU pagerank_iterate against its algebra on the same engine, int32 and int64 indices: the iteration
    count, the last change and the ranks (to rounding: sums in another order), however the reads are batched."""
    from la_graph.algorithms.pagerank import pagerank_iterate
    engines = _gpu_engines()
    if batch is not None:
        from la_graph.engines.gpu.fused import pagerank as gpu_pagerank
        monkeypatch.setattr(gpu_pagerank, "PAGERANK_BATCH", batch)
        engines = engines[:1]
    G = _GPU_PR_GRAPHS[name]()
    n = G.n
    rng = np.random.default_rng(2)
    p, d = rng.uniform(0, 1, n), rng.uniform(0, 1, n) * (rng.uniform(0, 1, n) < 0.5)
    p, d = p / p.sum(), d / d.sum()
    w = G.weighted
    cases = [(w, 0.85, None, None, "networkx", 100, 1e-6), (w, 0.85, None, None, "networkx", 500, 1e-12),
             (w, 0.7, p, None, "networkx", 100, 1e-6), (w, 0.85, None, d, "networkx", 100, 1e-6),
             (w, 0.85, p, d, "networkx", 100, 1e-6), (w, 0.85, None, None, "networkx", 2, 1e-14),
             (False, 1.0, None, None, "networkx", 9, 1e-6), (False, 0.0, p, None, "networkx", 9, 1e-6),
             (False, 0.85, None, None, "gap", 20, 1e-4), (False, 0.85, None, None, "gap", 100, 1e-12),
             (False, 0.85, None, None, "graphalytics", 7, 1e-6)]
    for E, width in zip(engines, ("int32 indices", "int64 indices")):
        assert "pagerank_iterate" in E.fused_steps
        for case in cases:
            r, it, change = pagerank_iterate(E, G, *case)
            r0, it0, change0 = pagerank_iterate.algebraic(E, G, *case)
            where = f"{name}, {case[4]}, weighted={case[0]}, alpha={case[1]}, p={case[2] is not None}, " \
                    f"d={case[3] is not None}, max_iter={case[5]}, tol={case[6]}, {width}"
            assert it == it0, where
            np.testing.assert_allclose(change, change0, rtol=1e-9, atol=1e-14, err_msg=where)   # rounding
            np.testing.assert_allclose(E.to_numpy(r), E.to_numpy(r0), rtol=1e-12, atol=1e-15, err_msg=where)


# ---------------------------------------------------------------------- cases of the suite-wide tests

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
    except lg.ConvergenceError as e:
        out["not converged"] = e.result
    return out


# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "pagerank_iterate": ("weighted_directed", _pagerank),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "pagerank": (DIRECTED, (), {}, lambda r: bump(r, 0, 0.1)),
}
