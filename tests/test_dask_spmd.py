"""SPMD runs of the distributed engine (``E.run``): the algorithm on every worker, answers equal to the CPU engine's.

A threaded LocalCluster of three workers, whose values move through memory
(``exchange="local"``: the same framing the NCCL transport uses, numpy arrays
standing for the device arrays).  Three workers on a 2 x 2 grid leave one
worker without a vector segment; the 3 x 3 grid shares blocks unevenly.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

import la_graph as lg
from la_graph import generators as gen
from la_graph import verify

from .engines import check_failing_share

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def client(threaded):
    return threaded


@pytest.fixture(scope="module", params=[2, 3], ids=["grid2", "grid3"])
def E(client, request):
    from la_graph.engines.dask import DaskEngine
    return DaskEngine(client, grid=request.param, exchange="local")


HOST = {
    "rmat-dir-w": lambda: gen.rmat(8, 5, seed=4, directed=True, weights=(1, 20)),
    "grid-w": lambda: gen.grid_2d(9, 11, weights=(1, 9), seed=2),
    "caveman": lambda: gen.connected_caveman(5, 4),
    "single": lambda: lg.Graph.from_edges([], [], n=1),
}


def _agree(run, G, H, source):
    """The five algorithms by ``run(fn, *args)`` on ``G`` against the CPU engine on host graph ``H``."""
    verify.check_bfs(H, source, run(lg.bfs, G, source))
    assert np.array_equal(run(lg.connected_components, G), lg.connected_components(H, engine="cpu"))
    assert np.allclose(run(lg.sssp, G, source).distance, lg.sssp(H, source, engine="cpu").distance)
    assert np.allclose(run(lg.pagerank, G), lg.pagerank(H, engine="cpu"), rtol=1e-9, atol=1e-12)
    assert np.array_equal(run(lg.strongly_connected_components, G),
                          lg.strongly_connected_components(H, engine="cpu"))


@pytest.mark.parametrize("name", sorted(HOST))
def test_host_graphs(E, name):
    G = HOST[name]()
    _agree(E.run, G, G, min(3, G.n - 1))


def test_host_graph_laid_out_by_the_client(E):
    """Blocks the client engine already holds travel as their parts; the rest are built on the workers."""
    G = gen.rmat(8, 5, seed=5, directed=True)
    E.matrix(G)
    E.degree(G)
    _agree(E.run, G, G, 0)


def test_distributed_graph(E):
    from la_graph.engines.dask import rmat
    G = rmat(E, 9, 8, seed=2, directed=True, weights=(1, 50))
    H = G.to_graph()
    hub = int(np.argmax(H.out_degree))
    _agree(E.run, G, H, hub)
    U = rmat(E, 9, 4, seed=3)
    _agree(E.run, U, U.to_graph(), int(np.argmax(U.out_degree)))


def _degrees(G, engine=None):
    return G.out_degree, G.in_degree, G.T.out_degree, G.T.in_degree


def test_a_distributed_graphs_degrees_are_gathered_in_the_run(E):
    """The client does not send a DistributedGraph's degree arrays; the ranks gather the same ones."""
    from la_graph.engines.dask import rmat
    G = rmat(E, 8, 6, seed=7, directed=True)
    from la_graph.engines.dask import graph
    for _ in range(2):                          # the second run takes the arrays the workers kept
        got = E.run(_degrees, G)
        for a, b in zip(got, (G.out_degree, G.in_degree, G.in_degree, G.out_degree)):
            assert a.dtype == np.int64 and np.array_equal(a, b)
        assert set(graph._KEPT) == {(G._token[0], "dout"), (G._token[0], "din")}     # G.T's are the same two
    U = rmat(E, 8, 4, seed=8)                   # another graph: its own arrays, not the kept ones
    assert np.array_equal(E.run(_degrees, U)[0], U.out_degree)
    assert not np.array_equal(U.out_degree, G.out_degree)


