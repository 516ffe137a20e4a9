"""The CPU engine: the operator interface on python-graphblas (SuiteSparse:GraphBLAS).

The hot operations call SuiteSparse:GraphBLAS through its C API directly
(python-graphblas' expression layer costs 30-90 us a call, the C call 1-20 us:
that is the whole per-level budget of a BFS on a road network).  The steps the
engine runs as one compiled loop are declared in :mod:`.fused`.
"""

from __future__ import annotations

import numpy as np

import graphblas as gb
from graphblas import Matrix, Vector, binary, monoid, unary
from graphblas import select as gb_select
from graphblas.core.dtypes import lookup_dtype
from graphblas.core.operator import get_typed_op
from suitesparse_graphblas import ffi, lib

from ...exceptions import InvalidArgumentError
from ..base import BINARY_OPS, MONOIDS, SELECT_OPS, UNARY_OPS, Engine, is_scalar
from . import interop
from .fused import FUSED
from .objects import (_CTYPE, _NULL, _SUFFIX, _bitmap_views, _np, _numpy_views, _new_vector, _ok, _own, _owning_full,
                      _shapes, _take_values, _vsize, graph_to_graphblas)

_SPARSITY = {"sparse": lib.GxB_SPARSE, "dense": lib.GxB_BITMAP + lib.GxB_FULL}
_SEMIRING_CACHE = {}
_BINARY_CACHE = {}
_APPLY_CACHE = {}


def _desc(mask, structural, complement, replace):
    if mask is None:
        if complement:
            raise InvalidArgumentError("complement=True needs a mask")
        return lib.GrB_DESC_R if replace else _NULL
    name = "GrB_DESC_" + ("R" if replace else "") + ("S" if structural else "") + ("C" if complement else "")
    return _NULL if name == "GrB_DESC_" else getattr(lib, name)


def _carg(x):
    return _NULL if x is None else x._carg


_INDEX_MULTS = {"firsti", "firsti1", "firstj", "firstj1", "secondi", "secondi1", "secondj", "secondj1"}
_SELECT_NAMES = {
    "valueeq": "valueeq", "valuene": "valuene", "valuelt": "valuelt", "valuele": "valuele",
    "valuegt": "valuegt", "valuege": "valuege", "rowle": "rowle", "rowgt": "rowgt",
    "tril": "tril", "triu": "triu", "diag": "diag", "offdiag": "offdiag",
}


def _lookup(namespace, name, kind, known):
    if known is not None and name not in known:
        raise InvalidArgumentError(f"unknown {kind} {name!r}; known: {', '.join(known)}")
    ss = getattr(namespace, "ss", None)
    op = getattr(ss, name, None) if ss is not None else None  # SuiteSparse extensions (secondi, ...)
    if op is None:
        op = getattr(namespace, "cdiv" if name == "div" else name, None)  # GrB_DIV is graphblas binary.cdiv
    if op is None:
        raise InvalidArgumentError(f"unknown {kind} {name!r}")
    return op


def _semiring(name, left, right):
    """The typed SuiteSparse semiring for operand dtypes ``left`` (first) and ``right`` (second)."""
    key = (name, left, right)
    op = _SEMIRING_CACHE.get(key)
    if op is None:
        op = _SEMIRING_CACHE[key] = _find_semiring(name, left, right)
    return op


def _find_semiring(name, left, right):
    if not isinstance(name, str) or "_" not in name:
        raise InvalidArgumentError(f"semiring must be a name like 'min_second', got {name!r}")
    add, mult = name.split("_", 1)
    if mult in _INDEX_MULTS:
        dtype = np.int64
    elif mult == "first":
        dtype = left
    elif mult == "second":
        dtype = right
    elif mult == "pair":
        dtype = np.int64 if add == "plus" else left
    else:
        dtype = np.result_type(left, right)
    op = _lookup(gb.semiring, name, "semiring", None)
    try:
        return op[dtype]
    except KeyError:
        if np.dtype(dtype) != np.bool_:
            raise InvalidArgumentError(f"semiring {name!r} is not defined on {np.dtype(dtype)}") from None
        return op[np.int64]  # arithmetic on booleans counts: compute in int64


