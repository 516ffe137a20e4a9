"""Named algebraic steps, and how an engine's fused kernel stands in for one.

An algorithm module writes each step an engine may want to run as one kernel
as a small function of primitives, decorated with :func:`step`::

    @step("fastsv_round")
    def fastsv_round(E, A, f, gp, mngp):
        ...                                     # mxv, scatter, ewise, extract

and calls it as ``fastsv_round(E, A, f, gp, mngp)``.  That call runs the
engine's own implementation when the engine lists the step's name in
:attr:`Engine.fused_steps <la_graph.engines.base.Engine.fused_steps>`, and the
algebra otherwise; the algebra itself stays reachable as
``fastsv_round.algebraic``.  An implementation that cannot take its arguments
raises :class:`~la_graph.engines.base.Declined` before it changes anything; the
algebra then runs, logged at DEBUG on the ``la_graph`` logger and recorded by
the profiler (:mod:`la_graph.profile`) as ``declined`` -- never silently.

:func:`algebraic` turns fused steps off for a block (all, or those named): the
tests compare every engine's fused steps with their algebra this way, and it
tells a user whether a kernel is at fault.

Examples
--------
>>> import la_graph as lg
>>> from la_graph.algorithms import steps
>>> sorted(steps.STEPS)[:3]
['bfs_multi', 'bfs_pull', 'bfs_push']
>>> G = lg.generators.path(4)
>>> with steps.algebraic("fastsv_round"):
...     lg.connected_components(G, engine="cpu").tolist()
[0, 0, 0, 0]
"""

from __future__ import annotations

import contextlib
import logging
import threading

from .. import profile as _profile
from ..engines.base import Declined

__all__ = ["Step", "step", "STEPS", "algebraic", "Declined"]

log = logging.getLogger("la_graph")

#: step name -> :class:`Step`, filled as the algorithm modules are imported
STEPS: dict[str, Step] = {}

class _Off(threading.local):
    """Per thread: the step families :func:`algebraic` turned off (None: none; empty: all).

    A class default, not ``getattr(_local, "off", None)``: a missing attribute
    costs a caught AttributeError (~1 us) on every step call.
    """

    off = None


_local = _Off()


class Step:
    """A named algebraic step: ``step(E, *args)`` runs the engine's fused kernel for it, or its algebra."""

    def __init__(self, name, algebraic, family=None):
        self.name = name
        self.algebraic = algebraic
        self.family = family or name
        self.__doc__ = algebraic.__doc__
        self.__module__ = algebraic.__module__
        self.__name__ = self.__qualname__ = algebraic.__name__

    def __repr__(self):
        return f"<la_graph step {self.name!r} of {self.__module__}>"

    def kernel(self, E):
        """The engine's implementation of this step, or None (none declared, or turned off by :func:`algebraic`)."""
        off = _local.off
        if off is not None and (not off or self.family in off):
            return None
        return E.fused_steps.get(self.name)

    def __call__(self, E, *args, **kwargs):
        impl = self.kernel(E)
        prof = _profile.active()
        if impl is not None:
            try:
                if prof is None:
                    return impl(E, *args, **kwargs)
                with prof.timing(E, self.name, "fused"):
                    return impl(E, *args, **kwargs)
            except Declined as why:
                log.debug("the %s engine's %s kernel declined (%s): running the algebra", E.name, self.name, why)
                kind = "declined"
        else:
            kind = "algebraic"
        if prof is None:
            return self.algebraic(E, *args, **kwargs)
        with prof.timing(E, self.name, kind):
            return self.algebraic(E, *args, **kwargs)


def step(name, *, family=None):
    """Decorator: register ``fn(E, ...)`` as the algebra of the step called ``name``; returns the :class:`Step`.

    Steps of one ``family`` hand each other engine-native objects (MSF's edge
    set): an engine fuses all of them or none, and :func:`algebraic` turns
    them off together.
    """
    def register(fn):
        if name in STEPS:
            raise ValueError(f"step {name!r} is defined twice ({STEPS[name].__module__} and {fn.__module__})")
        s = STEPS[name] = Step(name, fn, family)
        return s
    return register


def families():
    """Family name -> the names of its steps."""
    out = {}
    for s in STEPS.values():
        out.setdefault(s.family, []).append(s.name)
    return out


@contextlib.contextmanager
def algebraic(*names):
    """Run the named steps (every step when none is named) as algebra, on every engine, in this thread."""
    unknown = [n for n in names if n not in STEPS]
    if unknown:
        raise ValueError(f"unknown step {unknown[0]!r}; the steps are {sorted(STEPS)}")
    names = frozenset(STEPS[n].family for n in names)
    before = _local.off
    _local.off = names | (before or frozenset()) if names and before != frozenset() else frozenset()
    try:
        yield
    finally:
        _local.off = before
