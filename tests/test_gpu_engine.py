"""Tests of the GPU engine itself (the conformance suite in test_engine_ops.py covers the interface).

Skipped where CuPy or a CUDA device is missing.  Here: the out-of-memory and CUDA
error paths, the kernel-module cache, the int32 / int64 index paths, the BFS
kernels (thin and wide launches, the pull level), the immutability of stored arrays, the fused
steps (their signatures, where they decline, FastSV against its algebra), the near-far SSSP
kernel under each of its knobs, and
CPU/GPU agreement on BFS levels and connected-component labels for generated families.
The conformance suite is also run once more on an engine that keeps every
matrix in CSR with int64 indices (the paths small dense matrices never take).
"""

from __future__ import annotations

import contextlib
import inspect

import numpy as np
import pytest

import la_graph as lg
from la_graph import generators
from la_graph.algorithms import steps
from la_graph.algorithms.bfs import RULE as BFS_RULE, bfs_pull, bfs_push
from la_graph.algorithms.connected_components import fastsv_round
from la_graph.algorithms.scc import _pivot as scc_pivot, scc_fwbw, scc_trim
from la_graph.engines.base import Declined
from la_graph.verify import check_bfs, check_cc, check_sssp

try:
    _GPU = lg.get_engine("gpu")
except lg.EngineUnavailable as exc:  # no CuPy, or no CUDA device
    pytest.skip(f"gpu engine unavailable: {exc}", allow_module_level=True)

import cupy  # noqa: E402  (only where the engine could start)

from la_graph.engines import gpu as gpu_mod  # noqa: E402

pytestmark = pytest.mark.gpu

FAMILIES = {
    "grid": lambda: generators.grid_2d(40, 31),
    "grid_periodic": lambda: generators.grid_2d(17, 23, periodic=True),
    "path": lambda: generators.path(300),
    "star": lambda: generators.star(200),
    "circulant": lambda: generators.circulant(500, [1, 9, 40]),
    "hypercube": lambda: generators.hypercube(9),
    "caveman": lambda: generators.caveman(30, 7),
    "connected_caveman": lambda: generators.connected_caveman(20, 6),
    "rmat": lambda: generators.rmat(12, 8, seed=3),
    "rmat_directed": lambda: generators.rmat(11, 8, seed=4, directed=True),
    "erdos_renyi": lambda: generators.erdos_renyi(2000, 0.0008, seed=5),
    "uniform_directed": lambda: generators.uniform(3000, 5000, seed=6, directed=True),
}


@pytest.fixture(scope="module")
def E():
    return _GPU


@pytest.fixture(scope="module")
def E64():
    """An engine that keeps every matrix in CSR with int64 indices."""
    return gpu_mod.GPUEngine(index_dtype="int64", dense_limit=0)


# ---------------------------------------------------------------- memory and errors
def test_out_of_memory_is_reported(E, monkeypatch):
    G = generators.grid_2d(60, 60)                       # a fresh graph: nothing cached on it
    monkeypatch.setattr(cupy.cuda.runtime, "memGetInfo", lambda: (4096, 80 << 30))
    with pytest.raises(lg.OutOfDeviceMemory, match=r"needs about [\d,]+ bytes .* only 4,096 bytes are free") as info:
        E.matrix(G)
    assert "engine='cpu'" in str(info.value)
    assert isinstance(info.value, MemoryError) and isinstance(info.value, lg.LaGraphError)
    with pytest.raises(lg.OutOfDeviceMemory):
        lg.bfs(G, 0, engine=E)
    with pytest.raises(lg.OutOfDeviceMemory):
        lg.connected_components(G, engine=E)
    monkeypatch.undo()
    np.testing.assert_array_equal(lg.bfs(G, 0, engine=E).level, lg.bfs(G, 0, engine="cpu").level)


def test_cupy_out_of_memory_becomes_out_of_device_memory(E, monkeypatch):
    def boom(*args, **kwargs):
        raise cupy.cuda.memory.OutOfMemoryError(1 << 40, 1 << 30)
    u = E.iota(4)
    monkeypatch.setattr(gpu_mod.primitives, "_cast", boom)
    with pytest.raises(lg.OutOfDeviceMemory, match="engine='cpu'"):
        E.ewise_add(u, u, "plus")


def test_cuda_errors_become_lagraph_errors(E, monkeypatch):
    A = E.matrix(generators.path(5))
    u = E.iota(5)

    def failing(*args, **kwargs):
        def launch(*a, **k):
            raise cupy.cuda.runtime.CUDARuntimeError(700)   # cudaErrorIllegalAddress
        return launch
    monkeypatch.setattr(gpu_mod.primitives, "_kernel", failing)
    with pytest.raises(lg.LaGraphError, match="CUDA error.*engine='cpu'"):
        E.mxv(A, u, "min_second")
    monkeypatch.setattr(gpu_mod.fused.connected_components, "_kernel", failing)
    f = E.iota(5)
    with pytest.raises(lg.LaGraphError, match="fastsv_round: CUDA error"):   # the fused steps too
        E.fused_steps["fastsv_round"](E, A, f, E.copy(f), E.copy(f))


