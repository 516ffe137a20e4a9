import contextlib
import dataclasses
import itertools

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from hypothesis import given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph.algorithms import steps
from la_graph.algorithms.bfs import bfs_pull, bfs_push
from la_graph.verify import check_bfs

from .graphs import KARATE, REAL, SMALL, bump, real


@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("direction", ["auto", "push", "pull"])
def test_small_graphs(engine, name, direction):
    G = SMALL[name]()
    for s in {0, G.n // 2, G.n - 1} if G.n else []:
        r = lg.bfs(G, s, direction=direction, engine=engine)
        check_bfs(G, s, r)
        assert r.level.dtype == np.int64 and r.parent.dtype == np.int64


@pytest.mark.parametrize("name", ["rmat", "rmat_directed", "grid", "caveman", "uniform_directed"])
def test_level_only_and_parent_only(engine, name):
    G = SMALL[name]()
    full = lg.bfs(G, 3, engine=engine)
    lev = lg.bfs(G, 3, parent=False, engine=engine)
    par = lg.bfs(G, 3, level=False, engine=engine)
    assert lev.parent is None and par.level is None
    np.testing.assert_array_equal(lev.level, full.level)
    check_bfs(G, 3, par)


@pytest.mark.parametrize("name", ["rmat", "rmat_directed", "grid", "two_stars", "directed_cycle"])
def test_multi_source(engine, name):
    G = SMALL[name]()
    sources = [0, G.n - 1, 1, 0]  # a repeated source is allowed: one row each
    r = lg.bfs(G, sources=sources, engine=engine)
    assert r.level.shape == (4, G.n) and r.parent.shape == (4, G.n)
    np.testing.assert_array_equal(r.sources, sources)
    check_bfs(G, np.asarray(sources), r)
    for i, s in enumerate(sources):
        np.testing.assert_array_equal(r.level[i], lg.bfs(G, s, engine=engine).level)


@pytest.mark.parametrize("name", ["rmat", "rmat_directed", "grid", "uniform_directed", "two_stars"])
@pytest.mark.parametrize("direction", ["auto", "push", "pull"])
def test_algebraic_steps_give_the_same_levels(engine, name, direction):
    G = SMALL[name]()
    for s in (0, G.n // 2):
        with steps.algebraic("bfs_search", "bfs_push", "bfs_pull"):
            r = lg.bfs(G, s, direction=direction, engine=engine)
        check_bfs(G, s, r)
        np.testing.assert_array_equal(r.level, lg.bfs(G, s, direction=direction, engine=engine).level)


@pytest.mark.parametrize("fused", [True, False], ids=["fused", "algebraic"])
@pytest.mark.parametrize("name", ["rmat_directed", "uniform_directed", "grid"])
def test_steps_count_the_found_in_edges(engine, fused, name):
    """bfs_push / bfs_pull return the in-degree sum of what they found (the direction choice counts on it)."""
    E = engine
    push, pull = (bfs_push, bfs_pull) if fused else (bfs_push.algebraic, bfs_pull.algebraic)
    G = SMALL[name]()
    n, indeg = G.n, G.in_degree
    ids = E.id_dtype(n)
    for limit in (0, 10, G.nnz):
        pi = E.hint(E.vector_from_coo([0], 0, n, dtype=ids), "dense")
        q = E.vector_from_coo([0], 0, n, dtype=ids)
        before = E.to_numpy(pi, fill=-1) >= 0
        q, k, nq, found, scanned, found_in = push(E, G, q, pi, None, 0, limit)
        after = E.to_numpy(pi, fill=-1) >= 0
        assert found == (after & ~before).sum() and found_in == indeg[after & ~before].sum()
        if nq:
            q, k2, nq, found, found_in = pull(E, G, q, pi, None, k + 1)   # to the end
            new = (E.to_numpy(pi, fill=-1) >= 0) & ~after
            assert nq == 0 and found == new.sum() and found_in == indeg[new].sum()


@pytest.mark.parametrize("name", ["rmat_directed", "uniform_directed", "grid", "caveman"])
@pytest.mark.parametrize("min_frontier", [-1, 0, 3, 30, 10**9])
def test_pull_stretch_stops_where_beamer_turns_back(engine, name, min_frontier):
    """An engine's fused pull levels stop where the algebra's level-by-level loop stops, with the same counts."""
    G = SMALL[name]()
    n = G.n
    got = []
    E = engine
    for pull in (bfs_pull.algebraic, bfs_pull):
        lev = E.hint(E.vector_from_coo([0], 0, n, dtype=np.int64), "dense")
        q = E.vector_from_coo([0], 0, n, dtype=np.int64)
        q, k, nq, found, found_in = pull(E, G, q, None, lev, 1, min_frontier)
        got.append((k, nq, found, found_in, sorted(E.to_coo(q)[0].tolist()), E.to_numpy(lev, fill=-1).tolist()))
    assert got[0] == got[1]
    k, nq, found, found_in, frontier, level = got[0]
    level = np.asarray(level)
    ref = csgraph.shortest_path(G.to_scipy(), unweighted=True, indices=0)
    reached = level >= 0
    np.testing.assert_array_equal(level[reached], ref[reached])    # the levels it did are right
    assert found == reached.sum() - 1 and found_in == G.in_degree[reached].sum() - G.in_degree[0]
    assert sorted(np.flatnonzero(level == k).tolist()) == frontier and nq == len(frontier)
    if min_frontier == -1:
        assert nq == 0


def test_engines_agree_on_levels(engine):
    G = SMALL["rmat"]()
    np.testing.assert_array_equal(lg.bfs(G, 5, engine=engine).level, lg.bfs(G, 5, engine="cpu").level)


@given(
    n=st.integers(1, 40),
    edges=st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39)), max_size=120),
    directed=st.booleans(),
    data=st.data(),
)
@settings(max_examples=60, deadline=None)
def test_property_random_graphs(n, edges, directed, data):
    edges = [(u % n, v % n) for u, v in edges]
    u = [e[0] for e in edges]
    v = [e[1] for e in edges]
    G = lg.Graph.from_edges(u, v, n=n, directed=directed)
    s = data.draw(st.integers(0, n - 1))
    direction = data.draw(st.sampled_from(["auto", "push", "pull"]))
    r = lg.bfs(G, s, direction=direction)
    check_bfs(G, s, r)


