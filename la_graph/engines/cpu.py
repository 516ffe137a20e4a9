"""The CPU engine: the operator interface on python-graphblas (SuiteSparse:GraphBLAS).

The only module of la_graph that imports graphblas.  Vectors and matrices are
``graphblas.Vector`` / ``graphblas.Matrix`` objects.
"""

from __future__ import annotations

import os

import numpy as np

from ..exceptions import InvalidArgumentError

# SuiteSparse runs OpenMP; by default idle OpenMP threads spin.  Where cores are
# shared (VMs, CI runners, a busy laptop) spinning threads steal the core the
# working thread needs: one SpMV ran 3x slower with 2 spinning threads than with
# one thread.  Sleeping idle threads cost a few microseconds per parallel call
# instead.  Only a default: a user's own OMP_WAIT_POLICY wins, and it must be set
# before the OpenMP runtime starts, i.e. before graphblas is imported.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
from .base import BINARY_OPS, MONOIDS, SELECT_OPS, UNARY_OPS, Engine

import graphblas as gb  # noqa: E402  (after the local imports: keeps the error of a missing package clear)
from graphblas import Matrix, Vector, binary, monoid, unary  # noqa: E402
from graphblas import select as gb_select  # noqa: E402
from suitesparse_graphblas import ffi, lib  # noqa: E402
from suitesparse_graphblas.utils import claim_buffer, unclaim_buffer  # noqa: E402

from ..exceptions import LaGraphError  # noqa: E402

# The hot operations call SuiteSparse:GraphBLAS through its C API directly
# (python-graphblas' expression layer costs 30-90 us a call, the C call 1-20 us:
# that is the whole per-level budget of a BFS on a road network).
_NULL = ffi.NULL
_SUFFIX = {np.dtype(t): s for t, s in [
    (bool, "BOOL"), (np.int8, "INT8"), (np.int16, "INT16"), (np.int32, "INT32"), (np.int64, "INT64"),
    (np.uint8, "UINT8"), (np.uint16, "UINT16"), (np.uint32, "UINT32"), (np.uint64, "UINT64"),
    (np.float32, "FP32"), (np.float64, "FP64")]}
_CTYPE = {np.dtype(t): c for t, c in [
    (bool, "bool"), (np.int8, "int8_t"), (np.int16, "int16_t"), (np.int32, "int32_t"), (np.int64, "int64_t"),
    (np.uint8, "uint8_t"), (np.uint16, "uint16_t"), (np.uint32, "uint32_t"), (np.uint64, "uint64_t"),
    (np.float32, "float"), (np.float64, "double")]}
_SPARSITY = {"sparse": lib.GxB_SPARSE, "dense": lib.GxB_BITMAP + lib.GxB_FULL}
_SEMIRING_CACHE = {}
_BINARY_CACHE = {}


def _ok(info, what):
    if info != 0:
        raise LaGraphError(f"SuiteSparse:GraphBLAS failed in {what} (GrB_Info {info})")


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


def _typed_binary(name, dtype):
    """The typed binary op ``name`` for ``dtype`` (``None`` for ``None``)."""
    if name is None:
        return None
    key = (name, dtype)
    op = _BINARY_CACHE.get(key)
    if op is None:
        op = _BINARY_CACHE[key] = _binary(name)[dtype]
    return op


def _np(dtype):
    return np.dtype(dtype.np_type)