def _binary(name):
    return _lookup(binary, name, "binary op", BINARY_OPS) if name is not None else None


def _typed_monoid(name, dtype):
    """The typed monoid ``name`` for ``dtype``; plus/times on booleans count in int64."""
    m = _lookup(monoid, name, "monoid", MONOIDS)
    try:
        return m[dtype]
    except KeyError:
        if np.dtype(dtype) != np.bool_:
            raise InvalidArgumentError(f"monoid {name!r} is not defined on {np.dtype(dtype)}") from None
        return m[np.int64]


def _apply_call(op, x_dtype, right):
    """``(typed op, C function, scalar dtype)`` of ``x.apply(op, right=right)`` on a vector, or ``None``.

    The typing is python-graphblas' own (``get_typed_op``, the scalar's dtype
    from its Python or numpy type), cached per (op, vector dtype, scalar type):
    the call then costs one raw C call instead of an expression and a
    ``Vector`` (~10-25 us).  ``None`` (user-defined types, unknown scalars):
    take python-graphblas' path.
    """
    key = (op, x_dtype, None if right is None else type(right))
    hit = _APPLY_CACHE.get(key)
    if hit is None and key not in _APPLY_CACHE:
        if not x_dtype._is_udt:
            if right is None:
                typed = get_typed_op(_lookup(unary, op, "unary op", UNARY_OPS), x_dtype, kind="unary")
                hit = (typed, lib.GrB_Vector_apply, None)
            else:
                try:
                    rdt = lookup_dtype(type(right), right)
                except (TypeError, ValueError):
                    rdt = None
                if rdt is not None and not rdt._is_udt:
                    typed = get_typed_op(_binary(op), x_dtype, rdt, is_right_scalar=True, kind="binary")
                    hit = (typed, getattr(lib, f"GrB_Vector_apply_BinaryOp2nd_{rdt.name}"), np.dtype(rdt.np_type))
        _APPLY_CACHE[key] = hit
    return hit


def _typed_binary(name, dtype):
    """The typed binary op ``name`` for ``dtype`` (``None`` for ``None``)."""
    if name is None:
        return None
    key = (name, dtype)
    op = _BINARY_CACHE.get(key)
    if op is None:
        op = _BINARY_CACHE[key] = _binary(name)[dtype]
    return op