def _cc_both_ways(G, engine):
    """Inside a run: the fused component_labels' labels, the algebra's (FastSV), and whether the kernel was taken."""
    from la_graph.algorithms import steps
    from la_graph.engines.dask import fused
    fused_taken = steps.STEPS["component_labels"].kernel(engine) is fused.component_labels
    got = lg.connected_components(G, engine=engine)
    with steps.algebraic("component_labels"):
        algebra = lg.connected_components(G, engine=engine)
    return got, algebra, fused_taken


def test_connected_components_fused_on_cpu_ranks(E):
    """CC's fused step (Afforest over the ranks) gives FastSV's labels: a giant component, small ones, isolated
    vertices, and a directed graph (weak components)."""
    for G in (gen.rmat(9, 2, seed=6), gen.connected_caveman(6, 3), lg.Graph.from_edges([0, 5], [1, 6], n=9),
              HOST["rmat-dir-w"]()):
        got, algebra, taken = E.run(_cc_both_ways, G)
        assert taken
        want = lg.connected_components(G, engine="cpu")
        assert np.array_equal(got, want) and np.array_equal(algebra, want)


def _bfs_fused(G, source, direction, engine):
    from la_graph.algorithms import steps
    from la_graph.engines.dask import fused
    return lg.bfs(G, source, direction=direction, engine=engine), \
        steps.STEPS["bfs_search"].kernel(engine) is fused.bfs_search


def test_bfs_fused_on_cpu_ranks(E):
    """BFS's fused search (state replicated on the ranks, push and pull over each rank's blocks) gives the CPU
    engine's levels and valid parents, in each direction, on directed and disconnected graphs."""
    for G, s in ((gen.rmat(9, 8, seed=6), 0), (HOST["rmat-dir-w"](), 3), (gen.connected_caveman(6, 3), 4),
                 (lg.Graph.from_edges([0, 1, 5], [1, 2, 6], n=9), 1), (HOST["single"](), 0)):
        want = lg.bfs(G, s, engine="cpu").level
        for direction in ("auto", "push", "pull"):
            got, taken = E.run(_bfs_fused, G, s, direction)
            assert taken and np.array_equal(got.level, want)
            verify.check_bfs(G, s, got)


def test_products_without_the_collective_path(E):
    """mxv and vxm as the engine's generic tasks (segments moved to the blocks, partials to the output)."""
    from la_graph.engines.dask import spmd
    G = HOST["rmat-dir-w"]()
    _agree(lambda fn, *a: spmd.run(E, fn, a, {}, collective=False), G, G, 3)


def _bfs_algebra(G, source, engine):
    """``lg.bfs`` with its search as algebra (the failure tests plant their errors in the primitives and the
    products, which the fused search on CPU ranks does not call)."""
    from la_graph.algorithms import steps
    with steps.algebraic("bfs_search"):
        return lg.bfs(G, source, engine=engine)


def _plus_one(u, engine):
    """A user function of engine objects: ``u + 1`` as numpy."""
    return engine.to_numpy(engine.apply(u, "plus", right=1))


def test_engine_objects_as_arguments(E):
    u = E.vector_from_numpy(np.arange(10, dtype=np.int64))
    assert E.run(_plus_one, u).tolist() == list(range(1, 11))


def test_arguments_are_checked(E):
    with pytest.raises(lg.InvalidArgumentError, match="engine="):
        E.run(lg.bfs, gen.path(3), 0, engine="cpu")
    with pytest.raises(lg.InvalidSourceError):          # raised alike on every worker
        E.run(lg.bfs, gen.path(3), 7)
    with pytest.raises(lg.InvalidArgumentError, match="needs a function to run on every worker, got int"):
        E.run(42, gen.path(3))


def _ones(G, engine):
    return [engine.full(G.n, 1.0)]


def test_a_run_returning_an_object_of_its_engine_is_refused(E):
    """An engine object a run returns has placeholders of the run's engine as parts: refused, saying what to return
    (the client got a DVector that every later use refused as made by another engine)."""
    with pytest.raises(lg.InvalidArgumentError, match="_ones returned a DVector of the run's engine"):
        E.run(_ones, gen.path(5))
    assert E.run(lg.bfs, gen.path(5), 0).level.tolist() == list(range(5))


