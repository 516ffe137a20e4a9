"""The tools la_graph is measured against, each called the way its own users call it.

* ``scipy``: :mod:`scipy.sparse.csgraph` on a CSR array (int32 indices);
* ``igraph``: python-igraph on its own ``Graph`` (weights in ``es["weight"]``);
* ``networkx``: on its own ``Graph``/``DiGraph``, only up to :data:`NX_MAX_EDGES`
  edges per algorithm (beyond, it takes minutes; the run says where it was skipped);
* ``graphblas-algorithms``: its ``Graph`` over a GraphBLAS matrix, for the
  algorithms it has;
* ``native``: our own CUDA baselines, :mod:`la_graph.bench.native` (GPU runs only);
* ``ecl``: the ECL suite's programs (:mod:`la_graph.bench.external`; fetched and
  built on the GPU machine, never shipped), which time and check themselves: their
  call returns a :class:`~la_graph.bench.external.SelfReported`, whose time the benchmark records.

A peer's input is prepared once per graph, outside the timed region.  Each
peer function returns ``(call, to_output)``: ``call()`` is what is timed,
``to_output(raw)`` turns its result into the form the algorithm's checker
takes (see :mod:`la_graph.bench.cases`).  A peer that lacks an algorithm
simply has no function for it.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import shutil
from types import SimpleNamespace

import numpy as np

from ..graph import Graph
from . import external

TOOLS = ("scipy", "igraph", "networkx", "graphblas-algorithms", "native", "ecl")
#: the peers that run on the GPU (only with --engines gpu)
GPU_TOOLS = ("native", "ecl")
_MODULES = {"scipy": "scipy", "igraph": "igraph", "networkx": "networkx",
            "graphblas-algorithms": "graphblas_algorithms", "native": "cupy"}
_DISTS = {"scipy": "scipy", "igraph": "igraph", "networkx": "networkx",
          "graphblas-algorithms": "graphblas-algorithms"}

#: networkx runs only on graphs with at most this many edges (per algorithm; its pure-Python
#: loops take ~1 µs per edge and its graphs ~500 bytes per edge)
NX_MAX_EDGES = {"apsp": 100_000, "sssp": 1_000_000, "msf": 1_000_000, "bfs": 1_000_000, "mis": 300_000,
                "reachability": 500_000, "bc": 300_000, "tc": 1_000_000, "lcc": 1_000_000,
                # closeness: one search per sampled vertex (1,024); harmonic_centrality searches from every vertex
                "closeness": 50_000, "harmonic": 20_000, "katz": 300_000, "hits": 1_000_000,
                # trussness: one k_truss call per level (facebook: about 100 of them)
                "trussness": 100_000, "ktruss": 100_000, "louvain": 300_000}
#: Jaccard of every pair with a common neighbour: the pairs, up to the wedges (paths of two edges), are a
#: Python list for igraph and NetworkX; at most this many wedges (R-MAT 14: 78 M wedges, 20 M pairs, igraph
#: 12 s, NetworkX 500 s; facebook: 9 M wedges, 1.4 M pairs)
JACCARD_MAX_WEDGES = {"igraph": 100_000_000, "networkx": 20_000_000}
#: networkx's maximal_independent_set draws from list(available) at every step: O(n^2)
NX_MIS_MAX_N = 20_000
NX_DEFAULT_MAX_EDGES = 2_000_000
#: graphblas-algorithms' Floyd–Warshall is dense O(n^3): only up to this many vertices
GA_APSP_MAX_N = 1_500


def _native():
    """The native GPU baselines, :mod:`la_graph.bench.native` (imported on first use)."""
    from . import native

    return native


def available(tool):
    """``(True, "")`` or ``(False, why)`` for a peer on this machine."""
    if tool == "ecl":
        if shutil.which("nvidia-smi") is None:
            return False, "the ECL programs need an NVIDIA GPU"
        if not external.programs():
            return False, (f"the ECL programs are not built in {external.home()} "
                           "(python -m la_graph.bench.external fetch, then build)")
        return True, ""
    if importlib.util.find_spec(_MODULES[tool]) is None:
        extra = "pip install 'la_graph[bench]'" if tool != "native" else "needs CuPy and a GPU"
        return False, f"{_MODULES[tool]} is not installed ({extra})"
    if tool == "native":
        try:
            _native()
            from ..engines import get_engine

            get_engine("gpu")
        except Exception as exc:  # no device
            return False, f"native GPU baselines unavailable: {exc}"
    return True, ""


def version(tool):
    if tool == "ecl":
        return f"ECL-Suite {external.ECL_COMMIT[:10]}: " + ", ".join(
            external.PROGRAMS[a][0] for a in sorted(external.programs()))
    if tool == "native":
        return "la_graph.bench.native"
    try:
        return importlib.metadata.version(_DISTS[tool])
    except importlib.metadata.PackageNotFoundError:
        return "?"


def skip_reason(tool, algo, G):
    """Why ``tool`` does not run ``algo`` on ``G`` (size limits), or ``None``."""
    if tool == "networkx":
        limit = NX_MAX_EDGES.get(algo, NX_DEFAULT_MAX_EDGES)
        if G.nedges > limit:
            return f"networkx skipped: {G.nedges:,} edges > {limit:,} (pure Python: minutes)"
        if algo == "mis" and G.n > NX_MIS_MAX_N:
            return f"networkx skipped: {G.n:,} vertices > {NX_MIS_MAX_N:,} (its MIS takes time quadratic in n)"
    if algo == "jaccard" and tool in JACCARD_MAX_WEDGES and wedges(G) > JACCARD_MAX_WEDGES[tool]:
        return (f"{tool} skipped: {wedges(G):,} wedges > {JACCARD_MAX_WEDGES[tool]:,} (the pairs as a Python list; "
                "its time)")
    if tool == "graphblas-algorithms" and algo == "apsp" and G.n > GA_APSP_MAX_N:
        return f"graphblas-algorithms skipped: dense Floyd–Warshall on {G.n:,} > {GA_APSP_MAX_N:,} vertices"
    return None


def wedges(G):
    """Paths of two edges through a middle vertex: ``sum d (d - 1) / 2`` over out-degrees, a bound on the pairs
    with a common neighbour."""
    d = np.asarray(G.out_degree, np.int64)
    return int((d * (d - 1) // 2).sum())


def prepare(tool, G):
    """The peer's own representation of ``G`` (built outside the timed region)."""
    if tool == "scipy":
        return G.to_scipy()
    if tool == "igraph":
        import igraph

        rows, cols = G.edges()
        keep = slice(None) if G.directed else rows <= cols
        g = igraph.Graph(n=G.n, edges=np.column_stack([rows[keep], cols[keep]]).astype(np.int64),
                         directed=G.directed)
        if G.weighted:
            g.es["weight"] = G.weights[keep].tolist()
        return g
    if tool == "networkx":
        return G.to_networkx()
    if tool == "graphblas-algorithms":
        # graphblas-algorithms users hold their graph as a GraphBLAS matrix (made by the CPU
        # engine: backends are imported there only); FP64 ones when unweighted, as to_scipy's
        import graphblas_algorithms as ga

        A = G.to_graphblas()
        if A.dtype.name != "FP64":
            A = A.dup(dtype="FP64")
        return ga.DiGraph(A) if G.directed else ga.Graph(A)
    if tool == "native":
        return _native().prepare(G)
    if tool == "ecl":
        return external.Inputs(G)
    raise ValueError(tool)