def test_kernels_compiled_once_and_cached(E, monkeypatch):
    G = generators.grid_2d(9, 7)
    lg.bfs(G, 0, engine=E)
    lg.connected_components(G, engine=E)
    E.mxv(E.matrix(G), E.iota(G.n), "min_second")
    files = gpu_mod.kernel_files()
    assert {"semiring.cu", "bfs.cu", "fastsv.cu", "connected_components.cu", "apsp.cu", "msf.cu", "mis.cu", "sssp.cu",
            "scc.cu"} <= set(files)
    mods = {f: gpu_mod.kernel_module(f) for f in files}                # every source compiles
    for f in files:
        assert gpu_mod.kernel_module(f) is mods[f]
        assert gpu_mod.kernels._MODULES[(f, cupy.cuda.runtime.getDevice())] is mods[f]

    def no_compiling(*args, **kwargs):
        raise AssertionError("a kernel module was compiled twice")
    monkeypatch.setattr(cupy, "RawModule", no_compiling)
    for direction in ("push", "pull", "auto"):
        lg.bfs(G, 3, engine=E, direction=direction)
    lg.connected_components(G, engine=E)
    lg.bfs(G, sources=[0, 5], engine=E)


# ---------------------------------------------------------------- storage
def test_int32_and_int64_index_paths(E, E64):
    G = generators.rmat(10, 8, seed=7)
    A32, A64 = E.matrix(G), E64.matrix(G)
    assert A32.indices.dtype == np.int32 and A32.indptr.dtype == np.int32
    assert A64.indices.dtype == np.int64 and A64.indptr.dtype == np.int64
    assert E.matrix(G) is A32 and E64.matrix(G) is A64          # cached per index width
    cpu = lg.bfs(G, 1, engine="cpu")
    for eng in (E, E64):
        for direction, stretches in (("auto", False), ("auto", True), ("push", True), ("pull", True)):
            # stretches: bfs_push / bfs_pull, not the one-launch search
            with steps.algebraic("bfs_search") if stretches else contextlib.nullcontext():
                r = lg.bfs(G, 1, engine=eng, direction=direction)
            np.testing.assert_array_equal(r.level, cpu.level)
            check_bfs(G, 1, r)
        np.testing.assert_array_equal(lg.connected_components(G, engine=eng), lg.connected_components(G, engine="cpu"))
        x = eng.vector_from_numpy(np.arange(G.n) % 7)
        np.testing.assert_array_equal(eng.to_numpy(eng.mxv(eng.matrix(G), x, "plus_second"), fill=0),
                                      G.to_scipy() @ (np.arange(G.n) % 7))


@pytest.mark.parametrize("op, thunk", [("tril", None), ("triu", 1), ("diag", 0), ("diag", -2), ("offdiag", None),
                                       ("rowle", 700), ("rowgt", 700)])
def test_structural_select_by_rows(E, E64, op, thunk):
    """select.cu's row-by-row select (hubs with rows of hundreds of entries, self-loops, weights) equals the
    CPU engine's, in both index widths, and leaves the input without the key of every entry (as reduce does)."""
    G = generators.rmat(10, 16, seed=2, directed=True, weights=(1, 9), self_loops=True)
    C = lg.get_engine("cpu")
    want = C.to_numpy(C.select(C.matrix(G), op, thunk), fill=0)
    for eng in (E, E64):
        A = eng.matrix(G)
        S = eng.select(A, op, thunk)
        assert not S.dense and "keys" not in A._cache, (op, eng)
        np.testing.assert_array_equal(eng.to_numpy(S, fill=0), want)
        assert S.indices.dtype == A.indices.dtype
        for monoid in ("min", "max", "plus"):                   # a reduce reads the values alone too
            assert eng.reduce(A, monoid) == C.reduce(C.matrix(G), monoid)
        assert "keys" not in A._cache


def test_graph_matrices_are_cached_on_the_graph(E):
    G = generators.rmat(8, 4, seed=1, directed=True)
    A, AT = E.matrix(G), E.matrix(G, transpose=True)
    assert E.matrix(G) is A and E.matrix(G, transpose=True) is AT
    assert any(k[0] == "gpu" for k in G._engine_cache)
    np.testing.assert_array_equal(E.to_numpy(AT, fill=False), G.to_scipy().toarray().T != 0)
    U = generators.grid_2d(4, 5)
    assert E.matrix(U, transpose=True) is E.matrix(U)          # undirected: A' is A


def test_stored_arrays_are_never_written_in_place(E):
    G = generators.grid_2d(30, 30)
    n = G.n
    pi = E.vector_from_coo([0], 0, n, dtype=np.int32)
    lev = E.vector_from_coo([0], 0, n, dtype=np.int32)
    pi_copy, lev_copy = E.copy(pi), E.copy(lev)
    q = E.vector_from_coo([0], 0, n, dtype=np.int32)
    q, k, nq, found, *_ = E.fused_steps["bfs_push"](E, G, q, pi, lev, 0, G.nnz)   # a limit no level reaches
    assert nq == 0 and found == n - 1 and k == 59             # the last level finds nothing
    assert E.nvals(pi_copy) == 1 and E.nvals(lev_copy) == 1    # the copies kept their arrays
    assert E.nvals(pi) == n and E.nvals(lev) == n
    f = E.iota(n)
    f_copy = E.copy(f)
    gp, mngp = E.copy(f), E.copy(f)
    E.fused_steps["fastsv_round"](E, E.matrix(G), f, gp, mngp)
    np.testing.assert_array_equal(E.to_numpy(f_copy), np.arange(n))


