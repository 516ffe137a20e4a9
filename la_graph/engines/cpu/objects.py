"""The CPU engine's objects: GraphBLAS types and status codes, vectors lent to numba, graph matrices.

Vectors and matrices are ``graphblas.Vector`` / ``graphblas.Matrix`` objects.
The fused steps (:mod:`.fused`) read and write vectors in place through the
views here, which move a vector's storage out of GraphBLAS and back in O(1).
"""

from __future__ import annotations

import numba
import numpy as np
from graphblas import Matrix, Vector
from graphblas.core.dtypes import lookup_dtype
from suitesparse_graphblas import ffi, lib
from suitesparse_graphblas.utils import claim_buffer, unclaim_buffer

from ...exceptions import InvalidArgumentError, InvalidGraphError, LaGraphError, OutOfMemory

_NULL = ffi.NULL
_SUFFIX = {np.dtype(t): s for t, s in [
    (bool, "BOOL"), (np.int8, "INT8"), (np.int16, "INT16"), (np.int32, "INT32"), (np.int64, "INT64"),
    (np.uint8, "UINT8"), (np.uint16, "UINT16"), (np.uint32, "UINT32"), (np.uint64, "UINT64"),
    (np.float32, "FP32"), (np.float64, "FP64")]}
_CTYPE = {np.dtype(t): c for t, c in [
    (bool, "bool"), (np.int8, "int8_t"), (np.int16, "int16_t"), (np.int32, "int32_t"), (np.int64, "int64_t"),
    (np.uint8, "uint8_t"), (np.uint16, "uint16_t"), (np.uint32, "uint32_t"), (np.uint64, "uint64_t"),
    (np.float32, "float"), (np.float64, "double")]}


#: GrB_Info codes of failures, by name (GraphBLAS C API 2.0 and SuiteSparse's own)
_INFO = {-1: "GrB_UNINITIALIZED_OBJECT", -2: "GrB_NULL_POINTER", -3: "GrB_INVALID_VALUE",
         -4: "GrB_INVALID_INDEX", -5: "GrB_DOMAIN_MISMATCH", -6: "GrB_DIMENSION_MISMATCH",
         -7: "GrB_OUTPUT_NOT_EMPTY", -8: "GrB_NOT_IMPLEMENTED", -101: "GrB_PANIC", -102: "GrB_OUT_OF_MEMORY",
         -103: "GrB_INSUFFICIENT_SPACE", -104: "GrB_INVALID_OBJECT", -105: "GrB_INDEX_OUT_OF_BOUNDS",
         -106: "GrB_EMPTY_OBJECT"}


# the views' two loops (numba, not numpy: one pass, no temporary)
@numba.njit(cache=True, nogil=True)
def mark(flags, indices):
    """``flags[indices] = True``."""
    for i in range(indices.size):
        flags[indices[i]] = True


@numba.njit(cache=True, nogil=True)
def fill_absent(values, present, fill):
    """``values[~present] = fill`` in one pass (numpy makes ``~present`` first)."""
    for i in range(values.size):
        if not present[i]:
            values[i] = fill


def _shapes(**operands):
    """`` (name shape, ...)`` of the vectors and matrices among ``operands`` (``name=object``); '' if none."""
    shapes = ", ".join(f"{k} {(_vsize(x),) if isinstance(x, Vector) else (x.nrows, x.ncols)}"
                       for k, x in operands.items() if isinstance(x, (Vector, Matrix)))
    return f" ({shapes})" if shapes else ""


def _ok(info, what, **operands):
    """Raise for a failed GraphBLAS call ``what``: a dimension or domain mismatch as InvalidArgumentError naming
    the ``operands``' shapes (``name=object``), out of memory as OutOfMemory, anything else as LaGraphError."""
    if info == 0:
        return
    name, shapes = _INFO.get(info, f"GrB_Info {info}"), _shapes(**operands)
    if info == -6:
        raise InvalidArgumentError(f"{what}: the operands' dimensions do not match{shapes}; {name}")
    if info == -5:
        raise InvalidArgumentError(f"{what}: an operand's type does not suit the operator{shapes}; {name}")
    if info == -102:
        raise OutOfMemory(f"{what}: SuiteSparse:GraphBLAS ran out of host memory{shapes}; {name}")
    raise LaGraphError(f"SuiteSparse:GraphBLAS failed in {what}{shapes}; {name}")


