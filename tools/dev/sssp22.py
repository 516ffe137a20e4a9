"""SSSP on R-MAT 22 (weights 1..1000) from the bench's source on the GPU: median of 5 warm runs, one profile.

Run on the device after `. tools/gpu-machine.sh`:  python3 tools/dev/sssp22.py
"""
import statistics
import time

import cupy as cp

import la_graph as lg
from la_graph import profile
from la_graph.bench.graphs import build

G = build("rmat22:w1-1000")
s = 2560639                    # the targets suite's source on this graph
lg.sssp(G, s, engine="gpu")
ts = []
for _ in range(5):
    cp.cuda.Device().synchronize()
    t = time.perf_counter()
    lg.sssp(G, s, engine="gpu")
    cp.cuda.Device().synchronize()
    ts.append((time.perf_counter() - t) * 1e3)
print(f"sssp rmat22:w1-1000 from {s}: median {statistics.median(ts):.2f} ms, min {min(ts):.2f} ms (n=5)")
with profile.collect() as prof:
    lg.sssp(G, s, engine="gpu")
print(prof.table())
