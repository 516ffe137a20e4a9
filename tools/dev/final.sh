#!/usr/bin/env bash
# The session's last device call (x1, about 9 minutes): the GPU tests of what changed on gpu-next
# (select/reduce_rows row by row, bfs_push_block at 512 threads, BFS_TINY_EDGES 2 K), the bench's BFS
# target rows at the new default beside the native queue BFS, and R-MAT 26 on one GPU worker: PageRank
# and SSSP, which ran out of memory in reduce_rows / select (the int64 key of every entry) on 2026-11-27.
set -u
[ -n "${PYTHONPATH:-}" ] || . tools/gpu-machine.sh
OUT=${OUT:-/tmp/final-out}; mkdir -p "$OUT"
T0=$SECONDS
echo "== tests at $((SECONDS - T0)) s"
timeout -s INT 150 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_engine_ops.py tests/test_triangles.py \
    tests/test_sssp.py tests/test_pagerank.py -k "select or reduce or triangle or sssp or pagerank" 2>&1 | tail -n 3 | tee "$OUT/tests.log"
timeout -s INT 100 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_gpu_engine.py tests/test_bfs.py \
    -k "bfs" 2>&1 | tail -n 3 | tee -a "$OUT/tests.log"
echo "== bench at $((SECONDS - T0)) s"
timeout -s INT 150 python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' bench bfs \
    --graphs grid2000 uniform22 --engines gpu --peers native --repeat 5 --budget 4 --no-progress \
    --out "$OUT/gpu-h100-issue18-bfs-block2.json" 2>&1 | grep -v '^$' | tail -n 12
echo "== rmat26 on one GPU at $((SECONDS - T0)) s"
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl-dask/*.whl 2>&1 | grep -v WARNING
timeout -s INT -k 10 ${TC:-200} python3 -m la_graph.bench.scaling --local gpu --generate workers --graphs rmat26:w1-255 \
    --workers 1 --spmd --algos pagerank,sssp --repeat 2 --budget 3 --check-max 0 --chunk-edges $((1 << 24)) \
    --no-yardstick --out $OUT/lean-rmat26_w1-255-1b.json 2>&1 | grep -v -E "Warning|warnings\.warn|^\s*$|distributed\.|Perhaps you|HTTP" | tail -n 12
echo "== done at $((SECONDS - T0)) s"