def test_to_device_keeps_results_on_the_gpu(E):
    v = E.vector_from_coo([1, 3], np.array([4, 5]), 5, dtype=np.int64)
    d = E.to_device(v, fill=-1)
    assert isinstance(d, cupy.ndarray) and d.dtype == np.int64
    np.testing.assert_array_equal(cupy.asnumpy(d), E.to_numpy(v, fill=-1))
    M = E.matrix(generators.path(4))
    assert E.to_device(M, fill=False).shape == (4, 4)
    with pytest.raises(lg.InvalidArgumentError, match="fill"):
        E.to_device(v)


# ---------------------------------------------------------------- BFS kernels
# bfs_push's launch shapes: (BFS_TINY_EDGES, BFS_THIN_EDGES, BFS_THIN_BLOCKS, BFS_BLOCK_ENTRIES): thin
# launches only, wide only, switching between them; the one-block kernel alone (its shared queue as large as
# the device allows, or of 8 entries: levels that outgrow it go on in the thin launch), and all three shapes
BFS_MODES = {"thin": (0, 1 << 40, 16, None), "one thin block": (0, 1 << 40, 1, None), "wide": (0, 0, 16, None),
             "switching": (0, 64, 3, None), "block": (1 << 40, 1 << 41, 16, None),
             "block of 8 entries": (1 << 40, 1 << 41, 16, 8), "three shapes": (16, 64, 3, 6)}


def _engine_in(mode, index_dtype=None):
    eng = gpu_mod.GPUEngine(index_dtype=index_dtype)
    eng.BFS_TINY_EDGES, eng.BFS_THIN_EDGES, eng.BFS_THIN_BLOCKS, eng.BFS_BLOCK_ENTRIES = BFS_MODES[mode]
    return eng


@pytest.mark.parametrize("mode", list(BFS_MODES))
@pytest.mark.parametrize("name", ["grid", "rmat", "rmat_directed", "star", "uniform_directed"])
def test_bfs_push_kernels(E, name, mode):
    G = FAMILIES[name]()
    eng = _engine_in(mode)
    cpu = lg.bfs(G, 0, engine="cpu")
    for level, parent in ((True, True), (True, False), (False, True)):
        with steps.algebraic("bfs_search"):                 # the push stretches, not the one-launch search
            r = lg.bfs(G, 0, engine=eng, direction="push", level=level, parent=parent)
        if level:
            np.testing.assert_array_equal(r.level, cpu.level)
        if parent:
            check_bfs(G, 0, r)


@pytest.mark.parametrize("mode", ["block", "block of 8 entries", "three shapes"])
@pytest.mark.parametrize("name", ["grid", "rmat", "star"])
def test_bfs_push_block_in_int64_indices(name, mode):
    """The one-block kernel's int64 instantiation (32-byte entries in its shared queue)."""
    G = FAMILIES[name]()
    eng = _engine_in(mode, "int64")
    assert eng.matrix(G).indices.dtype == np.int64
    with steps.algebraic("bfs_search"):
        r = lg.bfs(G, 0, engine=eng, direction="push")
    np.testing.assert_array_equal(r.level, lg.bfs(G, 0, engine="cpu").level)
    check_bfs(G, 0, r)


@pytest.mark.parametrize("mode", list(BFS_MODES))
def test_bfs_push_splits_long_rows(mode):
    """Rows longer than a queue entry's piece (a star's hub, a vertex joined to every vertex) are pieced exactly."""
    hub = generators.star(5000)                                    # avg degree 2: 4 edges an entry
    n = 3000
    dense = lg.Graph.from_edges(np.r_[np.zeros(n - 1, int), np.arange(1, n - 1)],
                                np.r_[np.arange(1, n), np.arange(2, n)], n=n)     # a hub and a path
    eng = _engine_in(mode)
    for G in (hub, dense):
        for s in (0, 1, G.n - 1):
            cpu = lg.bfs(G, s, engine="cpu")
            with steps.algebraic("bfs_search"):
                r = lg.bfs(G, s, engine=eng, direction="push")
            np.testing.assert_array_equal(r.level, cpu.level)
            check_bfs(G, s, r)


@pytest.mark.parametrize("limit", [0, 3, 5, 12, 40, 200, float("inf")])
@pytest.mark.parametrize("want", ["both", "parent", "level"])
@pytest.mark.parametrize("mode", ["thin", "wide", "switching", "block", "three shapes"])
def test_bfs_push_stops_where_the_cpu_engine_stops(mode, limit, want):
    """Same levels done, counts and last frontier as the cpu engine's bfs_push step."""
    G = generators.grid_2d(20, 20)
    n = G.n
    gpu = _engine_in(mode)
    got = []
    for eng, push in ((gpu, gpu.fused_steps["bfs_push"]), (lg.get_engine("cpu"), bfs_push)):
        q = eng.vector_from_coo([0], 0, n, dtype=np.int32)
        pi = eng.vector_from_coo([0], 0, n, dtype=np.int32) if want != "level" else None
        lev = eng.vector_from_coo([0], 0, n, dtype=np.int32) if want != "parent" else None
        q, k, *counts = push(eng, G, q, pi, lev, 0, limit)
        q, k2, *counts2 = push(eng, G, q, pi, lev, k, limit)        # and once more from there
        got.append((k, counts, k2, counts2, sorted(eng.to_coo(q)[0].tolist()),
                    eng.to_numpy(lev, fill=-1).tolist() if lev is not None else None,
                    eng.nvals(pi) if pi is not None else None))
    assert got[0] == got[1]


