"""Tests of la_graph.generators: sizes, structure against networkx, seeds, weights, errors."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import la_graph as lg
from la_graph.exceptions import InvalidArgumentError
from la_graph.generators import (
    UNIFORM_WEIGHT_RANGE,
    _bernoulli_indices,
    _rmat_edges,
    _unrank_pairs,
    caveman,
    circulant,
    complete,
    connected_caveman,
    delaunay,
    erdos_renyi,
    grid_2d,
    hypercube,
    path,
    rmat,
    star,
    uniform,
)
from la_graph.graph import Graph


# ---------------------------------------------------------------------------- helpers
def edge_set(G):
    """Undirected edges of G as a set of (min, max) pairs."""
    rows, cols = G.edges()
    return {(int(a), int(b)) for a, b in zip(rows.tolist(), cols.tolist()) if a <= b}


def nx_edge_set(H, label=lambda x: x):
    return {tuple(sorted((label(a), label(b)))) for a, b in H.edges()}


def assert_symmetric(G):
    A = G.to_scipy()
    assert (A != A.T).nnz == 0


def upper_weights(G):
    """Weights of the undirected edges of G (one per edge)."""
    return sp.triu(G.to_scipy()).tocoo().data


# every random generator, with small arguments, as (name, call(seed, **kw))
RANDOM = {
    "rmat": lambda seed, **kw: rmat(8, seed=seed, **kw),
    "uniform": lambda seed, **kw: uniform(300, 1200, seed=seed, **kw),
    "erdos_renyi": lambda seed, **kw: erdos_renyi(200, 0.05, seed=seed, **kw),
}
# every generator (the regular ones only use the seed for weights; delaunay for its points too)
ALL = {
    **RANDOM,
    "delaunay": lambda seed, **kw: delaunay(300, seed=seed, **kw),
    "grid_2d": lambda seed, **kw: grid_2d(7, 9, seed=seed, **kw),
    "grid_2d_torus_diag": lambda seed, **kw: grid_2d(5, 6, diagonal=True, periodic=True, seed=seed, **kw),
    "circulant": lambda seed, **kw: circulant(30, [1, 4, 15], seed=seed, **kw),
    "hypercube": lambda seed, **kw: hypercube(6, seed=seed, **kw),
    "caveman": lambda seed, **kw: caveman(4, 5, seed=seed, **kw),
    "connected_caveman": lambda seed, **kw: connected_caveman(4, 5, seed=seed, **kw),
    "path": lambda seed, **kw: path(20, seed=seed, **kw),
    "star": lambda seed, **kw: star(20, seed=seed, **kw),
    "complete": lambda seed, **kw: complete(12, seed=seed, **kw),
}


# ---------------------------------------------------------------------------- regular families vs networkx
@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 5), (2, 2), (3, 4), (6, 5), (0, 3)])
@pytest.mark.parametrize("periodic", [False, True])
def test_grid_2d_matches_networkx(rows, cols, periodic):
    G = grid_2d(rows, cols, periodic=periodic)
    H = nx.grid_2d_graph(rows, cols, periodic=periodic)
    assert G.n == rows * cols and not G.directed
    assert edge_set(G) == nx_edge_set(H, lambda rc: rc[0] * cols + rc[1])
    if not periodic:
        assert G.nedges == max(2 * rows * cols - rows - cols, 0)


def test_grid_2d_periodic_per_dimension():
    G = grid_2d(4, 5, periodic=(True, False))
    H = nx.grid_2d_graph(4, 5, periodic=(True, False))
    assert edge_set(G) == nx_edge_set(H, lambda rc: rc[0] * 5 + rc[1])


def test_grid_2d_diagonal():
    r, c = 5, 7
    G = grid_2d(r, c, diagonal=True)
    assert G.nedges == 2 * r * c - r - c + 2 * (r - 1) * (c - 1)
    deg = G.out_degree.reshape(r, c)
    assert deg[1:-1, 1:-1].min() == deg.max() == 8
    assert deg[0, 0] == 3
    # a king's move torus is 8-regular once both sides exceed 2
    T = grid_2d(4, 5, diagonal=True, periodic=True)
    assert T.nedges == 4 * 4 * 5 and set(T.out_degree.tolist()) == {8}


@pytest.mark.parametrize("n, offsets", [(10, [1, 2]), (10, [5]), (7, [1, 3]), (12, [1, -1, 13]), (9, 4), (2, [1])])
def test_circulant_matches_networkx(n, offsets):
    G = circulant(n, offsets)
    offs = [offsets] if isinstance(offsets, int) else offsets
    assert edge_set(G) == nx_edge_set(nx.circulant_graph(n, offs))


def test_circulant_edge_count():
    n = 20
    # offsets 1, 3 give n edges each; 10 = n/2 gives n/2; -3 repeats 3
    assert circulant(n, [1, 3, 10, -3]).nedges == n + n + n // 2
    assert set(circulant(n, [1, 3]).out_degree.tolist()) == {4}


@pytest.mark.parametrize("dim", [0, 1, 2, 3, 5])
def test_hypercube_matches_networkx(dim):
    G = hypercube(dim)
    assert G.n == 2**dim
    assert G.nedges == dim * 2 ** (dim - 1) if dim else G.nedges == 0
    # networkx labels nodes by bit tuples (plain ints when dim == 1); any bit order gives the same edges
    bits = lambda t: t if isinstance(t, int) else sum(int(x) << i for i, x in enumerate(t))  # noqa: E731
    assert edge_set(G) == nx_edge_set(nx.hypercube_graph(dim), bits)
    x = (G.edges()[0] ^ G.edges()[1]).astype(np.int64)
    assert np.all((x > 0) & (x & (x - 1) == 0))  # endpoints differ in exactly one bit


@pytest.mark.parametrize("l, k", [(1, 1), (1, 4), (3, 1), (3, 4), (0, 3)])
def test_caveman_matches_networkx(l, k):
    G = caveman(l, k)
    assert G.n == l * k
    assert G.nedges == l * k * (k - 1) // 2
    assert edge_set(G) == nx_edge_set(nx.caveman_graph(l, k))


@pytest.mark.parametrize("l, k", [(1, 2), (1, 3), (1, 5), (2, 2), (2, 3), (3, 2), (3, 4), (5, 5), (6, 3)])
def test_connected_caveman_matches_networkx(l, k):
    G = connected_caveman(l, k)
    H = nx.connected_caveman_graph(l, k)
    assert G.n == H.number_of_nodes()
    assert edge_set(G) == nx_edge_set(H)
    if l >= 2:
        assert G.nedges == l * k * (k - 1) // 2


def test_small_helpers_match_networkx():
    assert edge_set(path(6)) == nx_edge_set(nx.path_graph(6))
    assert edge_set(star(6)) == nx_edge_set(nx.star_graph(5))  # networkx counts leaves
    assert edge_set(complete(7)) == nx_edge_set(nx.complete_graph(7))
    for f in (path, star, complete):
        assert f(0).n == 0 and f(0).nedges == 0
        assert f(1).n == 1 and f(1).nedges == 0
    assert complete(30).nedges == 30 * 29 // 2


# ---------------------------------------------------------------------------- random families
def test_rmat_sizes_and_skew():
    G = rmat(12, seed=3)
    n = 2**12
    assert G.n == n and not G.directed
    assert 0.5 * 16 * n < G.nedges <= 16 * n
    assert G.self_loops == 0
    deg = G.out_degree
    assert deg.max() > 20 * deg.mean()  # heavy tail
    assert_symmetric(G)


def test_rmat_unpermuted_hub_is_vertex_zero():
    G = rmat(10, seed=3, permute=False)
    assert int(np.argmax(G.out_degree)) == 0
    # the permutation is drawn after the edges: same graph, relabelled
    P = rmat(10, seed=3)
    assert P != G
    assert sorted(P.out_degree.tolist()) == sorted(G.out_degree.tolist())


def test_rmat_quadrant_probabilities():
    a, b, c = 0.45, 0.25, 0.2
    d = 1 - a - b - c
    m = 200_000
    u, v = _rmat_edges(6, m, (a, a + b, a + b + c), np.random.default_rng(0))
    assert u.max() < 64 and v.max() < 64
    top_u, top_v = u >> 5, v >> 5
    frac = [np.mean((top_u == i) & (top_v == j)) for i, j in ((0, 0), (0, 1), (1, 0), (1, 1))]
    assert np.allclose(frac, [a, b, c, d], atol=0.005)
    low_u = u & 1  # every level uses the same probabilities
    assert abs(low_u.mean() - (c + d)) < 0.005


def test_rmat_options():
    D = rmat(8, seed=1, directed=True)
    assert D.directed and not D.is_symmetric
    L = rmat(4, edge_factor=16, seed=1, self_loops=True)
    assert L.self_loops > 0
    assert rmat(0, seed=1).n == 1
    assert rmat(6, edge_factor=0, seed=1).nedges == 0
    # the symmetric default is the directed graph made two-way
    assert rmat(8, seed=1) == rmat(8, seed=1, directed=True).to_undirected()


def test_uniform():
    G = uniform(500, 3000, seed=2)
    assert G.n == 500 and 2900 < G.nedges <= 3000 and G.self_loops == 0
    assert_symmetric(G)
    D = uniform(500, 3000, seed=2, directed=True)
    assert D.directed and 2900 < D.nedges <= 3000
    assert uniform(1, 10, seed=0, self_loops=True).self_loops == 1
    assert uniform(1, 10, seed=0).nedges == 0
    assert uniform(0, 0).n == 0


def test_erdos_renyi_extremes():
    assert erdos_renyi(50, 0.0, seed=1).nedges == 0
    assert edge_set(erdos_renyi(9, 1.0)) == edge_set(complete(9))
    D = erdos_renyi(9, 1.0, directed=True)
    assert D.nedges == 9 * 8 and D.self_loops == 0
    assert erdos_renyi(0, 0.5).n == 0 and erdos_renyi(1, 0.5).nedges == 0


def test_erdos_renyi_statistics():
    n, p = 2000, 0.01
    G = erdos_renyi(n, p, seed=11)
    pairs = n * (n - 1) / 2
    assert abs(G.nedges - pairs * p) < 5 * math.sqrt(pairs * p)
    assert G.self_loops == 0
    # no bias by vertex id (a decoding bug would skew low or high ids)
    deg = G.out_degree
    assert abs(deg[: n // 2].mean() - deg[n // 2 :].mean()) < 1.0
    D = erdos_renyi(n, p, seed=11, directed=True)
    assert abs(D.nedges - 2 * pairs * p) < 5 * math.sqrt(2 * pairs * p)
    assert abs(D.out_degree.mean() - D.in_degree.mean()) < 1e-9
    assert abs(D.in_degree[: n // 2].mean() - D.in_degree[n // 2 :].mean()) < 1.0


def test_erdos_renyi_dense_apsp_family():
    n, p = 2700, 0.5
    G = erdos_renyi(n, p, seed=5)
    pairs = n * (n - 1) // 2
    assert abs(G.nedges - pairs * p) < 5 * math.sqrt(pairs * p * (1 - p))
    assert G.out_degree.min() > 0.4 * n


def test_erdos_renyi_pair_frequencies():
    # every pair is equally likely: count pair hits over many small graphs
    n, p, trials = 6, 0.3, 600
    counts = np.zeros((n, n))
    rng = np.random.default_rng(0)
    for _ in range(trials):
        counts += erdos_renyi(n, p, seed=rng).to_scipy().toarray()
    off = counts[~np.eye(n, dtype=bool)] / trials
    assert np.all(np.abs(off - p) < 5 * math.sqrt(p * (1 - p) / trials))
    assert np.all(np.diag(counts) == 0)


def test_bernoulli_indices_and_unranking():
    rng = np.random.default_rng(4)
    k = _bernoulli_indices(10_000, 0.2, rng)
    assert np.all(np.diff(k) > 0) and k[0] >= 0 and k[-1] < 10_000
    assert abs(k.size - 2000) < 5 * 40
    # small batches take the continuation path and give the same indices
    for p in (1e-3, 0.2, 0.7):
        one = _bernoulli_indices(10**5, p, np.random.default_rng(1))
        assert np.array_equal(_bernoulli_indices(10**5, p, np.random.default_rng(1), batch=7), one)
    ranks = np.arange(45)
    i, j = _unrank_pairs(ranks)
    assert list(zip(i.tolist(), j.tolist())) == [(a, b) for a in range(10) for b in range(a)]
    big = np.array([(3 * 10**9) * (3 * 10**9 - 1) // 2 - 1, 4 * 10**17 + 12345], dtype=np.int64)
    i, j = _unrank_pairs(big)
    assert np.all(i * (i - 1) // 2 + j == big) and np.all((0 <= j) & (j < i))


# ---------------------------------------------------------------------------- shared rules
@pytest.mark.parametrize("name", sorted(RANDOM))
def test_seed_reproducibility(name):
    make = RANDOM[name]
    G1, G2 = make(123), make(123)
    assert G1 == G2
    assert make(124) != G1
    assert make(np.random.default_rng(123)) == G1
    assert make(123, weights="uniform") == make(123, weights="uniform")


def test_generator_seed_is_consumed_not_copied():
    rng = np.random.default_rng(9)
    assert uniform(100, 300, seed=rng) != uniform(100, 300, seed=rng)


def test_rmat_golden_fingerprint():
    # pins the random stream: a change here changes every seeded benchmark graph
    G = rmat(8, seed=2024)
    rows, cols = G.edges()
    assert (G.nedges, int((rows.astype(np.int64) * 7 + cols).sum() % 1_000_003)) == GOLDEN_RMAT


GOLDEN_RMAT = (2160, 472676)  # rmat(8, seed=2024): edge count and an edge checksum


@pytest.mark.parametrize("name", sorted(ALL))
def test_undirected_outputs_are_symmetric(name):
    for weights in (None, "uniform", (1, 5)):
        G = ALL[name](0, weights=weights)
        assert not G.directed and G.weighted == (weights is not None)
        assert_symmetric(G)


@pytest.mark.parametrize("name", sorted(ALL))
def test_weights(name):
    make = ALL[name]
    plain = make(7)
    U = make(7, weights="uniform")
    assert edge_set(U) == edge_set(plain)  # weights never change the structure
    w = U.weights
    assert w.min() >= UNIFORM_WEIGHT_RANGE[0] and w.max() < UNIFORM_WEIGHT_RANGE[1]
    Q = make(7, weights="unique")
    assert np.array_equal(np.sort(upper_weights(Q)), np.arange(1, Q.nedges + 1, dtype=float))
    I = make(7, weights=(2, 4))
    assert set(np.unique(I.weights).tolist()) <= {2.0, 3.0, 4.0}
    assert make(7, weights=(3, 3)).weights.tolist() == [3.0] * plain.nnz


def test_integer_weights_cover_both_ends():
    G = grid_2d(20, 20, weights=(-1, 1), seed=0)
    assert set(np.unique(G.weights).tolist()) == {-1.0, 0.0, 1.0}


@pytest.mark.parametrize("name", sorted(RANDOM))
def test_directed_unique_weights(name):
    D = RANDOM[name](3, directed=True, weights="unique")
    assert D.directed
    assert np.array_equal(np.sort(D.weights), np.arange(1, D.nedges + 1, dtype=float))


def test_returns_graph():
    for make in ALL.values():
        assert isinstance(make(0), Graph)


# ---------------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: rmat(-1), "scale"),
        (lambda: rmat(41), "scale must be an integer in 0..31, got 41"),
        (lambda: rmat(2.5), "scale must be an integer, got 2.5"),
        (lambda: rmat(True), "scale"),
        (lambda: rmat(5, edge_factor=-1), "edge_factor"),
        (lambda: rmat(5, a=0.6, b=0.3, c=0.1), r"a \+ b \+ c < 1"),
        (lambda: rmat(5, a=0.7, b=0.3, c=0.2), r"a \+ b \+ c < 1.*got a \+ b \+ c = 1.2"),
        (lambda: rmat(5, a=-0.1), "a must be >= 0.0, got -0.1"),
        (lambda: rmat(5, b=float("nan")), "b must be a finite real number, got nan"),
        (lambda: rmat(5, c="x"), "c must be a finite real number"),
        (lambda: uniform(-3, 10), "n must be an integer in 0..3037000499, got -3"),
        (lambda: uniform(10, -1), "m must be an integer >= 0, got -1"),
        (lambda: uniform(0, 5), "n >= 1"),
        (lambda: erdos_renyi(10, 1.5), "p must be <= 1.0, got 1.5"),
        (lambda: erdos_renyi(10, -0.1), "p must be >= 0.0, got -0.1"),
        (lambda: erdos_renyi(-1, 0.1), "n must be"),
        (lambda: erdos_renyi(4 * 10**9, 0.1), "n must be"),
        (lambda: grid_2d(-1, 3), "rows"),
        (lambda: grid_2d(3, 3, periodic=(True,)), "periodic"),
        (lambda: grid_2d(10**5, 10**5), r"rows \* cols"),
        (lambda: circulant(0, [1]), "n must be an integer in 1.."),
        (lambda: circulant(10, [1, 10]), "multiples of n = 10.*got 10"),
        (lambda: circulant(10, [0]), "multiples"),
        (lambda: circulant(10, [1.5]), "each offset must be an integer, got 1.5"),
        (lambda: circulant(10, None), "offsets must be an int or a sequence"),
        (lambda: hypercube(-1), "dim"),
        (lambda: hypercube(32), "dim must be an integer in 0..31, got 32"),
        (lambda: caveman(-2, 3), "n_caves"),
        (lambda: caveman(2, -3), "cave_size"),
        (lambda: connected_caveman(3, 1), "cave_size must be an integer >= 2, got 1"),
        (lambda: path(-1), "n must be"),
        (lambda: star(-1), "n must be"),
        (lambda: complete(-1), "n must be"),
        (lambda: path(3, weights="random"), "weights must be None, 'uniform', 'unique'.*'random'"),
        (lambda: path(3, weights=(5, 1)), "low <= high"),
        (lambda: path(3, weights=(1.0, 2.0)), "weights must be"),
        (lambda: path(3, weights=(0, 2**60)), "2\\*\\*53"),
        (lambda: path(3, weights=(1, 2, 3)), "weights must be"),
        (lambda: uniform(10, 10, seed=-1), "seed must be"),
        (lambda: uniform(10, 10, seed=1.5), "seed must be"),
        (lambda: uniform(10, 10, seed=True), "seed must be"),
        (lambda: grid_2d(2, 2, seed="abc"), "seed must be"),
        (lambda: uniform(5, 2, self_loops="x"), "self_loops must be True or False, got 'x'"),
        (lambda: grid_2d(2, 2, diagonal="x"), "diagonal must be True or False, got 'x'"),
        (lambda: rmat(3, directed="no"), "directed must be True or False, got 'no'"),
    ],
)
def test_bad_arguments(call, match):
    with pytest.raises(InvalidArgumentError, match=match):
        call()


@pytest.mark.parametrize("call, match", [
    (lambda: complete(10**6), r"complete\(1000000\) \(499,999,500,000 edges\) needs [\d,]+ bytes of memory"),
    (lambda: caveman(1, 10**6), r"1 caves of 1000000 vertices \(499,999,500,000 edges\) needs"),
    (lambda: erdos_renyi(10**6, 0.5), r"erdos_renyi\(1000000, 0.5\) \(249,999,750,000 edges expected\) needs"),
    (lambda: uniform(10, 10**13), r"uniform\(10, 10000000000000\) \(10,000,000,000,000 edges\) needs"),
    (lambda: rmat(31, 10**6), r"rmat\(31, 1000000\) \(2,147,483,648,000,000 edges\) needs"),
    (lambda: grid_2d(50000, 50000), r"grid_2d\(50000, 50000\) \(5,000,000,000 edges\) needs"),
    (lambda: delaunay(10**9), r"delaunay\(1000000000\) \(3,000,000,000 edges\) needs"),
    (lambda: circulant(10**9, list(range(1, 50))), r"circulant\(1000000000, 49 offsets\) \(49,000,000,000 edges\)"),
])
def test_graphs_too_large_for_memory_are_refused_first(call, match):
    """Each was numpy's MemoryError from deep inside (an n x n mask, or the edge arrays)."""
    with pytest.raises(lg.OutOfMemory, match=match + ".*generate a smaller graph"):
        call()


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        erdos_renyi(5, 2.0)


# ---------------------------------------------------------------------------- delaunay
def test_delaunay_is_the_triangulation_of_its_points():
    from scipy.sparse.csgraph import connected_components
    from scipy.spatial import Delaunay

    n = 2000
    G = delaunay(n, seed=5)
    pts = np.random.default_rng(5).random((n, 2))          # the points come first from the seed
    want = set()
    for a, b, c in Delaunay(pts).simplices.tolist():
        want |= {tuple(sorted(e)) for e in ((a, b), (b, c), (a, c))}
    assert edge_set(G) == want
    assert_symmetric(G)
    assert G.nedges <= 3 * n - 6                              # planar
    assert connected_components(G.to_scipy(), directed=False)[0] == 1


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_delaunay_of_few_points(n):
    G = delaunay(n, seed=1)
    assert G.n == n
    assert G.nedges == {0: 0, 1: 0, 2: 1, 3: 3}[n]
