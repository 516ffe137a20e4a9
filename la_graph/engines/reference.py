"""The reference engine: every primitive in plain numpy, no fused step.

A test oracle, slow by design: it shows that the primitives of
:class:`~la_graph.engines.base.Engine` are enough for every algorithm, and gives
answers to compare the other engines with.  Nothing here is tuned beyond
vectorising with numpy (graphs of ~100k vertices and a few million edges take
seconds per algorithm).

A vector or matrix is a :class:`Sparse`: its entries' sorted linear keys
(``i * ncols + j``; a vector's keys are its indices), their values and a
shape.  So one masked write (:func:`_write`) serves every operation on
vectors and matrices alike, and a product expands the pairs of entries that
meet (``A[i, k]``, ``B[k, j]``) and reduces them by output key with the
semiring's monoid.  Types and typecasts follow SuiteSparse:GraphBLAS as the CPU
engine uses it (operands cast to the operator's type, arithmetic on booleans
counted in int64 where GraphBLAS has no boolean operator, float to int casts
truncating and saturating, NaN to 0).  An ``any`` monoid keeps the first
value of each output key.

Examples
--------
>>> import numpy as np
>>> import la_graph as lg
>>> E = lg.get_engine("reference")
>>> A = E.matrix_from_coo([0, 0, 1, 2], [1, 2, 2, 0], True, 3, 3, dtype=bool)
>>> q = E.vector_from_coo([0], 0, 3, dtype=np.int64)
>>> E.to_numpy(E.vxm(q, A, "min_secondi"), fill=-1).tolist()
[-1, 0, 0]
>>> E.reduce(E.reduce_rows(A, "plus"), "max")
2
"""

from __future__ import annotations

import numpy as np

from ..exceptions import InvalidArgumentError
from .base import (BINARY_OPS, BOOL_SEMIRINGS, MONOIDS, SELECT_OPS, UNARY_OPS, Engine, monoid_type)
from .base import check_name as _check_name
from .base import check_coords, check_output_args, is_scalar
from .base import check_range as _check_range

BOOL, I64 = np.dtype(bool), np.dtype(np.int64)
_COMPARE = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
            "gt": np.greater, "ge": np.greater_equal}
_POSITIONAL = ("firsti", "firstj", "secondi", "secondj")
_MONOID_UFUNC = {"min": np.fmin, "max": np.fmax, "plus": np.add, "times": np.multiply,
                 "lor": np.logical_or, "land": np.logical_and}


class Sparse:
    """A vector (``shape == (n,)``) or matrix (``(nrows, ncols)``) of the reference engine.

    Attributes
    ----------
    shape : tuple of int
    keys : numpy.ndarray
        Sorted, unique int64 linear keys of the entries: ``i * ncols + j`` (a vector: ``i``).
    values : numpy.ndarray
        The entries' values, one per key; their dtype is the object's.

    Operations never change these arrays in place (they bind new ones), so
    objects may share them.
    """

    __slots__ = ("shape", "keys", "values")

    def __init__(self, shape, keys, values):
        self.shape = tuple(int(s) for s in shape)
        self.keys = keys
        self.values = values

    @property
    def dtype(self):
        """The numpy dtype of the values."""
        return self.values.dtype

    @property
    def ncols(self):
        """Columns: the key stride (1 for a vector)."""
        return self.shape[1] if len(self.shape) == 2 else 1

    def __repr__(self):
        return f"Sparse(shape={self.shape}, dtype={self.dtype}, nvals={len(self.keys)})"


def _empty(shape, dtype):
    return Sparse(shape, np.empty(0, np.int64), np.empty(0, dtype))


# ---------------------------------------------------------------- checks
def _check_shape(x, shape, what):
    if not isinstance(x, Sparse):
        raise InvalidArgumentError(f"{what} must be a vector or matrix of the reference engine, "
                                   f"got {type(x).__name__}")
    if shape is not None and x.shape != tuple(shape):
        raise InvalidArgumentError(f"{what} has shape {x.shape}, expected {tuple(shape)}")
    return x


def _check_ndim(x, ndim, what):
    """``x``, checked to be a vector (``ndim`` 1) or a matrix (2) of this engine."""
    if len(_check_shape(x, None, what).shape) != ndim:
        raise InvalidArgumentError(f"{what} must be a {('vector', 'matrix')[ndim - 1]}, got shape {x.shape}")
    return x


