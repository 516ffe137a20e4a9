import importlib

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from hypothesis import given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph.algorithms.apsp import floyd_warshall
from la_graph.verify import check_apsp

from .engines import REFERENCE_APSP_MAX_N, REFERENCE_FW_MAX_N, too_slow_on_reference
from .graphs import SMALL, WEIGHTED, bump, real

apsp_module = importlib.import_module("la_graph.algorithms.apsp")  # the module, not the function

METHODS = ["floyd_warshall", "sssp"]


def reference(G):
    """scipy's all-pairs distances (explicit zero weights are edges there too).

    scipy's Floyd-Warshall sets the diagonal to 0 whatever the self-loops; a
    negative self-loop is a negative cycle.
    """
    A = G.to_scipy().astype(np.float64)
    if G.weighted and (A.diagonal() < 0).any():
        raise csgraph.NegativeCycleError("negative self-loop")
    return csgraph.floyd_warshall(A, directed=True, unweighted=not G.weighted)


def assert_valid_cycle(G, exc):
    """The reported cycle is made of edges of G and has negative weight; .vertex lies on it."""
    cycle = exc.cycle
    assert cycle and exc.vertex in cycle
    A = G.to_scipy().tocsr()
    weight = 0.0
    for u, v in zip(cycle, cycle[1:] + cycle[:1]):
        row = A.indices[A.indptr[u]:A.indptr[u + 1]]
        assert v in row, f"{u} -> {v} is not an edge"
        weight += A.data[A.indptr[u] + int(np.flatnonzero(row == v)[0])]
    assert weight < 0


# ---------------------------------------------------------------- small families
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_graphs(engine, name, method):
    G = SMALL[name]()
    if too_slow_on_reference(engine, method, G):
        pytest.skip(f"reference Floyd-Warshall limited to n <= {REFERENCE_FW_MAX_N}")
    D = lg.apsp(G, method, engine=engine)
    assert D.dtype == np.float64 and D.shape == (G.n, G.n)
    np.testing.assert_array_equal(D, reference(G))


@pytest.mark.parametrize("weights", [(1, 9), "uniform"])
@pytest.mark.parametrize("name", ["grid", "rmat_directed", "uniform_directed", "connected_caveman"])
def test_small_weighted(engine, name, weights):
    G = SMALL[name]()
    u, v = G.edges()
    rng = np.random.default_rng(7)
    wt = rng.integers(1, 10, u.size).astype(float) if weights == (1, 9) else rng.random(u.size)
    H = lg.Graph.from_edges(u, v, w=wt, n=G.n, directed=True)
    ref = reference(H)
    for method in METHODS:
        if too_slow_on_reference(engine, method, H):
            continue
        D = lg.apsp(H, method, engine=engine)
        if weights == (1, 9):
            np.testing.assert_array_equal(D, ref)
        else:
            np.testing.assert_allclose(D, ref, rtol=1e-12)
        check_apsp(H, D)


@pytest.mark.parametrize("method", METHODS)
def test_output_device(engine, method):
    """output="device" leaves D where the engine computes it (CuPy on the GPU), the same values."""
    G = lg.generators.uniform(70, 300, seed=9, directed=True, weights=(1, 9))
    D = lg.apsp(G, method, engine=engine, output="device")
    host = D.get() if hasattr(D, "get") else D
    assert host.shape == (70, 70) and host.dtype == np.float64
    assert isinstance(D, np.ndarray) == (engine.name != "gpu")
    np.testing.assert_array_equal(host, reference(G))
    with pytest.raises(lg.InvalidArgumentError, match="output must be one of"):
        lg.apsp(G, method, engine=engine, output="gpu")


def test_tile_edges(engine):
    """Sizes around the tile size (64 on the CPU and the GPU): partial tiles, one tile, many."""
    for n in (1, 2, 31, 32, 33, 63, 64, 65, 100, 129, 200):
        G = lg.generators.uniform(n, 4 * n, seed=n, directed=True, weights=(1, 30), self_loops=True)
        G = lg.Graph.from_edges(*G.edges(), w=G.weights % 7, n=n, directed=True)   # zeros too
        np.testing.assert_array_equal(lg.apsp(G, "floyd_warshall", engine=engine), reference(G))


