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
from types import MappingProxyType

import cupy as cp
import numpy as np

from ..._keys import weight_ranks
from ... import _random
from ...exceptions import InvalidArgumentError, LaGraphError
from ..base import Declined
from .kernels import _NULL, _kernel, _next_pow2
from .memory import _device_errors, _reserve
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
# state slots of bfs.cu
_ST_CNT, _ST_EDG, _ST_K, _ST_FOUND, _ST_SCANNED, _ST_STOP = 0, 3, 6, 7, 8, 9


def _bfs_workspace(E, G, n, IT):
    key = E._graph_key("bfs_ws")
    ws = G._engine_cache.get(key)
    if ws is None or ws[0].dtype != IT:
        _reserve(2 * n * IT.itemsize + 128, "the BFS frontier queues")
        ws = G._engine_cache[key] = (cp.empty(n, IT), cp.empty(n, IT), cp.zeros(16, _I64))
    return ws


def _claimable(pres, n):
    """A private copy of a presence array (None: all present) in an allocation padded to 4 bytes:
    the BFS kernels claim a vertex with atomicOr on the 32-bit word that holds its byte."""
    buf = cp.zeros((n + 3) // 4 * 4, _BOOL)
    if pres is None:
        buf[:n] = True
    else:
        buf[:n] = pres
    return buf[:n]


@fuses
def bfs_push(E, G, q, parent, level, k, max_edges):
    vecs = [v for v in (parent, level) if v is not None]
    if not isinstance(q, GVec) or not vecs or any(not isinstance(v, GVec) for v in vecs):
        raise Declined("bfs_push's kernels take gpu-engine vectors, with parent or level kept")
    if len({v.dtype for v in vecs}) != 1 or vecs[0].dtype not in (_I32, _I64):
        raise Declined("bfs_push's kernels write parents and levels of one dtype, int32 or int64")
    before = vecs[0].pres                                    # visited before (None: all)
    n = G.n
    A = E.matrix(G)
    indptr, indices = A.indptr, A.indices
    IT, VT = indices.dtype, vecs[0].dtype
    deg = _row_lengths(E, A)
    if q.pres is None:
        nf, edges = n, int(indices.size)
    else:   # size and out-edges of the frontier, one wait
        nf, edges = (int(x) for x in cp.asnumpy(cp.stack([cp.count_nonzero(q.pres), (deg * q.pres).sum()])))
    # the kernels also know a frontier-size limit (on_edges=0); the step's limit is on edges
    on_edges = np.int32(1)
    lim = int(min(max_edges, 2**62)) if max_edges >= 0 else -1     # NaN: -1 as well
    if nf == 0 or edges > lim:
        return q, k, nf, 0, 0, 0
    frontier = (cp.flatnonzero(q.pres) if q.pres is not None else cp.arange(n)).astype(IT, copy=False)
    qa, qb, st = _bfs_workspace(E, G, n, IT)
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
    if E.BFS_KERNEL == "grid":
        _kernel("bfs.cu", "bfs_push_grid", IT, VT)(
            (E._sms,), (512,),
            (indptr, indices, qa, qb, st, vis, ptr(pv), ptr(lv), ptr(levp), np.int64(k), np.int64(lim),
             on_edges, gs, st[12:].view(np.uint32)))
        s = cp.asnumpy(st)
        P = int(s[_ST_K])
        return _bfs_push_result(E, G, q, parent, level, before, pv, pp, lv, lp, qa, qb, s, P, k)
    small_fn = _kernel("bfs.cu", "bfs_push_small", IT, VT)
    level_fn = _kernel("bfs.cu", "bfs_push_level", IT, VT)
    small_edges = int(E.BFS_SMALL_EDGES)
    grid = (max(1, E._sms * 8),)
    small = edges <= small_edges
    batch = 4
    P = 0
    while True:
        if small:
            small_fn((1,), (E.BFS_SMALL_BLOCK,),
                     (indptr, indices, qa, qb, st, vis, ptr(pv), ptr(lv), ptr(levp), np.int64(k),
                      np.int64(lim), on_edges, np.int64(small_edges), gs))
        else:
            for L in range(P, P + batch):
                qin, qout = (qa, qb) if L % 2 == 0 else (qb, qa)
                level_fn(grid, (256,),
                         (indptr, indices, qin, qout, st, vis, ptr(pv), ptr(lv), ptr(levp), np.int64(L),
                          np.int64(k + L + 1), np.int64(lim), on_edges, gs))
            batch = min(2 * batch, 64)
        s = cp.asnumpy(st)
        P = int(s[_ST_K])
        if s[_ST_STOP]:
            break
        small = int(s[_ST_EDG + P % 3]) <= small_edges
    return _bfs_push_result(E, G, q, parent, level, before, pv, pp, lv, lp, qa, qb, s, P, k)


def _bfs_push_result(E, G, q, parent, level, before, pv, pp, lv, lp, qa, qb, s, P, k):
    """The vectors take the kernels' arrays; returns the step's ``(q, k, nq, found, scanned, found_in)``."""
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
    found = int(s[_ST_FOUND])
    found_in = 0    # the found vertices' in-degree sum: visited now, not before
    if found and before is not None:
        visited = pp if parent is not None else lp
        found_in = int(cp.where(visited & ~before, E.degree(G, transpose=True).val, 0).sum())
    return GVec(n, q.dtype, val, pres), k + P, nq, found, int(s[_ST_SCANNED]), found_in


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
