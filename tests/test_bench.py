"""The benchmark harness (la_graph.bench) on tiny graphs: every result checked, wrong answers caught,
missing algorithms and peers skipped with a note, JSON record, report page and plots, CLI."""

import json
import re
import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import la_graph as lg
from la_graph.bench import cases, external, graphs, harness, peers, report
from la_graph.bench.targets import TARGETS
from la_graph.cli import main
from la_graph.exceptions import VerificationError

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- graph names
def test_build_families_and_modifiers():
    G = graphs.build("grid4")
    assert (G.n, G.nedges, G.directed, G.weighted) == (16, 24, False, False)
    W = graphs.build("grid4:w3-5")
    assert W.nedges == 24 and W.weighted and set(np.unique(W.weights)) <= {3.0, 4.0, 5.0}
    assert W.is_symmetric
    np.testing.assert_array_equal(W.weights, graphs.build("grid4:w3-5").weights)  # seeded by the name
    D = graphs.build("grid4:dir")
    assert D.directed and D.nnz == G.nnz
    assert graphs.build("rmat8:dir").directed and not graphs.build("rmat8").directed
    assert graphs.build("uniform6").n == 64
    assert graphs.build("hypercube4").nedges == 32
    assert graphs.build("caveman3x4").nedges == 18 and graphs.build("ccaveman3x4").nedges == 18
    assert graphs.build("circulant20").nedges == 80
    E = graphs.build("er200-2k:dir")
    assert E.directed and 1500 < E.nedges < 2500
    assert graphs.build("karate").n == 34
    assert graphs.build("rmat8:dir:sym").directed is False
    assert [graphs.family(x) for x in ("rmat8:dir", "ccaveman3x4", "er5-10", "usroads-48")] == \
        ["rmat", "ccaveman", "er", "real"]


def test_build_errors(tmp_path, monkeypatch):
    with pytest.raises(lg.InvalidArgumentError, match="unknown graph modifier 'x'"):
        graphs.build("grid4:x")
    monkeypatch.setenv("LA_GRAPH_DATA", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="no graph file named nosuch"):
        graphs.build("nosuch")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "tiny_1.txt").write_text("0 1\n1 2\n")
    assert graphs.build("tiny").nedges == 2
    monkeypatch.setenv("LA_GRAPH_DATA", str(tmp_path / "absent"))
    with pytest.raises(FileNotFoundError, match="no data folder"):
        graphs.build("tiny")


def test_default_graphs_and_plan():
    sssp = cases.ALGORITHMS["sssp"]
    assert cases.suite_graphs(["ladder"], sssp, ["cpu"], scales=[10, 11]) == ["rmat10:w1-255", "rmat11:w1-255"]
    todo = harness.plan(["bfs", "scc"], graphs=["rmat8", "grid4"])
    assert todo == {"rmat8": ["bfs"], "rmat8:dir": ["scc"], "grid4": ["bfs", "scc"]}
    every = harness.plan(list(cases.ALGORITHMS), engines=["cpu", "gpu"])
    assert "rmat22:w1-1000" in every and "usroads-48:dir" in every
    # every target's graph is in the default suite of its engine
    for t in TARGETS:
        assert t.graph in cases.SUITES["targets"][t.engine][t.algorithm], t


# ---------------------------------------------------------------- timing
def test_time_interleaved_budget_and_errors():
    calls = []

    def slow():
        calls.append("slow")
        return 1

    def boom():
        raise MemoryError("too big")

    a = harness.Impl("a", lambda: calls.append("a") or 2, None)
    b = harness.Impl("b", slow, None)
    c = harness.Impl("c", boom, None)
    harness.time_interleaved([a, b, c], repeat=3, budget_s=1e9)
    assert len(a.times) == 3 and len(b.times) == 3 and a.raw == 2 and b.raw == 1
    assert calls[:2] == ["a", "slow"] and calls[2:] == ["a", "slow"] * 3  # warm-up, then interleaved rounds
    assert c.error == "MemoryError: too big" and c.times == []
    runs = []
    d = harness.Impl("d", lambda: runs.append("d"), None, compiles=True)
    e = harness.Impl("e", lambda: runs.append("e"), None)
    harness.time_interleaved([d, e], repeat=5, budget_s=0)  # over budget: one timed run, or just the warm-up
    assert runs == ["d", "d", "e", "d"]   # d: warm-up (compiles), one call watched for memory; e; d timed once
    assert len(d.times) == 1 and d.note is None
    assert set(d.memory) <= {"peak_host_growth_bytes"} and set(e.memory) == set(d.memory)
    assert e.times == [e.warmup_s] and "one run only" in e.note


