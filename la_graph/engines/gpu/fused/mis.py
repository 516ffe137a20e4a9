"""Maximal independent set (la_graph/algorithms/mis.py): ``vertex_priorities`` and ``luby`` (cuda/mis.cu).
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from .... import _random
from ...base import Declined
from ..kernels import _NULL, _kernel, _next_pow2
from ..memory import _reserve
from ..objects import _BOOL, _I64, GMat, GVec, _is_full
from ._common import fuses, log

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
    # the greedy set of the priorities, vertices deciding in any order (cuda/mis.cu): one
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
