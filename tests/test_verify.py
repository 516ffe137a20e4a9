"""Tests of la_graph.verify: right answers (from networkx / scipy) pass, wrong ones fail."""

from __future__ import annotations

import ast
import math
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from la_graph.exceptions import InvalidGraphError, InvalidSourceError, VerificationError
from la_graph.graph import Graph
from la_graph.verify import check_bfs, check_cc, check_mis, check_msf, check_scc, check_sssp

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------- strategies and references
@st.composite
def graphs(draw, directed=None, weighted=False, min_w=0, max_w=5):
    """Small random graphs: isolated vertices, self-loops, duplicates, many components."""
    n = draw(st.integers(1, 12))
    m = draw(st.integers(0, 2 * n))
    u = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    v = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    w = draw(st.lists(st.integers(min_w, max_w), min_size=m, max_size=m)) if weighted else None
    if directed is None:
        directed = draw(st.booleans())
    return Graph.from_edges(np.array(u, np.int64), np.array(v, np.int64),
                            None if w is None else np.array(w, float), n=n, directed=directed)


def bfs_ref(G, s):
    H = G.to_networkx()
    level = np.full(G.n, -1, np.int64)
    parent = np.full(G.n, -1, np.int64)
    for x, d in nx.single_source_shortest_path_length(H, s).items():
        level[x] = d
    for x, p in nx.bfs_predecessors(H, s):
        parent[x] = p
    parent[s] = s
    return level, parent


def res(level=None, parent=None, sources=None):
    return SimpleNamespace(level=level, parent=parent, sources=sources)


def cc_ref(G, strong=False):
    H = G.to_networkx()
    if strong:
        comps = nx.strongly_connected_components(H) if G.directed else nx.connected_components(H)
    else:
        comps = nx.weakly_connected_components(H) if G.directed else nx.connected_components(H)
    labels = np.empty(G.n, np.int64)
    for c in comps:
        labels[list(c)] = min(c)
    return labels


def sssp_ref(G, s):
    H = G.to_networkx()
    dist = np.full(G.n, np.inf)
    parent = np.full(G.n, -1, np.int64)
    d, paths = nx.single_source_dijkstra(H, s, weight="weight")  # paths form a tree
    for x, dx in d.items():
        dist[x] = dx
        parent[x] = paths[x][-2] if len(paths[x]) > 1 else s
    return dist, parent


def mis_ref(G, seed=0):
    H = G.to_networkx().to_undirected()
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    return np.array(sorted(nx.maximal_independent_set(H, seed=seed)), np.int64)


def msf_ref(G):
    H = G.to_networkx()
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    e = list(nx.minimum_spanning_edges(H, algorithm="kruskal", data=False))
    u = np.array([a for a, _ in e], np.int64)
    v = np.array([b for _, b in e], np.int64)
    return u, v


def weight_of(G, u, v):
    A = G.to_scipy()
    return float(sum(A[a, b] for a, b in zip(u.tolist(), v.tolist())))


def fails(match, fn, *args, **kw):
    with pytest.raises(VerificationError, match=match):
        fn(*args, **kw)


# ---------------------------------------------------------------------- independence of the checkers
def _imports(name):
    tree = ast.parse(Path(__file__).parents[1].joinpath("la_graph", name).read_text())
    mods = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            mods |= {base + a.name if base == "." else base for a in node.names}
    return mods


def test_verify_imports_only_numpy_scipy_and_its_own_loops():
    # no engine, no algorithm: the checkers are references of their own (compiled loops in _verify_kernels;
    # scipy's sparse solvers for the eigen-equations of Katz and HITS)
    assert _imports("verify.py") <= {"__future__", "numpy", "scipy.sparse", "scipy.sparse.linalg", "._validation",
                                     ".exceptions", "._verify_kernels"}
    assert _imports("_verify_kernels.py") <= {"__future__", "numpy", "numba"}


