"""The GPU engine: the operator interface on CuPy and la_graph's CUDA kernels.

The only package of la_graph that imports cupy.  Importing it checks that CuPy
and a CUDA device are there and raises EngineUnavailable, saying what is
missing, otherwise.

One concern a module (see docs/gpu.md):

* :mod:`.objects` -- vectors (:class:`GVec`: dense CuPy values plus a bool
  presence array, ``None`` when full) and matrices (:class:`GMat`: CSR on the
  device, or dense values plus presence), and the flat views the primitives
  compute on;
* :mod:`.ops` -- binary and unary ops, monoid identities and semiring plans on
  device arrays (GraphBLAS typecasting rules);
* :mod:`.memory` -- free device memory, reservations (OutOfDeviceMemory names
  the bytes needed and points to the CPU engine), the translation of CuPy /
  CUDA errors into la_graph errors, and waits for the device that Ctrl-C can
  interrupt;
* :mod:`.kernels` -- the CUDA sources of ``cuda/*.cu`` (a folder of the
  package): found by glob, their template instantiations read off the
  sources, compiled once per device by ``cupy.RawModule`` and cached;
* :mod:`.primitives` -- :class:`GPUEngine`, the primitives of the interface;
* :mod:`.fused` -- the algorithm steps the engine runs as CUDA kernels
  (``GPUEngine.fused_steps``), one module per algorithm module, named alike
  (``fused/bfs.py`` and ``cuda/bfs.cu`` for ``la_graph/algorithms/bfs.py``);
* :mod:`.interop` -- graphs built on the device from CuPy arrays.

Arrays held by a vector or matrix are never written in place: every operation
makes new arrays (kernels that update in place work on private copies), so
``copy`` is O(1) and objects may share arrays safely.
"""

from __future__ import annotations

from ...exceptions import EngineUnavailable


def _require_cuda():
    try:
        import cupy
    except ImportError as exc:
        raise EngineUnavailable(
            f"the gpu engine needs CuPy, which failed to import ({exc}); "
            "install it with: pip install 'la_graph[gpu]' (CuPy for CUDA 12), "
            "or use engine='cpu'"
        ) from exc
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # CUDARuntimeError: no driver, driver too old, ...
        raise EngineUnavailable(
            f"the gpu engine needs a CUDA device, but CUDA reports: {exc}; use engine='cpu'"
        ) from exc
    if count == 0:
        raise EngineUnavailable("the gpu engine needs a CUDA device, and none was found; use engine='cpu'")
    return cupy


# before any module of the package imports cupy: they may take it as there and working
cp = _require_cuda()

from .kernels import kernel_dir, kernel_files, kernel_module  # noqa: E402
from .objects import GMat, GVec  # noqa: E402
from .primitives import GPUEngine  # noqa: E402

__all__ = ["GPUEngine", "GVec", "GMat", "kernel_module", "kernel_files", "kernel_dir"]
