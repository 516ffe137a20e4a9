#!/usr/bin/env bash
# GPU strongly connected components (issue 18, items 3 and 5): the device run of branch gpu-scc.
#
# From the repository root on a GPU machine, after `. tools/gpu-machine.sh` (sourced here
# when PYTHONPATH is unset).  About 5-7 minutes on an H100.  Prints:
#   1. the GPU tests of the SCC steps (test_scc, test_fused -k scc, test_gpu_engine -k scc);
#   2. one line per graph: GPU (scc_labels, one kernel launch) and CPU engine medians of 5
#      warm runs, whether the labels agree, the target max(2x CPU, 5 ms), and the kernel's
#      counters (trim levels, sweeps, coloring rounds, what each phase labelled);
#   3. variants on the main graphs: contraction as decided / forced on / off, 1 and 16 units a
#      group of lanes (default 4: the grid's size), the three steps as separate launches;
#   4. the profile of one run on the five main graphs;
#   5. `la-graph bench scc` on uk-2007-05, soc-Slashdot0902, rmat22:dir with ECL-SCC ($OUT/scc.json).
set -u
[ -n "${PYTHONPATH:-}" ] || . tools/gpu-machine.sh
OUT=${OUT:-/tmp/scc-out}
mkdir -p "$OUT"

echo "== 1. tests"
timeout 420 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_scc.py tests/test_fused.py \
  tests/test_gpu_engine.py -k "scc or fused_steps or declin" 2>&1 | tail -25

echo "== 2-4. timings"
timeout 420 python3 - <<'EOF' 2>&1 | tee "$OUT/scc-times.txt"
import logging, statistics, time
import numpy as np
import cupy as cp
import la_graph as lg
from la_graph import profile
from la_graph.algorithms import steps
from la_graph.bench.graphs import build
from la_graph.engines import gpu as gpu_mod

E = lg.get_engine("gpu")
sync = cp.cuda.Device().synchronize


def chain(k):        # k 2-cycles in a row: nothing to trim, k SCCs
    a = np.arange(0, 2 * k, 2)
    return lg.Graph.from_edges(np.r_[a, a + 1, a[:-1] + 1], np.r_[a + 1, a, a[1:]], n=2 * k, directed=True)


def cycles_dag(k, seed=1):   # k small cycles (2-5 vertices) and 3k random edges from lower to higher cycles
    rng = np.random.default_rng(seed)
    size = rng.integers(2, 6, k)
    start = np.r_[0, np.cumsum(size)[:-1]]
    n = int(size.sum())
    idx = np.arange(n)
    cyc = np.repeat(np.arange(k), size)
    nxt = np.where(idx + 1 < start[cyc] + size[cyc], idx + 1, start[cyc])
    a, b = np.sort(rng.integers(0, k, (2, 3 * k)), axis=0)
    keep = a < b
    u = start[a[keep]] + rng.integers(0, 2, keep.sum())
    v = start[b[keep]] + rng.integers(0, 2, keep.sum())
    perm = rng.permutation(n)          # ids in no order
    return lg.Graph.from_edges(perm[np.r_[idx, u]], perm[np.r_[nxt, v]], n=n, directed=True)


SPECIAL = {"chain-1e5": lambda: chain(10**5), "cycles-dag-30k": lambda: cycles_dag(30000),
           "path-1e5": lambda: lg.Graph.from_edges(np.arange(10**5 - 1), np.arange(1, 10**5), directed=True)}


def get(name):
    return SPECIAL[name]() if name in SPECIAL else build(name)


def gpu_ms(G):
    return med(lambda: lg.strongly_connected_components(G, engine=E, output="device"))


def med(fn, k=5):
    fn()
    sync()
    ts = []
    for _ in range(k):
        t = time.perf_counter()
        fn()
        sync()
        ts.append(time.perf_counter() - t)
    return 1e3 * statistics.median(ts)


