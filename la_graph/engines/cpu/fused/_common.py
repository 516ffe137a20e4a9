"""What every fused CPU step shares: the registry (:func:`fuses`), Ctrl-C, the bounded-call driver, the CSR.

A fused step is a function that takes exactly the arguments of the step of
the same name (written in primitives in its algorithm module,
``la_graph/algorithms/``) and returns what that step returns; each lives in
the module of this package named like that algorithm module, beside its
numba loops.  A function that cannot take its arguments raises
:class:`~la_graph.engines.base.Declined` before it changes anything, and the
step's algebra runs instead.

Ctrl-C: a long loop is run as calls of bounded work (:data:`CALL_WORK`) by
:func:`_drive`, so that Python's KeyboardInterrupt takes effect between
calls; a bounded kernel fills arrays its caller made and returns one number
(where it stopped), so that no array is boxed on its way out -- boxing runs
Python code, which would meet the pending signal inside numba's return.
"""

from __future__ import annotations

import functools
from types import MappingProxyType

import numpy as np

from ...base import Declined
from ..objects import _unsigned, _vnvals, _vsize

_FUSED = {}

#: the most work, in edges (or vertices) touched, a kernel call does before it returns to
#: :func:`_drive`, which calls it again: Python's KeyboardInterrupt (Ctrl-C) takes effect between
#: calls, so an interrupt stops a long loop within about a call's time.  2**25 random-access
#: edges take ~0.1-0.3 s on one core; a smaller call costs its few microseconds of dispatch
CALL_WORK = 1 << 25

#: step name -> its CPU implementation (``CPUEngine.fused_steps``)
FUSED = MappingProxyType(_FUSED)


def _drive(kernel, *args, start=0, work=CALL_WORK):
    """Call ``kernel(*args, at, work)`` from ``at = start`` until it returns a negative number (done).

    ``kernel`` is a numba loop that does about ``work`` units (edges touched)
    from position ``at`` -- a vertex, a source, a round, an iteration: the
    kernel's own -- and returns the position to resume at, always past
    ``at``, or ``-1`` once finished.  Its results go into arrays its caller
    made (``args``), so a return builds no Python object but an int, and a
    Ctrl-C that came during a call is raised here, between calls.

    Examples
    --------
    >>> import numpy as np
    >>> out = np.zeros(10, np.int64)
    >>> def fill(out, at, work):   # a plain function stands in for a numba loop
    ...     hi = min(out.size, at + work)
    ...     out[at:hi] = np.arange(at, hi)
    ...     return hi if hi < out.size else -1
    >>> _drive(fill, out, work=4)
    >>> out.tolist()
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    """
    at = start
    while at >= 0:
        at = kernel(*args, at, work)


def _interrupt_in(exc):
    """The KeyboardInterrupt ``exc`` was raised from, or None."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def _interruptible(fn):
    """``fn`` raising a Ctrl-C that came during a numba call as KeyboardInterrupt.

    A numba function returning an array boxes it through a Python call (the
    dtype, from numba's pickled constants); a SIGINT that arrived during the
    loop makes Python raise KeyboardInterrupt there, and numba's dispatcher
    reports that as SystemError("returned a result with an exception set").
    The call itself had finished: only its result is lost.  The bounded
    kernels return no array (see :func:`_drive`); this is the net for the
    short calls that still do.
    """
    @functools.wraps(fn)
    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except SystemError as exc:
            interrupt = _interrupt_in(exc)
            if interrupt is None:
                raise
            raise interrupt.with_traceback(interrupt.__traceback__) from None
    return run


def fuses(fn):
    """Declare ``fn`` the CPU implementation of the step of its name (Ctrl-C within it: KeyboardInterrupt)."""
    _FUSED[fn.__name__] = _interruptible(fn)
    return fn


def _need_full(step, *vectors):
    """Decline ``step`` unless ``vectors`` are full and distinct (they are lent to numba as numpy arrays)."""
    if len({id(v) for v in vectors}) < len(vectors):
        raise Declined(f"{step} lends its vectors to numba: they must be distinct objects")
    if any(_vnvals(v) != _vsize(v) for v in vectors):
        raise Declined(f"{step} needs full vectors")


def _need_weights(step, G):
    if G.weights is None:
        raise Declined(f"{step} needs a weighted graph")


def _csr(G):
    """``G``'s CSR as the kernels take it: ``(indptr, indices, max_degree)``, unsigned, cached.

    ``G.indptr`` is int64; below 2**32 stored entries a 32-bit copy (made once
    per graph, 4 bytes a vertex) halves what every row lookup reads.
    ``max_degree`` is the largest out-degree.
    """
    key = ("cpu", "csr32")
    csr = G._engine_cache.get(key)
    if csr is None:
        indptr = G.indptr
        if G.nnz < 1 << 32:
            indptr = indptr.astype(np.uint32)
        csr = G._engine_cache[key] = (_unsigned(indptr), _unsigned(G.indices), int(G.out_degree.max(initial=0)))
    return csr