def _boxes():
    import glob
    return set(glob.glob("/dev/shm/la_graph-run-*"))


@pytest.mark.skipif(not __import__("os").path.isdir("/dev/shm"), reason="no shared memory folder")
def test_a_large_result_comes_back_through_shared_memory(E, monkeypatch, caplog):
    """Rank 0's result travels through a file in /dev/shm when it holds SHARED_RESULT_BYTES or more (the
    threshold lowered here), comes back equal and writable, and the file is gone after; a result too large
    for the room left there goes through Dask, and the log says so."""
    from la_graph.engines.dask import spmd
    before = _boxes()
    G = gen.rmat(9, 8, seed=3)
    want = E.run(lg.bfs, G, 0)                               # (through Dask: a few kB)
    assert np.array_equal(want.level, lg.bfs(G, 0, engine="cpu").level)
    monkeypatch.setattr(spmd, "SHARED_RESULT_BYTES", 1)
    got = E.run(lg.bfs, G, 0)
    assert np.array_equal(got.level, want.level) and np.array_equal(got.parent, want.parent)
    got.level[0] = 7                                         # (the mapped pages are the caller's)
    assert _boxes() == before

    class Full:
        f_bavail, f_frsize = 1, 4096
    monkeypatch.setattr(spmd.os, "statvfs", lambda path: Full)
    with caplog.at_level("WARNING", logger="la_graph"):
        got = E.run(lg.bfs, G, 0)
    assert np.array_equal(got.level, want.level)
    assert "goes back through Dask: shared memory" in caplog.text
    assert _boxes() == before


def test_runs_need_an_exchange_between_workers(client):
    from la_graph.engines.dask import DaskEngine
    with pytest.raises(lg.InvalidArgumentError, match="exchange='local'"):
        DaskEngine(client, exchange="dask").run(lg.bfs, gen.path(3), 0)


def test_a_failing_task_raises_its_error_on_the_client(E, monkeypatch):
    """A task that fails on one worker: its error travels as the value, every rank raises it where it is read."""
    from la_graph.engines.dask import tasks
    victim = E.placement.segment(E.grid - 1)          # a worker holding a vector segment
    real = tasks.nvals

    def failing(name, x):
        if distributed.get_worker().address == victim:
            raise ZeroDivisionError("injected")
        return real(name, x)

    monkeypatch.setattr(tasks, "nvals", failing)
    t = time.perf_counter()
    with pytest.raises(ZeroDivisionError, match="injected"):
        E.run(_bfs_algebra, gen.path(9), 0)
    assert time.perf_counter() - t < 60
    monkeypatch.setattr(tasks, "nvals", real)
    assert E.run(_bfs_algebra, gen.path(9), 0).level.tolist() == list(range(9))


def test_a_workers_out_of_device_memory_reaches_the_client_as_la_graphs(E, monkeypatch):
    """One worker's OutOfDeviceMemory (CuPy's error as its context) in an SPMD run: the client raises la_graph's
    OutOfDeviceMemory with its message, not a bare Exception."""
    from la_graph.engines.dask import tasks

    from .test_dask_engine import _device_oom
    victim = E.placement.segment(E.grid - 1)
    real = tasks.nvals

    def failing(name, x):
        if distributed.get_worker().address == victim:
            _device_oom(name, x)
        return real(name, x)

    monkeypatch.setattr(tasks, "nvals", failing)
    with pytest.raises(lg.OutOfDeviceMemory, match=r"allocating 4,096 bytes .*; free GPU memory$"):
        E.run(_bfs_algebra, gen.path(9), 0)
    monkeypatch.setattr(tasks, "nvals", real)
    assert E.run(_bfs_algebra, gen.path(9), 0).level.tolist() == list(range(9))


def test_a_failing_share_of_a_collective_product_raises_its_own_error(E, monkeypatch):
    """The failing worker holds no output segment on the 2 x 2 grid: its peers' shares raise PeerFailed, and the
    client still receives the failing share's own error."""
    check_failing_share(monkeypatch, E.placement.workers[1], lambda: E.run(_bfs_algebra, gen.path(9), 0).level.tolist(),
                        list(range(9)))


