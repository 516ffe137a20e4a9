"""Compiled loops of the CPU engine's strongly-connected-components steps (numba).

Each kernel is the exact semantics of the step of the same name in
``la_graph/algorithms/scc.py`` (``scc_trim``, ``scc_fwbw``, ``scc_color``), on the
host CSR of ``A`` (``indptr``, ``indices``) and of ``A'`` (``tptr``, ``tind``),
with the labels lent as a bitmap: ``done[v]`` tells whether ``v`` is
labelled, ``lab[v]`` its label.  Each runs in time linear in the vertices and
edges it touches.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def scc_trim(indptr, indices, tptr, tind, done, lab):
    """Label, repeatedly, every unlabelled vertex with no unlabelled in- or out-neighbour (self-loops aside)."""
    n = done.size
    din = np.zeros(n, np.int64)
    dout = np.zeros(n, np.int64)
    queue = np.empty(n, np.int64)
    tail = 0
    fresh = True  # nothing labelled yet: the counts are row lengths less a self-loop (O(n log d), no edge scan)
    for v in range(n):
        if done[v]:
            fresh = False
            break
    for v in range(n):
        if fresh:
            lo, hi = indptr[v], indptr[v + 1]
            c = hi - lo - _has(indices, lo, hi, v)
            dout[v] = c
            if c > 0:
                lo, hi = tptr[v], tptr[v + 1]
                c = hi - lo - _has(tind, lo, hi, v)
                din[v] = c
            if c == 0:
                queue[tail] = v
                tail += 1
            continue
        if done[v]:
            continue
        c = 0
        for e in range(indptr[v], indptr[v + 1]):
            w = indices[e]
            if w != v and not done[w]:
                c += 1
        dout[v] = c
        if c > 0:
            c = 0
            for e in range(tptr[v], tptr[v + 1]):
                u = tind[e]
                if u != v and not done[u]:
                    c += 1
            din[v] = c
        if c == 0:
            queue[tail] = v
            tail += 1
    for i in range(tail):  # labelled only now: the counts above saw them unlabelled
        v = queue[i]
        done[v] = True
        lab[v] = v
    head = 0
    while head < tail:
        v = queue[head]
        head += 1
        for e in range(indptr[v], indptr[v + 1]):
            w = indices[e]
            if not done[w]:
                din[w] -= 1
                if din[w] == 0:
                    done[w] = True
                    lab[w] = w
                    queue[tail] = w
                    tail += 1
        for e in range(tptr[v], tptr[v + 1]):
            u = tind[e]
            if not done[u]:
                dout[u] -= 1
                if dout[u] == 0:
                    done[u] = True
                    lab[u] = u
                    queue[tail] = u
                    tail += 1
    return tail


@numba.njit(cache=True, nogil=True)
def _has(indices, lo, hi, v):
    """1 if the sorted ``indices[lo:hi]`` hold ``v``, else 0 (binary search)."""
    end = hi
    while lo < hi:
        mid = (lo + hi) // 2
        if indices[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return 1 if lo < end and indices[lo] == v else 0


@numba.njit(cache=True, nogil=True)
def scc_fwbw(indptr, indices, tptr, tind, done, lab, pivot):
    """Label the SCC of ``pivot``: forward reach among the unlabelled, backward reach within it."""
    n = done.size
    mark = np.zeros(n, np.uint8)  # 1: reached forward, 2: and backward
    queue = np.empty(n, np.int64)
    mark[pivot] = 1
    queue[0] = pivot
    head, tail = 0, 1
    while head < tail:
        v = queue[head]
        head += 1
        for e in range(indptr[v], indptr[v + 1]):
            w = indices[e]
            if mark[w] == 0 and not done[w]:
                mark[w] = 1
                queue[tail] = w
                tail += 1
    mark[pivot] = 2
    queue[0] = pivot
    head, tail = 0, 1
    smallest = pivot
    while head < tail:
        v = queue[head]
        head += 1
        for e in range(tptr[v], tptr[v + 1]):
            u = tind[e]
            if mark[u] == 1:
                mark[u] = 2
                queue[tail] = u
                tail += 1
                if u < smallest:
                    smallest = u
    for i in range(tail):
        done[queue[i]] = True
        lab[queue[i]] = smallest
    return tail


@numba.njit(cache=True, nogil=True)
def scc_color(indptr, indices, tptr, tind, done, lab, prio):
    """Coloring rounds until every vertex is labelled; returns the number labelled.

    A round: searching forward from the unlabelled vertices in increasing
    priority, each over the still uncolored ones, gives every vertex the least
    priority of the vertices that reach it (the fixed point of min-first
    propagation); then each root (its color is its own priority) collects its
    SCC backward within its color.  Rounds work on the whole graph, skipping
    labelled vertices: after the first round few vertices are usually left,
    and a round costs O(n) plus their edges.  (Building the subgraph left
    after each round was slower on uk-2007-05: its first round is the costly
    one.)
    """
    n = done.size
    order = np.empty(n, np.int64)
    for v in range(n):
        order[prio[v]] = v
    left = 0
    for v in range(n):
        if not done[v]:
            left += 1
    total = 0
    color = np.empty(n, np.int64)
    queue = np.empty(n, np.int64)
    while total < left:
        color[:] = -1
        for p in range(n):
            r = order[p]
            if done[r] or color[r] >= 0:
                continue
            color[r] = p
            queue[0] = r
            head, tail = 0, 1
            while head < tail:
                v = queue[head]
                head += 1
                for e in range(indptr[v], indptr[v + 1]):
                    w = indices[e]
                    if color[w] < 0 and not done[w]:
                        color[w] = p
                        queue[tail] = w
                        tail += 1
        for p in range(n):
            r = order[p]
            if done[r] or color[r] != p:
                continue
            color[r] = -2  # reached backward: in r's SCC
            queue[0] = r
            head, tail = 0, 1
            smallest = r
            while head < tail:
                v = queue[head]
                head += 1
                for e in range(tptr[v], tptr[v + 1]):
                    u = tind[e]
                    if color[u] == p:
                        color[u] = -2
                        queue[tail] = u
                        tail += 1
                        if u < smallest:
                            smallest = u
            for i in range(tail):
                done[queue[i]] = True
                lab[queue[i]] = smallest
            total += tail
    return total
