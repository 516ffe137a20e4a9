"""Betweenness centrality (la_graph/algorithms/betweenness.py): ``brandes_sources``, one persistent
launch a batch of sources (cuda/betweenness.cu).
"""

from __future__ import annotations

import logging

import cupy as cp
import numpy as np

from ....exceptions import InvalidArgumentError, NumericRangeError
from ...base import Declined
from ..kernels import _kernel, _next_pow2
from ..memory import _free_device_bytes, _reserve, _wait
from ..objects import _F64, _I32, _I64, GVec, _is_full
from ._common import _row_lengths, fuses, log

#: Brandes' persistent kernel: rows longer than BC_BIG_ROW edges are cut into chunks of
#: BC_CHUNK for the grid's warps (a hub does not hold a level up)
BC_BIG_ROW = 1024
BC_CHUNK = 1024
#: cuda/betweenness.cu's BC_SPREAD, the algebra's COUNT_SPREAD: the largest binary-exponent spread of one source's
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
    if n > np.iinfo(np.int32).max:        # a level can be as large as n - 1
        raise Declined("brandes_sources' kernel keeps BFS levels in int32 (at most 2**31 - 1 vertices)")
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
    ent = cp.zeros(2 * N, _F64)                          # (sigma, level) entries of 16 bytes (betweenness.cu)
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
    _kernel("betweenness.cu", "bc_batch", indices.dtype, VT)(
        (blocks,), (_BC_BLOCK,),
        (indptr, indices, np.int64(n), np.int64(b), lev, sig, q, offs[:n + 2], offs[n + 2:2 * n + 4], offs[2 * n + 4:],
         hq, hsum, ch_h, ch_p, acc, st, bar, np.int64(BC_BIG_ROW), np.int32(max(int(BC_CHUNK), 1)), np.int32(gs),
         ex))
    _wait()                                              # Ctrl-C can interrupt the wait; a read cannot
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
