"""The distributed engine's objects: which worker holds what (:class:`Placement`) and the handles of its
vectors and matrices (:class:`DVector`, :class:`DMatrix`: futures of their parts).

Shared by the operator interface (:mod:`.operators`), the client's engine (:mod:`.engine`) and the SPMD
engine of each worker (:mod:`.spmd`); imports nothing of the engine above it.
"""

from __future__ import annotations

import itertools

from ...exceptions import InvalidArgumentError

__all__ = ["Placement", "DVector", "DMatrix", "OTHER_PLACEMENT"]


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

#: the error of an object whose placement is not the engine's (the SPMD runs raise it too)
OTHER_PLACEMENT = ("an object of the dask engine was made by another dask engine, or on another set of "
                   "workers (the cluster changed since); make it again with this engine")


def _check_obj(x):
    if not isinstance(x, _DObject):
        raise InvalidArgumentError(f"expected a vector or matrix of the dask engine, got {type(x).__name__}")
    return x
