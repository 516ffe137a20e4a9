"""Colouring (la_graph/algorithms/coloring.py): ``color_classes`` as one greedy pass in priority order.

With fixed priorities the independent-set rounds give each vertex the
smallest colour none of its higher-priority neighbours has (the module notes
of the algorithm: class ``c`` is the greedy independent set of the vertices
left, so a vertex joins the first class that none of its higher-priority
neighbours joined -- Jones & Plassmann's colouring is the sequential greedy
colouring of the priority order).  So the vertices are taken by descending
priority, each marking its coloured neighbours' colours in a scratch array
(stamped with the vertex, never cleared) and taking the first colour left:
O(n log n + m), the same colours as the rounds.
"""

from __future__ import annotations

import numba
import numpy as np

from ...base import Declined
from ..objects import _numpy_views, _owning_full, _unsigned
from ._common import _drive, _need_full, fuses


@numba.njit(cache=True, nogil=True)
def first_fit(indptr, indices, order, color, seen, at, work):
    """Colour the vertices ``order[at:]`` one by one: each the smallest colour not held by a neighbour already
    coloured (``color`` -1: not yet).  ``seen[c] == v`` marks colour ``c`` taken around ``v``; ``seen`` has
    room for the largest degree + 1 colours.  Returns the place to resume at, or -1."""
    n = order.size
    done = 0
    for i in range(at, n):
        v = order[i]
        for p in range(indptr[v], indptr[v + 1]):
            c = color[indices[p]]
            if c >= 0:
                seen[c] = v
        c = 0
        while seen[c] == v:
            c += 1
        color[v] = c
        done += indptr[v + 1] - indptr[v] + 1
        if done >= work and i + 1 < n:
            return i + 1
    return -1


# ---- the fused step ----
@fuses
def color_classes(E, A, prio):
    """The colour classes as one greedy first-fit pass over the vertices by descending priority (numba)."""
    _need_full("color_classes", prio)
    n = A.nrows
    if A.ncols != n or prio.size != n:
        raise Declined("color_classes takes a square matrix and a priority vector of its size")
    indptr, indices, _ = A.to_csr()
    indptr, indices = indptr.view(np.int64), _unsigned(indices)
    with _numpy_views(prio) as (pv,):
        order = np.argsort(pv)[::-1].copy()      # descending priority (the priorities are distinct)
    color = np.full(n, -1, np.int64)
    seen = np.full(int(np.diff(indptr).max(initial=0)) + 2, -1, np.int64)
    _drive(first_fit, indptr, indices, order, color, seen)
    return _owning_full(color)