class CPUEngine(Engine):
    """python-graphblas implementation of :class:`~la_graph.engines.base.Engine`."""

    name = "cpu"

    # every push level goes to the fused numba loop: on the machines measured it
    # beat GrB_vxm even for frontiers of millions of edges (see docs/engines.md)
    bfs_fuse_edges = 1 << 62
    narrow_ids = False

    # ---------------------------------------------------------------- graphs
    def matrix(self, G, *, transpose=False):
        key = ("cpu", "AT" if transpose else "A")
        M = G._engine_cache.get(key)
        if M is None:
            H = G.T if transpose else G
            n = H.n
            if H.weights is None:
                values, iso = np.ones(1, dtype=bool), True
            else:
                values, iso = H.weights, False
            M = Matrix.ss.import_csr(
                nrows=n, ncols=n, indptr=H.indptr, col_indices=H.indices, values=values,
                is_iso=iso, sorted_cols=True, take_ownership=False, name="A",
            )
            G._engine_cache[key] = M
        return M

    def degree(self, G, *, transpose=False):
        key = ("cpu", "din" if transpose else "dout")
        d = G._engine_cache.get(key)
        if d is None:
            d = self.vector_from_numpy(G.in_degree if transpose else G.out_degree)
            G._engine_cache[key] = d
        return d

    # ---------------------------------------------------------------- building
    def vector(self, size, dtype):
        return Vector(np.dtype(dtype), size)

    def full(self, size, value, dtype=None):
        dtype = np.dtype(dtype) if dtype is not None else np.asarray(value).dtype
        # stored value by value, not iso: later in-place updates then never meet an iso C
        return Vector.from_dense(np.full(size, value, dtype=dtype))

    def iota(self, size):
        return Vector.from_dense(np.arange(size, dtype=np.int64))

    def vector_from_numpy(self, values):
        return Vector.from_dense(np.ascontiguousarray(values))

    def vector_from_coo(self, indices, values, size, *, dup=None, dtype=None):
        if np.isscalar(values) and np.size(indices) == 1 and 0 <= int(np.ravel(indices)[0]) < size:
            # one entry (a search's source): set it; building a vector costs ~0.1 ms of calls
            dt = np.dtype(dtype) if dtype is not None else np.asarray(values).dtype
            v = Vector(dt, size)
            _ok(getattr(lib, f"GrB_Vector_setElement_{_SUFFIX[dt]}")(v._carg, dt.type(values).item(),
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

    def to_numpy(self, x, fill=None):
        if fill is None and x.nvals != (x.size if isinstance(x, Vector) else x.nrows * x.ncols):
            raise InvalidArgumentError("to_numpy needs fill= for an object with missing entries")
        if isinstance(x, Vector) and x.ss.format == "bitmap":
            # the values and presence flags lent as numpy: one np.where instead of a GraphBLAS assign
            with _bitmap_views(x) as ((present, values),):
                if fill is None:  # every entry is present (checked above)
                    return values.copy()
                out = np.full(x.size, fill, dtype=values.dtype)
                np.copyto(out, values, where=present)  # reads only present values: untouched pages stay so
                return out
        return x.to_dense(fill_value=fill)

    def to_coo(self, x):
        return x.to_coo()

    def copy(self, x):
        return x.dup()

    def nvals(self, x):
        n = ffi.new("GrB_Index*")
        _ok((lib.GrB_Vector_nvals if isinstance(x, Vector) else lib.GrB_Matrix_nvals)(n, x._carg), "nvals")
        return n[0]

    def size(self, x):
        return x.size if isinstance(x, Vector) else (x.nrows, x.ncols)

    def isequal(self, x, y):
        return x.isequal(y)

    def hint(self, x, storage):
        if storage not in _SPARSITY:
            raise InvalidArgumentError(f"storage hint must be 'sparse' or 'dense', got {storage!r}")
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
        if out is None:
            if accum is not None:
                raise InvalidArgumentError("accum needs out=")
            return expr.new(**kwargs)
        if accum is not None:
            kwargs["accum"] = _binary(accum)
        if replace and mask is not None:  # without a mask, replace changes nothing (python-graphblas rejects it)
            kwargs["replace"] = True
        out(**kwargs) << expr
        return out

    @staticmethod
    def _out(out, dtype, shape, accum):
        if out is None:
            if accum is not None:
                raise InvalidArgumentError("accum needs out=")
            return Vector(dtype, shape) if isinstance(shape, int) else Matrix(dtype, *shape)
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
        if accum is not None and self._accum_via_assign(sr, left, right):
            T = self._out(None, sr.return_type, self.size(w), None)
            _ok(fn(T._carg, _carg(mask), _NULL, sr.gb_obj, left._carg, right._carg,
                   _desc(mask, structural, complement, False)), what)
            return self.assign(w, T, mask=mask, accum=accum, structural=structural, complement=complement,
                               replace=replace)
        _ok(fn(w._carg, _carg(mask), self._accum(accum, w), sr.gb_obj, left._carg, right._carg,
               _desc(mask, structural, complement, replace)), what)
        return w

    def mxv(self, A, u, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        sr = _semiring(semiring, _np(A.dtype), _np(u.dtype))
        w = self._out(out, sr.return_type, A.nrows, accum)
        return self._product(lib.GrB_mxv, "mxv", sr, A, u, w, mask, accum, structural, complement, replace)

    def vxm(self, u, A, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        sr = _semiring(semiring, _np(u.dtype), _np(A.dtype))
        w = self._out(out, sr.return_type, A.ncols, accum)
        return self._product(lib.GrB_vxm, "vxm", sr, u, A, w, mask, accum, structural, complement, replace)

    def mxm(self, A, B, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        sr = _semiring(semiring, _np(A.dtype), _np(B.dtype))
        C = self._out(out, sr.return_type, (A.nrows, B.ncols), accum)
        return self._product(lib.GrB_mxm, "mxm", sr, A, B, C, mask, accum, structural, complement, replace)

    def _ewise(self, kind, x, y, op, out, mask, accum, structural, complement, replace):
        bop = _typed_binary(op, np.result_type(_np(x.dtype), _np(y.dtype)))
        vec = isinstance(x, Vector)
        w = self._out(out, bop.return_type, x.size if vec else (x.nrows, x.ncols), accum)
        if out is not None and mask is None and accum is None and out is not x and out is not y:
            # C = x op y overwrites C: start from an empty C.  (SuiteSparse 9.4.5 writes
            # every value into the one-value buffer of an iso-valued full C otherwise.)
            _ok((lib.GrB_Vector_clear if vec else lib.GrB_Matrix_clear)(w._carg), "clear")
        fn = getattr(lib, f"GrB_{'Vector' if vec else 'Matrix'}_eWise{kind}_BinaryOp")
        _ok(fn(w._carg, _carg(mask), self._accum(accum, w), bop.gb_obj, x._carg, y._carg,
               _desc(mask, structural, complement, replace)), f"ewise_{kind.lower()}")
        return w

    def ewise_add(self, x, y, op, *, out=None, mask=None, accum=None,
                  structural=False, complement=False, replace=False):
        return self._ewise("Add", x, y, op, out, mask, accum, structural, complement, replace)

    def ewise_mult(self, x, y, op, *, out=None, mask=None, accum=None,
                   structural=False, complement=False, replace=False):
        return self._ewise("Mult", x, y, op, out, mask, accum, structural, complement, replace)

    def apply(self, x, op, *, right=None, out=None, mask=None, accum=None,
              structural=False, complement=False, replace=False):
        if right is None:
            expr = x.apply(_lookup(unary, op, "unary op", UNARY_OPS))
        else:
            expr = x.apply(_binary(op), right=right)
        return self._store(expr, out, mask, accum, structural, complement, replace)

    def select(self, x, op, thunk=None, *, out=None, mask=None, accum=None,
               structural=False, complement=False, replace=False):
        sel = _lookup(gb_select, _SELECT_NAMES.get(op, op), "select op", SELECT_OPS)
        expr = x.select(sel, thunk) if thunk is not None else x.select(sel)
        return self._store(expr, out, mask, accum, structural, complement, replace)

    def reduce(self, x, monoid_name):
        m = _typed_monoid(monoid_name, _np(x.dtype))
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
        expr = A.reduce_rowwise(_typed_monoid(monoid_name, _np(A.dtype)))
        return self._store(expr, out, mask, accum, structural, complement, replace)

    def extract(self, u, index, *, out=None, mask=None, accum=None,
                structural=False, complement=False, replace=False):
        idx = _index_array(index)
        if mask is None and accum is None and out is None and not complement and u.nvals == u.size:
            with _numpy_views(u) as (ua,):
                return Vector.from_dense(ua[idx])  # dense gather: numpy beats GrB_extract here
        return self._store(u[idx], out, mask, accum, structural, complement, replace)

    def assign(self, w, u, *, mask=None, accum=None, structural=False, complement=False, replace=False):
        desc = _desc(mask, structural, complement, replace)
        acc = self._accum(accum, w)
        vec = isinstance(w, Vector)
        if isinstance(u, (Vector, Matrix)):
            if vec:
                info = lib.GrB_Vector_assign(w._carg, _carg(mask), acc, u._carg, lib.GrB_ALL, w.size, desc)
            else:
                info = lib.GrB_Matrix_assign(w._carg, _carg(mask), acc, u._carg, lib.GrB_ALL, w.nrows,
                                             lib.GrB_ALL, w.ncols, desc)
        else:
            dt = _np(w.dtype)
            suffix = _SUFFIX[dt]
            x = dt.type(u).item()
            if vec:
                info = getattr(lib, f"GrB_Vector_assign_{suffix}")(w._carg, _carg(mask), acc, x, lib.GrB_ALL,
                                                                    w.size, desc)
            else:
                info = getattr(lib, f"GrB_Matrix_assign_{suffix}")(w._carg, _carg(mask), acc, x, lib.GrB_ALL,
                                                                    w.nrows, lib.GrB_ALL, w.ncols, desc)
        _ok(info, "assign")
        return w

    def scatter(self, w, index, values, *, dup="min", accum="min"):
        idx = _index_array(index)
        vals = values.to_dense() if isinstance(values, Vector) else np.asarray(values)
        if dup == accum and dup in _UFUNC_AT and w.nvals == w.size:
            with _numpy_views(w) as (wa,):
                _UFUNC_AT[dup].at(wa, idx, vals.astype(wa.dtype, copy=False))
            return w
        t = Vector.from_coo(idx, vals, size=w.size, dup_op=_binary(dup), dtype=w.dtype)
        w(accum=_binary(accum)) << t
        return w

    # ---------------------------------------------------------------- fused steps
    def bfs_push(self, G, q, parent, level, k, max_edges):
        from ._cpu_kernels import bfs_push_levels

        n = G.n
        if q.nvals == 0:
            return q, k, 0, 0, 0, 0
        ids = _unsigned(G.indices).dtype  # the queues hold vertex ids: 32 bits up to 2**31 vertices
        frontier, nf = _queue(q, ids)
        if int((G.indptr[frontier[:nf] + 1] - G.indptr[frontier[:nf]]).sum()) > max_edges:
            return q, k, nf, 0, 0, 0
        with _bitmap_views(parent, level) as ((pb, pv), (lb, lv)):
            frontier, nf, k, found, scanned, found_in = bfs_push_levels(
                _unsigned(G.indptr), _unsigned(G.indices), G.in_degree, frontier, nf, np.empty(n, ids),
                pb if parent is not None else lb, pv, lv, k, max_edges)
            if parent is not None and level is not None:
                lb[:] = pb  # the levels' structure is the parents'
        return _frontier(frontier[:nf], n, q.dtype), k, nf, found, scanned, found_in

    def bfs_pull(self, G, q, parent, level, k, min_frontier=-1):
        from ._cpu_kernels import bfs_pull_levels

        n = G.n
        T = G.T
        ids = _unsigned(T.indices).dtype
        frontier, nf = _queue(q, ids)
        with _bitmap_views(parent, level) as ((pb, pv), (lb, lv)):
            frontier, nq, k, found, found_in = bfs_pull_levels(
                _unsigned(T.indptr), _unsigned(T.indices), frontier, nf, np.empty(n, ids), np.zeros(n, bool),
                pb if parent is not None else lb, pv, lv, k, min_frontier)
            if parent is not None and level is not None:
                lb[:] = pb
        return _frontier(frontier[:nq], n, q.dtype), k, nq, found, found_in

    def fastsv_iteration(self, A, f, gp, mngp):
        from ._cpu_kernels import fastsv_hook

        self.mxv(A, gp, "min_second", out=mngp, accum="min")
        with _numpy_views(f, gp, mngp) as (fa, ga, ma):
            changed = fastsv_hook(fa, ga, ma)
        return f, gp, changed

    # ---- scc ----
    def scc_trim(self, G, labels):
        from ._cpu_scc import scc_trim

        T = G.T
        with _bitmap_views(labels) as ((done, lab),):
            return int(scc_trim(G.indptr, _unsigned(G.indices), T.indptr, _unsigned(T.indices), done, lab))

    def scc_fwbw(self, G, pivot, labels):
        from ._cpu_scc import scc_fwbw

        T = G.T
        with _bitmap_views(labels) as ((done, lab),):
            return int(scc_fwbw(G.indptr, _unsigned(G.indices), T.indptr, _unsigned(T.indices), done, lab, pivot))

    def scc_color(self, G, prio, labels):
        from ._cpu_scc import scc_color

        T = G.T
        with _bitmap_views(labels) as ((done, lab),), _numpy_views(prio) as (pa,):
            return int(scc_color(G.indptr, _unsigned(G.indices), T.indptr, _unsigned(T.indices), done, lab, pa))

    # ---- msf ----
    def msf_edges(self, G):
        from ._cpu_msf import MSFEdges

        return MSFEdges(G, *self.msf_weight_ranks(G))

    def msf_round(self, f, edges, forest):
        with _numpy_views(f, forest) as (fa, fo):
            hooked = edges.round(fa, fo)
        return edges, int(hooked)

    # ---- sssp ----
    def sssp_delta_stepping(self, G, d, parent, bucket, delta):
        from ._cpu_sssp import delta_stepping, effective_delta

        dd = _writeable(self.to_numpy(d, fill=np.inf))
        pp = _writeable(self.to_numpy(parent, fill=-1)) if parent is not None else np.empty(0, np.int64)
        maxw = _max_weight(G)
        delta_stepping(G.indptr, _unsigned(G.indices), G.weights, dd, pp, bucket * delta,
                       effective_delta(delta, maxw), maxw)
        return Vector.from_dense(dd), (Vector.from_dense(pp) if parent is not None else None), None

    def sssp_bellman_ford(self, G, d, parent, q, max_rounds):
        from ._cpu_sssp import bellman_ford

        n = G.n
        dd = _writeable(self.to_numpy(d, fill=np.inf))
        pp = _writeable(self.to_numpy(parent, fill=-1)) if parent is not None else np.empty(0, np.int64)
        frontier, nf = _queue(q, np.int64)
        frontier, nf, rounds = bellman_ford(G.indptr, _unsigned(G.indices), G.weights, dd, pp, frontier, nf,
                                            max_rounds)
        q = Vector.from_coo(np.sort(frontier[:nf]), dd[np.sort(frontier[:nf])], size=n, dtype=np.float64)
        return Vector.from_dense(dd), (Vector.from_dense(pp) if parent is not None else None), q, rounds

    def sssp_batch(self, G, sources, delta, max_rounds, parent):
        from ._cpu_sssp import batch, effective_delta

        k, n = sources.size, G.n
        D = np.full((k, n), np.inf)
        P = np.full((k, n) if parent else (k, 0), -1, np.int64)
        maxw = _max_weight(G)
        step = effective_delta(delta, maxw) if delta is not None else 0.0
        active = batch(G.indptr, _unsigned(G.indices), G.weights, D, P, sources, step, maxw, max_rounds)
        return (Matrix.from_dense(D), Matrix.from_dense(P) if parent else None, active)

    # ---- apsp ----
    def floyd_warshall(self, G):
        from ._cpu_apsp import TILE, dense_from_csr, floyd_warshall

        n = G.n
        D = dense_from_csr(G.indptr, G.indices, G.weights if G.weights is not None else np.empty(0), n)
        v = floyd_warshall(D, TILE) if n else -1
        M = Matrix(np.float64, n, n)
        M.ss.pack_fullr(D, take_ownership=True)  # the numpy array becomes the matrix: no copy
        return M, int(v)

    # ---- reachability ----
    def reach_sweep(self, G, sources):
        from ._cpu_reachability import ms_reach

        k = sources.size
        T = G.T
        vis = ms_reach(_unsigned(G.indptr), _unsigned(G.indices), _unsigned(T.indptr), _unsigned(T.indices), sources,
                       (k + 63) // 64, 4)
        bits = np.unpackbits(vis.view(np.uint8), axis=1, bitorder="little")  # n x 64*words, bit i = source i
        return np.ascontiguousarray(bits[:, :k].T).astype(bool)


_UFUNC_AT = {"min": np.minimum, "max": np.maximum, "plus": np.add}


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
                full = self._expand(v, vb, value, dt)
                vx[0] = ffi.from_buffer("void*", full)
                vx_size[0] = full.nbytes
                unclaim_buffer(full)
            values = None if keep_iso else np.frombuffer(ffi.buffer(vx[0], vx_size[0]), dtype=dt)[:v.size]
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
        if v.nvals != v.size:
            raise InvalidArgumentError("this operation needs full vectors")

    @staticmethod
    def _unpack(v, vb, vx, vb_size, vx_size, iso, nvals):
        _ok(lib.GxB_Vector_unpack_Full(v._carg, vx, vx_size, iso, _NULL), "unpack")

    @staticmethod
    def _expand(v, vb, value, dt):
        return np.full(v.size, value, dtype=dt)

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
    def _expand(v, vb, value, dt):
        # written only where present: a fresh array's untouched pages cost nothing (a page fault
        # each, on first touch, costs more than the write; a BFS parent vector starts with one entry)
        out = np.empty(v.size, dtype=dt)
        np.copyto(out, value, where=np.frombuffer(ffi.buffer(vb[0], v.size), dtype=np.bool_))
        return out

    @staticmethod
    def _views(v, vb, values):
        return np.frombuffer(ffi.buffer(vb[0], v.size), dtype=np.bool_), values

    @staticmethod
    def _pack(v, vb, vx, vb_size, vx_size, iso):
        nvals = int(np.count_nonzero(np.frombuffer(ffi.buffer(vb[0], v.size), dtype=np.bool_)))
        _ok(lib.GxB_Vector_pack_Bitmap(v._carg, vb, vx, vb_size, vx_size, iso, nvals, _NULL), "pack")


def _indices(v):
    """The indices of ``v``'s entries as numpy (a bitmap is lent out and back: no sort, no copy of values)."""
    if v.ss.format == "bitmap":
        with _bitmap_views(v, values=False) as ((present, _),):
            return np.flatnonzero(present)
    return v.to_coo(values=False)[0]


def _queue(q, dtype):
    """A scratch queue of ``q.size`` vertex ids (``dtype``) holding ``q``'s indices first; returns ``(queue, count)``."""
    nq = q.nvals
    queue = np.empty(q.size, dtype)
    queue[:nq] = _indices(q)
    return queue, nq


def _frontier(indices, n, dtype):
    """A BFS frontier: ones at ``indices`` (unsorted), built as a bitmap (from_coo would sort).

    The flags are set in numba (numpy's scatter converts the indices first: 4x
    slower) and handed to GraphBLAS with a raw pack (python-graphblas's costs ~0.1 ms).
    """
    from ._cpu_kernels import mark

    present = np.zeros(n, bool)
    mark(present, indices)
    v = Vector(dtype, n)
    one = np.ones(1, _np(v.dtype))
    vb = ffi.new("int8_t**", ffi.from_buffer("int8_t*", present))
    vx = ffi.new("void**", ffi.from_buffer("void*", one))
    _ok(lib.GxB_Vector_pack_Bitmap(v._carg, vb, vx, present.nbytes, one.nbytes, True, indices.size, _NULL), "pack")
    unclaim_buffer(present)  # GraphBLAS owns (and frees) both arrays now
    unclaim_buffer(one)
    return v


def _unsigned(a):
    """The same memory as integer array ``a``, viewed as the unsigned type of its width.

    The numba kernels get their index arrays so: numba wraps negative indices,
    and with signed ones it tests for them on every edge.
    """
    return a.view(np.dtype(f"u{a.dtype.itemsize}"))


def _index_array(index):
    if isinstance(index, Vector):
        return index.to_dense()
    return np.asarray(index, dtype=np.int64)


def _writeable(a):
    """``a``, or a copy of it where numpy would not let a kernel write it."""
    return a if a.flags.writeable else a.copy()


def _max_weight(G):
    """The largest edge weight of ``G`` (0 without edges), computed once per graph."""
    key = ("cpu", "max_weight")
    m = G._engine_cache.get(key)
    if m is None:
        m = G._engine_cache[key] = float(G.weights.max()) if G.nnz else 0.0
    return m


# ---- interop ----
def graphblas_to_scipy(M):
    """A python-graphblas ``Matrix`` as a scipy COO array (its stored entries; values keep their type)."""
    import scipy.sparse as sp

    if not isinstance(M, Matrix):
        from ..exceptions import InvalidGraphError

        raise InvalidGraphError(f"expected a graphblas.Matrix, got {type(M).__name__}")
    rows, cols, vals = M.to_coo()
    return sp.coo_array((vals, (rows, cols)), shape=(M.nrows, M.ncols))


def graph_to_graphblas(G):
    """A new python-graphblas ``Matrix`` of ``G``'s adjacency: BOOL ones if unweighted, else FP64 weights."""
    return CPUEngine().matrix(G).dup(name="A")
