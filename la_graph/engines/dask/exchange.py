"""Products whose vector exchange runs over NCCL between GPU workers, not through Dask.

Through Dask, a product's exchange is pickled and crosses the host: on two H100s
an ``mxv`` over R-MAT 21 moved its 16.8 MB in about 26 ms, where NCCL moves the
same bytes between the same GPUs in 0.1 ms.  With ``exchange="nccl"`` the
engine runs ``mxv`` and ``vxm`` as one *collective* task per worker instead:

1. each worker sends the input segments (and the output mask's segments) it
   holds to the workers whose blocks need them, and receives the ones its own
   blocks need -- one NCCL group of point-to-point sends and receives;
2. multiplies its blocks, reducing the partial results of one output segment
   held here with the semiring's monoid;
3. sends every partial result to the worker of its output segment, which
   reduces what it receives and writes the output (mask, accumulator, replace).

Every worker derives the same plan from the placement (:func:`plan`), so the
sends and receives between two workers pair up in order.  Every message is
a header (dtype, length, presence) and then its bytes; a worker whose step
failed sends a failure header instead, so its peers raise as well and none
waits forever.  The collective tasks of one engine run in the order they were
submitted on every worker (each depends on the worker's previous one): NCCL
needs the same order of exchanges on every rank.

Backends (:func:`start`): ``"nccl"`` (one communicator over the workers, each on
a GPU of its own: NCCL refuses two ranks on one GPU), ``"tcp"`` (a TCP
connection between every two CPU workers, processes on one host or several:
:class:`_Tcp`), and ``"local"``, a mailbox between the workers of a threaded
cluster in one process, for tests of the plan on machines without GPUs.  Each
worker records the seconds it spends computing and exchanging and the bytes it
sends (:func:`stats`).  Over ``"tcp"``, a collective product runs only inside an
SPMD run (:mod:`.spmd`); driven from the client the products go through Dask.
"""

from __future__ import annotations

import collections
import contextlib
import os
import pickle
import queue
import socket
import struct
import threading
import time
import uuid

import distributed
import numpy as np
from distributed import get_worker

from .objects import Placement
from .tasks import _E, combine, nbytes, product

_BACKENDS = {}         # (token, rank) -> a worker's backend
_STATS = collections.defaultdict(collections.Counter)     # worker address -> its counters
_LOCK = threading.Lock()
_MAILBOXES = {}        # the "local" backend: (token, src, dst) -> messages (made under _LOCK: see _mailbox)
_DTYPES = [np.dtype(t) for t in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
                                 "uint64", "float32", "float64")]
_FAILED = -1
TIMEOUT = 600.0        # seconds a "local" receive waits before it reports the peer as stuck


def new_token():
    return uuid.uuid4().hex


# ---------------------------------------------------------------- the plan
def plan(workers, s, kind, rank):
    """What worker ``rank`` does in one collective ``mxv`` / ``vxm`` on an ``s x s`` grid.

    Returns a dict: ``blocks`` the ``(i, j)`` held here, each with its input
    segment ``k`` and output segment ``o``; ``send_in`` / ``recv_in`` the
    ``(peer, "u" or "mask", segment)`` moves of phase 1; ``send_out`` /
    ``recv_out`` the ``(peer, o)`` partial results of phase 2; ``owned`` the
    output segments held here.  Lists are sorted, so two workers post the
    messages between them in the same order.
    """
    P = Placement(workers, s)
    p = len(P.workers)
    rank_of = {w: r for r, w in enumerate(P.workers)}

    def owner(k):
        return rank_of[P.segment(k)]

    def held(r):
        out = []
        for i in range(s):
            for j in range(s):
                if rank_of[P.block(i, j)] == r:
                    k, o = (j, i) if kind == "mxv" else (i, j)
                    out.append(((i, j), k, o))
        return out

    def needs(r):           # what worker r's blocks need from elsewhere
        need = set()
        for _, k, o in held(r):
            need.add(("u", k))
            need.add(("mask", o))
        return need

    blocks = held(rank)
    send_in, recv_in = [], []
    for q in range(p):
        if q == rank:
            continue
        for what, k in sorted(needs(q)):
            if owner(k) == rank:
                send_in.append((q, what, k))
        for what, k in sorted(needs(rank)):
            if owner(k) == q:
                recv_in.append((q, what, k))
    contributes = sorted({o for _, _, o in blocks})
    send_out = [(owner(o), o) for o in contributes if owner(o) != rank]
    recv_out = sorted((q, o) for q in range(p) if q != rank
                      for o in sorted({o for _, _, o in held(q)}) if owner(o) == rank)
    owned = [o for o in range(s) if owner(o) == rank]
    return {"blocks": blocks, "send_in": sorted(send_in), "recv_in": sorted(recv_in), "send_out": send_out,
            "recv_out": recv_out, "owned": owned}


