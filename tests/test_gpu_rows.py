"""The GPU engine's row-wise products (``mxv``, and ``vxm`` on a cached transpose): cuda/semiring.cu's
``semiring_rows`` and its row plans.

Skipped where CuPy or a CUDA device is missing.  The conformance suite's product tests run again on
engines that take every path of the kernel with the small matrices they draw: a row plan for every
matrix, rows longer than 3 entries cut into pieces of 2 (the long-row path), every ``vxm`` pulling
the rows of the transpose, int32 and int64 indices; and on one with no plan at all.  Then: graph
matrices (iso values), the 2 x 2 blocks of a graph (non-square pieces, as the distributed engine
holds them), the accumulation done in the kernel, bit-identical float sums, and the plan itself.
"""

from __future__ import annotations

import numpy as np
import pytest

import la_graph as lg
from la_graph import generators
from la_graph.engines.base import SEMIRINGS

try:
    _GPU = lg.get_engine("gpu")
except lg.EngineUnavailable as exc:  # no CuPy, or no CUDA device
    pytest.skip(f"gpu engine unavailable: {exc}", allow_module_level=True)

import cupy  # noqa: E402  (only where the engine could start)

from la_graph.engines import gpu as gpu_mod  # noqa: E402
from la_graph.engines.gpu import primitives as prims  # noqa: E402
from tests import test_engine_ops as _ops  # noqa: E402

pytestmark = pytest.mark.gpu


class _Pulling(gpu_mod.GPUEngine):
    """A GPU engine whose ``vxm`` first caches A's transpose, so that it pulls wherever it may."""

    def vxm(self, u, A, *args, **kwargs):
        if isinstance(A, gpu_mod.GMat):
            self._csr_t(A)
        return super().vxm(u, A, *args, **kwargs)


def _engine(kind):
    """``plan``: a row plan for every matrix, rows of more than 3 entries in pieces of 2, every vxm
    pulling; ``plan64``: the same on int64 indices (CSR only); ``simple``: no plan, every vxm pulling."""
    if kind == "plan64":
        E = _Pulling(index_dtype="int64", dense_limit=0)
    else:
        E = _Pulling()
    if kind in ("plan", "plan64"):
        E.MXV_PLAN_MIN_NNZ, E.MXV_LONG_ROW, E.MXV_PIECE = 0, 3, 2
    else:
        E.MXV_PLAN_MIN_NNZ = 1 << 62
    E.VXM_PULL_SHARE = 0.0
    return E


ENGINES = ("plan", "plan64", "simple")
_MADE = {}


@pytest.fixture(scope="module", params=ENGINES)
def engine(request):
    """Overrides conftest's fixture for the conformance tests re-collected below."""
    if request.param not in _MADE:
        _MADE[request.param] = _engine(request.param)
    return _MADE[request.param]


# ---------------------------------------------------------------- the conformance suite's products
for _name in ("test_semiring", "test_output_arguments", "test_accumulators", "test_accum_equal_to_add_with_typecast",
              "test_index_semirings_known_answers", "test_bool_arithmetic_semirings_count",
              "test_empty_inner_dimension_mask_accum", "test_value_masked_products_that_crashed_suitesparse",
              "test_products_on_rows_of_every_length"):
    globals()[f"{_name}_rows"] = getattr(_ops, _name)


def _reference(E, x):
    return _ops.to_ref(E, x)


# ---------------------------------------------------------------- graph matrices
def _graphs():
    return {
        "rmat_directed": generators.rmat(12, 16, seed=3, directed=True),
        "rmat_weighted": generators.rmat(11, 16, seed=4, weights=(1, 9)),
        "star": generators.star(6000),                            # one row of 5999 entries, 5999 of one
        "grid": generators.grid_2d(60, 50),
    }