def test_algebraic_floyd_warshall(engine):
    """The algebraic k-loop (primitives only) agrees with scipy and finds negative cycles."""
    G = lg.generators.uniform(40, 160, seed=3, directed=True, weights=(1, 20))
    u, v = G.edges()
    H = lg.Graph.from_edges(u, v, w=G.weights - 3, n=40, directed=True)  # some negative weights
    for g in (G, lg.Graph.from_edges(u, v, n=40, directed=True)):
        D, k = floyd_warshall.algebraic(engine, g)
        assert k == -1
        np.testing.assert_array_equal(engine.to_numpy(D), reference(g))
    try:
        ref = reference(H)
    except csgraph.NegativeCycleError:
        ref = None
    D, k = floyd_warshall.algebraic(engine, H)
    if ref is None:
        assert k >= 0
    else:
        np.testing.assert_array_equal(engine.to_numpy(D), ref)
    C = lg.Graph.from_edges([0, 1, 2, 3], [1, 2, 1, 0], w=[1.0, 2.0, -3.0, 1.0], directed=True)
    D, k = floyd_warshall.algebraic(engine, C)
    assert k in (1, 2)


# ---------------------------------------------------------------- properties
@given(
    n=st.integers(1, 40),
    edges=st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39), st.integers(-4, 20)), max_size=120),
    directed=st.booleans(),
    weighted=st.booleans(),
)
@settings(max_examples=60, deadline=None)
def test_property_random_graphs(n, edges, directed, weighted):
    u = np.array([e[0] % n for e in edges], np.int64)
    v = np.array([e[1] % n for e in edges], np.int64)
    w = np.array([e[2] for e in edges], float) if weighted else None
    G = lg.Graph.from_edges(u, v, w=w, n=n, directed=directed)
    try:
        ref = reference(G)
    except csgraph.NegativeCycleError:
        ref = None
    for method in METHODS:
        if ref is None:
            with pytest.raises(lg.NegativeCycleError) as info:
                lg.apsp(G, method)
            assert_valid_cycle(G, info.value)
        else:
            np.testing.assert_array_equal(lg.apsp(G, method), ref)


# ---------------------------------------------------------------- semantics
def test_diagonal_and_self_loops(engine):
    G = lg.Graph.from_edges([0, 0, 1], [0, 1, 1], w=[5.0, 2.0, 0.0], directed=True)
    for method in METHODS:
        np.testing.assert_array_equal(lg.apsp(G, method, engine=engine), [[0, 2], [np.inf, 0]])


def test_negative_weights_without_cycle(engine):
    G = lg.Graph.from_edges([0, 0, 1, 2, 3], [1, 2, 3, 1, 4], w=[4.0, 1.0, -2.0, -1.0, 3.0], directed=True)
    ref = csgraph.johnson(G.to_scipy(), directed=True)
    for method in METHODS:
        np.testing.assert_array_equal(lg.apsp(G, method, engine=engine), ref)


@pytest.mark.parametrize("method", METHODS)
def test_negative_cycle(engine, method):
    G = lg.Graph.from_edges([0, 1, 2, 3, 2], [1, 2, 3, 1, 4], w=[1.0, 1.0, -4.0, 2.0, 1.0], directed=True)
    with pytest.raises(lg.NegativeCycleError, match="negative cycle") as info:
        lg.apsp(G, method, engine=engine)
    assert sorted(info.value.cycle) == [1, 2, 3] and info.value.vertex in (1, 2, 3)
    assert "has weight -1.0" in str(info.value)