# ---------------------------------------------------------------- values
def _cast(a, dtype):
    """GraphBLAS typecast of array ``a``: to bool ``!= 0``; float to int truncates, saturates, NaN -> 0."""
    a, dtype = np.asarray(a), np.dtype(dtype)
    if a.dtype == dtype:
        return a
    if dtype == BOOL:
        return a != 0
    if dtype.kind in "iu" and a.dtype.kind == "f":
        info = np.iinfo(dtype)
        t = np.trunc(np.where(np.isnan(a), 0, a))
        hi, lo = t >= float(info.max), t <= float(info.min)
        out = np.where(hi | lo, 0, t).astype(dtype)
        out[hi], out[lo] = info.max, info.min
        return out
    return a.astype(dtype)


def _idiv(a, b):
    """C integer division (truncating), with SuiteSparse's x/0 (0, max or min) and x/-1 (-x)."""
    zero, minus_one = b == 0, b == -1
    d = np.where(zero | minus_one, 1, b)
    q = a // d
    q += ((a % d) != 0) & ((a < 0) != (d < 0))          # floor -> toward zero
    q = np.where(minus_one, -a, q)
    if zero.any():
        info = np.iinfo(a.dtype)
        q = np.where(zero, np.where(a > 0, info.max, np.where(a < 0, info.min, 0)), q).astype(a.dtype)
    return q


def _div(a, b):
    if a.dtype == BOOL:
        return a                                          # GrB_DIV_BOOL is first
    if a.dtype.kind == "f":
        with np.errstate(divide="ignore", invalid="ignore"):
            return a / b
    return _idiv(a, b)


_BINARY = {
    "min": np.fmin, "max": np.fmax, "plus": np.add, "times": np.multiply, "div": _div,
    "minus": lambda a, b: a != b if a.dtype == BOOL else a - b,
    "first": lambda a, b: a, "second": lambda a, b: b, "any": lambda a, b: a,
    "pair": lambda a, b: np.ones_like(a),
    "lor": lambda a, b: (a != 0) | (b != 0), "land": lambda a, b: (a != 0) & (b != 0),
    **_COMPARE,
}


def _binop(op, a, b, dtype):
    """Binary op ``op`` typed on ``dtype``: both operands cast to it; a comparison gives bool."""
    a, b = _cast(a, dtype), _cast(b, dtype)
    z = _BINARY[op](a, b)
    return z if op in _COMPARE else _cast(z, dtype)


def _unary(op, a):
    """Unary op ``op`` on array ``a``, in ``a``'s dtype."""
    if op == "identity" or (a.dtype == BOOL and op in ("ainv", "abs")):
        return a.copy()
    if op == "ainv":
        return -a
    if op == "abs":
        return np.abs(a)
    if op == "one" or (op == "minv" and a.dtype == BOOL):
        return np.ones_like(a)
    if op == "minv":
        return _div(np.ones_like(a), a)
    return _cast(a == 0, a.dtype)                         # lnot


def _identity(monoid, dtype):
    """The monoid's identity on ``dtype`` (``any``: 0, what the cpu engine gives for nothing)."""
    if monoid in ("min", "max") and dtype != BOOL:
        big, small = (np.inf, -np.inf) if dtype.kind == "f" else (np.iinfo(dtype).max, np.iinfo(dtype).min)
        return big if monoid == "min" else small
    return {"min": True, "max": False, "plus": 0, "times": 1, "lor": False, "land": True, "any": 0}[monoid]


def _semiring(name, left, right):
    """``(add, mult, dtype, out_dtype)`` of semiring ``name`` on operands of dtypes ``left`` and ``right``.

    ``dtype`` is what the operands are cast to for the multiply; ``out_dtype`` what the monoid reduces in.
    """
    if not isinstance(name, str) or "_" not in name:
        raise InvalidArgumentError(f"semiring must be a name like 'min_second', got {name!r}")
    add, mult = name.split("_", 1)
    if add not in MONOIDS or mult not in BINARY_OPS + _POSITIONAL or mult in ("div", "any"):
        raise InvalidArgumentError(f"unknown semiring {name!r}")
    boolean_add = add in ("lor", "land")
    if boolean_add and mult not in ("first", "second", "pair", "lor", "land", *_COMPARE):
        raise InvalidArgumentError(f"semiring {name!r} is not defined: {add} needs a boolean multiply")
    if mult in _POSITIONAL:
        return add, mult, I64, I64
    if mult in _COMPARE:
        if add not in ("any", "lor", "land"):
            raise InvalidArgumentError(f"semiring {name!r} is not defined: {add} of booleans")
        return add, mult, np.result_type(left, right), BOOL
    if boolean_add:
        return add, mult, BOOL, BOOL
    dtype = {"first": np.dtype(left), "second": np.dtype(right),
             "pair": I64 if add == "plus" else np.dtype(left)}.get(mult)
    dtype = np.result_type(left, right) if dtype is None else dtype
    if dtype == BOOL and mult not in BOOL_SEMIRINGS[add]:
        dtype = I64
    return add, mult, dtype, dtype


