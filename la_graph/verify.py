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
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

from . import _validation as V
from .exceptions import InvalidSourceError, VerificationError

__all__ = ["check_bfs", "check_sssp", "check_apsp", "check_cc", "check_scc", "check_mis", "check_msf",
           "check_reachability"]
__all__ += ["check_reachability"]


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
    (scipy's per-row sampling; a global searchsorted is ~15x slower on big graphs.)
    """
    u, v = np.asarray(u, np.int64), np.asarray(v, np.int64)
    if G.nnz == 0 or u.size == 0:
        return np.zeros(u.shape, bool), np.zeros(u.shape, np.int64)
    S = sp.csr_array((np.arange(1, G.nnz + 1, dtype=np.float64), G.indices, G.indptr), shape=(G.n, G.n))
    pos = np.asarray(S[u, v]).reshape(u.shape).astype(np.int64) - 1
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

    d = csgraph.shortest_path(_structure(G), directed=True, unweighted=True, indices=sources)
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
            ref = csgraph.bellman_ford(A, directed=True, indices=sources)
        else:
            ref = csgraph.dijkstra(A, directed=True, indices=sources)
    except csgraph.NegativeCycleError:
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
    _, comp = csgraph.connected_components(_structure(G), directed=True, connection="weak")
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
    _, comp = csgraph.connected_components(_structure(G), directed=True, connection="strong")
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
    result = edges_or_mask if all(hasattr(edges_or_mask, a) for a in _MSF_RESULT_FIELDS) else None
    if result is not None:
        edges_or_mask = (np.asarray(result.u), np.asarray(result.v))
        if weight is None:
            weight = result.total_weight
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
    _, fcomp = csgraph.connected_components(F, directed=False)
    fcan = _canonical(fcomp)
    edges_per = np.bincount(fcan[u], minlength=n)
    verts_per = np.bincount(fcan, minlength=n)
    cyc = np.flatnonzero(edges_per > np.maximum(verts_per - 1, 0))
    if cyc.size:
        r = int(cyc[0])
        _fail(f"the forest has a cycle: the tree of vertex {r} has {edges_per[r]} edges "
              f"on {verts_per[r]} vertices")

    # spanning: the forest's components are G's components
    _, gcomp = csgraph.connected_components(_structure(G), directed=False)
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
    total = float(w[pos].sum())
    tiny = np.nextafter(0.0, 1.0)
    W = sp.csr_array((np.where(w == 0, tiny, w), G.indices, G.indptr), shape=(n, n))
    ref_edges = csgraph.minimum_spanning_tree(W).data
    ref_edges[ref_edges == tiny] = 0.0
    ref = float(ref_edges.sum())
    tol = rtol * max(float(np.abs(w[pos]).sum()), float(np.abs(ref_edges).sum()))
    if abs(total - ref) > tol:
        _fail(f"forest weight {total}, expected {ref} (a minimum spanning forest's weight)")
    if weight is not None and not abs(float(weight) - total) <= tol:
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
    S = _structure(G)
    for i in rows:
        s = int(sources[i])
        ref = np.zeros(n, dtype=bool)
        ref[csgraph.breadth_first_order(S, s, directed=True, return_predecessors=False)] = True
        bad = np.flatnonzero(R[i] != ref)
        if bad.size:
            v = int(bad[0])
            if R[i, v]:
                _fail(f"R[{i}, {v}] = True but vertex {v} is not reachable from {s}")
            _fail(f"R[{i}, {v}] = False but vertex {v} is reachable from {s}")


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