@pytest.mark.parametrize("method", METHODS)
def test_negative_self_loop_and_undirected_negative_edge(engine, method):
    G = lg.Graph.from_edges([0, 1, 2], [1, 2, 2], w=[1.0, 1.0, -0.5], directed=True)
    with pytest.raises(lg.NegativeCycleError) as info:
        lg.apsp(G, method, engine=engine)
    assert info.value.cycle == [2] and info.value.vertex == 2
    U = lg.Graph.from_edges([0, 1], [1, 2], w=[3.0, -1.0])  # undirected: 1 -> 2 -> 1 weighs -2
    with pytest.raises(lg.NegativeCycleError) as info:
        lg.apsp(U, method, engine=engine)
    assert sorted(info.value.cycle) == [1, 2]


def test_nan_and_inf_weights_are_rejected():
    for bad in (np.nan, np.inf, -np.inf):
        with pytest.raises(lg.InvalidGraphError, match="finite"):
            lg.apsp(lg.Graph.from_edges([0], [1], w=[bad]))


def test_auto_rule():
    choose = apsp_module._choose_method
    small = lg.generators.path(100)
    assert choose(small, "auto") == "floyd_warshall"
    sparse_w = lg.generators.uniform(1000, 2000, seed=1, directed=True, weights=(1, 9))
    dense_w = lg.generators.uniform(1000, 5000, seed=1, directed=True, weights=(1, 9))
    assert choose(sparse_w, "auto") == "sssp" and choose(dense_w, "auto") == "floyd_warshall"
    sparse_u = lg.generators.uniform(1000, 30000, seed=1, directed=True)
    dense_u = lg.generators.uniform(1000, 70000, seed=1, directed=True)
    assert choose(sparse_u, "auto") == "sssp" and choose(dense_u, "auto") == "floyd_warshall"
    assert choose(sparse_w, "floyd_warshall") == "floyd_warshall"
    np.testing.assert_array_equal(lg.apsp(sparse_w), reference(sparse_w))


# ---------------------------------------------------------------- blocks and memory
def test_blocks_match_apsp(engine):
    G = lg.generators.uniform(150, 600, seed=5, directed=True, weights=(1, 50))
    u, v = G.edges()
    H = lg.Graph.from_edges(u, v, w=np.where(u < v, G.weights - 25, G.weights), n=150, directed=True)
    for g in (G, H):
        try:
            ref = reference(g)
        except csgraph.NegativeCycleError:
            continue
        got = list(lg.apsp_blocks(g, 40, engine=engine))
        assert [r for r, _ in got] == [slice(0, 40), slice(40, 80), slice(80, 120), slice(120, 150)]
        np.testing.assert_allclose(np.vstack([b for _, b in got]), ref, rtol=0, atol=1e-9)
        for rows, block in got:
            check_apsp(g, block, rows)
    blocks = list(lg.apsp_blocks(G, max_bytes=8 * 150 * 64, engine=engine))
    assert [b.shape[0] for _, b in blocks] == [64, 64, 22]
    assert len(list(lg.apsp_blocks(G, engine=engine))) == 1
    assert list(lg.apsp_blocks(lg.Graph.from_edges([], [], n=0))) == []


def test_blocks_negative_cycle():
    G = lg.Graph.from_edges([0, 1], [1, 0], w=[1.0, -2.0], directed=True)
    with pytest.raises(lg.NegativeCycleError):
        next(lg.apsp_blocks(G, 1))


def test_memory_limits(monkeypatch):
    G = lg.generators.path(50)
    with pytest.raises(lg.OutOfMemory, match="needs 20,000 bytes, more than max_bytes = 19,999"):
        lg.apsp(G, max_bytes=19_999)
    assert lg.apsp(G, max_bytes=20_000).shape == (50, 50)
    with pytest.raises(MemoryError, match="one row of 50 distances needs 400 bytes"):
        lg.apsp_blocks(G, max_bytes=399)
    with pytest.raises(lg.OutOfMemory, match="use block_rows <= 2"):
        lg.apsp_blocks(G, 3, max_bytes=800)
    monkeypatch.setattr(lg._validation, "available_host_bytes", lambda: 30_000)
    with pytest.raises(lg.OutOfMemory, match="needs 40,000 bytes of memory, but only 30,000"):
        lg.apsp(G, "floyd_warshall", engine="cpu")   # the result and the engine's working copy
    assert lg.apsp(G, "sssp").shape == (50, 50)     # 20,000 bytes; its searches go in batches of sources
    with pytest.raises(lg.OutOfMemory, match="apsp_blocks"):
        lg.apsp(lg.generators.path(70), "sssp")
    assert sum(b.shape[0] for _, b in lg.apsp_blocks(lg.generators.path(70), 10)) == 70


