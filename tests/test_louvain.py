"""Louvain: planted partitions recovered, NetworkX's and igraph's quality, every moving round raising the modularity, local
optimality, seeds, engines (the CPU kernel equal to the algebra), bad inputs."""

import random

import networkx as nx
import numpy as np
import pytest

import la_graph as lg
from la_graph import _random, generators
from la_graph.algorithms import steps
from la_graph.algorithms.louvain import _after, _uncrowded, round_seed
from la_graph.algorithms.modularity import canonical_labels
from la_graph.engines.cpu.fused import louvain as kernel
from la_graph.exceptions import InvalidArgumentError, InvalidGraphError, VerificationError
from la_graph.verify import check_communities

from .graphs import KARATE, bump, real


def nmi(a, b):
    """Normalised mutual information of two labelings (arithmetic mean of the entropies)."""
    _, a = np.unique(a, return_inverse=True)
    _, b = np.unique(b, return_inverse=True)
    joint = np.zeros((a.max() + 1, b.max() + 1))
    np.add.at(joint, (a, b), 1)
    p = joint / joint.sum()
    pa, pb = p.sum(1), p.sum(0)
    nz = p > 0
    mi = float((p[nz] * np.log(p[nz] / np.outer(pa, pb)[nz])).sum())
    h = lambda q: -float((q[q > 0] * np.log(q[q > 0])).sum())
    return 1.0 if h(pa) + h(pb) == 0 else 2 * mi / (h(pa) + h(pb))


def planted(blocks, size, p_in, p_out, seed):
    """A stochastic block model: ``blocks`` groups of ``size`` vertices; returns (Graph, truth)."""
    H = nx.stochastic_block_model([size] * blocks, np.where(np.eye(blocks) > 0, p_in, p_out).tolist(), seed=seed)
    u, v = np.array(H.edges()).T
    return lg.Graph.from_edges(u, v, n=blocks * size), np.repeat(np.arange(blocks), size)


def test_caveman_and_block_model_recovered(engine):
    G = generators.connected_caveman(6, 8)
    labels = lg.louvain(G, seed=0, engine=engine)
    assert nmi(labels, np.repeat(np.arange(6), 8)) >= 0.95
    check_communities(G, labels, modularity=lg.modularity(G, labels))
    G, truth = planted(5, 30, 0.4, 0.01, seed=2)
    labels = lg.louvain(G, seed=3, engine=engine)
    assert nmi(labels, truth) >= 0.95
    check_communities(G, labels)


@pytest.mark.parametrize("seed", [0, 1])
def test_quality_at_least_networkx(seed):
    for G in (generators.rmat(9, 8, seed=seed), planted(4, 40, 0.2, 0.02, seed=seed)[0],
              generators.grid_2d(15, 15), generators.erdos_renyi(300, 0.02, seed=seed)):
        labels = lg.louvain(G, seed=seed)
        check_communities(G, labels)
        H = G.to_networkx()
        want = nx.community.modularity(H, nx.community.louvain_communities(H, seed=seed))
        assert lg.modularity(G, labels) >= want - 0.005


def test_weighted_and_resolution():
    G = generators.grid_2d(12, 12, weights=(1, 9), seed=4)
    for gamma in (0.5, 1.0, 3.0):
        labels = lg.louvain(G, gamma, seed=1)
        check_communities(G, labels, resolution=gamma)
    assert len(np.unique(lg.louvain(G, 3.0, seed=1))) > len(np.unique(lg.louvain(G, 0.5, seed=1)))


def test_same_seed_same_partition(engine):
    G = generators.rmat(8, 8, seed=7)
    a = lg.louvain(G, seed=5, engine=engine)
    np.testing.assert_array_equal(a, lg.louvain(G, seed=5, engine=engine))
    np.testing.assert_array_equal(a, lg.louvain(G, seed=5, engine="cpu"))


def test_dendrogram():
    G = generators.connected_caveman(8, 6)
    r = lg.louvain(G, seed=2, dendrogram=True)
    assert isinstance(r, lg.LouvainResult) and len(r.levels) >= 1
    np.testing.assert_array_equal(r.levels[-1], r.labels)
    np.testing.assert_array_equal(r.labels, lg.louvain(G, seed=2))
    first = lg.louvain(G, seed=2, max_level=1, dendrogram=True)
    assert len(first.levels) == 1


