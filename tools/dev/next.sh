#!/usr/bin/env bash
# Branch gpu-next on the device: what it changed, tested and measured, in parts that fit device calls.
#
#   bash tools/dev/next.sh PART [PART ...]        (from the repository root on the GPU machine)
#
# Parts (minutes on an H100):
#   tests  (5)  the GPU tests of every changed kernel: fused steps against their algebra (bfs_search,
#               brandes_sources, pagerank_iterate, the semiring rows), the declines, BFS, BC, PageRank,
#               the row-by-row structural select (select.cu) and triangle counting, which uses it
#   search (2)  tools/dev/bfs_search.sh's timings and bench rows (the single-source kernel's threshold)
#   bc     (3)  tools/dev/bc_ent.sh's bench row: R-MAT 22, 64 sources, beside the CPU engine (target 20x)
#   roads  (2)  issue 17's road rows: tools/dev/pending.sh roads
#   block  (5)  bfs_push's one-block launch: tools/dev/bfs_block.sh (its tests, BFS with and without it,
#               the bench's BFS target rows beside the native queue BFS)
#   pr     (2)  PageRank's iteration on R-MAT 22 against one read of its indices, with the indices and
#               weights streamed (__ldcs): tools/dev/pagerank.sh's timings on rmat22 and facebook (last
#               stop, loads not streamed: 1.60 ms an iteration, read 0.30 ms)
# Logs and JSON records under $OUT.
set -u
[ -n "${PYTHONPATH:-}" ] || . tools/gpu-machine.sh
OUT=${OUT:-/tmp/next-out}; mkdir -p "$OUT"; export OUT
T0=$SECONDS
for part in "$@"; do
    echo "== $part at $((SECONDS - T0)) s"
    case $part in
    tests)
        timeout -s INT 240 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_fused.py \
            tests/test_bfs.py tests/test_betweenness.py tests/test_pagerank.py 2>&1 | tail -n 3 | tee "$OUT/tests.log"
        timeout -s INT 150 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_gpu_engine.py \
            -k "fused or declin or mxv or vxm or rows or plan or compiled" 2>&1 | tail -n 3 | tee -a "$OUT/tests.log"
        timeout -s INT 120 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_engine_ops.py tests/test_triangles.py \
            -k "select or triangle" 2>&1 | tail -n 3 | tee -a "$OUT/tests.log" ;;
    search)
        SKIP_TESTS=1 bash tools/dev/bfs_search.sh 2>&1 | tee "$OUT/search.log" ;;
    bc)
        SKIP_TESTS=1 bash tools/dev/bc_ent.sh 2>&1 | tee "$OUT/bc.log" ;;
    roads)
        bash tools/dev/pending.sh roads 2>&1 | tee "$OUT/roads.log" ;;
    block)
        bash tools/dev/bfs_block.sh 2>&1 | tee "$OUT/block.log" ;;
    pr)
        SKIP_TESTS=1 GRAPHS="rmat22 facebook" bash tools/dev/pagerank.sh 2>&1 | tee "$OUT/pr.log" ;;
    *)
        echo "unknown part $part (tests search bc roads block pr)" ;;
    esac
done
echo "== done at $((SECONDS - T0)) s"