@pytest.mark.parametrize("min_frontier", [-1, 0, 5, 10**9])
@pytest.mark.parametrize("name", ["rmat_directed", "grid", "star"])
def test_bfs_pull_matches_the_cpu_engine(name, min_frontier):
    """The pull kernel's levels, counts and last frontier equal the cpu engine's bfs_pull (parents valid)."""
    G = FAMILIES[name]()
    n = G.n
    got = []
    for eng, pull in ((_GPU, _GPU.fused_steps["bfs_pull"]), (lg.get_engine("cpu"), bfs_pull)):
        q = eng.vector_from_coo([0], 0, n, dtype=np.int32)
        pi = eng.vector_from_coo([0], 0, n, dtype=np.int32)
        lev = eng.vector_from_coo([0], 0, n, dtype=np.int32)
        q, k, nq, found, found_in = pull(eng, G, q, pi, lev, 1, min_frontier)
        got.append(((k, nq, found, found_in), sorted(eng.to_coo(q)[0].tolist()), eng.to_numpy(lev, fill=-1),
                    eng.to_numpy(pi, fill=-1)))
    assert got[0][:2] == got[1][:2]
    np.testing.assert_array_equal(got[0][2], got[1][2])
    level, parent = got[0][2], got[0][3]
    assert np.array_equal(parent >= 0, level >= 0)
    A = G.to_scipy().tocsr()
    for v in np.flatnonzero(level > 0):       # each parent one level up, joined by an edge
        assert level[parent[v]] == level[v] - 1 and A[parent[v], v]


def test_one_entry_vectors_match_the_general_build(E):
    """vector_from_coo of one host entry (the fast path) equals the build from device arrays."""
    n = 1000
    for idx, val, dtype in (([7], 7, np.int32), ([7], 0, bool), ([999], [2.5], np.float64), ([0], [3], None),
                            ([], 1, np.int64), (np.array([5]), np.int64(-4), np.int64), ([3], 7, None)):
        fast = E.vector_from_coo(idx, val, n, dtype=dtype)
        vals = cupy.asarray(np.broadcast_to(np.asarray(val), (len(idx),)).copy())
        slow = E.vector_from_coo(cupy.asarray(np.asarray(idx, np.int64)), vals, n,
                                 dtype=dtype if dtype is not None else np.asarray(val).dtype)
        assert fast.dtype == slow.dtype and E.nvals(fast) == E.nvals(slow) == len(idx)
        np.testing.assert_array_equal(E.to_numpy(fast, fill=0), E.to_numpy(slow, fill=0))
    with pytest.raises(lg.InvalidArgumentError, match="out of range"):
        E.vector_from_coo([n], 1, n)
    with pytest.raises(lg.InvalidArgumentError, match="got 2 values for 1 indices"):
        E.vector_from_coo([1], [1, 2], n)
    with pytest.raises(lg.InvalidArgumentError):
        E.vector_from_coo([1], 1, n, dup="bogus_op")


# ---------------------------------------------------------------- fused steps
def test_fused_steps_take_the_steps_arguments(E):
    """Every fused step is a step of an algorithm, fused with its whole family, taking exactly its arguments."""
    # the GPU's fused steps are whatever engines/gpu/fused/ registers (docs tables are generated from it); a floor
    # of those measured in docs/benchmarks.md catches a registration lost, without a hand-kept list to drift
    # (this list missed color_classes when the colouring kernel landed)
    assert set(E.fused_steps) <= set(steps.STEPS), sorted(set(E.fused_steps) - set(steps.STEPS))
    assert {"bfs_search", "brandes_sources", "color_classes", "core_peel", "fastsv_round", "floyd_warshall", "luby",
            "msf_round", "pagerank_iterate", "reach_sweep", "scc_fwbw", "sssp_delta_stepping",
            "triangle_total"} <= set(E.fused_steps)
    families = steps.families()
    for name, impl in E.fused_steps.items():
        step = steps.STEPS[name]
        assert inspect.signature(impl) == inspect.signature(step.algebraic), name
        assert set(families[step.family]) <= set(E.fused_steps), name