# ---------------------------------------------------------------- the run
@pytest.fixture(scope="module")
def record():
    return harness.run(list(cases.ALGORITHMS), graphs=["grid5", "rmat7"], repeat=1, progress=False,
                       log=lambda *a: None)


def test_run_checks_every_result(record):
    doc = json.loads(json.dumps(record, default=harness._json_default))
    assert doc["schema"] == 2 and doc["engines"] == ["cpu"]
    m = doc["machine"]
    assert m["cores"] >= 1 and "numpy" in m["versions"] and "scipy" in m["versions"]
    rows = doc["results"]
    assert rows and all(r["status"] == "ok" for r in rows), [r for r in rows if r["status"] != "ok"]
    ran = {r["algorithm"] for r in rows}
    for name, a in cases.ALGORITHMS.items():
        if a.resolve() is None:
            assert name not in ran and any(n.startswith(f"{name}: la_graph.") for n in doc["notes"])
        else:
            assert name in ran
    bfs = [r for r in rows if r["algorithm"] == "bfs" and r["graph"] == "rmat7"]
    from la_graph.bench.graphs import build
    G7 = build("rmat7")
    assert {r["impl"] for r in bfs} >= {"la_graph[cpu]", "scipy"}
    one = "source 0" if G7.out_degree[0] > 0 else "hub source"      # vertex 0, or the hub where 0 is isolated
    assert {(r["setting"], r["per"]) for r in bfs} == {("16 random sources", 16), (one, 1)}
    bfs = [r for r in bfs if r["setting"] == "16 random sources"]
    ours = next(r for r in bfs if r["impl"] == "la_graph[cpu]")
    assert ours["median_s"] > 0 and ours["repeat"] == 1 and ours["edges_per_s"] > 0
    assert set(doc["graphs"]) >= {"grid5", "rmat7"} and doc["graphs"]["grid5"]["edges"] == 40
    assert "cpu" in doc["graphs"]["grid5"]["upload_s"]


def test_wrong_answer_is_a_failure_not_a_time(monkeypatch):
    def wrong_cc(G, *, engine=None, output="numpy"):
        return np.arange(G.n)  # every vertex alone: wrong on a connected grid

    monkeypatch.setattr(lg, "connected_components", wrong_cc)
    doc = harness.run(["cc"], graphs=["grid4"], peers=["scipy"], repeat=1, progress=False, log=lambda *a: None)
    by = {r["impl"]: r for r in doc["results"]}
    assert by["la_graph[cpu]"]["status"] == "wrong" and "median_s" not in by["la_graph[cpu]"]
    assert "labels[1]" in by["la_graph[cpu]"]["note"]
    assert by["scipy"]["status"] == "ok"  # checked on its own, not against ours


def test_missing_algorithm_and_peer_are_skipped_with_a_note(monkeypatch):
    monkeypatch.delattr(lg, "bfs")
    real = peers.available
    monkeypatch.setattr(peers, "available", lambda t: (False, "not here") if t == "igraph" else real(t))
    doc = harness.run(["bfs", "cc"], graphs=["grid4"], peers=["scipy", "igraph"], repeat=1, progress=False,
                      log=lambda *a: None)
    assert "bfs: la_graph.bfs is not available yet, skipped" in doc["notes"]
    assert "igraph: skipped (not here)" in doc["notes"]
    assert {(r["algorithm"], r["impl"]) for r in doc["results"]} == {("cc", "la_graph[cpu]"), ("cc", "scipy")}


def test_missing_graph_file_and_size_limits(monkeypatch, tmp_path):
    monkeypatch.setenv("LA_GRAPH_DATA", str(tmp_path))
    monkeypatch.setitem(peers.NX_MAX_EDGES, "cc", 10)
    doc = harness.run(["cc"], graphs=["nosuch", "grid4"], peers=["networkx"], repeat=1, progress=False,
                      log=lambda *a: None)
    assert any(n.startswith("nosuch: skipped (no graph file") for n in doc["notes"])
    assert any("networkx skipped: 24 edges > 10" in n for n in doc["notes"])
    assert [r["impl"] for r in doc["results"]] == ["la_graph[cpu]"]


