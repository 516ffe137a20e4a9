#!/usr/bin/env bash
# Issue 23 on nvidia-h100-x4 (4 x 80 GB): the lean block build and E.run on GPUs.
#  (a) the GPU tests of the SPMD runs and the distributed engine (tools/dev/gpu_dask_tests.sh: all cases at once);
#  (b) client-driven against E.run, R-MAT 22 over 4 GPU workers;
#  (c) strong scaling of R-MAT 26 (weighted 1-255, built on the GPUs by the lean build) over 1, 2 and 4
#      GPU workers, one process each: BFS, CC, PageRank, SSSP by E.run then client-driven, with the build's
#      memory (model / measured) and each run's compute / exchange / pool peak; then NCCL's collectives for
#      the same bytes.  JSON in $OUT.
# Every part has its own time limit (SIGINT first: clusters are closed, pytest prints its summary; TA=0 or
# TB=0 skips (a) or (b); one after another, (a)'s cases took 65 s each on 2026-11-28, so they now run at once);
# about 9 minutes in all (TA=0 TB=0: (c) alone, about 7).  NOCLIENT=1: E.run rows only; ALGOS: which ones;
# WORKERS: the counts (default 1 2 4); CHECKMAX: graphs up to this many vertices checked against the CPU engine (default 0); SAMPLE: sampled vertices checked (default 4096); GRAPH: default rmat26:w1-255; NOREFS=1: no answers kept across counts.  Run from the repository root.
set -u
. tools/gpu-machine.sh || exit 1
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl-dask/*.whl || exit 1
export NCCL_NVLS_ENABLE=0
OUT=${OUT:-/tmp/lean-out}; mkdir -p "$OUT"
G=${GRAPH:-rmat26:w1-255}
GN=${G//:/_}                         # (file names without ':')
quiet() { grep -v -E "Warning|warnings\.warn|^\s*$|^[0-9-]+ [0-9:,]+ - distributed|Perhaps you already|Hosting the HTTP" ; }
# the bench's own lines, not the workers' tracebacks when a limit interrupts them (the whole log comes back in $OUT)
notrace() { grep -E '^[0-9]+ workers|^\S+: |^  \S|^    (bfs|cc|pagerank|sssp|build) ' | grep -v -E '^\s+File "' ; }
gpus() { nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader | sed 's/^/  left on a GPU: /'; }
t0=$SECONDS

echo "== (a) GPU tests [$((SECONDS - t0)) s]"
# (TA=0: skipped; a failure stops the script before the benchmarks unless TESTS_GO_ON=1)
# (TESTS_GO_ON=1: the benchmarks run even when a case fails; the cases' logs come back in $OUT either way)
if [ "${TA:-200}" != 0 ]; then
  TT=${TA:-200} bash tools/dev/gpu_dask_tests.sh; rc=$?
  cp -r /tmp/gt "$OUT/gpu-tests"
  [ $rc = 0 ] || [ -n "${TESTS_GO_ON:-}" ] || exit 1
fi
gpus

echo "== (b) client-driven vs E.run, R-MAT 22, 4 GPU workers [$((SECONDS - t0)) s]"
[ "${TB:-40}" = 0 ] || timeout -s INT -k 10 ${TB:-40} python3 benchmarks/spmd_overhead.py --local gpu --workers 4 --scale 22 --repeat 2 \
  2>&1 | quiet | tail -n 12
gpus

REFS="--refs /tmp/lean-refs.npz"; [ -z "${NOREFS:-}" ] || REFS=""
[ -n "${KEEPREFS:-}" ] || rm -f /tmp/lean-refs.npz    # KEEPREFS=1: compare with an earlier call's answers
for w in ${WORKERS:-1 2 4}; do
  echo "== (c) $G on $w GPU worker(s) [$((SECONDS - t0)) s]"
  timeout -s INT -k 10 ${TC:-170} python3 -m la_graph.bench.scaling --local gpu --generate workers --graphs $G \
    --workers $w --spmd ${NOCLIENT:+--no-client} --algos ${ALGOS:-bfs,cc,pagerank,sssp} --repeat 2 --budget 3 \
    --check-max ${CHECKMAX:-0} --check-sample ${SAMPLE:-4096} --chunk-edges $((1 << 24)) $REFS \
    --no-yardstick --out $OUT/lean-$GN-$w.json 2>&1 | tee $OUT/lean-$GN-$w.log | quiet | notrace | tail -n 30
  gpus
done

echo "== (c) NCCL for the same bytes [$((SECONDS - t0)) s]"
[ "${TY:-30}" != 0 ] && ls $OUT/lean-$GN-[24].json >/dev/null 2>&1 && \
  timeout -s INT -k 10 ${TY:-30} python3 -m la_graph.bench.scaling --yardstick $OUT/lean-$GN-[24].json 2>&1 | quiet | tail -n 30
echo "== done [$((SECONDS - t0)) s]; records: $(ls $OUT | tr '\n' ' ')"
