"""The distributed engine: the operator interface over a Dask cluster.

A matrix is an ``s x s`` grid of blocks, each a matrix of a *local* engine (the
CPU engine by default; the GPU engine on CUDA workers) held by one Dask
worker; a vector is ``s`` segments aligned with the block rows and columns,
each held by the worker of its diagonal block.  Rows and columns are permuted
once, pseudo-randomly (:mod:`.layout`), so that hubs spread over the grid.
The algorithms run unchanged: every primitive is carried out block by block --

* ``mxv``: each block ``(i, j)`` multiplies its vector segment ``j`` (the
  output's mask applied already), and the partial results of block row ``i`` are
  reduced with the semiring's monoid where output segment ``i`` lives (``vxm``
  alike along block columns, ``mxm`` gathers row ``i`` of A and column ``j`` of
  B where output block ``(i, j)`` lives); positional multiplies (``secondi`` ...)
  report global vertex ids;
* ``ewise_*``, ``apply``, ``select``, ``assign`` and ``reduce`` segment by
  segment, where the segments live;
* ``extract`` and ``scatter`` route requested ids to the segments holding them.

Between GPU workers, each on a GPU of its own, ``mxv`` and ``vxm`` move their
vector segments and partial results over NCCL instead of through Dask
(``exchange="nccl"``, the default there; :mod:`.exchange`): one collective task
per worker and product.

Fused steps of the local engines do not run: each step runs as its algebra,
and the local engines' primitives do the work.

Driven from the client, every primitive costs a round trip through the Dask
scheduler.  :meth:`DaskEngine.run` runs the algorithm on the workers instead,
SPMD: ``E.run(lg.bfs, G, 0)`` runs ``lg.bfs`` on every worker at once, each
with an SPMD engine of its own over the same blocks and segments, which
carries each task out on the spot and moves the values it needs point to
point over the exchange (:mod:`.spmd`, :mod:`.transport`); the client receives
rank 0's result.

Objects are handles to Dask futures; operations return as soon as their tasks
are submitted, and whatever asks for a value (``nvals``, ``reduce``,
``to_numpy``...) waits for the work it depends on.  A worker lost while the
engine waits ends the computation with :class:`~la_graph.exceptions.WorkerLost`
naming the worker; a graph whose blocks do not fit the workers' memory limits
is refused with :class:`~la_graph.exceptions.OutOfMemory`, naming the bytes per
worker it needs.

Set-up, first match wins: ``use_engine("dask", client=...)``,
``use_engine("dask", address="tcp://...")``, the ``LA_GRAPH_DASK_SCHEDULER``
environment variable (a scheduler address), and finally a
:class:`distributed.LocalCluster` of up to four single-threaded worker
processes on this machine.  See ``docs/scaling.md``.

Examples
--------
>>> import la_graph as lg
>>> from distributed import Client, LocalCluster
>>> cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0")
>>> client = Client(cluster)
>>> G = lg.generators.path(6)
>>> with lg.use_engine("dask", client=client) as E:
...     E.grid
...     lg.bfs(G, 0).level.tolist()
2
[0, 1, 2, 3, 4, 5]
>>> client.close(); cluster.close()
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import itertools
import multiprocessing
import multiprocessing.resource_tracker
import os
import signal
import sys
import threading
import warnings
import weakref
from collections.abc import Mapping
from concurrent.futures import CancelledError

import numpy as np

from ..._validation import check_flag, check_int
from ...exceptions import (EngineUnavailable, InvalidArgumentError, LaGraphError, OutOfDeviceMemory, OutOfMemory,
                           WorkerLost)
from ..base import BINARY_OPS, MONOIDS, SELECT_OPS, SEMIRINGS, UNARY_OPS, Engine, monoid_type
from ..base import check_name as _check_name
from ..base import check_coords, check_output_args
from ..base import check_range as _check_range
from . import exchange as _exchange
from . import tasks
from .layout import Layout

try:
    import dask
    import distributed
except ImportError as exc:  # pragma: no cover - the registry turns this into EngineUnavailable
    raise EngineUnavailable(f"the dask engine needs dask and distributed ({exc}); "
                            "install them with: pip install 'la_graph[dask]'") from exc

__all__ = ["DaskEngine", "DVector", "DMatrix", "Layout", "local_cluster", "DistributedGraph", "read_edges", "rmat",
           "LatencyWarning", "LATENCY_BOUND"]

#: the environment variable naming a scheduler to connect to
SCHEDULER_ENV = "LA_GRAPH_DASK_SCHEDULER"

_POSITIONAL = ("firsti", "firstj", "secondi", "secondj")
_MONOID_UFUNC = {"min": np.fmin, "max": np.fmax, "plus": np.add, "times": np.multiply,
                 "lor": np.logical_or, "land": np.logical_and}
_INDEX_SELECT = ("rowle", "rowgt", "tril", "triu", "diag", "offdiag")


class Placement:
    """Which worker holds what: block ``(i, j)`` of an ``s x s`` grid, and vector segment ``k``."""

    _tokens = itertools.count()

    def __init__(self, workers, s):
        self.workers, self.s = tuple(workers), int(s)
        self.token = next(self._tokens)

    def block(self, i, j):
        return self.workers[(i * self.s + j) % len(self.workers)]

    def segment(self, k):
        return self.block(k, k)


class _DObject:
    """A distributed vector or matrix: its shape and the futures of its local parts."""

    __slots__ = ("shape", "parts", "placement", "__weakref__")

    def __init__(self, shape, parts, placement):
        self.shape, self.parts, self.placement = tuple(int(s) for s in shape), parts, placement

    def __repr__(self):
        return f"{type(self).__name__}(shape={self.shape}, grid={self.placement.s})"


class DVector(_DObject):
    """A vector of the distributed engine: ``parts[k]`` is the future of segment ``k``."""


class DMatrix(_DObject):
    """A matrix of the distributed engine: ``parts[i][j]`` is the future of block ``(i, j)``."""


def _semiring_parts(semiring):
    if not isinstance(semiring, str) or "_" not in semiring:
        raise InvalidArgumentError(f"semiring must be a name like 'min_second', got {semiring!r}")
    add, mult = semiring.split("_", 1)
    if add not in MONOIDS or mult not in BINARY_OPS + _POSITIONAL:
        raise InvalidArgumentError(f"unknown semiring {semiring!r}; known: {', '.join(SEMIRINGS)}")
    return add, mult


class LatencyWarning(UserWarning):
    """An algorithm that waits on the cluster once per round, for many rounds, runs on the dask engine."""


#: step -> (its algorithm, what its rounds are): the steps whose rounds grow with the graph's depth, each
#: round a few waits for the whole cluster (a round trip through the scheduler, milliseconds): SSSP took
#: ~550x the cpu engine's time on Wiki-Vote, core_number 59 s on a 2,000-vertex path
LATENCY_BOUND = {
    **dict.fromkeys(("bfs_push", "bfs_pull", "bfs_search", "bfs_multi"), ("bfs", "one per BFS level")),
    **dict.fromkeys(("sssp_delta_stepping", "sssp_bellman_ford", "sssp_batch", "sssp_relax"),
                    ("sssp", "one per distance bucket or relaxation")),
    "reach_sweep": ("reachability", "one per BFS level"),
    "brandes_sources": ("betweenness_centrality", "two per BFS level of each batch of sources"),
    **dict.fromkeys(("scc_trim", "scc_fwbw", "scc_color"), ("strongly_connected_components",
                                                            "one per search step and coloring round")),
    "core_peel": ("core_number", "one per vertex-removal round"),
    "floyd_warshall": ("apsp", "one per pivot vertex"),
}


class _LatencyNotes(Mapping):
    """The dask engine's ``fused_steps``: empty, but looking up a step of :data:`LATENCY_BOUND` warns once per
    algorithm and process, in the client (not on the workers, whose SPMD runs take no round trips)."""

    def __init__(self):
        self.noted = set()

    def __getitem__(self, name):
        raise KeyError(name)

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0

    def get(self, name, default=None):
        algo = LATENCY_BOUND.get(name)
        if algo is not None and algo[0] not in self.noted:
            self.noted.add(algo[0])
            if not _on_worker():
                warnings.warn(f"{algo[0]} is latency-bound on the dask engine: its rounds ({algo[1]}) each wait "
                              f"for the cluster, milliseconds apiece, whatever the graph's size; for a graph that "
                              f"fits in one machine's memory the cpu engine (or the gpu engine) is faster, often "
                              f"by orders of magnitude", LatencyWarning, stacklevel=4)
        return default


def _on_worker():
    """Whether this thread runs a Dask worker's task (an SPMD run's algorithm)."""
    try:
        distributed.get_worker()
    except ValueError:
        return False
    return True


_LATENCY_NOTES = _LatencyNotes()


#: the error of an object whose placement is not the engine's (the SPMD runs raise it too)
OTHER_PLACEMENT = ("an object of the dask engine was made by another dask engine, or on another set of "
                   "workers (the cluster changed since); make it again with this engine")


class DaskEngine(Engine):
    """:class:`~la_graph.engines.base.Engine` over a Dask cluster (see the module docstring).

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
    exchange : {"auto", "dask", "nccl", "local"}
        How ``mxv`` and ``vxm`` move vector segments and partial results between workers
        (:mod:`la_graph.engines.dask.exchange`): ``"dask"`` through Dask's own transfers,
        ``"nccl"`` over NCCL between GPU workers each on a GPU of its own (one collective
        task per worker and product), ``"local"`` through memory between the workers of a
        threaded cluster in one process (for tests).  ``"auto"`` (default): ``"nccl"`` where
        the workers are GPU workers on distinct GPUs with NCCL, ``"dask"`` otherwise;
        :attr:`exchange` tells which was taken.
    """

    name = "dask"
    narrow_ids = False

    @property
    def fused_steps(self):
        """None: every step runs as its algebra.  A latency-bound step looked up warns (:class:`LatencyWarning`,
        once per algorithm and process; see :data:`LATENCY_BOUND`)."""
        return _LATENCY_NOTES

    def __init__(self, client=None, *, address=None, grid=None, local="cpu", workers=None, seed=0,
                 threads=None, low_latency=True, exchange="auto"):
        if local not in ("cpu", "gpu", "reference"):
            raise InvalidArgumentError(f"local must be 'cpu', 'gpu' or 'reference', got {local!r}")
        if exchange not in ("auto", "dask", "nccl", "local"):
            raise InvalidArgumentError(f"exchange must be 'auto', 'dask', 'nccl' or 'local', got {exchange!r}")
        if exchange == "nccl" and local != "gpu":
            raise InvalidArgumentError("exchange='nccl' moves GPU-engine vectors: it needs local='gpu'")
        if client is not None and not isinstance(client, distributed.Client):
            hint = f"; a scheduler address goes as address={client!r}" if isinstance(client, str) else ""
            raise InvalidArgumentError(f"client must be a distributed.Client, got {type(client).__name__}{hint}")
        if address is not None and not isinstance(address, str):
            raise InvalidArgumentError(f"address must be a scheduler address such as 'tcp://host:8786', "
                                       f"got {address!r}")
        grid = None if grid is None else check_int(grid, "grid", low=1)
        workers = None if workers is None else check_int(workers, "workers", low=1)
        threads = None if threads is None else check_int(threads, "threads", low=1)
        seed, low_latency = check_int(seed, "seed"), check_flag(low_latency, "low_latency")
        self.local, self._grid, self._seed, self.low_latency = local, grid, seed, low_latency
        self._client, self._address, self._nworkers = client, address, workers
        self._cluster = None
        self._threads = threads
        self._placement = None
        self._layouts = {}
        self._pending = []
        self._want_exchange, self._exchange, self._collective = exchange, None, {}
        self.objects_on_host = local != "gpu"

    # ---------------------------------------------------------------- the cluster
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
            self._start_exchange(workers)
        return self._placement

    @property
    def exchange(self):
        """How products exchange between workers: ``"dask"``, ``"nccl"`` or ``"local"`` (see the parameter)."""
        self.placement
        return self._exchange[0]

    def _start_exchange(self, workers):
        want = self._want_exchange
        probes = self.client.run(_exchange.probe, workers=workers)
        pids = {probes[w][0] for w in workers}
        gpus = [probes[w][1] for w in workers]
        nccl_ok = (self.local == "gpu" and len(workers) > 1 and all(probes[w][2] for w in workers)
                   and None not in gpus and len(set(gpus)) == len(gpus))
        if want == "auto":
            want = "nccl" if nccl_ok else "dask"
        elif want == "nccl" and not nccl_ok and len(workers) > 1:
            raise EngineUnavailable(
                f"exchange='nccl' needs GPU workers with NCCL, each on a GPU of its own; got {len(workers)} workers "
                f"on {len(set(g for g in gpus if g))} distinct GPUs (NCCL refuses two ranks on one GPU): use "
                f"exchange='dask'")
        elif want == "local" and len(pids) != 1:
            raise InvalidArgumentError("exchange='local' needs every worker in one process (a threaded cluster)")
        token = _exchange.new_token()
        self._exchange, self._collective = (want, token), {}
        if want in ("nccl", "local"):
            ranks = {w: r for r, w in enumerate(workers)}
            uid = None
            if want == "nccl":
                uid = self.client.submit(_exchange.unique_id, self.local, workers=[workers[0]], pure=False).result()
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

        Needs ``exchange="nccl"`` (GPU workers) or ``"local"`` (a threaded cluster) with several workers.
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
        from . import spmd
        return spmd.run(self, fn, args, kwargs)

    @property
    def cache_key(self):
        return ("dask", self.placement.token)

    @property
    def grid(self):
        """Blocks per matrix side."""
        return self.placement.s

    def layout(self, size):
        """The :class:`Layout` of a dimension of ``size`` indices."""
        L = self._layouts.get(size)
        if L is None:
            L = self._layouts[size] = Layout(size, self.placement.s, self._seed)
        return L

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
        try:
            self.client.run(_exchange.abort, old[1], workers=workers)
        finally:
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

    def _same(self, *objs):
        p = self.placement
        for x in objs:
            if isinstance(x, _DObject) and x.placement is not p:
                raise InvalidArgumentError(OTHER_PLACEMENT)
        return p

    def _check(self, x, ndim, what, shape=None):
        if not isinstance(x, (DVector, DMatrix)[ndim - 1]):
            raise InvalidArgumentError(f"{what} must be a {('vector', 'matrix')[ndim - 1]} of the dask engine, "
                                       f"got {type(x).__name__}")
        if shape is not None and x.shape != tuple(shape):
            raise InvalidArgumentError(f"{what} has shape {x.shape}, expected {tuple(shape)}")
        return x

    # ---------------------------------------------------------------- graphs
    def matrix(self, G, *, transpose=False):
        p = self.placement
        key = (self.cache_key, "AT" if transpose else "A")
        M = G._engine_cache.get(key)
        if M is None:
            H = G.T if transpose else G
            rows = np.repeat(np.arange(H.n, dtype=np.int64), np.diff(H.indptr))
            values = True if H.weights is None else np.asarray(H.weights, np.float64)
            dtype = bool if H.weights is None else np.float64
            self._check_memory(H.n, H.nnz, 1 if H.weights is None else 8)
            M = G._engine_cache[key] = self.matrix_from_coo(rows, H.indices, values, H.n, H.n, dtype=dtype)
        return M

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

    def degree(self, G, *, transpose=False):
        key = (self.cache_key, "din" if transpose else "dout")
        d = G._engine_cache.get(key)
        if d is None:
            d = G._engine_cache[key] = self.vector_from_numpy(
                (G.in_degree if transpose else G.out_degree).astype(np.int64))
        return d

    # ---------------------------------------------------------------- building
    def _segments(self, size, fn, args):
        p, L = self.placement, self.layout(size)
        lengths = L.lengths()
        return DVector((size,), [self._submit(p.segment(k), fn, *args(k, int(lengths[k])))
                                 for k in range(p.s)], p)

    def vector(self, size, dtype):
        return self._segments(size, tasks.empty, lambda k, m: (((m,), np.dtype(dtype))))

    def full(self, size, value, dtype=None):
        dtype = np.dtype(dtype) if dtype is not None else np.asarray(value).dtype
        return self._segments(size, tasks.full, lambda k, m: (m, value, dtype))

    def iota(self, size):
        L = self.layout(size)
        return self._segments(size, tasks.iota, lambda k, m: (L, k))

    def _put(self, data, worker):
        """Large arrays travel to their worker once, ahead of the task that uses them."""
        big = sum(getattr(a, "nbytes", 0) for a in data) > (1 << 20)
        return self.client.scatter(data, workers=[worker], direct=False, hash=False) if big else data

    def vector_from_numpy(self, values):
        values = np.array(values)
        if values.ndim != 1:
            raise InvalidArgumentError(f"vector_from_numpy needs a 1-d array, got shape {values.shape}")
        L, p = self.layout(values.size), self.placement
        return DVector(values.shape, [self._submit(p.segment(k), tasks.from_numpy,
                                                   self._put([values[L.ids(k)]], p.segment(k))[0])
                                      for k in range(p.s)], p)

    def _coo_values(self, values, count, dup, dtype):
        """``(values, scalar, dtype)`` of a ``*_from_coo`` call, checked."""
        if dup is not None:
            _check_name(dup, BINARY_OPS, "binary op")
        scalar = np.ndim(values) == 0
        if not scalar:
            values = np.asarray(values)
            if values.shape != (count,):
                raise InvalidArgumentError(f"indices and values lengths differ: {count} != {values.size}")
        return values, scalar, np.dtype(dtype if dtype is not None else np.asarray(values).dtype)

    def vector_from_coo(self, indices, values, size, *, dup=None, dtype=None):
        indices = np.asarray(indices, np.int64).ravel()
        _check_range(indices, size, "index")
        values, scalar, dtype = self._coo_values(values, indices.size, dup, dtype)
        L, p = self.layout(size), self.placement
        seg, local = L.locate(indices)
        pieces = tasks.split(seg, p.s, local, *(() if scalar else (values,)))
        lengths = L.lengths()
        parts = []
        for k in range(p.s):
            w = p.segment(k)
            data = self._put(list(pieces[k]), w)
            parts.append(self._submit(w, tasks.from_coo, (int(lengths[k]),), data[:1],
                                      values if scalar else data[1], dup, np.dtype(dtype)))
        return DVector((size,), parts, p)

    def matrix_from_coo(self, rows, cols, values, nrows, ncols, *, dup=None, dtype=None):
        rows, cols = check_coords(rows, cols, nrows, ncols)
        values, scalar, dtype = self._coo_values(values, rows.size, dup, dtype)
        p = self.placement
        Lr, Lc = self.layout(nrows), self.layout(ncols)
        si, li = Lr.locate(rows)
        sj, lj = Lc.locate(cols)
        pieces = tasks.split(si * p.s + sj, p.s * p.s, li, lj, *(() if scalar else (values,)))
        nr, nc = Lr.lengths(), Lc.lengths()
        parts = []
        for i in range(p.s):
            row = []
            for j in range(p.s):
                w, piece = p.block(i, j), pieces[i * p.s + j]
                data = self._put(list(piece), w)
                row.append(self._submit(w, tasks.from_coo, (int(nr[i]), int(nc[j])), data[:2],
                                        values if scalar else data[2], dup, np.dtype(dtype)))
            parts.append(row)
        return DMatrix((nrows, ncols), parts, p)

    def _coo(self, x, device=False):
        """``(coordinates..., values)`` of ``x`` as numpy (``device``: CuPy arrays from GPU workers), in the
        global indexing, unsorted."""
        p = self._same(x)
        if isinstance(x, DVector):
            L = self.layout(x.shape[0])
            dims = [((L, k),) for k in range(p.s)]
        else:
            Lr, Lc = self.layout(x.shape[0]), self.layout(x.shape[1])
            dims = [((Lr, i), (Lc, j)) for i in range(p.s) for j in range(p.s)]
        # each part's indices made global where it lives (the layout's inverse permutation)
        got = self._gather([self._submit(w, tasks.to_coo, f, *d, device=device)
                            for w, f, d in zip(self._where(x), self._flat(x), dims)])
        xp = tasks._xp(got[0][-1])
        return tuple(xp.concatenate(c) for c in zip(*got))

    #: whether ``to_numpy`` gathers GPU workers' parts as device arrays and assembles them on the device
    #: (an SPMD rank's: the parts travel device to device; the client's engine gathers numpy)
    _device_parts = False

    def to_numpy(self, x, fill=None, *, consume=False):
        coo = self._coo(_check_obj(x), self._device_parts)
        xp = tasks._xp(coo[-1])
        total = int(np.prod(x.shape))
        if fill is None and coo[-1].size != total:
            raise InvalidArgumentError("to_numpy needs fill= for an object with missing entries")
        values = coo[-1]
        out = xp.empty(total, values.dtype) if fill is None else xp.full(total, fill, values.dtype)
        key = coo[0] if len(coo) == 2 else coo[0] * x.shape[1] + coo[1]
        out[key] = values
        return (out if xp is np else out.get()).reshape(x.shape)

    def to_coo(self, x):
        coo = self._coo(_check_obj(x))
        if len(coo) == 2:
            order = np.argsort(coo[0])
        elif x.shape[0] * x.shape[1] < 2 ** 63:            # by row, then column: one key sorts faster than two
            order = np.argsort(coo[0] * x.shape[1] + coo[1])
        else:
            order = np.lexsort((coo[1], coo[0]))
        return tuple(c[order] for c in coo)

    def copy(self, x):
        _check_obj(x)                                     # tasks never change their inputs: share the parts
        parts = list(x.parts) if isinstance(x, DVector) else [list(r) for r in x.parts]
        return type(x)(x.shape, parts, x.placement)

    def _flat(self, x):
        return x.parts if isinstance(x, DVector) else [f for row in x.parts for f in row]

    def _where(self, x):
        """The worker holding each part of ``x``, in the order of :meth:`_flat`."""
        p = x.placement
        if isinstance(x, DVector):
            return [p.segment(k) for k in range(p.s)]
        return [p.block(i, j) for i in range(p.s) for j in range(p.s)]

    def _per_part(self, fn, x, *args, y=None):
        """The futures of ``fn(part of x, [part of y,] *args)``, one per part of ``x``, each run where the part
        lives (``y``: an object laid out as ``x``)."""
        ys = None if y is None else self._flat(y)
        return [self._submit(w, fn, f, *(() if ys is None else (ys[b],)), *args)
                for b, (w, f) in enumerate(zip(self._where(x), self._flat(x)))]

    def nvals(self, x):
        _check_obj(x)
        return int(sum(self._gather(self._per_part(tasks.nvals, x))))

    def size(self, x):
        _check_obj(x)
        return x.shape[0] if isinstance(x, DVector) else x.shape

    def isequal(self, x, y):
        if type(_check_obj(x)) is not type(_check_obj(y)) or x.shape != y.shape:
            return False
        self._same(x, y)
        return all(self._gather(self._per_part(tasks.isequal, x, y=y)))

    # ---------------------------------------------------------------- operations
    def _outargs(self, shape, ndim, out, mask, accum, complement):
        check_output_args(out, mask, accum, complement)
        if out is not None:
            self._check(out, ndim, "out", shape)
        if mask is not None:
            self._check(mask, ndim, "mask", shape)

    def _rebind(self, out, result):
        if out is None:
            return result
        out.parts = result.parts
        return out

    def _product(self, kind, A, B, semiring, out, mask, accum, structural, complement, replace):
        """``mxv`` (``B`` a vector), ``vxm`` (``A`` a vector) or ``mxm``."""
        add, mult = _semiring_parts(semiring)
        p = self._same(A, B, out, mask)
        s = p.s
        rows = cols = None
        if kind == "vxm":
            inner, cols = B.shape
        else:
            rows, inner = A.shape
            cols = B.shape[1] if kind == "mxm" else None
        if (A.shape[0] if kind == "vxm" else inner) != B.shape[0]:
            raise InvalidArgumentError(f"inner dimensions differ: {A.shape} times {B.shape}")
        shape = {"mxv": (rows,), "vxm": (cols,), "mxm": (rows, cols)}[kind]
        self._outargs(shape, len(shape), out, mask, accum, complement)
        dims = {"row": rows, "inner": inner, "col": cols}
        report = {"firsti": "row" if kind != "vxm" else None, "secondj": "col" if kind != "mxv" else None,
                  "firstj": "inner", "secondi": "inner"}.get(mult)

        def remap(i, k, j):
            if report is None:
                return None
            return self.layout(dims[report]), {"row": i, "inner": k, "col": j}[report]

        mparts = None if mask is None else mask.parts
        flags = (structural, complement)
        if kind == "mxm":
            parts = []
            for i in range(s):
                row = []
                for j in range(s):
                    row.append(self._submit(
                        p.block(i, j), tasks.products, [A.parts[i][k] for k in range(s)],
                        [B.parts[k][j] for k in range(s)], semiring, [remap(i, k, j) for k in range(s)], add,
                        None if out is None else out.parts[i][j], None if mask is None else mparts[i][j],
                        accum, structural, complement, replace))
                parts.append(row)
            return self._rebind(out, DMatrix(shape, parts, p))
        if self._exchange[0] != "dask" and len(p.workers) > 1:
            return self._rebind(out, self._collective_product(kind, A, B, semiring, add, remap, out, mask, accum,
                                                              structural, complement, replace, shape))
        segs = []
        for o in range(s):                                  # the output segment
            partials, here = [], []                         # blocks elsewhere; blocks where segment o lives
            for k in range(s):                              # the inner segment
                i, j = (o, k) if kind == "mxv" else (k, o)
                a, b = (A.parts[i][j], B.parts[k]) if kind == "mxv" else (A.parts[k], B.parts[i][j])
                if p.block(i, j) == p.segment(o):           # multiplied inside the combining task: one task less
                    here.append((kind, a, b, semiring, remap(i, k, j)))
                    continue
                partials.append(self._submit(p.block(i, j), tasks.product, kind, a, b, semiring,
                                             remap(i, k, j), None if mask is None else mparts[o], *flags))
            segs.append(self._submit(p.segment(o), tasks.combine, add, None if out is None else out.parts[o],
                                     None if mask is None else mparts[o], accum, structural, complement,
                                     replace, *partials, local=here))
        return self._rebind(out, DVector(shape, segs, p))

    def _collective_product(self, kind, A, B, semiring, add, remap, out, mask, accum, structural, complement,
                            replace, shape):
        """``mxv`` / ``vxm`` as one collective task per worker (:mod:`.exchange`)."""
        p = self.placement
        s, workers = p.s, p.workers
        M, u = (A, B) if kind == "mxv" else (B, A)
        token = self._exchange[1]
        results = {}
        for rank, w in enumerate(workers):
            blocks = {(i, j): M.parts[i][j] for i in range(s) for j in range(s) if p.block(i, j) == w}
            owned = [k for k in range(s) if p.segment(k) == w]
            remaps = {(i, j): remap(i, j if kind == "mxv" else i, j) for (i, j) in blocks}   # inner: j or i
            results[w] = self._submit(
                w, _exchange.collective_product, token, self._collective.get(w), kind, workers, s, rank, semiring,
                add, blocks, {k: u.parts[k] for k in owned}, mask is not None,
                {} if mask is None else {k: mask.parts[k] for k in owned},
                {} if out is None else {k: out.parts[k] for k in owned}, remaps, accum, structural, complement,
                replace)
        self._collective = results
        segs = [self._submit(p.segment(o), tasks.pick, results[p.segment(o)], o) for o in range(s)]
        return DVector(shape, segs, p)

    def mxv(self, A, u, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        self._check(A, 2, "A"), self._check(u, 1, "u")
        return self._product("mxv", A, u, semiring, out, mask, accum, structural, complement, replace)

    def vxm(self, u, A, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        self._check(u, 1, "u"), self._check(A, 2, "A")
        return self._product("vxm", u, A, semiring, out, mask, accum, structural, complement, replace)

    def mxm(self, A, B, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        self._check(A, 2, "A"), self._check(B, 2, "B")
        return self._product("mxm", A, B, semiring, out, mask, accum, structural, complement, replace)

    def _each(self, method, objs, out, mask, accum, structural, complement, replace, *extra, ref=None,
              copy_first=False, **kw):
        """``method`` on each segment or block of ``objs`` (all of one shape), where it lives."""
        ref = ref if ref is not None else objs[0]
        p = self._same(*objs, out, mask, ref)
        ndim = 1 if isinstance(ref, DVector) else 2
        for x in objs:
            self._check(x, ndim, "operand", ref.shape)
        self._outargs(ref.shape, ndim, out, mask, accum, complement)
        kw.update(mask=None, accum=accum, structural=structural, complement=complement, replace=replace)
        flat = [self._flat(x) for x in objs]
        fo = None if out is None else self._flat(out)
        fm = None if mask is None else self._flat(mask)
        result = []
        for b in range(len(self._flat(ref))):
            where = p.segment(b) if ndim == 1 else p.block(*divmod(b, p.s))
            kw_b = dict(kw, mask=None if fm is None else fm[b])
            if not copy_first:
                kw_b["out"] = None if fo is None else fo[b]
            result.append(self._submit(where, tasks.call, method, *[f[b] for f in flat], *extra,
                                       copy_first=copy_first, **kw_b))
        return self._wrap(ref, result, p)

    def _wrap(self, ref, flat, p):
        if isinstance(ref, DVector):
            return DVector(ref.shape, flat, p)
        return DMatrix(ref.shape, [flat[i * p.s:(i + 1) * p.s] for i in range(p.s)], p)

    def ewise_add(self, x, y, op, *, out=None, mask=None, accum=None,
                  structural=False, complement=False, replace=False):
        _check_name(op, BINARY_OPS, "binary op")
        return self._rebind(out, self._each("ewise_add", (_check_obj(x), _check_obj(y)), out, mask, accum,
                                            structural, complement, replace, op))

    def ewise_mult(self, x, y, op, *, out=None, mask=None, accum=None,
                   structural=False, complement=False, replace=False):
        _check_name(op, BINARY_OPS, "binary op")
        return self._rebind(out, self._each("ewise_mult", (_check_obj(x), _check_obj(y)), out, mask, accum,
                                            structural, complement, replace, op))

    def apply(self, x, op, *, right=None, out=None, mask=None, accum=None,
              structural=False, complement=False, replace=False):
        _check_name(op, UNARY_OPS if right is None else BINARY_OPS, "unary op" if right is None else "binary op")
        return self._rebind(out, self._each("apply", (_check_obj(x),), out, mask, accum, structural, complement,
                                            replace, op, right=right))

    def select(self, x, op, thunk=None, *, out=None, mask=None, accum=None,
               structural=False, complement=False, replace=False):
        _check_name(op, SELECT_OPS, "select op")
        _check_obj(x)
        if op not in _INDEX_SELECT:
            return self._rebind(out, self._each("select", (x,), out, mask, accum, structural, complement,
                                                replace, op, thunk))
        p = self._same(x, out, mask)
        ndim = 1 if isinstance(x, DVector) else 2
        if ndim == 1 and op not in ("rowle", "rowgt"):
            raise InvalidArgumentError(f"select op {op!r} needs a matrix")
        self._outargs(x.shape, ndim, out, mask, accum, complement)
        Lr = self.layout(x.shape[0])
        Lc = self.layout(x.shape[1]) if ndim == 2 else None
        fo = None if out is None else self._flat(out)
        fm = None if mask is None else self._flat(mask)
        result = []
        for b, f in enumerate(self._flat(x)):
            i, j = (b, None) if ndim == 1 else divmod(b, p.s)
            where = p.segment(b) if ndim == 1 else p.block(i, j)
            result.append(self._submit(where, tasks.select_index, f, op, thunk, (Lr, i),
                                       None if Lc is None else (Lc, j), None if fo is None else fo[b],
                                       None if fm is None else fm[b], accum, structural, complement, replace))
        return self._rebind(out, self._wrap(x, result, p))

    def reduce(self, x, monoid):
        _check_name(monoid, MONOIDS, "monoid")
        got = self._gather(self._per_part(tasks.reduce, _check_obj(x), monoid))
        if monoid == "any":
            return next((v for n, v in got if n), got[0][1])
        values = np.array([v for _, v in got])
        dtype = monoid_type(monoid, values.dtype)
        return dtype.type(_MONOID_UFUNC[monoid].reduce(values.astype(dtype))).item()

    def reduce_rows(self, A, monoid, *, out=None, mask=None, accum=None,
                    structural=False, complement=False, replace=False):
        _check_name(monoid, MONOIDS, "monoid")
        p = self._same(self._check(A, 2, "A"), out, mask)
        shape = (A.shape[0],)
        self._outargs(shape, 1, out, mask, accum, complement)
        segs = []
        for i in range(p.s):
            partials = [self._submit(p.block(i, j), tasks.call, "reduce_rows", A.parts[i][j], monoid)
                        for j in range(p.s)]
            segs.append(self._submit(p.segment(i), tasks.combine, monoid, None if out is None else out.parts[i],
                                     None if mask is None else mask.parts[i], accum, structural, complement,
                                     replace, *partials))
        return self._rebind(out, DVector(shape, segs, p))

    def _index_parts(self, index, size):
        """Per segment of the index, the futures of its per-target-segment requests."""
        p, target = self.placement, self.layout(size)
        if isinstance(index, DVector):
            self._same(index)
            routes = [self._submit(p.segment(k), tasks.route, f, target, size) for k, f in enumerate(index.parts)]
            return index.shape[0], [[self._submit(p.segment(k), tasks.pick, r, t) for t in range(p.s)]
                                    for k, r in enumerate(routes)]
        idx = np.asarray(index).astype(np.int64).ravel()
        _check_range(idx, size, "index")
        L = self.layout(idx.size)
        out = []
        for k in range(p.s):
            seg, local = target.locate(idx[L.ids(k)])
            out.append(list(tasks.split(seg, p.s, np.arange(seg.size, dtype=np.int64), local)))
        return idx.size, out

    def extract(self, u, index, *, out=None, mask=None, accum=None,
                structural=False, complement=False, replace=False):
        p = self._same(self._check(u, 1, "u"), out, mask)
        if p.s == 1 and isinstance(index, DVector):      # one segment: the local engine's gather, no routing
            self._same(index)
            self._outargs(index.shape, 1, out, mask, accum, complement)
            part = self._submit(p.segment(0), tasks.extract_one, u.parts[0], index.parts[0], u.shape[0],
                                None if out is None else out.parts[0], None if mask is None else mask.parts[0],
                                accum, structural, complement, replace)
            return self._rebind(out, DVector(index.shape, [part], p))
        m, requests = self._index_parts(index, u.shape[0])
        self._outargs((m,), 1, out, mask, accum, complement)
        lengths = self.layout(m).lengths()
        segs = []
        for k in range(p.s):
            # the segments held where output segment k lives answer inside the assembling task
            here = [(u.parts[t], requests[k][t]) for t in range(p.s) if p.segment(t) == p.segment(k)]
            answers = [self._submit(p.segment(t), tasks.gather, u.parts[t], requests[k][t]) for t in range(p.s)
                       if p.segment(t) != p.segment(k)]
            segs.append(self._submit(p.segment(k), tasks.assemble, int(lengths[k]),
                                     None if out is None else out.parts[k], None if mask is None else mask.parts[k],
                                     accum, structural, complement, replace, *answers, local=here))
        return self._rebind(out, DVector((m,), segs, p))

    def assign(self, w, u, *, mask=None, accum=None, structural=False, complement=False, replace=False):
        _check_obj(w)
        if isinstance(u, _DObject):
            result = self._each("assign", (w, u), None, mask, accum, structural, complement, replace,
                                copy_first=True)
        else:
            result = self._each("assign", (w,), None, mask, accum, structural, complement, replace, u,
                                copy_first=True)
        return self._rebind(w, result)

    def scatter(self, w, index, values, *, dup="min", accum="min"):
        p = self._same(self._check(w, 1, "w"))
        if dup is not None:
            _check_name(dup, BINARY_OPS, "binary op")
        if accum is not None:
            _check_name(accum, BINARY_OPS, "binary op")
        n = w.shape[0]
        target = self.layout(n)
        if not isinstance(index, DVector) and not isinstance(values, DVector):
            idx = np.asarray(index).astype(np.int64).ravel()
            vals = np.asarray(values).ravel()
            if vals.shape != idx.shape:
                raise InvalidArgumentError(f"index and values lengths differ: {idx.size} != {vals.size}")
            _check_range(idx, n, "index")
            seg, local = target.locate(idx)
            pieces = tasks.split(seg, p.s, local, vals)
            segs = [self._submit(p.segment(k), tasks.scatter, w.parts[k], dup, accum,
                                 self._put(list(pieces[k]), p.segment(k))) for k in range(p.s)]
            return self._rebind(w, DVector(w.shape, segs, p))
        if not isinstance(index, DVector):
            index = self.vector_from_numpy(np.asarray(index).astype(np.int64).ravel())
        if not isinstance(values, DVector):
            values = self.vector_from_numpy(np.asarray(values).ravel())
        self._same(index, values)
        if index.shape != values.shape:
            raise InvalidArgumentError(f"index and values lengths differ: {index.shape[0]} != {values.shape[0]}")
        if p.s == 1:                                    # one segment: the local engine's scatter, no routing
            part = self._submit(p.segment(0), tasks.scatter_one, w.parts[0], index.parts[0], values.parts[0], dup,
                                accum, n)
            return self._rebind(w, DVector(w.shape, [part], p))
        L = self.layout(index.shape[0])
        routed = [self._submit(p.segment(t), tasks.route_values, index.parts[t], values.parts[t], L, t, target, n,
                               dup) for t in range(p.s)]
        segs = []
        for k in range(p.s):
            # a routing made where segment k lives is picked from inside the scattering task
            pieces = [self._submit(p.segment(t), tasks.pick, routed[t], k) for t in range(p.s)
                      if p.segment(t) != p.segment(k)]
            here = [routed[t] for t in range(p.s) if p.segment(t) == p.segment(k)]
            segs.append(self._submit(p.segment(k), tasks.scatter, w.parts[k], dup, accum, *pieces,
                                     local=here, k=k))
        return self._rebind(w, DVector(w.shape, segs, p))

    # ---------------------------------------------------------------- measurement
    def traffic(self, x):
        """Bytes of ``x``'s entries (indices and values), per segment or block: what one transfer moves."""
        return self._gather(self._per_part(tasks.nbytes, _check_obj(x)))