# ---------------------------------------------------------------------- BFS
@SETTINGS
@given(graphs(), st.data())
def test_bfs_right_answer_passes(G, data):
    s = data.draw(st.integers(0, G.n - 1))
    level, parent = bfs_ref(G, s)
    check_bfs(G, s, res(level, parent))
    check_bfs(G, s, res(level=level))
    check_bfs(G, s, res(parent=parent))
    srcs = np.array(data.draw(st.lists(st.integers(0, G.n - 1), min_size=1, max_size=4)))
    L, P = zip(*(bfs_ref(G, int(x)) for x in srcs))
    check_bfs(G, srcs, res(np.array(L), np.array(P)))
    check_bfs(G, None, res(np.array(L), np.array(P), sources=srcs))


@SETTINGS
@given(graphs(), st.data())
def test_bfs_one_wrong_level_fails(G, data):
    s = data.draw(st.integers(0, G.n - 1))
    level, parent = bfs_ref(G, s)
    v = data.draw(st.integers(0, G.n - 1))
    new = data.draw(st.integers(-1, G.n).filter(lambda x: x != level[v]))
    level[v] = new
    fails(rf"level\[{v}\] = {new}, expected", check_bfs, G, s, res(level, parent))


@SETTINGS
@given(graphs(), st.data())
def test_bfs_one_wrong_parent_fails(G, data):
    s = data.draw(st.integers(0, G.n - 1))
    level, parent = bfs_ref(G, s)
    reach = [x for x in range(G.n) if level[x] > 0]
    if not reach:
        return
    v = data.draw(st.sampled_from(reach))
    edges = set(zip(*(a.tolist() for a in G.edges())))
    valid = {p for p in range(G.n) if (p, v) in edges and level[p] == level[v] - 1}
    p = data.draw(st.integers(-1, G.n + 1).filter(lambda x: x not in valid))
    parent[v] = p
    fails(rf"parent\[{v}\] = {p}", check_bfs, G, s, res(level, parent))
    fails(rf"parent\[{v}\] = {p}", check_bfs, G, s, res(parent=parent))


def test_bfs_messages():
    # 0 -> 1 -> 3, 0 -> 2 -> 3, 1 -> 2; 4 isolated
    G = Graph.from_edges([0, 1, 0, 2, 1], [1, 3, 2, 3, 2], n=5, directed=True)
    level = np.array([0, 1, 1, 2, -1])
    parent = np.array([0, 0, 0, 1, -1])
    check_bfs(G, 0, res(level, parent))
    check_bfs(G, 0, res(level, np.array([0, 0, 0, 2, -1])))

    fails(r"^parent\[3\] = 4 but there is no edge 4 -> 3$", check_bfs, G, 0,
          res(level, np.array([0, 0, 0, 4, -1])))
    fails(r"^parent\[2\] = 1 is at level 1, expected level 0", check_bfs, G, 0,
          res(level, np.array([0, 0, 1, 1, -1])))
    fails(r"^parent\[0\] = -1, expected 0 \(the source\)$", check_bfs, G, 0,
          res(level, np.array([-1, 0, 0, 1, -1])))
    fails(r"^parent\[4\] = 3 but vertex 4 is unreachable from 0$", check_bfs, G, 0,
          res(level, np.array([0, 0, 0, 1, 3])))
    fails(r"^parent\[3\] = -1 but vertex 3 is reachable from 0$", check_bfs, G, 0,
          res(level, np.array([0, 0, 0, -1, -1])))
    fails(r"^parent\[3\] = 7 is not a vertex id", check_bfs, G, 0, res(level, np.array([0, 0, 0, 7, -1])))
    fails(r"^level\[3\] = 3, expected 2$", check_bfs, G, 0, res(np.array([0, 1, 1, 3, -1]), parent))
    fails(r"^level\[4\] = 3, expected -1 \(unreachable from 0\)$", check_bfs, G, 0,
          res(np.array([0, 1, 1, 2, 3]), parent))
    fails(r"^level\[0\] = 1, expected 0$", check_bfs, G, 0, res(np.array([1, 1, 1, 2, -1]), parent))
    # levels follow out-edges: from 3 nothing is reachable
    fails(r"level\[0\] = 2, expected -1", check_bfs, G, 3,
          res(np.array([2, 1, 1, 0, -1]), np.array([1, 3, 3, 3, -1])))


