"""The profiler: every engine call timed, with the device synchronised, fused or algebraic.

Set ``LA_GRAPH_PROFILE=1`` to profile a whole process (the table is printed to
standard error at exit), or collect a profile of a block of code::

    with la_graph.profile.collect() as prof:
        la_graph.connected_components(G, engine="gpu")
    print(prof.table())

Every call of an engine method of the operator interface is recorded (its
name, ``kind = "primitive"``), and so is every named algorithm step that an
engine may fuse (:mod:`la_graph.algorithms.steps`): ``kind`` is ``"fused"``
when the engine's kernel ran, ``"algebraic"`` when the step ran as primitives,
and ``"declined"`` when the engine's kernel could not take the arguments and
the algebra ran instead.  ``total`` includes the calls made inside (a step's
primitives), ``self`` does not.  Each call waits for the device before and after
(``Engine.synchronize``), so GPU times are the work of that call and not of
whatever was queued before it -- profiling changes what it measures only by
those waits.

Like SuiteSparse's burble, it is for finding where the time goes; the numbers
to quote are the benchmark's (``la-graph bench``), taken without it.

Examples
--------
>>> import la_graph as lg
>>> G = lg.generators.path(5)
>>> with lg.profile.collect() as prof:
...     labels = lg.connected_components(G, engine="cpu")
>>> row = prof.row("component_labels", engine="cpu")
>>> row["kind"], row["calls"] > 0
('fused', True)
>>> "component_labels" in prof.table()
True
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading
import time
import weakref

__all__ = ["Profile", "collect", "active", "ENV"]

#: the environment variable that profiles the whole process
ENV = "LA_GRAPH_PROFILE"

_engines = weakref.WeakKeyDictionary()   # every engine made so far -> the names of its interface methods
_current = None                # the Profile being collected, or None
_lock = threading.Lock()


class Profile:
    """What :func:`collect` (or ``LA_GRAPH_PROFILE``) recorded: per (engine, call, kind) the calls and times."""

    def __init__(self):
        self._rows = {}               # (engine, name, kind) -> [calls, total_s, self_s]
        self._local = threading.local()
        self._lock = threading.Lock()

    # ------------------------------------------------------------ recording
    def _stack(self):
        stack = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        return stack

    @contextlib.contextmanager
    def timing(self, engine, name, kind):
        """Time the block as one call ``name`` of ``engine`` (device synchronised before and after)."""
        engine.synchronize()
        stack = self._stack()
        stack.append(0.0)  # the time of the calls nested inside this one
        t0 = time.perf_counter()
        try:
            yield
        finally:
            engine.synchronize()
            dt = time.perf_counter() - t0
            inner = stack.pop()
            if stack:
                stack[-1] += dt
            key = (engine.name, name, kind)
            with self._lock:
                row = self._rows.get(key)
                if row is None:
                    row = self._rows[key] = [0, 0.0, 0.0]
                row[0] += 1
                row[1] += dt
                row[2] += dt - inner

    # ------------------------------------------------------------ reading
    def rows(self):
        """One dict per (engine, call, kind): ``engine, name, kind, calls, total_s, self_s``; most self time first."""
        with self._lock:
            items = list(self._rows.items())
        out = [dict(engine=e, name=n, kind=k, calls=c, total_s=t, self_s=s) for (e, n, k), (c, t, s) in items]
        out.sort(key=lambda r: (-r["self_s"], r["engine"], r["name"]))
        return out

    def row(self, name, *, engine=None, kind=None):
        """The row of call ``name`` (on ``engine``, of ``kind``, when given); None if it was not called.

        Several rows matching are added up (``kind`` then joins their kinds with ``+``).
        """
        rows = [r for r in self.rows() if r["name"] == name and engine in (None, r["engine"])
                and kind in (None, r["kind"])]
        if not rows:
            return None
        out = dict(rows[0])
        for r in rows[1:]:
            for f in ("calls", "total_s", "self_s"):
                out[f] += r[f]
            if r["kind"] not in out["kind"].split("+"):
                out["kind"] += "+" + r["kind"]
        return out

    def table(self):
        """The rows as a text table (milliseconds)."""
        rows = self.rows()
        lines = ["la_graph profile: every engine call, device synchronised; self = without the calls inside it",
                 f"{'engine':9s} {'call':28s} {'kind':10s} {'calls':>8s} {'total ms':>12s} {'self ms':>12s}"]
        for r in rows:
            lines.append(f"{r['engine']:9s} {r['name']:28s} {r['kind']:10s} {r['calls']:8d} "
                         f"{1e3 * r['total_s']:12.3f} {1e3 * r['self_s']:12.3f}")
        if not rows:
            lines.append("(no engine calls)")
        return "\n".join(lines)

    __str__ = table


def active():
    """The Profile being collected, or None (the steps runner asks before it times a step)."""
    return _current


def track(engine, names):
    """Called by the engine registry for every engine it creates: ``names`` are its interface methods."""
    _engines[engine] = tuple(names)
    if _current is not None:
        _instrument(engine)


def _instrument(engine):
    for name in _engines.get(engine, ()):
        method = getattr(type(engine), name, None)
        if method is None or name in vars(engine):
            continue
        bound = method.__get__(engine)

        def timed(*args, __bound=bound, __name=name, **kwargs):
            prof = _current
            if prof is None:
                return __bound(*args, **kwargs)
            with prof.timing(engine, __name, "primitive"):
                return __bound(*args, **kwargs)

        timed.__name__ = timed.__qualname__ = name
        timed.__doc__ = bound.__doc__
        setattr(engine, name, timed)


def _uninstrument(engine):
    for name in _engines.get(engine, ()):
        vars(engine).pop(name, None)


def _start(prof):
    global _current
    with _lock:
        if _current is not None:
            raise RuntimeError("a profile is already being collected (LA_GRAPH_PROFILE or an outer collect())")
        _current = prof
        for engine in list(_engines):
            _instrument(engine)


def _stop():
    global _current
    with _lock:
        _current = None
        for engine in list(_engines):
            _uninstrument(engine)


@contextlib.contextmanager
def collect():
    """Record every engine call made inside the ``with`` block; yields the :class:`Profile`.

    Profiles do not nest (one is collected at a time, for the whole process;
    with ``LA_GRAPH_PROFILE`` set, that one).
    """
    prof = Profile()
    _start(prof)
    try:
        yield prof
    finally:
        _stop()


def _from_environment():
    value = os.environ.get(ENV, "").strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return
    prof = Profile()
    _start(prof)

    def report():
        print(prof.table(), file=sys.stderr)

    atexit.register(report)


_from_environment()
