"""The GPU engine: the operator interface on CuPy and la_graph's CUDA kernels.

The only module of la_graph that imports cupy.  Importing it checks that CuPy
and a CUDA device are there and raises EngineUnavailable, saying what is
missing, otherwise.
"""

from __future__ import annotations

from ..exceptions import EngineUnavailable


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


cp = _require_cuda()


class GPUEngine:  # pragma: no cover - replaced by the full engine (issue: the GPU engine)
    name = "gpu"

    def __init__(self):
        raise EngineUnavailable(
            "the gpu engine's operator interface is not built yet in this version of la_graph; use engine='cpu'"
        )
