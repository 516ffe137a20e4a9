#!/usr/bin/env bash
# GPU PageRank's fused pagerank_iterate (issue 21 item 8, issue 18 item 5): tests, timings of the fused step
# against its algebra and the CPU engine, the per-iteration time on R-MAT 22 against one read of A''s indices.
# Run from the repository root on the device machine:  bash tools/dev/pagerank.sh   (about 3-4 minutes)
# Writes $OUT/pagerank-tests.log, $OUT/pagerank-times.log (OUT defaults to /tmp/pagerank-out).
set -o pipefail
OUT=${OUT:-/tmp/pagerank-out}
mkdir -p "$OUT"
. tools/gpu-machine.sh || exit 1
T0=$SECONDS
GRAPHS=${GRAPHS:-"facebook soc-Slashdot0902 uk-2007-05 rmat22 uniform22"}

if [ -z "${SKIP_TESTS:-}" ]; then
echo "== tests"
timeout 150 python3 -m pytest -q -m gpu -x tests/test_pagerank.py 2>&1 | tail -n 12 | tee "$OUT/pagerank-tests.log"
timeout 100 python3 -m pytest -q -m gpu -x tests/test_fused.py -k pagerank 2>&1 | tail -n 8 | tee -a "$OUT/pagerank-tests.log"
timeout 60 python3 -m pytest -q -m gpu -x tests/test_gpu_engine.py -k "fused_steps or compiled" 2>&1 | tail -n 4 | tee -a "$OUT/pagerank-tests.log"
echo "== tests done at $((SECONDS - T0)) s"
fi

echo "== timings"
timeout 300 python3 - $GRAPHS <<'PY' 2>&1 | tee "$OUT/pagerank-times.log"
import sys, time

import cupy as cp
import numpy as np

import la_graph as lg
from la_graph import profile
from la_graph.algorithms import steps
from la_graph.algorithms.pagerank import pagerank_iterate
from la_graph.bench.graphs import build
from tools.dev.devtime import timed

T0 = time.perf_counter()
E = lg.get_engine("gpu")
sync = cp.cuda.Device().synchronize




graphs = {}
for name in sys.argv[1:]:
    try:
        t = time.perf_counter()
        G = graphs[name] = build(name)
        print(f"-- {name}: n {G.n:,} nnz {G.nnz:,} directed {G.directed} weighted {G.weighted} "
              f"(built in {time.perf_counter() - t:.1f} s)", flush=True)
        g, gmin, rg = timed(lambda: lg.pagerank(G, engine=E))
        with steps.algebraic("pagerank_iterate"):
            a, amin, ra = timed(lambda: lg.pagerank(G, engine=E))
        c, cmin, rc = timed(lambda: lg.pagerank(G, engine="cpu"), 5 if G.nnz < 50_000_000 else 3)
        # the step alone (no to_numpy): iterations and change, fused and algebra
        _, it, ch = pagerank_iterate(E, G, G.weighted, 0.85, None, None, "networkx", 100, 1e-6)
        _, it0, ch0 = pagerank_iterate.algebraic(E, G, G.weighted, 0.85, None, None, "networkx", 100, 1e-6)
        ok = np.allclose(rg, rc, rtol=1e-10, atol=1e-15) and np.allclose(ra, rc, rtol=1e-10, atol=1e-15)
        target = max(2 * c, 5.0)
        print(f"{name:>17}  gpu fused {g:8.2f} ms (min {gmin:.2f})  gpu algebra {a:8.2f} ms ({a / g:5.1f}x)  "
              f"cpu {c:8.2f} ms  target max(2 cpu, 5 ms) {'MET' if g <= target else 'MISSED'} ({target:.1f})  "
              f"iterations {it} / algebra {it0}, change {ch:.6g} / {ch0:.6g}  {'allclose' if ok else 'DIFFERENT'}",
              flush=True)
        if not ok:
            d = np.abs(rg - rc) / np.maximum(np.abs(rc), 1e-300)
            print(f"   max rel diff fused-cpu {np.nanmax(d):.3g} at {int(np.nanargmax(d))}; "
                  f"algebra-cpu {np.nanmax(np.abs(ra - rc) / np.maximum(np.abs(rc), 1e-300)):.3g}", flush=True)
    except Exception as exc:
        print(f"-- {name}: {type(exc).__name__}: {exc}", flush=True)

if "rmat22" in graphs:
    G = graphs["rmat22"]
    args = (False, 0.85, None, None, "graphalytics")
    fused = E.fused_steps["pagerank_iterate"]
    f20, _, _ = timed(lambda: fused(E, G, *args, 20, 1e-6))
    f10, _, _ = timed(lambda: fused(E, G, *args, 10, 1e-6))
    a20, _, _ = timed(lambda: pagerank_iterate.algebraic(E, G, *args, 20, 1e-6))
    ind = E.matrix(G, transpose=True).indices
    rd, rdmin, _ = timed(lambda: ind.sum(), 9)
    per = (f20 - f10) / 10
    print(f"rmat22 graphalytics: fused 20 iterations {f20:.2f} ms ({f20 / 20:.3f} ms each; (t20 - t10) / 10 = "
          f"{per:.3f} ms), algebra {a20 / 20:.3f} ms each; read of {ind.size:,} {ind.dtype} indices "
          f"{rd:.3f} ms (min {rdmin:.3f}): ratio {f20 / 20 / rd:.2f} (incremental {per / rd:.2f}); target 2",
          flush=True)
    # the kernels alone
    with profile.collect() as prof:
        fused(E, G, *args, 20, 1e-6)
        sync()
    print("-- profile rmat22, graphalytics 20 iterations (gpu fused)")
    print(prof.table(), flush=True)
for name in ("facebook",):
    if name in graphs:
        with profile.collect() as prof:
            lg.pagerank(graphs[name], engine=E)
        print(f"-- profile {name} (gpu fused)")
        print(prof.table(), flush=True)
print(f"-- timings done at {time.perf_counter() - T0:.0f} s")
PY
echo "== done at $((SECONDS - T0)) s"
