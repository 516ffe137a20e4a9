"""The :class:`Graph` container.

A Graph is an immutable n x n sparse adjacency matrix (CSR on the host: row
pointers, sorted column indices, optional float64 weights) plus a ``directed``
flag.  Engines upload it on first use and cache their copy on the graph, so an
algorithm run twice on one engine uploads once.

Rules, applied by every constructor:

* Vertex ids are kept as given: ``n = max id + 1`` unless ``n`` is passed (or a
  file declares it).  Ids are never compacted, so vertex ``i`` of the file is
  vertex ``i`` of the graph; a file whose ids start at 1 (Matrix Market, DIMACS,
  METIS) is shifted to start at 0.
* An undirected graph is stored symmetric: edge ``(u, v)`` adds ``A[u, v]`` and
  ``A[v, u]``.
* Duplicate edges are combined into one; a weighted duplicate keeps the
  **smallest** weight (the one every shortest-path and spanning-tree
  algorithm would pick).
* Self-loops are kept and counted (:attr:`Graph.self_loops`).
* Weights must be finite; NaN and infinity are rejected.
"""

from __future__ import annotations

import numbers
from functools import cached_property
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from . import _progress, _validation as V
from .exceptions import InvalidArgumentError, InvalidGraphError
from .io import read_edges

__all__ = ["Graph", "WeightRange", "Subgraph"]


class WeightRange(NamedTuple):
    """The smallest and largest edge weight, and the smallest positive one (0.0 if none is positive)."""

    min: float
    max: float
    min_positive: float


class Subgraph(NamedTuple):
    """A subgraph and where its vertices come from: vertex ``i`` of ``graph`` is vertex ``vertices[i]`` of the
    graph it was taken from (``vertices`` sorted, int64)."""

    graph: "Graph"
    vertices: np.ndarray


