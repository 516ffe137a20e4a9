"""A sequential model of the GPU engine's multi-source BFS kernel (``la_graph/engines/gpu/cuda/msbfs.cu``),
run on the CPU: its per-level claim protocol must give every source's BFS levels and parents whatever order
the threads of a level take the edges in.

The kernel (see the comment at the top of the ``.cu`` file): per vertex a 64-bit word of the sources that
reached it (``vis``) and two frontier words (this level's, the next's); one level takes the queue of the
vertices found at the last one, and for each edge ``(u, v)``, in any order, ``nw = front[u] & ~vis[v]``,
``old = atomicOr(vis[v], nw)``: the bits ``nw & ~old`` are this thread's alone, so it writes their levels and
parents and ORs them into ``v``'s next-level word, and the thread whose OR finds that word empty appends
``v`` to the next queue.  The queues' lengths rotate over three slots.  Here the edges of a level are taken
in a random order (the interleavings of the threads), and the result is checked against scipy's BFS.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

from la_graph import generators

ONE = np.uint64(1)


def model(indptr, indices, n, sources, rng):
    """``(vis, level, parent)`` of the kernel's protocol on the CSR graph, each level's edges in ``rng``'s order.

    ``level`` and ``parent`` are ``(len(sources), n)``; -1 where not reached.  Also checks, as it goes, that a
    vertex enters a level's queue once, and that the queue lengths' three slots hold what was appended.
    """
    k = len(sources)
    vis = np.zeros(n, np.uint64)
    front = [np.zeros(n, np.uint64), np.zeros(n, np.uint64)]
    level = np.full((k, n), -1)
    parent = np.full((k, n), -1)
    for i, s in enumerate(sources):                        # a source repeated: a lane of its own
        bit = ONE << np.uint64(i)
        vis[s] |= bit
        front[0][s] |= bit
        level[i, s], parent[i, s] = 0, s
    queue = [sorted(set(sources)), []]
    lengths = [len(queue[0]), 0, 0]                        # the three rotating slots
    depth = 1
    while True:
        c, slot = (depth - 1) & 1, (depth - 1) % 3
        current = queue[c][:lengths[slot]]
        lengths[(slot + 2) % 3] = 0                        # cleared: read a level ago, appended to next level
        here, there = front[c], front[1 - c]
        seen = {u: here[u] for u in current}               # every thread reads front[u] before the level ends
        work = [(u, j) for u in current for j in range(indptr[u], indptr[u + 1])]
        rng.shuffle(work)                                  # one interleaving of the level's threads
        found = []
        for u, j in work:
            v = indices[j]
            nw = seen[u] & ~vis[v]
            if not nw:
                continue
            old = vis[v]                                   # atomicOr(vis[v], nw) returns the old word
            vis[v] |= nw
            mine = nw & ~old
            if not mine:
                continue
            was = there[v]
            there[v] |= mine
            if was == 0:                                   # the first to reach v this level appends it
                found.append(v)
                lengths[(slot + 1) % 3] += 1
            for i in range(k):
                if (int(mine) >> i) & 1:
                    level[i, v], parent[i, v] = depth, u
        for u in current:
            here[u] = 0                                    # the word is the level after next's
        assert len(found) == len(set(found)) == lengths[(slot + 1) % 3]
        queue[1 - c] = found
        if not found:
            return vis, level, parent
        depth += 1


@pytest.mark.parametrize("G", [generators.rmat(9, 6, seed=3, directed=True), generators.grid_2d(15, 11),
                               generators.uniform(300, 900, seed=2, directed=True)],
                         ids=["rmat9", "grid15x11", "uniform300"])
def test_the_kernels_protocol_gives_every_sources_bfs(G):
    sources = [int(x) for x in np.random.default_rng(0).choice(G.n, 20)] + [0, 0]
    vis, level, parent = model(G.indptr, G.indices, G.n, sources, random.Random(1))
    A = sp.csr_array((np.ones(G.nnz), G.indices, G.indptr), shape=(G.n, G.n))
    D = csgraph.shortest_path(A, directed=True, unweighted=True, indices=sources)
    assert np.array_equal(level, np.where(np.isinf(D), -1, D).astype(int))
    for i in range(len(sources)):
        reached = np.flatnonzero(level[i] > 0)
        p = parent[i, reached]
        assert np.array_equal(level[i, p], level[i, reached] - 1)          # a parent is one level closer
        assert all(v in G.indices[G.indptr[u]:G.indptr[u + 1]] for u, v in zip(p, reached))   # by an edge
        bits = (vis >> np.uint64(i)) & ONE
        assert np.array_equal(bits.astype(bool), level[i] >= 0)            # vis holds exactly the reached
