"""Graphs built on the Dask workers: read_edges and rmat against the host reader and generator.

One LocalCluster of two single-threaded worker processes serves the module
(the chunks, pieces and blocks travel between processes, pickled, as on a real
cluster).  Edge files are read in many small chunks, most of them splitting a
line; each result must equal what ``Graph.from_file`` builds, and the four
algorithms issue 23 runs at scale (BFS, connected components, PageRank, SSSP)
must agree with the CPU engine on it.
"""

from __future__ import annotations

import gzip
import os
import shutil

import numpy as np
import pytest

import la_graph as lg
from la_graph import generators as gen
from la_graph import verify
from la_graph.exceptions import FileFormatError, InvalidArgumentError, InvalidGraphError, NegativeCycleError

distributed = pytest.importorskip("distributed")

from la_graph.engines.dask import DaskEngine, DistributedGraph, loading, read_edges, rmat  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=50)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def E(client):
    return DaskEngine(client)


def _write(path, text):
    with open(path, "w", newline="") as f:
        f.write(text)
    return str(path)


@pytest.fixture(scope="module")
def edge_file(tmp_path_factory):
    """An R-MAT graph written by hand: comments, a header, tabs, CRLF, blank lines, duplicate edges with
    other weights, self-loops, a last line without its newline."""
    G = gen.rmat(7, 5, seed=3, directed=True, weights=(1, 20), self_loops=True)
    u, v = G.edges()
    w = G.weights
    rng = np.random.default_rng(0)
    dup = rng.choice(u.size, 40, replace=False)
    u, v = np.concatenate([u, u[dup]]), np.concatenate([v, v[dup]])
    w = np.concatenate([w, np.maximum(1, w[dup] + rng.integers(-3, 4, dup.size))])   # the smaller weight stays
    lines = ["source target weight", "# an R-MAT graph"]
    for k, (a, b, x) in enumerate(zip(u.tolist(), v.tolist(), w.tolist())):
        sep = "\t" if k % 7 == 0 else " "
        end = "\r" if k % 11 == 0 else ""
        lines.append(f"{a}{sep}{b} {x:g}{end}")
        if k % 50 == 0:
            lines.append("% a comment" if k % 100 else "")
    return _write(tmp_path_factory.mktemp("edges") / "g.txt", "# la_graph test\n" + "\n".join(lines))


def _same_graph(D, H):
    assert isinstance(D, DistributedGraph)
    assert D.to_graph() == H
    assert (D.n, D.nnz, D.nedges, D.directed, D.weighted, D.self_loops) == \
        (H.n, H.nnz, H.nedges, H.directed, H.weighted, H.self_loops)
    assert np.array_equal(D.out_degree, H.out_degree) and np.array_equal(D.in_degree, H.in_degree)
    assert D.weight_range() == H.weight_range()


def test_chunks_cover_every_line_once(tmp_path):
    text = "0 1\n22 333\r\n\n# c\n4444 5\n6 7"
    path = _write(tmp_path / "t.txt", text)
    size = len(text.encode())
    for chunk in range(1, size + 2):
        got = [loading._read_range(path, s, min(size, s + chunk), size)
               for s in range(0, size, chunk)]
        assert b"".join(t for t, _ in got) == text.encode()
        for t, begin in got:                       # each chunk begins at a line
            assert begin == 0 or text.encode()[begin - 1:begin] == b"\n" or not t


def test_a_chunk_parses_in_slices(monkeypatch, edge_file, tmp_path):
    size = os.path.getsize(edge_file)
    _, _, columns, header = loading._probe("cpu", edge_file, None)
    whole = loading._parse_chunk("cpu", edge_file, 0, size, size, columns, header, 0, None, True)
    monkeypatch.setattr(loading, "_SLICE", 100)
    for a, b in zip(whole, loading._parse_chunk("cpu", edge_file, 0, size, size, columns, header, 0, None, True)):
        assert np.array_equal(a, b)
    bad = _write(tmp_path / "bad.txt", "".join(f"{i} {i + 1}\n" for i in range(100)) + "7 -1\n")
    size = os.path.getsize(bad)
    with pytest.raises(FileFormatError, match="line 101: vertex id -1 is negative"):
        loading._parse_chunk("cpu", bad, 0, size, size, 2, None, 0, None, False)


