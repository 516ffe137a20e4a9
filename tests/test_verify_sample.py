"""The checkers at a sample of vertices (la_graph.verify.check_*_sample) and Graph.rows, which they read.

Right answers (scipy's, or the CPU engine's) pass on generated and real graphs; an answer spoiled at one
vertex fails when the sample covers every vertex; a DistributedGraph reads the same rows on its workers.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse import csgraph

import la_graph as lg
from la_graph import generators as gen
from la_graph.exceptions import InvalidArgumentError, VerificationError
from la_graph.graph import Graph
from la_graph.verify import check_bfs_sample, check_cc_sample, check_pagerank_sample, check_sssp_sample

from .graphs import REAL, real

GEN = {
    "path": lambda: gen.path(30),
    "grid": lambda: gen.grid_2d(12, 9),
    "rmat": lambda: gen.rmat(10, 8, seed=1),
    "rmat_directed": lambda: gen.rmat(9, 8, seed=2, directed=True),
    "islands": lambda: Graph.from_edges([0, 2, 5, 6], [1, 3, 6, 7], n=10),
}


def _weighted(G, seed=0):
    u, v = G.edges()
    w = np.random.default_rng(seed).integers(1, 9, size=u.size).astype(np.float64)
    if not G.directed:
        keep = u <= v
        u, v, w = u[keep], v[keep], w[keep]
    return Graph.from_edges(u, v, w, n=G.n, directed=G.directed)


def _answers(G, s):
    level = csgraph.shortest_path(G.to_scipy(), unweighted=True, indices=s, directed=G.directed)
    level = np.where(np.isinf(level), -1, level).astype(np.int64)
    _, comp = csgraph.connected_components(G.to_scipy(), directed=True, connection="weak")
    labels = np.array([np.flatnonzero(comp == c)[0] for c in comp])
    return level, labels


@pytest.mark.parametrize("name", sorted(GEN))
def test_right_answers_pass_and_one_spoiled_vertex_fails(name):
    G = GEN[name]()
    s = int(np.argmax(G.out_degree))
    level, labels = _answers(G, s)
    check_bfs_sample(G, s, level)
    check_cc_sample(G, labels)
    W = _weighted(G)
    dist = csgraph.dijkstra(W.to_scipy(), indices=s, directed=W.directed)
    check_sssp_sample(W, s, dist)
    ranks = lg.pagerank(G, engine="cpu")
    check_pagerank_sample(G, ranks)
    reached = np.flatnonzero((level > 0))
    if reached.size:
        v = int(reached[-1])
        for spoiled in (level[v] + 1, -1):
            bad = level.copy()
            bad[v] = spoiled
            with pytest.raises(VerificationError, match=rf"level\[{v}\]|in-neighbour"):
                check_bfs_sample(G, s, bad)
        bad = dist.copy()
        bad[v] *= 1.5
        with pytest.raises(VerificationError, match="dist"):
            check_sssp_sample(W, s, bad)
    bad = labels.copy()
    bad[-1] = G.n - 1               # its own label: its neighbours (if any) now differ from it
    if not np.array_equal(bad, labels):
        with pytest.raises(VerificationError, match="label"):
            check_cc_sample(G, bad)
    r = ranks.copy()
    k, j = int(np.argmax(r)), int(np.argmin(r))
    d = r[k] / 2                     # half the top rank moved to the lowest one (alpha*n*tol is loose)
    r[k], r[j] = r[k] - d, r[j] + d
    with pytest.raises(VerificationError, match="fixed point"):
        check_pagerank_sample(G, r)


def test_a_distance_where_nothing_reaches_fails():
    """A finite distance at a vertex with no reached in-neighbour fails (inf - d compared with rtol * inf let
    it through)."""
    G = Graph.from_edges([0], [1], w=[1.0], n=3, directed=True)
    check_sssp_sample(G, 0, [0.0, 1.0, np.inf])
    with pytest.raises(VerificationError, match=r"dist\[2\] = 7, but no in-neighbour of it was reached"):
        check_sssp_sample(G, 0, [0.0, 1.0, 7.0])


def test_a_sample_is_checked_and_named():
    G = gen.grid_2d(40, 40)
    level, _ = _answers(G, 0)
    check_bfs_sample(G, 0, level, sample=50, seed=3)
    bad = level.copy()
    bad[1::2] += 1                  # every other vertex one level too deep: a sample of 50 meets one
    with pytest.raises(VerificationError, match="level"):
        check_bfs_sample(G, 0, bad, sample=50, seed=3)
    with pytest.raises(InvalidArgumentError, match="sample must be an integer >= 1"):
        check_bfs_sample(G, 0, level, sample=0)
    with pytest.raises(VerificationError, match="level must be a 1-D array of 1600 integers"):
        check_bfs_sample(G, 0, level[:-1])


def test_rows_in_the_order_given():
    G = Graph.from_edges([0, 0, 2, 3], [1, 2, 1, 0], w=[1.0, 2.0, 3.0, 4.0], directed=True)
    indptr, idx, w = G.rows([2, 0, 1, 2])
    assert indptr.tolist() == [0, 1, 3, 3, 4] and idx.tolist() == [1, 1, 2, 1] and w.tolist() == [3.0, 1, 2, 3]
    assert G.T.rows([1])[1].tolist() == [0, 2]
    assert gen.path(3).rows([1])[2] is None
    with pytest.raises(lg.InvalidSourceError, match="vertices"):
        G.rows([4])


@pytest.mark.data
@pytest.mark.parametrize("name", REAL[:6] + ["suitesparse/usroads-48.mtx.gz", "law/uk-2007-05_100000.txt.gz"])
def test_real_graphs(shared_data, name):
    G = real(shared_data, name)
    s = int(np.argmax(G.out_degree))
    check_bfs_sample(G, s, lg.bfs(G, s, engine="cpu").level)
    check_cc_sample(G, lg.connected_components(G, engine="cpu"))
    check_pagerank_sample(G, lg.pagerank(G, engine="cpu"))
    W = G if G.weighted and G.weight_range()[0] >= 0 else _weighted(G)
    check_sssp_sample(W, s, lg.sssp(W, s, engine="cpu").distance)


def test_distributed_graphs_read_their_rows_on_the_workers(threaded):
    from la_graph.engines.dask import DaskEngine, rmat
    for grid in (1, 2):
        E = DaskEngine(threaded, grid=grid)
        D = rmat(E, 10, seed=1, weights=(1, 9), directed=True)
        H = D.to_graph()
        vs = np.array([7, 0, 1023, 7, 300])
        for a, b in ((D.rows(vs), H.rows(vs)), (D.T.rows(vs), H.T.rows(vs))):
            assert all(np.array_equal(x, y) for x, y in zip(a, b))
        s = int(np.argmax(H.out_degree))
        check_sssp_sample(D, s, lg.sssp(H, s, engine="cpu").distance, sample=200)
        check_bfs_sample(D, s, lg.bfs(H, s, engine="cpu").level, sample=200)
        check_cc_sample(D, lg.connected_components(H, engine="cpu"), sample=200)
        check_pagerank_sample(D, lg.pagerank(H, engine="cpu"), sample=200)
        for X, Y in ((D, H), (D.T, H.T)):         # the out-weight sums the weighted check reads
            assert np.allclose(X.out_weight, Y.out_weight)
            assert np.allclose(Y.out_weight, np.asarray(Y.to_scipy().sum(axis=1)).ravel())


def test_the_scaling_bench_checks_worker_made_graphs_at_a_sample():
    """Graphs generated on the workers and too big for the CPU engine (check_max 0) are checked by the local
    conditions at sampled vertices (they were only compared with the first worker count's own answers)."""
    pytest.importorskip("distributed")
    from la_graph.bench.scaling import measure
    rows, _ = measure(["rmat10:w1-9"], [1], ["bfs", "sssp", "cc", "pagerank"], generate="workers", check_max=0,
                      check_sample=300, repeat=1, log=lambda *a: None, yardstick=False, spmd=True,
                      client_driven=False)
    runs = [r for r in rows if r["algo"] != "build"]
    assert len(runs) == 4 and all(r["checked"] and r["path"] == "spmd" for r in runs), runs
    assert all("the local conditions at 300 sampled vertices" in r["checked_against"] for r in runs)
    assert all(0 < r["inside_ms"] <= r["ms"] for r in runs)     # rank 0 inside the (one) timed run, within it
