// ECL-CC connected components (Jaiganesh & Burtscher, HPDC 2018), a native CUDA baseline.
//
// CSR int32 input (symmetric: an undirected graph stored both ways).  nstat[v] is a parent
// pointer that always points to a smaller-or-equal id, so after the final flatten every
// vertex holds the smallest vertex id of its component (canonical labels).
//
//   init     nstat[v] = first neighbour u < v in v's list (else v); vertices of degree
//            > 16 are put on a worklist (mid degrees at the front, high at the back).
//   compute1 one thread per low-degree vertex, compute2 one warp per mid-degree vertex,
//   compute3 one block per high-degree vertex: for each edge (v, u) with v > u, hook the
//            two representatives together with atomicCAS (larger root -> smaller root).
//            find() does intermediate pointer jumping.
//   flatten  nstat[v] = representative(v).

#define ECL_THREADS 256
#define ECL_WARPSIZE 32

__device__ __forceinline__ int ecl_rep(const int idx, int* __restrict__ nstat)
{
    int curr = nstat[idx];
    if (curr != idx) {
        int next, prev = idx;
        while (curr > (next = nstat[curr])) {
            nstat[prev] = next;
            prev = curr;
            curr = next;
        }
    }
    return curr;
}

__device__ __forceinline__ void ecl_hook(int& vstat, int ostat, int* __restrict__ nstat)
{
    bool repeat;
    do {
        repeat = false;
        if (vstat != ostat) {
            int ret;
            if (vstat < ostat) {
                if ((ret = atomicCAS(&nstat[ostat], ostat, vstat)) != ostat) {
                    ostat = ret;
                    repeat = true;
                }
            } else {
                if ((ret = atomicCAS(&nstat[vstat], vstat, ostat)) != vstat) {
                    vstat = ret;
                    repeat = true;
                }
            }
        }
    } while (repeat);
}

extern "C" __global__ void ecl_init(const int n, const int* __restrict__ nidx, const int* __restrict__ nlist,
                                    int* __restrict__ nstat, int* __restrict__ wl, int* __restrict__ wl_ends)
{
    // wl_ends[0]: next free slot at the front (mid degrees), wl_ends[1]: at the back (high degrees)
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int v = from; v < n; v += incr) {
        const int beg = nidx[v];
        const int end = nidx[v + 1];
        int m = v;
        int i = beg;
        while ((m == v) && (i < end)) {
            m = min(m, nlist[i]);
            i++;
        }
        nstat[v] = m;
        const int deg = end - beg;
        if (deg > 16) {
            if (deg <= 352) {
                wl[atomicAdd(&wl_ends[0], 1)] = v;
            } else {
                wl[atomicSub(&wl_ends[1], 1) - 1] = v;
            }
        }
    }
}

extern "C" __global__ void ecl_compute1(const int n, const int* __restrict__ nidx, const int* __restrict__ nlist,
                                        int* __restrict__ nstat)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int v = from; v < n; v += incr) {
        const int beg = nidx[v];
        const int end = nidx[v + 1];
        if (end - beg > 16) continue;
        int vstat = ecl_rep(v, nstat);
        for (int i = beg; i < end; i++) {
            const int nli = nlist[i];
            if (v > nli) {
                int ostat = ecl_rep(nli, nstat);
                ecl_hook(vstat, ostat, nstat);  // vstat follows v's root as hooks fail
            }
        }
    }
}

extern "C" __global__ void ecl_compute2(const int n, const int* __restrict__ nidx, const int* __restrict__ nlist,
                                        int* __restrict__ nstat, const int* __restrict__ wl,
                                        const int* __restrict__ wl_ends)
{
    const int lane = threadIdx.x % ECL_WARPSIZE;
    const int from = (threadIdx.x + blockIdx.x * blockDim.x) / ECL_WARPSIZE;
    const int incr = (gridDim.x * blockDim.x) / ECL_WARPSIZE;
    const int top = wl_ends[0];
    for (int idx = from; idx < top; idx += incr) {
        const int v = wl[idx];
        int vstat = ecl_rep(v, nstat);
        for (int i = nidx[v] + lane; i < nidx[v + 1]; i += ECL_WARPSIZE) {
            const int nli = nlist[i];
            if (v > nli) {
                int ostat = ecl_rep(nli, nstat);
                ecl_hook(vstat, ostat, nstat);
            }
        }
    }
}

extern "C" __global__ void ecl_compute3(const int n, const int* __restrict__ nidx, const int* __restrict__ nlist,
                                        int* __restrict__ nstat, const int* __restrict__ wl,
                                        const int* __restrict__ wl_ends)
{
    __shared__ int vB;
    const int bottom = wl_ends[1];
    for (int idx = n - 1 - blockIdx.x; idx >= bottom; idx -= gridDim.x) {
        const int v = wl[idx];
        if (threadIdx.x == 0) vB = ecl_rep(v, nstat);
        __syncthreads();
        int vstat = vB;
        for (int i = nidx[v] + threadIdx.x; i < nidx[v + 1]; i += blockDim.x) {
            const int nli = nlist[i];
            if (v > nli) {
                int ostat = ecl_rep(nli, nstat);
                ecl_hook(vstat, ostat, nstat);
            }
        }
        __syncthreads();
    }
}

extern "C" __global__ void ecl_flatten(const int n, int* __restrict__ nstat)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int v = from; v < n; v += incr) {
        int next, vstat = nstat[v];
        const int old = vstat;
        while (vstat > (next = nstat[vstat])) vstat = next;
        if (old != vstat) nstat[v] = vstat;
    }
}