# ---------------------------------------------------------------- helpers
def canonical(labels):
    """Component labels of any kind -> the smallest vertex id of each component."""
    labels = np.asarray(labels)
    _, inv = np.unique(labels, return_inverse=True)
    first = np.full(inv.max() + 1 if inv.size else 0, labels.size, np.int64)
    np.minimum.at(first, inv, np.arange(labels.size))
    return first[inv]


def _stack(rows, n):
    return np.vstack(rows) if rows else np.empty((0, n))


def _pred_to_parent(pred, s):
    p = np.asarray(pred, np.int64).copy()
    p[p < 0] = -1
    p[s] = s
    return p


def _sum1(x):
    x = np.asarray(x, np.float64)
    t = x.sum()
    return x / t if t > 0 else x


def _by_vertex(d, vertices):
    return np.array([d[v] for v in vertices], np.float64)


def _simple_out(G):
    """``G``'s out-neighbour sets as a binary scipy CSR without self-loops (similarity's neighbour sets)."""
    S = G.to_scipy().tocsr().astype(bool).astype(np.int8)
    S.setdiag(0)
    S.eliminate_zeros()
    return S.tocsr()


def _common_neighbour_pairs(G):
    """``(S, u, v)``: the pairs ``u < v`` sharing an out-neighbour (``S S'``), sorted; made outside any timing."""
    import scipy.sparse as sp

    S = _simple_out(G)
    P = sp.triu(S.astype(np.int64) @ S.T.astype(np.int64), k=1).tocoo()
    order = np.lexsort((P.col, P.row))
    return S, P.row[order].astype(np.int64), P.col[order].astype(np.int64)