# ---------------------------------------------------------------- the collective task
def collective_product(name, token, previous, kind, workers, s, rank, semiring, add, blocks, segments, masked,
                       masks, outs, remaps, accum, structural, complement, replace):
    """Worker ``rank``'s share of one collective ``mxv`` / ``vxm`` (module docstring); returns
    ``{o: output segment}`` for the output segments held here.

    ``blocks``, ``segments``, ``masks``, ``outs`` hold this worker's objects by
    index (``masks`` / ``outs`` empty when the product has none; ``masked``
    tells whether it has a mask); ``previous`` is this worker's previous
    collective result, only waited for.
    """
    del previous
    E = _E(name)
    X = _BACKENDS[(token, rank)]
    pl = plan(workers, s, kind, rank)
    t0 = time.perf_counter()
    sends = [(q, (segments if what == "u" else masks)[k]) for q, what, k in pl["send_in"] if what == "u" or masked]
    recvs = [(q, what, k) for q, what, k in pl["recv_in"] if what == "u" or masked]
    got = X.exchange(E, sends, [q for q, _, _ in recvs])
    have = {"u": dict(segments), "mask": dict(masks)}
    for (_, what, k), obj in zip(recvs, got):
        have[what][k] = obj
    t1 = time.perf_counter()
    partial, error = {}, None
    try:
        for (i, j), k, o in pl["blocks"]:
            a, b = (blocks[(i, j)], have["u"][k]) if kind == "mxv" else (have["u"][k], blocks[(i, j)])
            T = product(name, kind, a, b, semiring, remaps[(i, j)], have["mask"].get(o), structural, complement)
            partial[o] = T if o not in partial else E.ewise_add(partial[o], T, add)
        E.synchronize()
    except Exception as exc:  # noqa: BLE001 - re-raised below, after the peers were told
        error = exc
    t2 = time.perf_counter()
    got = X.exchange(E, [(q, None if error else partial[o]) for q, o in pl["send_out"]],
                     [q for q, _ in pl["recv_out"]], failed=error is not None)
    t3 = time.perf_counter()
    if error is not None:
        raise error
    parts = collections.defaultdict(list)
    for o, T in partial.items():
        parts[o].append(T)
    for (_, o), T in zip(pl["recv_out"], got):
        parts[o].append(T)
    result = {o: combine(name, add, outs.get(o), have["mask"].get(o), accum, structural, complement, replace,
                         *parts[o]) for o in pl["owned"]}
    E.synchronize()
    t4 = time.perf_counter()
    with _LOCK:
        counters = _STATS[get_worker().address]
        counters["exchange_s"] += (t1 - t0) + (t3 - t2)
        counters["compute_s"] += (t2 - t1) + (t4 - t3)
        counters["bytes_sent"] += X.sent
        counters["collectives"] += 1
    X.sent = 0
    return result


class PeerFailed(RuntimeError):
    """A peer's share of a collective product failed (its own error is raised on its worker)."""


# ---------------------------------------------------------------- backends
class _Backend:
    def __init__(self, token, rank, p):
        self.token, self.rank, self.p = token, rank, p
        self.sent = 0          # bytes sent since the last collective's end
        self.aborted = False

    def abort(self):
        self.aborted = True

    def exchange(self, E, sends, recv_from, *, failed=False):
        """Send ``sends`` ``[(peer, object)]`` and receive one object from each of ``recv_from``
        (in order per peer); ``failed``: tell the peers this worker's step failed instead."""
        raise NotImplementedError


def _mailbox(key):
    """The mailbox ``(token, src, dst)`` of the "local" backend, made on first use.  Under the lock: a
    sender and its receiver may both be first, and two new queues for one key would lose a message."""
    with _LOCK:
        box = _MAILBOXES.get(key)
        if box is None:
            box = _MAILBOXES[key] = queue.Queue()
        return box