class Graph:
    """An immutable graph held as a sparse adjacency matrix.

    Build one with :meth:`from_edges`, :meth:`from_scipy`, :meth:`from_file`
    or :meth:`from_networkx`; the constructor itself is private.

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 1, 3], [1, 2, 4])
    >>> G
    Graph(n=5, edges=3, undirected)
    >>> G.out_degree.tolist()
    [1, 2, 1, 1, 1]
    """

    __slots__ = ("_indptr", "_indices", "_weights", "_n", "_directed", "_engine_cache", "__dict__")

    def __init__(self, indptr, indices, weights, n, directed, *, _trusted=False):
        if not _trusted:
            raise TypeError("build a Graph with Graph.from_edges, from_scipy, from_file or from_networkx")
        for a in (indptr, indices, weights):
            if a is not None:
                a.flags.writeable = False
        self._indptr = indptr
        self._indices = indices
        self._weights = weights
        self._n = int(n)
        self._directed = bool(directed)
        self._engine_cache = {}

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_edges(cls, u, v, w=None, n=None, directed=False):
        """Build a graph from edge arrays.

        Parameters
        ----------
        u, v : array_like of int
            Edge endpoints; edge ``k`` goes from ``u[k]`` to ``v[k]``.
        w : array_like of float, optional
            Edge weights (finite); ``None`` makes an unweighted graph.
        n : int, optional
            Number of vertices; default ``max(u, v) + 1``.
        directed : bool
            ``False`` (default) stores each edge in both directions.

        Examples
        --------
        >>> import la_graph as lg
        >>> G = lg.Graph.from_edges([0, 0, 1], [1, 1, 2], w=[5.0, 2.0, 1.0], directed=True)
        >>> G.to_scipy().toarray().tolist()   # the duplicate 0->1 keeps weight 2
        [[0.0, 2.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]

        CuPy arrays (anything with ``__cuda_array_interface__``) are built into
        a graph on the GPU: the GPU engine then uses its device copy and uploads
        nothing (see :meth:`from_cupy`).
        """
        if any(hasattr(a, "__cuda_array_interface__") for a in (u, v, w)):
            from .engines import get_engine

            return get_engine("gpu").graph_from_device(u, v, w, n, directed)
        directed = V.check_flag(directed, "directed")
        u, v, w, n = V.check_edge_arrays(u, v, w, n)
        if not directed:
            off = u != v
            u, v = np.concatenate([u, v[off]]), np.concatenate([v, u[off]])
            if w is not None:
                w = np.concatenate([w, w[off]])
        indptr, indices, weights = _csr_min_dups(u, v, w, n)
        return cls(indptr, indices, weights, n, directed, _trusted=True)

    @classmethod
    def from_scipy(cls, A, directed=None, weighted=None):
        """Build a graph from a square scipy sparse matrix (or dense 2-D array).

        Parameters
        ----------
        A : scipy.sparse matrix or array, or numpy 2-D array
            Stored entries of a sparse matrix are edges (explicit zeros too, as in
            scipy.sparse.csgraph); nonzeros of a dense array are edges.
        directed : bool or None
            ``None`` (default): undirected if ``A`` is symmetric, else directed.
            ``False`` on a non-symmetric ``A`` symmetrizes it.
        weighted : bool or None
            ``None`` (default): weighted unless ``A`` is boolean or all its entries are 1.

        Examples
        --------
        >>> import scipy.sparse as sp, la_graph as lg
        >>> G = lg.Graph.from_scipy(sp.csr_array([[0, 1], [1, 0]]))
        >>> G.directed, G.weighted
        (False, False)
        """
        directed = None if directed is None else V.check_flag(directed, "directed")
        weighted = None if weighted is None else V.check_flag(weighted, "weighted")
        A = V.check_square_sparse(A)
        data = A.data
        if weighted is None:
            weighted = data.dtype.kind != "b" and not bool(np.all(data == 1))
        w = data if weighted else None
        if directed is None:
            G = cls.from_edges(A.row, A.col, w, n=A.shape[0], directed=True)
            return G if not G.is_symmetric else G._with(directed=False)
        return cls.from_edges(A.row, A.col, w, n=A.shape[0], directed=directed)

    @classmethod
    def from_cupy(cls, A, directed=None, weighted=None):
        """Build a graph from a square CuPy sparse matrix (``cupyx.scipy.sparse``) on the GPU.

        The rules of :meth:`from_scipy`.  Validation and the CSR are computed on
        the device; the result is copied to the host once (a Graph is a host
        object) and the device copy is kept as the GPU engine's matrix of the
        graph, so algorithms run with ``engine="gpu"`` upload nothing.  Needs
        the GPU engine (CuPy and a CUDA device).
        """
        return _engine("gpu").graph_from_device_matrix(A, directed=directed, weighted=weighted)

    @classmethod
    def from_graphblas(cls, M, directed=None, weighted=None):
        """Build a graph from a square python-graphblas ``Matrix`` (rules of :meth:`from_scipy`).

        Examples
        --------
        >>> import graphblas as gb, la_graph as lg
        >>> M = gb.Matrix.from_coo([0, 1], [1, 2], [2.5, 1.0], nrows=3, ncols=3)
        >>> lg.Graph.from_graphblas(M)
        Graph(n=3, edges=2, directed, weighted)
        """
        return _engine("cpu").graph_from_graphblas(M, directed=directed, weighted=weighted)

    @classmethod
    def from_networkx(cls, G, weight="weight"):
        """Build a graph from a NetworkX graph.

        Nodes are numbered in ``G.nodes`` order (``list(G)[i]`` is vertex ``i``).
        The graph is weighted when any edge has the ``weight`` attribute; a missing
        attribute then counts as 1.

        Examples
        --------
        >>> import networkx as nx, la_graph as lg
        >>> lg.Graph.from_networkx(nx.path_graph(4))
        Graph(n=4, edges=3, undirected)
        """
        V.check_networkx_graph(G, weight)
        index = {node: i for i, node in enumerate(G.nodes)}
        edges = list(G.edges(data=True))
        u = np.fromiter((index[a] for a, _, _ in edges), np.int64, len(edges))
        v = np.fromiter((index[b] for _, b, _ in edges), np.int64, len(edges))
        w = None
        if weight is not None and any(weight in d for _, _, d in edges):
            raw = [d.get(weight, 1.0) for _, _, d in edges]
            for (a, b, _), x in zip(edges, raw):
                if not isinstance(x, (numbers.Real, np.number)) or isinstance(x, np.complexfloating):
                    raise InvalidGraphError(f"edge weights must be real numbers: edge ({a!r}, {b!r}) has "
                                            f"{weight}={x!r}")
                if isinstance(x, (numbers.Integral, np.integer)) and abs(int(x)) > 2**53:
                    raise InvalidGraphError(f"integer weights must be at most 2**53 in magnitude (weights are "
                                            f"float64, which rounds larger ones): edge ({a!r}, {b!r}) has "
                                            f"{weight}={int(x)}")
            w = np.array(raw, dtype=np.float64)
        return cls.from_edges(u, v, w, n=len(index), directed=G.is_directed())

    @classmethod
    def from_file(cls, path, directed=None, fmt=None, *, progress=False, base=None, usecols=None):
        """Read a graph file.

        Formats (chosen from the extension, ``.gz`` allowed, unless ``fmt`` is given):
        Matrix Market ``.mtx`` (``fmt="mtx"``), SNAP/whitespace edge lists
        ``.txt``/``.el``/``.edges`` (``"edgelist"``), CSV ``.csv`` (``"csv"``),
        DIMACS shortest-path ``.gr`` (``"dimacs"``), METIS ``.graph`` (``"metis"``).

        ``directed=None`` takes the file's word: Matrix Market ``symmetric`` and
        METIS are undirected; ``general`` Matrix Market, edge lists, CSV and DIMACS
        are directed.  ``directed=False`` makes every edge two-way;
        ``directed=True`` on an undirected file keeps both directions of each edge.
        Ids are kept as given (see the module notes); ``base=1`` numbers an edge
        list or CSV from 1 (ids shifted down by one), ``base=0`` from 0, and by
        default a file with no vertex 0 whose smallest id is 1 is read as written
        with a :class:`~la_graph.exceptions.NumberingWarning`.  An edge list or
        CSV with more than three columns needs ``usecols=(source, target[,
        weight])`` (0-based column numbers).  ``progress=True`` shows on standard
        error the bytes read, then the time spent parsing and building, each
        once it has taken 2 seconds.

        Examples
        --------
        >>> import la_graph as lg
        >>> G = lg.Graph.from_file(lg.data.path("karate"))
        >>> G.n, G.nedges
        (34, 78)
        """
        directed = None if directed is None else V.check_flag(directed, "directed")
        progress = V.check_flag(progress, "progress")
        e = read_edges(path, fmt=fmt, progress=progress, base=base, usecols=usecols)
        # a file that stores one triangle of an undirected graph is symmetrized in any case
        with _progress.step(progress, f"building the graph of {e.u.size:,} edges"):
            G = cls.from_edges(e.u, e.v, e.w, n=e.n, directed=e.directed)
        if directed is None or bool(directed) == e.directed:
            return G
        return G.to_undirected() if not directed else G._with(directed=True)

    # ------------------------------------------------------------------ conversions
    def to_scipy(self):
        """The adjacency matrix as a scipy ``csr_array`` (float64; 1.0 where unweighted).

        Index arrays are int32 where they fit, as scipy makes them itself.
        """
        data = self._weights.copy() if self._weights is not None else np.ones(self.nnz)
        small = max(self._n, self.nnz) <= V.INT32_MAX
        idx = np.int32 if small else np.int64
        return sp.csr_array((data, self._indices.astype(idx), self._indptr.astype(idx)), shape=(self._n, self._n))

    def to_graphblas(self):
        """The adjacency matrix as a new python-graphblas ``Matrix`` (BOOL ones if unweighted, else FP64).

        Examples
        --------
        >>> import la_graph as lg
        >>> M = lg.Graph.from_edges([0], [1], w=[2.5], directed=True).to_graphblas()
        >>> M.nrows, M.nvals, M.dtype.name
        (2, 1, 'FP64')
        """
        return _engine("cpu").graph_to_graphblas(self)

    def to_networkx(self, nodes=None):
        """The graph as a NetworkX ``Graph`` or ``DiGraph`` (with ``weight`` when weighted).

        ``nodes``: the label of each vertex (``nodes[i]`` for vertex ``i``; default ``i``),
        e.g. ``list(H)`` of the NetworkX graph ``H`` this graph was built from.

        Examples
        --------
        >>> import networkx as nx, la_graph as lg
        >>> H = nx.Graph([("a", "b"), ("b", "c")])
        >>> list(lg.Graph.from_networkx(H).to_networkx(nodes=list(H)).edges)
        [('a', 'b'), ('b', 'c')]
        """
        import networkx as nx

        labels = list(range(self._n)) if nodes is None else V.check_labels(nodes, self._n)
        H = nx.DiGraph() if self._directed else nx.Graph()
        H.add_nodes_from(labels)
        rows, cols = self.edges()
        ends = zip([labels[i] for i in rows.tolist()], [labels[j] for j in cols.tolist()])
        if self._weights is not None:
            H.add_weighted_edges_from((a, b, x) for (a, b), x in zip(ends, self._weights.tolist()))
        else:
            H.add_edges_from(ends)
        return H

    def edges(self):
        """``(rows, cols)`` of every stored entry, in CSR order (both directions when undirected)."""
        rows = np.repeat(np.arange(self._n, dtype=self._indices.dtype), np.diff(self._indptr))
        return rows, self._indices

    def to_undirected(self):
        """This graph with every edge made two-way (itself if already undirected; cached)."""
        if not self._directed:
            return self
        return self._undirected

    @cached_property
    def _undirected(self):
        rows, cols = self.edges()
        return Graph.from_edges(rows, cols, self._weights, n=self._n, directed=False)

    def _with(self, *, directed):
        return Graph(self._indptr, self._indices, self._weights, self._n, directed, _trusted=True)

    # ------------------------------------------------------------------ properties
    @property
    def n(self):
        """Number of vertices."""
        return self._n

    @property
    def nnz(self):
        """Number of stored adjacency entries (an undirected edge counts twice, a self-loop once)."""
        return int(self._indptr[-1])

    @property
    def nedges(self):
        """Number of edges: stored entries when directed; undirected edges (loops once) otherwise."""
        if self._directed:
            return self.nnz
        return (self.nnz + self.self_loops) // 2

    @property
    def directed(self):
        """Whether edges are one-way."""
        return self._directed

    @property
    def weighted(self):
        """Whether the graph carries edge weights."""
        return self._weights is not None

    @property
    def indptr(self):
        """CSR row pointers (read-only int64 array of length n+1)."""
        return self._indptr

    @property
    def indices(self):
        """CSR column indices, sorted within each row (read-only int32, or int64 beyond int32)."""
        return self._indices

    @property
    def weights(self):
        """CSR values (read-only float64), or ``None`` when unweighted."""
        return self._weights

    @cached_property
    def out_degree(self):
        """Out-degree of every vertex (int64; a self-loop counts once)."""
        return np.diff(self._indptr)

    @cached_property
    def in_degree(self):
        """In-degree of every vertex (int64)."""
        if not self._directed:
            return self.out_degree
        return np.bincount(self._indices, minlength=self._n).astype(np.int64)

    @cached_property
    def out_weight(self):
        """Each vertex's out-edge weights summed (float64; the out-degree when unweighted).

        Examples
        --------
        >>> import la_graph as lg
        >>> lg.Graph.from_edges([0, 0, 1], [1, 2, 2], w=[0.5, 2.0, 4.0], directed=True).out_weight.tolist()
        [2.5, 4.0, 0.0]
        """
        if self._weights is None:
            return self.out_degree.astype(np.float64)
        return np.bincount(self.edges()[0], weights=self._weights, minlength=self._n)

    @cached_property
    def self_loops(self):
        """Number of self-loops."""
        rows, cols = self.edges()
        return int(np.count_nonzero(rows == cols))

    def weight_range(self):
        """The :class:`WeightRange` ``(min, max, min_positive)`` of the edge weights.

        ``None`` for an unweighted graph; zeros for a weighted graph without edges.
        Computed once.  Algorithms read the weights' range through this method
        (a distributed graph computes it where its blocks live).

        Examples
        --------
        >>> import la_graph as lg
        >>> lg.Graph.from_edges([0, 1], [1, 2], w=[-1.5, 4.0]).weight_range()
        WeightRange(min=-1.5, max=4.0, min_positive=4.0)
        """
        return self._weight_range

    @cached_property
    def _weight_range(self):
        w = self._weights
        if w is None:
            return None
        if w.size == 0:
            return WeightRange(0.0, 0.0, 0.0)
        pos = w[w > 0]
        return WeightRange(float(w.min()), float(w.max()), float(pos.min()) if pos.size else 0.0)

    def negative_weight_edge(self):
        """``(u, v, w)`` of the first edge (by ``u``, then ``v``) whose weight is negative, or ``None``.

        Examples
        --------
        >>> import la_graph as lg
        >>> lg.Graph.from_edges([0, 1, 2], [1, 2, 0], w=[1.0, -2.0, -3.0], directed=True).negative_weight_edge()
        (1, 2, -2.0)
        """
        if self._weights is None:
            return None
        neg = np.flatnonzero(self._weights < 0)
        if neg.size == 0:
            return None
        e = int(neg[0])
        u = int(np.searchsorted(self._indptr, e, side="right") - 1)
        return u, int(self._indices[e]), float(self._weights[e])

    def edge_weight(self, u, v):
        """The weight of edge ``u -> v`` (1.0 when unweighted); InvalidArgumentError if there is none.

        Examples
        --------
        >>> import la_graph as lg
        >>> G = lg.Graph.from_edges([0, 1], [1, 2], w=[2.5, 4.0])
        >>> G.edge_weight(2, 1)
        4.0
        """
        u, v = V.check_vertex(u, self._n, what="u"), V.check_vertex(v, self._n, what="v")
        lo, hi = int(self._indptr[u]), int(self._indptr[u + 1])
        k = lo + int(np.searchsorted(self._indices[lo:hi], v))
        if k == hi or int(self._indices[k]) != v:
            raise InvalidArgumentError(f"the graph has no edge {u} -> {v}")
        return 1.0 if self._weights is None else float(self._weights[k])

    def rows(self, vertices):
        """The out-neighbours of ``vertices``: ``(indptr, indices, weights)``, their rows in CSR form, in the
        order given (``weights`` None when unweighted; ``G.T.rows(...)`` gives in-neighbours).

        For checks at a sample of vertices of a graph too big to gather (a
        :class:`~la_graph.engines.dask.DistributedGraph` reads the rows on its workers).

        Examples
        --------
        >>> import la_graph as lg
        >>> G = lg.Graph.from_edges([0, 0, 2], [1, 2, 1], w=[1.0, 2.0, 3.0], directed=True)
        >>> indptr, indices, weights = G.rows([2, 0])
        >>> indptr.tolist(), indices.tolist(), weights.tolist()
        ([0, 1, 3], [1, 1, 2], [3.0, 1.0, 2.0])
        """
        vs = V.check_vertices(vertices, self._n, what="vertices")
        lo = self._indptr[vs].astype(np.int64)
        lengths = self._indptr[vs + 1] - lo
        indptr = np.zeros(vs.size + 1, np.int64)
        np.cumsum(lengths, out=indptr[1:])
        at = np.repeat(lo - indptr[:-1], lengths) + np.arange(indptr[-1], dtype=np.int64)
        return indptr, self._indices[at].astype(np.int64), None if self._weights is None else self._weights[at]

    def subgraph(self, vertices):
        """The subgraph induced by ``vertices``, its weights kept, and the map back to this graph's ids.

        Parameters
        ----------
        vertices : array_like
            Vertex ids (any order, duplicates allowed), or a boolean mask of
            shape ``(n,)``.

        Returns
        -------
        Subgraph
            ``(graph, vertices)``: ``graph`` holds every edge (self-loops
            included) between the chosen vertices, directed if this graph is,
            and vertex ``i`` of it is vertex ``vertices[i]`` of this graph
            (``vertices`` the chosen ids, sorted, int64).

        Examples
        --------
        >>> import la_graph as lg
        >>> G = lg.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], w=[1.0, 2.0, 3.0, 4.0])   # a 4-cycle
        >>> H, ids = G.subgraph([3, 0, 1])
        >>> ids.tolist(), H.edges()[0].tolist(), H.indices.tolist(), H.weights.tolist()
        ([0, 1, 3], [0, 0, 1, 2], [1, 2, 0, 0], [1.0, 4.0, 1.0, 4.0])
        """
        mask = np.asarray(vertices)
        if mask.dtype == np.bool_:
            if mask.shape != (self._n,):
                raise InvalidArgumentError(f"a vertex mask must have shape ({self._n},), got {mask.shape}")
            ids = np.flatnonzero(mask).astype(np.int64)
        else:
            ids = np.unique(V.check_vertices(mask, self._n, what="vertices")) if mask.size else np.zeros(0, np.int64)
        new = np.full(self._n, -1, np.int64)            # this graph's id -> the subgraph's (-1: left out)
        new[ids] = np.arange(ids.size)
        if ids.size:
            indptr, cols, w = self.rows(ids)
        else:                                           # rows() asks for at least one vertex
            indptr, cols, w = np.zeros(1, np.int64), np.zeros(0, np.int64), self._weights[:0] if self.weighted else None
        inside = new[cols] >= 0
        rows = np.repeat(np.arange(ids.size), np.diff(indptr))[inside]
        # the rows come in order and the map is increasing, so the kept entries are CSR order already
        ptr = np.zeros(ids.size + 1, np.int64)
        np.cumsum(np.bincount(rows, minlength=ids.size), out=ptr[1:])
        idx = new[cols[inside]].astype(np.int32 if ids.size <= V.INT32_MAX else np.int64)
        weights = None if self._weights is None else np.ascontiguousarray(w[inside], dtype=np.float64)
        return Subgraph(Graph(ptr, idx, weights, ids.size, self._directed, _trusted=True), ids)

    @cached_property
    def is_symmetric(self):
        """Whether ``A == A.T`` (structure and weights)."""
        if not self._directed:
            return True
        T = self.T
        if not np.array_equal(self._indptr, T._indptr) or not np.array_equal(self._indices, T._indices):
            return False
        return self._weights is None or np.array_equal(self._weights, T._weights)

    @cached_property
    def T(self):
        """The transposed graph (edges reversed); the graph itself when undirected."""
        if not self._directed:
            return self
        At = self.to_scipy().T.tocsr()
        At.sort_indices()
        w = At.data if self._weights is not None else None
        return Graph(At.indptr.astype(np.int64), At.indices.astype(self._indices.dtype), w, self._n, True, _trusted=True)

    def __repr__(self):
        kind = "directed" if self._directed else "undirected"
        w = ", weighted" if self.weighted else ""
        return f"Graph(n={self._n}, edges={self.nedges}, {kind}{w})"

    def __eq__(self, other):
        if not isinstance(other, Graph):
            return NotImplemented
        return (
            self._n == other._n
            and self._directed == other._directed
            and np.array_equal(self._indptr, other._indptr)
            and np.array_equal(self._indices, other._indices)
            and (self._weights is None) == (other._weights is None)
            and (self._weights is None or np.array_equal(self._weights, other._weights))
        )

    __hash__ = object.__hash__