class _NotAScheduler(OSError):
    """Something answers at the address, but not as a Dask scheduler (why, in words)."""


def _connect_timeout():
    """Dask's connect timeout in seconds (``distributed.comm.timeouts.connect``, 30 s by default)."""
    return dask.utils.parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), default="seconds")


def _check_scheduler(address):
    """Raise :class:`_NotAScheduler` unless a Dask scheduler completes Dask's handshake at ``address``
    within the connect timeout; OSError where nothing answers there, ValueError for a malformed address.

    distributed's own connect waits for the handshake without a limit: a server that accepts and stays
    silent -- the dashboard's port 8787 given for the scheduler's 8786, any HTTP server -- made
    ``Client(address)`` hang for good, and one that answers first with other bytes made its frame reader
    allocate exabytes (numpy's MemoryError).  Only ``tcp://`` and ``tls://`` addresses are checked.
    """
    scheme, loc = distributed.comm.parse_address(address)
    if scheme not in ("tcp", "tls"):
        return
    host, port = distributed.comm.parse_host_port(loc)      # ValueError: no port
    seconds = _connect_timeout()
    args = distributed.security.Security().get_connection_args("client")

    async def shake():
        # connect() retries a refused connection for `seconds`, then raises OSError; the margin leaves that
        # error to it, so that the outer timeout is a silent server's
        comm = await asyncio.wait_for(distributed.comm.connect(address, timeout=seconds, **args), seconds + 1)
        await comm.close()

    outcome = []

    def attempt():                        # a thread of its own: the caller may run inside an event loop
        try:
            asyncio.run(shake())
            outcome.append(None)
        except BaseException as exc:      # noqa: BLE001 - handed to the caller
            outcome.append(exc)

    t = threading.Thread(target=attempt, name="la_graph: is it a Dask scheduler?", daemon=True)
    t.start()
    t.join(seconds + 5)
    exc = outcome[0] if outcome else TimeoutError()
    if exc is None:
        return
    if type(exc) is OSError:
        raise exc                         # nothing listens there (connect's own error, after its retries)
    hint = (f"8787 is the port of Dask's dashboard, a web page; the scheduler listens on 8786 by default: "
            f"try {scheme}://{host}:8786" if port == 8787 else
            "an HTTP server such as Dask's dashboard, or another service? Give the scheduler's own address "
            "(port 8786 by default; 'dask scheduler' prints it)")
    if isinstance(exc, TimeoutError):
        what = f"something accepted the connection but sent no Dask handshake within {seconds + 1:g} s"
    elif isinstance(exc, distributed.comm.CommClosedError):
        what = "something accepted the connection and closed it during Dask's handshake"
    else:
        what = f"something answered with bytes that are not Dask's protocol ({type(exc).__name__})"
    raise _NotAScheduler(f"{what}: not a Dask scheduler; {hint}") from exc