def test_device_memory_check(engine, monkeypatch):
    """The GPU engine reserves Floyd-Warshall's n^2 doubles before allocating them."""
    if engine.name != "gpu":
        pytest.skip("device memory: gpu engine only")
    memory = importlib.import_module("la_graph.engines.gpu.memory")
    monkeypatch.setattr(memory, "_free_device_bytes", lambda: 10_000)
    with pytest.raises(lg.OutOfDeviceMemory, match=r"50 x 50 float64 distance matrix \(computed in a 64 x 64 int32 "
                                                   r"matrix\) needs about 38,"):
        lg.apsp(lg.generators.path(50), "floyd_warshall", engine=engine)


# ---------------------------------------------------------------- the GPU kernels
def _gpu_fused(engine, monkeypatch, dtype):
    """The GPU engine's fused steps, its Floyd-Warshall held to int32 or float64 distances."""
    if engine.name != "gpu":
        pytest.skip("the GPU engine's Floyd-Warshall kernels")
    fused = importlib.import_module("la_graph.engines.gpu.fused.apsp")
    if dtype == "float64":
        monkeypatch.setattr(fused, "FW_INT32_LIMIT", -1)
    return fused


def _no_negative_cycle(n, m, seed):
    """Random directed graph with weights w + h[u] - h[v] (w in 0..29, h in 0..39): many are negative,
    no cycle is; self-loops of weight >= 0, and with m ~ 3n some vertices unreachable."""
    rng = np.random.default_rng(seed)
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)
    h = rng.integers(0, 40, n)
    return lg.Graph.from_edges(u, v, w=(rng.integers(0, 30, m) + h[u] - h[v]).astype(float), n=n, directed=True)