V.accept_graph_class(Graph)     # check_graph's class (la_graph._validation imports nothing above it)


def _engine(name):
    """The engine ``name`` from the engine registry, for the conversions an engine's objects take part in
    (:meth:`Graph.from_cupy`, :meth:`Graph.from_graphblas`, :meth:`Graph.to_graphblas`: their bodies are the
    engines' interop modules).

    The engines sit above this module (they take Graphs); this lookup is the one import upward, made when a
    conversion is asked for so that importing la_graph.graph loads no engine code.
    """
    from .engines import get_engine

    return get_engine(name)

def _csr_min_dups(u, v, w, n):
    """CSR (indptr int64, sorted indices, weights) of edges ``u -> v``; duplicates keep the min weight."""
    idx_dtype = np.int32 if n <= V.INT32_MAX else np.int64
    m = u.size
    if m == 0:
        return np.zeros(n + 1, np.int64), np.zeros(0, idx_dtype), (None if w is None else np.zeros(0))
    # structure: scipy's counting-sort COO -> CSR; sums duplicates of a boolean (logical or)
    S = sp.csr_array((np.ones(m, dtype=bool), (u, v)), shape=(n, n))
    S.sum_duplicates()
    S.sort_indices()
    indptr = S.indptr.astype(np.int64, copy=False)
    indices = S.indices.astype(idx_dtype, copy=False)
    if w is None:
        return indptr, indices, None
    if S.nnz == m:
        # no duplicates: carry the weights through the same sort
        W = sp.csr_array((w, (u, v)), shape=(n, n))
        W.sum_duplicates()
        W.sort_indices()
        return indptr, indices, W.data.astype(np.float64, copy=False)
    key = u * np.int64(n) + v
    order = np.lexsort((w, key))
    key = key[order]
    first = np.ones(m, dtype=bool)
    first[1:] = key[1:] != key[:-1]
    return indptr, indices, np.ascontiguousarray(w[order][first])
