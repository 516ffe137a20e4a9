# Issue 23 on nvidia-h100-x4, one call: R-MAT 28 (268 M vertices, 8.6 G stored entries; no single H100 holds it)
# generated on 4 GPU workers, every answer checked at 4096 sampled vertices; then R-MAT 26 on 4 GPU workers
# again with the sampled checks (the scaling call compared 2 with 4 workers only).
NOREFS=1 TA=0 TB=0 NOCLIENT=1 ALGOS=bfs,pagerank,sssp,cc WORKERS=4 TC=400 TY=0 GRAPH=rmat28:w1-255 bash tools/dev/lean.sh
NOREFS=1 TA=0 TB=0 NOCLIENT=1 ALGOS=bfs,pagerank,sssp,cc WORKERS=4 TC=150 TY=0 bash tools/dev/lean.sh