@pytest.mark.data
@pytest.mark.parametrize("name", REAL)
def test_real_graphs(shared_data, name):
    G = real(shared_data, name)
    s = int(np.argmax(G.out_degree))  # a hub: reaches much of the graph
    r = lg.bfs(G, s)
    check_bfs(G, s, r)
    order, pred = csgraph.breadth_first_order(G.to_scipy(), s, directed=G.directed)
    assert np.count_nonzero(r.level >= 0) == order.size


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "source, exc, match",
    [
        (-1, lg.InvalidSourceError, "source -1 is out of range 0..9"),
        (10, lg.InvalidSourceError, "source 10 is out of range 0..9"),
        (2.0, lg.InvalidSourceError, "integer vertex id, got 2.0"),
        ("0", lg.InvalidSourceError, "integer vertex id"),
        (True, lg.InvalidSourceError, "integer vertex id"),
    ],
)
def test_bad_source(source, exc, match):
    G = SMALL["path"]()
    with pytest.raises(exc, match=match):
        lg.bfs(G, source)
    assert issubclass(exc, IndexError)


def test_bad_arguments():
    G = SMALL["path"]()
    with pytest.raises(lg.InvalidSourceError, match="exactly one of"):
        lg.bfs(G)
    with pytest.raises(lg.InvalidSourceError, match="exactly one of"):
        lg.bfs(G, 0, sources=[1])
    with pytest.raises(lg.InvalidSourceError, match=r"sources\[1\] = 12 is out of range 0..9"):
        lg.bfs(G, sources=[0, 12])
    with pytest.raises(lg.InvalidSourceError, match="at least one"):
        lg.bfs(G, sources=[])
    with pytest.raises(lg.InvalidArgumentError, match="direction must be one of"):
        lg.bfs(G, 0, direction="sideways")
    with pytest.raises(lg.InvalidArgumentError, match="level=True or parent=True"):
        lg.bfs(G, 0, level=False, parent=False)
    with pytest.raises(lg.InvalidArgumentError, match=r"direction must be one of .*, got \['push'\]"):
        lg.bfs(G, 0, direction=["push"])               # unhashable: not a TypeError from the set lookup
    with pytest.raises(lg.InvalidArgumentError, match=r"output must be one of .*, got \['numpy'\]"):
        lg.bfs(G, 0, output=["numpy"])
    with pytest.raises(lg.InvalidArgumentError, match="level must be True or False, got 'no'"):
        lg.bfs(G, 0, level="no")
    with pytest.raises(lg.InvalidArgumentError, match="parent must be True or False, got None"):
        lg.bfs(G, 0, parent=None)
    with pytest.raises(lg.InvalidGraphError, match=r"got scipy.csr_\w+; Graph.from_scipy\(A\) converts"):
        lg.bfs(G.to_scipy(), 0)
    with pytest.raises(lg.InvalidGraphError, match=r"got networkx.Graph; Graph.from_networkx\(G\) converts it"):
        lg.bfs(G.to_networkx(), 0)
    with pytest.raises(lg.InvalidArgumentError, match="engine must be one of"):
        lg.bfs(G, 0, engine="tpu")


