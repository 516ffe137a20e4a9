#!/usr/bin/env bash
# GPU bfs_search in one msbfs_grid launch (issue 18 item 5: BFS from 16 sources one at a time on facebook
# and Email-Enron were the last small-graph misses).  Run from the repo root on the device; about 4 minutes.
# 1. the tests of bfs_search / bfs_multi / reach_sweep against the algebra, the declines, BFS;
# 2. one single-source search per graph, fused against the algebra (fused push/pull stretches) and the CPU
#    engine: where the one-launch kernel stops paying (BFS_SEARCH_MS_EDGES);
# 3. the bench's BFS rows on the small real graphs, GPU beside the CPU engine.
set -u
[ -n "${PYTHONPATH:-}" ] || . tools/gpu-machine.sh
OUT=${OUT:-/tmp/bfs-search-out}; mkdir -p "$OUT"
T0=$SECONDS
[ -n "${SKIP_TESTS:-}" ] || timeout -s INT 110 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_fused.py \
    tests/test_gpu_engine.py tests/test_bfs.py -k "bfs or fused_steps or declin or reach_sweep" 2>&1 | tail -n 3
echo "== timings at $((SECONDS - T0)) s"
timeout -s INT 100 python3 - <<'PY'
import numpy as np
import la_graph as lg
from la_graph.algorithms import steps
from la_graph.bench.graphs import build
from la_graph.engines.gpu import fused
from tools.dev.devtime import timed

print(f"BFS_SEARCH_MS_EDGES {fused.BFS_SEARCH_MS_EDGES:,}")
for name in ("facebook", "Email-Enron", "cit-HepPh", "usroads-48", "luxembourg_osm", "delaunay_n16",
             "soc-Slashdot0902", "uk-2007-05", "uniform20", "rmat20", "grid1000"):
    try:
        G = build(name)
    except Exception as exc:
        print(f"-- {name}: {type(exc).__name__}: {exc}"); continue
    s = int(np.argmax(G.out_degree))
    old = fused.BFS_SEARCH_MS_EDGES
    fused.BFS_SEARCH_MS_EDGES = 1 << 62          # the kernel on every graph here
    try:
        f, _, rf = timed(lambda: lg.bfs(G, s, engine="gpu"))
    finally:
        fused.BFS_SEARCH_MS_EDGES = old
    with steps.algebraic("bfs_search"):
        a, _, ra = timed(lambda: lg.bfs(G, s, engine="gpu"))
    c, _, rc = timed(lambda: lg.bfs(G, s, engine="cpu"))
    same = np.array_equal(rf.level, rc.level) and np.array_equal(ra.level, rc.level)
    print(f"{name:>17} n {G.n:>9,} nnz {G.nnz:>11,}  kernel {f:7.3f} ms  algebra {a:7.3f} ms  cpu {c:7.3f} ms  "
          f"levels {int(rc.level.max())}  {'same levels' if same else 'DIFFERENT'}", flush=True)
PY
echo "== bench at $((SECONDS - T0)) s"
timeout -s INT 70 python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' bench bfs \
    --graphs facebook Email-Enron cit-HepPh soc-Slashdot0902 usroads-48 --engines gpu,cpu --peers none \
    --repeat 5 --budget 3 --no-progress --out "$OUT/gpu-h100-issue18-bfs-search.json" 2>&1 | grep -v '^$' | tail -n 24
echo "== done at $((SECONDS - T0)) s"