def _close_unmade(exc):
    """Close the :class:`distributed.Client` whose constructor raised ``exc`` (its frame is in the traceback).

    Left to the garbage collector, its ``__del__`` closes it whenever a collection runs: once inside another
    Client's IO-loop start-up, which holds distributed's loop lock that the close waits for (the start-up
    gave up after 10 s with an AssertionError, or hung).
    """
    tb = exc.__traceback__
    while tb is not None:
        made = tb.tb_frame.f_locals.get("self")
        if isinstance(made, distributed.Client):
            with contextlib.suppress(Exception):
                made.close()
            return
        tb = tb.tb_next


def local_cluster(workers, local="cpu"):
    """``(client, cluster)`` of ``workers`` worker processes on this machine, one thread each.

    ``local="gpu"``: dask-cuda's LocalCUDACluster, one worker per GPU (``workers`` of them).

    The worker processes never see SIGINT (:func:`_sigint_blocked`), and a script that would start them
    from its top level without ``if __name__ == "__main__":`` is refused (:func:`_check_main_guarded`).
    """
    _check_main_guarded()
    if local == "gpu":
        try:
            import dask_cuda
        except ImportError as exc:
            raise EngineUnavailable(f"GPU workers need dask-cuda ({exc}): pip install dask-cuda") from exc
    with _sigint_blocked():
        if local == "gpu":
            cluster = dask_cuda.LocalCUDACluster(n_workers=workers, dashboard_address=":0", silence_logs=50)
        else:
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                               dashboard_address=":0", silence_logs=50)
        return distributed.Client(cluster), cluster