def test_bfs_multi_source_and_shapes():
    G = Graph.from_edges([0, 1, 2], [1, 2, 3], n=5)  # path 0-1-2-3, 4 isolated
    srcs = np.array([0, 3])
    L = np.array([[0, 1, 2, 3, -1], [3, 2, 1, 0, -1]])
    P = np.array([[0, 0, 1, 2, -1], [1, 2, 3, 3, -1]])
    check_bfs(G, srcs, res(L, P))
    check_bfs(G, [2], res(np.array([2, 1, 0, 1, -1]), np.array([1, 2, 2, 2, -1])))  # k=1 as 1-D
    L2 = L.copy()
    L2[1, 2] = 5
    fails(r"^level\[1, 2\] = 5, expected 1$", check_bfs, G, srcs, res(L2, P))
    P2 = P.copy()
    P2[1, 0] = 2
    fails(r"^parent\[1, 0\] = 2 but there is no edge 2 -> 0$", check_bfs, G, srcs, res(L, P2))
    fails(r"must have shape \(2, 5\)", check_bfs, G, srcs, res(L[0], None))
    fails(r"must have shape \(5,\)", check_bfs, G, 0, res(L, None))
    fails(r"must be an integer array", check_bfs, G, 0, res(L[0].astype(float), None))
    fails(r"neither level nor parent", check_bfs, G, 0, res())
    with pytest.raises(InvalidSourceError):
        check_bfs(G, 5, res(L[0], None))


# ---------------------------------------------------------------------- CC and SCC
@SETTINGS
@given(graphs(), st.data())
def test_cc_right_passes_and_any_other_labelling_fails(G, data):
    ref = cc_ref(G)
    check_cc(G, ref)
    check_cc(G, ref.astype(np.int32))
    other = np.array(data.draw(st.lists(st.integers(-1, G.n), min_size=G.n, max_size=G.n)))
    if np.array_equal(other, ref):
        check_cc(G, other)
    else:
        v = int(np.flatnonzero(other != ref)[0])
        fails(rf"^labels\[{v}\] = {other[v]}", check_cc, G, other)


@SETTINGS
@given(graphs(directed=True), st.data())
def test_scc_right_passes_and_any_other_labelling_fails(G, data):
    ref = cc_ref(G, strong=True)
    check_scc(G, ref)
    other = np.array(data.draw(st.lists(st.integers(0, G.n - 1), min_size=G.n, max_size=G.n)))
    if np.array_equal(other, ref):
        check_scc(G, other)
    else:
        v = int(np.flatnonzero(other != ref)[0])
        fails(rf"^labels\[{v}\] = {other[v]}", check_scc, G, other)


def test_cc_messages():
    G = Graph.from_edges([0, 1, 3, 5], [1, 2, 4, 6], n=8)  # {0,1,2} {3,4} {5,6} {7}
    ref = np.array([0, 0, 0, 3, 3, 5, 5, 7])
    check_cc(G, ref)
    swapped = ref.copy()
    swapped[[2, 3]] = swapped[[3, 2]]
    fails(r"^labels\[2\] = 3 but vertex 2 is not in the component of 3$", check_cc, G, swapped)
    merged = np.where(ref == 5, 3, ref)
    fails(r"^labels\[5\] = 3 but vertex 5 is not in the component of 3$", check_cc, G, merged)
    largest = np.array([2, 2, 2, 4, 4, 6, 6, 7])
    fails(r"^labels\[0\] = 2, expected 0 \(the smallest vertex id of its component\)$", check_cc, G, largest)
    fails(r"^labels\[7\] = 8 is not a vertex id in 0\.\.7$", check_cc, G, np.array([0, 0, 0, 3, 3, 5, 5, 8]))
    fails(r"must have shape \(8,\)", check_cc, G, ref[:-1])
    fails(r"must be an integer array", check_cc, G, ref.astype(float))
    # directed: weak components
    D = Graph.from_edges([0, 2], [1, 1], n=3, directed=True)
    check_cc(D, [0, 0, 0])
    fails(r"labels\[2\] = 2, expected 0", check_cc, D, [0, 0, 2])


