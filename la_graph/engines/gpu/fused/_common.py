"""The algorithm steps the GPU engine runs as CUDA kernels (its ``fused_steps``).

Each function here takes exactly the arguments of the step of the same name
(written in primitives in its algorithm module, ``la_graph/algorithms/``) and
returns what that step returns; the kernels are in ``gpu/*.cu``.  A function
that cannot take its arguments raises :class:`~la_graph.engines.base.Declined`
before it changes anything, and the step's algebra runs instead (logged and
counted by the profiler).  Like the primitives, these re-raise CUDA errors as
la_graph errors, and they never write into an array a vector holds: kernels
that update in place work on private copies, which the vectors then take.
"""

from __future__ import annotations

import logging
import math
from types import MappingProxyType

import cupy as cp
import numpy as np

from ..._keys import weight_ranks
from ... import _random
from ...exceptions import InvalidArgumentError, LaGraphError, NumericRangeError
from ..base import Declined
from .kernels import _NULL, _kernel, _next_pow2
from .memory import _device_errors, _free_device_bytes, _reserve
from .ops import _cast
from .objects import _BOOL, _F64, _I32, _I64, GMat, GVec, _is_full, _mat_keys, _to_host

_FUSED = {}
log = logging.getLogger("la_graph")

#: step name -> its GPU implementation (``GPUEngine.fused_steps``)
FUSED = MappingProxyType(_FUSED)


def fuses(fn):
    """Declare ``fn`` the GPU implementation of the step of its name (CUDA errors become la_graph errors)."""
    _FUSED[fn.__name__] = wrapped = _device_errors(fn)
    return wrapped


def _row_lengths(E, A):
    d = A._cache.get("deg")
    if d is None:
        indptr = E._csr(A)[0]
        d = A._cache["deg"] = (indptr[1:] - indptr[:-1]).astype(_I64)
    return d


def _until_unchanged(E, fn, n, args):
    """Launch ``fn`` over ``n`` threads until it leaves its changed flag (``args[-1]``, an int32) 0."""
    changed = args[-1]
    while True:
        changed.fill(0)
        fn((E._blocks(n),), (256,), args)
        if not int(changed[0]):
            return


# ---------------------------------------------------------------- bfs (gpu/bfs.cu)
# state slots of bfs.cu (st[], int64): per-level rings, then the totals
_ST_ENT, _ST_CNT, _ST_EDG, _ST_PCNT = 0, 3, 6, 0
_ST_K, _ST_FOUND, _ST_SCANNED, _ST_FOUND_IN, _ST_STOP, _ST_BAR = 9, 10, 11, 12, 13, 14
_STOPPED, _WIDER, _THINNER = 1, 2, 3          # why a bfs_push_grid launch returned
_BLOCK, _THIN, _WIDE = 0, 1, 2                 # bfs_push's launch shapes, thinnest first
_BFS_BLOCK = 512                               # bfs_push_block's threads (its __launch_bounds__)
_BFS_BLOCK_ENTRIES = 4096                      # its shared queue's entries by default (two: 128 KiB of int32 entries)


def _bfs_vectors(step, q, parent, level):
    """Decline unless the kernels can take these vectors; returns the dtype of parents / levels."""
    vecs = [v for v in (parent, level) if v is not None]
    if not isinstance(q, GVec) or not vecs or any(not isinstance(v, GVec) for v in vecs):
        raise Declined(f"{step}'s kernels take gpu-engine vectors, with parent or level kept")
    if len({v.dtype for v in vecs}) != 1 or vecs[0].dtype not in (_I32, _I64):
        raise Declined(f"{step}'s kernels write parents and levels of one dtype, int32 or int64")
    return vecs[0].dtype


