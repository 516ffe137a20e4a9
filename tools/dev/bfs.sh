#!/usr/bin/env bash
# Device script of the GPU BFS work (issue 18, items 2 and 5): run from the repo root on a GPU machine,
#   bash tools/dev/bfs.sh            (writes $OUT/bfs.json; OUT defaults to /tmp/bfs-out)
# 1. the BFS tests on the GPU; 2. timings (median of 5 warm runs, graph resident, results left on the
# device as the bench does) with levels checked against the CPU engine, the thin launch's block count
# swept on the high-diameter graphs, one profiled run per graph, every real graph of the data folder
# against the CPU engine; 3. the bench beside the native queue BFS.  About 6 minutes on an H100; each part
# has a timeout (a hung persistent kernel cannot stall the whole run).
set -uo pipefail
. tools/gpu-machine.sh || exit 1
OUT=${OUT:-/tmp/bfs-out}
mkdir -p "$OUT"

echo "== tests"
timeout 240 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_gpu_engine.py -k "bfs or one_entry or declin or fused_steps" 2>&1 | tail -6
timeout 240 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_bfs.py tests/test_reachability.py 2>&1 | tail -6
timeout 240 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_fused.py -k "bfs or reach" 2>&1 | tail -6
timeout 240 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_engine_ops.py -k "coo" 2>&1 | tail -4

echo "== timings"
timeout 330 python3 - <<'EOF'
import statistics, time
from pathlib import Path
import numpy as np, cupy as cp
import la_graph as lg
from la_graph import profile, verify
from la_graph.bench.graphs import build, data_dir, read_options
from la_graph.bench.cases import _vertex0_or_hub

E = lg.get_engine("gpu")


def timed(fn, reps=5):
    fn(); cp.cuda.Device().synchronize()
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); fn(); cp.cuda.Device().synchronize(); ts.append(1e3 * (time.perf_counter() - t))
    return statistics.median(ts)


def work(G, level):
    m = int(np.asarray(G.out_degree)[level >= 0].sum())
    return m if G.directed else m // 2


def check(G, s):
    lev = lg.bfs(G, s, engine=E).level
    ref = lg.bfs(G, s, engine="cpu", parent=False).level
    assert np.array_equal(lev, ref), "levels differ from the cpu engine's"
    verify.check_bfs(G, s, lg.bfs(G, s, engine=E))
    return lev


def line(name, G, s, lev, label=""):
    par = timed(lambda: lg.bfs(G, s, level=False, engine=E, output="device"))
    both = timed(lambda: lg.bfs(G, s, engine=E, output="device"))
    w = work(G, lev)
    print(f"{name:>12} {label:>10} src {s:>8}  levels {lev.max() + 1:>5}  edges {w:>10,}  parents {par:8.3f} ms "
          f"({w / par / 1e6:6.2f} GTEPS)  levels+parents {both:8.3f} ms", flush=True)


graphs = {}
for name in ["rmat22", "uniform22", "grid2000", "usroads-48", "rome99"]:
    t = time.perf_counter()
    G = graphs[name] = build(name)
    srcs = {"bench": _vertex0_or_hub(G)}
    if name.startswith("rmat"):
        srcs.update({"vertex 0": 0, "hub": int(np.argmax(G.out_degree))})
    print(f"-- {name}: n {G.n:,}, nnz {G.nnz:,}, built in {time.perf_counter() - t:.1f} s", flush=True)
    for label, s in srcs.items():
        line(name, G, s, check(G, s), label)

print("-- BFS_THIN_BLOCKS on the high-diameter graphs (parents, device results)")
default = E.BFS_THIN_BLOCKS
for name in ["grid2000", "usroads-48"]:
    G = graphs[name]
    s = _vertex0_or_hub(G)
    row = []
    for b in (1, 4, 8, 16, 32, 66, 132):
        E.BFS_THIN_BLOCKS = b
        row.append(f"{b}: {timed(lambda: lg.bfs(G, s, level=False, engine=E, output='device')):.3f}")
    print(f"{name:>12}  " + "  ".join(row) + "  (blocks: ms)", flush=True)
E.BFS_THIN_BLOCKS = default

for name, G in graphs.items():
    s = int(np.argmax(G.out_degree)) if name.startswith("rmat") else _vertex0_or_hub(G)
    with profile.collect() as prof:
        lg.bfs(G, s, level=False, engine=E, output="device")
    print(f"-- profile {name} source {s} (parents)")
    print(prof.table(), flush=True)

print("-- real graphs: GPU vs CPU engine, parents from the bench's source (target: gpu <= max(2 x cpu, 5 ms))")
for path in sorted(p for p in Path(data_dir()).rglob("*") if p.is_file() and p.name != "README.md"):
    G = lg.Graph.from_file(path, **read_options(path))
    s = _vertex0_or_hub(G)
    lev = check(G, s)
    gpu = timed(lambda: lg.bfs(G, s, level=False, engine=E, output="device"))
    cpu = timed(lambda: lg.bfs(G, s, level=False, engine="cpu"))
    ok = "ok" if gpu <= max(2 * cpu, 5.0) else "SLOW"
    print(f"{path.name:>28} n {G.n:>7,} nnz {G.nnz:>9,} levels {lev.max() + 1:>5}  gpu {gpu:7.3f} ms  cpu {cpu:7.3f} ms  {ok}",
          flush=True)
EOF

echo "== bench (the la-graph command; timeout takes no shell function)"
timeout 200 python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' bench bfs --graphs rmat22 uniform22 grid2000 usroads-48 --engines gpu,cpu --peers native --repeat 5 --budget 5 \
  --no-progress --out "$OUT/bfs.json" 2>&1 | tail -40
