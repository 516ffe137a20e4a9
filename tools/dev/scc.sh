#!/usr/bin/env bash
# GPU strongly connected components (issue 18, items 3 and 5): the device run of branch gpu-scc.
#
# From the repository root on a GPU machine, after `. tools/gpu-machine.sh` (sourced here
# when PYTHONPATH is unset).  About 6-8 minutes on an H100.  Prints:
#   0. uk-2007-05 phase by phase: one kernel launch per row with some of the phase bits, from
#      states the CPU engine made, each row saying whether the launch stopped, how many
#      vertices it labelled wrong or left, and (where it contracted) whether every vertex
#      left points at a rep; then the full launch 8 times, on one block, without contraction;
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

echo "== 0. uk-2007-05 phase by phase (which phase leaves a state the CPU engine disagrees with)"
timeout 240 python3 - <<'EOF' 2>&1 | tee "$OUT/scc-phases.txt"
# One row a scc_grid launch with the phase bits named, from a state the CPU engine made
# (a row inherits no earlier row's mistakes).  Columns: the phases as run (T trim, c
# contract, q qtrim, p pivot, f fwbw, C colour), blocks, the kernel's error ("ok" or the
# head of its message), vertices the launch labelled, vertices labelled WRONG (label !=
# the CPU engine's), vertices left, and after a launch that contracted, the reps check:
# unlabelled vertices whose rep is -1 / labelled / no rep (all 0 when sound).
import numpy as np
import cupy as cp
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components
import la_graph as lg
from la_graph.bench.graphs import build
from la_graph.engines import gpu as gpu_mod
from la_graph.engines.gpu import fused as F
from la_graph.engines.cpu.fused import scc as K
from la_graph.engines.cpu.objects import _unsigned
from la_graph.exceptions import LaGraphError

E = lg.get_engine("gpu")
G = build("uk-2007-05")
n = G.n
truth = np.asarray(lg.strongly_connected_components(G, engine="cpu"))
T, C, q, p, f, Q = F._SCC_TRIM, F._SCC_CONTRACT, F._SCC_QTRIM, F._SCC_PIVOT, F._SCC_FWBW, F._SCC_COLOR
ALL = T | C | q | p | f | Q


def letters(ph):
    return "".join(ch if ph & b else "." for ch, b in zip("TcqpfC", (T, C, q, p, f, Q)))


def launch(name, phases, state, **kw):
    done, lab = state
    idx = np.flatnonzero(done)
    labels = E.hint(E.vector_from_coo(idx, lab[idx], n, dtype=np.int64), "dense")
    keep, err = {}, "ok"
    try:
        F._scc_run(E, G, labels, phases, keep=keep, **kw)
    except LaGraphError as exc:
        err = "ERROR " + str(exc).split(" (a bug")[0].replace("the scc kernel stopped: ", "")
    out = np.asarray(E.to_numpy(labels, fill=-1))
    got = out >= 0
    wrong = int((got & (out != truth)).sum())
    ran = keep.get("phases", phases)
    reps = ""
    if keep and ran & ~T:
        reps = F._scc_reps(keep["rep"], labels.pres if labels.pres is not None else cp.ones(n, bool))
    c = keep.get("counts", {})
    print(f"{name:36s} {letters(ran)} {keep.get('blocks', 0):3d} {err[:44]:44s} new {int((got & ~done).sum()):6d} "
          f"WRONG {wrong:6d} left {n - int(got.sum()):6d} | {reps} | rounds {c.get('rounds')} sweeps "
          f"{c.get('sweeps')} pivot {c.get('pivot')}", flush=True)
    return (got, np.where(got, out, 0)), keep


both = (G.indptr, _unsigned(G.indices), G.T.indptr, _unsigned(G.T.indices))
S0 = (np.zeros(n, bool), np.zeros(n, np.int64))
d1, l1 = S0[0].copy(), S0[1].copy()
K.trim(*both, d1, l1)
S1 = (d1, l1)                                                      # the CPU engine's trim
(gd, _), _ = launch("trim", T, S0)
print(f"{'':36s} trim: {int((gd != d1).sum())} vertices labelled differently from the CPU engine's trim")

# the contraction: rep[v] must be the smallest id of v's component along mutual edges
# among the vertices the trim left
live = ~d1
A = sp.csr_matrix((np.ones(G.nnz, np.int8), G.indices, G.indptr), shape=(n, n))
M = A.multiply(A.T).tocsr()
M.setdiag(0)
D = sp.diags(live.astype(np.float64))
ncomp, comp = connected_components((D @ M @ D).tocsr(), directed=False)
small = np.full(ncomp, n, np.int64)
np.minimum.at(small, comp, np.arange(n))
want = np.where(live, small[comp], -1)
for i in range(5):
    _, keep = launch(f"contract #{i}", C, S1)
    if keep:
        rep = cp.asnumpy(keep["rep"])
        print(f"{'':36s} contract: {int(((rep != want) & live).sum())} live vertices' reps differ from the "
              f"smallest id of their mutual-edge component", flush=True)
