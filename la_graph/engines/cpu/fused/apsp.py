"""Compiled loops of the CPU engine's all-pairs shortest paths (numba).

:func:`fw_rounds` is the blocked ("three-phase") Floyd-Warshall of Venkataraman,
Sahni & Mukhopadhyaya (2003) -- the scheme of Katz & Kider's GPU version -- in the
min-plus semiring on a dense float64 matrix, in place.  The matrix is cut into
``T x T`` tiles; round ``K`` runs the ``T`` pivots ``k`` of tile column/row ``K``:

1. the diagonal ("primary") tile ``(K, K)``: plain Floyd-Warshall on it alone;
2. the tiles of row ``K`` and of column ``K``: each needs only itself and the
   primary tile (parallel over tiles);
3. every other tile ``(I, J)``: ``D[I, J] = min(D[I, J], D[I, K] (min.+) D[K, J])``,
   a min-plus matrix product of two tiles finished in phase 2 (parallel over
   tiles; the bulk of the work).

Phase 3 reads column block ``K`` and row block ``K`` from packed copies (panels)
and updates four rows per sweep over a tile's columns, which lets LLVM vectorize
the column loop with one load of ``D[k, j]`` per four updates.

A negative cycle shows as ``D[v, v] < 0``.  Every cycle is closed, with all its
intermediate vertices already pivots, when phase 1 of the round holding its
largest vertex ends, so checking the primary tile's diagonal after phase 1 finds
every negative cycle in time (before values can run off to ``-inf``).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange
from graphblas import Matrix

from ..objects import _unsigned
from ._common import _drive, fuses

#: tile size of the blocked Floyd-Warshall: three 64 x 64 float64 tiles (96 KiB)
#: stay in L2 and a tile row in L1; fastest of 32/64/128 on an AMD EPYC (AVX2)
TILE = 64

_INF = np.inf


@numba.njit(inline="always")
def _row_min_plus(D, i, a, R, k, j0, j1):
    """``D[i, j] = min(D[i, j], a + R[k, j])`` for ``j`` in ``j0..j1-1``."""
    for j in range(j0, j1):
        t = a + R[k, j]
        d = D[i, j]
        D[i, j] = t if t < d else d


@numba.njit(cache=True, nogil=True)
def _fw_tile(D, i0, i1, j0, j1, k0, k1):
    """Pivots ``k0..k1-1`` in order over rows ``i0..i1-1`` and columns ``j0..j1-1`` (phases 1 and 2)."""
    for k in range(k0, k1):
        for i in range(i0, i1):
            a = D[i, k]
            if a != _INF:
                _row_min_plus(D, i, a, D, k, j0, j1)


@numba.njit(cache=True, nogil=True)
def _minplus_tile(D, C, R, i0, i1, j0, j1, kn):
    """``D[i, j] = min(D[i, j], min_k C[i, k] + R[k, j])`` over a tile (phase 3).

    ``C`` (n x kn) and ``R`` (kn x n) are packed copies of the pivot columns and rows.
    """
    i = i0
    while i + 3 < i1:
        for k in range(kn):
            a0 = C[i, k]
            a1 = C[i + 1, k]
            a2 = C[i + 2, k]
            a3 = C[i + 3, k]
            if a0 == _INF and a1 == _INF and a2 == _INF and a3 == _INF:
                continue
            for j in range(j0, j1):
                b = R[k, j]
                t = a0 + b
                d = D[i, j]
                D[i, j] = t if t < d else d
                t = a1 + b
                d = D[i + 1, j]
                D[i + 1, j] = t if t < d else d
                t = a2 + b
                d = D[i + 2, j]
                D[i + 2, j] = t if t < d else d
                t = a3 + b
                d = D[i + 3, j]
                D[i + 3, j] = t if t < d else d
        i += 4
    while i < i1:
        for k in range(kn):
            a = C[i, k]
            if a != _INF:
                _row_min_plus(D, i, a, R, k, j0, j1)
        i += 1


@numba.njit(cache=True, nogil=True, parallel=True)
def fw_rounds(D, T, C, R, cycle, K0, work):
    """Rounds from ``K0`` on of the blocked Floyd-Warshall in place on the C-contiguous float64 square matrix ``D``.

    All rounds (``0 .. ceil(n / T) - 1``) in order make the whole algorithm; a
    call runs those of about ``work`` edges' time (at least one) and returns
    the next round, or -1 once done (the caller calls again: an interrupt
    takes effect between calls).  ``C`` (n x T) and ``R`` (T x n) are
    scratch.  ``cycle[0]`` is left -1, or set to a vertex ``v`` with ``D[v,
    v] < 0`` (it lies on a closed walk of negative weight; then done, ``D``
    left part way).
    """
    n = D.shape[0]
    nb = (n + T - 1) // T
    # rounds a call: a round is n^2 T vectorized min-plus updates, ~16 to an edge's time (2e9 a second, 2 cores)
    K1 = min(nb, K0 + max(1, work * 16 // (n * n * T + 1)))
    for K in range(K0, K1):
        k0 = K * T
        k1 = min(n, k0 + T)
        kn = k1 - k0
        _fw_tile(D, k0, k1, k0, k1, k0, k1)                      # phase 1
        for v in range(k0, k1):
            if D[v, v] < 0:
                cycle[0] = v
                return -1
        for b in prange(2 * nb):                                 # phase 2
            B = b // 2
            if B != K:
                b0 = B * T
                b1 = min(n, b0 + T)
                if b % 2 == 0:
                    _fw_tile(D, k0, k1, b0, b1, k0, k1)
                else:
                    _fw_tile(D, b0, b1, k0, k1, k0, k1)
        for i in prange(n):                                      # panels of the pivots
            for k in range(kn):
                C[i, k] = D[i, k0 + k]
        for k in prange(kn):
            for j in range(n):
                R[k, j] = D[k0 + k, j]
        for t in prange(nb * nb):                                # phase 3
            I = t // nb
            J = t - I * nb
            if I != K and J != K:
                i0 = I * T
                j0 = J * T
                _minplus_tile(D, C, R, i0, min(n, i0 + T), j0, min(n, j0 + T), kn)
    return K1 if K1 < nb else -1


@numba.njit(cache=True, nogil=True, parallel=True)
def dense_from_csr(indptr, indices, weights, D):
    """Into ``D`` (n x n float64) the matrix of a CSR graph: its weights (1 where ``weights`` is empty),
    ``inf`` where there is no edge, ``min(0, self-loop)`` on the diagonal."""
    n = D.shape[0]
    for i in prange(n):
        for j in range(n):
            D[i, j] = _INF
        D[i, i] = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            w = weights[p] if weights.size else 1.0
            j = indices[p]
            if w < D[i, j]:
                D[i, j] = w


# ---- the fused steps ----
@fuses
def floyd_warshall(E, G):
    """Blocked (tiled) Floyd-Warshall on a numpy matrix that then becomes the result without a copy."""
    n = G.n
    w = G.weights if G.weights is not None else np.empty(0)
    D = np.empty((n, n))
    dense_from_csr(G.indptr, _unsigned(G.indices), w, D)
    T = TILE
    cycle = np.full(1, -1, np.int64)
    _drive(fw_rounds, D, T, np.empty((n, T)), np.empty((T, n)), cycle)
    M = Matrix(np.float64, n, n)
    M.ss.pack_fullr(D, take_ownership=True)  # the numpy array becomes the matrix: no copy
    return M, int(cycle[0])
