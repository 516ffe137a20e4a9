#!/usr/bin/env bash
# Branch gpu-bc-ent: Brandes' (sigma, level) pairs in one 16-byte entry (one memory transaction a
# neighbour, not two).  The BC tests, then issue 21's row: R-MAT 22, 64 sources, GPU beside the CPU engine
# (main on 2026-11-27: GPU 890 ms, CPU 16,208 ms, 18.2x; target 20x).  About 4 minutes.
set -u
[ -n "${PYTHONPATH:-}" ] || . tools/gpu-machine.sh
OUT=${OUT:-/tmp/bc-ent-out}; mkdir -p "$OUT"
[ -n "${SKIP_TESTS:-}" ] || timeout -s INT 100 python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_betweenness.py tests/test_fused.py \
    -k "bc or betweenness or brandes" 2>&1 | tail -n 2
timeout -s INT 300 python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' bench bc --graphs rmat22 \
    --engines gpu,cpu --peers none --repeat 2 --budget 15 --no-progress --out "$OUT/gpu-h100-issue21-bc-ent.json" 2>&1 \
    | grep -v '^$' | tail -n 8