launch("contract+qtrim", C | q, S1)
launch("pivot+fwbw (contract)", C | p | f, S1)
launch("pivot+fwbw (no contract)", p | f, S1)
(g3, _), keep = launch("trim..fwbw, no colour (as scc_labels)", T | C | q | p | f, S0, max_levels=E.SCC_TRIM_LEVELS)
piv = keep.get("counts", {}).get("pivot", -1)
d3, l3 = d1.copy(), l1.copy()
if 0 <= piv < n:
    mem = truth == truth[piv]
    print(f"{'':36s} pivot {piv}: its SCC has {int(mem.sum())} vertices, {int((mem & ~g3).sum())} left unlabelled")
    d3 |= mem
    l3[mem] = truth[mem]
S3 = (d3, l3)                                                      # the CPU's trim and the pivot's SCC
launch("colour alone (no contract)", Q, S3)
launch("contract+colour", C | Q, S3)
launch("contract+qtrim+colour (scc_color)", C | q | Q, S3)
launch("contract+qtrim+colour from the trim", C | q | Q, S1)
launch("colour alone from the trim", Q, S1)
for i in range(8):
    launch(f"full #{i} (scc_labels)", ALL, S0, max_levels=E.SCC_TRIM_LEVELS)
old = gpu_mod.GPUEngine.SCC_UNITS_PER_GROUP
gpu_mod.GPUEngine.SCC_UNITS_PER_GROUP = 2**40                      # one block: no grid barrier
try:
    for i in range(3):
        launch(f"full, one block #{i}", ALL, S0, max_levels=E.SCC_TRIM_LEVELS)
finally:
    gpu_mod.GPUEngine.SCC_UNITS_PER_GROUP = old
old = gpu_mod.GPUEngine.SCC_CONTRACT_EDGES
gpu_mod.GPUEngine.SCC_CONTRACT_EDGES = -1                          # no contraction, no quotient trim
try:
    for i in range(3):
        launch(f"full, no contraction #{i}", ALL, S0, max_levels=E.SCC_TRIM_LEVELS)
finally:
    gpu_mod.GPUEngine.SCC_CONTRACT_EDGES = old
EOF

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
from la_graph.exceptions import LaGraphError

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


def gpu_ms_text(G):
    try:
        return f"{gpu_ms(G):.2f}"
    except LaGraphError as exc:
        return "ERROR " + str(exc)[:200]


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
    try:
        g = gpu_ms(G)
        big = G.n > 10**6
        c = float("nan") if big else med(lambda: lg.strongly_connected_components(G, engine="cpu"))
        same = "-" if big else ("yes" if np.array_equal(lg.strongly_connected_components(G, engine=E),
                                                        lg.strongly_connected_components(G, engine="cpu")) else "NO")
        goal = "-" if big else ("yes" if g <= max(2 * c, 5.0) else "NO")
        info = counters(G) if G.directed else "(undirected: connected components)"
    except LaGraphError as exc:             # print it and go on: the other graphs still tell
        print(f"{name:24s} GPU ERROR {exc}", flush=True)
        continue
    if name in MAIN:
        graphs[name] = G
    print(f"{name:24s} {G.n:9d} {G.nnz:10d} {g:8.2f} {c:8.2f} {g / c:7.2f} {same:>3s} {goal:>4s}  {info}", flush=True)

print("\n== 3. variants (ms, median of 5)")
for name in [g for g in MAIN if g in graphs]:
    G = graphs[name]
    row = []
    for label, edges in [("auto", gpu_mod.GPUEngine.SCC_CONTRACT_EDGES), ("contract", 2**62), ("plain", -1)]:
        old = gpu_mod.GPUEngine.SCC_CONTRACT_EDGES
        gpu_mod.GPUEngine.SCC_CONTRACT_EDGES = edges
        try:
            row.append(f"{label} {gpu_ms_text(G)}")
        finally:
            gpu_mod.GPUEngine.SCC_CONTRACT_EDGES = old
    for units in (1, 16):
        old = gpu_mod.GPUEngine.SCC_UNITS_PER_GROUP
        gpu_mod.GPUEngine.SCC_UNITS_PER_GROUP = units
        try:
            row.append(f"{units} units/group {gpu_ms_text(G)}")
        finally:
            gpu_mod.GPUEngine.SCC_UNITS_PER_GROUP = old
    with steps.algebraic("scc_labels"):
        row.append(f"3 steps {gpu_ms_text(G)}")
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