def test_scc_messages():
    # 0 <-> 1 -> 2 <-> 3, 4 -> 4
    G = Graph.from_edges([0, 1, 1, 2, 3, 4], [1, 0, 2, 3, 2, 4], directed=True)
    check_scc(G, [0, 0, 2, 2, 4])
    fails(r"^labels\[2\] = 0 but vertex 2 is not in the strong component of 0$", check_scc, G, [0, 0, 0, 0, 4])
    fails(r"^labels\[2\] = 3, expected 2", check_scc, G, [0, 0, 3, 3, 4])
    # undirected: strong components are the connected components
    U = Graph.from_edges([0, 2], [1, 3], n=5)
    check_scc(U, [0, 0, 2, 2, 4])


# ---------------------------------------------------------------------- SSSP
@SETTINGS
@given(graphs(weighted=True), st.data())
def test_sssp_right_passes_and_wrong_distance_fails(G, data):
    s = data.draw(st.integers(0, G.n - 1))
    dist, parent = sssp_ref(G, s)
    check_sssp(G, s, dist)
    check_sssp(G, s, dist, parent)
    v = data.draw(st.integers(0, G.n - 1))
    delta = data.draw(st.sampled_from([-1.0, -0.5, 0.25, 3.0, math.inf]))
    bad = dist.copy()
    bad[v] = -1.0 if np.isinf(bad[v]) else bad[v] + delta
    fails(rf"^dist\[{v}\] = ", check_sssp, G, s, bad)
    srcs = np.array([s, v])
    D, P = zip(*(sssp_ref(G, int(x)) for x in srcs))
    check_sssp(G, srcs, np.array(D), np.array(P))


def test_sssp_messages():
    # 0 -1-> 1 -1-> 2, 0 -5-> 2, 2 -2-> 3, 4 unreachable
    G = Graph.from_edges([0, 1, 0, 2], [1, 2, 2, 3], w=[1.0, 1.0, 5.0, 2.0], n=5, directed=True)
    inf = np.inf
    dist = np.array([0.0, 1.0, 2.0, 4.0, inf])
    parent = np.array([0, 0, 1, 2, -1])
    check_sssp(G, 0, dist, parent)
    check_sssp(G, 0, dist.astype(np.float32), parent)
    check_sssp(G, 0, dist * (1 + 1e-12), parent)
    fails(r"^dist\[3\] = 3\.0, expected 4\.0$", check_sssp, G, 0, np.array([0.0, 1.0, 2.0, 3.0, inf]))
    fails(r"^dist\[3\] = 5\.0, expected 4\.0$", check_sssp, G, 0, np.array([0.0, 1.0, 2.0, 5.0, inf]))
    fails(r"^dist\[3\] = inf, expected 4\.0$", check_sssp, G, 0, np.array([0.0, 1.0, 2.0, inf, inf]))
    fails(r"^dist\[4\] = 9\.0, expected inf \(unreachable from 0\)$", check_sssp, G, 0,
          np.array([0.0, 1.0, 2.0, 4.0, 9.0]))
    fails(r"^dist\[0\] = 1\.0, expected 0 \(the source\)$", check_sssp, G, 0, dist + np.array([1, 1, 1, 1, 0]))
    fails(r"^dist\[1\] = nan is not a distance$", check_sssp, G, 0, np.array([0.0, np.nan, 2.0, 4.0, inf]))
    fails(r"^parent\[2\] = 0 but dist\[0\] \+ w\(0, 2\) = 5\.0 != dist\[2\] = 2\.0$",
          check_sssp, G, 0, dist, np.array([0, 0, 0, 2, -1]))
    fails(r"^parent\[3\] = 1 but there is no edge 1 -> 3$", check_sssp, G, 0, dist, np.array([0, 0, 1, 1, -1]))
    fails(r"^parent\[4\] = 3 but vertex 4 is unreachable", check_sssp, G, 0, dist, np.array([0, 0, 1, 2, 3]))
    fails(r"^parent\[2\] = -1 but vertex 2 is reachable", check_sssp, G, 0, dist, np.array([0, 0, -1, 2, -1]))
    fails(r"^parent\[0\] = 1, expected 0 \(the source\)$", check_sssp, G, 0, dist, np.array([1, 0, 1, 2, -1]))
    fails(r"must have shape \(5,\)", check_sssp, G, 0, dist[:4])


