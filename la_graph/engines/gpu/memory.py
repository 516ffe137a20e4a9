"""Device memory and device errors of the GPU engine.

* :func:`_reserve` checks an allocation against the free device memory before
  it is made, and raises OutOfDeviceMemory naming the bytes needed and free and
  pointing to the CPU engine;
* :func:`_device_errors` re-raises CuPy / CUDA errors (out of memory, runtime,
  driver, NVRTC) as la_graph errors that say what to do; :func:`wrap_public`
  applies it to every public method of a class, keeping static methods static;
* :func:`_wait` waits for the device's queued work in a way Ctrl-C can break
  (a blocking copy after a long kernel cannot be interrupted until the kernel
  ends), and :func:`_settle` finishes, on the next call, what an interrupted
  wait left running.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import time

import cupy as cp

from ...exceptions import LaGraphError, OutOfDeviceMemory

_CUDA_ERRORS = tuple(e for e in (
    getattr(cp.cuda.runtime, "CUDARuntimeError", None),
    getattr(cp.cuda.driver, "CUDADriverError", None),
    getattr(cp.cuda.compiler, "CompileException", None),
) if e is not None)
_OOM_ERRORS = tuple(e for e in (getattr(cp.cuda.memory, "OutOfMemoryError", None),) if e is not None)


def _device_errors(fn):
    """Re-raise CuPy / CUDA errors as la_graph errors that say what to do; wait first for work an
    interrupted call left running (:func:`_settle`)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            if _PENDING:
                _settle()
            return fn(*args, **kwargs)
        except LaGraphError:
            raise
        except _OOM_ERRORS as exc:
            raise OutOfDeviceMemory(
                f"gpu engine, {fn.__name__}: the GPU ran out of memory ({exc}); free GPU memory "
                "(other processes, cached arrays), use a smaller graph, or use engine='cpu'") from None  # noqa: B904
            # (from None: CuPy's OutOfMemoryError does not survive pickling, which the distributed engine's
            # workers need to report this error; its text is in the message)
        except _CUDA_ERRORS as exc:
            raise LaGraphError(
                f"gpu engine, {fn.__name__}: CUDA error: {exc}. If it repeats, restart the Python process "
                "(a failed kernel can leave the CUDA context unusable), check the driver with nvidia-smi, "
                "or use engine='cpu'") from exc
    return wrapper


def wrap_public(cls):
    """Wrap every public method of ``cls`` (inherited ones too) in :func:`_device_errors`; returns ``cls``.

    A static method stays static: wrapping the bare function would bind it to the instance.
    """
    for attr in [a for a in dir(cls) if not a.startswith("_") and callable(getattr(cls, a))]:
        wrapped = _device_errors(getattr(cls, attr))
        static = isinstance(inspect.getattr_static(cls, attr), staticmethod)
        setattr(cls, attr, staticmethod(wrapped) if static else wrapped)
    return cls


#: :func:`_poll` looks at the event continuously for this long (a short kernel: no added latency), then
#: sleeps between looks for this share of the time waited so far, at most _PAUSE_MAX seconds (a wait
#: is then at most 2% longer than the work); Ctrl-C ends a sleep at once either way
_SPIN_S, _PAUSE_SHARE, _PAUSE_MAX = 0.005, 0.02, 0.02
_PENDING = []      # events recorded by waits that Ctrl-C broke: the work before them may still run


def _poll(event):
    """Return once ``event`` has happened on the device, taking KeyboardInterrupt between looks."""
    start = time.perf_counter()
    while not event.done:
        waited = time.perf_counter() - start
        time.sleep(0.0 if waited < _SPIN_S else min(_PAUSE_MAX, _PAUSE_SHARE * waited))


def _wait():
    """Wait for the work queued so far on the current stream, such that Ctrl-C can interrupt it.

    Called before the blocking device-to-host read that follows a long kernel
    (a persistent one, or many launches): the read itself would hold the
    main thread in CUDA, where KeyboardInterrupt is not taken, until the
    kernel ends.  On KeyboardInterrupt the kernel runs on in the background,
    and the next call of the engine waits for it first (:func:`_settle`), so
    that the engine stays usable: its work is stream-ordered after the old
    kernel anyway, but a call on another stream would race it.
    """
    event = cp.cuda.Event(block=False, disable_timing=True)
    event.record()
    try:
        _poll(event)
    except KeyboardInterrupt:
        _PENDING.append(event)
        raise


def _settle():
    """Wait (interruptibly) for the work that waits broken by Ctrl-C left running, oldest first."""
    while _PENDING:
        try:
            event = _PENDING[0]
        except IndexError:           # another thread settled it
            return
        _poll(event)
        with contextlib.suppress(ValueError):
            _PENDING.remove(event)


def _free_device_bytes():
    return int(cp.cuda.runtime.memGetInfo()[0])


def free_device_bytes():
    """Free bytes of the current device, after CuPy's pool has given its cached blocks back."""
    cp.get_default_memory_pool().free_all_blocks()
    return _free_device_bytes()


def pool_bytes(release=False):
    """``(in use, held)`` bytes of CuPy's default pool on the current device; ``release``: its cached
    blocks given back first, so that what it holds afterwards is a high-water mark from here on."""
    pool = cp.get_default_memory_pool()
    if release:
        pool.free_all_blocks()
    return int(pool.used_bytes()), int(pool.total_bytes())


def _reserve(nbytes, what):
    """Raise OutOfDeviceMemory unless ``nbytes`` fit in the free device memory."""
    nbytes = int(nbytes)
    if nbytes <= 0:
        return
    free = _free_device_bytes()
    if nbytes > free:
        cp.get_default_memory_pool().free_all_blocks()   # blocks CuPy keeps cached count as used
        free = _free_device_bytes()
    if nbytes > free:
        raise OutOfDeviceMemory(
            f"{what} needs about {nbytes:,} bytes of GPU memory, but only {free:,} bytes are free on "
            f"GPU {cp.cuda.runtime.getDevice()}; free GPU memory, use a smaller graph, or run on the CPU "
            "with engine='cpu'")


class _PeakHook(cp.cuda.MemoryHook):
    """Counts the bytes of CuPy's pool in use while it is active, and their high-water mark."""

    name = "la_graph_peak_memory"

    def __init__(self):
        self.live = 0
        self.peak = 0

    def malloc_postprocess(self, **kwargs):
        self.live += kwargs["mem_size"]
        if self.live > self.peak:
            self.peak = self.live

    def free_postprocess(self, **kwargs):
        self.live -= kwargs["mem_size"]


@contextlib.contextmanager
def memory_watch():
    """``GPUEngine.memory_watch``: the pool's high-water mark in the block, and the device's used bytes around it."""
    out = {}
    cp.cuda.Device().synchronize()
    free_before, _ = cp.cuda.runtime.memGetInfo()
    hook = _PeakHook()
    with hook:
        yield out
    cp.cuda.Device().synchronize()
    free_after, _ = cp.cuda.runtime.memGetInfo()
    out.update(peak_device_bytes=int(hook.peak), device_used_growth_bytes=int(free_before - free_after))
