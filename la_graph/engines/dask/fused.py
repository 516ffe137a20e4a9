"""Fused steps of SPMD runs on CPU workers: a step carried out by compiled loops over each rank's own blocks,
with one exchange of their results, instead of as its algebra (rounds of distributed primitives).

:func:`component_labels` (the step of :func:`la_graph.connected_components`): Afforest over the ranks.  Every
rank links the stored entries of the blocks it holds into a union-find forest over the global vertex ids
(roots are their trees' smallest ids, as in the CPU engine's Afforest), the forests are merged on rank 0,
and rank 0 sends each segment's labels to the segment's holder.  As algebra, FastSV takes a distributed
product, a scatter, two element-wise minimums, a gather and a comparison per round, each moving
``n``-length vectors between the ranks; here a ``4 n``-byte forest moves from each rank to rank 0 and back
once (for the giant component's sample), then once more to rank 0, and ``8 n / s`` bytes a segment back.

:func:`bfs_search` (the step of :func:`la_graph.bfs`): the levels, parents, visited bitmap and frontier
replicated on every rank; each level every rank scans its own blocks (push or pull) and sends its finds to
every rank, which apply them in rank order (see its docstring).

The steps run only where every rank computes with the CPU engine (numpy parts) and there is an exchange to
carry the forests (or a single rank); elsewhere they decline and the algebra runs.
"""

from __future__ import annotations

import numba
import numpy as np

from ..base import Declined
from .objects import DVector
from .tasks import _E, _kept
from .transport import Erred

__all__ = ["component_labels", "bfs_search", "STEPS"]


@numba.njit(cache=True, nogil=True, inline="always")
def _root(f, x):
    """The root of ``x``, halving the path on the way."""
    while f[x] != x:
        f[x] = f[f[x]]
        x = f[x]
    return x


@numba.njit(cache=True, nogil=True, inline="always")
def _link(f, u, v):
    """Join the trees of ``u`` and ``v``: the larger root hangs under the smaller (a root is its tree's smallest id)."""
    ru = _root(f, u)
    rv = _root(f, v)
    if ru < rv:
        f[rv] = ru
    elif rv < ru:
        f[ru] = rv


#: Afforest's neighbour rounds and samples (as the CPU engine's)
ROUNDS = 2
SAMPLES = 1024


@numba.njit(cache=True, nogil=True)
def link_first(f, indptr, indices, rows, cols, rounds):
    """Link each row's first ``rounds`` stored entries of a CSR block: row ``r`` is vertex ``rows[r]``, column
    ``c`` vertex ``cols[c]`` (global ids)."""
    for r in range(rows.size):
        u = rows[r]
        lo, hi = np.int64(indptr[r]), np.int64(indptr[r + 1])
        for p in range(lo, min(lo + rounds, hi)):
            _link(f, u, cols[indices[p]])


@numba.njit(cache=True, nogil=True)
def link_rest(f, indptr, indices, rows, cols, rounds, giant):
    """Link the rest of each row's stored entries, except in the rows of the giant component's vertices."""
    for r in range(rows.size):
        u = rows[r]
        if _root(f, u) == giant:
            continue
        for p in range(np.int64(indptr[r]) + rounds, np.int64(indptr[r + 1])):
            _link(f, u, cols[indices[p]])


@numba.njit(cache=True, nogil=True)
def link_forest(f, g):
    """Link every vertex ``v`` with ``g[v]`` (another rank's forest)."""
    for v in range(g.size):
        if g[v] != v:
            _link(f, v, np.int64(g[v]))


@numba.njit(cache=True, nogil=True)
def flatten(f):
    """Every vertex straight under its root."""
    for v in range(f.size):
        f[v] = _root(f, v)


@numba.njit(cache=True, nogil=True)
def giant_root(f, samples):
    """The most frequent root among ``samples`` vertices drawn by a fixed LCG (the CPU engine's draw): the giant
    component's, on a flattened forest; -1 without vertices."""
    n = f.size
    if n == 0:
        return -1
    picks = np.empty(samples, f.dtype)
    x = np.uint64(0x9E3779B97F4A7C15)
    for s in range(samples):
        x = x * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
        picks[s] = f[np.int64(x >> np.uint64(33)) % n]
    picks.sort()
    best = run = 0
    giant = -1
    for s in range(samples):
        run = run + 1 if s > 0 and picks[s] == picks[s - 1] else 1
        if run > best:
            best = run
            giant = picks[s]
    return giant


