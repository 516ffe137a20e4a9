"""The distributed engine on a LocalCluster of worker processes: every algorithm agrees with the CPU engine.

One cluster of two single-threaded worker processes serves the module (the
blocks and segments travel between processes, pickled, as on a real cluster);
the engine lays matrices out as a 2 x 2 grid of blocks, so every product
reduces partial results across workers.  A second engine on the same cluster
uses a 3 x 3 grid (blocks shared unevenly, segments of unequal length).

The default run takes the smaller graphs (about a minute on two cores: the
engine pays a Dask round trip per primitive); ``LA_GRAPH_TEST_SCALE=2`` or more
runs every graph on both grids and the real graphs' longer searches (all 77
cases passed when this file was written, 7 minutes on two cores).
"""

from __future__ import annotations

import gc
import os

import numpy as np
import pytest

import la_graph as lg
from la_graph import generators as gen
from la_graph import verify

from .engines import check_failing_share

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=40)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


FULL = int(os.environ.get("LA_GRAPH_TEST_SCALE", "1")) > 1


@pytest.fixture(scope="module", params=[None, 3] if FULL else [None], ids=["grid2", "grid3"][:2 if FULL else 1])
def E(client, request):
    from la_graph.engines.dask import DaskEngine
    return DaskEngine(client, grid=request.param)


GRAPHS = {
    "rmat": lambda: gen.rmat(8, 6, seed=3),
    "rmat-dir-w": lambda: gen.rmat(8, 5, seed=4, directed=True, weights=(1, 20)),
    "grid-w": lambda: gen.grid_2d(9, 11, weights=(1, 9), seed=2),
    "caveman": lambda: gen.connected_caveman(6, 5),
    "path": lambda: gen.path(7),
    "single": lambda: lg.Graph.from_edges([], [], n=1),
}


SMALL = ["caveman", "path", "rmat-dir-w", "single"]


@pytest.fixture(scope="module", params=sorted(GRAPHS) if FULL else SMALL)
def G(request):
    return GRAPHS[request.param]()


def test_layout_is_a_permutation_and_balanced():
    from la_graph.engines.dask.layout import Layout
    for size, parts in [(0, 2), (1, 2), (2, 3), (3, 2), (1000, 4), (4097, 3)]:
        L = Layout(size, parts, seed=5)
        pos = L.position(np.arange(size))
        assert sorted(pos.tolist()) == list(range(size))
        assert (L.index(pos) == np.arange(size)).all()
        assert np.concatenate([L.ids(k) for k in range(parts)]).tolist() == L.index(np.arange(size)).tolist()
    # R-MAT's hubs (low ids) spread: vertices 0..15 land in all four segments
    seg, _ = Layout(1 << 16, 4).locate(np.arange(16))
    assert len(set(seg.tolist())) == 4


def test_bfs_and_sssp(E, G):
    s = G.n // 2
    b, ref = lg.bfs(G, s, engine=E), lg.bfs(G, s, engine="cpu")
    assert np.array_equal(b.level, ref.level)
    verify.check_bfs(G, s, b)
    r = lg.sssp(G, s, engine=E)
    assert np.allclose(r.distance, lg.sssp(G, s, engine="cpu").distance)
    verify.check_sssp(G, s, r.distance, r.parent)
    many = lg.bfs(G, sources=[0, G.n - 1], engine=E)
    assert np.array_equal(many.level, lg.bfs(G, sources=[0, G.n - 1], engine="cpu").level)


def test_components(E, G):
    assert np.array_equal(lg.connected_components(G.to_undirected(), engine=E),
                          lg.connected_components(G.to_undirected(), engine="cpu"))
    assert np.array_equal(lg.strongly_connected_components(G, engine=E),
                          lg.strongly_connected_components(G, engine="cpu"))


def test_mis_and_msf(E, G):
    U = G.to_undirected()
    assert np.array_equal(lg.maximal_independent_set(U, seed=2, engine=E),
                          lg.maximal_independent_set(U, seed=2, engine="cpu"))
    f, ref = lg.minimum_spanning_forest(U, engine=E), lg.minimum_spanning_forest(U, engine="cpu")
    assert np.array_equal(f.u, ref.u) and np.array_equal(f.v, ref.v)
    assert f.total_weight == pytest.approx(ref.total_weight)


