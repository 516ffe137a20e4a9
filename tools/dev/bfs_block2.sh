#!/usr/bin/env bash
# bfs_push's one-block launch at 1,024 threads (as committed: 64 registers, 460 bytes of spills) and at 512
# (no spills), BFS_TINY_EDGES 0 / 1 K / 2 K / 4 K / 8 K, timed as the bench times BFS (parents only, output
# left on the device), then the bench's BFS rows of grid2000 and uniform22 beside the native queue BFS.
# Run from the repo root on the device; about 6 minutes.
set -u
[ -n "${PYTHONPATH:-}" ] || . tools/gpu-machine.sh
OUT=${OUT:-/tmp/bfs-block2-out}; mkdir -p "$OUT"
T0=$SECONDS
ROOT=$PWD
for NT in 1024 512; do
    D=/tmp/nt$NT; rm -rf $D; mkdir -p $D; cp -r la_graph gpu tools tests conftest.py pyproject.toml $D/
    sed -i "s/__launch_bounds__(1024, 1) bfs_push_block/__launch_bounds__($NT, 1) bfs_push_block/" $D/gpu/bfs.cu
    sed -i "s/^_BFS_BLOCK = 1024 /_BFS_BLOCK = $NT /" $D/la_graph/engines/gpu/fused.py
    grep -c "__launch_bounds__($NT, 1) bfs_push_block" $D/gpu/bfs.cu; grep "^_BFS_BLOCK =" $D/la_graph/engines/gpu/fused.py
    echo "== threads $NT at $((SECONDS - T0)) s"
    (cd $D && PYTHONPATH=/tmp/site:$D timeout -s INT 120 python3 -m pytest -q -m gpu -x -p no:cacheprovider \
        tests/test_gpu_engine.py tests/test_bfs.py -k "bfs" 2>&1 | tail -n 2)
    (cd $D && PYTHONPATH=/tmp/site:$D LA_GRAPH_DATA=$ROOT/.data timeout -s INT 150 python3 - <<'PY'
import numpy as np
import la_graph as lg
from la_graph.algorithms import steps
from la_graph.bench.cases import _vertex0_or_hub
from la_graph.bench.graphs import build
from tools.dev.devtime import timed

E = lg.get_engine("gpu")
for name in ("grid2000", "grid1000", "usroads-48", "luxembourg_osm", "delaunay100k"):
    G = build(name)
    s = _vertex0_or_hub(G)
    ref = lg.bfs(G, s, engine="cpu").level
    call = lambda: lg.bfs(G, s, level=False, engine=E, output="device")   # as the bench times it
    t, tmin, r = timed(call, reps=7)
    row = [f"default {t:7.3f}"]
    for tiny in (0, 1 << 10, 1 << 11, 1 << 12, 1 << 13):
        E.BFS_TINY_EDGES = tiny
        with steps.algebraic("bfs_search"):
            t, tmin, r = timed(call, reps=7)
            lev = lg.bfs(G, s, engine=E).level
        row.append(f"{tiny:>5}: {t:7.3f}{'' if np.array_equal(lev, ref) else ' DIFFERENT'}")
    E.BFS_TINY_EDGES = type(E).BFS_TINY_EDGES
    print(f"{name:>15} n {G.n:>9,} levels {int(ref.max()):>5} ms  " + "  ".join(row), flush=True)
PY
    )
done
echo "== bench at $((SECONDS - T0)) s"
timeout -s INT 200 python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' bench bfs \
    --graphs grid2000 uniform22 --engines gpu --peers native --repeat 5 --budget 4 --no-progress \
    --out "$OUT/gpu-h100-issue18-bfs-block2.json" 2>&1 | grep -v '^$' | tail -n 14
echo "== done at $((SECONDS - T0)) s"