def test_gpu_path_with_the_cpu_engine_standing_in(monkeypatch):
    # the harness's GPU path (output="device", synchronize, device results brought back) runs here
    from la_graph import engines

    monkeypatch.setitem(engines._instances, "gpu", lg.get_engine("cpu"))
    doc = harness.run(["bfs", "cc", "reachability"], graphs=["rmat6"], engines=["gpu"], peers=["scipy"], repeat=1,
                      progress=False, log=lambda *a: None)
    assert {(r["impl"], r["status"]) for r in doc["results"]} == {("la_graph[gpu]", "ok"), ("scipy", "ok")}
    assert doc["graphs"]["rmat6"]["upload_s"]["gpu"] >= 0


def test_unavailable_engine_is_a_note():
    try:
        lg.get_engine("gpu")
    except lg.EngineUnavailable:
        doc = harness.run(["cc"], graphs=["grid3"], engines=["cpu", "gpu"], peers=[], repeat=1, progress=False,
                          log=lambda *a: None)
        assert any(n.startswith("engine gpu unavailable") for n in doc["notes"])
        assert [r["impl"] for r in doc["results"]] == ["la_graph[cpu]"]
    else:
        pytest.skip("a GPU engine is available here")


# ---------------------------------------------------------------- the report
def _row(algo, graph, impl, ms, per=1, status="ok", setting="", variant=""):
    r = {"algorithm": algo, "graph": graph, "impl": impl, "variant": variant, "setting": setting, "per": per,
         "status": status, "engine": "cpu" if impl == "la_graph[cpu]" else None}
    if status == "ok":
        r.update(median_s=ms / 1e3, min_s=ms / 1e3, edges_per_s=1e6, summary={})
    return r


def test_targets_met_not_met_wrong_and_unmeasured(tmp_path):
    doc = {"schema": 2, "date": "2026-01-01T00:00:00+00:00", "engines": ["cpu"], "machine": {}, "notes": [],
           "graphs": {g: {"n": 10, "edges": 20, "family": graphs.family(g)}
                      for g in ("rmat20", "uk-2007-05", "grid1000")},
           "results": [_row("bfs", "rmat20", "la_graph[cpu]", 160, per=16, setting="16 random sources"),
                       _row("bfs", "rmat20", "scipy", 320, per=16, setting="16 random sources"),
                       _row("bfs", "rmat20", "igraph", 480, per=16, setting="16 random sources"),
                       _row("cc", "uk-2007-05", "la_graph[cpu]", 3.0),
                       _row("cc", "uk-2007-05", "scipy", 1.0),
                       _row("cc", "grid1000", "la_graph[cpu]", None, status="wrong"),
                       _row("cc", "grid1000", "scipy", 1.0)]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    ev = {(e["target"].algorithm, e["target"].graph, e["target"].engine): e for e in report.evaluate(report.load([path]))}
    met = ev[("bfs", "rmat20", "cpu")]
    assert met["met"] is True and math.isclose(met["ratios"]["scipy"], 2.0)
    assert report.per_call_ms(met["ours"]) == 10.0
    assert ev[("cc", "uk-2007-05", "cpu")]["met"] is False
    assert ev[("cc", "grid1000", "cpu")]["met"] is False and "wrong" in ev[("cc", "grid1000", "cpu")]["why"]
    assert ev[("bfs", "rmat22", "gpu")]["met"] is None and ev[("bfs", "rmat22", "gpu")]["why"] == "not measured"
    # a provisional record (a pipeline check) counts only where no other record has the target
    later = dict(doc, date="2026-02-01T00:00:00+00:00", provisional=True,
                 results=[_row("cc", "uk-2007-05", "la_graph[cpu]", 1.0), _row("cc", "uk-2007-05", "scipy", 1.0),
                          _row("cc", "rmat20", "la_graph[cpu]", 1.0), _row("cc", "rmat20", "scipy", 2.0),
                          _row("cc", "rmat20", "igraph", 2.0)])
    path2 = tmp_path / "p.json"
    path2.write_text(json.dumps(later))
    ev2 = {(e["target"].algorithm, e["target"].graph, e["target"].engine): e
           for e in report.evaluate(report.load([path, path2]))}
    assert ev2[("cc", "uk-2007-05", "cpu")]["met"] is False and ev2[("cc", "uk-2007-05", "cpu")]["run"] == "r.json"
    assert ev2[("cc", "rmat20", "cpu")]["met"] is True and ev2[("cc", "rmat20", "cpu")]["run"] == "p.json (provisional)"
    out = report.render([path], tmp_path / "docs" / "benchmarks.md")
    text = out.read_text()
    # the page: one table per algorithm and engine, the peers beside la_graph (their speed-up), no targets
    assert "| rmat20 | 10 | 20 | 16 random sources | 10 | 1.0 | 20 (2.00×) | 30 (3.00×) | c1 |" in text
    assert "**WRONG**" in text and "met" not in text.lower().split("## cpu engine")[1]
    assert "](benchmarks/cpu-speedup.png)" in text
    assert (tmp_path / "docs" / "benchmarks" / "cpu-speedup.png").stat().st_size > 1000


def test_report_skips_other_json_only_when_asked(tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"date": "x", "engine": "cpu", "graphs": [], "results": [{"tool": "t"}]}))
    with pytest.raises(ValueError, match="not a benchmark record"):
        report.load([other])
    record = ROOT / "benchmarks/results/cpu-2core-all-suite-2026-11-27.json"
    skipped = []
    assert report.load([other, record], skip_others=True, skipped=skipped)[0][0] == record and skipped == [other]


