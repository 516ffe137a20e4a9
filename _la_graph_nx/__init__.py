"""What la_graph's NetworkX backend offers (the ``networkx.backend_info`` entry point).

NetworkX calls :func:`get_info` while it is being imported, so this tiny
package stands outside ``la_graph`` (importing which costs most of a second)
and imports nothing; the backend itself is :mod:`la_graph.nx_backend`, loaded
only when a call is dispatched to it.
"""

#: the NetworkX functions the backend implements (names as in networkx): the ``networkx=`` names of the
#: algorithms' registrations (la_graph/algorithms/_registry.py), kept literal here since this package imports
#: nothing; tests/test_registry.py checks the two agree
FUNCTIONS = (
    "connected_components",
    "strongly_connected_components",
    "bfs_edges",
    "single_source_shortest_path_length",
    "single_source_dijkstra_path_length",
    "bellman_ford_path_length",
    "floyd_warshall_numpy",
    "minimum_spanning_edges",
    "minimum_spanning_tree",
    "maximal_independent_set",
    "pagerank",
    "triangles",
    "clustering",
    "core_number",
    "betweenness_centrality",
    "hits",
    "eigenvector_centrality",
    "katz_centrality",
    "closeness_centrality",
    "harmonic_centrality",
    "k_truss",
    "k_core",
    "ego_graph",
)


def get_info():
    """Backend metadata for NetworkX: name, summary, functions, and the ``engine`` setting.

    Examples
    --------
    >>> from _la_graph_nx import get_info
    >>> get_info()["default_config"]
    {'engine': None}
    """
    return {
        "backend_name": "la_graph",
        "project": "la_graph",
        "package": "la_graph",
        "url": "https://pypi.org/project/la_graph/",
        "short_summary": "Graph algorithms in linear algebra on GraphBLAS (CPU), CuPy (GPU) and Dask engines.",
        "default_config": {"engine": None},
        "functions": {
            name: {"additional_docs": "Runs on la_graph's engine (nx.config.backends.la_graph.engine, "
                                      "else la_graph's own engine setting)."}
            for name in FUNCTIONS
        },
    }