def test_all_pairs_and_reachability(E, G):
    if G.n > 64 and not FULL:
        G = gen.rmat(5, 4, seed=4, directed=True, weights=(1, 20))
    assert np.allclose(lg.apsp(G, engine=E), lg.apsp(G, engine="cpu"))
    sources = np.unique([0, G.n // 3, G.n - 1])
    assert np.array_equal(lg.reachability(G, sources, engine=E), lg.reachability(G, sources, engine="cpu"))


def test_shortcut(E, G):
    a, b = lg.shortcut(G, seed=1, engine=E), lg.shortcut(G, seed=1, engine="cpu")
    assert a == b


def test_graphalytics_kernels(E, G):
    U = G.to_undirected()
    assert np.allclose(lg.pagerank(G, engine=E), lg.pagerank(G, engine="cpu"), rtol=1e-9, atol=1e-12)
    assert lg.triangle_count(U, engine=E) == lg.triangle_count(U, engine="cpu")
    assert np.array_equal(lg.triangles(U, engine=E), lg.triangles(U, engine="cpu"))
    assert np.allclose(lg.local_clustering_coefficient(G, engine=E), lg.local_clustering_coefficient(G, engine="cpu"))
    assert np.allclose(lg.betweenness_centrality(G, engine=E), lg.betweenness_centrality(G, engine="cpu"))
    assert np.array_equal(lg.label_propagation(G, engine=E), lg.label_propagation(G, engine="cpu"))
    assert np.array_equal(lg.core_number(U, engine=E), lg.core_number(U, engine="cpu"))


@pytest.mark.parametrize("name", ["snap/email-Eu-core.txt.gz", "dimacs/rome99.gr"][:2 if FULL else 1])
def test_real_graphs(E, shared_data, name):
    from tests.graphs import real
    G = real(shared_data, name)
    assert np.array_equal(lg.strongly_connected_components(G, engine=E),
                          lg.strongly_connected_components(G, engine="cpu"))
    assert np.allclose(lg.sssp(G, 0, engine=E).distance, lg.sssp(G, 0, engine="cpu").distance)
    b = lg.bfs(G, 0, engine=E)
    assert np.array_equal(b.level, lg.bfs(G, 0, engine="cpu").level)
    verify.check_bfs(G, 0, b)


def _gpu_cluster(kind):
    """A cluster of CUDA workers: dask-cuda's LocalCUDACluster (one worker per GPU), or two worker
    processes sharing GPU 0 (every exchange between them crosses processes)."""
    cp = pytest.importorskip("cupy")
    try:
        if cp.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("no CUDA device")
    except cp.cuda.runtime.CUDARuntimeError as exc:
        pytest.skip(f"no CUDA device: {exc}")
    if kind in ("cuda", "cuda-every-gpu"):
        dask_cuda = pytest.importorskip("dask_cuda")
        if kind == "cuda":
            return dask_cuda.LocalCUDACluster(n_workers=1, dashboard_address=":0", silence_logs=40)
        if cp.cuda.runtime.getDeviceCount() < 2:
            pytest.skip("one GPU: the run across GPUs needs two or more")
        return dask_cuda.LocalCUDACluster(dashboard_address=":0", silence_logs=40)
    return distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                    silence_logs=40)


@pytest.mark.gpu
@pytest.mark.parametrize("kind", ["cuda", "two-on-one-gpu", "cuda-every-gpu"])
def test_gpu_workers(kind):
    """Ran on one H100 (2026-11-25): both one-GPU kinds passed, 99 s together.  ``cuda-every-gpu``: passed on
    two H200s (2026-11-28), once a collective product's NCCL exchange had a stream of its own; before, it
    stopped at the BFS after the triangle count (the exchange and a Dask transfer waited for each other)."""
    from la_graph.engines.dask import DaskEngine
    cluster = _gpu_cluster(kind)
    client = distributed.Client(cluster)
    try:
        E = DaskEngine(client, local="gpu", grid=2)
        # one GPU each: the products exchange over NCCL; two workers on one GPU: through Dask
        assert E.exchange == {"cuda": "dask", "two-on-one-gpu": "dask", "cuda-every-gpu": "nccl"}[kind]
        for G in (gen.rmat(10, 8, seed=5), gen.grid_2d(20, 30, weights=(1, 9), seed=1)):
            assert np.array_equal(lg.connected_components(G, engine=E), lg.connected_components(G, engine="cpu"))
            assert np.array_equal(lg.bfs(G, 3, engine=E).level, lg.bfs(G, 3, engine="cpu").level)
            assert np.allclose(lg.sssp(G, 3, engine=E).distance, lg.sssp(G, 3, engine="cpu").distance)
            assert np.allclose(lg.pagerank(G, engine=E), lg.pagerank(G, engine="cpu"), rtol=1e-9, atol=1e-12)
            assert lg.triangle_count(G, engine=E) == lg.triangle_count(G, engine="cpu")
            verify.check_bfs(G, 3, lg.bfs(G, 3, engine=E))
            assert np.array_equal(lg.strongly_connected_components(G, engine=E),
                                  lg.strongly_connected_components(G, engine="cpu"))
        if E.exchange == "nccl":
            assert all(v["collectives"] > 0 and v["bytes_sent"] > 0 for v in E.exchange_stats().values())
        # the lean block build on the GPUs gives the graph the host builds from the same draws
        from la_graph.engines.dask import rmat

        from .test_dask_loading import _hashed_graph
        for directed, weights in ((False, "uniform"), (True, (1, 9))):
            D = rmat(E, 10, 6, seed=4, directed=directed, weights=weights, chunk_edges=999, method="replicated")
            assert D.to_graph() == _hashed_graph(10, 6, 4, directed, weights)
            assert all(x["peak_device_bytes"] > 0 for x in D.build_stats.values() if x["blocks"])
        if kind == "cuda":       # R-MAT 30 on one GPU: refused before drawing, naming the bytes
            with pytest.raises(lg.OutOfDeviceMemory, match=r"needs about [\d,]+ bytes of GPU memory at its peak"):
                rmat(E, 30, method="replicated")
    finally:
        client.close()
        cluster.close()


def test_collective_plans_pair_up():
    """Every send of a collective product's plan meets the matching receive, in the same order."""
    from la_graph.engines.dask.exchange import plan
    for p, s in [(2, 2), (3, 2), (4, 2), (3, 3), (4, 3), (5, 3), (9, 3)]:
        workers = [f"w{r}" for r in range(p)]
        for kind in ("mxv", "vxm"):
            plans = [plan(workers, s, kind, r) for r in range(p)]
            for r in range(p):
                for q in range(p):
                    sent = [(what, k) for peer, what, k in plans[r]["send_in"] if peer == q]
                    got = [(what, k) for peer, what, k in plans[q]["recv_in"] if peer == r]
                    assert sent == got
                    assert [o for peer, o in plans[r]["send_out"] if peer == q] == \
                        [o for peer, o in plans[q]["recv_out"] if peer == r]
            assert sorted(o for pl in plans for o in pl["owned"]) == list(range(s))
            assert sorted(b for pl in plans for b, _, _ in pl["blocks"]) == [(i, j) for i in range(s) for j in range(s)]


@pytest.mark.slow
@pytest.mark.parametrize("grid", [2, 3])
def test_collective_products_agree(threaded, grid):
    """mxv and vxm as collective tasks (the NCCL path's plan, exchanged through memory here): three
    workers, so one holds no vector segment on the 2 x 2 grid."""
    from la_graph.engines.dask import DaskEngine
    E = DaskEngine(threaded, grid=grid, exchange="local")
    assert E.exchange == "local"
    E.exchange_stats(reset=True)
    for G in (gen.rmat(8, 5, seed=4, directed=True, weights=(1, 20)), gen.grid_2d(9, 11, weights=(1, 9), seed=2)):
        assert np.array_equal(lg.connected_components(G, engine=E), lg.connected_components(G, engine="cpu"))
        verify.check_bfs(G, 3, lg.bfs(G, 3, engine=E))
        # (distances only: the parents' step is an mxm, not a collective product, and took two thirds of the time)
        assert np.allclose(lg.sssp(G, 3, engine=E, parent=False).distance, lg.sssp(G, 3, engine="cpu").distance)
        assert np.allclose(lg.pagerank(G, engine=E), lg.pagerank(G, engine="cpu"), rtol=1e-9, atol=1e-12)
        assert np.array_equal(lg.strongly_connected_components(G, engine=E),
                              lg.strongly_connected_components(G, engine="cpu"))
    stats = E.exchange_stats()
    assert all(v["collectives"] > 0 for v in stats.values())
    assert sum(v["bytes_sent"] for v in stats.values()) > 0


def test_a_grid_larger_than_the_vertices(threaded):
    """A grid of more blocks per side than the graph has vertices leaves segments empty (0 x k blocks): their
    products add nothing.  SuiteSparse made a full block of zeros of a product over an empty inner dimension,
    and triangles, reachability and label propagation were silently wrong."""
    from la_graph.engines.dask import DaskEngine
    E = DaskEngine(threaded, grid=5)
    G = lg.Graph.from_edges([0], [1], n=3)
    assert lg.triangle_count(G, engine=E) == 0
    assert np.array_equal(lg.reachability(G, [0, 2], engine=E), lg.reachability(G, [0, 2], engine="cpu"))
    assert lg.label_propagation(G, engine=E).tolist() == [0, 1, 2]
    A = E.matrix(G)
    assert E.to_coo(E.mxm(A, A, "plus_times"))[0].tolist() == [0, 1]


def test_a_failing_share_of_a_collective_raises_its_own_error(threaded, monkeypatch):
    """One worker's failure reaches the client as that error; its peers are told and do not wait."""
    from la_graph.engines.dask import DaskEngine
    E = DaskEngine(threaded, grid=2, exchange="local")
    G = gen.path(9)
    check_failing_share(monkeypatch, E.placement.workers[1], lambda: lg.bfs(G, 0, engine=E).level.tolist(),
                        list(range(9)))


class _SizedMemoryError(MemoryError):
    """Stands for CuPy's OutOfMemoryError: a MemoryError whose constructor takes sizes, not its message."""

    def __init__(self, size, total):
        super().__init__(f"Out of memory allocating {size:,} bytes (allocated so far: {total:,} bytes).")


def _device_oom(name, x):
    """What the GPU engine raises when CuPy runs out of memory: OutOfDeviceMemory, CuPy's error as its context."""
    try:
        raise _SizedMemoryError(4096, 512)
    except MemoryError as exc:
        raise lg.OutOfDeviceMemory(f"gpu engine, nvals: the GPU ran out of memory ({exc}); free GPU memory") from None


def test_a_workers_memory_error_reaches_the_client_as_la_graphs(threaded, monkeypatch):
    """A worker's OutOfDeviceMemory (it used to reach the client as a bare Exception: tblib could not rebuild a
    MemoryError subclass), another library's MemoryError (mapped to OutOfMemory on CPU workers), and an error's
    attributes, through Dask's pickling of task errors."""
    from la_graph.engines.dask import DaskEngine, client_error, tasks
    E = DaskEngine(threaded, grid=2, exchange="local")
    real = tasks.nvals
    monkeypatch.setattr(tasks, "nvals", _device_oom)
    with pytest.raises(lg.OutOfDeviceMemory, match=r"allocating 4,096 bytes .*; free GPU memory$"):
        lg.bfs(gen.path(9), 0, engine=E)

    def foreign(name, x):
        raise _SizedMemoryError(8192, 0)

    monkeypatch.setattr(tasks, "nvals", foreign)
    with pytest.raises(lg.OutOfMemory, match=r"a Dask worker ran out of memory \(_SizedMemoryError: Out of memory "
                                             r"allocating 8,192 bytes.*use more workers"):
        lg.bfs(gen.path(9), 0, engine=E)

    def unconverged(name, x):
        raise lg.ConvergenceError("no", iterations=7, error=0.5)

    monkeypatch.setattr(tasks, "nvals", unconverged)
    with pytest.raises(lg.ConvergenceError) as got:
        lg.bfs(gen.path(9), 0, engine=E)
    assert (got.value.iterations, got.value.error) == (7, 0.5)
    monkeypatch.setattr(tasks, "nvals", real)
    assert lg.bfs(gen.path(9), 0, engine=E).level.tolist() == list(range(9))
    # on GPU workers a foreign memory error is the device's; an error Dask could not rebuild is parsed back
    assert type(client_error(_SizedMemoryError(1, 0), "gpu")) is lg.OutOfDeviceMemory
    bare = client_error(Exception("OutOfDeviceMemory('needs about 1,024 bytes of GPU memory; use more GPUs')"), "gpu")
    assert type(bare) is lg.OutOfDeviceMemory and str(bare) == "needs about 1,024 bytes of GPU memory; use more GPUs"
    long = client_error(Exception("OutOfMemory('Long error message', 'needs')"), "cpu")
    assert type(long) is lg.OutOfMemory and long.args == ("Long error message", "needs")
    other = ZeroDivisionError("x")
    assert client_error(other, "gpu") is other
    # the cause: tblib, which Dask pickles a task's error with, rebuilt la_graph's MemoryErrors through
    # MemoryError.__new__, which refuses them; LaGraphError's own reduction avoids it
    import pickle

    from tblib import pickling_support
    for error in (lg.OutOfDeviceMemory("needs 5 bytes"), lg.OutOfMemory("needs 6 bytes")):
        pickling_support.install(error)
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and back.args == error.args


def test_exchange_is_checked():
    from la_graph.engines.dask import DaskEngine
    with pytest.raises(lg.InvalidArgumentError, match="exchange must be"):
        DaskEngine(exchange="mpi")
    with pytest.raises(lg.InvalidArgumentError, match="needs local='gpu'"):
        DaskEngine(exchange="nccl")


@pytest.mark.parametrize("kwargs, match", [
    (dict(client="tcp://127.0.0.1:8786"), r"client must be a distributed.Client, got str; a scheduler address "
                                          r"goes as address='tcp://127.0.0.1:8786'"),
    (dict(client=42), "client must be a distributed.Client, got int"),
    (dict(address=8786), "address must be a scheduler address"),
    (dict(grid=True), "grid must be an integer, got True"),
    (dict(grid=0), "grid must be an integer >= 1, got 0"),
    (dict(grid=2.0), "grid must be an integer, got 2.0"),
    (dict(seed="a"), "seed must be an integer, got 'a'"),
    (dict(threads=0), "threads must be an integer >= 1, got 0"),
    (dict(threads="x"), "threads must be an integer, got 'x'"),
    (dict(workers=0), "workers must be an integer >= 1, got 0"),
    (dict(low_latency="no"), "low_latency must be True or False, got 'no'"),
])
def test_options_are_checked(kwargs, match):
    """Bad options are refused when the engine is made, naming the option (they were a ValueError from int(),
    an AttributeError deep in the first call, or taken silently)."""
    from la_graph.engines.dask import DaskEngine
    with pytest.raises(lg.InvalidArgumentError, match=match):
        DaskEngine(**kwargs)
    with pytest.raises(lg.InvalidArgumentError, match=match):
        with lg.use_engine("dask", **kwargs):
            pass


def _clients():
    """The distributed Clients alive in this process (a dead ``weakref.proxy`` among the collector's objects
    raises ReferenceError at ``isinstance``: skipped)."""
    out = []
    for c in gc.get_objects():
        try:
            if isinstance(c, distributed.Client):
                out.append(c)
        except ReferenceError:
            continue
    return out


def test_a_scheduler_address_that_does_not_answer_is_named(monkeypatch):
    """A bad address (given, or from $LA_GRAPH_DASK_SCHEDULER) raises EngineUnavailable naming it and where it
    came from (a bare ValueError or OSError from distributed before)."""
    from la_graph.engines.dask import SCHEDULER_ENV, DaskEngine
    before = {id(c) for c in _clients()}
    with pytest.raises(lg.EngineUnavailable, match=r"scheduler at 'nonsense' \(from address=\): missing port"):
        lg.bfs(gen.path(3), 0, engine=DaskEngine(address="nonsense"))
    monkeypatch.setenv(SCHEDULER_ENV, "nonsense")
    with pytest.raises(lg.EngineUnavailable, match=r"scheduler at 'nonsense' \(from \$LA_GRAPH_DASK_SCHEDULER\)"):
        lg.bfs(gen.path(3), 0, engine=DaskEngine())
    # the Clients whose constructors failed are closed: left open, a later garbage collection closed one inside
    # the next Client's IO-loop start-up, which waited 10 s for distributed's loop lock and failed (or hung)
    left = [c for c in _clients() if id(c) not in before and c.status not in ("closed", "newly-created")]
    assert not left, [c.status for c in left]


def test_a_closed_client_is_named():
    """Calls on an engine whose Client was closed raise EngineUnavailable saying so (they raised a KeyError, an
    AttributeError on None or distributed's ClosedClientError, depending on what the call did first)."""
    from la_graph.engines.dask import DaskEngine
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0",
                                       silence_logs=50)
    client = distributed.Client(cluster)
    try:
        E = DaskEngine(client)
        G = gen.path(5)
        assert lg.bfs(G, 0, engine=E).level.tolist() == list(range(5))
        client.close()
        for call in (lambda: lg.bfs(G, 0, engine=E), lambda: lg.bfs(gen.path(4), 0, engine=E),
                     lambda: lg.bfs(G, 0, engine=DaskEngine(client))):
            with pytest.raises(lg.EngineUnavailable, match="Client is closed"):
                call()
    finally:
        client.close()
        cluster.close()


