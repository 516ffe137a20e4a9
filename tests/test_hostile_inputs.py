"""Inputs a new user gets wrong: every one is a la_graph error naming the rule and the value."""

from __future__ import annotations

import numpy as np
import pytest

import la_graph as lg


@pytest.mark.parametrize("u, v, shown", [
    (["a"], ["b"], "'a'"),                              # strings
    (np.array([1 + 2j]), [0], "(1+2j)"),                # complex numbers
    (np.array([object()], dtype=object), [0], "object"),
    ([0.5], [1], "0.5"),                                # a fractional id
])
def test_vertex_ids_that_are_not_integers(u, v, shown):
    with pytest.raises(lg.InvalidGraphError, match="must hold integer vertex ids") as err:
        lg.Graph.from_edges(u, v)
    assert shown in str(err.value)
    assert isinstance(err.value, ValueError)           # the matching built-in too, as README says


def test_vertex_ids_that_are_not_one_array():
    with pytest.raises(lg.InvalidGraphError, match=r"u must be a 1-D array of integer vertex ids, got \[\[0\], \[1, 2\]\]"):
        lg.Graph.from_edges([[0], [1, 2]], [1, 2])   # ragged: was numpy's ValueError
    with pytest.raises(lg.InvalidGraphError, match=r"vertex id 1e\+20 does not fit in int64"):
        lg.Graph.from_edges([1e20], [0])              # was "ids must be >= 0, got u[0] = -9223372036854775808"


@pytest.mark.parametrize("directed", ["no", None, 1, np.array([True, False])])
def test_directed_must_be_a_bool(directed, tmp_path):
    with pytest.raises(lg.InvalidArgumentError, match="directed must be True or False"):
        lg.Graph.from_edges([0], [1], directed=directed)     # "no" and 1 were directed, None undirected
    if directed is not None:
        with pytest.raises(lg.InvalidArgumentError, match="directed must be True or False"):
            lg.Graph.from_file(lg.data.path("karate"), directed=directed)
    assert lg.Graph.from_edges([0], [1], directed=np.bool_(True)).directed


@pytest.mark.parametrize("bad", [None, "heavy", 1 + 1j])
def test_networkx_weights_that_are_not_real_numbers(bad):
    nx = pytest.importorskip("networkx")
    G = nx.Graph()
    G.add_edge("x", "y", weight=bad)
    G.add_edge("y", "z", weight=2.0)
    with pytest.raises(lg.InvalidGraphError, match=r"edge weights must be real numbers: edge \('x', 'y'\)"):
        lg.Graph.from_networkx(G)


def test_networkx_weights_of_numpy_and_bool_types_are_numbers():
    nx = pytest.importorskip("networkx")
    G = nx.Graph()
    G.add_edge(0, 1, weight=np.float32(2.5))
    G.add_edge(1, 2, weight=np.int64(3))
    G.add_edge(2, 3)                                      # missing: 1
    H = lg.Graph.from_networkx(G)
    assert sorted(H.weights.tolist()) == [1.0, 1.0, 2.5, 2.5, 3.0, 3.0]


def test_an_edge_list_numbered_from_1(tmp_path, capsys):
    p = tmp_path / "p.txt"
    p.write_text("1 2\n2 3\n3 1\n")
    with pytest.warns(lg.NumberingWarning, match="looks 1-based"):
        G = lg.Graph.from_file(p)
    assert G.n == 4                                       # as written: vertex 0 is extra
    H = lg.Graph.from_file(p, base=1)
    assert H.n == 3 and sorted(zip(*H.edges())) == [(0, 1), (1, 2), (2, 0)]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert lg.Graph.from_file(p, base=0).n == 4           # said: no warning
    z = tmp_path / "z.txt"
    z.write_text("0 1\n1 2\n")
    with pytest.raises(lg.FileFormatError, match="base=1, but edge 1 has vertex id 0"):
        lg.Graph.from_file(z, base=1)
    with pytest.raises(lg.InvalidArgumentError, match="numbers its vertices itself"):
        lg.Graph.from_file(lg.data.path("karate"), base=1)
    with pytest.raises(lg.InvalidArgumentError, match="base must be None, 0 or 1"):
        lg.Graph.from_file(p, base=2)
    from la_graph.cli import main

    assert main(["run", "cc", str(p)]) == 0
    captured = capsys.readouterr()
    assert "pass --base 1" in captured.err and "components 2" in captured.out
    assert main(["run", "cc", str(p), "--base", "1"]) == 0
    captured = capsys.readouterr()
    assert "components 1" in captured.out and "--base" not in captured.err


