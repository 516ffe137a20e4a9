"""How the distributed engine lays one dimension out over its segments.

A dimension of ``size`` indices (the vertices of a graph, or the columns of a
batch) is split into ``parts`` contiguous ranges of *positions*; index ``v``
sits at position ``position(v)``, a pseudo-random permutation, so the
high-degree vertices that generators and real graphs number first (R-MAT's hubs
are its low ids) spread over all segments instead of landing on one worker.

The permutation is arithmetic, not a table: a four-round Feistel network on the
``2 * half`` bits that cover ``0 .. size - 1``, cycle-walked back into range
(Black & Rogaway's construction of a permutation of an arbitrary domain).  Any
worker computes ``position`` and its inverse ``index`` for the ids it holds
with no shared table, and they are the same everywhere for the same ``size``
and ``seed``.  A one-segment layout is the identity.

Examples
--------
>>> import numpy as np
>>> L = Layout(10, 2)
>>> pos = L.position(np.arange(10))
>>> sorted(pos.tolist()) == list(range(10))
True
>>> bool((L.index(pos) == np.arange(10)).all())
True
>>> seg, local = L.locate(np.arange(10))
>>> [int((seg == k).sum()) for k in range(2)]
[5, 5]
"""

from __future__ import annotations

import numpy as np

from ..._random import splitmix64

_ROUNDS = 4
#: layouts of at most this many indices keep the permutation as two tables (16 bytes an index)
#: once a query covers a 64th of them: a gather then replaces the Feistel rounds
TABLE_MAX = 1 << 27


class Layout:
    """One dimension of ``size`` indices over ``parts`` segments (see the module docstring).

    Attributes
    ----------
    size, parts : int
    bounds : numpy.ndarray
        ``parts + 1`` positions: segment ``k`` holds positions ``bounds[k] .. bounds[k+1] - 1``,
        and the entry at position ``p`` of segment ``k`` is its local entry ``p - bounds[k]``.
    """

    __slots__ = ("size", "parts", "bounds", "_half", "_mask", "_keys", "_pos", "_ids")

    def __init__(self, size, parts, seed=0):
        self.size, self.parts = int(size), int(parts)
        self.bounds = (np.arange(self.parts + 1, dtype=np.int64) * self.size) // self.parts
        bits = max(int(self.size - 1).bit_length(), 2)
        self._half = np.uint64((bits + 1) // 2)
        self._mask = np.uint64((1 << int(self._half)) - 1)
        self._keys = splitmix64(np.arange(_ROUNDS, dtype=np.uint64)
                                + np.uint64((int(seed) * 1_000_003 + self.size) & ((1 << 62) - 1)))
        self._pos = self._ids = None

    def __getstate__(self):                                # the tables stay where they were built
        return {k: getattr(self, k) for k in self.__slots__ if k not in ("_pos", "_ids")}

    def __setstate__(self, state):
        for k, v in state.items():
            setattr(self, k, v)
        self._pos = self._ids = None

    def __eq__(self, other):
        return isinstance(other, Layout) and (self.size, self.parts) == (other.size, other.parts) \
            and bool((self._keys == other._keys).all())

    def __hash__(self):
        return hash((self.size, self.parts, int(self._keys[0])))

    @property
    def permuted(self):
        """Whether positions differ from indices (one segment: no)."""
        return self.parts > 1 and self.size > 2

    def lengths(self):
        """Entries per segment (int64 array)."""
        return np.diff(self.bounds)

    def _feistel(self, x, inverse):
        left, right = x >> self._half, x & self._mask
        keys = self._keys[::-1] if inverse else self._keys
        for key in keys:
            if inverse:
                left, right = right ^ (splitmix64(left ^ key) & self._mask), left
            else:
                left, right = right, left ^ (splitmix64(right ^ key) & self._mask)
        return (left << self._half) | right

    def _walk(self, v, inverse):
        if hasattr(v, "__cuda_array_interface__"):          # ids on a GPU: the rounds there, no tables
            v = v.astype(np.int64, copy=False)
            return self._walk_rounds(v, inverse) if self.permuted else v.copy()
        v = np.asarray(v, dtype=np.int64)
        if not self.permuted:
            return v.copy()
        if self._pos is None and self.size <= TABLE_MAX and v.size * 64 >= self.size:
            ids = np.arange(self.size, dtype=np.int64)
            self._pos = self._walk_rounds(ids, False)
            self._ids = np.empty_like(self._pos)
            self._ids[self._pos] = ids
        if self._pos is not None:
            return (self._ids if inverse else self._pos)[v]
        return self._walk_rounds(v, inverse)

    def _walk_rounds(self, v, inverse):
        x = self._feistel(v.astype(np.uint64), inverse)
        out = (x >= np.uint64(self.size)).nonzero()[0]
        while out.size:                                    # cycle-walk back into 0 .. size-1
            x[out] = self._feistel(x[out], inverse)
            out = out[x[out] >= np.uint64(self.size)]
        return x.astype(np.int64)

    def position(self, ids):
        """The positions of indices ``ids`` (int64 array; a CuPy array stays one)."""
        return self._walk(ids, False)

    def index(self, positions):
        """The indices at ``positions`` (the inverse of :meth:`position`)."""
        return self._walk(positions, True)

    def locate(self, ids):
        """``(segment, local)`` of each of ``ids``: which segment holds it, and where in it."""
        pos = self.position(ids)
        bounds = self.bounds
        if hasattr(pos, "__cuda_array_interface__"):
            import cupy as cp    # optional (GPU workers only): loaded where it runs
            bounds = cp.asarray(bounds)
            seg = cp.searchsorted(bounds, pos, side="right") - 1
        else:
            seg = np.searchsorted(bounds, pos, side="right") - 1
        return seg, pos - bounds[seg]

    def ids(self, k, xp=np):
        """The indices segment ``k`` holds, in local order (``xp``: numpy, or CuPy for them on the GPU)."""
        return self.index(xp.arange(self.bounds[k], self.bounds[k + 1], dtype=np.int64))
