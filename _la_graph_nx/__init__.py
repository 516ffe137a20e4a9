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
    "all_pairs_bellman_ford_path",
    "all_pairs_bellman_ford_path_length",
    "all_pairs_dijkstra",
    "all_pairs_dijkstra_path",
    "all_pairs_dijkstra_path_length",
    "all_pairs_shortest_path",
    "all_pairs_shortest_path_length",
    "ancestors",
    "average_clustering",
    "barycenter",
    "bellman_ford_path",
    "bellman_ford_path_length",
    "betweenness_centrality",
    "bfs_edges",
    "bfs_layers",
    "bfs_predecessors",
    "bfs_successors",
    "bfs_tree",
    "bidirectional_dijkstra",
    "bidirectional_shortest_path",
    "boundary_expansion",
    "center",
    "closeness_centrality",
    "clustering",
    "condensation",
    "conductance",
    "connected_components",
    "core_number",
    "cut_size",
    "degree_centrality",
    "descendants",
    "descendants_at_distance",
    "diameter",
    "dijkstra_path",
    "dijkstra_path_length",
    "eccentricity",
    "edge_boundary",
    "edge_expansion",
    "ego_graph",
    "eigenvector_centrality",
    "eigenvector_centrality_numpy",
    "floyd_warshall",
    "floyd_warshall_numpy",
    "global_efficiency",
    "harmonic_centrality",
    "harmonic_diameter",
    "has_path",
    "hits",
    "in_degree_centrality",
    "is_connected",
    "is_directed_acyclic_graph",
    "is_isolate",
    "is_strongly_connected",
    "is_weakly_connected",
    "isolates",
    "k_core",
    "k_corona",
    "k_crust",
    "k_shell",
    "k_truss",
    "katz_centrality",
    "katz_centrality_numpy",
    "leiden_communities",
    "leiden_partitions",
    "louvain_communities",
    "louvain_partitions",
    "maximal_independent_set",
    "maximum_spanning_edges",
    "maximum_spanning_tree",
    "minimum_spanning_edges",
    "minimum_spanning_tree",
    "mixing_expansion",
    "modularity",
    "multi_source_dijkstra",
    "multi_source_dijkstra_path",
    "multi_source_dijkstra_path_length",
    "negative_edge_cycle",
    "node_boundary",
    "node_connected_component",
    "node_expansion",
    "normalized_cut_size",
    "number_connected_components",
    "number_of_isolates",
    "number_strongly_connected_components",
    "number_weakly_connected_components",
    "out_degree_centrality",
    "pagerank",
    "periphery",
    "predecessor",
    "radius",
    "shortest_path",
    "shortest_path_length",
    "single_source_bellman_ford",
    "single_source_bellman_ford_path",
    "single_source_bellman_ford_path_length",
    "single_source_dijkstra",
    "single_source_dijkstra_path",
    "single_source_dijkstra_path_length",
    "single_source_shortest_path",
    "single_source_shortest_path_length",
    "single_target_shortest_path",
    "single_target_shortest_path_length",
    "strongly_connected_components",
    "transitivity",
    "triangles",
    "volume",
    "weakly_connected_components",
    "wiener_index",
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