def component_labels(E, G):
    """The smallest vertex id of every vertex's component (see the module docstring): a full int64 vector.

    Afforest over the ranks: each rank links the first :data:`ROUNDS` entries of its blocks' rows; the forests
    are merged (on rank 0, and sent back to every rank), so that every rank takes the same giant component from
    the same sample; then each rank links the rest of its rows but those of the giant's vertices.  An edge
    skipped at ``u`` (in the giant) is stored at ``v`` too (the matrix is symmetric), where it is linked unless
    ``v`` is in the giant as well: nothing is lost, as in the CPU engine's Afforest.
    """
    if E.local != "cpu" or (E.channel is None and len(E._everyone) > 1):
        raise Declined("the union-find runs over numpy blocks (CPU workers) with an exchange between them")
    if G.directed:
        raise Declined("component_labels' union-find skips rows of the giant component: it needs a symmetric matrix")
    A = E.matrix(G)
    p = E.placement
    n = G.n
    L = _kept(E.layout(n))
    ids = _placed(L)[0]
    held = []
    for i in range(p.s):
        for j in range(p.s):
            part = A.parts[i][j]
            if part.owner == E.rank:
                if isinstance(part.value, Erred):
                    raise part.value.exc
                held.append((part.value, ids[i], ids[j]))
    f = np.arange(n, dtype=np.int64)
    unpacked = []
    try:
        for M, rows, cols in held:      # each block's CSR arrays moved out of it (no copy) until the end
            info = M.ss.unpack("csr")
            unpacked.append((M, info))
            link_first(f, info["indptr"], info["col_indices"], rows, cols, ROUNDS)
        _merge(E, f, back=True)
        giant = giant_root(f, SAMPLES)
        for (M, info), (_, rows, cols) in zip(unpacked, held):
            link_rest(f, info["indptr"], info["col_indices"], rows, cols, ROUNDS, giant)
    finally:
        for M, info in unpacked:
            M.ss.pack_csr(**info, take_ownership=True)   # (the arrays it gave: no copy back)
    _merge(E, f, back=False)
    parts, local = [], _E("cpu")
    for k, w in enumerate(E._where(DVector((n,), [], p))):
        holder = E._ranks[w]
        value = None
        if E.rank == 0:
            labels = f[ids[k]]
            if holder == 0:
                value = local.vector_from_numpy(labels)
            else:
                E.channel.send([holder], labels)
        elif holder == E.rank:
            value = local.vector_from_numpy(E.channel.recv(0))
        parts.append(E._part(holder, value))
    return DVector((n,), parts, p)


def _merge(E, f, back):
    """Merge every rank's forest ``f`` into rank 0's (flattened there); ``back``: then send rank 0's to every rank,
    each rank's ``f`` becoming it.  A forest travels as int32 below 2**31 vertices (4 bytes a vertex)."""
    if len(E._everyone) == 1:
        flatten(f)
        return
    wire = np.int32 if f.size < 2 ** 31 else np.int64
    if E.rank == 0:
        for q in E._everyone[1:]:
            link_forest(f, E.channel.recv(q))
        flatten(f)
        if back:
            E.channel.send(E._everyone[1:], f.astype(wire))
    else:
        E.channel.send([0], f.astype(wire))
        if back:
            f[:] = E.channel.recv(0)


# ---------------------------------------------------------------- BFS
@numba.njit(cache=True, nogil=True)
def push_block(indptr, indices, rows, gids, cols, visited, seen, out_v, out_u, m):
    """One push level over a CSR block: for frontier vertex ``gids[t]`` (local row ``rows[t]``), each neighbour
    ``cols[c]`` neither visited nor found yet is appended to ``out_v`` (``out_u``: the parent); returns the count
    ``m`` after.  ``seen`` marks what this rank found this level."""
    for t in range(rows.size):
        r, u = rows[t], gids[t]
        for p in range(np.int64(indptr[r]), np.int64(indptr[r + 1])):
            v = cols[indices[p]]
            if not visited[v] and not seen[v]:
                seen[v] = True
                out_v[m] = v
                out_u[m] = u
                m += 1
    return m


@numba.njit(cache=True, nogil=True)
def pull_block(indptr, indices, rows, cols, visited, frontier, seen, out_v, out_u, m):
    """One pull level over a block of the transpose: each unvisited vertex ``rows[r]`` not found yet takes the
    first of its in-neighbours ``cols[c]`` in the frontier as its parent (scanning no further)."""
    for r in range(rows.size):
        v = rows[r]
        if visited[v] or seen[v]:
            continue
        for p in range(np.int64(indptr[r]), np.int64(indptr[r + 1])):
            u = cols[indices[p]]
            if frontier[u]:
                seen[v] = True
                out_v[m] = v
                out_u[m] = u
                m += 1
                break
    return m


@numba.njit(cache=True, nogil=True)
def take_found(found_v, found_u, lev, par, visited, k, out):
    """Apply one rank's finds of level ``k`` (in rank order on every rank, so alike everywhere): a vertex not yet
    visited gets its level and parent and joins the next frontier ``out`` at its count; returns the count."""
    m = out[0]
    for t in range(found_v.size):
        v = found_v[t]
        if not visited[v]:
            visited[v] = True
            lev[v] = k
            par[v] = found_u[t]
            out[m + 1] = v
            m += 1
    out[0] = m
    return m


_PLACED = {}


def _placed(L):
    """``(ids, segment, position)`` of layout ``L``: each segment's vertex ids, and each vertex's segment and
    position in it; kept per layout on this worker (16 bytes a vertex), as its tables are."""
    got = _PLACED.get(L)
    if got is None:
        ids = [np.asarray(L.ids(k), np.int64) for k in range(L.parts)]
        seg_of = np.empty(L.size, np.int64)
        pos_of = np.empty(L.size, np.int64)
        for k, members in enumerate(ids):
            seg_of[members] = k
            pos_of[members] = np.arange(members.size)
        got = _PLACED[L] = (ids, seg_of, pos_of)
    return got