def test_an_engine_made_by_address_closes_its_client():
    """The Client a DaskEngine(address=...) made for itself is closed when the engine goes (it stayed connected)."""
    from la_graph.engines.dask import DaskEngine
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0",
                                  silence_logs=50) as cluster:
        E = DaskEngine(address=cluster.scheduler_address)
        assert lg.bfs(gen.path(4), 0, engine=E).level.tolist() == [0, 1, 2, 3]
        client = E.client
        del E
        gc.collect()
        assert client.status == "closed"


def test_a_scheduler_gone_during_a_computation_is_named():
    """The scheduler stops while the engine waits: EngineUnavailable saying the connection was lost (distributed's
    FuturesCancelledError or CommClosedError before), once the Client gives up reconnecting (2 s here)."""
    import dask

    from la_graph.engines.dask import DaskEngine
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0",
                                       silence_logs=50)
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        client = distributed.Client(cluster.scheduler_address, timeout="2s")   # not the cluster's own Client
    try:
        E = DaskEngine(client)
        assert lg.bfs(gen.path(5), 0, engine=E).level.tolist() == list(range(5))
        cluster.close()
        with pytest.raises(lg.EngineUnavailable, match="lost its connection to the Dask scheduler"):
            lg.bfs(gen.path(5), 0, engine=E)
    finally:
        client.close()
        cluster.close()


