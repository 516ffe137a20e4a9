#!/usr/bin/env bash
# Issue 23 on a multi-GPU kind: the GPU-worker tests (NCCL exchange across GPUs), then strong scaling
# of R-MAT generated on the GPUs over 1, 2 and 4 GPU workers, beside NCCL's own collectives.
set -u
. tools/gpu-machine.sh || exit 1
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl-dask/*.whl || exit 1
export NCCL_NVLS_ENABLE=0
OUT=${OUT:-/tmp/mg-out}; mkdir -p "$OUT"
nvidia-smi topo -m | head -8
echo "== tests"
timeout ${TLIMIT:-240} python3 -m pytest -q -m gpu -x -p no:cacheprovider tests/test_dask_engine.py -k gpu_workers 2>&1 | tail -n 6
echo "== scaling ${SCALES:-rmat25 rmat26}"
for g in ${SCALES:-rmat25 rmat26}; do
  timeout ${LIMIT:-300} python3 -m la_graph.bench.scaling --local gpu --generate workers --graphs $g \
    --workers ${WORKERS:-1,2,4} --algos bfs,cc,pagerank --repeat 3 --check-max 0 --out $OUT/dask-gpu-$g.json 2>&1 \
    | grep -v -i "warn" | tail -n 40
done