@pytest.mark.parametrize("dtype", ["int32", "float64"])
@pytest.mark.parametrize("n", [1, 63, 64, 65, 127, 129, 1000])
def test_gpu_tile_sizes(engine, monkeypatch, n, dtype):
    """Both distance types of the GPU kernels on sizes around the 64-vertex tile: negative edges
    without negative cycles, unreachable pairs, zero-weight self-loops; equal to scipy's."""
    fused = _gpu_fused(engine, monkeypatch, dtype)
    G = _no_negative_cycle(n, 3 * n, seed=n)
    assert fused._fw_dtype(engine, G, -(-n // 64) * 64) == np.dtype(dtype)
    D = lg.apsp(G, "floyd_warshall", engine=engine)
    ref = reference(G)
    np.testing.assert_array_equal(D, ref)
    if n >= 63:
        assert np.isinf(D).any() and (D < 0).any()
    U = lg.Graph.from_edges(*G.edges(), n=n, directed=True)      # unweighted: hops
    np.testing.assert_array_equal(lg.apsp(U, "floyd_warshall", engine=engine), reference(U))


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_gpu_negative_cycle(engine, monkeypatch, dtype):
    """A negative cycle through three tiles: the kernels stop at the algebra's vertex, apsp raises."""
    fused = _gpu_fused(engine, monkeypatch, dtype)
    G = _no_negative_cycle(200, 600, seed=4)
    u, v = G.edges()
    C = lg.Graph.from_edges(np.r_[u, 10, 70, 130], np.r_[v, 70, 130, 10], w=np.r_[G.weights, -100.0, -100.0, -100.0],
                            n=200, directed=True)
    D, k = fused.floyd_warshall(engine, C)
    D_alg, k_alg = floyd_warshall.algebraic(engine, C)
    assert k == k_alg >= 0
    with pytest.raises(lg.NegativeCycleError) as info:
        lg.apsp(C, "floyd_warshall", engine=engine)
    assert_valid_cycle(C, info.value)
    loop = lg.Graph.from_edges([0, 5, 100], [1, 100, 100], w=[1.0, 2.0, -1.0], n=130, directed=True)
    assert fused.floyd_warshall(engine, loop)[1] == 100            # a negative self-loop


def test_gpu_distance_types(engine, monkeypatch):
    """int32 exactly when the weights are integers and n - 1 of the largest stay within the limit."""
    fused = _gpu_fused(engine, monkeypatch, "int32")
    G = _no_negative_cycle(100, 300, seed=5)
    u, v = G.edges()
    assert fused._fw_dtype(engine, G, 128) == np.int32
    half = lg.Graph.from_edges(u, v, w=G.weights + 0.5, n=100, directed=True)
    assert fused._fw_dtype(engine, half, 128) == np.float64
    big = lg.Graph.from_edges(u, v, w=np.where(G.weights > 0, 2.0**28 // 127, G.weights), n=100, directed=True)
    assert fused._fw_dtype(engine, big, 128) == np.int32
    bigger = lg.Graph.from_edges(u, v, w=np.where(G.weights > 0, 2.0**28 // 127 + 1, G.weights), n=100,
                                 directed=True)
    assert fused._fw_dtype(engine, bigger, 128) == np.float64
    for H in (big, bigger, half):       # long paths: exact in both types
        np.testing.assert_array_equal(lg.apsp(H, "floyd_warshall", engine=engine), reference(H))


def test_memory_estimate_is_real():
    """An n^2 that cannot fit anywhere is refused before any allocation."""
    G = lg.Graph.from_edges([0], [1], n=10**7)
    with pytest.raises(lg.OutOfMemory, match="800,000,000,000,000 bytes"):
        lg.apsp(G)


# ---------------------------------------------------------------- errors
def test_errors():
    G = lg.generators.path(4)
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        lg.apsp(np.eye(3))
    with pytest.raises(lg.InvalidArgumentError, match="method must be one of"):
        lg.apsp(G, "dijkstra")
    with pytest.raises(lg.InvalidArgumentError, match=r"method must be one of .*, got \['auto'\]"):
        lg.apsp(G, ["auto"])
    with pytest.raises(lg.InvalidArgumentError, match="progress must be True or False, got 'x'"):
        lg.apsp(G, progress="x")
    for bad in (0, -5, 1.5, True, "10"):
        with pytest.raises(lg.InvalidArgumentError, match="max_bytes must be a positive integer"):
            lg.apsp(G, max_bytes=bad)
        with pytest.raises(lg.InvalidArgumentError, match="block_rows must be a positive integer"):
            lg.apsp_blocks(G, bad)
    with pytest.raises(lg.InvalidGraphError, match="must be a la_graph.Graph"):
        lg.apsp_blocks([[0, 1]])
    with pytest.raises(lg.InvalidArgumentError, match="engine must be one of"):
        lg.apsp(G, engine="tpu")


def test_checker_catches_errors():
    G = lg.generators.uniform(30, 90, seed=2, directed=True, weights=(1, 9))
    D = lg.apsp(G)
    check_apsp(G, D)
    bad = D.copy()
    i, j = np.argwhere(np.isfinite(D) & (D > 0))[0]
    bad[i, j] += 1
    with pytest.raises(lg.VerificationError, match=f"source {i}"):
        check_apsp(G, bad)
    with pytest.raises(lg.VerificationError, match="shape"):
        check_apsp(G, D[:3])


# ---------------------------------------------------------------- real graphs
@pytest.mark.data
def test_rome99(shared_data, engine):
    G = real(shared_data, "dimacs/rome99.gr")
    if too_slow_on_reference(engine, "sssp", G):
        pytest.skip(f"reference APSP limited to n <= {REFERENCE_APSP_MAX_N}")
    D = lg.apsp(G, engine=engine)   # sparse: batched SSSP
    ref = csgraph.dijkstra(G.to_scipy(), directed=True, indices=np.arange(0, G.n, 97))
    np.testing.assert_array_equal(D[::97], ref)
    check_apsp(G, D, sample=5)


@pytest.mark.data
@pytest.mark.slow
def test_rome99_floyd_warshall(shared_data, engine):
    G = real(shared_data, "dimacs/rome99.gr")
    if too_slow_on_reference(engine, "floyd_warshall", G):
        pytest.skip(f"reference Floyd-Warshall limited to n <= {REFERENCE_FW_MAX_N}")
    D = lg.apsp(G, "floyd_warshall", engine=engine)
    np.testing.assert_array_equal(D[::97], csgraph.dijkstra(G.to_scipy(), directed=True,
                                                           indices=np.arange(0, G.n, 97)))


@pytest.mark.data
def test_bitcoinotc(shared_data, engine):
    G = real(shared_data, "snap/soc-sign-bitcoinotc.csv.gz")
    if too_slow_on_reference(engine, "sssp", G):
        pytest.skip(f"reference APSP limited to n <= {REFERENCE_APSP_MAX_N}")
    assert G.weights.min() < 0
    with pytest.raises(lg.NegativeCycleError) as info:
        lg.apsp(G, engine=engine)
    assert_valid_cycle(G, info.value)
    # its acyclic part (edges u < v) keeps negative weights but has no cycle: Johnson's reweighting
    u, v = G.edges()
    keep = u < v
    H = lg.Graph.from_edges(u[keep], v[keep], w=G.weights[keep], n=G.n, directed=True)
    blocks = lg.apsp_blocks(H, 1000, engine=engine)
    next(blocks)
    rows, block = next(blocks)   # rows 1000..1999 (the rest is never computed)
    assert rows == slice(1000, 2000)
    ref = csgraph.johnson(H.to_scipy(), directed=True, indices=np.arange(1000, 1100))
    np.testing.assert_array_equal(block[:100], ref)


@pytest.mark.data
@pytest.mark.slow
def test_bitcoinotc_floyd_warshall_negative_cycle(shared_data, engine):
    G = real(shared_data, "snap/soc-sign-bitcoinotc.csv.gz")
    if too_slow_on_reference(engine, "floyd_warshall", G):
        pytest.skip(f"reference Floyd-Warshall limited to n <= {REFERENCE_FW_MAX_N}")
    with pytest.raises(lg.NegativeCycleError) as info:
        lg.apsp(G, "floyd_warshall", engine=engine)
    assert_valid_cycle(G, info.value)


@pytest.mark.data
@pytest.mark.slow
def test_facebook(shared_data, engine):
    G = real(shared_data, "snap/facebook_combined.txt.gz").to_undirected()
    if too_slow_on_reference(engine, "sssp", G):
        pytest.skip(f"reference APSP limited to n <= {REFERENCE_APSP_MAX_N}")
    ref = csgraph.shortest_path(G.to_scipy(), unweighted=True, indices=np.arange(0, G.n, 101))
    for method in METHODS:
        D = lg.apsp(G, method, engine=engine)
        np.testing.assert_array_equal(D[::101], ref)


# ---------------------------------------------------------------------- cases of the suite-wide tests

def _apsp(G, E):
    D = lg.apsp(G, "floyd_warshall", engine=E)
    check_apsp(G, D)
    return {"distance": D}


# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "floyd_warshall": ("apsp", _apsp),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "apsp": (WEIGHTED, (), {}, lambda D: bump(D, 1, 0.5)),
    "apsp_blocks": (WEIGHTED, (16,), {}, lambda blocks: ((rows, bump(b, 1, 0.5)) for rows, b in blocks)),
}
