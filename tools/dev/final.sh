#!/usr/bin/env bash
# The session's last device call (about 7 minutes on an H100): GPU tests of brandes_sources after its
# batching moved into the step; multi-source BFS block counts; the bench rows owed to issues 17 and 21
# (SSSP rmat22 beside scipy; TC, BC and PageRank on rmat22 beside the CPU engine); PageRank's iteration
# against an edge-list read.  Every part has a time limit; logs and JSON under $OUT.
set -u
[ -n "${PYTHONPATH:-}" ] || . tools/gpu-machine.sh
OUT=${OUT:-/tmp/final-out}; mkdir -p "$OUT"
t0=$SECONDS
bench() {  # bench NAME SECONDS ARGS...
    local name=$1 limit=$2; shift 2
    timeout -s INT -k 10 "$limit" python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' bench "$@" \
        --no-progress --out "$OUT/$name.json" 2>&1 | grep --line-buffered -v '^$\|^note\|Warning\|G = Graph' | tee "$OUT/$name.log"
}
echo "== tests [$((SECONDS - t0)) s]"
timeout -s INT -k 10 90 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_betweenness.py tests/test_fused.py \
    -k "bc or betweenness or brandes or bfs_multi or reach" 2>&1 | tail -n 3
echo "== msbfs blocks [$((SECONDS - t0)) s]"
timeout -s INT -k 10 60 python3 tools/dev/final.py msbfs 2>&1 | grep -v Warning | tee "$OUT/msbfs.log"
echo "== sssp [$((SECONDS - t0)) s]"
bench gpu-h100-issue17-sssp 100 sssp --graphs rmat22:w1-1000 --engines gpu --peers scipy --repeat 3 --budget 20
echo "== gap [$((SECONDS - t0)) s]"
bench gpu-h100-issue21-gap 170 tc bc pagerank --graphs rmat22 --engines gpu,cpu --peers none --repeat 3 --budget 15
timeout -s INT -k 10 50 python3 tools/dev/final.py pr 2>&1 | grep -v Warning | tee "$OUT/pr.log"
echo "== done [$((SECONDS - t0)) s]"
