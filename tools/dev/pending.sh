#!/usr/bin/env bash
# The GPU measurements still owed to issues 17, 18 and 21, in parts that each fit one device call.
#
#   bash tools/dev/pending.sh PART [PART ...]      (from the repository root on the GPU machine)
#
# Parts (minutes on an H100, graph builds included):
#   sssp   (4)  issue 17: SSSP beside scipy on rmat22:w1-1000, grid2000:w1-999 and the road graphs
#   roads  (2)  issue 17: SSSP beside scipy on the road networks and the generated planar road-like graphs
#               (delaunay 10k, 100k, 1M; the targets' last rows)
#   apsp   (4)  issue 18: APSP beside ECL-APSP on er2700-850k (the bench), and n = 8192, 16384
#               (tools/dev/apsp.sh's timing part, ECL-APSP run directly)
#   gap    (6)  issue 21: TC and BC (64 sources) on rmat22 with the CPU engine in the same run,
#               PageRank on rmat22 and uk-2007-05, BC on grid2000 (its levels stored sparse)
#   reach  (6)  issue 10: multi-source reachability beside one BFS per source and scipy; the BFS targets
#               beside our native queue BFS (rows of issues 4 and 18)
#   small  (8)  issue 18 item 5: every algorithm on the real graphs, GPU beside the CPU engine
#               (the rule: GPU time <= max(2 x CPU engine, 5 ms))
#   bfs    (5)  issue 18 item 2: tools/dev/bfs2.sh (branch gpu-bfs2 merged first)
#
# Every part writes its log and JSON record under $OUT as it goes (tee), so a part cut short by the
# call's time limit still returns what it printed.  Budget the parts to the call: `timeout` each.
set -u
[ -n "${PYTHONPATH:-}" ] || . tools/gpu-machine.sh
OUT=${OUT:-/tmp/pending-out}
mkdir -p "$OUT"
T0=$SECONDS
bench() {  # bench NAME ARGS...: la-graph bench ARGS --out $OUT/NAME.json, its output teed to $OUT/NAME.log
    local name=$1; shift
    python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' bench "$@" --no-progress \
        --out "$OUT/$name.json" 2>&1 | grep --line-buffered -v '^$' | tee "$OUT/$name.log"
}
for part in "$@"; do
    echo "== $part at $((SECONDS - T0)) s"
    case $part in
    sssp)
        bench gpu-sssp sssp --graphs rmat22:w1-1000 grid2000:w1-999 usroads-48:w1-1000 luxembourg_osm:w1-1000 \
            rome99 --engines gpu --peers scipy --repeat 5 --budget 4 ;;
    roads)
        bench gpu-h100-issue17-roads sssp --graphs usroads-48:w1-1000 luxembourg_osm:w1-1000 rome99 \
            delaunay10k:w1-1000 delaunay100k:w1-1000 delaunay1M:w1-1000 --engines gpu --peers scipy --repeat 5 \
            --budget 4 ;;
    apsp)
        bench gpu-apsp apsp --graphs er2700-850k:dir:w1-1000 facebook --engines gpu --peers ecl,native,scipy \
            --repeat 5 --budget 5
        SKIP_TESTS=1 NO_BENCH=1 GRAPHS="er8192-819k:dir:w1-1000 er16384-1638k:dir:w1-1000" timeout 300 bash tools/dev/apsp.sh 2>&1 | tee "$OUT/apsp-sizes.log" ;;
    gap)
        bench gpu-tc-bc tc bc --graphs rmat22 uk-2007-05 --engines gpu,cpu --repeat 3 --budget 20
        bench gpu-pagerank pagerank --graphs rmat22 uk-2007-05 --engines gpu --peers none --repeat 5 --budget 5
        bench gpu-bc-grid bc --graphs grid2000 --engines gpu --peers none --repeat 3 --budget 10 ;;
    reach)
        bench gpu-reach reachability bfs --suite targets --engines gpu --peers scipy,native --repeat 5 --budget 5 ;;
    small)
        bench gpu-small bfs cc sssp msf scc mis reachability pagerank tc lcc bc cdlp kcore --suite real \
            --engines gpu,cpu --peers none --repeat 5 --budget 3 ;;
    bfs)
        bash tools/dev/bfs2.sh 2>&1 | tee "$OUT/bfs2.log" ;;
    *)
        echo "unknown part $part (sssp roads apsp gap reach small bfs)" ;;
    esac
done
echo "== done at $((SECONDS - T0)) s"
