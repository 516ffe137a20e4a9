"""Vertex similarity: NetworkX's jaccard_coefficient / adamic_adar_index / resource_allocation_index, the
definitions by Python sets (overlap, cosine, sorensen, directed graphs), every pair with a common neighbour,
top_k against the full computation, row blocks, the memory guard, every engine, real graphs, bad input."""

from __future__ import annotations

import importlib
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings

import la_graph as lg
from la_graph import _validation
from la_graph.cli import main
from la_graph.verify import check_similarity

from .graphs import KARATE, SMALL, bump, random_graphs, real

S = importlib.import_module("la_graph.algorithms.similarity")   # the module (its name is also the function's)
METRICS = S.METRICS
COUNTS = ("jaccard", "overlap", "cosine", "sorensen")


# ---------------------------------------------------------------------- the definitions, by Python sets
def _sets(G):
    """Each vertex's out-neighbours without self-loops, as Python sets."""
    u, v = G.edges()
    N = [set() for _ in range(G.n)]
    for a, b in zip(u.tolist(), v.tolist()):
        if a != b:
            N[a].add(b)
    return N


def _score(N, indeg, metric, a, b):
    common = N[a] & N[b]
    if metric == "adamic_adar":
        return sum(1 / math.log(indeg[w]) for w in common)
    if metric == "resource_allocation":
        return sum(1 / indeg[w] for w in common)
    c, da, db = len(common), len(N[a]), len(N[b])
    den = {"jaccard": len(N[a] | N[b]), "overlap": min(da, db), "cosine": math.sqrt(da * db),
           "sorensen": (da + db) / 2}[metric]
    return c / den if den else 0.0


def _definition(G, metric):
    """``{(u, v): score}`` for every ordered pair ``u != v`` with a common neighbour."""
    N = _sets(G)
    into = [set() for _ in range(G.n)]                 # into[w]: the vertices that have w as a neighbour
    for a, s in enumerate(N):
        for w in s:
            into[w].add(a)
    indeg = [len(x) for x in into]
    out = {}
    for a in range(G.n):
        for b in set().union(*(into[w] for w in N[a])) - {a}:
            out[a, b] = _score(N, indeg, metric, a, b)
    return out


def _top(want, n, k):
    """Each vertex's k best of ``want``, score descending, ties to the smaller id, as (u, v) lists."""
    rows = [[] for _ in range(n)]
    for (a, b), s in want.items():
        rows[a].append((-s, b))
    us, vs = [], []
    for a, row in enumerate(rows):
        best = sorted(row)[:k]
        us += [a] * len(best)
        vs += [b for _, b in best]
    return us, vs


def _nx(G):
    H = nx.Graph()
    H.add_nodes_from(range(G.n))
    u, v = G.edges()
    H.add_edges_from((a, b) for a, b in zip(u.tolist(), v.tolist()) if a != b)
    return H


# ---------------------------------------------------------------------- against NetworkX and the definitions
@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_graphs(engine, name):
    G = SMALL[name]()
    # R-MAT's 273 000 pairs take the Python definition a second a metric: two of them
    for metric in METRICS if name != "rmat" else ("jaccard", "resource_allocation"):
        want = _definition(G, metric)
        r = lg.similarity(G, metric=metric, engine=engine)
        assert r.u.dtype == r.v.dtype == np.int64 and r.score.dtype == np.float64
        upper = sorted((a, b) for a, b in want if a < b)
        assert list(zip(r.u.tolist(), r.v.tolist())) == upper
        np.testing.assert_allclose(r.score, [want[p] for p in upper], rtol=1e-12)
        check_similarity(G, r.u, r.v, r.score, metric=metric, complete=True)
        t = lg.similarity(G, metric=metric, top_k=3, engine=engine)
        check_similarity(G, t.u, t.v, t.score, metric=metric, top_k=3)
        if metric in COUNTS:                            # exact ties: the order is the definition's
            assert (t.u.tolist(), t.v.tolist()) == _top(want, G.n, 3)