class _Local(_Backend):
    """Workers that are threads of one process (a threaded LocalCluster, for tests)."""

    def post(self, q, item):
        """Put ``item`` in the mailbox from this worker to worker ``q``."""
        _mailbox((self.token, self.rank, q)).put(item)

    def take(self, q):
        """The next item from worker ``q``; :class:`PeerFailed` once aborted, or after ``TIMEOUT`` seconds."""
        box, waited = _mailbox((self.token, q, self.rank)), 0.0
        while True:
            try:
                return box.get(timeout=0.1)
            except queue.Empty:
                waited += 0.1
                if self.aborted or waited > TIMEOUT:
                    raise PeerFailed(f"worker rank {q} sent nothing ({'aborted' if self.aborted else 'timed out'})")

    def exchange(self, E, sends, recv_from, *, failed=False):
        for q, obj in sends:
            message = None if failed else E.copy(obj)
            self.sent += 0 if failed else nbytes(E.name, obj)
            self.post(q, (failed, message))
        got, peer_failed = [], False
        for q in recv_from:
            bad, obj = self.take(q)
            peer_failed |= bad
            got.append(obj)
        if peer_failed and not failed:
            raise PeerFailed("another worker's share of the product failed; its error is in that worker's log")
        return got


class _Nccl(_Backend):
    """One NCCL communicator over the workers (each on its own GPU); messages are GPU-engine vectors."""

    def __init__(self, token, rank, p, uid):
        super().__init__(token, rank, p)
        os.environ.setdefault("NCCL_NVLS_ENABLE", "0")   # multicast can take a shared host's GPUs out of service
        from cupy.cuda import nccl    # optional (GPU workers only): loaded where it runs
        self.nccl = nccl
        self.comm = nccl.NcclCommunicator(p, uid, rank)
        self._stream = None      # a collective product's own stream (made on first use, on the worker's thread)

    def abort(self):
        super().abort()
        self.comm.abort()          # NCCL's own abort: operations waiting for a peer return

    def _group(self, sends, recvs):
        """One NCCL group of ``sends`` and ``recvs`` ``[(peer, uint8 buffer)]``, queued on the current stream."""
        import cupy as cp    # optional (GPU workers only): loaded where it runs
        nccl, stream = self.nccl, cp.cuda.get_current_stream().ptr
        nccl.groupStart()
        try:
            for q, buf in sends:
                if buf.size:
                    self.comm.send(buf.data.ptr, buf.nbytes, nccl.NCCL_UINT8, q, stream)
            for q, buf in recvs:
                if buf.size:
                    self.comm.recv(buf.data.ptr, buf.nbytes, nccl.NCCL_UINT8, q, stream)
        finally:
            nccl.groupEnd()

    def exchange(self, E, sends, recv_from, *, failed=False):
        """A collective product's exchange, on a stream of its own that does not synchronise with the legacy
        default stream: while a worker waits here for a peer, its event loop may have to send that peer a
        task's input (a Dask transfer: the GPU object's copy to the host runs on the default stream), and
        behind NCCL kernels on the default stream that copy waited for the peer, which waited for the input
        (two H200s, client-driven BFS after a triangle count, 2026-11-28).  The stream first waits for the
        work queued before on the current stream, and is drained before returning."""
        import cupy as cp    # optional (GPU workers only): loaded where it runs
        if self._stream is None:
            self._stream = cp.cuda.Stream(non_blocking=True)
        before = cp.cuda.get_current_stream().record()
        self._stream.wait_event(before)
        with self._stream:
            return self._exchange(E, sends, recv_from, failed)

    def _exchange(self, E, sends, recv_from, failed):
        import cupy as cp    # optional (GPU workers only): loaded where it runs
        from ..gpu.objects import GVec    # NCCL exchanges GPU workers' vectors: loaded where they run
        heads = np.zeros((len(sends), 3), np.int64)
        payload = []
        for m, (q, x) in enumerate(sends):
            if failed:
                heads[m] = (_FAILED, 0, 0)
                continue
            heads[m] = (_DTYPES.index(x.dtype), x.size, x.pres is not None)
            payload.append((q, cp.ascontiguousarray(x.val).view(cp.uint8)))
            if x.pres is not None:
                payload.append((q, cp.ascontiguousarray(x.pres).view(cp.uint8)))
        out_heads = cp.asarray(heads)
        in_heads = cp.empty((len(recv_from), 3), np.int64)
        self._group([(q, out_heads[m]) for m, (q, _) in enumerate(sends)],
                    [(q, in_heads[m]) for m, q in enumerate(recv_from)])
        stream = cp.cuda.get_current_stream()
        got_heads = in_heads.get(stream=stream)
        stream.synchronize()                            # the headers have arrived
        peer_failed = bool((got_heads[:, 0] == _FAILED).any()) if len(recv_from) else False
        objs, recvs = [], []
        for q, (code, size, has_pres) in zip(recv_from, got_heads.tolist()):
            if code == _FAILED:
                objs.append(None)
                continue
            val = cp.empty(size, _DTYPES[code])
            pres = cp.empty(size, bool) if has_pres else None
            recvs.append((q, val.view(cp.uint8)))
            if pres is not None:
                recvs.append((q, pres.view(cp.uint8)))
            objs.append(GVec(size, _DTYPES[code], val, pres))
        self._group(payload, recvs)
        stream.synchronize()
        self.sent += sum(int(b.nbytes) for _, b in payload)
        if peer_failed and not failed:
            raise PeerFailed("another worker's share of the product failed; its error is in that worker's log")
        return objs