def test_a_worker_failing_alone_does_not_leave_the_others_waiting(E):
    """One rank raises outside any task: its peers wait for its messages until the client aborts the exchange;
    the client raises that rank's error, and the next run works on a new exchange."""
    before = E._exchange
    t = time.perf_counter()
    _rank_one_fails(True)            # the workers are threads of this process
    try:
        with pytest.raises(ZeroDivisionError, match="rank 1 alone"):
            E.run(_bfs_algebra, gen.path(9), 0)
    finally:
        _rank_one_fails(False)
    assert time.perf_counter() - t < 60
    assert E._exchange != before
    assert E.run(_bfs_algebra, gen.path(9), 0).level.tolist() == list(range(9))


def test_the_transport_frames_round_trip():
    """Objects with arrays out of band (shared, empty, 0-d, non-contiguous) and a long pickle cross the mailbox
    intact, and a value that is an unpicklable error arrives as an error naming it."""
    from la_graph.engines.dask import exchange, transport
    token = exchange.new_token()
    a, b = exchange._Local(token, 0, 2), exchange._Local(token, 1, 2)
    ca, cb = transport.LocalChannel(a), transport.LocalChannel(b)
    x = np.arange(12.0).reshape(3, 4)
    obj = {"x": x, "again": x, "t": x.T, "empty": np.empty((0, 3), np.int32), "zero": np.array(5, np.int16),
           "bools": np.array([True, False]), "text": "y" * 2000, "objects": np.array([1, "a"], dtype=object)}
    ca.send([1], obj)
    got = cb.recv(0)
    assert got["again"] is got["x"] and np.array_equal(got["x"], x) and np.array_equal(got["t"], x.T)
    assert got["empty"].shape == (0, 3) and got["empty"].dtype == np.int32
    assert got["zero"].shape == () and got["zero"] == 5 and got["text"] == "y" * 2000
    assert got["objects"].tolist() == [1, "a"] and got["bools"].tolist() == [True, False]

    class Unpicklable(Exception):
        def __reduce__(self):
            raise TypeError("no")

    ca.send([1], transport.Erred(Unpicklable("boom")))
    e = cb.recv(0)
    assert isinstance(e, transport.Erred) and "Unpicklable: boom" in str(e.exc)
    b.abort()
    with pytest.raises(exchange.PeerFailed, match="aborted"):
        cb.recv(0)


def test_the_nccl_channel_over_a_stand_in(monkeypatch):
    """NcclChannel's framing, with numpy standing in for CuPy and the local mailboxes for NCCL's send and recv
    (the real one runs in test_gpu_runs): every array of the object travels as a frame of its own."""
    import sys
    import types

    from la_graph.engines.dask import exchange, transport

    cupy = types.ModuleType("cupy")
    cupy.ndarray, cupy.uint8, cupy.empty = np.ndarray, np.uint8, np.empty
    cupy.ascontiguousarray, cupy.asnumpy = np.ascontiguousarray, np.array
    cupy.asarray = lambda a: np.array(a, copy=True)
    cupy.cuda = types.SimpleNamespace(get_current_stream=lambda: types.SimpleNamespace(synchronize=lambda: None))
    monkeypatch.setitem(sys.modules, "cupy", cupy)

    class Comm:                                       # _Nccl's _group over a mailbox; a receive fills its buffer
        def __init__(self, local):
            self.local, self.rank = local, local.rank
            self.frames = 0

        @property
        def aborted(self):
            return self.local.aborted

        def _group(self, sends, recvs):
            for q, buf in sends:
                self.frames += 1
                self.local.post(q, (False, buf.copy()))
            for q, buf in recvs:
                _, got = self.local.take(q)
                assert got.nbytes == buf.nbytes
                buf[...] = got

    token = exchange.new_token()
    a, b = Comm(exchange._Local(token, 0, 2)), Comm(exchange._Local(token, 1, 2))
    ca, cb = transport.NcclChannel(a), transport.NcclChannel(b)
    x = np.arange(6, dtype=np.int64).reshape(2, 3)
    ca.send([1], {"x": x, "again": x, "pres": np.array([True, False, True]), "big": "z" * 3000})
    got = cb.recv(0)
    assert np.array_equal(got["x"], x) and got["again"] is got["x"] and got["pres"].tolist() == [True, False, True]
    assert got["big"] == "z" * 3000
    assert a.frames == 4                              # head, pickle, two arrays