@pytest.mark.parametrize("kind", ["default", "plan", "plan64", "simple"])
@pytest.mark.parametrize("name", ["rmat_directed", "rmat_weighted", "star", "grid"])
def test_mxv_vxm_on_graph_matrices(kind, name):
    """Every semiring, mxv on A and vxm on A (pulling A' where it is cached) with a full and a sparse
    vector, against the reference engine; graph matrices hold no values (iso true) or float weights."""
    E = _GPU if kind == "default" else _engine(kind)
    R = lg.get_engine("reference")
    G = _graphs()[name]
    A, AT = E.matrix(G), E.matrix(G, transpose=True)            # both: A's transpose is cached
    assert "T" in A._cache
    rng = np.random.default_rng(5)
    x = rng.integers(-3, 6, G.n).astype(np.int64)
    keep = np.flatnonzero(rng.random(G.n) < 0.5)
    for u_e, u_r in ((E.vector_from_numpy(x), R.vector_from_numpy(x)),
                     (E.vector_from_coo(keep, x[keep], G.n), R.vector_from_coo(keep, x[keep], G.n))):
        for sr in SEMIRINGS:
            for kind_, got, want in (("mxv", E.mxv(A, u_e, sr), R.mxv(R.matrix(G), u_r, sr)),
                                     ("vxm", E.vxm(u_e, A, sr), R.vxm(u_r, R.matrix(G), sr)),
                                     ("mxv A'", E.mxv(AT, u_e, sr), R.mxv(R.matrix(G, transpose=True), u_r, sr))):
                g, w = _reference(E, got), _reference(R, want)
                np.testing.assert_array_equal(g.present, w.present, err_msg=f"{kind_} {sr}")
                if sr.startswith("any_"):
                    continue
                assert all(_ops.same(g.val[k], w.val[k]) for k in w.keys()), f"{kind_} {sr}"


@pytest.mark.parametrize("kind", ["default", "plan64"])
def test_mxv_on_2x2_blocks_of_a_graph(kind):
    """The four (non-square where n is odd) blocks of a graph, as the distributed engine holds them:
    each block's mxv is the reference engine's, and the blocks' sums add up to the whole product."""
    E = _GPU if kind == "default" else _engine(kind)
    R = lg.get_engine("reference")
    G = generators.rmat(12, 16, seed=7)
    n = G.n - 7                                                 # an odd size: blocks of h and n - h
    S = G.to_scipy().tocsr()[:n, :n].tocoo()
    h = n // 2 + 3
    x = np.random.default_rng(2).choice(_ops.FLOATS, n)
    whole = R.to_numpy(R.mxv(R.matrix_from_coo(S.row, S.col, True, n, n, dtype=bool), R.vector_from_numpy(x),
                             "plus_times"), fill=0.0)
    total = np.zeros(n)
    for (r0, r1) in ((0, h), (h, n)):
        for (c0, c1) in ((0, h), (h, n)):
            keep = (S.row >= r0) & (S.row < r1) & (S.col >= c0) & (S.col < c1)
            rows, cols = S.row[keep] - r0, S.col[keep] - c0
            B = E.matrix_from_coo(rows, cols, True, r1 - r0, c1 - c0, dtype=bool)
            Br = R.matrix_from_coo(rows, cols, True, r1 - r0, c1 - c0, dtype=bool)
            got = E.mxv(B, E.vector_from_numpy(x[c0:c1]), "plus_times")
            want = R.mxv(Br, R.vector_from_numpy(x[c0:c1]), "plus_times")
            _ops.assert_matches(E, got, _reference(R, want))
            total[r0:r1] += E.to_numpy(got, fill=0.0)
    np.testing.assert_array_equal(total, whole)


# ---------------------------------------------------------------- the kernel's own rules
def test_mxv_accumulates_in_the_kernel_without_writing_in_place():
    """``out += A' plus.second w`` into a full float64 ``out`` (PageRank's step) runs in the kernel: the
    reference's answer, out's old array untouched (arrays are never written in place)."""
    E, R = _GPU, lg.get_engine("reference")
    G = generators.rmat(12, 16, seed=9, directed=True)
    AT, ATr = E.matrix(G, transpose=True), R.matrix(G, transpose=True)
    w = np.random.default_rng(1).choice(_ops.FLOATS, G.n)
    for accum in ("plus", "min", "times", "minus", "second", "first", "max"):
        r = E.full(G.n, 0.25)
        r0 = r.val
        copy = E.copy(r)
        E.mxv(AT, E.vector_from_numpy(w), "plus_second", out=r, accum=accum)
        want = R.mxv(ATr, R.vector_from_numpy(w), "plus_second", out=R.full(G.n, 0.25), accum=accum)
        assert r.pres is None and r.val is not r0
        np.testing.assert_array_equal(E.to_numpy(r), R.to_numpy(want))
        np.testing.assert_array_equal(E.to_numpy(copy), np.full(G.n, 0.25))
    gp = E.vector_from_numpy(np.arange(G.n, dtype=np.int64)[::-1].copy())
    out = E.iota(G.n)
    E.mxv(E.matrix(G), gp, "min_second", out=out, accum="min")          # FastSV's algebra: int64
    want = R.mxv(R.matrix(G), R.vector_from_numpy(np.arange(G.n)[::-1].copy()), "min_second", out=R.iota(G.n),
                 accum="min")
    np.testing.assert_array_equal(E.to_numpy(out), R.to_numpy(want))


