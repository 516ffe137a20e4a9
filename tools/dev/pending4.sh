#!/usr/bin/env bash
# tools/dev/pending.sh's parts on a machine of four GPUs: one group of parts per GPU, run at once,
# each group pinned to its own GPU (CUDA_VISIBLE_DEVICES) and its own quarter of the cores (taskset,
# 16 threads for numba / GraphBLAS / OpenMP: the CPU rows then see a 16-core machine like
# nvidia-h100-x1's).  Every group has a time limit; the logs and JSON records of all groups come back
# as one archive, $OUT/pending4.tgz, with the groups' consoles in $OUT/pending4.log.
#
#   bash tools/dev/pending4.sh "sssp reach" "bfs apsp" "gap" "small"     (from the repository root)
set -u
. tools/gpu-machine.sh || exit 1
OUT=${OUT:-/tmp/pending4-out}; mkdir -p "$OUT"
LIMIT=${LIMIT:-540}
ncpu=$(nproc); per=$((ncpu / 4)); [ "$per" -ge 1 ] || per=1
t0=$SECONDS
pids=()
g=0
for parts in "$@"; do
    lo=$((g * per)); hi=$((lo + per - 1))
    mkdir -p "$OUT/g$g"
    ( export CUDA_VISIBLE_DEVICES=$g OUT="$OUT/g$g" LA_GRAPH_NUM_THREADS=$per NUMBA_NUM_THREADS=$per \
          OMP_NUM_THREADS=$per
      timeout -s INT -k 15 "$LIMIT" taskset -c "$lo-$hi" bash tools/dev/pending.sh $parts ) \
        > "$OUT/g$g/console.log" 2>&1 &
    pids+=($!)
    echo "group $g on GPU $g, cores $lo-$hi: $parts"
    g=$((g + 1))
done
wait "${pids[@]}"
for ((i = 0; i < g; i++)); do echo "===== group $i"; cat "$OUT/g$i/console.log"; done > "$OUT/pending4.log"
(cd "$OUT" && tar czf pending4.tgz g*/ && rm -rf g*/)
echo "done in $((SECONDS - t0)) s"
tail -c 9000 "$OUT/pending4.log"
