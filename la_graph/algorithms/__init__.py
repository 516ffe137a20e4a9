"""Graph algorithms, one module each, written against the engine interface.

Each module registers its public functions with
:func:`~la_graph.algorithms._registry.algorithm`.  This package imports every
module of its folder (in name order; not the private ``_*`` ones nor
:mod:`.steps`, which the modules import themselves), so a new algorithm module
needs no line here, and exports the registered functions and their result
types (the ``*Result`` classes in their modules' ``__all__``); ``la_graph``
exports all of ``__all__``.

Examples
--------
>>> from la_graph import algorithms
>>> "connected_components" in algorithms.__all__ and "BFSResult" in algorithms.__all__
True
"""

import importlib
import inspect
import pkgutil

from . import _registry

#: the modules of this package that hold no algorithm
_NOT_ALGORITHMS = ("steps",)


def _import_all():
    # every algorithm module, sorted: registration (and so the registry's order of insertion) is the same
    # on every machine
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_") and info.name not in _NOT_ALGORITHMS:
            importlib.import_module(f"{__name__}.{info.name}")


def _exports():
    """The registered functions and their result types, by name, in registry order."""
    found = {}
    for a in _registry.registered():
        module = importlib.import_module(a.module)
        found[a.name] = a.function
        for n in getattr(module, "__all__", ()):
            if n.endswith("Result") and inspect.isclass(getattr(module, n, None)):
                found.setdefault(n, getattr(module, n))
    return found


_import_all()
_found = _exports()
globals().update(_found)
__all__ = list(_found)
del _found
