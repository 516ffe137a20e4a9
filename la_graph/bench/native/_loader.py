"""Compiling the native baselines' ``.cu`` files (shared by :mod:`la_graph.bench.native` and its kernel
modules, which import this module rather than the package that imports them)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent
THREADS = 256
_modules = {}


def load(name):
    """The compiled ``<name>.cu`` of this folder (compiled once per process)."""
    if name not in _modules:
        import cupy as cp

        _modules[name] = cp.RawModule(code=(HERE / f"{name}.cu").read_text(), options=("--std=c++14",))
    return _modules[name]


def blocks():
    """Grid size for the grid-stride kernels: enough blocks to fill every SM."""
    import cupy as cp

    return cp.cuda.Device().attributes["MultiProcessorCount"] * (2048 // THREADS)