@pytest.mark.parametrize("directed", [False, True], ids=["undirected", "directed"])
def test_read_edges_equals_from_file(E, edge_file, directed):
    H = lg.Graph.from_file(edge_file, directed=directed)
    for chunk in (1 << 20, 211, 37):                 # one chunk; many, most splitting a line
        _same_graph(read_edges(E, edge_file, directed=directed, chunk_bytes=chunk), H)
    # the third column ignored
    _same_graph(read_edges(E, edge_file, directed=directed, weighted=False, chunk_bytes=211),
                lg.Graph.from_file(edge_file, directed=directed, usecols=(0, 1)))


def test_read_edges_n_and_base(E, tmp_path):
    path = _write(tmp_path / "one.txt", "1 2\n2 3\n3 1\n")
    assert read_edges(E, path, n=7, chunk_bytes=4).to_graph() == lg.Graph.from_edges([1, 2, 3], [2, 3, 1], n=7)
    assert read_edges(E, path, base=1, chunk_bytes=4).to_graph() == \
        lg.Graph.from_file(path, base=1, directed=False)
    empty = read_edges(E, _write(tmp_path / "empty.txt", "# nothing\n"))
    assert (empty.n, empty.nnz) == (0, 0)


@pytest.mark.parametrize("directed", [False, True], ids=["undirected", "directed"])
def test_four_algorithms_agree_with_cpu(E, edge_file, directed):
    D = read_edges(E, edge_file, directed=directed, chunk_bytes=500)
    H = lg.Graph.from_file(edge_file, directed=directed)
    s = int(np.argmax(H.out_degree))
    b = lg.bfs(D, s, engine=E)
    assert np.array_equal(b.level, lg.bfs(H, s, engine="cpu").level)
    verify.check_bfs(H, s, b)
    r = lg.sssp(D, s, engine=E)
    assert np.allclose(r.distance, lg.sssp(H, s, engine="cpu").distance)
    verify.check_sssp(H, s, r.distance, r.parent)
    assert np.array_equal(lg.connected_components(D, engine=E), lg.connected_components(H, engine="cpu"))
    assert np.allclose(lg.pagerank(D, engine=E), lg.pagerank(H, engine="cpu"), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("directed", [False, True], ids=["undirected", "directed"])
def test_triangles_and_clustering_on_the_workers(E, edge_file, directed):
    """The degree orientation is algebra (a diagonal of places times A), so no host edge list is needed."""
    D = read_edges(E, edge_file, directed=directed, chunk_bytes=500)
    H = lg.Graph.from_file(edge_file, directed=directed)
    assert lg.triangle_count(D, engine=E) == lg.triangle_count(H, engine="cpu")
    assert np.array_equal(lg.triangles(D, engine=E), lg.triangles(H, engine="cpu"))
    assert np.allclose(lg.local_clustering_coefficient(D, engine=E), lg.local_clustering_coefficient(H, engine="cpu"))


def test_negative_weights(E, tmp_path):
    path = _write(tmp_path / "neg.txt", "0 1 2\n1 2 -1\n2 3 4\n3 1 -4\n4 0 1\n")
    D, H = read_edges(E, path, directed=True, chunk_bytes=6), lg.Graph.from_file(path)
    assert D.negative_weight_edge() == H.negative_weight_edge() == (1, 2, -1.0)
    assert D.edge_weight(3, 1) == H.edge_weight(3, 1) == -4.0
    with pytest.raises(InvalidArgumentError, match="no edge 1 -> 0"):
        D.edge_weight(1, 0)
    with pytest.raises(InvalidGraphError, match=r"-1.0 on edge 1 -> 2"):
        lg.pagerank(D, engine=E)
    with pytest.raises(NegativeCycleError, match="has weight -1.0") as got:   # its weight read from the blocks
        lg.sssp(D, 0, engine=E)
    assert sorted(got.value.cycle) == [1, 2, 3]


@pytest.mark.parametrize("directed,weights", [(False, None), (True, None), (False, (1, 9)), (True, "uniform")])
def test_rmat_on_the_workers(E, client, directed, weights):
    D = rmat(E, 7, 6, seed=5, directed=directed, weights=weights, chunk_edges=200)
    H = D.to_graph()
    assert (D.n, H.directed, H.self_loops) == (128, directed, 0)
    assert D.nedges <= 6 * 128 and (directed or H.is_symmetric)
    # the graph is a function of the arguments: drawn chunk by chunk on the host, and on another grid
    a, b, c = 0.57, 0.19, 0.19
    edges = [loading._rmat_chunk("cpu", 7, min(200, 768 - k), (a, a + b, a + b + c), 5, k // 200,
                                 loading._scramble_key(5), directed, gen._weight_spec(weights), False)
             for k in range(0, 768, 200)]
    u, v, w = (np.concatenate(x) if x[0] is not None else None for x in zip(*edges))
    assert H == lg.Graph.from_edges(u, v, w, n=128, directed=directed)
    if weights is not None:
        lo, hi = (1.0, 100.0) if weights == "uniform" else weights
        assert lo <= D.weight_range().min <= D.weight_range().max <= hi
    assert int(np.argmax(H.out_degree)) > 8         # the hubs were scrambled away from the low ids
    s = int(np.argmax(H.out_degree))
    b = lg.bfs(D, s, engine=E)
    verify.check_bfs(H, s, b)
    if weights is not None:
        verify.check_sssp(H, s, lg.sssp(D, s, engine=E).distance)
    verify.check_cc(H.to_undirected(), lg.connected_components(D, engine=E))
    assert np.allclose(lg.pagerank(D, engine=E), lg.pagerank(H, engine="cpu"), rtol=1e-9, atol=1e-12)


def test_rmat_does_not_depend_on_the_grid(E, client):
    other = DaskEngine(client, grid=3)
    a = rmat(E, 6, 4, seed=9, weights=(1, 5), chunk_edges=50).to_graph()
    assert a == rmat(other, 6, 4, seed=9, weights=(1, 5), chunk_edges=50).to_graph()
    assert a != rmat(E, 6, 4, seed=10, weights=(1, 5), chunk_edges=50).to_graph()


def _hashed_graph(scale, edge_factor, seed, directed, weights, self_loops=False):
    """The replicated R-MAT drawn on the host in one piece and built by Graph.from_edges."""
    n = 1 << scale
    u, v = loading._hashed_rmat_edges(np, scale, 0, edge_factor * n, (0.57, 0.76, 0.95), seed)
    keep = (u == u) if self_loops else (u != v)
    P = loading.Layout(n, 2, loading._scramble_key(seed))
    u, v = P.position(u[keep].astype(np.int64)), P.position(v[keep].astype(np.int64))
    w = None if weights is None else loading._edge_weights(u, v, n, directed, gen._weight_spec(weights), seed)
    return lg.Graph.from_edges(u, v, w, n=n, directed=directed)


@pytest.mark.parametrize("directed,weights", [(False, None), (True, (1, 9))])
def test_rmat_replicated(E, client, directed, weights):
    """Every worker draws every edge and keeps its own blocks': the same graph for any grid and chunk
    size, equal to the hashed draws made on the host."""
    D = rmat(E, 7, 6, seed=5, directed=directed, weights=weights, chunk_edges=300, method="replicated")
    H = D.to_graph()
    assert H == _hashed_graph(7, 6, 5, directed, weights)
    assert rmat(DaskEngine(client, grid=3), 7, 6, seed=5, directed=directed, weights=weights, chunk_edges=77,
                method="replicated").to_graph() == H
    verify.check_cc(H.to_undirected(), lg.connected_components(D, engine=E))
    s = int(np.argmax(H.out_degree))
    verify.check_bfs(H, s, lg.bfs(D, s, engine=E))
    with pytest.raises(InvalidArgumentError, match="method must be"):
        rmat(E, 5, method="gpu")


@pytest.mark.parametrize("grid", [1, 2, 3])
@pytest.mark.parametrize("directed,weights,self_loops", [(False, None, False), (False, "uniform", True),
                                                         (True, (1, 9), False), (True, None, True)])
def test_lean_build_equals_the_host_graph(client, grid, directed, weights, self_loops):
    """The lean build (count, fill, sort and merge in place, a range of rows at a time) gives the graph the
    host builds from the same draws, duplicates merged and self-loops kept or dropped alike, on any grid
    (a worker holding one block or several, of A and of its transpose) and any chunk size: 5 edges per
    chunk and per sorted range (every hub row a range of its own), or all edges at once."""
    E = DaskEngine(client, grid=grid)
    H = _hashed_graph(8, 5, 3, directed, weights, self_loops)
    assert H.self_loops > 0 if self_loops else H.self_loops == 0
    for chunk in (5, 1 << 20):
        D = rmat(E, 8, 5, seed=3, directed=directed, weights=weights, self_loops=self_loops, chunk_edges=chunk,
                 method="replicated")
        _same_graph(D, H)
        stats = D.build_stats
        assert sorted(stats) == sorted(E.placement.workers)
        assert sum(x["blocks"] for x in stats.values()) == grid * grid * (2 if directed else 1)
        assert sum(x["entries"] for x in stats.values()) == H.nnz * (2 if directed else 1)
        # every drawn edge once in A and once in AT (directed), or both ways (a self-loop once)
        u, v = loading._hashed_rmat_edges(np, 8, 0, 5 * 256, (0.57, 0.76, 0.95), 3)
        loops = int(np.sum(u == v))
        drawn = 2 * (5 * 256 - loops) + (loops * (2 if directed else 1) if self_loops else 0)
        assert sum(x["drawn_entries"] for x in stats.values()) == drawn
        assert all(x["model_peak_bytes"] >= x["model_resident_bytes"] > 0 or x["blocks"] == 0
                   for x in stats.values())


def test_lean_build_refuses_what_the_device_cannot_hold(monkeypatch):
    """A GPU worker checks the memory model against its free device memory before drawing (its even share)
    and after counting (the exact counts); a build that cannot fit raises OutOfDeviceMemory on the client,
    naming the bytes.  The device is played by a stand-in for the free-memory query (a threaded cluster)."""
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0",
                                       silence_logs=50)
    c = distributed.Client(cluster)
    try:
        E = DaskEngine(c)
        monkeypatch.setattr(loading, "_device_free", lambda name: (1000, "GPU 7"))
        with pytest.raises(lg.OutOfDeviceMemory, match=r"rmat\(scale=9\): the lean build of 2 blocks \(512 rows\) "
                                                       r"on this worker needs about [\d,]+ bytes of GPU memory at its "
                                                       r"peak .* only 1,000 bytes are free on GPU 7; use more GPU"):
            rmat(E, 9, 4, chunk_edges=64, method="replicated")
        calls = []

        def after_counting(name):                 # room for the estimate, not for the exact counts
            calls.append(name)
            return (1 << 40 if len(calls) <= 2 else 1000), "GPU 7"

        monkeypatch.setattr(loading, "_device_free", after_counting)
        with pytest.raises(lg.OutOfDeviceMemory, match="only 1,000 bytes are free on GPU 7"):
            rmat(E, 9, 4, chunk_edges=64, method="replicated")
        monkeypatch.setattr(loading, "_device_free", lambda name: (1 << 40, "GPU 7"))
        assert rmat(E, 9, 4, chunk_edges=64, method="replicated").nnz > 0
    finally:
        c.close()
        cluster.close()


