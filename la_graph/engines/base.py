"""The operator interface every engine implements.

Algorithms (and users writing their own) call only these methods, so the same
code runs on the CPU engine (python-graphblas / SuiteSparse:GraphBLAS) and the
GPU engine (CuPy).  Vectors and matrices are engine-native handles: treat them
as opaque and pass them back to the engine that made them.

Names follow GraphBLAS:

* **semirings** ``"<add>_<mult>"``: ``min_second``, ``min_first``, ``min_plus``,
  ``any_pair``, ``any_secondi``, ``min_secondi``, ``plus_times``, ``plus_pair``
  (and the other GraphBLAS combinations of the monoids and binary ops below).
  For ``mxv(A, u)`` the multiply sees ``(A[i, j], u[j])``; for ``vxm(u, A)`` it
  sees ``(u[k], A[k, j])``.  ``secondi`` yields the row index of its second
  operand: in ``vxm(q, A, "any_secondi")`` that is the frontier vertex ``k``,
  i.e. the BFS parent.
* **binary ops** ``min max plus minus times div first second any pair eq ne lt
  le gt ge lor land``; **monoids** ``min max plus times any lor land``.
* **unary ops** for :meth:`Engine.apply`: ``identity ainv abs minv one lnot``;
  or a binary op with a scalar ``right=`` operand (``apply(u, "plus", right=1)``).
* **select ops**: ``valueeq valuene valuelt valuele valuegt valuege`` (with a
  thunk), ``rowle rowgt`` (index <= / > thunk), ``tril triu diag offdiag``.

Every operation that produces a vector or matrix takes the GraphBLAS output
arguments:

``out``
    an existing object to write into (``None``: a new one is made; then the
    mask, if any, still applies and ``accum`` must be ``None``).
``mask``, ``structural``, ``complement``
    write only where the mask allows: a *value* mask allows where the mask
    holds a true value, a *structural* mask wherever it holds any value;
    ``complement=True`` inverts that.
``accum``
    a binary op combining old and new values where both exist (``None``: new
    values replace old ones).
``replace``
    clear entries of ``out`` that the mask does not allow.

Dtypes are numpy dtypes (``int64`` for vertex ids and levels, ``float64`` for
weights, ``bool``).  Graph matrices of unweighted graphs hold ``bool`` ones.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

SEMIRINGS = (
    "min_second", "min_first", "min_plus", "max_second", "max_first",
    "any_pair", "any_first", "any_second", "any_secondi", "any_firsti",
    "min_secondi", "min_firsti", "plus_times", "plus_pair", "plus_first", "plus_second",
    "lor_land", "max_times", "min_times", "max_plus", "plus_min",
)
BINARY_OPS = ("min", "max", "plus", "minus", "times", "div", "first", "second", "any", "pair",
              "eq", "ne", "lt", "le", "gt", "ge", "lor", "land")
MONOIDS = ("min", "max", "plus", "times", "any", "lor", "land")
UNARY_OPS = ("identity", "ainv", "abs", "minv", "one", "lnot")
SELECT_OPS = ("valueeq", "valuene", "valuelt", "valuele", "valuegt", "valuege",
              "rowle", "rowgt", "tril", "triu", "diag", "offdiag")


class Engine(ABC):
    """The operator interface; see the module docstring for the conventions."""

    #: the name the registry knows this engine by ("cpu" or "gpu")
    name: str = ""

    #: push levels over at most this many edges always go to :meth:`bfs_push`
    #: (an engine whose per-call cost is high fuses more)
    bfs_fuse_edges: int = 0

    #: whether vertex-id vectors (parents) are int32 where ``n`` allows: half the
    #: memory traffic for a GPU; a GraphBLAS engine holds int64 anyway, so int64
    #: spares it a conversion of every result
    narrow_ids: bool = True

    def id_dtype(self, n):
        """The dtype for vectors of vertex ids of an ``n``-vertex graph."""
        return np.dtype(np.int32 if self.narrow_ids and n <= np.iinfo(np.int32).max else np.int64)

    # ---------------------------------------------------------------- graphs
    @abstractmethod
    def matrix(self, G, *, transpose=False):
        """The adjacency matrix of Graph ``G`` on this engine (cached on ``G``)."""

    @abstractmethod
    def degree(self, G, *, transpose=False):
        """Out-degrees (in-degrees with ``transpose``) of ``G`` as a full int64 vector (cached)."""

    # ---------------------------------------------------------------- building
    @abstractmethod
    def vector(self, size, dtype):
        """An empty vector of ``size`` entries."""

    @abstractmethod
    def full(self, size, value, dtype=None):
        """A vector with every entry set to ``value``."""

    @abstractmethod
    def iota(self, size):
        """The full int64 vector ``[0, 1, ..., size-1]``."""

    @abstractmethod
    def vector_from_numpy(self, values):
        """A full vector holding a dense numpy array."""

    @abstractmethod
    def vector_from_coo(self, indices, values, size, *, dup=None, dtype=None):
        """A vector with ``w[indices[k]] = values[k]``; duplicates combined by the binary op ``dup``.

        ``values`` may be a scalar (every listed index gets it).  With ``dup=None``
        duplicate indices are an error.
        """

    @abstractmethod
    def matrix_from_coo(self, rows, cols, values, nrows, ncols, *, dup=None, dtype=None):
        """A matrix with ``C[rows[k], cols[k]] = values[k]`` (``values`` may be a scalar)."""

    @abstractmethod
    def to_numpy(self, x, fill=None):
        """A dense numpy copy of vector or matrix ``x``; missing entries become ``fill``.

        ``fill=None`` on an object with missing entries is an error.
        """

    def to_device(self, x, fill=None):
        """Like :meth:`to_numpy`, but the array stays where the engine computes.

        The GPU engine returns a CuPy array (no copy to the host), for users who
        chain more GPU work; the CPU engine returns numpy, as :meth:`to_numpy`.
        """
        return self.to_numpy(x, fill)

    @abstractmethod
    def to_coo(self, x):
        """``(indices, values)`` of a vector, ``(rows, cols, values)`` of a matrix, as numpy."""

    @abstractmethod
    def copy(self, x):
        """An independent copy."""

    @abstractmethod
    def nvals(self, x):
        """Number of stored entries (a Python int)."""

    @abstractmethod
    def size(self, x):
        """Length of a vector; ``(nrows, ncols)`` of a matrix."""

    @abstractmethod
    def isequal(self, x, y):
        """Whether ``x`` and ``y`` have the same structure and values."""

    def hint(self, x, storage):
        """Storage hint, ``"sparse"`` or ``"dense"``: how ``x`` is about to be used; returns ``x``.

        Results never depend on it.  ``"dense"`` suits vectors that fill up or are
        read at random (visited sets, a pulled frontier); ``"sparse"`` suits short
        frontiers that are scanned.  The CPU engine sets SuiteSparse's sparsity
        control (bitmap or sparse); the default does nothing.
        """
        return x

    # ---------------------------------------------------------------- operations
    @abstractmethod
    def mxv(self, A, u, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        """``w = A (+.*) u``."""

    @abstractmethod
    def vxm(self, u, A, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        """``w = u' (+.*) A``."""

    @abstractmethod
    def mxm(self, A, B, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        """``C = A (+.*) B``."""

    @abstractmethod
    def ewise_add(self, x, y, op, *, out=None, mask=None, accum=None,
                  structural=False, complement=False, replace=False):
        """Union of structures; ``op`` where both have an entry."""

    @abstractmethod
    def ewise_mult(self, x, y, op, *, out=None, mask=None, accum=None,
                   structural=False, complement=False, replace=False):
        """Intersection of structures, combined by ``op``."""

    @abstractmethod
    def apply(self, x, op, *, right=None, out=None, mask=None, accum=None,
              structural=False, complement=False, replace=False):
        """``op(x)`` entrywise; with ``right=`` a binary op bound to that scalar."""

    @abstractmethod
    def select(self, x, op, thunk=None, *, out=None, mask=None, accum=None,
               structural=False, complement=False, replace=False):
        """The entries of ``x`` that ``op`` (with ``thunk``) keeps."""

    @abstractmethod
    def reduce(self, x, monoid):
        """Reduce every entry of ``x`` to a Python scalar (the monoid's identity if empty)."""

    @abstractmethod
    def reduce_rows(self, A, monoid, *, out=None, mask=None, accum=None,
                    structural=False, complement=False, replace=False):
        """Reduce each row of matrix ``A`` to a vector."""

    @abstractmethod
    def extract(self, u, index, *, out=None, mask=None, accum=None,
                structural=False, complement=False, replace=False):
        """Gather: ``w[i] = u[index[i]]``; ``index`` is a full int vector of this engine or a numpy array."""

    @abstractmethod
    def assign(self, w, u, *, mask=None, accum=None, structural=False, complement=False, replace=False):
        """``w<mask> accum= u`` in place (``u`` a vector/matrix of ``w``'s shape, or a scalar); returns ``w``."""

    @abstractmethod
    def scatter(self, w, index, values, *, dup="min", accum="min"):
        """``w[index[k]] accum= dup-reduction of values[k]`` in place; returns ``w``.

        ``index`` and ``values`` are full vectors of one length (or numpy arrays).
        """

    # ---------------------------------------------------------------- fused steps
    # Steps an engine may run as one kernel; each has a plain default.

    def bfs_push(self, G, q, parent, level, k, max_edges):
        """Run push levels of a BFS while they are small, in one call.

        From frontier ``q`` (the vertices found at level ``k``) repeat
        ``q<!visited, replace> = q any.secondi A``, ``parent<q> = q`` and
        ``level<q> = k + 1`` (``parent`` / ``level`` may be ``None``; the visited
        set is ``parent``'s structure if given, else ``level``'s) as long as the
        frontier is not empty and has at most ``max_edges`` out-edges.  Engines
        may do fewer levels (the default does none: the caller's own loop of
        primitives then does them); the result is the same.

        Returns ``(q, k, nq, found, scanned, found_in)``: the last frontier, its
        level, its size, the number of vertices found, of edges scanned, and the
        found vertices' in-degree sum (what a pull level no longer scans: the
        caller's direction choice keeps count with it).
        """
        return q, k, self.nvals(q), 0, 0, 0

    def bfs_pull(self, G, q, parent, level, k, min_frontier=-1):
        """Pull levels of a BFS from frontier ``q``, in place, until the frontier shrinks below ``min_frontier``.

        One level: ``q<!visited, replace> = A' any.secondi q`` (``any.pair``
        without parents), then ``parent<q> = q`` and ``level<q> = k``; the
        visited set is ``parent``'s structure if given, else ``level``'s.  Levels
        ``k, k + 1, ...`` follow each other until the new frontier is empty, or
        smaller than the one before and at most ``min_frontier`` vertices (where
        Beamer's rule turns back to push; ``-1``: pull to the end).

        Returns ``(q, k, nq, found, found_in)``: the last frontier, its level,
        its size, the number of vertices found and their in-degree sum.
        """
        AT, indeg = self.matrix(G, transpose=True), self.degree(G, transpose=True)
        visited = parent if parent is not None else level
        semiring = "any_secondi" if parent is not None else "any_pair"
        found = found_in = 0
        last = self.nvals(q)
        while True:
            q = self.mxv(AT, self.hint(q, "dense"), semiring, out=q, mask=visited, structural=True, complement=True,
                         replace=True)
            nq = self.nvals(q)
            if parent is not None:
                self.assign(parent, q, mask=q, structural=True)
            if level is not None:
                self.assign(level, k, mask=q, structural=True)
            found += nq
            found_in += self.reduce(self.ewise_mult(q, indeg, "second"), "plus")
            if nq == 0 or (nq < last and nq <= min_frontier):
                return q, k, nq, found, found_in
            last, k = nq, k + 1

    def fastsv_iteration(self, A, f, gp, mngp):
        """One FastSV round (Zhang, Azad & Buluc 2020) in place on full int vectors.

        ``mngp = min(mngp, A min.second gp)`` (the smallest grandparent among the
        neighbours); stochastic hooking ``f[f[i]] = min(f[f[i]], mngp[i])``;
        aggressive hooking ``f = min(f, mngp)``; shortcutting ``f = min(f, gp)``;
        grandparents ``gp = f[f]``.  Returns ``(f, gp, changed)`` where
        ``changed`` tells whether ``gp`` moved.
        """
        self.mxv(A, gp, "min_second", out=mngp, accum="min")
        self.scatter(f, f, mngp, dup="min", accum="min")
        self.ewise_add(f, mngp, "min", out=f)
        self.ewise_add(f, gp, "min", out=f)
        gp_new = self.extract(f, f)
        return f, gp_new, not self.isequal(gp_new, gp)

    # ---- bench ----
    def synchronize(self):
        """Wait until all work queued on the engine's device has finished (benchmark timing).

        A no-op on engines that run synchronously, as the CPU one does.
        """

    # ---- scc ----
    # State of a strongly-connected-components run: ``labels``, an int64 vector
    # with an entry for every vertex already assigned (its SCC's smallest id);
    # the unlabelled vertices and the edges among them are what is left.

    def scc_trim(self, G, labels):
        """Trim, in place: label every unlabelled vertex with no unlabelled in- or out-neighbour by its own id.

        Repeats until no such vertex is left (self-loops do not count as
        neighbours); such a vertex is an SCC of its own.  Returns the number of
        vertices labelled.
        """
        A = self.select(self.matrix(G), "offdiag") if G.self_loops else self.matrix(G)
        ids = self.iota(G.n)
        total = 0
        while True:
            active = self.apply(ids, "one", mask=labels, structural=True, complement=True)
            has_out = self.mxv(A, active, "any_pair", mask=active, structural=True)
            has_both = self.vxm(active, A, "any_pair", mask=has_out, structural=True)
            trimmed = self.apply(active, "one", mask=has_both, structural=True, complement=True)
            k = self.nvals(trimmed)
            if k == 0:
                return total
            self.assign(labels, ids, mask=trimmed, structural=True)
            total += k

    def scc_fwbw(self, G, pivot, labels):
        """Label the SCC of unlabelled vertex ``pivot``, in place; returns its size.

        Forward reachability from ``pivot`` among the unlabelled vertices
        (``q<!seen> = q any.pair A``), then backward reachability
        (``q<!seen> = A any.pair q``) within the forward set; the vertices
        found both ways get their smallest id.
        """
        n = G.n
        A = self.matrix(G)
        ids = self.iota(n)
        q = self.vector_from_coo([pivot], True, n, dtype=bool)
        seen = self.apply(labels, "one")
        self.assign(seen, 1, mask=q, structural=True)
        while self.nvals(q):
            q = self.vxm(q, A, "any_pair", mask=seen, structural=True, complement=True)
            self.assign(seen, 1, mask=q, structural=True)
        forward = self.apply(seen, "one", mask=labels, structural=True, complement=True)
        seen = self.apply(self.full(n, 1, dtype=np.int64), "one", mask=forward, structural=True, complement=True)
        q = self.vector_from_coo([pivot], True, n, dtype=bool)
        scc = self.copy(q)
        self.assign(seen, 1, mask=q, structural=True)
        while self.nvals(q):
            q = self.mxv(A, q, "any_pair", mask=seen, structural=True, complement=True)
            self.assign(seen, 1, mask=q, structural=True)
            self.assign(scc, q, mask=q, structural=True)
        smallest = self.reduce(self.ewise_mult(scc, ids, "second"), "min")
        self.assign(labels, smallest, mask=scc, structural=True)
        return self.nvals(scc)

    def scc_color(self, G, prio, labels):
        """Min-label (coloring) rounds until every vertex is labelled, in place; returns the number labelled.

        ``prio`` is a full int64 vector holding a permutation of ``0..n-1``.
        One round: every unlabelled vertex takes the smallest priority among
        the unlabelled vertices that reach it (``c = min(c, c min.first A)`` to
        a fixed point); a vertex whose color is its own priority is the root of
        its color class, and the vertices of that class that reach it backward
        (``q = A max.second q``, kept where the color matches) form the root's
        SCC.  Each such SCC gets its smallest id.  The unlabelled vertex of least
        priority is always a root, so every round labels at least one SCC.
        """
        total = 0
        while self.nvals(labels) < G.n:
            total += self._scc_color_round(G, prio, labels)
        return total

    def _scc_color_round(self, G, prio, labels):
        """One round of :meth:`scc_color`; returns the number of vertices labelled."""
        n = G.n
        A = self.matrix(G)
        ids = self.iota(n)
        c = self.apply(prio, "identity", mask=labels, structural=True, complement=True)
        while True:
            before = self.copy(c)
            self.vxm(c, A, "min_first", out=c, mask=c, structural=True, accum="min")
            if self.isequal(before, c):
                break
        q = self.apply(c, "identity", mask=self.ewise_mult(c, prio, "eq"))  # the roots, holding their colors
        scc = self.copy(q)
        while self.nvals(q):
            t = self.mxv(A, q, "max_second", mask=scc, structural=True, complement=True)
            q = self.apply(c, "identity", mask=self.ewise_mult(t, c, "eq"))
            self.assign(scc, q, mask=q, structural=True)
        # smallest id of each root's SCC, scattered by color, gathered back
        color = self.full(n, 0, dtype=np.int64)
        self.assign(color, scc, mask=scc, structural=True)
        member = self.full(n, n, dtype=np.int64)
        self.assign(member, ids, mask=scc, structural=True)
        smallest = self.full(n, n, dtype=np.int64)
        self.scatter(smallest, color, member, dup="min", accum="min")
        self.assign(labels, self.extract(smallest, color, mask=scc, structural=True), mask=scc, structural=True)
        return self.nvals(scc)

    # ---- msf ----
    # State of a minimum-spanning-forest run (Boruvka): ``f``, a full int64
    # vector of parents that is a star forest between rounds (``f[v]`` is the
    # root of ``v``'s tree); ``forest``, a full int64 vector holding, for every
    # root that hooked, the key of the edge it hooked by (-1 elsewhere); and
    # the edge set of :meth:`msf_edges`.

    @staticmethod
    def msf_weight_ranks(G):
        """How :meth:`msf_edges` maps ``G``'s weights onto integers in their order.

        Returns ``(table, offset)``: ``table`` None means ``rank = w - offset``
        (integer-valued weights whose span times ``G.nnz`` fits int64: no sort);
        otherwise ``rank = table[p]`` for CSR entry ``p`` (dense ranks of the
        distinct weights).  Unweighted graphs give ``(None, 0)`` (every rank 0).
        Either way ``rank * G.nnz + p`` fits int64.
        """
        w = G.weights
        if w is None or w.size == 0:
            return None, 0
        lo, hi = float(w.min()), float(w.max())
        limit = np.iinfo(np.int64).max // max(G.nnz, 1)
        step = 1 << 20  # the integer test in cache-sized chunks (one temporary of the graph's size costs more)
        if max(-lo, hi) < 2.0**53 and hi - lo < limit and all(
                np.array_equal(c, np.trunc(c)) for c in (w[i:i + step] for i in range(0, w.size, step))):
            return None, int(lo)
        distinct, table = np.unique(w, return_inverse=True)
        if distinct.size > limit:  # pragma: no cover - needs ~3e9 edges
            from ..exceptions import InvalidGraphError

            raise InvalidGraphError(f"{G.nnz} stored edges are too many to key every edge in int64")
        return table.astype(np.int64, copy=False).reshape(-1), 0

    def msf_edges(self, G):
        """The edges of undirected ``G`` for :meth:`msf_round`, each once, with a packed key.

        Every stored entry ``p`` of ``G``'s CSR with row ``i`` < column ``j`` is
        the edge ``{i, j}`` (self-loops are left out), keyed
        ``key = rank(w[p]) * G.nnz + p`` with ``rank`` from :meth:`msf_weight_ranks`
        (0 when unweighted).  Keys are distinct and order the edges by weight,
        then by ``(i, j)``: a strict total order, so the minimum spanning forest
        is unique and no round can close a cycle of equal weights.
        ``p = key % G.nnz`` recovers the entry.

        Returns an engine-native edge set that only :meth:`msf_round` reads
        (here ``(eu, ev, key)``, full int64 vectors).
        """
        rows, cols = G.edges()
        p = np.flatnonzero(rows < cols)
        table, offset = self.msf_weight_ranks(G)
        if table is not None:
            rank = table[p]
        elif G.weights is not None:
            rank = G.weights[p].astype(np.int64) - offset
        else:
            rank = np.zeros(p.size, np.int64)
        key = rank * np.int64(G.nnz) + p
        return (self.vector_from_numpy(rows[p].astype(np.int64)), self.vector_from_numpy(cols[p].astype(np.int64)),
                self.vector_from_numpy(key))

    def msf_round(self, f, edges, forest):
        """One Boruvka round, in place on ``f`` and ``forest``; returns ``(edges, hooked)``.

        With ``a = f[eu]``, ``b = f[ev]`` the trees at the two ends of every edge:

        * edges with ``a == b`` lie inside a tree and are dropped (an engine
          may remove them from the returned edge set, the default keys them out);
        * ``c[a] min= key``, ``c[b] min= key``: per tree root the cheapest edge
          leaving it (a min-monoid scatter, i.e. ``c = B min.second key`` for
          the root-by-edge incidence matrix ``B``), and ``p[r]`` the tree at
          that edge's other end;
        * every root with an edge hooks ``f[r] = p[r]`` and records
          ``forest[r] = c[r]``, except where ``c[p[r]] == c[r]`` (both trees
          chose the same edge: the only cycle distinct keys allow) and
          ``r < p[r]``: the smaller root stays a root;
        * shortcut ``f = f[f]`` until ``f`` is a star forest again.

        ``hooked`` is the number of roots that hooked; 0 means no edge joins two trees.
        An engine may hold heavier edges back while lighter ones still join
        trees (Kruskal's filter: every round then runs on a prefix of the key
        order); the forest is the same, rounds may hook differently.
        """
        inf = np.iinfo(np.int64).max
        eu, ev, key = edges
        n = self.size(f)
        m = self.size(key)
        a = self.extract(f, eu)
        b = self.extract(f, ev)
        k = self.full(m, inf, dtype=np.int64)
        self.assign(k, key, mask=self.ewise_mult(a, b, "ne"))
        c = self.full(n, inf, dtype=np.int64)
        self.scatter(c, a, k, dup="min", accum="min")
        self.scatter(c, b, k, dup="min", accum="min")
        p = self.full(n, inf, dtype=np.int64)
        for x, y in ((a, b), (b, a)):  # the other end of each root's cheapest edge
            other = self.full(m, inf, dtype=np.int64)
            self.assign(other, y, mask=self.ewise_mult(k, self.extract(c, x), "eq"))
            self.scatter(p, x, other, dup="min", accum="min")
        ids = self.iota(n)
        has = self.apply(c, "lt", right=inf)
        self.assign(p, ids, mask=has, complement=True)
        stay = self.ewise_mult(self.ewise_mult(self.extract(c, p), c, "eq"), self.ewise_mult(ids, p, "lt"), "land")
        hook = self.select(self.ewise_mult(has, self.apply(stay, "lnot"), "land"), "valueeq", True)
        self.assign(f, p, mask=hook, structural=True)
        self.assign(forest, c, mask=hook, structural=True)
        while True:
            g = self.extract(f, f)
            if self.isequal(g, f):
                break
            self.assign(f, g)
        return edges, self.nvals(hook)


    # ---- sssp ----
    def sssp_delta_stepping(self, G, d, parent, bucket, delta):
        """Settle delta-stepping bucket ``bucket``; returns ``(d, parent, next_bucket)``.

        ``G`` has non-negative weights; ``d`` is a full float64 vector of tentative
        distances (``inf``: not reached), ``parent`` a full int64 vector (``-1``:
        none) or ``None``.  Bucket ``b`` holds the vertices with ``b*delta <= d[v]
        < (b+1)*delta``; those of buckets before ``bucket`` are settled.  Relax the
        light edges (``w <= delta``) from the bucket's vertices whose distance
        changed until the bucket stops changing, then the heavy edges of every
        vertex it held.  ``next_bucket`` is the smallest non-empty bucket left,
        ``None`` when there is none.  Engines may settle more buckets per call
        (the CPU engine settles all); the distances are the same.
        """
        AL, AH = self._sssp_split(G, delta)
        lo, hi = bucket * delta, (bucket + 1) * delta
        q = self.select(self.select(d, "valuege", lo), "valuelt", hi)
        held = None
        while self.nvals(q):
            held = q if held is None else self.ewise_add(held, q, "first")
            q = self.select(self.sssp_relax(AL, q, d, parent), "valuelt", hi)
        if held is not None and self.nvals(AH):
            self.sssp_relax(AH, self.ewise_mult(d, held, "first"), d, parent)
        m = self.reduce(self.select(d, "valuege", hi), "min")
        if not m < float("inf"):
            return d, parent, None
        nxt = max(int(m // delta), bucket + 1)  # the bucket holding m, with the bounds computed as above
        while nxt * delta > m:
            nxt -= 1
        while (nxt + 1) * delta <= m:
            nxt += 1
        return d, parent, max(nxt, bucket + 1)

    def sssp_bellman_ford(self, G, d, parent, q, max_rounds):
        """Bellman-Ford rounds from frontier ``q``; returns ``(d, parent, q, rounds)``.

        ``d`` a full float64 vector (``inf``: not reached), ``parent`` a full int64
        vector or ``None``, ``q`` a sparse float64 vector: the vertices whose
        distance just dropped, holding it.  A round relaxes every out-edge of ``q``
        (see :meth:`sssp_relax`); the improved vertices are the next ``q``.  Stops
        when ``q`` is empty or after ``max_rounds`` rounds.  Engines may relax with
        distances that dropped within the round (the fixpoint is the same, and a
        vertex still improving after ``n`` rounds still means a negative cycle).
        With parents, they may also stop as soon as the parents form a cycle (a
        parent changes only on a strict drop, so the cycle is negative); ``q`` is
        then one vertex on it.  By default the parents are searched after rounds
        1, 2, 4, 8, ... (:meth:`_sssp_parent_cycle`).
        """
        A = self.matrix(G)
        roots = None
        if parent is not None:  # the sources: their own parents (a source whose distance dropped is not a root)
            roots = self.select(self.ewise_mult(parent, self.iota(G.n), "eq"), "valueeq", True)
        for rounds in range(max_rounds):
            if self.nvals(q) == 0:
                return d, parent, q, rounds
            q = self.sssp_relax(A, q, d, parent)
            if roots is not None and self.nvals(q) and (rounds + 1) & rounds == 0:
                c = self._sssp_parent_cycle(parent, d, roots)
                if c >= 0:
                    return d, parent, self.vector_from_coo([c], [0.0], G.n, dtype=np.float64), rounds + 1
        return d, parent, q, max_rounds

    def _sssp_parent_cycle(self, parent, d, roots):
        """A vertex on a cycle of the parent pointers, or -1 (pointer jumping: ``log2 n`` gathers).

        ``P`` (a full int64 vector, -1: none) with -1 read as "points to itself";
        after ``ceil(log2 n) + 1`` squarings ``P^(2^k)[v]`` is where ``v``'s chain
        ends: a vertex on a cycle of 2 or more, or a vertex pointing to itself.  A
        vertex pointing to itself is a cycle unless it is a root (a source) whose
        distance has not dropped below 0.
        """
        n = self.size(parent)
        me = self.iota(n)
        P = self.copy(parent)
        self.assign(P, me, mask=self.select(parent, "valuelt", 0))
        Pk = self.copy(P)
        for _ in range(max(n - 1, 1).bit_length() + 1):
            Pk = self.extract(Pk, Pk)
        ends = self.ewise_mult(self.extract(P, Pk), Pk, "ne")       # ends[v]: v's chain ends on a longer cycle
        on_cycle = self.apply(Pk, "identity", mask=ends)
        if self.nvals(on_cycle):
            return int(self.reduce(on_cycle, "min"))
        selfp = self.select(self.ewise_mult(parent, me, "eq"), "valueeq", True)  # v -> v
        fake = self.ewise_mult(roots, self.select(d, "valuege", 0), "first")   # roots still at >= 0
        loops = self.apply(selfp, "identity", mask=fake, structural=True, complement=True)
        if self.nvals(loops):
            return int(self.reduce(self.apply(me, "identity", mask=loops, structural=True), "min"))
        return -1

    def sssp_batch(self, G, sources, delta, max_rounds, parent):
        """Shortest paths from each of ``sources`` (a numpy int64 array), one row each.

        Returns ``(D, P, active)``: ``D`` a k x n float64 matrix (missing or ``inf``:
        unreachable), ``P`` a k x n int64 matrix of parents (missing or -1: none;
        ``None`` without ``parent``) and ``active`` a numpy bool per row: still
        improving after ``max_rounds`` Bellman-Ford rounds (a negative cycle).
        ``delta`` is ``None`` with negative weights, else a bucket width engines may
        use for delta-stepping.  By default: Bellman-Ford rounds ``Q = Q min.plus A``
        on a frontier matrix (one row per source).
        """
        k, n = sources.size, G.n
        rows = np.arange(k, dtype=np.int64)
        A = self.matrix(G)
        D = self.matrix_from_coo(rows, sources, np.zeros(k), k, n, dtype=np.float64)
        P = self.matrix_from_coo(rows, sources, sources.copy(), k, n, dtype=np.int64) if parent else None
        Q = self.copy(D)
        for _ in range(max_rounds):
            Q = self.sssp_relax(A, Q, D, P)
            if self.nvals(Q) == 0:
                return D, P, np.zeros(k, bool)
        active = np.zeros(k, bool)
        active[self.to_coo(Q)[0]] = True
        return D, P, active

    def _sssp_split(self, G, delta):
        """Light (``w <= delta``) and heavy edges of ``G``; the last split is kept on ``G``."""
        key = (self.name, "sssp_split")
        hit = G._engine_cache.get(key)
        if hit is None or hit[0] != delta:
            A = self.matrix(G)
            hit = G._engine_cache[key] = (delta, self.select(A, "valuele", delta), self.select(A, "valuegt", delta))
        return hit[1], hit[2]

    def sssp_relax(self, A, q, d, parent):
        """One relaxation of frontier ``q`` over the edges of matrix ``A``; returns the next frontier.

        ``t = q min.plus A``; keep ``t`` where ``d`` has no entry or ``t < d``;
        ``d<t> = t``; ``parent<t> = argmin``, the smallest frontier vertex ``u``
        with ``q[u] + A[u, v] == t[v]`` (``parent`` may be ``None``).  ``q`` holds
        the distances its vertices had when they entered the frontier.  ``q``,
        ``d``, ``parent`` are vectors, or k x n matrices (one row per source, then
        ``mxm``).  ``d`` and ``parent`` are updated in place; the kept ``t`` is
        returned.  The other sssp steps' plain versions are loops of this one.
        """
        vec = isinstance(self.size(q), int)
        t = (self.vxm if vec else self.mxm)(q, A, "min_plus")
        better = self.ewise_mult(t, d, "lt")
        t = self.ewise_add(self.apply(t, "identity", mask=better),
                           self.apply(t, "identity", mask=d, structural=True, complement=True), "first")
        if parent is not None and self.nvals(t):
            P = self._sssp_argmin(A, q, t, vec)
            self.assign(parent, P, mask=P, structural=True)
        self.assign(d, t, mask=t, structural=True)
        return t

    def _sssp_argmin(self, A, q, t, vec):
        """For each entry ``(i, v)`` of ``t``: the smallest ``u`` with ``q[i, u] + A[u, v] == t[i, v]``.

        With one row ``r`` per frontier entry ``(i_r, u_r)``: ``X[r, v] = q_r + A[u_r, v]``,
        ``Y[r, v] = t[i_r, v]``; the tight ``(r, v)`` have ``X == Y``, and
        ``P[i, v] = min u_r`` over the tight ``r`` of row ``i`` (a ``min.first`` product).
        """
        n = self.size(A)[1]
        if vec:
            qu, qv = self.to_coo(q)
            qi = np.zeros(qu.size, np.int64)
            tv_i, tv_v = self.to_coo(t)
            k, T = 1, self.matrix_from_coo(np.zeros(tv_i.size, np.int64), tv_i, tv_v, 1, n, dtype=np.float64)
        else:
            qi, qu, qv = self.to_coo(q)
            k, T = self.size(q)[0], t
        m = qu.size
        r = np.arange(m, dtype=np.int64)
        X = self.mxm(self.matrix_from_coo(r, qu, qv, m, n, dtype=np.float64), A, "min_plus")
        Y = self.mxm(self.matrix_from_coo(r, qi, np.ones(m, bool), m, k, dtype=bool), T, "any_second")
        tight = self.select(self.ewise_mult(X, Y, "eq"), "valueeq", True)
        P = self.mxm(self.matrix_from_coo(qi, r, np.asarray(qu, np.int64), k, m, dtype=np.int64), tight,
                     "min_first")
        if not vec:
            return P
        _, cols, vals = self.to_coo(P)
        return self.vector_from_coo(cols, vals, n, dtype=np.int64)

    # ---- apsp ----
    #: whether this engine's vectors and matrices live in host memory (the APSP memory
    #: check then counts an engine's n x n matrix against host RAM, beside its numpy copy)
    objects_on_host = True

    def floyd_warshall(self, G):
        """All-pairs shortest path lengths of ``G`` by Floyd-Warshall in the min-plus semiring.

        ``D`` starts as ``G``'s adjacency matrix (weights; 1 per edge when
        unweighted) with ``min(0, self-loop)`` on the diagonal and ``inf`` where
        there is no edge; then for each pivot ``k = 0 .. n-1``
        ``D = min(D, D[:, k] min.+ D[k, :])``, the rank-1 min-plus product of
        column and row ``k`` (here ``D min.+ R_k`` accumulated with ``min``,
        ``R_k`` holding row ``k`` of ``D`` only).  Engines may run the pivots in
        tiles (blocked Floyd-Warshall); the distances are the same.

        Returns ``(D, v)``: ``D`` a full ``n x n`` float64 matrix of this engine;
        ``v = -1``, or a vertex with ``D[v, v] < 0`` (a negative cycle: a closed
        walk through ``v`` of negative weight), and then ``D`` is left part way.
        An engine checks the memory it needs first (OutOfDeviceMemory on a device).
        """
        n = G.n
        I0 = self.matrix_from_coo(np.arange(n), np.arange(n), 0.0, n, n, dtype=np.float64)
        D = self.ewise_add(I0, self.matrix(G), "min")
        self.assign(D, np.inf, mask=D, structural=True, complement=True)
        for k in range(n):
            R = self.select(self.select(D, "rowle", k), "rowgt", k - 1)
            self.mxm(D, R, "min_plus", out=D, accum="min")
            if self.reduce(self.select(R, "diag"), "min") < 0:
                return D, k
        return D, -1

    # ---- reachability ----
    def reach_sweep(self, G, sources):
        """What each of ``sources`` (int64 ids) reaches in ``G``: a numpy bool array ``len(sources) x n``.

        ``Q = R = I(sources, :)``, then ``Q<!R, replace> = Q any.pair A`` and
        ``R<Q> = true`` until ``Q`` is empty
        (:func:`la_graph.algorithms.reachability.sweep`).
        """
        from ..algorithms.reachability import sweep

        rows = np.arange(sources.size, dtype=np.int64)
        Q = self.matrix_from_coo(rows, sources, True, sources.size, G.n, dtype=bool)
        R = self.copy(Q)
        sweep(self, self.matrix(G), Q, R)
        return np.asarray(self.to_numpy(R, fill=False), dtype=bool)
