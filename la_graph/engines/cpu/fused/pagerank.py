"""PageRank's power iteration in one compiled loop: a pull over the CSR of ``A'``, the rows in chunks.

One iteration reads, for every vertex ``j``, the values ``w[k] = r[k] * scale[k]``
of its in-neighbours ``k`` (times the edge's weight when weighted), adds the
constant part ``c[j]``, and in the same pass over ``j`` measures the L1
change, writes ``w``'s next values (a second buffer: the one being read
stays intact) and sums the rank of the dangling vertices for the next
constant part.  ``r`` is updated in place (only row ``j`` reads ``r[j]``).

The rows are cut into chunks of about equal work (rows plus edges): the
chunks run in parallel (``prange``) or one after the other, and each keeps
its own partial sums of the change and the dangling rank, added in chunk
order afterwards -- the same numbers either way.

A call runs as many iterations as its caller allows (``max_iter``) and
returns what the next call needs: the caller keeps each call to a bounded
amount of work, so that an interrupt (Ctrl-C) takes effect between calls.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange

from ..objects import _owning_full
from ._common import _csr, _drive, fuses

#: how the constant part ``c`` of an iteration is made (``lost``: the rank on dangling vertices)
CONST_GAP = 0        # c = (1 - alpha) / n
CONST_UNIFORM = 1    # c = (1 - alpha + alpha lost) / n
CONST_P = 2          # c = p (1 - alpha + alpha lost)
CONST_P_D = 3        # c = p (1 - alpha) + d (alpha lost)


@numba.njit(cache=True, nogil=True)
def out_weights(indptr, weights, s):
    """Into ``s`` every row's sum of weights, summed in row order (0.0 for an empty row)."""
    for k in range(s.size):
        acc = 0.0
        for e in range(indptr[k], indptr[k + 1]):
            acc += weights[e]
        s[k] = acc


@numba.njit(cache=True, nogil=True)
def chunk_bounds(indptr, n, bounds):
    """Into ``bounds`` (``chunks + 1``) row bounds cutting ``0..n`` into chunks of about equal ``rows + edges``."""
    chunks = bounds.size - 1
    total = n + np.int64(indptr[n])
    bounds[0] = 0
    j = 0
    for c in range(1, chunks):
        target = total * c // chunks
        while j < n and j + np.int64(indptr[j]) < target:
            j += 1
        bounds[c] = j
    bounds[chunks] = n


@numba.njit(nogil=True, inline="always")
def _rows(lo, hi, tptr, tind, tw, weighted, scale, dangling, p, d, mode, cst, cst_d, r, w, w_next):
    """Rows ``lo..hi`` of one iteration: ``(L1 change, rank on dangling vertices)`` of those rows."""
    change = 0.0
    lost = 0.0
    for j in range(lo, hi):
        acc = 0.0
        if weighted:
            for e in range(tptr[j], tptr[j + 1]):
                acc += tw[e] * w[tind[e]]
        else:
            for e in range(tptr[j], tptr[j + 1]):
                acc += w[tind[e]]
        if mode <= CONST_UNIFORM:
            x = cst + acc
        elif mode == CONST_P:
            x = p[j] * cst + acc
        else:
            x = (p[j] * cst + d[j] * cst_d) + acc
        change += abs(x - r[j])
        r[j] = x
        w_next[j] = x * scale[j]
        if dangling[j]:
            lost += x
    return change, lost


@numba.njit(cache=True, nogil=True)
def start(s, alpha, r, scale, dangling, w):
    """What :func:`iterate` carries from call to call, made from ``r`` into ``scale``, ``dangling``, ``w``.

    ``scale = alpha / s`` where ``s`` is nonzero (the algebra's value mask), 0
    where dangling; ``w = r * scale``.  Returns the rank on dangling vertices.
    """
    n = r.size
    lost = 0.0
    for k in range(n):
        if s[k] != 0:
            scale[k] = (1.0 / s[k]) * alpha
            dangling[k] = False
        else:
            scale[k] = 0.0
            dangling[k] = True
            lost += r[k]
        w[k] = r[k] * scale[k]
    return lost