def _own(x, what, kind=None):
    """``x``, checked to be a vector or matrix of this engine (``kind``: Vector or Matrix only)."""
    if not isinstance(x, kind or (Vector, Matrix)):
        want = {Vector: "vector", Matrix: "matrix"}.get(kind, "vector or matrix")
        gb = {Vector: "Vector", Matrix: "Matrix"}.get(kind, "Vector or Matrix")
        raise InvalidArgumentError(f"{what} must be a cpu-engine {want} (a python-graphblas {gb}, made by this "
                                   f"engine), got {type(x).__module__}.{type(x).__name__}")
    return x


def _np(dtype):
    return np.dtype(dtype.np_type)


def _vsize(v):
    """``v.size`` by one raw call (python-graphblas's property costs ~4 us: several per fused step)."""
    n = ffi.new("GrB_Index*")
    _ok(lib.GrB_Vector_size(n, v._carg), "size")
    return n[0]


def _vnvals(v):
    """``v.nvals`` by one raw call."""
    n = ffi.new("GrB_Index*")
    _ok(lib.GrB_Vector_nvals(n, v._carg), "nvals")
    return n[0]


class _lent:
    """Lend vectors' storage as numpy arrays without copying, and take it back.

    The storage is moved out of each vector (``GxB_Vector_unpack_*``), viewed
    by numpy, and packed back on exit: O(1) each way.  (python-graphblas's own
    pack copies arrays it does not own, O(n) per vector and call.)  An iso
    vector is expanded to one value per entry first (into a numpy array handed
    over to GraphBLAS), unless ``values=False`` (only the bitmaps are read:
    the values view is then None for an iso vector, which stays iso).
    ``None`` lends a pair of empty arrays.  The views are valid only inside
    the ``with`` block.
    """

    fmt = ""

    def __init__(self, *vectors, values=True):
        self.vectors = vectors
        self.values = values  # False: only the bitmaps are wanted (an iso vector is then not expanded)

    def __enter__(self):
        self.held, out = [], []
        for v in self.vectors:
            if v is None:
                self.held.append(None)
                out.append(self._empty())
                continue
            self._check(v)
            dt = _np(v.dtype)
            vb, vx = ffi.new("int8_t**"), ffi.new("void**")
            vb_size, vx_size = ffi.new("GrB_Index*"), ffi.new("GrB_Index*")
            iso, nvals = ffi.new("bool*"), ffi.new("GrB_Index*")
            self._unpack(v, vb, vx, vb_size, vx_size, iso, nvals)
            keep_iso = bool(iso[0]) and not self.values
            if iso[0] and self.values:  # one value for all entries: expand it into a new array GraphBLAS will own
                value = claim_buffer(ffi, vx[0], vx_size[0] // dt.itemsize, dt)[0]  # numpy frees the old one
                full = self._expand(v, vb, value, dt, nvals[0])
                vx[0] = ffi.from_buffer("void*", full)
                vx_size[0] = full.nbytes
                unclaim_buffer(full)
            values = None if keep_iso else np.frombuffer(ffi.buffer(vx[0], vx_size[0]), dtype=dt)[:_vsize(v)]
            self.held.append((vb, vx, vb_size[0], vx_size[0], keep_iso))
            out.append(self._views(v, vb, values))
        return out

    def __exit__(self, *exc):
        for v, held in zip(self.vectors, self.held):
            if held is not None:
                self._pack(v, *held)
        return False


class _numpy_views(_lent):
    """Lend full vectors' values as numpy arrays (``with _numpy_views(u, w) as (ua, wa)``)."""

    fmt = "full"

    @staticmethod
    def _empty():
        return np.empty(0, np.int64)

    @staticmethod
    def _check(v):
        if _vnvals(v) != _vsize(v):
            raise InvalidArgumentError("this operation needs full vectors")

    @staticmethod
    def _unpack(v, vb, vx, vb_size, vx_size, iso, nvals):
        _ok(lib.GxB_Vector_unpack_Full(v._carg, vx, vx_size, iso, _NULL), "unpack")

    @staticmethod
    def _expand(v, vb, value, dt, nvals):
        return np.full(_vsize(v), value, dtype=dt)

    @staticmethod
    def _views(v, vb, values):
        return values

    @staticmethod
    def _pack(v, vb, vx, vb_size, vx_size, iso):
        _ok(lib.GxB_Vector_pack_Full(v._carg, vx, vx_size, iso, _NULL), "pack")


class _bitmap_views(_lent):
    """Lend vectors as ``(bitmap, values)`` numpy pairs; the entry count is recounted on exit."""

    fmt = "bitmap"

    @staticmethod
    def _empty():
        return np.empty(0, bool), np.empty(0, np.int64)

    @staticmethod
    def _check(v):
        pass

    @staticmethod
    def _unpack(v, vb, vx, vb_size, vx_size, iso, nvals):
        _ok(lib.GxB_Vector_unpack_Bitmap(v._carg, vb, vx, vb_size, vx_size, iso, nvals, _NULL), "unpack")

    @staticmethod
    def _expand(v, vb, value, dt, nvals):
        # written only where present: a fresh array's untouched pages cost nothing (a page fault
        # each, on first touch, costs more than the write; a BFS parent vector starts with one entry)
        n = _vsize(v)
        out = np.empty(n, dtype=dt)
        present = np.frombuffer(ffi.buffer(vb[0], n), dtype=np.bool_)
        if nvals * 64 < n:   # a few entries (a search's start): find them (one fast scan), set those
            out[np.flatnonzero(present)] = value
        else:
            np.copyto(out, value, where=present)
        return out

    @staticmethod
    def _views(v, vb, values):
        return np.frombuffer(ffi.buffer(vb[0], _vsize(v)), dtype=np.bool_), values

    @staticmethod
    def _pack(v, vb, vx, vb_size, vx_size, iso):
        nvals = int(np.count_nonzero(np.frombuffer(ffi.buffer(vb[0], _vsize(v)), dtype=np.bool_)))
        _ok(lib.GxB_Vector_pack_Bitmap(v._carg, vb, vx, vb_size, vx_size, iso, nvals, _NULL), "pack")


def _take_values(v, fill):
    """The values of a bitmap or full, non-iso vector as a numpy array that takes over its storage.

    ``v`` is left empty (its storage unpacked and claimed by numpy): no copy and
    no fresh pages, where a copy of a result of millions of entries costs
    milliseconds.  Absent entries become ``fill`` (written only there).
    """
    dt = _np(v.dtype)
    n = _vsize(v)
    vb, vx = ffi.new("int8_t**"), ffi.new("void**")
    vb_size, vx_size = ffi.new("GrB_Index*"), ffi.new("GrB_Index*")
    iso, nvals = ffi.new("bool*"), ffi.new("GrB_Index*")
    if v.ss.format == "full":
        _ok(lib.GxB_Vector_unpack_Full(v._carg, vx, vx_size, iso, _NULL), "unpack")
        present = None
        nvals[0] = n
    else:
        _ok(lib.GxB_Vector_unpack_Bitmap(v._carg, vb, vx, vb_size, vx_size, iso, nvals, _NULL), "unpack")
        present = claim_buffer(ffi, vb[0], vb_size[0], np.dtype(np.bool_))[:n]
    values = claim_buffer(ffi, vx[0], vx_size[0] // dt.itemsize, dt)
    if iso[0]:                                   # callers pass non-iso vectors; one value for all, expanded
        values = np.full(n, values[0], dt)
    values = values[:n]
    if nvals[0] < n:
        fill_absent(values, present, np.asarray(fill).astype(dt)[()])
    return values


def _indices(v):
    """The indices of ``v``'s entries as numpy (a bitmap is lent out and back: no sort, no copy of values)."""
    if v.ss.format == "bitmap":
        with _bitmap_views(v, values=False) as ((present, _),):
            return np.flatnonzero(present)
    n = ffi.new("GrB_Index*", _vnvals(v))   # in: the room; out: the entries read
    out = np.empty(n[0], np.uint64)  # the indices alone (no values: SuiteSparse takes NULL), read in place
    _ok(lib.GrB_Vector_extractTuples_BOOL(ffi.from_buffer("GrB_Index*", out), _NULL, n, v._carg), "extractTuples")
    return out[:n[0]].view(np.int64)


def _queue(q, dtype):
    """A scratch queue of ``q.size`` vertex ids (``dtype``) holding ``q``'s indices first; returns ``(queue, count)``."""
    nq = _vnvals(q)
    queue = np.empty(_vsize(q), dtype)
    queue[:nq] = _indices(q)
    return queue, nq


def _frontier(indices, n, dtype):
    """A BFS frontier: ones at ``indices`` (unsorted), built as a bitmap (from_coo would sort).

    The flags are set in numba (numpy's scatter converts the indices first: 4x
    slower) and handed to GraphBLAS with a raw pack (python-graphblas's costs ~0.1 ms).
    An empty frontier (a search's end) is a new empty vector: no bitmap of ``n`` flags.
    """
    if indices.size == 0:
        return _new_vector(dtype, n)
    present = np.zeros(n, bool)
    mark(present, indices)
    v = _new_vector(dtype, n)
    one = np.ones(1, _np(v.dtype))
    vb = ffi.new("int8_t**", ffi.from_buffer("int8_t*", present))
    vx = ffi.new("void**", ffi.from_buffer("void*", one))
    _ok(lib.GxB_Vector_pack_Bitmap(v._carg, vb, vx, present.nbytes, one.nbytes, True, indices.size, _NULL), "pack")
    unclaim_buffer(present)  # GraphBLAS owns (and frees) both arrays now
    unclaim_buffer(one)
    return v


def _new_vector(dtype, n):
    """An empty ``graphblas.Vector`` of ``n`` entries, made by one raw call (python-graphblas's constructor
    costs ~5 us more: a Scalar for the size, a recorded call)."""
    dtype = lookup_dtype(dtype)
    gb = ffi.new("GrB_Vector*")
    _ok(lib.GrB_Vector_new(gb, dtype.gb_obj, n), "new")
    return Vector._from_obj(gb, dtype, n)


def _owning_full(values):
    """A full vector that takes over 1-d numpy array ``values`` (a raw pack: no copy)."""
    dt = values.dtype
    values = np.ascontiguousarray(values)
    if not values.flags.owndata or not values.flags.writeable:
        values = values.copy()
    v = _new_vector(dt, values.size)
    vx = ffi.new("void**", ffi.from_buffer("void*", values))
    _ok(lib.GxB_Vector_pack_Full(v._carg, vx, values.nbytes, False, _NULL), "pack")
    unclaim_buffer(values)  # GraphBLAS owns (and frees) it now
    return v


def _unsigned(a):
    """The same memory as integer array ``a``, viewed as the unsigned type of its width.

    The numba kernels get their index arrays so: numba wraps negative indices,
    and with signed ones it tests for them on every edge.
    """
    return a.view(np.dtype(f"u{a.dtype.itemsize}"))


# ---- graphs and interop ----
def graph_to_graphblas(G):
    """A new python-graphblas ``Matrix`` of ``G``'s adjacency: iso BOOL ones if unweighted, else FP64 weights."""
    if G.weights is None:
        values, iso = np.ones(1, dtype=bool), True
    else:
        values, iso = G.weights, False
    return Matrix.ss.import_csr(
        nrows=G.n, ncols=G.n, indptr=G.indptr, col_indices=G.indices, values=values,
        is_iso=iso, sorted_cols=True, take_ownership=False, name="A",
    )


def graphblas_to_scipy(M):
    """A python-graphblas ``Matrix`` as a scipy COO array (its stored entries; values keep their type)."""
    import scipy.sparse as sp

    if not isinstance(M, Matrix):
        raise InvalidGraphError(f"expected a graphblas.Matrix, got {type(M).__name__}")
    rows, cols, vals = M.to_coo()
    return sp.coo_array((vals, (rows, cols)), shape=(M.nrows, M.ncols))
