"""Core numbers (la_graph/algorithms/kcore.py): ``core_peel``, the whole peeling in one persistent
launch (cuda/kcore.cu).
"""

from __future__ import annotations

import logging

import cupy as cp
import numpy as np

from ...base import Declined
from ..kernels import _NULL, _kernel, _next_pow2
from ..memory import _reserve, _wait
from ..objects import _I64, GVec
from ._common import fuses, log

_KC_BLOCK = 512     # threads a block (KC_BLOCK of cuda/kcore.cu)
_KC_SPREAD = 4      # live vertices a thread in the level scans: n / (4 * 512) blocks, 2 a multiprocessor at most
_KC_CHUNK = 16      # a queue entry holds at most this many row entries a lane
_KC_ST = {"pieces": 0, "levels": 7, "rounds": 8, "compactions": 9}


@fuses
def core_peel(E, G):
    # the whole peeling in one persistent launch (cuda/kcore.cu): levels and their rounds behind grid
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
        _wait()
        s = cp.asnumpy(st)
        log.debug("core_peel: %d blocks, gs %d, chunk %d: %s", blocks, gs, chunk,
                  {k: int(s[i]) for k, i in _KC_ST.items()})
    return GVec(n, _I64, core, None)
