"""The one exception hierarchy of la_graph.

Every error the library raises on purpose derives from :class:`LaGraphError`,
and also from the built-in exception a Python user would expect
(``ValueError`` for bad values, ``IndexError`` for out-of-range ids, ...), so
both ``except la_graph.LaGraphError`` and ``except ValueError`` work.
Messages state the rule that was broken and the offending value.
"""

from __future__ import annotations

__all__ = [
    "LaGraphError",
    "InvalidGraphError",
    "InvalidSourceError",
    "InvalidArgumentError",
    "FileFormatError",
    "NegativeCycleError",
    "PathLengthOverflowError",
    "NumericRangeError",
    "ConvergenceError",
    "EngineUnavailable",
    "OutOfDeviceMemory",
    "OutOfMemory",
    "WorkerLost",
    "VerificationError",
    "NumberingWarning",
    "LatencyWarning",
]


class LaGraphError(Exception):
    """Base class of every error raised by la_graph."""

    def __reduce__(self):
        # Rebuilt by calling the class with its args, then its attributes restored: the reduction
        # BaseException gives makes tblib (which Dask uses to send a worker's error to the client) rebuild
        # the error through ``cls.__new__``, which MemoryError refuses for OutOfDeviceMemory and OutOfMemory
        # ("MemoryError.__new__(OutOfDeviceMemory) is not safe"), so those reached the client as a bare
        # Exception holding their repr.
        return (type(self), self.args, self.__dict__ or None)


class InvalidGraphError(LaGraphError, ValueError):
    """The graph or matrix breaks a rule: not square, bad ids, NaN weights, wrong kind."""


class InvalidSourceError(LaGraphError, IndexError):
    """A source vertex is not an integer in ``0 .. n-1``."""


class InvalidArgumentError(LaGraphError, ValueError):
    """An argument other than the graph or a source is out of its allowed set."""


class FileFormatError(LaGraphError, ValueError):
    """A graph file is malformed, truncated, or of an unknown format.

    Parse errors carry the file name and the 1-based line number.
    """


class NegativeCycleError(LaGraphError, ValueError):
    """A shortest-path query met a cycle of negative total weight."""


class PathLengthOverflowError(LaGraphError, OverflowError):
    """A path's length does not fit in float64 (the sum of its weights overflows to infinity),
    so the vertex would be reported unreachable although it is reached."""


class NumericRangeError(LaGraphError, ArithmeticError):
    """A quantity an algorithm computes leaves the range its number type holds exactly (a count
    beyond 2**53 in float64, a scaled count that underflows, an integer sum past int64), so the answer
    would be wrong without a word.  The message names the quantity, the value or bound, and what to do.
    docs/errors.md lists every place this can happen."""


class ConvergenceError(LaGraphError, RuntimeError):
    """An iterative method reached its iteration limit before its convergence test held.

    Attributes
    ----------
    iterations : int
        The iterations run.
    error : float
        The last iteration's change (in the norm the method's test uses).
    result : object
        What the method had after its last iteration (e.g. PageRank's ranks), for a caller
        who accepts an unconverged answer.
    """

    def __init__(self, message, *, iterations=None, error=None, result=None):
        super().__init__(message)
        self.iterations = iterations
        self.error = error
        self.result = result


class EngineUnavailable(LaGraphError, ImportError):
    """The requested engine cannot run here (missing package or device)."""


class OutOfDeviceMemory(LaGraphError, MemoryError):
    """An operation needs more device memory than is free."""


class OutOfMemory(LaGraphError, MemoryError):
    """A result needs more host memory than is available, or than a ``max_bytes`` limit allows."""


class WorkerLost(LaGraphError, RuntimeError):
    """A worker of the distributed engine left the cluster while a computation needed what it held."""


class VerificationError(LaGraphError, AssertionError):
    """A checker in :mod:`la_graph.verify` found a wrong result."""


class NumberingWarning(UserWarning):
    """An edge list looks 1-based (no vertex 0, smallest id 1) and nothing said how it is numbered.

    Its ids are kept as written, so vertex 0 is an extra isolated vertex;
    ``Graph.from_file(path, base=1)`` (``la-graph --base 1``) numbers from 1.
    """


class LatencyWarning(UserWarning):
    """An algorithm that waits on the cluster once per round, for many rounds, runs on the dask engine.

    Issued once per algorithm and process by the dask engine (its steps in
    :data:`la_graph.engines.dask.LATENCY_BOUND`), which also re-exports it.
    """
