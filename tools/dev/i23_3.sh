# Issue 23 on nvidia-h100-x4, call 3 of 3: R-MAT 28 (268 M vertices, 8.6 G stored entries; no single H100
# holds it) generated on 4 GPU workers, every answer checked at 4096 sampled vertices.
NOREFS=1 TA=0 TB=0 NOCLIENT=1 ALGOS=bfs,pagerank,sssp,cc WORKERS=4 TC=560 TY=0 GRAPH=rmat28:w1-255 bash tools/dev/lean.sh