_GONE = object()          # a "tcp" inbox's end: the peer closed its connection, or the exchange was aborted
_HANDSHAKE = 40           # a "tcp" connection's first bytes: the exchange's token (32) and the caller's rank (8)
CONNECT_TIMEOUT = 60.0    # seconds a "tcp" worker waits for its peers to connect


class _Tcp(_Backend):
    """Worker processes, on one host or several: one TCP connection between every two workers.

    Made in two steps, both run on every worker by the client (:func:`listen`, then :func:`start`): each
    worker listens on its own host, then connects to the workers of lower rank, announcing the token and
    its rank; connections from higher ranks are accepted by a thread (in a threaded cluster the workers
    share one event loop, so no step may wait for a peer's).  Each connection has a reader thread that
    receives whole frames (an int64 length, then the bytes) into fresh numpy buffers and queues them, so a
    send never waits for its receiver's program to reach the matching receive (two workers sending to each
    other at once, as the collective products do, cannot block each other) and a frame's bytes land in
    the array that is handed on, with no copy.

    A peer whose process ends closes its connections: its peers' receives raise :class:`PeerFailed` at
    once.  :meth:`abort` (the client's, after any error) shuts every connection down, which releases a
    send or a receive waiting on a stuck peer.
    """

    def __init__(self, token, rank, p, host):
        super().__init__(token, rank, p)
        peers = [q for q in range(p) if q != rank]
        self.socks, self.inbox = {}, {q: queue.Queue() for q in peers}
        self.ready, self.locks = {q: threading.Event() for q in peers}, {q: threading.Lock() for q in peers}
        self.failure = None       # why the connections could not be made (raised by the first use)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.listener = socket.create_server((host, 0), family=family, backlog=max(8, p))
        self.address = (host, self.listener.getsockname()[1])
        threading.Thread(target=self._accept, args=(p - 1 - rank,), daemon=True,
                         name=f"la_graph exchange {token[:8]}: accept").start()

    # ---------------------------------------------------------------- connections
    def connect(self, addresses):
        """Connect to the workers of lower rank (``addresses[q]`` is worker ``q``'s ``(host, port)``).  Their
        listeners accept in the kernel's backlog, so this does not wait for their accepting thread."""
        for q in range(self.rank):
            try:
                sock = socket.create_connection(tuple(addresses[q]), timeout=CONNECT_TIMEOUT)
                sock.sendall(self.token.encode()[:32].ljust(32) + struct.pack("<q", self.rank))
            except OSError as exc:
                self._fail(f"worker rank {self.rank} could not connect to rank {q} at {addresses[q]}: {exc}")
                return
            self._register(q, sock)

    def _accept(self, count):
        deadline = time.monotonic() + CONNECT_TIMEOUT
        try:
            while count > 0 and not self.aborted:
                self.listener.settimeout(max(0.01, deadline - time.monotonic()))
                sock, _ = self.listener.accept()
                sock.settimeout(CONNECT_TIMEOUT)
                hello = _read_exact(sock, _HANDSHAKE)
                q = -1 if hello is None else struct.unpack("<q", bytes(hello[32:]))[0]
                if hello is None or bytes(hello[:32]).decode(errors="replace").strip() != self.token[:32] or \
                        q not in self.ready or q < self.rank or self.ready[q].is_set():
                    sock.close()                        # not a peer of this exchange: ignored
                    continue
                self._register(q, sock)
                count -= 1
        except OSError as exc:                          # the deadline passed, or the exchange was aborted
            if not self.aborted:
                self._fail(f"worker rank {self.rank} waited {CONNECT_TIMEOUT:g} s for its peers of higher rank "
                           f"to connect: {exc}")
        finally:
            self.listener.close()

    def _register(self, q, sock):
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)     # small messages (scalars) go at once
        self.socks[q] = sock
        threading.Thread(target=self._read, args=(q, sock), daemon=True,
                         name=f"la_graph exchange {self.token[:8]}: from rank {q}").start()
        self.ready[q].set()
        if self.aborted:                                # aborted while connecting: no socket left open
            _shut(sock)

    def _fail(self, why):
        self.failure = why
        for e in self.ready.values():
            e.set()

    def _read(self, q, sock):
        """The reader thread of the connection from worker ``q``: its frames, in order, into its inbox."""
        box = self.inbox[q]
        try:
            while True:
                head = _read_exact(sock, 8)
                if head is None:
                    break
                n = struct.unpack("<q", bytes(head))[0]
                frame = np.empty(n, np.uint8)
                if n and _read_into(sock, memoryview(frame)) < n:
                    break
                box.put(frame)
        except OSError:
            pass
        box.put(_GONE)

    def _peer(self, q):
        """The socket to worker ``q``, once connected."""
        deadline = time.monotonic() + CONNECT_TIMEOUT
        while not self.ready[q].wait(0.1):
            if self.aborted or time.monotonic() > deadline:
                break
        sock = self.socks.get(q)
        if self.aborted:
            raise PeerFailed("the exchange was aborted (a worker failed)")
        if sock is None:
            raise PeerFailed(self.failure or f"worker rank {q} did not connect within {CONNECT_TIMEOUT:g} s")
        return sock

    # ---------------------------------------------------------------- frames
    def send_frame(self, q, frame):
        """Send the flat uint8 array ``frame`` to worker ``q`` (as it is: no copy)."""
        sock = self._peer(q)
        head = struct.pack("<q", frame.nbytes)
        try:
            with self.locks[q]:
                if frame.nbytes <= 65536:               # one packet for the small ones
                    sock.sendall(head + frame.tobytes())
                else:
                    sock.sendall(head)
                    sock.sendall(memoryview(frame))
        except OSError as exc:
            raise PeerFailed(f"worker rank {q} is gone ({'the exchange was aborted' if self.aborted else exc})") \
                from None
        self.sent += frame.nbytes

    def recv_frame(self, q):
        """The next frame from worker ``q`` (a fresh uint8 array)."""
        self._peer(q)
        box = self.inbox[q]
        while True:
            try:
                frame = box.get(timeout=0.1)
                break
            except queue.Empty:
                if self.aborted:
                    raise PeerFailed(f"worker rank {q} sent nothing (aborted)") from None
        if frame is _GONE:
            box.put(_GONE)                              # (every later receive from it fails alike)
            raise PeerFailed(f"worker rank {q} closed its connection: its process ended, or the exchange was "
                             f"aborted" + (" (aborted)" if self.aborted else ""))
        return frame

    def send_object(self, q, obj):
        """``obj`` to worker ``q``: its pickle, then its arrays' buffers raw (pickle protocol 5)."""
        buffers = []
        data = pickle.dumps(obj, protocol=5, buffer_callback=buffers.append)
        head = np.empty(8 + len(data), np.uint8)
        head[:8] = np.frombuffer(struct.pack("<q", len(buffers)), np.uint8)
        head[8:] = np.frombuffer(data, np.uint8)
        self.send_frame(q, head)
        for b in buffers:
            self.send_frame(q, np.frombuffer(b.raw(), np.uint8))

    def recv_object(self, q):
        head = self.recv_frame(q)
        count = struct.unpack("<q", head[:8].tobytes())[0]
        return pickle.loads(memoryview(head[8:]), buffers=[self.recv_frame(q) for _ in range(count)])

    def exchange(self, E, sends, recv_from, *, failed=False):
        for q, obj in sends:
            self.send_object(q, (failed, None if failed else obj))
        got, peer_failed = [], False
        for q in recv_from:
            bad, obj = self.recv_object(q)
            peer_failed |= bad
            got.append(obj)
        if peer_failed and not failed:
            raise PeerFailed("another worker's share of the product failed; its error is in that worker's log")
        return got

    def abort(self):
        super().abort()
        with contextlib.suppress(OSError):
            self.listener.close()
        for sock in list(self.socks.values()):
            _shut(sock)
        for box in self.inbox.values():
            box.put(_GONE)
        for e in self.ready.values():
            e.set()


