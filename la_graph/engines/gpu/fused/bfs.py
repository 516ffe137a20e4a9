"""BFS (la_graph/algorithms/bfs.py): ``bfs_push`` and ``bfs_pull`` (cuda/bfs.cu: a direction-optimizing
search's push and pull stretches), ``bfs_search`` and ``bfs_multi`` (cuda/msbfs.cu: a whole search, or up to
64 sources, in one launch).
"""

from __future__ import annotations

import math

import cupy as cp
import numpy as np

from ...base import Declined
from ..kernels import _NULL, _kernel, _next_pow2
from ..memory import _reserve, _wait
from ..ops import _cast
from ..objects import _BOOL, _I32, _I64, GMat, GVec, _to_host
from ._common import _MS_LANES, _msbfs, _row_lengths, fuses

# state slots of bfs.cu (st[], int64): per-level rings, then the totals
_ST_ENT, _ST_CNT, _ST_EDG, _ST_PCNT = 0, 3, 6, 0
_ST_K, _ST_FOUND, _ST_SCANNED, _ST_FOUND_IN, _ST_STOP, _ST_BAR = 9, 10, 11, 12, 13, 14
_STOPPED, _WIDER, _THINNER = 1, 2, 3          # why a bfs_push_grid launch returned
_BLOCK, _THIN, _WIDE = 0, 1, 2                 # bfs_push's launch shapes, thinnest first
_BFS_BLOCK = 512                               # bfs_push_block's threads (its __launch_bounds__)
_BFS_BLOCK_ENTRIES = 4096                      # its shared queue's entries by default (two: 128 KiB of int32 entries)


def _bfs_vectors(step, q, parent, level):
    """Decline unless the kernels can take these vectors; returns the dtype of parents / levels."""
    vecs = [v for v in (parent, level) if v is not None]
    if not isinstance(q, GVec) or not vecs or any(not isinstance(v, GVec) for v in vecs):
        raise Declined(f"{step}'s kernels take gpu-engine vectors, with parent or level kept")
    if len({v.dtype for v in vecs}) != 1 or vecs[0].dtype not in (_I32, _I64):
        raise Declined(f"{step}'s kernels write parents and levels of one dtype, int32 or int64")
    return vecs[0].dtype


