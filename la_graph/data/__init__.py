"""Small example graphs shipped inside the package.

Examples
--------
>>> import la_graph as lg
>>> lg.Graph.from_file(lg.data.path("karate"))
Graph(n=34, edges=78, undirected)
"""

from __future__ import annotations

from pathlib import Path

from ..exceptions import InvalidArgumentError

_HERE = Path(__file__).parent
_FILES = {"karate": "karate.mtx"}


def names():
    """Names of the bundled graphs."""
    return sorted(_FILES)


def path(name):
    """Path of a bundled graph file, e.g. ``path("karate")``."""
    if name not in _FILES:
        raise InvalidArgumentError(f"no bundled graph named {name!r}; there are {names()}")
    return _HERE / _FILES[name]
