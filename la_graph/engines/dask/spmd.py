"""SPMD runs of the distributed engine: the algorithm runs on the workers, one copy per worker.

Driven from the client, every primitive of the distributed engine costs a
round trip through the Dask scheduler (about 4 ms), and so does every scalar
an iteration waits for; every segment that moves is pickled through the host.
:meth:`DaskEngine.run <la_graph.engines.dask.DaskEngine.run>` runs the
algorithm itself on the workers instead: one task per worker, each running
the same algorithm function with an :class:`SpmdEngine` of its own, and the
client receives rank 0's result.

An :class:`SpmdEngine` is the distributed engine with its decomposition
unchanged (the same blocks, segments, placement and tasks); only the
carrying out of a task differs.  Every worker runs the same sequence of
primitives, so every worker makes the same sequence of ``_submit(worker, fn,
*args)`` calls.  For each:

* every input of the task that ``worker`` does not hold is sent to it by the
  worker that made it (one message per pair of workers and task), point to
  point over the engine's exchange (:mod:`.transport`);
* ``worker`` runs the task at once and keeps its value; every other worker
  keeps a placeholder (an :class:`SpmdFuture` without a value) that knows
  where the value is.  Which worker holds which value is tracked alike on
  every worker, so a value moves to a worker once;
* waiting is nothing: the tasks ran.  A value the algorithm reads (``nvals``,
  ``reduce``, ``to_numpy``...) is sent by its holder to every worker, so every
  worker sees the same scalars and takes the same branches: the programs stay
  in step, and the messages between two workers pair up in order.

The collective products of :mod:`.exchange` run as they do from the client
(one share per worker, each worker running its own when its turn comes).
On CPU workers, BFS's search and connected components' labels run as the
fused steps of :mod:`.fused` (compiled loops over each rank's own blocks).

Errors: a task that fails leaves an :class:`~.transport.Erred` value; a
task given one fails alike without running, and an erred value that is read
raises its error on every worker at once, so no worker waits for a message
that never comes.  A worker that fails outside the tasks (its messages lost,
an error of its own) ends its task; the client, waiting on the tasks, then
aborts the exchange on every worker, which releases any waiting receive
(:class:`~.exchange.PeerFailed`), and raises the failed worker's error.

What travels to the workers: a vector or matrix of the engine as the keys of
its parts (each worker receives its own parts, where they already are); a
:class:`~.graph.DistributedGraph` as its parts and its scalars (its degree
arrays, ``16 n`` bytes, are not sent: the ranks gather them from the degree
vectors, device to device, when the algorithm first reads them, and keep them
for the next runs of the graph); a
host :class:`~la_graph.Graph` as its CSR arrays (sent once), with the blocks
the client engine has already laid out.  Blocks a host graph still needs are
built by the workers from the arrays during each run, so lay a host graph out
first (``E.matrix(G)``) or load it as a ``DistributedGraph`` for repeated runs.

What travels back: rank 0's result.  When the client and rank 0 share a
``/dev/shm`` (one host) and the result's arrays hold 16 MiB or more, rank 0
writes them to a file there and the client maps it (:func:`_result_file`);
otherwise, through Dask.
"""

from __future__ import annotations

import logging
import mmap
import os
import pickle
import tempfile

import numpy as np

from ...exceptions import InvalidArgumentError
from ...graph import Graph
from ..base import Engine
from . import exchange as _exchange
from . import fused as _fused
from . import transport as _transport
from .exchange import PeerFailed
from .graph import DistributedGraph
from .objects import OTHER_PLACEMENT, DMatrix, DVector, Placement, _DObject
from .operators import BlockEngine
from .tasks import _E as _local_engine
from .transport import Erred

__all__ = ["SpmdEngine", "SpmdFuture", "run"]

_NONE = object()
_EXCHANGES = ("local", "nccl", "tcp")      # the exchanges that carry a run's messages
_GRAPH_PARTS = ("A", "AT", "dout", "din")


class SpmdFuture:
    """A part handle on one rank of an SPMD run: the rank that made the value (``owner``), the ranks that hold
    it (``holders``, tracked alike on every rank) and, where this rank holds it, the value."""

    __slots__ = ("owner", "holders", "value", "__weakref__")

    def __init__(self, owner, value=_NONE):
        self.owner, self.holders, self.value = owner, frozenset((owner,)), value

    def __repr__(self):
        held = "" if self.value is _NONE else ", held"
        return f"SpmdFuture(owner={self.owner}{held})"


