"""A graph whose adjacency matrix lives on the Dask workers.

:func:`~la_graph.engines.dask.read_edges` and :func:`~la_graph.engines.dask.rmat`
build the blocks of a graph's matrices on the workers and return a
:class:`DistributedGraph`: the blocks of ``A`` and of its transpose, the
degree vectors, and the few numbers the algorithms read on the client
(``n``, ``nnz``, the weights' range, the degrees as numpy arrays).  The edge
list never exists on the client, and neither does a host CSR: the attributes
that would return one (``indptr``, ``indices``, ``weights``, ``edges()``,
``to_scipy()`` ...) raise :class:`~la_graph.exceptions.InvalidGraphError`;
:meth:`DistributedGraph.to_graph` gathers the graph into a host
:class:`~la_graph.Graph` where it fits.

The graph's matrices are filed in its engine cache under the engine that built
it, so the algorithms run on that engine (``engine=G.engine``, or the engine
of a ``with use_engine("dask", ...) as E`` block it was built with) exactly as
on a host graph, and upload nothing.  Another engine (the CPU one, another
dask engine object, or one on another set of workers) finds nothing
there and asks for the host arrays: that raises the error above, naming
:meth:`~DistributedGraph.to_graph`.
"""

from __future__ import annotations

import uuid
from functools import cached_property

import numpy as np
from scipy import sparse

from ... import _validation as V
from ...exceptions import InvalidArgumentError, InvalidGraphError
from ...graph import Graph, WeightRange
from . import tasks
from .objects import DVector

__all__ = ["DistributedGraph"]


#: the degree arrays SPMD ranks of this worker process gathered, ``(graph token, name) -> array``, for the
#: graph run last (see :meth:`DistributedGraph._gathered`)
_KEPT = {}


def _keeps(local, key):
    """A task: whether this worker keeps the degree array ``key``."""
    return key in _KEPT