def _shut(sock):
    """Shut ``sock`` down (a thread blocked on it returns) and close it."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()


def _read_into(sock, view):
    """Fill ``view`` from ``sock``; the bytes read (fewer at the end of the stream)."""
    got = 0
    while got < len(view):
        n = sock.recv_into(view[got:])
        if n == 0:
            break
        got += n
    return got


def _read_exact(sock, n):
    """``n`` bytes from ``sock`` as a uint8 array, or None at the end of the stream."""
    buf = np.empty(n, np.uint8)
    return buf if _read_into(sock, memoryview(buf)) == n else None


# ---------------------------------------------------------------- set-up, run on the workers
def probe(dask_worker=None):
    """``(process id, GPU UUID or None, NCCL available)`` of this worker."""
    gpu, has_nccl = None, False
    try:
        import cupy as cp    # optional (GPU workers only): loaded where it runs
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        gpu = bytes(props.get("uuid", b"")).hex() or str(cp.cuda.Device().pci_bus_id)
        from cupy.cuda import nccl  # noqa: F401
        has_nccl = nccl.available if hasattr(nccl, "available") else True
    except Exception:  # noqa: BLE001 - no GPU or no NCCL: what the probe reports
        pass
    return os.getpid(), gpu, bool(has_nccl)


def unique_id(name):
    """A new NCCL unique id (made on a worker: the client may have no GPU)."""
    from cupy.cuda import nccl    # optional (GPU workers only): loaded where it runs
    return nccl.get_unique_id()


def listen(token, ranks, dask_worker=None):
    """The first step of a ``"tcp"`` backend: this worker's, listening on its host; returns ``(host, port)``."""
    rank, p = ranks[dask_worker.address], len(ranks)
    address = dask_worker.address
    host = "127.0.0.1" if address.startswith("inproc://") else distributed.comm.get_address_host(address)
    backend = _BACKENDS[(token, rank)] = _Tcp(token, rank, p, host)
    return backend.address


