"""The GPU engine's ``component_labels`` (Afforest's union-find, cuda/connected_components.cu) on graphs
chosen to break it.

Many components, long paths in both id orders, stars with the hub first and
last, self-loops, isolated vertices, no vertex at all; int32 and int64 vertex
ids and CSR indices; and, by changing the number of sampled neighbours and the
chunk length, every path of the kernels on small graphs: no sampling (the
"giant" is then one vertex and every row is linked after it), a giant that is
not the largest component, rows split into queued chunks.  Labels must be the
smallest id of each component (``check_cc``) and equal the CPU engine's.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import la_graph as lg
from la_graph import Graph, generators
from la_graph.engines.base import Declined
from la_graph.verify import check_cc

from .graphs import built_once, disjoint_union, relabeled

try:
    _GPU = lg.get_engine("gpu")
except lg.EngineUnavailable as exc:  # no CuPy, or no CUDA device
    pytest.skip(f"gpu engine unavailable: {exc}", allow_module_level=True)

from la_graph.engines import gpu as gpu_mod  # noqa: E402  (only where the engine could start)

pytestmark = pytest.mark.gpu




def _hub_last(n):
    return Graph.from_edges(np.full(n - 1, n - 1), np.arange(n - 1), n=n)


GRAPHS = {
    "no_vertex": lambda: Graph.from_edges([], [], n=0),
    "one_vertex": lambda: Graph.from_edges([], [], n=1),
    "isolated": lambda: Graph.from_edges([], [], n=3000),
    "self_loops": lambda: Graph.from_edges([0, 1, 3, 3, 7, 8], [0, 1, 4, 3, 7, 2], n=12),
    "path": lambda: generators.path(60_000),
    "path_reversed": lambda: Graph.from_edges(np.arange(60_000, 0, -1), np.arange(59_999, -1, -1)),
    "path_shuffled": lambda: relabeled(generators.path(60_000), 1),
    "star": lambda: generators.star(20_000),
    "star_hub_last": lambda: _hub_last(20_000),
    "caveman": lambda: generators.caveman(3000, 4),
    "forest": lambda: relabeled(disjoint_union(*(generators.path(k) for k in range(1, 400))), 2),
    "grid": lambda: generators.grid_2d(300, 200),
    "rmat": lambda: generators.rmat(14, 8, seed=3),
    "giant_and_hub": lambda: relabeled(disjoint_union(generators.grid_2d(200, 200), _hub_last(9000),
                                             generators.rmat(12, 8, seed=4)), 3),
}


_WIDE = gpu_mod.GPUEngine(index_dtype="int64", dense_limit=0)       # int64 CSR indices and vertex ids


@pytest.fixture(scope="module")
def engines():
    return {"int32": _GPU, "int64": _WIDE}


@pytest.fixture(scope="module")
def graphs():
    return built_once(GRAPHS, lambda G: lg.connected_components(G, engine="cpu"))


@pytest.mark.parametrize("ids", ["int32", "int64"])
@pytest.mark.parametrize("name", list(GRAPHS))
def test_labels(engines, graphs, name, ids):
    G, want = graphs(name)
    E = engines[ids]
    got = lg.connected_components(G, engine=E)
    assert got.dtype == np.int64 and got.shape == (G.n,)
    np.testing.assert_array_equal(got, want)
    check_cc(G, got)
    assert E.matrix(G).indices.dtype == (np.int32 if ids == "int32" else np.int64)
    f = E.fused_steps["component_labels"](E, G)
    assert isinstance(f, gpu_mod.GVec) and f.dtype == np.int64 and f.pres is None and f.val.dtype == np.int64


@pytest.mark.parametrize("rounds, chunk", [(0, 4096), (0, 16), (1, 16), (2, 16), (3, 64)])
@pytest.mark.parametrize("name", ["path_shuffled", "star", "star_hub_last", "forest", "rmat", "giant_and_hub"])
def test_every_kernel_path(engines, graphs, monkeypatch, name, rounds, chunk):
    """No sampling (every row linked after a one-vertex giant), other sample counts, rows in small chunks."""
    monkeypatch.setattr(gpu_mod.fused.connected_components, "_CC_ROUNDS", rounds)
    monkeypatch.setattr(gpu_mod.fused.connected_components, "_CC_CHUNK", chunk)
    G, want = graphs(name)
    for E in engines.values():
        np.testing.assert_array_equal(lg.connected_components(G, engine=E), want)


@given(n=st.integers(0, 80), edges=st.lists(st.tuples(st.integers(0, 79), st.integers(0, 79)), max_size=120),
       rounds=st.integers(0, 3), chunk=st.sampled_from([1, 2, 5, 4096]), wide=st.booleans())
@settings(max_examples=150, deadline=None)
def test_property_random_graphs(n, edges, rounds, chunk, wide):
    edges = [(u % n, v % n) for u, v in edges] if n else []
    G = Graph.from_edges([e[0] for e in edges], [e[1] for e in edges], n=n)
    E = _GPU if not wide else _WIDE
    saved = gpu_mod.fused.connected_components._CC_ROUNDS, gpu_mod.fused.connected_components._CC_CHUNK
    gpu_mod.fused.connected_components._CC_ROUNDS, gpu_mod.fused.connected_components._CC_CHUNK = rounds, chunk
    try:
        labels = lg.connected_components(G, engine=E)
    finally:
        gpu_mod.fused.connected_components._CC_ROUNDS, gpu_mod.fused.connected_components._CC_CHUNK = saved
    check_cc(G, labels)


def test_repeated_runs_agree(graphs):
    """The union-find's races must not show: the same labels every time."""
    G, want = graphs("giant_and_hub")
    for _ in range(5):
        np.testing.assert_array_equal(lg.connected_components(G, engine=_GPU), want)


def test_directed_graphs_decline():
    G = Graph.from_edges([1, 2], [0, 0], n=3, directed=True)
    with pytest.raises(Declined):
        _GPU.fused_steps["component_labels"](_GPU, G)
    np.testing.assert_array_equal(lg.connected_components(G, engine=_GPU), [0, 0, 0])