class DistributedGraph(Graph):
    """A :class:`~la_graph.Graph` held as blocks on the workers of a dask engine (see the module docstring).

    Made by :func:`~la_graph.engines.dask.read_edges` and
    :func:`~la_graph.engines.dask.rmat`; not built directly.

    Attributes
    ----------
    n, nnz, nedges, directed, weighted, self_loops
        As on :class:`~la_graph.Graph`, computed on the workers.
    out_degree, in_degree : numpy.ndarray
        int64 degrees, one per vertex (gathered to the client: ``8 n`` bytes each; an SPMD run's ranks
        gather them from the workers when the algorithm first reads them).
    engine : DaskEngine
        The engine whose workers hold the blocks.

    Examples
    --------
    >>> import la_graph as lg
    >>> from distributed import Client, LocalCluster
    >>> from la_graph.engines.dask import DaskEngine, rmat
    >>> cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
    >>> client = Client(cluster)
    >>> E = DaskEngine(client)
    >>> G = rmat(E, 8, seed=1)
    >>> G.n, int(G.out_degree.sum()) == G.nnz, G.directed
    (256, True, False)
    >>> H = G.to_graph()                       # a host Graph: for checks on small graphs
    >>> lg.bfs(G, 0, engine=E).level.tolist() == lg.bfs(H, 0).level.tolist()
    True
    >>> G.indptr  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    la_graph.exceptions.InvalidGraphError: DistributedGraph(n=256, ...) lives on the Dask workers...
    >>> client.close(); cluster.close()
    """

    def __init__(self, engine, n, directed, weighted, A, AT, dout, din, out_degree, in_degree, nnz, self_loops,
                 weight_range, *, token=None, _trusted=False):
        if not _trusted:
            raise TypeError("a DistributedGraph is made by la_graph.engines.dask.read_edges or rmat")
        self._n, self._directed, self._engine_cache = int(n), bool(directed), {}
        # names it on the workers: (the graph's, whether this is its transpose, whose out-degrees are its in-)
        self._token = token if token is not None else (uuid.uuid4().hex, False)
        self._engine, self._key = engine, engine.cache_key
        self._has_weights = bool(weighted)
        for a in (out_degree, in_degree):
            if a is not None:
                a.flags.writeable = False
        self._out, self._in = out_degree, in_degree
        self._nnz, self._loops, self._range = int(nnz), int(self_loops), weight_range
        cache = self._engine_cache
        cache[(self._key, "A")], cache[(self._key, "AT")] = A, AT
        cache[(self._key, "dout")], cache[(self._key, "din")] = dout, din

    # ---------------------------------------------------------------- what the client holds
    @property
    def engine(self):
        """The dask engine whose workers hold the graph's blocks."""
        return self._engine

    @property
    def nnz(self):
        return self._nnz

    @property
    def weighted(self):
        return self._has_weights

    @property
    def self_loops(self):
        return self._loops

    @property
    def out_degree(self):
        if self._out is None:
            self._out = self._gathered("dout")
        return self._out

    @property
    def in_degree(self):
        if self._in is None:
            self._in = self._gathered("din")
        return self._in

    def _gathered(self, name):
        """Degree vector ``name`` gathered from the workers, for a graph made without its arrays: an SPMD
        rank's copy of a graph argument.  Its ranks gather them device to device on first use, instead of
        the client sending ``16 n`` bytes to every worker through Dask (R-MAT 28's 4.3 GB had not arrived
        when a 540-s call on nvidia-h100-x4 ended).  Each worker keeps the arrays of the graph it ran last
        for its next runs; the ranks take the kept ones only when every rank holds them, decided together,
        so that no rank gathers alone."""
        base, transposed = self._token
        E, key = self._engine, (base, {"dout": "din", "din": "dout"}[name] if transposed else name)
        if all(E._gather([E._submit(w, _keeps, key) for w in E.placement.workers])):
            return _KEPT[key]
        d = np.asarray(E.to_numpy(self._engine_cache[(self._key, name)], fill=0), dtype=np.int64)
        d.flags.writeable = False
        if any(k[0] != base for k in _KEPT):
            _KEPT.clear()                                 # one graph's arrays at most
        _KEPT[key] = d
        return d

    @cached_property
    def out_weight(self):
        """Each vertex's out-edge weights summed (float64, gathered to the client; a ``plus.times`` product
        with ones on the workers), the out-degree when unweighted."""
        if self.weighted:
            E = self._engine
            w = np.asarray(E.to_numpy(E.mxv(self._blocks(), E.full(self._n, 1.0), "plus_times"), fill=0),
                           dtype=np.float64)
        else:
            w = self.out_degree.astype(np.float64)
        w.flags.writeable = False
        return w

    def weight_range(self):
        """The :class:`~la_graph.graph.WeightRange` of the weights (computed on the workers); None if unweighted."""
        return self._range

    def __repr__(self):
        kind = "directed" if self._directed else "undirected"
        w = ", weighted" if self.weighted else ""
        return f"DistributedGraph(n={self._n}, edges={self.nedges}, {kind}{w}, grid={self._placement().s})"

    def __eq__(self, other):
        return self is other

    __hash__ = object.__hash__

    # ---------------------------------------------------------------- on the workers
    def _placement(self):
        return self._engine_cache[(self._key, "A")].placement

    def _blocks(self, transpose=False):
        """``A`` (``AT``) as a DMatrix, after checking the engine still has the workers that hold it."""
        if self._engine.cache_key != self._key:
            raise InvalidGraphError(f"{self!r} was built on a set of Dask workers the engine no longer has "
                                    "(the cluster changed since): load or generate it again")
        return self._engine_cache[(self._key, "AT" if transpose else "A")]

    def to_graph(self):
        """Gather the graph into a host :class:`~la_graph.Graph` (its edges all travel to the client).

        Meant for tests, checkers and small graphs: the host graph needs about
        ``12 nnz + 8 n`` bytes (``20 nnz`` weighted) on the client.
        """
        rows, cols, vals = self._engine._coo(self._blocks())     # unsorted
        n = self._n
        # scipy's CSR conversion: a counting sort by row, then each row's columns sorted (linear in the rows;
        # a sort of all the entries by (row, column) took 14 s for R-MAT 20's 33 M on one core)
        data = vals.astype(np.float64, copy=False) if self.weighted else np.zeros(rows.size, np.int8)
        M = sparse.coo_matrix((data, (rows, cols)), shape=(n, n)).tocsr()
        del rows, cols, vals
        M.sort_indices()
        idx = np.int32 if n <= np.iinfo(np.int32).max else np.int64
        return Graph(M.indptr.astype(np.int64), M.indices.astype(idx, copy=False),
                     M.data if self.weighted else None, n, self._directed, _trusted=True)

    @property
    def T(self):
        """The transposed graph (edges reversed), on the same workers; the graph itself when undirected."""
        if not self._directed:
            return self
        T = self.__dict__.get("_transposed")
        if T is None:
            key, c = self._key, self._engine_cache
            self._blocks()
            T = self.__dict__["_transposed"] = DistributedGraph(
                self._engine, self._n, True, self.weighted, c[(key, "AT")], c[(key, "A")], c[(key, "din")],
                c[(key, "dout")], self._in, self._out, self._nnz, self._loops, self._range,
                token=(self._token[0], not self._token[1]), _trusted=True)
        return T

    def to_undirected(self):
        """This graph with every edge made two-way, built on the workers (``A`` min ``A'``; cached)."""
        if not self._directed:
            return self
        U = self.__dict__.get("_undirected_graph")
        if U is None:
            A, AT = self._blocks(), self._blocks(transpose=True)
            S = self._engine.ewise_add(A, AT, "min")
            U = self.__dict__["_undirected_graph"] = from_blocks(self._engine, S, S, self._n, False, self.weighted)
        return U

    @property
    def is_symmetric(self):
        """Whether ``A == A'`` (structure and weights), tested block by block on the workers."""
        return not self._directed or self._engine.isequal(self._blocks(), self._blocks(transpose=True))

    def negative_weight_edge(self):
        """``(u, v, w)`` of the first edge (by ``u``, then ``v``) with a negative weight, or None (on the workers)."""
        if not self.weighted or self._range.min >= 0:
            return None
        E, A = self._engine, self._blocks()
        p, L = A.placement, E.layout(self._n)
        got = E._gather([E._submit(p.block(i, j), _first_negative, A.parts[i][j], L, i, j)
                         for i in range(p.s) for j in range(p.s)])
        return min(g for g in got if g is not None)

    def edge_weight(self, u, v):
        """The weight of edge ``u -> v`` (1.0 when unweighted), read from its block; error if there is none."""
        u, v = V.check_vertex(u, self._n, what="u"), V.check_vertex(v, self._n, what="v")
        E, A = self._engine, self._blocks()
        (si, sj), (li, lj) = zip(*(E.layout(self._n).locate(np.array([x])) for x in (u, v)))
        i, j = int(si[0]), int(sj[0])
        w = E._gather([E._submit(A.placement.block(i, j), _entry, A.parts[i][j], int(li[0]), int(lj[0]))])[0]
        if w is None:
            raise InvalidArgumentError(f"the graph has no edge {u} -> {v}")
        return 1.0 if not self.weighted else float(w)

    def rows(self, vertices):
        """As :meth:`Graph.rows <la_graph.Graph.rows>`: the out-neighbours of ``vertices``, read on the workers
        (each block that holds some of the rows multiplies a selector of them by itself and sends the rows)."""
        vs = V.check_vertices(vertices, self._n, what="vertices")
        E, A = self._engine, self._blocks()
        p, L = A.placement, E.layout(self._n)
        seg, local = L.locate(vs)
        held, futures = [], []
        for i in np.unique(seg).tolist():
            at = np.flatnonzero(seg == i)
            for j in range(p.s):
                futures.append(E._submit(p.block(i, j), _rows_of, A.parts[i][j], local[at], L, j))
                held.append(at)
        got = E._gather(futures)
        which = np.concatenate([at[r] for at, (r, _, _) in zip(held, got)])
        cols = np.concatenate([c for _, c, _ in got])
        order = np.lexsort((cols, which))
        indptr = np.zeros(vs.size + 1, np.int64)
        np.cumsum(np.bincount(which, minlength=vs.size), out=indptr[1:])
        w = np.concatenate([v for _, _, v in got])[order].astype(np.float64) if self.weighted else None
        return indptr, cols[order], w

    # ---------------------------------------------------------------- host arrays: none here
    def _no_host(self, what):
        p = self._engine._placement
        lost = "" if p is not None and self._engine.cache_key == self._key else (
            " (its engine has since lost the set of workers that held the blocks: load or generate it again)")
        return InvalidGraphError(
            f"{self!r} lives on the Dask workers, as blocks of the dask engine that built it{lost}: it has no "
            f"host {what}. Run algorithms with that engine (engine=G.engine); another engine finds "
            "no blocks of it. G.to_graph() gathers it into a host Graph (all its edges travel to the client)")

    @property
    def indptr(self):
        raise self._no_host("CSR arrays (indptr)")

    @property
    def indices(self):
        raise self._no_host("CSR arrays (indices)")

    @property
    def weights(self):
        raise self._no_host("CSR arrays (weights)")

    @property
    def _indptr(self):
        raise self._no_host("CSR arrays")

    _indices = _weights = _indptr

    def edges(self):
        raise self._no_host("edge arrays (edges())")

    def to_scipy(self):
        raise self._no_host("scipy matrix (to_scipy())")

    def to_graphblas(self):
        raise self._no_host("python-graphblas matrix (to_graphblas())")

    def to_networkx(self, nodes=None):
        raise self._no_host("NetworkX graph (to_networkx())")

    def _with(self, *, directed):
        raise self._no_host("CSR arrays")