#: the error of a script that starts the LocalCluster from its top level, unguarded
UNGUARDED_MAIN = ("the dask engine starts a LocalCluster of worker processes, and each of them imports the main "
                  "script {script} again (Python's 'spawn' start), which would start a cluster of its own: guard "
                  "the script's top-level code with 'if __name__ == \"__main__\":' (or give the engine a "
                  "scheduler: address=, $LA_GRAPH_DASK_SCHEDULER)")


def _check_main_guarded():
    """Refuse to start worker processes from a script's unguarded top level (EngineUnavailable).

    Each worker process re-imports the main script; unguarded, the import runs the algorithm again, whose
    LocalCluster then fails to start in every worker ("Nanny failed to start": 337 lines of tracebacks).
    Caught here twice: in such a re-import (multiprocessing is still bootstrapping the process), and
    before that in the script itself, when its running top-level statement is in no
    ``if __name__ == "__main__":`` block.
    """
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise EngineUnavailable(UNGUARDED_MAIN.format(script="(this process is one of them)"))
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if path is None or dask.config.get("distributed.worker.multiprocessing-method", "spawn") == "fork":
        return                                    # interactive, or children that import nothing
    frame = sys._getframe(1)
    while frame is not None and not (frame.f_globals is main.__dict__ and frame.f_code.co_name == "<module>"):
        frame = frame.f_back
    if frame is None:
        return                                    # the script's top level is not running (a callback, a thread)
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return                                    # no source to tell by
    line = frame.f_lineno
    for node in tree.body:
        if isinstance(node, ast.If) and node.lineno <= line <= node.end_lineno and _names_main(node.test):
            return
    raise EngineUnavailable(UNGUARDED_MAIN.format(script=repr(path)))