def test_committed_page_is_the_generated_one(tmp_path):
    """docs/benchmarks.md is what ``la-graph bench --report benchmarks/results/*.json`` writes."""
    page = report.render(sorted((ROOT / report.RESULTS).glob("*.json")), tmp_path / "benchmarks.md", plots=False,
                         skip_others=True)
    assert page.read_text() == (ROOT / report.PAGE).read_text()
    embedded = set(re.findall(r"\]\(benchmarks/([^)]+\.png)\)", page.read_text()))
    assert embedded <= {p.name for p in (ROOT / "docs" / "benchmarks").glob("*.png")}


def test_records_are_never_overwritten(tmp_path):
    first = tmp_path / "bench-cpu-20260101-0000.json"
    assert harness.free_path(first) == first
    first.write_text("{}")
    assert harness.free_path(first).name == "bench-cpu-20260101-0000-2.json"
    (tmp_path / "bench-cpu-20260101-0000-2.json").write_text("{}")
    assert harness.free_path(first).name == "bench-cpu-20260101-0000-3.json"


# ---------------------------------------------------------------- the CLI
def test_cli_bench_and_report(tmp_path, capsys):
    out = tmp_path / "run.json"
    assert main(["bench", "cc", "bfs", "--graphs", "grid5", "--repeat", "1", "--peers", "scipy",
                 "--out", str(out), "--no-progress", "--label", "test"]) == 0
    doc = json.loads(out.read_text())
    assert doc["label"] == "test" and {r["impl"] for r in doc["results"]} == {"la_graph[cpu]", "scipy"}
    assert doc["command"].startswith("la-graph bench cc bfs --graphs grid5")
    assert all(r["status"] == "ok" for r in doc["results"])
    assert f"wrote {out}" in capsys.readouterr().out
    page = tmp_path / "bench.md"
    assert main(["bench", "--report", str(out), "--report-out", str(page)]) == 0
    assert "`run.json`" in page.read_text() and "targets" not in capsys.readouterr().out
    assert main(["bench", "cc", "--graphs", "grid5", "--repeat", "1", "--peers", "none", "--out", str(out),
                 "--no-progress"]) == 0                      # the first record stays: the second gets a new name
    assert json.loads(out.read_text())["label"] == "test" and (tmp_path / "run-2.json").is_file()
    assert main(["bench", "--list"]) == 0
    assert "reachability" in capsys.readouterr().out
    tri = tmp_path / "tri.json"                      # run's name for triangle counting is the bench's tc
    assert main(["bench", "triangles", "--graphs", "grid5", "--repeat", "1", "--peers", "none", "--out", str(tri),
                 "--no-progress"]) == 0
    assert {r["algorithm"] for r in json.loads(tri.read_text())["results"]} == {"tc"}


def test_cli_bench_errors(tmp_path, capsys):
    assert main(["bench", "nosuch", "--no-progress"]) == 2
    assert "unknown algorithm 'nosuch'" in capsys.readouterr().err
    assert main(["bench", "shortcut", "--no-progress"]) == 2
    assert "unknown algorithm 'shortcut' (la-graph run's shortcut has no bench case)" in capsys.readouterr().err
    assert main(["bench", "cc", "--engines", "tpu", "--no-progress"]) == 2
    assert "--engines takes cpu and/or gpu" in capsys.readouterr().err
    assert main(["bench", "cc", "--peers", "matlab", "--no-progress"]) == 2
    assert "unknown peer 'matlab'" in capsys.readouterr().err
    assert main(["bench", "cc", "--repeat", "0", "--no-progress"]) == 2
    assert main(["bench", "--report", str(tmp_path / "none.json")]) == 2
    assert "no such benchmark record" in capsys.readouterr().err
    for name, data in (("empty.json", b""), ("binary.json", b"\xff\xfe\x00")):
        (tmp_path / name).write_bytes(data)
        assert main(["bench", "--report", str(tmp_path / name)]) == 2          # the file was not named
        assert f"{tmp_path / name} is not a benchmark record of la-graph bench: not JSON text" in \
            capsys.readouterr().err


