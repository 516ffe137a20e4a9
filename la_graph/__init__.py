"""la_graph: graph algorithms in the language of linear algebra.

The same algorithm code runs on four engines behind one operator interface: a
CPU engine on python-graphblas (SuiteSparse:GraphBLAS), a GPU engine on CuPy,
a distributed engine on Dask, and a reference engine of numpy primitives (the
tests' oracle).  Importing la_graph starts no engine.

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
from . import algorithms
from .algorithms import *  # noqa: F401,F403  (every registered algorithm and its result types)
from .engines import available_engines, get_engine, set_engine, use_engine
from .exceptions import *  # noqa: F401,F403
from .exceptions import __all__ as _exc_all
from .graph import Graph

__version__ = "0.1.0"

__all__ = [
    "Graph", "get_engine", "set_engine", "use_engine", "available_engines",
    "data", "exceptions", "generators", "profile", "verify", *_exc_all,
    *algorithms.__all__,
]
