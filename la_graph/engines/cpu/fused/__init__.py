"""The algebraic steps the CPU engine runs as one compiled loop each (its ``fused_steps``).

One module per algorithm, named like the algorithm's module in
``la_graph/algorithms/``: its numba loops and the fused steps built on them,
each registered by :func:`fuses` under the name of the step it runs.  The
shared machinery (the registry, Ctrl-C, the bounded-call driver) is in
:mod:`._common`.  Importing the package imports every module of its folder (in
name order, the private ``_*`` ones aside), which registers its steps, so a new
module needs no line here.
"""

from __future__ import annotations

import importlib
import pkgutil

from ._common import CALL_WORK, FUSED, fuses

__all__ = ["CALL_WORK", "FUSED", "fuses"]

# each module's @fuses registrations run on import
for _m in sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")):
    importlib.import_module(f"{__name__}.{_m}")
del _m