# ---------------------------------------------------------------- the ECL suite (external peers)
def test_egr_files_hold_the_csr_and_int32_weights(tmp_path):

    G = lg.Graph.from_edges([0, 0, 1], [1, 2, 2], w=[3.0, 1.0, 7.0], n=4)
    raw = np.fromfile(external.write_egr(G, tmp_path / "g.egr", weights=True), np.int32)
    n, nnz = raw[:2]
    assert (n, nnz) == (4, 6)
    np.testing.assert_array_equal(raw[2:7], G.indptr)
    np.testing.assert_array_equal(raw[7:13], G.indices)
    np.testing.assert_array_equal(raw[13:], G.weights.astype(np.int32))
    plain = np.fromfile(external.write_egr(G, tmp_path / "p.egr"), np.int32)
    assert plain.size == 2 + 5 + 6                                  # no weights
    ones = np.fromfile(external.write_egr(lg.generators.path(3), tmp_path / "o.egr", weights=True), np.int32)
    np.testing.assert_array_equal(ones[-4:], 1)                     # unweighted: weight 1 (as la_graph's MSF)
    H = lg.Graph.from_edges([0], [1], w=[0.5])
    with pytest.raises(ValueError, match="int32 edge weights"):
        external.write_egr(H, tmp_path / "h.egr", weights=True)


def test_ecl_build_patch_and_output_parsing():

    line = 'printf("%.1f MHz and %.1f MHz", deviceProp.clockRate * 0.001, deviceProp.memoryClockRate * 0.001);'
    assert external.patch(line) == 'printf("%.1f MHz and %.1f MHz", 0 * 0.001, 0 * 0.001);'
    assert external.patch("deviceProp.multiProcessorCount") == "deviceProp.multiProcessorCount"
    cc = "compute time: 0.000250000 s\nnumber of connected components: 3\nverification passed\n"
    assert external.parse("cc", cc) == (0.00025, {"components": 3}, True)
    assert external.parse("cc", cc.replace("verification passed", ""))[2] is False
    assert external.parse("mis", "compute time: 0.001 s\nelements in set: 7 (1.0%)\n") == (0.001, {"size": 7}, True)
    assert external.parse("mis", "compute time: 0.001 s\n", returncode=255)[2] is False   # it exits -1 on a bad set
    assert external.parse("msf", "Dev+:  0.023500000 s\nHost:  1.5 s\nall good\n") == (0.0235, {}, True)
    assert external.parse("msf", "Dev-:  0.0235 s\nERROR: results differ!\n")[2] is False
    assert external.parse("scc", "compute time: 0.5 s\n\nnumber of SCCs: 12\n")[1] == {"components": 12}
    assert external.parse("apsp", "FW_64 gpu comp time:   0.004000 s\nresults match\n")[0] == 0.004
    assert external.parse("cc", "no time here")[0] is None
    gc = "ECL-GC v1.2\nruntime:    0.001234567 s\nthroughput: 1.0 Mnodes/s\nresult verification passed\ncolors used: 12\n"
    assert external.parse("coloring", gc) == (0.001234567, {"colors": 12}, True)
    assert external.parse("coloring", gc.replace("result verification passed", "ERROR: found adjacent nodes"))[2] \
        is False
    assert set(external.PROGRAMS) == set(external.WEIGHTED) == {"cc", "mis", "msf", "scc", "apsp", "coloring"}


def test_ecl_peer_says_why_it_is_unavailable(tmp_path, monkeypatch):
    monkeypatch.setenv("LA_GRAPH_ECL", str(tmp_path))
    ok, why = peers.available("ecl")
    assert not ok and ("GPU" in why or "not built" in why)
    with pytest.raises(FileNotFoundError, match="fetch"):
        from la_graph.bench import external

        external.build()


def test_self_reported_times_and_checks():
    """A program that times itself: its reported time is the record; its own check and its counts are checked."""
    G = lg.Graph.from_edges([0, 2], [1, 3], n=5)                       # 3 components
    algo = cases.ALGORITHMS["cc"]
    setting = algo.settings(G, "g")[0]

    def rows(reported):
        ours = harness.Impl("la_graph[cpu]", lambda: lg.connected_components(G, engine="cpu"), algo.ours_output)
        ecl = harness.Impl("ecl[gpu]", lambda: reported, lambda r: r)
        harness.time_interleaved([ours, ecl], repeat=2)
        return harness._record(algo, G, "g", setting, [ours, ecl], lambda *a: None)

    good = rows(external.SelfReported(0.002, {"components": 3}, True))[1]
    assert good["status"] == "ok" and good["times_s"] == [0.002, 0.002] and good["summary"] == {"components": 3}
    assert rows(external.SelfReported(0.002, {"components": 4}, True))[1]["status"] == "wrong"
    bad = rows(external.SelfReported(0.002, {"components": 3}, False, "ERROR: found adjacent nodes"))[1]
    assert bad["status"] == "wrong" and "own check" in bad["note"]