# ---------------------------------------------------------------- keys
def _groups(keys):
    """Start of each run of equal keys in sorted ``keys``."""
    return np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if keys.size else np.empty(0, np.int64)


def _sort(keys, values):
    """``keys`` sorted (stably) and ``values`` in the same order."""
    if np.all(keys[1:] >= keys[:-1]):                     # products are often in order already
        return keys, values
    order = np.argsort(keys, kind="stable")
    return keys[order], values[order]


def _reduce_by_key(keys, values, monoid):
    """Unique sorted keys and the ``monoid`` reduction of the values of each (``any``: the first)."""
    keys, values = _sort(keys, values)
    starts = _groups(keys)
    if monoid == "any" or starts.size == keys.size:
        return keys[starts], values[starts]
    return keys[starts], _MONOID_UFUNC[monoid].reduceat(values, starts).astype(values.dtype, copy=False)


def _fold_by_key(keys, values, op, dtype):
    """Like :func:`_reduce_by_key` for any binary op typed ``dtype``: duplicates combined left to right."""
    if op in _MONOID_UFUNC or op in ("any", "first"):
        return _reduce_by_key(keys, values, "any" if op == "first" else op)
    keys, values = _sort(keys, values)
    starts = _groups(keys)
    counts = np.diff(np.r_[starts, keys.size])
    acc = values[starts].copy()
    for rank in range(1, int(counts.max(initial=1))):     # one round per duplicate rank, not per entry
        more = np.flatnonzero(counts > rank)
        acc[more] = _binop(op, acc[more], values[starts[more] + rank], dtype)
    return keys[starts], acc


def _find(keys, query):
    """``(pos, hit)``: where each of ``query`` stands in sorted ``keys``, and whether it is there."""
    if keys.size == 0:
        return np.zeros(query.shape, np.int64), np.zeros(query.shape, bool)
    pos = np.minimum(np.searchsorted(keys, query), keys.size - 1)
    return pos, keys[pos] == query


def _build(shape, keys, values, dup):
    """A Sparse of ``shape`` from unsorted ``keys`` and ``values``; duplicates combined by ``dup``."""
    keys, values = _sort(np.asarray(keys, np.int64), values)
    if keys.size and (keys[1:] == keys[:-1]).any():
        if dup is None:
            raise InvalidArgumentError("duplicate indices need dup= (a binary op combining them)")
        if dup in _COMPARE and values.dtype != BOOL:
            raise InvalidArgumentError(f"dup={dup!r} gives bool, not {values.dtype}")
        keys, values = _fold_by_key(keys, values, dup, values.dtype)
    return Sparse(shape, keys, values)


def _union(x, y, op, dtype, out_dtype):
    """Entries of ``x`` or ``y``: ``op`` (typed ``dtype``) where both are, the one present elsewhere."""
    keys = np.concatenate([x.keys, y.keys])
    keys.sort(kind="stable")                              # a merge of two sorted runs
    keys = keys[_groups(keys)]
    px, hx = _find(x.keys, keys)
    py, hy = _find(y.keys, keys)
    values = np.empty(keys.size, out_dtype)
    only_y, both = hy & ~hx, hx & hy
    values[hx] = _cast(x.values[px[hx]], out_dtype)
    values[only_y] = _cast(y.values[py[only_y]], out_dtype)
    values[both] = _cast(_binop(op, x.values[px[both]], y.values[py[both]], dtype), out_dtype)
    return Sparse(x.shape, keys, values)


def _intersection(x, y, op, dtype):
    keys, ix, iy = np.intersect1d(x.keys, y.keys, assume_unique=True, return_indices=True)
    return Sparse(x.shape, keys, _binop(op, x.values[ix], y.values[iy], dtype))


