"""The GPU engine: the operator interface on CuPy and la_graph's CUDA kernels.

The only module of la_graph that imports cupy.  Importing it checks that CuPy
and a CUDA device are there and raises EngineUnavailable, saying what is
missing, otherwise.

Objects (opaque to algorithms; see docs/gpu.md):

* a vector (:class:`GVec`) is a dense CuPy array of values plus a bool
  presence array (``None`` when every entry is present);
* a matrix (:class:`GMat`) is CSR on the device (``indptr``/``indices`` int32
  where the sizes fit, else int64; values, or ``None`` for the iso ``True`` of an
  unweighted graph), or, for small dense-ish matrices such as the frontier
  matrix of a multi-source BFS, dense values plus presence of ``nrows * ncols``.

Arrays held by a vector or matrix are never written in place: every operation
makes new arrays (kernels that update in place work on private copies), so
``copy`` is O(1) and objects may share arrays safely.

The semiring products, BFS levels and FastSV rounds run in the CUDA kernels of
``gpu/*.cu`` (shipped as ``la_graph/_gpu_kernels``), compiled once per device by
``cupy.RawModule`` and cached; everything else is CuPy array code.
"""

from __future__ import annotations

import functools
import inspect
import threading
from pathlib import Path

import numpy as np

from ..exceptions import EngineUnavailable, InvalidArgumentError, LaGraphError, OutOfDeviceMemory
from .base import BINARY_OPS, MONOIDS, SELECT_OPS, UNARY_OPS, Engine


def _require_cuda():
    try:
        import cupy
    except ImportError as exc:
        raise EngineUnavailable(
            f"the gpu engine needs CuPy, which failed to import ({exc}); "
            "install it with: pip install 'la_graph[gpu]' (CuPy for CUDA 12), "
            "or use engine='cpu'"
        ) from exc
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # CUDARuntimeError: no driver, driver too old, ...
        raise EngineUnavailable(
            f"the gpu engine needs a CUDA device, but CUDA reports: {exc}; use engine='cpu'"
        ) from exc
    if count == 0:
        raise EngineUnavailable("the gpu engine needs a CUDA device, and none was found; use engine='cpu'")
    return cupy


cp = _require_cuda()

__all__ = ["GPUEngine", "GVec", "GMat", "kernel_module", "KERNEL_FILES"]

# ============================================================================ constants
_I32, _I64, _F64, _BOOL = np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.float64), np.dtype(bool)
_INT32_MAX = 2**31 - 1
_NULL = np.uint64(0)                       # a null pointer kernel argument

# codes shared with gpu/common.cuh
_OPCODES = {"first": 0, "second": 1, "pair": 2, "min": 3, "max": 4, "plus": 5, "minus": 6, "times": 7,
            "div": 8, "eq": 9, "ne": 10, "lt": 11, "le": 12, "gt": 13, "ge": 14, "lor": 15, "land": 16,
            "firsti": 17, "firstj": 18, "secondi": 19, "secondj": 20, "any": 0}
_OP_TO_BOOL = 0x100
_MONOID_CODES = {"min": 0, "max": 1, "plus": 2, "times": 3, "any": 4}
_FOLD = {"min": "min", "max": "max", "plus": "plus", "times": "times", "any": "first", "lor": "lor", "land": "land"}

_POSITIONAL = ("firsti", "firstj", "secondi", "secondj")
_MULTS = frozenset(BINARY_OPS) | frozenset(_POSITIONAL)
_COMPARE = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
            "ge": "greater_equal"}
# bool semantics of the arithmetic ops (GraphBLAS: plus = lor, minus = lxor, times = land)
_BOOL_OP = {"plus": "lor", "minus": "ne", "times": "land", "div": "first"}
# monoids on bool values computed as 0/1 integers
_BOOL_MONOID = {"plus": "max", "times": "min", "lor": "max", "land": "min", "min": "min", "max": "max",
                "any": "any"}

# bfs.cu state slots
_ST_CNT, _ST_EDG, _ST_K, _ST_FOUND, _ST_SCANNED, _ST_STOP = 0, 3, 6, 7, 8, 9


# ============================================================================ kernel modules
KERNEL_FILES = ("semiring.cu", "bfs.cu", "fastsv.cu", "floyd_warshall.cu", "msf.cu")
_CTYPES = {_I32: "int", _I64: "long long", _F64: "double"}
_MODULES: dict = {}        # (file, device id) -> cupy.RawModule
_FUNCTIONS: dict = {}      # (file, device id, name expression) -> cupy kernel
_MODULE_LOCK = threading.Lock()


def _kernel_dir():
    here = Path(__file__).resolve().parent
    for d in (here.parent / "_gpu_kernels", here.parents[1] / "gpu"):   # wheel, then source checkout
        if (d / "common.cuh").is_file():
            return d
    raise LaGraphError(
        f"the gpu engine's CUDA sources were not found (looked in {here.parent / '_gpu_kernels'} and "
        f"{here.parents[1] / 'gpu'}); reinstall la_graph, or use engine='cpu'")


def _name(kernel, *params):
    """The name expression of one template instantiation, e.g. ``semiring_mxv<0, long long, int>``."""
    parts = [str(p) if isinstance(p, int) else _CTYPES[np.dtype(p)] for p in params]
    return f"{kernel}<{', '.join(parts)}>"


def _instantiations(file):
    """Every template instantiation a file's module exports (compiled together, once per device)."""
    idx, vals, cts = (_I32, _I64), (_I32, _I64), (_I64, _F64)
    if file == "semiring.cu":
        names = [_name(k, m, t, i) for k in ("semiring_mxv", "semiring_push", "semiring_dot")
                 for m in range(5) for t in cts for i in idx]
        return names + [_name("semiring_segfold", t) for t in cts]
    if file == "bfs.cu":
        return [_name(k, i, v) for k in ("bfs_push_grid", "bfs_push_small", "bfs_push_level") for i in idx
                for v in vals]
    if file == "fastsv.cu":
        return ([_name("fastsv_mngp", i, v) for i in idx for v in vals]
                + [_name(k, v) for k in ("fastsv_hook", "fastsv_gp") for v in vals])
    if file == "floyd_warshall.cu":
        return [_name(k, GPUEngine.FW_TILE) for k in ("fw_phase1", "fw_phase2", "fw_phase3")]
    if file == "msf.cu":
        return ([_name(k, i, v) for k in ("msf_cheapest", "msf_partner") for i in idx for v in vals]
                + [_name(k, v) for k in ("msf_hook", "msf_jump") for v in vals])
    if file == "sssp.cu":
        return ([_name(k, i) for k in ("sssp_relax", "sssp_parent") for i in idx]
                + [_name("sssp_finish", _I64)])
    if file == "scc.cu":
        return [_name(k, i) for k in ("scc_trim_round", "scc_color_init", "scc_color_fwd", "scc_color_roots",
                                      "scc_color_back", "scc_color_smallest", "scc_color_label") for i in idx]
    raise LaGraphError(f"unknown kernel file {file!r}")


def kernel_module(file):
    """The ``cupy.RawModule`` of ``gpu/<file>`` on the current device, compiled on first use and cached.

    The source is ``gpu/common.cuh`` followed by the file, so CuPy's on-disk
    kernel cache is keyed by both.
    """
    dev = cp.cuda.runtime.getDevice()
    key = (file, dev)
    mod = _MODULES.get(key)
    if mod is None:
        with _MODULE_LOCK:
            mod = _MODULES.get(key)
            if mod is None:
                d = _kernel_dir()
                code = (d / "common.cuh").read_text() + "\n" + (d / file).read_text()
                try:
                    mod = cp.RawModule(code=code, options=("-std=c++17",), name_expressions=_instantiations(file))
                    mod.compile()
                except cp.cuda.compiler.CompileException as exc:
                    raise LaGraphError(f"compiling the gpu engine's kernels ({file}) failed: {exc}") from exc
                _MODULES[key] = mod
    return mod


def _kernel(file, kernel, *params):
    dev = cp.cuda.runtime.getDevice()
    name = _name(kernel, *params)
    key = (file, dev, name)
    fn = _FUNCTIONS.get(key)
    if fn is None:
        fn = _FUNCTIONS[key] = kernel_module(file).get_function(name)
    return fn


# ============================================================================ errors and memory
_CUDA_ERRORS = tuple(e for e in (
    getattr(cp.cuda.runtime, "CUDARuntimeError", None),
    getattr(cp.cuda.driver, "CUDADriverError", None),
    getattr(cp.cuda.compiler, "CompileException", None),
) if e is not None)
_OOM_ERRORS = tuple(e for e in (getattr(cp.cuda.memory, "OutOfMemoryError", None),) if e is not None)


