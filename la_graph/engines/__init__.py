"""Engine registry: pick an engine (cpu, gpu, dask or reference).

Four engines: ``"cpu"`` (python-graphblas over SuiteSparse:GraphBLAS, numba
fused steps), ``"gpu"`` (CuPy and la_graph's CUDA kernels), ``"dask"`` (the
primitives over a Dask cluster, each worker computing with the CPU or GPU
engine: see :mod:`la_graph.engines.dask`) and ``"reference"`` (numpy and scipy
primitives, no fused step: slow by design, the test oracle that shows the
primitives are enough for every algorithm).
The engine an algorithm runs on is, first match wins: its ``engine=`` keyword,
the innermost ``with use_engine(...)`` block, :func:`set_engine`, the
``LA_GRAPH_ENGINE`` environment variable, and finally ``"cpu"``.
Engines are created once, on first use; importing la_graph starts none.

Examples
--------
>>> import la_graph as lg
>>> lg.get_engine().name
'cpu'
>>> with lg.use_engine("cpu"):
...     lg.get_engine().name
'cpu'
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import threading

from .. import profile
from ..exceptions import EngineUnavailable, InvalidArgumentError
from .base import INTERFACE, Engine

__all__ = ["ENGINES", "Engine", "get_engine", "set_engine", "use_engine", "available_engines"]

#: engine name -> "module:class"
ENGINES = {"cpu": "la_graph.engines.cpu:CPUEngine", "gpu": "la_graph.engines.gpu:GPUEngine",
           "reference": "la_graph.engines.reference:ReferenceEngine", "dask": "la_graph.engines.dask:DaskEngine"}

_instances: dict[str, Engine] = {}
_default: str | None = None


class _Stack(threading.local):
    """Per thread: the engine names :func:`use_engine` blocks pushed (None until the first).

    A class default: ``getattr(_local, "stack", None)`` on a missing attribute
    costs a caught AttributeError (~1 us) on every ``get_engine()``.
    """

    stack = None


_local = _Stack()
_lock = threading.Lock()


def _check_name(name):
    if not isinstance(name, str) or name.lower() not in ENGINES:
        raise InvalidArgumentError(f"engine must be one of {sorted(ENGINES)}, got {name!r}")
    return name.lower()


def _create(name, options=None):
    module, cls = ENGINES[name].split(":")
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        if isinstance(exc, EngineUnavailable):
            raise
        pkg = {"gpu": "cupy", "dask": "dask and distributed"}.get(name, "python-graphblas")
        extra = {"gpu": "[gpu]", "dask": "[dask]"}.get(name, "")
        raise EngineUnavailable(
            f"the {name} engine needs {pkg}, which failed to import ({exc}); "
            f"install it with: pip install 'la_graph{extra}'"
        ) from exc
    factory = getattr(mod, cls)
    if options:
        _check_options(name, factory, options)
    engine = factory(**(options or {}))
    profile.track(engine, INTERFACE)
    return engine


def _check_options(name, factory, options):
    """Raise InvalidArgumentError naming an option the engine ``name`` does not take."""
    params = inspect.signature(factory).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return
    takes = sorted(k for k, p in params.items() if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))
    bad = sorted(set(options) - set(takes))
    if bad:
        raise InvalidArgumentError(f"the {name} engine takes the options {takes}, got {bad[0]}={options[bad[0]]!r}"
                                   if takes else f"the {name} engine takes no options, got {bad[0]}="
                                                 f"{options[bad[0]]!r}")


def get_engine(engine=None):
    """The engine object for ``engine`` (a name, an Engine, or None for the current default)."""
    if type(engine) is str:   # an engine already made, by its name as given (the ABC check below costs ~0.3 us)
        inst = _instances.get(engine)
        if inst is not None:
            return inst
    if isinstance(engine, Engine):
        profile.track(engine, INTERFACE)  # an engine made by the caller
        return engine
    if engine is None:
        stack = getattr(_local, "stack", None)
        if stack:
            engine = stack[-1]
        elif _default is not None:
            engine = _default
        else:
            engine = os.environ.get("LA_GRAPH_ENGINE") or "cpu"
            if engine.lower() not in ENGINES:
                raise InvalidArgumentError(f"the environment variable LA_GRAPH_ENGINE must be one of "
                                           f"{sorted(ENGINES)}, got {engine!r}")
    name = _check_name(engine)
    inst = _instances.get(name)
    if inst is None:
        with _lock:
            inst = _instances.get(name)
            if inst is None:
                inst = _instances[name] = _create(name)
    return inst


def _configured(name, options):
    """The engine ``name``; with ``options`` a new one made with them, which ``name`` then names."""
    name = _check_name(name)
    if not options:
        return get_engine(name)
    with _lock:
        eng = _instances[name] = _create(name, options)
    return eng


def set_engine(name, **options):
    """Make ``name`` ("cpu", "gpu", "dask" or "reference") the default engine for this process; returns it.

    ``options`` configure a new instance of the engine (``set_engine("dask", client=c)``).
    """
    global _default
    eng = _configured(name, options)
    _default = eng.name
    return eng


@contextlib.contextmanager
def use_engine(name, **options):
    """Run the ``with`` block on engine ``name`` (this thread only).

    ``options`` configure a new instance of the engine, as for :func:`set_engine`;
    ``use_engine("dask", client=client)`` runs the block on that Dask cluster.
    """
    eng = _configured(name, options)
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    stack.append(eng.name)
    try:
        yield eng
    finally:
        stack.pop()


def available_engines(reference=False, distributed=False):
    """Names of the engines that can run here.

    The ``"reference"`` engine (numpy primitives, no fused step: a test oracle,
    slow by design) is listed only with ``reference=True``, and the ``"dask"``
    engine (which starts a cluster on first use) only with ``distributed=True``.
    """
    out = []
    for name in ENGINES:
        if (name == "reference" and not reference) or (name == "dask" and not distributed):
            continue
        try:
            get_engine(name)
        except EngineUnavailable:
            continue
        out.append(name)
    return out