def test_sssp_zero_weight_cycle_parents_and_negative_weights():
    # 0 -> 1 (w 1), 1 <-> 2 with weight 0: parent[1] = 2, parent[2] = 1 satisfies every edge equation
    G = Graph.from_edges([0, 1, 2], [1, 2, 1], w=[1.0, 0.0, 0.0], directed=True)
    dist = np.array([0.0, 1.0, 1.0])
    check_sssp(G, 0, dist, np.array([0, 0, 1]))
    fails(r"never reaches the source 0", check_sssp, G, 0, dist, np.array([0, 2, 1]))
    # negative weights, no negative cycle
    N = Graph.from_edges([0, 0, 1], [1, 2, 2], w=[4.0, 1.0, -5.0], directed=True)
    check_sssp(N, 0, np.array([0.0, 4.0, -1.0]), np.array([0, 0, 1]))
    fails(r"dist\[2\] = 1\.0, expected -1\.0", check_sssp, N, 0, np.array([0.0, 4.0, 1.0]))
    # a negative cycle reachable from the source: nothing is right
    C = Graph.from_edges([0, 1, 2], [1, 2, 1], w=[1.0, -2.0, 1.0], directed=True)
    fails(r"negative cycle", check_sssp, C, 0, np.array([0.0, 1.0, -1.0]))
    # unweighted graphs count hops
    U = Graph.from_edges([0, 1], [1, 2])
    check_sssp(U, 2, np.array([2.0, 1.0, 0.0]), np.array([1, 2, 2]))


def test_sssp_triangle_inequality_catches_a_wrong_reference(monkeypatch):
    # the edge check does not trust scipy: with a reference that agrees with a wrong answer,
    # the triangle inequality still names the bad vertex
    G = Graph.from_edges([0, 1, 0, 2], [1, 2, 2, 3], w=[1.0, 1.0, 5.0, 2.0], directed=True)
    wrong = np.array([0.0, 1.0, 5.0, 7.0])
    monkeypatch.setattr(csgraph, "dijkstra", lambda *a, **k: wrong.copy())
    fails(r"^dist\[2\] = 5\.0 but edge 1 -> 2 of weight 1\.0 gives dist\[1\] \+ 1\.0 = 2\.0$",
          check_sssp, G, 0, wrong)


# ---------------------------------------------------------------------- MIS
@SETTINGS
@given(graphs(), st.data())
def test_mis_right_passes_and_one_change_fails(G, data):
    members = mis_ref(G, seed=data.draw(st.integers(0, 100)))
    mask = np.zeros(G.n, bool)
    mask[members] = True
    check_mis(G, members)
    check_mis(G, mask)
    check_mis(G, np.concatenate([members, members]))
    v = data.draw(st.integers(0, G.n - 1))
    flipped = mask.copy()
    flipped[v] = not flipped[v]
    if mask[v]:
        fails(r"is not in the set and has no neighbour in it", check_mis, G, flipped)
    else:
        fails(r"are both in the set but are adjacent", check_mis, G, flipped)


