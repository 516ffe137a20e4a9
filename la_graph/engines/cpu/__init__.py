"""The CPU engine: the operator interface on python-graphblas (SuiteSparse:GraphBLAS).

The only package of la_graph that imports graphblas.  Vectors and matrices are
``graphblas.Vector`` / ``graphblas.Matrix`` objects.

* :mod:`.primitives`: :class:`CPUEngine`, the primitives;
* :mod:`.objects`: GraphBLAS types, vectors lent to numba as numpy arrays, graph matrices;
* :mod:`.fused`: the algebraic steps the engine runs as one compiled loop each
  (``CPUEngine.fused_steps``), one module per algorithm (``fused.bfs``,
  ``fused.sssp``, ...) holding its steps and their numba kernels.
"""

from __future__ import annotations

import os

# SuiteSparse runs OpenMP; by default idle OpenMP threads spin.  Where cores are
# shared (VMs, CI runners, a busy laptop) spinning threads steal the core the
# working thread needs: one SpMV ran 3x slower with 2 spinning threads than with
# one thread.  Sleeping idle threads cost a few microseconds per parallel call
# instead.  Only a default: a user's own OMP_WAIT_POLICY wins, and it must be set
# before the OpenMP runtime starts, i.e. before graphblas is imported.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from .objects import graph_to_graphblas, graphblas_to_scipy  # noqa: E402  (graphblas: after the policy)
from .primitives import CPUEngine  # noqa: E402

__all__ = ["CPUEngine", "graph_to_graphblas", "graphblas_to_scipy", "THREADS_ENV"]

#: the environment variable that sets the engine's threads: SuiteSparse:GraphBLAS's
#: (``graphblas.ss.config["nthreads"]``) and the parallel numba kernels' (``numba.set_num_threads``)
THREADS_ENV = "LA_GRAPH_NUM_THREADS"


def _threads_from_env():
    raw = os.environ.get(THREADS_ENV)
    if raw is None or raw.strip() == "":
        return
    from ...exceptions import InvalidArgumentError

    try:
        k = int(raw)
    except ValueError:
        k = 0
    if k < 1:
        raise InvalidArgumentError(f"{THREADS_ENV} must be a positive integer, got {raw!r}")
    import graphblas
    import numba

    graphblas.ss.config["nthreads"] = k
    most = numba.config.NUMBA_NUM_THREADS   # numba's pool is sized at start-up (NUMBA_NUM_THREADS)
    if k > most:
        import logging

        logging.getLogger("la_graph").warning(
            "%s=%d: numba's kernels use %d threads (its pool, NUMBA_NUM_THREADS); GraphBLAS uses %d",
            THREADS_ENV, k, most, k)
    numba.set_num_threads(min(k, most))


_threads_from_env()
