#!/usr/bin/env bash
# Device script of the mxv branch (issues 21 and 23: the GPU engine's mxv / vxm as a row-binned CSR
# kernel, gpu/semiring.cu semiring_rows).  Run from the repository root on the GPU machine:
#   bash tools/dev/mxv.sh            (BENCH=1 also runs `la-graph bench pagerank` at the end)
# (0) NVRTC's compile time of semiring.cu; (1) the conformance tests of mxv / vxm on the default engine;
# (2) mxv timings on rmat22, uniform22 and grid2000 for the common semirings with a full vector, the new
# kernel against the old one (tools/dev/mxv_old.cu, compiled here) and cuSPARSE's SpMV on the same card,
# with effective GB/s; vxm pull against the old push; PageRank on rmat22 (per iteration, and a profile);
# the 2 x 2 blocks of rmat22 (non-square, bool values as the distributed engine builds them), old and
# new per block; (3) the kernel-path tests (tests/test_gpu_rows.py), the int64 engine's products and
# PageRank's tests.  About 7 minutes on an H100.
set -u
. tools/gpu-machine.sh || exit 1
OUT=${OUT:-/tmp/mxv-out}; mkdir -p "$OUT"

echo "== NVRTC compile of semiring.cu (fresh kernel cache)"
CUPY_CACHE_DIR=$(mktemp -d) timeout 120 python3 -c '
import time
from la_graph.engines.gpu import kernels
t = time.perf_counter(); kernels.kernel_module("semiring.cu"); print(f"semiring.cu: {time.perf_counter() - t:.1f} s")'

echo "== tests (1): the conformance suite's products on the gpu engine"
timeout 150 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_engine_ops.py -k "mxv or vxm" 2>&1 | tail -n 6

echo "== timings"
timeout 330 python3 - <<'PY'
import statistics, time
import numpy as np
import cupy as cp
import cupyx.scipy.sparse as csp
import la_graph as lg
from la_graph import profile
from la_graph.bench.graphs import build
from la_graph.engines.gpu import kernels as K
from la_graph.engines.gpu import ops as O

E = lg.get_engine("gpu")
sync = cp.cuda.Device().synchronize
print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())


def timed(fn, reps=10):
    """(median wall ms with a synchronize, median GPU ms between two events) of warm runs."""
    fn(); sync()
    walls, gpus = [], []
    for _ in range(reps):
        s, e = cp.cuda.Event(), cp.cuda.Event()
        t = time.perf_counter(); s.record(); fn(); e.record(); e.synchronize()
        walls.append(1e3 * (time.perf_counter() - t)); gpus.append(cp.cuda.get_elapsed_time(s, e))
    return statistics.median(walls), statistics.median(gpus)


_OLD = []
def old_kernel(M, C, IT):
    if not _OLD:
        src = (K.kernel_dir() / "common.cuh").read_text() + "\n" + open("tools/dev/mxv_old.cu").read()
        names = [K._name("semiring_mxv", m, t, i) for m in range(5) for t in (np.int64, np.float64)
                 for i in (np.int32, np.int64)]
        mod = cp.RawModule(code=src, options=("-std=c++17",), name_expressions=names); mod.compile()
        _OLD.append(mod)
    return _OLD[0].get_function(K._name("semiring_mxv", M, C, IT))


def old_mxv(A, u, sr, allowed=None):
    """The engine's mxv before this branch (zeroed outputs, operands cast, one group size, grid-stride)."""
    plan = O._Plan(sr, A.dtype, u.dtype)
    m, C = A.nrows, plan.C
    w, wp = cp.zeros(m, C), cp.zeros(m, bool)
    indptr, indices, avals = E._csr(A)
    gs = K._next_pow2(indices.size / max(m, 1))
    av = plan.operand(avals) if (plan.need_a and avals is not None) else None
    uv = plan.operand(u.val) if plan.need_b else w
    old_kernel(O._MONOID_CODES[plan.mon], C, indices.dtype)(
        (E._blocks(m * gs),), (256,),
        (indptr, indices, av if av is not None else K._NULL, plan.iso(), uv, u.pres if u.pres is not None else K._NULL,
         allowed if allowed is not None else K._NULL, w, wp, np.int64(m), np.int32(plan.opcode),
         np.int32(plan.need_a), np.int32(plan.need_b), np.int32(gs)))
    return O._cast(w, plan.Z), wp


def same(new, old, float_plus):
    w, wp = old
    pres = new.pres if new.pres is not None else cp.ones(new.size, bool)
    if not bool(cp.array_equal(pres, wp)):
        return "PRESENCE DIFFERS"
    a, b = new.val[wp], w[wp]
    if float_plus:
        return "ok (float)" if bool(cp.allclose(a, b, rtol=1e-12, atol=0)) else "VALUES DIFFER"
    return "same" if bool(cp.array_equal(a, b)) else "VALUES DIFFER"


