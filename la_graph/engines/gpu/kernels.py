"""The GPU engine's CUDA kernels: where the sources are, what each exports, compiled modules.

The sources are every ``*.cu`` file of the kernel folder (:func:`kernel_dir`),
``cuda/`` beside this module: ``cuda/<name>.cu`` holds the kernels of the fused
steps of ``fused/<name>.py`` (the algorithm module ``la_graph/algorithms/<name>.py``),
``semiring.cu`` and ``select.cu`` the primitives', ``msbfs.cu`` the multi-source
search that bfs and reachability share.  A file is compiled by ``cupy.RawModule`` with ``common.cuh`` prepended (so
CuPy's on-disk kernel cache is keyed by both), once per device, and cached.

Every kernel is a template (``template <...> __global__ void name(...)``), and
the instantiations a module exports are read off its source: each kernel is
instantiated for every combination of its template parameters' values, which
the parameter's name fixes (:data:`TEMPLATE_PARAMETERS`): ``IT`` a CSR's index
type, ``VT`` vertex ids, ``T`` a semiring's compute type, ``PT`` SSSP parents,
``KT`` hash keys, ``M`` the add monoid's code (``M_*`` of ``common.cuh``), ``TS`` the
Floyd-Warshall tile, ``DT`` its distances.  A new kernel, or a new file, needs nothing here.
"""

from __future__ import annotations

import itertools
import re
import threading
from pathlib import Path

import cupy as cp
import numpy as np

from ...exceptions import LaGraphError
from .objects import _F64, _I32, _I64

_NULL = np.uint64(0)                       # a null pointer kernel argument

#: tile of the blocked Floyd-Warshall kernels (cuda/apsp.cu): FW_TILE x FW_TILE entries
FW_TILE = 64

#: template parameter name -> the values every kernel taking it is instantiated for
TEMPLATE_PARAMETERS = {
    "IT": (_I32, _I64),          # CSR index type: int32 where n and nnz fit
    "VT": (_I32, _I64),          # vertex ids held by vectors (parents, levels, labels)
    "T": (_I64, _F64),           # the compute type of a semiring
    "PT": (_I64,),               # SSSP parents
    "KT": (_I64,),               # hash keys (MIS priorities)
    "M": tuple(range(5)),        # add monoid: M_MIN M_MAX M_PLUS M_TIMES M_ANY
    "TS": (FW_TILE,),            # Floyd-Warshall tile
    "DT": (_I32, _F64),          # Floyd-Warshall distances: int32 (integer weights) or float64
}

_CTYPES = {_I32: "int", _I64: "long long", _F64: "double"}
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_KERNEL = re.compile(r"template\s*<([^<>]*)>\s*__global__\s+void\s+(?:__launch_bounds__\s*\([^()]*\)\s*)?(\w+)\s*\(")
_MODULES: dict = {}        # (file, device id) -> cupy.RawModule
_FUNCTIONS: dict = {}      # (file, device id, name expression) -> cupy kernel
_MODULE_LOCK = threading.Lock()
_CUDA_DIR = Path(__file__).resolve().parent / "cuda"


def kernel_dir():
    """The folder of the CUDA sources: ``cuda/`` beside this module (shipped inside the package)."""
    d = _CUDA_DIR
    if not (d / "common.cuh").is_file():
        raise LaGraphError(
            f"the gpu engine's CUDA sources were not found in {d}; reinstall la_graph, or use engine='cpu'")
    return d


def kernel_files():
    """The names of the kernel sources (every ``*.cu`` of :func:`kernel_dir`), sorted."""
    return tuple(sorted(p.name for p in kernel_dir().glob("*.cu")))


def _name(kernel, *params):
    """The name expression of one template instantiation, e.g. ``semiring_rows<0, long long, int>``."""
    parts = [str(p) if isinstance(p, int) else _CTYPES[np.dtype(p)] for p in params]
    return f"{kernel}<{', '.join(parts)}>"


def instantiations(file, source):
    """Every template instantiation the kernels of ``source`` (the text of ``file``) export."""
    names = []
    for params, kernel in _KERNEL.findall(_COMMENTS.sub("", source)):
        values = []
        for param in params.split(","):
            rule = TEMPLATE_PARAMETERS.get(param.split()[-1])
            if rule is None:
                raise LaGraphError(
                    f"cuda/{file}: template parameter {param.strip()!r} of kernel {kernel} has no instantiation "
                    f"rule; name it as one of {', '.join(TEMPLATE_PARAMETERS)} (la_graph/engines/gpu/kernels.py)")
            values.append(rule)
        names += [_name(kernel, *combo) for combo in itertools.product(*values)]
    if not names:
        raise LaGraphError(f"cuda/{file} defines no kernel of the form 'template <...> __global__ void name(...)'")
    return names


def kernel_module(file):
    """The ``cupy.RawModule`` of ``cuda/<file>`` on the current device, compiled on first use and cached."""
    dev = cp.cuda.runtime.getDevice()
    key = (file, dev)
    mod = _MODULES.get(key)
    if mod is None:
        with _MODULE_LOCK:
            mod = _MODULES.get(key)
            if mod is None:
                d = kernel_dir()
                source = (d / file).read_text()
                code = (d / "common.cuh").read_text() + "\n" + source
                try:
                    mod = cp.RawModule(code=code, options=("-std=c++17",),
                                       name_expressions=instantiations(file, source))
                    mod.compile()
                except cp.cuda.compiler.CompileException as exc:
                    raise LaGraphError(f"compiling the gpu engine's kernels ({file}) failed: {exc}") from exc
                _MODULES[key] = mod
    return mod


def _kernel(file, kernel, *params):
    """Kernel ``kernel<params...>`` of ``cuda/<file>`` on the current device (cached)."""
    dev = cp.cuda.runtime.getDevice()
    name = _name(kernel, *params)
    key = (file, dev, name)
    fn = _FUNCTIONS.get(key)
    if fn is None:
        fn = _FUNCTIONS[key] = kernel_module(file).get_function(name)
    return fn


def _next_pow2(x, cap=32):
    """The lanes of a group: the least power of two >= ``x`` (at least 1, at most ``cap``)."""
    g = 1
    while g < x and g < cap:
        g *= 2
    return g
