"""Colouring (la_graph/algorithms/coloring.py): ``color_classes`` as greedy first-fit on the device (cuda/coloring.cu).
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from ...base import Declined
from ..kernels import _NULL, _kernel, _next_pow2
from ..memory import _reserve
from ..objects import _I64, GMat, GVec, _is_full
from ._common import fuses, log


@fuses
def color_classes(E, A, prio):
    # each vertex takes the first colour its higher-priority neighbours leave, as soon as they all have
    # theirs: the algebra's colour classes (the greedy pass in priority order), one launch per pass over a
    # shrinking worklist of the waiting, each resuming its row where it last waited; one host read per pass
    if not (isinstance(A, GMat) and isinstance(prio, GVec) and prio.dtype == _I64 and _is_full(prio)
            and A.nrows == A.ncols == prio.size):
        raise Declined("color_classes' kernel takes a square matrix and a full int64 priority vector of its size")
    n = prio.size
    indptr, indices, _ = E._csr(A)
    _reserve(32 * n + 64, "the colouring's colours, resume points and worklists")
    color = cp.full(n, -1, _I64)
    resume = indptr[:-1].astype(_I64)
    gs = _next_pow2(indices.size / max(n, 1))
    work, spare = cp.empty(n, _I64), cp.empty(n, _I64)
    count = cp.zeros(1, cp.uint64)
    IT, todo, nwork, passes = indices.dtype, _NULL, n, 0
    while nwork:
        count.fill(0)
        _kernel("coloring.cu", "color_first_fit", IT)(
            (E._blocks(nwork * gs),), (256,),
            (indptr, indices, prio.val, color, resume, todo, np.int64(nwork), spare, count, np.int32(gs)))
        nwork, passes = int(count[0]), passes + 1
        work, spare = spare, work
        todo = work
    log.debug("color_classes: %d passes", passes)
    return GVec(n, _I64, color)
