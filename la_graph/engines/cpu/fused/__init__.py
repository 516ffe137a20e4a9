"""The algebraic steps the CPU engine runs as one compiled loop each (its ``fused_steps``).

One module per algorithm, named like the algorithm's module in
``la_graph/algorithms/``: its numba loops and the fused steps built on them,
each registered by :func:`fuses` under the name of the step it runs.  The
shared machinery (the registry, Ctrl-C, the bounded-call driver) is in
:mod:`._common`.
"""

from __future__ import annotations

# each module's @fuses registrations run on import
from . import (apsp, betweenness, bfs, connected_components, kcore, msf, pagerank,  # noqa: F401
               reachability, scc, sssp, triangles)
from ._common import CALL_WORK, FUSED, fuses

__all__ = ["CALL_WORK", "FUSED", "fuses"]