def _rank_one_fails(on):
    """On a worker: make (``on``) or unmake SpmdEngine.nvals raise on rank 1 (patched once per process)."""
    from la_graph.engines.dask.spmd import SpmdEngine

    real = getattr(SpmdEngine.nvals, "real", None)
    if on and real is None:
        kept = SpmdEngine.nvals

        def failing(self, x):
            if self.rank == 1:
                raise ZeroDivisionError("rank 1 alone")
            return kept(self, x)

        failing.real = kept
        SpmdEngine.nvals = failing
    elif not on and real is not None:
        SpmdEngine.nvals = real


def _nvals_name():
    from la_graph.engines.dask.spmd import SpmdEngine

    return SpmdEngine.nvals.__name__


def test_planted_failure_reaches_worker_processes():
    """The GPU test's failure planting works where workers are processes (no GPU needed)."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        client.run(_rank_one_fails, True)
        client.run(_rank_one_fails, True)        # twice: still one layer
        assert set(client.run(_nvals_name).values()) == {"failing"}
        client.run(_rank_one_fails, False)
        assert set(client.run(_nvals_name).values()) == {"nvals"}


@pytest.mark.gpu
@pytest.mark.parametrize("kind", ["cuda", "cuda-every-gpu"])
def test_gpu_runs(kind):
    """E.run on GPU workers: one (no messages), and one per GPU exchanging over NCCL; then a rank failing alone
    (its peers blocked in NCCL receives) raises its error on the client, and the next run works."""
    from la_graph.engines.dask import DaskEngine, rmat

    from .test_dask_engine import _gpu_cluster
    cluster = _gpu_cluster(kind)
    client = distributed.Client(cluster)
    try:
        E = DaskEngine(client, local="gpu", grid=2)
        assert E.exchange == {"cuda": "dask", "cuda-every-gpu": "nccl"}[kind]
        for G in (gen.rmat(10, 8, seed=5), gen.grid_2d(20, 30, weights=(1, 9), seed=1)):
            _agree(E.run, G, G, 3)
        D = rmat(E, 12, 8, seed=2, directed=True, weights=(1, 50))
        H = D.to_graph()
        _agree(E.run, D, H, int(np.argmax(H.out_degree)))
        if E.exchange == "nccl":   # the workers are processes: the failure is planted in each of them
            client.run(_rank_one_fails, True)
            try:
                with pytest.raises(ZeroDivisionError, match="rank 1 alone"):
                    E.run(lg.bfs, H, 0)
            finally:
                client.run(_rank_one_fails, False)
            verify.check_bfs(H, 0, E.run(lg.bfs, H, 0))
    finally:
        client.close()
        cluster.close()


# -------------------------------------------------------------------- worker processes: exchange="tcp"
@pytest.fixture(scope="module")
def procs():
    """Two single-threaded worker processes: E.run's values cross processes over TCP (their default exchange)."""
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                       silence_logs=40)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def T(procs):
    from la_graph.engines.dask import DaskEngine
    return DaskEngine(procs)


def test_worker_processes_run_over_tcp_by_default(T):
    """E.run on worker processes: the default exchange is "tcp", and the answers are the CPU engine's."""
    assert T.exchange == "tcp"
    G = HOST["rmat-dir-w"]()
    _agree(T.run, G, G, 3)
    H = HOST["grid-w"]()
    _agree(T.run, H, H, 0)