def test_empty_graph_has_no_source():
    with pytest.raises(lg.InvalidSourceError, match="no vertices"):
        lg.bfs(SMALL["empty"](), 0)


@pytest.mark.parametrize("level, parent", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("direction", ["auto", "push", "pull"])
def test_source_without_out_edges(engine, level, parent, direction):
    """A source with no out-edge reaches only itself (the CPU engine answers without searching)."""
    G = lg.Graph.from_edges([1, 2, 3], [0, 0, 1], n=5, directed=True)
    r = lg.bfs(G, 0, level=level, parent=parent, direction=direction, engine=engine)
    want = np.array([0, -1, -1, -1, -1])
    if level:
        np.testing.assert_array_equal(r.level, want)
        assert r.level.dtype == np.int64
    if parent:
        np.testing.assert_array_equal(r.parent, want)
        assert r.parent.dtype == np.int64
    assert (r.level is None) != level and (r.parent is None) != parent


@pytest.mark.parametrize("branchless", [False, True], ids=["branchy", "branchless"])
@pytest.mark.parametrize("name", ["rmat_directed", "grid", "uniform_directed", "two_stars"])
def test_cpu_push_forms(monkeypatch, name, branchless):
    """The CPU engine's two forms of a push level (la_graph/engines/cpu/fused/bfs.py's push_levels) give the algebra's levels."""
    from la_graph.engines.cpu.fused import bfs as fused

    monkeypatch.setattr(fused, "BFS_BRANCHLESS_MIN_N", 0 if branchless else 1 << 62)
    monkeypatch.setattr(fused, "BFS_BRANCHLESS_DEGREE", 1e9)
    G = SMALL[name]()   # a fresh graph: the form is chosen once per graph
    for s, direction in itertools.product((0, G.n // 2, G.n - 1), ("auto", "push")):
        for level, parent in ((True, True), (True, False), (False, True)):
            r = lg.bfs(G, s, level=level, parent=parent, direction=direction, engine="cpu")
            check_bfs(G, s, r)
            with steps.algebraic("bfs_search"):
                ref = lg.bfs(G, s, level=True, direction=direction, engine="cpu")
            np.testing.assert_array_equal((r.level if level else r.parent) >= 0, ref.level >= 0)
            if level:
                np.testing.assert_array_equal(r.level, ref.level)


# ---------------------------------------------------------------------- cases of the suite-wide tests

def _bfs(G, E, direction, whole=True):
    """BFS from 0; ``whole=False``: with the whole-search step as algebra, so that its stretch steps run."""
    with contextlib.nullcontext() if whole else steps.algebraic("bfs_search"):
        r = lg.bfs(G, 0, direction=direction, engine=E)
    check_bfs(G, 0, r)
    return {"level": r.level}


def _bfs_search(G, E):
    out = {}
    for direction in ("auto", "push", "pull"):
        for s in (0, G.n // 2, int(np.argmax(G.out_degree)), int(np.argmin(G.out_degree))):
            for level, parent in ((True, True), (True, False), (False, True)):
                r = lg.bfs(G, s, direction=direction, level=level, parent=parent, engine=E)
                check_bfs(G, s, r)
                key = f"{direction} from {s}, level={level}, parent={parent}"
                out[key + ": reached"] = (r.parent if parent else r.level) >= 0
                if level:
                    out[key + ": level"] = r.level
    return out


def _bfs_multi(G, E):
    src = np.r_[np.arange(0, G.n, max(G.n // 70, 1)), 0]      # more than 64 sources (two launches), one twice
    out = {}
    for level, parent in ((True, True), (True, False), (False, True)):
        r = lg.bfs(G, sources=src, level=level, parent=parent, engine=E)
        check_bfs(G, None, r)
        out[f"level={level}, parent={parent}: reached"] = (r.parent if parent else r.level) >= 0
        if level:
            out[f"level={level}, parent={parent}: level"] = r.level
    return out


# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "bfs_push": ("undirected", lambda G, E: _bfs(G, E, "push", whole=False)),
    "bfs_pull": ("directed", lambda G, E: _bfs(G, E, "pull", whole=False)),
    "bfs_search": ("directed", _bfs_search),
    "bfs_multi": ("directed", _bfs_multi),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "bfs": (KARATE, (0,), {}, lambda r: dataclasses.replace(r, level=bump(r.level))),
}