def test_edgeless_and_self_loops(engine):
    for G in (lg.Graph.from_edges([], [], n=0), lg.Graph.from_edges([], [], n=4),
              lg.Graph.from_edges([0, 1], [1, 2], w=[0.0, 0.0])):
        np.testing.assert_array_equal(lg.louvain(G, engine=engine), np.arange(G.n))
    G = lg.Graph.from_edges([0, 0, 1, 2, 3, 4, 5, 3, 0], [1, 2, 2, 3, 4, 5, 3, 3, 0])   # loops at 0 and 3
    labels = lg.louvain(G, seed=0, engine=engine)
    check_communities(G, labels)
    assert labels.tolist() == [0, 0, 0, 3, 3, 3]


def test_check_true():
    G = generators.connected_caveman(4, 4)
    assert lg.louvain(G, seed=0, check=True).tolist() == lg.louvain(G, seed=0).tolist()


def test_checker_catches_wrong_answers():
    G = generators.connected_caveman(4, 4)
    labels = lg.louvain(G, seed=0)
    bad = labels.copy()
    bad[0] = 4                                           # not its community's smallest id
    with pytest.raises(VerificationError, match="smallest vertex id"):
        check_communities(G, bad)
    with pytest.raises(VerificationError, match="gains"):
        check_communities(G, np.r_[np.zeros(4, int), np.full(12, 4)])
    with pytest.raises(VerificationError, match="modularity"):
        check_communities(G, labels, modularity=0.1)
    two = lg.Graph.from_edges([0, 2], [1, 3])
    with pytest.raises(VerificationError, match="not connected"):
        check_communities(two, np.zeros(4, int), connected=True)


def test_bad_inputs():
    with pytest.raises(InvalidGraphError, match="undirected"):
        lg.louvain(generators.path(4).T._with(directed=True))
    with pytest.raises(InvalidGraphError, match="edge 1 -> 2 of weight -1.0"):
        lg.louvain(lg.Graph.from_edges([0, 1], [1, 2], w=[1.0, -1.0]))
    for bad in (0, -2, float("nan"), float("inf")):
        with pytest.raises(InvalidArgumentError, match="resolution"):
            lg.louvain(generators.path(4), bad)
    with pytest.raises(InvalidArgumentError, match="seed"):
        lg.louvain(generators.path(4), seed=-1)
    with pytest.raises(InvalidArgumentError, match="max_level"):
        lg.louvain(generators.path(4), max_level=0)
    for bad in (-1e-3, float("nan"), "0.1"):
        with pytest.raises(InvalidArgumentError, match="pass_threshold"):
            lg.louvain(generators.path(4), pass_threshold=bad)


@pytest.mark.parametrize("pass_threshold", [0.0, 1e-4, 1.0])
def test_pass_threshold_still_a_fixpoint(engine, pass_threshold):
    """Passes cut short by ``pass_threshold`` (1.0: after the second) end in single moves (``polish``): still a
    fixpoint of single moves, the same on every engine; 0 runs the passes until one changes nothing."""
    G = generators.rmat(10, 8, seed=4)
    labels = lg.louvain(G, seed=3, pass_threshold=pass_threshold, engine=engine)
    check_communities(G, labels)
    np.testing.assert_array_equal(labels, lg.louvain(G, seed=3, pass_threshold=pass_threshold, engine="cpu"))


def test_dask_engine(threaded):
    from la_graph.engines.dask import DaskEngine
    E = DaskEngine(threaded, grid=2)
    G = generators.connected_caveman(3, 4)
    np.testing.assert_array_equal(lg.louvain(G, seed=1, engine=E), lg.louvain(G, seed=1, engine="cpu"))


@pytest.mark.data
def test_email_eu_core_departments(shared_data):
    G = real(shared_data, "snap/email-Eu-core.txt.gz").to_undirected()
    labels = lg.louvain(G, seed=0)
    check_communities(G, labels)
    H = G.to_networkx()
    assert lg.modularity(G, labels) >= nx.community.modularity(H, nx.community.louvain_communities(H, seed=0)) - 0.005


@pytest.mark.parametrize("seed, level, r", [(0, 0, 0), (1, 2, 3), (2**64 - 1, 7, 41), (12345, 0, 999)])
def test_cpu_kernel_priorities_are_the_algebras(seed, level, r):
    """The CPU kernel computes Luby's priorities with its own uint64 copy of la_graph._random's hash:
    the same numbers as the algebra's vertex_priorities(round_seed(...)), or its moves would differ."""
    out = np.empty(1000, np.int64)
    kernel.priorities(out.size, np.uint64(seed), level, r, out)   # as louvain_move passes it
    np.testing.assert_array_equal(out, _random.vertex_priorities(out.size, round_seed(seed, level, r)))