def bfs_search(E, G, s, level, parent, direction, output, rule):
    """A whole search from ``s`` with the state replicated on every rank (see below); returns ``(level, parent)``
    as numpy int64 arrays, ``-1`` where unreached, as the algebra's :func:`~la_graph.algorithms.bfs.bfs_search`.

    Every rank keeps the levels, parents, the visited bitmap and the frontier over all ``n`` vertices (17 bytes a
    vertex).  A level: each rank scans the blocks it holds -- a push level the rows of the frontier's vertices in
    ``A``'s blocks, a pull level the unvisited vertices' rows in the transpose's blocks, stopping at the first
    in-neighbour in the frontier -- and sends what it found (vertex, parent) to every rank; every rank applies
    the finds in rank order, so the state stays alike and so do the direction choices (Beamer's rule on the
    frontier's out-edges and the unvisited vertices' in-edges, read from the replicated degrees).
    """
    if E.local != "cpu" or (E.channel is None and len(E._everyone) > 1):
        raise Declined("the replicated search runs over numpy blocks (CPU workers) with an exchange between them")
    n, p = G.n, E.placement
    L = _kept(E.layout(n))
    A = E.matrix(G)
    AT = A if not G.directed else E.matrix(G, transpose=True)
    outdeg = np.asarray(G.out_degree, np.int64)
    indeg = outdeg if not G.directed else np.asarray(G.in_degree, np.int64)
    ids, seg_of, pos_of = _placed(L)
    held = {}                                       # block object -> its CSR info (unpacked once)
    blocks = {"A": [], "AT": []}
    for name, M in (("A", A), ("AT", AT)):
        for i in range(p.s):
            for j in range(p.s):
                part = M.parts[i][j]
                if part.owner == E.rank:
                    if isinstance(part.value, Erred):
                        raise part.value.exc
                    blocks[name].append((i, j, part.value))
    lev = np.full(n, -1, np.int64)
    par = np.full(n, -1, np.int64)
    visited = np.zeros(n, np.bool_)
    seen = np.zeros(n, np.bool_)
    frontier_bits = np.zeros(n, np.bool_)
    nxt = np.empty(n + 1, np.int64)
    visited[s], lev[s], par[s] = True, 0, s
    F = np.array([s], np.int64)
    alpha = rule.alpha_of(G)
    push = direction != "pull"
    auto = direction == "auto" and G.nnz >= rule.min_degree * n
    if direction == "auto" and not auto:
        push = True
    edges_to_pull = int(G.nnz) - int(indeg[s])
    last_nq, any_pull, k = 0, False, 0
    try:
        for name in ("A", "AT"):
            for _, _, M in blocks[name]:
                if id(M) not in held:
                    held[id(M)] = (M, M.ss.unpack("csr"))
        while F.size:
            k += 1
            nq = F.size
            if auto:
                if push:
                    growing = nq > last_nq
                    if any_pull:
                        push = not (growing and nq > n / rule.beta1)
                    elif growing:
                        push = not (int(outdeg[F].sum()) > edges_to_pull / alpha)
                else:
                    push = not (nq > last_nq or nq > n / rule.beta2)
                any_pull = any_pull or not push
            last_nq = nq
            cap = int(outdeg[F].sum()) if push else n
            out_v = np.empty(max(cap, 1), np.int64)
            out_u = np.empty(max(cap, 1), np.int64)
            m = 0
            if push:
                for i, j, M in blocks["A"]:
                    mine = F[seg_of[F] == i]
                    if mine.size:
                        info = held[id(M)][1]
                        m = push_block(info["indptr"], info["col_indices"], pos_of[mine], mine, ids[j], visited,
                                       seen, out_v, out_u, m)
            else:
                frontier_bits[F] = True
                for i, j, M in blocks["AT"]:
                    info = held[id(M)][1]
                    m = pull_block(info["indptr"], info["col_indices"], ids[i], ids[j], visited, frontier_bits,
                                   seen, out_v, out_u, m)
                frontier_bits[F] = False
            found_v, found_u = out_v[:m], out_u[:m]
            seen[found_v] = False
            nxt[0] = 0
            for q in E._everyone:                   # every rank's finds, in rank order
                if q == E.rank:
                    if len(E._everyone) > 1:
                        E.channel.send([r for r in E._everyone if r != E.rank], (found_v, found_u))
                    fv, fu = found_v, found_u
                else:
                    fv, fu = E.channel.recv(q)
                take_found(fv, fu, lev, par, visited, k, nxt)
            F = nxt[1:nxt[0] + 1].copy()
            if auto:
                edges_to_pull -= int(indeg[F].sum())
    finally:
        for M, info in held.values():
            M.ss.pack_csr(**info, take_ownership=True)   # (the arrays it gave: no copy back)
    return (lev if level else None), (par if parent else None)


#: the fused steps of SPMD runs on CPU workers
STEPS = {"component_labels": component_labels, "bfs_search": bfs_search}