def from_blocks(E, A, AT, n, directed, weighted):
    """The :class:`DistributedGraph` of blocks ``A`` and ``AT`` (DMatrix of ``E``; ``AT is A`` when undirected).

    Counts entries, self-loops, degrees and the weights' range on the workers;
    the client gathers the scalars and the two degree arrays.
    """
    p = A.placement
    s, L = p.s, E.layout(n)
    scalars, counts = [], {}
    for name, M in (("A", A), ("AT", AT)) if directed else (("A", A),):
        for i in range(s):
            for j in range(s):
                w = p.block(i, j)
                st = E._submit(w, _block_stats, M.parts[i][j], i == j, weighted)
                if name == "A":
                    scalars.append(E._submit(w, tasks.pick, st, 0))
                counts[name, i, j] = E._submit(w, tasks.pick, st, 1)
    sums = {name: [E._submit(p.segment(i), _sum_counts, *[counts[name, i, j] for j in range(s)])
                   for i in range(s)] for name in (("A", "AT") if directed else ("A",))}
    got = E._gather(scalars + sums["A"] + (sums["AT"] if directed else []))
    stats = np.array(got[:len(scalars)], dtype=np.float64).reshape(-1, 5)
    arrays = got[len(scalars):]
    degrees = []
    for part in (arrays[:s], arrays[s:]) if directed else (arrays[:s],):
        d = np.empty(n, np.int64)
        for k in range(s):
            d[L.ids(k)] = part[k]
        degrees.append(d)
    dout_np, din_np = degrees[0], degrees[-1]
    dout = _vector(E, p, n, sums["A"])
    din = _vector(E, p, n, sums["AT" if directed else "A"])
    nnz, loops = int(stats[:, 0].sum()), int(stats[:, 1].sum())
    wr = None
    if weighted:
        wr = WeightRange(0.0, 0.0, 0.0) if nnz == 0 else WeightRange(
            float(stats[:, 2].min()), float(stats[:, 3].max()),
            float(stats[:, 4].min()) if np.isfinite(stats[:, 4].min()) else 0.0)
    return DistributedGraph(E, n, directed, weighted, A, AT, dout, din, dout_np, din_np, nnz, loops, wr,
                            _trusted=True)


