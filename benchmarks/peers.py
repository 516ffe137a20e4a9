"""The peers la_graph is measured against: scipy.sparse.csgraph and python-igraph.

Each peer gets its input prepared outside the timed region and is called the
way its users call it.
"""

from __future__ import annotations

import importlib.util

import numpy as np

TOOLS = ("scipy", "igraph")


def available(tool):
    return importlib.util.find_spec({"scipy": "scipy", "igraph": "igraph"}[tool]) is not None


def prepare(tool, G):
    if tool == "scipy":
        return G.to_scipy(), G.directed
    import igraph

    rows, cols = G.edges()
    if not G.directed:
        keep = rows <= cols
        rows, cols = rows[keep], cols[keep]
    edges = np.column_stack([rows, cols]).astype(np.int64)
    return igraph.Graph(n=G.n, edges=edges, directed=G.directed)


def bfs(tool, prepared, sources):
    """(callable, variant): one BFS from each source; the callable returns the vertices each reached."""
    if tool == "scipy":
        from scipy.sparse import csgraph

        # directed=True follows A[u, v] as stored: for our symmetric storage of an undirected
        # graph it gives the same tree, 3x faster than directed=False (which symmetrizes per call)
        A, _ = prepared
        return (lambda: [csgraph.breadth_first_order(A, s, directed=True)[0].size for s in sources]), \
            "order+parent"
    g = prepared
    return (lambda: [len(g.bfs(s, mode="out")[0]) for s in sources]), "order+layer+parent"


def cc(tool, prepared):
    """(callable, variant): connected components; the callable returns the number of components."""
    if tool == "scipy":
        from scipy.sparse import csgraph

        A, directed = prepared
        return (lambda: csgraph.connected_components(A, directed=directed, connection="weak")[0]), "labels"
    g = prepared
    return (lambda: len(g.connected_components(mode="weak"))), "membership"


def check_reached(nreached_peer, nreached):
    if list(nreached_peer) != list(nreached):
        raise AssertionError(f"peer reached {nreached_peer} vertices, la_graph {nreached}")


def check_ncomponents(ncomp_peer, ncomp):
    if ncomp_peer != ncomp:
        raise AssertionError(f"peer found {ncomp_peer} components, la_graph {ncomp}")