def test_mis_messages():
    G = Graph.from_edges([0, 1, 2, 4], [1, 2, 3, 4], n=6)  # path 0-1-2-3, self-loop at 4, 5 isolated
    check_mis(G, [0, 2, 4, 5])
    check_mis(G, [1, 3, 4, 5])
    fails(r"^vertices 2 and 3 are both in the set but are adjacent: the set is not independent$",
          check_mis, G, [0, 2, 3, 4, 5])
    fails(r"^vertex 4 is not in the set and has no neighbour in it: the set is not maximal$",
          check_mis, G, [0, 2, 5])
    fails(r"^vertex 2 is not in the set", check_mis, G, [0, 4, 5])
    fails(r"members\[1\] = 6 is not a vertex id", check_mis, G, [0, 6])
    fails(r"mask must have shape \(6,\)", check_mis, G, np.ones(5, bool))
    # direction is ignored
    D = Graph.from_edges([1], [0], n=2, directed=True)
    check_mis(D, [0])
    check_mis(D, [1])
    fails(r"vertices 0 and 1", check_mis, D, [0, 1])


# ---------------------------------------------------------------------- MSF
@SETTINGS
@given(graphs(directed=False, weighted=True, min_w=-3, max_w=4), st.data())
def test_msf_right_passes_and_swapped_edge_fails_iff_heavier(G, data):
    u, v = msf_ref(G)
    total = weight_of(G, u, v)
    check_msf(G, (u, v), weight=total)
    check_msf(G, np.stack([v, u], axis=1))
    rows, cols = G.edges()
    on_tree = {(min(a, b), max(a, b)) for a, b in zip(u.tolist(), v.tolist())}
    check_msf(G, np.array([(min(a, b), max(a, b)) in on_tree for a, b in zip(rows.tolist(), cols.tolist())], bool))
    check_msf(G, sp.coo_array((np.ones(u.size), (u, v)), shape=(G.n, G.n)))
    if not u.size:
        return
    # drop one tree edge, reconnect with a non-tree edge crossing the cut
    j = data.draw(st.integers(0, u.size - 1))
    keep = np.arange(u.size) != j
    T = sp.coo_array((np.ones(u.size - 1), (u[keep], v[keep])), shape=(G.n, G.n))
    _, comp = csgraph.connected_components(T, directed=False)
    cross = [(a, b) for a, b in zip(rows.tolist(), cols.tolist())
             if a < b and comp[a] != comp[b] and (a, b) != (min(u[j], v[j]), max(u[j], v[j]))]
    # a non-tree edge closing a cycle makes it not a forest
    extra = [(a, b) for a, b in zip(rows.tolist(), cols.tolist())
             if a < b and (a, b) not in on_tree]
    if extra:
        a, b = data.draw(st.sampled_from(extra))
        fails(r"the forest has a cycle", check_msf, G, (np.append(u, a), np.append(v, b)))
    fails(r"connected in G but not in the forest", check_msf, G, (u[keep], v[keep]))
    if not cross:
        return
    a, b = data.draw(st.sampled_from(cross))
    u2, v2 = np.append(u[keep], a), np.append(v[keep], b)
    if weight_of(G, u2, v2) > total:
        fails(r"^forest weight .*, expected", check_msf, G, (u2, v2))
    else:
        check_msf(G, (u2, v2))


