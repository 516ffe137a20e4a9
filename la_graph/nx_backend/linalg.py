"""Graph matrices (NetworkX's ``linalg``: ``graphmatrix``, ``laplacianmatrix``, ``modularitymatrix``).

NetworkX builds each one from ``to_scipy_sparse_array``: a COO array of the
edges' weights (an undirected edge both ways, a self-loop once), converted to
CSR.  Here the same COO comes from the converted graph's adjacency entries in
one vectorised pass instead of NetworkX's generator over ``G.edges(data=...)``,
and the same scipy operations follow, so the arrays are NetworkX's: the same
format, dtype (int64 for integer weights, float64 otherwise, or ``dtype``),
index dtypes and values.  Multigraphs are declined (NetworkX sums parallel
edges; the converted graph keeps the smallest).
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import scipy.sparse as sp

from ._utils import declines

__all__ = ["adjacency_matrix", "laplacian_matrix", "normalized_laplacian_matrix", "modularity_matrix"]


def _positions(G, nodelist):
    """Each vertex's row in NetworkX's matrix (``-1``: not in ``nodelist``) and the number of rows, with
    ``to_scipy_sparse_array``'s errors."""
    n = len(G)
    if n == 0:
        raise nx.NetworkXError("Graph has no nodes or edges")
    if nodelist is None:
        return np.arange(n), n
    nlen = len(nodelist)
    if nlen == 0:
        raise nx.NetworkXError("nodelist has no nodes")
    ids = []
    for v in nodelist:                           # G.nbunch_iter(nodelist): nodes not in G left out
        try:
            if v in G.index:
                ids.append(G.index[v])
        except TypeError:
            raise nx.NetworkXError(f"Node {v} in sequence nbunch is not a valid node.") from None
    if nlen != len(set(ids)):
        for v in nodelist:
            if v not in G:
                raise nx.NetworkXError(f"Node {v} in nodelist is not in G")
        raise nx.NetworkXError("nodelist contains duplicates.")
    pos = np.full(n, -1, np.int64)
    pos[ids] = np.arange(nlen)
    return pos, nlen


def _to_scipy(G, nodelist=None, dtype=None, weight="weight", format="csr"):
    """NetworkX's ``to_scipy_sparse_array(G, nodelist, dtype, weight, format)`` from the converted graph."""
    pos, nlen = _positions(G, nodelist)
    e = G._edges                                 # G.edges: an undirected edge once
    u, v = pos[G._src[e]], pos[G._dst[e]]
    keep = (u >= 0) & (v >= 0)                   # G.subgraph(nodelist)'s edges
    u, v = u[keep], v[keep]
    if weight is None:                           # G.edges(data=None, default=1): 1 for every edge
        data = np.ones(u.size, np.int64)
    else:
        w = G.weights(weight)[keep]
        data = w.astype(np.int64) if G.int_weights(weight) else w
    if not u.size:                               # NetworkX's empty lists: float64 unless dtype says
        data = np.zeros(0)
    if G.is_directed():
        A = sp.coo_array((data, (u, v)), shape=(nlen, nlen), dtype=dtype)
    else:                                        # both ways; a self-loop's second copy taken off again
        loop = u == v
        A = sp.coo_array((np.concatenate([data, data, -data[loop]]),
                          (np.concatenate([u, v, u[loop]]), np.concatenate([v, u, u[loop]]))),
                         shape=(nlen, nlen), dtype=dtype)
    try:
        return A.asformat(format)
    except ValueError as err:
        raise nx.NetworkXError(f"Unknown sparse matrix format: {format}") from err


def adjacency_matrix(G, nodelist=None, dtype=None, weight="weight"):
    """The adjacency matrix as NetworkX's CSR array (rows and columns in ``nodelist`` order)."""
    return _to_scipy(G, nodelist=nodelist, dtype=dtype, weight=weight)