class SpmdEngine(BlockEngine):
    """The distributed engine on one worker of an SPMD run (see the module docstring).

    Made by :func:`run_rank` on each worker, never by hand.

    Parameters
    ----------
    local : str
        The workers' local engine.
    rank : int
        This worker's rank: its index in ``workers``.
    workers : sequence of str
        The addresses of the workers of the run, in rank order.
    s : int
        Blocks per matrix side.
    token : int
        The client engine's placement token (its objects' layout).
    seed : int
        The client engine's permutation seed.
    channel : Channel or None
        Messages to the other workers (None with one worker).
    exchange : tuple
        The client engine's ``(exchange kind, token)``; ``mxv`` and ``vxm`` run as collective products
        where that kind is ``"local"``, ``"tcp"`` or ``"nccl"`` and ``collective`` is true.
    collective : bool
        False: ``mxv`` and ``vxm`` run as the engine's generic tasks instead (segments moved to the
        blocks, partial results to the output's segments); on CPU workers both took the same time.
    """

    def __init__(self, local, rank, workers, s, token, seed, channel, exchange, collective=True):
        super().__init__(grid=s, local=local, seed=seed)
        self.rank, self.channel = int(rank), channel
        self._placement = Placement(workers, s)
        self._placement.token = token
        self._ranks = {w: r for r, w in enumerate(workers)}
        self._everyone = tuple(range(len(workers)))
        kind, xtoken = exchange
        self._exchange = (kind if collective and kind in _EXCHANGES else "dask", xtoken)
        self._own_error = None         # the first error of a task run here (not a peer's PeerFailed)
        self._device_parts = local == "gpu"

    @property
    def client(self):
        raise InvalidArgumentError("an SPMD engine runs on a Dask worker and has no client; its work is carried "
                                   "out on the spot by every worker")

    @property
    def cache_key(self):
        return ("dask", self._placement.token, "spmd", self.rank)

    def run(self, fn, *args, **kwargs):
        raise InvalidArgumentError("SPMD runs do not nest: call fn(..., engine=E) inside a run")

    @property
    def _collective_products(self):
        return self._exchange[0] != "dask"          # (the tasks run in program order: no queue to block)

    @property
    def fused_steps(self):
        """The SPMD runs' own fused steps (:mod:`.fused`) on CPU workers; none elsewhere."""
        return _fused.STEPS if self.local == "cpu" else super().fused_steps

    def _part(self, owner, value=None):
        """A part made by a fused step: held by rank ``owner``; ``value`` where this rank is the owner."""
        return SpmdFuture(owner, _NONE if value is None else value)

    def hint(self, x, storage):
        """On CPU ranks, the local engine's storage hint on the parts of ``x`` this rank holds, in place and
        without a message (every rank hints its own): a pulled frontier hinted dense is read as a bitmap by the
        block products (on R-MAT 18, one worker, a BFS pull level took 71 ms of SuiteSparse's time on the
        sparse frontier)."""
        Engine.hint(self, x, storage)
        if isinstance(x, _DObject) and self.local == "cpu":     # (GPU ranks: as before, no hint)
            E = _local_engine(self.local)
            for f in self._flat(x):
                if f.value is not _NONE and not isinstance(f.value, Erred):
                    E.hint(f.value, storage)
        return x

    # ---------------------------------------------------------------- carrying tasks out
    def _submit(self, worker, fn, *args, **kwargs):
        dst = self._ranks[worker]
        futures = _futures((args, kwargs))
        self._move(futures, (dst,))
        if dst != self.rank:
            return SpmdFuture(dst)
        erred = []
        if futures:
            args, kwargs = _values((args, kwargs), erred)
        if erred:
            return SpmdFuture(dst, erred[0])
        try:
            value = fn(self.local, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - kept as the value: raised where it is read, on every rank
            value = Erred(exc)
            if self._own_error is None and not isinstance(exc, PeerFailed):
                self._own_error = exc
        return SpmdFuture(dst, value)

    def _move(self, futures, dsts):
        """Copy the values of ``futures`` to the ranks of ``dsts`` that lack them: for each holder and the
        destinations that lack the same values, one message (pickled once), in an order every rank derives
        alike."""
        plan = {}                                       # owner -> {destination: [futures]}
        for f in futures:
            for d in dsts:
                if d not in f.holders:
                    plan.setdefault(f.owner, {}).setdefault(d, []).append(f)
        for src in sorted(plan):
            groups = {}                                 # the same futures -> the destinations lacking them
            for d in sorted(plan[src]):
                fs = plan[src][d]
                groups.setdefault(tuple(map(id, fs)), (fs, []))[1].append(d)
            for fs, ds in groups.values():
                if self.rank == src:
                    self.channel.send(ds, [f.value for f in fs])
                elif self.rank in ds:
                    for f, v in zip(fs, self.channel.recv(src)):
                        f.value = v
                for f in fs:
                    f.holders = f.holders.union(ds)

    def _wait(self, futures):
        """Nothing to wait for: every task ran when it was submitted."""

    def _gather(self, futures):
        """The values of ``futures``, the same on every rank (each holder sends its own to the others).

        An erred value raises on every rank: its error, or where all are a peer's
        :class:`~.exchange.PeerFailed` (a collective product whose failed share's value is not among
        them), the error of this rank's own failed task, if any, so that the client sees it.
        """
        self._move(_futures(futures), self._everyone)
        values = [f.value for f in futures]
        errors = [v.exc for v in values if isinstance(v, Erred)]
        if errors:
            raise next((e for e in errors if not isinstance(e, PeerFailed)), self._own_error or errors[0])
        return values

    def synchronize(self):
        pass

    def _put(self, data, worker):
        return data                                     # every rank has it: the task's rank uses its own

    def _check_memory(self, n, nnz, itemsize):
        pass                                            # checked by the client engine's layout, if at all

    def _check_workers(self):
        pass

    # ---------------------------------------------------------------- arguments from the client
    def _rebuild(self, spec, parts, hosts):
        """The objects of ``spec`` (:func:`_describe`) on this rank: ``parts`` holds this rank's part values,
        ``hosts`` the host attributes of the graphs."""
        made, futures = {}, {}

        def part(pid, owner):
            f = futures.get(pid)
            if f is None:
                rank = self._ranks[owner]
                f = futures[pid] = SpmdFuture(rank, parts[pid] if rank == self.rank else _NONE)
            return f

        def obj(ref):
            i = ref.index
            if i in made:
                return made[i]
            what, *rest = ref.spec
            p = self._placement
            if what in ("vector", "matrix"):
                shape, pids = rest
                x = (DVector if what == "vector" else DMatrix)(shape, [], p)
                flat = [part(pid, w) for pid, w in zip(pids, self._where(x))]
                x.parts = flat if what == "vector" else [flat[i * p.s:(i + 1) * p.s] for i in range(p.s)]
            elif what == "distributed":
                host, cached = rest
                h = hosts[host]
                m = {name: obj(r) for name, r in cached.items()}
                x = DistributedGraph(self, h["n"], h["directed"], h["weighted"], m["A"], m["AT"], m["dout"],
                                     m["din"], None, None, h["nnz"], h["self_loops"],
                                     h["weight_range"], token=h["token"], _trusted=True)
            else:                                       # a host graph: this rank's own Graph of its arrays
                host, cached = rest
                x = hosts[host]._with(directed=hosts[host].directed)
                for name, r in cached.items():
                    x._engine_cache[(self.cache_key, name)] = obj(r)
            made[i] = x
            return x

        return _walk(spec, lambda x: obj(x) if isinstance(x, _Ref) else x)


class _Ref:
    """An object of the client in a run's arguments: its index and description."""

    __slots__ = ("index", "spec")

    def __init__(self, index, spec):
        self.index, self.spec = index, spec


def _walk(x, leaf):
    """``x`` with ``leaf`` applied to everything that is not a list, tuple or dict (those are rebuilt)."""
    t = type(x)
    if t is list or t is tuple:
        return t(_walk(v, leaf) for v in x)
    if t is dict:
        return {k: _walk(v, leaf) for k, v in x.items()}
    return leaf(x)


def _futures(x):
    """The SpmdFutures in ``x`` (nested lists, tuples, dicts), each once, in order."""
    found = {}
    _find(x, found)
    return list(found.values())


def _find(x, found):
    """Add the SpmdFutures in ``x`` to ``found`` (by id), without rebuilding the containers: SSSP submits
    about a thousand tasks per run on R-MAT 16, and rebuilding every argument twice per task took a tenth of
    its time on one worker."""
    t = type(x)
    if t is SpmdFuture:
        found.setdefault(id(x), x)
    elif t is list or t is tuple:
        for v in x:
            _find(v, found)
    elif t is dict:
        for v in x.values():
            _find(v, found)


def _values(x, erred):
    """``x`` with its futures replaced by their values (this rank holds them); erred values go to ``erred``."""
    def leaf(v):
        if type(v) is not SpmdFuture:
            return v
        if isinstance(v.value, Erred):
            erred.append(v.value)
        return v.value

    return _walk(x, leaf)


# -------------------------------------------------------------------- the client side
class _Describer:
    """The client's arguments of a run turned into descriptions the workers rebuild (see the module docstring)."""

    def __init__(self, E):
        self.E, self.p = E, E.placement
        self.refs = {}            # id(object) -> _Ref
        self.pids = {}            # id(part future) -> part id
        self.parts = {}           # worker -> {part id: future}
        self.hosts = {}           # host index -> future of the host attributes (scattered to every worker)
        self.keep = []            # what the descriptions name, alive until the run is submitted

    def __call__(self, x):
        if isinstance(x, _DObject):
            return self._obj(x)
        if isinstance(x, DistributedGraph):
            return self._graph(x, "distributed")
        if type(x) is Graph:
            return self._graph(x, "graph")
        return x

    def _ref(self, x, make):
        r = self.refs.get(id(x))
        if r is None:
            self.keep.append(x)
            r = self.refs[id(x)] = _Ref(len(self.refs), None)
            r.spec = make()
        return r

    def _obj(self, x):
        if x.placement is not self.p:
            raise InvalidArgumentError(OTHER_PLACEMENT)

        def make():
            pids = []
            for w, f in zip(self.E._where(x), self.E._flat(x)):
                pid = self.pids.setdefault(id(f), len(self.pids))
                self.parts.setdefault(w, {})[pid] = f
                pids.append(pid)
            return ("vector" if isinstance(x, DVector) else "matrix", x.shape, pids)

        return self._ref(x, make)

    def _graph(self, G, kind):
        E, key = self.E, self.E.cache_key

        def make():
            if kind == "distributed":
                G._blocks()                             # raises if the cluster changed since it was built
                if G._key != key:
                    raise InvalidArgumentError(f"{G!r} was built by another dask engine: run it with that one")
            host = G._engine_cache.get((key, "spmd"))
            if host is None:
                if kind == "distributed":
                    # (no degree arrays: a rank gathers them from the degree vectors if the algorithm reads them)
                    attrs = {"n": G.n, "directed": G.directed, "weighted": G.weighted, "nnz": G.nnz,
                             "self_loops": G.self_loops, "weight_range": G.weight_range(), "token": G._token}
                else:
                    attrs = G._with(directed=G.directed)          # the arrays, not the caches
                # (in a list: a dict scattered alone is taken as {key: data}, each value a future of its own)
                host = G._engine_cache[(key, "spmd")] = E.client.scatter([attrs], broadcast=True, hash=False)[0]
            index = len(self.hosts)
            self.hosts[index] = host
            cached = {name: self._obj(G._engine_cache[(key, name)]) for name in _GRAPH_PARTS
                      if (key, name) in G._engine_cache}
            return (kind, index, cached)

        return self._ref(G, make)


def run(E, fn, args, kwargs, collective=True):
    """``fn(*args, engine=<each worker's SpmdEngine>, **kwargs)`` on every worker of dask engine ``E``;
    rank 0's result (see :meth:`DaskEngine.run <la_graph.engines.dask.DaskEngine.run>`)."""
    if not callable(fn):
        raise InvalidArgumentError(f"E.run needs a function to run on every worker, got {type(fn).__name__}")
    if "engine" in kwargs:
        raise InvalidArgumentError("E.run passes engine= to fn itself (each worker's SPMD engine)")
    p = E.placement
    kind, token = E._exchange
    if len(p.workers) > 1 and kind not in _EXCHANGES:
        raise InvalidArgumentError(
            f"E.run moves values between the workers over the engine's exchange, and this engine's is {kind!r}: "
            f"GPU workers, each on a GPU of its own, exchange over NCCL (exchange='nccl'), CPU worker processes "
            f"over TCP (exchange='tcp', their default), the threads of one process through memory "
            f"(exchange='local'); Dask's own transfers cannot carry an SPMD run")
    E.synchronize()                                     # no collective product of the client's left in flight
    d = _Describer(E)
    spec = _walk((tuple(args), dict(kwargs)), d)
    box = _result_file()
    try:
        tasks = [E.client.submit(run_rank, E.local, rank, p.workers, p.s, p.token, E._seed, E._exchange,
                                 collective, fn, spec, d.parts.get(w, {}), d.hosts, box if rank == 0 else None,
                                 workers=[w], allow_other_workers=False, pure=False)
                 for rank, w in enumerate(p.workers)]
        return _read_result(E._gather(tasks)[0], box)
    finally:
        if box is not None:
            os.unlink(box)


#: results whose arrays hold at least this many bytes come back through shared memory when they can
SHARED_RESULT_BYTES = 1 << 24
_log = logging.getLogger("la_graph")


class _InFile:
    """Rank 0's result written to the client's file in shared memory: its pickle, arrays left out, and
    the arrays' sizes in the order they follow one another in the file."""

    def __init__(self, payload, sizes):
        self.payload, self.sizes = payload, sizes


def _result_file():
    """An empty file in shared memory (``/dev/shm``) for rank 0's result, or None where there is none.

    Through Dask, a result travels at about 300 MB/s (R-MAT 26's 537 MB of BFS levels took 1.8 s of a
    2.2-s run on four H100s, the algorithm 0.3 s); through shared memory it is two copies.  Rank 0 uses
    the file only if it sees it: a worker on another host (or in another container) does not, and
    returns its result through Dask."""
    if not os.path.isdir("/dev/shm"):
        return None
    fd, path = tempfile.mkstemp(prefix="la_graph-run-", dir="/dev/shm")
    os.close(fd)
    return path


def _to_file(result, path):
    """Rank 0's side of :func:`_result_file`: write ``result``'s arrays to ``path`` and return an
    :class:`_InFile`, or return ``result`` itself (small, or not enough room in shared memory: logged)."""
    buffers = []
    payload = pickle.dumps(result, protocol=5, buffer_callback=buffers.append)
    views = [b.raw() for b in buffers]
    size = sum(v.nbytes for v in views)
    if size < SHARED_RESULT_BYTES:
        return result
    st = os.statvfs(path)
    if st.f_bavail * st.f_frsize < 2 * size:               # (room for it and to spare)
        _log.warning("E.run: rank 0's result (%d bytes) goes back through Dask: shared memory (%s) has %d "
                     "bytes free", size, os.path.dirname(path), st.f_bavail * st.f_frsize)
        return result
    with open(path, "r+b") as f:
        for v in views:
            f.write(v)
    return _InFile(payload, [v.nbytes for v in views])


def _read_result(out, path):
    """The client's side: rank 0's result, read from ``path`` if it was written there."""
    if not isinstance(out, _InFile):
        return out
    with open(path, "r+b") as f:          # the arrays are the file's pages, mapped (they outlive its name)
        whole = memoryview(mmap.mmap(f.fileno(), 0))
    if whole.nbytes != sum(out.sizes):
        raise RuntimeError(f"E.run: rank 0's result in {path} holds {whole.nbytes} bytes, it wrote "
                           f"{sum(out.sizes)}")
    ends = np.cumsum([0] + out.sizes)
    return pickle.loads(out.payload, buffers=[whole[a:b] for a, b in zip(ends[:-1], ends[1:])])


def run_rank(local, rank, workers, s, token, seed, exchange, collective, fn, spec, parts, hosts, box=None):
    """One worker's share of a run (a Dask task): rebuild the arguments, run ``fn``; rank 0 returns its result
    (through ``box``, the client's file in shared memory, when it sees it: :func:`_result_file`)."""
    kind, xtoken = exchange
    channel = _transport.channel(kind, xtoken, rank) if len(workers) > 1 else None
    E = SpmdEngine(local, rank, workers, s, token, seed, channel, exchange, collective)
    args, kwargs = E._rebuild(spec, parts, hosts)
    try:
        result = fn(*args, engine=E, **kwargs)
    finally:
        if kind == "tcp" and channel is not None:
            _exchange.count_sent(xtoken, rank)      # what moved outside the products, counted too
    if rank != 0:
        return None
    held = []
    _walk(result, lambda x: held.append(x) if isinstance(x, _DObject) else x)
    if held:        # its parts are this run's placeholders: nothing the client engine can use
        raise InvalidArgumentError(f"{getattr(fn, '__name__', 'fn')} returned a {type(held[0]).__name__} of the "
                                   f"run's engine, which ends with the run: return host values from E.run (e.g. "
                                   f"engine.to_numpy(x))")
    return _to_file(result, box) if box is not None and os.path.exists(box) else result
