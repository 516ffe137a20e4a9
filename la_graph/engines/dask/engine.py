"""The dask engine as the client drives it: :class:`DaskEngine` (see the package docstring).

The operator interface is :class:`~.operators.BlockEngine`'s; this class carries each task out through the
Dask scheduler (:meth:`DaskEngine._submit`), waits for the workers (a worker lost, a task's error, the
scheduler gone), starts the exchange of its products, and runs whole algorithms on the workers
(:meth:`DaskEngine.run`, through :mod:`.spmd`).
"""

from __future__ import annotations

import contextlib
import os
import weakref
from concurrent.futures import CancelledError

import distributed
import numpy as np

from ..._validation import check_flag, check_int
from ...exceptions import EngineUnavailable, InvalidArgumentError, OutOfMemory, WorkerLost
from . import exchange as _exchange
from . import spmd, tasks
from .cluster import (SCHEDULER_ENV, _check_scheduler, _close, _close_unmade, _has_n_workers, _low_latency,
                      _scheduler_workers, client_error, local_cluster)
from .objects import Placement
from .operators import BlockEngine, check_local

__all__ = ["DaskEngine"]


class DaskEngine(BlockEngine):
    """:class:`~la_graph.engines.base.Engine` over a Dask cluster (see :mod:`la_graph.engines.dask`).

    Parameters
    ----------
    client : distributed.Client, optional
        The cluster to run on.
    address : str, optional
        A scheduler address to connect to (when no ``client``); default ``$LA_GRAPH_DASK_SCHEDULER``.
    grid : int, optional
        Blocks per matrix side ``s`` (``s * s`` blocks); default ``ceil(sqrt(workers))``.
    local : str
        The engine each worker computes with: ``"cpu"`` (default), ``"gpu"`` (CUDA workers,
        one per GPU) or ``"reference"``.
    workers : int, optional
        Worker processes of the LocalCluster made when neither ``client`` nor ``address`` is
        given; default ``min(4, cores)``.
    seed : int
        Seed of the row and column permutation.
    threads : int, optional
        GraphBLAS threads per CPU worker; default: the cores over the workers for the
        LocalCluster the engine starts, and the workers' own setting on a given cluster.
    low_latency : bool
        Send Dask's control messages at once (default): the client, scheduler and workers
        batch them every 2-10 ms otherwise, which puts ~11 ms under every round trip
        (measured on a LocalCluster: 11 ms -> 4 ms per task and result); the algorithms wait
        for a scalar (a frontier's size, a convergence test) once per iteration.
    exchange : {"auto", "dask", "nccl", "tcp", "local"}
        How ``mxv`` and ``vxm`` move vector segments and partial results between workers, and
        :meth:`run` its values (:mod:`la_graph.engines.dask.exchange`): ``"dask"`` through Dask's
        own transfers (no :meth:`run`), ``"nccl"`` over NCCL between GPU workers each on a GPU of
        its own (one collective task per worker and product), ``"tcp"`` over a TCP connection
        between every two CPU workers (processes, on one host or several; the products of
        :meth:`run` only: driven from the client they go through Dask), ``"local"`` through
        memory between the workers of a threaded cluster in one process (for tests).
        ``"auto"`` (default): ``"nccl"`` where the workers are GPU workers on distinct GPUs with
        NCCL, ``"tcp"`` for several CPU workers that are not all threads of this process (their
        addresses are not ``inproc://``), ``"dask"`` otherwise; :attr:`exchange` tells which was
        taken.
    """

    def __init__(self, client=None, *, address=None, grid=None, local="cpu", workers=None, seed=0,
                 threads=None, low_latency=True, exchange="auto"):
        check_local(local)
        if exchange not in ("auto", "dask", "nccl", "tcp", "local"):
            raise InvalidArgumentError(f"exchange must be 'auto', 'dask', 'nccl', 'tcp' or 'local', got {exchange!r}")
        if exchange == "nccl" and local != "gpu":
            raise InvalidArgumentError("exchange='nccl' moves GPU-engine vectors: it needs local='gpu'")
        if exchange == "tcp" and local == "gpu":
            raise InvalidArgumentError("exchange='tcp' moves host arrays between CPU workers: GPU workers exchange "
                                       "over NCCL (exchange='nccl') or through Dask")
        if client is not None and not isinstance(client, distributed.Client):
            hint = f"; a scheduler address goes as address={client!r}" if isinstance(client, str) else ""
            raise InvalidArgumentError(f"client must be a distributed.Client, got {type(client).__name__}{hint}")
        if address is not None and not isinstance(address, str):
            raise InvalidArgumentError(f"address must be a scheduler address such as 'tcp://host:8786', "
                                       f"got {address!r}")
        workers = None if workers is None else check_int(workers, "workers", low=1)
        threads = None if threads is None else check_int(threads, "threads", low=1)
        low_latency = check_flag(low_latency, "low_latency")
        super().__init__(grid=grid, local=local, seed=seed)
        self.low_latency = low_latency
        self._client, self._address, self._nworkers = client, address, workers
        self._cluster = None
        self._threads = threads
        self._pending = []
        self._want_exchange = exchange

    @property
    def client(self):
        """The :class:`distributed.Client` (a LocalCluster is started on first use when none was given)."""
        if self._client is not None and self._client.status in ("closing", "closed"):
            raise EngineUnavailable("this dask engine's Client is closed: make a new engine on an open one "
                                    "(lg.use_engine('dask', client=Client(...)))")
        if self._client is None:
            address = self._address or os.environ.get(SCHEDULER_ENV)
            if address:
                where = "address=" if self._address else f"${SCHEDULER_ENV}"
                try:
                    _check_scheduler(address)
                    self._client = distributed.Client(address)
                except (OSError, ValueError, MemoryError) as exc:   # no scheduler there (a timeout), a malformed
                    _close_unmade(exc)                              # address, or a server that is no scheduler
                    raise EngineUnavailable(f"the dask engine could not connect to the Dask scheduler at "
                                            f"{address!r} (from {where}): {exc}") from exc
                weakref.finalize(self, _close, self._client, None)    # its own Client: closed with the engine
            else:
                n = self._nworkers or max(1, min(4, os.cpu_count() or 1))
                self._client, self._cluster = local_cluster(n, self.local)
                weakref.finalize(self, _close, self._client, self._cluster)
        return self._client

    def _live_workers(self):
        return sorted(self.client.run_on_scheduler(_scheduler_workers))

    @property
    def placement(self):
        """The current :class:`Placement` (made on first use, and again after the cluster changed)."""
        if self._placement is None:
            workers = self._live_workers()
            if not workers:
                raise WorkerLost("the Dask cluster has no workers")
            s = self._grid or int(np.ceil(np.sqrt(len(workers))))
            threads = self._threads
            if threads is None and self.local == "cpu" and self._cluster is not None:
                threads = max(1, (os.cpu_count() or 1) // len(workers))
            self.client.run(tasks.init_worker, self.local, threads, workers=workers)
            if self.low_latency:
                _low_latency(self.client)
            self._placement = Placement(workers, s)
            self._layouts = {}
            if self._exchange is not None and self._exchange[0] == "tcp":     # the last cluster's connections
                self.client.run(_exchange.abort, self._exchange[1], workers=workers)
            self._start_exchange(workers)
        return self._placement

    def _start_exchange(self, workers):
        want = self._want_exchange
        probes = self.client.run(_exchange.probe, workers=workers)
        pids = {probes[w][0] for w in workers}
        gpus = [probes[w][1] for w in workers]
        nccl_ok = (self.local == "gpu" and len(workers) > 1 and all(probes[w][2] for w in workers)
                   and None not in gpus and len(set(gpus)) == len(gpus))
        if want == "auto":
            # (CPU workers that are all threads of this process keep Dask's transfers: "local" is for tests)
            threaded = all(w.startswith("inproc://") for w in workers)
            want = "nccl" if nccl_ok else "tcp" if self.local != "gpu" and len(workers) > 1 and not threaded \
                else "dask"
        elif want == "nccl" and not nccl_ok and len(workers) > 1:
            raise EngineUnavailable(
                f"exchange='nccl' needs GPU workers with NCCL, each on a GPU of its own; got {len(workers)} workers "
                f"on {len(set(g for g in gpus if g))} distinct GPUs (NCCL refuses two ranks on one GPU): use "
                f"exchange='dask'")
        elif want == "local" and len(pids) != 1:
            raise InvalidArgumentError("exchange='local' needs every worker in one process (a threaded cluster)")
        token = _exchange.new_token()
        self._exchange, self._collective = (want, token), {}
        if want in ("nccl", "local", "tcp"):
            ranks = {w: r for r, w in enumerate(workers)}
            uid = None
            if want == "nccl":
                uid = self.client.submit(_exchange.unique_id, self.local, workers=[workers[0]], pure=False).result()
            elif want == "tcp" and len(workers) > 1:    # each listens; then each connects to those of lower rank
                where = self.client.run(_exchange.listen, token, ranks, workers=workers)
                uid = [where[w] for w in workers]
            if want != "tcp" or uid is not None:
                self.client.run(_exchange.start, want, token, ranks, uid, workers=workers)

    def exchange_stats(self, reset=False):
        """Per worker, the seconds its collective products spent computing and exchanging and the bytes
        it sent: ``{address: {"exchange_s", "compute_s", "bytes_sent", "collectives"}}`` (zeros with
        ``exchange="dask"``, whose transfers Dask counts itself)."""
        self.synchronize()
        return self.client.run(_exchange.stats, reset, workers=list(self.placement.workers))

    def run(self, fn, *args, **kwargs):
        """Run ``fn(*args, engine=..., **kwargs)`` on every worker at once, SPMD; return rank 0's result.

        ``fn`` is an algorithm function (``lg.bfs``, ``lg.pagerank``...: anything that takes ``engine=`` and
        calls only the engine's operations).  Each worker runs it with an SPMD engine of its own
        (:class:`~la_graph.engines.dask.spmd.SpmdEngine`): the same blocks, segments and tasks as this
        engine, but each task carried out on the spot by the worker that holds its data, and the values
        it needs sent to it by their holders, point to point over the exchange.  No primitive goes
        through the Dask scheduler: the run is one task per worker (see :mod:`.spmd`).

        Vectors and matrices of this engine, :class:`DistributedGraph` objects built by it, and host
        :class:`~la_graph.Graph` objects among the arguments are rebuilt on each worker; ``fn`` should
        return host values (numpy arrays, results), as the library's algorithms do.

        Needs ``exchange="nccl"`` (GPU workers), ``"tcp"`` (CPU worker processes: their default) or
        ``"local"`` (a threaded cluster) with several workers.
        An error on any worker is raised here (the failing worker's own error, not its peers'); the
        exchange is then started anew.

        Examples
        --------
        >>> import la_graph as lg
        >>> from distributed import Client, LocalCluster
        >>> from la_graph.engines.dask import DaskEngine
        >>> cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
        >>> client = Client(cluster)
        >>> E = DaskEngine(client, exchange="local")
        >>> E.run(lg.bfs, lg.generators.path(5), 0).level.tolist()
        [0, 1, 2, 3, 4]
        >>> client.close(); cluster.close()
        """
        return spmd.run(self, fn, args, kwargs)

    @property
    def cache_key(self):
        return ("dask", self.placement.token)

    # ---------------------------------------------------------------- carrying tasks out, through the scheduler
    def _submit(self, worker, fn, *args, **kwargs):
        f = self.client.submit(fn, self.local, *args, workers=[worker], allow_other_workers=False, pure=False,
                               **kwargs)
        self._pending.append(weakref.ref(f))       # weak: what the algorithm drops is freed on the workers
        if len(self._pending) > 4096:
            self._pending = [r for r in self._pending if (p := r()) is not None and not p.done()]
        return f

    def _wait(self, futures):
        """Wait until ``futures`` are done (:meth:`_wait_for`); the connection to the scheduler lost meanwhile
        raises EngineUnavailable saying so (distributed's CommClosedError or a cancellation before)."""
        try:
            self._wait_for(futures)
        except (CancelledError, OSError) as exc:
            self._check_connection(exc)
            raise

    def _check_connection(self, exc):
        client = self._client
        if client is not None and client.status != "running":
            raise EngineUnavailable(f"the dask engine lost its connection to the Dask scheduler during the "
                                    f"computation (the Client is {client.status}; {type(exc).__name__}: {exc}): "
                                    f"the blocks and segments on the workers are lost; make a new engine on a "
                                    f"running cluster") from exc

    def _wait_for(self, futures):
        """Wait until ``futures`` are done, the results staying where they are; a worker lost meanwhile
        raises WorkerLost naming it, and a task's error is raised here.

        With a collective exchange, an error anywhere in the products waited on or the last collective
        ends the wait at once (its peers may be blocked in the exchange): the exchange is aborted on
        every worker and started anew, and the error raised is a worker's own before its peers'
        :class:`~.exchange.PeerFailed`."""
        collective = self._exchange is not None and self._exchange[0] != "dask"
        while True:
            try:
                distributed.wait(futures, timeout=1.0)
                break
            except TimeoutError:
                self._check_workers()
                if collective and any(f.status == "error" for f in [*futures, *self._collective.values()]):
                    break
            except KeyboardInterrupt:
                if self._exchange[0] == "tcp":
                    # a share (or an E.run rank) left running may wait for a peer's task that the interrupt
                    # cancelled, holding its worker's thread: the abort releases it
                    with contextlib.suppress(Exception):
                        self._restart_exchange()
                raise
        watched = [*futures, *self._collective.values()] if collective else futures
        errors = [f.exception() for f in watched if f.status == "error"]
        if errors:
            if collective:
                if all(isinstance(e, _exchange.PeerFailed) for e in errors):
                    # the failing worker's own error may land just after its peers' reports of it
                    try:
                        distributed.wait(list(self._collective.values()), timeout=10.0)
                    except TimeoutError:
                        pass
                    errors += [f.exception() for f in self._collective.values() if f.status == "error"]
                self._restart_exchange()
            error = next((e for e in errors if not isinstance(e, _exchange.PeerFailed)), errors[0])
            mapped = client_error(error, self.local)
            if mapped is error:
                raise error
            raise mapped from error
        for f in futures:
            if f.status in ("cancelled", "lost"):
                self._check_workers()
                raise WorkerLost(f"a result the computation needs was lost ({f.key})")

    def _restart_exchange(self):
        """A new exchange (new communicator) after an error: the old one is aborted on every worker, which
        releases any share of a collective still waiting for a peer."""
        workers = list(self._placement.workers) if self._placement is not None else []
        old = self._exchange
        live = set(self._live_workers()) if old[0] == "tcp" else set(workers)
        try:
            self.client.run(_exchange.abort, old[1], workers=[w for w in workers if w in live])
        finally:
            if not set(workers) <= live:
                self._check_workers()           # a rank's process ended (its peers saw it first): WorkerLost
            self._start_exchange(workers)

    def _gather(self, futures):
        """The results of ``futures`` on the client (see :meth:`_wait`)."""
        self._wait(futures)
        try:
            return self.client.gather(futures)
        except (CancelledError, OSError) as exc:
            self._check_connection(exc)
            if not isinstance(exc, CancelledError):
                raise
            self._check_workers()
            raise WorkerLost(f"a result the computation needs was lost ({exc})") from exc

    def _check_workers(self):
        if self._placement is None:
            return
        gone = sorted(set(self._placement.workers) - set(self._live_workers()))
        if gone:
            self._placement = None                 # the next object is laid out on the workers left
            raise WorkerLost(f"Dask worker {', '.join(gone)} left the cluster during the computation: the "
                             f"blocks and vector segments it held are lost; run the algorithm again "
                             f"(the graph's blocks are rebuilt on the workers left)")

    def synchronize(self):
        if self._pending:
            pending, self._pending = self._pending, []
            self._wait([f for f in (r() for r in pending) if f is not None])

    def _check_memory(self, n, nnz, itemsize):
        """Refuse a graph whose blocks exceed a worker's memory limit (bytes per worker in the message)."""
        info = self.client.scheduler_info(n_workers=-1)["workers"] if _has_n_workers(self.client) \
            else self.client.scheduler_info()["workers"]
        p = self.placement
        per = {}
        for i in range(p.s):
            for j in range(p.s):
                per[p.block(i, j)] = per.get(p.block(i, j), 0) + 1
        share = nnz / (p.s * p.s)
        for w, blocks in per.items():
            need = int(blocks * share * (8 + itemsize) * 3 + 8 * n)    # CSR, the CSC copy, the build's copies
            limit = info.get(w, {}).get("memory_limit") or 0
            if limit and need > limit:
                raise OutOfMemory(f"the graph's blocks need about {need:,} bytes on worker {w}, whose memory "
                                  f"limit is {limit:,} bytes: use more workers or workers with more memory "
                                  f"(or the single-machine cpu engine)")

    def _put(self, data, worker):
        """Large arrays travel to their worker once, ahead of the task that uses them."""
        big = sum(getattr(a, "nbytes", 0) for a in data) > (1 << 20)
        return self.client.scatter(data, workers=[worker], direct=False, hash=False) if big else data
