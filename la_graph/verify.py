"""Independent checkers of algorithm results.

In the spirit of LAGraph's ``LG_check_bfs`` / ``LG_check_cc``: each checker
recomputes or re-derives the answer with numpy and :mod:`scipy.sparse.csgraph`
only (never la_graph's own algorithms or engines), raises
:class:`~la_graph.exceptions.VerificationError` naming the first bad vertex
and what is wrong with it, and returns ``None`` when the result is right.

All checks are vectorized (no Python loop per vertex or edge), so they run on
graphs with millions of edges in about the time scipy needs for the reference.

Checkers
--------
check_bfs    levels and parents of a breadth-first search (one or several sources)
check_sssp   single-source shortest-path distances (and optional parents)
check_apsp   all-pairs shortest-path distances (rows, or the whole matrix)
check_cc     connected components (weak for a directed graph), smallest-id labels
check_scc    strongly connected components, smallest-id labels
check_mis    maximal independent set
check_msf    minimum spanning forest of an undirected graph
check_reachability  which vertices each of several sources reaches
check_shortcut  a shortcut set: the graph's edges kept, every added edge within its reachability
check_pagerank  PageRank ranks (the networkx, GAP or Graphalytics definition)
check_triangles  triangles at each vertex, and the total
check_lcc    local clustering coefficients (LDBC Graphalytics)
check_betweenness  betweenness centrality (Brandes; all sources or a sample; by hops or by weight)
check_edge_betweenness  edge betweenness centrality (the same references, on the edges)
check_cdlp   community labels of label propagation (LDBC Graphalytics CDLP)
check_core_number  core numbers (k-core decomposition)
check_communities  a partition of modularity optimisation (Louvain, Leiden): its modularity, connectivity, local optimality
check_degree  degrees, weighted degrees and degrees into a vertex set (bincount over the edge list)

At a sample of vertices (graphs too big to search again: the local conditions that define the answer)
------------------------------------------------------------------------------------------------------
check_bfs_sample, check_sssp_sample, check_cc_sample, check_pagerank_sample
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from . import _validation as V
from .exceptions import InvalidSourceError, NumericRangeError, VerificationError

__all__ = ["check_bfs", "check_sssp", "check_apsp", "check_cc", "check_scc", "check_mis", "check_msf",
           "check_reachability", "check_shortcut"]
__all__ += ["check_pagerank", "check_triangles", "check_lcc"]
__all__ += ["check_betweenness", "check_edge_betweenness", "check_cdlp", "check_core_number"]
__all__ += ["check_communities"]
__all__ += ["check_bfs_sample", "check_sssp_sample", "check_cc_sample", "check_pagerank_sample"]


def _csgraph():
    """scipy.sparse.csgraph, imported on a checker's first call (it pulls in scipy.linalg: a tenth of a
    second of every ``import la_graph`` otherwise)."""
    from scipy.sparse import csgraph
    return csgraph


# ---------------------------------------------------------------------- helpers
def _fail(msg):
    raise VerificationError(msg)


def _structure(G):
    """The adjacency structure as a float csr_array of ones (zero weights stay edges)."""
    return sp.csr_array((np.ones(G.nnz), G.indices, G.indptr), shape=(G.n, G.n))


def _weights(G):
    """Weight of every stored entry, in CSR order (1.0 when unweighted)."""
    return G.weights if G.weighted else np.ones(G.nnz)


def _edge_lookup(G, u, v):
    """For pairs ``(u[k], v[k])``: ``(found, pos)``, ``pos`` the CSR position of edge ``u -> v``.

    ``pos`` is only meaningful where ``found``; ids must already be in range.
    (A compiled binary search in each pair's row, :mod:`la_graph._verify_kernels`; scipy's
    fancy indexing took over a minute for the 4 M parents of an SSSP on R-MAT 22.)
    """
    from ._verify_kernels import edge_positions

    u, v = np.asarray(u, np.int64), np.asarray(v, np.int64)
    if G.nnz == 0 or u.size == 0:
        return np.zeros(u.shape, bool), np.zeros(u.shape, np.int64)
    pos = edge_positions(G.indptr, G.indices, u.ravel(), v.ravel()).reshape(u.shape)
    return pos >= 0, np.maximum(pos, 0)


def _canonical(labels):
    """Relabel any component labelling so each vertex gets the smallest vertex id of its class."""
    labels = np.asarray(labels)
    if labels.size == 0:
        return labels.astype(np.int64)
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    return first[inverse.reshape(-1)].astype(np.int64)


def _int_array(a, name, shape):
    """``a`` as an int64 array of exactly ``shape``, or a VerificationError."""
    arr = np.asarray(a)
    if arr.dtype.kind not in "iu":
        _fail(f"{name} must be an integer array, got dtype {arr.dtype}")
    if arr.shape != shape:
        _fail(f"{name} must have shape {shape}, got {arr.shape}")
    return arr.astype(np.int64, copy=False)


def _rows(G, source, result_arrays, names, dtype_kind):
    """Normalize one-or-many-source results to 2-D.

    Returns ``(sources, arrays, at)``: ``sources`` a 1-D int64 array of k ids,
    each array reshaped to (k, n) (``None`` stays ``None``), and ``at(i, v)``
    formatting an index for messages: ``[v]`` for one source, ``[i, v]`` for several.
    """
    n = G.n
    multi = np.ndim(source) != 0
    if multi:
        sources = V.check_vertices(source, n)
        k = sources.size
    else:
        sources = np.array([V.check_vertex(source, n)], np.int64)
        k = 1
    out = []
    for arr, name in zip(result_arrays, names):
        if arr is None:
            out.append(None)
            continue
        arr = np.asarray(arr)
        if dtype_kind == "i" and arr.dtype.kind not in "iu":
            _fail(f"{name} must be an integer array, got dtype {arr.dtype}")
        if dtype_kind == "f" and arr.dtype.kind not in "iuf":
            _fail(f"{name} must be a real array, got dtype {arr.dtype}")
        if multi and arr.shape == (n,) and k == 1:
            arr = arr[None, :]
        want = (k, n) if multi else (n,)
        if arr.shape != want:
            _fail(f"{name} must have shape {want}, got {arr.shape}")
        out.append(arr.reshape(k, n).astype(np.int64 if dtype_kind == "i" else np.float64, copy=False))

    def at(i, v):
        return f"[{i}, {v}]" if multi else f"[{v}]"

    return sources, out, at


def _first(mask):
    """``(row, col)`` of the first True of a 2-D mask in row-major order, or ``None``."""
    flat = np.flatnonzero(mask)
    if flat.size == 0:
        return None
    return divmod(int(flat[0]), mask.shape[1])


def _check_parent_edges(G, parent, sources, reach, at):
    """Checks shared by BFS and SSSP parents, all (k, n) arrays.

    ``parent[i, sources[i]] == sources[i]``; ``parent == -1`` exactly where not
    ``reach``; every other reached ``v`` has a parent ``p`` in range with an edge
    ``p -> v``.  Returns ``(ii, vv, pp, pos)`` for those vertices (row, vertex,
    parent, CSR position of the edge) for the caller's own test.
    """
    n = G.n
    rows = np.arange(sources.size)
    src_par = parent[rows, sources]
    bad = np.flatnonzero(src_par != sources)
    if bad.size:
        i = int(bad[0])
        _fail(f"parent{at(i, sources[i])} = {src_par[i]}, expected {sources[i]} (the source)")
    hit = _first(reach != (parent != -1))
    if hit:
        i, v = hit
        if reach[i, v]:
            _fail(f"parent{at(i, v)} = -1 but vertex {v} is reachable from {sources[i]}")
        _fail(f"parent{at(i, v)} = {parent[i, v]} but vertex {v} is unreachable from {sources[i]}")
    check = reach.copy()
    check[rows, sources] = False
    ii, vv = np.nonzero(check)
    pp = parent[ii, vv]
    in_range = (pp >= 0) & (pp < n)
    found, pos = _edge_lookup(G, np.where(in_range, pp, 0), vv)
    bad = np.flatnonzero(~(in_range & found))
    if bad.size:
        j = int(bad[0])
        i, v, p = int(ii[j]), int(vv[j]), int(pp[j])
        if not in_range[j]:
            _fail(f"parent{at(i, v)} = {p} is not a vertex id in 0..{n - 1}")
        _fail(f"parent{at(i, v)} = {p} but there is no edge {p} -> {v}")
    return ii, vv, pp, pos


def _check_parents_reach_sources(parent, sources, at):
    """Every non-(-1) parent chain must end at its row's source (no cycles).

    ``parent`` is (k, n) with ``parent[i, sources[i]] == sources[i]``; uses
    pointer doubling, O(k n log n).
    """
    k, n = parent.shape
    offs = (np.arange(k, dtype=np.int64) * n)[:, None]
    self_ = np.arange(k * n, dtype=np.int64).reshape(k, n)
    anc = np.where(parent >= 0, parent + offs, self_).reshape(-1)
    while True:
        nxt = anc[anc]
        if np.array_equal(nxt, anc):
            break
        anc = nxt
    bad = (parent >= 0) & (anc.reshape(k, n) != (sources + offs[:, 0])[:, None])
    hit = _first(bad)
    if hit:
        i, v = hit
        _fail(f"parent{at(i, v)} = {parent[i, v]}: following parents from vertex {v} never "
              f"reaches the source {sources[i]} (the parents form a cycle)")


def _check_labels(labels, ref, what):
    """Compare a labelling with the canonical reference ``ref``; name the first bad vertex."""
    n = ref.size
    labels = _int_array(labels, "labels", (n,))
    bad = np.flatnonzero(labels != ref)
    if bad.size == 0:
        return
    v = int(bad[0])
    lab = int(labels[v])
    if not 0 <= lab < n:
        _fail(f"labels[{v}] = {lab} is not a vertex id in 0..{n - 1}")
    if ref[lab] != ref[v]:
        _fail(f"labels[{v}] = {lab} but vertex {v} is not in the {what} of {lab}")
    _fail(f"labels[{v}] = {lab}, expected {ref[v]} (the smallest vertex id of its {what})")


# ---------------------------------------------------------------------- BFS
def check_bfs(G, source, result):
    """Check the levels and parents of a breadth-first search.

    Levels follow out-edges (edge ``u -> v`` is ``A[u, v]``) and are compared
    with :func:`scipy.sparse.csgraph.shortest_path` (unweighted).  Each parent
    ``parent[v]`` of a reachable ``v != source`` must have an edge
    ``parent[v] -> v`` and level ``level[v] - 1``; the source is its own
    parent at level 0; unreachable vertices hold -1 in both arrays.

    Parameters
    ----------
    G : Graph
    source : int or array_like of int
        One source, or a 1-D array of k sources (duplicates allowed).  ``None``
        takes ``result.sources``.
    result : object
        With attributes ``level`` and ``parent``: integer arrays of shape (n,)
        for one source, (k, n) for k sources (row i for ``sources[i]``; shape
        (n,) is also accepted when k == 1).  Either may be ``None`` (or
        missing) when the algorithm was asked for the other one only.

    Raises
    ------
    VerificationError
        Naming the first wrong vertex, e.g. ``level[17] = 3, expected 2``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_bfs
    >>> G = Graph.from_edges([0, 1], [1, 2], n=4, directed=True)
    >>> r = SimpleNamespace(level=np.array([0, 1, 2, -1]), parent=np.array([0, 0, 1, -1]))
    >>> check_bfs(G, 0, r)
    >>> r.level[2] = 1
    >>> check_bfs(G, 0, r)
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: level[2] = 1, expected 2
    """
    V.check_graph(G)
    if source is None:
        source = getattr(result, "sources", None)
        if source is None:
            raise InvalidSourceError("source is None and result has no .sources")
    level, parent = getattr(result, "level", None), getattr(result, "parent", None)
    if level is None and parent is None:
        _fail("result has neither level nor parent")
    sources, (level, parent), at = _rows(G, source, (level, parent), ("level", "parent"), "i")

    d = _csgraph().shortest_path(_structure(G), directed=True, unweighted=True, indices=sources)
    d = np.atleast_2d(d)
    ref = np.where(np.isinf(d), -1, d).astype(np.int64)

    if level is not None:
        hit = _first(level != ref)
        if hit:
            i, v = hit
            extra = f" (unreachable from {sources[i]})" if ref[i, v] < 0 else ""
            _fail(f"level{at(i, v)} = {level[i, v]}, expected {ref[i, v]}{extra}")

    if parent is not None:
        ii, vv, pp, _ = _check_parent_edges(G, parent, sources, ref >= 0, at)
        plev = ref[ii, pp]
        bad = np.flatnonzero(plev != ref[ii, vv] - 1)
        if bad.size:
            j = int(bad[0])
            i, v, p = int(ii[j]), int(vv[j]), int(pp[j])
            _fail(f"parent{at(i, v)} = {p} is at level {plev[j]}, expected level {ref[i, v] - 1} "
                  f"(one less than level{at(i, v)} = {ref[i, v]})")


# ---------------------------------------------------------------------- SSSP
def check_sssp(G, source, dist, parent=None, *, rtol=1e-9, atol=None):
    """Check single-source shortest-path distances (and parents, if given).

    Checks, in order: ``dist[source] == 0``; equality (within tolerance)
    with :func:`scipy.sparse.csgraph.dijkstra` (``bellman_ford`` when some
    weight is negative), ``inf`` exactly for unreachable vertices; the triangle
    inequality ``dist[v] <= dist[u] + w(u, v)`` on every edge (independent of
    scipy, so a wrong reference cannot hide a wrong answer); then, if
    ``parent`` is given: ``parent[source] == source``, -1 exactly for
    unreachable vertices, an edge ``parent[v] -> v`` with
    ``dist[parent[v]] + w == dist[v]`` for every other vertex, and parent chains
    that reach the source (no cycle, possible with zero-weight cycles).

    Parameters
    ----------
    G : Graph
        Unweighted graphs count every edge as weight 1.
    source : int or array_like of int
        One source, or a 1-D array of k sources.
    dist : array_like of float
        Shape (n,) for one source, (k, n) for k sources; ``inf`` where unreachable.
    parent : array_like of int, optional
        Same shape as ``dist``.
    rtol, atol : float
        Tolerance ``rtol * max(|a|, |b|) + atol``; ``atol=None`` means
        ``rtol * max |w|`` (rounding on the scale of one edge weight).

    Raises
    ------
    VerificationError
        Naming the first wrong vertex.  Also when the graph has a negative
        cycle reachable from a source (no distances are right then).

    Examples
    --------
    >>> import numpy as np
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_sssp
    >>> G = Graph.from_edges([0, 1, 0], [1, 2, 2], w=[1.0, 1.0, 5.0], directed=True)
    >>> check_sssp(G, 0, np.array([0.0, 1.0, 2.0]), parent=np.array([0, 0, 1]))
    >>> check_sssp(G, 0, np.array([0.0, 1.0, 5.0]))
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: dist[2] = 5.0, expected 2.0
    """
    V.check_graph(G)
    sources, (dist,), at = _rows(G, source, (dist,), ("dist",), "f")
    k, n = dist.shape
    rows = np.arange(k)
    w = _weights(G)
    if atol is None:
        atol = rtol * (float(np.abs(w).max()) if w.size else 1.0)

    def close(a, b):
        with np.errstate(invalid="ignore"):
            near = np.abs(a - b) <= rtol * np.maximum(np.abs(a), np.abs(b)) + atol
        return (a == b) | (np.isfinite(a) & np.isfinite(b) & near)  # a == b: inf == inf

    hit = _first(np.isnan(dist) | (dist == -np.inf))
    if hit:
        i, v = hit
        _fail(f"dist{at(i, v)} = {dist[i, v]} is not a distance")
    src_d = dist[rows, sources]
    bad = np.flatnonzero(src_d != 0)
    if bad.size:
        i = int(bad[0])
        _fail(f"dist{at(i, sources[i])} = {src_d[i]}, expected 0 (the source)")

    A = sp.csr_array((w.copy(), G.indices, G.indptr), shape=(n, n))
    try:
        if w.size and w.min() < 0:
            ref = _csgraph().bellman_ford(A, directed=True, indices=sources)
        else:
            ref = _csgraph().dijkstra(A, directed=True, indices=sources)
    except _csgraph().NegativeCycleError:
        _fail("the graph has a negative cycle reachable from the source: no distances are correct")
    ref = np.atleast_2d(ref)
    hit = _first(~close(dist, ref))
    if hit:
        i, v = hit
        extra = f" (unreachable from {sources[i]})" if np.isinf(ref[i, v]) else ""
        _fail(f"dist{at(i, v)} = {dist[i, v]}, expected {ref[i, v]}{extra}")

    # triangle inequality on every edge u -> v
    eu, ev = G.edges()
    if eu.size:
        with np.errstate(invalid="ignore"):
            via = dist[:, eu] + w
            tol = rtol * np.maximum(np.abs(dist[:, ev]), np.abs(via)) + atol
            viol = (dist[:, ev] > via) & ~(np.isfinite(dist[:, ev]) & (dist[:, ev] - via <= tol))
        if viol.any():
            # first row with a violation, then the smallest violated vertex in it
            i = int(np.flatnonzero(viol.any(axis=1))[0])
            e = np.flatnonzero(viol[i])
            e = int(e[np.argmin(ev[e])])
            u, v = int(eu[e]), int(ev[e])
            _fail(f"dist{at(i, v)} = {dist[i, v]} but edge {u} -> {v} of weight {w[e]} gives "
                  f"dist{at(i, u)} + {w[e]} = {via[i, e]}")

    if parent is None:
        return
    _, (parent,), _ = _rows(G, source, (parent,), ("parent",), "i")
    ii, vv, pp, pos = _check_parent_edges(G, parent, sources, np.isfinite(ref), at)
    via = dist[ii, pp] + w[pos]
    bad = np.flatnonzero(~close(via, dist[ii, vv]))
    if bad.size:
        j = int(bad[0])
        i, v, p = int(ii[j]), int(vv[j]), int(pp[j])
        _fail(f"parent{at(i, v)} = {p} but dist{at(i, p)} + w({p}, {v}) = {via[j]} "
              f"!= dist{at(i, v)} = {dist[i, v]}")
    _check_parents_reach_sources(parent, sources, at)


# ---------------------------------------------------------------------- components
def check_cc(G, labels):
    """Check connected-component labels (weakly connected for a directed graph).

    The expected label of a vertex is the smallest vertex id of its component,
    from :func:`scipy.sparse.csgraph.connected_components` (``connection='weak'``).

    Parameters
    ----------
    G : Graph
    labels : array_like of int, shape (n,)

    Raises
    ------
    VerificationError
        At the first vertex whose label differs, e.g.
        ``labels[4] = 1 but vertex 4 is not in the component of 1``.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_cc
    >>> G = Graph.from_edges([0, 2], [1, 3], n=5)
    >>> check_cc(G, [0, 0, 2, 2, 4])
    >>> check_cc(G, [0, 0, 3, 3, 4])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: labels[2] = 3, expected 2 (the smallest vertex id of its component)
    """
    V.check_graph(G)
    _, comp = _csgraph().connected_components(_structure(G), directed=True, connection="weak")
    _check_labels(labels, _canonical(comp), "component")


def check_scc(G, labels):
    """Check strongly-connected-component labels.

    The expected label of a vertex is the smallest vertex id of its strong
    component, from :func:`scipy.sparse.csgraph.connected_components`
    (``connection='strong'``).  On an undirected graph these are the connected
    components.

    Parameters
    ----------
    G : Graph
    labels : array_like of int, shape (n,)

    Raises
    ------
    VerificationError
        At the first vertex whose label differs.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_scc
    >>> G = Graph.from_edges([0, 1, 1], [1, 0, 2], directed=True)
    >>> check_scc(G, [0, 0, 2])
    >>> check_scc(G, [0, 0, 0])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: labels[2] = 0 but vertex 2 is not in the strong component of 0
    """
    V.check_graph(G)
    _, comp = _csgraph().connected_components(_structure(G), directed=True, connection="strong")
    _check_labels(labels, _canonical(comp), "strong component")


# ---------------------------------------------------------------------- MIS
def check_mis(G, members):
    """Check a maximal independent set.

    Independent: no edge joins two members (self-loops are ignored).  Maximal:
    every non-member has a member neighbour.  Edge direction is ignored.

    Parameters
    ----------
    G : Graph
    members : array_like
        A boolean mask of shape (n,), or an integer array of member ids
        (duplicates allowed).

    Raises
    ------
    VerificationError
        Naming the first adjacent pair, or the first vertex that could be added.

    Examples
    --------
    >>> import numpy as np
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_mis
    >>> G = Graph.from_edges([0, 1, 2], [1, 2, 3])   # path 0-1-2-3
    >>> check_mis(G, [0, 2])
    >>> check_mis(G, np.array([True, False, False, True]))
    >>> check_mis(G, [0])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: vertex 2 is not in the set and has no neighbour in it: the set is not maximal
    """
    V.check_graph(G)
    n = G.n
    m = np.asarray(members)
    if m.dtype.kind == "b":
        if m.shape != (n,):
            _fail(f"members mask must have shape {(n,)}, got {m.shape}")
        mask = m
    else:
        if m.size and m.dtype.kind not in "iu":
            _fail(f"members must be a boolean mask or integer vertex ids, got dtype {m.dtype}")
        if m.ndim != 1:
            _fail(f"members must be 1-D, got shape {m.shape}")
        m = m.astype(np.int64)
        bad = np.flatnonzero((m < 0) | (m >= n))
        if bad.size:
            _fail(f"members[{bad[0]}] = {m[bad[0]]} is not a vertex id in 0..{n - 1}")
        mask = np.zeros(n, bool)
        mask[m] = True
    u, v = G.edges()
    proper = u != v
    both = proper & mask[u] & mask[v]
    if both.any():
        e = np.flatnonzero(both)
        e = int(e[np.argmin(np.minimum(u[e], v[e]))])
        a, b = sorted((int(u[e]), int(v[e])))
        _fail(f"vertices {a} and {b} are both in the set but are adjacent: the set is not independent")
    covered = mask.copy()
    covered[v[proper & mask[u]]] = True
    covered[u[proper & mask[v]]] = True
    bad = np.flatnonzero(~covered)
    if bad.size:
        _fail(f"vertex {bad[0]} is not in the set and has no neighbour in it: the set is not maximal")


# ---------------------------------------------------------------------- MSF
def _forest_edges(G, edges):
    """Normalize the accepted MSF edge forms to ``(u, v)`` int64 arrays (see check_msf)."""
    n = G.n
    if sp.issparse(edges):
        if edges.shape != (n, n):
            _fail(f"forest matrix must have shape {(n, n)}, got {edges.shape}")
        C = sp.coo_array(edges)
        return _unique_pairs(C.row, C.col)
    if isinstance(edges, (tuple, list)) and len(edges) == 2 and np.ndim(edges[0]) == 1:
        u, v = np.asarray(edges[0]), np.asarray(edges[1])
        if u.shape != v.shape:
            _fail(f"forest u and v must have the same length, got {u.size} and {v.size}")
    else:
        a = np.asarray(edges)
        if a.dtype.kind == "b":
            if a.shape != (G.nnz,):
                _fail(f"forest mask must have one entry per stored edge of G, shape {(G.nnz,)}, "
                      f"got {a.shape}")
            r, c = G.edges()
            return _unique_pairs(r[a], c[a])
        if a.ndim != 2 or a.shape[1] != 2:
            _fail(f"forest edges must be (u, v) arrays, an (m, 2) array, a boolean mask over "
                  f"G's stored edges, or a sparse matrix; got an array of shape {a.shape}")
        u, v = a[:, 0], a[:, 1]
    if u.size and (u.dtype.kind not in "iu" or v.dtype.kind not in "iu"):
        _fail(f"forest edge endpoints must be integers, got dtype {u.dtype} and {v.dtype}")
    return u.astype(np.int64), v.astype(np.int64)


def _unique_pairs(u, v):
    """Each undirected pair once, as ``(min, max)`` arrays (``n * n`` fits int64: checked by Graph)."""
    lo, hi = np.minimum(u, v).astype(np.int64), np.maximum(u, v).astype(np.int64)
    n = int(hi.max()) + 1 if hi.size else 1
    keys = np.unique(lo * n + hi)
    return keys // n, keys % n


def check_msf(G, edges_or_mask, weight=None, *, rtol=1e-9):
    """Check a minimum spanning forest of an undirected graph.

    The forest's edges must exist in ``G``, contain no cycle (a self-loop or a
    repeated edge is a cycle), connect every connected component of ``G``
    (so it has ``n - #components`` edges), and have the total weight of
    :func:`scipy.sparse.csgraph.minimum_spanning_tree` on ``G`` (within
    ``rtol`` of the sum of absolute weights).  Weights are taken from ``G``
    (1 per edge when unweighted).

    Given a result object (an :class:`~la_graph.MSFResult`: attributes ``u``,
    ``v``, ``weight``, ``total_weight``, ``labels``), its edges are checked as
    above, its reported weights must be ``G``'s weights of those edges, its
    total the forest's weight, and its labels the smallest vertex id of each
    connected component (as :func:`check_cc`).  On graphs with at most
    ``CYCLE_CHECK_MAX_N`` vertices the cycle property is checked too: every
    edge of ``G`` weighs at least as much as each forest edge on the forest
    path between its ends.

    Parameters
    ----------
    G : Graph
        Undirected.
    edges_or_mask : one of
        * a result object with ``u``, ``v``, ``weight``, ``total_weight``, ``labels``;
        * a pair ``(u, v)`` of 1-D integer arrays, one undirected edge per index;
        * an integer array of shape (m, 2), one edge per row;
        * a boolean mask of shape ``(G.nnz,)`` over G's stored entries in
          :meth:`Graph.edges` order (selecting one or both directions of an
          edge counts it once);
        * a scipy sparse n x n matrix whose stored entries are the edges (one
          or both triangles; each edge counted once).
    weight : float, optional
        The total weight the algorithm reported; checked as well (default for a
        result object: its ``total_weight``).

    Raises
    ------
    InvalidGraphError
        ``G`` is directed.
    VerificationError
        Naming the first bad edge or vertex, or the two totals.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_msf
    >>> G = Graph.from_edges([0, 1, 0], [1, 2, 2], w=[1.0, 2.0, 3.0])  # triangle
    >>> check_msf(G, ([0, 1], [1, 2]), weight=3.0)
    >>> check_msf(G, ([0, 0], [1, 2]))
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: forest weight 4.0, expected 3.0 (a minimum spanning forest's weight)
    """
    V.check_graph(G, undirected=True)
    n = G.n
    result = edges_or_mask if all(_has(edges_or_mask, a) for a in _MSF_RESULT_FIELDS) else None
    if result is not None:
        edges_or_mask = (np.asarray(result.u), np.asarray(result.v))
        if weight is None:
            try:
                weight = result.total_weight
            except NumericRangeError:   # an MSFResult whose total is past float64: the sum below is inf too
                weight = np.inf
    u, v = _forest_edges(G, edges_or_mask)
    bad = np.flatnonzero((u < 0) | (u >= n) | (v < 0) | (v >= n))
    if bad.size:
        j = int(bad[0])
        _fail(f"forest edge {j} = ({u[j]}, {v[j]}) has an endpoint outside 0..{n - 1}")
    found, pos = _edge_lookup(G, u, v)
    bad = np.flatnonzero(~found)
    if bad.size:
        j = int(bad[0])
        _fail(f"forest edge {j} = ({u[j]}, {v[j]}) is not an edge of G")
    loops = np.flatnonzero(u == v)
    if loops.size:
        _fail(f"forest edge {loops[0]} = ({u[loops[0]]}, {u[loops[0]]}) is a self-loop: a cycle")
    m = u.size

    # acyclic: each forest component with c vertices has exactly c - 1 edges
    F = sp.csr_array((np.ones(m), (u, v)), shape=(n, n))
    _, fcomp = _csgraph().connected_components(F, directed=False)
    fcan = _canonical(fcomp)
    edges_per = np.bincount(fcan[u], minlength=n)
    verts_per = np.bincount(fcan, minlength=n)
    cyc = np.flatnonzero(edges_per > np.maximum(verts_per - 1, 0))
    if cyc.size:
        r = int(cyc[0])
        _fail(f"the forest has a cycle: the tree of vertex {r} has {edges_per[r]} edges "
              f"on {verts_per[r]} vertices")

    # spanning: the forest's components are G's components
    _, gcomp = _csgraph().connected_components(_structure(G), directed=False)
    gcan = _canonical(gcomp)
    bad = np.flatnonzero(fcan != gcan)
    if bad.size:
        # first such vertex x: its G-root gcan[x] < x is still correctly labelled in the forest
        x = int(bad[0])
        _fail(f"vertices {gcan[x]} and {x} are connected in G but not in the forest: "
              f"it does not span their component")

    # minimum: total weight vs scipy's MST.  scipy drops explicit zeros, so zero weights
    # become the smallest positive float (order kept; adds < 1e-320 to the total)
    w = _weights(G)
    with np.errstate(over="ignore"):   # a total past float64 is inf on both sides
        total = float(w[pos].sum())
    tiny = np.nextafter(0.0, 1.0)
    W = sp.csr_array((np.where(w == 0, tiny, w), G.indices, G.indptr), shape=(n, n))
    ref_edges = _csgraph().minimum_spanning_tree(W).data
    ref_edges[ref_edges == tiny] = 0.0
    with np.errstate(over="ignore"):
        ref = float(ref_edges.sum())
        tol = rtol * max(float(np.abs(w[pos]).sum()), float(np.abs(ref_edges).sum()))
    if abs(total - ref) > tol:
        _fail(f"forest weight {total}, expected {ref} (a minimum spanning forest's weight)")
    if weight is not None and not (float(weight) == total or abs(float(weight) - total) <= tol):   # inf == inf
        _fail(f"reported weight {weight} but the forest's edges weigh {total}")
    if result is not None:
        reported = np.asarray(result.weight, dtype=np.float64)
        if reported.shape != u.shape:
            _fail(f"result.weight must have one weight per forest edge, shape {u.shape}, got {reported.shape}")
        bad = np.flatnonzero(reported != w[pos])
        if bad.size:
            j = int(bad[0])
            _fail(f"result.weight[{j}] = {reported[j]} but edge ({u[j]}, {v[j]}) weighs {w[pos[j]]} in G")
        check_cc(G, result.labels)
    if n <= CYCLE_CHECK_MAX_N:
        _check_cycle_property(G, u, v, w[pos])


def _has(obj, name):
    """``hasattr``, where a property that raises a la_graph error (an MSF total past float64) still counts."""
    try:
        getattr(obj, name)
    except AttributeError:
        return False
    except NumericRangeError:
        return True
    return True


#: Graphs with at most this many vertices get the cycle-property check (an n x n table).
CYCLE_CHECK_MAX_N = 2000
_MSF_RESULT_FIELDS = ("u", "v", "weight", "total_weight", "labels")


def _check_cycle_property(G, u, v, wf):
    """Every edge of ``G`` weighs at least the heaviest forest edge on the forest path between its ends.

    ``(u, v, wf)`` is a verified spanning forest.  ``B[x, y]``, the heaviest
    edge on the path, is filled by merging trees in increasing edge weight
    (Kruskal's order): the edge that joins two trees is the heaviest on every
    path across it.
    """
    n = G.n
    B = np.full((n, n), -np.inf)
    tree = np.arange(n)
    members = {x: np.array([x]) for x in range(n)}
    for k in np.argsort(wf, kind="stable"):
        a, b = int(tree[u[k]]), int(tree[v[k]])
        if members[a].size < members[b].size:
            a, b = b, a
        A, Bm = members[a], members.pop(b)
        B[np.ix_(A, Bm)] = wf[k]
        B[np.ix_(Bm, A)] = wf[k]
        tree[Bm] = a
        members[a] = np.concatenate([A, Bm])
    rows, cols = G.edges()
    w = _weights(G)
    bad = np.flatnonzero((rows != cols) & (w < B[rows, cols]))
    if bad.size:
        j = int(bad[0])
        _fail(f"edge ({rows[j]}, {cols[j]}) of weight {w[j]} is lighter than a forest edge of weight "
              f"{B[rows[j], cols[j]]} on the forest path between its ends: not a minimum forest (cycle property)")


# ---------------------------------------------------------------------- reachability
def check_reachability(G, sources, R, *, sample=None, seed=0):
    """Check a multi-source reachability matrix against one scipy BFS per source.

    Row ``i`` of ``R`` must be True exactly at the vertices that
    :func:`scipy.sparse.csgraph.breadth_first_order` reaches from
    ``sources[i]`` along out-edges (the source itself included).

    Parameters
    ----------
    G : Graph
    sources : array_like of int
        The k sources, in row order (repeats allowed).
    R : array_like of bool
        Shape ``(k, n)``.
    sample : int, optional
        Check only this many rows, drawn at random with ``seed`` (for many
        sources on a big graph); default: every row.

    Raises
    ------
    VerificationError
        Naming the first wrong entry, e.g. ``R[1, 4] = True but vertex 4 is not
        reachable from 3``.

    Examples
    --------
    >>> import numpy as np
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_reachability
    >>> G = Graph.from_edges([0, 1], [1, 2], n=4, directed=True)
    >>> R = np.array([[True, True, True, False], [False, True, True, False]])
    >>> check_reachability(G, [0, 1], R)
    >>> R[1, 0] = True
    >>> check_reachability(G, [0, 1], R)
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: R[1, 0] = True but vertex 0 is not reachable from 1
    """
    V.check_graph(G)
    sources = V.check_vertices(sources, G.n)
    k, n = sources.size, G.n
    R = np.asarray(R)
    if R.dtype != np.bool_:
        _fail(f"R must be a boolean array, got dtype {R.dtype}")
    if R.shape != (k, n):
        _fail(f"R must have shape {(k, n)}, got {R.shape}")
    rows = np.arange(k)
    if sample is not None and sample < k:
        rows = np.sort(np.random.default_rng(seed).choice(k, int(sample), replace=False))
    S, bfo = _structure(G), _csgraph().breadth_first_order
    for i in rows:
        s = int(sources[i])
        ref = np.zeros(n, dtype=bool)
        ref[bfo(S, s, directed=True, return_predecessors=False)] = True
        bad = np.flatnonzero(R[i] != ref)
        if bad.size:
            v = int(bad[0])
            if R[i, v]:
                _fail(f"R[{i}, {v}] = True but vertex {v} is not reachable from {s}")
            _fail(f"R[{i}, {v}] = False but vertex {v} is reachable from {s}")


def check_shortcut(G, H, *, sample=None, seed=0):
    """Check a shortcut set: ``H`` reaches exactly what ``G`` reaches.

    ``H`` (the result of :func:`la_graph.shortcut`) must have ``G``'s vertices,
    hold every edge of ``G`` (weights aside; an undirected graph's edges both
    ways), and join by each other edge ``u -> v`` (a shortcut) a pair that
    ``G`` connects: ``v`` reachable from ``u`` in ``G``.  The first makes ``H``
    reach at least what ``G`` reaches (and no BFS in ``H`` deeper), the second
    at most: the shortcuts lie in ``G``'s transitive closure.

    A shortcut inside one strong component of ``G`` (scipy) holds at once; the
    others are tested with scipy breadth-first searches: each shortcut goes
    with whichever of its ends has more shortcuts (a pivot of ParSC's
    searches), and one search forward from that tail, or backward (in ``G``
    reversed) from that head, checks them all.

    Parameters
    ----------
    G, H : Graph
    sample : int, optional
        Run only this many of those searches, drawn at random with ``seed``;
        default: all.

    Raises
    ------
    VerificationError
        Naming the first edge of ``G`` missing from ``H``, or the first
        shortcut that ``G`` does not connect.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_shortcut
    >>> G = Graph.from_edges([0, 1, 2], [1, 2, 3], directed=True)       # path 0 -> 1 -> 2 -> 3
    >>> check_shortcut(G, Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], directed=True))
    >>> check_shortcut(G, Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], directed=True))
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: H has the edge 3 -> 0, but 0 is not reachable from 3 in G
    """
    V.check_graph(G)
    V.check_graph(H, name="H")
    n = G.n
    if H.n != n:
        _fail(f"H has {H.n} vertices, G has {n}")
    gu, gv = G.edges()
    found, _ = _edge_lookup(H, gu, gv)
    bad = np.flatnonzero(~found)
    if bad.size:
        j = int(bad[0])
        _fail(f"the edge {gu[j]} -> {gv[j]} of G is not in H")
    hu, hv = (np.asarray(x, np.int64) for x in H.edges())
    found, _ = _edge_lookup(G, hu, hv)
    keep = ~found & (hu != hv)
    if not keep.any():
        return
    S, cs = _structure(G), _csgraph()
    _, comp = cs.connected_components(S, directed=True, connection="strong")
    keep &= comp[hu] != comp[hv]
    u, v = hu[keep], hv[keep]
    if u.size == 0:
        return
    # each shortcut goes to whichever end has more of them (a pivot of ParSC's searches): a search
    # forward from it, or backward (G reversed) to it, checks them all
    ahead = np.bincount(u, minlength=n)[u] >= np.bincount(v, minlength=n)[v]
    todo = [(S, u[ahead], v[ahead], True), (S.T.tocsr(), v[~ahead], u[~ahead], False)]
    searches = []                                 # (graph, from, targets, forward)
    for M, a, b, forward in todo:
        order = np.lexsort((b, a))
        a, b = a[order], b[order]
        cut = np.flatnonzero(np.r_[True, a[1:] != a[:-1]]) if a.size else np.zeros(0, np.int64)
        searches += [(M, int(a[i]), part, forward) for i, part in zip(cut, np.split(b, cut[1:]))]
    pick = range(len(searches))
    if sample is not None and sample < len(searches):
        pick = np.sort(np.random.default_rng(seed).choice(len(searches), int(sample), replace=False))
    reached = np.zeros(n, bool)
    for i in pick:
        M, s, targets, forward = searches[i]
        seen = cs.breadth_first_order(M, s, directed=True, return_predecessors=False)
        reached[seen] = True
        miss = np.flatnonzero(~reached[targets])
        reached[seen] = False
        if miss.size:
            t = int(targets[miss[0]])
            a, b = (s, t) if forward else (t, s)
            _fail(f"H has the edge {a} -> {b}, but {b} is not reachable from {a} in G")


# ---------------------------------------------------------------------- apsp
def check_apsp(G, D, rows=None, *, sample=None, seed=0, rtol=1e-9, atol=None):
    """Check all-pairs shortest-path distances, row by row with :func:`check_sssp`.

    Parameters
    ----------
    G : Graph
    D : array_like of float
        Shape ``(n, n)``, or ``(len(rows), n)`` for the rows ``rows`` (a block of
        :func:`la_graph.apsp_blocks`).  ``inf`` where unreachable.
    rows : slice or array_like of int, optional
        The sources of ``D``'s rows; default ``0 .. n-1``.
    sample : int, optional
        Check only this many rows, drawn at random (``seed``); default: all.
    rtol, atol : float
        As for :func:`check_sssp`.

    Raises
    ------
    VerificationError
        Naming the row (source) and the first wrong vertex in it.

    Examples
    --------
    >>> import numpy as np
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_apsp
    >>> G = Graph.from_edges([0, 1], [1, 2], w=[2.0, 3.0], directed=True)
    >>> inf = np.inf
    >>> check_apsp(G, [[0, 2, 5], [inf, 0, 3], [inf, inf, 0]])
    >>> check_apsp(G, [[inf, 0, 4]], rows=[1])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: row 0 of D (source 1): dist[2] = 4.0, expected 3.0
    """
    V.check_graph(G)
    n = G.n
    if rows is None:
        rows = np.arange(n)
    elif isinstance(rows, slice):
        rows = np.arange(n)[rows]
    else:
        rows = V.check_vertices(rows, n, what="rows")
    D = np.asarray(D)
    if D.dtype.kind not in "iuf":
        _fail(f"D must be a real array, got dtype {D.dtype}")
    if D.shape != (rows.size, n):
        _fail(f"D must have shape {(rows.size, n)}, got {D.shape}")
    pick = np.arange(rows.size)
    if sample is not None and sample < rows.size:
        pick = np.sort(np.random.default_rng(seed).choice(rows.size, int(sample), replace=False))
    for i in pick:
        s = int(rows[i])
        try:
            check_sssp(G, s, D[i].astype(np.float64, copy=False), rtol=rtol, atol=atol)
        except VerificationError as exc:
            raise VerificationError(f"row {i} of D (source {s}): {exc}") from None


# ---------------------------------------------------------------------- PageRank
def check_pagerank(G, ranks, alpha=0.85, *, personalization=None, max_iter=100, tol=1e-6, weight=None,
                   dangling=None, variant="networkx", rtol=None):
    """Check PageRank ranks against a power iteration of scipy.

    The arguments are :func:`la_graph.pagerank`'s.  The reference steps are
    scipy sparse products with the row-normalized adjacency matrix.

    * ``"networkx"``: the ranks are non-negative and sum to 1; one more step
      moves them by less than ``alpha * n * tol`` in L1 norm (what stopping at
      a change below ``n * tol`` guarantees); and, when ``alpha < 1``, they lie
      within ``alpha * n * tol / (1 - alpha)`` in L1 norm of the fixed point,
      which scipy iterates to 1e-15.  With ``rtol``, also
      ``|rank - fixed point| <= rtol * fixed point`` at every vertex.
    * ``"gap"``, ``"graphalytics"``: the ranks equal scipy's run of the same
      iteration (same start, steps and stopping rule) within ``rtol``
      (default ``1e-9``) at every vertex.

    Raises
    ------
    VerificationError
        Naming the vertex that differs most (``"networkx"``) or the first
        vertex that differs (the others).

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_pagerank
    >>> G = Graph.from_edges([1, 2, 3], [0, 0, 0], directed=True)
    >>> check_pagerank(G, [0.541985, 0.152672, 0.152672, 0.152672])
    >>> check_pagerank(G, [0.25, 0.25, 0.25, 0.25])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: ranks are not a PageRank fixed point to tol=1e-06: one more step moves them by 0.9563 in L1 norm, more than alpha*n*tol = 3.4e-06 (most at vertex 0: 0.25 -> 0.728125)
    """
    V.check_graph(G)
    V.check_choice(variant, ("networkx", "gap", "graphalytics"), what="variant")
    alpha = V.check_real(alpha, "alpha", low=0, high=1)
    max_iter = V.check_count(max_iter, "max_iter")
    tol = V.check_real(tol, "tol", low=0, open_low=True)
    n = G.n
    r = np.asarray(ranks)
    if r.dtype.kind not in "iuf":
        _fail(f"ranks must be a real array, got dtype {r.dtype}")
    if r.shape != (n,):
        _fail(f"ranks must have shape {(n,)}, got {r.shape}")
    r = r.astype(np.float64)
    bad = np.flatnonzero(~np.isfinite(r) | (r < 0))
    if bad.size:
        _fail(f"ranks[{bad[0]}] = {float(r[bad[0]])!r} is not a finite non-negative number")
    if weight is True:
        V.check_graph(G, weighted=True)
    weighted = variant == "networkx" and weight is not False and G.weighted
    W = sp.csr_array((_weights(G) if weighted else np.ones(G.nnz), G.indices, G.indptr), shape=(n, n))
    if weighted and G.nnz and W.data.min() < 0:
        raise V.InvalidGraphError("PageRank needs non-negative edge weights")
    p = np.full(n, 1.0 / max(n, 1)) if personalization is None else \
        V.check_vertex_values(personalization, n, what="personalization")
    dv = p if dangling is None else V.check_vertex_values(dangling, n, what="dangling")
    if n == 0:
        return
    out = np.asarray(W.sum(axis=1)).ravel()
    sink = out == 0
    PT = (sp.diags_array(np.divide(1.0, out, out=np.zeros(n), where=~sink)) @ W).T.tocsr()

    def step(x):
        y = alpha * (PT @ x)
        if variant == "gap":
            return y + (1.0 - alpha) / n
        if variant == "graphalytics":
            return y + (1.0 - alpha + alpha * x[sink].sum()) / n
        return y + (1.0 - alpha) * p + alpha * x[sink].sum() * dv

    if variant != "networkx":
        x = np.full(n, 1.0 / n)
        for _ in range(max_iter):
            x, last = step(x), x
            if variant == "gap" and np.abs(x - last).sum() < tol:
                break
        rt = 1e-9 if rtol is None else rtol
        bad = np.flatnonzero(np.abs(r - x) > rt * np.abs(x) + 1e-15)
        if bad.size:
            v = int(bad[0])
            _fail(f"ranks[{v}] = {float(r[v])!r}, expected {float(x[v])!r} (the {variant} PageRank)")
        return
    if abs(r.sum() - 1.0) > 1e-9 + n * tol:
        _fail(f"ranks sum to {float(r.sum())!r}, expected 1 (the networkx PageRank hands out every vertex's rank)")
    nxt = step(r)
    moved = np.abs(nxt - r)
    bound = alpha * n * tol
    if moved.sum() > bound * (1 + 1e-9) + 1e-12:
        v = int(np.argmax(moved))
        _fail(f"ranks are not a PageRank fixed point to tol={tol}: one more step moves them by {moved.sum():.4g} "
              f"in L1 norm, more than alpha*n*tol = {bound:.4g} (most at vertex {v}: {r[v]:.6g} -> {nxt[v]:.6g})")
    if alpha == 1.0:
        return                                                  # no unique fixed point to compare with
    x = np.full(n, 1.0 / n)
    steps = 1 if alpha == 0 else int(np.ceil(np.log(1e-16) / np.log(alpha))) + 1
    for _ in range(min(steps, 100_000)):
        x, last = step(x), x
        if np.abs(x - last).sum() < 1e-15:
            break
    diff = np.abs(r - x)
    bound = alpha * n * tol / (1.0 - alpha)
    if diff.sum() > bound * (1 + 1e-6) + 1e-12:
        v = int(np.argmax(diff))
        _fail(f"ranks are {diff.sum():.4g} from the PageRank fixed point in L1 norm, more than the "
              f"{bound:.4g} that tol={tol} allows (most at vertex {v}: {r[v]:.6g}, expected {x[v]:.6g})")
    if rtol is not None:
        bad = np.flatnonzero(diff > rtol * x + 1e-15)
        if bad.size:
            v = int(bad[0])
            _fail(f"ranks[{v}] = {float(r[v])!r}, expected {float(x[v])!r} within rtol={rtol} "
                  "(the PageRank fixed point)")


# ---------------------------------------------------------------------- triangles, clustering
def _simple_undirected(G):
    """The structure of ``G`` made undirected, without self-loops: a csr_array of int64 ones."""
    head, tail = _edge_pairs(G, both_ways=True)
    S = sp.csr_array((np.ones(head.size, np.int64), (head, tail)), shape=(G.n, G.n))
    S.sum_duplicates()
    S.data[:] = 1
    return S


#: graphs whose direct count takes more multiply-adds than this are counted over edges oriented by degree
_DIRECT_LIMIT = 1e8


def _masked_product_sums(P, Q, M, axis, budget=1 << 24):
    """Row sums (``axis=1``) or column sums (``axis=0``) of ``(P @ Q) * M``, int64, by row blocks of ``P``.

    A block holds rows whose products (the entries of ``Q`` reached through
    each row of ``P``) number about ``budget``, so memory stays bounded.
    """
    n = P.shape[0]
    work = np.cumsum(P @ np.diff(Q.indptr).astype(np.float64)) if n else np.zeros(0)
    out = np.zeros(n if axis == 1 else M.shape[1], np.int64)
    a = 0
    while a < n:
        b = max(a + 1, int(np.searchsorted(work, (work[a - 1] if a else 0.0) + budget, side="right")))
        part = np.asarray((P[a:b] @ Q).multiply(M[a:b]).sum(axis=axis)).ravel()
        if axis == 1:
            out[a:b] = part
        else:
            out += part.astype(np.int64)
        a = b
    return out


def _wedge_work(S, X):
    """The multiply-adds of ``S @ X``: about ``sum(degree**2)``."""
    return float(S @ np.diff(X.indptr).astype(np.float64) @ np.ones(S.shape[0]))


def _closed_pairs(S, X):
    """For each vertex ``v``: the ordered pairs ``(u, w)`` of its neighbours in ``S`` with ``X[u, w]`` (int64).

    ``S`` is the simple undirected graph, ``X`` a structure within it.  By the
    definition, ``sum over w of S[v, w] (S @ X)[v, w]``, when that takes at most
    ``_DIRECT_LIMIT`` multiply-adds (about ``sum(degree**2)``); beyond, over
    the edges of ``S`` oriented from lower to higher degree (``O``, each
    undirected edge once): each triangle ``a, b, c`` (in that order) adds at
    every corner the directions ``X`` has of the opposite edge, ``B = X + X'``:
    ``a`` the row sums of ``(O @ B) * O``, ``c`` the column sums of
    ``(B @ O) * O``, ``b`` the row sums of ``(O' @ B) * O`` (``B`` on ``O``'s
    structure).  Orienting bounds every row of ``O`` by ``sqrt(2m)``.
    """
    if _wedge_work(S, X) <= _DIRECT_LIMIT:
        return _masked_product_sums(S, X, S, axis=1)
    O = _oriented(S)
    B = (X + X.T).multiply(O).tocsr()
    B.sum_duplicates()
    return (_masked_product_sums(O, B, O, axis=1) + _masked_product_sums(B, O, O, axis=0)
            + _masked_product_sums(O.T.tocsr(), B, O, axis=1))


def _oriented(S):
    """The edges of ``S`` oriented from lower to higher (degree, id): each undirected edge once, CSR."""
    n = S.shape[0]
    rows = np.repeat(np.arange(n), np.diff(S.indptr))
    pos = np.empty(n, np.int64)
    pos[np.argsort(np.diff(S.indptr), kind="stable")] = np.arange(n)
    up = pos[rows] < pos[S.indices]
    return sp.csr_array((np.ones(int(up.sum()), np.int64), (rows[up], S.indices[up])), shape=(n, n))


def _triangle_total(O):
    """The triangles of the oriented graph ``O``, each once (a compiled loop, :mod:`la_graph._verify_kernels`)."""
    from ._verify_kernels import triangle_total

    n = O.shape[0]
    return int(triangle_total(O.indptr.astype(np.int64), O.indices.astype(np.int64), n, 64 if n > 4096 else 1))


def check_triangles(G, per_vertex=None, total=None, *, sample=None, seed=0):
    """Check triangle counts: per vertex (as ``networkx.triangles``), the total, or both.

    With ``sample``, the per-vertex counts are checked at ``sample`` random
    vertices (``seed``) and the vertex of largest degree, each by intersecting
    its neighbours' neighbour lists with its own (work: the degrees of its
    neighbours), and must sum to three times the total; the total is counted
    whole (the compiled oriented loop below).  R-MAT 20's full per-vertex
    check takes minutes; 64 samples take under a second.

    The reference counts, with scipy on the simple undirected graph ``S``
    (directions, self-loops, weights and duplicates dropped), the ordered pairs
    of adjacent neighbours of each vertex, ``sum((S @ S) * S, axis=1)``, halved;
    the total is their sum over three.  That takes about ``sum(degree**2)``
    multiply-adds (in row blocks of bounded memory); on graphs where that is
    over 1e8 (skewed ones: R-MAT, web crawls) the total alone is counted over the
    edges oriented from lower to higher degree, each triangle once, by a compiled
    loop that marks a vertex's out-neighbours (no product materialised), and
    per-vertex counts over the same orientation by three scipy products whose
    rows are at most ``sqrt(2m)`` long.

    Parameters
    ----------
    G : Graph
    per_vertex : array_like of int, optional
        The count at each vertex.
    total : int, optional
        The number of triangles.

    Raises
    ------
    VerificationError
        Naming the first vertex whose count is wrong, or the wrong total.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_triangles
    >>> G = Graph.from_edges([0, 0, 1, 2, 2, 3], [1, 2, 2, 3, 4, 4])   # two triangles sharing vertex 2
    >>> check_triangles(G, [1, 1, 2, 1, 1], total=2)
    >>> check_triangles(G, [1, 1, 1, 1, 1])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: per_vertex[2] = 1, expected 2 triangles at vertex 2
    """
    V.check_graph(G)
    if per_vertex is None and total is None:
        raise V.InvalidArgumentError("give per_vertex, total, or both")
    n = G.n
    S = _simple_undirected(G)
    if sample is not None:
        return _check_triangles_sample(G, S, per_vertex, total, sample, seed)
    if per_vertex is None and _wedge_work(S, S) > _DIRECT_LIMIT:   # the total alone: each triangle once
        want = _triangle_total(_oriented(S))
        _check_total(total, want)
        return
    t = _closed_pairs(S, S) // 2                     # each triangle at v: (u, w) and (w, u)
    if per_vertex is not None:
        pv = _int_array(per_vertex, "per_vertex", (n,))
        bad = np.flatnonzero(pv != t)
        if bad.size:
            v = int(bad[0])
            _fail(f"per_vertex[{v}] = {pv[v]}, expected {t[v]} triangles at vertex {v}")
    if total is not None:
        _check_total(total, int(t.sum()) // 3)


def _check_triangles_sample(G, S, per_vertex, total, sample, seed):
    n = G.n
    want_total = _triangle_total(_oriented(S))
    if total is not None:
        _check_total(total, want_total)
    if per_vertex is None:
        return
    pv = _int_array(per_vertex, "per_vertex", (n,))
    if int(pv.sum()) != 3 * want_total:
        _fail(f"per_vertex sums to {int(pv.sum())}, but the graph has {want_total} triangles (3 x {want_total} "
              f"vertex-triangle incidences)")
    deg = np.diff(S.indptr)
    mark = np.zeros(n, dtype=bool)
    for v in _sample(G, sample, seed, [int(np.argmax(deg))] if n else []):
        nb = S.indices[S.indptr[v]:S.indptr[v + 1]]
        lens = deg[nb]
        # the neighbour lists of v's neighbours, concatenated: positions start + 0 .. len - 1 of each
        at = np.repeat(S.indptr[nb] - np.cumsum(lens) + lens, lens) + np.arange(int(lens.sum()))
        mark[nb] = True
        t = int(np.count_nonzero(mark[S.indices[at]])) // 2   # each triangle at v: (u, w) and (w, u)
        mark[nb] = False
        if pv[v] != t:
            _fail(f"per_vertex[{v}] = {pv[v]}, expected {t} triangles at vertex {v}")


def _check_total(total, want):
    if isinstance(total, (bool, np.bool_)) or not isinstance(total, (int, np.integer)):
        _fail(f"total must be an integer, got {total!r}")
    if int(total) != want:
        _fail(f"total = {int(total)}, expected {want} triangles")


def check_lcc(G, lcc, *, rtol=1e-9):
    """Check local clustering coefficients as LDBC Graphalytics defines them.

    ``lcc[v]`` must be, within ``rtol``, the number of edges ``(u, w)`` of
    ``G`` between two neighbours of ``v`` (in- or out-neighbours, ``v`` and
    self-loops left out) over ``d (d - 1)``, ``d`` the number of those
    neighbours, and 0 where ``d < 2``.  The reference counts the edges with
    scipy, ``sum((S @ A) * S, axis=1)`` for the symmetrized structure ``S``
    and the structure ``A`` of ``G``, both without self-loops (in row blocks;
    over the edges oriented by degree where that would take more than 1e8
    multiply-adds, as :func:`check_triangles` does).

    Raises
    ------
    VerificationError
        Naming the first vertex whose coefficient is wrong.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_lcc
    >>> G = Graph.from_edges([0, 0, 0, 1], [1, 2, 3, 2])     # a triangle 0-1-2 and a pendant 3
    >>> check_lcc(G, [1 / 3, 1.0, 1.0, 0.0])
    >>> check_lcc(G, [1.0, 1.0, 1.0, 0.0])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: lcc[0] = 1.0, expected 0.3333333333333333 (2 of the 6 ordered pairs of its 3 neighbours are edges)
    """
    V.check_graph(G)
    n = G.n
    c = np.asarray(lcc)
    if c.dtype.kind not in "iuf":
        _fail(f"lcc must be a real array, got dtype {c.dtype}")
    if c.shape != (n,):
        _fail(f"lcc must have shape {(n,)}, got {c.shape}")
    c = c.astype(np.float64)
    S = _simple_undirected(G)
    if G.directed:
        rows, cols = G.edges()
        keep = rows != cols
        A = sp.csr_array((np.ones(int(keep.sum()), np.int64), (rows[keep], cols[keep])), shape=(n, n))
    else:
        A = S
    edges = _closed_pairs(S, A)
    d = np.diff(S.indptr).astype(np.float64)
    pairs = d * (d - 1)
    ref = np.divide(edges, pairs, out=np.zeros(n), where=pairs > 0)
    bad = np.flatnonzero(~(np.abs(c - ref) <= rtol * ref + 1e-12))
    if bad.size:
        v = int(bad[0])
        _fail(f"lcc[{v}] = {float(c[v])!r}, expected {float(ref[v])!r} ({edges[v]} of the {int(pairs[v])} ordered "
              f"pairs of its {int(d[v])} neighbours are edges)")


# ---------------------------------------------------------------------- betweenness, CDLP, k-core
def _edge_pairs(G, *, both_ways):
    """``(head, tail)`` int64 arrays: one pair per stored edge ``head -> tail``, self-loops dropped.

    ``both_ways`` on a directed graph adds every edge reversed too (in- and
    out-neighbours, an edge each way counted twice); an undirected graph stores
    both directions already.
    """
    u, v = G.edges()
    keep = u != v
    u, v = u[keep].astype(np.int64), v[keep].astype(np.int64)
    if both_ways and G.directed:
        return np.concatenate([u, v]), np.concatenate([v, u])
    return u, v


def _bc_reference(G, sources, endpoints, edges=None):
    """Raw Brandes sums over ``sources``: scipy BFS distances, then path counts and dependencies per level.

    Beyond 5e7 edge visits (sources times edges) the same sums come from a
    compiled queue-based Brandes, sources in parallel (:mod:`la_graph._verify_kernels`).
    ``edges`` (a float64 array of ``G.nnz``, or None) gets each stored edge's
    dependency sums too (always here, not compiled).
    """
    n = G.n
    if sources.size * max(G.nnz, 1) > 5e7 and edges is None:
        from ._verify_kernels import brandes_reference

        return brandes_reference(G.indptr.astype(np.int64), G.indices.astype(np.int64), n,
                                 sources.astype(np.int64), bool(endpoints))
    u, v = _edge_pairs(G, both_ways=False)
    at = np.flatnonzero(G.edges()[0] != G.indices)                 # the CSR position of each pair (no loops)
    bc = np.zeros(n)
    S, shortest_path = _structure(G), _csgraph().shortest_path
    batch = max(1, (1 << 22) // max(n, 1))
    for lo in range(0, sources.size, batch):
        part = sources[lo:lo + batch]
        D = np.atleast_2d(shortest_path(S, directed=True, unweighted=True, indices=part))
        for s, d in zip(part.tolist(), D):
            du = d[u]
            dag = np.isfinite(du) & (d[v] == du + 1)             # edges on shortest paths from s
            level = du[dag].astype(np.int64)
            order = np.argsort(level, kind="stable")
            eu, ev, level, ep = u[dag][order], v[dag][order], level[order], at[dag][order]
            depth = int(level[-1]) + 1 if level.size else 0
            cut = np.searchsorted(level, np.arange(depth + 1))
            sigma = np.zeros(n)
            sigma[s] = 1.0
            grow = np.ones(depth + 1)     # level l's counts are sigma times grow[1] ... grow[l] (float64 holds
            for lev in range(depth):      # a level's counts over their geometric middle, not a big grid's ~1e420)
                a, b = eu[cut[lev]:cut[lev + 1]], ev[cut[lev]:cut[lev + 1]]
                np.add.at(sigma, b, sigma[a])                    # path counts, one level down at a time
                below = np.unique(b)
                grow[lev + 1] = np.sqrt(sigma[below].max()) * np.sqrt(sigma[below].min())
                sigma[below] /= grow[lev + 1]
            delta = np.zeros(n)
            for lev in range(depth - 1, -1, -1):                 # dependencies, one level up at a time
                a, b = eu[cut[lev]:cut[lev + 1]], ev[cut[lev]:cut[lev + 1]]
                c = sigma[a] / (sigma[b] * grow[lev + 1]) * (1.0 + delta[b])   # the edge's dependency
                np.add.at(delta, a, c)
                if edges is not None:
                    edges[ep[cut[lev]:cut[lev + 1]]] += c             # each edge once a level
            delta[s] = 0.0
            bc += delta
            if endpoints:
                reached = np.isfinite(d)
                bc[reached] += 1.0
                bc[s] += int(reached.sum()) - 2                 # s ends a path to each other vertex it reaches
    return bc


def _bc_scale(n, directed, normalized, endpoints, sources):
    """The factor of every vertex: NetworkX 3.6's rescaling (``sources=None``: exact, all vertices)."""
    N = n if endpoints else n - 1
    scale = np.ones(n)
    if N < 2:
        return scale
    pairs_per_source = N - 1
    if sources is None or endpoints:
        K = N if sources is None else sources.size
        scale[:] = 1.0 / (K * pairs_per_source) if normalized else N / (K * (1 if directed else 2))
        return scale
    K = sources.size
    unit = (lambda k: 1.0 / (k * pairs_per_source)) if normalized else (lambda k: N / (k * (1 if directed else 2)))
    scale[:] = unit(K)
    scale[sources] = unit(K - 1) if K > 1 else np.nan              # a source cannot pair with itself
    return scale