@pytest.mark.parametrize("call", [
    lambda G, s: lg.bfs(G, sources=s, parent=False),
    lambda G, s: lg.bfs(G, sources=s),
    lambda G, s: lg.sssp(G, sources=s),
    lambda G, s: lg.reachability(G, s),
])
def test_many_sources_are_refused_before_memory_runs_out(monkeypatch, call):
    """k sources x n vertices of results that cannot fit: OutOfMemory naming the bytes and how many sources fit."""
    G = lg.generators.grid_2d(20, 20, weights=(1, 9), seed=1)
    monkeypatch.setattr(lg._validation, "available_host_bytes", lambda: 100_000)
    with pytest.raises(lg.OutOfMemory, match=r"from 400 sources over 400 vertices needs [\d,]+ bytes of memory, "
                                             r"but only 100,000 bytes are available; search at most \d+ sources"):
        call(G, np.arange(G.n))
    assert call(G, np.arange(3)) is not None            # a few sources fit


@pytest.mark.parametrize("search", ["bfs", "sssp"])
def test_many_sources_run_in_batches_where_only_the_results_fit(monkeypatch, search):
    """The results fit, the engine's copies for all sources at once do not: the sources go in batches."""
    G = lg.generators.grid_2d(12, 10, weights=(1, 9), seed=2)
    src = np.arange(0, G.n, 2)                                          # 60 sources x 120 vertices
    run = (lambda: lg.bfs(G, sources=src)) if search == "bfs" else (lambda: lg.sssp(G, sources=src))
    whole = run()
    calls = []
    import importlib

    module = importlib.import_module(f"la_graph.algorithms.{search}")   # (the package exports functions of these names)
    name = "_bfs_multi" if search == "bfs" else "sssp_batch"
    spy = getattr(module, name)
    monkeypatch.setattr(module, name, lambda E, G, s, *a: calls.append(len(s)) or spy(E, G, s, *a))
    monkeypatch.setattr(lg._validation, "available_host_bytes", lambda: 60 * 120 * 16 + 60_000)   # the results and a third of the work
    part = run()
    assert len(calls) > 1 and sum(calls) == src.size                   # batched
    for a, b in ((whole.level, part.level), (whole.parent, part.parent)) if search == "bfs" else \
            ((whole.distance, part.distance),):
        np.testing.assert_array_equal(a, b)


def test_integer_weights_beyond_float64_precision():
    with pytest.raises(lg.InvalidGraphError, match=r"at most 2\*\*53 .* w\[1\] = 9007199254740993"):
        lg.Graph.from_edges([0, 1], [1, 2], w=np.array([1, 2**53 + 1], np.int64))
    with pytest.raises(lg.InvalidGraphError, match="at most 2"):
        lg.Graph.from_edges([0], [1], w=np.array([2**63 + 5], np.uint64))
    G = lg.Graph.from_edges([0, 1], [1, 2], w=np.array([2**53, -(2**53)], np.int64), directed=True)
    assert G.weights.tolist() == [2.0**53, -(2.0**53)]      # exactly representable: kept


def test_a_file_with_four_columns_needs_usecols(tmp_path, capsys):
    """``id u v w`` read as ``u v w`` would be another graph: refused unless the columns are named."""
    p = tmp_path / "g.txt"
    p.write_text("0 5 6 1.5\n1 6 7 2.5\n")
    with pytest.raises(lg.FileFormatError, match=r"line 1: 4 columns.*usecols=\(0, 1, 2\)"):
        lg.Graph.from_file(p)
    G = lg.Graph.from_file(p, usecols=(1, 2, 3))
    assert G.n == 8 and sorted(zip(*G.edges())) == [(5, 6), (6, 7)] and G.weights.tolist() == [1.5, 2.5]
    from la_graph.cli import main

    assert main(["run", "cc", str(p)]) == 2
    err = capsys.readouterr().err
    assert "--usecols 0,1,2" in err and "usecols=" not in err
    assert main(["run", "sssp", str(p), "--usecols", "1,2,3", "--source", "5"]) == 0
    assert "reached 3" in capsys.readouterr().out


def test_integer_weights_in_a_file_beyond_float64_precision(tmp_path):
    p = tmp_path / "w.txt"
    p.write_text("0 1 1\n1 2 9007199254740994\n")
    with pytest.raises(lg.FileFormatError, match=r"line 2: weight 9007199254740994 is an integer beyond 2\*\*53"):
        lg.Graph.from_file(p)


@pytest.mark.parametrize("call", [
    lambda G, E: lg.sssp(G, 0, engine=E),
    lambda G, E: lg.sssp(G, 0, method="bellman_ford", engine=E),
    lambda G, E: lg.sssp(G, sources=[2, 0], engine=E),
    lambda G, E: lg.apsp(G, method="floyd_warshall", engine=E),
    lambda G, E: lg.apsp(G, method="sssp", engine=E),
])
def test_a_path_too_long_for_float64_is_not_called_unreachable(engine, call):
    G = lg.Graph.from_edges([0, 1], [1, 2], w=np.array([1e308, 1e308]), directed=True)
    with pytest.raises(lg.PathLengthOverflowError, match="vertex 2 is reached from 0"):
        call(G, engine)
    with pytest.raises(OverflowError):
        call(G, engine)
    H = lg.Graph.from_edges([0, 1], [1, 2], w=np.array([1e308, 1e307]), directed=True)   # no overflow
    assert lg.sssp(H, 0, engine=engine).distance[2] == 1e308 + 1e307