def test_errors(E, client, tmp_path):
    lines = "".join(f"{i} {i + 1}\n" for i in range(100))
    bad = _write(tmp_path / "bad.txt", "# c\n" + lines + "5 x\n" + lines)
    with pytest.raises(FileFormatError, match=r"bad.txt, line 102: vertex id 'x' is not a non-negative integer"):
        read_edges(E, bad, chunk_bytes=64)
    cols = _write(tmp_path / "cols.txt", lines + "5 6 7\n" + lines)
    for chunk in (64, 1 << 20):
        with pytest.raises(FileFormatError, match=r"cols.txt, line 101: expected 2 columns .* got 3"):
            read_edges(E, cols, chunk_bytes=chunk)
    with pytest.raises(FileFormatError, match="weighted=True, but the lines have 2 columns"):
        read_edges(E, bad, weighted=True)
    with pytest.raises(FileFormatError, match=r"line 100: vertex id 100 is out of range: read_edges\(n=...\) "
                                              "declares 100 vertices"):
        read_edges(E, _write(tmp_path / "ok.txt", lines), n=100, chunk_bytes=64)
    gz = tmp_path / "g.txt.gz"
    with gzip.open(gz, "wt") as f:
        f.write(lines)
    shutil.copy(gz, tmp_path / "g.txt")              # gzip data behind a plain name
    for path in (gz, tmp_path / "g.txt"):
        with pytest.raises(InvalidArgumentError, match="gzip-compressed: a compressed file cannot be split"):
            read_edges(E, path)
    with pytest.raises(FileNotFoundError):
        read_edges(E, tmp_path / "missing.txt")
    with pytest.raises(InvalidArgumentError, match="dask engine, got the 'cpu' engine"):
        read_edges("cpu", cols)
    with pytest.raises(InvalidArgumentError, match="weights='unique'"):
        rmat(E, 4, weights="unique")