def _declining_calls(E):
    """(step, arguments) the GPU kernels cannot take."""
    G = generators.grid_2d(6, 5)
    W = lg.Graph.from_edges([0, 1, 2], [1, 2, 3], w=[1.0, 2.0, 3.0], n=4, directed=True)
    n = G.n
    ids = np.arange(n)
    part = E.vector_from_coo([0, 1], [0, 1], n, dtype=np.int64)                 # not full
    labels32 = E.vector_from_coo([0], [0], n, dtype=np.int32)
    d = E.full(4, np.inf, np.float64)
    Q = E.matrix_from_coo([0], [0], [0.0], 1, 4, dtype=np.float64)
    return [
        ("bfs_push", (G, E.vector_from_coo([0], 0, n, dtype=np.int32), E.vector_from_coo([0], 0, n, dtype=np.int32),
                      E.vector_from_coo([0], 0, n, dtype=np.int64), 0, G.nnz)),     # parents, levels: two dtypes
        ("bfs_search", (G, 0, True, True, "pull", "numpy", BFS_RULE)),           # the kernel pushes only
        ("component_labels", (lg.Graph.from_edges([0, 1], [1, 2], n=3, directed=True),)),   # not symmetric
        ("fastsv_round", (E.matrix(G), part, E.copy(part), E.copy(part))),
        ("fastsv_round", (E.matrix(G), E.vector_from_numpy(ids.astype(np.int32)), E.iota(n), E.iota(n))),
        ("msf_round", (E.iota(n), (E.iota(3), E.iota(3), E.iota(3)), E.full(n, -1, np.int64))),   # not its edges
        ("sssp_relax", (E.matrix(W), Q, E.copy(Q), None)),                         # a row per source
        ("sssp_relax", (E.matrix(G), E.vector_from_coo([0], [0.0], n, dtype=np.float64), E.full(n, np.inf, np.float64),
                        None)),                                                      # unweighted
        ("sssp_relax", (E.matrix(W), E.vector_from_coo([0], [0.0], 4, dtype=np.float64), d,
                        E.full(4, -1, np.int32))),                                   # int32 parents
        ("sssp_delta_stepping", (G, E.full(n, np.inf, np.float64), None, 0, 1.0)),  # unweighted
        ("msf_forest", (G, E.full(n, 1.0, np.float64))),                           # float keys
        ("msf_labels", (E.full(n, 1.0, np.float64),)),                              # float parents
        ("luby", (E.matrix(G), E.vector_from_numpy(ids.astype(np.int32)))),       # int32 priorities
        ("luby", (E.matrix(G), part)),                                              # not full
        ("scc_trim", (G, labels32)),
        ("scc_fwbw", (G, 0, labels32)),
        ("scc_color", (G, 0, labels32)),                                            # int32 labels
        ("scc_labels", (G, labels32)),
        ("scc_labels", (G, E.vector(n + 1, np.int64))),                             # not n entries
    ]


def test_vertex_priorities_are_the_algebras_hash(E):
    from la_graph import _random
    for n, seed in [(1, 0), (1000, 7), (70001, 2**64 - 1)]:
        got = E.to_numpy(E.fused_steps["vertex_priorities"](E, n, seed))
        np.testing.assert_array_equal(got, _random.vertex_priorities(n, seed))


def test_fused_steps_decline_before_changing_anything(E):
    for name, args in _declining_calls(E):
        held = [(x.val, x.pres) for x in args if isinstance(x, gpu_mod.GVec)]
        with pytest.raises(Declined):
            E.fused_steps[name](E, *args)
        assert [(x.val, x.pres) for x in args if isinstance(x, gpu_mod.GVec)] == held, name


def test_bfs_search_declines_graphs_over_its_edge_limit(E, monkeypatch, caplog):
    """Over BFS_SEARCH_MS_EDGES the one-launch search declines (logged) and the push / pull stretches run."""
    from la_graph.engines.gpu.fused import bfs as gpu_bfs
    G = generators.grid_2d(20, 20)
    monkeypatch.setattr(gpu_bfs, "BFS_SEARCH_MS_EDGES", G.nnz - 1)
    with pytest.raises(Declined, match="BFS_SEARCH_MS_EDGES"):
        E.fused_steps["bfs_search"](E, G, 0, True, True, "push", "numpy", BFS_RULE)
    with caplog.at_level("DEBUG", logger="la_graph"):
        r = lg.bfs(G, 0, engine=E)
    assert "bfs_search kernel declined" in caplog.text
    np.testing.assert_array_equal(r.level, lg.bfs(G, 0, engine="cpu").level)


def test_a_declined_step_runs_its_algebra(E, caplog):
    G = generators.grid_2d(20, 20)
    n = G.n
    q = E.vector_from_coo([0], 0, n, dtype=np.int32)
    pi = E.vector_from_coo([0], 0, n, dtype=np.int32)
    lev = E.vector_from_coo([0], 0, n, dtype=np.int64)            # parents and levels of two dtypes
    with caplog.at_level("DEBUG", logger="la_graph"):
        q, k, nq, found, scanned, found_in = bfs_push(E, G, q, pi, lev, 0, G.nnz)
    assert "declined" in caplog.text
    assert (k, nq, found, scanned, found_in) == (39, 0, n - 1, G.nnz, G.nnz - 2)
    np.testing.assert_array_equal(E.to_numpy(lev), lg.bfs(G, 0, engine="cpu").level)


