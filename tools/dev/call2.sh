# Issue 23, 2026-11-28, nvidia-h100-x4, first of two calls: the GPU tests (a failure stops here), then
# R-MAT 26 (weighted 1-255) on 4 and 2 GPU workers by E.run, then NCCL's collectives for the same bytes.
TA=200 TB=0 NOCLIENT=1 ALGOS=bfs,pagerank,sssp,cc WORKERS="4 2" TC=165 TY=40 bash tools/dev/lean.sh