def test_objects_of_another_engine_are_named(threaded):
    from la_graph.engines.dask import DaskEngine
    E, F = DaskEngine(threaded), DaskEngine(threaded)
    v = E.vector_from_numpy(np.arange(4.0))
    with pytest.raises(lg.InvalidArgumentError, match="made by another dask engine"):
        F.apply(v, "abs")
    with pytest.raises(lg.InvalidArgumentError, match="of the dask engine, got Vector"):
        E.apply(lg.get_engine("cpu").vector_from_numpy(np.arange(4.0)), "abs")


def test_a_lost_worker_ends_the_computation_naming_it():
    from la_graph.engines.dask import DaskEngine
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                       silence_logs=50)
    client = distributed.Client(cluster)
    try:
        E = DaskEngine(client)
        G = gen.rmat(8, 6, seed=3)
        ref = lg.connected_components(G, engine="cpu")
        assert np.array_equal(lg.connected_components(G, engine=E), ref)
        victim = E.placement.workers[1]
        try:
            client.run(os._exit, 1, workers=[victim])
        except Exception:  # noqa: BLE001 - the worker's connection drops as it dies
            pass
        with pytest.raises(lg.WorkerLost, match=victim.replace(".", r"\.")):
            lg.connected_components(G, engine=E)
        client.wait_for_workers(2, timeout=60)    # the nanny starts a new worker
        assert np.array_equal(lg.connected_components(G, engine=E), ref)   # laid out again on the workers there
    finally:
        client.close()
        cluster.close()