@pytest.mark.parametrize("name", ["grid", "rmat", "caveman", "star"])
def test_fastsv_round_matches_its_algebra(E, E64, name):
    """The kernels give the algebra's f, gp and changed round after round (int32 and int64 ids)."""
    G = FAMILIES[name]()
    for eng in (E, E64):
        A = eng.matrix(G)
        for dtype in (np.int32, np.int64):
            fused = [eng.vector_from_numpy(np.arange(G.n, dtype=dtype)) for _ in range(3)]
            plain = [eng.copy(v) for v in fused]
            changed = True
            while changed:
                f, gp, changed = eng.fused_steps["fastsv_round"](eng, A, *fused)
                f2, gp2, changed2 = fastsv_round.algebraic(eng, A, *plain)
                fused[1], plain[1] = gp, gp2
                assert changed == changed2
                for x, y in zip(fused, plain):
                    np.testing.assert_array_equal(eng.to_numpy(x), eng.to_numpy(y))
            np.testing.assert_array_equal(eng.to_numpy(fused[0]), lg.connected_components(G, engine="cpu"))


# ---------------------------------------------------------------- strongly connected components
def _chain_of_cycles(k):
    """k 2-cycles, each pointing to the next: nothing to trim, k SCCs in a row."""
    a = np.arange(0, 2 * k, 2)
    return lg.Graph.from_edges(np.r_[a, a + 1, a[:-1] + 1], np.r_[a + 1, a, a[1:]], n=2 * k, directed=True)


def _as_directed(G):
    u, v = G.edges()
    return lg.Graph.from_edges(u, v, n=G.n, directed=True)


