// Queue BFS (the IIT report's "Queue BFS", Algorithms 3-4), a native CUDA baseline.
//
// Level-synchronous: the current frontier is a queue cq; expanding it claims every
// unvisited neighbour v with atomicCAS(level[v], -1, l + 1) (the report's atomicMin on an
// "infinite" cost, as a compare-and-swap so that exactly one thread wins), records the
// winner's vertex as parent[v] and appends v to the next queue with atomicAdd.  The host
// reads the next queue's size after each level and stops at zero.
//
// Two expansion kernels: one thread per frontier vertex (the report's), and one warp per
// frontier vertex (lanes stride over its neighbour list) for graphs of high average degree,
// where one thread per vertex leaves a hub's whole list to a single thread.
// CSR int32; level and parent int32, -1 where unreached; parent[source] = source.

extern "C" __global__ void qbfs_init(const int n, const int source, int* __restrict__ level,
                                     int* __restrict__ parent, int* __restrict__ queue)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int v = from; v < n; v += incr) {
        level[v] = (v == source) ? 0 : -1;
        parent[v] = (v == source) ? source : -1;
    }
    if (from == 0) queue[0] = source;
}

extern "C" __global__ void qbfs_expand_thread(const int l, const int* __restrict__ indptr,
                                              const int* __restrict__ indices, int* __restrict__ level,
                                              int* __restrict__ parent, const int* __restrict__ cq,
                                              const int cq_size, int* __restrict__ nq, int* __restrict__ nq_size)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int i = from; i < cq_size; i += incr) {
        const int u = cq[i];
        const int end = indptr[u + 1];
        for (int e = indptr[u]; e < end; e++) {
            const int v = indices[e];
            if (level[v] == -1 && atomicCAS(&level[v], -1, l + 1) == -1) {
                parent[v] = u;
                nq[atomicAdd(nq_size, 1)] = v;
            }
        }
    }
}

extern "C" __global__ void qbfs_expand_warp(const int l, const int* __restrict__ indptr,
                                            const int* __restrict__ indices, int* __restrict__ level,
                                            int* __restrict__ parent, const int* __restrict__ cq,
                                            const int cq_size, int* __restrict__ nq, int* __restrict__ nq_size)
{
    const int lane = threadIdx.x % 32;
    const int from = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
    const int incr = (gridDim.x * blockDim.x) / 32;
    for (int i = from; i < cq_size; i += incr) {
        const int u = cq[i];
        const int end = indptr[u + 1];
        for (int e = indptr[u] + lane; e < end; e += 32) {
            const int v = indices[e];
            if (level[v] == -1 && atomicCAS(&level[v], -1, l + 1) == -1) {
                parent[v] = u;
                nq[atomicAdd(nq_size, 1)] = v;
            }
        }
    }
}
