"""Weights mapped onto integers in their order: the packed edge keys of the minimum spanning forest.

Shared by the MSF algebra (:mod:`la_graph.algorithms.msf`) and the engines'
fused ``msf_edges`` steps; written for any array module with NumPy's semantics
(``xp``), so the GPU engine ranks the weights it holds on the device.
"""

from __future__ import annotations

import numpy as np

from .exceptions import InvalidGraphError

_INT64_MAX = np.iinfo(np.int64).max


def weight_ranks(w, nnz, xp=np):
    """How a graph's weights ``w`` (one per stored entry, ``nnz`` of them) map onto integers in their order.

    Returns ``(table, offset)``: ``table`` None means ``rank = w - offset``
    (integer-valued weights whose span times ``nnz`` fits int64: no sort);
    otherwise ``rank = table[p]`` for stored entry ``p`` (dense ranks of the
    distinct weights, an int64 array of ``xp``).  No weights (``w`` None or
    empty) give ``(None, 0)``: every rank 0.  Either way ``rank * nnz + p``
    fits int64, and equal weights get equal ranks.
    """
    if w is None or w.size == 0:
        return None, 0
    lo, hi = float(w.min()), float(w.max())
    limit = _INT64_MAX // max(nnz, 1)
    # the integer test in cache-sized chunks on the host (one temporary of the graph's size costs more)
    chunk = 1 << 20 if xp is np else w.size
    if max(-lo, hi) < 2.0**53 and hi - lo < limit and all(
            bool(xp.array_equal(c, xp.trunc(c))) for c in (w[i:i + chunk] for i in range(0, w.size, chunk))):
        return None, int(lo)
    distinct, table = xp.unique(w, return_inverse=True)
    if distinct.size > limit:  # pragma: no cover - needs ~3e9 edges
        raise InvalidGraphError(f"{nnz} stored edges are too many to key every edge in int64")
    return table.astype(np.int64, copy=False).reshape(-1), 0