def _names_main(test):
    """Whether an ``if`` test compares ``__name__`` with ``"__main__"`` (either way round, ``==`` or ``!=``)."""
    names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
    words = {n.value for n in ast.walk(test) if isinstance(n, ast.Constant)}
    return "__name__" in names and "__main__" in words


@contextlib.contextmanager
def _sigint_blocked():
    """SIGINT blocked in this thread while the worker processes start.

    The threads started meanwhile (distributed's event loop, which starts the processes) and the
    processes themselves inherit the blocked mask: Ctrl-C at a terminal, sent to the whole process
    group, then interrupts this process alone, where the command line reports it in one line and
    the cluster is closed, instead of every worker printing its own KeyboardInterrupt traceback.
    A SIGINT that comes meanwhile waits, and interrupts this thread once the block ends.
    """
    if not hasattr(signal, "pthread_sigmask"):    # pragma: no cover - Windows
        yield
        return
    # multiprocessing's resource tracker, started by the first worker process, unblocks SIGINT in the thread
    # that starts it (distributed's event loop, whose later threads start the workers): started here first
    multiprocessing.resource_tracker.ensure_running()
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


#: what to do when a worker runs out of memory, by its local engine
_MEMORY_HINT = {"gpu": "use more GPU workers (the graph's blocks spread over them), a smaller graph, or free GPU "
                       "memory on the workers",
                "host": "use more workers or workers with more memory, or a smaller graph"}
