"""la_graph: graph algorithms in the language of linear algebra.

The same algorithm code runs on two engines behind one operator interface: a
CPU engine on python-graphblas (SuiteSparse:GraphBLAS) and a GPU engine on
CuPy.  Importing la_graph starts no engine.

Examples
--------
>>> import la_graph as lg
>>> G = lg.Graph.from_file(lg.data.path("karate"))
>>> int(lg.connected_components(G).max())
0
>>> lg.bfs(G, 0).nlevels
4
"""

from . import data, exceptions, generators, profile, verify
from .algorithms import BFSResult, bfs, connected_components
from .algorithms import apsp, apsp_blocks
from .algorithms import maximal_independent_set, strongly_connected_components
from .algorithms import MSFResult, minimum_spanning_forest
from .algorithms import reachability, shortcut
from .algorithms import SSSPResult, sssp
from .algorithms import local_clustering_coefficient, pagerank, triangle_count, triangles
from .algorithms import betweenness_centrality, core_number, label_propagation
from .engines import available_engines, get_engine, set_engine, use_engine
from .exceptions import *  # noqa: F401,F403
from .exceptions import __all__ as _exc_all
from .graph import Graph

__version__ = "0.1.0"

__all__ = [
    "Graph", "bfs", "BFSResult", "connected_components", "strongly_connected_components", "maximal_independent_set",
    "get_engine", "set_engine", "use_engine", "available_engines",
    "data", "exceptions", "generators", "profile", "verify", *_exc_all,
    "reachability", "shortcut",
    "minimum_spanning_forest", "MSFResult",
    "sssp", "SSSPResult",
    "apsp", "apsp_blocks",
    "pagerank", "triangle_count", "triangles", "local_clustering_coefficient",
    "betweenness_centrality", "label_propagation", "core_number",
]
