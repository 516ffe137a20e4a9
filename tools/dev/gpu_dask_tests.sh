#!/usr/bin/env bash
# The GPU tests of the distributed engine, each case in a process of its own, all at once (one after another
# they took 65 s a case on nvidia-h100-x4: cluster start-up, NCCL, kernel compiles).  Prints each case's
# summary; exits 1 if any failed.  A case still running 20 s before its limit dumps every thread's stack
# (faulthandler) into its log, so a slow case can be told from a stuck one.  Source tools/gpu-machine.sh and install .whl-dask first (lean.sh does).
set -u
T=${TT:-200}
mkdir -p /tmp/gt
cases="tests/test_dask_spmd.py::test_gpu_runs[cuda] tests/test_dask_spmd.py::test_gpu_runs[cuda-every-gpu]
tests/test_dask_engine.py::test_gpu_workers[cuda] tests/test_dask_engine.py::test_gpu_workers[two-on-one-gpu]
tests/test_dask_engine.py::test_gpu_workers[cuda-every-gpu]"
i=0
for c in $cases; do
  i=$((i + 1))
  timeout -s INT -k 10 $T python3 -m pytest -q -m gpu -p no:cacheprovider -o faulthandler_timeout=$((T - 20)) "$c" > /tmp/gt/$i.log 2>&1 &
done
wait
bad=0
i=0
for c in $cases; do
  i=$((i + 1))
  line=$(grep -E "passed|failed|error|skipped" /tmp/gt/$i.log | tail -n 1)
  echo "$c: $line"
  if ! echo "$line" | grep -q " passed" || echo "$line" | grep -q -E "failed|error"; then
    bad=1
    grep -v -E "Warning|warnings\.warn|^\s*$" /tmp/gt/$i.log | tail -n 40
  fi
done
exit $bad
