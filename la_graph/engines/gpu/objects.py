"""The GPU engine's vectors and matrices, and the flat views its primitives compute on.

Objects are opaque to algorithms (see docs/gpu.md):

* a vector (:class:`GVec`) is a dense CuPy array of values plus a bool
  presence array (``None`` when every entry is present);
* a matrix (:class:`GMat`) is CSR on the device (``indptr``/``indices`` int32
  where the sizes fit, else int64; values, or ``None`` for the iso ``True`` of an
  unweighted graph), or, for small dense-ish matrices such as the frontier
  matrix of a multi-source BFS, dense values plus presence of ``nrows * ncols``.

Arrays held by a vector or matrix are never written in place: every operation
makes new arrays, so objects may share arrays safely.
"""

from __future__ import annotations

import cupy as cp
import cupyx
import numpy as np

from ...exceptions import InvalidArgumentError
from .memory import _wait

_I32, _I64, _F64, _BOOL = np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.float64), np.dtype(bool)
_INT32_MAX = 2**31 - 1


class GVec:
    """A vector of the GPU engine: ``val`` (CuPy, length ``size``) and ``pres`` (bool, or None = full)."""

    __slots__ = ("size", "dtype", "val", "pres")

    def __init__(self, size, dtype, val, pres=None):
        self.size = int(size)
        self.dtype = np.dtype(dtype)
        self.val = val
        self.pres = pres

    def __repr__(self):
        return f"GVec(size={self.size}, dtype={self.dtype}, full={self.pres is None})"


class GMat:
    """A matrix of the GPU engine: CSR (``dense=False``) or dense values + presence (``dense=True``).

    CSR: ``indptr``, ``indices`` (int32 or int64, sorted within rows), ``val`` (or None:
    every value is ``True``, the unweighted graph's iso value).  Dense: ``val`` and
    ``pres`` flat of ``nrows * ncols`` (row-major; ``pres`` None = full).
    """

    __slots__ = ("nrows", "ncols", "dtype", "dense", "val", "pres", "indptr", "indices", "_cache")

    def __init__(self, nrows, ncols, dtype):
        self.nrows, self.ncols, self.dtype = int(nrows), int(ncols), np.dtype(dtype)
        self.dense = True
        self.val = self.pres = self.indptr = self.indices = None
        self._cache = {}

    @classmethod
    def csr(cls, nrows, ncols, dtype, indptr, indices, val):
        M = cls(nrows, ncols, dtype)
        M._set_csr(indptr, indices, val)
        return M

    @classmethod
    def dense_of(cls, nrows, ncols, dtype, val, pres):
        M = cls(nrows, ncols, dtype)
        M._set_dense(val, pres)
        return M

    def _set_csr(self, indptr, indices, val):
        self.dense, self.indptr, self.indices, self.val, self.pres = False, indptr, indices, val, None
        self._cache = {}

    def _set_dense(self, val, pres):
        self.dense, self.val, self.pres, self.indptr, self.indices = True, val, pres, None, None
        self._cache = {}

    def __repr__(self):
        form = "dense" if self.dense else "csr"
        return f"GMat({self.nrows}x{self.ncols}, dtype={self.dtype}, {form})"


# ---------------------------------------------------------------- flat views
# A "flat" is how the generic operations see a vector or matrix: (pos, val, pres) over
# N = size or nrows * ncols positions.  pos None: dense (val / pres of length N, pres
# None = full).  pos an int64 array: sorted positions (row-major keys) of the entries,
# val their values, pres None.

def _flat(x):
    if isinstance(x, GVec) or x.dense:
        return None, x.val, x.pres
    return _mat_keys(x), _mat_vals(x), None


def _nitems(x):
    return x.size if isinstance(x, GVec) else x.nrows * x.ncols


def _mat_keys(M):
    keys = M._cache.get("keys")
    if keys is None:
        nnz = int(M.indices.size)
        if nnz == 0:
            keys = cp.zeros(0, _I64)
        else:
            rows = cp.searchsorted(M.indptr[1:], cp.arange(nnz, dtype=M.indptr.dtype), side="right")
            keys = rows.astype(_I64) * M.ncols + M.indices.astype(_I64)
        M._cache["keys"] = keys
    return keys


