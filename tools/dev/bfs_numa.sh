#!/usr/bin/env bash
# Issue 18: BFS rows move 1.5x between processes on one machine (R-MAT 22 hub 1.6-2.5 ms, uniform22 from 0
# 1.7-2.7 ms, in either tree). Is it where the process runs (host reads across NUMA nodes)? The same timing
# pinned to each NUMA node's cores in turn, twice. Uses /tmp/{rmat22,uniform22}.npz of bfs_bisect2.sh if there.
set -u
[ -n "${PYTHONPATH:-}" ] || . tools/gpu-machine.sh
nvidia-smi topo -m 2>&1 | head -n 4; lscpu | grep -i "numa\|model name\|MHz"
NODES=$(lscpu -p=NODE | grep -v '^#' | sort -u)
for round in 1 2; do
for node in $NODES; do
    CPUS=$(lscpu -p=CPU,NODE | grep -v '^#' | awk -F, -v n=$node '$2==n{print $1}' | paste -sd,)
    NODE=$node ROUND=$round timeout -s INT 120 taskset -c $CPUS python3 - <<'PY'
import os
import numpy as np, scipy.sparse as sp
import la_graph as lg
from la_graph.bench.cases import _vertex0_or_hub
from la_graph.bench.graphs import build
from tools.dev.devtime import timed
E = lg.get_engine("gpu")
out = []
for name in ("rmat22", "uniform22"):
    f = f"/tmp/{name}.npz"
    if not os.path.exists(f):
        G = build(name); sp.save_npz(f, G.to_scipy(), compressed=False)
    G = lg.Graph.from_scipy(sp.load_npz(f), directed=False)
    s = _vertex0_or_hub(G)
    call = lambda: lg.bfs(G, s, level=False, engine=E, output="device")
    t, tmin, _ = timed(call, reps=41)
    out.append(f"{name} {t:6.3f} (min {tmin:6.3f})")
import cupy as cp, time
a = cp.zeros(16, np.int64); ts = []
for _ in range(2000):
    t = time.perf_counter(); a.get(); ts.append(time.perf_counter() - t)
out.append(f"8-word read {1e6 * np.median(ts):5.1f} us")
print(f"round {os.environ['ROUND']} node {os.environ['NODE']} cpus {len(os.sched_getaffinity(0))}: " + "  ".join(out), flush=True)
PY
done
done