def check_betweenness(G, bc, *, sources=None, normalized=True, endpoints=False, weight=None, rtol=1e-9,
                      atol=None):
    """Check betweenness centrality against an independent Brandes computation.

    By hops (``weight=False``, or an unweighted graph), distances from each
    source come from :func:`scipy.sparse.csgraph.shortest_path`; the edges ``u -> v`` with
    ``d(v) = d(u) + 1`` are the shortest-path DAG, over which the path counts
    ``sigma`` are summed level by level downward and the dependencies
    ``delta(u) = sum sigma(u) / sigma(v) (1 + delta(v))`` level by level
    upward (one vectorized step per level); each level's counts are kept
    divided by the geometric mean of their largest and smallest, so that
    counts beyond float64 (a big grid's) still give their exact ratios.  By
    weight, distances come from :func:`scipy.sparse.csgraph.dijkstra`, the
    predecessors of ``v`` are the ``u`` with ``d(u) + w == d(v)`` in float64
    (NetworkX's ties), and the sums go in plain Python with path counts as
    Python ints (exact, of any size).  The sums are scaled as
    ``networkx.betweenness_centrality`` (NetworkX 3.6) scales them.

    The reference costs one BFS and a few passes over the edges per source: for
    an exact result on a large graph (``n`` sources), check a result computed
    from a sample of sources instead (``betweenness_centrality(G, sources=s)``
    and ``check_betweenness(G, bc, sources=s)``): the same code paths run.

    Parameters
    ----------
    G : Graph
    bc : array_like of float
        Shape ``(n,)``.
    sources : array_like of int, optional
        The distinct sources the result was computed from (for
        ``betweenness_centrality(G, k, seed=s)``:
        ``la_graph.algorithms.betweenness.sample_sources(G.n, k, s)``);
        default: every vertex (the exact result).
    normalized, endpoints : bool
        As passed to the algorithm.
    weight : bool or None
        As passed to the algorithm: ``None`` by ``G``'s weights when it has
        them, ``False`` by hops, ``True`` by weights (``G`` weighted).
    rtol, atol : float
        Tolerance ``rtol * max(|a|, |b|) + atol``; ``atol=None`` means
        ``rtol * max |reference|``.  ``nan`` must match ``nan`` (NetworkX's
        value at the one source of a one-source sample without endpoints).

    Raises
    ------
    VerificationError
        Naming the first wrong vertex.

    Examples
    --------
    >>> import numpy as np
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_betweenness
    >>> G = Graph.from_edges([0, 1, 2], [1, 2, 3])           # path 0 - 1 - 2 - 3
    >>> bc = np.array([0.0, 2 / 3, 2 / 3, 0.0])
    >>> check_betweenness(G, bc)
    >>> check_betweenness(G, bc, normalized=False)
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: bc[1] = 0.6666666666666666, expected 2.0 (raw sum 4.0 from 4 sources, times 0.5)
    """
    V.check_graph(G)
    n = G.n
    if sources is None:
        srcs, exact = np.arange(n, dtype=np.int64), True
    else:
        srcs = V.check_distinct(V.check_vertices(sources, n))
        exact = srcs.size == n
    arr = np.asarray(bc)
    if arr.dtype.kind not in "iuf":
        _fail(f"bc must be a real array, got dtype {arr.dtype}")
    if arr.shape != (n,):
        _fail(f"bc must have shape {(n,)}, got {arr.shape}")
    arr = arr.astype(np.float64, copy=False)
    if V.uses_weights(G, weight, "check_betweenness"):
        raw = _bc_dijkstra_reference(G, srcs, bool(endpoints))[0]
    else:
        raw = _bc_reference(G, srcs, bool(endpoints))
    scale = _bc_scale(n, G.directed, bool(normalized), bool(endpoints), None if exact else srcs)
    ref = raw * scale
    if atol is None:
        finite = ref[np.isfinite(ref)]
        atol = rtol * (float(np.abs(finite).max()) if finite.size else 0.0)
    with np.errstate(invalid="ignore"):
        close = np.abs(arr - ref) <= rtol * np.maximum(np.abs(arr), np.abs(ref)) + atol
    bad = np.flatnonzero(~(close | (np.isnan(arr) & np.isnan(ref))))
    if bad.size:
        x = int(bad[0])
        _fail(f"bc[{x}] = {float(arr[x])!r}, expected {float(ref[x])!r} (raw sum {float(raw[x])!r} from "
              f"{srcs.size} sources, times {float(scale[x])!r})")