def _claimable(pres, n):
    """A private copy of a presence array (None: all present) in an allocation padded to 4 bytes:
    the BFS kernels claim a vertex with atomicOr on the 32-bit word that holds its byte."""
    buf = cp.zeros((n + 3) // 4 * 4, _BOOL)
    if pres is None:
        buf[:n] = True
    else:
        buf[:n] = pres
    return buf[:n]


def _bfs_copies(parent, level, n):
    """Private copies the kernels update in place: ``(pv, pp, lv, lp, visited, levp)``.

    The visited set is the parents' presence if kept, else the levels'; ``levp`` is the
    levels' presence when both are kept (the kernels set it beside the parents')."""
    pv = parent.val.copy() if parent is not None else None
    pp = _claimable(parent.pres, n) if parent is not None else None
    lv = level.val.copy() if level is not None else None
    lp = _claimable(level.pres, n) if level is not None else None
    vis = pp if parent is not None else lp
    levp = lp if (level is not None and parent is not None) else None
    return pv, pp, lv, lp, vis, levp


def _bfs_found(parent, level, q, pv, pp, lv, lp, pres):
    """Hand the kernels' arrays to the vectors; returns the new frontier of ``q``'s dtype on ``pres``.

    Its values are what the step's algebra gives: the parents (``any.secondi``), or 1 (``any.pair``)."""
    if parent is not None:
        parent.val, parent.pres = pv, pp
    if level is not None:
        level.val, level.pres = lv, lp
    if parent is not None:
        val = pv if pv.dtype == q.dtype else _cast(pv, q.dtype)   # read only where present
    else:
        val = pres if q.dtype == _BOOL else pres.astype(q.dtype)
    return GVec(q.size, q.dtype, val, pres)


def _bfs_state(E, G):
    key = E._graph_key("bfs_st")
    st = G._engine_cache.get(key)
    if st is None:
        st = G._engine_cache[key] = cp.zeros(16, _I64)
    return st


def _bfs_lanes(A):
    """Lanes per queue entry (a power of two; each lane takes 4 edges): the entries' edge limit is 4 x that."""
    return _next_pow2(A.indices.size / max(A.nrows, 1) / 4)


def _bfs_queues(E, G, A, IT, chunk):
    """The two queues of bfs_push (4 IT an entry), each as long as a frontier of every vertex can get."""
    key = E._graph_key("bfs_q")
    ws = G._engine_cache.get(key)
    if ws is None or ws[0] != (IT, chunk):
        G._engine_cache.pop(key, None)
        deg = _row_lengths(E, A)
        cap = max(1, int(cp.maximum((deg + (chunk - 1)) // chunk, 1).sum()))   # entries of every vertex
        _reserve(2 * cap * 4 * IT.itemsize, "the BFS frontier queues")
        ws = G._engine_cache[key] = ((IT, chunk), cp.empty(4 * cap, IT), cp.empty(4 * cap, IT), cap)
    return ws[1:]


def _bfs_block(E, IT, VT):
    """bfs_push_block<IT, VT>, the entries of its shared queue and its dynamic shared memory in bytes: two
    queues of ``E.BFS_BLOCK_ENTRIES`` entries (None: 4096), at most as many as fit the device's shared
    memory per block (the kernel's own few words and 1 KiB spare)."""
    fn = _kernel("bfs.cu", "bfs_push_block", IT, VT)
    entry = 4 * IT.itemsize
    fit = (E._smem_optin - 1024) // (2 * entry)
    want = _BFS_BLOCK_ENTRIES if E.BFS_BLOCK_ENTRIES is None else int(E.BFS_BLOCK_ENTRIES)
    scap = max(1, min(want, fit))
    smem = 2 * scap * entry
    if fn.max_dynamic_shared_size_bytes < smem:
        fn.max_dynamic_shared_size_bytes = smem
    return fn, scap, smem


@fuses
def bfs_push(E, G, q, parent, level, k, max_edges):
    VT = _bfs_vectors("bfs_push", q, parent, level)
    n = G.n
    A = E.matrix(G)
    indptr, indices = A.indptr, A.indices
    IT = indices.dtype
    lim = math.floor(max_edges) if max_edges <= 2**62 else 2**62   # edges > x iff edges > floor(x); NaN: no limit
    gs = _bfs_lanes(A)
    chunk = 4 * gs
    qa, qb, cap = _bfs_queues(E, G, A, IT, chunk)
    st = _bfs_state(E, G)
    pv, pp, lv, lp, vis, levp = _bfs_copies(parent, level, n)
    ptr = lambda a: a if a is not None else _NULL  # noqa: E731
    st.fill(0)
    _kernel("bfs.cu", "bfs_frontier", IT)(
        (E._blocks(n),), (256,), (ptr(q.pres), np.int64(n), indptr, qa, np.int64(chunk), st))
    indeg = E.degree(G, transpose=True).val if G.directed else None
    run = _kernel("bfs.cu", "bfs_push_grid", IT, VT)
    tiny, thin = max(0, int(E.BFS_TINY_EDGES)), int(E.BFS_THIN_EDGES)
    # three launch shapes, each returning where its band of frontier out-edges ends: one block
    # (the tiniest levels: shared-memory queue, no grid barrier), a few blocks (thin levels: a
    # cheaper barrier), every multiprocessor (one block each: all resident).  A search starts in the block
    # on graphs of one lane an entry (grids, road networks), else in the few blocks, whose first launch
    # does not hand its first levels down to the block (a source's first levels widen fast there)
    shape = _BLOCK if tiny and gs == 1 else _THIN
    bar, stalled, done = 0, shape == _THIN, 0
    if tiny:
        block, scap, smem = _bfs_block(E, IT, VT)
        down = min(tiny, scap) // 2            # handed down below: an undirected graph's entries <= its edges
    while True:
        if shape == _BLOCK:
            block((1,), (_BFS_BLOCK,),
               (indptr, indices, ptr(indeg), qa, qb, st, vis, ptr(pv), ptr(lv), ptr(levp), np.int64(k),
                np.int64(lim), np.int64(tiny), np.int32(gs), np.int64(scap)), shared_mem=smem)
        else:
            wide = shape == _WIDE
            blocks = E._sms if wide else max(1, min(int(E.BFS_THIN_BLOCKS), E._sms))
            lo, hi = (thin // 2, 2**62) if wide else (down if tiny and not stalled else -1, thin)
            run((blocks,), (512,),
                (indptr, indices, ptr(indeg), qa, qb, np.int64(cap), st, vis, ptr(pv), ptr(lv), ptr(levp),
                 np.int64(k), np.int64(lim), np.int64(lo), np.int64(hi), np.int32(wide), np.int32(gs),
                 np.uint64(bar)))
        s = cp.asnumpy(st)
        if s[_ST_STOP] == _STOPPED:
            break
        # the block stopped at a frontier its queue cannot hold (or took no level): the thin launch keeps it
        stalled = shape == _BLOCK and (s[_ST_K] == done or s[_ST_ENT + s[_ST_K] % 3] > scap)
        done = s[_ST_K]
        shape = shape + 1 if s[_ST_STOP] == _WIDER else shape - 1
        bar = int(s[_ST_BAR])
    P = int(s[_ST_K])
    if P == 0:      # no level: the frontier is empty or over the limit; nothing changed
        return q, k, int(s[_ST_CNT]), 0, 0, 0
    nent, nq = int(s[_ST_ENT + P % 3]), int(s[_ST_CNT + P % 3])
    pres = cp.zeros(n, _BOOL)
    if nent:
        last = qa if P % 2 == 0 else qb
        _kernel("bfs.cu", "bfs_mark", IT)((E._blocks(nent),), (256,), (last, np.int64(nent), pres))
    out = _bfs_found(parent, level, q, pv, pp, lv, lp, pres)
    return out, k + P, nq, int(s[_ST_FOUND]), int(s[_ST_SCANNED]), int(s[_ST_FOUND_IN])


@fuses
def bfs_pull(E, G, q, parent, level, k, min_frontier=-1):
    VT = _bfs_vectors("bfs_pull", q, parent, level)
    n = G.n
    AT = E.matrix(G, transpose=True)
    tptr, tind = AT.indptr, AT.indices
    IT = tind.dtype
    mf = min(math.floor(min_frontier), 2**62) if min_frontier >= 0 else -1   # m <= x iff m <= floor(x); NaN: never
    st = _bfs_state(E, G)
    pv, pp, lv, lp, vis, levp = _bfs_copies(parent, level, n)
    ptr = lambda a: a if a is not None else _NULL  # noqa: E731
    st.fill(0)
    st[_ST_PCNT] = n if q.pres is None else cp.count_nonzero(q.pres)    # the frontier before: no wait
    run = _kernel("bfs.cu", "bfs_pull_level", IT, VT)
    grid = (E._blocks(n),)
    cur, first, batch = q.pres, 0, 4       # a pull stretch is mostly 2-4 levels
    while True:
        # a batch of levels, then one read of the state; levels past the stopping rule return at once
        outs = [cur]                   # outs[i]: the frontier of level index first + i
        for P in range(first, first + batch):
            nxt = cp.empty(n, _BOOL)
            run(grid, (256,), (tptr, tind, ptr(cur), nxt, np.int64(n), st, vis, ptr(pv), ptr(lv), ptr(levp),
                               np.int64(P), np.int64(k + P), np.int64(mf)))
            outs.append(nxt)
            cur = nxt
        s = cp.asnumpy(st)
        if s[_ST_STOP]:
            break
        first, batch = first + batch, min(2 * batch, 64)
    done = int(s[_ST_K])                # levels done (at least one); the last is level k + done - 1
    out = _bfs_found(parent, level, q, pv, pp, lv, lp, outs[done - first])
    return out, k + done - 1, int(s[_ST_PCNT + done % 4]), int(s[_ST_FOUND]), int(s[_ST_FOUND_IN])


# ---------------------------------------------------------------- connected components (gpu/fastsv.cu)
@fuses
def fastsv_round(E, A, f, gp, mngp):
    vecs = (f, gp, mngp)
    if not isinstance(A, GMat) or any(not isinstance(v, GVec) for v in vecs):
        raise Declined("fastsv_round's kernels take a gpu-engine matrix and vectors")
    if len({v.dtype for v in vecs}) != 1 or f.dtype not in (_I32, _I64):
        raise Declined("fastsv_round's kernels take f, gp and mngp of one dtype, int32 or int64")
    if not all(_is_full(v) for v in vecs):
        raise Declined("fastsv_round's kernels need full vectors")
    n = f.size
    if A.nrows != n or A.ncols != n or gp.size != n or mngp.size != n:
        raise InvalidArgumentError("fastsv_round: A must be n x n and f, gp, mngp of length n")
    if n == 0:
        return f, gp, False
    indptr, indices, _ = E._csr(A)
    IT, VT = indices.dtype, f.dtype
    gs = _next_pow2(indices.size / n)
    mngp_new = cp.empty(n, VT)
    _kernel("fastsv.cu", "fastsv_mngp", IT, VT)(
        (E._blocks(n * gs),), (256,), (indptr, indices, gp.val, mngp.val, mngp_new, np.int64(n), np.int32(gs)))
    fn = f.val.copy()
    _kernel("fastsv.cu", "fastsv_hook", VT)(
        (E._blocks(n),), (256,), (f.val, gp.val, mngp_new, fn, np.int64(n)))
    gp_new = cp.empty(n, VT)
    changed = cp.zeros(1, np.int32)
    _kernel("fastsv.cu", "fastsv_gp", VT)((E._blocks(n),), (256,), (fn, gp.val, gp_new, np.int64(n), changed))
    f.val, f.pres = fn, None
    gp.val, gp.pres = gp_new, None
    mngp.val, mngp.pres = mngp_new, None
    return f, gp, bool(int(changed[0]))


# ---------------------------------------------------------------- connected components (gpu/cc.cu)
_CC_ROUNDS = 2          # Afforest's sampled neighbours per vertex
_CC_CHUNK = 4096        # rows with more edges left are linked in pieces of this many, a block each


@fuses
def component_labels(E, G):
    """Afforest's sampled union-find (gpu/cc.cu), one launch sequence with no host round trip."""
    if G.directed:
        raise Declined("component_labels' union-find needs the symmetric CSR of an undirected graph")
    n = G.n
    indptr, indices, _ = E._csr(E.matrix(G))
    IT, VT = indices.dtype, E._itype(n)
    nn = np.int64(n)
    cap = 2 * (int(indices.size) // _CC_CHUNK) + 2       # queue pieces: fewer than 2 * edges / chunk
    _reserve(n * (VT.itemsize + 8) + 16 * cap + 16, f"the union-find of {n:,} vertices")
    f = cp.arange(n, dtype=VT)
    out = f if VT == _I64 else cp.empty(n, _I64)
    if n == 0:
        return GVec(0, _I64, out, None)
    grid, block = (E._blocks(n),), (256,)
    compress = _kernel("cc.cu", "cc_compress", VT)
    sample = _kernel("cc.cu", "cc_sample", IT, VT)
    for r in range(_CC_ROUNDS):
        sample(grid, block, (indptr, indices, f, nn, np.int32(r)))
        compress(grid, block, (f, _NULL, nn))
    state = cp.empty(2, _I64)                            # chunks queued, giant root
    queue = cp.empty(2 * cap, _I64)
    _kernel("cc.cu", "cc_giant", VT)((1,), (1024,), (f, nn, state))
    chunk = np.int64(_CC_CHUNK)
    _kernel("cc.cu", "cc_link_rest", IT, VT)(
        grid, block, (indptr, indices, f, nn, np.int32(_CC_ROUNDS), state, queue, chunk))
    _kernel("cc.cu", "cc_link_chunks", IT, VT)((4 * E._sms,), block, (indptr, indices, f, state, queue, chunk))
    compress(grid, block, (f, out if out is not f else _NULL, nn))
    return GVec(n, _I64, out, None)


# ---------------------------------------------------------------- apsp (gpu/floyd_warshall.cu)
#: Floyd-Warshall runs on int32 distances when every weight is an integer and ``N - 1`` of
#: the largest magnitude (``N``: n rounded up to the tile) sum to at most this: then no
#: entry reaches floyd_warshall.cu's "no path" cut (2^29) nor overflows, and the float64
#: distances it gives are exactly the algebra's
FW_INT32_LIMIT = 1 << 28
_FW_INF = {_I32: (1 << 30) - 1, _F64: np.inf}          # "no path" of each distance type
_FW_THREADS = 256


def _fw_dtype(E, G, N):
    """int32 where Floyd-Warshall's distances fit it exactly (:data:`FW_INT32_LIMIT`), else float64."""
    if G.weighted and G.nnz:
        wr = G.weight_range()
        wmax = max(-wr.min, wr.max)
        key = E._graph_key("integer_weights")
        whole = G._engine_cache.get(key)
        if whole is None:
            w = E.matrix(G).val
            whole = G._engine_cache[key] = bool(cp.all(w == cp.trunc(w)))
        if not whole:
            return _F64
    else:
        wmax = 1.0 if G.nnz else 0.0
    return _I32 if (N - 1) * wmax <= FW_INT32_LIMIT else _F64


@fuses
def floyd_warshall(E, G):
    n, T = G.n, E.FW_TILE
    N = -(-n // T) * T                                   # padded: rows and columns past n hold "no path"
    nb = N // T
    DT = _fw_dtype(E, G, N)
    export = DT != _F64 or N != n                        # the answer is a float64 n x n copy
    _reserve(DT.itemsize * N * N + (8 * n * n if export else 0) + 24 * G.nnz + 64,
             f"Floyd-Warshall's {n:,} x {n:,} float64 distance matrix"
             + (f" (computed in a {N:,} x {N:,} {DT.name} matrix)" if export else ""))
    A = E.matrix(G)
    W = cp.full(N * N, _FW_INF[DT], dtype=DT)
    keys = _mat_keys(A)                                  # row * n + col of every edge
    if keys.size:
        if N != n:
            keys = keys + keys // n * (N - n)
        W[keys] = A.val.astype(DT, copy=False) if A.val is not None else 1   # a Graph holds no duplicate edges
    diag = cp.arange(n, dtype=_I64) * (N + 1)
    W[diag] = cp.minimum(W[diag], 0)
    neg = cp.full(1, -1, dtype=_I64)                     # the vertex of a negative cycle found, or -1
    primary = _kernel("floyd_warshall.cu", "fw_primary", DT, T)
    panels = _kernel("floyd_warshall.cu", "fw_panels", DT, T)
    NN = np.int64(N)
    for K in range(nb):
        k = np.int32(K)
        primary((1,), (_FW_THREADS,), (W, NN, k, neg))
        if nb > 1:
            panels((nb - 1, 2), (_FW_THREADS,), (W, NN, k, np.int32(1), neg))
            panels((nb - 1, nb - 1), (_FW_THREADS,), (W, NN, k, np.int32(0), neg))
        if K % E.FW_CHECK_ROUNDS == E.FW_CHECK_ROUNDS - 1 and int(neg[0]) >= 0:
            break
    v = int(neg[0])
    if export:
        D = cp.empty(n * n, dtype=_F64)
        if n:
            grid = (min(-(-n // _FW_THREADS), 16), min(n, 65535))
            _kernel("floyd_warshall.cu", "fw_export", DT)(grid, (_FW_THREADS,), (W, NN, D, np.int64(n)))
        del W
    else:
        D = W
    return GMat.dense_of(n, n, _F64, D, None), v


# ---------------------------------------------------------------- msf (gpu/msf.cu)
#: Kruskal's filter: about this many light edges per vertex are packed and used up first
#: (on graphs with more than twice as many edges); the rest stay in the CSR until then
MSF_LIGHT_PER_VERTEX = 2
#: CSR entries a warp takes at a time in the sweeps of the CSR (msf_pack, msf_heavy)
MSF_CHUNK = 1024
#: jumps a vertex makes in one launch of msf_jump before the host looks again
MSF_JUMP_STEPS = 32
#: room made for the light edges: this factor times the sampled estimate, plus this many
#: (more light edges than that: packed again, with room for all)
MSF_ROOM = (1.3, 65536)
_MSF_SAMPLE = 4096                       # CSR entries sampled to place the cut
_MSF_RESIDENT = 4                        # blocks of 256 a multiprocessor holds of the kernels that stage edges
_INT64_MAX = np.iinfo(np.int64).max


def _msf_keys(E, G, indptr, indices, w):
    """``(table, offset, cut, share)`` of the MSF keys of ``G``.

    ``table, offset``: the weights' ranks (:func:`la_graph._keys.weight_ranks`
    on the device).  Kruskal's filter: an edge is light when its key is below
    ``cut`` (the int64 maximum: every edge), about ``MSF_LIGHT_PER_VERTEX * n``
    of them, placed from a sample of the edges' keys; ``share`` is the sampled
    share of the edges that are light.  Cached on ``G`` where no table is
    needed (integer weights, or none): four numbers.
    """
    ck = E._graph_key(("msf_keys", MSF_LIGHT_PER_VERTEX))
    got = G._engine_cache.get(ck)
    if got is not None:
        return got
    n, nnz = G.n, G.nnz
    table, offset = weight_ranks(w, nnz, cp)
    cut, share = _INT64_MAX, 1.0
    half = nnz // 2                      # edges, about: the CSR of an undirected graph holds each twice
    if half > 2 * MSF_LIGHT_PER_VERTEX * n:
        p = cp.asarray(np.random.default_rng(0).integers(0, nnz, _MSF_SAMPLE).astype(indptr.dtype))
        p = p[indices[p] > cp.searchsorted(indptr, p, side="right") - 1]    # an edge's own entry: row < column
        if table is not None:
            rank = table[p]
        elif w is not None:
            rank = w[p].astype(_I64) - offset
        else:
            rank = cp.zeros(p.size, _I64)
        keys = cp.asnumpy(rank * np.int64(nnz) + p)
        if keys.size:
            cut = int(np.quantile(keys, MSF_LIGHT_PER_VERTEX * n / half, method="higher")) + 1
            share = float(np.count_nonzero(keys < cut)) / keys.size
    got = (table, offset, cut, share)
    if table is None:
        G._engine_cache[ck] = got
    return got


class _MSFEdges:
    """The gpu engine's MSF edge set: what ``msf_edges`` makes and ``msf_round`` reads and updates.

    The edges still in play are ``bufs[0]`` (``eu``, ``ev``, ``key``: CuPy
    arrays, the first ``m`` entries), their ends relabelled to tree roots as
    rounds go; a round writes the survivors to ``bufs[1]`` (compaction) and
    the two swap.  Kruskal's filter (as ECL-MST and Filter-Kruskal): only the
    light edges (``key < cut``) are packed; the heavy ones stay in the CSR
    until the light ones join no more trees, when one sweep of the CSR takes
    those still between two trees (``heavy`` says that is to come).  ``cheap``
    (all int64 maximum between rounds), ``partner`` and the counters ``st``
    are kept for every round.
    """

    def __init__(self, E, G):
        A = E.matrix(G)
        self.E, self.n, self.nnz = E, G.n, G.nnz
        self.indptr, self.indices = A.indptr, A.indices
        self.w = A.val if G.weights is not None else None
        self.table, self.offset, self.cut, share = _msf_keys(E, G, self.indptr, self.indices, self.w)
        self.heavy = self.cut != _INT64_MAX
        self.cheap = self.partner = None
        self.st = cp.zeros(4, cp.uint64)     # [0] edges written, [1] roots hooked, [2] a vertex short of its root
        self.bufs = [None, None]
        half = self.nnz // 2                 # edges at most (self-loops are no edges)
        cap = half if not self.heavy else min(half, int(MSF_ROOM[0] * share * half) + MSF_ROOM[1])
        _reserve(2 * cap * (2 * self.indices.itemsize + 8) + 64, f"the keys of {cap:,} spanning-forest edges")
        self.m = self._pack(cap)
        if self.m > cap:                     # the sample guessed too few: again, with room for all
            log.debug("msf_edges: %d light edges, room for %d: packing again", self.m, cap)
            self.bufs[0] = None
            self.m = self._pack(self.m)
        self.bufs[1] = self._buffer(self.m)  # the rounds compact into the other buffer

    def _buffer(self, size):
        IT = self.indices.dtype
        return cp.empty(size, IT), cp.empty(size, IT), cp.empty(size, _I64)

    def _grid(self, nthreads):
        """Blocks for a kernel that stages edges (gpu/msf.cu): one wave of resident blocks at most."""
        return (min(self.E._blocks(nthreads), _MSF_RESIDENT * self.E._sms),)

    def _sweep(self):
        """The launch grid and first arguments of the kernels that sweep the CSR."""
        grid = self._grid(-(-self.nnz // MSF_CHUNK) * 32)
        return grid, (self.indptr, self.indices, _NULL if self.w is None else self.w,
                      _NULL if self.table is None else self.table, np.int64(self.offset), np.int64(self.n),
                      np.int64(self.cut), np.int32(MSF_CHUNK))

    def _pack(self, cap):
        """Pack the light edges into a new ``bufs[0]`` of ``cap`` edges; returns how many there are."""
        eu, ev, key = self.bufs[0] = self._buffer(cap)
        count = self.st[:1]
        count.fill(0)
        if self.nnz:
            grid, args = self._sweep()
            _kernel("msf.cu", "msf_pack", self.indices.dtype)(grid, (256,), args + (eu, ev, key, np.int64(cap), count))
        return int(count[0])

    def round(self, f, forest):
        """One round (the step ``msf_round``) on gpu-engine vectors ``f`` and ``forest``; returns ``hooked``."""
        n = f.size
        if n == 0 or (self.m == 0 and not self.heavy):
            return 0
        if self.cheap is None:
            self.cheap = cp.full(n, _INT64_MAX, _I64)
        if self.partner is None or self.partner.dtype != f.dtype:
            self.partner = cp.empty(n, f.dtype)
        fv, fo = f.val.copy(), forest.val.astype(_I64, copy=True)   # the engine never writes into a vector's array
        hooked = self._packed(fv, fo) if self.m else 0
        if hooked == 0 and self.heavy:       # no light edge joins two trees: now the heavy ones
            self.heavy = False
            hooked = self._heavy(fv, fo)
        f.val, f.pres = fv, None
        forest.val, forest.pres = fo.astype(forest.dtype, copy=False), None
        return hooked

    def _packed(self, fv, fo):
        """A round over the packed edges (the light ones, or after the sweep the heavy ones left)."""
        (eu, ev, key), (ou, ov, ok) = self.bufs
        IT, VT = eu.dtype, fv.dtype
        self.st.fill(0)
        _kernel("msf.cu", "msf_cheapest", IT, VT)(
            self._grid(self.m), (256,),
            (eu, ev, key, np.int64(self.m), fv, self.cheap, ou, ov, ok, np.int64(ou.size), self.st))
        _kernel("msf.cu", "msf_partner", IT, VT)(
            (self.E._blocks(self.m),), (256,), (ou, ov, ok, self.st, self.cheap, self.partner))
        self.bufs.reverse()
        return self._hook(fv, fo)

    def _heavy(self, fv, fo):
        """A round over the heavy edges between two trees, swept from the CSR and packed."""
        IT, VT = self.indices.dtype, fv.dtype
        grid, args = self._sweep()
        self.bufs.sort(key=lambda b: -b[0].size)      # the larger buffer takes them: usually room enough
        heavy = _kernel("msf.cu", "msf_heavy", IT, VT)
        eu, ev, key = self.bufs[0]
        self.st.fill(0)
        heavy(grid, (256,), args + (fv, self.cheap, eu, ev, key, np.int64(eu.size), self.st))
        h = int(self.st[0])
        if h > eu.size:                                # again with room for all (cheap: the same minima again)
            log.debug("msf_round: %d heavy edges between two trees, room for %d: sweeping again", h, eu.size)
            self.bufs = [None, None]
            _reserve(2 * h * (2 * IT.itemsize + 8) + 64, f"the {h:,} heavy spanning-forest edges between two trees")
            self.bufs = [self._buffer(h), self._buffer(h)]
            eu, ev, key = self.bufs[0]
            self.st.fill(0)
            heavy(grid, (256,), args + (fv, self.cheap, eu, ev, key, np.int64(eu.size), self.st))
        elif self.bufs[1][0].size < h:                 # the next round compacts into the other buffer
            self.bufs[1] = None
            _reserve(h * (2 * IT.itemsize + 8) + 64, f"the {h:,} heavy spanning-forest edges between two trees")
            self.bufs[1] = self._buffer(h)
        if h == 0:                                     # no edge joins two trees
            self.m = 0
            return 0
        _kernel("msf.cu", "msf_partner", IT, VT)(
            (self.E._blocks(h),), (256,), (eu, ev, key, self.st, self.cheap, self.partner))
        return self._hook(fv, fo)

    def _hook(self, fv, fo):
        """Hook the roots, jump to the roots; ``m`` becomes the count of edges written; returns the hooks."""
        n, VT, st = self.n, fv.dtype, self.st
        grid = (self.E._blocks(n),)
        _kernel("msf.cu", "msf_hook", VT)(grid, (256,), (fv, self.cheap, self.partner, fo, np.int64(n), st[1:]))
        jump = _kernel("msf.cu", "msf_jump", VT)
        while True:
            jump(grid, (256,), (fv, self.cheap, np.int64(n), np.int32(MSF_JUMP_STEPS), st[2:]))
            s = cp.asnumpy(st)               # the round's one wait, unless a vertex is left short
            if not s[2]:
                self.m = int(s[0])
                return int(s[1])
            st[2] = 0


@fuses
def msf_edges(E, G):
    # the algebra's keys, ranked and keyed on the device from the uploaded CSR; the light ones packed
    if G.weights is not None and G.weights.dtype != _F64:
        raise Declined("msf_edges' kernels take float64 weights")
    return _MSFEdges(E, G)


@fuses
def msf_round(E, f, edges, forest):
    if not isinstance(edges, _MSFEdges):
        raise Declined("msf_round's kernels take the edge set of the gpu engine's msf_edges")
    if not (isinstance(f, GVec) and isinstance(forest, GVec) and f.dtype in (_I32, _I64)
            and forest.dtype.kind == "i" and _is_full(f) and _is_full(forest) and f.size == forest.size == edges.n):
        # no Declined: the algebra cannot read this engine's edge set either
        raise InvalidArgumentError("msf_round needs full gpu-engine int vectors f and forest of the graph's size")
    return edges, edges.round(f, forest)


@fuses
def msf_forest(E, G, forest):
    # the forest's CSR positions compacted and sorted on the device, their rows found by binary search
    if not (isinstance(forest, GVec) and forest.dtype.kind == "i"):
        raise Declined("msf_forest takes the forest's keys as an int gpu-engine vector")
    A = E.matrix(G)
    n, nnz = forest.size, G.nnz
    keys = forest.val.astype(_I64, copy=False)
    if forest.pres is not None:
        keys = cp.where(forest.pres, keys, -1)
    IT = A.indices.dtype
    pos = cp.empty(n, IT)
    count = cp.zeros(1, cp.uint64)
    if n:
        _kernel("msf.cu", "msf_forest_positions", IT)(
            (E._blocks(-(-n // 8)),), (256,), (keys, np.int64(n), np.int64(max(nnz, 1)), pos, count))
    k = int(count[0])
    pos = cp.sort(pos[:k])
    u, v, w = cp.empty(k, _I64), cp.empty(k, _I64), cp.empty(k, _F64)
    if k:
        _kernel("msf.cu", "msf_forest_edges", IT)(
            (E._blocks(k),), (256,),
            (A.indptr, A.indices, A.val if G.weighted else _NULL, pos, np.int64(k), np.int64(G.n), u, v, w))
    return GVec(k, _I64, u), GVec(k, _I64, v), GVec(k, _F64, w)


@fuses
def msf_labels(E, f):
    # smallest[f[v]] min= v (one atomicMin per root a warp), then labels[v] = smallest[f[v]]
    if not (isinstance(f, GVec) and f.dtype in (_I32, _I64) and _is_full(f)):
        raise Declined("msf_labels' kernels take a full int32 or int64 gpu-engine vector")
    n = f.size
    smallest = cp.full(n, n, f.dtype)
    labels = cp.empty(n, _I64)
    if n:
        grid = (E._blocks(n),)
        _kernel("msf.cu", "msf_smallest", f.dtype)(grid, (256,), (f.val, smallest, np.int64(n)))
        _kernel("msf.cu", "msf_label", f.dtype)(grid, (256,), (f.val, smallest, labels, np.int64(n)))
    return GVec(n, _I64, labels)


# ---------------------------------------------------------------- mis (gpu/mis.cu)
@fuses
def vertex_priorities(E, n, seed):
    # the algebra's hash (la_graph._random.mix63 of id ^ key), one kernel on the device
    prio = cp.empty(n, _I64)
    _kernel("mis.cu", "mis_priorities", _I64)(
        (E._blocks(n),), (256,),
        (prio, np.int64(n), np.uint64(_random.priority_key(seed)), _random._GOLDEN, _random._M1, _random._M2))
    return GVec(n, _I64, prio)


@fuses
def luby(E, A, prio):
    # the greedy set of the priorities, vertices deciding in any order (gpu/mis.cu): one
    # launch per pass over a shrinking worklist of the undecided, one host read per pass;
    # an isolated vertex has nobody to wait for and joins in the first pass
    if not (isinstance(A, GMat) and isinstance(prio, GVec) and prio.dtype == _I64 and _is_full(prio)
            and A.nrows == A.ncols == prio.size):
        raise Declined("luby's kernel takes a square matrix and a full int64 priority vector of its size")
    n = prio.size
    indptr, indices, _ = E._csr(A)
    _reserve(17 * n + 64, "the maximal independent set's worklists")
    state = cp.zeros(n, cp.uint8)                  # 0 undecided, 1 member, 2 out
    gs = _next_pow2(indices.size / max(n, 1))
    work, spare = cp.empty(n, _I64), cp.empty(n, _I64)
    count = cp.zeros(1, cp.uint64)
    IT, todo, nwork, passes = indices.dtype, _NULL, n, 0
    while nwork:
        count.fill(0)
        _kernel("mis.cu", "mis_decide", IT)(
            (E._blocks(nwork * gs),), (256,),
            (indptr, indices, prio.val, state, todo, np.int64(nwork), spare, count, np.int32(gs)))
        nwork, passes = int(count[0]), passes + 1
        work, spare = spare, work
        todo = work
    log.debug("luby: %d passes", passes)
    return GVec(n, _BOOL, state == 1)


# ---------------------------------------------------------------- multi-source bfs (gpu/msbfs.cu)
_MS_BLOCK, _MS_LANES = 512, 64    # msbfs_grid's threads a block (MS_BLOCK); sources a launch (bits of a word)


def _msbfs(E, G, srcs, level, parent):
    """Search from ``srcs`` (numpy int64, at most 64) in one launch of msbfs_grid; returns the visited words.

    ``level`` and ``parent`` (CuPy int64 ``len(srcs) x n`` row blocks, or None)
    get the levels and parents of the vertices found; their source entries are
    the caller's.  Word ``vis[v]`` has bit ``i`` set where ``srcs[i]`` reaches ``v``.
    """
    indptr, indices, _ = E._csr(E.matrix(G))
    n = G.n
    firsts, which = np.unique(srcs, return_inverse=True)
    words = np.zeros(firsts.size, np.uint64)
    np.bitwise_or.at(words, which, np.left_shift(np.uint64(1), np.arange(srcs.size, dtype=np.uint64)))
    vis, fr0, fr1 = cp.zeros(n, cp.uint64), cp.zeros(n, cp.uint64), cp.zeros(n, cp.uint64)
    qa, qb = cp.empty(n, _I64), cp.empty(n, _I64)
    at, w0 = cp.asarray(firsts), cp.asarray(words)
    vis[at] = w0
    fr0[at] = w0
    qa[:firsts.size] = at
    st = cp.zeros(5, cp.uint64)
    st[0] = firsts.size
    _kernel("msbfs.cu", "msbfs_grid", indices.dtype)(
        (2 * E._sms,), (_MS_BLOCK,),   # two blocks a multiprocessor, all resident: grid barriers
        (indptr, indices, np.int64(n), vis, fr0, fr1, qa, qb, st,
         level if level is not None else _NULL, parent if parent is not None else _NULL))
    return vis


@fuses
def reach_sweep(E, G, sources):
    # 64 sources a launch, a bit lane each, every level in the launch (gpu/msbfs.cu)
    k, n = sources.size, G.n
    _reserve(40 * n + k * n, "the multi-source search's words and queues and its reach matrix")
    out = cp.empty((k, n), _BOOL)
    unpack = _kernel("msbfs.cu", "msbfs_unpack", E._csr(E.matrix(G))[1].dtype)
    for lo in range(0, k, _MS_LANES):
        part = out[lo:lo + _MS_LANES]
        vis = _msbfs(E, G, sources[lo:lo + _MS_LANES], None, None)
        unpack((E._blocks(part.size),), (256,), (vis, np.int64(n), np.int32(part.shape[0]), part))
    return _to_host(out)


@fuses
def bfs_multi(E, G, sources, level, parent):
    # as reach_sweep, levels and parents written by the thread that finds them
    k, n = sources.size, G.n
    _reserve(40 * n + 8 * k * n * (int(level) + int(parent)), "the multi-source search's words, queues and results")
    rows = cp.arange(k, dtype=_I64)
    at = cp.asarray(sources)
    L = P = None
    if level:
        L = cp.full((k, n), -1, _I64)
        L[rows, at] = 0
    if parent:
        P = cp.full((k, n), -1, _I64)
        P[rows, at] = at
    for lo in range(0, k, _MS_LANES):
        _msbfs(E, G, sources[lo:lo + _MS_LANES], *(None if X is None else X[lo:lo + _MS_LANES] for X in (L, P)))
    return tuple(None if X is None else GMat.dense_of(k, n, _I64, X.ravel(), X.ravel() >= 0) for X in (L, P))


#: bfs_search runs as one launch of msbfs_grid (one bit lane) on graphs of at most this many stored
#: edges; on larger ones it declines, and the algebra's direction-optimizing stretches (the fused
#: bfs_push and bfs_pull) run: their launches and host reads cost about a millisecond a search,
#: which only a large graph repays
BFS_SEARCH_MS_EDGES = 1 << 22


@fuses
def bfs_search(E, G, s, level, parent, direction, output, rule):
    # the whole search top-down in one launch (the push levels of the algebra, all of them)
    if direction == "pull":
        raise Declined("bfs_search's kernel pushes only; direction='pull' runs the algebra")
    if G.nnz > BFS_SEARCH_MS_EDGES:
        raise Declined(f"bfs_search's one-launch kernel takes graphs of at most BFS_SEARCH_MS_EDGES = "
                       f"{BFS_SEARCH_MS_EDGES:,} edges, this one has {G.nnz:,}")
    n = G.n
    _reserve(40 * n + 8 * n * (int(level) + int(parent)), "the search's words, queues and results")
    L = P = None
    if level:
        L = cp.full(n, -1, _I64)
        L[s] = 0
    if parent:
        P = cp.full(n, -1, _I64)
        P[s] = s
    _msbfs(E, G, np.array([s], np.int64), L, P)
    get = (lambda a: a) if output == "device" else _to_host
    return tuple(None if X is None else get(X) for X in (L, P))


# ---------------------------------------------------------------- sssp (gpu/sssp.cu)
_NF_BINS, _NF_BLOCK = 256, 512    # sssp_nearfar's histogram bins and threads a block (NF_BINS, NF_BLOCK)


@fuses
def sssp_relax(E, A, q, d, parent):
    # a single-source frontier over a weighted CSR: three launches over the
    # frontier's edges, one host read (the new frontier's size)
    if not (isinstance(A, GMat) and isinstance(q, GVec) and isinstance(d, GVec)):
        raise Declined("sssp_relax's kernels relax one source's frontier: vectors q and d, not matrices")
    if not (q.dtype == _F64 and d.dtype == _F64 and _is_full(d)):
        raise Declined("sssp_relax's kernels take a float64 frontier and full float64 distances")
    if parent is not None and not (isinstance(parent, GVec) and parent.dtype == _I64 and _is_full(parent)):
        raise Declined("sssp_relax's kernels take parents as a full int64 vector")
    indptr, indices, w = E._csr(A)
    if w is None or w.dtype != _F64:
        raise Declined("sssp_relax's kernels take float64 weights")
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
            (E._blocks(nf * gs),), (256,),
            (indptr, indices, w, fr, fq, np.int64(nf), dv, flag, nxt, count, np.int32(gs)))
    m = int(count[0])
    nxt = nxt[:m]
    pv = parent.val.copy() if parent is not None else cp.empty(1, _I64)
    pc = cp.full(n, np.iinfo(np.int64).max, _I64) if parent is not None else pv
    if parent is not None and m:
        _kernel("sssp.cu", "sssp_parent", IT)(
            (E._blocks(nf * gs),), (256,),
            (indptr, indices, w, fr, fq, np.int64(nf), dv, flag, pc, np.int32(gs)))
    nq = cp.empty(m, _F64)
    if m:
        _kernel("sssp.cu", "sssp_finish", _I64)(
            (E._blocks(m),), (256,),
            (nxt, np.int64(m), dv, pc, pv, np.int32(parent is not None), nq))
    d.val, d.pres = dv, None
    if parent is not None:
        parent.val, parent.pres = pv, None
    val = cp.zeros(n, _F64)
    pres = cp.zeros(n, bool)
    val[nxt] = nq
    pres[nxt] = True
    return GVec(n, _F64, val, pres)


@fuses
def sssp_delta_stepping(E, G, d, parent, bucket, delta):
    # Every bucket from `bucket` on in one launch of a persistent kernel (gpu/sssp.cu,
    # sssp_nearfar): near-far with grid barriers between its phases, work following the
    # vertices that change, no host round trip until the search is done.  The buckets'
    # ends need not be multiples of delta (the engine settles them all): on denser graphs
    # they follow the work (E.SSSP_TARGET), on sparse ones they are SSSP_SPARSE_WIDTH deltas.
    if not (isinstance(d, GVec) and d.dtype == _F64 and _is_full(d)):
        raise Declined("sssp_delta_stepping's kernels take full float64 distances")
    if parent is not None and not (isinstance(parent, GVec) and parent.dtype == _I64 and _is_full(parent)):
        raise Declined("sssp_delta_stepping's kernels take parents as a full int64 vector")
    indptr, indices, w = E._csr(E.matrix(G))
    if w is None or w.dtype != _F64:
        raise Declined("sssp_delta_stepping's kernels take float64 weights")
    # positive weights: the parents in one pass after the search (sssp_pred), not a phase per round;
    # None where a weight below a distance's rounding left a reached vertex without one
    if parent is not None and _least_weight(E, G, w) > 0:
        done = _nearfar(E, G, d, parent, bucket, delta, indptr, indices, w, after=True)
        if done is not None:
            return done
    return _nearfar(E, G, d, parent, bucket, delta, indptr, indices, w, after=False)


def _nearfar(E, G, d, parent, bucket, delta, indptr, indices, w, *, after):
    n, keep = G.n, parent is not None
    in_loop = keep and not after
    big = np.iinfo(np.int64).max
    _reserve(n * (64 + 16 * keep + 8 * in_loop) + 256, "the delta-stepping search state")
    dv = d.val.copy()        # the engine never writes into a vector's array
    pv = parent.val.copy() if keep else None
    pc = cp.full(n, big, _I64) if keep else None
    flag, farmark = cp.zeros(n, cp.int32), cp.zeros(n, cp.int32)
    la, lb, fa, fb = (cp.empty(n, _I64) for _ in range(4))
    fq = cp.empty(n if in_loop else 1, _F64)
    live = cp.flatnonzero(cp.isfinite(dv) & (dv >= bucket * delta))       # phase R sorts near from far
    la[:live.size] = live
    st = cp.zeros(16, _I64)
    st[0] = live.size
    st[6:8] = np.float64(np.inf).view(np.int64)
    hist = cp.zeros(2 * _NF_BINS, cp.uint64)
    bar = cp.zeros(1, cp.uint64)
    degree = indices.size / max(n, 1)
    gs = _next_pow2(E.SSSP_LANES or degree)
    long_row, chunk = max(int(E.SSSP_BIG_ROW), 1), max(int(E.SSSP_CHUNK), 1)
    crow, cfirst = _long_rows(E, G, indptr, long_row, chunk)     # every long row's chunks: room for a round's
    cv, ck, cd = cp.empty(max(crow.size, 1), _I64), cp.empty(max(crow.size, 1), _I64), cp.empty(max(crow.size, 1), _F64)
    blocks = 2 * E._sms      # two blocks a multiprocessor, all resident (__launch_bounds__(NF_BLOCK, 2))
    if degree < 8:           # grids, roads: the rounds' count, not their work, costs
        target = int(E.SSSP_SPARSE_TARGET)
        if E.SSSP_SPARSE_BLOCKS:
            blocks = max(1, min(int(E.SSSP_SPARSE_BLOCKS), blocks))
    else:
        target = int(E.SSSP_TARGET)
    if target > 0:           # bins of delta / SSSP_GRAIN, the first bucket one bin
        grain = delta / max(float(E.SSSP_GRAIN), 1.0)
        grain = grain if grain > 0 else delta
        thr = bucket * delta + grain
    else:                    # fixed widths: the first bucket delta, the next ones SSSP_SPARSE_WIDTH deltas where sparse
        grain = delta * (E.SSSP_SPARSE_WIDTH if degree < 8 else 1)
        thr = (bucket + 1) * delta
    _kernel("sssp.cu", "sssp_nearfar", indices.dtype)(
        (blocks,), (_NF_BLOCK,),
        (indptr, indices, w, dv, pv if in_loop else _NULL, pc if in_loop else _NULL, flag, farmark, la, lb, fq, fa, fb,
         cv, cd, ck, np.int64(crow.size), hist, st, bar, np.float64(thr), np.float64(grain), np.int64(target),
         np.int32(max(int(E.SSSP_GROW), 1)), np.int64(long_row), np.int32(chunk), np.int32(gs)))
    rounds, buckets, work, _, _, over = (int(x) for x in cp.asnumpy(st[8:14]))
    if over:
        raise LaGraphError("sssp_delta_stepping: a round's chunk list overflowed (a vertex twice in one list)")
    log.debug("sssp_delta_stepping: %d rounds, %d buckets, %d edges relaxed (target %d, grain %g, delta %g)",
              rounds, buckets, work, target, grain, delta)
    if after:
        _kernel("sssp.cu", "sssp_pred", indices.dtype)(
            (E._blocks(n * gs),), (256,),
            (indptr, indices, w, dv, pc, np.int64(n), crow, cfirst, np.int64(crow.size), np.int32(chunk),
             np.int64(long_row), np.int32(not G.directed), np.int32(gs)))
        found = pc != big
        own = pv == cp.arange(n, dtype=_I64)                 # the sources: their own parents
        if int(cp.count_nonzero(cp.isfinite(dv) & ~found & ~own)):   # a weight lost in rounding
            log.debug("sssp_delta_stepping: a reached vertex has no parent by d[u] + w == d[v]; parents in the loop")
            return None
        pv = cp.where(found & ~own, pc, pv)
    d.val, d.pres = dv, None
    if keep:
        parent.val, parent.pres = pv, None
    return d, parent, None


def _long_rows(E, G, indptr, long_row, chunk):
    """The rows longer than ``long_row`` as chunks of ``chunk`` edges: ``(row, first edge)`` int64 arrays (cached)."""
    key = E._graph_key(("sssp_chunks", long_row, chunk))
    hit = G._engine_cache.get(key)
    if hit is None:
        deg = (indptr[1:] - indptr[:-1]).astype(_I64)
        rows = cp.flatnonzero(deg > long_row)
        per = (deg[rows] + chunk - 1) // chunk
        ends = cp.cumsum(per)
        k = cp.arange(int(ends[-1]) if rows.size else 0, dtype=_I64)
        owner = cp.searchsorted(ends, k, side="right")
        crow = rows[owner].astype(_I64)
        hit = G._engine_cache[key] = (crow, indptr[crow].astype(_I64) + (k - (ends - per)[owner]) * chunk)
    return hit


def _least_weight(E, G, w):
    """The smallest weight of ``G`` (cached on the graph)."""
    key = E._graph_key("least_weight")
    m = G._engine_cache.get(key)
    if m is None:
        m = G._engine_cache[key] = float(w.min()) if w.size else 0.0
    return m


# ---------------------------------------------------------------- scc (gpu/scc.cu)
# Every SCC step is one launch of the persistent kernel scc_grid, its `phases` picking the
# parts the step does; phase bits and st slots as in gpu/scc.cu.
_SCC_TRIM, _SCC_CONTRACT, _SCC_QTRIM, _SCC_PIVOT, _SCC_FWBW, _SCC_COLOR = 1, 2, 4, 8, 16, 32
_SCC_ST = {"trimmed": 7, "labelled": 8, "left": 9, "pivot": 11, "error": 13, "rounds": 14, "sweeps": 15,
           "qtrimmed": 16, "fwbw": 17, "levels": 18, "colored": 19}
_SCC_SLOTS, _SCC_W_SLOTS, _SCC_BLOCK, _SCC_W_REP = 24, 8, 1024, 3
_SCC_ST_PIVOT, _SCC_ST_SMALL = 11, 12


def _scc_graph(E, G):
    """``(indptr, indices, tptr, tind, heavy, nheavy, gs, chunk)`` of ``G`` for scc_grid (cached on the graph).

    A group of ``gs`` lanes (four edges a lane at a time) takes a unit: a chunk of at
    most ``chunk`` edges of a vertex's rows.  ``heavy`` lists ``c << 32 | v`` for the
    chunks ``c >= 1`` of every vertex whose longer row has more than ``chunk`` edges.
    """
    key = E._graph_key("scc")
    c = G._engine_cache.get(key)
    if c is None:
        indptr, indices, _ = E._csr(E.matrix(G))
        tptr, tind, _ = E._csr(E.matrix(G, transpose=True))
        if indices.dtype != tind.dtype:
            raise Declined("the scc kernel takes a graph and its transpose of one index width")
        n = G.n
        gs = _next_pow2(indices.size / max(n, 1) / 4)
        chunk = 16 * gs
        d = cp.maximum(indptr[1:] - indptr[:-1], tptr[1:] - tptr[:-1]).astype(_I64)
        more = cp.maximum((d + chunk - 1) // chunk - 1, 0)          # chunks after the first
        nheavy = int(more.sum())                                     # one wait, once per graph
        heavy = cp.zeros(1, _I64)
        if nheavy:
            ends = cp.cumsum(more)
            i = cp.arange(nheavy, dtype=_I64)
            v = cp.searchsorted(ends, i, side="right").astype(_I64)
            heavy = ((i - (ends[v] - more[v]) + 1) << 32) | v
        c = G._engine_cache[key] = (indptr, indices, tptr, tind, heavy, nheavy, gs, chunk)
    return c


def _scc_reps(rep, done):
    """What is wrong with the kernel's ``rep`` (after a launch that ran the contraction) against ``done``.

    Every unlabelled vertex must point at an unlabelled rep (a vertex that points at
    itself); a labelled one at -1.  Returns a short text: the counts of unlabelled
    vertices, of those whose rep is -1, is labelled or is no rep, and of labelled ones
    with a rep (one wait).
    """
    live = ~done
    r = cp.where((rep >= 0) & (rep < rep.size), rep, 0)
    orphan = live & (rep >= 0) & (rep[r] != rep)
    k = [int(x) for x in cp.asnumpy(cp.stack([live.sum(), (live & (rep < 0)).sum(), (orphan & done[r]).sum(),
                                               (orphan & ~done[r]).sum(), (done & (rep >= 0)).sum()]))]
    return (f"{k[0]} unlabelled, of them {k[1]} with rep -1, {k[2]} with a labelled rep, {k[3]} with a rep that is "
            f"no rep; {k[4]} labelled with a rep")


def _scc_run(E, G, labels, phases, *, pivot=-1, seed=0, max_levels=2**30, keep=None):
    """One scc_grid launch over ``labels`` (which take its fresh arrays); returns its st counters (one wait).

    Declined where the kernel cannot take ``labels``; None (nothing launched) when every
    vertex is labelled already.  ``keep``: a dict that receives ``phases`` (as run),
    ``blocks``, the counters and ``rep`` (the kernel's reps, meaningful after the
    contraction ran), before an error is raised (tools/dev/scc.sh reads them).
    """
    if not isinstance(labels, GVec) or labels.dtype != _I64 or labels.size != G.n:
        raise Declined("the scc kernel takes labels as an int64 gpu-engine vector of n entries")
    n = G.n
    if n >= 2**31:
        raise Declined("the scc kernel numbers vertices in int32")
    if labels.pres is None or n == 0:
        return None                                                  # every vertex is labelled
    indptr, indices, tptr, tind, heavy, nheavy, gs, chunk = _scc_graph(E, G)
    if E.SCC_CONTRACT_EDGES < 0 or (indices.size > E.SCC_CONTRACT_EDGES and indices.size >= E.SCC_CONTRACT_DEGREE * n):
        phases &= ~(_SCC_CONTRACT | _SCC_QTRIM)                      # big and dense: not worth an edge pass
    _reserve((4 * _SCC_W_SLOTS + 25) * n + 8 * nheavy + 1024, "the strongly connected components' state")
    # fresh arrays: the engine never writes into arrays a vector holds (copies share them)
    done, lab = labels.pres.copy(), labels.val.copy()
    W = cp.empty(_SCC_W_SLOTS * n, cp.int32)
    W[:3 * n] = 0                                                    # in-, out-degrees, trim marks
    col = cp.empty(n, _I64)
    queue = cp.empty(n + nheavy if phases & _SCC_TRIM else 1, _I64)
    init = np.zeros(_SCC_SLOTS, np.int64)
    init[_SCC_ST_PIVOT] = pivot if pivot >= 0 else np.iinfo(np.int64).max
    init[_SCC_ST_SMALL] = np.iinfo(np.int64).max
    st = cp.asarray(init)
    bar = cp.zeros(2, cp.uint32)
    # SCC_UNITS_PER_GROUP units a group; one block a multiprocessor at most (all resident: grid barriers)
    blocks = max(1, min(E._sms, -(-(n + nheavy) * gs // (E.SCC_UNITS_PER_GROUP * _SCC_BLOCK))))
    _kernel("scc.cu", "scc_grid", indices.dtype)(
        (blocks,), (_SCC_BLOCK,),
        (indptr, indices, tptr, tind, heavy, np.int64(nheavy), done, lab, W, col, queue, st, bar, np.int64(n),
         np.int32(phases), np.int32(gs), np.int32(chunk), np.uint64(_random.priority_key(seed)),
         np.int32(min(max_levels, 2**30))))
    labels.val, labels.pres = lab, done
    s = cp.asnumpy(st)
    counts = {k: int(s[i]) for k, i in _SCC_ST.items()}
    log.debug("scc_grid phases %d on %d blocks: %s", phases, blocks, counts)
    if keep is not None:
        keep.update(phases=phases, blocks=blocks, counts=counts, rep=W[_SCC_W_REP * n:(_SCC_W_REP + 1) * n])
    if counts["error"]:
        why = "a coloring round labelled nothing" if counts["error"] == 1 else "a propagation found no fixed point"
        reps = _scc_reps(W[_SCC_W_REP * n:(_SCC_W_REP + 1) * n], done) if phases & ~_SCC_TRIM else ""
        raise LaGraphError(f"the scc kernel stopped: {why} (a bug in gpu/scc.cu); phases {phases}, {blocks} blocks, "
                           f"gs {gs}, chunk {chunk}, counters {counts}; {reps}")
    return counts


@fuses
def scc_trim(E, G, labels):
    counts = _scc_run(E, G, labels, _SCC_TRIM)
    return 0 if counts is None else counts["trimmed"]


@fuses
def scc_fwbw(E, G, pivot, labels):
    # the pivot's SCC by reach over mutual-edge components (one launch); the pivot is unlabelled
    if not 0 <= int(pivot) < G.n:
        raise InvalidArgumentError(f"scc_fwbw: pivot {pivot} is not a vertex of the {G.n}-vertex graph")
    counts = _scc_run(E, G, labels, _SCC_CONTRACT | _SCC_FWBW, pivot=int(pivot))
    return 0 if counts is None else counts["fwbw"]


@fuses
def scc_color(E, G, seed, labels):
    # the step's result (every vertex left gets its SCC's smallest id) by the quotient trim and
    # coloring rounds over mutual-edge components, keys hashed from `seed`, in one launch
    counts = _scc_run(E, G, labels, _SCC_CONTRACT | _SCC_QTRIM | _SCC_COLOR, seed=seed)
    return 0 if counts is None else counts["labelled"]


@fuses
def scc_labels(E, G, labels):
    # all of it in one launch: trim (at most SCC_TRIM_LEVELS levels), contraction, quotient
    # trim, the pivot's SCC, coloring
    _scc_run(E, G, labels, _SCC_TRIM | _SCC_CONTRACT | _SCC_QTRIM | _SCC_PIVOT | _SCC_FWBW | _SCC_COLOR,
             max_levels=E.SCC_TRIM_LEVELS)
    return labels


# ---------------------------------------------------------------- triangles (gpu/triangles.cu)
def _later_neighbours(E, S):
    """``(ptr, ind, rows)`` of the edges of ``S`` oriented by degree (ascending, ties by id), on the device."""
    indptr, indices, _ = E._csr(E.matrix(S))
    n, nnz = S.n, int(indices.size)
    _reserve(nnz * (17 + indices.itemsize) + 16 * n + 64, f"the {nnz // 2:,} edges oriented by degree")
    deg = (indptr[1:] - indptr[:-1]).astype(_I64)
    rank = cp.empty(n, _I64)
    rank[cp.argsort(deg)] = cp.arange(n, dtype=_I64)        # any total order counts the same triangles
    rows = cp.searchsorted(indptr[1:], cp.arange(nnz, dtype=indptr.dtype), side="right").astype(_I64)
    keep = rank[rows] < rank[indices]                         # self-loops: never later than themselves
    rows, ind = rows[keep], indices[keep]                     # still sorted within each row
    ptr = cp.zeros(n + 1, _I64)
    ptr[1:] = cp.cumsum(cp.bincount(rows, minlength=n))
    return ptr, ind, rows


def _triangles(E, S, per_vertex):
    ptr, ind, rows = _later_neighbours(E, S)
    total = cp.zeros(1, cp.uint64)
    tv = cp.zeros(S.n, cp.uint64) if per_vertex else None
    if rows.size:
        _kernel("triangles.cu", "tc_edges", ind.dtype)(
            (E._blocks(rows.size),), (256,),
            (ptr, ind, rows, np.int64(rows.size), total, _NULL if tv is None else tv))
    return total, tv


@fuses
def triangle_total(E, S):
    total, _ = _triangles(E, S, False)
    return int(total[0])


@fuses
def vertex_triangles(E, S):
    _, tv = _triangles(E, S, True)
    return GVec(S.n, _I64, tv.view(_I64))


# ---------------------------------------------------------------- core numbers (gpu/kcore.cu)
_KC_BLOCK = 512     # threads a block (KC_BLOCK of gpu/kcore.cu)
_KC_SPREAD = 4      # live vertices a thread in the level scans: n / (4 * 512) blocks, 2 a multiprocessor at most
_KC_CHUNK = 16      # a queue entry holds at most this many row entries a lane
_KC_ST = {"pieces": 0, "levels": 7, "rounds": 8, "compactions": 9}


@fuses
def core_peel(E, G):
    # the whole peeling in one persistent launch (gpu/kcore.cu): levels and their rounds behind grid
    # barriers, no host round trip; degrees out- plus in-entries (directed), self-loops left out
    n = G.n
    if n >= 2**31:
        raise Declined("the core_peel kernel queues vertex ids in 32 bits")
    if n == 0:
        return GVec(0, _I64, cp.empty(0, _I64), None)
    indptr, indices, _ = E._csr(E.matrix(G))
    tptr = tind = _NULL
    size = int(indices.size)
    if G.directed:
        tptr, tind, _ = E._csr(E.matrix(G, transpose=True))
        if tind.dtype != indices.dtype:
            raise Declined("the core_peel kernel takes a graph and its transpose of one index width")
        size += int(tind.size)
    VT = E._itype(2 * n)                                   # degrees below 2n; live lists
    gs = _next_pow2(size / n / 4)
    chunk = _KC_CHUNK * gs
    cap = n + size // chunk + 1                            # queue entries: max(1, ceil(L / chunk)) a vertex
    _reserve(n * (3 * VT.itemsize + 8) + 8 * cap + 256, f"the core numbers' peeling state ({n:,} vertices)")
    deg, la, lb = (cp.empty(n, VT) for _ in range(3))
    core = cp.empty(n, _I64)                               # every vertex's entry written by the kernel
    queue = cp.empty(cap, _I64)
    init = np.zeros(16, np.int64)
    init[1:4] = np.iinfo(np.int64).max                     # KC_MIN slots
    st = cp.asarray(init)
    bar = cp.zeros(1, cp.uint64)
    blocks = max(1, min(2 * E._sms, -(-n // (_KC_SPREAD * _KC_BLOCK))))   # all resident: grid barriers
    _kernel("kcore.cu", "kc_peel", indices.dtype, VT)(
        (blocks,), (_KC_BLOCK,),
        (indptr, indices, tptr, tind, np.int64(n), np.int32(G.self_loops > 0), deg, la, lb, queue, core, st, bar,
         np.int32(gs), np.int64(chunk)))
    if log.isEnabledFor(logging.DEBUG):                    # one wait, only when asked for
        s = cp.asnumpy(st)
        log.debug("core_peel: %d blocks, gs %d, chunk %d: %s", blocks, gs, chunk,
                  {k: int(s[i]) for k, i in _KC_ST.items()})
    return GVec(n, _I64, core, None)


# ---------------------------------------------------------------- betweenness (gpu/bc.cu)
#: Brandes' persistent kernel: rows longer than BC_BIG_ROW edges are cut into chunks of
#: BC_CHUNK for the grid's warps (a hub does not hold a level up)
BC_BIG_ROW = 1024
BC_CHUNK = 1024
#: gpu/bc.cu's BC_SPREAD, the algebra's COUNT_SPREAD: the largest binary-exponent spread of one source's
#: path counts at one level
BC_SPREAD = 1800
#: bytes of (source, vertex) arrays one launch may take, at most half the free device memory: as many
#: sources a launch as fit (R-MAT 22 with 64 sources takes 6.4 GB in one launch)
BC_BATCH_BYTES = 16 << 30
_BC_BLOCK, _BC_BYTES = 512, 28          # threads a block; bytes a (source, vertex) at most (entry, queue)


def _bc_graph(E, G):
    """``(indptr, indices, heavy rows, their chunks, lanes a row)`` of ``G`` for bc_batch (counts cached)."""
    indptr, indices, _ = E._csr(E.matrix(G))
    key = E._graph_key(("bc", BC_BIG_ROW, BC_CHUNK))
    c = G._engine_cache.get(key)
    if c is None:
        deg = _row_lengths(E, E.matrix(G))
        heavy, chunk = deg[deg > BC_BIG_ROW], max(int(BC_CHUNK), 1)
        c = G._engine_cache[key] = (int(heavy.size), int(((heavy + chunk - 1) // chunk).sum()),
                                    _next_pow2(indices.size / max(G.n, 1)))
    return (indptr, indices) + c


@fuses
def brandes_sources(E, G, srcs, total, ends):
    # as many sources a launch as BC_BATCH_BYTES of (source, vertex) arrays take, each launch a
    # BFS of all its sources at once over (source, vertex) level queues, then the sweep back over
    # the stored levels, pulling from out-neighbours
    n = G.n
    if not (isinstance(total, GVec) and total.dtype == _F64 and total.size == n and _is_full(total)):
        raise Declined("brandes_sources' kernel adds into a full float64 gpu-engine vector")
    if ends is not None and not (isinstance(ends, GVec) and ends.dtype == _I64 and ends.size == n
                                 and _is_full(ends)):
        raise Declined("brandes_sources' kernel adds path ends into a full int64 gpu-engine vector")
    srcs = np.asarray(srcs, dtype=np.int64).ravel()
    if srcs.size and (srcs.min() < 0 or srcs.max() >= n):
        raise InvalidArgumentError(f"brandes_sources: a source is not a vertex of the {n}-vertex graph")
    if n == 0 or srcs.size == 0:
        return np.zeros(srcs.size, np.int64) if ends is not None else None
    acc = total.val.copy()                                   # the engine never writes into a vector's array
    seen_by = ends.val.copy() if ends is not None else None
    room = min(int(BC_BATCH_BYTES), (_free_device_bytes() + cp.get_default_memory_pool().free_bytes()) // 2)
    b = max(1, min(srcs.size, room // (n * _BC_BYTES)))
    reached = [_bc_launch(E, G, srcs[lo:lo + b], acc, seen_by) for lo in range(0, srcs.size, b)]
    total.val, total.pres = acc, None
    if ends is None:
        return None
    ends.val, ends.pres = seen_by, None
    return cp.asnumpy(cp.concatenate(reached))


def _bc_launch(E, G, srcs, acc, seen_by):
    """One launch of bc_batch over ``srcs``: adds into ``acc`` (and ``seen_by``); the reach counts (CuPy) or None."""
    n, b = G.n, srcs.size
    indptr, indices, nheavy, nchunks, gs = _bc_graph(E, G)
    N = b * n
    VT = _I32 if N <= np.iinfo(np.int32).max else _I64        # a (source, vertex) key: vertex * b + source
    hcap, ccap = max(b * nheavy, 1), max(b * nchunks, 1)
    _reserve(N * (16 + VT.itemsize + (1 if seen_by is not None else 0)) + hcap * (VT.itemsize + 8) + 16 * ccap
             + 24 * (n + 2) + 8 * n + 8 * b + 256, f"Brandes' {b} x {n:,} levels, path counts and level queue")
    keys = cp.asarray(srcs * b + np.arange(b, dtype=np.int64))
    ent = cp.zeros(2 * N, _F64)                          # (sigma, level) entries of 16 bytes (bc.cu)
    sig, lev = ent, ent.view(cp.int32)[2:]               # lev[4 k]: the int32 8 bytes into entry k
    levels = ent.view(cp.int32).reshape(N, 4)[:, 2]
    levels.fill(-1)
    q = cp.empty(N, VT)
    levels[keys] = 0
    sig[2 * keys] = 1.0
    q[:b] = keys.astype(VT)
    offs = cp.empty(3 * (n + 2), _I64)                      # level starts in the queue, heavy and chunk lists
    hq, hsum = cp.empty(hcap, VT), cp.zeros(hcap, _F64)
    ch_h, ch_p = cp.empty(ccap, _I64), cp.empty(ccap, _I64)
    st, bar = cp.zeros(16, _I64), cp.zeros(1, cp.uint64)
    ex = cp.empty(2 * b, _I32)                           # per source: a level's largest and smallest exponent
    blocks = max(1, min(2 * E._sms, -(-N // _BC_BLOCK)))     # all resident: __launch_bounds__(BC_BLOCK, 2)
    _kernel("bc.cu", "bc_batch", indices.dtype, VT)(
        (blocks,), (_BC_BLOCK,),
        (indptr, indices, np.int64(n), np.int64(b), lev, sig, q, offs[:n + 2], offs[n + 2:2 * n + 4], offs[2 * n + 4:],
         hq, hsum, ch_h, ch_p, acc, st, bar, np.int64(BC_BIG_ROW), np.int32(max(int(BC_CHUNK), 1)), np.int32(gs),
         ex))
    failed, i, level = (int(x) for x in cp.asnumpy(st[10:13]))   # one read a launch: a level's counts out of range
    if failed:
        raise NumericRangeError(
            f"betweenness: the shortest-path counts from source {int(srcs[i])} to the vertices at distance {level} "
            f"span a factor beyond 2**{BC_SPREAD}, more than float64 holds even scaled per level; this source's "
            "dependencies cannot be computed in float64: leave it out of sources=")
    if log.isEnabledFor(logging.DEBUG):
        log.debug("brandes_sources: %d sources, %d levels on %d blocks", b, int(st[9]), blocks)
    if seen_by is None:
        return None
    seen = (levels >= 0).reshape(n, b)
    seen_by += seen.sum(axis=1, dtype=_I64)
    return seen.sum(axis=0, dtype=_I64)


# ---------------------------------------------------------------- pagerank (gpu/pagerank.cu)
#: pagerank_iterate launches this many iterations before its first host read of the
#: convergence flag, then twice as many each time up to the second number (iterations
#: past the one that converged return at once: the ranks are that one's)
PAGERANK_BATCH = (4, 32)
_PR_MODES = {"gap": 0, "uniform": 1, "p": 2, "p_d": 3}       # PR_GAP ... PR_P_D of gpu/pagerank.cu
_PR_DONE, _PR_ITERS, _PR_CHANGE = 1, 2, 4                    # st[] slots
_PR_BLOCK = 256                                               # semiring_rows' block: the row plan counts in it


def _pagerank_graph(E, G, weighted):
    """``(tptr, tind, tw, s, plan)``: the CSR of ``A'`` (``tw`` its weights, or None), the out-degrees or
    out-weights ``s`` as float64 (0: dangling; cached on the graph) and the engine's row plan of ``A'``
    (the mxv's own, cached with the matrix; None for a small one)."""
    AT = E.matrix(G, transpose=True)
    tptr, tind, tw = E._csr(AT)
    key = E._graph_key(("pagerank_s", bool(weighted)))
    s = G._engine_cache.get(key)
    if s is None:
        if weighted:                               # the algebra's out-weights: no entry where no out-edge
            sv = E.reduce_rows(E.matrix(G), "plus")
            s = sv.val.astype(_F64, copy=False) if sv.pres is None else cp.where(sv.pres, sv.val, 0).astype(_F64)
        else:
            s = E.degree(G).val.astype(_F64)
        G._engine_cache[key] = s
    return tptr, tind, (tw if weighted else None), s, E._row_plan(AT, "rows", (tptr, tind, tw))


@fuses
def pagerank_iterate(E, G, weighted, alpha, p, d, variant, max_iter, tol):
    # two launches an iteration (gpu/pagerank.cu): the pull over A' that also writes the
    # change's and dangling rank's partial sums and the next alpha r / s, then the long rows
    # and the totals, the convergence test on the device; one host read per batch of iterations
    n = G.n
    tptr, tind, tw, s, rp = _pagerank_graph(E, G, weighted)
    if weighted and (tw is None or tw.dtype != _F64):
        raise Declined("pagerank_iterate's kernels take float64 weights")
    if variant == "gap":
        mode = _PR_MODES["gap"]
    elif p is None and d is None:
        mode = _PR_MODES["uniform"]
    else:
        mode = _PR_MODES["p" if d is None else "p_d"]
    pa = _NULL if mode < 2 else cp.asarray(np.ascontiguousarray(p if p is not None else np.full(n, 1.0 / n),
                                                                dtype=np.float64))
    da = _NULL if d is None else cp.asarray(np.ascontiguousarray(d, dtype=np.float64))
    threshold = {"networkx": n * tol, "gap": tol}.get(variant, -np.inf)
    if rp is None:                                 # every row gs lanes, a group a row
        gs = _next_pow2(tind.size / n)
        grid, order, tab, soff, piece, nlong, npieces = -(-n * gs // _PR_BLOCK), _NULL, _NULL, _NULL, 0, 0, 0
    else:
        gs, grid, order, tab, soff, piece, nlong, npieces = 0, rp.blocks, rp.order, rp.tab, rp.soff, rp.piece, \
            rp.nlong, rp.npieces
    grid2 = max(1, min(_PR_BLOCK, -(-max(grid, nlong) // _PR_BLOCK)))
    _reserve(8 * (3 * n + 2 * grid + npieces + 2 * grid2) + 256, f"PageRank's ranks of {n:,} vertices")
    r, wa, wb = cp.empty(n, _F64), cp.empty(n, _F64), cp.empty(n, _F64)
    pval = cp.empty(max(npieces, 1), _F64)
    part, part2 = cp.empty(2 * grid, _F64), cp.empty(2 * grid2, _F64)
    st = cp.zeros(8, cp.uint64)
    IT = tind.dtype
    rows, total = _kernel("pagerank.cu", "pr_rows", IT), _kernel("pagerank.cu", "pr_total", IT)
    head = (np.int32(mode), np.float64(alpha), np.float64(1.0 / n))

    def args(first, w_in, w_out):                 # built once each: small graphs are launch-bound
        return ((tptr, tind, _NULL if tw is None else tw, order, tab, soff, np.int64(piece), np.int64(n),
                 np.int32(gs), s, pa, da) + head + (np.int32(first), w_in, w_out, r, pval, part, st),
                (order, tab, soff, np.int64(n), s, pa, da) + head
                + (np.int32(first), np.float64(threshold), pval, w_out, r, part, np.int64(grid), part2, st))

    def launch(a):
        rows((grid,), (_PR_BLOCK,), a[0])
        total((grid2,), (_PR_BLOCK,), a[1])

    launch(args(1, wb, wa))                        # r = 1/n, its alpha r / s into wa, its dangling rank
    parity = (args(0, wa, wb), args(0, wb, wa))    # iteration i reads the w that i - 1 wrote
    launched, batch = 0, PAGERANK_BATCH[0]
    while launched < max_iter:
        k = min(batch, max_iter - launched)
        for i in range(launched, launched + k):
            launch(parity[i % 2])
        launched += k
        if variant == "graphalytics":              # no test: every iteration runs, nothing to read
            continue
        state = cp.asnumpy(st)
        if state[_PR_DONE]:
            break
        batch = min(2 * batch, PAGERANK_BATCH[1])
    if variant == "graphalytics":
        return GVec(n, _F64, r, None), int(max_iter), float("nan")
    return GVec(n, _F64, r, None), int(state[_PR_ITERS]), float(state[_PR_CHANGE:_PR_CHANGE + 1].view(np.float64)[0])