def _allowed(mask, keys, structural, complement):
    """Whether the mask lets each of ``keys`` be written."""
    pos, hit = _find(mask.keys, keys)
    if not structural:
        hit[hit] = mask.values[pos[hit]] != 0
    return ~hit if complement else hit


def _write(C, T, mask=None, accum=None, structural=False, complement=False, replace=False):
    """``C<mask, replace> accum= T`` in place; returns ``C`` (GraphBLAS's output rule)."""
    if accum is not None:
        Z = _union(C, T, accum, C.dtype, C.dtype)
    else:
        Z = Sparse(C.shape, T.keys, _cast(T.values, C.dtype))
    if mask is None:
        C.keys, C.values = Z.keys, Z.values
        return C
    _check_shape(mask, C.shape, "mask")
    keep = np.zeros(C.keys.size, bool) if replace else ~_allowed(mask, C.keys, structural, complement)
    new = _allowed(mask, Z.keys, structural, complement)
    C.keys, C.values = _sort(np.concatenate([C.keys[keep], Z.keys[new]]),
                             np.concatenate([C.values[keep], Z.values[new]]))
    return C


def _output(T, out, mask, accum, structural, complement, replace):
    """Write the result ``T`` of an operation with the GraphBLAS output arguments."""
    check_output_args(out, mask, accum, complement)
    C = _empty(T.shape, T.dtype) if out is None else _check_shape(out, T.shape, "out")
    return _write(C, T, mask, accum, structural, complement, replace)


# ---------------------------------------------------------------- products
def _mxm(A, B, semiring):
    """``A (+.*) B`` of two matrices: every pair ``A[i, k]``, ``B[k, j]`` multiplied, reduced by ``(i, j)``."""
    if A.shape[1] != B.shape[0]:
        raise InvalidArgumentError(f"inner dimensions differ: {A.shape} times {B.shape}")
    add, mult, dtype, out_dtype = _semiring(semiring, A.dtype, B.dtype)
    ai, ak = np.divmod(A.keys, A.ncols)
    bk, bj = np.divmod(B.keys, B.ncols)
    rowptr = np.searchsorted(bk, np.arange(B.shape[0] + 1))
    start, count = rowptr[ak], rowptr[ak + 1] - rowptr[ak]    # where B's row k lies
    ea = np.repeat(np.arange(A.keys.size), count)         # the pairs: A entry ea with B entry eb
    eb = np.arange(ea.size) - np.repeat(np.cumsum(count) - count, count) + np.repeat(start, count)
    positions = {"firsti": ai, "firstj": ak, "secondi": bk, "secondj": bj}
    if mult in positions:
        products = positions[mult][ea if mult.startswith("first") else eb]
    else:
        products = _cast(_binop(mult, A.values[ea], B.values[eb], dtype), out_dtype)
    keys, values = _reduce_by_key(ai[ea] * B.shape[1] + bj[eb], products, add)
    return Sparse((A.shape[0], B.shape[1]), keys, values)


def _as_matrix(u, shape):
    return Sparse(shape, u.keys, u.values)


