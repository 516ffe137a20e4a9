"""Reachability (la_graph/algorithms/reachability.py): ``reach_sweep``, 64 sources a launch
(cuda/msbfs.cu).
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from ..kernels import _kernel
from ..memory import _reserve
from ..objects import _BOOL, _to_host
from ._common import _MS_LANES, _msbfs, fuses

@fuses
def reach_sweep(E, G, sources):
    # 64 sources a launch, a bit lane each, every level in the launch (cuda/msbfs.cu)
    k, n = sources.size, G.n
    _reserve(40 * n + k * n, "the multi-source search's words and queues and its reach matrix")
    out = cp.empty((k, n), _BOOL)
    unpack = _kernel("msbfs.cu", "msbfs_unpack", E._csr(E.matrix(G))[1].dtype)
    for lo in range(0, k, _MS_LANES):
        part = out[lo:lo + _MS_LANES]
        vis = _msbfs(E, G, sources[lo:lo + _MS_LANES], None, None)
        unpack((E._blocks(part.size),), (256,), (vis, np.int64(n), np.int32(part.shape[0]), part))
    return _to_host(out)
