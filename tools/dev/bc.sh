#!/usr/bin/env bash
# gpu-bc-levels: Brandes' levels hinted sparse on the GPU (issue 21: BC on grid2000 ran out of memory,
# each of its ~4,000 levels a dense 1 x 4M matrix of 40 MB). Run from the repo root on the device.
set -u
. tools/gpu-machine.sh || exit 1
OUT=${OUT:-/tmp/bc-out}; mkdir -p "$OUT"
timeout 240 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_betweenness.py tests/test_engine_ops.py -k "hint or betweenness or brandes" 2>&1 | tail -4
timeout 300 python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' bench bc --graphs grid2000 rmat22 --engines gpu --peers none --repeat 3 --budget 10 --no-progress --out $OUT/bc.json 2>&1 | tail -12
