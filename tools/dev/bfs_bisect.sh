#!/usr/bin/env bash
# Issue 18's BFS regression on R-MAT 22 (hub source 1.47 ms at 813857b, 3.56 ms at 79d4456): the same timing
# (parents only, output on the device, median of 21) in three trees on one machine: 813857b, 6d89267 (the
# parent of the one-block launch) and the working tree at BFS_TINY_EDGES 0 and 2 K; then the profile of each
# on the hub row. Trees of old commits are unpacked beforehand into .dev/trees/<commit> (git archive).
set -u
[ -n "${PYTHONPATH:-}" ] || . tools/gpu-machine.sh
ROOT=$PWD
for T in . .dev/trees/813857b .dev/trees/6d89267 ; do
    echo "== tree $T"
    (cd $T && PYTHONPATH=/tmp/site:$PWD:$ROOT LA_GRAPH_DATA=$ROOT/.data TREE=$T timeout -s INT 150 python3 - <<'PY'
import os, time
import numpy as np
import la_graph as lg
from la_graph import profile
from la_graph.bench.cases import _vertex0_or_hub
from la_graph.bench.graphs import build
from tools.dev.devtime import timed

E = lg.get_engine("gpu")
tag = os.environ["TREE"].replace("/", "_").replace(".", "") or "main"
for name in ("rmat22", "uniform22"):
    t0 = time.perf_counter(); G = build(name); tb = time.perf_counter() - t0
    s = _vertex0_or_hub(G)
    call = lambda: lg.bfs(G, s, level=False, engine=E, output="device")
    lev = lg.bfs(G, s, engine=E).level
    np.save(f"/tmp/lev-{name}-{tag}.npy", lev)
    same = ""
    if tag != "main" and os.path.exists(f"/tmp/lev-{name}-main.npy"):
        same = " same as main" if np.array_equal(np.load(f"/tmp/lev-{name}-main.npy"), lev) else " DIFFERENT"
    tinies = (None, 0, 1 << 11) if hasattr(E, "BFS_TINY_EDGES") else (None,)
    for tiny in tinies:
        if tiny is not None:
            E.BFS_TINY_EDGES = tiny
        t, tmin, _ = timed(call, reps=21)
        print(f"{name:>10} src {s:>8} built {tb:5.1f} s  tiny {tiny!s:>5}: median {t:7.3f} min {tmin:7.3f} ms{same}",
              flush=True)
    if hasattr(E, "BFS_TINY_EDGES"):
        E.BFS_TINY_EDGES = type(E).BFS_TINY_EDGES
    if name == "rmat22":
        with profile.collect() as prof:
            for _ in range(5):
                call()
        print(prof.table(), flush=True)
PY
    )
done