def _vector(E, p, n, arrays):
    return DVector((n,), [E._submit(p.segment(k), tasks.from_numpy, f) for k, f in enumerate(arrays)], p)


# ---------------------------------------------------------------- on the workers
def _block_stats(name, M, diagonal, weighted):
    """``((entries, self-loops, min, max, smallest positive weight), row counts)`` of one block.

    By the engine's primitives, never the block's coordinates: a GPU worker's
    one block of R-MAT 26 (2.1 billion entries) has no room for them.  A
    diagonal block's rows and columns are the same vertices, so its loops
    are its ``i == j`` entries.
    """
    E = tasks._E(name)
    entries = E.nvals(M)
    # row counts by a plus.pair product with ones: the block's values are never copied
    counts = E.to_numpy(E.mxv(M, E.full(E.size(M)[1], 1, dtype=np.int64), "plus_pair"), fill=0).astype(np.int64)
    loops = E.nvals(E.select(M, "diag")) if diagonal and entries else 0
    lo, hi, pos = np.inf, -np.inf, np.inf
    if weighted and entries:
        lo, hi = float(E.reduce(M, "min")), float(E.reduce(M, "max"))
        pos = lo if lo > 0 else (float(E.reduce(E.select(M, "valuegt", 0.0), "min")) if hi > 0 else np.inf)
    return (float(entries), float(loops), lo, hi, pos), counts


def _sum_counts(name, *counts):
    return np.sum(counts, axis=0, dtype=np.int64) if len(counts) > 1 else counts[0]


def _first_negative(name, M, layout, i, j):
    """``(u, v, w)`` (global ids) of the block's negative-weight entry with the smallest ``(u, v)``, or None."""
    rows, cols, vals = tasks._E(name).to_coo(M)
    neg = np.flatnonzero(vals < 0)
    if neg.size == 0:
        return None
    u = tasks._ids_at(layout, i, rows[neg].astype(np.int64))
    v = tasks._ids_at(layout, j, cols[neg].astype(np.int64))
    k = np.lexsort((v, u))[0]
    return int(u[k]), int(v[k]), float(vals[neg[k]])


def _rows_of(name, M, local, layout, j):
    """Rows ``local`` of block ``M`` (column segment ``j`` of ``layout``): ``(k, column ids, values)``, ``k``
    the index into ``local`` of each entry's row, its column a global vertex id."""
    E = tasks._E(name)
    nrows = E.size(M)[0]
    k = np.arange(local.size, dtype=np.int64)
    S = E.matrix_from_coo(k, local.astype(np.int64), np.ones(local.size, np.float64), local.size, nrows,
                          dtype=np.float64)
    r, c, v = E.to_coo(E.mxm(S, M, "any_second"))
    return np.asarray(r, np.int64), tasks._ids_at(layout, j, c), v


def _entry(name, M, li, lj):
    """The value at local ``(li, lj)`` of a block, or None."""
    rows, cols, vals = tasks._E(name).to_coo(M)
    hit = np.flatnonzero((rows == li) & (cols == lj))
    return vals[hit[0]].item() if hit.size else None
