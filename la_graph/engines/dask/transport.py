"""Python objects sent from one worker to another, for the SPMD runs of the distributed engine (:mod:`.spmd`).

A :class:`Channel` sends any picklable object from this worker to others and
receives one from a given worker.  It runs over the backend of the engine's
product exchange (:mod:`.exchange`): the same NCCL communicator between GPU
workers, the same TCP connections between CPU worker processes, the same
mailboxes between the threads of one process.  Messages
between two workers are matched in the order they were posted, so every
worker must send and receive them in one agreed order: an SPMD run guarantees
that by running the same program on every worker.

A message is a sequence of *frames*, each a flat ``uint8`` buffer (device
memory over NCCL, numpy over TCP and the local backend):

1. the head, :data:`HEAD` bytes: the pickle's length (int64) and, when it fits,
   the pickle itself;
2. the pickle, when it did not fit the head;
3. every array the pickler took out of the object, raw, in the order the
   pickle names them: CuPy arrays over NCCL (they travel device to device,
   never through the host), numpy arrays over TCP (each frame sent from the
   array's own memory, received into the array the receiver keeps) and over
   the local backend (so the threaded tests take the same path).  The pickle records each array's dtype and
   shape, so the receiver allocates it before receiving it; an array named
   twice travels once.

The receiver waits for the head, then for the pickle; it posts the receives
of the arrays as it unpickles and does not wait for them (NCCL orders them on
the stream before any use).

A value that is an error travels as :class:`Erred`, so a failure is
delivered like any value and the receiver does not wait for one that never
comes.  A receive that waits on a stuck or failed peer is released by the
exchange's abort (:func:`.exchange.abort`, which the client calls when a
worker's task fails; the local backend also gives up after
:data:`.exchange.TIMEOUT` seconds) and raises :class:`.exchange.PeerFailed`.
"""

from __future__ import annotations

import io
import pickle

import numpy as np

from . import exchange as _exchange
from .exchange import PeerFailed

#: bytes of a message's first frame: the pickle's length, and the pickle itself when it fits
HEAD = 512
_LENGTH = 8


class Erred:
    """A value that is an error: what a task that failed (or a task given an erred input) leaves behind.

    Its exception travels with it; one that cannot be pickled is replaced by a
    :class:`RuntimeError` naming it.
    """

    __slots__ = ("exc",)

    def __init__(self, exc):
        self.exc = exc

    def __reduce__(self):
        try:
            pickle.dumps(self.exc)
            return Erred, (self.exc,)
        except Exception:  # noqa: BLE001 - an exception that cannot travel: its name and message do
            return Erred, (RuntimeError(f"{type(self.exc).__name__}: {self.exc}"),)

    def __repr__(self):
        return f"Erred({self.exc!r})"


class Channel:
    """Objects to and from the other workers over one exchange backend (see the module docstring).

    Subclasses provide the frames: :meth:`_send`, :meth:`_recv`, :meth:`_host`,
    :meth:`_frame`, and which objects travel out of the pickle (:meth:`_out_of_band`).
    """

    def __init__(self, backend):
        self.backend, self.rank = backend, backend.rank
        self.sent = 0              # bytes sent

    def send(self, peers, obj):
        """Send ``obj`` to each worker rank of ``peers`` (pickled once)."""
        buf = io.BytesIO()
        pickler = _Pickler(buf, self)
        pickler.dump(obj)
        data = buf.getbuffer()
        head = np.zeros(HEAD, np.uint8)
        head[:_LENGTH] = np.array([len(data)], np.int64).view(np.uint8)
        inline = len(data) <= HEAD - _LENGTH
        if inline:
            head[_LENGTH:_LENGTH + len(data)] = np.frombuffer(data, np.uint8)
        frames = [self._frame(head)] + ([] if inline else [self._frame(np.frombuffer(data, np.uint8))])
        frames += [a for a in pickler.arrays if a.nbytes]
        for q in peers:
            for f in frames:
                self._send(q, f)
                self.sent += int(f.nbytes)

    def recv(self, peer):
        """The next object from worker rank ``peer``."""
        head = self._host(self._recv(peer, HEAD))
        n = int(head[:_LENGTH].view(np.int64)[0])
        data = head[_LENGTH:_LENGTH + n] if n <= HEAD - _LENGTH else self._host(self._recv(peer, n))
        return _Unpickler(io.BytesIO(memoryview(np.ascontiguousarray(data))), self, peer).load()

    # ---------------------------------------------------------------- frames: the backends'
    def _out_of_band(self, obj):
        """Whether ``obj`` is an array that travels as a frame of its own."""
        raise NotImplementedError

    def _raw(self, a):
        """Array ``a`` as a flat contiguous uint8 frame."""
        raise NotImplementedError

    def _frame(self, host):
        """A frame holding the host uint8 array ``host``."""
        raise NotImplementedError

    def _send(self, peer, frame):
        raise NotImplementedError

    def _recv(self, peer, nbytes):
        """A frame of ``nbytes`` from ``peer`` (possibly still arriving)."""
        raise NotImplementedError

    def _host(self, frame):
        """Frame ``frame`` as a host uint8 array, once it has arrived."""
        raise NotImplementedError

    def _empty(self):
        raise NotImplementedError