def _mat_vals(M):
    if M.val is not None:
        return M.val
    v = M._cache.get("ones")
    if v is None:
        v = M._cache["ones"] = cp.ones(int(M.indices.size), _BOOL)
    return v


def _densify(f, N):
    pos, val, pres = f
    if pos is None:
        return f
    v = cp.zeros(N, val.dtype)
    p = cp.zeros(N, _BOOL)
    if pos.size:
        v[pos] = val
        p[pos] = True
    return None, v, p


def _sparsify(f):
    pos, val, pres = f
    if pos is not None:
        return f
    if pres is None:
        return cp.arange(val.size, dtype=_I64), val, None
    keys = cp.flatnonzero(pres).astype(_I64, copy=False)
    return keys, val[keys], None


def _gather(f, U):
    """Values and presence of flat ``f`` at positions ``U`` (any order)."""
    pos, val, pres = f
    if pos is None:
        return val[U], (pres[U] if pres is not None else cp.ones(U.size, _BOOL))
    if pos.size == 0:
        return cp.zeros(U.size, val.dtype), cp.zeros(U.size, _BOOL)
    idx = cp.minimum(cp.searchsorted(pos, U), pos.size - 1)
    return val[idx], pos[idx] == U


def _union(*keysets):
    keysets = [k for k in keysets if k.size]
    if not keysets:
        return cp.zeros(0, _I64)
    if len(keysets) == 1:
        return keysets[0]
    return cp.unique(cp.concatenate(keysets))


def _allowed(mask, structural, complement, N, U=None):
    """Where ``mask`` lets a write through: bool of length N (U None) or at positions U; None: no mask."""
    if mask is None:
        return None
    if _nitems(mask) != N:
        raise InvalidArgumentError(f"the mask has {_nitems(mask)} positions, the output {N}")
    pos, val, pres = _flat(mask)
    if pos is None:
        if structural:
            a = pres if pres is not None else cp.ones(N, _BOOL)
        else:
            a = (val != 0) if pres is None else ((val != 0) & pres)
        if U is not None:
            a = a[U]
    else:
        ok = cp.ones(pos.size, _BOOL) if structural else (val != 0)
        if U is None:
            a = cp.zeros(N, _BOOL)
            if pos.size:
                a[pos] = ok
        else:
            v, hit = _gather((pos, ok, None), U)
            a = v & hit
    return ~a if complement else a


def _ones_if_none(p, n):
    return cp.ones(n, _BOOL) if p is None else p


def _is_full(v):
    """Whether vector ``v`` holds every entry (no presence array, or one that is all True)."""
    return v.pres is None or bool(v.pres.all())


def _segments(sorted_keys):
    """Start offsets (int64, with the end appended) of the runs of equal values."""
    n = sorted_keys.size
    if n == 0:
        return cp.zeros(1, _I64)
    new = cp.empty(n, _BOOL)
    new[0] = True
    if n > 1:
        cp.not_equal(sorted_keys[1:], sorted_keys[:-1], out=new[1:])
    starts = cp.flatnonzero(new).astype(_I64, copy=False)
    return cp.concatenate([starts, cp.full(1, n, _I64)])


#: results of at least this many bytes come to the host through page-locked memory
PINNED_MIN_BYTES = 1 << 20


def _to_host(a):
    """A CuPy array's numpy copy; from ``PINNED_MIN_BYTES`` on, in page-locked memory of CuPy's pinned pool.

    A copy into pageable memory runs at a few GB/s (18 ms for the 64 MB of an
    SSSP's distances and parents on R-MAT 22); into page-locked memory at the
    bus's rate (about 7x faster), and the pool keeps the blocks for the next
    result.  The array returned holds its block until it is freed.  The copy
    waits for the work that makes ``a`` first in a way Ctrl-C can interrupt
    (:func:`~la_graph.engines.gpu.memory._wait`).
    """
    _wait()
    if a.nbytes < PINNED_MIN_BYTES:
        return cp.asnumpy(a)
    out = cupyx.empty_pinned(a.shape, a.dtype)
    cp.ascontiguousarray(a).get(out=out)
    return out