def test_worker_processes_run_a_distributed_graph(T):
    from la_graph.engines.dask import rmat
    G = rmat(T, 10, 8, seed=2, directed=True, weights=(1, 50))
    H = G.to_graph()
    _agree(T.run, G, H, int(np.argmax(H.out_degree)))
    U = rmat(T, 11, 4, seed=5)                      # undirected: CC's fused step, against FastSV's algebra
    got, algebra, taken = T.run(_cc_both_ways, U)
    assert taken and np.array_equal(got, algebra)
    assert np.array_equal(got, lg.connected_components(U.to_graph(), engine="cpu"))
    stats = T.exchange_stats()
    assert all(v["collectives"] > 0 and v["bytes_sent"] > 0 for v in stats.values())


def _plant(on, what):
    """On a worker: make rank 1 fail (``what``: "raise" an error, "exit" its process) in SpmdEngine.nvals, or undo."""
    from la_graph.engines.dask.spmd import SpmdEngine

    real = getattr(SpmdEngine.nvals, "real", None)
    if real is not None:
        SpmdEngine.nvals = real
    if on:
        kept = SpmdEngine.nvals

        def failing(self, x):
            if self.rank == 1:
                if what == "exit":
                    import os
                    os._exit(3)
                raise ZeroDivisionError("rank 1 alone")
            return kept(self, x)

        failing.real = kept
        SpmdEngine.nvals = failing


def _ranks_wait_for_each_other(on):
    """On a worker: make (``on``) or unmake ranks 0 and 1 each wait, once, in SpmdEngine.nvals for a message the
    other never sends (programs that diverged): both hold their worker's one thread until the exchange is aborted."""
    from la_graph.engines.dask.spmd import SpmdEngine

    real = getattr(SpmdEngine.nvals, "real", None)
    if real is not None:
        SpmdEngine.nvals = real
    if on:
        kept, armed = SpmdEngine.nvals, [True]

        def waiting(self, x):
            if armed and self.rank in (0, 1):
                armed.clear()
                self.channel.recv(1 - self.rank)
            return kept(self, x)

        waiting.real = kept
        SpmdEngine.nvals = waiting


def test_an_interrupted_run_leaves_no_rank_waiting(T, procs):
    """Ctrl-C while the ranks wait for each other: the client aborts the exchange on its way out, so both tasks end
    (without the abort they would hold their workers' one thread for good) and the next run works."""
    import _thread
    import threading
    procs.run(_ranks_wait_for_each_other, True)
    try:
        threading.Timer(1.0, _thread.interrupt_main).start()
        with pytest.raises(KeyboardInterrupt):
            T.run(_bfs_algebra, gen.path(9), 0)
    finally:
        procs.run(_ranks_wait_for_each_other, False)
    t = time.perf_counter()
    assert T.run(_bfs_algebra, gen.path(9), 0).level.tolist() == list(range(9))
    assert time.perf_counter() - t < 15


def test_a_worker_process_failing_alone_releases_its_peers(T, procs):
    """Rank 1 raises outside any task while rank 0 waits for its message over TCP: the client aborts the exchange,
    raises rank 1's error within seconds, and the next run works on a new exchange."""
    before = T._exchange
    G = gen.path(9)
    procs.run(_plant, True, "raise")
    t = time.perf_counter()
    try:
        with pytest.raises(ZeroDivisionError, match="rank 1 alone"):
            T.run(_bfs_algebra, G, 0)
    finally:
        procs.run(_plant, False, None)
    assert time.perf_counter() - t < 15
    assert T._exchange != before
    assert T.run(_bfs_algebra, G, 0).level.tolist() == list(range(9))


def test_a_failing_share_of_a_collective_product_over_tcp(T, procs):
    """A collective product's share failing on one worker process: the client raises its own error."""
    procs.run(_fail_products, True, T.placement.workers[1])
    try:
        with pytest.raises(ZeroDivisionError, match="injected"):
            T.run(_bfs_algebra, gen.path(9), 0)
    finally:
        procs.run(_fail_products, False, None)
    assert T.run(_bfs_algebra, gen.path(9), 0).level.tolist() == list(range(9))


