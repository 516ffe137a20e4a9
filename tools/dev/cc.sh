#!/usr/bin/env bash
# Device script of the gpu-cc branch (issue 18, item 1: GPU connected components by Afforest,
# gpu/cc.cu).  Run from the repository root on the GPU machine:  bash tools/dev/cc.sh
# (1) the GPU tests of CC, (2) timings of the fused step on the target graphs (median of 5
# warm runs, graph resident, labels left on the device) against FastSV's rounds on the same
# card, a per-kernel breakdown and one profiled run, (3) the bench against ECL-CC.
set -u
. tools/gpu-machine.sh || exit 1
OUT=${OUT:-/tmp/cc-out}; mkdir -p "$OUT"

echo "== tests"
python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_gpu_cc.py 2>&1 | tail -n 15
python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_fused.py -k component 2>&1 | tail -n 8
python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_connected_components.py 2>&1 | tail -n 8
python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_gpu_engine.py \
  -k "cc or component or fused or compiled or index_paths or memory or declin" 2>&1 | tail -n 8

echo "== timings (ms)"
timeout 330 python3 - <<'PY'
import collections, time
import numpy as np
import cupy as cp
import la_graph as lg
from la_graph import profile
from la_graph.algorithms import steps
from la_graph.bench.graphs import build
from la_graph.engines.gpu import fused as F
from la_graph.verify import check_cc

E = lg.get_engine("gpu")
sync = cp.cuda.Device().synchronize
print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())


def med(fn, reps):
    fn(); sync()
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); fn(); sync(); ts.append(1e3 * (time.perf_counter() - t))
    return float(np.median(ts)), min(ts)


# per-kernel device times: every kernel fused.py launches, timed by CUDA events
_orig, _ev = F._kernel, []
def _timed(file, name, *params):
    fn = _orig(file, name, *params)
    def call(grid, block, args, **kw):
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record(); fn(grid, block, args, **kw); e.record()
        _ev.append((name, s, e))
    return call


for name in ("rmat22", "uniform22", "grid2000", "rmat23"):
    t0 = time.perf_counter()
    try:
        G = build(name)
        E.matrix(G)
    except Exception as exc:                      # rmat23 may not fit
        print(f"{name}: not built ({exc})"); continue
    build_s = time.perf_counter() - t0
    run = lambda: lg.connected_components(G, engine=E, output="device")
    labels = cp.asnumpy(run())
    t = time.perf_counter(); check_cc(G, labels); chk = time.perf_counter() - t
    ncomp = int(np.unique(labels).size)
    m, lo = med(run, 5)
    with steps.algebraic("component_labels"):
        fm, _ = med(run, 3)
        same = np.array_equal(cp.asnumpy(run()), labels)
    print(f"{name}: n={G.n:,} nnz={G.nnz:,} comps={ncomp:,} | afforest median {m:.3f} ms (min {lo:.3f}) "
          f"| fastsv {fm:.2f} ms, same labels {same} | check_cc ok {chk:.1f}s, built {build_s:.0f}s")
    F._kernel = _timed
    try:
        for _ in range(3):
            _ev.clear(); run(); sync()
        tot = collections.defaultdict(float); cnt = collections.Counter()
        for k, s, e in _ev:
            tot[k] += cp.cuda.get_elapsed_time(s, e); cnt[k] += 1
        print("   kernels (last run): " + ", ".join(f"{k} x{cnt[k]} {tot[k]:.3f}" for k in tot))
    finally:
        F._kernel = _orig
    with profile.collect() as prof:
        run(); sync()
    print("\n".join("   " + line for line in prof.table().splitlines()))
    del G, labels, run
    cp.get_default_memory_pool().free_all_blocks()
PY

echo "== bench vs ECL-CC"
timeout 240 python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' bench cc \
  --graphs rmat22 uniform22 grid2000 --engines gpu --peers ecl --repeat 5 --budget 5 --no-progress \
  --out "$OUT/cc.json" 2>&1 | tail -n 30