def test_mxv_float_sums_are_the_same_on_every_run():
    """No atomics in the row-wise product: float sums are bit-identical run after run (plus_times on a
    graph with long rows, arbitrary floats), and equal to the sums in float64 within rounding."""
    E = _GPU
    G = generators.rmat(13, 16, seed=11)
    A = E.matrix(G)
    x = np.random.default_rng(3).random(G.n)
    u = E.vector_from_numpy(x)
    first = E.to_numpy(E.mxv(A, u, "plus_times"), fill=0.0)
    for _ in range(3):
        np.testing.assert_array_equal(E.to_numpy(E.mxv(A, u, "plus_times"), fill=0.0), first)
        np.testing.assert_array_equal(E.to_numpy(E.vxm(u, A, "plus_times"), fill=0.0), first)   # A' = A
    np.testing.assert_allclose(first, G.to_scipy() @ x, rtol=1e-12)


def test_mxv_result_is_full_where_every_row_has_an_entry():
    """With a full vector and no mask the result carries no presence array when no row is empty,
    and the rows with an entry when some are."""
    E = _GPU
    G = generators.grid_2d(200, 150)                              # every vertex has a neighbour
    w = E.mxv(E.matrix(G), E.full(G.n, 1.0), "plus_second")
    assert w.pres is None and E.nvals(w) == G.n
    H = lg.Graph.from_edges(np.arange(1, 40000), np.zeros(39999, int), n=40001, directed=True)   # 40000: no entry
    w = E.mxv(E.matrix(H), E.full(H.n, 1.0), "plus_second")
    assert E.nvals(w) == 39999 and E.to_numpy(w, fill=-1.0)[40000] == -1.0


@pytest.mark.parametrize("long_row, piece", [(2048, 1024), (3, 2), (0, 1), (64, 64), (1 << 40, 1)])
def test_row_plan_bins(long_row, piece):
    """Each row is in the bin of its length (or, longer than the limit, in bin 0 with its pieces), once,
    in row order within a bin; the table's blocks cover each bin's rows or pieces."""
    lengths = np.array([0, 1, 4, 5, 8, 9, 16, 17, 32, 33, 64, 65, 2048, 2049, 5000, 0, 3, 100, 7000, 1], np.int64)
    indptr = np.zeros(lengths.size + 1, np.int64)
    indptr[1:] = np.cumsum(lengths)
    rp = prims._RowPlan(cupy.asarray(indptr.astype(np.int32)), long_row, piece)
    order, tab, soff = cupy.asnumpy(rp.order), cupy.asnumpy(rp.tab), cupy.asnumpy(rp.soff)
    assert sorted(order.tolist()) == list(range(lengths.size)) and order.dtype == np.int32
    bins = np.where(lengths > long_row, 0, 6 - np.searchsorted([4, 8, 16, 32, 64], lengths, side="left"))
    starts = tab[8:]
    for b in range(7):
        rows = order[starts[b]:starts[b + 1]]
        assert (bins[rows] == b).all() and (np.diff(rows) > 0).all(), b
        per = 8 if b == 0 else 256 // (64 >> b)
        count = soff[-1] if b == 0 else rows.size
        assert tab[b + 1] - tab[b] == -(-count // per), b
    longs = order[starts[0]:starts[1]]
    assert np.array_equal(np.diff(soff), -(-lengths[longs] // piece))
    assert rp.blocks == tab[7] and rp.npieces == soff[-1] and rp.nlong == longs.size
    assert np.array_equal(cupy.asnumpy(rp.present), lengths > 0)


def test_row_plans_are_cached_with_the_matrix():
    E = _GPU
    G = generators.rmat(11, 16, seed=1, directed=True)
    A = E.matrix(G)
    u = E.full(G.n, 1.0)
    E.mxv(A, u, "plus_second")
    plans = [k for k in A._cache if isinstance(k, tuple) and k[0] == "rows"]
    assert len(plans) == 1
    rp = A._cache[plans[0]]
    E.mxv(A, u, "min_second")
    assert A._cache[plans[0]] is rp
    E.matrix(G, transpose=True)
    E.vxm(u, A, "plus_first")                                   # pulls: the transpose's plan, cached too
    assert any(isinstance(k, tuple) and k[0] == "rows_t" for k in A._cache)