def test_bench_names_a_missing_graph_and_writes_no_empty_record(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("LA_GRAPH_DATA", str(tmp_path / "nowhere"))
    out = tmp_path / "r.json"
    assert main(["bench", "cc", "--graphs", "usroads-48", "--out", str(out), "--no-progress"]) == 2
    assert "graph 'usroads-48': no data folder" in capsys.readouterr().err and not out.exists()
    assert main(["bench", "mis", "--graphs", "rmat8:dir", "--peers", "none", "--out", str(out), "--no-progress"]) == 2
    assert "nothing was measured" in capsys.readouterr().err and not out.exists()


def test_bench_data_option_names_the_folder(capsys, tmp_path, monkeypatch):
    """``--data DIR`` is the folder of real graphs (over $LA_GRAPH_DATA); a missing one is named before any work."""
    monkeypatch.setenv("LA_GRAPH_DATA", str(tmp_path / "elsewhere"))
    out = tmp_path / "r.json"
    assert main(["bench", "cc", "--graphs", "usroads-48", "--data", str(tmp_path / "absent"), "--out", str(out),
                 "--no-progress"]) == 2
    assert f"--data {tmp_path / 'absent'}: no such folder" in capsys.readouterr().err and not out.exists()
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "tiny_graph.txt").write_text("0 1\n1 2\n")
    assert main(["bench", "cc", "--graphs", "tiny_graph", "--data", str(tmp_path / "mine"), "--peers", "none",
                 "--repeat", "1", "--out", str(out), "--no-progress"]) == 0
    assert out.exists()


# ---------------------------------------------------------------- issue 40's cases (centralities, truss, colouring, communities)
BREADTH = ("hits", "eigenvector", "katz", "closeness", "harmonic", "ebc", "jaccard", "trussness", "ktruss", "coloring",
           "louvain", "leiden", "modularity")


def test_breadth_cases_run_and_check_on_a_tiny_graph(record):
    """Each new case ran on rmat7 (la_graph and its peers, every answer checked); the fixed-iteration rows are
    la_graph's alone, and HITS refuses the bipartite grid (its hubs are not unique there)."""
    rows = [r for r in record["results"] if r["graph"] == "rmat7"]
    for name in BREADTH:
        mine = [r for r in rows if r["algorithm"] == name and r["impl"] == "la_graph[cpu]"]
        assert mine and all(r["status"] == "ok" for r in mine), name
    impls = lambda a, s: {r["impl"] for r in rows if r["algorithm"] == a and r["setting"] == s}  # noqa: E731
    for name in ("hits", "eigenvector", "katz", "pagerank"):
        assert impls(name, "20 iterations") == {"la_graph[cpu]"}, name
    for name in ("hits", "eigenvector", "closeness", "harmonic", "ebc", "jaccard", "coloring", "louvain", "leiden"):
        assert "igraph" in impls(name, next(r["setting"] for r in rows if r["algorithm"] == name)), name
    assert "networkx" in impls("trussness", "")
    assert any("hits skipped (a bipartite undirected graph" in n for n in record["notes"])
    louvain = next(r for r in rows if r["algorithm"] == "louvain" and r["impl"] == "la_graph[cpu]")
    assert set(louvain["summary"]) == {"communities", "modularity"} and 0 < louvain["summary"]["modularity"] < 1
    assert next(r for r in rows if r["algorithm"] == "coloring" and r["impl"] == "igraph")["summary"]["colors"] > 1


