"""PageRank (la_graph/algorithms/pagerank.py): ``pagerank_iterate``, the whole power iteration
(cuda/pagerank.cu).
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from ...base import Declined
from ..kernels import _NULL, _kernel, _next_pow2
from ..memory import _reserve, _wait
from ..objects import _F64, GVec
from ._common import fuses

#: pagerank_iterate launches this many iterations before its first host read of the
#: convergence flag, then twice as many each time up to the second number (iterations
#: past the one that converged return at once: the ranks are that one's)
PAGERANK_BATCH = (4, 32)
_PR_MODES = {"gap": 0, "uniform": 1, "p": 2, "p_d": 3}       # PR_GAP ... PR_P_D of cuda/pagerank.cu
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
    # two launches an iteration (cuda/pagerank.cu): the pull over A' that also writes the
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
        _wait()                                    # Ctrl-C can interrupt the wait; a read cannot
        state = cp.asnumpy(st)
        if state[_PR_DONE]:
            break
        batch = min(2 * batch, PAGERANK_BATCH[1])
    if variant == "graphalytics":
        return GVec(n, _F64, r, None), int(max_iter), float("nan")
    return GVec(n, _F64, r, None), int(state[_PR_ITERS]), float(state[_PR_CHANGE:_PR_CHANGE + 1].view(np.float64)[0])
