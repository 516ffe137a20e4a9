"""Connected components (la_graph/algorithms/connected_components.py): ``fastsv_round``
(cuda/fastsv.cu) and ``component_labels`` (Afforest, cuda/connected_components.cu).
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from ....exceptions import InvalidArgumentError
from ...base import Declined
from ..kernels import _NULL, _kernel, _next_pow2
from ..memory import _reserve
from ..objects import _I32, _I64, GMat, GVec, _is_full
from ._common import fuses

@fuses
def fastsv_round(E, A, f, gp, mngp):
    vecs = (f, gp, mngp)
    if not isinstance(A, GMat) or any(not isinstance(v, GVec) for v in vecs):
        raise Declined("fastsv_round's kernels take a gpu-engine matrix and vectors")
    if len({v.dtype for v in vecs}) != 1 or f.dtype not in (_I32, _I64):
        raise Declined("fastsv_round's kernels take f, gp and mngp of one dtype, int32 or int64")
    if not all(_is_full(v) for v in vecs):
        raise Declined("fastsv_round's kernels need full vectors")
    n = f.size
    if A.nrows != n or A.ncols != n or gp.size != n or mngp.size != n:
        raise InvalidArgumentError("fastsv_round: A must be n x n and f, gp, mngp of length n")
    if n == 0:
        return f, gp, False
    indptr, indices, _ = E._csr(A)
    IT, VT = indices.dtype, f.dtype
    gs = _next_pow2(indices.size / n)
    mngp_new = cp.empty(n, VT)
    _kernel("fastsv.cu", "fastsv_mngp", IT, VT)(
        (E._blocks(n * gs),), (256,), (indptr, indices, gp.val, mngp.val, mngp_new, np.int64(n), np.int32(gs)))
    fn = f.val.copy()
    _kernel("fastsv.cu", "fastsv_hook", VT)(
        (E._blocks(n),), (256,), (f.val, gp.val, mngp_new, fn, np.int64(n)))
    gp_new = cp.empty(n, VT)
    changed = cp.zeros(1, np.int32)
    _kernel("fastsv.cu", "fastsv_gp", VT)((E._blocks(n),), (256,), (fn, gp.val, gp_new, np.int64(n), changed))
    f.val, f.pres = fn, None
    gp.val, gp.pres = gp_new, None
    mngp.val, mngp.pres = mngp_new, None
    return f, gp, bool(int(changed[0]))


_CC_ROUNDS = 2          # Afforest's sampled neighbours per vertex
_CC_CHUNK = 4096        # rows with more edges left are linked in pieces of this many, a block each


@fuses
def component_labels(E, G):
    """Afforest's sampled union-find (cuda/connected_components.cu), one launch sequence, no host round trip."""
    if G.directed:
        raise Declined("component_labels' union-find needs the symmetric CSR of an undirected graph")
    n = G.n
    indptr, indices, _ = E._csr(E.matrix(G))
    IT, VT = indices.dtype, E._itype(n)
    nn = np.int64(n)
    cap = 2 * (int(indices.size) // _CC_CHUNK) + 2       # queue pieces: fewer than 2 * edges / chunk
    _reserve(n * (VT.itemsize + 8) + 16 * cap + 16, f"the union-find of {n:,} vertices")
    f = cp.arange(n, dtype=VT)
    out = f if VT == _I64 else cp.empty(n, _I64)
    if n == 0:
        return GVec(0, _I64, out, None)
    grid, block = (E._blocks(n),), (256,)
    compress = _kernel("connected_components.cu", "cc_compress", VT)
    sample = _kernel("connected_components.cu", "cc_sample", IT, VT)
    for r in range(_CC_ROUNDS):
        sample(grid, block, (indptr, indices, f, nn, np.int32(r)))
        compress(grid, block, (f, _NULL, nn))
    state = cp.empty(2, _I64)                            # chunks queued, giant root
    queue = cp.empty(2 * cap, _I64)
    _kernel("connected_components.cu", "cc_giant", VT)((1,), (1024,), (f, nn, state))
    chunk = np.int64(_CC_CHUNK)
    _kernel("connected_components.cu", "cc_link_rest", IT, VT)(
        grid, block, (indptr, indices, f, nn, np.int32(_CC_ROUNDS), state, queue, chunk))
    _kernel("connected_components.cu", "cc_link_chunks", IT, VT)(
        (4 * E._sms,), block, (indptr, indices, f, state, queue, chunk))
    compress(grid, block, (f, out if out is not f else _NULL, nn))
    return GVec(n, _I64, out, None)