class _Pickler(pickle.Pickler):
    def __init__(self, file, channel):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.channel, self.arrays, self.index = channel, [], {}
        self.keep = []             # the arrays named, alive while pickling (their ids stay theirs)

    def persistent_id(self, obj):
        if not self.channel._out_of_band(obj):
            return None
        i = self.index.get(id(obj))
        if i is None:
            i = self.index[id(obj)] = len(self.arrays)
            self.arrays.append(self.channel._raw(obj))
            self.keep.append(obj)
        return i, obj.dtype.str, tuple(obj.shape)


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, channel, peer):
        super().__init__(file)
        self.channel, self.peer, self.got = channel, peer, {}

    def persistent_load(self, pid):
        i, dtype, shape = pid
        a = self.got.get(i)
        if a is None:
            dtype = np.dtype(dtype)
            nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
            frame = self.channel._recv(self.peer, nbytes) if nbytes else self.channel._empty()
            a = self.got[i] = frame.view(dtype).reshape(shape)
        return a


class LocalChannel(Channel):
    """Frames as numpy arrays through the mailboxes of :class:`.exchange._Local` (threads of one process)."""

    def _out_of_band(self, obj):
        return type(obj) is np.ndarray and not obj.dtype.hasobject

    def _raw(self, a):
        return np.ascontiguousarray(a).reshape(-1).view(np.uint8)

    def _frame(self, host):
        return host

    def _send(self, peer, frame):
        self.backend.post(peer, (False, np.array(frame, copy=True)))     # the receiver's own copy, as over NCCL

    def _recv(self, peer, nbytes):
        bad, frame = self.backend.take(peer)
        if bad or not isinstance(frame, np.ndarray) or frame.nbytes != nbytes:
            raise PeerFailed(f"worker rank {peer} sent {'a failure' if bad else 'another message'} where a frame "
                             f"of {nbytes} bytes was due: the workers' programs diverged")
        return frame

    def _host(self, frame):
        return frame

    def _empty(self):
        return np.empty(0, np.uint8)


class NcclChannel(Channel):
    """Frames as CuPy device buffers, point to point over the NCCL communicator of :class:`.exchange._Nccl`.

    CuPy arrays in an object travel device to device; the rest of the object
    as its pickle (copied to the device and back).  Sends and receives are
    queued on the current CUDA stream, where the GPU engine works too; a
    buffer freed after its send was queued is reused only by work queued
    after it on that stream (CuPy's pool is stream-ordered).
    """

    def __init__(self, backend):
        super().__init__(backend)
        import cupy    # optional (GPU workers only): loaded where it runs
        self.cp = cupy

    def _out_of_band(self, obj):
        return isinstance(obj, self.cp.ndarray)

    def _raw(self, a):
        return self.cp.ascontiguousarray(a).reshape(-1).view(self.cp.uint8)

    def _frame(self, host):
        return self.cp.asarray(host)

    def _send(self, peer, frame):
        self.backend._group([(peer, frame)], [])

    def _recv(self, peer, nbytes):
        frame = self.cp.empty(nbytes, self.cp.uint8)
        self.backend._group([], [(peer, frame)])
        return frame

    def _host(self, frame):
        self.cp.cuda.get_current_stream().synchronize()     # the frame has arrived (or the abort released it)
        if self.backend.aborted:
            raise PeerFailed("the exchange was aborted while this worker waited for a message")
        return self.cp.asnumpy(frame)

    def _empty(self):
        return self.cp.empty(0, self.cp.uint8)


class TcpChannel(LocalChannel):
    """Frames as numpy arrays over the TCP connections of :class:`.exchange._Tcp` (CPU worker processes).

    A frame is sent as it is (the pickle, or an array's own bytes: no copy) and received into a fresh array,
    which the unpickled object then holds."""

    def _send(self, peer, frame):
        self.backend.send_frame(peer, frame)

    def _recv(self, peer, nbytes):
        frame = self.backend.recv_frame(peer)
        if frame.nbytes != nbytes:
            raise PeerFailed(f"worker rank {peer} sent a frame of {frame.nbytes} bytes where one of {nbytes} was "
                             f"due: the workers' programs diverged")
        return frame


_CHANNELS = {"nccl": NcclChannel, "tcp": TcpChannel, "local": LocalChannel}


def channel(kind, token, rank):
    """This worker's channel over the exchange backend ``(token, rank)`` of kind ``"local"``, ``"tcp"`` or
    ``"nccl"``."""
    backend = _exchange._BACKENDS.get((token, rank))
    if backend is None:
        raise PeerFailed(f"this worker has no exchange {token} (it was aborted, or started elsewhere)")
    return _CHANNELS[kind](backend)
