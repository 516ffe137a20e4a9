"""HITS' power iteration in one compiled loop: two pulls, over the CSR of ``A'`` and of ``A``, the rows in chunks.

One iteration is three passes over the vertices, each cut into chunks of rows:

1. ``a[j] = sum of h[i]`` over the in-neighbours ``i`` of ``j`` (the CSR of
   ``A'``; times the edge's weight when weighted), each chunk keeping the
   largest ``a[j]`` it wrote;
2. ``h'[i] = sum of a[j] / max(a)`` over the out-neighbours ``j`` of ``i``
   (the CSR of ``A``): ``a`` is not rescaled in a pass of its own, each read
   is multiplied by ``1 / max(a)`` -- the algebra's scaled value to the bit --
   and each chunk keeps the largest ``h'[i]``;
3. ``h'[i] / max(h')`` replaces ``h[i]`` in place, the chunk adding up
   ``|h' - h|`` as it goes.

The maxima are the algebra's exactly (a maximum does not depend on the order);
each row's sum is added in CSR order, as SuiteSparse's dot product adds it, so
``h`` and ``a`` are the algebra's to the bit.  The change is added per chunk
and the chunks' sums in chunk order: another order than the algebra's, so it
may differ in its last bits (the same in parallel or on one thread).

A call runs as many iterations as its caller allows (about ``work`` edges) and
returns where it stopped: an interrupt (Ctrl-C) takes effect between calls.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange

from ..objects import _owning_full
from ._common import _csr, _drive, fuses
from .pagerank import chunk_bounds


@numba.njit(nogil=True, inline="always")
def _pull(lo, hi, ptr, ind, wts, weighted, x, scale, y):
    """Rows ``lo..hi`` of ``y = M (x * scale)`` (``M``'s CSR ``ptr, ind, wts``): the largest ``y`` written (0.0
    when none is positive)."""
    top = 0.0
    for r in range(lo, hi):
        acc = 0.0
        if weighted:
            for e in range(ptr[r], ptr[r + 1]):
                acc += wts[e] * (x[ind[e]] * scale)
        else:
            for e in range(ptr[r], ptr[r + 1]):
                acc += x[ind[e]] * scale
        y[r] = acc
        if acc > top:
            top = acc
    return top


@numba.njit(nogil=True, inline="always")
def _rescale(lo, hi, y, scale, h):
    """Rows ``lo..hi``: ``h = y * scale`` in place; the L1 change of those rows."""
    change = 0.0
    for r in range(lo, hi):
        x = y[r] * scale
        change += abs(x - h[r])
        h[r] = x
    return change


@numba.njit(nogil=True, inline="always")
def _scale_of(top):
    """What a vector whose maximum is ``top`` is multiplied by: ``1 / top``, or 1 (kept as is) when not positive."""
    return 1.0 / top if top > 0 else 1.0


@numba.njit(nogil=True, parallel=True)
def _pulls(bounds, ptr, ind, wts, weighted, x, scale, y, parallel, part):
    """``y = M (x * scale)`` chunk by chunk (in parallel with ``parallel``), each chunk's largest ``y`` in
    ``part``: the largest ``y`` of all (0.0 when none is positive)."""
    chunks = bounds.size - 1
    if parallel:
        for c in prange(chunks):
            part[c] = _pull(bounds[c], bounds[c + 1], ptr, ind, wts, weighted, x, scale, y)
    else:
        for c in range(chunks):
            part[c] = _pull(bounds[c], bounds[c + 1], ptr, ind, wts, weighted, x, scale, y)
    top = 0.0
    for c in range(chunks):
        top = max(top, part[c])
    return top


@numba.njit(cache=True, nogil=True, parallel=True)
def iterate(ptr, ind, wts, tptr, tind, twts, bounds, tbounds, parallel, max_iter, tol, h, a, y, state, count, at,
            work):
    """Iterate from hubs ``h`` (updated in place) until their L1 change is below ``tol`` or ``max_iter`` times.

    ``ptr, ind, wts``: the CSR of ``A`` (``wts`` empty: unweighted);
    ``tptr, tind, twts``: that of ``A'``; ``bounds``, ``tbounds``: the chunks'
    row bounds of each; ``parallel``: the chunks in parallel.  ``a``: the
    authorities before scaling, ``y``: scratch for ``h'``; ``state``:
    ``(last change, 1 / max(a))``; ``count[0]``: iterations run.  ``at``: the
    iterations run before this call, which runs those of about ``work`` edges
    (at least one) and returns the iterations run so far, or -1 once done.
    """
    n = h.size
    weighted = wts.size > 0
    chunks = bounds.size - 1
    tchunks = tbounds.size - 1
    if at >= max_iter:
        return -1
    part = np.empty(max(chunks, tchunks))
    change = state[0]
    ascale = state[1]
    it = at
    stop = min(max_iter, at + max(1, work // (2 * (n + ind.size))))
    while it < stop:
        it += 1
        # 1. a = A' h, and its maximum
        ascale = _scale_of(_pulls(tbounds, tptr, tind, twts, weighted, h, 1.0, a, parallel, part))
        # 2. h' = A (a / max(a)), and its maximum
        hscale = _scale_of(_pulls(bounds, ptr, ind, wts, weighted, a, ascale, y, parallel, part))
        # 3. h = h' / max(h'), and the change
        if parallel:
            for c in prange(chunks):
                part[c] = _rescale(bounds[c], bounds[c + 1], y, hscale, h)
        else:
            for c in range(chunks):
                part[c] = _rescale(bounds[c], bounds[c + 1], y, hscale, h)
        change = 0.0
        for c in range(chunks):
            change += part[c]
        if change < tol:
            break
    state[0] = change
    state[1] = ascale
    count[0] = it
    return -1 if change < tol or it >= max_iter else it


@numba.njit(cache=True, nogil=True)
def _times(x, scale):
    """``x * scale`` in place."""
    for k in range(x.size):
        x[k] *= scale


# ---- the fused step ----
#: hits_iterate runs its chunks of rows in parallel from this many stored entries on; below, on one thread
#: (a parallel region costs tens of microseconds on the 2-core machine; as pagerank_iterate's)
HITS_PARALLEL_MIN_NNZ = 1 << 18

#: ... in this many chunks of about equal work (rows plus edges), whatever the number of threads: the chunks'
#: partial changes are added in chunk order, so the result does not depend on the threads
HITS_CHUNKS = 64

_NO_VALUES = np.empty(0)


def _hits_arrays(G, weighted):
    """What :func:`hits_iterate` hands the loop for ``G`` (cached): the CSR of ``A`` and of ``A'`` (their weights,
    or empty arrays), each one's chunks' row bounds, and whether the chunks run in parallel."""
    key = ("cpu", "hits", weighted)
    arrays = G._engine_cache.get(key)
    if arrays is None:
        T = G.T
        ptr, ind, _ = _csr(G)
        tptr, tind, _ = _csr(T)
        wts, twts = (G.weights, T.weights) if weighted else (_NO_VALUES, _NO_VALUES)
        parallel = G.nnz >= HITS_PARALLEL_MIN_NNZ
        chunks = HITS_CHUNKS if parallel else 1
        bounds, tbounds = np.empty(chunks + 1, np.int64), np.empty(chunks + 1, np.int64)
        chunk_bounds(ptr, G.n, bounds)
        chunk_bounds(tptr, G.n, tbounds)
        arrays = G._engine_cache[key] = (ptr, ind, wts, tptr, tind, twts, bounds, tbounds, parallel)
    return arrays


@fuses
def hits_iterate(E, G, weighted, h0, max_iter, tol):
    """The whole power iteration in one numba loop, two pulls an iteration (no GraphBLAS call)."""
    arrays = _hits_arrays(G, weighted)
    h = np.array(h0, dtype=np.float64, order="C")            # updated in place
    a, y = np.empty(G.n), np.empty(G.n)
    state = np.array([np.nan, 1.0])                           # last change, 1 / max(a)
    count = np.zeros(1, np.int64)
    _drive(iterate, *arrays, int(max_iter), float(tol), h, a, y, state, count)
    _times(a, state[1])
    return _owning_full(h), _owning_full(a), int(count[0]), float(state[0])