def nbytes(A, u, plan, need_mat):
    """Bytes of one pass: indptr, indices, values read, u once, w written."""
    ind = A.indices.itemsize
    vals = A.indices.size * A.val.itemsize if (need_mat and A.val is not None) else 0
    return (A.nrows + 1) * ind + A.indices.size * ind + vals + u.size * u.val.itemsize + A.nrows * plan.C.itemsize


SEMIRINGS = [("plus_times", "f"), ("plus_second", "f"), ("plus_pair", "f"), ("min_plus", "f"),
             ("min_second", "i"), ("max_second", "i"), ("any_pair", "b"), ("lor_land", "b"), ("min_first", "i")]
graphs = {}


def one_graph(name):
    t0 = time.perf_counter()
    G = graphs[name] = build(name)
    A = E.matrix(G)
    n, nnz = G.n, G.nnz
    rng = np.random.default_rng(1)
    vec = {"f": E.vector_from_numpy(rng.random(n)), "i": E.iota(n), "b": E.full(n, True)}
    t = time.perf_counter(); E.mxv(A, vec["f"], "plus_times"); sync(); first = 1e3 * (time.perf_counter() - t)
    plans = [v for k, v in A._cache.items() if isinstance(k, tuple) and k[0] == "rows"]
    rp = plans[0] if plans else None
    edge = timed(lambda: cp.sum(A.indices, dtype=cp.int64))[1]
    S = csp.csr_matrix((cp.ones(nnz), A.indices, A.indptr), shape=(n, n))
    x = vec["f"].val
    cusp = timed(lambda: S @ x)[1]
    lengths = cp.diff(A.indptr)
    print(f"{name}: n={n:,} nnz={nnz:,} {A.indices.dtype} max row {int(lengths.max()):,}, empty rows "
          f"{int((lengths == 0).sum()):,} | built {time.perf_counter() - t0:.0f}s | edge pass (sum of indices) "
          f"{edge:.3f} ms | cuSPARSE SpMV f64 {cusp:.3f} ms | first mxv (plan) {first:.1f} ms"
          + (f" | plan: {rp.blocks} blocks, {rp.nlong} long rows in {rp.npieces} pieces" if rp else ""))
    for sr, vk in SEMIRINGS:
        u = vec[vk]
        plan = O._Plan(sr, A.dtype, u.dtype)
        wall, gpu = timed(lambda: E.mxv(A, u, sr))
        _, ogpu = timed(lambda: old_mxv(A, u, sr), reps=5)
        ok = same(E.mxv(A, u, sr), old_mxv(A, u, sr), plan.C.kind == "f" and plan.mon == "plus")
        gbs = nbytes(A, u, plan, plan.need_a) / (gpu * 1e6)
        print(f"  mxv {sr:12s} new {wall:7.3f} ms wall, {gpu:7.3f} ms gpu, {gbs:6.0f} GB/s, "
              f"{gpu / edge:4.1f} edge passes | old {ogpu:7.3f} ms gpu | x{ogpu / gpu:5.1f} | {ok}")
    # PageRank's product (w has a presence array: vertices without out-edges) and a masked pull (BFS-like)
    keep = cp.asarray(rng.random(n) < 0.9)
    seen = E.vector_from_numpy(keep)
    w = E.apply(vec["f"], "identity", mask=seen)                # 90% of the entries present
    r = E.full(n, 0.5)
    _, gpu = timed(lambda: E.mxv(A, w, "plus_second", out=E.copy(r), accum="plus"))
    _, ogpu = timed(lambda: old_mxv(A, w, "plus_second"), reps=5)
    print(f"  mxv plus_second, u with presence, out += (PageRank's): new {gpu:.3f} ms gpu | old {ogpu:.3f} ms "
          f"(+ the accumulation's passes)")
    allowed = ~keep
    _, gpu = timed(lambda: E.mxv(A, vec["b"], "any_pair", mask=seen, structural=False, complement=True))
    _, ogpu = timed(lambda: old_mxv(A, vec["b"], "any_pair", allowed), reps=5)
    print(f"  mxv any_pair masked (10% of rows allowed): new {gpu:.3f} ms gpu | old {ogpu:.3f} ms")
    # vxm with a full vector: the pull on the cached transpose (here A itself) against the old push
    for sr, vk in (("plus_times", "f"), ("min_second", "i")):
        u = vec[vk]
        B = E.copy(A); B._cache = {}                          # no cached transpose: the old push
        _, gpu = timed(lambda: E.vxm(u, A, sr))
        _, ogpu = timed(lambda: E.vxm(u, B, sr), reps=5)
        a, b = E.to_numpy(E.vxm(u, A, sr), fill=0), E.to_numpy(E.vxm(u, B, sr), fill=0)
        ok = np.allclose(a, b, rtol=1e-12) if vk == "f" else np.array_equal(a, b)
        print(f"  vxm {sr:12s} pull {gpu:7.3f} ms gpu | old push {ogpu:7.3f} ms | x{ogpu / gpu:5.1f} | "
              f"{'same' if ok else 'DIFFERS'}")