class CPUEngine(Engine):
    """python-graphblas implementation of :class:`~la_graph.engines.base.Engine`."""

    name = "cpu"

    #: the steps run as one compiled loop each (:mod:`.fused`)
    fused_steps = FUSED

    # every push level goes to the fused numba loop: on the machines measured it
    # beat GrB_vxm even for frontiers of millions of edges (see docs/engines.md)
    bfs_fuse_edges = 1 << 62
    narrow_ids = False

    # ---------------------------------------------------------------- graphs
    def matrix(self, G, *, transpose=False):
        key = ("cpu", "AT" if transpose else "A")
        M = G._engine_cache.get(key)
        if M is None:
            M = G._engine_cache[key] = graph_to_graphblas(G.T if transpose else G)
        return M

    def degree(self, G, *, transpose=False):
        key = ("cpu", "din" if transpose else "dout")
        d = G._engine_cache.get(key)
        if d is None:
            d = self.vector_from_numpy(G.in_degree if transpose else G.out_degree)
            G._engine_cache[key] = d
        return d

    graph_from_graphblas = interop.graph_from_graphblas    # Graph.from_graphblas, through the registry
    graph_to_graphblas = interop.graph_to_graphblas        # Graph.to_graphblas

    # ---------------------------------------------------------------- building
    def vector(self, size, dtype):
        return _new_vector(np.dtype(dtype), size)

    def full(self, size, value, dtype=None):
        dtype = np.dtype(dtype) if dtype is not None else np.asarray(value).dtype
        # stored value by value, not iso: later in-place updates then never meet an iso C;
        # the numpy array handed to GraphBLAS as it is (from_dense copies it: ~30 us more)
        return _owning_full(np.full(size, value, dtype=dtype))

    def iota(self, size):
        return _owning_full(np.arange(size, dtype=np.int64))

    def vector_from_numpy(self, values):
        return _owning_full(np.array(values, order="C"))   # a copy GraphBLAS takes over (from_dense: ~30 us more)

    def vector_from_coo(self, indices, values, size, *, dup=None, dtype=None):
        if np.size(indices) == 1 and np.size(values) == 1 and 0 <= int(np.ravel(indices)[0]) < size:
            # one entry (a search's source): set it; building a vector costs ~0.1 ms of calls
            value = values if np.isscalar(values) else np.ravel(values)[0]
            dt = np.dtype(dtype) if dtype is not None else np.asarray(value).dtype
            v = _new_vector(dt, size)
            _ok(getattr(lib, f"GrB_Vector_setElement_{_SUFFIX[dt]}")(v._carg, dt.type(value).item(),
                                                                      int(np.ravel(indices)[0])), "setElement")
            return v
        values = np.full(np.size(indices), values) if np.isscalar(values) and dup is not None else values
        dup = None if np.isscalar(values) else _binary(dup)
        return Vector.from_coo(np.asarray(indices, dtype=np.int64), values, size=size, dup_op=dup, dtype=dtype)

    def matrix_from_coo(self, rows, cols, values, nrows, ncols, *, dup=None, dtype=None):
        values = np.full(np.size(rows), values) if np.isscalar(values) and dup is not None else values
        dup = None if np.isscalar(values) else _binary(dup)
        return Matrix.from_coo(np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64), values,
                               nrows=nrows, ncols=ncols, dup_op=dup, dtype=dtype)

    def _matrix_from_csr(self, indptr, indices, values, nrows, ncols, *, dtype):
        dtype = np.dtype(dtype)
        iso = np.ndim(values) == 0
        return Matrix.ss.import_csr(nrows=nrows, ncols=ncols, indptr=indptr, col_indices=indices,
                                    values=np.full(1, values, dtype) if iso else values, is_iso=iso,
                                    sorted_cols=True, take_ownership=False, dtype=dtype)

    def to_numpy(self, x, fill=None, *, consume=False):
        _own(x, "x")
        full = self.nvals(x) == (_vsize(x) if isinstance(x, Vector) else x.nrows * x.ncols)
        if fill is None and not full:
            raise InvalidArgumentError("to_numpy needs fill= for an object with missing entries")
        if consume and isinstance(x, Vector) and x.ss.format in ("bitmap", "full") and not x.ss.is_iso:
            return _take_values(x, fill)                        # x's own buffer: no copy, no fresh pages
        if isinstance(x, Vector) and x.ss.format == "bitmap":
            # the values and presence flags lent as numpy: one np.where instead of a GraphBLAS assign
            with _bitmap_views(x) as ((present, values),):   # (x is empty while its storage is lent)
                if full:
                    return values.copy()
                out = np.full(values.size, fill, dtype=values.dtype)
                np.copyto(out, values, where=present)  # reads only present values: untouched pages stay so
                return out
        return x.to_dense(fill_value=fill)

    def to_coo(self, x):
        return _own(x, "x").to_coo()

    def copy(self, x):
        return _own(x, "x").dup()

    def nvals(self, x):
        _own(x, "x")
        n = ffi.new("GrB_Index*")
        _ok((lib.GrB_Vector_nvals if isinstance(x, Vector) else lib.GrB_Matrix_nvals)(n, x._carg), "nvals")
        return n[0]

    def size(self, x):
        return _own(x, "x").size if isinstance(x, Vector) else (x.nrows, x.ncols)

    def isequal(self, x, y):
        _own(x, "x"), _own(y, "y")
        return type(x) is type(y) and x.isequal(y)

    def hint(self, x, storage):
        Engine.hint(self, x, storage)
        _own(x, "x")
        _ok(lib.GxB_Vector_Option_set(x._carg, lib.GxB_SPARSITY_CONTROL, ffi.cast("int", _SPARSITY[storage]))
            if isinstance(x, Vector) else
            lib.GxB_Matrix_Option_set(x._carg, lib.GxB_SPARSITY_CONTROL, ffi.cast("int", _SPARSITY[storage])),
            "hint")
        return x

    # ---------------------------------------------------------------- output plumbing
    @staticmethod
    def _store(expr, out, mask, accum, structural, complement, replace):
        """Evaluate a python-graphblas expression into ``out`` (for the less hot operations)."""
        kwargs = {}
        if mask is not None:
            m = mask.S if structural else mask.V
            kwargs["mask"] = ~m if complement else m
        elif complement:
            raise InvalidArgumentError("complement=True needs a mask")
        if out is None and accum is not None:
            raise InvalidArgumentError("accum needs out=")
        if accum is not None:
            kwargs["accum"] = _binary(accum)
        if replace and mask is not None:  # without a mask, replace changes nothing (python-graphblas rejects it)
            kwargs["replace"] = True
        try:
            if out is None:
                return expr.new(**kwargs)
            out(**kwargs) << expr
        except gb.exceptions.DimensionMismatch as exc:
            raise InvalidArgumentError(f"the operands' dimensions do not match the result's"
                                       f"{_shapes(out=out, mask=mask)}: {exc}") from exc
        return out

    @staticmethod
    def _out(out, dtype, shape, accum):
        if out is None:
            if accum is not None:
                raise InvalidArgumentError("accum needs out=")
            return _new_vector(dtype, shape) if isinstance(shape, int) else Matrix(dtype, *shape)
        return out

    def _accum(self, accum, out):
        return _NULL if accum is None else _typed_binary(accum, _np(out.dtype)).gb_obj

    # ---------------------------------------------------------------- operations
    def _accum_via_assign(self, sr, left, right):
        """Whether ``out accum= left (+.*) right`` must be done as a product, then an assign.

        SuiteSparse 9.4.5 fuses an accum equal to the semiring's add op into the
        product and then skips typecasting the operands: wrong values.  So when the
        multiply reads an operand whose type differs from its input type, the
        product goes to a temporary first.
        """
        mult = sr.binaryop
        name = mult.name.split("[")[0]
        uses_left = name not in _INDEX_MULTS and name not in ("second", "pair", "oneb")
        uses_right = name not in _INDEX_MULTS and name not in ("first", "pair", "oneb")
        return (uses_left and mult.type != left.dtype) or (uses_right and mult.type2 != right.dtype)

    def _product(self, fn, what, sr, left, right, w, mask, accum, structural, complement, replace):
        _outmask(w, mask, Matrix if what == "mxm" else Vector)
        if mask is not None and not structural:
            # SuiteSparse 9.4.5 crashes (an accumulating vxm into a sparse output under a full bool
            # value mask) or hangs (a value-masked vxm on R-MAT 12) on value masks of products; the
            # mask's true entries, taken as a structural mask, allow the same places
            mask, structural = mask.select("!=", 0).new(), True
        if (left.size if isinstance(left, Vector) else left.ncols) == 0:
            # an empty inner dimension: the product has no entries.  SuiteSparse 9.4.5 takes a matrix or
            # vector with a zero dimension as full (0 == 0 entries) and returns a full product of zeros
            # (the distributed engine's empty segments, on a grid larger than the vertices, met it)
            T = self._out(None, sr.return_type, self.size(w), None)
            return self.assign(w, T, mask=mask, accum=accum, structural=structural, complement=complement,
                               replace=replace)
        if accum is not None and self._accum_via_assign(sr, left, right):
            T = self._out(None, sr.return_type, self.size(w), None)
            _ok(fn(T._carg, _carg(mask), _NULL, sr.gb_obj, left._carg, right._carg,
                   _desc(mask, structural, complement, False)), what, left=left, right=right, mask=mask)
            return self.assign(w, T, mask=mask, accum=accum, structural=structural, complement=complement,
                               replace=replace)
        _ok(fn(w._carg, _carg(mask), self._accum(accum, w), sr.gb_obj, left._carg, right._carg,
               _desc(mask, structural, complement, replace)), what, left=left, right=right, out=w, mask=mask)
        return w

    def mxv(self, A, u, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        _own(A, "A", Matrix), _own(u, "u", Vector)
        sr = _semiring(semiring, _np(A.dtype), _np(u.dtype))
        w = self._out(out, sr.return_type, A.nrows, accum)
        return self._product(lib.GrB_mxv, "mxv", sr, A, u, w, mask, accum, structural, complement, replace)

    def vxm(self, u, A, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        _own(u, "u", Vector), _own(A, "A", Matrix)
        sr = _semiring(semiring, _np(u.dtype), _np(A.dtype))
        w = self._out(out, sr.return_type, A.ncols, accum)
        return self._product(lib.GrB_vxm, "vxm", sr, u, A, w, mask, accum, structural, complement, replace)

    def mxm(self, A, B, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        _own(A, "A", Matrix), _own(B, "B", Matrix)
        sr = _semiring(semiring, _np(A.dtype), _np(B.dtype))
        C = self._out(out, sr.return_type, (A.nrows, B.ncols), accum)
        return self._product(lib.GrB_mxm, "mxm", sr, A, B, C, mask, accum, structural, complement, replace)

    def _ewise(self, kind, x, y, op, out, mask, accum, structural, complement, replace):
        _own(x, "x")
        _own(y, "y", type(x))
        _outmask(out, mask, type(x))
        bop = _typed_binary(op, np.result_type(_np(x.dtype), _np(y.dtype)))
        vec = isinstance(x, Vector)
        w = self._out(out, bop.return_type, x.size if vec else (x.nrows, x.ncols), accum)
        if out is not None and mask is None and accum is None and out is not x and out is not y:
            # C = x op y overwrites C: start from an empty C.  (SuiteSparse 9.4.5 writes
            # every value into the one-value buffer of an iso-valued full C otherwise.)
            _ok((lib.GrB_Vector_clear if vec else lib.GrB_Matrix_clear)(w._carg), "clear")
        fn = getattr(lib, f"GrB_{'Vector' if vec else 'Matrix'}_eWise{kind}_BinaryOp")
        _ok(fn(w._carg, _carg(mask), self._accum(accum, w), bop.gb_obj, x._carg, y._carg,
               _desc(mask, structural, complement, replace)), f"ewise_{kind.lower()}", x=x, y=y, out=w, mask=mask)
        return w

    def ewise_add(self, x, y, op, *, out=None, mask=None, accum=None,
                  structural=False, complement=False, replace=False):
        return self._ewise("Add", x, y, op, out, mask, accum, structural, complement, replace)

    def ewise_mult(self, x, y, op, *, out=None, mask=None, accum=None,
                   structural=False, complement=False, replace=False):
        return self._ewise("Mult", x, y, op, out, mask, accum, structural, complement, replace)

    def apply(self, x, op, *, right=None, out=None, mask=None, accum=None,
              structural=False, complement=False, replace=False):
        _own(x, "x"), _outmask(out, mask, type(x))
        call = _apply_call(op, x.dtype, right) if isinstance(x, Vector) else None
        if call is not None:                                  # one raw call (python-graphblas' typing)
            typed, fn, rdt = call
            w = self._out(out, typed.return_type, _vsize(x), accum)
            args = (x._carg,) if rdt is None else (x._carg, rdt.type(right).item())
            _ok(fn(w._carg, _carg(mask), self._accum(accum, w), typed.gb_obj, *args,
                   _desc(mask, structural, complement, replace)), "apply", x=x, out=w, mask=mask)
            return w
        if right is None:
            expr = x.apply(_lookup(unary, op, "unary op", UNARY_OPS))
        else:
            expr = x.apply(_binary(op), right=right)
        return self._store(expr, out, mask, accum, structural, complement, replace)

    def select(self, x, op, thunk=None, *, out=None, mask=None, accum=None,
               structural=False, complement=False, replace=False):
        _own(x, "x"), _outmask(out, mask, type(x))
        sel = _lookup(gb_select, _SELECT_NAMES.get(op, op), "select op", SELECT_OPS)
        expr = x.select(sel, thunk) if thunk is not None else x.select(sel)
        return self._store(expr, out, mask, accum, structural, complement, replace)

    def reduce(self, x, monoid_name):
        m = _typed_monoid(monoid_name, _np(_own(x, "x").dtype))
        dt = _np(m.type)
        if isinstance(x, Vector):
            out = ffi.new(f"{_CTYPE[dt]}*")
            _ok(getattr(lib, f"GrB_Vector_reduce_{_SUFFIX[dt]}")(out, _NULL, m.gb_obj, x._carg, _NULL), "reduce")
            return out[0]
        s = x.reduce_scalar(m).new()
        value = m.identity if s.is_empty else s.value
        return value.item() if hasattr(value, "item") else value

    def reduce_rows(self, A, monoid_name, *, out=None, mask=None, accum=None,
                    structural=False, complement=False, replace=False):
        _own(A, "A", Matrix), _outmask(out, mask, Vector)
        expr = A.reduce_rowwise(_typed_monoid(monoid_name, _np(A.dtype)))
        return self._store(expr, out, mask, accum, structural, complement, replace)

    def extract(self, u, index, *, out=None, mask=None, accum=None,
                structural=False, complement=False, replace=False):
        _own(u, "u", Vector), _outmask(out, mask, Vector)
        idx = _index_array(index)
        if mask is None and accum is None and out is None and not complement and self.nvals(u) == _vsize(u):
            with _numpy_views(u) as (ua,):
                return Vector.from_dense(ua[idx])  # dense gather: numpy beats GrB_extract here
        return self._store(u[idx], out, mask, accum, structural, complement, replace)

    def assign(self, w, u, *, mask=None, accum=None, structural=False, complement=False, replace=False):
        _own(w, "w"), _outmask(None, mask, type(w))
        if not is_scalar(u):
            _own(u, "u", type(w))                       # an object like w
        desc = _desc(mask, structural, complement, replace)
        acc = self._accum(accum, w)
        vec = isinstance(w, Vector)
        if isinstance(u, (Vector, Matrix)):
            if vec:
                info = lib.GrB_Vector_assign(w._carg, _carg(mask), acc, u._carg, lib.GrB_ALL, _vsize(w), desc)
            else:
                info = lib.GrB_Matrix_assign(w._carg, _carg(mask), acc, u._carg, lib.GrB_ALL, w.nrows,
                                             lib.GrB_ALL, w.ncols, desc)
        else:
            dt = _np(w.dtype)
            suffix = _SUFFIX[dt]
            x = dt.type(u).item()
            if vec:
                info = getattr(lib, f"GrB_Vector_assign_{suffix}")(w._carg, _carg(mask), acc, x, lib.GrB_ALL,
                                                                    _vsize(w), desc)
            else:
                info = getattr(lib, f"GrB_Matrix_assign_{suffix}")(w._carg, _carg(mask), acc, x, lib.GrB_ALL,
                                                                    w.nrows, lib.GrB_ALL, w.ncols, desc)
        _ok(info, "assign", w=w, u=u, mask=mask)
        return w

    def scatter(self, w, index, values, *, dup="min", accum="min"):
        _own(w, "w", Vector)
        idx = _index_array(index)
        vals = values.to_dense() if isinstance(values, Vector) else np.asarray(values)
        if dup == accum and dup in _UFUNC_AT and self.nvals(w) == _vsize(w):
            with _numpy_views(w) as (wa,):
                _UFUNC_AT[dup].at(wa, idx, vals.astype(wa.dtype, copy=False))
            return w
        t = Vector.from_coo(idx, vals, size=w.size, dup_op=_binary(dup), dtype=w.dtype)
        w(accum=_binary(accum)) << t
        return w


_UFUNC_AT = {"min": np.minimum, "max": np.maximum, "plus": np.add}


def _outmask(out, mask, kind):
    """``out`` and ``mask``, where given, checked to be this engine's objects of ``kind`` (Vector or Matrix)."""
    if out is not None:
        _own(out, "out", kind)
    if mask is not None:
        _own(mask, "mask", kind)


def _index_array(index):
    if isinstance(index, Vector):
        return index.to_dense()
    return np.asarray(index, dtype=np.int64)