@pytest.mark.parametrize("name", ["path", "grid", "caveman", "connected_caveman", "rmat", "erdos_renyi_sparse",
                                  "two_stars"])
def test_networkx_link_prediction(engine, name):
    G = SMALL[name]()
    H = _nx(G)
    rng = np.random.default_rng(7)
    pairs = rng.integers(0, G.n, (300, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]               # NetworkX's (u, u) differs (see the docs page)
    for metric, f in [("jaccard", nx.jaccard_coefficient), ("adamic_adar", nx.adamic_adar_index),
                      ("resource_allocation", nx.resource_allocation_index)]:
        want = [p for _, _, p in f(H, pairs.tolist())]
        r = lg.similarity(G, pairs, metric=metric, engine=engine)
        np.testing.assert_array_equal(r.u, pairs[:, 0])
        np.testing.assert_array_equal(r.v, pairs[:, 1])
        np.testing.assert_allclose(r.score, want, rtol=1e-12)
        if G.n > 300:
            continue                                    # NetworkX scores R-MAT's half a million non-edges slowly
        # NetworkX's ebunch=None (every non-edge): pairs=None's non-edges, the other non-edges 0
        full = lg.similarity(G, metric=metric, engine=engine)
        got = {(a, b): s for a, b, s in zip(full.u.tolist(), full.v.tolist(), full.score.tolist())}
        for a, b, p in f(H):
            assert got.get((min(a, b), max(a, b)), 0.0) == pytest.approx(p, rel=1e-12)


def test_hand_computed():
    G = lg.Graph.from_edges([0, 0, 1, 1, 2], [1, 2, 2, 3, 3])      # N(0) = {1, 2}, N(1) = {0, 2, 3}
    pairs = [(0, 1), (0, 3), (1, 2)]
    assert lg.similarity(G, pairs).score.tolist() == [0.25, 1.0, 0.5]
    assert lg.similarity(G, pairs, metric="overlap").score.tolist() == [0.5, 1.0, 2 / 3]
    assert lg.similarity(G, pairs, metric="cosine").score.tolist() == [1 / math.sqrt(6), 1.0, 2 / 3]
    assert lg.similarity(G, pairs, metric="sorensen").score.tolist() == [0.4, 1.0, 2 / 3]
    assert lg.similarity(G, pairs, metric="resource_allocation").score.tolist() == [1 / 3, 2 / 3, 1.0]
    np.testing.assert_allclose(lg.similarity(G, pairs, metric="adamic_adar").score,
                               [1 / math.log(3), 2 / math.log(3), 2 / math.log(2)])
    # a pair with itself: 1 (its set against itself); a vertex without neighbours: 0
    I = lg.Graph.from_edges([0], [1], n=3)
    assert lg.similarity(I, [(0, 0), (2, 2), (0, 2), (0, 1)]).score.tolist() == [1.0, 0.0, 0.0, 0.0]
    assert lg.similarity(I, [(0, 0)], metric="adamic_adar").score.tolist() == [math.inf]   # 1 / log d(1), d = 1


def test_directed_graphs_use_out_neighbours(engine):
    G = lg.Graph.from_edges([0, 1, 2, 2, 3], [2, 2, 3, 4, 4], directed=True)   # 0 -> 2 <- 1; 2 -> {3, 4}; 3 -> 4
    r = lg.similarity(G, engine=engine)
    assert list(zip(r.u.tolist(), r.v.tolist(), r.score.tolist())) == [(0, 1, 1.0), (2, 3, 0.5)]
    D = SMALL["uniform_directed"]()
    for metric in METRICS:
        want = _definition(D, metric)
        r = lg.similarity(D, metric=metric, engine=engine)
        upper = sorted((a, b) for a, b in want if a < b)
        assert list(zip(r.u.tolist(), r.v.tolist())) == upper
        np.testing.assert_allclose(r.score, [want[p] for p in upper], rtol=1e-12)
        both = lg.similarity(D, (r.v, r.u), metric=metric, engine=engine)   # symmetric
        np.testing.assert_allclose(both.score, r.score, rtol=1e-12)


def test_loops_weights_and_duplicates_do_not_count(engine):
    G = SMALL["rmat"]()
    u, v = G.edges()
    loops = np.arange(0, G.n, 5)
    W = lg.Graph.from_edges(np.r_[u, loops, u[:50]], np.r_[v, loops, v[:50]], w=np.r_[np.linspace(0.1, 9, u.size),
                            np.ones(loops.size), np.full(50, 3.0)], n=G.n, directed=True)
    for metric in METRICS:
        a, b = lg.similarity(G, metric=metric, engine=engine), lg.similarity(W, metric=metric, engine=engine)
        np.testing.assert_array_equal(a.u, b.u)
        np.testing.assert_array_equal(a.v, b.v)
        np.testing.assert_allclose(a.score, b.score, rtol=1e-12)


@settings(max_examples=60, deadline=None)
@given(random_graphs(max_n=10))
def test_random_graphs_match_the_definition(G):
    for metric in METRICS:
        want = _definition(G, metric)
        r = lg.similarity(G, metric=metric)
        assert {(a, b): s for a, b, s in zip(r.u.tolist(), r.v.tolist(), r.score.tolist())} == \
            pytest.approx({p: s for p, s in want.items() if p[0] < p[1]}, rel=1e-12)
        t = lg.similarity(G, metric=metric, top_k=2, engine="reference")
        check_similarity(G, t.u, t.v, t.score, metric=metric, top_k=2)


# ---------------------------------------------------------------------- pairs, top_k, blocks
def test_pair_forms():
    G = SMALL["caveman"]()
    arr = np.array([[0, 1], [3, 7], [0, 1], [5, 5], [29, 0]])
    ref = lg.similarity(G, arr)
    for form in (arr.tolist(), [tuple(p) for p in arr.tolist()], (arr[:, 0].copy(), arr[:, 1].copy()),
                 arr.astype(np.int32), arr.astype(np.float64)):
        r = lg.similarity(G, form)
        np.testing.assert_array_equal(r.u, arr[:, 0])
        np.testing.assert_array_equal(r.v, arr[:, 1])
        np.testing.assert_array_equal(r.score, ref.score)
    assert ref.score[0] == ref.score[2] and ref.score[3] == 1.0
    for empty in ([], np.zeros((0, 2), np.int64), (np.zeros(0, np.int64), np.zeros(0, np.int64))):
        r = lg.similarity(G, empty)
        assert r.u.size == r.v.size == r.score.size == 0 and r.u.dtype == np.int64


@pytest.mark.parametrize("name", ["circulant", "rmat_directed", "hypercube", "connected_caveman"])
def test_top_k_is_the_best_of_the_full_computation(engine, name):
    G = SMALL[name]()
    for metric in ("jaccard", "cosine", "resource_allocation"):
        r = lg.similarity(G, metric=metric, engine=engine)
        both = {}
        for a, b, s in zip(r.u.tolist(), r.v.tolist(), r.score.tolist()):
            both[a, b] = both[b, a] = s
        for k in (1, 4, G.n):
            t = lg.similarity(G, metric=metric, top_k=k, engine=engine)
            check_similarity(G, t.u, t.v, t.score, metric=metric, top_k=k)
            for a, b, s in zip(t.u.tolist(), t.v.tolist(), t.score.tolist()):
                assert s == pytest.approx(both[a, b], rel=1e-12)
            if metric in COUNTS:
                assert (t.u.tolist(), t.v.tolist()) == _top(both, G.n, k)


def test_row_blocks_give_the_same_answer(engine, monkeypatch):
    G = SMALL["rmat"]()
    whole = {m: (lg.similarity(G, metric=m, engine=engine), lg.similarity(G, metric=m, top_k=3, engine=engine))
             for m in ("jaccard", "adamic_adar")}
    monkeypatch.setattr(S, "BLOCK_ENTRIES", 50)
    C, _, d_out, d_in = S._structure(engine, G)
    rows = list(S._blocks(engine, C, d_out, d_in, G.n))
    assert len(rows) > 10 and np.array_equal(np.concatenate(rows), np.arange(G.n))
    for m, (a, t) in whole.items():
        b, s = lg.similarity(G, metric=m, engine=engine), lg.similarity(G, metric=m, top_k=3, engine=engine)
        np.testing.assert_array_equal(a.u, b.u)
        np.testing.assert_array_equal(a.v, b.v)
        np.testing.assert_allclose(a.score, b.score, rtol=1e-12)
        np.testing.assert_allclose(t.score, s.score, rtol=1e-12)
        if m in COUNTS:           # a sum's ties may fall either way: its rounding depends on the order it adds
            np.testing.assert_array_equal(t.v, s.v)
        check_similarity(G, s.u, s.v, s.score, metric=m, top_k=3)


# ---------------------------------------------------------------------- the memory guard
def test_memory_guard(monkeypatch):
    K = lg.generators.complete(10)
    G = lg.Graph.from_edges(*K.edges(), n=40)    # 45 pairs; the wedge bound counts each 8 times: 360 (of 780)
    assert S.PAIR_BYTES == 48
    counted = []
    real_count = S._count_pairs
    monkeypatch.setattr(S, "_count_pairs", lambda *a: counted.append(1) or real_count(*a))
    monkeypatch.setattr(_validation, "available_host_bytes", lambda: 1 << 30)
    assert lg.similarity(G).u.size == 45 and not counted          # the bound fits: no count
    monkeypatch.setattr(_validation, "available_host_bytes", lambda: 45 * 48 + 1)
    assert lg.similarity(G).u.size == 45 and counted == [1]      # the bound does not, the count does
    monkeypatch.setattr(_validation, "available_host_bytes", lambda: 45 * 48 - 1)
    with pytest.raises(lg.OutOfMemory, match=r"similarity of every pair with a common neighbour \(45 pairs\) "
                                             r"needs 2,160 bytes.*top_k=10.*pairs="):
        lg.similarity(G)
    assert lg.similarity(G, [(0, 1)]).score.tolist() == [0.8]   # pairs= is not guarded by the count
    with pytest.raises(lg.OutOfMemory, match="pass a smaller top_k"):
        lg.similarity(G, top_k=5)
    monkeypatch.setattr(_validation, "available_host_bytes", lambda: 40 * 3 * 48)
    assert lg.similarity(G, top_k=3).u.size == 30


# ---------------------------------------------------------------------- engines and real graphs
def test_dask_engine(threaded):
    from la_graph.engines.dask import DaskEngine
    E = DaskEngine(threaded, grid=2)
    for G in (SMALL["connected_caveman"](), SMALL["rmat_directed"]()):
        for metric in ("jaccard", "adamic_adar"):
            for kw in ({}, {"top_k": 3}, {"pairs": [(0, 5), (1, 2), (3, 3), (7, 1)]}):
                a = lg.similarity(G, metric=metric, engine=E, **kw)
                b = lg.similarity(G, metric=metric, engine="cpu", **kw)
                np.testing.assert_array_equal(a.u, b.u)
                np.testing.assert_array_equal(a.v, b.v)
                np.testing.assert_allclose(a.score, b.score, rtol=1e-12)


def test_karate_matches_networkx(engine):
    G = lg.Graph.from_file(lg.data.path("karate"))
    H = _nx(G)
    pairs = list(nx.non_edges(H))
    for metric, f in [("jaccard", nx.jaccard_coefficient), ("adamic_adar", nx.adamic_adar_index),
                      ("resource_allocation", nx.resource_allocation_index)]:
        r = lg.similarity(G, pairs, metric=metric, engine=engine, check=True)
        np.testing.assert_allclose(r.score, [p for _, _, p in f(H, pairs)], rtol=1e-12)
    for metric in METRICS:
        lg.similarity(G, metric=metric, engine=engine, check=True)
        lg.similarity(G, metric=metric, top_k=5, engine=engine, check=True)


@pytest.mark.data
@pytest.mark.parametrize("name", ["snap/facebook_combined.txt.gz", "snap/email-Eu-core.txt.gz",
                                  "snap/CA-GrQc.txt.gz"])
def test_real_graphs(engine, shared_data, name):
    if engine.name == "reference" and "facebook" in name:
        pytest.skip("the reference engine's products are slow on facebook's 1.4 M pairs")
    G = real(shared_data, name)
    for metric in ("jaccard", "adamic_adar"):
        r = lg.similarity(G, metric=metric, engine=engine)
        check_similarity(G, r.u, r.v, r.score, metric=metric, complete=True, sample=1000)
        t = lg.similarity(G, metric=metric, top_k=10, engine=engine)
        check_similarity(G, t.u, t.v, t.score, metric=metric, top_k=10, sample=300)
    if not G.directed:
        H = _nx(G)
        at = np.random.default_rng(1).choice(r.u.size, 2000, replace=False)
        pairs = list(zip(r.u[at].tolist(), r.v[at].tolist()))
        want = [p for _, _, p in nx.adamic_adar_index(H, pairs)]
        np.testing.assert_allclose(r.score[at], want, rtol=1e-12)


# ---------------------------------------------------------------------- the checker, check=True, bad input
def test_checker_finds_wrong_answers():
    G = lg.Graph.from_edges([0, 0, 1, 1, 2], [1, 2, 2, 3, 3])
    u, v, s = [0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3], [0.25, 0.25, 1.0, 0.5, 0.25, 0.25]
    check_similarity(G, u, v, s, complete=True)
    with pytest.raises(lg.VerificationError, match=r"score\[3\] of pair \(1, 2\) = 0.6, but its jaccard is 0.5"):
        check_similarity(G, u, v, s[:3] + [0.6] + s[4:])
    with pytest.raises(lg.VerificationError, match=r"pair \(0, 3\) shares a neighbour but is missing"):
        check_similarity(G, u[:2] + u[3:], v[:2] + v[3:], s[:2] + s[3:], complete=True)
    P = lg.Graph.from_edges([0, 1], [1, 2], n=4)
    with pytest.raises(lg.VerificationError, match=r"pair \(0, 3\) is listed but the two share no neighbour"):
        check_similarity(P, [0, 0], [2, 3], [1.0, 0.0], complete=True)
    with pytest.raises(lg.VerificationError, match="out of"):
        check_similarity(G, u[::-1], v[::-1], s[::-1], complete=True)
    top_u, top_v, top_s = [0, 1, 2, 3], [3, 2, 1, 0], [1.0, 0.5, 0.5, 1.0]
    check_similarity(G, top_u, top_v, top_s, top_k=1)
    with pytest.raises(lg.VerificationError, match="vertex 0: 3 .* should be among its top 1"):
        check_similarity(G, top_u, [1, 2, 1, 0], [0.25, 0.5, 0.5, 1.0], top_k=1)
    with pytest.raises(lg.VerificationError, match="vertex 0 has 2 entries, expected 1"):
        check_similarity(G, [0] + top_u, [1] + top_v, [0.25] + top_s, top_k=1)
    with pytest.raises(lg.VerificationError, match="entry 3 .* should come before 1"):
        check_similarity(G, [0, 0], [1, 3], [0.25, 1.0], top_k=2, sample=None)
    with pytest.raises(lg.VerificationError, match="one length"):
        check_similarity(G, [0], [1, 2], [0.5])
    with pytest.raises(lg.VerificationError, match="not a pair of vertices"):
        check_similarity(G, [0], [9], [0.5])


def test_check_true_runs_the_checker(monkeypatch):
    G = SMALL["caveman"]()
    for kw in ({}, {"top_k": 2}, {"pairs": [(0, 1), (0, 29)]}):
        lg.similarity(G, check=True, **kw)
    right = lg.similarity(G, [(0, 1), (0, 29)]).score
    monkeypatch.setattr(S, "_pairs_scores", lambda *a: right + [0.0, 0.5])
    with pytest.raises(lg.VerificationError, match=r"score\[1\] of pair \(0, 29\)"):
        lg.similarity(G, [(0, 1), (0, 29)], check=True)


def test_bad_input():
    G = lg.generators.complete(4)
    with pytest.raises(lg.InvalidArgumentError, match=r"metric must be one of .*got 'dice'"):
        lg.similarity(G, metric="dice")
    with pytest.raises(lg.InvalidSourceError, match=r"pairs\[1\] = \(2, 99\) names vertex 99, not in 0..3"):
        lg.similarity(G, [(0, 1), (2, 99)])
    with pytest.raises(lg.InvalidSourceError, match=r"pairs\[0\] = \(-1, 2\) names vertex -1"):
        lg.similarity(G, [(-1, 2)])
    with pytest.raises(lg.InvalidArgumentError, match="top_k must be at least 1, got 0"):
        lg.similarity(G, top_k=0)
    with pytest.raises(lg.InvalidArgumentError, match="top_k must be an integer"):
        lg.similarity(G, top_k=2.5)
    with pytest.raises(lg.InvalidArgumentError, match="not both"):
        lg.similarity(G, [(0, 1)], top_k=2)
    with pytest.raises(lg.InvalidArgumentError, match=r"\(m, 2\) array .* got shape \(3,\)"):
        lg.similarity(G, [0, 1, 2])
    with pytest.raises(lg.InvalidArgumentError, match=r"got shape \(2, 3\)"):
        lg.similarity(G, [[0, 1, 2], [1, 2, 3]])
    with pytest.raises(lg.InvalidArgumentError, match="two 1-D arrays of one length"):
        lg.similarity(G, (np.array([0, 1]), np.array([1])))
    with pytest.raises(lg.InvalidArgumentError, match=r"integer vertex ids, got pairs\[0\]\[1\] = 1.5"):
        lg.similarity(G, [(0, 1.5)])
    with pytest.raises(lg.InvalidArgumentError, match="integer vertex ids"):
        lg.similarity(G, [("a", "b")])
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        lg.similarity(nx.path_graph(3))
    with pytest.raises(lg.InvalidArgumentError, match="nope"):
        lg.similarity(G, engine="nope")


def test_command_line(capsys, tmp_path):
    out = tmp_path / "r.json"
    assert main(["run", "similarity", "karate", "--metric", "cosine", "--top-k", "3", "--check", "--out",
                 str(out)]) == 0
    assert "checked: correct" in capsys.readouterr().out
    assert main(["run", "similarity", "karate", "--metric", "dice"]) == 2
    assert "--metric must be one of" in capsys.readouterr().err
    assert main(["run", "similarity", "karate", "--top-k", "0"]) == 2
    assert "--top-k must be at least 1" in capsys.readouterr().err
    assert main(["run", "cc", "karate", "--top-k", "3"]) == 2
    assert "--top-k is not an option of cc (only of similarity)" in capsys.readouterr().err


def test_fused_top_k_sums_agree_with_the_algebra():
    """The CPU engine's similarity_top_k adds a sum's terms in another order: the same scores to rounding, and
    ties (to rounding) may fall either way; tests/test_fused.py holds the counting metrics to equality."""
    from la_graph.algorithms import steps

    for G in (SMALL["rmat"](), SMALL["rmat_directed"]()):
        for metric in ("adamic_adar", "resource_allocation"):
            a = lg.similarity(G, metric=metric, top_k=4, engine="cpu")
            with steps.algebraic("similarity_top_k"):
                b = lg.similarity(G, metric=metric, top_k=4, engine="cpu")
            np.testing.assert_array_equal(a.u, b.u)
            np.testing.assert_allclose(a.score, b.score, rtol=1e-12)
            check_similarity(G, a.u, a.v, a.score, metric=metric, top_k=4)


# ---------------------------------------------------------------------- cases of the suite-wide tests
# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "similarity_top_k": ("directed", lambda G, E: {f"{m} {x}": getattr(lg.similarity(G, metric=m, top_k=7,
                                                                                    engine=E), x)
                                                   for m in ("jaccard", "cosine") for x in ("u", "v", "score")}),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "similarity": (KARATE, (), {"top_k": 3}, lambda r: r._replace(score=bump(r.score, 0, 0.1))),
}
