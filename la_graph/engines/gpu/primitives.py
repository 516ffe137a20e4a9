"""The GPU engine's primitives: :class:`GPUEngine`, the operator interface on CuPy.

The semiring products run in the CUDA kernels of ``cuda/semiring.cu``
(:mod:`.kernels`); everything else is CuPy array code over the flat views of
:mod:`.objects`, with GraphBLAS's value rules from :mod:`.ops`.  The algorithm
steps the engine runs as kernels of their own are in :mod:`.fused`
(``GPUEngine.fused_steps``); building graphs from device arrays is in
:mod:`.interop`.
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from ...exceptions import InvalidArgumentError
from ..base import BINARY_OPS, MONOIDS, SELECT_OPS, UNARY_OPS, Engine, is_scalar, monoid_type
from . import interop
from .fused import FUSED
from .kernels import _NULL, FW_TILE, _kernel, _next_pow2
from .memory import _reserve, _wait, memory_watch, wrap_public
from .objects import (_BOOL, _F64, _I32, _I64, _INT32_MAX, GMat, GVec, _allowed, _densify, _flat, _gather,
                      _mat_vals, _nitems, _ones_if_none, _segments, _sparsify, _to_host, _union)
from .ops import (_BOOL_MONOID, _COMPARE, _FOLD, _MONOID_CODES, _OPCODES, _binop, _cast, _check_op,
                  _compute_type, _fold_code, _identity_c, _identity_python, _Plan, _scalar, _unary)


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


#: semiring_rows' bins 6, 5, 4, 3, 2 (1, 2, 4, 8, 16 lanes a row) take the rows of at most these
#: lengths, four entries a lane; bin 1 (a warp) the longer ones up to the long-row limit
_ROW_BIN_LENGTHS = (4, 8, 16, 32, 64)


class _RowPlan:
    """The bins of one CSR's rows for ``semiring_rows`` (cuda/semiring.cu), built once per matrix.

    Rows sorted (stably) by bin: ``order``; bin 0 the rows longer than ``long_row``, each cut
    into pieces of ``piece`` entries (``soff``: the first piece of each, then the total);
    ``tab`` the kernel's table (each bin's first block, then its first position in
    ``order``); ``blocks`` the launch's blocks; ``present`` the rows with an entry (None: all
    of them), the presence of a product with a full vector.  Building it reads a few
    counts to the host (once; a second read for the long rows' lengths).
    """

    __slots__ = ("order", "tab", "soff", "blocks", "nlong", "npieces", "piece", "present")

    def __init__(self, indptr, long_row, piece):
        m = indptr.size - 1
        lengths = indptr[1:] - indptr[:-1]
        limits = cp.asarray(_ROW_BIN_LENGTHS, dtype=lengths.dtype)
        bins = cp.where(lengths > long_row, 0, 6 - cp.searchsorted(limits, lengths, side="left")).astype(np.int8)
        order = cp.argsort(bins, kind="stable")
        starts = cp.searchsorted(bins[order], cp.arange(8, dtype=np.int8), side="left").astype(_I64)
        host = cp.asnumpy(cp.concatenate([starts, cp.count_nonzero(lengths == 0).astype(_I64).reshape(1)]))
        rs, nempty = host[:8], int(host[8])
        self.nlong = nlong = int(rs[1])
        soff = np.zeros(nlong + 1, np.int64)
        if nlong:
            longest = cp.asnumpy(lengths[order[:nlong]]).astype(np.int64)
            soff[1:] = np.cumsum((longest + piece - 1) // piece)
        self.npieces, self.piece = int(soff[-1]), int(piece)
        per_block = [256 // 32] + [256 // (64 >> b) for b in range(1, 7)]     # a warp a piece; gs lanes a row
        counts = [self.npieces] + [int(rs[b + 1] - rs[b]) for b in range(1, 7)]
        bstart = np.zeros(8, np.int64)
        bstart[1:] = np.cumsum([-(-c // k) for c, k in zip(counts, per_block)])
        self.blocks = int(bstart[-1])
        self.tab = cp.asarray(np.concatenate([bstart, rs.astype(np.int64)]))
        self.soff = cp.asarray(soff)
        self.order = order.astype(indptr.dtype)
        self.present = None if nempty == 0 else lengths != 0


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

    #: the steps this engine runs as CUDA kernels (:mod:`.fused`)
    fused_steps = FUSED

    bfs_fuse_edges = 1 << 62  # every push level: the fused step runs any frontier, in one launch per stretch

    #: bfs_push's persistent launches: frontiers of at most BFS_THIN_EDGES out-edges run on
    #: BFS_THIN_BLOCKS blocks of 512 threads (fewer blocks cross each level's grid barrier
    #: sooner), larger ones on every multiprocessor (from half of it back to the thin launch)
    BFS_THIN_BLOCKS = 16
    BFS_THIN_EDGES = 1 << 15
    #: frontiers of at most BFS_TINY_EDGES out-edges run in one block of 512 threads, the queue
    #: in its shared memory and __syncthreads for the barrier (cuda/bfs.cu bfs_push_block), back
    #: to the thin launch above it, from half of it (or of the queue's entries) to the block; 0:
    #: never.  A search starts there on graphs of at most 4 edges a vertex (one lane a queue entry:
    #: grids, road networks).  BFS_BLOCK_ENTRIES: the shared queue's entries (None: 4096, or fewer
    #: where two queues do not fit the device's shared memory per block; the rest of it is L1).
    #: 2 K measured best (H100): one multiprocessor is slower than the thin launch on wider levels
    #: (grid 2000^2: 16.4 ms at 2 K, 18.0 at 4 K, 36 at 8 K, 17.0 without the block)
    BFS_TINY_EDGES = 1 << 11
    BFS_BLOCK_ENTRIES = None
    #: delta-stepping (one persistent launch, cuda/sssp.cu sssp_nearfar) on graphs of average
    #: out-degree below 8 (grids, road networks), where the rounds' count, not their work,
    #: costs: with SSSP_SPARSE_TARGET 0, buckets of SSSP_SPARSE_WIDTH deltas after the first
    #: (a 2000 x 2000 grid needs about half the rounds at 4 for 1.2 times the relaxations);
    #: else widths picked as on denser graphs, with that target.  SSSP_SPARSE_BLOCKS: blocks
    #: of 512 threads (None: two a multiprocessor; fewer cross a grid barrier sooner).
    SSSP_SPARSE_WIDTH = 4
    SSSP_SPARSE_TARGET = 0
    SSSP_SPARSE_BLOCKS = None
    #: on denser graphs each bucket's end is picked from a histogram of the far distances in
    #: bins of delta / SSSP_GRAIN: the bins that hold SSSP_TARGET edges to relax, at most
    #: SSSP_GROW times the last bucket's (fewer after a bucket that relaxed twice the target);
    #: on R-MAT's dense core a narrow bucket spares relaxing a vertex again, on its tail of
    #: leaves a wide one spares rounds.  SSSP_TARGET 0: buckets of one delta.
    SSSP_TARGET = 1 << 23
    SSSP_GRAIN = 8
    SSSP_GROW = 2
    #: rows longer than SSSP_BIG_ROW edges are cut into chunks of SSSP_CHUNK for the grid's
    #: warps (in the search and the parents' pass after it), so a hub does not hold a round up
    SSSP_BIG_ROW = 512
    SSSP_CHUNK = 256
    #: lanes that take a shorter row together (a power of two up to 32; None: the average out-degree's)
    SSSP_LANES = None
    #: the SCC kernel (cuda/scc.cu) contracts mutual-edge components and trims the graph of
    #: them (an edge pass with a binary search an edge) on graphs of at most this many
    #: entries or of average out-degree below SCC_CONTRACT_DEGREE (roads, meshes: one
    #: component each); -1: never
    SCC_CONTRACT_EDGES = 1 << 25
    SCC_CONTRACT_DEGREE = 8
    #: trim levels scc_labels runs before the quotient trim takes the long chains (a level a
    #: vertex); DAG-like graphs need up to ~200 (facebook's edge list: 174)
    SCC_TRIM_LEVELS = 256
    #: the SCC kernel's grid: about this many units (chunks of a vertex's edges) a group of
    #: lanes per sweep, at most one 1024-thread block a multiprocessor (small graphs: fewer
    #: blocks, cheaper grid barriers)
    SCC_UNITS_PER_GROUP = 4

    objects_on_host = False
    #: row-wise products (mxv, and vxm on a cached transpose; cuda/semiring.cu semiring_rows):
    #: a matrix of more than MXV_PLAN_MIN_NNZ entries has its rows sorted once into bins by
    #: length (a :class:`_RowPlan`, cached with the matrix), rows longer than MXV_LONG_ROW cut
    #: into pieces of MXV_PIECE entries, a warp each; a smaller one runs every row with one
    #: group size, from its mean row length
    MXV_PLAN_MIN_NNZ = 1 << 14
    MXV_LONG_ROW = 2048
    MXV_PIECE = 1024
    #: vxm pulls (rows of A's cached transpose, no atomics) when u holds at least this share of
    #: its entries, and pushes its entries' rows of A otherwise
    VXM_PULL_SHARE = 1 / 16
    #: tile of the blocked Floyd-Warshall kernels (cuda/apsp.cu): FW_TILE x FW_TILE entries
    FW_TILE = FW_TILE
    #: rounds between host reads of the negative-cycle flag (to stop early)
    FW_CHECK_ROUNDS = 64

    def __init__(self, *, index_dtype=None, dense_limit=1 << 26):
        if index_dtype not in (None, "int64", np.int64, _I64):
            raise InvalidArgumentError(f"index_dtype must be None or 'int64', got {index_dtype!r}")
        self._wide = index_dtype is not None
        self.dense_limit = int(dense_limit)
        dev = cp.cuda.Device()
        try:
            attributes = dev.attributes
        except Exception:  # pragma: no cover - attribute names differ across CuPy versions
            attributes = {}
        self._sms = int(attributes.get("MultiProcessorCount", 64))
        self._smem_optin = int(attributes.get("MaxSharedMemoryPerBlockOptin", 48 * 1024))
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
        want = tuple(shape) if shape is not None else GPUEngine._shape(out) if out is not None else None
        if mask is not None and want is not None and GPUEngine._shape(mask) != want:
            raise InvalidArgumentError(f"mask has shape {GPUEngine._shape(mask)}, the result {want}")

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

    def hint(self, x, storage):
        """As :meth:`Engine.hint`; a dense-stored matrix hinted ``"sparse"`` is stored as CSR from then on
        (its entries unchanged), so a long list of sparse results -- Brandes' levels on a grid, 4,000 of
        them -- takes memory by entries, not ``nrows * ncols`` each."""
        super().hint(x, storage)
        if storage == "sparse" and isinstance(x, GMat) and x.dense:
            keys, vals, _ = _sparsify(_flat(x))
            y = self._mat_from_keys(x.nrows, x.ncols, x.dtype, keys, vals, False)
            for slot in ("dense", "val", "pres", "indptr", "indices"):
                setattr(x, slot, getattr(y, slot))
            x._cache = {}
        return x

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
        return cp.asarray(self._host_indices(indices, size, what))

    @staticmethod
    def _host_indices(indices, size, what):
        """Host index array_like -> numpy int64, bounds-checked."""
        idx = np.asarray(indices)
        if idx.size == 0:
            idx = idx.astype(np.int64)
        if idx.dtype.kind not in "iu" and idx.size:
            raise InvalidArgumentError(f"{what} must be integers, got dtype {idx.dtype}")
        idx = idx.astype(np.int64, copy=False).ravel()
        if idx.size and (idx.min() < 0 or idx.max() >= size):
            bad = idx[(idx < 0) | (idx >= size)][0]
            raise InvalidArgumentError(f"{what} {bad} out of range 0..{size - 1}")
        return idx

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
        if not isinstance(indices, cp.ndarray) and not isinstance(values, cp.ndarray):
            idx = self._host_indices(indices, size, "index")
            if idx.size <= 1:     # one entry (a BFS source) or none: two fills and a store, no sort
                return self._vector_of_one(idx, values, size, dup, dtype)
            idx = cp.asarray(idx)
        else:
            idx = self._coo_input(indices, size, "index")
        vals, dtype, scalar = self._coo_values(values, idx.size, dup, dtype)
        keys, v = self._build(idx, vals, dup if (dup is not None or not scalar) else "first", dtype)
        _, val, pres = _densify((keys, v, None), size)
        return GVec(size, dtype, val, pres)

    @staticmethod
    def _vector_of_one(idx, values, size, dup, dtype):
        """vector_from_coo of at most one host index ``idx`` (numpy, checked) and host values."""
        if dup is not None:
            _check_op(dup, BINARY_OPS, "binary op")
        arr = np.asarray(values)
        dtype = np.dtype(dtype) if dtype is not None else arr.dtype
        if arr.ndim != 0 and arr.size != idx.size:
            raise InvalidArgumentError(f"got {arr.size} values for {idx.size} indices")
        val, pres = cp.zeros(size, dtype), cp.zeros(size, _BOOL)
        if idx.size:
            i = int(idx[0])
            val[i] = _scalar(arr, dtype) if arr.ndim == 0 else _cast(arr.ravel(), dtype)[0]
            pres[i] = True
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

    def _matrix_from_csr(self, indptr, indices, values, nrows, ncols, *, dtype):
        nrows, ncols, dtype = int(nrows), int(ncols), np.dtype(dtype)
        IT = self._itype(nrows, ncols, indices.size)
        if np.ndim(values) != 0:
            vals = _cast(cp.asarray(values), dtype)
        elif dtype == _BOOL and bool(values):
            vals = None                                  # the iso True of an unweighted graph
        else:
            vals = cp.full(indices.size, _scalar(values, dtype), dtype)
        # astype copies: the matrix owns arrays of its exact size, whatever it was given
        return GMat.csr(nrows, ncols, dtype, cp.asarray(indptr).astype(IT), cp.asarray(indices).astype(IT), vals)

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

    def to_numpy(self, x, fill=None, *, consume=False):
        return _to_host(self._dense_array(x, fill))

    def to_device(self, x, fill=None, *, consume=False):
        """Like :meth:`to_numpy`, but the result stays on the GPU (a CuPy array; no copy to the host)."""
        return self._dense_array(x, fill)

    def to_coo(self, x):
        coo = self.to_device_coo(x)
        _wait()                                  # Ctrl-C can interrupt the wait; a read cannot
        return tuple(cp.asnumpy(a) for a in coo)

    def to_device_coo(self, x):
        """Like :meth:`to_coo`, but the arrays stay on the GPU (CuPy arrays; no copy to the host)."""
        self._obj(x)
        keys, vals, _ = _sparsify(_flat(x))
        if isinstance(x, GVec):
            return keys, vals
        if keys.size == 0:
            e = cp.zeros(0, _I64)
            return e, e.copy(), vals
        rows = keys // x.ncols
        return rows, keys - rows * x.ncols, vals

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

    # ---------------------------------------------------------------- products
    def mxv(self, A, u, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        self._mat(A, "A")
        self._vec(u, "u")
        plan = _Plan(semiring, A.dtype, u.dtype)
        self._check_output_args(out, mask, accum, complement, (A.nrows,), GVec)
        if A.ncols != u.size:
            raise InvalidArgumentError(f"mxv: A has {A.ncols} columns but u has {u.size} entries")
        return self._rows(plan, A, "rows", self._csr(A), u, False, out, mask, accum, structural, complement,
                          replace)

    def _row_plan(self, A, key, csr):
        """The :class:`_RowPlan` of ``csr`` (A's CSR, or its transpose's: ``key``), cached with A;
        None for a matrix small enough to run without one."""
        if csr[1].size <= self.MXV_PLAN_MIN_NNZ:
            return None
        k = (key, int(self.MXV_LONG_ROW), int(self.MXV_PIECE))
        rp = A._cache.get(k)
        if rp is None:
            rp = A._cache[k] = _RowPlan(csr[0], k[1], k[2])
        return rp

    def _rows(self, plan, A, key, csr, u, swap, out, mask, accum, structural, complement, replace):
        """``w = A (+.*) u`` row by row on ``csr`` (semiring_rows), under the output rules.

        ``swap``: ``csr`` is A's transpose and u the multiply's first operand (``vxm(u, A)``).
        Without a mask, into a full ``out`` of the semiring's compute type, ``accum`` runs in the
        kernel (PageRank's ``r += A' plus.second w``): no result vector, no second pass.
        """
        indptr, indices, avals = csr
        m = indptr.size - 1
        C = plan.C
        need_mat, need_vec = (plan.need_b, plan.need_a) if swap else (plan.need_a, plan.need_b)
        fuse = (out is not None and accum is not None and mask is None and out.pres is None
                and out.dtype == C and plan.Z == C)
        allowed = _allowed(mask, structural, complement, m)
        if m == 0 or indices.size == 0:
            T = (None, cp.zeros(m, plan.Z), cp.zeros(m, _BOOL))
            return self._finish((m,), T, out, mask, accum, structural, complement, replace, allowed=allowed)
        rp = self._row_plan(A, key, csr)
        full = u.pres is None and allowed is None     # every nonempty row gets a product
        w = cp.empty(m, C)
        wp = None if fuse or (full and rp is not None) else cp.empty(m, _BOOL)
        abools = avals if (need_mat and avals is not None and avals.dtype == _BOOL) else None
        av = plan.operand(avals) if (need_mat and avals is not None and abools is None) else None
        uv = plan.operand(u.val) if need_vec else w      # w: any array of C; never read
        accop = np.int32(_OPCODES[accum] if fuse else 0)
        cval = out.val if fuse else _NULL
        flags = np.int32((1 if need_mat else 0) | (2 if need_vec else 0) | (4 if swap else 0))
        pieces = None
        if rp is None:
            gs = _next_pow2(indices.size / m)
            grid, tab, order, soff = -(-m * gs // 256), _NULL, _NULL, _NULL
        else:
            gs, grid, tab, order, soff = 0, rp.blocks, rp.tab, rp.order, rp.soff
            if rp.npieces:
                pieces = cp.empty(rp.npieces, C), cp.empty(rp.npieces, _BOOL)
        IT = indices.dtype
        M = _MONOID_CODES[plan.mon]
        _kernel("semiring.cu", "semiring_rows", M, C, IT)(
            (grid,), (256,),
            (indptr, indices, av if av is not None else _NULL, abools if abools is not None else _NULL, plan.iso(),
             uv, u.pres if u.pres is not None else _NULL, allowed if allowed is not None else _NULL,
             order, tab, soff, np.int64(rp.piece if rp is not None else 0), np.int64(m), np.int32(gs),
             cval, accop, w, wp if wp is not None else _NULL,
             pieces[0] if pieces else _NULL, pieces[1] if pieces else _NULL, np.int32(plan.opcode), flags))
        if pieces:
            _kernel("semiring.cu", "semiring_rows_long", M, C, IT)(
                (self._blocks(rp.nlong),), (256,),
                (order, tab, soff, pieces[0], pieces[1], cval, accop, w, wp if wp is not None else _NULL))
        if fuse:
            out.val = w
            return out
        pres = wp if wp is not None else (rp.present if rp is not None else None)
        if out is None:             # the kernel left out the rows the mask forbids: nothing more to do
            return GVec(m, plan.Z, _cast(w, plan.Z), pres)
        T = (None, _cast(w, plan.Z), pres)
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
        pull = "T" in A._cache              # a cached transpose: pull its rows when u is dense enough
        if pull and u.pres is None:
            return self._pull(plan, A, u, out, mask, accum, structural, complement, replace)
        ek = cp.flatnonzero(u.pres).astype(_I64, copy=False) if u.pres is not None else cp.arange(u.size, dtype=_I64)
        if pull and ek.size >= self.VXM_PULL_SHARE * u.size:
            return self._pull(plan, A, u, out, mask, accum, structural, complement, replace)
        allowed = _allowed(mask, structural, complement, n)
        ev = plan.operand(u.val[ek]) if plan.need_a else cp.zeros(ek.size, plan.C)
        w, wp = self._push(plan, ek, ev, None, None, A, n, allowed)
        T = (None, _cast(w, plan.Z), wp)
        return self._finish((n,), T, out, mask, accum, structural, complement, replace, allowed=allowed)

    def _pull(self, plan, A, u, out, mask, accum, structural, complement, replace):
        """``vxm(u, A)`` as the row-wise product of A's cached transpose (u the first operand); a
        symmetric A's transpose is A itself, and shares its row plan."""
        csr = self._csr_t(A)
        key = "rows" if (not A.dense and csr[0] is A.indptr and csr[1] is A.indices) else "rows_t"
        return self._rows(plan, A, key, csr, u, True, out, mask, accum, structural, complement, replace)

    def mxm(self, A, B, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        self._mat(A, "A")
        self._mat(B, "B")
        plan = _Plan(semiring, A.dtype, B.dtype)
        m, n = A.nrows, B.ncols
        self._check_output_args(out, mask, accum, complement, (m, n), GMat)
        if A.ncols != B.nrows:
            raise InvalidArgumentError(f"mxm: A has {A.ncols} columns but B has {B.nrows} rows")
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
        structural_op = not op.startswith("value")
        if structural_op and op in ("rowle", "rowgt") and thunk is None:
            raise InvalidArgumentError(f"select op {op!r} needs a thunk (a row index)")
        if not structural_op and thunk is None:
            raise InvalidArgumentError(f"select op {op!r} needs a thunk (the value to compare with)")
        compare = (lambda v: getattr(cp, _COMPARE[op[5:]])(v, cp.asarray(_scalar(thunk, x.dtype)))) \
            if not structural_op else None
        if isinstance(x, GMat) and not x.dense and out is None and mask is None and accum is None:
            # row by row, before _flat: no keys made
            return self._select_rows(x, op, 0 if thunk is None or compare else int(thunk),
                                     keep=compare(_mat_vals(x)) if compare else None)
        pos, val, pres = _flat(x)
        if not structural_op:
            keep = compare(val)
        else:
            idx = pos if pos is not None else cp.arange(val.size, dtype=_I64)
            ncols = 1 if isinstance(x, GVec) else max(x.ncols, 1)
            rows = idx // ncols
            if op in ("rowle", "rowgt"):
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

    _SELECT_ROWS = {"tril": 0, "triu": 1, "diag": 2, "offdiag": 3, "rowle": 4, "rowgt": 5}   # SEL_* of select.cu

    def _select_rows(self, x, op, k, keep=None):
        """A select of the CSR matrix ``x`` row by row (cuda/select.cu), into a new CSR matrix: structural
        by ``op`` and ``k``, or the entries where ``keep`` (a bool per entry: the value selects).

        Memory: the result and an int64 position per kept entry (and ``keep``); the generic path's
        key of every entry (kept in ``x``'s cache) and its row and diagonal arrays are never made."""
        n, IT = x.nrows, x.indices.dtype
        run = _kernel("select.cu", "select_rows", IT)
        grid, code = (self._blocks(32 * max(n, 1)),), np.int32(self._SELECT_ROWS.get(op, -1))
        kp = _NULL if keep is None else keep
        counts = cp.zeros(n + 1, _I64)
        run(grid, (256,), (x.indptr, x.indices, np.int64(n), code, np.int64(k), kp, counts, _NULL, _NULL, _NULL))
        offs = cp.cumsum(counts)                      # offs[r]: where row r's kept entries start
        kept = int(offs[-1])
        _reserve(kept * (x.indices.itemsize + 8 + (x.val.itemsize if x.val is not None else 0)),
                 f"select {op!r} of a {n:,}-row matrix")
        ind, pos = cp.empty(kept, IT), cp.empty(kept, _I64)
        if kept:
            run(grid, (256,), (x.indptr, x.indices, np.int64(n), code, np.int64(k), kp, counts, offs, ind, pos))
        val = None if x.val is None else x.val[pos]
        return GMat.csr(n, x.ncols, x.dtype, offs.astype(x.indptr.dtype), ind, val)

    # ---------------------------------------------------------------- reductions
    def reduce(self, x, monoid):
        self._obj(x, "x")
        _check_op(monoid, MONOIDS, "monoid")
        if isinstance(x, GMat) and not x.dense:
            vals = _mat_vals(x)             # a CSR matrix's values alone, not the key of every entry
        else:
            pos, val, pres = _flat(x)
            vals = val if (pos is not None or pres is None) else val[pres]
        mdt = monoid_type(monoid, x.dtype)
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
        mdt = monoid_type(monoid, A.dtype)
        if A.dense:
            keys, vals, _ = _sparsify(_flat(A))
            rows = keys // A.ncols
            off = _segments(rows)
            where = rows[off[:-1]]
        else:       # a CSR matrix's rows are its segments: no key of every entry (R-MAT 26 on one GPU)
            vals = _mat_vals(A)
            where = cp.flatnonzero(A.indptr[1:] != A.indptr[:-1])      # the rows with entries, in order
            off = cp.concatenate((A.indptr[where], A.indptr[-1:])).astype(_I64)   # empty rows between: no gap
        val = cp.zeros(m, mdt)
        pres = cp.zeros(m, _BOOL)
        if where.size:
            C = _compute_type(mdt)
            nseg = where.size
            r = cp.empty(nseg, C)
            _kernel("semiring.cu", "semiring_segfold", C)(
                (self._blocks(nseg),), (256,),
                (off, _cast(_cast(vals, mdt), C), r, np.int64(nseg), np.int32(_fold_code(monoid, mdt))))
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
            if not is_scalar(u, (np.ndarray, cp.ndarray)):
                raise InvalidArgumentError(f"assign: u must be a scalar or a gpu-engine object like w, got "
                                           f"{type(u).__module__}.{type(u).__name__}")
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
        mon = _orderless_monoid(dup, w.dtype)
        if mon is None:                                   # sorted, duplicates folded in order
            keys, v = self._build(idx, _cast(vals, w.dtype), dup, w.dtype)
            T = (keys, v, None)
        else:                                             # atomics: no sort
            C = _compute_type(w.dtype)
            acc = cp.full(w.size, _identity_c(mon, C), C)
            pres = cp.zeros(w.size, _BOOL)
            if idx.size:
                _kernel("semiring.cu", "semiring_scatter", _MONOID_CODES[mon], C)(
                    (self._blocks(idx.size),), (256,),
                    (idx, _cast(_cast(vals, w.dtype), C), np.int64(idx.size), acc, pres))
            T = (None, _cast(acc, w.dtype), pres)
        self._finish((w.size,), T, w, None, accum, False, False, False)
        return w

    # ---------------------------------------------------------------- timing, interop
    def synchronize(self):
        cp.cuda.Device().synchronize()

    def memory_watch(self):
        return memory_watch()

    graph_from_device = interop.graph_from_device
    graph_from_device_matrix = interop.graph_from_device_matrix


def _orderless_monoid(dup, dtype):
    """The kernel monoid whose atomics reduce duplicates as ``dup`` does in any order, or None.

    Exact whatever the order: min and max, and plus and times on integers (modular)
    and booleans (lor, land); floats keep the in-order fold (rounding, NaN).
    """
    dtype = np.dtype(dtype)
    if dtype == _BOOL:
        return _BOOL_MONOID.get(dup) if dup != "any" else None
    if dtype.kind == "i" or (dtype.kind == "u" and dtype.itemsize < 8):
        return dup if dup in ("min", "max", "plus", "times") else None
    return None


# every public method re-raises CUDA errors as la_graph errors
wrap_public(GPUEngine)