def guarded(fn, *args):
    try:
        fn(*args)
    except Exception as exc:                      # report and go on with the next section
        import traceback
        print(f"  FAILED: {type(exc).__name__}: {exc}")
        traceback.print_exc(limit=4)
    cp.get_default_memory_pool().free_all_blocks()


for name in ("rmat22", "uniform22", "grid2000"):
    guarded(one_graph, name)
    if name != "rmat22":
        graphs.pop(name, None)


def pagerank_section():
    print("== PageRank rmat22 (brief, before: 9.17 ms an iteration, of which mxv 7.8 ms)")
    G = graphs.get("rmat22") or build("rmat22")
    run = lambda: lg.pagerank(G, engine=E)
    walls = []
    for _ in range(6):
        t = time.perf_counter(); run(); sync(); walls.append(1e3 * (time.perf_counter() - t))
    ms = statistics.median(walls[1:])
    with profile.collect() as prof:
        run(); sync()
    iters = prof.row("mxv", engine="gpu")["calls"]
    mxv_ms = 1e3 * prof.row("mxv", engine="gpu")["self_s"] / iters
    print(f"pagerank rmat22: median {ms:.2f} ms for {iters} iterations = {ms / iters:.3f} ms an iteration "
          f"(to_numpy included); profiled mxv {mxv_ms:.3f} ms an iteration")
    print("\n".join("   " + line for line in prof.table().splitlines()[:14]))



def blocks_section():
    print("== 2 x 2 blocks of rmat22 (non-square, bool values as matrix_from_coo(..., True) makes them)")
    G = graphs.get("rmat22") or build("rmat22")
    A = E.matrix(G)
    n = G.n
    h = n // 2 + 12345
    rows = cp.searchsorted(A.indptr[1:], cp.arange(A.indices.size, dtype=A.indptr.dtype), side="right")
    cols = A.indices
    x = cp.asarray(np.random.default_rng(2).random(n))
    xv = E.vector_from_numpy(x)
    whole = E.mxv(A, xv, "plus_times")
    _, whole_ms = timed(lambda: E.mxv(A, xv, "plus_times"))
    total_new = total_old = 0.0
    acc = cp.zeros(n)
    for (r0, r1) in ((0, h), (h, n)):
        for (c0, c1) in ((0, h), (h, n)):
            keep = (rows >= r0) & (rows < r1) & (cols >= c0) & (cols < c1)
            B = E.matrix_from_coo(rows[keep] - r0, cols[keep] - c0, True, r1 - r0, c1 - c0, dtype=bool)
            del keep
            ub = E.vector_from_numpy(x[c0:c1])
            t = time.perf_counter(); E.mxv(B, ub, "plus_times"); sync(); first = 1e3 * (time.perf_counter() - t)
            _, gpu = timed(lambda: E.mxv(B, ub, "plus_times"))
            _, ogpu = timed(lambda: old_mxv(B, ub, "plus_times"), reps=5)
            acc[r0:r1] += E.to_device(E.mxv(B, ub, "plus_times"), fill=0.0)
            total_new += gpu; total_old += ogpu
            bptr, bind, _ = E._csr(B)
            L = cp.diff(bptr)
            print(f"  block [{r0}:{r1}, {c0}:{c1}] nnz {bind.size:,} {bind.dtype} max row {int(L.max()):,}: "
                  f"new {gpu:.3f} ms ({bind.size / gpu / 1e6:.2f} G entries/s; first call {first:.1f} ms) | "
                  f"old {ogpu:.3f} ms (bool values cast each call)")
            del B, L, bptr, bind
    print(f"  blocks: new {total_new:.3f} ms in all, old {total_old:.3f} ms; whole matrix new {whole_ms:.3f} ms; "
          f"blocks add up to the whole: {bool(cp.allclose(acc, E.to_device(whole, fill=0.0), rtol=1e-12))}")


guarded(pagerank_section)
guarded(blocks_section)
PY

echo "== tests (2): every path of the row kernel, the int64 engine, PageRank"
timeout 240 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_gpu_rows.py \
  -k "not (mxm or ewise or apply or select or reduce_rows or extract or assign)" 2>&1 | tail -n 8
timeout 90 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_gpu_engine.py -k "mxv or vxm or semiring" 2>&1 | tail -n 6
timeout 90 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_pagerank.py 2>&1 | tail -n 4

if [ "${BENCH:-0}" = 1 ]; then
echo "== bench pagerank"
timeout 150 python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' bench pagerank \
  --graphs rmat22 uniform22 --engines gpu --peers none --repeat 5 --budget 5 --no-progress \
  --out "$OUT/pagerank.json" 2>&1 | tail -n 12
fi
