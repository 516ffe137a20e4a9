#!/usr/bin/env bash
# GPU all-pairs shortest paths (issue 18, item 4): tests, timings beside ECL-APSP, one profile, the bench.
# Run from the repository root on the device machine:  bash tools/dev/apsp.sh
# Writes $OUT/apsp-tests.log, $OUT/apsp-times.log, $OUT/apsp.json (OUT defaults to /tmp/apsp-out).
set -o pipefail
OUT=${OUT:-/tmp/apsp-out}
mkdir -p "$OUT"
. tools/gpu-machine.sh || exit 1
GRAPHS=${GRAPHS:-"er2700-850k:dir:w1-1000 er8192-819k:dir:w1-1000 er16384-1638k:dir:w1-1000"}

if [ -z "${SKIP_TESTS:-}" ]; then
echo "== tests"
timeout 300 python3 -m pytest -q -m gpu -x tests/test_apsp.py 2>&1 | tail -n 15 | tee "$OUT/apsp-tests.log"
timeout 120 python3 -m pytest -q -m gpu -x tests/test_fused.py -k floyd 2>&1 | tail -n 5 | tee -a "$OUT/apsp-tests.log"
timeout 120 python3 -m pytest -q -m gpu -x tests/test_gpu_engine.py -k "compiled or fused_steps" 2>&1 | tail -n 3 | tee -a "$OUT/apsp-tests.log"
fi

echo "== timings"
timeout 360 python3 - $GRAPHS <<'PY' 2>&1 | tee "$OUT/apsp-times.log"
import re, shutil, statistics, subprocess, sys, tempfile, time
from pathlib import Path

import cupy as cp
import numpy as np
from scipy.sparse import csgraph

import la_graph as lg
from la_graph import profile
from la_graph.bench import external
from la_graph.bench.graphs import build
from la_graph.engines.gpu import fused
from la_graph.engines.gpu.kernels import _kernel

E = lg.get_engine("gpu")
sync = cp.cuda.Device().synchronize
step = E.fused_steps["floyd_warshall"]


def timed(fn, k=5):
    fn()
    sync()
    ts = []
    for _ in range(k):
        t = time.perf_counter()
        fn()
        sync()
        ts.append((time.perf_counter() - t) * 1e3)
    return statistics.median(ts), min(ts)


