"""The dask engine's operator interface, carried out block by block (see the package docstring).

:class:`BlockEngine` splits every primitive into tasks on the blocks and segments of the
:class:`~.objects.Placement`; its subclasses carry the tasks out: the client's
:class:`~la_graph.engines.dask.DaskEngine` (:mod:`.engine`) through the Dask scheduler, each worker's
:class:`~.spmd.SpmdEngine` of an SPMD run on the spot.  :data:`LATENCY_BOUND` names the steps whose
rounds each wait for the whole cluster (:class:`~la_graph.exceptions.LatencyWarning`).
"""

from __future__ import annotations

import warnings
from abc import abstractmethod
from collections.abc import Mapping

import distributed
import numpy as np

from ..._validation import check_int
from ...exceptions import InvalidArgumentError, LatencyWarning
from ..base import BINARY_OPS, MONOIDS, SELECT_OPS, SEMIRINGS, UNARY_OPS, Engine, monoid_type
from ..base import check_name as _check_name
from ..base import check_coords, check_output_args
from ..base import check_range as _check_range
from . import exchange as _exchange
from . import tasks
from .layout import Layout
from .objects import OTHER_PLACEMENT, DMatrix, DVector, _check_obj, _DObject

__all__ = ["BlockEngine", "LATENCY_BOUND", "check_local"]

_POSITIONAL = ("firsti", "firstj", "secondi", "secondj")
_MONOID_UFUNC = {"min": np.fmin, "max": np.fmax, "plus": np.add, "times": np.multiply,
                 "lor": np.logical_or, "land": np.logical_and}
_INDEX_SELECT = ("rowle", "rowgt", "tril", "triu", "diag", "offdiag")


def _semiring_parts(semiring):
    if not isinstance(semiring, str) or "_" not in semiring:
        raise InvalidArgumentError(f"semiring must be a name like 'min_second', got {semiring!r}")
    add, mult = semiring.split("_", 1)
    if add not in MONOIDS or mult not in BINARY_OPS + _POSITIONAL:
        raise InvalidArgumentError(f"unknown semiring {semiring!r}; known: {', '.join(SEMIRINGS)}")
    return add, mult


def check_local(local):
    """Return ``local`` if it names a worker engine: ``"cpu"``, ``"gpu"`` or ``"reference"``."""
    if local not in ("cpu", "gpu", "reference"):
        raise InvalidArgumentError(f"local must be 'cpu', 'gpu' or 'reference', got {local!r}")
    return local


#: step -> (its algorithm, what its rounds are): the steps whose rounds grow with the graph's depth, each
#: round a few waits for the whole cluster (a round trip through the scheduler, milliseconds): SSSP took
#: ~550x the cpu engine's time on Wiki-Vote, core_number 59 s on a 2,000-vertex path
LATENCY_BOUND = {
    **dict.fromkeys(("bfs_push", "bfs_pull", "bfs_search", "bfs_multi"), ("bfs", "one per BFS level")),
    **dict.fromkeys(("sssp_delta_stepping", "sssp_bellman_ford", "sssp_batch", "sssp_relax"),
                    ("sssp", "one per distance bucket or relaxation")),
    "reach_sweep": ("reachability", "one per BFS level"),
    "brandes_sources": ("betweenness_centrality", "two per BFS level of each batch of sources"),
    "brandes_weighted_sources": ("betweenness_centrality", "two per distance level of each batch of sources"),
    "brandes_edge_sources": ("edge_betweenness_centrality", "two per BFS or distance level of each batch"),
    **dict.fromkeys(("scc_trim", "scc_fwbw", "scc_color"), ("strongly_connected_components",
                                                            "one per search step and coloring round")),
    "core_peel": ("core_number", "one per vertex-removal round"),
    "floyd_warshall": ("apsp", "one per pivot vertex"),
    # k_truss and trussness both start with edge_support; their peeling rounds come after it
    **dict.fromkeys(("edge_support", "truss_peel", "truss_levels"), ("k-truss", "one per edge-peeling round")),
    "color_classes": ("coloring", "one per independent-set round of each colour"),
    "louvain_move": ("louvain", "several per local-moving round of each level"),
    "leiden_refine": ("leiden", "several per refinement round of each level"),
}


