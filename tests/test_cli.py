import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import la_graph as lg
from la_graph.cli import main


def test_info_bundled_graph(capsys):
    assert main(["info", "karate"]) == 0
    out = capsys.readouterr().out
    assert "Graph(n=34, edges=78, undirected)" in out and "max out degree: 17" in out


def test_info_json(capsys, tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("# a comment\n0 1\n1 2\n2 0\n5 5\n")
    assert main(["info", str(p), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d == {"vertices": 6, "edges": 4, "directed": True, "weighted": False, "self_loops": 1,
                 "max_out_degree": 1, "isolated_vertices": 2}


def test_run_writes_npz_for_large_results(capsys, tmp_path):
    """``--out FILE.npz``: the result arrays as numpy arrays (inf kept), the summary and timings as JSON in 'run'."""
    out = tmp_path / "d.npz"
    assert main(["run", "apsp", "karate", "--out", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    with np.load(out) as z:
        run = json.loads(str(z["run"]))
        D = z["distance"]
    assert run["algorithm"] == "apsp" and run["summary"]["diameter"] == 5.0 and "result" not in run
    G = lg.Graph.from_file(lg.data.path("karate"))
    np.testing.assert_array_equal(D, lg.apsp(G))


@pytest.mark.parametrize("algo", ["cc", "bfs"])
def test_run_writes_checked_json(capsys, tmp_path, algo):
    out = tmp_path / "r.json"
    assert main(["run", algo, "karate", "--check", "--out", str(out), *(["--source", "5"] if algo == "bfs" else [])]) == 0
    text = capsys.readouterr().out
    assert "checked: correct" in text and "cpu engine" in text
    doc = json.loads(out.read_text())
    G = lg.Graph.from_file(lg.data.path("karate"))
    if algo == "cc":
        assert doc["summary"] == {"components": 1, "largest_component": 34}
        np.testing.assert_array_equal(doc["result"]["labels"], np.zeros(34))
    else:
        np.testing.assert_array_equal(doc["result"]["level"], lg.bfs(G, 5).level)
        assert doc["summary"]["source"] == 5 and doc["summary"]["reached"] == 34


def test_errors_exit_2_with_message(capsys, tmp_path):
    assert main(["run", "bfs", "karate", "--source", "99"]) == 2
    assert "source 99 is out of range 0..33" in capsys.readouterr().err
    assert main(["info", str(tmp_path / "missing.mtx")]) == 2
    assert "missing.mtx" in capsys.readouterr().err
    assert main(["info", str(tmp_path)]) == 2                 # said "unknown extension '(none)'"
    assert "is a folder, not a graph file" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("0 1\n1 x\n")
    assert main(["info", str(bad)]) == 2
    assert "line 2" in capsys.readouterr().err


def test_gpu_engine_missing_is_clear(capsys):
    try:
        lg.get_engine("gpu")
    except lg.EngineUnavailable:
        assert main(["run", "cc", "karate", "--engine", "gpu"]) == 2
        assert "gpu engine" in capsys.readouterr().err
    else:
        pytest.skip("a GPU engine is available here")


@pytest.mark.parametrize("algo", sorted(__import__("la_graph.cli", fromlist=["ALGORITHMS"]).ALGORITHMS))
def test_every_algorithm_runs_checked(capsys, tmp_path, algo):
    out = tmp_path / "r.json"
    extra = ["--sources", "0,33"] if algo == "reachability" else []
    assert main(["run", algo, "karate", "--check", "--json", "--out", str(out), *extra]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["algorithm"] == algo and printed["checked"] is True
    assert set(printed["seconds"]) >= {"read", "first"}
    doc = json.loads(out.read_text())
    assert doc["summary"] == printed["summary"] and doc["result"]


def test_out_path_is_checked_before_the_work(capsys, tmp_path, monkeypatch):
    import la_graph.cli as cli

    ran = []
    monkeypatch.setattr(cli, "_run", lambda *a: ran.append(1))
    assert main(["run", "cc", "karate", "--out", str(tmp_path / "no" / "r.json")]) == 2
    assert "does not exist" in capsys.readouterr().err and not ran
    assert main(["run", "cc", "karate", "--out", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err and not ran


def test_sources_must_be_vertex_ids(capsys):
    with pytest.raises(SystemExit):
        main(["run", "bfs", "karate", "--sources", "0,x"])
    assert "comma-separated vertex ids" in capsys.readouterr().err
    with pytest.raises(SystemExit):             # one or the other: --source was silently ignored
        main(["run", "bfs", "karate", "--source", "5", "--sources", "0,33"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_errors_in_the_command_lines_words(capsys, tmp_path, monkeypatch):
    assert main(["run", "cc", "karat"]) == 2
    err = capsys.readouterr().err
    assert "karat: no such file, and no bundled graph of that name (bundled: karate" in err
    odd = tmp_path / "g.xyz"
    odd.write_text("0 1\n")
    assert main(["info", str(odd)]) == 2
    assert "pass --format, one of" in capsys.readouterr().err
    try:
        lg.get_engine("gpu")
    except lg.EngineUnavailable:
        monkeypatch.setenv("LA_GRAPH_ENGINE", "gpu")
        assert main(["run", "cc", "karate"]) == 2
        err = capsys.readouterr().err
        assert "LA_GRAPH_ENGINE=gpu asked for it" in err and "--engine cpu" in err
    monkeypatch.setenv("LA_GRAPH_ENGINE", "tpu")
    assert main(["run", "cc", "karate"]) == 2
    assert "the environment variable LA_GRAPH_ENGINE must be one of ['cpu', 'dask', 'gpu', 'reference'], " \
           "got 'tpu'" in capsys.readouterr().err


@pytest.mark.parametrize("argv, said", [
    (["cc", "--source", "5"], "--source is not an option of cc (only of bfs, sssp, reachability, shortcut, khop)"),
    (["pagerank", "--seed", "3"], "--seed is not an option of pagerank (only of mis, bc, shortcut"),  # + newer ones
    (["bfs", "--alpha", "0.5"], "--alpha is not an option of bfs (only of pagerank)"),
    (["mis", "--max-iter", "3"], "--max-iter is not an option of mis (only of pagerank, cdlp)"),
    (["apsp", "--delta", "2"], "--delta is not an option of apsp (only of sssp)"),
])
def test_options_an_algorithm_does_not_read_are_refused(capsys, argv, said):
    """They were ignored silently (a user's --source 5 for cc, --seed for pagerank)."""
    assert main(["run", argv[0], "karate", *argv[1:]]) == 2
    assert said in capsys.readouterr().err


def test_options_of_the_graph_kernels(capsys):
    """pagerank / bc / cdlp options reach the functions, and their errors name the option."""
    assert main(["run", "pagerank", "karate", "--variant", "graphalytics", "--max-iter", "5", "--check"]) == 0
    assert "checked: correct" in capsys.readouterr().out
    assert main(["run", "pagerank", "karate", "--variant", "pregel"]) == 2
    assert "variant" in capsys.readouterr().err
    assert main(["run", "pagerank", "karate", "--alpha", "1.5"]) == 2
    assert "alpha" in capsys.readouterr().err
    assert main(["run", "bc", "karate", "--k", "5", "--sources", "0,1"]) == 2
    assert "--k (sampled sources) or --sources" in capsys.readouterr().err
    assert main(["run", "bc", "karate", "--k", "99"]) == 2
    assert "k must be at most n = 34" in capsys.readouterr().err
    assert main(["run", "bc", "karate", "--k", "2", "--seed", "-1"]) == 2      # was numpy's traceback, status 1
    assert "seed must be in 0..2**64-1, got -1" in capsys.readouterr().err
    assert main(["run", "bc", "karate", "--sources", "0,33", "--check", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["sources"] == 2
    assert main(["run", "cdlp", "karate", "--max-iter", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["rounds"] == 2


def test_shortcut_command(capsys, tmp_path):
    """``run shortcut``: how many shortcuts, the BFS levels before and after, the added edges in --out."""
    out = tmp_path / "r.json"
    assert main(["run", "shortcut", "karate", "--seed", "3", "--check", "--json", "--out", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)["summary"]
    G = lg.Graph.from_file(lg.data.path("karate"))
    H = lg.shortcut(G, seed=3)
    assert summary == {"seed": 3, "shortcuts": H.nnz - G.nnz, "source": 0, "levels_before": lg.bfs(G, 0).nlevels,
                       "levels_after": lg.bfs(H, 0).nlevels}
    added = json.loads(out.read_text())["result"]
    assert len(added["u"]) == H.nnz - G.nnz
    A, B = G.to_scipy().toarray() != 0, H.to_scipy().toarray() != 0
    assert B[added["u"], added["v"]].all() and not A[added["u"], added["v"]].any()


def test_integer_results_print_as_integers(capsys):
    assert main(["run", "triangles", "karate", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"] == {"triangles": 45, "top_vertex": 0, "top_value": 18}


def test_api_words_become_option_names(capsys):
    """Errors raised by the library name the command line's options, not the Python keywords."""
    assert main(["run", "mis", "karate", "--directed"]) == 2
    assert "pass --undirected" in capsys.readouterr().err
    assert main(["run", "sssp", "karate", "--method", "foo"]) == 2
    assert "--method must be one of" in capsys.readouterr().err
    assert main(["run", "cdlp", "karate", "--max-iter", "0"]) == 2
    assert "--max-iter must be at least 1" in capsys.readouterr().err
    assert main(["run", "pagerank", "karate", "--max-iter", "2"]) == 2
    assert "raise --max-iter or --tol" in capsys.readouterr().err
    from la_graph.cli import _cli_words      # apsp's advice when the n x n matrix does not fit

    assert "'la-graph run sssp --sources S,S,...'" in _cli_words(
        "the distance matrix needs 8 bytes; stream the rows with apsp_blocks(G, block_rows)")


def test_help_names_choices_and_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in ("file format: mtx, edgelist, csv, dimacs, metis", "read every edge as two-way",
                  "networkx, gap or graphalytics (default networkx)", "(default auto)", "shortcut"):
        assert words in text
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "la-graph run cc karate --check" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["info", "karate", "--format", "snap"])
    assert "invalid choice: 'snap'" in capsys.readouterr().err


def test_reference_engine(capsys):
    assert main(["run", "sssp", "karate", "--engine", "reference", "--check", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["engine"] == "reference" and printed["summary"]["reached"] == 34


def test_out_is_strict_json(tmp_path, capsys):
    """Unreachable distances are null in --out (JSON has no infinity), so strict readers can load the file."""
    g = tmp_path / "g.txt"
    g.write_text("0 1\n1 2\n3 0\n")
    out = tmp_path / "r.json"
    assert main(["run", "sssp", str(g), "--out", str(out)]) == 0
    doc = json.loads(out.read_text(), parse_constant=lambda c: pytest.fail(f"{c} in --out"))
    assert doc["result"]["distance"] == [0.0, 1.0, 2.0, None]
    assert doc["result"]["parent"] == [0, 0, 1, -1]


def test_many_sources_are_shortened_on_the_text_line(capsys):
    many = ",".join(map(str, range(34)))
    assert main(["run", "sssp", "karate", "--sources", many]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert "sources [0, 1, 2, 3, 4, ... (34 in all)]" in line
    assert "reached [34, 34, 34, 34, 34, ... (34 in all)]" in line
    assert main(["run", "sssp", "karate", "--sources", many, "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["summary"]["reached"]) == 34      # whole in --json


# ------------------------------------------------------------------ issue 37


def test_advice_is_in_the_command_lines_words(capsys, tmp_path):
    """The library's 'pass weight=False' and 'use method=...' become options."""
    g = tmp_path / "neg.txt"
    g.write_text("0 1 -1\n1 2 2\n2 0 1\n")
    assert main(["run", "pagerank", str(g)]) == 2
    err = capsys.readouterr().err
    assert "--usecols 0,1" in err and "weight=False" not in err
    assert main(["run", "sssp", str(g), "--method", "delta_stepping"]) == 2
    assert "use --method bellman_ford" in capsys.readouterr().err


def test_failed_check_says_so(capsys, monkeypatch, tmp_path):
    def wrong(G, labels):
        raise lg.VerificationError("vertices 0 and 1 are joined but labelled apart")

    monkeypatch.setattr(lg.verify, "check_cc", wrong)
    out = tmp_path / "r.json"
    assert main(["run", "cc", "karate", "--check", "--out", str(out)]) == 1
    cap = capsys.readouterr()
    assert "check failed" in cap.out and "checked: correct" not in cap.out
    assert cap.err.startswith("la-graph: check failed: vertices 0 and 1 are joined") and not out.exists()


def test_cdlp_reports_the_rounds_it_ran(capsys, tmp_path):
    g = tmp_path / "two.txt"
    g.write_text("0 1\n1 2\n2 0\n3 4\n4 5\n5 3\n")       # two triangles: settled after one round
    assert main(["run", "cdlp", str(g), "--undirected", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)["summary"]
    assert 1 < summary["rounds"] < 10 and summary["communities"] == 2     # was 10, its --max-iter


@pytest.mark.parametrize("name", ["x.csv", "x", "x.txt"])
def test_out_suffix_must_be_json_or_npz(capsys, tmp_path, name):
    out = tmp_path / name
    assert main(["run", "cc", "karate", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "FILE.json or FILE.npz" in err and not out.exists()


def _cli(*argv, **kw):
    return subprocess.Popen([sys.executable, "-m", "la_graph.cli", *argv], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
def test_reads_a_pipe(name):
    if not os.path.exists("/dev/stdin"):
        pytest.skip("no /dev/stdin here")
    p = _cli("run", "cc", name)
    out, err = p.communicate("0 1\n1 2\n5 6\n", timeout=120)
    assert p.returncode == 0, err
    assert "7 vertices, 3 edges" in out and "components 4" in out


def _interrupt(p, ready):
    """SIGINT to the process group of ``p`` (as Ctrl-C at a terminal) once ``ready()``; (stdout, stderr)."""
    deadline = time.monotonic() + 60
    while not ready() and time.monotonic() < deadline:
        time.sleep(0.1)
    os.killpg(p.pid, signal.SIGINT)
    return p.communicate(timeout=60)


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
def test_ctrl_c_is_one_line():
    """Ctrl-C while reading a graph from a pipe that never ends: one line, exit 130."""
    p = _cli("run", "cc", "-", start_new_session=True)
    p.stdin.write("0 1\n")
    p.stdin.flush()
    psutil = pytest.importorskip("psutil")
    proc = psutil.Process(p.pid)
    # reading: the process has imported everything and waits in read()
    _, err = _interrupt(p, lambda: proc.status() == psutil.STATUS_SLEEPING and proc.cpu_times().user > 0.3
                        and time.sleep(1) is None)
    assert p.returncode == 130 and err == "la-graph: interrupted\n"


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
def test_ctrl_c_on_the_dask_engine(tmp_path):
    """Ctrl-C during a dask run: one line, exit 130, no worker's traceback (23-124 lines), no process left."""
    psutil = pytest.importorskip("psutil")
    pytest.importorskip("distributed")
    g = tmp_path / "path.txt"
    g.write_text("".join(f"{i} {i + 1}\n" for i in range(2000)))     # core_number: seconds on dask
    p = _cli("run", "kcore", str(g), "--engine", "dask", "--no-progress", start_new_session=True)
    proc = psutil.Process(p.pid)
    kids = []

    def ready():
        kids[:] = proc.children(recursive=True)
        return len(kids) >= 3 and time.sleep(2) is None                # the workers and the resource tracker

    _, err = _interrupt(p, ready)
    assert p.returncode == 130
    lines = [x for x in err.splitlines() if not x.startswith("la-graph: warning:")]
    assert lines == ["la-graph: interrupted"], err
    time.sleep(2)
    assert not [k for k in kids if k.is_running() and k.status() != psutil.STATUS_ZOMBIE]


@pytest.mark.parametrize("algo", sorted(__import__("la_graph.cli", fromlist=["ALGORITHMS"]).ALGORITHMS))
def test_check_runs_the_registered_checker(capsys, monkeypatch, algo):
    """--check verifies with the checker the algorithm registers, the one check=True runs: a planted failure
    of that checker fails every command (exit 1, 'check failed')."""
    a = __import__("la_graph.cli", fromlist=["_COMMANDS"])._COMMANDS[algo]
    if not a.checker:
        pytest.skip(f"{algo} registers no checker")
    name = a.checker                          # the registry keeps the checker's name

    def planted(*args, **kwargs):
        raise lg.VerificationError("planted")

    monkeypatch.setattr(lg.verify, name, planted)
    extra = ["--sources", "0,33"] if algo == "reachability" else []
    assert main(["run", algo, "karate", "--check", *extra]) == 1
    assert capsys.readouterr().err.startswith("la-graph: check failed: planted")


@pytest.mark.parametrize("gz", [False, True])
def test_a_matrix_market_pipe_is_told_by_its_banner(gz):
    """Standard input without --format: a Matrix Market banner makes it Matrix Market (it was read as an edge
    list: the size line '3 3 2' became an edge), anything else an edge list."""
    if not os.path.exists("/dev/stdin"):
        pytest.skip("no /dev/stdin here")
    import gzip

    text = "%%MatrixMarket matrix coordinate real symmetric\n% a comment\n4 4 2\n2 1 0.5\n4 3 1.5\n"
    p = subprocess.Popen([sys.executable, "-m", "la_graph.cli", "info", "-", "--json"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate(gzip.compress(text.encode()) if gz else text.encode(), timeout=120)
    assert p.returncode == 0, err
    info = json.loads(out)
    assert (info["vertices"], info["edges"], info["directed"], info["weighted"]) == (4, 2, False, True)