def kernels_split(n, DT):
    """ms of all rounds' launches of each kernel alone (on a matrix of no paths: same work)."""
    T = E.FW_TILE
    N = -(-n // T) * T
    nb = N // T
    W = cp.full(N * N, fused._FW_INF[DT], dtype=DT)
    neg = cp.full(1, -1, dtype=np.int64)
    NN = np.int64(N)
    primary = _kernel("floyd_warshall.cu", "fw_primary", DT, T)
    panels = _kernel("floyd_warshall.cu", "fw_panels", DT, T)
    launches = {
        "primary": lambda K: primary((1,), (256,), (W, NN, np.int32(K), neg)),
        "cross": lambda K: panels((nb - 1, 2), (256,), (W, NN, np.int32(K), np.int32(1), neg)),
        "rest": lambda K: panels((nb - 1, nb - 1), (256,), (W, NN, np.int32(K), np.int32(0), neg)),
    }
    out = {}
    for name, go in launches.items():
        go(0)
        sync()
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        for K in range(nb):
            go(K)
        b.record()
        b.synchronize()
        out[name] = cp.cuda.get_elapsed_time(a, b)
    work = N * N * N
    return (", ".join(f"{k} {v:.2f} ms" for k, v in out.items())
            + f"; all rounds' updates {work / 1e9:.1f} G: {work / (sum(out.values()) * 1e9):.2f} T/s")


def ecl_ms(G, runs=5):
    """ECL-APSP's own GPU compute time (ms), median of `runs`; killed once printed (its CPU check is n^3)."""
    exe = external.programs().get("apsp")
    if exe is None or shutil.which("stdbuf") is None:
        return "ECL-APSP not built or no stdbuf"
    ts = []
    with tempfile.TemporaryDirectory() as d:
        egr = external.write_egr(G, Path(d) / "g.egr", weights=True)
        for _ in range(runs):
            p = subprocess.Popen(["stdbuf", "-oL", str(exe), str(egr)], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
            got = None
            for line in p.stdout:
                m = re.search(r"FW_64 gpu comp time:\s*([0-9.eE+-]+)\s*s", line)
                if m:
                    got = float(m.group(1)) * 1e3
                    break
            p.kill()
            p.wait()
            if got is None:
                return "ECL-APSP printed no time"
            ts.append(got)
    return f"median {statistics.median(ts):.2f} ms, min {min(ts):.2f} ms"


for name in sys.argv[1:]:
    t = time.perf_counter()
    G = build(name)
    n = G.n
    N = -(-n // E.FW_TILE) * E.FW_TILE
    print(f"\n### {name}: n={n:,} nnz={G.nnz:,} (built in {time.perf_counter() - t:.0f} s); "
          f"distance type {fused._fw_dtype(E, G, N)}", flush=True)
    E.matrix(G)
    D = lg.apsp(G, "floyd_warshall", engine=E)
    src = np.linspace(0, n - 1, 8).astype(np.int64)
    ref = csgraph.dijkstra(G.to_scipy(), directed=True, indices=src)
    print("rows of 8 sources equal scipy's Dijkstra:", bool(np.array_equal(D[src], ref)),
          f"(finite {np.isfinite(D).mean():.4f}, max {D[np.isfinite(D)].max():.0f})")
    del D
    med, best = timed(lambda: step(E, G))
    print(f"step floyd_warshall (result on the GPU): median {med:.2f} ms, min {best:.2f} ms")
    Dm, _ = step(E, G)
    med, best = timed(lambda: E.to_numpy(Dm), 3)
    print(f"  to_numpy of the {8 * n * n / 2**20:.0f} MiB result: median {med:.2f} ms, min {best:.2f} ms")
    host = cp.cuda.alloc_pinned_memory(8 * n * n)
    pinned = np.frombuffer(host, np.float64, n * n).reshape(n, n)
    med, best = timed(lambda: Dm.val.reshape(n, n).get(out=pinned), 3)
    print(f"  (into pinned memory already allocated: median {med:.2f} ms)")
    del Dm, host, pinned
    print("  kernels int32:", kernels_split(n, np.dtype(np.int32)))
    if n <= 8192:
        print("  kernels float64:", kernels_split(n, np.dtype(np.float64)))
        saved = fused.FW_INT32_LIMIT
        fused.FW_INT32_LIMIT = -1
        med, best = timed(lambda: step(E, G), 3)
        fused.FW_INT32_LIMIT = saved
        print(f"  step on float64 distances: median {med:.2f} ms, min {best:.2f} ms")
    med, best = timed(lambda: lg.apsp(G, "floyd_warshall", engine=E, output="device"))
    print(f"apsp(G, 'floyd_warshall', output='device') [what the bench times]: median {med:.2f} ms, "
          f"min {best:.2f} ms")
    med, best = timed(lambda: lg.apsp(G, "floyd_warshall", engine=E), 5 if n <= 8192 else 3)
    print(f"apsp(G, 'floyd_warshall') to numpy: median {med:.2f} ms, min {best:.2f} ms")
    print("ECL-APSP (FW_64 gpu comp time):", ecl_ms(G), flush=True)
    if n <= 2700:
        sync()
        with profile.collect() as prof:
            lg.apsp(G, "floyd_warshall", engine=E)
        print(prof.table())
    cp.get_default_memory_pool().free_all_blocks()
PY

[ -n "${NO_BENCH:-}" ] && exit 0
echo "== bench"
timeout 240 python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' bench apsp --graphs er2700-850k:dir:w1-1000 --engines gpu --peers ecl --repeat 5 --budget 5 --no-progress --out "$OUT/apsp.json" 2>&1 | tail -n 30
