#!/usr/bin/env bash
# Issue 18's BFS regression, second look: processes of the working tree and of 813857b interleaved three
# times on one machine (the first call's one process a tree could not tell the trees from the machine's
# drift), R-MAT 22 from its hub and uniform22 from 0, timed as the bench times them (median of 41);
# the working tree at BFS_TINY_EDGES 0 and 2 K. The graphs are built once and kept in /tmp as CSR.
set -u
[ -n "${PYTHONPATH:-}" ] || . tools/gpu-machine.sh
ROOT=$PWD
for round in 1 2 3; do
for T in . .dev/trees/813857b ; do
    (cd $T && PYTHONPATH=/tmp/site:$PWD:$ROOT LA_GRAPH_DATA=$ROOT/.data TREE=$T ROUND=$round timeout -s INT 150 python3 - <<'PY'
import os, time
import numpy as np, scipy.sparse as sp
import la_graph as lg
from la_graph.bench.cases import _vertex0_or_hub
from tools.dev.devtime import timed

E = lg.get_engine("gpu")
tag = os.environ["TREE"].replace(".dev/trees/", "") if os.environ["TREE"] != "." else "main"
out = []
for name in ("rmat22", "uniform22"):
    f = f"/tmp/{name}.npz"
    if not os.path.exists(f):
        from la_graph.bench.graphs import build
        G = build(name)
        sp.save_npz(f, G.to_scipy(), compressed=False)
        np.save(f"/tmp/{name}-dir.npy", np.array(G.directed))
    G = lg.Graph.from_scipy(sp.load_npz(f), directed=bool(np.load(f"/tmp/{name}-dir.npy")))
    s = _vertex0_or_hub(G)
    call = lambda: lg.bfs(G, s, level=False, engine=E, output="device")
    call()
    tinies = (None, 0) if hasattr(E, "BFS_TINY_EDGES") else (None,)
    for tiny in tinies:
        if tiny is not None:
            E.BFS_TINY_EDGES = tiny
        t, tmin, _ = timed(call, reps=41)
        out.append(f"{name} {'' if tiny is None else 'tiny0 '}{t:6.3f} (min {tmin:6.3f})")
    if hasattr(E, "BFS_TINY_EDGES"):
        E.BFS_TINY_EDGES = type(E).BFS_TINY_EDGES
print(f"round {os.environ['ROUND']} {tag:>8}: " + "  ".join(out), flush=True)
PY
    )
done
done
uptime