def _fail_products(on, victim):
    from la_graph.engines.dask import exchange

    real = getattr(exchange.product, "real", None)
    if real is not None:
        exchange.product = real
    if on:
        kept = exchange.product

        def failing(name, *args):
            if distributed.get_worker().address == victim:
                raise ZeroDivisionError("injected")
            return kept(name, *args)

        failing.real = kept
        exchange.product = failing


def test_a_worker_process_that_dies_mid_run_is_named(procs):
    """Rank 1's process ends mid-run: rank 0's receive fails at once (the connection closed), the client raises
    WorkerLost naming the worker, and the next run lays the graph out on the workers there are then."""
    from la_graph.engines.dask import DaskEngine
    E = DaskEngine(procs)
    G = gen.path(9)
    assert E.run(_bfs_algebra, G, 0).level.tolist() == list(range(9))
    victim = E.placement.workers[1]
    procs.run(_plant, True, "exit", workers=[victim])
    t = time.perf_counter()
    with pytest.raises(lg.WorkerLost, match=victim):
        E.run(_bfs_algebra, G, 0)
    assert time.perf_counter() - t < 20
    procs.wait_for_workers(2, timeout=60)               # the nanny starts the worker again (a new address)
    assert E.run(_bfs_algebra, G, 0).level.tolist() == list(range(9))
    assert victim not in E.placement.workers


def test_the_tcp_backend_in_one_process():
    """Two "tcp" backends: large arrays cross both ways at once (a send never waits for the peer's receive),
    frames arrive intact, an abort releases a waiting receive, and a peer closing ends its peer's receives."""
    import threading

    from la_graph.engines.dask import exchange, transport
    token = exchange.new_token()
    a, b = exchange._Tcp(token, 0, 2, "127.0.0.1"), exchange._Tcp(token, 1, 2, "127.0.0.1")
    a.connect([a.address, b.address])
    b.connect([a.address, b.address])
    big = np.arange(3 << 20, dtype=np.float64)              # 24 MB each way, far beyond the sockets' buffers
    a.send_object(1, {"x": big, "t": big[::2]})
    b.send_object(0, [big[::-1], "ok"])
    got_b, got_a = b.recv_object(0), a.recv_object(1)
    assert np.array_equal(got_b["x"], big) and np.array_equal(got_b["t"], big[::2])
    assert np.array_equal(got_a[0], big[::-1]) and got_a[1] == "ok"
    ca, cb = transport.TcpChannel(a), transport.TcpChannel(b)
    x = np.arange(12.0).reshape(3, 4)
    ca.send([1], {"x": x, "again": x, "empty": np.empty((0, 3), np.int32), "text": "y" * 2000})
    got = cb.recv(0)
    assert got["again"] is got["x"] and np.array_equal(got["x"], x) and got["text"] == "y" * 2000
    assert got["empty"].shape == (0, 3)
    threading.Timer(0.3, b.abort).start()
    t = time.perf_counter()
    with pytest.raises(exchange.PeerFailed):
        b.recv_frame(0)
    assert time.perf_counter() - t < 5
    with pytest.raises(exchange.PeerFailed, match="closed its connection"):
        a.recv_frame(1)                                     # b's abort closed the connection
    a.abort()


@pytest.mark.slow
def test_the_scaling_bench_on_worker_processes(tmp_path):
    """``python -m la_graph.bench.scaling --processes``: E.run over TCP on worker processes, every answer checked
    against the CPU engine, the CPU engine's own time beside (about 15 s: its own clusters)."""
    import json

    from la_graph.bench import scaling
    out = tmp_path / "rec.json"
    assert scaling.main(["--processes", "--graphs", "rmat8:w1-20", "--workers", "1,2", "--repeat", "1",
                         "--out", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    runs = [r for r in rows if r.get("path") == "spmd"]
    assert sorted((r["workers"], r["algo"]) for r in runs) == sorted((w, a) for w in (1, 2) for a in scaling.ALGOS)
    assert all(r["checked"] and r["exchange"] == "tcp" for r in runs)
    assert sorted(r["algo"] for r in rows if r.get("path") == "cpu-engine") == sorted(scaling.ALGOS)
