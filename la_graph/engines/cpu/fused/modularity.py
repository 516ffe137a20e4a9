"""Modularity's three sums (the step ``modularity_terms``) in one pass over the CSR (numba).

Each row ``i`` adds its entries' weights (times the level matrix's power-of-two
scale; an undirected self-loop twice) to ``k_out[i]`` and, where the other end
shares ``i``'s label, to the inside weight; a directed graph's entries add to
their column's community's in-degree sum as they go.  The community sums of
``k_out`` and the null-model product follow, all in O(n + nnz) and no matrix
built: the algebra's ``level_matrix``, masked product and two ``vxm`` read the
edges four times.  Unweighted sums are integers, exact in either order.
"""

from __future__ import annotations

import numba
import numpy as np

from ._common import _csr, _drive, fuses


@numba.njit(cache=True, nogil=True)
def _rows(indptr, indices, w, weighted, scale, loops_twice, directed, lab, sout, sin, sums, at, work):
    """Rows ``at, ...`` until about ``work`` entries: ``sums[0] +=`` inside weight, ``sums[1] +=`` total,
    ``sout[c] +=`` the rows' weights, ``sin[c] +=`` the entries' (directed); the next row, or -1."""
    n = lab.size
    done = 0
    i = at
    inside, total = 0.0, 0.0
    while i < n:
        li = lab[i]
        row = 0.0
        for e in range(indptr[i], indptr[i + 1]):
            j = indices[e]
            x = w[e] * scale if weighted else 1.0
            if loops_twice and j == i:
                x += x
            row += x
            lj = lab[j]
            if lj == li:
                inside += x
            if directed:
                sin[lj] += x
        sout[li] += row
        total += row
        done += indptr[i + 1] - indptr[i] + 1
        i += 1
        if done >= work and i < n:
            break
    sums[0] += inside
    sums[1] += total
    return i if i < n else -1


@fuses
def modularity_terms(E, G, labels, c, scale):
    """The inside weight, null-model product and total in one pass over ``G``'s CSR (no GraphBLAS call)."""
    indptr, indices, _ = _csr(G)
    weighted = G.weights is not None
    w = G.weights if weighted else np.zeros(0)
    lab = np.ascontiguousarray(labels, dtype=np.int64)
    sout = np.zeros(c)
    sin = np.zeros(c if G.directed else 0)
    sums = np.zeros(2)
    _drive(_rows, indptr, indices, w, weighted, float(scale), not G.directed, G.directed, lab, sout, sin, sums)
    null = float(sout @ (sin if G.directed else sout))
    return float(sums[0]), null, float(sums[1])