def test_long_work_shows_progress_when_asked(monkeypatch, capsys, tmp_path):
    """Reading, parsing and building a graph, and long APSP runs, report progress on stderr when asked
    (the CLI asks on a terminal); bars appear once work has taken _progress.DELAY seconds (0 here)."""
    from la_graph import _progress

    monkeypatch.setattr(_progress, "DELAY", 0)
    p = tmp_path / "g.txt"
    p.write_text("0 1 2.5\n1 2 1.5\n2 0 1\n")
    lg.Graph.from_file(p, progress=True)
    err = capsys.readouterr().err
    assert "reading g.txt" in err and "parsing g.txt" in err and "building the graph of 3 edges" in err
    G = lg.generators.rmat(8, 8, seed=3)
    lg.apsp(G, "sssp", progress=True)
    assert "all-pairs shortest paths" in capsys.readouterr().err
    lg.apsp(G, "floyd_warshall", progress=True)
    assert "Floyd-Warshall on 256 vertices" in capsys.readouterr().err
    lg.betweenness_centrality(G, k=20, seed=1, progress=True)
    assert "betweenness" in capsys.readouterr().err
    lg.Graph.from_file(p)
    lg.apsp(G)
    lg.betweenness_centrality(G, k=20, seed=1)
    assert capsys.readouterr().err == ""                   # not asked: silent


def test_engine_options_are_checked():
    for name in ("cpu", "reference"):
        with pytest.raises(lg.InvalidArgumentError, match=f"the {name} engine takes no options, got bogus=1"):
            lg.set_engine(name, bogus=1)
        with pytest.raises(lg.InvalidArgumentError, match=f"the {name} engine takes no options, got bogus=1"):
            with lg.use_engine(name, bogus=1):
                pass


# Algorithms that read only the structure: the same answer on a graph whose edges carry weights of
# every kind (zero, negative, fractional, huge) with weighted self-loops and duplicate edges as on the
# same edges unweighted.  LCC once subtracted a loop's weight from the degree.
STRUCTURE_ONLY = {
    "bfs": lambda G, e: lg.bfs(G, 0, engine=e).level,
    "cc": lambda G, e: lg.connected_components(G, engine=e),
    "scc": lambda G, e: lg.strongly_connected_components(G, engine=e),
    "mis": lambda G, e: lg.maximal_independent_set(G.to_undirected(), engine=e),
    "reachability": lambda G, e: lg.reachability(G, [0, 3], engine=e),
    "triangle_count": lambda G, e: lg.triangle_count(G, engine=e),
    "triangles": lambda G, e: lg.triangles(G.to_undirected(), engine=e),
    "lcc": lambda G, e: lg.local_clustering_coefficient(G, engine=e),
    "betweenness": lambda G, e: lg.betweenness_centrality(G, weight=False, engine=e),   # hops: weights ignored
    "cdlp": lambda G, e: lg.label_propagation(G, engine=e),
    "core_number": lambda G, e: lg.core_number(G, engine=e),
}


@pytest.mark.parametrize("weights", ["zero", "negative", "fractional", "huge"])
@pytest.mark.parametrize("directed", [False, True])
def test_structure_only_algorithms_ignore_weights_loops_and_duplicates(engine, directed, weights):
    rng = np.random.default_rng(7)
    n, m = 40, 160
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)
    u = np.r_[u, np.arange(0, n, 3), u[:30]]                     # loops, duplicates
    v = np.r_[v, np.arange(0, n, 3), v[:30]]
    w = {"zero": np.zeros(u.size), "negative": -rng.integers(1, 9, u.size).astype(float),
         "fractional": rng.random(u.size) * 1e-3, "huge": rng.integers(1, 10**6, u.size) * 1e300}[weights]
    W = lg.Graph.from_edges(u, v, w=w, n=n, directed=directed)
    H = lg.Graph.from_edges(u, v, n=n, directed=directed)
    for name, f in STRUCTURE_ONLY.items():
        got, want = np.asarray(f(W, engine)), np.asarray(f(H, engine))
        if engine.name == "gpu" and got.dtype.kind == "f":
            # the GPU engine sums float dependencies with atomics: their order, so the last bit, varies by call
            np.testing.assert_allclose(got, want, rtol=1e-13, atol=0, err_msg=name)
        else:
            np.testing.assert_array_equal(got, want, err_msg=name)
