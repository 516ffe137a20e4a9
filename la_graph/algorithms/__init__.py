"""Graph algorithms, one module each, written against the engine interface.

Each module registers its public functions with
:func:`~la_graph.algorithms._registry.algorithm`; this package imports them and
exports them (``la_graph`` exports all of ``__all__``).  ``tests/test_registry.py``
checks that ``__all__`` is the registered algorithms and their result types.
"""

from .apsp import apsp, apsp_blocks
from .bfs import BFSResult, bfs
from .connected_components import connected_components
from .mis import maximal_independent_set
from .msf import MSFResult, minimum_spanning_forest
from .scc import strongly_connected_components
from .reachability import reachability
from .shortcut import shortcut
from .sssp import SSSPResult, sssp
from .pagerank import pagerank
from .triangles import triangle_count, triangles
from .clustering import local_clustering_coefficient
from .betweenness import betweenness_centrality
from .label_propagation import label_propagation
from .kcore import core_number
from .modularity import modularity
from .louvain import LouvainResult, louvain
from .leiden import leiden

__all__ = ["BFSResult", "bfs", "connected_components"]
__all__ += ["reachability", "shortcut"]
__all__ += ["strongly_connected_components", "maximal_independent_set"]
__all__ += ["minimum_spanning_forest", "MSFResult"]
__all__ += ["sssp", "SSSPResult"]
__all__ += ["apsp", "apsp_blocks"]
__all__ += ["pagerank", "triangle_count", "triangles", "local_clustering_coefficient"]
__all__ += ["betweenness_centrality", "label_propagation", "core_number"]
__all__ += ["modularity", "louvain", "LouvainResult", "leiden"]