class Grab(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.last = ""

    def emit(self, record):
        msg = record.getMessage()
        if msg.startswith("scc_grid"):
            self.last = msg


grab = Grab()
logging.getLogger("la_graph").addHandler(grab)


def counters(G):
    logging.getLogger("la_graph").setLevel(logging.DEBUG)
    lg.strongly_connected_components(G, engine=E, output="device")
    logging.getLogger("la_graph").setLevel(logging.WARNING)
    return grab.last.replace("scc_grid ", "").replace("'", "")


MAIN = ["uk-2007-05", "soc-Slashdot0902", "rmat22:dir", "usroads-48:dir", "chain-1e5"]
REAL = ["email-Eu-core", "Wiki-Vote", "p2p-Gnutella31", "cit-HepTh", "cit-HepPh", "soc-sign-bitcoinotc", "rome99",
        "facebook", "CA-GrQc", "CA-HepPh", "Email-Enron", "as-caida20071105", "luxembourg_osm", "delaunay_n14",
        "delaunay_n15", "delaunay_n16", "rgg_n_2_15", "usroads-48"]
UNDIRECTED_AS_DIRECTED = [g + ":dir" for g in ["luxembourg_osm", "delaunay_n14", "delaunay_n15", "delaunay_n16",
                                                "rgg_n_2_15"]]   # usroads-48:dir is in MAIN
MORE = ["cycles-dag-30k", "path-1e5", "er100k-150k:dir", "er100k-300k:dir", "rmat18:dir"]
graphs = {}
print(f"{'graph':24s} {'n':>9s} {'m':>10s} {'gpu ms':>8s} {'cpu ms':>8s} {'gpu/cpu':>7s} {'ok':>3s} {'goal':>4s}  counters")
for name in MAIN + REAL + UNDIRECTED_AS_DIRECTED + MORE:
    try:
        G = get(name)
    except Exception as exc:                 # a graph the data folder lacks
        print(f"{name:24s} skipped: {exc}")
        continue
    if name in MAIN:
        graphs[name] = G
    g = gpu_ms(G)
    big = G.n > 10**6
    c = float("nan") if big else med(lambda: lg.strongly_connected_components(G, engine="cpu"))
    same = "-" if big else ("yes" if np.array_equal(lg.strongly_connected_components(G, engine=E),
                                                    lg.strongly_connected_components(G, engine="cpu")) else "NO")
    goal = "-" if big else ("yes" if g <= max(2 * c, 5.0) else "NO")
    info = counters(G) if G.directed else "(undirected: connected components)"
    print(f"{name:24s} {G.n:9d} {G.nnz:10d} {g:8.2f} {c:8.2f} {g / c:7.2f} {same:>3s} {goal:>4s}  {info}", flush=True)

print("\n== 3. variants (ms, median of 5)")
for name in ["uk-2007-05", "soc-Slashdot0902", "rmat22:dir", "usroads-48:dir", "chain-1e5"]:
    G = graphs[name]
    row = []
    for label, edges in [("auto", gpu_mod.GPUEngine.SCC_CONTRACT_EDGES), ("contract", 2**62), ("plain", -1)]:
        old = gpu_mod.GPUEngine.SCC_CONTRACT_EDGES
        gpu_mod.GPUEngine.SCC_CONTRACT_EDGES = edges
        try:
            row.append(f"{label} {gpu_ms(G):.2f}")
        finally:
            gpu_mod.GPUEngine.SCC_CONTRACT_EDGES = old
    for units in (1, 16):
        old = gpu_mod.GPUEngine.SCC_UNITS_PER_GROUP
        gpu_mod.GPUEngine.SCC_UNITS_PER_GROUP = units
        try:
            row.append(f"{units} units/group {gpu_ms(G):.2f}")
        finally:
            gpu_mod.GPUEngine.SCC_UNITS_PER_GROUP = old
    with steps.algebraic("scc_labels"):
        row.append(f"3 steps {gpu_ms(G):.2f}")
    print(f"{name:20s} " + " | ".join(row), flush=True)

print("\n== 4. profiles")
for name, G in graphs.items():
    with profile.collect() as prof:
        lg.strongly_connected_components(G, engine=E, output="device")
        sync()
    print(f"-- {name}")
    print("\n".join(prof.table().splitlines()[1:8]), flush=True)
EOF

echo "== 5. bench with ECL-SCC"
timeout 400 python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' bench scc \
  --graphs uk-2007-05 soc-Slashdot0902 rmat22:dir --engines gpu,cpu --peers ecl --repeat 5 --budget 5 \
  --no-progress --out "$OUT/scc.json" 2>&1 | tail -30