class _LatencyNotes(Mapping):
    """The dask engine's ``fused_steps``: empty, but looking up a step of :data:`LATENCY_BOUND` warns once per
    algorithm and process, in the client (not on the workers, whose SPMD runs take no round trips)."""

    def __init__(self):
        self.noted = set()

    def __getitem__(self, name):
        raise KeyError(name)

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0

    def get(self, name, default=None):
        algo = LATENCY_BOUND.get(name)
        if algo is not None and algo[0] not in self.noted:
            self.noted.add(algo[0])
            if not _on_worker():
                warnings.warn(f"{algo[0]} is latency-bound on the dask engine: its rounds ({algo[1]}) each wait "
                              f"for the cluster, milliseconds apiece, whatever the graph's size; for a graph that "
                              f"fits in one machine's memory the cpu engine (or the gpu engine) is faster, often "
                              f"by orders of magnitude", LatencyWarning, stacklevel=4)
        return default


def _on_worker():
    """Whether this thread runs a Dask worker's task (an SPMD run's algorithm)."""
    try:
        distributed.get_worker()
    except ValueError:
        return False
    return True


_LATENCY_NOTES = _LatencyNotes()


class BlockEngine(Engine):
    """The operator interface of the dask engine, block by block (see the package docstring): every primitive
    is split into tasks, each handed to :meth:`_submit` with the worker that holds its data.

    How a task is carried out, and how a value is waited for, is the subclasses' part:
    :class:`~la_graph.engines.dask.DaskEngine` submits each task to the Dask cluster from the client,
    :class:`~la_graph.engines.dask.spmd.SpmdEngine` runs it on the spot on the worker of an SPMD run.

    Parameters
    ----------
    grid : int, optional
        Blocks per matrix side ``s``; default: chosen by the subclass's placement.
    local : {"cpu", "gpu", "reference"}
        The engine each worker computes with.
    seed : int
        Seed of the row and column permutation.
    """

    name = "dask"
    narrow_ids = False

    @property
    def fused_steps(self):
        """None: every step runs as its algebra.  A latency-bound step looked up warns (:class:`LatencyWarning`,
        once per algorithm and process; see :data:`LATENCY_BOUND`)."""
        return _LATENCY_NOTES

    def __init__(self, *, grid=None, local="cpu", seed=0):
        check_local(local)
        grid = None if grid is None else check_int(grid, "grid", low=1)
        self.local, self._grid, self._seed = local, grid, check_int(seed, "seed")
        self._placement = None
        self._layouts = {}
        self._exchange, self._collective = None, {}
        self.objects_on_host = local != "gpu"

    # ---------------------------------------------------------------- carrying tasks out (the subclasses')
    @property
    def placement(self):
        """The current :class:`~la_graph.engines.dask.objects.Placement`."""
        return self._placement

    @property
    @abstractmethod
    def cache_key(self):
        """The key of this engine's objects in a graph's cache."""

    @abstractmethod
    def _submit(self, worker, fn, *args, **kwargs):
        """Carry out ``fn(local, *args, **kwargs)`` where ``worker`` is; a handle of its value."""

    @abstractmethod
    def _gather(self, futures):
        """The values of ``futures``, here."""

    @abstractmethod
    def _put(self, data, worker):
        """``data`` (a list of arrays) for a task of ``worker``: sent ahead, or as it is."""

    @abstractmethod
    def _check_memory(self, n, nnz, itemsize):
        """Refuse a graph whose blocks do not fit the workers."""

    @property
    def _collective_products(self):
        """Whether ``mxv`` and ``vxm`` run as collective tasks.  Not over "tcp" from the client: a share waits
        for its peers holding its worker's thread, and a CPU worker (one thread) may have a task queued behind
        it that a peer's share waits for (test_dask_loading's triangles hung so); an SPMD run has no queue."""
        return self._exchange[0] not in ("dask", "tcp")

    @property
    def exchange(self):
        """How products exchange between workers: ``"dask"``, ``"nccl"``, ``"tcp"`` or ``"local"`` (see
        :class:`~la_graph.engines.dask.DaskEngine`'s parameter)."""
        self.placement
        return self._exchange[0]

    @property
    def grid(self):
        """Blocks per matrix side."""
        return self.placement.s

    def layout(self, size):
        """The :class:`Layout` of a dimension of ``size`` indices."""
        L = self._layouts.get(size)
        if L is None:
            L = self._layouts[size] = Layout(size, self.placement.s, self._seed)
        return L

    def _same(self, *objs):
        p = self.placement
        for x in objs:
            if isinstance(x, _DObject) and x.placement is not p:
                raise InvalidArgumentError(OTHER_PLACEMENT)
        return p

    def _check(self, x, ndim, what, shape=None):
        if not isinstance(x, (DVector, DMatrix)[ndim - 1]):
            raise InvalidArgumentError(f"{what} must be a {('vector', 'matrix')[ndim - 1]} of the dask engine, "
                                       f"got {type(x).__name__}")
        if shape is not None and x.shape != tuple(shape):
            raise InvalidArgumentError(f"{what} has shape {x.shape}, expected {tuple(shape)}")
        return x

    # ---------------------------------------------------------------- graphs
    def matrix(self, G, *, transpose=False):
        p = self.placement
        key = (self.cache_key, "AT" if transpose else "A")
        M = G._engine_cache.get(key)
        if M is None:
            H = G.T if transpose else G
            rows = np.repeat(np.arange(H.n, dtype=np.int64), np.diff(H.indptr))
            values = True if H.weights is None else np.asarray(H.weights, np.float64)
            dtype = bool if H.weights is None else np.float64
            self._check_memory(H.n, H.nnz, 1 if H.weights is None else 8)
            M = G._engine_cache[key] = self.matrix_from_coo(rows, H.indices, values, H.n, H.n, dtype=dtype)
        return M

    def degree(self, G, *, transpose=False):
        key = (self.cache_key, "din" if transpose else "dout")
        d = G._engine_cache.get(key)
        if d is None:
            d = G._engine_cache[key] = self.vector_from_numpy(
                (G.in_degree if transpose else G.out_degree).astype(np.int64))
        return d

    # ---------------------------------------------------------------- building
    def _segments(self, size, fn, args):
        p, L = self.placement, self.layout(size)
        lengths = L.lengths()
        return DVector((size,), [self._submit(p.segment(k), fn, *args(k, int(lengths[k])))
                                 for k in range(p.s)], p)

    def vector(self, size, dtype):
        return self._segments(size, tasks.empty, lambda k, m: (((m,), np.dtype(dtype))))

    def full(self, size, value, dtype=None):
        dtype = np.dtype(dtype) if dtype is not None else np.asarray(value).dtype
        return self._segments(size, tasks.full, lambda k, m: (m, value, dtype))

    def iota(self, size):
        L = self.layout(size)
        return self._segments(size, tasks.iota, lambda k, m: (L, k))

    def vector_from_numpy(self, values):
        values = np.array(values)
        if values.ndim != 1:
            raise InvalidArgumentError(f"vector_from_numpy needs a 1-d array, got shape {values.shape}")
        L, p = self.layout(values.size), self.placement
        return DVector(values.shape, [self._submit(p.segment(k), tasks.from_numpy,
                                                   self._put([values[L.ids(k)]], p.segment(k))[0])
                                      for k in range(p.s)], p)

    def _coo_values(self, values, count, dup, dtype):
        """``(values, scalar, dtype)`` of a ``*_from_coo`` call, checked."""
        if dup is not None:
            _check_name(dup, BINARY_OPS, "binary op")
        scalar = np.ndim(values) == 0
        if not scalar:
            values = np.asarray(values)
            if values.shape != (count,):
                raise InvalidArgumentError(f"indices and values lengths differ: {count} != {values.size}")
        return values, scalar, np.dtype(dtype if dtype is not None else np.asarray(values).dtype)

    def vector_from_coo(self, indices, values, size, *, dup=None, dtype=None):
        indices = np.asarray(indices, np.int64).ravel()
        _check_range(indices, size, "index")
        values, scalar, dtype = self._coo_values(values, indices.size, dup, dtype)
        L, p = self.layout(size), self.placement
        seg, local = L.locate(indices)
        pieces = tasks.split(seg, p.s, local, *(() if scalar else (values,)))
        lengths = L.lengths()
        parts = []
        for k in range(p.s):
            w = p.segment(k)
            data = self._put(list(pieces[k]), w)
            parts.append(self._submit(w, tasks.from_coo, (int(lengths[k]),), data[:1],
                                      values if scalar else data[1], dup, np.dtype(dtype)))
        return DVector((size,), parts, p)

    def matrix_from_coo(self, rows, cols, values, nrows, ncols, *, dup=None, dtype=None):
        rows, cols = check_coords(rows, cols, nrows, ncols)
        values, scalar, dtype = self._coo_values(values, rows.size, dup, dtype)
        p = self.placement
        Lr, Lc = self.layout(nrows), self.layout(ncols)
        si, li = Lr.locate(rows)
        sj, lj = Lc.locate(cols)
        pieces = tasks.split(si * p.s + sj, p.s * p.s, li, lj, *(() if scalar else (values,)))
        nr, nc = Lr.lengths(), Lc.lengths()
        parts = []
        for i in range(p.s):
            row = []
            for j in range(p.s):
                w, piece = p.block(i, j), pieces[i * p.s + j]
                data = self._put(list(piece), w)
                row.append(self._submit(w, tasks.from_coo, (int(nr[i]), int(nc[j])), data[:2],
                                        values if scalar else data[2], dup, np.dtype(dtype)))
            parts.append(row)
        return DMatrix((nrows, ncols), parts, p)

    def _coo(self, x, device=False):
        """``(coordinates..., values)`` of ``x`` as numpy (``device``: CuPy arrays from GPU workers), in the
        global indexing, unsorted."""
        p = self._same(x)
        if isinstance(x, DVector):
            L = self.layout(x.shape[0])
            dims = [((L, k),) for k in range(p.s)]
        else:
            Lr, Lc = self.layout(x.shape[0]), self.layout(x.shape[1])
            dims = [((Lr, i), (Lc, j)) for i in range(p.s) for j in range(p.s)]
        # each part's indices made global where it lives (the layout's inverse permutation)
        got = self._gather([self._submit(w, tasks.to_coo, f, *d, device=device)
                            for w, f, d in zip(self._where(x), self._flat(x), dims)])
        xp = tasks._xp(got[0][-1])
        return tuple(xp.concatenate(c) for c in zip(*got))

    #: whether ``to_numpy`` gathers GPU workers' parts as device arrays and assembles them on the device
    #: (an SPMD rank's: the parts travel device to device; the client's engine gathers numpy)
    _device_parts = False

    def to_numpy(self, x, fill=None, *, consume=False):
        coo = self._coo(_check_obj(x), self._device_parts)
        xp = tasks._xp(coo[-1])
        total = int(np.prod(x.shape))
        if fill is None and coo[-1].size != total:
            raise InvalidArgumentError("to_numpy needs fill= for an object with missing entries")
        values = coo[-1]
        out = xp.empty(total, values.dtype) if fill is None else xp.full(total, fill, values.dtype)
        key = coo[0] if len(coo) == 2 else coo[0] * x.shape[1] + coo[1]
        out[key] = values
        return (out if xp is np else out.get()).reshape(x.shape)

    def to_coo(self, x):
        coo = self._coo(_check_obj(x))
        if len(coo) == 2:
            order = np.argsort(coo[0])
        elif x.shape[0] * x.shape[1] < 2 ** 63:            # by row, then column: one key sorts faster than two
            order = np.argsort(coo[0] * x.shape[1] + coo[1])
        else:
            order = np.lexsort((coo[1], coo[0]))
        return tuple(c[order] for c in coo)

    def copy(self, x):
        _check_obj(x)                                     # tasks never change their inputs: share the parts
        parts = list(x.parts) if isinstance(x, DVector) else [list(r) for r in x.parts]
        return type(x)(x.shape, parts, x.placement)

    def _flat(self, x):
        return x.parts if isinstance(x, DVector) else [f for row in x.parts for f in row]

    def _where(self, x):
        """The worker holding each part of ``x``, in the order of :meth:`_flat`."""
        p = x.placement
        if isinstance(x, DVector):
            return [p.segment(k) for k in range(p.s)]
        return [p.block(i, j) for i in range(p.s) for j in range(p.s)]

    def _per_part(self, fn, x, *args, y=None):
        """The futures of ``fn(part of x, [part of y,] *args)``, one per part of ``x``, each run where the part
        lives (``y``: an object laid out as ``x``)."""
        ys = None if y is None else self._flat(y)
        return [self._submit(w, fn, f, *(() if ys is None else (ys[b],)), *args)
                for b, (w, f) in enumerate(zip(self._where(x), self._flat(x)))]

    def nvals(self, x):
        _check_obj(x)
        return int(sum(self._gather(self._per_part(tasks.nvals, x))))

    def size(self, x):
        _check_obj(x)
        return x.shape[0] if isinstance(x, DVector) else x.shape

    def isequal(self, x, y):
        if type(_check_obj(x)) is not type(_check_obj(y)) or x.shape != y.shape:
            return False
        self._same(x, y)
        return all(self._gather(self._per_part(tasks.isequal, x, y=y)))

    # ---------------------------------------------------------------- operations
    def _outargs(self, shape, ndim, out, mask, accum, complement):
        check_output_args(out, mask, accum, complement)
        if out is not None:
            self._check(out, ndim, "out", shape)
        if mask is not None:
            self._check(mask, ndim, "mask", shape)

    def _rebind(self, out, result):
        if out is None:
            return result
        out.parts = result.parts
        return out

    def _product(self, kind, A, B, semiring, out, mask, accum, structural, complement, replace):
        """``mxv`` (``B`` a vector), ``vxm`` (``A`` a vector) or ``mxm``."""
        add, mult = _semiring_parts(semiring)
        p = self._same(A, B, out, mask)
        s = p.s
        rows = cols = None
        if kind == "vxm":
            inner, cols = B.shape
        else:
            rows, inner = A.shape
            cols = B.shape[1] if kind == "mxm" else None
        if (A.shape[0] if kind == "vxm" else inner) != B.shape[0]:
            raise InvalidArgumentError(f"inner dimensions differ: {A.shape} times {B.shape}")
        shape = {"mxv": (rows,), "vxm": (cols,), "mxm": (rows, cols)}[kind]
        self._outargs(shape, len(shape), out, mask, accum, complement)
        dims = {"row": rows, "inner": inner, "col": cols}
        report = {"firsti": "row" if kind != "vxm" else None, "secondj": "col" if kind != "mxv" else None,
                  "firstj": "inner", "secondi": "inner"}.get(mult)

        def remap(i, k, j):
            if report is None:
                return None
            return self.layout(dims[report]), {"row": i, "inner": k, "col": j}[report]

        mparts = None if mask is None else mask.parts
        flags = (structural, complement)
        if kind == "mxm":
            parts = []
            for i in range(s):
                row = []
                for j in range(s):
                    row.append(self._submit(
                        p.block(i, j), tasks.products, [A.parts[i][k] for k in range(s)],
                        [B.parts[k][j] for k in range(s)], semiring, [remap(i, k, j) for k in range(s)], add,
                        None if out is None else out.parts[i][j], None if mask is None else mparts[i][j],
                        accum, structural, complement, replace))
                parts.append(row)
            return self._rebind(out, DMatrix(shape, parts, p))
        if self._collective_products and len(p.workers) > 1:
            return self._rebind(out, self._collective_product(kind, A, B, semiring, add, remap, out, mask, accum,
                                                              structural, complement, replace, shape))
        segs = []
        for o in range(s):                                  # the output segment
            partials, here = [], []                         # blocks elsewhere; blocks where segment o lives
            for k in range(s):                              # the inner segment
                i, j = (o, k) if kind == "mxv" else (k, o)
                a, b = (A.parts[i][j], B.parts[k]) if kind == "mxv" else (A.parts[k], B.parts[i][j])
                if p.block(i, j) == p.segment(o):           # multiplied inside the combining task: one task less
                    here.append((kind, a, b, semiring, remap(i, k, j)))
                    continue
                partials.append(self._submit(p.block(i, j), tasks.product, kind, a, b, semiring,
                                             remap(i, k, j), None if mask is None else mparts[o], *flags))
            segs.append(self._submit(p.segment(o), tasks.combine, add, None if out is None else out.parts[o],
                                     None if mask is None else mparts[o], accum, structural, complement,
                                     replace, *partials, local=here))
        return self._rebind(out, DVector(shape, segs, p))

    def _collective_product(self, kind, A, B, semiring, add, remap, out, mask, accum, structural, complement,
                            replace, shape):
        """``mxv`` / ``vxm`` as one collective task per worker (:mod:`.exchange`)."""
        p = self.placement
        s, workers = p.s, p.workers
        M, u = (A, B) if kind == "mxv" else (B, A)
        token = self._exchange[1]
        results = {}
        for rank, w in enumerate(workers):
            blocks = {(i, j): M.parts[i][j] for i in range(s) for j in range(s) if p.block(i, j) == w}
            owned = [k for k in range(s) if p.segment(k) == w]
            remaps = {(i, j): remap(i, j if kind == "mxv" else i, j) for (i, j) in blocks}   # inner: j or i
            results[w] = self._submit(
                w, _exchange.collective_product, token, self._collective.get(w), kind, workers, s, rank, semiring,
                add, blocks, {k: u.parts[k] for k in owned}, mask is not None,
                {} if mask is None else {k: mask.parts[k] for k in owned},
                {} if out is None else {k: out.parts[k] for k in owned}, remaps, accum, structural, complement,
                replace)
        self._collective = results
        segs = [self._submit(p.segment(o), tasks.pick, results[p.segment(o)], o) for o in range(s)]
        return DVector(shape, segs, p)

    def mxv(self, A, u, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        self._check(A, 2, "A"), self._check(u, 1, "u")
        return self._product("mxv", A, u, semiring, out, mask, accum, structural, complement, replace)

    def vxm(self, u, A, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        self._check(u, 1, "u"), self._check(A, 2, "A")
        return self._product("vxm", u, A, semiring, out, mask, accum, structural, complement, replace)

    def mxm(self, A, B, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        self._check(A, 2, "A"), self._check(B, 2, "B")
        return self._product("mxm", A, B, semiring, out, mask, accum, structural, complement, replace)

    def _each(self, method, objs, out, mask, accum, structural, complement, replace, *extra, ref=None,
              copy_first=False, **kw):
        """``method`` on each segment or block of ``objs`` (all of one shape), where it lives."""
        ref = ref if ref is not None else objs[0]
        p = self._same(*objs, out, mask, ref)
        ndim = 1 if isinstance(ref, DVector) else 2
        for x in objs:
            self._check(x, ndim, "operand", ref.shape)
        # copy_first: the method writes into (a copy of) objs[0] (assign's w), which is then its output
        self._outargs(ref.shape, ndim, objs[0] if copy_first else out, mask, accum, complement)
        kw.update(mask=None, accum=accum, structural=structural, complement=complement, replace=replace)
        flat = [self._flat(x) for x in objs]
        fo = None if out is None else self._flat(out)
        fm = None if mask is None else self._flat(mask)
        result = []
        for b in range(len(self._flat(ref))):
            where = p.segment(b) if ndim == 1 else p.block(*divmod(b, p.s))
            kw_b = dict(kw, mask=None if fm is None else fm[b])
            if not copy_first:
                kw_b["out"] = None if fo is None else fo[b]
            result.append(self._submit(where, tasks.call, method, *[f[b] for f in flat], *extra,
                                       copy_first=copy_first, **kw_b))
        return self._wrap(ref, result, p)

    def _wrap(self, ref, flat, p):
        if isinstance(ref, DVector):
            return DVector(ref.shape, flat, p)
        return DMatrix(ref.shape, [flat[i * p.s:(i + 1) * p.s] for i in range(p.s)], p)

    def ewise_add(self, x, y, op, *, out=None, mask=None, accum=None,
                  structural=False, complement=False, replace=False):
        _check_name(op, BINARY_OPS, "binary op")
        return self._rebind(out, self._each("ewise_add", (_check_obj(x), _check_obj(y)), out, mask, accum,
                                            structural, complement, replace, op))

    def ewise_mult(self, x, y, op, *, out=None, mask=None, accum=None,
                   structural=False, complement=False, replace=False):
        _check_name(op, BINARY_OPS, "binary op")
        return self._rebind(out, self._each("ewise_mult", (_check_obj(x), _check_obj(y)), out, mask, accum,
                                            structural, complement, replace, op))

    def apply(self, x, op, *, right=None, out=None, mask=None, accum=None,
              structural=False, complement=False, replace=False):
        _check_name(op, UNARY_OPS if right is None else BINARY_OPS, "unary op" if right is None else "binary op")
        return self._rebind(out, self._each("apply", (_check_obj(x),), out, mask, accum, structural, complement,
                                            replace, op, right=right))

    def select(self, x, op, thunk=None, *, out=None, mask=None, accum=None,
               structural=False, complement=False, replace=False):
        _check_name(op, SELECT_OPS, "select op")
        _check_obj(x)
        if op not in _INDEX_SELECT:
            return self._rebind(out, self._each("select", (x,), out, mask, accum, structural, complement,
                                                replace, op, thunk))
        p = self._same(x, out, mask)
        ndim = 1 if isinstance(x, DVector) else 2
        if ndim == 1 and op not in ("rowle", "rowgt"):
            raise InvalidArgumentError(f"select op {op!r} needs a matrix")
        self._outargs(x.shape, ndim, out, mask, accum, complement)
        Lr = self.layout(x.shape[0])
        Lc = self.layout(x.shape[1]) if ndim == 2 else None
        fo = None if out is None else self._flat(out)
        fm = None if mask is None else self._flat(mask)
        result = []
        for b, f in enumerate(self._flat(x)):
            i, j = (b, None) if ndim == 1 else divmod(b, p.s)
            where = p.segment(b) if ndim == 1 else p.block(i, j)
            result.append(self._submit(where, tasks.select_index, f, op, thunk, (Lr, i),
                                       None if Lc is None else (Lc, j), None if fo is None else fo[b],
                                       None if fm is None else fm[b], accum, structural, complement, replace))
        return self._rebind(out, self._wrap(x, result, p))

    def reduce(self, x, monoid):
        _check_name(monoid, MONOIDS, "monoid")
        got = self._gather(self._per_part(tasks.reduce, _check_obj(x), monoid))
        if monoid == "any":
            return next((v for n, v in got if n), got[0][1])
        values = np.array([v for _, v in got])
        dtype = monoid_type(monoid, values.dtype)
        return dtype.type(_MONOID_UFUNC[monoid].reduce(values.astype(dtype))).item()

    def reduce_rows(self, A, monoid, *, out=None, mask=None, accum=None,
                    structural=False, complement=False, replace=False):
        _check_name(monoid, MONOIDS, "monoid")
        p = self._same(self._check(A, 2, "A"), out, mask)
        shape = (A.shape[0],)
        self._outargs(shape, 1, out, mask, accum, complement)
        segs = []
        for i in range(p.s):
            partials = [self._submit(p.block(i, j), tasks.call, "reduce_rows", A.parts[i][j], monoid)
                        for j in range(p.s)]
            segs.append(self._submit(p.segment(i), tasks.combine, monoid, None if out is None else out.parts[i],
                                     None if mask is None else mask.parts[i], accum, structural, complement,
                                     replace, *partials))
        return self._rebind(out, DVector(shape, segs, p))

    def _index_parts(self, index, size):
        """Per segment of the index, the futures of its per-target-segment requests."""
        p, target = self.placement, self.layout(size)
        if isinstance(index, DVector):
            self._same(index)
            routes = [self._submit(p.segment(k), tasks.route, f, target, size) for k, f in enumerate(index.parts)]
            return index.shape[0], [[self._submit(p.segment(k), tasks.pick, r, t) for t in range(p.s)]
                                    for k, r in enumerate(routes)]
        idx = np.asarray(index).astype(np.int64).ravel()
        _check_range(idx, size, "index")
        L = self.layout(idx.size)
        out = []
        for k in range(p.s):
            seg, local = target.locate(idx[L.ids(k)])
            out.append(list(tasks.split(seg, p.s, np.arange(seg.size, dtype=np.int64), local)))
        return idx.size, out

    def extract(self, u, index, *, out=None, mask=None, accum=None,
                structural=False, complement=False, replace=False):
        p = self._same(self._check(u, 1, "u"), out, mask)
        if p.s == 1 and isinstance(index, DVector):      # one segment: the local engine's gather, no routing
            self._same(index)
            self._outargs(index.shape, 1, out, mask, accum, complement)
            part = self._submit(p.segment(0), tasks.extract_one, u.parts[0], index.parts[0], u.shape[0],
                                None if out is None else out.parts[0], None if mask is None else mask.parts[0],
                                accum, structural, complement, replace)
            return self._rebind(out, DVector(index.shape, [part], p))
        m, requests = self._index_parts(index, u.shape[0])
        self._outargs((m,), 1, out, mask, accum, complement)
        lengths = self.layout(m).lengths()
        segs = []
        for k in range(p.s):
            # the segments held where output segment k lives answer inside the assembling task
            here = [(u.parts[t], requests[k][t]) for t in range(p.s) if p.segment(t) == p.segment(k)]
            answers = [self._submit(p.segment(t), tasks.gather, u.parts[t], requests[k][t]) for t in range(p.s)
                       if p.segment(t) != p.segment(k)]
            segs.append(self._submit(p.segment(k), tasks.assemble, int(lengths[k]),
                                     None if out is None else out.parts[k], None if mask is None else mask.parts[k],
                                     accum, structural, complement, replace, *answers, local=here))
        return self._rebind(out, DVector((m,), segs, p))

    def assign(self, w, u, *, mask=None, accum=None, structural=False, complement=False, replace=False):
        _check_obj(w)
        if isinstance(u, _DObject):
            result = self._each("assign", (w, u), None, mask, accum, structural, complement, replace,
                                copy_first=True)
        else:
            result = self._each("assign", (w,), None, mask, accum, structural, complement, replace, u,
                                copy_first=True)
        return self._rebind(w, result)

    def scatter(self, w, index, values, *, dup="min", accum="min"):
        p = self._same(self._check(w, 1, "w"))
        if dup is not None:
            _check_name(dup, BINARY_OPS, "binary op")
        if accum is not None:
            _check_name(accum, BINARY_OPS, "binary op")
        n = w.shape[0]
        target = self.layout(n)
        if not isinstance(index, DVector) and not isinstance(values, DVector):
            idx = np.asarray(index).astype(np.int64).ravel()
            vals = np.asarray(values).ravel()
            if vals.shape != idx.shape:
                raise InvalidArgumentError(f"index and values lengths differ: {idx.size} != {vals.size}")
            _check_range(idx, n, "index")
            seg, local = target.locate(idx)
            pieces = tasks.split(seg, p.s, local, vals)
            segs = [self._submit(p.segment(k), tasks.scatter, w.parts[k], dup, accum,
                                 self._put(list(pieces[k]), p.segment(k))) for k in range(p.s)]
            return self._rebind(w, DVector(w.shape, segs, p))
        if not isinstance(index, DVector):
            index = self.vector_from_numpy(np.asarray(index).astype(np.int64).ravel())
        if not isinstance(values, DVector):
            values = self.vector_from_numpy(np.asarray(values).ravel())
        self._same(index, values)
        if index.shape != values.shape:
            raise InvalidArgumentError(f"index and values lengths differ: {index.shape[0]} != {values.shape[0]}")
        if p.s == 1:                                    # one segment: the local engine's scatter, no routing
            part = self._submit(p.segment(0), tasks.scatter_one, w.parts[0], index.parts[0], values.parts[0], dup,
                                accum, n)
            return self._rebind(w, DVector(w.shape, [part], p))
        L = self.layout(index.shape[0])
        routed = [self._submit(p.segment(t), tasks.route_values, index.parts[t], values.parts[t], L, t, target, n,
                               dup) for t in range(p.s)]
        segs = []
        for k in range(p.s):
            # a routing made where segment k lives is picked from inside the scattering task
            pieces = [self._submit(p.segment(t), tasks.pick, routed[t], k) for t in range(p.s)
                      if p.segment(t) != p.segment(k)]
            here = [routed[t] for t in range(p.s) if p.segment(t) == p.segment(k)]
            segs.append(self._submit(p.segment(k), tasks.scatter, w.parts[k], dup, accum, *pieces,
                                     local=here, k=k))
        return self._rebind(w, DVector(w.shape, segs, p))

    # ---------------------------------------------------------------- measurement
    def traffic(self, x):
        """Bytes of ``x``'s entries (indices and values), per segment or block: what one transfer moves."""
        return self._gather(self._per_part(tasks.nbytes, _check_obj(x)))