def start(kind, token, ranks, uid=None, dask_worker=None):
    """This worker's backend for ``token``: ``ranks`` maps worker addresses to ranks.  ``uid``: NCCL's
    unique id, or for ``"tcp"`` the workers' ``(host, port)`` in rank order (:func:`listen` made the
    backend; this connects it)."""
    rank, p = ranks[dask_worker.address], len(ranks)
    if kind == "tcp":
        _BACKENDS[(token, rank)].connect(uid)
        return rank
    _BACKENDS[(token, rank)] = _Nccl(token, rank, p, uid) if kind == "nccl" else _Local(token, rank, p)
    return rank


def abort(token, dask_worker=None):
    """End this worker's backends of ``token``: a share of a collective waiting in them raises."""
    with _LOCK:
        backends = [_BACKENDS.pop(k) for k in list(_BACKENDS) if k[0] == token]
        for key in [k for k in _MAILBOXES if k[0] == token]:
            del _MAILBOXES[key]
    for backend in backends:
        backend.abort()


def count_sent(token, rank):
    """Add the bytes this worker's ``"tcp"`` backend sent since the last count to its ``bytes_sent`` (an SPMD run's
    messages outside the collective products, counted at the run's end)."""
    with _LOCK:
        backend = _BACKENDS.get((token, rank))
        if backend is not None:
            _STATS[get_worker().address]["bytes_sent"] += backend.sent
            backend.sent = 0


def stats(reset=False, dask_worker=None):
    """This worker's ``{exchange_s, compute_s, bytes_sent, collectives}`` (reset to 0 after, if asked)."""
    with _LOCK:
        counters = _STATS[dask_worker.address]
        out = {k: counters[k] for k in ("exchange_s", "compute_s", "bytes_sent", "collectives")}
        if reset:
            counters.clear()
    return out