def _device_errors(fn):
    """Re-raise CuPy / CUDA errors as la_graph errors that say what to do."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except LaGraphError:
            raise
        except _OOM_ERRORS as exc:
            raise OutOfDeviceMemory(
                f"gpu engine, {fn.__name__}: the GPU ran out of memory ({exc}); free GPU memory "
                "(other processes, cached arrays), use a smaller graph, or use engine='cpu'") from exc
        except _CUDA_ERRORS as exc:
            raise LaGraphError(
                f"gpu engine, {fn.__name__}: CUDA error: {exc}. If it repeats, restart the Python process "
                "(a failed kernel can leave the CUDA context unusable), check the driver with nvidia-smi, "
                "or use engine='cpu'") from exc
    return wrapper


def _free_device_bytes():
    return int(cp.cuda.runtime.memGetInfo()[0])


def _reserve(nbytes, what):
    """Raise OutOfDeviceMemory unless ``nbytes`` fit in the free device memory."""
    nbytes = int(nbytes)
    if nbytes <= 0:
        return
    free = _free_device_bytes()
    if nbytes > free:
        cp.get_default_memory_pool().free_all_blocks()   # blocks CuPy keeps cached count as used
        free = _free_device_bytes()
    if nbytes > free:
        raise OutOfDeviceMemory(
            f"{what} needs about {nbytes:,} bytes of GPU memory, but only {free:,} bytes are free on "
            f"GPU {cp.cuda.runtime.getDevice()}; free GPU memory, use a smaller graph, or run on the CPU "
            "with engine='cpu'")


# ============================================================================ objects
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


# ============================================================================ value helpers
def _compute_type(dtype):
    """The type a kernel computes ``dtype`` values in: double for floats, long long otherwise."""
    return _F64 if np.dtype(dtype).kind == "f" else _I64


def _cast(a, dtype):
    """GraphBLAS typecast of an array (numpy or CuPy): to bool is ``!= 0``."""
    dtype = np.dtype(dtype)
    if a.dtype == dtype:
        return a
    if dtype == _BOOL:
        return a != 0
    return a.astype(dtype)


def _scalar(value, dtype):
    """A Python/numpy scalar typecast to ``dtype`` (a numpy scalar)."""
    dtype = np.dtype(dtype)
    v = np.asarray(value)
    if v.ndim != 0:
        raise InvalidArgumentError(f"expected a scalar, got an array of shape {v.shape}")
    if dtype == _BOOL:
        return np.bool_(v != 0)
    with np.errstate(all="ignore"):
        return v.astype(dtype)[()]


def _int_limits(dtype):
    info = np.iinfo(dtype)
    return info.min, info.max


def _binop(op, a, b, D):
    """Binary op ``op`` on arrays ``a``, ``b`` of dtype ``D`` (already cast): dtype bool for
    comparisons, else ``D``."""
    xp = cp.get_array_module(a) if hasattr(cp, "get_array_module") else cp
    D = np.dtype(D)
    if D == _BOOL:
        op = _BOOL_OP.get(op, op)
    if op in ("first", "any"):
        return a
    if op == "second":
        return b
    if op == "pair":
        return xp.ones(a.shape, D)
    if op in _COMPARE:
        return getattr(xp, _COMPARE[op])(a, b)
    if op == "min":
        return xp.where(b < a, b, a)
    if op == "max":
        return xp.where(b > a, b, a)
    if op in ("lor", "land"):
        r = ((a != 0) | (b != 0)) if op == "lor" else ((a != 0) & (b != 0))
        return r if D == _BOOL else r.astype(D)
    with np.errstate(all="ignore"):
        if op == "plus":
            return a + b
        if op == "minus":
            return a - b
        if op == "times":
            return a * b
        if op == "div":
            if D.kind == "f":
                return a / b
            lo, hi = _int_limits(D)
            zero = b == 0
            bs = xp.where(zero, xp.ones((), D), b)
            q = a // bs                                   # floor; make it C's truncation
            q = q + ((a % bs != 0) & ((a < 0) != (bs < 0))).astype(D)
            q = xp.where(bs == -1, (xp.zeros((), D) - a).astype(D), q)
            over = xp.where(a == 0, xp.zeros((), D), xp.where(a > 0, xp.full((), hi, D), xp.full((), lo, D)))
            return xp.where(zero, over, q).astype(D)
    raise InvalidArgumentError(f"unknown binary op {op!r}; known: {', '.join(BINARY_OPS)}")


def _unary(op, a, D):
    xp = cp.get_array_module(a) if hasattr(cp, "get_array_module") else cp
    D = np.dtype(D)
    if op == "identity":
        return a
    if op == "one":
        return xp.ones(a.shape, D)
    if op == "lnot":
        return _cast(a == 0, D)
    if D == _BOOL:
        return xp.ones(a.shape, D) if op == "minv" else a    # ainv, abs of bool: itself; minv: true
    with np.errstate(all="ignore"):
        if op == "ainv":
            return (xp.zeros((), D) - a).astype(D)
        if op == "abs":
            return xp.abs(a).astype(D)
        if op == "minv":
            if D.kind == "f":
                return (1 / a).astype(D)
            _, hi = _int_limits(D)
            return xp.where(a == 0, xp.full((), hi, D),
                            xp.where(a == 1, xp.ones((), D), xp.where(a == -1, -xp.ones((), D), xp.zeros((), D))))
    raise InvalidArgumentError(f"unknown unary op {op!r}")


def _check_op(op, known, kind):
    if not isinstance(op, str) or op not in known:
        extra = " (a binary op needs right=)" if kind == "unary op" and op in BINARY_OPS else ""
        raise InvalidArgumentError(f"unknown {kind} {op!r}{extra}; known: {', '.join(known)}")
    return op


def _identity_python(monoid, dtype):
    """The monoid's identity as a Python scalar of ``dtype``'s kind."""
    dtype = np.dtype(dtype)
    if dtype == _BOOL:
        return {"min": True, "max": False, "plus": False, "times": True, "lor": False, "land": True,
                "any": False}[monoid]
    if dtype.kind == "f":
        return {"min": float("inf"), "max": float("-inf"), "plus": 0.0, "times": 1.0, "any": 0.0}[monoid]
    lo, hi = _int_limits(dtype)
    return {"min": int(hi), "max": int(lo), "plus": 0, "times": 1, "any": 0}[monoid]


def _identity_c(mon, C):
    """Identity of kernel monoid ``mon`` in compute type ``C`` (numpy scalar)."""
    C = np.dtype(C)
    if mon == "min":
        return C.type(np.inf) if C.kind == "f" else C.type(np.iinfo(C).max)
    if mon == "max":
        return C.type(-np.inf) if C.kind == "f" else C.type(np.iinfo(C).min)
    return C.type(1) if mon == "times" else C.type(0)


# ------------------------------------------------------------------ semiring plans
def _parse_semiring(name):
    if not isinstance(name, str) or "_" not in name:
        raise InvalidArgumentError(f"semiring must be a name like 'min_second', got {name!r}")
    add, mult = name.split("_", 1)
    if add not in MONOIDS or mult not in _MULTS:
        raise InvalidArgumentError(
            f"unknown semiring {name!r}: it must be <monoid>_<op> with a monoid of {', '.join(MONOIDS)} "
            f"and an op of {', '.join(sorted(_MULTS))}")
    return add, mult


class _Plan:
    """How a semiring runs on operands of dtypes (left, right): D its type, Z the
    result's dtype, C the kernels' compute type, the kernel monoid and op code."""

    __slots__ = ("name", "D", "Z", "C", "mon", "op", "opcode", "to_bool", "need_a", "need_b")

    def __init__(self, name, left, right):
        add, mult = _parse_semiring(name)
        left, right = np.dtype(left), np.dtype(right)
        if mult in _POSITIONAL:
            D = _I64
        elif add in ("lor", "land"):
            D = _BOOL
        elif mult == "first":
            D = left
        elif mult == "second":
            D = right
        elif mult == "pair":
            D = _I64 if add == "plus" else left
        else:
            D = np.result_type(left, right)
        self.name, self.D = name, np.dtype(D)
        self.Z = _BOOL if add in ("lor", "land") else self.D
        self.C = _compute_type(self.D)
        op, mon, to_bool = mult, add, False
        if self.D == _BOOL:
            op, mon = _BOOL_OP.get(op, op), _BOOL_MONOID[add]
        elif add in ("lor", "land"):             # only positional ops reach here: products become 0/1
            to_bool, mon = True, ("max" if add == "lor" else "min")
        if op == "any":
            op = "first"
        self.op, self.mon, self.to_bool = op, mon, to_bool
        self.opcode = _OPCODES[op] | (_OP_TO_BOOL if to_bool else 0)
        self.need_a = op not in ("second", "pair") + _POSITIONAL
        self.need_b = op not in ("first", "pair") + _POSITIONAL

    def operand(self, a):
        """Operand values (any dtype) cast to D, then to the compute type."""
        return _cast(_cast(a, self.D), self.C)

    def iso(self):
        """The compute-type value of an iso ``True`` operand."""
        return self.C.type(1)

    def mult_arrays(self, a, b, fi, fj, si, sj):
        """The multiply op elementwise in Python (the sparse mxm path); mirrors la_mult."""
        if self.op in _POSITIONAL:
            z = {"firsti": fi, "firstj": fj, "secondi": si, "secondj": sj}[self.op].astype(self.C)
        else:
            z = _cast(_binop(self.op, a, b, self.C), self.C)
        if self.to_bool:
            z = (z != 0).astype(self.C)
        return z


def _fold_code(op, dtype):
    """segfold op code of binary op / monoid ``op`` on values of ``dtype``."""
    op = _FOLD.get(op, op) if op in MONOIDS else op
    if np.dtype(dtype) == _BOOL:
        op = _BOOL_OP.get(op, op)
    if op == "any":
        op = "first"
    return _OPCODES[op]


# ============================================================================ flat views
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


def _combine(cval, cpres, tval, tpres, allowed, accum, replace, dtype):
    """``C<allowed, replace> accum= T`` on aligned arrays (pres None = all present); T already
    cast to ``dtype``.  Returns (values, presence or None)."""
    n = cval.size
    if accum is None:
        zv, zp = tval, tpres
    else:
        acc = _cast(_binop(accum, cval, tval, dtype), dtype)
        if cpres is None and tpres is None:
            zv, zp = acc, None
        else:
            c1, t1 = _ones_if_none(cpres, n), _ones_if_none(tpres, n)
            zv = cp.where(c1 & t1, acc, cp.where(t1, tval, cval))
            zp = c1 | t1
    if allowed is None:
        return zv, zp
    if zp is None and cpres is None and not replace:   # full stays full: no presence array to carry
        return cp.where(allowed, zv, cval), None
    z1 = _ones_if_none(zp, n)
    if replace:
        newp = allowed & z1
    else:
        newp = cp.where(allowed, z1, _ones_if_none(cpres, n))
    return cp.where(allowed, zv, cval), newp


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


def _claimable(pres, n):
    """A private copy of a presence array (None: all present) in an allocation padded to 4 bytes:
    the BFS kernels claim a vertex with atomicOr on the 32-bit word that holds its byte."""
    buf = cp.zeros((n + 3) // 4 * 4, _BOOL)
    if pres is None:
        buf[:n] = True
    else:
        buf[:n] = pres
    return buf[:n]


def _next_pow2(x, cap=32):
    g = 1
    while g < x and g < cap:
        g *= 2
    return g


# ============================================================================ the engine
class GPUEngine(Engine):
    """CuPy implementation of :class:`~la_graph.engines.base.Engine` (see docs/gpu.md).

    Parameters
    ----------
    index_dtype : None or "int64"
        ``None``: CSR indices are int32 where n and nnz fit, else int64; ``"int64"``
        forces int64 (the wide path, for testing it on small graphs).
    dense_limit : int
        Largest ``nrows * ncols`` a matrix may have to be stored dense (frontier
        matrices, small matrices built from COO); larger ones are CSR.
    """

    name = "gpu"

    bfs_fuse_edges = 1 << 16  # a kernel launch costs more than a CPU call: fuse more

    #: how bfs_push runs its levels: "grid" (default: one persistent launch over the whole
    #: GPU, a grid barrier between levels) or "levels" (one block while levels are small,
    #: else one launch per level, the host reading the state once per batch)
    BFS_KERNEL = "grid"
    #: block of the single-block BFS kernel, and the largest frontier (out-edges) it takes
    BFS_SMALL_BLOCK = 1024
    BFS_SMALL_EDGES = 16384

    def __init__(self, *, index_dtype=None, dense_limit=1 << 26):
        if index_dtype not in (None, "int64", np.int64, _I64):
            raise InvalidArgumentError(f"index_dtype must be None or 'int64', got {index_dtype!r}")
        self._wide = index_dtype is not None
        self.dense_limit = int(dense_limit)
        dev = cp.cuda.Device()
        try:
            self._sms = int(dev.attributes["MultiProcessorCount"])
        except Exception:  # pragma: no cover - attribute names differ across CuPy versions
            self._sms = 64
        self._max_blocks = self._sms * 32

    # ---------------------------------------------------------------- helpers
    def _blocks(self, nthreads, block=256):
        return max(1, min((int(nthreads) + block - 1) // block, self._max_blocks))

    def _itype(self, *sizes):
        return _I64 if self._wide or max(sizes, default=0) > _INT32_MAX else _I32

    @staticmethod
    def _vec(x, what="vector"):
        if not isinstance(x, GVec):
            raise InvalidArgumentError(f"expected a gpu-engine vector for {what}, got {type(x).__name__}")
        return x

    @staticmethod
    def _mat(x, what="matrix"):
        if not isinstance(x, GMat):
            raise InvalidArgumentError(f"expected a gpu-engine matrix for {what}, got {type(x).__name__}")
        return x

    @staticmethod
    def _obj(x, what="object"):
        if not isinstance(x, (GVec, GMat)):
            raise InvalidArgumentError(f"expected a gpu-engine vector or matrix for {what}, got {type(x).__name__}")
        return x

    @staticmethod
    def _shape(x):
        return (x.size,) if isinstance(x, GVec) else (x.nrows, x.ncols)

    @staticmethod
    def _check_output_args(out, mask, accum, complement, shape=None, kind=None):
        if accum is not None:
            _check_op(accum, BINARY_OPS, "binary op")
        if complement and mask is None:
            raise InvalidArgumentError("complement=True needs a mask")
        if out is None and accum is not None:
            raise InvalidArgumentError("accum needs out= (an existing object to accumulate into)")
        if mask is not None and not isinstance(mask, (GVec, GMat)):
            raise InvalidArgumentError(f"expected a gpu-engine vector or matrix as mask, got {type(mask).__name__}")
        if out is not None:
            if kind is not None and not isinstance(out, kind):
                raise InvalidArgumentError(f"out= must be a gpu-engine {kind.__name__}, got {type(out).__name__}")
            if shape is not None and GPUEngine._shape(out) != tuple(shape):
                raise InvalidArgumentError(f"out= has shape {GPUEngine._shape(out)}, the result {tuple(shape)}")

    def _csr(self, M):
        """(indptr, indices, values or None) of a matrix in CSR (a dense one converted, cached)."""
        if not M.dense:
            return M.indptr, M.indices, M.val
        c = M._cache.get("csr")
        if c is None:
            keys, vals, _ = _sparsify(_flat(M))
            c = M._cache["csr"] = self._csr_from_keys(keys, M.nrows, M.ncols) + (vals,)
        return c

    def _csr_from_keys(self, keys, nrows, ncols):
        IT = self._itype(nrows, ncols, keys.size)
        if keys.size == 0:
            return cp.zeros(nrows + 1, IT), cp.zeros(0, IT)
        rows = keys // ncols
        cols = keys - rows * ncols
        indptr = cp.searchsorted(rows, cp.arange(nrows + 1, dtype=_I64), side="left").astype(IT)
        return indptr, cols.astype(IT)

    def _csr_t(self, M):
        """CSR of M' (cached)."""
        c = M._cache.get("T")
        if c is None:
            keys, vals, _ = _sparsify(_flat(M))
            if keys.size:
                rows = keys // M.ncols
                cols = keys - rows * M.ncols
                tkeys = cols * M.nrows + rows
                order = cp.argsort(tkeys, kind="stable")
                tkeys, vals = tkeys[order], vals[order]
            else:
                tkeys = keys
            c = M._cache["T"] = self._csr_from_keys(tkeys, M.ncols, M.nrows) + (vals,)
        return c

    def _mat_from_keys(self, nrows, ncols, dtype, keys, vals, dense):
        if dense:
            N = nrows * ncols
            _reserve(N * (np.dtype(dtype).itemsize + 1), f"a dense {nrows} x {ncols} matrix")
            _, v, p = _densify((keys, vals, None), N)
            return GMat.dense_of(nrows, ncols, dtype, v, p)
        indptr, indices = self._csr_from_keys(keys, nrows, ncols)
        return GMat.csr(nrows, ncols, dtype, indptr, indices, vals)

    def _dense_ok(self, nrows, ncols):
        return nrows * ncols <= self.dense_limit

    def _finish(self, shape, T, out, mask, accum, structural, complement, replace, *, dense=True, allowed=None):
        """Write result T (a flat) into ``out`` (or a new object) under the GraphBLAS output rules.

        ``dense``: the form of a new matrix result; ``allowed``: the mask, already evaluated densely.
        """
        vec = len(shape) == 1
        N = shape[0] if vec else shape[0] * shape[1]
        if out is None:
            dtype = T[1].dtype
            if vec or dense:
                _, val, pres = _densify(T, N)
                a = allowed if allowed is not None else _allowed(mask, structural, complement, N)
                if a is not None:
                    pres = a if pres is None else (pres & a)
                if vec:
                    return GVec(N, dtype, val, pres)
                return GMat.dense_of(shape[0], shape[1], dtype, val, pres)
            keys, val, _ = _sparsify(T)
            a = _allowed(mask, structural, complement, N, U=keys)
            if a is not None:
                keys, val = keys[a], val[a]
            return self._mat_from_keys(shape[0], shape[1], dtype, keys, val, False)
        dtype = out.dtype
        if isinstance(out, GVec) or out.dense:
            _, tv, tp = _densify(T, N)
            a = allowed if allowed is not None else _allowed(mask, structural, complement, N)
            val, pres = _combine(out.val, out.pres, _cast(tv, dtype), tp, a, accum, replace, dtype)
            if isinstance(out, GVec):
                out.val, out.pres = val, pres
            else:
                out._set_dense(val, pres)
            return out
        ckeys, cvals, _ = _flat(out)
        tkeys, tvals, _ = _sparsify(T)
        U = _union(ckeys, tkeys)
        cv, cpres = _gather((ckeys, cvals, None), U)
        tv, tpres = _gather((tkeys, tvals, None), U)
        a = _allowed(mask, structural, complement, N, U=U)
        val, pres = _combine(cv, cpres, _cast(tv, dtype), tpres, a, accum, replace, dtype)
        if pres is not None:
            U, val = U[pres], val[pres]
        indptr, indices = self._csr_from_keys(U, out.nrows, out.ncols)
        out._set_csr(indptr, indices, val)
        return out

    # ---------------------------------------------------------------- graphs
    def _graph_key(self, what):
        return ("gpu", what, cp.cuda.runtime.getDevice(), "int64" if self._wide else "auto")

    def matrix(self, G, *, transpose=False):
        key = self._graph_key("AT" if transpose else "A")
        M = G._engine_cache.get(key)
        if M is None:
            if transpose and not G.directed:
                M = self.matrix(G)
            else:
                M = self._upload(G.T if transpose else G)
                if not G.directed:
                    M._cache["T"] = (M.indptr, M.indices, M.val)
                else:
                    other = G._engine_cache.get(self._graph_key("A" if transpose else "AT"))
                    if other is not None:
                        M._cache["T"] = (other.indptr, other.indices, other.val)
                        other._cache["T"] = (M.indptr, M.indices, M.val)
            G._engine_cache[key] = M
        return M

    def _upload(self, H):
        n, nnz = H.n, H.nnz
        IT = self._itype(n, nnz)
        need = (n + 1 + nnz) * IT.itemsize + (nnz * 8 if H.weights is not None else 0)
        _reserve(need, f"uploading a graph of {n:,} vertices and {nnz:,} entries")
        indptr = cp.asarray(np.ascontiguousarray(H.indptr, dtype=IT))
        indices = cp.asarray(np.ascontiguousarray(H.indices, dtype=IT))
        if H.weights is None:
            return GMat.csr(n, n, _BOOL, indptr, indices, None)
        return GMat.csr(n, n, _F64, indptr, indices, cp.asarray(H.weights))

    def degree(self, G, *, transpose=False):
        key = self._graph_key("din" if transpose else "dout")
        d = G._engine_cache.get(key)
        if d is None:
            host = G.in_degree if transpose else G.out_degree
            d = G._engine_cache[key] = GVec(G.n, _I64, cp.asarray(np.asarray(host, dtype=np.int64)), None)
        return d

    # ---------------------------------------------------------------- building
    def vector(self, size, dtype):
        size, dtype = int(size), np.dtype(dtype)
        return GVec(size, dtype, cp.zeros(size, dtype), cp.zeros(size, _BOOL))

    def full(self, size, value, dtype=None):
        dtype = np.dtype(dtype) if dtype is not None else np.asarray(value).dtype
        return GVec(int(size), dtype, cp.full(int(size), _scalar(value, dtype), dtype), None)

    def iota(self, size):
        return GVec(int(size), _I64, cp.arange(int(size), dtype=_I64), None)

    def vector_from_numpy(self, values):
        if isinstance(values, cp.ndarray):
            arr = cp.array(values, copy=True)
        else:
            arr = cp.asarray(np.ascontiguousarray(values))
        if arr.ndim != 1:
            raise InvalidArgumentError(f"vector_from_numpy needs a 1-D array, got shape {arr.shape}")
        return GVec(arr.size, arr.dtype, arr, None)

    def _coo_input(self, indices, size, what):
        """Host or device index array -> device int64, bounds-checked."""
        if isinstance(indices, cp.ndarray):
            idx = indices.astype(_I64, copy=False).ravel()
            if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= size):
                raise InvalidArgumentError(f"{what} out of range 0..{size - 1}")
            return idx
        idx = np.asarray(indices)
        if idx.size == 0:
            idx = idx.astype(np.int64)
        if idx.dtype.kind not in "iu" and idx.size:
            raise InvalidArgumentError(f"{what} must be integers, got dtype {idx.dtype}")
        idx = idx.astype(np.int64, copy=False).ravel()
        if idx.size and (idx.min() < 0 or idx.max() >= size):
            bad = idx[(idx < 0) | (idx >= size)][0]
            raise InvalidArgumentError(f"{what} {bad} out of range 0..{size - 1}")
        return cp.asarray(idx)

    def _coo_values(self, values, count, dup, dtype):
        """(device values cast to dtype, dtype, scalar?) of a build."""
        if dup is not None:
            _check_op(dup, BINARY_OPS, "binary op")
        if isinstance(values, cp.ndarray):
            dtype = np.dtype(dtype) if dtype is not None else values.dtype
            vals = values.ravel()
            scalar = False
        else:
            arr = np.asarray(values)
            dtype = np.dtype(dtype) if dtype is not None else arr.dtype
            scalar = arr.ndim == 0
            if scalar:
                return cp.full(count, _scalar(arr, dtype), dtype), dtype, True
            vals = cp.asarray(np.ascontiguousarray(arr).ravel())
        if vals.size != count:
            raise InvalidArgumentError(f"got {vals.size} values for {count} indices")
        return _cast(vals, dtype), dtype, scalar

    def _build(self, keys, vals, dup, dtype):
        """Sorted unique keys and their values; duplicates combined in order by ``dup`` (None: an error)."""
        if keys.size == 0:
            return keys, vals
        order = cp.argsort(keys, kind="stable")
        sk, sv = keys[order], vals[order]
        off = _segments(sk)
        nseg = off.size - 1
        if nseg == sk.size:
            return sk, sv
        if dup is None:
            raise InvalidArgumentError("duplicate indices; pass dup= (a binary op) to combine them")
        starts = off[:-1]
        C = _compute_type(dtype)
        out = cp.empty(nseg, C)
        _kernel("semiring.cu", "semiring_segfold", C)(
            (self._blocks(nseg),), (256,),
            (off, _cast(sv, C), out, np.int64(nseg), np.int32(_fold_code(dup, dtype))))
        return sk[starts], _cast(out, dtype)

    def vector_from_coo(self, indices, values, size, *, dup=None, dtype=None):
        size = int(size)
        idx = self._coo_input(indices, size, "index")
        vals, dtype, scalar = self._coo_values(values, idx.size, dup, dtype)
        keys, v = self._build(idx, vals, dup if (dup is not None or not scalar) else "first", dtype)
        _, val, pres = _densify((keys, v, None), size)
        return GVec(size, dtype, val, pres)

    def matrix_from_coo(self, rows, cols, values, nrows, ncols, *, dup=None, dtype=None):
        nrows, ncols = int(nrows), int(ncols)
        r = self._coo_input(rows, nrows, "row index")
        c = self._coo_input(cols, ncols, "column index")
        if r.size != c.size:
            raise InvalidArgumentError(f"got {r.size} row indices and {c.size} column indices")
        vals, dtype, scalar = self._coo_values(values, r.size, dup, dtype)
        keys, v = self._build(r * ncols + c, vals, dup if (dup is not None or not scalar) else "first", dtype)
        return self._mat_from_keys(nrows, ncols, dtype, keys, v, self._dense_ok(nrows, ncols))

    # ---------------------------------------------------------------- leaving
    def _dense_array(self, x, fill):
        """Dense CuPy values of x, ``fill`` where missing (None: all must be present)."""
        self._obj(x)
        N = _nitems(x)
        pos, val, pres = _flat(x)
        if pos is None and pres is None:
            out = val.copy()
        else:
            _, val, pres = _densify((pos, val, pres), N)
            if fill is None:
                if N and not bool(pres.all()):
                    raise InvalidArgumentError("to_numpy needs fill= for an object with missing entries")
                out = val.copy()
            else:
                out = cp.where(pres, val, cp.asarray(_scalar(fill, x.dtype)))
        return out if isinstance(x, GVec) else out.reshape(x.nrows, x.ncols)

    def to_numpy(self, x, fill=None):
        return cp.asnumpy(self._dense_array(x, fill))

    def to_device(self, x, fill=None):
        """Like :meth:`to_numpy`, but the result stays on the GPU (a CuPy array; no copy to the host)."""
        return self._dense_array(x, fill)

    def to_coo(self, x):
        self._obj(x)
        keys, vals, _ = _sparsify(_flat(x))
        if isinstance(x, GVec):
            return cp.asnumpy(keys), cp.asnumpy(vals)
        if keys.size == 0:
            e = np.zeros(0, np.int64)
            return e, e.copy(), cp.asnumpy(vals)
        rows = keys // x.ncols
        return cp.asnumpy(rows), cp.asnumpy(keys - rows * x.ncols), cp.asnumpy(vals)

    def copy(self, x):
        # arrays are never written in place, so sharing them is a copy
        self._obj(x)
        if isinstance(x, GVec):
            return GVec(x.size, x.dtype, x.val, x.pres)
        M = GMat(x.nrows, x.ncols, x.dtype)
        M.dense, M.val, M.pres, M.indptr, M.indices = x.dense, x.val, x.pres, x.indptr, x.indices
        M._cache = dict(x._cache)
        return M

    def nvals(self, x):
        self._obj(x)
        if isinstance(x, GMat) and not x.dense:
            return int(x.indices.size)
        if x.pres is None:
            return _nitems(x)
        return int(cp.count_nonzero(x.pres))

    def size(self, x):
        self._obj(x)
        return x.size if isinstance(x, GVec) else (x.nrows, x.ncols)

    def isequal(self, x, y):
        self._obj(x)
        self._obj(y)
        if isinstance(x, GVec) != isinstance(y, GVec) or self._shape(x) != self._shape(y):
            return False
        fx, fy = _flat(x), _flat(y)
        if fx[0] is None and fy[0] is None:
            n = fx[1].size
            px, py = _ones_if_none(fx[2], n), _ones_if_none(fy[2], n)
            if not bool(cp.array_equal(px, py)):
                return False
            return bool(cp.all((fx[1] == fy[1]) | ~px))
        kx, vx, _ = _sparsify(fx)
        ky, vy, _ = _sparsify(fy)
        return kx.size == ky.size and bool(cp.array_equal(kx, ky)) and bool(cp.all(vx == vy))

    def hint(self, x, storage):
        if storage not in ("sparse", "dense"):
            raise InvalidArgumentError(f"storage hint must be 'sparse' or 'dense', got {storage!r}")
        return x

    # ---------------------------------------------------------------- products
    def mxv(self, A, u, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        self._mat(A, "A")
        self._vec(u, "u")
        plan = _Plan(semiring, A.dtype, u.dtype)
        self._check_output_args(out, mask, accum, complement, (A.nrows,), GVec)
        if A.ncols != u.size:
            raise InvalidArgumentError(f"mxv: A has {A.ncols} columns but u has {u.size} entries")
        m = A.nrows
        allowed = _allowed(mask, structural, complement, m)
        C = plan.C
        w = cp.zeros(m, C)
        wp = cp.zeros(m, _BOOL)
        indptr, indices, avals = self._csr(A)
        if m and indices.size:
            IT = indices.dtype
            gs = _next_pow2(indices.size / max(m, 1))
            av = plan.operand(avals) if (plan.need_a and avals is not None) else None
            uv = plan.operand(u.val) if plan.need_b else w   # w: any array of C; never read
            _kernel("semiring.cu", "semiring_mxv", _MONOID_CODES[plan.mon], C, IT)(
                (self._blocks(m * gs),), (256,),
                (indptr, indices, av if av is not None else _NULL, plan.iso(), uv,
                 u.pres if u.pres is not None else _NULL, allowed if allowed is not None else _NULL,
                 w, wp, np.int64(m), np.int32(plan.opcode), np.int32(plan.need_a), np.int32(plan.need_b),
                 np.int32(gs)))
        T = (None, _cast(w, plan.Z), wp)
        return self._finish((m,), T, out, mask, accum, structural, complement, replace, allowed=allowed)

    def _push(self, plan, ek, ev, eo, ei, B, N, allowed):
        """Dense push product: w[eo + j] (+)= ev (*) B[ek, j]; returns (w, wpres) in the compute type."""
        C = plan.C
        w = cp.full(N, _identity_c(plan.mon, C), C)
        wp = cp.zeros(N, _BOOL)
        indptr, indices, bvals = self._csr(B)
        ne = int(ek.size)
        if ne == 0 or indices.size == 0:
            return w, wp
        eoff = cp.zeros(ne + 1, _I64)
        eoff[1:] = cp.cumsum((indptr[ek + 1] - indptr[ek]).astype(_I64))
        bv = plan.operand(bvals) if (plan.need_b and bvals is not None) else None
        # the kernel reads the edge total (eoff[ne]) itself: no wait here; grid-stride over it
        _kernel("semiring.cu", "semiring_push", _MONOID_CODES[plan.mon], C, indices.dtype)(
            (self._blocks(indices.size),), (256,),
            (eoff, np.int64(ne), ek, ev, eo if eo is not None else _NULL,
             ei if ei is not None else _NULL, indptr, indices, bv if bv is not None else _NULL, plan.iso(),
             allowed if allowed is not None else _NULL, w, wp, np.int32(plan.opcode), np.int32(plan.need_a),
             np.int32(plan.need_b)))
        return w, wp

    def vxm(self, u, A, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        self._vec(u, "u")
        self._mat(A, "A")
        plan = _Plan(semiring, u.dtype, A.dtype)
        self._check_output_args(out, mask, accum, complement, (A.ncols,), GVec)
        if A.nrows != u.size:
            raise InvalidArgumentError(f"vxm: u has {u.size} entries but A has {A.nrows} rows")
        n = A.ncols
        allowed = _allowed(mask, structural, complement, n)
        ek = cp.flatnonzero(u.pres).astype(_I64, copy=False) if u.pres is not None else cp.arange(u.size, dtype=_I64)
        ev = plan.operand(u.val[ek]) if plan.need_a else cp.zeros(ek.size, plan.C)
        w, wp = self._push(plan, ek, ev, None, None, A, n, allowed)
        T = (None, _cast(w, plan.Z), wp)
        return self._finish((n,), T, out, mask, accum, structural, complement, replace, allowed=allowed)

    def mxm(self, A, B, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        self._mat(A, "A")
        self._mat(B, "B")
        plan = _Plan(semiring, A.dtype, B.dtype)
        m, n = A.nrows, B.ncols
        self._check_output_args(out, mask, accum, complement, (m, n), GMat)
        if A.ncols != B.nrows:
            raise InvalidArgumentError(f"mxm: A has {A.ncols} columns but B has {B.nrows} rows")
        N = m * n
        dense_result = A.dense and self._dense_ok(m, n)
        if mask is not None and not complement and not dense_result:
            T = self._mxm_dot(plan, A, B, mask, structural, m, n)
        elif self._dense_ok(m, n):
            T = self._mxm_push(plan, A, B, mask, structural, complement, m, n)
        else:
            T = self._mxm_expand(plan, A, B, mask, structural, complement, m, n)
        return self._finish((m, n), T, out, mask, accum, structural, complement, replace, dense=dense_result)

    def _entries(self, A):
        """(rows, cols, values) of A's entries, int64 positions."""
        keys, vals, _ = _sparsify(_flat(A))
        if keys.size == 0:
            return keys, keys, vals
        rows = keys // A.ncols
        return rows, keys - rows * A.ncols, vals

    def _mxm_push(self, plan, A, B, mask, structural, complement, m, n):
        N = m * n
        _reserve(N * (plan.C.itemsize + 2), f"an mxm result of {m} x {n}")
        allowed = _allowed(mask, structural, complement, N)
        ai, ak, av = self._entries(A)
        ev = plan.operand(av) if plan.need_a else cp.zeros(ak.size, plan.C)
        w, wp = self._push(plan, ak, ev, ai * n, ai, B, N, allowed)
        return None, _cast(w, plan.Z), wp

    def _mxm_dot(self, plan, A, B, mask, structural, m, n):
        """C<M> = A (+.*) B at the mask's positions only (masked dot products)."""
        mpos, mval, mpres = _flat(mask)
        if _nitems(mask) != m * n:
            raise InvalidArgumentError(f"the mask has shape {self._shape(mask)}, the result ({m}, {n})")
        if mpos is None:
            ok = _ones_if_none(mpres, m * n) if structural else ((mval != 0) & _ones_if_none(mpres, m * n))
            keys = cp.flatnonzero(ok).astype(_I64, copy=False)
        else:
            keys = mpos if structural else mpos[mval != 0]
        C = plan.C
        npos = int(keys.size)
        if npos == 0 or A.ncols == 0:
            return keys[:0], cp.zeros(0, plan.Z), None
        aptr, aind, avals = self._csr(A)
        bptr, bind, bvals = self._csr_t(B)
        if aind.dtype != bind.dtype:
            aptr, aind, bptr, bind = (x.astype(_I64) for x in (aptr, aind, bptr, bind))
        pi = keys // n
        pj = keys - pi * n
        w = cp.zeros(npos, C)
        wp = cp.zeros(npos, _BOOL)
        av = plan.operand(avals) if (plan.need_a and avals is not None) else None
        bv = plan.operand(bvals) if (plan.need_b and bvals is not None) else None
        _kernel("semiring.cu", "semiring_dot", _MONOID_CODES[plan.mon], C, aind.dtype)(
            (self._blocks(npos),), (256,),
            (pi, pj, np.int64(npos), aptr, aind, av if av is not None else _NULL, plan.iso(),
             bptr, bind, bv if bv is not None else _NULL, plan.iso(), w, wp, np.int32(plan.opcode),
             np.int32(plan.need_a), np.int32(plan.need_b)))
        return keys[wp], _cast(w[wp], plan.Z), None

    def _mxm_expand(self, plan, A, B, mask, structural, complement, m, n):
        """C = A (+.*) B too large for a dense result: every product, sorted and reduced by position."""
        ai, ak, av = self._entries(A)
        indptr, indices, bvals = self._csr(B)
        C = plan.C
        if ak.size == 0 or indices.size == 0:
            return cp.zeros(0, _I64), cp.zeros(0, plan.Z), None
        eoff = cp.zeros(ak.size + 1, _I64)
        eoff[1:] = cp.cumsum((indptr[ak + 1] - indptr[ak]).astype(_I64))
        total = int(eoff[-1])
        _reserve(total * 48, f"the {total:,} products of an mxm")
        if total == 0:
            return cp.zeros(0, _I64), cp.zeros(0, plan.Z), None
        p = cp.arange(total, dtype=_I64)
        e = cp.searchsorted(eoff[1:], p, side="right")
        k = ak[e]
        pos = indptr[k].astype(_I64) + (p - eoff[e])
        j = indices[pos].astype(_I64)
        i = ai[e]
        keys = i * n + j
        a = plan.operand(av[e]) if plan.need_a else cp.zeros(total, C)
        b = (plan.operand(bvals[pos]) if bvals is not None else cp.ones(total, C)) if plan.need_b \
            else cp.zeros(total, C)
        z = plan.mult_arrays(a, b, i, k, k, j)
        if mask is not None:
            keep = _allowed(mask, structural, complement, m * n, U=keys)
            keys, z = keys[keep], z[keep]
        keys, z = self._reduce_by_key(keys, z, _FOLD[plan.mon], C)
        return keys, _cast(z, plan.Z), None

    def _reduce_by_key(self, keys, vals, fold_op, C):
        if keys.size == 0:
            return keys, vals
        order = cp.argsort(keys, kind="stable")
        keys, vals = keys[order], vals[order]
        off = _segments(keys)
        nseg = off.size - 1
        out = cp.empty(nseg, C)
        _kernel("semiring.cu", "semiring_segfold", C)(
            (self._blocks(nseg),), (256,), (off, _cast(vals, C), out, np.int64(nseg), np.int32(_OPCODES[fold_op])))
        return keys[off[:-1]], out

    # ---------------------------------------------------------------- element-wise
    def _ewise(self, kind, x, y, op, out, mask, accum, structural, complement, replace):
        self._obj(x, "x")
        self._obj(y, "y")
        _check_op(op, BINARY_OPS, "binary op")
        if isinstance(x, GVec) != isinstance(y, GVec) or self._shape(x) != self._shape(y):
            raise InvalidArgumentError(f"ewise_{kind}: shapes {self._shape(x)} and {self._shape(y)} differ")
        shape = self._shape(x)
        self._check_output_args(out, mask, accum, complement, shape, type(x))
        D = np.result_type(x.dtype, y.dtype)
        Zt = _BOOL if op in _COMPARE else np.dtype(D)
        fx, fy = _flat(x), _flat(y)
        dense = fx[0] is None and fy[0] is None
        if dense:
            xv, xp_ = fx[1], fx[2]
            yv, yp_ = fy[1], fy[2]
            U = None
        else:
            fx, fy = _sparsify(fx), _sparsify(fy)
            U = _union(fx[0], fy[0])
            xv, xp_ = _gather(fx, U)
            yv, yp_ = _gather(fy, U)
        r = _cast(_binop(op, _cast(xv, D), _cast(yv, D), D), Zt)
        n = xv.size
        if kind == "add":
            if xp_ is None and yp_ is None:
                val, pres = r, None
            else:
                x1, y1 = _ones_if_none(xp_, n), _ones_if_none(yp_, n)
                val = cp.where(x1 & y1, r, cp.where(x1, _cast(xv, Zt), _cast(yv, Zt)))
                pres = x1 | y1
        else:
            val = r
            pres = None if (xp_ is None and yp_ is None) else (_ones_if_none(xp_, n) & _ones_if_none(yp_, n))
        if dense:
            T = (None, val, pres)
        else:
            keep = pres if pres is not None else cp.ones(n, _BOOL)
            T = (U[keep], val[keep], None)
        return self._finish(shape, T, out, mask, accum, structural, complement, replace, dense=dense)

    def ewise_add(self, x, y, op, *, out=None, mask=None, accum=None,
                  structural=False, complement=False, replace=False):
        return self._ewise("add", x, y, op, out, mask, accum, structural, complement, replace)

    def ewise_mult(self, x, y, op, *, out=None, mask=None, accum=None,
                   structural=False, complement=False, replace=False):
        return self._ewise("mult", x, y, op, out, mask, accum, structural, complement, replace)

    def apply(self, x, op, *, right=None, out=None, mask=None, accum=None,
              structural=False, complement=False, replace=False):
        self._obj(x, "x")
        if right is None:
            _check_op(op, UNARY_OPS, "unary op")
        else:
            _check_op(op, BINARY_OPS, "binary op")
        shape = self._shape(x)
        self._check_output_args(out, mask, accum, complement, shape, type(x))
        pos, val, pres = _flat(x)
        if right is None:
            r = _unary(op, val, x.dtype)
        else:
            # typed as python-graphblas types it: x's dtype unified with the scalar's
            # (an int64 vector times 1.0 is float64)
            D = np.result_type(x.dtype, right.dtype if isinstance(right, np.generic) else np.asarray(right).dtype)
            b = cp.full(val.shape, _scalar(right, D), D)
            r = _binop(op, _cast(val, D), b, D)
        return self._finish(shape, (pos, r, pres), out, mask, accum, structural, complement, replace,
                            dense=pos is None)

    def select(self, x, op, thunk=None, *, out=None, mask=None, accum=None,
               structural=False, complement=False, replace=False):
        self._obj(x, "x")
        _check_op(op, SELECT_OPS, "select op")
        shape = self._shape(x)
        self._check_output_args(out, mask, accum, complement, shape, type(x))
        pos, val, pres = _flat(x)
        if op.startswith("value"):
            if thunk is None:
                raise InvalidArgumentError(f"select op {op!r} needs a thunk (the value to compare with)")
            keep = getattr(cp, _COMPARE[op[5:]])(val, cp.asarray(_scalar(thunk, x.dtype)))
        else:
            idx = pos if pos is not None else cp.arange(val.size, dtype=_I64)
            ncols = 1 if isinstance(x, GVec) else max(x.ncols, 1)
            rows = idx // ncols
            if op in ("rowle", "rowgt"):
                if thunk is None:
                    raise InvalidArgumentError(f"select op {op!r} needs a thunk (a row index)")
                t = int(thunk)
                keep = rows <= t if op == "rowle" else rows > t
            else:
                k = 0 if thunk is None else int(thunk)
                d = (idx - rows * ncols) - rows
                keep = {"tril": d <= k, "triu": d >= k, "diag": d == k, "offdiag": d != k}[op]
        if pos is None:
            T = (None, val, keep if pres is None else (keep & pres))
        else:
            T = (pos[keep], val[keep], None)
        return self._finish(shape, T, out, mask, accum, structural, complement, replace, dense=pos is None)

    # ---------------------------------------------------------------- reductions
    def reduce(self, x, monoid):
        self._obj(x, "x")
        _check_op(monoid, MONOIDS, "monoid")
        pos, val, pres = _flat(x)
        vals = val if (pos is not None or pres is None) else val[pres]
        mdt = _BOOL if monoid in ("lor", "land") else x.dtype
        v = _cast(vals, mdt)
        if v.size == 0:
            return _identity_python(monoid, mdt)
        if mdt == _BOOL:
            mon = {"plus": "lor", "times": "land", "min": "land", "max": "lor"}.get(monoid, monoid)
            r = v.any() if mon == "lor" else (v.all() if mon == "land" else v[0])
            return bool(r)
        if monoid == "min":
            r = v.min()
        elif monoid == "max":
            r = v.max()
        elif monoid == "plus":
            r = v.sum(dtype=_compute_type(mdt) if mdt.kind != "f" else mdt)
        elif monoid == "times":
            r = v.prod(dtype=_compute_type(mdt) if mdt.kind != "f" else mdt)
        else:
            r = v[0]
        r = r.item()
        return float(r) if mdt.kind == "f" else int(r)

    def reduce_rows(self, A, monoid, *, out=None, mask=None, accum=None,
                    structural=False, complement=False, replace=False):
        self._mat(A, "A")
        _check_op(monoid, MONOIDS, "monoid")
        m = A.nrows
        self._check_output_args(out, mask, accum, complement, (m,), GVec)
        mdt = _BOOL if monoid in ("lor", "land") else A.dtype
        keys, vals, _ = _sparsify(_flat(A))
        val = cp.zeros(m, mdt)
        pres = cp.zeros(m, _BOOL)
        if keys.size:
            C = _compute_type(mdt)
            rows = keys // A.ncols
            off = _segments(rows)
            nseg = off.size - 1
            r = cp.empty(nseg, C)
            _kernel("semiring.cu", "semiring_segfold", C)(
                (self._blocks(nseg),), (256,),
                (off, _cast(_cast(vals, mdt), C), r, np.int64(nseg), np.int32(_fold_code(monoid, mdt))))
            where = rows[off[:-1]]
            val[where] = _cast(r, mdt)
            pres[where] = True
        return self._finish((m,), (None, val, pres), out, mask, accum, structural, complement, replace)

    # ---------------------------------------------------------------- gather / scatter
    def _index(self, index, what="index"):
        if isinstance(index, GVec):
            if index.pres is not None and not bool(index.pres.all()):
                raise InvalidArgumentError(f"{what} must be a full vector")
            if index.dtype.kind not in "iu":
                raise InvalidArgumentError(f"{what} must hold integers, got {index.dtype}")
            return index.val.astype(_I64, copy=False)
        if isinstance(index, cp.ndarray):
            return index.astype(_I64, copy=False).ravel()
        arr = np.asarray(index)
        if arr.size and arr.dtype.kind not in "iu":
            raise InvalidArgumentError(f"{what} must hold integers, got {arr.dtype}")
        return cp.asarray(arr.astype(np.int64, copy=False).ravel())

    def extract(self, u, index, *, out=None, mask=None, accum=None,
                structural=False, complement=False, replace=False):
        self._vec(u, "u")
        idx = self._index(index)
        k = int(idx.size)
        self._check_output_args(out, mask, accum, complement, (k,), GVec)
        if k and (int(idx.min()) < 0 or int(idx.max()) >= u.size):
            raise InvalidArgumentError(f"extract: an index is out of range 0..{u.size - 1}")
        T = (None, u.val[idx], u.pres[idx] if u.pres is not None else None)
        return self._finish((k,), T, out, mask, accum, structural, complement, replace)

    def assign(self, w, u, *, mask=None, accum=None, structural=False, complement=False, replace=False):
        self._obj(w, "w")
        self._check_output_args(w, mask, accum, complement)
        shape = self._shape(w)
        N = _nitems(w)
        if isinstance(u, (GVec, GMat)):
            if isinstance(u, GVec) != isinstance(w, GVec) or self._shape(u) != shape:
                raise InvalidArgumentError(f"assign: u has shape {self._shape(u)}, w {shape}")
            T = _flat(u)
        else:
            s = _scalar(u, w.dtype)
            if isinstance(w, GVec) or w.dense:
                T = (None, cp.full(N, s, w.dtype), None)
            else:
                # a scalar into a CSR matrix: only positions a (non-complemented) mask allows can change
                if mask is not None and not complement:
                    keys = cp.flatnonzero(_allowed(mask, structural, False, N)).astype(_I64, copy=False) \
                        if _flat(mask)[0] is None else _flat(mask)[0]
                else:
                    _reserve(N * 16, f"assigning a scalar to all {N:,} positions of a matrix")
                    keys = cp.arange(N, dtype=_I64)
                T = (keys, cp.full(keys.size, s, w.dtype), None)
        self._finish(shape, T, w, mask, accum, structural, complement, replace)
        return w

    def scatter(self, w, index, values, *, dup="min", accum="min"):
        self._vec(w, "w")
        _check_op(dup, BINARY_OPS, "binary op")
        _check_op(accum, BINARY_OPS, "binary op")
        idx = self._index(index)
        if isinstance(values, GVec):
            if values.pres is not None and not bool(values.pres.all()):
                raise InvalidArgumentError("scatter: values must be a full vector")
            vals = values.val
        elif isinstance(values, cp.ndarray):
            vals = values.ravel()
        else:
            vals = cp.asarray(np.asarray(values).ravel())
        if vals.size != idx.size:
            raise InvalidArgumentError(f"scatter: {idx.size} indices but {vals.size} values")
        if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= w.size):
            raise InvalidArgumentError(f"scatter: an index is out of range 0..{w.size - 1}")
        keys, v = self._build(idx, _cast(vals, w.dtype), dup, w.dtype)
        self._finish((w.size,), (keys, v, None), w, None, accum, False, False, False)
        return w

    # ---------------------------------------------------------------- fused steps
    def _row_lengths(self, A):
        d = A._cache.get("deg")
        if d is None:
            indptr = self._csr(A)[0]
            d = A._cache["deg"] = (indptr[1:] - indptr[:-1]).astype(_I64)
        return d

    def _bfs_workspace(self, G, n, IT):
        key = self._graph_key("bfs_ws")
        ws = G._engine_cache.get(key)
        if ws is None or ws[0].dtype != IT:
            _reserve(2 * n * IT.itemsize + 128, "the BFS frontier queues")
            ws = G._engine_cache[key] = (cp.empty(n, IT), cp.empty(n, IT), cp.zeros(16, _I64))
        return ws

    def bfs_push(self, G, q, parent, level, k, max_edges):
        # the kernels also know a frontier-size limit (on_edges=0); base.py's contract is on edges
        on_edges = True
        limit = max_edges

        vecs = [v for v in (parent, level) if v is not None]
        before = vecs[0].pres if vecs and isinstance(vecs[0], GVec) else None   # visited before (None: all)

        def done(q_, k_, nq_, found_, scanned_):
            # the found vertices' in-degree sum: visited now (the vector's new flags), not before
            found_in = 0
            if found_ and before is not None:
                indeg = self.degree(G, transpose=True).val
                found_in = int(cp.where(vecs[0].pres & ~before, indeg, 0).sum())
            return q_, k_, nq_, found_, scanned_, found_in

        if (not isinstance(q, GVec) or not vecs or any(not isinstance(v, GVec) for v in vecs)
                or len({v.dtype for v in vecs}) != 1 or vecs[0].dtype not in (_I32, _I64)):
            return super().bfs_push(G, q, parent, level, k, limit)   # the caller's loop does the levels
        n = G.n
        A = self.matrix(G)
        indptr, indices = A.indptr, A.indices
        IT, VT = indices.dtype, vecs[0].dtype
        deg = self._row_lengths(A)
        if q.pres is None:
            nf, edges = n, int(indices.size)
        else:   # size and out-edges of the frontier, one wait
            nf, edges = (int(x) for x in cp.asnumpy(cp.stack([cp.count_nonzero(q.pres), (deg * q.pres).sum()])))
        lim = int(min(limit, 2**62)) if limit >= 0 else -1     # NaN: -1 as well
        if nf == 0 or (edges if on_edges else nf) > lim:
            return done(q, k, nf, 0, 0)
        frontier = (cp.flatnonzero(q.pres) if q.pres is not None else cp.arange(n)).astype(IT, copy=False)
        qa, qb, st = self._bfs_workspace(G, n, IT)
        qa[:nf] = frontier
        init = np.zeros(16, np.int64)
        init[_ST_CNT], init[_ST_EDG] = nf, edges
        st[...] = cp.asarray(init)
        # private copies: the kernels write parents / levels in place
        pv = parent.val.copy() if parent is not None else None
        pp = _claimable(parent.pres, n) if parent is not None else None
        lv = level.val.copy() if level is not None else None
        lp = _claimable(level.pres, n) if level is not None else None
        vis = pp if parent is not None else lp
        levp = lp if (level is not None and parent is not None) else None
        ptr = lambda a: a if a is not None else _NULL  # noqa: E731
        gs = np.int32(_next_pow2(indices.size / max(n, 1) / 4))    # lanes per vertex, 4 edges a lane
        if self.BFS_KERNEL == "grid":
            _kernel("bfs.cu", "bfs_push_grid", IT, VT)(
                (self._sms,), (512,),
                (indptr, indices, qa, qb, st, vis, ptr(pv), ptr(lv), ptr(levp), np.int64(k), np.int64(lim),
                 np.int32(on_edges), gs, st[12:].view(np.uint32)))
            s = cp.asnumpy(st)
            P = int(s[_ST_K])
            return self._bfs_push_done(q, parent, level, pv, pp, lv, lp, qa, qb, s, P, k, done)
        small_fn = _kernel("bfs.cu", "bfs_push_small", IT, VT)
        level_fn = _kernel("bfs.cu", "bfs_push_level", IT, VT)
        small_edges = int(self.BFS_SMALL_EDGES)
        grid = (max(1, self._sms * 8),)
        small = edges <= small_edges
        batch = 4
        P = 0
        while True:
            if small:
                small_fn((1,), (self.BFS_SMALL_BLOCK,),
                         (indptr, indices, qa, qb, st, vis, ptr(pv), ptr(lv), ptr(levp), np.int64(k),
                          np.int64(lim), np.int32(on_edges), np.int64(small_edges), gs))
            else:
                for L in range(P, P + batch):
                    qin, qout = (qa, qb) if L % 2 == 0 else (qb, qa)
                    level_fn(grid, (256,),
                             (indptr, indices, qin, qout, st, vis, ptr(pv), ptr(lv), ptr(levp), np.int64(L),
                              np.int64(k + L + 1), np.int64(lim), np.int32(on_edges), gs))
                batch = min(2 * batch, 64)
            s = cp.asnumpy(st)
            P = int(s[_ST_K])
            if s[_ST_STOP]:
                break
            small = int(s[_ST_EDG + P % 3]) <= small_edges
        return self._bfs_push_done(q, parent, level, pv, pp, lv, lp, qa, qb, s, P, k, done)

    @staticmethod
    def _bfs_push_done(q, parent, level, pv, pp, lv, lp, qa, qb, s, P, k, done):
        n = q.size
        nq = int(s[_ST_CNT + P % 3])
        final = (qa if P % 2 == 0 else qb)[:nq]
        if parent is not None:
            parent.val, parent.pres = pv, pp
        if level is not None:
            level.val, level.pres = lv, lp
        pres = cp.zeros(n, _BOOL)
        pres[final] = True
        if parent is not None and q.dtype.kind in "iu":
            val = cp.zeros(n, q.dtype)
            val[final] = pv[final].astype(q.dtype)      # the frontier's values: its parents
        else:
            val = pres.astype(q.dtype)
        return done(GVec(n, q.dtype, val, pres), k + P, nq, int(s[_ST_FOUND]), int(s[_ST_SCANNED]))

    def fastsv_iteration(self, A, f, gp, mngp):
        vecs = (f, gp, mngp)
        if (not isinstance(A, GMat) or any(not isinstance(v, GVec) for v in vecs)
                or len({v.dtype for v in vecs}) != 1 or f.dtype not in (_I32, _I64)):
            return super().fastsv_iteration(A, f, gp, mngp)
        if not all(_is_full(v) for v in vecs):
            raise InvalidArgumentError("fastsv_iteration needs full vectors")
        n = f.size
        if A.nrows != n or A.ncols != n or gp.size != n or mngp.size != n:
            raise InvalidArgumentError("fastsv_iteration: A must be n x n and f, gp, mngp of length n")
        if n == 0:
            return f, gp, False
        indptr, indices, _ = self._csr(A)
        IT, VT = indices.dtype, f.dtype
        gs = _next_pow2(indices.size / n)
        mngp_new = cp.empty(n, VT)
        _kernel("fastsv.cu", "fastsv_mngp", IT, VT)(
            (self._blocks(n * gs),), (256,), (indptr, indices, gp.val, mngp.val, mngp_new, np.int64(n), np.int32(gs)))
        fn = f.val.copy()
        _kernel("fastsv.cu", "fastsv_hook", VT)(
            (self._blocks(n),), (256,), (f.val, gp.val, mngp_new, fn, np.int64(n)))
        gp_new = cp.empty(n, VT)
        changed = cp.zeros(1, np.int32)
        _kernel("fastsv.cu", "fastsv_gp", VT)((self._blocks(n),), (256,), (fn, gp.val, gp_new, np.int64(n), changed))
        f.val, f.pres = fn, None
        gp.val, gp.pres = gp_new, None
        mngp.val, mngp.pres = mngp_new, None
        return f, gp, bool(int(changed[0]))

    # ---- bench ----
    def synchronize(self):
        cp.cuda.Device().synchronize()

    # ---- interop ----
    def graph_from_device(self, u, v, w=None, n=None, directed=False, weighted=None):
        """A :class:`~la_graph.Graph` built on the GPU from device edge arrays (``Graph.from_edges`` rules).

        ``u``, ``v``, ``w`` are CuPy arrays (or anything with
        ``__cuda_array_interface__``).  Validation, symmetrization, the CSR (a
        duplicate keeps its smallest weight) and, for ``directed=None``, the
        symmetry test run on the device; the finished CSR is copied to the host
        once (a Graph is a host object) and its device copy is cached as this
        engine's matrix of the graph, so running on the GPU uploads nothing.
        ``weighted=None`` keeps ``w``; ``False`` drops it; ``"auto"`` drops
        it when every weight is 1 (``Graph.from_scipy``'s rule).
        """
        from .._validation import INT64_MAX
        from ..exceptions import InvalidGraphError
        from ..graph import Graph

        def ids(a, name):
            a = cp.asarray(a).reshape(-1)
            if a.size and a.dtype.kind not in "iu":
                if a.dtype.kind == "f" and bool(cp.all(cp.isfinite(a) & (a == cp.round(a)))):
                    return a.astype(_I64)
                raise InvalidGraphError(f"{name} must hold integer vertex ids, got dtype {a.dtype}")
            if a.dtype.kind == "u" and a.size and int(a.max()) > INT64_MAX:
                raise InvalidGraphError(f"vertex id {int(a.max())} does not fit in int64")
            return a.astype(_I64)

        u, v = ids(u, "u"), ids(v, "v")
        if u.shape != v.shape:
            raise InvalidGraphError(f"u and v must have the same length, got {u.size} and {v.size}")
        for name, a in (("u", u), ("v", v)):
            if a.size and int(a.min()) < 0:
                i = int(cp.argmax(a < 0))
                raise InvalidGraphError(f"vertex ids must be >= 0, got {name}[{i}] = {int(a[i])}")
            if a.size and n is not None and int(a.max()) >= n:
                i = int(cp.argmax(a >= n))
                raise InvalidGraphError(f"vertex ids must be < n = {n}, got {name}[{i}] = {int(a[i])}")
        if n is None:
            n = max(int(u.max()), int(v.max())) + 1 if u.size else 0
        n = int(n)
        if n < 0:
            raise InvalidGraphError(f"n must be a non-negative integer, got {n}")
        if n > INT64_MAX // max(n, 1):
            raise InvalidGraphError(f"n = {n} is too large: n*n must fit in int64")
        if w is not None:
            w = cp.asarray(w)
            if w.dtype.kind not in "iufb":
                raise InvalidGraphError(f"weights must be real numbers, got dtype {w.dtype}")
            w = w.astype(_F64).reshape(-1) if w.ndim else cp.full(u.size, float(w), _F64)
            if w.shape != u.shape:
                raise InvalidGraphError(f"w must have one weight per edge: {w.size} weights for {u.size} edges")
            bad = ~cp.isfinite(w)
            if bool(bad.any()):
                i = int(cp.argmax(bad))
                raise InvalidGraphError(f"weights must be finite, got w[{i}] = {float(w[i])}")
            if weighted is False or (weighted == "auto" and bool(cp.all(w == 1))):
                w = None
        if directed is False:
            off = u != v
            u, v = cp.concatenate([u, v[off]]), cp.concatenate([v, u[off]])
            if w is not None:
                w = cp.concatenate([w, w[off]])
        key = u * n + v
        if w is None:
            key = cp.unique(key)                                 # sorted, duplicates merged
        else:
            key, w = self._build(key, w, "min", _F64)            # each duplicate keeps its smallest weight
        rows = key // max(n, 1)
        cols = key - rows * n
        if directed is None:                                     # undirected iff A == A'
            tkey = cols * n + rows
            t = cp.argsort(tkey)
            directed = not (bool(cp.array_equal(tkey[t], key)) and (w is None or bool(cp.array_equal(w[t], w))))
        IT = self._itype(n, key.size)
        indptr = cp.searchsorted(rows, cp.arange(n + 1, dtype=_I64), side="left")
        indices = cols.astype(IT)
        host_idx = np.int32 if n <= _INT32_MAX else np.int64
        G = Graph(cp.asnumpy(indptr).astype(np.int64), cp.asnumpy(cols).astype(host_idx),
                  None if w is None else cp.asnumpy(w), n, bool(directed), _trusted=True)
        M = GMat.csr(n, n, _BOOL if w is None else _F64, indptr.astype(IT), indices, w)
        if not directed:
            M._cache["T"] = (M.indptr, M.indices, M.val)
        G._engine_cache[self._graph_key("A")] = M
        return G

    def graph_from_device_matrix(self, A, directed=None, weighted=None):
        """A :class:`~la_graph.Graph` of a square CuPy sparse matrix (``cupyx.scipy.sparse``), built on the GPU.

        ``Graph.from_scipy``'s rules: stored entries are edges, ``directed=None``
        means undirected iff symmetric, ``weighted=None`` means unweighted when
        the matrix is boolean or every value is 1.
        """
        from ..exceptions import InvalidGraphError

        if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
            raise InvalidGraphError(f"adjacency matrix must be square, got shape {A.shape[0]}x{A.shape[1]}")
        if A.dtype.kind not in "iufb":
            raise InvalidGraphError(f"adjacency matrix must hold real numbers, got dtype {A.dtype}")
        C = A.tocoo()
        w = None if weighted is False or (weighted is None and A.dtype.kind == "b") else C.data
        return self.graph_from_device(C.row, C.col, w, A.shape[0], directed,
                                      weighted="auto" if weighted is None else weighted)

    # ---- apsp ----
    objects_on_host = False
    #: tile of the blocked Floyd-Warshall kernels (gpu/floyd_warshall.cu): blocks of FW_TILE x 8 threads
    FW_TILE = 32
    #: rounds between host reads of the negative-cycle flag (to stop early)
    FW_CHECK_ROUNDS = 64

    def floyd_warshall(self, G):
        n = G.n
        _reserve(8 * n * n + 16 * G.nnz + 64, f"Floyd-Warshall's {n:,} x {n:,} float64 distance matrix")
        A = self.matrix(G)
        D = cp.full(n * n, np.inf, dtype=_F64)
        keys = _mat_keys(A)                                  # row * n + col of every edge
        if keys.size:
            D[keys] = A.val if A.val is not None else 1.0    # a Graph holds no duplicate edges
        diag = cp.arange(n, dtype=_I64) * (n + 1)
        D[diag] = cp.minimum(D[diag], 0.0)
        neg = cp.full(1, n, dtype=_I64)
        T = self.FW_TILE
        nb = (n + T - 1) // T
        block = (T, 8)
        p1, p2, p3 = (_kernel("floyd_warshall.cu", k, T) for k in ("fw_phase1", "fw_phase2", "fw_phase3"))
        for K in range(nb):
            p1((1,), block, (D, np.int64(n), np.int32(K), neg))
            p2((nb, 2), block, (D, np.int64(n), np.int32(K)))
            p3((nb, nb), block, (D, np.int64(n), np.int32(K)))
            if K % self.FW_CHECK_ROUNDS == self.FW_CHECK_ROUNDS - 1 and int(neg[0]) < n:
                break
        v = int(neg[0])
        return GMat.dense_of(n, n, _F64, D, None), (v if v < n else -1)

    # ---- msf ----
    def msf_edges(self, G):
        # the keys of base.py's msf_edges, computed on the device from the uploaded CSR;
        # the edge set is a tuple of CuPy arrays (eu, ev, key) that only msf_round reads
        A = self.matrix(G)
        n, nnz = G.n, G.nnz
        _reserve(32 * nnz + 64, f"the keys of {nnz // 2:,} spanning-forest edges")
        table, offset = self.msf_weight_ranks(G)
        rows = (cp.searchsorted(A.indptr, cp.arange(nnz, dtype=A.indptr.dtype), side="right") - 1).astype(
            A.indices.dtype)
        p = cp.flatnonzero(rows < A.indices)
        if table is not None:
            rank = cp.asarray(table)[p]
        elif G.weights is not None:
            rank = A.val[p].astype(_I64) - offset
        else:
            rank = cp.zeros(p.size, _I64)
        return rows[p], A.indices[p], rank * np.int64(nnz) + p

    def msf_round(self, f, edges, forest):
        if not (isinstance(edges, tuple) and len(edges) == 3 and all(isinstance(a, cp.ndarray) for a in edges)
                and isinstance(f, GVec) and isinstance(forest, GVec) and f.dtype in (_I32, _I64)):
            return super().msf_round(f, edges, forest)
        if not (_is_full(f) and _is_full(forest)):
            raise InvalidArgumentError("msf_round needs full vectors f and forest")
        eu, ev, key = edges
        n, m = f.size, int(key.size)
        if m == 0 or n == 0:
            return edges, 0
        IT, VT = eu.dtype, f.dtype
        fv, fo = f.val.copy(), forest.val.astype(_I64, copy=True)   # the engine never writes into a vector's array
        cheap = cp.full(n, np.iinfo(np.int64).max, _I64)
        keep = cp.empty(m, cp.uint8)
        _kernel("msf.cu", "msf_cheapest", IT, VT)(
            (self._blocks(m),), (256,), (eu, ev, key, fv, cheap, keep, np.int64(m)))
        partner = cp.empty(n, VT)
        _kernel("msf.cu", "msf_partner", IT, VT)(
            (self._blocks(m),), (256,), (eu, ev, key, keep, cheap, partner, np.int64(m)))
        hooked = cp.zeros(1, cp.uint64)
        _kernel("msf.cu", "msf_hook", VT)((self._blocks(n),), (256,), (fv, cheap, partner, fo, np.int64(n), hooked))
        changed = cp.ones(1, cp.int32)
        while int(changed[0]):
            changed.fill(0)
            _kernel("msf.cu", "msf_jump", VT)((self._blocks(n),), (256,), (fv, np.int64(n), changed))
        f.val, f.pres = fv, None
        forest.val, forest.pres = fo.astype(forest.dtype, copy=False), None
        live = cp.flatnonzero(keep)
        return (eu[live], ev[live], key[live]), int(hooked[0])

    # ---- sssp ----
    def sssp_relax(self, A, q, d, parent):
        # a single-source frontier over a weighted CSR: three launches over the
        # frontier's edges (gpu/sssp.cu), one host read (the new frontier's size)
        if not (isinstance(A, GMat) and isinstance(q, GVec) and isinstance(d, GVec) and q.dtype == _F64
                and d.dtype == _F64 and _is_full(d) and (parent is None or (
                    isinstance(parent, GVec) and parent.dtype == _I64 and _is_full(parent)))):
            return super().sssp_relax(A, q, d, parent)
        indptr, indices, w = self._csr(A)
        if w is None or w.dtype != _F64:
            return super().sssp_relax(A, q, d, parent)
        n = d.size
        fr = (cp.flatnonzero(q.pres) if q.pres is not None else cp.arange(n)).astype(_I64)
        fq = q.val[fr]
        nf = int(fr.size)
        IT = indices.dtype
        gs = _next_pow2(indices.size / max(n, 1))
        dv = d.val.copy()   # the engine never writes into a vector's array
        flag = cp.zeros(n, cp.int32)
        nxt = cp.empty(n, _I64)
        count = cp.zeros(1, cp.uint64)
        if nf:
            _kernel("sssp.cu", "sssp_relax", IT)(
                (self._blocks(nf * gs),), (256,),
                (indptr, indices, w, fr, fq, np.int64(nf), dv, flag, nxt, count, np.int32(gs)))
        m = int(count[0])
        nxt = nxt[:m]
        pv = parent.val.copy() if parent is not None else cp.empty(1, _I64)
        pc = cp.full(n, np.iinfo(np.int64).max, _I64) if parent is not None else pv
        if parent is not None and m:
            _kernel("sssp.cu", "sssp_parent", IT)(
                (self._blocks(nf * gs),), (256,),
                (indptr, indices, w, fr, fq, np.int64(nf), dv, flag, pc, np.int32(gs)))
        nq = cp.empty(m, _F64)
        if m:
            _kernel("sssp.cu", "sssp_finish", _I64)(
                (self._blocks(m),), (256,),
                (nxt, np.int64(m), dv, pc, pv, np.int32(parent is not None), nq))
        d.val, d.pres = dv, None
        if parent is not None:
            parent.val, parent.pres = pv, None
        val = cp.zeros(n, _F64)
        pres = cp.zeros(n, bool)
        val[nxt] = nq
        pres[nxt] = True
        return GVec(n, _F64, val, pres)

    # ---- scc ----
    # Kernels in gpu/scc.cu (compile-checked with nvcc for sm_90; not yet run on a device).
    def _scc_state(self, G, labels):
        """``(indptr, indices, tptr, tind, done, lab)`` for the SCC kernels, or None to use base.py's steps."""
        if not isinstance(labels, GVec) or labels.dtype != _I64 or labels.size != G.n or labels.pres is None:
            return None
        indptr, indices, _ = self._csr(self.matrix(G))
        tptr, tind, _ = self._csr(self.matrix(G, transpose=True))
        if indices.dtype != tind.dtype:
            return None
        # fresh arrays: the engine never writes into arrays a vector holds (copies share them)
        return indptr, indices, tptr, tind, labels.pres.copy(), labels.val.copy()

    def scc_trim(self, G, labels):
        if isinstance(labels, GVec) and labels.pres is None:
            return 0  # every vertex is labelled
        st = self._scc_state(G, labels)
        if st is None:
            return super().scc_trim(G, labels)
        indptr, indices, tptr, tind, done, lab = st
        n = G.n
        before = int(done.sum())
        changed = cp.zeros(1, np.int32)
        sweep = _kernel("scc.cu", "scc_trim_round", indices.dtype)
        while True:
            changed.fill(0)
            sweep((self._blocks(n),), (256,), (indptr, indices, tptr, tind, done, lab, np.int64(n), changed))
            if not int(changed[0]):
                break
        labels.val, labels.pres = lab, done
        return int(done.sum()) - before

    def scc_color(self, G, prio, labels):
        if isinstance(labels, GVec) and labels.pres is None:
            return 0  # every vertex is labelled
        st = self._scc_state(G, labels)
        if st is None or not isinstance(prio, GVec) or prio.dtype != _I64 or not _is_full(prio):
            return super().scc_color(G, prio, labels)
        indptr, indices, tptr, tind, done, lab = st
        n = G.n
        IT = indices.dtype
        left = n - int(done.sum())
        color, smallest = cp.empty(n, _I64), cp.empty(n, _I64)
        reached = cp.empty(n, cp.bool_)
        changed = cp.zeros(1, np.int32)
        grid, block, nn = (self._blocks(n),), (256,), np.int64(n)
        total = 0
        while total < left:
            _kernel("scc.cu", "scc_color_init", IT)(grid, block, (done, prio.val, color, reached, smallest, nn))
            while True:  # least reaching priority: min-first propagation to a fixed point
                changed.fill(0)
                _kernel("scc.cu", "scc_color_fwd", IT)(grid, block, (indptr, indices, done, color, nn, changed))
                if not int(changed[0]):
                    break
            _kernel("scc.cu", "scc_color_roots", IT)(grid, block, (done, prio.val, color, reached, nn))
            while True:  # backward from each root within its color
                changed.fill(0)
                _kernel("scc.cu", "scc_color_back", IT)(grid, block, (indptr, indices, done, color, reached, nn,
                                                                      changed))
                if not int(changed[0]):
                    break
            _kernel("scc.cu", "scc_color_smallest", IT)(grid, block, (color, reached, smallest, nn))
            _kernel("scc.cu", "scc_color_label", IT)(grid, block, (color, reached, smallest, done, lab, nn))
            total += int(reached.sum())
        labels.val, labels.pres = lab, done
        return total


# every public method re-raises CUDA errors as la_graph errors
# (a static method stays static: wrapping the bare function would bind it to the instance)
for _attr in [a for a in dir(GPUEngine) if not a.startswith("_") and callable(getattr(GPUEngine, a))]:
    _wrapped = _device_errors(getattr(GPUEngine, _attr))
    _static = isinstance(inspect.getattr_static(GPUEngine, _attr), staticmethod)
    setattr(GPUEngine, _attr, staticmethod(_wrapped) if _static else _wrapped)
del _attr, _wrapped, _static
