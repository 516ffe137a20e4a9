#!/usr/bin/env bash
# GPU minimum spanning forest (issue 17, item 3): tests, timings, one profile, the ECL-MST peer.
# Run from the repository root on the device machine:  bash tools/dev/msf.sh
# Writes $OUT/msf-tests.log, $OUT/msf-times.log, $OUT/msf.json (OUT defaults to /tmp/msf-out).
set -o pipefail
OUT=${OUT:-/tmp/msf-out}
mkdir -p "$OUT"
. tools/gpu-machine.sh || exit 1
GRAPHS="rmat22:w1-999 uniform22:w1-999 grid2000:w1-999"

echo "== tests"
python3 -m pytest -q -m gpu -x tests/test_msf.py tests/test_gpu_engine.py -k "msf or fused" 2>&1 | tail -n 15 | tee "$OUT/msf-tests.log"
python3 -m pytest -q -m gpu -x tests/test_fused.py -k msf 2>&1 | tail -n 5 | tee -a "$OUT/msf-tests.log"

echo "== timings"
python3 - $GRAPHS <<'PY' 2>&1 | tee "$OUT/msf-times.log"
import statistics, sys, time

import cupy as cp

import la_graph as lg
from la_graph import profile
from la_graph.bench.graphs import build
from la_graph.engines.gpu import fused

E = lg.get_engine("gpu")
sync = cp.cuda.Device().synchronize


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


rounds = []
_round = fused._MSFEdges.round


def traced(self, f, forest):     # per call: edges in play before, heavy sweep to come, ms, hooks
    sync()
    m, heavy, t = self.m, self.heavy, time.perf_counter()
    h = _round(self, f, forest)
    sync()
    rounds.append(f"{m}{'+H' if heavy and not self.heavy else ''}:{(time.perf_counter() - t) * 1e3:.2f}ms:{h}")
    return h


for name in sys.argv[1:]:
    t = time.perf_counter()
    G = build(name)
    print(f"\n### {name}: n={G.n:,} nnz={G.nnz:,} (built in {time.perf_counter() - t:.0f} s)")
    A = E.matrix(G)
    csr = A.indptr.nbytes + A.indices.nbytes + (A.val.nbytes if A.val is not None else 0)
    run = lambda: lg.minimum_spanning_forest(G, engine=E, output="device")   # noqa: E731
    r = run()
    print(f"forest edges {int(r.u.size):,}, components {int(r.ncomponents):,}, total weight {r.total_weight:.0f}")
    med, best = timed(run)
    print(f"output=device: median {med:.2f} ms, min {best:.2f} ms")
    med, best = timed(lambda: lg.minimum_spanning_forest(G, engine=E), 3)
    print(f"output=numpy:  median {med:.2f} ms, min {best:.2f} ms")
    with E.memory_watch() as mem:
        run()
    print(f"peak pool bytes {mem['peak_device_bytes'] / 2**20:.0f} MiB; resident CSR {csr / 2**20:.0f} MiB "
          f"(ratio {mem['peak_device_bytes'] / csr:.2f}); n-vector (int64) {8 * G.n / 2**20:.0f} MiB")
    for lpv in (1, 4, 8):
        fused.MSF_LIGHT_PER_VERTEX = lpv
        med, best = timed(run)
        print(f"MSF_LIGHT_PER_VERTEX={lpv}: median {med:.2f} ms, min {best:.2f} ms")
    fused.MSF_LIGHT_PER_VERTEX = 2
    for chunk in (256, 4096):
        fused.MSF_CHUNK = chunk
        med, best = timed(run)
        print(f"MSF_CHUNK={chunk}: median {med:.2f} ms, min {best:.2f} ms")
    fused.MSF_CHUNK = 1024
    fused._MSFEdges.round = traced
    rounds.clear()
    run()
    fused._MSFEdges.round = _round
    print("rounds (edges in play[+H: the heavy sweep]:ms:hooks):", " ".join(rounds))
    sync()
    with profile.collect() as prof:
        run()
    print(prof.table())
PY

echo "== bench"
lg bench msf --graphs $GRAPHS --engines gpu --peers ecl --repeat 5 --budget 5 --no-progress --out "$OUT/msf.json" 2>&1 | tail -n 30
