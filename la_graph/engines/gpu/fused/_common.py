"""What the GPU engine's fused steps share: the registry, :func:`fuses`, small helpers.

Each module of this package is named after the algorithm module
(``la_graph/algorithms/<name>.py``) whose steps it runs as CUDA kernels, and
its kernels are in ``cuda/<name>.cu`` (or a shared source, as ``msbfs.cu``).
Each function decorated with :func:`fuses` takes exactly the arguments of the
step of the same name (written in primitives in its algorithm module) and
returns what that step returns.  A function that cannot take its arguments
raises :class:`~la_graph.engines.base.Declined` before it changes anything,
and the step's algebra runs instead (logged and counted by the profiler).
Like the primitives, these re-raise CUDA errors as la_graph errors, and they
never write into an array a vector holds: kernels that update in place work on
private copies, which the vectors then take.
"""

from __future__ import annotations

import logging
from types import MappingProxyType

import cupy as cp
import numpy as np

from ..kernels import _NULL, _kernel
from ..memory import _device_errors
from ..objects import _I64

_FUSED = {}
log = logging.getLogger("la_graph")

#: step name -> its GPU implementation (``GPUEngine.fused_steps``)
FUSED = MappingProxyType(_FUSED)


def fuses(fn):
    """Declare ``fn`` the GPU implementation of the step of its name (CUDA errors become la_graph errors;
    work an interrupted call left running is waited for first)."""
    _FUSED[fn.__name__] = wrapped = _device_errors(fn)
    return wrapped


def _row_lengths(E, A):
    d = A._cache.get("deg")
    if d is None:
        indptr = E._csr(A)[0]
        d = A._cache["deg"] = (indptr[1:] - indptr[:-1]).astype(_I64)
    return d


def _until_unchanged(E, fn, n, args):
    """Launch ``fn`` over ``n`` threads until it leaves its changed flag (``args[-1]``, an int32) 0."""
    changed = args[-1]
    while True:
        changed.fill(0)
        fn((E._blocks(n),), (256,), args)
        if not int(changed[0]):
            return


# ---------------------------------------------------------------- multi-source bfs (cuda/msbfs.cu)
# shared by bfs.py (bfs_multi, bfs_search) and reachability.py (reach_sweep)
_MS_BLOCK, _MS_LANES = 512, 64    # msbfs_grid's threads a block (MS_BLOCK); sources a launch (bits of a word)


def _msbfs(E, G, srcs, level, parent):
    """Search from ``srcs`` (numpy int64, at most 64) in one launch of msbfs_grid; returns the visited words.

    ``level`` and ``parent`` (CuPy int64 ``len(srcs) x n`` row blocks, or None)
    get the levels and parents of the vertices found; their source entries are
    the caller's.  Word ``vis[v]`` has bit ``i`` set where ``srcs[i]`` reaches ``v``.
    """
    indptr, indices, _ = E._csr(E.matrix(G))
    n = G.n
    firsts, which = np.unique(srcs, return_inverse=True)
    words = np.zeros(firsts.size, np.uint64)
    np.bitwise_or.at(words, which, np.left_shift(np.uint64(1), np.arange(srcs.size, dtype=np.uint64)))
    vis, fr0, fr1 = cp.zeros(n, cp.uint64), cp.zeros(n, cp.uint64), cp.zeros(n, cp.uint64)
    qa, qb = cp.empty(n, _I64), cp.empty(n, _I64)
    at, w0 = cp.asarray(firsts), cp.asarray(words)
    vis[at] = w0
    fr0[at] = w0
    qa[:firsts.size] = at
    st = cp.zeros(5, cp.uint64)
    st[0] = firsts.size
    _kernel("msbfs.cu", "msbfs_grid", indices.dtype)(
        (2 * E._sms,), (_MS_BLOCK,),   # two blocks a multiprocessor, all resident: grid barriers
        (indptr, indices, np.int64(n), vis, fr0, fr1, qa, qb, st,
         level if level is not None else _NULL, parent if parent is not None else _NULL))
    return vis
