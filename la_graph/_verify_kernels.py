"""Compiled loops of the checkers (:mod:`la_graph.verify`), imported when a check needs one.

Plain numba loops of their own: they share nothing with the engines, so a
checker built on them stays an independent reference.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(parallel=True, cache=True)
def triangle_total(indptr, indices, n, nchunks):
    """Triangles of an oriented graph (CSR; each triangle once, at its lowest corner).

    For each vertex ``a`` its out-neighbours are marked in a scratch array and
    every out-neighbour ``b`` adds its out-neighbours that are marked: work
    ``sum over edges a -> b of outdeg(b)``, no product materialised.  Vertices
    are dealt to ``nchunks`` chunks round-robin, so hubs spread over threads.
    """
    sums = np.zeros(nchunks, np.int64)
    for c in numba.prange(nchunks):
        mark = np.zeros(n, np.bool_)
        t = 0
        for a in range(c, n, nchunks):
            for p in range(indptr[a], indptr[a + 1]):
                mark[indices[p]] = True
            for p in range(indptr[a], indptr[a + 1]):
                b = indices[p]
                for q in range(indptr[b], indptr[b + 1]):
                    if mark[indices[q]]:
                        t += 1
            for p in range(indptr[a], indptr[a + 1]):
                mark[indices[p]] = False
        sums[c] = t
    return sums.sum()
