"""The algorithm steps the GPU engine runs as CUDA kernels (its ``fused_steps``).

One module per algorithm module of ``la_graph/algorithms/``, named alike
(``bfs.py`` runs the steps ``la_graph/algorithms/bfs.py`` declares), its
kernels in ``cuda/<name>.cu``; what they share (:func:`fuses`, the registry,
the multi-source search) is in :mod:`._common`.  Importing the package imports
every module, which registers its steps: :data:`FUSED` maps each step's name
to its GPU implementation.
"""

from __future__ import annotations

from . import (  # noqa: F401  (imported for their @fuses registrations)
    apsp,
    betweenness,
    bfs,
    connected_components,
    kcore,
    mis,
    msf,
    pagerank,
    reachability,
    scc,
    sssp,
    triangles,
)
from ._common import FUSED, fuses

__all__ = ["FUSED", "fuses"]
