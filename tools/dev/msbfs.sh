#!/usr/bin/env bash
# Device script: the multi-source BFS kernel (gpu/msbfs.cu: reach_sweep, bfs_multi) and the GPU rows
# still owed to issues 17 and 18 after branch gpu-bfs2 was reverted.  About 8 minutes on an H100.
#   1. GPU tests of the new steps (fused vs algebra, BFS, reachability, APSP);
#   2. reachability, multi-source BFS and APSP on the real graphs, GPU beside the CPU engine
#      (issue 18 item 5: GPU <= max(2 x CPU engine, 5 ms));
#   3. APSP beside ECL-APSP: er2700 (the bench), n = 8192 and 16384 (tools/dev/apsp.sh's timing part);
#   4. BFS targets (rmat22, uniform22, grid2000 from vertex 0) beside our native queue BFS;
#      SSSP on rmat22 with five timed runs.
# Every part has its own time limit and writes its log / JSON under $OUT.
set -u
[ -n "${PYTHONPATH:-}" ] || . tools/gpu-machine.sh
OUT=${OUT:-/tmp/msbfs-out}; mkdir -p "$OUT"
t0=$SECONDS
bench() {  # bench NAME SECONDS ARGS...
    local name=$1 limit=$2; shift 2
    timeout -s INT -k 10 "$limit" python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' bench "$@" \
        --no-progress --out "$OUT/$name.json" 2>&1 | grep --line-buffered -v '^$\|^note\|Warning\|G = Graph' | tee "$OUT/$name.log"
}
echo "== tests [$((SECONDS - t0)) s]"
timeout -s INT -k 10 150 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_fused.py -k "bfs_multi or reach_sweep" \
    2>&1 | tail -n 4
timeout -s INT -k 10 120 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_reachability.py tests/test_bfs.py \
    tests/test_apsp.py 2>&1 | tail -n 4
echo "== small graphs [$((SECONDS - t0)) s]"
bench small-reach 110 reachability bfs --graphs uk-2007-05 soc-Slashdot0902 cit-HepPh facebook usroads-48 luxembourg_osm \
    --engines gpu,cpu --peers none --repeat 5 --budget 1
bench apsp-small 60 apsp --graphs facebook er2700-850k:dir:w1-1000 --engines gpu,cpu --peers ecl --repeat 5 --budget 3
echo "== apsp sizes [$((SECONDS - t0)) s]"
SKIP_TESTS=1 NO_BENCH=1 GRAPHS="er8192-819k:dir:w1-1000 er16384-1638k:dir:w1-1000" timeout -s INT 100 bash tools/dev/apsp.sh \
    2>&1 | tee "$OUT/apsp-sizes.log"
echo "== bfs, sssp targets [$((SECONDS - t0)) s]"
bench bfs-targets 100 bfs --graphs rmat22 uniform22 grid2000 --engines gpu --peers native --repeat 5 --budget 3
bench sssp-rmat22 60 sssp --graphs rmat22:w1-1000 --engines gpu --peers none --repeat 5 --budget 5
echo "== done [$((SECONDS - t0)) s]"