def test_a_graph_too_big_for_the_workers_is_refused_with_the_bytes_needed():
    from la_graph.engines.dask import DaskEngine
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0",
                                       memory_limit="64KiB", silence_logs=50)
    client = distributed.Client(cluster)
    try:
        with pytest.raises(lg.OutOfMemory, match=r"need about [\d,]+ bytes on worker .* memory limit is 65,536"):
            lg.bfs(gen.rmat(10, 8, seed=1), 0, engine=DaskEngine(client))
    finally:
        client.close()
        cluster.close()


@pytest.mark.parametrize("grid", [1, 2])
def test_extract_and_scatter_on_one_segment_and_routed(client, grid):
    """A one-segment engine gathers and scatters with the local engine's own step (no routing through the
    host); both ways give the CPU engine's answers, duplicates reduced alike, and name an id out of range."""
    from la_graph.engines.dask import DaskEngine
    E, C = DaskEngine(client, grid=grid), lg.get_engine("cpu")
    u = np.array([5.0, 1.0, 7.0, 3.0, 2.0, 9.0])
    idx = np.array([5, 0, 0, 3, 4, 5, 1], np.int64)
    vals = np.array([4.0, 8.0, 0.5, 6.0, 1.0, 2.0, 3.0])
    for engine in (E, C):
        got = engine.to_numpy(engine.extract(engine.vector_from_numpy(u), engine.vector_from_numpy(idx)))
        assert got.tolist() == u[idx].tolist()
        for dup in ("min", "max", "plus"):
            w = engine.scatter(engine.vector_from_numpy(u), engine.vector_from_numpy(idx),
                               engine.vector_from_numpy(vals), dup=dup, accum="min")
            want = u.copy()
            for i in np.unique(idx):
                red = {"min": np.min, "max": np.max, "plus": np.sum}[dup](vals[idx == i])
                want[i] = min(want[i], red)
            assert engine.to_numpy(w).tolist() == want.tolist(), (engine.name, dup)
    bad = E.vector_from_numpy(np.array([0, 6], np.int64))
    with pytest.raises(lg.InvalidArgumentError, match=r"index out of range 0\.\.5: \[6\]"):
        E.to_numpy(E.extract(E.vector_from_numpy(u), bad))
    with pytest.raises(lg.InvalidArgumentError, match=r"index out of range 0\.\.5: \[6\]"):
        E.to_numpy(E.scatter(E.vector_from_numpy(u), bad, E.vector_from_numpy(np.ones(2))))
    G = gen.rmat(8, 6, seed=3)
    assert np.array_equal(lg.connected_components(G, engine=E), lg.connected_components(G, engine="cpu"))