def test_fixed_iterations_are_checked_step_for_step():
    G = graphs.build("rmat7")
    for name in ("hits", "eigenvector", "katz"):
        algo = cases.ALGORITHMS[name]
        fixed = next(s for s in algo.settings(G, "rmat7") if s.params.get("fixed"))
        assert fixed.ours_only and fixed.label == f"{cases.ITERATIONS} iterations"
        out = algo.ours_output(algo.ours(algo.resolve(), G, fixed, "cpu", False)())
        algo.check(G, fixed, out)
        bent = (out[0] * 1.01, out[1]) if name == "hits" else out * 1.01
        with pytest.raises(lg.VerificationError, match="after 20 steps"):
            algo.check(G, fixed, bent)
    katz = cases.ALGORITHMS["katz"]
    alpha = katz.settings(G, "rmat7")[0].params["alpha"]
    lam = max(np.linalg.eigvals(G.to_scipy().toarray()).real)
    assert math.isclose(alpha, min(0.1, 0.5 / lam), rel_tol=1e-6)          # NetworkX's 0.1 would diverge here


def test_community_checks_ours_strictly_and_peers_for_form():
    G = graphs.build("caveman4x5")
    algo = cases.ALGORITHMS["louvain"]
    s = algo.settings(G, "caveman4x5")[0]
    one = np.zeros(G.n, np.int64)                 # one community: well formed, but a vertex gains by moving
    from types import SimpleNamespace
    algo.check(G, s, SimpleNamespace(labels=one, peer=True, connected=False))
    labels = np.repeat(np.arange(0, G.n, 5), 5)
    algo.check(G, s, labels)
    with pytest.raises(lg.VerificationError):
        algo.check(G, s, np.r_[labels[:-1], 0])    # the last vertex in another clique's community
    assert math.isclose(algo.summary(G, s, labels)["modularity"], lg.modularity(G, labels), abs_tol=1e-6)


def test_igraph_jaccard_without_its_self_loops():
    pytest.importorskip("igraph")
    G = graphs.build("rmat7")
    tool = peers.prepare("igraph", G)
    call, out = peers.peer_call("igraph", "jaccard", tool, G, [])
    u, v, score = out(call())
    r = lg.similarity(G)
    np.testing.assert_array_equal(u, r.u)
    np.testing.assert_array_equal(v, r.v)
    np.testing.assert_allclose(score, r.score, rtol=1e-12)


def test_breadth_and_community_suites():
    for suite in ("breadth", "community"):
        for e, by in cases.SUITES[suite].items():
            assert set(by) <= set(cases.ALGORITHMS), suite
            if suite == "breadth":
                for a, gs in by.items():              # the targets suite holds every issue's graphs
                    assert set(gs) <= set(cases.SUITES["targets"][e][a]), (e, a)
    todo = harness.plan(["louvain", "hits", "bfs"], suites=["community"], engines=["cpu"])
    assert todo["facebook:sym"] == ["louvain"] and "rmat18" in todo and not any("hits" in v for v in todo.values())
    todo = harness.plan(["hits", "trussness"], suites=["breadth"], engines=["cpu", "gpu"])
    assert todo == {"rmat20": ["hits"], "uk-2007-05": ["hits"], "rmat22": ["hits", "trussness"],
                    "facebook:sym": ["trussness"]}
    assert {t.algorithm for t in TARGETS if t.issue == 40} >= {"hits", "eigenvector", "katz", "closeness", "harmonic",
                                                                "ebc", "jaccard", "trussness", "coloring"}