def test_host_arrays_and_other_engines_refused(E, client, tmp_path):
    D = read_edges(E, _write(tmp_path / "p.txt", "0 1 1.5\n1 2 2.5\n"))
    assert repr(D) == "DistributedGraph(n=3, edges=2, undirected, weighted, grid=2)"
    with lg.use_engine("dask", client=client) as current:      # the current engine's graph needs no engine=
        G = read_edges("dask", tmp_path / "p.txt")
        assert G.engine is current and lg.bfs(G, 0).level.tolist() == [0, 1, 2]
    for get in (lambda: D.indptr, lambda: D.indices, lambda: D.weights, D.edges, D.to_scipy, D.to_networkx):
        with pytest.raises(InvalidGraphError, match=r"lives on the Dask workers.*G.to_graph\(\)"):
            get()
    for engine in ("cpu", DaskEngine(client)):
        for run in (lambda e: lg.bfs(D, 0, engine=e), lambda e: lg.sssp(D, 0, engine=e),
                    lambda e: lg.pagerank(D, engine=e), lambda e: lg.connected_components(D, engine=e)):
            with pytest.raises(InvalidGraphError, match=r"Run algorithms with that engine \(engine=G.engine\)"):
                run(engine)
    mine = DaskEngine(client)
    G = rmat(mine, 4, seed=1)
    mine._placement = None                            # as after a worker was lost: the blocks are gone
    with pytest.raises(InvalidGraphError, match="lost the set of workers that held the blocks"):
        lg.bfs(G, 0, engine=mine)
    with pytest.raises(InvalidGraphError, match="no longer has"):
        G.to_graph()
    with pytest.raises(TypeError, match="made by la_graph.engines.dask.read_edges or rmat"):
        DistributedGraph(E, 1, False, False, None, None, None, None, None, None, 0, 0, None)