_BY_NAME = {"OutOfDeviceMemory": OutOfDeviceMemory, "OutOfMemory": OutOfMemory}


def client_error(exc, local):
    """A worker's error as the client raises it (``local``: the workers' engine).

    la_graph's own errors arrive as they were raised (their bytes and hints in the message).  A
    memory error of another library -- CuPy's out-of-memory error raised outside the GPU engine's
    operations, a plain ``MemoryError`` -- becomes :class:`~la_graph.exceptions.OutOfDeviceMemory`
    on GPU workers and :class:`~la_graph.exceptions.OutOfMemory` on host workers, its text kept and
    a hint added.  An error Dask could not rebuild on the client arrives as a bare ``Exception``
    holding its repr; one of la_graph's memory errors is rebuilt from that text.  Anything else is
    returned as it is.

    Examples
    --------
    >>> client_error(Exception("OutOfDeviceMemory('needs about 1,024 bytes of GPU memory')"), "gpu")
    OutOfDeviceMemory('needs about 1,024 bytes of GPU memory')
    >>> e = client_error(MemoryError("Out of memory allocating 512 bytes"), "gpu")
    >>> type(e).__name__, str(e)[:69]
    ('OutOfDeviceMemory', 'a GPU worker ran out of memory (MemoryError: Out of memory allocating')
    """
    if isinstance(exc, LaGraphError):
        return exc
    if type(exc) is Exception and len(exc.args) == 1 and isinstance(exc.args[0], str):
        name, paren, rest = exc.args[0].partition("(")
        cls = _BY_NAME.get(name)
        if cls is not None and paren and rest.endswith(")"):
            try:
                args = ast.literal_eval(f"({rest[:-1]},)")
            except (ValueError, SyntaxError):
                args = (rest[:-1],)
            return cls(*args)
    if isinstance(exc, MemoryError):
        gpu = local == "gpu"
        return (OutOfDeviceMemory if gpu else OutOfMemory)(
            f"a {'GPU' if gpu else 'Dask'} worker ran out of memory ({type(exc).__name__}: {exc}); "
            f"{_MEMORY_HINT['gpu' if gpu else 'host']}")
    return exc


