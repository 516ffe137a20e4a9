"""The algorithm steps the GPU engine runs as CUDA kernels (its ``fused_steps``).

One module per algorithm module of ``la_graph/algorithms/``, named alike
(``bfs.py`` runs the steps ``la_graph/algorithms/bfs.py`` declares), its
kernels in ``cuda/<name>.cu``; what they share (:func:`fuses`, the registry,
the multi-source search) is in :mod:`._common`.  Importing the package imports
every module of its folder (in name order, the private ``_*`` ones aside),
which registers its steps, so a new module needs no line here: :data:`FUSED`
maps each step's name to its GPU implementation.
"""

from __future__ import annotations

import importlib
import pkgutil

from ._common import FUSED, fuses

__all__ = ["FUSED", "fuses"]

# each module's @fuses registrations run on import
for _m in sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")):
    importlib.import_module(f"{__name__}.{_m}")
del _m