@numba.njit(cache=True, nogil=True, parallel=True)
def iterate(tptr, tind, tw, p, d, mode, alpha, max_iter, threshold, bounds, parallel, r, scale, dangling, W, state,
            count, at, work):
    """Iterate from ``r`` (updated in place) until the L1 change is below ``threshold`` or ``max_iter`` times.

    ``tw``: the weights of ``A'`` in its CSR order (empty: unweighted);
    ``p``, ``d``: the jump and dangling distributions (``mode`` says which are
    read); ``bounds``: the chunks' row bounds; ``parallel``: the chunks in
    parallel.  ``scale``, ``dangling``: as :func:`start` made them; ``W``
    (2 x n): ``w`` in row ``at % 2`` (from :func:`start` at 0), the next
    ``w`` written into the other row; ``state``: ``(last change, lost)``,
    float64, as the last call left them; ``count[0]``: iterations run.
    ``at``: the iterations run before this call, which runs those of about
    ``work`` edges (at least one) and returns the iterations run so far, or
    -1 once done (an interrupt takes effect between calls).
    """
    n = r.size
    chunks = bounds.size - 1
    weighted = tw.size > 0
    if at >= max_iter:
        return -1
    part_change = np.empty(chunks)
    part_lost = np.empty(chunks)
    change = state[0]
    lost = state[1]
    w = W[at % 2]
    w_next = W[1 - at % 2]
    it = at
    stop = min(max_iter, at + max(1, work // (n + tptr.size + tind.size)))
    while it < stop:
        it += 1
        cst_d = 0.0
        if mode == CONST_GAP:
            cst = (1.0 - alpha) / n
        elif mode == CONST_UNIFORM:
            cst = (1.0 - alpha + alpha * lost) / n
        elif mode == CONST_P:
            cst = 1.0 - alpha + alpha * lost
        else:
            cst = 1.0 - alpha
            cst_d = alpha * lost
        if parallel:
            for c in prange(chunks):
                part_change[c], part_lost[c] = _rows(bounds[c], bounds[c + 1], tptr, tind, tw, weighted, scale,
                                                     dangling, p, d, mode, cst, cst_d, r, w, w_next)
        else:
            for c in range(chunks):
                part_change[c], part_lost[c] = _rows(bounds[c], bounds[c + 1], tptr, tind, tw, weighted, scale,
                                                     dangling, p, d, mode, cst, cst_d, r, w, w_next)
        change = 0.0
        lost = 0.0
        for c in range(chunks):
            change += part_change[c]
            lost += part_lost[c]
        w, w_next = w_next, w
        if change < threshold:
            break
    state[0] = change
    state[1] = lost
    count[0] = it
    return -1 if change < threshold or it >= max_iter else it


# ---- the fused steps ----
#: pagerank_iterate runs its chunks of rows in parallel from this many stored entries on; below, on one
#: thread: a parallel region (numba, OpenMP) costs ~40 us an iteration on the 2-core machine.  Serial
#: against parallel, per iteration: facebook (88 k) 46 / 85 us, R-MAT 14 (228 k) 179 / 188 us,
#: cit-HepPh (422 k) 510 / 460 us, R-MAT 16 (955 k) 1.40 / 0.93 ms, soc-Slashdot0902 1.36 / 1.18 ms
PAGERANK_PARALLEL_MIN_NNZ = 1 << 18

#: ... in this many chunks of about equal work (rows plus edges), whatever the number of threads:
#: the chunks' partial sums are added in chunk order, so the ranks do not depend on the threads
PAGERANK_CHUNKS = 64


def _pagerank_arrays(G, weighted):
    """What :func:`pagerank_iterate` hands the loop for ``G`` (cached): the CSR of ``A'`` (its weights or an
    empty array), ``s`` (out-degrees or out-weights, float64) and the chunks' row bounds."""
    key = ("cpu", "pagerank", weighted)
    arrays = G._engine_cache.get(key)
    if arrays is None:
        T = G.T
        tptr, tind, _ = _csr(T)
        if weighted:
            tw, s = T.weights, np.empty(G.n)
            out_weights(G.indptr, G.weights, s)
        else:
            tw, s = np.empty(0), G.out_degree.astype(np.float64)
        parallel = G.nnz >= PAGERANK_PARALLEL_MIN_NNZ
        bounds = np.empty((PAGERANK_CHUNKS if parallel else 1) + 1, np.int64)
        chunk_bounds(tptr, G.n, bounds)
        arrays = G._engine_cache[key] = (tptr, tind, tw, s, bounds, parallel)
    return arrays


_NO_VALUES = np.empty(0)


@fuses
def pagerank_iterate(E, G, weighted, alpha, p, d, variant, max_iter, tol):
    """The whole power iteration in one numba loop, pulling over the CSR of ``A'`` (no GraphBLAS call)."""
    n = G.n
    tptr, tind, tw, s, bounds, parallel = _pagerank_arrays(G, weighted)
    if variant == "gap":
        mode = CONST_GAP
    elif p is None and d is None:
        mode = CONST_UNIFORM
    elif d is None:
        mode = CONST_P
    else:
        mode = CONST_P_D
    pa = _NO_VALUES if p is None and d is None else np.ascontiguousarray(p if p is not None else np.full(n, 1.0 / n),
                                                                       np.float64)
    da = _NO_VALUES if d is None else np.ascontiguousarray(d, np.float64)
    threshold = {"networkx": n * tol, "gap": tol}.get(variant, -np.inf)
    r = np.full(n, 1.0 / n)
    scale, dangling, W = np.empty(n), np.empty(n, bool), np.empty((2, n))
    state = np.array([np.inf, start(s, float(alpha), r, scale, dangling, W[0])])   # change, lost
    count = np.zeros(1, np.int64)
    _drive(iterate, tptr, tind, tw, pa, da, mode, float(alpha), int(max_iter), float(threshold), bounds, parallel, r,
           scale, dangling, W, state, count)
    return _owning_full(r), int(count[0]), (float("nan") if variant == "graphalytics" else float(state[0]))