def _check_obj(x):
    if not isinstance(x, _DObject):
        raise InvalidArgumentError(f"expected a vector or matrix of the dask engine, got {type(x).__name__}")
    return x


def _low_latency(client):
    """Dask's batched message streams (client, scheduler, workers) made to send at once."""
    comm = getattr(client, "scheduler_comm", None)
    if comm is not None and hasattr(comm, "interval"):
        comm.interval = 0.0
    client.run_on_scheduler(_scheduler_streams)
    client.run(_worker_stream)


def _scheduler_streams(dask_scheduler):
    for comm in [*dask_scheduler.stream_comms.values(), *dask_scheduler.client_comms.values()]:
        if hasattr(comm, "interval"):
            comm.interval = 0.0


def _worker_stream(dask_worker):
    stream = getattr(dask_worker, "batched_stream", None)
    if stream is not None and hasattr(stream, "interval"):
        stream.interval = 0.0


def _scheduler_workers(dask_scheduler):
    return list(dask_scheduler.workers)


def _has_n_workers(client):
    import inspect
    return "n_workers" in inspect.signature(client.scheduler_info).parameters


def _close(client, cluster):
    try:
        client.close()
        if cluster is not None:
            cluster.close()
    except Exception:  # noqa: BLE001 - interpreter shutdown: nothing to report to
        pass


from .graph import DistributedGraph  # noqa: E402 - they build on the engine above
from .loading import read_edges, rmat  # noqa: E402