def test_msf_messages():
    # square 0-1-2-3-0 with a diagonal 0-2, plus edge 4-5 and isolated 6
    G = Graph.from_edges([0, 1, 2, 3, 0, 4], [1, 2, 3, 0, 2, 5], w=[1.0, 2.0, 1.0, 5.0, 3.0, 0.0], n=7)
    good = ([0, 1, 2, 4], [1, 2, 3, 5])
    check_msf(G, good, weight=4.0)
    check_msf(G, np.array([[1, 0], [2, 1], [3, 2], [5, 4]]))
    fails(r"^forest weight 5\.0, expected 4\.0", check_msf, G, ([0, 0, 2, 4], [1, 2, 3, 5]))
    fails(r"^the forest has a cycle: the tree of vertex 0 has 4 edges on 4 vertices$",
          check_msf, G, ([0, 1, 2, 0, 4], [1, 2, 3, 2, 5]))
    fails(r"the forest has a cycle", check_msf, G, ([0, 1, 2, 4, 5], [1, 2, 3, 5, 4]))  # repeated edge
    fails(r"self-loop", check_msf, Graph.from_edges([0, 1], [1, 1]), ([0, 1], [1, 1]))
    fails(r"^vertices 4 and 5 are connected in G but not in the forest", check_msf, G, ([0, 1, 2], [1, 2, 3]))
    fails(r"^forest edge 3 = \(1, 3\) is not an edge of G$", check_msf, G, ([0, 1, 2, 1], [1, 2, 3, 3]))
    fails(r"^forest edge 0 = \(0, 9\) has an endpoint outside", check_msf, G, ([0], [9]))
    fails(r"^reported weight 5\.0 but the forest's edges weigh 4\.0$", check_msf, G, good, weight=5.0)
    fails(r"mask must have one entry per stored edge", check_msf, G, np.ones(3, bool))
    fails(r"an \(m, 2\) array", check_msf, G, np.zeros((3, 3), np.int64))
    with pytest.raises(InvalidGraphError):
        check_msf(Graph.from_edges([0], [1], directed=True), ([0], [1]))
    # zero and negative weights and an unweighted graph
    Z = Graph.from_edges([0, 1, 0], [1, 2, 2], w=[0.0, -1.0, 0.0])
    check_msf(Z, ([0, 1], [1, 2]), weight=-1.0)
    fails(r"forest weight 0\.0, expected -1\.0", check_msf, Z, ([0, 0], [1, 2]))
    U = Graph.from_edges([0, 1, 0], [1, 2, 2])
    check_msf(U, ([0, 0], [1, 2]), weight=2)


# ---------------------------------------------------------------------- scale
def test_checkers_are_vectorized_on_a_large_graph():
    rng = np.random.default_rng(1)
    n, m = 200_000, 1_000_000
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)
    G = Graph.from_edges(u, v, w=rng.random(m) + 0.1, n=n)
    A = G.to_scipy()
    d, pred = csgraph.shortest_path(A, unweighted=True, indices=0, return_predecessors=True)
    level = np.where(np.isinf(d), -1, d).astype(np.int64)
    parent = np.where(pred < 0, -1, pred).astype(np.int64)
    parent[0] = 0
    check_bfs(G, 0, res(level, parent))
    dist, pred = csgraph.dijkstra(A, indices=0, return_predecessors=True)
    parent = np.where(pred < 0, -1, pred).astype(np.int64)
    parent[0] = 0
    check_sssp(G, 0, dist, parent)
    _, comp = csgraph.connected_components(A)
    labels = np.unique(comp, return_index=True)[1][comp]
    check_cc(G, labels)
    T = csgraph.minimum_spanning_tree(A)
    check_msf(G, T)


def test_compiled_references_agree_with_the_scipy_ones():
    """The compiled loops that check large graphs give the sums of the vectorized references."""
    from la_graph import _verify_kernels as K
    from la_graph import generators
    from la_graph import verify as Vf

    graphs = [generators.rmat(9, 8, seed=3), generators.rmat(9, 6, seed=4, directed=True), generators.grid_2d(20, 15),
              Graph.from_edges([0, 1, 1, 2, 3], [1, 1, 2, 0, 3], n=6, directed=True)]
    for G in graphs:
        srcs = np.arange(0, G.n, 3)
        for endpoints in (False, True):
            np.testing.assert_allclose(
                K.brandes_sums(G.indptr.astype(np.int64), G.indices.astype(np.int64), G.n, srcs, endpoints, 3),
                Vf._bc_reference(G, srcs, endpoints), rtol=1e-12, atol=1e-9)
        S = Vf._simple_undirected(G)
        assert Vf._triangle_total(Vf._oriented(S)) == int(Vf._closed_pairs(S, S).sum()) // 6


def test_checkers_import_csgraph_on_first_use():
    """``import la_graph`` leaves scipy.sparse.csgraph (and the scipy.linalg it pulls in: 0.16 s) to the first
    checker that needs it."""
    code = "import sys, la_graph; print('scipy.sparse.csgraph' in sys.modules, 'scipy.linalg' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