_IGRAPH_JACCARD_SELF = []


def _igraph_jaccard_counts_self():
    """Whether this igraph's ``similarity_jaccard`` puts each vertex in its own neighbour set whatever
    ``loops`` says (python-igraph 1.0 does: the path 0 - 1 - 2 gives J(0, 2) = 1/3, not 1)."""
    if not _IGRAPH_JACCARD_SELF:
        import igraph

        j = igraph.Graph(n=3, edges=[(0, 1), (1, 2)]).similarity_jaccard(pairs=[(0, 2)], loops=False)[0]
        _IGRAPH_JACCARD_SELF.append(abs(j - 1.0) > 1e-12)
    return _IGRAPH_JACCARD_SELF[0]


def _jaccard_without_self(J, S, u, v):
    """Jaccard scores given with each vertex in its own neighbour set -> without (the sets' sizes and
    whether ``v`` is ``u``'s neighbour and ``u`` is ``v``'s are known): ``|N'(u) & N'(v)| = J (d(u) + d(v) + 2)
    / (1 + J)`` holds the true intersection plus those two."""
    d = np.diff(S.indptr).astype(np.float64)
    du, dv = d[u], d[v]
    both = J * (du + dv + 2) / (1 + J)
    adj = np.asarray(S[u, v]).ravel() + np.asarray(S[v, u]).ravel()
    common = np.rint(both - adj)
    union = du + dv - common
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(union > 0, common / union, 0.0)


def _truss_levels(H, n, nx):
    """Trussness the NetworkX way: ``k_truss`` for k = 3, 4, ... on the previous truss, until it is empty."""
    T = nx.Graph(H)
    T.remove_edges_from(list(nx.selfloop_edges(T)))
    truss = {(min(a, b), max(a, b)): 2 for a, b in T.edges()}
    k = 3
    while T.number_of_edges():
        T = nx.k_truss(T, k)
        for a, b in T.edges():
            truss[(min(a, b), max(a, b))] = k
        k += 1
    return truss


def _truss_arrays(truss):
    keys = sorted(truss)
    u = np.array([a for a, _ in keys], np.int64)
    v = np.array([b for _, b in keys], np.int64)
    return u, v, np.array([truss[e] for e in keys], np.int64)


def _membership_to_labels(members_or_clusters, n):
    labels = np.empty(n, np.int64)
    for i, comp in enumerate(members_or_clusters):
        labels[list(comp)] = i
    return labels


