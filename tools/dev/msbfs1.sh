#!/usr/bin/env bash
# Device script of branch gpu-msbfs1: the multi-source BFS kernel with one grid barrier a level
# (was two: the level's finds joined the visited words in a second phase).  About 2 minutes.
# 1. the tests of reach_sweep and bfs_multi against the algebra, reachability, BFS;
# 2. reachability (16 and 64 sources) and multi-source BFS on the real graphs and R-MAT 22, median of 5,
#    beside the CPU engine.  Main's kernel on 2026-11-27 (x1 host), 16 / 64 sources, ms:
#    luxembourg_osm 9.65 / 15.4, usroads-48 5.95 / 11.7, delaunay_n16 1.76 / 3.40, uk-2007-05 1.58 / 2.63.
set -u
[ -n "${PYTHONPATH:-}" ] || . tools/gpu-machine.sh
timeout -s INT 150 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_fused.py -k "bfs_multi or reach_sweep" \
    tests/test_reachability.py tests/test_bfs.py 2>&1 | tail -n 3
timeout -s INT 150 python3 - <<'PY'
import time
import cupy as cp, numpy as np
import la_graph as lg
from la_graph.bench.graphs import build
from tools.dev.devtime import timed
def med(fn, k=5):
    return timed(fn, k)[0]
for name in ("luxembourg_osm", "usroads-48", "delaunay_n16", "uk-2007-05", "facebook", "rmat22:dir"):
    G = build(name)
    for k in (16, 64):
        src = np.random.default_rng(1).choice(G.n, k, replace=False)
        ref = lg.reachability(G, src, engine="cpu")
        assert np.array_equal(lg.reachability(G, src, engine="gpu"), ref)
        g = med(lambda: lg.reachability(G, src, engine="gpu"))
        b = med(lambda: lg.bfs(G, sources=src, engine="gpu"))
        c = med(lambda: lg.reachability(G, src, engine="cpu"), 3)
        print(f"{name:15s} {k:3d} sources: reach gpu {g:7.2f}  bfs levels+parents gpu {b:7.2f}  reach cpu {c:7.2f} ms",
              flush=True)
PY