def test_targets_against_another_algorithm_and_a_quality_clause(tmp_path):
    def row(algo, graph, impl, ms, setting, summary=None):
        r = _row(algo, graph, impl, ms, setting=setting)
        r["summary"] = summary or {}
        return r

    doc = {"schema": 2, "date": "2026-01-01T00:00:00+00:00", "engines": ["cpu", "gpu"], "machine": {}, "notes": [],
           "graphs": {}, "results": [
               row("hits", "rmat20", "la_graph[cpu]", 30, "20 iterations"),
               row("katz", "rmat20", "la_graph[cpu]", 10, "20 iterations"),
               row("pagerank", "rmat20", "la_graph[cpu]", 10, "20 iterations"),
               row("pagerank", "rmat20", "la_graph[cpu]", 99, ""),
               row("coloring", "rmat22", "la_graph[gpu]", 2, "", {"colors": 30}),
               row("coloring", "rmat22", "ecl[gpu]", 1.5, "", {"colors": 25}),
               row("coloring", "uniform22", "la_graph[gpu]", 2, "", {"colors": 10}),
               row("coloring", "uniform22", "ecl[gpu]", 1.5, "", {"colors": 10})]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    ev = {(e["target"].algorithm, e["target"].graph, e["target"].engine, e["target"].setting): e
          for e in report.evaluate(report.load([path]))}
    it = "20 iterations"
    assert ev[("hits", "rmat20", "cpu", it)]["met"] is False              # 3x a PageRank iteration
    assert ev[("katz", "rmat20", "cpu", it)]["met"] is True
    assert ev[("hits", "rmat20", "cpu", "to tolerance")]["why"] == "not measured"
    bad = ev[("coloring", "rmat22", "gpu", None)]
    assert bad["met"] is False and "colors 30 > 1.1" in bad["why"]
    assert ev[("coloring", "uniform22", "gpu", None)]["met"] is True
    assert "≤ 1.1× its colors" in ev[("coloring", "uniform22", "gpu", None)]["target"].describe()


def test_katz_equation_check_for_big_graphs():
    """Beyond ``solve_max_n`` vertices Katz is checked by its equation (no sparse LU): it passes la_graph's
    answer and catches a bent one."""
    G = graphs.build("rmat9")
    katz = cases.ALGORITHMS["katz"]
    alpha = katz.settings(G, "rmat9")[0].params["alpha"]
    x = lg.katz_centrality(G, alpha=alpha, engine="cpu")
    katz.check_equation(G, x, alpha)
    bent = x.copy()
    bent[np.argmax(x)] *= 1.01
    with pytest.raises(lg.VerificationError, match="not a Katz vector"):
        katz.check_equation(G, bent, alpha)


def test_every_committed_record_is_cited():
    """A record is committed only where a page cites it by name (README, docs/, benchmarks/README.md)."""
    pages = [ROOT / "README.md", ROOT / "benchmarks" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    text = "\n".join(p.read_text() for p in pages if p.is_file())
    uncited = sorted(str(p.relative_to(ROOT)) for p in (ROOT / report.RESULTS).rglob("*")
                     if p.is_file() and p.name not in text)
    assert not uncited, f"records no page cites (cite them where their numbers are used, or remove them): {uncited}"


def test_power_iterations_past_the_equation_size_are_checked_by_their_equation(monkeypatch):
    """Past EQUATION_MIN_NNZ the HITS and eigenvector rows are checked by the eigen-equation and a dominance
    test (the registered checkers' references take minutes on R-MAT 22): the right vectors pass, a perturbed
    one fails, and an eigenvector of a smaller eigenvalue (a smaller component's) fails."""
    monkeypatch.setattr(cases, "EQUATION_MIN_NNZ", 0)
    k5 = [(u, v) for u in range(5) for v in range(5) if u != v]
    k3 = [(u + 5, v + 5) for u in range(3) for v in range(3) if u != v]
    u, v = np.array(k5 + k3).T
    G = lg.Graph.from_edges(u, v, n=8, directed=True)
    small = np.r_[np.zeros(5), np.ones(3)]
    hits, eig = cases.ALGORITHMS["hits"], cases.ALGORITHMS["eigenvector"]
    h, a = lg.hits(G)
    hits.check(G, SimpleNamespace(params={}), (h, a))
    for bad in ((h * np.r_[1.01, np.ones(7)], a), (h, a[::-1]), (small / 3, small / 3)):
        with pytest.raises(VerificationError):
            hits.check(G, SimpleNamespace(params={}), bad)
    x = lg.eigenvector_centrality(G, max_iter=1000)
    eig.check(G, SimpleNamespace(params={"max_iter": 1000}), x)
    with pytest.raises(VerificationError, match="not the dominant"):
        eig.check(G, SimpleNamespace(params={"max_iter": 1000}), small / np.sqrt(3))


def test_report_lists_scaling_records_and_their_checks(tmp_path):
    """A scaling record of the dask engine: one line on the page (a wrong answer reads WRONG), its plot drawn
    for docs/scaling.md."""
    rows = [{"scaling": "strong", "graph": "rmat18", "workers": w, "grid": w, "algo": "bfs", "ms": 10.0 / w,
             "min_ms": 9.0 / w, "runs": 2, "checked": w != 2} for w in (1, 2, 4)]
    rec = {"kind": report.SCALING_KIND, "machine": "test host", "local": "cpu", "date": "2026-12-07", "rows": rows}
    path = tmp_path / "dask-test.json"
    path.write_text(json.dumps(rec))
    text = report.render([path], tmp_path / "docs" / "benchmarks.md").read_text()
    assert ("- `dask-test.json`: CPU workers, strong scaling over 1, 2, 4 workers; 2026-12-07; test host; "
            "**WRONG** on 1 of 3 runs") in text
    assert "(scaling.md#measured)" in text
    assert (tmp_path / "docs" / "benchmarks" / "dask-test.png").stat().st_size > 1000
    for r in rows:
        r["checked"] = True
    path.write_text(json.dumps(rec))
    assert "3 runs, every answer checked" in report.render([path], tmp_path / "b.md", plots=False).read_text()
