# Issue 23 on nvidia-h100-x4, call 2 of 3: R-MAT 26 on 4 and 2 GPU workers, answers compared with call 1's,
# then NCCL's collectives for the same bytes between the same GPUs.
KEEPREFS=1 TA=0 TB=0 NOCLIENT=1 ALGOS=bfs,pagerank,sssp,cc WORKERS="4 2" TC=250 TY=40 bash tools/dev/lean.sh