# ---------------------------------------------------------------- the engine
class ReferenceEngine(Engine):
    """numpy implementation of :class:`~la_graph.engines.base.Engine`: primitives only, no fused step."""

    name = "reference"
    narrow_ids = False

    # ---------------------------------------------------------------- graphs
    def matrix(self, G, *, transpose=False):
        key = ("reference", "AT" if transpose else "A")
        M = G._engine_cache.get(key)
        if M is None:
            H = G.T if transpose else G
            rows = np.repeat(np.arange(H.n, dtype=np.int64), np.diff(H.indptr))
            values = np.ones(rows.size, bool) if H.weights is None else np.array(H.weights, np.float64)
            M = G._engine_cache[key] = _build((H.n, H.n), rows * H.n + H.indices, values, None)
        return M

    def degree(self, G, *, transpose=False):
        key = ("reference", "din" if transpose else "dout")
        d = G._engine_cache.get(key)
        if d is None:
            d = G._engine_cache[key] = self.vector_from_numpy((G.in_degree if transpose else G.out_degree)
                                                              .astype(np.int64))
        return d

    # ---------------------------------------------------------------- building
    def vector(self, size, dtype):
        return _empty((size,), np.dtype(dtype))

    def full(self, size, value, dtype=None):
        dtype = np.dtype(dtype) if dtype is not None else np.asarray(value).dtype
        return self.vector_from_numpy(np.full(size, value, dtype))

    def iota(self, size):
        return self.vector_from_numpy(np.arange(size, dtype=np.int64))

    def vector_from_numpy(self, values):
        values = np.array(values)
        if values.ndim != 1:
            raise InvalidArgumentError(f"vector_from_numpy needs a 1-d array, got shape {values.shape}")
        return Sparse(values.shape, np.arange(values.size, dtype=np.int64), values)

    def _from_coo(self, shape, keys, values, dup, dtype):
        if dup is not None:
            _check_name(dup, BINARY_OPS, "binary op")
        dtype = np.dtype(dtype) if dtype is not None else np.asarray(values).dtype
        if np.ndim(values) == 0:
            if dup is None:
                keys = np.unique(keys)                    # one value: duplicates are the same entry
            values = np.full(keys.size, values)
        values = np.asarray(values)
        if values.shape != keys.shape:
            raise InvalidArgumentError(f"indices and values lengths differ: {keys.size} != {values.size}")
        return _build(shape, keys, _cast(values, dtype), dup)

    def vector_from_coo(self, indices, values, size, *, dup=None, dtype=None):
        indices = np.asarray(indices, np.int64).ravel()
        _check_range(indices, size, "index")
        return self._from_coo((size,), indices, values, dup, dtype)

    def matrix_from_coo(self, rows, cols, values, nrows, ncols, *, dup=None, dtype=None):
        rows, cols = check_coords(rows, cols, nrows, ncols)
        return self._from_coo((nrows, ncols), rows * ncols + cols, values, dup, dtype)

    def to_numpy(self, x, fill=None, *, consume=False):
        _check_shape(x, None, "x")
        total = int(np.prod(x.shape))
        if fill is None and x.keys.size != total:
            raise InvalidArgumentError("to_numpy needs fill= for an object with missing entries")
        out = np.empty(total, x.dtype) if fill is None else np.full(total, fill, x.dtype)
        out[x.keys] = x.values
        return out.reshape(x.shape)

    def to_coo(self, x):
        _check_shape(x, None, "x")
        if len(x.shape) == 1:
            return x.keys.copy(), x.values.copy()
        rows, cols = np.divmod(x.keys, x.ncols)
        return rows, cols, x.values.copy()

    def copy(self, x):
        return Sparse(_check_shape(x, None, "x").shape, x.keys.copy(), x.values.copy())

    def nvals(self, x):
        return int(_check_shape(x, None, "x").keys.size)

    def size(self, x):
        return _check_shape(x, None, "x").shape[0] if len(x.shape) == 1 else x.shape

    def isequal(self, x, y):
        _check_shape(x, None, "x"), _check_shape(y, None, "y")
        return (x.shape == y.shape and np.array_equal(x.keys, y.keys)
                and bool(np.all(x.values == y.values)))

    # ---------------------------------------------------------------- operations
    def mxv(self, A, u, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        T = _mxm(_check_ndim(A, 2, "A"), _as_matrix(_check_ndim(u, 1, "u"), (u.shape[0], 1)), semiring)
        return _output(_as_matrix(T, (A.shape[0],)), out, mask, accum, structural, complement, replace)

    def vxm(self, u, A, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        T = _mxm(_as_matrix(_check_ndim(u, 1, "u"), (1, u.shape[0])), _check_ndim(A, 2, "A"), semiring)
        return _output(_as_matrix(T, (A.shape[1],)), out, mask, accum, structural, complement, replace)

    def mxm(self, A, B, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        T = _mxm(_check_ndim(A, 2, "A"), _check_ndim(B, 2, "B"), semiring)
        return _output(T, out, mask, accum, structural, complement, replace)

    def _ewise_types(self, x, y, op):
        _check_name(op, BINARY_OPS, "binary op")
        _check_shape(y, _check_shape(x, None, "x").shape, "y")
        dtype = np.result_type(x.dtype, y.dtype)
        return dtype, BOOL if op in _COMPARE else dtype

    def ewise_add(self, x, y, op, *, out=None, mask=None, accum=None,
                  structural=False, complement=False, replace=False):
        dtype, out_dtype = self._ewise_types(x, y, op)
        return _output(_union(x, y, op, dtype, out_dtype), out, mask, accum, structural, complement, replace)

    def ewise_mult(self, x, y, op, *, out=None, mask=None, accum=None,
                   structural=False, complement=False, replace=False):
        dtype, _ = self._ewise_types(x, y, op)
        return _output(_intersection(x, y, op, dtype), out, mask, accum, structural, complement, replace)

    def apply(self, x, op, *, right=None, out=None, mask=None, accum=None,
              structural=False, complement=False, replace=False):
        _check_shape(x, None, "x")
        if right is None:
            values = _unary(_check_name(op, UNARY_OPS, "unary op"), x.values)
        else:
            # typed as python-graphblas types it: the scalar's type joins x's; pair gives int64 ones
            dtype = I64 if op == "pair" else np.result_type(x.dtype, np.asarray(right).dtype)
            values = _binop(_check_name(op, BINARY_OPS, "binary op"), x.values, np.full(x.values.shape, right), dtype)
        return _output(Sparse(x.shape, x.keys, values), out, mask, accum, structural, complement, replace)

    def select(self, x, op, thunk=None, *, out=None, mask=None, accum=None,
               structural=False, complement=False, replace=False):
        _check_name(op, SELECT_OPS, "select op")
        _check_shape(x, None, "x")
        thunk = 0 if thunk is None else thunk
        rows, cols = np.divmod(x.keys, x.ncols)
        if op.startswith("value"):
            keep = _COMPARE[op[5:]](x.values, _cast([thunk], x.dtype)[0])
        elif op.startswith("row"):
            keep = _COMPARE[op[3:]](rows, _cast([thunk], I64)[0])
        else:
            compare = {"tril": "le", "triu": "ge", "diag": "eq", "offdiag": "ne"}[op]
            keep = _COMPARE[compare](cols - rows, _cast([thunk], I64)[0])
        T = Sparse(x.shape, x.keys[keep], x.values[keep])
        return _output(T, out, mask, accum, structural, complement, replace)

    def reduce(self, x, monoid):
        _check_name(monoid, MONOIDS, "monoid")
        dtype = monoid_type(monoid, _check_shape(x, None, "x").dtype)
        values = _cast(x.values, dtype)
        if values.size == 0:
            return dtype.type(_identity(monoid, dtype)).item()
        if monoid == "any":
            return values[0].item()
        return dtype.type(_MONOID_UFUNC[monoid].reduce(values)).item()

    def reduce_rows(self, A, monoid, *, out=None, mask=None, accum=None,
                    structural=False, complement=False, replace=False):
        _check_name(monoid, MONOIDS, "monoid")
        _check_ndim(A, 2, "A")
        keys, values = _reduce_by_key(A.keys // A.ncols, _cast(A.values, monoid_type(monoid, A.dtype)), monoid)
        return _output(Sparse(A.shape[:1], keys, values), out, mask, accum, structural, complement, replace)

    def _index(self, index, size):
        """A vertex-index argument as an int64 numpy array, checked against ``size``."""
        idx = self.to_numpy(index) if isinstance(index, Sparse) else np.asarray(index)
        idx = _cast(idx, I64).ravel()
        _check_range(idx, size, "index")
        return idx

    def extract(self, u, index, *, out=None, mask=None, accum=None,
                structural=False, complement=False, replace=False):
        idx = self._index(index, _check_ndim(u, 1, "u").shape[0])
        pos, hit = _find(u.keys, idx)
        T = Sparse(idx.shape, np.flatnonzero(hit), u.values[pos[hit]])
        return _output(T, out, mask, accum, structural, complement, replace)

    def assign(self, w, u, *, mask=None, accum=None, structural=False, complement=False, replace=False):
        _check_shape(w, None, "w")
        if not is_scalar(u):                                # an object like w
            T = _check_shape(u, w.shape, "u")
        else:
            total = int(np.prod(w.shape))
            T = Sparse(w.shape, np.arange(total, dtype=np.int64), np.full(total, _cast([u], w.dtype)[0]))
        return _output(T, w, mask, accum, structural, complement, replace)

    def scatter(self, w, index, values, *, dup="min", accum="min"):
        idx = self._index(index, _check_ndim(w, 1, "w").shape[0])
        vals = self.to_numpy(values) if isinstance(values, Sparse) else np.asarray(values)
        if vals.shape != idx.shape:
            raise InvalidArgumentError(f"index and values lengths differ: {idx.size} != {vals.size}")
        if dup is not None:
            _check_name(dup, BINARY_OPS, "binary op")
        T = _build(w.shape, idx, _cast(vals, w.dtype), dup)
        return _output(T, w, None, accum, False, False, False)