def _linked_paths(k, length, seed=5):
    """k two-way paths (each one mutual-edge component: deep union-find trees), path i pointing to
    path i + 1 and the last back to path k // 2 (SCCs: k // 2 paths alone, the rest one), ids shuffled."""
    n = k * length
    a = np.arange(n).reshape(k, length)
    u, v = a[:, :-1].ravel(), a[:, 1:].ravel()
    hop_u, hop_v = np.r_[a[:-1, -1], a[-1, 0]], np.r_[a[1:, 0], a[k // 2, length // 2]]
    perm = np.random.default_rng(seed).permutation(n)
    return lg.Graph.from_edges(perm[np.r_[u, v, hop_u]], perm[np.r_[v, u, hop_v]], n=n, directed=True)


SCC_GRAPHS = {
    "rmat_directed": FAMILIES["rmat_directed"],
    "uniform_directed": FAMILIES["uniform_directed"],
    "grid_as_directed": lambda: _as_directed(generators.grid_2d(40, 31)),
    "caveman_as_directed": lambda: _as_directed(generators.connected_caveman(20, 6)),
    "chain_of_cycles": lambda: _chain_of_cycles(3000),
    "linked_paths": lambda: _linked_paths(8, 1500),
    "path": lambda: lg.Graph.from_edges(np.arange(2999), np.arange(1, 3000), directed=True),
    "hub_and_loops": lambda: lg.Graph.from_edges(np.r_[np.zeros(3000, int), np.arange(1, 3001), np.arange(3001)],
                                                 np.r_[np.arange(1, 3001), np.zeros(3000, int), np.arange(3001)],
                                                 directed=True),   # a vertex of degree 3000: many chunks
}


@pytest.fixture(params=["auto", "contract", "plain"])
def scc_engines(request, E, E64, monkeypatch):
    """The engines (int32 and int64 indices) with the SCC kernel's contraction as the graph decides, always, never."""
    edges = {"auto": gpu_mod.GPUEngine.SCC_CONTRACT_EDGES, "contract": 2**62, "plain": -1}[request.param]
    monkeypatch.setattr(gpu_mod.GPUEngine, "SCC_CONTRACT_EDGES", edges)
    return E, E64


@pytest.mark.parametrize("name", sorted(SCC_GRAPHS))
def test_scc_steps_match_their_algebra(scc_engines, name):
    """Each SCC step's kernel on its own (from nothing and from whole SCCs labelled) gives its algebra's labels."""
    G = SCC_GRAPHS[name]()
    truth = lg.strongly_connected_components(G, engine="cpu")
    comps = np.unique(truth)
    pre = np.flatnonzero(np.isin(truth, comps[np.random.default_rng(G.n).random(comps.size) < 0.3]))
    for eng in scc_engines:
        np.testing.assert_array_equal(lg.strongly_connected_components(G, engine=eng), truth)
        with steps.algebraic("scc_labels"):     # the three kernels in turn
            np.testing.assert_array_equal(lg.strongly_connected_components(G, engine=eng), truth)
        for start in (np.zeros(0, np.int64), pre):
            fused, plain = (eng.hint(eng.vector_from_coo(start, truth[start], G.n, dtype=np.int64), "dense")
                            for _ in range(2))
            assert eng.fused_steps["scc_trim"](eng, G, fused) == scc_trim.algebraic(eng, G, plain)
            np.testing.assert_array_equal(eng.to_numpy(fused, fill=-1), eng.to_numpy(plain, fill=-1))
            if eng.nvals(plain) < G.n:
                pivot = scc_pivot(eng, G, plain)
                assert eng.fused_steps["scc_fwbw"](eng, G, pivot, fused) == scc_fwbw.algebraic(eng, G, pivot, plain)
                np.testing.assert_array_equal(eng.to_numpy(fused, fill=-1), eng.to_numpy(plain, fill=-1))
            left = G.n - eng.nvals(plain)
            assert eng.fused_steps["scc_color"](eng, G, 0, fused) == left
            np.testing.assert_array_equal(eng.to_numpy(fused), truth)


def test_scc_real_graphs(E, shared_data):
    from .graphs import real
    for path in ["snap/cit-HepTh.txt.gz", "snap/soc-Slashdot0902.txt.gz", "law/uk-2007-05_100000.txt.gz",
                 "suitesparse/luxembourg_osm.mtx.gz"]:
        G = real(shared_data, path)
        G = G if G.directed else _as_directed(G)
        np.testing.assert_array_equal(lg.strongly_connected_components(G, engine=E),
                                      lg.strongly_connected_components(G, engine="cpu"), err_msg=path)


# ---------------------------------------------------------------- CPU / GPU agreement
@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_bfs_agrees_with_cpu(E, name):
    G = FAMILIES[name]()
    for s in {0, G.n // 3, G.n - 1}:
        cpu = lg.bfs(G, s, engine="cpu")
        for direction in ("auto", "push", "pull"):
            r = lg.bfs(G, s, engine=E, direction=direction)
            np.testing.assert_array_equal(r.level, cpu.level)
            check_bfs(G, s, r)
    srcs = [0, G.n - 1, 2]
    multi = lg.bfs(G, sources=srcs, engine=E)
    np.testing.assert_array_equal(multi.level, lg.bfs(G, sources=srcs, engine="cpu").level)
    check_bfs(G, np.asarray(srcs), multi)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_cc_agrees_with_cpu(E, name):
    G = FAMILIES[name]()
    labels = lg.connected_components(G, engine=E)
    np.testing.assert_array_equal(labels, lg.connected_components(G, engine="cpu"))
    check_cc(G, labels)


def test_multi_source_bfs_with_csr_frontiers(E64):
    G = FAMILIES["rmat"]()
    srcs = [0, 9, 9, 100]
    r = lg.bfs(G, sources=srcs, engine=E64)
    np.testing.assert_array_equal(r.level, lg.bfs(G, sources=srcs, engine="cpu").level)
    check_bfs(G, np.asarray(srcs), r)


def test_triangle_count_masked_dot(E, E64):
    for G in (generators.rmat(9, 8, seed=2), generators.caveman(10, 5), generators.grid_2d(6, 6, diagonal=True)):
        want = lg.triangle_count(G, engine="cpu")
        assert lg.triangle_count(G, engine=E) == want
        assert lg.triangle_count(G, engine=E64) == want
        np.testing.assert_array_equal(lg.triangles(G, engine=E64), lg.triangles(G, engine="cpu"))


# ---------------------------------------------------------------- the conformance suite on CSR + int64
from tests import test_engine_ops as _ops  # noqa: E402

for _name in ("test_output_arguments", "test_semiring", "test_accum_equal_to_add_with_typecast",
              "test_index_semirings_known_answers", "test_bool_arithmetic_semirings_count",
              "test_empty_inner_dimension_mask_accum", "test_ewise_ops", "test_apply_unary",
              "test_apply_binary_right", "test_select", "test_reduce", "test_reduce_empty_is_identity",
              "test_vector_and_matrix_from_coo_with_dup", "test_from_coo_scalar_and_dtype",
              "test_to_numpy_to_coo_nvals_size", "test_copy_is_independent_and_isequal",
              "test_graph_matrix_and_degree"):
    globals()[f"{_name}_csr_int64"] = getattr(_ops, _name)


@pytest.fixture(scope="module")
def engine(E64):
    """Overrides conftest's fixture for the conformance tests re-collected above."""
    return E64


# ---------------------------------------------------------------- minimum spanning forest
MSF_FAMILIES = {
    "rmat": lambda w: generators.rmat(12, 16, weights=w, seed=7),
    "erdos_renyi": lambda w: generators.erdos_renyi(1500, 0.02, weights=w, seed=5),
    "connected_caveman": lambda w: generators.connected_caveman(40, 9, weights=w, seed=4),
    "grid": lambda w: generators.grid_2d(40, 30, weights=w, seed=8),
    "uniform": lambda w: generators.uniform(3000, 24000, weights=w, seed=1),
}


@pytest.mark.parametrize("light, room, steps", [(2, (1.3, 65536), 32), (0.0, (0.5, 0), 1), (0.3, (1.0, 0), 2),
                                                (1, (0.5, 0), 32), (8, (1.3, 0), 32)])
@pytest.mark.parametrize("weights", [(1, 3), (1, 1000), "uniform", (7, 7), None, (-50, 50)])
@pytest.mark.parametrize("family", sorted(MSF_FAMILIES))
def test_msf_kernels_at_every_cut(E, E64, monkeypatch, family, weights, light, room, steps):
    """Kruskal's filter at several cuts, with too little room for the light and the heavy edges (packed
    and swept again) and few jumps a launch: the CPU's forest and labels."""
    from la_graph.engines.gpu.fused import msf as gpu_msf

    monkeypatch.setattr(gpu_msf, "MSF_LIGHT_PER_VERTEX", light)
    monkeypatch.setattr(gpu_msf, "MSF_ROOM", room)
    monkeypatch.setattr(gpu_msf, "MSF_JUMP_STEPS", steps)
    G = MSF_FAMILIES[family](weights)
    want = lg.minimum_spanning_forest(G, engine="cpu")
    for eng in (E, E64):
        got = lg.minimum_spanning_forest(G, engine=eng)
        for name in ("u", "v", "weight", "labels"):
            np.testing.assert_array_equal(getattr(got, name), getattr(want, name), err_msg=name)
        assert got.total_weight == want.total_weight


def test_msf_device_output(E):
    G = MSF_FAMILIES["rmat"]((1, 1000))
    a = lg.minimum_spanning_forest(G, engine=E)
    b = lg.minimum_spanning_forest(G, engine=E, output="device")
    for name in ("u", "v", "weight", "labels"):
        x, y = getattr(a, name), getattr(b, name)
        assert isinstance(y, cupy.ndarray) and y.dtype == x.dtype, name
        np.testing.assert_array_equal(x, cupy.asnumpy(y), err_msg=name)
    assert a.total_weight == b.total_weight and a.ncomponents == b.ncomponents


def test_msf_a_long_path_of_hooks(E, monkeypatch):
    """Weights falling along a path: each vertex hooks onto the next, one chain of n roots to jump."""
    from la_graph.engines.gpu.fused import msf as gpu_msf

    n = 200_000
    G = lg.Graph.from_edges(np.arange(n - 1), np.arange(1, n), w=np.arange(n - 1, 0, -1.0), n=n)
    for steps in (32, 1):
        monkeypatch.setattr(gpu_msf, "MSF_JUMP_STEPS", steps)
        r = lg.minimum_spanning_forest(G, engine=E)
        np.testing.assert_array_equal(r.u, np.arange(n - 1))
        assert not r.labels.any()


# ---------------------------------------------------------------- delta-stepping (sssp_nearfar)
SSSP_FAMILIES = {
    "rmat": lambda: generators.rmat(12, 16, weights=(1, 1000), seed=21),          # hubs, a dense core, leaves
    "rmat_directed": lambda: generators.rmat(11, 8, directed=True, weights=(1, 100), seed=22),
    "star": lambda: generators.star(5000, weights=(1, 1000), seed=23),            # one hub row of 4999
    "grid": lambda: generators.grid_2d(60, 50, weights=(1, 999), seed=24),        # sparse: the SSSP_SPARSE_ knobs
    "zero_weights": lambda: generators.rmat(10, 8, weights=(0, 9), seed=25),      # parents found in the loop
}

# engine attributes -> values: the widths' rules, chunked rows, fewer blocks
SSSP_KNOBS = [
    {},
    {"SSSP_TARGET": 0},                                                    # buckets of one delta
    {"SSSP_TARGET": 1, "SSSP_GRAIN": 32},                                  # a bin a bucket
    {"SSSP_TARGET": 1 << 40, "SSSP_GRAIN": 1, "SSSP_GROW": 1000},          # wide at once
    {"SSSP_TARGET": 5000, "SSSP_GROW": 1},
    {"SSSP_BIG_ROW": 4, "SSSP_CHUNK": 3},                                  # most rows as chunks
    {"SSSP_BIG_ROW": 1 << 40},                                             # none
    {"SSSP_SPARSE_TARGET": 4096, "SSSP_SPARSE_BLOCKS": 3},
    {"SSSP_SPARSE_WIDTH": 1, "SSSP_SPARSE_BLOCKS": 1, "SSSP_BIG_ROW": 2, "SSSP_CHUNK": 1},
    {"SSSP_LANES": 1, "SSSP_BIG_ROW": 8, "SSSP_CHUNK": 5},                 # a lane a row
    {"SSSP_LANES": 32},
]


@pytest.mark.parametrize("knobs", SSSP_KNOBS, ids=lambda k: ",".join(f"{a[5:]}={v}" for a, v in k.items()) or "default")
@pytest.mark.parametrize("family", sorted(SSSP_FAMILIES))
def test_sssp_nearfar_knobs(E, E64, monkeypatch, family, knobs):
    """Every bucket-width rule, row cut and launch shape: the CPU engine's distances, valid parents."""
    for name, value in knobs.items():
        monkeypatch.setattr(type(E), name, value)
    G = SSSP_FAMILIES[family]()
    deg = np.asarray(G.out_degree)
    for s in sorted({0 if deg[0] else int(np.argmax(deg)), int(np.argmax(deg)), G.n - 1}):
        want = lg.sssp(G, s, engine="cpu").distance
        for eng in (E, E64) if not knobs else (E,):
            r = lg.sssp(G, s, engine=eng)
            np.testing.assert_array_equal(r.distance, want)
            check_sssp(G, s, r.distance, r.parent)
        np.testing.assert_array_equal(lg.sssp(G, s, engine=E, parent=False).distance, want)


def test_sssp_nearfar_reports_its_rounds(E, caplog):
    G = SSSP_FAMILIES["rmat"]()
    with caplog.at_level("DEBUG", logger="la_graph"):
        lg.sssp(G, int(np.argmax(G.out_degree)), engine=E)
    assert any("rounds" in m and "buckets" in m and "edges relaxed" in m for m in caplog.messages)