def _bc_dijkstra_reference(G, sources, endpoints):
    """Raw Brandes sums ``(vertices, stored edges)`` over ``sources`` with paths by weight.

    Distances from :func:`scipy.sparse.csgraph.dijkstra`; ``v``'s predecessors
    are the ``u`` with ``d(u) + w(u, v) == d(v)`` (float64, as NetworkX
    compares); then, in plain Python over those edges in order of distance,
    path counts as Python ints (exact, of any size) and each edge's dependency
    ``sigma(u) / sigma(v) * (1 + delta(v))`` an int ratio rounded once.
    """
    n = G.n
    rows, cols = G.edges()
    rows, cols, w = rows.astype(np.int64), cols.astype(np.int64), G.weights
    A = sp.csr_array((w, G.indices, G.indptr), shape=(n, n))
    bc, eb = np.zeros(n), np.zeros(G.nnz)
    batch = max(1, (1 << 22) // max(n, 1))
    for lo in range(0, sources.size, batch):
        part = sources[lo:lo + batch]
        D = np.atleast_2d(_csgraph().dijkstra(A, directed=True, indices=part))
        for s, d in zip(part.tolist(), D):
            du = d[rows]
            dag = np.flatnonzero(np.isfinite(du) & (du + w == d[cols]) & (rows != cols))   # NetworkX's ties
            dag = dag[np.argsort(d[cols[dag]], kind="stable")]          # by the head's distance
            heads, tails = cols[dag].tolist(), rows[dag].tolist()
            sigma = {s: 1}
            for x, y in zip(tails, heads):       # a head's tails are nearer: their counts are final
                sigma[y] = sigma.get(y, 0) + sigma.get(x, 0)
            delta = {}
            for k in range(len(dag) - 1, -1, -1):   # heads farthest first: a head's dependency is final
                x, y = tails[k], heads[k]
                c = sigma[x] / sigma[y] * (1.0 + delta.get(y, 0.0))   # int / int: correctly rounded at any size
                delta[x] = delta.get(x, 0.0) + c
                eb[dag[k]] += c
            for y, dy in delta.items():
                if y != s:
                    bc[y] += dy
            if endpoints:
                reached = np.isfinite(d)
                bc[reached] += 1.0
                bc[s] += int(reached.sum()) - 2
    return bc, eb


def check_edge_betweenness(G, ebc, *, sources=None, normalized=True, weight=None, rtol=1e-9, atol=None):
    """Check edge betweenness centrality against an independent Brandes computation.

    The reference is that of :func:`check_betweenness` (scipy BFS distances
    and level-by-level numpy sums by hops; scipy's Dijkstra and plain Python
    with exact path counts by weight), each DAG edge ``u -> v`` of a source
    getting ``sigma(u) / sigma(v) * (1 + delta(v))``; an undirected edge sums
    both directions.  Scaled as ``networkx.edge_betweenness_centrality``
    (NetworkX 3.6) scales: ``1 / (K (n - 1))`` normalized, ``n / (K c)`` not
    (``c = 2`` undirected), ``K`` the number of sources.  It costs a search
    per source: on a large graph check a result from a sample of sources.

    Parameters
    ----------
    G : Graph
    ebc : object with ``u``, ``v``, ``score``
        An :class:`~la_graph.algorithms.betweenness.EdgeBetweennessResult`:
        the edges as ``G.edges()`` lists them (an undirected edge once, ``u <=
        v``) and their scores.
    sources : array_like of int, optional
        The distinct sources the result was computed from; default: every
        vertex (the exact result).
    normalized : bool
        As passed to the algorithm.
    weight : bool or None
        As passed to the algorithm (``None``: by ``G``'s weights when it has them).
    rtol, atol : float
        Tolerance ``rtol * max(|a|, |b|) + atol``; ``atol=None`` means
        ``rtol * max |reference|``.

    Raises
    ------
    VerificationError
        Naming the first wrong edge.

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_edge_betweenness
    >>> G = Graph.from_edges([0, 1], [1, 2])                 # path 0 - 1 - 2
    >>> r = SimpleNamespace(u=np.array([0, 1]), v=np.array([1, 2]), score=np.array([2.0, 2.0]))
    >>> check_edge_betweenness(G, r, normalized=False)
    >>> check_edge_betweenness(G, r)
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: score[0] (edge 0 - 1) = 2.0, expected 0.6666666666666666 (raw sum 4.0 from 3 sources, times 0.16666666666666666)
    """
    V.check_graph(G)
    n = G.n
    if sources is None:
        srcs, exact = np.arange(n, dtype=np.int64), True
    else:
        srcs = V.check_distinct(V.check_vertices(sources, n))
        exact = srcs.size == n
    rows, cols = G.edges()
    rows, cols = rows.astype(np.int64), cols.astype(np.int64)
    keep = np.ones(rows.size, bool) if G.directed else rows <= cols
    for name, want in (("u", rows[keep]), ("v", cols[keep])):
        got = _int_array(getattr(ebc, name, None), name, want.shape)
        bad = np.flatnonzero(got != want)
        if bad.size:
            i = int(bad[0])
            _fail(f"{name}[{i}] = {int(got[i])}, expected {int(want[i])} (the edges in G.edges() order"
                  f"{'' if G.directed else ', each undirected edge once with u <= v'})")
    score = np.asarray(getattr(ebc, "score", None))
    if score.dtype.kind not in "iuf" or score.shape != want.shape:
        _fail(f"score must be a real array of shape {want.shape}, got {score.dtype} {score.shape}")
    score = score.astype(np.float64, copy=False)
    if V.uses_weights(G, weight, "check_edge_betweenness"):
        raw = _bc_dijkstra_reference(G, srcs, False)[1]
    else:
        raw = np.zeros(G.nnz)
        _bc_reference(G, srcs, False, edges=raw)
    ref = raw[keep]
    if not G.directed:   # add each (u < v) entry's mirror: entries with u > v, in (v, u) order
        down = np.flatnonzero(rows > cols)
        ref[(rows < cols)[keep]] += raw[down[np.lexsort((rows[down], cols[down]))]]
    raw = ref.copy()
    scale = float(_bc_scale(max(n, 1), G.directed, bool(normalized), True, None if exact else srcs)[0]) if n else 1.0
    ref *= scale
    if atol is None:
        atol = rtol * (float(np.abs(ref).max()) if ref.size else 0.0)
    close = np.abs(score - ref) <= rtol * np.maximum(np.abs(score), np.abs(ref)) + atol
    bad = np.flatnonzero(~close)
    if bad.size:
        i = int(bad[0])
        _fail(f"score[{i}] (edge {int(rows[keep][i])} {'->' if G.directed else '-'} {int(cols[keep][i])}) = "
              f"{float(score[i])!r}, expected {float(ref[i])!r} (raw sum {float(raw[i])!r} from {srcs.size} "
              f"sources, times {scale!r})")


def check_cdlp(G, labels, max_iter):
    """Check community labels of label propagation (LDBC Graphalytics CDLP) by running the rule again.

    The rule: every vertex starts with its own id; in each of ``max_iter``
    synchronous iterations every vertex with a neighbour takes the most
    frequent label among its neighbours (in- and out-neighbours on a directed
    graph, a neighbour both ways counted twice; self-loops ignored), the
    smallest on a tie.  Each iteration here is one sort of the (vertex,
    neighbour's label) pairs.

    Parameters
    ----------
    G : Graph
    labels : array_like of int
        Shape ``(n,)``.
    max_iter : int
        The number of iterations the labels were computed with.

    Raises
    ------
    VerificationError
        Naming the first wrong vertex.

    Examples
    --------
    >>> import numpy as np
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_cdlp
    >>> G = Graph.from_edges([0, 1], [1, 2], n=4)           # path 0 - 1 - 2, and vertex 3 alone
    >>> check_cdlp(G, np.array([1, 0, 1, 3]), 1)
    >>> check_cdlp(G, np.array([1, 2, 1, 3]), 1)
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: labels[1] = 2, expected 0 (after 1 iteration)
    """
    V.check_graph(G)
    max_iter = V.check_count(max_iter, "max_iter")
    n = G.n
    labels = _int_array(labels, "labels", (n,))
    head, tail = _edge_pairs(G, both_ways=True)
    ref = np.arange(n, dtype=np.int64)
    for _ in range(max_iter if head.size else 0):
        keys, counts = np.unique(head * n + ref[tail], return_counts=True)   # n * n fits in int64 (Graph's rule)
        vertex, label = np.divmod(keys, n)
        order = np.lexsort((label, -counts, vertex))                        # per vertex: most frequent, smallest
        order = order[np.r_[True, vertex[order][1:] != vertex[order][:-1]]]
        new = ref.copy()
        new[vertex[order]] = label[order]
        if np.array_equal(new, ref):
            break
        ref = new
    bad = np.flatnonzero(labels != ref)
    if bad.size:
        x = int(bad[0])
        _fail(f"labels[{x}] = {int(labels[x])}, expected {int(ref[x])} (after {max_iter} "
              f"iteration{'s' if max_iter != 1 else ''})")


def _gather_rows(indptr, indices, rows):
    """The concatenated column indices of CSR rows ``rows``."""
    starts = indptr[rows]
    counts = indptr[rows + 1] - starts
    pos = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
    return indices[pos]


def _peel(n, head, tail):
    """Core numbers by peeling, each round over the removed vertices' edges only (numpy)."""
    order = np.argsort(head, kind="stable")
    nbr = tail[order]
    indptr = np.searchsorted(head[order], np.arange(n + 1))
    deg = np.diff(indptr).astype(np.int64)
    core = np.zeros(n, np.int64)
    gone = np.zeros(n, bool)
    k, left = 0, n
    while left:
        k = max(k, int(deg[~gone].min()))
        R = np.flatnonzero(~gone & (deg <= k))
        while R.size:
            core[R] = k
            gone[R] = True
            left -= R.size
            hit = _gather_rows(indptr, nbr, R)
            hit = hit[~gone[hit]]
            if not hit.size:
                break
            touched, lost = np.unique(hit, return_counts=True)
            deg[touched] -= lost
            R = touched[deg[touched] <= k]
    return core


def check_core_number(G, core):
    """Check core numbers by their definition, and against a peeling.

    A vertex of core number ``c`` must have at least ``c`` neighbours of core
    number ``c`` or more (so every ``{v : core[v] >= c}`` has minimum degree
    ``c``: each vertex is in the core its number claims), and must not be in
    the ``(c + 1)``-core, found by peeling (repeatedly removing the vertices of
    degree at most ``k``, for ``k = 0, 1, ...``).  Degrees are those of
    ``networkx.core_number``: in- plus out-degree on a directed graph (an edge
    each way counts twice); self-loops are ignored.

    Parameters
    ----------
    G : Graph
    core : array_like of int
        Shape ``(n,)``.

    Raises
    ------
    VerificationError
        Naming the first wrong vertex.

    Examples
    --------
    >>> import numpy as np
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_core_number
    >>> G = Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3])       # triangle 0 1 2 with a tail 2 - 3
    >>> check_core_number(G, np.array([2, 2, 2, 1]))
    >>> check_core_number(G, np.array([2, 2, 2, 2]))
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: core[3] = 2 but vertex 3 has 1 neighbour of core number 2 or more: it is not in the 2-core
    """
    V.check_graph(G)
    n = G.n
    core = _int_array(core, "core", (n,))
    bad = np.flatnonzero(core < 0)
    if bad.size:
        _fail(f"core[{bad[0]}] = {core[bad[0]]} is negative")
    head, tail = _edge_pairs(G, both_ways=True)
    support = np.bincount(head[core[tail] >= core[head]], minlength=n)
    bad = np.flatnonzero(support < core)
    if bad.size:
        x = int(bad[0])
        c = int(core[x])
        _fail(f"core[{x}] = {c} but vertex {x} has {int(support[x])} neighbour{'s' if support[x] != 1 else ''} "
              f"of core number {c} or more: it is not in the {c}-core")
    ref = _peel(n, head, tail)
    bad = np.flatnonzero(core != ref)
    if bad.size:
        x = int(bad[0])
        _fail(f"core[{x}] = {int(core[x])} but vertex {x} is in the {int(ref[x])}-core")


# ---------------------------------------------------------------------- checks at a sample of vertices
# For graphs too big to search again on one machine (a DistributedGraph of billions of edges): the
# local conditions that define the answer, checked at a random sample of vertices, reading only the
# sample's in-rows (``G.T.rows``).  A result meeting the conditions at every vertex is right, so each
# check finds an error with at least the probability that it samples a vertex where they fail.

def _sample(G, sample, seed, always=()):
    """``sample`` distinct random vertices (every vertex when ``n <= sample``) and ``always``, sorted."""
    n = G.n
    sample = V.check_int(sample, "sample", low=1)
    picked = np.arange(n) if n <= sample else np.random.default_rng(seed).choice(n, sample, replace=False)
    return np.unique(np.concatenate([picked.astype(np.int64), np.asarray(always, np.int64)]))


def _full(a, n, name, kind):
    a = np.asarray(a)
    if a.shape != (n,) or a.dtype.kind not in kind:
        _fail(f"{name} must be a 1-D array of {n} {'integers' if kind == 'iu' else 'numbers'}, got "
              f"{a.dtype} of shape {a.shape}")
    return a


def _row_min(indptr, values, empty):
    """The smallest of each row's ``values`` (``empty`` for a row with none)."""
    out = np.full(indptr.size - 1, empty, dtype=np.float64)
    filled = np.flatnonzero(np.diff(indptr) > 0)
    if filled.size:
        out[filled] = np.minimum.reduceat(values.astype(np.float64), indptr[filled])
    return out


def check_bfs_sample(G, source, level, *, sample=4096, seed=0):
    """Check breadth-first levels at a random sample of vertices (and the source).

    The local conditions: ``level[source] == 0``; a reached ``v != source`` has
    ``level[v] == 1 + min level[u]`` over its reached in-neighbours ``u``; an
    unreached ``v`` (-1) has no reached in-neighbour.  Levels meeting them at
    every vertex are the true ones.  Reads the in-rows of the sample only, so
    ``G`` may be a :class:`~la_graph.engines.dask.DistributedGraph`.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_bfs_sample
    >>> G = Graph.from_edges([0, 1], [1, 2], n=4)
    >>> check_bfs_sample(G, 0, [0, 1, 2, -1])
    >>> check_bfs_sample(G, 0, [0, 1, 1, -1])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: level[2] = 1, but its reached in-neighbours' smallest level is 1 (expected 2)
    """
    V.check_graph(G)
    s = V.check_vertex(source, G.n, what="source")
    level = _full(level, G.n, "level", "iu").astype(np.int64)
    if level[s] != 0:
        _fail(f"level[{s}] = {level[s]} at the source, expected 0")
    vs = _sample(G, sample, seed, [s])
    indptr, u, _ = G.T.rows(vs)
    lu = level[u].astype(np.float64)
    best = _row_min(indptr, np.where(lu >= 0, lu, np.inf), np.inf)
    lv, fed = level[vs], best != np.inf
    bad = np.flatnonzero((vs != s) & np.where(lv < 0, fed, ~fed | (lv != best + 1)))
    if bad.size:
        k = bad[0]
        v, lv, b = int(vs[k]), int(lv[k]), best[k]
        if lv < 0:
            _fail(f"level[{v}] = -1 (unreached), but its in-neighbour at level {int(b)} was reached")
        _fail(f"level[{v}] = {lv}, but " + ("no in-neighbour of it was reached" if b == np.inf else
              f"its reached in-neighbours' smallest level is {int(b)} (expected {int(b) + 1})"))


def check_sssp_sample(G, source, dist, *, sample=4096, seed=0, rtol=1e-9):
    """Check shortest-path distances at a random sample of vertices (and the source).

    Bellman's conditions: ``dist[source] == 0``; a reached ``v != source`` has
    ``dist[v] == min dist[u] + w(u, v)`` over its in-edges (within ``rtol``);
    an unreached ``v`` (inf) has no reached in-neighbour.  Distances meeting
    them at every vertex are the true ones (non-negative weights).  Reads the
    in-rows of the sample only, so ``G`` may be a
    :class:`~la_graph.engines.dask.DistributedGraph`.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_sssp_sample
    >>> G = Graph.from_edges([0, 1, 0], [1, 2, 2], w=[1.0, 1.0, 5.0], directed=True)
    >>> check_sssp_sample(G, 0, [0.0, 1.0, 2.0])
    >>> check_sssp_sample(G, 0, [0.0, 1.0, 5.0])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: dist[2] = 5, but its in-edges give 2 (from vertex 1)
    """
    V.check_graph(G)
    s = V.check_vertex(source, G.n, what="source")
    dist = _full(dist, G.n, "dist", "iuf").astype(np.float64)
    if dist[s] != 0:
        _fail(f"dist[{s}] = {dist[s]:.17g} at the source, expected 0")
    vs = _sample(G, sample, seed, [s])
    indptr, u, w = G.T.rows(vs)
    via = dist[u] + (1.0 if w is None else w)
    best = _row_min(indptr, via, np.inf)
    dv = dist[vs]
    with np.errstate(invalid="ignore"):         # inf - inf where neither is reached: allowed below
        close = np.abs(dv - best) <= rtol * np.maximum(np.abs(best), 1e-300)
    # unreached with no reached in-neighbour, or reached and equal to the best in-edge
    # (with best = inf, |d - inf| <= rtol * inf held: a finite d there is wrong)
    good = np.where(best == np.inf, dv == np.inf, close)
    bad = np.flatnonzero((vs != s) & ~good)
    if bad.size:
        k = bad[0]
        v, d, b = int(vs[k]), float(dv[k]), float(best[k])
        lo, hi = indptr[k], indptr[k + 1]
        frm = int(u[lo + int(np.argmin(via[lo:hi]))]) if hi > lo else None
        _fail(f"dist[{v}] = {d:.17g}, but " + ("no in-neighbour of it was reached" if b == np.inf else
              f"its in-edges give {b:.17g} (from vertex {frm})"))


def check_cc_sample(G, labels, *, sample=4096, seed=0):
    """Check connected-component labels (weak for a directed graph) at a random sample of vertices.

    At each sampled ``v``: every neighbour (in or out) has ``v``'s label;
    ``labels[v] <= v``; and the label is a vertex labelled with itself.  Labels
    meeting these at every vertex are constant on each component and name a
    vertex labelled with itself; that two components do not share a label is
    not checked (it needs the components themselves).  Reads the rows of the
    sample only, so ``G`` may be a :class:`~la_graph.engines.dask.DistributedGraph`.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_cc_sample
    >>> G = Graph.from_edges([0, 2], [1, 3], n=5)
    >>> check_cc_sample(G, [0, 0, 2, 2, 4])
    >>> check_cc_sample(G, [0, 0, 2, 3, 4])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: labels[2] = 2, but its neighbour 3 has label 3
    """
    V.check_graph(G)
    labels = _full(labels, G.n, "labels", "iu").astype(np.int64)
    vs = _sample(G, sample, seed)
    lv = labels[vs]
    bad = np.flatnonzero((lv < 0) | (lv > vs))
    if bad.size:
        v = int(vs[bad[0]])
        _fail(f"labels[{v}] = {labels[v]}: a label is the smallest vertex id of the component, so 0 <= label <= v")
    own = labels[lv] != lv
    if own.any():
        v = int(vs[np.argmax(own)])
        _fail(f"labels[{v}] = {labels[v]}, but vertex {labels[v]} has label {labels[labels[v]]}")
    for H in (G, G.T) if G.directed else (G,):
        indptr, u, _ = H.rows(vs)
        at = np.repeat(np.arange(vs.size), np.diff(indptr))
        diff = np.flatnonzero(labels[u] != lv[at])
        if diff.size:
            k = diff[0]
            v, x = int(vs[at[k]]), int(u[k])
            _fail(f"labels[{v}] = {labels[v]}, but its neighbour {x} has label {labels[x]}")


def check_pagerank_sample(G, ranks, alpha=0.85, *, tol=1e-6, weight=None, sample=4096, seed=0):
    """Check PageRank ranks (networkx's definition, uniform teleport and dangling) at a sample of vertices.

    The ranks must be non-negative and sum to 1 (checked everywhere), and one
    more step of the iteration, computed at the sampled vertices, may move them
    by less than ``alpha * n * tol`` in L1 norm summed over the sample (what
    stopping at a change below ``n * tol`` guarantees over all vertices; see
    :func:`check_pagerank`).  ``weight`` as :func:`la_graph.pagerank` takes it
    (None: the weights when ``G`` has them).  Reads the in-rows of the sample
    and the out-degrees (weighted: :attr:`~la_graph.Graph.out_weight`),
    so ``G`` may be a :class:`~la_graph.engines.dask.DistributedGraph`.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_pagerank_sample
    >>> G = Graph.from_edges([1, 2, 3], [0, 0, 0], directed=True)
    >>> check_pagerank_sample(G, [0.541985, 0.152672, 0.152672, 0.152672])
    """
    V.check_graph(G)
    n = G.n
    r = _full(ranks, n, "ranks", "iuf").astype(np.float64)
    if (r < 0).any() or not np.isfinite(r).all():
        v = int(np.flatnonzero((r < 0) | ~np.isfinite(r))[0])
        _fail(f"ranks[{v}] = {float(r[v])!r}: ranks are finite and non-negative")
    if abs(r.sum() - 1.0) > 1e-9 + n * tol:           # as check_pagerank
        _fail(f"ranks sum to {float(r.sum())!r}, expected 1 (the networkx PageRank hands out every vertex's rank)")
    weighted = G.weighted if weight is None else V.check_flag(weight, "weight")
    if weighted and not G.weighted:
        raise V.InvalidArgumentError("weight=True needs a weighted graph")
    if weighted and G.weight_range()[0] <= 0:
        raise V.InvalidArgumentError(f"check_pagerank_sample takes positive weights (the smallest is "
                                     f"{G.weight_range()[0]}): with zero weights the dangling vertices are "
                                     f"not known from the out-degrees")
    out = np.asarray(G.out_degree, np.float64)
    dangling = float(r[out == 0].sum())
    vs = _sample(G, sample, seed)
    indptr, u, w = G.T.rows(vs)
    if weighted:                           # each in-neighbour's out-weight sum (not its row: an R-MAT hub's
        part = r[u] * w / np.asarray(G.out_weight)[u]          # in-neighbours' rows hold most of the graph)
    else:
        part = r[u] / out[u]
    share = np.zeros(vs.size)
    np.add.at(share, np.repeat(np.arange(vs.size), np.diff(indptr)), part)
    step = (1 - alpha) / n + alpha * (share + dangling / n)
    moved = np.abs(step - r[vs])
    bound = alpha * n * tol
    if moved.sum() >= bound:
        k = int(np.argmax(moved))
        _fail(f"ranks are not a PageRank fixed point to tol={tol:g}: one more step moves the {vs.size} sampled "
              f"vertices by {moved.sum():.4g} in L1 norm, more than alpha*n*tol = {bound:.2g} (most at vertex "
              f"{int(vs[k])}: {r[vs[k]]:.6g} -> {step[k]:.6g})")


# ---------------------------------------------------------------------- communities (Louvain, Leiden)
def _community_weights(G):
    """``(rows, cols, weights, k, 2m)`` of undirected ``G`` with its self-loops counted twice (NetworkX's degrees)."""
    rows, cols = G.edges()
    w = np.ones(rows.size) if G.weights is None else np.asarray(G.weights, np.float64)
    k = np.bincount(rows, weights=w, minlength=G.n) + np.bincount(rows[rows == cols], weights=w[rows == cols],
                                                                  minlength=G.n)
    return rows.astype(np.int64), cols.astype(np.int64), w, k, float(k.sum())


def check_communities(G, labels, *, resolution=1.0, threshold=1e-10, connected=False, modularity=None, rtol=1e-9):
    """Check a partition found by modularity optimisation (Louvain, Leiden).

    * the labels are well formed: each vertex's label is the smallest vertex id
      of its community;
    * with ``modularity``, that value is the partition's modularity,
      recomputed here with numpy (NetworkX's definition; a self-loop counts
      twice in its vertex's degree);
    * with ``connected=True`` (Leiden), every community induces a connected subgraph;
    * local optimality (undirected graphs): no vertex gains more than
      ``threshold`` of modularity by moving alone into a community it has an
      edge to.

    Parameters
    ----------
    G : Graph
        Weights non-negative.
    labels : array_like of int
        Shape ``(n,)``.
    resolution : float
        The resolution the labels were computed with.
    threshold : float
        The largest modularity gain of a single move that passes.
    connected : bool
        Check that every community is connected (weakly on a directed graph).
    modularity : float, optional
        The modularity claimed for the labels.
    rtol : float
        The relative tolerance of the modularity.

    Raises
    ------
    VerificationError
        Naming the first bad vertex or community.

    Examples
    --------
    >>> import numpy as np
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_communities
    >>> G = Graph.from_edges([0, 0, 1, 3, 3, 4, 2], [1, 2, 2, 4, 5, 5, 3])     # two triangles, one bridge
    >>> check_communities(G, np.array([0, 0, 0, 3, 3, 3]), modularity=5 / 14)
    >>> check_communities(G, np.array([0, 0, 0, 0, 4, 4]))
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: vertex 3 gains 0.2347 of modularity by moving from community 0 to community 4 (threshold 1e-10)
    """
    V.check_graph(G)
    resolution = V.check_real(resolution, "resolution", low=0, open_low=True)
    threshold = V.check_real(threshold, "threshold", low=0)
    n = G.n
    labels = _int_array(labels, "labels", (n,))
    ids = np.arange(n, dtype=np.int64)
    if n and (labels.min() < 0 or labels.max() >= n):
        v = int(np.flatnonzero((labels < 0) | (labels >= n))[0])
        _fail(f"labels[{v}] = {int(labels[v])} is not a vertex id")
    smallest = np.full(n, n, dtype=np.int64)
    np.minimum.at(smallest, labels, ids)
    bad = np.flatnonzero(smallest[labels] != labels)
    if bad.size:
        v = int(bad[0])
        _fail(f"labels[{v}] = {int(labels[v])}, expected {int(smallest[labels[v]])}: a community is named by its "
              f"smallest vertex id")
    if G.directed:
        rows, cols = G.edges()
        w = np.ones(rows.size) if G.weights is None else np.asarray(G.weights, np.float64)
        kout, kin = np.bincount(rows, w, n), np.bincount(cols, w, n)
        m = float(w.sum())
        inside = float(w[labels[rows] == labels[cols]].sum())
        q = inside / m - resolution * float(np.dot(np.bincount(labels, kout, n), np.bincount(labels, kin, n))) / m**2 \
            if m > 0 else None
    else:
        rows, cols, w, k, two_m = _community_weights(G)
        loops = rows == cols
        inside = float(w[labels[rows] == labels[cols]].sum() + w[loops].sum())
        sigma = np.bincount(labels, k, n)
        q = inside / two_m - resolution * float(np.dot(sigma, sigma)) / two_m**2 if two_m > 0 else None
    if modularity is not None and (q is None or abs(float(modularity) - q) > rtol * max(1.0, abs(q))):
        _fail(f"modularity {float(modularity)!r}, expected {q!r}")
    if connected and n:
        same = labels[rows] == labels[cols]
        M = sp.coo_matrix((np.ones(int(same.sum())), (rows[same], cols[same])), shape=(n, n))
        _, comp = _csgraph().connected_components(M, directed=G.directed, connection="weak")
        first = np.full(n, -1, dtype=np.int64)
        first[labels] = comp            # some component of each community
        split = np.flatnonzero(first[labels] != comp)
        if split.size:
            v = int(split[0])
            _fail(f"community {int(labels[v])} is not connected: vertex {v} is not joined to vertex "
                  f"{int(labels[v])} within it")
    if G.directed or q is None:
        return
    off = ~loops
    K = sp.coo_matrix((w[off], (rows[off], labels[cols[off]])), shape=(n, n)).tocsr()
    K.sum_duplicates()
    K = K.tocoo()
    r, c, kc = K.row.astype(np.int64), K.col.astype(np.int64), K.data
    own = np.zeros(n)
    mine = c == labels[r]
    own[r[mine]] = kc[mine]
    stay = two_m * own - resolution * k * (sigma[labels] - k)
    move = two_m * kc[~mine] - resolution * k[r[~mine]] * sigma[c[~mine]]
    gain = 2.0 * (move - stay[r[~mine]]) / two_m**2
    if gain.size and gain.max() > threshold:
        j = int(np.argmax(gain))
        v = int(r[~mine][j])
        _fail(f"vertex {v} gains {gain[j]:.4g} of modularity by moving from community {int(labels[v])} to community "
              f"{int(c[~mine][j])} (threshold {threshold:g})")


# ---------------------------------------------------------------------- k-truss, colouring, subgraphs
__all__ += ["check_trussness", "check_k_truss", "check_coloring", "check_subgraph", "check_k_hop", "check_ego_graph",
            "check_k_core"]


def check_trussness(G, u, v, truss):
    """Check the trussness of every edge against a peeling of the triangles.

    The result lists every edge of the simple undirected graph (directions,
    self-loops and duplicates dropped) once, ``u < v``, sorted by ``(u, v)``;
    ``truss[i]`` must be the largest ``k`` whose ``k``-truss (the largest
    subgraph whose every edge lies in ``k - 2`` of its triangles) holds the
    edge.  The reference counts each edge's triangles by merging sorted rows
    and peels the edges level by level, a queue per level, each triangle
    found again (a binary search) when its first edge leaves; compiled loops
    of the checkers' own (:mod:`la_graph._verify_kernels`).

    Parameters
    ----------
    G : Graph
    u, v, truss : array_like of int
        One entry per edge, as :func:`la_graph.trussness` returns them.

    Raises
    ------
    VerificationError
        Naming the first wrong edge.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_trussness
    >>> G = Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3])       # triangle 0 1 2 with a tail 2 - 3
    >>> check_trussness(G, [0, 0, 1, 2], [1, 2, 2, 3], [3, 3, 3, 2])
    >>> check_trussness(G, [0, 0, 1, 2], [1, 2, 2, 3], [3, 3, 3, 3])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: truss[3] of edge (2, 3) = 3 but its trussness is 2
    """
    V.check_graph(G)
    eu, ev, ref = _trussness_reference(G)
    m = eu.size
    u, v, truss = (_int_array(x, name, (m,)) for x, name in ((u, "u"), (v, "v"), (truss, "truss")))
    bad = np.flatnonzero((u != eu) | (v != ev))
    if bad.size:
        i = int(bad[0])
        _fail(f"edge {i} is ({int(u[i])}, {int(v[i])}) but the graph's edge {i} (u < v, sorted) is "
              f"({int(eu[i])}, {int(ev[i])})")
    bad = np.flatnonzero(truss != ref)
    if bad.size:
        i = int(bad[0])
        _fail(f"truss[{i}] of edge ({int(eu[i])}, {int(ev[i])}) = {int(truss[i])} but its trussness is {int(ref[i])}")


def _trussness_reference(G):
    """``(eu, ev, truss)``: the simple undirected graph's edges (``u < v``, sorted) and their trussness, by a
    compiled peeling of its own (:func:`la_graph._verify_kernels.truss_numbers`: supports by merging sorted
    rows, then a queue per level).

    The vertices are renumbered by ascending degree first, so that each edge's merge above its upper end
    reads the rows of vertices of higher degree only (no row longer than ``sqrt(2 m)``): in the first
    numbering the edges into a hub each read the hub's long row.
    """
    from ._verify_kernels import truss_numbers, truss_supports

    S = _simple_undirected(G)
    n = G.n
    deg = np.diff(S.indptr)
    perm = np.lexsort((np.arange(n), deg))              # new id i is old vertex perm[i]
    rank = np.empty(n, np.int64)
    rank[perm] = np.arange(n)
    R = sp.csr_array(S[perm][:, perm])
    R.sort_indices()
    indptr, indices = R.indptr.astype(np.int64), R.indices.astype(np.int64)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    up = rows < indices
    ru, rv = rows[up], indices[up]                      # row-major: sorted by (u, v), new ids
    eid, sup, _ = truss_supports(indptr, indices, ru, rv)
    truss = truss_numbers(indptr, indices, ru, rv, eid, sup)
    C = S.tocoo()
    up = C.row < C.col
    eu, ev = C.row[up].astype(np.int64), C.col[up].astype(np.int64)
    order = np.lexsort((ev, eu))
    eu, ev = eu[order], ev[order]
    a, b = rank[eu], rank[ev]
    at = np.searchsorted(ru * n + rv, np.minimum(a, b) * n + np.maximum(a, b))
    return eu, ev, truss[at]


def _check_ids(vertices, want, what):
    vertices = np.asarray(vertices)
    if vertices.dtype.kind not in "iu" or vertices.ndim != 1:
        _fail(f"the vertices of {what} must be a 1-D integer array, got {vertices.dtype} of shape {vertices.shape}")
    if vertices.shape != want.shape or not np.array_equal(vertices, want):
        extra = np.setdiff1d(vertices, want)
        missing = np.setdiff1d(want, vertices)
        if extra.size:
            _fail(f"vertex {int(extra[0])} is in {what} but should not be")
        if missing.size:
            _fail(f"vertex {int(missing[0])} should be in {what} but is not")
        _fail(f"the vertices of {what} must be sorted and distinct")
    return vertices.astype(np.int64)


def _same_graph(H, want, what):
    """``H``'s adjacency (a la_graph Graph) equal to the scipy matrix ``want``: structure and weights."""
    if H.n != want.shape[0]:
        _fail(f"{what} has {H.n} vertices, expected {want.shape[0]}")
    got = H.to_scipy()
    want = sp.csr_array(want)
    want.sort_indices()
    if not (np.array_equal(got.indptr, want.indptr) and np.array_equal(got.indices, want.indices)):
        diff = (_ones(got) != _ones(want)).tocoo()
        r, c = int(diff.row[0]), int(diff.col[0])
        has = bool(_ones(got)[[r]].toarray()[0, c])
        _fail(f"{what}: its vertices {r} -> {c} {'have an edge that' if has else 'lack the edge that'} "
              f"the {'graph does not have' if has else 'graph has'}")
    bad = np.flatnonzero(got.data != want.data)
    if bad.size:
        _fail(f"{what}: edge weight {got.data[bad[0]]!r} where the graph has {want.data[bad[0]]!r}")


def _ones(A):
    return sp.csr_array((np.ones(A.nnz), A.indices, A.indptr), shape=A.shape)


def check_subgraph(G, vertices, H, *, what="the subgraph"):
    """Check that ``H`` is the subgraph of ``G`` induced by ``vertices`` (sorted ids), weights kept.

    Vertex ``i`` of ``H`` is vertex ``vertices[i]`` of ``G``; ``H`` holds
    exactly the edges of ``G`` between them (self-loops too), with their
    weights, and is directed when ``G`` is.

    Parameters
    ----------
    G, H : Graph
    vertices : array_like of int
        Sorted, distinct.

    Raises
    ------
    VerificationError
        Naming the first wrong vertex or edge.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_subgraph
    >>> G = Graph.from_edges([0, 1, 2], [1, 2, 3])                 # path 0-1-2-3
    >>> check_subgraph(G, [1, 2, 3], Graph.from_edges([0, 1], [1, 2]))
    >>> check_subgraph(G, [1, 2, 3], Graph.from_edges([0], [1], n=3))
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: the subgraph: its vertices 1 -> 2 lack the edge that the graph has
    """
    V.check_graph(G)
    V.check_graph(H, name="H")
    ids = np.asarray(vertices)
    if ids.ndim != 1 or (ids.size and (ids.dtype.kind not in "iu" or ids.min() < 0 or ids.max() >= G.n
                                       or np.any(np.diff(ids) <= 0))):
        _fail(f"the vertices of {what} must be sorted distinct ids of the graph")
    if H.directed != G.directed:
        _fail(f"{what} is {'directed' if H.directed else 'undirected'}, the graph is not")
    ids = ids.astype(np.int64)
    _same_graph(H, G.to_scipy()[ids][:, ids], what)


def check_k_truss(G, k, H, vertices):
    """Check a ``k``-truss: the edges of trussness ``k`` or more (:func:`check_trussness`'s reference), on the
    vertices they touch (``vertices``, sorted), with ``G``'s weights (the smaller one of a directed pair).

    Parameters
    ----------
    G : Graph
    k : int
    H : Graph
        The truss, undirected; vertex ``i`` is vertex ``vertices[i]`` of ``G``.
    vertices : array_like of int

    Raises
    ------
    VerificationError
        Naming the first wrong vertex or edge.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_k_truss
    >>> G = Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3])       # triangle 0 1 2 with a tail 2 - 3
    >>> check_k_truss(G, 3, Graph.from_edges([0, 0, 1], [1, 2, 2]), [0, 1, 2])
    >>> check_k_truss(G, 3, G, [0, 1, 2, 3])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: vertex 3 is in the 3-truss but should not be
    """
    V.check_graph(G)
    eu, ev, ref = _trussness_reference(G)
    inside = ref >= k
    ids = _check_ids(vertices, np.unique(np.concatenate([eu[inside], ev[inside]])), f"the {k}-truss")
    if H.directed:
        _fail(f"the {k}-truss must be undirected")
    U = G.to_undirected()
    r, c = U.edges()
    r, c = r.astype(np.int64), c.astype(np.int64)
    ekey = eu * G.n + ev
    key = np.minimum(r, c) * G.n + np.maximum(r, c)
    at = np.minimum(np.searchsorted(ekey, key), max(ekey.size - 1, 0))
    keep = (r != c) & (ekey.size > 0) & (ekey[at] == key) if ekey.size else np.zeros(r.size, bool)
    keep &= inside[at] if ekey.size else keep
    new = np.full(G.n, -1, np.int64)
    new[ids] = np.arange(ids.size)
    w = U.weights[keep] if U.weighted else np.ones(int(keep.sum()))
    want = sp.csr_array((w, (new[r[keep]], new[c[keep]])), shape=(ids.size, ids.size))
    _same_graph(H, want, f"the {k}-truss")


def check_coloring(G, colors):
    """Check a proper vertex colouring with at most ``Δ + 1`` colours.

    No edge joins two vertices of one colour (self-loops are ignored, edge
    directions too); colours are integers from 0, the largest at most the
    largest degree ``Δ`` of the simple undirected graph (so at most ``Δ + 1``
    colours).

    Parameters
    ----------
    G : Graph
    colors : array_like of int
        Shape ``(n,)``.

    Raises
    ------
    VerificationError
        Naming the first edge whose ends share a colour, or the colour over the bound.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_coloring
    >>> G = Graph.from_edges([0, 1, 2], [1, 2, 0])                 # a triangle
    >>> check_coloring(G, [0, 1, 2])
    >>> check_coloring(G, [0, 1, 0])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: vertices 0 and 2 are adjacent and both have colour 0
    """
    V.check_graph(G)
    n = G.n
    colors = _int_array(colors, "colors", (n,))
    if n and colors.min() < 0:
        x = int(np.flatnonzero(colors < 0)[0])
        _fail(f"colors[{x}] = {int(colors[x])} is negative")
    head, tail = _edge_pairs(G, both_ways=True)
    same = np.flatnonzero(colors[head] == colors[tail])
    if same.size:
        a, b = sorted((int(head[same[0]]), int(tail[same[0]])))
        _fail(f"vertices {a} and {b} are adjacent and both have colour {int(colors[a])}")
    S = _simple_undirected(G)
    delta = int(np.diff(S.indptr).max(initial=0))
    if n and colors.max() > delta:
        x = int(np.argmax(colors))
        _fail(f"colors[{x}] = {int(colors[x])}: more than Δ + 1 = {delta + 1} colours")


def _hops(G, sources, k):
    """Hops from the nearest source along out-edges, up to ``k`` (-1 beyond or unreachable), by scipy products."""
    n = G.n
    AT = _structure(G).T.tocsr()
    level = np.full(n, -1, np.int64)
    level[sources] = 0
    frontier = np.zeros(n)
    frontier[sources] = 1.0
    d = 0
    while d < k:
        reached = (AT @ frontier) > 0
        new = reached & (level < 0)
        if not new.any():
            break
        d += 1
        level[new] = d
        frontier = new.astype(np.float64)
    return level


def check_k_hop(G, sources, k, vertices):
    """Check the vertices within ``k`` hops of ``sources`` (out-edges; the sources themselves at 0): sorted ids.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_k_hop
    >>> G = Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 4])           # path 0-1-2-3-4
    >>> check_k_hop(G, [2], 1, [1, 2, 3])
    >>> check_k_hop(G, [2], 1, [2, 3])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: vertex 1 should be in the 1-hop neighbourhood but is not
    """
    V.check_graph(G)
    sources = V.check_vertices(np.atleast_1d(sources), G.n)
    level = _hops(G, sources, k)
    _check_ids(vertices, np.flatnonzero(level >= 0), f"the {k}-hop neighbourhood")


def check_ego_graph(G, v, radius, H, vertices, *, undirected=False):
    """Check an ego graph: the subgraph of ``G`` induced by the vertices within ``radius`` hops of ``v``
    (out-edges, or edges either way with ``undirected``), as ``networkx.ego_graph`` with its centre.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_ego_graph
    >>> G = Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 4])           # path 0-1-2-3-4
    >>> check_ego_graph(G, 0, 2, Graph.from_edges([0, 1], [1, 2]), [0, 1, 2])
    """
    V.check_graph(G)
    v = V.check_vertex(v, G.n)
    level = _hops(G.to_undirected() if undirected else G, np.array([v]), radius)
    ids = _check_ids(vertices, np.flatnonzero(level >= 0), f"the radius-{radius} ego graph of {v}")
    check_subgraph(G, ids, H, what=f"the ego graph of {v}")


def check_k_core(G, k, H, vertices):
    """Check a ``k``-core: the subgraph induced by the vertices of core number ``k`` or more
    (:func:`check_core_number`'s peeling, NetworkX's degrees); ``k=None``: the largest core number.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_k_core
    >>> G = Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3])       # triangle 0 1 2 with a tail 2 - 3
    >>> check_k_core(G, 2, Graph.from_edges([0, 0, 1], [1, 2, 2]), [0, 1, 2])
    >>> check_k_core(G, None, Graph.from_edges([0, 0, 1], [1, 2, 2]), [0, 1, 2])
    """
    V.check_graph(G)
    head, tail = _edge_pairs(G, both_ways=True)
    core = _peel(G.n, head, tail) if G.n else np.zeros(0, np.int64)
    if k is None:
        k = int(core.max(initial=0))
    ids = _check_ids(vertices, np.flatnonzero(core >= k), f"the {k}-core")
    check_subgraph(G, ids, H, what=f"the {k}-core")


# ---------------------------------------------------------------- centralities: hits, eigenvector, katz, closeness
def _centrality_matrix(G, weight):
    """``A'`` as scipy CSR (float64): ``G``'s weights when ``weight`` is None and it has them, else ones."""
    A = G.to_scipy().astype(np.float64)
    if not (G.weighted and weight is not False):
        A.data[:] = 1.0
    return A.T.tocsr()


def _compare(name, got, want, atol):
    got = np.asarray(got, dtype=np.float64)
    if got.shape != want.shape:
        raise VerificationError(f"{name} has shape {got.shape}, expected {want.shape}")
    bad = np.flatnonzero(~(np.abs(got - want) <= atol))
    if bad.size:
        v = int(bad[0])
        raise VerificationError(f"{name}[{v}] = {float(got[v])!r}, expected {float(want[v])!r} (within {atol:g})")


def check_eigenvector(G, x, *, max_iter=100, tol=1e-6, nstart=None, weight=None, atol=1e-9):
    """Check eigenvector centralities against NetworkX's shifted power iteration run in scipy.

    ``x`` must equal, within ``atol``, the vector of ``x' = (A' x + x) / ||A' x + x||_2``
    iterated from ``nstart`` (normalized to sum 1; default uniform) until
    ``sum |x' - x| < n tol``; the eigen-equation's residual is reported.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_eigenvector
    >>> check_eigenvector(Graph.from_edges([0, 1], [1, 2]), [0.5, 2 ** -0.5, 0.5], atol=1e-6)
    """
    V.check_graph(G)
    n = G.n
    AT = _centrality_matrix(G, weight)
    y = np.ones(n) / max(n, 1) if nstart is None else V.check_vertex_values(nstart, n, what="nstart")
    for _ in range(max_iter):
        z = AT @ y + y
        z /= np.linalg.norm(z)
        done = np.abs(z - y).sum() < n * tol
        y = z
        if done:
            break
    else:
        if n:
            raise VerificationError(f"the reference iteration did not converge in {max_iter} iterations (max_iter): "
                                    f"pass the max_iter and tol the centralities were computed with")
    _compare("x", x, y, atol)


#: Graphs with at most this many vertices get check_katz's direct solve; larger ones GMRES (no fill-in).
KATZ_DIRECT_MAX_N = 50_000


def check_katz(G, x, alpha=0.1, beta=1.0, *, max_iter=1000, tol=1e-6, normalized=True, weight=None, atol=None):
    """Check Katz centralities against the linear system ``(I - alpha A') x = beta`` solved by scipy
    (a direct solve up to ``KATZ_DIRECT_MAX_N`` vertices, GMRES to ``1e-13`` past it).

    The power iteration stops once a step changes ``x`` by less than
    ``n tol`` in L1 norm.  With ``atol`` given, every entry must be within it;
    by default the whole vector must be within ``100 n tol`` in L1 norm
    (before normalization: ``100 n tol / ||x||_2`` of the normalized vector),
    which a wrong entry of any size beyond that breaks (a per-entry bound of
    ``10 n tol`` let a vector 1% off pass on graphs of 10,000 vertices).

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_katz
    >>> check_katz(Graph.from_edges([0, 1], [1, 2]), [0.5599, 0.6108, 0.5599], atol=1e-4)
    """
    import scipy.sparse.linalg as spla

    V.check_graph(G)
    n = G.n
    if n == 0:
        return _compare("x", x, np.zeros(0), 0.0)
    b = np.full(n, float(beta)) if np.ndim(beta) == 0 else np.asarray(beta, dtype=np.float64)
    M = (sp.identity(n, format="csc") - alpha * _centrality_matrix(G, weight)).tocsc()
    if n <= KATZ_DIRECT_MAX_N:
        want = spla.spsolve(M, b)
    else:   # a direct factorisation fills in past hope on large heavy-tailed graphs (R-MAT 20: > 5 min)
        want, info = spla.gmres(M, b, rtol=1e-13, atol=0.0, restart=60, maxiter=200)
        if info != 0:
            raise VerificationError(f"check_katz: GMRES did not solve (I - alpha A') x = beta for alpha = {alpha} "
                                    f"(info {info}): alpha may be past 1/lambda_max, where Katz diverges")
    scale = np.linalg.norm(want) if normalized else 1.0
    want = want / scale
    if atol is not None:
        return _compare("x", x, want, atol)
    got = np.asarray(x, dtype=np.float64)
    _compare("x", got, want, np.inf)   # the shape and no nan
    err, bound = float(np.abs(got - want).sum()), 100 * n * tol / scale
    if not err <= bound:
        v = int(np.argmax(np.abs(got - want)))
        raise VerificationError(f"x is {err:.3g} from the solution of (I - alpha A') x = beta in L1 norm, past "
                                f"{bound:.3g} (100 n tol{' / ||x||_2' if normalized else ''}); the largest miss "
                                f"x[{v}] = {float(got[v])!r}, expected {float(want[v])!r}")


def check_hits(G, hubs, authorities, *, normalized=True, weight=None, atol=1e-6, nstart=None):
    """Check HITS scores against the leading singular vectors of ``A`` (scipy's dense SVD up to 2,000 vertices,
    else ``svds``), each scaled to sum 1 (to maximum 1 when not ``normalized``).

    Where the largest singular value is repeated (several components alike, as in a caveman graph) the
    leading vectors are not unique: the power iteration then converges to the start vector's projection on
    their span (``nstart``, default all ones), and the hubs are compared with that projection.  Past 2,000
    vertices, a value repeated more often than ``svds`` is asked for leaves only the eigen-equation
    ``A A' h = s^2 h`` to check.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_hits
    >>> G = Graph.from_edges([0, 0, 1], [1, 2, 2], directed=True)
    >>> check_hits(G, [0.618034, 0.381966, 0.0], [0.0, 0.381966, 0.618034])
    """
    V.check_graph(G)
    n = G.n
    if n == 0 or G.nnz == 0:
        return
    A = _centrality_matrix(G, weight).T
    k = n if n <= 2000 else min(6, n - 2)
    if n <= 2000:
        u, s, _ = np.linalg.svd(A.toarray())
    else:
        import scipy.sparse.linalg as spla
        u, s, _ = spla.svds(A, k=k)
        order = np.argsort(s)[::-1]
        u, s = u[:, order], s[order]
    top = int(np.count_nonzero(s >= s[0] * (1 - 1e-9)))
    scale = (lambda z: z / z.sum()) if normalized else (lambda z: z / z.max())
    if top == 1:
        h = np.abs(u[:, 0])
    else:
        h0 = np.ones(n) if nstart is None else V.check_vertex_values(nstart, n, what="nstart")
        h = np.abs(u[:, :top] @ (u[:, :top].T @ h0))
        if top == k or h.sum() == 0:   # the span may be larger than the vectors asked for: the equation only
            got = np.asarray(hubs, dtype=np.float64)
            r = A @ (A.T @ got) - s[0] ** 2 * got
            if np.abs(r).max() > atol * s[0] ** 2 * max(np.abs(got).max(), 1e-300):
                raise VerificationError(f"hubs are no leading singular vector: |A A'h - s^2 h| = {np.abs(r).max():.3g}")
            h = got
    _compare("hubs", hubs, scale(h), atol)
    _compare("authorities", authorities, scale(A.T @ h), atol)


def check_closeness(G, values, *, harmonic=False, wf_improved=True, distance=None, sources=None, rtol=1e-9):
    """Check closeness (or harmonic) centralities against scipy's shortest paths *to* each vertex.

    ``values[i]`` is the centrality of ``sources[i]`` (every vertex when
    ``sources`` is None), from the distances of the reversed graph
    (``scipy.sparse.csgraph.shortest_path`` with Dijkstra, unit lengths
    unless ``distance`` lets ``G``'s weights be lengths).

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_closeness
    >>> check_closeness(Graph.from_edges([0, 1], [1, 2]), [2 / 3, 1.0, 2 / 3])
    """
    V.check_graph(G)
    n = G.n
    targets = np.arange(n) if sources is None else np.asarray(sources, dtype=np.int64)
    want = np.zeros(len(targets))
    if n:
        AT = _centrality_matrix(G, None if distance is None else distance)
        for start in range(0, len(targets), 256):
            batch = targets[start:start + 256]
            D = _csgraph().shortest_path(AT, method="D", directed=True, indices=batch)
            reached = np.isfinite(D)
            if harmonic:
                with np.errstate(divide="ignore"):
                    want[start:start + len(batch)] = np.where(reached & (D > 0), 1.0 / D, 0.0).sum(axis=1)
                continue
            r = reached.sum(axis=1) - 1.0
            t = np.where(reached, D, 0.0).sum(axis=1)
            with np.errstate(divide="ignore", invalid="ignore"):
                c = np.where(t > 0, r / t, 0.0)
            if wf_improved and n > 1:
                c = c * r / (n - 1)
            want[start:start + len(batch)] = c if n > 1 else 0.0
    _compare("harmonic" if harmonic else "closeness", values, want, rtol * max(1.0, float(np.abs(want).max(initial=0))))


# ---------------------------------------------------------------- similarity (Jaccard and kin)
__all__ += ["check_similarity"]

_SIMILARITY = ("jaccard", "overlap", "cosine", "sorensen", "adamic_adar", "resource_allocation")


def _neighbour_sets(G):
    """``(indptr, indices)``: each vertex's out-neighbours without self-loops, sorted, as CSR (int64)."""
    rows, cols = G.edges()
    off = rows != cols
    indptr = np.zeros(G.n + 1, np.int64)
    np.cumsum(np.bincount(rows[off], minlength=G.n), out=indptr[1:])
    return indptr, cols[off].astype(np.int64)


def _common_neighbours(indptr, indices, u, v, weight, budget=1 << 23):
    """Per pair ``(u[i], v[i])``: how many neighbours the two sets share (``weight`` None), or the sum of
    ``weight`` over them -- the sets intersected by sorting, in chunks of at most ``budget`` neighbours."""
    n = indptr.size - 1
    out = np.zeros(u.size)
    deg = np.diff(indptr)
    load = np.cumsum(deg[u] + deg[v])
    start = 0
    while start < u.size:
        stop = max(start + 1, int(np.searchsorted(load, (load[start - 1] if start else 0) + budget, "right")))
        cu, cv = u[start:stop], v[start:stop]
        tag = np.arange(cu.size, dtype=np.int64) * n
        ku = np.repeat(tag, deg[cu]) + _gather_rows(indptr, indices, cu)
        kv = np.repeat(tag, deg[cv]) + _gather_rows(indptr, indices, cv)
        both = np.intersect1d(ku, kv, assume_unique=True)
        w = None if weight is None else weight[both % n]
        out[start:stop] = np.bincount(both // n, weights=w, minlength=cu.size)
        start = stop
    return out


def _neighbour_weight(metric, indices, n):
    """The weight of each common neighbour in ``metric``'s sum (``1 / log d``, ``1 / d``, ``d`` its in-degree:
    its degree when undirected), or None for the metrics that count them."""
    if metric not in ("adamic_adar", "resource_allocation"):
        return None
    d = np.bincount(indices, minlength=n).astype(np.float64)
    with np.errstate(divide="ignore"):
        return 1.0 / np.log(d) if metric == "adamic_adar" else 1.0 / d


def _similarity_scores(metric, indptr, indices, u, v, common=None):
    """The ``metric`` of the pairs ``(u, v)`` by its definition (NetworkX's link-prediction formulas), from
    ``common`` (their shared neighbours counted, or weighed: default by intersecting the sets)."""
    deg = np.diff(indptr).astype(np.float64)
    if common is None:
        common = _common_neighbours(indptr, indices, u, v, _neighbour_weight(metric, indices, deg.size))
    if metric in ("adamic_adar", "resource_allocation"):
        return common
    du, dv = deg[u], deg[v]
    den = {"jaccard": du + dv - common, "overlap": np.minimum(du, dv), "cosine": np.sqrt(du * dv),
           "sorensen": (du + dv) / 2}[metric]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, common / den, 0.0)


def _close(a, b, rtol):
    """Where ``a`` is ``b`` within ``rtol`` (relative, absolute below 1); equal infinities too."""
    with np.errstate(invalid="ignore"):
        return (a == b) | (np.abs(a - b) <= rtol * np.maximum(1.0, np.abs(b)))


def _candidates(indptr, indices, rows, upper, weight=None):
    """Per row ``r`` of ``rows``: the vertices sharing a neighbour with it (``> r`` if ``upper``, else ``!= r``)
    and how many they share (or their ``weight`` summed), as ``(r, v, common)`` sorted by ``(r, v)``: scipy's
    product of the rows with the transposed structure."""
    n = indptr.size - 1
    C = sp.csr_array((np.ones(indices.size), indices, indptr), shape=(n, n))
    R = C[rows] if weight is None else C[rows] @ sp.diags_array(np.where(np.isfinite(weight), weight, 0.0))
    P = (R @ C.T).tocoo()
    r, c = rows[P.row].astype(np.int64), P.col.astype(np.int64)
    keep = c > r if upper else c != r
    r, c, x = r[keep], c[keep], P.data[keep]
    order = np.lexsort((c, r))
    return r[order], c[order], x[order]


def check_similarity(G, u, v, score, *, metric="jaccard", complete=False, top_k=None, sample=None, seed=0,
                     rtol=1e-9):
    """Check a similarity result (:func:`la_graph.similarity`) by intersecting neighbour sets with numpy.

    Every listed pair's score must be the ``metric`` of its two neighbour sets
    (out-neighbours, self-loops left out).  ``complete``: the pairs are every
    ``u < v`` sharing a neighbour (scipy's ``C C'``), each once, sorted by
    ``(u, v)``, none other.  ``top_k``: each vertex's entries are its
    ``top_k`` best (score descending, ties to the smaller id) of the vertices
    sharing a neighbour with it.  ``sample``: check that many random pairs
    (and, for ``complete`` or ``top_k``, that many random vertices' rows)
    instead of all.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_similarity
    >>> G = Graph.from_edges([0, 0, 1, 1, 2], [1, 2, 2, 3, 3])
    >>> check_similarity(G, [0, 1], [3, 2], [1.0, 0.5])
    >>> check_similarity(G, [0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3], [0.25, 0.25, 1.0, 0.5, 0.25, 0.25], complete=True)
    """
    V.check_graph(G)
    if metric not in _SIMILARITY:
        _fail(f"unknown metric {metric!r}; known: {', '.join(_SIMILARITY)}")
    n = G.n
    u, v, score = np.asarray(u), np.asarray(v), np.asarray(score)
    if not (u.ndim == v.ndim == score.ndim == 1 and u.shape == v.shape == score.shape):
        _fail(f"u, v and score must be 1-D arrays of one length, got shapes {u.shape}, {v.shape}, {score.shape}")
    if u.size and (u.dtype.kind not in "iu" or v.dtype.kind not in "iu"):
        _fail(f"u and v must be integer vertex ids, got {u.dtype} and {v.dtype}")
    u, v, score = u.astype(np.int64), v.astype(np.int64), score.astype(np.float64)
    bad = np.flatnonzero((u < 0) | (u >= n) | (v < 0) | (v >= n))
    if bad.size:
        i = int(bad[0])
        _fail(f"pair {i} = ({u[i]}, {v[i]}) is not a pair of vertices of the graph (0..{n - 1})")
    indptr, indices = _neighbour_sets(G)
    rng = np.random.default_rng(seed)
    at = np.arange(u.size) if sample is None or u.size <= sample else np.sort(rng.choice(u.size, sample, False))
    want = _similarity_scores(metric, indptr, indices, u[at], v[at])
    wrong = np.flatnonzero(~_close(score[at], want, rtol))
    if wrong.size:
        i = int(at[wrong[0]])
        _fail(f"score[{i}] of pair ({u[i]}, {v[i]}) = {float(score[i])!r}, but its {metric} is "
              f"{float(want[wrong[0]])!r}")
    rows = np.arange(n) if sample is None or n <= sample else np.sort(rng.choice(n, sample, False))
    if complete:
        _check_all_pairs(indptr, indices, u, v, rows)
    if top_k is not None:
        _check_top_k(metric, indptr, indices, u, v, score, rows, int(top_k), rtol)


def _row_ranges(u, rows):
    """Where each of ``rows`` begins and ends in ``u``, which must be sorted."""
    return np.searchsorted(u, rows, "left"), np.searchsorted(u, rows, "right")


def _check_all_pairs(indptr, indices, u, v, rows):
    """The pairs are exactly the ``u < v`` sharing a neighbour, sorted, at ``rows`` (every row: all of them)."""
    n = indptr.size - 1
    key = u * n + v
    if key.size > 1 and not bool(np.all(key[1:] > key[:-1])):
        i = int(np.flatnonzero(key[1:] <= key[:-1])[0]) + 1
        _fail(f"pair {i} = ({u[i]}, {v[i]}) is out of (u, v) order or repeated")
    if u.size and not bool(np.all(u < v)):
        i = int(np.flatnonzero(u >= v)[0])
        _fail(f"pair {i} = ({u[i]}, {v[i]}) does not have u < v")
    for start in range(0, rows.size, 4096):
        batch = rows[start:start + 4096]
        r, c, _ = _candidates(indptr, indices, batch, upper=True)
        lo, hi = _row_ranges(u, batch)
        got = np.concatenate([key[a:b] for a, b in zip(lo.tolist(), hi.tolist())]) if batch.size else key[:0]
        want = r * n + c
        if got.size != want.size or not np.array_equal(got, want):
            extra = np.setdiff1d(got, want)
            if extra.size:
                a, b = divmod(int(extra[0]), n)
                _fail(f"pair ({a}, {b}) is listed but the two share no neighbour")
            a, b = divmod(int(np.setdiff1d(want, got)[0]), n)
            _fail(f"pair ({a}, {b}) shares a neighbour but is missing")


def _check_top_k(metric, indptr, indices, u, v, score, rows, k, rtol):
    """At ``rows``: each row's entries are its ``k`` best candidates, score descending, ties to the smaller id."""
    if u.size > 1 and not bool(np.all(u[1:] >= u[:-1])):
        i = int(np.flatnonzero(u[1:] < u[:-1])[0]) + 1
        _fail(f"entry {i} (u = {u[i]}) is out of u order")
    for start in range(0, rows.size, 4096):
        batch = rows[start:start + 4096]
        r, c, common = _candidates(indptr, indices, batch, upper=False,
                                   weight=_neighbour_weight(metric, indices, indptr.size - 1))
        s = _similarity_scores(metric, indptr, indices, r, c, common)
        lo, hi = _row_ranges(u, batch)
        clo, chi = _row_ranges(r, batch)
        for x, a, b, ca, cb in zip(batch.tolist(), lo.tolist(), hi.tolist(), clo.tolist(), chi.tolist()):
            _check_top_row(x, v[a:b], score[a:b], c[ca:cb], s[ca:cb], k, rtol, metric)


def _check_top_row(x, got_v, got_s, cand, cand_s, k, rtol, metric):
    if got_v.size != min(k, cand.size):
        _fail(f"vertex {x} has {got_v.size} entries, expected {min(k, cand.size)} (top_k = {k} of the "
              f"{cand.size} vertices sharing a neighbour with it)")
    if got_v.size == 0:
        return
    at = np.searchsorted(cand, got_v)
    at = np.minimum(at, cand.size - 1)
    missing = np.flatnonzero(cand[at] != got_v)
    if missing.size:
        _fail(f"vertex {x}'s entry {int(got_v[missing[0]])} shares no neighbour with it (or is {x} itself)")
    if np.unique(got_v).size != got_v.size:
        _fail(f"vertex {x} lists a vertex twice: {got_v.tolist()}")
    true = cand_s[at]
    # a count's ratio is one rounding of exact integers, so its ties are exact and go to the smaller id; a sum
    # over the common neighbours rounds in the order it adds, so within rtol of a tie either order is right
    summed = metric in ("adamic_adar", "resource_allocation")
    tol = rtol * np.maximum(1.0, np.abs(true)) if summed else np.zeros(true.size)
    for i in range(got_v.size - 1):
        up, tie = true[i + 1] - true[i] > tol[i], true[i + 1] == true[i] and not summed
        if up or (tie and got_v[i + 1] < got_v[i]):
            _fail(f"vertex {x}: entry {int(got_v[i + 1])} ({metric} {float(true[i + 1])!r}) should come before "
                  f"{int(got_v[i])} ({float(true[i])!r}): score descending, ties to the smaller id")
    last_v, last_s = int(got_v[-1]), float(true[-1])
    left = np.ones(cand.size, bool)
    left[at] = False
    near = rtol * max(1.0, abs(last_s)) if summed else 0.0
    better = np.flatnonzero(left & ((cand_s > last_s + near) | ((cand_s == last_s) & (cand < last_v) & (not summed))))
    if better.size:
        y = int(cand[better[0]])
        _fail(f"vertex {x}: {y} ({metric} {float(cand_s[better[0]])!r}) should be among its top {k}, before "
              f"{last_v} ({last_s!r})")


# ---------------------------------------------------------------------- degrees
__all__ += ["check_degree"]


def check_degree(G, d, *, weight=False, direction="out", into=None):
    """Check degrees: each vertex's edges (weights with ``weight``) ending in ``into`` (default: all), out-,
    in- or both (``direction``); an undirected self-loop counts twice.  Counted from the edge list by bincount.

    Examples
    --------
    >>> from la_graph.graph import Graph
    >>> from la_graph.verify import check_degree
    >>> G = Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 2])            # a triangle, a loop at 2
    >>> check_degree(G, [2, 2, 4])
    >>> check_degree(G, [2, 2, 3])
    Traceback (most recent call last):
    ...
    la_graph.exceptions.VerificationError: vertex 2 has degree 4, not 3.0
    """
    V.check_graph(G)
    d = np.asarray(d, dtype=np.float64)
    if d.shape != (G.n,):
        _fail(f"degrees: expected shape ({G.n},), got {d.shape}")
    rows, cols = (np.asarray(a, dtype=np.int64) for a in G.edges())
    w = np.asarray(G.weights, dtype=np.float64) if weight else np.ones(rows.size)
    inside = np.ones(G.n, bool)
    if into is not None:
        inside = np.zeros(G.n, bool)
        inside[np.asarray(into, dtype=np.int64)] = True
    want = np.zeros(G.n)
    if not G.directed or direction in ("out", "all"):
        want += np.bincount(rows, w * inside[cols], minlength=G.n)
    if G.directed and direction in ("in", "all"):
        want += np.bincount(cols, w * inside[rows], minlength=G.n)
    if not G.directed:
        loop = rows == cols
        want += np.bincount(rows[loop], (w * inside[cols])[loop], minlength=G.n)
    bad = np.flatnonzero(~np.isclose(d, want, rtol=1e-9, atol=1e-12))
    if bad.size:
        v = int(bad[0])
        _fail(f"vertex {v} has degree {want[v]:g}, not {float(d[v])!r}")
