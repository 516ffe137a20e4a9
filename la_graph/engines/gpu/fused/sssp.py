"""Single-source shortest paths (la_graph/algorithms/sssp.py): ``sssp_relax`` and
``sssp_delta_stepping`` (cuda/sssp.cu).
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from ....exceptions import LaGraphError
from ...base import Declined
from ..kernels import _NULL, _kernel, _next_pow2
from ..memory import _reserve, _wait
from ..objects import _F64, _I64, GMat, GVec, _is_full
from ._common import fuses, log

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
    # Every bucket from `bucket` on in one launch of a persistent kernel (cuda/sssp.cu,
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
    _wait()                  # Ctrl-C can interrupt the wait for the persistent launch; a read cannot
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
