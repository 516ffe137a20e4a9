"""The dask engine's cluster: connecting to a scheduler, starting a LocalCluster, and a worker's error as
the client raises it.

* :func:`local_cluster`: the LocalCluster the engine starts when given no scheduler (SIGINT kept from
  its workers, an unguarded script refused);
* :func:`_check_scheduler`: an address that is no Dask scheduler refused within the connect timeout;
* :func:`client_error`: a worker's memory error as la_graph's own.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import inspect
import multiprocessing
import multiprocessing.resource_tracker
import signal
import sys
import threading

import dask
import distributed

from ...exceptions import EngineUnavailable, LaGraphError, OutOfDeviceMemory, OutOfMemory

__all__ = ["SCHEDULER_ENV", "UNGUARDED_MAIN", "local_cluster", "client_error"]

#: the environment variable naming a scheduler to connect to
SCHEDULER_ENV = "LA_GRAPH_DASK_SCHEDULER"


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


def local_cluster(workers, local="cpu", *, processes=True):
    """``(client, cluster)`` of ``workers`` worker processes on this machine, one thread each.

    ``local="gpu"``: dask-cuda's LocalCUDACluster, one worker per GPU (``workers`` of them).
    ``processes=False`` (CPU workers only): the workers are threads of this process, which share its
    memory (the engine's ``exchange="local"``, which SPMD runs on CPU workers need).

    The worker processes never see SIGINT (:func:`_sigint_blocked`), and a script that would start them
    from its top level without ``if __name__ == "__main__":`` is refused (:func:`_check_main_guarded`).
    """
    _check_main_guarded()
    if local == "gpu":
        try:
            import dask_cuda     # optional (GPU workers only): loaded when asked for
        except ImportError as exc:
            raise EngineUnavailable(f"GPU workers need dask-cuda ({exc}): pip install dask-cuda") from exc
    with _sigint_blocked():
        if local == "gpu":
            cluster = dask_cuda.LocalCUDACluster(n_workers=workers, dashboard_address=":0", silence_logs=50)
        else:
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
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
    return "n_workers" in inspect.signature(client.scheduler_info).parameters


def _close(client, cluster):
    try:
        client.close()
        if cluster is not None:
            cluster.close()
    except Exception:  # noqa: BLE001 - interpreter shutdown: nothing to report to
        pass