# ---------------------------------------------------------------- scipy
def _scipy(algo, A, G, sources):
    from scipy.sparse import csgraph

    n = G.n
    if algo == "bfs":
        # directed=True follows A[u, v] as stored: on the symmetric storage of an undirected graph the
        # same tree as directed=False, without its per-call symmetrization (scipy users' fastest form)
        return (lambda: [csgraph.breadth_first_order(A, s, directed=True)[1] for s in sources],
                lambda r: _stack([_pred_to_parent(p, s) for p, s in zip(r, sources)], n))
    if algo == "cc":
        return (lambda: csgraph.connected_components(A, directed=G.directed, connection="weak")[1], canonical)
    if algo == "scc":
        return (lambda: csgraph.connected_components(A, directed=True, connection="strong")[1], canonical)
    if algo == "sssp":
        return (lambda: csgraph.dijkstra(A, directed=True, indices=sources, return_predecessors=True),
                lambda r: (r[0], _stack([_pred_to_parent(p, s) for p, s in zip(r[1], sources)], n)))
    if algo == "apsp":
        return (lambda: csgraph.johnson(A, directed=True), lambda r: r)
    if algo == "msf":
        def out(T):
            T = T.tocoo()
            return T.row, T.col, float(T.data.sum())
        return (lambda: csgraph.minimum_spanning_tree(A), out)
    if algo == "reachability":
        def reach(orders):
            R = np.zeros((len(sources), n), bool)
            for i, o in enumerate(orders):
                R[i, o] = True
            return R
        return (lambda: [csgraph.breadth_first_order(A, s, directed=True, return_predecessors=False)
                         for s in sources], reach)
    return None


# ---------------------------------------------------------------- igraph
def _igraph(algo, g, G, sources, params=None):
    n = G.n
    weights = "weight" if G.weighted else None
    if algo == "bfs":
        def parents(r):
            P = []
            for (order, _, par), s in zip(r, sources):
                p = np.full(n, -1, np.int64)
                p[order] = np.asarray(par, np.int64)[order]
                p[s] = s
                P.append(p)
            return _stack(P, n)
        return (lambda: [g.bfs(s, mode="out") for s in sources], parents)
    if algo in ("cc", "scc"):
        mode = "weak" if algo == "cc" else "strong"
        return (lambda: g.connected_components(mode=mode).membership, canonical)
    if algo == "sssp":
        return (lambda: g.distances(source=list(sources), weights=weights, mode="out", algorithm="dijkstra"),
                lambda r: (np.asarray(r, np.float64), None))
    if algo == "apsp":
        return (lambda: g.distances(weights=weights, mode="out"), lambda r: np.asarray(r, np.float64))
    if algo == "msf":
        def out(ids):
            ends = np.asarray([g.es[i].tuple for i in ids], np.int64).reshape(-1, 2)
            w = np.asarray(g.es[ids]["weight"]) if weights and len(ids) else np.ones(len(ids))
            return ends[:, 0], ends[:, 1], float(w.sum())
        return (lambda: g.spanning_tree(weights=weights, return_tree=False), out)
    if algo == "reachability":
        def reach(lists):
            R = np.zeros((len(sources), n), bool)
            for i, vs in enumerate(lists):
                R[i, vs] = True
            return R
        return (lambda: [g.subcomponent(s, mode="out") for s in sources], reach)
    if algo == "pagerank":
        return (lambda: g.pagerank(directed=G.directed, damping=0.85), np.asarray)
    if algo == "tc":
        # igraph has no triangle count: its global transitivity is 3 triangles / connected triples
        # (list_triangles would build a Python list of every triangle: tens of GB on R-MAT 20)
        return (lambda: g.transitivity_undirected(), lambda ratio: _triangles_from_transitivity(ratio, G))
    if algo == "lcc":
        return (lambda: g.transitivity_local_undirected(mode="zero"), np.asarray)
    if algo == "bc":
        return (lambda: g.betweenness(directed=G.directed, sources=sources),
                lambda r: _bc_from_subset_sums(np.asarray(r, np.float64), G, sources))
    if algo == "kcore":
        simple = g.copy()
        simple.simplify()
        return (lambda: simple.coreness(mode="all"), np.asarray)
    return _igraph_breadth(algo, g, G, sources, params or {}, weights)


