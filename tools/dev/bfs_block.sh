#!/usr/bin/env bash
# GPU bfs_push's one-block launch (gpu/bfs.cu bfs_push_block: the tiniest levels with the queue in shared
# memory and __syncthreads for the barrier; issue 18's BFS grid2000 row, 17.4 ms against <= 12).  Run from
# the repo root on the device; about 5 minutes.
# 1. the push kernels' tests in every launch mode (the one-block kernel alone, with an 8-entry queue, all
#    three shapes) and BFS;
# 2. BFS per graph as a user calls it (small graphs: bfs_search's one-launch kernel), then its push / pull
#    stretches (bfs_search's algebra) with BFS_TINY_EDGES 0 (no block launch: last stop's kernels), 4 K,
#    8 K (the default) and 16 K edges, the levels checked against the CPU engine;
# 3. the bench's BFS target rows beside the native queue BFS.
set -u
[ -n "${PYTHONPATH:-}" ] || . tools/gpu-machine.sh
OUT=${OUT:-/tmp/bfs-block-out}; mkdir -p "$OUT"
T0=$SECONDS
[ -n "${SKIP_TESTS:-}" ] || timeout -s INT 150 python3 -m pytest -q -m gpu -x -p no:cacheprovider \
    tests/test_gpu_engine.py tests/test_bfs.py -k "bfs" 2>&1 | tail -n 3
echo "== timings at $((SECONDS - T0)) s"
timeout -s INT 150 python3 - <<'PY'
import numpy as np
import la_graph as lg
from la_graph.algorithms import steps
from la_graph.bench.cases import _vertex0_or_hub
from la_graph.bench.graphs import build
from tools.dev.devtime import timed

E = lg.get_engine("gpu")
for name in ("grid2000", "grid1000", "usroads-48", "luxembourg_osm", "delaunay100k", "uniform22", "rmat22"):
    try:
        G = build(name)
    except Exception as exc:
        print(f"-- {name}: {type(exc).__name__}: {exc}"); continue
    s = _vertex0_or_hub(G)
    ref = lg.bfs(G, s, engine="cpu").level
    t, tmin, r = timed(lambda: lg.bfs(G, s, engine=E))          # as a user gets it (bfs_search's kernel where it takes G)
    row = [f"default {t:8.3f} ms{'' if np.array_equal(r.level, ref) else ' DIFFERENT'}"]
    for tiny in (0, 1 << 12, 1 << 13, 1 << 14):                 # the push / pull stretches, BFS_TINY_EDGES
        E.BFS_TINY_EDGES = tiny
        with steps.algebraic("bfs_search"):
            t, tmin, r = timed(lambda: lg.bfs(G, s, engine=E))
        row.append(f"{tiny:>6}: {t:8.3f} ms{'' if np.array_equal(r.level, ref) else ' DIFFERENT'}")
    E.BFS_TINY_EDGES = type(E).BFS_TINY_EDGES
    print(f"{name:>15} n {G.n:>9,} levels {int(ref.max()):>5}  " + "  ".join(row), flush=True)
PY
echo "== bench at $((SECONDS - T0)) s"
timeout -s INT 120 python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' bench bfs \
    --graphs grid2000 uniform22 rmat22 --engines gpu --peers native --repeat 5 --budget 4 --no-progress \
    --out "$OUT/gpu-h100-issue18-bfs-block.json" 2>&1 | grep -v '^$' | tail -n 16
echo "== done at $((SECONDS - T0)) s"
