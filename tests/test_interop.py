"""Graphs from and to scipy sparse matrices, python-graphblas matrices, NetworkX graphs and CuPy arrays."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import la_graph as lg
from la_graph import Graph

from .graphs import SMALL


def small_graphs():
    for name, make in SMALL.items():
        yield name, make()


def weighted(G, seed=0):
    """``G`` with random integer weights (duplicates of an undirected edge kept equal)."""
    rng = np.random.default_rng(seed)
    rows, cols = G.edges()
    w = rng.integers(1, 9, rows.size).astype(float)
    if not G.directed:
        keep = rows <= cols
        return Graph.from_edges(rows[keep], cols[keep], w[keep], n=G.n, directed=False)
    return Graph.from_edges(rows, cols, w, n=G.n, directed=True)


# ---------------------------------------------------------------- scipy
FORMATS = ["csr_array", "csr_matrix", "csc_array", "csc_matrix", "coo_array", "coo_matrix",
           "lil_array", "dok_matrix", "bsr_array"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_scipy_formats_round_trip(fmt):
    for name, G in small_graphs():
        for H in (G, weighted(G)):
            A = getattr(sp, fmt)(H.to_scipy())
            assert Graph.from_scipy(A, directed=H.directed, weighted=H.weighted) == H, (name, fmt)


def test_scipy_defaults_detect_symmetry_and_weights():
    A = sp.csr_array(np.array([[0, 2, 0], [2, 0, 1], [0, 1, 0]], dtype=float))
    G = Graph.from_scipy(A)
    assert (G.directed, G.weighted) == (False, True)
    assert Graph.from_scipy(sp.csr_matrix(sp.triu(A))).directed
    assert not Graph.from_scipy(sp.coo_matrix(np.ones((2, 2), dtype=bool))).weighted
    # stored explicit zeros are edges, as in scipy.sparse.csgraph
    Z = sp.csr_array((np.zeros(1), ([0], [1])), shape=(2, 2))
    assert Graph.from_scipy(Z, weighted=True).nedges == 1


def test_to_scipy_is_a_copy_with_float64_values():
    G = lg.generators.path(4)
    A = G.to_scipy()
    assert isinstance(A, sp.csr_array) and A.dtype == np.float64 and A.indices.dtype == np.int32
    A.data[:] = 7
    assert G.to_scipy().data.tolist() == [1.0] * G.nnz


@pytest.mark.parametrize("bad, match", [
    (sp.csr_array((2, 3)), "square"),
    (sp.csr_array(np.array([[1 + 1j]])), "real numbers"),
    (np.zeros((2, 2, 2)), "2-D"),
])
def test_scipy_errors(bad, match):
    with pytest.raises(lg.InvalidGraphError, match=match):
        Graph.from_scipy(bad)


@pytest.mark.parametrize("kw", [dict(directed="no"), dict(directed=1), dict(weighted="yes")])
def test_scipy_flags_must_be_bools(kw):
    (key, value), = kw.items()
    with pytest.raises(lg.InvalidArgumentError, match=f"{key} must be True or False, got {value!r}"):
        Graph.from_scipy(np.eye(2), **kw)


# ---------------------------------------------------------------- python-graphblas
def test_graphblas_round_trip():
    gb = pytest.importorskip("graphblas")
    for name, G in small_graphs():
        for H in (G, weighted(G, 1)):
            M = H.to_graphblas()
            assert isinstance(M, gb.Matrix) and M.nrows == M.ncols == H.n and M.nvals == H.nnz
            assert M.dtype.name == ("FP64" if H.weighted else "BOOL")
            assert Graph.from_graphblas(M, directed=H.directed, weighted=H.weighted) == H, name
            assert Graph.from_graphblas(M) == Graph.from_scipy(H.to_scipy()), name


def test_to_graphblas_is_a_copy():
    G = lg.generators.path(3)
    M = G.to_graphblas()
    M[0, 2] = True
    assert G.to_graphblas().nvals == 4 and G.nedges == 2
    with lg.use_engine("cpu"):
        assert lg.connected_components(G).tolist() == [0, 0, 0]


def test_from_graphblas_types_and_errors():
    gb = pytest.importorskip("graphblas")
    M = gb.Matrix.from_coo([0, 1, 1], [1, 0, 2], [3, 3, 1], nrows=4, ncols=4, dtype="INT32")
    G = Graph.from_graphblas(M)
    assert (G.n, G.directed, G.weighted) == (4, True, True)
    assert G.weights.dtype == np.float64 and G.weights.tolist() == [3.0, 3.0, 1.0]
    assert not Graph.from_graphblas(gb.Matrix.from_coo([0], [1], [True], nrows=2, ncols=2)).weighted
    assert Graph.from_graphblas(gb.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=2), directed=False).nnz == 2
    with pytest.raises(lg.InvalidGraphError, match="square"):
        Graph.from_graphblas(gb.Matrix("FP64", 2, 3))
    with pytest.raises(lg.InvalidGraphError, match="graphblas.Matrix"):
        Graph.from_graphblas(np.eye(2))
    with pytest.raises(lg.InvalidGraphError, match="finite"):
        Graph.from_graphblas(gb.Matrix.from_coo([0], [1], [np.nan], nrows=2, ncols=2))


# ---------------------------------------------------------------- NetworkX labels
def test_networkx_labels_round_trip():
    nx = pytest.importorskip("networkx")
    H = nx.Graph()
    H.add_nodes_from([("b", 1), frozenset({2}), 7, "z"])
    H.add_edge(("b", 1), 7, weight=2.5)
    H.add_edge(7, "z", weight=1.0)
    G = Graph.from_networkx(H)
    back = G.to_networkx(nodes=list(H))
    assert list(back) == list(H) and nx.utils.edges_equal(back.edges(data=True), H.edges(data=True))
    with pytest.raises(lg.InvalidArgumentError, match="4 labels"):
        G.to_networkx(nodes=[1, 2])
    with pytest.raises(lg.InvalidArgumentError, match="nodes must be a sequence of 4 labels, got int"):
        G.to_networkx(nodes=4)
    with pytest.raises(lg.InvalidArgumentError, match=r"nodes must be distinct: nodes\[2\] = 'a' repeats nodes\[0\]"):
        G.to_networkx(nodes=["a", "b", "a", "c"])     # was a graph of 3 nodes, vertices 0 and 2 merged
    with pytest.raises(lg.InvalidArgumentError, match=r"nodes must be hashable labels, got nodes\[1\] = \[2\]"):
        G.to_networkx(nodes=[1, [2], 3, 4])


def test_from_networkx_errors():
    nx = pytest.importorskip("networkx")
    for bad in ([(0, 1)], None):
        with pytest.raises(lg.InvalidGraphError, match=f"expected a NetworkX graph, got {type(bad).__name__}"):
            Graph.from_networkx(bad)
    H = nx.path_graph(3)
    with pytest.raises(lg.InvalidArgumentError, match=r"weight must be an edge attribute name or None, got \['w'\]"):
        Graph.from_networkx(H, weight=["w"])
    H.add_edge(0, 1, weight=2**60)                 # rounded silently before, as from_edges refuses
    with pytest.raises(lg.InvalidGraphError, match=r"at most 2\*\*53 .*edge \(0, 1\) has weight=1152921504606846976"):
        Graph.from_networkx(H)


# ---------------------------------------------------------------- CuPy (GPU engine; skips without a device)
@pytest.fixture
def gpu():
    cp = pytest.importorskip("cupy")
    try:
        E = lg.get_engine("gpu")
    except lg.EngineUnavailable as exc:
        pytest.skip(f"gpu engine unavailable: {exc}")
    return cp, E


EDGE_CASES = [
    ([0, 1, 1, 3], [1, 2, 2, 3], [5.0, 2.0, 1.0, 4.0], None),   # a duplicate (min weight) and a loop
    ([0, 2], [1, 0], None, 6),                                    # n larger than the ids
    ([], [], None, 3),
    ([4, 4, 0], [0, 0, 4], [1.0, 3.0, 2.0], None),
]


@pytest.mark.gpu
@pytest.mark.parametrize("u, v, w, n", EDGE_CASES)
@pytest.mark.parametrize("directed", [False, True])
def test_from_edges_on_device_equals_host(gpu, u, v, w, n, directed):
    cp, E = gpu
    host = Graph.from_edges(np.array(u, np.int64), np.array(v, np.int64), w, n=n, directed=directed)
    dev = Graph.from_edges(cp.asarray(u, dtype=cp.int64), cp.asarray(v, dtype=cp.int64),
                           None if w is None else cp.asarray(w), n=n, directed=directed)
    assert dev == host
    M = E.matrix(dev)                      # the device copy made while building: no upload
    assert M is dev._engine_cache[E._graph_key("A")]
    np.testing.assert_array_equal(lg.bfs(dev, 0, engine=E).level, lg.bfs(host, 0, engine="cpu").level)


@pytest.mark.gpu
def test_from_edges_on_device_errors(gpu):
    cp, _ = gpu
    with pytest.raises(lg.InvalidGraphError, match=">= 0"):
        Graph.from_edges(cp.asarray([0, -1]), cp.asarray([1, 1]))
    with pytest.raises(lg.InvalidGraphError, match="< n = 2"):
        Graph.from_edges(cp.asarray([0, 5]), cp.asarray([1, 1]), n=2)
    with pytest.raises(lg.InvalidGraphError, match="finite"):
        Graph.from_edges(cp.asarray([0]), cp.asarray([1]), cp.asarray([cp.nan]))
    with pytest.raises(lg.InvalidGraphError, match="same length"):
        Graph.from_edges(cp.asarray([0, 1]), cp.asarray([1]))
    with pytest.raises(lg.InvalidGraphError, match="integer vertex ids"):
        Graph.from_edges(cp.asarray([0.5]), cp.asarray([1]))


@pytest.mark.gpu
@pytest.mark.parametrize("fmt", ["csr_matrix", "coo_matrix", "csc_matrix"])
def test_from_cupy_sparse_equals_from_scipy(gpu, fmt):
    cp, E = gpu
    import cupyx.scipy.sparse as csp

    for name, G in small_graphs():
        for H in (G, weighted(G, 2)):
            A = H.to_scipy()
            D = getattr(csp, fmt)(getattr(sp, fmt)(A))
            got = Graph.from_cupy(D)
            assert got == Graph.from_scipy(A), (name, fmt)
            assert Graph.from_cupy(D, directed=H.directed, weighted=H.weighted) == H, (name, fmt)
            assert got._engine_cache.get(E._graph_key("A")) is not None
            np.testing.assert_array_equal(lg.connected_components(got, engine=E), lg.connected_components(H, engine="cpu"))
    with pytest.raises(lg.InvalidGraphError, match="square"):
        Graph.from_cupy(csp.csr_matrix(cp.zeros((2, 3))))
