# Issue 23, 2026-11-28, nvidia-h100-x4, second call (same machine: /tmp/lean-refs.npz holds call 2's answers):
# R-MAT 26 on 1 GPU worker, then R-MAT 28 (8.6 G stored entries; no single H100 holds it) on 4.
KEEPREFS=1 TA=0 TB=0 NOCLIENT=1 ALGOS=bfs,pagerank,sssp,cc WORKERS=1 TC=160 TY=0 bash tools/dev/lean.sh
NOREFS=1 TA=0 TB=0 NOCLIENT=1 ALGOS=bfs,pagerank,sssp,cc WORKERS=4 TC=400 TY=0 GRAPH=rmat28:w1-255 bash tools/dev/lean.sh