def _claimable(pres, n):
    """A private copy of a presence array (None: all present) in an allocation padded to 4 bytes:
    the BFS kernels claim a vertex with atomicOr on the 32-bit word that holds its byte."""
    buf = cp.zeros((n + 3) // 4 * 4, _BOOL)
    if pres is None:
        buf[:n] = True
    else:
        buf[:n] = pres
    return buf[:n]


def _bfs_copies(parent, level, n):
    """Private copies the kernels update in place: ``(pv, pp, lv, lp, visited, levp)``.

    The visited set is the parents' presence if kept, else the levels'; ``levp`` is the
    levels' presence when both are kept (the kernels set it beside the parents')."""
    pv = parent.val.copy() if parent is not None else None
    pp = _claimable(parent.pres, n) if parent is not None else None
    lv = level.val.copy() if level is not None else None
    lp = _claimable(level.pres, n) if level is not None else None
    vis = pp if parent is not None else lp
    levp = lp if (level is not None and parent is not None) else None
    return pv, pp, lv, lp, vis, levp


def _bfs_found(parent, level, q, pv, pp, lv, lp, pres):
    """Hand the kernels' arrays to the vectors; returns the new frontier of ``q``'s dtype on ``pres``.

    Its values are what the step's algebra gives: the parents (``any.secondi``), or 1 (``any.pair``)."""
    if parent is not None:
        parent.val, parent.pres = pv, pp
    if level is not None:
        level.val, level.pres = lv, lp
    if parent is not None:
        val = pv if pv.dtype == q.dtype else _cast(pv, q.dtype)   # read only where present
    else:
        val = pres if q.dtype == _BOOL else pres.astype(q.dtype)
    return GVec(q.size, q.dtype, val, pres)


def _bfs_state(E, G):
    key = E._graph_key("bfs_st")
    st = G._engine_cache.get(key)
    if st is None:
        st = G._engine_cache[key] = cp.zeros(16, _I64)
    return st


def _bfs_lanes(A):
    """Lanes per queue entry (a power of two; each lane takes 4 edges): the entries' edge limit is 4 x that."""
    return _next_pow2(A.indices.size / max(A.nrows, 1) / 4)


def _bfs_queues(E, G, A, IT, chunk):
    """The two queues of bfs_push (4 IT an entry), each as long as a frontier of every vertex can get."""
    key = E._graph_key("bfs_q")
    ws = G._engine_cache.get(key)
    if ws is None or ws[0] != (IT, chunk):
        G._engine_cache.pop(key, None)
        deg = _row_lengths(E, A)
        cap = max(1, int(cp.maximum((deg + (chunk - 1)) // chunk, 1).sum()))   # entries of every vertex
        _reserve(2 * cap * 4 * IT.itemsize, "the BFS frontier queues")
        ws = G._engine_cache[key] = ((IT, chunk), cp.empty(4 * cap, IT), cp.empty(4 * cap, IT), cap)
    return ws[1:]


def _bfs_block(E, IT, VT):
    """bfs_push_block<IT, VT>, the entries of its shared queue and its dynamic shared memory in bytes: two
    queues of ``E.BFS_BLOCK_ENTRIES`` entries (None: 4096), at most as many as fit the device's shared
    memory per block (the kernel's own few words and 1 KiB spare)."""
    fn = _kernel("bfs.cu", "bfs_push_block", IT, VT)
    entry = 4 * IT.itemsize
    fit = (E._smem_optin - 1024) // (2 * entry)
    want = _BFS_BLOCK_ENTRIES if E.BFS_BLOCK_ENTRIES is None else int(E.BFS_BLOCK_ENTRIES)
    scap = max(1, min(want, fit))
    smem = 2 * scap * entry
    if fn.max_dynamic_shared_size_bytes < smem:
        fn.max_dynamic_shared_size_bytes = smem
    return fn, scap, smem


@fuses
def bfs_push(E, G, q, parent, level, k, max_edges):
    VT = _bfs_vectors("bfs_push", q, parent, level)
    n = G.n
    A = E.matrix(G)
    indptr, indices = A.indptr, A.indices
    IT = indices.dtype
    lim = math.floor(max_edges) if max_edges <= 2**62 else 2**62   # edges > x iff edges > floor(x); NaN: no limit
    gs = _bfs_lanes(A)
    chunk = 4 * gs
    qa, qb, cap = _bfs_queues(E, G, A, IT, chunk)
    st = _bfs_state(E, G)
    pv, pp, lv, lp, vis, levp = _bfs_copies(parent, level, n)
    ptr = lambda a: a if a is not None else _NULL  # noqa: E731
    st.fill(0)
    _kernel("bfs.cu", "bfs_frontier", IT)(
        (E._blocks(n),), (256,), (ptr(q.pres), np.int64(n), indptr, qa, np.int64(chunk), st))
    indeg = E.degree(G, transpose=True).val if G.directed else None
    run = _kernel("bfs.cu", "bfs_push_grid", IT, VT)
    tiny, thin = max(0, int(E.BFS_TINY_EDGES)), int(E.BFS_THIN_EDGES)
    # three launch shapes, each returning where its band of frontier out-edges ends: one block
    # (the tiniest levels: shared-memory queue, no grid barrier), a few blocks (thin levels: a
    # cheaper barrier), every multiprocessor (one block each: all resident).  A search starts in the block
    # on graphs of one lane an entry (grids, road networks), else in the few blocks, whose first launch
    # does not hand its first levels down to the block (a source's first levels widen fast there)
    shape = _BLOCK if tiny and gs == 1 else _THIN
    bar, stalled, done = 0, shape == _THIN, 0
    if tiny:
        block, scap, smem = _bfs_block(E, IT, VT)
        down = min(tiny, scap) // 2            # handed down below: an undirected graph's entries <= its edges
    while True:
        if shape == _BLOCK:
            block((1,), (_BFS_BLOCK,),
               (indptr, indices, ptr(indeg), qa, qb, st, vis, ptr(pv), ptr(lv), ptr(levp), np.int64(k),
                np.int64(lim), np.int64(tiny), np.int32(gs), np.int64(scap)), shared_mem=smem)
        else:
            wide = shape == _WIDE
            blocks = E._sms if wide else max(1, min(int(E.BFS_THIN_BLOCKS), E._sms))
            lo, hi = (thin // 2, 2**62) if wide else (down if tiny and not stalled else -1, thin)
            run((blocks,), (512,),
                (indptr, indices, ptr(indeg), qa, qb, np.int64(cap), st, vis, ptr(pv), ptr(lv), ptr(levp),
                 np.int64(k), np.int64(lim), np.int64(lo), np.int64(hi), np.int32(wide), np.int32(gs),
                 np.uint64(bar)))
        _wait()                                # Ctrl-C can interrupt the wait for the launch; a read cannot
        s = cp.asnumpy(st)
        if s[_ST_STOP] == _STOPPED:
            break
        # the block stopped at a frontier its queue cannot hold (or took no level): the thin launch keeps it
        stalled = shape == _BLOCK and (s[_ST_K] == done or s[_ST_ENT + s[_ST_K] % 3] > scap)
        done = s[_ST_K]
        shape = shape + 1 if s[_ST_STOP] == _WIDER else shape - 1
        bar = int(s[_ST_BAR])
    P = int(s[_ST_K])
    if P == 0:      # no level: the frontier is empty or over the limit; nothing changed
        return q, k, int(s[_ST_CNT]), 0, 0, 0
    nent, nq = int(s[_ST_ENT + P % 3]), int(s[_ST_CNT + P % 3])
    pres = cp.zeros(n, _BOOL)
    if nent:
        last = qa if P % 2 == 0 else qb
        _kernel("bfs.cu", "bfs_mark", IT)((E._blocks(nent),), (256,), (last, np.int64(nent), pres))
    out = _bfs_found(parent, level, q, pv, pp, lv, lp, pres)
    return out, k + P, nq, int(s[_ST_FOUND]), int(s[_ST_SCANNED]), int(s[_ST_FOUND_IN])


@fuses
def bfs_pull(E, G, q, parent, level, k, min_frontier=-1):
    VT = _bfs_vectors("bfs_pull", q, parent, level)
    n = G.n
    AT = E.matrix(G, transpose=True)
    tptr, tind = AT.indptr, AT.indices
    IT = tind.dtype
    mf = min(math.floor(min_frontier), 2**62) if min_frontier >= 0 else -1   # m <= x iff m <= floor(x); NaN: never
    st = _bfs_state(E, G)
    pv, pp, lv, lp, vis, levp = _bfs_copies(parent, level, n)
    ptr = lambda a: a if a is not None else _NULL  # noqa: E731
    st.fill(0)
    st[_ST_PCNT] = n if q.pres is None else cp.count_nonzero(q.pres)    # the frontier before: no wait
    run = _kernel("bfs.cu", "bfs_pull_level", IT, VT)
    grid = (E._blocks(n),)
    cur, first, batch = q.pres, 0, 4       # a pull stretch is mostly 2-4 levels
    while True:
        # a batch of levels, then one read of the state; levels past the stopping rule return at once
        outs = [cur]                   # outs[i]: the frontier of level index first + i
        for P in range(first, first + batch):
            nxt = cp.empty(n, _BOOL)
            run(grid, (256,), (tptr, tind, ptr(cur), nxt, np.int64(n), st, vis, ptr(pv), ptr(lv), ptr(levp),
                               np.int64(P), np.int64(k + P), np.int64(mf)))
            outs.append(nxt)
            cur = nxt
        _wait()
        s = cp.asnumpy(st)
        if s[_ST_STOP]:
            break
        first, batch = first + batch, min(2 * batch, 64)
    done = int(s[_ST_K])                # levels done (at least one); the last is level k + done - 1
    out = _bfs_found(parent, level, q, pv, pp, lv, lp, outs[done - first])
    return out, k + done - 1, int(s[_ST_PCNT + done % 4]), int(s[_ST_FOUND]), int(s[_ST_FOUND_IN])


@fuses
def bfs_multi(E, G, sources, level, parent):
    # as reach_sweep, levels and parents written by the thread that finds them
    k, n = sources.size, G.n
    _reserve(40 * n + 8 * k * n * (int(level) + int(parent)), "the multi-source search's words, queues and results")
    rows = cp.arange(k, dtype=_I64)
    at = cp.asarray(sources)
    L = P = None
    if level:
        L = cp.full((k, n), -1, _I64)
        L[rows, at] = 0
    if parent:
        P = cp.full((k, n), -1, _I64)
        P[rows, at] = at
    for lo in range(0, k, _MS_LANES):
        _msbfs(E, G, sources[lo:lo + _MS_LANES], *(None if X is None else X[lo:lo + _MS_LANES] for X in (L, P)))
    return tuple(None if X is None else GMat.dense_of(k, n, _I64, X.ravel(), X.ravel() >= 0) for X in (L, P))


#: bfs_search runs as one launch of msbfs_grid (one bit lane) on graphs of at most this many stored
#: edges; on larger ones it declines, and the algebra's direction-optimizing stretches (the fused
#: bfs_push and bfs_pull) run: their launches and host reads cost about a millisecond a search,
#: which only a large graph repays
BFS_SEARCH_MS_EDGES = 1 << 22


@fuses
def bfs_search(E, G, s, level, parent, direction, output, rule):
    # the whole search top-down in one launch (the push levels of the algebra, all of them)
    if direction == "pull":
        raise Declined("bfs_search's kernel pushes only; direction='pull' runs the algebra")
    if G.nnz > BFS_SEARCH_MS_EDGES:
        raise Declined(f"bfs_search's one-launch kernel takes graphs of at most BFS_SEARCH_MS_EDGES = "
                       f"{BFS_SEARCH_MS_EDGES:,} edges, this one has {G.nnz:,}")
    n = G.n
    _reserve(40 * n + 8 * n * (int(level) + int(parent)), "the search's words, queues and results")
    L = P = None
    if level:
        L = cp.full(n, -1, _I64)
        L[s] = 0
    if parent:
        P = cp.full(n, -1, _I64)
        P[s] = s
    _msbfs(E, G, np.array([s], np.int64), L, P)
    get = (lambda a: a) if output == "device" else _to_host
    return tuple(None if X is None else get(X) for X in (L, P))
