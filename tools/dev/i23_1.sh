# Issue 23 on nvidia-h100-x4, call 1 of 3 (issue the next call at once: the machine goes back after 30 s idle,
# and /tmp/lean-refs.npz, the 1-GPU answers, lives on it): the GPU tests of the distributed engine, each case
# in a process of its own (a failure stops here), then R-MAT 26 (weighted 1-255) on 1 GPU worker by E.run.
# Every log comes back in $OUT.
TESTS_GO_ON=1 TA=240 TB=0 NOCLIENT=1 ALGOS=bfs,pagerank,sssp,cc WORKERS=1 TC=230 TY=0 bash tools/dev/lean.sh
