"""Minimum spanning forest (la_graph/algorithms/msf.py): ``msf_edges``, ``msf_round``, ``msf_forest``
and ``msf_labels`` (cuda/msf.cu).
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from ...._keys import weight_ranks
from ....exceptions import InvalidArgumentError
from ...base import Declined
from ..kernels import _NULL, _kernel
from ..memory import _reserve, _wait
from ..objects import _F64, _I32, _I64, GVec, _is_full
from ._common import fuses, log

#: Kruskal's filter: about this many light edges per vertex are packed and used up first
#: (on graphs with more than twice as many edges); the rest stay in the CSR until then
MSF_LIGHT_PER_VERTEX = 2
#: CSR entries a warp takes at a time in the sweeps of the CSR (msf_pack, msf_heavy)
MSF_CHUNK = 1024
#: jumps a vertex makes in one launch of msf_jump before the host looks again
MSF_JUMP_STEPS = 32
#: room made for the light edges: this factor times the sampled estimate, plus this many
#: (more light edges than that: packed again, with room for all)
MSF_ROOM = (1.3, 65536)
_MSF_SAMPLE = 4096                       # CSR entries sampled to place the cut
_MSF_RESIDENT = 4                        # blocks of 256 a multiprocessor holds of the kernels that stage edges
_INT64_MAX = np.iinfo(np.int64).max


def _msf_keys(E, G, indptr, indices, w):
    """``(table, offset, cut, share)`` of the MSF keys of ``G``.

    ``table, offset``: the weights' ranks (:func:`la_graph._keys.weight_ranks`
    on the device).  Kruskal's filter: an edge is light when its key is below
    ``cut`` (the int64 maximum: every edge), about ``MSF_LIGHT_PER_VERTEX * n``
    of them, placed from a sample of the edges' keys; ``share`` is the sampled
    share of the edges that are light.  Cached on ``G`` where no table is
    needed (integer weights, or none): four numbers.
    """
    ck = E._graph_key(("msf_keys", MSF_LIGHT_PER_VERTEX))
    got = G._engine_cache.get(ck)
    if got is not None:
        return got
    n, nnz = G.n, G.nnz
    table, offset = weight_ranks(w, nnz, cp)
    cut, share = _INT64_MAX, 1.0
    half = nnz // 2                      # edges, about: the CSR of an undirected graph holds each twice
    if half > 2 * MSF_LIGHT_PER_VERTEX * n:
        p = cp.asarray(np.random.default_rng(0).integers(0, nnz, _MSF_SAMPLE).astype(indptr.dtype))
        p = p[indices[p] > cp.searchsorted(indptr, p, side="right") - 1]    # an edge's own entry: row < column
        if table is not None:
            rank = table[p]
        elif w is not None:
            rank = w[p].astype(_I64) - offset
        else:
            rank = cp.zeros(p.size, _I64)
        keys = cp.asnumpy(rank * np.int64(nnz) + p)
        if keys.size:
            cut = int(np.quantile(keys, MSF_LIGHT_PER_VERTEX * n / half, method="higher")) + 1
            share = float(np.count_nonzero(keys < cut)) / keys.size
    got = (table, offset, cut, share)
    if table is None:
        G._engine_cache[ck] = got
    return got


class _MSFEdges:
    """The gpu engine's MSF edge set: what ``msf_edges`` makes and ``msf_round`` reads and updates.

    The edges still in play are ``bufs[0]`` (``eu``, ``ev``, ``key``: CuPy
    arrays, the first ``m`` entries), their ends relabelled to tree roots as
    rounds go; a round writes the survivors to ``bufs[1]`` (compaction) and
    the two swap.  Kruskal's filter (as ECL-MST and Filter-Kruskal): only the
    light edges (``key < cut``) are packed; the heavy ones stay in the CSR
    until the light ones join no more trees, when one sweep of the CSR takes
    those still between two trees (``heavy`` says that is to come).  ``cheap``
    (all int64 maximum between rounds), ``partner`` and the counters ``st``
    are kept for every round.
    """

    def __init__(self, E, G):
        A = E.matrix(G)
        self.E, self.n, self.nnz = E, G.n, G.nnz
        self.indptr, self.indices = A.indptr, A.indices
        self.w = A.val if G.weights is not None else None
        self.table, self.offset, self.cut, share = _msf_keys(E, G, self.indptr, self.indices, self.w)
        self.heavy = self.cut != _INT64_MAX
        self.cheap = self.partner = None
        self.st = cp.zeros(4, cp.uint64)     # [0] edges written, [1] roots hooked, [2] a vertex short of its root
        self.bufs = [None, None]
        half = self.nnz // 2                 # edges at most (self-loops are no edges)
        cap = half if not self.heavy else min(half, int(MSF_ROOM[0] * share * half) + MSF_ROOM[1])
        _reserve(2 * cap * (2 * self.indices.itemsize + 8) + 64, f"the keys of {cap:,} spanning-forest edges")
        self.m = self._pack(cap)
        if self.m > cap:                     # the sample guessed too few: again, with room for all
            log.debug("msf_edges: %d light edges, room for %d: packing again", self.m, cap)
            self.bufs[0] = None
            self.m = self._pack(self.m)
        self.bufs[1] = self._buffer(self.m)  # the rounds compact into the other buffer

    def _buffer(self, size):
        IT = self.indices.dtype
        return cp.empty(size, IT), cp.empty(size, IT), cp.empty(size, _I64)

    def _grid(self, nthreads):
        """Blocks for a kernel that stages edges (cuda/msf.cu): one wave of resident blocks at most."""
        return (min(self.E._blocks(nthreads), _MSF_RESIDENT * self.E._sms),)

    def _sweep(self):
        """The launch grid and first arguments of the kernels that sweep the CSR."""
        grid = self._grid(-(-self.nnz // MSF_CHUNK) * 32)
        return grid, (self.indptr, self.indices, _NULL if self.w is None else self.w,
                      _NULL if self.table is None else self.table, np.int64(self.offset), np.int64(self.n),
                      np.int64(self.cut), np.int32(MSF_CHUNK))

    def _pack(self, cap):
        """Pack the light edges into a new ``bufs[0]`` of ``cap`` edges; returns how many there are."""
        eu, ev, key = self.bufs[0] = self._buffer(cap)
        count = self.st[:1]
        count.fill(0)
        if self.nnz:
            grid, args = self._sweep()
            _kernel("msf.cu", "msf_pack", self.indices.dtype)(grid, (256,), args + (eu, ev, key, np.int64(cap), count))
        return int(count[0])

    def round(self, f, forest):
        """One round (the step ``msf_round``) on gpu-engine vectors ``f`` and ``forest``; returns ``hooked``."""
        n = f.size
        if n == 0 or (self.m == 0 and not self.heavy):
            return 0
        if self.cheap is None:
            self.cheap = cp.full(n, _INT64_MAX, _I64)
        if self.partner is None or self.partner.dtype != f.dtype:
            self.partner = cp.empty(n, f.dtype)
        fv, fo = f.val.copy(), forest.val.astype(_I64, copy=True)   # the engine never writes into a vector's array
        hooked = self._packed(fv, fo) if self.m else 0
        if hooked == 0 and self.heavy:       # no light edge joins two trees: now the heavy ones
            self.heavy = False
            hooked = self._heavy(fv, fo)
        f.val, f.pres = fv, None
        forest.val, forest.pres = fo.astype(forest.dtype, copy=False), None
        return hooked

    def _packed(self, fv, fo):
        """A round over the packed edges (the light ones, or after the sweep the heavy ones left)."""
        (eu, ev, key), (ou, ov, ok) = self.bufs
        IT, VT = eu.dtype, fv.dtype
        self.st.fill(0)
        _kernel("msf.cu", "msf_cheapest", IT, VT)(
            self._grid(self.m), (256,),
            (eu, ev, key, np.int64(self.m), fv, self.cheap, ou, ov, ok, np.int64(ou.size), self.st))
        _kernel("msf.cu", "msf_partner", IT, VT)(
            (self.E._blocks(self.m),), (256,), (ou, ov, ok, self.st, self.cheap, self.partner))
        self.bufs.reverse()
        return self._hook(fv, fo)

    def _heavy(self, fv, fo):
        """A round over the heavy edges between two trees, swept from the CSR and packed."""
        IT, VT = self.indices.dtype, fv.dtype
        grid, args = self._sweep()
        self.bufs.sort(key=lambda b: -b[0].size)      # the larger buffer takes them: usually room enough
        heavy = _kernel("msf.cu", "msf_heavy", IT, VT)
        eu, ev, key = self.bufs[0]
        self.st.fill(0)
        heavy(grid, (256,), args + (fv, self.cheap, eu, ev, key, np.int64(eu.size), self.st))
        h = int(self.st[0])
        if h > eu.size:                                # again with room for all (cheap: the same minima again)
            log.debug("msf_round: %d heavy edges between two trees, room for %d: sweeping again", h, eu.size)
            self.bufs = [None, None]
            _reserve(2 * h * (2 * IT.itemsize + 8) + 64, f"the {h:,} heavy spanning-forest edges between two trees")
            self.bufs = [self._buffer(h), self._buffer(h)]
            eu, ev, key = self.bufs[0]
            self.st.fill(0)
            heavy(grid, (256,), args + (fv, self.cheap, eu, ev, key, np.int64(eu.size), self.st))
        elif self.bufs[1][0].size < h:                 # the next round compacts into the other buffer
            self.bufs[1] = None
            _reserve(h * (2 * IT.itemsize + 8) + 64, f"the {h:,} heavy spanning-forest edges between two trees")
            self.bufs[1] = self._buffer(h)
        if h == 0:                                     # no edge joins two trees
            self.m = 0
            return 0
        _kernel("msf.cu", "msf_partner", IT, VT)(
            (self.E._blocks(h),), (256,), (eu, ev, key, self.st, self.cheap, self.partner))
        return self._hook(fv, fo)

    def _hook(self, fv, fo):
        """Hook the roots, jump to the roots; ``m`` becomes the count of edges written; returns the hooks."""
        n, VT, st = self.n, fv.dtype, self.st
        grid = (self.E._blocks(n),)
        _kernel("msf.cu", "msf_hook", VT)(grid, (256,), (fv, self.cheap, self.partner, fo, np.int64(n), st[1:]))
        jump = _kernel("msf.cu", "msf_jump", VT)
        while True:
            jump(grid, (256,), (fv, self.cheap, np.int64(n), np.int32(MSF_JUMP_STEPS), st[2:]))
            _wait()                          # Ctrl-C can interrupt the wait; a read cannot
            s = cp.asnumpy(st)               # the round's one wait, unless a vertex is left short
            if not s[2]:
                self.m = int(s[0])
                return int(s[1])
            st[2] = 0


@fuses
def msf_edges(E, G):
    # the algebra's keys, ranked and keyed on the device from the uploaded CSR; the light ones packed
    if G.weights is not None and G.weights.dtype != _F64:
        raise Declined("msf_edges' kernels take float64 weights")
    return _MSFEdges(E, G)


@fuses
def msf_round(E, f, edges, forest):
    if not isinstance(edges, _MSFEdges):
        raise Declined("msf_round's kernels take the edge set of the gpu engine's msf_edges")
    if not (isinstance(f, GVec) and isinstance(forest, GVec) and f.dtype in (_I32, _I64)
            and forest.dtype.kind == "i" and _is_full(f) and _is_full(forest) and f.size == forest.size == edges.n):
        # no Declined: the algebra cannot read this engine's edge set either
        raise InvalidArgumentError("msf_round needs full gpu-engine int vectors f and forest of the graph's size")
    return edges, edges.round(f, forest)


@fuses
def msf_forest(E, G, forest):
    # the forest's CSR positions compacted and sorted on the device, their rows found by binary search
    if not (isinstance(forest, GVec) and forest.dtype.kind == "i"):
        raise Declined("msf_forest takes the forest's keys as an int gpu-engine vector")
    A = E.matrix(G)
    n, nnz = forest.size, G.nnz
    keys = forest.val.astype(_I64, copy=False)
    if forest.pres is not None:
        keys = cp.where(forest.pres, keys, -1)
    IT = A.indices.dtype
    pos = cp.empty(n, IT)
    count = cp.zeros(1, cp.uint64)
    if n:
        _kernel("msf.cu", "msf_forest_positions", IT)(
            (E._blocks(-(-n // 8)),), (256,), (keys, np.int64(n), np.int64(max(nnz, 1)), pos, count))
    k = int(count[0])
    pos = cp.sort(pos[:k])
    u, v, w = cp.empty(k, _I64), cp.empty(k, _I64), cp.empty(k, _F64)
    if k:
        _kernel("msf.cu", "msf_forest_edges", IT)(
            (E._blocks(k),), (256,),
            (A.indptr, A.indices, A.val if G.weighted else _NULL, pos, np.int64(k), np.int64(G.n), u, v, w))
    return GVec(k, _I64, u), GVec(k, _I64, v), GVec(k, _F64, w)


@fuses
def msf_labels(E, f):
    # smallest[f[v]] min= v (one atomicMin per root a warp), then labels[v] = smallest[f[v]]
    if not (isinstance(f, GVec) and f.dtype in (_I32, _I64) and _is_full(f)):
        raise Declined("msf_labels' kernels take a full int32 or int64 gpu-engine vector")
    n = f.size
    smallest = cp.full(n, n, f.dtype)
    labels = cp.empty(n, _I64)
    if n:
        grid = (E._blocks(n),)
        _kernel("msf.cu", "msf_smallest", f.dtype)(grid, (256,), (f.val, smallest, np.int64(n)))
        _kernel("msf.cu", "msf_label", f.dtype)(grid, (256,), (f.val, smallest, labels, np.int64(n)))
    return GVec(n, _I64, labels)