def _q(A, k, lab, gamma=1.0):
    """Modularity (off-diagonal part; the diagonal is the same for every partition) of ``lab``, in numpy."""
    A = A.tocoo()
    inside = float(A.data[lab[A.row] == lab[A.col]].sum())
    sigma = np.bincount(lab, k, lab.size)
    return inside / k.sum() - gamma * float(sigma @ sigma) / k.sum() ** 2


def _check_hub_maps(A, lab, hubs):
    """Every hub's map holds its row's weights to each neighbouring community (and its edge count), exactly
    (the weights are integers: sums in any order are exact).  All hubs at once: (row, community) keys."""
    hub, hbase, hcap, _, hkey, hcnt, hval = hubs[:7]
    n = lab.size
    rows = np.flatnonzero(hub >= 0)
    lens = A.indptr[rows + 1] - A.indptr[rows]
    at = np.repeat(A.indptr[rows] - np.cumsum(lens) + lens, lens) + np.arange(lens.sum())
    want_keys, inv = np.unique(np.repeat(rows, lens) * n + lab[A.indices[at]], return_inverse=True)
    want_cnt = np.bincount(inv, minlength=want_keys.size)
    want_val = np.bincount(inv, A.data[at], minlength=want_keys.size)
    caps = hcap[hub[rows]]
    slot = np.repeat(hbase[hub[rows]] - np.cumsum(caps) + caps, caps) + np.arange(caps.sum())
    owner = np.repeat(rows, caps)
    live = hcnt[slot] > 0
    got_keys = owner[live] * n + hkey[slot][live]
    order = np.argsort(got_keys)
    assert got_keys.size == want_keys.size, f"the hub maps hold {got_keys.size} (hub, community) pairs, the rows {want_keys.size}"
    wrong = (got_keys[order] != want_keys) | (hcnt[slot][live][order] != want_cnt) \
        | (hval[slot][live][order] != want_val)
    assert not wrong.any(), f"hub {int(want_keys[np.argmax(wrong)] // n)}'s map"


@pytest.mark.parametrize("make", [lambda: generators.rmat(11, 16, seed=3), lambda: generators.grid_2d(30, 30),
                                  lambda: generators.rmat(10, 8, seed=4, weights=(1, 9))])
def test_every_moving_round_raises_modularity(make):
    """Round by round (the CPU kernel, one round a call; it equals the algebra): a round that moves raises the
    modularity strictly, so nothing oscillates, and the last round leaves no vertex that gains alone."""
    G = make()
    A = G.to_scipy().tocsr().astype(np.float64)
    A.setdiag(0)
    A.eliminate_zeros()
    A.sort_indices()
    n = A.shape[0]
    k = np.asarray(A.sum(1)).ravel()
    lab = np.arange(n, dtype=np.int64)
    sigma = kernel._degree_sums(k, lab)
    scratch = dict(acc=np.empty(n), gain=np.empty(n), crowd=np.zeros(n), crowd2=np.zeros(n))
    ints = [np.empty(n, np.int64) for _ in range(7)]
    seen, mover, listed = np.zeros(n, bool), np.zeros(n, bool), np.zeros(n, bool)
    prio, active, state = np.full(n, -1, np.int64), np.arange(n, dtype=np.int64), np.array([0, n, 1], np.int64)
    indptr, indices = A.indptr.astype(np.int64), A.indices.astype(np.int64)
    hubs = kernel.hub_maps(indptr, A.data, n, min_degree=4)              # small hubs: their maps are exercised
    assert (hubs[0] >= 0).any()
    kernel.build_hubs(indptr, indices, A.data, lab, *hubs, 0, 1 << 40)
    at, q, rounds = 0, _q(A, k, lab), 0
    while at >= 0:
        before = lab.copy()
        at = kernel.move_rounds(indptr, indices, A.data, k, lab, k.sum(), 1.0,
                                np.uint64(5), np.uint64(0), sigma, scratch["acc"], seen, ints[0], ints[1],
                                scratch["gain"], prio, ints[2], ints[3], ints[4], ints[5], mover, scratch["crowd"],
                                scratch["crowd2"], active, ints[6], listed, state, *hubs, at, 1)
        rounds += 1
        new = _q(A, k, lab)
        if not np.array_equal(before, lab):
            assert new > q, f"round {rounds} moved {int((before != lab).sum())} vertices and lost modularity"
        q = new
        np.testing.assert_array_equal(sigma, np.bincount(lab, k, n))      # the degree sums follow the moves
        _check_hub_maps(A, lab, hubs)
    assert rounds < n
    check_communities(G, canonical_labels(lab))