def _igraph_breadth(algo, g, G, sources, params, weights):
    """igraph's calls for the algorithms of issue 40 (centralities, similarity, colouring, communities)."""
    n = G.n
    if algo == "hits":
        # issue 40's yardstick is igraph's hub_score (ARPACK); the authorities follow as A' h, outside the timing
        AT = G.to_scipy().astype(np.float64).T.tocsr()
        if not G.weighted:
            AT.data[:] = 1.0
        return (lambda: g.hub_score(weights=weights), lambda h: (_sum1(h), _sum1(AT @ np.asarray(h, np.float64))))
    if algo == "eigenvector":
        def exact(x):
            x = np.asarray(x, np.float64)
            return SimpleNamespace(exact=x / np.linalg.norm(x) if x.any() else x)
        return (lambda: g.eigenvector_centrality(directed=True, weights=weights), exact)
    if algo in ("closeness", "harmonic"):
        # mode="in": the distances *to* each vertex, NetworkX's (and la_graph's) direction
        vs = list(sources)
        if algo == "closeness":
            return (lambda: g.closeness(vertices=vs, mode="in", weights=weights, normalized=True),
                    lambda r: np.nan_to_num(np.asarray(r, np.float64), nan=0.0))
        return (lambda: g.harmonic_centrality(vertices=vs, mode="in", weights=weights, normalized=False),
                lambda r: np.asarray(r, np.float64))
    if algo == "ebc":
        rows, cols = G.edges()
        keep = slice(None) if G.directed else rows <= cols
        u, v = rows[keep].astype(np.int64), cols[keep].astype(np.int64)   # igraph's edge ids (prepare's order)
        # sums over the sources' shortest paths -> NetworkX's normalized, sampled scale (an undirected edge's
        # two directions summed: x 2)
        scale = (1.0 if G.directed else 2.0) / (len(sources) * (n - 1)) if n > 1 and len(sources) else 1.0
        return (lambda: g.edge_betweenness(directed=G.directed, weights=weights, sources=list(sources)),
                lambda r: (u, v, np.asarray(r, np.float64) * scale))
    if algo == "jaccard":
        S, u, v = _common_neighbour_pairs(G)
        pairs = list(zip(u.tolist(), v.tolist()))
        fix = _igraph_jaccard_counts_self()

        def out(r):
            J = np.asarray(r, np.float64)
            return u, v, (_jaccard_without_self(J, S, u, v) if fix else J)
        return (lambda: g.similarity_jaccard(pairs=pairs, mode="out", loops=False), out)
    if algo == "coloring":
        return (lambda: g.vertex_coloring_greedy(), lambda r: np.asarray(r, np.int64))
    if algo in ("louvain", "leiden"):
        if algo == "louvain":
            call = lambda: g.community_multilevel(weights=weights)                        # noqa: E731
        else:
            call = lambda: g.community_leiden(objective_function="modularity", weights=weights)  # noqa: E731
        return (call, lambda c: SimpleNamespace(labels=canonical(c.membership), peer=True,
                                                connected=algo == "leiden"))
    if algo == "modularity":
        labels = np.asarray(params["communities"]).tolist()
        return (lambda: g.modularity(labels, weights=weights), float)
    return None


def _triangles_from_transitivity(ratio, G):
    """Triangles from a global transitivity: ratio * (connected triples) / 3, the triples counted on
    ``G``'s simple undirected form (no self-loops)."""
    rows, cols = G.edges()
    d = np.bincount(rows[rows != cols], minlength=G.n).astype(np.float64)
    triples = float((d * (d - 1) / 2).sum())
    return int(round(0.0 if np.isnan(ratio) else ratio * triples / 3))


def _bc_from_subset_sums(raw, G, sources):
    """Betweenness summed over ``sources`` as igraph and NetworkX's subset function give it (each
    unordered pair once on undirected graphs) -> la_graph's (NetworkX's) sampled, normalized form."""
    from ..algorithms.betweenness import rescale

    return rescale(raw * (1 if G.directed else 2), G.n, normalized=True, directed=G.directed, endpoints=False,
                   sources=sources)


