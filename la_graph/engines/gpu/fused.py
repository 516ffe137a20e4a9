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
from ...exceptions import InvalidArgumentError
from ..base import Declined
from .kernels import _NULL, _kernel, _next_pow2
from .memory import _device_errors, _reserve
from .ops import _cast
from .objects import _BOOL, _F64, _I32, _I64, GMat, GVec, _is_full, _mat_keys

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
    thin = int(E.BFS_THIN_EDGES)
    wide, bar = False, 0
    while True:
        # thin levels on a few blocks (a cheaper barrier), wide ones on every multiprocessor
        # (one block each: all resident); each launch returns where its band ends
        blocks = E._sms if wide else max(1, min(int(E.BFS_THIN_BLOCKS), E._sms))
        lo, hi = (thin // 2, 2**62) if wide else (-1, thin)
        run((blocks,), (512,),
            (indptr, indices, ptr(indeg), qa, qb, np.int64(cap), st, vis, ptr(pv), ptr(lv), ptr(levp), np.int64(k),
             np.int64(lim), np.int64(lo), np.int64(hi), np.int32(wide), np.int32(gs), np.uint64(bar)))
        s = cp.asnumpy(st)
        if s[_ST_STOP] == _STOPPED:
            break
        wide, bar = s[_ST_STOP] == _WIDER, int(s[_ST_BAR])
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


# ---------------------------------------------------------------- apsp (gpu/floyd_warshall.cu)
@fuses
def floyd_warshall(E, G):
    n = G.n
    _reserve(8 * n * n + 16 * G.nnz + 64, f"Floyd-Warshall's {n:,} x {n:,} float64 distance matrix")
    A = E.matrix(G)
    D = cp.full(n * n, np.inf, dtype=_F64)
    keys = _mat_keys(A)                                  # row * n + col of every edge
    if keys.size:
        D[keys] = A.val if A.val is not None else 1.0    # a Graph holds no duplicate edges
    diag = cp.arange(n, dtype=_I64) * (n + 1)
    D[diag] = cp.minimum(D[diag], 0.0)
    neg = cp.full(1, n, dtype=_I64)
    T = E.FW_TILE
    nb = (n + T - 1) // T
    block = (T, 8)
    p1, p2, p3 = (_kernel("floyd_warshall.cu", k, T) for k in ("fw_phase1", "fw_phase2", "fw_phase3"))
    for K in range(nb):
        p1((1,), block, (D, np.int64(n), np.int32(K), neg))
        p2((nb, 2), block, (D, np.int64(n), np.int32(K)))
        p3((nb, nb), block, (D, np.int64(n), np.int32(K)))
        if K % E.FW_CHECK_ROUNDS == E.FW_CHECK_ROUNDS - 1 and int(neg[0]) < n:
            break
    v = int(neg[0])
    return GMat.dense_of(n, n, _F64, D, None), (v if v < n else -1)


# ---------------------------------------------------------------- msf (gpu/msf.cu)
# The edge set is a tuple of three CuPy arrays (eu, ev, key) that only msf_round
# reads, and writes: msf_cheapest relabels the ends to their roots in place.
def _own_edges(edges):
    return isinstance(edges, tuple) and len(edges) == 3 and all(isinstance(a, cp.ndarray) for a in edges)


@fuses
def msf_edges(E, G):
    # the keys of the algebraic msf_edges, the weights ranked and keyed on the device from the uploaded CSR
    A = E.matrix(G)
    nnz = G.nnz
    _reserve(32 * nnz + 64, f"the keys of {nnz // 2:,} spanning-forest edges")
    table, offset = weight_ranks(A.val if G.weights is not None else None, nnz, cp)
    rows = (cp.searchsorted(A.indptr, cp.arange(nnz, dtype=A.indptr.dtype), side="right") - 1).astype(
        A.indices.dtype)
    p = cp.flatnonzero(rows < A.indices)
    if table is not None:
        rank = table[p]
    elif G.weights is not None:
        rank = A.val[p].astype(_I64) - offset
    else:
        rank = cp.zeros(p.size, _I64)
    return rows[p], A.indices[p], rank * np.int64(nnz) + p


@fuses
def msf_round(E, f, edges, forest):
    if not _own_edges(edges):
        raise Declined("msf_round's kernels take the edge set of the gpu engine's msf_edges")
    if not (isinstance(f, GVec) and isinstance(forest, GVec) and f.dtype in (_I32, _I64)
            and _is_full(f) and _is_full(forest)):
        # no Declined: the algebra cannot read this engine's edge set either
        raise InvalidArgumentError("msf_round needs full gpu-engine int vectors f and forest")
    eu, ev, key = edges
    n, m = f.size, int(key.size)
    if m == 0 or n == 0:
        return edges, 0
    IT, VT = eu.dtype, f.dtype
    fv, fo = f.val.copy(), forest.val.astype(_I64, copy=True)   # the engine never writes into a vector's array
    cheap = cp.full(n, np.iinfo(np.int64).max, _I64)
    keep = cp.empty(m, cp.uint8)
    _kernel("msf.cu", "msf_cheapest", IT, VT)(
        (E._blocks(m),), (256,), (eu, ev, key, fv, cheap, keep, np.int64(m)))
    partner = cp.empty(n, VT)
    _kernel("msf.cu", "msf_partner", IT, VT)(
        (E._blocks(m),), (256,), (eu, ev, key, keep, cheap, partner, np.int64(m)))
    hooked = cp.zeros(1, cp.uint64)
    _kernel("msf.cu", "msf_hook", VT)((E._blocks(n),), (256,), (fv, cheap, partner, fo, np.int64(n), hooked))
    _until_unchanged(E, _kernel("msf.cu", "msf_jump", VT), n, (fv, np.int64(n), cp.zeros(1, cp.int32)))
    f.val, f.pres = fv, None
    forest.val, forest.pres = fo.astype(forest.dtype, copy=False), None
    live = cp.flatnonzero(keep)
    return (eu[live], ev[live], key[live]), int(hooked[0])


@fuses
def msf_forest(E, G, forest):
    # the algebra's positions, sort and gathers on the device; three host copies of the forest's size
    if not (isinstance(forest, GVec) and forest.dtype.kind == "i"):
        raise Declined("msf_forest takes the forest's keys as an int gpu-engine vector")
    A = E.matrix(G)
    keys = forest.val if forest.pres is None else forest.val[forest.pres]
    p = cp.sort(keys[keys >= 0].astype(_I64) % max(G.nnz, 1))
    u = cp.searchsorted(A.indptr.astype(_I64, copy=False), p, side="right") - 1
    w = A.val[p] if G.weighted else cp.ones(p.size, _F64)
    return cp.asnumpy(u), cp.asnumpy(A.indices[p]).astype(np.int64, copy=False), cp.asnumpy(w)


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


# ---------------------------------------------------------------- sssp (gpu/sssp.cu)
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
    # vertices that change, no host round trip until the search is done.
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
    big = np.iinfo(np.int64).max
    _reserve(n * (64 + 16 * keep) + 256, "the delta-stepping search state")
    dv = d.val.copy()        # the engine never writes into a vector's array
    pv = parent.val.copy() if keep else None
    pc = cp.full(n, big, _I64) if keep else None
    flag, farmark = cp.zeros(n, cp.int32), cp.zeros(n, cp.int32)
    la, lb, fa, fb = (cp.empty(n, _I64) for _ in range(4))
    fq = cp.empty(n, _F64)
    live = cp.flatnonzero(cp.isfinite(dv) & (dv >= bucket * delta))       # phase R sorts near from far
    la[:live.size] = live
    st = cp.zeros(16, _I64)
    st[0] = live.size
    st[6:8] = np.float64(np.inf).view(np.int64)
    bar = cp.zeros(2, cp.uint32)
    degree = indices.size / max(n, 1)
    gs = _next_pow2(degree)
    # after the first bucket, buckets of E.SSSP_SPARSE_WIDTH deltas on sparse graphs (average
    # out-degree below 8: grids, roads), where the rounds' count, not their work, costs
    width = delta * (E.SSSP_SPARSE_WIDTH if degree < 8 else 1)
    _kernel("sssp.cu", "sssp_nearfar", indices.dtype)(
        (2 * E._sms,), (512,),      # two blocks a multiprocessor, all resident (__launch_bounds__(512, 2))
        (indptr, indices, w, dv, _NULL if (pv is None or after) else pv, _NULL if (pc is None or after) else pc,
         flag, farmark, la, lb, fq, fa, fb, st, np.float64((bucket + 1) * delta), np.float64(width), np.int32(gs),
         bar))
    if after:
        _kernel("sssp.cu", "sssp_pred", indices.dtype)(
            (E._blocks(n * gs),), (256,), (indptr, indices, w, dv, pc, np.int64(n), np.int32(gs)))
        found = pc != big
        own = pv == cp.arange(n, dtype=_I64)                 # the sources: their own parents
        if int(cp.count_nonzero(cp.isfinite(dv) & ~found & ~own)):   # a weight lost in rounding
            log.debug("sssp_delta_stepping: a reached vertex has no parent by d[u] + w == d[v]; parents in the loop")
            return None
        pv = cp.where(found & ~own, pc, pv)
    if log.isEnabledFor(logging.DEBUG):
        rounds, buckets = (int(x) for x in cp.asnumpy(st[8:10]))
        log.debug("sssp_delta_stepping: %d rounds, %d buckets of width %g (delta %g)", rounds, buckets, width, delta)
    d.val, d.pres = dv, None
    if keep:
        parent.val, parent.pres = pv, None
    return d, parent, None


def _least_weight(E, G, w):
    """The smallest weight of ``G`` (cached on the graph)."""
    key = E._graph_key("least_weight")
    m = G._engine_cache.get(key)
    if m is None:
        m = G._engine_cache[key] = float(w.min()) if w.size else 0.0
    return m


# ---------------------------------------------------------------- scc (gpu/scc.cu)
def _scc_state(E, G, labels):
    """``(indptr, indices, tptr, tind, done, lab)`` for the SCC kernels; Declined where they cannot run."""
    if not isinstance(labels, GVec) or labels.dtype != _I64 or labels.size != G.n or labels.pres is None:
        raise Declined("the scc kernels take labels as an int64 gpu-engine vector of n entries, some missing")
    indptr, indices, _ = E._csr(E.matrix(G))
    tptr, tind, _ = E._csr(E.matrix(G, transpose=True))
    if indices.dtype != tind.dtype:
        raise Declined("the scc kernels take a graph and its transpose of one index width")
    # fresh arrays: the engine never writes into arrays a vector holds (copies share them)
    return indptr, indices, tptr, tind, labels.pres.copy(), labels.val.copy()


@fuses
def scc_trim(E, G, labels):
    if isinstance(labels, GVec) and labels.pres is None:
        return 0  # every vertex is labelled
    indptr, indices, tptr, tind, done, lab = _scc_state(E, G, labels)
    n = G.n
    before = int(done.sum())
    _until_unchanged(E, _kernel("scc.cu", "scc_trim_round", indices.dtype), n,
                     (indptr, indices, tptr, tind, done, lab, np.int64(n), cp.zeros(1, np.int32)))
    labels.val, labels.pres = lab, done
    return int(done.sum()) - before


@fuses
def scc_color(E, G, seed, labels):
    if isinstance(labels, GVec) and labels.pres is None:
        return 0  # every vertex is labelled
    indptr, indices, tptr, tind, done, lab = _scc_state(E, G, labels)
    n = G.n
    prio = cp.asarray(_random.vertex_ranks(n, seed))    # the algebra's permutation: colors index `smallest`
    IT = indices.dtype
    left = n - int(done.sum())
    color, smallest = cp.empty(n, _I64), cp.empty(n, _I64)
    reached = cp.empty(n, cp.bool_)
    changed = cp.zeros(1, np.int32)
    grid, block, nn = (E._blocks(n),), (256,), np.int64(n)
    total = 0
    while total < left:
        _kernel("scc.cu", "scc_color_init", IT)(grid, block, (done, prio, color, reached, smallest, nn))
        # least reaching priority: min-first propagation to a fixed point
        _until_unchanged(E, _kernel("scc.cu", "scc_color_fwd", IT), n, (indptr, indices, done, color, nn, changed))
        _kernel("scc.cu", "scc_color_roots", IT)(grid, block, (done, prio, color, reached, nn))
        # backward from each root within its color
        _until_unchanged(E, _kernel("scc.cu", "scc_color_back", IT), n,
                         (indptr, indices, done, color, reached, nn, changed))
        _kernel("scc.cu", "scc_color_smallest", IT)(grid, block, (color, reached, smallest, nn))
        _kernel("scc.cu", "scc_color_label", IT)(grid, block, (color, reached, smallest, done, lab, nn))
        total += int(reached.sum())
    labels.val, labels.pres = lab, done
    return total


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
