"""Triangles (la_graph/algorithms/triangles.py): ``triangle_total`` and ``vertex_triangles``
(cuda/triangles.cu).
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from ..kernels import _NULL, _kernel
from ..memory import _reserve, _wait
from ..objects import _I64, GVec
from ._common import fuses

def _later_neighbours(E, S):
    """``(ptr, ind, rows)`` of the edges of ``S`` oriented by degree (ascending, ties by id), on the device."""
    indptr, indices, _ = E._csr(E.matrix(S))
    n, nnz = S.n, int(indices.size)
    _reserve(nnz * (17 + indices.itemsize) + 16 * n + 64, f"the {nnz // 2:,} edges oriented by degree")
    deg = (indptr[1:] - indptr[:-1]).astype(_I64)
    rank = cp.empty(n, _I64)
    rank[cp.argsort(deg)] = cp.arange(n, dtype=_I64)        # any total order counts the same triangles
    rows = cp.searchsorted(indptr[1:], cp.arange(nnz, dtype=indptr.dtype), side="right").astype(_I64)
    keep = rank[rows] < rank[indices]                         # self-loops: never later than themselves
    rows, ind = rows[keep], indices[keep]                     # still sorted within each row
    ptr = cp.zeros(n + 1, _I64)
    ptr[1:] = cp.cumsum(cp.bincount(rows, minlength=n))
    return ptr, ind, rows


def _triangles(E, S, per_vertex):
    ptr, ind, rows = _later_neighbours(E, S)
    total = cp.zeros(1, cp.uint64)
    tv = cp.zeros(S.n, cp.uint64) if per_vertex else None
    if rows.size:
        _kernel("triangles.cu", "tc_edges", ind.dtype)(
            (E._blocks(rows.size),), (256,),
            (ptr, ind, rows, np.int64(rows.size), total, _NULL if tv is None else tv))
    return total, tv


@fuses
def triangle_total(E, S):
    total, _ = _triangles(E, S, False)
    _wait()                  # Ctrl-C can interrupt the wait; a read cannot
    return int(total[0])


@fuses
def vertex_triangles(E, S):
    _, tv = _triangles(E, S, True)
    return GVec(S.n, _I64, tv.view(_I64))