def laplacian_matrix(G, nodelist=None, weight="weight"):
    """``D - A`` (out-degrees of a directed graph) as NetworkX's CSR array."""
    if nodelist is None and len(G):
        # kept on the converted graph (NetworkX clears that cache when the graph changes) and handed out as a
        # copy, so that a caller's change to it never reaches the next call (G(100k, 800k): 48 -> ~6 ms)
        key = ("laplacian", weight)
        if key not in G._cache:
            G._cache[key] = _laplacian_of_adjacency(G, weight)
        return G._cache[key].copy()
    A = _to_scipy(G, nodelist=nodelist, weight=weight, format="csr")
    n, m = A.shape
    D = sp.dia_array((A.sum(axis=1), 0), shape=(m, n)).tocsr()
    return D - A


def _laplacian_of_adjacency(G, weight):
    """``D - A`` in every vertex's order, from the converted graph's own CSR (its rows sorted, a self-loop
    once: NetworkX's adjacency array): each row's degree put in at its diagonal place, no COO built and
    sorted, no sparse subtraction (facebook, converted: 6.3 ms -> 1.5; G(100k, 800k) 48 ms).  Zeros are dropped, as
    scipy's ``D - A`` drops them (an isolated vertex's diagonal)."""
    g = G.lagraph(weight)
    n = g.n
    if weight is None or g.weights is None:
        data = np.ones(g.nnz, np.int64)
    else:
        data = g.weights.astype(np.int64) if G.int_weights(weight) else g.weights.copy()
    if not data.size:                                    # NetworkX's empty lists: float64
        data = np.zeros(0)
    indptr, indices = g.indptr.astype(np.int64), g.indices.astype(np.int64)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    degree = sp.csr_array((data, indices, indptr), shape=(n, n)).sum(axis=1)   # scipy's sum: NetworkX's rounding
    loop = indices == rows
    data = -data
    data[loop] += degree[rows[loop]]                     # d - a_ii where the row holds its diagonal
    has_loop = np.zeros(n, bool)
    has_loop[rows[loop]] = True
    fill = np.flatnonzero(~has_loop)                     # rows whose diagonal goes in, before their first
    below = np.bincount(rows[indices < rows], minlength=n)   # column past it
    at = indptr[fill] + below[fill]
    ptr = indptr + np.concatenate([[0], np.cumsum(~has_loop)])
    # the index type of NetworkX's D - A: scipy's binary op takes int64 from the COO's int64 coordinates, and
    # int32 where there are none
    index = np.int64 if indices.size else np.int32
    L = sp.csr_array((np.insert(data, at, degree[fill]), np.insert(indices, at, fill).astype(index),
                      ptr.astype(index)), shape=(n, n))
    L.eliminate_zeros()
    return L


def normalized_laplacian_matrix(G, nodelist=None, weight="weight"):
    """``D^-1/2 (D - A) D^-1/2`` (0 where a degree is 0) as NetworkX's CSR array."""
    A = _to_scipy(G, nodelist=nodelist, weight=weight, format="csr")
    n, _ = A.shape
    diags = A.sum(axis=1)
    D = sp.dia_array((diags, 0), shape=(n, n)).tocsr()
    L = D - A
    with np.errstate(divide="ignore"):
        diags_sqrt = 1.0 / np.sqrt(diags)
    diags_sqrt[np.isinf(diags_sqrt)] = 0
    DH = sp.dia_array((diags_sqrt, 0), shape=(n, n)).tocsr()
    return DH @ (L @ DH)


def modularity_matrix(G, nodelist=None, weight=None):
    """``B = A - k k' / 2m`` of an undirected graph as NetworkX's dense array."""
    A = _to_scipy(G, nodelist=nodelist, weight=weight, format="csr")
    k = A.sum(axis=1)
    m = k.sum() * 0.5
    X = np.outer(k, k) / (2 * m)
    return A - X


@declines(*__all__)
def _matrix_declines(a):
    G = a.get("G")
    if G is not None and G.is_multigraph():
        return "a multigraph G: NetworkX sums parallel edges; the converted graph keeps the smallest weight"
    if a.get("format", "csr") != "csr":
        return "format: only NetworkX's default csr"
    return None