def test_assign_accumulates_into_its_target(E):
    """``assign(w, u, accum=...)`` writes into ``w`` (its output), on vectors and on matrices, masked or not."""
    C = lg.get_engine("cpu")
    rows, cols, vals = [0, 1, 2, 3, 5], [1, 2, 0, 4, 5], [4.0, 5.0, 6.0, 7.0, 8.0]
    for eng in (E, C):
        W = eng.matrix_from_coo(rows, cols, vals, 6, 6, dtype=np.float64)
        U = eng.matrix_from_coo([0, 2, 4], [1, 0, 4], [1.0, 2.0, 3.0], 6, 6, dtype=np.float64)
        eng.assign(W, U, mask=U, structural=True, accum="minus")
        w = eng.vector_from_numpy(np.arange(6.0))
        eng.assign(w, 2.0, accum="times")
        got = (eng.to_coo(W), eng.to_numpy(w))
        if eng is E:
            want_dask = got
    (r1, c1, v1), w1 = want_dask
    (r2, c2, v2), w2 = got
    assert np.array_equal(np.asarray(r1), np.asarray(r2)) and np.array_equal(np.asarray(c1), np.asarray(c2))
    assert np.array_equal(np.asarray(v1), np.asarray(v2)) and np.array_equal(w1, w2)
    assert np.asarray(v2).tolist() == [3.0, 5.0, 4.0, 7.0, 3.0, 8.0] and w2.tolist() == [0, 2, 4, 6, 8, 10]