@pytest.mark.parametrize("gamma", [0.5, 2.0])
def test_cpu_kernel_equals_algebra_weighted(gamma):
    """The CPU kernel takes the algebra's moves with integer weights and another resolution too."""
    for G in (generators.rmat(10, 8, seed=8, weights=(1, 50)), generators.grid_2d(25, 20, weights=(1, 9), seed=2)):
        fused = lg.louvain(G, gamma, seed=3)
        with steps.algebraic("louvain_move"):
            np.testing.assert_array_equal(fused, lg.louvain(G, gamma, seed=3))
        np.testing.assert_array_equal(fused, lg.louvain(G, gamma, seed=3, engine="reference"))
        check_communities(G, fused, resolution=gamma)


def test_cpu_kernel_hubs_equal_algebra(monkeypatch):
    """With nearly every vertex a hub (its weights kept in a map, its reading skipped when no gain is
    possible) the kernel still takes the algebra's moves; fractional weights build no map."""
    monkeypatch.setattr(kernel, "HUB_MIN_DEGREE", 2)
    monkeypatch.setattr(kernel, "HUB_MIN_ENTRIES", 0)
    for G in (generators.rmat(11, 16, seed=3), generators.rmat(10, 8, seed=8, weights=(1, 50)),
              generators.grid_2d(25, 20, weights=(1, 9), seed=2)):
        fused = lg.louvain(G, seed=4)
        with steps.algebraic("louvain_move"):
            np.testing.assert_array_equal(fused, lg.louvain(G, seed=4))
    w = np.array([0.5, 1.0, 2.0])
    assert not (kernel.hub_maps(np.array([0, 3, 3, 3, 3]), w, 4, min_degree=1)[0] >= 0).any()


def test_crowding_prefix_sums():
    """J and L: the degrees of the higher-priority candidates of the same target (source), in priority order."""
    prio = np.array([5, 9, 1, 7, 3])
    group = np.array([2, 2, 2, 4, 4])
    km = np.array([1.0, 10.0, 100.0, 1000.0, 10000.0])
    np.testing.assert_array_equal(_after(-prio, group, km), [10.0, 0.0, 11.0, 0.0, 1000.0])
    g = np.array([1.0, 1.0, 1.0, 1.0, 1.0])
    keep = _uncrowded(g, km, np.array([0, 1, 3, 5, 6]), group, prio, 1.0)
    assert keep.tolist() == [False, True, False, True, False]       # the first of each target always stays


@pytest.mark.data
@pytest.mark.parametrize("name", ["snap/facebook_combined.txt.gz", "snap/CA-GrQc.txt.gz", "snap/email-Eu-core.txt.gz"])
def test_quality_at_least_igraph(shared_data, name):
    """Modularity at least igraph's community_multilevel's (its own random order, seeded) less 0.002."""
    ig = pytest.importorskip("igraph")
    G = real(shared_data, name).to_undirected()
    labels = lg.louvain(G, seed=0)
    check_communities(G, labels)
    r, c = G.edges()
    keep = r <= c
    random.seed(0)
    H = ig.Graph(n=G.n, edges=np.c_[r[keep], c[keep]].tolist())
    assert lg.modularity(G, labels) >= lg.modularity(G, np.array(H.community_multilevel().membership)) - 0.002


# ---------------------------------------------------------------------- cases of the suite-wide tests

def community_levels(G, E, method):
    """``method`` (louvain or leiden) with its dendrogram: the labels and every level's."""
    G = G.to_undirected() if G.directed else G        # the real graphs are read as edge lists
    r = method(G, seed=1, engine=E, dendrogram=True)
    return {"labels": r.labels, **{f"level {i}": x for i, x in enumerate(r.levels)}}


# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "louvain_move": ("undirected", lambda G, E: community_levels(G, E, lg.louvain)),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "louvain": (KARATE, (), {"seed": 0}, lambda r: bump(r, 0, 40)),
}