# ---------------------------------------------------------------- networkx
def _networkx(algo, H, G, sources, params=None):
    import networkx as nx

    n = G.n
    if algo == "bfs":
        def parents(r):
            P = []
            for preds, s in zip(r, sources):
                p = np.full(n, -1, np.int64)
                if preds:
                    k = np.fromiter(preds.keys(), np.int64, len(preds))
                    p[k] = np.fromiter(preds.values(), np.int64, len(preds))
                p[s] = s
                P.append(p)
            return _stack(P, n)
        return (lambda: [dict(nx.bfs_predecessors(H, s)) for s in sources], parents)
    if algo == "cc":
        comps = nx.weakly_connected_components if G.directed else nx.connected_components
        return (lambda: list(comps(H)), lambda r: canonical(_membership_to_labels(r, n)))
    if algo == "scc":
        if not G.directed:
            return None
        return (lambda: list(nx.strongly_connected_components(H)),
                lambda r: canonical(_membership_to_labels(r, n)))
    if algo == "sssp":
        def dist(r):
            D = np.full((len(sources), n), np.inf)
            for i, d in enumerate(r):
                D[i, list(d.keys())] = list(d.values())
            return D, None
        return (lambda: [nx.single_source_dijkstra_path_length(H, s) for s in sources], dist)
    if algo == "apsp":
        return (lambda: nx.floyd_warshall_numpy(H, nodelist=range(n)), np.asarray)
    if algo == "msf":
        def out(edges):
            e = np.asarray([(u, v) for u, v, _ in edges], np.int64).reshape(-1, 2)
            return e[:, 0], e[:, 1], float(sum(d.get("weight", 1.0) for _, _, d in edges))
        return (lambda: list(nx.minimum_spanning_edges(H, algorithm="kruskal", data=True)), out)
    if algo == "mis":
        if G.directed:
            return None
        return (lambda: nx.maximal_independent_set(H, seed=0), lambda r: np.asarray(sorted(r), np.int64))
    if algo == "reachability":
        def reach(sets):
            R = np.zeros((len(sources), n), bool)
            for i, (d, s) in enumerate(zip(sets, sources)):
                R[i, list(d)] = True
                R[i, s] = True
            return R
        return (lambda: [nx.descendants(H, s) for s in sources], reach)
    def by_node(d):
        return np.array([d[v] for v in range(n)])
    if algo == "pagerank":
        return (lambda: nx.pagerank(H), by_node)
    if algo == "tc":
        return (lambda: sum(nx.triangles(H).values()) // 3, int)
    if algo == "lcc":
        return (lambda: nx.clustering(H), by_node)
    if algo == "bc":
        return (lambda: nx.betweenness_centrality_subset(H, sources, list(H), normalized=False),
                lambda d: _bc_from_subset_sums(by_node(d), G, sources))
    if algo == "kcore":
        simple = H.copy()
        simple.remove_edges_from(list(nx.selfloop_edges(simple)))
        return (lambda: nx.core_number(simple), by_node)
    return _networkx_breadth(algo, H, G, sources, params or {}, nx)


def _networkx_breadth(algo, H, G, sources, params, nx):
    """NetworkX's calls for the algorithms of issue 40."""
    n = G.n
    distance = "weight" if G.weighted else None
    everyone = range(n)
    if algo == "hits":
        return (lambda: nx.hits(H), lambda r: (_by_vertex(r[0], everyone), _by_vertex(r[1], everyone)))
    if algo == "eigenvector":
        return (lambda: nx.eigenvector_centrality(H, max_iter=params.get("max_iter", 100), weight=distance),
                lambda d: _by_vertex(d, everyone))
    if algo == "katz":
        return (lambda: nx.katz_centrality(H, alpha=params["alpha"], weight=distance),
                lambda d: _by_vertex(d, everyone))
    if algo == "closeness":
        return (lambda: [nx.closeness_centrality(H, u=s, distance=distance, wf_improved=False) for s in sources],
                lambda r: np.asarray(r, np.float64))
    if algo == "harmonic":
        return (lambda: nx.harmonic_centrality(H, nbunch=list(sources), distance=distance),
                lambda d: _by_vertex(d, sources))
    if algo == "jaccard":
        if G.directed:
            return None
        _, u, v = _common_neighbour_pairs(G)
        pairs = list(zip(u.tolist(), v.tolist()))
        return (lambda: [p for *_, p in nx.jaccard_coefficient(H, pairs)], lambda r: (u, v, np.asarray(r, np.float64)))
    if algo == "trussness":
        return (lambda: _truss_levels(H, n, nx), _truss_arrays)
    if algo == "ktruss":
        simple = nx.Graph(H)
        simple.remove_edges_from(list(nx.selfloop_edges(simple)))

        def subgraph(T):
            vertices = np.array(sorted(T.nodes()), np.int64)
            at = {x: i for i, x in enumerate(vertices.tolist())}
            e = np.array([(at[a], at[b]) for a, b in T.edges()], np.int64).reshape(-1, 2)
            return Graph.from_edges(e[:, 0], e[:, 1], n=len(vertices)), vertices
        return (lambda: nx.k_truss(simple, params["k"]), subgraph)
    if algo == "coloring":
        U = H.to_undirected(as_view=True) if G.directed else H
        return (lambda: nx.greedy_color(U, strategy="largest_first"), lambda d: _by_vertex(d, everyone).astype(np.int64))
    if algo == "louvain":
        return (lambda: nx.community.louvain_communities(H, weight="weight", seed=0),
                lambda r: SimpleNamespace(labels=canonical(_membership_to_labels(r, n)), peer=True, connected=False))
    if algo == "modularity":
        labels = np.asarray(params["communities"])
        parts = [set(np.flatnonzero(labels == c).tolist()) for c in np.unique(labels)]
        return (lambda: nx.community.modularity(H, parts, weight="weight"), float)
    return None


# ---------------------------------------------------------------- graphblas-algorithms
def _graphblas_algorithms(algo, g, G, sources):
    import graphblas_algorithms as ga

    n = G.n
    if algo == "bfs":
        def levels(runs):
            L = np.full((len(sources), n), -1, np.int64)
            for i, layers in enumerate(runs):
                for k, layer in enumerate(layers):
                    L[i, layer.to_coo()[0]] = k
            return SimpleNamespace(level=L, parent=None)
        return (lambda: [list(ga.algorithms.bfs_layers(g, s)) for s in sources], levels)
    if algo == "sssp":
        def dist(vs):
            D = np.full((len(sources), n), np.inf)
            for i, v in enumerate(vs):
                idx, vals = v.to_coo()
                D[i, idx] = vals
            return D, None
        return (lambda: [ga.single_source_bellman_ford_path_length(g, s) for s in sources], dist)
    if algo == "apsp":
        return (lambda: ga.floyd_warshall(g, is_weighted=G.weighted),
                lambda M: M.to_dense(fill_value=np.inf))
    if algo == "reachability":
        def reach(vs):
            R = np.zeros((len(sources), n), bool)
            for i, (v, s) in enumerate(zip(vs, sources)):
                R[i, v.to_coo()[0]] = True
                R[i, s] = True
            return R
        return (lambda: [ga.algorithms.descendants(g, s) for s in sources], reach)
    return None


# ---------------------------------------------------------------- ecl
def _ecl(algo, inputs):
    exe = external.programs().get(algo)
    if exe is None:
        return None
    if algo in external.UNDIRECTED and inputs.G.directed:
        return None       # ECL-GC colours a symmetric CSR
    egr = inputs.path(external.WEIGHTED[algo])       # written here, outside the timed call
    return (lambda: external.run(algo, egr, exe=exe), lambda r: r)


def peer_call(tool, algo, prepared, G, sources, params=None):
    """``(call, to_output)`` for ``tool`` running ``algo``, or ``None`` when the tool lacks it.

    ``params``: the setting's keyword arguments (:class:`~la_graph.bench.cases.Setting`), e.g. Katz's alpha.
    """
    if tool == "native":
        fn = _native().ALGORITHMS.get(algo)
        return None if fn is None else fn(prepared, G, sources)
    if tool == "ecl":
        return _ecl(algo, prepared)
    if tool in ("igraph", "networkx"):
        return {"igraph": _igraph, "networkx": _networkx}[tool](algo, prepared, G, sources, params)
    fn = {"scipy": _scipy, "graphblas-algorithms": _graphblas_algorithms}[tool]
    return fn(algo, prepared, G, sources)
